/* csvline.h — one line of a CSV sheet split into its fields by libcsv, for
 * the sheets a scorer gives (session.c, scoring.c), a line at a time, as
 * the readers number their lines for their messages; and a field written
 * back, quoted by libcsv, for the sheets arbiter writes (csvout.c,
 * pbnfile.c). */
#ifndef ARBITER_CSVLINE_H
#define ARBITER_CSVLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define CSV_LINE_FIELDS 16 /* fields kept; one more sets too_many */
#define CSV_LINE_MAX 512   /* characters of a line, its end included */

typedef struct csv_line {
    char *f[CSV_LINE_FIELDS]; /* each terminated in text */
    int col[CSV_LINE_FIELDS]; /* where each begins in the line: its column, counted from 1 */
    int n;
    int bad_col;   /* when the split fails: the column of the field at fault */
    bool too_many; /* more than the caller's max fields */
    size_t used;
    char text[2 * CSV_LINE_MAX];
} csv_line;

/* Splits line (one line, no line break, shorter than CSV_LINE_MAX) at sep
 * into at most max fields (max <= CSV_LINE_FIELDS): strict, a quote closes
 * its field before a separator and opens only a field's first character.
 * False, with msg and bad_col, for a quote out of place. Columns count
 * characters (UTF-8), as an editor shows them. */
bool csv_line_split(const char *line, char sep, int max, csv_line *out, char *msg, size_t msgsz);

/* Appends text as one CSV field, then a comma or (last) a line break:
 * quoted, its quotes doubled, always with `quote`, else only when it holds
 * a comma, a quote or a line break. */
void csv_put_field(strbuf *out, const char *text, bool quote, bool last);

#endif
