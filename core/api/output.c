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

/* The articles with a title on r's trail, each once, in the order of the
 * trail; returns how many. */
static int trail_articles(const ruling *r, int *out, int cap) {
    const char *cites[64], **all = cites;
    int n = ruling_trail(r, NULL, 0), k = 0;
    if (n > 64 && !(all = xmalloc(sizeof *all * (size_t)n))) abort();
    ruling_trail(r, all, n);
    for (int i = 0; i < n; i++) {
        int a = rs_find_article(r->rs, all[i]);
        if (a < 0 || !*r->rs->articles[a].title) continue;
        bool seen = false;
        for (int j = 0; j < k && j < cap && !seen; j++)
            seen = out[j] == a;
        if (!seen && k++ < cap) out[k - 1] = a;
    }
    if (all != cites) xfree(all);
    return k;
}

json_t *output_titles_json(const ruling *r) {
    json_t *titles = json_array();
    int n = trail_articles(r, NULL, 0);
    int *arts = xcalloc((size_t)n + 1, sizeof *arts);
    trail_articles(r, arts, n);
    for (int i = 0; i < n; i++) {
        const rs_article *a = &r->rs->articles[arts[i]];
        json_t *t = json_pack("{ssss}", "article", a->id, "title", a->title);
        if (a->title_en) json_object_set_new(t, "title_en", json_string(a->title_en));
        json_array_append_new(titles, t);
    }
    xfree(arts);
    return titles;
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

json_t *output_value_json(const ruleset *rs, const rs_type *t, int64_t v) {
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
 * silent and the fact's default was assumed), "derived" (computed from
 * other facts before the decision tested it), or the record that settled it. */
const char *output_fact_source(const ruleset *rs, const scenario *sc, int f) {
    if (rs->facts[f].derived >= 0) return "derived";
    if (sc && sc->assumed[f]) return "default";
    if (!sc || sc->given[f] || rs->facts[f].builtin < 0) return "given";
    return builtin_at(rs->facts[f].builtin)->ns;
}

static const char *source_text(const char *source) {
    if (strcmp(source, "default") == 0) return " (aangenomen: het scenario zegt het niet)";
    if (strcmp(source, "derived") == 0) return " (berekend uit de gegeven feiten)";
    if (strcmp(source, "auction") == 0) return " (uit het biedverloop)";
    if (strcmp(source, "contract") == 0) return " (uit het contract)";
    if (strcmp(source, "scoring") == 0) return " (uit de scores)";
    if (strcmp(source, "play") == 0 || strcmp(source, "trick") == 0 ||
        strcmp(source, "hand") == 0 || strcmp(source, "card") == 0 ||
        strcmp(source, "position") == 0)
        return " (uit het spelverloop)";
    return "";
}

static bool is_fact(void *ctx, int f) {
    return f == *(const int *)ctx;
}

/* Whether expression e reads fact f, itself or through a derived fact. */
static bool expr_uses(const ruleset *rs, int e, int f) {
    return expr_reads(rs, e, is_fact, &f);
}

/* Whether a given fact took part in the ruling: the decision tested it, a
 * derived fact it tested is computed from it (points past 255 that decide
 * whether a hand is made), or an action's argument reads it. */
static bool fact_used(const ruling *r, int f) {
    const ruleset *rs = r->rs;
    for (int i = 0; i < r->npath; i++) {
        int tested = r->path_fact[i];
        if (tested == f) return true;
        if (rs->facts[tested].derived >= 0 && expr_uses(rs, rs->facts[tested].derived, f))
            return true;
    }
    for (int i = 0; i < r->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, r->actions[i].use);
        for (int p = 0; p < rs->actions[u->action].nparams; p++)
            if (expr_uses(rs, rs_arg(rs, u->args + p), f)) return true;
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

/* The status, and for a ruling that is none what it needs or why not. */
static void status_json(const ruling *r, json_t *o) {
    json_object_set_new(o, "status", json_string(status_name(r->status)));
    if (r->status == RULING_OK) return;
    strbuf sb;
    sb_init(&sb);
    ruling_problem(r, &sb);
    json_object_set_new(o, "error", json_string(sb.data));
    sb_free(&sb);
    if (r->status == RULING_NEEDS)
        json_object_set_new(o, "needs", json_string(r->rs->facts[r->fact].name));
}

/* The actions (name, args, article) into actions and, unless messages is
 * NULL, their texts in both languages. */
static void actions_json(const ruling *r, json_t *actions, json_t *messages, json_t *messages_en) {
    const ruleset *rs = r->rs;
    for (int i = 0; r->status == RULING_OK && !r->replaced && i < r->nactions; i++) {
        const ruling_action *ra = &r->actions[i];
        if (ra->dropped) continue;
        const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
        json_t *act = json_object(), *args = json_object();
        json_object_set_new(act, "name", json_string(a->name));
        for (int p = 0; p < a->nparams; p++)
            json_object_set_new(args, a->params[p].name,
                                output_value_json(rs, a->params[p].type, ra->args[p]));
        json_object_set_new(act, "args", args);
        json_object_set_new(act, "article", json_string(action_cite(rs, ra->use)));
        json_array_append_new(actions, act);
        if (!messages) continue;
        strbuf m;
        sb_init(&m);
        output_message(rs, ra, false, &m);
        json_array_append_new(messages, json_string(m.data ? m.data : ""));
        sb_free(&m);
        output_message(rs, ra, true, &m);
        json_array_append_new(messages_en, json_string(m.data ? m.data : ""));
        sb_free(&m);
    }
}

json_t *output_match_json(const ruling *r) {
    json_t *o = json_object(), *actions = json_array(), *messages = json_array(),
           *messages_en = json_array();
    status_json(r, o);
    json_object_set_new(o, "articles", output_trail_json(r));
    actions_json(r, actions, NULL, NULL);
    extras_json(r, actions, messages, messages_en, o);
    json_object_set_new(o, "actions", actions);
    json_decref(messages);
    json_decref(messages_en);
    return o;
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
    status_json(r, o);
    json_object_set_new(o, "articles", output_trail_json(r));
    json_t *actions = json_array(), *messages = json_array(), *messages_en = json_array();
    actions_json(r, actions, messages, messages_en);
    extras_json(r, actions, messages, messages_en, o);
    json_object_set_new(o, "actions", actions);
    json_object_set_new(o, "messages", messages);
    json_object_set_new(o, "messages_en", messages_en);
    json_t *path = json_array();
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        json_t *step = json_object();
        json_object_set_new(step, "fact", json_string(f->name));
        json_object_set_new(step, "value", output_value_json(rs, f->type, r->path_value[i]));
        json_object_set_new(step, "source",
                            json_string(output_fact_source(rs, sc, r->path_fact[i])));
        json_array_append_new(path, step);
    }
    json_object_set_new(o, "decided_by", path);
    json_object_set_new(o, "unused", output_unused_json(r, sc));
    json_object_set_new(o, "titles", output_titles_json(r));
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
    strbuf sb;
    sb_init(&sb);
    output_text_write(r, sc, &sb);
    if (sb.len) fwrite(sb.data, 1, sb.len, out);
    sb_free(&sb);
    output_plugin_files(sc, out);
}

/* ---- records written, not built --------------------------------------------
 * The same bytes as json_dumps(output_json(…), JSON_COMPACT) and as
 * output_text, written straight into a buffer: strings escaped as jansson
 * escapes them (", \ and control characters; \u00XX in capitals; '/' and
 * bytes past ASCII as they are), and what does not change between rulings
 * (the record's head, an outcome's trail and actions, a fact's name)
 * escaped once and kept. tests/unit/test_output.c compares the two. */

void output_json_string(strbuf *out, const char *s, size_t n) {
    static const char hex[] = "0123456789ABCDEF";
    sb_putc(out, '"');
    const char *run = s, *end = s + n;
    for (const char *p = s; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\') continue; /* the common case: a run to copy */
        sb_putn(out, run, (size_t)(p - run));
        run = p + 1;
        switch (c) {
        case '"':
            sb_putn(out, "\\\"", 2);
            break;
        case '\\':
            sb_putn(out, "\\\\", 2);
            break;
        case '\b':
            sb_putn(out, "\\b", 2);
            break;
        case '\f':
            sb_putn(out, "\\f", 2);
            break;
        case '\n':
            sb_putn(out, "\\n", 2);
            break;
        case '\r':
            sb_putn(out, "\\r", 2);
            break;
        case '\t':
            sb_putn(out, "\\t", 2);
            break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            sb_putn(out, u, 6);
        }
        }
    }
    sb_putn(out, run, (size_t)(end - run));
    sb_putc(out, '"');
}

static void put_str(strbuf *out, const char *s) {
    output_json_string(out, s, strlen(s));
}

static void put_int(strbuf *out, long long v) {
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) *--p = '-';
    sb_putn(out, p, (size_t)(buf + sizeof buf - p));
}

/* A fragment kept: text and length (text NULL: not made yet). */
typedef struct fragment {
    char *text;
    size_t len;
} fragment;

/* numbers in a key of a keyed fragment */
#define KEY_MAX 256
/* fragments a table keeps (a bound on the memory): then written each time */
#define TABLE_MAX 4096

/* Fragments kept by a key of numbers: an outcome and its actions'
 * arguments; the facts of a decision with their values and sources, and
 * the unused facts. Open addressing, at most half full. */
typedef struct keyed {
    int64_t *key; /* NULL: a free slot */
    int n;
    fragment text[3]; /* what each user of the table keeps: JSON, brief, text */
} keyed;

typedef struct fragment_table {
    keyed *slots;
    size_t mask, count;
} fragment_table;

/* The slot of key (n numbers), made when new (its texts NULL: to be
 * written), or NULL when the table is full. */
static keyed *table_slot(fragment_table *t, const int64_t *key, int n) {
    if (!t->slots) {
        t->mask = 2 * TABLE_MAX - 1;
        if (!(t->slots = xcalloc(t->mask + 1, sizeof *t->slots))) abort();
    }
    uint64_t h = hash_step(HASH_INIT, (uint64_t)n);
    for (int i = 0; i < n; i++)
        h = hash_step(h, (uint64_t)key[i]);
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
        keyed *e = &t->slots[i];
        if (e->key && e->n == n && memcmp(e->key, key, sizeof *key * (size_t)n) == 0) return e;
        if (e->key) continue;
        if (t->count == TABLE_MAX) return NULL;
        t->count++;
        if (!(e->key = xmalloc(sizeof *key * (size_t)(n ? n : 1)))) abort();
        memcpy(e->key, key, sizeof *key * (size_t)n);
        e->n = n;
        return e;
    }
}

static void table_free(fragment_table *t) {
    for (size_t i = 0; t->slots && i <= t->mask; i++) {
        xfree(t->slots[i].key);
        for (int k = 0; k < 3; k++)
            xfree(t->slots[i].text[k].text);
    }
    xfree(t->slots);
}

struct output_cache {
    const ruleset *rs;
    fragment head;      /* {"ruleset":…,"ruleset_hash":…,"status": */
    fragment text_head; /* Uitspraak volgens TITLE (NAME) */
    fragment *trail;    /* per outcome: "articles":[…], */
    fragment *titles;   /* per outcome: ,"titles":[…] */
    fragment *actions; /* per outcome: "actions":[…],…,"messages_en":[…], (when no action takes
                          arguments) */
    fragment *brief;   /* per outcome: the brief record's "articles" and "actions" */
    fragment *text; /* per outcome: the text's trail and actions (when no action takes arguments) */
    fragment *fact; /* per fact: {"fact":"…","value": */
    bool *has_args; /* per outcome: an action of it takes arguments */
    int *unused;    /* room for every fact */
    /* the actions (full, brief, text) of an outcome whose actions take
     * arguments, by outcome and arguments; a record's "decided_by" and
     * "unused" (and the text's facts), by its facts, values and sources and
     * its unused facts */
    fragment_table with_args, tails;
    int noutcomes;
    strbuf scratch;
};

static void keep(fragment *f, strbuf *sb) {
    f->len = sb->len;
    f->text = sb_take(sb);
    if (!f->text) f->text = xcalloc(1, 1);
    if (!f->text) abort();
}

static void text_head(const ruleset *rs, strbuf *out);

output_cache *output_cache_new(const ruleset *rs) {
    output_cache *c = xcalloc(1, sizeof *c);
    if (!c) abort();
    c->rs = rs;
    c->noutcomes = rs->outcomes.len;
    c->trail = xcalloc((size_t)c->noutcomes + 1, sizeof *c->trail);
    c->titles = xcalloc((size_t)c->noutcomes + 1, sizeof *c->titles);
    c->actions = xcalloc((size_t)c->noutcomes + 1, sizeof *c->actions);
    c->brief = xcalloc((size_t)c->noutcomes + 1, sizeof *c->brief);
    c->text = xcalloc((size_t)c->noutcomes + 1, sizeof *c->text);
    c->has_args = xcalloc((size_t)c->noutcomes + 1, sizeof *c->has_args);
    c->fact = xcalloc((size_t)rs->nfacts + 1, sizeof *c->fact);
    c->unused = xcalloc((size_t)rs->nfacts + 1, sizeof *c->unused);
    if (!c->trail || !c->titles || !c->actions || !c->brief || !c->text || !c->has_args ||
        !c->fact || !c->unused)
        abort();
    for (int o = 0; o < c->noutcomes; o++) {
        const rs_outcome *oc = rs_outcome_at(rs, o);
        for (int i = 0; i < oc->nactions; i++)
            if (rs->actions[rs_use_at(rs, oc->actions[i])->action].nparams) c->has_args[o] = true;
    }
    strbuf sb;
    sb_init(&sb);
    char hash[32];
    output_hash(rs, hash);
    sb_puts(&sb, "{\"ruleset\":");
    put_str(&sb, rs->name);
    sb_puts(&sb, ",\"ruleset_hash\":");
    put_str(&sb, hash);
    sb_puts(&sb, ",\"status\":");
    keep(&c->head, &sb);
    text_head(rs, &sb);
    keep(&c->text_head, &sb);
    sb_init(&c->scratch);
    return c;
}

void output_cache_free(output_cache *c) {
    if (!c) return;
    for (int o = 0; o < c->noutcomes; o++) {
        xfree(c->trail[o].text);
        xfree(c->titles[o].text);
        xfree(c->actions[o].text);
        xfree(c->brief[o].text);
        xfree(c->text[o].text);
    }
    for (int f = 0; f < c->rs->nfacts; f++)
        xfree(c->fact[f].text);
    xfree(c->trail);
    xfree(c->titles);
    xfree(c->head.text);
    xfree(c->text_head.text);
    xfree(c->actions);
    xfree(c->brief);
    xfree(c->text);
    xfree(c->fact);
    xfree(c->has_args);
    xfree(c->unused);
    table_free(&c->with_args);
    table_free(&c->tails);
    sb_free(&c->scratch);
    xfree(c);
}

static void put_trail(strbuf *out, const ruling *r) {
    const char *cites[64], **all = cites;
    int n = ruling_trail(r, NULL, 0);
    if (n > 64 && !(all = xmalloc(sizeof *all * (size_t)n))) abort();
    ruling_trail(r, all, n);
    sb_putc(out, '[');
    for (int i = 0; i < n; i++) {
        if (i) sb_putc(out, ',');
        put_str(out, all[i]);
    }
    sb_putc(out, ']');
    if (all != cites) xfree(all);
}

/* ,"titles":[…] as output_titles_json gives it. */
static void put_titles(strbuf *out, const ruling *r) {
    int arts[64], *all = arts;
    int n = trail_articles(r, NULL, 0);
    if (n > 64 && !(all = xmalloc(sizeof *all * (size_t)n))) abort();
    trail_articles(r, all, n);
    sb_puts(out, ",\"titles\":[");
    for (int i = 0; i < n; i++) {
        const rs_article *a = &r->rs->articles[all[i]];
        sb_puts(out, i ? ",{\"article\":" : "{\"article\":");
        put_str(out, a->id);
        sb_puts(out, ",\"title\":");
        put_str(out, a->title);
        if (a->title_en) {
            sb_puts(out, ",\"title_en\":");
            put_str(out, a->title_en);
        }
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
    if (all != arts) xfree(all);
}

/* A value as value_json gives it. */
static void put_value(output_cache *c, strbuf *out, const rs_type *t, int64_t v) {
    if (t->kind == TY_BOOL) {
        sb_puts(out, v ? "true" : "false");
    } else if (t->kind == TY_INT) {
        put_int(out, (long long)v);
    } else if (t->kind == TY_ENUM && v >= 0 && v < t->nvalues) {
        put_str(out, t->values[v]);
    } else {
        c->scratch.len = 0;
        rs_format_value(c->rs, t, v, FMT_NAME, &c->scratch);
        output_json_string(out, c->scratch.data ? c->scratch.data : "", c->scratch.len);
    }
}

static void put_message(output_cache *c, strbuf *out, const ruling_action *ra, bool english) {
    c->scratch.len = 0;
    output_message(c->rs, ra, english, &c->scratch);
    output_json_string(out, c->scratch.data ? c->scratch.data : "", c->scratch.len);
}

/* "actions":[…],"messages":[…],"messages_en":[…], of the ruleset's own actions. */
static void put_actions(output_cache *c, strbuf *out, const ruling *r) {
    const ruleset *rs = c->rs;
    sb_puts(out, "\"actions\":[");
    for (int i = 0; i < r->nactions; i++) {
        const ruling_action *ra = &r->actions[i];
        const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
        sb_puts(out, i ? ",{\"name\":" : "{\"name\":");
        put_str(out, a->name);
        sb_puts(out, ",\"args\":{");
        for (int p = 0; p < a->nparams; p++) {
            if (p) sb_putc(out, ',');
            put_str(out, a->params[p].name);
            sb_putc(out, ':');
            put_value(c, out, a->params[p].type, ra->args[p]);
        }
        sb_puts(out, "},\"article\":");
        put_str(out, action_cite(rs, ra->use));
        sb_putc(out, '}');
    }
    for (int english = 0; english < 2; english++) {
        sb_puts(out, english ? "],\"messages_en\":[" : "],\"messages\":[");
        for (int i = 0; i < r->nactions; i++) {
            if (i) sb_putc(out, ',');
            put_message(c, out, &r->actions[i], english);
        }
    }
    sb_puts(out, "],");
}

/* The fragment kept for r's outcome with r's arguments (its text NULL when
 * not made yet), or NULL when there is no room or too many arguments. */
static keyed *with_args(output_cache *c, const ruling *r) {
    const ruleset *rs = c->rs;
    int64_t key[KEY_MAX];
    int n = 0;
    key[n++] = r->outcome;
    for (int i = 0; i < r->nactions; i++) {
        int np = rs->actions[rs_use_at(rs, r->actions[i].use)->action].nparams;
        if (n + np > KEY_MAX) return NULL;
        memcpy(key + n, r->actions[i].args, sizeof *key * (size_t)np);
        n += np;
    }
    return table_slot(&c->with_args, key, n);
}

static fragment *actions_with_args(output_cache *c, const ruling *r) {
    keyed *e = with_args(c, r);
    return e ? &e->text[0] : NULL;
}

/* The record's own status, error and trail, up to "actions". */
static void put_status(output_cache *c, strbuf *out, const ruling *r) {
    const ruleset *rs = c->rs;
    put_str(out, status_name(r->status));
    sb_putc(out, ',');
    if (r->status != RULING_OK) {
        c->scratch.len = 0;
        ruling_problem(r, &c->scratch);
        sb_puts(out, "\"error\":");
        output_json_string(out, c->scratch.data ? c->scratch.data : "", c->scratch.len);
        sb_putc(out, ',');
        if (r->status == RULING_NEEDS) {
            sb_puts(out, "\"needs\":");
            put_str(out, rs->facts[r->fact].name);
            sb_putc(out, ',');
        }
    }
}

static bool plain_ruling(const ruling *r) {
    return !r->replaced && !r->nextra && !r->nextra_cites && !r->nnotes;
}

static const fragment *outcome_trail(output_cache *c, const ruling *r) {
    fragment *f = &c->trail[r->outcome];
    if (!f->text) {
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, "\"articles\":");
        put_trail(&sb, r);
        sb_putc(&sb, ',');
        keep(f, &sb);
    }
    return f;
}

/* The given facts that played no part, in the order of the ruleset. */
static int unused_facts(const ruling *r, const scenario *sc, int *out) {
    int n = 0;
    if (r->status != RULING_OK) return 0;
    for (int i = 0; i < sc->ntouched; i++) {
        int f = sc->touched[i];
        if (!sc->given[f] || fact_used(r, f)) continue;
        int k = n++;
        for (; k > 0 && out[k - 1] > f; k--)
            out[k] = out[k - 1];
        out[k] = f;
    }
    return n;
}

/* "decided_by":[…],"unused":[…] of r, whose unused facts are c->unused[0..nunused). */
static void put_tail(output_cache *c, strbuf *out, const ruling *r, const scenario *sc,
                     int nunused) {
    const ruleset *rs = c->rs;
    sb_puts(out, "\"decided_by\":[");
    for (int i = 0; i < r->npath; i++) {
        int f = r->path_fact[i];
        fragment *fr = &c->fact[f];
        if (!fr->text) {
            strbuf sb;
            sb_init(&sb);
            sb_puts(&sb, "{\"fact\":");
            put_str(&sb, rs->facts[f].name);
            sb_puts(&sb, ",\"value\":");
            keep(fr, &sb);
        }
        if (i) sb_putc(out, ',');
        sb_putn(out, fr->text, fr->len);
        put_value(c, out, rs->facts[f].type, r->path_value[i]);
        sb_puts(out, ",\"source\":");
        put_str(out, output_fact_source(rs, sc, f));
        sb_putc(out, '}');
    }
    sb_puts(out, "],\"unused\":[");
    for (int i = 0; i < nunused; i++) {
        if (i) sb_putc(out, ',');
        put_str(out, rs->facts[c->unused[i]].name);
    }
    sb_putc(out, ']');
}

/* The slot of r's tail: its facts, values and sources, and its unused facts. */
static keyed *tail_slot(output_cache *c, const ruling *r, const scenario *sc, int nunused) {
    int64_t key[KEY_MAX];
    int n = 0;
    if (3 * r->npath + nunused + 1 > KEY_MAX) return NULL;
    for (int i = 0; i < r->npath; i++) {
        key[n++] = r->path_fact[i];
        key[n++] = r->path_value[i];
        key[n++] = (int64_t)(uintptr_t)output_fact_source(c->rs, sc,
                                                          r->path_fact[i]); /* constant strings */
    }
    key[n++] = -1;
    for (int i = 0; i < nunused; i++)
        key[n++] = c->unused[i];
    return table_slot(&c->tails, key, n);
}

bool output_json_write(output_cache *c, const ruling *r, const scenario *sc, long line,
                       strbuf *out) {
    const ruleset *rs = c->rs;
    if (rs != r->rs || (sc && sc->hooks) || !plain_ruling(r)) return false;
    for (int i = 0; i < r->nactions; i++)
        if (r->actions[i].dropped) return false;
    sb_putn(out, c->head.text, c->head.len);
    put_status(c, out, r);
    if (r->status == RULING_OK) {
        const fragment *t = outcome_trail(c, r);
        sb_putn(out, t->text, t->len);
        fragment *a = c->has_args[r->outcome] ? actions_with_args(c, r) : &c->actions[r->outcome];
        if (!a) {
            put_actions(c, out, r);
        } else {
            if (!a->text) {
                strbuf sb;
                sb_init(&sb);
                put_actions(c, &sb, r);
                keep(a, &sb);
            }
            sb_putn(out, a->text, a->len);
        }
    } else {
        sb_puts(out, "\"articles\":");
        put_trail(out, r);
        sb_puts(out, ",\"actions\":[],\"messages\":[],\"messages_en\":[],");
    }
    int nunused = sc ? unused_facts(r, sc, c->unused) : 0;
    keyed *tail = tail_slot(c, r, sc, nunused);
    if (!tail) {
        put_tail(c, out, r, sc, nunused);
    } else {
        if (!tail->text[0].text) {
            strbuf sb;
            sb_init(&sb);
            put_tail(c, &sb, r, sc, nunused);
            keep(&tail->text[0], &sb);
        }
        sb_putn(out, tail->text[0].text, tail->text[0].len);
    }
    if (r->status == RULING_OK) {
        fragment *t = &c->titles[r->outcome];
        if (!t->text) {
            strbuf sb;
            sb_init(&sb);
            put_titles(&sb, r);
            keep(t, &sb);
        }
        sb_putn(out, t->text, t->len);
    } else {
        put_titles(out, r);
    }
    if (line > 0) {
        sb_puts(out, ",\"line\":");
        put_int(out, line);
    }
    sb_puts(out, "}\n");
    return true;
}

/* A brief record's opening, per status: status_name's words, quoted (a
 * constant each, as a batch writes one a line). */
static const char *const brief_opening[] = {"{\"status\":\"ruling\"",   "{\"status\":\"needs\"",
                                            "{\"status\":\"rejected\"", "{\"status\":\"gap\"",
                                            "{\"status\":\"error\"",    "{\"status\":\"outside\""};
_Static_assert(sizeof brief_opening / sizeof *brief_opening == RULING_OUTSIDE + 1,
               "one opening per ruling status");

/* The brief record: status, trail and actions with their arguments. */
void output_brief_write(output_cache *c, const ruling *r, long line, strbuf *out) {
    const ruleset *rs = c->rs;
    sb_puts(out, brief_opening[r->status]);
    if (r->status == RULING_NEEDS) {
        sb_puts(out, ",\"needs\":");
        put_str(out, rs->facts[r->fact].name);
    }
    keyed *e = NULL;
    if (r->status == RULING_OK && plain_ruling(r) &&
        (!c->has_args[r->outcome] || (e = with_args(c, r)))) {
        fragment *b = e ? &e->text[1] : &c->brief[r->outcome];
        if (!b->text) {
            strbuf sb;
            sb_init(&sb);
            output_brief_actions(c, r, &sb);
            keep(b, &sb);
        }
        sb_putn(out, b->text, b->len);
    } else {
        output_brief_actions(c, r, out);
    }
    if (line > 0) {
        sb_puts(out, ",\"line\":");
        put_int(out, line);
    }
    sb_puts(out, "}\n");
}

void output_brief_actions(output_cache *c, const ruling *r, strbuf *out) {
    const ruleset *rs = c->rs;
    sb_puts(out, ",\"articles\":");
    put_trail(out, r);
    sb_puts(out, ",\"actions\":[");
    int n = 0;
    for (int i = 0; r->status == RULING_OK && !r->replaced && i < r->nactions; i++) {
        const ruling_action *ra = &r->actions[i];
        if (ra->dropped) continue;
        const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
        sb_puts(out, n++ ? ",{\"name\":" : "{\"name\":");
        put_str(out, a->name);
        sb_puts(out, ",\"args\":{");
        for (int p = 0; p < a->nparams; p++) {
            if (p) sb_putc(out, ',');
            put_str(out, a->params[p].name);
            sb_putc(out, ':');
            put_value(c, out, a->params[p].type, ra->args[p]);
        }
        sb_puts(out, "},\"article\":");
        put_str(out, action_cite(rs, ra->use));
        sb_putc(out, '}');
    }
    for (int i = 0; r->status == RULING_OK && i < r->nextra; i++) {
        const ruling_extra *e = &r->extra[i];
        sb_puts(out, n++ ? ",{\"name\":" : "{\"name\":");
        put_str(out, e->name);
        sb_puts(out, ",\"args\":");
        sb_puts(out, e->args && *e->args ? e->args : "{}");
        sb_puts(out, ",\"article\":");
        put_str(out, e->cite ? e->cite : "");
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
}

/* The Dutch text as output_text prints it, but for the plugins' files. */
static void text_head(const ruleset *rs, strbuf *out) {
    sb_puts(out, "Uitspraak volgens ");
    sb_puts(out, rs->title);
    sb_puts(out, " (");
    sb_puts(out, rs->name);
    sb_puts(out, ")\n");
}

/* The trail and the actions, with what plugins added. */
static void text_actions(const ruling *r, strbuf *out) {
    const ruleset *rs = r->rs;
    sb_puts(out, "Artikelen:");
    const char *cites[64], **all = cites;
    int n = ruling_trail(r, NULL, 0);
    if (n > 64 && !(all = xmalloc(sizeof *all * (size_t)n))) abort();
    ruling_trail(r, all, n);
    for (int k = 0; k < n; k++) {
        sb_puts(out, k ? " > " : " ");
        sb_puts(out, all[k]);
    }
    if (all != cites) xfree(all);
    sb_puts(out, "\nUitspraak:\n");
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        if (r->actions[i].dropped) continue;
        sb_puts(out, "  [");
        sb_puts(out, action_cite(rs, r->actions[i].use));
        sb_puts(out, "] ");
        output_message(rs, &r->actions[i], false, out);
        sb_putc(out, '\n');
    }
    for (int i = 0; i < r->nextra; i++)
        sb_printf(out, "  [%s] %s\n", r->extra[i].cite, r->extra[i].message);
    for (int i = 0; i < r->nnotes; i++)
        sb_printf(out, "Plugin %s (%s): %s\n", r->notes[i].plugin, r->notes[i].cite,
                  r->notes[i].what);
}

/* The facts that decided, those that played no part (unused[0..nunused),
 * in the ruleset's order) and the ruleset's hash. */
static void text_tail(const ruling *r, const scenario *sc, const int *unused, int nunused,
                      strbuf *out) {
    const ruleset *rs = r->rs;
    if (r->npath) sb_puts(out, "Beslist op grond van:\n");
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        sb_puts(out, "  ");
        sb_puts(out, f->ask ? f->ask : f->name);
        sb_puts(out, ": ");
        rs_format_value(rs, f->type, r->path_value[i], FMT_DUTCH, out);
        sb_puts(out, source_text(output_fact_source(rs, sc, r->path_fact[i])));
        sb_putc(out, '\n');
    }
    for (int i = 0; i < nunused; i++) {
        sb_puts(out, i ? ", " : "Speelde geen rol: ");
        sb_puts(out, rs->facts[unused[i]].name);
    }
    if (nunused) sb_putc(out, '\n');
    char hash[32];
    output_hash(rs, hash);
    sb_puts(out, "Regelset: ");
    sb_puts(out, hash);
    sb_putc(out, '\n');
}

/* The Dutch text as output_text prints it, but for the plugins' files. */
void output_text_write(const ruling *r, const scenario *sc, strbuf *out) {
    const ruleset *rs = r->rs;
    text_head(rs, out);
    if (r->status != RULING_OK) {
        sb_puts(out, "Geen uitspraak: ");
        ruling_problem(r, out);
        sb_putc(out, '\n');
        return;
    }
    text_actions(r, out);
    int nunused = 0;
    int *unused = xcalloc((size_t)rs->nfacts + 1, sizeof *unused);
    for (int f = 0; sc && f < rs->nfacts; f++)
        if (sc->given[f] && !fact_used(r, f)) unused[nunused++] = f;
    text_tail(r, sc, unused, nunused, out);
    xfree(unused);
}

/* The same from the fragments kept in c, for many rulings. */
void output_text_cached(output_cache *c, const ruling *r, const scenario *sc, strbuf *out) {
    if (r->rs != c->rs || !sc || r->status != RULING_OK || !plain_ruling(r)) {
        output_text_write(r, sc, out);
        return;
    }
    for (int i = 0; i < r->nactions; i++)
        if (r->actions[i].dropped) {
            output_text_write(r, sc, out);
            return;
        }
    sb_putn(out, c->text_head.text, c->text_head.len);
    keyed *e = c->has_args[r->outcome] ? with_args(c, r) : NULL;
    fragment *a = !c->has_args[r->outcome] ? &c->text[r->outcome] : e ? &e->text[2] : NULL;
    if (!a) {
        text_actions(r, out);
    } else {
        if (!a->text) {
            strbuf sb;
            sb_init(&sb);
            text_actions(r, &sb);
            keep(a, &sb);
        }
        sb_putn(out, a->text, a->len);
    }
    int nunused = unused_facts(r, sc, c->unused);
    keyed *tail = tail_slot(c, r, sc, nunused);
    if (!tail) {
        text_tail(r, sc, c->unused, nunused, out);
        return;
    }
    if (!tail->text[2].text) {
        strbuf sb;
        sb_init(&sb);
        text_tail(r, sc, c->unused, nunused, &sb);
        keep(&tail->text[2], &sb);
    }
    sb_putn(out, tail->text[2].text, tail->text[2].len);
}
