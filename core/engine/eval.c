/* eval.c — the evaluator: a loop of dependent loads down the graph. */
#include "eval.h"

#include "ops.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Steps spent proving that a missing fact cannot matter before asking it
 * anyway: far above what real rulesets need, and a bound on pathological
 * graphs. */
#define EVAL_ALIKE_BUDGET 100000L
/* Most invariant searches end within a few hundred steps (a valid situation
 * with every fact known is one path); past this one, the search starts
 * again with a flag per node (all_may_hold). */
#define EVAL_SHORT_SEARCH 1000L

void ruling_reset(ruling *r) {
    for (int i = 0; i < r->nextra; i++) {
        ruling_extra *e = &r->extra[i];
        xfree(e->name), xfree(e->cite), xfree(e->message), xfree(e->message_en), xfree(e->args);
    }
    xfree(r->extra);
    for (int i = 0; i < r->nextra_cites; i++)
        xfree(r->extra_cites[i]);
    xfree(r->extra_cites);
    for (int i = 0; i < r->nnotes; i++)
        xfree(r->notes[i].plugin), xfree(r->notes[i].cite), xfree(r->notes[i].what);
    xfree(r->notes);
    /* the path, the actions and their arguments are one block (eval_rule) */
    int64_t *block = r->path_value;
    size_t size = r->block_size;
    memset(r, 0, sizeof *r);
    r->path_value = block;
    r->block_size = size;
}

void ruling_clear(ruling *r) {
    ruling_reset(r);
    xfree(r->path_value);
    memset(r, 0, sizeof *r);
}

const char *eval_clause_cite(const ruleset *rs, int clause) {
    return rs->clauses[clause].cite;
}

enum expr_status eval_tested_value(const ruleset *rs, int f, const fact_values *fv, int64_t *v,
                                   int *missing) {
    if (fv->known[f]) {
        *v = fv->value[f];
        return EXPR_OK;
    }
    *missing = f;
    if (rs->facts[f].derived < 0) return EXPR_UNKNOWN;
    return expr_eval(rs, rs->facts[f].derived, fv, v, missing);
}

/* Whether two subgraphs rule alike in every situation that agrees with the
 * known facts. Graphs are ordered, so both are walked together; depth is
 * bounded by the number of facts. */
static bool alike(const ruleset *rs, gref a, gref b, const fact_values *fv, long *budget) {
    const graph *g = rs->graph;
    for (;;) { /* a known fact's one child, and an unknown fact's last, without a call */
        if (a == b) return true;
        if (--*budget < 0) return false; /* past the budget, assume it matters: ask */
        if (GRAPH_IS_TERM(a) && GRAPH_IS_TERM(b)) return false; /* terminals are interned */
        int va = GRAPH_IS_TERM(a) ? g->nvars : g->nodes[a].var,
            vb = GRAPH_IS_TERM(b) ? g->nvars : g->nodes[b].var;
        int var = va < vb ? va : vb, f = rs->var_fact[var], missing = -1, last = g->domain[var] - 1;
        int64_t v = fv->value[f]; /* a known value without a call, as in walk */
        if (fv->known[f] || eval_tested_value(rs, f, fv, &v, &missing) == EXPR_OK) {
            v -= g->lo[var];
            if (v < 0 || v > last) return true; /* no value of the domain: nothing differs */
            last = (int)v;
        } else {
            for (int i = 0; i < last; i++)
                if (!alike(rs, va == var ? graph_kid(g, &g->nodes[a], i) : a,
                           vb == var ? graph_kid(g, &g->nodes[b], i) : b, fv, budget))
                    return false;
        }
        if (va == var) a = graph_kid(g, &g->nodes[a], last);
        if (vb == var) b = graph_kid(g, &g->nodes[b], last);
    }
}

/* Whether value i of a missing fact is possible: no invariant is broken by
 * the known facts together with it. */
static bool possible(const ruleset *rs, int f, int64_t v, const fact_values *fv) {
    fact_values *w = (fact_values *)fv; /* restored below: the caller's values are not changed */
    int64_t old = w->value[f];
    w->value[f] = v;
    w->known[f] = true;
    bool ok = eval_broken_invariant(rs, w) < 0;
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
        if (first < 0)
            first = i;
        else if (!alike(rs, graph_kid(g, nd, first), graph_kid(g, nd, i), fv, &budget))
            return true;
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

/* Steps facts_that_decided spends on a ruling, at most: past them a fact
 * not yet shown to change nothing counts as deciding (the benchmark's
 * batch of bridge-2017 takes under fifty a ruling). */
#define DECIDED_BUDGET 2000L

/* Path entries walked at most for facts_that_decided; a longer path keeps
 * every fact it tested. */
#define PATH_CHECKED 256

/* Leaves in path_fact/path_value[0..*npath) the facts that decided the
 * walk's terminal t: a fact decided it when another of its values, the
 * other facts as they are, can lead elsewhere. The graph tests a fact
 * where some situation needs it, not only where this one does: an
 * established revoke's path tests the count of penalty cards that only a
 * revoke of a penalty card needs. node[k], kid[k]: where entry k was
 * tested, and the child its value took. */
static void facts_that_decided(const ruleset *rs, const fact_values *fv, gref t, const gref *node,
                               const int *kid, int *path_fact, int64_t *path_value, int *npath) {
    const graph *g = rs->graph;
    long budget = DECIDED_BUDGET;
    int kept = 0;
    for (int k = 0; k < *npath; k++) {
        const graph_node *nd = &g->nodes[node[k]];
        bool decided = false; /* another value's child does not always lead to t */
        for (int j = 0; j < g->domain[nd->var] && !decided; j++)
            decided = j != kid[k] && !alike(rs, graph_kid(g, nd, j), t, fv, &budget);
        if (!decided) continue;
        path_fact[kept] = path_fact[k];
        path_value[kept++] = path_value[k];
    }
    *npath = kept;
}

/* Walks the graph; stops at a terminal or at a fact that is not known and
 * matters (out->status is then set). Unless path_fact is NULL, the known
 * facts tested go to path_fact/path_value (*npath of them); with grounds,
 * where the walk ends at a terminal, only those that decided it
 * (facts_that_decided). */
static graph_term walk(const ruleset *rs, gref r, const fact_values *fv, ruling_brief *out,
                       int *path_fact, int64_t *path_value, int *npath, bool grounds) {
    const graph *g = rs->graph;
    gref node[PATH_CHECKED];
    int kid[PATH_CHECKED], first = npath ? *npath : 0;
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        int f = rs->var_fact[nd->var], missing = f;
        int64_t value = fv->value[f];
        /* a known value without a call (the walk's every level); a computed
         * fact's through eval_tested_value */
        enum expr_status s =
            fv->known[f] ? EXPR_OK : eval_tested_value(rs, f, fv, &value, &missing);
        if (s == EXPR_UNKNOWN) { /* missing: the input fact to ask, for a computed one too */
            if (needed(rs, nd, fv)) {
                out->status = RULING_NEEDS;
                out->detail = missing;
                return (graph_term){-1, 0};
            }
            r = graph_kid(g, nd, some_possible(rs, nd, fv));
            continue;
        }
        if (s != EXPR_OK) {
            out->status = RULING_ERROR;
            out->detail = s;
            return (graph_term){-1, 0};
        }
        int64_t i = value - g->lo[nd->var];
        if (i < 0 || i >= g->domain[nd->var]) { /* the scenario reader validates values; be safe */
            out->status = RULING_ERROR;
            out->detail = EXPR_NO_ROW;
            return (graph_term){-1, 0};
        }
        if (path_fact) {
            if (grounds && *npath - first < PATH_CHECKED)
                node[*npath - first] = r, kid[*npath - first] = (int)i;
            path_fact[*npath] = f;
            path_value[(*npath)++] = value;
        }
        r = graph_kid(g, nd, i);
    }
    if (path_fact && grounds && *npath - first <= PATH_CHECKED) {
        int n = *npath - first;
        facts_that_decided(rs, fv, r, node, kid, path_fact + first, path_value + first, &n);
        *npath = first + n;
    }
    return *graph_term_at(g, r);
}

/* The number of arguments the actions of an outcome take, in all. */
static int outcome_nargs(const ruleset *rs, const rs_outcome *o) {
    int n = 0;
    for (int i = 0; i < o->nactions; i++)
        n += rs->actions[rs_use_at(rs, o->actions[i])->action].nparams;
    return n;
}

/* Evaluates the arguments of every action of out->detail's outcome, in
 * order, into args; a fact not known or an error changes out's status and
 * stops there. Returns the number of actions reached (the one that
 * stopped included). */
static int eval_args(const ruleset *rs, const fact_values *fv, ruling_brief *out, int64_t *args) {
    const rs_outcome *o = rs_outcome_at(rs, out->detail);
    for (int i = 0; i < o->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, o->actions[i]);
        for (int p = 0; p < rs->actions[u->action].nparams; p++) {
            const rs_expr *x = rs_expr_at(rs, rs_arg(rs, u->args + p));
            if (x->kind == EX_CONST) { /* most arguments: a citation, a number */
                *args++ = x->k;
                continue;
            }
            int missing = -1;
            enum expr_status s = expr_eval(rs, rs_arg(rs, u->args + p), fv, args++, &missing);
            if (s == EXPR_OK) continue;
            out->status = s == EXPR_UNKNOWN ? RULING_NEEDS : RULING_ERROR;
            out->detail = s == EXPR_UNKNOWN ? missing : (int)s;
            return i + 1;
        }
    }
    return o->nactions;
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
    while (x->kind == EX_BINARY && x->op == OP_AND)
        x = rs_expr_at(rs, x->a);
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
static int broken_by_expressions(const ruleset *rs, const fact_values *fv) {
    for (int i = 0; i < rs->ninvariants; i++) {
        int64_t holds;
        int missing;
        if (!premise_may_hold(rs, rs->invariants[i].expr, fv)) continue;
        if (expr_eval(rs, rs->invariants[i].expr, fv, &holds, &missing) == EXPR_OK && !holds)
            return i;
    }
    return -1;
}

/* Whether some values of the facts that are not known make every
 * invariant hold: a depth-first search of the invariants' graph (laid out
 * for it by rs_index) that follows the known facts. 1 yes, 0 no, -1 when
 * *budget ran out or a known value is outside the graph. With failed (a
 * bit per node), a node once searched in vain is not searched again: the
 * graph is shared below, and with many facts unknown the same subgraph is
 * met along many paths. */
static int all_may_hold(const ruleset *rs, const rs_invariant_search *s, int32_t r,
                        const fact_values *fv, long *budget, uint64_t *failed) {
    while (r >= 0) {
        if (--*budget < 0) return -1;
        const rs_inv_node *nd = &s->nodes[r];
        int64_t value = fv->value[nd->fact];
        int missing;
        /* a computed fact is known where the facts it reads are */
        if (!fv->known[nd->fact] &&
            (!nd->computed || eval_tested_value(rs, nd->fact, fv, &value, &missing) != EXPR_OK)) {
            if (failed && failed[r / 64] >> (r % 64) & 1) return 0;
            for (int i = 0; i < nd->ntries; i++) {
                int32_t kid = s->kids[nd->tries + i];
                int k = kid == RS_INV_HOLDS ? 1 : all_may_hold(rs, s, kid, fv, budget, failed);
                if (k != 0) return k;
            }
            if (failed) failed[r / 64] |= UINT64_C(1) << (r % 64);
            return 0;
        }
        int64_t i = value - nd->lo;
        if (i < 0 || i >= nd->domain) return -1;
        r = s->kids[nd->by_value + i];
    }
    return r == RS_INV_HOLDS;
}

/* The invariants' own graph settles most situations in a short walk: when
 * some values of the unknown facts make every invariant hold, no
 * invariant is broken whatever they are, so no expression can be settled
 * false either. Otherwise (every completion breaks one, an error, or the
 * search gave up) the expressions settle it, so that the answer is
 * exactly theirs. */
int eval_broken_invariant(const ruleset *rs, const fact_values *fv) {
    const rs_invariant_search *s = rs->invariant_search;
    if (!s) return broken_by_expressions(rs, fv);
    long budget = EVAL_SHORT_SEARCH;
    int k = all_may_hold(rs, s, s->root, fv, &budget, NULL);
    if (k < 0 && budget < 0) { /* a long search: again, each node searched once */
        uint64_t *failed = xcalloc((size_t)s->nnodes / 64 + 1, sizeof *failed);
        budget = EVAL_ALIKE_BUDGET;
        k = all_may_hold(rs, s, s->root, fv, &budget, failed);
        xfree(failed);
    }
    return k == 1 ? -1 : broken_by_expressions(rs, fv);
}

/* A terminal of the ruling's graph as a brief ruling; false (out
 * untouched) for one that is no ruling: an error, a value, the
 * fall-through, or a walk that stopped (walk() has said why). */
static bool brief_of(const graph_term *t, ruling_brief *out) {
    enum ruling_status status;
    int detail = (int)t->v;
    switch (t->kind) {
    case TERM_OUTCOME:
        status = RULING_OK;
        break;
    case TERM_REJECT:
        status = RULING_REJECTED;
        break;
    case TERM_GAP:
        status = RULING_GAP;
        break;
    case TERM_NOT_APPLICABLE:
        status = RULING_GAP;
        detail = -1;
        break;
    case TERM_OUTSIDE:
        status = RULING_OUTSIDE;
        break;
    default:
        return false;
    }
    *out = (ruling_brief){status, detail, 0, 0};
    return true;
}

/* What the graph decides for fv, without the actions' arguments. */
static void decide(const ruleset *rs, gref root, const fact_values *fv, ruling_brief *out,
                   int *path_fact, int64_t *path_value, int *npath, bool grounds) {
    out->status = RULING_ERROR;
    out->detail = 0;
    out->args = out->nargs = 0;
    int broken = eval_broken_invariant(rs, fv);
    if (broken >= 0) {
        out->status = RULING_REJECTED;
        out->detail = broken;
        return;
    }
    graph_term t = walk(rs, root, fv, out, path_fact, path_value, npath, grounds);
    if (brief_of(&t, out)) return;
    if (t.kind == TERM_ERROR) {
        out->status = RULING_ERROR;
        out->detail = (int)t.v;
    } /* otherwise the walk stopped and set the status itself */
}

/* ---- rulings from packed rows (eval_batch) ---------------------------------- */

static int known_words(const ruleset *rs) {
    return (rs->nvars + 63) / 64;
}

/* A row: its view (8 bytes, see view_of), then its keys (see flat), the
 * first always 0. */
#define ROW_HEAD 8
/* Keys a view's rows hold, at most: a cell names its key in a byte. */
#define FLAT_KEYS 256

size_t eval_row_size(const ruleset *rs) {
    (void)rs;
    return ROW_HEAD + FLAT_KEYS;
}

/* A graph laid out for walking. A node's cell says where its table of
 * children lies and which of the row's keys picks the child. A key is
 * worked out once, when the row is packed, from up to three of the
 * situation's values:
 *
 *     key = (value[va] << sa) + (value[vb] << sb) + value[vc]
 *
 * the node's own variable (va) and, where its table stays small, the one
 * most of its children test (vb) and the one most of the nodes after
 * those test (vc). Its table holds, for each key, the cell of the node
 * those values lead to, two or three levels down (a node on the way that
 * tests something else is not passed: its cell is repeated). A step is
 * then two dependent loads, the cell and the key it names:
 *
 *     next = base + row[key]
 *
 * and a walk of ten levels takes six or seven steps. A view's nodes test
 * few combinations of variables (bridge-2017's: under a hundred), so a
 * row holds every key its walk may read, in the order the walk first
 * reads them. A cell is base << 8 | key.
 *
 * A terminal k is the cell k, which leads to itself (key 0, always 0),
 * so that a lane that has ended stays where it is; end[k] says what
 * graph terminal k settles. */
typedef uint32_t flat_cell;

/* A key: variables va, vb, vc (nvars: none, the value 0) and shifts. */
typedef struct flat_key {
    uint16_t va, vb, vc;
    uint8_t sa, sb;
} flat_key;

/* The cells of a node's table, at most (a key is below this): where two
 * variables of a few values each fit, a wide one (a call, 38 values) is
 * tested alone. */
#define FLAT_TABLE_CELLS 128
/* Cells a layout may have: a cell's base has 24 bits, and a cell is kept
 * as a non-negative int32 while the layout is made. */
#define FLAT_MAX_CELLS (INT32_C(1) << 23)

static inline flat_cell cell_of(int32_t base, int key) {
    return (uint32_t)base << 8 | (uint32_t)key;
}

/* One step down from cell at, on a row's keys. */
static inline int32_t flat_step(const flat_cell *cell, int32_t at, const uint8_t *row) {
    flat_cell c = cell[at];
    return (int32_t)(c >> 8) + row[c & 0xFF];
}

typedef struct flat_end {
    bool settled; /* the ruling is brief, with nargs arguments from first */
    ruling_brief brief;
    int nargs, first;
} flat_end;

typedef struct flat {
    /* NULL: the view is too large to lay out; its rows are ruled from their values */
    flat_cell *cell;
    int32_t root;
    flat_end *end;
    int32_t nends;  /* terminals: cell[0 .. nends), where a walk ends */
    int32_t parked; /* a cell that leads to itself and is no terminal: a lane with no row */
    flat_key *keys; /* what a row packed for the view holds: keys[0] is 0 */
    int nkeys;
} flat;

/* A memo per node of a graph up to top (a node's children come before
 * it), every entry fill; NULL when top is a terminal. */
static int32_t *memo_new(gref top, int32_t fill) {
    if (GRAPH_IS_TERM(top)) return NULL;
    int32_t *memo = xmalloc(sizeof(int32_t) * ((size_t)top + 1));
    for (gref i = 0; i <= top; i++)
        memo[i] = fill;
    return memo;
}

typedef struct flat_build {
    const graph *g;
    uint16_t none; /* the variable of a key's unused place: nvars */
    int32_t *memo; /* per node: its cell, or -1 */
    int levels;    /* a step goes down this many levels at most */
    flat *f;
    size_t n, cap;
    bool too_large;
} flat_build;

/* Room for n more cells. */
static int32_t flat_reserve(flat_build *b, size_t n) {
    if (n > b->cap - b->n) {
        b->cap = (b->cap + n) * 2;
        b->f->cell = xrealloc(b->f->cell, b->cap * sizeof(flat_cell));
    }
    int32_t at = (int32_t)b->n;
    b->n += n;
    return at;
}

/* Bits for the values of variable v. */
static uint8_t value_bits(const graph *g, int v) {
    uint8_t sh = 0;
    while ((1 << sh) < g->domain[v])
        sh++;
    return sh;
}

/* Where a value of the row leads from node (or terminal) r, when r
 * tests v: its child; elsewhere r itself. */
static gref past(const graph *g, gref r, int v, int value) {
    if (GRAPH_IS_TERM(r) || g->nodes[r].var != v) return r;
    return graph_kid(g, &g->nodes[r], value);
}

/* The variable most of the nodes reached from r through va, then vb (-1:
 * none yet), test; -1 when they are all terminals. */
static int next_var(const graph *g, gref r, int vb) {
    const graph_node *nd = &g->nodes[r];
    int best = -1, best_count = 0, count[64], var[64], nvar = 0;
    int da = g->domain[nd->var], db = vb >= 0 ? g->domain[vb] : 1;
    for (int i = 0; i < da; i++)
        for (int j = 0; j < db; j++) {
            gref k = graph_kid(g, nd, i);
            if (vb >= 0) k = past(g, k, vb, j);
            if (GRAPH_IS_TERM(k)) continue;
            int v = g->nodes[k].var, at = 0;
            while (at < nvar && var[at] != v)
                at++;
            if (at == nvar) {
                if (nvar == 64) continue;
                var[nvar] = v, count[nvar++] = 0;
            }
            count[at]++;
        }
    for (int at = 0; at < nvar; at++)
        if (count[at] > best_count || (count[at] == best_count && var[at] < best))
            best = var[at], best_count = count[at];
    return best;
}

/* How node r is walked: its own variable and up to levels - 1 more, in
 * how many cells. */
static flat_key shape_of(const flat_build *b, gref r, int levels, int *ncells) {
    const graph *g = b->g;
    const graph_node *nd = &g->nodes[r];
    int da = g->domain[nd->var];
    flat_key k = {(uint16_t)nd->var, b->none, b->none, 0, 0};
    *ncells = da;
    int vb = levels > 1 ? next_var(g, r, -1) : -1;
    if (vb < 0) return k;
    uint8_t bits_b = value_bits(g, vb);
    long cells = ((long)(da - 1) << bits_b) + g->domain[vb];
    if (cells > FLAT_TABLE_CELLS) return k;
    k.vb = (uint16_t)vb, k.sa = bits_b, *ncells = (int)cells;
    int vc = levels > 2 ? next_var(g, r, vb) : -1;
    if (vc < 0) return k;
    uint8_t bits_c = value_bits(g, vc);
    cells = ((long)(da - 1) << (bits_b + bits_c)) + ((long)(g->domain[vb] - 1) << bits_c) +
            g->domain[vc];
    if (cells > FLAT_TABLE_CELLS) return k;
    *ncells = (int)cells;
    return (flat_key){(uint16_t)nd->var, (uint16_t)vb, (uint16_t)vc, (uint8_t)(bits_b + bits_c),
                      bits_c};
}

/* The number of key k among the view's, added if it is new; -1 when
 * there is no room for it. */
static int key_number(flat *f, flat_key k) {
    for (int i = 0; i < f->nkeys; i++)
        if (f->keys[i].va == k.va && f->keys[i].vb == k.vb && f->keys[i].vc == k.vc &&
            f->keys[i].sa == k.sa && f->keys[i].sb == k.sb)
            return i;
    if (f->nkeys == FLAT_KEYS) return -1;
    f->keys[f->nkeys] = k;
    return f->nkeys++;
}

/* The cell of node (or terminal) r, its table laid out on first use. */
static flat_cell flatten(flat_build *b, gref r) {
    if (GRAPH_IS_TERM(r)) return cell_of(GRAPH_TERM_INDEX(r), 0);
    if (b->too_large || b->memo[r] >= 0) return (flat_cell)b->memo[r];
    int ncells;
    flat_key k = shape_of(b, r, b->levels, &ncells);
    int key = key_number(b->f, k);
    if (key < 0 || b->n + (size_t)ncells + 1 > FLAT_MAX_CELLS) { /* + the parked cell */
        b->too_large = true;
        return 0;
    }
    const graph *g = b->g;
    const graph_node *nd = &g->nodes[r];
    int32_t base = flat_reserve(b, (size_t)ncells);
    b->memo[r] = (int32_t)cell_of(base, key);
    for (int at = 0; at < ncells; at++) {
        int i = at >> k.sa, j = (at & ((1 << k.sa) - 1)) >> k.sb, l = at & ((1 << k.sb) - 1);
        gref kid = graph_kid(g, nd, i);
        if (k.vb != b->none && j < g->domain[k.vb]) kid = past(g, kid, k.vb, j);
        if (k.vc != b->none && l < g->domain[k.vc]) kid = past(g, kid, k.vc, l);
        flat_cell c = flatten(b, kid);
        b->f->cell[base + at] = c; /* after the call: it may have moved the cells */
    }
    return (flat_cell)b->memo[r];
}

/* Lays out g from root, a ruling's graph, up to levels levels a step;
 * false, with f->cell NULL, when it does not fit: more cells than a
 * cell's base can name, or more keys than a row holds. */
static bool lay_out(const graph *g, int nvars, gref root, int levels, flat *f) {
    int nends = g->nterms;
    flat_build b = {g, (uint16_t)nvars, NULL, levels, f, 0, (size_t)nends * 2 + 64, false};
    f->cell = xcalloc(b.cap, sizeof(flat_cell));
    f->keys = xcalloc(FLAT_KEYS, sizeof(flat_key));
    f->keys[0] = (flat_key){b.none, b.none, b.none, 0, 0};
    f->nkeys = 1;
    flat_reserve(&b, (size_t)nends + 1); /* the terminals, then the root's cell */
    for (int32_t k = 0; k < nends; k++)
        f->cell[k] = cell_of(k, 0);
    b.memo = memo_new(root, -1);
    flat_cell top = flatten(&b, root);
    xfree(b.memo);
    if (b.too_large) {
        xfree(f->cell), xfree(f->keys);
        f->cell = NULL, f->keys = NULL;
        return false;
    }
    f->root = nends;
    f->cell[nends] = top;
    f->parked = flat_reserve(&b, 1);
    f->cell[f->parked] = cell_of(f->parked, 0);
    return true;
}

/* Lays out g from root, a ruling's graph, for rows of nvars values: three
 * levels a step, or fewer where the keys of three do not fit in a row;
 * nargs and first: per outcome, what batch_cache keeps of its arguments.
 * False, with f->cell NULL, when even one level a step does not fit. */
static bool make_flat(const graph *g, int nvars, gref root, const int *nargs, const int *first,
                      flat *f) {
    *f = (flat){0};
    int nends = g->nterms;
    if (nvars >= UINT16_MAX || nends + 2 > FLAT_MAX_CELLS) return false;
    f->nends = nends;
    f->end = xcalloc((size_t)nends + 1, sizeof(flat_end));
    for (int32_t k = 0; k < nends; k++) {
        const graph_term *t = &g->terms[k];
        flat_end *e = &f->end[k];
        e->settled = brief_of(t, &e->brief);
        if (t->kind == TERM_OUTCOME) {
            e->nargs = nargs[t->v];
            e->first = first[t->v];
        }
    }
    for (int levels = 3; levels > 0; levels--)
        if (lay_out(g, nvars, root, levels, f)) return true;
    xfree(f->end);
    *f = (flat){0};
    return false;
}

/* The invariants seen from one set of known facts: their graph with every
 * other fact quantified away (1 where some values of the facts not known
 * make every invariant hold: all_may_hold's answer, with no search), and
 * where it says 1 the ruling's graph, elsewhere a terminal no ruling has
 * (TERM_FALLTHROUGH), for decide() to rule on: one graph, laid out. Made
 * on first use, kept with the ruleset: a few sets of known facts are what
 * a batch meets. */
#define BATCH_VIEWS 16

typedef struct inv_view {
    uint64_t *known;
    flat ruling;
} inv_view;

/* What eval_batch keeps with a ruleset: the views, and per outcome the
 * number of its actions' arguments, with their values where every one is
 * a constant (most rulings: citations and numbers), copied, not
 * evaluated. */
typedef struct batch_cache {
    int nviews; /* published with a release store, read with an acquire load */
    inv_view views[BATCH_VIEWS];
    int *nargs;      /* per outcome: its arguments, or -1 - that when one is not a constant */
    int *first;      /* per outcome of constant arguments: where they start in values */
    int64_t *values; /* the constant arguments */
} batch_cache;

static void batch_cache_free(void *p) {
    batch_cache *c = p;
    if (!c) return;
    for (int i = 0; i < c->nviews; i++) {
        xfree(c->views[i].known);
        xfree(c->views[i].ruling.keys);
        xfree(c->views[i].ruling.cell);
        xfree(c->views[i].ruling.end);
    }
    xfree(c->nargs);
    xfree(c->first);
    xfree(c->values);
    xfree(c);
}

/* One lock for every ruleset's cache: taken only to make it or a view. */
static pthread_mutex_t views_lock = PTHREAD_MUTEX_INITIALIZER;

static void outcome_arguments(const ruleset *rs, batch_cache *c) {
    int n = rs->outcomes.len, total = 0;
    c->nargs = xcalloc((size_t)n + 1, sizeof(int));
    c->first = xcalloc((size_t)n + 1, sizeof(int));
    for (int k = 0; k < 2; k++) { /* count, then fill */
        total = 0;
        for (int i = 0; i < n; i++) {
            const rs_outcome *o = rs_outcome_at(rs, i);
            int count = 0;
            bool constant = true;
            for (int a = 0; a < o->nactions; a++) {
                const rs_action_use *u = rs_use_at(rs, o->actions[a]);
                for (int p = 0; p < rs->actions[u->action].nparams; p++) {
                    const rs_expr *x = rs_expr_at(rs, rs_arg(rs, u->args + p));
                    if (x->kind != EX_CONST) constant = false;
                    if (k == 1 && constant) c->values[total + count] = x->k;
                    count++;
                }
            }
            c->nargs[i] = constant ? count : -1 - count;
            c->first[i] = total;
            if (constant) total += count;
        }
        if (k == 0) c->values = xcalloc((size_t)total + 1, sizeof(int64_t));
    }
}

/* The ruleset's cache, made on first use; NULL inside a protected call
 * that has not got one yet. The cache outlives the call that makes it,
 * and a protected call frees what it allocated when it runs out of memory
 * (docs/internals.md, "Out of memory"): it is made only outside one, where
 * running out stops the program. Inside, a batch rules without it. */
static batch_cache *cache_of(const ruleset *rs) {
    ruleset *m = (ruleset *)rs; /* the cache changes what is kept, not what it rules */
    batch_cache *c = __atomic_load_n((batch_cache **)&m->batch_cache, __ATOMIC_ACQUIRE);
    if (c || mem_protected()) return c;
    pthread_mutex_lock(&views_lock);
    if (!m->batch_cache) {
        c = xcalloc(1, sizeof *c);
        outcome_arguments(rs, c);
        m->batch_cache_free = batch_cache_free;
        __atomic_store_n((batch_cache **)&m->batch_cache, c, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&views_lock);
    return m->batch_cache;
}

static bool is_known(const uint64_t *known, int var) {
    return known[var / 64] >> (var % 64) & 1;
}

typedef struct quantify {
    const graph *src;
    graph *g;
    const uint64_t *known;
    gref *memo; /* per node of src up to the invariants' root; INT32_MIN: not yet */
    gref t0, t1;
} quantify;

static graph_term or_terms(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v || b.v};
}

/* The node r of the invariants' graph with the facts not known
 * quantified away: what all_may_hold answers there, as a graph. */
static gref quantified(quantify *q, gref r) {
    if (GRAPH_IS_TERM(r)) {
        const graph_term *t = graph_term_at(q->src, r);
        return t->kind == TERM_VALUE && t->v == 1 ? q->t1 : q->t0;
    }
    if (q->memo[r] != INT32_MIN) return q->memo[r];
    const graph_node *nd = &q->src->nodes[r];
    int dom = q->src->domain[nd->var];
    gref res;
    if (is_known(q->known, nd->var)) {
        gref *kids = xcalloc((size_t)dom, sizeof(gref));
        for (int i = 0; i < dom; i++)
            kids[i] = quantified(q, graph_kid(q->src, nd, i));
        res = graph_node_ref(q->g, nd->var, kids);
        xfree(kids);
    } else {
        res = q->t0;
        for (int i = 0; i < dom && res != q->t1; i++)
            res =
                graph_apply2(q->g, 1, res, quantified(q, graph_kid(q->src, nd, i)), or_terms, NULL);
    }
    return q->memo[r] = res;
}

/* Node r of src, made again in g, where a node that tests a fact not
 * known (in known) becomes TERM_FALLTHROUGH: a row that reaches it is
 * ruled from its fact values (the ruling asks that fact). */
static gref copied(const graph *src, graph *g, const uint64_t *known, gref r, gref *memo) {
    if (GRAPH_IS_TERM(r)) {
        const graph_term *t = graph_term_at(src, r);
        return graph_term_ref(g, t->kind, t->v);
    }
    if (memo[r] != INT32_MIN) return memo[r];
    const graph_node *nd = &src->nodes[r];
    if (!is_known(known, nd->var)) return memo[r] = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    int dom = src->domain[nd->var];
    gref *kids = xcalloc((size_t)dom, sizeof(gref));
    for (int i = 0; i < dom; i++)
        kids[i] = copied(src, g, known, graph_kid(src, nd, i), memo);
    gref res = graph_node_ref(g, nd->var, kids);
    xfree(kids);
    return memo[r] = res;
}

/* The view's graph: the invariants over the known facts and, where they
 * say 1, the ruling's graph (copied in); elsewhere TERM_FALLTHROUGH. It
 * tests known facts only: a row holds no value for the others. */
static void make_view(const ruleset *rs, const batch_cache *c, const uint64_t *known, inv_view *v) {
    const graph *src = rs->graph;
    int w = known_words(rs);
    v->known = xcalloc((size_t)w, sizeof(uint64_t));
    memcpy(v->known, known, (size_t)w * sizeof(uint64_t));
    graph *g = graph_new(src->nvars, src->domain, src->lo);
    quantify q = {
        src, g, v->known, NULL, graph_term_ref(g, TERM_VALUE, 0), graph_term_ref(g, TERM_VALUE, 1)};
    q.memo = memo_new(rs->invariant_root, INT32_MIN);
    gref holds = quantified(&q, rs->invariant_root);
    xfree(q.memo);
    gref *memo = memo_new(rs->root, INT32_MIN);
    gref ruling = copied(src, g, v->known, rs->root, memo);
    xfree(memo);
    gref both = graph_ite(g, holds, ruling, graph_term_ref(g, TERM_FALLTHROUGH, 0));
    graph_done_building(g);
    make_flat(g, rs->nvars, both, c->nargs, c->first, &v->ruling);
    graph_free(g);
}

static bool same_known(const uint64_t *a, const uint64_t *b, int w) {
    uint64_t differ = 0; /* no branch per word: a few words, nearly always equal */
    for (int i = 0; i < w; i++)
        differ |= a[i] ^ b[i];
    return !differ;
}

/* The view of a set of known facts, 1 + its index in the cache, made if
 * there is none yet; 0 when there is no cache or it is full (the row is
 * then ruled by decide()). */
static uint32_t view_of(const ruleset *rs, const uint64_t *known) {
    batch_cache *c = cache_of(rs);
    if (!c) return 0;
    int w = known_words(rs);
    int n = __atomic_load_n(&c->nviews, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (same_known(c->views[i].known, known, w)) return (uint32_t)i + 1;
    if (mem_protected()) return 0; /* see cache_of */
    pthread_mutex_lock(&views_lock);
    uint32_t found = 0;
    for (int i = 0; i < c->nviews && !found; i++)
        if (same_known(c->views[i].known, known, w)) found = (uint32_t)i + 1;
    if (!found && c->nviews < BATCH_VIEWS) {
        make_view(rs, c, known, &c->views[c->nviews]);
        found = (uint32_t)c->nviews + 1;
        __atomic_store_n(&c->nviews, c->nviews + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&views_lock);
    return found;
}

/* Known facts' bits on the stack up to this many variables. */
#define KNOWN_ON_STACK 2048

void eval_pack(const ruleset *rs, const fact_values *fv, void *row) {
    const graph *g = rs->graph;
    int w = known_words(rs);
    uint64_t stack[KNOWN_ON_STACK / 64] = {0};
    uint8_t values_on_stack[KNOWN_ON_STACK + 1];
    bool small = rs->nvars <= KNOWN_ON_STACK;
    uint64_t *known = small ? stack : xcalloc((size_t)w, sizeof(uint64_t));
    uint8_t *value_of = small ? values_on_stack : xmalloc((size_t)rs->nvars + 1);
    bool held = true; /* every value known is one a row can hold */
    for (int v = 0; v < rs->nvars; v++) {
        int f = rs->var_fact[v], missing = f;
        int64_t value = 0;
        enum expr_status s = eval_tested_value(rs, f, fv, &value, &missing);
        int64_t i = value - g->lo[v];
        if (s == EXPR_UNKNOWN) continue; /* its view does not test it */
        /* a value outside the domain, past what a byte holds, or an error
         * computing a derived fact: the row is ruled from its fact values,
         * which report it */
        if (s != EXPR_OK || i < 0 || i >= g->domain[v] || i > UINT8_MAX) held = false;
        known[v / 64] |= UINT64_C(1) << (v % 64);
        value_of[v] = (uint8_t)i;
    }
    value_of[rs->nvars] = 0; /* a key's unused place */
    uint32_t view = held ? view_of(rs, known) : 0;
    memset(row, 0, eval_row_size(rs));
    memcpy(row, &view, sizeof view);
    const inv_view *iv = view ? &cache_of(rs)->views[view - 1] : NULL;
    if (iv && iv->ruling.cell) { /* the keys the view's walk reads (its variables are known) */
        const flat_key *k = iv->ruling.keys;
        uint8_t *key = (uint8_t *)row + ROW_HEAD;
        for (int i = 1; i < iv->ruling.nkeys; i++)
            key[i] = (uint8_t)((value_of[k[i].va] << k[i].sa) + (value_of[k[i].vb] << k[i].sb) +
                               value_of[k[i].vc]);
    }
    if (!small) xfree(known), xfree(value_of);
}

/* One lane of walk_rows: a step down; at a terminal, its row's answer
 * goes to k and the lane takes the next row, or parks when none is left. */
#define LANE_STEP(at, row, which)                                                                  \
    do {                                                                                           \
        at = flat_step(cell, at, row);                                                             \
        if (at >= nends) break;                                                                    \
        k[which] = &f->end[at];                                                                    \
        if (next < n) {                                                                            \
            at = f->root, which = next, row = vals + (size_t)next++ * stride;                      \
        } else {                                                                                   \
            at = f->parked, lanes--;                                                               \
        }                                                                                          \
    } while (0)

/* Walks rows [0, n) of vals down f, each to its terminal (into k): a walk
 * is a chain of dependent loads, and the chains of eight rows overlap
 * where one alone would wait on each load. A lane takes the next row as
 * soon as its own has ended, so that none waits for the longest walk; the
 * lanes are spelled out so that each lives in registers. */
static void walk_rows(const flat *f, const uint8_t *vals, size_t stride, int n,
                      const flat_end **k) {
    const flat_cell *cell = f->cell;
    const int32_t nends = f->nends;
    if (n < 8) {
        for (int i = 0; i < n; i++) {
            int32_t at = f->root;
            while (at >= nends)
                at = flat_step(cell, at, vals + (size_t)i * stride);
            k[i] = &f->end[at];
        }
        return;
    }
    int32_t a0 = f->root, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
    const uint8_t *r0 = vals, *r1 = r0 + stride, *r2 = r1 + stride, *r3 = r2 + stride,
                  *r4 = r3 + stride, *r5 = r4 + stride, *r6 = r5 + stride, *r7 = r6 + stride;
    int w0 = 0, w1 = 1, w2 = 2, w3 = 3, w4 = 4, w5 = 5, w6 = 6, w7 = 7, next = 8, lanes = 8;
    while (lanes > 0) {
        LANE_STEP(a0, r0, w0);
        LANE_STEP(a1, r1, w1);
        LANE_STEP(a2, r2, w2);
        LANE_STEP(a3, r3, w3);
        LANE_STEP(a4, r4, w4);
        LANE_STEP(a5, r5, w5);
        LANE_STEP(a6, r6, w6);
        LANE_STEP(a7, r7, w7);
    }
}

/* Rows walked at a time by eval_batch. */
#define BLOCK 256

static uint32_t row_view(const uint8_t *row) {
    uint32_t view;
    memcpy(&view, row, sizeof view);
    return view;
}

/* The laid-out terminal each of rows [0, n) (n <= BLOCK) ends on, or NULL
 * for a row packed with no view: a run of rows with the same view is
 * walked as one stream. decide() rules where there is no terminal or it
 * does not settle the ruling (a fact the walk tests is not known, or its
 * value is not in the row; an invariant may be broken). */
static void settle_rows(const ruleset *rs, const batch_cache *c, const uint8_t *rows, int n,
                        const flat_end **ends) {
    size_t stride = eval_row_size(rs);
    int nviews = __atomic_load_n(&c->nviews, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n;) {
        uint32_t view = row_view(rows + (size_t)i * stride);
        int m = 1;
        while (i + m < n && row_view(rows + (size_t)(i + m) * stride) == view)
            m++;
        if (view == 0 || view > (uint32_t)nviews || !c->views[view - 1].ruling.cell) {
            /* packed for no view, or one too large to lay out */
            for (int j = i; j < i + m; j++)
                ends[j] = NULL;
        } else {
            const flat *f = &c->views[view - 1].ruling;
            walk_rows(f, rows + (size_t)i * stride + ROW_HEAD, stride, m, ends + i);
        }
        i += m;
    }
}

int eval_batch(const ruleset *rs, gref root, const fact_values *fv, const void *rows, int n,
               ruling_brief *out, int64_t *args, size_t args_cap) {
    batch_cache *c = cache_of(rs);
    size_t used = 0, stride = eval_row_size(rs);
    bool packed = rows && c && root == rs->root;
    const flat_end *ends[BLOCK] = {NULL};
    for (int i = 0; i < n; i++) {
        int at = i % BLOCK;
        if (packed && at == 0)
            settle_rows(rs, c, (const uint8_t *)rows + (size_t)i * stride,
                        n - i < BLOCK ? n - i : BLOCK, ends);
        const flat_end *e = ends[at];
        int nargs, first = 0;
        if (e && e->settled) {
            out[i] = e->brief;
            nargs = e->nargs, first = e->first;
        } else {
            decide(rs, root, &fv[i], &out[i], NULL, NULL, NULL, false);
            if (out[i].status != RULING_OK) continue;
            nargs = c ? c->nargs[out[i].detail]
                      : -1 - outcome_nargs(rs, rs_outcome_at(rs, out[i].detail));
            if (c && nargs >= 0) first = c->first[out[i].detail];
        }
        if (out[i].status != RULING_OK) continue;
        bool constant = nargs >= 0;
        if (!constant) nargs = -1 - nargs;
        if ((size_t)nargs > args_cap - used || used > INT_MAX) return i;
        if (constant) { /* a few: a loop, not a call */
            const int64_t *from = c->values + first;
            for (int k = 0; k < nargs; k++)
                args[used + (size_t)k] = from[k];
        } else
            eval_args(rs, &fv[i], &out[i], args + used);
        if (out[i].status != RULING_OK) continue; /* an argument needs a fact, or failed */
        out[i].args = (int)used;
        out[i].nargs = nargs;
        used += (size_t)nargs;
    }
    return n;
}

/* A path being added to by argument_facts. */
typedef struct path_add {
    const fact_values *fv;
    int *fact;
    int64_t *value;
    int *n;
} path_add;

/* A known fact read, to the path unless it is there already. */
static bool add_read(void *ctx, int f) {
    path_add *p = ctx;
    if (!p->fv->known[f]) return false; /* a derived fact: by what it reads */
    for (int i = 0; i < *p->n; i++)
        if (p->fact[i] == f) return false;
    p->fact[*p->n] = f;
    p->value[(*p->n)++] = p->fv->value[f];
    return false;
}

/* The facts the actions of outcome o read for their arguments, after the
 * path's: they decided the ruling's numbers (the tricks a revoke
 * transfers), where the graph did not test them. */
static void argument_facts(const ruleset *rs, const rs_outcome *o, const fact_values *fv,
                           int *path_fact, int64_t *path_value, int *n) {
    path_add add = {fv, path_fact, path_value, n};
    for (int i = 0; i < o->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, o->actions[i]);
        for (int p = 0; p < rs->actions[u->action].nparams; p++)
            expr_reads(rs, rs_arg(rs, u->args + p), add_read, &add);
    }
}

/* Paths up to this many facts are walked into the stack; eval_rule then
 * makes one block for the path, the actions and their arguments. */
#define PATH_ON_STACK 256

/* A ruling as eval_rule gives it, from the brief decision. */
static void fill_ruling(ruling *out, const ruling_brief *b) {
    out->status = b->status;
    switch (b->status) {
    case RULING_OK:
        out->outcome = b->detail;
        break;
    case RULING_NEEDS:
        out->fact = b->detail;
        break;
    case RULING_REJECTED:
        out->invariant = b->detail;
        break;
    case RULING_GAP:
        out->block = b->detail;
        break;
    case RULING_ERROR:
        out->error = (enum expr_status)b->detail;
        break;
    case RULING_OUTSIDE:
        out->outside = b->detail;
        break;
    }
}

/* out (an earlier ruling, reset) with room for size bytes in its block,
 * zeroed: the block is kept where it is large enough. */
static char *ruling_block(ruling *out, size_t size) {
    if (size > out->block_size || !out->path_value) { /* a size of 0 gets a block too */
        xfree(out->path_value);
        out->path_value = NULL; /* xcalloc may unwind: no block freed twice */
        out->block_size = 0;
        out->path_value = xcalloc(1, size);
        out->block_size = size;
    } else if (size) {
        memset(out->path_value, 0, size);
    }
    return (char *)out->path_value;
}

void eval_rule_again(const ruleset *rs, gref root, const fact_values *fv, bool grounds,
                     ruling *out) {
    ruling_reset(out);
    out->rs = rs;
    int fact_stack[PATH_ON_STACK];
    int64_t value_stack[PATH_ON_STACK];
    size_t cap = (size_t)rs->nvars + 1;
    int *path_fact = cap <= PATH_ON_STACK ? fact_stack : xcalloc(cap, sizeof(int));
    int64_t *path_value = cap <= PATH_ON_STACK ? value_stack : xcalloc(cap, sizeof(int64_t));
    ruling_brief b;
    decide(rs, root, fv, &b, path_fact, path_value, &out->npath, grounds);
    /* One block: the path's values, the actions' arguments, the actions,
     * the path's facts (in that order, for alignment); ruling_clear frees it
     * through path_value. */
    const rs_outcome *o = b.status == RULING_OK ? rs_outcome_at(rs, b.detail) : NULL;
    if (o && grounds) argument_facts(rs, o, fv, path_fact, path_value, &out->npath);
    size_t nargs = o ? (size_t)outcome_nargs(rs, o) : 0, nact = o ? (size_t)o->nactions : 0;
    size_t npath = (size_t)out->npath;
    char *block = ruling_block(out, (npath + nargs) * sizeof(int64_t) +
                                        nact * sizeof(ruling_action) + npath * sizeof(int));
    out->path_value = (int64_t *)block;
    int64_t *args = out->path_value + npath;
    out->actions = (ruling_action *)(args + nargs);
    out->path_fact = (int *)(out->actions + nact);
    if (npath) {
        memcpy(out->path_value, path_value, npath * sizeof(int64_t));
        memcpy(out->path_fact, path_fact, npath * sizeof(int));
    }
    if (path_fact != fact_stack) xfree(path_fact);
    if (path_value != value_stack) xfree(path_value);
    if (o) {
        out->outcome = b.detail; /* kept when an argument cannot be evaluated */
        out->nactions = eval_args(rs, fv, &b, args);
        for (int i = 0; i < out->nactions; i++) {
            out->actions[i].use = o->actions[i];
            out->actions[i].args = args;
            args += rs->actions[rs_use_at(rs, o->actions[i])->action].nparams;
        }
    }
    fill_ruling(out, &b);
}

void eval_rule(const ruleset *rs, gref root, const fact_values *fv, ruling *out) {
    memset(out, 0, sizeof *out);
    eval_rule_again(rs, root, fv, true, out);
}

void ruling_problem(const ruling *r, strbuf *out) {
    const ruleset *rs = r->rs;
    switch (r->status) {
    case RULING_OK:
        break;
    case RULING_NEEDS: {
        const rs_fact *f = &rs->facts[r->fact];
        sb_printf(out, "the scenario does not say '%s'", f->name);
        if (f->ask) sb_printf(out, " (%s)", f->ask);
        break;
    }
    case RULING_REJECTED: {
        const rs_invariant *inv = &rs->invariants[r->invariant];
        sb_printf(out, "impossible situation: %s",
                  inv->message_en ? inv->message_en : inv->message);
        if (inv->message_en) sb_printf(out, " (%s)", inv->message);
        break;
    }
    case RULING_GAP:
        if (r->block < 0)
            sb_puts(out, "no article of this ruleset rules on this situation");
        else
            sb_printf(out, "article %s gives no ruling for this situation (%s:%d)",
                      rs->articles[rs->blocks[r->block].article].id, rs->blocks[r->block].loc.file,
                      rs->blocks[r->block].loc.line);
        break;
    case RULING_ERROR:
        sb_printf(out, "the ruling could not be evaluated: %s", expr_status_text(r->error));
        break;
    case RULING_OUTSIDE: {
        const rs_outside *o = &rs->outside[r->outside];
        sb_printf(out, "%s does not rule on this: %s", rs->name,
                  o->message_en ? o->message_en : o->message);
        if (o->message_en) sb_printf(out, " (%s)", o->message);
        break;
    }
    }
}

int ruling_trail(const ruling *r, const char **out, int cap) {
    int n = 0;
    if (r->status == RULING_OK) {
        const rs_outcome *o = rs_outcome_at(r->rs, r->outcome);
        const char *last = NULL;
        for (int i = 0; i < o->ntrail; i++) {
            const char *cite = r->rs->clauses[o->trail[i]].cite;
            if (cite && !(last && strcmp(last, cite) == 0) && n++ < cap) out[n - 1] = cite;
            if (cite) last = cite; /* a clause citing its own article's number is one step */
        }
    }
    for (int i = 0; i < r->nextra_cites; i++)
        if (n++ < cap) out[n - 1] = r->extra_cites[i];
    return n;
}
