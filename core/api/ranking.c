/* api/ranking.c — the ranking of a matchpoint sheet (arbiter.h, "A
 * ranking"): each pair's matchpoints over its boards, the tops the
 * matchpoints article named (klaverjas: action `top`, 2deel19c) and the
 * points it scored; sorted by matchpoints, and two pairs with as many
 * ranked by the ruleset's ranking article (header key `ranking`;
 * klaverjas-nkf-1976: 2deel19a, the tops, then the points, else ex aequo). */
#include "arbiter.h"
#include "protect.h"

#include "plugin.h"
#include "scoring.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair_result {
    char pair[32];
    int boards;
    int64_t matchpoints, tops, points;
    char tie[24]; /* the article that broke its tie with the pair above or below */
} pair_result;

static int pair_index(vec *pairs, const char *pair) {
    for (int i = 0; i < (int)pairs->len; i++)
        if (strcmp(VEC_AT(pairs, pair_result, i).pair, pair) == 0) return i;
    pair_result *p = vec_push(pairs);
    snprintf(p->pair, sizeof p->pair, "%s", pair);
    return (int)pairs->len - 1;
}

/* Every board of the sheet matchpointed, each score's tops counted from
 * the ruling, into the pairs' totals. */
static bool total_sheet(const ruleset *rs, const scenario_hooks *hooks, vec *rows, vec *pairs,
                        strbuf *err) {
    int article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    int n = (int)rows->len;
    int64_t *scores = xmalloc(sizeof *scores * (size_t)(n ? n : 1)),
            *beaten = xmalloc(sizeof *beaten * (size_t)(n ? n : 1));
    int64_t *equalled = xmalloc(sizeof *equalled * (size_t)(n ? n : 1));
    int *idx = xmalloc(sizeof *idx * (size_t)(n ? n : 1));
    int *board = xmalloc(sizeof *board * (size_t)(n ? n : 1)),
        *next = xmalloc(sizeof *next * (size_t)(n ? n : 1));
    vec_group_by_name(rows, offsetof(score_line, board), board, NULL, next);
    bool ok = article >= 0;
    for (int i = 0; ok && i < n; i++) {
        if (board[i] != i) continue; /* a board, at its first row */
        int count = 0;
        const score_line *first = &VEC_AT(rows, score_line, i);
        if (!first->pair[0]) {
            sb_printf(err, "line %d: a ranking needs board,pair,score lines", first->line);
            ok = false;
            break;
        }
        for (int j = i; j >= 0; j = next[j]) {
            idx[count] = j;
            scores[count++] = VEC_AT(rows, score_line, j).score;
        }
        ok = scoring_rank_counts(scores, count, beaten, equalled);
        for (int k = 0; ok && k < count; k++) {
            const score_line *row = &VEC_AT(rows, score_line, idx[k]);
            int64_t mp;
            bool top = false;
            ok = scoring_matchpoints_naming(rs, hooks, article, beaten[k], equalled[k], count - 1,
                                            &mp, "top", &top, err);
            int at = pair_index(pairs, row->pair);
            pair_result *p = &VEC_AT(pairs, pair_result, at);
            p->boards++;
            p->matchpoints += mp;
            p->tops += top;
            p->points += row->score;
        }
    }
    xfree(scores);
    xfree(beaten);
    xfree(equalled);
    xfree(idx);
    xfree(board);
    xfree(next);
    return ok;
}

/* How the ranking article orders pair a before b: -1 a first, 1 b first,
 * 0 ex aequo; *cited the last step of the ruling's trail. */
static bool rule_tie(const ruleset *rs, const scenario_hooks *hooks, int article,
                     const pair_result *a, const pair_result *b, int *order, char *cited,
                     size_t citedsz, strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    sc.rec.has_ranking = true;
    sc.rec.tops[0] = a->tops;
    sc.rec.tops[1] = b->tops;
    sc.rec.more_points = a->points > b->points ? 0 : a->points < b->points ? 1 : 2;
    ruling r = {0};
    int64_t unused;
    bool ok = scenario_apply_record(&sc, err) && scoring_rule(rs, article, &sc, &r, &unused, err);
    *order = 0;
    cited[0] = 0;
    for (int i = 0; ok && i < r.nactions; i++) {
        const rs_action *act = &rs->actions[rs_use_at(rs, r.actions[i].use)->action];
        if (r.replaced || r.actions[i].dropped || strcmp(act->name, "ranking_winner") != 0 ||
            act->nparams < 1)
            continue;
        const rs_type *t = act->params[0].type;
        int64_t v = r.actions[i].args[0];
        const char *who = t->kind == TY_ENUM && v >= 0 && v < t->nvalues ? t->values[v] : "";
        *order = strcmp(who, "pair_a") == 0 ? -1 : strcmp(who, "pair_b") == 0 ? 1 : 0;
    }
    const char *trail[16];
    int n = ok ? ruling_trail(&r, trail, 16) : 0;
    if (n > 0) snprintf(cited, citedsz, "%s", trail[n < 16 ? n - 1 : 15]);
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

static int by_matchpoints(const void *x, const void *y) {
    const pair_result *a = x, *b = y;
    if (a->matchpoints != b->matchpoints) return a->matchpoints < b->matchpoints ? 1 : -1;
    return strcmp(a->pair, b->pair);
}

/* The pairs of one run of equal matchpoints put in the article's order
 * (insertion sort with the article as comparison); places shared where
 * it says ex aequo. */
static bool order_tie(const ruleset *rs, const scenario_hooks *hooks, int article, pair_result *run,
                      int n, int *place, int first_place, strbuf *err) {
    char why[24];
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0; j--) {
            int order;
            if (!rule_tie(rs, hooks, article, &run[j - 1], &run[j], &order, why, sizeof why, err))
                return false;
            if (order <= 0) break;
            pair_result t = run[j - 1];
            run[j - 1] = run[j];
            run[j] = t;
        }
    }
    place[0] = first_place;
    for (int i = 1; i < n; i++) {
        int order;
        if (!rule_tie(rs, hooks, article, &run[i - 1], &run[i], &order, run[i].tie,
                      sizeof run[i].tie, err))
            return false;
        if (i == 1) snprintf(run[0].tie, sizeof run[0].tie, "%s", run[1].tie);
        place[i] = order == 0 ? place[i - 1] : first_place + i;
    }
    /* Pairs sharing a place carry the clause that made them equal: the
     * first of them carried the one that put it below the pair before
     * (A 3= "2deel19c" beside C 3= "2deel19d"). */
    for (int i = 1; i + 1 < n; i++)
        if (place[i] == place[i + 1] && place[i - 1] != place[i])
            memcpy(run[i].tie, run[i + 1].tie, sizeof run[i].tie); /* both end in a NUL */
    return true;
}

static json_t *ranking_json(const pair_result *pairs, const int *place, int n) {
    json_t *all = json_array();
    for (int i = 0; i < n; i++) {
        bool shared =
            (i > 0 && place[i - 1] == place[i]) || (i + 1 < n && place[i + 1] == place[i]);
        char text[16];
        snprintf(text, sizeof text, "%d%s", place[i], shared ? "=" : "");
        json_t *j =
            json_pack("{sisssssisIsIsI}", "rank", place[i], "place", text, "pair", pairs[i].pair,
                      "boards", pairs[i].boards, "matchpoints", (json_int_t)pairs[i].matchpoints,
                      "tops", (json_int_t)pairs[i].tops, "points", (json_int_t)pairs[i].points);
        if (pairs[i].tie[0]) json_object_set_new(j, "tie_broken_by", json_string(pairs[i].tie));
        json_array_append_new(all, j);
    }
    return all;
}

static enum arb_status ranking_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                const char *sheet, size_t len, char **json,
                                                char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!rs || !sheet) {
        if (error) *error = xstrdup("arb_ranking_json: no ruleset or no sheet");
        return ARB_BAD_INPUT;
    }
    const scenario_hooks *hooks = p ? plugin_set_hooks(p) : NULL;
    vec rows, pairs;
    vec_init(&rows, sizeof(score_line));
    vec_init(&pairs, sizeof(pair_result));
    strbuf err;
    sb_init(&err);
    int article = -1;
    bool ok = scoring_parse_sheet(sheet, len, &rows, &err);
    for (int i = 0; ok && i < (int)rows.len; i++)
        if (VEC_AT(&rows, score_line, i).entry.kind != ENTRY_SCORE) {
            sb_printf(&err, "line %d: a ranking counts scores as played, not adjusted ones",
                      VEC_AT(&rows, score_line, i).line);
            ok = false;
        }
    ok = ok && (article = scoring_article(rs, SCORE_RANKING, &err)) >= 0 &&
         total_sheet(rs, hooks, &rows, &pairs, &err);
    int n = (int)pairs.len;
    int *place = xcalloc((size_t)(n ? n : 1), sizeof *place);
    if (ok && !place) {
        sb_puts(&err, "out of memory");
        ok = false;
    }
    pair_result *all = pairs.data;
    if (ok && n > 1) qsort(all, (size_t)n, sizeof *all, by_matchpoints);
    for (int i = 0; ok && i < n;) {
        int run = 1;
        while (i + run < n && all[i + run].matchpoints == all[i].matchpoints)
            run++;
        ok = order_tie(rs, hooks, article, all + i, run, place + i, i + 1, &err);
        i += run;
    }
    if (ok && json) {
        json_t *j = ranking_json(all, place, n);
        *json = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(j);
    }
    if (!ok && error) *error = xstrdup(err.data ? err.data : "no answer");
    xfree(place);
    sb_free(&err);
    vec_free(&rows);
    vec_free(&pairs);
    return ok ? ARB_OK : ARB_BAD_INPUT;
}

enum arb_status arb_ranking_json(const arb_ruleset *rs, const arb_plugins *p, const char *sheet,
                                 size_t len, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error, ranking_json_unprotected(rs, p, sheet, len, json, error));
}
