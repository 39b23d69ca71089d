/* test_bridge.c — unit tests of core/games/bridge.c.
 *
 * Every expected value is worked out from the rotation N -> E -> S -> W and
 * the rules of Art. 17-19 and 22, not copied from the program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bridge.h"
#include "builtins.h"
#include "ruleset.h"

#define ERR_SIZE 256

/* UTF-8 suit symbols, spelled out so the test does not depend on the
 * source encoding. */
#define CLUB "\xE2\x99\xA3"
#define DIAMOND "\xE2\x99\xA6"
#define HEART "\xE2\x99\xA5"
#define SPADE "\xE2\x99\xA0"

/* ---------------------------------------------------------------- helpers */

static void assert_contains(const char *text, const char *needle) {
    if (strstr(text, needle) == NULL) fail_msg("expected \"%s\" in \"%s\"", needle, text);
}

static void assert_one_line(const char *text) {
    if (strchr(text, '\n') != NULL || strchr(text, '\r') != NULL)
        fail_msg("message spans lines: \"%s\"", text);
}

static void assert_call(bridge_call c, enum bridge_call_kind kind, int level,
                        enum bridge_denom denom) {
    assert_int_equal(c.kind, kind);
    if (kind == CALL_BID) {
        assert_int_equal(c.level, level);
        assert_int_equal(c.denom, denom);
    }
}

static void assert_parses_as(const char *text, enum bridge_call_kind kind, int level,
                             enum bridge_denom denom) {
    bridge_call c;
    char err[ERR_SIZE] = "";
    if (!bridge_parse_call(text, &c, err, sizeof err))
        fail_msg("\"%s\" did not parse: %s", text, err);
    assert_call(c, kind, level, denom);
}

static void assert_call_rejected(const char *text, const char *reason) {
    bridge_call c;
    char err[ERR_SIZE] = "";
    char quoted[64];
    assert_false(bridge_parse_call(text, &c, err, sizeof err));
    snprintf(quoted, sizeof quoted, "\"%s\": ", text);
    if (strncmp(err, quoted, strlen(quoted)) != 0)
        fail_msg("error does not start with %s: \"%s\"", quoted, err);
    assert_contains(err, reason);
    assert_one_line(err);
}

static void parse_auction_ok(const char *text, bridge_auction *a) {
    char err[ERR_SIZE] = "";
    if (!bridge_parse_auction(text, a, err, sizeof err))
        fail_msg("auction \"%s\" did not parse: %s", text, err);
}

static void assert_auction_rejected(const char *text, const char *reason) {
    bridge_auction a;
    char err[ERR_SIZE] = "";
    assert_false(bridge_parse_auction(text, &a, err, sizeof err));
    assert_contains(err, reason);
    assert_one_line(err);
}

static bridge_facts analyse_ok(const char *text) {
    bridge_auction a;
    bridge_facts f;
    char err[ERR_SIZE] = "";
    parse_auction_ok(text, &a);
    if (!bridge_analyse(&a, &f, err, sizeof err))
        fail_msg("auction \"%s\" did not analyse: %s", text, err);
    return f;
}

static void assert_analysis_fails(const char *text, const char *reason) {
    bridge_auction a;
    bridge_facts f;
    char err[ERR_SIZE] = "";
    parse_auction_ok(text, &a);
    assert_false(bridge_analyse(&a, &f, err, sizeof err));
    assert_contains(err, reason);
    assert_one_line(err);
}

static void assert_struct_rejected(const bridge_auction *a, const char *reason) {
    bridge_facts f;
    char err[ERR_SIZE] = "";
    assert_false(bridge_analyse(a, &f, err, sizeof err));
    assert_contains(err, reason);
}

/* ------------------------------------------------------------------ seats */

static void test_parse_seat_letters(void **state) {
    (void)state;
    static const struct {
        const char *text;
        enum bridge_seat seat;
    } cases[] = {
        {"N", SEAT_N}, {"E", SEAT_E}, {"S", SEAT_S}, {"W", SEAT_W}, {"n", SEAT_N}, {"e", SEAT_E},
        {"s", SEAT_S}, {"w", SEAT_W}, {"Z", SEAT_S}, {"z", SEAT_S}, {"O", SEAT_E}, {"o", SEAT_E},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        enum bridge_seat s = SEAT_W;
        assert_true(bridge_parse_seat(cases[i].text, &s));
        assert_int_equal(s, cases[i].seat);
    }
}

static void test_parse_seat_rejects(void **state) {
    (void)state;
    static const char *const rejects[] = {"", "X", "NE", "N ", " N", "NORTH", "N:"};
    enum bridge_seat s;
    for (size_t i = 0; i < sizeof rejects / sizeof rejects[0]; i++)
        assert_false(bridge_parse_seat(rejects[i], &s));
    assert_false(bridge_parse_seat(NULL, &s));
}

static void test_seat_names(void **state) {
    (void)state;
    assert_string_equal(bridge_seat_name(SEAT_N), "N");
    assert_string_equal(bridge_seat_name(SEAT_E), "E");
    assert_string_equal(bridge_seat_name(SEAT_S), "S");
    assert_string_equal(bridge_seat_name(SEAT_W), "W");
    assert_string_equal(bridge_seat_name((enum bridge_seat)4), "?");
}

static void test_seat_at_from_north(void **state) {
    (void)state;
    assert_int_equal(bridge_seat_at(SEAT_N, REL_SELF), SEAT_N);
    assert_int_equal(bridge_seat_at(SEAT_N, REL_LHO), SEAT_E);
    assert_int_equal(bridge_seat_at(SEAT_N, REL_PARTNER), SEAT_S);
    assert_int_equal(bridge_seat_at(SEAT_N, REL_RHO), SEAT_W);
}

static void test_seat_at_wraps_round_the_table(void **state) {
    (void)state;
    assert_int_equal(bridge_seat_at(SEAT_W, REL_SELF), SEAT_W);
    assert_int_equal(bridge_seat_at(SEAT_W, REL_LHO), SEAT_N);
    assert_int_equal(bridge_seat_at(SEAT_W, REL_PARTNER), SEAT_E);
    assert_int_equal(bridge_seat_at(SEAT_W, REL_RHO), SEAT_S);
    assert_int_equal(bridge_seat_at(SEAT_S, REL_LHO), SEAT_W);
    assert_int_equal(bridge_seat_at(SEAT_E, REL_RHO), SEAT_N);
}

/* ------------------------------------------------------------------ calls */

static void test_parse_pass_forms(void **state) {
    (void)state;
    static const char *const forms[] = {"P", "p", "PASS", "pass", "Pas", "PAS", "-"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        assert_parses_as(forms[i], CALL_PASS, 0, DENOM_C);
}

static void test_parse_double_forms(void **state) {
    (void)state;
    static const char *const forms[] = {"X",   "x",      "D",      "d",       "DBL",
                                        "dbl", "DOUBLE", "Double", "DOUBLET", "doublet"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        assert_parses_as(forms[i], CALL_DOUBLE, 0, DENOM_C);
}

static void test_parse_redouble_forms(void **state) {
    (void)state;
    static const char *const forms[] = {"XX",   "xx",       "R",        "r",         "RDBL",
                                        "rdbl", "REDOUBLE", "Redouble", "REDOUBLET", "redoublet"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        assert_parses_as(forms[i], CALL_REDOUBLE, 0, DENOM_C);
}

static void test_parse_pass_and_double_set_level_zero(void **state) {
    (void)state;
    bridge_call c = {.kind = CALL_BID, .level = 5, .denom = DENOM_S};
    assert_true(bridge_parse_call("X", &c, NULL, 0));
    assert_int_equal(c.level, 0);
}

static void test_parse_bid_letters(void **state) {
    (void)state;
    assert_parses_as("1C", CALL_BID, 1, DENOM_C);
    assert_parses_as("1K", CALL_BID, 1, DENOM_C);
    assert_parses_as("7k", CALL_BID, 7, DENOM_C);
    assert_parses_as("2D", CALL_BID, 2, DENOM_D);
    assert_parses_as("2R", CALL_BID, 2, DENOM_D);
    assert_parses_as("3H", CALL_BID, 3, DENOM_H);
    assert_parses_as("2h", CALL_BID, 2, DENOM_H);
    assert_parses_as("4S", CALL_BID, 4, DENOM_S);
    assert_parses_as("5NT", CALL_BID, 5, DENOM_NT);
    assert_parses_as("3nt", CALL_BID, 3, DENOM_NT);
    assert_parses_as("4Nt", CALL_BID, 4, DENOM_NT);
    assert_parses_as("5N", CALL_BID, 5, DENOM_NT);
    assert_parses_as("6SA", CALL_BID, 6, DENOM_NT);
    assert_parses_as("1sa", CALL_BID, 1, DENOM_NT);
}

static void test_parse_bid_suit_symbols(void **state) {
    (void)state;
    assert_parses_as("1" CLUB, CALL_BID, 1, DENOM_C);
    assert_parses_as("2" DIAMOND, CALL_BID, 2, DENOM_D);
    assert_parses_as("3" HEART, CALL_BID, 3, DENOM_H);
    assert_parses_as("4" SPADE, CALL_BID, 4, DENOM_S);
}

static void test_parse_bid_levels_above_seven(void **state) {
    (void)state;
    assert_parses_as("8S", CALL_BID, 8, DENOM_S);
    assert_parses_as("10C", CALL_BID, 10, DENOM_C);
    assert_parses_as("99NT", CALL_BID, 99, DENOM_NT);
}

static void test_parse_call_rejects(void **state) {
    (void)state;
    assert_call_rejected("", "empty call");
    assert_call_rejected("0S", "level 0");
    assert_call_rejected("00NT", "level 0");
    assert_call_rejected("100S", "level above 99");
    assert_call_rejected("123456789012345678901S", "level above 99");
    assert_call_rejected("3", "no denomination");
    assert_call_rejected("1Q", "unknown denomination \"Q\"");
    assert_call_rejected("1NTX", "unknown denomination \"NTX\"");
    assert_call_rejected("1 S", "unknown denomination \" S\"");
    assert_call_rejected("Q", "not a call; expected P, X, XX or a bid such as 1S, 3NT");
    assert_call_rejected("XXX", "not a call");
    assert_call_rejected("PASSS", "not a call");
    assert_call_rejected(" P", "not a call");
    assert_call_rejected("P ", "not a call");
}

static void test_parse_call_null_text(void **state) {
    (void)state;
    bridge_call c;
    char err[ERR_SIZE] = "";
    assert_false(bridge_parse_call(NULL, &c, err, sizeof err));
    assert_true(err[0] != '\0');
}

static void test_call_error_stays_one_line_and_bounded(void **state) {
    (void)state;
    bridge_call c;
    char err[ERR_SIZE];
    char longtext[200];

    assert_false(bridge_parse_call("P\nX", &c, err, sizeof err));
    assert_one_line(err);
    assert_contains(err, "\"P?X\"");

    memset(longtext, 'A', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    assert_false(bridge_parse_call(longtext, &c, err, sizeof err));
    assert_contains(err, "...");
    assert_true(strlen(err) < 120);

    char tiny[8];
    assert_false(bridge_parse_call("1Q", &c, tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
    assert_false(bridge_parse_call("1Q", &c, NULL, 0));
}

static void test_format_call(void **state) {
    (void)state;
    static const struct {
        bridge_call call;
        const char *text;
    } cases[] = {
        {{CALL_PASS, 0, DENOM_C}, "P"},      {{CALL_DOUBLE, 0, DENOM_C}, "X"},
        {{CALL_REDOUBLE, 0, DENOM_C}, "XX"}, {{CALL_BID, 1, DENOM_C}, "1C"},
        {{CALL_BID, 1, DENOM_D}, "1D"},      {{CALL_BID, 1, DENOM_H}, "1H"},
        {{CALL_BID, 1, DENOM_S}, "1S"},      {{CALL_BID, 1, DENOM_NT}, "1NT"},
        {{CALL_BID, 7, DENOM_NT}, "7NT"},    {{CALL_BID, 10, DENOM_C}, "10C"},
        {{CALL_BID, 99, DENOM_NT}, "99NT"},
    };
    char buf[8];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bridge_format_call(&cases[i].call, buf);
        assert_string_equal(buf, cases[i].text);
    }
}

static void test_format_then_parse_round_trips(void **state) {
    (void)state;
    char buf[8];
    for (int level = 1; level <= 99; level++) {
        for (int d = DENOM_C; d <= DENOM_NT; d++) {
            bridge_call in = {CALL_BID, level, (enum bridge_denom)d};
            bridge_format_call(&in, buf);
            assert_parses_as(buf, CALL_BID, level, (enum bridge_denom)d);
        }
    }
}

/* ----------------------------------------------------- compact auctions */

static void test_auction_parse_rotation_and_seats(void **state) {
    (void)state;
    bridge_auction a;
    parse_auction_ok("N: 1S 1H E:2C X*", &a);
    assert_int_equal(a.dealer, SEAT_N);
    assert_int_equal(a.ncalls, 4);
    assert_int_equal(a.calls[0].seat, SEAT_N);
    assert_call(a.calls[0].call, CALL_BID, 1, DENOM_S);
    assert_false(a.calls[0].marked_irregular);
    assert_int_equal(a.calls[1].seat, SEAT_E);
    assert_call(a.calls[1].call, CALL_BID, 1, DENOM_H);
    /* E is written again; the rotation then carries on from E to S. */
    assert_int_equal(a.calls[2].seat, SEAT_E);
    assert_call(a.calls[2].call, CALL_BID, 2, DENOM_C);
    assert_false(a.calls[2].marked_irregular);
    assert_int_equal(a.calls[3].seat, SEAT_S);
    assert_call(a.calls[3].call, CALL_DOUBLE, 0, DENOM_C);
    assert_true(a.calls[3].marked_irregular);
}

static void test_auction_parse_spacing_and_case(void **state) {
    (void)state;
    bridge_auction a;
    parse_auction_ok("  w:p\tP\n 1h  ", &a);
    assert_int_equal(a.dealer, SEAT_W);
    assert_int_equal(a.ncalls, 3);
    assert_int_equal(a.calls[0].seat, SEAT_W);
    assert_int_equal(a.calls[1].seat, SEAT_N);
    assert_int_equal(a.calls[2].seat, SEAT_E);
    assert_call(a.calls[2].call, CALL_BID, 1, DENOM_H);
}

static void test_auction_parse_dealer_colon_without_space(void **state) {
    (void)state;
    bridge_auction a;
    parse_auction_ok("S:1NT P", &a);
    assert_int_equal(a.dealer, SEAT_S);
    assert_int_equal(a.ncalls, 2);
    assert_int_equal(a.calls[0].seat, SEAT_S);
    assert_call(a.calls[0].call, CALL_BID, 1, DENOM_NT);
    assert_int_equal(a.calls[1].seat, SEAT_W);
}

static void test_auction_parse_dutch(void **state) {
    (void)state;
    bridge_auction a;
    parse_auction_ok("Z: 1SA pas O:doublet*", &a);
    assert_int_equal(a.dealer, SEAT_S);
    assert_int_equal(a.ncalls, 3);
    assert_call(a.calls[0].call, CALL_BID, 1, DENOM_NT);
    assert_int_equal(a.calls[1].seat, SEAT_W);
    assert_call(a.calls[1].call, CALL_PASS, 0, DENOM_C);
    assert_int_equal(a.calls[2].seat, SEAT_E);
    assert_call(a.calls[2].call, CALL_DOUBLE, 0, DENOM_C);
    assert_true(a.calls[2].marked_irregular);
}

static void test_auction_parse_dealer_errors(void **state) {
    (void)state;
    bridge_auction a;
    char err[ERR_SIZE] = "";
    assert_false(bridge_parse_auction(NULL, &a, err, sizeof err));
    assert_true(err[0] != '\0');
    assert_auction_rejected("", "begin with the dealer");
    assert_auction_rejected("1S 1H", "begin with the dealer");
    assert_auction_rejected("1S 1H E:2C", "begin with the dealer");
    assert_auction_rejected(": 1S", "begin with the dealer");
    assert_auction_rejected("Q: 1S", "dealer \"Q\": not a seat");
    assert_auction_rejected("N:", "no calls after the dealer");
    assert_auction_rejected("N:   \n", "no calls after the dealer");
}

static void test_auction_parse_token_errors(void **state) {
    (void)state;
    assert_auction_rejected("N: 1S 1Q", "token 2 \"1Q\": unknown denomination");
    assert_auction_rejected("N: 1S 2H BID", "token 3 \"BID\": not a call");
    assert_auction_rejected("N: 1S Q:1H", "token 2 \"Q:1H\": \"Q\" is not a seat");
    assert_auction_rejected("N: 1S E:", "token 2 \"E:\": no call");
    assert_auction_rejected("N: 1S *", "token 2 \"*\": no call");
    assert_auction_rejected("N: 1S E:*", "token 2 \"E:*\": no call");
    assert_auction_rejected("N: P P 1SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS", "token 3 \"1SSSS");
    assert_auction_rejected("N: P P 1SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS", "too long");
}

static void test_auction_parse_call_limit(void **state) {
    (void)state;
    char text[3 + 2 * (BRIDGE_MAX_CALLS + 1) + 1];
    bridge_auction a;
    strcpy(text, "N:");
    for (int i = 0; i < BRIDGE_MAX_CALLS; i++)
        strcat(text, " P");
    parse_auction_ok(text, &a);
    assert_int_equal(a.ncalls, BRIDGE_MAX_CALLS);
    strcat(text, " P");
    assert_auction_rejected(text, "more than 128 calls");
}

/* ----------------------------------------------------------- sufficiency */

static void test_insufficient_bid_in_turn(void **state) {
    (void)state;
    /* N 1S, E 1H: E is in turn, and 1H does not overcall 1S. */
    bridge_facts f = analyse_ok("N: 1S 1H");
    assert_int_equal(f.irregular_index, 1);
    assert_int_equal(f.offender, SEAT_E);
    assert_int_equal(f.turn, SEAT_E);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_int_equal(f.call_kind, CALL_BID);
    assert_true(f.insufficient);
    assert_false(f.over_seven);
    assert_true(f.double_admissible);
    assert_false(f.after_final_pass);
    assert_false(f.offender_called_before);
    assert_false(f.lho_called);
    assert_call(f.irregular_call, CALL_BID, 1, DENOM_H);
    assert_true(f.has_lowest_sufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_H);
}

static void test_lowest_sufficient_under_notrump(void **state) {
    (void)state;
    /* E 1NT, S 1S: spades rank below notrump, so 2S is the lowest. */
    bridge_facts f = analyse_ok("E: 1NT 1S");
    assert_int_equal(f.offender, SEAT_S);
    assert_true(f.insufficient);
    assert_true(f.has_lowest_sufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_S);

    f = analyse_ok("N: 2NT 2C");
    assert_true(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 3, DENOM_C);
}

static void test_lowest_sufficient_same_level_higher_denomination(void **state) {
    (void)state;
    /* N 2H, E 1S: spades outrank hearts, so 2S already overcalls 2H. */
    bridge_facts f = analyse_ok("N: 2H 1S");
    assert_true(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_S);
}

static void test_repeating_the_last_bid_is_insufficient(void **state) {
    (void)state;
    bridge_facts f = analyse_ok("N: 1S 1S");
    assert_true(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_S);
}

static void test_no_sufficient_bid_above_seven(void **state) {
    (void)state;
    /* After 7NT a spade bid would need eight tricks. */
    bridge_facts f = analyse_ok("N: 7NT 7S");
    assert_int_equal(f.irregular_index, 1);
    assert_true(f.insufficient);
    assert_false(f.over_seven);
    assert_false(f.has_lowest_sufficient);
}

static void test_role_after_final_pass(void **state) {
    (void)state;
    /* The side that made the last bid declares: E defends N's 1S, S is on
     * the declaring side of 2S; a passed-out board has no roles; during
     * the auction nothing is settled. */
    bridge_facts f = analyse_ok("N: 1S P P P E:X*");
    assert_true(f.after_final_pass);
    assert_int_equal(f.role, AUCTION_ROLE_DEFENDING_SIDE);
    f = analyse_ok("N: 1S P 2S P P P S:3S*");
    assert_int_equal(f.role, AUCTION_ROLE_DECLARING_SIDE);
    f = analyse_ok("N: P P P P E:1S*");
    assert_int_equal(f.role, AUCTION_ROLE_NONE);
    f = analyse_ok("N: 1S 1H*");
    assert_int_equal(f.role, AUCTION_ROLE_UNSETTLED);
}

static void test_side_doubled_before(void **state) {
    (void)state;
    /* W doubles 1H that his partner E doubled already; S doubles his own
     * partner's 1H, which his side had not doubled; a double after a new
     * bid looks at that bid alone. */
    bridge_facts f = analyse_ok("N: 1H X P X*");
    assert_false(f.double_admissible);
    assert_true(f.side_doubled_before);
    f = analyse_ok("N: 1H P X*");
    assert_false(f.double_admissible);
    assert_false(f.side_doubled_before);
    f = analyse_ok("N: 1H X 1S P P X*");
    assert_false(f.side_doubled_before);
}

static void test_marked_sufficient_bid_is_its_own_lowest(void **state) {
    (void)state;
    /* N 1S, E P, S 2H*: S in turn; 2H overcalls 1S. */
    bridge_facts f = analyse_ok("N: 1S P 2H*");
    assert_int_equal(f.irregular_index, 2);
    assert_int_equal(f.offender, SEAT_S);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_false(f.insufficient);
    assert_true(f.has_lowest_sufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_H);
    assert_false(f.offender_called_before);
}

static void test_over_seven(void **state) {
    (void)state;
    /* The first bid is always sufficient, even 8C. */
    bridge_facts f = analyse_ok("N: 8C");
    assert_int_equal(f.irregular_index, 0);
    assert_int_equal(f.offender, SEAT_N);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_true(f.over_seven);
    assert_false(f.insufficient);
    assert_true(f.has_lowest_sufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 8, DENOM_C);

    /* 8C has more tricks than 7NT: sufficient, but above seven. */
    f = analyse_ok("N: 7NT 8C");
    assert_int_equal(f.irregular_index, 1);
    assert_int_equal(f.offender, SEAT_E);
    assert_true(f.over_seven);
    assert_false(f.insufficient);
}

/* ------------------------------------------------------------- rotation */

static void test_turn_was_lho(void **state) {
    (void)state;
    /* N bids again at E's turn; E is N's LHO. */
    bridge_facts f = analyse_ok("N: 1S N:2S");
    assert_int_equal(f.irregular_index, 1);
    assert_int_equal(f.offender, SEAT_N);
    assert_int_equal(f.turn, SEAT_E);
    assert_int_equal(f.turn_was, REL_LHO);
    assert_false(f.insufficient);
    assert_true(f.offender_called_before);
}

static void test_turn_was_partner(void **state) {
    (void)state;
    /* W bids at E's turn; W's LHO is N, partner E, RHO S. */
    bridge_facts f = analyse_ok("N: 1S W:1H");
    assert_int_equal(f.offender, SEAT_W);
    assert_int_equal(f.turn, SEAT_E);
    assert_int_equal(f.turn_was, REL_PARTNER);
    assert_true(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_H);
    assert_false(f.offender_called_before);
}

static void test_turn_was_rho(void **state) {
    (void)state;
    /* S bids at E's turn; S's LHO is W, partner N, RHO E. */
    bridge_facts f = analyse_ok("N: 1S S:1NT");
    assert_int_equal(f.offender, SEAT_S);
    assert_int_equal(f.turn, SEAT_E);
    assert_int_equal(f.turn_was, REL_RHO);
    assert_false(f.insufficient);
    assert_false(f.offender_called_before);
}

static void test_first_call_out_of_rotation(void **state) {
    (void)state;
    /* Dealer N; E opens. N is E's RHO. */
    bridge_facts f = analyse_ok("N: E:1S");
    assert_int_equal(f.irregular_index, 0);
    assert_int_equal(f.offender, SEAT_E);
    assert_int_equal(f.turn, SEAT_N);
    assert_int_equal(f.turn_was, REL_RHO);
    assert_false(f.insufficient);

    /* Dealer W; N passes first. W is N's RHO. */
    f = analyse_ok("W: N:P");
    assert_int_equal(f.offender, SEAT_N);
    assert_int_equal(f.turn, SEAT_W);
    assert_int_equal(f.turn_was, REL_RHO);
    assert_int_equal(f.call_kind, CALL_PASS);
    assert_true(f.double_admissible);
    assert_false(f.has_lowest_sufficient);
}

/* --------------------------------------------------------------- doubles */

static void test_double_of_partners_bid(void **state) {
    (void)state;
    /* N 1S, E P, S X: S doubles partner's bid. */
    bridge_facts f = analyse_ok("N: 1S P X");
    assert_int_equal(f.irregular_index, 2);
    assert_int_equal(f.offender, SEAT_S);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_int_equal(f.call_kind, CALL_DOUBLE);
    assert_false(f.double_admissible);
    assert_false(f.insufficient);
    assert_false(f.over_seven);
    assert_false(f.has_lowest_sufficient);
    assert_call(f.irregular_call, CALL_DOUBLE, 0, DENOM_C);
}

static void test_double_must_follow_the_opponents_last_bid(void **state) {
    (void)state;
    /* N 1S, E 2C, S P, W X: the last bid is partner E's 2C, though N's 1S
     * was an opponent's. */
    bridge_facts f = analyse_ok("N: 1S 2C P X");
    assert_int_equal(f.irregular_index, 3);
    assert_int_equal(f.offender, SEAT_W);
    assert_false(f.double_admissible);
}

static void test_double_without_a_bid_or_of_a_double(void **state) {
    (void)state;
    bridge_facts f = analyse_ok("N: X");
    assert_int_equal(f.irregular_index, 0);
    assert_false(f.double_admissible);

    /* N 1S, E X, S X: S doubles a double. */
    f = analyse_ok("N: 1S X X");
    assert_int_equal(f.irregular_index, 2);
    assert_int_equal(f.offender, SEAT_S);
    assert_false(f.double_admissible);
}

static void test_admissible_doubles_are_regular(void **state) {
    (void)state;
    /* E doubles N's bid; W doubles N's bid through two passes. */
    assert_analysis_fails("N: 1S X", "no irregular call");
    assert_analysis_fails("N: 1S P P X", "no irregular call");

    bridge_facts f = analyse_ok("N: 1S P P X*");
    assert_int_equal(f.offender, SEAT_W);
    assert_true(f.double_admissible);
}

static void test_double_admissibility_is_measured_for_the_offender(void **state) {
    (void)state;
    /* Out of rotation at E's turn: S would double partner N's bid... */
    bridge_facts f = analyse_ok("N: 1S S:X");
    assert_int_equal(f.offender, SEAT_S);
    assert_int_equal(f.turn_was, REL_RHO);
    assert_false(f.double_admissible);

    /* ...while W would double an opponent's. */
    f = analyse_ok("N: 1S W:X");
    assert_int_equal(f.offender, SEAT_W);
    assert_int_equal(f.turn_was, REL_PARTNER);
    assert_true(f.double_admissible);
}

static void test_redouble_without_a_double(void **state) {
    (void)state;
    /* N 1S, E P, S XX: nothing has been doubled. */
    bridge_facts f = analyse_ok("N: 1S P XX");
    assert_int_equal(f.irregular_index, 2);
    assert_int_equal(f.offender, SEAT_S);
    assert_int_equal(f.call_kind, CALL_REDOUBLE);
    assert_false(f.double_admissible);

    f = analyse_ok("N: 1S XX");
    assert_int_equal(f.irregular_index, 1);
    assert_int_equal(f.offender, SEAT_E);
    assert_false(f.double_admissible);
}

static void test_redouble_of_partners_double(void **state) {
    (void)state;
    /* N 1S, E X, S P, W XX: W redoubles partner E's double. */
    bridge_facts f = analyse_ok("N: 1S X P XX");
    assert_int_equal(f.irregular_index, 3);
    assert_int_equal(f.offender, SEAT_W);
    assert_false(f.double_admissible);

    /* N 1S, E X, S XX, W X: the last call is a redouble, not a bid. */
    f = analyse_ok("N: 1S X XX X");
    assert_int_equal(f.irregular_index, 3);
    assert_int_equal(f.call_kind, CALL_DOUBLE);
    assert_false(f.double_admissible);
}

static void test_admissible_redoubles_are_regular(void **state) {
    (void)state;
    /* S redoubles E's double; N redoubles it through two passes. */
    assert_analysis_fails("N: 1S X XX", "no irregular call");
    assert_analysis_fails("N: 1S X P P XX", "no irregular call");

    bridge_facts f = analyse_ok("N: 1S X XX*");
    assert_int_equal(f.irregular_index, 2);
    assert_int_equal(f.call_kind, CALL_REDOUBLE);
    assert_true(f.double_admissible);
}

/* ------------------------------------------------------------ final pass */

static void test_bid_after_the_final_pass(void **state) {
    (void)state;
    /* N 1S, E P, S P, W P ends the auction; N, next in rotation, bids 2S. */
    bridge_facts f = analyse_ok("N: 1S P P P 2S");
    assert_int_equal(f.irregular_index, 4);
    assert_int_equal(f.offender, SEAT_N);
    assert_int_equal(f.turn, SEAT_N);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_true(f.after_final_pass);
    assert_false(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 2, DENOM_S);
    assert_true(f.offender_called_before);
    assert_false(f.lho_called);
}

static void test_call_after_four_opening_passes(void **state) {
    (void)state;
    /* Dealer E: E S W N pass; E bids again. No bid before, so 1C overcalls. */
    bridge_facts f = analyse_ok("E: P P P P 1C");
    assert_int_equal(f.irregular_index, 4);
    assert_int_equal(f.offender, SEAT_E);
    assert_true(f.after_final_pass);
    assert_false(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 1, DENOM_C);
    assert_true(f.offender_called_before);
}

static void test_pass_after_the_final_pass(void **state) {
    (void)state;
    /* Three passes then 1S (by W, the fourth caller) keep it alive; three more
     * passes end it; the eighth call is W's pass. */
    assert_analysis_fails("N: P P P 1S P P P", "no irregular call");
    bridge_facts f = analyse_ok("N: P P P 1S P P P P");
    assert_int_equal(f.irregular_index, 7);
    assert_int_equal(f.offender, SEAT_W);
    assert_int_equal(f.call_kind, CALL_PASS);
    assert_true(f.after_final_pass);
    assert_false(f.has_lowest_sufficient);
}

static void test_three_passes_after_a_double_end_the_auction(void **state) {
    (void)state;
    /* N 1S, E X, S P, W P, N P: ended. E then redoubles his own double. */
    bridge_facts f = analyse_ok("N: 1S X P P P XX");
    assert_int_equal(f.irregular_index, 5);
    assert_int_equal(f.offender, SEAT_E);
    assert_true(f.after_final_pass);
    assert_false(f.double_admissible);
}

static void test_two_passes_do_not_end_the_auction(void **state) {
    (void)state;
    /* N 1S, E P, S P, W 1H: W is in turn, the auction is still on. */
    bridge_facts f = analyse_ok("N: 1S P P 1H");
    assert_int_equal(f.irregular_index, 3);
    assert_int_equal(f.offender, SEAT_W);
    assert_false(f.after_final_pass);
    assert_true(f.insufficient);
    assert_analysis_fails("N: P P P", "no irregular call");
}

/* ---------------------------------------------------------- marked calls */

static void test_marked_call_wins_over_a_later_irregularity(void **state) {
    (void)state;
    /* N 1S, E P*, S 1H: the marked pass is the irregular call; S's 1H is not
     * looked at, but S is E's LHO and has called since. */
    bridge_facts f = analyse_ok("N: 1S P* 1H");
    assert_int_equal(f.irregular_index, 1);
    assert_int_equal(f.offender, SEAT_E);
    assert_int_equal(f.call_kind, CALL_PASS);
    assert_false(f.insufficient);
    assert_false(f.has_lowest_sufficient);
    assert_true(f.lho_called);
}

static void test_two_marked_calls(void **state) {
    (void)state;
    assert_analysis_fails("N: 1S* P*", "call 1 (N 1S) and call 2 (E P) are both marked");
}

static void test_irregular_call_before_the_marked_one(void **state) {
    (void)state;
    assert_analysis_fails("N: 1S 1H 2C*",
                          "call 2 (E 1H) is insufficient, it does not overcall 1S; the record "
                          "must be regular up to the irregular call 3 (S 2C)");
    /* W opens at N's turn; N then passes and E bids. */
    assert_analysis_fails("N: W:1S P 2C*", "call 1 (W 1S) is out of rotation, it was N's turn");
    /* Four passes end it; N's fifth-call pass comes after the end. */
    assert_analysis_fails("N: P P P P P 1C*", "call 5 (N P) is made after the auction had ended");
    assert_analysis_fails("N: 8C P 1S*", "call 1 (N 8C) is a bid above seven");
    assert_analysis_fails("N: 1S P X P*", "call 3 (S X) is inadmissible");
    assert_analysis_fails("N: 1S P XX P*", "call 3 (S XX) is inadmissible");
}

static void test_no_irregular_call(void **state) {
    (void)state;
    bridge_auction a;
    bridge_facts f;
    char err[ERR_SIZE];
    parse_auction_ok("N: 1S P P P", &a);
    assert_false(bridge_analyse(&a, &f, err, sizeof err));
    assert_string_equal(err, "the auction record has no irregular call; mark one with "
                             "\"irregular\": true or '*'");
}

/* ------------------------------------------------- who called before/after */

static void test_lho_called_after_the_irregular_call(void **state) {
    (void)state;
    /* E's LHO is S. */
    bridge_facts f = analyse_ok("N: 1S 1H 2C");
    assert_int_equal(f.offender, SEAT_E);
    assert_true(f.lho_called);

    f = analyse_ok("N: 1S 1H");
    assert_false(f.lho_called);

    /* Only E's partner W and RHO N call afterwards. */
    f = analyse_ok("N: 1S 1H W:P N:P");
    assert_false(f.lho_called);

    f = analyse_ok("N: 1S 1H W:P S:P");
    assert_true(f.lho_called);
    assert_int_equal(f.lho_call_kind, CALL_PASS);
}

/* Whether a pass in the irregular call's place ends the auction: W's 8C
 * after 7NT P P would be the third pass after a bid; after three passes
 * the fourth; after 7NT P, not. */
static void test_pass_instead_ends(void **state) {
    (void)state;
    assert_int_equal(analyse_ok("N: 7NT P P 8C").pass_instead_ends, PASS_ENDS_AFTER_BID);
    assert_int_equal(analyse_ok("N: P P P 8C").pass_instead_ends, PASS_ENDS_PASSED_OUT);
    assert_int_equal(analyse_ok("W: 7H P 8S").pass_instead_ends, PASS_ENDS_NOT);
}

/* The kind of the LHO's first call after the irregular one (E's
 * insufficient 1H; S is his LHO): S's 2C is a bid (W's double after it is
 * not S's); S's double; S's pass, not his double two rounds later. */
static void test_lho_call_kind(void **state) {
    (void)state;
    bridge_facts f = analyse_ok("N: 1S 1H 2C X");
    assert_true(f.lho_called);
    assert_int_equal(f.lho_call_kind, CALL_BID);
    f = analyse_ok("N: 1S 1H X");
    assert_int_equal(f.lho_call_kind, CALL_DOUBLE);
    f = analyse_ok("N: 1S 1H P 2H P P X");
    assert_int_equal(f.lho_call_kind, CALL_PASS);
}

/* Whether a bid came before the irregular call: not where only passes did
 * (N passes, W passes while E is to call), nor where the irregular call is
 * the first bid; where one did, also a bid of the offender's own side. */
static void test_bid_before(void **state) {
    (void)state;
    bridge_facts f = analyse_ok("N: P W:P*");
    assert_int_equal(f.offender, SEAT_W);
    assert_false(f.bid_before);
    f = analyse_ok("N: P P S:1H*");
    assert_false(f.bid_before);
    f = analyse_ok("N: 1S P W:P*");
    assert_true(f.bid_before);
    f = analyse_ok("N: 1S 1H");
    assert_true(f.bid_before);
}

static void test_offender_called_before(void **state) {
    (void)state;
    /* N 1S, E 2C, S 2S, W P, N P, E 2D: E bid 2C earlier; 3D is the lowest
     * diamond bid over 2S. */
    bridge_facts f = analyse_ok("N: 1S 2C 2S P P 2D");
    assert_int_equal(f.irregular_index, 5);
    assert_int_equal(f.offender, SEAT_E);
    assert_int_equal(f.turn_was, REL_SELF);
    assert_true(f.offender_called_before);
    assert_true(f.insufficient);
    assert_call(f.lowest_sufficient, CALL_BID, 3, DENOM_D);
    assert_false(f.lho_called);
}

/* ------------------------------------------------------ malformed records */

static void test_malformed_records_are_rejected(void **state) {
    (void)state;
    bridge_auction a;
    parse_auction_ok("N: 1S 1H", &a);

    bridge_auction bad = a;
    bad.ncalls = 0;
    assert_struct_rejected(&bad, "no calls");
    bad.ncalls = BRIDGE_MAX_CALLS + 1;
    assert_struct_rejected(&bad, "at most 128");

    bad = a;
    bad.dealer = (enum bridge_seat)4;
    assert_struct_rejected(&bad, "dealer value 4");

    bad = a;
    bad.calls[1].seat = (enum bridge_seat)7;
    assert_struct_rejected(&bad, "call 2: seat value 7");

    bad = a;
    bad.calls[0].call.kind = (enum bridge_call_kind)9;
    assert_struct_rejected(&bad, "call 1: call kind value 9");

    bad = a;
    bad.calls[0].call.level = 0;
    assert_struct_rejected(&bad, "call 1: bid level 0");
    bad.calls[0].call.level = 100;
    assert_struct_rejected(&bad, "call 1: bid level 100");

    bad = a;
    bad.calls[1].call.denom = (enum bridge_denom)5;
    assert_struct_rejected(&bad, "call 2: denomination value 5");

    assert_struct_rejected(NULL, "no auction record");
}

/* A call value is written by the engine (rs_format_value) exactly as the
 * auction reader writes the call (bridge_format_call), for every value a
 * decision can test and every bid up to the highest level read. */
static void test_call_values_written_alike(void **state) {
    (void)state;
    rs_type call = {.kind = TY_CALL};
    for (int64_t v = 0; v < 3 + 5 * RS_CALL_MAX_LEVEL; v++) {
        char buf[8];
        bridge_call c = call_from_value(v);
        assert_int_equal(call_to_value(&c), v);
        bridge_format_call(&c, buf);
        strbuf sb;
        sb_init(&sb);
        rs_format_value(NULL, &call, v, FMT_NAME, &sb);
        assert_string_equal(sb.data, buf);
        sb_free(&sb);
    }
    assert_int_equal(CALL_DECISION_VALUES, 3 + 5 * 7);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_call_values_written_alike),
        cmocka_unit_test(test_parse_seat_letters),
        cmocka_unit_test(test_parse_seat_rejects),
        cmocka_unit_test(test_seat_names),
        cmocka_unit_test(test_seat_at_from_north),
        cmocka_unit_test(test_seat_at_wraps_round_the_table),
        cmocka_unit_test(test_parse_pass_forms),
        cmocka_unit_test(test_parse_double_forms),
        cmocka_unit_test(test_parse_redouble_forms),
        cmocka_unit_test(test_parse_pass_and_double_set_level_zero),
        cmocka_unit_test(test_parse_bid_letters),
        cmocka_unit_test(test_parse_bid_suit_symbols),
        cmocka_unit_test(test_parse_bid_levels_above_seven),
        cmocka_unit_test(test_parse_call_rejects),
        cmocka_unit_test(test_parse_call_null_text),
        cmocka_unit_test(test_call_error_stays_one_line_and_bounded),
        cmocka_unit_test(test_format_call),
        cmocka_unit_test(test_format_then_parse_round_trips),
        cmocka_unit_test(test_auction_parse_rotation_and_seats),
        cmocka_unit_test(test_auction_parse_spacing_and_case),
        cmocka_unit_test(test_auction_parse_dealer_colon_without_space),
        cmocka_unit_test(test_auction_parse_dutch),
        cmocka_unit_test(test_auction_parse_dealer_errors),
        cmocka_unit_test(test_auction_parse_token_errors),
        cmocka_unit_test(test_auction_parse_call_limit),
        cmocka_unit_test(test_insufficient_bid_in_turn),
        cmocka_unit_test(test_lowest_sufficient_under_notrump),
        cmocka_unit_test(test_lowest_sufficient_same_level_higher_denomination),
        cmocka_unit_test(test_repeating_the_last_bid_is_insufficient),
        cmocka_unit_test(test_no_sufficient_bid_above_seven),
        cmocka_unit_test(test_role_after_final_pass),
        cmocka_unit_test(test_side_doubled_before),
        cmocka_unit_test(test_marked_sufficient_bid_is_its_own_lowest),
        cmocka_unit_test(test_over_seven),
        cmocka_unit_test(test_turn_was_lho),
        cmocka_unit_test(test_turn_was_partner),
        cmocka_unit_test(test_turn_was_rho),
        cmocka_unit_test(test_first_call_out_of_rotation),
        cmocka_unit_test(test_double_of_partners_bid),
        cmocka_unit_test(test_double_must_follow_the_opponents_last_bid),
        cmocka_unit_test(test_double_without_a_bid_or_of_a_double),
        cmocka_unit_test(test_admissible_doubles_are_regular),
        cmocka_unit_test(test_double_admissibility_is_measured_for_the_offender),
        cmocka_unit_test(test_redouble_without_a_double),
        cmocka_unit_test(test_redouble_of_partners_double),
        cmocka_unit_test(test_admissible_redoubles_are_regular),
        cmocka_unit_test(test_bid_after_the_final_pass),
        cmocka_unit_test(test_call_after_four_opening_passes),
        cmocka_unit_test(test_pass_after_the_final_pass),
        cmocka_unit_test(test_three_passes_after_a_double_end_the_auction),
        cmocka_unit_test(test_two_passes_do_not_end_the_auction),
        cmocka_unit_test(test_marked_call_wins_over_a_later_irregularity),
        cmocka_unit_test(test_two_marked_calls),
        cmocka_unit_test(test_irregular_call_before_the_marked_one),
        cmocka_unit_test(test_no_irregular_call),
        cmocka_unit_test(test_lho_called_after_the_irregular_call),
        cmocka_unit_test(test_lho_call_kind),
        cmocka_unit_test(test_pass_instead_ends),
        cmocka_unit_test(test_bid_before),
        cmocka_unit_test(test_offender_called_before),
        cmocka_unit_test(test_malformed_records_are_rejected),
    };
    return cmocka_run_group_tests_name("bridge", tests, NULL, NULL);
}
