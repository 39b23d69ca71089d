/* test_image.c — unit tests of core/image.c: a ruleset written as an image
 * and read back.
 *
 * Covers: every shipped ruleset (and the toy one) survives the round trip
 * whole (its image read and written again is the same bytes, so no field
 * is lost or changed), and its own tests give the same report from the
 * image as compiled; file names move to the directory an image is loaded
 * as; the loaded graph can be built on (hash-consing made again) and
 * agrees with the compiled one; every truncation of an image, every
 * flipped byte, and another build's header are refused; a damaged body
 * with a checksum made to fit is refused or read whole, never read out of
 * bounds (the fuzz target tests/fuzz/fuzz_image.c goes further).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dsl/compile.h"
#include "image.h"
#include "testrun.h"

static ruleset *compile(const char *dir) {
    diag *d = diag_new(stderr);
    ruleset *rs = dsl_compile(dir, d);
    diag_free(d);
    assert_non_null(rs);
    return rs;
}

static strbuf encode(const ruleset *rs, const char *extra) {
    strbuf sb;
    sb_init(&sb);
    image_encode(rs, extra, &sb);
    return sb;
}

static char *test_report(const ruleset *rs) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    test_totals t = testrun_all(rs, NULL, f, true, true);
    fprintf(f, "%d passed, %d failed, %d of %d clauses\n", t.passed, t.failed,
            t.clauses - t.uncovered, t.clauses);
    fclose(f);
    return text;
}

static void round_trip(const char *dir) {
    ruleset *rs = compile(dir);
    strbuf a = encode(rs, "listing");
    char err[200] = "";
    const char *extra = NULL;
    ruleset *back = image_decode(a.data, a.len, dir, &extra, err, sizeof err);
    if (!back) fail_msg("%s: %s", dir, err);
    assert_string_equal(extra, "listing");
    strbuf b = encode(back, "listing");
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    char *r1 = test_report(rs), *r2 = test_report(back);
    assert_string_equal(r1, r2);
    free(r1);
    free(r2);
    sb_free(&a);
    sb_free(&b);
    ruleset_free(back);
    ruleset_free(rs);
}

static void test_shipped_rulesets_round_trip(void **state) {
    (void)state;
    round_trip("rulesets/bridge-2017");
    round_trip("rulesets/bridge-1963");
    round_trip("rulesets/klaverjas-nkf-1976");
    round_trip("tests/rules/toy");
    round_trip("tests/rules/klaverjas-mini");
}

static void test_files_move_with_the_directory(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    ruleset *back = image_decode(a.data, a.len, "elsewhere/toy", NULL, NULL, 0);
    assert_non_null(back);
    assert_string_equal(back->dir, "elsewhere/toy");
    assert_string_equal(back->files[0], "elsewhere/toy/toy.rules");
    assert_string_equal(back->facts[0].loc.file, "elsewhere/toy/toy.rules");
    assert_true(back->hash == rs->hash);
    ruleset_free(back);
    sb_free(&a);
    ruleset_free(rs);
}

static void test_loaded_graph_can_be_built_on(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    ruleset *back = image_decode(a.data, a.len, "tests/rules/toy", NULL, NULL, 0);
    assert_non_null(back);
    graph *g1 = rs->graph, *g2 = back->graph;
    assert_null(g2->unique);
    /* the same operations on both graphs give the same references: the
     * loaded one finds its nodes again and makes new ones alike */
    for (int v = 0; v < g1->nvars; v++) {
        gref x1 = graph_ite(g1, graph_var(g1, v), rs->root, rs->checked_root);
        gref x2 = graph_ite(g2, graph_var(g2, v), back->root, back->checked_root);
        assert_int_equal(x1, x2);
        assert_int_equal(graph_size(g1, x1), graph_size(g2, x2));
    }
    assert_int_equal(
        graph_node_ref(g2, g2->nodes[back->root].var, &g2->kids[g2->nodes[back->root].kids]),
        back->root);
    ruleset_free(back);
    sb_free(&a);
    ruleset_free(rs);
}

static void test_damage_is_refused(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    char err[200];
    for (size_t n = 0; n < a.len; n++) { /* every truncation */
        char *cut = malloc(n + 1);
        memcpy(cut, a.data, n);
        assert_null(image_decode(cut, n, "tests/rules/toy", NULL, err, sizeof err));
        free(cut);
    }
    for (size_t i = 0; i < a.len; i++) { /* every flipped byte */
        a.data[i] ^= 0x20;
        assert_null(image_decode(a.data, a.len, "tests/rules/toy", NULL, err, sizeof err));
        a.data[i] ^= 0x20;
    }
    memcpy(a.data + 16, "another build", 13);
    assert_null(image_decode(a.data, a.len, "tests/rules/toy", NULL, err, sizeof err));
    assert_string_equal(err, "made by another build");
    sb_free(&a);
    ruleset_free(rs);
}

/* The checksum made to fit the damage: what only a crafted image gets past. */
static void refit(strbuf *a) {
    uint64_t sum = image_checksum(a->data + IMAGE_HEADER_SIZE, a->len - IMAGE_HEADER_SIZE);
    for (int i = 0; i < 8; i++)
        a->data[IMAGE_HEADER_SIZE - 8 + i] = (char)(sum >> (8 * i));
}

static void test_crafted_bodies_are_checked(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    int refused = 0;
    for (size_t i = IMAGE_HEADER_SIZE; i < a.len; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            a.data[i] ^= (char)(1 << bit);
            refit(&a);
            ruleset *back = image_decode(a.data, a.len, "tests/rules/toy", NULL, NULL, 0);
            if (back) { /* accepted: whole enough to rule with */
                char *r = test_report(back);
                free(r);
                ruleset_free(back);
            } else {
                refused++;
            }
            a.data[i] ^= (char)(1 << bit);
        }
    assert_true(refused > 0);
    sb_free(&a);
    ruleset_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_rulesets_round_trip),
        cmocka_unit_test(test_files_move_with_the_directory),
        cmocka_unit_test(test_loaded_graph_can_be_built_on),
        cmocka_unit_test(test_damage_is_refused),
        cmocka_unit_test(test_crafted_bodies_are_checked),
    };
    return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
