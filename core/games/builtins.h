/* builtins.h — the facts the core settles from a scenario's own records:
 * the auction (auction.NAME), the contract and its result (contract.NAME),
 * the numbers a scoring method works on (scoring.NAME), the play of the
 * cards (play.NAME) and, in klaverjas, one card a player might play
 * (card.NAME, position.NAME), one finished trick (trick.NAME) and the hand
 * (hand.NAME). A rule file decides which of them it uses and under which
 * fact name. */
#ifndef ARBITER_BUILTINS_H
#define ARBITER_BUILTINS_H

#include "bridge.h"
#include "cards.h"
#include "klaverjas.h"

#include <stdint.h>

enum builtin_type { BT_BOOL, BT_SYMBOL, BT_CALL, BT_INT };

typedef struct builtin_desc {
    const char *ns, *name;
    enum builtin_type type;
    const char *const *symbols; /* BT_SYMBOL: the names it may return */
    int nsymbols;
} builtin_desc;

/* What a scenario's records hold; each part is optional. */
typedef struct record {
    bool has_auction;
    bridge_auction auction;
    bridge_facts auction_facts;
    bool has_contract;
    bridge_contract contract;
    bool has_vulnerable;
    bool vulnerable;
    bool has_scoring; /* one score among the others on the same board, or two scores compared */
    int64_t beaten, equalled, others, difference;
    /* a score sheet's question to the adjusted-score article: one of the
     * names of scoring.adjusted, and the percentage it gives (NULL: none) */
    const char *adjusted;
    int64_t percentage;
    int64_t board; /* scoring.board: the board's number (0: not known) */
    /* what the sheet knows besides, each 0 (not known), 1 (no) or 2 (yes):
     * scoring.in_imps, the sheet's scores are IMPs; scoring.session_known,
     * the side's result on the session's other boards is known (a
     * session's sheet); scoring.session_passes, that result passes the
     * bound the article's exception for the session names (the core
     * knows it once the session is scored); scoring.board_adjusted, the
     * board has an adjusted score (an artificial or a weighted one) */
    int8_t in_imps, session_known, session_passes, board_adjusted;
    /* two pairs tied on matchpoints (ranking.*): their tops, and which
     * scored the more points (0 the first, 1 the second, 2 neither) */
    bool has_ranking;
    int64_t tops[2];
    int more_points;
    bool has_play;
    bridge_play play; /* the cards played, with the deal when it is known */
    play_facts play_facts;
    /* klaverjas: the records a scenario gives (read and checked against the
     * ruleset's tables) ... */
    kj_tables kj_tables;
    bool has_kj_position_record, has_kj_hand_record;
    kj_position kj_position_record; /* a player about to play */
    kj_hand kj_hand_record;         /* a hand as played */
    /* ... and the facts a command settles from them, one card, one trick or
     * the hand at a time */
    bool has_kj_position, has_kj_card, has_kj_trick, has_kj_hand;
    kj_position_facts kj_position;
    kj_card_facts kj_card;
    kj_trick_facts kj_trick;
    kj_hand_facts kj_hand;
} record;

int builtin_count(void);
const builtin_desc *builtin_at(int i);
int builtin_find(const char *ns, const char *name); /* -1 if unknown */

/* The value of built-in i in a record. For BT_SYMBOL, *symbol is set;
 * otherwise *value. Returns false when the record does not settle it (its
 * part is missing, or e.g. the lowest sufficient bid of a call that is not
 * a bid, the result of a passed-out board, a revoke fact of a play
 * without a revoke, or trick.four_rank of a trick without four of a kind). */
bool builtin_value(int i, const record *rec, int64_t *value, const char **symbol);

/* Calls as fact values, in the language's encoding (ruleset.h, RS_CALL_VALUES). */
#define CALL_DECISION_VALUES RS_CALL_VALUES
int64_t call_to_value(const bridge_call *c);
bridge_call call_from_value(int64_t v);

#endif
