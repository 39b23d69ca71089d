/* output.h — a ruling for people (Dutch text) and for machines (JSON). */
#ifndef ARBITER_OUTPUT_H
#define ARBITER_OUTPUT_H

#include "eval.h"
#include "scenario.h"

#include <jansson.h>
#include <stdio.h>

/* "fnv1a64:0123456789abcdef", over the names and contents of the rule files. */
void output_hash(const ruleset *rs, char buf[32]);

/* An action's message with its arguments filled in (Dutch, or English when
 * the ruleset has it and english is set). */
void output_message(const ruleset *rs, const ruling_action *ra, bool english, strbuf *out);

/* The trail as citations, in order: ["27", "27B", "27B2"]. */
json_t *output_trail_json(const ruling *r);

/* The articles on the trail that have a title, each once, in the order of
 * the trail: [{"article", "title", "title_en" (when the rule files give
 * it)}]. */
json_t *output_titles_json(const ruling *r);

/* A fact's value as a scenario gives it: true/false, a number, or the
 * value's name (an enum value, a call, a citation). */
json_t *output_value_json(const ruleset *rs, const rs_type *t, int64_t v);

json_t *output_json(const ruling *r, const scenario *sc);
/* The parts of output_json's record a comparison of rulings reads:
 * status (with error and needs), articles, actions (name, args, article),
 * and what plugins changed; none of the texts. */
json_t *output_match_json(const ruling *r);
/* The facts the scenario gave that played no part in the ruling (the
 * decision did not test them and no action reads them). */
json_t *output_unused_json(const ruling *r, const scenario *sc);
void output_text(const ruling *r, const scenario *sc, FILE *out);
/* Where a fact's value came from, as "decided_by" says it: "default" (assumed),
 * the built-in's namespace ("auction", …) for a value a record settled, else
 * "given". */
const char *output_fact_source(const ruleset *rs, const scenario *sc, int f);

/* A ruling inside a larger answer (a trick, a card, a hand's score): the
 * ruling without the ruleset's name and hash, which the answer gives once,
 * nor the unused facts. */
json_t *output_ruling_part_json(const ruling *r, const scenario *sc);
/* Such an answer's start: {"ruleset": name, "ruleset_hash": hash}. */
json_t *output_answer_json(const ruleset *rs);

/* Records written straight into a buffer, for many rulings: the same bytes
 * as the JSON above (json_dumps with JSON_COMPACT) and as output_text, the
 * parts that do not change between rulings made once and kept in the cache. */
typedef struct output_cache output_cache;
output_cache *output_cache_new(const ruleset *rs);
void output_cache_free(output_cache *c);
/* A string as jansson writes it, quotes included. */
void output_json_string(strbuf *out, const char *s, size_t n);
/* output_json's record, with "line" last when line > 0, and a newline.
 * False (nothing written) for a ruling plugins took part in: build that
 * one with output_json. */
bool output_json_write(output_cache *c, const ruling *r, const scenario *sc, long line,
                       strbuf *out);
/* The brief record (docs/json.md): status, the fact it needs, the trail,
 * the actions with their arguments and articles, "line"; and a newline. */
void output_brief_write(output_cache *c, const ruling *r, long line, strbuf *out);
void output_brief_actions(output_cache *c, const ruling *r, strbuf *out);
/* output_text's text but for the plugins' files (which output_text adds). */
void output_text_write(const ruling *r, const scenario *sc, strbuf *out);
/* The same, from the fragments kept in c. */
void output_text_cached(output_cache *c, const ruling *r, const scenario *sc, strbuf *out);

#endif
