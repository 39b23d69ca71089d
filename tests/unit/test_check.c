/* test_check.c — unit tests of dsl/check.c: what dsl_check proves on the
 * compiled decision graphs.
 *
 * Covers: a complete ruleset reports 0 problems and prints nothing; a gap
 * inside an article is reported at its block with the exact assignment
 * that reaches it (`given a = y, b = false`) and a ready-to-run test block;
 * "no article rules on the situation …"; invariants that exclude a
 * combination remove the gap; gaps in nested blocks, in match arms with
 * ranges, in applied articles (proved in the context that applies them);
 * a gap is not filled by another article's ruling; one report per block;
 * conditions that divide by zero or overflow, and the `and`/`or`/`implies`
 * guards that keep them from failing.
 *
 * The expected assignments are worked out by hand from the rules (facts are
 * tested in declaration order, values in their listed order).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "compile.h"

/* ---------------------------------------------------------------- helpers */

/* a: enum with labels (the report must use the names), b: bool, n: int. */
#define VOCAB                                                                                      \
    "ruleset \"chk\" { title \"Controle\" }\n"                                                     \
    "fact a : enum { x \"iks\", y \"ypsilon\" }\n"                                                 \
    "  ask \"a?\"\n"                                                                               \
    "fact b : bool\n"                                                                              \
    "  ask \"b?\"\n"                                                                               \
    "fact n : int 0..3\n"                                                                          \
    "  ask \"n?\"\n"                                                                               \
    "action w text \"w\"\n"

typedef struct checked {
    int problems;
    int errors; /* diag errors after the check */
    char *out;  /* what the check printed */
    const char *text;
} checked;

/* Compiles rules (which must compile cleanly) and checks them. */
static void check_text(checked *c, const char *rules) {
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/arbiter-unit-check-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.rules", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(rules, f);
    fclose(f);

    char *cout = NULL;
    size_t clen = 0;
    FILE *cmem = open_memstream(&cout, &clen);
    diag *cd = diag_new(cmem);
    ruleset *rs = dsl_compile(dir, cd);
    int cerr = diag_errors(cd);
    diag_free(cd);
    fclose(cmem);
    unlink(path);
    rmdir(dir);
    if (!rs || cerr) fail_msg("the rules do not compile:\n%s", cout);
    free(cout);

    size_t len = 0;
    c->out = NULL;
    FILE *mem = open_memstream(&c->out, &len);
    diag *d = diag_new(mem);
    c->problems = dsl_check(rs, d);
    c->errors = diag_errors(d);
    c->text = rules;
    diag_free(d);
    fclose(mem);
    ruleset_free(rs);
}

static void checked_free(checked *c) {
    free(c->out);
}

static void assert_contains(const char *text, const char *needle) {
    if (!text || !strstr(text, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, text ? text : "(null)");
}

static void assert_not_contains(const char *text, const char *needle) {
    if (text && strstr(text, needle)) fail_msg("did not expect \"%s\" in:\n%s", needle, text);
}

static int count(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* "a.rules:LINE:COL: error: MSG" with LINE:COL the position of `token`
 * searched from `fragment` in the rule text. */
static void assert_error_at(const checked *c, const char *fragment, const char *token,
                            const char *msg) {
    const char *at = strstr(c->text, fragment);
    if (!at) fail_msg("fragment \"%s\" not in the rule text", fragment);
    const char *tok = strstr(at, token);
    assert_non_null(tok);
    int line = 1;
    const char *line_start = c->text;
    for (const char *p = c->text; p < tok; p++)
        if (*p == '\n') {
            line++;
            line_start = p + 1;
        }
    char want[512];
    snprintf(want, sizeof want, "a.rules:%d:%d: error: %s", line, (int)(tok - line_start) + 1, msg);
    assert_contains(c->out, want);
}

static void assert_complete(checked *c) {
    if (c->problems != 0) fail_msg("%d problems:\n%s", c->problems, c->out);
    assert_int_equal(c->errors, 0);
    assert_not_contains(c->out, "error");
}

/* ------------------------------------------------------------- complete */

static void test_complete_ruleset_has_no_problems(void **state) {
    (void)state;
    checked c;
    check_text(&c,
               VOCAB "article 1 when a == x { if b => 1A { w } otherwise => 1B { w } }\n"
                     "article 2 when a == y { match n { 0..1 => 2A { w } 2, 3 => 2B { w } } }\n");
    assert_complete(&c);
    assert_int_equal(strlen(c.out), 0);
    checked_free(&c);
}

static void test_actions_only_block_is_a_ruling(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true { w }\n");
    assert_complete(&c);
    checked_free(&c);
}

/* ----------------------------------------------------------------- gaps */

static void test_gap_in_article_with_assignment(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true { if a == x => 1A { w } if b => 1B { w } }\n");
    assert_int_equal(c.problems, 1);
    assert_int_equal(c.errors, 1);
    /* a = x takes 1A; a = y needs b; b = false is the gap */
    assert_error_at(&c, "article 1 when true {", "{",
                    "article 1 gives no ruling when a = y, b = false");
    assert_contains(c.out, "given a = y, b = false");
    assert_contains(c.out, "test \"");
    /* names, not labels */
    assert_not_contains(c.out, "ypsilon");
    checked_free(&c);
}

static void test_gap_lists_only_facts_that_matter(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true { if n == 0 => 1A { w } }\n");
    assert_int_equal(c.problems, 1); /* n = 1, 2, 3 are one gap of one block */
    assert_contains(c.out, "article 1 gives no ruling when n = 1\n");
    assert_contains(c.out, "given n = 1 expect");
    assert_not_contains(c.out, "a = ");
    assert_not_contains(c.out, "b = ");
    checked_free(&c);
}

static void test_gap_in_match_with_ranges(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true { match n { 0..1 => 1A { w } 3 => 1B { w } } }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "article 1 gives no ruling when n = 2");
    checked_free(&c);
}

static void test_gap_in_nested_block(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true {\n"
                         "  if a == x { if b => 1A { w } }\n"
                         "  otherwise => 1B { w }\n"
                         "}\n");
    assert_int_equal(c.problems, 1);
    /* the inner block is the one without a ruling */
    assert_error_at(&c, "if a == x {", "{", "article 1 gives no ruling when a = x, b = false");
    checked_free(&c);
}

static void test_each_block_reported_once(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when a == x { if b => 1A { w } }\n"
                         "article 2 when a == y { if n > 1 => 2A { w } }\n");
    assert_int_equal(c.problems, 2);
    assert_int_equal(count(c.out, "error:"), 2);
    assert_contains(c.out, "article 1 gives no ruling when a = x, b = false");
    assert_contains(c.out, "article 2 gives no ruling when a = y, n = 0");
    checked_free(&c);
}

static void test_no_article_rules_on_situation(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when a == x { w }\n");
    assert_int_equal(c.problems, 1);
    assert_error_at(&c, "ruleset \"chk\"", "\"chk\"", "no article rules on the situation a = y");
    assert_contains(c.out, "given a = y expect");
    checked_free(&c);
}

static void test_no_article_for_a_combination(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when a == x or b { w }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "no article rules on the situation a = y, b = false");
    checked_free(&c);
}

static void test_other_article_does_not_fill_a_gap(void **state) {
    (void)state;
    checked c;
    /* b = false reaches article 1's block, which takes no clause: a gap,
     * even though article 2 rules on the same situation */
    check_text(&c, VOCAB "article 1 when true { if b => 1A { w } }\n"
                         "article 2 when not b { w }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "article 1 gives no ruling when b = false");
    checked_free(&c);
}

/* ------------------------------------------------------------ invariants */

static void test_invariant_excluding_combination_removes_gap(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "invariant \"y gaat met b\" a == y implies b\n"
                         "article 1 when true { if a == x => 1A { w } if b => 1B { w } }\n");
    assert_complete(&c);
    checked_free(&c);
}

static void test_invariant_removes_the_no_article_situation(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "invariant \"altijd x\" a == x\n"
                         "article 1 when a == x { w }\n");
    assert_complete(&c);
    checked_free(&c);
}

static void test_partial_invariant_leaves_other_gaps(void **state) {
    (void)state;
    checked c;
    /* the invariant excludes a = y, b = false, n = 0 only */
    check_text(&c, VOCAB "invariant \"geen nul\" a == y and not b implies n != 0\n"
                         "article 1 when true { if a == x => 1A { w } if b => 1B { w } }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "article 1 gives no ruling when a = y, b = false, n = 1");
    checked_free(&c);
}

/* ----------------------------------------------------------------- apply */

static void test_applied_article_proved_in_its_context(void **state) {
    (void)state;
    checked c;
    /* article 2 alone has no ruling for b = false, but it is only applied
     * when b holds */
    check_text(&c, VOCAB "article 1 when true { if b => 1A apply 2 otherwise => 1B { w } }\n"
                         "article 2 { if b => 2A { w } }\n");
    assert_complete(&c);
    checked_free(&c);
}

static void test_gap_in_applied_article(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true { if b => 1A apply 2 otherwise => 1B { w } }\n"
                         "article 2 { if a == x => 2A { w } }\n");
    assert_int_equal(c.problems, 1);
    assert_error_at(&c, "article 2 {", "{", "article 2 gives no ruling when a = y, b = true");
    checked_free(&c);
}

/* ------------------------------------------------------- evaluation errors */

static void test_division_by_zero_in_condition(void **state) {
    (void)state;
    checked c;
    check_text(&c,
               VOCAB "article 1 when true { if 12 / n > 3 => 1A { w } otherwise => 1B { w } }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "error: a condition fails while deciding: division by zero");
    assert_contains(c.out, "given n = 0");
    checked_free(&c);
}

static void test_remainder_by_zero_in_when(void **state) {
    (void)state;
    checked c;
    check_text(&c,
               VOCAB "article 1 when 7 % n == 1 { w }\narticle 2 when not (7 % n == 1) { w }\n");
    assert_int_equal(c.problems, 1); /* one error kind, reported once */
    assert_contains(c.out, "division by zero");
    assert_contains(c.out, "given n = 0");
    checked_free(&c);
}

static void test_overflow_in_condition(void **state) {
    (void)state;
    checked c;
    /* 2 * 2^62 = 2^63 does not fit; 1 * 2^62 does */
    check_text(&c, VOCAB "article 1 when true { if n * 4611686018427387904 > 0 => 1A { w } "
                         "otherwise => 1B { w } }\n");
    assert_int_equal(c.problems, 1);
    assert_contains(c.out, "error: a condition fails while deciding: integer overflow");
    assert_contains(c.out, "given n = 2");
    checked_free(&c);
}

static void test_guarded_division_is_fine(void **state) {
    (void)state;
    checked c;
    check_text(&c, VOCAB "article 1 when true {\n"
                         "  if n != 0 and 12 / n > 5 => 1A { w }\n"     /* n = 1, 2 */
                         "  if n == 0 or 12 / n == 6 => 1B { w }\n"     /* n = 0 */
                         "  if n > 0 implies 12 / n == 4 => 1C { w }\n" /* n = 3 */
                         "}\n");
    assert_complete(&c);
    checked_free(&c);
}

static void test_error_and_gap_both_reported(void **state) {
    (void)state;
    checked c;
    check_text(&c,
               VOCAB "article 1 when a == x { if 6 / n > 2 => 1A { w } otherwise => 1B { w } }\n"
                     "article 2 when a == y { if b => 2A { w } }\n");
    assert_int_equal(c.problems, 2);
    assert_int_equal(c.errors, 2);
    assert_contains(c.out, "division by zero");
    assert_contains(c.out, "given a = x, n = 0");
    assert_contains(c.out, "article 2 gives no ruling when a = y, b = false");
    checked_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete_ruleset_has_no_problems),
        cmocka_unit_test(test_actions_only_block_is_a_ruling),
        cmocka_unit_test(test_gap_in_article_with_assignment),
        cmocka_unit_test(test_gap_lists_only_facts_that_matter),
        cmocka_unit_test(test_gap_in_match_with_ranges),
        cmocka_unit_test(test_gap_in_nested_block),
        cmocka_unit_test(test_each_block_reported_once),
        cmocka_unit_test(test_no_article_rules_on_situation),
        cmocka_unit_test(test_no_article_for_a_combination),
        cmocka_unit_test(test_other_article_does_not_fill_a_gap),
        cmocka_unit_test(test_invariant_excluding_combination_removes_gap),
        cmocka_unit_test(test_invariant_removes_the_no_article_situation),
        cmocka_unit_test(test_partial_invariant_leaves_other_gaps),
        cmocka_unit_test(test_applied_article_proved_in_its_context),
        cmocka_unit_test(test_gap_in_applied_article),
        cmocka_unit_test(test_division_by_zero_in_condition),
        cmocka_unit_test(test_remainder_by_zero_in_when),
        cmocka_unit_test(test_overflow_in_condition),
        cmocka_unit_test(test_guarded_division_is_fine),
        cmocka_unit_test(test_error_and_gap_both_reported),
    };
    return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
