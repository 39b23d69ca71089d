/* ruleset.c — lookups on a compiled ruleset and value formatting. */
#include "ruleset.h"

#include <pthread.h>
#include <string.h>

void ruleset_free(ruleset *rs) {
    if (!rs) return;
    vec_free(&rs->exprs);
    vec_free(&rs->expr_args);
    vec_free(&rs->strings);
    vec_free(&rs->uses);
    vec_free(&rs->outcomes);
    graph_free(rs->graph);
    if (rs->batch_cache_free) rs->batch_cache_free(rs->batch_cache);
    void (*release)(void *) = rs->release;
    void *ctx = rs->release_ctx;
    arena_free(rs->arena); /* rs itself lives in its arena */
    if (release) release(ctx);
}

/* One lock for every ruleset's first decoding of its tests: rare, and
 * short next to the tests' run. */
static pthread_mutex_t tests_lock = PTHREAD_MUTEX_INITIALIZER;

int rs_tests(const ruleset *rs, const rs_test **tests) {
    pthread_mutex_lock(&tests_lock);
    ruleset *m = (ruleset *)rs; /* decoding once changes what is kept, not what it says */
    if (m->tests_pending) {
        m->decode_tests(m);
        m->tests_pending = NULL;
    }
    *tests = rs->tests;
    int n = rs->ntests;
    pthread_mutex_unlock(&tests_lock);
    return n;
}

int rs_decision_values(const rs_type *t) {
    int64_t span;
    switch (t->kind) {
    case TY_BOOL:
        return 2;
    case TY_ENUM:
        return t->nvalues;
    case TY_CALL:
        return RS_CALL_VALUES;
    case TY_INT:
        if (!t->bounded || __builtin_sub_overflow(t->hi, t->lo, &span)) return 0;
        return span >= 0 && span < RS_MAX_DOMAIN ? (int)span + 1 : 0;
    default:
        return 0;
    }
}

/* Facts by name, open addressing: a scenario names its facts one key at a
 * time, and the committee report reads tens of thousands of scenarios. */
struct fact_names {
    size_t mask;
    int slot[]; /* a fact, or -1 */
};

static size_t name_hash(const char *name) {
    return (size_t)fnv1a64(FNV1A64_INIT, name, strlen(name));
}

static void index_facts(ruleset *rs) {
    size_t cap = 16;
    while (cap < 2 * (size_t)rs->nfacts)
        cap *= 2;
    struct fact_names *t = arena_alloc(rs->arena, sizeof *t + cap * sizeof(int));
    t->mask = cap - 1;
    for (size_t i = 0; i < cap; i++)
        t->slot[i] = -1;
    for (int f = 0; f < rs->nfacts; f++) {
        size_t i = name_hash(rs->facts[f].name) & t->mask;
        while (t->slot[i] >= 0 && strcmp(rs->facts[t->slot[i]].name, rs->facts[f].name) != 0)
            i = (i + 1) & t->mask;
        if (t->slot[i] < 0) t->slot[i] = f; /* the first of a name wins, as in a search */
    }
    rs->fact_names = t;
}

/* Numbers the invariants' nodes from 0 (number[r] - 1; 0: not met),
 * each when first met, so that each is on the stack once. */
static int number_inv_nodes(const graph *g, gref root, int *number, gref *order) {
    int n = 0, top = 0;
    gref *stack = xmalloc(sizeof *stack * (size_t)(g->nnodes + 1));
    if (!GRAPH_IS_TERM(root)) {
        number[root] = ++n;
        order[0] = stack[top++] = root;
    }
    while (top > 0) {
        const graph_node *nd = &g->nodes[stack[--top]];
        for (int i = 0; i < g->domain[nd->var]; i++) {
            gref kid = graph_kid(g, nd, i);
            if (GRAPH_IS_TERM(kid) || number[kid]) continue;
            number[kid] = ++n;
            order[n - 1] = stack[top++] = kid;
        }
    }
    xfree(stack);
    return n;
}

static int32_t inv_ref(const graph *g, gref r, const int *number) {
    if (!GRAPH_IS_TERM(r)) return number[r] - 1;
    const graph_term *t = graph_term_at(g, r);
    return t->kind == TERM_VALUE && t->v == 1 ? RS_INV_HOLDS : RS_INV_BROKEN;
}

/* The children a search tries at a fact not known: one that holds ends
 * it, one that is broken is no use, and a child met before is the same
 * subgraph again. */
static int32_t add_tries(const graph *g, const graph_node *nd, const int *number, int32_t *kids,
                         int32_t *nkids) {
    int32_t start = *nkids;
    for (int i = 0; i < g->domain[nd->var]; i++) {
        int32_t k = inv_ref(g, graph_kid(g, nd, i), number);
        if (k == RS_INV_HOLDS) {
            kids[start] = k;
            *nkids = start + 1;
            return 1;
        }
        bool seen = k == RS_INV_BROKEN;
        for (int32_t j = start; j < *nkids && !seen; j++)
            seen = kids[j] == k;
        if (!seen) kids[(*nkids)++] = k;
    }
    return *nkids - start;
}

static void index_invariants(ruleset *rs) {
    const graph *g = rs->graph;
    rs_invariant_search *s = arena_alloc(rs->arena, sizeof *s);
    rs->invariant_search = s;
    if (!g) {
        s->root = RS_INV_BROKEN;
        return;
    }
    int *number = xcalloc((size_t)g->nnodes + 1, sizeof *number);
    gref *order = xmalloc(sizeof *order * (size_t)(g->nnodes + 1));
    s->nnodes = number_inv_nodes(g, rs->invariant_root, number, order);
    s->root = inv_ref(g, rs->invariant_root, number);
    size_t nkids = 0;
    for (int i = 0; i < s->nnodes; i++)
        nkids += 2 * (size_t)g->domain[g->nodes[order[i]].var];
    s->nodes = arena_alloc(rs->arena, sizeof *s->nodes * (size_t)(s->nnodes + 1));
    s->kids = arena_alloc(rs->arena, sizeof *s->kids * (nkids + 1));
    int32_t used = 0;
    for (int i = 0; i < s->nnodes; i++) {
        const graph_node *nd = &g->nodes[order[i]];
        rs_inv_node *n = &s->nodes[i];
        n->fact = rs->var_fact[nd->var];
        n->domain = g->domain[nd->var];
        n->lo = g->lo[nd->var];
        n->by_value = used;
        for (int v = 0; v < n->domain; v++)
            s->kids[used++] = inv_ref(g, graph_kid(g, nd, v), number);
        n->tries = used;
        n->ntries = add_tries(g, nd, number, s->kids, &used);
    }
    xfree(order);
    xfree(number);
}

void rs_index(ruleset *rs) {
    index_facts(rs);
    index_invariants(rs);
}

int rs_find_fact(const ruleset *rs, const char *name) {
    const struct fact_names *t = rs->fact_names;
    if (!t) { /* a ruleset still being made */
        for (int i = 0; i < rs->nfacts; i++)
            if (strcmp(rs->facts[i].name, name) == 0) return i;
        return -1;
    }
    for (size_t i = name_hash(name) & t->mask; t->slot[i] >= 0; i = (i + 1) & t->mask)
        if (strcmp(rs->facts[t->slot[i]].name, name) == 0) return t->slot[i];
    return -1;
}

int rs_find_action(const ruleset *rs, const char *name) {
    for (int i = 0; i < rs->nactions; i++)
        if (strcmp(rs->actions[i].name, name) == 0) return i;
    return -1;
}

int rs_find_article(const ruleset *rs, const char *id) {
    for (int i = 0; i < rs->narticles; i++)
        if (strcmp(rs->articles[i].id, id) == 0) return i;
    return -1;
}

int rs_enum_index(const rs_type *t, const char *name) {
    for (int i = 0; i < t->nvalues; i++)
        if (strcmp(t->values[i], name) == 0) return i;
    return -1;
}

/* A value of the type `call` as a player writes it: the encoding is the
 * language's (RS_CALL_VALUES), the text the one the auction reader
 * prints (bridge_format_call; test_bridge holds the two together). */
static void format_call(int64_t v, strbuf *out) {
    static const char *const first[] = {"P", "X", "XX"}, *const denoms[] = {"C", "D", "H", "S",
                                                                            "NT"};
    if (v >= 0 && v < 3)
        sb_puts(out, first[v]);
    else if (v >= 3 && (v - 3) / 5 + 1 <= RS_CALL_MAX_LEVEL)
        sb_printf(out, "%d%s", (int)((v - 3) / 5 + 1), denoms[(v - 3) % 5]);
    else
        sb_puts(out, "?");
}

void rs_format_value(const ruleset *rs, const rs_type *t, int64_t v, enum value_format fmt,
                     strbuf *out) {
    static const char *const bools[3][2] = {{"false", "true"}, {"nee", "ja"}, {"no", "yes"}};
    switch (t->kind) {
    case TY_BOOL:
        sb_puts(out, bools[fmt][v != 0]);
        break;
    case TY_ENUM:
        if (v < 0 || v >= t->nvalues)
            sb_puts(out, "?");
        else if (fmt == FMT_DUTCH && t->labels[v])
            sb_puts(out, t->labels[v]);
        else if (fmt == FMT_ENGLISH && t->labels_en[v])
            sb_puts(out, t->labels_en[v]);
        else
            sb_puts(out, t->values[v]);
        break;
    case TY_INT:
        sb_printf(out, "%lld", (long long)v);
        break;
    case TY_CALL:
        format_call(v, out);
        break;
    case TY_CITE:
    case TY_STRING:
        sb_puts(out, v >= 0 && v < rs->strings.len ? rs_string(rs, v) : "?");
        break;
    }
}
