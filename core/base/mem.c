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
    return realloc(ptr, size);
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
 * open-addressing set of pointers (TOMB marks a removed one), and the
 * clean-ups registered with mem_defer. */
#define TOMB ((void *)&tomb_mark)
static const char tomb_mark;

typedef struct deferred {
    void (*cleanup)(void *);
    void *arg;
} deferred;

static _Thread_local struct {
    mem_guard *outermost, *innermost;
    void **slots;
    size_t cap, count, tombs;
    deferred deferred[MEM_MAX_DEFERRED];
    int ndeferred;
} live;

static size_t slot_of(const void *p, size_t cap) {
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 20) & (cap - 1);
}

static void place(void **slots, size_t cap, void *p) {
    size_t i = slot_of(p, cap);
    while (slots[i] && slots[i] != TOMB)
        i = (i + 1) & (cap - 1);
    slots[i] = p;
}

/* Records p; false when the set cannot grow (out of memory itself). */
static bool record(void *p) {
    if ((live.count + live.tombs + 1) * 4 > live.cap * 3) {
        /* twice the size when half is live, else the same size without
         * the removed ones */
        size_t cap = !live.cap ? 256 : (live.count + 1) * 2 > live.cap ? live.cap * 2 : live.cap;
        void **slots = allocator(allocator_ud, NULL, cap * sizeof *slots);
        if (!slots) return false;
        memset(slots, 0, cap * sizeof *slots);
        for (size_t i = 0; i < live.cap; i++)
            if (live.slots[i] && live.slots[i] != TOMB) place(slots, cap, live.slots[i]);
        mem_try_free(live.slots);
        live.slots = slots;
        live.cap = cap;
        live.tombs = 0;
    }
    place(live.slots, live.cap, p);
    live.count++;
    return true;
}

/* Forgets p; false when it was not recorded (a block from before the call). */
static bool forget(void *p) {
    if (!live.cap) return false;
    for (size_t i = slot_of(p, live.cap); live.slots[i]; i = (i + 1) & (live.cap - 1))
        if (live.slots[i] == p) {
            live.slots[i] = TOMB;
            live.count--;
            live.tombs++;
            return true;
        }
    return false;
}

static void forget_all(void) {
    mem_try_free(live.slots);
    live.slots = NULL;
    live.cap = live.count = live.tombs = 0;
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
        if (live.slots[i] && live.slots[i] != TOMB) mem_try_free(live.slots[i]);
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
