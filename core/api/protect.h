/* protect.h — how a public call answers "out of memory" (docs/internals.md,
 * "Out of memory"). Every arb_ call that allocates runs protected
 * (core/base/mem.h): API_PROTECT(g) { the answer } at its start, then its
 * body, and api_leave(&g) before it returns. A failed allocation anywhere
 * below frees what the call had allocated, runs its clean-ups and comes
 * back to that block, which says so through the call's own channel (its
 * errors stream, its *error or *json, or the library's notes) and returns
 * ARB_NO_MEMORY, NULL or -1. */
#ifndef ARBITER_PROTECT_H
#define ARBITER_PROTECT_H

#include "arbiter.h"
#include "mem.h"

#define API_NO_MEMORY "out of memory"

/* jansson's blocks come from the library's allocator (set once). */
void api_first_use(void);

#define API_PROTECT(g)                                                                             \
    api_first_use();                                                                               \
    MEM_PROTECT(g)
#define api_leave(g) mem_leave(g)

/* The message as a block of the caller's (NULL when even that cannot be
 * had), for a call that answers in a char **. */
char *api_no_memory_text(void);
/* The answer of a call that answers in *out and *error: *out NULL, the
 * message in *error (each may be NULL), ARB_NO_MEMORY. */
enum arb_status api_no_memory_answer(char **out, char **error);
/* The answer of a call that answers with JSON text: {"status", "error"}. */
char *api_no_memory_json(void);
/* The whole body of a public call that answers in *out and *error: call,
 * its unprotected body, run protected, its status returned. */
#define API_ANSWER_PROTECTED(out, error, call)                                                     \
    do {                                                                                           \
        mem_guard g_;                                                                              \
        API_PROTECT(g_) {                                                                          \
            return api_no_memory_answer(out, error);                                               \
        }                                                                                          \
        enum arb_status r_ = (call);                                                               \
        api_leave(&g_);                                                                            \
        return r_;                                                                                 \
    } while (0)

/* Says it on errors, or in the library's notes when errors is NULL. */
void api_no_memory_on(FILE *errors);

#endif
