/* scenario.h — a situation to rule on: fact values from a JSON object, from
 * a director's answers, and from the auction record (which the core
 * analyses itself). Every value is checked against its fact's type. */
#ifndef ARBITER_SCENARIO_H
#define ARBITER_SCENARIO_H

#include "builtins.h"
#include "eval.h"
#include "expr.h"
#include "ruleset.h"

#include <jansson.h>

struct scenario;

/* What the program that embeds the core does around each ruling on a
 * scenario — the CLI's club plugins: facts of its own, validating the
 * situation, changing the ruling, adjusting a score or a matchpoint. The
 * core calls them at those moments and never knows what they do. Each
 * returns false (with err) to stop with an error. */
typedef struct scenario_hooks {
    void *ctx;
    /* a scenario key that is not one of the ruleset's facts: *taken says
     * whether the hooks know it */
    bool (*own_fact)(void *ctx, const char *key, json_t *value, bool *taken, strbuf *err);
    bool (*validate)(void *ctx, const struct scenario *sc, strbuf *err);
    bool (*after_ruling)(void *ctx, const struct scenario *sc, ruling *r, strbuf *err);
    bool (*adjust_score)(void *ctx, const struct scenario *sc, int64_t *score, strbuf *err);
    bool (*adjust_matchpoints)(void *ctx, int64_t beaten, int64_t equalled, int64_t others,
                               int64_t *mp, strbuf *err);
    /* what took part, for the ruling's record: a JSON array of objects
     * {name, file, hash} (NULL: nothing to record) */
    json_t *(*describe)(void *ctx);
} scenario_hooks;

/* The parts of a record a built-in reads: the auction, the contract, the
 * scores, the play, and those any record settles. */
#define SCENARIO_RECORD_PARTS 5

typedef struct scenario {
    const ruleset *rs;
    fact_values fv;
    bool *given;           /* given explicitly (not derived from the record) */
    bool *corrected;       /* "corrected": a value given for it wins over the record's */
    bool *assumed;         /* not given: ruled with the fact's `default` (rs_fact.has_default) */
    record rec;            /* the auction, contract, … the scenario carries */
    int err_line, err_col; /* where the scenario's text went wrong, else 0 */
    const char *err_key;   /* the top-level key whose value was refused (lives with the JSON) */
    const scenario_hooks *hooks; /* NULL: none */
    /* ruled for records that do not show the ruling's grounds (its path
     * then holds every fact tested: eval_rule_again) */
    bool without_grounds;
    json_t *own; /* the keys the hooks took as facts of their own, as given: they live and die with
                    the scenario (NULL: none) */
    /* the facts that hold something since the last reset (listed[f]: f is
     * among them), so that scenario_reset touches only those */
    int *touched, ntouched;
    bool *listed;
    /* the facts a record settles (rs_fact.builtin), and those with a default */
    int *builtin_facts, nbuiltin_facts;
    /* builtin_facts grouped by the part of the record they read (a part
     * missing from a record is skipped whole): part p's end at part_end[p] */
    int part_end[SCENARIO_RECORD_PARTS];
    int *default_facts, ndefault_facts;
    /* per builtin fact: where its symbols' enum indexes start in symbol_enum
     * (builtin_desc.symbols, in order; each index plus one once looked up,
     * 0 before) */
    int *symbol_at;
    int64_t *symbol_enum;
} scenario;

void scenario_init(scenario *sc, const ruleset *rs);
void scenario_free(scenario *sc);
/* Back to the scenario scenario_init made, for the next of many: clears
 * the facts that were set (and nothing else) and the record. */
void scenario_reset(scenario *sc);

/* Rules on sc with the graph at root, with the hooks around it: validate
 * first, change the ruling after. False (with err) when a hook failed; a
 * ruling that could not be made is a ruling with its status, not false. */
bool scenario_rule(const ruleset *rs, gref root, scenario *sc, ruling *r, strbuf *err);
/* The same into r, an earlier ruling (or all zero), whose memory it uses
 * again (eval_rule_again): for rulings in bulk. */
bool scenario_rule_again(const ruleset *rs, gref root, scenario *sc, ruling *r, strbuf *err);

/* Set a fact the director or a test gives; forget it again. */
void scenario_give(scenario *sc, int fact, int64_t value);
void scenario_forget(scenario *sc, int fact);

/* Read one JSON object of facts, and optionally the records the core reads
 * itself: "dealer" + "auction", "contract" (e.g. "4SX+1"), "vulnerable",
 * and "play" + "declarer" (+ "trump" unless the contract names it, + "deal"
 * when the hands are known); in a klaverjas ruleset, a position ("trump",
 * "seat", "hand", "trick", "card", "taker") and a hand as played ("trump",
 * "taker", "tricks", "first_leader", "roem_claimed", "hands"). */
bool scenario_read_json(scenario *sc, const char *text, size_t len, strbuf *err);
bool scenario_read_object(scenario *sc, json_t *obj, strbuf *err);

/* scenario_read_json, with a refusal's message begun by where in the text
 * it went wrong, "line N, column M: ", as the library's messages about a
 * place in an input are (for the callers that pass on only the message). */
bool scenario_read_json_placed(scenario *sc, const char *text, size_t len, strbuf *err);

/* A ruleset's fact names and enum values by hash, made once for many
 * scenarios (a batch), with what the last line named (not shared between
 * threads). */
typedef struct scenario_index scenario_index;
scenario_index *scenario_index_new(const ruleset *rs);
void scenario_index_free(scenario_index *ix);
/* The fact named by len bytes at name, or -1 (rs_find_fact by hash). */
int scenario_index_fact(const scenario_index *ix, const char *name, size_t len);

/* Reads a flat scenario line — one JSON object whose values are strings
 * without escapes, true/false or integers, with the records "dealer",
 * "auction" (a string), "contract" and "vulnerable" — without building a
 * JSON tree, with the same result as scenario_read_json. False for
 * anything else and for anything scenario_read_json would refuse: read the
 * line again with scenario_read_json (after scenario_reset), which reads
 * it or says what is wrong. */
bool scenario_read_flat(scenario *sc, scenario_index *ix, const char *text, size_t len);

/* Analyse an auction record and fill the facts that come from it. A value
 * given explicitly must agree, unless the fact is overridable. */
bool scenario_set_auction(scenario *sc, const bridge_auction *a, strbuf *err);

/* Analyse a play record and fill the facts that come from it, likewise. */
bool scenario_set_play(scenario *sc, const bridge_play *p, strbuf *err);

/* Fill the facts that come from sc->rec after its parts were set. */
bool scenario_apply_record(scenario *sc, strbuf *err);

/* Forget every fact the record settled (not those given explicitly): a
 * command that rules on one card or one trick after another clears the
 * last one's facts before it applies the next. */
void scenario_forget_record(scenario *sc);

/* A director's answer to a fact's question: a value name, its label, its
 * number in the list of choices (1-based), ja/nee, a number or a call. */
bool scenario_parse_answer(const ruleset *rs, int fact, const char *text, int64_t *out,
                           strbuf *err);

#endif
