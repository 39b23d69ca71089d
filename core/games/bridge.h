/* bridge.h — bridge seats, calls and auction records.
 *
 * The core knows what a call is and what an auction record settles (whose
 * turn it was, whether a bid is sufficient, whether a double is admissible
 * under the rules of Art. 19); it never knows what an article rules.
 */
#ifndef ARBITER_BRIDGE_H
#define ARBITER_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>

enum bridge_seat { SEAT_N, SEAT_E, SEAT_S, SEAT_W };

/* Denominations in rank order, lowest first (Art. 18E). */
enum bridge_denom { DENOM_C, DENOM_D, DENOM_H, DENOM_S, DENOM_NT };

enum bridge_call_kind { CALL_PASS, CALL_BID, CALL_DOUBLE, CALL_REDOUBLE };

typedef struct bridge_call {
    enum bridge_call_kind kind;
    int level;               /* 1..99 for a bid (above 7 is inadmissible), 0 otherwise */
    enum bridge_denom denom; /* for a bid */
} bridge_call;

/* The longest auction record accepted; a real auction has far fewer. */
#define BRIDGE_MAX_CALLS 128

typedef struct bridge_auction_entry {
    enum bridge_seat seat;
    bridge_call call;
    bool marked_irregular; /* marked by the scenario ("irregular": true or '*') */
} bridge_auction_entry;

typedef struct bridge_auction {
    enum bridge_seat dealer;
    int ncalls;
    bridge_auction_entry calls[BRIDGE_MAX_CALLS];
} bridge_auction;

/* Relative positions, seen from a player. */
enum bridge_relative { REL_SELF, REL_LHO, REL_PARTNER, REL_RHO };

/* The offender's part once the auction has ended, where the record says. */
enum bridge_role {
    AUCTION_ROLE_UNSETTLED,
    AUCTION_ROLE_DECLARING_SIDE,
    AUCTION_ROLE_DEFENDING_SIDE,
    AUCTION_ROLE_NONE
};

/* Whether a pass at some point of an auction ends it: not, as the third
 * pass after a bid, or as the fourth pass of a board passed out. */
enum bridge_pass_ending { PASS_ENDS_NOT, PASS_ENDS_AFTER_BID, PASS_ENDS_PASSED_OUT };

/* What the record settles about its irregular call. */
typedef struct bridge_facts {
    int irregular_index; /* index into calls[] */
    enum bridge_seat offender;
    enum bridge_seat turn;         /* whose turn it was */
    enum bridge_relative turn_was; /* that player, seen from the offender */
    enum bridge_call_kind call_kind;
    bool insufficient;                         /* a bid not overcalling the last bid */
    bool over_seven;                           /* a bid above seven */
    bool double_admissible;                    /* Art. 19 (true for a pass or a bid) */
    bool after_final_pass;                     /* the auction had ended before the call */
    bool offender_called_before;               /* the offender called earlier in the record */
    bool bid_before;                           /* some player bid before the irregular call */
    bool lho_called;                           /* offender's LHO called after the irregular call */
    enum bridge_call_kind lho_call_kind;       /* the kind of his first call then (lho_called) */
    bool rho_called;                           /* offender's RHO called after the irregular call */
    bool side_doubled_before;                  /* a double or redouble: the offender's side had
                                                  already doubled or redoubled the last bid */
    enum bridge_pass_ending pass_instead_ends; /* whether a pass in the call's place would
                                                  have ended the auction, and how */
    enum bridge_role role;         /* a call after the final pass: the offender's part */
    bool has_lowest_sufficient;    /* the call is a bid with a sufficient bid in its denom */
    bridge_call lowest_sufficient; /* lowest sufficient bid in the same denomination */
    bridge_call irregular_call;
} bridge_facts;

/* Parsing. All return true on success; on failure they write a one-line
 * reason (no trailing newline) into err (size errsz). */

/* "N", "E", "S", "W" (also Dutch "Z" for S); case-insensitive. */
bool bridge_parse_seat(const char *text, enum bridge_seat *out);

/* "P"/"PASS"/"PAS", "X"/"DBL", "XX"/"RDBL", "1C".."7NT"; suits C/D/H/S and
 * Dutch K/R/H/S, notrump as "NT", "N" or "SA"; case-insensitive. Levels up
 * to 99 parse (so that a bid above seven can be ruled on). */
bool bridge_parse_call(const char *text, bridge_call *out, char *err, size_t errsz);

/* Compact record: "N: 1S 1H E:2C X*" — the dealer, a colon, then calls in
 * rotation from the dealer; "SEAT:" before a call gives its seat (and the
 * rotation continues from there); a trailing '*' marks the irregular call. */
bool bridge_parse_auction(const char *text, bridge_auction *out, char *err, size_t errsz);

/* A contract and its result, as a scorer writes it: "4S=", "4SX+1",
 * "3NTXX-2", "6H+1", "PASS" (Dutch K, R, SA understood). */
typedef struct bridge_contract {
    bool passed_out;
    int level; /* 1..7 */
    enum bridge_denom denom;
    int doubling; /* 0 undoubled, 1 doubled, 2 redoubled */
    int result;   /* tricks over (+) or under (-) the contract */
} bridge_contract;

bool bridge_parse_contract(const char *text, bridge_contract *out, char *err, size_t errsz);

/* Formatting: "N", "1S", "3NT", "P", "X", "XX". buf must hold 8 bytes. */
const char *bridge_seat_name(enum bridge_seat s);
void bridge_format_call(const bridge_call *c, char buf[8]);

enum bridge_seat bridge_seat_at(enum bridge_seat from, enum bridge_relative rel);

/* Analyse a record: find the irregular call (the marked one, else the first
 * out of rotation, insufficient, above seven, inadmissible by Art. 19, or
 * after the final pass) and settle the facts about it. Fails, with a reason,
 * when the record has no irregular call, more than one marked call, or an
 * irregularity before the irregular call. */
bool bridge_analyse(const bridge_auction *a, bridge_facts *out, char *err, size_t errsz);

#endif
