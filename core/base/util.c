/* util.c — arenas, buffers, files. */
#include "util.h"

#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Arena blocks are chained; large requests get a block of their own. */
#define ARENA_BLOCK 65536

typedef struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
} arena_block;

struct arena {
    arena_block *head;
};

int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Clean-ups for a call that runs out of memory with a file or a
 * directory open (mem_defer). */
static void close_dir_unwound(void *dp) {
    closedir(dp);
}

static void close_file_unwound(void *f) {
    fclose(f);
}

int list_rule_files(const char *dir, char ***names) {
    *names = NULL;
    DIR *dp = opendir(dir);
    if (!dp) return -1;
    int undo = mem_defer(close_dir_unwound, dp);
    vec v;
    vec_init(&v, sizeof(char *));
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] != '.' && n > 6 && strcmp(e->d_name + n - 6, ".rules") == 0)
            *(char **)vec_push(&v) = xstrdup(e->d_name);
    }
    mem_undefer(undo);
    closedir(dp);
    qsort(v.data, (size_t)v.len, sizeof(char *), compare_strings);
    *names = v.data;
    return v.len;
}

arena *arena_new(void) {
    arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

void arena_free(arena *a) {
    if (!a) return;
    for (arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        xfree(b);
    }
    xfree(a);
}

/* Maps the whole pages of a new block at once, where the system can: a
 * block is filled from its start soon after, and on a virtual machine a
 * page fault per page costs more than the rest of loading a ruleset. */
void prefault(void *p, size_t n) {
#ifdef MADV_POPULATE_WRITE
    static long page;
    if (!page) page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    uintptr_t lo = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t hi = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE); /* a hint: failure is harmless */
#else
    (void)p, (void)n;
#endif
}

/* Room for size bytes, not cleared: for a copy that fills all of it. */
static void *arena_room(arena *a, size_t size) {
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = xmalloc(sizeof *b + cap);
        prefault(b, sizeof *b + cap);
        b->size = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    return p;
}

void *arena_alloc(arena *a, size_t size) {
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align; /* the padding cleared too, as it always was */
    return memset(arena_room(a, size), 0, size);
}

void sb_put_visible(strbuf *sb, const char *s, size_t n) {
    while (n > 0) {
        size_t ok = text_control_char(s, n);
        sb_putn(sb, s, ok);
        if (ok == n) return;
        size_t bad = (unsigned char)s[ok] == 0xC2 ? 2 : 1;
        for (size_t i = 0; i < bad; i++)
            sb_putc(sb, '?');
        s += ok + bad, n -= ok + bad;
    }
}

char *arena_strndup(arena *a, const char *s, size_t n) {
    char *p = arena_room(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(arena *a, const char *s) {
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(arena *a, const char *fmt, ...) {
    strbuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    char *r = arena_strndup(a, sb.data, sb.len);
    sb_free(&sb);
    return r;
}

void sb_init(strbuf *sb) {
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void sb_free(strbuf *sb) {
    xfree(sb->data);
    sb_init(sb);
}

static void sb_reserve(strbuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t cap = sb->cap ? sb->cap * 2 : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void sb_putn(strbuf *sb, const char *s, size_t n) {
    sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_putc(strbuf *sb, char c) {
    sb_putn(sb, &c, 1);
}

void sb_puts(strbuf *sb, const char *s) {
    sb_putn(sb, s, strlen(s));
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    sb_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sb_take(strbuf *sb) {
    char *p = sb->data;
    if (!p) {
        p = xmalloc(1);
        *p = 0;
    }
    sb_init(sb);
    return p;
}

void vec_init(vec *v, size_t elem) {
    v->data = NULL;
    v->len = v->cap = 0;
    v->elem = elem;
    v->borrowed = false;
}

void vec_free(vec *v) {
    if (!v->borrowed) xfree(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
    v->borrowed = false;
}

/* The elements into a block of cap of the vector's own. */
static void vec_resize(vec *v, int cap) {
    if (v->borrowed) {
        void *own = xmalloc((size_t)cap * v->elem);
        if (v->len) memcpy(own, v->data, (size_t)v->len * v->elem);
        v->data = own;
        v->borrowed = false;
    } else {
        v->data = xrealloc(v->data, (size_t)cap * v->elem);
    }
    v->cap = cap;
}

void *vec_push(vec *v) {
    if (v->len == v->cap) vec_resize(v, v->cap ? v->cap * 2 : 8);
    void *e = (char *)v->data + (size_t)v->len++ * v->elem;
    memset(e, 0, v->elem);
    return e;
}

void vec_shrink(vec *v) {
    if (v->cap == v->len || v->borrowed) return;
    vec_resize(v, v->len ? v->len : 1);
}

/* Reads into the buffer itself, as much as it has room for each time
 * (hint: the expected size, 0 if unknown), and stops just past
 * READ_FILE_MAX. */
static char *read_sized(FILE *f, size_t *len, size_t hint) {
    strbuf sb;
    sb_init(&sb);
    size_t want = hint ? hint + 1 : 8192; /* + 1: the end is seen by the same read */
    while (sb.len <= READ_FILE_MAX) {
        sb_reserve(&sb, want);
        size_t room = sb.cap - sb.len - 1, limit = READ_FILE_MAX + 1 - sb.len;
        if (room > limit) room = limit;
        size_t n = fread(sb.data + sb.len, 1, room, f);
        sb.len += n;
        sb.data[sb.len] = 0;
        if (n < room) break; /* the end, or an error */
        want = 8192;
    }
    int failed = ferror(f) ? EIO : sb.len > READ_FILE_MAX ? EFBIG : 0;
    if (failed) {
        sb_free(&sb);
        errno = failed;
        return NULL;
    }
    if (len) *len = sb.len;
    return sb_take(&sb);
}

char *read_stream(FILE *f, size_t *len) {
    return read_sized(f, len, 0);
}

char *read_file(const char *path, size_t *len) {
    /* opened without waiting (a pipe's open waits for a writer), and
     * refused unless it is a regular file */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    int bad = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (bad) {
        close(fd);
        errno = bad;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
        return NULL;
    }
    int undo = mem_defer(close_file_unwound, f);
    size_t hint = st.st_size > 0 && (size_t)st.st_size <= READ_FILE_MAX ? (size_t)st.st_size : 0;
    char *text = read_sized(f, len, hint);
    mem_undefer(undo);
    int saved = errno;
    fclose(f);
    errno = saved;
    return text;
}

const char *skip_bom(const char *text, size_t *len) {
    if (*len < 3 || memcmp(text, "\xEF\xBB\xBF", 3) != 0) return text;
    *len -= 3;
    return text + 3;
}

const char *read_file_error(int err) {
    return err == EINVAL ? "not a regular file" : strerror(err);
}

int edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int sub = prev + (a[i - 1] != b[j - 1]);
            int del = row[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            prev = cur;
        }
    }
    return row[lb];
}

uint64_t fnv1a64(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    size_t i = 0;
    /* eight steps a turn of the loop (the same steps in the same order: a
     * rule file is hashed whole on every compile) */
#define FNV_STEP(k) h = (h ^ p[i + (k)]) * 0x100000001b3ULL
    for (; i + 8 <= n; i += 8) {
        FNV_STEP(0);
        FNV_STEP(1);
        FNV_STEP(2);
        FNV_STEP(3);
        FNV_STEP(4);
        FNV_STEP(5);
        FNV_STEP(6);
        FNV_STEP(7);
    }
#undef FNV_STEP
    for (; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

bool fail_with(char *err, size_t errsz, const char *fmt, ...) {
    if (err != NULL && errsz > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errsz, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool is_utf8_continuation(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_sequence(const unsigned char *s, size_t n) {
    unsigned c = s[0], min;
    size_t len;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (n < len) return 0;
    unsigned cp = c & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

/* Eight bytes at a time where a text is plain ASCII, as most of a rule
 * file or a scenario is: a word's bytes tested together, and a word that
 * fails the test read byte by byte as before. */
#define BYTES_ONE UINT64_C(0x0101010101010101)
#define BYTES_HIGH UINT64_C(0x8080808080808080)

static inline uint64_t word_at(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Nonzero when a byte of w is below n (n <= 128). */
static inline uint64_t byte_below(uint64_t w, unsigned n) {
    return (w - BYTES_ONE * n) & ~w & BYTES_HIGH;
}

/* Every byte of the word at p from U+0001 to U+007F: each a whole,
 * valid UTF-8 sequence. */
static inline bool word_is_ascii(const unsigned char *p) {
    uint64_t w = word_at(p);
    return !(w & BYTES_HIGH) && !byte_below(w, 1);
}

size_t utf8_bad_byte(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (i + 8 <= n && word_is_ascii(u + i)) {
            i += 8;
            continue;
        }
        size_t len = u[i] ? utf8_sequence(u + i, n - i) : 0;
        if (!len) return i;
        i += len;
    }
    return n;
}

typedef struct named {
    const char *name;
    int at;
} named;

static int compare_named(const void *a, const void *b) {
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

void vec_group_by_name(const vec *v, size_t name_at, int *first, int *count, int *next) {
    int n = v->len;
    size_t room = (size_t)(n > 0 ? n : 1);
    named *sorted = xmalloc(sizeof *sorted * room);
    for (int i = 0; i < n; i++)
        sorted[i] = (named){(const char *)v->data + (size_t)i * v->elem + name_at, i};
    qsort(sorted, (size_t)n, sizeof *sorted, compare_named);
    for (int i = 0, run = 0; i < n; i++) {
        if (i > 0 && strcmp(sorted[i].name, sorted[run].name) != 0) run = i;
        first[sorted[i].at] = sorted[run].at; /* a run is sorted by row: its first is the least */
    }
    xfree(sorted);
    int *last = next ? xmalloc(sizeof *last * room) : NULL; /* per group: its row so far */
    for (int i = 0; i < n; i++) {
        if (count) count[i] = 0;
        if (next) next[i] = last[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        int g = first[i];
        if (count) count[g]++;
        if (next && last[g] >= 0) next[last[g]] = i;
        if (next) last[g] = i;
    }
    xfree(last);
}

/* Every byte of the word at p printable ASCII, U+0020 to U+007E. No byte
 * has its high bit, so adding one to each carries into no other and makes
 * 0x80 of DEL alone. */
static inline bool word_is_printable(const unsigned char *p) {
    uint64_t w = word_at(p);
    return !(w & BYTES_HIGH) && !byte_below(w, 0x20) && !((w + BYTES_ONE) & BYTES_HIGH);
}

size_t text_control_char(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++) {
        while (i + 8 <= n && word_is_printable(u + i))
            i += 8;
        if (i >= n) break;
        if ((u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7F) return i;
        if (u[i] == 0xC2 && i + 1 < n && u[i + 1] >= 0x80 && u[i + 1] <= 0x9F) return i;
    }
    return n;
}

unsigned text_control_code(const char *at) {
    const unsigned char *u = (const unsigned char *)at;
    return u[0] == 0xC2 ? u[1] : u[0];
}

size_t latin1_from_utf8(char *out, size_t size, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n && u[i] && o + 1 < size;) {
        size_t len = utf8_sequence(u + i, n - i);
        if (len == 0) len = 1; /* not UTF-8: a byte, shown as '?' */
        unsigned cp = len == 1   ? u[i]
                      : len == 2 ? (unsigned)(u[i] & 0x1F) << 6 | (u[i + 1] & 0x3F)
                                 : 0x100;
        out[o++] = cp <= 0xFF && (len > 1 || u[i] < 0x80) ? (char)cp : '?';
        i += len;
    }
    if (size) out[o] = '\0';
    return o;
}

size_t utf8_from_latin1(char *out, size_t size, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n && u[i];) {
        size_t len = utf8_sequence(u + i, n - i);
        if (o + (len ? len : 2) >= size) break;
        if (len) {
            memcpy(out + o, s + i, len);
            o += len, i += len;
        } else { /* U+0080..U+00FF */
            out[o++] = (char)(0xC0 | u[i] >> 6);
            out[o++] = (char)(0x80 | (u[i++] & 0x3F));
        }
    }
    if (size) out[o] = 0;
    return o;
}

int utf8_column(const char *text, const char *at) {
    const char *start = at;
    while (start > text && start[-1] != '\n')
        start--;
    int col = 1;
    for (const char *q = start; q < at; q++)
        col += !is_utf8_continuation((unsigned char)*q);
    return col;
}

/* Messages are one line and must show the reason, not bury it: control
 * characters become '?', and a long text is cut (never inside a UTF-8
 * character, so a quoted suit symbol stays whole) and marked with "...". */
const char *text_excerpt(const char *text, size_t len, char out[EXCERPT_SIZE]) {
    size_t n = len < EXCERPT_MAX ? len : EXCERPT_MAX;
    if (n < len) {
        while (n > 0 && is_utf8_continuation((unsigned char)text[n]))
            n--;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        out[i] = (c < 0x20 || c == 0x7F) ? '?' : (char)c;
    }
    strcpy(out + n, n < len ? "..." : "");
    return out;
}
