/* legalwalk.h — klaverjas: a proof by exhaustion that the legal article,
 * with the plugins around its rulings, leaves the player to play at least
 * one legal card in every position the game can produce. */
#ifndef ARBITER_LEGALWALK_H
#define ARBITER_LEGALWALK_H

#include "scenario.h"

#define LEGAL_WALK_FACTS 8 /* the director's facts one position may need */

/* What the director says of a position: facts the rulings asked, a value each. */
typedef struct walk_answers {
    int n;
    int fact[LEGAL_WALK_FACTS];
    int64_t value[LEGAL_WALK_FACTS];
} walk_answers;

typedef struct legal_walk {
    long positions; /* positions walked */
    int kinds;      /* kinds of position the legal article can tell apart, each ruled on */
    long rulings;   /* cards ruled on */
    bool found;     /* a position with no legal card, with the director's answers: */
    kj_position counterexample;
    walk_answers answers;
} legal_walk;

/* Walks every kind of position (legalwalk.c says how they are found) and
 * rules on one card of each kind its hand holds with the legal article,
 * the hooks (NULL: none) around each ruling, under every answer the
 * director may give to a fact the rulings ask. Stops at the first position
 * with no legal card (out->found). False (with err) when the ruleset has no
 * legal article, a card got no verdict, or a ruling asks a fact whose
 * values cannot all be tried. */
bool legal_walk_run(const ruleset *rs, const scenario_hooks *hooks, legal_walk *out, strbuf *err);

/* The position, with the answers (NULL: none), as a scenario `arbiter
 * legal` reads: one JSON line. */
char *legal_walk_position_json(const ruleset *rs, const kj_position *p, const walk_answers *a);

#endif
