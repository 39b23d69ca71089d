/* util.h — memory arenas, growable buffers and text helpers shared by every
 * module. Nothing here knows about rules or cards. */
#ifndef ARBITER_UTIL_H
#define ARBITER_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mem.h"

/* An arena owns a set of allocations that end together (a loaded
 * ruleset's tables and strings; the compiler's syntax trees and tables):
 * freeing the arena frees them all, so no stage has to clean up piecemeal
 * after an error. */
typedef struct arena arena;
arena *arena_new(void);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size); /* zeroed */
/* Asks the system to map the whole pages of [p, p + n) now, in one call,
 * instead of a fault at the first touch of each (a hint: where it cannot,
 * nothing happens). For large tables about to be filled. */
void prefault(void *p, size_t n);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable byte buffer (malloc-backed). */
typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;
void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_putc(strbuf *sb, char c);
void sb_puts(strbuf *sb, const char *s);
void sb_putn(strbuf *sb, const char *s, size_t n);
/* n bytes of s with each control character (text_control_char) written as
 * '?' for each of its bytes: a text that quotes what it was given (a
 * scenario's key, a plugin's error, a rule file's line) must not act on a
 * terminal with an escape sequence. */
void sb_put_visible(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
char *sb_take(strbuf *sb); /* caller frees; buffer reset */

/* A growable array of fixed-size elements (malloc-backed). */
typedef struct vec {
    void *data;
    int len, cap;
    size_t elem;
    bool borrowed; /* data belongs to an arena: copied before it grows, never freed here */
} vec;
void vec_init(vec *v, size_t elem);
void vec_free(vec *v);
void *vec_push(vec *v);  /* zeroed new element */
void vec_shrink(vec *v); /* capacity down to the length: a vector that is done growing */
#define VEC_AT(v, type, i) (((type *)(v)->data)[i])

/* Reads a whole regular file; NULL with errno set on failure. Caller
 * frees. A file longer than READ_FILE_MAX bytes fails with EFBIG instead of
 * taking all memory (no input arbiter reads is nearly as long), and a path
 * that is no regular file (a pipe, a device, a directory) with EINVAL,
 * before anything is read: a rule file naming a pipe no one writes would
 * wait for ever, one naming a device would read without end. */
#define READ_FILE_MAX ((size_t)16 << 20)
char *read_file(const char *path, size_t *len);
/* The text after a UTF-8 byte order mark at its start (editors on Windows
 * write one), or the text itself: len is reduced to match. */
const char *skip_bom(const char *text, size_t *len);
/* Why read_file failed, in words: strerror(err), but "not a regular file"
 * for its EINVAL. */
const char *read_file_error(int err);

/* qsort's comparison of two char * by strcmp. */
int compare_strings(const void *a, const void *b);

/* The rule files of a directory as a ruleset reads them: the names ending
 * in .rules that are not hidden, sorted. Returns how many (*names, the
 * array and each name malloc'd), or -1 when dir cannot be opened. */
int list_rule_files(const char *dir, char ***names);
/* The same for an open stream (stdin): at most READ_FILE_MAX bytes. */
char *read_stream(FILE *f, size_t *len);

/* Writes a formatted message into err (if given) and returns false, so that
 * a failing path reads `return fail_with(err, errsz, ...)`. */
bool fail_with(char *err, size_t errsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

bool is_utf8_continuation(unsigned char c);

/* The offset of the first byte of s (n bytes) that is NUL or begins no
 * valid UTF-8 sequence (a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, a sequence cut short), or n when there is
 * none: text that jansson, a browser and a terminal all take whole. */
size_t utf8_bad_byte(const char *s, size_t n);

/* The rows of v grouped by the name each holds at byte offset name_at
 * (a board, a pair), in n log n (comparing every row with every other
 * took seconds for a season's sheet): first[i] the first row with row i's
 * name (i itself at a name's first appearance); where not NULL, count[i]
 * the rows of the group whose first row is i and next[i] the group's next
 * row after i (-1 after its last), so that a group is walked in the order
 * of its rows. Each array has room for v->len. */
void vec_group_by_name(const vec *v, size_t name_at, int *first, int *count, int *next);

/* The offset of the first control character in s (n bytes of valid
 * UTF-8): a C0 byte other than a tab, DEL, or a C1 character (U+0080 to
 * U+009F, which some terminals take as the start of an escape sequence);
 * n when there is none. Text with one can move a terminal's cursor,
 * change its colours or hide what follows it. */
size_t text_control_char(const char *s, size_t n);
/* The code point of the control character at `at` (where
 * text_control_char found it): U+001B for ESC, U+009B for C2 9B. */
unsigned text_control_code(const char *at);

/* s (n bytes of UTF-8) copied into out (size bytes, its NUL included) as
 * Latin-1: a character up to U+00FF as its byte, any other as '?' (a
 * text written into a Latin-1 file stays in the file's one encoding).
 * Returns the bytes written, its NUL not counted. */
size_t latin1_from_utf8(char *out, size_t size, const char *s, size_t n);

/* s (n bytes) copied into out (size bytes, its NUL included) as UTF-8:
 * valid UTF-8 as it is, any other byte as the Latin-1 character it is in
 * a file of that encoding (0xE9 "é"); what does not fit is left off, a
 * character at a time. Returns the bytes written. */
size_t utf8_from_latin1(char *out, size_t size, const char *s, size_t n);

/* The column of at on its line, in characters from 1, as an editor shows
 * it: the line begins after the last line break before at, or at text. */
int utf8_column(const char *text, const char *at);

/* The readers of cards, calls and contracts work in ASCII: the locale must
 * not change what a card or a call is, and the bytes of a UTF-8 suit
 * symbol must pass through untouched. */
/* Inline: the readers of calls, cards and JSON Lines call them per byte. */
static inline char ascii_upper(char c) {
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}
static inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
/* Whether text, upper-cased, is exactly upper_word. */
static inline bool equals_ignoring_case(const char *text, const char *upper_word) {
    while (*text != '\0' && ascii_upper(*text) == *upper_word) {
        text++;
        upper_word++;
    }
    return *text == '\0' && *upper_word == '\0';
}
#define EXCERPT_MAX 32
#define EXCERPT_SIZE (EXCERPT_MAX + 4)
const char *text_excerpt(const char *text, size_t len, char out[EXCERPT_SIZE]);

/* Levenshtein distance, for "did you mean" hints. */
int edit_distance(const char *a, const char *b);

uint64_t fnv1a64(uint64_t h, const void *data, size_t n);
#define FNV1A64_INIT 0xcbf29ce484222325ULL

/* A hash of 32-bit integers for the tables of one run (hash-consing,
 * interning): two integers a step, a multiply and a shift each, where
 * fnv1a64 takes a step per byte. Its values are never stored; fnv1a64's
 * are (a ruleset's hash), so the two stay apart. */
static inline uint64_t hash_step(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 32);
}
static inline uint64_t hash_ints(uint64_t h, const int32_t *p, size_t n) {
    size_t i = 0;
    for (; i + 1 < n; i += 2)
        h = hash_step(h, (uint64_t)(uint32_t)p[i] | (uint64_t)(uint32_t)p[i + 1] << 32);
    if (i < n) h = hash_step(h, (uint64_t)(uint32_t)p[i] | UINT64_C(1) << 63);
    return hash_step(h, (uint64_t)n);
}
#define HASH_INIT 0x243f6a8885a308d3ULL

#endif
