/* report.h — a diff of two rulesets as a rules committee reads it: the
 * regions grouped by the change of ruling, each group with the rulings'
 * texts, the facts that decide it and one example scenario that both
 * rulesets are seen to rule as the group says; as text, Markdown or HTML,
 * and the same groups as JSON for tools. */
#ifndef ARBITER_REPORT_H
#define ARBITER_REPORT_H

#include "arbiter.h"
#include "diff.h"

#include <jansson.h>
#include <stdio.h>

/* The groups of d as JSON (an array, largest change first): each with
 * "a" and "b" (the change: "status", and the "actions" only that side
 * gives, each with "name", "args", "article", "text"), "regions" (indices
 * into d), "count", "facts" (the facts that decide it), "situations"
 * (its regions' constraints on those facts, in words), "example" (a
 * scenario, or null when none was found that both rulesets rule as the
 * regions say), "example_region" (the region it was taken from) and "rulings" ({"a", "b"}: the
 * example's rulings, as arb_rule_json gives them). */
json_t *report_groups(const ruleset *a, const ruleset *b, const diff_result *d, enum arb_lang lang);

/* The report for people, from report_groups' groups. */
enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_HTML };
void report_write(const ruleset *a, const ruleset *b, const diff_result *d, json_t *groups,
                  const char *note, enum report_format format, enum arb_lang lang, FILE *out);

/* The situations of rs's tests that rule on a whole situation (with the
 * whole ruleset; not expecting a question or a rejection), each as a
 * scenario: its given facts and auction. */
json_t *report_test_scenarios(const ruleset *rs);

/* A report's example as rs reads it: the facts only `other` has dropped. */
json_t *report_scenario_for(const ruleset *rs, const ruleset *other, json_t *scenario);

/* Every line of a JSON Lines corpus ruled under a and b: the changed
 * cases with both rulings, the lines either cannot rule on with why, the
 * totals (changed, unchanged, not ruled) and the changes counted by kind.
 * ARB_BAD_INPUT when some line could not be ruled. */
enum arb_status report_cases(const ruleset *a, const ruleset *b, const char *cases, size_t len,
                             bool json, enum arb_lang lang, FILE *out);

/* Whether a ruling (as arb_rule_json gives it) is the one a region's
 * ruling (diff_region json_a / json_b) describes. */
bool report_ruling_matches(json_t *region_ruling, json_t *ruling);

#endif
