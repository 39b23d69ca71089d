/* mem.h — the library's allocations, and what happens when one fails.
 *
 * Every block the library allocates or frees goes through these functions,
 * and so through one allocator (mem_set_allocator; the C library's realloc
 * and free by default), so that an embedder can give its own.
 *
 * Out of memory is an error of the call, not the end of the program (see
 * docs/internals.md, "Out of memory"). Each public call runs protected
 * (MEM_PROTECT): while it runs, every block allocated through here is
 * recorded; when an allocation fails, the blocks the call allocated and
 * has not freed are freed, the clean-ups it registered (mem_defer: an open
 * file, a held lock) are run, and control comes back to the protected
 * call's start, which answers "out of memory". Code between the two never
 * checks for NULL. A block that outlives the call (its result) is the
 * caller's, as before; a call must not hang a block it allocates on an
 * object made before it (that object would keep a freed block). */
#ifndef ARBITER_MEM_H
#define ARBITER_MEM_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

/* realloc-style: ptr NULL allocates size bytes, size 0 frees ptr (and
 * returns NULL), otherwise ptr is resized; NULL when there is no memory
 * (ptr is then unchanged). */
typedef void *(*mem_allocator)(void *ud, void *ptr, size_t size);
void mem_set_allocator(mem_allocator alloc, void *ud); /* NULL: the default */
/* Where the library's own notes go (the cache's reasons, an out-of-memory
 * report outside a protected call): NULL, stderr. */
typedef void (*mem_reporter)(void *ud, const char *message);
void mem_set_reporter(mem_reporter report, void *ud);
void mem_report(const char *message);

/* These never return NULL: in a protected call, out of memory unwinds it;
 * outside one (a bug: every public call is protected) the program stops
 * with a message. A size of 0 gets a block of its own. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void xfree(void *p);

/* The allocator itself, neither recorded nor unwinding: NULL when there is
 * no memory. For memory with an owner that answers that itself (Lua's
 * states) and blocks that may stay larger. */
void *mem_try_realloc(void *p, size_t n);
void mem_try_free(void *p);

/* ---- protected calls ---- */

typedef struct mem_guard {
    jmp_buf at;
    struct mem_guard *outer;
} mem_guard;

/* MEM_PROTECT(g) { out of memory: say so and return } — then the call's
 * body, and mem_leave(&g) before each return. Protected calls nest: an
 * inner one (a public call calling another) runs inside the outer and out
 * of memory comes back to the outermost. The block after MEM_PROTECT must
 * not read a local variable that the body changes. */
#define MEM_PROTECT(g)                                                                             \
    mem_enter(&(g));                                                                               \
    if (setjmp((g).at) != 0)
void mem_enter(mem_guard *g);
void mem_leave(mem_guard *g);
bool mem_protected(void); /* whether a protected call is under way on this thread */
/* Unwinds the protected call as a failed allocation does (for code that
 * used mem_try_realloc and has cleaned up). */
_Noreturn void mem_throw(void);

/* A clean-up to run if the call unwinds before mem_undefer(handle) (which
 * must come in the reverse order of mem_defer). Outside a protected call
 * nothing is registered. At most MEM_MAX_DEFERRED at once. */
#define MEM_MAX_DEFERRED 16
int mem_defer(void (*cleanup)(void *), void *arg);
void mem_undefer(int handle);

/* For jansson (json_set_alloc_funcs), whose blocks are the library's too:
 * recorded in a protected call, and NULL outside one, which jansson says. */
void *mem_json_malloc(size_t n);
void mem_json_free(void *p);

#endif
