/* scoring.c — score, matchpoints and IMPs through the rule files. */
#include "scoring.h"

#include "output.h"

#include <string.h>

int scoring_article(const ruleset *rs, enum scoring_job job, strbuf *err) {
    static const char *const keys[] = {"score", "matchpoints", "imps"};
    int a = job == SCORE_CONTRACT ? rs->score_article : job == SCORE_MATCHPOINTS ? rs->matchpoints_article : rs->imps_article;
    if (a < 0) sb_printf(err, "ruleset %s names no article for this (header key `%s ARTICLE`)", rs->name, keys[job]);
    return a;
}

static int64_t sum_points(const ruleset *rs, const ruling *r) {
    int64_t total = 0;
    for (int i = 0; i < r->nactions; i++) {
        const rs_action *a = &rs->actions[rs_use_at(rs, r->actions[i].use)->action];
        for (int p = 0; p < a->nparams; p++)
            if (a->params[p].type->kind == TY_INT && strcmp(a->params[p].name, "points") == 0)
                total += r->actions[i].args[p];
    }
    return total;
}

bool scoring_rule(const ruleset *rs, int article, scenario *sc, ruling *r, int64_t *total, strbuf *err) {
    eval_rule(rs, rs->articles[article].root, &sc->fv, r);
    if (r->status != RULING_OK) {
        output_problem(r, err);
        return false;
    }
    *total = sum_points(rs, r);
    return true;
}

bool scoring_matchpoints(const ruleset *rs, const int64_t *scores, int n, int64_t *mp, strbuf *err) {
    int article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    if (article < 0) return false;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        scenario sc;
        scenario_init(&sc, rs);
        sc.rec.has_scoring = true;
        sc.rec.others = n - 1;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            sc.rec.beaten += scores[i] > scores[j];
            sc.rec.equalled += scores[i] == scores[j];
        }
        ruling r = {0};
        ok = scenario_apply_record(&sc, err) && scoring_rule(rs, article, &sc, &r, &mp[i], err);
        ruling_clear(&r);
        scenario_free(&sc);
    }
    return ok;
}
