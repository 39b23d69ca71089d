/* check.h — what the finished decision graphs prove: every situation that
 * satisfies the invariants gets a ruling (completeness), and no condition
 * can fail while deciding. Each problem is reported with the fact
 * assignment that reaches it, printed as a ready-to-run test block. */
#ifndef ARBITER_CHECK_H
#define ARBITER_CHECK_H

#include "ruleset.h"

/* Returns the number of problems reported to d. */
int dsl_check(const ruleset *rs, diag *d);

/* Where some articles of the ruleset have an English title and others with
 * a Dutch title have none, warns at each of those (a face in English would
 * show them in Dutch). Returns the number of warnings. */
int check_english_titles(const ruleset *rs, diag *d);

/* Writes `f = v, …` for the path from root to the first terminal that
 * `want` accepts: the facts a test can give into given, the derived facts
 * the graph tests as variables of their own (computed from facts no
 * decision tests, such as points past 255) into computed; false if there
 * is none. */
typedef bool (*check_want)(const graph_term *t, void *ctx);
bool check_find_path(const ruleset *rs, gref root, check_want want, void *ctx, strbuf *given,
                     strbuf *computed, graph_term *found);

#endif
