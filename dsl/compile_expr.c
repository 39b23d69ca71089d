/* compile_expr.c — expressions: type-checked into the ruleset's expression
 * table, and turned into decision graphs within the graph budgets. */
#include "compile_internal.h"

/* ---- expressions ------------------------------------------------------------ */

static int new_expr(compiler *c, enum expr_op kind, const rs_type *type, src_loc loc) {
    rs_expr *e = vec_push(&c->rs->exprs);
    e->kind = kind;
    e->type = type;
    e->loc = loc;
    e->a = e->b = -1;
    return c->rs->exprs.len - 1;
}

rs_expr *expr_at(compiler *c, int e) {
    return &VEC_AT(&c->rs->exprs, rs_expr, e);
}

int const_expr(compiler *c, const rs_type *t, int64_t k, src_loc loc) {
    int e = new_expr(c, EX_CONST, t, loc);
    expr_at(c, e)->k = k;
    return e;
}

const rs_type *type_of_kind(compiler *c, enum type_kind kind) {
    static const char *const names[] = {"bool", "", "int", "call", "cite", "string"};
    if (kind == TY_CALL || kind == TY_CITE || kind == TY_STRING)
        return builtin_type(c, names[kind]);
    rs_type **shared =
        kind == TY_BOOL ? &c->bool_type : &c->int_type; /* TY_ENUM is never asked for */
    if (!*shared) *shared = type_new(c, NULL, kind);
    return *shared;
}

/* A bad expression still yields an expression (a constant) so that
 * compiling goes on and reports the next error too. */
static int bad_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    return const_expr(c, want ? want : type_of_kind(c, TY_BOOL), 0, e->loc);
}

static int call_literal(compiler *c, const ast_expr *e, const rs_type *want);

int name_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    if (want && want->kind == TY_ENUM) {
        int v = rs_enum_index(want, e->text);
        if (v >= 0) return const_expr(c, want, v, e->loc);
    }
    int f = find_fact(c, e->text);
    if (f >= 0) {
        int x = new_expr(c, EX_FACT, c->rs->facts[f].type, e->loc);
        expr_at(c, x)->a = f;
        return x;
    }
    if (want && want->kind == TY_CALL) return call_literal(c, e, want);
    if (want && want->kind == TY_ENUM) {
        ERR(c->d, e->loc, nearest(c, e->text, want->values, want->nvalues),
            "'%s' is neither a value of %s nor a fact", e->text, type_text(c, want));
    } else if (!report_removed(c, AD_FACT, e->text, e->loc)) {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->nfacts + 1));
        for (int i = 0; i < c->rs->nfacts; i++)
            names[i] = c->rs->facts[i].name;
        ERR(c->d, e->loc, nearest(c, e->text, names, c->rs->nfacts), "unknown fact '%s'", e->text);
    }
    return bad_expr(c, e, want);
}

static bool expect_type(compiler *c, int x, const rs_type *want, src_loc loc) {
    const rs_type *got = expr_at(c, x)->type;
    if (!want || same_type(got, want)) return true;
    ERR(c->d, loc, NULL, "expected %s, found %s", type_text(c, want), type_text(c, got));
    return false;
}

static int binary_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    int a, b;
    const rs_type *result;
    switch (e->op) {
    case OP_AND:
    case OP_OR:
    case OP_IMPLIES:
        a = compile_expr(c, e->a, type_of_kind(c, TY_BOOL));
        b = compile_expr(c, e->b, type_of_kind(c, TY_BOOL));
        result = type_of_kind(c, TY_BOOL);
        break;
    case OP_EQ:
    case OP_NE:
        /* A bare name on the left may be a value of the right side's type. */
        if (e->a->kind == AE_NAME && find_fact(c, e->a->text) < 0) {
            b = compile_expr(c, e->b, NULL);
            a = compile_expr(c, e->a, expr_at(c, b)->type);
        } else {
            a = compile_expr(c, e->a, NULL);
            b = compile_expr(c, e->b, expr_at(c, a)->type);
        }
        result = type_of_kind(c, TY_BOOL);
        break;
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE: {
        /* Integers compare by value, calls by rank (P < X < XX < 1C < … < 7NT). */
        int before = diag_errors(c->d);
        a = compile_expr(c, e->a, NULL);
        const rs_type *t =
            expr_at(c, a)->type->kind == TY_CALL ? expr_at(c, a)->type : type_of_kind(c, TY_INT);
        /* a left side already reported (an unknown fact) has no type worth
         * a second error */
        if (diag_errors(c->d) == before) expect_type(c, a, t, e->a->loc);
        b = compile_expr(c, e->b, t);
        result = type_of_kind(c, TY_BOOL);
        break;
    }
    default:
        a = compile_expr(c, e->a, type_of_kind(c, TY_INT));
        b = compile_expr(c, e->b, type_of_kind(c, TY_INT));
        result = type_of_kind(c, TY_INT);
        break;
    }
    int x = new_expr(c, EX_BINARY, result, e->loc);
    expr_at(c, x)->op = e->op;
    expr_at(c, x)->a = a;
    expr_at(c, x)->b = b;
    expect_type(c, x, want, e->loc);
    return x;
}

int push_args(compiler *c, const int *ids, int n) {
    int at = c->rs->expr_args.len;
    for (int i = 0; i < n; i++)
        *(int *)vec_push(&c->rs->expr_args) = ids[i];
    return at;
}

int find_table(compiler *c, const char *name) {
    for (int i = 0; i < c->rs->ntables; i++)
        if (strcmp(c->rs->tables[i].name, name) == 0) return i;
    return -1;
}

static int call_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    int ids[8], n = e->args.n;
    if (n > 8) n = 8;
    bool minmax = strcmp(e->text, "min") == 0 || strcmp(e->text, "max") == 0;
    bool sign = strcmp(e->text, "sign") == 0;
    if (minmax || sign || strcmp(e->text, "abs") == 0) {
        if (e->args.n != (minmax ? 2 : 1)) {
            ERR(c->d, e->loc, NULL, "%s takes %d argument%s", e->text, minmax ? 2 : 1,
                minmax ? "s" : "");
            return bad_expr(c, e, want);
        }
        for (int i = 0; i < n; i++)
            ids[i] = compile_expr(c, e->args.items[i], type_of_kind(c, TY_INT));
        int x = new_expr(c,
                         minmax ? (e->text[1] == 'i' ? EX_MIN : EX_MAX)
                         : sign ? EX_SIGN
                                : EX_ABS,
                         type_of_kind(c, TY_INT), e->loc);
        expr_at(c, x)->a = ids[0];
        expr_at(c, x)->b = minmax ? ids[1] : -1;
        expect_type(c, x, want, e->loc);
        return x;
    }
    int t = find_table(c, e->text);
    if (t < 0) {
        if (!report_removed(c, AD_TABLE, e->text, e->loc))
            ERR(c->d, e->loc, "tables and min, max, abs, sign can be called",
                "unknown table or function '%s'", e->text);
        return bad_expr(c, e, want);
    }
    const rs_table *tb = &c->rs->tables[t];
    if (e->args.n != tb->nkeys) {
        ERR(c->d, e->loc, NULL, "table '%s' takes %d key%s, given %d", tb->name, tb->nkeys,
            tb->nkeys == 1 ? "" : "s", e->args.n);
        return bad_expr(c, e, want);
    }
    for (int i = 0; i < n; i++)
        ids[i] = compile_expr(c, e->args.items[i], tb->keys[i]);
    int x = new_expr(c, EX_TABLE, tb->value, e->loc);
    expr_at(c, x)->a = t;
    expr_at(c, x)->args = push_args(c, ids, n);
    expr_at(c, x)->nargs = n;
    expect_type(c, x, want, e->loc);
    return x;
}

bool is_constant(compiler *c, int x) {
    const rs_expr *e = expr_at(c, x);
    if (e->kind == EX_CONST) return true;
    if (e->kind == EX_UNARY && e->op == OP_NEG) return is_constant(c, e->a);
    return false;
}

int64_t constant_value(compiler *c, int x) {
    const rs_expr *e = expr_at(c, x);
    return e->kind == EX_CONST ? e->k : -constant_value(c, e->a);
}

static int in_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    int a = compile_expr(c, e->a, NULL);
    int ids[RS_MAX_DOMAIN], n = 0;
    for (int i = 0; i < e->args.n && n < RS_MAX_DOMAIN; i++) {
        int v = compile_expr(c, e->args.items[i], expr_at(c, a)->type);
        if (!is_constant(c, v)) {
            ERR(c->d, ((ast_expr *)e->args.items[i])->loc, NULL,
                "the set after 'in' holds values, not expressions");
            continue;
        }
        ids[n++] = const_expr(c, expr_at(c, a)->type, constant_value(c, v), expr_at(c, v)->loc);
    }
    int x = new_expr(c, EX_IN, type_of_kind(c, TY_BOOL), e->loc);
    expr_at(c, x)->a = a;
    expr_at(c, x)->args = push_args(c, ids, n);
    expr_at(c, x)->nargs = n;
    expect_type(c, x, want, e->loc);
    return x;
}

/* A call written as 3H, "3H", P, X or XX. */
static int call_literal(compiler *c, const ast_expr *e, const rs_type *want) {
    bridge_call call;
    char err[160];
    if (!bridge_parse_call(e->text, &call, err, sizeof err)) {
        ERR(c->d, e->loc, "a call is P, X, XX or a bid such as 1S or 3NT", "%s", err);
        return bad_expr(c, e, want);
    }
    return const_expr(c, want, call_to_value(&call), e->loc);
}

static int literal_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    switch (e->kind) {
    case AE_INT:
        if (want && want->kind == TY_CITE)
            return const_expr(c, want, string_number(c, e->text), e->loc);
        {
            int x = const_expr(c, type_of_kind(c, TY_INT), e->ival, e->loc);
            expect_type(c, x, want, e->loc);
            return x;
        }
    case AE_BOOL: {
        int x = const_expr(c, type_of_kind(c, TY_BOOL), e->ival, e->loc);
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_CITE:
        if (want && want->kind == TY_CALL) return call_literal(c, e, want);
        if (want && want->kind != TY_CITE && want->kind != TY_STRING) {
            ERR(c->d, e->loc, NULL, "expected %s, found the citation %s", type_text(c, want),
                e->text);
            return bad_expr(c, e, want);
        }
        return const_expr(c, want ? want : type_of_kind(c, TY_CITE), string_number(c, e->text),
                          e->loc);
    default: /* AE_STRING */
        if (want && want->kind == TY_CALL) return call_literal(c, e, want);
        if (want && want->kind != TY_STRING && want->kind != TY_CITE) {
            ERR(c->d, e->loc, "names of values and facts are written without quotes",
                "expected %s, found a string", type_text(c, want));
            return bad_expr(c, e, want);
        }
        return const_expr(c, want ? want : type_of_kind(c, TY_STRING), string_number(c, e->text),
                          e->loc);
    }
}

/* Type-checks e against want (NULL: any type) and compiles it. */
int compile_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    switch (e->kind) {
    case AE_NAME: {
        int x = name_expr(c, e, want);
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_UNARY: {
        const rs_type *t = type_of_kind(c, e->op == OP_NOT ? TY_BOOL : TY_INT);
        int a = compile_expr(c, e->a, t);
        int x = new_expr(c, EX_UNARY, t, e->loc);
        expr_at(c, x)->op = e->op;
        expr_at(c, x)->a = a;
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_BINARY:
        return binary_expr(c, e, want);
    case AE_CALL:
        return call_expr(c, e, want);
    case AE_IN:
        return in_expr(c, e, want);
    default:
        return literal_expr(c, e, want);
    }
}

/* ---- expressions as decision graphs ------------------------------------------ */

static gref fact_graph(compiler *c, int f, src_loc use);

static gref fact_graph_cb(void *ctx, int fact, src_loc use) {
    return fact_graph(ctx, fact, use);
}

/* ---- graph budgets --------------------------------------------------------- */

/* The values an expression may take, as far as its facts' ranges tell: at
 * most `count` of them, all in lo..hi. Doubles, so that products of
 * 64-bit bounds cannot overflow; only their size matters. */
static value_span span_of(compiler *c, int x);

#define UNBOUNDED 1e300 /* beyond any count */
static double dmin(double a, double b) {
    return a < b ? a : b;
}
static double dmax(double a, double b) {
    return a > b ? a : b;
}
static double dabs(double a) {
    return a < 0 ? -a : a;
}

static value_span span_in(double lo, double hi, double count) {
    double width = hi - lo + 1;
    return (value_span){count < width ? count : width, lo, hi};
}

static value_span fact_span(compiler *c, int f) {
    const rs_fact *fact = &c->rs->facts[f];
    if (c->fact_span[f].count > 0) return c->fact_span[f];
    value_span v = {1, 0, 0}; /* what a decision cannot test adds no values */
    const rs_type *t = fact->type;
    if (fact->derived >= 0 && fact->var < 0) /* check_derived_cycles broke every cycle */
        v = span_of(c, fact->derived);
    else if (t->kind == TY_INT && t->bounded)
        v = span_in((double)t->lo, (double)t->hi, UNBOUNDED);
    else if (rs_decision_values(t) > 0)
        v = span_in(0, rs_decision_values(t) - 1, UNBOUNDED);
    if (!(v.count >= 1)) v.count = 1; /* an empty range is an error of its own */
    return c->fact_span[f] = v;
}

/* A table's values: those of its cells (memoized, as a fact's are). */
static value_span table_span(compiler *c, int t) {
    if (!c->table_span)
        c->table_span = arena_alloc(c->a, sizeof(value_span) * (size_t)(c->rs->ntables + 1));
    if (c->table_span[t].count > 0) return c->table_span[t];
    const rs_table *tb = &c->rs->tables[t];
    double lo = UNBOUNDED, hi = -UNBOUNDED;
    for (int i = 0; i < tb->ncells; i++) {
        if (tb->cells[i] == INT64_MIN) continue; /* no row: an error leaf, not a value */
        lo = dmin(lo, (double)tb->cells[i]);
        hi = dmax(hi, (double)tb->cells[i]);
    }
    value_span v = lo <= hi ? span_in(lo, hi, tb->ncells) : (value_span){1, 0, 0};
    return c->table_span[t] = v;
}

static value_span arith_span(int op, value_span a, value_span b) {
    double n = a.count * b.count;
    switch (op) {
    case OP_ADD:
        return span_in(a.lo + b.lo, a.hi + b.hi, n);
    case OP_SUB:
        return span_in(a.lo - b.hi, a.hi - b.lo, n);
    case OP_MUL: {
        double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}, lo = p[0], hi = p[0];
        for (int i = 1; i < 4; i++) {
            lo = p[i] < lo ? p[i] : lo;
            hi = p[i] > hi ? p[i] : hi;
        }
        return span_in(lo, hi, n);
    }
    default: { /* a quotient or a remainder is no larger than the dividend */
        double m = dmax(dabs(a.lo), dabs(a.hi));
        return span_in(-m, m, n);
    }
    }
}

static value_span span_of(compiler *c, int x) {
    const rs_expr *e = rs_expr_at(c->rs, x);
    switch (e->kind) {
    case EX_CONST:
        return (value_span){1, (double)e->k, (double)e->k};
    case EX_FACT:
        return fact_span(c, e->a);
    case EX_UNARY: {
        value_span a = span_of(c, e->a);
        return e->op == OP_NEG ? (value_span){a.count, -a.hi, -a.lo} : (value_span){2, 0, 1};
    }
    case EX_ABS: {
        value_span a = span_of(c, e->a);
        return span_in(0, dmax(dabs(a.lo), dabs(a.hi)), a.count);
    }
    case EX_SIGN:
        return (value_span){3, -1, 1};
    case EX_BINARY: {
        value_span a = span_of(c, e->a), b = span_of(c, e->b);
        return e->op >= OP_ADD ? arith_span(e->op, a, b) : (value_span){2, 0, 1};
    }
    case EX_MIN:
    case EX_MAX: {
        value_span a = span_of(c, e->a), b = span_of(c, e->b);
        return span_in(dmin(a.lo, b.lo), dmax(a.hi, b.hi), a.count + b.count);
    }
    case EX_TABLE:
        return table_span(c, e->a);
    case EX_IN:
        return (value_span){2, 0, 1};
    }
    return (value_span){1, 0, 0};
}

/* The first part of x (innermost first) whose graph would outgrow the
 * budgets: arithmetic that may take more than MAX_EXPR_VALUES values
 * (*values set), or an operation on two sides whose values make more than
 * MAX_EXPR_PAIRS pairs. -1 when there is none. */
static int too_wide(compiler *c, int x, bool *values) {
    const rs_expr *e = rs_expr_at(c->rs, x);
    int parts[2] = {-1, -1};
    if (e->kind == EX_UNARY || e->kind == EX_ABS || e->kind == EX_SIGN) parts[0] = e->a;
    bool two = e->kind == EX_BINARY || e->kind == EX_MIN || e->kind == EX_MAX;
    if (two) parts[0] = e->a, parts[1] = e->b;
    for (int i = 0; i < 2; i++) {
        int inner = parts[i] >= 0 ? too_wide(c, parts[i], values) : -1;
        if (inner >= 0) return inner;
    }
    if (!two) return -1;
    *values = e->kind == EX_BINARY && e->op >= OP_ADD && span_of(c, x).count > MAX_EXPR_VALUES;
    return *values || span_of(c, e->a).count * span_of(c, e->b).count > MAX_EXPR_PAIRS ? x : -1;
}

/* The ruleset-wide graph budgets, after an expression or an article (at
 * loc) is built: false, after one error at loc, once one has run out.
 * Past GRAPH_MAX_WORK or GRAPH_MAX_KIDS every operation has ended in the
 * "too large" leaf; past MAX_GRAPH_NODES nothing more is built. */
bool graph_within_budget(compiler *c, src_loc loc) {
    if (c->graph_spent) return false;
    const graph *g = c->rs->graph;
    bool too_large = g->work > GRAPH_MAX_WORK || g->nkids > GRAPH_MAX_KIDS - RS_MAX_DOMAIN;
    if (!too_large && g->nnodes <= MAX_GRAPH_NODES) return true;
    c->graph_spent = true;
    if (too_large)
        ERR(c->d, loc, "compute it in fewer steps, or test fewer facts in one condition",
            "the decisions grew too large to build here (a condition such as a product of several "
            "facts has too many outcomes)");
    else
        ERR(c->d, loc,
            "split the regulations into rulesets of their own, or test fewer facts in one "
            "condition",
            "the decisions of the ruleset grew past %d graph nodes here", MAX_GRAPH_NODES);
    return false;
}

static double tree_bound(compiler *c, int x);

/* How large a decision tree on the facts x names (derived facts through
 * their expressions) could be: the product of their numbers of values,
 * each counted as often as it is named. No graph of x, or of a part of it,
 * has more nodes. */
static double fact_tree_bound(compiler *c, int f) {
    if (c->fact_tree[f] > 0) return c->fact_tree[f];
    const rs_fact *fact = &c->rs->facts[f];
    double n = fact->derived >= 0 && fact->var < 0 ? tree_bound(c, fact->derived)
                                                   : rs_decision_values(fact->type);
    return c->fact_tree[f] = n >= 1 ? n : 1;
}

static double tree_bound(compiler *c, int x) {
    const rs_expr *e = rs_expr_at(c->rs, x);
    double n = 1;
    switch (e->kind) {
    case EX_CONST:
        return 1;
    case EX_FACT:
        return fact_tree_bound(c, e->a);
    case EX_BINARY:
    case EX_MIN:
    case EX_MAX:
        n = tree_bound(c, e->b); /* fall through */
    case EX_UNARY:
    case EX_ABS:
    case EX_SIGN:
    case EX_IN:
        return dmin(n * tree_bound(c, e->a), UNBOUNDED);
    case EX_TABLE:
        for (int i = 0; i < e->nargs; i++)
            n = dmin(n * tree_bound(c, rs_arg(c->rs, e->args + i)), UNBOUNDED);
        return n;
    }
    return 1;
}

/* The graphs of x's parts, each built before the part that uses it and
 * the budgets checked after each: a blow-up stops at the part where a
 * budget ran out, not after the whole expression was built. Building x
 * itself then finds each part's graph in the operation cache. A part on
 * too few facts to outgrow MAX_EXPR_VALUES nodes is left to that build:
 * the steps cost a walk of each part, and most conditions are small. */
static bool parts_within_budget(compiler *c, int x) {
    if (tree_bound(c, x) <= MAX_EXPR_VALUES) return true;
    const rs_expr *e = rs_expr_at(c->rs, x);
    int parts[2] = {-1, -1};
    switch (e->kind) {
    case EX_UNARY:
    case EX_ABS:
    case EX_SIGN:
    case EX_IN:
        parts[0] = e->a;
        break;
    case EX_BINARY:
    case EX_MIN:
    case EX_MAX:
        parts[0] = e->a, parts[1] = e->b;
        break;
    case EX_TABLE:
        for (int i = 0; i < e->nargs && i < 2; i++)
            parts[i] = rs_arg(c->rs, e->args + i);
        break;
    default:
        return true; /* a constant or a fact: nothing to build in steps */
    }
    for (int i = 0; i < 2; i++) {
        if (parts[i] < 0) continue;
        const rs_expr *p = rs_expr_at(c->rs, parts[i]);
        if (!parts_within_budget(c, parts[i])) return false;
        if (p->kind == EX_CONST || p->kind == EX_FACT) continue;
        bool too_many_keys = false; /* reported when x is built */
        expr_to_graph(c->rs->graph, c->rs, parts[i], fact_graph_cb, c, 0, &too_many_keys);
        if (!graph_within_budget(c, p->loc)) return false;
    }
    return true;
}

/* The decision graph of an expression's value over the input facts. */
gref expr_graph(compiler *c, int x) {
    gref error = graph_term_ref(c->rs->graph, TERM_ERROR, EXPR_TOO_LARGE);
    if (c->graph_spent) return error;
    bool values = false;
    int wide = too_wide(c, x, &values);
    if (wide >= 0) {
        const rs_expr *e = rs_expr_at(c->rs, wide);
        if (values)
            ERR(c->d, e->loc, "compute it in fewer steps, or test fewer facts in one condition",
                "the value computed here can take up to %.0f different values; a decision may test "
                "at most %d",
                span_of(c, wide).count, MAX_EXPR_VALUES);
        else
            ERR(c->d, e->loc, "compute it in fewer steps, or test fewer facts in one condition",
                "the two sides here can take up to %.0f and %.0f values: more pairs than the %d a "
                "decision may weigh",
                span_of(c, e->a).count, span_of(c, e->b).count, MAX_EXPR_PAIRS);
        return error;
    }
    if (!parts_within_budget(c, x)) return error;
    bool too_many_keys = false;
    gref g = expr_to_graph(c->rs->graph, c->rs, x, fact_graph_cb, c, 0, &too_many_keys);
    if (too_many_keys)
        ERR(c->d, rs_expr_at(c->rs, x)->loc, "compute the value in a derived fact with fewer keys",
            "a decision can look up tables with at most two keys");
    return graph_within_budget(c, rs_expr_at(c->rs, x)->loc) ? g : error;
}

static gref fact_graph(compiler *c, int f, src_loc use) {
    /* Called at each fact an expression names as its graph is built: the
     * budgets are checked as the graph grows, not only once it is built,
     * and the error names the fact where they ran out. */
    if (!graph_within_budget(c, use))
        return graph_term_ref(c->rs->graph, TERM_ERROR, EXPR_TOO_LARGE);
    if (c->fact_graph[f]) return c->fact_graph[f] - 1;
    rs_fact *fact = &c->rs->facts[f];
    gref g;
    if (fact->var >= 0) { /* an input fact, or a derived one computed before the walk */
        g = graph_var(c->rs->graph, fact->var);
    } else if (fact->derived >= 0) {
        g = expr_graph(c, fact->derived); /* check_derived_cycles broke every cycle */
    } else {
        ERR(c->d, use,
            "a fact tested in a decision takes at most 256 values: declare a range such as "
            "int 0..255, or test a yes/no or enum fact derived from it (`fact made : bool = "
            "points > 81`: it is computed before the decision)",
            "fact '%s' (%s) cannot be tested in a decision", fact->name, type_text(c, fact->type));
        return graph_term_ref(c->rs->graph, TERM_VALUE, 0);
    }
    c->fact_graph[f] = g + 1; /* 0 means "not yet"; references may be 0 */
    return g;
}

/* A condition: an expression of type bool, as a graph with 0/1 terminals. */
gref cond_graph(compiler *c, const ast_expr *e) {
    return expr_graph(c, compile_expr(c, e, type_of_kind(c, TY_BOOL)));
}
