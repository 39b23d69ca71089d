/* fixture.h — what the unit tests share. Header only: each test is one
 * file (tests/unit/test_*.c), and uses what it needs of this.
 *
 * Through arbiter.h alone:
 * - rulesets loaded once for a group of tests: name them, with the
 *   variable each goes into, in a fixture_ruleset table ending in {NULL},
 *   and run the group with FIXTURE_RUN_GROUP (the group's set-up loads
 *   them, its tear-down frees them; one that does not load fails the group);
 * - a stream a call writes to, whose text the test reads afterwards
 *   (capture_open, capture_text, capture_close, capture_close_has);
 * - assert_has: a text holds a piece (the test fails showing the text).
 * For the tests of the layers below the API, which include compile.h
 * before this file:
 * - a ruleset compiled from a path or from text, whose errors fail the
 *   test with the compiler's messages (fixture_compile_path, _text);
 * - a group sharing one such ruleset in *state (FIXTURE_RUN_COMPILED_GROUP);
 * - files in a directory of their own under /tmp (fixture_temp_dir,
 *   fixture_write, fixture_remove_tree). */
#ifndef ARBITER_TEST_FIXTURE_H
#define ARBITER_TEST_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arbiter.h"

/* ---- rulesets for a group ---- */

typedef struct fixture_ruleset {
    const char *name; /* as arb_load takes it; NULL ends the table */
    arb_ruleset **rs;
} fixture_ruleset;

static const fixture_ruleset *fixture_rulesets;

static inline int fixture_load_rulesets(void **state) {
    (void)state;
    for (const fixture_ruleset *r = fixture_rulesets; r && r->name; r++)
        if (!(*r->rs = arb_load(r->name, stderr))) return -1;
    return 0;
}

static inline int fixture_free_rulesets(void **state) {
    (void)state;
    for (const fixture_ruleset *r = fixture_rulesets; r && r->name; r++) {
        arb_free(*r->rs);
        *r->rs = NULL;
    }
    return 0;
}

#define FIXTURE_RUN_GROUP(name, tests, rulesets)                                                   \
    (fixture_rulesets = (rulesets),                                                                \
     _cmocka_run_group_tests((name), (tests), sizeof(tests) / sizeof((tests)[0]),                  \
                             fixture_load_rulesets, fixture_free_rulesets))

/* ---- what a call wrote ---- */

typedef struct fixture_capture {
    FILE *f;
    char *text;
    size_t len;
} fixture_capture;

static inline FILE *capture_open(fixture_capture *c) {
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    assert_non_null(c->f);
    return c->f;
}

/* What was written so far ("" when nothing). */
static inline const char *capture_text(fixture_capture *c) {
    fflush(c->f);
    return c->text ? c->text : "";
}

static inline void capture_close(fixture_capture *c) {
    fclose(c->f);
    free(c->text);
    c->f = NULL;
    c->text = NULL;
}

/* Closes the stream; whether what was written holds want (when it does
 * not, the text is shown). */
static inline bool capture_close_has(fixture_capture *c, const char *want) {
    bool found = strstr(capture_text(c), want) != NULL;
    if (!found) fprintf(stderr, "wanted '%s' in: %s\n", want, c->text ? c->text : "(nothing)");
    capture_close(c);
    return found;
}

static inline void assert_has(const char *text, const char *piece) {
    if (!text || !strstr(text, piece)) fail_msg("%s\nlacks %s", text ? text : "(null)", piece);
}

/* ---- compiled rulesets, for the layers below the API ---- */
#ifdef ARBITER_COMPILE_H

/* A directory of its own: dir receives its path. */
static inline void fixture_temp_dir(char dir[64]) {
    snprintf(dir, 64, "/tmp/arbiter-unit-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static inline void fixture_write(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static inline void fixture_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *dp = opendir(path);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char sub[1536]; /* a path of ours (under 1024) and a name (under 256) */
        if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
            fixture_remove_tree(sub);
    }
    if (dp) closedir(dp);
    rmdir(path);
}

static inline ruleset *fixture_compile_path(const char *path) {
    fixture_capture messages;
    diag *d = diag_new(capture_open(&messages));
    ruleset *rs = dsl_compile(path, d);
    int errors = diag_errors(d);
    diag_free(d);
    if (!rs || errors) fail_msg("%s does not compile:\n%s", path, capture_text(&messages));
    capture_close(&messages);
    return rs;
}

/* The rules as the one file of a ruleset (a.rules in a directory of its own). */
static inline ruleset *fixture_compile_text(const char *rules) {
    char dir[64], path[96];
    fixture_temp_dir(dir);
    snprintf(path, sizeof path, "%s/a.rules", dir);
    fixture_write(path, rules);
    ruleset *rs = fixture_compile_path(dir);
    fixture_remove_tree(dir);
    return rs;
}

/* A group whose tests share one ruleset, compiled from a path or from
 * text (the other NULL), in *state. */
static const char *fixture_group_path, *fixture_group_text;

static inline int fixture_compile_group(void **state) {
    *state = fixture_group_path ? fixture_compile_path(fixture_group_path)
                                : fixture_compile_text(fixture_group_text);
    return *state ? 0 : -1;
}

static inline int fixture_free_compiled(void **state) {
    ruleset_free(*state);
    return 0;
}

#define FIXTURE_RUN_COMPILED_GROUP(name, tests, path, text)                                        \
    (fixture_group_path = (path), fixture_group_text = (text),                                     \
     _cmocka_run_group_tests((name), (tests), sizeof(tests) / sizeof((tests)[0]),                  \
                             fixture_compile_group, fixture_free_compiled))

#endif
#endif
