/* api/ruling.c — the public ruling: a scenario built from JSON and a
 * director's answers, ruled, and read field by field (arbiter.h, "A ruling
 * read field by field"). What it guarantees: every string it hands out is
 * owned by the scenario or the ruling it came from and lives until that is
 * freed; nothing here aborts on a bad argument (a NULL, an index out of
 * range): it answers NULL, 0 or ARB_BAD_INPUT. */
#include "arbiter.h"

#include "protect.h"

#include "eval.h"
#include "output.h"
#include "scenario.h"
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

struct arb_scenario {
    const arb_ruleset *rs;
    const arb_plugins *plugins; /* whose own facts the scenario's JSON may give; NULL: none */
    scenario sc;
    json_t *source; /* the JSON objects read into it, merged: its records, for arb_scenario_json */
};

/* One action of a ruling, in words: the ruleset's own, then what plugins added. */
typedef struct action_view {
    const char *name, *cite, *message, *message_en;
    int nargs;
    const char **arg_names, **arg_values;
} action_view;

/* A fact on the ruling's path, with its value in Dutch and where the value came from. */
typedef struct decided_view {
    int fact;
    const char *value, *source;
} decided_view;

struct arb_ruling {
    const arb_scenario *sc;
    ruling r;
    enum arb_status status; /* what `arbiter rule` exits with */
    bool failed;            /* a plugin failed: no ruling to read */
    char *error;            /* a plugin's failure, or why no ruling */
    arena *strings;         /* everything handed out, made on first use */
    const char **trail;
    int ntrail;
    action_view *actions;
    int nactions;
    bool viewed;
    decided_view *decided; /* the facts of the path, made when ruled */
    int ndecided;
};

/* ---- scenarios ------------------------------------------------------------ */

arb_scenario *arb_scenario_new(const arb_ruleset *rs) {
    return arb_scenario_new_plugins(rs, NULL);
}

static arb_scenario *scenario_new_plugins_unprotected(const arb_ruleset *rs,
                                                      const arb_plugins *plugins) {
    if (!rs) return NULL;
    arb_scenario *s = xcalloc(1, sizeof *s);
    if (!s) return NULL;
    s->rs = rs;
    s->plugins = plugins;
    scenario_init(&s->sc, rs);
    s->sc.hooks = plugins ? plugin_set_hooks(plugins) : NULL;
    return s;
}

arb_scenario *arb_scenario_new_plugins(const arb_ruleset *rs, const arb_plugins *plugins) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return NULL;
    }
    arb_scenario *result = scenario_new_plugins_unprotected(rs, plugins);
    api_leave(&g);
    return result;
}

void arb_scenario_free(arb_scenario *s) {
    if (!s) return;
    scenario_free(&s->sc);
    json_decref(s->source);
    xfree(s);
}

static enum arb_status refuse(char **error, const char *msg) {
    if (error) *error = xstrdup(msg ? msg : "bad input");
    return ARB_BAD_INPUT;
}

/* Out of memory while reading into a scenario made before the call: the
 * plugins' own facts it held (a JSON object that may have taken blocks of
 * this call) go, so that it keeps no block the call frees. */
static void drop_own_facts_unwound(void *sc) {
    json_decref(((scenario *)sc)->own);
    ((scenario *)sc)->own = NULL;
}

static enum arb_status scenario_read_json_unprotected(arb_scenario *s, const char *json, size_t len,
                                                      char **error) {
    if (error) *error = NULL;
    if (!s || !json) return refuse(error, "arb_scenario_read_json: no scenario or no text");
    if (len > ARB_MAX_LINE) return refuse(error, "the scenario is longer than ARB_MAX_LINE bytes");
    strbuf err;
    sb_init(&err);
    int undo = mem_defer(drop_own_facts_unwound, &s->sc);
    bool ok = scenario_read_json(&s->sc, json, len, &err);
    mem_undefer(undo);
    enum arb_status st = ok ? ARB_OK : refuse(error, err.data);
    sb_free(&err);
    /* The text kept for arb_scenario_json: built apart and hung on the
     * scenario only once nothing more is allocated (core/base/mem.h). */
    json_t *obj = ok ? json_loadb(json, len, 0, NULL) : NULL;
    if (obj && s->source) {
        json_t *merged = json_deep_copy(s->source);
        json_object_update(merged, obj);
        json_decref(obj);
        obj = merged;
    }
    if (obj) {
        json_decref(s->source);
        s->source = obj;
    }
    return st;
}

static char *scenario_json_unprotected(const arb_scenario *s) {
    if (!s) return NULL;
    const ruleset *rs = s->rs;
    json_t *o = s->source ? json_deep_copy(s->source) : json_object(), *corrected = json_array();
    for (int f = 0; f < rs->nfacts; f++) {
        const char *name = rs->facts[f].name;
        if (!s->sc.given[f]) {
            json_object_del(o, name); /* forgotten since it was read */
            continue;
        }
        json_object_set_new(o, name, output_value_json(rs, rs->facts[f].type, s->sc.fv.value[f]));
        if (s->sc.corrected[f]) json_array_append_new(corrected, json_string(name));
    }
    json_object_del(o, "corrected");
    if (json_array_size(corrected)) json_object_set(o, "corrected", corrected);
    json_decref(corrected);
    if (s->sc.own) json_object_update(o, s->sc.own);
    char *text = json_dumps(o, JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}

char *arb_scenario_json(const arb_scenario *s) {
    mem_guard g;
    API_PROTECT(g) {
        return NULL;
    }
    char *result = scenario_json_unprotected(s);
    api_leave(&g);
    return result;
}

enum arb_status arb_scenario_read_json(arb_scenario *s, const char *json, size_t len,
                                       char **error) {
    mem_guard g;
    API_PROTECT(g) {
        if (error) *error = api_no_memory_text();
        return ARB_NO_MEMORY;
    }
    enum arb_status result = scenario_read_json_unprotected(s, json, len, error);
    api_leave(&g);
    return result;
}

static enum arb_status scenario_answer_unprotected(arb_scenario *s, const char *fact,
                                                   const char *answer, char **error) {
    if (error) *error = NULL;
    if (!s || !fact || !answer)
        return refuse(error, "arb_scenario_answer: no scenario, fact or answer");
    int f = rs_find_fact(s->rs, fact);
    if (f < 0 && plugin_set_has_fact(s->plugins, fact)) /* the plugin checks its own answers */
        return refuse(error, "a plugin's own fact: answer it with arb_scenario_answer_plugin");
    if (f < 0) return refuse(error, "no such fact in this ruleset");
    int64_t v;
    strbuf err;
    sb_init(&err);
    bool ok = scenario_parse_answer(s->rs, f, answer, &v, &err);
    if (ok) scenario_give(&s->sc, f, v);
    enum arb_status st = ok ? ARB_OK : refuse(error, err.data);
    sb_free(&err);
    return st;
}

enum arb_status arb_scenario_answer(arb_scenario *s, const char *fact, const char *answer,
                                    char **error) {
    mem_guard g;
    API_PROTECT(g) {
        if (error) *error = api_no_memory_text();
        return ARB_NO_MEMORY;
    }
    enum arb_status result = scenario_answer_unprotected(s, fact, answer, error);
    api_leave(&g);
    return result;
}

enum arb_status arb_scenario_error_position(const arb_scenario *s, int *line, int *col) {
    if (line) *line = s ? s->sc.err_line : 0;
    if (col) *col = s ? s->sc.err_col : 0;
    return s ? ARB_OK : ARB_BAD_INPUT;
}

void arb_scenario_forget(arb_scenario *s, const char *fact) {
    int f = s && fact ? rs_find_fact(s->rs, fact) : -1;
    if (f >= 0)
        scenario_forget(&s->sc, f);
    else if (s && fact && json_object_get(s->sc.own, fact)) { /* a plugin's own fact */
        json_object_del(s->sc.own, fact);
        json_object_del(s->source, fact); /* or arb_scenario_json would still give it */
    }
}

/* ---- ruling ------------------------------------------------------------ */

static const arb_ruling *viewed(const arb_ruling *cr);

/* The one mapping from a ruling to the CLI's exit status: a ruling is 0; a
 * question the scenario leaves open, or an impossible situation, is the
 * input's fault (2); a gap, an error or a situation outside the ruleset is
 * "no ruling" (1). */
enum arb_status arb_status_of(enum arb_ruling_status s) {
    switch (s) {
    case ARB_RULED:
        return ARB_OK;
    case ARB_NEEDS:
    case ARB_REJECTED:
    case ARB_FAILED:
        return ARB_BAD_INPUT;
    case ARB_GAP:
    case ARB_OUTSIDE:
    case ARB_EVAL_ERROR:
        return ARB_NO_RULING;
    }
    return ARB_BAD_INPUT;
}

/* The path's facts, their values and sources, taken now: the scenario may
 * change after the ruling (the director answers on). */
static void record_decided(arb_ruling *out, const ruleset *rs, const scenario *sc) {
    const ruling *r = &out->r;
    if (r->npath <= 0) return;
    out->strings = arena_new();
    out->decided = arena_alloc(out->strings, sizeof(decided_view) * (size_t)r->npath);
    for (int i = 0; i < r->npath; i++) {
        int f = r->path_fact[i];
        strbuf v;
        sb_init(&v);
        rs_format_value(rs, rs->facts[f].type, r->path_value[i], FMT_DUTCH, &v);
        out->decided[out->ndecided++] =
            (decided_view){.fact = f,
                           .value = arena_strdup(out->strings, v.data ? v.data : ""),
                           .source = output_fact_source(rs, sc, f)};
        sb_free(&v);
    }
}

static arb_ruling *rule_unprotected(const arb_ruleset *rs, const arb_plugins *plugins,
                                    arb_scenario *s) {
    if (!rs || !s || s->rs != rs) return NULL;
    arb_ruling *out = xcalloc(1, sizeof *out);
    if (!out) return NULL;
    out->sc = s;
    s->sc.hooks = plugins ? plugin_set_hooks(plugins) : NULL;
    strbuf err;
    sb_init(&err);
    if (!scenario_rule(rs, rs->root, &s->sc, &out->r, &err)) {
        out->error = xstrdup(err.data ? err.data : "a plugin failed");
        out->failed = true;
        out->status = ARB_BAD_INPUT;
    } else {
        record_decided(out, rs, &s->sc);
        out->status = arb_status_of(arb_ruling_status(out));
        if (out->r.status != RULING_OK) {
            ruling_problem(&out->r, &err);
            out->error = xstrdup(err.data ? err.data : "");
        }
    }
    s->sc.hooks = s->plugins ? plugin_set_hooks(s->plugins) : NULL;
    sb_free(&err);
    viewed(out); /* now, in this call: the accessors that read it allocate nothing */
    return out;
}

arb_ruling *arb_rule(const arb_ruleset *rs, const arb_plugins *plugins, arb_scenario *s) {
    mem_guard g;
    API_PROTECT(g) {
        s->sc.hooks = s->plugins ? plugin_set_hooks(s->plugins) : NULL;
        api_no_memory_on(NULL);
        return NULL;
    }
    arb_ruling *result = rule_unprotected(rs, plugins, s);
    api_leave(&g);
    return result;
}

void arb_ruling_free(arb_ruling *r) {
    if (!r) return;
    ruling_clear(&r->r);
    xfree(r->error);
    if (r->strings) arena_free(r->strings);
    xfree(r);
}

enum arb_ruling_status arb_ruling_status(const arb_ruling *r) {
    if (!r || r->failed) return ARB_FAILED;
    switch (r->r.status) {
    case RULING_OK:
        return ARB_RULED;
    case RULING_NEEDS:
        return ARB_NEEDS;
    case RULING_REJECTED:
        return ARB_REJECTED;
    case RULING_GAP:
        return ARB_GAP;
    case RULING_ERROR:
        return ARB_EVAL_ERROR;
    case RULING_OUTSIDE:
        return ARB_OUTSIDE;
    }
    return ARB_FAILED;
}

enum arb_status arb_ruling_exit_status(const arb_ruling *r) {
    return r ? r->status : ARB_BAD_INPUT;
}

const char *arb_ruling_error(const arb_ruling *r) {
    return r ? r->error : NULL;
}

const char *arb_ruling_needs(const arb_ruling *r) {
    if (!r || r->failed || r->r.status != RULING_NEEDS) return NULL;
    return r->r.rs->facts[r->r.fact].name;
}

/* The trail and the actions in words, made once, when the ruling is made. */
static action_view view_own(arena *a, const ruleset *rs, const ruling_action *ra) {
    const rs_action_use *u = rs_use_at(rs, ra->use);
    const rs_action *act = &rs->actions[u->action];
    action_view v = {.name = act->name, .nargs = act->nparams};
    const char *cite = u->clause >= 0 ? rs->clauses[u->clause].cite : NULL;
    v.cite = cite ? cite : u->clause >= 0 ? rs->articles[rs->clauses[u->clause].article].id : "";
    v.arg_names = arena_alloc(a, sizeof(char *) * (size_t)(v.nargs + 1));
    v.arg_values = arena_alloc(a, sizeof(char *) * (size_t)(v.nargs + 1));
    strbuf sb;
    for (int p = 0; p < v.nargs; p++) {
        sb_init(&sb);
        rs_format_value(rs, act->params[p].type, ra->args[p], FMT_NAME, &sb);
        v.arg_names[p] = act->params[p].name;
        v.arg_values[p] = arena_strdup(a, sb.data ? sb.data : "");
        sb_free(&sb);
    }
    for (int english = 0; english < 2; english++) {
        sb_init(&sb);
        output_message(rs, ra, english, &sb);
        *(english ? &v.message_en : &v.message) = arena_strdup(a, sb.data ? sb.data : "");
        sb_free(&sb);
    }
    return v;
}

static action_view view_extra(arena *a, const ruling_extra *e) {
    action_view v = {.name = arena_strdup(a, e->name),
                     .cite = arena_strdup(a, e->cite ? e->cite : ""),
                     .message = arena_strdup(a, e->message ? e->message : ""),
                     .message_en = arena_strdup(a, e->message_en ? e->message_en : "")};
    json_t *args = e->args ? json_loads(e->args, 0, NULL) : NULL;
    v.nargs = json_is_object(args) ? (int)json_object_size(args) : 0;
    v.arg_names = arena_alloc(a, sizeof(char *) * (size_t)(v.nargs + 1));
    v.arg_values = arena_alloc(a, sizeof(char *) * (size_t)(v.nargs + 1));
    const char *key;
    json_t *val;
    int p = 0;
    json_object_foreach(args, key, val) {
        v.arg_names[p] = arena_strdup(a, key);
        char *text = json_is_string(val) ? NULL : json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
        v.arg_values[p++] = arena_strdup(a, text ? text : json_string_value(val));
        xfree(text);
    }
    json_decref(args);
    return v;
}

static const arb_ruling *viewed(const arb_ruling *cr) {
    arb_ruling *r = (arb_ruling *)cr; /* the views are a cache: the ruling does not change */
    if (!r || r->viewed || r->failed) return r;
    r->viewed = true;
    if (!r->strings) r->strings = arena_new();
    r->ntrail = ruling_trail(&r->r, NULL, 0);
    r->trail = arena_alloc(r->strings, sizeof(char *) * (size_t)(r->ntrail + 1));
    ruling_trail(&r->r, r->trail,
                 r->ntrail); /* the ruleset's strings or the ruling's own: they live as long */
    if (r->r.status != RULING_OK) return r;
    int own = r->r.replaced ? 0 : r->r.nactions;
    r->actions = arena_alloc(r->strings, sizeof(action_view) * (size_t)(own + r->r.nextra + 1));
    for (int i = 0; i < own; i++)
        if (!r->r.actions[i].dropped)
            r->actions[r->nactions++] = view_own(r->strings, r->r.rs, &r->r.actions[i]);
    for (int i = 0; i < r->r.nextra; i++)
        r->actions[r->nactions++] = view_extra(r->strings, &r->r.extra[i]);
    return r;
}

int arb_ruling_trail_count(const arb_ruling *r) {
    return r && !viewed(r)->failed ? r->ntrail : 0;
}

const char *arb_ruling_trail(const arb_ruling *r, int i) {
    return i >= 0 && i < arb_ruling_trail_count(r) ? r->trail[i] : NULL;
}

int arb_ruling_action_count(const arb_ruling *r) {
    return r && !viewed(r)->failed ? r->nactions : 0;
}

static const action_view *action_at(const arb_ruling *r, int i) {
    return i >= 0 && i < arb_ruling_action_count(r) ? &r->actions[i] : NULL;
}

const char *arb_ruling_action(const arb_ruling *r, int i) {
    const action_view *v = action_at(r, i);
    return v ? v->name : NULL;
}

const char *arb_ruling_action_cite(const arb_ruling *r, int i) {
    const action_view *v = action_at(r, i);
    return v ? v->cite : NULL;
}

const char *arb_ruling_message(const arb_ruling *r, int i, enum arb_lang lang) {
    const action_view *v = action_at(r, i);
    return v ? lang == ARB_EN ? v->message_en : v->message : NULL;
}

int arb_ruling_arg_count(const arb_ruling *r, int i) {
    const action_view *v = action_at(r, i);
    return v ? v->nargs : 0;
}

const char *arb_ruling_arg_name(const arb_ruling *r, int i, int j) {
    const action_view *v = action_at(r, i);
    return v && j >= 0 && j < v->nargs ? v->arg_names[j] : NULL;
}

const char *arb_ruling_arg(const arb_ruling *r, int i, int j) {
    const action_view *v = action_at(r, i);
    return v && j >= 0 && j < v->nargs ? v->arg_values[j] : NULL;
}

const char *arb_ruling_invariant(const arb_ruling *r, enum arb_lang lang) {
    if (!r || r->failed || r->r.status != RULING_REJECTED) return NULL;
    const rs_invariant *inv = &r->r.rs->invariants[r->r.invariant];
    return lang == ARB_EN && inv->message_en ? inv->message_en : inv->message;
}

int arb_ruling_decided_count(const arb_ruling *r) {
    return r && !r->failed ? r->ndecided : 0;
}

static const decided_view *decided_at(const arb_ruling *r, int i) {
    return i >= 0 && i < arb_ruling_decided_count(r) ? &r->decided[i] : NULL;
}

int arb_ruling_decided_fact(const arb_ruling *r, int i) {
    const decided_view *d = decided_at(r, i);
    return d ? d->fact : -1;
}

const char *arb_ruling_decided_value(const arb_ruling *r, int i) {
    const decided_view *d = decided_at(r, i);
    return d ? d->value : NULL;
}

const char *arb_ruling_decided_source(const arb_ruling *r, int i) {
    const decided_view *d = decided_at(r, i);
    return d ? d->source : NULL;
}

static enum arb_status ruling_text_unprotected(const arb_ruling *r, FILE *out) {
    if (!r || !out || r->failed) return ARB_BAD_INPUT;
    output_text(&r->r, &r->sc->sc, out);
    return ARB_OK;
}

enum arb_status arb_ruling_text(const arb_ruling *r, FILE *out) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = ruling_text_unprotected(r, out);
    api_leave(&g);
    return result;
}

static char *ruling_json_unprotected(const arb_ruling *r) {
    if (!r) return NULL;
    json_t *o;
    if (r->failed) {
        o = json_pack("{ssss}", "status", "plugin_error", "error", r->error ? r->error : "");
    } else {
        o = output_json(&r->r, &r->sc->sc);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

char *arb_ruling_json(const arb_ruling *r) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return NULL;
    }
    char *result = ruling_json_unprotected(r);
    api_leave(&g);
    return result;
}

/* ---- the ruleset's facts: what a director is asked ------------------------- */

static const rs_fact *fact_at(const arb_ruleset *rs, int f) {
    return rs && f >= 0 && f < rs->nfacts ? &rs->facts[f] : NULL;
}

int arb_fact_count(const arb_ruleset *rs) {
    return rs ? rs->nfacts : 0;
}

int arb_fact_find(const arb_ruleset *rs, const char *name) {
    return rs && name ? rs_find_fact(rs, name) : -1;
}

const char *arb_fact_name(const arb_ruleset *rs, int f) {
    const rs_fact *fact = fact_at(rs, f);
    return fact ? fact->name : NULL;
}

const char *arb_article_title(const arb_ruleset *rs, const char *id, enum arb_lang lang) {
    int a = rs && id ? rs_find_article(rs, id) : -1;
    if (a < 0) return NULL;
    const rs_article *art = &rs->articles[a];
    return lang == ARB_EN && art->title_en ? art->title_en : art->title ? art->title : "";
}

const char *arb_fact_question(const arb_ruleset *rs, int f, enum arb_lang lang) {
    const rs_fact *fact = fact_at(rs, f);
    if (!fact) return NULL;
    const char *q = lang == ARB_EN && fact->ask_en ? fact->ask_en : fact->ask;
    return q ? q : fact->name;
}

int arb_fact_choice_count(const arb_ruleset *rs, int f) {
    const rs_fact *fact = fact_at(rs, f);
    if (!fact) return 0;
    return fact->type->kind == TY_ENUM ? fact->type->nvalues : fact->type->kind == TY_BOOL ? 2 : 0;
}

const char *arb_fact_choice(const arb_ruleset *rs, int f, int k) {
    if (k < 0 || k >= arb_fact_choice_count(rs, f)) return NULL;
    const rs_type *t = rs->facts[f].type;
    if (t->kind == TY_BOOL) return k ? "ja" : "nee";
    return t->values[k];
}

const char *arb_fact_choice_label(const arb_ruleset *rs, int f, int k, enum arb_lang lang) {
    if (k < 0 || k >= arb_fact_choice_count(rs, f)) return NULL;
    const rs_type *t = rs->facts[f].type;
    if (t->kind == TY_BOOL) return lang == ARB_EN ? (k ? "yes" : "no") : (k ? "ja" : "nee");
    const char *label = lang == ARB_EN && t->labels_en && t->labels_en[k] ? t->labels_en[k]
                        : t->labels                                       ? t->labels[k]
                                                                          : NULL;
    return label ? label : t->values[k];
}

enum arb_fact_kind arb_fact_kind(const arb_ruleset *rs, int f) {
    const rs_fact *fact = fact_at(rs, f);
    if (!fact) return ARB_FACT_NONE;
    switch (fact->type->kind) {
    case TY_BOOL:
        return ARB_FACT_BOOL;
    case TY_ENUM:
        return ARB_FACT_ENUM;
    case TY_INT:
        return ARB_FACT_INT;
    case TY_CALL:
        return ARB_FACT_CALL;
    case TY_CITE:
    case TY_STRING:
        return ARB_FACT_TEXT;
    }
    return ARB_FACT_NONE;
}

int arb_fact_range(const arb_ruleset *rs, int f, long long *lo, long long *hi) {
    const rs_fact *fact = fact_at(rs, f);
    if (!fact || fact->type->kind != TY_INT || !fact->type->bounded) return 0;
    if (lo) *lo = (long long)fact->type->lo;
    if (hi) *hi = (long long)fact->type->hi;
    return 1;
}

/* ---- a plugin's own questions ------------------------------------------------ */

static int plugin_question_next_unprotected(const arb_plugins *p, const arb_scenario *s,
                                            const arb_ruling *r, arb_plugin_question *q) {
    if (!p || !s || !r || !q || r->sc != s || r->failed || !plugin_set_for(p, s->sc.rs)) return -1;
    plugin_question pq;
    if (!plugin_set_question(p, &s->sc, &r->r, &pq)) return 0;
    *q = (arb_plugin_question){pq.fact, pq.kind, pq.ask, pq.ask_en};
    return 1;
}

int arb_plugin_question_next(const arb_plugins *p, const arb_scenario *s, const arb_ruling *r,
                             arb_plugin_question *q) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return -1;
    }
    int result = plugin_question_next_unprotected(p, s, r, q);
    api_leave(&g);
    return result;
}

static enum arb_status scenario_answer_plugin_unprotected(arb_scenario *s,
                                                          const arb_plugin_question *q,
                                                          const char *answer, char **error) {
    if (error) *error = NULL;
    if (!s || !q || !q->fact || !q->kind || !answer)
        return refuse(error, "arb_scenario_answer_plugin: no scenario, question or answer");
    plugin_question pq = {q->fact, q->kind, q->ask, q->ask_en};
    strbuf err;
    sb_init(&err);
    bool ok = plugin_answer(&s->sc, &pq, answer, &err);
    enum arb_status st = ok ? ARB_OK : refuse(error, err.data);
    sb_free(&err);
    return st;
}

enum arb_status arb_scenario_answer_plugin(arb_scenario *s, const arb_plugin_question *q,
                                           const char *answer, char **error) {
    mem_guard g;
    API_PROTECT(g) {
        if (error) *error = api_no_memory_text();
        return ARB_NO_MEMORY;
    }
    enum arb_status result = scenario_answer_plugin_unprotected(s, q, answer, error);
    api_leave(&g);
    return result;
}
