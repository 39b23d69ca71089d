/* diff.h — every situation two rulesets rule differently, found by walking
 * their decision graphs together.
 *
 * The two rulesets may order and number their facts differently: facts are
 * matched by name, enum values by name, and a situation is split on a fact
 * the first time either graph tests it. Each pair of terminals reached is a
 * region of situations (the facts fixed on the way, every other fact free);
 * regions whose rulings differ are kept, merged where they differ in one
 * fact only, and counted in fact combinations.
 */
#ifndef ARBITER_DIFF_H
#define ARBITER_DIFF_H

#include "ruleset.h"

#include <jansson.h>

/* A fact of either ruleset, with its values joined by name. */
typedef struct diff_fact {
    const char *name;
    char *own_name; /* name when it is not the ruleset's (a fact computed otherwise in B) */
    int fa, fb;     /* fact index in A and B, or -1 when the ruleset lacks it */
    int nvalues;
    bool ordered;       /* ints and calls: a run of values reads as a range */
    const char **names; /* joint values as written in scenarios */
    int64_t *va, *vb;   /* the value in A / B, or DIFF_ABSENT */
    json_t **json;      /* each value as a scenario would give it */
} diff_fact;

#define DIFF_ABSENT INT64_MIN

typedef struct diff_region {
    unsigned char **allowed;   /* per fact: NULL when free, else one flag per joint value */
    double count;              /* fact combinations it covers, exactly */
    bool exact;                /* the constraints hold no situation outside the region */
    int *example;              /* one situation of the region: a joint value per fact, -1 free */
    char *ruling_a, *ruling_b; /* the two rulings, in words */
    json_t *json_a, *json_b;   /* and as JSON (trail, actions, status) */
} diff_region;

typedef struct diff_result {
    int nfacts;
    diff_fact *facts;
    int nregions;
    diff_region *regions;
    double differing, equal; /* fact combinations */
    double out_of_scope;     /* fact combinations left out: either ruleset declares them
                                outside its scope, so there is no pair of rulings */
    const char *article;     /* the article the diff is limited to, or NULL */
    long graph_kids;         /* children the joint graph held at the end: what the walk built */
    bool incomplete;         /* the walk ran out of its graph budget: the regions and
                                totals are not the answer and must not be shown as one */
} diff_result;

/* Walks A and B (whole rulesets, or only the situations in which either
 * ruling passes through article `article`), over the situations both rule
 * on: where either declares a situation outside its scope, it is counted in
 * out_of_scope and in no region. */
void diff_rulesets(const ruleset *a, const ruleset *b, const char *article, diff_result *out);
/* The id of an article the ruleset rules with apart from its root: which 0
 * the legal article (header key legal), 1 the trick article (trick); NULL
 * where it declares none. diff_rulesets compares such an article when it
 * is named, over the article's own graph. */
const char *diff_own_article(const ruleset *rs, int which);
void diff_free(diff_result *d);

/* A region's constraints in words ("irregularity = insufficient_bid,
 * replacement in {bid, pass}") and an example scenario. */
void diff_region_text(const diff_result *d, const diff_region *r, strbuf *out);
json_t *diff_region_example(const diff_result *d, const diff_region *r);

#endif
