/* api/legalwalk.c — klaverjas: is there always a legal card?
 *
 * The legal article sees a position only through the position.* and card.*
 * facts (docs/klaverjas.md), and a plugin's override only through the
 * facts of the ruling it is handed. So positions fall into finitely many
 * kinds: the position's facts (with the taker's side and a penalty card),
 * and the set of card facts its cards have. Two positions of one kind get
 * the same verdict on every card of the same card facts, and a position has
 * a legal card exactly when one of its kinds of card is legal.
 *
 * The walk makes every kind out of real positions, with hearts as trumps
 * (the facts name no suit, and the ruleset's rank tables are one for
 * trumps and one for the other suits): every trick of up to three cards
 * drawn from three cards of one plain suit, a plain card of another suit
 * and all eight trumps, so that every trick fact and every top trump
 * occurs; every hand the trick leaves of two more cards of that plain
 * suit, one of another and the trumps; each with no taker, the player's
 * side taking and the other side taking; and each with no penalty card or
 * one of each kind of card in the hand. The first position of each kind is
 * ruled on, one card of each kind of card it holds. */
#include "legalwalk.h"

#include "klaverjas.h"
#include "scoring.h"

#include <stdlib.h>
#include <string.h>

static const char *const trick_universe[] = {"S7", "S8",  "SA", "D7", "H7", "H8",
                                             "H9", "H10", "HJ", "HQ", "HK", "HA"};
static const char *const hand_universe[] = {"SK",  "SQ", "DK", "H7", "H8", "H9",
                                            "H10", "HJ", "HQ", "HK", "HA"};
#define TRICK_UNIVERSE (int)(sizeof trick_universe / sizeof *trick_universe)
#define HAND_UNIVERSE (int)(sizeof hand_universe / sizeof *hand_universe)
#define CARD_KINDS 32 /* five card facts */

/* ---- a set of 64-bit keys (open addressing; 0 is never a key) ---- */

typedef struct key_set {
    uint64_t *slots;
    size_t cap, n;
} key_set;

static size_t slot_of(uint64_t key, size_t cap) {
    key *= 0x9E3779B97F4A7C15ull;
    return (size_t)(key >> 17) & (cap - 1);
}

static bool grow(key_set *s) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *slots = xcalloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i]) continue;
        size_t j = slot_of(s->slots[i], cap);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = s->slots[i];
    }
    xfree(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

/* Adds key: 1 when it is new, 0 when it was there, -1 out of memory. */
static int key_add(key_set *s, uint64_t key) {
    if ((s->n + 1) * 2 > s->cap && !grow(s)) return -1;
    size_t j = slot_of(key, s->cap);
    for (; s->slots[j]; j = (j + 1) & (s->cap - 1))
        if (s->slots[j] == key) return 0;
    s->slots[j] = key;
    s->n++;
    return 1;
}

/* ---- kinds ---- */

static int card_kind(const kj_card_facts *f) {
    return f->follows_suit | f->is_trump << 1 | f->overtrumps << 2 | f->undertrumps << 3 |
           f->is_penalty_card << 4;
}

/* The kinds of card the hand holds, as a mask, with the first card of each. */
static uint32_t hand_kinds(const kj_position *p, const kj_tables *tb, kj_card first[CARD_KINDS]) {
    uint32_t mask = 0;
    for (int i = 0; i < p->ncards; i++) {
        kj_card_facts f;
        kj_settle_card(p, p->hand[i], tb, &f);
        int k = card_kind(&f);
        if (!(mask & 1u << k)) first[k] = p->hand[i];
        mask |= 1u << k;
    }
    return mask;
}

/* Whether the hand holds exactly one card of the suit led: a penalty card
 * that is that card is his last of the suit (position.penalty_card_case). */
static bool one_card_of_suit_led(const kj_position *p) {
    int n = 0;
    for (int i = 0; p->trick.ncards > 0 && i < p->ncards; i++)
        n += p->hand[i].suit == p->trick.cards[0].suit;
    return n == 1;
}

/* Everything the legal article and a plugin can see of a position, and one
 * bit more (one_card_of_suit_led), which decides what a penalty card will
 * see. Never 0. */
static uint64_t kind_key(const kj_position *p, const kj_tables *tb, kj_card first[CARD_KINDS]) {
    kj_position_facts f;
    kj_settle_position(p, tb, &f);
    bool bits[] = {f.can_follow,         f.has_trump,
                   f.can_overtrump,      f.trump_led,
                   f.trump_in_trick,     f.partner_winning,
                   f.leaders_partner,    f.only_trumps,
                   f.is_taker_side,      p->has_taker,
                   f.has_penalty_card,   f.penalty_last_of_suit,
                   p->trick.ncards == 0, one_card_of_suit_led(p)};
    uint64_t key = 1;
    for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
        key |= (uint64_t)bits[i] << (i + 1);
    return key | (uint64_t)hand_kinds(p, tb, first) << 16;
}

/* ---- ruling ---- */

typedef struct walker {
    const ruleset *rs;
    int article;
    kj_card trick_cards[TRICK_UNIVERSE], hand_cards[HAND_UNIVERSE];
    scenario sc;
    key_set seen;
    legal_walk *out;
} walker;

#define WALK_VALUES 64        /* values of one asked fact the walk tries, at most */
#define WALK_ASSIGNMENTS 4096 /* combinations of answers for one position, at most */

/* How many values fact f can take; 0 when the walk cannot try them all. */
static int64_t values_of(const ruleset *rs, int f) {
    const rs_type *t = rs->facts[f].type;
    if (t->kind == TY_BOOL) return 2;
    if (t->kind == TY_ENUM) return t->nvalues;
    if (t->kind == TY_INT && t->bounded && t->hi - t->lo < WALK_VALUES) return t->hi - t->lo + 1;
    return 0;
}

static int64_t value_at(const ruleset *rs, int f, int64_t i) {
    const rs_type *t = rs->facts[f].type;
    return t->kind == TY_INT ? t->lo + i : i;
}

static long combinations(const ruleset *rs, const walk_answers *a) {
    long n = 1;
    for (int i = 0; i < a->n; i++)
        n *= (long)values_of(rs, a->fact[i]);
    return n;
}

/* Answers number i of every combination, as the digits of a mixed radix. */
static void answers_at(const ruleset *rs, walk_answers *a, long i) {
    for (int k = 0; k < a->n; k++) {
        long radix = (long)values_of(rs, a->fact[k]);
        a->value[k] = value_at(rs, a->fact[k], i % radix);
        i /= radix;
    }
}

static void give_answers(scenario *sc, const walk_answers *a, bool give) {
    for (int k = 0; k < a->n; k++) {
        if (give)
            scenario_give(sc, a->fact[k], a->value[k]);
        else
            scenario_forget(sc, a->fact[k]);
    }
}

/* A fact a ruling needs joins the facts the walk answers every way. */
static bool answer_every_way(const ruleset *rs, walk_answers *a, int fact, strbuf *err) {
    const char *name = rs->facts[fact].name;
    for (int k = 0; k < a->n; k++)
        if (a->fact[k] == fact)
            return sb_printf(err, "'%s' is asked though it is given", name), false;
    if (values_of(rs, fact) == 0) {
        sb_printf(err, "the legal article asks '%s', whose values are too many to try each", name);
        return false;
    }
    if (a->n == LEGAL_WALK_FACTS || combinations(rs, a) * values_of(rs, fact) > WALK_ASSIGNMENTS) {
        sb_printf(err,
                  "the legal article asks '%s' after %d other facts: more answers than %d to try",
                  name, a->n, WALK_ASSIGNMENTS);
        return false;
    }
    a->fact[a->n] = fact;
    a->value[a->n++] = value_at(rs, fact, 0);
    return true;
}

enum verdict { ILLEGAL, LEGAL, NEEDS, FAILED };

static enum verdict rule_card(walker *w, const kj_position *p, const walk_answers *a, kj_card c,
                              int *needs, strbuf *err) {
    ruling r;
    bool legal = false;
    w->sc.rec.kj_position_record = *p;
    w->sc.rec.has_kj_position_record = true;
    strbuf why;
    sb_init(&why);
    bool ok = scoring_rule_card(w->rs, w->article, &w->sc, c, &r, &legal, &why);
    enum verdict v = ok ? (legal ? LEGAL : ILLEGAL) : r.status == RULING_NEEDS ? NEEDS : FAILED;
    if (v == NEEDS) *needs = r.fact;
    ruling_clear(&r);
    w->out->rulings++;
    if (v == FAILED) {
        char *where = legal_walk_position_json(w->rs, p, a), name[8];
        kj_format_card(c, name);
        sb_printf(err, "in the position %s, the card %s: %s", where ? where : "?", name,
                  why.data ? why.data : "no verdict");
        xfree(where);
    }
    sb_free(&why);
    return v;
}

/* With the answers given: LEGAL when a card of the position is legal,
 * ILLEGAL when none is, NEEDS (*needs) or FAILED when a ruling is not had. */
static enum verdict some_card_legal(walker *w, const kj_position *p, const walk_answers *a,
                                    uint32_t kinds, const kj_card first[CARD_KINDS], int *needs,
                                    strbuf *err) {
    for (int k = 0; k < CARD_KINDS; k++) {
        if (!(kinds & 1u << k)) continue;
        enum verdict v = rule_card(w, p, a, first[k], needs, err);
        if (v != ILLEGAL) return v;
    }
    return ILLEGAL;
}

/* Rules on p, unless a position of its kind was ruled on before, under
 * every combination of the answers its rulings ask for; records p and the
 * answers when no card is legal. */
static bool rule_kind(walker *w, const kj_position *p, strbuf *err) {
    kj_card first[CARD_KINDS];
    uint64_t key = kind_key(p, &w->sc.rec.kj_tables, first);
    int added = key_add(&w->seen, key);
    if (added <= 0) return added == 0 || (sb_puts(err, "out of memory"), false);
    w->out->kinds++;
    walk_answers a = {0};
    for (long i = 0; i < combinations(w->rs, &a); i++) {
        int needs = -1;
        answers_at(w->rs, &a, i);
        give_answers(&w->sc, &a, true);
        enum verdict v = some_card_legal(w, p, &a, (uint32_t)(key >> 16), first, &needs, err);
        give_answers(&w->sc, &a, false);
        if (v == FAILED || (v == NEEDS && !answer_every_way(w->rs, &a, needs, err))) return false;
        if (v == NEEDS) i = -1; /* every combination again, with the new fact */
        if (v != ILLEGAL) continue;
        w->out->found = true;
        w->out->counterexample = *p;
        w->out->answers = a;
        return true;
    }
    return true;
}

/* A position of a kind not seen yet, with each taker and penalty card. */
static bool rule_variants(walker *w, kj_position p, strbuf *err) {
    kj_card first[CARD_KINDS];
    uint32_t kinds = (uint32_t)(kind_key(&p, &w->sc.rec.kj_tables, first) >> 16);
    const enum bridge_seat takers[] = {SEAT_N, SEAT_N, SEAT_E};
    for (int t = 0; t < 3; t++) {
        p.has_taker = t > 0;
        p.taker = takers[t];
        for (int k = -1; k < CARD_KINDS; k++) {
            if (k >= 0 && !(kinds & 1u << k)) continue;
            p.has_penalty_card = k >= 0;
            if (k >= 0) p.penalty_card = first[k];
            if (!rule_kind(w, &p, err)) return false;
            if (w->out->found) return true;
        }
    }
    return true;
}

/* The universes' cards, parsed once. */
static void parse_universes(walker *w) {
    char msg[80];
    for (int i = 0; i < TRICK_UNIVERSE; i++)
        kj_parse_card(trick_universe[i], &w->trick_cards[i], msg, sizeof msg);
    for (int i = 0; i < HAND_UNIVERSE; i++)
        kj_parse_card(hand_universe[i], &w->hand_cards[i], msg, sizeof msg);
}

static bool in_trick(const kj_trick *t, kj_card c) {
    for (int j = 0; j < t->ncards; j++)
        if (kj_card_index(t->cards[j]) == kj_card_index(c)) return true;
    return false;
}

/* The hand of the universe's cards in set; false when the trick holds one
 * of them or they are more than a hand. */
static bool deal_hand(const walker *w, uint32_t set, kj_position *p) {
    p->ncards = 0;
    for (int i = 0; i < HAND_UNIVERSE; i++) {
        if (!(set & 1u << i)) continue;
        if (p->ncards == KJ_HAND_SIZE || in_trick(&p->trick, w->hand_cards[i])) return false;
        p->hand[p->ncards++] = w->hand_cards[i];
    }
    return true;
}

/* Every hand the trick leaves, over the hand universe. */
static bool walk_hands(walker *w, kj_position *p, key_set *bases, strbuf *err) {
    for (uint32_t set = 1; set < 1u << HAND_UNIVERSE && !w->out->found; set++) {
        char msg[200];
        if (!deal_hand(w, set, p) || !kj_check_position(p, msg, sizeof msg)) continue;
        w->out->positions++;
        kj_card first[CARD_KINDS];
        int added = key_add(bases, kind_key(p, &w->sc.rec.kj_tables, first));
        if (added < 0) return sb_puts(err, "out of memory"), false;
        if (added && !rule_variants(w, *p, err)) return false;
    }
    return true;
}

/* Every trick of up to three cards before the player (North) is to play. */
static bool walk_tricks(walker *w, kj_position *p, key_set *bases, strbuf *err) {
    static const enum bridge_relative leader_of[] = {REL_SELF, REL_RHO, REL_PARTNER, REL_LHO};
    p->trick.leader = bridge_seat_at(p->seat, leader_of[p->trick.ncards]);
    if (!walk_hands(w, p, bases, err)) return false;
    if (p->trick.ncards == KJ_TRICK_SIZE - 1) return true;
    for (int i = 0; i < TRICK_UNIVERSE && !w->out->found; i++) {
        if (in_trick(&p->trick, w->trick_cards[i])) continue;
        p->trick.cards[p->trick.ncards++] = w->trick_cards[i];
        bool ok = walk_tricks(w, p, bases, err);
        p->trick.ncards--;
        if (!ok) return false;
    }
    return true;
}

bool legal_walk_run(const ruleset *rs, const scenario_hooks *hooks, legal_walk *out, strbuf *err) {
    memset(out, 0, sizeof *out);
    walker w = {.rs = rs, .out = out};
    w.article = scoring_article(rs, SCORE_LEGAL, err);
    if (w.article < 0) return false;
    parse_universes(&w);
    scenario_init(&w.sc, rs);
    w.sc.hooks = hooks;
    char msg[200];
    bool ok = kj_tables_load(rs, &w.sc.rec.kj_tables, msg, sizeof msg);
    if (!ok) sb_printf(err, "klaverjas: %s", msg);
    kj_position p;
    memset(&p, 0, sizeof p);
    kj_parse_suit("H", &p.trump);
    p.seat = SEAT_N;
    key_set bases = {0};
    ok = ok && walk_tricks(&w, &p, &bases, err);
    xfree(bases.slots);
    xfree(w.seen.slots);
    scenario_free(&w.sc);
    return ok;
}

/* A fact's value as a scenario gives it. */
static json_t *answer_json(const ruleset *rs, int f, int64_t v) {
    const rs_type *t = rs->facts[f].type;
    if (t->kind == TY_BOOL) return json_boolean(v);
    if (t->kind == TY_ENUM) return json_string(t->values[v]);
    return json_integer(v);
}

char *legal_walk_position_json(const ruleset *rs, const kj_position *p, const walk_answers *a) {
    char trick[64] = "", card[8], hand[KJ_HAND_SIZE * 4 + 1] = "";
    if (p->trick.ncards > 0) kj_format_trick(&p->trick, trick, sizeof trick);
    for (int i = 0; i < p->ncards; i++) {
        kj_format_card(p->hand[i], card);
        if (i) strcat(hand, " ");
        strcat(hand, card);
    }
    json_t *j = json_pack("{ssssssss}", "trump", kj_suit_name(p->trump), "seat",
                          bridge_seat_name(p->seat), "hand", hand, "trick", trick);
    if (p->has_taker) json_object_set_new(j, "taker", json_string(bridge_seat_name(p->taker)));
    if (p->has_penalty_card) {
        kj_format_card(p->penalty_card, card);
        json_object_set_new(j, "penalty_card", json_string(card));
    }
    for (int k = 0; a && k < a->n; k++)
        json_object_set_new(j, rs->facts[a->fact[k]].name,
                            answer_json(rs, a->fact[k], a->value[k]));
    char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    return text;
}
