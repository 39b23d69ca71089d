/* diag.h — the one error path. Every stage reports problems here with a
 * source location, what was expected and a hint; the caller decides when to
 * stop (after a file, after a stage). */
#ifndef ARBITER_DIAG_H
#define ARBITER_DIAG_H

#include <stdbool.h>
#include <stdio.h>

typedef struct src_loc {
    const char *file; /* NULL when there is no source (e.g. a scenario key) */
    int line, col;    /* 1-based; 0 when unknown */
} src_loc;

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

typedef struct diag diag;

/* Source texts are registered so that an error can show its line and caret;
 * the diag keeps its own copy of each (the compiler frees the file it read
 * once it is done, and the checker still reports on it afterwards). */
diag *diag_new(FILE *out);
void diag_free(diag *d);
void diag_add_source(diag *d, const char *file, const char *text);
/* The same for a text the caller allocated (xmalloc) and hands over: the
 * diag frees it, and quotes from `shown` on (within text: after a byte
 * order mark). A compile reads megabytes of rule files, which a copy would
 * read and write again. False when the diag holds all the sources it can:
 * the text is then still the caller's. */
bool diag_take_source(diag *d, const char *file, char *text, const char *shown);
void diag_report(diag *d, enum diag_level lvl, src_loc at, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int diag_errors(const diag *d);
/* Every message reported so far, errors, warnings and notes (muted or not). */
int diag_reports(const diag *d);
/* Stop printing; count only (tests, batch runs that collect errors). */
void diag_mute(diag *d, int muted);
/* The text of the last error reported (without location), for API callers. */
const char *diag_last(const diag *d);

#define ERR(d, loc, hint, ...) diag_report((d), DIAG_ERROR, (loc), (hint), __VA_ARGS__)

#endif
