/* diff.c — the joint walk of two rulesets' decision graphs. */
#include "diff.h"

#include "builtins.h"
#include "expr.h"
#include "ops.h"

#include <stdlib.h>
#include <string.h>

/* A value a ruleset does not have (an enum value only the other lists). */
#define GREF_ABSENT INT32_MIN

/* ---- joining the facts ----------------------------------------------------- */

static int64_t type_lo(const rs_type *t) {
    return t->kind == TY_INT ? t->lo : 0;
}

static int type_size(const rs_type *t) {
    if (t->kind == TY_BOOL) return 2;
    if (t->kind == TY_ENUM) return t->nvalues;
    if (t->kind == TY_CALL) return CALL_DECISION_VALUES;
    return (int)(t->hi - t->lo + 1);
}

static bool joinable(const rs_type *x, const rs_type *y) {
    return x->kind == y->kind;
}

static json_t *value_json(const ruleset *rs, const rs_type *t, int64_t v, strbuf *name) {
    rs_format_value(rs, t, v, FMT_NAME, name);
    if (t->kind == TY_BOOL) return json_boolean(v);
    if (t->kind == TY_INT) return json_integer(v);
    return json_string(name->data);
}

/* Values of one side's fact, or of two facts joined by value name. */
static void join_values(diff_fact *f, const ruleset *a, const ruleset *b) {
    const rs_type *ta = f->fa >= 0 ? a->facts[f->fa].type : NULL,
                  *tb = f->fb >= 0 ? b->facts[f->fb].type : NULL;
    const rs_type *t = ta ? ta : tb;
    f->ordered = t->kind == TY_INT || t->kind == TY_CALL;
    int64_t lo = type_lo(t), hi = lo + type_size(t) - 1;
    if (ta && tb && t->kind == TY_INT) {
        lo = ta->lo < tb->lo ? ta->lo : tb->lo;
        hi = ta->hi > tb->hi ? ta->hi : tb->hi;
    }
    int cap = (int)(hi - lo + 1) + (tb && t->kind == TY_ENUM ? tb->nvalues : 0);
    f->names = xcalloc((size_t)cap, sizeof(char *));
    f->va = xcalloc((size_t)cap, sizeof(int64_t));
    f->vb = xcalloc((size_t)cap, sizeof(int64_t));
    f->json = xcalloc((size_t)cap, sizeof(json_t *));
    const ruleset *rs = ta ? a : b;
    for (int64_t v = lo; v <= hi; v++) {
        strbuf name;
        sb_init(&name);
        int i = f->nvalues++;
        f->json[i] = value_json(rs, t, v, &name);
        f->names[i] = sb_take(&name);
        f->va[i] = ta && v >= type_lo(ta) && v < type_lo(ta) + type_size(ta) ? v : DIFF_ABSENT;
        f->vb[i] = DIFF_ABSENT;
        if (tb && t->kind == TY_ENUM)
            f->vb[i] =
                rs_enum_index(tb, f->names[i]) >= 0 ? rs_enum_index(tb, f->names[i]) : DIFF_ABSENT;
        else if (tb)
            f->vb[i] = v >= type_lo(tb) && v < type_lo(tb) + type_size(tb) ? v : DIFF_ABSENT;
    }
    for (int j = 0; tb && ta && t->kind == TY_ENUM && j < tb->nvalues; j++) {
        if (rs_enum_index(ta, tb->values[j]) >= 0) continue;
        int i = f->nvalues++; /* a value only B lists */
        f->names[i] = xstrdup(tb->values[j]);
        f->json[i] = json_string(tb->values[j]);
        f->va[i] = DIFF_ABSENT;
        f->vb[i] = j;
    }
}

static bool meaning(const ruleset *home, int e, const ruleset *in, strbuf *out, int depth);

/* Whether a fact the two graphs test means the same in both: an input
 * fact does; a derived one the graph tests as a variable of its own
 * (computed before the walk) only where both compute it alike. An
 * amendment that changes the computation (82 card points always win)
 * changes the rulings wherever the two values differ: the diff keeps the
 * two apart, so that those regions show. */
static bool same_fact(const ruleset *a, int fa, const ruleset *b, int fb) {
    int da = a->facts[fa].derived, db = b->facts[fb].derived;
    if (da < 0 || db < 0) return da < 0 && db < 0;
    strbuf in_a, in_b;
    sb_init(&in_a);
    sb_init(&in_b);
    bool same = meaning(a, da, a, &in_a, 0) && meaning(b, db, b, &in_b, 0) &&
                in_a.len == in_b.len && memcmp(in_a.data, in_b.data, in_a.len) == 0;
    sb_free(&in_a);
    sb_free(&in_b);
    return same;
}

static void join_facts(const ruleset *a, const ruleset *b, diff_result *d) {
    d->facts = xcalloc((size_t)(a->nvars + b->nvars + 1), sizeof(diff_fact));
    for (int v = 0; v < a->nvars; v++) {
        diff_fact *f = &d->facts[d->nfacts++];
        f->fa = a->var_fact[v];
        f->name = a->facts[f->fa].name;
        int fb = rs_find_fact(b, f->name);
        f->fb = fb >= 0 && b->facts[fb].var >= 0 &&
                        joinable(a->facts[f->fa].type, b->facts[fb].type) &&
                        same_fact(a, f->fa, b, fb)
                    ? fb
                    : -1;
    }
    for (int v = 0; v < b->nvars; v++) {
        int fb = b->var_fact[v];
        bool joined = false;
        for (int i = 0; i < d->nfacts; i++)
            joined |= d->facts[i].fb == fb;
        if (joined) continue;
        diff_fact *f = &d->facts[d->nfacts++];
        f->fa = -1;
        f->fb = fb;
        f->name = b->facts[fb].name;
        /* A has a fact of that name it could not join (one computed
         * otherwise, or of another kind): B's is named apart */
        if (rs_find_fact(a, f->name) >= 0) {
            strbuf name;
            sb_init(&name);
            sb_printf(&name, "%s'", f->name);
            f->name = f->own_name = sb_take(&name);
        }
    }
    for (int i = 0; i < d->nfacts; i++)
        join_values(&d->facts[i], a, b);
}

/* ---- rulings in words ---------------------------------------------------------- */

static void dump_expr(const ruleset *rs, int e, strbuf *out) {
    static const char *const ops[] = {
        "not ", "-",   " and ", " or ", " implies ", " == ", " != ", " < ",
        " <= ", " > ", " >= ",  " + ",  " - ",       " * ",  " / ",  " % "};
    const rs_expr *x = rs_expr_at(rs, e);
    switch (x->kind) {
    case EX_CONST:
        rs_format_value(rs, x->type, x->k, FMT_NAME, out);
        break;
    case EX_FACT:
        sb_puts(out, rs->facts[x->a].name);
        break;
    case EX_UNARY:
        sb_puts(out, ops[x->op]);
        dump_expr(rs, x->a, out);
        break;
    case EX_BINARY:
        sb_putc(out, '(');
        dump_expr(rs, x->a, out);
        sb_puts(out, ops[x->op]);
        dump_expr(rs, x->b, out);
        sb_putc(out, ')');
        break;
    default: {
        static const char *const fns[] = {[EX_IN] = "in",
                                          [EX_MIN] = "min",
                                          [EX_MAX] = "max",
                                          [EX_ABS] = "abs",
                                          [EX_SIGN] = "sign"};
        sb_puts(out, x->kind == EX_TABLE ? rs->tables[x->a].name : fns[x->kind]);
        sb_putc(out, '(');
        if (x->kind != EX_TABLE) dump_expr(rs, x->a, out);
        if (x->b >= 0 && x->kind != EX_TABLE) {
            sb_puts(out, ", ");
            dump_expr(rs, x->b, out);
        }
        for (int i = 0; i < x->nargs; i++) {
            if (i || x->kind != EX_TABLE) sb_puts(out, ", ");
            dump_expr(rs, rs_arg(rs, x->args + i), out);
        }
        sb_putc(out, ')');
    }
    }
}

/* The citation an action is given under, as a ruling shows it: its
 * clause's, or its article's where the clause cites nothing. */
static const char *action_cite(const ruleset *rs, const rs_action_use *u) {
    if (u->clause < 0) return "";
    const char *cite = rs->clauses[u->clause].cite;
    return cite ? cite : rs->articles[rs->clauses[u->clause].article].id;
}

/* A terminal as words and JSON; two rulings are the same when the words are. */
static void describe_terminal(const ruleset *rs, gref r, strbuf *words, json_t **json) {
    *json = json_object();
    if (r == GREF_ABSENT) {
        sb_puts(words, "(this value does not exist in this ruleset)");
        json_object_set_new(*json, "status", json_string("unknown_value"));
        return;
    }
    const graph_term *t = graph_term_at(rs->graph, r);
    static const char *const status[] = {[TERM_REJECT] = "rejected",
                                         [TERM_GAP] = "gap",
                                         [TERM_ERROR] = "error",
                                         [TERM_NOT_APPLICABLE] = "not_applicable",
                                         [TERM_OUTSIDE] = "outside"};
    if (t->kind != TERM_OUTCOME) {
        sb_printf(words, "(%s)",
                  t->kind < (int)(sizeof status / sizeof *status) && status[t->kind]
                      ? status[t->kind]
                      : "?");
        json_object_set_new(*json, "status", json_string(status[t->kind] ? status[t->kind] : "?"));
        return;
    }
    const rs_outcome *o = rs_outcome_at(rs, t->v);
    json_t *trail = json_array(), *actions = json_array();
    for (int i = 0, n = 0; i < o->ntrail; i++) {
        const char *cite = rs->clauses[o->trail[i]].cite;
        if (!cite) continue;
        sb_printf(words, "%s%s", n++ ? " > " : "", cite);
        json_array_append_new(trail, json_string(cite));
    }
    for (int i = 0; i < o->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, o->actions[i]);
        const rs_action *a = &rs->actions[u->action];
        strbuf one;
        sb_init(&one);
        sb_puts(&one, a->name);
        json_t *args = json_object();
        for (int p = 0; p < a->nparams; p++) {
            size_t at = one.len;
            sb_puts(&one, p ? ", " : "(");
            size_t start = one.len;
            dump_expr(rs, rs_arg(rs, u->args + p), &one);
            json_object_set_new(args, a->params[p].name, json_string(one.data + start));
            (void)at;
        }
        if (a->nparams) sb_putc(&one, ')');
        sb_printf(words, "%s%s", i ? ", " : ": ", one.data);
        json_t *act = json_object();
        json_object_set_new(act, "name", json_string(a->name));
        json_object_set_new(act, "args", args);
        json_object_set_new(act, "article", json_string(action_cite(rs, u)));
        json_array_append_new(actions, act);
        sb_free(&one);
    }
    json_object_set_new(*json, "status", json_string("ruling"));
    json_object_set_new(*json, "articles", trail);
    json_object_set_new(*json, "actions", actions);
}

/* ---- the joint graph --------------------------------------------------------------
 *
 * Both rulesets' graphs are rebuilt in one graph over the joined facts (A's
 * order, then B's own facts), each terminal replaced by the number of its
 * ruling's words: equal rulings get the same number whichever ruleset gave
 * them. Pairing the two rebuilt graphs terminal by terminal gives a graph
 * whose paths are exactly the regions, already reduced. */

/* The outcome whose words, every argument as written, a ruling is: so that
 * two rulings that differ only in how an argument is written can be
 * compared by the arguments' values (outcome -1: none). */
typedef struct ruling_origin {
    bool b; /* an outcome of B */
    int outcome;
} ruling_origin;

/* How a ruling is made from another: rulings are built up an action or an
 * argument at a time, and most steps end in words another ruling already
 * has, so the JSON is written only for the rulings a region shows
 * (ruling_json), from the chain of steps. */
typedef struct ruling_step {
    int from;                  /* the ruling this one extends, or -1: base is the whole JSON */
    json_t *base;              /* from < 0 */
    const char *action, *cite; /* a new action, when action is set */
    const char *param;         /* or the last action's argument param set to text */
    char *text;                /* owned */
    int nactions;
    bool outside; /* the ruleset declares the situation outside its scope */
} ruling_step;

/* The paired graph upside down, for the nodes that lead to one pair. */
typedef struct parents {
    int *start; /* the parents of node r at list[start[r] .. start[r + 1]) */
    int *list, *fill;
    int *mark, *queue;
    int *seen; /* project's visits, by stamp */
} parents;

typedef struct joint {
    const ruleset *a, *b;
    diff_result *d;
    const char *article;
    graph *g;
    vec words;  /* char*: the distinct rulings, in words */
    vec steps;  /* ruling_step: how each was made */
    vec json;   /* json_t*: the same as JSON, once ruling_json wrote it (else NULL) */
    vec passes; /* bool: the ruling passes through the article */
    vec origin; /* ruling_origin: the outcome a ruling's words were written from */
    vec pairs;  /* int[2]: the distinct pairs of differing rulings */
    int capregions;
    unsigned appends; /* fresh operation ids for building rulings' words */
    double *prefix;   /* prefix[v]: the product of the domains of the variables before v */
    int *slots;       /* open addressing over words */
    int capslots;
    parents up;
} joint;

enum {
    PAIR_EQUAL = -1,
    PAIR_EXCLUDED = -2,
    PAIR_OUT_OF_SCOPE = -3,
    PAIR_FIRST = PAIR_OUT_OF_SCOPE
};

static bool passes_article(const ruleset *rs, gref r, const char *article) {
    if (r == GREF_ABSENT || !GRAPH_IS_TERM(r) || graph_term_at(rs->graph, r)->kind != TERM_OUTCOME)
        return false;
    const rs_outcome *o = rs_outcome_at(rs, graph_term_at(rs->graph, r)->v);
    for (int i = 0; i < o->ntrail; i++) {
        const rs_clause *c = &rs->clauses[o->trail[i]];
        if (c->is_article && strcmp(c->cite, article) == 0) return true;
    }
    return false;
}

/* Rulings are numbered by their words: the same words, the same number,
 * whichever ruleset gave them. */
static void words_rehash(joint *j) {
    int cap = j->capslots ? 2 * j->capslots : 1024;
    xfree(j->slots);
    j->slots = xmalloc(sizeof(int) * (size_t)cap);
    memset(j->slots, -1, sizeof(int) * (size_t)cap);
    j->capslots = cap;
    for (int i = 0; i < j->words.len; i++) {
        const char *w = VEC_AT(&j->words, char *, i);
        uint64_t h = fnv1a64(FNV1A64_INIT, w, strlen(w)) & (uint64_t)(cap - 1);
        while (j->slots[h] >= 0)
            h = (h + 1) & (uint64_t)(cap - 1);
        j->slots[h] = i;
    }
}

static void step_free(ruling_step *st) {
    json_decref(st->base);
    xfree(st->text);
}

static int intern_words(joint *j, char *words, ruling_step st, bool passes) {
    if (2 * (j->words.len + 1) > j->capslots) words_rehash(j);
    uint64_t mask = (uint64_t)j->capslots - 1,
             h = fnv1a64(FNV1A64_INIT, words, strlen(words)) & mask;
    for (; j->slots[h] >= 0; h = (h + 1) & mask)
        if (strcmp(VEC_AT(&j->words, char *, j->slots[h]), words) == 0) {
            xfree(words);
            step_free(&st);
            return j->slots[h];
        }
    j->slots[h] = j->words.len;
    *(char **)vec_push(&j->words) = words;
    *(ruling_step *)vec_push(&j->steps) = st;
    *(json_t **)vec_push(&j->json) = NULL;
    *(bool *)vec_push(&j->passes) = passes;
    *(ruling_origin *)vec_push(&j->origin) = (ruling_origin){false, -1};
    return j->words.len - 1;
}

static ruling_step base_step(json_t *js) {
    const char *status = json_string_value(json_object_get(js, "status"));
    return (ruling_step){.from = -1,
                         .base = js,
                         .nactions = (int)json_array_size(json_object_get(js, "actions")),
                         .outside = status && strcmp(status, "outside") == 0};
}

/* A step from ruling `from`: its count of actions and scope carried on. */
static ruling_step next_step(const joint *j, int from) {
    const ruling_step *f = &VEC_AT(&j->steps, ruling_step, from);
    return (ruling_step){.from = from, .nactions = f->nactions, .outside = f->outside};
}

static void apply_step(json_t *js, const ruling_step *st) {
    json_t *acts = json_object_get(js, "actions");
    if (st->action)
        json_array_append_new(
            acts, json_pack("{sss{}ss}", "name", st->action, "args", "article", st->cite));
    else if (st->param)
        json_object_set_new(
            json_object_get(json_array_get(acts, json_array_size(acts) - 1), "args"), st->param,
            json_string(st->text));
}

/* Ruling number id as JSON: the nearest ruling on its chain already written,
 * copied, with the steps after it applied in order. */
static json_t *ruling_json(joint *j, int id) {
    json_t **made = &VEC_AT(&j->json, json_t *, id);
    if (*made) return *made;
    int chain[64], n = 0, at = id;
    while (!VEC_AT(&j->json, json_t *, at) && VEC_AT(&j->steps, ruling_step, at).from >= 0 &&
           n < (int)(sizeof chain / sizeof *chain)) {
        chain[n++] = at;
        at = VEC_AT(&j->steps, ruling_step, at).from;
    }
    json_t *js;
    if (VEC_AT(&j->json, json_t *, at))
        js = json_deep_copy(VEC_AT(&j->json, json_t *, at));
    else if (VEC_AT(&j->steps, ruling_step, at).from < 0)
        js = json_deep_copy(VEC_AT(&j->steps, ruling_step, at).base);
    else /* a chain longer than the array: write the rest first */
        js = json_deep_copy(ruling_json(j, at));
    while (n > 0)
        apply_step(js, &VEC_AT(&j->steps, ruling_step, chain[--n]));
    return *made = js;
}

static int ruling_id(joint *j, const ruleset *rs, gref r) {
    strbuf words;
    sb_init(&words);
    json_t *js;
    describe_terminal(rs, r, &words, &js);
    bool passes = j->article && passes_article(rs, r, j->article);
    return intern_words(j, sb_take(&words), base_step(js), passes);
}

/* ---- a ruling's arguments by value ----------------------------------------------
 * Two rulings are the same only if their actions' arguments have the same
 * values in the same situation: an argument's expression is turned into a
 * graph over the joined facts (a changed table row or derived fact shows),
 * and the ruling's words are built up terminal by terminal. */

typedef struct side {
    joint *j;
    const ruleset *rs;
    const int *var_fact;
    bool b;
    gref *term_memo; /* per terminal of the ruleset's graph: its rebuilt graph + 1, 0 = not yet */
} side;

/* A fact of one ruleset as a graph over the joined facts; a fact no decision
 * can test stands for itself (a symbolic terminal). */
static gref side_fact_graph(void *ctx, int fact, src_loc use) {
    side *s = ctx;
    const rs_fact *f = &s->rs->facts[fact];
    if (f->derived >= 0)
        return expr_to_graph(s->j->g, s->rs, f->derived, side_fact_graph, s, s->b ? 2 : 1,
                             &s->j->d->incomplete);
    if (f->var < 0) return graph_term_ref(s->j->g, TERM_NOT_APPLICABLE, fact);
    int jf = s->var_fact[f->var];
    const diff_fact *df = &s->j->d->facts[jf];
    gref *kids = xcalloc((size_t)df->nvalues, sizeof(gref));
    for (int i = 0; i < df->nvalues; i++) {
        int64_t v = s->b ? df->vb[i] : df->va[i];
        kids[i] = v == DIFF_ABSENT ? graph_term_ref(s->j->g, TERM_ERROR, 0)
                                   : graph_term_ref(s->j->g, TERM_VALUE, v);
    }
    gref r = graph_node_ref(s->j->g, jf, kids);
    xfree(kids);
    (void)use;
    return r;
}

typedef struct append_ctx {
    joint *j;
    const ruleset *rs;
    const char *text;    /* text to append, or NULL to append a value */
    const rs_type *type; /* the value's type */
    const char *param;   /* its parameter, for the JSON */
} append_ctx;

static graph_term fold_append(void *ctx, graph_term label, graph_term value) {
    append_ctx *a = ctx;
    joint *j = a->j;
    strbuf words;
    sb_init(&words);
    sb_puts(&words, VEC_AT(&j->words, char *, label.v));
    ruling_step st = next_step(j, (int)label.v);
    if (a->text) {
        sb_puts(&words, a->text);
        if (a->param) { /* an argument compared as written */
            st.param = a->param;
            st.text = xstrdup(a->text);
        }
    } else {
        strbuf v;
        sb_init(&v);
        if (value.kind == TERM_VALUE)
            rs_format_value(a->rs, a->type, value.v, FMT_NAME, &v);
        else
            sb_puts(&v, "(error)");
        sb_puts(&words, v.data ? v.data : "");
        st.param = a->param;
        st.text = xstrdup(v.data ? v.data : "");
        sb_free(&v);
    }
    int id = intern_words(j, sb_take(&words), st, VEC_AT(&j->passes, bool, label.v));
    return (graph_term){TERM_VALUE, id};
}

static unsigned next_salt(joint *j) {
    return 16 + (unsigned)(j->appends++ & 0x3fffff);
}

static gref append_text(joint *j, const ruleset *rs, gref label, const char *text,
                        const char *param) {
    append_ctx a = {j, rs, text, NULL, param};
    gref zero = graph_term_ref(j->g, TERM_VALUE, 0);
    return graph_apply2(j->g, ((uint64_t)next_salt(j) << 40) | 1, label, zero, fold_append, &a);
}

static gref append_value(joint *j, const ruleset *rs, gref label, gref value, const rs_type *type,
                         const char *param) {
    append_ctx a = {j, rs, NULL, type, param};
    return graph_apply2(j->g, ((uint64_t)next_salt(j) << 40) | 2, label, value, fold_append, &a);
}

/* Adds {"name": …, "args": {}} to every label's JSON. */
typedef struct start_ctx {
    joint *j;
    const char *name, *cite;
} start_ctx;

static graph_term fold_start_action(void *ctx, graph_term label) {
    start_ctx *sc = ctx;
    joint *j = sc->j;
    ruling_step st = next_step(j, (int)label.v);
    st.action = sc->name;
    st.cite = sc->cite;
    strbuf words;
    sb_init(&words);
    sb_puts(&words, VEC_AT(&j->words, char *, label.v));
    sb_printf(&words, "%s%s", st.nactions++ ? ", " : ": ", sc->name);
    return (graph_term){TERM_VALUE,
                        intern_words(j, sb_take(&words), st, VEC_AT(&j->passes, bool, label.v))};
}

/* Whether an argument is compared by value, situation by situation: any
 * computation, table or derived fact is (the other ruleset may compute it
 * differently, and equal values may be written differently). A constant
 * or a plain fact is compared as written: the same fact gives the same
 * value in both rulesets, and one difference stays one region instead of
 * one per value. */
static bool by_value(const ruleset *rs, int e) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (x->kind == EX_CONST) return false;
    if (x->kind == EX_FACT) return rs->facts[x->a].derived >= 0;
    return true;
}

/* ---- what an argument means -------------------------------------------------------
 * An argument written alike in both rulesets has the same value in both
 * when every derived fact it reads is derived alike and every table it
 * looks up holds the same rows. Such an argument is compared as written:
 * its value graph over facts of many values (points, roem) would make one
 * ruling per value and a graph far past any budget, to learn nothing the
 * text does not say. */

enum { MEANING_DEPTH = 64 };

static void type_meaning(const rs_type *t, strbuf *out) {
    sb_printf(out, ":%d", (int)t->kind);
    if (t->kind == TY_INT) sb_printf(out, "[%lld..%lld]", (long long)t->lo, (long long)t->hi);
    for (int i = 0; t->kind == TY_ENUM && i < t->nvalues; i++)
        sb_printf(out, "%s%s", i ? "," : "{", t->values[i]);
    if (t->kind == TY_ENUM) sb_putc(out, '}');
}

static int find_table(const ruleset *rs, const char *name) {
    for (int i = 0; i < rs->ntables; i++)
        if (strcmp(rs->tables[i].name, name) == 0) return i;
    return -1;
}

static void table_meaning(const ruleset *rs, int t, strbuf *out) {
    const rs_table *tb = &rs->tables[t];
    sb_printf(out, "[%d keys", tb->nkeys);
    for (int k = 0; k < tb->nkeys; k++)
        type_meaning(tb->keys[k], out);
    type_meaning(tb->value, out);
    uint64_t h = fnv1a64(FNV1A64_INIT, tb->cells, sizeof(int64_t) * (size_t)tb->ncells);
    sb_printf(out, " %d cells %016llx]", tb->ncells, (unsigned long long)h);
}

/* Expression e of `home` as `in` would compute it: its text, with each fact
 * and table it names (by name) resolved in `in`, derived facts expanded.
 * False past MEANING_DEPTH derivations. */
static bool meaning(const ruleset *home, int e, const ruleset *in, strbuf *out, int depth) {
    if (depth > MEANING_DEPTH) return false;
    const rs_expr *x = rs_expr_at(home, e);
    bool ok = true;
    if (x->kind == EX_CONST) {
        dump_expr(home, e, out);
    } else if (x->kind == EX_FACT) {
        int f = rs_find_fact(in, home->facts[x->a].name);
        sb_printf(out, "%s", home->facts[x->a].name);
        if (f < 0) return sb_puts(out, "{absent}"), true;
        type_meaning(in->facts[f].type, out);
        if (in->facts[f].derived >= 0) {
            sb_puts(out, "{=");
            ok = meaning(in, in->facts[f].derived, in, out, depth + 1);
            sb_putc(out, '}');
        }
    } else {
        sb_printf(out, "(%d.%d", (int)x->kind, (int)x->op);
        if (x->kind == EX_TABLE) {
            int t = find_table(in, home->tables[x->a].name);
            sb_puts(out, home->tables[x->a].name);
            if (t >= 0) table_meaning(in, t, out);
        }
        bool two = x->kind == EX_BINARY || x->kind == EX_MIN || x->kind == EX_MAX;
        if (x->kind != EX_TABLE) ok = meaning(home, x->a, in, out, depth + 1);
        if (two) ok = ok && meaning(home, x->b, in, out, depth + 1);
        for (int i = 0; i < x->nargs && ok; i++) {
            sb_putc(out, ',');
            ok = meaning(home, rs_arg(home, x->args + i), in, out, depth + 1);
        }
        sb_putc(out, ')');
    }
    return ok;
}

/* Whether expression e of rs has the same value in A and in B wherever
 * both give its facts the same values. */
static bool same_in_both(const joint *j, const ruleset *rs, int e) {
    strbuf in_a, in_b;
    sb_init(&in_a);
    sb_init(&in_b);
    bool same = meaning(rs, e, j->a, &in_a, 0) && meaning(rs, e, j->b, &in_b, 0) &&
                in_a.len == in_b.len && memcmp(in_a.data, in_b.data, in_a.len) == 0;
    sb_free(&in_a);
    sb_free(&in_b);
    return same;
}

/* At most how many situations of the facts expression e reads (derived
 * facts through their expressions) give it its value; past `cap`, cap + 1. */
enum { FEW_SITUATIONS = 64 };

static double situations_read(const side *s, const ruleset *rs, int e, double cap, int depth) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (depth > MEANING_DEPTH) return cap + 1;
    if (x->kind == EX_CONST) return 1;
    if (x->kind == EX_FACT) {
        const rs_fact *f = &rs->facts[x->a];
        if (f->derived >= 0) return situations_read(s, rs, f->derived, cap, depth + 1);
        return f->var < 0 ? cap + 1 : s->j->d->facts[s->var_fact[f->var]].nvalues;
    }
    double n = x->kind == EX_TABLE ? 1 : situations_read(s, rs, x->a, cap, depth + 1);
    if (x->kind == EX_BINARY || x->kind == EX_MIN || x->kind == EX_MAX)
        n *= situations_read(s, rs, x->b, cap, depth + 1);
    for (int i = 0; x->kind == EX_TABLE && i < x->nargs && n <= cap; i++)
        n *= situations_read(s, rs, rs_arg(rs, x->args + i), cap, depth + 1);
    return n > cap ? cap + 1 : n;
}

/* Whether an argument is compared by its value in each situation rather
 * than as written: when the other ruleset may compute it differently, and
 * when it reads few situations (its values then read better than its
 * formula: `transfer_tricks(2)`, not `transfer_tricks(1 + min(1, later))`). */
static bool compare_by_value(const side *s, int e) {
    if (!by_value(s->rs, e)) return false;
    return situations_read(s, s->rs, e, FEW_SITUATIONS, 0) <= FEW_SITUATIONS ||
           !same_in_both(s->j, s->rs, e);
}

/* An outcome terminal of one ruleset as a graph of ruling numbers. */
static gref outcome_graph(side *s, gref r) {
    joint *j = s->j;
    const ruleset *rs = s->rs;
    const rs_outcome *o = rs_outcome_at(rs, graph_term_at(rs->graph, r)->v);
    strbuf words;
    sb_init(&words);
    json_t *trail = json_array();
    const char *last = NULL;
    for (int i = 0, n = 0; i < o->ntrail; i++) {
        const char *cite = rs->clauses[o->trail[i]].cite;
        /* as a ruling's trail shows it (ruling_trail): a citation right
         * after the same one, a clause citing its own article's number or
         * a fact's citation beside its clause's, is one step */
        if (!cite || (last && strcmp(last, cite) == 0)) continue;
        last = cite;
        sb_printf(&words, "%s%s", n++ ? " > " : "", cite);
        json_array_append_new(trail, json_string(cite));
    }
    json_t *js = json_pack("{sssos[]}", "status", "ruling", "articles", trail, "actions");
    gref label = graph_term_ref(j->g, TERM_VALUE,
                                intern_words(j, sb_take(&words), base_step(js),
                                             j->article && passes_article(rs, r, j->article)));
    bool as_written = true;
    for (int i = 0; i < o->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, o->actions[i]);
        const rs_action *a = &rs->actions[u->action];
        start_ctx st = {j, a->name, action_cite(rs, u)};
        label =
            graph_apply1(j->g, ((uint64_t)next_salt(j) << 40) | 3, label, fold_start_action, &st);
        for (int p = 0; p < a->nparams; p++) {
            label = append_text(j, rs, label, p ? ", " : "(", NULL);
            int arg = rs_arg(rs, u->args + p);
            gref value = compare_by_value(s, arg) ? expr_to_graph(j->g, rs, arg, side_fact_graph, s,
                                                                  s->b ? 2 : 1, &j->d->incomplete)
                                                  : graph_term_ref(j->g, TERM_NOT_APPLICABLE, 0);
            if (graph_reaches_kind(j->g, value, TERM_NOT_APPLICABLE)) {
                /* it reads a fact no decision tests: compare the expression itself */
                strbuf text;
                sb_init(&text);
                dump_expr(rs, rs_arg(rs, u->args + p), &text);
                label = append_text(j, rs, label, text.data, a->params[p].name);
                sb_free(&text);
            } else {
                label = append_value(j, rs, label, value, a->params[p].type, a->params[p].name);
                as_written = false;
            }
        }
        if (a->nparams) label = append_text(j, rs, label, ")", NULL);
    }
    if (as_written && GRAPH_IS_TERM(label)) {
        ruling_origin *from = &VEC_AT(&j->origin, ruling_origin, graph_term_at(j->g, label)->v);
        if (from->outcome < 0) *from = (ruling_origin){s->b, (int)graph_term_at(rs->graph, r)->v};
    }
    return label;
}

static int var_of(const graph *g, gref r) {
    return GRAPH_IS_TERM(r) ? g->nvars : g->nodes[r].var;
}

/* The graph that is kids[i] where joint fact f has value i. Where every
 * child tests only later facts (always so for A, whose order the joint
 * graph keeps, and for B when it orders the shared facts alike) that is one
 * node. Otherwise it is one `if f in {…} then kid` per distinct child: a
 * fact of many values costs its distinct children, not its values, in
 * steps and in nodes left behind. */
#define SMALL_FACT 32 /* values of a fact whose arrays go on the stack */

static gref case_of(joint *j, int f, const gref *kids) {
    graph *g = j->g;
    int n = j->d->facts[f].nvalues;
    bool later = true;
    for (int i = 0; i < n && later; i++)
        later = var_of(g, kids[i]) > f;
    if (later) return graph_node_ref(g, f, kids);
    gref out = kids[n - 1];
    /* most facts have few values: their arrays on the stack, not the heap */
    gref cond_small[SMALL_FACT];
    unsigned char done_small[SMALL_FACT] = {0};
    gref *cond = n <= SMALL_FACT ? cond_small : xcalloc((size_t)n, sizeof(gref));
    unsigned char *done = n <= SMALL_FACT ? done_small : xcalloc((size_t)n, 1);
    for (int i = 0; i < n; i++) {
        if (done[i] || kids[i] == out) continue;
        for (int k = 0; k < n; k++) {
            bool same = kids[k] == kids[i];
            done[k] |= same;
            cond[k] = graph_term_ref(g, TERM_VALUE, same);
        }
        out = graph_ite(g, graph_node_ref(g, f, cond), kids[i], out);
    }
    if (done != done_small) xfree(done);
    if (cond != cond_small) xfree(cond);
    return out;
}

/* A ruleset's graph rebuilt over the joined facts (memo: gref + 1, 0 = not yet). */
static gref rebuild(side *s, gref r, gref *memo) {
    joint *j = s->j;
    const ruleset *rs = s->rs;
    if (GRAPH_IS_TERM(r)) {
        gref *once = &s->term_memo[GRAPH_TERM_INDEX(r)];
        if (!*once)
            *once = 1 + (graph_term_at(rs->graph, r)->kind == TERM_OUTCOME
                             ? outcome_graph(s, r)
                             : graph_term_ref(j->g, TERM_VALUE, ruling_id(j, rs, r)));
        return *once - 1;
    }
    if (memo[r]) return memo[r] - 1;
    const graph *src = rs->graph;
    const graph_node nd = src->nodes[r];
    int f = s->var_fact[nd.var], n = j->d->facts[f].nvalues;
    gref absent = graph_term_ref(j->g, TERM_VALUE, ruling_id(j, rs, GREF_ABSENT));
    gref kids_small[SMALL_FACT];
    gref *kids = n <= SMALL_FACT ? kids_small : xcalloc((size_t)n, sizeof(gref));
    for (int i = 0; i < n; i++) {
        int64_t v = s->b ? j->d->facts[f].vb[i] : j->d->facts[f].va[i];
        kids[i] = v == DIFF_ABSENT
                      ? absent
                      : rebuild(s, graph_kid(src, &nd, (int)(v - src->lo[nd.var])), memo);
    }
    gref out = case_of(j, f, kids);
    if (kids != kids_small) xfree(kids);
    memo[r] = out + 1;
    return out;
}

/* A value one ruleset lacks makes its ruling "(this value does not exist)"
 * wherever that value is given, whether or not its graph tests the fact. */
static gref mark_absent(side *s, gref g) {
    joint *j = s->j;
    gref absent = graph_term_ref(j->g, TERM_VALUE, ruling_id(j, s->rs, GREF_ABSENT));
    for (int f = 0; f < j->d->nfacts; f++) {
        const diff_fact *df = &j->d->facts[f];
        if (df->fa < 0 || df->fb < 0) continue;
        gref *lacks = xcalloc((size_t)df->nvalues, sizeof(gref));
        for (int i = 0; i < df->nvalues; i++)
            lacks[i] =
                graph_term_ref(j->g, TERM_VALUE, (s->b ? df->vb[i] : df->va[i]) == DIFF_ABSENT);
        g = graph_ite(j->g, graph_node_ref(j->g, f, lacks), absent, g);
        xfree(lacks);
    }
    return g;
}

/* Whether ruling number r is a ruleset's "outside its scope". */
static bool ruling_outside(const joint *j, int64_t r) {
    return VEC_AT(&j->steps, ruling_step, r).outside;
}

/* Only situations both rulesets rule on are compared: where either declares
 * a situation outside its scope (`outside`), it has no ruling to compare —
 * an edition that holds only some articles (bridge-1997: 41-45) is compared
 * with another on those articles alone. Such situations are counted apart
 * (diff_result.out_of_scope), neither equal nor differing. */
static bool in_both_scopes(const joint *j, graph_term x, graph_term y) {
    return !ruling_outside(j, x.v) && !ruling_outside(j, y.v);
}

static graph_term fold_pair(void *ctx, graph_term x, graph_term y) {
    joint *j = ctx;
    /* every terminal of a rebuilt graph is a ruling's number: anything else
     * is the graph's "too large" leaf, which stands for no ruling at all */
    if (x.kind != TERM_VALUE || y.kind != TERM_VALUE) {
        j->d->incomplete = true;
        return (graph_term){TERM_VALUE, PAIR_EXCLUDED};
    }
    bool passes = !j->article || VEC_AT(&j->passes, bool, x.v) || VEC_AT(&j->passes, bool, y.v);
    if (!passes) return (graph_term){TERM_VALUE, PAIR_EXCLUDED};
    if (!in_both_scopes(j, x, y)) return (graph_term){TERM_VALUE, PAIR_OUT_OF_SCOPE};
    if (x.v == y.v) return (graph_term){TERM_VALUE, PAIR_EQUAL};
    for (int i = 0; i < j->pairs.len / 2; i++) {
        int *p = &VEC_AT(&j->pairs, int, 2 * i);
        if (p[0] == x.v && p[1] == y.v) return (graph_term){TERM_VALUE, i};
    }
    if (j->pairs.len % 2) abort();
    *(int *)vec_push(&j->pairs) = (int)x.v;
    *(int *)vec_push(&j->pairs) = (int)y.v;
    return (graph_term){TERM_VALUE, j->pairs.len / 2 - 1};
}

/* ---- rulings written differently, equal in value ----------------------------------
 * Arguments are compared as written where both rulesets compute them alike
 * (same_in_both). Two rulings with the same trail and actions whose
 * arguments are written differently (A's `1 + min(1, later)` against B's
 * `1`) may still be equal where the arguments' values are: there the pair
 * is turned into "equal". */

typedef struct value_eq {
    const rs_type *ta, *tb;
} value_eq;

static graph_term fold_value_eq(void *ctx, graph_term x, graph_term y) {
    const value_eq *e = ctx;
    bool same = x.kind == y.kind && x.v == y.v;
    if (x.kind == TERM_VALUE && y.kind == TERM_VALUE && e->ta->kind == TY_ENUM &&
        e->tb->kind == TY_ENUM)
        same = x.v >= 0 && y.v >= 0 && x.v < e->ta->nvalues && y.v < e->tb->nvalues &&
               strcmp(e->ta->values[x.v], e->tb->values[y.v]) == 0;
    return (graph_term){TERM_VALUE, same};
}

static graph_term fold_is_pair(void *ctx, graph_term x) {
    return (graph_term){TERM_VALUE, x.kind == TERM_VALUE && x.v == *(const int64_t *)ctx};
}

/* Where the arguments of outcome oa (of side sa) and ob (of side sb) have the
 * same values, as a 0/1 graph; 0 everywhere when their trails or actions
 * differ, or an argument reads a fact no decision tests. */
static gref same_values(joint *j, side *sa, int oa, side *sb, int ob) {
    graph *g = j->g;
    gref no = graph_term_ref(g, TERM_VALUE, 0), all = graph_term_ref(g, TERM_VALUE, 1);
    const ruleset *ra = sa->rs, *rb = sb->rs;
    const rs_outcome *xa = rs_outcome_at(ra, oa), *xb = rs_outcome_at(rb, ob);
    if (xa->ntrail != xb->ntrail || xa->nactions != xb->nactions) return no;
    for (int i = 0; i < xa->ntrail; i++) {
        const char *ca = ra->clauses[xa->trail[i]].cite, *cb = rb->clauses[xb->trail[i]].cite;
        if ((ca == NULL) != (cb == NULL) || (ca && strcmp(ca, cb) != 0)) return no;
    }
    for (int i = 0; i < xa->nactions; i++) {
        const rs_action_use *ua = rs_use_at(ra, xa->actions[i]),
                            *ub = rs_use_at(rb, xb->actions[i]);
        const rs_action *aa = &ra->actions[ua->action], *ab = &rb->actions[ub->action];
        if (strcmp(aa->name, ab->name) != 0 || aa->nparams != ab->nparams) return no;
        for (int p = 0; p < aa->nparams && all != no; p++) {
            int ea = rs_arg(ra, ua->args + p), eb = rs_arg(rb, ub->args + p);
            gref va =
                expr_to_graph(g, ra, ea, side_fact_graph, sa, sa->b ? 2 : 1, &j->d->incomplete);
            gref vb =
                expr_to_graph(g, rb, eb, side_fact_graph, sb, sb->b ? 2 : 1, &j->d->incomplete);
            if (graph_reaches_kind(g, va, TERM_NOT_APPLICABLE) ||
                graph_reaches_kind(g, vb, TERM_NOT_APPLICABLE))
                return no;
            value_eq e = {aa->params[p].type, ab->params[p].type};
            gref eq =
                graph_apply2(g, ((uint64_t)next_salt(j) << 40) | 4, va, vb, fold_value_eq, &e);
            all = graph_ite(g, all, eq, no);
        }
    }
    return all;
}

/* The paired graph with each differing pair turned equal where its two
 * rulings' arguments have the same values. */
static gref equal_by_value(joint *j, side *sa, side *sb, gref pairs) {
    graph *g = j->g;
    gref equal = graph_term_ref(g, TERM_VALUE, PAIR_EQUAL), no = graph_term_ref(g, TERM_VALUE, 0);
    for (int64_t k = 0; k < j->pairs.len / 2; k++) {
        const int *p = &VEC_AT(&j->pairs, int, 2 * k);
        ruling_origin fa = VEC_AT(&j->origin, ruling_origin, p[0]),
                      fb = VEC_AT(&j->origin, ruling_origin, p[1]);
        if (fa.outcome < 0 || fb.outcome < 0) continue;
        gref same = same_values(j, fa.b ? sb : sa, fa.outcome, fb.b ? sb : sa, fb.outcome);
        if (same == no) continue;
        gref here = graph_apply1(g, ((uint64_t)next_salt(j) << 40) | 5, pairs, fold_is_pair, &k);
        pairs = graph_ite(g, graph_ite(g, here, same, no), equal, pairs);
    }
    return pairs;
}

/* The product of the domains of the variables from..to-1. */
static double span(const joint *j, int from, int to) {
    return j->prefix[to] / j->prefix[from];
}

/* The situations of each terminal value PAIR_FIRST .. npairs - 1, at
 * count[v - PAIR_FIRST], all at once: the number of assignments that reach
 * a node flows from the root down to its children. A child's index is
 * below its parents' (graph.h), so one pass in decreasing order sees every
 * parent before its children. */
static double *pair_counts(joint *j, gref root, int npairs) {
    graph *g = j->g;
    double *count = xcalloc((size_t)(npairs - PAIR_FIRST) + 1, sizeof *count);
    double *per_term = xcalloc((size_t)g->nterms + 1, sizeof *per_term);
    if (GRAPH_IS_TERM(root)) {
        per_term[GRAPH_TERM_INDEX(root)] = span(j, 0, g->nvars);
    } else {
        double *mass = xcalloc((size_t)root + 1, sizeof *mass);
        mass[root] = span(j, 0, g->nodes[root].var);
        for (gref r = root; r >= 0; r--) {
            if (mass[r] == 0) continue;
            const graph_node *nd = &g->nodes[r];
            for (int i = 0; i < g->domain[nd->var]; i++) {
                gref kid = graph_kid(g, nd, i);
                double n = mass[r] * span(j, nd->var + 1, var_of(g, kid));
                *(GRAPH_IS_TERM(kid) ? &per_term[GRAPH_TERM_INDEX(kid)] : &mass[kid]) += n;
            }
        }
        xfree(mass);
    }
    for (int t = 0; t < g->nterms; t++) {
        const graph_term *term = &g->terms[t];
        if (term->kind == TERM_VALUE && term->v >= PAIR_FIRST && term->v < npairs)
            count[term->v - PAIR_FIRST] += per_term[t];
    }
    xfree(per_term);
    return count;
}

/* ---- regions ------------------------------------------------------------------------
 * One region per pair of differing rulings: the situations where A rules
 * the one and B the other. Its count is exact (counted on the graph, not
 * by enumerating paths, which can be exponentially many); its constraints
 * are, per fact, the values some situation of the region has — the
 * region's box, exact when the box holds no other situation. */

typedef struct region_walk {
    joint *j;
    int64_t pair;
    int stamp; /* j->up.mark[r] == stamp: node r leads to the pair */
    unsigned char **allowed;
    unsigned char *free; /* a fact some path skips: every value */
    int *example;        /* one situation: a value per fact, -1 free */
    bool found;
} region_walk;

static bool reaches_pair(region_walk *w, gref r) {
    if (GRAPH_IS_TERM(r)) return graph_term_at(w->j->g, r)->v == w->pair;
    return w->j->up.mark[r] == w->stamp;
}

/* The parents of every node and terminal below root, each parent once per
 * child, as offsets into one array (a terminal t at nnodes + t). */
static void build_parents(joint *j, gref root) {
    graph *g = j->g;
    parents *up = &j->up;
    int n = g->nnodes + g->nterms;
    up->start = xcalloc((size_t)n + 2, sizeof(int));
    up->mark = xcalloc((size_t)g->nnodes + 1, sizeof(int));
    up->queue = xcalloc((size_t)g->nnodes + 1, sizeof(int));
    up->seen = xcalloc((size_t)g->nnodes + 1, sizeof(int));
    if (GRAPH_IS_TERM(root)) return;
    /* below root: every node with a smaller index that root leads to */
    unsigned char *below = xcalloc((size_t)root + 1, 1);
    below[root] = 1;
    for (int pass = 0; pass < 2; pass++) {
        for (gref r = root; r >= 0; r--) {
            if (!below[r]) continue;
            const graph_node *nd = &g->nodes[r];
            for (int i = 0; i < g->domain[nd->var]; i++) {
                gref kid = graph_kid(g, nd, i);
                if (i > 0 && kid == graph_kid(g, nd, i - 1)) continue;
                int at = GRAPH_IS_TERM(kid) ? g->nnodes + GRAPH_TERM_INDEX(kid) : kid;
                if (!GRAPH_IS_TERM(kid)) below[kid] = 1;
                if (pass == 0)
                    up->start[at + 1]++;
                else
                    up->list[up->fill[at]++] = r;
            }
        }
        if (pass == 0) {
            for (int i = 0; i < n; i++)
                up->start[i + 1] += up->start[i];
            up->list = xcalloc((size_t)up->start[n] + 1, sizeof(int));
            up->fill = xcalloc((size_t)n + 1, sizeof(int));
            memcpy(up->fill, up->start, sizeof(int) * (size_t)n);
        }
    }
    xfree(below);
}

/* Marks with stamp every node below the root that leads to the terminal:
 * its ancestors, found upwards, in the time their number takes. */
static void mark_ancestors(joint *j, int term, int stamp) {
    parents *up = &j->up;
    int at = j->g->nnodes + term, head = 0, tail = 0;
    for (int p = up->start[at]; p < up->start[at + 1]; p++)
        if (up->mark[up->list[p]] != stamp) up->mark[up->queue[tail++] = up->list[p]] = stamp;
    while (head < tail) {
        int r = up->queue[head++];
        for (int p = up->start[r]; p < up->start[r + 1]; p++)
            if (up->mark[up->list[p]] != stamp) up->mark[up->queue[tail++] = up->list[p]] = stamp;
    }
}

/* Marks the values of every edge on a path to the pair, and the facts a
 * path skips; each node is visited once (j->up.seen holds the stamp). */
static void project(region_walk *w, gref r) {
    int *seen = w->j->up.seen;
    graph *g = w->j->g;
    if (GRAPH_IS_TERM(r) || seen[r] == w->stamp) return;
    seen[r] = w->stamp;
    const graph_node *nd = &g->nodes[r];
    for (int i = 0; i < g->domain[nd->var]; i++) {
        gref kid = graph_kid(g, nd, i);
        if (!reaches_pair(w, kid)) continue;
        w->allowed[nd->var][i] = 1;
        for (int v = nd->var + 1; v < var_of(g, kid); v++)
            w->free[v] = 1;
        project(w, kid);
    }
}

static void find_example(region_walk *w, gref r) {
    graph *g = w->j->g;
    while (!GRAPH_IS_TERM(r)) {
        const graph_node *nd = &g->nodes[r];
        int i = 0;
        while (!reaches_pair(w, graph_kid(g, nd, i)))
            i++;
        w->example[nd->var] = i;
        r = graph_kid(g, nd, i);
    }
}

/* The flags of every fact's values, one block a region's walk reuses. */
typedef struct region_scratch {
    unsigned char **allowed; /* per fact, into flags */
    unsigned char *flags, *free;
    size_t nflags;
} region_scratch;

static void scratch_init(region_scratch *s, const diff_result *d) {
    s->allowed = xcalloc((size_t)d->nfacts + 1, sizeof *s->allowed);
    s->nflags = 0;
    for (int f = 0; f < d->nfacts; f++)
        s->nflags += (size_t)d->facts[f].nvalues;
    s->flags = xcalloc(s->nflags + 1, 1);
    for (int f = 0, at = 0; f < d->nfacts; at += d->facts[f++].nvalues)
        s->allowed[f] = s->flags + at;
    s->free = xcalloc((size_t)d->nfacts + 1, 1);
}

static void scratch_free(region_scratch *s) {
    xfree(s->allowed);
    xfree(s->flags);
    xfree(s->free);
}

/* The region's constraints: a fact not every value of which is allowed
 * keeps its flags; the pointers and the flags kept are one block. */
static unsigned char **kept_constraints(const diff_result *d, const region_scratch *s,
                                        double *box) {
    size_t kept = 0;
    int *k = xcalloc((size_t)d->nfacts + 1, sizeof *k);
    *box = 1;
    for (int f = 0; f < d->nfacts; f++) {
        int n = d->facts[f].nvalues;
        for (int i = 0; i < n; i++)
            k[f] += s->allowed[f][i];
        if (s->free[f] || k[f] == n) {
            *box *= n;
            k[f] = -1;
            continue;
        }
        *box *= k[f];
        kept += (size_t)n;
    }
    size_t table = sizeof(unsigned char *) * (size_t)d->nfacts;
    unsigned char **allowed = xcalloc(table + kept + 1, 1);
    unsigned char *at = (unsigned char *)allowed + table;
    for (int f = 0; f < d->nfacts; f++) {
        if (k[f] < 0) continue;
        allowed[f] = memcpy(at, s->allowed[f], (size_t)d->facts[f].nvalues);
        at += d->facts[f].nvalues;
    }
    xfree(k);
    return allowed;
}

static void add_region(joint *j, region_scratch *s, gref pairs, int pair_term, int64_t pair,
                       double count) {
    diff_result *d = j->d;
    graph *g = j->g;
    if (d->nregions == j->capregions) {
        j->capregions = j->capregions ? 2 * j->capregions : 64;
        d->regions = xrealloc(d->regions, sizeof *d->regions * (size_t)j->capregions);
    }
    region_walk w = {j,          pair,    (int)pair + 1,
                     s->allowed, s->free, xcalloc((size_t)d->nfacts + 1, sizeof(int)),
                     false};
    memset(s->flags, 0, s->nflags);
    memset(s->free, 0, (size_t)d->nfacts);
    mark_ancestors(j, pair_term, w.stamp);
    for (int f = 0; f < d->nfacts; f++)
        w.example[f] = -1;
    for (int v = 0; v < var_of(g, pairs); v++)
        w.free[v] = 1;
    project(&w, pairs);
    find_example(&w, pairs);
    diff_region *r = &d->regions[d->nregions++];
    r->example = w.example;
    double box;
    r->allowed = kept_constraints(d, s, &box);
    r->count = count;
    r->exact = box <= r->count * (1 + 1e-12); /* counts beyond 2^53 are rounded */
    int *p = &VEC_AT(&j->pairs, int, 2 * pair);
    r->ruling_a = xstrdup(VEC_AT(&j->words, char *, p[0]));
    r->ruling_b = xstrdup(VEC_AT(&j->words, char *, p[1]));
    r->json_a = json_incref(ruling_json(j, p[0]));
    r->json_b = json_incref(ruling_json(j, p[1]));
}

static void region_free(diff_region *r) {
    xfree(r->allowed); /* the flags lie in the same block */
    xfree(r->example);
    xfree(r->ruling_a);
    xfree(r->ruling_b);
    json_decref(r->json_a);
    json_decref(r->json_b);
}

/* Whether the joint graph ran out of its budget of steps or children: every
 * operation past it ended in the "too large" leaf, so the graphs no longer
 * say what the rulesets rule. */
static bool out_of_budget(const joint *j) {
    int widest = 0;
    for (int f = 0; f < j->d->nfacts; f++)
        if (j->d->facts[f].nvalues > widest) widest = j->d->facts[f].nvalues;
    return j->g->work > GRAPH_MAX_WORK || j->g->nkids > GRAPH_MAX_KIDS - widest;
}

/* The index of the article diff_own_article names, or -1. */
static int own_article(const ruleset *rs, int which) {
    int arts[] = {rs->legal_article, rs->trick_article};
    return which >= 0 && which < 2 ? arts[which] : -1;
}

const char *diff_own_article(const ruleset *rs, int which) {
    int a = own_article(rs, which);
    return a >= 0 ? rs->articles[a].id : NULL;
}

/* The graph the diff walks in rs: the checked root, or, for an article the
 * root never reaches (the legal or the trick article, which `legal` and
 * `score` rule with on their own), that article's own graph. */
static gref diff_root(const ruleset *rs, const char *article) {
    for (int w = 0; article && w < 2; w++) {
        int a = own_article(rs, w);
        if (a >= 0 && strcmp(rs->articles[a].id, article) == 0) return rs->articles[a].root;
    }
    return rs->checked_root;
}

void diff_rulesets(const ruleset *a, const ruleset *b, const char *article, diff_result *out) {
    memset(out, 0, sizeof *out);
    out->article = article;
    join_facts(a, b, out);
    int *domain = xcalloc((size_t)out->nfacts + 1, sizeof(int)),
        *var_fact_a = xcalloc((size_t)a->nvars + 1, sizeof(int)),
        *var_fact_b = xcalloc((size_t)b->nvars + 1, sizeof(int));
    int64_t *lo = xcalloc((size_t)out->nfacts + 1, sizeof(int64_t));
    for (int f = 0; f < out->nfacts; f++) {
        domain[f] = out->facts[f].nvalues;
        if (out->facts[f].fa >= 0) var_fact_a[a->facts[out->facts[f].fa].var] = f;
        if (out->facts[f].fb >= 0) var_fact_b[b->facts[out->facts[f].fb].var] = f;
    }
    joint j = {
        .a = a, .b = b, .d = out, .article = article, .g = graph_new(out->nfacts, domain, lo)};
    vec_init(&j.words, sizeof(char *));
    vec_init(&j.steps, sizeof(ruling_step));
    vec_init(&j.json, sizeof(json_t *));
    vec_init(&j.passes, sizeof(bool));
    vec_init(&j.origin, sizeof(ruling_origin));
    vec_init(&j.pairs, sizeof(int));
    gref *memo_a = xcalloc((size_t)a->graph->nnodes + 1, sizeof(gref)),
         *memo_b = xcalloc((size_t)b->graph->nnodes + 1, sizeof(gref));
    side sa = {&j, a, var_fact_a, false, xcalloc((size_t)a->graph->nterms + 1, sizeof(gref))},
         sb = {&j, b, var_fact_b, true, xcalloc((size_t)b->graph->nterms + 1, sizeof(gref))};
    gref ga = mark_absent(&sa, rebuild(&sa, diff_root(a, article), memo_a));
    gref gb = mark_absent(&sb, rebuild(&sb, diff_root(b, article), memo_b));
    gref pairs = equal_by_value(&j, &sa, &sb, graph_apply2(j.g, 1, ga, gb, fold_pair, &j));
    out->incomplete |= out_of_budget(&j);
    j.prefix = xcalloc((size_t)out->nfacts + 2, sizeof(double));
    j.prefix[0] = 1;
    for (int f = 0; f < out->nfacts; f++)
        j.prefix[f + 1] = j.prefix[f] * domain[f];
    int npairs = j.pairs.len / 2;
    double *count = pair_counts(&j, pairs, npairs); /* count[v - PAIR_FIRST] */
    out->equal = count[PAIR_EQUAL - PAIR_FIRST];
    out->out_of_scope = count[PAIR_OUT_OF_SCOPE - PAIR_FIRST];
    build_parents(&j, pairs);
    int *pair_term = xcalloc((size_t)npairs + 1, sizeof(int)); /* the terminal of each pair */
    for (int t = 0; t < j.g->nterms; t++)
        if (j.g->terms[t].kind == TERM_VALUE && j.g->terms[t].v >= 0 && j.g->terms[t].v < npairs)
            pair_term[j.g->terms[t].v] = t;
    region_scratch scratch;
    scratch_init(&scratch, out);
    for (int64_t k = 0; k < npairs && !out->incomplete; k++) {
        if (count[k - PAIR_FIRST] == 0) continue; /* equal by value everywhere */
        add_region(&j, &scratch, pairs, pair_term[k], k, count[k - PAIR_FIRST]);
        out->differing += out->regions[out->nregions - 1].count;
    }
    scratch_free(&scratch);
    xfree(pair_term);
    xfree(count);
    xfree(j.up.start);
    xfree(j.up.list);
    xfree(j.up.fill);
    xfree(j.up.mark);
    xfree(j.up.queue);
    xfree(j.up.seen);
    xfree(j.prefix);
    xfree(j.slots);
    xfree(memo_a);
    xfree(memo_b);
    xfree(sa.term_memo);
    xfree(sb.term_memo);
    for (int i = 0; i < j.words.len; i++) {
        xfree(VEC_AT(&j.words, char *, i));
        step_free(&VEC_AT(&j.steps, ruling_step, i));
        json_decref(VEC_AT(&j.json, json_t *, i));
    }
    vec_free(&j.words);
    vec_free(&j.steps);
    vec_free(&j.json);
    vec_free(&j.passes);
    vec_free(&j.origin);
    vec_free(&j.pairs);
    out->graph_kids = j.g->nkids;
    graph_free(j.g);
    xfree(domain);
    xfree(lo);
    xfree(var_fact_a);
    xfree(var_fact_b);
}

void diff_free(diff_result *d) {
    for (int i = 0; i < d->nregions; i++)
        region_free(&d->regions[i]);
    xfree(d->regions);
    for (int f = 0; f < d->nfacts; f++) {
        for (int i = 0; i < d->facts[f].nvalues; i++) {
            xfree((char *)d->facts[f].names[i]);
            json_decref(d->facts[f].json[i]);
        }
        xfree(d->facts[f].names);
        xfree(d->facts[f].own_name);
        xfree(d->facts[f].va);
        xfree(d->facts[f].vb);
        xfree(d->facts[f].json);
    }
    xfree(d->facts);
    memset(d, 0, sizeof *d);
}

void diff_region_text(const diff_result *d, const diff_region *r, strbuf *out) {
    int n = 0;
    for (int f = 0; f < d->nfacts; f++) {
        const unsigned char *al = r->allowed[f];
        if (!al) continue;
        int k = 0, last = -1;
        for (int i = 0; i < d->facts[f].nvalues; i++)
            if (al[i]) k++, last = i;
        sb_printf(out, "%s%s ", n++ ? ", " : "", d->facts[f].name);
        if (k == 1) {
            sb_printf(out, "= %s", d->facts[f].names[last]);
            continue;
        }
        sb_puts(out, "in {");
        bool numeric = d->facts[f].ordered;
        for (int i = 0, m = 0; i < d->facts[f].nvalues; i++) {
            if (!al[i]) continue;
            int j = i;
            while (numeric && j + 1 < d->facts[f].nvalues && al[j + 1])
                j++;
            sb_printf(out, "%s%s", m++ ? ", " : "", d->facts[f].names[i]);
            if (j >= i + 2)
                sb_printf(out, "..%s", d->facts[f].names[j]), i = j; /* a run of numbers */
        }
        sb_putc(out, '}');
    }
    if (!n) sb_puts(out, "(every situation)");
}

json_t *diff_region_example(const diff_result *d, const diff_region *r) {
    json_t *ex = json_object();
    for (int f = 0; f < d->nfacts; f++)
        if (r->example[f] >= 0)
            json_object_set(ex, d->facts[f].name, d->facts[f].json[r->example[f]]);
    return ex;
}
