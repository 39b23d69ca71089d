/* test_graph_compact.c — unit tests of graph_compact and
 * graph_renumber_kind (core/engine/graph.c), the compaction `make bench` measures
 * and docs/performance.md proposes the compiler call once a ruleset is
 * compiled.
 *
 * Covers: every root means the same function after compaction (checked on
 * every assignment against a truth table computed here); only nodes and
 * terminals reachable from the roots are kept (intermediate results of
 * building are dropped); arrays shrink to their size; a root that is a
 * terminal; nodes stay shared between roots; the graph can be built on
 * afterwards and stays canonical (hash-consing finds the kept nodes again);
 * graph_renumber_kind renumbers one kind's values to 0..n-1 and reports
 * the old ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "graph.h"

#define NVARS 4

static graph *bool_graph(void) {
    int domain[NVARS];
    int64_t lo[NVARS];
    for (int i = 0; i < NVARS; i++) {
        domain[i] = 2;
        lo[i] = 0;
    }
    return graph_new(NVARS, domain, lo);
}

static gref val(graph *g, int64_t v) {
    return graph_term_ref(g, TERM_VALUE, v);
}

/* The terminal at an assignment (variable i is bit i of bits). */
static graph_term at(const graph *g, gref r, unsigned bits) {
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        r = graph_kid(g, nd, ((bits >> nd->var) & 1));
    }
    return *graph_term_at(g, r);
}

/* Nodes reachable from r not seen before. */
static int mark(const graph *g, gref r, unsigned char *seen) {
    if (GRAPH_IS_TERM(r) || seen[r]) return 0;
    seen[r] = 1;
    const graph_node *nd = &g->nodes[r];
    return 1 + mark(g, graph_kid(g, nd, 0), seen) + mark(g, graph_kid(g, nd, 1), seen);
}

static graph_term sum(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v + b.v};
}

/* x0 + x1 + x2 + x3, built pairwise: leaves intermediate sums behind. */
static gref count_ones(graph *g) {
    gref s = graph_var(g, 0);
    for (int i = 1; i < NVARS; i++)
        s = graph_apply2(g, 100, s, graph_var(g, i), sum, NULL);
    return s;
}

static void test_roots_keep_their_function(void **state) {
    (void)state;
    graph *g = bool_graph();
    gref ones = count_ones(g);
    gref x0_and_x3 = graph_ite(g, graph_var(g, 0), graph_var(g, 3), val(g, 0));
    gref seven = val(g, 7);
    /* built and dropped: */
    gref dropped = graph_ite(g, graph_var(g, 1), graph_term_ref(g, TERM_OUTCOME, 42), val(g, 5));
    (void)dropped;
    int before_nodes = g->nnodes, before_terms = g->nterms;
    gref *roots[] = {&ones, &x0_and_x3, &seven};
    int kept = graph_compact(g, roots, 3);
    assert_int_equal(kept, g->nnodes);
    assert_true(g->nnodes < before_nodes);
    assert_true(g->nterms < before_terms);
    assert_int_equal(g->capnodes, g->nnodes);
    assert_int_equal(g->capkids, g->nkids);
    assert_int_equal(g->capterms, g->nterms);
    for (unsigned bits = 0; bits < (1u << NVARS); bits++) {
        int n = __builtin_popcount(bits);
        graph_term t = at(g, ones, bits);
        assert_int_equal(t.kind, TERM_VALUE);
        assert_int_equal(t.v, n);
        t = at(g, x0_and_x3, bits);
        assert_int_equal(t.v, (bits & 1) && (bits & 8));
    }
    assert_true(GRAPH_IS_TERM(seven));
    assert_int_equal(graph_term_at(g, seven)->v, 7);
    /* the outcome terminal only the dropped graph named is gone */
    for (int i = 0; i < g->nterms; i++)
        assert_int_not_equal(g->terms[i].kind, TERM_OUTCOME);
    /* exactly the reachable nodes are kept */
    unsigned char seen[64] = {0};
    assert_true(g->nnodes <= 64);
    assert_int_equal(g->nnodes, mark(g, ones, seen) + mark(g, x0_and_x3, seen));
    graph_free(g);
}

static void test_building_on_stays_canonical(void **state) {
    (void)state;
    graph *g = bool_graph();
    gref ones = count_ones(g);
    gref *roots[] = {&ones};
    graph_compact(g, roots, 1);
    int nodes = g->nnodes;
    /* hash-consing finds a kept node again, without making a new one */
    const graph_node top = g->nodes[ones];
    gref kids[2] = {graph_kid(g, &top, 0), graph_kid(g, &top, 1)};
    assert_int_equal(graph_node_ref(g, top.var, kids), ones);
    assert_int_equal(g->nnodes, nodes);
    /* building the same function again (with the partial sums the
     * compaction dropped) ends at the same reference */
    gref again = count_ones(g);
    assert_int_equal(again, ones);
    /* and a new function is built correctly */
    gref twice = graph_apply2(g, 101, ones, ones, sum, NULL);
    for (unsigned bits = 0; bits < (1u << NVARS); bits++)
        assert_int_equal(at(g, twice, bits).v, 2 * __builtin_popcount(bits));
    graph_free(g);
}

static void test_shared_nodes_stay_shared(void **state) {
    (void)state;
    graph *g = bool_graph();
    gref a = graph_ite(g, graph_var(g, 2), graph_var(g, 3), val(g, 0));
    gref b = graph_ite(g, graph_var(g, 0), a, val(g, 1));
    gref c = graph_ite(g, graph_var(g, 1), a, val(g, 0));
    count_ones(g); /* garbage */
    gref *roots[] = {&b, &c, &a};
    graph_compact(g, roots, 3);
    assert_int_equal(graph_kid(g, &g->nodes[b], 1), a);
    assert_int_equal(graph_kid(g, &g->nodes[c], 1), a);
    assert_int_equal(g->nnodes, 4); /* a (x2), its x3 child, b, c */
    graph_free(g);
}

static void test_renumber_kind(void **state) {
    (void)state;
    graph *g = bool_graph();
    gref o1 = graph_term_ref(g, TERM_OUTCOME, 40), o2 = graph_term_ref(g, TERM_OUTCOME, 12);
    gref unused = graph_term_ref(g, TERM_OUTCOME, 99);
    (void)unused;
    gref r = graph_ite(g, graph_var(g, 1), o1, graph_ite(g, graph_var(g, 2), o2, val(g, 3)));
    gref *roots[] = {&r};
    graph_compact(g, roots, 1);
    int64_t old[8];
    int n = graph_renumber_kind(g, TERM_OUTCOME, old);
    assert_int_equal(n, 2);
    for (unsigned bits = 0; bits < (1u << NVARS); bits++) {
        graph_term t = at(g, r, bits);
        if (bits & 2) {
            assert_int_equal(t.kind, TERM_OUTCOME);
            assert_int_equal(old[t.v], 40);
        } else if (bits & 4) {
            assert_int_equal(t.kind, TERM_OUTCOME);
            assert_int_equal(old[t.v], 12);
        } else {
            assert_int_equal(t.kind, TERM_VALUE);
            assert_int_equal(t.v, 3);
        }
    }
    /* interning still finds the renumbered terminals */
    assert_int_equal(graph_term_ref(g, TERM_OUTCOME, at(g, r, 2).v), graph_kid(g, &g->nodes[r], 1));
    graph_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots_keep_their_function),
        cmocka_unit_test(test_building_on_stays_canonical),
        cmocka_unit_test(test_shared_nodes_stay_shared),
        cmocka_unit_test(test_renumber_kind),
    };
    return cmocka_run_group_tests_name("graph_compact", tests, NULL, NULL);
}
