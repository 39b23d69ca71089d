/* test_adjusted.c — adjusted scores on a matchpoint sheet: how an entry is
 * read (sheet_parse_entry), and boards worked by hand from the law (12C1c,
 * 12C2a), the guide and Neuberg's formula, through arb_matchpoints_sheet
 * with bridge-2017 (12C on the sheet, 78A). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"
#include "scoring.h"

static arb_ruleset *bridge;

static int load_bridge(void **state) {
    (void)state;
    bridge = arb_load("rulesets/bridge-2017", stderr);
    return bridge ? 0 : -1;
}

static int free_bridge(void **state) {
    (void)state;
    arb_free(bridge);
    return 0;
}

static sheet_entry read_ok(const char *text) {
    sheet_entry e;
    char msg[300] = "";
    if (!sheet_parse_entry(text, &e, msg, sizeof msg)) fail_msg("'%s' not read: %s", text, msg);
    return e;
}

static void read_fails(const char *text, const char *why) {
    sheet_entry e;
    char msg[300] = "";
    assert_false(sheet_parse_entry(text, &e, msg, sizeof msg));
    if (!strstr(msg, why)) fail_msg("'%s': message '%s' lacks '%s'", text, msg, why);
}

static void test_entries_read(void **state) {
    (void)state;
    sheet_entry e = read_ok(" -620 ");
    assert_int_equal(e.kind, ENTRY_SCORE);
    assert_int_equal(e.parts[0].score, -620);
    e = read_ok("30% 420 + 70% -50"); /* 12C1c */
    assert_int_equal(e.kind, ENTRY_WEIGHTED);
    assert_int_equal(e.nparts, 2);
    assert_int_equal(e.parts[0].percent, 30);
    assert_int_equal(e.parts[0].score, 420);
    assert_int_equal(e.parts[1].percent, 70);
    assert_int_equal(e.parts[1].score, -50);
    e = read_ok("25%420+75%\xe2\x88\x92"
                "100"); /* no spaces; a typeset minus sign */
    assert_int_equal(e.parts[1].score, -100);
    const char *marks[][2] = {{"A+", "average_plus"},  {"g+", "average_plus"},
                              {"A=", "average"},       {"G", "average"},
                              {"A-", "average_minus"}, {"G\xe2\x88\x92", "average_minus"}};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
        e = read_ok(marks[i][0]);
        assert_int_equal(e.kind, ENTRY_ARTIFICIAL);
        assert_string_equal(e.adjusted, marks[i][1]);
    }
    e = read_ok("65%");
    assert_string_equal(e.adjusted, "percentage");
    assert_int_equal(e.percentage, 65);
    assert_int_equal(read_ok("-").kind, ENTRY_NOT_PLAYED);
    assert_int_equal(read_ok("NP").kind, ENTRY_NOT_PLAYED);
    e = read_ok("420 P");
    assert_string_equal(e.penalty, "procedural_penalty");
    assert_int_equal(e.parts[0].score, 420);
    e = read_ok("A- P15%");
    assert_string_equal(e.penalty, "penalty_percentage");
    assert_int_equal(e.penalty_percentage, 15);
    assert_string_equal(e.adjusted, "average_minus");
    e = read_ok("30% 4S= 70% EW 4H-1"); /* contracts, the + left out */
    assert_int_equal(e.kind, ENTRY_WEIGHTED);
    assert_true(e.contracts);
    assert_string_equal(e.parts[0].contract, "4S=");
    assert_int_equal(e.parts[0].declarer, 0);
    assert_string_equal(e.parts[1].contract, "4H-1");
    assert_int_equal(e.parts[1].declarer, 2);
    e = read_ok("50% N 3NT+1 + 25% ow 4SX-2+25% PASS");
    assert_int_equal(e.nparts, 3);
    assert_int_equal(e.parts[0].declarer, 1);
    assert_string_equal(e.parts[1].contract, "4SX-2");
    assert_int_equal(e.parts[1].declarer, 2);
    assert_string_equal(e.parts[2].contract, "PASS");
    e = read_ok("30% 420 + 70% 4S-1"); /* a score and a contract */
    assert_false(e.parts[0].contract[0]);
    assert_string_equal(e.parts[1].contract, "4S-1");
}

static void test_bad_entries_say_why(void **state) {
    (void)state;
    read_fails("4S=", "expected a score");
    read_fails("", "expected a score");
    read_fails("30% 420", "add up to 100%, not 30% (and it has two results or more)");
    read_fails("30% 420 + 60% 50", "not 90%");
    read_fails("0% 420 + 100% 50", "weight above 0%");
    read_fails("30% 420 + 70% -50 +", "expected a weighted score");
    read_fails("20% 1 + 20% 2 + 20% 3 + 20% 4 + 20% 5", "at most 4 results");
    read_fails("101%", "0% to 100%");
    read_fails("100001", "a score is a whole number from -100000 to 100000");
    read_fails("-100001", "a score is a whole number from -100000 to 100000");
    read_fails("P", "follows the pair's score");
    read_fails("420 P5", "P10%");
    read_fails("- P", "not played carries no procedural penalty");
    read_fails("30% 4S= + 70% 4S-11", "a result of a weighted score: \"4S-11\"");
    read_fails("30% EW 420 + 70% 4S=", "a result of a weighted score");
}

/* The matchpoints of each row of the answer, in order. */
static void sheet_points(const char *sheet, double *mp, int n) {
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_matchpoints_sheet(bridge, NULL, sheet, strlen(sheet), &json, &error);
    if (st != ARB_OK) fail_msg("sheet refused: %s", error);
    json_t *rows = json_loads(json, 0, NULL);
    assert_int_equal(json_array_size(rows), n);
    for (int i = 0; i < n; i++) {
        json_t *v = json_object_get(json_array_get(rows, i), "matchpoints");
        mp[i] = json_is_null(v) ? NAN : json_number_value(v);
    }
    json_decref(rows);
    free(json);
    free(error);
}

static void expect_points(const char *sheet, const double *want, int n) {
    double got[16];
    sheet_points(sheet, got, n);
    for (int i = 0; i < n; i++)
        if (isnan(want[i]) ? !isnan(got[i]) : fabs(got[i] - want[i]) > 1e-9)
            fail_msg("row %d: %g matchpoints, expected %g", i + 1, got[i], want[i]);
}

/* 12C1c: a weighted score among plain ones, and the others' comparison
 * with it. Top 4 (three scores). X = 25% of 100 and 75% of 0: 100 beats
 * both others (4), 0 beats -50 (2): 0.25 x 4 + 0.75 x 2 = 2.5. 50 beats
 * -50 (2) and the 0 of X at 75% (1.5): 3.5. -50: 0. Total 6 = 3 x 2. */
static void test_weighted_against_plain(void **state) {
    (void)state;
    expect_points("25% 100 + 75% 0\n50\n-50\n", (double[]){2.5, 3.5, 0}, 3);
}

/* Two weighted scores on one board: each combination of their results
 * counts by the product of the weights. X = Y = 50% 100 + 50% 0, Z = 50.
 * X: (100,100) 1 + 2, (100,0) 2 + 2, (0,100) 0, (0,0) 1 + 0: (3 + 4 + 0 +
 * 1) / 4 = 2; Y the same; Z: 0, 2, 2, 4: 2. */
static void test_two_weighted_scores(void **state) {
    (void)state;
    expect_points("50% 100 + 50% 0\n50% 100 + 50% 0\n50\n", (double[]){2, 2, 2}, 3);
}

/* 12C2a: a board on which nobody has a score to compare: A+ and A- of a
 * top of 2 (two entries): 60% 1.2, 40% 0.8. */
static void test_only_artificial_scores(void **state) {
    (void)state;
    expect_points("A+\nA-\n", (double[]){1.2, 0.8}, 2);
}

/* Neuberg: a lone score among N = 3 entries (one not played, one A=): (0 +
 * 1) x 3 / 1 - 1 = 2, half the top of 4; A= 50% of 4 = 2; not played:
 * none. */
static void test_lone_score_is_half_the_top(void **state) {
    (void)state;
    expect_points("420\n-\nA=\n", (double[]){2, NAN, 2}, 3);
}

/* The articles each line names, as the 2017 text gives them: the lone
 * score was compared (78A) and brought to three entries by the
 * regulating authority's method (78D, through 12C's clause for the
 * sheet); A= is 12C2a's 50%; the pair that did not play has no figure
 * and no articles. Changed: A= no longer names 12C2b (the IMPs of average
 * plus and minus only) or 12C2c (the side not at fault and the offending
 * side, not one given average). Changed: the factoring is 78D's, and 12C
 * is named beside it since an adjusted score (A=) is on the board. */
static void test_each_line_names_its_articles(void **state) {
    (void)state;
    const char *sheet = "420\n-\nA=\n";
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, sheet, strlen(sheet), &json, &error),
                     ARB_OK);
    json_t *rows = json_loads(json, 0, NULL);
    const char *want[] = {"78A; 78D > 12C", NULL, "12C > 12C2a"};
    for (int i = 0; i < 3; i++) {
        json_t *articles = json_object_get(json_array_get(rows, (size_t)i), "articles");
        if (!want[i])
            assert_null(articles);
        else
            assert_string_equal(json_string_value(articles), want[i]);
    }
    json_decref(rows);
    free(json);
    free(error);
}

/* A trail is named once, "; " between trails; a trail that only begins
 * like one already named is still named. */
static void test_cite_append(void **state) {
    (void)state;
    char out[32] = "";
    scoring_cite_append(out, sizeof out, "78A");
    scoring_cite_append(out, sizeof out, "12C > 78D");
    scoring_cite_append(out, sizeof out, "78A");
    scoring_cite_append(out, sizeof out, "12C > 78D");
    assert_string_equal(out, "78A; 12C > 78D");
    scoring_cite_append(out, sizeof out, "12C");
    assert_string_equal(out, "78A; 12C > 78D; 12C");
    scoring_cite_append(out, sizeof out, "12C > 90A and more than fits");
    assert_true(strlen(out) < sizeof out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_read),
        cmocka_unit_test(test_bad_entries_say_why),
        cmocka_unit_test(test_weighted_against_plain),
        cmocka_unit_test(test_two_weighted_scores),
        cmocka_unit_test(test_only_artificial_scores),
        cmocka_unit_test(test_lone_score_is_half_the_top),
        cmocka_unit_test(test_each_line_names_its_articles),
        cmocka_unit_test(test_cite_append),
    };
    return cmocka_run_group_tests(tests, load_bridge, free_bridge);
}
