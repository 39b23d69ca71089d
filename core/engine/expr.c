/* expr.c — operators and expression evaluation. */
#include "expr.h"

#include "ops.h"

_Static_assert(EXPR_TOO_LARGE == GRAPH_ERROR_TOO_LARGE,
               "graph.c marks a graph too large with this code");

const char *expr_status_text(enum expr_status s) {
    switch (s) {
    case EXPR_OK:
        return "ok";
    case EXPR_OVERFLOW:
        return "integer overflow";
    case EXPR_DIV_ZERO:
        return "division by zero";
    case EXPR_NO_ROW:
        return "no table row for this key";
    case EXPR_UNKNOWN:
        return "a fact is not known";
    case EXPR_TOO_LARGE:
        return "the decisions grew too large to build (a condition such as a product of several "
               "facts "
               "has too many outcomes; compute it in fewer steps)";
    }
    return "?";
}

enum expr_status expr_unop(int op, int64_t a, int64_t *out) {
    if (op == OP_NOT) {
        *out = !a;
        return EXPR_OK;
    }
    if (a == INT64_MIN) return EXPR_OVERFLOW;
    *out = -a;
    return EXPR_OK;
}

enum expr_status expr_binop(int op, int64_t a, int64_t b, int64_t *out) {
    switch (op) {
    case OP_AND:
        *out = a && b;
        break;
    case OP_OR:
        *out = a || b;
        break;
    case OP_IMPLIES:
        *out = !a || b;
        break;
    case OP_EQ:
        *out = a == b;
        break;
    case OP_NE:
        *out = a != b;
        break;
    case OP_LT:
        *out = a < b;
        break;
    case OP_LE:
        *out = a <= b;
        break;
    case OP_GT:
        *out = a > b;
        break;
    case OP_GE:
        *out = a >= b;
        break;
    case OP_ADD:
        if (__builtin_add_overflow(a, b, out)) return EXPR_OVERFLOW;
        break;
    case OP_SUB:
        if (__builtin_sub_overflow(a, b, out)) return EXPR_OVERFLOW;
        break;
    case OP_MUL:
        if (__builtin_mul_overflow(a, b, out)) return EXPR_OVERFLOW;
        break;
    case OP_DIV:
    case OP_MOD:
        if (b == 0) return EXPR_DIV_ZERO;
        if (a == INT64_MIN && b == -1) return EXPR_OVERFLOW;
        *out = op == OP_DIV ? a / b : a % b;
        break;
    default:
        return EXPR_OVERFLOW;
    }
    return EXPR_OK;
}

static bool key_offset(const rs_type *t, int64_t v, int64_t *off, int64_t *size) {
    int64_t lo = t->kind == TY_INT ? t->lo : 0;
    *size = t->kind == TY_BOOL ? 2 : t->kind == TY_ENUM ? t->nvalues : t->hi - t->lo + 1;
    if (__builtin_sub_overflow(v, lo, off)) return false; /* a value far outside the range */
    return *off >= 0 && *off < *size;
}

enum expr_status expr_table(const rs_table *t, const int64_t *keys, int64_t *out) {
    int64_t index = 0;
    for (int i = 0; i < t->nkeys; i++) {
        int64_t off, size;
        if (!key_offset(t->keys[i], keys[i], &off, &size)) return EXPR_NO_ROW;
        /* checked: a table whose key ranges multiply past 64 bits must not
         * turn into a wild index */
        if (__builtin_mul_overflow(index, size, &index) ||
            __builtin_add_overflow(index, off, &index))
            return EXPR_NO_ROW;
    }
    if (index < 0 || index >= t->ncells || !t->cells || t->cells[index] == INT64_MIN)
        return EXPR_NO_ROW;
    *out = t->cells[index];
    return EXPR_OK;
}

/* Tables hold at most this many keys; the compiler enforces it. */
#define EXPR_MAX_KEYS 4

enum expr_status expr_eval(const ruleset *rs, int e, const fact_values *fv, int64_t *out,
                           int *missing);

/* A constant or an input fact without a call: most operands are one, and
 * an invariant check evaluates dozens of them per ruling. */
static inline enum expr_status operand(const ruleset *rs, int e, const fact_values *fv,
                                       int64_t *out, int *missing) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (x->kind == EX_CONST) {
        *out = x->k;
        return EXPR_OK;
    }
    if (x->kind == EX_FACT && rs->facts[x->a].derived < 0) {
        if (!fv->known[x->a]) {
            *missing = x->a;
            return EXPR_UNKNOWN;
        }
        *out = fv->value[x->a];
        return EXPR_OK;
    }
    return expr_eval(rs, e, fv, out, missing);
}

/* The value that settles `and` (false), `or` and `implies` (true) on either side. */
static bool settles(int op, bool left, int64_t v) {
    if (op == OP_AND) return !v;
    if (op == OP_OR) return v;
    return left ? !v : v; /* implies: a false premise or a true conclusion */
}

/* `and`, `or` and `implies` decide on the left side when they can, as a
 * reader expects (`x != 0 and 10 / x > 2` never divides by zero), and on
 * the right side when the left is not known: an invariant is settled by
 * whichever facts are given. */
static enum expr_status eval_logic(const ruleset *rs, const rs_expr *x, const fact_values *fv,
                                   int64_t *out, int *missing) {
    int64_t a, b;
    enum expr_status sa = operand(rs, x->a, fv, &a, missing);
    if (sa == EXPR_OK && settles(x->op, true, a)) return (*out = x->op != OP_AND), EXPR_OK;
    if (sa != EXPR_OK && sa != EXPR_UNKNOWN) return sa;
    int missing_b = -1;
    enum expr_status sb = operand(rs, x->b, fv, &b, &missing_b);
    if (sb == EXPR_OK && settles(x->op, false, b)) return (*out = x->op != OP_AND), EXPR_OK;
    if (sa == EXPR_UNKNOWN) return EXPR_UNKNOWN; /* *missing names the left side's fact */
    if (sb != EXPR_OK) {
        *missing = missing_b;
        return sb;
    }
    return expr_binop(x->op, a, b, out);
}

enum expr_status expr_eval(const ruleset *rs, int e, const fact_values *fv, int64_t *out,
                           int *missing) {
    const rs_expr *x = rs_expr_at(rs, e);
    int64_t a, b;
    enum expr_status s;
    switch (x->kind) {
    case EX_CONST:
        *out = x->k;
        return EXPR_OK;
    case EX_FACT: {
        const rs_fact *f = &rs->facts[x->a];
        if (f->derived >= 0) return expr_eval(rs, f->derived, fv, out, missing);
        if (!fv->known[x->a]) {
            *missing = x->a;
            return EXPR_UNKNOWN;
        }
        *out = fv->value[x->a];
        return EXPR_OK;
    }
    case EX_UNARY:
        if ((s = expr_eval(rs, x->a, fv, &a, missing))) return s;
        return expr_unop(x->op, a, out);
    case EX_BINARY:
        if (x->op == OP_AND || x->op == OP_OR || x->op == OP_IMPLIES)
            return eval_logic(rs, x, fv, out, missing);
        if ((s = operand(rs, x->a, fv, &a, missing))) return s;
        if ((s = operand(rs, x->b, fv, &b, missing))) return s;
        return expr_binop(x->op, a, b, out);
    case EX_IN:
        if ((s = operand(rs, x->a, fv, &a, missing))) return s;
        *out = 0;
        for (int i = 0; i < x->nargs; i++)
            if (rs_expr_at(rs, rs_arg(rs, x->args + i))->k == a) *out = 1;
        return EXPR_OK;
    case EX_TABLE: {
        int64_t keys[EXPR_MAX_KEYS];
        for (int i = 0; i < x->nargs && i < EXPR_MAX_KEYS; i++)
            if ((s = expr_eval(rs, rs_arg(rs, x->args + i), fv, &keys[i], missing))) return s;
        return expr_table(&rs->tables[x->a], keys, out);
    }
    case EX_MIN:
    case EX_MAX:
        if ((s = expr_eval(rs, x->a, fv, &a, missing))) return s;
        if ((s = expr_eval(rs, x->b, fv, &b, missing))) return s;
        *out = (x->kind == EX_MIN) == (a < b) ? a : b;
        return EXPR_OK;
    case EX_ABS:
        if ((s = expr_eval(rs, x->a, fv, &a, missing))) return s;
        if (a == INT64_MIN) return EXPR_OVERFLOW;
        *out = a < 0 ? -a : a;
        return EXPR_OK;
    case EX_SIGN:
        if ((s = expr_eval(rs, x->a, fv, &a, missing))) return s;
        *out = (a > 0) - (a < 0);
        return EXPR_OK;
    }
    return EXPR_OVERFLOW;
}

/* ---- expressions as decision graphs ------------------------------------------ */

enum { OPK_UNARY = 8, OPK_BINARY, OPK_IN, OPK_TABLE, OPK_MINMAX };

static uint64_t op_id(unsigned salt, int kind, int n) {
    return ((uint64_t)salt << 56) | ((uint64_t)kind << 40) | (uint64_t)(uint32_t)n;
}

static graph_term err_term(enum expr_status s) {
    return (graph_term){TERM_ERROR, s};
}

typedef struct fold_ctx {
    const ruleset *rs;
    const rs_expr *e;
} fold_ctx;

static graph_term fold_unary(void *ctx, graph_term a) {
    const rs_expr *e = ((fold_ctx *)ctx)->e;
    if (a.kind != TERM_VALUE) return a;
    int64_t v = 0;
    enum expr_status s = EXPR_OK;
    if (e->kind == EX_SIGN)
        v = (a.v > 0) - (a.v < 0);
    else if (e->kind == EX_ABS)
        s = a.v == INT64_MIN ? EXPR_OVERFLOW : ((v = a.v < 0 ? -a.v : a.v), EXPR_OK);
    else
        s = expr_unop(e->op, a.v, &v);
    return s ? err_term(s) : (graph_term){TERM_VALUE, v};
}

static graph_term fold_binary(void *ctx, graph_term a, graph_term b) {
    fold_ctx *f = ctx;
    const rs_expr *e = f->e;
    if (a.kind != TERM_VALUE) return a;
    if (e->kind == EX_BINARY &&
        ((e->op == OP_AND && !a.v) || (e->op == OP_OR && a.v) || (e->op == OP_IMPLIES && !a.v)))
        return (graph_term){TERM_VALUE, e->op != OP_AND};
    if (b.kind != TERM_VALUE) return b;
    int64_t v;
    enum expr_status s;
    if (e->kind == EX_MIN || e->kind == EX_MAX)
        return (graph_term){TERM_VALUE, (e->kind == EX_MIN) == (a.v < b.v) ? a.v : b.v};
    if (e->kind == EX_TABLE) {
        int64_t keys[2] = {a.v, b.v};
        s = expr_table(&f->rs->tables[e->a], keys, &v);
    } else {
        s = expr_binop(e->op, a.v, b.v, &v);
    }
    return s ? err_term(s) : (graph_term){TERM_VALUE, v};
}

static graph_term fold_in(void *ctx, graph_term a) {
    fold_ctx *f = ctx;
    if (a.kind != TERM_VALUE) return a;
    if (f->e->kind == EX_TABLE) {
        int64_t v;
        enum expr_status s = expr_table(&f->rs->tables[f->e->a], &a.v, &v);
        return s ? err_term(s) : (graph_term){TERM_VALUE, v};
    }
    for (int i = 0; i < f->e->nargs; i++)
        if (rs_expr_at(f->rs, rs_arg(f->rs, f->e->args + i))->k == a.v)
            return (graph_term){TERM_VALUE, 1};
    return (graph_term){TERM_VALUE, 0};
}

/* ---- comparisons of sums ---------------------------------------------------- */

/* A comparison whose two sides are sums of facts times constants
 * (beaten + equalled == others) is built by graph_linear over their
 * difference. The result is the one the general folding gives: the facts
 * are plain variables, and the sum of every term's largest magnitude is
 * far from overflowing, so no step of either way can overflow. */
#define LINEAR_MAX_TERMS 8
#define LINEAR_MAX_MAGNITUDE (INT64_MAX / 4)

typedef struct linear {
    graph *g;
    const ruleset *rs;
    expr_fact_graph fact_graph;
    void *ctx;
    int n;
    int var[LINEAR_MAX_TERMS];
    int64_t coef[LINEAR_MAX_TERMS];
    int64_t k;
    int64_t magnitude; /* the sum of |scale * value| over every term, as written */
} linear;

static bool add_magnitude(linear *l, int64_t scale, int64_t v) {
    int64_t m;
    if (v == INT64_MIN || __builtin_mul_overflow(scale, v < 0 ? -v : v, &m)) return false;
    if (m < 0) m = -m;
    return !__builtin_add_overflow(l->magnitude, m, &l->magnitude) &&
           l->magnitude <= LINEAR_MAX_MAGNITUDE;
}

static bool add_constant(linear *l, int64_t scale, int64_t v) {
    return add_magnitude(l, scale, v) && (l->k += scale * v, true);
}

static bool add_variable(linear *l, int64_t scale, int var) {
    const graph *g = l->g;
    int64_t lo = g->lo[var], hi = lo + g->domain[var] - 1;
    if (!add_magnitude(l, scale, -lo > hi ? lo : hi)) return false;
    for (int i = 0; i < l->n; i++)
        if (l->var[i] == var) return !__builtin_add_overflow(l->coef[i], scale, &l->coef[i]);
    if (l->n == LINEAR_MAX_TERMS) return false;
    int at = l->n++;
    for (; at > 0 && l->var[at - 1] > var; at--) { /* kept in the graph's order */
        l->var[at] = l->var[at - 1];
        l->coef[at] = l->coef[at - 1];
    }
    l->var[at] = var;
    l->coef[at] = scale;
    return true;
}

/* A fact's graph is a term of a sum when it is a value or a plain variable. */
static bool add_fact(linear *l, int64_t scale, gref r) {
    if (GRAPH_IS_TERM(r)) {
        const graph_term *t = graph_term_at(l->g, r);
        return t->kind == TERM_VALUE && add_constant(l, scale, t->v);
    }
    int var = l->g->nodes[r].var;
    return r == graph_var(l->g, var) && add_variable(l, scale, var);
}

static bool add_linear(linear *l, int x, int64_t scale) {
    const rs_expr *e = rs_expr_at(l->rs, x);
    switch (e->kind) {
    case EX_CONST:
        return add_constant(l, scale, e->k);
    case EX_FACT:
        return add_fact(l, scale, l->fact_graph(l->ctx, e->a, e->loc));
    case EX_UNARY:
        return e->op == OP_NEG && add_linear(l, e->a, -scale);
    case EX_BINARY: {
        if (e->op == OP_ADD || e->op == OP_SUB)
            return add_linear(l, e->a, scale) &&
                   add_linear(l, e->b, e->op == OP_ADD ? scale : -scale);
        if (e->op != OP_MUL) return false;
        const rs_expr *a = rs_expr_at(l->rs, e->a), *b = rs_expr_at(l->rs, e->b);
        const rs_expr *factor = a->kind == EX_CONST ? a : b->kind == EX_CONST ? b : NULL;
        int64_t by;
        if (!factor || factor->k == 0 || factor->k == INT64_MIN ||
            __builtin_mul_overflow(scale, factor->k, &by) || by == INT64_MIN)
            return false;
        return add_linear(l, factor == a ? e->b : e->a, by);
    }
    default:
        return false;
    }
}

static graph_term compare_with_zero(void *ctx, graph_term sum) {
    int64_t v;
    expr_binop(*(const int *)ctx, sum.v, 0, &v);
    return (graph_term){TERM_VALUE, v};
}

static bool is_comparison(int op) {
    return op == OP_EQ || op == OP_NE || op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE;
}

/* The comparison e as a graph_linear, when both its sides are sums. */
static bool linear_comparison(graph *g, const ruleset *rs, const rs_expr *e,
                              expr_fact_graph fact_graph, void *ctx, gref *out) {
    linear l = {.g = g, .rs = rs, .fact_graph = fact_graph, .ctx = ctx};
    if (!add_linear(&l, e->a, 1) || !add_linear(&l, e->b, -1)) return false;
    if (l.n < 2) return false; /* one variable: the general folding is as quick */
    int op = e->op;
    graph_sum sum = {l.n, l.var, l.coef, l.k};
    *out = graph_linear(g, &sum, compare_with_zero, &op);
    return true;
}

gref expr_to_graph(graph *g, const ruleset *rs, int x, expr_fact_graph fact_graph, void *ctx,
                   unsigned salt, bool *too_many_keys) {
    const rs_expr *e = rs_expr_at(rs, x);
    fold_ctx f = {rs, e};
#define SUB(i) expr_to_graph(g, rs, (i), fact_graph, ctx, salt, too_many_keys)
    switch (e->kind) {
    case EX_CONST:
        return graph_term_ref(g, TERM_VALUE, e->k);
    case EX_FACT:
        return fact_graph(ctx, e->a, e->loc);
    case EX_UNARY:
        return graph_apply1(g, op_id(salt, OPK_UNARY, e->op), SUB(e->a), fold_unary, &f);
    case EX_ABS:
        return graph_apply1(g, op_id(salt, OPK_UNARY, 99), SUB(e->a), fold_unary, &f);
    case EX_SIGN:
        return graph_apply1(g, op_id(salt, OPK_UNARY, 98), SUB(e->a), fold_unary, &f);
    case EX_BINARY: {
        gref r;
        if (is_comparison(e->op) && linear_comparison(g, rs, e, fact_graph, ctx, &r)) return r;
        return graph_apply2(g, op_id(salt, OPK_BINARY, e->op), SUB(e->a), SUB(e->b), fold_binary,
                            &f);
    }
    case EX_MIN:
    case EX_MAX:
        return graph_apply2(g, op_id(salt, OPK_MINMAX, e->kind), SUB(e->a), SUB(e->b), fold_binary,
                            &f);
    case EX_IN:
        return graph_apply1(g, op_id(salt, OPK_IN, x), SUB(e->a), fold_in, &f);
    case EX_TABLE:
        if (e->nargs == 1)
            return graph_apply1(g, op_id(salt, OPK_TABLE, x), SUB(rs_arg(rs, e->args)), fold_in,
                                &f);
        if (e->nargs == 2)
            return graph_apply2(g, op_id(salt, OPK_TABLE, x), SUB(rs_arg(rs, e->args)),
                                SUB(rs_arg(rs, e->args + 1)), fold_binary, &f);
        *too_many_keys = true;
        return graph_term_ref(g, TERM_ERROR, EXPR_NO_ROW);
    }
#undef SUB
    return graph_term_ref(g, TERM_VALUE, 0);
}

static bool reads(const ruleset *rs, int e, bool (*visit)(void *ctx, int fact), void *ctx,
                  int depth) {
    if (e < 0 || depth > 64)
        return false; /* derived facts cannot loop (the compiler refuses cycles) */
    const rs_expr *x = rs_expr_at(rs, e);
    if (x->kind == EX_CONST) return false;
    if (x->kind == EX_FACT)
        return visit(ctx, x->a) || (rs->facts[x->a].derived >= 0 &&
                                    reads(rs, rs->facts[x->a].derived, visit, ctx, depth + 1));
    if (x->kind != EX_TABLE && reads(rs, x->a, visit, ctx, depth + 1))
        return true; /* a table's a is the table */
    if (reads(rs, x->b, visit, ctx, depth + 1)) return true;
    for (int i = 0; x->kind == EX_TABLE && i < x->nargs; i++)
        if (reads(rs, rs_arg(rs, x->args + i), visit, ctx, depth + 1)) return true;
    return false;
}

bool expr_reads(const ruleset *rs, int e, bool (*visit)(void *ctx, int fact), void *ctx) {
    return reads(rs, e, visit, ctx, 0);
}
