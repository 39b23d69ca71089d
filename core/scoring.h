/* scoring.h — scoring as rulings. The core turns a scorer's input (a
 * contract, one board's scores, two scores to compare) into a record, and
 * rules on it with the article the ruleset's header names for the job
 * (`score`, `matchpoints`, `imps`). What the ruleset gives for it is the
 * sum of the `points` arguments of the actions the ruling names: the table
 * and its arithmetic stay in the rule file. */
#ifndef ARBITER_SCORING_H
#define ARBITER_SCORING_H

#include "eval.h"
#include "scenario.h"

enum scoring_job { SCORE_CONTRACT, SCORE_MATCHPOINTS, SCORE_IMPS };

/* The article for a job, or -1 (with a message in err) when the ruleset
 * has none. */
int scoring_article(const ruleset *rs, enum scoring_job job, strbuf *err);

/* Rules on sc with that article; *total is the sum of the `points`
 * arguments. False (with err) when no ruling could be made. */
bool scoring_rule(const ruleset *rs, int article, scenario *sc, ruling *r, int64_t *total, strbuf *err);

/* The matchpoints of each of n scores on one board, compared with the
 * others; false with err on failure. */
bool scoring_matchpoints(const ruleset *rs, const int64_t *scores, int n, int64_t *mp, strbuf *err);

#endif
