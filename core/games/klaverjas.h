/* klaverjas.h — the 32-card pack, positions and hand records of klaverjas.
 *
 * The core knows cards, suits, tricks, who holds what, and how to rank and
 * count cards by the tables the ruleset gives (docs/klaverjas.md). It never
 * knows which card a player may play, what roem is worth or who won the
 * game: the rule file's articles say that.
 */
#ifndef ARBITER_KLAVERJAS_H
#define ARBITER_KLAVERJAS_H

#include "bridge.h"
#include "ruleset.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KJ_SUITS 4 /* DENOM_C .. DENOM_S, as in bridge */
#define KJ_RANKS 8 /* seven .. ace: the values of the ruleset's type `rank` */
#define KJ_CARDS 32
#define KJ_TRICKS 8
#define KJ_TRICK_SIZE 4
#define KJ_HAND_SIZE 8
#define KJ_SEATS 4

/* rank indexes the ruleset's `rank` enum: 0 seven, 1 eight, 2 nine, 3 ten,
 * 4 jack, 5 queen, 6 king, 7 ace (the compiler checks that order). */
enum kj_rank { KJ_SEVEN, KJ_EIGHT, KJ_NINE, KJ_TEN, KJ_JACK, KJ_QUEEN, KJ_KING, KJ_ACE };

typedef struct kj_card {
    uint8_t suit;
    uint8_t rank;
} kj_card;

typedef uint32_t kj_cards; /* a set of cards, one bit per kj_card_index */

/* "SA", "H10", "D7"; Dutch suits K (klaveren) and R (ruiten) and ranks
 * H (heer), V (vrouw), B (boer), and a suit symbol, as bridge cards read;
 * only seven to ace are klaverjas cards. */
bool kj_parse_card(const char *text, kj_card *out, char *err, size_t errsz);
void kj_format_card(kj_card c, char buf[8]); /* "SA", "H10", "CJ" */
int kj_card_index(kj_card c);                /* 0..31 */
kj_cards kj_card_bit(kj_card c);

/* A trump suit: "H", "S", "D" or "R", "C" or "K" (or a suit symbol). */
bool kj_parse_suit(const char *text, int *suit);
const char *kj_suit_name(int suit); /* "C", "D", "H", "S" */

/* Cards separated by spaces, "HJ H9 SA"; no card twice, at most max. */
bool kj_parse_cards(const char *text, kj_card *list, int max, int *n, char *err, size_t errsz);

/* The ruleset's tables, read once: value[table][rank]. */
typedef struct kj_tables {
    int64_t value[KJT_COUNT][KJ_RANKS];
} kj_tables;

const char *kj_table_name(enum klaverjas_table t); /* "rank_trump", … */
bool kj_tables_load(const ruleset *rs, kj_tables *out, char *err, size_t errsz);

/* A trick: its leader and the cards in play order (0..4 of them). */
typedef struct kj_trick {
    enum bridge_seat leader;
    int ncards;
    kj_card cards[KJ_TRICK_SIZE];
} kj_trick;

/* "E:S7 SA S8 S10": the leader, a colon, the cards in play order. An empty
 * text is a trick of no cards (led by N: the caller says who leads). */
bool kj_parse_trick(const char *text, kj_trick *out, char *err, size_t errsz);
void kj_format_trick(const kj_trick *t, char *buf, size_t bufsz); /* as parsed: "E:S7 SA" */
enum bridge_seat kj_trick_seat(const kj_trick *t, int i);         /* who plays card i */
/* The card (0..ncards-1) that wins the trick so far: the highest trump by
 * rank_trump, else the highest card of the suit led by rank_plain. */
int kj_trick_winner(const kj_trick *t, int trump, const kj_tables *tb);

enum kj_side { KJ_TAKERS, KJ_DEFENDERS };
enum kj_side kj_side_of(enum bridge_seat seat, enum bridge_seat taker);

/* A player about to play: his cards, the trick so far (at most three
 * cards; he is next), the trump and, when known, the taker. */
typedef struct kj_position {
    int trump;
    enum bridge_seat seat;
    int ncards;
    kj_card hand[KJ_HAND_SIZE];
    kj_trick trick;
    bool has_taker;
    enum bridge_seat taker;
    bool has_penalty_card; /* Art. 11 (NKF): a card of his hand lies face up as a penalty card */
    kj_card penalty_card;
} kj_position;

bool kj_check_position(const kj_position *p, char *err, size_t errsz);
bool kj_holds(const kj_position *p, kj_card c);

/* What the legal article may know of a penalty card before it rules on
 * the other cards: it is his last card of the suit led, or the legal
 * article (ruling on it as on any card) calls it illegal, or legal. */
enum kj_penalty_case {
    KJ_PENALTY_UNKNOWN,
    KJ_PENALTY_LAST_OF_SUIT,
    KJ_PENALTY_NOT_ALLOWED,
    KJ_PENALTY_ALLOWED
};

/* position.* (docs/klaverjas.md) */
typedef struct kj_position_facts {
    bool can_follow, has_trump, can_overtrump, trump_led, trump_in_trick, partner_winning,
        only_trumps;
    bool leaders_partner; /* he plays third: the partner of the player who led to the trick */
    bool is_taker_side;   /* only when the position has a taker */
    bool has_penalty_card;
    bool can_overtrump_without_penalty_card; /* can_overtrump, the penalty card left aside */
    bool penalty_last_of_suit;               /* the penalty card is his only card of the suit led */
    enum kj_penalty_case penalty_case; /* filled by the scorer, who rules on the penalty card */
    /* filled by the scorer when there is a penalty card: a card of his hand
     * other than it is legal in the position without it (the hand less the
     * penalty card, as the legal article rules on it) */
    bool other_card_settled, other_card_allowed;
} kj_position_facts;

/* card.* */
typedef struct kj_card_facts {
    bool follows_suit, is_trump, leads, overtrumps, undertrumps;
    bool is_penalty_card;
    /* filled by the scorer for a card beside a penalty card: the legal
     * article, ruling as on any card, forbids it with the penalty card in
     * the hand and allows it with the penalty card taken out */
    bool freed_settled, legal_only_without_penalty_card;
} kj_card_facts;

void kj_settle_position(const kj_position *p, const kj_tables *tb, kj_position_facts *out);
void kj_settle_card(const kj_position *p, kj_card c, const kj_tables *tb, kj_card_facts *out);

/* A hand as played: the trump, the taker, up to eight finished tricks, the
 * tricks roem was claimed on and, optionally, the hands dealt. */
typedef struct kj_hand {
    int trump;
    enum bridge_seat taker;
    bool has_first_leader;
    enum bridge_seat first_leader;
    int ntricks;
    kj_trick tricks[KJ_TRICKS];
    bool roem_claimed[KJ_TRICKS];
    bool known[KJ_SEATS];
    kj_cards dealt[KJ_SEATS];
} kj_hand;

/* Checks a hand record: known hands of eight cards, none in two hands;
 * tricks of four cards; no card played twice, nor by a player whose known
 * hand does not hold it; trick 1 led by the first leader (when given),
 * every later trick by the winner of the one before. Three known hands give
 * the fourth, which is filled in. */
bool kj_check_hand(kj_hand *h, const kj_tables *tb, char *err, size_t errsz);

/* The position of the player of card i of trick t, as it was before he
 * played it; false when his hand is not known. */
bool kj_position_before(const kj_hand *h, int t, int i, kj_position *out);

/* trick.* */
typedef struct kj_trick_facts {
    int number; /* 1..8 */
    bool last;
    enum bridge_seat winner;
    enum kj_side won_by;
    int64_t card_points;
    int sequence; /* the longest run of one suit in sequence_order, 1..4 */
    bool four_of_a_kind;
    int four_rank; /* when four_of_a_kind */
    bool stuk, stuk_in_sequence, roem_claimed;
} kj_trick_facts;

/* Facts of finished trick t (0-based) of a checked hand. */
void kj_settle_trick(const kj_hand *h, int t, const kj_tables *tb, kj_trick_facts *out);

enum kj_illegal_by { KJ_ILLEGAL_NONE, KJ_ILLEGAL_TAKERS, KJ_ILLEGAL_DEFENDERS };

/* hand.*: sums over the trick article's rulings, filled by the scorer.
 * illegal_by is the side of the first card played that the legal article
 * calls illegal, illegal_reason the value of that ruling's `reason`: whether
 * it is a revoke is for the rule files to say, not the core. */
typedef struct kj_hand_facts {
    int64_t points[2], roem[2]; /* by enum kj_side */
    int tricks[2];
    bool complete;
    bool illegal_settled;
    enum kj_illegal_by illegal_by;
    const char *illegal_reason; /* a value name of the ruleset's type, or NULL */
} kj_hand_facts;

/* Tricks won by each side, and whether all eight were played. */
void kj_count_tricks(const kj_hand *h, const kj_tables *tb, kj_hand_facts *out);

#endif
