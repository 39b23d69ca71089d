/* test_graph_pack.c — unit tests of packed children (core/engine/graph.c:
 * graph_pack, graph_unpack, graph_kid), the storage graph_compact gives
 * wide nodes whose children form few runs.
 *
 * Covers: every child of a packed node is found, for runs of every length
 * at both ends of the domain; which nodes are packed (wide with few runs)
 * and which stay direct (narrow, or many runs); the functions of the roots
 * are unchanged by compaction and packing (checked on every assignment
 * against values computed here); building on a packed graph unpacks it and
 * stays canonical (hash-consing finds a packed node again); packing again
 * and compacting a packed graph keep every reference and function.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* x and y wide (y's values start at -10), z narrow: the order x, y, z. */
enum { X, Y, Z, NVARS };
static const int domain[NVARS] = {256, 256, 3};
static const int64_t lo[NVARS] = {0, -10, 0};

static gref val(graph *g, int64_t v) {
    return graph_term_ref(g, TERM_VALUE, v);
}

/* The value of r where x, y, z have the values (not indexes) given. */
static int64_t at(const graph *g, gref r, int64_t x, int64_t y, int64_t z) {
    const int64_t v[NVARS] = {x, y, z};
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        r = graph_kid(g, nd, (int)(v[nd->var] - g->lo[nd->var]));
    }
    assert_int_equal(graph_term_at(g, r)->kind, TERM_VALUE);
    return graph_term_at(g, r)->v;
}

static graph_term less(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v < b.v};
}
static graph_term at_least_100(void *ctx, graph_term a) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v >= 100};
}
static graph_term odd(void *ctx, graph_term a) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v % 2 != 0};
}
static graph_term is_one(void *ctx, graph_term a) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v == 1};
}
static graph_term plus(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v + b.v};
}

typedef struct roots {
    gref thresh; /* x >= 100: two runs, packed */
    gref cmp;    /* x < y: x direct (256 different y nodes), each y node two runs */
    gref alt;    /* x odd: 256 runs, direct */
    gref narrow; /* z == 1: narrow, direct */
    gref mixed;  /* (x >= 100) + (x < y) + (z == 1) */
} roots;

static graph *build(roots *r) {
    graph *g = graph_new(NVARS, domain, lo);
    gref x = graph_var(g, X), y = graph_var(g, Y), z = graph_var(g, Z);
    r->thresh = graph_apply1(g, 1, x, at_least_100, NULL);
    r->cmp = graph_apply2(g, 2, x, y, less, NULL);
    r->alt = graph_apply1(g, 3, x, odd, NULL);
    r->narrow = graph_apply1(g, 4, z, is_one, NULL);
    r->mixed = graph_apply2(g, 5, graph_apply2(g, 5, r->thresh, r->cmp, plus, NULL), r->narrow,
                            plus, NULL);
    return g;
}

static void compact(graph *g, roots *r) {
    gref *all[] = {&r->thresh, &r->cmp, &r->alt, &r->narrow, &r->mixed};
    graph_compact(g, all, 5);
}

/* Every root means what it was built as, on every assignment (z only
 * where it is tested, on every value). */
static void assert_functions(const graph *g, const roots *r) {
    for (int64_t x = 0; x < 256; x++) {
        assert_int_equal(at(g, r->thresh, x, 0, 0), x >= 100);
        assert_int_equal(at(g, r->alt, x, 0, 0), x % 2);
        for (int64_t y = -10; y < 246; y++) {
            assert_int_equal(at(g, r->cmp, x, y, 0), x < y);
            for (int64_t z = 0; z < 3; z++)
                assert_int_equal(at(g, r->mixed, x, y, z), (x >= 100) + (x < y) + (z == 1));
        }
    }
    for (int64_t z = 0; z < 3; z++)
        assert_int_equal(at(g, r->narrow, 0, 0, z), z == 1);
}

static bool packed(const graph *g, gref r) {
    return !GRAPH_IS_TERM(r) && g->nodes[r].kids < 0;
}

static void test_every_child_of_a_packed_node(void **state) {
    (void)state;
    /* For each layout of runs, a node of 256 children whose runs end at
     * the given last values: single-value runs at both ends, in the
     * middle, and as many runs as packing allows. */
    static const int ends[][10] = {
        {255},             /* not a node: all equal */
        {0, 255},          /* a run of one at the start */
        {254, 255},        /* a run of one at the end */
        {99, 255},         /* a threshold */
        {9, 10, 255},      /* a run of one in the middle */
        {0, 1, 2, 3, 255}, /* several at the start */
        {31, 63, 95, 127, 159, 191, 223, 255},
    };
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        graph *g = graph_new(NVARS, domain, lo);
        gref kids[256];
        for (int i = 0, run = 0; i < 256; i++) {
            kids[i] = val(g, 1000 + run);
            if (i == ends[k][run]) run++;
        }
        gref r = graph_node_ref(g, X, kids);
        gref *roots[] = {&r};
        graph_compact(g, roots, 1);
        if (k == 0) {
            assert_true(GRAPH_IS_TERM(r));
        } else {
            assert_true(packed(g, r));
            assert_int_equal(g->npacked, 1);
            for (int i = 0, run = 0; i < 256; i++) {
                assert_int_equal(graph_term_at(g, graph_kid(g, &g->nodes[r], i))->v, 1000 + run);
                if (i == ends[k][run]) run++;
            }
        }
        graph_free(g);
    }
}

static void test_which_nodes_are_packed(void **state) {
    (void)state;
    roots r;
    graph *g = build(&r);
    compact(g, &r);
    assert_true(packed(g, r.thresh));
    assert_false(packed(g, r.cmp)); /* 256 different children */
    assert_true(packed(g, graph_kid(g, &g->nodes[r.cmp], 7)));
    assert_false(packed(g, r.alt));
    assert_false(packed(g, r.narrow));
    int n = 0;
    for (int i = 0; i < g->nnodes; i++)
        n += g->nodes[i].kids < 0;
    assert_int_equal(g->npacked, n);
    /* the threshold's node: the number of runs, their last values, their children */
    assert_int_equal(g->kids[-1 - g->nodes[r.thresh].kids], 2);
    assert_int_equal(g->kids[-1 - g->nodes[r.thresh].kids + 1], 99);
    assert_int_equal(g->kids[-1 - g->nodes[r.thresh].kids + 2], 255);
    /* the y nodes of cmp and mixed take 5 words each, not 256: direct, the
     * children alone were more than 256 * 256 */
    assert_true(g->nkids < 256 * 16);
    graph_unpack(g);
    assert_true(g->nkids > 256 * 256);
    graph_pack(g);
    assert_functions(g, &r);
    graph_free(g);
}

static void test_building_on_a_packed_graph(void **state) {
    (void)state;
    roots r;
    graph *g = build(&r);
    compact(g, &r);
    int nodes = g->nnodes, npacked = g->npacked;
    /* hash-consing finds the packed node again, from its children */
    gref kids[256];
    for (int i = 0; i < 256; i++)
        kids[i] = graph_kid(g, &g->nodes[r.thresh], i);
    assert_int_equal(graph_node_ref(g, X, kids), r.thresh);
    assert_int_equal(g->nnodes, nodes);
    assert_int_equal(g->npacked, 0); /* building unpacked it */
    assert_functions(g, &r);
    /* building the same function again ends at the same reference */
    gref x = graph_var(g, X), y = graph_var(g, Y);
    assert_int_equal(graph_apply2(g, 12, x, y, less, NULL), r.cmp);
    /* an operation on packed children (restrict reads cofactors) */
    graph_pack(g);
    assert_int_equal(g->npacked, npacked);
    gref care = r.thresh; /* only x >= 100 can occur */
    gref f = graph_restrict(g, r.mixed, care);
    for (int64_t xv = 100; xv < 256; xv += 7)
        for (int64_t yv = -10; yv < 246; yv += 5)
            for (int64_t z = 0; z < 3; z++)
                assert_int_equal(at(g, f, xv, yv, z), 1 + (xv < yv) + (z == 1));
    assert_functions(g, &r);
    graph_free(g);
}

static void test_pack_and_compact_again(void **state) {
    (void)state;
    roots r;
    graph *g = build(&r);
    compact(g, &r);
    roots before = r;
    int nodes = g->nnodes, npacked = g->npacked, nkids = g->nkids;
    assert_int_equal(graph_pack(g), npacked); /* packing a packed graph changes nothing */
    assert_int_equal(g->nkids, nkids);
    assert_int_equal(graph_unpack(g), 0);
    assert_int_equal(graph_pack(g), npacked);
    assert_int_equal(g->nkids, nkids);
    assert_functions(g, &r);
    compact(g, &r); /* nothing to drop: the same nodes, in the same order */
    assert_int_equal(g->nnodes, nodes);
    assert_int_equal(g->npacked, npacked);
    assert_memory_equal(&before, &r, sizeof r);
    assert_functions(g, &r);
    /* dropping roots drops their nodes, packed ones too */
    gref *only[] = {&r.narrow};
    graph_compact(g, only, 1);
    assert_int_equal(g->nnodes, 1);
    assert_int_equal(g->npacked, 0);
    assert_int_equal(at(g, r.narrow, 0, 0, 1), 1);
    graph_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_child_of_a_packed_node),
        cmocka_unit_test(test_which_nodes_are_packed),
        cmocka_unit_test(test_building_on_a_packed_graph),
        cmocka_unit_test(test_pack_and_compact_again),
    };
    return cmocka_run_group_tests_name("graph_pack", tests, NULL, NULL);
}
