/* test_scoring.c — matchpoint sheets: the sorted count (n log n) gives the
 * same matchpoints as the plain count of every pair of scores it replaced,
 * on random sheets with many ties; and a sheet over SCORING_MAX_SCORES is
 * refused, by the library as by the command and the server.
 *
 * The reference below is the old algorithm, kept only here: for each score,
 * compare it with every other score of its board. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"
#include "scoring.h"

/* A fixed generator, so that a failure can be run again as it was. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int random_below(int n) {
    return (int)(next_random() % (uint64_t)n);
}

/* ---- the reference: every pair compared ---- */

static void reference_counts(const int64_t *scores, int n, int64_t *beaten, int64_t *equalled) {
    for (int i = 0; i < n; i++) {
        beaten[i] = equalled[i] = 0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            beaten[i] += scores[i] > scores[j];
            equalled[i] += scores[i] == scores[j];
        }
    }
}

/* The matchpoints of one board as the old scoring_matchpoints ruled them. */
static void reference_board(const ruleset *rs, const int64_t *scores, int n, int64_t *mp) {
    int64_t *beaten = calloc((size_t)n + 1, sizeof *beaten),
            *equalled = calloc((size_t)n + 1, sizeof *equalled);
    reference_counts(scores, n, beaten, equalled);
    strbuf err;
    sb_init(&err);
    for (int i = 0; i < n; i++) {
        scenario sc;
        scenario_init(&sc, rs);
        sc.rec.has_scoring = true;
        sc.rec.others = n - 1;
        sc.rec.beaten = beaten[i];
        sc.rec.equalled = equalled[i];
        ruling r = {0};
        assert_true(scenario_apply_record(&sc, &err));
        assert_true(scoring_rule(rs, rs->matchpoints_article, &sc, &r, &mp[i], &err));
        ruling_clear(&r);
        scenario_free(&sc);
    }
    sb_free(&err);
    free(beaten);
    free(equalled);
}

/* Each row's matchpoints against the other rows of its board, the boards
 * found by comparing every row with every other. */
static void reference_sheet(const ruleset *rs, const score_line *rows, int n, int64_t *mp) {
    int64_t *scores = malloc(sizeof *scores * (size_t)n),
            *board_mp = malloc(sizeof *board_mp * (size_t)n);
    int *index = malloc(sizeof *index * (size_t)n);
    for (int i = 0; i < n; i++) {
        int m = 0;
        for (int j = 0; j < n; j++)
            if (strcmp(rows[j].board, rows[i].board) == 0) {
                if (j == i) index[0] = m;
                scores[m++] = rows[j].score;
            }
        reference_board(rs, scores, m, board_mp);
        mp[i] = board_mp[index[0]];
    }
    free(scores);
    free(board_mp);
    free(index);
}

/* ---- the tests ---- */

/* Random boards of 0 to 300 scores: few distinct values (many ties), and
 * any 64-bit value (the extremes included). */
static void test_rank_counts_equal_the_pairwise_count(void **state) {
    (void)state;
    enum { MAX_N = 300 };
    int64_t scores[MAX_N], beaten[MAX_N], equalled[MAX_N], want_beaten[MAX_N], want_equalled[MAX_N];
    for (int trial = 0; trial < 2000; trial++) {
        int n = random_below(MAX_N + 1);
        int spread = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 40 : 0; /* 0: any value */
        for (int i = 0; i < n; i++) {
            if (spread)
                scores[i] = (random_below(spread) - spread / 2) * 10;
            else
                scores[i] = (int64_t)next_random();
            if (!spread && random_below(20) == 0)
                scores[i] = random_below(2) ? INT64_MAX : INT64_MIN;
        }
        assert_true(scoring_rank_counts(scores, n, beaten, equalled));
        reference_counts(scores, n, want_beaten, want_equalled);
        for (int i = 0; i < n; i++) {
            assert_int_equal(beaten[i], want_beaten[i]);
            assert_int_equal(equalled[i], want_equalled[i]);
        }
    }
}

/* Whole sheets of several boards, rows of a board scattered through the
 * sheet, ruled by the toy ruleset's scale and by bridge-2017's (78A). */
static void check_random_sheets(const char *ruleset_name) {
    ruleset *rs = arb_load(ruleset_name, stderr);
    assert_non_null(rs);
    for (int trial = 0; trial < 30; trial++) {
        int n = 1 + random_below(200), boards = 1 + random_below(12), spread = 2 + random_below(30);
        vec rows;
        vec_init(&rows, sizeof(score_line));
        for (int i = 0; i < n; i++) {
            score_line *row = vec_push(&rows);
            snprintf(row->board, sizeof row->board, "%d", 1 + random_below(boards));
            snprintf(row->pair, sizeof row->pair, "%d", i);
            row->score = (random_below(spread) - spread / 2) * 10;
            row->line = i + 1;
        }
        int64_t *want = malloc(sizeof *want * (size_t)n);
        reference_sheet(rs, rows.data, n, want);
        strbuf err;
        sb_init(&err);
        assert_true(scoring_matchpoint_lines(rs, NULL, &rows, &err));
        for (int i = 0; i < n; i++)
            assert_int_equal(VEC_AT(&rows, score_line, i).mp, want[i]);
        sb_free(&err);
        free(want);
        vec_free(&rows);
    }
    arb_free(rs);
}

static void test_sheets_equal_the_old_algorithm(void **state) {
    (void)state;
    check_random_sheets("tests/rules/toy");
    check_random_sheets("rulesets/bridge-2017");
}

/* The toy scale by hand: 2 per score beaten, 1 per score equalled. */
static void test_toy_scale_by_hand(void **state) {
    (void)state;
    ruleset *rs = arb_load("tests/rules/toy", stderr);
    assert_non_null(rs);
    const int64_t scores[] = {100, 50, 50, -10, 50};
    const int64_t want[] = {8, 4, 4, 0, 4};
    int64_t mp[5];
    strbuf err;
    sb_init(&err);
    assert_true(scoring_matchpoints(rs, NULL, scores, 5, mp, &err));
    for (int i = 0; i < 5; i++)
        assert_int_equal(mp[i], want[i]);
    sb_free(&err);
    arb_free(rs);
}

static void fill_sheet(vec *rows, int n) {
    vec_init(rows, sizeof(score_line));
    for (int i = 0; i < n; i++) {
        score_line *row = vec_push(rows);
        row->score = (i % 61 - 30) * 10;
        row->line = i + 1;
    }
}

/* SCORING_MAX_SCORES scores are matchpointed; one more is refused with a
 * message that says the cap, by both calls. */
static void test_sheet_over_the_cap_is_refused(void **state) {
    (void)state;
    ruleset *rs = arb_load("tests/rules/toy", stderr);
    assert_non_null(rs);
    vec rows;
    strbuf err;
    sb_init(&err);
    fill_sheet(&rows, SCORING_MAX_SCORES);
    assert_true(scoring_matchpoint_lines(rs, NULL, &rows, &err));
    vec_free(&rows);
    fill_sheet(&rows, SCORING_MAX_SCORES + 1);
    assert_false(scoring_matchpoint_lines(rs, NULL, &rows, &err));
    assert_non_null(strstr(err.data, "more than the 5000 one sheet may hold"));
    sb_free(&err);
    sb_init(&err);
    int64_t *scores = calloc(SCORING_MAX_SCORES + 1, sizeof *scores),
            *mp = calloc(SCORING_MAX_SCORES + 1, sizeof *mp);
    assert_false(scoring_matchpoints(rs, NULL, scores, SCORING_MAX_SCORES + 1, mp, &err));
    assert_non_null(strstr(err.data, "5000"));
    free(scores);
    free(mp);
    vec_free(&rows);
    sb_free(&err);
    arb_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_counts_equal_the_pairwise_count),
        cmocka_unit_test(test_sheets_equal_the_old_algorithm),
        cmocka_unit_test(test_toy_scale_by_hand),
        cmocka_unit_test(test_sheet_over_the_cap_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
