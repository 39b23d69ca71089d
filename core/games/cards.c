/* cards.c — cards, hands and the play of a bridge deal (Laws 44-45, 61-64).
 *
 * Only what the play record itself determines is settled here: who held
 * which card, who was to lead, who won each trick, and whether a player
 * failed to follow suit while able to. What a law article rules about it is
 * not our business.
 */
#include "cards.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SEAT_COUNT 4
#define SUIT_COUNT 4 /* DENOM_C .. DENOM_S */
#define RANK_MIN 2
#define RANK_MAX 14 /* the ace */
#define RANK_COUNT 13
#define CARD_COUNT 52
#define HAND_SIZE 13                             /* Law 2: each hand holds thirteen cards */
#define TRICK_SIZE 4                             /* Law 44A: one card from each player */
#define PACK ((((uint64_t)1) << CARD_COUNT) - 1) /* every card index */

#define TOKEN_SIZE 40 /* a valid token ("W:" and a suit symbol and "10") is far shorter */
#define REASON_SIZE 160
#define DESCRIPTION_SIZE 40

#define CARD_EXPECTATION "expected a suit and a rank, e.g. SA, HK, D10, C2"
#define SUIT_EXPECTATION "expected C, D, H or S (Dutch K, R) or a suit symbol"
#define RANK_EXPECTATION "expected 2-9, 10 or T, J, Q, K, A (Dutch B, V, H)"
#define SEAT_EXPECTATION "expected N, E, S or W"
#define HAND_EXPECTATION "expected spades.hearts.diamonds.clubs, e.g. AKQ2.JT9.876.543, or \"-\""

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* ------------------------------------------------------------------- seats */

static bool seat_is_valid(enum bridge_seat s) {
    return (unsigned)s < SEAT_COUNT;
}

/* Law 44A/44G: play proceeds clockwise, so the next seat is the LHO. */
static enum bridge_seat seat_after(enum bridge_seat s) {
    return bridge_seat_at(s, REL_LHO);
}

static enum bridge_seat partner_of(enum bridge_seat s) {
    return bridge_seat_at(s, REL_PARTNER);
}

static bool same_side(enum bridge_seat a, enum bridge_seat b) {
    return a == b || a == partner_of(b);
}

/* Law 41B: declarer's partner becomes dummy. */
static enum play_role role_of(enum bridge_seat seat, enum bridge_seat declarer) {
    if (seat == declarer) return ROLE_DECLARER;
    if (seat == partner_of(declarer)) return ROLE_DUMMY;
    return ROLE_DEFENDER;
}

/* ------------------------------------------------------------------- cards */

static const char *const suit_letters[SUIT_COUNT] = {"C", "D", "H", "S"};

static bool card_is_valid(bridge_card c) {
    return c.suit < SUIT_COUNT && c.rank >= RANK_MIN && c.rank <= RANK_MAX;
}

int bridge_card_index(bridge_card c) {
    if (!card_is_valid(c)) return -1;
    return c.suit * RANK_COUNT + (c.rank - RANK_MIN);
}

static uint64_t card_bit(bridge_card c) {
    return (uint64_t)1 << bridge_card_index(c);
}

static bridge_card card_at(int index) {
    return (bridge_card){.suit = (uint8_t)(index / RANK_COUNT),
                         .rank = (uint8_t)(index % RANK_COUNT + RANK_MIN)};
}

/* Every card of one suit. */
static uint64_t suit_mask(int suit) {
    return (((uint64_t)1 << RANK_COUNT) - 1) << (suit * RANK_COUNT);
}

static int card_count(uint64_t set) {
    int n = 0;
    for (; set != 0; set &= set - 1)
        n++;
    return n;
}

void bridge_format_card(bridge_card c, char buf[8]) {
    static const char *const honours[] = {"J", "Q", "K", "A"};
    if (!card_is_valid(c)) {
        snprintf(buf, 8, "?");
    } else if (c.rank >= 11) {
        snprintf(buf, 8, "%s%s", suit_letters[c.suit], honours[c.rank - 11]);
    } else {
        snprintf(buf, 8, "%s%d", suit_letters[c.suit], c.rank);
    }
}

/* ----------------------------------------------------------------- parsing */

static const char *skip_space(const char *p) {
    while (is_space(*p))
        p++;
    return p;
}

static size_t token_length(const char *p) {
    size_t n = 0;
    while (p[n] != '\0' && !is_space(p[n]))
        n++;
    return n;
}

/* K(laveren) and R(uiten) are the Dutch letters; H and S read the same in
 * both languages. */
static const struct suit_word {
    const char *word;
    int suit;
} suit_words[] = {
    {"C", DENOM_C},
    {"K", DENOM_C},
    {"\xE2\x99\xA3", DENOM_C}, /* ♣ */
    {"D", DENOM_D},
    {"R", DENOM_D},
    {"\xE2\x99\xA6", DENOM_D}, /* ♦ */
    {"H", DENOM_H},
    {"\xE2\x99\xA5", DENOM_H}, /* ♥ */
    {"S", DENOM_S},
    {"\xE2\x99\xA0", DENOM_S}, /* ♠ */
};

/* B(oer), V(rouw), H(eer) and A(as) are the Dutch honours. */
static const struct rank_word {
    const char *word;
    int rank;
} rank_words[] = {
    {"2", 2},  {"3", 3},  {"4", 4},   {"5", 5},  {"6", 6},  {"7", 7},
    {"8", 8},  {"9", 9},  {"10", 10}, {"T", 10}, {"J", 11}, {"B", 11},
    {"Q", 12}, {"V", 12}, {"K", 13},  {"H", 13}, {"A", 14},
};

/* The suit at the start of text; NULL when there is none. */
static const char *take_suit(const char *text, int *suit) {
    for (size_t i = 0; i < COUNT_OF(suit_words); i++) {
        size_t n = strlen(suit_words[i].word);
        bool same = true;
        for (size_t k = 0; same && k < n; k++)
            same = ascii_upper(text[k]) == suit_words[i].word[k];
        if (same) {
            *suit = suit_words[i].suit;
            return text + n;
        }
    }
    return NULL;
}

/* Writes the reason without the text, so that callers can name the text in
 * their own terms (the card itself, or a play of a record). */
static bool parse_card_text(const char *text, bridge_card *out, char *why, size_t whysz) {
    char shown[EXCERPT_SIZE];
    int suit = 0;
    if (*text == '\0') return fail_with(why, whysz, "empty card; " CARD_EXPECTATION);
    const char *rank_text = take_suit(text, &suit);
    if (rank_text == NULL) return fail_with(why, whysz, "no suit first; " SUIT_EXPECTATION);
    if (*rank_text == '\0')
        return fail_with(why, whysz, "no rank after the suit; " RANK_EXPECTATION);
    for (size_t i = 0; i < COUNT_OF(rank_words); i++) {
        if (equals_ignoring_case(rank_text, rank_words[i].word)) {
            *out = (bridge_card){.suit = (uint8_t)suit, .rank = (uint8_t)rank_words[i].rank};
            return true;
        }
    }
    return fail_with(why, whysz, "unknown rank \"%s\"; " RANK_EXPECTATION,
                     text_excerpt(rank_text, strlen(rank_text), shown));
}

bool bridge_parse_card(const char *text, bridge_card *out, char *err, size_t errsz) {
    char why[REASON_SIZE];
    char shown[EXCERPT_SIZE];
    if (text == NULL) return fail_with(err, errsz, "no card text given");
    if (parse_card_text(text, out, why, sizeof why)) return true;
    return fail_with(err, errsz, "\"%s\": %s", text_excerpt(text, strlen(text), shown), why);
}

/* ------------------------------------------------------------------- deals */

/* PBN gives each hand as spades.hearts.diamonds.clubs. */
static const int pbn_suit_order[SUIT_COUNT] = {DENOM_S, DENOM_H, DENOM_D, DENOM_C};

/* A PBN rank at p ("AKQJT98765432", "10" also); 0 when there is none. */
static int take_pbn_rank(const char *p, size_t *len) {
    static const char ranks[] = "23456789TJQKA";
    *len = 1;
    if (p[0] == '1' && p[1] == '0') {
        *len = 2;
        return 10;
    }
    const char *hit = strchr(ranks, ascii_upper(*p));
    return *p != '\0' && hit != NULL ? (int)(hit - ranks) + RANK_MIN : 0;
}

static bool parse_hand(const char *text, size_t len, uint64_t *hand, char *why, size_t whysz) {
    char shown[EXCERPT_SIZE];
    char card[8];
    int part = 0;
    *hand = 0;
    for (size_t i = 0; i < len;) {
        if (text[i] == '.') {
            if (++part == SUIT_COUNT)
                return fail_with(why, whysz, "more than four suits; " HAND_EXPECTATION);
            i++;
            continue;
        }
        size_t n;
        int rank = take_pbn_rank(text + i, &n);
        if (rank == 0 || i + n > len) {
            size_t bad = 1; /* the whole character, when it is a UTF-8 one */
            while (i + bad < len && is_utf8_continuation((unsigned char)text[i + bad]))
                bad++;
            return fail_with(why, whysz, "\"%s\" is not a rank; expected AKQJT98765432",
                             text_excerpt(text + i, bad, shown));
        }
        bridge_card c = {.suit = (uint8_t)pbn_suit_order[part], .rank = (uint8_t)rank};
        if (*hand & card_bit(c)) {
            bridge_format_card(c, card);
            return fail_with(why, whysz, "%s twice", card);
        }
        *hand |= card_bit(c);
        i += n;
    }
    if (part != SUIT_COUNT - 1)
        return fail_with(why, whysz, "%d suits; " HAND_EXPECTATION, part + 1);
    int n = card_count(*hand);
    if (n != HAND_SIZE) return fail_with(why, whysz, "%d cards; a known hand has %d", n, HAND_SIZE);
    return true;
}

/* The first card dealt to two hands; -1 when there is none. */
static int card_in_two_hands(const bridge_deal *d, enum bridge_seat *first,
                             enum bridge_seat *second) {
    for (int a = 0; a < SEAT_COUNT; a++) {
        for (int b = a + 1; b < SEAT_COUNT; b++) {
            uint64_t both = d->known[a] && d->known[b] ? d->hand[a] & d->hand[b] : 0;
            if (both == 0) continue;
            int index = 0;
            while (!(both & ((uint64_t)1 << index)))
                index++;
            *first = (enum bridge_seat)a;
            *second = (enum bridge_seat)b;
            return index;
        }
    }
    return -1;
}

static bool fail_card_in_two_hands(const bridge_deal *d, char *err, size_t errsz) {
    enum bridge_seat a = SEAT_N, b = SEAT_N;
    int index = card_in_two_hands(d, &a, &b);
    if (index < 0) return true;
    char card[8];
    bridge_format_card(card_at(index), card);
    return fail_with(err, errsz, "%s is in both %s's and %s's hand", card, bridge_seat_name(a),
                     bridge_seat_name(b));
}

bool bridge_parse_deal(const char *pbn, bridge_deal *out, char *err, size_t errsz) {
    char shown[EXCERPT_SIZE];
    char why[REASON_SIZE];
    memset(out, 0, sizeof *out);
    if (pbn == NULL) return fail_with(err, errsz, "no deal given");
    const char *start = skip_space(pbn);
    const char *colon = strchr(start, ':');
    size_t len = colon != NULL ? (size_t)(colon - start) : 0;
    char seat_text[8];
    enum bridge_seat seat = SEAT_N;
    if (colon == NULL || len == 0 || len >= sizeof seat_text || token_length(start) < len)
        return fail_with(err, errsz,
                         "deal \"%s\": begin with the first seat and a colon, e.g. "
                         "\"N:AKQ2.JT9.876.543 …\"",
                         text_excerpt(pbn, strlen(pbn), shown));
    memcpy(seat_text, start, len);
    seat_text[len] = '\0';
    if (!bridge_parse_seat(seat_text, &seat))
        return fail_with(err, errsz, "deal: first seat \"%s\" is not a seat; " SEAT_EXPECTATION,
                         text_excerpt(start, len, shown));
    const char *p = colon + 1;
    for (int k = 0; k < SEAT_COUNT; k++, seat = seat_after(seat)) {
        p = skip_space(p);
        size_t n = token_length(p);
        if (n == 0)
            return fail_with(err, errsz,
                             "deal \"%s\": %d hand%s after the first seat; expected four "
                             "(\"-\" for an unknown hand)",
                             text_excerpt(pbn, strlen(pbn), shown), k, k == 1 ? "" : "s");
        if (n == 1 && *p == '-') {
            p += n; /* an unknown hand */
            continue;
        }
        if (!parse_hand(p, n, &out->hand[seat], why, sizeof why))
            return fail_with(err, errsz, "%s's hand \"%s\": %s", bridge_seat_name(seat),
                             text_excerpt(p, n, shown), why);
        out->known[seat] = true;
        p += n;
    }
    p = skip_space(p);
    if (*p != '\0')
        return fail_with(err, errsz, "deal: \"%s\" after the fourth hand; a deal has four hands",
                         text_excerpt(p, strlen(p), shown));
    return fail_card_in_two_hands(out, err, errsz);
}

/* ------------------------------------------------------------------ tricks */

/* Law 44E/44F: the highest trump wins the trick, else the highest card of
 * the suit led. The card that wins so far is always of the suit led or a
 * trump, so a discard never matches its suit. first indexes the lead. */
static enum bridge_seat trick_winner(const bridge_play *p, int first) {
    int best = first;
    for (int i = first + 1; i < first + TRICK_SIZE; i++) {
        bridge_card c = p->plays[i].card, b = p->plays[best].card;
        bool ruffs = (int)c.suit == p->trump && (int)b.suit != p->trump;
        if (ruffs || (c.suit == b.suit && c.rank > b.rank)) best = i;
    }
    return p->plays[best].seat;
}

/* Who is to lead to the trick starting at play `first` (Law 44G, 41A). */
static enum bridge_seat leader_for(const bridge_play *p, int first) {
    return first == 0 ? p->first_leader : trick_winner(p, first - TRICK_SIZE);
}

static bool play_header_is_valid(const bridge_play *p, char *err, size_t errsz) {
    if (!seat_is_valid(p->first_leader))
        return fail_with(err, errsz, "first leader value %d is not N, E, S or W",
                         (int)p->first_leader);
    if (!seat_is_valid(p->declarer))
        return fail_with(err, errsz, "declarer value %d is not N, E, S or W", (int)p->declarer);
    if (p->trump < DENOM_C || p->trump > DENOM_NT)
        return fail_with(err, errsz, "trump value %d is not C, D, H, S or NT", p->trump);
    return true;
}

/* A token is a writable copy: the seat prefix is cut off in place. */
static bool parse_play_token(char *token, enum bridge_seat turn, enum bridge_seat *seat,
                             bridge_card *card, char *why, size_t whysz) {
    char shown[EXCERPT_SIZE];
    char *card_text = token;
    char *colon = strchr(token, ':');
    *seat = turn;
    if (colon != NULL) {
        *colon = '\0';
        if (!bridge_parse_seat(token, seat))
            return fail_with(why, whysz, "\"%s\" is not a seat; " SEAT_EXPECTATION,
                             text_excerpt(token, strlen(token), shown));
        card_text = colon + 1;
    }
    if (*card_text == '\0')
        return fail_with(why, whysz, "no card; expected [SEAT:]CARD, e.g. SA or W:SK");
    return parse_card_text(card_text, card, why, whysz);
}

static const char *describe_play(const bridge_play *p, int i, char out[DESCRIPTION_SIZE]);

/* The first play of p whose card was played before it (its index), or -1;
 * *before is the earlier play. */
static int first_repeated_card(const bridge_play *p, int *before) {
    int at[CARD_COUNT];
    for (int c = 0; c < CARD_COUNT; c++)
        at[c] = -1;
    for (int i = 0; i < p->nplays; i++) {
        int c = bridge_card_index(p->plays[i].card);
        if (at[c] >= 0) return *before = at[c], i;
        at[c] = i;
    }
    return -1;
}

bool bridge_parse_play(const char *text, bridge_play *out, char *err, size_t errsz) {
    char shown[EXCERPT_SIZE];
    char why[REASON_SIZE];
    if (text == NULL) return fail_with(err, errsz, "no play record given");
    /* A card without a seat may lead, and its player is then the winner of
     * the previous trick: that needs the trump suit and the first leader. */
    if (!play_header_is_valid(out, err, errsz)) return false;
    out->nplays = 0;
    const char *p = text;
    for (int number = 1; *(p = skip_space(p)) != '\0'; number++) {
        size_t len = token_length(p);
        char token[TOKEN_SIZE];
        if (out->nplays == BRIDGE_MAX_PLAYS) {
            /* 53 plays repeat a card: the first that does is the fault a
             * director looks for, where it comes before the 53rd */
            char what[DESCRIPTION_SIZE], card[8];
            int before, again = first_repeated_card(out, &before);
            if (again >= 0) {
                bridge_format_card(out->plays[again].card, card);
                return fail_with(err, errsz, "%s: %s was played before (play %d)",
                                 describe_play(out, again, what), card, before + 1);
            }
            return fail_with(err, errsz, "play %d \"%s\": more than %d plays; a deal has %d cards",
                             number, text_excerpt(p, len, shown), BRIDGE_MAX_PLAYS, CARD_COUNT);
        }
        if (len >= sizeof token)
            return fail_with(err, errsz, "play %d \"%s\": too long to be a card", number,
                             text_excerpt(p, len, shown));
        memcpy(token, p, len);
        token[len] = '\0';
        int i = out->nplays;
        enum bridge_seat turn =
            i % TRICK_SIZE == 0 ? leader_for(out, i) : seat_after(out->plays[i - 1].seat);
        if (!parse_play_token(token, turn, &out->plays[i].seat, &out->plays[i].card, why,
                              sizeof why))
            return fail_with(err, errsz, "play %d \"%s\": %s", number, text_excerpt(p, len, shown),
                             why);
        out->nplays++;
        p += len;
    }
    if (out->nplays == 0)
        return fail_with(err, errsz, "play record \"%s\": no cards",
                         text_excerpt(text, strlen(text), shown));
    return true;
}

/* ---------------------------------------------------------------- analysis */

/* "play 5 (E S9)": numbered from 1, as a director counts. */
static const char *describe_play(const bridge_play *p, int i, char out[DESCRIPTION_SIZE]) {
    char card[8];
    bridge_format_card(p->plays[i].card, card);
    snprintf(out, DESCRIPTION_SIZE, "play %d (%s %s)", i + 1, bridge_seat_name(p->plays[i].seat),
             card);
    return out;
}

/* The hands the record is checked against. Three known hands give the
 * fourth: it holds the rest of the pack. */
typedef struct hands {
    uint64_t hand[SEAT_COUNT];
    bool known[SEAT_COUNT];
} hands;

static bool deal_hands(const bridge_play *p, hands *h, char *err, size_t errsz) {
    memset(h, 0, sizeof *h);
    if (!p->has_deal) return true;
    const bridge_deal *d = &p->deal;
    uint64_t all = 0;
    int nknown = 0;
    for (int s = 0; s < SEAT_COUNT; s++) {
        if (!d->known[s]) continue;
        int n = card_count(d->hand[s]);
        if ((d->hand[s] & ~PACK) != 0)
            return fail_with(err, errsz, "the deal gives %s a card index above %d",
                             bridge_seat_name((enum bridge_seat)s), CARD_COUNT - 1);
        if (n != HAND_SIZE)
            return fail_with(err, errsz, "the deal gives %s %d cards; a known hand has %d",
                             bridge_seat_name((enum bridge_seat)s), n, HAND_SIZE);
        h->hand[s] = d->hand[s];
        h->known[s] = true;
        all |= d->hand[s];
        nknown++;
    }
    if (!fail_card_in_two_hands(d, err, errsz)) return false;
    if (nknown == SEAT_COUNT - 1) {
        for (int s = 0; s < SEAT_COUNT; s++) {
            if (h->known[s]) continue;
            h->hand[s] = ~all & PACK;
            h->known[s] = true;
        }
    }
    return true;
}

/* The known hand holding a card; -1 when none does. */
static int holder_of(const hands *h, uint64_t bit) {
    for (int s = 0; s < SEAT_COUNT; s++)
        if (h->known[s] && (h->hand[s] & bit)) return s;
    return -1;
}

/* What the walk through the record has seen so far. */
typedef struct walk {
    hands h;
    uint64_t played;                   /* every card played so far */
    signed char played_at[CARD_COUNT]; /* the play of each card, for messages */
    int revoke_suit;                   /* the suit the first revoker failed to follow */
} walk;

static bool check_play(const bridge_play *p, int i, int first, walk *w, char *err, size_t errsz) {
    char what[DESCRIPTION_SIZE];
    char card[8];
    enum bridge_seat seat = p->plays[i].seat;
    bridge_card c = p->plays[i].card;
    if (!seat_is_valid(seat))
        return fail_with(err, errsz, "play %d: seat value %d is not N, E, S or W", i + 1,
                         (int)seat);
    if (!card_is_valid(c))
        return fail_with(err, errsz, "play %d: suit %d, rank %d is not a card", i + 1, c.suit,
                         c.rank);
    describe_play(p, i, what);
    bridge_format_card(c, card);
    int index = bridge_card_index(c);
    if (w->played & card_bit(c))
        return fail_with(err, errsz, "%s: %s was played before (play %d)", what, card,
                         w->played_at[index] + 1);
    for (int k = first; k < i; k++)
        if (p->plays[k].seat == seat)
            return fail_with(err, errsz, "%s: %s played twice to trick %d", what,
                             bridge_seat_name(seat), first / TRICK_SIZE + 1);
    int holder = holder_of(&w->h, card_bit(c));
    if (w->h.known[seat] && holder != (int)seat)
        return fail_with(err, errsz, "%s: %s does not hold %s", what, bridge_seat_name(seat), card);
    if (holder >= 0 && holder != (int)seat)
        return fail_with(err, errsz, "%s: %s does not hold %s, %s does", what,
                         bridge_seat_name(seat), card, bridge_seat_name((enum bridge_seat)holder));
    return true;
}

/* Law 61B: a revoke is a card of another suit played while the player
 * held a card of the suit led; his hand is the deal's minus what he has
 * already played. */
static void settle_revoke(const bridge_play *p, int i, int first, walk *w, play_facts *f) {
    enum bridge_seat seat = p->plays[i].seat;
    int led = p->plays[first].card.suit;
    if (i == first || p->plays[i].card.suit == led || !w->h.known[seat]) return;
    if ((w->h.hand[seat] & ~w->played & suit_mask(led)) == 0) return; /* void: a discard or ruff */
    if (!f->revoke) {
        f->revoke = true;
        f->revoke_trick = first / TRICK_SIZE + 1;
        f->revoker = seat;
        f->revoker_role = role_of(seat, p->declarer);
        w->revoke_suit = led;
    } else if (seat == f->revoker && led == w->revoke_suit) {
        f->second_revoke_same_suit = true;
    }
}

/* Law 63A1: established once the offender or his partner leads or plays
 * to a later trick. Law 64A counts the tricks of the offending side after
 * the revoke trick. */
static void settle_revoke_aftermath(const bridge_play *p, play_facts *f) {
    int later = f->revoke_trick * TRICK_SIZE; /* the first play of the next trick */
    for (int i = later; i < p->nplays; i++)
        if (same_side(p->plays[i].seat, f->revoker)) f->revoke_established = true;
    f->revoke_trick_won_by = WON_BY_OPPONENTS; /* also while the revoke trick is not complete */
    if (f->tricks_complete >= f->revoke_trick) {
        enum bridge_seat won = f->winner[f->revoke_trick - 1];
        f->revoke_trick_won_by = won == f->revoker               ? WON_BY_OFFENDER
                                 : won == partner_of(f->revoker) ? WON_BY_PARTNER
                                                                 : WON_BY_OPPONENTS;
    }
    for (int t = f->revoke_trick; t < f->tricks_complete; t++)
        if (same_side(f->winner[t], f->revoker)) f->offending_side_tricks_after++;
}

static void settle_lead(const bridge_play *p, int first, play_facts *f) {
    enum bridge_seat right = leader_for(p, first);
    enum bridge_seat actual = p->plays[first].seat;
    if (f->lead_out_of_turn || actual == right) return;
    f->lead_out_of_turn = true;
    f->lead_out_of_turn_trick = first / TRICK_SIZE + 1;
    f->wrong_leader = actual;
    f->right_leader = right;
    f->wrong_leader_role = role_of(actual, p->declarer);
}

bool bridge_analyse_play(const bridge_play *p, play_facts *out, char *err, size_t errsz) {
    if (p == NULL) return fail_with(err, errsz, "no play record given");
    if (!play_header_is_valid(p, err, errsz)) return false;
    if (p->nplays < 0 || p->nplays > BRIDGE_MAX_PLAYS)
        return fail_with(err, errsz, "the play record has %d plays; a deal has %d cards", p->nplays,
                         CARD_COUNT);
    walk w;
    memset(&w, 0, sizeof w);
    if (!deal_hands(p, &w.h, err, errsz)) return false;
    play_facts f;
    memset(&f, 0, sizeof f);
    for (int first = 0; first < p->nplays; first += TRICK_SIZE) {
        int end = first + TRICK_SIZE < p->nplays ? first + TRICK_SIZE : p->nplays;
        for (int i = first; i < end; i++) {
            if (!check_play(p, i, first, &w, err, errsz)) return false;
            settle_revoke(p, i, first, &w, &f);
            w.played |= card_bit(p->plays[i].card);
            w.played_at[bridge_card_index(p->plays[i].card)] = (signed char)i;
        }
        /* After a lead out of turn the trick goes on from the card led, and
         * whoever wins it leads next (the leader_for of the next trick). */
        settle_lead(p, first, &f);
        if (end - first < TRICK_SIZE) break;
        enum bridge_seat won = trick_winner(p, first);
        f.winner[f.tricks_complete++] = won;
        if (same_side(won, p->declarer)) f.declarer_tricks++;
    }
    if (f.revoke) settle_revoke_aftermath(p, &f);
    *out = f;
    return true;
}
