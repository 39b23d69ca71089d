/* bridge.c — bridge seats, calls and auction records (Art. 17-19, 22).
 *
 * Only what the auction record itself determines is settled here: whose turn
 * it was, whether a bid overcalls, whether a double is admissible, whether
 * the auction had ended. What a law article rules about it is not our
 * business.
 */
#include "bridge.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEAT_COUNT 4
#define BID_LEVEL_MAX 7    /* Art. 18A: a bid names one to seven odd tricks */
#define PARSE_LEVEL_MAX 99 /* read beyond seven so that such a bid can be ruled on */

#define TOKEN_SIZE 32 /* a valid token ("S:REDOUBLET*") is far shorter */
#define REASON_SIZE 160
#define DESCRIPTION_SIZE 40

#define CALL_EXPECTATION "expected P, X, XX or a bid such as 1S, 3NT"
#define DENOM_EXPECTATION "expected C, D, H, S or NT"
#define SEAT_EXPECTATION "expected N, E, S or W"

/* ------------------------------------------------------------------- seats */

static const char *const seat_names[SEAT_COUNT] = {"N", "E", "S", "W"};

static bool seat_is_valid(enum bridge_seat s) {
    return (unsigned)s < SEAT_COUNT;
}

/* Art. 17: the rotation is clockwise, so the next seat is the LHO. */
static enum bridge_seat seat_after(enum bridge_seat s) {
    return bridge_seat_at(s, REL_LHO);
}

static enum bridge_relative relative_from(enum bridge_seat from, enum bridge_seat to) {
    return (enum bridge_relative)(((unsigned)to + SEAT_COUNT - (unsigned)from) % SEAT_COUNT);
}

static bool seats_are_opponents(enum bridge_seat a, enum bridge_seat b) {
    enum bridge_relative rel = relative_from(a, b);
    return rel == REL_LHO || rel == REL_RHO;
}

const char *bridge_seat_name(enum bridge_seat s) {
    return seat_is_valid(s) ? seat_names[s] : "?";
}

enum bridge_seat bridge_seat_at(enum bridge_seat from, enum bridge_relative rel) {
    return (enum bridge_seat)(((unsigned)from + (unsigned)rel) % SEAT_COUNT);
}

/* ----------------------------------------------------------------- parsing */

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

static const struct seat_word {
    const char *word;
    enum bridge_seat seat;
} seat_words[] = {
    {"N", SEAT_N}, {"E", SEAT_E}, {"O", SEAT_E}, /* oost */
    {"S", SEAT_S}, {"Z", SEAT_S},                /* zuid */
    {"W", SEAT_W},
};

static const struct call_word {
    const char *word;
    enum bridge_call_kind kind;
} call_words[] = {
    {"P", CALL_PASS},
    {"PASS", CALL_PASS},
    {"PAS", CALL_PASS},
    {"-", CALL_PASS},
    {"X", CALL_DOUBLE},
    {"D", CALL_DOUBLE},
    {"DBL", CALL_DOUBLE},
    {"DOUBLE", CALL_DOUBLE},
    {"DOUBLET", CALL_DOUBLE},
    {"XX", CALL_REDOUBLE},
    {"R", CALL_REDOUBLE},
    {"RDBL", CALL_REDOUBLE},
    {"REDOUBLE", CALL_REDOUBLE},
    {"REDOUBLET", CALL_REDOUBLE},
};

/* K(laveren), R(uiten) and SA (sans atout) are the Dutch letters; H and S
 * read the same in both languages. */
static const struct denom_word {
    const char *word;
    enum bridge_denom denom;
} denom_words[] = {
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
    {"NT", DENOM_NT},
    {"N", DENOM_NT},
    {"SA", DENOM_NT},
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Whether text is word, ignoring case; the first letters are compared
 * first, as most words of a table differ there (a batch parses thousands
 * of calls a second). */
static bool is_word(const char *text, char upper_first, const char *word) {
    return word[0] == upper_first && equals_ignoring_case(text, word);
}

bool bridge_parse_seat(const char *text, enum bridge_seat *out) {
    if (text == NULL) return false;
    char first = ascii_upper(*text);
    for (size_t i = 0; i < COUNT_OF(seat_words); i++) {
        if (is_word(text, first, seat_words[i].word)) {
            *out = seat_words[i].seat;
            return true;
        }
    }
    return false;
}

static bool parse_denomination(const char *text, enum bridge_denom *out, char *why, size_t whysz) {
    char shown[EXCERPT_SIZE];
    if (*text == '\0')
        return fail_with(why, whysz, "no denomination after the level; " DENOM_EXPECTATION);
    char first = ascii_upper(*text);
    for (size_t i = 0; i < COUNT_OF(denom_words); i++) {
        if (is_word(text, first, denom_words[i].word)) {
            *out = denom_words[i].denom;
            return true;
        }
    }
    return fail_with(why, whysz, "unknown denomination \"%s\"; " DENOM_EXPECTATION,
                     text_excerpt(text, strlen(text), shown));
}

static bool parse_bid(const char *text, bridge_call *out, char *why, size_t whysz) {
    int level = 0;
    const char *p = text;
    for (; is_digit(*p); p++) {
        /* Stop accumulating once past the limit: no overflow on long digit runs. */
        if (level <= PARSE_LEVEL_MAX) level = level * 10 + (*p - '0');
    }
    if (level == 0) return fail_with(why, whysz, "level 0; a bid needs a level of 1 or more");
    if (level > PARSE_LEVEL_MAX) return fail_with(why, whysz, "level above %d", PARSE_LEVEL_MAX);
    enum bridge_denom denom = DENOM_C;
    if (!parse_denomination(p, &denom, why, whysz)) return false;
    *out = (bridge_call){.kind = CALL_BID, .level = level, .denom = denom};
    return true;
}

/* Writes the reason without the text, so that callers can name the text in
 * their own terms (the call itself, or a token of a compact record). */
static bool parse_call_text(const char *text, bridge_call *out, char *why, size_t whysz) {
    if (*text == '\0') return fail_with(why, whysz, "empty call; " CALL_EXPECTATION);
    if (is_digit(*text)) return parse_bid(text, out, why, whysz);
    char first = ascii_upper(*text);
    for (size_t i = 0; i < COUNT_OF(call_words); i++) {
        if (is_word(text, first, call_words[i].word)) {
            *out = (bridge_call){.kind = call_words[i].kind, .level = 0, .denom = DENOM_C};
            return true;
        }
    }
    return fail_with(why, whysz, "not a call; " CALL_EXPECTATION);
}

bool bridge_parse_call(const char *text, bridge_call *out, char *err, size_t errsz) {
    char why[REASON_SIZE];
    char shown[EXCERPT_SIZE];
    if (text == NULL) return fail_with(err, errsz, "no call text given");
    if (parse_call_text(text, out, why, sizeof why)) return true;
    return fail_with(err, errsz, "\"%s\": %s", text_excerpt(text, strlen(text), shown), why);
}

/* The denomination at the start of text; the longest spelling wins (NT
 * before N, SA before S). */
static const char *take_denomination(const char *text, enum bridge_denom *out) {
    size_t best = 0;
    for (size_t i = 0; i < COUNT_OF(denom_words); i++) {
        size_t n = strlen(denom_words[i].word);
        bool same = n > best;
        for (size_t k = 0; same && k < n; k++)
            same = ascii_upper(text[k]) == denom_words[i].word[k];
        if (same) {
            best = n;
            *out = denom_words[i].denom;
        }
    }
    return best ? text + best : NULL;
}

bool bridge_parse_contract(const char *text, bridge_contract *out, char *err, size_t errsz) {
    static const char *const expect = "expected a contract such as 4S=, 4SX+1, 3NTXX-2 or PASS";
    char shown[EXCERPT_SIZE];
    memset(out, 0, sizeof *out);
    if (text == NULL) return fail_with(err, errsz, "no contract given; %s", expect);
    const char *p = text;
    for (size_t i = 0; i < COUNT_OF(call_words); i++)
        if (call_words[i].kind == CALL_PASS && equals_ignoring_case(p, call_words[i].word)) {
            out->passed_out = true;
            return true;
        }
    if (*p < '1' || *p > '7' || is_digit(p[1]))
        return fail_with(err, errsz, "\"%s\": the level is 1 to 7; %s",
                         text_excerpt(text, strlen(text), shown), expect);
    out->level = *p++ - '0';
    if (!(p = take_denomination(p, &out->denom)))
        return fail_with(err, errsz, "\"%s\": no denomination after the level; %s",
                         text_excerpt(text, strlen(text), shown), expect);
    while (out->doubling < 2 && ascii_upper(*p) == 'X') {
        out->doubling++;
        p++;
    }
    char sign = *p++;
    if (sign == '=' && *p == '\0') return true;
    if ((sign != '+' && sign != '-') || !is_digit(*p) || (p[1] && !(is_digit(p[1]) && !p[2])))
        return fail_with(err, errsz, "\"%s\": the result is =, +N or -N; %s",
                         text_excerpt(text, strlen(text), shown), expect);
    int n = atoi(p);
    out->result = sign == '+' ? n : -n;
    if (n == 0) /* 3NT+0 or 3NT-0: made exactly, which is written = */
        return fail_with(err, errsz, "\"%s\": a contract made exactly is written =, not %c0; %s",
                         text_excerpt(text, strlen(text), shown), sign, expect);
    int tricks = out->level + 6 + out->result;
    if (tricks < 0 || tricks > 13)
        return fail_with(err, errsz, "\"%s\": %d tricks is not a result of a %d-level contract",
                         text_excerpt(text, strlen(text), shown), tricks, out->level);
    return true;
}

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

/* token is a writable copy: the seat prefix and the '*' are cut off in place. */
static bool parse_token(char *token, enum bridge_seat turn, bridge_auction_entry *out, char *why,
                        size_t whysz) {
    char shown[EXCERPT_SIZE];
    char *call_text = token;
    char *colon = strchr(token, ':');
    out->seat = turn;
    if (colon != NULL) {
        *colon = '\0';
        if (!bridge_parse_seat(token, &out->seat))
            return fail_with(why, whysz, "\"%s\" is not a seat; " SEAT_EXPECTATION,
                             text_excerpt(token, strlen(token), shown));
        call_text = colon + 1;
    }
    size_t n = strlen(call_text);
    out->marked_irregular = n > 0 && call_text[n - 1] == '*';
    if (out->marked_irregular) call_text[n - 1] = '\0';
    if (*call_text == '\0')
        return fail_with(why, whysz, "no call; expected [SEAT:]CALL[*], e.g. 1S, E:X or 1H*");
    return parse_call_text(call_text, &out->call, why, whysz);
}

/* The dealer is the text before the first colon, which must be a seat with
 * no blank inside (else the record does not start with "DEALER:"). */
static bool parse_dealer(const char *text, enum bridge_seat *dealer, const char **rest, char *err,
                         size_t errsz) {
    char shown[EXCERPT_SIZE];
    const char *start = skip_space(text);
    const char *colon = strchr(start, ':');
    size_t len = colon != NULL ? (size_t)(colon - start) : 0;
    if (colon == NULL || len == 0 || token_length(start) < len)
        return fail_with(err, errsz,
                         "auction \"%s\": begin with the dealer and a colon, e.g. \"N: 1S P\"",
                         text_excerpt(text, strlen(text), shown));
    char seat_text[TOKEN_SIZE];
    bool fits = len < sizeof seat_text;
    if (fits) {
        memcpy(seat_text, start, len);
        seat_text[len] = '\0';
    }
    if (!fits || !bridge_parse_seat(seat_text, dealer))
        return fail_with(err, errsz, "dealer \"%s\": not a seat; " SEAT_EXPECTATION,
                         text_excerpt(start, len, shown));
    *rest = colon + 1;
    return true;
}

bool bridge_parse_auction(const char *text, bridge_auction *out, char *err, size_t errsz) {
    char shown[EXCERPT_SIZE];
    char why[REASON_SIZE];
    const char *p = text;
    if (text == NULL) return fail_with(err, errsz, "no auction text given");
    if (!parse_dealer(text, &out->dealer, &p, err, errsz)) return false;
    out->ncalls = 0;
    enum bridge_seat turn = out->dealer;
    /* Token n is the n-th call: the "DEALER:" prefix is not counted. */
    for (int number = 1; *(p = skip_space(p)) != '\0'; number++) {
        size_t len = token_length(p);
        char token[TOKEN_SIZE];
        if (out->ncalls == BRIDGE_MAX_CALLS)
            return fail_with(err, errsz, "auction has more than %d calls", BRIDGE_MAX_CALLS);
        if (len >= sizeof token)
            return fail_with(err, errsz, "token %d \"%s\": too long to be a call", number,
                             text_excerpt(p, len, shown));
        memcpy(token, p, len);
        token[len] = '\0';
        bridge_auction_entry *entry = &out->calls[out->ncalls];
        memset(entry, 0, sizeof *entry);
        if (!parse_token(token, turn, entry, why, sizeof why))
            return fail_with(err, errsz, "token %d \"%s\": %s", number, text_excerpt(p, len, shown),
                             why);
        out->ncalls++;
        turn = seat_after(entry->seat); /* the rotation continues from whoever called */
        p += len;
    }
    if (out->ncalls == 0)
        return fail_with(err, errsz, "auction \"%s\": no calls after the dealer",
                         text_excerpt(text, strlen(text), shown));
    return true;
}

/* -------------------------------------------------------------- formatting */

static const char *const denom_names[] = {"C", "D", "H", "S", "NT"};

static bool denom_is_valid(enum bridge_denom d) {
    return (unsigned)d < COUNT_OF(denom_names);
}

void bridge_format_call(const bridge_call *c, char buf[8]) {
    const char *word = "?";
    switch (c->kind) {
    case CALL_PASS:
        word = "P";
        break;
    case CALL_DOUBLE:
        word = "X";
        break;
    case CALL_REDOUBLE:
        word = "XX";
        break;
    case CALL_BID:
        if (c->level >= 1 && c->level <= PARSE_LEVEL_MAX && denom_is_valid(c->denom)) {
            snprintf(buf, 8, "%d%s", c->level, denom_names[c->denom]);
            return;
        }
        break;
    }
    snprintf(buf, 8, "%s", word);
}

/* --------------------------------------------------------------- analysis */

/* What the calls before some point have established. */
typedef struct auction_state {
    enum bridge_seat turn; /* who is expected to call next */
    bool has_bid;
    bridge_call last_bid;
    enum bridge_seat last_bidder;
    bool has_action;                  /* any call other than a pass so far */
    bridge_auction_entry last_action; /* the last call other than a pass */
    int trailing_passes;              /* consecutive passes at the end */
} auction_state;

enum irregularity {
    IRREGULARITY_NONE,
    IRREGULARITY_AFTER_END,
    IRREGULARITY_OUT_OF_ROTATION,
    IRREGULARITY_OVER_SEVEN,
    IRREGULARITY_INSUFFICIENT,
    IRREGULARITY_INADMISSIBLE,
};

static void state_start(auction_state *st, enum bridge_seat dealer) {
    *st = (auction_state){.turn = dealer}; /* Art. 17: the dealer calls first */
}

static void state_advance(auction_state *st, const bridge_auction_entry *e) {
    /* After a call out of rotation the table carries on from the caller. */
    st->turn = seat_after(e->seat);
    if (e->call.kind == CALL_PASS) {
        st->trailing_passes++;
        return;
    }
    st->trailing_passes = 0;
    st->has_action = true;
    st->last_action = *e;
    if (e->call.kind == CALL_BID) {
        st->has_bid = true;
        st->last_bid = e->call;
        st->last_bidder = e->seat;
    }
}

/* Art. 22: three passes after a bid, or four passes to open. */
static bool state_auction_ended(const auction_state *st) {
    if (st->has_bid) return st->trailing_passes >= 3;
    return !st->has_action && st->trailing_passes >= 4;
}

/* Art. 18B: more tricks, or as many in a higher denomination. */
static bool call_overcalls(const bridge_call *bid, const bridge_call *previous) {
    return bid->level > previous->level ||
           (bid->level == previous->level && bid->denom > previous->denom);
}

static bool state_bid_insufficient(const auction_state *st, const bridge_call *call) {
    return call->kind == CALL_BID && st->has_bid && !call_overcalls(call, &st->last_bid);
}

/* Art. 19A1/19B1: only passes may stand between the doubled bid (or the
 * redoubled double) and the call, and it must be the opponents'. */
static bool state_double_admissible(const auction_state *st, enum bridge_seat caller,
                                    enum bridge_call_kind kind) {
    enum bridge_call_kind target;
    switch (kind) {
    case CALL_DOUBLE:
        target = CALL_BID;
        break;
    case CALL_REDOUBLE:
        target = CALL_DOUBLE;
        break;
    default:
        return true;
    }
    return st->has_action && st->last_action.call.kind == target &&
           seats_are_opponents(caller, st->last_action.seat);
}

static enum irregularity state_classify(const auction_state *st, const bridge_auction_entry *e) {
    if (state_auction_ended(st)) return IRREGULARITY_AFTER_END;
    if (e->seat != st->turn) return IRREGULARITY_OUT_OF_ROTATION;
    if (e->call.kind == CALL_BID && e->call.level > BID_LEVEL_MAX) return IRREGULARITY_OVER_SEVEN;
    if (state_bid_insufficient(st, &e->call)) return IRREGULARITY_INSUFFICIENT;
    if (!state_double_admissible(st, e->seat, e->call.kind)) return IRREGULARITY_INADMISSIBLE;
    return IRREGULARITY_NONE;
}

/* The first call of seat among calls [from, to), or -1. */
static int first_call_between(const bridge_auction *a, int from, int to, enum bridge_seat seat) {
    for (int i = from; i < to; i++)
        if (a->calls[i].seat == seat) return i;
    return -1;
}

static bool seat_called_between(const bridge_auction *a, int from, int to, enum bridge_seat seat) {
    return first_call_between(a, from, to, seat) >= 0;
}

/* The record settles which bid in the same denomination would have been the
 * lowest sufficient one; rulesets decide what it is for. A sufficient bid is
 * its own answer, and no bid above seven can be the answer to an
 * insufficient one. */
static void settle_lowest_sufficient(const auction_state *st, const bridge_call *call,
                                     bridge_facts *f) {
    if (call->kind != CALL_BID) return;
    if (!state_bid_insufficient(st, call)) {
        f->has_lowest_sufficient = true;
        f->lowest_sufficient = *call;
        return;
    }
    bridge_call lowest = {.kind = CALL_BID, .level = st->last_bid.level, .denom = call->denom};
    if (call->denom <= st->last_bid.denom) lowest.level++;
    if (lowest.level > BID_LEVEL_MAX) return;
    f->has_lowest_sufficient = true;
    f->lowest_sufficient = lowest;
}

/* Whether seat's side doubled or redoubled the last bid before call k
 * (the calls after that bid, which is the last bid before k). */
static bool side_doubled_last_bid(const bridge_auction *a, int k, enum bridge_seat seat) {
    for (int i = k - 1; i >= 0 && a->calls[i].call.kind != CALL_BID; i--)
        if ((a->calls[i].call.kind == CALL_DOUBLE || a->calls[i].call.kind == CALL_REDOUBLE) &&
            !seats_are_opponents(seat, a->calls[i].seat))
            return true;
    return false;
}

static void settle_facts(const bridge_auction *a, int k, const auction_state *st, bridge_facts *f) {
    const bridge_auction_entry *e = &a->calls[k];
    int lho_call = first_call_between(a, k + 1, a->ncalls, bridge_seat_at(e->seat, REL_LHO));
    *f = (bridge_facts){
        .irregular_index = k,
        .offender = e->seat,
        .turn = st->turn,
        .turn_was = relative_from(e->seat, st->turn),
        .call_kind = e->call.kind,
        .insufficient = state_bid_insufficient(st, &e->call),
        .over_seven = e->call.kind == CALL_BID && e->call.level > BID_LEVEL_MAX,
        .double_admissible = state_double_admissible(st, e->seat, e->call.kind),
        .after_final_pass = state_auction_ended(st),
        .offender_called_before = seat_called_between(a, 0, k, e->seat),
        .bid_before = st->has_bid,
        .lho_called = lho_call >= 0,
        .lho_call_kind = lho_call >= 0 ? a->calls[lho_call].call.kind : CALL_PASS,
        .rho_called = seat_called_between(a, k + 1, a->ncalls, bridge_seat_at(e->seat, REL_RHO)),
        .side_doubled_before = side_doubled_last_bid(a, k, e->seat),
        .pass_instead_ends = st->has_bid && st->trailing_passes == 2    ? PASS_ENDS_AFTER_BID
                             : !st->has_bid && st->trailing_passes == 3 ? PASS_ENDS_PASSED_OUT
                                                                        : PASS_ENDS_NOT,
        /* after the final pass the offender's part is settled: the side
         * that made the last bid declares (none on a passed-out board) */
        .role = !state_auction_ended(st)                        ? AUCTION_ROLE_UNSETTLED
                : !st->has_bid                                  ? AUCTION_ROLE_NONE
                : seats_are_opponents(e->seat, st->last_bidder) ? AUCTION_ROLE_DEFENDING_SIDE
                                                                : AUCTION_ROLE_DECLARING_SIDE,
        .irregular_call = e->call,
    };
    settle_lowest_sufficient(st, &e->call, f);
}

/* "call 3 (E 1H)": numbered from 1, as a director counts. */
static const char *describe_call(const bridge_auction *a, int i, char out[DESCRIPTION_SIZE]) {
    char call[8];
    bridge_format_call(&a->calls[i].call, call);
    snprintf(out, DESCRIPTION_SIZE, "call %d (%s %s)", i + 1, bridge_seat_name(a->calls[i].seat),
             call);
    return out;
}

static void describe_irregularity(enum irregularity irr, const auction_state *st,
                                  const bridge_call *call, char *why, size_t whysz) {
    char last[8];
    switch (irr) {
    case IRREGULARITY_OUT_OF_ROTATION:
        snprintf(why, whysz, "out of rotation, it was %s's turn", bridge_seat_name(st->turn));
        return;
    case IRREGULARITY_INSUFFICIENT:
        bridge_format_call(&st->last_bid, last);
        snprintf(why, whysz, "insufficient, it does not overcall %s", last);
        return;
    case IRREGULARITY_AFTER_END:
        snprintf(why, whysz, "made after the auction had ended");
        return;
    case IRREGULARITY_OVER_SEVEN:
        snprintf(why, whysz, "a bid above seven");
        return;
    case IRREGULARITY_INADMISSIBLE:
        snprintf(
            why, whysz, "%s",
            call->kind == CALL_DOUBLE
                ? "inadmissible, a double must follow an opponent's bid with only passes between"
                : "inadmissible, a redouble must follow an opponent's double with only passes "
                  "between");
        return;
    case IRREGULARITY_NONE:
        break;
    }
    snprintf(why, whysz, "regular");
}

static bool fail_irregular_before(const bridge_auction *a, int i, enum irregularity irr,
                                  const auction_state *st, int marked, char *err, size_t errsz) {
    char why[REASON_SIZE];
    char earlier[DESCRIPTION_SIZE];
    char irregular[DESCRIPTION_SIZE];
    describe_irregularity(irr, st, &a->calls[i].call, why, sizeof why);
    return fail_with(err, errsz, "%s is %s; the record must be regular up to the irregular %s",
                     describe_call(a, i, earlier), why, describe_call(a, marked, irregular));
}

/* The record may come from a scenario reader rather than our parser, so
 * every value is checked before it indexes anything. */
static bool validate_entry(const bridge_auction_entry *e, int number, char *err, size_t errsz) {
    if (!seat_is_valid(e->seat))
        return fail_with(err, errsz, "call %d: seat value %d is not N, E, S or W", number,
                         (int)e->seat);
    switch (e->call.kind) {
    case CALL_PASS:
    case CALL_DOUBLE:
    case CALL_REDOUBLE:
        return true;
    case CALL_BID:
        if (e->call.level < 1 || e->call.level > PARSE_LEVEL_MAX)
            return fail_with(err, errsz, "call %d: bid level %d is outside 1..%d", number,
                             e->call.level, PARSE_LEVEL_MAX);
        if (!denom_is_valid(e->call.denom))
            return fail_with(err, errsz, "call %d: denomination value %d is not C, D, H, S or NT",
                             number, (int)e->call.denom);
        return true;
    }
    return fail_with(err, errsz,
                     "call %d: call kind value %d is not a pass, bid, double or redouble", number,
                     (int)e->call.kind);
}

static bool validate_auction(const bridge_auction *a, char *err, size_t errsz) {
    if (a->ncalls < 1) return fail_with(err, errsz, "the auction record has no calls");
    if (a->ncalls > BRIDGE_MAX_CALLS)
        return fail_with(err, errsz, "the auction record has %d calls; at most %d are read",
                         a->ncalls, BRIDGE_MAX_CALLS);
    if (!seat_is_valid(a->dealer))
        return fail_with(err, errsz, "dealer value %d is not N, E, S or W", (int)a->dealer);
    for (int i = 0; i < a->ncalls; i++) {
        if (!validate_entry(&a->calls[i], i + 1, err, errsz)) return false;
    }
    return true;
}

/* *marked is -1 when no call is marked. */
static bool find_marked_call(const bridge_auction *a, int *marked, char *err, size_t errsz) {
    char first[DESCRIPTION_SIZE];
    char second[DESCRIPTION_SIZE];
    *marked = -1;
    for (int i = 0; i < a->ncalls; i++) {
        if (!a->calls[i].marked_irregular) continue;
        if (*marked >= 0)
            return fail_with(err, errsz, "%s and %s are both marked irregular; mark only one",
                             describe_call(a, *marked, first), describe_call(a, i, second));
        *marked = i;
    }
    return true;
}

bool bridge_analyse(const bridge_auction *a, bridge_facts *out, char *err, size_t errsz) {
    int marked;
    if (a == NULL) return fail_with(err, errsz, "no auction record given");
    if (!validate_auction(a, err, errsz) || !find_marked_call(a, &marked, err, errsz)) return false;
    auction_state st;
    state_start(&st, a->dealer);
    for (int i = 0; i < a->ncalls; i++) {
        enum irregularity irr = state_classify(&st, &a->calls[i]);
        if (i == marked || (marked < 0 && irr != IRREGULARITY_NONE)) {
            settle_facts(a, i, &st, out);
            return true;
        }
        if (irr != IRREGULARITY_NONE)
            return fail_irregular_before(a, i, irr, &st, marked, err, errsz);
        state_advance(&st, &a->calls[i]);
    }
    return fail_with(
        err, errsz,
        "the auction record has no irregular call; mark one with \"irregular\": true or '*'");
}
