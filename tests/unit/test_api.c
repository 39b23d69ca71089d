/* test_api.c — the library's arguments (core/api/arbiter.h, "Arguments"): each
 * bad argument a call can be given is refused with its status (or NULL, or
 * -1) and, where the call can say so, a message; none crashes. The good
 * calls beside them show that the refusal is the argument's doing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

#define TOY "tests/rules/toy"
#define PLUGIN "plugins/clubs/bridge-beginners-revoke.lua"
#define SCENARIO "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}"

/* What a call wrote to its errors stream. */
typedef struct captured {
    FILE *f;
    char *text;
    size_t len;
} captured;

static void capture(captured *c) {
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
}

/* Closes the stream; true when what was written holds want. */
static bool captured_has(captured *c, const char *want) {
    fclose(c->f);
    bool found = c->text && strstr(c->text, want);
    if (!found) fprintf(stderr, "wanted '%s' in: %s\n", want, c->text ? c->text : "(nothing)");
    free(c->text);
    return found;
}

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
    captured c;
    capture(&c);
    assert_null(arb_load(NULL, c.f));
    assert_true(captured_has(&c, "the name is NULL"));
    assert_null(arb_load(NULL, NULL)); /* no stream: refused all the same */
}

static void test_load_amended_rejects_bad_amendments(void **state) {
    (void)state;
    captured c;
    capture(&c);
    assert_null(arb_load_amended(TOY, NULL, -1, c.f));
    assert_true(captured_has(&c, "it cannot be negative"));
    capture(&c);
    assert_null(arb_load_amended(TOY, NULL, 2, c.f));
    assert_true(captured_has(&c, "2 amendments, but no list of them"));
    const char *const holes[] = {"examples/amendments/64A1-one-trick.rules", NULL};
    capture(&c);
    assert_null(arb_load_amended(TOY, holes, 2, c.f));
    assert_true(captured_has(&c, "amendment 2 of 2 is NULL"));
    arb_ruleset *rs = arb_load_amended(TOY, NULL, 0, NULL); /* none, and no list: fine */
    assert_non_null(rs);
    arb_free(rs);
    arb_free(NULL);
}

static void test_rule_json_rejects_null(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load(TOY, stderr);
    assert_non_null(rs);
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
    arb_free(rs);
}

static void test_rule_batch_rejects_null(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load(TOY, stderr);
    assert_non_null(rs);
    captured c;
    capture(&c);
    assert_int_equal(arb_rule_batch(NULL, SCENARIO "\n", strlen(SCENARIO) + 1, c.f), ARB_BAD_INPUT);
    assert_true(captured_has(&c, "no ruleset: it is NULL"));
    capture(&c);
    assert_int_equal(arb_rule_batch(rs, NULL, 5, c.f), ARB_BAD_INPUT);
    assert_true(captured_has(&c, "no scenario: the text is NULL"));
    assert_int_equal(arb_rule_batch(rs, SCENARIO, strlen(SCENARIO), NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_rule_batch_plugins(rs, NULL, SCENARIO, strlen(SCENARIO), NULL),
                     ARB_BAD_INPUT);
    capture(&c);
    assert_int_equal(arb_rule_batch(rs, SCENARIO "\n", strlen(SCENARIO) + 1, c.f),
                     ARB_OK); /* the good call */
    assert_true(captured_has(&c, "\"status\":\"ruling\""));
    arb_free(rs);
}

static void test_load_plugins_rejects_bad_arguments(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load("rulesets/bridge-2017", stderr);
    assert_non_null(rs);
    const char *const one[] = {PLUGIN};
    const char *const nine[] = {PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN,
                                PLUGIN, PLUGIN, PLUGIN, PLUGIN};
    const char *const hole[] = {PLUGIN, NULL};
    captured c;
    capture(&c);
    assert_null(arb_load_plugins(rs, one, -1, c.f));
    assert_true(captured_has(&c, "-1 plugins: give 0 to 8"));
    capture(&c);
    assert_null(arb_load_plugins(rs, nine, 9,
                                 c.f)); /* the host loads at most 8: not silently the first 8 */
    assert_true(captured_has(&c, "9 plugins: give 0 to 8"));
    capture(&c);
    assert_null(arb_load_plugins(NULL, one, 1, c.f));
    assert_true(captured_has(&c, "no ruleset to load plugins for"));
    capture(&c);
    assert_null(arb_load_plugins(rs, NULL, 1, c.f));
    assert_true(captured_has(&c, "1 plugins, but no list of paths"));
    capture(&c);
    assert_null(arb_load_plugins(rs, hole, 2, c.f));
    assert_true(captured_has(&c, "plugin 2 of 2 is NULL"));
    assert_null(arb_load_plugins(rs, one, -1, NULL));      /* no stream: refused all the same */
    arb_plugins *p = arb_load_plugins(rs, one, 1, stderr); /* the good calls */
    assert_non_null(p);
    arb_free_plugins(p);
    p = arb_load_plugins(rs, NULL, 0, stderr);
    assert_non_null(p);
    arb_free_plugins(p);
    arb_free_plugins(NULL);
    arb_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_and_list_reject_null),
        cmocka_unit_test(test_load_rejects_a_null_name),
        cmocka_unit_test(test_load_amended_rejects_bad_amendments),
        cmocka_unit_test(test_rule_json_rejects_null),
        cmocka_unit_test(test_rule_batch_rejects_null),
        cmocka_unit_test(test_load_plugins_rejects_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
