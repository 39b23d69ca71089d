/* api/config.c — what an embedder configures (arbiter.h, "Embedding: memory
 * and messages"): the allocator behind every block, and where the
 * library's own notes go; and how a call answers when that allocator has
 * no more (protect.h). */
#include "arbiter.h"

#include "mem.h"
#include "protect.h"
#include "util.h"

#include <jansson.h>
#include <pthread.h>
#include <string.h>

/* jansson's blocks are freed by the library too (a JSON text it hands
 * out), so they come from the same allocator, and are recorded in a
 * protected call as the library's own are. */
static void route_jansson(void) {
    json_set_alloc_funcs(mem_json_malloc, mem_json_free);
}

void api_first_use(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, route_jansson);
}

enum arb_status arb_configure(const arb_config *config) {
    mem_set_allocator(config ? config->alloc : NULL, config ? config->alloc_ud : NULL);
    mem_set_reporter(config ? config->message : NULL, config ? config->message_ud : NULL);
    route_jansson();
    return ARB_OK;
}

void arb_release(void *p) {
    xfree(p);
}

void arb_mask_controls(char *text, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t at = i + text_control_char(text + i, n - i);
        if (at >= n) return;
        size_t len = (unsigned char)text[at] == 0xC2 ? 2 : 1; /* a C1 control is two bytes */
        if (text[at] != '\n') memset(text + at, '?', len);
        i = at + len;
    }
}

static char *copy_untracked(const char *text) { /* outside any protected call */
    size_t n = strlen(text) + 1;
    char *p = mem_try_realloc(NULL, n);
    return p ? memcpy(p, text, n) : NULL;
}

char *api_no_memory_text(void) {
    return copy_untracked(API_NO_MEMORY);
}

enum arb_status api_no_memory_answer(char **out, char **error) {
    if (out) *out = NULL;
    if (error) *error = api_no_memory_text();
    return ARB_NO_MEMORY;
}

char *api_no_memory_json(void) {
    return copy_untracked("{\"status\":\"no_memory\",\"error\":\"" API_NO_MEMORY "\"}");
}

void api_no_memory_on(FILE *errors) {
    if (errors)
        fputs("arbiter: " API_NO_MEMORY "\n", errors);
    else
        mem_report(API_NO_MEMORY);
}
