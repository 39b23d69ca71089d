/* handtree.h — Art. 17, 25-39 and 61-64 of bridge-2017 written by hand as
 * C `if`/`switch` statements: the limit arbiter's ruling throughput is
 * measured against in `make bench`. It rules as the rule files do (the
 * benchmark checks that on its whole mix before timing), on situations that
 * give every fact it tests and break no invariant.
 */
#ifndef BENCH_HANDTREE_H
#define BENCH_HANDTREE_H

#include "segments.h"

#include <stdbool.h>
#include <stdint.h>

/* Enum values in the order the rule files declare them; the benchmark maps
 * them to arbiter's by name (the *_names tables). */
enum h_irregularity {
    IRR_INSUFFICIENT_BID, IRR_CALL_OUT_OF_ROTATION, IRR_SIMULTANEOUS_CALL, IRR_TURN_MISSED_BY_PASSES,
    IRR_INADMISSIBLE_DOUBLE, IRR_CALL_WHEN_OBLIGED_TO_PASS, IRR_BID_ABOVE_SEVEN, IRR_CALL_AFTER_FINAL_PASS,
    IRR_REVOKE, IRR_COUNT
};
enum h_call_kind { CK_PASS, CK_BID, CK_DOUBLE, CK_REDOUBLE, CK_COUNT };
enum h_turn_was { TW_OFFENDER, TW_LHO, TW_PARTNER, TW_RHO, TW_COUNT };
enum h_offender_role { OR_UNDECIDED, OR_DECLARER_OR_DUMMY, OR_DEFENDER, OR_NONE, OR_COUNT };
enum h_pass_span { PS_NEXT_TURN, PS_REST_OF_AUCTION, PS_COUNT };
enum h_rho_next_call { RN_NOT_YET, RN_PASS, RN_CALL, RN_COUNT };
enum h_replacement { RP_NOT_YET, RP_BID, RP_PASS, RP_DOUBLE, RP_REDOUBLE, RP_INSUFFICIENT_BID, RP_COUNT };
enum h_no_revoke_finding {
    NF_NO_REVOKE, NF_UNABLE_TO_COMPLY, NF_UNCLEAR_REVOKER_SIDE_MIXED, NF_UNCLEAR_OTHER_SIDE_MIXED, NF_UNCLEAR, NF_COUNT
};
enum h_role { RL_DECLARER, RL_DUMMY, RL_DEFENDER, RL_COUNT };
enum h_revoke_noticed { RV_BEFORE_HANDS_RETURNED, RV_BEFORE_NEXT_BOARD, RV_AFTER_NEXT_BOARD_CALL, RV_AFTER_ROUND, RV_COUNT };
enum h_established_otherwise { EO_NO, EO_CARD_NAMED, EO_CLAIM_OR_CONCESSION, EO_AGREED_TO_CLAIM, EO_COUNT };
enum h_other_side_revoked { OS_NO, OS_SAME_TRICK, OS_OTHER_TRICK, OS_COUNT };
enum h_won_by { WB_OFFENDER, WB_PARTNER, WB_OPPONENTS, WB_COUNT };

/* One situation. Calls are arbiter's call values (0 P, 1 X, 2 XX, then
 * 1C = 3, 1D = 4, … 7NT = 37): only compared for equality here. */
typedef struct hand_facts {
    uint8_t irregularity, call_kind, turn_was, offender_role, pass_obligation, rho_next_call, replacement;
    bool double_admissible, lho_called, offender_called_before, bid_insufficient, bid_over_seven, call_after_end,
        auction_period_over, rho_must_pass, rho_called, pass_artificial, partner_called_since,
        second_insufficient_accepted, unintended_call, replacement_comparable;
    int16_t replacement_call, lowest_same_denomination;
    /* the revoke */
    uint8_t no_revoke_finding, revoker_role, revoke_noticed, revoke_established_otherwise, other_side_revoked,
        revoke_trick_won_by, offending_side_tricks_after;
    bool revoke_occurred, revoke_in_twelfth_trick, revoke_established_by_play, other_revoke_established,
        revoke_card_faced, revoker_partner_yet_to_play, revoke_failed_penalty_card, second_revoke_same_suit,
        play_over;
} hand_facts;

#define HAND_MAX_SEGMENTS 16

/* A ruling: its segments in order and the one dynamic argument (a call for
 * %C, an integer for %I). */
typedef struct hand_ruling {
    int n;
    uint8_t seg[HAND_MAX_SEGMENTS];
    int64_t arg;
} hand_ruling;

void hand_rule(const hand_facts *f, hand_ruling *out);

extern const char *const h_irregularity_names[IRR_COUNT];
extern const char *const h_call_kind_names[CK_COUNT];
extern const char *const h_turn_was_names[TW_COUNT];
extern const char *const h_offender_role_names[OR_COUNT];
extern const char *const h_pass_span_names[PS_COUNT];
extern const char *const h_rho_next_call_names[RN_COUNT];
extern const char *const h_replacement_names[RP_COUNT];
extern const char *const h_no_revoke_finding_names[NF_COUNT];
extern const char *const h_role_names[RL_COUNT];
extern const char *const h_revoke_noticed_names[RV_COUNT];
extern const char *const h_established_otherwise_names[EO_COUNT];
extern const char *const h_other_side_revoked_names[OS_COUNT];
extern const char *const h_won_by_names[WB_COUNT];

#endif
