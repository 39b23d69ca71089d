/* test_api.c — the library's arguments (core/api/arbiter.h, "Arguments"): each
 * bad argument a call can be given is refused with its status (or NULL, or
 * -1) and, where the call can say so, a message; none crashes. The good
 * calls beside them show that the refusal is the argument's doing. */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#define TOY "tests/rules/toy"
#define PLUGIN "plugins/clubs/bridge-beginners-revoke.lua"
#define SCENARIO "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}"

static arb_ruleset *toy, *bridge;
static const fixture_ruleset rulesets[] = {
    {TOY, &toy},
    {"rulesets/bridge-2017", &bridge},
    {NULL, NULL},
};

static void test_find_and_list_reject_null(void **state) {
    (void)state;
    assert_null(arb_find_ruleset(NULL));
    char **names = (char **)1;
    assert_int_equal(arb_list_rulesets(NULL, &names), -1);
    assert_null(names);
    assert_int_equal(arb_list_rulesets("rulesets", NULL), -1);
    int n = arb_list_rulesets("rulesets", &names); /* the good call */
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void test_load_rejects_a_null_name(void **state) {
    (void)state;
    fixture_capture c;
    capture_open(&c);
    assert_null(arb_load(NULL, c.f));
    assert_true(capture_close_has(&c, "the name is NULL"));
    assert_null(arb_load(NULL, NULL)); /* no stream: refused all the same */
}

/* Each bad list of amendments, and what the refusal says. */
static const char *const with_a_hole[] = {"examples/amendments/64A1-one-trick.rules", NULL};
static const struct {
    const char *const *amendments;
    int n;
    const char *says;
} bad_amendments[] = {
    {NULL, -1, "it cannot be negative"},
    {NULL, 2, "2 amendments, but no list of them"},
    {with_a_hole, 2, "amendment 2 of 2 is NULL"},
};

static void test_load_amended_rejects_bad_amendments(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad_amendments / sizeof *bad_amendments; i++) {
        fixture_capture c;
        assert_null(arb_load_amended(TOY, bad_amendments[i].amendments, bad_amendments[i].n,
                                     capture_open(&c)));
        assert_true(capture_close_has(&c, bad_amendments[i].says));
    }
    arb_ruleset *rs = arb_load_amended(TOY, NULL, 0, NULL); /* none, and no list: fine */
    assert_non_null(rs);
    arb_free(rs);
    arb_free(NULL);
}

static void test_rule_json_rejects_null(void **state) {
    (void)state;
    const arb_ruleset *rs = toy;
    char *json = NULL;
    assert_int_equal(arb_rule_json(NULL, SCENARIO, strlen(SCENARIO), &json), ARB_BAD_INPUT);
    assert_non_null(strstr(json, "\"error\":\"no ruleset: it is NULL\""));
    free(json);
    assert_int_equal(arb_rule_json(rs, NULL, 10, &json), ARB_BAD_INPUT);
    assert_non_null(strstr(json, "\"error\":\"no scenario: the text is NULL\""));
    free(json);
    assert_int_equal(arb_rule_json(rs, SCENARIO, strlen(SCENARIO), NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_rule_json_plugins(rs, NULL, SCENARIO, strlen(SCENARIO), NULL),
                     ARB_BAD_INPUT);
    assert_int_equal(arb_rule_json(rs, SCENARIO, strlen(SCENARIO), &json),
                     ARB_OK); /* the good call */
    free(json);
    assert_int_equal(arb_rule_json_plugins(rs, NULL, SCENARIO, strlen(SCENARIO), &json),
                     ARB_OK); /* NULL: none */
    free(json);
}

static void test_rule_batch_rejects_null(void **state) {
    (void)state;
    const arb_ruleset *rs = toy;
    fixture_capture c;
    capture_open(&c);
    assert_int_equal(arb_rule_batch(NULL, SCENARIO "\n", strlen(SCENARIO) + 1, c.f), ARB_BAD_INPUT);
    assert_true(capture_close_has(&c, "no ruleset: it is NULL"));
    capture_open(&c);
    assert_int_equal(arb_rule_batch(rs, NULL, 5, c.f), ARB_BAD_INPUT);
    assert_true(capture_close_has(&c, "no scenario: the text is NULL"));
    assert_int_equal(arb_rule_batch(rs, SCENARIO, strlen(SCENARIO), NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_rule_batch_plugins(rs, NULL, SCENARIO, strlen(SCENARIO), NULL),
                     ARB_BAD_INPUT);
    capture_open(&c);
    assert_int_equal(arb_rule_batch(rs, SCENARIO "\n", strlen(SCENARIO) + 1, c.f),
                     ARB_OK); /* the good call */
    assert_true(capture_close_has(&c, "\"status\":\"ruling\""));
}

/* Each bad set of arguments to arb_load_plugins (on bridge, unless
 * no_ruleset), and what the refusal says. */
static const char *const one_plugin[] = {PLUGIN};
static const char *const nine_plugins[] = {PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN,
                                           PLUGIN, PLUGIN, PLUGIN, PLUGIN};
static const char *const plugin_and_hole[] = {PLUGIN, NULL};
static const struct {
    bool no_ruleset;
    const char *const *paths;
    int n;
    const char *says;
} bad_plugin_arguments[] = {
    {false, one_plugin, -1, "-1 plugins: give 0 to 8"},
    {false, nine_plugins, 9, "9 plugins: give 0 to 8"}, /* at most 8: not silently the first 8 */
    {true, one_plugin, 1, "no ruleset to load plugins for"},
    {false, NULL, 1, "1 plugins, but no list of paths"},
    {false, plugin_and_hole, 2, "plugin 2 of 2 is NULL"},
};

static void test_load_plugins_rejects_bad_arguments(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad_plugin_arguments / sizeof *bad_plugin_arguments; i++) {
        fixture_capture c;
        const arb_ruleset *rs = bad_plugin_arguments[i].no_ruleset ? NULL : bridge;
        assert_null(arb_load_plugins(rs, bad_plugin_arguments[i].paths, bad_plugin_arguments[i].n,
                                     capture_open(&c)));
        assert_true(capture_close_has(&c, bad_plugin_arguments[i].says));
    }
    assert_null(
        arb_load_plugins(bridge, one_plugin, -1, NULL)); /* no stream: refused all the same */
    arb_plugins *p = arb_load_plugins(bridge, one_plugin, 1, stderr); /* the good calls */
    assert_non_null(p);
    arb_free_plugins(p);
    p = arb_load_plugins(bridge, NULL, 0, stderr);
    assert_non_null(p);
    arb_free_plugins(p);
    arb_free_plugins(NULL);
}

/* A plugin set used with a ruleset other than the one it was loaded for
 * read the scenario's facts and the ruling's trail by the other ruleset's
 * numbers (past their end: valgrind's invalid reads); it is the plugins'
 * error now, each ruling refused with the reason, and asks nothing. */
static void test_plugins_of_another_ruleset_are_refused(void **state) {
    (void)state;
    arb_plugins *p = arb_load_plugins(bridge, one_plugin, 1, stderr);
    assert_non_null(p);
    char *json = NULL;
    assert_int_equal(arb_rule_json_plugins(toy, p, SCENARIO, strlen(SCENARIO), &json),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(json, "\"status\":\"plugin_error\""));
    assert_non_null(strstr(json, "loaded for ruleset bridge-2017, not for toy"));
    free(json);
    fixture_capture c;
    assert_int_equal(
        arb_rule_batch_plugins(toy, p, SCENARIO "\n", strlen(SCENARIO) + 1, capture_open(&c)),
        ARB_BAD_INPUT);
    assert_true(capture_close_has(&c, "loaded for ruleset bridge-2017, not for toy"));
    arb_scenario *sc = arb_scenario_new(toy);
    assert_int_equal(arb_scenario_read_json(sc, SCENARIO, strlen(SCENARIO), NULL), ARB_OK);
    arb_ruling *r = arb_rule(toy, NULL, sc); /* ruled without plugins */
    arb_plugin_question q;
    assert_int_equal(arb_plugin_question_next(p, sc, r, &q), -1);
    arb_ruling_free(r);
    arb_scenario_free(sc);
    json = NULL; /* the good call: the set with its own ruleset */
    const char *revoke = "{\"irregularity\": \"revoke\", \"beginners_drive\": true}";
    arb_rule_json_plugins(bridge, p, revoke, strlen(revoke), &json);
    assert_null(strstr(json, "loaded for ruleset"));
    free(json);
    arb_free_plugins(p);
}

/* An answer past 64 bits to a fact of unbounded whole numbers was taken as
 * the largest there is (strtoll saturates); it is refused. */
static void test_answer_past_64_bits_is_refused(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(bridge);
    char *error = NULL;
    assert_int_equal(arb_scenario_answer(sc, "scores_beaten", "99999999999999999999", &error),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(error, "answer a whole number"));
    free(error);
    assert_int_equal(arb_scenario_answer(sc, "scores_beaten", "-99999999999999999999", &error),
                     ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_scenario_answer(sc, "scores_beaten", "9223372036854775807", &error),
                     ARB_OK); /* the good call: the largest there is, written out */
    arb_scenario_free(sc);
}

/* What a face prints of its input: each byte of a control character a
 * terminal acts on becomes '?' (ESC, DEL, the two bytes of C1's CSI);
 * a tab, a new line and other UTF-8 (é, a no-break space) stay. */
static void test_mask_controls(void **state) {
    (void)state;
    char text[] = "a\x1b[2Jb\tc\nd\x7f"
                  "e\xc2\x9b"
                  "f\xc3\xa9\xc2\xa0";
    arb_mask_controls(text, strlen(text));
    assert_string_equal(text, "a?[2Jb\tc\nd?e??f\xc3\xa9\xc2\xa0");
    char cut[] = "x\xc2"; /* a lead byte at the end: no C1 character */
    arb_mask_controls(cut, strlen(cut));
    assert_string_equal(cut, "x\xc2");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mask_controls),
        cmocka_unit_test(test_find_and_list_reject_null),
        cmocka_unit_test(test_load_rejects_a_null_name),
        cmocka_unit_test(test_load_amended_rejects_bad_amendments),
        cmocka_unit_test(test_rule_json_rejects_null),
        cmocka_unit_test(test_rule_batch_rejects_null),
        cmocka_unit_test(test_load_plugins_rejects_bad_arguments),
        cmocka_unit_test(test_plugins_of_another_ruleset_are_refused),
        cmocka_unit_test(test_answer_past_64_bits_is_refused),
    };
    return FIXTURE_RUN_GROUP("api", tests, rulesets);
}
