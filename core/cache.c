/* cache.c — where ruleset images are kept and when one may be used. */
#include "cache.h"

#include "../dsl/compile.h"
#include "image.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *cache_dir(void) {
    const char *env = getenv("ARBITER_CACHE");
    if (env && *env) return strcmp(env, "off") == 0 ? NULL : strdup(env);
    char dir[PATH_MAX];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') /* the XDG rule: a relative value is ignored */
        snprintf(dir, sizeof dir, "%s/arbiter", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/arbiter", home);
    else
        return NULL;
    return strdup(dir);
}

/* The image of the ruleset at path: DIR/NAME-HASH.arb, HASH that of the
 * real path (the same ruleset named two ways has one image), NAME its last
 * component (for a person looking in the directory). */
static bool image_path(const char *path, char out[PATH_MAX]) {
    char real[PATH_MAX];
    char *dir = cache_dir();
    if (!dir || !realpath(path, real)) {
        free(dir);
        return false;
    }
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    unsigned long long h = fnv1a64(FNV1A64_INIT, real, strlen(real));
    int n = snprintf(out, PATH_MAX, "%s/%.64s-%016llx.arb", dir, base, h);
    free(dir);
    return n > 0 && n < PATH_MAX;
}

/* The rule files in dir as the compiler reads a directory, each followed
 * by '/'. */
static bool list_dir(const char *dir, strbuf *out) {
    char **names;
    int n = list_rule_files(dir, &names);
    for (int i = 0; i < n; i++) {
        sb_printf(out, "%s/", names[i]);
        free(names[i]);
    }
    free(names);
    return n >= 0;
}

/* The listing of every directory a rule file of rs was read from, in the
 * order the files were read, one line each: a rule file added beside them
 * (which a directory include would read) changes it. */
static bool listing(const ruleset *rs, strbuf *out) {
    for (int i = 0; i < rs->nfiles; i++) {
        const char *f = rs->files[i], *slash = strrchr(f, '/');
        size_t n = slash ? (size_t)(slash - f) : 1;
        char dir[PATH_MAX];
        if (n >= sizeof dir) return false;
        memcpy(dir, slash ? f : ".", n);
        dir[n] = 0;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            const char *g = rs->files[j], *gs = strrchr(g, '/');
            seen = slash ? gs && (size_t)(gs - g) == n && strncmp(g, f, n) == 0 : !gs;
        }
        if (seen) continue;
        if (!list_dir(dir, out)) return false;
        sb_putc(out, '\n');
    }
    return true;
}

/* The rule files hashed as dsl/compile.c hashes them (read_and_parse):
 * each file's last path component, then its text, in the order read. */
static bool files_unchanged(const ruleset *rs) {
    uint64_t h = FNV1A64_INIT;
    for (int i = 0; i < rs->nfiles; i++) {
        size_t len;
        char *text = read_file(rs->files[i], &len);
        if (!text) return false;
        const char *p = rs->files[i];
        const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        h = fnv1a64(h, base, strlen(base));
        h = fnv1a64(h, text, len);
        free(text);
    }
    return h == rs->hash;
}

ruleset *cache_load(const char *path) {
    char file[PATH_MAX];
    if (!image_path(path, file)) return NULL;
    const char *recorded;
    char err[256];
    ruleset *rs = image_load(file, path, &recorded, err, sizeof err);
    if (!rs) return NULL;
    strbuf now;
    sb_init(&now);
    bool current = recorded && files_unchanged(rs) && listing(rs, &now) &&
                   strcmp(now.data ? now.data : "", recorded) == 0;
    sb_free(&now);
    if (!current) {
        ruleset_free(rs);
        return NULL;
    }
    return rs;
}

/* mkdir -p, for ~/.cache/arbiter on a fresh account */
static bool make_dirs(const char *dir) {
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return false;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) return false;
        *s = '/';
    }
    return mkdir(p, 0755) == 0 || errno == EEXIST;
}

bool cache_store(const ruleset *rs, const char *path) {
    char file[PATH_MAX];
    char *dir = cache_dir();
    bool ok = dir && make_dirs(dir) && image_path(path, file);
    free(dir);
    strbuf list;
    sb_init(&list);
    ok = ok && listing(rs, &list);
    char err[256];
    ok = ok && image_save(rs, list.data ? list.data : "", file, err, sizeof err);
    sb_free(&list);
    return ok;
}

ruleset *cache_compile(const char *path, const char *const *amendments, int namendments, diag *d,
                       bool *cached) {
    ruleset *rs = namendments ? NULL : cache_load(path);
    if (cached) *cached = rs != NULL;
    if (rs) return rs;
    int before = diag_reports(d);
    rs = dsl_compile_amended(path, amendments, namendments, d);
    /* An image holds no warnings: a ruleset that has some is compiled
     * each time, so that they are shown each time. */
    if (rs && !namendments && diag_reports(d) == before) cache_store(rs, path);
    return rs;
}
