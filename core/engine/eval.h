/* eval.h — ruling on one situation: walk the decision graph with the fact
 * values, then evaluate the arguments of the actions the ruling names. */
#ifndef ARBITER_EVAL_H
#define ARBITER_EVAL_H

#include "expr.h"
#include "ruleset.h"

enum ruling_status {
    RULING_OK,       /* a ruling */
    RULING_NEEDS,    /* a fact the decision needs is not known: ask it */
    RULING_REJECTED, /* the situation breaks an invariant */
    RULING_GAP,      /* the rule files give no ruling (the checker reports these) */
    RULING_ERROR,    /* a condition or argument could not be evaluated */
    RULING_OUTSIDE   /* the ruleset declares the situation outside its scope */
};

typedef struct ruling_action {
    int use;       /* rs_action_use */
    int64_t *args; /* evaluated, one per parameter */
    bool dropped;  /* a plugin took it out of the ruling */
} ruling_action;

/* An action a plugin named, already in words, and what a plugin did. */
typedef struct ruling_extra {
    char *name, *cite, *message, *message_en;
    char *args; /* a JSON object */
} ruling_extra;

typedef struct ruling_note {
    char *plugin, *cite, *what;
} ruling_note;

typedef struct ruling {
    const ruleset *rs;
    enum ruling_status status;
    int outcome;   /* RULING_OK */
    int fact;      /* RULING_NEEDS */
    int invariant; /* RULING_REJECTED */
    int block;     /* RULING_GAP: block id, -1 when no article applies */
    int outside;   /* RULING_OUTSIDE: the declaration */
    enum expr_status error;
    /* the facts that decided the ruling, in the order the decision tested
     * them: the audit of the ruling (a fact it tested that could not have
     * changed it left out; every fact tested where the ruling was made
     * without its grounds, see eval_rule_again) */
    int npath;
    int *path_fact;
    int64_t *path_value;
    int nactions;
    ruling_action *actions;
    /* what plugins changed: the ruleset's actions dropped, actions added,
     * citations added to the trail, and a note per change for the audit */
    bool replaced;
    int nextra, nextra_cites, nnotes;
    ruling_extra *extra;
    char **extra_cites;
    ruling_note *notes;
    size_t block_size; /* bytes of the block the path, actions and arguments share */
} ruling;

/* A ruling in brief: what eval_rule decides, without the audit path. */
typedef struct ruling_brief {
    enum ruling_status status;
    /* the outcome (RULING_OK), the fact to ask (NEEDS), the invariant
     * (REJECTED), the block or -1 (GAP), the declaration (OUTSIDE), or the
     * enum expr_status (ERROR) */
    int detail;
    int args, nargs; /* RULING_OK: its actions' arguments, in order, in eval_batch's args */
} ruling_brief;

/* A situation packed for eval_batch, in eval_row_size(rs) bytes (a
 * multiple of 8; rows lie one after the other, 8-byte aligned): which
 * view of the ruleset's graph it walks (the facts it gives decide that:
 * eval_pack finds or makes it), then the keys the view's walk reads, in
 * the order it first reads them: a byte each, made of up to three of the
 * facts' values (their indexes in their domains, value - lo), the one
 * number that picks a node's child two or three levels down. A view tests
 * only the facts its rows give; a situation whose walk reaches another is
 * ruled from its fact values, and so is one that gives a value outside
 * its domain (no view). Rows are for the ruleset they were packed for. */
size_t eval_row_size(const ruleset *rs);
void eval_pack(const ruleset *rs, const fact_values *fv, void *row);

/* Rules on n situations (fv[0..n)) with the graph at root, without the
 * audit path: rulings in bulk, e.g. a season's scores. rows, when not
 * NULL, holds the same situations packed (eval_pack, made once): a
 * situation whose facts settle the invariants and the graph's walk is
 * then ruled from its row alone, with no search, eight rows walked side by
 * side, up to three levels of the graph a step; the rulings are the same
 * either way. The first row packed with a new set of known facts makes,
 * once per ruleset, the invariants' graph over those facts with the
 * ruling's folded in (the only memory eval_pack and eval_batch allocate;
 * safe from several threads; up to 16 sets, rows of others are ruled from
 * their fact values). The arguments of every action of ruling i go to
 * args[out[i].args .. out[i].args + out[i].nargs). Returns how many
 * situations it ruled: fewer than n when the next one's arguments would
 * not fit in the args_cap slots left (call again with the rest). */
int eval_batch(const ruleset *rs, gref root, const fact_values *fv, const void *rows, int n,
               ruling_brief *out, int64_t *args, size_t args_cap);

/* The value of fact f a decision tests: the one fv gives, or, for a
 * derived fact the graph tests as a variable of its own (one that reads a
 * fact no decision can test, such as points past 255), its expression's
 * value over fv. EXPR_UNKNOWN sets *missing to the input fact to ask. */
enum expr_status eval_tested_value(const ruleset *rs, int f, const fact_values *fv, int64_t *v,
                                   int *missing);

/* Rule on fv with the graph rooted at root (rs->root for the whole ruleset).
 * The ruling owns its memory: release it with ruling_clear. */
void eval_rule(const ruleset *rs, gref root, const fact_values *fv, ruling *out);
/* The same into a ruling that holds an earlier one (or is all zero): its
 * memory is used again (rulings in bulk allocate nothing once the largest
 * has been seen). Release it with ruling_clear after the last. grounds
 * false: the path holds every known fact the decision tested, not only
 * those that decided it (cheaper, for records that do not show it). */
void eval_rule_again(const ruleset *rs, gref root, const fact_values *fv, bool grounds,
                     ruling *out);
void ruling_clear(ruling *r);
/* The first invariant fv breaks, settled by its known facts (-1: none is),
 * as a ruling settles it before it walks. */
int eval_broken_invariant(const ruleset *rs, const fact_values *fv);
/* What plugins added to r freed, its ruling's memory kept for the next
 * (eval_rule_again), every other field zero. */
void ruling_reset(ruling *r);
/* Why a ruling could not be made, in one line (for every non-OK status). */
void ruling_problem(const ruling *r, strbuf *out);
/* The trail as citations, in order ("27", "27B", "27B2"; a clause citing its
 * own article's number is one step), then what plugins added: the first cap
 * go to out (which may be NULL when cap is 0). Returns how many there are. */
int ruling_trail(const ruling *r, const char **out, int cap);

/* The citation of clause i as the trail shows it (NULL for a clause that
 * cites nothing). */
const char *eval_clause_cite(const ruleset *rs, int clause);

#endif
