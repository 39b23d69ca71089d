/* glue.c — libarbiter for the browser: the calls the web app makes, for a
 * WebAssembly build of the library (`make web`; docs/deploy.md).
 *
 * The app asks the same questions of this module as it asks `arbiter
 * serve` (core/serve/serve.c): each arbw_ function below stands for one
 * endpoint and makes the same arb_ call, so that a phone without a server
 * rules with the code the CLI rules with. It includes arbiter.h and nothing
 * else of the library.
 *
 * Every answer is a malloc'd text (JSON, or DOT for a graph) that the
 * caller frees with arbw_free; arbw_status() gives the status of the last
 * call (enum arb_status) and arbw_error() its error, when it had one (a
 * line for a person; "" when none). The rulesets are those of one
 * directory (arbw_init), compiled from their rule files when the module
 * starts: the web build keeps no image cache (core/web/shim).
 *
 * Club plugins (docs/plugins.md) come as text, the file a director picks
 * (arbw_plugin_add): the text is written to the module's file system under
 * its file name and loaded as `--plugin FILE` loads it, within the CLI's
 * limits. A plugin is loaded for every ruleset that takes it (its
 * overrides name citations of that ruleset), after the plugins loaded
 * before it, and every call below rules with the plugins of its ruleset,
 * as `arbiter rule --plugin FILE` and `arbiter serve --plugin FILE` do. */
#include "arbiter.h"

#include <emscripten/emscripten.h>
#include <jansson.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RULESETS 32
#define ARB_STR_(x) #x
#define ARB_STR(x) ARB_STR_(x)

static arb_ruleset *loaded[MAX_RULESETS];
static int nloaded;

/* The plugins' files, in the order they were added (they act in that
 * order), and for each ruleset the set of those it takes: NULL when none. */
#define PLUGIN_DIR "/plugins"
static char *plugin_file[ARB_MAX_PLUGINS];
static int nplugins;
static arb_plugins *with[MAX_RULESETS];
/* Which plugins each ruleset takes (takes), and why it refused the others
 * (refusal: the text `arbiter … --plugin FILE` writes, malloc'd). */
static bool takes[MAX_RULESETS][ARB_MAX_PLUGINS];
static char *refusal[MAX_RULESETS][ARB_MAX_PLUGINS];
static enum arb_status last_status;
static char *last_error;

/* Records the outcome of a call: its status and error (taken over). */
static void outcome(enum arb_status st, char *error) {
    free(last_error);
    last_status = st;
    last_error = error;
}

static char *copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *out = malloc(n);
    if (out) memcpy(out, s, n);
    return out;
}

static char *fail(enum arb_status st, const char *fmt, const char *arg) {
    char buf[512];
    snprintf(buf, sizeof buf, fmt, arg ? arg : "");
    outcome(st, copy(buf));
    return NULL;
}

EMSCRIPTEN_KEEPALIVE int arbw_status(void) {
    return (int)last_status;
}

EMSCRIPTEN_KEEPALIVE const char *arbw_error(void) {
    return last_error ? last_error : "";
}

EMSCRIPTEN_KEEPALIVE void arbw_free(void *p) {
    free(p);
}

/* What a call wrote to a stream (errors, a graph), as a malloc'd text. */
typedef struct capture {
    FILE *f;
    char *text;
    size_t len;
} capture;

static bool capture_open(capture *c) {
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    return c->f != NULL;
}

static char *capture_close(capture *c) {
    fclose(c->f);
    return c->text;
}

/* Loads every ruleset of dir (its rule files compiled now: there is no
 * image cache here). Returns how many loaded; the errors of one that does
 * not compile are kept in arbw_error(). */
EMSCRIPTEN_KEEPALIVE int arbw_init(const char *dir) {
    setenv("ARBITER_CACHE", "off", 1);
    setenv("ARBITER_RULESETS", dir, 1);
    for (int i = 0; i < nloaded; i++) {
        arb_free_plugins(with[i]);
        with[i] = NULL;
        for (int k = 0; k < ARB_MAX_PLUGINS; k++) {
            free(refusal[i][k]);
            refusal[i][k] = NULL;
            takes[i][k] = false;
        }
        arb_free(loaded[i]);
    }
    for (int i = 0; i < nplugins; i++)
        free(plugin_file[i]);
    nplugins = 0;
    nloaded = 0;
    char **names = NULL;
    int n = arb_list_rulesets(dir, &names);
    capture errors;
    if (!capture_open(&errors)) return -1;
    for (int i = 0; i < n; i++) {
        arb_ruleset *rs = NULL;
        if (nloaded < MAX_RULESETS)
            rs = arb_load(names[i], errors.f);
        else
            fprintf(errors.f, "%s: not loaded: at most %d rulesets\n", names[i], MAX_RULESETS);
        if (rs) loaded[nloaded++] = rs;
        free(names[i]);
    }
    free(names);
    char *text = capture_close(&errors);
    outcome(text && *text ? ARB_BAD_INPUT : ARB_OK, text);
    return nloaded;
}

static int ruleset_index(const char *name) {
    for (int i = 0; name && i < nloaded; i++)
        if (strcmp(arb_name(loaded[i]), name) == 0) return i;
    return -1;
}

static const arb_ruleset *ruleset_named(const char *name) {
    int i = ruleset_index(name);
    return i < 0 ? NULL : loaded[i];
}

/* The plugins a ruleset rules with (NULL: none). */
static const arb_plugins *plugins_of(const arb_ruleset *rs) {
    for (int i = 0; rs && i < nloaded; i++)
        if (loaded[i] == rs) return with[i];
    return NULL;
}

/* The ruleset a call names, or NULL with the error the server gives. */
static const arb_ruleset *served(const char *name) {
    const arb_ruleset *rs = ruleset_named(name);
    if (!rs) fail(ARB_BAD_INPUT, "no ruleset '%s' is served (GET /api/rulesets lists them)", name);
    return rs;
}

/* GET /api/rulesets: [each ruleset in brief], as arb_ruleset_json gives it. */
EMSCRIPTEN_KEEPALIVE char *arbw_rulesets(void) {
    size_t len = 0;
    char *out = NULL;
    FILE *f = open_memstream(&out, &len);
    if (!f) return fail(ARB_BAD_INPUT, "%s", "out of memory");
    fputc('[', f);
    for (int i = 0; i < nloaded; i++) {
        char *one = arb_ruleset_json(loaded[i], 0);
        fprintf(f, "%s%s", i ? "," : "", one ? one : "null");
        free(one);
    }
    fputc(']', f);
    fclose(f);
    outcome(ARB_OK, NULL);
    return out;
}

/* GET /api/rulesets/NAME: the ruleset with its articles and facts. */
EMSCRIPTEN_KEEPALIVE char *arbw_ruleset(const char *name) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    outcome(ARB_OK, NULL);
    return arb_ruleset_json(rs, 1);
}

EMSCRIPTEN_KEEPALIVE const char *arbw_title(const char *name) {
    const arb_ruleset *rs = ruleset_named(name);
    return rs ? arb_title(rs) : "";
}

/* POST /api/next: the ruling, or the question it needs next. */
EMSCRIPTEN_KEEPALIVE char *arbw_next(const char *name, const char *scenario) {
    const arb_ruleset *rs = served(name);
    char *json = NULL;
    if (rs)
        outcome(arb_rule_next_json(rs, plugins_of(rs), scenario, strlen(scenario), &json), NULL);
    return json;
}

/* POST /api/rule: the ruling, as `arbiter rule --json` reads it. */
EMSCRIPTEN_KEEPALIVE char *arbw_rule(const char *name, const char *scenario) {
    const arb_ruleset *rs = served(name);
    char *json = NULL;
    if (rs)
        outcome(arb_rule_json_plugins(rs, plugins_of(rs), scenario, strlen(scenario), &json), NULL);
    return json;
}

/* JSON Lines in, a ruling (or an error record) a line out: what `arbiter
 * rule` writes for a file of several scenarios. */
EMSCRIPTEN_KEEPALIVE char *arbw_batch(const char *name, const char *jsonl) {
    const arb_ruleset *rs = served(name);
    capture out;
    if (!rs) return NULL;
    if (!capture_open(&out)) return fail(ARB_BAD_INPUT, "%s", "out of memory");
    enum arb_status st = arb_rule_batch_plugins(rs, plugins_of(rs), jsonl, strlen(jsonl), out.f);
    char *text = capture_close(&out);
    outcome(st, NULL);
    return text;
}

/* POST /api/compare: one scenario under 2 to ARB_MAX_COMPARED rulesets,
 * named in names one a line. */
EMSCRIPTEN_KEEPALIVE char *arbw_compare(const char *names, const char *scenario) {
    const arb_ruleset *sets[ARB_MAX_COMPARED];
    const arb_plugins *plugins[ARB_MAX_COMPARED];
    char buf[1024];
    int n = 0;
    if (snprintf(buf, sizeof buf, "%s", names) >= (int)sizeof buf)
        return fail(ARB_BAD_INPUT, "%s", "the ruleset names are too long");
    for (char *save = NULL, *name = strtok_r(buf, "\n", &save); name;
         name = strtok_r(NULL, "\n", &save)) {
        if (n == ARB_MAX_COMPARED)
            return fail(
                ARB_BAD_INPUT,
                "give \"rulesets\": a list of 2 to " ARB_STR(ARB_MAX_COMPARED) " ruleset names%s",
                "");
        if (!(sets[n] = served(name))) return NULL;
        plugins[n] = plugins_of(sets[n]);
        n++;
    }
    char *json = NULL, *error = NULL;
    enum arb_status st =
        arb_compare_json(sets, plugins, n, scenario, strlen(scenario), &json, &error);
    outcome(st, error);
    return json;
}

/* POST /api/score: a bridge contract; vulnerable -1 (not given), 0 or 1. */
EMSCRIPTEN_KEEPALIVE char *arbw_score(const char *name, const char *contract, int vulnerable) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    enum arb_vulnerability v = vulnerable < 0 ? ARB_VULNERABILITY_UNKNOWN
                               : vulnerable   ? ARB_VULNERABLE
                                              : ARB_NOT_VULNERABLE;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_score_contract(rs, plugins_of(rs), contract, v, NULL, &json, &error);
    outcome(st, error);
    return json;
}

/* POST /api/klaverjas: a klaverjas hand scored trick by trick. */
EMSCRIPTEN_KEEPALIVE char *arbw_klaverjas(const char *name, const char *hand) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_score_hand_json(rs, plugins_of(rs), hand, strlen(hand), &json, &error);
    outcome(st, error);
    return json;
}

/* Klaverjas: which cards of a hand may be played in a position. */
EMSCRIPTEN_KEEPALIVE char *arbw_legal(const char *name, const char *position) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    char *json = NULL, *error = NULL;
    enum arb_status st =
        arb_legal_json(rs, plugins_of(rs), position, strlen(position), &json, &error);
    outcome(st, error);
    return json;
}

/* POST /api/matchpoints: the rows of a matchpoint sheet. */
EMSCRIPTEN_KEEPALIVE char *arbw_matchpoints(const char *name, const char *sheet) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    size_t len = strlen(sheet);
    if (arb_sheet_score_count(sheet, len) > ARB_MAX_SCORES)
        return fail(ARB_BAD_INPUT, "at most " ARB_STR(ARB_MAX_SCORES) " scores in one sheet%s", "");
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_matchpoints_sheet(rs, plugins_of(rs), sheet, len, &json, &error);
    outcome(st, error);
    return json;
}

/* A scorer's call's answer: its JSON (or text) when it succeeded, else
 * NULL with its status and error kept (the error taken over). */
static char *scored(enum arb_status st, char *answer, char *error) {
    if (st == ARB_OK) {
        free(error);
        outcome(ARB_OK, NULL);
        return answer;
    }
    free(answer);
    outcome(st, error ? error : copy(st == ARB_NO_MEMORY ? "out of memory" : ""));
    return NULL;
}

/* POST /api/session: a pairs session's sheet (CSV with a header row, ","
 * or ";") scored and ranked; method "matchpoints", "butler" or "cross"
 * (NULL: matchpoints, as `arbiter session` without --method). The JSON of
 * `arbiter session --json`. */
EMSCRIPTEN_KEEPALIVE char *arbw_session(const char *name, const char *sheet, const char *method) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    if (!sheet) return fail(ARB_BAD_INPUT, "%s", "give the session's sheet");
    char *json = NULL, *error = NULL;
    enum arb_status st =
        arb_session_json(rs, plugins_of(rs), sheet, strlen(sheet), method, &json, &error);
    return scored(st, json, error);
}

/* POST /api/ranking: a sheet of board,pair,score lines ranked, ties broken
 * as the ruleset says (klaverjas); the JSON of `arbiter ranking --json`. */
EMSCRIPTEN_KEEPALIVE char *arbw_ranking(const char *name, const char *sheet) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    if (!sheet) return fail(ARB_BAD_INPUT, "%s", "give the sheet");
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_ranking_json(rs, plugins_of(rs), sheet, strlen(sheet), &json, &error);
    return scored(st, json, error);
}

typedef enum arb_status (*pbn_call)(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                    size_t len, const char *name, char **json, char **error);

/* A PBN file's answer by one of the library's calls; a file with a
 * mistake: the answer read all the same, with the status and every
 * mistake with its line in the error. */
static char *pbn_answer(pbn_call call, const char *name, const char *pbn, const char *file) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    if (!pbn) return fail(ARB_BAD_INPUT, "%s", "give the text of a PBN file");
    char *json = NULL, *error = NULL;
    enum arb_status st =
        call(rs, plugins_of(rs), pbn, strlen(pbn), file && *file ? file : "pbn", &json, &error);
    if (st == ARB_BAD_INPUT && json) { /* the mistakes, and the games read all the same */
        outcome(st, error ? error : copy(""));
        return json;
    }
    return scored(st, json, error);
}

/* POST /api/pbn: every result of a PBN file scored and matchpointed, the
 * file's own figures compared (`arbiter pbn --ruleset NAME --json`). file:
 * the name its messages give ("pbn" for the server's; NULL or "" too). A
 * file with a mistake: the games read all the same, every mistake with
 * its line in the error. */
EMSCRIPTEN_KEEPALIVE char *arbw_pbn(const char *name, const char *pbn, const char *file) {
    return pbn_answer(arb_pbn_score_json, name, pbn, file);
}

/* POST /api/pbn with "ranking": the ScoreTables' rows ranked as a session
 * (`arbiter pbn --ranking --json`); as arbw_pbn otherwise. */
EMSCRIPTEN_KEEPALIVE char *arbw_pbn_session(const char *name, const char *pbn, const char *file) {
    return pbn_answer(arb_pbn_session_json, name, pbn, file);
}

/* POST /api/pbn with "totals": the TotalScoreTable against arbiter's
 * ranking (`arbiter pbn --totals --json`); as arbw_pbn otherwise. */
EMSCRIPTEN_KEEPALIVE char *arbw_pbn_totals(const char *name, const char *pbn, const char *file) {
    return pbn_answer(arb_pbn_totals_json, name, pbn, file);
}

/* "format": "csv" on the scorer's endpoints: an answer of theirs (JSON
 * text) as the CSV the CLI prints; form as arb_csv's. */
EMSCRIPTEN_KEEPALIVE char *arbw_csv(const char *form, const char *json) {
    if (!json) return fail(ARB_BAD_INPUT, "%s", "give an answer to write as CSV");
    char *csv = NULL, *error = NULL;
    enum arb_status st = arb_csv(form, json, strlen(json), &csv, &error);
    return scored(st, csv, error);
}

/* POST /api/pbn with "export": the file in PBN 2.1's export format, the
 * text `arbiter pbn --export` writes; file as for arbw_pbn. */
EMSCRIPTEN_KEEPALIVE char *arbw_pbn_export(const char *pbn, const char *file) {
    if (!pbn) return fail(ARB_BAD_INPUT, "%s", "give the text of a PBN file");
    char *text = NULL, *error = NULL;
    enum arb_status st =
        arb_pbn_export(pbn, strlen(pbn), file && *file ? file : "pbn", &text, &error);
    return scored(st, text, error);
}

/* GET /api/graph: an article's decision graph as DOT. */
EMSCRIPTEN_KEEPALIVE char *arbw_graph(const char *name, const char *article) {
    const arb_ruleset *rs = served(name);
    capture out;
    if (!rs) return NULL;
    if (!capture_open(&out)) return fail(ARB_BAD_INPUT, "%s", "out of memory");
    enum arb_status st = arb_graph_dot(rs, article, out.f, NULL);
    char *dot = capture_close(&out);
    if (st == ARB_OK) {
        outcome(ARB_OK, NULL);
        return dot;
    }
    free(dot);
    char buf[256];
    snprintf(buf, sizeof buf, "%s has no article %s", name, article);
    return fail(ARB_BAD_INPUT, "%s", buf);
}

/* ---- club plugins ---- */

/* The plugins files[0..n) loaded for rs with the CLI's limits, or NULL
 * with why in *why (malloc'd, without its last newline). */
static arb_plugins *load_for(const arb_ruleset *rs, const char *const *files, int n, char **why) {
    capture errors;
    *why = NULL;
    if (!capture_open(&errors)) return NULL;
    arb_plugins *p = arb_load_plugins_limited(rs, files, n, NULL, errors.f);
    char *text = capture_close(&errors);
    if (p || !text) {
        free(text);
        return p;
    }
    size_t len = strlen(text);
    while (len && text[len - 1] == '\n')
        text[--len] = '\0';
    *why = len ? text : (free(text), copy("the plugin could not be loaded"));
    return NULL;
}

/* The plugins of files[0..n) that rs takes, each in order after those it
 * took before it: the set (NULL when it takes none); took[k] and why[k]
 * (malloc'd, or NULL) say which and why not. */
static arb_plugins *set_for(const arb_ruleset *rs, char *const *files, int n, bool *took,
                            char **why) {
    const char *chosen[ARB_MAX_PLUGINS];
    int nchosen = 0;
    arb_plugins *set = NULL;
    for (int k = 0; k < n; k++) {
        chosen[nchosen] = files[k];
        arb_plugins *p = load_for(rs, chosen, nchosen + 1, &why[k]);
        took[k] = p != NULL;
        if (!p) continue;
        arb_free_plugins(set);
        set = p;
        nchosen++;
    }
    return set;
}

/* Every ruleset's plugins loaded again from files[0..n), as a whole. With
 * why_not, when the last file is taken by no ruleset, nothing changes and
 * *why_not gets the reason of the ruleset named `reason_of` (else of the
 * first): false. */
static bool reload_plugins(char *const *files, int n, const char *reason_of, char **why_not) {
    arb_plugins *sets[MAX_RULESETS];
    bool took[MAX_RULESETS][ARB_MAX_PLUGINS];
    char *why[MAX_RULESETS][ARB_MAX_PLUGINS];
    bool last_taken = n == 0 || !why_not;
    for (int i = 0; i < nloaded; i++) {
        sets[i] = set_for(loaded[i], files, n, took[i], why[i]);
        if (n && took[i][n - 1]) last_taken = true;
    }
    if (!last_taken) {
        int r = ruleset_index(reason_of);
        const char *reason = why[r < 0 ? 0 : r][n - 1];
        *why_not = copy(reason ? reason : "the plugin could not be loaded");
    }
    for (int i = 0; i < nloaded; i++) {
        if (!last_taken) { /* undone */
            arb_free_plugins(sets[i]);
            for (int k = 0; k < n; k++)
                free(why[i][k]);
            continue;
        }
        arb_free_plugins(with[i]);
        with[i] = sets[i];
        for (int k = 0; k < ARB_MAX_PLUGINS; k++) {
            free(refusal[i][k]);
            takes[i][k] = k < n && took[i][k];
            refusal[i][k] = k < n ? why[i][k] : NULL;
        }
    }
    return last_taken;
}

/* What the plugin of file says of itself in a ruling's record ("name",
 * "hash": "plugin_files" of `arbiter rule --json`), under ruleset i. */
static json_t *plugin_record(int i, const char *file) {
    char *json = NULL;
    arb_rule_json_plugins(loaded[i], with[i], "{}", 2, &json);
    json_t *ruling = json ? json_loads(json, 0, NULL) : NULL;
    free(json);
    json_t *found = NULL, *one;
    size_t k;
    json_array_foreach(json_object_get(ruling, "plugin_files"), k, one) {
        const char *f = json_string_value(json_object_get(one, "file"));
        if (f && strcmp(f, file) == 0) found = json_incref(one);
    }
    json_decref(ruling);
    return found;
}

/* The plugins loaded, in order: [{"file", "name", "hash" (as a ruling's
 * "plugin_files" gives them), "rulesets" (those that take it), "refused":
 * {ruleset: why not}}]. */
EMSCRIPTEN_KEEPALIVE char *arbw_plugins(void) {
    json_t *list = json_array();
    for (int k = 0; k < nplugins; k++) {
        json_t *one = json_object(), *names = json_array(), *refused = json_object();
        json_t *record = NULL;
        for (int i = 0; i < nloaded; i++) {
            if (takes[i][k]) {
                json_array_append_new(names, json_string(arb_name(loaded[i])));
                if (!record) record = plugin_record(i, plugin_file[k]);
            } else if (refusal[i][k]) {
                json_object_set_new(refused, arb_name(loaded[i]), json_string(refusal[i][k]));
            }
        }
        json_object_set_new(one, "file", json_string(plugin_file[k]));
        json_object_set(one, "name", record ? json_object_get(record, "name") : json_null());
        json_object_set(one, "hash", record ? json_object_get(record, "hash") : json_null());
        json_object_set_new(one, "rulesets", names);
        json_object_set_new(one, "refused", refused);
        json_decref(record);
        json_array_append_new(list, one);
    }
    char *out = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    if (!out) return fail(ARB_NO_MEMORY, "%s", "out of memory");
    outcome(ARB_OK, NULL);
    return out;
}

static int plugin_index(const char *file) {
    for (int k = 0; file && k < nplugins; k++)
        if (strcmp(plugin_file[k], file) == 0) return k;
    return -1;
}

/* Loads a plugin from its text (source), under its file's name (file, as
 * `--plugin FILE` names it in a ruling's record), for every ruleset that
 * takes it, after the plugins loaded before. A plugin no ruleset takes
 * changes nothing: the error is the CLI's (`arbiter rule --ruleset
 * RULESET --plugin FILE`; RULESET the one whose reason to give). Returns
 * the plugins as arbw_plugins gives them. */
EMSCRIPTEN_KEEPALIVE char *arbw_plugin_add(const char *file, const char *source,
                                           const char *ruleset) {
    if (!file || !*file || strchr(file, '/') || strcmp(file, ".") == 0 || strcmp(file, "..") == 0 ||
        strlen(file) > 200)
        return fail(ARB_BAD_INPUT, "give the plugin's file name (such as club.lua), not '%s'",
                    file);
    if (!source) return fail(ARB_BAD_INPUT, "%s", "give the plugin's text");
    if (nloaded == 0) return fail(ARB_BAD_INPUT, "%s", "no ruleset is loaded (arbw_init)");
    if (plugin_index(file) >= 0)
        return fail(ARB_BAD_INPUT, "a plugin from %s is loaded already: remove it first", file);
    if (nplugins == ARB_MAX_PLUGINS)
        return fail(ARB_BAD_INPUT, "at most " ARB_STR(ARB_MAX_PLUGINS) " plugins, not '%s'", file);
    if ((mkdir(PLUGIN_DIR, 0755) != 0 && errno != EEXIST) || chdir(PLUGIN_DIR) != 0)
        return fail(ARB_BAD_INPUT, "cannot write the plugin: %s", strerror(errno));
    FILE *f = fopen(file, "wb");
    size_t len = strlen(source);
    bool written = f && fwrite(source, 1, len, f) == len;
    if (f && fclose(f) != 0) written = false;
    if (!written) {
        unlink(file);
        return fail(ARB_BAD_INPUT, "cannot write the plugin %s", file);
    }
    char *files[ARB_MAX_PLUGINS];
    for (int k = 0; k < nplugins; k++)
        files[k] = plugin_file[k];
    files[nplugins] = copy(file);
    char *why = NULL;
    if (!files[nplugins] || !reload_plugins(files, nplugins + 1, ruleset, &why)) {
        free(files[nplugins]);
        unlink(file);
        outcome(ARB_BAD_INPUT, why ? why : copy("out of memory"));
        return NULL;
    }
    plugin_file[nplugins] = files[nplugins];
    nplugins++;
    return arbw_plugins();
}

/* Removes the plugin loaded from file: the rulesets rule on without it. */
EMSCRIPTEN_KEEPALIVE char *arbw_plugin_remove(const char *file) {
    int k = plugin_index(file);
    if (k < 0) return fail(ARB_BAD_INPUT, "no plugin from '%s' is loaded", file);
    unlink(plugin_file[k]);
    free(plugin_file[k]);
    memmove(&plugin_file[k], &plugin_file[k + 1], (size_t)(nplugins - k - 1) * sizeof *plugin_file);
    nplugins--;
    reload_plugins(plugin_file, nplugins, NULL, NULL);
    return arbw_plugins();
}
