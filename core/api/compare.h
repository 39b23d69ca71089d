/* compare.h — one scenario under several rulesets: `arbiter compare`, and
 * the server's comparison of editions. */
#ifndef ARBITER_COMPARE_H
#define ARBITER_COMPARE_H

#include "output.h"

/* One ruleset's ruling on the scenario (JSON text) as JSON, with the
 * ruleset's "title" and, when the ruleset scores and the scenario has a
 * contract, its "score" and "score_articles". A scenario the ruleset cannot
 * read gives {"ruleset", "title", "status": "bad_input", "error"}. A hook
 * that failed is reported in err. Returns the status `arbiter rule` would
 * exit with (enum arb_status). */
int compare_ruling_json(const ruleset *rs, const scenario_hooks *hooks, const char *text,
                        size_t len, json_t **out, strbuf *err);
/* What differs between two such rulings: "status", "articles" (each a
 * pair), "actions_only_in" (the actions each has and the other lacks),
 * "score". Empty when they agree. */
json_t *compare_differences_json(json_t *a, json_t *b);
/* Those differences in words, for `arbiter compare` and `arbiter diff
 * --cases`: "Geen verschil tussen A en B." or the articles, the actions on
 * one side only, the score and the status, each on its own line. */
void compare_differences_text(FILE *out, json_t *a, json_t *b, json_t *diff);

#endif
