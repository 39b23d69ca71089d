/* fuzz.h — what the libFuzzer targets share: where the sources are, a
 * private scratch directory for inputs that must be files, and the rulesets
 * the scenario targets rule with (compiled once per process).
 *
 * ARB_SRCDIR is the repository root, set by the Makefile, so that a target
 * finds rulesets/ and tests/rules/ wherever it is run from. */
#ifndef ARBITER_FUZZ_H
#define ARBITER_FUZZ_H

#include "arbiter.h"
#include "compile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ARB_SRCDIR
#define ARB_SRCDIR "."
#endif

/* A directory of our own under $TMPDIR: parallel fuzzers must not write
 * over each other's input files. */
static inline const char *fuzz_scratch_dir(void) {
    static char dir[256];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/arbiter-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            abort();
        }
    }
    return dir;
}

/* Writes the input to NAME in the scratch directory; returns the path. */
static inline const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_scratch_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
    return path;
}

/* A ruleset that must compile: the targets test what comes after it. */
static inline ruleset *fuzz_compile(const char *relpath) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", ARB_SRCDIR, relpath);
    diag *d = diag_new(stderr);
    ruleset *rs = dsl_compile(path, d);
    diag_free(d);
    if (!rs) {
        fprintf(stderr, "fuzz: %s does not compile\n", path);
        abort();
    }
    return rs;
}

/* The input as a NUL-terminated string (the C parsers' contract). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* A sink for text output: formatting code runs, nothing is printed. */
static inline FILE *fuzz_devnull(void) {
    static FILE *f;
    if (!f) f = fopen("/dev/null", "w");
    if (!f) abort();
    return f;
}

/* A scorer's answer (taken; may be NULL) written as the CSV of form
 * (arb_csv), then freed: the writer is fuzzed on every answer the readers
 * give. */
static inline void fuzz_as_csv(const char *form, char *json) {
    char *csv = NULL, *error = NULL;
    if (json) arb_csv(form, json, strlen(json), &csv, &error);
    free(csv);
    free(error);
    free(json);
}

#endif
