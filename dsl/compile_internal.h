/* compile_internal.h — what the files of the compiler share (dsl/compile*.c):
 * its limits, its state, and the functions one pass gives another. Nothing
 * outside dsl/ includes it: the compiler's interface is compile.h. */
#ifndef ARBITER_COMPILE_INTERNAL_H
#define ARBITER_COMPILE_INTERNAL_H

#include "compile.h"

#include "builtins.h"
#include "expr.h"
#include "klaverjas.h"
#include "ast.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Include depth: a chain longer than this is a cycle or a mistake. */
#define MAX_INCLUDE_DEPTH 8
/* Bounds on one ruleset, far above any body of regulations. */
#define MAX_FILES 256
#define MAX_FILE_SIZE (4 << 20)
#define MAX_TABLE_CELLS 100000
/* The per-file limits (dsl/parser.y) still let 256 files declare more than
 * the graph operations, which recurse once per fact, and the compiling of
 * an `apply` chain, which recurses once per article, can take. */
#define MAX_FACTS 4096
#define MAX_ARTICLES 4096
#define MAX_APPLY_DEPTH 256
/* Table cells over the whole ruleset (8 bytes each). The per-table and
 * per-file limits still let 256 files of 100 tables of 100 000 cells ask
 * for 20 GB from 2 MB of rule text; the shipped rulesets have under 500
 * cells together, and this is ten tables at the per-table limit. */
#define MAX_RULESET_TABLE_CELLS 1000000
/* Decision-graph nodes over the whole ruleset, counted while it is built:
 * after each part of a condition that could outgrow it, each condition,
 * each article. GRAPH_MAX_KIDS and GRAPH_MAX_WORK (core/engine/graph.h) bound the
 * graph too, but end in an error leaf that the checker can only report at
 * the ruleset's header, after seconds; this budget stops where it ran out.
 * The shipped rulesets peak at 23 000 nodes (bridge-1963), eleven times
 * fewer; 2^18 nodes of yes/no facts are built in a fifth of a second. */
#define MAX_GRAPH_NODES (1 << 18)
/* The values an integer expression in a decision may take, counted from
 * the facts' ranges before its graph is built (a graph has a leaf per
 * value): a product of three facts of 256 values may take 16 million, and
 * a condition on four such took 11 to 15 seconds of CPU to reach the
 * graph's work budget. A product of two (65 025 values) is within it. */
#define MAX_EXPR_VALUES (1 << 16)
/* The pairs of values of the two sides of one operation in a decision
 * (its graph may need a node for each): `p * q == r * s` over four facts
 * of 256 values has 4 billion, and ran 10 seconds into the graph's work
 * budget. Comparing a sum of two such facts with a third has 130 000. */
#define MAX_EXPR_PAIRS (1 << 24)

/* Interned pairs of ints: a list cell (prev, item) or an outcome (trail,
 * actions), numbered in the order they were made. */
typedef struct pair_table {
    int32_t (*pairs)[2];
    int n, cap;
    int32_t *slots;
    int capslots;
} pair_table;

/* Text the ruleset keeps (names, messages, citations), each distinct
 * string once, packed into blocks of the ruleset's arena. */
typedef struct string_pool {
    const char **slots;
    int *ids; /* per slot: its number in rs->strings + 1, 0 for a string no constant is (in
                 the slots' block) */
    int n, capslots;
    char *free; /* room left in the current block */
    size_t left;
} string_pool;

/* Names to their first declaration's number, made once a pass has declared
 * them all: a ruleset has hundreds of facts, actions and citations, and its
 * tests and clauses name them thousands of times. */
typedef struct name_index {
    const char **names;
    int *ids;
    int cap; /* 0: not made yet */
} name_index;

/* Two arenas: `a` holds what only compiling needs (the syntax trees, the
 * compiler's tables) and is freed when compiling ends; `keep` is the
 * ruleset's own, with only what a compiled ruleset is read by. */
typedef struct compiler {
    arena *a;
    arena *keep;
    string_pool strings;
    rs_type *bool_type, *int_type; /* the anonymous ones, shared */
    name_index fact_ix, action_ix, cite_ix;
    diag *d;
    ruleset *rs;
    ast_list files;    /* ast_file* */
    ast_list included; /* files and directories already read (compile_load.c: file_id) */
    ast_list decls;    /* every ast_decl*, in load order */
    gref *fact_graph;  /* memo: graph of each fact (0 = not yet) */
    char *art_state;
    gref *art_full;
    ast_decl **art_decl;
    ast_decl **fact_decl; /* each fact's declaration: its citations, its expression */
    gref invariants;      /* bool graph: every invariant holds */
    gref *inv_conds;      /* each invariant's condition */
    gref t_true, t_false;
    gref t_empty;        /* the empty ruling */
    pair_table cells;    /* list cells (see "outcomes") */
    pair_table outs;     /* outcomes while compiling: (trail list, action list) */
    vec clauses, blocks; /* rs_clause, rs_block; copied into rs at the end */
    uint64_t next_op;    /* fresh operation ids for one-off folds */
    gref *when;          /* each article's `when` (t_true when it has none) */
    char *applied;       /* articles some clause applies */
    ast_decl *header;    /* the ruleset header */
    ast_list amendments; /* the amendment headers applied, in order */
    ast_list removed;    /* the amendments' `remove` changes (ast_decl*), in order */
    int errors_before;   /* after other errors, "never applies" would only echo them */
    int proof_errors;    /* the "never applies" errors reported so far */
    int apply_depth;     /* articles being compiled inside one another (apply) */
    int64_t table_cells; /* over every table so far, against MAX_RULESET_TABLE_CELLS */
    bool graph_spent;    /* a graph budget ran out (reported once): nothing more is built */
    struct value_span *fact_span, *table_span; /* memo: the values each may take (value_span) */
    double *fact_tree; /* memo: fact_tree_bound of each fact (0 = not yet) */
} compiler;

/* The values an expression may take, as far as its facts' ranges say. */
typedef struct value_span {
    double count, lo, hi;
} value_span;

/* One-off folds (graph operations) get operation ids of their own kind. */
enum { OPK_CONCAT = 1, OPK_PATTERN };
#define OPID(kind, n) (((uint64_t)(kind) << 40) | (uint64_t)(uint32_t)(n))

/* ---- names and kept strings (compile.c) */
const char *keep_str(compiler *c, const char *s);
int string_number(compiler *c, const char *s);
void index_init(compiler *c, name_index *ix, int n);
void index_add(name_index *ix, const char *name, int id);
void index_make(compiler *c, name_index *ix, int n, const char *(*name_at)(compiler *, int));
int index_find(const name_index *ix, const char *name);
const char *cite_at(compiler *c, int i);
int find_fact(compiler *c, const char *name);
int find_action(compiler *c, const char *name);
src_loc no_loc(const char *file);
const char *nearest(compiler *c, const char *name, const char **names, int n);

/* ---- load (compile_load.c) */
ast_file *read_and_parse(compiler *c, const char *path, src_loc from);
void load_path(compiler *c, const char *path, src_loc from, int depth);

/* ---- amendments (compile_amend.c) */
void apply_amendment(compiler *c, const char *path);
/* Whether an amendment removed the declaration of this kind (AD_FACT,
 * AD_ARTICLE, …) and name: if so, the use at `at` that the base keeps is
 * reported as such (with where the amendment removes it), not as a name
 * the ruleset never had, and true is returned. */
bool report_removed(compiler *c, int kind, const char *name, src_loc at);

/* ---- types (compile_types.c) */
rs_type *type_new(compiler *c, const char *name, enum type_kind kind);
const rs_type *builtin_type(compiler *c, const char *name);
void add_type(compiler *c, rs_type *t);
void declare_builtin_types(compiler *c);
const rs_type *resolve_type(compiler *c, const ast_type *at, const char *name);
bool branchable(const rs_type *t);
bool finite_type(const rs_type *t);
const char *type_text(compiler *c, const rs_type *t);
bool same_type(const rs_type *a, const rs_type *b);

/* ---- expressions and their graphs (compile_expr.c) */
rs_expr *expr_at(compiler *c, int e);
int const_expr(compiler *c, const rs_type *t, int64_t k, src_loc loc);
const rs_type *type_of_kind(compiler *c, enum type_kind kind);
int name_expr(compiler *c, const ast_expr *e, const rs_type *want);
int push_args(compiler *c, const int *ids, int n);
int find_table(compiler *c, const char *name);
bool is_constant(compiler *c, int x);
int64_t constant_value(compiler *c, int x);
int compile_expr(compiler *c, const ast_expr *e, const rs_type *want);
bool graph_within_budget(compiler *c, src_loc loc);
gref expr_graph(compiler *c, int x);
gref cond_graph(compiler *c, const ast_expr *e);

/* ---- declarations (compile_decl.c) */
void declare_header(compiler *c);
void declare_types(compiler *c);
void declare_facts(compiler *c);
void declare_actions(compiler *c);
void declare_tables(compiler *c);
void declare_derived(compiler *c);
void declare_computed(compiler *c);
void declare_defaults(compiler *c);
void declare_invariants(compiler *c);

/* ---- outcomes and articles (compile_articles.c) */
int pair_intern(pair_table *t, int32_t x, int32_t y);
void pair_free(pair_table *t);
int list_len(const compiler *c, int32_t list);
void list_items(const compiler *c, int32_t list, int *out);
gref outcome_ref(compiler *c, int o);
int action_use(compiler *c, const ast_item *it, int clause);
int find_article(compiler *c, const char *id, src_loc at);
void check_totals(compiler *c);
void declare_articles(compiler *c);
void check_klaverjas_vocabulary(compiler *c);
/* Whether a ruleset header key names a scoring article (score,
 * matchpoints, imps, legal, trick, adjusted, ranking, total). */
bool is_scoring_key(const char *name);
void resolve_scoring_articles(compiler *c);
void compile_articles(compiler *c);

/* ---- tests (compile_tests.c) */
void compile_tests(compiler *c);

#endif
