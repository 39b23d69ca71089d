/* pbnexport.h — a PBN file written again in PBN 2.1's export format.
 *
 * The export format is the strict one (2.1): a file that says so on its
 * first lines ("% PBN 2.1", "% EXPORT", escape lines, 2.4), lines ended
 * by CR LF and no longer than 255 characters (2.3), every tag pair on a
 * line of its own with a single space between name and value (3.3), the
 * tags of the mandatory tag set first, all of them, in the standard's
 * order, "?" for a value the game does not give (3.4), and the other tags
 * after them in the order the file gives them, each with its section. Tag
 * values inherited with "#" or "##" (4.8) are written out in every game;
 * the auction is written four calls a line and the play a trick a line;
 * other sections keep their lines, their tokens a single space apart.
 * Commentary stays where it was, in braces: a ";" comment becomes a brace
 * comment (3.8); what was before the first tag or after a tag of the
 * mandatory set follows that set. Escape lines of the file and
 * commentary outside a game are not written.
 */
#ifndef ARBITER_PBNEXPORT_H
#define ARBITER_PBNEXPORT_H

#include "pbn.h"

/* Appends the export of text (len bytes, read into f by pbn_read without
 * a mistake) to out. A NUL byte the lexer meets outside a tag's value or
 * a comment (text that is not the text f was read from) stops it: false,
 * and "name:line: message" appended to err. */
bool pbn_export(const char *text, size_t len, const pbn_file *f, const char *name, strbuf *out,
                strbuf *err);

#endif
