/* compile.c — from syntax trees to a compiled ruleset.
 *
 * Passes, in order (later passes rely on the tables earlier ones fill):
 *   load     read the files of the ruleset and what they include
 *   declare  header, types, facts, actions, tables
 *   derive   derived facts and invariants (expressions over facts)
 *   articles each article to a decision graph; `apply` inlines the target
 *   root     the whole ruleset: every applicable article, in file order
 *   tests    the test blocks, checked against the names they use
 *
 * One file a concern, sharing compile_internal.h: load (compile_load.c),
 * amendments (compile_amend.c), types (compile_types.c), expressions and
 * their graphs (compile_expr.c), declarations (compile_decl.c), articles
 * and outcomes (compile_articles.c), tests (compile_tests.c); here, the
 * names and the strings the ruleset keeps, and the driver.
 */
#include "compile_internal.h"

/* A hash of a string for the compiler's own tables (never stored: the
 * ruleset's hash is fnv1a64's), eight bytes a step. */
static uint64_t str_hash(const char *s, size_t len) {
    uint64_t h = HASH_INIT;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, sizeof w);
        h = hash_step(h, w);
    }
    uint64_t w = 0;
    memcpy(&w, s + i, len - i);
    return hash_step(h, w ^ (uint64_t)len);
}

/* The slot of s in the pool, a copy made in the ruleset's arena the first
 * time (each distinct string once). */
static int keep_slot(compiler *c, const char *s) {
    string_pool *p = &c->strings;
    if (2 * (p->n + 1) > p->capslots) {
        int cap = p->capslots ? p->capslots * 2 : 1024;
        const char **slots = xcalloc((size_t)cap, sizeof *slots + sizeof(int));
        int *ids = (int *)(slots + cap);
        for (int i = 0; i < p->capslots; i++) {
            if (!p->slots[i]) continue;
            uint64_t h = str_hash(p->slots[i], strlen(p->slots[i])) & (uint64_t)(cap - 1);
            while (slots[h])
                h = (h + 1) & (uint64_t)(cap - 1);
            slots[h] = p->slots[i];
            ids[h] = p->ids[i];
        }
        xfree(p->slots);
        p->slots = slots;
        p->ids = ids;
        p->capslots = cap;
    }
    size_t len = strlen(s);
    uint64_t mask = (uint64_t)p->capslots - 1, h = str_hash(s, len) & mask;
    for (; p->slots[h]; h = (h + 1) & mask)
        if (strcmp(p->slots[h], s) == 0) return (int)h;
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
    p->slots[h] = copy;
    return (int)h;
}

/* A copy of s in the ruleset's arena (NULL stays NULL): every text a
 * ruleset keeps from the syntax trees goes through here. */
const char *keep_str(compiler *c, const char *s) {
    if (!s) return NULL;
    int slot = keep_slot(c, s); /* first: it may move the slots */
    return c->strings.slots[slot];
}

/* The number of string constant s in rs->strings, added the first time. */
int string_number(compiler *c, const char *s) {
    string_pool *p = &c->strings;
    int slot = keep_slot(c, s);
    if (!p->ids[slot]) {
        *(const char **)vec_push(&c->rs->strings) = p->slots[slot];
        p->ids[slot] = c->rs->strings.len; /* the number + 1: 0 is none yet */
    }
    return p->ids[slot] - 1;
}

static uint64_t name_hash(const char *s) {
    return str_hash(s, strlen(s));
}

/* An index with room for n names, empty; index_add fills it. */
void index_init(compiler *c, name_index *ix, int n) {
    ix->cap = 16;
    while (ix->cap < 2 * n + 2)
        ix->cap *= 2;
    ix->names = arena_alloc(c->a, sizeof *ix->names * (size_t)ix->cap);
    ix->ids = arena_alloc(c->a, sizeof *ix->ids * (size_t)ix->cap);
}

/* Adds name as number id, unless it is there already (a name given twice
 * keeps its first number, as a search from the start would). At most the
 * n of index_init. */
void index_add(name_index *ix, const char *name, int id) {
    uint64_t mask = (uint64_t)ix->cap - 1;
    uint64_t h = name_hash(name) & mask;
    while (ix->names[h] && strcmp(ix->names[h], name) != 0)
        h = (h + 1) & mask;
    if (ix->names[h]) return;
    ix->names[h] = name;
    ix->ids[h] = id;
}

/* An index of n names (names[i] may be NULL: not indexed). */
void index_make(compiler *c, name_index *ix, int n, const char *(*name_at)(compiler *, int)) {
    index_init(c, ix, n);
    for (int i = 0; i < n; i++) {
        const char *name = name_at(c, i);
        if (name) index_add(ix, name, i);
    }
}

int index_find(const name_index *ix, const char *name) {
    uint64_t mask = (uint64_t)ix->cap - 1;
    for (uint64_t h = name_hash(name) & mask; ix->names[h]; h = (h + 1) & mask)
        if (strcmp(ix->names[h], name) == 0) return ix->ids[h];
    return -1;
}

const char *cite_at(compiler *c, int i) {
    return VEC_AT(&c->clauses, rs_clause, i).cite;
}

int find_fact(compiler *c, const char *name) {
    return c->fact_ix.cap ? index_find(&c->fact_ix, name) : rs_find_fact(c->rs, name);
}
int find_action(compiler *c, const char *name) {
    return c->action_ix.cap ? index_find(&c->action_ix, name) : rs_find_action(c->rs, name);
}

src_loc no_loc(const char *file) {
    src_loc l = {file, 0, 0};
    return l;
}

/* Suggest the nearest name from a list, for "did you mean" hints. */
const char *nearest(compiler *c, const char *name, const char **names, int n) {
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

/* ---- driver ---------------------------------------------------------------------- */

static void make_graph(compiler *c) {
    int n = c->rs->nvars;
    int *domain = xmalloc(sizeof(int) * (size_t)(n + 1));
    int64_t *lo = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int v = 0; v < n; v++) {
        const rs_type *t = c->rs->facts[c->rs->var_fact[v]].type;
        domain[v] = rs_decision_values(t);
        lo[v] = t->kind == TY_INT ? t->lo : 0;
    }
    c->rs->graph = graph_new(n, domain, lo);
    xfree(domain);
    xfree(lo);
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
    if (c->clauses.len)
        memcpy(c->rs->clauses, c->clauses.data, sizeof(rs_clause) * (size_t)c->clauses.len);
    c->rs->nblocks = c->blocks.len;
    c->rs->blocks = arena_alloc(c->keep, sizeof(rs_block) * (size_t)(c->blocks.len + 1));
    if (c->blocks.len)
        memcpy(c->rs->blocks, c->blocks.data, sizeof(rs_block) * (size_t)c->blocks.len);
    c->rs->nfiles = c->files.n;
    c->rs->files = arena_alloc(c->keep, sizeof(char *) * (size_t)(c->files.n + 1));
    for (int i = 0; i < c->files.n; i++)
        c->rs->files[i] = ((ast_file *)c->files.items[i])->path;
}

/* Building leaves intermediate nodes behind; only what the roots reach is
 * kept, so a loaded ruleset holds its decisions and nothing else. */
static void keep_reachable(ruleset *rs) {
    int n = 3 + rs->narticles;
    gref **roots = xmalloc(sizeof(gref *) * (size_t)(n + rs->nclauses));
    roots[0] = &rs->root;
    roots[1] = &rs->checked_root;
    roots[2] = &rs->invariant_root;
    for (int i = 0; i < rs->narticles; i++)
        roots[3 + i] = &rs->articles[i].root;
    for (int i = 0; i < rs->nclauses; i++)
        if (rs->clauses[i].cond != RS_NO_COND) roots[n++] = &rs->clauses[i].cond;
    graph_compact(rs->graph, (gref *const *)roots, n);
    xfree(roots);
}

/* A trail names a citation once, whatever brings it there again (an
 * applied article, a block's `cite` beside a clause of the same label, two
 * articles' rulings joined): a clause whose citation is on the trail
 * already is dropped, but for one that follows a clause citing the same
 * (an article's entry and a clause citing the article's number are one
 * step, as the trail shows them). Returns how many are kept. */
static int drop_repeated_cites(const ruleset *rs, int *trail, int n) {
    int kept = 0;
    const char *last = NULL;
    /* a clause's citation is kept once (keep_str): the same text is the
     * same pointer */
    for (int i = 0; i < n; i++) {
        const char *cite = rs->clauses[trail[i]].cite;
        bool again = false;
        if (cite && last != cite)
            for (int j = 0; j < kept && !again; j++)
                again = rs->clauses[trail[j]].cite == cite;
        if (again) continue;
        trail[kept++] = trail[i];
        if (cite) last = cite;
    }
    return kept;
}

/* Whether two action uses state the same measure: one use, or the same
 * action with the same constant arguments (two clauses that each leave
 * 12a's artificial score open). */
static bool same_measure(const ruleset *rs, int a, int b) {
    if (a == b) return true;
    const rs_action_use *ua = rs_use_at(rs, a), *ub = rs_use_at(rs, b);
    if (ua->action != ub->action) return false;
    for (int p = 0; p < rs->actions[ua->action].nparams; p++) {
        int xa = rs_arg(rs, ua->args + p), xb = rs_arg(rs, ub->args + p);
        const rs_expr *ea = rs_expr_at(rs, xa), *eb = rs_expr_at(rs, xb);
        if (xa != xb && !(ea->kind == EX_CONST && eb->kind == EX_CONST && ea->k == eb->k))
            return false;
    }
    return true;
}

/* And a ruling states a measure once: an action a clause gives, come back
 * with its clause or given by another clause with the same arguments, is
 * dropped the second time (its citation is, above). Returns how many are
 * kept. */
static int drop_repeated_uses(const ruleset *rs, int *actions, int n) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
        bool again = false;
        for (int j = 0; j < kept && !again; j++)
            again = same_measure(rs, actions[j], actions[i]);
        if (!again) actions[kept++] = actions[i];
    }
    return kept;
}

/* The rulings the kept graph reaches become the ruleset's outcome table,
 * numbered in the order the graph names them, their arrays in one block of
 * the ruleset's arena. */
static void flatten_outcomes(compiler *c) {
    ruleset *rs = c->rs;
    int64_t *old = xmalloc(sizeof(int64_t) * (size_t)(rs->graph->nterms + 1));
    int n = graph_renumber_kind(rs->graph, TERM_OUTCOME, old);
    size_t items = 0;
    for (int i = 0; i < n; i++)
        items += (size_t)list_len(c, c->outs.pairs[old[i]][0]) +
                 (size_t)list_len(c, c->outs.pairs[old[i]][1]);
    int *pool = arena_alloc(rs->arena, sizeof(int) * (items + 1));
    for (int i = 0; i < n; i++) {
        rs_outcome *o = vec_push(&rs->outcomes);
        int32_t trail = c->outs.pairs[old[i]][0], acts = c->outs.pairs[old[i]][1];
        list_items(c, trail, pool);
        o->ntrail = drop_repeated_cites(rs, pool, list_len(c, trail));
        o->trail = pool;
        pool += o->ntrail;
        list_items(c, acts, pool);
        o->nactions = drop_repeated_uses(rs, pool, list_len(c, acts));
        o->actions = pool;
        pool += o->nactions;
    }
    xfree(old);
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
    int *map = xmalloc(sizeof(int) * (size_t)(n + 1));
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
    xfree(map);
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

ruleset *dsl_compile_amended(const char *path, const char *const *amendments, int namendments,
                             diag *d) {
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
    for (int i = 0; i < namendments && diag_errors(d) == before; i++)
        apply_amendment(&c, amendments[i]);
    if (diag_errors(d) == before) check_totals(&c);
    if (diag_errors(d) == before) { /* after syntax errors the rest would only echo them */
        declare_header(&c);
        declare_types(&c);
        declare_facts(&c);
        declare_actions(&c);
        declare_tables(&c);
        check_klaverjas_vocabulary(&c);
        declare_derived(&c);
        declare_computed(&c);
        make_graph(&c);
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
    xfree(c.strings.slots); /* and the ids after them */
    arena_free(c.a);        /* the syntax trees and the compiler's tables */
    if (rs->graph) graph_done_building(rs->graph);
    vec_free(&c.clauses);
    vec_free(&c.blocks);
    if (diag_errors(d) != before) {
        ruleset_free(rs);
        return NULL;
    }
    rs_index(rs);
    return rs;
}
