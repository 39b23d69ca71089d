/* graph.h — reduced, ordered decision graphs stored flat.
 *
 * A graph is a DAG over numbered variables (the input facts of a ruleset,
 * in declaration order). An inner node tests one variable and has one child
 * per value of its domain; leaves are terminals (a value, an outcome, a gap,
 * …). Nodes are hash-consed, so identical subgraphs are stored once, and a
 * node whose children are all the same is never made: no test that cannot
 * change the result survives. Variables are tested in increasing order on
 * every path, which makes the representation canonical — two graphs mean
 * the same thing exactly when they are the same reference — and lets two
 * graphs be walked together (apply, diff).
 *
 * Everything lives in arrays indexed by int32 references: evaluation is a
 * short loop of dependent loads.
 */
#ifndef ARBITER_GRAPH_H
#define ARBITER_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

/* >= 0: an inner node; < 0: terminal number -1 - ref. */
typedef int32_t gref;

#define GRAPH_IS_TERM(r) ((r) < 0)
#define GRAPH_TERM_INDEX(r) (-1 - (r))

enum term_kind {
    TERM_VALUE,          /* an expression's value */
    TERM_OUTCOME,        /* a ruling: v indexes the ruleset's outcome table */
    TERM_FALLTHROUGH,    /* no clause of a block taken (yet): compile-time only */
    TERM_GAP,            /* a block whose clauses leave this situation unruled: v = block id */
    TERM_REJECT,         /* the situation breaks invariant v */
    TERM_ERROR,          /* evaluating an expression failed: v = error code */
    TERM_NOT_APPLICABLE, /* outside an article's `when` (per-article graphs) */
    TERM_OUTSIDE         /* a situation the ruleset declares outside its scope: v = declaration */
};

/* A graph holds at most this many children in all (one per value of each
 * node's variable: 4 bytes each): some conditions are exponential as
 * decisions (a product of four facts of 256 values each), and a ruleset
 * that needs more is a runaway one. Past it, graph_node_ref gives the
 * terminal {TERM_ERROR, GRAPH_ERROR_TOO_LARGE} instead of a node, so the
 * build ends quickly and the checker and the evaluator report it (expr.h:
 * EXPR_TOO_LARGE). The largest shipped rulesets peak at about 2 million
 * (bridge-1963 and klaverjas-nkf-1976, before the graph is compacted). */
#ifndef GRAPH_MAX_KIDS
#define GRAPH_MAX_KIDS (1 << 27)
#endif
#define GRAPH_ERROR_TOO_LARGE 5
/* The same for time: operations computed (not found in the cache) between
 * two graph_done_building calls. A blow-up revisits far more than it keeps,
 * so this bounds what the size budget does not: the shipped rulesets take
 * under 400 000 each, and a product of four 256-valued facts reaches the
 * budget in about five seconds instead of running for many minutes. */
#ifndef GRAPH_MAX_WORK
#define GRAPH_MAX_WORK (UINT64_C(1) << 26)
#endif

typedef struct graph_term {
    int32_t kind;
    int64_t v;
} graph_term;

/* A node's children, one per value of its variable, are read with
 * graph_kid. They are stored one of two ways (graph_compact chooses):
 * kids >= 0 — directly: child i is graph.kids[kids + i];
 * kids < 0 — packed, for a wide node whose children form few runs of
 *   equal children (a comparison of a 0..255 fact with a constant is two
 *   runs): at p = -1 - kids, graph.kids[p] is the number of runs r, then r
 *   last values of the runs (indexes, increasing, the last one domain - 1),
 *   then the r children. */
typedef struct graph_node {
    int32_t var;
    int32_t kids;
} graph_node;

typedef struct graph {
    int nvars;
    int *domain; /* number of values of each variable */
    int64_t *lo; /* the value of child 0 of each variable */
    graph_node *nodes;
    int nnodes, capnodes;
    gref *kids;
    int nkids, capkids;
    graph_term *terms;
    int nterms, capterms;
    /* hash-consing and operation cache (build time) */
    int32_t *unique;
    int capunique;
    uint64_t *nodehash; /* node i's hash for i < nhashed: the index grows without rehashing */
    int nhashed, capnodehash;
    int32_t *termhash;
    int captermhash;
    graph_term last_term; /* the terminal graph_term_ref found last, and its reference */
    gref last_term_ref;   /* (0: none; terminals are < 0) */
    struct graph_cache_entry *cache;
    int capcache;
    uint64_t work; /* operations computed (cache misses), against GRAPH_MAX_WORK */
    /* searches mark the nodes they visited with a fresh stamp, so that a
     * search costs the nodes it visits, not the graph's size */
    uint32_t *visited;
    int capvisited;
    uint32_t stamp;
    int npacked; /* nodes stored as runs */
    /* nodes and kids lie in a mapped image (core/store), read-only and
     * not ours to free: copied before the first change (graph_own) */
    bool borrowed;
} graph;

/* Packed is chosen for nodes of at least this many children (ranged ints:
 * klaverjas's roem, counts of scores and tops), and only where the runs
 * take at most half the room. Enums and narrow ints stay one load: the
 * bridge rulesets' hot path (the 27 irregularities at the root, the 38
 * calls, a contract's 20 results) never meets a packed node. */
#define GRAPH_PACK_MIN_DOMAIN 64

/* Child i of a packed node: the run whose last value is the first at or
 * above i (a binary search over the runs' last values). */
static inline gref graph_kid_packed(const graph *g, int32_t kids, int i) {
    const gref *p = &g->kids[-1 - kids];
    int lo = 0, hi = p[0] - 1; /* the last run ends at domain - 1 >= i */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p[1 + mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return p[1 + p[0] + lo];
}

/* Child i (value lo[var] + i) of a node, however it is stored. */
static inline gref graph_kid(const graph *g, const graph_node *nd, int i) {
    return nd->kids >= 0 ? g->kids[nd->kids + i] : graph_kid_packed(g, nd->kids, i);
}

graph *graph_new(int nvars, const int *domain, const int64_t *lo);
void graph_free(graph *g);

gref graph_term_ref(graph *g, int kind, int64_t v);
/* A node is made after its children: a child's index is below its
 * parents' (graph_compact keeps that order; an image without it is
 * refused), so a pass from the highest index down sees parents first. */
gref graph_node_ref(graph *g, int var, const gref *kids);
/* The graph of a variable itself: a node whose children are its values. */
gref graph_var(graph *g, int var);

static inline const graph_term *graph_term_at(const graph *g, gref r) {
    return &g->terms[GRAPH_TERM_INDEX(r)];
}

/* Combine terminals pointwise. The function returns the combined terminal;
 * op identifies the function together with its context (results are cached
 * under it), so two different functions must never share an op. */
typedef graph_term (*graph_fn1)(void *ctx, graph_term a);
typedef graph_term (*graph_fn2)(void *ctx, graph_term a, graph_term b);
gref graph_apply1(graph *g, uint64_t op, gref a, graph_fn1 fn, void *ctx);
gref graph_apply2(graph *g, uint64_t op, gref a, gref b, graph_fn2 fn, void *ctx);

/* What graph_apply2_laws may take for granted about fn, so that it returns
 * at once where they settle the result instead of walking the other graph:
 * fn(unit, b) is b and fn(a, unit) is a (unit a terminal, or
 * GRAPH_NO_UNIT), and fn(a, b) is a for a terminal a whose kind k has bit
 * 1 << k set in absorbing. Joining rulings obeys such laws: the empty
 * ruling is a unit, a gap absorbs what follows. */
#define GRAPH_NO_UNIT INT32_MAX
typedef struct graph_laws {
    gref unit;
    unsigned absorbing;
} graph_laws;
gref graph_apply2_laws(graph *g, uint64_t op, gref a, gref b, graph_fn2 fn, void *ctx,
                       const graph_laws *laws);

/* fn(coef[0] * var[0] + ... + coef[n-1] * var[n-1] + k), for distinct
 * variables in the graph's order (var ascending). Folding the same sum with
 * graph_apply2 expands every value of one side under every value of the
 * other (128^3 steps for a + b == c over three 0..127 counts); built a
 * level at a time it costs one node for each partial sum a level can
 * reach. The caller makes sure that no partial sum overflows. */
typedef struct graph_sum {
    int n;
    const int *var;
    const int64_t *coef;
    int64_t k;
} graph_sum;
gref graph_linear(graph *g, const graph_sum *s, graph_fn1 fn, void *ctx);

/* if c then t else e; c's terminals are values (0 false, else true); any
 * other terminal of c is passed through. */
gref graph_ite(graph *g, gref c, gref t, gref e);

/* f simplified where care is false (care's terminals are values 0/1): the
 * result agrees with f wherever care holds and tests no more variables than
 * f, often fewer (the generalized cofactor of Coudert and Madre). This is
 * how invariants keep `ask` from asking about impossible situations. */
gref graph_restrict(graph *g, gref f, gref care);

/* Whether graph_ite(g, a, b, false), "a and b", is the value 0 in every
 * situation, found by a search that makes no node and stops at the first
 * situation where it is not: cheaper than building the conjunction to
 * compare it with 0, when only that is asked. */
bool graph_and_is_false(graph *g, gref a, gref b);

/* Replace every terminal of kind `from` by `to`. */
gref graph_replace_kind(graph *g, gref a, int from, gref to);

/* Frees the build-time tables (operation cache, hash-consing index); they
 * are made again if the graph is built on later. */
void graph_done_building(graph *g);

/* Keeps only the nodes and terminals reachable from the roots, in arrays of
 * exactly that size, and updates each *roots[k] to its new reference:
 * what building left behind (the intermediate results of every operation)
 * is freed. Every other reference into g is invalid afterwards, and so are
 * the build-time tables (made again if g is built on). Wide nodes whose
 * children form few runs are then packed (graph_pack). Returns the number
 * of inner nodes kept. */
int graph_compact(graph *g, gref *const *roots, int nroots);

/* The storage of children only, references and meaning unchanged:
 * graph_pack stores as runs the nodes where that pays (see graph_node),
 * graph_unpack stores every node directly again. Building on a packed
 * graph unpacks it first (graph_node_ref): nodes are hash-consed on their
 * direct children. Both return the number of nodes packed afterwards. */
int graph_pack(graph *g);
int graph_unpack(graph *g);

/* Renumbers the values of the terminals of one kind to 0..n-1, in terminal
 * order, and writes the old value of each to old[new] (room for
 * g->nterms): after graph_compact, how a caller drops the entries of a
 * table the terminals index (a ruleset's outcomes) that no root reaches.
 * Returns n. */
int graph_renumber_kind(graph *g, int kind, int64_t *old);

/* Number of inner nodes reachable from r. */
int graph_size(const graph *g, gref r);

/* Whether some path from r reaches a terminal of this kind. It marks the
 * nodes it visits in g (a graph being built, as the diff's): not for a
 * ruleset's graph that other threads read. */
bool graph_reaches_kind(graph *g, gref r, int kind);

#endif
