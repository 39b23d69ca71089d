/* cards.h — cards, hands and the play of a bridge deal.
 *
 * The core knows what a card is, who holds it, who led to a trick, who won
 * it and whether a player failed to follow suit while able to; it never
 * knows what an article rules about that.
 */
#ifndef ARBITER_CARDS_H
#define ARBITER_CARDS_H

#include "bridge.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Suits share the order of the bridge denominations: DENOM_C .. DENOM_S.
 * Ranks are 2..14 (11 jack, 12 queen, 13 king, 14 ace). */
typedef struct bridge_card {
    uint8_t suit;
    uint8_t rank;
} bridge_card;

/* "SA", "HK", "D10", "DT", "C2"; Dutch suits K (klaveren) and R (ruiten)
 * and ranks H (heer), V (vrouw), B (boer) too; a suit symbol ♠♥♦♣ may
 * replace the letter. Case-insensitive. */
bool bridge_parse_card(const char *text, bridge_card *out, char *err, size_t errsz);
void bridge_format_card(bridge_card c, char buf[8]); /* "SA", "H10" */
int bridge_card_index(bridge_card c);                /* 0..51 (-1: not a card) */

/* Four hands as bit sets of card indexes; a hand may be unknown. */
typedef struct bridge_deal {
    uint64_t hand[4];
    bool known[4];
} bridge_deal;

/* PBN deal: "N:AKQ2.JT9.876.543 ..." — the first seat, then four hands in
 * clockwise order, each spades.hearts.diamonds.clubs ("-" for an unknown
 * hand). A known hand has 13 cards; no card is dealt twice. */
bool bridge_parse_deal(const char *pbn, bridge_deal *out, char *err, size_t errsz);

#define BRIDGE_MAX_PLAYS 52

typedef struct bridge_play {
    int nplays;
    struct {
        enum bridge_seat seat;
        bridge_card card;
    } plays[BRIDGE_MAX_PLAYS];
    enum bridge_seat first_leader; /* who was to lead to trick 1 (declarer's LHO) */
    int trump;                     /* a suit DENOM_C..DENOM_S, or DENOM_NT for no trump */
    enum bridge_seat declarer;
    bool has_deal;
    bridge_deal deal;
} bridge_play;

/* Compact play record: "W:SK N:S2 E:S5 S:SA S:H3 …" — each card with the
 * seat that played it, in order; a card without "SEAT:" is played by the
 * next seat clockwise within the trick (or by the winner of the previous
 * trick when it leads). Tricks are the plays taken four at a time. Set
 * first_leader and trump in *out before parsing (finding the winner of a
 * trick needs them); parsing fills nplays and plays only. */
bool bridge_parse_play(const char *text, bridge_play *out, char *err, size_t errsz);

enum revoke_trick_winner { WON_BY_OFFENDER, WON_BY_PARTNER, WON_BY_OPPONENTS };
enum play_role { ROLE_DECLARER, ROLE_DUMMY, ROLE_DEFENDER };

/* What the play record settles. Tricks are numbered from 1. */
typedef struct play_facts {
    int tricks_complete;         /* tricks with four cards */
    enum bridge_seat winner[13]; /* of each complete trick */
    int declarer_tricks;         /* complete tricks won by declarer's side */
    /* a lead out of turn: the first card of a trick played by a player who
     * was not to lead (the first such lead in the record) */
    bool lead_out_of_turn;
    int lead_out_of_turn_trick;
    enum bridge_seat wrong_leader, right_leader;
    enum play_role wrong_leader_role;
    /* the first revoke: a card of another suit played while the player held
     * a card of the suit led (needs the player's hand) */
    bool revoke;
    int revoke_trick;
    enum bridge_seat revoker;
    enum play_role revoker_role;
    bool revoke_established; /* the offender or his partner played to a later trick (Art. 63A1) */
    enum revoke_trick_winner revoke_trick_won_by; /* once tricks_complete >= revoke_trick */
    int offending_side_tricks_after; /* tricks the offending side won after the revoke trick */
    bool second_revoke_same_suit;    /* the same player revoked again in the same suit */
} play_facts;

/* Analyse a play record: check it against the deal where hands are known
 * (a card played twice, a card a player does not hold, a player playing
 * twice to one trick: a fifth card) and settle the facts above. Fails with a reason on an
 * impossible record. Plays after a lead out of turn follow the card actually led. */
bool bridge_analyse_play(const bridge_play *p, play_facts *out, char *err, size_t errsz);

#endif
