/* serve.c — `arbiter serve`: the library over HTTP.
 *
 * A small pool of threads (libmicrohttpd's) answers requests in parallel:
 * a loaded ruleset is read-only and shared by all of them (arbiter.h), and
 * what a request builds is its own. A plugin serves one call at a time (it
 * has a lock of its own); requests that run the plugins also take turns
 * (plugin_lock), which keeps a plugin's time limit the ruling's own.
 * Bodies, connections, idle time and the time a whole request may take are
 * limited, so that slow or many clients cannot hold the table up (the
 * limits below; docs/robustness.md, "The server"); every bad request is
 * answered with a status and
 * {"error": "…"}, never with a crash. SIGINT or SIGTERM stops it: no new
 * connection is taken, answers being made or sent are finished (for up to
 * STOP_GRACE_MS), and it exits with status 0.
 *
 * The endpoints (JSON in, JSON out; the answers are those of the CLI's
 * --json, built by the same library functions), listed after this comment.
 */

/* clang-format off */
/*
 *   GET  /api/rulesets                     each ruleset served: name, title, hash, game, what it scores
 *   GET  /api/rulesets/NAME                the same, with its articles and its facts (questions, choices)
 *   POST /api/next        {ruleset, scenario}              the ruling, or the next question it needs
 *   POST /api/rule        {ruleset, scenario}              the ruling (`arbiter rule --json`)
 *   POST /api/compare     {rulesets: [A, B…], scenario}    `arbiter compare --json`
 *   POST /api/score       {ruleset, contract, vulnerable}  `arbiter score --json`
 *   POST /api/klaverjas   {ruleset, hand}                  `arbiter score --json` on a klaverjas hand
 *   POST /api/matchpoints {ruleset, csv}                   the rows of `arbiter matchpoints --json`
 *   POST /api/session     {ruleset, csv, method}           `arbiter session --json` under "session"
 *   POST /api/pbn         {ruleset, pbn}                   `arbiter pbn --json` under "games"
 *                                                          (400 with "error" and the games read)
 *                         {ruleset, pbn, ranking: true}    `arbiter pbn --ranking --json` under "session"
 *                         {ruleset, pbn, totals: true}     `arbiter pbn --totals --json` under "totals"
 *                         {pbn, export: true}              `arbiter pbn --export --json`
 *   POST /api/ranking     {ruleset, csv}                   `arbiter ranking --json` under "ranking"
 *   The four above also take "format": "csv": the CSV the command prints
 *   (arb_csv), under "csv"; /api/session and /api/pbn with "ranking" take
 *   "boards": true for the boards' CSV (`--boards`).
 *   GET  /api/graph?ruleset=NAME&article=N                 the article's decision graph as DOT, with its title (and title_en)
 *   GET  /, /FILE                                          the web app (core/serve/web, or --web)
 */
/* clang-format on */
#include "serve.h"

#include "arbiter.h"

#include <jansson.h>
#include <microhttpd.h>

#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_BODY (256 * 1024) /* a scenario is a few hundred bytes; a big matchpoint sheet fits */
#define MAX_SERVED 64
#define MAX_COMPARED ARB_MAX_COMPARED
#define SERVE_THREADS 4     /* requests answered in parallel (a ruling takes under a millisecond) */
#define IDLE_SECONDS 10     /* a connection that sends or takes nothing for this long is dropped */
#define REQUEST_SECONDS 10  /* a request must arrive whole, and its answer leave, within this */
#define MAX_CONNECTIONS 256 /* open at once, from everyone */
#define MAX_PER_CLIENT 64   /* open at once from one address (a reverse proxy is one address) */
#define SLOW_AFTER_MS 1000  /* a request still arriving after this may be dropped for a newcomer */
#define REAP_MS 200         /* how often the deadlines are checked */
#define STOP_GRACE_MS 3000  /* at a stop signal, how long answers in progress may take to finish */

typedef struct served {
    arb_ruleset *rs;
    arb_plugins *plugins; /* loaded for this ruleset (a plugin checks the names it uses) */
    json_t *articles;     /* [{"id", "title", "ruled"}] (arb_ruleset_json), read only once loaded */
} served;

/* An open connection as the deadline sees it. The list is shared by the
 * pool's threads and the main thread (which enforces the deadline), under
 * the tracker's lock; an entry is removed (under the lock) before
 * libmicrohttpd closes its socket, so a shutdown() under the lock never
 * reaches a socket number that was reused. */
typedef struct tracked {
    struct tracked *prev, *next;
    int fd;
    struct sockaddr_storage addr;
    int64_t phase_start_ms; /* when the request began arriving, or its answer began */
    int64_t deadline_ms;    /* past it the connection is shut down */
    bool answering;         /* the request is whole: its answer is being made or sent */
    bool dropped;           /* shut down, and waiting for libmicrohttpd to close it */
} tracked;

typedef struct tracker {
    pthread_mutex_t lock;
    tracked *head;
} tracker;

typedef struct server {
    served sets[MAX_SERVED];
    int n;
    char *web;
    bool verbose;
    bool has_plugins; /* then plugin_lock is taken around every request that rules */
    pthread_mutex_t plugin_lock;
    tracker conns;
} server;

/* A request's body as it arrives. */
typedef struct request {
    char *body; /* len bytes, at most MAX_BODY */
    size_t len;
    bool too_big;
    struct timespec start;
} request;

/* What an endpoint answers. */
typedef struct reply {
    unsigned status;
    json_t *body;
} reply;

/* A line of the --verbose log on stderr. The method, the address and the
 * Content-Length it quotes are the client's: a control character is shown
 * as '?', or a client could send an escape sequence to the terminal that
 * shows the log (%1b%5b2J in an address clears it). */
static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    unsigned char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text) return;
    va_start(ap, fmt);
    vsnprintf((char *)text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    arb_mask_controls((char *)text, (size_t)n);
    fwrite(text, 1, (size_t)n, stderr);
    free(text);
}

/* ---- replies ---- */

static reply ok(json_t *body) {
    return (reply){MHD_HTTP_OK, body};
}

static reply fail(unsigned status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static reply fail(unsigned status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    reply r = {status, json_pack("{ss}", "error", msg ? msg : "")};
    free(msg);
    return r;
}

/* ---- the request's JSON ---- */

/* The first key of the request that the endpoint does not take, or NULL. */
static const char *unknown_key(json_t *in, const char *const *keys) {
    const char *key;
    json_t *v;
    json_object_foreach(in, key, v) {
        int i = 0;
        while (keys[i] && strcmp(keys[i], key) != 0)
            i++;
        if (!keys[i]) return key;
    }
    return NULL;
}

static bool check_keys(json_t *in, const char *const *keys, reply *out) {
    const char *bad = unknown_key(in, keys);
    if (!bad) return true;
    char list[256] = "";
    for (int i = 0, at = 0; keys[i] && at < (int)sizeof list; i++)
        at += snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", keys[i]);
    *out = fail(MHD_HTTP_BAD_REQUEST, "unknown key '%s' (this endpoint takes: %s)", bad, list);
    return false;
}

static served *find_served(server *s, const char *name) {
    for (int i = 0; name && i < s->n; i++)
        if (strcmp(arb_name(s->sets[i].rs), name) == 0) return &s->sets[i];
    return NULL;
}

static served *served_by_name(server *s, const char *name, reply *out) {
    served *sv = find_served(s, name);
    if (!sv)
        *out = fail(MHD_HTTP_NOT_FOUND, "no ruleset '%s' is served (GET /api/rulesets lists them)",
                    name);
    return sv;
}

/* The ruleset a request names under "ruleset". */
static served *request_ruleset(server *s, json_t *in, reply *out) {
    json_t *name = json_object_get(in, "ruleset");
    if (!json_is_string(name)) {
        *out = fail(MHD_HTTP_BAD_REQUEST,
                    "give \"ruleset\": the name of a ruleset (GET /api/rulesets lists them)");
        return NULL;
    }
    return served_by_name(s, json_string_value(name), out);
}

static bool is_klaverjas(const arb_ruleset *rs) {
    const char *game = arb_game(rs);
    return game && strcmp(game, "klaverjas") == 0;
}

/* ---- rulesets as the web app reads them ---- */

/* The JSON text a call of arbiter.h gave (malloc'd, freed here) as a tree;
 * NULL when there is none. */
static json_t *parsed(char *text) {
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return j;
}

static json_t *fact_json(const arb_ruleset *rs, int f) {
    return parsed(arb_fact_json(rs, f));
}

static reply api_rulesets(server *s) {
    json_t *list = json_array();
    for (int i = 0; i < s->n; i++)
        json_array_append_new(list, parsed(arb_ruleset_json(s->sets[i].rs, 0)));
    return ok(json_pack("{so}", "rulesets", list));
}

static reply api_ruleset(server *s, const char *name) {
    reply out;
    served *sv = served_by_name(s, name, &out);
    return sv ? ok(parsed(arb_ruleset_json(sv->rs, 1))) : out;
}

/* ---- rulings ---- */

/* The request's "scenario" as JSON text (malloc'd), or NULL with the reply. */
static char *scenario_text(json_t *obj, reply *out) {
    if (!json_is_object(obj)) {
        *out = fail(MHD_HTTP_BAD_REQUEST,
                    "give \"scenario\": an object of facts, as in a scenario file");
        return NULL;
    }
    return json_dumps(obj, JSON_COMPACT);
}

/* A ruling's answer that is no ruling: a scenario that could not be read,
 * or a plugin that refused it or failed (arb_rule_json's "bad_input" and
 * "plugin_error"). */
static bool is_refusal(json_t *j) {
    const char *status = json_string_value(json_object_get(j, "status"));
    return status && (strcmp(status, "bad_input") == 0 || strcmp(status, "plugin_error") == 0);
}

/* Sets the ruleset's title on a ruling, before what arb_rule_next_json
 * added (the order the web app has always been given). */
static void set_title(json_t *j, const char *title) {
    json_t *question = json_incref(json_object_get(j, "question"));
    json_t *impossible = json_incref(json_object_get(j, "impossible"));
    json_object_del(j, "question");
    json_object_del(j, "impossible");
    json_object_set_new(j, "title", json_string(title));
    if (question) json_object_set_new(j, "question", question);
    if (impossible) json_object_set_new(j, "impossible", impossible);
}

static reply rule_scenario(server *s, json_t *in, bool next) {
    static const char *const keys[] = {"ruleset", "scenario", NULL};
    reply out;
    served *sv = check_keys(in, keys, &out) ? request_ruleset(s, in, &out) : NULL;
    char *text = sv ? scenario_text(json_object_get(in, "scenario"), &out) : NULL;
    if (!text) return out;
    const arb_plugins *p = sv->plugins;
    char *answer = NULL;
    enum arb_status st = next ? arb_rule_next_json(sv->rs, p, text, strlen(text), &answer)
                              : arb_rule_json_plugins(sv->rs, p, text, strlen(text), &answer);
    free(text);
    if (st == ARB_NO_MEMORY) { /* the server's fault, for now: the client may try again */
        free(answer);
        return fail(MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    }
    json_t *j = parsed(answer);
    if (!j) return fail(MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    if (is_refusal(j)) {
        out = fail(MHD_HTTP_BAD_REQUEST, "%s", json_string_value(json_object_get(j, "error")));
        json_decref(j);
        return out;
    }
    set_title(j, arb_title(sv->rs));
    return ok(j);
}

static reply api_next(server *s, json_t *in) {
    return rule_scenario(s, in, true);
}

static reply api_rule(server *s, json_t *in) {
    return rule_scenario(s, in, false);
}

/* The rulesets a comparison names, 2 to 8 of them. */
static int compared_rulesets(server *s, json_t *in, served **out, reply *err) {
    json_t *names = json_object_get(in, "rulesets");
    size_t n = json_array_size(names);
    if (n < 2 || n > MAX_COMPARED) {
        *err = fail(MHD_HTTP_BAD_REQUEST, "give \"rulesets\": a list of 2 to %d ruleset names",
                    MAX_COMPARED);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *name = json_array_get(names, i);
        if (!json_is_string(name)) {
            *err = fail(MHD_HTTP_BAD_REQUEST, "\"rulesets\" holds names (strings)");
            return -1;
        }
        if (!(out[i] = served_by_name(s, json_string_value(name), err))) return -1;
    }
    return (int)n;
}

/* Beside each ruling that needs a fact, that fact's question, as /api/next gives it. */
static void add_questions(json_t *rulings, served *const *sets) {
    size_t i;
    json_t *one;
    json_array_foreach(rulings, i, one) {
        const char *needs = json_string_value(json_object_get(one, "needs"));
        json_t *question = needs ? fact_json(sets[i]->rs, arb_fact_find(sets[i]->rs, needs)) : NULL;
        if (question) json_object_set_new(one, "question", question);
    }
}

static reply api_compare(server *s, json_t *in) {
    static const char *const keys[] = {"rulesets", "scenario", NULL};
    served *sets[MAX_COMPARED];
    reply out;
    int n = check_keys(in, keys, &out) ? compared_rulesets(s, in, sets, &out) : -1;
    if (n < 0) return out;
    json_t *obj = json_object_get(in, "scenario");
    if (!json_is_object(obj))
        return fail(MHD_HTTP_BAD_REQUEST, "give \"scenario\": an object of facts");
    char *text = json_dumps(obj, JSON_COMPACT);
    const arb_ruleset *rulesets[MAX_COMPARED];
    const arb_plugins *plugins[MAX_COMPARED];
    for (int i = 0; i < n; i++) {
        rulesets[i] = sets[i]->rs;
        plugins[i] = sets[i]->plugins;
    }
    char *json = NULL, *error = NULL;
    arb_compare_json(rulesets, plugins, n, text, strlen(text), &json, &error);
    json_t *j = parsed(json);
    if (error || !j) { /* a plugin failed (each one that did, a line each) */
        out = fail(MHD_HTTP_BAD_REQUEST, "%s", error ? error : "out of memory");
        json_decref(j);
    } else {
        add_questions(json_object_get(j, "rulings"), sets);
        out = ok(j);
    }
    free(error);
    free(text);
    return out;
}

/* ---- scores ---- */

/* A scorer's call failed: the rule files gave no ruling (422), the
 * request lacked or broke something (400) — the CLI's exit statuses 1 and 2
 * — or the server ran out of memory (503: it may do better later). */
static reply score_failed(enum arb_status st, const char *error, const char *hint) {
    return fail(st == ARB_NO_RULING   ? MHD_HTTP_UNPROCESSABLE_CONTENT
                : st == ARB_NO_MEMORY ? MHD_HTTP_SERVICE_UNAVAILABLE
                                      : MHD_HTTP_BAD_REQUEST,
                "%s%s", error ? error : "", hint);
}

static reply api_klaverjas(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "hand", NULL};
    reply out;
    served *sv = check_keys(in, keys, &out) ? request_ruleset(s, in, &out) : NULL;
    if (!sv) return out;
    if (!is_klaverjas(sv->rs))
        return fail(MHD_HTTP_BAD_REQUEST, "%s is not a klaverjas ruleset", arb_name(sv->rs));
    char *text = scenario_text(json_object_get(in, "hand"), &out);
    if (!text) return out;
    char *json = NULL, *error = NULL;
    enum arb_status st =
        arb_score_hand_json(sv->rs, sv->plugins, text, strlen(text), &json, &error);
    out = st == ARB_OK ? ok(parsed(json)) : score_failed(st, error, "");
    free(error);
    free(text);
    return out;
}

static reply api_score(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "contract", "vulnerable", NULL};
    reply out;
    served *sv = check_keys(in, keys, &out) ? request_ruleset(s, in, &out) : NULL;
    if (!sv) return out;
    const char *contract = json_string_value(json_object_get(in, "contract"));
    json_t *vul = json_object_get(in, "vulnerable");
    if (!contract)
        return fail(MHD_HTTP_BAD_REQUEST,
                    "give \"contract\": a contract and its result, such as \"4SX+1\"");
    if (vul && !json_is_boolean(vul))
        return fail(MHD_HTTP_BAD_REQUEST, "\"vulnerable\" is true or false");
    if (is_klaverjas(sv->rs))
        return fail(MHD_HTTP_BAD_REQUEST, "%s scores hands: POST /api/klaverjas", arb_name(sv->rs));
    enum arb_vulnerability v = !vul                ? ARB_VULNERABILITY_UNKNOWN
                               : json_is_true(vul) ? ARB_VULNERABLE
                                                   : ARB_NOT_VULNERABLE;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_score_contract(sv->rs, sv->plugins, contract, v, NULL, &json, &error);
    json_t *j = parsed(json);
    if (st == ARB_OK) {
        out = ok(j);
    } else {
        /* the ruling that needs a fact comes with the error: it is the vulnerability when none was
         * given */
        bool needs = json_object_get(j, "needs") != NULL;
        out = score_failed(st, error, needs && !vul ? "; give \"vulnerable\": true or false" : "");
        json_decref(j);
    }
    free(error);
    return out;
}

/* ---- the decision graph ---- */

/* An article of the ruleset as arb_ruleset_json gives it (NULL when it has none). */
static json_t *article_of(const served *sv, const char *id) {
    size_t i;
    json_t *a;
    json_array_foreach(sv->articles, i, a) {
        if (strcmp(json_string_value(json_object_get(a, "id")), id) == 0) return a;
    }
    return NULL;
}

static reply api_graph(server *s, struct MHD_Connection *c) {
    const char *name = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "ruleset");
    const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "article");
    reply out;
    if (!name || !id) return fail(MHD_HTTP_BAD_REQUEST, "give ?ruleset=NAME&article=N");
    served *sv = served_by_name(s, name, &out);
    if (!sv) return out;
    char *dot = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&dot, &len);
    if (!f) return fail(MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    enum arb_status st = arb_graph_dot(sv->rs, id, f, NULL);
    fclose(f);
    if (st != ARB_OK)
        out = fail(MHD_HTTP_NOT_FOUND, "%s has no article %s", arb_name(sv->rs), id);
    else {
        json_t *article = article_of(sv, id), *title = json_object_get(article, "title");
        json_t *j = json_pack("{ssssss}", "ruleset", arb_name(sv->rs), "article", id, "title",
                              title ? json_string_value(title) : "");
        json_t *title_en =
            json_object_get(article, "title_en"); /* only where the rule files give it */
        if (title_en) json_object_set(j, "title_en", title_en);
        json_object_set_new(j, "dot", json_string(dot));
        out = ok(j);
    }
    free(dot);
    return out;
}

/* ---- routing ---- */

typedef reply (*post_fn)(server *s, json_t *in);

/* The text of the request's key, checked to be text; NULL (with the
 * answer in *out) when it is not. */
static const char *request_text(json_t *in, const char *key, const char *what, size_t *len,
                                reply *out) {
    json_t *v = json_object_get(in, key);
    if (!json_is_string(v)) {
        *out = fail(MHD_HTTP_BAD_REQUEST, "give \"%s\": %s", key, what);
        return NULL;
    }
    *len = json_string_length(v);
    if (strlen(json_string_value(v)) != *len) {
        *out = fail(MHD_HTTP_BAD_REQUEST, "\"%s\" is not text (it holds a NUL character)", key);
        return NULL;
    }
    return json_string_value(v);
}

/* The form of CSV a scorer's request asks for with "format": "csv"
 * (arb_csv's form, given by the endpoint), NULL for JSON, the default;
 * false, with the answer in *out, for another format. */
static bool request_format(json_t *in, const char *csv_form, const char **form, reply *out) {
    json_t *format = json_object_get(in, "format");
    *form = NULL;
    if (!format || (json_is_string(format) && strcmp(json_string_value(format), "json") == 0))
        return true;
    if (json_is_string(format) && strcmp(json_string_value(format), "csv") == 0) {
        *form = csv_form;
        return true;
    }
    *out = fail(MHD_HTTP_BAD_REQUEST, "\"format\" is json or csv");
    return false;
}

/* A library call's JSON answer (taken) as the body's value under key, or
 * with a CSV form the library's CSV of it under "csv". */
static json_t *answer_value(const char *form, char *json, const char **key) {
    if (!form) return parsed(json);
    char *csv = NULL;
    enum arb_status st = json ? arb_csv(form, json, strlen(json), &csv, NULL) : ARB_BAD_INPUT;
    free(json);
    *key = "csv";
    json_t *text = st == ARB_OK ? json_string(csv) : NULL;
    free(csv);
    return text;
}

/* A library call's answer under key (or, with a CSV form, its CSV under
 * "csv"), or its error as a 400. */
static reply answered(served *sv, enum arb_status st, const char *key, const char *form, char *json,
                      char *error) {
    json_t *value = st == ARB_OK ? answer_value(form, json, &key) : NULL;
    reply out = value ? ok(json_pack("{ssso}", "ruleset", arb_name(sv->rs), key, value))
                      : fail(st == ARB_OK || st == ARB_NO_MEMORY ? MHD_HTTP_SERVICE_UNAVAILABLE
                                                                 : MHD_HTTP_BAD_REQUEST,
                             "%s",
                             st == ARB_OK ? "out of memory"
                             : error      ? error
                                          : "");
    if (st != ARB_OK) free(json);
    free(error);
    return out;
}

/* The flag `key` of a request (absent: false); false, with the answer in
 * *out, when it is not true or false. */
static bool request_flag(json_t *in, const char *key, bool *flag, reply *out) {
    json_t *v = json_object_get(in, key);
    *flag = json_is_true(v);
    if (!v || json_is_boolean(v)) return true;
    *out = fail(MHD_HTTP_BAD_REQUEST, "\"%s\" is true or false", key);
    return false;
}

/* A pairs session's sheet (CSV with a header row), scored and ranked. */
static reply api_session(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "csv", "method", "format", "boards", NULL};
    reply out;
    bool boards;
    if (!request_flag(in, "boards", &boards, &out)) return out;
    const char *form;
    served *sv = check_keys(in, keys, &out) &&
                         request_format(in, boards ? "session-boards" : "session", &form, &out)
                     ? request_ruleset(s, in, &out)
                     : NULL;
    size_t len = 0;
    const char *sheet =
        sv ? request_text(in, "csv",
                          "the session's sheet, a header row and a line per board and table", &len,
                          &out)
           : NULL;
    if (!sheet) return out;
    json_t *method = json_object_get(in, "method");
    if (method && !json_is_string(method))
        return fail(MHD_HTTP_BAD_REQUEST, "\"method\" is matchpoints, butler, cross or total");
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_session_json(sv->rs, sv->plugins, sheet, len,
                                          method ? json_string_value(method) : NULL, &json, &error);
    return answered(sv, st, "session", form, json, error);
}

/* A PBN file in the export format: {"pbn": text}, no ruleset needed. */
static reply api_pbn_export(json_t *in) {
    size_t len = 0;
    reply out;
    const char *pbn = request_text(in, "pbn", "the text of a PBN file", &len, &out);
    if (!pbn) return out;
    char *text = NULL, *error = NULL;
    enum arb_status st = arb_pbn_export(pbn, len, "pbn", &text, &error);
    out = st == ARB_OK
              ? ok(json_pack("{ss}", "pbn", text))
              : fail(st == ARB_NO_MEMORY ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_BAD_REQUEST,
                     "%s", error ? error : "");
    free(text);
    free(error);
    return out;
}

/* A PBN file's games scored and matchpointed; with "ranking": true its
 * ScoreTables' rows ranked as a session ("boards": true, in CSV, the
 * rows), with "totals": true its TotalScoreTable against that ranking,
 * with "export": true the file in the export format. */
static reply api_pbn(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "pbn",    "export", "ranking",
                                       "totals",  "boards", "format", NULL};
    reply out;
    bool export_format, ranking, totals, boards;
    if (!request_flag(in, "export", &export_format, &out) ||
        !request_flag(in, "ranking", &ranking, &out) ||
        !request_flag(in, "totals", &totals, &out) || !request_flag(in, "boards", &boards, &out))
        return out;
    if (export_format + ranking + totals > 1)
        return fail(MHD_HTTP_BAD_REQUEST, "\"export\", \"ranking\", \"totals\": one at a time");
    if (export_format) return check_keys(in, keys, &out) ? api_pbn_export(in) : out;
    const char *form, *key = totals ? "totals" : ranking ? "session" : "games";
    const char *csv_form = totals     ? "pbn-totals"
                           : !ranking ? "pbn"
                           : boards   ? "session-boards"
                                      : "session";
    served *sv = check_keys(in, keys, &out) && request_format(in, csv_form, &form, &out)
                     ? request_ruleset(s, in, &out)
                     : NULL;
    size_t len = 0;
    const char *pbn = sv ? request_text(in, "pbn", "the text of a PBN file", &len, &out) : NULL;
    if (!pbn) return out;
    char *json = NULL, *error = NULL;
    enum arb_status st =
        totals    ? arb_pbn_totals_json(sv->rs, sv->plugins, pbn, len, "pbn", &json, &error)
        : ranking ? arb_pbn_session_json(sv->rs, sv->plugins, pbn, len, "pbn", &json, &error)
                  : arb_pbn_score_json(sv->rs, sv->plugins, pbn, len, "pbn", &json, &error);
    json_t *value = st == ARB_BAD_INPUT && json ? answer_value(form, json, &key) : NULL;
    if (value) { /* the file's mistakes, and the games read all the same, as the CLI gives both */
        reply out = {MHD_HTTP_BAD_REQUEST, json_pack("{sssoss}", "ruleset", arb_name(sv->rs), key,
                                                     value, "error", error ? error : "")};
        free(error);
        return out;
    }
    return answered(sv, st, key, form, st == ARB_BAD_INPUT ? NULL : json, error);
}

/* A matchpoint sheet's pairs ranked, ties broken as the ruleset says. */
static reply api_ranking(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "csv", "format", NULL};
    reply out;
    const char *form;
    served *sv = check_keys(in, keys, &out) && request_format(in, "ranking", &form, &out)
                     ? request_ruleset(s, in, &out)
                     : NULL;
    size_t len = 0;
    const char *sheet = sv ? request_text(in, "csv", "board,pair,score lines", &len, &out) : NULL;
    if (!sheet) return out;
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_ranking_json(sv->rs, sv->plugins, sheet, len, &json, &error);
    return answered(sv, st, "ranking", form, json, error);
}

/* A matchpoint sheet's rows matchpointed, board by board. */
static reply api_matchpoints(server *s, json_t *in) {
    static const char *const keys[] = {"ruleset", "csv", "format", NULL};
    reply out;
    const char *form;
    served *sv = check_keys(in, keys, &out) && request_format(in, "matchpoints", &form, &out)
                     ? request_ruleset(s, in, &out)
                     : NULL;
    size_t len = 0;
    const char *sheet =
        sv ? request_text(in, "csv", "the scores, one per line, or board,pair,score", &len, &out)
           : NULL;
    if (!sheet) return out;
    if (arb_sheet_score_count(sheet, len) > ARB_MAX_SCORES)
        return fail(MHD_HTTP_CONTENT_TOO_LARGE, "at most %d scores in one sheet", ARB_MAX_SCORES);
    char *json = NULL, *error = NULL;
    enum arb_status st = arb_matchpoints_sheet(sv->rs, sv->plugins, sheet, len, &json, &error);
    return answered(sv, st, "rows", form, json, error);
}

static const struct post_route {
    const char *path;
    post_fn fn;
} post_routes[] = {
    {"/api/next", api_next},           {"/api/rule", api_rule},
    {"/api/compare", api_compare},     {"/api/score", api_score},
    {"/api/klaverjas", api_klaverjas}, {"/api/matchpoints", api_matchpoints},
    {"/api/session", api_session},     {"/api/pbn", api_pbn},
    {"/api/ranking", api_ranking},
};

#define NPOST (int)(sizeof post_routes / sizeof *post_routes)

static reply post_json(server *s, post_fn fn, const request *rq) {
    if (rq->too_big)
        return fail(MHD_HTTP_CONTENT_TOO_LARGE, "the request is larger than %d bytes", MAX_BODY);
    json_error_t je;
    json_t *in = json_loadb(rq->body ? rq->body : "", rq->len, JSON_REJECT_DUPLICATES, &je);
    if (!in)
        return fail(MHD_HTTP_BAD_REQUEST, "malformed JSON at line %d, column %d: %s", je.line,
                    je.column, je.text);
    if (!json_is_object(in)) {
        json_decref(in);
        return fail(MHD_HTTP_BAD_REQUEST, "the request is a JSON object");
    }
    /* Every POST endpoint rules with the served set's plugins, whose Lua
     * states are not safe to share between threads: with plugins loaded,
     * these requests take turns (rulings without plugins do not). */
    if (s->has_plugins) pthread_mutex_lock(&s->plugin_lock);
    reply out = fn(s, in);
    if (s->has_plugins) pthread_mutex_unlock(&s->plugin_lock);
    json_decref(in);
    return out;
}

static bool is_method(const char *method, const char *want) {
    return strcmp(method, want) == 0;
}

static reply method_not_allowed(const char *method, const char *allowed, const char **allow) {
    *allow = allowed;
    return fail(MHD_HTTP_METHOD_NOT_ALLOWED, "%s is not allowed here; use %s", method, allowed);
}

/* An /api/ request; *allow is set for a 405. */
static reply route_api(server *s, struct MHD_Connection *c, const char *url, const char *method,
                       const request *rq, const char **allow) {
    bool get = is_method(method, "GET") || is_method(method, "HEAD");
    for (int i = 0; i < NPOST; i++) {
        if (strcmp(url, post_routes[i].path) != 0) continue;
        if (!is_method(method, "POST")) return method_not_allowed(method, "POST", allow);
        return post_json(s, post_routes[i].fn, rq);
    }
    bool known = strcmp(url, "/api/rulesets") == 0 || strncmp(url, "/api/rulesets/", 14) == 0 ||
                 strcmp(url, "/api/graph") == 0;
    if (!known)
        return fail(MHD_HTTP_NOT_FOUND, "no endpoint %s (see core/serve/serve.c or docs/guide.md)",
                    url);
    if (!get) return method_not_allowed(method, "GET, HEAD", allow);
    if (strcmp(url, "/api/rulesets") == 0) return api_rulesets(s);
    if (strcmp(url, "/api/graph") == 0) return api_graph(s, c);
    return api_ruleset(s, url + 14);
}

/* ---- connections: the whole-request deadline and the limit per address ---- */

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static bool same_address(const struct sockaddr_storage *a, const struct sockaddr *b) {
    if (a->ss_family != b->sa_family) return false;
    if (b->sa_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
               ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    if (b->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
    return false;
}

/* A new phase of a connection: its request arriving (answering false) or
 * its answer being made and sent (true), each within REQUEST_SECONDS. */
static void mark_answering(server *s, struct MHD_Connection *c, bool answering) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    tracked *t = info ? info->socket_context : NULL;
    if (!t) return;
    pthread_mutex_lock(&s->conns.lock);
    t->answering = answering;
    t->phase_start_ms = now_ms();
    t->deadline_ms = t->phase_start_ms + REQUEST_SECONDS * 1000;
    pthread_mutex_unlock(&s->conns.lock);
}

/* Shuts a connection down (under the lock): libmicrohttpd's thread sees
 * it closed at once and closes it, which frees its place. */
static void drop(tracked *t) {
    shutdown(t->fd, SHUT_RDWR);
    t->dropped = true;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode what) {
    server *s = cls;
    tracked *t = *socket_context;
    if (what == MHD_CONNECTION_NOTIFY_CLOSED) {
        if (!t) return;
        pthread_mutex_lock(&s->conns.lock);
        if (t->prev)
            t->prev->next = t->next;
        else
            s->conns.head = t->next;
        if (t->next) t->next->prev = t->prev;
        pthread_mutex_unlock(&s->conns.lock);
        free(t);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *addr =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!fd || !(t = calloc(1, sizeof *t))) return; /* untracked: only the idle timeout applies */
    t->fd = fd->connect_fd;
    if (addr && addr->client_addr) {
        socklen_t len = addr->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                                 : sizeof(struct sockaddr_in);
        memcpy(&t->addr, addr->client_addr, len);
    }
    t->phase_start_ms = now_ms();
    t->deadline_ms = t->phase_start_ms + REQUEST_SECONDS * 1000;
    pthread_mutex_lock(&s->conns.lock);
    t->next = s->conns.head;
    if (t->next) t->next->prev = t;
    s->conns.head = t;
    pthread_mutex_unlock(&s->conns.lock);
    *socket_context = t;
}

/* Before a connection is accepted: an address may hold MAX_PER_CLIENT
 * connections. Past that, its oldest connection whose request has been
 * arriving for more than SLOW_AFTER_MS is dropped to make room (a slow
 * client cannot keep a fast one out); when there is none, the newcomer is
 * refused. */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len) {
    (void)len;
    server *s = cls;
    int64_t now = now_ms();
    int open = 0;
    tracked *slowest = NULL;
    pthread_mutex_lock(&s->conns.lock);
    for (tracked *t = s->conns.head; t; t = t->next) {
        if (t->dropped || !same_address(&t->addr, addr)) continue;
        open++;
        bool slow = !t->answering && now - t->phase_start_ms > SLOW_AFTER_MS;
        if (slow && (!slowest || t->phase_start_ms < slowest->phase_start_ms)) slowest = t;
    }
    bool room = open < MAX_PER_CLIENT;
    if (!room && slowest) {
        drop(slowest);
        room = true;
    }
    pthread_mutex_unlock(&s->conns.lock);
    if (!room && s->verbose)
        fprintf(stderr, "refused a connection: %d open from that address\n", open);
    return room ? MHD_YES : MHD_NO;
}

/* Shuts down the connections past their deadline; returns how many are
 * answering (for the stop). */
static int enforce_deadlines(server *s) {
    int64_t now = now_ms();
    int answering = 0, dropped = 0;
    pthread_mutex_lock(&s->conns.lock);
    for (tracked *t = s->conns.head; t; t = t->next) {
        if (t->dropped) continue;
        if (now > t->deadline_ms) {
            drop(t);
            dropped++;
        } else {
            answering += t->answering;
        }
    }
    pthread_mutex_unlock(&s->conns.lock);
    if (dropped && s->verbose)
        fprintf(stderr, "dropped %d connection(s) past the %d s deadline\n", dropped,
                REQUEST_SECONDS);
    return answering;
}

/* ---- answering ---- */

static void common_headers(struct MHD_Response *r) {
    /* The app loads nothing from elsewhere (no CDN): say so to the browser. */
    MHD_add_response_header(
        r, "Content-Security-Policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned status, const char *type,
                               char *data, size_t len, const char *allow, bool cache) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(data);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", cache ? "no-cache" : "no-store");
    if (allow) MHD_add_response_header(r, "Allow", allow);
    common_headers(r);
    enum MHD_Result res = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return res;
}

static enum MHD_Result respond_json(struct MHD_Connection *c, reply out, const char *allow) {
    char *text = json_dumps(out.body, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out.body);
    if (!text) return MHD_NO;
    size_t len = strlen(text);
    return respond(c, out.status, "application/json; charset=utf-8", text, len, allow, false);
}

static const char *content_type(const char *name) {
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".json", "application/json; charset=utf-8"},
        {".ico", "image/x-icon"},
        {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"},
        {".webmanifest", "application/manifest+json"},
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (strcmp(dot, types[i][0]) == 0) return types[i][1];
    return "application/octet-stream";
}

/* A file name of the app: letters, digits, '.', '-', '_', not starting
 * with '.' — so that no URL reaches outside core/serve/web. */
static bool is_app_file(const char *name) {
    if (!*name || *name == '.' || strlen(name) > 64) return false;
    for (const char *p = name; *p; p++)
        if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') || ('0' <= *p && *p <= '9') ||
              *p == '.' || *p == '-' || *p == '_'))
            return false;
    return true;
}

/* A file of the app (malloc'd, len bytes), or NULL. */
static char *read_whole_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *data = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&data, &size);
    char chunk[8192];
    size_t n;
    bool good = mem != NULL;
    while (good && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        good = fwrite(chunk, 1, n, mem) == n;
    good = good && !ferror(f);
    fclose(f);
    if (mem) fclose(mem);
    if (!good) {
        free(data);
        return NULL;
    }
    *len = size;
    return data;
}

static enum MHD_Result serve_file(server *s, struct MHD_Connection *c, const char *url,
                                  const char *method) {
    if (!is_method(method, "GET") && !is_method(method, "HEAD"))
        return respond_json(
            c, fail(MHD_HTTP_METHOD_NOT_ALLOWED, "%s is not allowed here; use GET", method),
            "GET, HEAD");
    const char *name = strcmp(url, "/") == 0 ? "index.html" : url + 1;
    char path[PATH_MAX];
    size_t len = 0;
    char *data = NULL;
    if (s->web && is_app_file(name) &&
        snprintf(path, sizeof path, "%s/%s", s->web, name) < (int)sizeof path)
        data = read_whole_file(path, &len);
    if (!data) return respond_json(c, fail(MHD_HTTP_NOT_FOUND, "no page %s", url), NULL);
    return respond(c, MHD_HTTP_OK, content_type(name), data, len, NULL, true);
}

static double elapsed_ms(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) * 1e3 +
           (double)(now.tv_nsec - start->tv_nsec) / 1e6;
}

/* Whether s is UTF-8 text, as jansson takes it. */
static bool is_text(const char *s) {
    json_t *j = json_string(s);
    json_decref(j);
    return j != NULL;
}

/* The query's arguments: each UTF-8 text, each named once. */
typedef struct arguments {
    const char *why;
    const char *seen[8];
    int n;
} arguments;

static enum MHD_Result check_argument(void *cls, enum MHD_ValueKind kind, const char *key,
                                      const char *value) {
    (void)kind;
    arguments *a = cls;
    if (!is_text(key) || (value && !is_text(value))) {
        a->why = "an argument of the address is not UTF-8 text";
        return MHD_NO;
    }
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->seen[i], key) == 0) {
            a->why = "an argument of the address is given twice";
            return MHD_NO;
        }
    if (a->n < 8) a->seen[a->n++] = key;
    return MHD_YES;
}

static enum MHD_Result answer(server *s, struct MHD_Connection *c, const char *url,
                              const char *method, const request *rq) {
    /* An address that is not UTF-8 (%ff) quoted in the error made an answer
     * jansson refused: the connection was closed without one. An argument
     * given twice was taken the first time, the second passed over. */
    arguments args = {.why = is_text(url) ? NULL : "the address is not UTF-8 text"};
    if (!args.why && strncmp(url, "/api/", 5) == 0)
        MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, check_argument, &args);
    if (args.why) return respond_json(c, fail(MHD_HTTP_BAD_REQUEST, "%s", args.why), NULL);
    if (strncmp(url, "/api/", 5) != 0) return serve_file(s, c, url, method);
    const char *allow = NULL;
    reply out = route_api(s, c, url, method, rq, &allow);
    unsigned status = out.status;
    enum MHD_Result res = respond_json(c, out, allow);
    if (s->verbose) log_line("%s %s %u %.1f ms\n", method, url, status, elapsed_ms(&rq->start));
    return res;
}

/* Adds a piece of the body (whose whole is at most MAX_BODY); one that
 * cannot be kept makes the request too big to answer. */
static void append(request *rq, const char *piece, size_t n) {
    char *body = realloc(rq->body, rq->len + n + 1);
    if (!body) {
        rq->too_big = true;
        return;
    }
    memcpy(body + rq->len, piece, n);
    rq->len += n;
    body[rq->len] = 0;
    rq->body = body;
}

/* Called for each piece of a request: first with no body, then with the
 * body in pieces, then once more to answer. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls) {
    (void)version;
    server *s = cls;
    request *rq = *con_cls;
    if (!rq) {
        if (!(rq = calloc(1, sizeof *rq))) return MHD_NO;
        clock_gettime(CLOCK_MONOTONIC, &rq->start);
        *con_cls = rq;
        const char *length =
            MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length && strtoull(length, NULL, 10) > MAX_BODY) {
            rq->too_big = true; /* refuse at once, without reading it */
            if (s->verbose) log_line("%s %s 413 (Content-Length %s)\n", method, url, length);
            return respond_json(
                c,
                fail(MHD_HTTP_CONTENT_TOO_LARGE, "the request is larger than %d bytes", MAX_BODY),
                NULL);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rq->too_big && rq->len + *upload_size <= MAX_BODY)
            append(rq, upload, *upload_size);
        else
            rq->too_big = true;
        *upload_size = 0;
        return MHD_YES;
    }
    mark_answering(s, c, true);
    return answer(s, c, url, method, rq);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why) {
    (void)why;
    /* the next request on this connection has a deadline of its own */
    mark_answering(cls, c, false);
    request *rq = *con_cls;
    if (!rq) return;
    free(rq->body);
    free(rq);
    *con_cls = NULL;
}

/* ---- starting ---- */

static void free_server(server *s) {
    for (int i = 0; i < s->n; i++) {
        arb_free_plugins(s->sets[i].plugins);
        json_decref(s->sets[i].articles);
        arb_free(s->sets[i].rs);
    }
    free(s->web);
}

/* The plugins for a ruleset, or NULL with why on stderr. */
static arb_plugins *load_plugins(const serve_config *c, const arb_ruleset *rs) {
    char *why = NULL;
    size_t len = 0;
    FILE *errors = open_memstream(&why, &len);
    arb_plugins *p =
        arb_load_plugins_limited(rs, c->plugins, c->nplugins, &c->limits, errors ? errors : stderr);
    if (errors) fclose(errors);
    if (!p && why) { /* "arbiter: REASON\n", said as the server's */
        const char *reason = strncmp(why, "arbiter: ", 9) == 0 ? why + 9 : why;
        fprintf(stderr, "arbiter serve: %s: %.*s\n", arb_name(rs), (int)strcspn(reason, "\n"),
                reason);
    }
    free(why);
    return p;
}

static bool add_ruleset(server *s, const serve_config *c, const char *name, bool must) {
    arb_ruleset *rs = arb_load(name, stderr);
    if (!rs) {
        fprintf(stderr, "arbiter serve: %s %s\n",
                must ? "cannot serve" : "skipped (it does not compile):", name);
        return !must;
    }
    if (find_served(s, arb_name(rs)) || s->n == MAX_SERVED) {
        fprintf(stderr, "arbiter serve: %s served once (or too many rulesets), %s skipped\n",
                arb_name(rs), name);
        arb_free(rs);
        return !must;
    }
    served *sv = &s->sets[s->n];
    memset(sv, 0, sizeof *sv);
    sv->plugins = load_plugins(c, rs);
    if (!sv->plugins) {
        arb_free(rs);
        return false;
    }
    sv->rs = rs;
    json_t *info = parsed(arb_ruleset_json(rs, 1));
    sv->articles = json_incref(json_object_get(info, "articles"));
    json_decref(info);
    s->n++;
    return true;
}

/* The rulesets named, or every installed one; one that does not compile is
 * skipped then (a director still gets the others), but not when named. */
static bool load_rulesets(server *s, const serve_config *c) {
    for (int i = 0; i < c->nrulesets; i++)
        if (!add_ruleset(s, c, c->rulesets[i], true)) return false;
    if (c->nrulesets) return true;
    char *dir = arb_rulesets_dir(), **names = NULL;
    int n = dir ? arb_list_rulesets(dir, &names) : 0;
    bool good = true;
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        good = good && add_ruleset(s, c, path, false);
        free(names[i]);
    }
    free(names);
    free(dir);
    if (good && s->n == 0)
        fprintf(stderr, "arbiter serve: no ruleset found (give --ruleset NAME)\n");
    return good && s->n > 0;
}

static bool is_web_dir(const char *dir) {
    char path[PATH_MAX];
    struct stat st;
    return snprintf(path, sizeof path, "%s/index.html", dir) < (int)sizeof path &&
           stat(path, &st) == 0;
}

/* core/serve/web beside the program (a build tree), share/arbiter/web (an
 * installation), or ./core/serve/web. */
static char *find_web(const char *given) {
    if (given) return is_web_dir(given) ? strdup(given) : NULL;
    char exe[PATH_MAX], dir[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        *strrchr(exe, '/') = 0;
        snprintf(dir, sizeof dir, "%s/../core/serve/web", exe);
        if (is_web_dir(dir)) return strdup(dir);
        snprintf(dir, sizeof dir, "%s/../share/arbiter/web", exe);
        if (is_web_dir(dir)) return strdup(dir);
    }
    return is_web_dir("core/serve/web") ? strdup("core/serve/web") : NULL;
}

/* "HOST:PORT", "[V6]:PORT" or ":PORT" (loopback) to a socket address. */
static bool parse_listen(const char *spec, struct sockaddr_storage *ss, char *err, size_t size) {
    char host[256];
    const char *colon = spec[0] == '[' ? strstr(spec, "]:") : strrchr(spec, ':');
    const char *start = spec[0] == '[' ? spec + 1 : spec;
    if (!colon || (size_t)(colon - start) >= sizeof host) {
        snprintf(err, size, "--listen takes HOST:PORT, such as 127.0.0.1:8080, not '%s'", spec);
        return false;
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - start), start);
    const char *port = colon + (spec[0] == '[' ? 2 : 1);
    char *end;
    long p = strtol(port, &end, 10);
    if (!*port || *end || p < 0 || p > 65535) {
        snprintf(err, size, "--listen: '%s' is not a port number", port);
        return false;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICSERV},
                    *ai;
    int rc = getaddrinfo(*host ? host : "127.0.0.1", port, &hints, &ai);
    if (rc != 0) {
        snprintf(err, size, "--listen: %s: %s", host, gai_strerror(rc));
        return false;
    }
    memcpy(ss, ai->ai_addr, ai->ai_addrlen);
    freeaddrinfo(ai);
    return true;
}

static bool is_loopback(const struct sockaddr_storage *ss) {
    if (ss->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
    return ss->ss_family == AF_INET6 &&
           IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ss)->sin6_addr);
}

/* The daemon: a pool of SERVE_THREADS, the limits above, the deadline's
 * bookkeeping (on_connection, on_accept), and an inter-thread channel so
 * that a stop can first close the door (MHD_quiesce_daemon). */
static struct MHD_Daemon *start_daemon(server *s, struct sockaddr_storage *ss) {
    unsigned flags =
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (ss->ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, on_accept, s, on_request, s, MHD_OPTION_SOCK_ADDR,
                            (struct sockaddr *)ss, MHD_OPTION_THREAD_POOL_SIZE,
                            (unsigned)SERVE_THREADS, MHD_OPTION_CONNECTION_TIMEOUT,
                            (unsigned)IDLE_SECONDS, MHD_OPTION_CONNECTION_LIMIT,
                            (unsigned)MAX_CONNECTIONS, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
                            s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
}

static void announce(server *s, struct MHD_Daemon *d, const char *listen,
                     const struct sockaddr_storage *ss) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    char host[256];
    const char *colon = listen[0] == '[' ? strstr(listen, "]:") + 1 : strrchr(listen, ':');
    snprintf(host, sizeof host, "%.*s", (int)(colon - listen), listen);
    printf("arbiter serve: http://%s:%u/ —", *host ? host : "127.0.0.1",
           info ? (unsigned)info->port : 0);
    for (int i = 0; i < s->n; i++)
        printf(" %s", arb_name(s->sets[i].rs));
    printf("%s\n", s->web ? "" : " (no web app found: the API only)");
    fflush(stdout);
    if (!is_loopback(ss))
        fprintf(stderr,
                "arbiter serve: warning: %s is reachable from other machines; anyone who can reach "
                "it can "
                "use it\n",
                listen);
}

/* Waits for SIGINT or SIGTERM, enforcing the deadlines every REAP_MS
 * meanwhile. */
static void wait_for_stop(server *s, const sigset_t *stop) {
    const struct timespec tick = {0, REAP_MS * 1000000L};
    for (;;) {
        int sig = sigtimedwait(stop, NULL, &tick);
        if (sig == SIGINT || sig == SIGTERM) return;
        if (sig < 0 && errno != EAGAIN && errno != EINTR) return;
        enforce_deadlines(s);
    }
}

/* No new connection; the answers being made or sent get STOP_GRACE_MS to
 * finish, the connections still waiting for a request are closed. */
static void stop_daemon(server *s, struct MHD_Daemon *d) {
    MHD_socket door = MHD_quiesce_daemon(d);
    int64_t until = now_ms() + STOP_GRACE_MS;
    while (enforce_deadlines(s) > 0 && now_ms() < until) {
        const struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
    MHD_stop_daemon(d);
    if (door != MHD_INVALID_SOCKET) close(door); /* quiesced: the daemon left it to us */
}

int serve_run(const serve_config *c) {
    const char *listen = c->listen ? c->listen : "127.0.0.1:8080";
    struct sockaddr_storage ss;
    char err[512];
    bool listening = parse_listen(listen, &ss, err, sizeof err);
    if (!listening) fprintf(stderr, "arbiter serve: %s\n", err);
    static server s; /* the daemon's threads point into it */
    memset(&s, 0, sizeof s);
    s.verbose = c->verbose;
    s.has_plugins = c->nplugins > 0;
    pthread_mutex_init(&s.plugin_lock, NULL);
    pthread_mutex_init(&s.conns.lock, NULL);
    if (!listening || !load_rulesets(&s, c)) {
        free_server(&s);
        return ARB_BAD_INPUT;
    }
    s.web = find_web(c->web);
    if (c->web && !s.web) {
        fprintf(stderr,
                "arbiter serve: --web %s: no index.html there\n    hint: `make web` builds the "
                "offline app in build/web\n",
                c->web);
        free_server(&s);
        return ARB_BAD_INPUT;
    }
    /* The signals are waited for here; the daemon's threads inherit the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, NULL);
    struct MHD_Daemon *d = start_daemon(&s, &ss);
    if (!d) {
        fprintf(stderr,
                "arbiter serve: cannot listen on %s (in use, or not an address of this machine?)\n",
                listen);
        free_server(&s);
        return ARB_BAD_INPUT;
    }
    announce(&s, d, listen, &ss);
    wait_for_stop(&s, &stop);
    stop_daemon(&s, d);
    if (s.verbose) fprintf(stderr, "arbiter serve: stopped\n");
    free_server(&s);
    return ARB_OK;
}
