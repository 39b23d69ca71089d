/* scoring.c — score, matchpoints and IMPs through the rule files. */
#include "scoring.h"

#include "builtins.h"
#include "csvline.h"
#include "output.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The header keys that name the jobs' articles, by enum scoring_job. */
static const char *const job_keys[] = {"score", "matchpoints", "imps",    "legal",
                                       "trick", "adjusted",    "ranking", "total"};

int scoring_job_named(const char *key) {
    for (int j = 0; j < (int)(sizeof job_keys / sizeof *job_keys); j++)
        if (strcmp(key, job_keys[j]) == 0) return j;
    return -1;
}

int scoring_article(const ruleset *rs, enum scoring_job job, strbuf *err) {
    const int articles[] = {rs->score_article,   rs->matchpoints_article, rs->imps_article,
                            rs->legal_article,   rs->trick_article,       rs->adjusted_article,
                            rs->ranking_article, rs->total_article};
    int a = articles[job];
    if (a < 0)
        sb_printf(err, "ruleset %s names no article for this (header key `%s ARTICLE`)", rs->name,
                  job_keys[job]);
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
        int s = !json_is_string(side)                               ? -1
                : strcmp(json_string_value(side), "takers") == 0    ? 0
                : strcmp(json_string_value(side), "defenders") == 0 ? 1
                                                                    : -1;
        ok = add_points(&sums->total, v, err) && (s < 0 || add_points(&sums->side[s], v, err)) &&
             (s < 0 || !json_is_true(roem) || add_points(&sums->roem[s], v, err));
    }
    json_decref(args);
    return ok;
}

bool scoring_rule_sides(const ruleset *rs, int article, scenario *sc, ruling *r, point_sums *sums,
                        strbuf *err) {
    memset(sums, 0, sizeof *sums);
    if (!scenario_rule(rs, rs->articles[article].root, sc, r, err)) return false;
    if (r->status != RULING_OK) {
        ruling_problem(r, err);
        return false;
    }
    for (int i = 0; !r->replaced && i < r->nactions; i++)
        if (!r->actions[i].dropped && !sum_action(rs, &r->actions[i], sums, err)) return false;
    for (int i = 0; i < r->nextra; i++)
        if (!sum_extra(&r->extra[i], sums, err)) return false;
    return true;
}

bool scoring_rule(const ruleset *rs, int article, scenario *sc, ruling *r, int64_t *total,
                  strbuf *err) {
    point_sums sums;
    if (!scoring_rule_sides(rs, article, sc, r, &sums, err)) return false;
    *total = sums.total;
    return true;
}

static int compare_scores(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* How many of the n sorted scores are below v: the first index whose score
 * is at least v (a binary search). */
static int scores_below(const int64_t *sorted, int n, int64_t v) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool scoring_rank_counts(const int64_t *scores, int n, int64_t *beaten, int64_t *equalled) {
    int64_t *sorted = n > 0 ? xmalloc(sizeof *sorted * (size_t)n) : NULL;
    if (n > 0 && !sorted) return false;
    if (n > 0) memcpy(sorted, scores, sizeof *sorted * (size_t)n);
    if (n > 1) qsort(sorted, (size_t)n, sizeof *sorted, compare_scores);
    for (int i = 0; i < n; i++) {
        int below = scores_below(sorted, n, scores[i]);
        int not_above = scores[i] == INT64_MAX ? n : scores_below(sorted, n, scores[i] + 1);
        beaten[i] = below;
        equalled[i] = not_above - below - 1; /* the score itself is not a tie with itself */
    }
    xfree(sorted);
    return true;
}

/* The cap of a sheet (SCORING_MAX_SCORES): true, with the message, past it. */
static bool too_many_scores(int n, strbuf *err) {
    if (n <= SCORING_MAX_SCORES) return false;
    sb_printf(err,
              "%d scores, more than the %d one sheet may hold: matchpoint it in parts, a board's "
              "scores together",
              n, SCORING_MAX_SCORES);
    return true;
}

/* Whether the ruling names an action of this name (not one a plugin took out). */
static bool ruling_names(const ruleset *rs, const ruling *r, const char *name) {
    for (int i = 0; !r->replaced && i < r->nactions; i++)
        if (!r->actions[i].dropped &&
            strcmp(rs->actions[rs_use_at(rs, r->actions[i].use)->action].name, name) == 0)
            return true;
    for (int i = 0; i < r->nextra; i++)
        if (strcmp(r->extra[i].name, name) == 0) return true;
    return false;
}

/* The matchpoints article's ruling on one score; besides the matchpoints,
 * whether it names `action` (named, unless NULL) and its trail (appended
 * to cited, unless NULL). */
static bool matchpoints_ruled(const ruleset *rs, const scenario_hooks *hooks, int article,
                              int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                              const char *action, bool *named, char *cited, size_t citedsz,
                              strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.rec.has_scoring = true;
    sc.rec.others = others;
    sc.rec.beaten = beaten;
    sc.rec.equalled = equalled;
    ruling r = {0};
    sc.hooks = hooks;
    bool ok = scenario_apply_record(&sc, err) && scoring_rule(rs, article, &sc, &r, mp, err) &&
              (!hooks || !hooks->adjust_matchpoints ||
               hooks->adjust_matchpoints(hooks->ctx, beaten, equalled, others, mp, err));
    if (ok && named) *named = ruling_names(rs, &r, action);
    if (ok && cited) scoring_cite_ruling(&r, cited, citedsz);
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

bool scoring_matchpoints_of(const ruleset *rs, const scenario_hooks *hooks, int article,
                            int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                            strbuf *err) {
    return matchpoints_ruled(rs, hooks, article, beaten, equalled, others, mp, NULL, NULL, NULL, 0,
                             err);
}

bool scoring_matchpoints_naming(const ruleset *rs, const scenario_hooks *hooks, int article,
                                int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                                const char *action, bool *named, strbuf *err) {
    return matchpoints_ruled(rs, hooks, article, beaten, equalled, others, mp, action, named, NULL,
                             0, err);
}

bool scoring_matchpoints_cited(const ruleset *rs, const scenario_hooks *hooks, int article,
                               int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                               char *cited, size_t citedsz, strbuf *err) {
    return matchpoints_ruled(rs, hooks, article, beaten, equalled, others, mp, NULL, NULL, cited,
                             citedsz, err);
}

/* scoring_matchpoints, and where cited is not NULL each score's ruling's
 * trail in cited[i] (SCORING_CITED bytes). */
static bool board_matchpoints(const ruleset *rs, const scenario_hooks *hooks, const int64_t *scores,
                              int n, int64_t *mp, char *const *cited, strbuf *err) {
    int article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    if (article < 0) return false;
    if (too_many_scores(n, err)) return false;
    int64_t *beaten = xmalloc(sizeof *beaten * (size_t)(n > 0 ? n : 1));
    int64_t *equalled = xmalloc(sizeof *equalled * (size_t)(n > 0 ? n : 1));
    bool ok = beaten && equalled && scoring_rank_counts(scores, n, beaten, equalled);
    if (!ok) sb_puts(err, "out of memory");
    for (int i = 0; i < n && ok; i++)
        ok = matchpoints_ruled(rs, hooks, article, beaten[i], equalled[i], n - 1, &mp[i], NULL,
                               NULL, cited ? cited[i] : NULL, SCORING_CITED, err);
    xfree(beaten);
    xfree(equalled);
    return ok;
}

bool scoring_matchpoints(const ruleset *rs, const scenario_hooks *hooks, const int64_t *scores,
                         int n, int64_t *mp, strbuf *err) {
    return board_matchpoints(rs, hooks, scores, n, mp, NULL, err);
}

/* ---- klaverjas ---- */

/* Which of `legal` and `illegal` a ruling on one card names. */
static bool card_verdict(const ruleset *rs, const ruling *r, bool *legal, strbuf *err) {
    bool said_legal = false, said_illegal = false;
    for (int i = 0; i < r->nactions + r->nextra; i++) {
        if (i < r->nactions && (r->replaced || r->actions[i].dropped))
            continue; /* a plugin took it out */
        const char *name = i < r->nactions
                               ? rs->actions[rs_use_at(rs, r->actions[i].use)->action].name
                               : r->extra[i - r->nactions].name;
        said_legal = said_legal || strcmp(name, "legal") == 0;
        said_illegal = said_illegal || strcmp(name, "illegal") == 0;
    }
    if (said_legal != said_illegal) {
        *legal = said_legal;
        return true;
    }
    sb_printf(err, "the legal article's ruling names %s of the actions `legal` and `illegal`",
              said_legal ? "both" : "neither");
    return false;
}

/* The facts of one klaverjas record replace the last one's. */
static bool settle_record(scenario *sc, strbuf *err) {
    scenario_forget_record(sc);
    return scenario_apply_record(sc, err);
}

/* Rules with the legal article on the card whose facts are in sc. */
static bool rule_card_once(const ruleset *rs, int article, scenario *sc, ruling *r, bool *legal,
                           strbuf *err) {
    record *rec = &sc->rec;
    memset(r, 0, sizeof *r);
    rec->has_kj_position = rec->has_kj_card = true;
    if (!settle_record(sc, err)) return false;
    if (!scenario_rule(rs, rs->articles[article].root, sc, r, err)) return false;
    if (r->status == RULING_OK) return card_verdict(rs, r, legal, err);
    ruling_problem(r, err);
    return false;
}

/* position.penalty_card_case: the penalty card is his last card of the
 * suit led, or the legal article, ruling on it as on any card (the
 * position without a penalty card), calls it legal or illegal. What a
 * penalty card changes for the other cards is the rule files' to say. */
static bool settle_penalty_case(const ruleset *rs, int article, scenario *sc, ruling *failed,
                                strbuf *err) {
    record *rec = &sc->rec;
    kj_position_facts *pf = &rec->kj_position;
    if (!pf->has_penalty_card || pf->penalty_last_of_suit) {
        pf->penalty_case = pf->has_penalty_card ? KJ_PENALTY_LAST_OF_SUIT : KJ_PENALTY_UNKNOWN;
        return true;
    }
    pf->has_penalty_card = false;
    kj_settle_card(&rec->kj_position_record, rec->kj_position_record.penalty_card, &rec->kj_tables,
                   &rec->kj_card);
    rec->kj_card.is_penalty_card = false;
    ruling r;
    bool legal = false;
    strbuf why;
    sb_init(&why);
    bool ok = rule_card_once(rs, article, sc, &r, &legal, &why);
    if (ok)
        ruling_clear(&r);
    else
        *failed = r; /* what it needs, or why it failed, is the caller's to read */
    pf->has_penalty_card = true;
    pf->penalty_case = legal ? KJ_PENALTY_ALLOWED : KJ_PENALTY_NOT_ALLOWED;
    if (!ok) sb_printf(err, "the penalty card as any card: %s", why.data ? why.data : "no ruling");
    sb_free(&why);
    return ok;
}

static bool same_card(kj_card a, kj_card b) {
    return kj_card_index(a) == kj_card_index(b);
}

/* The legal article's verdict on card c as on any card: in the position
 * without a penalty card, the penalty card still in the hand or (out_of_hand)
 * taken out of it. The scenario's position is put back after. */
static bool legal_as_any_card(const ruleset *rs, int article, scenario *sc, kj_card c,
                              bool out_of_hand, bool *legal, ruling *failed, strbuf *err) {
    record *rec = &sc->rec;
    kj_position with = rec->kj_position_record, as_any = with;
    kj_position_facts facts = rec->kj_position;
    as_any.has_penalty_card = false;
    as_any.ncards = 0;
    for (int i = 0; i < with.ncards; i++)
        if (!out_of_hand || !same_card(with.hand[i], with.penalty_card))
            as_any.hand[as_any.ncards++] = with.hand[i];
    rec->kj_position_record = as_any;
    kj_settle_position(&as_any, &rec->kj_tables, &rec->kj_position);
    kj_settle_card(&as_any, c, &rec->kj_tables, &rec->kj_card);
    ruling r;
    bool ok = rule_card_once(rs, article, sc, &r, legal, err);
    if (ok)
        ruling_clear(&r);
    else
        *failed = r;
    rec->kj_position_record = with;
    rec->kj_position = facts;
    return ok;
}

/* position.other_card_allowed: a card of the hand other than the penalty
 * card is legal in the position without it. */
static bool settle_other_cards(const ruleset *rs, int article, scenario *sc, ruling *failed,
                               strbuf *err) {
    kj_position p = sc->rec.kj_position_record;
    bool allowed = false;
    for (int i = 0; i < p.ncards && !allowed; i++) {
        if (same_card(p.hand[i], p.penalty_card)) continue;
        if (!legal_as_any_card(rs, article, sc, p.hand[i], true, &allowed, failed, err))
            return false;
    }
    sc->rec.kj_position.other_card_allowed = allowed;
    sc->rec.kj_position.other_card_settled = true;
    return true;
}

bool scoring_rule_card(const ruleset *rs, int article, scenario *sc, kj_card c, ruling *r,
                       bool *legal, strbuf *err) {
    record *rec = &sc->rec;
    const kj_position *p = &rec->kj_position_record;
    memset(r, 0, sizeof *r);
    kj_settle_position(p, &rec->kj_tables, &rec->kj_position);
    if (!settle_penalty_case(rs, article, sc, r, err)) return false;
    bool beside = p->has_penalty_card && !same_card(c, p->penalty_card), with = false,
         without = false;
    if (p->has_penalty_card && !settle_other_cards(rs, article, sc, r, err)) return false;
    if (beside && !(legal_as_any_card(rs, article, sc, c, false, &with, r, err) &&
                    legal_as_any_card(rs, article, sc, c, true, &without, r, err)))
        return false;
    kj_settle_card(p, c, &rec->kj_tables, &rec->kj_card);
    rec->kj_card.freed_settled = beside;
    rec->kj_card.legal_only_without_penalty_card = without && !with;
    return rule_card_once(rs, article, sc, r, legal, err);
}

/* Runs a step whose error message is prefixed with where it happened. */
static bool with_context(bool ok, const char *where, strbuf *why, strbuf *err) {
    if (!ok) sb_printf(err, "%s: %s", where, why->data ? why->data : "failed");
    sb_free(why);
    return ok;
}

static bool rule_tricks(const ruleset *rs, int article, scenario *sc, kj_hand_score *out,
                        strbuf *err) {
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
        bool ok =
            settle_record(sc, &why) && scoring_rule_sides(rs, article, sc, &tr->r, &tr->sums, &why);
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
static bool rule_played_card(const ruleset *rs, int article, scenario *sc, int t, int i, ruling *r,
                             bool *legal, bool *ruled, strbuf *err) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    char where[48], card[8];
    strbuf why;
    *ruled = kj_position_before(h, t, i, &sc->rec.kj_position_record);
    if (!*ruled) return true;
    sb_init(&why);
    kj_format_card(h->tricks[t].cards[i], card);
    snprintf(where, sizeof where, "trick %d, %s's %s", t + 1,
             bridge_seat_name(kj_trick_seat(&h->tricks[t], i)), card);
    return with_context(scoring_rule_card(rs, article, sc, h->tricks[t].cards[i], r, legal, &why),
                        where, &why, err);
}

/* The value name of the `reason` argument (an enum) of the `illegal` action
 * a ruling names; NULL when it has none. */
static const char *illegal_reason(const ruleset *rs, const ruling *r) {
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        const rs_action *a = &rs->actions[rs_use_at(rs, r->actions[i].use)->action];
        int p = param_index(a, "reason", TY_ENUM);
        if (r->actions[i].dropped || strcmp(a->name, "illegal") != 0 || p < 0) continue;
        int64_t v = r->actions[i].args[p];
        return v >= 0 && v < a->params[p].type->nvalues ? a->params[p].type->values[v] : NULL;
    }
    return NULL;
}

/* A fact that reads hand.illegal_reason must list the reason's value: the
 * rule files then rule on it (or say which value they lack), never a fact
 * left silently unsettled. */
static bool reason_listed(const ruleset *rs, const char *reason, strbuf *err) {
    int b = builtin_find("hand", "illegal_reason");
    for (int f = 0; reason && f < rs->nfacts; f++) {
        if (rs->facts[f].builtin != b || rs_enum_index(rs->facts[f].type, reason) >= 0) continue;
        sb_printf(err,
                  "the legal article gives the reason '%s', which fact '%s' (from "
                  "hand.illegal_reason) does not list",
                  reason, rs->facts[f].name);
        return false;
    }
    return true;
}

/* hand.illegal_by and hand.illegal_reason: the first card played that the
 * legal article calls illegal, and why. Whether that card is a revoke is
 * the rule files' to say (klaverjas-nkf-1976: Art. 13a, 13i6). Without it,
 * "no illegal card" needs every hand, as a card from an unknown hand may
 * have been one. */
static bool find_illegal(const ruleset *rs, scenario *sc, kj_hand_score *out, strbuf *err) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    int article = rs->legal_article;
    for (int t = 0; article >= 0 && t < h->ntricks; t++) {
        for (int i = 0; i < KJ_TRICK_SIZE; i++) {
            bool legal = true, ruled = false;
            if (!rule_played_card(rs, article, sc, t, i, &out->illegal, &legal, &ruled, err)) {
                out->failed = out->illegal.status;
                return false;
            }
            if (ruled && !legal) {
                out->illegal_trick = t;
                out->illegal_card = i;
                out->hand.illegal_settled = true;
                enum kj_side side = kj_side_of(kj_trick_seat(&h->tricks[t], i), h->taker);
                out->hand.illegal_by = side == KJ_TAKERS ? KJ_ILLEGAL_TAKERS : KJ_ILLEGAL_DEFENDERS;
                out->hand.illegal_reason = illegal_reason(rs, &out->illegal);
                return reason_listed(rs, out->hand.illegal_reason, err);
            }
            ruling_clear(&out->illegal);
            memset(&out->illegal, 0, sizeof out->illegal);
        }
    }
    out->hand.illegal_settled = article >= 0 && every_hand_known(h);
    out->hand.illegal_by = KJ_ILLEGAL_NONE;
    return true;
}

/* Rules on the hand with the score article: with the hand.* facts of the
 * record when there is one, else with the facts the scenario gives. */
static bool rule_hand(const ruleset *rs, int article, scenario *sc, kj_hand_score *out,
                      strbuf *err) {
    strbuf why;
    sb_init(&why);
    sc->rec.has_kj_position = sc->rec.has_kj_card = sc->rec.has_kj_trick = false;
    sc->rec.kj_hand = out->hand;
    sc->rec.has_kj_hand = out->from_record;
    out->scored = true;
    bool ok = settle_record(sc, &why) &&
              scoring_rule_sides(rs, article, sc, &out->score, &out->score_sums, &why);
    if (!ok) out->failed = out->score.status;
    return with_context(ok, "the hand", &why, err);
}

bool scoring_klaverjas_hand(const ruleset *rs, scenario *sc, kj_hand_score *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    out->illegal_trick = out->illegal_card = -1;
    out->failed = RULING_OK;
    if (!sc->rec.has_kj_hand_record && sc->rec.has_kj_position_record) {
        sb_puts(err, "no hand to score: a position is not a hand; give \"trump\", \"taker\" and "
                     "\"tricks\", or the hand's result as the score article's facts");
        return false;
    }
    if (!sc->rec.has_kj_hand_record) { /* the result as played, given without the tricks */
        int article = scoring_article(rs, SCORE_CONTRACT, err);
        return article >= 0 && rule_hand(rs, article, sc, out, err);
    }
    out->from_record = true;
    int trick_article = scoring_article(rs, SCORE_TRICK, err);
    int score_article = trick_article < 0 ? -1 : scoring_article(rs, SCORE_CONTRACT, err);
    if (score_article < 0) return false;
    kj_count_tricks(&sc->rec.kj_hand_record, &sc->rec.kj_tables, &out->hand);
    return rule_tricks(rs, trick_article, sc, out, err) && find_illegal(rs, sc, out, err) &&
           rule_hand(rs, score_article, sc, out, err);
}

void kj_hand_score_clear(kj_hand_score *s) {
    for (int t = 0; t < s->ntricks; t++)
        ruling_clear(&s->tricks[t].r);
    ruling_clear(&s->illegal);
    ruling_clear(&s->score);
    memset(s, 0, sizeof *s);
}

/* ---- the answers of `arbiter score` and `matchpoints` (and the server's) ---- */

bool scoring_contract(const ruleset *rs, scenario *sc, const char *contract, int vulnerable,
                      ruling *r, int64_t *total, strbuf *err) {
    char msg[200];
    memset(r, 0, sizeof *r);
    int article = scoring_article(rs, SCORE_CONTRACT, err);
    if (article < 0) return false;
    if (!bridge_parse_contract(contract, &sc->rec.contract, msg, sizeof msg)) {
        sb_puts(err, msg);
        return false;
    }
    sc->rec.has_contract = true;
    sc->rec.has_vulnerable = vulnerable >= 0;
    sc->rec.vulnerable = vulnerable > 0;
    const scenario_hooks *hooks = sc->hooks;
    return scenario_apply_record(sc, err) && scoring_rule(rs, article, sc, r, total, err) &&
           (!hooks || hooks->adjust_score(hooks->ctx, sc, total, err));
}

json_t *scoring_contract_json(const ruling *r, const scenario *sc, const char *contract,
                              int64_t total) {
    json_t *j = output_json(r, sc);
    json_object_set_new(j, "contract", json_string(contract));
    if (sc->rec.has_vulnerable)
        json_object_set_new(j, "vulnerable", json_boolean(sc->rec.vulnerable));
    json_object_set_new(j, "score", json_integer(total));
    return j;
}

static const char *const side_keys[] = {"takers", "defenders"}; /* enum kj_side */

static json_t *card_json(kj_card c) {
    char text[8];
    kj_format_card(c, text);
    return json_string(text);
}

static json_t *sides_json(const int64_t *v) {
    return json_pack("{sIsI}", side_keys[KJ_TAKERS], (json_int_t)v[KJ_TAKERS],
                     side_keys[KJ_DEFENDERS], (json_int_t)v[KJ_DEFENDERS]);
}

static json_t *trick_json(const kj_hand *h, int t, const kj_trick_ruling *tr, const scenario *sc) {
    json_t *j = json_object(), *cards = json_array();
    for (int i = 0; i < h->tricks[t].ncards; i++)
        json_array_append_new(cards, card_json(h->tricks[t].cards[i]));
    json_object_set_new(j, "number", json_integer(t + 1));
    json_object_set_new(j, "leader", json_string(bridge_seat_name(h->tricks[t].leader)));
    json_object_set_new(j, "cards", cards);
    json_object_set_new(j, "winner", json_string(bridge_seat_name(tr->facts.winner)));
    json_object_set_new(j, "won_by", json_string(side_keys[tr->facts.won_by]));
    json_object_set_new(j, "card_points", json_integer(tr->facts.card_points));
    json_object_set_new(j, "points", sides_json(tr->sums.side));
    json_object_set_new(j, "roem", sides_json(tr->sums.roem));
    json_object_update_new(j, output_ruling_part_json(&tr->r, sc));
    return j;
}

static json_t *totals_json(const kj_hand_facts *f) {
    json_t *j = json_object();
    for (int s = 0; s < 2; s++)
        json_object_set_new(j, side_keys[s],
                            json_pack("{sisIsI}", "tricks", f->tricks[s], "points",
                                      (json_int_t)f->points[s], "roem", (json_int_t)f->roem[s]));
    return j;
}

json_t *scoring_illegal_json(const kj_hand *h, const kj_hand_score *hs, const scenario *sc) {
    const kj_trick *t = &h->tricks[hs->illegal_trick];
    json_t *j = json_object();
    json_object_set_new(j, "trick", json_integer(hs->illegal_trick + 1));
    json_object_set_new(j, "seat",
                        json_string(bridge_seat_name(kj_trick_seat(t, hs->illegal_card))));
    json_object_set_new(j, "card", card_json(t->cards[hs->illegal_card]));
    if (hs->hand.illegal_reason)
        json_object_set_new(j, "reason", json_string(hs->hand.illegal_reason));
    json_object_update_new(j, output_ruling_part_json(&hs->illegal, sc));
    return j;
}

static json_t *score_json(const kj_hand_score *hs, const scenario *sc) {
    json_t *score = output_ruling_part_json(&hs->score, sc);
    json_object_update_new(score, sides_json(hs->score_sums.side));
    return score;
}

json_t *scoring_hand_json(const ruleset *rs, const kj_hand_score *hs, const scenario *sc) {
    static const char *const illegal_words[] = {"none", "takers",
                                                "defenders"}; /* enum kj_illegal_by */
    const kj_hand *h = &sc->rec.kj_hand_record;
    json_t *j = output_answer_json(rs), *tricks = json_array();
    json_object_set_new(j, "from_record", json_boolean(hs->from_record));
    if (!hs->from_record) {
        json_decref(tricks);
        json_object_set_new(j, "score", score_json(hs, sc));
        return j;
    }
    json_object_set_new(j, "trump", json_string(kj_suit_name(h->trump)));
    json_object_set_new(j, "taker", json_string(bridge_seat_name(h->taker)));
    for (int t = 0; t < hs->ntricks; t++)
        json_array_append_new(tricks, trick_json(h, t, &hs->tricks[t], sc));
    json_object_set_new(j, "tricks", tricks);
    json_object_set_new(j, "totals", totals_json(&hs->hand));
    json_object_set_new(j, "illegal_by",
                        hs->hand.illegal_settled ? json_string(illegal_words[hs->hand.illegal_by])
                                                 : json_null());
    if (hs->illegal_trick >= 0) json_object_set_new(j, "illegal", scoring_illegal_json(h, hs, sc));
    json_object_set_new(j, "score", score_json(hs, sc));
    return j;
}

/* A line of scores: at most SCORE_FIELDS fields (one more is kept to be
 * counted as too many). */
#define SCORE_FIELDS 3
#define SCORE_LINE 256

static int compare_seats(const void *a, const void *b) {
    const sheet_seat *x = a, *y = b;
    int c = strcmp(x->board, y->board);
    if (!c) c = strcmp(x->pair, y->pair);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

bool scoring_pairs_once(sheet_seat *seats, int n, strbuf *err) {
    if (n > 1) qsort(seats, (size_t)n, sizeof *seats, compare_seats);
    for (int i = 1; i < n; i++)
        if (!strcmp(seats[i].board, seats[i - 1].board) &&
            !strcmp(seats[i].pair, seats[i - 1].pair)) { /* sorted: the first line before */
            if (seats[i].line == seats[i - 1].line)
                sb_printf(err,
                          "line %d: pair %s is named north-south and east-west of board %s; "
                          "a line gives the board's two pairs",
                          seats[i].line, seats[i].pair, seats[i].board);
            else
                sb_printf(err,
                          "line %d: pair %s has a result on board %s already (line %d); a pair "
                          "plays a board once: give the board's other results to their own pairs",
                          seats[i].line, seats[i].pair, seats[i].board, seats[i - 1].line);
            return false;
        }
    return true;
}

bool scoring_parse_score_lines(const char *text, vec *rows, strbuf *err) {
    int line = 0, first_fields = 0, first_line = 0; /* the first score's line: its kind */
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char buf[SCORE_LINE], msg[300];
        line++;
        if (n >= sizeof buf) {
            sb_printf(err, "line %d: too long", line);
            return false;
        }
        memcpy(buf, p, n);
        buf[n] = 0;
        p += n + (nl ? 1 : 0);
        buf[strcspn(buf, "\r")] = 0;
        csv_line sf;
        if (!csv_line_split(buf, ',', SCORE_FIELDS + 1, &sf, msg, sizeof msg)) {
            sb_printf(err, "line %d, column %d: %s", line, sf.bad_col, msg);
            return false;
        }
        int nf = sf.n;
        if (nf == 0 || (nf == 1 && !sf.f[0][0])) continue; /* blank line */
        const char *score = sf.f[nf - 1];
        sheet_entry entry;
        bool read =
            (nf == 1 || nf == SCORE_FIELDS) && sheet_parse_entry(score, &entry, msg, sizeof msg);
        if (!read) {
            /* a CSV header; a first line whose board is a number is a
             * result with a wrong score, not a header to pass over */
            const char *board = sf.f[0] + strspn(sf.f[0], " \t");
            if (line == 1 && nf >= SCORE_FIELDS && !isdigit((unsigned char)*board)) continue;
            if (nf != 1 && nf != SCORE_FIELDS) {
                snprintf(msg, sizeof msg, "expected a score (a whole number) or board,pair,score");
                sb_printf(err, "line %d: %s", line, msg);
            } else {
                sb_printf(err, "line %d, column %d: %s", line, sf.col[nf - 1], msg);
            }
            return false;
        }
        /* a sheet is scores alone (one board) or board,pair,score lines: a
         * score without its board among them would be a board of its own */
        if (rows->len > 0 && (nf == SCORE_FIELDS) != (first_fields == SCORE_FIELDS)) {
            sb_printf(err,
                      "line %d: %s, where line %d is %s; a sheet is scores alone (one board) "
                      "or board,pair,score lines",
                      line, nf == 1 ? "a score alone" : "board,pair,score", first_line,
                      nf == 1 ? "board,pair,score" : "a score alone");
            return false;
        }
        for (int i = 0; nf == SCORE_FIELDS && i < 2; i++)
            if (!sf.f[i][0]) {
                sb_printf(err,
                          "line %d, column %d: the %s is not named; a line is board,pair,score",
                          line, sf.col[i], i ? "pair" : "board");
                return false;
            }
        if (rows->len == 0) first_fields = nf, first_line = line;
        score_line *row = vec_push(rows);
        memset(row, 0, sizeof *row);
        for (int i = 0; nf == SCORE_FIELDS && i < 2; i++)
            if (strlen(sf.f[i]) >= sizeof row->board) { /* a name cut to fit: two would be one */
                sb_printf(err,
                          "line %d, column %d: a board or a pair is named in at most %zu bytes",
                          line, sf.col[i], sizeof row->board - 1);
                return false;
            }
        row->entry = entry;
        row->score = entry.kind == ENTRY_SCORE ? entry.parts[0].score : 0;
        snprintf(row->text, sizeof row->text, "%.63s", score);
        row->line = line;
        snprintf(row->board, sizeof row->board, "%.31s", nf == SCORE_FIELDS ? sf.f[0] : "");
        snprintf(row->pair, sizeof row->pair, "%.31s", nf == SCORE_FIELDS ? sf.f[1] : "");
    }
    if (rows->len == 0) sb_puts(err, "no scores");
    if (rows->len == 0) return false;
    /* the lines that name their pair: each pair once a board */
    sheet_seat *seats = xmalloc(sizeof *seats * (size_t)rows->len);
    int n = 0;
    for (int i = 0; i < (int)rows->len; i++) {
        const score_line *r = &VEC_AT(rows, score_line, i);
        if (r->pair[0]) seats[n++] = (sheet_seat){r->board, r->pair, r->line};
    }
    bool ok = scoring_pairs_once(seats, n, err);
    xfree(seats);
    return ok;
}

/* A row of the sheet as it is sorted to group the boards. */
typedef struct board_row {
    const char *board;
    int row;
} board_row;

/* By board name, then by line: each board's rows become one run, in the
 * order the sheet gives them. */
/* Boards "7/a" and "7/b" are groups of board 7: the board is the part
 * before the slash. */
static int compare_boards(const char *x, const char *y) {
    size_t nx = strcspn(x, "/"), ny = strcspn(y, "/");
    int c = strncmp(x, y, nx < ny ? nx : ny);
    return c ? c : (nx > ny) - (nx < ny);
}

static int compare_board_rows(const void *a, const void *b) {
    const board_row *x = a, *y = b;
    int c = compare_boards(x->board, y->board);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Runs by their first row: the boards in the order the sheet first names
 * them, as they are matchpointed (and as a failure is reported). */
static int compare_first_rows(const void *a, const void *b) {
    const board_row *x = *(board_row *const *)a, *y = *(board_row *const *)b;
    return (x->row > y->row) - (x->row < y->row);
}

/* A board with adjusted entries, split groups or penalties (adjusted.c). */
static bool adjusted_run(const ruleset *rs, const scenario_hooks *hooks, vec *rows,
                         const board_row *run, int n, strbuf *err) {
    score_line **board = xmalloc(sizeof *board * (size_t)n);
    if (!board) {
        sb_puts(err, "out of memory");
        return false;
    }
    for (int k = 0; k < n; k++)
        board[k] = &VEC_AT(rows, score_line, run[k].row);
    bool ok = adjusted_board(rs, hooks, board, n, err);
    xfree(board);
    return ok;
}

static bool run_is_adjusted(vec *rows, const board_row *run, int n) {
    for (int k = 0; k < n; k++) {
        score_line *row = &VEC_AT(rows, score_line, run[k].row);
        if (adjusted_board_needed(&row, 1)) return true;
    }
    return false;
}

/* Matchpoints one board: the run of n rows that starts at run; a plain
 * score's line keeps the articles of its figure (the comparison's ruling),
 * as an adjusted board's lines do. */
static bool matchpoint_run(const ruleset *rs, const scenario_hooks *hooks, vec *rows,
                           const board_row *run, int n, int64_t *scores, int64_t *mp, char **cited,
                           strbuf *err) {
    if (run_is_adjusted(rows, run, n)) return adjusted_run(rs, hooks, rows, run, n, err);
    for (int k = 0; k < n; k++) {
        score_line *row = &VEC_AT(rows, score_line, run[k].row);
        scores[k] = row->score;
        row->cited[0] = 0;
        cited[k] = row->cited;
    }
    if (!board_matchpoints(rs, hooks, scores, n, mp, cited, err)) return false;
    for (int k = 0; k < n; k++)
        VEC_AT(rows, score_line, run[k].row).mp = mp[k];
    return true;
}

/* The sheet is sorted by board once (n log n), not scanned once per board. */
bool scoring_matchpoint_lines(const ruleset *rs, const scenario_hooks *hooks, vec *rows,
                              strbuf *err) {
    int n = rows->len;
    if (too_many_scores(n, err)) return false;
    for (int i = 0; i < n; i++) { /* a weighted score's contracts, scored */
        score_line *row = &VEC_AT(rows, score_line, i);
        strbuf why;
        sb_init(&why);
        bool scored = sheet_score_contracts(rs, hooks, row->board, 0, &row->entry, &why);
        if (!scored) sb_printf(err, "line %d: %s", row->line, why.data ? why.data : "no score");
        sb_free(&why);
        if (!scored) return false;
    }
    size_t count = (size_t)(n > 0 ? n : 1);
    board_row *sorted = xmalloc(sizeof *sorted * count), **runs = xmalloc(sizeof *runs * count);
    int64_t *scores = xmalloc(sizeof *scores * count), *mp = xmalloc(sizeof *mp * count);
    char **cited = xmalloc(sizeof *cited * count);
    bool ok = sorted && runs && scores && mp && cited;
    if (!ok) sb_puts(err, "out of memory");
    int nruns = 0;
    for (int i = 0; ok && i < n; i++)
        sorted[i] = (board_row){VEC_AT(rows, score_line, i).board, i};
    if (ok) qsort(sorted, (size_t)n, sizeof *sorted, compare_board_rows);
    for (int i = 0; ok && i < n; i++)
        if (i == 0 || compare_boards(sorted[i].board, sorted[i - 1].board) != 0)
            runs[nruns++] = &sorted[i];
    if (ok) qsort(runs, (size_t)nruns, sizeof *runs, compare_first_rows);
    for (int r = 0; ok && r < nruns; r++) {
        const board_row *end = sorted + n;
        int len = 1;
        while (runs[r] + len < end && compare_boards(runs[r][len].board, runs[r]->board) == 0)
            len++;
        ok = matchpoint_run(rs, hooks, rows, runs[r], len, scores, mp, cited, err);
    }
    xfree(cited);
    xfree(sorted);
    xfree(runs);
    xfree(scores);
    xfree(mp);
    return ok;
}

/* A number as the ruleset rounds it: whole numbers as integers. */
static json_t *rounded_json(double v, int decimals) {
    if (v == (double)(int64_t)v) return json_integer((json_int_t)v);
    double scale = pow(10, decimals);
    return json_real(round(v * scale) / scale);
}

/* A row of a board with adjusted entries: the entry as written, the
 * matchpoints (null when not played), the top and the percentage of it,
 * the articles that gave an artificial score or a penalty. */
static void adjusted_row_json(const score_line *r, json_t *j) {
    static const char *const kinds[] = {"score", "weighted", "artificial",
                                        "not_played"}; /* enum entry_kind */
    json_object_set_new(j, "entry", json_string(r->text));
    json_object_set_new(j, "kind", json_string(kinds[r->entry.kind]));
    json_object_set_new(j, "matchpoints",
                        r->has_points ? rounded_json(r->points, r->decimals) : json_null());
    json_object_set_new(j, "top", rounded_json(r->top, r->decimals));
    json_object_set_new(j, "percentage",
                        r->has_points && r->top > 0 ? rounded_json(100 * r->exact / r->top, 2)
                                                    : json_null());
    if (r->cited[0]) json_object_set_new(j, "articles", json_string(r->cited));
    if (r->entry.kind != ENTRY_WEIGHTED) return;
    json_t *results = json_array(); /* a weighted score's results, contracts scored */
    for (int k = 0; k < r->entry.nparts; k++) {
        const score_part *part = &r->entry.parts[k];
        json_t *one = json_pack("{si}", "weight", part->percent);
        if (part->contract[0]) {
            json_object_set_new(one, "contract", json_string(part->contract));
            json_object_set_new(one, "declarer", json_string(part->declarer == 2 ? "EW" : "NS"));
        }
        json_object_set_new(one, "score", json_integer(part->score));
        json_array_append_new(results, one);
    }
    json_object_set_new(j, "results", results);
}

json_t *scoring_lines_json(const vec *rows) {
    json_t *all = json_array();
    for (int i = 0; i < rows->len; i++) {
        const score_line *r = &VEC_AT(rows, score_line, i);
        json_t *j = json_object();
        if (r->board[0]) json_object_set_new(j, "board", json_string(r->board));
        if (r->pair[0]) json_object_set_new(j, "pair", json_string(r->pair));
        if (r->entry.kind == ENTRY_SCORE) json_object_set_new(j, "score", json_integer(r->score));
        if (r->adjusted_board) {
            adjusted_row_json(r, j);
        } else {
            json_object_set_new(j, "matchpoints", json_integer(r->mp));
            if (r->cited[0]) json_object_set_new(j, "articles", json_string(r->cited));
        }
        json_array_append_new(all, j);
    }
    return all;
}

bool scoring_parse_sheet(const char *sheet, size_t len, vec *rows, strbuf *err) {
    if (memchr(sheet, 0, len)) {
        sb_puts(err, "the file is not text");
        return false;
    }
    char *text = xmalloc(len + 1); /* the parser reads a terminated string */
    if (!text) {
        sb_puts(err, "out of memory");
        return false;
    }
    memcpy(text, sheet, len);
    text[len] = 0;
    bool ok = scoring_parse_score_lines(text, rows, err);
    xfree(text);
    return ok;
}
