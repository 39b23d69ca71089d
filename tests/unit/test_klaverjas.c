/* test_klaverjas.c — unit tests of core/games/klaverjas.c, the klaverjas facts
 * (core/games/builtins.c, core/games/scenario.c), the per-side scoring of a hand
 * (core/api/scoring.c) and the compiler's check of a klaverjas vocabulary.
 *
 * The tables are those of tests/rules/klaverjas-mini, an invented ruleset
 * (not the NKF rules). Every expectation below is worked out by hand from
 * them:
 *
 *   rank_plain      seven 1, eight 2, nine 3, ten 4, jack 5, queen 6, king 7, ace 8
 *   rank_trump      seven 1, eight 2, ten 3, queen 4, king 5, ace 6, nine 7, jack 8
 *   points_plain    ace 4, king 3, queen 2, jack 1, the others 0
 *   points_trump    twice that: ace 8, king 6, queen 4, jack 2
 *   sequence_order  seven 1 .. ace 8 (the natural order, in trumps too)
 *
 * Play goes clockwise N -> E -> S -> W; N and S are partners, E and W.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "klaverjas.h"
#include "scenario.h"
#include "scoring.h"

#define ERR_SIZE 300
#define MINI "tests/rules/klaverjas-mini"

static ruleset *mini;
static kj_tables tables;

/* ----------------------------------------------------------------- helpers */

static void assert_contains(const char *text, const char *needle) {
    if (text == NULL || strstr(text, needle) == NULL)
        fail_msg("\"%s\" does not contain \"%s\"", text ? text : "(null)", needle);
}

static ruleset *compile_dir(const char *dir, char **messages) {
    size_t len = 0;
    FILE *mem = open_memstream(messages, &len);
    diag *d = diag_new(mem);
    ruleset *rs = dsl_compile(dir, d);
    int errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
    if (errors && rs) {
        ruleset_free(rs);
        rs = NULL;
    }
    return rs;
}

/* Compiles one rule file in a directory of its own; NULL (with the
 * compiler's messages) when it does not compile. */
static ruleset *compile_text(const char *rules, char **messages) {
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/arbiter-unit-klaverjas-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.rules", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(rules, f);
    fclose(f);
    ruleset *rs = compile_dir(dir, messages);
    unlink(path);
    rmdir(dir);
    return rs;
}

static int group_setup(void **state) {
    (void)state;
    char *messages = NULL, err[ERR_SIZE];
    mini = compile_dir(MINI, &messages);
    if (!mini) fprintf(stderr, "%s does not compile:\n%s", MINI, messages);
    free(messages);
    if (!mini || !kj_tables_load(mini, &tables, err, sizeof err)) return -1;
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    ruleset_free(mini);
    return 0;
}

static kj_card card(const char *text) {
    kj_card c = {0, 0};
    char err[ERR_SIZE];
    if (!kj_parse_card(text, &c, err, sizeof err)) fail_msg("card %s: %s", text, err);
    return c;
}

static void assert_card(const char *text, int suit, int rank) {
    kj_card c = card(text);
    assert_int_equal(c.suit, suit);
    assert_int_equal(c.rank, rank);
}

static void assert_card_rejected(const char *text, const char *reason) {
    kj_card c;
    char err[ERR_SIZE] = "";
    assert_false(kj_parse_card(text, &c, err, sizeof err));
    assert_contains(err, reason);
}

static kj_trick trick(const char *text) {
    kj_trick t;
    char err[ERR_SIZE];
    if (!kj_parse_trick(text, &t, err, sizeof err)) fail_msg("trick %s: %s", text, err);
    return t;
}

/* A player about to play; an empty trick is his lead. */
static kj_position position(int trump, enum bridge_seat seat, const char *hand,
                            const char *trick_text) {
    kj_position p;
    char err[ERR_SIZE];
    memset(&p, 0, sizeof p);
    p.trump = trump;
    p.seat = seat;
    p.has_taker = true;
    p.taker = SEAT_N;
    if (!kj_parse_cards(hand, p.hand, KJ_HAND_SIZE, &p.ncards, err, sizeof err))
        fail_msg("hand %s: %s", hand, err);
    p.trick = trick(trick_text);
    if (p.trick.ncards == 0) p.trick.leader = seat;
    if (!kj_check_position(&p, err, sizeof err)) fail_msg("position: %s", err);
    return p;
}

static kj_position_facts position_facts(const kj_position *p) {
    kj_position_facts f;
    kj_settle_position(p, &tables, &f);
    return f;
}

static kj_card_facts card_facts(const kj_position *p, const char *c) {
    kj_card_facts f;
    kj_settle_card(p, card(c), &tables, &f);
    return f;
}

/* The facts of one trick, as the only trick of a hand North takes, with
 * the given tables. */
static kj_trick_facts trick_facts_by(int trump, const char *text, const kj_tables *tb) {
    kj_hand h;
    memset(&h, 0, sizeof h);
    h.trump = trump;
    h.taker = SEAT_N;
    h.ntricks = 1;
    h.tricks[0] = trick(text);
    kj_trick_facts f;
    kj_settle_trick(&h, 0, tb, &f);
    return f;
}

static kj_trick_facts trick_facts(int trump, const char *text) {
    return trick_facts_by(trump, text, &tables);
}

static int winner(int trump, const char *text) {
    kj_trick t = trick(text);
    return kj_trick_winner(&t, trump, &tables);
}

static bool read_scenario(scenario *sc, const char *json, strbuf *err) {
    scenario_init(sc, mini);
    return scenario_read_json(sc, json, strlen(json), err);
}

static void read_ok(scenario *sc, const char *json) {
    strbuf err;
    sb_init(&err);
    if (!read_scenario(sc, json, &err)) fail_msg("scenario %s: %s", json, err.data);
    sb_free(&err);
}

static void assert_scenario_rejected(const char *json, const char *reason) {
    scenario sc;
    strbuf err;
    sb_init(&err);
    assert_false(read_scenario(&sc, json, &err));
    assert_contains(err.data, reason);
    sb_free(&err);
    scenario_free(&sc);
}

static bool known(const scenario *sc, const char *name) {
    int f = rs_find_fact(mini, name);
    assert_true(f >= 0);
    return sc->fv.known[f];
}

static int64_t value(const scenario *sc, const char *name) {
    int f = rs_find_fact(mini, name);
    assert_true(f >= 0);
    if (!sc->fv.known[f]) fail_msg("fact '%s' is not known", name);
    return sc->fv.value[f];
}

/* The citation a ruling ends on. */
static const char *last_cite(const ruling *r) {
    const rs_outcome *o = rs_outcome_at(r->rs, r->outcome);
    return r->rs->clauses[o->trail[o->ntrail - 1]].cite;
}

/* ------------------------------------------------------------------- cards */

static void test_parse_card(void **state) {
    (void)state;
    assert_card("SA", DENOM_S, KJ_ACE);
    assert_card("H10", DENOM_H, KJ_TEN);
    assert_card("CT", DENOM_C, KJ_TEN);
    assert_card("d7", DENOM_D, KJ_SEVEN);
    assert_card("HQ", DENOM_H, KJ_QUEEN);
    /* Dutch: K(laveren) B(oer), R(uiten) H(eer) and V(rouw), H(arten) H(eer) */
    assert_card("KB", DENOM_C, KJ_JACK);
    assert_card("RH", DENOM_D, KJ_KING);
    assert_card("RV", DENOM_D, KJ_QUEEN);
    assert_card("HH", DENOM_H, KJ_KING);
    assert_card("\xE2\x99\xA0"
                "8",
                DENOM_S, KJ_EIGHT); /* ♠8 */
    assert_card_rejected("S6", "not in the klaverjas pack (seven to ace)");
    assert_card_rejected("S2", "not in the klaverjas pack");
    assert_card_rejected("SX", "\"SX\" is not a card");
    assert_card_rejected("X7", "is not a card");
    assert_card_rejected("", "is not a card");
    assert_card_rejected(NULL, "no card text");
}

static void test_format_and_index(void **state) {
    (void)state;
    char text[8];
    kj_format_card(card("H10"), text);
    assert_string_equal(text, "H10");
    kj_format_card(card("KB"), text);
    assert_string_equal(text, "CJ");
    kj_format_card(card("RV"), text);
    assert_string_equal(text, "DQ");
    kj_format_card((kj_card){4, 0}, text);
    assert_string_equal(text, "?");
    assert_int_equal(kj_card_index(card("C7")), 0);
    assert_int_equal(kj_card_index(card("SA")), 3 * 8 + 7);
    assert_int_equal(kj_card_bit(card("SA")), (kj_cards)1 << 31);
}

static void test_parse_suit(void **state) {
    (void)state;
    int suit = -1;
    assert_true(kj_parse_suit("H", &suit));
    assert_int_equal(suit, DENOM_H);
    assert_true(kj_parse_suit("r", &suit));
    assert_int_equal(suit, DENOM_D);
    assert_true(kj_parse_suit("K", &suit));
    assert_int_equal(suit, DENOM_C);
    assert_true(kj_parse_suit("C", &suit));
    assert_int_equal(suit, DENOM_C);
    assert_true(kj_parse_suit("S", &suit));
    assert_int_equal(suit, DENOM_S);
    assert_true(kj_parse_suit("\xE2\x99\xA5", &suit)); /* ♥ */
    assert_int_equal(suit, DENOM_H);
    assert_false(kj_parse_suit("NT", &suit));
    assert_false(kj_parse_suit("", &suit));
    assert_false(kj_parse_suit("HH", &suit));
    assert_false(kj_parse_suit(NULL, &suit));
    assert_string_equal(kj_suit_name(DENOM_D), "D");
}

static void test_parse_cards_and_tricks(void **state) {
    (void)state;
    kj_card list[KJ_HAND_SIZE];
    int n = 0;
    char err[ERR_SIZE] = "";
    assert_true(kj_parse_cards(" HJ H9  SA ", list, KJ_HAND_SIZE, &n, err, sizeof err));
    assert_int_equal(n, 3);
    assert_int_equal(list[2].rank, KJ_ACE);
    assert_false(kj_parse_cards("SA HK SA", list, KJ_HAND_SIZE, &n, err, sizeof err));
    assert_contains(err, "SA twice");
    assert_false(kj_parse_cards("S7 S8 S9", list, 2, &n, err, sizeof err));
    assert_contains(err, "more than 2 cards");
    assert_false(kj_parse_cards("S7 ZZ", list, KJ_HAND_SIZE, &n, err, sizeof err));
    assert_contains(err, "\"ZZ\" is not a card");

    kj_trick t = trick("E:S7 SA S8 S10");
    assert_int_equal(t.leader, SEAT_E);
    assert_int_equal(t.ncards, 4);
    assert_int_equal(kj_trick_seat(&t, 1), SEAT_S);
    assert_int_equal(kj_trick_seat(&t, 3), SEAT_N);
    char text[64];
    kj_format_trick(&t, text, sizeof text);
    assert_string_equal(text, "E:S7 SA S8 S10");
    t = trick("W:");
    assert_int_equal(t.leader, SEAT_W);
    assert_int_equal(t.ncards, 0);
    assert_int_equal(trick("  ").ncards, 0);
    assert_false(kj_parse_trick("Q:S7", &t, err, sizeof err));
    assert_contains(err, "\"Q\" is not a seat");
    assert_false(kj_parse_trick("S7 SA", &t, err, sizeof err));
    assert_contains(err, "begin with the leader's seat and a colon");
    assert_false(kj_parse_trick("E:S7 S8 S9 S10 SJ", &t, err, sizeof err));
    assert_contains(err, "more than 4 cards");
}

/* ------------------------------------------------------------------ tables */

static void test_tables_from_the_ruleset(void **state) {
    (void)state;
    assert_int_equal(tables.value[KJT_RANK_TRUMP][KJ_JACK], 8);
    assert_int_equal(tables.value[KJT_RANK_TRUMP][KJ_NINE], 7);
    assert_int_equal(tables.value[KJT_RANK_TRUMP][KJ_ACE], 6);
    assert_int_equal(tables.value[KJT_RANK_PLAIN][KJ_ACE], 8);
    assert_int_equal(tables.value[KJT_POINTS_TRUMP][KJ_ACE], 8);
    assert_int_equal(tables.value[KJT_POINTS_PLAIN][KJ_TEN], 0);
    assert_int_equal(tables.value[KJT_SEQUENCE_ORDER][KJ_SEVEN], 1);
    assert_string_equal(kj_table_name(KJT_SEQUENCE_ORDER), "sequence_order");
    assert_int_equal(mini->legal_article, rs_find_article(mini, "1"));
    assert_int_equal(mini->trick_article, rs_find_article(mini, "2"));
    assert_int_equal(mini->score_article, rs_find_article(mini, "3"));

    /* a bridge ruleset has no such tables */
    char *messages = NULL, err[ERR_SIZE] = "";
    ruleset *toy = compile_dir("tests/rules/toy", &messages);
    free(messages);
    assert_non_null(toy);
    assert_int_equal(toy->klaverjas_tables[KJT_RANK_TRUMP], -1);
    assert_int_equal(toy->legal_article, -1);
    assert_int_equal(toy->trick_article, -1);
    kj_tables none;
    assert_false(kj_tables_load(toy, &none, err, sizeof err));
    assert_contains(err, "declares no table rank_trump");
    ruleset_free(toy);
}

/* ------------------------------------------------------------------ tricks */

static void test_trick_won_without_trump(void **state) {
    (void)state;
    /* hearts trumps, none played: the ace of the suit led */
    assert_int_equal(winner(DENOM_H, "E:S7 SA S8 S10"), 1);
    /* a higher card of another suit is a discard */
    assert_int_equal(winner(DENOM_H, "N:S7 DA S8 CA"), 2);
    /* the plain ten beats the plain nine (rank_plain) */
    assert_int_equal(winner(DENOM_H, "N:S10 S9 S7 S8"), 0);
    kj_trick t = trick("E:S7 SA S8 S10");
    assert_int_equal(kj_trick_seat(&t, kj_trick_winner(&t, DENOM_H, &tables)), SEAT_S);
}

static void test_trick_won_by_the_trump_table(void **state) {
    (void)state;
    /* hearts trumps: jack 8 > nine 7 > ace 6 > king 5 */
    assert_int_equal(winner(DENOM_H, "N:HA H9 HJ HK"), 2);
    /* the same cards with spades trumps: hearts rank plainly, the ace wins */
    assert_int_equal(winner(DENOM_S, "N:HA H9 HJ HK"), 0);
    /* the nine of trumps beats the ten of trumps (7 > 3) */
    assert_int_equal(winner(DENOM_H, "N:H10 H9 S7 S8"), 1);
    /* a ruff, and an overruff */
    assert_int_equal(winner(DENOM_H, "N:SA H7 S9 SK"), 1);
    assert_int_equal(winner(DENOM_H, "N:S7 H7 H8 SA"), 2);
    /* an underruff does not win */
    assert_int_equal(winner(DENOM_H, "N:S7 H9 H8 SA"), 1);
}

static void test_card_points(void **state) {
    (void)state;
    /* trumps: jack 2 + nine 0 + ace 8 + king 6 */
    assert_int_equal(trick_facts(DENOM_H, "N:HJ H9 HA HK").card_points, 16);
    /* plain: jack 1 + nine 0 + ace 4 + king 3 */
    assert_int_equal(trick_facts(DENOM_S, "N:HJ H9 HA HK").card_points, 8);
    assert_int_equal(trick_facts(DENOM_H, "N:S7 S8 S9 S10").card_points, 0);
    /* mixed: SQ 2 + HQ (trump) 4 + DK 3 + C7 0 */
    assert_int_equal(trick_facts(DENOM_H, "N:SQ HQ DK C7").card_points, 9);
}

static void test_sequences(void **state) {
    (void)state;
    assert_int_equal(trick_facts(DENOM_C, "N:S7 S8 S9 HA").sequence, 3);
    /* 7, 9, jack, king: no two follow one another */
    assert_int_equal(trick_facts(DENOM_C, "N:S7 S9 SJ SK").sequence, 1);
    /* the play order does not matter: jack-queen-king-ace */
    assert_int_equal(trick_facts(DENOM_C, "N:SQ SK SA SJ").sequence, 4);
    assert_int_equal(trick_facts(DENOM_C, "N:S7 S8 D9 D10").sequence, 2);
    /* one card of each suit */
    assert_int_equal(trick_facts(DENOM_C, "N:S8 D9 H10 CJ").sequence, 1);
    /* trumps run in sequence_order, not in rank_trump: nine-ten-jack */
    assert_int_equal(trick_facts(DENOM_H, "N:H9 H10 HJ S7").sequence, 3);
    assert_int_equal(trick_facts(DENOM_H, "N:H7 H8 HJ H9").sequence, 3);
}

static void test_four_of_a_kind(void **state) {
    (void)state;
    kj_trick_facts f = trick_facts(DENOM_H, "N:HJ DJ CJ SJ");
    assert_true(f.four_of_a_kind);
    assert_int_equal(f.four_rank, KJ_JACK);
    assert_false(trick_facts(DENOM_H, "N:H7 D7 C7 S8").four_of_a_kind);
}

static void test_stuk(void **state) {
    (void)state;
    kj_trick_facts f = trick_facts(DENOM_H, "N:HJ HQ HK H7");
    assert_true(f.stuk);
    assert_int_equal(f.sequence, 3);
    assert_true(f.stuk_in_sequence);
    /* two runs of two; the king and queen are one of the longest */
    f = trick_facts(DENOM_H, "N:HQ HK S7 S8");
    assert_true(f.stuk);
    assert_int_equal(f.sequence, 2);
    assert_true(f.stuk_in_sequence);
    /* king and queen of hearts with spades trumps are no stuk */
    f = trick_facts(DENOM_S, "N:HQ HK S7 S8");
    assert_false(f.stuk);
    assert_false(f.stuk_in_sequence);
    assert_false(trick_facts(DENOM_H, "N:HK S7 S8 S9").stuk);
    /* a sequence_order that puts the queen apart (10): the 7-8 run is the
     * longest, the stuk is not in it */
    kj_tables apart = tables;
    apart.value[KJT_SEQUENCE_ORDER][KJ_QUEEN] = 10;
    f = trick_facts_by(DENOM_H, "N:HQ HK H7 H8", &apart);
    assert_true(f.stuk);
    assert_int_equal(f.sequence, 2);
    assert_false(f.stuk_in_sequence);
}

static void test_trick_number_and_side(void **state) {
    (void)state;
    kj_hand h;
    memset(&h, 0, sizeof h);
    h.trump = DENOM_H;
    h.taker = SEAT_E;
    h.ntricks = 8;
    h.tricks[7] = trick("N:S7 SA S8 S9"); /* E wins with the ace */
    h.roem_claimed[7] = true;
    kj_trick_facts f;
    kj_settle_trick(&h, 7, &tables, &f);
    assert_int_equal(f.number, 8);
    assert_true(f.last);
    assert_int_equal(f.winner, SEAT_E);
    assert_int_equal(f.won_by, KJ_TAKERS);
    assert_true(f.roem_claimed);
    h.taker = SEAT_S;
    kj_settle_trick(&h, 7, &tables, &f);
    assert_int_equal(f.won_by, KJ_DEFENDERS);
}

/* --------------------------------------------------------------- positions */

static void test_position_must_follow(void **state) {
    (void)state;
    /* W holds spades; E led S7, S played SA: S is winning, not W's partner */
    kj_position p = position(DENOM_H, SEAT_W, "S9 SK H7 D10", "E:S7 SA");
    kj_position_facts f = position_facts(&p);
    assert_true(f.can_follow);
    assert_true(f.has_trump);
    assert_true(f.can_overtrump); /* no trump in the trick: any trump is above them all */
    assert_false(f.trump_led);
    assert_false(f.trump_in_trick);
    assert_false(f.partner_winning);
    assert_false(f.only_trumps);
    assert_false(f.is_taker_side); /* N takes; W defends */
    kj_card_facts c = card_facts(&p, "S9");
    assert_true(c.follows_suit);
    assert_false(c.is_trump || c.leads || c.overtrumps || c.undertrumps);
    c = card_facts(&p, "H7");
    assert_false(c.follows_suit);
    assert_true(c.is_trump);
    assert_true(c.overtrumps); /* the first trump in the trick */
    assert_false(c.undertrumps);
}

static void test_position_partner_winning(void **state) {
    (void)state;
    /* N led S7, E (W's partner) SA, S S8: W is void in spades */
    kj_position p = position(DENOM_H, SEAT_W, "H7 D10", "N:S7 SA S8");
    kj_position_facts f = position_facts(&p);
    assert_true(f.partner_winning);
    assert_false(f.can_follow);
    assert_true(f.has_trump);
    assert_false(f.trump_in_trick);
    /* the same cards with S trumping instead: S is winning */
    p = position(DENOM_H, SEAT_W, "H7 H9 D10", "N:S7 SA H8");
    f = position_facts(&p);
    assert_false(f.partner_winning);
    assert_true(f.trump_in_trick);
    assert_false(f.trump_led);
    assert_true(f.can_overtrump); /* the nine (7) beats the eight (2) */
    kj_card_facts c = card_facts(&p, "H7");
    assert_true(c.undertrumps);
    assert_false(c.overtrumps);
    c = card_facts(&p, "H9");
    assert_true(c.overtrumps);
    assert_false(c.undertrumps);
    c = card_facts(&p, "D10");
    assert_false(c.follows_suit || c.is_trump || c.overtrumps || c.undertrumps);
}

/* position.leaders_partner: the player is the partner of the one who led
 * to the trick (he plays third), whoever holds the trick. */
static void test_position_leaders_partner(void **state) {
    (void)state;
    /* E led S7, S took it over with SA: W, E's partner, plays third */
    kj_position p = position(DENOM_H, SEAT_W, "H7 D10", "E:S7 SA");
    kj_position_facts f = position_facts(&p);
    assert_true(f.leaders_partner);
    assert_false(f.partner_winning); /* S's ace holds it */
    /* E led SA, S played S7: still W third, now on his partner's trick */
    p = position(DENOM_H, SEAT_W, "H7 D10", "E:SA S7");
    f = position_facts(&p);
    assert_true(f.leaders_partner);
    assert_true(f.partner_winning);
    /* second and fourth are the leader's opponents */
    p = position(DENOM_H, SEAT_S, "H7 D10", "E:S7");
    assert_false(position_facts(&p).leaders_partner);
    p = position(DENOM_H, SEAT_N, "H7 D10", "E:S7 S8 SA");
    f = position_facts(&p);
    assert_false(f.leaders_partner);
    assert_false(f.partner_winning); /* W, the leader's partner, took it over */
    /* and the leader himself is not his own partner */
    p = position(DENOM_H, SEAT_S, "HK HQ", "");
    assert_false(position_facts(&p).leaders_partner);
}

static void test_position_trump_led(void **state) {
    (void)state;
    /* N led the jack of trumps, the highest: E cannot go over it */
    kj_position p = position(DENOM_H, SEAT_E, "H10 HA S8", "N:HJ");
    kj_position_facts f = position_facts(&p);
    assert_true(f.trump_led);
    assert_true(f.trump_in_trick);
    assert_true(f.can_follow);
    assert_false(f.can_overtrump);
    assert_false(f.partner_winning); /* N is E's right-hand opponent */
    kj_card_facts c = card_facts(&p, "HA");
    assert_true(c.follows_suit);
    assert_true(c.undertrumps); /* ace 6 under jack 8 */
    /* N led the ten (3): the ace (6) goes over it */
    p = position(DENOM_H, SEAT_E, "H7 HA S8", "N:H10");
    f = position_facts(&p);
    assert_true(f.can_overtrump);
    assert_true(card_facts(&p, "HA").overtrumps);
    assert_true(card_facts(&p, "H7").undertrumps);
}

static void test_position_lead(void **state) {
    (void)state;
    kj_position p = position(DENOM_H, SEAT_S, "HK HQ", "");
    kj_position_facts f = position_facts(&p);
    assert_true(f.can_follow); /* a lead follows suit by definition */
    assert_false(f.trump_led || f.trump_in_trick || f.partner_winning);
    assert_true(f.only_trumps);
    assert_true(f.has_trump);
    assert_true(f.is_taker_side); /* S is N's partner */
    kj_card_facts c = card_facts(&p, "HK");
    assert_true(c.leads);
    assert_true(c.follows_suit);
    assert_true(c.overtrumps);
    assert_false(c.undertrumps);
}

/* Whether he can overtrump with the penalty card left aside: W holds HJ
 * (the penalty card), H7 and D9 on E:S8 H8, hearts trumps. Only HJ is above
 * the eight; without a penalty card the two facts agree. */
static void test_overtrump_without_penalty_card(void **state) {
    (void)state;
    kj_position p = position(DENOM_H, SEAT_W, "HJ H7 D9", "E:S8 H8");
    kj_position_facts f = position_facts(&p);
    assert_true(f.can_overtrump);
    assert_true(f.can_overtrump_without_penalty_card);
    p.has_penalty_card = true;
    p.penalty_card = card("HJ");
    f = position_facts(&p);
    assert_true(f.can_overtrump);
    assert_false(f.can_overtrump_without_penalty_card);
    p.penalty_card = card("D9"); /* another penalty card: HJ is still his */
    assert_true(position_facts(&p).can_overtrump_without_penalty_card);
}

/* A penalty card (NKF Art. 11): the core says which card it is and whether
 * it is his only card of the suit led; what follows is the rule files'. */
static void test_position_penalty_card(void **state) {
    (void)state;
    kj_position p = position(DENOM_H, SEAT_W, "S9 H7 D10", "N:S7 SK SQ");
    assert_false(position_facts(&p).has_penalty_card);
    p.has_penalty_card = true;
    p.penalty_card = card("S9");
    kj_position_facts f = position_facts(&p);
    assert_true(f.has_penalty_card);
    assert_true(f.penalty_last_of_suit);                  /* S9 is his only spade */
    assert_int_equal(f.penalty_case, KJ_PENALTY_UNKNOWN); /* the scorer rules on it */
    assert_true(card_facts(&p, "S9").is_penalty_card);
    assert_false(card_facts(&p, "D10").is_penalty_card);
    /* another spade in the hand: not his last */
    p = position(DENOM_H, SEAT_W, "S9 S8 DA", "N:S7 SK SQ");
    p.has_penalty_card = true;
    p.penalty_card = card("S9");
    assert_false(position_facts(&p).penalty_last_of_suit);
    /* a penalty card of another suit, or when he leads, is never that */
    p.penalty_card = card("DA");
    assert_false(position_facts(&p).penalty_last_of_suit);
    p = position(DENOM_H, SEAT_S, "DA", "");
    p.has_penalty_card = true;
    p.penalty_card = card("DA");
    assert_false(position_facts(&p).penalty_last_of_suit);
    char err[ERR_SIZE] = "";
    assert_true(kj_check_position(&p, err, sizeof err));
}

static void assert_position_rejected(kj_position p, const char *reason) {
    char err[ERR_SIZE] = "";
    assert_false(kj_check_position(&p, err, sizeof err));
    assert_contains(err, reason);
}

static void test_impossible_positions(void **state) {
    (void)state;
    kj_position p = position(DENOM_H, SEAT_W, "S9 SK", "E:S7 SA");
    p.trick = trick("E:S7");
    assert_position_rejected(p, "it is S's turn in the trick, not W's");
    p.trick = trick("E:S7 S9");
    assert_position_rejected(p, "S9 is both in the trick and in W's hand");
    p.trick = trick("W:S7 SA S8 S10");
    assert_position_rejected(p, "the trick is finished");
    p.trick = trick("E:S7 SA");
    p.ncards = 0;
    assert_position_rejected(p, "the hand has 0 cards");
    p.ncards = 2;
    p.has_penalty_card = true;
    p.penalty_card = card("DA");
    assert_position_rejected(p, "the penalty card DA is not in W's hand");
    p.has_penalty_card = false;
    p.trump = 4;
    assert_position_rejected(p, "trump value 4 is not a suit");
}

/* ------------------------------------------- rulings through the mini rules */

static void assert_card_ruling(scenario *sc, const char *c, bool legal, const char *cite) {
    ruling r;
    bool is_legal = !legal;
    strbuf err;
    sb_init(&err);
    if (!scoring_rule_card(mini, mini->legal_article, sc, card(c), &r, &is_legal, &err))
        fail_msg("card %s: %s", c, err.data);
    assert_int_equal(is_legal, legal);
    assert_string_equal(last_cite(&r), cite);
    ruling_clear(&r);
    sb_free(&err);
}

static void test_legal_article(void **state) {
    (void)state;
    scenario sc;
    read_ok(&sc, "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"H7 H9 D10\", \"trick\": \"N:S7 "
                 "SA H8\", \"taker\": \"N\"}");
    assert_card_ruling(&sc, "H7", false, "1G"); /* under the eight while the nine goes over it */
    assert_card_ruling(&sc, "H9", true, "1H");
    assert_card_ruling(&sc, "D10", false, "1F"); /* must trump */
    scenario_free(&sc);
    read_ok(
        &sc,
        "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9 SK H7 D10\", \"trick\": \"E:S7 SA\"}");
    assert_card_ruling(&sc, "SK", true, "1C");
    assert_card_ruling(&sc, "H7", false, "1D"); /* must follow */
    scenario_free(&sc);
    read_ok(&sc,
            "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"H7 D10\", \"trick\": \"N:S7 SA S8\"}");
    assert_card_ruling(&sc, "D10", true, "1E"); /* the partner is winning */
    scenario_free(&sc);
    read_ok(&sc,
            "{\"trump\": \"H\", \"seat\": \"E\", \"hand\": \"H7 HA S8\", \"trick\": \"N:H10\"}");
    assert_card_ruling(&sc, "H7", false, "1B"); /* trumps led, under while the ace goes over */
    assert_card_ruling(&sc, "HA", true, "1C");
    scenario_free(&sc);
}

static void test_rule_scenario_facts(void **state) {
    (void)state;
    scenario sc;
    /* a position with the card: card.* and position.* */
    read_ok(&sc, "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9 SK H7\", \"trick\": \"E:S7 "
                 "SA\", \"card\": \"H7\", \"taker\": \"S\"}");
    assert_int_equal(value(&sc, "is_trump"), 1);
    assert_int_equal(value(&sc, "follows_suit"), 0);
    assert_int_equal(value(&sc, "can_follow"), 1);
    assert_int_equal(value(&sc, "taker_side"), 0);
    assert_int_equal(value(&sc, "leaders_partner"), 1); /* W, E's partner, plays third */
    assert_false(known(&sc, "number"));
    scenario_free(&sc);
    /* without the card and the taker: position.* only, no side */
    read_ok(&sc,
            "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9 SK H7\", \"trick\": \"E:S7 SA\"}");
    assert_false(known(&sc, "is_trump"));
    assert_int_equal(value(&sc, "can_follow"), 1);
    assert_false(known(&sc, "taker_side"));
    scenario_free(&sc);
    /* the second player is the leader's opponent */
    read_ok(&sc,
            "{\"trump\": \"H\", \"seat\": \"S\", \"hand\": \"S9 SK H7\", \"trick\": \"E:S7\"}");
    assert_int_equal(value(&sc, "leaders_partner"), 0);
    scenario_free(&sc);
    /* a hand record: checked, but trick.* and hand.* wait for `score` */
    read_ok(&sc, "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:S7 SA S8 S10\"]}");
    assert_true(sc.rec.has_kj_hand_record);
    assert_false(known(&sc, "number"));
    assert_false(known(&sc, "takers_points"));
    assert_false(known(&sc, "can_follow"));
    scenario_free(&sc);
}

/* The invented hand of tests/rules/klaverjas-mini/hand.json: hearts trumps,
 * N takes, E leads; each player holds two cards of every suit.
 *
 *   N: SA S7 HJ H9 DA D7 CA C7     E: SK S8 HA H10 DK D8 CK C8
 *   S: SQ S9 HK HQ DQ D9 CQ C9     W: SJ S10 H8 H7 DJ D10 CJ C10
 *
 *   trick            won by  card points      sequence  roem (claimed on 2, 5, 7)
 *   1 E:SK S9 S10 SA   N     3+0+0+4 = 7          2     —
 *   2 N:HJ H10 HQ H7   N     2+0+4+0 = 6          3     10 (10-J-Q, claimed)
 *   3 N:H9 HA HK H8    N     0+8+6+0 = 14         2     —
 *   4 N:DA D8 D9 D10   N     4                    3     — (not claimed)
 *   5 N:CA C8 C9 C10   N     4                    3     10
 *   6 N:S7 S8 SQ SJ    S     0+0+2+1 = 3          2     —
 *   7 S:DQ DJ D7 DK    E     2+1+0+3 = 6          3     10 (to the defenders)
 *   8 E:CK CQ CJ C7    E     3+2+1+0 = 6, +5 last 3     — (not claimed)
 *
 * Every card follows suit; in tricks 2 and 3 nobody could go over the trump
 * winning: no revoke. Takers 7+6+14+4+4+3 + 20 roem = 58, defenders 6+11
 * + 10 roem = 27; 6 tricks to 2; art. 3E: each side writes its own. */
#define FULL_HAND                                                                                  \
    "{\"trump\": \"H\", \"taker\": \"N\", \"first_leader\": \"E\",\n"                              \
    " \"tricks\": [\"E:SK S9 S10 SA\", \"N:HJ H10 HQ H7\", \"N:H9 HA HK H8\", \"N:DA D8 D9 "       \
    "D10\",\n"                                                                                     \
    "            \"N:CA C8 C9 C10\", \"N:S7 S8 SQ SJ\", \"S:DQ DJ " T7_N                           \
    " DK\", \"E:CK CQ CJ " T8_N "\"],\n"                                                           \
    " \"roem_claimed\": [2, 5, 7],\n"                                                              \
    " \"hands\": {\"N\": \"SA S7 HJ H9 DA D7 CA C7\", \"E\": \"SK S8 HA H10 DK D8 CK C8\",\n"      \
    "           \"S\": \"SQ S9 HK HQ DQ D9 CQ C9\", \"W\": \"SJ S10 H8 H7 DJ D10 CJ C10\"}}"

static void score_hand(const char *json, kj_hand_score *hs, scenario *sc) {
    strbuf err;
    sb_init(&err);
    read_ok(sc, json);
    if (!scoring_klaverjas_hand(mini, sc, hs, &err)) fail_msg("scoring: %s", err.data);
    sb_free(&err);
}

#define T7_N "D7"
#define T8_N "C7"
static const char *const full_hand = FULL_HAND;
#undef T7_N
#undef T8_N

/* N plays C7 to trick 7 although he holds D7: a revoke by the takers. */
#define T7_N "C7"
#define T8_N "D7"
static const char *const revoked_hand = FULL_HAND;
#undef T7_N
#undef T8_N

static void test_full_hand_scored(void **state) {
    (void)state;
    scenario sc;
    kj_hand_score hs;
    score_hand(full_hand, &hs, &sc);
    assert_int_equal(hs.ntricks, 8);
    const kj_trick_ruling *t = hs.tricks;
    assert_int_equal(t[0].facts.winner, SEAT_N);
    assert_int_equal(t[0].facts.card_points, 7);
    assert_int_equal(t[0].facts.sequence, 2);
    assert_int_equal(t[1].facts.sequence, 3);
    assert_true(t[1].facts.roem_claimed);
    assert_int_equal(t[1].sums.side[KJ_TAKERS], 16);
    assert_int_equal(t[1].sums.roem[KJ_TAKERS], 10);
    assert_int_equal(t[2].facts.card_points, 14);
    assert_int_equal(t[3].sums.roem[KJ_TAKERS], 0); /* a sequence, not claimed */
    assert_int_equal(t[5].facts.winner, SEAT_S);
    assert_int_equal(t[6].facts.won_by, KJ_DEFENDERS);
    assert_int_equal(t[6].sums.roem[KJ_DEFENDERS], 10);
    assert_true(t[7].facts.last);
    assert_int_equal(t[7].sums.side[KJ_DEFENDERS], 11);
    assert_string_equal(last_cite(&t[7].r), "2A");
    const kj_hand_facts *h = &hs.hand;
    assert_int_equal(h->points[KJ_TAKERS], 58);
    assert_int_equal(h->roem[KJ_TAKERS], 20);
    assert_int_equal(h->points[KJ_DEFENDERS], 27);
    assert_int_equal(h->roem[KJ_DEFENDERS], 10);
    assert_int_equal(h->tricks[KJ_TAKERS], 6);
    assert_int_equal(h->tricks[KJ_DEFENDERS], 2);
    assert_true(h->complete);
    assert_true(h->illegal_settled);
    assert_int_equal(h->illegal_by, KJ_ILLEGAL_NONE);
    assert_int_equal(hs.illegal_trick, -1);
    assert_string_equal(last_cite(&hs.score), "3E");
    assert_int_equal(hs.score_sums.side[KJ_TAKERS], 58);
    assert_int_equal(hs.score_sums.side[KJ_DEFENDERS], 27);
    assert_int_equal(hs.score_sums.total, 85);
    assert_int_equal(value(&sc, "revoke_by"), 0); /* none */
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
}

static void test_revoke_found_from_known_hands(void **state) {
    (void)state;
    scenario sc;
    kj_hand_score hs;
    score_hand(revoked_hand, &hs, &sc);
    /* the same points; the first illegal card is N's C7 in trick 7 */
    assert_int_equal(hs.hand.points[KJ_TAKERS], 58);
    assert_int_equal(hs.illegal_trick, 6);
    assert_int_equal(hs.illegal_card, 2);
    assert_string_equal(last_cite(&hs.illegal), "1D");
    assert_true(hs.hand.illegal_settled);
    assert_int_equal(hs.hand.illegal_by, KJ_ILLEGAL_TAKERS);
    assert_string_equal(hs.hand.illegal_reason, "must_follow"); /* the legal article's reason */
    assert_string_equal(last_cite(&hs.score), "3A");
    assert_int_equal(hs.score_sums.side[KJ_DEFENDERS], 100);
    assert_int_equal(hs.score_sums.side[KJ_TAKERS], 0);
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
}

static void test_revoke_by_the_defenders(void **state) {
    (void)state;
    /* W plays D10 to trick 1 while holding SJ S10, and S10 to trick 4
     * (a second revoke, not the first): trick 1 is still N's (SA) */
    scenario sc;
    kj_hand_score hs;
    score_hand(
        "{\"trump\": \"H\", \"taker\": \"N\", \"first_leader\": \"E\",\n"
        " \"tricks\": [\"E:SK S9 D10 SA\", \"N:HJ H10 HQ H7\", \"N:H9 HA HK H8\", \"N:DA D8 D9 "
        "S10\"],\n"
        " \"hands\": {\"N\": \"SA S7 HJ H9 DA D7 CA C7\", \"E\": \"SK S8 HA H10 DK D8 CK C8\",\n"
        "           \"S\": \"SQ S9 HK HQ DQ D9 CQ C9\"}}",
        &hs, &sc);
    assert_int_equal(hs.illegal_trick, 0);
    assert_int_equal(hs.illegal_card, 2);
    assert_int_equal(hs.hand.illegal_by, KJ_ILLEGAL_DEFENDERS);
    assert_false(hs.hand.complete);
    assert_string_equal(last_cite(&hs.score), "3B");
    assert_int_equal(hs.score_sums.side[KJ_TAKERS], 100);
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
}

static void test_four_of_a_kind_and_stuk_scored(void **state) {
    (void)state;
    /* spades trumps, N takes, no hands: the scenario says there was no revoke.
     *   1 N:HJ DJ CJ SJ  W (SJ, trump 8)  1+1+1+2 = 5   four jacks: 50
     *   2 W:SK SQ D7 D8  W (SK 5 > SQ 4)  6+4 = 10      stuk in a run of two: 10
     *   3 W:SA S7 S8 S9  S (S9 7 > SA 6)  8             7-8-9: 10
     * defenders 5+50+10+10 = 75 (roem 60), takers 8+10 = 18 (roem 10);
     * three tricks: art. 3C, nothing is written. */
    scenario sc;
    kj_hand_score hs;
    score_hand("{\"trump\": \"S\", \"taker\": \"N\", \"first_leader\": \"N\",\n"
               " \"tricks\": [\"N:HJ DJ CJ SJ\", \"W:SK SQ D7 D8\", \"W:SA S7 S8 S9\"],\n"
               " \"roem_claimed\": [1, 2, 3], \"revoke_by\": \"none\"}",
               &hs, &sc);
    assert_true(hs.tricks[0].facts.four_of_a_kind);
    assert_string_equal(last_cite(&hs.tricks[0].r), "2B");
    assert_true(hs.tricks[1].facts.stuk);
    assert_true(hs.tricks[1].facts.stuk_in_sequence);
    assert_int_equal(hs.tricks[1].facts.sequence, 2);
    assert_int_equal(hs.tricks[1].sums.roem[KJ_DEFENDERS], 10);
    assert_int_equal(hs.tricks[2].facts.winner, SEAT_S);
    assert_int_equal(hs.hand.points[KJ_DEFENDERS], 75);
    assert_int_equal(hs.hand.roem[KJ_DEFENDERS], 60);
    assert_int_equal(hs.hand.points[KJ_TAKERS], 18);
    assert_int_equal(hs.hand.roem[KJ_TAKERS], 10);
    assert_false(hs.hand.illegal_settled); /* the core could not tell */
    assert_string_equal(last_cite(&hs.score), "3C");
    assert_int_equal(hs.score_sums.total, 0);
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
}

static void test_unknown_hands_leave_the_revoke_open(void **state) {
    (void)state;
    scenario sc;
    kj_hand_score hs;
    strbuf err;
    sb_init(&err);
    read_ok(&sc, "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 SA\"]}");
    assert_false(scoring_klaverjas_hand(mini, &sc, &hs, &err));
    assert_contains(err.data, "the hand: the scenario does not say 'revoke_by'");
    assert_int_equal(hs.failed, RULING_NEEDS);
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
    sb_free(&err);
    /* a position is no hand */
    sb_init(&err);
    read_ok(&sc, "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9\", \"trick\": \"E:S7 SA\"}");
    assert_false(scoring_klaverjas_hand(mini, &sc, &hs, &err));
    assert_contains(err.data, "no hand to score");
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
    sb_free(&err);
}

/* Without tricks the score article rules on the result the scenario gives:
 * mini's Art. 3E, 40 and 20 written as given, no trick ruled on. */
static void test_result_without_tricks(void **state) {
    (void)state;
    scenario sc;
    kj_hand_score hs;
    strbuf err;
    sb_init(&err);
    read_ok(&sc, "{\"revoke_by\": \"none\", \"complete\": true, \"takers_tricks\": 6,"
                 " \"defenders_tricks\": 2, \"takers_points\": 40, \"defenders_points\": 20,"
                 " \"takers_roem\": 0, \"defenders_roem\": 0}");
    assert_true(scoring_klaverjas_hand(mini, &sc, &hs, &err));
    assert_false(hs.from_record);
    assert_int_equal(hs.ntricks, 0);
    assert_string_equal(last_cite(&hs.score), "3E");
    assert_int_equal(hs.score_sums.side[KJ_TAKERS], 40);
    assert_int_equal(hs.score_sums.side[KJ_DEFENDERS], 20);
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
    sb_free(&err);
    /* a fact the score article needs and the scenario lacks is asked for */
    sb_init(&err);
    read_ok(&sc, "{\"complete\": true}");
    assert_false(scoring_klaverjas_hand(mini, &sc, &hs, &err));
    assert_contains(err.data, "the hand: the scenario does not say 'takers_points'");
    kj_hand_score_clear(&hs);
    scenario_free(&sc);
    sb_free(&err);
}

/* -------------------------------------------------------- impossible records */

#define HAND_N "\"N\": \"SA S7 HJ H9 DA D7 CA C7\""
#define HAND_E "\"E\": \"SK S8 HA H10 DK D8 CK C8\""

static void test_impossible_records(void **state) {
    (void)state;
    /* N won trick 1 with SA, E leads trick 2 */
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 SA\", \"E:HJ H10 HQ "
        "H7\"]}",
        "impossible hand: trick 2 (E:HJ H10 HQ H7) is led by E; N won trick 1 and leads");
    assert_scenario_rejected("{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 "
                             "SA\", \"N:SK H10 HQ H7\"]}",
                             "trick 2 (N:SK H10 HQ H7): SK was played before (trick 1)");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 SK\"]}",
        "trick 1: SK twice");
    assert_scenario_rejected("{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10\"]}",
                             "has 3 cards; a finished trick has 4");
    assert_scenario_rejected("{\"trump\": \"H\", \"taker\": \"N\", \"first_leader\": \"N\", "
                             "\"tricks\": [\"E:SK S9 S10 SA\"]}",
                             "is led by E; N was to lead");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 S8\"], \"hands\": {" HAND_N
        "}}",
        "trick 1 (E:SK S9 S10 S8): N does not hold S8");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 S8\"], \"hands\": {" HAND_E
        "}}",
        "N does not hold S8, E does");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [], \"hands\": {\"N\": \"SA S7 HJ\"}}",
        "N's hand has 3 cards; a hand is dealt 8");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [], \"hands\": {" HAND_N
        ", \"W\": \"SA S8 HA H10 DK D8 CK C8\"}}",
        "SA is dealt to two hands");
    assert_scenario_rejected("{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 "
                             "SA\"], \"roem_claimed\": [2]}",
                             "roem claimed on trick 2, which was not played");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [], \"roem_claimed\": [9]}",
        "not a trick number 1..8");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"taker\": \"N\", \"tricks\": [\"E:SK S9 S10 S6\"]}",
        "not in the klaverjas pack");
    assert_scenario_rejected("{\"trump\": \"NT\", \"taker\": \"N\", \"tricks\": []}",
                             "a klaverjas record needs \"trump\"");
    assert_scenario_rejected("{\"trump\": \"H\", \"tricks\": []}", "a hand record needs \"taker\"");
    assert_scenario_rejected("{\"trump\": \"H\"}", "\"trump\" without \"tricks\" or a position");
    assert_scenario_rejected("{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9 SK\", \"trick\": "
                             "\"E:S7 SA\", \"card\": \"H7\"}",
                             "impossible position: W does not hold H7");
    assert_scenario_rejected(
        "{\"trump\": \"H\", \"seat\": \"W\", \"hand\": \"S9 SK\", \"trick\": \"E:S7\"}",
        "impossible position: it is S's turn in the trick, not W's");
    assert_scenario_rejected("{\"trump\": \"H\", \"seat\": \"W\", \"trick\": \"E:S7 SA\"}",
                             "a position needs \"hand\"");
}

static void test_hand_check_directly(void **state) {
    (void)state;
    kj_hand h;
    char err[ERR_SIZE] = "";
    memset(&h, 0, sizeof h);
    h.trump = DENOM_H;
    h.ntricks = 9;
    assert_false(kj_check_hand(&h, &tables, err, sizeof err));
    assert_contains(err, "9 tricks; a hand has at most 8");
    h.ntricks = 0;
    h.taker = (enum bridge_seat)7;
    assert_false(kj_check_hand(&h, &tables, err, sizeof err));
    assert_contains(err, "taker value 7");
    /* three known hands give the fourth */
    h.taker = SEAT_N;
    const char *const hands[3] = {"SA S7 HJ H9 DA D7 CA C7", "SK S8 HA H10 DK D8 CK C8",
                                  "SQ S9 HK HQ DQ D9 CQ C9"};
    for (int s = 0; s < 3; s++) {
        kj_card list[KJ_HAND_SIZE];
        int n = 0;
        assert_true(kj_parse_cards(hands[s], list, KJ_HAND_SIZE, &n, err, sizeof err));
        for (int i = 0; i < n; i++)
            h.dealt[s] |= kj_card_bit(list[i]);
        h.known[s] = true;
    }
    assert_true(kj_check_hand(&h, &tables, err, sizeof err));
    assert_true(h.known[SEAT_W]);
    assert_true(h.dealt[SEAT_W] & kj_card_bit(card("SJ")));
    assert_true(h.dealt[SEAT_W] & kj_card_bit(card("C10")));
    assert_false(h.dealt[SEAT_W] & kj_card_bit(card("SA")));
}

/* ------------------------------------------------- the compiler's demands */

#define KJ_HEADER                                                                                  \
    "ruleset \"k\" { game klaverjas }\nfact a : bool ask \"a?\"\naction ok text \"ok\"\narticle "  \
    "1 when a { ok }\n"
#define KJ_RANK "type rank = enum { seven, eight, nine, ten, jack, queen, king, ace }\n"
#define KJ_TABLE(name) "table " name "(r: rank) : int { _ => 1 }\n"
/* (clang-format 14 would split "points_plain" in two, and again the next time) */
/* clang-format off */
#define KJ_FOUR_TABLES KJ_TABLE("rank_trump") KJ_TABLE("rank_plain") KJ_TABLE("points_trump") KJ_TABLE("points_plain")
/* clang-format on */

static void assert_compile_error(const char *rules, const char *want) {
    char *messages = NULL;
    ruleset *rs = compile_text(rules, &messages);
    if (rs) fail_msg("the rules compile; expected: %s", want);
    assert_contains(messages, want);
    free(messages);
}

static void test_compiler_checks_the_vocabulary(void **state) {
    (void)state;
    char *messages = NULL;
    ruleset *rs =
        compile_text(KJ_HEADER KJ_RANK KJ_FOUR_TABLES KJ_TABLE("sequence_order"), &messages);
    if (!rs) fail_msg("a complete vocabulary does not compile:\n%s", messages);
    free(messages);
    for (int k = 0; k < KJT_COUNT; k++)
        assert_true(rs->klaverjas_tables[k] >= 0);
    assert_int_equal(rs->legal_article, -1);
    ruleset_free(rs);
    assert_compile_error(KJ_HEADER KJ_FOUR_TABLES, "a klaverjas ruleset declares the type 'rank'");
    assert_compile_error(KJ_HEADER
                         "type rank = enum { ace, king, queen, jack, ten, nine, eight, seven }\n",
                         "has exactly the values seven … ace, in that order");
    assert_compile_error(KJ_HEADER KJ_RANK KJ_FOUR_TABLES, "declares the table 'sequence_order'");
    assert_compile_error(KJ_HEADER KJ_RANK KJ_FOUR_TABLES
                         "table sequence_order(n: int 0..7) : int { _ => 1 }\n",
                         "table 'sequence_order' of a klaverjas ruleset has one key of type rank");
    assert_compile_error(KJ_HEADER KJ_RANK KJ_FOUR_TABLES
                         "table sequence_order(r: rank, b: bool) : int { _ => 1 }\n",
                         "has one key of type rank and int values");
    /* the header names its articles */
    assert_compile_error("ruleset \"k\" { legal 9 }\nfact a : bool ask \"a?\"\naction ok text "
                         "\"ok\"\narticle 1 when a { ok }\n",
                         "no article 9 in this ruleset");
}

static void test_bridge_sums_stay_unsided(void **state) {
    (void)state;
    char *messages = NULL;
    ruleset *toy = compile_dir("tests/rules/toy", &messages);
    free(messages);
    assert_non_null(toy);
    scenario sc;
    strbuf err;
    sb_init(&err);
    scenario_init(&sc, toy);
    char msg[200];
    assert_true(bridge_parse_contract("3S+1", &sc.rec.contract, msg, sizeof msg));
    sc.rec.has_contract = true;
    assert_true(scenario_apply_record(&sc, &err));
    ruling r;
    point_sums sums;
    assert_true(scoring_rule_sides(toy, toy->score_article, &sc, &r, &sums, &err));
    assert_int_equal(sums.total, 31); /* ten a level plus the overtrick */
    assert_int_equal(sums.side[KJ_TAKERS] + sums.side[KJ_DEFENDERS], 0);
    ruling_clear(&r);
    int64_t total = 0;
    assert_true(scoring_rule(toy, toy->score_article, &sc, &r, &total, &err));
    assert_int_equal(total, 31);
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    ruleset_free(toy);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_card),
        cmocka_unit_test(test_format_and_index),
        cmocka_unit_test(test_parse_suit),
        cmocka_unit_test(test_parse_cards_and_tricks),
        cmocka_unit_test(test_tables_from_the_ruleset),
        cmocka_unit_test(test_trick_won_without_trump),
        cmocka_unit_test(test_trick_won_by_the_trump_table),
        cmocka_unit_test(test_card_points),
        cmocka_unit_test(test_sequences),
        cmocka_unit_test(test_four_of_a_kind),
        cmocka_unit_test(test_stuk),
        cmocka_unit_test(test_trick_number_and_side),
        cmocka_unit_test(test_position_must_follow),
        cmocka_unit_test(test_position_partner_winning),
        cmocka_unit_test(test_position_leaders_partner),
        cmocka_unit_test(test_position_trump_led),
        cmocka_unit_test(test_position_lead),
        cmocka_unit_test(test_impossible_positions),
        cmocka_unit_test(test_legal_article),
        cmocka_unit_test(test_rule_scenario_facts),
        cmocka_unit_test(test_full_hand_scored),
        cmocka_unit_test(test_revoke_found_from_known_hands),
        cmocka_unit_test(test_revoke_by_the_defenders),
        cmocka_unit_test(test_four_of_a_kind_and_stuk_scored),
        cmocka_unit_test(test_unknown_hands_leave_the_revoke_open),
        cmocka_unit_test(test_result_without_tricks),
        cmocka_unit_test(test_overtrump_without_penalty_card),
        cmocka_unit_test(test_position_penalty_card),
        cmocka_unit_test(test_impossible_records),
        cmocka_unit_test(test_hand_check_directly),
        cmocka_unit_test(test_compiler_checks_the_vocabulary),
        cmocka_unit_test(test_bridge_sums_stay_unsided),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
