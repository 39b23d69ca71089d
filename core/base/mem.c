/* mem.c — the one allocator behind every block of the library, and the
 * protected calls that turn a failed allocation into an error of the call
 * (mem.h; docs/internals.md, "Out of memory"). */
#include "mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_allocator(void *ud, void *ptr, size_t size) {
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return ptr ? realloc(ptr, size) : malloc(size); /* malloc: glibc's realloc(NULL) is slower */
}

static mem_allocator allocator = default_allocator;
static void *allocator_ud;
static mem_reporter reporter;
static void *reporter_ud;

void mem_set_allocator(mem_allocator alloc, void *ud) {
    allocator = alloc ? alloc : default_allocator;
    allocator_ud = alloc ? ud : NULL;
}

void mem_set_reporter(mem_reporter report, void *ud) {
    reporter = report;
    reporter_ud = ud;
}

void mem_report(const char *message) {
    if (reporter)
        reporter(reporter_ud, message);
    else
        fprintf(stderr, "arbiter: %s\n", message);
}

void *mem_try_realloc(void *p, size_t n) {
    return allocator(allocator_ud, p, n ? n : 1);
}

void mem_try_free(void *p) {
    if (p) allocator(allocator_ud, p, 0);
}

/* ---- the blocks of a protected call ---- */

/* What this thread's protected call has allocated and not freed: an
 * open-addressing set of pointers, at most a quarter full, whose removals shift
 * the entries after them back (no tombstones: a batch allocates and frees
 * millions of blocks in one call); and the clean-ups registered with
 * mem_defer. */
typedef struct deferred {
    void (*cleanup)(void *);
    void *arg;
} deferred;

/* initial-exec: every allocation reads it, and the general model costs a
 * call (__tls_get_addr) per read in a shared library; the library is
 * linked, not loaded late, and this is a few hundred bytes. */
static _Thread_local __attribute__((tls_model("initial-exec"))) struct {
    mem_guard *outermost, *innermost;
    void **slots;
    size_t cap, count; /* cap: a power of two, or 0 */
    int shift;         /* 64 - log2(cap) */
    deferred deferred[MEM_MAX_DEFERRED];
    int ndeferred;
} live;

#define FIRST_CAP 64

static size_t slot_of(const void *p) { /* Fibonacci hashing of the block's address */
    return (size_t)(((uint64_t)(uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> live.shift);
}

static void place(void *p) {
    size_t i = slot_of(p);
    while (live.slots[i])
        i = (i + 1) & (live.cap - 1);
    live.slots[i] = p;
}

/* Records p; false when the set cannot grow (out of memory itself). */
static bool record(void *p) {
    if ((live.count + 1) * 4 > live.cap) {
        size_t cap = live.cap ? live.cap * 2 : FIRST_CAP, old_cap = live.cap;
        void **slots = allocator(allocator_ud, NULL, cap * sizeof *slots), **old = live.slots;
        if (!slots) return false;
        memset(slots, 0, cap * sizeof *slots);
        live.slots = slots;
        live.cap = cap;
        live.shift = 64;
        for (size_t c = cap; c > 1; c >>= 1)
            live.shift--;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i]) place(old[i]);
        mem_try_free(old);
    }
    place(p);
    live.count++;
    return true;
}

/* Forgets p; false when it was not recorded (a block from before the call). */
static bool forget(void *p) {
    if (!live.cap) return false;
    size_t mask = live.cap - 1, i = slot_of(p);
    while (live.slots[i] != p) {
        if (!live.slots[i]) return false;
        i = (i + 1) & mask;
    }
    /* shift back each later entry of the run whose home is not in (i, j] */
    for (size_t j = (i + 1) & mask; live.slots[j]; j = (j + 1) & mask) {
        size_t home = slot_of(live.slots[j]);
        bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            live.slots[i] = live.slots[j];
            i = j;
        }
    }
    live.slots[i] = NULL;
    live.count--;
    return true;
}

static void forget_all(void) {
    mem_try_free(live.slots);
    live.slots = NULL;
    live.cap = live.count = 0;
    live.ndeferred = 0;
}

void mem_enter(mem_guard *g) {
    g->outer = live.innermost;
    live.innermost = g;
    if (!live.outermost) live.outermost = g;
}

void mem_leave(mem_guard *g) {
    live.innermost = g->outer;
    if (live.outermost == g) { /* what is left is the caller's now */
        live.outermost = NULL;
        forget_all();
    }
}

bool mem_protected(void) {
    return live.outermost != NULL;
}

_Noreturn void mem_throw(void) {
    mem_guard *g = live.outermost;
    if (!g) {
        mem_report("out of memory");
        abort();
    }
    while (live.ndeferred > 0) { /* in the reverse order of registering */
        deferred d = live.deferred[--live.ndeferred];
        d.cleanup(d.arg); /* it may free recorded blocks: they are forgotten */
    }
    for (size_t i = 0; i < live.cap; i++)
        if (live.slots[i]) mem_try_free(live.slots[i]);
    forget_all();
    live.outermost = live.innermost = NULL;
    longjmp(g->at, 1);
}

int mem_defer(void (*cleanup)(void *), void *arg) {
    if (!live.outermost) return -1;
    if (live.ndeferred == MEM_MAX_DEFERRED) abort(); /* a bug: they nest only a few deep */
    live.deferred[live.ndeferred] = (deferred){cleanup, arg};
    return live.ndeferred++;
}

void mem_undefer(int handle) {
    if (handle >= 0) live.ndeferred = handle;
}

/* ---- allocating ---- */

void *xrealloc(void *p, size_t n) {
    void *q = mem_try_realloc(p, n);
    if (!q) mem_throw(); /* p is as it was: recorded, or an older object's */
    if (live.outermost && q != p) {
        bool ours = !p || forget(p); /* a block of an older object stays its */
        if (ours && !record(q)) {
            mem_try_free(q);
            mem_throw();
        }
    }
    return q;
}

void *xmalloc(size_t n) {
    return xrealloc(NULL, n);
}

void *xcalloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) mem_throw();
    void *p = xmalloc(n * size);
    memset(p, 0, n * size);
    return p;
}

char *xstrndup(const char *s, size_t n) {
    size_t len = strnlen(s, n);
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *xstrdup(const char *s) {
    return xstrndup(s, strlen(s));
}

void xfree(void *p) {
    if (!p) return;
    if (live.outermost) forget(p);
    mem_try_free(p);
}

void *mem_json_malloc(size_t n) {
    if (!live.outermost) return mem_try_realloc(NULL, n);
    return xmalloc(n);
}

void mem_json_free(void *p) {
    xfree(p);
}
