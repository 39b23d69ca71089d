/* csvline.c — a CSV line's fields through libcsv (csvline.h). */
#include "csvline.h"

#include "mem.h"

#include <csv.h>
#include <stdio.h>
#include <string.h>

typedef struct split {
    csv_line *out;
    int max;
} split;

static void field_read(void *data, size_t len, void *user) {
    split *s = user;
    csv_line *cl = s->out;
    if (cl->n == s->max) {
        cl->too_many = true;
        return;
    }
    /* a line is shorter than CSV_LINE_MAX, so its fields and their ends fit */
    if (len >= sizeof cl->text - cl->used) len = sizeof cl->text - cl->used - 1;
    char *to = cl->text + cl->used;
    memcpy(to, data, len);
    to[len] = 0;
    cl->used += len + 1;
    cl->f[cl->n++] = to;
}

/* Where each field of line begins (cols[0..max)), as the strict reading
 * splits it: a quote opens a field only as its first character, and a
 * doubled quote inside one is a quote. Returns the fields begun. */
static int field_columns(const char *line, char sep, int *cols, int max) {
    int n = 0, col = 0;
    bool quoted = false, at_start = true;
    if (max > 0) cols[n++] = 1;
    for (const char *p = line; *p; p++) {
        col += !is_utf8_continuation((unsigned char)*p);
        if (quoted) {
            if (*p == '"' && p[1] == '"') { /* a quote inside: one character more */
                p++;
                col++;
            } else if (*p == '"') {
                quoted = false;
            }
        } else if (*p == sep) {
            if (n < max) cols[n++] = col + 1;
            at_start = true;
            continue;
        } else if (*p == '"' && at_start) {
            quoted = true;
        }
        at_start = false;
    }
    return n;
}

bool csv_line_split(const char *line, char sep, int max, csv_line *out, char *msg, size_t msgsz) {
    struct csv_parser parser;
    split s = {out, max < CSV_LINE_FIELDS ? max : CSV_LINE_FIELDS};
    out->n = 0;
    out->too_many = false;
    out->used = 0;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        snprintf(msg, msgsz, "out of memory");
        return false;
    }
    /* its field buffer from the library's allocator (out of memory unwinds) */
    csv_set_realloc_func(&parser, xrealloc);
    csv_set_free_func(&parser, xfree);
    csv_set_delim(&parser, (unsigned char)sep);
    size_t len = strlen(line), bad = utf8_bad_byte(line, len);
    /* a control character (an escape sequence in a pair's name) would act
     * on the terminal that shows the ranking; a line's closing CR is not one */
    size_t body = len > 0 && line[len - 1] == '\r' ? len - 1 : len,
           ctl = bad < len ? len : text_control_char(line, body);
    /* a byte that is not UTF-8 (a sheet saved as Latin-1 or Windows-1252):
     * jansson refuses such a string, and a pair or board named with it
     * would be dropped from the answer without a word */
    bool ok =
        bad == len && ctl == body && csv_parse(&parser, line, len, field_read, NULL, &s) == len;
    if (bad < len || ctl < body) {
        size_t at = bad < len ? bad : ctl;
        if (bad < len)
            snprintf(msg, msgsz, "byte 0x%02X is not UTF-8; save the sheet as UTF-8",
                     (unsigned char)line[at]);
        else
            snprintf(msg, msgsz, "control character U+%04X: a name or a score is plain text",
                     text_control_code(line + at));
        csv_free(&parser);
        field_columns(line, sep, out->col, CSV_LINE_FIELDS);
        out->bad_col = utf8_column(line, line + at);
        return false;
    }
    if (!ok && csv_error(&parser) == CSV_EPARSE)
        snprintf(msg, msgsz, "%s",
                 parser.quoted ? "text after a quoted field"
                               : "a quote inside a field that does not begin with one");
    else if (!ok) /* CSV_ETOOBIG: a field longer than the line cannot be */
        snprintf(msg, msgsz, "%s", csv_strerror(csv_error(&parser)));
    else if (csv_fini(&parser, field_read, NULL, &s) != 0)
        ok = false, snprintf(msg, msgsz, "a quoted field does not end with a quote");
    csv_free(&parser);
    int begun = field_columns(line, sep, out->col, CSV_LINE_FIELDS);
    out->bad_col = ok ? 0 : out->n < begun ? out->col[out->n] : out->col[begun - 1];
    return ok;
}

void csv_put_field(strbuf *out, const char *text, bool quote, bool last) {
    size_t len = strlen(text);
    if (quote || strpbrk(text, ",\"\r\n")) {
        size_t size = csv_write(NULL, 0, text, len);
        char *field = xmalloc(size);
        csv_write(field, size, text, len);
        sb_putn(out, field, size);
        xfree(field);
    } else {
        sb_putn(out, text, len);
    }
    sb_putc(out, last ? '\n' : ',');
}
