/* heap.c — the memory a plugin's Lua state lives in (heap.h).
 *
 * Building: blocks are carved one after another from chunks of growing
 * size (64 KiB, then twice the last), their sizes rounded up to GRAIN. A
 * freed block that ends the carved part gives its bytes back; another goes
 * on a free list of its size (up to SMALL_MAX), which the next block of
 * that size takes; a larger one goes on a list (its size kept in it) and
 * is not used again. Lua's allocator is told each block's size when it is
 * freed or resized, so a block in use needs no header.
 *
 * Frozen: the chunks' carved bytes are copied into one block, but runs of
 * free blocks (those lists' blocks next to each other) of GAP_MIN bytes or
 * more: no block of the state is there, and a file that made much garbage
 * as it loaded would copy it at every call. A block in the chunks is never
 * freed or resized in place beyond its size. A call's new blocks are
 * carved from the scratch (64 KiB, emptied by heap_restore; a freed block
 * at its top gives its bytes back) and, once it is full, each has a link
 * in front of it (the list heap_restore frees), so that a call that makes
 * much garbage has it freed and reused by the library's allocator, not
 * piled up. Which of the three a block is in is a range check, over the
 * chunks a handful of them (their sizes double). */
#include "heap.h"

#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Lua wants its blocks aligned as its most aligned type (LUAI_MAXALIGN):
 * 16 bytes is that, or more, on every target built for. */
#define GRAIN ((size_t)16)
#define FIRST_CHUNK ((size_t)64 << 10)
#define MAX_CHUNKS 48
#define SMALL_MAX ((size_t)1024)   /* sizes kept on free lists while building */
#define SCRATCH ((size_t)64 << 10) /* a call's first blocks, after the freeze */
#define GAP_MIN ((size_t)1024)     /* free bytes in a row that the copy leaves out */

typedef struct chunk {
    char *base;
    size_t size, used; /* used: carved, from base on */
} chunk;

/* A block freed while building, of more than SMALL_MAX bytes: its size is
 * kept in it, so that the freeze can leave it out of the copy. */
typedef struct large_block {
    struct large_block *next;
    size_t size;
} large_block;

/* Bytes of the chunks that the copy holds. */
typedef struct span {
    char *at;
    size_t len;
} span;

/* In front of every block made since the freeze. */
typedef struct link {
    struct link *prev, *next;
} link;
#define LINK_SIZE ((sizeof(link) + GRAIN - 1) / GRAIN * GRAIN)

struct heap {
    chunk chunks[MAX_CHUNKS];
    int nchunks;
    size_t limit, carved;                   /* carved: the chunks' sizes together */
    void *free_list[SMALL_MAX / GRAIN + 1]; /* building: freed blocks by size / GRAIN */
    large_block *large;                     /* building: freed blocks above SMALL_MAX */
    span *spans;                            /* frozen: the bytes the copy holds, in order */
    int nspans;
    char *copy;
    size_t copied;
    link fresh;    /* frozen: the blocks made since that the scratch had no room for, a ring */
    char *scratch; /* frozen: where a call's blocks are carved first, emptied by heap_restore */
    size_t scratch_size, scratch_used;
};

static size_t rounded(size_t n) {
    return n > SIZE_MAX - GRAIN ? 0 : (n + GRAIN - 1) / GRAIN * GRAIN;
}

heap *heap_new(size_t limit) {
    heap *h = mem_try_realloc(NULL, sizeof *h);
    if (!h) return NULL;
    memset(h, 0, sizeof *h);
    h->limit = limit;
    h->fresh.prev = h->fresh.next = &h->fresh;
    return h;
}

bool heap_frozen(const heap *h) {
    return h->copy != NULL;
}

size_t heap_frozen_bytes(const heap *h) {
    return h->copied;
}

static bool in_chunks(const heap *h, const void *ptr) {
    uintptr_t at = (uintptr_t)ptr;
    for (int i = 0; i < h->nchunks; i++)
        if (at - (uintptr_t)h->chunks[i].base < h->chunks[i].size) return true;
    return false;
}

/* ---- building ---- */

/* n bytes (a multiple of GRAIN) at the end of the last chunk, or of a new
 * one; NULL past the limit, or with *starved when there is no memory. */
static void *carve(heap *h, size_t n, bool *starved) {
    chunk *c = h->nchunks ? &h->chunks[h->nchunks - 1] : NULL;
    if (!c || c->size - c->used < n) {
        if (h->nchunks == MAX_CHUNKS || h->carved >= h->limit) return NULL;
        size_t room = h->limit - h->carved;
        size_t size = c ? c->size : FIRST_CHUNK / 2;
        size = size > room / 2 ? room : 2 * size;
        if (size < n) size = n;
        if (size > room) return NULL;
        char *base = mem_try_realloc(NULL, size);
        if (!base) {
            *starved = true;
            return NULL;
        }
        c = &h->chunks[h->nchunks++];
        *c = (chunk){base, size, 0};
        h->carved += size;
    }
    void *q = c->base + c->used;
    c->used += n;
    return q;
}

/* Whether the n bytes at ptr end the carved part of the last chunk. */
static bool at_top(const heap *h, const char *ptr, size_t n) {
    const chunk *c = h->nchunks ? &h->chunks[h->nchunks - 1] : NULL;
    return c && ptr + n == c->base + c->used;
}

/* n bytes at ptr (both multiples of GRAIN) that the state no longer uses. */
static void give_back(heap *h, char *ptr, size_t n) {
    if (at_top(h, ptr, n)) {
        h->chunks[h->nchunks - 1].used -= n;
    } else if (n <= SMALL_MAX) {
        memcpy(ptr, &h->free_list[n / GRAIN], sizeof(void *));
        h->free_list[n / GRAIN] = ptr;
    } else { /* not used again, but left out of the copy */
        large_block *b = (large_block *)(void *)ptr;
        b->next = h->large;
        b->size = n;
        h->large = b;
    }
}

static void *take(heap *h, size_t n, bool *starved) {
    void **head = n <= SMALL_MAX ? &h->free_list[n / GRAIN] : NULL;
    if (!head || !*head) return carve(h, n, starved);
    void *q = *head;
    memcpy(head, q, sizeof(void *));
    return q;
}

static void *building_realloc(heap *h, char *ptr, size_t osize, size_t nsize, bool *starved) {
    size_t o = ptr ? rounded(osize) : 0, n = rounded(nsize);
    if (ptr && n <= o) {
        if (n < o) give_back(h, ptr + n, o - n);
        return nsize ? ptr : NULL;
    }
    if (!n) return NULL; /* nothing asked, or too large to round */
    if (ptr && at_top(h, ptr, o)) {
        chunk *c = &h->chunks[h->nchunks - 1];
        if (c->size - c->used >= n - o) {
            c->used += n - o;
            return ptr;
        }
    }
    char *q = take(h, n, starved);
    if (q && ptr) {
        memcpy(q, ptr, osize);
        give_back(h, ptr, o);
    }
    return q;
}

/* ---- frozen ---- */

static void unlink_block(link *l) {
    l->prev->next = l->next;
    l->next->prev = l->prev;
}

static void link_block(heap *h, link *l) {
    l->prev = &h->fresh;
    l->next = h->fresh.next;
    h->fresh.next->prev = l;
    h->fresh.next = l;
}

static bool in_scratch(const heap *h, const char *ptr) {
    return (uintptr_t)ptr - (uintptr_t)h->scratch < h->scratch_size;
}

/* The block after the link l (NULL: a new one) resized to nsize, or freed
 * (nsize 0), through the library's allocator. */
static void *linked_realloc(heap *h, link *l, size_t nsize, bool *starved) {
    if (l) unlink_block(l);
    if (!nsize) {
        mem_try_free(l);
        return NULL;
    }
    link *q = nsize <= SIZE_MAX - LINK_SIZE ? mem_try_realloc(l, LINK_SIZE + nsize) : NULL;
    if (!q) {
        *starved = true;
        if (l) link_block(h, l);
        return NULL;
    }
    link_block(h, q);
    return (char *)q + LINK_SIZE;
}

/* A new block of a call's: carved from the scratch while it lasts. */
static void *frozen_new(heap *h, size_t nsize, bool *starved) {
    size_t n = rounded(nsize);
    if (n && h->scratch_size - h->scratch_used >= n) {
        void *q = h->scratch + h->scratch_used;
        h->scratch_used += n;
        return q;
    }
    return linked_realloc(h, NULL, nsize, starved);
}

static void *frozen_realloc(heap *h, char *ptr, size_t osize, size_t nsize, bool *starved) {
    if (!ptr) return frozen_new(h, nsize, starved);
    if (in_chunks(h, ptr)) {
        if (nsize <= osize) return nsize ? ptr : NULL; /* its bytes stay, for heap_restore */
        char *q = frozen_new(h, nsize, starved);
        if (q) memcpy(q, ptr, osize);
        return q;
    }
    if (!in_scratch(h, ptr)) return linked_realloc(h, (link *)(ptr - LINK_SIZE), nsize, starved);
    size_t o = rounded(osize), n = rounded(nsize);
    bool top = ptr + o == h->scratch + h->scratch_used;
    if (nsize && !n) return NULL; /* too large to round */
    if (n <= o) {                 /* n is 0 when the block is freed */
        if (top) h->scratch_used -= o - n;
        return nsize ? ptr : NULL;
    }
    if (top && h->scratch_size - h->scratch_used >= n - o) {
        h->scratch_used += n - o;
        return ptr;
    }
    char *q = frozen_new(h, nsize, starved);
    if (q) memcpy(q, ptr, osize); /* the old block stays carved until heap_restore */
    return q;
}

void *heap_realloc(heap *h, void *ptr, size_t osize, size_t nsize, bool *starved) {
    return h->copy ? frozen_realloc(h, ptr, osize, nsize, starved)
                   : building_realloc(h, ptr, osize, nsize, starved);
}

/* The block after b on its free list (the pointer kept in b's first bytes). */
static char *next_free(const char *b) {
    char *next;
    memcpy(&next, b, sizeof next);
    return next;
}

static int by_address(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const span *)a)->at, y = (uintptr_t)((const span *)b)->at;
    return (x > y) - (x < y);
}

/* The free blocks while building (on the free lists and the large list),
 * in address order, those next to each other joined, and only the runs of
 * GAP_MIN bytes or more kept. NULL when there is no memory. */
static span *free_runs(const heap *h, int *n) {
    size_t count = 0;
    for (size_t k = 0; k <= SMALL_MAX / GRAIN; k++)
        for (char *b = h->free_list[k]; b; b = next_free(b))
            count++;
    for (const large_block *b = h->large; b; b = b->next)
        count++;
    span *runs = mem_try_realloc(NULL, (count + 1) * sizeof *runs);
    if (!runs) return NULL;
    count = 0;
    for (size_t k = 0; k <= SMALL_MAX / GRAIN; k++)
        for (char *b = h->free_list[k]; b; b = next_free(b))
            runs[count++] = (span){b, k * GRAIN};
    for (large_block *b = h->large; b; b = b->next)
        runs[count++] = (span){(char *)b, b->size};
    qsort(runs, count, sizeof *runs, by_address);
    size_t kept = 0;
    for (size_t i = 0; i < count;) {
        span run = runs[i++];
        while (i < count && runs[i].at == run.at + run.len)
            run.len += runs[i++].len;
        if (run.len >= GAP_MIN) runs[kept++] = run;
    }
    *n = (int)kept;
    return runs;
}

/* The chunks' carved bytes but the runs of free ones: what heap_restore
 * writes back. False when there is no memory. */
static bool find_spans(heap *h) {
    int nruns;
    span *runs = free_runs(h, &nruns);
    if (!runs) return false;
    h->spans = mem_try_realloc(NULL, (size_t)(h->nchunks + nruns + 1) * sizeof *h->spans);
    if (!h->spans) {
        mem_try_free(runs);
        return false;
    }
    h->nspans = 0;
    for (int i = 0; i < h->nchunks; i++) {
        char *at = h->chunks[i].base, *end = at + h->chunks[i].used;
        for (int r = 0; r < nruns; r++) {
            if (runs[r].at < at || runs[r].at >= end) continue; /* another chunk's, or passed */
            if (runs[r].at > at) h->spans[h->nspans++] = (span){at, (size_t)(runs[r].at - at)};
            at = runs[r].at + runs[r].len < end ? runs[r].at + runs[r].len : end;
        }
        if (end > at) h->spans[h->nspans++] = (span){at, (size_t)(end - at)};
    }
    mem_try_free(runs);
    return true;
}

bool heap_freeze(heap *h) {
    if (!find_spans(h)) return false;
    size_t n = 0;
    for (int i = 0; i < h->nspans; i++)
        n += h->spans[i].len;
    char *copy = mem_try_realloc(NULL, n);
    if (!copy) {
        mem_try_free(h->spans);
        h->spans = NULL;
        return false;
    }
    n = 0;
    for (int i = 0; i < h->nspans; i++) {
        memcpy(copy + n, h->spans[i].at, h->spans[i].len);
        n += h->spans[i].len;
    }
    h->copy = copy;
    h->copied = n;
    h->scratch = mem_try_realloc(NULL, SCRATCH); /* without it, every block is linked */
    h->scratch_size = h->scratch ? SCRATCH : 0;
    return true;
}

static void free_fresh(heap *h) {
    for (link *l = h->fresh.next, *next; l != &h->fresh; l = next) {
        next = l->next;
        mem_try_free(l);
    }
    h->fresh.prev = h->fresh.next = &h->fresh;
}

void heap_restore(heap *h) {
    free_fresh(h);
    h->scratch_used = 0;
    size_t at = 0;
    for (int i = 0; i < h->nspans; i++) {
        memcpy(h->spans[i].at, h->copy + at, h->spans[i].len);
        at += h->spans[i].len;
    }
}

void heap_free(heap *h) {
    if (!h) return;
    free_fresh(h);
    for (int i = 0; i < h->nchunks; i++)
        mem_try_free(h->chunks[i].base);
    mem_try_free(h->copy);
    mem_try_free(h->spans);
    mem_try_free(h->scratch);
    mem_try_free(h);
}
