/* output.c — rulings as text and JSON. */
#include "output.h"

#include "arbiter.h"
#include "builtins.h"
#include "expr.h"
#include "scoring.h"

#include <string.h>

void output_hash(const ruleset *rs, char buf[32]) {
    snprintf(buf, 32, "fnv1a64:%016llx", (unsigned long long)rs->hash);
}

void output_message(const ruleset *rs, const ruling_action *ra, bool english, strbuf *out) {
    const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
    english = english && a->text_en; /* without an English text, the Dutch one with Dutch values */
    const char *t = english ? a->text_en : a->text;
    while (t && *t) {
        const char *open = strchr(t, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            sb_puts(out, t);
            break;
        }
        sb_putn(out, t, (size_t)(open - t));
        int p = 0;
        while (p < a->nparams && !(strlen(a->params[p].name) == (size_t)(close - open - 1) &&
                                   strncmp(a->params[p].name, open + 1, (size_t)(close - open - 1)) == 0))
            p++;
        if (p < a->nparams) rs_format_value(rs, a->params[p].type, ra->args[p], english ? FMT_ENGLISH : FMT_DUTCH, out);
        t = close + 1;
    }
}

static const char *action_cite(const ruleset *rs, int use) {
    const rs_action_use *u = rs_use_at(rs, use);
    if (u->clause < 0) return "";
    const char *cite = rs->clauses[u->clause].cite;
    return cite ? cite : rs->articles[rs->clauses[u->clause].article].id;
}

json_t *output_trail_json(const ruling *r) {
    json_t *trail = json_array();
    if (r->status != RULING_OK) return trail;
    const rs_outcome *o = rs_outcome_at(r->rs, r->outcome);
    const char *last = NULL;
    for (int i = 0; i < o->ntrail; i++) {
        const char *cite = r->rs->clauses[o->trail[i]].cite;
        if (cite && !(last && strcmp(last, cite) == 0)) json_array_append_new(trail, json_string(cite));
        if (cite) last = cite; /* a clause citing its own article's number is one step */
    }
    for (int i = 0; i < r->nextra_cites; i++) json_array_append_new(trail, json_string(r->extra_cites[i]));
    return trail;
}

/* What plugins added: actions, and for the audit what each did. */
static void extras_json(const ruling *r, json_t *actions, json_t *messages, json_t *messages_en, json_t *o) {
    for (int i = 0; i < r->nextra; i++) {
        const ruling_extra *e = &r->extra[i];
        json_t *act = json_object();
        json_object_set_new(act, "name", json_string(e->name));
        json_object_set_new(act, "args", json_loads(e->args, 0, NULL));
        json_object_set_new(act, "article", json_string(e->cite));
        json_array_append_new(actions, act);
        json_array_append_new(messages, json_string(e->message));
        json_array_append_new(messages_en, json_string(e->message_en));
    }
    if (!r->nnotes) return;
    json_t *plugins = json_array();
    for (int i = 0; i < r->nnotes; i++)
        json_array_append_new(plugins, json_pack("{ssssss}", "plugin", r->notes[i].plugin, "cite", r->notes[i].cite,
                                                 "changed", r->notes[i].what));
    json_object_set_new(o, "plugins", plugins);
}

static json_t *value_json(const ruleset *rs, const rs_type *t, int64_t v) {
    if (t->kind == TY_BOOL) return json_boolean(v);
    if (t->kind == TY_INT) return json_integer(v);
    strbuf sb;
    sb_init(&sb);
    rs_format_value(rs, t, v, FMT_NAME, &sb);
    json_t *j = json_string(sb.data ? sb.data : "");
    sb_free(&sb);
    return j;
}

void output_problem(const ruling *r, strbuf *out) {
    const ruleset *rs = r->rs;
    switch (r->status) {
    case RULING_OK: break;
    case RULING_NEEDS: {
        const rs_fact *f = &rs->facts[r->fact];
        sb_printf(out, "the scenario does not say '%s'", f->name);
        if (f->ask) sb_printf(out, " (%s)", f->ask);
        break;
    }
    case RULING_REJECTED: {
        const rs_invariant *inv = &rs->invariants[r->invariant];
        sb_printf(out, "impossible situation: %s", inv->message_en ? inv->message_en : inv->message);
        if (inv->message_en) sb_printf(out, " (%s)", inv->message);
        break;
    }
    case RULING_GAP:
        if (r->block < 0)
            sb_puts(out, "no article of this ruleset rules on this situation");
        else
            sb_printf(out, "article %s gives no ruling for this situation (%s:%d)",
                      rs->articles[rs->blocks[r->block].article].id, rs->blocks[r->block].loc.file,
                      rs->blocks[r->block].loc.line);
        break;
    case RULING_ERROR: sb_printf(out, "the ruling could not be evaluated: %s", expr_status_text(r->error)); break;
    case RULING_OUTSIDE: {
        const rs_outside *o = &rs->outside[r->outside];
        sb_printf(out, "%s does not rule on this: %s", rs->name, o->message_en ? o->message_en : o->message);
        if (o->message_en) sb_printf(out, " (%s)", o->message);
        break;
    }
    }
}

/* Where a fact's value came from: "given", or the record that settled it. */
static const char *fact_source(const ruleset *rs, const scenario *sc, int f) {
    if (!sc || sc->given[f] || rs->facts[f].builtin < 0) return "given";
    return builtin_at(rs->facts[f].builtin)->ns;
}

static const char *source_text(const char *source) {
    if (strcmp(source, "auction") == 0) return " (uit het biedverloop)";
    if (strcmp(source, "contract") == 0) return " (uit het contract)";
    if (strcmp(source, "scoring") == 0) return " (uit de scores)";
    if (strcmp(source, "play") == 0 || strcmp(source, "trick") == 0 || strcmp(source, "hand") == 0 ||
        strcmp(source, "card") == 0 || strcmp(source, "position") == 0)
        return " (uit het spelverloop)";
    return "";
}

static bool expr_uses(const ruleset *rs, int e, int fact, int depth) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (depth > 64) return true; /* derived facts cannot loop (the compiler refuses cycles); be safe */
    if (x->kind == EX_FACT)
        return x->a == fact || (rs->facts[x->a].derived >= 0 && expr_uses(rs, rs->facts[x->a].derived, fact, depth + 1));
    if (x->kind == EX_CONST) return false;
    if (x->a >= 0 && x->kind != EX_TABLE && expr_uses(rs, x->a, fact, depth + 1)) return true;
    if (x->b >= 0 && expr_uses(rs, x->b, fact, depth + 1)) return true;
    for (int i = 0; x->kind == EX_TABLE && i < x->nargs; i++)
        if (expr_uses(rs, rs_arg(rs, x->args + i), fact, depth + 1)) return true;
    return false;
}

/* Whether a given fact took part in the ruling: the decision tested it, or
 * an action's argument reads it. */
static bool fact_used(const ruling *r, int f) {
    const ruleset *rs = r->rs;
    for (int i = 0; i < r->npath; i++)
        if (r->path_fact[i] == f) return true;
    for (int i = 0; i < r->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, r->actions[i].use);
        for (int p = 0; p < rs->actions[u->action].nparams; p++)
            if (expr_uses(rs, rs_arg(rs, u->args + p), f, 0)) return true;
    }
    return false;
}

json_t *output_unused_json(const ruling *r, const scenario *sc) {
    json_t *unused = json_array();
    for (int f = 0; sc && r->status == RULING_OK && f < r->rs->nfacts; f++)
        if (sc->given[f] && !fact_used(r, f)) json_array_append_new(unused, json_string(r->rs->facts[f].name));
    return unused;
}

static const char *status_name(enum ruling_status s) {
    static const char *const names[] = {"ruling", "needs", "rejected", "gap", "error", "outside"};
    return names[s];
}

json_t *output_json(const ruling *r, const scenario *sc) {
    const ruleset *rs = r->rs;
    char hash[32];
    output_hash(rs, hash);
    json_t *o = json_object();
    json_object_set_new(o, "ruleset", json_string(rs->name));
    json_object_set_new(o, "ruleset_hash", json_string(hash));
    if (sc && sc->hooks && sc->hooks->describe)
        json_object_set_new(o, "plugin_files", sc->hooks->describe(sc->hooks->ctx));
    json_object_set_new(o, "status", json_string(status_name(r->status)));
    if (r->status != RULING_OK) {
        strbuf sb;
        sb_init(&sb);
        output_problem(r, &sb);
        json_object_set_new(o, "error", json_string(sb.data));
        sb_free(&sb);
        if (r->status == RULING_NEEDS) json_object_set_new(o, "needs", json_string(rs->facts[r->fact].name));
    }
    json_object_set_new(o, "articles", output_trail_json(r));
    json_t *actions = json_array(), *messages = json_array(), *messages_en = json_array();
    for (int i = 0; r->status == RULING_OK && !r->replaced && i < r->nactions; i++) {
        const ruling_action *ra = &r->actions[i];
        if (ra->dropped) continue;
        const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
        json_t *act = json_object(), *args = json_object();
        json_object_set_new(act, "name", json_string(a->name));
        for (int p = 0; p < a->nparams; p++)
            json_object_set_new(args, a->params[p].name, value_json(rs, a->params[p].type, ra->args[p]));
        json_object_set_new(act, "args", args);
        json_object_set_new(act, "article", json_string(action_cite(rs, ra->use)));
        json_array_append_new(actions, act);
        strbuf m;
        sb_init(&m);
        output_message(rs, ra, false, &m);
        json_array_append_new(messages, json_string(m.data ? m.data : ""));
        sb_free(&m);
        output_message(rs, ra, true, &m);
        json_array_append_new(messages_en, json_string(m.data ? m.data : ""));
        sb_free(&m);
    }
    extras_json(r, actions, messages, messages_en, o);
    json_object_set_new(o, "actions", actions);
    json_object_set_new(o, "messages", messages);
    json_object_set_new(o, "messages_en", messages_en);
    json_t *path = json_array();
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        json_t *step = json_object();
        json_object_set_new(step, "fact", json_string(f->name));
        json_object_set_new(step, "value", value_json(rs, f->type, r->path_value[i]));
        json_object_set_new(step, "source", json_string(fact_source(rs, sc, r->path_fact[i])));
        json_array_append_new(path, step);
    }
    json_object_set_new(o, "decided_by", path);
    json_object_set_new(o, "unused", output_unused_json(r, sc));
    return o;
}

json_t *output_ruling_part_json(const ruling *r, const scenario *sc) {
    json_t *j = output_json(r, sc);
    json_object_del(j, "ruleset");
    json_object_del(j, "ruleset_hash");
    json_object_del(j, "unused");
    return j;
}

json_t *output_answer_json(const ruleset *rs) {
    char hash[32];
    output_hash(rs, hash);
    return json_pack("{ssss}", "ruleset", rs->name, "ruleset_hash", hash);
}

/* The plugins that took part, each with its file's hash, so that a ruling
 * kept on paper says which version of each spoke. */
static void output_plugin_files(const scenario *sc, FILE *out) {
    if (!sc || !sc->hooks || !sc->hooks->describe) return;
    json_t *files = sc->hooks->describe(sc->hooks->ctx), *f;
    size_t i;
    json_array_foreach(files, i, f)
        fprintf(out, "Plugin-bestand: %s (%s), %s\n", json_string_value(json_object_get(f, "file")),
                json_string_value(json_object_get(f, "name")),
                json_string_value(json_object_get(f, "hash")));
    json_decref(files);
}

void output_text(const ruling *r, const scenario *sc, FILE *out) {
    const ruleset *rs = r->rs;
    char hash[32];
    output_hash(rs, hash);
    fprintf(out, "Uitspraak volgens %s (%s)\n", rs->title, rs->name);
    if (r->status != RULING_OK) {
        strbuf sb;
        sb_init(&sb);
        output_problem(r, &sb);
        fprintf(out, "Geen uitspraak: %s\n", sb.data);
        sb_free(&sb);
        return;
    }
    fputs("Artikelen:", out);
    json_t *trail = output_trail_json(r);
    size_t k;
    json_t *cite;
    json_array_foreach(trail, k, cite) fprintf(out, "%s%s", k ? " > " : " ", json_string_value(cite));
    json_decref(trail);
    fputs("\nUitspraak:\n", out);
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        if (r->actions[i].dropped) continue;
        strbuf m;
        sb_init(&m);
        output_message(rs, &r->actions[i], false, &m);
        fprintf(out, "  [%s] %s\n", action_cite(rs, r->actions[i].use), m.data ? m.data : "");
        sb_free(&m);
    }
    for (int i = 0; i < r->nextra; i++) fprintf(out, "  [%s] %s\n", r->extra[i].cite, r->extra[i].message);
    for (int i = 0; i < r->nnotes; i++)
        fprintf(out, "Plugin %s (%s): %s\n", r->notes[i].plugin, r->notes[i].cite, r->notes[i].what);
    if (r->npath) fputs("Beslist op grond van:\n", out);
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        strbuf v;
        sb_init(&v);
        rs_format_value(rs, f->type, r->path_value[i], FMT_DUTCH, &v);
        fprintf(out, "  %s: %s%s\n", f->ask ? f->ask : f->name, v.data,
                source_text(fact_source(rs, sc, r->path_fact[i])));
        sb_free(&v);
    }
    json_t *unused = output_unused_json(r, sc);
    size_t i;
    json_t *name;
    json_array_foreach(unused, i, name) fprintf(out, "%s%s", i ? ", " : "Speelde geen rol: ", json_string_value(name));
    if (json_array_size(unused)) fputc('\n', out);
    json_decref(unused);
    fprintf(out, "Regelset: %s\n", hash);
    output_plugin_files(sc, out);
}

/* ---- compare: one scenario under several rulesets (editions) ---- */

static json_t *unreadable_json(const ruleset *rs, const char *error) {
    json_t *o = json_object();
    json_object_set_new(o, "ruleset", json_string(rs->name));
    json_object_set_new(o, "title", json_string(rs->title));
    json_object_set_new(o, "status", json_string("bad_input"));
    json_object_set_new(o, "error", json_string(error));
    return o;
}

/* The score of the scenario's contract, when the ruleset scores one. */
static void add_contract_score(const ruleset *rs, scenario *sc, json_t *out) {
    strbuf err;
    sb_init(&err);
    int article = sc->rec.has_contract ? scoring_article(rs, SCORE_CONTRACT, &err) : -1;
    ruling sr = {0};
    int64_t total;
    if (article >= 0 && scoring_rule(rs, article, sc, &sr, &total, &err)) {
        json_object_set_new(out, "score", json_integer(total));
        json_object_set_new(out, "score_articles", output_trail_json(&sr));
    }
    ruling_clear(&sr);
    sb_free(&err);
}

int output_compared_json(const ruleset *rs, const scenario_hooks *hooks, const char *text, size_t len, json_t **out,
                          strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf why;
    sb_init(&why);
    int status = ARB_OK;
    ruling r = {0};
    if (!scenario_read_json(&sc, text, len, &why)) {
        *out = unreadable_json(rs, why.data);
        status = ARB_BAD_INPUT;
    } else {
        if (!scenario_rule(rs, rs->root, &sc, &r, err)) status = ARB_BAD_INPUT;
        *out = output_json(&r, &sc);
        json_object_set_new(*out, "title", json_string(rs->title));
        if (status == ARB_OK)
            status = r.status == RULING_OK                                             ? ARB_OK
                     : r.status == RULING_NEEDS || r.status == RULING_REJECTED ? ARB_BAD_INPUT
                                                                                : ARB_NO_RULING;
        add_contract_score(rs, &sc, *out);
    }
    ruling_clear(&r);
    sb_free(&why);
    scenario_free(&sc);
    return status;
}

static bool action_in(json_t *action, json_t *actions) {
    size_t i;
    json_t *other;
    json_array_foreach(actions, i, other) {
        if (json_equal(json_object_get(action, "name"), json_object_get(other, "name")) &&
            json_equal(json_object_get(action, "args"), json_object_get(other, "args")))
            return true;
    }
    return false;
}

json_t *output_differences_json(json_t *a, json_t *b) {
    json_t *d = json_object();
    if (!json_equal(json_object_get(a, "status"), json_object_get(b, "status")))
        json_object_set_new(d, "status", json_pack("[OO]", json_object_get(a, "status"), json_object_get(b, "status")));
    if (!json_equal(json_object_get(a, "articles"), json_object_get(b, "articles")))
        json_object_set_new(d, "articles", json_pack("[OO]", json_object_get(a, "articles"), json_object_get(b, "articles")));
    json_t *sides[2] = {a, b}, *only = json_array();
    for (int s = 0; s < 2; s++) {
        json_t *mine = json_array(), *acts = json_object_get(sides[s], "actions");
        size_t i;
        json_t *act;
        json_array_foreach(acts, i, act)
            if (!action_in(act, json_object_get(sides[1 - s], "actions"))) json_array_append(mine, act);
        json_array_append_new(only, mine);
    }
    if (json_array_size(json_array_get(only, 0)) || json_array_size(json_array_get(only, 1)))
        json_object_set(d, "actions_only_in", only);
    json_decref(only);
    json_t *sa = json_object_get(a, "score"), *sb = json_object_get(b, "score");
    if ((sa || sb) && !json_equal(sa, sb)) json_object_set_new(d, "score", json_pack("[OO]", sa ? sa : json_null(), sb ? sb : json_null()));
    return d;
}
