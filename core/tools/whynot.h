/* whynot.h — "why did the ruling not include this action?": the fewest
 * facts that would have to differ for the ruling to name it. */
#ifndef ARBITER_WHYNOT_H
#define ARBITER_WHYNOT_H

#include "expr.h"
#include "ruleset.h"

#define WHYNOT_MAX_CHANGES 32

typedef struct whynot {
    bool reachable; /* some situation's ruling names the action */
    int outcome;    /* the nearest such ruling */
    int nchanges;
    int fact[WHYNOT_MAX_CHANGES];      /* a fact that would have to differ … */
    int64_t value[WHYNOT_MAX_CHANGES]; /* … and the value it would need */
} whynot;

void whynot_find(const ruleset *rs, gref root, const fact_values *fv, int action, whynot *out);

#endif
