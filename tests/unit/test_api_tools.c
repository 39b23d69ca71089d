/* test_api_tools.c — the tools for whole rulesets (core/api/arbiter.h,
 * "Tools for whole rulesets"), through arbiter.h alone, as an embedder
 * would: the completeness proof, the test runner, the diff of two
 * rulesets, an article's graph, the table of rulesets and "why not", and
 * bad arguments answered without a crash.
 *
 * The expectations are worked out from the rule files:
 * - tests/rules/toy/toy.rules: articles 1, 2, 3, 5, 6, 7 with 3 + 2 + 3 +
 *   4 + 1 + 1 = 14 clauses and 7 test blocks, none of which has turn_was =
 *   rho (clause 3C). Penalties come from 1B (very_late, i.e. minutes > 15,
 *   and repeated) and article 3 (through 1C): from minutes 5, the nearest
 *   is minutes 16.
 * - tests/rules/diff-late and diff-late-strict differ in 1B only (penalty
 *   2 against 4): of the 31 * 2 = 62 combinations of minutes 0..30 and
 *   repeated, minutes 6..30 with repeated = true (25) differ, 37 agree.
 * - tests/bad/missing-case.rules: article 1 rules on nothing when kind =
 *   noise and loud = false.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

static arb_ruleset *toy, *late, *strict;

static int group_setup(void **state) {
    (void)state;
    toy = arb_load("tests/rules/toy", stderr);
    late = arb_load("tests/rules/diff-late", stderr);
    strict = arb_load("tests/rules/diff-late-strict", stderr);
    return toy && late && strict ? 0 : -1;
}

static int group_teardown(void **state) {
    (void)state;
    arb_free(toy);
    arb_free(late);
    arb_free(strict);
    return 0;
}

/* A stream whose text the test reads afterwards. */
typedef struct capture {
    FILE *f;
    char *text;
    size_t len;
} capture;

static FILE *open_capture(capture *c) {
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
    return c->f;
}

static const char *captured(capture *c) {
    fflush(c->f);
    return c->text;
}

static void close_capture(capture *c) {
    fclose(c->f);
    free(c->text);
}

static void test_check_complete(void **state) {
    (void)state;
    capture out, err;
    assert_int_equal(arb_check("tests/rules/toy", NULL, 0, open_capture(&out), open_capture(&err)),
                     ARB_OK);
    assert_non_null(strstr(captured(&out), "toy: complete — 6 articles, 14 clauses,"));
    assert_non_null(strstr(captured(&out), "7 tests\n"));
    assert_string_equal(captured(&err), "");
    close_capture(&out);
    close_capture(&err);
}

/* A gap is reported where it is, with the test block that reaches it. */
static void test_check_gap(void **state) {
    (void)state;
    capture out, err;
    assert_int_equal(
        arb_check("tests/bad/missing-case.rules", NULL, 0, open_capture(&out), open_capture(&err)),
        ARB_BAD_INPUT);
    const char *e = captured(&err);
    assert_non_null(strstr(e, "missing-case.rules:9:49: error: article 1 gives no ruling when kind "
                              "= noise, loud = false"));
    assert_non_null(strstr(e, "given kind = noise, loud = false"));
    assert_non_null(strstr(e, "missing-case.rules: 1 error\n"));
    assert_string_equal(captured(&out), "");
    close_capture(&out);
    close_capture(&err);
}

/* diff-late with its 1B made strict by an amendment is complete too. */
static void test_check_amended(void **state) {
    (void)state;
    const char *amend[] = {"tests/rules/diff-changes/strict.amend"};
    capture out;
    assert_int_equal(arb_check("tests/rules/diff-late", amend, 1, open_capture(&out), NULL),
                     ARB_OK);
    assert_non_null(strstr(captured(&out), "late+S1: complete"));
    close_capture(&out);
}

static void test_test_blocks(void **state) {
    (void)state;
    capture out;
    int passed = -1, failed = -1;
    assert_int_equal(arb_test(toy, NULL, 0, open_capture(&out), &passed, &failed), ARB_OK);
    assert_int_equal(passed, 8); /* 7 test blocks and the completeness proof */
    assert_int_equal(failed, 0);
    assert_non_null(strstr(captured(&out), "8 passed, 0 failed\n"));
    close_capture(&out);
}

/* Verbose: the passing tests by name, in the order of the file. */
static void test_test_verbose(void **state) {
    (void)state;
    capture out;
    assert_int_equal(arb_test(toy, NULL, ARB_TEST_VERBOSE, open_capture(&out), NULL, NULL), ARB_OK);
    const char *t = captured(&out), *first = strstr(t, "ok   1A: kort te laat\n");
    assert_non_null(first);
    assert_non_null(strstr(first, "ok   1B: herhaald\n"));
    close_capture(&out);
}

/* No test gives turn_was = rho: with coverage, 3C is named and the run fails. */
static void test_test_coverage(void **state) {
    (void)state;
    capture out;
    assert_int_equal(arb_test(toy, NULL, ARB_TEST_COVERAGE, open_capture(&out), NULL, NULL),
                     ARB_NO_RULING);
    assert_non_null(strstr(captured(&out), "no test reaches clause 3C"));
    assert_non_null(strstr(captured(&out), "clauses reached by a test\n"));
    close_capture(&out);
}

static void test_diff_regions(void **state) {
    (void)state;
    capture out;
    arb_diff_options exact = {.format = ARB_DIFF_EXACT};
    assert_int_equal(arb_diff(late, strict, &exact, open_capture(&out), NULL), ARB_OK);
    const char *t = captured(&out);
    assert_non_null(strstr(t, "Verschil late → late-strict\n"));
    assert_non_null(
        strstr(t, "1 gebied met een andere uitspraak: 25 situaties; gelijk: 37 situaties."));
    assert_non_null(strstr(t, "minutes in {6..30}, repeated = true  (25 situaties)"));
    close_capture(&out);

    arb_diff_options o = {.article = "1", .json = 1};
    assert_int_equal(arb_diff(late, strict, &o, open_capture(&out), NULL), ARB_OK);
    t = captured(&out);
    assert_non_null(strstr(t, "\"article\": \"1\""));
    assert_non_null(strstr(t, "\"differing\": 25"));
    assert_non_null(strstr(t, "\"equal\": 37"));
    close_capture(&out);

    assert_int_equal(arb_diff(late, late, &exact, open_capture(&out), NULL), ARB_OK);
    assert_non_null(strstr(
        captured(&out), "0 gebieden met een andere uitspraak: 0 situaties; gelijk: 62 situaties."));
    close_capture(&out);

    /* the report for people (the default): the change, with its texts */
    assert_int_equal(arb_diff(late, strict, NULL, open_capture(&out), NULL), ARB_OK);
    t = captured(&out);
    assert_non_null(strstr(t, "1 soort situatie krijgt een andere uitspraak"));
    assert_non_null(strstr(t, "1. 1B: Aftrek van 2 punten. → 1B: Aftrek van 4 punten.\n"));
    close_capture(&out);
    arb_diff_options english = {.lang = ARB_EN, .format = ARB_DIFF_MARKDOWN};
    assert_int_equal(arb_diff(late, strict, &english, open_capture(&out), NULL), ARB_OK);
    assert_non_null(strstr(captured(&out),
                           "## 1. 1B: A deduction of 2 points. → 1B: A deduction of 4 points.\n"));
    close_capture(&out);
    arb_diff_options bad = {.format = (enum arb_diff_format)99};
    assert_int_equal(arb_diff(late, strict, &bad, open_capture(&out), NULL), ARB_BAD_INPUT);
    close_capture(&out);
}

static void test_diff_unknown_article(void **state) {
    (void)state;
    capture out, err;
    arb_diff_options o = {.article = "2"};
    assert_int_equal(arb_diff(late, strict, &o, open_capture(&out), open_capture(&err)),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(captured(&err), "neither late nor late-strict has an article 2"));
    assert_string_equal(captured(&out), "");
    close_capture(&out);
    close_capture(&err);
}

/* Of three cases only minutes 10 with repeated (1B: 2 against 4 points) changes. */
static void test_diff_cases(void **state) {
    (void)state;
    const char *cases =
        "{\"minutes\": 3, \"repeated\": true}\n\n{\"minutes\": 10, \"repeated\": true}\n"
        "{\"minutes\": 10, \"repeated\": false}";
    arb_diff_options o = {.cases = cases, .cases_len = strlen(cases)};
    capture out;
    assert_int_equal(arb_diff(late, strict, &o, open_capture(&out), NULL), ARB_OK);
    const char *t = captured(&out);
    assert_non_null(strstr(t, "regel 3: {\"minutes\": 10, \"repeated\": true}\n"));
    assert_non_null(strstr(t, "[1B] penalty{\"points\":2}"));
    assert_non_null(strstr(t, "[1B] penalty{\"points\":4}"));
    assert_non_null(strstr(t, "1 van 3 zaken krijgen een andere uitspraak; 2 ongewijzigd.\n"));
    assert_null(strstr(t, "regel 1"));
    close_capture(&out);

    o.json = 1;
    assert_int_equal(arb_diff(late, strict, &o, open_capture(&out), NULL), ARB_OK);
    assert_non_null(strstr(captured(&out), "\"changed\": 1"));
    close_capture(&out);

    /* a line neither ruleset can read: listed with why, not unchanged */
    o = (arb_diff_options){.cases = "{\"minutes\": 99}", .cases_len = 15};
    assert_int_equal(arb_diff(late, strict, &o, open_capture(&out), NULL), ARB_BAD_INPUT);
    t = captured(&out);
    assert_non_null(strstr(t, "regel 1: niet te beoordelen"));
    assert_non_null(strstr(
        t, "0 van 1 zaken krijgen een andere uitspraak; 0 ongewijzigd; 1 niet te beoordelen"));
    close_capture(&out);
}

/* diff-late's three tests each rule on a whole situation: three lines. */
static void test_test_scenarios(void **state) {
    (void)state;
    capture out;
    int written = -1;
    assert_int_equal(arb_test_scenarios(late, open_capture(&out), &written), ARB_OK);
    assert_int_equal(written, 3);
    assert_string_equal(captured(&out), "{\"minutes\":5}\n{\"minutes\":6,\"repeated\":true}\n{"
                                        "\"minutes\":30,\"repeated\":false}\n");
    close_capture(&out);
    assert_int_equal(arb_test_scenarios(NULL, stdout, &written), ARB_BAD_INPUT);
}

/* In tests/rules/overlap, 1B (repeated) comes after 1A (at most 5 minutes):
 * a repeated offence of 0 minutes is 1A's. diff-late's 1B (repeated) after
 * 1A likewise. */
static void test_hidden_clauses(void **state) {
    (void)state;
    arb_ruleset *overlap = arb_load("tests/rules/overlap", stderr);
    assert_non_null(overlap);
    capture out;
    int found = -1;
    assert_int_equal(arb_hidden_clauses(overlap, open_capture(&out), &found), ARB_OK);
    assert_int_equal(found, 1);
    assert_non_null(strstr(captured(&out),
                           "clause 1B (tests/rules/overlap/overlap.rules:20) is partly hidden by "
                           "the earlier clause 1A (tests/rules/overlap/overlap.rules:19): "
                           "given minutes = 0, repeated = true\n"));
    close_capture(&out);
    arb_free(overlap);
    assert_int_equal(arb_hidden_clauses(NULL, stdout, &found), ARB_BAD_INPUT);
}

static void test_graph(void **state) {
    (void)state;
    capture out, err;
    assert_int_equal(arb_graph_dot(toy, "2", open_capture(&out), NULL), ARB_OK);
    const char *t = captured(&out);
    assert_non_null(strstr(t, "digraph"));
    assert_non_null(strstr(t, "volume"));
    assert_non_null(strstr(t, "2B"));
    close_capture(&out);
    assert_int_equal(arb_graph_dot(toy, "9", open_capture(&out), open_capture(&err)),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(captured(&err), "toy has no article 9"));
    assert_string_equal(captured(&out), "");
    close_capture(&out);
    close_capture(&err);
}

/* tests/rules holds nine rulesets; diff-changes has no header and is not one. */
static void test_rulesets_table(void **state) {
    (void)state;
    capture out;
    int listed = -1;
    assert_int_equal(arb_rulesets_table("tests/rules", open_capture(&out), &listed), ARB_OK);
    assert_int_equal(listed, 9);
    const char *t = captured(&out);
    assert_non_null(strstr(t, "\ntoy "));
    assert_non_null(strstr(t, " Speelgoedregels\n"));
    assert_non_null(strstr(t, "fnv1a64:"));
    assert_null(strstr(t, "diff-changes"));
    close_capture(&out);
    assert_int_equal(arb_rulesets_table("tests/no-such-dir", open_capture(&out), &listed), ARB_OK);
    assert_int_equal(listed, 0);
    close_capture(&out);
}

static void test_why_not(void **state) {
    (void)state;
    capture out;
    const char *five = "{\"irregularity\": \"late\", \"minutes\": 5}";
    assert_int_equal(arb_why_not(toy, NULL, five, strlen(five), "penalty", open_capture(&out)),
                     ARB_OK);
    assert_non_null(strstr(captured(&out), "Waarom niet penalty?"));
    assert_non_null(strstr(captured(&out), "  minutes = 16 (niet 5)\n"));
    close_capture(&out);

    /* minutes not given: it decides */
    const char *open = "{\"irregularity\": \"late\"}";
    assert_int_equal(arb_why_not(toy, NULL, open, strlen(open), "penalty", open_capture(&out)),
                     ARB_OK);
    assert_non_null(strstr(captured(&out), "de nog niet gegeven feiten beslissen"));
    close_capture(&out);

    assert_int_equal(arb_why_not(toy, NULL, five, strlen(five), "fine", open_capture(&out)),
                     ARB_BAD_INPUT);
    assert_string_equal(captured(&out), "");
    assert_int_equal(arb_why_not(toy, NULL, "{\"minutes\":", 11, "penalty", out.f), ARB_BAD_INPUT);
    close_capture(&out);
}

/* Bad arguments: answers, never a crash. */
static void test_bad_arguments(void **state) {
    (void)state;
    capture out;
    FILE *f = open_capture(&out);
    int passed = -1, failed = -1;
    assert_int_equal(arb_check(NULL, NULL, 0, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_check("tests/rules/toy", NULL, 0, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_check("tests/rules/toy", NULL, -1, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_check("tests/rules/toy", NULL, 1, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_check("tests/no-such-ruleset", NULL, 0, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_test(NULL, NULL, 0, f, &passed, &failed), ARB_BAD_INPUT);
    assert_int_equal(passed, 0);
    assert_int_equal(failed, 0);
    assert_int_equal(arb_test(toy, NULL, 0, NULL, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_diff(NULL, late, NULL, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_diff(late, strict, NULL, NULL, NULL), ARB_BAD_INPUT);
    arb_diff_options o = {.cases_len = 4};
    assert_int_equal(arb_diff(late, strict, &o, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_graph_dot(toy, NULL, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_graph_dot(NULL, "1", f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_rulesets_table(NULL, f, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_why_not(NULL, NULL, "{}", 2, "penalty", f), ARB_BAD_INPUT);
    assert_int_equal(arb_why_not(toy, NULL, NULL, 0, "penalty", f), ARB_BAD_INPUT);
    assert_int_equal(arb_why_not(toy, NULL, "{}", 2, NULL, f), ARB_BAD_INPUT);
    assert_string_equal(captured(&out), "");
    close_capture(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_complete), cmocka_unit_test(test_check_gap),
        cmocka_unit_test(test_check_amended),  cmocka_unit_test(test_test_blocks),
        cmocka_unit_test(test_test_verbose),   cmocka_unit_test(test_test_coverage),
        cmocka_unit_test(test_diff_regions),   cmocka_unit_test(test_diff_unknown_article),
        cmocka_unit_test(test_diff_cases),     cmocka_unit_test(test_graph),
        cmocka_unit_test(test_test_scenarios), cmocka_unit_test(test_hidden_clauses),
        cmocka_unit_test(test_rulesets_table), cmocka_unit_test(test_why_not),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests_name("api_tools", tests, group_setup, group_teardown);
}
