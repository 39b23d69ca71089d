/* klaverjas.c — the 32-card pack, positions and hand records of klaverjas.
 *
 * Every rank order and every card value comes from the ruleset's tables
 * (kj_tables); what follows from them — who may play what, what a trick's
 * roem is worth — is the rule file's business, not ours.
 */
#include "klaverjas.h"
#include "util.h"

#include "cards.h"
#include "expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LOWEST_BRIDGE_RANK 7       /* bridge ranks 7..14 are the klaverjas pack */
#define SUIT_MASK ((kj_cards)0xFF) /* the eight cards of suit 0 */
#define FULL_PACK ((kj_cards)0xFFFFFFFFu)
#define SEAT_TEXT_SIZE 8
#define TRICK_TEXT_SIZE 48

#define CARD_EXPECTATION                                                                           \
    "expected a suit (H, S, D or R, C or K) and a rank (7, 8, 9, 10, J or B, Q or V, K or H, A), " \
    "e.g. SA, H10, KB"

/* ------------------------------------------------------------------- cards */

static const char *const suit_letters[KJ_SUITS] = {"C", "D", "H", "S"};

static bool card_is_valid(kj_card c) {
    return c.suit < KJ_SUITS && c.rank < KJ_RANKS;
}

int kj_card_index(kj_card c) {
    return card_is_valid(c) ? c.suit * KJ_RANKS + c.rank : -1;
}

kj_cards kj_card_bit(kj_card c) {
    return card_is_valid(c) ? (kj_cards)1 << kj_card_index(c) : 0;
}

static kj_card card_at(int index) {
    return (kj_card){.suit = (uint8_t)(index / KJ_RANKS), .rank = (uint8_t)(index % KJ_RANKS)};
}

static kj_cards suit_cards(int suit) {
    return SUIT_MASK << (suit * KJ_RANKS);
}

static int count_cards(kj_cards set) {
    int n = 0;
    for (; set != 0; set &= set - 1)
        n++;
    return n;
}

static kj_cards set_of(const kj_card *cards, int n) {
    kj_cards set = 0;
    for (int i = 0; i < n; i++)
        set |= kj_card_bit(cards[i]);
    return set;
}

const char *kj_suit_name(int suit) {
    return suit >= 0 && suit < KJ_SUITS ? suit_letters[suit] : "?";
}

void kj_format_card(kj_card c, char buf[8]) {
    static const char *const ranks[KJ_RANKS] = {"7", "8", "9", "10", "J", "Q", "K", "A"};
    if (!card_is_valid(c))
        snprintf(buf, 8, "?");
    else
        snprintf(buf, 8, "%s%s", suit_letters[c.suit], ranks[c.rank]);
}

/* A klaverjas card reads like a bridge card; the pack is its seven to ace. */
bool kj_parse_card(const char *text, kj_card *out, char *err, size_t errsz) {
    bridge_card b;
    if (text == NULL) return fail_with(err, errsz, "no card text given");
    if (!bridge_parse_card(text, &b, NULL, 0))
        return fail_with(err, errsz, "\"%.24s\" is not a card; " CARD_EXPECTATION, text);
    if (b.rank < LOWEST_BRIDGE_RANK)
        return fail_with(err, errsz, "\"%.24s\" is not in the klaverjas pack (seven to ace)", text);
    *out = (kj_card){.suit = b.suit, .rank = (uint8_t)(b.rank - LOWEST_BRIDGE_RANK)};
    return true;
}

/* K(laveren) and R(uiten) are the Dutch letters; H and S read the same in
 * both languages. */
bool kj_parse_suit(const char *text, int *suit) {
    static const struct {
        const char *word;
        int suit;
    } words[] = {
        {"C", DENOM_C},
        {"K", DENOM_C},
        {"\xE2\x99\xA3", DENOM_C},
        {"D", DENOM_D},
        {"R", DENOM_D},
        {"\xE2\x99\xA6", DENOM_D},
        {"H", DENOM_H},
        {"\xE2\x99\xA5", DENOM_H},
        {"S", DENOM_S},
        {"\xE2\x99\xA0", DENOM_S},
    };
    if (text == NULL) return false;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const char *w = words[i].word, *t = text;
        while (*w != '\0' && ascii_upper(*t) == *w) {
            w++;
            t++;
        }
        if (*w == '\0' && *t == '\0') {
            *suit = words[i].suit;
            return true;
        }
    }
    return false;
}

/* The next space-separated token of *p: its start and length (0 at the end). */
static const char *next_token(const char **p, size_t *len) {
    const char *s = *p;
    while (is_space(*s))
        s++;
    size_t n = 0;
    while (s[n] != '\0' && !is_space(s[n]))
        n++;
    *p = s + n;
    *len = n;
    return s;
}

bool kj_parse_cards(const char *text, kj_card *list, int max, int *n, char *err, size_t errsz) {
    kj_cards seen = 0;
    *n = 0;
    if (text == NULL) return fail_with(err, errsz, "no cards given");
    size_t len;
    for (const char *p = text, *token = next_token(&p, &len); len > 0;
         token = next_token(&p, &len)) {
        char word[16], shown[8];
        kj_card c;
        if (len >= sizeof word)
            return fail_with(err, errsz, "\"%.*s\" is not a card; " CARD_EXPECTATION,
                             (int)(len < 24 ? len : 24), token);
        memcpy(word, token, len);
        word[len] = '\0';
        if (!kj_parse_card(word, &c, err, errsz)) return false;
        kj_format_card(c, shown);
        if (seen & kj_card_bit(c)) return fail_with(err, errsz, "%s twice", shown);
        if (*n == max) return fail_with(err, errsz, "more than %d cards", max);
        seen |= kj_card_bit(c);
        list[(*n)++] = c;
    }
    return true;
}

/* The lowest card of a non-empty set, to name it in a message. */
static kj_card first_card(kj_cards set) {
    int i = 0;
    while (i < KJ_CARDS - 1 && !(set & ((kj_cards)1 << i)))
        i++;
    return card_at(i);
}

/* ------------------------------------------------------------------ tables */

static const char *const table_names[KJT_COUNT] = {
    [KJT_RANK_TRUMP] = "rank_trump",         [KJT_RANK_PLAIN] = "rank_plain",
    [KJT_POINTS_TRUMP] = "points_trump",     [KJT_POINTS_PLAIN] = "points_plain",
    [KJT_SEQUENCE_ORDER] = "sequence_order",
};

const char *kj_table_name(enum klaverjas_table t) {
    return (unsigned)t < KJT_COUNT ? table_names[t] : "?";
}

bool kj_tables_load(const ruleset *rs, kj_tables *out, char *err, size_t errsz) {
    for (int k = 0; k < KJT_COUNT; k++) {
        int table = rs->klaverjas_tables[k];
        if (table < 0 || table >= rs->ntables)
            return fail_with(
                err, errsz, "ruleset %s declares no table %s (a `game klaverjas` ruleset needs it)",
                rs->name, table_names[k]);
        for (int r = 0; r < KJ_RANKS; r++) {
            int64_t key = r;
            if (expr_table(&rs->tables[table], &key, &out->value[k][r]) != EXPR_OK)
                return fail_with(err, errsz, "table %s has no value for rank %d", table_names[k],
                                 r);
        }
    }
    return true;
}

static bool is_trump(kj_card c, int trump) {
    return c.suit == trump;
}

static int64_t trump_rank(kj_card c, const kj_tables *tb) {
    return tb->value[KJT_RANK_TRUMP][c.rank];
}

static int64_t card_points(kj_card c, int trump, const kj_tables *tb) {
    return tb->value[is_trump(c, trump) ? KJT_POINTS_TRUMP : KJT_POINTS_PLAIN][c.rank];
}

/* ------------------------------------------------------------------ tricks */

enum bridge_seat kj_trick_seat(const kj_trick *t, int i) {
    return bridge_seat_at(t->leader, (enum bridge_relative)(i % KJ_TRICK_SIZE));
}

/* A trump beats any other card; within one suit the table's order decides,
 * and a card of another suit never beats the card winning so far. */
static bool beats(kj_card c, kj_card best, int trump, const kj_tables *tb) {
    if (is_trump(c, trump) && !is_trump(best, trump)) return true;
    if (c.suit != best.suit) return false;
    enum klaverjas_table order = is_trump(c, trump) ? KJT_RANK_TRUMP : KJT_RANK_PLAIN;
    return tb->value[order][c.rank] > tb->value[order][best.rank];
}

int kj_trick_winner(const kj_trick *t, int trump, const kj_tables *tb) {
    int best = 0;
    for (int i = 1; i < t->ncards; i++)
        if (beats(t->cards[i], t->cards[best], trump, tb)) best = i;
    return best;
}

static enum bridge_seat winner_seat(const kj_trick *t, int trump, const kj_tables *tb) {
    return kj_trick_seat(t, kj_trick_winner(t, trump, tb));
}

bool kj_parse_trick(const char *text, kj_trick *out, char *err, size_t errsz) {
    memset(out, 0, sizeof *out);
    if (text == NULL) return fail_with(err, errsz, "no trick given");
    while (is_space(*text))
        text++;
    if (*text == '\0') return true;
    const char *colon = strchr(text, ':');
    size_t len = colon != NULL ? (size_t)(colon - text) : 0;
    char seat[SEAT_TEXT_SIZE];
    if (colon == NULL || len == 0 || len >= sizeof seat)
        return fail_with(
            err, errsz,
            "\"%.24s\": begin with the leader's seat and a colon, e.g. \"E:S7 SA S8 S10\"", text);
    memcpy(seat, text, len);
    seat[len] = '\0';
    if (!bridge_parse_seat(seat, &out->leader))
        return fail_with(err, errsz, "\"%s\" is not a seat; expected N, E, S or W", seat);
    return kj_parse_cards(colon + 1, out->cards, KJ_TRICK_SIZE, &out->ncards, err, errsz);
}

void kj_format_trick(const kj_trick *t, char *buf, size_t bufsz) {
    size_t used = (size_t)snprintf(buf, bufsz, "%s:", bridge_seat_name(t->leader));
    for (int i = 0; i < t->ncards && used < bufsz; i++) {
        char card[8];
        kj_format_card(t->cards[i], card);
        used += (size_t)snprintf(buf + used, bufsz - used, "%s%s", i ? " " : "", card);
    }
}

enum kj_side kj_side_of(enum bridge_seat seat, enum bridge_seat taker) {
    return seat == taker || seat == bridge_seat_at(taker, REL_PARTNER) ? KJ_TAKERS : KJ_DEFENDERS;
}

/* --------------------------------------------------------------- positions */

static bool seat_is_valid(enum bridge_seat s) {
    return (unsigned)s < KJ_SEATS;
}

static bool suit_is_valid(int suit) {
    return suit >= 0 && suit < KJ_SUITS;
}

bool kj_holds(const kj_position *p, kj_card c) {
    return (set_of(p->hand, p->ncards) & kj_card_bit(c)) != 0;
}

static bool check_trick_cards(const kj_trick *t, kj_cards *played, char *err, size_t errsz) {
    for (int i = 0; i < t->ncards; i++) {
        char card[8];
        kj_format_card(t->cards[i], card);
        if (!card_is_valid(t->cards[i]))
            return fail_with(err, errsz, "card %d of the trick is not a card", i + 1);
        if (*played & kj_card_bit(t->cards[i]))
            return fail_with(err, errsz, "%s is in the trick twice", card);
        *played |= kj_card_bit(t->cards[i]);
    }
    return true;
}

bool kj_check_position(const kj_position *p, char *err, size_t errsz) {
    if (!suit_is_valid(p->trump))
        return fail_with(err, errsz, "trump value %d is not a suit", p->trump);
    if (!seat_is_valid(p->seat))
        return fail_with(err, errsz, "seat value %d is not N, E, S or W", (int)p->seat);
    if (p->has_taker && !seat_is_valid(p->taker))
        return fail_with(err, errsz, "taker value %d is not N, E, S or W", (int)p->taker);
    if (p->ncards < 1 || p->ncards > KJ_HAND_SIZE)
        return fail_with(err, errsz, "the hand has %d cards; a player about to play holds 1 to %d",
                         p->ncards, KJ_HAND_SIZE);
    if (count_cards(set_of(p->hand, p->ncards)) != p->ncards)
        return fail_with(err, errsz, "the hand holds a card twice");
    if (p->trick.ncards >= KJ_TRICK_SIZE)
        return fail_with(err, errsz, "the trick is finished: nobody is to play to it");
    enum bridge_seat next = kj_trick_seat(&p->trick, p->trick.ncards);
    if (next != p->seat)
        return fail_with(err, errsz, "it is %s's turn in the trick, not %s's",
                         bridge_seat_name(next), bridge_seat_name(p->seat));
    if (p->has_penalty_card && !kj_holds(p, p->penalty_card)) {
        char card[8];
        kj_format_card(p->penalty_card, card);
        return fail_with(err, errsz, "the penalty card %s is not in %s's hand", card,
                         bridge_seat_name(p->seat));
    }
    kj_cards in_trick = 0;
    if (!check_trick_cards(&p->trick, &in_trick, err, errsz)) return false;
    kj_cards both = in_trick & set_of(p->hand, p->ncards);
    if (both == 0) return true;
    char card[8];
    kj_format_card(first_card(both), card);
    return fail_with(err, errsz, "%s is both in the trick and in %s's hand", card,
                     bridge_seat_name(p->seat));
}

/* The highest trump in the first n cards of a trick by rank_trump; false
 * when there is none. */
static bool top_trump(const kj_trick *t, int trump, const kj_tables *tb, int64_t *rank) {
    bool found = false;
    for (int i = 0; i < t->ncards; i++) {
        if (!is_trump(t->cards[i], trump)) continue;
        if (!found || trump_rank(t->cards[i], tb) > *rank) *rank = trump_rank(t->cards[i], tb);
        found = true;
    }
    return found;
}

/* A trump higher than every trump in the trick (any trump, when the trick
 * holds none: the first trump in a trick is above all the others there). */
static bool is_over_trump(kj_card c, const kj_position *p, const kj_tables *tb) {
    int64_t top = 0;
    return is_trump(c, p->trump) &&
           (!top_trump(&p->trick, p->trump, tb, &top) || trump_rank(c, tb) > top);
}

void kj_settle_position(const kj_position *p, const kj_tables *tb, kj_position_facts *out) {
    const kj_trick *t = &p->trick;
    kj_cards hand = set_of(p->hand, p->ncards), trumps = suit_cards(p->trump);
    int64_t top = 0;
    memset(out, 0, sizeof *out);
    /* A player who leads may play anything: every card "follows". */
    out->can_follow = t->ncards == 0 || (hand & suit_cards(t->cards[0].suit)) != 0;
    out->has_trump = (hand & trumps) != 0;
    for (int i = 0; i < p->ncards; i++) {
        bool over = is_over_trump(p->hand[i], p, tb);
        bool penalty =
            p->has_penalty_card && kj_card_index(p->hand[i]) == kj_card_index(p->penalty_card);
        out->can_overtrump = out->can_overtrump || over;
        out->can_overtrump_without_penalty_card =
            out->can_overtrump_without_penalty_card || (over && !penalty);
    }
    out->trump_led = t->ncards > 0 && is_trump(t->cards[0], p->trump);
    out->trump_in_trick = top_trump(t, p->trump, tb, &top);
    out->partner_winning =
        t->ncards > 0 && winner_seat(t, p->trump, tb) == bridge_seat_at(p->seat, REL_PARTNER);
    out->only_trumps = (hand & ~trumps) == 0;
    out->leaders_partner = t->ncards > 0 && p->seat == bridge_seat_at(t->leader, REL_PARTNER);
    out->is_taker_side = p->has_taker && kj_side_of(p->seat, p->taker) == KJ_TAKERS;
    out->has_penalty_card = p->has_penalty_card;
    kj_cards led = t->ncards > 0 ? suit_cards(t->cards[0].suit) & hand : 0;
    out->penalty_last_of_suit = p->has_penalty_card && led == kj_card_bit(p->penalty_card);
}

void kj_settle_card(const kj_position *p, kj_card c, const kj_tables *tb, kj_card_facts *out) {
    const kj_trick *t = &p->trick;
    int64_t top = 0;
    bool trump_before = top_trump(t, p->trump, tb, &top);
    memset(out, 0, sizeof *out);
    out->leads = t->ncards == 0;
    out->follows_suit = out->leads || c.suit == t->cards[0].suit;
    out->is_trump = is_trump(c, p->trump);
    out->overtrumps = is_over_trump(c, p, tb);
    out->undertrumps = out->is_trump && trump_before && trump_rank(c, tb) < top;
    out->is_penalty_card =
        p->has_penalty_card && kj_card_index(c) == kj_card_index(p->penalty_card);
}

/* ------------------------------------------------------------ hand records */

/* "trick 3 (E: S7 SA S8 S10)", numbered from 1 as players count. */
static const char *describe_trick(const kj_hand *h, int t, char *buf, size_t bufsz) {
    char text[TRICK_TEXT_SIZE];
    kj_format_trick(&h->tricks[t], text, sizeof text);
    snprintf(buf, bufsz, "trick %d (%s)", t + 1, text);
    return buf;
}

static bool check_header(const kj_hand *h, char *err, size_t errsz) {
    if (!suit_is_valid(h->trump))
        return fail_with(err, errsz, "trump value %d is not a suit", h->trump);
    if (!seat_is_valid(h->taker))
        return fail_with(err, errsz, "taker value %d is not N, E, S or W", (int)h->taker);
    if (h->has_first_leader && !seat_is_valid(h->first_leader))
        return fail_with(err, errsz, "first leader value %d is not N, E, S or W",
                         (int)h->first_leader);
    if (h->ntricks < 0 || h->ntricks > KJ_TRICKS)
        return fail_with(err, errsz, "%d tricks; a hand has at most %d", h->ntricks, KJ_TRICKS);
    for (int t = h->ntricks; t < KJ_TRICKS; t++)
        if (h->roem_claimed[t])
            return fail_with(err, errsz, "roem claimed on trick %d, which was not played", t + 1);
    return true;
}

/* Known hands hold eight cards each and share none; three of them give the
 * fourth, the rest of the pack. */
static bool check_dealt(kj_hand *h, char *err, size_t errsz) {
    kj_cards all = 0;
    int known = 0;
    for (int s = 0; s < KJ_SEATS; s++) {
        if (!h->known[s]) continue;
        int n = count_cards(h->dealt[s]);
        if (n != KJ_HAND_SIZE)
            return fail_with(err, errsz, "%s's hand has %d cards; a hand is dealt %d",
                             bridge_seat_name((enum bridge_seat)s), n, KJ_HAND_SIZE);
        if (all & h->dealt[s]) {
            char card[8];
            kj_format_card(first_card(all & h->dealt[s]), card);
            return fail_with(err, errsz, "%s is dealt to two hands", card);
        }
        all |= h->dealt[s];
        known++;
    }
    for (int s = 0; known == KJ_SEATS - 1 && s < KJ_SEATS; s++) {
        if (h->known[s]) continue;
        h->dealt[s] = FULL_PACK & ~all;
        h->known[s] = true;
    }
    return true;
}

static bool check_leader(const kj_hand *h, int t, const kj_tables *tb, char *err, size_t errsz) {
    char what[TRICK_TEXT_SIZE + 16];
    enum bridge_seat led = h->tricks[t].leader;
    describe_trick(h, t, what, sizeof what);
    if (t == 0) {
        if (!h->has_first_leader || led == h->first_leader) return true;
        return fail_with(err, errsz, "%s is led by %s; %s was to lead", what, bridge_seat_name(led),
                         bridge_seat_name(h->first_leader));
    }
    enum bridge_seat won = winner_seat(&h->tricks[t - 1], h->trump, tb);
    if (led == won) return true;
    return fail_with(err, errsz, "%s is led by %s; %s won trick %d and leads", what,
                     bridge_seat_name(led), bridge_seat_name(won), t);
}

/* The trick (0-based) in which a card was played; -1 when it was not. */
static int trick_of(const kj_hand *h, int before, kj_card c) {
    for (int t = 0; t < before; t++)
        for (int i = 0; i < h->tricks[t].ncards; i++)
            if (kj_card_index(h->tricks[t].cards[i]) == kj_card_index(c)) return t;
    return -1;
}

static int holder_of(const kj_hand *h, kj_card c) {
    for (int s = 0; s < KJ_SEATS; s++)
        if (h->known[s] && (h->dealt[s] & kj_card_bit(c))) return s;
    return -1;
}

static bool check_card(const kj_hand *h, int t, int i, char *err, size_t errsz) {
    char what[TRICK_TEXT_SIZE + 16], card[8];
    const kj_trick *tr = &h->tricks[t];
    kj_card c = tr->cards[i];
    enum bridge_seat seat = kj_trick_seat(tr, i);
    describe_trick(h, t, what, sizeof what);
    if (!card_is_valid(c)) return fail_with(err, errsz, "%s: card %d is not a card", what, i + 1);
    kj_format_card(c, card);
    for (int k = 0; k < i; k++)
        if (kj_card_index(tr->cards[k]) == kj_card_index(c))
            return fail_with(err, errsz, "%s: %s twice", what, card);
    int before = trick_of(h, t, c);
    if (before >= 0)
        return fail_with(err, errsz, "%s: %s was played before (trick %d)", what, card, before + 1);
    int holder = holder_of(h, c);
    if (h->known[seat] && holder != (int)seat)
        return fail_with(err, errsz, "%s: %s does not hold %s", what, bridge_seat_name(seat), card);
    if (holder >= 0 && holder != (int)seat)
        return fail_with(err, errsz, "%s: %s does not hold %s, %s does", what,
                         bridge_seat_name(seat), card, bridge_seat_name((enum bridge_seat)holder));
    return true;
}

bool kj_check_hand(kj_hand *h, const kj_tables *tb, char *err, size_t errsz) {
    if (!check_header(h, err, errsz) || !check_dealt(h, err, errsz)) return false;
    for (int t = 0; t < h->ntricks; t++) {
        char what[TRICK_TEXT_SIZE + 16];
        if (h->tricks[t].ncards != KJ_TRICK_SIZE)
            return fail_with(err, errsz, "%s has %d cards; a finished trick has %d",
                             describe_trick(h, t, what, sizeof what), h->tricks[t].ncards,
                             KJ_TRICK_SIZE);
        if (!seat_is_valid(h->tricks[t].leader))
            return fail_with(err, errsz, "trick %d: the leader is not a seat", t + 1);
        if (!check_leader(h, t, tb, err, errsz)) return false;
        for (int i = 0; i < KJ_TRICK_SIZE; i++)
            if (!check_card(h, t, i, err, errsz)) return false;
    }
    return true;
}

bool kj_position_before(const kj_hand *h, int t, int i, kj_position *out) {
    const kj_trick *tr = &h->tricks[t];
    enum bridge_seat seat = kj_trick_seat(tr, i);
    if (!h->known[seat]) return false;
    kj_cards left = h->dealt[seat];
    for (int k = 0; k < t; k++)
        for (int j = 0; j < KJ_TRICK_SIZE; j++)
            if (kj_trick_seat(&h->tricks[k], j) == seat)
                left &= ~kj_card_bit(h->tricks[k].cards[j]);
    memset(out, 0, sizeof *out);
    out->trump = h->trump;
    out->seat = seat;
    out->has_taker = true;
    out->taker = h->taker;
    for (int c = 0; c < KJ_CARDS; c++)
        if ((left & ((kj_cards)1 << c)) && out->ncards < KJ_HAND_SIZE)
            out->hand[out->ncards++] = card_at(c);
    out->trick = *tr;
    out->trick.ncards = i;
    return true;
}

/* ------------------------------------------------------------ trick facts */

/* The longest run of cards of one suit whose sequence_order values follow
 * one another (n, n+1, …), and whether the king and queen of trump lie in
 * one run of that length. */
typedef struct runs {
    int longest;
    bool stuk_in_longest;
} runs;

/* The ranks of one suit's cards in the trick, sorted by sequence_order. */
static int sorted_ranks(const kj_trick *t, int suit, const kj_tables *tb,
                        int ranks[KJ_TRICK_SIZE]) {
    const int64_t *order = tb->value[KJT_SEQUENCE_ORDER];
    int n = 0;
    for (int i = 0; i < t->ncards; i++) {
        if (t->cards[i].suit != suit) continue;
        int k = n++;
        for (; k > 0 && order[ranks[k - 1]] > order[t->cards[i].rank]; k--)
            ranks[k] = ranks[k - 1];
        ranks[k] = t->cards[i].rank;
    }
    return n;
}

static bool run_has_stuk(const int *ranks, int from, int to) {
    bool king = false, queen = false;
    for (int k = from; k < to; k++) {
        king = king || ranks[k] == KJ_KING;
        queen = queen || ranks[k] == KJ_QUEEN;
    }
    return king && queen;
}

/* Runs of one suit; a run that is only as long as the longest so far
 * keeps an earlier stuk, a longer one replaces it. */
static void scan_suit(const kj_trick *t, int suit, bool trump, const kj_tables *tb, runs *r) {
    const int64_t *order = tb->value[KJT_SEQUENCE_ORDER];
    int ranks[KJ_TRICK_SIZE];
    int n = sorted_ranks(t, suit, tb, ranks);
    for (int start = 0, end = 1; start < n; start = end, end = start + 1) {
        while (end < n && order[ranks[end]] == order[ranks[end - 1]] + 1)
            end++;
        bool stuk = trump && run_has_stuk(ranks, start, end);
        if (end - start > r->longest) r->stuk_in_longest = false;
        if (end - start >= r->longest) r->stuk_in_longest = r->stuk_in_longest || stuk;
        if (end - start > r->longest) r->longest = end - start;
    }
}

static bool holds_stuk(const kj_trick *t, int trump) {
    bool king = false, queen = false;
    for (int i = 0; i < t->ncards; i++) {
        king = king || (t->cards[i].suit == trump && t->cards[i].rank == KJ_KING);
        queen = queen || (t->cards[i].suit == trump && t->cards[i].rank == KJ_QUEEN);
    }
    return king && queen;
}

void kj_settle_trick(const kj_hand *h, int t, const kj_tables *tb, kj_trick_facts *out) {
    const kj_trick *tr = &h->tricks[t];
    memset(out, 0, sizeof *out);
    out->number = t + 1;
    out->last = t + 1 == KJ_TRICKS;
    out->winner = winner_seat(tr, h->trump, tb);
    out->won_by = kj_side_of(out->winner, h->taker);
    out->four_of_a_kind = tr->ncards == KJ_TRICK_SIZE;
    for (int i = 0; i < tr->ncards; i++) {
        out->card_points += card_points(tr->cards[i], h->trump, tb);
        out->four_of_a_kind = out->four_of_a_kind && tr->cards[i].rank == tr->cards[0].rank;
    }
    out->four_rank = tr->cards[0].rank;
    runs r = {0, false};
    for (int suit = 0; suit < KJ_SUITS; suit++)
        scan_suit(tr, suit, suit == h->trump, tb, &r);
    out->sequence = r.longest;
    out->stuk = holds_stuk(tr, h->trump);
    out->stuk_in_sequence = r.stuk_in_longest;
    out->roem_claimed = h->roem_claimed[t];
}

void kj_count_tricks(const kj_hand *h, const kj_tables *tb, kj_hand_facts *out) {
    out->tricks[KJ_TAKERS] = out->tricks[KJ_DEFENDERS] = 0;
    for (int t = 0; t < h->ntricks; t++)
        out->tricks[kj_side_of(winner_seat(&h->tricks[t], h->trump, tb), h->taker)]++;
    out->complete = h->ntricks == KJ_TRICKS;
}
