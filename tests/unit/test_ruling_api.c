/* test_ruling_api.c — the public ruling read field by field (core/api/arbiter.h, "A
 * ruling read field by field"), through arbiter.h alone, as an embedder
 * would: a scenario from JSON, a director's answers one fact at a time
 * (the `ask` loop), the trail, the actions with their arguments and
 * messages, the exit statuses, the facts' questions and choices, and bad
 * arguments answered without a crash.
 *
 * The rulings expected are worked out from tests/rules/toy/toy.rules:
 * article 1 (late): not very_late (minutes <= 15) => 1A warning; repeated
 * => 1B penalty(minutes * 2), see(3); otherwise 1C apply 3. Article 2
 * (noise): small => 2A warning. Invariant: noise implies minutes == 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

static arb_ruleset *toy;

static int group_setup(void **state) {
    (void)state;
    toy = arb_load("tests/rules/toy", stderr);
    return toy ? 0 : -1;
}

static int group_teardown(void **state) {
    (void)state;
    arb_free(toy);
    return 0;
}

static arb_ruling *rule_text(arb_scenario *sc, const char *json) {
    char *error = NULL;
    assert_int_equal(arb_scenario_read_json(sc, json, strlen(json), &error), ARB_OK);
    assert_null(error);
    return arb_rule(toy, NULL, sc);
}

/* 1B: minutes 20 is very late, and it happened before: 2 points a minute, and see article 3. */
static void test_ruling_fields(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r = rule_text(sc, "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true}");
    assert_int_equal(arb_ruling_status(r), ARB_RULED);
    assert_int_equal(arb_ruling_exit_status(r), ARB_OK);
    assert_null(arb_ruling_error(r));
    assert_null(arb_ruling_needs(r));
    assert_int_equal(arb_ruling_trail_count(r), 2);
    assert_string_equal(arb_ruling_trail(r, 0), "1");
    assert_string_equal(arb_ruling_trail(r, 1), "1B");
    assert_null(arb_ruling_trail(r, 2));
    assert_int_equal(arb_ruling_action_count(r), 2);
    assert_string_equal(arb_ruling_action(r, 0), "penalty");
    assert_string_equal(arb_ruling_action_cite(r, 0), "1B");
    assert_int_equal(arb_ruling_arg_count(r, 0), 1);
    assert_string_equal(arb_ruling_arg_name(r, 0, 0), "points");
    assert_string_equal(arb_ruling_arg(r, 0, 0), "40");
    assert_string_equal(arb_ruling_message(r, 0, ARB_NL), "Aftrek van 40 punten.");
    assert_string_equal(arb_ruling_message(r, 0, ARB_EN), "A deduction of 40 points.");
    assert_string_equal(arb_ruling_action(r, 1), "see");
    assert_string_equal(arb_ruling_arg(r, 1, 0), "3");
    assert_string_equal(arb_ruling_message(r, 1, ARB_NL), "Zie ook artikel 3.");
    char *json = arb_ruling_json(r);
    assert_non_null(strstr(json, "\"articles\":[\"1\",\"1B\"]"));
    free(json);
    arb_ruling_free(r);
    arb_scenario_free(sc);
}

/* The `ask` loop: each ruling names the next fact until there is a ruling. */
static void test_answers_one_by_one(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    char *error = NULL;
    assert_int_equal(arb_scenario_answer(sc, "irregularity", "late", &error), ARB_OK);
    arb_ruling *r = arb_rule(toy, NULL, sc);
    assert_int_equal(arb_ruling_status(r), ARB_NEEDS);
    assert_int_equal(arb_ruling_exit_status(r), ARB_BAD_INPUT);
    assert_string_equal(arb_ruling_needs(r), "minutes");
    assert_int_equal(arb_ruling_action_count(r), 0);
    arb_ruling_free(r);

    assert_int_equal(arb_scenario_answer(sc, "minutes", "twintig", &error), ARB_BAD_INPUT);
    assert_non_null(error);
    assert_non_null(strstr(error, "0 to 60"));
    free(error);
    assert_int_equal(arb_scenario_answer(sc, "minutes", "20", &error), ARB_OK);
    r = arb_rule(toy, NULL, sc);
    assert_string_equal(arb_ruling_needs(r), "repeated");
    arb_ruling_free(r);
    assert_int_equal(arb_scenario_answer(sc, "repeated", "nee", &error), ARB_OK);
    r = arb_rule(toy, NULL, sc);
    /* 1C applies 3, which asks whose turn it was */
    assert_string_equal(arb_ruling_needs(r), "turn_was");
    arb_ruling_free(r);
    assert_int_equal(arb_scenario_answer(sc, "turn_was", "1", &error), ARB_OK); /* the first choice: offender */
    r = arb_rule(toy, NULL, sc);
    assert_int_equal(arb_ruling_status(r), ARB_RULED);
    assert_int_equal(arb_ruling_trail_count(r), 4);
    assert_string_equal(arb_ruling_trail(r, 1), "1C");
    assert_string_equal(arb_ruling_trail(r, 3), "3A");
    assert_int_equal(arb_ruling_action_count(r), 2); /* article 3's penalty(10), then 3A's warning */
    assert_string_equal(arb_ruling_action(r, 0), "penalty");
    assert_string_equal(arb_ruling_arg(r, 0, 0), "10");
    assert_string_equal(arb_ruling_action(r, 1), "warning");
    assert_string_equal(arb_ruling_action_cite(r, 1), "3A");
    arb_ruling_free(r);

    /* forgetting a fact asks it again */
    arb_scenario_forget(sc, "minutes");
    r = arb_rule(toy, NULL, sc);
    assert_string_equal(arb_ruling_needs(r), "minutes");
    arb_ruling_free(r);
    arb_scenario_free(sc);
}

/* Noise that lasted minutes breaks the invariant: rejected, the input's fault. */
static void test_rejected(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r = rule_text(sc, "{\"irregularity\":\"noise\",\"minutes\":3,\"volume\":\"small\"}");
    assert_int_equal(arb_ruling_status(r), ARB_REJECTED);
    assert_int_equal(arb_status_of(ARB_REJECTED), ARB_BAD_INPUT);
    assert_int_equal(arb_ruling_exit_status(r), ARB_BAD_INPUT);
    assert_non_null(strstr(arb_ruling_error(r), "Lawaai duurt geen minuten"));
    assert_int_equal(arb_ruling_trail_count(r), 0);
    arb_ruling_free(r);
    arb_scenario_free(sc);
}

static void test_statuses(void **state) {
    (void)state;
    assert_int_equal(arb_status_of(ARB_RULED), ARB_OK);
    assert_int_equal(arb_status_of(ARB_NEEDS), ARB_BAD_INPUT);
    assert_int_equal(arb_status_of(ARB_GAP), ARB_NO_RULING);
    assert_int_equal(arb_status_of(ARB_OUTSIDE), ARB_NO_RULING);
    assert_int_equal(arb_status_of(ARB_FAILED), ARB_BAD_INPUT);
}

static void test_facts(void **state) {
    (void)state;
    int f = arb_fact_find(toy, "irregularity");
    assert_true(f >= 0);
    assert_string_equal(arb_fact_name(toy, f), "irregularity");
    assert_string_equal(arb_fact_question(toy, f, ARB_NL), "Wat is er gebeurd?");
    assert_int_equal(arb_fact_choice_count(toy, f), 2);
    assert_string_equal(arb_fact_choice(toy, f, 0), "late");
    assert_string_equal(arb_fact_choice_label(toy, f, 1, ARB_NL), "lawaai");
    int rep = arb_fact_find(toy, "repeated");
    assert_int_equal(arb_fact_choice_count(toy, rep), 2);
    assert_string_equal(arb_fact_choice_label(toy, rep, 1, ARB_EN), "yes");
    assert_int_equal(arb_fact_choice_count(toy, arb_fact_find(toy, "minutes")), 0);
    assert_int_equal(arb_fact_find(toy, "no_such_fact"), -1);
    assert_true(arb_fact_count(toy) > 0);
}

/* Bad arguments: answers, never a crash. */
static void test_bad_arguments(void **state) {
    (void)state;
    char *error = NULL;
    assert_null(arb_scenario_new(NULL));
    assert_null(arb_rule(toy, NULL, NULL));
    assert_null(arb_rule(NULL, NULL, NULL));
    assert_int_equal(arb_scenario_read_json(NULL, "{}", 2, &error), ARB_BAD_INPUT);
    free(error);
    arb_scenario *sc = arb_scenario_new(toy);
    assert_int_equal(arb_scenario_read_json(sc, "{\"irregularity\":", 16, &error), ARB_BAD_INPUT);
    assert_non_null(error);
    free(error);
    assert_int_equal(arb_scenario_answer(sc, "no_such_fact", "1", &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_scenario_answer(sc, "irregularity", "late", NULL), ARB_OK);
    arb_ruling *r = arb_rule(toy, NULL, sc);
    assert_null(arb_ruling_trail(r, -1));
    assert_null(arb_ruling_action(r, 99));
    assert_null(arb_ruling_arg(r, 0, 5));
    assert_null(arb_fact_name(toy, -1));
    assert_null(arb_fact_choice(toy, 0, 99));
    assert_int_equal(arb_ruling_status(NULL), ARB_FAILED);
    assert_int_equal(arb_ruling_trail_count(NULL), 0);
    arb_ruling_free(r);
    arb_ruling_free(NULL);
    arb_scenario_free(sc);
    arb_scenario_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ruling_fields), cmocka_unit_test(test_answers_one_by_one),
        cmocka_unit_test(test_rejected),      cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_facts),         cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests_name("ruling_api", tests, group_setup, group_teardown);
}
