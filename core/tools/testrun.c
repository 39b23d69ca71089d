/* testrun.c — `given … expect …` blocks. */
#include "testrun.h"

#include "eval.h"
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

/* Longer trails than a test can expect are compared as different. */
#define RS_MAX_TRAIL_SHOWN 256

static bool trail_has(const ruleset *rs, const ruling *r, const char *cite) {
    const rs_outcome *o = rs_outcome_at(rs, r->outcome);
    for (int i = 0; i < o->ntrail; i++) {
        const char *c = rs->clauses[o->trail[i]].cite;
        if (c && strcmp(c, cite) == 0) return true;
    }
    return false;
}

static bool trail_is(const ruleset *rs, const ruling *r, const rs_expect *x) {
    (void)rs;
    const char *trail[RS_MAX_TRAIL_SHOWN];
    int n = ruling_trail(r, trail, RS_MAX_TRAIL_SHOWN); /* as the ruling shows it */
    bool same = n == x->ntrail && n <= RS_MAX_TRAIL_SHOWN;
    for (int i = 0; same && i < n; i++)
        same = strcmp(trail[i], x->trail[i]) == 0;
    return same;
}

static bool has_action(const ruleset *rs, const ruling *r, const rs_expect *x) {
    for (int i = 0; i < r->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, r->actions[i].use);
        if (u->action != x->action) continue;
        if (!x->has_args) return true;
        int n = rs->actions[u->action].nparams;
        if (n == 0 || memcmp(r->actions[i].args, x->args, sizeof(int64_t) * (size_t)n) == 0)
            return true;
    }
    return false;
}

static void describe_ruling(const ruling *r, strbuf *out) {
    if (r->status != RULING_OK) {
        ruling_problem(r, out);
        return;
    }
    const char *trail[RS_MAX_TRAIL_SHOWN];
    int n = ruling_trail(r, trail, RS_MAX_TRAIL_SHOWN);
    sb_puts(out, "trail [");
    for (int i = 0; i < n && i < RS_MAX_TRAIL_SHOWN; i++)
        sb_printf(out, "%s\"%s\"", i ? "," : "", trail[i]);
    sb_printf(out, "%s]; actions:", n > RS_MAX_TRAIL_SHOWN ? ",…" : "");
    for (int i = 0; i < r->nactions; i++) {
        const rs_action_use *u = rs_use_at(r->rs, r->actions[i].use);
        const rs_action *a = &r->rs->actions[u->action];
        sb_printf(out, " %s", a->name);
        for (int p = 0; p < a->nparams; p++) {
            sb_puts(out, p ? ", " : "(");
            rs_format_value(r->rs, a->params[p].type, r->actions[i].args[p], FMT_NAME, out);
        }
        if (a->nparams) sb_putc(out, ')');
    }
}

/* Checks one expectation; on failure says what was expected. */
static bool expectation_holds(const ruleset *rs, const ruling *r, const rs_expect *x,
                              bool record_failed, strbuf *why) {
    bool holds;
    switch (x->kind) {
    case EXP_REJECTED:
        holds = record_failed || r->status == RULING_REJECTED;
        if (!holds) sb_puts(why, "expected the situation to be rejected");
        return holds != x->negated;
    case EXP_OUTSIDE:
        holds = r->status == RULING_OUTSIDE;
        if (holds == x->negated)
            sb_printf(why, "expected the situation %sto be outside the ruleset's scope",
                      x->negated ? "not " : "");
        return holds != x->negated;
    case EXP_ASKS:
        holds = r->status == RULING_NEEDS && r->fact == x->fact;
        if (holds == x->negated)
            sb_printf(why, "expected %sthe question for '%s'", x->negated ? "not " : "",
                      rs->facts[x->fact].name);
        return holds != x->negated;
    default:
        break;
    }
    if (r->status != RULING_OK) {
        sb_puts(why, "expected a ruling");
        return false;
    }
    switch (x->kind) {
    case EXP_CITE:
        holds = trail_has(rs, r, x->cite);
        break;
    case EXP_TRAIL:
        holds = trail_is(rs, r, x);
        break;
    default:
        holds = has_action(rs, r, x);
        break;
    }
    if (holds == x->negated) {
        const char *what = x->kind == EXP_CITE    ? x->cite
                           : x->kind == EXP_TRAIL ? "this exact trail"
                                                  : rs->actions[x->action].name;
        sb_printf(why, "expected %s%s", x->negated ? "no " : "", what);
    }
    return holds != x->negated;
}

static bool run_one(const ruleset *rs, const scenario_hooks *hooks, const rs_test *t, FILE *out,
                    bool verbose, char *covered) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    for (int i = 0; i < t->ngiven; i++)
        scenario_give(&sc, t->given_fact[i], t->given_value[i]);
    strbuf err, why;
    sb_init(&err);
    sb_init(&why);
    bool record_failed = false;
    if (t->auction) {
        bridge_auction a;
        char msg[200];
        if (!bridge_parse_auction(t->auction, &a, msg, sizeof msg)) {
            sb_puts(&err, msg);
            record_failed = true;
        } else if (!scenario_set_auction(&sc, &a, &err)) {
            record_failed = true;
        }
    }
    ruling r;
    if (!scenario_rule(rs, t->article >= 0 ? rs->articles[t->article].root : rs->root, &sc, &r,
                       &err))
        record_failed = true; /* a plugin refused or failed: the message is in err */
    if (record_failed) r.status = RULING_REJECTED;
    bool ok = true;
    for (int i = 0; i < t->nexpect && ok; i++) {
        ok = expectation_holds(rs, &r, &t->expect[i], record_failed, &why);
        if (!ok) {
            strbuf got;
            sb_init(&got);
            if (record_failed)
                sb_printf(&got, "%s", err.data);
            else
                describe_ruling(&r, &got);
            fprintf(out, "%s:%d:%d: FAIL \"%s\": %s\n    got: %s\n", t->loc.file,
                    t->expect[i].loc.line, t->expect[i].loc.col, t->name, why.data,
                    got.data ? got.data : "");
            sb_free(&got);
        }
    }
    if (ok && verbose) fprintf(out, "ok   %s\n", t->name);
    if (r.status == RULING_OK && covered) {
        const rs_outcome *o = rs_outcome_at(rs, r.outcome);
        for (int i = 0; i < o->ntrail; i++)
            covered[o->trail[i]] = 1;
    }
    ruling_clear(&r);
    sb_free(&err);
    sb_free(&why);
    scenario_free(&sc);
    return ok;
}

test_totals testrun_all(const ruleset *rs, const scenario_hooks *hooks, FILE *out, bool verbose,
                        bool coverage) {
    test_totals tt = {0, 0, 0, 0};
    char *covered = xcalloc((size_t)rs->nclauses + 1, 1);
    const rs_test *tests;
    int ntests = rs_tests(rs, &tests);
    for (int i = 0; i < ntests; i++) {
        if (run_one(rs, hooks, &tests[i], out, verbose, covered))
            tt.passed++;
        else
            tt.failed++;
    }
    for (int i = 0; i < rs->nclauses; i++) {
        const rs_clause *cl = &rs->clauses[i];
        if (!cl->cite || cl->is_article) continue;
        tt.clauses++;
        if (covered[i]) continue;
        tt.uncovered++;
        if (coverage)
            fprintf(out, "%s:%d:%d: no test reaches clause %s\n", cl->loc.file, cl->loc.line,
                    cl->loc.col, cl->cite);
    }
    xfree(covered);
    return tt;
}
