/* test_api_faces.c — what a face reads of a ruleset (core/api/arbiter.h,
 * "For the server and other faces"), through arbiter.h alone: the ruleset
 * in brief and with its articles and facts, a fact as a director is asked
 * it, a ruling with the question it needs next or why it is impossible,
 * plugins within limits, and bad arguments answered without a crash.
 *
 * Expected values are worked out from tests/rules/toy/toy.rules: game
 * bridge, score 5, matchpoints 6, imps 7, no trick article; English texts
 * on warning, penalty and points_for; minutes is int 0..60 with an ask;
 * very_late is derived; volume's choices are small "klein", large "groot";
 * the invariant "Lawaai duurt geen minuten" (no English) forbids noise
 * with minutes; article 2 asks volume. */

#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static arb_ruleset *toy;
static const fixture_ruleset rulesets[] = {
    {"tests/rules/toy", &toy},
    {NULL, NULL},
};

static void test_ruleset_brief(void **state) {
    (void)state;
    char *j = arb_ruleset_json(toy, 0);
    assert_non_null(j);
    assert_has(j, "\"name\":\"toy\",\"title\":\"Speelgoedregels\",\"hash\":\"fnv1a64:");
    assert_has(j, "\"game\":\"bridge\",\"english\":true");
    assert_has(j,
               "\"scores\":{\"contract\":true,\"hand\":false,\"matchpoints\":true,\"imps\":true}");
    assert_null(strstr(j, "\"articles\""));
    assert_null(strstr(j, "\"facts\""));
    free(j);
}

static void test_ruleset_contents(void **state) {
    (void)state;
    char *j = arb_ruleset_json(toy, 1);
    assert_non_null(j);
    assert_has(j, "{\"id\":\"1\",\"title\":\"Te laat\",\"title_en\":\"Late\",\"ruled\":true}");
    assert_has(
        j, "{\"id\":\"3\",\"title\":\"Herhaling\",\"title_en\":\"Repetition\",\"ruled\":false}");
    assert_has(j, "\"name\":\"minutes\"");
    assert_null(strstr(j, "\"name\":\"very_late\"")); /* derived: no scenario gives it */
    free(j);
}

static void test_fact(void **state) {
    (void)state;
    char *j = arb_fact_json(toy, arb_fact_find(toy, "minutes"));
    assert_string_equal(
        j, "{\"name\":\"minutes\",\"question\":\"Hoeveel minuten te laat?\",\"question_en\":null,"
           "\"type\":\"int\","
           "\"asked\":true,\"choices\":[],\"min\":0,\"max\":60}");
    free(j);
    j = arb_fact_json(toy, arb_fact_find(toy, "volume"));
    assert_has(
        j,
        "\"type\":\"enum\",\"asked\":true,\"choices\":[{\"value\":\"small\",\"label\":\"klein\"");
    assert_has(j, "{\"value\":\"large\",\"label\":\"groot\"");
    free(j);
    j = arb_fact_json(toy, arb_fact_find(toy, "repeated"));
    assert_has(j, "\"type\":\"bool\"");
    assert_has(j, "\"choices\":[{\"value\":true,");
    free(j);
}

static char *next(const char *scenario, enum arb_status want) {
    char *j = NULL;
    assert_int_equal(arb_rule_next_json(toy, NULL, scenario, strlen(scenario), &j), want);
    assert_non_null(j);
    return j;
}

static void test_next(void **state) {
    (void)state;
    char *j = next("{\"irregularity\":\"noise\",\"minutes\":0}", ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"needs\"");
    assert_has(j, "\"question\":{\"name\":\"volume\",\"question\":\"Hoe hard?\"");
    assert_null(strstr(j, "\"impossible\""));
    free(j);
    j = next("{\"irregularity\":\"noise\",\"minutes\":3}", ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"rejected\"");
    assert_has(j, "\"impossible\":{\"message\":\"Lawaai duurt geen minuten\",\"message_en\":null}");
    assert_null(strstr(j, "\"question\""));
    free(j);
    /* a ruling made: the same object arb_rule_json gives, nothing added */
    const char *late = "{\"irregularity\":\"late\",\"minutes\":5}";
    char *plain = NULL;
    assert_int_equal(arb_rule_json(toy, late, strlen(late), &plain), ARB_OK);
    j = next(late, ARB_OK);
    assert_string_equal(j, plain);
    free(j);
    free(plain);
    j = next("{\"irregularity\":\"fire\"}", ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"bad_input\"");
    free(j);
}

static void test_plugin_limits(void **state) {
    (void)state;
    const char *paths[] = {"tests/plugins/busy-validate.lua"};
    const char *late = "{\"irregularity\":\"late\",\"minutes\":5}";
    arb_plugin_limits tight = {.instructions = 1000};
    arb_plugins *roomy = arb_load_plugins_limited(toy, paths, 1, NULL, stderr);
    arb_plugins *cramped = arb_load_plugins_limited(toy, paths, 1, &tight, stderr);
    assert_non_null(roomy);
    assert_non_null(cramped);
    char *j = NULL;
    assert_int_equal(arb_rule_next_json(toy, roomy, late, strlen(late), &j), ARB_OK);
    free(j);
    assert_int_equal(arb_rule_next_json(toy, cramped, late, strlen(late), &j), ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"plugin_error\"");
    free(j);
    arb_free_plugins(cramped);
    arb_free_plugins(roomy);
}

/* One score a line, or board,pair,score after a header line (which is not a score). */
static void test_sheet_score_count(void **state) {
    (void)state;
    const char *plain = "100\n200\n-50\n";
    const char *csv = "board,pair,score\n1,1,100\n1,2,200\n";
    assert_int_equal(arb_sheet_score_count(plain, strlen(plain)), 3);
    assert_int_equal(arb_sheet_score_count(csv, strlen(csv)), 2);
    assert_int_equal(arb_sheet_score_count("100\nhonderd\n", 12), -1);
    assert_int_equal(arb_sheet_score_count("1\0002", 3), -1); /* not text */
    assert_int_equal(arb_sheet_score_count(NULL, 0), -1);
}

static void test_bad_arguments(void **state) {
    (void)state;
    char *j = NULL;
    assert_null(arb_ruleset_json(NULL, 1));
    assert_null(arb_fact_json(NULL, 0));
    assert_null(arb_fact_json(toy, -1));
    assert_null(arb_fact_json(toy, arb_fact_count(toy)));
    assert_int_equal(arb_rule_next_json(toy, NULL, "{}", 2, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_rule_next_json(NULL, NULL, "{}", 2, &j), ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"bad_input\"");
    free(j);
    assert_int_equal(arb_rule_next_json(toy, NULL, NULL, 0, &j), ARB_BAD_INPUT);
    assert_has(j, "\"status\":\"bad_input\"");
    free(j);
    const char *paths[] = {NULL};
    assert_null(arb_load_plugins_limited(NULL, NULL, 0, NULL, NULL));
    assert_null(arb_load_plugins_limited(toy, paths, 1, NULL, NULL));
    assert_null(arb_load_plugins_limited(toy, NULL, -1, NULL, NULL));
    assert_null(arb_load_plugins_limited(toy, NULL, ARB_MAX_PLUGINS + 1, NULL, NULL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ruleset_brief), cmocka_unit_test(test_ruleset_contents),
        cmocka_unit_test(test_fact),          cmocka_unit_test(test_next),
        cmocka_unit_test(test_plugin_limits), cmocka_unit_test(test_sheet_score_count),
        cmocka_unit_test(test_bad_arguments),
    };
    return FIXTURE_RUN_GROUP("api_faces", tests, rulesets);
}
