/* heap.h — the memory a plugin's Lua state lives in, put back as it was
 * loaded before each call.
 *
 * While the state is built, its blocks are carved from a few chunks of the
 * heap's own. heap_freeze then keeps a copy of the chunks' bytes (but runs
 * of free ones: the garbage of building, which no block uses). From then
 * on a block in the chunks that the state frees stays where it is (its
 * bytes are the copy's to put back), one it grows moves out, and every new
 * block is carved from a scratch block while that lasts, then comes from
 * the library's allocator (core/base/mem.h) on a list of the heap's.
 * heap_restore empties the scratch, frees every block on the list and
 * writes the chunks back from the copy: the state is then, byte for byte,
 * the one that was frozen (its objects, globals, registry, string table,
 * collector's counters), and nothing a call made or changed is left. That
 * holds because a Lua state keeps everything it has in the memory its
 * allocator gave it; the host's own pointers into it (the lua_State,
 * registry references) stay valid, since nothing moves.
 *
 * heap_restore is called only between calls into the state (never while it
 * runs). The heap does not count bytes: the caller's allocator keeps the
 * memory cap. */
#ifndef ARBITER_HEAP_H
#define ARBITER_HEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct heap heap;

/* A heap whose chunks may hold at most `limit` bytes (more: NULL from
 * heap_realloc while the state is built). NULL when there is no memory. */
heap *heap_new(size_t limit);
/* Lua's allocator contract (lua_Alloc, ud aside): ptr NULL allocates,
 * nsize 0 frees, otherwise resizes; osize is the block's size when ptr is
 * not NULL. NULL when it cannot (ptr is then unchanged): past the limit
 * while building, or with *starved set when the library's allocator had
 * no more. */
void *heap_realloc(heap *h, void *ptr, size_t osize, size_t nsize, bool *starved);
/* Keeps the chunks' bytes as they are now; false when there is no memory
 * for the copy (the heap is then as before, not frozen). */
bool heap_freeze(heap *h);
bool heap_frozen(const heap *h);
/* Back to the state as frozen (see above). */
void heap_restore(heap *h);
/* The bytes heap_restore writes back (the state as loaded and the free
 * bytes between its blocks, runs of 1 KiB or more left out). */
size_t heap_frozen_bytes(const heap *h);
/* Frees the chunks, their copy and every block on the list: the state that
 * lived in the heap is gone (lua_close is not needed, nor called). */
void heap_free(heap *h);

#endif
