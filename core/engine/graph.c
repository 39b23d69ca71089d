/* graph.c — building reduced ordered decision graphs. */
#include "graph.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The operation cache may forget: a miss only costs a recomputation, so a
 * bounded size bounds memory without affecting results. It starts small
 * (a small build has few operations to remember, and a large table is
 * mostly page faults for it) and grows with the operations computed, up to
 * CACHE_SIZE, keeping its entries. */
#define CACHE_SIZE (1 << 14)
#define CACHE_FIRST (1 << 12)

typedef struct graph_cache_entry {
    uint64_t op; /* the operation + 1: a zeroed entry is empty */
    gref a, b, c, result;
} graph_cache_entry;

/* An operation as the cache knows it, with its hash computed once for the
 * lookup and the store. */
typedef struct cache_key {
    uint64_t op;
    gref a, b, c;
    uint64_t h;
} cache_key;

graph *graph_new(int nvars, const int *domain, const int64_t *lo) {
    graph *g = xcalloc(1, sizeof *g);
    g->nvars = nvars;
    g->domain = xrealloc(NULL, sizeof(int) * (size_t)(nvars + 1));
    g->lo = xrealloc(NULL, sizeof(int64_t) * (size_t)(nvars + 1));
    for (int i = 0; i < nvars; i++) {
        /* A variable has at least one value: after an error (an empty range)
         * the compiler still builds on, and a node needs a child to read. */
        g->domain[i] = domain[i] > 0 ? domain[i] : 1;
        g->lo[i] = lo[i];
    }
    return g;
}

void graph_done_building(graph *g) {
    g->work = 0; /* the next build has a budget of its own */
    xfree(g->cache);
    xfree(g->unique);
    xfree(g->termhash);
    xfree(g->nodehash);
    g->cache = NULL;
    g->unique = g->termhash = NULL;
    g->nodehash = NULL;
    g->capcache = g->capunique = g->captermhash = 0;
    g->nhashed = g->capnodehash = 0;
}

/* A graph read in place from an image is copied into arrays of its own
 * before anything changes it (a diff or a check may build on a loaded
 * graph): the image is mapped read-only. */
static void graph_own(graph *g) {
    if (!g->borrowed) return;
    graph_node *nodes = xmalloc(sizeof *nodes * ((size_t)g->nnodes + 1));
    gref *kids = xmalloc(sizeof *kids * ((size_t)g->nkids + 1));
    memcpy(nodes, g->nodes, sizeof *nodes * (size_t)g->nnodes);
    memcpy(kids, g->kids, sizeof *kids * (size_t)g->nkids);
    nodes[g->nnodes] = (graph_node){0, 0};
    kids[g->nkids] = 0;
    g->nodes = nodes;
    g->kids = kids;
    g->capnodes = g->nnodes;
    g->capkids = g->nkids;
    g->borrowed = false;
}

void graph_free(graph *g) {
    if (!g) return;
    xfree(g->domain);
    xfree(g->lo);
    if (!g->borrowed) {
        xfree(g->nodes);
        xfree(g->kids);
    }
    xfree(g->terms);
    xfree(g->unique);
    xfree(g->termhash);
    xfree(g->cache);
    xfree(g->nodehash);
    xfree(g->visited);
    xfree(g);
}

/* Large build tables are mapped whole before they are filled (util.h:
 * prefault): below this size, the allocator's pages are likely mapped. */
#define PREFAULT_MIN (64 * 1024)

static void *table_alloc(size_t bytes) {
    void *p = xmalloc(bytes);
    if (bytes >= PREFAULT_MIN) prefault(p, bytes);
    return p;
}

/* An array grown to bytes, its first used bytes kept: a new block mapped
 * whole, then the copy (realloc would fault on each page as it copied). */
static void *table_grow(void *old, size_t used, size_t bytes) {
    if (bytes < PREFAULT_MIN) return xrealloc(old, bytes);
    char *p = xmalloc(bytes);
    /* the copy and what the next doubling's worth of building fills; the
     * rest of the block may never be used */
    size_t ahead = used + (bytes - used) / 2;
    prefault(p, ahead);
    if (used) memcpy(p, old, used);
    xfree(old);
    return p;
}

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* --- terminals ---------------------------------------------------------- */

static gref term_find(graph *g, int kind, int64_t v);

static uint64_t term_hash(int kind, int64_t v) {
    return mix(mix(0, (uint64_t)kind), (uint64_t)v);
}

static void term_rehash(graph *g) {
    int cap = g->captermhash ? g->captermhash * 2 : 64;
    while (cap < 4 * (g->nterms + 1))
        cap *= 2; /* also after graph_done_building */
    xfree(g->termhash);
    g->termhash = xrealloc(NULL, sizeof(int32_t) * (size_t)cap);
    memset(g->termhash, -1, sizeof(int32_t) * (size_t)cap);
    g->captermhash = cap;
    for (int i = 0; i < g->nterms; i++) {
        uint64_t h = term_hash(g->terms[i].kind, g->terms[i].v) & (uint64_t)(cap - 1);
        while (g->termhash[h] >= 0)
            h = (h + 1) & (uint64_t)(cap - 1);
        g->termhash[h] = i;
    }
}

gref graph_term_ref(graph *g, int kind, int64_t v) {
    /* a sum's or a comparison's leaves come in runs of one terminal */
    if (g->last_term_ref && g->last_term.kind == kind && g->last_term.v == v)
        return g->last_term_ref;
    gref r = term_find(g, kind, v);
    g->last_term = (graph_term){kind, v};
    g->last_term_ref = r;
    return r;
}

static gref term_find(graph *g, int kind, int64_t v) {
    if (2 * (g->nterms + 1) > g->captermhash) term_rehash(g);
    uint64_t mask = (uint64_t)g->captermhash - 1;
    uint64_t h = term_hash(kind, v) & mask;
    for (; g->termhash[h] >= 0; h = (h + 1) & mask) {
        graph_term *t = &g->terms[g->termhash[h]];
        if (t->kind == kind && t->v == v) return -1 - g->termhash[h];
    }
    if (g->nterms == g->capterms) {
        g->capterms = g->capterms ? g->capterms * 2 : 64;
        g->terms = xrealloc(g->terms, sizeof *g->terms * (size_t)g->capterms);
    }
    g->terms[g->nterms] = (graph_term){kind, v};
    g->termhash[h] = g->nterms;
    return -1 - g->nterms++;
}

/* --- nodes ---------------------------------------------------------------- */

static uint64_t node_hash(int var, const gref *kids, int n) {
    return hash_ints(HASH_INIT + (uint64_t)var, kids,
                     (size_t)n); /* two children a step: nodes may have 256 */
}

/* A slot of the hash-consing index: 0 empty, else the node's number + 1
 * in the low UNIQUE_BITS bits and the top bits of its hash above them, so
 * that a probe that meets another node mostly tells so without reading the
 * node (a cache miss each: the index and the nodes are megabytes). A node
 * has two children at least, so there are at most GRAPH_MAX_KIDS / 2. */
#define UNIQUE_BITS 27
#define UNIQUE_INDEX_MASK ((UINT32_C(1) << UNIQUE_BITS) - 1)
_Static_assert(GRAPH_MAX_KIDS / 2 < (1 << UNIQUE_BITS), "a node's number fits its slot");

static inline uint32_t unique_tag(uint64_t h) {
    return (uint32_t)(h >> (64 - (32 - UNIQUE_BITS))) << UNIQUE_BITS;
}

static void node_rehash(graph *g) {
    int cap = g->capunique ? g->capunique * 2 : 256;
    while (cap < 3 * (g->nnodes + 1))
        cap *= 2; /* also after graph_done_building */
    xfree(g->unique);
    g->unique = table_alloc(sizeof(int32_t) * (size_t)cap);
    memset(g->unique, 0, sizeof(int32_t) * (size_t)cap);
    g->capunique = cap;
    uint32_t *slots = (uint32_t *)g->unique;
    if (g->nnodes > g->capnodehash) { /* nodes made before the index (a loaded graph) */
        g->capnodehash = g->nnodes;
        g->nodehash = xrealloc(g->nodehash, sizeof *g->nodehash * (size_t)g->capnodehash);
    }
    for (int i = 0; i < g->nnodes; i++) {
        if (i >= g->nhashed) {
            const graph_node *nd = &g->nodes[i];
            g->nodehash[i] = node_hash(nd->var, &g->kids[nd->kids], g->domain[nd->var]);
        }
        uint64_t full = g->nodehash[i];
        uint64_t h = full & (uint64_t)(cap - 1);
        while (slots[h])
            h = (h + 1) & (uint64_t)(cap - 1);
        slots[h] = unique_tag(full) | (uint32_t)(i + 1);
    }
    g->nhashed = g->nnodes;
}

/* Counts one computed operation; false once the build is over budget, and
 * then every operation ends at once in the "too large" error leaf. */
static bool spend(graph *g) {
    return ++g->work <= GRAPH_MAX_WORK;
}

static gref too_large(graph *g) {
    return graph_term_ref(g, TERM_ERROR, GRAPH_ERROR_TOO_LARGE);
}

gref graph_node_ref(graph *g, int var, const gref *kids) {
    graph_own(g);
    int n = g->domain[var];
    int same = 1;
    for (int i = 1; i < n && same; i++)
        same = kids[i] == kids[0];
    if (same) return kids[0];        /* the test cannot change the result */
    if (g->npacked) graph_unpack(g); /* hash-consing compares direct children */
    if (2 * (g->nnodes + 1) > g->capunique) node_rehash(g);
    uint64_t mask = (uint64_t)g->capunique - 1;
    uint64_t full = node_hash(var, kids, n), h = full & mask;
    uint32_t tag = unique_tag(full), *slots = (uint32_t *)g->unique;
    for (uint32_t v; (v = slots[h]) != 0; h = (h + 1) & mask) {
        if ((v & ~UNIQUE_INDEX_MASK) != tag) continue;
        int32_t i = (int32_t)(v & UNIQUE_INDEX_MASK) - 1;
        const graph_node *nd = &g->nodes[i];
        if (nd->var == var && memcmp(&g->kids[nd->kids], kids, sizeof(gref) * (size_t)n) == 0)
            return i;
    }
    if (g->nkids > GRAPH_MAX_KIDS - n)
        return too_large(g); /* past the budget: an error leaf, not an OOM kill */
    if (g->nkids + n > g->capkids) {
        while (g->nkids + n > g->capkids)
            g->capkids = g->capkids ? g->capkids * 2 : 256;
        g->kids =
            table_grow(g->kids, sizeof(gref) * (size_t)g->nkids, sizeof(gref) * (size_t)g->capkids);
    }
    if (g->nnodes == g->capnodes) {
        g->capnodes = g->capnodes ? g->capnodes * 2 : 128;
        g->nodes = table_grow(g->nodes, sizeof *g->nodes * (size_t)g->nnodes,
                              sizeof *g->nodes * (size_t)g->capnodes);
    }
    if (g->nnodes == g->capnodehash) {
        g->capnodehash = g->capnodehash ? 2 * g->capnodehash : 1024;
        g->nodehash = table_grow(g->nodehash, sizeof *g->nodehash * (size_t)g->nhashed,
                                 sizeof *g->nodehash * (size_t)g->capnodehash);
    }
    g->nodehash[g->nhashed++] = full; /* node_rehash hashed every node before this one */
    memcpy(&g->kids[g->nkids], kids, sizeof(gref) * (size_t)n);
    g->nodes[g->nnodes] = (graph_node){var, g->nkids};
    g->nkids += n;
    slots[h] = tag | (uint32_t)(g->nnodes + 1);
    return g->nnodes++;
}

gref graph_var(graph *g, int var) {
    int n = g->domain[var];
    gref *kids = xrealloc(NULL, sizeof(gref) * (size_t)n);
    for (int i = 0; i < n; i++)
        kids[i] = graph_term_ref(g, TERM_VALUE, g->lo[var] + i);
    gref r = graph_node_ref(g, var, kids);
    xfree(kids);
    return r;
}

/* --- operations ----------------------------------------------------------- */

/* Two multiplies over the operation and its three operands, folded so
 * that the low bits (the slot) depend on all of them. */
static inline uint64_t cache_hash(uint64_t op, gref a, gref b, gref c) {
    uint64_t h =
        (op ^ ((uint64_t)(uint32_t)a | (uint64_t)(uint32_t)b << 32)) * UINT64_C(0x9e3779b97f4a7c15);
    h = (h ^ (h >> 29) ^ (uint64_t)(uint32_t)c) * UINT64_C(0xbf58476d1ce4e5b9);
    return h ^ (h >> 32);
}

/* A larger table for a longer build, keeping what the smaller one held. */
static void cache_grow(graph *g) {
    int cap = g->capcache ? g->capcache : CACHE_FIRST;
    while (cap < CACHE_SIZE && (uint64_t)cap < g->work)
        cap *= 4;
    graph_cache_entry *cache = table_alloc(sizeof *cache * (size_t)cap);
    memset(cache, 0, sizeof *cache * (size_t)cap);
    for (int i = 0; i < g->capcache; i++) {
        const graph_cache_entry *e = &g->cache[i];
        if (e->op) cache[cache_hash(e->op - 1, e->a, e->b, e->c) & (uint64_t)(cap - 1)] = *e;
    }
    xfree(g->cache);
    g->cache = cache;
    g->capcache = cap;
}

static inline graph_cache_entry *cache_slot(graph *g, const cache_key *k) {
    if (__builtin_expect(!g->cache || (g->capcache < CACHE_SIZE && g->work > (uint64_t)g->capcache),
                         0))
        cache_grow(g);
    return &g->cache[k->h & (uint64_t)(g->capcache - 1)];
}

static inline bool cache_get(graph *g, cache_key *k, gref *out) {
    k->h = cache_hash(k->op, k->a, k->b, k->c);
    const graph_cache_entry *e = cache_slot(g, k);
    if (e->op != k->op + 1 || e->a != k->a || e->b != k->b || e->c != k->c) return false;
    *out = e->result;
    return true;
}

static inline gref cache_put(graph *g, const cache_key *k, gref r) {
    *cache_slot(g, k) = (graph_cache_entry){k->op + 1, k->a, k->b, k->c, r};
    return r;
}

static inline int top_var(const graph *g, gref r) {
    return GRAPH_IS_TERM(r) ? g->nvars : g->nodes[r].var;
}

/* The child of r for value i of var, where var is at or above r's top. */
static inline gref cofactor(const graph *g, gref r, int var, int i) {
    if (GRAPH_IS_TERM(r) || g->nodes[r].var != var) return r;
    return graph_kid(g, &g->nodes[r], i);
}

/* Children are built into a scratch array, on the stack for the usual
 * small domains and on the heap for wide ones: recursion depth is bounded
 * by the number of variables, not by the size of the graph. */
#define EXPAND_ON_STACK 32
#define EXPAND(g, var, expr_for_i)                                                                 \
    do {                                                                                           \
        int n_ = (g)->domain[var];                                                                 \
        gref stack_[EXPAND_ON_STACK];                                                              \
        gref *kids_ = n_ <= EXPAND_ON_STACK ? stack_ : xrealloc(NULL, sizeof(gref) * (size_t)n_);  \
        for (int i = 0; i < n_; i++)                                                               \
            kids_[i] = (expr_for_i);                                                               \
        result = graph_node_ref((g), (var), kids_);                                                \
        if (kids_ != stack_) xfree(kids_);                                                         \
    } while (0)

/* Where r's children for var lie in g->kids, or -1 where r does not test
 * var (its cofactor is r itself for every value). Only while nothing is
 * packed: building appends to g->kids (which may move, hence an offset) and
 * unpacks only a packed graph. */
static inline int32_t kids_of(const graph *g, gref r, int var) {
    return GRAPH_IS_TERM(r) || g->nodes[r].var != var ? -1 : g->nodes[r].kids;
}

static inline gref kid_at(const graph *g, gref r, int32_t at, int var, int i) {
    if (at == -1) return r;
    return at >= 0 ? g->kids[at + i] : cofactor(g, r, var, i);
}

/* The same for an operation on up to three graphs a, b, c (GRAPH_NONE for
 * one not taken): child i is `call` on ca_, cb_, cc_, their cofactors for
 * value i. A child whose operands are those of the child before it is that
 * child, without a call (a wide variable's children come in runs). */
#define GRAPH_NONE (-1)
#define EXPAND3(g, var, a, b, c, call)                                                             \
    do {                                                                                           \
        int n_ = (g)->domain[var];                                                                 \
        gref stack_[EXPAND_ON_STACK];                                                              \
        gref *kids_ = n_ <= EXPAND_ON_STACK ? stack_ : xrealloc(NULL, sizeof(gref) * (size_t)n_);  \
        bool direct_ = !(g)->npacked;                                                              \
        int32_t at_a = direct_ ? kids_of(g, a, var) : -2,                                          \
                at_b = direct_ ? kids_of(g, b, var) : -2;                                          \
        int32_t at_c = direct_ ? kids_of(g, c, var) : -2;                                          \
        if (direct_ && (at_a >= 0) + (at_b >= 0) + (at_c >= 0) == 1) {                             \
            /* one operand tests var (a wide one's children in runs): its                          \
             * children alone change, the same calls in the same order */                          \
            gref ca_ = a, cb_ = b, cc_ = c, prev_ = 0;                                             \
            gref *one_ = at_a >= 0 ? &ca_ : at_b >= 0 ? &cb_ : &cc_;                               \
            int32_t at_ = at_a >= 0 ? at_a : at_b >= 0 ? at_b : at_c;                              \
            for (int i = 0; i < n_; i++) {                                                         \
                gref k_ = (g)->kids[at_ + i];                                                      \
                if (i > 0 && k_ == prev_) {                                                        \
                    kids_[i] = kids_[i - 1];                                                       \
                } else {                                                                           \
                    *one_ = k_;                                                                    \
                    kids_[i] = (call);                                                             \
                }                                                                                  \
                prev_ = k_;                                                                        \
            }                                                                                      \
        } else if (direct_) { /* children read where they lie */                                   \
            gref pa_ = 0, pb_ = 0, pc_ = 0;                                                        \
            for (int i = 0; i < n_; i++) {                                                         \
                gref ca_ = at_a >= 0 ? (g)->kids[at_a + i] : a;                                    \
                gref cb_ = at_b >= 0 ? (g)->kids[at_b + i] : b;                                    \
                gref cc_ = at_c >= 0 ? (g)->kids[at_c + i] : c;                                    \
                kids_[i] =                                                                         \
                    i > 0 && ca_ == pa_ && cb_ == pb_ && cc_ == pc_ ? kids_[i - 1] : (call);       \
                pa_ = ca_;                                                                         \
                pb_ = cb_;                                                                         \
                pc_ = cc_;                                                                         \
            }                                                                                      \
        } else {                                                                                   \
            gref pa_ = 0, pb_ = 0, pc_ = 0;                                                        \
            for (int i = 0; i < n_; i++) {                                                         \
                gref ca_ = kid_at(g, a, at_a, var, i), cb_ = kid_at(g, b, at_b, var, i);           \
                gref cc_ = kid_at(g, c, at_c, var, i);                                             \
                kids_[i] =                                                                         \
                    i > 0 && ca_ == pa_ && cb_ == pb_ && cc_ == pc_ ? kids_[i - 1] : (call);       \
                pa_ = ca_;                                                                         \
                pb_ = cb_;                                                                         \
                pc_ = cc_;                                                                         \
            }                                                                                      \
        }                                                                                          \
        result = graph_node_ref((g), (var), kids_);                                                \
        if (kids_ != stack_) xfree(kids_);                                                         \
    } while (0)

gref graph_apply1(graph *g, uint64_t op, gref a, graph_fn1 fn, void *ctx) {
    gref result;
    cache_key key = {op, a, 0, 1, 0};
    if (cache_get(g, &key, &result)) return result;
    if (!spend(g)) return too_large(g);
    if (GRAPH_IS_TERM(a)) {
        graph_term t = fn(ctx, *graph_term_at(g, a));
        return cache_put(g, &key, graph_term_ref(g, t.kind, t.v));
    }
    int var = g->nodes[a].var;
    EXPAND3(g, var, a, GRAPH_NONE, GRAPH_NONE, graph_apply1(g, op, ca_, fn, ctx));
    return cache_put(g, &key, result);
}

/* The result without a walk, where the laws give it. */
static bool by_law(const graph *g, const graph_laws *laws, gref a, gref b, gref *out) {
    if (!laws) return false;
    if (a == laws->unit ||
        (GRAPH_IS_TERM(a) && (laws->absorbing >> graph_term_at(g, a)->kind & 1))) {
        *out = a == laws->unit ? b : a;
        return true;
    }
    if (b == laws->unit) {
        *out = a;
        return true;
    }
    return false;
}

static gref apply2(graph *g, uint64_t op, gref a, gref b, graph_fn2 fn, void *ctx,
                   const graph_laws *laws) {
    gref result;
    if (by_law(g, laws, a, b, &result)) return result;
    cache_key key = {op, a, b, 2, 0};
    if (cache_get(g, &key, &result)) return result;
    if (!spend(g)) return too_large(g);
    if (GRAPH_IS_TERM(a) && GRAPH_IS_TERM(b)) {
        graph_term t = fn(ctx, *graph_term_at(g, a), *graph_term_at(g, b));
        return cache_put(g, &key, graph_term_ref(g, t.kind, t.v));
    }
    int va = top_var(g, a), vb = top_var(g, b);
    int var = va < vb ? va : vb;
    EXPAND3(g, var, a, b, GRAPH_NONE, apply2(g, op, ca_, cb_, fn, ctx, laws));
    return cache_put(g, &key, result);
}

gref graph_apply2(graph *g, uint64_t op, gref a, gref b, graph_fn2 fn, void *ctx) {
    return apply2(g, op, a, b, fn, ctx, NULL);
}

gref graph_apply2_laws(graph *g, uint64_t op, gref a, gref b, graph_fn2 fn, void *ctx,
                       const graph_laws *laws) {
    return apply2(g, op, a, b, fn, ctx, laws);
}

/* --- sums of variables ---------------------------------------------------- */

/* graph_linear builds fn(sum) a level at a time: a node for each partial
 * sum a level can see, kept in a table of its own (the operation cache may
 * forget, and forgetting here would redo whole subgraphs). */
typedef struct linear_slot {
    int64_t sum;
    int level; /* -1: free */
    gref r;
} linear_slot;

typedef struct linear_build {
    graph *g;
    const graph_sum *s;
    graph_fn1 fn;
    void *ctx;
    linear_slot *memo;
    int cap, used;
} linear_build;

static linear_slot *linear_find(linear_build *b, int level, int64_t sum) {
    uint64_t mask = (uint64_t)b->cap - 1;
    uint64_t h = mix((uint64_t)level, (uint64_t)sum) & mask;
    while (b->memo[h].level >= 0 && (b->memo[h].level != level || b->memo[h].sum != sum))
        h = (h + 1) & mask;
    return &b->memo[h];
}

static void linear_grow(linear_build *b) {
    linear_build old = *b;
    b->cap = old.cap ? old.cap * 2 : 256;
    b->memo = xrealloc(NULL, sizeof *b->memo * (size_t)b->cap);
    for (int i = 0; i < b->cap; i++)
        b->memo[i].level = -1;
    for (int i = 0; i < old.cap; i++)
        if (old.memo[i].level >= 0)
            *linear_find(b, old.memo[i].level, old.memo[i].sum) = old.memo[i];
    xfree(old.memo);
}

static gref linear_at(linear_build *b, int level, int64_t sum) {
    graph *g = b->g;
    if (level == b->s->n) {
        graph_term t = b->fn(b->ctx, (graph_term){TERM_VALUE, sum});
        return graph_term_ref(g, t.kind, t.v);
    }
    linear_slot *slot = linear_find(b, level, sum);
    if (slot->level >= 0) return slot->r;
    if (!spend(g)) return too_large(g);
    int var = b->s->var[level];
    int64_t coef = b->s->coef[level];
    gref result;
    EXPAND(g, var, linear_at(b, level + 1, sum + coef * (g->lo[var] + i)));
    if (2 * (b->used + 1) > b->cap) linear_grow(b);
    *linear_find(b, level, sum) = (linear_slot){sum, level, result};
    b->used++;
    return result;
}

gref graph_linear(graph *g, const graph_sum *s, graph_fn1 fn, void *ctx) {
    linear_build b = {g, s, fn, ctx, NULL, 0, 0};
    linear_grow(&b);
    gref r = linear_at(&b, 0, s->k);
    xfree(b.memo);
    return r;
}

#define OP_ITE UINT64_C(0xffff000000000001)
#define OP_REPLACE UINT64_C(0xffff000000000002)
#define OP_RESTRICT UINT64_C(0xffff000000000003)
#define OP_EXISTS UINT64_C(0xffff000000000004)

gref graph_ite(graph *g, gref c, gref t, gref e) {
    gref result;
    if (GRAPH_IS_TERM(c)) {
        const graph_term *ct = graph_term_at(g, c);
        if (ct->kind != TERM_VALUE) return c;
        return ct->v ? t : e;
    }
    if (t == e) return t;
    cache_key key = {OP_ITE, c, t, e, 0};
    if (cache_get(g, &key, &result)) return result;
    if (!spend(g)) return too_large(g);
    int var = top_var(g, c);
    int vt = top_var(g, t), ve = top_var(g, e);
    if (vt < var) var = vt;
    if (ve < var) var = ve;
    EXPAND3(g, var, c, t, e, graph_ite(g, ca_, cb_, cc_));
    return cache_put(g, &key, result);
}

static bool is_false(const graph *g, gref r) {
    return GRAPH_IS_TERM(r) && graph_term_at(g, r)->kind == TERM_VALUE &&
           graph_term_at(g, r)->v == 0;
}

/* The care set with its top variable forgotten: true where some value of it
 * makes care true. */
static gref exists_top(graph *g, gref care) {
    gref result;
    cache_key key = {OP_EXISTS, care, 0, 4, 0};
    if (cache_get(g, &key, &result)) return result;
    if (!spend(g)) return too_large(g);
    int var = g->nodes[care].var;
    gref one = graph_term_ref(g, TERM_VALUE, 1);
    result = graph_term_ref(g, TERM_VALUE, 0);
    /* the node is read afresh each time: building may unpack the graph */
    for (int i = g->domain[var] - 1; i >= 0; i--)
        result = graph_ite(g, graph_kid(g, &g->nodes[care], i), one, result);
    return cache_put(g, &key, result);
}

gref graph_restrict(graph *g, gref f, gref care) {
    gref result;
    if (GRAPH_IS_TERM(f) || GRAPH_IS_TERM(care))
        return f; /* false care: anything will do; keep f */
    cache_key key = {OP_RESTRICT, f, care, 5, 0};
    if (cache_get(g, &key, &result)) return result;
    if (!spend(g)) return too_large(g);
    int vf = g->nodes[f].var, vc = g->nodes[care].var;
    if (vc < vf) return cache_put(g, &key, graph_restrict(g, f, exists_top(g, care)));
    int n = g->domain[vf];
    gref stack[EXPAND_ON_STACK];
    gref *kids = n <= EXPAND_ON_STACK ? stack : xmalloc(sizeof(gref) * (size_t)n);
    int first_care = -1;
    for (int i = 0; i < n; i++) {
        gref ci = cofactor(g, care, vf, i);
        kids[i] = is_false(g, ci) ? -1 : graph_restrict(g, cofactor(g, f, vf, i), ci);
        if (!is_false(g, ci) && first_care < 0) first_care = i;
    }
    /* Values that cannot occur follow a value that can, so the test may vanish. */
    for (int i = 0; i < n; i++)
        if (is_false(g, cofactor(g, care, vf, i)))
            kids[i] = first_care >= 0 ? kids[first_care] : cofactor(g, f, vf, i);
    result = graph_node_ref(g, vf, kids);
    if (kids != stack) xfree(kids);
    return cache_put(g, &key, result);
}

/* graph_replace_kind's walk: a ruleset's checked root is every article's
 * graph hung under the invariants (tens of thousands of nodes), so the
 * walk is written for two operands and reads children by their offsets in
 * g->kids (building may move the array, never the offsets: nothing is
 * packed while it runs). Where a's subgraph has no terminal of kind `from`
 * the result is a itself, found without a walk: walked, each child would
 * be its own child of a (or the same for every value of `to`'s variable),
 * and the node made from them a, which exists. So the result and the order
 * in which nodes are made are those of the full walk.
 *
 * Most of the walk puts a ruling (a terminal `to`) under a part of the
 * invariants' graph, and the same part under many rulings. The second time
 * a part is met with a ruling, its plan is made: the nodes the walk makes
 * under it, in the order it makes them (children first, in the order of
 * their values; a node met again is the step already made), each child a
 * reference kept as it is, the ruling, or an earlier step. Following the
 * plan makes the same nodes in the same order as the walk through the
 * pairs below it, with one look-up (the node's own) per node instead of
 * one per pair; a node that exists already is found, not made again. */
enum { PLAN_KEEP, PLAN_RULING, PLAN_STEP };
typedef struct replace_plan {
    int nsteps;
    int *var, *first;   /* per step: its variable, where its children's codes begin */
    gref *code;         /* per child: the reference, or the step it is */
    unsigned char *how; /* per child: PLAN_KEEP, PLAN_RULING or PLAN_STEP */
} replace_plan;

typedef struct replace_walk {
    graph *g;
    uint64_t op;
    int from;
    unsigned char *reaches; /* per node of a: 0 not yet known, 1 reaches `from` (2 the first
                             * time a ruling is put under it), 3 does not */
    replace_plan **plans;   /* per node of a, made the second time a ruling is put under it */
    uint32_t *seen, stamp;  /* per node of a: the plan being made holds it (seen == stamp) */
    int *step;              /* ... as this step */
    int nknown;             /* the nodes there were when the walk began */
} replace_walk;

static bool replace_needed(replace_walk *w, gref a) {
    if (GRAPH_IS_TERM(a)) return graph_term_at(w->g, a)->kind == w->from;
    if (w->reaches[a]) return w->reaches[a] != 3;
    const graph_node *nd = &w->g->nodes[a];
    bool found = false;
    for (int i = 0; i < w->g->domain[nd->var] && !found; i++)
        found = replace_needed(w, w->g->kids[nd->kids + i]);
    w->reaches[a] = found ? 1 : 3;
    return found;
}

static gref replace_rec(replace_walk *w, gref a, gref to);

/* A child of the walk: terminals settled here, without a call. */
static inline gref replace_kid(replace_walk *w, gref a, gref to) {
    if (GRAPH_IS_TERM(a)) return graph_term_at(w->g, a)->kind == w->from ? to : a;
    return replace_rec(w, a, to);
}

static int plan_step(replace_walk *w, replace_plan *p, gref a, int *cap, int *capcode) {
    if (w->seen[a] == w->stamp) return w->step[a];
    graph *g = w->g;
    const graph_node nd = g->nodes[a];
    int n = g->domain[nd.var];
    for (int i = 0; i < n; i++) {
        gref ca = g->kids[nd.kids + i];
        if (!GRAPH_IS_TERM(ca) && replace_needed(w, ca)) plan_step(w, p, ca, cap, capcode);
    }
    if (p->nsteps == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        p->var = xrealloc(p->var, sizeof *p->var * (size_t)*cap);
        p->first = xrealloc(p->first, sizeof *p->first * (size_t)(*cap + 1));
    }
    int at = p->nsteps ? p->first[p->nsteps] : 0;
    while (at + n > *capcode) {
        *capcode = *capcode ? 2 * *capcode : 256;
        p->code = xrealloc(p->code, sizeof *p->code * (size_t)*capcode);
        p->how = xrealloc(p->how, (size_t)*capcode);
    }
    for (int i = 0; i < n; i++) {
        gref ca = g->kids[nd.kids + i];
        bool term = GRAPH_IS_TERM(ca);
        p->how[at + i] = term ? (graph_term_at(g, ca)->kind == w->from ? PLAN_RULING : PLAN_KEEP)
                              : (replace_needed(w, ca) ? PLAN_STEP : PLAN_KEEP);
        p->code[at + i] = p->how[at + i] == PLAN_STEP ? w->step[ca] : ca;
    }
    p->var[p->nsteps] = nd.var;
    p->first[p->nsteps] = at;
    p->first[p->nsteps + 1] = at + n;
    w->seen[a] = w->stamp;
    return w->step[a] = p->nsteps++;
}

static replace_plan *plan_of(replace_walk *w, gref a) {
    if (w->plans[a]) return w->plans[a];
    replace_plan *p = xcalloc(1, sizeof *p);
    int cap = 0, capcode = 0;
    if (++w->stamp == 0) { /* wrapped */
        memset(w->seen, 0, sizeof *w->seen * (size_t)(w->nknown + 1));
        w->stamp = 1;
    }
    plan_step(w, p, a, &cap, &capcode);
    return w->plans[a] = p;
}

/* The walk of (a, a ruling) by a's plan: the same nodes made, in the same
 * order, as the walk through the pairs below it, without the look-ups. */
static gref plan_put(replace_walk *w, const replace_plan *p, gref to) {
    graph *g = w->g;
    gref *made = xmalloc(sizeof *made * (size_t)p->nsteps);
    gref stack[EXPAND_ON_STACK];
    for (int s = 0; s < p->nsteps; s++) {
        int n = g->domain[p->var[s]], at = p->first[s];
        gref *kids = n <= EXPAND_ON_STACK ? stack : xmalloc(sizeof(gref) * (size_t)n);
        for (int i = 0; i < n; i++)
            kids[i] = p->how[at + i] == PLAN_KEEP     ? p->code[at + i]
                      : p->how[at + i] == PLAN_RULING ? to
                                                      : made[p->code[at + i]];
        made[s] = graph_node_ref(g, p->var[s], kids);
        if (kids != stack) xfree(kids);
    }
    gref r = made[p->nsteps - 1];
    xfree(made);
    return r;
}

static gref replace_rec(replace_walk *w, gref a, gref to) {
    graph *g = w->g;
    gref result;
    if (!replace_needed(w, a)) return a;
    cache_key key = {w->op, a, to, 3, 0};
    if (cache_get(g, &key, &result)) return result;
    /* a plan is made for a part a second ruling is put under: most of the
     * rest are put under once */
    if (GRAPH_IS_TERM(to) && w->reaches[a] == 1) {
        w->reaches[a] = 2;
    } else if (GRAPH_IS_TERM(to)) {
        const replace_plan *p = plan_of(w, a);
        if (g->work + (uint64_t)p->nsteps <= GRAPH_MAX_WORK) { /* else step by step, below */
            g->work += (uint64_t)p->nsteps;
            return cache_put(g, &key, plan_put(w, p, to));
        }
    }
    if (!spend(g)) return too_large(g);
    /* Walk `to` alongside: where a has tested a variable, `to` follows the
     * same value, so no path tests a variable twice. */
    int var = g->nodes[a].var, vt = top_var(g, to);
    if (vt < var) var = vt;
    int32_t at_a = g->nodes[a].var == var ? g->nodes[a].kids : -1;
    int32_t at_to = kids_of(g, to, var);
    int n = g->domain[var];
    gref stack[EXPAND_ON_STACK];
    gref *kids = n <= EXPAND_ON_STACK ? stack : xrealloc(NULL, sizeof(gref) * (size_t)n);
    if (at_to < 0) { /* the usual case: `to` a ruling, a's children walked */
        gref pa = 0;
        for (int i = 0; i < n; i++) {
            gref ca = g->kids[at_a + i];
            kids[i] = i > 0 && ca == pa ? kids[i - 1] : replace_kid(w, ca, to);
            pa = ca;
        }
    } else {
        gref pa = 0, pt = 0;
        for (int i = 0; i < n; i++) {
            gref ca = at_a >= 0 ? g->kids[at_a + i] : a, ct = g->kids[at_to + i];
            kids[i] = i > 0 && ca == pa && ct == pt ? kids[i - 1] : replace_kid(w, ca, ct);
            pa = ca;
            pt = ct;
        }
    }
    result = graph_node_ref(g, var, kids);
    if (kids != stack) xfree(kids);
    return cache_put(g, &key, result);
}

gref graph_replace_kind(graph *g, gref a, int from, gref to) {
    if (GRAPH_IS_TERM(a)) return graph_term_at(g, a)->kind == from ? to : a;
    graph_unpack(g); /* children read in place */
    /* a's nodes all exist before the walk, and the walk reads no other */
    replace_walk w = {g,
                      OP_REPLACE ^ ((uint64_t)from << 32),
                      from,
                      xcalloc((size_t)g->nnodes + 1, 1),
                      xcalloc((size_t)g->nnodes + 1, sizeof(replace_plan *)),
                      xcalloc((size_t)g->nnodes + 1, sizeof(uint32_t)),
                      0,
                      xmalloc(sizeof(int) * ((size_t)g->nnodes + 1)),
                      g->nnodes};
    gref r = replace_rec(&w, a, to);
    for (int i = 0; i < w.nknown; i++) {
        replace_plan *p = w.plans[i];
        if (!p) continue;
        xfree(p->var);
        xfree(p->first);
        xfree(p->code);
        xfree(p->how);
        xfree(p);
    }
    xfree(w.plans);
    xfree(w.seen);
    xfree(w.step);
    xfree(w.reaches);
    return r;
}

/* --- a conjunction tested without building it ---------------------------- */

/* The pairs already searched without finding a situation: each is searched
 * once, so a search is bounded by the product of the two graphs' sizes. */
typedef struct pair_set {
    uint64_t *slots; /* (a, b) + 1; 0 is empty */
    size_t n, cap;
} pair_set;

static bool pair_seen(pair_set *s, gref a, gref b) {
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint64_t *slots = xrealloc(NULL, sizeof *slots * cap);
        memset(slots, 0, sizeof *slots * cap);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slots[i]) continue;
            uint64_t h = mix(0, s->slots[i]) & (cap - 1);
            while (slots[h])
                h = (h + 1) & (cap - 1);
            slots[h] = s->slots[i];
        }
        xfree(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    uint64_t key = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
    uint64_t h = mix(0, key) & (s->cap - 1);
    for (; s->slots[h]; h = (h + 1) & (s->cap - 1))
        if (s->slots[h] == key) return true;
    s->slots[h] = key;
    s->n++;
    return false;
}

/* Whether graph_ite(a, b, false) is anything but the value 0 somewhere,
 * following graph_ite step by step: a terminal a that is not a value is
 * passed through, a value chooses b or 0, and where b is 0 the result is 0
 * whatever a is (graph_ite's t == e). A graph other than the terminal 0 is
 * not 0 somewhere: it is reduced. */
static bool and_somewhere(graph *g, gref a, gref b, pair_set *seen) {
    if (GRAPH_IS_TERM(a)) {
        if (graph_term_at(g, a)->kind != TERM_VALUE) return true;
        return graph_term_at(g, a)->v != 0 && !is_false(g, b);
    }
    if (is_false(g, b)) return false;
    if (GRAPH_IS_TERM(b)) return true;
    if (pair_seen(seen, a, b)) return false;
    int var = top_var(g, a), vb = top_var(g, b);
    if (vb < var) var = vb;
    for (int i = 0; i < g->domain[var]; i++)
        if (and_somewhere(g, cofactor(g, a, var, i), cofactor(g, b, var, i), seen)) return true;
    return false;
}

bool graph_and_is_false(graph *g, gref a, gref b) {
    pair_set seen = {NULL, 0, 0};
    bool somewhere = and_somewhere(g, a, b, &seen);
    xfree(seen.slots);
    return !somewhere;
}

static int walk_mark(const graph *g, gref r, unsigned char *seen) {
    if (GRAPH_IS_TERM(r) || seen[r]) return 0;
    seen[r] = 1;
    int n = 1;
    const graph_node *nd = &g->nodes[r];
    for (int i = 0; i < g->domain[nd->var]; i++)
        n += walk_mark(g, graph_kid(g, nd, i), seen);
    return n;
}

int graph_size(const graph *g, gref r) {
    unsigned char *seen = xcalloc((size_t)g->nnodes + 1, 1);
    int n = walk_mark(g, r, seen);
    xfree(seen);
    return n;
}

/* A fresh stamp for a search that creates no nodes meanwhile. */
static uint32_t visit_start(graph *g) {
    if (g->capvisited < g->nnodes) {
        int cap = g->nnodes > 2 * g->capvisited ? g->nnodes : 2 * g->capvisited;
        g->visited = xrealloc(g->visited, sizeof *g->visited * (size_t)cap);
        memset(g->visited + g->capvisited, 0, sizeof *g->visited * (size_t)(cap - g->capvisited));
        g->capvisited = cap;
    }
    if (++g->stamp == 0) { /* wrapped: no old stamp may look fresh */
        memset(g->visited, 0, sizeof *g->visited * (size_t)g->capvisited);
        g->stamp = 1;
    }
    return g->stamp;
}

static bool reaches(graph *g, gref r, int kind, uint32_t stamp) {
    if (GRAPH_IS_TERM(r)) return graph_term_at(g, r)->kind == kind;
    if (g->visited[r] == stamp) return false;
    g->visited[r] = stamp;
    const graph_node *nd = &g->nodes[r];
    for (int i = 0; i < g->domain[nd->var]; i++)
        if (reaches(g, graph_kid(g, nd, i), kind, stamp)) return true;
    return false;
}

bool graph_reaches_kind(graph *g, gref r, int kind) {
    if (GRAPH_IS_TERM(r)) return graph_term_at(g, r)->kind == kind;
    return reaches(g, r, kind, visit_start(g));
}

/* --- compaction ----------------------------------------------------------- */

static void *shrink(void *p, size_t n) {
    return xrealloc(p, n);
}

int graph_compact(graph *g, gref *const *roots, int nroots) {
    graph_own(g);
    graph_unpack(g);
    /* Nodes reachable from the roots: children are made before their
     * parents, so one pass from the highest index down marks them all. */
    int32_t *node_map = xrealloc(NULL, sizeof(int32_t) * (size_t)(g->nnodes + 1));
    int32_t *term_map = xrealloc(NULL, sizeof(int32_t) * (size_t)(g->nterms + 1));
    for (int i = 0; i < g->nnodes; i++)
        node_map[i] = -1;
    for (int i = 0; i < g->nterms; i++)
        term_map[i] = -1;
    unsigned char *live = xcalloc((size_t)g->nnodes + 1, 1);
    for (int k = 0; k < nroots; k++)
        if (!GRAPH_IS_TERM(*roots[k])) live[*roots[k]] = 1;
    for (int i = g->nnodes - 1; i >= 0; i--) {
        if (!live[i]) continue;
        const gref *kids = &g->kids[g->nodes[i].kids];
        int n = g->domain[g->nodes[i].var];
        for (int c = 0; c < n; c++)
            if (!GRAPH_IS_TERM(kids[c])) live[kids[c]] = 1;
    }
    /* Terminals in order of first use by a kept node (or a root), nodes in
     * their old order: a child still comes before its parents. */
    int nnodes = 0, nkids = 0, nterms = 0;
    graph_term *terms = xrealloc(NULL, sizeof(graph_term) * (size_t)(g->nterms + 1));
    for (int k = 0; k < nroots; k++)
        if (GRAPH_IS_TERM(*roots[k]) && term_map[GRAPH_TERM_INDEX(*roots[k])] < 0) {
            term_map[GRAPH_TERM_INDEX(*roots[k])] = nterms;
            terms[nterms++] = g->terms[GRAPH_TERM_INDEX(*roots[k])];
        }
    for (int i = 0; i < g->nnodes; i++) {
        if (!live[i]) continue;
        const graph_node nd = g->nodes[i];
        int n = g->domain[nd.var];
        for (int c = 0; c < n; c++) {
            gref kid = g->kids[nd.kids + c];
            if (GRAPH_IS_TERM(kid)) {
                int t = GRAPH_TERM_INDEX(kid);
                if (term_map[t] < 0) {
                    term_map[t] = nterms;
                    terms[nterms++] = g->terms[t];
                }
                kid = -1 - term_map[t];
            } else {
                kid = node_map[kid];
            }
            g->kids[nkids + c] = kid; /* nkids <= nd.kids: the copy never overtakes what it reads */
        }
        g->nodes[nnodes] = (graph_node){nd.var, nkids};
        node_map[i] = nnodes++;
        nkids += n;
    }
    for (int k = 0; k < nroots; k++)
        *roots[k] = GRAPH_IS_TERM(*roots[k]) ? -1 - term_map[GRAPH_TERM_INDEX(*roots[k])]
                                             : node_map[*roots[k]];
    xfree(g->terms);
    g->terms = terms;
    g->last_term_ref = 0; /* terminals renumbered */
    g->nnodes = nnodes;
    g->nkids = nkids;
    g->nterms = nterms;
    g->capnodes = nnodes;
    g->capkids = nkids;
    g->capterms = nterms;
    g->nodes = shrink(g->nodes, sizeof *g->nodes * (size_t)(nnodes + 1));
    g->kids = shrink(g->kids, sizeof *g->kids * (size_t)(nkids + 1));
    g->terms = shrink(g->terms, sizeof *g->terms * (size_t)(nterms + 1));
    graph_done_building(g); /* the indexes named the old numbers: made again when needed */
    xfree(live);
    xfree(node_map);
    xfree(term_map);
    graph_pack(g);
    return nnodes;
}

/* --- packed children ------------------------------------------------------ */

static int count_runs(const gref *kids, int n) {
    int r = 1;
    for (int i = 1; i < n; i++)
        r += kids[i] != kids[i - 1];
    return r;
}

/* Writes the runs of kids[0..n) to out as graph_node describes; returns the
 * number of words written. */
static int write_runs(const gref *kids, int n, int r, gref *out) {
    out[0] = r;
    for (int i = 0, j = 0; i < n; i++)
        if (i == n - 1 || kids[i + 1] != kids[i]) {
            out[1 + j] = i;
            out[1 + r + j++] = kids[i];
        }
    return 1 + 2 * r;
}

int graph_pack(graph *g) {
    graph_own(g);
    graph_unpack(g); /* packing reads direct children */
    int widest = 1;
    for (int v = 0; v < g->nvars; v++)
        if (g->domain[v] > widest) widest = g->domain[v];
    gref *runs = xrealloc(NULL, sizeof(gref) * (size_t)(2 * widest + 1));
    /* Children lie in node order and no node grows, so the new layout is
     * written over the old one, never ahead of what is still to be read. */
    int w = 0;
    for (int i = 0; i < g->nnodes; i++) {
        graph_node *nd = &g->nodes[i];
        int n = g->domain[nd->var];
        const gref *kids = &g->kids[nd->kids];
        int r = n >= GRAPH_PACK_MIN_DOMAIN ? count_runs(kids, n) : n;
        if (n >= GRAPH_PACK_MIN_DOMAIN && 2 * (1 + 2 * r) <= n) {
            int len = write_runs(kids, n, r, runs);
            memcpy(&g->kids[w], runs, sizeof(gref) * (size_t)len);
            nd->kids = -1 - w;
            w += len;
            g->npacked++;
        } else {
            if (w != nd->kids) memmove(&g->kids[w], kids, sizeof(gref) * (size_t)n);
            nd->kids = w;
            w += n;
        }
    }
    xfree(runs);
    g->nkids = g->capkids = w;
    g->kids = shrink(g->kids, sizeof *g->kids * (size_t)(w + 1));
    return g->npacked;
}

int graph_unpack(graph *g) {
    if (!g->npacked) return 0;
    graph_own(g);
    size_t total = 0;
    for (int i = 0; i < g->nnodes; i++)
        total += (size_t)g->domain[g->nodes[i].var];
    gref *kids = xrealloc(NULL, sizeof(gref) * (total + 1));
    int w = 0;
    for (int i = 0; i < g->nnodes; i++) {
        graph_node *nd = &g->nodes[i];
        int n = g->domain[nd->var];
        for (int c = 0; c < n; c++)
            kids[w + c] = graph_kid(g, nd, c);
        nd->kids = w;
        w += n;
    }
    xfree(g->kids);
    g->kids = kids;
    g->nkids = g->capkids = w;
    g->npacked = 0;
    return 0;
}

int graph_renumber_kind(graph *g, int kind, int64_t *old) {
    int n = 0;
    for (int i = 0; i < g->nterms; i++) {
        if (g->terms[i].kind != kind) continue;
        old[n] = g->terms[i].v;
        g->terms[i].v = n++;
    }
    g->last_term_ref = 0;
    xfree(g->termhash); /* it hashed the old values */
    g->termhash = NULL;
    g->captermhash = 0;
    return n;
}
