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

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"

static arb_ruleset *toy, *titles;
static const fixture_ruleset rulesets[] = {
    {"tests/rules/toy", &toy},
    {"tests/rules/titles", &titles},
    {NULL, NULL},
};

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
/* Article titles: toy's articles have an English title each; in
 * tests/rules/titles article 1 has one, 2 has a Dutch title only, 3 none. */
static void test_article_titles(void **state) {
    (void)state;
    assert_string_equal(arb_article_title(toy, "1", ARB_NL), "Te laat");
    assert_string_equal(arb_article_title(toy, "1", ARB_EN), "Late");
    assert_string_equal(arb_article_title(toy, "3", ARB_EN), "Repetition");
    assert_null(arb_article_title(toy, "1B", ARB_EN)); /* a clause, not an article */
    assert_null(arb_article_title(toy, "99", ARB_NL));
    assert_null(arb_article_title(toy, NULL, ARB_NL));
    assert_null(arb_article_title(NULL, "1", ARB_NL));
    assert_string_equal(arb_article_title(titles, "2", ARB_EN), "Lawaai"); /* the Dutch one */
    assert_string_equal(arb_article_title(titles, "3", ARB_EN), "");

    /* The record names the titled articles of its trail, with "title_en" where given. */
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r = rule_text(
        sc,
        "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":false,\"turn_was\":\"offender\"}");
    char *json = arb_ruling_json(r); /* 1 > 1C > 3 > 3A: articles 1 and 3 */
    assert_has(json, ",\"titles\":[{\"article\":\"1\",\"title\":\"Te laat\",\"title_en\":\"Late\"},"
                     "{\"article\":\"3\",\"title\":\"Herhaling\",\"title_en\":\"Repetition\"}]}");
    free(json);
    arb_ruling_free(r);
    arb_scenario_free(sc);
    const char *noise = "{\"irregularity\":\"noise\"}", *other = "{\"irregularity\":\"other\"}";
    assert_int_equal(arb_rule_json(titles, noise, strlen(noise), &json), ARB_OK);
    assert_has(json, ",\"titles\":[{\"article\":\"2\",\"title\":\"Lawaai\"}]}");
    free(json);
    assert_int_equal(arb_rule_json(titles, other, strlen(other), &json), ARB_OK);
    assert_has(json, ",\"titles\":[]}");
    free(json);
}

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
    assert_int_equal(arb_scenario_answer(sc, "turn_was", "1", &error),
                     ARB_OK); /* the first choice: offender */
    r = arb_rule(toy, NULL, sc);
    assert_int_equal(arb_ruling_status(r), ARB_RULED);
    assert_int_equal(arb_ruling_trail_count(r), 4);
    assert_string_equal(arb_ruling_trail(r, 1), "1C");
    assert_string_equal(arb_ruling_trail(r, 3), "3A");
    assert_int_equal(arb_ruling_action_count(r),
                     2); /* article 3's penalty(10), then 3A's warning */
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
    arb_ruling *r =
        rule_text(sc, "{\"irregularity\":\"noise\",\"minutes\":3,\"volume\":\"small\"}");
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

/* What a FILE* received, as a malloc'd string. */
static char *written(FILE *f) {
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = calloc(1, (size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

/* The Dutch text of 1B: the title, the trail, each action with its
 * article, the facts that decided, the ruleset's hash. */
static void test_ruling_text(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r = rule_text(sc, "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true}");
    FILE *f = tmpfile();
    assert_int_equal(arb_ruling_text(r, f), ARB_OK);
    char *text = written(f);
    assert_non_null(
        strstr(text, "Uitspraak volgens Speelgoedregels (toy)\nArtikelen: 1 > 1B\nUitspraak:\n"
                     "  [1B] Aftrek van 40 punten.\n  [1B] Zie ook artikel 3.\n"));
    assert_non_null(strstr(text, "  Wat is er gebeurd?: te laat\n"));
    assert_non_null(strstr(text, "  Is het eerder gebeurd?: ja\n"));
    assert_non_null(strstr(text, "\nRegelset: fnv1a64:"));
    free(text);
    arb_ruling_free(r);

    /* no ruling: why, in one line */
    arb_scenario_free(sc);
    sc = arb_scenario_new(toy);
    r = rule_text(sc, "{\"irregularity\":\"late\",\"minutes\":20}");
    f = tmpfile();
    assert_int_equal(arb_ruling_text(r, f), ARB_OK);
    text = written(f);
    assert_string_equal(
        text, "Uitspraak volgens Speelgoedregels (toy)\n"
              "Geen uitspraak: the scenario does not say 'repeated' (Is het eerder gebeurd?)\n");
    free(text);
    assert_int_equal(arb_ruling_text(r, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_ruling_text(NULL, stdout), ARB_BAD_INPUT);
    arb_ruling_free(r);
    arb_scenario_free(sc);
}

/* The facts that decided, their values in Dutch and where each came from. */
static const char *decided_source_of(const arb_ruleset *rs, const arb_ruling *r, const char *fact,
                                     const char **value) {
    for (int i = 0; i < arb_ruling_decided_count(r); i++) {
        if (strcmp(arb_fact_name(rs, arb_ruling_decided_fact(r, i)), fact) != 0) continue;
        *value = arb_ruling_decided_value(r, i);
        return arb_ruling_decided_source(r, i);
    }
    return NULL;
}

static void test_decided_path(void **state) {
    (void)state;
    const char *value = NULL;
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r = rule_text(sc, "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true}");
    assert_true(arb_ruling_decided_count(r) >= 2);
    assert_string_equal(arb_fact_name(toy, arb_ruling_decided_fact(r, 0)), "irregularity");
    assert_string_equal(arb_ruling_decided_value(r, 0), "te laat");
    assert_string_equal(arb_ruling_decided_source(r, 0), "given");
    assert_string_equal(decided_source_of(toy, r, "repeated", &value), "given");
    assert_string_equal(value, "ja");
    assert_null(decided_source_of(toy, r, "volume", &value)); /* not tested by article 1 */
    assert_int_equal(arb_ruling_decided_fact(r, -1), -1);
    assert_null(arb_ruling_decided_value(r, arb_ruling_decided_count(r)));
    assert_null(arb_ruling_decided_source(NULL, 0));
    assert_int_equal(arb_ruling_decided_count(NULL), 0);
    /* the values are those of the ruling, not of the answers after it */
    assert_int_equal(arb_scenario_answer(sc, "repeated", "nee", NULL), ARB_OK);
    assert_string_equal(decided_source_of(toy, r, "repeated", &value), "given");
    assert_string_equal(value, "ja");
    arb_ruling_free(r);
    arb_scenario_free(sc);

    /* 1C applies 3, whose turn_was comes from the auction: south's 2C,
     * the last call, was made in turn, so it was the offender's turn: 3A */
    sc = arb_scenario_new(toy);
    r = rule_text(sc, "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":false,"
                      "\"dealer\":\"N\",\"auction\":\"N: 1NT 2H 2C\"}");
    assert_string_equal(arb_ruling_trail(r, 3), "3A");
    assert_string_equal(decided_source_of(toy, r, "turn_was", &value), "auction");
    assert_string_equal(value, "offender");
    arb_ruling_free(r);
    arb_scenario_free(sc);

    /* defaults.rules: excused (default false) and minutes (default 10) are
     * assumed when the scenario is silent: 1B, a warning */
    arb_ruleset *defaults = arb_load("tests/rules/defaults", stderr);
    assert_non_null(defaults);
    sc = arb_scenario_new(defaults);
    char *error = NULL;
    assert_int_equal(arb_scenario_read_json(sc, "{\"irregularity\":\"late\"}", 23, &error), ARB_OK);
    r = arb_rule(defaults, NULL, sc);
    assert_int_equal(arb_ruling_status(r), ARB_RULED);
    assert_string_equal(arb_ruling_trail(r, 1), "1B");
    assert_string_equal(decided_source_of(defaults, r, "irregularity", &value), "given");
    assert_string_equal(decided_source_of(defaults, r, "excused", &value), "default");
    assert_string_equal(value, "nee");
    assert_string_equal(decided_source_of(defaults, r, "minutes", &value), "default");
    assert_string_equal(value, "10");
    arb_ruling_free(r);
    /* corrected by the director: given */
    assert_int_equal(arb_scenario_answer(sc, "minutes", "20", NULL), ARB_OK);
    r = arb_rule(defaults, NULL, sc);
    assert_string_equal(arb_ruling_trail(r, 1), "1C");
    assert_string_equal(decided_source_of(defaults, r, "minutes", &value), "given");
    assert_string_equal(value, "20");
    arb_ruling_free(r);
    arb_scenario_free(sc);
    arb_free(defaults);
}

/* A JSON syntax error's position, for FILE:LINE:COL; 0 for other errors. */
static void test_error_position(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    char *error = NULL;
    int line = -1, col = -1;
    const char *broken = "{\n  \"irregularity\": \"late\",\n  \"minutes\": ,\n}";
    assert_int_equal(arb_scenario_read_json(sc, broken, strlen(broken), &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_scenario_error_position(sc, &line, &col), ARB_OK);
    assert_int_equal(line, 3);
    assert_true(col >= 13); /* at or after the comma where a value should be */
    arb_scenario_free(sc);

    /* a value refused for its meaning: at its key's opening quote, past a
     * string that holds the same words */
    sc = arb_scenario_new(toy);
    const char *refused = "{\"_note\": \"\\\"minutes\\\": 1\",\n  \"minutes\": 99}";
    assert_int_equal(arb_scenario_read_json(sc, refused, strlen(refused), &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_scenario_error_position(sc, &line, &col), ARB_OK);
    assert_int_equal(line, 2);
    assert_int_equal(col, 3);
    arb_scenario_free(sc);

    sc = arb_scenario_new(toy);
    assert_int_equal(arb_scenario_read_json(sc, "{\"no_such_fact\":1}", 18, &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_scenario_error_position(sc, &line, &col), ARB_OK);
    assert_int_equal(line, 1);
    assert_int_equal(col, 2);
    assert_int_equal(arb_scenario_error_position(sc, NULL, NULL), ARB_OK);
    arb_scenario_free(sc);

    /* read successfully: no position */
    sc = arb_scenario_new(toy);
    assert_int_equal(arb_scenario_read_json(sc, "{\"minutes\":5}", 13, &error), ARB_OK);
    assert_int_equal(arb_scenario_error_position(sc, &line, &col), ARB_OK);
    assert_int_equal(line, 0);
    assert_int_equal(col, 0);
    arb_scenario_free(sc);
    assert_int_equal(arb_scenario_error_position(NULL, &line, &col), ARB_BAD_INPUT);
    assert_int_equal(line, 0);
}

/* The invariant a rejected situation breaks, in the ruleset's words. */
static void test_invariant_message(void **state) {
    (void)state;
    arb_scenario *sc = arb_scenario_new(toy);
    arb_ruling *r =
        rule_text(sc, "{\"irregularity\":\"noise\",\"minutes\":3,\"volume\":\"small\"}");
    assert_string_equal(arb_ruling_invariant(r, ARB_NL), "Lawaai duurt geen minuten");
    assert_string_equal(arb_ruling_invariant(r, ARB_EN),
                        "Lawaai duurt geen minuten"); /* no English given */
    arb_ruling_free(r);
    r = rule_text(sc, "{\"irregularity\":\"noise\",\"minutes\":0,\"volume\":\"small\"}");
    assert_null(arb_ruling_invariant(r, ARB_NL));
    arb_ruling_free(r);
    assert_null(arb_ruling_invariant(NULL, ARB_NL));
    arb_scenario_free(sc);
}

/* What kind of answer each of toy's facts takes. */
static void test_fact_kinds(void **state) {
    (void)state;
    long long lo = -1, hi = -1;
    int minutes = arb_fact_find(toy, "minutes");
    assert_int_equal(arb_fact_kind(toy, minutes), ARB_FACT_INT);
    assert_int_equal(arb_fact_range(toy, minutes, &lo, &hi), 1);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 60);
    assert_int_equal(arb_fact_kind(toy, arb_fact_find(toy, "irregularity")), ARB_FACT_ENUM);
    assert_int_equal(arb_fact_kind(toy, arb_fact_find(toy, "repeated")), ARB_FACT_BOOL);
    assert_int_equal(arb_fact_kind(toy, arb_fact_find(toy, "lowest")), ARB_FACT_CALL);
    assert_int_equal(arb_fact_range(toy, arb_fact_find(toy, "repeated"), &lo, &hi), 0);
    assert_int_equal(arb_fact_kind(toy, -1), ARB_FACT_NONE);
    assert_int_equal(arb_fact_kind(NULL, 0), ARB_FACT_NONE);
    assert_int_equal(arb_fact_range(NULL, 0, NULL, NULL), 0);
}

static char *write_plugin(const char *lua) {
    char *path = strdup("/tmp/arbiter-ruling-plugin-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, lua, strlen(lua)), (ssize_t)strlen(lua));
    close(fd);
    return path;
}

/* A club's own fact with a question, for a plugin that acts on 1B. */
#define MEMBER_PLUGIN                                                                              \
    "return { api = 1, name = \"Leden\", cite = \"Clubreglement 1\",\n"                            \
    "  facts = { member = { kind = \"bool\", ask = \"Is de speler lid?\", ask_en = \"A member?\" " \
    "} },\n"                                                                                       \
    "  override = { [\"1B\"] = function(ruling) %s return nil end } }\n"

static arb_plugins *load_member_plugin(const char *body, const arb_plugin_limits *limits) {
    char lua[600];
    snprintf(lua, sizeof lua, MEMBER_PLUGIN, body);
    char *path = write_plugin(lua);
    const char *paths[] = {path};
    arb_plugins *p = arb_load_plugins_limited(toy, paths, 1, limits, stderr);
    unlink(path);
    free(path);
    return p;
}

/* The plugin's question is asked until the scenario gives its fact. */
static void test_plugin_question(void **state) {
    (void)state;
    arb_plugins *p = load_member_plugin("", NULL);
    assert_non_null(p);
    arb_scenario *sc = arb_scenario_new(toy);
    char *error = NULL;
    const char *late = "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true}";
    assert_int_equal(arb_scenario_read_json(sc, late, strlen(late), &error), ARB_OK);
    arb_ruling *r = arb_rule(toy, p, sc);
    arb_plugin_question q;
    assert_int_equal(arb_plugin_question_next(p, sc, r, &q), 1);
    assert_string_equal(q.fact, "member");
    assert_string_equal(q.kind, "bool");
    assert_string_equal(q.ask, "Is de speler lid?");
    assert_string_equal(q.ask_en, "A member?");
    assert_int_equal(arb_scenario_answer_plugin(sc, &q, "misschien", &error), ARB_BAD_INPUT);
    assert_string_equal(error, "antwoord ja of nee");
    free(error);
    assert_int_equal(arb_scenario_answer_plugin(sc, &q, "ja", &error), ARB_OK);
    assert_null(error);
    arb_ruling_free(r);
    r = arb_rule(toy, p, sc);
    assert_int_equal(arb_plugin_question_next(p, sc, r, &q), 0); /* answered */
    assert_int_equal(arb_plugin_question_next(NULL, sc, r, &q), -1);
    assert_int_equal(arb_plugin_question_next(p, sc, NULL, &q), -1);
    assert_int_equal(arb_scenario_answer_plugin(sc, NULL, "ja", &error), ARB_BAD_INPUT);
    free(error);
    arb_ruling_free(r);

    /* a scenario for the plugins may give the plugin's fact itself: nothing to ask */
    const char *member =
        "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true,\"member\":false}";
    arb_scenario *plain = arb_scenario_new(toy), *with = arb_scenario_new_plugins(toy, p);
    assert_int_equal(arb_scenario_read_json(plain, member, strlen(member), &error), ARB_BAD_INPUT);
    assert_non_null(strstr(error, "unknown fact 'member'"));
    free(error);
    assert_int_equal(arb_scenario_read_json(with, member, strlen(member), &error), ARB_OK);
    /* arb_scenario_answer names the call for a plugin's own fact, where
     * the plugins are known; without them it is no fact of the ruleset */
    assert_int_equal(arb_scenario_answer(with, "member", "ja", &error), ARB_BAD_INPUT);
    assert_non_null(strstr(error, "arb_scenario_answer_plugin"));
    free(error);
    assert_int_equal(arb_scenario_answer(plain, "member", "ja", &error), ARB_BAD_INPUT);
    assert_string_equal(error, "no such fact in this ruleset");
    free(error);
    r = arb_rule(toy, p, with);
    assert_int_equal(arb_ruling_status(r), ARB_RULED);
    assert_int_equal(arb_plugin_question_next(p, with, r, &q), 0);
    arb_ruling_free(r);
    /* forgotten, the plugin's fact is asked again, and the scenario's JSON
     * no longer gives it: read back, it is the same scenario */
    arb_scenario_forget(with, "member");
    r = arb_rule(toy, p, with);
    assert_int_equal(arb_plugin_question_next(p, with, r, &q), 1);
    arb_ruling_free(r);
    char *saved = arb_scenario_json(with);
    assert_null(strstr(saved, "member"));
    arb_scenario *back = arb_scenario_new_plugins(toy, p);
    assert_int_equal(arb_scenario_read_json(back, saved, strlen(saved), &error), ARB_OK);
    r = arb_rule(toy, p, back);
    assert_int_equal(arb_plugin_question_next(p, back, r, &q), 1);
    arb_ruling_free(r);
    arb_scenario_free(back);
    free(saved);
    arb_scenario_free(plain);
    arb_scenario_free(with);

    /* 2A: the plugin does not act on it, so it asks nothing */
    arb_scenario *noise = arb_scenario_new(toy);
    const char *small = "{\"irregularity\":\"noise\",\"minutes\":0,\"volume\":\"small\"}";
    assert_int_equal(arb_scenario_read_json(noise, small, strlen(small), &error), ARB_OK);
    r = arb_rule(toy, p, noise);
    assert_int_equal(arb_plugin_question_next(p, noise, r, &q), 0);
    assert_int_equal(arb_plugin_question_next(p, sc, r, &q), -1); /* a ruling of another scenario */
    arb_ruling_free(r);
    arb_scenario_free(noise);
    arb_scenario_free(sc);
    arb_free_plugins(p);
}

/* Limits reach the plugin host: a loop of 100000 turns is well within the
 * default budget of instructions and over a budget of 10000. */
static void test_plugin_limits(void **state) {
    (void)state;
    const char *loop = "local n = 0 for i = 1, 100000 do n = n + i end";
    const char *late = "{\"irregularity\":\"late\",\"minutes\":20,\"repeated\":true}";
    arb_plugin_limits tight = {.instructions = 10000};
    for (int limited = 0; limited < 2; limited++) {
        arb_plugins *p = load_member_plugin(loop, limited ? &tight : NULL);
        assert_non_null(p);
        arb_scenario *sc = arb_scenario_new(toy);
        assert_int_equal(arb_scenario_read_json(sc, late, strlen(late), NULL), ARB_OK);
        arb_ruling *r = arb_rule(toy, p, sc);
        assert_int_equal(arb_ruling_status(r), limited ? ARB_FAILED : ARB_RULED);
        if (limited)
            assert_non_null(strstr(arb_ruling_error(r), "instruction budget of 10000 exceeded"));
        arb_ruling_free(r);
        arb_scenario_free(sc);
        arb_free_plugins(p);
    }
    arb_plugin_limits negative = {.time_ms = -1};
    assert_null(load_member_plugin("", &negative));
    assert_null(arb_load_plugins_limited(NULL, NULL, 0, NULL, NULL));
    assert_null(arb_load_plugins_limited(toy, NULL, 1, &tight, NULL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ruling_fields),     cmocka_unit_test(test_answers_one_by_one),
        cmocka_unit_test(test_article_titles),    cmocka_unit_test(test_rejected),
        cmocka_unit_test(test_statuses),          cmocka_unit_test(test_facts),
        cmocka_unit_test(test_bad_arguments),     cmocka_unit_test(test_ruling_text),
        cmocka_unit_test(test_decided_path),      cmocka_unit_test(test_error_position),
        cmocka_unit_test(test_invariant_message), cmocka_unit_test(test_fact_kinds),
        cmocka_unit_test(test_plugin_question),   cmocka_unit_test(test_plugin_limits),
    };
    return FIXTURE_RUN_GROUP("ruling_api", tests, rulesets);
}
