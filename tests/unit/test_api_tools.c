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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static arb_ruleset *toy, *late, *strict;
static const fixture_ruleset rulesets[] = {
    {"tests/rules/toy", &toy},
    {"tests/rules/diff-late", &late},
    {"tests/rules/diff-late-strict", &strict},
    {NULL, NULL},
};

static void test_check_complete(void **state) {
    (void)state;
    fixture_capture out, err;
    assert_int_equal(arb_check("tests/rules/toy", NULL, 0, capture_open(&out), capture_open(&err)),
                     ARB_OK);
    assert_non_null(strstr(capture_text(&out), "toy: complete — 6 articles, 14 clauses,"));
    assert_non_null(strstr(capture_text(&out), "7 tests\n"));
    assert_string_equal(capture_text(&err), "");
    capture_close(&out);
    capture_close(&err);
}

/* A gap is reported where it is, with the test block that reaches it. */
static void test_check_gap(void **state) {
    (void)state;
    fixture_capture out, err;
    assert_int_equal(
        arb_check("tests/bad/missing-case.rules", NULL, 0, capture_open(&out), capture_open(&err)),
        ARB_BAD_INPUT);
    const char *e = capture_text(&err);
    assert_non_null(strstr(e, "missing-case.rules:9:49: error: article 1 gives no ruling when kind "
                              "= noise, loud = false"));
    assert_non_null(strstr(e, "given kind = noise, loud = false"));
    assert_non_null(strstr(e, "missing-case.rules: 1 error\n"));
    assert_string_equal(capture_text(&out), "");
    capture_close(&out);
    capture_close(&err);
}

/* arb_check_kept hands over the ruleset it proved, the one arb_load gives
 * (no second compile), and nothing where the check fails. */
static void test_check_kept(void **state) {
    (void)state;
    fixture_capture out, err, tests, bad;
    arb_ruleset *rs = NULL;
    assert_int_equal(
        arb_check_kept("tests/rules/toy", NULL, 0, capture_open(&out), capture_open(&err), &rs),
        ARB_OK);
    assert_non_null(strstr(capture_text(&out), "toy: complete — 6 articles, 14 clauses,"));
    assert_string_equal(capture_text(&err), "");
    assert_non_null(rs);
    char kept[32], loaded[32];
    arb_hash(rs, kept);
    arb_hash(toy, loaded);
    assert_string_equal(kept, loaded);
    assert_string_equal(arb_name(rs), arb_name(toy));
    int passed = -1, failed = -1;
    assert_int_equal(arb_test(rs, NULL, 0, capture_open(&tests), &passed, &failed), ARB_OK);
    assert_int_equal(passed, 8);
    arb_free(rs);
    rs = toy; /* overwritten: NULL when the check fails */
    assert_int_equal(
        arb_check_kept("tests/bad/missing-case.rules", NULL, 0, capture_open(&bad), NULL, &rs),
        ARB_BAD_INPUT);
    assert_null(rs);
    capture_close(&out);
    capture_close(&err);
    capture_close(&tests);
    capture_close(&bad);
}

/* diff-late with its 1B made strict by an amendment is complete too. */
static void test_check_amended(void **state) {
    (void)state;
    const char *amend[] = {"tests/rules/diff-changes/strict.amend"};
    fixture_capture out;
    assert_int_equal(arb_check("tests/rules/diff-late", amend, 1, capture_open(&out), NULL),
                     ARB_OK);
    assert_non_null(strstr(capture_text(&out), "late+S1: complete"));
    capture_close(&out);
}

static void test_test_blocks(void **state) {
    (void)state;
    fixture_capture out;
    int passed = -1, failed = -1;
    assert_int_equal(arb_test(toy, NULL, 0, capture_open(&out), &passed, &failed), ARB_OK);
    assert_int_equal(passed, 8); /* 7 test blocks and the completeness proof */
    assert_int_equal(failed, 0);
    assert_non_null(strstr(capture_text(&out), "8 passed, 0 failed\n"));
    capture_close(&out);
}

/* Verbose: the passing tests by name, in the order of the file. */
static void test_test_verbose(void **state) {
    (void)state;
    fixture_capture out;
    assert_int_equal(arb_test(toy, NULL, ARB_TEST_VERBOSE, capture_open(&out), NULL, NULL), ARB_OK);
    const char *t = capture_text(&out), *first = strstr(t, "ok   1A: kort te laat\n");
    assert_non_null(first);
    assert_non_null(strstr(first, "ok   1B: herhaald\n"));
    capture_close(&out);
}

/* No test gives turn_was = rho: with coverage, 3C is named and the run fails. */
static void test_test_coverage(void **state) {
    (void)state;
    fixture_capture out;
    assert_int_equal(arb_test(toy, NULL, ARB_TEST_COVERAGE, capture_open(&out), NULL, NULL),
                     ARB_NO_RULING);
    assert_non_null(strstr(capture_text(&out), "no test reaches clause 3C"));
    assert_non_null(strstr(capture_text(&out), "clauses reached by a test\n"));
    capture_close(&out);
}

static void test_diff_regions(void **state) {
    (void)state;
    fixture_capture out;
    arb_diff_options exact = {.format = ARB_DIFF_EXACT};
    assert_int_equal(arb_diff(late, strict, &exact, capture_open(&out), NULL), ARB_OK);
    const char *t = capture_text(&out);
    assert_non_null(strstr(t, "Verschil late → late-strict\n"));
    assert_non_null(
        strstr(t, "1 gebied met een andere uitspraak: 25 situaties; gelijk: 37 situaties."));
    assert_non_null(strstr(t, "minutes in {6..30}, repeated = true  (25 situaties)"));
    capture_close(&out);

    arb_diff_options o = {.article = "1", .json = 1};
    assert_int_equal(arb_diff(late, strict, &o, capture_open(&out), NULL), ARB_OK);
    t = capture_text(&out);
    assert_non_null(strstr(t, "\"article\": \"1\""));
    assert_non_null(strstr(t, "\"differing\": 25"));
    assert_non_null(strstr(t, "\"equal\": 37"));
    capture_close(&out);

    assert_int_equal(arb_diff(late, late, &exact, capture_open(&out), NULL), ARB_OK);
    assert_non_null(
        strstr(capture_text(&out),
               "0 gebieden met een andere uitspraak: 0 situaties; gelijk: 62 situaties."));
    capture_close(&out);

    /* the report for people (the default): the change, with its texts */
    assert_int_equal(arb_diff(late, strict, NULL, capture_open(&out), NULL), ARB_OK);
    t = capture_text(&out);
    assert_non_null(strstr(t, "1 soort situatie krijgt een andere uitspraak"));
    assert_non_null(strstr(t, "1. 1B: Aftrek van 2 punten. → 1B: Aftrek van 4 punten.\n"));
    capture_close(&out);
    arb_diff_options english = {.lang = ARB_EN, .format = ARB_DIFF_MARKDOWN};
    assert_int_equal(arb_diff(late, strict, &english, capture_open(&out), NULL), ARB_OK);
    assert_non_null(strstr(capture_text(&out),
                           "## 1. 1B: A deduction of 2 points. → 1B: A deduction of 4 points.\n"));
    capture_close(&out);
    arb_diff_options bad = {.format = (enum arb_diff_format)99};
    assert_int_equal(arb_diff(late, strict, &bad, capture_open(&out), NULL), ARB_BAD_INPUT);
    capture_close(&out);
}

static void test_diff_unknown_article(void **state) {
    (void)state;
    fixture_capture out, err;
    arb_diff_options o = {.article = "2"};
    assert_int_equal(arb_diff(late, strict, &o, capture_open(&out), capture_open(&err)),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(capture_text(&err), "neither late nor late-strict has an article 2"));
    assert_string_equal(capture_text(&out), "");
    capture_close(&out);
    capture_close(&err);
}

/* Of three cases only minutes 10 with repeated (1B: 2 against 4 points) changes. */
static void test_diff_cases(void **state) {
    (void)state;
    const char *cases =
        "{\"minutes\": 3, \"repeated\": true}\n\n{\"minutes\": 10, \"repeated\": true}\n"
        "{\"minutes\": 10, \"repeated\": false}";
    arb_diff_options o = {.cases = cases, .cases_len = strlen(cases)};
    fixture_capture out;
    assert_int_equal(arb_diff(late, strict, &o, capture_open(&out), NULL), ARB_OK);
    const char *t = capture_text(&out);
    assert_non_null(strstr(t, "regel 3: {\"minutes\": 10, \"repeated\": true}\n"));
    assert_non_null(strstr(t, "[1B] penalty{\"points\":2}"));
    assert_non_null(strstr(t, "[1B] penalty{\"points\":4}"));
    assert_non_null(strstr(t, "1 van 3 zaken krijgen een andere uitspraak; 2 ongewijzigd.\n"));
    assert_null(strstr(t, "regel 1"));
    capture_close(&out);

    o.json = 1;
    assert_int_equal(arb_diff(late, strict, &o, capture_open(&out), NULL), ARB_OK);
    assert_non_null(strstr(capture_text(&out), "\"changed\": 1"));
    capture_close(&out);

    /* a line neither ruleset can read: listed with why, not unchanged */
    o = (arb_diff_options){.cases = "{\"minutes\": 99}", .cases_len = 15};
    assert_int_equal(arb_diff(late, strict, &o, capture_open(&out), NULL), ARB_BAD_INPUT);
    t = capture_text(&out);
    assert_non_null(strstr(t, "regel 1: niet te beoordelen"));
    assert_non_null(strstr(
        t, "0 van 1 zaken krijgen een andere uitspraak; 0 ongewijzigd; 1 niet te beoordelen"));
    capture_close(&out);
}

/* diff-late's three tests each rule on a whole situation: three lines. */
static void test_test_scenarios(void **state) {
    (void)state;
    fixture_capture out;
    int written = -1;
    assert_int_equal(arb_test_scenarios(late, capture_open(&out), &written), ARB_OK);
    assert_int_equal(written, 3);
    assert_string_equal(capture_text(&out), "{\"minutes\":5}\n{\"minutes\":6,\"repeated\":true}\n{"
                                            "\"minutes\":30,\"repeated\":false}\n");
    capture_close(&out);
    assert_int_equal(arb_test_scenarios(NULL, stdout, &written), ARB_BAD_INPUT);
}

/* In tests/rules/overlap, 1B (repeated) comes after 1A (at most 5 minutes):
 * a repeated offence of 0 minutes is 1A's. diff-late's 1B (repeated) after
 * 1A likewise. */
static void test_hidden_clauses(void **state) {
    (void)state;
    arb_ruleset *overlap = arb_load("tests/rules/overlap", stderr);
    assert_non_null(overlap);
    fixture_capture out;
    int found = -1;
    assert_int_equal(arb_hidden_clauses(overlap, capture_open(&out), &found), ARB_OK);
    assert_int_equal(found, 1);
    assert_non_null(strstr(capture_text(&out),
                           "clause 1B (tests/rules/overlap/overlap.rules:20) is partly hidden by "
                           "the earlier clause 1A (tests/rules/overlap/overlap.rules:19): "
                           "given minutes = 0, repeated = true\n"));
    capture_close(&out);
    arb_free(overlap);
    assert_int_equal(arb_hidden_clauses(NULL, stdout, &found), ARB_BAD_INPUT);
}

static void test_graph(void **state) {
    (void)state;
    fixture_capture out, err;
    assert_int_equal(arb_graph_dot(toy, "2", capture_open(&out), NULL), ARB_OK);
    const char *t = capture_text(&out);
    assert_non_null(strstr(t, "digraph"));
    assert_non_null(strstr(t, "volume"));
    assert_non_null(strstr(t, "2B"));
    capture_close(&out);
    assert_int_equal(arb_graph_dot(toy, "9", capture_open(&out), capture_open(&err)),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(capture_text(&err), "toy has no article 9"));
    assert_string_equal(capture_text(&out), "");
    capture_close(&out);
    capture_close(&err);
}

/* tests/rules holds twelve rulesets; diff-changes has no header and is not one. */
static void test_rulesets_table(void **state) {
    (void)state;
    fixture_capture out;
    int listed = -1;
    assert_int_equal(arb_rulesets_table("tests/rules", capture_open(&out), &listed), ARB_OK);
    assert_int_equal(listed, 12);
    const char *t = capture_text(&out);
    assert_non_null(strstr(t, "\ntoy "));
    assert_non_null(strstr(t, "\ncomputed "));
    assert_non_null(strstr(t, " Speelgoedregels\n"));
    assert_non_null(strstr(t, "fnv1a64:"));
    assert_null(strstr(t, "diff-changes"));
    capture_close(&out);
    assert_int_equal(arb_rulesets_table("tests/no-such-dir", capture_open(&out), &listed), ARB_OK);
    assert_int_equal(listed, 0);
    capture_close(&out);
}

static void test_why_not(void **state) {
    (void)state;
    fixture_capture out;
    const char *five = "{\"irregularity\": \"late\", \"minutes\": 5}";
    assert_int_equal(arb_why_not(toy, NULL, five, strlen(five), "penalty", capture_open(&out)),
                     ARB_OK);
    assert_non_null(strstr(capture_text(&out), "Waarom niet penalty?"));
    assert_non_null(strstr(capture_text(&out), "  minutes = 16 (niet 5)\n"));
    capture_close(&out);

    /* minutes not given: it decides */
    const char *open = "{\"irregularity\": \"late\"}";
    assert_int_equal(arb_why_not(toy, NULL, open, strlen(open), "penalty", capture_open(&out)),
                     ARB_OK);
    assert_non_null(strstr(capture_text(&out), "de nog niet gegeven feiten beslissen"));
    capture_close(&out);

    assert_int_equal(arb_why_not(toy, NULL, five, strlen(five), "fine", capture_open(&out)),
                     ARB_BAD_INPUT);
    assert_string_equal(capture_text(&out), "");
    assert_int_equal(arb_why_not(toy, NULL, "{\"minutes\":", 11, "penalty", out.f), ARB_BAD_INPUT);
    capture_close(&out);
}

/* Bad arguments: answers, never a crash. */
static void test_bad_arguments(void **state) {
    (void)state;
    fixture_capture out;
    FILE *f = capture_open(&out);
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
    assert_string_equal(capture_text(&out), "");
    capture_close(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_complete),
        cmocka_unit_test(test_check_gap),
        cmocka_unit_test(test_check_kept),
        cmocka_unit_test(test_check_amended),
        cmocka_unit_test(test_test_blocks),
        cmocka_unit_test(test_test_verbose),
        cmocka_unit_test(test_test_coverage),
        cmocka_unit_test(test_diff_regions),
        cmocka_unit_test(test_diff_unknown_article),
        cmocka_unit_test(test_diff_cases),
        cmocka_unit_test(test_graph),
        cmocka_unit_test(test_test_scenarios),
        cmocka_unit_test(test_hidden_clauses),
        cmocka_unit_test(test_rulesets_table),
        cmocka_unit_test(test_why_not),
        cmocka_unit_test(test_bad_arguments),
    };
    return FIXTURE_RUN_GROUP("api_tools", tests, rulesets);
}
