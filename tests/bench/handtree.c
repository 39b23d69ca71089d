/* handtree.c — Art. 17, 25-39 and 61-64 of bridge-2017 by hand (see
 * handtree.h). Each function is one article: it adds its own segment, then
 * the segments of the clause it takes; `apply N` is a call. */
#include "handtree.h"

#include <string.h>

const char *const h_irregularity_names[IRR_COUNT] = {
    "insufficient_bid",      "call_out_of_rotation",  "simultaneous_call",
    "turn_missed_by_passes", "inadmissible_double",   "call_when_obliged_to_pass",
    "bid_above_seven",       "call_after_final_pass", "revoke"};
const char *const h_call_kind_names[CK_COUNT] = {"pass", "bid", "double", "redouble"};
const char *const h_turn_was_names[TW_COUNT] = {"offender", "lho", "partner", "rho"};
const char *const h_offender_role_names[OR_COUNT] = {"undecided", "declarer_or_dummy", "defender",
                                                     "none"};
const char *const h_pass_span_names[PS_COUNT] = {"next_turn", "rest_of_auction"};
const char *const h_rho_next_call_names[RN_COUNT] = {"not_yet", "pass", "call"};
const char *const h_replacement_names[RP_COUNT] = {"not_yet", "bid",      "pass",
                                                   "double",  "redouble", "insufficient_bid"};
const char *const h_no_revoke_finding_names[NF_COUNT] = {"no_revoke", "unable_to_comply",
                                                         "unclear_revoker_side_mixed",
                                                         "unclear_other_side_mixed", "unclear"};
const char *const h_role_names[RL_COUNT] = {"declarer", "dummy", "defender"};
const char *const h_revoke_noticed_names[RV_COUNT] = {"before_hands_returned", "before_next_board",
                                                      "after_next_board_call", "after_round"};
const char *const h_established_otherwise_names[EO_COUNT] = {
    "no", "card_named", "claim_or_concession", "agreed_to_claim"};
const char *const h_other_side_revoked_names[OS_COUNT] = {"no", "same_trick", "other_trick"};
const char *const h_won_by_names[WB_COUNT] = {"offender", "partner", "opponents"};

#define BENCH_SEG_TEXT(name, trail, actions) {#name, trail, actions},
const bench_segment_text bench_segments[SEG_COUNT] = {BENCH_SEGMENTS(BENCH_SEG_TEXT)};

int bench_segment_find(const char *name) {
    for (int i = 0; i < SEG_COUNT; i++)
        if (strcmp(bench_segments[i].name, name) == 0) return i;
    return -1;
}

#define PUSH(s) (out->seg[out->n++] = SEG_##s)

/* ---- derived facts ---------------------------------------------------------- */

static inline bool offender_in_turn(const hand_facts *f) {
    return f->turn_was == TW_OFFENDER;
}

static inline bool inadmissible_call(const hand_facts *f) {
    return (f->call_kind == CK_DOUBLE || f->call_kind == CK_REDOUBLE) && !f->double_admissible;
}

static inline bool deemed_in_rotation(const hand_facts *f) {
    bool skipped_called = (f->turn_was == TW_LHO && f->lho_called && !f->offender_called_before) ||
                          (f->turn_was == TW_RHO && f->rho_called);
    return !inadmissible_call(f) && ((f->turn_was == TW_RHO && f->rho_must_pass) || skipped_called);
}

/* whether 25A may apply to the irregular call: the calls the director can
 * find unintended, except a call by the player whose turn it was after his
 * own call (then 30B2, 31C ... apply 25 themselves) */
static inline bool unintended_call_question(const hand_facts *f) {
    switch (f->irregularity) {
    case IRR_INSUFFICIENT_BID:
    case IRR_CALL_OUT_OF_ROTATION:
        return !(f->turn_was == TW_LHO && f->offender_called_before);
    case IRR_SIMULTANEOUS_CALL:
    case IRR_INADMISSIBLE_DOUBLE:
    case IRR_CALL_WHEN_OBLIGED_TO_PASS:
    case IRR_BID_ABOVE_SEVEN:
        return true;
    default:
        return false;
    }
}

static inline bool unintended_call_replaced(const hand_facts *f) {
    return f->unintended_call && !f->partner_called_since && !f->auction_period_over;
}

/* an insufficient bid when RHO was to call: in rotation when RHO had to
 * pass (whatever LHO did after it), lapsed when he called since */
static inline bool ib_deemed_in_rotation(const hand_facts *f) {
    return f->irregularity == IRR_INSUFFICIENT_BID && f->turn_was == TW_RHO && f->rho_must_pass;
}

static inline bool ib_lapsed(const hand_facts *f) {
    return f->irregularity == IRR_INSUFFICIENT_BID && f->turn_was == TW_RHO && !f->lho_called &&
           !f->rho_must_pass && f->rho_called;
}

/* seen from the offender; a simultaneous call is one seat later */
static inline bool rho_in_turn(const hand_facts *f) {
    return f->irregularity == IRR_SIMULTANEOUS_CALL ? f->turn_was == TW_PARTNER
                                                    : f->turn_was == TW_RHO;
}

static inline bool partner_in_turn(const hand_facts *f) {
    return f->irregularity == IRR_SIMULTANEOUS_CALL ? f->turn_was == TW_LHO
                                                    : f->turn_was == TW_PARTNER;
}

static inline bool lho_in_turn_after_own_call(const hand_facts *f) {
    return f->irregularity != IRR_SIMULTANEOUS_CALL && f->turn_was == TW_LHO &&
           f->offender_called_before;
}

/* an artificial pass out of rotation (29C); the mix's other calls are natural */
static inline bool artificial_call_out_of_rotation(const hand_facts *f) {
    return (f->irregularity == IRR_CALL_OUT_OF_ROTATION ||
            f->irregularity == IRR_SIMULTANEOUS_CALL) &&
           f->call_kind == CK_PASS && f->pass_artificial;
}

/* ---- the auction ---------------------------------------------------------------- */

static void art26(const hand_facts *f, hand_ruling *out) {
    PUSH(a26);
    PUSH(f23A);
    if (f->replacement_comparable)
        PUSH(c26A);
    else
        PUSH(c26B);
}

/* 25B: where the call that stands is comparable, 26A decides (23A tested
 * before 26 is applied) and 25B3/16C are not named. */
static void art25_b(const hand_facts *f, hand_ruling *out) {
    if (f->replacement_comparable) {
        if (f->lho_called)
            PUSH(c25B1_comparable);
        else
            PUSH(c25B2_comparable);
        PUSH(f23A);
        PUSH(a26);
        PUSH(c26A);
        return;
    }
    if (f->lho_called)
        PUSH(c25B1);
    else
        PUSH(c25B2);
    art26(f, out);
}

static void art25(const hand_facts *f, hand_ruling *out) {
    PUSH(a25);
    if (unintended_call_replaced(f)) {
        PUSH(c25A1);
        if (f->lho_called) PUSH(c25A6);
    } else if (unintended_call_question(f)) {
        if (f->partner_called_since)
            PUSH(c25A4_late);
        else
            PUSH(c25A5_late);
    } else if (f->unintended_call && f->partner_called_since) {
        PUSH(c25A4);
        art25_b(f, out);
    } else if (f->unintended_call) {
        PUSH(c25A5);
        art25_b(f, out);
    } else {
        art25_b(f, out);
    }
}

static void art17(const hand_facts *f, hand_ruling *out) {
    (void)f;
    PUSH(a17);
    PUSH(c17D3);
}

/* the replacement after a call cancelled (31A2, 31B2, 32A2, 32B2) */
static void replacement(const hand_facts *f, hand_ruling *out, int a, int b) {
    if (artificial_call_out_of_rotation(f)) PUSH(f29C);
    PUSH(f23A);
    out->seg[out->n++] = (uint8_t)(f->replacement_comparable ? a : b);
}

static void art31(const hand_facts *f, hand_ruling *out) {
    PUSH(a31);
    if (rho_in_turn(f)) {
        PUSH(g_rho31);
        if (f->rho_next_call == RN_NOT_YET) {
            if (artificial_call_out_of_rotation(f)) PUSH(f29C); /* the options name 29C too */
            PUSH(c31A);
        } else if (f->rho_next_call == RN_PASS && f->irregularity == IRR_INSUFFICIENT_BID) {
            PUSH(c31A1_ib);
        } else if (f->rho_next_call == RN_PASS) {
            PUSH(c31A1);
        } else if (f->replacement == RP_NOT_YET) {
            if (artificial_call_out_of_rotation(f)) { /* the lead-in, then 29C and 23A */
                PUSH(o31A2);
                PUSH(f29C);
                PUSH(c31A2_29C);
            } else {
                PUSH(c31A2);
            }
        } else {
            PUSH(o31A2); /* the lead-in, before 29C and 23A */
            replacement(f, out, SEG_c31A2a, SEG_c31A2b);
        }
    } else if (lho_in_turn_after_own_call(f)) {
        PUSH(c31C);
        art25(f, out);
    } else {
        PUSH(c31B);
        if (f->replacement == RP_NOT_YET) {
            if (artificial_call_out_of_rotation(f)) { /* 31B2, then 29C and 23A */
                PUSH(o31B2);
                PUSH(f29C);
                PUSH(c31A2_29C);
            } else {
                PUSH(c31B2);
            }
        } else {
            PUSH(o31B2); /* 31B2, before 29C, 23A and the A2 sub-clause it applies */
            replacement(f, out, SEG_c31B2a, SEG_c31B2b);
        }
    }
}

static void art30(const hand_facts *f, hand_ruling *out) {
    PUSH(a30);
    if (f->pass_artificial) {
        PUSH(c30C);
        art31(f, out);
    } else if (rho_in_turn(f)) {
        PUSH(c30A);
    } else if (lho_in_turn_after_own_call(f)) {
        PUSH(c30B2);
        art25(f, out);
    } else {
        PUSH(c30B1);
        if (f->replacement == RP_NOT_YET) {
            PUSH(c30B1b);
        } else {
            PUSH(o30B1b); /* the lead-in, before 23A */
            PUSH(f23A);
            if (f->replacement_comparable)
                PUSH(c30B1bi);
            else
                PUSH(c30B1bii);
        }
    }
}

static void art32(const hand_facts *f, hand_ruling *out) {
    PUSH(a32);
    if (rho_in_turn(f)) {
        PUSH(g_rho);
        if (f->rho_next_call == RN_NOT_YET)
            PUSH(c32A);
        else if (f->rho_next_call == RN_PASS)
            PUSH(c32A1);
        else if (f->replacement == RP_NOT_YET)
            PUSH(c32A2);
        else {
            PUSH(o32A2); /* the lead-in, before 29C and 23A */
            replacement(f, out, SEG_c32A2a, SEG_c32A2b);
        }
    } else if (partner_in_turn(f)) {
        PUSH(c32B);
        if (f->replacement == RP_NOT_YET)
            PUSH(c32B2);
        else {
            PUSH(o32B2); /* 32B2, before 29C, 23A and the A2 sub-clause it applies */
            replacement(f, out, SEG_c32B2a, SEG_c32B2b);
        }
    } else {
        PUSH(c32C);
        /* 32C hands the call to 25, which an unintended call has on the
         * trail already (hand_rule): a ruling names it once */
        if (!(f->unintended_call && unintended_call_question(f))) art25(f, out);
    }
}

static void art36(const hand_facts *f, hand_ruling *out) {
    PUSH(a36);
    if (f->auction_period_over)
        PUSH(c36C);
    else if (f->lho_called)
        PUSH(c36A);
    else if (!offender_in_turn(f))
        PUSH(c36B4);
    else
        PUSH(c36B);
}

static void art37(const hand_facts *f, hand_ruling *out) {
    PUSH(a37);
    if (f->lho_called && f->pass_obligation == PS_REST_OF_AUCTION)
        PUSH(c37A_rest);
    else if (f->lho_called)
        PUSH(c37A);
    else
        PUSH(c37B);
}

static void art38(const hand_facts *f, hand_ruling *out) {
    PUSH(a38);
    if (f->lho_called)
        PUSH(c38D_lho);
    else
        PUSH(c38D);
}

static void art39(const hand_facts *f, hand_ruling *out) {
    PUSH(a39);
    if (f->lho_called) {
        if (f->offender_role == OR_NONE)
            PUSH(c22B_lho);
        else
            PUSH(c39B_lho);
    } else if (f->offender_role == OR_NONE)
        PUSH(c22B);
    else if (f->offender_role == OR_DECLARER_OR_DUMMY)
        PUSH(c39B);
    else if (f->call_kind == CK_PASS)
        PUSH(c39B);
    else
        PUSH(c39C);
}

/* a double (19A1) or redouble (19B1) the auction does not allow */
static bool against_19(const hand_facts *f, hand_ruling *out) {
    if (!inadmissible_call(f)) return false;
    if (f->call_kind == CK_DOUBLE)
        PUSH(f19A1);
    else
        PUSH(f19B1);
    return true;
}

static void art27(const hand_facts *f, hand_ruling *out) {
    PUSH(a27);
    if (f->lho_called && !offender_in_turn(f) &&
        !ib_deemed_in_rotation(f)) { /* out of rotation too: 29A */
        PUSH(c27A1_oor);
    } else if (f->lho_called) {
        PUSH(c27A1);
    } else if (!offender_in_turn(f) && !ib_deemed_in_rotation(f)) {
        PUSH(c27A2);
        art31(f, out);
    } else if (f->replacement == RP_NOT_YET) {
        PUSH(c27B);
        out->arg = f->lowest_same_denomination;
    } else if (f->replacement == RP_INSUFFICIENT_BID) {
        PUSH(o27B);
        PUSH(c27B4);
        if (f->second_insufficient_accepted)
            PUSH(c27A1);
        else
            PUSH(c27B3);
    } else if (f->replacement == RP_BID && f->replacement_call == f->lowest_same_denomination) {
        PUSH(o27B);
        PUSH(c27B1a);
    } else {
        PUSH(o27B);
        PUSH(f23A);
        if (f->replacement_comparable)
            PUSH(c27B1b);
        else if (f->replacement == RP_BID || f->replacement == RP_PASS)
            PUSH(c27B2);
        else
            PUSH(c27B3);
    }
}

static void art28(const hand_facts *f, hand_ruling *out) {
    PUSH(a28);
    if (ib_deemed_in_rotation(f)) {
        PUSH(c28A);
        art27(f, out);
    } else if (f->turn_was == TW_RHO && f->rho_must_pass) {
        PUSH(c28A);
    } else {
        PUSH(c28B);
    }
}

static void art29(const hand_facts *f, hand_ruling *out) {
    PUSH(a29);
    if (against_19(f, out)) {
        /* 32A1's exception: the RHO, in turn, passed after the cancellation */
        if (rho_in_turn(f) && f->rho_next_call == RN_PASS)
            PUSH(c29_32A1);
        else
            PUSH(c29_32);
        art36(f, out);
    } else if (f->lho_called) {
        PUSH(c29A);
    } else {
        PUSH(c29B);
        switch (f->call_kind) {
        case CK_PASS:
            art30(f, out);
            break;
        case CK_BID:
            art31(f, out);
            break;
        default:
            art32(f, out);
        }
    }
}

static void art33(const hand_facts *f, hand_ruling *out) {
    PUSH(a33);
    if (f->turn_was == TW_RHO) {
        PUSH(c33rho);
    } else {
        PUSH(c33other);
        art29(f, out);
    }
}

static void art35(const hand_facts *f, hand_ruling *out) {
    PUSH(a35);
    switch (f->irregularity) {
    case IRR_INADMISSIBLE_DOUBLE:
    case IRR_CALL_WHEN_OBLIGED_TO_PASS:
        if (against_19(f, out)) {
            PUSH(c35A);
            art36(f, out);
        } else {
            PUSH(c35B);
            art37(f, out);
        }
        break;
    case IRR_BID_ABOVE_SEVEN:
        PUSH(c35C);
        art38(f, out);
        break;
    default:
        PUSH(c35D);
        art39(f, out);
    }
}

/* ---- the revoke ------------------------------------------------------------------- */

static void art62(const hand_facts *f, hand_ruling *out) {
    PUSH(a62);
    if (f->revoker_role == RL_DEFENDER && !f->revoke_card_faced)
        PUSH(c62B1);
    else if (f->revoker_role == RL_DECLARER)
        PUSH(c62B2_decl);
    else
        PUSH(c62B2);
}

static void art64A(const hand_facts *f, hand_ruling *out) {
    PUSH(a64A);
    if (!f->play_over) {
        PUSH(c64A_during);
        if (f->revoke_trick_won_by == WB_OFFENDER)
            PUSH(c64A1_during);
        else if (f->revoke_trick_won_by == WB_PARTNER)
            PUSH(c64A2_during);
        else
            PUSH(c64A0_during);
        return;
    }
    switch (f->revoke_trick_won_by) {
    case WB_OFFENDER:
        PUSH(c64A1);
        out->arg = 1 + (f->offending_side_tricks_after < 1 ? f->offending_side_tricks_after : 1);
        break;
    default:
        PUSH(c64A2);
    }
}

/* 64B1 before 64A: play is over and the revoking side won neither the
 * revoke trick nor a later one (first: no ground of 64B named before). */
static void art64_transfer(const hand_facts *f, hand_ruling *out, bool first) {
    if (f->play_over && f->revoke_trick_won_by == WB_OPPONENTS &&
        f->offending_side_tricks_after == 0)
        out->seg[out->n++] = first ? SEG_c64B1_first : SEG_c64B1;
    else
        art64A(f, out);
}

static void art64(const hand_facts *f, hand_ruling *out) {
    PUSH(a64);
    bool both = f->other_side_revoked != OS_NO && f->other_revoke_established;
    bool b3 = f->revoker_role == RL_DUMMY ||
              (f->revoker_role == RL_DEFENDER && f->revoke_failed_penalty_card);
    bool round = f->revoke_noticed == RV_AFTER_ROUND;
    bool board = f->revoke_noticed == RV_AFTER_NEXT_BOARD_CALL;
    bool twelfth = f->revoke_in_twelfth_trick;
    if (round || board || twelfth || both || b3) {
        /* the first ground that holds, each other one that holds beside it,
         * then the adjustment (64B2 not beside 64B6 or 64B7) */
        if (round)
            PUSH(g64B5);
        else if (board)
            PUSH(g64B4);
        else if (twelfth)
            PUSH(g64B6);
        else if (both)
            PUSH(g64B7);
        else
            PUSH(g64B3);
        if ((round || board) && twelfth) PUSH(b64B6);
        if (both && (round || board || twelfth)) PUSH(b64B7);
        if (b3 && (round || board || twelfth || both)) PUSH(b64B3);
        if (both)
            PUSH(e64C2b);
        else if (f->second_revoke_same_suit && !twelfth)
            PUSH(e64B2);
        else
            PUSH(e64C1);
    } else if (f->second_revoke_same_suit) {
        PUSH(c64B2);
        art64_transfer(f, out, false);
    } else {
        art64_transfer(f, out, true);
    }
}

static void art63(const hand_facts *f, hand_ruling *out) {
    PUSH(a63);
    bool established = f->revoke_established_by_play || f->revoke_established_otherwise != EO_NO;
    if (f->revoke_in_twelfth_trick && f->revoke_noticed == RV_BEFORE_HANDS_RETURNED) {
        if (f->revoker_role == RL_DEFENDER && f->revoker_partner_yet_to_play)
            PUSH(c62D2);
        else
            PUSH(c62D1);
        art62(f, out);
    } else if (f->other_side_revoked == OS_SAME_TRICK &&
               established != f->other_revoke_established) {
        PUSH(c62C3);
    } else if (f->revoke_established_by_play) {
        PUSH(c63A1);
        art64(f, out);
    } else {
        switch (f->revoke_established_otherwise) {
        case EO_CARD_NAMED:
            PUSH(c63A2);
            art64(f, out);
            break;
        case EO_CLAIM_OR_CONCESSION:
            PUSH(c63A3);
            art64(f, out);
            break;
        case EO_AGREED_TO_CLAIM:
            PUSH(c63A4);
            art64(f, out);
            break;
        default:
            PUSH(c62A);
            art62(f, out);
        }
    }
}

static void art61(const hand_facts *f, hand_ruling *out) {
    PUSH(a61);
    if (f->revoke_occurred) {
        PUSH(c61A);
        art63(f, out);
        return;
    }
    switch (f->no_revoke_finding) {
    case NF_UNCLEAR_REVOKER_SIDE_MIXED:
        PUSH(c66D_assumed);
        art63(f, out);
        break;
    case NF_UNCLEAR_OTHER_SIDE_MIXED:
        PUSH(c66D_not);
        break;
    case NF_UNCLEAR:
        PUSH(c85A1);
        break;
    case NF_UNABLE_TO_COMPLY:
        PUSH(c61A_unable);
        break;
    default:
        PUSH(c61A_none);
    }
}

/* Every article whose `when` holds, in the rule files' order: 25 on an
 * unintended call beside the irregularity's own article (which gives way
 * when 25A1 replaces the call). */
void hand_rule(const hand_facts *f, hand_ruling *out) {
    out->n = 0;
    out->arg = 0;
    bool question = unintended_call_question(f) && f->unintended_call;
    if (question) {
        PUSH(a25);
        if (unintended_call_replaced(f)) {
            PUSH(c25A1);
            if (f->lho_called) PUSH(c25A6);
            return;
        }
        if (f->partner_called_since)
            PUSH(c25A4_late);
        else
            PUSH(c25A5_late);
    }
    switch (f->irregularity) {
    case IRR_INSUFFICIENT_BID:
        if (ib_deemed_in_rotation(f) || ib_lapsed(f))
            art28(f, out);
        else
            art27(f, out);
        break;
    case IRR_CALL_OUT_OF_ROTATION:
        if (deemed_in_rotation(f))
            art28(f, out);
        else
            art29(f, out);
        break;
    case IRR_SIMULTANEOUS_CALL:
        art33(f, out);
        break;
    case IRR_TURN_MISSED_BY_PASSES:
        PUSH(a34);
        art17(f, out);
        break;
    case IRR_REVOKE:
        art61(f, out);
        break;
    default:
        art35(f, out);
    }
}
