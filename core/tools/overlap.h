/* overlap.h — situations on which two articles both rule.
 *
 * A ruleset's ruling is the rulings of every article whose `when` holds,
 * joined in file order. Where two articles' `when`s can hold together the
 * law may mean both measures to apply (a club's penalty points beside the
 * law's rectification) — the ruleset then says so with `combine A B` — or
 * the two were written without thought of each other, and a director gets
 * two rulings on one situation. The checker warns of every such pair it
 * finds that the ruleset does not declare, with a situation that shows it
 * (one that satisfies every invariant and that the ruleset rules on). */
#ifndef ARBITER_OVERLAP_H
#define ARBITER_OVERLAP_H

#include "ruleset.h"

typedef struct overlap {
    int a, b;    /* the two articles, a before b in file order */
    char *given; /* a situation both rule on, as `given f = v, …` (malloc'd) */
} overlap;

/* Every pair of articles with a `when` that can both rule on one
 * situation and that no `combine` declares; *out (malloc'd, free each
 * given and the array with overlap_free) receives them. Returns how many. */
int overlap_articles(const ruleset *rs, overlap **out);
void overlap_free(overlap *list, int n);

/* Inside one block, every clause that an earlier clause partly hides: a
 * situation that reaches the block, meets the later clause's condition and
 * is taken by the earlier one (a and b are clause ids, earlier first). The
 * law's order of exceptions does this on purpose everywhere ("except as
 * provided in B1"), so this is a list to read, not a warning. */
int overlap_clauses(const ruleset *rs, overlap **out);

/* Reports each pair as a warning at the later article's declaration, with
 * the situation and a hint; returns how many. */
int overlap_report(const ruleset *rs, diag *d);

#endif
