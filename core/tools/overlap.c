/* overlap.c — pairs of articles that can rule on one situation (overlap.h).
 *
 * Three graphs are walked together: the two articles' own graphs (an
 * article's graph is TERM_NOT_APPLICABLE outside its `when`) and the
 * checked graph of the whole ruleset (an outcome only where every invariant
 * holds and the ruleset rules). A path on which the first two are not "not
 * applicable" and the third is a ruling is the situation shown. The walk
 * builds no node: the ruleset's graph is shared and read-only here. Triples
 * of nodes from which no such path leads are remembered, so that each is
 * searched once. */
#include "overlap.h"

#include <stdlib.h>
#include <string.h>

/* What a terminal of each of the three graphs must be on the path sought. */
enum want { WANT_APPLIES, WANT_OUTCOME, WANT_TAKEN, WANT_TRUE };

typedef struct triple {
    gref x, y, z;
} triple;

typedef struct walk {
    const ruleset *rs;
    const graph *g;
    enum want want[3];
    unsigned shown;        /* the graphs whose tests the situation shows */
    int clause;            /* WANT_TAKEN: the clause that must be on the trail */
    int *value;            /* the child taken per variable on the current path, -1 none */
    unsigned char *tested; /* per variable: one of the two articles tests it on the path */
    triple *dead;          /* open addressing: triples that lead nowhere */
    size_t cap, n;
} walk;

static uint64_t triple_hash(triple t) {
    uint64_t h = (uint64_t)(uint32_t)t.x * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(uint32_t)t.y * 0xC2B2AE3D27D4EB4Fu;
    h ^= (uint64_t)(uint32_t)t.z * 0x165667B19E3779F9u;
    return h ^ (h >> 29);
}

static bool is_dead(const walk *w, triple t) {
    for (size_t i = triple_hash(t) & (w->cap - 1);; i = (i + 1) & (w->cap - 1)) {
        if (w->dead[i].x == INT32_MIN) return false;
        if (w->dead[i].x == t.x && w->dead[i].y == t.y && w->dead[i].z == t.z) return true;
    }
}

static void add_dead(walk *w, triple t);

static void grow(walk *w) {
    triple *old = w->dead;
    size_t oldcap = w->cap;
    w->cap = oldcap ? 2 * oldcap : 4096;
    w->dead = xmalloc(sizeof(triple) * w->cap);
    if (!w->dead) abort();
    for (size_t i = 0; i < w->cap; i++)
        w->dead[i].x = INT32_MIN;
    w->n = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].x != INT32_MIN) add_dead(w, old[i]);
    xfree(old);
}

static void add_dead(walk *w, triple t) {
    if (2 * (w->n + 1) > w->cap) grow(w);
    size_t i = triple_hash(t) & (w->cap - 1);
    while (w->dead[i].x != INT32_MIN)
        i = (i + 1) & (w->cap - 1);
    w->dead[i] = t;
    w->n++;
}

static int var_of(const graph *g, gref r) {
    return GRAPH_IS_TERM(r) ? g->nvars : g->nodes[r].var;
}

/* The child of r for value i of variable v (r itself when it does not test v). */
static gref step(const graph *g, gref r, int v, int i) {
    return var_of(g, r) == v ? graph_kid(g, &g->nodes[r], i) : r;
}

static bool trail_has(const ruleset *rs, const graph_term *t, int clause) {
    const rs_outcome *o = rs_outcome_at(rs, t->v);
    for (int i = 0; i < o->ntrail; i++)
        if (o->trail[i] == clause) return true;
    return false;
}

static bool terminal_ok(const walk *w, int slot, gref r) {
    if (!GRAPH_IS_TERM(r)) return true;
    const graph_term *t = graph_term_at(w->g, r);
    switch (w->want[slot]) {
    case WANT_APPLIES:
        return t->kind != TERM_NOT_APPLICABLE;
    case WANT_OUTCOME:
        return t->kind == TERM_OUTCOME;
    case WANT_TAKEN:
        return t->kind == TERM_OUTCOME && trail_has(w->rs, t, w->clause);
    case WANT_TRUE:
        return t->kind == TERM_VALUE && t->v != 0;
    }
    return false;
}

static bool search(walk *w, triple t) {
    const graph *g = w->g;
    if (!terminal_ok(w, 0, t.x) || !terminal_ok(w, 1, t.y) || !terminal_ok(w, 2, t.z)) return false;
    if (GRAPH_IS_TERM(t.x) && GRAPH_IS_TERM(t.y) && GRAPH_IS_TERM(t.z)) return true;
    if (is_dead(w, t)) return false;
    int v = var_of(g, t.x);
    if (var_of(g, t.y) < v) v = var_of(g, t.y);
    if (var_of(g, t.z) < v) v = var_of(g, t.z);
    w->tested[v] = ((w->shown & 1) && var_of(g, t.x) == v) ||
                   ((w->shown & 2) && var_of(g, t.y) == v) ||
                   ((w->shown & 4) && var_of(g, t.z) == v);
    for (int i = 0; i < g->domain[v]; i++) {
        w->value[v] = i;
        if (search(w, (triple){step(g, t.x, v, i), step(g, t.y, v, i), step(g, t.z, v, i)}))
            return true;
    }
    w->value[v] = -1;
    add_dead(w, t);
    return false;
}

/* The situation found, in the facts the two articles test (the rest of the
 * path only shows that it is possible and ruled on). */
static char *given_text(const ruleset *rs, const walk *w) {
    strbuf sb;
    sb_init(&sb);
    for (int v = 0, n = 0; v < rs->graph->nvars; v++) {
        if (w->value[v] < 0 || !w->tested[v]) continue;
        const rs_fact *f = &rs->facts[rs->var_fact[v]];
        sb_printf(&sb, "%s%s = ", n++ ? ", " : "", f->name);
        rs_format_value(rs, f->type, rs->graph->lo[v] + w->value[v], FMT_NAME, &sb);
    }
    return sb_take(&sb);
}

static bool declared(const ruleset *rs, int a, int b) {
    for (int i = 0; i < rs->ncombines; i++) {
        int x = rs->combines[i].a, y = rs->combines[i].b;
        if ((x == a && y == b) || (x == b && y == a)) return true;
    }
    return false;
}

/* A path through the three graphs to terminals as `want` says; the facts
 * of the graphs `shown` marks (bit 0 x, 1 y, 2 z) in *given. */
static bool find(walk *w, triple t, const enum want want[3], unsigned shown, int clause,
                 char **given) {
    memcpy(w->want, want, sizeof w->want);
    w->shown = shown;
    w->clause = clause;
    for (int v = 0; v < w->g->nvars; v++)
        w->value[v] = -1, w->tested[v] = 0;
    xfree(w->dead);
    w->dead = NULL;
    w->cap = w->n = 0;
    grow(w);
    if (!search(w, t)) return false;
    *given = given_text(w->rs, w);
    return true;
}

static void walk_init(walk *w, const ruleset *rs) {
    memset(w, 0, sizeof *w);
    w->rs = rs;
    w->g = rs->graph;
    w->value = xmalloc(sizeof(int) * (size_t)(rs->graph->nvars + 1));
    w->tested = xcalloc((size_t)rs->graph->nvars + 1, 1);
    if (!w->value || !w->tested) abort();
}

static void walk_free(walk *w) {
    xfree(w->dead);
    xfree(w->value);
    xfree(w->tested);
}

static void push(overlap **out, int *n, int *cap, overlap o) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *out = xrealloc(*out, sizeof **out * (size_t)*cap);
        if (!*out) abort();
    }
    (*out)[(*n)++] = o;
}

int overlap_articles(const ruleset *rs, overlap **out) {
    *out = NULL;
    int n = 0, cap = 0;
    walk w;
    walk_init(&w, rs);
    static const enum want both[3] = {WANT_APPLIES, WANT_APPLIES, WANT_OUTCOME};
    for (int a = 0; a < rs->narticles; a++) {
        if (!rs->articles[a].has_when) continue;
        for (int b = a + 1; b < rs->narticles; b++) {
            if (!rs->articles[b].has_when || declared(rs, a, b)) continue;
            char *given;
            triple t = {rs->articles[a].root, rs->articles[b].root, rs->checked_root};
            if (find(&w, t, both, 1 | 2, -1, &given)) push(out, &n, &cap, (overlap){a, b, given});
        }
    }
    walk_free(&w);
    return n;
}

int overlap_clauses(const ruleset *rs, overlap **out) {
    *out = NULL;
    int n = 0, cap = 0;
    walk w;
    walk_init(&w, rs);
    static const enum want hidden[3] = {WANT_TAKEN, WANT_TRUE, WANT_TRUE};
    for (int c = 0; c < rs->nclauses; c++) {
        const rs_clause *later = &rs->clauses[c];
        if (later->cond == RS_NO_COND) continue;
        for (int e = later->earlier; e >= 0; e = rs->clauses[e].earlier) {
            if (rs->clauses[e].cond == RS_NO_COND) continue;
            char *given;
            triple t = {rs->checked_root, later->cond, rs->clauses[e].cond};
            if (find(&w, t, hidden, 2 | 4, e, &given)) push(out, &n, &cap, (overlap){e, c, given});
        }
    }
    walk_free(&w);
    return n;
}

void overlap_free(overlap *list, int n) {
    for (int i = 0; i < n; i++)
        xfree(list[i].given);
    xfree(list);
}

int overlap_report(const ruleset *rs, diag *d) {
    overlap *list;
    int n = overlap_articles(rs, &list);
    for (int i = 0; i < n; i++) {
        const rs_article *a = &rs->articles[list[i].a], *b = &rs->articles[list[i].b];
        diag_report(d, DIAG_WARNING, b->loc,
                    "if the law means both measures to apply, declare `combine ARTICLE ARTICLE`; "
                    "else narrow a `when`",
                    "articles %s and %s can both rule on one situation (their rulings are joined): "
                    "given %s",
                    a->id, b->id, list[i].given);
    }
    overlap_free(list, n);
    return n;
}
