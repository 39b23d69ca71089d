/* ast.h — the syntax tree of rule files, as the parser builds it. Every node
 * carries its source location so that the compiler's errors can point at it.
 * All nodes live in the arena given to dsl_parse (the compiler's own, freed
 * when compiling ends: a compiled ruleset keeps copies of what it names). */
#ifndef ARBITER_AST_H
#define ARBITER_AST_H

#include "diag.h"
#include "ops.h"
#include "util.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ast_list {
    void **items;
    int n, cap;
} ast_list;

void ast_push(arena *a, ast_list *l, void *item);

typedef struct ast_enumval {
    src_loc loc;
    const char *name, *label, *label_en;
} ast_enumval;

enum ast_type_kind { AT_BOOL, AT_ENUM, AT_INT, AT_RANGE, AT_NAMED };

typedef struct ast_type {
    src_loc loc;
    enum ast_type_kind kind;
    ast_list values;  /* ast_enumval*, for AT_ENUM */
    int64_t lo, hi;   /* for AT_RANGE */
    const char *name; /* for AT_NAMED */
} ast_type;

enum ast_expr_kind {
    AE_INT,    /* ival (text keeps the digits, for citations such as 72) */
    AE_BOOL,   /* ival */
    AE_NAME,   /* text: a fact, an enum value or a parameter */
    AE_CITE,   /* text */
    AE_STRING, /* text */
    AE_UNARY,  /* op, a */
    AE_BINARY, /* op, a, b */
    AE_CALL,   /* text(args): a table or a built-in function */
    AE_IN      /* a in { args } */
};

typedef struct ast_expr {
    src_loc loc;
    enum ast_expr_kind kind;
    int op;
    int64_t ival;
    const char *text;
    struct ast_expr *a, *b;
    ast_list args; /* ast_expr* */
} ast_expr;

typedef struct ast_block ast_block;

/* The right-hand side of `=>`: a citation and a block, or `apply N`. */
typedef struct ast_clause {
    src_loc loc;
    const char *cite; /* NULL when the clause cites nothing */
    ast_block *block;
    const char *apply; /* article id, or NULL */
    src_loc apply_loc;
} ast_clause;

enum ast_pattern_kind { AP_VALUE, AP_RANGE, AP_ANY };

typedef struct ast_pattern {
    src_loc loc;
    enum ast_pattern_kind kind;
    ast_expr *lo, *hi;
} ast_pattern;

typedef struct ast_arm {
    src_loc loc;
    ast_list patterns; /* ast_pattern* */
    ast_clause *clause;
} ast_arm;

/* AI_CITE: `cite 18D 16C1`, citations the block's rulings carry in their
 * trail (the articles that decided them besides the clause's own). */
enum ast_item_kind { AI_ACTION, AI_IF, AI_MATCH, AI_OTHERWISE, AI_APPLY, AI_CITE };

typedef struct ast_item {
    src_loc loc;
    enum ast_item_kind kind;
    const char *name;   /* action name, or apply target */
    ast_list args;      /* action arguments, or AI_CITE's citations (ast_expr*) */
    ast_expr *cond;     /* if / match subject */
    ast_clause *clause; /* if / otherwise */
    ast_list arms;      /* ast_arm*, match */
} ast_item;

struct ast_block {
    src_loc loc;
    ast_list items; /* ast_item* */
};

typedef struct ast_param {
    src_loc loc;
    const char *name;
    ast_type *type;
} ast_param;

typedef struct ast_row {
    src_loc loc;
    ast_list keys; /* ast_pattern* (a value or a range lo..hi); empty for the default row `_` */
    ast_expr *value;
} ast_row;

enum ast_expect_kind { AX_CITE, AX_ACTION, AX_TRAIL, AX_ASKS, AX_REJECTED, AX_OUTSIDE };

typedef struct ast_expect {
    src_loc loc;
    enum ast_expect_kind kind;
    bool negated;
    const char *name; /* citation, action or fact */
    bool has_args;
    ast_list args; /* action args (ast_expr*) or trail citations (ast_expr*) */
} ast_expect;

typedef struct ast_given {
    src_loc loc;
    const char *name; /* fact name, or "auction" with a string value */
    ast_expr *value;
} ast_given;

enum ast_decl_kind {
    AD_RULESET,
    AD_INCLUDE,
    AD_TYPE,
    AD_FACT,
    AD_ACTION,
    AD_TABLE,
    AD_INVARIANT,
    AD_ARTICLE,
    AD_TEST,
    AD_OUTSIDE,
    AD_COMBINE, /* `combine A B`: name and title are the two articles (title's place in from_loc) */
    AD_AMENDMENT, /* an amendment's header */
    AD_CHANGE     /* an amendment's change to its base: see change_op, change_target */
};

enum change_op { CHANGE_REPLACE = 1, CHANGE_ADD, CHANGE_REMOVE };
/* What a change names: a declaration kind (AD_FACT, AD_ARTICLE, …), or: */
enum { CHANGE_CLAUSE = 100, CHANGE_ROW };

typedef struct ast_decl {
    src_loc loc;
    enum ast_decl_kind kind;
    const char *name; /* ruleset/type/fact/action/table name, article id, test name, include path */
    const char *title; /* article title, invariant message */
    ast_type *type;    /* type, fact, table value type */
    ast_list params;   /* action/table params (ast_param*); ruleset header (ast_given*) */
    /* fact */
    const char *ask, *ask_en;
    const char *from_ns, *from_name;
    src_loc from_loc;
    bool overridable;
    ast_list cites; /* ast_expr* (AE_CITE): `cite …`, the articles the fact's value rests on */
    ast_expr *default_value; /* `default V`: the value assumed when a scenario is silent */
    ast_expr *expr;          /* derived fact; invariant; article `when` */
    /* action; text_en is also an article's English title, an invariant's or outside's English
     * message */
    const char *text, *text_en;
    /* table */
    ast_list rows; /* ast_row* */
    /* article */
    ast_block *body;
    /* test */
    ast_list givens;  /* ast_given* */
    ast_list expects; /* ast_expect* */
    /* amendment change: op, target kind, the new declaration, clause or row */
    int change_op, change_target;
    struct ast_decl *inner;
    ast_clause *clause;
    ast_row *row;
} ast_decl;

typedef struct ast_file {
    const char *path;
    ast_list decls; /* ast_decl* */
} ast_file;

/* Parse one rule file (text NUL-terminated). Errors go to d; the tree is
 * returned even when there were errors (with the declarations that parsed). */
ast_file *dsl_parse(arena *a, diag *d, const char *path, const char *text);

#endif
