/* api/config.c — what an embedder configures (arbiter.h, "Embedding: memory
 * and messages"): the allocator behind every block, and where the
 * library's own notes go. */
#include "arbiter.h"

#include "mem.h"

#include <jansson.h>

enum arb_status arb_configure(const arb_config *config) {
    mem_set_allocator(config ? config->alloc : NULL, config ? config->alloc_ud : NULL);
    mem_set_reporter(config ? config->message : NULL, config ? config->message_ud : NULL);
    /* jansson's blocks are freed by the library too (a JSON text it hands
     * out), so they come from the same allocator */
    json_set_alloc_funcs(mem_json_malloc, mem_json_free);
    return ARB_OK;
}

void arb_release(void *p) {
    xfree(p);
}
