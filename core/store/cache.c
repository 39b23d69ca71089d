/* cache.c — where ruleset images are kept and when one may be used.
 *
 * The trust model (docs/robustness.md, "The image cache's trust model"):
 * an image decides rulings, so it is used only when this user's arbiter
 * sealed it (image.h) in a directory nobody else can write, for the rule
 * files as they are now. Anything else is ignored and the rule files are
 * compiled, silently unless ARBITER_CACHE_VERBOSE is set. */
#include "cache.h"

#include "digest.h"
#include "image.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEY_NAME "key" /* the user's sealing key, in the cache directory */
static const char NO_KEY[] = "there is no key yet";

/* Why the cache was not used, said once a run on stderr when
 * ARBITER_CACHE_VERBOSE is set: a refused cache is no error (the rule
 * files are compiled), and a ruling's output must not depend on it. */
static void __attribute__((format(printf, 1, 2))) refuse(const char *fmt, ...) {
    static atomic_bool said; /* the server loads rulesets from several threads */
    const char *v = getenv("ARBITER_CACHE_VERBOSE");
    if (!v || !*v || strcmp(v, "0") == 0 || atomic_exchange(&said, true)) return;
    char message[PATH_MAX + 200];
    int n = snprintf(message, sizeof message, "cache: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message + n, sizeof message - (size_t)n, fmt, ap);
    va_end(ap);
    mem_report(message); /* stderr, or the embedder's sink (arb_configure) */
}

char *cache_dir(void) {
    const char *env = getenv("ARBITER_CACHE");
    if (env && *env) return strcmp(env, "off") == 0 ? NULL : xstrdup(env);
    char dir[PATH_MAX];
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') /* the XDG rule: a relative value is ignored */
        snprintf(dir, sizeof dir, "%s/arbiter", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/arbiter", home);
    else
        return NULL;
    return xstrdup(dir);
}

/* The image of the ruleset at path: DIR/NAME-HASH.arb, HASH that of the
 * real path (the same ruleset named two ways has one image), NAME its last
 * component (for a person looking in the directory). */
static bool image_path(const char *path, char out[PATH_MAX]) {
    char real[PATH_MAX];
    char *dir = cache_dir();
    if (!dir || !realpath(path, real)) {
        xfree(dir);
        return false;
    }
    const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
    unsigned long long h = fnv1a64(FNV1A64_INIT, real, strlen(real));
    int n = snprintf(out, PATH_MAX, "%s/%.64s-%016llx.arb", dir, base, h);
    xfree(dir);
    return n > 0 && n < PATH_MAX;
}

/* The rule files in dir as the compiler reads a directory, each followed
 * by '/'. */
static bool list_dir(const char *dir, strbuf *out) {
    char **names;
    int n = list_rule_files(dir, &names);
    for (int i = 0; i < n; i++) {
        sb_printf(out, "%s/", names[i]);
        xfree(names[i]);
    }
    xfree(names);
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

/* The record an image keeps of its sources (its `extra`, under the seal):
 * a SHA-256 of the rule files — each file's last path component and its
 * text, with their lengths, in the order read — then the listing of their
 * directories. The files must also still hash as the compiler hashed them
 * (rs->hash, dsl/compile_load.c read_and_parse): a file changed after the
 * compile read it is never recorded as the compiled one. */
static bool sources_record(const ruleset *rs, strbuf *out) {
    digest_sha256 *sha = digest_sha256_new(); /* the allocator's: freed if a call unwinds */
    bool ok = sha != NULL;
    uint64_t h = FNV1A64_INIT;
    for (int i = 0; i < rs->nfiles && ok; i++) {
        size_t len;
        char *text = read_file(rs->files[i], &len);
        if (!text) {
            ok = false;
            break;
        }
        const char *p = rs->files[i];
        const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        uint64_t lens[2] = {strlen(base), len};
        digest_sha256_update(sha, lens, sizeof lens);
        digest_sha256_update(sha, base, lens[0]);
        digest_sha256_update(sha, text, len);
        h = fnv1a64(h, base, strlen(base));
        h = fnv1a64(h, text, len);
        xfree(text);
    }
    unsigned char digest[DIGEST_SIZE];
    unsigned n = DIGEST_SIZE;
    ok = ok && digest_sha256_final(sha, digest) && h == rs->hash;
    if (sha) digest_sha256_free(sha);
    if (!ok) return false;
    sb_puts(out, "sha256 ");
    for (unsigned i = 0; i < n; i++)
        sb_printf(out, "%02x", digest[i]);
    sb_putc(out, '\n');
    return listing(rs, out);
}

/* Why dir may not hold images, or NULL: it must be a directory of the
 * current user's that nobody else may write (where another user could
 * swap images or the key). */
static const char *untrusted_dir(const char *dir) {
    struct stat st;
    if (stat(dir, &st) != 0) return errno == ENOENT ? "does not exist yet" : strerror(errno);
    if (!S_ISDIR(st.st_mode)) return "is not a directory";
    if (st.st_uid != geteuid()) return "belongs to another user";
    if (st.st_mode & (S_IWGRP | S_IWOTH)) return "may be written by group or others";
    return NULL;
}

/* The sealing key in dir: a regular file of the user's, read by nobody
 * else, opened without following a link, of exactly IMAGE_KEY_SIZE bytes.
 * Returns false with the reason when there is none such. */
static bool read_key(const char *dir, unsigned char key[IMAGE_KEY_SIZE], const char **why) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/" KEY_NAME, dir) >= (int)sizeof path) {
        *why = "its path is too long";
        return false;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        *why = errno == ENOENT  ? NO_KEY
               : errno == ELOOP ? "the key is a symbolic link"
                                : "the key cannot be read";
        return false;
    }
    struct stat st;
    *why = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ? "the key is not a regular file"
           : st.st_uid != geteuid()                    ? "the key belongs to another user"
           : st.st_mode & (S_IRWXG | S_IRWXO)          ? "group or others may read the key"
           : st.st_size != IMAGE_KEY_SIZE              ? "the key has the wrong size"
                                                       : NULL;
    bool ok = !*why && read(fd, key, IMAGE_KEY_SIZE) == IMAGE_KEY_SIZE;
    if (!*why && !ok) *why = "the key cannot be read";
    close(fd);
    return ok;
}

/* A new random key in dir (mode 0600), written aside and then put in
 * place: linked when there is none, so that of two runs making one at
 * once the first wins and the other reads it; renamed over one that
 * read_key refused. */
static bool make_key(const char *dir, bool replace, unsigned char key[IMAGE_KEY_SIZE]) {
    char path[PATH_MAX], tmp[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/" KEY_NAME, dir) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp)
        return false;
    unsigned char fresh[IMAGE_KEY_SIZE];
    if (!digest_random(fresh, sizeof fresh)) return false;
    int fd = mkstemp(tmp);
    if (fd < 0) return false;
    bool ok = fchmod(fd, 0600) == 0 && write(fd, fresh, sizeof fresh) == (ssize_t)sizeof fresh;
    ok = close(fd) == 0 && ok;
    ok = ok && (replace ? rename(tmp, path) == 0 : link(tmp, path) == 0);
    int saved = errno;
    unlink(tmp);
    errno = saved;
    if (ok) memcpy(key, fresh, sizeof fresh);
    const char *why;
    return ok || (!replace && errno == EEXIST && read_key(dir, key, &why));
}

/* ---- freshness by the files' sizes and times, before their contents ------
 *
 * Hashing every rule file on every start costs more than the rest of
 * loading an image, so the record also keeps, for each rule file and each
 * directory it was read from, what stat says: device, inode, size, and the
 * modification and change times to the nanosecond. When all of them are
 * as recorded, the files are the ones the image was made from, and the
 * contents are not read. Any write to a file changes its times (the
 * change time cannot be set back, not even by touch), a file replaced is a
 * new inode, and a file added or removed changes its directory's times.
 * One thing stat cannot see is a write within the same tick of the clock
 * as the record was made: a file or directory whose times are less than
 * RACY_SECONDS old when the record is made is recorded as "racy", and is
 * always hashed (as git treats its index). When the times differ but the
 * contents hash as recorded (a touch, a copy), the image is rewritten
 * with the times as they are now, so that the next start is quick again. */
/* The stat fields compared, as one line (empty for a file that cannot be
 * stat'd, which then never matches); "racy" when made is not 0 and the
 * times are not RACY_SECONDS older than it. */
static void stat_line(const char *path, time_t made, strbuf *out) {
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (made &&
        (st.st_mtim.tv_sec >= made - RACY_SECONDS || st.st_ctim.tv_sec >= made - RACY_SECONDS)) {
        sb_puts(out, "racy");
        return;
    }
    sb_printf(out, "%llu %llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)st.st_dev,
              (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
              st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

/* The directory of a rule file (".": none named), in dir. */
static bool dir_of(const char *file, char dir[PATH_MAX]) {
    const char *slash = strrchr(file, '/');
    size_t n = slash ? (size_t)(slash - file) : 1;
    if (n >= PATH_MAX) return false;
    memcpy(dir, slash ? file : ".", n);
    dir[n] = 0;
    return true;
}

/* The stat section: "stat\n", then a line per rule file of rs and per
 * directory they were read from (each once, in the order read). made is
 * the time the record is made (0: none is racy, for comparing). */
static bool stat_record(const ruleset *rs, time_t made, strbuf *out) {
    sb_puts(out, "stat\n");
    for (int i = 0; i < rs->nfiles; i++) {
        char dir[PATH_MAX];
        if (!dir_of(rs->files[i], dir)) return false;
        sb_puts(out, "f ");
        stat_line(rs->files[i], made, out);
        sb_putc(out, '\n');
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            char other[PATH_MAX];
            seen = dir_of(rs->files[j], other) && strcmp(other, dir) == 0;
        }
        if (seen) continue;
        sb_puts(out, "d ");
        stat_line(dir, made, out);
        sb_putc(out, '\n');
    }
    return true;
}

/* Whether the stat section of a record says the files are as they were:
 * every line as stat says now, and none racy. */
static bool same_stats(const ruleset *rs, const char *recorded) {
    if (!recorded || strstr(recorded, "racy")) return false;
    strbuf now;
    sb_init(&now);
    bool same = stat_record(rs, 0, &now) && strcmp(now.data, recorded) == 0;
    sb_free(&now);
    return same;
}

ruleset *cache_load(const char *path) {
    char file[PATH_MAX];
    char *dir = cache_dir();
    const char *why = dir ? untrusted_dir(dir) : NULL;
    unsigned char key[IMAGE_KEY_SIZE];
    bool usable = dir && !why && read_key(dir, key, &why) && image_path(path, file);
    if (dir && why) refuse("%s: %s; the rule files are compiled", dir, why);
    xfree(dir);
    if (!usable) return NULL;
    const char *recorded;
    char err[256];
    ruleset *rs = image_load(file, path, key, &recorded, err, sizeof err);
    if (!rs) {
        refuse("%s; the rule files are compiled", err);
        return NULL;
    }
    const char *stats = recorded ? strstr(recorded, "\nstat\n") : NULL;
    if (stats && same_stats(rs, stats + 1)) return rs; /* sizes and times as recorded */
    strbuf now;
    sb_init(&now);
    size_t sources_len = stats ? (size_t)(stats + 1 - recorded) : 0;
    bool current = stats && sources_record(rs, &now) && now.len == sources_len &&
                   memcmp(now.data, recorded, sources_len) == 0;
    sb_free(&now);
    if (!current) {
        refuse("%s: the rule files changed since the image was made; they are compiled", path);
        ruleset_free(rs);
        return NULL;
    }
    cache_store(rs, path); /* the same contents with other times: recorded anew */
    return rs;
}

/* mkdir -p, for ~/.cache/arbiter on a fresh account; what it makes only
 * the user may enter (as XDG asks of $XDG_CACHE_HOME). */
static bool make_dirs(const char *dir) {
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return false;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST) return false;
        *s = '/';
    }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}

bool cache_store(const ruleset *rs, const char *path) {
    char file[PATH_MAX];
    char *dir = cache_dir();
    const char *why = NULL;
    unsigned char key[IMAGE_KEY_SIZE];
    bool ok = dir && make_dirs(dir) && !(why = untrusted_dir(dir)) && image_path(path, file);
    if (ok && !read_key(dir, key, &why)) {
        /* a key that is missing is made; one refused is replaced, which
         * leaves every image it sealed refused too */
        if (why != NO_KEY) refuse("%s: %s; a new key is made", dir, why);
        ok = make_key(dir, why != NO_KEY, key);
    }
    strbuf record;
    sb_init(&record);
    time_t made = time(NULL);
    /* the times before the contents: a write after they were taken changes them */
    strbuf stats;
    sb_init(&stats);
    ok = ok && stat_record(rs, made, &stats) && sources_record(rs, &record);
    if (ok) sb_putn(&record, stats.data, stats.len);
    sb_free(&stats);
    char err[256];
    ok = ok && image_save(rs, record.data ? record.data : "", key, file, err, sizeof err);
    sb_free(&record);
    xfree(dir);
    return ok;
}
