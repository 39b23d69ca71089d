/* arbiter.c — the library API over the compiler and the evaluator. */
#include "arbiter.h"

#include "cache.h"
#include "eval.h"
#include "output.h"
#include "scenario.h"
#include "../plugins/plugin.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *try_dir(const char *base, const char *name) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", base, name) >= (int)sizeof path) return NULL;
    return is_dir(path) ? strdup(path) : NULL;
}

/* Where installed rulesets are looked for, in order: $ARBITER_RULESETS,
 * rulesets/ beside the program (a build tree) and share/arbiter/rulesets
 * (an installation), ./rulesets. The first place that has `name` (or, for
 * NULL, the first that exists) wins. */
static char *search_rulesets(const char *name) {
    char *found = NULL;
    const char *env = getenv("ARBITER_RULESETS");
    if (env) {
        char *copy = strdup(env), *save = NULL;
        for (char *p = strtok_r(copy, ":", &save); p && !found; p = strtok_r(NULL, ":", &save))
            found = try_dir(p, name ? name : ".");
        free(copy);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!found && n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        char base[PATH_MAX + 32];
        snprintf(base, sizeof base, "%s/../rulesets", exe);
        found = try_dir(base, name ? name : ".");
        if (!found) {
            snprintf(base, sizeof base, "%s/../share/arbiter/rulesets", exe);
            found = try_dir(base, name ? name : ".");
        }
    }
    if (!found) found = try_dir("rulesets", name ? name : ".");
    return found;
}

char *arb_find_ruleset(const char *name) {
    if (strchr(name, '/') || is_dir(name)) {
        struct stat st;
        return stat(name, &st) == 0 ? strdup(name) : NULL;
    }
    return search_rulesets(name);
}

char *arb_rulesets_dir(void) {
    char *dir = search_rulesets(NULL);
    size_t n = dir ? strlen(dir) : 0;
    if (n >= 2 && strcmp(dir + n - 2, "/.") == 0) dir[n - 2] = 0; /* try_dir's "base/." */
    return dir;
}

/* A directory is a ruleset when one of its files has a `ruleset` header. */
static bool has_header(const char *dir) {
    DIR *dp = opendir(dir);
    if (!dp) return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (n < 7 || strcmp(e->d_name + n - 6, ".rules") != 0) continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        char *text = read_file(path, NULL);
        for (const char *p = text; p && *p && !found; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
            found = strncmp(p, "ruleset ", 8) == 0;
        free(text);
    }
    closedir(dp);
    return found;
}

int arb_list_rulesets(const char *dir, char ***names) {
    *names = NULL;
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' || snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        if (!has_header(path)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **grown = realloc(*names, sizeof **names * (size_t)cap);
            if (!grown) break;
            *names = grown;
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(dp);
    if (n) qsort(*names, (size_t)n, sizeof **names, compare_strings);
    return n;
}

arb_ruleset *arb_load(const char *name, FILE *errors) {
    return arb_load_amended(name, NULL, 0, errors);
}

arb_ruleset *arb_load_amended(const char *name, const char *const *amendments, int namendments, FILE *errors) {
    char *path = arb_find_ruleset(name);
    diag *d = diag_new(errors ? errors : stderr);
    if (!errors) diag_mute(d, 1);
    ruleset *rs = NULL;
    if (!path) {
        src_loc none = {name, 0, 0};
        ERR(d, none, "`arbiter rulesets` lists the installed ones", "no ruleset named or at '%s'", name);
    } else {
        rs = cache_compile(path, amendments, namendments, d, NULL);
    }
    free(path);
    diag_free(d);
    return rs;
}

void arb_free(arb_ruleset *rs) {
    ruleset_free(rs);
}

const char *arb_name(const arb_ruleset *rs) {
    return rs->name;
}

const char *arb_title(const arb_ruleset *rs) {
    return rs->title;
}

void arb_hash(const arb_ruleset *rs, char buf[32]) {
    output_hash(rs, buf);
}

static char *error_json(const char *status, const char *msg, long line) {
    json_t *o = json_object();
    if (line > 0) json_object_set_new(o, "line", json_integer(line));
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "error", json_string(msg));
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

static enum arb_status rule_one(const arb_ruleset *rs, const arb_plugins *plugins, const char *text, size_t len,
                                long line, char **json) {
    if (len > ARB_MAX_LINE) { /* not parsed: a JSON tree takes many times the text's memory */
        char msg[120];
        snprintf(msg, sizeof msg, "the scenario is longer than %d bytes; a scenario is one JSON object (per line)",
                 ARB_MAX_LINE);
        *json = error_json("bad_input", msg, line);
        return ARB_BAD_INPUT;
    }
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = plugins ? plugin_set_hooks(plugins) : NULL;
    strbuf err;
    sb_init(&err);
    enum arb_status st;
    if (!scenario_read_json(&sc, text, len, &err)) {
        *json = error_json("bad_input", err.data, line);
        st = ARB_BAD_INPUT;
    } else {
        ruling r;
        if (!scenario_rule(rs, rs->root, &sc, &r, &err)) {
            *json = error_json("plugin_error", err.data, line);
            ruling_clear(&r);
            sb_free(&err);
            scenario_free(&sc);
            return ARB_BAD_INPUT;
        }
        json_t *o = output_json(&r, &sc);
        if (line > 0) json_object_set_new(o, "line", json_integer(line));
        *json = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(o);
        st = r.status == RULING_OK ? ARB_OK
             : (r.status == RULING_NEEDS || r.status == RULING_REJECTED) ? ARB_BAD_INPUT
                                                                          : ARB_NO_RULING;
        ruling_clear(&r);
    }
    sb_free(&err);
    scenario_free(&sc);
    return st;
}

enum arb_status arb_rule_json(const arb_ruleset *rs, const char *scenario, size_t len, char **json) {
    return rule_one(rs, NULL, scenario, len, 0, json);
}

enum arb_status arb_rule_json_plugins(const arb_ruleset *rs, const arb_plugins *p, const char *scenario, size_t len,
                                      char **json) {
    return rule_one(rs, p, scenario, len, 0, json);
}

enum arb_status arb_rule_batch(const arb_ruleset *rs, const char *text, size_t len, FILE *out) {
    return arb_rule_batch_plugins(rs, NULL, text, len, out);
}

arb_plugins *arb_load_plugins(const arb_ruleset *rs, const char *const *paths, int n, FILE *errors) {
    arb_plugins *p = malloc(sizeof *p);
    strbuf err;
    sb_init(&err);
    if (p && !plugin_set_load(p, rs, paths, n, (plugin_limits){0}, &err)) {
        if (errors) fprintf(errors, "arbiter: %s\n", err.data);
        free(p);
        p = NULL;
    }
    sb_free(&err);
    return p;
}

void arb_free_plugins(arb_plugins *p) {
    if (!p) return;
    plugin_set_free(p);
    free(p);
}

enum arb_status arb_rule_batch_plugins(const arb_ruleset *rs, const arb_plugins *plugins, const char *text, size_t len,
                                       FILE *out) {
    enum arb_status worst = ARB_OK;
    long line = 0;
    for (size_t at = 0; at < len;) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t n = nl ? (size_t)(nl - start) : len - at;
        at += n + 1;
        line++;
        size_t k = 0;
        while (k < n && (start[k] == ' ' || start[k] == '\t' || start[k] == '\r')) k++;
        if (k == n) continue; /* blank lines are not scenarios */
        char *json;
        enum arb_status st = rule_one(rs, plugins, start, n, line, &json);
        fprintf(out, "%s\n", json);
        free(json);
        if (st > worst) worst = st;
    }
    return worst;
}
