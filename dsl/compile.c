/* compile.c — from syntax trees to a compiled ruleset.
 *
 * Passes, in order (later passes rely on the tables earlier ones fill):
 *   load     read the files of the ruleset and what they include
 *   declare  header, types, facts, actions, tables
 *   derive   derived facts and invariants (expressions over facts)
 *   articles each article to a decision graph; `apply` inlines the target
 *   root     the whole ruleset: every applicable article, in file order
 *   tests    the test blocks, checked against the names they use
 */
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
    ast_list included; /* canonical paths already read */
    ast_list decls;    /* every ast_decl*, in load order */
    gref *fact_graph;  /* memo: graph of each fact (0 = not yet) */
    char *art_state;
    gref *art_full;
    ast_decl **art_decl;
    ast_decl **fact_decl; /* each fact's declaration: its citations, its expression */
    gref invariants;   /* bool graph: every invariant holds */
    gref *inv_conds;   /* each invariant's condition */
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
    int errors_before;   /* after other errors, "never applies" would only echo them */
    int proof_errors;    /* the "never applies" errors reported so far */
    int apply_depth;     /* articles being compiled inside one another (apply) */
    int64_t table_cells; /* over every table so far, against MAX_RULESET_TABLE_CELLS */
    bool graph_spent;    /* a graph budget ran out (reported once): nothing more is built */
    struct value_span *fact_span, *table_span; /* memo: the values each may take (value_span) */
    double *fact_tree; /* memo: fact_tree_bound of each fact (0 = not yet) */
} compiler;

/* A copy of s in the ruleset's arena (NULL stays NULL): every text a
 * ruleset keeps from the syntax trees goes through here. */
static const char *keep_str(compiler *c, const char *s) {
    if (!s) return NULL;
    string_pool *p = &c->strings;
    if (2 * (p->n + 1) > p->capslots) {
        int cap = p->capslots ? p->capslots * 2 : 1024;
        const char **slots = calloc((size_t)cap, sizeof *slots);
        if (!slots) abort();
        for (int i = 0; i < p->capslots; i++) {
            if (!p->slots[i]) continue;
            uint64_t h =
                fnv1a64(FNV1A64_INIT, p->slots[i], strlen(p->slots[i])) & (uint64_t)(cap - 1);
            while (slots[h])
                h = (h + 1) & (uint64_t)(cap - 1);
            slots[h] = p->slots[i];
        }
        free(p->slots);
        p->slots = slots;
        p->capslots = cap;
    }
    size_t len = strlen(s);
    uint64_t mask = (uint64_t)p->capslots - 1, h = fnv1a64(FNV1A64_INIT, s, len) & mask;
    for (; p->slots[h]; h = (h + 1) & mask)
        if (strcmp(p->slots[h], s) == 0) return p->slots[h];
    char *copy;
    if (len + 1 > 1024) {
        copy = arena_strndup(c->keep, s, len);
    } else {
        if (p->left < len + 1) {
            p->left = 4096;
            p->free = arena_alloc(c->keep, p->left);
        }
        copy = p->free;
        memcpy(copy, s, len + 1);
        p->free += len + 1;
        p->left -= len + 1;
    }
    p->n++;
    return p->slots[h] = copy;
}

static uint64_t name_hash(const char *s) {
    return fnv1a64(FNV1A64_INIT, s, strlen(s));
}

/* An index of n names (names[i] may be NULL: not indexed); a name given
 * twice keeps its first number, as a search from the start would. */
static void index_make(compiler *c, name_index *ix, int n,
                       const char *(*name_at)(compiler *, int)) {
    ix->cap = 16;
    while (ix->cap < 2 * n + 2)
        ix->cap *= 2;
    ix->names = arena_alloc(c->a, sizeof *ix->names * (size_t)ix->cap);
    ix->ids = arena_alloc(c->a, sizeof *ix->ids * (size_t)ix->cap);
    uint64_t mask = (uint64_t)ix->cap - 1;
    for (int i = 0; i < n; i++) {
        const char *name = name_at(c, i);
        if (!name) continue;
        uint64_t h = name_hash(name) & mask;
        while (ix->names[h] && strcmp(ix->names[h], name) != 0)
            h = (h + 1) & mask;
        if (ix->names[h]) continue;
        ix->names[h] = name;
        ix->ids[h] = i;
    }
}

static int index_find(const name_index *ix, const char *name) {
    uint64_t mask = (uint64_t)ix->cap - 1;
    for (uint64_t h = name_hash(name) & mask; ix->names[h]; h = (h + 1) & mask)
        if (strcmp(ix->names[h], name) == 0) return ix->ids[h];
    return -1;
}

static const char *fact_name_at(compiler *c, int i) {
    return c->rs->facts[i].name;
}
static const char *action_name_at(compiler *c, int i) {
    return c->rs->actions[i].name;
}
static const char *cite_at(compiler *c, int i) {
    return VEC_AT(&c->clauses, rs_clause, i).cite;
}

static int find_fact(compiler *c, const char *name) {
    return c->fact_ix.cap ? index_find(&c->fact_ix, name) : rs_find_fact(c->rs, name);
}
static int find_action(compiler *c, const char *name) {
    return c->action_ix.cap ? index_find(&c->action_ix, name) : rs_find_action(c->rs, name);
}

static src_loc no_loc(const char *file) {
    src_loc l = {file, 0, 0};
    return l;
}

/* Suggest the nearest name from a list, for "did you mean" hints. */
static const char *nearest(compiler *c, const char *name, const char **names, int n) {
    int best = 3;
    const char *found = NULL;
    for (int i = 0; i < n; i++) {
        int dist = edit_distance(name, names[i]);
        if (dist < best) {
            best = dist;
            found = names[i];
        }
    }
    return found ? arena_printf(c->a, "did you mean '%s'?", found) : NULL;
}

/* ---- load ---------------------------------------------------------------- */

static void load_path(compiler *c, const char *path, src_loc from, int depth);

static const char *dir_of(compiler *c, const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(c->a, path, (size_t)(slash - path)) : ".";
}

/* Each file and directory is read once, however it is reached. */
static bool first_visit(compiler *c, const char *path, src_loc from) {
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        ERR(c->d, from, NULL, "cannot find %s: %s", path, strerror(errno));
        return false;
    }
    for (int i = 0; i < c->included.n; i++)
        if (strcmp(c->included.items[i], real) == 0) return false;
    ast_push(c->a, &c->included, arena_strdup(c->a, real));
    return true;
}

static bool fit_to_parse(compiler *c, const char *path, src_loc from, const char *text,
                         size_t len) {
    if (len > MAX_FILE_SIZE) {
        ERR(c->d, no_loc(path), "split the rules over several files",
            "file is larger than %d bytes", MAX_FILE_SIZE);
        return false;
    }
    if (strlen(text) != len) {
        ERR(c->d, no_loc(path), "rule files are text", "file contains a NUL byte");
        return false;
    }
    if (c->files.n >= MAX_FILES) {
        ERR(c->d, from, NULL, "more than %d rule files", MAX_FILES);
        return false;
    }
    return true;
}

/* Reads and parses one file; its text joins the hash and the sources that
 * errors quote. */
static ast_file *read_and_parse(compiler *c, const char *path, src_loc from) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        ERR(c->d, from, NULL, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!fit_to_parse(c, path, from, text, len)) {
        free(text);
        return NULL;
    }
    const char *p = keep_str(c, path); /* every location in the file names it */
    diag_add_source(c->d, p, text);
    const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p; /* the hash does not depend on where it is installed */
    c->rs->hash = fnv1a64(c->rs->hash, base, strlen(base));
    c->rs->hash = fnv1a64(c->rs->hash, text, len);
    ast_file *f = dsl_parse(c->a, c->d, p, text); /* the tree holds copies of what it names */
    free(text);
    ast_push(c->a, &c->files, f);
    return f;
}

static void load_file(compiler *c, const char *path, src_loc from, int depth) {
    if (!first_visit(c, path, from)) return;
    ast_file *f = read_and_parse(c, path, from);
    if (!f) return;
    const char *p = f->path;
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_INCLUDE) {
            const char *target = d->name[0] == '/' ? d->name : arena_printf(c->a, "%s/%s", dir_of(c, p), d->name);
            load_path(c, target, d->loc, depth + 1);
        } else {
            ast_push(c->a, &c->decls, d);
        }
    }
}

static void load_dir(compiler *c, const char *dir, src_loc from, int depth) {
    char **names;
    int n = list_rule_files(dir, &names);
    if (n < 0) {
        ERR(c->d, from, NULL, "cannot open %s: %s", dir, strerror(errno));
        return;
    }
    if (n == 0) ERR(c->d, from, "a ruleset is a directory of *.rules files", "no .rules files in %s", dir);
    for (int i = 0; i < n; i++) {
        load_file(c, arena_printf(c->a, "%s/%s", dir, names[i]), from, depth);
        free(names[i]);
    }
    free(names);
}

static void load_path(compiler *c, const char *path, src_loc from, int depth) {
    if (depth > MAX_INCLUDE_DEPTH) {
        ERR(c->d, from, "includes nest too deep; is there an include cycle?", "cannot include %s", path);
        return;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (first_visit(c, path, from)) load_dir(c, path, from, depth);
    } else {
        load_file(c, path, from, depth);
    }
}

/* ---- amendments ------------------------------------------------------------
 * An amendment edits the base's syntax trees before anything is compiled,
 * so the amended ruleset is checked exactly as if it had been written so,
 * and every error in a replaced part points into the amendment. */

static const char *const kind_words[] = {[AD_TYPE] = "type", [AD_FACT] = "fact", [AD_ACTION] = "action",
                                         [AD_TABLE] = "table", [AD_ARTICLE] = "article", [AD_TEST] = "test"};

static void list_remove(ast_list *l, int i) {
    memmove(&l->items[i], &l->items[i + 1], sizeof(void *) * (size_t)(l->n - i - 1));
    l->n--;
}

static int find_decl(compiler *c, int kind, const char *name) {
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if ((int)d->kind == kind && d->name && strcmp(d->name, name) == 0) return i;
    }
    return -1;
}

/* Where a clause with this citation sits: the item (if/otherwise) or the
 * match arm that holds it, in the list it can be removed from. */
typedef struct clause_site {
    ast_list *list;
    int index;
    ast_clause *clause;
} clause_site;

static int find_clause(ast_block *b, const char *cite, clause_site *found, int nfound) {
    for (int i = 0; b && i < b->items.n; i++) {
        ast_item *it = b->items.items[i];
        ast_clause *cl = it->clause;
        if (cl && cl->cite && strcmp(cl->cite, cite) == 0) found[nfound < 2 ? nfound : 1] = (clause_site){&b->items, i, cl}, nfound++;
        if (cl) nfound = find_clause(cl->block, cite, found, nfound);
        for (int k = 0; k < it->arms.n; k++) {
            ast_arm *arm = it->arms.items[k];
            if (arm->clause->cite && strcmp(arm->clause->cite, cite) == 0)
                found[nfound < 2 ? nfound : 1] = (clause_site){&it->arms, k, arm->clause}, nfound++;
            nfound = find_clause(arm->clause->block, cite, found, nfound);
        }
    }
    return nfound;
}

static void change_clause(compiler *c, ast_decl *ch) {
    clause_site found[2];
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ARTICLE) n = find_clause(d->body, ch->name, found, n);
    }
    if (n == 0) {
        ERR(c->d, ch->loc, NULL, "no clause of the base ruleset cites %s", ch->name);
        return;
    }
    if (n > 1) {
        ERR(c->d, ch->loc, "name a clause by a citation only it carries", "%d clauses cite %s in the base ruleset", n,
            ch->name);
        return;
    }
    if (ch->change_op == CHANGE_REMOVE) list_remove(found[0].list, found[0].index);
    else *found[0].clause = *ch->clause;
}

static bool same_keys(const ast_row *x, const ast_row *y) {
    if (x->keys.n != y->keys.n) return false;
    for (int k = 0; k < x->keys.n; k++) {
        const ast_pattern *p = x->keys.items[k], *q = y->keys.items[k];
        const ast_expr *a[2] = {p->lo, p->hi}, *b[2] = {q->lo, q->hi};
        for (int e = 0; e < 2; e++) {
            if (!a[e] || !b[e]) {
                if (a[e] != b[e]) return false;
                continue;
            }
            if (a[e]->kind != b[e]->kind || a[e]->ival != b[e]->ival ||
                (a[e]->text && b[e]->text && strcmp(a[e]->text, b[e]->text) != 0))
                return false;
        }
    }
    return true;
}

static void change_row(compiler *c, ast_decl *ch) {
    int t = find_decl(c, AD_TABLE, ch->name);
    if (t < 0) {
        ERR(c->d, ch->loc, NULL, "the base ruleset has no table '%s'", ch->name);
        return;
    }
    ast_decl *table = c->decls.items[t];
    for (int r = 0; r < table->rows.n; r++) {
        ast_row *row = table->rows.items[r];
        if (!same_keys(row, ch->row)) continue;
        if (ch->change_op == CHANGE_ADD) ERR(c->d, ch->loc, "use `replace row`", "table '%s' already has this row", ch->name);
        else if (ch->change_op == CHANGE_REMOVE) list_remove(&table->rows, r);
        else table->rows.items[r] = ch->row;
        return;
    }
    if (ch->change_op == CHANGE_ADD) ast_push(c->a, &table->rows, ch->row);
    else ERR(c->d, ch->loc, "a row is named by its keys exactly as the base writes them", "table '%s' has no such row", ch->name);
}

static void apply_change(compiler *c, ast_decl *ch) {
    if (ch->change_target == CHANGE_CLAUSE) return change_clause(c, ch);
    if (ch->change_target == CHANGE_ROW) return change_row(c, ch);
    int at = find_decl(c, ch->change_target, ch->name);
    const char *what = kind_words[ch->change_target];
    if (ch->change_op == CHANGE_ADD) {
        if (at >= 0) ERR(c->d, ch->loc, "use `replace`", "the base ruleset already has %s %s", what, ch->name);
        else ast_push(c->a, &c->decls, ch->inner);
    } else if (at < 0) {
        ERR(c->d, ch->loc, NULL, "the base ruleset has no %s %s", what, ch->name);
    } else if (ch->change_op == CHANGE_REMOVE) {
        list_remove(&c->decls, at);
    } else {
        c->decls.items[at] = ch->inner;
    }
}

/* Whether text names the citation as a word: "(13i12)", "art. 13i12". */
static bool text_cites(const char *text, const char *cite) {
    size_t n = strlen(cite);
    for (const char *p = text ? strstr(text, cite) : NULL; p; p = strstr(p + 1, cite)) {
        bool starts = p == text || !isalnum((unsigned char)p[-1]);
        if (starts && !isalnum((unsigned char)p[n])) return true;
    }
    return false;
}

static void block_actions(const ast_block *b, ast_list *names, arena *a);

static void clause_actions(const ast_clause *cl, ast_list *names, arena *a) {
    if (cl) block_actions(cl->block, names, a);
}

/* The names of the actions a block (and its clauses) names. */
static void block_actions(const ast_block *b, ast_list *names, arena *a) {
    for (int i = 0; b && i < b->items.n; i++) {
        const ast_item *it = b->items.items[i];
        if (it->kind == AI_ACTION) ast_push(a, names, (void *)it->name);
        clause_actions(it->clause, names, a);
        for (int k = 0; k < it->arms.n; k++)
            clause_actions(((ast_arm *)it->arms.items[k])->clause, names, a);
    }
}

static bool listed(const ast_list *names, const char *name) {
    for (int i = 0; name && i < names->n; i++)
        if (strcmp(names->items[i], name) == 0) return true;
    return false;
}

/* A message or question kept from before the amendment that cites a clause
 * the amendment replaced or removed states that clause's old reading,
 * which would outlive it in every ruling that shows it: said, so that the
 * amendment replaces that text too. Actions the new clause names itself
 * are the amendment's choice; an action no article names shows nowhere. */
static void warn_stale_text(compiler *c, const ast_decl *d, const char *what, const char *text,
                            const ast_decl *ch, const char *amendment) {
    if (!text_cites(text, ch->name) || (d->loc.file && strcmp(d->loc.file, amendment) == 0)) return;
    diag_report(
        c->d, DIAG_WARNING, d->loc,
        arena_printf(c->a, "replace the %s %s in the amendment too", kind_words[d->kind], d->name),
        "the %s of %s '%s' cites %s, a clause the amendment %s: it would keep that clause's old "
        "reading",
        what, kind_words[d->kind], d->name, ch->name,
        ch->change_op == CHANGE_REMOVE ? "removes" : "replaces");
}

static void warn_stale_enum(compiler *c, const ast_decl *d, const ast_type *t, const ast_decl *ch,
                            const char *amendment) {
    for (int v = 0; t && t->kind == AT_ENUM && v < t->values.n; v++) {
        const ast_enumval *ev = t->values.items[v];
        warn_stale_text(c, d, "label", ev->label, ch, amendment);
        warn_stale_text(c, d, "English label", ev->label_en, ch, amendment);
    }
}

static void warn_stale_texts(compiler *c, const ast_decl *ch, const char *amendment) {
    ast_list own = {0}, used = {0};
    if (ch->clause) clause_actions(ch->clause, &own, c->a);
    for (int i = 0; i < c->decls.n; i++) {
        const ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ARTICLE) block_actions(d->body, &used, c->a);
    }
    for (int i = 0; i < c->decls.n; i++) {
        const ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ACTION && listed(&used, d->name) && !listed(&own, d->name)) {
            warn_stale_text(c, d, "message", d->text, ch, amendment);
            warn_stale_text(c, d, "English message", d->text_en, ch, amendment);
        } else if (d->kind == AD_FACT) {
            warn_stale_text(c, d, "question", d->ask, ch, amendment);
            warn_stale_text(c, d, "English question", d->ask_en, ch, amendment);
            warn_stale_enum(c, d, d->type, ch, amendment);
        } else if (d->kind == AD_TYPE) {
            warn_stale_enum(c, d, d->type, ch, amendment);
        }
    }
}

static void apply_amendment(compiler *c, const char *path) {
    ast_file *f = read_and_parse(c, path, no_loc(path));
    if (!f) return;
    ast_decl *header = NULL;
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_AMENDMENT && !header) header = d;
        else if (d->kind == AD_AMENDMENT || d->kind == AD_RULESET)
            ERR(c->d, d->loc, NULL, "an amendment has one `amendment` header and no `ruleset` header");
    }
    if (!header) {
        ERR(c->d, no_loc(path), "start it with: amendment \"title\" { base \"bridge-2017\" cite \"…\" }",
            "%s is not an amendment", path);
        return;
    }
    const char *base = NULL;
    for (int i = 0; i < header->params.n; i++) {
        ast_given *g = header->params.items[i];
        if (strcmp(g->name, "base") == 0) base = g->value->text;
    }
    int r = find_decl(c, AD_RULESET, base ? base : "");
    if (r < 0) {
        ERR(c->d, header->loc, NULL, "this amendment is for %s, not for the ruleset it is applied to", base ? base : "(no base)");
        return;
    }
    ast_push(c->a, &c->amendments, header);
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_CHANGE) apply_change(c, d);
        else if (d->kind == AD_INCLUDE) load_path(c, d->name, d->loc, 1);
        else if (d->kind != AD_AMENDMENT && d->kind != AD_RULESET) ast_push(c->a, &c->decls, d);
    }
    for (int i = 0; i < f->decls.n; i++) { /* once every change is made: a later one may mend it */
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_CHANGE && d->change_target == CHANGE_CLAUSE)
            warn_stale_texts(c, d, header->loc.file);
    }
}

/* ---- types ----------------------------------------------------------------- */

static rs_type *type_new(compiler *c, const char *name, enum type_kind kind) {
    rs_type *t = arena_alloc(c->keep, sizeof *t);
    t->name = keep_str(c, name);
    t->kind = kind;
    return t;
}

/* Named types, the built-in ones (seat, call, cite, string) first. */
static const rs_type *builtin_type(compiler *c, const char *name) {
    for (int i = 0; i < c->rs->ntypes; i++)
        if (c->rs->types[i]->name && strcmp(c->rs->types[i]->name, name) == 0) return c->rs->types[i];
    return NULL;
}

/* The array grows a copy at a time in the compiler's arena; finish makes
 * the ruleset's own. */
static void add_type(compiler *c, rs_type *t) {
    rs_type **types = arena_alloc(c->a, sizeof *types * (size_t)(c->rs->ntypes + 1));
    if (c->rs->ntypes) memcpy(types, c->rs->types, sizeof *types * (size_t)c->rs->ntypes);
    types[c->rs->ntypes++] = t;
    c->rs->types = types;
}

static void declare_builtin_types(compiler *c) {
    static const char *const seats[] = {"N", "E", "S", "W"};
    rs_type *seat = type_new(c, "seat", TY_ENUM);
    seat->nvalues = 4;
    seat->values = (const char **)seats;
    seat->labels = arena_alloc(c->keep, sizeof(char *) * 4);
    seat->labels_en = arena_alloc(c->keep, sizeof(char *) * 4);
    add_type(c, seat);
    add_type(c, type_new(c, "call", TY_CALL));
    add_type(c, type_new(c, "cite", TY_CITE));
    add_type(c, type_new(c, "string", TY_STRING));
}

static const rs_type *resolve_type(compiler *c, const ast_type *at, const char *name) {
    rs_type *t;
    switch (at->kind) {
    case AT_BOOL: t = type_new(c, name, TY_BOOL); break;
    case AT_INT: t = type_new(c, name, TY_INT); break;
    case AT_RANGE:
        t = type_new(c, name, TY_INT);
        t->bounded = true;
        t->lo = at->lo;
        t->hi = at->hi;
        if (at->lo > at->hi) ERR(c->d, at->loc, "write the range low..high", "empty range %lld..%lld", (long long)at->lo, (long long)at->hi);
        break;
    case AT_ENUM:
        t = type_new(c, name, TY_ENUM);
        /* Checked before the values are: each is compared with those
         * before it, and 400 000 of them (3.5 MB, a file the size limit
         * lets through) took minutes to reach the error. The values past
         * the limit are not read. */
        t->nvalues = at->values.n;
        if (t->nvalues > RS_MAX_DOMAIN) {
            const ast_enumval *first_over = at->values.items[RS_MAX_DOMAIN];
            ERR(c->d, first_over->loc, "split the values into several facts, or use a bounded int",
                "an enum may have at most %d values; '%s' is value %d", RS_MAX_DOMAIN,
                first_over->name, RS_MAX_DOMAIN + 1);
            t->nvalues = RS_MAX_DOMAIN;
        }
        t->values = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        t->labels = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        t->labels_en = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        for (int i = 0; i < t->nvalues; i++) {
            ast_enumval *v = at->values.items[i];
            for (int j = 0; j < i; j++)
                if (strcmp(t->values[j], v->name) == 0) ERR(c->d, v->loc, NULL, "'%s' is listed twice", v->name);
            t->values[i] = keep_str(c, v->name);
            t->labels[i] = keep_str(c, v->label);
            t->labels_en[i] = keep_str(c, v->label_en);
        }
        break;
    default: {
        const rs_type *found = builtin_type(c, at->name);
        if (!found) {
            const char *names[64];
            int n = 0;
            for (int i = 0; i < c->rs->ntypes && n < 64; i++)
                if (c->rs->types[i]->name) names[n++] = c->rs->types[i]->name;
            ERR(c->d, at->loc, nearest(c, at->name, names, n), "unknown type '%s'", at->name);
            return type_new(c, NULL, TY_BOOL);
        }
        return found;
    }
    }
    return t;
}

static bool branchable(const rs_type *t) {
    return rs_decision_values(t) > 0;
}

/* A table key needs a finite set of values, not a small one. */
static bool finite(const rs_type *t) {
    return t->kind == TY_BOOL || t->kind == TY_ENUM || (t->kind == TY_INT && t->bounded);
}

static const char *type_text(compiler *c, const rs_type *t) {
    static const char *const kinds[] = {"bool", "enum", "int", "call", "cite", "string"};
    if (t->name) return t->name;
    if (t->kind == TY_ENUM) {
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, "enum {");
        for (int i = 0; i < t->nvalues && i < 6; i++) sb_printf(&sb, "%s %s", i ? "," : "", t->values[i]);
        sb_puts(&sb, t->nvalues > 6 ? ", … }" : " }");
        const char *r = arena_strdup(c->a, sb.data);
        sb_free(&sb);
        return r;
    }
    if (t->kind == TY_INT && t->bounded) return arena_printf(c->a, "int %lld..%lld", (long long)t->lo, (long long)t->hi);
    return kinds[t->kind];
}

static bool same_type(const rs_type *a, const rs_type *b) {
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    if (a->kind != TY_ENUM) return true;
    if (a->nvalues != b->nvalues) return false;
    for (int i = 0; i < a->nvalues; i++)
        if (strcmp(a->values[i], b->values[i]) != 0) return false;
    return true;
}

/* ---- expressions ------------------------------------------------------------ */

static int new_expr(compiler *c, enum expr_op kind, const rs_type *type, src_loc loc) {
    rs_expr *e = vec_push(&c->rs->exprs);
    e->kind = kind;
    e->type = type;
    e->loc = loc;
    e->a = e->b = -1;
    return c->rs->exprs.len - 1;
}

static rs_expr *X(compiler *c, int e) {
    return &VEC_AT(&c->rs->exprs, rs_expr, e);
}

static int add_string(compiler *c, const char *s) {
    for (int i = 0; i < c->rs->strings.len; i++)
        if (strcmp(VEC_AT(&c->rs->strings, const char *, i), s) == 0) return i;
    *(const char **)vec_push(&c->rs->strings) = keep_str(c, s);
    return c->rs->strings.len - 1;
}

static int const_expr(compiler *c, const rs_type *t, int64_t k, src_loc loc) {
    int e = new_expr(c, EX_CONST, t, loc);
    X(c, e)->k = k;
    return e;
}

static const rs_type *T(compiler *c, enum type_kind kind) {
    static const char *const names[] = {"bool", "", "int", "call", "cite", "string"};
    if (kind == TY_CALL || kind == TY_CITE || kind == TY_STRING) return builtin_type(c, names[kind]);
    rs_type **shared =
        kind == TY_BOOL ? &c->bool_type : &c->int_type; /* TY_ENUM is never asked for */
    if (!*shared) *shared = type_new(c, NULL, kind);
    return *shared;
}

static int compile_expr(compiler *c, const ast_expr *e, const rs_type *want);

/* A bad expression still yields an expression (a constant) so that
 * compiling goes on and reports the next error too. */
static int bad_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    return const_expr(c, want ? want : T(c, TY_BOOL), 0, e->loc);
}

static int call_literal(compiler *c, const ast_expr *e, const rs_type *want);

static int name_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    if (want && want->kind == TY_ENUM) {
        int v = rs_enum_index(want, e->text);
        if (v >= 0) return const_expr(c, want, v, e->loc);
    }
    int f = find_fact(c, e->text);
    if (f >= 0) {
        int x = new_expr(c, EX_FACT, c->rs->facts[f].type, e->loc);
        X(c, x)->a = f;
        return x;
    }
    if (want && want->kind == TY_CALL) return call_literal(c, e, want);
    if (want && want->kind == TY_ENUM) {
        ERR(c->d, e->loc, nearest(c, e->text, want->values, want->nvalues),
            "'%s' is neither a value of %s nor a fact", e->text, type_text(c, want));
    } else {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->nfacts + 1));
        for (int i = 0; i < c->rs->nfacts; i++) names[i] = c->rs->facts[i].name;
        ERR(c->d, e->loc, nearest(c, e->text, names, c->rs->nfacts), "unknown fact '%s'", e->text);
    }
    return bad_expr(c, e, want);
}

static bool expect_type(compiler *c, int x, const rs_type *want, src_loc loc) {
    const rs_type *got = X(c, x)->type;
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
        a = compile_expr(c, e->a, T(c, TY_BOOL));
        b = compile_expr(c, e->b, T(c, TY_BOOL));
        result = T(c, TY_BOOL);
        break;
    case OP_EQ:
    case OP_NE:
        /* A bare name on the left may be a value of the right side's type. */
        if (e->a->kind == AE_NAME && find_fact(c, e->a->text) < 0) {
            b = compile_expr(c, e->b, NULL);
            a = compile_expr(c, e->a, X(c, b)->type);
        } else {
            a = compile_expr(c, e->a, NULL);
            b = compile_expr(c, e->b, X(c, a)->type);
        }
        result = T(c, TY_BOOL);
        break;
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE: {
        /* Integers compare by value, calls by rank (P < X < XX < 1C < … < 7NT). */
        a = compile_expr(c, e->a, NULL);
        const rs_type *t = X(c, a)->type->kind == TY_CALL ? X(c, a)->type : T(c, TY_INT);
        expect_type(c, a, t, e->a->loc);
        b = compile_expr(c, e->b, t);
        result = T(c, TY_BOOL);
        break;
    }
    default:
        a = compile_expr(c, e->a, T(c, TY_INT));
        b = compile_expr(c, e->b, T(c, TY_INT));
        result = T(c, TY_INT);
        break;
    }
    int x = new_expr(c, EX_BINARY, result, e->loc);
    X(c, x)->op = e->op;
    X(c, x)->a = a;
    X(c, x)->b = b;
    expect_type(c, x, want, e->loc);
    return x;
}

static int push_args(compiler *c, const int *ids, int n) {
    int at = c->rs->expr_args.len;
    for (int i = 0; i < n; i++) *(int *)vec_push(&c->rs->expr_args) = ids[i];
    return at;
}

static int find_table(compiler *c, const char *name) {
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
            ERR(c->d, e->loc, NULL, "%s takes %d argument%s", e->text, minmax ? 2 : 1, minmax ? "s" : "");
            return bad_expr(c, e, want);
        }
        for (int i = 0; i < n; i++) ids[i] = compile_expr(c, e->args.items[i], T(c, TY_INT));
        int x = new_expr(c, minmax ? (e->text[1] == 'i' ? EX_MIN : EX_MAX) : sign ? EX_SIGN : EX_ABS, T(c, TY_INT), e->loc);
        X(c, x)->a = ids[0];
        X(c, x)->b = minmax ? ids[1] : -1;
        expect_type(c, x, want, e->loc);
        return x;
    }
    int t = find_table(c, e->text);
    if (t < 0) {
        ERR(c->d, e->loc, "tables and min, max, abs, sign can be called", "unknown table or function '%s'", e->text);
        return bad_expr(c, e, want);
    }
    const rs_table *tb = &c->rs->tables[t];
    if (e->args.n != tb->nkeys) {
        ERR(c->d, e->loc, NULL, "table '%s' takes %d key%s, given %d", tb->name, tb->nkeys,
            tb->nkeys == 1 ? "" : "s", e->args.n);
        return bad_expr(c, e, want);
    }
    for (int i = 0; i < n; i++) ids[i] = compile_expr(c, e->args.items[i], tb->keys[i]);
    int x = new_expr(c, EX_TABLE, tb->value, e->loc);
    X(c, x)->a = t;
    X(c, x)->args = push_args(c, ids, n);
    X(c, x)->nargs = n;
    expect_type(c, x, want, e->loc);
    return x;
}

static bool is_constant(compiler *c, int x) {
    const rs_expr *e = X(c, x);
    if (e->kind == EX_CONST) return true;
    if (e->kind == EX_UNARY && e->op == OP_NEG) return is_constant(c, e->a);
    return false;
}

static int64_t constant_value(compiler *c, int x) {
    const rs_expr *e = X(c, x);
    return e->kind == EX_CONST ? e->k : -constant_value(c, e->a);
}

static int in_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    int a = compile_expr(c, e->a, NULL);
    int ids[RS_MAX_DOMAIN], n = 0;
    for (int i = 0; i < e->args.n && n < RS_MAX_DOMAIN; i++) {
        int v = compile_expr(c, e->args.items[i], X(c, a)->type);
        if (!is_constant(c, v)) {
            ERR(c->d, ((ast_expr *)e->args.items[i])->loc, NULL, "the set after 'in' holds values, not expressions");
            continue;
        }
        ids[n++] = const_expr(c, X(c, a)->type, constant_value(c, v), X(c, v)->loc);
    }
    int x = new_expr(c, EX_IN, T(c, TY_BOOL), e->loc);
    X(c, x)->a = a;
    X(c, x)->args = push_args(c, ids, n);
    X(c, x)->nargs = n;
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
        if (want && want->kind == TY_CITE) return const_expr(c, want, add_string(c, e->text), e->loc);
        {
            int x = const_expr(c, T(c, TY_INT), e->ival, e->loc);
            expect_type(c, x, want, e->loc);
            return x;
        }
    case AE_BOOL: {
        int x = const_expr(c, T(c, TY_BOOL), e->ival, e->loc);
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_CITE:
        if (want && want->kind == TY_CALL) return call_literal(c, e, want);
        if (want && want->kind != TY_CITE && want->kind != TY_STRING) {
            ERR(c->d, e->loc, NULL, "expected %s, found the citation %s", type_text(c, want), e->text);
            return bad_expr(c, e, want);
        }
        return const_expr(c, want ? want : T(c, TY_CITE), add_string(c, e->text), e->loc);
    default: /* AE_STRING */
        if (want && want->kind == TY_CALL) return call_literal(c, e, want);
        if (want && want->kind != TY_STRING && want->kind != TY_CITE) {
            ERR(c->d, e->loc, "names of values and facts are written without quotes", "expected %s, found a string",
                type_text(c, want));
            return bad_expr(c, e, want);
        }
        return const_expr(c, want ? want : T(c, TY_STRING), add_string(c, e->text), e->loc);
    }
}

/* Type-checks e against want (NULL: any type) and compiles it. */
static int compile_expr(compiler *c, const ast_expr *e, const rs_type *want) {
    switch (e->kind) {
    case AE_NAME: {
        int x = name_expr(c, e, want);
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_UNARY: {
        const rs_type *t = T(c, e->op == OP_NOT ? TY_BOOL : TY_INT);
        int a = compile_expr(c, e->a, t);
        int x = new_expr(c, EX_UNARY, t, e->loc);
        X(c, x)->op = e->op;
        X(c, x)->a = a;
        expect_type(c, x, want, e->loc);
        return x;
    }
    case AE_BINARY: return binary_expr(c, e, want);
    case AE_CALL: return call_expr(c, e, want);
    case AE_IN: return in_expr(c, e, want);
    default: return literal_expr(c, e, want);
    }
}

/* ---- expressions as decision graphs ------------------------------------------ */

enum { OPK_CONCAT = 1, OPK_PATTERN };
#define OPID(kind, n) (((uint64_t)(kind) << 40) | (uint64_t)(uint32_t)(n))

static gref fact_graph(compiler *c, int f, src_loc use);

static gref fact_graph_cb(void *ctx, int fact, src_loc use) {
    return fact_graph(ctx, fact, use);
}

/* ---- graph budgets --------------------------------------------------------- */

/* The values an expression may take, as far as its facts' ranges tell: at
 * most `count` of them, all in lo..hi. Doubles, so that products of
 * 64-bit bounds cannot overflow; only their size matters. */
typedef struct value_span {
    double count, lo, hi;
} value_span;

static value_span span_of(compiler *c, int x);

#define UNBOUNDED 1e300 /* beyond any count; no <math.h>: its finite() is a name here */
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
    if (fact->derived >= 0) /* check_derived_cycles broke every cycle */
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
static bool graph_within_budget(compiler *c, src_loc loc) {
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
    double n = fact->derived >= 0 ? tree_bound(c, fact->derived) : rs_decision_values(fact->type);
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
static gref expr_graph(compiler *c, int x) {
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
    if (fact->derived >= 0) {
        g = expr_graph(c, fact->derived); /* check_derived_cycles broke every cycle */
    } else if (fact->var >= 0) {
        g = graph_var(c->rs->graph, fact->var);
    } else {
        ERR(c->d, use, "derive a bool or an enum from it and test that",
            "fact '%s' (%s) cannot be tested in a decision", fact->name, type_text(c, fact->type));
        return graph_term_ref(c->rs->graph, TERM_VALUE, 0);
    }
    c->fact_graph[f] = g + 1; /* 0 means "not yet"; references may be 0 */
    return g;
}

/* A condition: an expression of type bool, as a graph with 0/1 terminals. */
static gref cond_graph(compiler *c, const ast_expr *e) {
    return expr_graph(c, compile_expr(c, e, T(c, TY_BOOL)));
}

/* ---- declarations ------------------------------------------------------------ */

/* An amended ruleset is named after its base and each amendment. */
static void amended_names(compiler *c) {
    for (int i = 0; i < c->amendments.n; i++) {
        ast_decl *am = c->amendments.items[i];
        const char *label = am->name;
        for (int k = 0; k < am->params.n; k++) {
            ast_given *g = am->params.items[k];
            if (strcmp(g->name, "cite") == 0) label = g->value->text;
        }
        c->rs->name = keep_str(c, arena_printf(c->a, "%s+%s", c->rs->name, label));
    }
}

static void declare_header(compiler *c) {
    ast_decl *header = NULL;
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_RULESET) continue;
        if (d->kind == AD_RULESET && c->amendments.n && header) continue;
        if (header) {
            ERR(c->d, d->loc, arena_printf(c->a, "the first is at %s:%d", header->loc.file, header->loc.line),
                "a ruleset has one 'ruleset' header");
            continue;
        }
        header = d;
    }
    if (!header) {
        ERR(c->d, no_loc(c->rs->dir), "start one file with: ruleset \"name\" { title \"…\" }",
            "no 'ruleset' header in %s", c->rs->dir);
        c->rs->name = "?";
        return;
    }
    c->rs->name = keep_str(c, header->name);
    c->rs->loc = header->loc;
    c->header = header;
    amended_names(c);
    for (int i = 0; i < header->params.n; i++) {
        ast_given *g = header->params.items[i];
        if (strcmp(g->name, "title") == 0)
            c->rs->title = keep_str(c, g->value->text);
        else if (strcmp(g->name, "game") == 0)
            c->rs->game = keep_str(c, g->value->text);
        else if (strcmp(g->name, "score") == 0 || strcmp(g->name, "matchpoints") == 0 ||
                 strcmp(g->name, "imps") == 0 || strcmp(g->name, "legal") == 0 ||
                 strcmp(g->name, "trick") == 0 || strcmp(g->name, "adjusted") == 0 ||
                 strcmp(g->name, "ranking") == 0)
            ; /* scoring articles: resolved once the articles are declared */
        else if (strcmp(g->name, "edition") != 0 && strcmp(g->name, "language") != 0)
            diag_report(c->d, DIAG_WARNING, g->loc,
                        "known keys: title, game, edition, language, score, matchpoints, imps, "
                        "legal, trick, adjusted, ranking",
                        "unknown ruleset header key '%s'", g->name);
    }
    if (!c->rs->title) c->rs->title = c->rs->name;
    for (int i = 0; i < c->amendments.n; i++)
        c->rs->title = keep_str(c, arena_printf(c->a, "%s, gewijzigd door %s", c->rs->title,
                                                ((ast_decl *)c->amendments.items[i])->name));
    if (!c->rs->game) c->rs->game = "";
}

static void declare_types(compiler *c) {
    declare_builtin_types(c);
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TYPE) continue;
        if (builtin_type(c, d->name)) {
            ERR(c->d, d->loc, NULL, "type '%s' is already declared", d->name);
            continue;
        }
        const rs_type *t = resolve_type(c, d->type, d->name);
        if (!t->name ||
            strcmp(t->name, d->name) != 0) { /* an alias of a named type: copy under the new name */
            rs_type *copy = type_new(c, d->name, t->kind);
            *copy = *t;
            copy->name = keep_str(c, d->name);
            t = copy;
        }
        add_type(c, (rs_type *)t);
    }
}

static void check_builtin_fit(compiler *c, ast_decl *d, rs_fact *f) {
    int b = builtin_find(d->from_ns, d->from_name);
    if (b < 0) {
        const char *names[256];
        int n = 0;
        for (int i = 0; i < builtin_count() && n < 256; i++) names[n++] = builtin_at(i)->name;
        ERR(c->d, d->from_loc, nearest(c, d->from_name, names, n), "unknown record fact '%s.%s'", d->from_ns,
            d->from_name);
        return;
    }
    const builtin_desc *bd = builtin_at(b);
    f->builtin = b;
    bool fits = (bd->type == BT_BOOL && f->type->kind == TY_BOOL) ||
                (bd->type == BT_CALL && f->type->kind == TY_CALL) ||
                (bd->type == BT_INT && f->type->kind == TY_INT) ||
                (bd->type == BT_SYMBOL && f->type->kind == TY_ENUM);
    if (!fits) {
        ERR(c->d, d->from_loc, NULL, "'%s.%s' does not fit the type of '%s'", d->from_ns, d->from_name, f->name);
        return;
    }
    for (int i = 0; i < bd->nsymbols; i++)
        if (rs_enum_index(f->type, bd->symbols[i]) < 0)
            ERR(c->d, d->from_loc, arena_printf(c->a, "add '%s' to the enum", bd->symbols[i]),
                "'%s.%s' can be '%s', which '%s' does not list", d->from_ns, d->from_name, bd->symbols[i], f->name);
}

static void declare_facts(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_FACT;
    c->rs->facts = arena_alloc(c->keep, sizeof(rs_fact) * (size_t)(n + 1));
    c->fact_decl = arena_alloc(c->a, sizeof(ast_decl *) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT) continue;
        if (find_fact(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "fact '%s' is declared twice", d->name);
            continue;
        }
        c->fact_decl[c->rs->nfacts] = d;
        rs_fact *f = &c->rs->facts[c->rs->nfacts++];
        f->name = keep_str(c, d->name);
        f->loc = d->loc;
        f->type = resolve_type(c, d->type, NULL);
        f->ask = keep_str(c, d->ask);
        f->ask_en = keep_str(c, d->ask_en);
        f->overridable = d->overridable;
        f->builtin = -1;
        f->derived = -1;
        f->var = -1;
        if (d->from_ns) check_builtin_fit(c, d, f);
        if (d->overridable && !d->from_ns)
            ERR(c->d, d->loc, "overridable says that a scenario may overrule 'from auction.…'",
                "'%s' is overridable but not filled from a record", d->name);
    }
    index_make(c, &c->fact_ix, c->rs->nfacts, fact_name_at);
    /* Graph variables: the input facts a decision can test, in order. */
    c->rs->var_fact = arena_alloc(c->keep, sizeof(int) * (size_t)(c->rs->nfacts + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        int f = d->kind == AD_FACT ? find_fact(c, d->name) : -1;
        if (f < 0 || d->expr || c->rs->facts[f].var >= 0 || !branchable(c->rs->facts[f].type)) continue;
        c->rs->facts[f].var = c->rs->nvars;
        c->rs->var_fact[c->rs->nvars++] = f;
    }
}

/* Every {placeholder} of a message must name a parameter. */
static void check_placeholders(compiler *c, const ast_decl *d, const rs_action *a, const char *text) {
    for (const char *t = text; t && (t = strchr(t, '{')); t++) {
        const char *end = strchr(t, '}');
        if (!end) break;
        bool known = false;
        for (int j = 0; j < a->nparams; j++)
            known |= strlen(a->params[j].name) == (size_t)(end - t - 1) &&
                     strncmp(a->params[j].name, t + 1, (size_t)(end - t - 1)) == 0;
        if (!known)
            ERR(c->d, d->loc, NULL, "the message of '%s' uses {%.*s}, which is not a parameter", d->name,
                (int)(end - t - 1), t + 1);
    }
}

static void declare_actions(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_ACTION;
    c->rs->actions = arena_alloc(c->keep, sizeof(rs_action) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_ACTION) continue;
        if (find_action(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "action '%s' is declared twice", d->name);
            continue;
        }
        rs_action *a = &c->rs->actions[c->rs->nactions++];
        a->name = keep_str(c, d->name);
        a->loc = d->loc;
        a->text = keep_str(c, d->text);
        a->text_en = keep_str(c, d->text_en);
        a->nparams = d->params.n;
        a->params = arena_alloc(c->keep, sizeof(rs_param) * (size_t)(d->params.n + 1));
        for (int j = 0; j < d->params.n; j++) {
            ast_param *p = d->params.items[j];
            a->params[j].name = keep_str(c, p->name);
            a->params[j].type = resolve_type(c, p->type, NULL);
        }
        if (!d->text)
            ERR(c->d, d->loc, "add: text \"…\" (Dutch), and en \"…\" for English", "action '%s' has no message",
                d->name);
        check_placeholders(c, d, a, d->text);
        check_placeholders(c, d, a, d->text_en);
    }
    index_make(c, &c->action_ix, c->rs->nactions, action_name_at);
}

static int64_t key_count(const rs_type *t) {
    return t->kind == TY_BOOL ? 2 : t->kind == TY_ENUM ? t->nvalues : t->hi - t->lo + 1;
}

/* A row key as offsets into its key type: one value, or a range lo..hi. */
static bool key_span(compiler *c, const ast_pattern *k, const rs_type *t, int64_t *lo, int64_t *hi) {
    int64_t base = t->kind == TY_INT ? t->lo : 0;
    int x = compile_expr(c, k->lo, t), y = k->hi ? compile_expr(c, k->hi, t) : x;
    if (!is_constant(c, x) || !is_constant(c, y)) {
        ERR(c->d, k->loc, NULL, "a table key is a value or a range lo..hi");
        return false;
    }
    *lo = constant_value(c, x) - base;
    *hi = constant_value(c, y) - base;
    if (*lo < 0 || *hi >= key_count(t) || *lo > *hi) {
        ERR(c->d, k->loc, NULL, "key outside %s", type_text(c, t));
        return false;
    }
    return true;
}

/* Fills every cell a row's keys cover (ranges expand to each value). */
static void fill_row(compiler *c, rs_table *t, const ast_row *row, int64_t value) {
    int64_t lo[8], hi[8], at[8];
    for (int k = 0; k < t->nkeys; k++) {
        if (!key_span(c, row->keys.items[k], t->keys[k], &lo[k], &hi[k])) return;
        at[k] = lo[k];
    }
    for (;;) {
        int64_t index = 0;
        for (int k = 0; k < t->nkeys; k++) index = index * key_count(t->keys[k]) + at[k];
        if (t->cells[index] != INT64_MIN) {
            ERR(c->d, row->loc, NULL, "this key already has a row");
            return;
        }
        t->cells[index] = value;
        int k = t->nkeys - 1;
        while (k >= 0 && at[k] == hi[k]) at[k] = lo[k], k--;
        if (k < 0) return;
        at[k]++;
    }
}

static void report_missing_row(compiler *c, const ast_decl *d, const rs_table *t, int64_t cell) {
    strbuf sb;
    sb_init(&sb);
    int64_t offs[8];
    for (int k = t->nkeys - 1; k >= 0; k--) {
        offs[k] = cell % key_count(t->keys[k]);
        cell /= key_count(t->keys[k]);
    }
    for (int k = 0; k < t->nkeys; k++) {
        if (k) sb_puts(&sb, ", ");
        rs_format_value(c->rs, t->keys[k], offs[k] + (t->keys[k]->kind == TY_INT ? t->keys[k]->lo : 0), FMT_NAME, &sb);
    }
    ERR(c->d, d->loc, "add the row, or a default row `_ => value`", "table '%s' has no row for %s", t->name, sb.data);
    sb_free(&sb);
}

static void fill_table(compiler *c, ast_decl *d, rs_table *t) {
    int64_t defval = INT64_MIN;
    bool has_default = false;
    for (int r = 0; r < d->rows.n; r++) {
        ast_row *row = d->rows.items[r];
        int v = compile_expr(c, row->value, t->value);
        if (!is_constant(c, v)) {
            ERR(c->d, row->value->loc, NULL, "a table cell is a value");
            continue;
        }
        if (row->keys.n == 0) {
            has_default = true;
            defval = constant_value(c, v);
        } else if (row->keys.n != t->nkeys) {
            ERR(c->d, row->loc, NULL, "table '%s' has %d key%s, this row gives %d", t->name, t->nkeys,
                t->nkeys == 1 ? "" : "s", row->keys.n);
        } else {
            fill_row(c, t, row, constant_value(c, v));
        }
    }
    for (int i = 0; i < t->ncells; i++) {
        if (t->cells[i] != INT64_MIN) continue;
        if (!has_default) {
            report_missing_row(c, d, t, i);
            return;
        }
        t->cells[i] = defval;
    }
}

static void declare_tables(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_TABLE;
    c->rs->tables = arena_alloc(c->keep, sizeof(rs_table) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TABLE) continue;
        if (find_table(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "table '%s' is declared twice", d->name);
            continue;
        }
        rs_table *t = &c->rs->tables[c->rs->ntables];
        t->name = keep_str(c, d->name);
        t->loc = d->loc;
        t->nkeys = d->params.n;
        t->keys = arena_alloc(c->keep, sizeof(rs_type *) * (size_t)(t->nkeys + 1));
        t->value = resolve_type(c, d->type, NULL);
        int64_t cells = 1;
        bool ok = t->nkeys >= 1 && t->nkeys <= 4;
        if (!ok) ERR(c->d, d->loc, NULL, "a table has one to four keys");
        for (int k = 0; k < t->nkeys && ok; k++) {
            ast_param *p = d->params.items[k];
            t->keys[k] = resolve_type(c, p->type, NULL);
            if (!finite(t->keys[k])) {
                ERR(c->d, p->loc, "use bool, an enum or a bounded int such as int 1..13",
                    "key '%s' of table '%s' has no finite set of values", p->name, d->name);
                ok = false;
            } else if (__builtin_mul_overflow(cells, key_count(t->keys[k]), &cells)) {
                cells = INT64_MAX; /* beyond any limit: reported below, never allocated */
            }
        }
        if (ok && cells > MAX_TABLE_CELLS) {
            ERR(c->d, d->loc, NULL, "table '%s' would have %lld cells; the limit is %d", d->name, (long long)cells,
                MAX_TABLE_CELLS);
            ok = false;
        }
        if (ok && cells > MAX_RULESET_TABLE_CELLS - c->table_cells) {
            /* once: the tables after it are not made either */
            if (c->table_cells <= MAX_RULESET_TABLE_CELLS)
                ERR(c->d, d->loc,
                    "split the regulations into rulesets of their own, or compute the values",
                    "the tables of the ruleset would have more than %d cells together "
                    "(table '%s' adds %lld to %lld)",
                    MAX_RULESET_TABLE_CELLS, d->name, (long long)cells, (long long)c->table_cells);
            c->table_cells = MAX_RULESET_TABLE_CELLS + 1;
            ok = false;
        }
        if (!ok) continue;
        c->table_cells += cells;
        t->ncells = (int)cells;
        t->cells = arena_alloc(c->keep, sizeof(int64_t) * (size_t)cells);
        for (int64_t j = 0; j < cells; j++) t->cells[j] = INT64_MIN;
        c->rs->ntables++; /* visible to its own rows' expressions only after this */
        fill_table(c, d, t);
    }
}

/* A derived fact may not depend on itself, whether or not a decision tests
 * it: an action argument would otherwise evaluate forever. */
static bool derived_cycle(compiler *c, int e, char *state) {
    const rs_expr *x = X(c, e);
    if (x->kind == EX_FACT) {
        int f = x->a, d = c->rs->facts[f].derived;
        if (d < 0 || state[f] == 2) return false;
        if (state[f] == 1) return true;
        state[f] = 1;
        bool cyc = derived_cycle(c, d, state);
        state[f] = 2;
        return cyc;
    }
    if (x->a >= 0 && x->kind != EX_TABLE && derived_cycle(c, x->a, state)) return true;
    if (x->b >= 0 && derived_cycle(c, x->b, state)) return true;
    for (int i = 0; i < x->nargs; i++)
        if (x->kind != EX_IN && derived_cycle(c, rs_arg(c->rs, x->args + i), state)) return true;
    return false;
}

static void check_derived_cycles(compiler *c) {
    char *state = arena_alloc(c->a, (size_t)c->rs->nfacts + 1);
    for (int f = 0; f < c->rs->nfacts; f++) {
        const rs_fact *fact = &c->rs->facts[f];
        if (fact->derived < 0 || state[f] == 2) continue;
        memset(state, 0, (size_t)c->rs->nfacts);
        state[f] = 1;
        if (derived_cycle(c, fact->derived, state)) {
            ERR(c->d, fact->loc, "a derived fact is computed from the facts it names; none may lead back to it",
                "derived fact '%s' is defined in terms of itself", fact->name);
            c->rs->facts[f].derived = const_expr(c, fact->type, 0, fact->loc); /* so nothing loops later */
        }
    }
}

static void declare_derived(compiler *c) {
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT || !d->expr) continue;
        int f = find_fact(c, d->name);
        if (f < 0 || c->rs->facts[f].derived >= 0) continue;
        if (d->ask || d->from_ns)
            ERR(c->d, d->loc, "a derived fact is computed, never asked", "'%s' has both '=' and ask/from", d->name);
        c->rs->facts[f].derived = compile_expr(c, d->expr, c->rs->facts[f].type);
    }
    check_derived_cycles(c);
}

/* `default V`: the value a scenario that is silent about an input fact is
 * ruled with, shown as assumed so that the director can correct it. */
static void declare_defaults(compiler *c) {
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT || !d->default_value) continue;
        int f = find_fact(c, d->name);
        if (f < 0) continue;
        rs_fact *fact = &c->rs->facts[f];
        if (d->expr || d->from_ns) {
            ERR(c->d, d->default_value->loc, "a default is for a fact the director gives, not one computed or read from a record",
                "'%s' cannot have a default", d->name);
            continue;
        }
        if (!branchable(fact->type)) {
            ERR(c->d, d->default_value->loc, "give defaults to yes/no, enum and bounded number facts",
                "'%s' (%s) cannot have a default", d->name, type_text(c, fact->type));
            continue;
        }
        int x = compile_expr(c, d->default_value, fact->type);
        if (!is_constant(c, x)) {
            ERR(c->d, d->default_value->loc, "write a value: true, false, an enum value or a number",
                "the default of '%s' is not a constant", d->name);
            continue;
        }
        int64_t v = constant_value(c, x);
        if (fact->type->kind == TY_INT && fact->type->bounded && (v < fact->type->lo || v > fact->type->hi)) {
            ERR(c->d, d->default_value->loc, NULL, "the default %lld of '%s' is outside %lld..%lld", (long long)v,
                d->name, (long long)fact->type->lo, (long long)fact->type->hi);
            continue;
        }
        fact->has_default = true;
        fact->default_value = v;
    }
}

static void declare_invariants(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_INVARIANT;
    c->rs->invariants = arena_alloc(c->keep, sizeof(rs_invariant) * (size_t)(n + 1));
    c->inv_conds = arena_alloc(c->a, sizeof(gref) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_INVARIANT) continue;
        rs_invariant *inv = &c->rs->invariants[c->rs->ninvariants];
        inv->message = keep_str(c, d->title);
        inv->message_en = keep_str(c, d->text_en);
        inv->loc = d->loc;
        inv->expr = compile_expr(c, d->expr, T(c, TY_BOOL));
        c->inv_conds[c->rs->ninvariants++] = expr_graph(c, inv->expr);
    }
    c->invariants = c->t_true;
    for (int i = c->rs->ninvariants - 1; i >= 0; i--)
        c->invariants = graph_ite(c->rs->graph, c->inv_conds[i], c->invariants, c->t_false);
}

/* ---- outcomes --------------------------------------------------------------
 * While compiling, a ruling is a pair of lists (its trail, its actions), and
 * a list is a chain of cells (the list before it, one more item), both
 * interned: the same ruling is the same number, as the graph needs, and
 * joining two rulings copies and hashes nothing but the items of the second.
 * Only the rulings the finished graph reaches become rs_outcome arrays
 * (flatten_outcomes). */

static uint64_t pair_hash(int32_t x, int32_t y) {
    return hash_step(HASH_INIT, (uint64_t)(uint32_t)x | (uint64_t)(uint32_t)y << 32);
}

static void pair_rehash(pair_table *t) {
    int cap = t->capslots ? t->capslots * 2 : 1024;
    free(t->slots);
    t->slots = malloc(sizeof(int32_t) * (size_t)cap);
    if (!t->slots) abort();
    memset(t->slots, -1, sizeof(int32_t) * (size_t)cap);
    t->capslots = cap;
    uint64_t mask = (uint64_t)cap - 1;
    for (int i = 0; i < t->n; i++) {
        uint64_t h = pair_hash(t->pairs[i][0], t->pairs[i][1]) & mask;
        while (t->slots[h] >= 0)
            h = (h + 1) & mask;
        t->slots[h] = i;
    }
}

static int pair_intern(pair_table *t, int32_t x, int32_t y) {
    if (2 * (t->n + 1) > t->capslots) pair_rehash(t);
    uint64_t mask = (uint64_t)t->capslots - 1;
    uint64_t h = pair_hash(x, y) & mask;
    for (; t->slots[h] >= 0; h = (h + 1) & mask)
        if (t->pairs[t->slots[h]][0] == x && t->pairs[t->slots[h]][1] == y) return t->slots[h];
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->pairs = realloc(t->pairs, sizeof *t->pairs * (size_t)t->cap);
        if (!t->pairs) abort();
    }
    t->pairs[t->n][0] = x;
    t->pairs[t->n][1] = y;
    t->slots[h] = t->n;
    return t->n++;
}

static void pair_free(pair_table *t) {
    free(t->pairs);
    free(t->slots);
}

/* Lists: 0 is the empty list, cell i is list i + 1. */
static int32_t list_add(compiler *c, int32_t list, int item) {
    return 1 + pair_intern(&c->cells, list, item);
}

static int list_len(const compiler *c, int32_t list) {
    int n = 0;
    for (; list; list = c->cells.pairs[list - 1][0])
        n++;
    return n;
}

/* The items of a list, in order, into out (list_len of them). */
static void list_items(const compiler *c, int32_t list, int *out) {
    for (int i = list_len(c, list); list; list = c->cells.pairs[list - 1][0])
        out[--i] = c->cells.pairs[list - 1][1];
}

static int32_t list_append(compiler *c, int32_t x, int32_t y) {
    if (!y) return x;
    int n = list_len(c, y), stack[64];
    int *items = n <= 64 ? stack : malloc(sizeof(int) * (size_t)n);
    if (!items) abort();
    list_items(c, y, items);
    for (int i = 0; i < n; i++)
        x = list_add(c, x, items[i]);
    if (items != stack) free(items);
    return x;
}

/* A ruling: the outcome `o` (0: the empty one) followed by clauses and actions. */
static int outcome_extend(compiler *c, int o, const int *trail, int nt, const int *acts, int na) {
    int32_t t = c->outs.pairs[o][0], a = c->outs.pairs[o][1];
    for (int i = 0; i < nt; i++)
        t = list_add(c, t, trail[i]);
    for (int i = 0; i < na; i++)
        a = list_add(c, a, acts[i]);
    return pair_intern(&c->outs, t, a);
}

static gref outcome_ref(compiler *c, int o) {
    return graph_term_ref(c->rs->graph, TERM_OUTCOME, o);
}

/* One ruling followed by another: trails and actions joined. Anything that
 * is not a ruling (a gap, a rejection) wins over what follows it. */
static graph_term fold_concat(void *ctx, graph_term a, graph_term b) {
    compiler *c = ctx;
    if (a.kind != TERM_OUTCOME) return a;
    if (b.kind != TERM_OUTCOME) return b;
    if (b.v == 0) return a;
    if (a.v == 0) return b;
    int32_t xt = c->outs.pairs[a.v][0], xa = c->outs.pairs[a.v][1];
    int32_t yt = c->outs.pairs[b.v][0], ya = c->outs.pairs[b.v][1];
    int32_t t = list_append(c, xt, yt), acts = list_append(c, xa, ya);
    return (graph_term){TERM_OUTCOME, pair_intern(&c->outs, t, acts)};
}

static gref concat(compiler *c, gref a, gref b) {
    /* the empty ruling joins as nothing; what is not a ruling ends the ruling */
    graph_laws laws = {c->t_empty, ~(1u << TERM_OUTCOME)};
    return graph_apply2_laws(c->rs->graph, OPID(OPK_CONCAT, 0), a, b, fold_concat, c, &laws);
}

static int new_clause(compiler *c, const char *cite, src_loc loc, int article, bool is_article) {
    rs_clause *cl = vec_push(&c->clauses);
    cl->cite = keep_str(c, cite);
    cl->loc = loc;
    cl->article = article;
    cl->is_article = is_article;
    return c->clauses.len - 1;
}

/* ---- articles ---------------------------------------------------------------- */

static int action_use(compiler *c, const ast_item *it, int clause) {
    int a = find_action(c, it->name);
    if (a < 0) {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->nactions + 1));
        for (int i = 0; i < c->rs->nactions; i++) names[i] = c->rs->actions[i].name;
        ERR(c->d, it->loc, nearest(c, it->name, names, c->rs->nactions), "unknown action '%s'", it->name);
        return -1;
    }
    const rs_action *act = &c->rs->actions[a];
    if (it->args.n != act->nparams) {
        ERR(c->d, it->loc, NULL, "action '%s' takes %d argument%s, given %d", act->name, act->nparams,
            act->nparams == 1 ? "" : "s", it->args.n);
        return -1;
    }
    int ids[16], n = act->nparams < 16 ? act->nparams : 16;
    for (int i = 0; i < n; i++) ids[i] = compile_expr(c, it->args.items[i], act->params[i].type);
    rs_action_use *u = vec_push(&c->rs->uses);
    u->action = a;
    u->clause = clause;
    u->args = push_args(c, ids, n);
    return c->rs->uses.len - 1;
}

/* Where a clause can be reached: base (the article's `when` and the
 * invariants) and conds (the clauses on the way, taken or passed). The two
 * are kept apart, and joined only to ask whether they meet: the base is as
 * large as the invariants, conds is a few tests, and "base and conds" made
 * as a graph for every clause cost half the compiling. */
typedef struct reach_set {
    gref base, conds;
} reach_set;

static gref compile_block(compiler *c, const ast_block *b, const reach_set *reach, int clause,
                          int art, int prefix);
static gref article_full(compiler *c, int art, src_loc from);

static int find_article(compiler *c, const char *id, src_loc at) {
    int i = rs_find_article(c->rs, id);
    if (i < 0) {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->narticles + 1));
        for (int j = 0; j < c->rs->narticles; j++) names[j] = c->rs->articles[j].id;
        ERR(c->d, at, nearest(c, id, names, c->rs->narticles), "no article %s in this ruleset", id);
    }
    return i;
}

/* ---- citations besides the clauses' own ---------------------------------------
 * `cite 18D` on a fact: a clause taken because of the fact's value (its
 * condition, or the subject of its match, reads the fact, or a derived fact
 * that reads it) carries 18D in its trail just before its own citation.
 * `cite 18D` in a block: every ruling of the block carries 18D. A citation
 * already on the trail is not repeated. */

static bool trail_has(const compiler *c, int32_t list, const char *cite) {
    for (; list; list = c->cells.pairs[list - 1][0]) {
        const char *t = cite_at((compiler *)c, c->cells.pairs[list - 1][1]);
        if (t && strcmp(t, cite) == 0) return true;
    }
    return false;
}

typedef struct cite_list {
    const ast_expr *items[32]; /* AE_CITE; more than a clause ever needs */
    int n;
} cite_list;

/* Adds a citation once; a step that would carry more than the list holds
 * is an error at the citation, never a trail cut short. */
static void cite_add(compiler *c, cite_list *l, const ast_expr *e) {
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->items[i]->text, e->text) == 0) return;
    if (l->n < (int)(sizeof l->items / sizeof *l->items))
        l->items[l->n++] = e;
    else
        ERR(c->d, e->loc, "cite fewer articles on one step, or give the clause a block of its own",
            "more than %d citations on one step of a trail", (int)(sizeof l->items / sizeof *l->items));
}

/* The citations of the facts e reads, in the order read; a derived fact's
 * after those of the facts it reads. */
static void fact_cites(compiler *c, const ast_expr *e, cite_list *out, char *seen) {
    if (!e) return;
    if (e->kind == AE_NAME) {
        int f = find_fact(c, e->text);
        if (f < 0 || seen[f]) return;
        seen[f] = 1;
        const ast_decl *d = c->fact_decl[f];
        fact_cites(c, d->expr, out, seen); /* what it rests on first */
        for (int i = 0; i < d->cites.n; i++) cite_add(c, out, d->cites.items[i]);
        return;
    }
    fact_cites(c, e->a, out, seen);
    fact_cites(c, e->b, out, seen);
    for (int i = 0; i < e->args.n; i++) fact_cites(c, e->args.items[i], out, seen);
}

/* The ruling prefix, then the citations in `cites` it does not carry yet,
 * then `last` (a clause, or -1). */
static int extend_cited(compiler *c, int prefix, const cite_list *cites, int art, int last) {
    int ids[33], n = 0;
    for (int i = 0; i < cites->n; i++)
        if (!trail_has(c, c->outs.pairs[prefix][0], cites->items[i]->text))
            ids[n++] = new_clause(c, cites->items[i]->text, cites->items[i]->loc, art, false);
    if (last >= 0) ids[n++] = last;
    return outcome_extend(c, prefix, ids, n, NULL, 0);
}

/* The prefix, then what the facts `reads` reads cite, then the clause `last`. */
static int extend_reading(compiler *c, int prefix, const ast_expr *reads, int art, int last) {
    cite_list cites = {.n = 0};
    if (reads) fact_cites(c, reads, &cites, arena_alloc(c->a, (size_t)c->rs->nfacts + 1));
    return extend_cited(c, prefix, &cites, art, last);
}

/* A clause taken after the ruling `prefix`: its rulings start with prefix
 * and the clause itself, so its leaves are made whole and no graph is
 * walked again to put them in front (except an applied article's, which is
 * compiled once for every place that applies it). `reads` is its condition
 * (or its match's subject), for the citations of the facts it reads. */
static gref compile_clause(compiler *c, const ast_clause *cl, const reach_set *taken, int art,
                           int prefix, const ast_expr *reads) {
    int id = new_clause(c, cl->cite, cl->loc, art, false);
    int here = extend_reading(c, prefix, reads, art, id);
    if (!cl->apply) return compile_block(c, cl->block, taken, id, art, here);
    int target = find_article(c, cl->apply, cl->apply_loc);
    if (target >= 0) c->applied[target] = 1;
    gref body = target < 0 ? c->t_false : article_full(c, target, cl->apply_loc);
    return concat(c, outcome_ref(c, here), body);
}

typedef struct pattern_ctx {
    int64_t lo, hi;
    bool any;
} pattern_ctx;

static graph_term fold_pattern(void *ctx, graph_term a) {
    pattern_ctx *p = ctx;
    if (a.kind != TERM_VALUE) return a;
    return (graph_term){TERM_VALUE, p->any || (a.v >= p->lo && a.v <= p->hi)};
}

static gref pattern_cond(compiler *c, const ast_pattern *p, gref subject, const rs_type *t) {
    pattern_ctx ctx = {0, 0, p->kind == AP_ANY};
    if (!ctx.any) {
        int lo = compile_expr(c, p->lo, t), hi = p->hi ? compile_expr(c, p->hi, t) : lo;
        if (!is_constant(c, lo) || !is_constant(c, hi)) {
            ERR(c->d, p->loc, "a pattern is a value, a range lo..hi or _", "pattern is not a constant");
            return c->t_false;
        }
        ctx.lo = constant_value(c, lo);
        ctx.hi = constant_value(c, hi);
    }
    return graph_apply1(c->rs->graph, OPID(OPK_PATTERN, c->next_op++), subject, fold_pattern, &ctx);
}

static gref and_graph(compiler *c, gref a, gref b) {
    return graph_ite(c->rs->graph, a, b, c->t_false);
}

static gref not_graph(compiler *c, gref a) {
    return graph_ite(c->rs->graph, a, c->t_false, c->t_true);
}

typedef struct decision {
    gref cond, body;
} decision;

/* Adds one clause: it is taken where it applies and no earlier one was. */
static void add_decision(compiler *c, vec *ds, reach_set *reach, gref cond, const ast_clause *cl,
                         src_loc at, int art, int prefix, const ast_expr *reads) {
    reach_set taken = {reach->base, and_graph(c, reach->conds, cond)};
    if (diag_errors(c->d) - c->proof_errors == c->errors_before &&
        graph_and_is_false(c->rs->graph, taken.base, taken.conds)) {
        ERR(c->d, at, "an earlier clause, the article's `when` or an invariant already covers every such situation",
            "this clause can never apply");
        c->proof_errors++;
    }
    decision *d = vec_push(ds);
    d->cond = cond;
    d->body = cl ? compile_clause(c, cl, &taken, art, prefix, reads) : outcome_ref(c, prefix);
    reach->conds = and_graph(c, reach->conds, not_graph(c, cond));
}

static void match_decisions(compiler *c, vec *ds, reach_set *reach, const ast_item *it, int art,
                            int prefix) {
    int x = compile_expr(c, it->cond, NULL);
    const rs_type *t = X(c, x)->type;
    gref subject = expr_graph(c, x); /* says why if it reads a fact no decision can test */
    for (int i = 0; i < it->arms.n; i++) {
        ast_arm *arm = it->arms.items[i];
        gref cond = c->t_false;
        for (int j = 0; j < arm->patterns.n; j++)
            cond = graph_ite(c->rs->graph, pattern_cond(c, arm->patterns.items[j], subject, t), c->t_true, cond);
        add_decision(c, ds, reach, cond, arm->clause, arm->loc, art, prefix, it->cond);
    }
}

/* A block's rulings: prefix, then its actions (all of them, wherever they
 * stand in the block), then what its first clause that applies rules. */
static gref compile_block(compiler *c, const ast_block *b, const reach_set *from, int clause,
                          int art, int prefix) {
    reach_set reach = *from;
    vec acts, ds;
    vec_init(&acts, sizeof(int));
    vec_init(&ds, sizeof(decision));
    for (int i = 0; i < b->items.n; i++) {
        const ast_item *it = b->items.items[i];
        if (it->kind != AI_ACTION) continue;
        int u = action_use(c, it, clause);
        if (u >= 0) *(int *)vec_push(&acts) = u;
    }
    cite_list cites = {.n = 0};
    for (int i = 0; i < b->items.n; i++) {
        const ast_item *it = b->items.items[i];
        for (int j = 0; it->kind == AI_CITE && j < it->args.n; j++) cite_add(c, &cites, it->args.items[j]);
    }
    int here = extend_cited(c, prefix, &cites, art, -1);
    here = outcome_extend(c, here, NULL, 0, (int *)acts.data, acts.len);
    for (int i = 0; i < b->items.n; i++) {
        const ast_item *it = b->items.items[i];
        switch (it->kind) {
        case AI_ACTION:
        case AI_CITE:
            break;
        case AI_IF:
            add_decision(c, &ds, &reach, cond_graph(c, it->cond), it->clause, it->loc, art, here, it->cond);
            break;
        case AI_OTHERWISE:
            add_decision(c, &ds, &reach, c->t_true, it->clause, it->loc, art, here, NULL);
            break;
        case AI_MATCH:
            match_decisions(c, &ds, &reach, it, art, here);
            break;
        case AI_APPLY: {
            ast_clause cl = {it->loc, NULL, NULL, it->name, it->loc};
            add_decision(c, &ds, &reach, c->t_true, &cl, it->loc, art, here, NULL);
            break;
        }
        }
    }
    gref result = outcome_ref(c, here);
    if (ds.len > 0) {
        rs_block *blk = vec_push(&c->blocks);
        blk->loc = b->loc;
        blk->article = art;
        result = graph_term_ref(c->rs->graph, TERM_GAP, c->blocks.len - 1);
        for (int i = ds.len - 1; i >= 0; i--) {
            decision *d = &VEC_AT(&ds, decision, i);
            result = graph_ite(c->rs->graph, d->cond, d->body, result);
        }
    }
    vec_free(&acts);
    vec_free(&ds);
    return result;
}

enum { ART_NEW, ART_BUSY, ART_DONE };

/* An article entered: its number in the trail, then its body. `apply`
 * enters an article this way too, whatever its `when`. */
static gref article_full(compiler *c, int art, src_loc from) {
    if (c->art_state[art] == ART_DONE) return c->art_full[art];
    if (c->graph_spent) return c->t_false; /* reported where it ran out */
    rs_article *a = &c->rs->articles[art];
    if (c->art_state[art] == ART_BUSY) {
        ERR(c->d, from, "an article may not hand a situation back to itself, directly or through others",
            "apply cycle: article %s is applied again while it is being ruled on", a->id);
        return c->t_false;
    }
    if (c->apply_depth >= MAX_APPLY_DEPTH) {
        ERR(c->d, from, "let an article rule itself instead of handing the situation on so often",
            "apply chain more than %d articles deep", MAX_APPLY_DEPTH);
        return c->t_false;
    }
    c->art_state[art] = ART_BUSY;
    ast_decl *d = c->art_decl[art];
    reach_set reach = {and_graph(c, c->when[art], c->invariants), c->t_true};
    if (reach.base == c->t_false && diag_errors(c->d) - c->proof_errors == c->errors_before) {
        ERR(c->d, d->loc, "check the `when` against the invariants", "article %s can never apply", a->id);
        c->proof_errors++;
    }
    int entered = extend_reading(c, outcome_extend(c, 0, &a->entry_clause, 1, NULL, 0), d->expr, art, -1);
    c->apply_depth++;
    c->art_full[art] = compile_block(c, d->body, &reach, a->entry_clause, art, entered);
    c->apply_depth--;
    c->art_state[art] = ART_DONE;
    return c->art_full[art];
}

/* Situations that break an invariant are rejected, whatever the rest says. */
static gref with_invariants(compiler *c, gref g) {
    /* The first invariant that fails, or a placeholder where none does, is
     * one graph the size of the invariants; g goes in the placeholder's place
     * in one walk, where an ite per invariant walked all of g each time. g
     * holds no placeholder (TERM_FALLTHROUGH is never a ruling's) and no
     * rejection, so this is the same function as the ites and the same graph. */
    graph *gr = c->rs->graph;
    gref first_broken = graph_term_ref(gr, TERM_FALLTHROUGH, 0);
    for (int i = c->rs->ninvariants - 1; i >= 0; i--)
        first_broken =
            graph_ite(gr, c->inv_conds[i], first_broken, graph_term_ref(gr, TERM_REJECT, i));
    return graph_replace_kind(gr, first_broken, TERM_FALLTHROUGH, g);
}

/* The ruleset-wide bounds, checked before anything is built. */
static void check_totals(compiler *c) {
    int facts = 0, articles = 0;
    for (int i = 0; i < c->decls.n; i++) {
        const ast_decl *d = c->decls.items[i];
        if (d->kind == AD_FACT && ++facts == MAX_FACTS + 1)
            ERR(c->d, d->loc, "split the regulations into rulesets of their own",
                "more than %d facts in one ruleset", MAX_FACTS);
        if (d->kind == AD_ARTICLE && ++articles == MAX_ARTICLES + 1)
            ERR(c->d, d->loc, "split the regulations into rulesets of their own",
                "more than %d articles in one ruleset", MAX_ARTICLES);
    }
}

static void declare_articles(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_ARTICLE;
    c->rs->articles = arena_alloc(c->keep, sizeof(rs_article) * (size_t)(n + 1));
    c->art_decl = arena_alloc(c->a, sizeof(ast_decl *) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_ARTICLE) continue;
        if (rs_find_article(c->rs, d->name) >= 0) {
            ERR(c->d, d->loc, "one article per number; put its sub-articles in its clauses",
                "article %s is declared twice", d->name);
            continue;
        }
        rs_article *a = &c->rs->articles[c->rs->narticles];
        a->id = keep_str(c, d->name);
        a->title = d->title ? keep_str(c, d->title) : "";
        a->loc = d->loc;
        a->has_when = d->expr != NULL;
        a->entry_clause = new_clause(c, d->name, d->loc, c->rs->narticles, true);
        c->art_decl[c->rs->narticles++] = d;
    }
    c->art_state = arena_alloc(c->a, (size_t)(n + 1));
    c->applied = arena_alloc(c->a, (size_t)(n + 1));
    c->art_full = arena_alloc(c->a, sizeof(gref) * (size_t)(n + 1));
    c->when = arena_alloc(c->a, sizeof(gref) * (size_t)(n + 1));
    for (int i = 0; i < c->rs->narticles; i++)
        c->when[i] = c->art_decl[i]->expr ? cond_graph(c, c->art_decl[i]->expr) : c->t_true;
}

/* A klaverjas ruleset gives the core its rank orders and card values: the
 * type `rank` (seven … ace, in that order: the core counts on it) and five
 * tables keyed by it (docs/klaverjas.md). */
static const rs_type *klaverjas_rank_type(compiler *c, src_loc *at) {
    static const char *const ranks[] = {"seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"};
    enum { NRANKS = sizeof ranks / sizeof *ranks };
    const rs_type *rank = builtin_type(c, "rank");
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind == AD_TYPE && strcmp(d->name, "rank") == 0) *at = d->loc;
    }
    const char *hint = "declare: type rank = enum { seven, eight, nine, ten, jack, queen, king, ace }";
    if (!rank) {
        ERR(c->d, *at, hint, "a klaverjas ruleset declares the type 'rank'");
        return NULL;
    }
    bool same = rank->kind == TY_ENUM && rank->nvalues == NRANKS;
    for (int i = 0; same && i < NRANKS; i++) same = strcmp(rank->values[i], ranks[i]) == 0;
    if (!same) ERR(c->d, *at, hint, "the type 'rank' of a klaverjas ruleset has exactly the values seven … ace, in that order");
    return same ? rank : NULL;
}

static void check_klaverjas_vocabulary(compiler *c) {
    for (int k = 0; k < KJT_COUNT; k++) c->rs->klaverjas_tables[k] = -1;
    if (c->rs->game == NULL || strcmp(c->rs->game, "klaverjas") != 0) return; /* NULL: no header, reported */
    src_loc at = c->rs->loc;
    const rs_type *rank = klaverjas_rank_type(c, &at);
    for (int k = 0; k < KJT_COUNT && rank; k++) {
        const char *name = kj_table_name((enum klaverjas_table)k);
        int t = find_table(c, name);
        const char *hint = arena_printf(c->a, "declare: table %s(r: rank) : int { … }", name);
        if (t < 0) {
            ERR(c->d, c->rs->loc, hint, "a klaverjas ruleset declares the table '%s'", name);
            continue;
        }
        const rs_table *tb = &c->rs->tables[t];
        if (tb->nkeys != 1 || tb->keys[0] != rank || tb->value->kind != TY_INT) {
            ERR(c->d, tb->loc, hint, "table '%s' of a klaverjas ruleset has one key of type rank and int values", name);
            continue;
        }
        c->rs->klaverjas_tables[k] = t;
    }
}

/* The header names the articles that score, matchpoint and give IMPs, and
 * in klaverjas the ones that rule on one card and on one trick. */
static void resolve_scoring_articles(compiler *c) {
    static const char *const keys[] = {"score", "matchpoints", "imps",   "legal",
                                       "trick", "adjusted",    "ranking"};
    int *slots[] = {&c->rs->score_article,  &c->rs->matchpoints_article, &c->rs->imps_article,
                    &c->rs->legal_article,  &c->rs->trick_article,       &c->rs->adjusted_article,
                    &c->rs->ranking_article};
    enum { NKEYS = sizeof keys / sizeof *keys };
    for (int k = 0; k < NKEYS; k++) *slots[k] = -1;
    for (int i = 0; c->header && i < c->header->params.n; i++) {
        ast_given *g = c->header->params.items[i];
        for (int k = 0; k < NKEYS; k++)
            if (strcmp(g->name, keys[k]) == 0) *slots[k] = find_article(c, g->value->text, g->value->loc);
    }
    for (int k = 0; k < NKEYS; k++)
        if (*slots[k] >= 0) c->applied[*slots[k]] = 1; /* ruled on by its command */
}

/* Declared scope: where an `outside` condition holds, the ruling says that
 * this ruleset does not rule on it, and why; the checker counts that as
 * covered. The first declaration that holds gives the reason. */
static gref with_scope(compiler *c, gref g) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_OUTSIDE;
    c->rs->outside = arena_alloc(c->keep, sizeof(rs_outside) * (size_t)(n + 1));
    gref *conds = arena_alloc(c->a, sizeof(gref) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_OUTSIDE) continue;
        rs_outside *o = &c->rs->outside[c->rs->noutside];
        o->message = keep_str(c, d->title);
        o->message_en = keep_str(c, d->text_en);
        o->loc = d->loc;
        conds[c->rs->noutside++] = cond_graph(c, d->expr);
    }
    for (int i = c->rs->noutside - 1; i >= 0; i--)
        g = graph_ite(c->rs->graph, conds[i], graph_term_ref(c->rs->graph, TERM_OUTSIDE, i), g);
    return g;
}

static void compile_articles(compiler *c) {
    graph *g = c->rs->graph;
    gref na = graph_term_ref(g, TERM_NOT_APPLICABLE, 0);
    for (int i = 0; i < c->rs->narticles; i++) {
        gref full = article_full(c, i, c->rs->articles[i].loc);
        c->rs->articles[i].root = graph_restrict(g, graph_ite(g, c->when[i], full, na), c->invariants);
        if (!graph_within_budget(c, c->rs->articles[i].loc)) return;
    }
    for (int i = 0; i < c->rs->narticles; i++)
        if (!c->rs->articles[i].has_when && !c->applied[i])
            diag_report(c->d, DIAG_WARNING, c->rs->articles[i].loc, "give it a `when`, or `apply` it from another article",
                        "article %s is never ruled on", c->rs->articles[i].id);
    /* The whole ruleset: every article whose `when` holds, in file order. */
    gref root = c->t_empty, any = c->t_false;
    for (int i = c->rs->narticles - 1; i >= 0; i--) {
        if (!c->rs->articles[i].has_when) continue;
        /* where the article does not apply it adds the empty ruling, which
         * concat passes over without walking the rest */
        root = concat(c, graph_ite(g, c->when[i], c->art_full[i], c->t_empty), root);
        any = graph_ite(g, c->when[i], c->t_true, any);
        if (!graph_within_budget(c, c->rs->articles[i].loc)) return;
    }
    if (any == c->t_false && c->rs->narticles > 0 && diag_errors(c->d) == c->errors_before)
        ERR(c->d, c->rs->loc, "give the articles a director starts from a `when`",
            "no article has a `when`: nothing is ever ruled on");
    root = graph_ite(g, any, root, graph_term_ref(g, TERM_GAP, -1));
    root = with_scope(c, root);
    c->rs->checked_root = with_invariants(c, root);
    c->rs->invariant_root = with_invariants(c, c->t_true);
    c->rs->root = graph_restrict(g, root, c->invariants);
    graph_within_budget(c, c->rs->loc); /* the whole ruleset's decisions, built together */
}

/* ---- tests --------------------------------------------------------------------- */

static bool cite_known(compiler *c, const char *cite) {
    if (!c->cite_ix.cap)
        index_make(c, &c->cite_ix, c->clauses.len, cite_at); /* the tests come after every clause */
    return index_find(&c->cite_ix, cite) >= 0;
}

static void compile_given(compiler *c, rs_test *t, const ast_given *g) {
    if (strcmp(g->name, "auction") == 0 && g->value->kind == AE_STRING) {
        bridge_auction au;
        char err[200];
        if (!bridge_parse_auction(g->value->text, &au, err, sizeof err))
            ERR(c->d, g->value->loc, "write e.g. given auction \"N: 1S 1H\"", "%s", err);
        t->auction = keep_str(c, g->value->text);
        return;
    }
    int f = find_fact(c, g->name);
    if (f < 0) {
        name_expr(c, &(ast_expr){.loc = g->loc, .kind = AE_NAME, .text = g->name}, NULL);
        return;
    }
    if (c->rs->facts[f].derived >= 0) {
        ERR(c->d, g->loc, "give the facts it is derived from", "'%s' is derived, not given", g->name);
        return;
    }
    int x = compile_expr(c, g->value, c->rs->facts[f].type);
    if (!is_constant(c, x)) {
        ERR(c->d, g->value->loc, NULL, "a test gives values, not expressions");
        return;
    }
    t->given_fact[t->ngiven] = f;
    t->given_value[t->ngiven++] = constant_value(c, x);
}

static void compile_expect(compiler *c, rs_expect *x, const ast_expect *e) {
    x->loc = e->loc;
    x->negated = e->negated;
    x->kind = (enum expect_kind)e->kind;
    switch (e->kind) {
    case AX_CITE:
        x->cite = keep_str(c, e->name);
        if (!cite_known(c, e->name)) ERR(c->d, e->loc, NULL, "no clause or article cites %s", e->name);
        break;
    case AX_ACTION: {
        ast_item it = {.loc = e->loc, .kind = AI_ACTION, .name = e->name, .args = e->args};
        x->action = find_action(c, e->name);
        if (x->action < 0 || !e->has_args) {
            if (x->action < 0) action_use(c, &it, -1);
            break;
        }
        const rs_action *a = &c->rs->actions[x->action];
        if (e->args.n != a->nparams) {
            ERR(c->d, e->loc, NULL, "action '%s' takes %d argument%s", a->name, a->nparams, a->nparams == 1 ? "" : "s");
            break;
        }
        x->has_args = true;
        x->args = arena_alloc(c->keep, sizeof(int64_t) * (size_t)(a->nparams + 1));
        for (int i = 0; i < a->nparams; i++) {
            int v = compile_expr(c, e->args.items[i], a->params[i].type);
            if (!is_constant(c, v)) ERR(c->d, X(c, v)->loc, NULL, "an expected argument is a value");
            x->args[i] = is_constant(c, v) ? constant_value(c, v) : 0;
        }
        break;
    }
    case AX_TRAIL:
        x->ntrail = e->args.n;
        x->trail = arena_alloc(c->keep, sizeof(char *) * (size_t)(e->args.n + 1));
        for (int i = 0; i < e->args.n; i++) {
            x->trail[i] = keep_str(c, ((ast_expr *)e->args.items[i])->text);
            if (!cite_known(c, x->trail[i]))
                ERR(c->d, ((ast_expr *)e->args.items[i])->loc, NULL, "no clause or article cites %s", x->trail[i]);
        }
        break;
    case AX_ASKS:
        x->fact = find_fact(c, e->name);
        if (x->fact < 0) name_expr(c, &(ast_expr){.loc = e->loc, .kind = AE_NAME, .text = e->name}, NULL);
        break;
    case AX_REJECTED:
    case AX_OUTSIDE: break;
    }
}

static void compile_tests(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) n += ((ast_decl *)c->decls.items[i])->kind == AD_TEST;
    c->rs->tests = arena_alloc(c->keep, sizeof(rs_test) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TEST) continue;
        rs_test *t = &c->rs->tests[c->rs->ntests++];
        t->name = keep_str(c, d->name);
        t->loc = d->loc;
        t->article = d->title ? find_article(c, d->title, d->from_loc) : -1;
        t->given_fact = arena_alloc(c->keep, sizeof(int) * (size_t)(d->givens.n + 1));
        t->given_value = arena_alloc(c->keep, sizeof(int64_t) * (size_t)(d->givens.n + 1));
        for (int j = 0; j < d->givens.n; j++) compile_given(c, t, d->givens.items[j]);
        t->expect = arena_alloc(c->keep, sizeof(rs_expect) * (size_t)(d->expects.n + 1));
        t->nexpect = d->expects.n;
        for (int j = 0; j < d->expects.n; j++) compile_expect(c, &t->expect[j], d->expects.items[j]);
        if (d->expects.n == 0) ERR(c->d, d->loc, "add: expect CITATION, action, …", "test '%s' expects nothing", d->name);
    }
}

/* ---- driver ---------------------------------------------------------------------- */

static void make_graph(compiler *c) {
    int n = c->rs->nvars;
    int *domain = malloc(sizeof(int) * (size_t)(n + 1));
    int64_t *lo = malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!domain || !lo) abort();
    for (int v = 0; v < n; v++) {
        const rs_type *t = c->rs->facts[c->rs->var_fact[v]].type;
        domain[v] = rs_decision_values(t);
        lo[v] = t->kind == TY_INT ? t->lo : 0;
    }
    c->rs->graph = graph_new(n, domain, lo);
    free(domain);
    free(lo);
    c->t_true = graph_term_ref(c->rs->graph, TERM_VALUE, 1);
    c->t_false = graph_term_ref(c->rs->graph, TERM_VALUE, 0);
    c->fact_graph = arena_alloc(c->a, sizeof(gref) * (size_t)(c->rs->nfacts + 1));
    c->fact_span = arena_alloc(c->a, sizeof(value_span) * (size_t)(c->rs->nfacts + 1));
    c->fact_tree = arena_alloc(c->a, sizeof(double) * (size_t)(c->rs->nfacts + 1));
    c->t_empty = outcome_ref(c, 0);
}

/* What the ruleset keeps of the compiler's tables, copied into its arena. */
static void finish(compiler *c) {
    rs_type **types = arena_alloc(c->keep, sizeof *types * (size_t)(c->rs->ntypes + 1));
    if (c->rs->ntypes) memcpy(types, c->rs->types, sizeof *types * (size_t)c->rs->ntypes);
    c->rs->types = types;
    c->rs->nclauses = c->clauses.len;
    c->rs->clauses = arena_alloc(c->keep, sizeof(rs_clause) * (size_t)(c->clauses.len + 1));
    if (c->clauses.len) memcpy(c->rs->clauses, c->clauses.data, sizeof(rs_clause) * (size_t)c->clauses.len);
    c->rs->nblocks = c->blocks.len;
    c->rs->blocks = arena_alloc(c->keep, sizeof(rs_block) * (size_t)(c->blocks.len + 1));
    if (c->blocks.len) memcpy(c->rs->blocks, c->blocks.data, sizeof(rs_block) * (size_t)c->blocks.len);
    c->rs->nfiles = c->files.n;
    c->rs->files = arena_alloc(c->keep, sizeof(char *) * (size_t)(c->files.n + 1));
    for (int i = 0; i < c->files.n; i++) c->rs->files[i] = ((ast_file *)c->files.items[i])->path;
}

/* Building leaves intermediate nodes behind; only what the roots reach is
 * kept, so a loaded ruleset holds its decisions and nothing else. */
static void keep_reachable(ruleset *rs) {
    int n = 3 + rs->narticles;
    gref **roots = malloc(sizeof(gref *) * (size_t)n);
    if (!roots) abort();
    roots[0] = &rs->root;
    roots[1] = &rs->checked_root;
    roots[2] = &rs->invariant_root;
    for (int i = 0; i < rs->narticles; i++) roots[3 + i] = &rs->articles[i].root;
    graph_compact(rs->graph, (gref *const *)roots, n);
    free(roots);
}

/* The rulings the kept graph reaches become the ruleset's outcome table,
 * numbered in the order the graph names them, their arrays in one block of
 * the ruleset's arena. */
static void flatten_outcomes(compiler *c) {
    ruleset *rs = c->rs;
    int64_t *old = malloc(sizeof(int64_t) * (size_t)(rs->graph->nterms + 1));
    if (!old) abort();
    int n = graph_renumber_kind(rs->graph, TERM_OUTCOME, old);
    size_t items = 0;
    for (int i = 0; i < n; i++)
        items += (size_t)list_len(c, c->outs.pairs[old[i]][0]) +
                 (size_t)list_len(c, c->outs.pairs[old[i]][1]);
    int *pool = arena_alloc(rs->arena, sizeof(int) * (items + 1));
    for (int i = 0; i < n; i++) {
        rs_outcome *o = vec_push(&rs->outcomes);
        int32_t trail = c->outs.pairs[old[i]][0], acts = c->outs.pairs[old[i]][1];
        o->ntrail = list_len(c, trail);
        o->trail = pool;
        list_items(c, trail, pool);
        pool += o->ntrail;
        o->nactions = list_len(c, acts);
        o->actions = pool;
        list_items(c, acts, pool);
        pool += o->nactions;
    }
    free(old);
}

/* ---- what the compiled ruleset evaluates ------------------------------------
 * Expressions are compiled for everything that names a value: derived
 * facts, invariants and action arguments, which a ruling evaluates, but also
 * conditions, patterns, table rows and test values, which compiling has
 * turned into graphs and tables. Only the first kind is kept, renumbered in
 * their old order. */

static void mark_expr(const ruleset *rs, int e, int *map) {
    if (e < 0 || map[e] >= 0) return;
    map[e] = 0;
    const rs_expr *x = rs_expr_at(rs, e);
    if (x->kind == EX_CONST || x->kind == EX_FACT) return;
    if (x->kind != EX_TABLE) mark_expr(rs, x->a, map); /* a table's a is the table */
    mark_expr(rs, x->b, map);
    for (int i = 0; i < x->nargs; i++)
        mark_expr(rs, rs_arg(rs, x->args + i), map);
}

static int use_nargs(const ruleset *rs, const rs_action_use *u) {
    int n = rs->actions[u->action].nparams;
    return n < rs->expr_args.len - u->args ? n : rs->expr_args.len - u->args;
}

/* Appends the renumbered expression ids args[0..n) to out; returns where. */
static int copy_args(const ruleset *rs, int args, int n, const int *map, vec *out) {
    int at = out->len;
    for (int i = 0; i < n; i++)
        *(int *)vec_push(out) = map[rs_arg(rs, args + i)];
    return at;
}

static void keep_evaluated_exprs(ruleset *rs) {
    int n = rs->exprs.len;
    int *map = malloc(sizeof(int) * (size_t)(n + 1));
    if (!map) abort();
    for (int e = 0; e < n; e++)
        map[e] = -1;
    for (int f = 0; f < rs->nfacts; f++)
        mark_expr(rs, rs->facts[f].derived, map);
    for (int i = 0; i < rs->ninvariants; i++)
        mark_expr(rs, rs->invariants[i].expr, map);
    for (int u = 0; u < rs->uses.len; u++) {
        const rs_action_use *use = rs_use_at(rs, u);
        for (int i = 0; i < use_nargs(rs, use); i++)
            mark_expr(rs, rs_arg(rs, use->args + i), map);
    }
    int kept = 0;
    for (int e = 0; e < n; e++)
        if (map[e] >= 0) map[e] = kept++;
    vec exprs, args;
    vec_init(&exprs, sizeof(rs_expr));
    vec_init(&args, sizeof(int));
    for (int e = 0; e < n; e++) {
        if (map[e] < 0) continue;
        rs_expr *x = vec_push(&exprs);
        *x = *rs_expr_at(rs, e);
        if (x->kind != EX_CONST && x->kind != EX_FACT && x->kind != EX_TABLE && x->a >= 0)
            x->a = map[x->a];
        if (x->kind != EX_CONST && x->kind != EX_FACT && x->b >= 0) x->b = map[x->b];
        if (x->nargs) x->args = copy_args(rs, x->args, x->nargs, map, &args);
    }
    for (int f = 0; f < rs->nfacts; f++)
        if (rs->facts[f].derived >= 0) rs->facts[f].derived = map[rs->facts[f].derived];
    for (int i = 0; i < rs->ninvariants; i++)
        rs->invariants[i].expr = map[rs->invariants[i].expr];
    for (int u = 0; u < rs->uses.len; u++) {
        rs_action_use *use = &VEC_AT(&rs->uses, rs_action_use, u);
        use->args = copy_args(rs, use->args, use_nargs(rs, use), map, &args);
    }
    vec_free(&rs->exprs);
    vec_free(&rs->expr_args);
    rs->exprs = exprs;
    rs->expr_args = args;
    free(map);
}

/* The ruleset's vectors are done growing: each keeps only what it holds. */
static void shrink_vectors(ruleset *rs) {
    vec_shrink(&rs->exprs);
    vec_shrink(&rs->expr_args);
    vec_shrink(&rs->strings);
    vec_shrink(&rs->uses);
    vec_shrink(&rs->outcomes);
}

ruleset *dsl_compile(const char *path, diag *d) {
    return dsl_compile_amended(path, NULL, 0, d);
}

ruleset *dsl_compile_amended(const char *path, const char *const *amendments, int namendments, diag *d) {
    arena *a = arena_new();
    ruleset *rs = arena_alloc(a, sizeof *rs);
    rs->arena = a;
    rs->dir = arena_strdup(a, path);
    rs->hash = FNV1A64_INIT;
    vec_init(&rs->exprs, sizeof(rs_expr));
    vec_init(&rs->expr_args, sizeof(int));
    vec_init(&rs->strings, sizeof(const char *));
    vec_init(&rs->uses, sizeof(rs_action_use));
    vec_init(&rs->outcomes, sizeof(rs_outcome));
    compiler c = {.a = arena_new(), .keep = a, .d = d, .rs = rs};
    vec_init(&c.clauses, sizeof(rs_clause));
    vec_init(&c.blocks, sizeof(rs_block));
    pair_intern(&c.outs, 0, 0); /* outcome 0: the empty ruling */
    int before = diag_errors(d);
    c.errors_before = before;
    load_path(&c, path, no_loc(path), 0);
    for (int i = 0; i < namendments && diag_errors(d) == before; i++) apply_amendment(&c, amendments[i]);
    if (diag_errors(d) == before) check_totals(&c);
    if (diag_errors(d) == before) { /* after syntax errors the rest would only echo them */
        declare_header(&c);
        declare_types(&c);
        declare_facts(&c);
        declare_actions(&c);
        declare_tables(&c);
        check_klaverjas_vocabulary(&c);
        make_graph(&c);
        declare_derived(&c);
        declare_defaults(&c);
        declare_invariants(&c);
        declare_articles(&c);
        resolve_scoring_articles(&c);
        compile_articles(&c);
        compile_tests(&c);
        finish(&c);
    }
    if (rs->graph && diag_errors(d) == before) {
        keep_reachable(rs);
        flatten_outcomes(&c);
        keep_evaluated_exprs(rs);
        shrink_vectors(rs);
    }
    pair_free(&c.cells);
    pair_free(&c.outs);
    free(c.strings.slots);
    arena_free(c.a); /* the syntax trees and the compiler's tables */
    if (rs->graph) graph_done_building(rs->graph);
    vec_free(&c.clauses);
    vec_free(&c.blocks);
    if (diag_errors(d) != before) {
        ruleset_free(rs);
        return NULL;
    }
    return rs;
}
