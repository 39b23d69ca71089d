/* whynot.c — the nearest ruling that names an action: a shortest path in
 * the decision graph, where following the scenario's own value costs 0,
 * any other value 1, and a fact the scenario does not give costs nothing. */
#include "whynot.h"

#include "eval.h"

#include <stdlib.h>

#define UNREACHABLE (1 << 29)

typedef struct search {
    const ruleset *rs;
    const fact_values *fv;
    int action;
    int *cost; /* per node, -1 when not yet computed */
} search;

static bool names_action(const ruleset *rs, const graph_term *t, int action) {
    if (t->kind != TERM_OUTCOME) return false;
    const rs_outcome *o = rs_outcome_at(rs, t->v);
    for (int i = 0; i < o->nactions; i++)
        if (rs_use_at(rs, o->actions[i])->action == action) return true;
    return false;
}

static int edge_cost(const search *s, const graph_node *nd, int i) {
    int missing;
    int64_t v;
    if (eval_tested_value(s->rs, s->rs->var_fact[nd->var], s->fv, &v, &missing) != EXPR_OK)
        return 0;
    return v - s->rs->graph->lo[nd->var] == i ? 0 : 1;
}

static int cost_of(search *s, gref r) {
    const graph *g = s->rs->graph;
    if (GRAPH_IS_TERM(r))
        return names_action(s->rs, graph_term_at(g, r), s->action) ? 0 : UNREACHABLE;
    if (s->cost[r] >= 0) return s->cost[r];
    const graph_node *nd = &g->nodes[r];
    int best = UNREACHABLE;
    for (int i = 0; i < g->domain[nd->var]; i++) {
        int c = cost_of(s, graph_kid(g, nd, i));
        if (c < UNREACHABLE && c + edge_cost(s, nd, i) < best) best = c + edge_cost(s, nd, i);
    }
    return s->cost[r] = best;
}

void whynot_find(const ruleset *rs, gref root, const fact_values *fv, int action, whynot *out) {
    const graph *g = rs->graph;
    search s = {rs, fv, action, xmalloc(sizeof(int) * ((size_t)g->nnodes + 1))};
    for (int i = 0; i < g->nnodes; i++)
        s.cost[i] = -1;
    out->nchanges = 0;
    out->reachable = cost_of(&s, root) < UNREACHABLE;
    gref r = root;
    while (out->reachable && !GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        int want = cost_of(&s, r), i = 0;
        while (i < g->domain[nd->var] - 1 &&
               !(cost_of(&s, graph_kid(g, nd, i)) < UNREACHABLE &&
                 cost_of(&s, graph_kid(g, nd, i)) + edge_cost(&s, nd, i) == want))
            i++;
        if (edge_cost(&s, nd, i) && out->nchanges < WHYNOT_MAX_CHANGES) {
            out->fact[out->nchanges] = rs->var_fact[nd->var];
            out->value[out->nchanges++] = g->lo[nd->var] + i;
        }
        r = graph_kid(g, nd, i);
    }
    if (out->reachable) out->outcome = (int)graph_term_at(g, r)->v;
    xfree(s.cost);
}
