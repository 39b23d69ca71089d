/* output.c — rulings as text and JSON. */
#include "output.h"

#include "arbiter.h"
#include "builtins.h"
#include "expr.h"

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
        while (p < a->nparams &&
               !(strlen(a->params[p].name) == (size_t)(close - open - 1) &&
                 strncmp(a->params[p].name, open + 1, (size_t)(close - open - 1)) == 0))
            p++;
        if (p < a->nparams)
            rs_format_value(rs, a->params[p].type, ra->args[p], english ? FMT_ENGLISH : FMT_DUTCH,
                            out);
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
    int n = ruling_trail(r, NULL, 0);
    const char **cites = xcalloc((size_t)n + 1, sizeof *cites);
    ruling_trail(r, cites, n);
    for (int i = 0; i < n; i++)
        json_array_append_new(trail, json_string(cites[i]));
    xfree(cites);
    return trail;
}

/* What plugins added: actions, and for the audit what each did. */
static void extras_json(const ruling *r, json_t *actions, json_t *messages, json_t *messages_en,
                        json_t *o) {
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
        json_array_append_new(plugins, json_pack("{ssssss}", "plugin", r->notes[i].plugin, "cite",
                                                 r->notes[i].cite, "changed", r->notes[i].what));
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

/* Where a fact's value came from: "given", "default" (the scenario was
 * silent and the fact's default was assumed), or the record that settled it. */
const char *output_fact_source(const ruleset *rs, const scenario *sc, int f) {
    if (sc && sc->assumed[f]) return "default";
    if (!sc || sc->given[f] || rs->facts[f].builtin < 0) return "given";
    return builtin_at(rs->facts[f].builtin)->ns;
}

static const char *source_text(const char *source) {
    if (strcmp(source, "default") == 0) return " (aangenomen: het scenario zegt het niet)";
    if (strcmp(source, "auction") == 0) return " (uit het biedverloop)";
    if (strcmp(source, "contract") == 0) return " (uit het contract)";
    if (strcmp(source, "scoring") == 0) return " (uit de scores)";
    if (strcmp(source, "play") == 0 || strcmp(source, "trick") == 0 ||
        strcmp(source, "hand") == 0 || strcmp(source, "card") == 0 ||
        strcmp(source, "position") == 0)
        return " (uit het spelverloop)";
    return "";
}

static bool expr_uses(const ruleset *rs, int e, int fact, int depth) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (depth > 64)
        return true; /* derived facts cannot loop (the compiler refuses cycles); be safe */
    if (x->kind == EX_FACT)
        return x->a == fact || (rs->facts[x->a].derived >= 0 &&
                                expr_uses(rs, rs->facts[x->a].derived, fact, depth + 1));
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
        if (sc->given[f] && !fact_used(r, f))
            json_array_append_new(unused, json_string(r->rs->facts[f].name));
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
        ruling_problem(r, &sb);
        json_object_set_new(o, "error", json_string(sb.data));
        sb_free(&sb);
        if (r->status == RULING_NEEDS)
            json_object_set_new(o, "needs", json_string(rs->facts[r->fact].name));
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
            json_object_set_new(args, a->params[p].name,
                                value_json(rs, a->params[p].type, ra->args[p]));
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
        json_object_set_new(step, "source",
                            json_string(output_fact_source(rs, sc, r->path_fact[i])));
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
        ruling_problem(r, &sb);
        fprintf(out, "Geen uitspraak: %s\n", sb.data);
        sb_free(&sb);
        return;
    }
    fputs("Artikelen:", out);
    json_t *trail = output_trail_json(r);
    size_t k;
    json_t *cite;
    json_array_foreach(trail, k, cite)
        fprintf(out, "%s%s", k ? " > " : " ", json_string_value(cite));
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
    for (int i = 0; i < r->nextra; i++)
        fprintf(out, "  [%s] %s\n", r->extra[i].cite, r->extra[i].message);
    for (int i = 0; i < r->nnotes; i++)
        fprintf(out, "Plugin %s (%s): %s\n", r->notes[i].plugin, r->notes[i].cite,
                r->notes[i].what);
    if (r->npath) fputs("Beslist op grond van:\n", out);
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        strbuf v;
        sb_init(&v);
        rs_format_value(rs, f->type, r->path_value[i], FMT_DUTCH, &v);
        fprintf(out, "  %s: %s%s\n", f->ask ? f->ask : f->name, v.data,
                source_text(output_fact_source(rs, sc, r->path_fact[i])));
        sb_free(&v);
    }
    json_t *unused = output_unused_json(r, sc);
    size_t i;
    json_t *name;
    json_array_foreach(unused, i, name)
        fprintf(out, "%s%s", i ? ", " : "Speelde geen rol: ", json_string_value(name));
    if (json_array_size(unused)) fputc('\n', out);
    json_decref(unused);
    fprintf(out, "Regelset: %s\n", hash);
    output_plugin_files(sc, out);
}
