/* eval.c — the evaluator: a loop of dependent loads down the graph. */
#include "eval.h"

#include "ops.h"

#include <stdlib.h>
#include <string.h>

/* Steps spent proving that a missing fact cannot matter before asking it
 * anyway: far above what real rulesets need, and a bound on pathological
 * graphs. */
#define EVAL_ALIKE_BUDGET 100000L

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) abort();
    return p;
}

void ruling_clear(ruling *r) {
    for (int i = 0; i < r->nextra; i++) {
        ruling_extra *e = &r->extra[i];
        free(e->name), free(e->cite), free(e->message), free(e->message_en), free(e->args);
    }
    free(r->extra);
    for (int i = 0; i < r->nextra_cites; i++) free(r->extra_cites[i]);
    free(r->extra_cites);
    for (int i = 0; i < r->nnotes; i++) free(r->notes[i].plugin), free(r->notes[i].cite), free(r->notes[i].what);
    free(r->notes);
    /* the path, the actions and their arguments are one block (eval_rule) */
    free(r->path_value);
    memset(r, 0, sizeof *r);
}

const char *eval_clause_cite(const ruleset *rs, int clause) {
    return rs->clauses[clause].cite;
}

/* Whether two subgraphs rule alike in every situation that agrees with the
 * known facts. Graphs are ordered, so both are walked together; depth is
 * bounded by the number of facts. */
static bool alike(const ruleset *rs, gref a, gref b, const fact_values *fv, long *budget) {
    const graph *g = rs->graph;
    if (a == b) return true;
    if (--*budget < 0) return false; /* past the budget, assume it matters: ask */
    if (GRAPH_IS_TERM(a) && GRAPH_IS_TERM(b)) return false; /* terminals are interned */
    int va = GRAPH_IS_TERM(a) ? g->nvars : g->nodes[a].var, vb = GRAPH_IS_TERM(b) ? g->nvars : g->nodes[b].var;
    int var = va < vb ? va : vb, f = rs->var_fact[var];
    for (int i = 0; i < g->domain[var]; i++) {
        if (fv->known[f] && fv->value[f] - g->lo[var] != i) continue;
        gref ca = va == var ? graph_kid(g, &g->nodes[a], i) : a, cb = vb == var ? graph_kid(g, &g->nodes[b], i) : b;
        if (!alike(rs, ca, cb, fv, budget)) return false;
    }
    return true;
}

static int broken_invariant(const ruleset *rs, const fact_values *fv);

/* Whether value i of a missing fact is possible: no invariant is broken by
 * the known facts together with it. */
static bool possible(const ruleset *rs, int f, int64_t v, const fact_values *fv) {
    fact_values *w = (fact_values *)fv; /* restored below: the caller's values are not changed */
    int64_t old = w->value[f];
    w->value[f] = v;
    w->known[f] = true;
    bool ok = broken_invariant(rs, w) < 0;
    w->known[f] = false;
    w->value[f] = old;
    return ok;
}

/* A fact is needed when its value can change the ruling, given the facts
 * that are known — even those the graph tests only further down — among
 * the values the invariants leave possible. */
static bool needed(const ruleset *rs, const graph_node *nd, const fact_values *fv) {
    const graph *g = rs->graph;
    int f = rs->var_fact[nd->var], first = -1;
    long budget = EVAL_ALIKE_BUDGET;
    for (int i = 0; i < g->domain[nd->var]; i++) {
        if (!possible(rs, f, g->lo[nd->var] + i, fv)) continue;
        if (first < 0) first = i;
        else if (!alike(rs, graph_kid(g, nd, first), graph_kid(g, nd, i), fv, &budget)) return true;
    }
    return false;
}

/* The child to follow past a fact that is not needed: one of a possible value. */
static int some_possible(const ruleset *rs, const graph_node *nd, const fact_values *fv) {
    const graph *g = rs->graph;
    for (int i = 0; i < g->domain[nd->var]; i++)
        if (possible(rs, rs->var_fact[nd->var], g->lo[nd->var] + i, fv)) return i;
    return 0;
}

/* Walks the graph; stops at a terminal or at a fact that is not known and
 * matters. The facts tested go to path_fact/path_value (out->npath). */
static graph_term walk(const ruleset *rs, gref r, const fact_values *fv, ruling *out, int *path_fact,
                       int64_t *path_value) {
    const graph *g = rs->graph;
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        int f = rs->var_fact[nd->var];
        if (!fv->known[f] && !needed(rs, nd, fv)) {
            r = graph_kid(g, nd, some_possible(rs, nd, fv));
            continue;
        }
        if (!fv->known[f]) {
            out->status = RULING_NEEDS;
            out->fact = f;
            return (graph_term){-1, 0};
        }
        int64_t i = fv->value[f] - g->lo[nd->var];
        if (i < 0 || i >= g->domain[nd->var]) { /* the scenario reader validates values; be safe */
            out->status = RULING_ERROR;
            out->error = EXPR_NO_ROW;
            return (graph_term){-1, 0};
        }
        path_fact[out->npath] = f;
        path_value[out->npath++] = fv->value[f];
        r = graph_kid(g, nd, i);
    }
    return *graph_term_at(g, r);
}

/* Fills out->actions (room for o->nactions of them, made by eval_rule) and
 * their arguments (args: room for every parameter, in order). */
static void eval_actions(const ruleset *rs, const fact_values *fv, ruling *out, int64_t *args) {
    const rs_outcome *o = rs_outcome_at(rs, out->outcome);
    for (int i = 0; i < o->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, o->actions[i]);
        const rs_action *a = &rs->actions[u->action];
        ruling_action *ra = &out->actions[out->nactions++];
        ra->use = o->actions[i];
        ra->args = args;
        args += a->nparams;
        for (int p = 0; p < a->nparams; p++) {
            int missing = -1;
            enum expr_status s = expr_eval(rs, rs_arg(rs, u->args + p), fv, &ra->args[p], &missing);
            if (s == EXPR_UNKNOWN) {
                out->status = RULING_NEEDS;
                out->fact = missing;
                return;
            }
            if (s != EXPR_OK) {
                out->status = RULING_ERROR;
                out->error = s;
                return;
            }
        }
    }
}

/* Whether the premise of invariant e (`P implies Q`) may be settled true by
 * the known facts. An implication is broken only when its premise is
 * settled true, and a premise `A and B and …` only when each conjunct is:
 * when the first conjunct is a comparison of an input fact with a constant
 * (`irregularity == revoke`, `x != y`, `x in {…}`), a fact not known or a
 * value that does not satisfy it settles that the invariant is not broken,
 * without evaluating the rest. Anything else may hold. */
static bool premise_may_hold(const ruleset *rs, int e, const fact_values *fv) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (x->kind != EX_BINARY || x->op != OP_IMPLIES) return true;
    x = rs_expr_at(rs, x->a);
    while (x->kind == EX_BINARY && x->op == OP_AND) x = rs_expr_at(rs, x->a);
    if (x->kind == EX_BINARY && (x->op == OP_EQ || x->op == OP_NE)) {
        const rs_expr *f = rs_expr_at(rs, x->a), *k = rs_expr_at(rs, x->b);
        if (f->kind != EX_FACT || k->kind != EX_CONST || rs->facts[f->a].derived >= 0) return true;
        return fv->known[f->a] && (fv->value[f->a] == k->k) == (x->op == OP_EQ);
    }
    if (x->kind == EX_IN) {
        const rs_expr *f = rs_expr_at(rs, x->a);
        if (f->kind != EX_FACT || rs->facts[f->a].derived >= 0) return true;
        if (!fv->known[f->a]) return false;
        for (int i = 0; i < x->nargs; i++)
            if (rs_expr_at(rs, rs_arg(rs, x->args + i))->k == fv->value[f->a]) return true;
        return false;
    }
    return true;
}

/* An invariant is checked as far as the known facts settle it: a director
 * is never asked a question only to prove a situation possible. */
static int broken_invariant(const ruleset *rs, const fact_values *fv) {
    for (int i = 0; i < rs->ninvariants; i++) {
        int64_t holds;
        int missing;
        if (!premise_may_hold(rs, rs->invariants[i].expr, fv)) continue;
        if (expr_eval(rs, rs->invariants[i].expr, fv, &holds, &missing) == EXPR_OK && !holds) return i;
    }
    return -1;
}

/* Paths up to this many facts are walked into the stack; eval_rule then
 * makes one block for the path, the actions and their arguments. */
#define PATH_ON_STACK 256

void eval_rule(const ruleset *rs, gref root, const fact_values *fv, ruling *out) {
    memset(out, 0, sizeof *out);
    out->rs = rs;
    int fact_stack[PATH_ON_STACK];
    int64_t value_stack[PATH_ON_STACK];
    size_t cap = (size_t)rs->nvars + 1;
    int *path_fact = cap <= PATH_ON_STACK ? fact_stack : xcalloc(cap, sizeof(int));
    int64_t *path_value = cap <= PATH_ON_STACK ? value_stack : xcalloc(cap, sizeof(int64_t));
    graph_term t = {-1, 0};
    int broken = broken_invariant(rs, fv);
    if (broken >= 0) {
        out->status = RULING_REJECTED;
        out->invariant = broken;
    } else {
        t = walk(rs, root, fv, out, path_fact, path_value);
    }
    /* One block: the path's values, the actions' arguments, the actions,
     * the path's facts (in that order, for alignment); ruling_clear frees it
     * through path_value. */
    const rs_outcome *o = t.kind == TERM_OUTCOME ? rs_outcome_at(rs, t.v) : NULL;
    size_t nargs = 0, nact = o ? (size_t)o->nactions : 0, npath = (size_t)out->npath;
    for (size_t i = 0; i < nact; i++) nargs += (size_t)rs->actions[rs_use_at(rs, o->actions[i])->action].nparams;
    char *block = xcalloc(1, (npath + nargs) * sizeof(int64_t) + nact * sizeof(ruling_action) + npath * sizeof(int));
    out->path_value = (int64_t *)block;
    int64_t *args = out->path_value + npath;
    out->actions = (ruling_action *)(args + nargs);
    out->path_fact = (int *)(out->actions + nact);
    memcpy(out->path_value, path_value, npath * sizeof(int64_t));
    memcpy(out->path_fact, path_fact, npath * sizeof(int));
    if (path_fact != fact_stack) free(path_fact);
    if (path_value != value_stack) free(path_value);
    if (broken >= 0) return;
    switch (t.kind) {
    case TERM_OUTCOME:
        out->status = RULING_OK;
        out->outcome = (int)t.v;
        eval_actions(rs, fv, out, args);
        break;
    case TERM_REJECT: out->status = RULING_REJECTED; out->invariant = (int)t.v; break;
    case TERM_GAP: out->status = RULING_GAP; out->block = (int)t.v; break;
    case TERM_ERROR: out->status = RULING_ERROR; out->error = (enum expr_status)t.v; break;
    case TERM_NOT_APPLICABLE: out->status = RULING_GAP; out->block = -1; break;
    case TERM_OUTSIDE: out->status = RULING_OUTSIDE; out->outside = (int)t.v; break;
    default: break; /* status already set by walk */
    }
}
