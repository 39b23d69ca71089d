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
 * starts: the web build keeps no image cache (core/web/shim). */
#include "arbiter.h"

#include <emscripten/emscripten.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULESETS 32
#define ARB_STR_(x) #x
#define ARB_STR(x) ARB_STR_(x)

static arb_ruleset *loaded[MAX_RULESETS];
static int nloaded;
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
    for (int i = 0; i < nloaded; i++)
        arb_free(loaded[i]);
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

static const arb_ruleset *ruleset_named(const char *name) {
    for (int i = 0; name && i < nloaded; i++)
        if (strcmp(arb_name(loaded[i]), name) == 0) return loaded[i];
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
    if (rs) outcome(arb_rule_next_json(rs, NULL, scenario, strlen(scenario), &json), NULL);
    return json;
}

/* POST /api/rule: the ruling, as `arbiter rule --json` reads it. */
EMSCRIPTEN_KEEPALIVE char *arbw_rule(const char *name, const char *scenario) {
    const arb_ruleset *rs = served(name);
    char *json = NULL;
    if (rs) outcome(arb_rule_json(rs, scenario, strlen(scenario), &json), NULL);
    return json;
}

/* JSON Lines in, a ruling (or an error record) a line out: what `arbiter
 * rule` writes for a file of several scenarios. */
EMSCRIPTEN_KEEPALIVE char *arbw_batch(const char *name, const char *jsonl) {
    const arb_ruleset *rs = served(name);
    capture out;
    if (!rs) return NULL;
    if (!capture_open(&out)) return fail(ARB_BAD_INPUT, "%s", "out of memory");
    enum arb_status st = arb_rule_batch(rs, jsonl, strlen(jsonl), out.f);
    char *text = capture_close(&out);
    outcome(st, NULL);
    return text;
}

/* POST /api/compare: one scenario under 2 to ARB_MAX_COMPARED rulesets,
 * named in names one a line. */
EMSCRIPTEN_KEEPALIVE char *arbw_compare(const char *names, const char *scenario) {
    const arb_ruleset *sets[ARB_MAX_COMPARED];
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
        if (!(sets[n++] = served(name))) return NULL;
    }
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_compare_json(sets, NULL, n, scenario, strlen(scenario), &json, &error);
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
    enum arb_status st = arb_score_contract(rs, NULL, contract, v, NULL, &json, &error);
    outcome(st, error);
    return json;
}

/* POST /api/klaverjas: a klaverjas hand scored trick by trick. */
EMSCRIPTEN_KEEPALIVE char *arbw_klaverjas(const char *name, const char *hand) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_score_hand_json(rs, NULL, hand, strlen(hand), &json, &error);
    outcome(st, error);
    return json;
}

/* Klaverjas: which cards of a hand may be played in a position. */
EMSCRIPTEN_KEEPALIVE char *arbw_legal(const char *name, const char *position) {
    const arb_ruleset *rs = served(name);
    if (!rs) return NULL;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_legal_json(rs, NULL, position, strlen(position), &json, &error);
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
    enum arb_status st = arb_matchpoints_sheet(rs, NULL, sheet, len, &json, &error);
    outcome(st, error);
    return json;
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
