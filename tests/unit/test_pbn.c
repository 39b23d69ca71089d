/* test_pbn.c — the PBN reader (core/games/pbn.c) on what the standard
 * allows in import format and the CLI tests do not show: a tag pair over
 * several lines (3.3), CRLF lines (2.3), the Result and Score tags by side
 * (3.4.15, 4.2.1), "#" inheritance (4.8) and what it may not inherit, a
 * repeated tag ignored (3.4), note indexes (3.5.4), semi-empty lines in a
 * comment (3.8), a ScoreTable (4.4, 5): columns with and without widths,
 * quoted values, "-", a decimal comma, "3N", a table after a comment. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "arbiter.h"
#include "pbn.h"
#include "pbnexport.h"

#include <stdlib.h>

static pbn_file f;

static const pbn_game *read_one(const char *text, int nerrors) {
    pbn_free(&f);
    assert_true(pbn_read(text, strlen(text), "t.pbn", &f));
    if (f.nerrors != nerrors)
        fail_msg("%d mistakes, expected %d:\n%s", f.nerrors, nerrors, f.errors.data);
    assert_true(f.games.len >= 1);
    return &VEC_AT(&f.games, pbn_game, 0);
}

static int setup(void **state) {
    (void)state;
    memset(&f, 0, sizeof f);
    vec_init(&f.games, sizeof(pbn_game));
    sb_init(&f.errors);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    pbn_free(&f);
    return 0;
}

static void test_tag_over_lines_and_crlf(void **state) {
    (void)state;
    const pbn_game *g = read_one(
        "[Board\r\n  \"12\"\r\n]\r\n[Declarer \"w\"][Contract \"3ntxx\"]\r\n[Result \"9\"]\r\n", 0);
    assert_string_equal(g->board, "12");
    assert_int_equal(g->res.declarer, SEAT_W);
    assert_int_equal(g->res.contract.level, 3);
    assert_int_equal(g->res.contract.denom, DENOM_NT);
    assert_int_equal(g->res.doubling, 2);
    char text[16];
    assert_true(pbn_contract_text(&g->res, text, sizeof text));
    assert_string_equal(text, "3NTXX=");
}

static void test_result_and_score_by_side(void **state) {
    (void)state;
    /* East declares: "NS 4" leaves 9 tricks to EW, declarer's side. */
    const pbn_game *g =
        read_one("[Result \"NS 4\"]\n[Declarer \"E\"]\n[Contract \"3NT\"]\n[Score \"400\"]\n", 0);
    assert_int_equal(g->res.result, 9);
    assert_true(g->res.has_score);
    assert_int_equal(g->res.score_ns, -400); /* declarer's 400 is NS -400 */
    g = read_one("[Declarer \"N\"]\n[Contract \"4S\"]\n[Result \"EW 3 NS 10\"]\n[Score \"EW -420 "
                 "NS 420\"]\n",
                 0);
    assert_int_equal(g->res.result, 10);
    assert_int_equal(g->res.score_ns, 420);
    read_one("[Declarer \"N\"]\n[Contract \"4S\"]\n[Result \"EW 3 NS 9\"]\n",
             1);                                                  /* 12 tricks in all */
    read_one("[Declarer \"N\"]\n[Score \"NS 420 EW 420\"]\n", 1); /* not opposite */
    g = read_one("[Declarer \"S\"]\n[Contract \"4S\"]\n[Result \"^10\"]\n", 0);
    assert_true(g->result_disputed);
}

static void test_inheritance(void **state) {
    (void)state;
    const pbn_game *g =
        read_one("[Board \"7\"]\n[Dealer \"S\"]\n\n[Board \"#\"]\n[Dealer \"#\"]\n", 1);
    const pbn_game *second = &VEC_AT(&f.games, pbn_game, 1);
    assert_string_equal(g->board, "7");
    assert_string_equal(second->board, "7");
    assert_true(strstr(f.errors.data, "t.pbn:5:10: error: Dealer cannot inherit its value"));
    read_one("[Board \"#\"]\n", 0);
    assert_string_equal(VEC_AT(&f.games, pbn_game, 0).board, ""); /* nothing to inherit: "" (4.8) */
}

static void test_repeated_tag_ignored(void **state) {
    (void)state;
    const pbn_game *g = read_one("[Dealer \"N\"]\n[Dealer \"E\"]\n", 0);
    assert_int_equal(g->dealer, SEAT_N);
}

static void test_notes(void **state) {
    (void)state;
    const pbn_game *g = read_one("[Dealer \"N\"]\n[Auction \"N\"]\n1NT =32= Pass $255 2C ! =1=\n"
                                 "[Note \"1:Stayman\"]\n[Note \"32:15-17\"]\n",
                                 0);
    assert_int_equal(g->ncalls, 3);
    assert_int_equal(g->calls[0].note, 32);
    assert_int_equal(g->calls[2].note, 1);
    assert_string_equal(g->notes[1], "Stayman");
    assert_string_equal(g->notes[32], "15-17");
    read_one("[Dealer \"N\"]\n[Auction \"N\"]\n1NT =33=\n", 1);
    read_one("[Dealer \"N\"]\n[Auction \"N\"]\n1NT $256\n", 1);
    read_one("[Note \"1:no section\"]\n", 1);
}

static void test_comment_keeps_the_game(void **state) {
    (void)state;
    read_one("[Board \"1\"]\n{ a comment\n\nover a blank line }\n[Dealer \"W\"]\n", 0);
    assert_int_equal(f.games.len, 1);
    assert_int_equal(VEC_AT(&f.games, pbn_game, 0).dealer, SEAT_W);
    read_one("[Board \"1\"]\n\n[Board \"2\"]\n  \t\n[Board \"3\"]\n", 0);
    assert_int_equal(f.games.len, 3);
}

static void test_play_checked_against_the_deal(void **state) {
    (void)state;
    read_one("[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"S\"]\n[Contract \"1S\"]\n[Play "
             "\"W\"]\nS2 SA\n",
             0);
    read_one("[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"S\"]\n[Contract \"1S\"]\n[Play "
             "\"W\"]\nS2 S3\n",
             1);
    assert_true(strstr(f.errors.data, "S3 is not in N's hand"));
    read_one("[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"S\"]\n[Contract \"1S\"]\n[Play "
             "\"W\"]\nS2 SA S2\n",
             1);
    assert_true(strstr(f.errors.data, "S2 is played twice"));
}

/* A commentary: a } in it becomes ), blank lines go, it ends the game. */
static void test_commentary(void **state) {
    (void)state;
    const char *pbn = "[Board \"1\"]\n\n[Board \"2\"]\n";
    char *out = NULL, *error = NULL;
    assert_int_equal(arb_pbn_commentary(pbn, strlen(pbn), "t.pbn", 1, "a {ruling}\n\n  \nline two",
                                        &out, &error),
                     ARB_OK);
    assert_string_equal(out, "[Board \"1\"]\n{a {ruling)\nline two}\n\n[Board \"2\"]\n");
    free(out);
    assert_int_equal(arb_pbn_commentary(pbn, strlen(pbn), "t.pbn", 3, "x", &out, &error),
                     ARB_BAD_INPUT);
    assert_string_equal(error, "no game 3: the file has 2");
    free(error);
    /* a Latin-1 file (its Event's é as one byte): the commentary is written
     * in Latin-1 too, a character past U+00FF as '?'; it was UTF-8, two
     * encodings in one file */
    const char *latin1 = "[Event \"Caf\xE9\"]\n[Board \"1\"]\n";
    assert_int_equal(arb_pbn_commentary(latin1, strlen(latin1), "t.pbn", 1,
                                        "v\xC3\xB3\xC3\xB3r \xE2\x99\xA0", &out, &error),
                     ARB_OK);
    assert_string_equal(out, "[Event \"Caf\xE9\"]\n[Board \"1\"]\n{v\xF3\xF3r ?}\n");
    free(out);
    /* a UTF-8 file keeps the commentary in UTF-8 */
    const char *utf8 = "[Event \"Caf\xC3\xA9\"]\n[Board \"1\"]\n";
    assert_int_equal(
        arb_pbn_commentary(utf8, strlen(utf8), "t.pbn", 1, "v\xC3\xB3\xC3\xB3r", &out, &error),
        ARB_OK);
    assert_string_equal(out, "[Event \"Caf\xC3\xA9\"]\n[Board \"1\"]\n{v\xC3\xB3\xC3\xB3r}\n");
    free(out);
}

/* A file of score table rows past PBN_MAX_ROWS: each row is kept, and a
 * 14 MB file of them took 550 MB and 5 s before the session refused it;
 * the reader stops at the limit, with the rows before it read. */
static void test_score_table_rows_limited(void **state) {
    (void)state;
    strbuf t;
    sb_init(&t);
    sb_puts(&t, "[Board \"1\"]\n[ScoreTable \"PairId_NS;PairId_EW;Contract;Declarer;Result\"]\n");
    for (int i = 0; i <= PBN_MAX_ROWS; i++)
        sb_printf(&t, "%d %d 3N N 9\n", i % 50 + 1, i % 50 + 101);
    const pbn_game *g = read_one(t.data, 1);
    assert_int_equal(g->nrows, PBN_MAX_ROWS);
    char where[64];
    snprintf(where, sizeof where, "t.pbn:%d:", PBN_MAX_ROWS + 3);
    assert_non_null(strstr(f.errors.data, where));
    assert_non_null(strstr(f.errors.data, "more than 100000 score table rows in one file"));
    sb_free(&t);
}

static void test_score_table(void **state) {
    (void)state;
    const pbn_game *g = read_one("[Board \"7\"]\n[Vulnerable \"EW\"]\n"
                                 "[ScoreTable \"PairId_NS\\2R;PairId_EW;Contract\\4L;Declarer;"
                                 "Result\\2R;Score_EW;MP_NS\\4R;Room\"]\n"
                                 "; a comment between rows\n"
                                 " 1 \"12\" 3N  W  9  600 0,5 \"Open room\"\n"
                                 " 2 -    Pass -  -  -   1   -\n"
                                 " 3 14   4HX E  8  -500 -  -\n",
                                 0);
    assert_int_equal(g->table_line, 3);
    assert_int_equal(g->nrows, 3);
    const pbn_row *r = &g->rows[0];
    assert_int_equal(r->line, 5);
    assert_string_equal(r->pair_ns, "1");
    assert_string_equal(r->pair_ew, "12");
    assert_true(r->res.has_contract && !r->res.passed_out);
    assert_int_equal(r->res.contract.level, 3);
    assert_int_equal(r->res.contract.denom, 4); /* NT */
    assert_int_equal(r->res.declarer, SEAT_W);
    assert_int_equal(r->res.result, 9);
    assert_true(r->res.has_score);
    assert_int_equal(r->res.score_ns, -600);
    assert_true(r->has_mp[0] && !r->has_mp[1]);
    assert_true(r->mp[0] == 0.5);
    assert_int_equal(r->mp_decimals[0], 1);
    assert_string_equal(r->others, "Room=Open room");
    r = &g->rows[1];
    assert_true(r->res.passed_out);
    assert_string_equal(r->pair_ew, "");
    assert_int_equal(r->res.declarer, -1);
    assert_false(r->res.has_score);
    assert_null(r->others);
    r = &g->rows[2];
    assert_int_equal(r->res.doubling, 1);
    assert_int_equal(r->res.score_ns, 500);
}

/* Artificial scores in a ScoreTable (5.2: marked ^, or as programs write
 * them): the column's side first, one side's alone complemented (A+ and
 * A-, 60% and 40%), and the figures after ^ read as numbers. */
static void test_artificial_scores(void **state) {
    (void)state;
    const pbn_game *g = read_one("[Board \"1\"]\n"
                                 "[ScoreTable \"Contract;Score_NS;Score_EW;Percentage_NS\"]\n"
                                 "- A60A40 - ^60\n"
                                 "- ^A+ - -\n"
                                 "- - A35 -\n"
                                 "- - G= -\n"
                                 "A55/A45 - - -\n"
                                 "- 55% A40 -\n"
                                 "- AVE+ - -\n",
                                 0);
    assert_int_equal(g->nrows, 7);
    static const char *const want[7][2] = {{"60%", "40%"}, {"A+", "A-"},   {"65%", "35%"},
                                           {"G=", "G="},   {"55%", "45%"}, {"55%", "40%"},
                                           {"A+", "A-"}};
    for (int k = 0; k < 7; k++) {
        assert_string_equal(g->rows[k].adjusted[0], want[k][0]);
        assert_string_equal(g->rows[k].adjusted[1], want[k][1]);
        assert_false(g->rows[k].res.has_score);
    }
    assert_true(g->rows[0].has_pct[0] && g->rows[0].pct[0] == 60);
    g = read_one("[Board \"1\"]\n[ScoreTable \"Score_NS\"]\n420\nA101\n", 1);
    assert_string_equal(g->rows[0].adjusted[0], "");
    assert_true(g->rows[1].bad);
}

/* The event's ranking (5.8): a pair a row. */
static void test_total_score_table(void **state) {
    (void)state;
    const pbn_game *g =
        read_one("[Board \"1\"]\n"
                 "[TotalScoreTable "
                 "\"Rank\\2R;PairId;Direction;TotalScoreMP;TotalPercentage;NrBoards;Names\"]\n"
                 " 1 7 \"N-S\" 15,75 98.44 2 \"Ann Baker - Carl Dean\"\n"
                 " 2= 3 EW - ? - -\n",
                 0);
    assert_int_equal(g->ntotals, 2);
    const pbn_total *t = &g->totals[0];
    assert_int_equal(t->line, 3);
    assert_int_equal(t->rank, 1);
    assert_string_equal(t->pair, "7");
    assert_int_equal(t->direction, 0);
    assert_true(t->has_mp && t->mp == 15.75 && t->mp_decimals == 2);
    assert_true(t->has_pct && t->pct == 98.44);
    assert_int_equal(t->boards, 2);
    assert_string_equal(t->others, "Names=Ann Baker - Carl Dean");
    t = &g->totals[1];
    assert_int_equal(t->rank, 2);
    assert_int_equal(t->direction, 1);
    assert_false(t->has_mp || t->has_pct);
    assert_int_equal(t->boards, -1);
}

/* A row's mistake is the row's: the game and the other rows stay good,
 * and the row's result is what its good values gave. */
static void test_row_mistake_is_the_rows(void **state) {
    (void)state;
    const pbn_game *g = read_one("[Board \"1\"]\n[Vulnerable \"None\"]\n"
                                 "[ScoreTable \"Contract;Declarer;Result\"]\n"
                                 "4S N 14\n"
                                 "4S N 10\n",
                                 1);
    assert_false(g->bad);
    assert_int_equal(g->nrows, 2);
    assert_true(g->rows[0].bad);
    assert_int_equal(g->rows[0].res.result, -1);
    assert_false(g->rows[1].bad);
    assert_int_equal(g->rows[1].res.result, 10);
    assert_int_equal(g->res.declarer, -1); /* the game's own result is untouched */
}

/* The export's lexer on text with a NUL outside a tag's value (not the
 * text the file was read from: the reader refuses a NUL) stops with the
 * NUL's line instead of looping on it. */
static void test_export_stops_at_nul(void **state) {
    (void)state;
    char text[] = "[Board \"1\"][Dealer \"N\"]\n[Auction \"N\"]\n1S Pass\nPass Pass\n";
    read_one(text, 0);
    char *nul = strstr(text, "Pass\nPass") + 5;
    *nul = 0;
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    assert_false(pbn_export(text, sizeof text - 1, &f, "t.pbn", &out, &err));
    assert_string_equal(err.data,
                        "t.pbn:4:1: error: a NUL byte outside a tag's value: the file is not text");
    sb_free(&out);
    sb_free(&err);
}

/* A table's quoted value is one value however it is written (5.2): a
 * pair's names with two spaces, a bracket, a brace and a semicolon are
 * exported as they are, and the export reads back without a mistake (the
 * export's lexer took the [ for a tag, the { for a comment). */
static void test_export_keeps_a_quoted_table_value(void **state) {
    (void)state;
    const char *text = "[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n"
                       "[TotalScoreTable \"Rank\\2R;PairId\\2R;Names\\40L\"]\n"
                       " 1  1 \"Ann  [c] - Carl; {x} Dean\"\n"
                       " 2  4 \"Mia North - Ned Oak\"\n";
    read_one(text, 0);
    strbuf out, err;
    sb_init(&out);
    sb_init(&err);
    assert_true(pbn_export(text, strlen(text), &f, "t.pbn", &out, &err));
    assert_non_null(strstr(out.data, "1 1 \"Ann  [c] - Carl; {x} Dean\"\r\n"));
    assert_non_null(strstr(out.data, "2 4 \"Mia North - Ned Oak\"\r\n"));
    char *exported = sb_take(&out);
    read_one(exported, 0);
    free(exported);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tag_over_lines_and_crlf),
        cmocka_unit_test(test_export_keeps_a_quoted_table_value),
        cmocka_unit_test(test_result_and_score_by_side),
        cmocka_unit_test(test_inheritance),
        cmocka_unit_test(test_repeated_tag_ignored),
        cmocka_unit_test(test_notes),
        cmocka_unit_test(test_comment_keeps_the_game),
        cmocka_unit_test(test_play_checked_against_the_deal),
        cmocka_unit_test(test_commentary),
        cmocka_unit_test(test_score_table_rows_limited),
        cmocka_unit_test(test_score_table),
        cmocka_unit_test(test_row_mistake_is_the_rows),
        cmocka_unit_test(test_artificial_scores),
        cmocka_unit_test(test_total_score_table),
        cmocka_unit_test(test_export_stops_at_nul),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
