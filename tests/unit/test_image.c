/* test_image.c — unit tests of core/store/image.c: a ruleset written as an image
 * and read back.
 *
 * Covers: every shipped ruleset (and the toy one) survives the round trip
 * whole (its image read and written again is the same bytes, so no field
 * is lost or changed), and its own tests give the same report from the
 * image as compiled; file names move to the directory an image is loaded
 * as; the loaded graph can be built on (hash-consing made again) and
 * agrees with the compiled one; an image loaded from its file is read in
 * place (the graph's arrays in the mapping) and copied before it is built
 * on; every truncation of an image, every
 * flipped byte, and another build's header are refused; a damaged body
 * with a seal made to fit (under the key) is refused or read whole, never
 * read out of bounds (the fuzz target tests/fuzz/fuzz_image.c goes
 * further); an image sealed under another key is refused, and so is the
 * forgery a checksum allowed: another ruleset's image with the hash
 * patched and the seal made again without the key; the seal is RFC 4231's
 * HMAC-SHA-256.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "compile.h"
#include "image.h"
#include "testrun.h"

/* The user's key, as the cache keeps one; and one that is not it. */
static const unsigned char KEY[IMAGE_KEY_SIZE] = "the user's own sealing key 0123";
static const unsigned char OTHER_KEY[IMAGE_KEY_SIZE] = "a key that is not the user's 01";

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
    image_encode(rs, extra, KEY, &sb);
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
    ruleset *back = image_decode(a.data, a.len, dir, KEY, &extra, err, sizeof err);
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
    round_trip("rulesets/bridge-1997");
    round_trip("rulesets/klaverjas-nkf-1976");
    round_trip("tests/rules/toy");
    round_trip("tests/rules/klaverjas-mini");
    round_trip("tests/rules/defaults"); /* facts with a default */
}

static void test_files_move_with_the_directory(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    ruleset *back = image_decode(a.data, a.len, "elsewhere/toy", KEY, NULL, NULL, 0);
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
    ruleset *back = image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, NULL, 0);
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

/* An image loaded from its file is read in place: the graph's nodes and
 * children lie in the mapping (aligned by the writer), rulings and tests
 * are those of the compiled ruleset, and building on the graph first
 * copies it (the mapping is read-only), after which it still agrees. */
static void test_mapped_image_is_read_in_place(void **state) {
    (void)state;
    ruleset *rs = compile("rulesets/bridge-2017");
    strbuf a = encode(rs, NULL);
    char path[] = "/tmp/arbiter-test-image-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.data, a.len), (ssize_t)a.len);
    close(fd);
    char err[200] = "";
    ruleset *back = image_load(path, "rulesets/bridge-2017", KEY, NULL, err, sizeof err);
    unlink(path);
    if (!back) fail_msg("%s", err);
    graph *g = back->graph;
    assert_true(g->borrowed);
    assert_int_equal((uintptr_t)g->nodes % _Alignof(graph_node), 0);
    assert_int_equal((uintptr_t)g->kids % _Alignof(gref), 0);
    assert_int_equal(g->nnodes, rs->graph->nnodes);
    assert_memory_equal(g->nodes, rs->graph->nodes, sizeof *g->nodes * (size_t)g->nnodes);
    assert_memory_equal(g->kids, rs->graph->kids, sizeof *g->kids * (size_t)g->nkids);
    char *r1 = test_report(rs), *r2 = test_report(back);
    assert_string_equal(r1, r2);
    gref x1 = graph_ite(rs->graph, graph_var(rs->graph, 0), rs->root, rs->checked_root);
    gref x2 = graph_ite(g, graph_var(g, 0), back->root, back->checked_root);
    assert_false(g->borrowed); /* copied before the first new node */
    assert_int_equal(x1, x2);
    char *r3 = test_report(back);
    assert_string_equal(r1, r3);
    /* the expressions lie in the ruleset's arena: one more is a copy of
     * them, and the old ones read the same */
    assert_true(back->exprs.borrowed);
    int n = back->exprs.len;
    rs_expr *more = vec_push(&back->exprs);
    more->kind = EX_CONST;
    more->k = 42;
    assert_false(back->exprs.borrowed);
    assert_int_equal(back->exprs.len, n + 1);
    for (int i = 0; i < n; i++) {
        const rs_expr *was = rs_expr_at(rs, i), *is = rs_expr_at(back, i);
        assert_int_equal(is->kind, was->kind);
        assert_int_equal(is->op, was->op);
        assert_int_equal(is->a, was->a);
        assert_int_equal(is->b, was->b);
        assert_int_equal(is->k, was->k);
    }
    assert_int_equal(rs_expr_at(back, n)->k, 42);
    free(r1);
    free(r2);
    free(r3);
    sb_free(&a);
    ruleset_free(back);
    ruleset_free(rs);
}

/* An image checked before (its note written once out of the racy window,
 * hence the wait)
 * leaves its test blocks in the mapping until rs_tests asks: the same
 * tests as the compiled ruleset's, decoded once. */
static void test_tests_of_a_checked_image_are_decoded_when_asked(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    char dir[] = "/tmp/arbiter-test-lazy-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[PATH_MAX], note[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/toy.arb", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.data, a.len), (ssize_t)a.len);
    close(fd);
    sleep(RACY_SECONDS + 1); /* out of the racy window: its change time cannot be set back */
    char err[200] = "";
    ruleset *first = image_load(path, "tests/rules/toy", KEY, NULL, err, sizeof err);
    if (!first) fail_msg("%s", err);
    assert_null(first->tests_pending); /* checked now: decoded and validated whole */
    ruleset *again = image_load(path, "tests/rules/toy", KEY, NULL, err, sizeof err);
    if (!again) fail_msg("%s", err);
    assert_non_null(again->tests_pending);
    const rs_test *want, *got;
    int n = rs_tests(rs, &want);
    assert_true(n > 0);
    assert_int_equal(rs_tests(again, &got), n);
    assert_null(again->tests_pending);
    for (int i = 0; i < n; i++) {
        assert_string_equal(got[i].name, want[i].name);
        assert_int_equal(got[i].ngiven, want[i].ngiven);
        assert_int_equal(got[i].nexpect, want[i].nexpect);
    }
    assert_int_equal(rs_tests(again, &got), n); /* once */
    ruleset_free(again);
    ruleset_free(first);
    snprintf(note, sizeof note, "%s/toy.seen", dir);
    unlink(note);
    unlink(path);
    rmdir(dir);
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
        assert_null(image_decode(cut, n, "tests/rules/toy", KEY, NULL, err, sizeof err));
        free(cut);
    }
    for (size_t i = 0; i < a.len; i++) { /* every flipped byte */
        a.data[i] ^= 0x20;
        assert_null(image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, err, sizeof err));
        a.data[i] ^= 0x20;
    }
    memcpy(a.data + 16, "another build", 13);
    assert_null(image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, err, sizeof err));
    assert_string_equal(err, "made by another build");
    sb_free(&a);
    ruleset_free(rs);
}

/* The seal made again under key: after damage, what only a crafted image
 * (and one made with the key) gets past. */
static void reseal(strbuf *a, const unsigned char *key) {
    image_seal(key, a->data, a->len, (unsigned char *)a->data + IMAGE_SEAL_OFFSET);
}

static void test_crafted_bodies_are_checked(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, NULL);
    int refused = 0;
    for (size_t i = IMAGE_HEADER_SIZE; i < a.len; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            a.data[i] ^= (char)(1 << bit);
            reseal(&a, KEY);
            ruleset *back = image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, NULL, 0);
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

/* The attack a checksum allowed: another ruleset's image, its hash field
 * patched to the hash of the rules it is to pass for, and the integrity
 * field made again by whoever has no key. */
static void test_forged_image_is_refused(void **state) {
    (void)state;
    ruleset *toy = compile("tests/rules/toy");
    ruleset *other = compile("tests/rules/klaverjas-mini");
    strbuf a = encode(other, NULL);
    unsigned char from[8], to[8];
    for (int i = 0; i < 8; i++) {
        from[i] = (unsigned char)(other->hash >> (8 * i));
        to[i] = (unsigned char)(toy->hash >> (8 * i));
    }
    int patched = 0;
    for (size_t i = IMAGE_HEADER_SIZE; i + 8 <= a.len; i++)
        if (memcmp(a.data + i, from, 8) == 0) {
            memcpy(a.data + i, to, 8);
            patched++;
        }
    assert_int_equal(patched, 1);
    char err[200] = "";
    assert_null(image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, err, sizeof err));
    assert_non_null(strstr(err, "seal does not match"));
    reseal(&a, OTHER_KEY); /* the forger's own key */
    assert_null(image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, err, sizeof err));
    assert_non_null(strstr(err, "seal does not match"));
    /* under the key it would read back as the other rules with the toy's
     * hash: the seal is what refuses it */
    reseal(&a, KEY);
    ruleset *back = image_decode(a.data, a.len, "tests/rules/toy", KEY, NULL, NULL, 0);
    assert_non_null(back);
    assert_true(back->hash == toy->hash);
    assert_string_equal(back->name, other->name);
    ruleset_free(back);
    sb_free(&a);
    ruleset_free(other);
    ruleset_free(toy);
}

/* An image is read only under the key that sealed it, and every byte of
 * it, header included, is under the seal. */
static void test_sealed_under_one_key(void **state) {
    (void)state;
    ruleset *rs = compile("tests/rules/toy");
    strbuf a = encode(rs, "listing");
    char err[200] = "";
    assert_null(image_decode(a.data, a.len, "tests/rules/toy", OTHER_KEY, NULL, err, sizeof err));
    assert_non_null(strstr(err, "seal does not match"));
    unsigned char seal[IMAGE_SEAL_SIZE];
    image_seal(KEY, a.data, a.len, seal);
    assert_memory_equal(seal, a.data + IMAGE_SEAL_OFFSET, IMAGE_SEAL_SIZE);
    for (size_t i = 0; i < a.len; i++) {
        if (i == IMAGE_SEAL_OFFSET) i = IMAGE_HEADER_SIZE; /* the seal itself */
        unsigned char other[IMAGE_SEAL_SIZE];
        a.data[i] ^= 1;
        image_seal(KEY, a.data, a.len, other);
        a.data[i] ^= 1;
        assert_true(memcmp(seal, other, sizeof seal) != 0);
    }
    sb_free(&a);
    ruleset_free(rs);
}

/* The seal is the standard HMAC-SHA-256: RFC 4231 test cases 1 and 2
 * (their keys are shorter than the hash's block, so HMAC pads them with
 * zero bytes, as the 32 bytes here are), on data shorter than the part of
 * a header the seal covers. */
static void test_seal_is_hmac_sha256(void **state) {
    (void)state;
    static const struct {
        unsigned char key[IMAGE_KEY_SIZE];
        const char *data, *hmac;
    } cases[] = {
        {{0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
          0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b},
         "Hi There",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {"Jefe", "what do ya want for nothing?",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned char seal[IMAGE_SEAL_SIZE];
        image_seal(cases[i].key, cases[i].data, strlen(cases[i].data), seal);
        char hex[2 * IMAGE_SEAL_SIZE + 1];
        for (int j = 0; j < IMAGE_SEAL_SIZE; j++)
            snprintf(hex + 2 * j, 3, "%02x", seal[j]);
        assert_string_equal(hex, cases[i].hmac);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_rulesets_round_trip),
        cmocka_unit_test(test_files_move_with_the_directory),
        cmocka_unit_test(test_loaded_graph_can_be_built_on),
        cmocka_unit_test(test_mapped_image_is_read_in_place),
        cmocka_unit_test(test_tests_of_a_checked_image_are_decoded_when_asked),
        cmocka_unit_test(test_damage_is_refused),
        cmocka_unit_test(test_crafted_bodies_are_checked),
        cmocka_unit_test(test_forged_image_is_refused),
        cmocka_unit_test(test_sealed_under_one_key),
        cmocka_unit_test(test_seal_is_hmac_sha256),
    };
    return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
