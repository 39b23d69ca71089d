/* api/scores.c — the scorer's calls of arbiter.h ("Scores, legal cards and
 * editions compared") over scoring.c and compare.c: a contract scored,
 * IMPs, a matchpoint sheet, the legal cards of a klaverjas position, and
 * one scenario under several rulesets. Each checks its arguments, builds
 * the record, rules, and hands the answer out as JSON text. */
#include "arbiter.h"

#include "protect.h"

#include "compare.h"
#include "legalwalk.h"
#include "output.h"
#include "plugin.h"
#include "scoring.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(ARB_MAX_SCORES == SCORING_MAX_SCORES, "arbiter.h promises the scorer's limit");

/* The start of every call: *json and *error cleared. */
static void clear_answer(char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
}

static enum arb_status fail(enum arb_status status, char **error, const char *msg) {
    if (error) *error = xstrdup(msg && *msg ? msg : "no answer");
    return status;
}

/* Hands j out as text when json is wanted, and lets j go. */
static void give_json(json_t *j, char **json) {
    if (json) *json = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    json_decref(j);
}

/* A scenario for rs with the plugins' hooks around its rulings. */
static void scenario_with_plugins(scenario *sc, const arb_ruleset *rs, const arb_plugins *p) {
    scenario_init(sc, rs);
    sc->hooks = p ? plugin_set_hooks(p) : NULL;
}

/* The exit status of a ruling that failed (enum arb_status). */
static enum arb_status failed_status(enum ruling_status s) {
    return s == RULING_GAP || s == RULING_ERROR || s == RULING_OUTSIDE ? ARB_NO_RULING
                                                                       : ARB_BAD_INPUT;
}

/* ---- what the ruleset scores ---- */

const char *arb_game(const arb_ruleset *rs) {
    return rs ? rs->game : NULL;
}

const char *arb_job_article(const arb_ruleset *rs, const char *job) {
    int j = rs && job ? scoring_job_named(job) : -1;
    if (j < 0) return NULL;
    strbuf none;
    sb_init(&none);
    int a = scoring_article(rs, (enum scoring_job)j, &none);
    sb_free(&none);
    return a >= 0 ? rs->articles[a].id : NULL;
}

/* ---- a contract, IMPs ---- */

static enum arb_status score_contract_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                  const char *contract,
                                                  enum arb_vulnerability vulnerable,
                                                  long long *points, char **json, char **error) {
    clear_answer(json, error);
    if (!rs || !contract)
        return fail(ARB_BAD_INPUT, error, "arb_score_contract: no ruleset or no contract");
    if (vulnerable < ARB_VULNERABILITY_UNKNOWN || vulnerable > ARB_VULNERABLE)
        return fail(ARB_BAD_INPUT, error,
                    "arb_score_contract: the vulnerability is not one of enum arb_vulnerability");
    scenario sc;
    scenario_with_plugins(&sc, rs, p);
    strbuf err;
    sb_init(&err);
    ruling r;
    int64_t total = 0;
    enum arb_status status = ARB_OK;
    if (!scoring_contract(rs, &sc, contract, vulnerable, &r, &total, &err))
        status = fail(ARB_BAD_INPUT, error, err.data);
    if (status == ARB_OK || r.status == RULING_NEEDS)
        give_json(scoring_contract_json(&r, &sc, contract, total), json);
    if (status == ARB_OK && points) *points = total;
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

enum arb_status arb_score_contract(const arb_ruleset *rs, const arb_plugins *p,
                                   const char *contract, enum arb_vulnerability vulnerable,
                                   long long *points, char **json, char **error) {
    mem_guard g;
    API_PROTECT(g) {
        return api_no_memory_answer(json, error);
    }
    enum arb_status result =
        score_contract_unprotected(rs, p, contract, vulnerable, points, json, error);
    api_leave(&g);
    return result;
}

static enum arb_status imps_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                        long long difference, long long *imps, char **json,
                                        char **error) {
    clear_answer(json, error);
    if (!rs) return fail(ARB_BAD_INPUT, error, "arb_imps: no ruleset");
    if (difference < -200000 || difference > 200000)
        return fail(ARB_BAD_INPUT, error,
                    "arb_imps: a difference between two scores is -200000 to 200000");
    scenario sc;
    scenario_with_plugins(&sc, rs, p);
    strbuf err;
    sb_init(&err);
    ruling r = {0};
    int64_t total = 0;
    int article = scoring_article(rs, SCORE_IMPS, &err);
    sc.rec.has_scoring = true;
    sc.rec.difference = difference;
    enum arb_status status = ARB_BAD_INPUT;
    if (article >= 0 && scenario_apply_record(&sc, &err) &&
        scoring_rule(rs, article, &sc, &r, &total, &err)) {
        status = ARB_OK;
        json_t *j = output_json(&r, &sc);
        json_object_set_new(j, "difference", json_integer(difference));
        json_object_set_new(j, "imps", json_integer(total));
        give_json(j, json);
        if (imps) *imps = total;
    } else {
        fail(status, error, err.data);
    }
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

enum arb_status arb_imps(const arb_ruleset *rs, const arb_plugins *p, long long difference,
                         long long *imps, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error, imps_unprotected(rs, p, difference, imps, json, error));
}

/* ---- a matchpoint sheet ---- */

static enum arb_status matchpoints_sheet_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                     const char *sheet, size_t len, char **json,
                                                     char **error) {
    clear_answer(json, error);
    if (!rs || !sheet)
        return fail(ARB_BAD_INPUT, error, "arb_matchpoints_sheet: no ruleset or no sheet");
    vec rows;
    vec_init(&rows, sizeof(score_line));
    strbuf err;
    sb_init(&err);
    enum arb_status status = ARB_BAD_INPUT;
    if (scoring_parse_sheet(sheet, len, &rows, &err) &&
        scoring_matchpoint_lines(rs, p ? plugin_set_hooks(p) : NULL, &rows, &err)) {
        status = ARB_OK;
        give_json(scoring_lines_json(&rows), json);
    } else {
        fail(status, error, err.data);
    }
    sb_free(&err);
    vec_free(&rows);
    return status;
}

enum arb_status arb_matchpoints_sheet(const arb_ruleset *rs, const arb_plugins *p,
                                      const char *sheet, size_t len, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         matchpoints_sheet_unprotected(rs, p, sheet, len, json, error));
}

/* ---- klaverjas: the legal cards of a position ---- */

/* One card of the position ruled on by the legal article, appended to cards. */
static enum arb_status rule_card(const arb_ruleset *rs, int article, scenario *sc, kj_card card,
                                 json_t *cards, strbuf *err) {
    ruling r;
    bool legal = false;
    char name[8];
    strbuf why;
    sb_init(&why);
    kj_format_card(card, name);
    bool ok = scoring_rule_card(rs, article, sc, card, &r, &legal, &why);
    if (ok) {
        json_t *j = json_pack("{sssssb}", "card", name, "verdict", legal ? "legal" : "illegal",
                              "legal", legal);
        json_object_update_new(j, output_ruling_part_json(&r, sc));
        json_array_append_new(cards, j);
    } else {
        sb_printf(err, "%s: %s", name, why.data ? why.data : "no ruling");
    }
    enum arb_status status =
        ok ? ARB_OK : failed_status(r.status == RULING_OK ? RULING_REJECTED : r.status);
    ruling_clear(&r);
    sb_free(&why);
    return status;
}

/* The answer's head: who is to play, trumps, the trick so far, a penalty card. */
static json_t *position_json(const arb_ruleset *rs, const kj_position *pos) {
    char trick[64] = "";
    if (pos->trick.ncards > 0) kj_format_trick(&pos->trick, trick, sizeof trick);
    json_t *answer = output_answer_json(rs);
    json_object_set_new(answer, "seat", json_string(bridge_seat_name(pos->seat)));
    json_object_set_new(answer, "trump", json_string(kj_suit_name(pos->trump)));
    json_object_set_new(answer, "trick", json_string(trick));
    if (pos->has_penalty_card) {
        char penalty[8];
        kj_format_card(pos->penalty_card, penalty);
        json_object_set_new(answer, "penalty_card", json_string(penalty));
    }
    return answer;
}

/* Every card of the hand; the ruling loop rewrites the record's facts, so
 * the position is copied first. */
static enum arb_status rule_every_card(const arb_ruleset *rs, scenario *sc, json_t **answer,
                                       strbuf *err) {
    int article = scoring_article(rs, SCORE_LEGAL, err);
    if (article < 0) return ARB_BAD_INPUT;
    kj_position pos = sc->rec.kj_position_record;
    json_t *cards = json_array();
    *answer = position_json(rs, &pos);
    json_object_set_new(*answer, "cards", cards);
    enum arb_status status = ARB_OK;
    for (int i = 0; status == ARB_OK && i < pos.ncards; i++)
        status = rule_card(rs, article, sc, pos.hand[i], cards, err);
    return status;
}

static enum arb_status legal_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                              const char *position, size_t len, char **json,
                                              char **error) {
    clear_answer(json, error);
    if (!rs || !position)
        return fail(ARB_BAD_INPUT, error, "arb_legal_json: no ruleset or no position");
    if (len > ARB_MAX_LINE)
        return fail(ARB_BAD_INPUT, error, "the position is longer than ARB_MAX_LINE bytes");
    scenario sc;
    scenario_with_plugins(&sc, rs, p);
    strbuf err;
    sb_init(&err);
    json_t *answer = NULL;
    enum arb_status status = ARB_BAD_INPUT;
    if (!scenario_read_json_placed(&sc, position, len, &err)) {
        /* err says why */
    } else if (!sc.rec.has_kj_position_record) {
        sb_puts(&err, "no position to rule on: give \"trump\", \"seat\", \"hand\" and \"trick\"");
    } else {
        status = rule_every_card(rs, &sc, &answer, &err);
    }
    if (status == ARB_OK) {
        give_json(answer, json);
    } else {
        json_decref(answer);
        fail(status, error, err.data);
    }
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

enum arb_status arb_legal_json(const arb_ruleset *rs, const arb_plugins *p, const char *position,
                               size_t len, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error, legal_json_unprotected(rs, p, position, len, json, error));
}

/* ---- klaverjas: always a legal card ---- */

static enum arb_status check_legal_cards_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                     FILE *out, FILE *errors) {
    if (!rs || !out) return ARB_BAD_INPUT;
    if (rs->legal_article < 0) return ARB_OK;
    legal_walk walk;
    strbuf err;
    sb_init(&err);
    bool ok = legal_walk_run(rs, p ? plugin_set_hooks(p) : NULL, &walk, &err);
    enum arb_status status = ok ? ARB_OK : ARB_BAD_INPUT;
    if (!ok && errors)
        fprintf(errors, "%s: legal cards: %s\n", rs->name, err.data ? err.data : "failed");
    if (ok && walk.found) {
        char *where = legal_walk_position_json(rs, &walk.counterexample, &walk.answers);
        if (errors)
            fprintf(
                errors,
                "%s%s: no card is legal in this position (`arbiter legal` on it shows each card's "
                "ruling):\n%s\n",
                rs->name, p ? ", with its plugins" : "", where ? where : "?");
        xfree(where);
        status = ARB_BAD_INPUT;
    } else if (ok) {
        fprintf(out,
                "%s: a legal card in every position: %d kinds of position, from %ld positions, %ld "
                "cards ruled on\n",
                rs->name, walk.kinds, walk.positions, walk.rulings);
    }
    sb_free(&err);
    return status;
}

enum arb_status arb_check_legal_cards(const arb_ruleset *rs, const arb_plugins *p, FILE *out,
                                      FILE *errors) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(errors);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = check_legal_cards_unprotected(rs, p, out, errors);
    api_leave(&g);
    return result;
}

/* ---- klaverjas: a hand scored ---- */

static enum arb_status score_hand_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                   const char *hand, size_t len, char **json,
                                                   char **error) {
    clear_answer(json, error);
    if (!rs || !hand)
        return fail(ARB_BAD_INPUT, error, "arb_score_hand_json: no ruleset or no hand");
    if (len > ARB_MAX_LINE)
        return fail(ARB_BAD_INPUT, error, "the hand is longer than ARB_MAX_LINE bytes");
    scenario sc;
    scenario_with_plugins(&sc, rs, p);
    strbuf err;
    sb_init(&err);
    kj_hand_score hs;
    memset(&hs, 0, sizeof hs);
    enum arb_status status = ARB_BAD_INPUT;
    if (!scenario_read_json_placed(&sc, hand, len, &err)) {
        fail(status, error, err.data);
    } else if (!scoring_klaverjas_hand(rs, &sc, &hs, &err)) {
        status = fail(failed_status(hs.failed), error, err.data);
    } else {
        status = ARB_OK;
        give_json(scoring_hand_json(rs, &hs, &sc), json);
    }
    kj_hand_score_clear(&hs);
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

enum arb_status arb_score_hand_json(const arb_ruleset *rs, const arb_plugins *p, const char *hand,
                                    size_t len, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error, score_hand_json_unprotected(rs, p, hand, len, json, error));
}

/* ---- one scenario under several rulesets ---- */

static bool compare_arguments_ok(const arb_ruleset *const *rulesets, int n, const char *scenario,
                                 char **error) {
    if (!rulesets || !scenario || n < 2 || n > ARB_MAX_COMPARED) {
        fail(ARB_BAD_INPUT, error,
             "arb_compare_json: give a scenario and 2 to ARB_MAX_COMPARED rulesets");
        return false;
    }
    for (int i = 0; i < n; i++)
        if (!rulesets[i]) {
            fail(ARB_BAD_INPUT, error, "arb_compare_json: a ruleset is NULL");
            return false;
        }
    return true;
}

/* What differs between the first ruling and each of the others. */
static json_t *differences_json(json_t *rulings) {
    json_t *diffs = json_array();
    for (size_t i = 1; i < json_array_size(rulings); i++)
        json_array_append_new(diffs, compare_differences_json(json_array_get(rulings, 0),
                                                              json_array_get(rulings, i)));
    return diffs;
}

static enum arb_status compare_json_unprotected(const arb_ruleset *const *rulesets,
                                                const arb_plugins *const *plugins, int n,
                                                const char *scenario, size_t len, char **json,
                                                char **error) {
    clear_answer(json, error);
    if (!compare_arguments_ok(rulesets, n, scenario, error)) return ARB_BAD_INPUT;
    json_t *rulings = json_array();
    strbuf err;
    sb_init(&err);
    enum arb_status status = ARB_OK;
    for (int i = 0; i < n; i++) {
        json_t *one = NULL;
        const arb_plugins *p = plugins ? plugins[i] : NULL;
        strbuf why;
        sb_init(&why);
        enum arb_status st = compare_ruling_json(rulesets[i], p ? plugin_set_hooks(p) : NULL,
                                                 scenario, len, &one, &why);
        if (why.len) sb_printf(&err, "%s%s", err.len ? "\n" : "", why.data);
        sb_free(&why);
        json_array_append_new(rulings, one);
        if (st > status) status = st;
    }
    give_json(json_pack("{soso}", "rulings", json_incref(rulings), "differences",
                        differences_json(rulings)),
              json);
    json_decref(rulings);
    if (err.len && error) *error = xstrdup(err.data);
    sb_free(&err);
    return status;
}

enum arb_status arb_compare_json(const arb_ruleset *const *rulesets,
                                 const arb_plugins *const *plugins, int n, const char *scenario,
                                 size_t len, char **json, char **error) {
    mem_guard g;
    API_PROTECT(g) {
        return api_no_memory_answer(json, error);
    }
    enum arb_status result =
        compare_json_unprotected(rulesets, plugins, n, scenario, len, json, error);
    api_leave(&g);
    return result;
}

static enum arb_status compare_differences_text_unprotected(const char *compare_json, size_t len,
                                                            FILE *out) {
    if (!compare_json || !out) return ARB_BAD_INPUT;
    json_t *answer = json_loadb(compare_json, len, 0, NULL);
    json_t *rulings = json_object_get(answer, "rulings"),
           *diffs = json_object_get(answer, "differences");
    if (!json_is_array(rulings) || !json_is_array(diffs) ||
        json_array_size(diffs) + 1 != json_array_size(rulings)) {
        json_decref(answer);
        return ARB_BAD_INPUT;
    }
    for (size_t i = 1; i < json_array_size(rulings); i++)
        compare_differences_text(out, json_array_get(rulings, 0), json_array_get(rulings, i),
                                 json_array_get(diffs, i - 1));
    json_decref(answer);
    return ARB_OK;
}

enum arb_status arb_compare_differences_text(const char *compare_json, size_t len, FILE *out) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = compare_differences_text_unprotected(compare_json, len, out);
    api_leave(&g);
    return result;
}
