/* test_cards.c — unit tests of core/games/cards.c and of the play record as facts
 * (core/games/builtins.c, core/games/scenario.c).
 *
 * Every expected value is worked out by hand from the rules: play goes
 * clockwise N -> E -> S -> W; a trick is won by its highest trump, else by
 * the highest card of the suit led (Law 44); the winner leads next; a revoke
 * is a card of another suit from a player who still held the suit led
 * (Law 61); it is established when the offender or his partner plays to a
 * later trick (Law 63A1). Nothing is copied from the program's output.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cards.h"
#include "compile.h"
#include "scenario.h"

#include "fixture.h"

#define ERR_SIZE 256

#define CLUB "\xE2\x99\xA3"
#define DIAMOND "\xE2\x99\xA6"
#define HEART "\xE2\x99\xA5"
#define SPADE "\xE2\x99\xA0"

/* The deal most tests play, hearts trumps, South declarer, so North is
 * dummy and West makes the opening lead (South's LHO):
 *
 *   N: S 5432  H AKQJ  D 5432  C A
 *   E: S T98   H T98   D T98   C KQJT
 *   S: S 76    H 76543 D 76    C 9876
 *   W: S AKQJ  H 2     D AKQJ  C 5432
 *
 * Each suit is dealt once: spades AKQJ (W) T98 (E) 76 (S) 5432 (N), and so
 * on, 13 cards to every hand. */
#define D1 "N:5432.AKQJ.5432.A T98.T98.T98.KQJT 76.76543.76.9876 AKQJ.2.AKQJ.5432"
/* The same deal with South's hand and West's hand unknown. */
#define D1_NS_EW_HALF "N:5432.AKQJ.5432.A T98.T98.T98.KQJT - -"
/* The same deal with only South's hand unknown: it is the rest of the pack. */
#define D1_NO_SOUTH "N:5432.AKQJ.5432.A T98.T98.T98.KQJT - AKQJ.2.AKQJ.5432"

/* A whole board of D1, in rotation, hearts trumps, South declarer. Hand by
 * hand (what is left after each trick in brackets):
 *  1 W:SA N:S2 E:S8 S:S6  spades only: W wins with the ace
 *  2 W:SK N:S3 E:S9 S:S7  W wins (S now void in spades)
 *  3 W:SQ N:S4 E:ST S:H3  S void in spades ruffs: S wins
 *  4 S:H4 W:H2 N:HA E:H8  trumps led, N's ace wins
 *  5 N:HK E:H9 S:H5 W:C2  W void in hearts discards: N wins
 *  6 N:HQ E:HT S:H6 W:C3  N wins
 *  7 N:CA E:CT S:C6 W:C4  N's ace wins
 *  8 N:D2 E:D8 S:D6 W:DA  W wins
 *  9 W:DK N:D3 E:D9 S:D7  W wins (S now void in diamonds)
 * 10 W:DQ N:D4 E:DT S:H7  S ruffs: S wins  [N S5 HJ D5, E CKQJ, S C987, W SJ DJ C5]
 * 11 S:C7 W:C5 N:HJ E:CK  N void in clubs ruffs: N wins  [N S5 D5, E CQJ, S C98, W SJ DJ]
 * 12 N:S5 E:CJ S:C8 W:DJ  W still holds SJ: a revoke; S5 is the only spade
 *                         and there is no trump in it: N wins
 * 13 N:D5 E:CQ S:C9 W:SJ  only a diamond in it: N wins */
#define BOARD                                                                                      \
    "W:SA N:S2 E:S8 S:S6 W:SK N:S3 E:S9 S:S7 W:SQ N:S4 E:ST S:H3 S:H4 W:H2 N:HA E:H8 "             \
    "N:HK E:H9 S:H5 W:C2 N:HQ E:HT S:H6 W:C3 N:CA E:CT S:C6 W:C4 N:D2 E:D8 S:D6 W:DA "             \
    "W:DK N:D3 E:D9 S:D7 W:DQ N:D4 E:DT S:H7 S:C7 W:C5 N:HJ E:CK N:S5 E:CJ S:C8 W:DJ "             \
    "N:D5 E:CQ S:C9 W:SJ"
/* The same board without a single seat: each card is played by the next
 * seat, each lead by the winner of the trick before. */
#define BOARD_SEATLESS                                                                             \
    "SA S2 S8 S6 SK S3 S9 S7 SQ S4 ST H3 H4 H2 HA H8 HK H9 H5 C2 HQ HT H6 C3 CA CT C6 C4 "         \
    "D2 D8 D6 DA DK D3 D9 D7 DQ D4 DT H7 C7 C5 HJ CK S5 CJ C8 DJ D5 CQ C9 SJ"

/* ---------------------------------------------------------------- helpers */

static void assert_one_line(const char *text) {
    if (strchr(text, '\n') != NULL || strchr(text, '\r') != NULL)
        fail_msg("message spans lines: \"%s\"", text);
}

static bridge_card card(const char *text) {
    bridge_card c = {0, 0};
    char err[ERR_SIZE] = "";
    if (!bridge_parse_card(text, &c, err, sizeof err))
        fail_msg("\"%s\" did not parse: %s", text, err);
    return c;
}

static void assert_card(const char *text, int suit, int rank) {
    bridge_card c = card(text);
    if (c.suit != suit || c.rank != rank)
        fail_msg("\"%s\" read as suit %d rank %d, expected suit %d rank %d", text, c.suit, c.rank,
                 suit, rank);
}

static void assert_card_rejected(const char *text, const char *reason) {
    bridge_card c;
    char err[ERR_SIZE] = "";
    assert_false(bridge_parse_card(text, &c, err, sizeof err));
    assert_has(err, reason);
    assert_one_line(err);
}

static bridge_deal deal(const char *pbn) {
    bridge_deal d;
    char err[ERR_SIZE] = "";
    if (!bridge_parse_deal(pbn, &d, err, sizeof err))
        fail_msg("deal \"%s\" did not parse: %s", pbn, err);
    return d;
}

static void assert_deal_rejected(const char *pbn, const char *reason) {
    bridge_deal d;
    char err[ERR_SIZE] = "";
    assert_false(bridge_parse_deal(pbn, &d, err, sizeof err));
    assert_has(err, reason);
    assert_one_line(err);
}

static bool holds(const bridge_deal *d, enum bridge_seat s, const char *c) {
    return (d->hand[s] >> bridge_card_index(card(c))) & 1;
}

static int cards_in(uint64_t hand) {
    int n = 0;
    for (; hand; hand &= hand - 1)
        n++;
    return n;
}

/* A play record as a scenario builds it: the opening lead is declarer's
 * LHO's (Law 41A). pbn may be NULL (no deal). */
static bridge_play play(enum bridge_seat declarer, int trump, const char *pbn, const char *record) {
    bridge_play p;
    char err[ERR_SIZE] = "";
    memset(&p, 0, sizeof p);
    p.declarer = declarer;
    p.first_leader = bridge_seat_at(declarer, REL_LHO);
    p.trump = trump;
    if (pbn != NULL) {
        p.deal = deal(pbn);
        p.has_deal = true;
    }
    if (!bridge_parse_play(record, &p, err, sizeof err))
        fail_msg("play \"%s\" did not parse: %s", record, err);
    return p;
}

static play_facts analyse(const bridge_play *p) {
    play_facts f;
    char err[ERR_SIZE] = "";
    if (!bridge_analyse_play(p, &f, err, sizeof err)) fail_msg("the play did not analyse: %s", err);
    return f;
}

static play_facts facts_of(enum bridge_seat declarer, int trump, const char *pbn,
                           const char *record) {
    bridge_play p = play(declarer, trump, pbn, record);
    return analyse(&p);
}

static void assert_analysis_fails(const bridge_play *p, const char *reason) {
    play_facts f;
    char err[ERR_SIZE] = "";
    assert_false(bridge_analyse_play(p, &f, err, sizeof err));
    assert_has(err, reason);
    assert_one_line(err);
}

static void assert_play_rejected(enum bridge_seat declarer, int trump, const char *pbn,
                                 const char *record, const char *reason) {
    bridge_play p = play(declarer, trump, pbn, record);
    assert_analysis_fails(&p, reason);
}

static void assert_play_unreadable(const char *record, const char *reason) {
    bridge_play p;
    char err[ERR_SIZE] = "";
    memset(&p, 0, sizeof p);
    p.first_leader = SEAT_W;
    p.declarer = SEAT_S;
    p.trump = DENOM_H;
    assert_false(bridge_parse_play(record, &p, err, sizeof err));
    assert_has(err, reason);
    assert_one_line(err);
}

/* -------------------------------------------------------------- cards */

static void test_parse_card_english(void **state) {
    (void)state;
    assert_card("SA", DENOM_S, 14);
    assert_card("HK", DENOM_H, 13);
    assert_card("D10", DENOM_D, 10);
    assert_card("DT", DENOM_D, 10);
    assert_card("C2", DENOM_C, 2);
    assert_card("SQ", DENOM_S, 12);
    assert_card("DJ", DENOM_D, 11);
    assert_card("H9", DENOM_H, 9);
    /* case-insensitive */
    assert_card("sa", DENOM_S, 14);
    assert_card("hK", DENOM_H, 13);
    assert_card("dt", DENOM_D, 10);
}

static void test_parse_card_dutch(void **state) {
    (void)state;
    /* K(laveren) is clubs, R(uiten) diamonds; B(oer) jack, V(rouw) queen,
     * H(eer) king, A(as) ace. In the rank place K is still the king. */
    assert_card("KA", DENOM_C, 14);
    assert_card("KH", DENOM_C, 13);
    assert_card("KK", DENOM_C, 13);
    assert_card("RV", DENOM_D, 12);
    assert_card("R10", DENOM_D, 10);
    assert_card("SB", DENOM_S, 11);
    assert_card("HH", DENOM_H, 13);
    assert_card("hv", DENOM_H, 12);
    assert_card("kb", DENOM_C, 11);
}

static void test_parse_card_symbols(void **state) {
    (void)state;
    assert_card(SPADE "A", DENOM_S, 14);
    assert_card(HEART "10", DENOM_H, 10);
    assert_card(DIAMOND "V", DENOM_D, 12);
    assert_card(CLUB "2", DENOM_C, 2);
}

static void test_parse_card_rejects(void **state) {
    (void)state;
    assert_card_rejected("", "empty card");
    assert_card_rejected("S", "no rank after the suit");
    assert_card_rejected("S1", "unknown rank \"1\"");
    assert_card_rejected("S11", "unknown rank \"11\"");
    assert_card_rejected("S0", "unknown rank");
    assert_card_rejected("SX", "unknown rank \"X\"");
    assert_card_rejected("SAK", "unknown rank \"AK\"");
    assert_card_rejected("XA", "no suit first");
    assert_card_rejected("AS", "no suit first"); /* the rank does not come first */
    assert_card_rejected("10S", "no suit first");
    assert_card_rejected("SA ", "unknown rank");
    assert_card_rejected(" SA", "no suit first");
    assert_card_rejected(SPADE, "no rank after the suit");
    /* the message quotes the card */
    char err[ERR_SIZE] = "";
    bridge_card c;
    assert_false(bridge_parse_card("S1", &c, err, sizeof err));
    assert_true(strncmp(err, "\"S1\": ", 6) == 0);
    assert_false(bridge_parse_card(NULL, &c, err, sizeof err));
    assert_has(err, "no card");
}

static void test_format_and_index(void **state) {
    (void)state;
    char buf[8];
    bridge_format_card(card("SA"), buf);
    assert_string_equal(buf, "SA");
    bridge_format_card(card("DT"), buf);
    assert_string_equal(buf, "D10");
    bridge_format_card(card("RV"), buf);
    assert_string_equal(buf, "DQ");
    bridge_format_card(card("KB"), buf);
    assert_string_equal(buf, "CJ");
    bridge_format_card(card("HH"), buf);
    assert_string_equal(buf, "HK");
    bridge_format_card(card("C2"), buf);
    assert_string_equal(buf, "C2");
    bridge_format_card((bridge_card){.suit = 4, .rank = 14}, buf);
    assert_string_equal(buf, "?");
    bridge_format_card((bridge_card){.suit = 0, .rank = 1}, buf);
    assert_string_equal(buf, "?");
    /* suits in denomination order, 13 ranks each, the two lowest first */
    assert_int_equal(bridge_card_index(card("C2")), 0);
    assert_int_equal(bridge_card_index(card("CA")), 12);
    assert_int_equal(bridge_card_index(card("D2")), 13);
    assert_int_equal(bridge_card_index(card("H10")), 2 * 13 + 8);
    assert_int_equal(bridge_card_index(card("SA")), 51);
}

/* -------------------------------------------------------------- deals */

static void test_parse_deal(void **state) {
    (void)state;
    bridge_deal d = deal(D1);
    for (int s = 0; s < 4; s++) {
        assert_true(d.known[s]);
        assert_int_equal(cards_in(d.hand[s]), 13);
    }
    /* the first hand is N's, then clockwise E, S, W; each spades first */
    assert_true(holds(&d, SEAT_N, "S5"));
    assert_true(holds(&d, SEAT_N, "HA"));
    assert_true(holds(&d, SEAT_N, "CA"));
    assert_true(holds(&d, SEAT_E, "ST"));
    assert_true(holds(&d, SEAT_E, "CK"));
    assert_true(holds(&d, SEAT_S, "H3"));
    assert_true(holds(&d, SEAT_S, "C6"));
    assert_true(holds(&d, SEAT_W, "H2"));
    assert_true(holds(&d, SEAT_W, "DA"));
    assert_false(holds(&d, SEAT_W, "HA"));
    /* the four hands are the whole pack */
    assert_true((d.hand[0] | d.hand[1] | d.hand[2] | d.hand[3]) == (((uint64_t)1 << 52) - 1));
}

static void test_parse_deal_first_seat_and_unknown_hands(void **state) {
    (void)state;
    /* starting from S: the hands are S, W, N, E; W and N unknown */
    bridge_deal d = deal("S:76.76543.76.9876 - - T98.T98.T98.KQJT");
    assert_true(d.known[SEAT_S]);
    assert_false(d.known[SEAT_W]);
    assert_false(d.known[SEAT_N]);
    assert_true(d.known[SEAT_E]);
    assert_true(holds(&d, SEAT_S, "H7"));
    assert_true(holds(&d, SEAT_E, "D9"));
    assert_true(d.hand[SEAT_W] == 0 && d.hand[SEAT_N] == 0);
    /* "10" spells the ten as well as T; a void suit is empty; Dutch Z is S;
     * spaces around the hands are allowed */
    d = deal("  z:AKQJ1098765432... - - -  ");
    assert_true(d.known[SEAT_S]);
    assert_true(holds(&d, SEAT_S, "S10"));
    assert_true(holds(&d, SEAT_S, "S2"));
    assert_int_equal(cards_in(d.hand[SEAT_S]), 13);
    d = deal("W:akqj.2.akqj.5432 - - -");
    assert_true(holds(&d, SEAT_W, "SA") && holds(&d, SEAT_W, "DJ"));
}

static void test_parse_deal_rejects(void **state) {
    (void)state;
    assert_deal_rejected("5432.AKQJ.5432.A - - -", "begin with the first seat and a colon");
    assert_deal_rejected("X:5432.AKQJ.5432.A - - -", "first seat \"X\" is not a seat");
    assert_deal_rejected("N:5432.AKQJ.5432.A - -", "3 hands after the first seat; expected four");
    assert_deal_rejected("N:", "0 hands after the first seat");
    assert_deal_rejected("N:- - - - -", "after the fourth hand");
    /* 12 cards: the club ace is missing */
    assert_deal_rejected("N:5432.AKQJ.5432. - - -",
                         "N's hand \"5432.AKQJ.5432.\": 12 cards; a known hand has 13");
    assert_deal_rejected("E:5432.AKQJ.5432.AK - - -", "E's hand \"5432.AKQJ.5432.AK\": 14 cards");
    assert_deal_rejected("N:5432.AKQJ.5432A - - -", "3 suits");
    assert_deal_rejected("N:5432.AKQJ.5432.A. - - -", "more than four suits");
    assert_deal_rejected("N:5432.AKQJ.5432.X - - -", "\"X\" is not a rank");
    assert_deal_rejected("N:5432.AKQJ.5432.1 - - -", "\"1\" is not a rank");
    assert_deal_rejected("N:5433.AKQJ.5432.A - - -", "S3 twice");
    /* the spade ace in N's and E's hand */
    assert_deal_rejected("N:A432.AKQJ.5432.A A98.T98.T98.KQJT - -",
                         "SA is in both N's and E's hand");
    char err[ERR_SIZE];
    bridge_deal d;
    assert_false(bridge_parse_deal(NULL, &d, err, sizeof err));
}

/* -------------------------------------------------------------- tricks */

static void test_trick_won_by_highest_of_suit_led(void **state) {
    (void)state;
    /* East declares, so South leads. No trump: W's H2 is a discard and the
     * club ace wins for S. */
    play_facts f = facts_of(SEAT_E, DENOM_NT, NULL, "S:CA W:H2 N:CK E:C3");
    assert_int_equal(f.tricks_complete, 1);
    assert_int_equal(f.winner[0], SEAT_S);
    assert_int_equal(f.declarer_tricks, 0); /* S is a defender */
    /* a high card of another suit does not win: clubs led, E's C4 is the
     * highest club, W's diamond ace a discard */
    f = facts_of(SEAT_E, DENOM_H, NULL, "S:C2 W:DA N:C3 E:C4");
    assert_int_equal(f.winner[0], SEAT_E);
    assert_int_equal(f.declarer_tricks, 1);
}

static void test_trick_won_by_ruff_and_overruff(void **state) {
    (void)state;
    /* hearts trumps, clubs led by S: W ruffs with H2 and wins */
    play_facts f = facts_of(SEAT_E, DENOM_H, NULL, "S:CA W:H2 N:CK E:C3");
    assert_int_equal(f.winner[0], SEAT_W);
    assert_int_equal(f.declarer_tricks, 1);
    /* W ruffs with H2, N overruffs with H5: N wins */
    f = facts_of(SEAT_E, DENOM_H, NULL, "S:CA W:H2 N:H5 E:C3");
    assert_int_equal(f.winner[0], SEAT_N);
    assert_int_equal(f.declarer_tricks, 0);
    /* W ruffs with H5, N underruffs with H2: W wins */
    f = facts_of(SEAT_E, DENOM_H, NULL, "S:CA W:H5 N:H2 E:C3");
    assert_int_equal(f.winner[0], SEAT_W);
    /* trumps led: the highest trump wins, the spade ace is a discard */
    f = facts_of(SEAT_E, DENOM_H, NULL, "S:H2 W:H5 N:SA E:H3");
    assert_int_equal(f.winner[0], SEAT_W);
}

static void test_cards_without_seat(void **state) {
    (void)state;
    /* East declares, South leads; seats follow clockwise: S W N E. W ruffs
     * with H2, N overruffs with H5 and wins, so N leads trick 2: N E S W.
     * Trick 2: N's SA, E discards C2 (no trump), S2, S3: N wins. */
    bridge_play p = play(SEAT_E, DENOM_H, NULL, "CA H2 H5 C3 SA C2 S2 S3");
    static const enum bridge_seat seats[] = {SEAT_S, SEAT_W, SEAT_N, SEAT_E,
                                             SEAT_N, SEAT_E, SEAT_S, SEAT_W};
    assert_int_equal(p.nplays, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(p.plays[i].seat, seats[i]);
    play_facts f = analyse(&p);
    assert_int_equal(f.tricks_complete, 2);
    assert_int_equal(f.winner[0], SEAT_N);
    assert_int_equal(f.winner[1], SEAT_N);
    assert_false(f.lead_out_of_turn);
    /* a written seat restarts the rotation from there: S:CA, then W by
     * rotation, N:H5 written, then E */
    p = play(SEAT_E, DENOM_H, NULL, "S:CA H2 N:H5 C3");
    assert_int_equal(p.plays[1].seat, SEAT_W);
    assert_int_equal(p.plays[3].seat, SEAT_E);
}

static void test_whole_board(void **state) {
    (void)state;
    /* The board worked out above BOARD: 13 tricks, N-S win 3, 4, 5, 6, 7,
     * 10, 11, 12, 13 (nine), E-W win 1, 2, 8, 9. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, BOARD);
    static const enum bridge_seat winners[13] = {SEAT_W, SEAT_W, SEAT_S, SEAT_N, SEAT_N,
                                                 SEAT_N, SEAT_N, SEAT_W, SEAT_W, SEAT_S,
                                                 SEAT_N, SEAT_N, SEAT_N};
    assert_int_equal(f.tricks_complete, 13);
    for (int t = 0; t < 13; t++)
        assert_int_equal(f.winner[t], winners[t]);
    assert_int_equal(f.declarer_tricks, 9);
    assert_false(f.lead_out_of_turn);
    /* W's DJ to trick 12 while holding SJ, spades led: a revoke by a
     * defender; N won it (an opponent of W); W played to trick 13, so it is
     * established; E-W won nothing after it. Earlier cards of other suits
     * (S's ruffs in 3 and 10, W's discards in 5-7, N's ruff in 11, E's and
     * S's discards in 12) came from voids. */
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 12);
    assert_int_equal(f.revoker, SEAT_W);
    assert_int_equal(f.revoker_role, ROLE_DEFENDER);
    assert_true(f.revoke_established);
    assert_int_equal(f.revoke_trick_won_by, WON_BY_OPPONENTS);
    assert_int_equal(f.offending_side_tricks_after, 0);
    assert_false(f.second_revoke_same_suit); /* in 13 W is void in diamonds */
    /* without seats the rotation and the winners give the same seats */
    bridge_play a = play(SEAT_S, DENOM_H, D1, BOARD), b = play(SEAT_S, DENOM_H, D1, BOARD_SEATLESS);
    assert_int_equal(b.nplays, 52);
    for (int i = 0; i < 52; i++) {
        assert_int_equal(a.plays[i].seat, b.plays[i].seat);
        assert_int_equal(bridge_card_index(a.plays[i].card), bridge_card_index(b.plays[i].card));
    }
}

/* -------------------------------------------------------------- revokes */

static void test_discard_from_a_void_is_no_revoke(void **state) {
    (void)state;
    /* S holds S76 and plays both; in trick 3 he is void and ruffs with H3:
     * no revoke, and the ruff wins. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1,
                            "W:SA N:S2 E:S8 S:S6 W:SK N:S3 E:S9 S:S7 W:SQ N:S4 E:ST S:H3");
    assert_false(f.revoke);
    assert_int_equal(f.tricks_complete, 3);
    assert_int_equal(f.winner[0], SEAT_W);
    assert_int_equal(f.winner[1], SEAT_W);
    assert_int_equal(f.winner[2], SEAT_S);
    assert_int_equal(f.declarer_tricks, 1);
}

/* Trick 1: W:SA N:S2 E:S8 S:S6, W wins. Trick 2: W:SK N:S3 E:S9 and S
 * ruffs with H3 while holding S7: a revoke by declarer, and the only trump
 * wins the trick for him. Trick 3: S leads H4, W H2, N HA, E H8: N wins.
 * Trick 4: N leads HK, E H9, S H5, W (void in hearts) discards C2: N wins. */
#define REVOKE_BY_DECLARER                                                                         \
    "W:SA N:S2 E:S8 S:S6 W:SK N:S3 E:S9 S:H3 S:H4 W:H2 N:HA E:H8 N:HK E:H9 S:H5 W:C2"

static void test_revoke_by_declarer_won_by_offender(void **state) {
    (void)state;
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, REVOKE_BY_DECLARER);
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 2);
    assert_int_equal(f.revoker, SEAT_S);
    assert_int_equal(f.revoker_role, ROLE_DECLARER);
    assert_true(f.revoke_established); /* S led to trick 3 */
    assert_int_equal(f.revoke_trick_won_by, WON_BY_OFFENDER);
    assert_int_equal(f.offending_side_tricks_after, 2); /* N won 3 and 4 */
    assert_false(f.second_revoke_same_suit);            /* W's C2 came from a void */
    assert_int_equal(f.tricks_complete, 4);
    assert_int_equal(f.declarer_tricks, 3); /* 2, 3 and 4 */
}

static void test_revoke_needs_the_hand(void **state) {
    (void)state;
    /* the same record, but S's hand is unknown (and W's, so the other two do
     * not give it): S's H3 may have come from a void */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1_NS_EW_HALF, REVOKE_BY_DECLARER);
    assert_false(f.revoke);
    assert_int_equal(f.declarer_tricks, 3);
    /* no deal at all: likewise */
    f = facts_of(SEAT_S, DENOM_H, NULL, REVOKE_BY_DECLARER);
    assert_false(f.revoke);
    /* three known hands give the fourth: S holds the rest of the pack, so
     * S7 among it, and the revoke is seen */
    f = facts_of(SEAT_S, DENOM_H, D1_NO_SOUTH, REVOKE_BY_DECLARER);
    assert_true(f.revoke);
    assert_int_equal(f.revoker, SEAT_S);
    assert_int_equal(f.revoke_trick, 2);
}

static void test_revoke_by_defender_won_by_partner(void **state) {
    (void)state;
    /* Trick 1: W:DA N:D2 E:D8 S:D6, W wins. Trick 2: W:DK N:D3, E plays CT
     * while holding DT and D9: a revoke by a defender; S:D7; no trump in it,
     * so W's DK wins: the offender's partner. Nobody has played to trick 3:
     * not established. */
    const char *two = "W:DA N:D2 E:D8 S:D6 W:DK N:D3 E:CT S:D7";
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, two);
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 2);
    assert_int_equal(f.revoker, SEAT_E);
    assert_int_equal(f.revoker_role, ROLE_DEFENDER);
    assert_int_equal(f.revoke_trick_won_by, WON_BY_PARTNER);
    assert_false(f.revoke_established);
    assert_int_equal(f.offending_side_tricks_after, 0);
    assert_int_equal(f.tricks_complete, 2);
    /* W, the offender's partner, leads to trick 3: established now */
    f = facts_of(SEAT_S, DENOM_H, D1, "W:DA N:D2 E:D8 S:D6 W:DK N:D3 E:CT S:D7 W:DQ");
    assert_true(f.revoke_established);
    assert_int_equal(f.tricks_complete, 2);
    /* trick 3 finished: N:D4 E:D9, S (void in diamonds) ruffs H3 and wins;
     * the offending side won nothing after the revoke trick */
    f = facts_of(SEAT_S, DENOM_H, D1,
                 "W:DA N:D2 E:D8 S:D6 W:DK N:D3 E:CT S:D7 W:DQ N:D4 E:D9 S:H3");
    assert_int_equal(f.winner[2], SEAT_S);
    assert_int_equal(f.offending_side_tricks_after, 0);
    assert_int_equal(f.declarer_tricks, 1);
}

/* Trick 1: W:DA N:D2 E:D8 S:D6, W wins. Trick 2: W:C2 N:CA E:CT S:C6, N's
 * ace wins. Trick 3: N leads HA, E H8, S H3, W plays C3 while holding H2: a
 * revoke by W; N's ace wins it: an opponent of W. */
#define REVOKE_BY_WEST "W:DA N:D2 E:D8 S:D6 W:C2 N:CA E:CT S:C6 N:HA E:H8 S:H3 W:C3"

static void test_revoke_won_by_opponents_established_by_partner(void **state) {
    (void)state;
    /* N, an opponent, leads to trick 4: not established */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, REVOKE_BY_WEST " N:HK");
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 3);
    assert_int_equal(f.revoker, SEAT_W);
    assert_int_equal(f.revoke_trick_won_by, WON_BY_OPPONENTS);
    assert_false(f.revoke_established);
    /* E, the offender's partner, plays to trick 4: established */
    f = facts_of(SEAT_S, DENOM_H, D1, REVOKE_BY_WEST " N:HK E:H9");
    assert_true(f.revoke_established);
}

static void test_second_revoke_same_suit(void **state) {
    (void)state;
    /* Trick 4: N leads HK, E H9, S H4, and W, still holding H2, plays C4: W
     * revokes in hearts again. N wins it. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, REVOKE_BY_WEST " N:HK E:H9 S:H4 W:C4");
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 3); /* the first revoke */
    assert_true(f.second_revoke_same_suit);
    assert_true(f.revoke_established);
    assert_int_equal(f.offending_side_tricks_after, 0);
    assert_int_equal(f.tricks_complete, 4);
    assert_int_equal(f.declarer_tricks, 3); /* N won 2, 3 and 4 */
}

static void test_second_revoke_other_suit(void **state) {
    (void)state;
    /* Trick 4: N leads S2, E S9, S S6, and W plays DK while holding SAKQJ: a
     * second revoke by W, but in spades, not hearts. No trump in the trick:
     * E's S9 is the highest spade, so the offending side won trick 4. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, REVOKE_BY_WEST " N:S2 E:S9 S:S6 W:DK");
    assert_true(f.revoke);
    assert_int_equal(f.revoke_trick, 3);
    assert_false(f.second_revoke_same_suit);
    assert_int_equal(f.winner[3], SEAT_E);
    assert_int_equal(f.offending_side_tricks_after, 1);
    assert_int_equal(f.declarer_tricks, 2);
}

static void test_revoke_by_another_player_is_not_a_second_revoke(void **state) {
    (void)state;
    /* Trick 1: W leads SA, N S2, E plays a heart (H8) while holding ST98: E
     * revokes in spades first; S S6. Hearts are trumps: E's H8 wins. Trick 2:
     * E leads CK, S C6, W C2, N CA (N must follow with his only club) - N
     * wins. Trick 3: N leads S3, E S8 (follows), S S7, W plays DA holding
     * SKQJ: W revokes in spades, but W is not the first revoker. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1,
                            "W:SA N:S2 E:H8 S:S6 E:CK S:C6 W:C2 N:CA N:S3 E:S8 S:S7 W:DA");
    assert_true(f.revoke);
    assert_int_equal(f.revoker, SEAT_E);
    assert_int_equal(f.revoke_trick, 1);
    assert_int_equal(f.revoke_trick_won_by, WON_BY_OFFENDER);
    assert_false(f.second_revoke_same_suit);
    assert_true(f.revoke_established); /* E led to trick 2 */
    /* trick 3: spades led (N's S3, E's S8, S's S7), no trump in it, W's DA
     * neither: E's S8 wins. Trick 2 was N's, so the offending side (E-W)
     * won one trick after the revoke trick. */
    assert_int_equal(f.winner[2], SEAT_E);
    assert_int_equal(f.offending_side_tricks_after, 1);
}

/* ------------------------------------------------------ leads out of turn */

static void test_opening_lead_out_of_turn_by_defender(void **state) {
    (void)state;
    /* S declares, so W leads to trick 1; E leads ST instead. The trick goes
     * on from E: S S6, W SA, N S2; W's ace wins, and W leads to trick 2 in
     * turn. */
    play_facts f = facts_of(SEAT_S, DENOM_H, D1, "E:ST S:S6 W:SA N:S2 W:SK N:S3 E:S9 S:S7");
    assert_true(f.lead_out_of_turn);
    assert_int_equal(f.lead_out_of_turn_trick, 1);
    assert_int_equal(f.wrong_leader, SEAT_E);
    assert_int_equal(f.right_leader, SEAT_W);
    assert_int_equal(f.wrong_leader_role, ROLE_DEFENDER);
    assert_int_equal(f.winner[0], SEAT_W);
    assert_int_equal(f.winner[1], SEAT_W);
    assert_false(f.revoke);
    /* without seats after the first: E S W N, then W (the winner) N E S */
    bridge_play p = play(SEAT_S, DENOM_H, D1, "E:ST S6 SA S2 SK S3 S9 S7");
    static const enum bridge_seat seats[] = {SEAT_E, SEAT_S, SEAT_W, SEAT_N,
                                             SEAT_W, SEAT_N, SEAT_E, SEAT_S};
    for (int i = 0; i < 8; i++)
        assert_int_equal(p.plays[i].seat, seats[i]);
}

static void test_lead_from_dummy_instead_of_declarer(void **state) {
    (void)state;
    /* Tricks 1-3 as in test_discard_from_a_void_is_no_revoke: S ruffs trick
     * 3 and should lead from his own hand; the lead to trick 4 comes from
     * dummy (N:HA) instead. E H8, S H4, W H2: N's ace wins, so N leads to
     * trick 5 in turn: HK H9 H5, W (void in hearts) discards C2. */
    const char *record = "W:SA N:S2 E:S8 S:S6 W:SK N:S3 E:S9 S:S7 W:SQ N:S4 E:ST S:H3 "
                         "N:HA E:H8 S:H4 W:H2 HK H9 H5 C2";
    bridge_play p = play(SEAT_S, DENOM_H, D1, record);
    assert_int_equal(p.plays[16].seat, SEAT_N);
    assert_int_equal(p.plays[19].seat, SEAT_W);
    play_facts f = analyse(&p);
    assert_true(f.lead_out_of_turn);
    assert_int_equal(f.lead_out_of_turn_trick, 4);
    assert_int_equal(f.wrong_leader, SEAT_N);
    assert_int_equal(f.right_leader, SEAT_S);
    assert_int_equal(f.wrong_leader_role, ROLE_DUMMY);
    assert_int_equal(f.tricks_complete, 5);
    assert_int_equal(f.winner[3], SEAT_N);
    assert_int_equal(f.winner[4], SEAT_N);
    assert_int_equal(f.declarer_tricks, 3); /* 3, 4, 5 */
    assert_false(f.revoke);
}

static void test_lead_from_declarer_instead_of_dummy(void **state) {
    (void)state;
    /* No trump, S declares, W leads C2; N's CA wins, so dummy is to lead,
     * but S leads D2: a lead out of turn by declarer in trick 2. W D3, N D4,
     * E D5: E's five is the highest diamond. Trick 3 should be E's, W leads:
     * the second lead out of turn does not replace the first. */
    play_facts f = facts_of(SEAT_S, DENOM_NT, NULL, "W:C2 N:CA E:C3 S:C4 S:D2 W:D3 N:D4 E:D5 W:S2");
    assert_true(f.lead_out_of_turn);
    assert_int_equal(f.lead_out_of_turn_trick, 2);
    assert_int_equal(f.wrong_leader, SEAT_S);
    assert_int_equal(f.right_leader, SEAT_N);
    assert_int_equal(f.wrong_leader_role, ROLE_DECLARER);
    assert_int_equal(f.winner[1], SEAT_E);
}

/* -------------------------------------------------------- impossible records */

static void test_impossible_records(void **state) {
    (void)state;
    /* S3 is N's */
    assert_play_rejected(SEAT_S, DENOM_H, D1, "W:SA N:S2 E:S3",
                         "play 3 (E S3): E does not hold S3");
    /* E's hand unknown, but the card is in N's */
    assert_play_rejected(SEAT_S, DENOM_H, "N:5432.AKQJ.5432.A - - -", "W:SA N:S2 E:S3",
                         "play 3 (E S3): E does not hold S3, N does");
    assert_play_rejected(SEAT_S, DENOM_H, D1, "W:SA N:S2 E:S8 E:S9",
                         "play 4 (E S9): E played twice to trick 1");
    /* W wins trick 1 with SA and leads it again */
    assert_play_rejected(SEAT_S, DENOM_H, NULL, "W:SA N:S2 E:S3 S:S4 W:SA",
                         "play 5 (W SA): SA was played before (play 1)");
    /* a card already played is that, not "does not hold" */
    assert_play_rejected(SEAT_S, DENOM_H, D1, "W:SA N:S2 E:S8 S:S6 W:SA",
                         "SA was played before (play 1)");
    /* a card played twice by other seats, seats written out */
    assert_play_rejected(SEAT_S, DENOM_NT, NULL, "W:S2 N:S2",
                         "play 2 (N S2): S2 was played before (play 1)");
}

static void test_impossible_structures(void **state) {
    (void)state;
    bridge_play p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.nplays = 53;
    assert_analysis_fails(&p, "53 plays");
    p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.trump = 7;
    assert_analysis_fails(&p, "trump value 7");
    p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.plays[0].card.suit = 5;
    assert_analysis_fails(&p, "play 1: suit 5, rank 14 is not a card");
    p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.plays[0].seat = (enum bridge_seat)9;
    assert_analysis_fails(&p, "play 1: seat value 9");
    /* a known hand of 12 cards, a card in two hands */
    p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.deal.hand[SEAT_N] &= ~((uint64_t)1 << bridge_card_index(card("CA")));
    assert_analysis_fails(&p, "the deal gives N 12 cards; a known hand has 13");
    p = play(SEAT_S, DENOM_H, D1, "W:SA");
    p.deal.hand[SEAT_N] ^= ((uint64_t)1 << bridge_card_index(card("CA"))) |
                           ((uint64_t)1 << bridge_card_index(card("SA")));
    assert_analysis_fails(&p, "SA is in both N's and W's hand");
    play_facts f;
    assert_false(bridge_analyse_play(NULL, &f, NULL, 0));
}

static void test_play_record_rejects(void **state) {
    (void)state;
    assert_play_unreadable("", "no cards");
    assert_play_unreadable("   ", "no cards");
    assert_play_unreadable("W:SA N:SX", "play 2 \"N:SX\": unknown rank \"X\"");
    assert_play_unreadable("Q:SA", "play 1 \"Q:SA\": \"Q\" is not a seat");
    assert_play_unreadable("W:", "play 1 \"W:\": no card");
    assert_play_unreadable("W:SA XA", "play 2 \"XA\": no suit first");
    /* 53 cards repeat one: the first repeat is named where it comes before
     * the 53rd (Changed: it said "more than 52 plays" for 53 times SA) */
    char text[53 * 3 + 1] = "";
    for (int i = 0; i < 53; i++)
        strcat(text, "SA ");
    assert_play_unreadable(text, "play 2 (N SA): SA was played before (play 1)");
    /* the 52 cards of the pack in four-card tricks, then one more: the 53rd
     * is the first repeat, and it is one play too many */
    char whole[53 * 3 + 1] = "";
    static const char ranks[] = "AKQJT98765432";
    for (int r = 0; r < 13; r++)
        for (int s = 0; s < 4; s++) {
            char c[4] = {"SHDC"[s], ranks[r], ' ', 0};
            strcat(whole, c);
        }
    strcat(whole, "SA");
    assert_play_unreadable(whole, "play 53 \"SA\": more than 52 plays; a deal has 52 cards");
    /* the trump and the first leader must be set */
    bridge_play p;
    char err[ERR_SIZE] = "";
    memset(&p, 0, sizeof p);
    p.trump = 9;
    assert_false(bridge_parse_play("SA", &p, err, sizeof err));
    assert_has(err, "trump value 9");
}

/* ---------------------------------------------------- facts from scenarios */

#define RULES                                                                                      \
    "ruleset \"playset\" { title \"Spel\" game bridge }\n"                                         \
    "fact rv : bool from play.revoke\n"                                                            \
    "fact revoker : seat from play.revoker\n"                                                      \
    "fact revoker_role : enum { declarer, dummy, defender } from play.revoker_role\n"              \
    "fact established : bool from play.revoke_established\n"                                       \
    "fact won_by : enum { offender, partner, opponents } from play.revoke_trick_won_by\n"          \
    "fact after : int 0..13 from play.offending_side_tricks_after\n"                               \
    "fact second : bool from play.second_revoke_same_suit\n"                                       \
    "fact twelfth : bool from play.revoke_in_twelfth_trick\n"                                      \
    "fact rtrick : int 1..13 from play.revoke_trick\n"                                             \
    "fact loot : bool from play.lead_out_of_turn\n"                                                \
    "fact loot_trick : int 1..13 from play.lead_out_of_turn_trick\n"                               \
    "fact wrong_role : enum { declarer, dummy, defender } from play.wrong_leader_role\n"           \
    "fact opening : bool from play.opening_lead_out_of_turn\n"                                     \
    "fact tricks : int 0..13 from play.tricks_complete\n"                                          \
    "fact decl_tricks : int 0..13 from play.declarer_tricks\n"                                     \
    "action noted text \"Genoteerd.\"\n"                                                           \
    "article 1 \"Verzaking\" when rv { noted }\n"

static void read_ok(const ruleset *rs, const char *json, scenario *sc) {
    strbuf err;
    sb_init(&err);
    scenario_init(sc, rs);
    if (!scenario_read_json(sc, json, strlen(json), &err))
        fail_msg("scenario %s: %s", json, err.data);
    sb_free(&err);
}

static void assert_scenario_error(const ruleset *rs, const char *json, const char *want) {
    scenario sc;
    strbuf err;
    sb_init(&err);
    scenario_init(&sc, rs);
    assert_false(scenario_read_json(&sc, json, strlen(json), &err));
    assert_has(err.data, want);
    assert_one_line(err.data);
    sb_free(&err);
    scenario_free(&sc);
}

static bool known(const scenario *sc, const char *name) {
    int f = rs_find_fact(sc->rs, name);
    assert_true(f >= 0);
    return sc->fv.known[f];
}

static int64_t value(const scenario *sc, const char *name) {
    int f = rs_find_fact(sc->rs, name);
    assert_true(f >= 0);
    if (!sc->fv.known[f]) fail_msg("fact '%s' is not known", name);
    return sc->fv.value[f];
}

/* An enum fact's value by name. */
static void assert_symbol(const scenario *sc, const char *name, const char *want) {
    int f = rs_find_fact(sc->rs, name);
    assert_true(f >= 0);
    assert_int_equal(value(sc, name), rs_enum_index(sc->rs->facts[f].type, want));
}

static void test_scenario_revoke_facts(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    /* REVOKE_BY_DECLARER; the trump comes from the contract (4H) */
    read_ok(rs,
            "{\"deal\": \"" D1 "\", \"declarer\": \"S\", \"contract\": \"4H=\", "
            "\"play\": \"" REVOKE_BY_DECLARER "\"}",
            &sc);
    assert_true(sc.rec.has_play);
    assert_int_equal(value(&sc, "rv"), 1);
    assert_symbol(&sc, "revoker", "S");
    assert_symbol(&sc, "revoker_role", "declarer");
    assert_int_equal(value(&sc, "established"), 1);
    assert_symbol(&sc, "won_by", "offender");
    assert_int_equal(value(&sc, "after"), 2);
    assert_int_equal(value(&sc, "second"), 0);
    assert_int_equal(value(&sc, "rtrick"), 2);
    assert_int_equal(value(&sc, "twelfth"), 0);
    assert_int_equal(value(&sc, "tricks"), 4);
    assert_int_equal(value(&sc, "decl_tricks"), 3);
    /* no lead out of turn: that is known, the rest of its facts are not */
    assert_int_equal(value(&sc, "loot"), 0);
    assert_false(known(&sc, "loot_trick"));
    assert_false(known(&sc, "wrong_role"));
    assert_false(known(&sc, "opening"));
    scenario_free(&sc);
}

static void test_scenario_whole_board_as_array(void **state) {
    const ruleset *rs = *state;
    /* BOARD as an array of {"seat", "card"}, trump given */
    char json[8192] = "{\"deal\": \"" D1 "\", \"declarer\": \"S\", \"trump\": \"h\", \"play\": [";
    char record[] = BOARD;
    int n = 0;
    for (char *tok = strtok(record, " "); tok; tok = strtok(NULL, " "), n++) {
        char item[64];
        snprintf(item, sizeof item, "%s{\"seat\": \"%c\", \"card\": \"%s\"}", n ? ", " : "", tok[0],
                 tok + 2);
        strcat(json, item);
    }
    strcat(json, "]}");
    assert_int_equal(n, 52);
    scenario sc;
    read_ok(rs, json, &sc);
    /* as in test_whole_board: W revokes in trick 12, N wins it */
    assert_int_equal(value(&sc, "rtrick"), 12);
    assert_int_equal(value(&sc, "twelfth"), 1);
    assert_symbol(&sc, "revoker", "W");
    assert_symbol(&sc, "won_by", "opponents");
    assert_int_equal(value(&sc, "established"), 1);
    assert_int_equal(value(&sc, "tricks"), 13);
    assert_int_equal(value(&sc, "decl_tricks"), 9);
    scenario_free(&sc);
}

static void test_scenario_lead_out_of_turn(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    /* the opening lead by E instead of W, as in
     * test_opening_lead_out_of_turn_by_defender */
    read_ok(rs,
            "{\"deal\": \"" D1
            "\", \"declarer\": \"S\", \"trump\": \"H\", \"play\": \"E:ST S6 SA S2\"}",
            &sc);
    assert_int_equal(value(&sc, "loot"), 1);
    assert_int_equal(value(&sc, "loot_trick"), 1);
    assert_symbol(&sc, "wrong_role", "defender");
    assert_int_equal(value(&sc, "opening"), 1);
    /* every hand known and nobody failed to follow: no revoke, and no
     * revoke facts */
    assert_int_equal(value(&sc, "rv"), 0);
    assert_false(known(&sc, "revoker"));
    assert_false(known(&sc, "established"));
    assert_false(known(&sc, "won_by"));
    assert_false(known(&sc, "twelfth"));
    scenario_free(&sc);
    /* from dummy instead of declarer, trick 4 */
    read_ok(rs,
            "{\"deal\": \"" D1 "\", \"declarer\": \"S\", \"trump\": \"H\", \"play\": "
            "\"W:SA N:S2 E:S8 S:S6 W:SK N:S3 E:S9 S:S7 W:SQ N:S4 E:ST S:H3 N:HA\"}",
            &sc);
    assert_int_equal(value(&sc, "loot_trick"), 4);
    assert_symbol(&sc, "wrong_role", "dummy");
    assert_int_equal(value(&sc, "opening"), 0);
    assert_int_equal(value(&sc, "tricks"), 3);
    scenario_free(&sc);
}

static void test_scenario_unsettled_without_hands(void **state) {
    const ruleset *rs = *state;
    scenario sc;
    /* no deal: whether S's H3 in trick 2 was a revoke cannot be told */
    read_ok(rs, "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": \"" REVOKE_BY_DECLARER "\"}",
            &sc);
    assert_false(known(&sc, "rv"));
    assert_int_equal(value(&sc, "loot"), 0);
    assert_int_equal(value(&sc, "tricks"), 4);
    scenario_free(&sc);
    /* the revoke trick not complete: who won it is not known yet */
    read_ok(rs,
            "{\"deal\": \"" D1 "\", \"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:SA N:S2 "
            "E:S8 S:S6 W:SK N:S3 E:S9 S:H3\"}",
            &sc);
    assert_int_equal(value(&sc, "rv"), 1);
    assert_symbol(&sc, "won_by", "offender");
    scenario_free(&sc);
    read_ok(rs,
            "{\"deal\": \"" D1 "\", \"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:DA N:D2 "
            "E:D8 S:D6 W:DK N:D3 E:CT\"}",
            &sc);
    assert_int_equal(value(&sc, "rv"), 1);
    assert_false(known(&sc, "won_by"));
    assert_int_equal(value(&sc, "established"), 0);
    scenario_free(&sc);
}

static void test_scenario_play_errors(void **state) {
    const ruleset *rs = *state;
    assert_scenario_error(rs, "{\"trump\": \"H\", \"play\": \"W:SA\"}",
                          "\"play\" needs \"declarer\"");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"play\": \"W:SA\"}",
                          "\"play\" needs \"trump\"");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"trump\": \"X\", \"play\": \"W:SA\"}",
                          "\"trump\" is");
    assert_scenario_error(
        rs, "{\"declarer\": \"S\", \"trump\": \"S\", \"contract\": \"4H=\", \"play\": \"W:SA\"}",
        "\"trump\" disagrees");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"contract\": \"PASS\", \"play\": \"W:SA\"}",
                          "passed-out");
    assert_scenario_error(rs, "{\"deal\": \"" D1 "\"}", "\"deal\" without \"play\"");
    assert_scenario_error(rs, "{\"declarer\": \"S\"}", "\"declarer\" without \"play\"");
    assert_scenario_error(
        rs,
        "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:SA\", \"deal\": \"N:5432 - - -\"}",
        "deal: N's hand");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:SZ\"}",
                          "play: play 1 \"W:SZ\"");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": 3}",
                          "\"play\" is a string");
    assert_scenario_error(rs, "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": []}",
                          "1 to 52 cards");
    assert_scenario_error(rs,
                          "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": [{\"seat\": \"W\"}]}",
                          "play 1: needs both \"seat\" and \"card\"");
    assert_scenario_error(
        rs,
        "{\"declarer\": \"S\", \"trump\": \"H\", \"play\": [{\"seat\": \"W\", \"card\": \"S1\"}]}",
        "play 1: \"S1\": unknown rank");
    assert_scenario_error(
        rs,
        "{\"deal\": \"" D1
        "\", \"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:SA N:S2 E:S3\"}",
        "impossible play: play 3 (E S3): E does not hold S3");
    /* a fact the record settles may not be contradicted */
    assert_scenario_error(
        rs, "{\"loot\": true, \"declarer\": \"S\", \"trump\": \"H\", \"play\": \"W:SA\"}",
        "the play settles 'loot' as false");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_card_english),
        cmocka_unit_test(test_parse_card_dutch),
        cmocka_unit_test(test_parse_card_symbols),
        cmocka_unit_test(test_parse_card_rejects),
        cmocka_unit_test(test_format_and_index),
        cmocka_unit_test(test_parse_deal),
        cmocka_unit_test(test_parse_deal_first_seat_and_unknown_hands),
        cmocka_unit_test(test_parse_deal_rejects),
        cmocka_unit_test(test_trick_won_by_highest_of_suit_led),
        cmocka_unit_test(test_trick_won_by_ruff_and_overruff),
        cmocka_unit_test(test_cards_without_seat),
        cmocka_unit_test(test_whole_board),
        cmocka_unit_test(test_discard_from_a_void_is_no_revoke),
        cmocka_unit_test(test_revoke_by_declarer_won_by_offender),
        cmocka_unit_test(test_revoke_needs_the_hand),
        cmocka_unit_test(test_revoke_by_defender_won_by_partner),
        cmocka_unit_test(test_revoke_won_by_opponents_established_by_partner),
        cmocka_unit_test(test_second_revoke_same_suit),
        cmocka_unit_test(test_second_revoke_other_suit),
        cmocka_unit_test(test_revoke_by_another_player_is_not_a_second_revoke),
        cmocka_unit_test(test_opening_lead_out_of_turn_by_defender),
        cmocka_unit_test(test_lead_from_dummy_instead_of_declarer),
        cmocka_unit_test(test_lead_from_declarer_instead_of_dummy),
        cmocka_unit_test(test_impossible_records),
        cmocka_unit_test(test_impossible_structures),
        cmocka_unit_test(test_play_record_rejects),
        cmocka_unit_test(test_scenario_revoke_facts),
        cmocka_unit_test(test_scenario_whole_board_as_array),
        cmocka_unit_test(test_scenario_lead_out_of_turn),
        cmocka_unit_test(test_scenario_unsettled_without_hands),
        cmocka_unit_test(test_scenario_play_errors),
    };
    return FIXTURE_RUN_COMPILED_GROUP("cards", tests, NULL, RULES);
}
