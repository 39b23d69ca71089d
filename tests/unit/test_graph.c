/* test_graph.c — unit tests of core/engine/graph.c, the reduced ordered decision
 * graphs.
 *
 * Covers: terminal interning; graph_node_ref reduction (a node whose
 * children are all the same is that child; the same node twice is the same
 * reference); graph_var; graph_ite truth tables and its pass-through of
 * non-value terminals; graph_apply1/graph_apply2 with small fold functions,
 * checked on every assignment by walking the graph; graph_apply2_laws (the
 * same graph as without its laws, with fewer calls); graph_and_is_false
 * (the same answer as building the conjunction); canonicity (different
 * constructions of one function give one reference); graph_replace_kind;
 * graph_restrict (agrees with f where the care set holds, tests no new
 * variable); graph_done_building; graph_size and graph_reaches_kind.
 *
 * Every expected value is computed here from the function being built (a
 * truth table, a sum), never read back from the graph's own output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "graph.h"

/* ---------------------------------------------------------------- helpers */

/* A graph of n boolean variables. */
static graph *bool_graph(int n) {
    int domain[16];
    int64_t lo[16];
    for (int i = 0; i < n; i++) {
        domain[i] = 2;
        lo[i] = 0;
    }
    return graph_new(n, domain, lo);
}

static gref val(graph *g, int64_t v) {
    return graph_term_ref(g, TERM_VALUE, v);
}

/* The terminal reached from r when variable i has child index idx[i]. Also
 * checks the ordering invariant: variables increase strictly along the path. */
static graph_term walk(const graph *g, gref r, const int *idx) {
    int last = -1;
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        if (nd->var <= last) fail_msg("variable %d tested after variable %d", nd->var, last);
        last = nd->var;
        r = graph_kid(g, nd, idx[nd->var]);
    }
    return *graph_term_at(g, r);
}

/* Value of the graph at a boolean assignment given as bits of `bits`
 * (variable i is bit i). */
static int64_t bool_at(const graph *g, gref r, unsigned bits) {
    int idx[16];
    for (int i = 0; i < g->nvars; i++)
        idx[i] = (int)((bits >> i) & 1u);
    graph_term t = walk(g, r, idx);
    assert_int_equal(t.kind, TERM_VALUE);
    return t.v;
}

/* Checks that no reachable node has all children equal and that no two
 * reachable nodes are identical (the graph is reduced). */
static void assert_reduced(const graph *g, gref r) {
    if (GRAPH_IS_TERM(r)) return;
    const graph_node *nd = &g->nodes[r];
    int n = g->domain[nd->var];
    int same = 1;
    for (int i = 1; i < n; i++)
        same &= graph_kid(g, nd, i) == graph_kid(g, nd, 0);
    if (same) fail_msg("node %d tests variable %d but all children are equal", r, nd->var);
    for (int i = 0; i < n; i++)
        assert_reduced(g, graph_kid(g, nd, i));
}

static void assert_no_duplicate_nodes(const graph *g) {
    for (int a = 0; a < g->nnodes; a++)
        for (int b = a + 1; b < g->nnodes; b++) {
            const graph_node *x = &g->nodes[a], *y = &g->nodes[b];
            if (x->var != y->var) continue;
            bool same = true;
            for (int i = 0; i < g->domain[x->var] && same; i++)
                same = graph_kid(g, x, i) == graph_kid(g, y, i);
            if (same) fail_msg("nodes %d and %d are identical", a, b);
        }
}

static gref and_(graph *g, gref a, gref b) {
    return graph_ite(g, a, b, val(g, 0));
}
static gref or_(graph *g, gref a, gref b) {
    return graph_ite(g, a, val(g, 1), b);
}
static gref not_(graph *g, gref a) {
    return graph_ite(g, a, val(g, 0), val(g, 1));
}

/* Fold functions for apply. Op ids are distinct per function. */
#define OP_SUM 101
#define OP_PRODUCT 102
#define OP_CONST 103
#define OP_PARITY 104
#define OP_XOR 105
#define OP_EQUAL 106

static graph_term fold_sum(void *ctx, graph_term a, graph_term b) {
    int *calls = ctx;
    if (calls) (*calls)++;
    return (graph_term){TERM_VALUE, a.v + b.v};
}

static graph_term fold_product(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v * b.v};
}

static graph_term fold_const(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    (void)a;
    (void)b;
    return (graph_term){TERM_VALUE, 7};
}

static graph_term fold_xor(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, (a.v != 0) != (b.v != 0)};
}

static graph_term fold_equal(void *ctx, graph_term a, graph_term b) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v == b.v};
}

static graph_term fold_parity(void *ctx, graph_term a) {
    (void)ctx;
    if (a.kind != TERM_VALUE) return a;
    return (graph_term){TERM_VALUE, ((a.v % 2) + 2) % 2};
}

/* ------------------------------------------------------------- terminals */

static void test_terms_are_interned(void **state) {
    (void)state;
    graph *g = bool_graph(1);
    gref a = graph_term_ref(g, TERM_VALUE, 5);
    gref b = graph_term_ref(g, TERM_VALUE, 5);
    gref c = graph_term_ref(g, TERM_VALUE, 6);
    gref d = graph_term_ref(g, TERM_OUTCOME, 5);
    assert_true(GRAPH_IS_TERM(a));
    assert_int_equal(a, b);
    assert_int_not_equal(a, c);
    assert_int_not_equal(a, d);
    assert_int_equal(graph_term_at(g, d)->kind, TERM_OUTCOME);
    assert_int_equal(graph_term_at(g, d)->v, 5);
    assert_int_equal(graph_term_at(g, c)->v, 6);
    graph_free(g);
}

static void test_many_terms_survive_rehash(void **state) {
    (void)state;
    graph *g = bool_graph(1);
    gref refs[500];
    for (int i = 0; i < 500; i++)
        refs[i] = graph_term_ref(g, TERM_VALUE, (int64_t)i * 1000 - 7);
    for (int i = 0; i < 500; i++) {
        assert_int_equal(graph_term_ref(g, TERM_VALUE, (int64_t)i * 1000 - 7), refs[i]);
        assert_int_equal(graph_term_at(g, refs[i])->v, (int64_t)i * 1000 - 7);
    }
    assert_int_equal(g->nterms, 500);
    graph_free(g);
}

/* ----------------------------------------------------------------- nodes */

static void test_node_with_identical_children_is_its_child(void **state) {
    (void)state;
    int domain[] = {3};
    int64_t lo[] = {0};
    graph *g = graph_new(1, domain, lo);
    gref t = val(g, 42);
    gref kids[] = {t, t, t};
    assert_int_equal(graph_node_ref(g, 0, kids), t);
    assert_int_equal(g->nnodes, 0);
    graph_free(g);
}

static void test_node_with_identical_inner_children_is_that_child(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref inner = graph_var(g, 1);
    gref kids[] = {inner, inner};
    assert_int_equal(graph_node_ref(g, 0, kids), inner);
    assert_int_equal(g->nnodes, 1);
    graph_free(g);
}

static void test_same_node_twice_is_same_ref(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref kids[] = {val(g, 1), val(g, 2)};
    gref a = graph_node_ref(g, 0, kids);
    gref b = graph_node_ref(g, 0, kids);
    assert_false(GRAPH_IS_TERM(a));
    assert_int_equal(a, b);
    assert_int_equal(g->nnodes, 1);
    /* same children on another variable: another node */
    gref c = graph_node_ref(g, 1, kids);
    assert_int_not_equal(a, c);
    /* children swapped: another node */
    gref swapped[] = {val(g, 2), val(g, 1)};
    gref d = graph_node_ref(g, 0, swapped);
    assert_int_not_equal(a, d);
    assert_int_equal(g->nnodes, 3);
    graph_free(g);
}

static void test_graph_var_children_are_values_from_lo(void **state) {
    (void)state;
    int domain[] = {2, 4};
    int64_t lo[] = {0, -1};
    graph *g = graph_new(2, domain, lo);
    gref x = graph_var(g, 1);
    assert_false(GRAPH_IS_TERM(x));
    assert_int_equal(g->nodes[x].var, 1);
    for (int i = 0; i < 4; i++) {
        gref k = graph_kid(g, &g->nodes[x], i);
        assert_true(GRAPH_IS_TERM(k));
        assert_int_equal(graph_term_at(g, k)->kind, TERM_VALUE);
        assert_int_equal(graph_term_at(g, k)->v, -1 + i);
    }
    assert_int_equal(graph_var(g, 1), x);
    assert_int_equal(graph_size(g, x), 1);
    graph_free(g);
}

static void test_single_value_domain_var_is_a_terminal(void **state) {
    (void)state;
    int domain[] = {1};
    int64_t lo[] = {9};
    graph *g = graph_new(1, domain, lo);
    gref x = graph_var(g, 0);
    /* one child only: the test cannot change the result */
    assert_true(GRAPH_IS_TERM(x));
    assert_int_equal(graph_term_at(g, x)->v, 9);
    graph_free(g);
}

static void test_many_nodes_survive_rehash(void **state) {
    (void)state;
    int domain[] = {2};
    int64_t lo[] = {0};
    graph *g = graph_new(1, domain, lo);
    gref refs[600];
    for (int i = 0; i < 600; i++) {
        gref kids[] = {val(g, i), val(g, i + 1)};
        refs[i] = graph_node_ref(g, 0, kids);
    }
    for (int i = 0; i < 600; i++) {
        gref kids[] = {val(g, i), val(g, i + 1)};
        assert_int_equal(graph_node_ref(g, 0, kids), refs[i]);
    }
    assert_int_equal(g->nnodes, 600);
    graph_free(g);
}

/* ------------------------------------------------------------------- ite */

static void test_ite_on_terminal_condition(void **state) {
    (void)state;
    graph *g = bool_graph(1);
    gref t = val(g, 10), e = val(g, 20);
    assert_int_equal(graph_ite(g, val(g, 1), t, e), t);
    assert_int_equal(graph_ite(g, val(g, 3), t, e), t); /* any nonzero is true */
    assert_int_equal(graph_ite(g, val(g, 0), t, e), e);
    graph_free(g);
}

static void test_ite_passes_non_value_condition_terminals(void **state) {
    (void)state;
    graph *g = bool_graph(1);
    gref err = graph_term_ref(g, TERM_ERROR, 2);
    gref gap = graph_term_ref(g, TERM_GAP, 4);
    assert_int_equal(graph_ite(g, err, val(g, 1), val(g, 0)), err);
    assert_int_equal(graph_ite(g, gap, val(g, 1), val(g, 0)), gap);
    /* inside a graph: the error stays where the condition fails */
    gref x = graph_var(g, 0);
    gref kids[] = {val(g, 0), err};
    gref c = graph_node_ref(g, 0, kids);
    gref r = graph_ite(g, c, val(g, 5), val(g, 6));
    int idx0[] = {0}, idx1[] = {1};
    assert_int_equal(walk(g, r, idx0).v, 6);
    assert_int_equal(walk(g, r, idx1).kind, TERM_ERROR);
    assert_int_equal(walk(g, r, idx1).v, 2);
    (void)x;
    graph_free(g);
}

static void test_ite_same_branches_is_that_branch(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    assert_int_equal(graph_ite(g, a, b, b), b);
    graph_free(g);
}

static void test_ite_var_is_identity(void **state) {
    (void)state;
    graph *g = bool_graph(1);
    gref a = graph_var(g, 0);
    assert_int_equal(graph_ite(g, a, val(g, 1), val(g, 0)), a);
    graph_free(g);
}

static void test_ite_truth_tables(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    gref f_and = and_(g, a, b), f_or = or_(g, a, b), f_not = not_(g, a);
    gref f_xor = graph_ite(g, a, not_(g, b), b);
    gref f_imp = graph_ite(g, a, b, val(g, 1));
    for (unsigned bits = 0; bits < 4; bits++) {
        int av = bits & 1, bv = (bits >> 1) & 1;
        assert_int_equal(bool_at(g, f_and, bits), av && bv);
        assert_int_equal(bool_at(g, f_or, bits), av || bv);
        assert_int_equal(bool_at(g, f_not, bits), !av);
        assert_int_equal(bool_at(g, f_xor, bits), av != bv);
        assert_int_equal(bool_at(g, f_imp, bits), !av || bv);
    }
    assert_reduced(g, f_and);
    assert_reduced(g, f_xor);
    assert_int_equal(graph_size(g, f_and), 2);
    assert_int_equal(graph_size(g, f_xor), 3); /* a, b, not b */
    assert_int_equal(graph_size(g, f_not), 1);
    graph_free(g);
}

static void test_ite_with_graph_branches_three_vars(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    /* mux: if c then a else b — the condition's variable is the last one */
    gref mux = graph_ite(g, c, a, b);
    for (unsigned bits = 0; bits < 8; bits++) {
        int av = bits & 1, bv = (bits >> 1) & 1, cv = (bits >> 2) & 1;
        assert_int_equal(bool_at(g, mux, bits), cv ? av : bv);
    }
    assert_reduced(g, mux);
    assert_int_equal(g->nodes[mux].var, 0); /* the ordering puts a on top */
    graph_free(g);
}

/* ----------------------------------------------------------------- apply */

static void test_apply2_sum_of_two_int_vars(void **state) {
    (void)state;
    int domain[] = {3, 4};
    int64_t lo[] = {1, -2}; /* x in 1..3, y in -2..1 */
    graph *g = graph_new(2, domain, lo);
    gref x = graph_var(g, 0), y = graph_var(g, 1);
    gref sum = graph_apply2(g, OP_SUM, x, y, fold_sum, NULL);
    assert_false(GRAPH_IS_TERM(sum));
    assert_int_equal(g->nodes[sum].var, 0);
    for (int i = 0; i < 3; i++) {
        gref cof = graph_kid(g, &g->nodes[sum], i);
        /* each cofactor x = 1 + i is a node on y with values (1 + i) + (-2 + j) */
        assert_false(GRAPH_IS_TERM(cof));
        assert_int_equal(g->nodes[cof].var, 1);
        for (int j = 0; j < 4; j++) {
            gref leaf = graph_kid(g, &g->nodes[cof], j);
            assert_true(GRAPH_IS_TERM(leaf));
            assert_int_equal(graph_term_at(g, leaf)->kind, TERM_VALUE);
            assert_int_equal(graph_term_at(g, leaf)->v, (1 + i) + (-2 + j));
        }
    }
    /* three different cofactors (shifted by one) and the root */
    assert_int_equal(graph_size(g, sum), 4);
    graph_free(g);
}

static graph_term fold_is_zero(void *ctx, graph_term a) {
    (void)ctx;
    return (graph_term){TERM_VALUE, a.v == 0};
}

/* 2x - y + 3z - 4 == 0 over x in -2..2, y in 0..6, z in 1..3: graph_linear
 * gives the function the sum defines, on every assignment, and the very
 * reference the folding with graph_apply2 builds (the graphs are canonical). */
static void test_linear_sum_is_the_folded_sum(void **state) {
    (void)state;
    int domain[] = {5, 7, 3};
    int64_t lo[] = {-2, 0, 1};
    graph *g = graph_new(3, domain, lo);
    int vars[] = {0, 1, 2};
    int64_t coef[] = {2, -1, 3};
    graph_sum sum = {3, vars, coef, -4};
    gref r = graph_linear(g, &sum, fold_is_zero, NULL);
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++)
            for (int z = 0; z < 3; z++) {
                int idx[] = {x, y, z};
                int64_t v = 2 * (x - 2) - y + 3 * (z + 1) - 4;
                assert_int_equal(walk(g, r, idx).v, v == 0);
            }
    assert_reduced(g, r);
    gref twice = graph_apply2(g, OP_SUM, graph_var(g, 0), graph_var(g, 0), fold_sum, NULL);
    gref minus_y = graph_apply2(g, OP_PRODUCT, val(g, -1), graph_var(g, 1), fold_product, NULL);
    gref thrice = graph_apply2(g, OP_PRODUCT, val(g, 3), graph_var(g, 2), fold_product, NULL);
    gref folded = graph_apply2(g, OP_SUM, twice, minus_y, fold_sum, NULL);
    folded = graph_apply2(g, OP_SUM, folded, thrice, fold_sum, NULL);
    folded = graph_apply2(g, OP_SUM, folded, val(g, -4), fold_sum, NULL);
    assert_int_equal(graph_apply1(g, OP_PARITY + 100, folded, fold_is_zero, NULL), r);
    graph_free(g);
}

/* A variable the sum does not name is not tested, and one whose
 * coefficient is 0 is tested by no node (its children would all agree). */
static void test_linear_sum_skips_what_it_does_not_depend_on(void **state) {
    (void)state;
    int domain[] = {4, 4, 4};
    int64_t lo[] = {0, 0, 0};
    graph *g = graph_new(3, domain, lo);
    int vars[] = {0, 2};
    int64_t coef[] = {0, 1};
    graph_sum sum = {2, vars, coef, -2};
    gref r = graph_linear(g, &sum, fold_is_zero, NULL);
    assert_false(GRAPH_IS_TERM(r));
    assert_int_equal(g->nodes[r].var, 2);
    assert_int_equal(graph_size(g, r), 1);
    graph_free(g);
}

static void test_apply2_with_a_terminal_operand(void **state) {
    (void)state;
    int domain[] = {4};
    int64_t lo[] = {0};
    graph *g = graph_new(1, domain, lo);
    gref x = graph_var(g, 0);
    gref r = graph_apply2(g, OP_PRODUCT, val(g, 3), x, fold_product, NULL);
    for (int i = 0; i < 4; i++) {
        int idx[] = {i};
        assert_int_equal(walk(g, r, idx).v, 3 * i);
    }
    gref zero = graph_apply2(g, OP_PRODUCT, x, val(g, 0), fold_product, NULL);
    assert_int_equal(zero, val(g, 0)); /* x * 0 does not depend on x */
    graph_free(g);
}

static void test_apply2_constant_result_reduces_to_terminal(void **state) {
    (void)state;
    int domain[] = {3, 3};
    int64_t lo[] = {0, 0};
    graph *g = graph_new(2, domain, lo);
    gref x = graph_var(g, 0), y = graph_var(g, 1);
    assert_int_equal(graph_apply2(g, OP_CONST, x, y, fold_const, NULL), val(g, 7));
    /* x == x is always true */
    assert_int_equal(graph_apply2(g, OP_EQUAL, x, x, fold_equal, NULL), val(g, 1));
    graph_free(g);
}

static void test_apply2_results_are_cached(void **state) {
    (void)state;
    int domain[] = {3, 3};
    int64_t lo[] = {0, 0};
    graph *g = graph_new(2, domain, lo);
    gref x = graph_var(g, 0), y = graph_var(g, 1);
    int calls = 0;
    gref a = graph_apply2(g, OP_SUM, x, y, fold_sum, &calls);
    assert_int_equal(calls, 9);
    gref b = graph_apply2(g, OP_SUM, x, y, fold_sum, &calls);
    assert_int_equal(a, b);
    assert_int_equal(calls, 9); /* the second call is answered from the cache */
    /* another op id is another function */
    gref p = graph_apply2(g, OP_PRODUCT, x, y, fold_product, NULL);
    assert_int_not_equal(a, p);
    int idx[] = {2, 2};
    assert_int_equal(walk(g, a, idx).v, 4);
    assert_int_equal(walk(g, p, idx).v, 4);
    int idx2[] = {2, 1};
    assert_int_equal(walk(g, a, idx2).v, 3);
    assert_int_equal(walk(g, p, idx2).v, 2);
    graph_free(g);
}

/* A sum where 0 is the unit and an error terminal absorbs what follows. */
static graph_term fold_sum_or_error(void *ctx, graph_term a, graph_term b) {
    int *calls = ctx;
    (*calls)++;
    if (a.kind != TERM_VALUE) return a;
    if (b.kind != TERM_VALUE) return b;
    return (graph_term){TERM_VALUE, a.v + b.v};
}

static void test_apply2_laws_give_the_same_graph_with_fewer_calls(void **state) {
    (void)state;
    int domain[] = {3, 4, 5};
    int64_t lo[] = {0, 0, 0};
    graph *g = graph_new(3, domain, lo);
    gref z = graph_var(g, 2);
    gref err = graph_term_ref(g, TERM_ERROR, 1);
    /* a: 0 where x = 0, an error where x = 1, x + z where x = 2 */
    gref kids[3] = {val(g, 0), err,
                    graph_apply2(g, OP_SUM, graph_term_ref(g, TERM_VALUE, 2), z, fold_sum, NULL)};
    gref a = graph_node_ref(g, 0, kids);
    gref b = graph_apply2(g, OP_SUM, graph_var(g, 1), z, fold_sum, NULL); /* y + z */
    int plain = 0, lawful = 0;
    gref expected = graph_apply2(g, 201, a, b, fold_sum_or_error, &plain);
    graph_laws laws = {val(g, 0), 1u << TERM_ERROR};
    gref got = graph_apply2_laws(g, 202, a, b, fold_sum_or_error, &lawful, &laws);
    assert_int_equal(got, expected); /* canonical: the same function is the same reference */
    assert_true(lawful < plain);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 5; k++) {
                int idx[] = {i, j, k};
                graph_term t = walk(g, got, idx);
                if (i == 1) {
                    assert_int_equal(t.kind, TERM_ERROR);
                } else {
                    assert_int_equal(t.kind, TERM_VALUE);
                    assert_int_equal(t.v, (i == 0 ? 0 : 2 + k) + j + k);
                }
            }
    /* the unit on the right returns the left operand itself */
    assert_int_equal(graph_apply2_laws(g, 202, a, val(g, 0), fold_sum_or_error, &lawful, &laws), a);
    graph_free(g);
}

/* graph_and_is_false answers what building "a and b" and comparing it with
 * the terminal 0 answers, also where a condition is an error terminal. */
static void test_and_is_false_agrees_with_building_the_conjunction(void **state) {
    (void)state;
    int domain[] = {3, 2, 3};
    int64_t lo[] = {0, 0, 0};
    graph *g = graph_new(3, domain, lo);
    gref zero = val(g, 0), one = val(g, 1), err = graph_term_ref(g, TERM_ERROR, 2);
    gref k0[] = {one, zero, zero}, k2[] = {zero, zero, one}, ke[] = {zero, err, one};
    gref x0 = graph_node_ref(g, 0, k0), z2 = graph_node_ref(g, 2, k2),
         xe = graph_node_ref(g, 0, ke);
    gref y = graph_var(g, 1);
    gref set[] = {zero,
                  one,
                  err,
                  x0,
                  z2,
                  xe,
                  y,
                  not_(g, x0),
                  and_(g, y, z2),
                  or_(g, x0, z2),
                  and_(g, xe, y),
                  and_(g, not_(g, y), z2),
                  graph_ite(g, y, xe, z2)};
    int n = (int)(sizeof set / sizeof *set), agreed = 0, disjoint = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool built = graph_ite(g, set[i], set[j], zero) == zero;
            if (graph_and_is_false(g, set[i], set[j]) != built)
                fail_msg("set[%d] and set[%d]: built %d", i, j, built);
            agreed++;
            disjoint += built;
        }
    assert_int_equal(agreed, n * n);
    assert_true(disjoint > n && disjoint < n * n); /* both answers are tried */
    graph_free(g);
}

static void test_apply1_reduces_to_what_matters(void **state) {
    (void)state;
    int domain[] = {2, 5};
    int64_t lo[] = {0, 10};
    graph *g = graph_new(2, domain, lo);
    gref y = graph_var(g, 1);
    gref par = graph_apply1(g, OP_PARITY, y, fold_parity, NULL);
    for (int j = 0; j < 5; j++) {
        int idx[] = {0, j};
        assert_int_equal(walk(g, par, idx).v, (10 + j) % 2);
    }
    assert_int_equal(graph_size(g, par), 1);
    /* a graph whose values are all even maps to the terminal 0 */
    gref twice = graph_apply2(g, OP_SUM, y, y, fold_sum, NULL);
    assert_int_equal(graph_apply1(g, OP_PARITY, twice, fold_parity, NULL), val(g, 0));
    graph_free(g);
}

/* ------------------------------------------------------------- canonicity */

static void test_de_morgan_gives_the_same_ref(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    gref lhs = not_(g, and_(g, a, or_(g, b, c)));
    gref rhs = or_(g, not_(g, a), and_(g, not_(g, b), not_(g, c)));
    assert_int_equal(lhs, rhs);
    graph_free(g);
}

static void test_construction_order_does_not_matter(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    gref one = and_(g, and_(g, a, b), c);
    gref two = and_(g, c, and_(g, b, a));
    gref three = graph_ite(g, b, and_(g, c, a), val(g, 0));
    assert_int_equal(one, two);
    assert_int_equal(one, three);
    graph_free(g);
}

static void test_ite_equals_hand_built_graph(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    /* a xor b built by hand, bottom up */
    gref kb[] = {val(g, 0), val(g, 1)};
    gref nb[] = {val(g, 1), val(g, 0)};
    gref pos = graph_node_ref(g, 1, kb), neg = graph_node_ref(g, 1, nb);
    gref top[] = {pos, neg};
    gref hand = graph_node_ref(g, 0, top);
    assert_int_equal(graph_ite(g, a, not_(g, b), b), hand);
    assert_int_equal(graph_apply2(g, OP_XOR, a, b, fold_xor, NULL), hand);
    assert_int_equal(graph_apply2(g, OP_XOR, b, a, fold_xor, NULL), hand);
    graph_free(g);
}

static void test_tautology_and_contradiction_are_terminals(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    assert_int_equal(or_(g, a, not_(g, a)), val(g, 1));
    assert_int_equal(and_(g, a, not_(g, a)), val(g, 0));
    /* (a and b) or (a and not b) or not a */
    gref t = or_(g, or_(g, and_(g, a, b), and_(g, a, not_(g, b))), not_(g, a));
    assert_int_equal(t, val(g, 1));
    graph_free(g);
}

static void test_parity_of_ten_vars_is_linear_and_canonical(void **state) {
    (void)state;
    enum { N = 10 };
    graph *g = bool_graph(N);
    gref up = val(g, 0), down = val(g, 0);
    for (int i = 0; i < N; i++)
        up = graph_apply2(g, OP_XOR, up, graph_var(g, i), fold_xor, NULL);
    for (int i = N - 1; i >= 0; i--)
        down = graph_ite(g, graph_var(g, i), not_(g, down), down);
    assert_int_equal(up, down);
    /* parity needs an "even" and an "odd" node below the top: 2N - 1 */
    assert_int_equal(graph_size(g, up), 2 * N - 1);
    assert_reduced(g, up);
    assert_no_duplicate_nodes(g);
    for (unsigned bits = 0; bits < (1u << N); bits += 37)
        assert_int_equal(bool_at(g, up, bits), __builtin_popcount(bits) % 2);
    graph_free(g);
}

static void test_multi_valued_equality_canonical(void **state) {
    (void)state;
    int domain[] = {4, 4};
    int64_t lo[] = {0, 0};
    graph *g = graph_new(2, domain, lo);
    gref x = graph_var(g, 0), y = graph_var(g, 1);
    gref eq = graph_apply2(g, OP_EQUAL, x, y, fold_equal, NULL);
    /* x == y built as: or over v of (x == v and y == v) */
    gref built = val(g, 0);
    for (int v = 0; v < 4; v++) {
        gref xv = graph_apply2(g, OP_EQUAL, x, val(g, v), fold_equal, NULL);
        gref yv = graph_apply2(g, OP_EQUAL, y, val(g, v), fold_equal, NULL);
        built = or_(g, built, and_(g, xv, yv));
    }
    assert_int_equal(eq, built);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int idx[] = {i, j};
            assert_int_equal(walk(g, eq, idx).v, i == j);
        }
    assert_no_duplicate_nodes(g);
    graph_free(g);
}

/* --------------------------------------------------------- replace_kind */

static void test_replace_kind_replaces_every_terminal_of_kind(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    gref gap = graph_term_ref(g, TERM_GAP, 3);
    gref out = graph_term_ref(g, TERM_OUTCOME, 1);
    gref fall = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    /* a: b ? out : fall ; not a: gap */
    gref r = graph_ite(g, a, graph_ite(g, b, out, fall), gap);
    assert_true(graph_reaches_kind(g, r, TERM_FALLTHROUGH));
    gref other = graph_term_ref(g, TERM_OUTCOME, 2);
    gref s = graph_replace_kind(g, r, TERM_FALLTHROUGH, other);
    assert_false(graph_reaches_kind(g, s, TERM_FALLTHROUGH));
    assert_true(graph_reaches_kind(g, s, TERM_GAP));
    int i11[] = {1, 1}, i10[] = {1, 0}, i01[] = {0, 1};
    assert_int_equal(walk(g, s, i11).kind, TERM_OUTCOME);
    assert_int_equal(walk(g, s, i11).v, 1);
    assert_int_equal(walk(g, s, i10).kind, TERM_OUTCOME);
    assert_int_equal(walk(g, s, i10).v, 2);
    assert_int_equal(walk(g, s, i01).kind, TERM_GAP);
    graph_free(g);
}

static void test_replace_kind_reduces_the_result(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    gref out = graph_term_ref(g, TERM_OUTCOME, 0);
    gref fall = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    gref r = graph_ite(g, and_(g, a, b), out, fall);
    assert_int_equal(graph_size(g, r), 2);
    /* every fallthrough becomes the outcome: nothing is left to test */
    assert_int_equal(graph_replace_kind(g, r, TERM_FALLTHROUGH, out), out);
    /* replacing by a graph on a later variable: spliced in below */
    gref other = graph_term_ref(g, TERM_OUTCOME, 9);
    gref r2 = graph_ite(g, a, out, fall);
    gref sub = graph_ite(g, b, out, other);
    assert_int_equal(graph_replace_kind(g, r2, TERM_FALLTHROUGH, sub), graph_ite(g, a, out, sub));
    graph_free(g);
}

/* Regression: replacing a terminal by a graph that tests a variable the
 * path already tested keeps the result ordered and canonical. */
static void test_replace_kind_with_graph_on_tested_var_is_canonical(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    gref out = graph_term_ref(g, TERM_OUTCOME, 0);
    gref other = graph_term_ref(g, TERM_OUTCOME, 9);
    gref fall = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    gref r = graph_ite(g, and_(g, a, b), out, fall);
    gref sub = graph_ite(g, b, out, other);
    gref s = graph_replace_kind(g, r, TERM_FALLTHROUGH, sub);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int idx[] = {i, j};
            graph_term t = walk(g, s, idx); /* fails on the repeated test of b */
            assert_int_equal(t.v, j ? 0 : 9);
        }
    assert_int_equal(s, sub);
    graph_free(g);
}

static void test_replace_kind_absent_kind_is_identity(void **state) {
    (void)state;
    graph *g = bool_graph(2);
    gref a = graph_var(g, 0), b = graph_var(g, 1);
    gref r = and_(g, a, b);
    assert_int_equal(graph_replace_kind(g, r, TERM_GAP, val(g, 5)), r);
    /* on a terminal */
    gref gap = graph_term_ref(g, TERM_GAP, 0);
    assert_int_equal(graph_replace_kind(g, gap, TERM_GAP, val(g, 5)), val(g, 5));
    assert_int_equal(graph_replace_kind(g, val(g, 1), TERM_GAP, val(g, 5)), val(g, 1));
    graph_free(g);
}

/* Where a part of the graph has no terminal of the kind replaced, that part
 * is kept as it is, without a walk: the nodes made, and the order they are
 * made in (a compiled ruleset's image keeps it), are those of a walk that
 * went through it. */
static void test_replace_kind_keeps_a_part_without_the_kind(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref v0 = graph_var(g, 0), v1 = graph_var(g, 1), v2 = graph_var(g, 2);
    gref out0 = graph_term_ref(g, TERM_OUTCOME, 0), out1 = graph_term_ref(g, TERM_OUTCOME, 1);
    gref out2 = graph_term_ref(g, TERM_OUTCOME, 2), gap = graph_term_ref(g, TERM_GAP, 0);
    gref fall = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    gref kept = graph_ite(g, v2, out0, gap); /* no fallthrough below */
    gref r = graph_ite(g, v1, kept, fall);
    gref to = graph_ite(g, v0, out1, out2); /* tests a variable before r's */
    int before = g->nnodes;
    gref s = graph_replace_kind(g, r, TERM_FALLTHROUGH, to);
    /* v0 first; under each of its values, v1 with `kept` as it was */
    assert_int_equal(g->nnodes, before + 3);
    assert_int_equal(s, before + 2);
    assert_int_equal(graph_kid(g, &g->nodes[s], 0), before);     /* v0 false: out2 */
    assert_int_equal(graph_kid(g, &g->nodes[s], 1), before + 1); /* v0 true: out1 */
    assert_int_equal(graph_kid(g, &g->nodes[before], 1), kept);
    assert_int_equal(graph_kid(g, &g->nodes[before], 0), out2);
    assert_int_equal(graph_kid(g, &g->nodes[before + 1], 1), kept);
    assert_int_equal(graph_kid(g, &g->nodes[before + 1], 0), out1);
    assert_int_equal(s,
                     graph_ite(g, v0, graph_ite(g, v1, kept, out1), graph_ite(g, v1, kept, out2)));
    /* the kept part alone: itself */
    assert_int_equal(graph_replace_kind(g, kept, TERM_FALLTHROUGH, to), kept);
    graph_free(g);
}

/* A part under which several rulings are put (a ruleset's checked root:
 * the invariants' graph under each ruling) is walked by a plan the second
 * time: the same nodes, made in the same order as the first walk would. */
static void test_replace_kind_puts_rulings_under_a_part_in_order(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref v0 = graph_var(g, 0), v1 = graph_var(g, 1), v2 = graph_var(g, 2);
    gref out1 = graph_term_ref(g, TERM_OUTCOME, 1), out2 = graph_term_ref(g, TERM_OUTCOME, 2);
    gref gap = graph_term_ref(g, TERM_GAP, 0), fall = graph_term_ref(g, TERM_FALLTHROUGH, 0);
    gref below = graph_ite(g, v2, fall, gap);
    gref r = graph_ite(g, v1, below, fall);
    gref to = graph_ite(g, v0, out1, out2);
    int before = g->nnodes;
    gref s = graph_replace_kind(g, r, TERM_FALLTHROUGH, to);
    /* v0 false first: v2 ? out2 : gap, then v1 over it; v0 true the same
     * with out1; then the root */
    assert_int_equal(g->nnodes, before + 5);
    assert_int_equal(s, before + 4);
    gref under2 = graph_ite(g, v2, out2, gap), under1 = graph_ite(g, v2, out1, gap);
    assert_int_equal(under2, before);
    assert_int_equal(graph_ite(g, v1, under2, out2), before + 1);
    assert_int_equal(under1, before + 2);
    assert_int_equal(graph_ite(g, v1, under1, out1), before + 3);
    assert_int_equal(g->nnodes, before + 5);
    assert_int_equal(s, graph_ite(g, v0, before + 3, before + 1));
    graph_free(g);
}

/* -------------------------------------------------------------- restrict */

/* The graph of a boolean function of three variables given by its truth
 * table (bit i of tt is the value at assignment i, variable v = bit v). */
static gref from_truth_table(graph *g, unsigned tt) {
    gref level2[4];
    for (int ab = 0; ab < 4; ab++) {
        gref kids[] = {val(g, (tt >> ab) & 1u), val(g, (tt >> (ab | 4)) & 1u)};
        level2[ab] = graph_node_ref(g, 2, kids);
    }
    gref level1[2];
    for (int a = 0; a < 2; a++) {
        gref kids[] = {level2[a], level2[a | 2]};
        level1[a] = graph_node_ref(g, 1, kids);
    }
    return graph_node_ref(g, 0, level1);
}

static unsigned support(const graph *g, gref r) {
    if (GRAPH_IS_TERM(r)) return 0;
    const graph_node *nd = &g->nodes[r];
    unsigned s = 1u << nd->var;
    for (int i = 0; i < g->domain[nd->var]; i++)
        s |= support(g, graph_kid(g, nd, i));
    return s;
}

static void test_restrict_agrees_where_care_holds(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    /* every function against every nonempty care set of three variables */
    for (unsigned care_tt = 1; care_tt < 256; care_tt += 3) {
        gref care = from_truth_table(g, care_tt);
        for (unsigned f_tt = 0; f_tt < 256; f_tt++) {
            gref f = from_truth_table(g, f_tt);
            gref r = graph_restrict(g, f, care);
            for (unsigned bits = 0; bits < 8; bits++) {
                if (!((care_tt >> bits) & 1u)) continue;
                if (bool_at(g, r, bits) != (int64_t)((f_tt >> bits) & 1u))
                    fail_msg("f %02x care %02x: differs at %u", f_tt, care_tt, bits);
            }
            if (support(g, r) & ~support(g, f))
                fail_msg("f %02x care %02x: the result tests a variable f does not", f_tt, care_tt);
            assert_reduced(g, r);
        }
    }
    graph_free(g);
}

static void test_restrict_drops_tests_care_makes_pointless(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    gref f = graph_ite(g, graph_ite(g, a, not_(g, b), b), not_(g, c), c); /* a xor b xor c */
    gref same = not_(g, graph_ite(g, a, not_(g, b), b));                  /* a == b */
    /* where a == b, a xor b xor c is c */
    assert_int_equal(graph_restrict(g, f, same), c);
    /* a care set that always holds changes nothing */
    assert_int_equal(graph_restrict(g, f, val(g, 1)), f);
    /* where a holds, a and b is b */
    assert_int_equal(graph_restrict(g, and_(g, a, b), a), b);
    graph_free(g);
}

static void test_done_building_keeps_graph_canonical(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    gref f = or_(g, and_(g, a, b), c);
    int nodes = g->nnodes;
    graph_done_building(g);
    /* the graph still reads the same */
    for (unsigned bits = 0; bits < 8; bits++)
        assert_int_equal(bool_at(g, f, bits), ((bits & 1) && (bits & 2)) || (bits & 4));
    /* building on finds the nodes it made before */
    assert_int_equal(graph_var(g, 2), c);
    assert_int_equal(or_(g, c, and_(g, b, a)), f);
    assert_int_equal(g->nnodes, nodes);
    assert_int_equal(graph_term_ref(g, TERM_VALUE, 1), val(g, 1));
    graph_done_building(g);
    graph_done_building(g);
    graph_free(g);
}

/* ------------------------------------------------------ size / reaches */

static void test_size_and_reaches(void **state) {
    (void)state;
    graph *g = bool_graph(3);
    gref a = graph_var(g, 0), b = graph_var(g, 1), c = graph_var(g, 2);
    assert_int_equal(graph_size(g, val(g, 1)), 0);
    assert_int_equal(graph_size(g, c), 1);
    gref f = or_(g, and_(g, a, b), c);
    /* a -> (b -> 1 | c), not a -> c : nodes a, b, c */
    assert_int_equal(graph_size(g, f), 3);
    assert_true(graph_reaches_kind(g, f, TERM_VALUE));
    assert_false(graph_reaches_kind(g, f, TERM_ERROR));
    gref err = graph_term_ref(g, TERM_ERROR, 1);
    gref h = graph_ite(g, c, f, err);
    assert_true(graph_reaches_kind(g, h, TERM_ERROR));
    assert_false(graph_reaches_kind(g, val(g, 0), TERM_ERROR));
    assert_true(graph_reaches_kind(g, err, TERM_ERROR));
    graph_free(g);
}

static void test_zero_variable_graph(void **state) {
    (void)state;
    graph *g = graph_new(0, NULL, NULL);
    gref t = val(g, 1), e = val(g, 0);
    assert_int_equal(graph_ite(g, t, val(g, 4), val(g, 5)), val(g, 4));
    assert_int_equal(graph_apply2(g, OP_SUM, val(g, 2), val(g, 3), fold_sum, NULL), val(g, 5));
    assert_int_equal(graph_size(g, e), 0);
    graph_free(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms_are_interned),
        cmocka_unit_test(test_many_terms_survive_rehash),
        cmocka_unit_test(test_node_with_identical_children_is_its_child),
        cmocka_unit_test(test_node_with_identical_inner_children_is_that_child),
        cmocka_unit_test(test_same_node_twice_is_same_ref),
        cmocka_unit_test(test_graph_var_children_are_values_from_lo),
        cmocka_unit_test(test_single_value_domain_var_is_a_terminal),
        cmocka_unit_test(test_many_nodes_survive_rehash),
        cmocka_unit_test(test_ite_on_terminal_condition),
        cmocka_unit_test(test_ite_passes_non_value_condition_terminals),
        cmocka_unit_test(test_ite_same_branches_is_that_branch),
        cmocka_unit_test(test_ite_var_is_identity),
        cmocka_unit_test(test_ite_truth_tables),
        cmocka_unit_test(test_ite_with_graph_branches_three_vars),
        cmocka_unit_test(test_apply2_sum_of_two_int_vars),
        cmocka_unit_test(test_apply2_with_a_terminal_operand),
        cmocka_unit_test(test_linear_sum_is_the_folded_sum),
        cmocka_unit_test(test_linear_sum_skips_what_it_does_not_depend_on),
        cmocka_unit_test(test_apply2_constant_result_reduces_to_terminal),
        cmocka_unit_test(test_apply2_results_are_cached),
        cmocka_unit_test(test_apply2_laws_give_the_same_graph_with_fewer_calls),
        cmocka_unit_test(test_and_is_false_agrees_with_building_the_conjunction),
        cmocka_unit_test(test_apply1_reduces_to_what_matters),
        cmocka_unit_test(test_de_morgan_gives_the_same_ref),
        cmocka_unit_test(test_construction_order_does_not_matter),
        cmocka_unit_test(test_ite_equals_hand_built_graph),
        cmocka_unit_test(test_tautology_and_contradiction_are_terminals),
        cmocka_unit_test(test_parity_of_ten_vars_is_linear_and_canonical),
        cmocka_unit_test(test_multi_valued_equality_canonical),
        cmocka_unit_test(test_replace_kind_replaces_every_terminal_of_kind),
        cmocka_unit_test(test_replace_kind_reduces_the_result),
        cmocka_unit_test(test_replace_kind_absent_kind_is_identity),
        cmocka_unit_test(test_replace_kind_keeps_a_part_without_the_kind),
        cmocka_unit_test(test_replace_kind_puts_rulings_under_a_part_in_order),
        cmocka_unit_test(test_restrict_agrees_where_care_holds),
        cmocka_unit_test(test_restrict_drops_tests_care_makes_pointless),
        cmocka_unit_test(test_done_building_keeps_graph_canonical),
        cmocka_unit_test(test_size_and_reaches),
        cmocka_unit_test(test_zero_variable_graph),
        cmocka_unit_test(test_replace_kind_with_graph_on_tested_var_is_canonical),
    };
    return cmocka_run_group_tests_name("graph", tests, NULL, NULL);
}
