/* expr.h — the meaning of the rule language's operators and the evaluation
 * of compiled expressions. The compiler folds the same operators over
 * decision graphs, so a condition means one thing at compile time and at
 * ruling time. */
#ifndef ARBITER_EXPR_H
#define ARBITER_EXPR_H

#include "ruleset.h"

enum expr_status {
    EXPR_OK,
    EXPR_OVERFLOW, /* 64-bit integer overflow */
    EXPR_DIV_ZERO, /* division or remainder by zero */
    EXPR_NO_ROW,   /* a table has no row for the key */
    EXPR_UNKNOWN,  /* a fact the expression needs is not known */
    EXPR_TOO_LARGE /* the decision graph grew past its budget (= GRAPH_ERROR_TOO_LARGE) */
};

const char *expr_status_text(enum expr_status s);

/* a OP b for the binary operators of ast.h (and/or/implies on 0/1). */
enum expr_status expr_binop(int op, int64_t a, int64_t b, int64_t *out);
enum expr_status expr_unop(int op, int64_t a, int64_t *out);
enum expr_status expr_table(const rs_table *t, const int64_t *keys, int64_t *out);

/* The fact values of one situation: value[f] is meaningful where known[f]. */
typedef struct fact_values {
    int64_t *value;
    bool *known;
} fact_values;

/* On EXPR_UNKNOWN, *missing is the fact that is needed. */
enum expr_status expr_eval(const ruleset *rs, int e, const fact_values *fv, int64_t *out,
                           int *missing);

/* Calls visit(ctx, f) for each fact expression e reads, in order, and
 * for a derived one then for what its expression reads; stops, returning
 * true, when visit does. */
bool expr_reads(const ruleset *rs, int e, bool (*visit)(void *ctx, int fact), void *ctx);

/* The decision graph of expression e's value over the variables of g: the
 * operators folded over terminals, exactly as expr_eval computes them.
 * fact_graph gives the graph of each fact the expression reads; salt keeps
 * apart the cached operations of two rulesets that share one graph. A
 * table looked up with more than two keys sets *too_many_keys. */
typedef gref (*expr_fact_graph)(void *ctx, int fact, src_loc use);
gref expr_to_graph(graph *g, const ruleset *rs, int e, expr_fact_graph fact_graph, void *ctx,
                   unsigned salt, bool *too_many_keys);

#endif
