/* test_eval.c — unit tests of ruling on compiled rulesets: core/engine/eval.c,
 * core/games/scenario.c, core/api/output.c and the batch API of core/api/arbiter.c.
 *
 * Covers: the trail (article id, then the clause cites, also through
 * `apply`) and the order of actions; action arguments evaluated at ruling
 * time (arithmetic, table lookups, min/max/abs, citations, facts);
 * RULING_NEEDS naming the first fact the graph needs, and never a fact that
 * does not matter on the path taken; RULING_REJECTED by an invariant;
 * several articles whose `when` holds, ruled in file order (also across
 * files); scenario_read_json errors (unknown fact with hint, wrong type,
 * int out of range, enum value not listed, derived fact given, bad JSON);
 * auction facts filled from "auction" (array and compact forms), the
 * conflict error for a non-overridable fact and the explicit value winning
 * for an overridable one; the output_json fields; arb_rule_batch with a bad
 * line in the middle.
 *
 * Expected rulings are worked out from the rule texts below and
 * docs/language.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter.h"
#include "compile.h"
#include "eval.h"
#include "output.h"
#include "scenario.h"

/* ------------------------------------------------------------ the rules */

#define RULES                                                                                      \
    "ruleset \"evalset\" { title \"Evaluatie\" game bridge }\n"                                    \
    "type size = enum { small \"klein\", large \"groot\" }\n"                                      \
    "fact irregularity : enum { late \"te laat\", noise \"lawaai\", call \"bod\" }\n"              \
    "  ask \"Wat is er gebeurd?\"\n"                                                               \
    "fact minutes : int 0..60\n"                                                                   \
    "  ask \"Hoeveel minuten te laat?\"\n"                                                         \
    "fact repeated : bool\n"                                                                       \
    "  ask \"Is het eerder gebeurd?\"\n"                                                           \
    "fact volume : size\n"                                                                         \
    "  ask \"Hoe hard?\"\n"                                                                        \
    "fact turn_was : enum { offender, lho, partner, rho }\n"                                       \
    "  ask \"Wie was aan de beurt?\"\n"                                                            \
    "  from auction.turn_was\n"                                                                    \
    "fact offender : seat\n"                                                                       \
    "  from auction.offender\n"                                                                    \
    "fact lho_called : bool\n"                                                                     \
    "  ask \"Heeft de LT geboden?\"\n"                                                             \
    "  from auction.lho_called\n"                                                                  \
    "  overridable\n"                                                                              \
    "fact lowest : call\n"                                                                         \
    "  from auction.lowest_sufficient\n"                                                           \
    "fact extra : int\n"                                                                           \
    "  ask \"Hoeveel extra punten?\"\n"                                                            \
    "fact very_late : bool = minutes > 15\n"                                                       \
    "table fine(s: size, r: bool) : int {\n"                                                       \
    "  small, false => 1  small, true => 2  large, false => 3  large, true => 6\n"                 \
    "}\n"                                                                                          \
    "action warning text \"Waarschuwing.\" en \"Warning.\"\n"                                      \
    "action penalty(points: int) text \"Aftrek van {points} punten.\" en \"A deduction of "        \
    "{points} points.\"\n"                                                                         \
    "action see(article: cite) text \"Zie artikel {article}.\"\n"                                  \
    "action must_pass(span: enum { next_turn \"bij zijn eerstvolgende beurt\" en \"at the next "   \
    "turn\",\n"                                                                                    \
    "                              rest \"gedurende de rest van het bieden\" en \"for the rest "   \
    "of the auction\" })\n"                                                                        \
    "  text \"De partner moet {span} passen.\" en \"Partner must pass {span}.\"\n"                 \
    "action replace_with(c: call) text \"Vervang door {c}.\"\n"                                    \
    "action noted(flag: bool, who: seat) text \"Genoteerd: {flag} voor {who}.\"\n"                 \
    "invariant \"Lawaai duurt geen minuten\" irregularity == noise implies minutes == 0\n"         \
    "article 1 \"Te laat\" when irregularity == late {\n"                                          \
    "  if not very_late => 1A { warning }\n"                                                       \
    "  if repeated => 1B { penalty(minutes * 2 + 1); see(3) }\n"                                   \
    "  otherwise => 1C apply 3\n"                                                                  \
    "}\n"                                                                                          \
    "article 2 \"Lawaai\" when irregularity == noise {\n"                                          \
    "  match volume {\n"                                                                           \
    "    small => 2A { penalty(fine(volume, repeated)) }\n"                                        \
    "    large => 2B { penalty(max(fine(volume, repeated), 5)), penalty(min(fine(volume, "         \
    "repeated), 5)),\n"                                                                            \
    "                  penalty(abs(minutes - 7)) }\n"                                              \
    "  }\n"                                                                                        \
    "}\n"                                                                                          \
    "article 3 \"Herhaling\" {\n"                                                                  \
    "  penalty(10)\n"                                                                              \
    "  match turn_was {\n"                                                                         \
    "    offender => 3A { warning }\n"                                                             \
    "    lho, partner => 3B { replace_with(lowest) }\n"                                            \
    "    rho => 3C { see(27B1a) }\n"                                                               \
    "  }\n"                                                                                        \
    "}\n"                                                                                          \
    "article 9 \"Bod\" when irregularity == call {\n"                                              \
    "  if lho_called => 9A { must_pass(next_turn) }\n"                                             \
    "  otherwise => 9B { must_pass(rest); noted(lho_called, offender); penalty(extra * 3) }\n"     \
    "}\n"

/* A ruleset with an invariant of two conjuncts. */
#define INV_RULES                                                                                  \
    "ruleset \"inv\" { }\n"                                                                        \
    "fact a : bool\n  ask \"a?\"\n"                                                                \
    "fact n : int 0..5\n  ask \"n?\"\n"                                                            \
    "action w text \"w\"\n"                                                                        \
    "invariant \"n klein\" (a implies n < 2) and n < 4\n"                                          \
    "article 1 when a { w }\n"                                                                     \
    "article 2 when not a { w }\n"

/* ---------------------------------------------------------------- helpers */

static void remove_dir(const char *dir, const char *const *names, int n) {
    char path[256];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* Compiles a ruleset directory of the given files (which must compile). */
static ruleset *compile_files(const char *const *names, const char *const *texts, int n) {
    char dir[64], path[256];
    snprintf(dir, sizeof dir, "/tmp/arbiter-unit-eval-XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(texts[i], f);
        fclose(f);
    }
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    diag *d = diag_new(mem);
    ruleset *rs = dsl_compile(dir, d);
    int errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
    remove_dir(dir, names, n);
    if (!rs || errors) fail_msg("the rules do not compile:\n%s", out);
    free(out);
    return rs;
}

static ruleset *compile_text(const char *rules) {
    const char *names[] = {"a.rules"};
    return compile_files(names, &rules, 1);
}

static int group_setup(void **state) {
    *state = compile_text(RULES);
    return 0;
}

static int group_teardown(void **state) {
    ruleset_free(*state);
    return 0;
}

/* Reads a scenario that must be valid and rules on it. */
static void rule(const ruleset *rs, const char *json, scenario *sc, ruling *r) {
    scenario_init(sc, rs);
    strbuf err;
    sb_init(&err);
    if (!scenario_read_json(sc, json, strlen(json), &err))
        fail_msg("scenario %s: %s", json, err.data);
    sb_free(&err);
    eval_rule(rs, rs->root, &sc->fv, r);
}

static void done(scenario *sc, ruling *r) {
    ruling_clear(r);
    scenario_free(sc);
}

/* The trail as "1,1C,3,3A". */
static void trail_text(const ruling *r, char *buf, size_t n) {
    json_t *t = output_trail_json(r);
    buf[0] = 0;
    size_t i;
    json_t *v;
    json_array_foreach(t, i, v) {
        if (i) strncat(buf, ",", n - strlen(buf) - 1);
        strncat(buf, json_string_value(v), n - strlen(buf) - 1);
    }
    json_decref(t);
}

static void assert_trail(const ruling *r, const char *want) {
    char buf[256];
    assert_int_equal(r->status, RULING_OK);
    trail_text(r, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static const char *action_name(const ruling *r, int i) {
    return r->rs->actions[rs_use_at(r->rs, r->actions[i].use)->action].name;
}

static void assert_needs(const ruling *r, const char *fact) {
    if (r->status != RULING_NEEDS) fail_msg("status %d, expected RULING_NEEDS %s", r->status, fact);
    assert_string_equal(r->rs->facts[r->fact].name, fact);
}

static bool path_has(const ruling *r, const char *fact) {
    for (int i = 0; i < r->npath; i++)
        if (strcmp(r->rs->facts[r->path_fact[i]].name, fact) == 0) return true;
    return false;
}

/* scenario_read_json must fail with an error containing `want`. */
static void assert_scenario_error(const ruleset *rs, const char *json, const char *want) {
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    assert_false(scenario_read_json(&sc, json, strlen(json), &err));
    if (!err.data || !strstr(err.data, want))
        fail_msg("error \"%s\", expected \"%s\"", err.data, want);
    sb_free(&err);
    scenario_free(&sc);
}

static int64_t fact_value(const scenario *sc, const char *name) {
    int f = rs_find_fact(sc->rs, name);
    assert_true(f >= 0);
    assert_true(sc->fv.known[f]);
    return sc->fv.value[f];
}

/* ---------------------------------------------------------------- trails */

static void test_trail_article_then_clause(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_trail(&r, "1,1A");
    assert_int_equal(r.nactions, 1);
    assert_string_equal(action_name(&r, 0), "warning");
    done(&sc, &r);
}

static void test_trail_through_apply(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": false, \"turn_was\": "
         "\"offender\"}",
         &sc, &r);
    /* 1 entered, 1C taken, 3 entered through apply, 3A taken */
    assert_trail(&r, "1,1C,3,3A");
    /* article 3's own action comes before the one of its clause */
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 0), "penalty");
    assert_int_equal(r.actions[0].args[0], 10);
    assert_string_equal(action_name(&r, 1), "warning");
    done(&sc, &r);
}

static void test_trail_of_other_apply_arm(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(
        rs,
        "{\"irregularity\": \"late\", \"minutes\": 60, \"repeated\": false, \"turn_was\": \"rho\"}",
        &sc, &r);
    assert_trail(&r, "1,1C,3,3C");
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 1), "see");
    assert_string_equal(rs_string(rs, r.actions[1].args[0]), "27B1a");
    done(&sc, &r);
}

/* ----------------------------------------------------- action arguments */

static void test_arithmetic_arguments(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    assert_trail(&r, "1,1B");
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 0), "penalty");
    assert_int_equal(r.actions[0].args[0], 20 * 2 + 1);
    assert_string_equal(action_name(&r, 1), "see");
    assert_string_equal(rs_string(rs, r.actions[1].args[0]), "3"); /* an integer as a citation */
    done(&sc, &r);
}

static void test_table_min_max_abs_arguments(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* large, repeated: fine = 6; max(6, 5) = 6, min(6, 5) = 5, abs(0 - 7) = 7 */
    rule(rs,
         "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
         &sc, &r);
    assert_trail(&r, "2,2B");
    assert_int_equal(r.nactions, 3);
    assert_int_equal(r.actions[0].args[0], 6);
    assert_int_equal(r.actions[1].args[0], 5);
    assert_int_equal(r.actions[2].args[0], 7);
    done(&sc, &r);
    /* large, not repeated: fine = 3; max(3, 5) = 5, min(3, 5) = 3 */
    rule(
        rs,
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": false}",
        &sc, &r);
    assert_int_equal(r.actions[0].args[0], 5);
    assert_int_equal(r.actions[1].args[0], 3);
    done(&sc, &r);
    /* small, repeated: fine = 2 */
    rule(rs,
         "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"small\", \"repeated\": true}",
         &sc, &r);
    assert_trail(&r, "2,2A");
    assert_int_equal(r.actions[0].args[0], 2);
    done(&sc, &r);
}

static void test_argument_needs_a_fact_the_graph_does_not_test(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* 9B's arguments name offender and extra, which no condition tests */
    rule(rs, "{\"irregularity\": \"call\", \"lho_called\": false}", &sc, &r);
    assert_needs(&r, "offender");
    done(&sc, &r);
    rule(rs, "{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"W\"}", &sc, &r);
    assert_needs(&r, "extra");
    done(&sc, &r);
    rule(rs,
         "{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"W\", \"extra\": -4}",
         &sc, &r);
    assert_trail(&r, "9,9B");
    assert_int_equal(r.nactions, 3);
    assert_int_equal(r.actions[0].args[0], 1); /* rest */
    assert_int_equal(r.actions[1].args[0], 0); /* false */
    assert_int_equal(r.actions[1].args[1], 3); /* W */
    assert_int_equal(r.actions[2].args[0], -12);
    done(&sc, &r);
}

static void test_argument_overflow_is_an_error(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs,
         "{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"N\", \"extra\": "
         "4611686018427387904}",
         &sc, &r);
    assert_int_equal(r.status, RULING_ERROR);
    assert_int_equal(r.error, EXPR_OVERFLOW);
    done(&sc, &r);
}

/* ----------------------------------------------------------- eval_batch */

/* Reads scenarios that must be valid into sc[0..n) and their fact values. */
static void read_all(const ruleset *rs, const char *const *json, int n, scenario *sc,
                     fact_values *fv) {
    for (int i = 0; i < n; i++) {
        scenario_init(&sc[i], rs);
        strbuf err;
        sb_init(&err);
        if (!scenario_read_json(&sc[i], json[i], strlen(json[i]), &err))
            fail_msg("scenario %s: %s", json[i], err.data);
        sb_free(&err);
        fv[i] = sc[i].fv;
    }
}

static void test_batch_rules_like_one_at_a_time(void **state) {
    const ruleset *rs = *state;
    const char *json[] = {
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}",
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
        "{\"irregularity\": \"call\", \"lho_called\": false}",
        "{\"irregularity\": \"noise\", \"minutes\": 5, \"volume\": \"small\", \"repeated\": false}",
        ("{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"N\", \"extra\": "
         "4611686018427387904}"),
        "{\"irregularity\": \"late\", \"minutes\": 3}",
    };
    enum { N = 6 };
    scenario sc[N];
    fact_values fv[N];
    ruling_brief b[N];
    int64_t args[16];
    read_all(rs, json, N, sc, fv);
    assert_int_equal(eval_batch(rs, rs->root, fv, NULL, N, b, args, 16), N);
    /* 1B: penalty(20 * 2 + 1), see(3) */
    assert_int_equal(b[0].status, RULING_OK);
    assert_int_equal(b[0].nargs, 2);
    assert_int_equal(args[b[0].args], 41);
    assert_string_equal(rs_string(rs, args[b[0].args + 1]), "3");
    /* 2B: max(6, 5), min(6, 5), abs(0 - 7) */
    assert_int_equal(b[1].status, RULING_OK);
    assert_int_equal(b[1].nargs, 3);
    assert_int_equal(args[b[1].args], 6);
    assert_int_equal(args[b[1].args + 1], 5);
    assert_int_equal(args[b[1].args + 2], 7);
    assert_int_equal(b[2].status, RULING_NEEDS);
    assert_string_equal(rs->facts[b[2].detail].name, "offender");
    assert_int_equal(b[2].nargs, 0); /* arguments only for a ruling */
    assert_int_equal(b[3].status, RULING_REJECTED);
    assert_int_equal(b[3].detail, 0);
    assert_int_equal(b[4].status, RULING_ERROR);
    assert_int_equal(b[4].detail, EXPR_OVERFLOW);
    /* 1A: a warning, no arguments */
    assert_int_equal(b[5].status, RULING_OK);
    assert_int_equal(b[5].nargs, 0);
    /* the same outcomes as eval_rule */
    for (int i = 0; i < N; i++) {
        ruling r;
        eval_rule(rs, rs->root, &fv[i], &r);
        assert_int_equal(r.status, b[i].status);
        if (r.status == RULING_OK) assert_int_equal(r.outcome, b[i].detail);
        ruling_clear(&r);
        scenario_free(&sc[i]);
    }
}

/* One ruling used again for each situation, in an order where a small
 * ruling follows a large one and the reverse: each is the ruling
 * eval_rule makes afresh (status, outcome, actions, arguments, path). */
static void test_rule_again_is_rule_afresh(void **state) {
    const ruleset *rs = *state;
    const char *json[] = {
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
        "{\"irregularity\": \"late\", \"minutes\": 3}",
        "{\"irregularity\": \"call\", \"lho_called\": false}",
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}",
        "{\"irregularity\": \"noise\", \"minutes\": 5, \"volume\": \"small\", \"repeated\": false}",
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
    };
    enum { N = 6 };
    scenario sc[N];
    fact_values fv[N];
    read_all(rs, json, N, sc, fv);
    ruling again;
    memset(&again, 0, sizeof again);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++) {
            ruling fresh;
            eval_rule(rs, rs->root, &fv[i], &fresh);
            eval_rule_again(rs, rs->root, &fv[i], true, &again);
            assert_int_equal(again.status, fresh.status);
            assert_int_equal(again.outcome, fresh.outcome);
            assert_int_equal(again.fact, fresh.fact);
            assert_int_equal(again.invariant, fresh.invariant);
            assert_int_equal(again.npath, fresh.npath);
            for (int k = 0; k < fresh.npath; k++) {
                assert_int_equal(again.path_fact[k], fresh.path_fact[k]);
                assert_int_equal(again.path_value[k], fresh.path_value[k]);
            }
            assert_int_equal(again.nactions, fresh.nactions);
            for (int a = 0; a < fresh.nactions; a++) {
                assert_int_equal(again.actions[a].use, fresh.actions[a].use);
                const rs_action_use *u = rs_use_at(rs, fresh.actions[a].use);
                for (int p = 0; p < rs->actions[u->action].nparams; p++)
                    assert_int_equal(again.actions[a].args[p], fresh.actions[a].args[p]);
            }
            ruling_clear(&fresh);
        }
    ruling_clear(&again);
    for (int i = 0; i < N; i++)
        scenario_free(&sc[i]);
}

static void test_batch_stops_where_arguments_do_not_fit(void **state) {
    const ruleset *rs = *state;
    const char *json[] = {
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}",
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
    };
    scenario sc[2];
    fact_values fv[2];
    ruling_brief b[2];
    int64_t args[4];
    read_all(rs, json, 2, sc, fv);
    /* 2 arguments fit, the next ruling's 3 do not */
    assert_int_equal(eval_batch(rs, rs->root, fv, NULL, 2, b, args, 4), 1);
    assert_int_equal(b[0].nargs, 2);
    assert_int_equal(eval_batch(rs, rs->root, fv + 1, NULL, 1, b + 1, args, 4), 1);
    assert_int_equal(args[b[1].args + 2], 7);
    assert_int_equal(eval_batch(rs, rs->root, fv + 1, NULL, 1, b + 1, args, 2), 0);
    for (int i = 0; i < 2; i++)
        scenario_free(&sc[i]);
}

/* ----------------------------------------------------------------- needs */

static void test_needs_first_fact_in_order(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs, "{}", &sc, &r);
    assert_needs(&r, "irregularity");
    done(&sc, &r);
    rule(rs, "{\"irregularity\": \"late\"}", &sc, &r);
    assert_needs(&r, "minutes");
    done(&sc, &r);
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 20}", &sc, &r);
    assert_needs(&r, "repeated");
    done(&sc, &r);
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": false}", &sc, &r);
    assert_needs(&r, "turn_was"); /* through apply 3 */
    done(&sc, &r);
}

static void test_irrelevant_facts_are_never_needed(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* 1A: only irregularity and minutes matter */
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 15}", &sc, &r);
    assert_trail(&r, "1,1A");
    assert_int_equal(r.npath, 2);
    assert_true(path_has(&r, "irregularity"));
    assert_true(path_has(&r, "minutes"));
    assert_false(path_has(&r, "repeated"));
    assert_false(path_has(&r, "volume"));
    done(&sc, &r);
    /* 9A: minutes, repeated, volume, turn_was do not matter */
    rule(rs, "{\"irregularity\": \"call\", \"lho_called\": true}", &sc, &r);
    assert_trail(&r, "9,9A");
    assert_int_equal(r.npath, 2);
    assert_false(path_has(&r, "minutes"));
    done(&sc, &r);
}

static void test_facts_given_but_irrelevant_are_not_in_path(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 3, \"repeated\": true, \"volume\": \"large\"}",
         &sc, &r);
    assert_trail(&r, "1,1A");
    assert_false(path_has(&r, "repeated"));
    assert_false(path_has(&r, "volume"));
    /* the path is in declaration order */
    assert_string_equal(rs->facts[r.path_fact[0]].name, "irregularity");
    assert_int_equal(r.path_value[0], 0);
    assert_string_equal(rs->facts[r.path_fact[1]].name, "minutes");
    assert_int_equal(r.path_value[1], 3);
    done(&sc, &r);
}

/* The graph tests x first (declaration order) because article 1 needs
 * it where y holds; with y false article 2 rules whatever x is, so x
 * did not decide that ruling: the path names y alone (x given and tested
 * on the way is left out), and with y true it names both. */
#define ORDERED_RULES                                                                              \
    "ruleset \"ordered\" { }\n"                                                                    \
    "fact x : bool\n  ask \"x?\"\n"                                                                \
    "fact y : bool\n  ask \"y?\"\n"                                                                \
    "action w text \"w\"\n"                                                                        \
    "action v text \"v\"\n"                                                                        \
    "article 1 when y and x { w }\n"                                                               \
    "article 2 when not y { v }\n"

static void test_path_names_the_facts_that_decided(void **state) {
    (void)state;
    ruleset *rs = compile_text(ORDERED_RULES);
    scenario sc;
    ruling r;
    rule(rs, "{\"x\": false, \"y\": false}", &sc, &r);
    assert_trail(&r, "2");
    assert_int_equal(r.npath, 1);
    assert_true(path_has(&r, "y"));
    assert_false(path_has(&r, "x"));
    done(&sc, &r);
    rule(rs, "{\"x\": true, \"y\": true}", &sc, &r);
    assert_trail(&r, "1");
    assert_int_equal(r.npath, 2);
    assert_true(path_has(&r, "x"));
    assert_true(path_has(&r, "y"));
    done(&sc, &r);
    ruleset_free(rs);
}

/* A fact an action's argument reads decided the ruling's number, though
 * the graph does not test it: it is among the grounds, after the facts
 * the decision tested (and so not among the unused). */
#define ARGUMENT_RULES                                                                             \
    "ruleset \"argument\" { }\n"                                                                   \
    "fact late : bool\n  ask \"late?\"\n"                                                          \
    "fact minutes : int 0..60\n  ask \"minutes?\"\n"                                               \
    "fact noise : bool\n  ask \"noise?\"\n"                                                        \
    "action fine(n: int) text \"fine %I\"\n"                                                       \
    "article 1 when late { fine(minutes * 2) }\n"

static void test_path_names_the_facts_an_argument_reads(void **state) {
    (void)state;
    ruleset *rs = compile_text(ARGUMENT_RULES);
    scenario sc;
    ruling r;
    rule(rs, "{\"late\": true, \"minutes\": 7, \"noise\": false}", &sc, &r);
    assert_trail(&r, "1");
    assert_int_equal(r.npath, 2);
    assert_string_equal(rs->facts[r.path_fact[0]].name, "late");
    assert_string_equal(rs->facts[r.path_fact[1]].name, "minutes");
    assert_int_equal(r.path_value[1], 7);
    assert_false(path_has(&r, "noise"));
    done(&sc, &r);
    ruleset_free(rs);
}

/* -------------------------------------------------------------- rejected */

static void test_rejected_by_invariant(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(
        rs,
        "{\"irregularity\": \"noise\", \"minutes\": 5, \"volume\": \"small\", \"repeated\": false}",
        &sc, &r);
    assert_int_equal(r.status, RULING_REJECTED);
    assert_int_equal(r.invariant, 0);
    strbuf sb;
    sb_init(&sb);
    ruling_problem(&r, &sb);
    assert_non_null(strstr(sb.data, "Lawaai duurt geen minuten"));
    sb_free(&sb);
    done(&sc, &r);
}

static void test_invariant_settled_by_given_facts(void **state) {
    (void)state;
    ruleset *rs = compile_text(INV_RULES);
    scenario sc;
    ruling r;
    /* a implies n < 2 fails */
    rule(rs, "{\"a\": true, \"n\": 3}", &sc, &r);
    assert_int_equal(r.status, RULING_REJECTED);
    assert_int_equal(r.invariant, 0);
    done(&sc, &r);
    /* possible situations are ruled */
    rule(rs, "{\"a\": false, \"n\": 3}", &sc, &r);
    assert_trail(&r, "2");
    done(&sc, &r);
    ruleset_free(rs);
}

/* Regression: an invariant settled false by the right operand of `and`
 * is rejected without asking for the unknown left operand. */
static void test_invariant_settled_by_right_operand(void **state) {
    (void)state;
    ruleset *rs = compile_text(INV_RULES);
    scenario sc;
    ruling r;
    rule(rs, "{\"n\": 4}", &sc, &r);
    assert_int_equal(r.status, RULING_REJECTED);
    assert_int_equal(r.invariant, 0);
    done(&sc, &r);
    ruleset_free(rs);
}

/* An invariant that every value of an unknown fact breaks, but whose
 * operands the known facts do not settle one by one: it is not settled by
 * the facts given, so the situation is not rejected (docs/language.md,
 * "Invariants"); it is once the fact is given. */
#define SPLIT_INV_RULES                                                                            \
    "ruleset \"split\" { }\n"                                                                      \
    "fact a : bool\n  ask \"a?\"\n"                                                                \
    "fact n : int 0..5\n  ask \"n?\"\n"                                                            \
    "action w text \"w\"\n"                                                                        \
    "invariant \"n klein\" (a implies n < 2) and (not a implies n < 2)\n"                          \
    "article 1 when a { w }\n"                                                                     \
    "article 2 when not a { w }\n"

static void test_invariant_broken_by_every_value_but_not_settled(void **state) {
    (void)state;
    ruleset *rs = compile_text(SPLIT_INV_RULES);
    scenario sc;
    ruling r;
    rule(rs, "{\"n\": 3}", &sc, &r);
    assert_int_not_equal(r.status, RULING_REJECTED);
    done(&sc, &r);
    rule(rs, "{\"n\": 3, \"a\": false}", &sc, &r);
    assert_int_equal(r.status, RULING_REJECTED);
    done(&sc, &r);
    rule(rs, "{\"n\": 1}", &sc, &r);
    assert_needs(&r, "a");
    done(&sc, &r);
    ruleset_free(rs);
}

/* eval_batch with and without rows on the same situations, compared field
 * for field; returns how many are rulings. */
static int batch_alike_on(const ruleset *rs, fact_values *fv, int n) {
    size_t stride = eval_row_size(rs);
    uint64_t *rows = calloc((size_t)n, stride);
    ruling_brief *plain = calloc((size_t)n, sizeof *plain),
                 *packed = calloc((size_t)n, sizeof *packed);
    int64_t *args_plain = calloc((size_t)n * 16, sizeof(int64_t));
    int64_t *args_packed = calloc((size_t)n * 16, sizeof(int64_t));
    assert_true(rows && plain && packed && args_plain && args_packed);
    for (int i = 0; i < n; i++)
        eval_pack(rs, &fv[i], (char *)rows + (size_t)i * stride);
    assert_int_equal(eval_batch(rs, rs->root, fv, NULL, n, plain, args_plain, (size_t)n * 16), n);
    assert_int_equal(eval_batch(rs, rs->root, fv, rows, n, packed, args_packed, (size_t)n * 16), n);
    int ok = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(packed[i].status, plain[i].status);
        assert_int_equal(packed[i].detail, plain[i].detail);
        assert_int_equal(packed[i].nargs, plain[i].nargs);
        for (int k = 0; k < plain[i].nargs; k++)
            assert_int_equal(args_packed[packed[i].args + k], args_plain[plain[i].args + k]);
        ok += plain[i].status == RULING_OK;
    }
    free(rows), free(plain), free(packed), free(args_plain), free(args_packed);
    return ok;
}

/* A derived yes/no fact that reads numbers no decision can test (points
 * past 255) is tested as a variable of its own, computed from the
 * scenario before the walk: the ruling names the clause it decides, asks
 * the input it lacks (never the derived fact), shows it in the path, and
 * rules alike in eval_batch with and without packed rows. */
#define COMPUTED_RULES                                                                             \
    "ruleset \"computed\" { }\n"                                                                   \
    "fact mine : int\n  ask \"mine?\"\n"                                                           \
    "fact theirs : int\n  ask \"theirs?\"\n"                                                       \
    "fact bonus : int 0..255\n  ask \"bonus?\"\n"                                                  \
    "fact won : bool = mine + bonus > theirs\n"                                                    \
    "fact has_points : bool = mine > 0\n"                                                          \
    "invariant \"no bonus without points\" bonus > 0 implies has_points\n"                         \
    "action made(points: int) text \"made {points}\"\n"                                            \
    "action lost text \"lost\"\n"                                                                  \
    "article 1 when true {\n"                                                                      \
    "  if won => 1A { made(mine + bonus) }\n"                                                      \
    "  otherwise => 1B { lost }\n"                                                                 \
    "}\n"

static void test_derived_fact_on_untestable_numbers_is_computed(void **state) {
    (void)state;
    ruleset *rs = compile_text(COMPUTED_RULES);
    int won = rs_find_fact(rs, "won");
    assert_true(rs->facts[won].var >= 0 && rs->facts[won].derived >= 0);
    scenario sc;
    ruling r;
    rule(rs, "{\"mine\": 300, \"theirs\": 290, \"bonus\": 0}", &sc, &r);
    assert_trail(&r, "1,1A");
    assert_true(path_has(&r, "won"));
    assert_true(path_has(&r, "mine")); /* made's argument reads it: it decided the points */
    assert_int_equal(r.actions[0].args[0], 300);
    done(&sc, &r);
    rule(rs, "{\"mine\": 280, \"theirs\": 290, \"bonus\": 10}", &sc, &r);
    assert_trail(&r, "1,1B"); /* 290 is not more than 290 */
    assert_true(path_has(&r, "won"));
    assert_false(path_has(&r, "mine")); /* read by the computation of won, not tested */
    done(&sc, &r);
    rule(rs, "{\"mine\": 280, \"bonus\": 10}", &sc, &r);
    assert_needs(&r, "theirs");
    done(&sc, &r);
    rule(rs, "{\"theirs\": 280}", &sc, &r);
    assert_needs(&r, "mine");
    done(&sc, &r);
    /* an invariant over a computed fact is settled by its value */
    rule(rs, "{\"mine\": 0, \"theirs\": 10, \"bonus\": 5}", &sc, &r);
    assert_int_equal(r.status, RULING_REJECTED);
    done(&sc, &r);
    const char *json[] = {
        "{\"mine\": 300, \"theirs\": 290, \"bonus\": 0}",
        "{\"mine\": 280, \"theirs\": 290, \"bonus\": 10}",
        "{\"mine\": 280, \"theirs\": 290}",
        "{\"mine\": 9223372036854775807, \"theirs\": 0, \"bonus\": 1}",
        "{\"mine\": 0, \"theirs\": 10, \"bonus\": 5}",
    };
    enum { N = 5 };
    scenario all[N];
    fact_values fv[N];
    read_all(rs, json, N, all, fv);
    assert_int_equal(batch_alike_on(rs, fv, N), 2);
    ruling_brief b[N];
    int64_t args[8];
    assert_int_equal(eval_batch(rs, rs->root, fv, NULL, N, b, args, 8), N);
    assert_int_equal(b[2].status, RULING_NEEDS);
    assert_string_equal(rs->facts[b[2].detail].name, "bonus");
    assert_int_equal(b[3].status, RULING_ERROR); /* the sum overflows */
    assert_int_equal(b[3].detail, EXPR_OVERFLOW);
    assert_int_equal(b[4].status, RULING_REJECTED);
    for (int i = 0; i < N; i++)
        scenario_free(&all[i]);
    ruleset_free(rs);
}

/* eval_batch on packed rows gives, field for field, what it gives on the
 * fact values alone: a row that settles its ruling, one that stops at a
 * fact it does not give (the ruling then asks), one whose first values
 * break an invariant (the search decides), one rejected. */
static int batch_packed_alike(const ruleset *rs, const char *const *json, int n) {
    enum { MAX = 80 };
    static scenario sc[MAX];
    static fact_values fv[MAX];
    assert_true(n <= MAX);
    read_all(rs, json, n, sc, fv);
    int ok = batch_alike_on(rs, fv, n);
    for (int i = 0; i < n; i++)
        scenario_free(&sc[i]);
    return ok;
}

static void test_batch_packed_rows_rule_alike(void **state) {
    const ruleset *rs = *state;
    const char *json[] = {
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}",
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": true}",
        "{\"irregularity\": \"call\", \"lho_called\": false}",
        "{\"irregularity\": \"noise\", \"minutes\": 5, \"volume\": \"small\", \"repeated\": false}",
        ("{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"N\", \"extra\": "
         "4611686018427387904}"),
        "{\"irregularity\": \"late\", \"minutes\": 3}",
        "{\"minutes\": 3}",
        "{}",
    };
    batch_packed_alike(rs, json, 8);
    ruleset *split = compile_text(SPLIT_INV_RULES);
    const char *inv[] = {"{\"n\": 3}", "{\"n\": 3, \"a\": false}", "{\"n\": 1}",
                         "{\"n\": 1, \"a\": true}", "{\"n\": 2, \"a\": true}"};
    batch_packed_alike(split, inv, 5);
    ruleset_free(split);
}

/* A ruleset of two selectors s1, s2 (0..19) and nfacts yes/no facts: under
 * each of the 400 pairs of selector values an article tests three facts
 * drawn at random (tested 3: "fA and (not fB or fC)") or one (tested 1:
 * the pair's own fact, fK with K = pair % nfacts). */
static ruleset *selector_rules(int nfacts, int tested) {
    enum { SELECT = 20 };
    strbuf rules;
    sb_init(&rules);
    sb_printf(&rules,
              "ruleset \"keys\" { }\naction w text \"w\"\n"
              "fact s1 : int 0..%d\n  ask \"s1?\"\nfact s2 : int 0..%d\n  ask \"s2?\"\n",
              SELECT - 1, SELECT - 1);
    for (int f = 0; f < nfacts; f++)
        sb_printf(&rules, "fact f%d : bool\n  ask \"f%d?\"\n", f, f);
    uint32_t seed = 12345;
    for (int a = 0; a < SELECT * SELECT; a++) {
        sb_printf(&rules, "article %d when s1 == %d and s2 == %d and ", a + 1, a / SELECT,
                  a % SELECT);
        if (tested == 1) {
            sb_printf(&rules, "f%d { w }\n", a % nfacts);
            continue;
        }
        int v[3];
        for (int k = 0; k < 3; k++)
            v[k] = (int)((seed = seed * 1103515245u + 12345u) >> 16) % nfacts;
        sb_printf(&rules, "f%d and (not f%d or f%d) { w }\n", v[0], v[1], v[2]);
    }
    ruleset *rs = compile_text(rules.data);
    sb_free(&rules);
    return rs;
}

/* n situations of selector_rules(nfacts, …) in runs of 80, every fact
 * given, each packed and unpacked ruled alike; returns the rulings. */
static int selector_situations_alike(const ruleset *rs, int nfacts, int n) {
    enum { RUN = 80 };
    size_t size = (size_t)nfacts * 16 + 40;
    char *text = malloc((size_t)RUN * size);
    const char *json[RUN];
    uint32_t seed = 777;
    int ruled = 0;
    for (int start = 0; start < n; start += RUN) {
        for (int i = 0; i < RUN; i++) {
            char *t = text + (size_t)i * size;
            int k = snprintf(t, size, "{\"s1\": %d, \"s2\": %d", (start + i) / 20 % 20,
                             (start + i) % 20);
            for (int f = 0; f < nfacts; f++) {
                bool value = ((seed = seed * 1103515245u + 12345u) >> 16) & 1;
                k +=
                    snprintf(t + k, size - (size_t)k, ", \"f%d\": %s", f, value ? "true" : "false");
            }
            snprintf(t + k, size - (size_t)k, "}");
            json[i] = t;
        }
        ruled += batch_packed_alike(rs, json, RUN);
    }
    free(text);
    return ruled;
}

/* A graph whose nodes test more combinations of facts than a row has keys
 * for (256; about 400 threes of 40 facts): it is walked one level a step,
 * and its situations rule as their fact values do all the same. */
static void test_batch_packed_rows_past_the_keys_a_row_holds(void **state) {
    (void)state;
    ruleset *rs = selector_rules(40, 3);
    assert_true(selector_situations_alike(rs, 40, 400) > 100); /* rulings, not only gaps */
    ruleset_free(rs);
}

/* A graph that tests more facts than a row has keys for (300): it is not
 * laid out, and its situations are ruled from their fact values. */
static void test_batch_packed_rows_past_the_facts_a_row_holds(void **state) {
    (void)state;
    ruleset *rs = selector_rules(300, 1);
    assert_true(selector_situations_alike(rs, 300, 160) > 40);
    ruleset_free(rs);
}

/* Inside a protected call a batch makes no cache on the ruleset (a failed
 * allocation would free it under the ruleset) and rules alike without. */
static void test_batch_packed_rows_in_protected_call(void **state) {
    (void)state;
    ruleset *rs = compile_text(SPLIT_INV_RULES);
    const char *inv[] = {"{\"n\": 3}", "{\"n\": 3, \"a\": false}", "{\"n\": 1, \"a\": true}"};
    mem_guard g;
    MEM_PROTECT(g) {
        fail_msg("out of memory");
    }
    batch_packed_alike(rs, inv, 3);
    assert_null(rs->batch_cache);
    mem_leave(&g);
    batch_packed_alike(rs, inv, 3);
    assert_non_null(rs->batch_cache);
    ruleset_free(rs);
}

/* Thirty-two sets of known facts: more than the batch keeps a view for
 * (16); the rows past them are ruled alike all the same. */
static void test_batch_packed_rows_many_known_sets(void **state) {
    const ruleset *rs = *state;
    static const char *const part[5] = {"\"minutes\": 3", "\"repeated\": false",
                                        "\"volume\": \"small\"", "\"lho_called\": false",
                                        "\"offender\": \"N\""};
    char text[32][200];
    const char *json[32];
    for (int m = 0; m < 32; m++) {
        int k = snprintf(text[m], sizeof text[m], "{\"irregularity\": \"%s\"",
                         m % 2 ? "noise" : "late");
        for (int b = 0; b < 5; b++)
            if (m >> b & 1) k += snprintf(text[m] + k, sizeof text[m] - (size_t)k, ", %s", part[b]);
        snprintf(text[m] + k, sizeof text[m] - (size_t)k, "}");
        json[m] = text[m];
    }
    batch_packed_alike(rs, json, 32);
}

/* Long runs of rows that give the same facts, walked eight side by side
 * (a lane takes the next row when its own has ended): 77 rows, every
 * value of minutes under each irregularity and repetition, rule alike,
 * and so do the same rows cut at every length up to 20 (the lanes' first
 * rows, the rest one by one). */
static void test_batch_packed_rows_in_long_runs(void **state) {
    const ruleset *rs = *state;
    static const char *const irregularity[3] = {"late", "noise", "call"};
    char text[77][160];
    const char *json[77];
    for (int i = 0; i < 77; i++) {
        snprintf(text[i], sizeof text[i],
                 "{\"irregularity\": \"%s\", \"minutes\": %d, \"repeated\": %s, \"volume\": "
                 "\"%s\", \"lho_called\": %s}",
                 irregularity[i % 3], i % 61, i % 4 < 2 ? "true" : "false",
                 i % 5 ? "small" : "large", i % 7 ? "true" : "false");
        json[i] = text[i];
    }
    batch_packed_alike(rs, json, 77);
    for (int n = 1; n <= 20; n++)
        batch_packed_alike(rs, json + n, n);
}

/* bridge-2017 on the cases of examples/cases/corpus.jsonl, each one nine
 * times in a row (runs the lanes walk side by side; far more sets of
 * known facts than the batch keeps a view for), then on 1,200 made-up
 * situations: 24 sets of known facts in runs of 50 rows, every value drawn
 * from its fact's domain (one in forty just outside it), most of them
 * breaking an invariant. Packed rows rule as the fact values do. */
static void test_batch_packed_rows_on_bridge_2017(void **state) {
    (void)state;
    enum { MAX = 12000, COPIES = 9, RANDOM = 1200, RUN = 50 };
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    diag *d = diag_new(mem);
    ruleset *rs = dsl_compile("rulesets/bridge-2017", d);
    int errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
    if (!rs || errors) fail_msg("bridge-2017 does not compile:\n%s", out);
    free(out);
    scenario *sc = calloc(MAX, sizeof *sc);
    fact_values *fv = calloc(MAX, sizeof *fv);
    assert_true(sc && fv);
    FILE *f = fopen("examples/cases/corpus.jsonl", "r");
    assert_non_null(f);
    char line[4096];
    int n = 0, cases = 0;
    strbuf err;
    sb_init(&err);
    while (fgets(line, sizeof line, f) && n + COPIES <= MAX) {
        scenario_init(&sc[n], rs);
        if (!scenario_read_json(&sc[n], line, strlen(line), &err)) {
            scenario_free(&sc[n]);
            continue;
        }
        cases++;
        for (int k = 1; k < COPIES; k++) {
            scenario_init(&sc[n + k], rs);
            assert_true(scenario_read_json(&sc[n + k], line, strlen(line), &err));
        }
        n += COPIES;
    }
    fclose(f);
    sb_free(&err);
    assert_true(cases >= 500);
    for (int i = 0; i < n; i++)
        fv[i] = sc[i].fv;
    assert_true(batch_alike_on(rs, fv, n) >= n / 2);
    for (int i = 0; i < n; i++)
        scenario_free(&sc[i]);

    const graph *g = rs->graph;
    uint64_t seed = 0x2017002701963001u;
    for (int i = 0; i < RANDOM; i++) {
        scenario_init(&sc[i], rs);
        int set = i / RUN % 24;
        for (int v = 0; v < rs->nvars; v++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint64_t mix =
                ((uint64_t)set * 0x9e3779b97f4a7c15u ^ (uint64_t)v * 0xbf58476d1ce4e5b9u);
            if ((mix >> 40) % 4 == 0 && set % 3) continue; /* this set leaves the fact unknown */
            int64_t value = g->lo[v] + (int64_t)((seed >> 33) % (uint64_t)g->domain[v]);
            if ((seed >> 20) % 40 == 0) value = g->lo[v] - 1;
            scenario_give(&sc[i], rs->var_fact[v], value);
        }
        fv[i] = sc[i].fv;
    }
    batch_alike_on(rs, fv, RANDOM);
    for (int i = 0; i < RANDOM; i++)
        scenario_free(&sc[i]);
    free(sc), free(fv);
    ruleset_free(rs);
}

/* A fact the graph tests first is not asked when a fact tested further down
 * is known and makes it irrelevant: b decides alone when it is true. */
#define ORDER_RULES                                                                                \
    "ruleset \"order\" { }\n"                                                                      \
    "fact a : bool ask \"a?\"\n"                                                                   \
    "fact b : bool ask \"b?\"\n"                                                                   \
    "action x text \"x\"\n"                                                                        \
    "action y text \"y\"\n"                                                                        \
    "action z text \"z\"\n"                                                                        \
    "article 1 when true {\n"                                                                      \
    "  if b => 1A { x }\n"                                                                         \
    "  if a => 1B { y }\n"                                                                         \
    "  otherwise => 1C { z }\n"                                                                    \
    "}\n"

static void test_unknown_fact_made_irrelevant_by_later_fact(void **state) {
    (void)state;
    ruleset *rs = compile_text(ORDER_RULES);
    scenario sc;
    ruling r;
    rule(rs, "{\"b\": true}", &sc, &r);
    assert_int_equal(r.status, RULING_OK);
    assert_trail(&r, "1,1A");
    assert_false(path_has(&r, "a"));
    done(&sc, &r);
    rule(rs, "{\"b\": false}", &sc, &r);
    assert_needs(&r, "a");
    done(&sc, &r);
    ruleset_free(rs);
}

/* Calls compare by rank: P < X < XX < 1C < … < 7NT. */
static void test_calls_compare_by_rank(void **state) {
    (void)state;
    ruleset *rs = compile_text("ruleset \"calls\" { }\n"
                               "fact c : call ask \"c?\"\n"
                               "action high text \"high\"\n"
                               "action low text \"low\"\n"
                               "article 1 when true {\n"
                               "  if c >= 3NT => 1A { high }\n"
                               "  otherwise => 1B { low }\n"
                               "}\n");
    scenario sc;
    ruling r;
    rule(rs, "{\"c\": \"4C\"}", &sc, &r);
    assert_trail(&r, "1,1A");
    done(&sc, &r);
    rule(rs, "{\"c\": \"3S\"}", &sc, &r);
    assert_trail(&r, "1,1B");
    done(&sc, &r);
    rule(rs, "{\"c\": \"XX\"}", &sc, &r);
    assert_trail(&r, "1,1B");
    done(&sc, &r);
    ruleset_free(rs);
}

static void test_fact_needed_only_by_invariant_is_not_asked(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* noise implies minutes == 0: minutes is not asked to prove it */
    rule(rs, "{\"irregularity\": \"noise\", \"volume\": \"small\", \"repeated\": false}", &sc, &r);
    assert_trail(&r, "2,2A");
    assert_false(path_has(&r, "minutes"));
    assert_int_equal(r.actions[0].args[0], 1);
    done(&sc, &r);
    /* but an argument that uses it needs it */
    rule(rs, "{\"irregularity\": \"noise\", \"volume\": \"large\", \"repeated\": false}", &sc, &r);
    assert_needs(&r, "minutes");
    done(&sc, &r);
}

static void test_group_without_citation_adds_nothing_to_trail(void **state) {
    (void)state;
    ruleset *rs = compile_text("ruleset \"grp\" { }\n"
                               "fact a : bool\n  ask \"a?\"\nfact b : bool\n  ask \"b?\"\n"
                               "action w1 text \"1\"\naction w2 text \"2\"\naction w3 text \"3\"\n"
                               "article 4 when true {\n"
                               "  w1\n"
                               "  if a { if b => 4A { w2 } otherwise => 4B { w3 } }\n"
                               "  otherwise => 4C { w3 }\n"
                               "}\n");
    scenario sc;
    ruling r;
    rule(rs, "{\"a\": true, \"b\": true}", &sc, &r);
    assert_trail(&r, "4,4A");
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 0), "w1"); /* applies whenever the block is reached */
    assert_string_equal(action_name(&r, 1), "w2");
    done(&sc, &r);
    rule(rs, "{\"a\": false}", &sc, &r);
    assert_trail(&r, "4,4C");
    assert_false(path_has(&r, "b"));
    done(&sc, &r);
    ruleset_free(rs);
}

/* --------------------------------------------- several articles, in order */

static void test_several_articles_in_file_order(void **state) {
    (void)state;
    ruleset *rs = compile_text("ruleset \"multi\" { }\n"
                               "fact a : bool\n  ask \"a?\"\n"
                               "fact b : bool\n  ask \"b?\"\n"
                               "action w9 text \"9\"\naction w5 text \"5\"\naction w7 text \"7\"\n"
                               "article 9 when a { w9 }\n"
                               "article 5 when b { if a => 5A { w5 } otherwise => 5B { w5 } }\n"
                               "article 7 when not a and not b { w7 }\n"
                               "article 6 when a or b { }\n");
    scenario sc;
    ruling r;
    rule(rs, "{\"a\": true, \"b\": true}", &sc, &r);
    assert_trail(&r, "9,5,5A,6");
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 0), "w9");
    assert_string_equal(action_name(&r, 1), "w5");
    done(&sc, &r);
    rule(rs, "{\"a\": false, \"b\": true}", &sc, &r);
    assert_trail(&r, "5,5B,6");
    done(&sc, &r);
    rule(rs, "{\"a\": false, \"b\": false}", &sc, &r);
    assert_trail(&r, "7");
    done(&sc, &r);
    ruleset_free(rs);
}

static void test_articles_of_several_files_in_name_order(void **state) {
    (void)state;
    const char *names[] = {"20-late.rules", "00-head.rules", "10-early.rules"};
    const char *texts[] = {
        "article 1 when a { w }\n",
        ("ruleset \"files\" { }\nfact a : bool\n  ask \"a?\"\naction w text \"w\"\n"
         "article 30 when not a { w }\n"),
        "article 2 when a { w }\n",
    };
    ruleset *rs = compile_files(names, texts, 3);
    scenario sc;
    ruling r;
    rule(rs, "{\"a\": true}", &sc, &r);
    /* files are read in name order: 00-head, 10-early, 20-late */
    assert_trail(&r, "2,1");
    done(&sc, &r);
    ruleset_free(rs);
}

static void test_gap_when_no_article_applies(void **state) {
    (void)state;
    ruleset *rs =
        compile_text("ruleset \"gap\" { }\nfact a : bool\n  ask \"a?\"\naction w text \"w\"\n"
                     "article 1 when a { w }\n");
    scenario sc;
    ruling r;
    rule(rs, "{\"a\": false}", &sc, &r);
    assert_int_equal(r.status, RULING_GAP);
    assert_int_equal(r.block, -1);
    done(&sc, &r);
    ruleset_free(rs);
}

/* ------------------------------------------------------ scenario errors */

static void test_scenario_unknown_fact_with_hint(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"minuts\": 5}", "unknown fact 'minuts'; did you mean 'minutes'?");
    assert_scenario_error(rs, "{\"zzzzzzzzzz\": 5}", "unknown fact 'zzzzzzzzzz'");
}

static void test_scenario_wrong_type(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"repeated\": 3}", "fact 'repeated' expects true or false");
    assert_scenario_error(rs, "{\"minutes\": \"veel\"}", "fact 'minutes'");
    assert_scenario_error(rs, "{\"minutes\": true}", "fact 'minutes' expects an integer");
    assert_scenario_error(rs, "{\"irregularity\": 1}", "fact 'irregularity' expects a string");
}

static void test_scenario_int_out_of_range(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"minutes\": 61}", "fact 'minutes' is 61, outside 0..60");
    assert_scenario_error(rs, "{\"minutes\": -1}", "fact 'minutes' is -1, outside 0..60");
}

static void test_scenario_enum_value_not_listed(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(
        rs, "{\"irregularity\": \"laat\"}",
        "'laat' is not a value of fact 'irregularity'; expected one of: late, noise, call");
    /* a label is not a value */
    assert_scenario_error(rs, "{\"volume\": \"groot\"}", "'groot' is not a value of fact 'volume'");
}

static void test_scenario_derived_fact_given(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"very_late\": true}", "'very_late' is derived from other facts");
}

static void test_scenario_bad_json(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    const char *text = "{\"irregularity\": \"late\",\n \"minutes\": }";
    assert_false(scenario_read_json(&sc, text, strlen(text), &err));
    assert_non_null(strstr(err.data, "invalid JSON"));
    assert_int_equal(sc.err_line, 2);
    sb_free(&err);
    scenario_free(&sc);
    assert_scenario_error(rs, "[1, 2]", "a scenario is a JSON object");
    assert_scenario_error(rs, "{\"minutes\": 1, \"minutes\": 2}", "invalid JSON");
}

static void test_scenario_valid_values(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    const char *text =
        "{\"irregularity\": \"call\", \"minutes\": 60, \"volume\": \"small\", \"offender\": \"S\","
        " \"lowest\": \"3NT\", \"_comment\": \"keys with _ are ignored\"}";
    if (!scenario_read_json(&sc, text, strlen(text), &err)) fail_msg("%s", err.data);
    assert_int_equal(fact_value(&sc, "irregularity"), 2);
    assert_int_equal(fact_value(&sc, "minutes"), 60);
    assert_int_equal(fact_value(&sc, "volume"), 0);
    assert_int_equal(fact_value(&sc, "offender"), 2);
    assert_false(sc.fv.known[rs_find_fact(rs, "repeated")]);
    sb_free(&err);
    scenario_free(&sc);
}

/* --------------------------------------------------------- auction facts */

static void test_auction_compact_fills_facts(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* N opens 1S, E bids 1H in turn: insufficient, E is the offender and
     * was in turn; nobody called after it; lowest sufficient heart bid 2H */
    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 30, \"repeated\": false, \"auction\": \"N: 1S "
         "1H\"}",
         &sc, &r);
    assert_true(sc.rec.has_auction);
    assert_int_equal(fact_value(&sc, "turn_was"), 0); /* offender */
    assert_int_equal(fact_value(&sc, "offender"), 1); /* E */
    assert_int_equal(fact_value(&sc, "lho_called"), 0);
    assert_trail(&r, "1,1C,3,3A");
    done(&sc, &r);
}

static void test_auction_array_fills_facts(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* W bids out of rotation when it was E's turn: E is W's partner */
    rule(
        rs,
        "{\"irregularity\": \"late\", \"minutes\": 30, \"repeated\": false, \"dealer\": \"N\","
        " \"auction\": [{\"seat\": \"N\", \"call\": \"1S\"}, {\"seat\": \"W\", \"call\": \"2H\"}]}",
        &sc, &r);
    assert_int_equal(fact_value(&sc, "turn_was"), 2); /* partner */
    assert_int_equal(fact_value(&sc, "offender"), 3); /* W */
    assert_trail(&r, "1,1C,3,3B");
    assert_int_equal(r.nactions, 2);
    assert_string_equal(action_name(&r, 1), "replace_with");
    done(&sc, &r);
}

static void test_auction_lowest_sufficient_in_message(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* S bids 1H out of rotation when it was E's turn; seen from S, E is
     * the right-hand opponent */
    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 30, \"repeated\": false, \"auction\": \"N: 1S "
         "S:1H\"}",
         &sc, &r);
    assert_int_equal(fact_value(&sc, "turn_was"), 3); /* rho */
    assert_int_equal(fact_value(&sc, "offender"), 2); /* S */
    assert_trail(&r, "1,1C,3,3C");
    done(&sc, &r);
    /* W bids 1H out of rotation when it was E's turn (W's partner); the
     * lowest sufficient heart bid over 1S is 2H */
    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 30, \"repeated\": false, \"auction\": \"N: 1S "
         "W:1H\"}",
         &sc, &r);
    assert_int_equal(fact_value(&sc, "turn_was"), 2); /* partner: E */
    assert_trail(&r, "1,1C,3,3B");
    strbuf m;
    sb_init(&m);
    output_message(rs, &r.actions[1], false, &m);
    assert_string_equal(m.data, "Vervang door 2H.");
    sb_free(&m);
    done(&sc, &r);
}

static void test_auction_conflict_with_given_fact(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(
        rs, "{\"turn_was\": \"lho\", \"auction\": \"N: 1S 1H\"}",
        "the auction settles 'turn_was' as offender, the scenario says otherwise");
    /* agreeing is fine */
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    const char *ok = "{\"turn_was\": \"offender\", \"auction\": \"N: 1S 1H\"}";
    if (!scenario_read_json(&sc, ok, strlen(ok), &err)) fail_msg("%s", err.data);
    sb_free(&err);
    scenario_free(&sc);
}

/* "corrected": the director corrects a value the record settles; the value
 * given wins, as for an overridable fact. */
static void test_corrected_record_fact_given_wins(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    const char *json =
        "{\"turn_was\": \"lho\", \"corrected\": [\"turn_was\"], \"auction\": \"N: 1S 1H\"}";
    if (!scenario_read_json(&sc, json, strlen(json), &err)) fail_msg("%s", err.data);
    assert_int_equal(fact_value(&sc, "turn_was"), 1); /* lho, not the record's offender */
    sb_free(&err);
    scenario_free(&sc);
    assert_scenario_error(rs, "{\"corrected\": \"turn_was\", \"auction\": \"N: 1S 1H\"}",
                          "\"corrected\" is a list");
    assert_scenario_error(rs, "{\"corrected\": [\"turn_wsa\"], \"auction\": \"N: 1S 1H\"}",
                          "item 1 is not a fact");
    assert_scenario_error(rs, "{\"corrected\": [\"minutes\"], \"auction\": \"N: 1S 1H\"}",
                          "'minutes' is neither filled from a record nor assumed");
}

static void test_overridable_fact_given_wins(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    /* the record says the LHO has not called; the scenario says it has */
    rule(rs, "{\"irregularity\": \"call\", \"lho_called\": true, \"auction\": \"N: 1S 1H\"}", &sc,
         &r);
    assert_int_equal(fact_value(&sc, "lho_called"), 1);
    assert_trail(&r, "9,9A");
    done(&sc, &r);
    /* without it, the record decides */
    rule(rs, "{\"irregularity\": \"call\", \"extra\": 1, \"auction\": \"N: 1S 1H\"}", &sc, &r);
    assert_int_equal(fact_value(&sc, "lho_called"), 0);
    assert_trail(&r, "9,9B");
    done(&sc, &r);
}

static void test_auction_errors(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"dealer\": \"E\", \"auction\": \"N: 1S 1H\"}",
                          "\"dealer\" disagrees");
    assert_scenario_error(rs, "{\"auction\": [{\"seat\": \"N\", \"call\": \"1S\"}]}",
                          "an auction needs \"dealer\"");
    assert_scenario_error(rs, "{\"dealer\": \"N\"}", "\"dealer\" without \"auction\"");
    assert_scenario_error(rs, "{\"auction\": \"N: 1S 2H\"}", "impossible auction");
}

/* ---------------------------------------------------------------- output */

static void test_output_json_fields(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs,
         "{\"irregularity\": \"call\", \"lho_called\": false, \"offender\": \"W\", \"extra\": 2}",
         &sc, &r);
    json_t *o = output_json(&r, &sc);
    assert_string_equal(json_string_value(json_object_get(o, "ruleset")), "evalset");
    const char *hash = json_string_value(json_object_get(o, "ruleset_hash"));
    assert_non_null(hash);
    assert_int_equal(strncmp(hash, "fnv1a64:", 8), 0);
    assert_int_equal(strlen(hash), 8 + 16);
    assert_int_equal(strspn(hash + 8, "0123456789abcdef"), 16);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "ruling");

    json_t *arts = json_object_get(o, "articles");
    assert_int_equal(json_array_size(arts), 2);
    assert_string_equal(json_string_value(json_array_get(arts, 0)), "9");
    assert_string_equal(json_string_value(json_array_get(arts, 1)), "9B");

    json_t *acts = json_object_get(o, "actions");
    assert_int_equal(json_array_size(acts), 3);
    json_t *a0 = json_array_get(acts, 0), *a1 = json_array_get(acts, 1),
           *a2 = json_array_get(acts, 2);
    assert_string_equal(json_string_value(json_object_get(a0, "name")), "must_pass");
    assert_string_equal(json_string_value(json_object_get(json_object_get(a0, "args"), "span")),
                        "rest");
    assert_string_equal(json_string_value(json_object_get(a1, "name")), "noted");
    assert_true(json_is_false(json_object_get(json_object_get(a1, "args"), "flag")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(a1, "args"), "who")),
                        "W");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(a2, "args"), "points")), 6);

    json_t *msgs = json_object_get(o, "messages");
    assert_int_equal(json_array_size(msgs), 3);
    /* an enum argument prints its label */
    assert_string_equal(json_string_value(json_array_get(msgs, 0)),
                        "De partner moet gedurende de rest van het bieden passen.");
    assert_string_equal(json_string_value(json_array_get(msgs, 2)), "Aftrek van 6 punten.");
    /* bool and seat arguments in Dutch */
    assert_string_equal(json_string_value(json_array_get(msgs, 1)), "Genoteerd: nee voor W.");
    json_t *en = json_object_get(o, "messages_en");
    assert_int_equal(json_array_size(en), 3);
    /* the English text with the English label */
    assert_string_equal(json_string_value(json_array_get(en, 0)),
                        "Partner must pass for the rest of the auction.");
    assert_string_equal(json_string_value(json_array_get(en, 2)), "A deduction of 6 points.");
    /* the clause that names each action */
    assert_string_equal(json_string_value(json_object_get(a0, "article")), "9B");
    json_decref(o);
    done(&sc, &r);
}

static void test_output_json_cite_argument_and_path(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    json_t *o = output_json(&r, &sc);
    json_t *acts = json_object_get(o, "actions");
    json_t *see = json_array_get(acts, 1);
    assert_string_equal(json_string_value(json_object_get(see, "name")), "see");
    assert_string_equal(json_string_value(json_object_get(json_object_get(see, "args"), "article")),
                        "3");
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "messages"), 0)),
                        "Aftrek van 41 punten.");
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "messages"), 1)),
                        "Zie artikel 3.");
    json_t *path = json_object_get(o, "decided_by");
    assert_int_equal(json_array_size(path), 3);
    json_t *p0 = json_array_get(path, 0), *p1 = json_array_get(path, 1),
           *p2 = json_array_get(path, 2);
    assert_string_equal(json_string_value(json_object_get(p0, "fact")), "irregularity");
    assert_string_equal(json_string_value(json_object_get(p0, "value")), "late");
    assert_string_equal(json_string_value(json_object_get(p0, "source")), "given");
    assert_int_equal(json_integer_value(json_object_get(p1, "value")), 20);
    assert_true(json_is_true(json_object_get(p2, "value")));
    json_decref(o);
    done(&sc, &r);
}

static void test_output_json_needs_and_auction_source(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\"}", &sc, &r);
    json_t *o = output_json(&r, &sc);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "needs");
    assert_string_equal(json_string_value(json_object_get(o, "needs")), "minutes");
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "minutes"));
    assert_int_equal(json_array_size(json_object_get(o, "articles")), 0);
    assert_int_equal(json_array_size(json_object_get(o, "actions")), 0);
    json_decref(o);
    done(&sc, &r);

    rule(rs,
         "{\"irregularity\": \"late\", \"minutes\": 30, \"repeated\": false, \"auction\": \"N: 1S "
         "1H\"}",
         &sc, &r);
    o = output_json(&r, &sc);
    json_t *path = json_object_get(o, "decided_by");
    json_t *last = json_array_get(path, json_array_size(path) - 1);
    assert_string_equal(json_string_value(json_object_get(last, "fact")), "turn_was");
    assert_string_equal(json_string_value(json_object_get(last, "source")), "auction");
    json_decref(o);
    done(&sc, &r);
}

static void test_hash_follows_file_names_and_contents(void **state) {
    const ruleset *rs = *state;
    ruleset *same = compile_text(RULES);
    ruleset *other = compile_text(RULES "# one more comment\n");
    char h1[32], h2[32], h3[32];
    output_hash(rs, h1);
    output_hash(same, h2);
    output_hash(other, h3);
    assert_string_equal(h1, h2); /* another directory, the same files */
    assert_string_not_equal(h1, h3);
    ruleset_free(same);
    ruleset_free(other);
}

/* ----------------------------------------------------------------- batch */

static json_t *line_json(const char *text, int i) {
    const char *p = text;
    for (int k = 0; k < i; k++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    const char *e = strchr(p, '\n');
    json_error_t je;
    json_t *j = json_loadb(p, e ? (size_t)(e - p) : strlen(p), 0, &je);
    if (!j) fail_msg("output line %d is not JSON: %s", i + 1, je.text);
    return j;
}

static void test_batch_with_bad_line_in_the_middle(void **state) {
    const ruleset *rs = *state;
    const char *in = "{\"irregularity\": \"late\", \"minutes\": 5}\n"
                     "{\"irregularity\": \"late\", \"minutes\": }\n"
                     "\n"
                     "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}\n";
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    enum arb_status st = arb_rule_batch(rs, in, strlen(in), mem);
    fclose(mem);
    assert_int_equal(st, ARB_BAD_INPUT);
    int lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3); /* the blank line is no scenario */

    json_t *a = line_json(out, 0), *b = line_json(out, 1), *c = line_json(out, 2);
    assert_int_equal(json_integer_value(json_object_get(a, "line")), 1);
    assert_string_equal(json_string_value(json_object_get(a, "status")), "ruling");
    assert_string_equal(json_string_value(json_array_get(json_object_get(a, "articles"), 1)), "1A");
    assert_int_equal(json_integer_value(json_object_get(b, "line")), 2);
    assert_string_equal(json_string_value(json_object_get(b, "status")), "bad_input");
    assert_non_null(strstr(json_string_value(json_object_get(b, "error")), "invalid JSON"));
    assert_int_equal(json_integer_value(json_object_get(c, "line")), 4);
    assert_string_equal(json_string_value(json_object_get(c, "status")), "ruling");
    assert_string_equal(json_string_value(json_array_get(json_object_get(c, "articles"), 1)), "1B");
    json_decref(a);
    json_decref(b);
    json_decref(c);
    free(out);
}

static void test_batch_statuses(void **state) {
    const ruleset *rs = *state;
    char *out = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&out, &len);
    const char *good = "{\"irregularity\": \"late\", \"minutes\": 5}\n{\"irregularity\": \"late\", "
                       "\"minutes\": 6}";
    assert_int_equal(arb_rule_batch(rs, good, strlen(good), mem), ARB_OK);
    const char *needs = "{\"irregularity\": \"late\"}\n";
    assert_int_equal(arb_rule_batch(rs, needs, strlen(needs), mem), ARB_BAD_INPUT);
    fclose(mem);
    free(out);
    char *json = NULL;
    const char *one =
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"small\", \"repeated\": false}";
    assert_int_equal(arb_rule_json(rs, one, strlen(one), &json), ARB_OK);
    json_error_t je;
    json_t *j = json_loads(json, 0, &je);
    assert_non_null(j);
    assert_null(json_object_get(j, "line"));
    assert_string_equal(json_string_value(json_array_get(json_object_get(j, "articles"), 1)), "2A");
    json_decref(j);
    free(json);
}

static void test_rule_json_gap_is_no_ruling(void **state) {
    (void)state;
    ruleset *rs =
        compile_text("ruleset \"gap\" { }\nfact a : bool\n  ask \"a?\"\naction w text \"w\"\n"
                     "article 1 when true { if a => 1A { w } }\n");
    char *json = NULL;
    const char *in = "{\"a\": false}";
    assert_int_equal(arb_rule_json(rs, in, strlen(in), &json), ARB_NO_RULING);
    json_t *j = json_loads(json, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "status")), "gap");
    json_decref(j);
    free(json);
    ruleset_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trail_article_then_clause),
        cmocka_unit_test(test_trail_through_apply),
        cmocka_unit_test(test_trail_of_other_apply_arm),
        cmocka_unit_test(test_arithmetic_arguments),
        cmocka_unit_test(test_table_min_max_abs_arguments),
        cmocka_unit_test(test_argument_needs_a_fact_the_graph_does_not_test),
        cmocka_unit_test(test_argument_overflow_is_an_error),
        cmocka_unit_test(test_batch_rules_like_one_at_a_time),
        cmocka_unit_test(test_rule_again_is_rule_afresh),
        cmocka_unit_test(test_batch_stops_where_arguments_do_not_fit),
        cmocka_unit_test(test_batch_packed_rows_rule_alike),
        cmocka_unit_test(test_derived_fact_on_untestable_numbers_is_computed),
        cmocka_unit_test(test_batch_packed_rows_in_long_runs),
        cmocka_unit_test(test_batch_packed_rows_many_known_sets),
        cmocka_unit_test(test_batch_packed_rows_on_bridge_2017),
        cmocka_unit_test(test_batch_packed_rows_in_protected_call),
        cmocka_unit_test(test_batch_packed_rows_past_the_keys_a_row_holds),
        cmocka_unit_test(test_batch_packed_rows_past_the_facts_a_row_holds),
        cmocka_unit_test(test_needs_first_fact_in_order),
        cmocka_unit_test(test_irrelevant_facts_are_never_needed),
        cmocka_unit_test(test_facts_given_but_irrelevant_are_not_in_path),
        cmocka_unit_test(test_path_names_the_facts_that_decided),
        cmocka_unit_test(test_path_names_the_facts_an_argument_reads),
        cmocka_unit_test(test_rejected_by_invariant),
        cmocka_unit_test(test_invariant_settled_by_given_facts),
        cmocka_unit_test(test_fact_needed_only_by_invariant_is_not_asked),
        cmocka_unit_test(test_group_without_citation_adds_nothing_to_trail),
        cmocka_unit_test(test_several_articles_in_file_order),
        cmocka_unit_test(test_articles_of_several_files_in_name_order),
        cmocka_unit_test(test_gap_when_no_article_applies),
        cmocka_unit_test(test_scenario_unknown_fact_with_hint),
        cmocka_unit_test(test_scenario_wrong_type),
        cmocka_unit_test(test_scenario_int_out_of_range),
        cmocka_unit_test(test_scenario_enum_value_not_listed),
        cmocka_unit_test(test_scenario_derived_fact_given),
        cmocka_unit_test(test_scenario_bad_json),
        cmocka_unit_test(test_scenario_valid_values),
        cmocka_unit_test(test_auction_compact_fills_facts),
        cmocka_unit_test(test_auction_array_fills_facts),
        cmocka_unit_test(test_auction_lowest_sufficient_in_message),
        cmocka_unit_test(test_auction_conflict_with_given_fact),
        cmocka_unit_test(test_corrected_record_fact_given_wins),
        cmocka_unit_test(test_overridable_fact_given_wins),
        cmocka_unit_test(test_auction_errors),
        cmocka_unit_test(test_output_json_fields),
        cmocka_unit_test(test_output_json_cite_argument_and_path),
        cmocka_unit_test(test_output_json_needs_and_auction_source),
        cmocka_unit_test(test_hash_follows_file_names_and_contents),
        cmocka_unit_test(test_batch_with_bad_line_in_the_middle),
        cmocka_unit_test(test_batch_statuses),
        cmocka_unit_test(test_rule_json_gap_is_no_ruling),
        cmocka_unit_test(test_invariant_settled_by_right_operand),
        cmocka_unit_test(test_invariant_broken_by_every_value_but_not_settled),
        cmocka_unit_test(test_unknown_fact_made_irrelevant_by_later_fact),
        cmocka_unit_test(test_calls_compare_by_rank),
    };
    return cmocka_run_group_tests_name("eval", tests, group_setup, group_teardown);
}
