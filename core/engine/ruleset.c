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

static size_t fact_name_hash(const char *name) {
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
        size_t i = fact_name_hash(rs->facts[f].name) & t->mask;
        while (t->slot[i] >= 0 && strcmp(rs->facts[t->slot[i]].name, rs->facts[f].name) != 0)
            i = (i + 1) & t->mask;
        if (t->slot[i] < 0) t->slot[i] = f; /* the first of a name wins, as in a search */
    }
    rs->fact_names = t;
}

/* The nodes the invariants' root leads to, a bit each (nwords words), and
 * how many. A child's index is below its parent's (graph.h), so one sweep
 * down from the root, highest bit first, marks them all. */
static uint64_t *mark_below(const graph *g, gref root, int *nwords, int *count) {
    *nwords = root / 64 + 1;
    *count = 0;
    uint64_t *bits = xcalloc((size_t)*nwords, sizeof *bits);
    bits[root / 64] |= UINT64_C(1) << (root % 64);
    for (int w = *nwords - 1; w >= 0; w--) {
        for (uint64_t todo = bits[w]; todo; ++*count) {
            int b = 63 - __builtin_clzll(todo);
            todo &= ~(UINT64_C(1) << b);
            const graph_node *nd = &g->nodes[w * 64 + b];
            for (int i = 0; i < g->domain[nd->var]; i++) {
                gref kid = graph_kid(g, nd, i);
                if (GRAPH_IS_TERM(kid) || bits[kid / 64] >> (kid % 64) & 1) continue;
                bits[kid / 64] |= UINT64_C(1) << (kid % 64);
                if (kid / 64 == w) todo |= UINT64_C(1) << (kid % 64);
            }
        }
    }
    return bits;
}

/* The numbers given to the marked nodes so far, by node (open addressing:
 * the invariants are a few hundred nodes of a graph of tens of thousands). */
typedef struct node_numbers {
    gref *node;
    int32_t *number;
    uint32_t mask;
} node_numbers;

static int32_t *number_slot(const node_numbers *n, gref r) {
    uint32_t i = ((uint32_t)r * 2654435761u) & n->mask;
    while (n->node[i] >= 0 && n->node[i] != r)
        i = (i + 1) & n->mask;
    n->node[i] = r;
    return &n->number[i];
}

/* A child as the search reads it: a node by its number, or what a
 * terminal says. */
static int32_t inv_ref(const graph *g, gref r, const node_numbers *n) {
    if (!GRAPH_IS_TERM(r)) return *number_slot(n, r);
    const graph_term *t = graph_term_at(g, r);
    return t->kind == TERM_VALUE && t->v == 1 ? RS_INV_HOLDS : RS_INV_BROKEN;
}

/* The children a search tries at a fact not known, after its children by
 * value (kids[by .. by + domain - 1]): one that holds ends the search, one
 * that is broken is no use, a child met before is the same subgraph. */
static int32_t add_tries(int32_t *kids, int32_t by, int domain, int32_t *used) {
    int32_t start = *used;
    for (int i = 0; i < domain; i++) {
        int32_t k = kids[by + i];
        if (k == RS_INV_HOLDS) {
            kids[start] = k;
            *used = start + 1;
            return 1;
        }
        bool seen = k == RS_INV_BROKEN;
        for (int32_t j = start; j < *used && !seen; j++)
            seen = kids[j] == k;
        if (!seen) kids[(*used)++] = k;
    }
    return *used - start;
}

/* The nodes are numbered in the graph's order, so a node's children are
 * numbered before it. */
static void index_invariants(ruleset *rs) {
    const graph *g = rs->graph;
    rs_invariant_search *s = arena_alloc(rs->arena, sizeof *s);
    rs->invariant_search = s;
    if (!g || GRAPH_IS_TERM(rs->invariant_root)) {
        s->root = g ? inv_ref(g, rs->invariant_root, NULL) : RS_INV_BROKEN;
        return;
    }
    int nwords;
    uint64_t *bits = mark_below(g, rs->invariant_root, &nwords, &s->nnodes);
    node_numbers numbers = {0};
    uint32_t cap = 16;
    while (cap < 2 * (uint32_t)s->nnodes)
        cap *= 2;
    numbers.mask = cap - 1;
    numbers.node = xmalloc(sizeof *numbers.node * cap);
    memset(numbers.node, 0xff, sizeof *numbers.node * cap); /* -1: free */
    /* 0 for a child that was not marked: there is none in a checked graph */
    numbers.number = xcalloc(cap, sizeof *numbers.number);
    size_t nkids = 0;
    for (int w = 0; w < nwords; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1)
            nkids += 2 * (size_t)g->domain[g->nodes[w * 64 + __builtin_ctzll(b)].var];
    s->nodes = arena_alloc(rs->arena, sizeof *s->nodes * (size_t)s->nnodes);
    s->kids = arena_alloc(rs->arena, sizeof *s->kids * nkids);
    int32_t used = 0, at = 0;
    for (int w = 0; w < nwords; w++) {
        for (uint64_t b = bits[w]; b; b &= b - 1, at++) {
            gref r = w * 64 + __builtin_ctzll(b);
            const graph_node *nd = &g->nodes[r];
            rs_inv_node *n = &s->nodes[at];
            *number_slot(&numbers, r) = at;
            n->fact = rs->var_fact[nd->var];
            n->computed = rs->facts[n->fact].derived >= 0;
            n->domain = g->domain[nd->var];
            n->lo = g->lo[nd->var];
            n->by_value = used;
            for (int v = 0; v < n->domain; v++)
                s->kids[used++] = inv_ref(g, graph_kid(g, nd, v), &numbers);
            n->tries = used;
            n->ntries = add_tries(s->kids, n->by_value, n->domain, &used);
        }
    }
    s->root = at - 1; /* the highest node */
    xfree(numbers.node);
    xfree(numbers.number);
    xfree(bits);
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
    for (size_t i = fact_name_hash(name) & t->mask; t->slot[i] >= 0; i = (i + 1) & t->mask)
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
    /* the first byte first: the compiler asks this of every name where an
     * enum value may stand, and most values differ there */
    for (int i = 0; i < t->nvalues; i++)
        if (t->values[i][0] == name[0] && strcmp(t->values[i], name) == 0) return i;
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
