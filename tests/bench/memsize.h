/* memsize.h — how many bytes a compiled ruleset holds, for `make bench`. */
#ifndef BENCH_MEMSIZE_H
#define BENCH_MEMSIZE_H

#include "ruleset.h"

#include <stddef.h>

typedef struct ruleset_bytes {
    size_t graph;    /* the graph struct, its node, child and terminal arrays (allocated capacity) */
    size_t build;    /* build-time tables still held (hash-consing index, operation cache) */
    size_t outcomes; /* the outcome table (the trail and action arrays it points to live in the arena) */
    size_t vecs;     /* expressions, their arguments, string constants, action uses */
    size_t arena;    /* the ruleset's arena: every block, used or not */
    size_t total;
    int nodes, kids, terms, outcome_count; /* counts, for the report */
    int reachable_nodes;                   /* inner nodes reachable from the ruleset's roots */
    size_t outcome_arrays;                 /* the outcomes' trail and action arrays (in the arena) */
    int outcomes_reachable;                /* outcomes some terminal of the graph names */
    size_t outcome_bytes_reachable;        /* what those take: table entry and arrays */
} ruleset_bytes;

void ruleset_measure(const ruleset *rs, ruleset_bytes *out);

#endif
