/* ruleset.h — a compiled ruleset: types, facts, actions, tables, the
 * decision graphs of its articles and its tests. The compiler (dsl/) builds
 * it; the evaluator, the checker's reports and the CLI read it. Everything
 * is owned by the ruleset's arena, except the graph. */
#ifndef ARBITER_RULESET_H
#define ARBITER_RULESET_H

#include "diag.h"
#include "graph.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

/* Limits on what one ruleset may declare; each well above what a real body
 * of regulations needs, so that a runaway file fails with a message. */
#define RS_MAX_DOMAIN 256 /* values of a fact that a decision may test */
/* A value of the type `call`: 0 pass, 1 double, 2 redouble, then the bids in
 * rank order (3 = 1C … 37 = 7NT), so that a decision can test a call like an
 * enum of RS_CALL_VALUES values. Bids above seven get values past that
 * range, up to level RS_CALL_MAX_LEVEL: a ruling can name them, a decision
 * cannot test them. */
#define RS_CALL_VALUES 38
#define RS_CALL_MAX_LEVEL 99

enum type_kind { TY_BOOL, TY_ENUM, TY_INT, TY_CALL, TY_CITE, TY_STRING };

typedef struct rs_type {
    const char *name; /* NULL for an anonymous type */
    enum type_kind kind;
    int nvalues;            /* enum */
    const char **values;    /* enum value names */
    const char **labels;    /* enum value labels (NULL where none) */
    const char **labels_en; /* English labels (NULL where none) */
    bool bounded;           /* int: lo..hi given */
    int64_t lo, hi;
} rs_type;

/* Expressions as the evaluator runs them (action arguments, derived facts). */
enum expr_op {
    EX_CONST,  /* k (a string or citation: k indexes rs.strings) */
    EX_FACT,   /* a = fact index */
    EX_UNARY,  /* op (OP_NOT, OP_NEG), a */
    EX_BINARY, /* op, a, b */
    EX_IN,     /* a in args[0..nargs) (constants) */
    EX_TABLE,  /* a = table, args = key expressions */
    EX_MIN,
    EX_MAX,
    EX_ABS,
    EX_SIGN
};

typedef struct rs_expr {
    enum expr_op kind;
    int op;
    int a, b;
    int args, nargs; /* into rs.expr_args */
    int64_t k;
    const struct rs_type *type;
    src_loc loc;
} rs_expr;

typedef struct rs_fact {
    const char *name;
    src_loc loc;
    const rs_type *type;
    const char *ask, *ask_en;
    int builtin;           /* index into the auction built-ins, or -1 */
    bool overridable;      /* a value the scenario gives wins over the built-in */
    int derived;           /* expression, or -1 for an input fact */
    int var;               /* graph variable (input facts that may be tested), or -1 */
    bool has_default;      /* `default`: assumed when the scenario does not say, */
    int64_t default_value; /* shown as assumed, and the director may correct it */
} rs_fact;

typedef struct rs_param {
    const char *name;
    const rs_type *type;
} rs_param;

typedef struct rs_action {
    const char *name;
    src_loc loc;
    int nparams;
    rs_param *params;
    const char *text, *text_en;
} rs_action;

typedef struct rs_table {
    const char *name;
    src_loc loc;
    int nkeys;
    const rs_type **keys;
    const rs_type *value;
    int64_t *cells; /* row-major over the key domains */
    int ncells;
} rs_table;

typedef struct rs_clause {
    const char *cite; /* NULL when the clause cites nothing */
    src_loc loc;
    int article;     /* the article it belongs to */
    bool is_article; /* the entry of an article (cites its number) */
    /* For the checker's report of clauses an earlier one partly hides
     * (core/tools/overlap.h): the clause's own condition (a 0/1 graph), or
     * RS_NO_COND for one taken whatever holds (otherwise, apply, a
     * citation), and the clause before it in its block, or -1. */
    gref cond;
    int earlier;
} rs_clause;

#define RS_NO_COND INT32_MIN

/* An action as a ruling names it, with argument expressions, attached to the
 * clause that gives it. */
typedef struct rs_action_use {
    int action;
    int clause;
    int args; /* into rs.expr_args, action->nparams of them */
} rs_action_use;

/* A ruling as a graph leaf: the clauses passed and the actions named, in
 * order. Outcomes are interned: the same ruling is the same index. */
typedef struct rs_outcome {
    int ntrail, nactions;
    int *trail;   /* clause ids */
    int *actions; /* action-use ids */
} rs_outcome;

typedef struct rs_article {
    const char *id, *title; /* title: "" when the rule file gives none */
    const char *title_en;   /* NULL when the rule file gives none */
    src_loc loc;
    int entry_clause;
    bool has_when;
    gref root; /* its own graph: body where `when` holds, TERM_NOT_APPLICABLE elsewhere
                  (simplified where an invariant fails, as rs.root) */
} rs_article;

typedef struct rs_invariant {
    const char *message, *message_en;
    src_loc loc;
    int expr; /* checked on the known facts before a ruling */
} rs_invariant;

/* Situations a ruleset declares it does not (yet) rule on, with the reason:
 * a partial ruleset says so instead of having gaps. */
typedef struct rs_outside {
    const char *message, *message_en;
    src_loc loc;
} rs_outside;

/* Two articles that may both rule on one situation, their measures joined:
 * `combine A B` (the law's rectification beside a club's penalty). Without
 * it the checker warns where their `when`s meet (core/tools/overlap.h). */
typedef struct rs_combine {
    int a, b; /* articles */
    src_loc loc;
} rs_combine;

typedef struct rs_block {
    src_loc loc;
    int article;
} rs_block;

enum expect_kind { EXP_CITE, EXP_ACTION, EXP_TRAIL, EXP_ASKS, EXP_REJECTED, EXP_OUTSIDE };

/* The pointers first, then the ints, then the flags: a ruleset keeps
 * thousands of these (no padding between the fields). */
typedef struct rs_expect {
    src_loc loc;
    const char *cite; /* EXP_CITE */
    int64_t *args;    /* EXP_ACTION with args: values */
    const char **trail;
    enum expect_kind kind;
    int action; /* EXP_ACTION */
    int ntrail; /* EXP_TRAIL */
    int fact;   /* EXP_ASKS */
    bool negated;
    bool has_args;
} rs_expect;

typedef struct rs_test {
    const char *name;
    src_loc loc;
    int *given_fact;
    int64_t *given_value;
    const char *auction; /* compact notation, or NULL */
    rs_expect *expect;
    int article; /* the article it rules with (e.g. a scoring article), or -1: the whole ruleset */
    int ngiven;
    int nexpect;
} rs_test;

/* The tables a `game klaverjas` ruleset declares (docs/klaverjas.md), each
 * keyed by the type `rank`; core/games/klaverjas.c names them. */
enum klaverjas_table {
    KJT_RANK_TRUMP,
    KJT_RANK_PLAIN,
    KJT_POINTS_TRUMP,
    KJT_POINTS_PLAIN,
    KJT_SEQUENCE_ORDER,
    KJT_COUNT
};

typedef struct ruleset {
    arena *arena;
    /* what else the ruleset's arrays lie in (a mapped image: the graph's
     * nodes and children), released after them by ruleset_free */
    void (*release)(void *ctx);
    void *release_ctx;
    const char *name, *title, *game, *dir;
    /* the articles that score a contract, matchpoint a board and convert a
     * difference to IMPs (header keys score, matchpoints, imps), or -1 */
    int score_article, matchpoints_article, imps_article;
    /* klaverjas: the articles that rule on one card a player might play and
     * on one finished trick (header keys legal, trick), or -1 */
    int legal_article, trick_article;
    /* the article a score sheet asks about adjusted scores: an artificial
     * score's percentage, a procedural penalty's size, how a board with
     * fewer comparable scores is factored (header key adjusted), or -1 */
    int adjusted_article;
    /* the article that ranks two pairs tied on matchpoints (header key
     * ranking), or -1 */
    int ranking_article;
    /* the article of total-point scoring, a session's boards summed
     * (header key total), or -1 */
    int total_article;
    /* klaverjas: the tables the core ranks and counts cards by, indexed by
     * enum klaverjas_table (-1 outside a `game klaverjas` ruleset) */
    int klaverjas_tables[KJT_COUNT];
    src_loc loc;
    uint64_t hash;
    int nfiles;
    const char **files;

    int ntypes, nfacts, nactions, ntables, nclauses, narticles, ninvariants, nblocks, ntests,
        noutside, ncombines;
    rs_type **types;
    rs_fact *facts;
    rs_action *actions;
    rs_table *tables;
    rs_clause *clauses;
    rs_article *articles;
    rs_invariant *invariants;
    rs_outside *outside;
    rs_combine *combines;
    rs_block *blocks;
    rs_test *tests; /* through rs_tests(): a mapped image decodes them when first asked */
    /* test blocks not decoded yet: decode_tests(rs) fills tests and ntests
     * from what tests_pending holds (core/store/image.c) */
    void (*decode_tests)(struct ruleset *rs);
    void *tests_pending;

    vec exprs;     /* rs_expr */
    vec expr_args; /* int: expression ids */
    vec strings;   /* const char*: string and citation constants */
    vec uses;      /* rs_action_use */
    vec outcomes;  /* rs_outcome */

    int nvars;
    int *var_fact; /* graph variable -> fact */
    graph *graph;
    gref root;           /* the whole ruleset: every applicable article, in order, simplified
                            where an invariant fails (the evaluator checks those first) */
    gref checked_root;   /* the same, with every situation breaking an invariant rejected:
                            what the checker proves and the diff compares */
    gref invariant_root; /* the invariants alone: TERM_REJECT i where invariant i is the first
                            broken, the value 1 where all hold; the evaluator's quick check */
    /* what eval_batch derives from the ruleset on first use (core/engine/eval.c):
     * NULL until then, freed by ruleset_free through its own function */
    void *batch_cache;
    void (*batch_cache_free)(void *cache);
    struct fact_names *fact_names; /* rs_find_fact's table (rs_index), in the arena */
    struct rs_invariant_search *invariant_search; /* rs_index, in the arena */
} ruleset;

/* The invariants' graph laid out for the evaluator's search for values of
 * the facts not known that make every invariant hold (made by rs_index).
 * Its nodes are numbered from 0 (the root); a child is a node, or
 * RS_INV_HOLDS (every invariant holds) or RS_INV_BROKEN (one is broken:
 * TERM_REJECT, or any terminal but the value 1). */
enum { RS_INV_HOLDS = -1, RS_INV_BROKEN = -2 };
typedef struct rs_inv_node {
    int32_t fact, domain;
    int64_t lo;       /* the value of child 0 */
    int32_t by_value; /* kids[by_value + i]: the child of value lo + i */
    int32_t tries;    /* kids[tries ..]: the children to try when the fact is not known */
    int32_t ntries;   /* only RS_INV_HOLDS where one child holds; else every distinct node */
    int32_t computed; /* the fact is derived, computed before the walk (eval_tested_value) */
} rs_inv_node;
typedef struct rs_invariant_search {
    int32_t root, nnodes; /* root may be RS_INV_HOLDS or RS_INV_BROKEN */
    rs_inv_node *nodes;
    int32_t *kids;
} rs_invariant_search;

void ruleset_free(ruleset *rs);
/* The ruleset's test blocks (*tests, their number returned). An image
 * read in place leaves them where they are until the first call: a start
 * that rules never decodes them. Safe from several threads. */
int rs_tests(const ruleset *rs, const rs_test **tests);

static inline const rs_expr *rs_expr_at(const ruleset *rs, int e) {
    return &VEC_AT(&rs->exprs, rs_expr, e);
}
static inline int rs_arg(const ruleset *rs, int i) {
    return VEC_AT(&rs->expr_args, int, i);
}
static inline const char *rs_string(const ruleset *rs, int64_t k) {
    return VEC_AT(&rs->strings, const char *, k);
}
static inline const rs_outcome *rs_outcome_at(const ruleset *rs, int64_t i) {
    return &VEC_AT(&rs->outcomes, rs_outcome, i);
}
static inline const rs_action_use *rs_use_at(const ruleset *rs, int i) {
    return &VEC_AT(&rs->uses, rs_action_use, i);
}

/* How many values of a fact of type t a decision can test (a graph
 * variable's domain: bool, enum, call, an int range of at most
 * RS_MAX_DOMAIN values), or 0 when a decision cannot test it. */
int rs_decision_values(const rs_type *t);

int rs_find_fact(const ruleset *rs, const char *name);
/* Makes the tables a final ruleset is read through (the compiler and the
 * image reader end with it): rs_find_fact's, which until then searches name
 * by name, and the invariants' search (rs_invariant_search). */
void rs_index(ruleset *rs);
int rs_find_action(const ruleset *rs, const char *name);
int rs_find_article(const ruleset *rs, const char *id);
int rs_enum_index(const rs_type *t, const char *name);

/* How a value is shown: by name (JSON, tests, `given` lines), or for
 * people in Dutch or English (labels, ja/nee, yes/no). */
enum value_format { FMT_NAME, FMT_DUTCH, FMT_ENGLISH };
void rs_format_value(const ruleset *rs, const rs_type *t, int64_t v, enum value_format fmt,
                     strbuf *out);

#endif
