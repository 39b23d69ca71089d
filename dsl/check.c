/* check.c — completeness, proved on the graphs. */
#include "check.h"

#include "expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct path_search {
    const ruleset *rs;
    check_want want;
    void *ctx;
    unsigned char *dead;   /* nodes from which no wanted terminal is reachable */
    unsigned char *wanted; /* per terminal: 0 not asked yet, 1 no, 2 yes */
    int *var_value;        /* the child taken at each variable on the current path */
    graph_term found;
} path_search;

/* Whether want accepts terminal r, asked once per terminal. */
static bool term_wanted(path_search *ps, gref r) {
    unsigned char *w = &ps->wanted[GRAPH_TERM_INDEX(r)];
    if (!*w) *w = ps->want(graph_term_at(ps->rs->graph, r), ps->ctx) ? 2 : 1;
    return *w == 2;
}

/* A node not known to be dead: its children in order, a terminal settled
 * in place, a node searched unless already known dead. */
static bool search(path_search *ps, gref r) {
    const graph *g = ps->rs->graph;
    const graph_node *nd = &g->nodes[r];
    int n = g->domain[nd->var];
    for (int i = 0; i < n; i++) {
        gref k = graph_kid(g, nd, i);
        if (GRAPH_IS_TERM(k) ? !term_wanted(ps, k) : ps->dead[k]) continue;
        ps->var_value[nd->var] = i;
        if (GRAPH_IS_TERM(k)) {
            ps->found = *graph_term_at(g, k);
            return true;
        }
        if (search(ps, k)) return true;
    }
    ps->var_value[nd->var] = -1;
    ps->dead[r] = 1;
    return false;
}

static bool search_from(path_search *ps, gref root) {
    if (!GRAPH_IS_TERM(root)) return search(ps, root);
    if (!term_wanted(ps, root)) return false;
    ps->found = *graph_term_at(ps->rs->graph, root);
    return true;
}

bool check_find_path(const ruleset *rs, gref root, check_want want, void *ctx, strbuf *given,
                     strbuf *computed, graph_term *found) {
    const graph *g = rs->graph;
    path_search ps = {rs,
                      want,
                      ctx,
                      xcalloc((size_t)g->nnodes + 1, 1),
                      xcalloc((size_t)g->nterms + 1, 1),
                      xmalloc(sizeof(int) * (size_t)(g->nvars + 1)),
                      {0, 0}};
    for (int v = 0; v < g->nvars; v++)
        ps.var_value[v] = -1;
    bool ok = search_from(&ps, root);
    if (ok) {
        int n = 0, m = 0;
        for (int v = 0; v < g->nvars; v++) {
            if (ps.var_value[v] < 0) continue;
            const rs_fact *f = &rs->facts[rs->var_fact[v]];
            bool derived = f->derived >= 0; /* a test gives what it is computed from */
            strbuf *to = derived ? computed : given;
            sb_printf(to, "%s%s = ", (derived ? m++ : n++) ? ", " : "", f->name);
            rs_format_value(rs, f->type, g->lo[v] + ps.var_value[v], FMT_NAME, to);
        }
        if (found) *found = ps.found;
    }
    xfree(ps.dead);
    xfree(ps.wanted);
    xfree(ps.var_value);
    return ok;
}

typedef struct seen_set {
    int kind;
    unsigned char *seen_gap; /* per block id, +1 for "no article" */
    unsigned char seen_error[8];
} seen_set;

static bool want_new_problem(const graph_term *t, void *ctx) {
    seen_set *s = ctx;
    if (t->kind == TERM_GAP) return !s->seen_gap[t->v + 1];
    if (t->kind == TERM_ERROR) return !s->seen_error[t->v & 7];
    return false;
}

/* inputs: the facts a test gives; computed: the derived facts the path
 * also fixes, which a test reaches through what they are computed from
 * (each "" when there are none). */
static void report(const ruleset *rs, diag *d, const graph_term *t, const char *inputs,
                   const char *computed) {
    strbuf hint, when;
    sb_init(&hint);
    sb_init(&when);
    const char *given = *inputs ? inputs : "(any situation)";
    sb_printf(&when, "%s%s%s", *inputs || !*computed ? given : "",
              *inputs && *computed ? " and " : "", computed);
    char also[200] = "";
    if (*computed) /* a derived fact is not given: what it reads is */
        snprintf(also, sizeof also, "\n      with values of the facts it reads that give %s",
                 computed);
    if (t->kind == TERM_GAP && t->v < 0) {
        sb_printf(&hint,
                  "give an article a `when` that covers it, or an invariant that excludes it; as a "
                  "test:\n"
                  "      test \"…\" { given %s expect … }%s",
                  given, also);
        diag_report(d, DIAG_ERROR, rs->loc, hint.data, "no article rules on the situation %s",
                    when.data);
    } else if (t->kind == TERM_GAP) {
        const rs_block *b = &rs->blocks[t->v];
        sb_printf(&hint,
                  "add a clause or `otherwise` for it; as a test:\n      test \"…\" { given %s "
                  "expect … }%s",
                  given, also);
        diag_report(d, DIAG_ERROR, b->loc, hint.data, "article %s gives no ruling when %s",
                    rs->articles[b->article].id, when.data);
    } else {
        sb_printf(&hint, "the situation: given %s", when.data);
        diag_report(d, DIAG_ERROR, rs->loc, hint.data, "a condition fails while deciding: %s",
                    expr_status_text((enum expr_status)t->v));
    }
    sb_free(&hint);
    sb_free(&when);
}

static int check_graph(const ruleset *rs, gref root, diag *d, seen_set *seen) {
    int problems = 0;
    for (;;) {
        strbuf given, computed;
        sb_init(&given);
        sb_init(&computed);
        graph_term t;
        bool found = check_find_path(rs, root, want_new_problem, seen, &given, &computed, &t);
        if (found) {
            report(rs, d, &t, given.len ? given.data : "", computed.len ? computed.data : "");
            if (t.kind == TERM_GAP)
                seen->seen_gap[t.v + 1] = 1;
            else
                seen->seen_error[t.v & 7] = 1;
            problems++;
        }
        sb_free(&given);
        sb_free(&computed);
        if (!found) return problems;
    }
}

int dsl_check(const ruleset *rs, diag *d) {
    seen_set seen = {0, xcalloc((size_t)rs->nblocks + 2, 1), {0}};
    /* Articles reached through `apply` are inlined in the root: they are
     * proved in every context that can hand a situation to them. */
    int problems = check_graph(rs, rs->checked_root, d, &seen);
    xfree(seen.seen_gap);
    return problems;
}

int check_english_titles(const ruleset *rs, diag *d) {
    const char *example = NULL;
    for (int a = 0; a < rs->narticles && !example; a++)
        if (rs->articles[a].title_en) example = rs->articles[a].id;
    if (!example) return 0; /* a ruleset in Dutch only is not half translated */
    int warnings = 0;
    for (int a = 0; a < rs->narticles; a++) {
        const rs_article *art = &rs->articles[a];
        if (art->title_en || !art->title || !*art->title) continue;
        char hint[160];
        snprintf(hint, sizeof hint,
                 "add `en \"…\"` after its Dutch title, as article %.40s has; in English it is "
                 "shown in Dutch",
                 example);
        diag_report(d, DIAG_WARNING, art->loc, hint, "article %s \"%s\" has no English title",
                    art->id, art->title);
        warnings++;
    }
    return warnings;
}
