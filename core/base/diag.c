/* diag.c — error reporting with file:line:col, the source line and a caret. */
#include "diag.h"

#include "util.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DIAG_MAX_SOURCES 256

/* A runaway file can make thousands of errors, each quoting its line: after
 * this many messages the rest are counted, not shown, and a quoted line is
 * cut to a window around the caret. */
#define DIAG_MAX_SHOWN 100
#define DIAG_LINE_WINDOW 160

struct diag {
    FILE *out;
    int errors, reports, muted, shown;
    int nsources;
    char *files[DIAG_MAX_SOURCES]; /* copies: a source outlives what registered it */
    const char *texts[DIAG_MAX_SOURCES];
    char *owned[DIAG_MAX_SOURCES]; /* what holds each text, freed with the diag */
    char last[512];
    /* where the last message was, to drop the same message at the same
     * place (one condition compiled into two graphs meets its mistake
     * twice) */
    char last_file[256]; /* a copy: the file name may not outlive its report */
    int last_line, last_col;
    enum diag_level last_lvl;
};

diag *diag_new(FILE *out) {
    diag *d = xcalloc(1, sizeof *d);
    d->out = out;
    return d;
}

void diag_free(diag *d) {
    if (!d) return;
    for (int i = 0; i < d->nsources; i++) {
        xfree(d->files[i]);
        xfree(d->owned[i]);
    }
    xfree(d);
}

static char *copy_of(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    return memcpy(p, s, n);
}

bool diag_take_source(diag *d, const char *file, char *text, const char *shown) {
    if (d->nsources == DIAG_MAX_SOURCES) return false;
    d->files[d->nsources] = copy_of(file);
    d->owned[d->nsources] = text;
    d->texts[d->nsources++] = shown;
    return true;
}

void diag_add_source(diag *d, const char *file, const char *text) {
    char *copy = copy_of(text);
    if (!diag_take_source(d, file, copy, copy)) xfree(copy);
}

static const char *source_line(const diag *d, src_loc at, int *len) {
    for (int i = d->nsources - 1; i >= 0; i--) {
        if (!at.file || strcmp(d->files[i], at.file) != 0) continue;
        const char *p = d->texts[i];
        for (int line = 1; line < at.line && *p; p++)
            if (*p == '\n') line++;
        const char *e = strchr(p, '\n');
        *len = e ? (int)(e - p) : (int)strlen(p);
        return p;
    }
    return NULL;
}

/* n bytes of s as sb_put_visible writes them: a message quotes what it
 * was given, and on a terminal an escape sequence would act instead of
 * showing. */
static void put_visible(FILE *out, const char *s, size_t n) {
    strbuf sb;
    sb_init(&sb);
    sb_put_visible(&sb, s, n);
    if (sb.len) fwrite(sb.data, 1, sb.len, out);
    sb_free(&sb);
}

/* The line, or DIAG_LINE_WINDOW bytes of it around the caret ("..." where
 * it is cut), and the caret under the column. */
static void show_caret(const diag *d, src_loc at) {
    int len;
    const char *line = source_line(d, at, &len);
    if (!line || at.col <= 0) return;
    int from = at.col > DIAG_LINE_WINDOW / 2 ? at.col - DIAG_LINE_WINDOW / 2 : 1;
    if (from > len) from = len > 0 ? len : 1;
    int shown = len - (from - 1) < DIAG_LINE_WINDOW ? len - (from - 1) : DIAG_LINE_WINDOW;
    const char *lead = from > 1 ? "..." : "";
    fprintf(d->out, "    %s", lead);
    put_visible(d->out, line + from - 1, (size_t)shown);
    fprintf(d->out, "%s\n    %s", from - 1 + shown < len ? "..." : "", from > 1 ? "   " : "");
    for (int i = from; i < at.col && i - from < shown; i++)
        fputc(line[i - 1] == '\t' ? '\t' : ' ', d->out);
    fputs("^\n", d->out);
}

void diag_report(diag *d, enum diag_level lvl, src_loc at, const char *hint, const char *fmt, ...) {
    static const char *names[] = {"error", "warning", "note"};
    char text[sizeof d->last];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    bool again = d->reports && lvl == d->last_lvl && at.file && at.line > 0 &&
                 at.line == d->last_line && at.col == d->last_col &&
                 strcmp(at.file, d->last_file) == 0 && strcmp(text, d->last) == 0;
    if (again) return;
    if (lvl == DIAG_ERROR) d->errors++;
    d->reports++;
    memcpy(d->last, text, sizeof d->last);
    snprintf(d->last_file, sizeof d->last_file, "%s", at.file ? at.file : "");
    d->last_line = at.line;
    d->last_col = at.col;
    d->last_lvl = lvl;
    if (d->muted || d->shown > DIAG_MAX_SHOWN) return;
    if (++d->shown > DIAG_MAX_SHOWN) {
        fprintf(d->out, "note: more than %d messages; the rest are not shown\n", DIAG_MAX_SHOWN);
        return;
    }
    if (at.file) put_visible(d->out, at.file, strlen(at.file));
    if (at.file && at.line > 0)
        fprintf(d->out, ":%d:%d: ", at.line, at.col);
    else if (at.file)
        fputs(": ", d->out);
    fprintf(d->out, "%s: ", names[lvl]);
    put_visible(d->out, d->last, strlen(d->last));
    fputc('\n', d->out);
    if (at.file && at.line > 0) show_caret(d, at);
    if (hint) fprintf(d->out, "    hint: %s\n", hint);
}

int diag_errors(const diag *d) {
    return d->errors;
}

int diag_reports(const diag *d) {
    return d->reports;
}

void diag_mute(diag *d, int muted) {
    d->muted = muted;
}

const char *diag_last(const diag *d) {
    return d->last;
}
