/* scoring.c — score, matchpoints and IMPs through the rule files. */
#include "scoring.h"

#include "output.h"

#include <stdio.h>

#include <string.h>

int scoring_article(const ruleset *rs, enum scoring_job job, strbuf *err) {
    static const char *const keys[] = {"score", "matchpoints", "imps", "legal", "trick"};
    const int articles[] = {rs->score_article, rs->matchpoints_article, rs->imps_article, rs->legal_article,
                            rs->trick_article};
    int a = articles[job];
    if (a < 0) sb_printf(err, "ruleset %s names no article for this (header key `%s ARTICLE`)", rs->name, keys[job]);
    return a;
}

/* The parameter of an action with this name and kind; -1 when none. */
static int param_index(const rs_action *a, const char *name, enum type_kind kind) {
    for (int p = 0; p < a->nparams; p++)
        if (a->params[p].type->kind == kind && strcmp(a->params[p].name, name) == 0) return p;
    return -1;
}

/* The side an enum value names; -1 for a value that names neither. */
static int side_named(const rs_type *t, int64_t v) {
    static const char *const sides[] = {[KJ_TAKERS] = "takers", [KJ_DEFENDERS] = "defenders"};
    for (int s = 0; v >= 0 && v < t->nvalues && s < 2; s++)
        if (strcmp(t->values[v], sides[s]) == 0) return s;
    return -1;
}

/* Sums are checked like the rule language's arithmetic: an overflow is an
 * error, never a wrong score. */
static bool add_points(int64_t *sum, int64_t points, strbuf *err) {
    if (!__builtin_add_overflow(*sum, points, sum)) return true;
    sb_puts(err, "the points overflow a 64-bit sum");
    return false;
}

static bool sum_action(const ruleset *rs, const ruling_action *ra, point_sums *sums, strbuf *err) {
    const rs_action *a = &rs->actions[rs_use_at(rs, ra->use)->action];
    int points = param_index(a, "points", TY_INT), side = param_index(a, "side", TY_ENUM);
    int roem = param_index(a, "roem", TY_BOOL);
    if (points < 0) return true;
    if (!add_points(&sums->total, ra->args[points], err)) return false;
    int s = side >= 0 ? side_named(a->params[side].type, ra->args[side]) : -1;
    if (s < 0) return true; /* bridge: no sides */
    if (!add_points(&sums->side[s], ra->args[points], err)) return false;
    return roem < 0 || !ra->args[roem] || add_points(&sums->roem[s], ra->args[points], err);
}

/* An action a plugin added: its points and side from its arguments. */
static bool sum_extra(const ruling_extra *e, point_sums *sums, strbuf *err) {
    json_t *args = json_loads(e->args, 0, NULL), *points = json_object_get(args, "points");
    json_t *side = json_object_get(args, "side"), *roem = json_object_get(args, "roem");
    bool ok = true;
    if (json_is_integer(points)) {
        int64_t v = json_integer_value(points);
        int s = !json_is_string(side) ? -1 : strcmp(json_string_value(side), "takers") == 0 ? 0
                                            : strcmp(json_string_value(side), "defenders") == 0 ? 1 : -1;
        ok = add_points(&sums->total, v, err) && (s < 0 || add_points(&sums->side[s], v, err)) &&
             (s < 0 || !json_is_true(roem) || add_points(&sums->roem[s], v, err));
    }
    json_decref(args);
    return ok;
}

bool scoring_rule_sides(const ruleset *rs, int article, scenario *sc, ruling *r, point_sums *sums, strbuf *err) {
    memset(sums, 0, sizeof *sums);
    if (!scenario_rule(rs, rs->articles[article].root, sc, r, err)) return false;
    if (r->status != RULING_OK) {
        output_problem(r, err);
        return false;
    }
    for (int i = 0; !r->replaced && i < r->nactions; i++)
        if (!r->actions[i].dropped && !sum_action(rs, &r->actions[i], sums, err)) return false;
    for (int i = 0; i < r->nextra; i++)
        if (!sum_extra(&r->extra[i], sums, err)) return false;
    return true;
}

bool scoring_rule(const ruleset *rs, int article, scenario *sc, ruling *r, int64_t *total, strbuf *err) {
    point_sums sums;
    if (!scoring_rule_sides(rs, article, sc, r, &sums, err)) return false;
    *total = sums.total;
    return true;
}

bool scoring_matchpoints(const ruleset *rs, const scenario_hooks *hooks, const int64_t *scores, int n, int64_t *mp,
                         strbuf *err) {
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
        sc.hooks = hooks;
        ok = scenario_apply_record(&sc, err) && scoring_rule(rs, article, &sc, &r, &mp[i], err) &&
             (!hooks || !hooks->adjust_matchpoints ||
              hooks->adjust_matchpoints(hooks->ctx, sc.rec.beaten, sc.rec.equalled, sc.rec.others, &mp[i], err));
        ruling_clear(&r);
        scenario_free(&sc);
    }
    return ok;
}

/* ---- klaverjas ---- */

/* Which of `legal` and `illegal` a ruling on one card names. */
static bool card_verdict(const ruleset *rs, const ruling *r, bool *legal, strbuf *err) {
    bool said_legal = false, said_illegal = false;
    for (int i = 0; i < r->nactions + r->nextra; i++) {
        if (i < r->nactions && (r->replaced || r->actions[i].dropped)) continue; /* a plugin took it out */
        const char *name = i < r->nactions ? rs->actions[rs_use_at(rs, r->actions[i].use)->action].name
                                           : r->extra[i - r->nactions].name;
        said_legal = said_legal || strcmp(name, "legal") == 0;
        said_illegal = said_illegal || strcmp(name, "illegal") == 0;
    }
    if (said_legal != said_illegal) {
        *legal = said_legal;
        return true;
    }
    sb_printf(err, "the legal article's ruling names %s of the actions `legal` and `illegal`", said_legal ? "both" : "neither");
    return false;
}

/* The facts of one klaverjas record replace the last one's. */
static bool settle_record(scenario *sc, strbuf *err) {
    scenario_forget_record(sc);
    return scenario_apply_record(sc, err);
}

bool scoring_rule_card(const ruleset *rs, int article, scenario *sc, kj_card c, ruling *r, bool *legal, strbuf *err) {
    record *rec = &sc->rec;
    memset(r, 0, sizeof *r);
    kj_settle_position(&rec->kj_position_record, &rec->kj_tables, &rec->kj_position);
    kj_settle_card(&rec->kj_position_record, c, &rec->kj_tables, &rec->kj_card);
    rec->has_kj_position = rec->has_kj_card = true;
    if (!settle_record(sc, err)) return false;
    if (!scenario_rule(rs, rs->articles[article].root, sc, r, err)) return false;
    if (r->status == RULING_OK) return card_verdict(rs, r, legal, err);
    output_problem(r, err);
    return false;
}

/* Runs a step whose error message is prefixed with where it happened. */
static bool with_context(bool ok, const char *where, strbuf *why, strbuf *err) {
    if (!ok) sb_printf(err, "%s: %s", where, why->data ? why->data : "failed");
    sb_free(why);
    return ok;
}

static bool rule_tricks(const ruleset *rs, int article, scenario *sc, kj_hand_score *out, strbuf *err) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    for (int t = 0; t < h->ntricks; t++) {
        kj_trick_ruling *tr = &out->tricks[t];
        char where[32];
        strbuf why;
        sb_init(&why);
        snprintf(where, sizeof where, "trick %d", t + 1);
        kj_settle_trick(h, t, &sc->rec.kj_tables, &tr->facts);
        sc->rec.kj_trick = tr->facts;
        sc->rec.has_kj_trick = true;
        out->ntricks = t + 1;
        bool ok = settle_record(sc, &why) && scoring_rule_sides(rs, article, sc, &tr->r, &tr->sums, &why);
        if (!ok) out->failed = tr->r.status;
        for (int s = 0; ok && s < 2; s++)
            ok = add_points(&out->hand.points[s], tr->sums.side[s], &why) &&
                 add_points(&out->hand.roem[s], tr->sums.roem[s], &why);
        if (!with_context(ok, where, &why, err)) return false;
    }
    sc->rec.has_kj_trick = false;
    return true;
}

static bool every_hand_known(const kj_hand *h) {
    return h->known[SEAT_N] && h->known[SEAT_E] && h->known[SEAT_S] && h->known[SEAT_W];
}

/* Rules on card i of trick t with the position its player was in; false
 * (with err) when no verdict could be had. Skips a player whose hand is
 * not known: *ruled is then false. */
static bool rule_played_card(const ruleset *rs, int article, scenario *sc, int t, int i, ruling *r, bool *legal,
                             bool *ruled, strbuf *err) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    char where[48], card[8];
    strbuf why;
    *ruled = kj_position_before(h, t, i, &sc->rec.kj_position_record);
    if (!*ruled) return true;
    sb_init(&why);
    kj_format_card(h->tricks[t].cards[i], card);
    snprintf(where, sizeof where, "trick %d, %s's %s", t + 1, bridge_seat_name(kj_trick_seat(&h->tricks[t], i)), card);
    return with_context(scoring_rule_card(rs, article, sc, h->tricks[t].cards[i], r, legal, &why), where, &why, err);
}

/* hand.revoke_by: the first card played that the legal article calls
 * illegal names the offending side. Without it, "no revoke" needs every
 * hand, as a card from an unknown hand may have been one. */
static bool find_revoke(const ruleset *rs, scenario *sc, kj_hand_score *out, strbuf *err) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    int article = rs->legal_article;
    for (int t = 0; article >= 0 && t < h->ntricks; t++) {
        for (int i = 0; i < KJ_TRICK_SIZE; i++) {
            bool legal = true, ruled = false;
            if (!rule_played_card(rs, article, sc, t, i, &out->revoke, &legal, &ruled, err)) {
                out->failed = out->revoke.status;
                return false;
            }
            if (ruled && !legal) {
                out->revoke_trick = t;
                out->revoke_card = i;
                out->hand.revoke_settled = true;
                enum kj_side side = kj_side_of(kj_trick_seat(&h->tricks[t], i), h->taker);
                out->hand.revoke_by = side == KJ_TAKERS ? KJ_REVOKE_TAKERS : KJ_REVOKE_DEFENDERS;
                return true;
            }
            ruling_clear(&out->revoke);
            memset(&out->revoke, 0, sizeof out->revoke);
        }
    }
    out->hand.revoke_settled = article >= 0 && every_hand_known(h);
    out->hand.revoke_by = KJ_REVOKE_NONE;
    return true;
}

static bool rule_hand(const ruleset *rs, int article, scenario *sc, kj_hand_score *out, strbuf *err) {
    strbuf why;
    sb_init(&why);
    sc->rec.has_kj_position = sc->rec.has_kj_card = sc->rec.has_kj_trick = false;
    sc->rec.kj_hand = out->hand;
    sc->rec.has_kj_hand = true;
    out->scored = true;
    bool ok = settle_record(sc, &why) && scoring_rule_sides(rs, article, sc, &out->score, &out->score_sums, &why);
    if (!ok) out->failed = out->score.status;
    return with_context(ok, "the hand", &why, err);
}

bool scoring_klaverjas_hand(const ruleset *rs, scenario *sc, kj_hand_score *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->revoke_trick = out->revoke_card = -1;
    out->failed = RULING_OK;
    if (!sc->rec.has_kj_hand_record) {
        sb_puts(err, "no hand to score: give \"trump\", \"taker\" and \"tricks\"");
        return false;
    }
    int trick_article = scoring_article(rs, SCORE_TRICK, err);
    int score_article = trick_article < 0 ? -1 : scoring_article(rs, SCORE_CONTRACT, err);
    if (score_article < 0) return false;
    kj_count_tricks(&sc->rec.kj_hand_record, &sc->rec.kj_tables, &out->hand);
    return rule_tricks(rs, trick_article, sc, out, err) && find_revoke(rs, sc, out, err) &&
           rule_hand(rs, score_article, sc, out, err);
}

void kj_hand_score_clear(kj_hand_score *s) {
    for (int t = 0; t < s->ntricks; t++)
        ruling_clear(&s->tricks[t].r);
    ruling_clear(&s->revoke);
    ruling_clear(&s->score);
    memset(s, 0, sizeof *s);
}
