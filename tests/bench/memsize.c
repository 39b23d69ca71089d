/* memsize.c — the bytes of a compiled ruleset: what its graph arrays, its
 * outcome table, its vectors and its arena hold (allocated capacity, not
 * just what is used). */
#include "memsize.h"

#include <stdlib.h>
#include <string.h>

/* The arena's blocks, laid out as core/base/util.c lays them out (the type is
 * private there; this must follow it if it changes). */
typedef struct bench_arena_block {
    struct bench_arena_block *next;
    size_t used, size;
    max_align_t data[];
} bench_arena_block;

typedef struct bench_arena {
    bench_arena_block *head;
} bench_arena;

/* One entry of graph.c's operation cache: an op and four references. */
#define CACHE_ENTRY_BYTES (sizeof(uint64_t) + 4 * sizeof(gref))

static size_t vec_bytes(const vec *v) {
    return (size_t)v->cap * v->elem;
}

static int mark(const graph *g, gref r, unsigned char *seen) {
    if (GRAPH_IS_TERM(r) || seen[r]) return 0;
    seen[r] = 1;
    int n = 1;
    const graph_node *nd = &g->nodes[r];
    for (int i = 0; i < g->domain[nd->var]; i++) n += mark(g, graph_kid(g, nd, i), seen);
    return n;
}

void ruleset_measure(const ruleset *rs, ruleset_bytes *out) {
    memset(out, 0, sizeof *out);
    const graph *g = rs->graph;
    out->graph = sizeof *g + (size_t)(g->nvars + 1) * (sizeof(int) + sizeof(int64_t)) +
                 (size_t)g->capnodes * sizeof(graph_node) + (size_t)g->capkids * sizeof(gref) +
                 (size_t)g->capterms * sizeof(graph_term);
    out->build = (size_t)g->capunique * sizeof(int32_t) + (size_t)g->captermhash * sizeof(int32_t) +
                 (size_t)g->capcache * CACHE_ENTRY_BYTES;
    out->outcomes = vec_bytes(&rs->outcomes);
    out->vecs = vec_bytes(&rs->exprs) + vec_bytes(&rs->expr_args) + vec_bytes(&rs->strings) + vec_bytes(&rs->uses);
    for (const bench_arena_block *b = ((const bench_arena *)rs->arena)->head; b; b = b->next)
        out->arena += sizeof *b + b->size;
    out->total = out->graph + out->build + out->outcomes + out->vecs + out->arena;
    out->nodes = g->nnodes;
    out->kids = g->nkids;
    out->terms = g->nterms;
    out->outcome_count = rs->outcomes.len;
    unsigned char *seen = calloc((size_t)g->nnodes + 1, 1);
    if (!seen) abort();
    out->reachable_nodes = mark(g, rs->root, seen) + mark(g, rs->checked_root, seen) +
                          mark(g, rs->invariant_root, seen);
    for (int i = 0; i < rs->narticles; i++) out->reachable_nodes += mark(g, rs->articles[i].root, seen);
    free(seen);
    /* Each outcome's two arrays are arena allocations rounded up to
     * max_align_t, one more element each (compile.c allocates n + 1). */
    size_t align = sizeof(max_align_t);
    unsigned char *named = calloc((size_t)rs->outcomes.len + 1, 1);
    if (!named) abort();
    for (int i = 0; i < g->nterms; i++)
        if (g->terms[i].kind == TERM_OUTCOME && g->terms[i].v >= 0 && g->terms[i].v < rs->outcomes.len) named[g->terms[i].v] = 1;
    for (int i = 0; i < rs->outcomes.len; i++) {
        const rs_outcome *o = rs_outcome_at(rs, i);
        size_t arrays = ((sizeof(int) * (size_t)(o->ntrail + 1) + align - 1) / align +
                         (sizeof(int) * (size_t)(o->nactions + 1) + align - 1) / align) * align;
        out->outcome_arrays += arrays;
        if (!named[i]) continue;
        out->outcomes_reachable++;
        out->outcome_bytes_reachable += sizeof(rs_outcome) + arrays;
    }
    free(named);
}
