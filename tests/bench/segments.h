/* segments.h — the pieces a ruling on Art. 17, 25-39 and 61-64 of
 * bridge-2017 is made of, for the baselines of `make bench`.
 *
 * A segment is one step of a ruling: the part of the trail it adds (the
 * citations of a clause, in order: those of the facts its condition reads,
 * its own, then those its block names; empty for a step that cites
 * nothing, or whose citation repeats the one before) and the actions it
 * names, in the canonical form the benchmark compares arbiter's rulings in:
 * `name` or `name(arg, arg)`, joined by "; ". `%C` stands for the ruling's
 * dynamic call argument, `%I` for its integer argument. The hand-written C
 * tree, the Lua version and the CLIPS version each give a ruling as a list
 * of segments, named as here.
 */
#ifndef BENCH_SEGMENTS_H
#define BENCH_SEGMENTS_H

/* actions that several clauses name */
#define A_NO_FURTHER                                                                               \
    "no_further_rectification; no_lead_restriction(26A); adjusted_score_if_damaged(23C)"
#define A_PARTNER_PASSES                                                                           \
    "partner_must_pass(next_turn); unauthorised_information(16C); lead_restriction(26B); "         \
    "could_have_known(72C)"
#define A_27B3                                                                                     \
    "call_cancelled; offender_must_replace; partner_must_pass(rest_of_auction); "                  \
    "unauthorised_information(16C); lead_restriction(26B); could_have_known(72C)"
#define A_27A1 "call_accepted; insufficient_bid_stands"
#define A_RHO "call_cancelled; turn_reverts_to_rightful_caller; artificial_call_shows"
#define A_FREE                                                                                     \
    "call_cancelled; turn_reverts_to_rightful_caller; partner_may_call_freely(16C2); "             \
    "artificial_call_shows"
#define A_62B1                                                                                     \
    "withdrawn_card_major_penalty(62B1); major_penalty_card_created; "                             \
    "owner_plays_penalty_card_when_legal(50D1); declarer_chooses_partner_lead(50D2); "             \
    "penalty_card_information"
#define A_NOXFER(x) "no_automatic_transfer(" x "); revoke_compensation_check(64C1)"
/* both sides' revokes established: 64C2b, not 64C1, beside the exception */
#define A_BOTH(x) "no_automatic_transfer(" x "); both_sides_revoked_adjustment(64C2b)"

#define BENCH_SEGMENTS(S)                                                                          \
    /* article entries, with the citations and actions of their block before any clause */         \
    S(a17, "17", "")                                                                               \
    S(a25, "25", "")                                                                               \
    S(a26, "26", "")                                                                               \
    S(a27, "27 > 18D", "")                                                                         \
    S(a28, "28", "")                                                                               \
    S(a29, "29", "")                                                                               \
    S(a30, "30", "")                                                                               \
    S(a31, "31", "")                                                                               \
    S(a32, "32", "")                                                                               \
    S(a33, "33", "call_deemed_subsequent")                                                         \
    S(a34, "34", "")                                                                               \
    S(a35, "35", "")                                                                               \
    S(a36, "36", "")                                                                               \
    S(a37, "37", "")                                                                               \
    S(a38, "38 > 38A > 38B > 38C",                                                                 \
      "no_contract_above_seven; bid_and_later_calls_cancelled; replaced_by_pass; "                 \
      "offending_side_must_pass(rest_of_auction)")                                                 \
    S(a39, "39 > 39A", "calls_after_final_pass_cancelled")                                         \
    S(a61, "61", "quitted_tricks_inspection(61C)")                                                 \
    S(a62, "62 > 62B",                                                                             \
      "revoke_corrected; later_cards_may_be_withdrawn(62C1); "                                     \
      "offender_later_card_withdrawn(62C2); "                                                      \
      "unauthorised_information(16C)")                                                             \
    S(a63, "63", "")                                                                               \
    S(a64, "64 > 63B", "revoke_trick_stands(63B)")                                                 \
    S(a64A, "64A", "revoke_compensation_check(64C1)")                                              \
    /* the citations facts carry, before the clause that reads them */                             \
    S(f19A1, "19A1", "")                                                                           \
    S(f19B1, "19B1", "")                                                                           \
    S(f23A, "23A", "")                                                                             \
    S(f29C, "29C", "")                                                                             \
    /* groups of clauses without a citation of their own */                                        \
    S(g_rho, "32A", A_RHO)   /* 32A states the condition of 32A1 and 32A2 */                       \
    S(g_rho31, "31A", A_RHO) /* 31A states the condition of 31A1 and 31A2 */                       \
    /* clauses */                                                                                  \
    S(c17D3, "17D3 > 16C",                                                                         \
      "auction_reverts_to_missed_player; unauthorised_information(16C); "                          \
      "pass_out_of_rotation_is_infraction")                                                        \
    S(c25A1, "25A1 > 25A2 > 25A3",                                                                 \
      "intended_call_replaces; intended_call_ruled_by_its_article; no_lead_restriction(25A1)")     \
    S(c25A6, "25A6", "lho_may_withdraw_call")                                                      \
    S(c25A4_late, "25A4", "unintended_call_too_late")                                              \
    S(c25A5_late, "25A5 > 17D", "unintended_call_too_late")                                        \
    S(c25A4, "25A4", "")                                                                           \
    S(c25A5, "25A5 > 17D", "")                                                                     \
    S(c25B1, "25B1 > 25B3 > 16C", "change_accepted; unauthorised_information(16C)")                \
    S(c25B2, "25B2 > 25B3 > 16C", "change_cancelled; unauthorised_information(16C)")               \
    S(c25B1_comparable, "25B1", "change_accepted")                                                 \
    S(c25B2_comparable, "25B2", "change_cancelled")                                                \
    S(c26A, "26A > 23C > 12C1b", "no_lead_restriction(26A); adjusted_score_if_damaged(23C)")       \
    S(c26B, "26B", "lead_restriction(26B)")                                                        \
    S(c27A1, "27A1 > 16A1 > 16A1a", A_27A1)                                                        \
    S(c27A1_oor, "27A1 > 29A > 16A1 > 16A1a", A_27A1)                                              \
    S(c27A2, "27A2 > 29B", "")                                                                     \
    S(c27B, "27B > 23A > 23C > 12C1b", "insufficient_bid_options(%C)")                             \
    S(o27B, "27B", "") /* 27B states the condition of 27B1-27B4 */                                 \
    S(c27B4, "27B4", "")                                                                           \
    S(c27B3, "27B3 > 16C > 26B > 72C", A_27B3)                                                     \
    S(c27B1a, "27B1a > 27D > 12B1",                                                                \
      "no_further_rectification; no_lead_restriction(27B1a); adjusted_score_if_damaged(27D)")      \
    S(c27B1b, "27B1b > 27D > 12B1 > 26A > 23C > 12C1b",                                            \
      "no_further_rectification; no_lead_restriction(26A); adjusted_score_if_damaged(27D)")        \
    S(c27B2, "27B2 > 16C > 26B > 72C",                                                             \
      "partner_must_pass(rest_of_auction); unauthorised_information(16C); lead_restriction(26B); " \
      "could_have_known(72C)")                                                                     \
    S(c28A, "28A", "call_deemed_in_rotation")                                                      \
    S(c28B, "28B > 16C > 16C2",                                                                    \
      "call_out_of_rotation_void; unauthorised_information(16C2); no_lead_restriction(28B)")       \
    S(c29_32, "32 > 35 > 35A", "")                                                                    \
    S(c29_32A1, "32 > 32A > 32A1 > 35 > 35A", "")                                                     \
    S(c29A, "29A > 16A1 > 16A1a", "call_accepted")                                                 \
    S(c29B, "29B", "")                                                                             \
    S(c30A, "30A > 72C",                                                                           \
      "call_cancelled; turn_reverts_to_rightful_caller; offender_must_pass(next_turn); "           \
      "could_have_known(72C)")                                                                     \
    S(c30B1, "30B1 > 30B1a > 16C > 16C2",                                                          \
      "call_cancelled; turn_reverts_to_rightful_caller; partner_may_call_freely(16C2)")            \
    S(c30B1b, "30B1b > 23A > 23C > 12C1b", "later_call_options(30B1bi, 30B1bii)")                  \
    S(o30B1b, "30B1b", "") /* 30B1b states the condition of 30B1bi and 30B1bii */                 \
    S(c30B1bi, "30B1bi > 23B > 23C > 12C1b", A_NO_FURTHER)                                         \
    S(c30B1bii, "30B1bii > 26B > 72C", A_PARTNER_PASSES)                                           \
    S(c30B2, "30B2", "")                                                                           \
    S(c30C, "30C", "")                                                                             \
    S(c31A, "23A > 23C > 12C1b", "rho_call_options(31A1, 31A2)")                                   \
    S(c31A1, "31A1", "offender_must_repeat_call")                                                  \
    S(c31A1_ib, "31A1 > 27A1 > 27B", "offender_must_repeat_call; repeated_bid_is_insufficient")    \
    S(c31A2, "31A2 > 23A > 23C > 12C1b", "later_call_options(31A2a, 31A2b)")                       \
    S(o31A2, "31A2", "") /* 31A2 states the condition of 31A2a and 31A2b */                        \
    /* an artificial call's options: after the lead-in (o31A2) or 31B2 (o31B2) and 29C */          \
    S(c31A2_29C, "23A > 23C > 12C1b", "later_call_options(31A2a, 31A2b)")                          \
    S(c31A2a, "31A2a > 23B > 23C > 12C1b", A_NO_FURTHER)                                           \
    S(c31A2b, "31A2b > 16C > 26B > 72C", A_PARTNER_PASSES)                                         \
    S(c31B, "31B > 31B1 > 16C > 16C2", A_FREE)                                                     \
    S(c31B2, "31B2 > 23A > 23C > 12C1b", "later_call_options(31A2a, 31A2b)")                       \
    S(o31B2, "31B2", "") /* 31B2 states the condition of the A2 sub-clause it applies */           \
    S(c31B2a, "31A2a > 23B > 23C > 12C1b", A_NO_FURTHER)                                           \
    S(c31B2b, "31A2b > 26B > 72C", A_PARTNER_PASSES) /* 16C is 31B1's already */                   \
    S(c31C, "31C", "")                                                                             \
    S(c32A, "23A > 23C > 12C1b", "rho_call_options(32A1, 32A2)")                                   \
    S(c32A1, "32A1", "offender_must_repeat_call")                                                  \
    S(c32A2, "32A2 > 23A > 23C > 12C1b", "later_call_options(32A2a, 32A2b)")                       \
    S(o32A2, "32A2", "") /* 32A2 states the condition of 32A2a and 32A2b */                        \
    S(c32A2a, "32A2a > 23B > 23C > 12C1b", A_NO_FURTHER)                                           \
    S(c32A2b, "32A2b > 16C > 26B > 72C", A_PARTNER_PASSES)                                         \
    S(c32B, "32B > 32B1 > 16C > 16C2", A_FREE)                                                     \
    S(c32B2, "32B2 > 23A > 23C > 12C1b", "later_call_options(32A2a, 32A2b)")                       \
    S(o32B2, "32B2", "") /* 32B2 states the condition of the A2 sub-clause it applies */           \
    S(c32B2a, "32A2a > 23B > 23C > 12C1b", A_NO_FURTHER)                                           \
    S(c32B2b, "32A2b > 26B > 72C", A_PARTNER_PASSES) /* 16C is 32B1's already */                   \
    S(c32C, "32C", "")                                                                             \
    S(c33rho, "", "auction_continues")                                                             \
    S(c33other, "", "ruled_as_call_out_of_rotation")                                               \
    S(c35A, "35A", "")                                                                             \
    S(c35B, "35B", "")                                                                             \
    S(c35C, "35C", "")                                                                             \
    S(c35D, "35D", "")                                                                             \
    S(c36A, "36A", "calls_cancelled_back_to_turn; no_lead_restriction(36A)")                       \
    S(c36B, "36B > 36B1 > 36B2 > 36B3 > 72C > 26B",                                                \
      "call_cancelled; offender_must_replace; partner_must_pass(rest_of_auction); "                \
      "could_have_known(72C); lead_restriction(26B)")                                              \
    S(c36B4, "36B > 36B4 > 36B1 > 72C > 26B",                                                      \
      "call_cancelled; turn_reverts_to_rightful_caller; offender_may_call_freely; "                \
      "partner_must_pass(rest_of_auction); could_have_known(72C); lead_restriction(26B)")          \
    S(c36C, "36C", "contract_recorded_without_call")                                               \
    S(c37A_rest, "37A",                                                                            \
      "calls_stand; offender_must_pass(rest_of_auction); no_lead_restriction(37A)")                \
    S(c37A, "37A", "calls_stand; no_lead_restriction(37A)")                                        \
    S(c37B, "37B > 37B1 > 37B2 > 72C > 26B",                                                       \
      "call_cancelled; replaced_by_pass; offending_side_must_pass(rest_of_auction); "              \
      "could_have_known(72C); lead_restriction(26B)")                                              \
    S(c38D_lho, "38D", "no_lead_restriction(38D)")                                                 \
    S(c38D, "38D > 72C > 26B", "lead_restriction(26B); could_have_known(72C)")                     \
    S(c22B_lho, "22 > 22B", "hands_returned_unplayed")                                              \
    S(c39B_lho, "39B", "no_further_rectification")                                                 \
    S(c22B, "22 > 22B", "hands_returned_unplayed")                                                  \
    S(c39B, "39B", "no_further_rectification")                                                     \
    S(c39C, "39C > 26B", "lead_restriction(26B)")                                                  \
    S(c61A, "61A", "")                                                                             \
    S(c61A_unable, "61A > 59", "not_a_revoke; see(59)")                                            \
    S(c61A_none, "61A", "not_a_revoke")                                                            \
    S(c66D_assumed, "66D", "revoke_assumed(66D)")                                                  \
    S(c66D_not, "66D", "no_revoke_assumed(66D)")                                                   \
    S(c85A1, "85 > 85A1", "revoke_facts_judgment(85A1)")                                            \
    S(c62A, "62A", "")                                                                             \
    /* 62B's sub-clause with its pointers, then 62C1, 62C2 and their 16C */                        \
    S(c62B1, "62B1 > 50B > 50D > 50D1 > 50D2 > 50E > 12B1 > 62C1 > 62C2 > 16C", A_62B1)            \
    S(c62B2_decl, "62B2 > 43B2b > 62C1 > 62C2 > 16C",                                              \
      "withdrawn_card_no_rectification(62B2); dummy_forfeited_rights_note(43B2b)")                 \
    S(c62B2, "62B2 > 62C1 > 62C2 > 16C", "withdrawn_card_no_rectification(62B2)")                  \
    S(c62C3, "62C3 > 16C > 16C2 > 64B > 64B8 > 64C1 > 50B > 50D > 50D1 > 50D2 > 50E > 12B1",       \
      "both_revokes_corrected(62C3); unauthorised_information(16C2); "                             \
      "no_automatic_transfer(64B8); revoke_compensation_check(64C1); major_penalty_card_created; " \
      "owner_plays_penalty_card_when_legal(50D1); declarer_chooses_partner_lead(50D2); "           \
      "penalty_card_information")                                                                  \
    S(c62D1, "62D1", "twelfth_trick_revoke_corrected(62D1)")                                       \
    S(c62D2, "62D2 > 62D1", "twelfth_trick_revoke_corrected(62D1)")                                \
    S(c63A1, "63A > 63A1", "")                                                                     \
    S(c63A2, "63A > 63A2", "")                                                                     \
    S(c63A3, "63A > 63A3", "")                                                                     \
    S(c63A4, "63A > 63A4 > 69A", "")                                                               \
    S(c64A_during, "", "transfer_after_play(64A)")                                                 \
    /* 64A's sub-clause that makes the transfer, then 64C1 */                                      \
    S(c64A1_during, "64A1 > 64C1", "") /* who won the revoke trick is known while play goes on */  \
    S(c64A2_during, "64A2 > 64C1", "")                                                             \
    S(c64A0_during, "64C1", "") /* won by the opponents: 64A2 or 64B1 after play */                \
    S(c64A1, "64A1 > 64C1", "transfer_tricks(%I)")                                                 \
    S(c64A2, "64A2 > 64C1", "transfer_tricks(1)")                                                  \
    S(c64B1, "64B1 > 64C1", "no_automatic_transfer(64B1); revoke_compensation_check(64C1)")        \
    /* 64B1 the first ground named: 64B's first sentence, the ruling, before it */                 \
    S(c64B1_first, "64B > 64B1 > 64C1",                                                            \
      "no_automatic_transfer(64B1); revoke_compensation_check(64C1)")                              \
    S(c64B2, "64B > 64B2 > 64C2a", "repeated_revoke_adjustment(64C2a)")                            \
    /* 64B: its first sentence (the ruling), the ground that removes the                           \
       transfer, the others that hold too, then the adjustment */                                  \
    S(g64B3, "64B > 64B3", "no_automatic_transfer(64B3)")                                          \
    S(g64B4, "64B > 64B4", "no_automatic_transfer(64B4)")                                          \
    S(g64B5, "64B > 64B5", "no_automatic_transfer(64B5)")                                          \
    S(g64B6, "64B > 64B6", "no_automatic_transfer(64B6)")                                          \
    S(g64B7, "64B > 64B7", "no_automatic_transfer(64B7)")                                          \
    S(b64B6, "64B6", "")                                                                           \
    S(b64B7, "64B7", "")                                                                           \
    S(b64B3, "64B3", "")                                                                           \
    S(e64C1, "64C1", "revoke_compensation_check(64C1)")                                            \
    S(e64C2b, "64C2b", "both_sides_revoked_adjustment(64C2b)")                                     \
    S(e64B2, "64B2 > 64C2a > 64C1",                                                                \
      "revoke_compensation_check(64C1); repeated_revoke_adjustment(64C2a)")

#define BENCH_SEG_ENUM(name, trail, actions) SEG_##name,
enum bench_segment { BENCH_SEGMENTS(BENCH_SEG_ENUM) SEG_COUNT };
#undef BENCH_SEG_ENUM

typedef struct bench_segment_text {
    const char *name, *trail, *actions;
} bench_segment_text;

extern const bench_segment_text bench_segments[SEG_COUNT];

/* The segment named so, or -1. */
int bench_segment_find(const char *name);

#endif
