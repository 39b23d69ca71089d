/* test_api_scores.c — the scorer's calls (core/api/arbiter.h, "Scores,
 * legal cards and editions compared"), through arbiter.h alone, as a
 * scorer's program would use them.
 *
 * The figures are worked out by hand from the law, not taken from the
 * program:
 * - Laws of Duplicate Bridge 2017, Art. 77 (the scoring table): a trick in
 *   spades is 30, doubled 60; game premium 300 not vulnerable, 500
 *   vulnerable; the insult for making a doubled contract 50; a doubled
 *   overtrick vulnerable 200; an undertrick not vulnerable, undoubled, 50.
 *   4S= not vulnerable: 4 x 30 + 300 = 420. 4SX+1 vulnerable:
 *   4 x 60 + 500 + 50 + 200 = 990. 3NT-2 not vulnerable: -100.
 * - Art. 78A: two units for each score lower on the board, one for each
 *   equal. Art. 78B, the IMP scale: 20-40 is 1 IMP, 170-210 is 5, 500-590
 *   is 11, 4000 and more 24.
 * - NKF klaverjas 1976, Art. 12 (examples/klaverjas-legal.json): hearts are
 *   trumps, E led S7, S followed with S9, W trumped with H8; N has no
 *   spades and no higher trump. He need not undertrump (12i4a): D7, DK, CA
 *   are legal; H7 would undertrump while he holds other suits (12i4c).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static arb_ruleset *bridge, *bridge1963, *klaverjas;
static const fixture_ruleset rulesets[] = {
    {"bridge-2017", &bridge},
    {"bridge-1963", &bridge1963},
    {"klaverjas-nkf-1976", &klaverjas},
    {NULL, NULL},
};

static long long score_of(const char *contract, enum arb_vulnerability vul) {
    long long points = -1;
    char *error = NULL;
    assert_int_equal(arb_score_contract(bridge, NULL, contract, vul, &points, NULL, &error),
                     ARB_OK);
    assert_null(error);
    return points;
}

/* Art. 77, worked in the header comment. */
static void test_score_contract(void **state) {
    (void)state;
    assert_int_equal(score_of("4S=", ARB_NOT_VULNERABLE), 420);
    assert_int_equal(score_of("4SX+1", ARB_VULNERABLE), 990);
    assert_int_equal(score_of("3NT-2", ARB_NOT_VULNERABLE), -100);
    assert_int_equal(score_of("PASS", ARB_VULNERABILITY_UNKNOWN), 0);
}

/* The answer as JSON names the contract, the vulnerability, the score and
 * the article the points come from. */
static void test_score_contract_json(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    assert_int_equal(
        arb_score_contract(bridge, NULL, "4S=", ARB_NOT_VULNERABLE, NULL, &json, &error), ARB_OK);
    assert_non_null(strstr(json, "\"contract\":\"4S=\""));
    assert_non_null(strstr(json, "\"vulnerable\":false"));
    assert_non_null(strstr(json, "\"score\":420"));
    assert_non_null(strstr(json, "\"articles\":[\"77\""));
    free(json);
}

/* Going down depends on the vulnerability: without it the call says which
 * fact it needs, and gives the ruling that stopped there. */
static void test_score_needs_vulnerability(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    long long points = 7;
    assert_int_equal(arb_score_contract(bridge, NULL, "3NT-2", ARB_VULNERABILITY_UNKNOWN, &points,
                                        &json, &error),
                     ARB_BAD_INPUT);
    assert_int_equal(points, 7);
    assert_non_null(error);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"needs\":"));
    free(json);
    free(error);
}

static void test_score_bad_contract(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_score_contract(bridge, NULL, "8S=", ARB_VULNERABLE, NULL, &json, &error),
                     ARB_BAD_INPUT);
    assert_null(json);
    assert_non_null(strstr(error, "level"));
    free(error);
    /* klaverjas has no `score` article for bridge contracts: refused with the header key */
    assert_int_equal(arb_score_contract(klaverjas, NULL, "4S=", ARB_VULNERABLE, NULL, NULL, &error),
                     ARB_BAD_INPUT);
    assert_non_null(error);
    free(error);
}

static long long imps_of(long long difference) {
    long long imps = -99;
    assert_int_equal(arb_imps(bridge, NULL, difference, &imps, NULL, NULL), ARB_OK);
    return imps;
}

/* Art. 78B: the scale, both ways. */
static void test_imps(void **state) {
    (void)state;
    assert_int_equal(imps_of(0), 0);
    assert_int_equal(imps_of(20), 1);
    assert_int_equal(imps_of(200), 5);  /* 620 against 420 */
    assert_int_equal(imps_of(520), 11); /* 420 against -100 */
    assert_int_equal(imps_of(-520), -11);
    assert_int_equal(imps_of(4000), 24);
    char *json = NULL;
    assert_int_equal(arb_imps(bridge, NULL, 200, NULL, &json, NULL), ARB_OK);
    assert_non_null(strstr(json, "\"difference\":200"));
    assert_non_null(strstr(json, "\"imps\":5"));
    assert_non_null(strstr(json, "78B"));
    free(json);
}

/* Art. 78A: 650 beats three; 620 beats one and equals one; 100 beats none. */
static void test_matchpoints_one_board(void **state) {
    (void)state;
    const char *sheet = "650\n620\n620\n100\n";
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, sheet, strlen(sheet), &json, &error),
                     ARB_OK);
    assert_null(error);
    assert_string_equal(json, "[{\"score\":650,\"matchpoints\":6,\"articles\":\"78A\"},"
                              "{\"score\":620,\"matchpoints\":3,\"articles\":\"78A\"},"
                              "{\"score\":620,\"matchpoints\":3,\"articles\":\"78A\"},"
                              "{\"score\":100,\"matchpoints\":0,\"articles\":\"78A\"}]");
    free(json);
}

/* A CSV sheet: each board on its own, the header skipped, the sheet's order kept. */
static void test_matchpoints_csv(void **state) {
    (void)state;
    const char *sheet = "board,pair,score\n1,A,420\n2,A,100\n1,B,-50\n2,B,100\n";
    char *json = NULL;
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, sheet, strlen(sheet), &json, NULL),
                     ARB_OK);
    /* every line names the comparison that gave its figure (78A) */
    assert_string_equal(
        json,
        "[{\"board\":\"1\",\"pair\":\"A\",\"score\":420,\"matchpoints\":2,\"articles\":\"78A\"},"
        "{\"board\":\"2\",\"pair\":\"A\",\"score\":100,\"matchpoints\":1,\"articles\":\"78A\"},"
        "{\"board\":\"1\",\"pair\":\"B\",\"score\":-50,\"matchpoints\":0,\"articles\":\"78A\"},"
        "{\"board\":\"2\",\"pair\":\"B\",\"score\":100,\"matchpoints\":1,\"articles\":\"78A\"}]");
    free(json);
}

static void test_matchpoints_refused(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, "100\nlots\n", 9, &json, &error),
                     ARB_BAD_INPUT);
    assert_null(json);
    assert_non_null(strstr(error, "line 2"));
    free(error);
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, "100\0\n50\n", 8, &json, &error),
                     ARB_BAD_INPUT);
    assert_non_null(strstr(error, "not text"));
    free(error);
}

/* The CSV of a sheet's matchpoints (test_matchpoints_csv's figures): a
 * row a line, no header; a pair's name with a comma is quoted. */
static void test_csv_matchpoints(void **state) {
    (void)state;
    const char *sheet = "board,pair,score\n1,\"Ann, Bob\",420\n1,B,-50\n";
    char *json = NULL, *csv = NULL, *error = NULL;
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, sheet, strlen(sheet), &json, NULL),
                     ARB_OK);
    assert_int_equal(arb_csv("matchpoints", json, strlen(json), &csv, &error), ARB_OK);
    assert_null(error);
    assert_string_equal(csv, "1,\"Ann, Bob\",420,2\n1,B,-50,0\n");
    free(csv);
    free(json);
}

/* A session's ranking (78A, by hand): two boards, two tables; 1 NS beat
 * 2 NS on board 1 (2 of 2) and tied on board 2 (1 of 2): 3 of 4, 75%. */
static void test_csv_session(void **state) {
    (void)state;
    const char *sheet = "board,ns,ew,score\n1,1,3,420\n1,2,4,-50\n2,1,4,100\n2,2,3,100\n";
    char *json = NULL, *csv = NULL;
    assert_int_equal(
        arb_session_json(bridge, NULL, sheet, strlen(sheet), "matchpoints", &json, NULL), ARB_OK);
    assert_int_equal(arb_csv("session", json, strlen(json), &csv, NULL), ARB_OK);
    assert_non_null(strstr(csv, "place,pair,direction,boards,matchpoints,top,percentage\n"));
    assert_non_null(strstr(csv, "\n1,1,NS,2,3,4,75\n"));
    assert_non_null(strstr(csv, "\n2,2,NS,2,1,4,25\n"));
    free(csv);
    assert_int_equal(arb_csv("session-boards", json, strlen(json), &csv, NULL), ARB_OK);
    /* a plain board: the comparison alone (78A) */
    assert_non_null(strstr(csv, "\n1,1,3,420,-420,2,0,100,0,78A,78A\n"));
    free(csv);
    free(json);
}

/* A form it does not know, and an answer of the wrong shape: refused,
 * nothing written. */
static void test_csv_refused(void **state) {
    (void)state;
    char *csv = NULL, *error = NULL;
    assert_int_equal(arb_csv("xml", "[]", 2, &csv, &error), ARB_BAD_INPUT);
    assert_null(csv);
    assert_non_null(strstr(error, "the form is session"));
    free(error);
    assert_int_equal(arb_csv("session", "[]", 2, &csv, &error), ARB_BAD_INPUT);
    assert_non_null(strstr(error, "a JSON object"));
    free(error);
    assert_int_equal(arb_csv("ranking", "[1,", 3, &csv, &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_csv("ranking", NULL, 0, &csv, &error), ARB_BAD_INPUT);
    free(error);
    assert_int_equal(arb_csv(NULL, "[]", 2, &csv, &error), ARB_BAD_INPUT);
    free(error);
}

/* NKF 1976 Art. 12, worked in the header comment. */
static void test_legal_cards(void **state) {
    (void)state;
    const char *position =
        "{\"trump\":\"H\",\"taker\":\"N\",\"seat\":\"N\",\"hand\":\"H7 D7 DK CA\","
        "\"trick\":\"E:S7 S9 H8\"}";
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_legal_json(klaverjas, NULL, position, strlen(position), &json, &error),
                     ARB_OK);
    assert_null(error);
    assert_non_null(strstr(json, "\"seat\":\"N\",\"trump\":\"H\""));
    assert_non_null(strstr(json, "{\"card\":\"H7\",\"verdict\":\"illegal\",\"legal\":false"));
    assert_non_null(strstr(json, "{\"card\":\"D7\",\"verdict\":\"legal\",\"legal\":true"));
    assert_non_null(strstr(json, "{\"card\":\"DK\",\"verdict\":\"legal\""));
    assert_non_null(strstr(json, "{\"card\":\"CA\",\"verdict\":\"legal\""));
    assert_non_null(strstr(json, "12i4c"));
    assert_non_null(strstr(json, "12i4a"));
    free(json);
}

static void test_legal_refused(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    const char *no_position = "{}"; /* a scenario, but no position in it */
    assert_int_equal(
        arb_legal_json(klaverjas, NULL, no_position, strlen(no_position), &json, &error),
        ARB_BAD_INPUT);
    assert_null(json);
    assert_non_null(strstr(error, "no position"));
    free(error);
    assert_int_equal(arb_legal_json(klaverjas, NULL, "{", 1, &json, &error), ARB_BAD_INPUT);
    assert_non_null(error);
    free(error);
}

/* examples/klaverjas-hand.json, worked from NKF 1976 by hand: the
 * defenders win trick 1 (15 card points), the takers the other seven (137,
 * with 10 for the last trick 147) and 40 roem: 187 points, roem counted
 * in ("totals"). 187 against 15 is made
 * (Art. 20, 20i9): each side keeps its own points and roem. No card
 * breaks Art. 12. */
static const char hand[] =
    "{\"trump\":\"H\",\"taker\":\"N\",\"first_leader\":\"E\",\"hands\":{"
    "\"N\":\"SK HJ H9 HA HK DQ D7 C7\",\"E\":\"SA SQ SJ S10 C8 C9 D8 D9\","
    "\"S\":\"S7 H8 H10 HQ DK DA CA C10\",\"W\":\"S8 S9 H7 DJ D10 CK CQ CJ\"},"
    "\"tricks\":[\"E:SA S7 S8 SK\",\"E:SQ H8 S9 HJ\",\"N:H9 D8 H10 H7\",\"N:DQ D9 DK DJ\","
    "\"S:DA D10 D7 C9\",\"S:CA CK C7 C8\",\"S:C10 CQ HA S10\",\"N:HK SJ HQ CJ\"],"
    "\"roem_claimed\":[4,8]}";

static void test_score_hand(void **state) {
    (void)state;
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_score_hand_json(klaverjas, NULL, hand, strlen(hand), &json, &error),
                     ARB_OK);
    assert_null(error);
    assert_non_null(strstr(json, "\"from_record\":true"));
    assert_non_null(strstr(json, "\"takers\":{\"tricks\":7,\"points\":187,\"roem\":40}"));
    assert_non_null(strstr(json, "\"defenders\":{\"tricks\":1,\"points\":15,\"roem\":0}"));
    assert_non_null(strstr(json, "\"illegal_by\":\"none\""));
    assert_non_null(strstr(json, "\"takers\":187,\"defenders\":15}"));
    free(json);
}

/* examples/klaverjas-late-claim.json: no tricks, the score slip's result; a
 * revoke claimed too late does not count (Art. 14), the hand counts as
 * played (Art. 19): 120 against 42 is made, each side its own. */
static void test_score_hand_as_given(void **state) {
    (void)state;
    const char *slip =
        "{\"revoke_by\":\"takers\",\"revoke_kind\":\"must_follow\",\"revoke_claim\":\"too_late\","
        "\"hand_complete\":true,\"takers_tricks\":6,\"defenders_tricks\":2,\"takers_points\":120,"
        "\"defenders_points\":42,\"takers_roem\":0,\"defenders_roem\":0}";
    char *json = NULL;
    assert_int_equal(arb_score_hand_json(klaverjas, NULL, slip, strlen(slip), &json, NULL), ARB_OK);
    assert_non_null(strstr(json, "\"from_record\":false"));
    assert_non_null(strstr(json, "\"takers\":120,\"defenders\":42}"));
    free(json);
}

/* Which calls fit a ruleset: its game and the articles its header names. */
static void test_game_and_jobs(void **state) {
    (void)state;
    assert_string_equal(arb_game(klaverjas), "klaverjas");
    assert_string_equal(arb_game(bridge), "bridge");
    assert_string_equal(arb_job_article(bridge, "score"), "77");
    assert_string_equal(arb_job_article(bridge, "imps"), "78B");
    assert_string_equal(arb_job_article(klaverjas, "legal"), "12");
    assert_null(arb_job_article(bridge, "legal"));
    assert_null(arb_job_article(bridge, "nothing"));
    assert_null(arb_job_article(NULL, "score"));
    assert_null(arb_job_article(bridge, NULL));
    assert_null(arb_game(NULL));
    char *error = NULL;
    assert_int_equal(arb_score_hand_json(klaverjas, NULL, "{", 1, NULL, &error), ARB_BAD_INPUT);
    assert_non_null(error);
    free(error);
    assert_int_equal(arb_score_hand_json(NULL, NULL, hand, strlen(hand), NULL, NULL),
                     ARB_BAD_INPUT);
}

/* An insufficient bid (1H over 1S) replaced by 2H, the lowest sufficient
 * bid in the same denomination, not artificial: 2017 Law 27B1(a), the
 * auction continues without further rectification (27D kept for the
 * director); 1963 Law 27a, the auction continues without penalty. The
 * same edition twice differs in nothing; the two editions differ in the
 * articles. */
static void test_compare(void **state) {
    (void)state;
    const char *scenario =
        "{\"dealer\":\"N\",\"auction\":[{\"seat\":\"N\",\"call\":\"1S\"},"
        "{\"seat\":\"E\",\"call\":\"1H\"}],\"irregularity\":\"insufficient_bid\","
        "\"call_artificial\":false,\"replacement\":\"bid\",\"replacement_call\":\"2H\"}";
    const arb_ruleset *twice[] = {bridge, bridge}, *editions[] = {bridge, bridge1963};
    char *json = NULL, *error = NULL;
    assert_int_equal(arb_compare_json(twice, NULL, 2, scenario, strlen(scenario), &json, &error),
                     ARB_OK);
    assert_null(error);
    assert_non_null(strstr(json, "\"rulings\":[{\"ruleset\":\"bridge-2017\""));
    assert_non_null(strstr(json, "\"differences\":[{}]"));
    free(json);
    assert_int_equal(arb_compare_json(editions, NULL, 2, scenario, strlen(scenario), &json, &error),
                     ARB_OK);
    assert_non_null(strstr(json, "\"ruleset\":\"bridge-1963\""));
    assert_non_null(strstr(json, "\"27B1a\""));
    assert_non_null(strstr(json, "\"27a\""));
    assert_non_null(strstr(json, "\"differences\":[{\"articles\":"));
    free(json);
}

/* Bad arguments: refused with ARB_BAD_INPUT and a reason, never a crash. */
static void test_bad_arguments(void **state) {
    (void)state;
    char *json = (char *)"untouched", *error = NULL;
    assert_int_equal(arb_score_contract(NULL, NULL, "4S=", ARB_VULNERABLE, NULL, &json, &error),
                     ARB_BAD_INPUT);
    assert_null(json);
    free(error);
    assert_int_equal(arb_score_contract(bridge, NULL, NULL, ARB_VULNERABLE, NULL, NULL, NULL),
                     ARB_BAD_INPUT);
    assert_int_equal(
        arb_score_contract(bridge, NULL, "4S=", (enum arb_vulnerability)5, NULL, NULL, NULL),
        ARB_BAD_INPUT);
    assert_int_equal(arb_imps(NULL, NULL, 10, NULL, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_imps(bridge, NULL, 300000, NULL, NULL, &error), ARB_BAD_INPUT);
    assert_non_null(error);
    free(error);
    assert_int_equal(arb_matchpoints_sheet(bridge, NULL, NULL, 3, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_legal_json(NULL, NULL, "{}", 2, NULL, NULL), ARB_BAD_INPUT);
    const arb_ruleset *one[] = {bridge}, *with_null[] = {bridge, NULL};
    assert_int_equal(arb_compare_json(one, NULL, 1, "{}", 2, &json, NULL), ARB_BAD_INPUT);
    assert_null(json);
    assert_int_equal(arb_compare_json(with_null, NULL, 2, "{}", 2, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_compare_json(NULL, NULL, 2, "{}", 2, NULL, NULL), ARB_BAD_INPUT);
    assert_int_equal(arb_compare_json(one, NULL, -1, "{}", 2, NULL, NULL), ARB_BAD_INPUT);
}

/* The text of compare's differences: one paragraph per later ruling, "Geen
 * verschil" when the comparison found none; what is not such an answer is
 * refused and writes nothing. */
static void test_compare_differences_text(void **state) {
    (void)state;
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    const char *same =
        "{\"rulings\":[{\"ruleset\":\"a\"},{\"ruleset\":\"b\"}],\"differences\":[{}]}";
    assert_int_equal(arb_compare_differences_text(same, strlen(same), out), ARB_OK);
    const char *apart = "{\"rulings\":[{\"ruleset\":\"a\"},{\"ruleset\":\"c\"}],"
                        "\"differences\":[{\"articles\":[[\"27\",\"27B1a\"],[\"27\",\"27a\"]]}]}";
    assert_int_equal(arb_compare_differences_text(apart, strlen(apart), out), ARB_OK);
    fclose(out);
    assert_non_null(strstr(buf, "Geen verschil tussen a en b."));
    assert_non_null(strstr(buf, "Verschillen tussen a en c:"));
    assert_non_null(strstr(buf, "27B1a"));
    free(buf);
    const char *wrong = "{\"rulings\":[{\"ruleset\":\"a\"}],\"differences\":[{}]}";
    assert_int_equal(arb_compare_differences_text(wrong, strlen(wrong), stdout), ARB_BAD_INPUT);
    assert_int_equal(arb_compare_differences_text("no json", 7, stdout), ARB_BAD_INPUT);
    assert_int_equal(arb_compare_differences_text(NULL, 0, stdout), ARB_BAD_INPUT);
    assert_int_equal(arb_compare_differences_text(same, strlen(same), NULL), ARB_BAD_INPUT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_differences_text),
        cmocka_unit_test(test_score_contract),
        cmocka_unit_test(test_score_contract_json),
        cmocka_unit_test(test_score_needs_vulnerability),
        cmocka_unit_test(test_score_bad_contract),
        cmocka_unit_test(test_imps),
        cmocka_unit_test(test_matchpoints_one_board),
        cmocka_unit_test(test_matchpoints_csv),
        cmocka_unit_test(test_matchpoints_refused),
        cmocka_unit_test(test_csv_matchpoints),
        cmocka_unit_test(test_csv_session),
        cmocka_unit_test(test_csv_refused),
        cmocka_unit_test(test_legal_cards),
        cmocka_unit_test(test_legal_refused),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_score_hand),
        cmocka_unit_test(test_score_hand_as_given),
        cmocka_unit_test(test_game_and_jobs),
        cmocka_unit_test(test_bad_arguments),
    };
    return FIXTURE_RUN_GROUP("api_scores", tests, rulesets);
}
