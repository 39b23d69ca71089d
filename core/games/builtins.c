/* builtins.c — record facts by name. */
#include "builtins.h"

#include <string.h>

static const char *const seat_names[] = {"N", "E", "S", "W"};
static const char *const relative_names[] = {"offender", "lho", "partner", "rho"};
static const char *const kind_names[] = {"pass", "bid", "double", "redouble"};
/* the offender's part after the final pass (enum bridge_role, from 1) */
static const char *const auction_role_names[] = {"declarer_or_dummy", "defender", "none"};
/* an inadmissible double or redouble: the side had doubled or redoubled the
 * bid already, or another case */
static const char *const double_case_names[] = {"already_doubled", "other"};
/* whether a pass in the irregular call's place ends the auction (enum bridge_pass_ending) */
static const char *const pass_ending_names[] = {"no", "after_bid", "passed_out"};
static const char *const denom_names[] = {"clubs", "diamonds", "hearts", "spades", "notrump"};
static const char *const doubling_names[] = {"undoubled", "doubled", "redoubled"};
static const char *const role_names[] = {"declarer", "dummy", "defender"}; /* enum play_role */
static const char *const won_by_names[] = {"offender", "partner",
                                           "opponents"};         /* enum revoke_trick_winner */
static const char *const side_names[] = {"takers", "defenders"}; /* enum kj_side */
static const char *const illegal_by_names[] = {"none", "takers",
                                               "defenders"}; /* enum kj_illegal_by */
/* enum kj_penalty_case, from its second value */
static const char *const penalty_case_names[] = {"last_of_suit_led", "not_allowed", "allowed"};
/* What a score sheet asks the adjusted-score article about (the values of
 * scoring.adjusted; core/api/adjusted.c). */
static const char *const adjusted_names[] = {
    "average_plus",       "average", "average_minus", "percentage", "procedural_penalty",
    "penalty_percentage", "board",   "contract"};
/* Which of two pairs tied on matchpoints scored the more points
 * (ranking.more_points). */
static const char *const more_points_names[] = {"pair_a", "pair_b", "equal"};
static const char *const rank_names[] = {"seven", "eight", "nine", "ten",
                                         "jack",  "queen", "king", "ace"}; /* enum kj_rank */

enum {
    B_OFFENDER,
    B_TURN,
    B_TURN_WAS,
    B_CALL_KIND,
    B_INSUFFICIENT,
    B_OVER_SEVEN,
    B_DOUBLE_ADMISSIBLE,
    B_AFTER_FINAL_PASS,
    B_OFFENDER_CALLED_BEFORE,
    B_LHO_CALLED,
    B_LHO_CALL_KIND,
    B_BID_BEFORE,
    B_RHO_CALLED,
    B_LOWEST_SUFFICIENT,
    B_SUFFICIENT_IN_DENOMINATION,
    B_INADMISSIBLE_DOUBLE_CASE,
    B_PASS_INSTEAD_ENDS,
    B_OFFENDER_ROLE,
    B_IRREGULAR_CALL,
    B_DEALER,
    B_PASSED_OUT,
    B_LEVEL,
    B_DENOMINATION,
    B_DOUBLING,
    B_RESULT,
    B_TRICKS,
    B_VULNERABLE,
    B_BEATEN,
    B_EQUALLED,
    B_OTHERS,
    B_DIFFERENCE,
    B_ADJUSTED,
    B_PERCENTAGE,
    B_SHEET_BOARD,
    B_IN_IMPS,
    B_SESSION_KNOWN,
    B_SESSION_PASSES,
    B_BOARD_ADJUSTED,
    B_RANKING_TOPS_A,
    B_RANKING_TOPS_B,
    B_RANKING_MORE_POINTS,
    B_TRICKS_COMPLETE,
    B_DECLARER_TRICKS,
    B_LEAD_OUT_OF_TURN,
    B_LEAD_OUT_OF_TURN_TRICK,
    B_WRONG_LEADER_ROLE,
    B_OPENING_LEAD_OUT_OF_TURN, /* only with a lead out of turn */
    B_REVOKE,
    B_REVOKE_TRICK,
    B_REVOKER,
    B_REVOKER_ROLE,
    B_REVOKE_ESTABLISHED,
    B_REVOKE_TRICK_WON_BY, /* only with a revoke */
    B_OFFENDING_SIDE_TRICKS_AFTER,
    B_SECOND_REVOKE_SAME_SUIT,
    B_REVOKE_IN_TWELFTH_TRICK,
    B_CARD_FOLLOWS_SUIT,
    B_CARD_IS_TRUMP,
    B_CARD_LEADS,
    B_CARD_OVERTRUMPS,
    B_CARD_UNDERTRUMPS,
    B_CARD_IS_PENALTY_CARD,
    B_CARD_LEGAL_ONLY_WITHOUT_PENALTY_CARD,
    B_POS_CAN_FOLLOW,
    B_POS_HAS_TRUMP,
    B_POS_CAN_OVERTRUMP,
    B_POS_CAN_OVERTRUMP_WITHOUT_PENALTY,
    B_POS_TRUMP_LED,
    B_POS_TRUMP_IN_TRICK,
    B_POS_PARTNER_WINNING,
    B_POS_LEADERS_PARTNER,
    B_POS_ONLY_TRUMPS,
    B_POS_IS_TAKER_SIDE,
    B_POS_HAS_PENALTY_CARD,
    B_POS_PENALTY_CARD_CASE,
    B_POS_OTHER_CARD_ALLOWED,
    B_TRICK_NUMBER,
    B_TRICK_LAST,
    B_TRICK_WON_BY,
    B_TRICK_CARD_POINTS,
    B_TRICK_SEQUENCE,
    B_TRICK_FOUR_OF_A_KIND,
    B_TRICK_FOUR_RANK,
    B_TRICK_STUK,
    B_TRICK_STUK_IN_SEQUENCE,
    B_TRICK_ROEM_CLAIMED,
    B_HAND_TAKERS_POINTS,
    B_HAND_DEFENDERS_POINTS,
    B_HAND_TAKERS_ROEM,
    B_HAND_DEFENDERS_ROEM,
    B_HAND_TAKERS_TRICKS,
    B_HAND_DEFENDERS_TRICKS,
    B_HAND_COMPLETE,
    B_HAND_ILLEGAL_BY,
    B_HAND_ILLEGAL_REASON,
    B_COUNT
};

static const builtin_desc builtins[B_COUNT] = {
    [B_OFFENDER] = {"auction", "offender", BT_SYMBOL, seat_names, 4},
    [B_TURN] = {"auction", "turn", BT_SYMBOL, seat_names, 4},
    [B_TURN_WAS] = {"auction", "turn_was", BT_SYMBOL, relative_names, 4},
    [B_CALL_KIND] = {"auction", "call_kind", BT_SYMBOL, kind_names, 4},
    [B_INSUFFICIENT] = {"auction", "insufficient", BT_BOOL, NULL, 0},
    [B_OVER_SEVEN] = {"auction", "over_seven", BT_BOOL, NULL, 0},
    [B_DOUBLE_ADMISSIBLE] = {"auction", "double_admissible", BT_BOOL, NULL, 0},
    [B_AFTER_FINAL_PASS] = {"auction", "after_final_pass", BT_BOOL, NULL, 0},
    [B_OFFENDER_CALLED_BEFORE] = {"auction", "offender_called_before", BT_BOOL, NULL, 0},
    [B_LHO_CALLED] = {"auction", "lho_called", BT_BOOL, NULL, 0},
    [B_LHO_CALL_KIND] = {"auction", "lho_call_kind", BT_SYMBOL, kind_names, 4},
    [B_BID_BEFORE] = {"auction", "bid_before", BT_BOOL, NULL, 0},
    [B_RHO_CALLED] = {"auction", "rho_called", BT_BOOL, NULL, 0},
    [B_LOWEST_SUFFICIENT] = {"auction", "lowest_sufficient", BT_CALL, NULL, 0},
    [B_SUFFICIENT_IN_DENOMINATION] = {"auction", "sufficient_in_denomination", BT_BOOL, NULL, 0},
    [B_INADMISSIBLE_DOUBLE_CASE] = {"auction", "inadmissible_double_case", BT_SYMBOL,
                                    double_case_names, 2},
    [B_PASS_INSTEAD_ENDS] = {"auction", "pass_instead_ends", BT_SYMBOL, pass_ending_names, 3},
    [B_OFFENDER_ROLE] = {"auction", "offender_role", BT_SYMBOL, auction_role_names, 3},
    [B_IRREGULAR_CALL] = {"auction", "irregular_call", BT_CALL, NULL, 0},
    [B_DEALER] = {"auction", "dealer", BT_SYMBOL, seat_names, 4},
    [B_PASSED_OUT] = {"contract", "passed_out", BT_BOOL, NULL, 0},
    [B_LEVEL] = {"contract", "level", BT_INT, NULL, 0},
    [B_DENOMINATION] = {"contract", "denomination", BT_SYMBOL, denom_names, 5},
    [B_DOUBLING] = {"contract", "doubling", BT_SYMBOL, doubling_names, 3},
    [B_RESULT] = {"contract", "result", BT_INT, NULL, 0},
    [B_TRICKS] = {"contract", "tricks", BT_INT, NULL, 0},
    [B_VULNERABLE] = {"contract", "vulnerable", BT_BOOL, NULL, 0},
    [B_BEATEN] = {"scoring", "beaten", BT_INT, NULL, 0},
    [B_EQUALLED] = {"scoring", "equalled", BT_INT, NULL, 0},
    [B_OTHERS] = {"scoring", "others", BT_INT, NULL, 0},
    [B_DIFFERENCE] = {"scoring", "difference", BT_INT, NULL, 0},
    [B_ADJUSTED] = {"scoring", "adjusted", BT_SYMBOL, adjusted_names, 8},
    [B_PERCENTAGE] = {"scoring", "percentage", BT_INT, NULL, 0},
    [B_SHEET_BOARD] = {"scoring", "board", BT_INT, NULL, 0},
    [B_IN_IMPS] = {"scoring", "in_imps", BT_BOOL, NULL, 0},
    [B_SESSION_KNOWN] = {"scoring", "session_known", BT_BOOL, NULL, 0},
    [B_SESSION_PASSES] = {"scoring", "session_passes", BT_BOOL, NULL, 0},
    [B_BOARD_ADJUSTED] = {"scoring", "board_adjusted", BT_BOOL, NULL, 0},
    [B_RANKING_TOPS_A] = {"ranking", "tops_a", BT_INT, NULL, 0},
    [B_RANKING_TOPS_B] = {"ranking", "tops_b", BT_INT, NULL, 0},
    [B_RANKING_MORE_POINTS] = {"ranking", "more_points", BT_SYMBOL, more_points_names, 3},
    [B_TRICKS_COMPLETE] = {"play", "tricks_complete", BT_INT, NULL, 0},
    [B_DECLARER_TRICKS] = {"play", "declarer_tricks", BT_INT, NULL, 0},
    [B_LEAD_OUT_OF_TURN] = {"play", "lead_out_of_turn", BT_BOOL, NULL, 0},
    [B_LEAD_OUT_OF_TURN_TRICK] = {"play", "lead_out_of_turn_trick", BT_INT, NULL, 0},
    [B_WRONG_LEADER_ROLE] = {"play", "wrong_leader_role", BT_SYMBOL, role_names, 3},
    [B_OPENING_LEAD_OUT_OF_TURN] = {"play", "opening_lead_out_of_turn", BT_BOOL, NULL, 0},
    [B_REVOKE] = {"play", "revoke", BT_BOOL, NULL, 0},
    [B_REVOKE_TRICK] = {"play", "revoke_trick", BT_INT, NULL, 0},
    [B_REVOKER] = {"play", "revoker", BT_SYMBOL, seat_names, 4},
    [B_REVOKER_ROLE] = {"play", "revoker_role", BT_SYMBOL, role_names, 3},
    [B_REVOKE_ESTABLISHED] = {"play", "revoke_established", BT_BOOL, NULL, 0},
    [B_REVOKE_TRICK_WON_BY] = {"play", "revoke_trick_won_by", BT_SYMBOL, won_by_names, 3},
    [B_OFFENDING_SIDE_TRICKS_AFTER] = {"play", "offending_side_tricks_after", BT_INT, NULL, 0},
    [B_SECOND_REVOKE_SAME_SUIT] = {"play", "second_revoke_same_suit", BT_BOOL, NULL, 0},
    [B_REVOKE_IN_TWELFTH_TRICK] = {"play", "revoke_in_twelfth_trick", BT_BOOL, NULL, 0},
    [B_CARD_FOLLOWS_SUIT] = {"card", "follows_suit", BT_BOOL, NULL, 0},
    [B_CARD_IS_TRUMP] = {"card", "is_trump", BT_BOOL, NULL, 0},
    [B_CARD_LEADS] = {"card", "leads", BT_BOOL, NULL, 0},
    [B_CARD_OVERTRUMPS] = {"card", "overtrumps", BT_BOOL, NULL, 0},
    [B_CARD_UNDERTRUMPS] = {"card", "undertrumps", BT_BOOL, NULL, 0},
    [B_CARD_IS_PENALTY_CARD] = {"card", "is_penalty_card", BT_BOOL, NULL, 0},
    [B_CARD_LEGAL_ONLY_WITHOUT_PENALTY_CARD] = {"card", "legal_only_without_penalty_card", BT_BOOL,
                                                NULL, 0},
    [B_POS_CAN_FOLLOW] = {"position", "can_follow", BT_BOOL, NULL, 0},
    [B_POS_HAS_TRUMP] = {"position", "has_trump", BT_BOOL, NULL, 0},
    [B_POS_CAN_OVERTRUMP] = {"position", "can_overtrump", BT_BOOL, NULL, 0},
    [B_POS_CAN_OVERTRUMP_WITHOUT_PENALTY] = {"position", "can_overtrump_without_penalty_card",
                                             BT_BOOL, NULL, 0},
    [B_POS_TRUMP_LED] = {"position", "trump_led", BT_BOOL, NULL, 0},
    [B_POS_TRUMP_IN_TRICK] = {"position", "trump_in_trick", BT_BOOL, NULL, 0},
    [B_POS_PARTNER_WINNING] = {"position", "partner_winning", BT_BOOL, NULL, 0},
    [B_POS_LEADERS_PARTNER] = {"position", "leaders_partner", BT_BOOL, NULL, 0},
    [B_POS_ONLY_TRUMPS] = {"position", "only_trumps", BT_BOOL, NULL, 0},
    [B_POS_IS_TAKER_SIDE] = {"position", "is_taker_side", BT_BOOL, NULL, 0},
    [B_POS_HAS_PENALTY_CARD] = {"position", "has_penalty_card", BT_BOOL, NULL, 0},
    [B_POS_PENALTY_CARD_CASE] = {"position", "penalty_card_case", BT_SYMBOL, penalty_case_names, 3},
    [B_POS_OTHER_CARD_ALLOWED] = {"position", "other_card_allowed", BT_BOOL, NULL, 0},
    [B_TRICK_NUMBER] = {"trick", "number", BT_INT, NULL, 0},
    [B_TRICK_LAST] = {"trick", "last", BT_BOOL, NULL, 0},
    [B_TRICK_WON_BY] = {"trick", "won_by", BT_SYMBOL, side_names, 2},
    [B_TRICK_CARD_POINTS] = {"trick", "card_points", BT_INT, NULL, 0},
    [B_TRICK_SEQUENCE] = {"trick", "sequence", BT_INT, NULL, 0},
    [B_TRICK_FOUR_OF_A_KIND] = {"trick", "four_of_a_kind", BT_BOOL, NULL, 0},
    [B_TRICK_FOUR_RANK] = {"trick", "four_rank", BT_SYMBOL, rank_names, 8},
    [B_TRICK_STUK] = {"trick", "stuk", BT_BOOL, NULL, 0},
    [B_TRICK_STUK_IN_SEQUENCE] = {"trick", "stuk_in_sequence", BT_BOOL, NULL, 0},
    [B_TRICK_ROEM_CLAIMED] = {"trick", "roem_claimed", BT_BOOL, NULL, 0},
    [B_HAND_TAKERS_POINTS] = {"hand", "takers_points", BT_INT, NULL, 0},
    [B_HAND_DEFENDERS_POINTS] = {"hand", "defenders_points", BT_INT, NULL, 0},
    [B_HAND_TAKERS_ROEM] = {"hand", "takers_roem", BT_INT, NULL, 0},
    [B_HAND_DEFENDERS_ROEM] = {"hand", "defenders_roem", BT_INT, NULL, 0},
    [B_HAND_TAKERS_TRICKS] = {"hand", "takers_tricks", BT_INT, NULL, 0},
    [B_HAND_DEFENDERS_TRICKS] = {"hand", "defenders_tricks", BT_INT, NULL, 0},
    [B_HAND_COMPLETE] = {"hand", "complete", BT_BOOL, NULL, 0},
    [B_HAND_ILLEGAL_BY] = {"hand", "illegal_by", BT_SYMBOL, illegal_by_names, 3},
    /* its values are the ruleset's own (the legal article's `reason`): none listed */
    [B_HAND_ILLEGAL_REASON] = {"hand", "illegal_reason", BT_SYMBOL, NULL, 0},
};

int builtin_count(void) {
    return B_COUNT;
}

const builtin_desc *builtin_at(int i) {
    return &builtins[i];
}

int builtin_find(const char *ns, const char *name) {
    for (int i = 0; i < B_COUNT; i++)
        if (strcmp(builtins[i].ns, ns) == 0 && strcmp(builtins[i].name, name) == 0) return i;
    return -1;
}

int64_t call_to_value(const bridge_call *c) {
    switch (c->kind) {
    case CALL_PASS:
        return 0;
    case CALL_DOUBLE:
        return 1;
    case CALL_REDOUBLE:
        return 2;
    default:
        return 3 + (int64_t)(c->level - 1) * 5 + (int64_t)c->denom;
    }
}

bridge_call call_from_value(int64_t v) {
    static const enum bridge_call_kind first[] = {CALL_PASS, CALL_DOUBLE, CALL_REDOUBLE};
    if (v >= 0 && v < 3) return (bridge_call){first[v], 0, DENOM_C};
    return (bridge_call){CALL_BID, (int)((v - 3) / 5 + 1), (enum bridge_denom)((v - 3) % 5)};
}

static bool auction_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const bridge_facts *bf = &rec->auction_facts;
    switch (i) {
    case B_OFFENDER:
        *symbol = seat_names[bf->offender];
        return true;
    case B_TURN:
        *symbol = seat_names[bf->turn];
        return true;
    case B_TURN_WAS:
        *symbol = relative_names[bf->turn_was];
        return true;
    case B_CALL_KIND:
        *symbol = kind_names[bf->call_kind];
        return true;
    case B_INSUFFICIENT:
        *value = bf->insufficient;
        return true;
    case B_OVER_SEVEN:
        *value = bf->over_seven;
        return true;
    case B_DOUBLE_ADMISSIBLE:
        *value = bf->double_admissible;
        return true;
    case B_AFTER_FINAL_PASS:
        *value = bf->after_final_pass;
        return true;
    case B_OFFENDER_CALLED_BEFORE:
        *value = bf->offender_called_before;
        return true;
    case B_LHO_CALLED:
        *value = bf->lho_called;
        return true;
    case B_LHO_CALL_KIND: /* the record says it only where he has called */
        if (!bf->lho_called) return false;
        *symbol = kind_names[bf->lho_call_kind];
        return true;
    case B_RHO_CALLED:
        *value = bf->rho_called;
        return true;
    case B_BID_BEFORE:
        *value = bf->bid_before;
        return true;
    case B_LOWEST_SUFFICIENT:
        if (!bf->has_lowest_sufficient) return false;
        *value = call_to_value(&bf->lowest_sufficient);
        return true;
    case B_SUFFICIENT_IN_DENOMINATION: /* of a bid: whether any bid of its denomination is */
        if (bf->irregular_call.kind != CALL_BID) return false;
        *value = bf->has_lowest_sufficient;
        return true;
    case B_INADMISSIBLE_DOUBLE_CASE: /* only of an inadmissible double or redouble */
        if (bf->double_admissible) return false;
        *symbol = double_case_names[bf->side_doubled_before ? 0 : 1];
        return true;
    case B_PASS_INSTEAD_ENDS: /* only of a call made before the auction ended */
        if (bf->after_final_pass) return false;
        *symbol = pass_ending_names[bf->pass_instead_ends];
        return true;
    case B_OFFENDER_ROLE: /* only of a call after the final pass */
        if (bf->role == AUCTION_ROLE_UNSETTLED) return false;
        *symbol = auction_role_names[bf->role - 1];
        return true;
    case B_IRREGULAR_CALL:
        *value = call_to_value(&bf->irregular_call);
        return true;
    case B_DEALER:
        *symbol = seat_names[rec->auction.dealer];
        return true;
    default:
        return false;
    }
}

static bool contract_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const bridge_contract *c = &rec->contract;
    if (i == B_PASSED_OUT) return (*value = c->passed_out), true;
    if (c->passed_out) return false; /* a passed-out board has no contract to speak of */
    switch (i) {
    case B_LEVEL:
        *value = c->level;
        return true;
    case B_DENOMINATION:
        *symbol = denom_names[c->denom];
        return true;
    case B_DOUBLING:
        *symbol = doubling_names[c->doubling];
        return true;
    case B_RESULT:
        *value = c->result;
        return true;
    case B_TRICKS:
        *value = c->level + 6 + c->result;
        return true;
    default:
        return false;
    }
}

/* "No revoke" needs the hands: a card of another suit from a hand the deal
 * does not give may have been one. Three known hands give the fourth. */
static bool every_hand_known(const bridge_play *p) {
    int known = 0;
    for (int s = 0; s < 4; s++)
        known += p->has_deal && p->deal.known[s];
    return known >= 3;
}

static bool play_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const play_facts *pf = &rec->play_facts;
    switch (i) {
    case B_TRICKS_COMPLETE:
        *value = pf->tricks_complete;
        return true;
    case B_DECLARER_TRICKS:
        *value = pf->declarer_tricks;
        return true;
    case B_LEAD_OUT_OF_TURN:
        *value = pf->lead_out_of_turn;
        return true;
    case B_REVOKE:
        if (!pf->revoke && !every_hand_known(&rec->play)) return false;
        *value = pf->revoke;
        return true;
    default:
        break;
    }
    if (i <= B_OPENING_LEAD_OUT_OF_TURN) {
        if (!pf->lead_out_of_turn)
            return false; /* nothing to say about a lead that did not happen */
        switch (i) {
        case B_LEAD_OUT_OF_TURN_TRICK:
            *value = pf->lead_out_of_turn_trick;
            return true;
        case B_WRONG_LEADER_ROLE:
            *symbol = role_names[pf->wrong_leader_role];
            return true;
        default:
            *value = pf->lead_out_of_turn_trick == 1;
            return true;
        }
    }
    if (!pf->revoke) return false; /* likewise for a revoke */
    switch (i) {
    case B_REVOKE_TRICK:
        *value = pf->revoke_trick;
        return true;
    case B_REVOKER:
        *symbol = seat_names[pf->revoker];
        return true;
    case B_REVOKER_ROLE:
        *symbol = role_names[pf->revoker_role];
        return true;
    case B_REVOKE_ESTABLISHED:
        *value = pf->revoke_established;
        return true;
    case B_REVOKE_TRICK_WON_BY:
        if (pf->tricks_complete < pf->revoke_trick)
            return false; /* the revoke trick is not complete */
        *symbol = won_by_names[pf->revoke_trick_won_by];
        return true;
    case B_OFFENDING_SIDE_TRICKS_AFTER:
        *value = pf->offending_side_tricks_after;
        return true;
    case B_SECOND_REVOKE_SAME_SUIT:
        *value = pf->second_revoke_same_suit;
        return true;
    case B_REVOKE_IN_TWELFTH_TRICK:
        *value = pf->revoke_trick == 12;
        return true;
    default:
        return false;
    }
}

static bool card_value(int i, const kj_card_facts *c, int64_t *value) {
    switch (i) {
    case B_CARD_FOLLOWS_SUIT:
        *value = c->follows_suit;
        return true;
    case B_CARD_IS_TRUMP:
        *value = c->is_trump;
        return true;
    case B_CARD_LEADS:
        *value = c->leads;
        return true;
    case B_CARD_OVERTRUMPS:
        *value = c->overtrumps;
        return true;
    case B_CARD_UNDERTRUMPS:
        *value = c->undertrumps;
        return true;
    case B_CARD_IS_PENALTY_CARD:
        *value = c->is_penalty_card;
        return true;
    case B_CARD_LEGAL_ONLY_WITHOUT_PENALTY_CARD: /* a card beside a penalty card, once the scorer
                                                    ruled on it */
        return c->freed_settled && ((*value = c->legal_only_without_penalty_card), true);
    default:
        return false;
    }
}

static bool position_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const kj_position_facts *p = &rec->kj_position;
    switch (i) {
    case B_POS_CAN_FOLLOW:
        *value = p->can_follow;
        return true;
    case B_POS_HAS_TRUMP:
        *value = p->has_trump;
        return true;
    case B_POS_CAN_OVERTRUMP:
        *value = p->can_overtrump;
        return true;
    case B_POS_CAN_OVERTRUMP_WITHOUT_PENALTY:
        *value = p->can_overtrump_without_penalty_card;
        return true;
    case B_POS_TRUMP_LED:
        *value = p->trump_led;
        return true;
    case B_POS_TRUMP_IN_TRICK:
        *value = p->trump_in_trick;
        return true;
    case B_POS_PARTNER_WINNING:
        *value = p->partner_winning;
        return true;
    case B_POS_LEADERS_PARTNER:
        *value = p->leaders_partner;
        return true;
    case B_POS_ONLY_TRUMPS:
        *value = p->only_trumps;
        return true;
    case B_POS_IS_TAKER_SIDE: /* the side needs the taker */
        return rec->kj_position_record.has_taker && ((*value = p->is_taker_side), true);
    case B_POS_HAS_PENALTY_CARD:
        *value = p->has_penalty_card;
        return true;
    case B_POS_PENALTY_CARD_CASE: /* only once the scorer has ruled on the penalty card */
        return p->penalty_case != KJ_PENALTY_UNKNOWN &&
               ((*symbol = penalty_case_names[p->penalty_case - 1]), true);
    case B_POS_OTHER_CARD_ALLOWED: /* likewise */
        return p->other_card_settled && ((*value = p->other_card_allowed), true);
    default:
        return false;
    }
}

static bool trick_value(int i, const kj_trick_facts *t, int64_t *value, const char **symbol) {
    switch (i) {
    case B_TRICK_NUMBER:
        *value = t->number;
        return true;
    case B_TRICK_LAST:
        *value = t->last;
        return true;
    case B_TRICK_WON_BY:
        *symbol = side_names[t->won_by];
        return true;
    case B_TRICK_CARD_POINTS:
        *value = t->card_points;
        return true;
    case B_TRICK_SEQUENCE:
        *value = t->sequence;
        return true;
    case B_TRICK_FOUR_OF_A_KIND:
        *value = t->four_of_a_kind;
        return true;
    case B_TRICK_FOUR_RANK: /* the rank of four cards that are not of one rank is nothing */
        return t->four_of_a_kind && ((*symbol = rank_names[t->four_rank]), true);
    case B_TRICK_STUK:
        *value = t->stuk;
        return true;
    case B_TRICK_STUK_IN_SEQUENCE:
        *value = t->stuk_in_sequence;
        return true;
    case B_TRICK_ROEM_CLAIMED:
        *value = t->roem_claimed;
        return true;
    default:
        return false;
    }
}

static bool hand_value(int i, const kj_hand_facts *h, int64_t *value, const char **symbol) {
    switch (i) {
    case B_HAND_TAKERS_POINTS:
        *value = h->points[KJ_TAKERS];
        return true;
    case B_HAND_DEFENDERS_POINTS:
        *value = h->points[KJ_DEFENDERS];
        return true;
    case B_HAND_TAKERS_ROEM:
        *value = h->roem[KJ_TAKERS];
        return true;
    case B_HAND_DEFENDERS_ROEM:
        *value = h->roem[KJ_DEFENDERS];
        return true;
    case B_HAND_TAKERS_TRICKS:
        *value = h->tricks[KJ_TAKERS];
        return true;
    case B_HAND_DEFENDERS_TRICKS:
        *value = h->tricks[KJ_DEFENDERS];
        return true;
    case B_HAND_COMPLETE:
        *value = h->complete;
        return true;
    case B_HAND_ILLEGAL_BY: /* "no illegal card" needs every hand, as play.revoke does */
        return h->illegal_settled && ((*symbol = illegal_by_names[h->illegal_by]), true);
    case B_HAND_ILLEGAL_REASON:
        return h->illegal_settled && h->illegal_reason && ((*symbol = h->illegal_reason), true);
    default:
        return false;
    }
}

/* The klaverjas namespaces, each settled only while a command has filled it. */
static bool klaverjas_value(int i, const record *rec, int64_t *value, const char **symbol) {
    if (i <= B_CARD_LEGAL_ONLY_WITHOUT_PENALTY_CARD)
        return rec->has_kj_card && card_value(i, &rec->kj_card, value);
    if (i <= B_POS_OTHER_CARD_ALLOWED)
        return rec->has_kj_position && position_value(i, rec, value, symbol);
    if (i <= B_TRICK_ROEM_CLAIMED)
        return rec->has_kj_trick && trick_value(i, &rec->kj_trick, value, symbol);
    return rec->has_kj_hand && hand_value(i, &rec->kj_hand, value, symbol);
}

bool builtin_value(int i, const record *rec, int64_t *value, const char **symbol) {
    if (i >= B_CARD_FOLLOWS_SUIT) return klaverjas_value(i, rec, value, symbol);
    if (i <= B_DEALER) return rec->has_auction && auction_value(i, rec, value, symbol);
    if (i == B_VULNERABLE) return rec->has_vulnerable && ((*value = rec->vulnerable), true);
    if (i <= B_TRICKS) return rec->has_contract && contract_value(i, rec, value, symbol);
    if (i >= B_TRICKS_COMPLETE) return rec->has_play && play_value(i, rec, value, symbol);
    if (i >= B_RANKING_TOPS_A) { /* two pairs tied on matchpoints */
        if (!rec->has_ranking) return false;
        if (i == B_RANKING_MORE_POINTS)
            return (*symbol = more_points_names[rec->more_points]), true;
        return (*value = i == B_RANKING_TOPS_A ? rec->tops[0] : rec->tops[1]), true;
    }
    if (!rec->has_scoring) return false;
    if (i == B_ADJUSTED) return rec->adjusted && ((*symbol = rec->adjusted), true);
    if (i == B_PERCENTAGE) return rec->adjusted && ((*value = rec->percentage), true);
    if (i == B_SHEET_BOARD) return rec->adjusted && rec->board > 0 && ((*value = rec->board), true);
    if (i >= B_IN_IMPS && i <= B_BOARD_ADJUSTED) {
        int8_t known = i == B_IN_IMPS          ? rec->in_imps
                       : i == B_SESSION_KNOWN  ? rec->session_known
                       : i == B_SESSION_PASSES ? rec->session_passes
                                               : rec->board_adjusted;
        return rec->adjusted && known && ((*value = known == 2), true);
    }
    *value = i == B_BEATEN     ? rec->beaten
             : i == B_EQUALLED ? rec->equalled
             : i == B_OTHERS   ? rec->others
                               : rec->difference;
    return true;
}
