/* compile_articles.c — articles: outcomes (trails and actions as interned
 * lists), each article's clauses to a decision graph (`apply` inlined, the
 * citations besides the clauses' own), and the root of the whole ruleset. */
#include "compile_internal.h"

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
    xfree(t->slots);
    t->slots = xmalloc(sizeof(int32_t) * (size_t)cap);
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

int pair_intern(pair_table *t, int32_t x, int32_t y) {
    if (2 * (t->n + 1) > t->capslots) pair_rehash(t);
    uint64_t mask = (uint64_t)t->capslots - 1;
    uint64_t h = pair_hash(x, y) & mask;
    for (; t->slots[h] >= 0; h = (h + 1) & mask)
        if (t->pairs[t->slots[h]][0] == x && t->pairs[t->slots[h]][1] == y) return t->slots[h];
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->pairs = xrealloc(t->pairs, sizeof *t->pairs * (size_t)t->cap);
    }
    t->pairs[t->n][0] = x;
    t->pairs[t->n][1] = y;
    t->slots[h] = t->n;
    return t->n++;
}

void pair_free(pair_table *t) {
    xfree(t->pairs);
    xfree(t->slots);
}

/* Lists: 0 is the empty list, cell i is list i + 1. */
static int32_t list_add(compiler *c, int32_t list, int item) {
    return 1 + pair_intern(&c->cells, list, item);
}

int list_len(const compiler *c, int32_t list) {
    int n = 0;
    for (; list; list = c->cells.pairs[list - 1][0])
        n++;
    return n;
}

/* The items of a list, in order, into out (list_len of them). */
void list_items(const compiler *c, int32_t list, int *out) {
    for (int i = list_len(c, list); list; list = c->cells.pairs[list - 1][0])
        out[--i] = c->cells.pairs[list - 1][1];
}

static int32_t list_append(compiler *c, int32_t x, int32_t y) {
    if (!y) return x;
    int n = list_len(c, y), stack[64];
    int *items = n <= 64 ? stack : xmalloc(sizeof(int) * (size_t)n);
    list_items(c, y, items);
    for (int i = 0; i < n; i++)
        x = list_add(c, x, items[i]);
    if (items != stack) xfree(items);
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

gref outcome_ref(compiler *c, int o) {
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
    cl->cond = RS_NO_COND;
    cl->earlier = -1;
    return c->clauses.len - 1;
}

/* ---- articles ---------------------------------------------------------------- */

int action_use(compiler *c, const ast_item *it, int clause) {
    int a = find_action(c, it->name);
    if (a < 0 && report_removed(c, AD_ACTION, it->name, it->loc)) return -1;
    if (a < 0) {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->nactions + 1));
        for (int i = 0; i < c->rs->nactions; i++)
            names[i] = c->rs->actions[i].name;
        ERR(c->d, it->loc, nearest(c, it->name, names, c->rs->nactions), "unknown action '%s'",
            it->name);
        return -1;
    }
    const rs_action *act = &c->rs->actions[a];
    if (it->args.n != act->nparams) {
        ERR(c->d, it->loc, NULL, "action '%s' takes %d argument%s, given %d", act->name,
            act->nparams, act->nparams == 1 ? "" : "s", it->args.n);
        return -1;
    }
    int ids[16], n = act->nparams < 16 ? act->nparams : 16;
    for (int i = 0; i < n; i++)
        ids[i] = compile_expr(c, it->args.items[i], act->params[i].type);
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
    int last; /* the block's last clause so far + 1, 0 before the first */
} reach_set;

static gref compile_block(compiler *c, const ast_block *b, const reach_set *reach, int clause,
                          int art, int prefix);
static gref article_full(compiler *c, int art, src_loc from);

int find_article(compiler *c, const char *id, src_loc at) {
    int i = rs_find_article(c->rs, id);
    if (i < 0 && !report_removed(c, AD_ARTICLE, id, at)) {
        const char **names = arena_alloc(c->a, sizeof(char *) * (size_t)(c->rs->narticles + 1));
        for (int j = 0; j < c->rs->narticles; j++)
            names[j] = c->rs->articles[j].id;
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
            "more than %d citations on one step of a trail",
            (int)(sizeof l->items / sizeof *l->items));
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
        for (int i = 0; i < d->cites.n; i++)
            cite_add(c, out, d->cites.items[i]);
        return;
    }
    fact_cites(c, e->a, out, seen);
    fact_cites(c, e->b, out, seen);
    for (int i = 0; i < e->args.n; i++)
        fact_cites(c, e->args.items[i], out, seen);
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
            ERR(c->d, p->loc, "a pattern is a value, a range lo..hi or _",
                "pattern is not a constant");
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
    reach_set taken = {reach->base, and_graph(c, reach->conds, cond), 0};
    if (diag_errors(c->d) - c->proof_errors == c->errors_before &&
        graph_and_is_false(c->rs->graph, taken.base, taken.conds)) {
        ERR(c->d, at,
            "an earlier clause, the article's `when` or an invariant already covers every such "
            "situation",
            "this clause can never apply");
        c->proof_errors++;
    }
    decision *d = vec_push(ds);
    d->cond = cond;
    int id = c->clauses.len; /* compile_clause makes the clause first */
    d->body = cl ? compile_clause(c, cl, &taken, art, prefix, reads) : outcome_ref(c, prefix);
    if (cl) { /* what core/tools/overlap.c reads */
        VEC_AT(&c->clauses, rs_clause, id).cond = cond == c->t_true ? RS_NO_COND : cond;
        VEC_AT(&c->clauses, rs_clause, id).earlier = reach->last - 1;
        reach->last = id + 1;
    }
    reach->conds = and_graph(c, reach->conds, not_graph(c, cond));
}

static void match_decisions(compiler *c, vec *ds, reach_set *reach, const ast_item *it, int art,
                            int prefix) {
    int x = compile_expr(c, it->cond, NULL);
    const rs_type *t = expr_at(c, x)->type;
    gref subject = expr_graph(c, x); /* says why if it reads a fact no decision can test */
    for (int i = 0; i < it->arms.n; i++) {
        ast_arm *arm = it->arms.items[i];
        gref cond = c->t_false;
        for (int j = 0; j < arm->patterns.n; j++)
            cond = graph_ite(c->rs->graph, pattern_cond(c, arm->patterns.items[j], subject, t),
                             c->t_true, cond);
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
        for (int j = 0; it->kind == AI_CITE && j < it->args.n; j++)
            cite_add(c, &cites, it->args.items[j]);
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
            add_decision(c, &ds, &reach, cond_graph(c, it->cond), it->clause, it->loc, art, here,
                         it->cond);
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
        ERR(c->d, from,
            "an article may not hand a situation back to itself, directly or through others",
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
    reach_set reach = {and_graph(c, c->when[art], c->invariants), c->t_true, 0};
    if (reach.base == c->t_false && diag_errors(c->d) - c->proof_errors == c->errors_before) {
        ERR(c->d, d->loc, "check the `when` against the invariants", "article %s can never apply",
            a->id);
        c->proof_errors++;
    }
    int entered =
        extend_reading(c, outcome_extend(c, 0, &a->entry_clause, 1, NULL, 0), d->expr, art, -1);
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
void check_totals(compiler *c) {
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

void declare_articles(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_ARTICLE;
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
        a->title_en = d->text_en ? keep_str(c, d->text_en) : NULL;
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
    static const char *const ranks[] = {"seven", "eight", "nine", "ten",
                                        "jack",  "queen", "king", "ace"};
    enum { NRANKS = sizeof ranks / sizeof *ranks };
    const rs_type *rank = builtin_type(c, "rank");
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind == AD_TYPE && strcmp(d->name, "rank") == 0) *at = d->loc;
    }
    const char *hint =
        "declare: type rank = enum { seven, eight, nine, ten, jack, queen, king, ace }";
    if (!rank) {
        ERR(c->d, *at, hint, "a klaverjas ruleset declares the type 'rank'");
        return NULL;
    }
    bool same = rank->kind == TY_ENUM && rank->nvalues == NRANKS;
    for (int i = 0; same && i < NRANKS; i++)
        same = strcmp(rank->values[i], ranks[i]) == 0;
    if (!same)
        ERR(c->d, *at, hint,
            "the type 'rank' of a klaverjas ruleset has exactly the values seven … ace, in that "
            "order");
    return same ? rank : NULL;
}

void check_klaverjas_vocabulary(compiler *c) {
    for (int k = 0; k < KJT_COUNT; k++)
        c->rs->klaverjas_tables[k] = -1;
    if (c->rs->game == NULL || strcmp(c->rs->game, "klaverjas") != 0)
        return; /* NULL: no header, reported */
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
            ERR(c->d, tb->loc, hint,
                "table '%s' of a klaverjas ruleset has one key of type rank and int values", name);
            continue;
        }
        c->rs->klaverjas_tables[k] = t;
    }
}

/* The header names the articles that score, matchpoint and give IMPs, and
 * in klaverjas the ones that rule on one card and on one trick. */
static const char *const scoring_keys[] = {"score", "matchpoints", "imps",    "legal",
                                           "trick", "adjusted",    "ranking", "total"};

bool is_scoring_key(const char *name) {
    for (size_t k = 0; k < sizeof scoring_keys / sizeof *scoring_keys; k++)
        if (strcmp(name, scoring_keys[k]) == 0) return true;
    return false;
}

void resolve_scoring_articles(compiler *c) {
    const char *const *keys = scoring_keys;
    int *slots[] = {&c->rs->score_article,   &c->rs->matchpoints_article, &c->rs->imps_article,
                    &c->rs->legal_article,   &c->rs->trick_article,       &c->rs->adjusted_article,
                    &c->rs->ranking_article, &c->rs->total_article};
    enum { NKEYS = sizeof scoring_keys / sizeof *scoring_keys };
    for (int k = 0; k < NKEYS; k++)
        *slots[k] = -1;
    for (int i = 0; c->header && i < c->header->params.n; i++) {
        ast_given *g = c->header->params.items[i];
        for (int k = 0; k < NKEYS; k++)
            if (strcmp(g->name, keys[k]) == 0)
                *slots[k] = find_article(c, g->value->text, g->value->loc);
    }
    for (int k = 0; k < NKEYS; k++)
        if (*slots[k] >= 0) c->applied[*slots[k]] = 1; /* ruled on by its command */
}

/* Declared scope: where an `outside` condition holds, the ruling says that
 * this ruleset does not rule on it, and why; the checker counts that as
 * covered. The first declaration that holds gives the reason. */
static gref with_scope(compiler *c, gref g) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_OUTSIDE;
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

/* `combine A B`: two articles whose rulings may be joined on one situation,
 * which the checker then does not warn of (core/tools/overlap.h). */
static void declare_combines(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_COMBINE;
    c->rs->combines = arena_alloc(c->keep, sizeof(rs_combine) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_COMBINE) continue;
        int a = find_article(c, d->name, d->loc), b = find_article(c, d->title, d->from_loc);
        if (a >= 0 && a == b)
            ERR(c->d, d->from_loc, "name two different articles",
                "article %s cannot combine with itself", d->name);
        if (a < 0 || b < 0 || a == b) continue;
        c->rs->combines[c->rs->ncombines++] = (rs_combine){a, b, d->loc};
    }
}

void compile_articles(compiler *c) {
    graph *g = c->rs->graph;
    declare_combines(c);
    gref na = graph_term_ref(g, TERM_NOT_APPLICABLE, 0);
    for (int i = 0; i < c->rs->narticles; i++) {
        gref full = article_full(c, i, c->rs->articles[i].loc);
        c->rs->articles[i].root =
            graph_restrict(g, graph_ite(g, c->when[i], full, na), c->invariants);
        if (!graph_within_budget(c, c->rs->articles[i].loc)) return;
    }
    for (int i = 0; i < c->rs->narticles; i++)
        if (!c->rs->articles[i].has_when && !c->applied[i])
            diag_report(c->d, DIAG_WARNING, c->rs->articles[i].loc,
                        "give it a `when`, or `apply` it from another article",
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
