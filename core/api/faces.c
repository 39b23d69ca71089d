/* faces.c — what the faces that show rulesets to people read of them
 * (arbiter.h, "For the server and other faces"): a ruleset and its facts as
 * the web app reads them, a ruling with the question it needs next, and
 * plugins loaded within limits. */
#include "arbiter.h"

#include "protect.h"
#include "eval.h"
#include "output.h"
#include "plugin.h"
#include "scenario.h"
#include "scoring.h"

#include <stdlib.h>
#include <string.h>

/* The caller's copy of a JSON tree (malloc'd), which is given up. */
static char *dump(json_t *j) {
    char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
    return s;
}

/* ---- a ruleset and its facts ---- */

static json_t *choice_json(const ruleset *rs, const rs_type *t, json_t *value, int64_t v) {
    strbuf nl, en;
    sb_init(&nl);
    sb_init(&en);
    rs_format_value(rs, t, v, FMT_DUTCH, &nl);
    rs_format_value(rs, t, v, FMT_ENGLISH, &en);
    json_t *j = json_pack("{soss?ss?}", "value", value, "label", nl.data, "label_en", en.data);
    sb_free(&nl);
    sb_free(&en);
    return j;
}

static json_t *fact_tree(const ruleset *rs, int f) {
    static const char *const kinds[] = {"bool", "enum", "int",
                                        "call", "cite", "string"}; /* enum type_kind */
    const rs_fact *fact = &rs->facts[f];
    const rs_type *t = fact->type;
    json_t *j = json_pack("{ssssss?sssb}", "name", fact->name, "question",
                          fact->ask ? fact->ask : fact->name, "question_en", fact->ask_en, "type",
                          kinds[t->kind], "asked", fact->ask != NULL);
    json_t *choices = json_array();
    if (t->kind == TY_BOOL) {
        json_array_append_new(choices, choice_json(rs, t, json_true(), 1));
        json_array_append_new(choices, choice_json(rs, t, json_false(), 0));
    }
    for (int i = 0; t->kind == TY_ENUM && i < t->nvalues; i++)
        json_array_append_new(choices, choice_json(rs, t, json_string(t->values[i]), i));
    json_object_set_new(j, "choices", choices);
    if (t->kind == TY_INT && t->bounded) {
        json_object_set_new(j, "min", json_integer(t->lo));
        json_object_set_new(j, "max", json_integer(t->hi));
    }
    return j;
}

static char *fact_json_unprotected(const arb_ruleset *rs, int f) {
    if (!rs || f < 0 || f >= rs->nfacts) return NULL;
    return dump(fact_tree(rs, f));
}

char *arb_fact_json(const arb_ruleset *rs, int f) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return NULL;
    }
    char *result = fact_json_unprotected(rs, f);
    api_leave(&g);
    return result;
}

static bool has_english(const ruleset *rs) {
    for (int i = 0; i < rs->nactions; i++)
        if (rs->actions[i].text_en) return true;
    return false;
}

static bool is_klaverjas(const ruleset *rs) {
    return rs->game && strcmp(rs->game, "klaverjas") == 0;
}

static json_t *scores_json(const ruleset *rs) {
    return json_pack("{sbsbsbsb}", "contract", rs->score_article >= 0 && !is_klaverjas(rs), "hand",
                     is_klaverjas(rs) && rs->trick_article >= 0, "matchpoints",
                     rs->matchpoints_article >= 0, "imps", rs->imps_article >= 0);
}

static json_t *articles_json(const ruleset *rs) {
    json_t *articles = json_array();
    for (int a = 0; a < rs->narticles; a++) {
        const rs_article *art = &rs->articles[a];
        json_t *j = json_pack("{ssss}", "id", art->id, "title", art->title ? art->title : "");
        if (art->title_en) json_object_set_new(j, "title_en", json_string(art->title_en));
        json_object_set_new(j, "ruled", json_boolean(art->has_when));
        json_array_append_new(articles, j);
    }
    return articles;
}

static char *ruleset_json_unprotected(const arb_ruleset *rs, int contents) {
    if (!rs) return NULL;
    char hash[32];
    output_hash(rs, hash);
    json_t *j = json_pack("{ssssss}", "name", rs->name, "title", rs->title, "hash", hash);
    json_object_set_new(j, "game", json_string(rs->game ? rs->game : "bridge"));
    json_object_set_new(j, "english", json_boolean(has_english(rs)));
    json_object_set_new(j, "scores", scores_json(rs));
    if (contents) {
        json_t *facts = json_array();
        for (int f = 0; f < rs->nfacts; f++)
            if (rs->facts[f].derived < 0) json_array_append_new(facts, fact_tree(rs, f));
        json_object_set_new(j, "articles", articles_json(rs));
        json_object_set_new(j, "facts", facts);
    }
    return dump(j);
}

char *arb_ruleset_json(const arb_ruleset *rs, int contents) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return NULL;
    }
    char *result = ruleset_json_unprotected(rs, contents);
    api_leave(&g);
    return result;
}

/* ---- a ruling and what it needs next ---- */

/* What a face shows beside a ruling not made yet. */
static void add_next(const ruleset *rs, const ruling *r, json_t *j) {
    if (r->status == RULING_NEEDS) json_object_set_new(j, "question", fact_tree(rs, r->fact));
    if (r->status == RULING_REJECTED) {
        const rs_invariant *inv = &rs->invariants[r->invariant];
        json_object_set_new(
            j, "impossible",
            json_pack("{ssss?}", "message", inv->message, "message_en", inv->message_en));
    }
}

/* A plugin's own fact that a plugin acting on the ruling needs (the
 * scenario does not give it), as fact_tree gives a ruleset's fact, with
 * "from_plugin": true. NULL when there is none. */
static json_t *plugin_question_tree(const arb_plugins *p, const scenario *sc, const ruling *r) {
    plugin_question q;
    if (!p || r->status != RULING_OK || !plugin_set_question(p, sc, r, &q)) return NULL;
    json_t *choices = json_array();
    if (strcmp(q.kind, "bool") == 0) {
        json_array_append_new(choices,
                              json_pack("{sbssss}", "value", 1, "label", "ja", "label_en", "yes"));
        json_array_append_new(choices,
                              json_pack("{sbssss}", "value", 0, "label", "nee", "label_en", "no"));
    }
    return json_pack("{ssssss?sssbsosb}", "name", q.fact, "question", q.ask, "question_en",
                     q.ask_en, "type", q.kind, "asked", 1, "choices", choices, "from_plugin", 1);
}

static enum arb_status rule_next_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                  const char *text, size_t len, char **json) {
    if (!json) return ARB_BAD_INPUT; /* nowhere to say more */
    /* what cannot be read, and a plugin's failure, are answered as arb_rule_json_plugins answers
     * them */
    if (!rs || !text || len > ARB_MAX_LINE) return arb_rule_json_plugins(rs, p, text, len, json);
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = p ? plugin_set_hooks(p) : NULL;
    strbuf err;
    sb_init(&err);
    ruling r;
    bool read = scenario_read_json_placed(&sc, text, len, &err);
    bool ruled = read && scenario_rule(rs, rs->root, &sc, &r, &err);
    enum arb_status st;
    if (!ruled) {
        *json = dump(json_pack("{ssss}", "status", read ? "plugin_error" : "bad_input", "error",
                               err.data ? err.data : ""));
        st = ARB_BAD_INPUT;
    } else {
        json_t *o = output_json(&r, &sc), *asked = plugin_question_tree(p, &sc, &r);
        add_next(rs, &r, o);
        if (asked) json_object_set_new(o, "question", asked);
        *json = dump(o);
        st = r.status == RULING_OK                                     ? ARB_OK
             : r.status == RULING_NEEDS || r.status == RULING_REJECTED ? ARB_BAD_INPUT
                                                                       : ARB_NO_RULING;
    }
    if (read) ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    return st;
}

enum arb_status arb_rule_next_json(const arb_ruleset *rs, const arb_plugins *p, const char *text,
                                   size_t len, char **json) {
    mem_guard g;
    API_PROTECT(g) {
        if (json) *json = api_no_memory_json();
        return ARB_NO_MEMORY;
    }
    enum arb_status result = rule_next_json_unprotected(rs, p, text, len, json);
    api_leave(&g);
    return result;
}

/* ---- a matchpoint sheet's size ---- */

static int sheet_score_count_unprotected(const char *sheet, size_t len) {
    if (!sheet) return -1;
    vec rows;
    vec_init(&rows, sizeof(score_line));
    strbuf err;
    sb_init(&err);
    int n = scoring_parse_sheet(sheet, len, &rows, &err) ? (int)rows.len : -1;
    sb_free(&err);
    vec_free(&rows);
    return n;
}

int arb_sheet_score_count(const char *sheet, size_t len) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return -1;
    }
    int result = sheet_score_count_unprotected(sheet, len);
    api_leave(&g);
    return result;
}

/* ---- plugins within limits ---- */

/* The arguments of arb_load_plugins; false with the reason written. */
static bool plugin_arguments_ok(const arb_ruleset *rs, const char *const *paths, int n,
                                FILE *errors) {
    char why[120] = "";
    if (!rs)
        snprintf(why, sizeof why, "no ruleset to load plugins for: it is NULL");
    else if (n < 0 || n > ARB_MAX_PLUGINS)
        snprintf(why, sizeof why, "%d plugins: give 0 to %d", n, ARB_MAX_PLUGINS);
    else if (n > 0 && !paths)
        snprintf(why, sizeof why, "%d plugins, but no list of paths (NULL)", n);
    for (int i = 0; !why[0] && i < n; i++)
        if (!paths[i]) snprintf(why, sizeof why, "plugin %d of %d is NULL, not a path", i + 1, n);
    if (why[0] && errors) fprintf(errors, "arbiter: %s\n", why);
    return !why[0];
}

/* A limit is a positive number or 0 (the host's default); a negative one is a mistake. */
static bool limits_ok(const arb_plugin_limits *limits, FILE *errors) {
    if (!limits || (limits->instructions >= 0 && limits->time_ms >= 0)) return true;
    if (errors) fprintf(errors, "arbiter: plugin limits must not be negative (0: the default)\n");
    return false;
}

static arb_plugins *load_plugins_limited_unprotected(const arb_ruleset *rs,
                                                     const char *const *paths, int n,
                                                     const arb_plugin_limits *limits,
                                                     FILE *errors) {
    if (!plugin_arguments_ok(rs, paths, n, errors) || !limits_ok(limits, errors)) return NULL;
    plugin_limits host = {0};
    if (limits) host = (plugin_limits){limits->instructions, limits->memory, limits->time_ms};
    arb_plugins *p = xmalloc(sizeof *p);
    strbuf err;
    sb_init(&err);
    if (p && !plugin_set_load(p, rs, paths, n, host, &err)) {
        if (errors) fprintf(errors, "arbiter: %s\n", err.data);
        xfree(p);
        p = NULL;
    }
    sb_free(&err);
    return p;
}

arb_plugins *arb_load_plugins_limited(const arb_ruleset *rs, const char *const *paths, int n,
                                      const arb_plugin_limits *limits, FILE *errors) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(errors);
        return NULL;
    }
    arb_plugins *result = load_plugins_limited_unprotected(rs, paths, n, limits, errors);
    api_leave(&g);
    return result;
}
