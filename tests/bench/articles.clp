; articles.clp — Art. 17, 25-39 and 61-64 of bridge-2017 as CLIPS rules, the
; same decisions as tests/bench/handtree.c: a baseline of `make bench`.
;
; The situation is one `s` fact (enum values and booleans as symbols, calls
; and counts as integers). An article to rule is a goal fact (art aNN); its
; clauses are rules in order of salience (the first clause that holds wins,
; as in the rule files) that retract the goal, add the ruling's segments
; (tests/bench/segments.h) to ?*segs* and may set a goal for an applied
; article. ?*arg* is the ruling's dynamic argument.

(deftemplate s
  (slot irregularity) (slot call_kind) (slot turn_was) (slot offender_role) (slot pass_obligation)
  (slot rho_next_call) (slot replacement)
  (slot double_admissible) (slot lho_called) (slot offender_called_before) (slot auction_period_over)
  (slot rho_must_pass) (slot rho_called) (slot pass_artificial) (slot partner_called_since)
  (slot second_insufficient_accepted) (slot unintended_call) (slot replacement_comparable)
  (slot replacement_call) (slot lowest_same_denomination)
  (slot no_revoke_finding) (slot revoker_role) (slot revoke_noticed) (slot revoke_established_otherwise)
  (slot other_side_revoked) (slot revoke_trick_won_by) (slot offending_side_tricks_after)
  (slot revoke_occurred) (slot revoke_in_twelfth_trick) (slot revoke_established_by_play)
  (slot other_revoke_established) (slot revoke_card_faced) (slot revoker_partner_yet_to_play)
  (slot revoke_failed_penalty_card) (slot second_revoke_same_suit) (slot play_over))

(defglobal ?*segs* = (create$) ?*arg* = 0)

(deffunction push ($?x) (bind ?*segs* (create$ ?*segs* ?x)))

; ---- derived facts

(deffunction inadmissible (?ck ?da)
  (and (or (eq ?ck double) (eq ?ck redouble)) (eq ?da FALSE)))

(deffunction deemed (?tw ?ck ?da ?rmp ?lc ?ocb ?rc)
  (and (not (inadmissible ?ck ?da))
       (or (and (eq ?tw rho) (eq ?rmp TRUE))
           (and (eq ?tw lho) (eq ?lc TRUE) (eq ?ocb FALSE))
           (and (eq ?tw rho) (eq ?rc TRUE)))))

; whether 25A may apply to the irregular call
(deffunction question (?irr ?tw ?ocb)
  (and (member$ ?irr (create$ insufficient_bid call_out_of_rotation simultaneous_call
                              inadmissible_double call_when_obliged_to_pass bid_above_seven))
       (not (and (or (eq ?irr insufficient_bid) (eq ?irr call_out_of_rotation))
                 (eq ?tw lho) (eq ?ocb TRUE)))))

(deffunction ib-deemed (?irr ?tw ?rmp)
  (and (eq ?irr insufficient_bid) (eq ?tw rho) (eq ?rmp TRUE)))

(deffunction ib-lapsed (?irr ?tw ?lc ?rmp ?rc)
  (and (eq ?irr insufficient_bid) (eq ?tw rho) (eq ?lc FALSE) (eq ?rmp FALSE) (eq ?rc TRUE)))

; seen from the offender; a simultaneous call is one seat later
(deffunction rho-in-turn (?irr ?tw)
  (if (eq ?irr simultaneous_call) then (eq ?tw partner) else (eq ?tw rho)))

(deffunction partner-in-turn (?irr ?tw)
  (if (eq ?irr simultaneous_call) then (eq ?tw lho) else (eq ?tw partner)))

(deffunction lho-after-own (?irr ?tw ?ocb)
  (and (neq ?irr simultaneous_call) (eq ?tw lho) (eq ?ocb TRUE)))

; an artificial pass out of rotation (29C); the mix's other calls are natural
(deffunction artificial-oor (?irr ?ck ?pa)
  (and (or (eq ?irr call_out_of_rotation) (eq ?irr simultaneous_call)) (eq ?ck pass) (eq ?pa TRUE)))

; the replacement after a call cancelled (31A2, 31B2, 32A2, 32B2)
(deffunction replacement (?irr ?ck ?pa ?rc ?a ?b)
  (if (artificial-oor ?irr ?ck ?pa) then (push f29C))
  (push f23A)
  (if (eq ?rc TRUE) then (push ?a) else (push ?b)))

; the citation of a double (19A1) or redouble (19B1) the auction does not allow
(deffunction against-19 (?ck) (if (eq ?ck double) then (push f19A1) else (push f19B1)))

; ---- which article rules (the articles' `when`): 25 on an unintended call
; first, beside the irregularity's own article, which gives way when 25A1
; replaces the call

(defrule when-25 (declare (salience 100))
  (s (unintended_call TRUE) (irregularity ?irr) (turn_was ?tw) (offender_called_before ?ocb)
     (partner_called_since ?pcs) (auction_period_over ?apo) (lho_called ?lc))
  (test (question ?irr ?tw ?ocb))
  => (push a25)
     (if (and (eq ?pcs FALSE) (eq ?apo FALSE)) then (push c25A1) (if (eq ?lc TRUE) then (push c25A6)) (assert (replaced))
      else (if (eq ?pcs TRUE) then (push c25A4_late) else (push c25A5_late))))

(defrule when-27 (declare (salience 99)) (not (replaced))
  (s (irregularity insufficient_bid) (turn_was ?tw) (lho_called ?lc) (rho_must_pass ?rmp) (rho_called ?rc))
  (test (not (or (ib-deemed insufficient_bid ?tw ?rmp) (ib-lapsed insufficient_bid ?tw ?lc ?rmp ?rc))))
  => (push a27) (assert (art a27)))

(defrule when-28-insufficient (declare (salience 99)) (not (replaced))
  (s (irregularity insufficient_bid) (turn_was ?tw) (lho_called ?lc) (rho_must_pass ?rmp) (rho_called ?rc))
  (test (or (ib-deemed insufficient_bid ?tw ?rmp) (ib-lapsed insufficient_bid ?tw ?lc ?rmp ?rc)))
  => (push a28) (assert (art a28)))

(defrule when-28 (declare (salience 99)) (not (replaced))
  (s (irregularity call_out_of_rotation) (turn_was ?tw) (call_kind ?ck) (double_admissible ?da)
     (rho_must_pass ?rmp) (lho_called ?lc) (offender_called_before ?ocb) (rho_called ?rc))
  (test (deemed ?tw ?ck ?da ?rmp ?lc ?ocb ?rc))
  => (push a28) (assert (art a28)))

(defrule when-29 (declare (salience 99)) (not (replaced))
  (s (irregularity call_out_of_rotation) (turn_was ?tw) (call_kind ?ck) (double_admissible ?da)
     (rho_must_pass ?rmp) (lho_called ?lc) (offender_called_before ?ocb) (rho_called ?rc))
  (test (not (deemed ?tw ?ck ?da ?rmp ?lc ?ocb ?rc)))
  => (push a29) (assert (art a29)))

(defrule when-33 (declare (salience 99)) (not (replaced)) (s (irregularity simultaneous_call))
  => (push a33) (assert (art a33)))

(defrule when-34 (declare (salience 99)) (s (irregularity turn_missed_by_passes)) => (push a34 a17 c17D3))

(defrule when-35 (declare (salience 99)) (not (replaced))
  (s (irregularity inadmissible_double|call_when_obliged_to_pass|bid_above_seven|call_after_final_pass))
  => (push a35) (assert (art a35)))

(defrule when-61 (declare (salience 99)) (s (irregularity revoke)) => (push a61) (assert (art a61)))

; ---- Art. 25, 26

(defrule r25A1 (declare (salience 90)) ?g <- (art a25)
  (s (unintended_call TRUE) (partner_called_since FALSE) (auction_period_over FALSE) (lho_called ?lc))
  => (retract ?g) (push c25A1) (if (eq ?lc TRUE) then (push c25A6)))
(defrule r25-question (declare (salience 89)) ?g <- (art a25)
  (s (irregularity ?irr) (turn_was ?tw) (offender_called_before ?ocb) (partner_called_since ?pcs))
  (test (question ?irr ?tw ?ocb))
  => (retract ?g) (if (eq ?pcs TRUE) then (push c25A4_late) else (push c25A5_late)))
(defrule r25A4 (declare (salience 88)) ?g <- (art a25) (s (unintended_call TRUE) (partner_called_since TRUE))
  => (retract ?g) (push c25A4) (assert (art a25B)))
(defrule r25A5 (declare (salience 87)) ?g <- (art a25) (s (unintended_call TRUE))
  => (retract ?g) (push c25A5) (assert (art a25B)))
(defrule r25B (declare (salience 86)) ?g <- (art a25) => (retract ?g) (assert (art a25B)))

; 25B: a comparable call that stands is 26A's (23A tested before 26), no 25B3/16C
(defrule r25B1-comparable (declare (salience 92)) ?g <- (art a25B) (s (lho_called TRUE) (replacement_comparable TRUE))
  => (retract ?g) (push c25B1_comparable f23A a26 c26A))
(defrule r25B2-comparable (declare (salience 91)) ?g <- (art a25B) (s (replacement_comparable TRUE))
  => (retract ?g) (push c25B2_comparable f23A a26 c26A))
(defrule r25B1 (declare (salience 90)) ?g <- (art a25B) (s (lho_called TRUE))
  => (retract ?g) (push c25B1 a26 f23A) (assert (art a26)))
(defrule r25B2 (declare (salience 89)) ?g <- (art a25B)
  => (retract ?g) (push c25B2 a26 f23A) (assert (art a26)))

(defrule r26A (declare (salience 90)) ?g <- (art a26) (s (replacement_comparable TRUE)) => (retract ?g) (push c26A))
(defrule r26B (declare (salience 89)) ?g <- (art a26) => (retract ?g) (push c26B))

; ---- Art. 27

(defrule r27A1_oor (declare (salience 91)) ?g <- (art a27)
  (s (irregularity ?irr) (lho_called TRUE) (turn_was ?tw&~offender) (rho_must_pass ?rmp))
  (test (not (ib-deemed ?irr ?tw ?rmp)))
  => (retract ?g) (push c27A1_oor))
(defrule r27A1 (declare (salience 90)) ?g <- (art a27) (s (lho_called TRUE)) => (retract ?g) (push c27A1))
(defrule r27A2 (declare (salience 89)) ?g <- (art a27)
  (s (irregularity ?irr) (turn_was ?tw&~offender) (lho_called ?lc) (rho_must_pass ?rmp))
  (test (not (ib-deemed ?irr ?tw ?rmp)))
  => (retract ?g) (push c27A2 a31) (assert (art a31)))
(defrule r27B (declare (salience 88)) ?g <- (art a27) (s (replacement not_yet) (lowest_same_denomination ?l))
  => (retract ?g) (push c27B) (bind ?*arg* ?l))
(defrule r27B4 (declare (salience 87)) ?g <- (art a27)
  (s (replacement insufficient_bid) (second_insufficient_accepted ?a))
  => (retract ?g) (if (eq ?a TRUE) then (push o27B c27B4 c27A1) else (push o27B c27B4 c27B3)))
(defrule r27B1a (declare (salience 86)) ?g <- (art a27)
  (s (replacement bid) (replacement_call ?c) (lowest_same_denomination ?c))
  => (retract ?g) (push o27B c27B1a))
(defrule r27B1b (declare (salience 85)) ?g <- (art a27) (s (replacement_comparable TRUE))
  => (retract ?g) (push o27B f23A c27B1b))
(defrule r27B2 (declare (salience 84)) ?g <- (art a27) (s (replacement bid|pass)) => (retract ?g) (push o27B f23A c27B2))
(defrule r27B3 (declare (salience 83)) ?g <- (art a27) => (retract ?g) (push o27B f23A c27B3))

; ---- Art. 28, 29

(defrule r28A-insufficient (declare (salience 90)) ?g <- (art a28)
  (s (irregularity ?irr) (turn_was ?tw) (lho_called ?lc) (rho_must_pass ?rmp))
  (test (ib-deemed ?irr ?tw ?rmp))
  => (retract ?g) (push c28A a27) (assert (art a27)))
(defrule r28A (declare (salience 89)) ?g <- (art a28) (s (turn_was rho) (rho_must_pass TRUE)) => (retract ?g) (push c28A))
(defrule r28B (declare (salience 88)) ?g <- (art a28) => (retract ?g) (push c28B))

; 32A1's exception: the RHO, in turn, passed after the cancellation
(defrule r29-32A1 (declare (salience 91)) ?g <- (art a29)
  (s (irregularity ?irr) (turn_was ?tw) (rho_next_call pass) (call_kind ?ck&double|redouble) (double_admissible FALSE))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (against-19 ?ck) (push c29_32A1 a36) (assert (art a36)))
(defrule r29-32 (declare (salience 90)) ?g <- (art a29) (s (call_kind ?ck&double|redouble) (double_admissible FALSE))
  => (retract ?g) (against-19 ?ck) (push c29_32 a36) (assert (art a36)))
(defrule r29A (declare (salience 89)) ?g <- (art a29) (s (lho_called TRUE)) => (retract ?g) (push c29A))
(defrule r29B-pass (declare (salience 88)) ?g <- (art a29) (s (call_kind pass))
  => (retract ?g) (push c29B a30) (assert (art a30)))
(defrule r29B-bid (declare (salience 87)) ?g <- (art a29) (s (call_kind bid))
  => (retract ?g) (push c29B a31) (assert (art a31)))
(defrule r29B-double (declare (salience 86)) ?g <- (art a29) (s (call_kind double|redouble))
  => (retract ?g) (push c29B a32) (assert (art a32)))

; ---- Art. 30

(defrule r30C (declare (salience 90)) ?g <- (art a30) (s (pass_artificial TRUE))
  => (retract ?g) (push c30C a31) (assert (art a31)))
(defrule r30A (declare (salience 89)) ?g <- (art a30) (s (irregularity ?irr) (turn_was ?tw))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push c30A))
(defrule r30B2 (declare (salience 88)) ?g <- (art a30) (s (irregularity ?irr) (turn_was ?tw) (offender_called_before ?ocb))
  (test (lho-after-own ?irr ?tw ?ocb))
  => (retract ?g) (push c30B2 a25) (assert (art a25)))
(defrule r30B1b (declare (salience 87)) ?g <- (art a30) (s (replacement not_yet)) => (retract ?g) (push c30B1 c30B1b))
(defrule r30B1bi (declare (salience 86)) ?g <- (art a30) (s (replacement_comparable TRUE))
  => (retract ?g) (push c30B1 o30B1b f23A c30B1bi))
(defrule r30B1bii (declare (salience 85)) ?g <- (art a30) => (retract ?g) (push c30B1 o30B1b f23A c30B1bii))

; ---- Art. 31

(defrule r31A (declare (salience 90)) ?g <- (art a31)
  (s (irregularity ?irr) (turn_was ?tw) (rho_next_call not_yet) (call_kind ?ck) (pass_artificial ?pa))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho31) (if (artificial-oor ?irr ?ck ?pa) then (push f29C)) (push c31A))
(defrule r31A1-insufficient (declare (salience 89)) ?g <- (art a31)
  (s (irregularity insufficient_bid) (turn_was ?tw) (rho_next_call pass))
  (test (rho-in-turn insufficient_bid ?tw))
  => (retract ?g) (push g_rho31 c31A1_ib))
(defrule r31A1 (declare (salience 88)) ?g <- (art a31) (s (irregularity ?irr) (turn_was ?tw) (rho_next_call pass))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho31 c31A1))
(defrule r31A2 (declare (salience 87)) ?g <- (art a31)
  (s (irregularity ?irr) (turn_was ?tw) (replacement not_yet) (call_kind ?ck) (pass_artificial ?pa))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho31)
     ; an artificial call's options: the lead-in, then 29C and 23A
     (if (artificial-oor ?irr ?ck ?pa) then (push o31A2 f29C c31A2_29C) else (push c31A2)))
(defrule r31A2-replaced (declare (salience 86)) ?g <- (art a31)
  (s (irregularity ?irr) (turn_was ?tw) (call_kind ?ck) (pass_artificial ?pa) (replacement_comparable ?rc))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho31 o31A2) (replacement ?irr ?ck ?pa ?rc c31A2a c31A2b))
(defrule r31C (declare (salience 85)) ?g <- (art a31) (s (irregularity ?irr) (turn_was ?tw) (offender_called_before ?ocb))
  (test (lho-after-own ?irr ?tw ?ocb))
  => (retract ?g) (push c31C a25) (assert (art a25)))
(defrule r31B2 (declare (salience 84)) ?g <- (art a31)
  (s (irregularity ?irr) (replacement not_yet) (call_kind ?ck) (pass_artificial ?pa))
  => (retract ?g) (push c31B)
     ; an artificial call's options: 31B2, then 29C and 23A
     (if (artificial-oor ?irr ?ck ?pa) then (push o31B2 f29C c31A2_29C) else (push c31B2)))
(defrule r31B-replaced (declare (salience 83)) ?g <- (art a31)
  (s (irregularity ?irr) (call_kind ?ck) (pass_artificial ?pa) (replacement_comparable ?rc))
  => (retract ?g) (push c31B o31B2) (replacement ?irr ?ck ?pa ?rc c31B2a c31B2b))

; ---- Art. 32

(defrule r32A (declare (salience 90)) ?g <- (art a32) (s (irregularity ?irr) (turn_was ?tw) (rho_next_call not_yet))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho c32A))
(defrule r32A1 (declare (salience 89)) ?g <- (art a32) (s (irregularity ?irr) (turn_was ?tw) (rho_next_call pass))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho c32A1))
(defrule r32A2 (declare (salience 88)) ?g <- (art a32) (s (irregularity ?irr) (turn_was ?tw) (replacement not_yet))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho c32A2))
(defrule r32A2-replaced (declare (salience 87)) ?g <- (art a32)
  (s (irregularity ?irr) (turn_was ?tw) (call_kind ?ck) (pass_artificial ?pa) (replacement_comparable ?rc))
  (test (rho-in-turn ?irr ?tw))
  => (retract ?g) (push g_rho o32A2) (replacement ?irr ?ck ?pa ?rc c32A2a c32A2b))
(defrule r32B2 (declare (salience 86)) ?g <- (art a32) (s (irregularity ?irr) (turn_was ?tw) (replacement not_yet))
  (test (partner-in-turn ?irr ?tw))
  => (retract ?g) (push c32B c32B2))
(defrule r32B-replaced (declare (salience 85)) ?g <- (art a32)
  (s (irregularity ?irr) (turn_was ?tw) (call_kind ?ck) (pass_artificial ?pa) (replacement_comparable ?rc))
  (test (partner-in-turn ?irr ?tw))
  => (retract ?g) (push c32B o32B2) (replacement ?irr ?ck ?pa ?rc c32B2a c32B2b))
; 32C hands the call to 25, which an unintended call has on the trail
; already (when-25): a ruling names it once
(defrule r32C (declare (salience 84)) ?g <- (art a32)
  (s (unintended_call ?uc) (irregularity ?irr) (turn_was ?tw) (offender_called_before ?ocb))
  => (retract ?g) (push c32C)
     (if (not (and (eq ?uc TRUE) (question ?irr ?tw ?ocb))) then (push a25) (assert (art a25))))

; ---- Art. 33

(defrule r33-rho (declare (salience 90)) ?g <- (art a33) (s (turn_was rho)) => (retract ?g) (push c33rho))
(defrule r33-other (declare (salience 89)) ?g <- (art a33) => (retract ?g) (push c33other a29) (assert (art a29)))

; ---- Art. 35-39

(defrule r35A (declare (salience 90)) ?g <- (art a35)
  (s (irregularity inadmissible_double|call_when_obliged_to_pass) (call_kind ?ck&double|redouble) (double_admissible FALSE))
  => (retract ?g) (against-19 ?ck) (push c35A a36) (assert (art a36)))
(defrule r35B (declare (salience 89)) ?g <- (art a35) (s (irregularity call_when_obliged_to_pass))
  => (retract ?g) (push c35B a37) (assert (art a37)))
(defrule r35C (declare (salience 88)) ?g <- (art a35) (s (irregularity bid_above_seven))
  => (retract ?g) (push c35C a38) (assert (art a38)))
(defrule r35D (declare (salience 87)) ?g <- (art a35) (s (irregularity call_after_final_pass))
  => (retract ?g) (push c35D a39) (assert (art a39)))

(defrule r36C (declare (salience 90)) ?g <- (art a36) (s (auction_period_over TRUE)) => (retract ?g) (push c36C))
(defrule r36A (declare (salience 89)) ?g <- (art a36) (s (lho_called TRUE)) => (retract ?g) (push c36A))
(defrule r36B4 (declare (salience 88)) ?g <- (art a36) (s (turn_was ~offender)) => (retract ?g) (push c36B4))
(defrule r36B (declare (salience 87)) ?g <- (art a36) => (retract ?g) (push c36B))

(defrule r37A-rest (declare (salience 90)) ?g <- (art a37) (s (lho_called TRUE) (pass_obligation rest_of_auction))
  => (retract ?g) (push c37A_rest))
(defrule r37A (declare (salience 89)) ?g <- (art a37) (s (lho_called TRUE)) => (retract ?g) (push c37A))
(defrule r37B (declare (salience 88)) ?g <- (art a37) => (retract ?g) (push c37B))

(defrule r38D-lho (declare (salience 90)) ?g <- (art a38) (s (lho_called TRUE)) => (retract ?g) (push c38D_lho))
(defrule r38D (declare (salience 89)) ?g <- (art a38) => (retract ?g) (push c38D))

(defrule r22B-lho (declare (salience 91)) ?g <- (art a39) (s (lho_called TRUE) (offender_role none))
  => (retract ?g) (push c22B_lho))
(defrule r39B-lho (declare (salience 90)) ?g <- (art a39) (s (lho_called TRUE)) => (retract ?g) (push c39B_lho))
(defrule r22B (declare (salience 89)) ?g <- (art a39) (s (offender_role none)) => (retract ?g) (push c22B))
(defrule r39B-declarer (declare (salience 88)) ?g <- (art a39) (s (offender_role declarer_or_dummy))
  => (retract ?g) (push c39B))
(defrule r39B-pass (declare (salience 87)) ?g <- (art a39) (s (call_kind pass)) => (retract ?g) (push c39B))
(defrule r39C (declare (salience 86)) ?g <- (art a39) => (retract ?g) (push c39C))

; ---- Art. 61-64 (the revoke)

(defrule r61A (declare (salience 90)) ?g <- (art a61) (s (revoke_occurred TRUE))
  => (retract ?g) (push c61A a63) (assert (art a63)))
(defrule r66D-assumed (declare (salience 89)) ?g <- (art a61) (s (no_revoke_finding unclear_revoker_side_mixed))
  => (retract ?g) (push c66D_assumed a63) (assert (art a63)))
(defrule r66D-not (declare (salience 88)) ?g <- (art a61) (s (no_revoke_finding unclear_other_side_mixed))
  => (retract ?g) (push c66D_not))
(defrule r85A1 (declare (salience 87)) ?g <- (art a61) (s (no_revoke_finding unclear)) => (retract ?g) (push c85A1))
(defrule r61A-unable (declare (salience 86)) ?g <- (art a61) (s (no_revoke_finding unable_to_comply))
  => (retract ?g) (push c61A_unable))
(defrule r61A-none (declare (salience 85)) ?g <- (art a61) => (retract ?g) (push c61A_none))

(defrule r62D2 (declare (salience 90)) ?g <- (art a63)
  (s (revoke_in_twelfth_trick TRUE) (revoke_noticed before_hands_returned) (revoker_role defender)
     (revoker_partner_yet_to_play TRUE))
  => (retract ?g) (push c62D2 a62) (assert (art a62)))
(defrule r62D1 (declare (salience 89)) ?g <- (art a63)
  (s (revoke_in_twelfth_trick TRUE) (revoke_noticed before_hands_returned))
  => (retract ?g) (push c62D1 a62) (assert (art a62)))
(defrule r62C3 (declare (salience 88)) ?g <- (art a63)
  (s (other_side_revoked same_trick) (revoke_established_by_play ?p) (revoke_established_otherwise ?o)
     (other_revoke_established ?e))
  (test (neq (or (eq ?p TRUE) (neq ?o no)) (eq ?e TRUE)))
  => (retract ?g) (push c62C3))
(defrule r63A1 (declare (salience 87)) ?g <- (art a63) (s (revoke_established_by_play TRUE))
  => (retract ?g) (push c63A1 a64) (assert (art a64)))
(defrule r63A2 (declare (salience 86)) ?g <- (art a63) (s (revoke_established_otherwise card_named))
  => (retract ?g) (push c63A2 a64) (assert (art a64)))
(defrule r63A3 (declare (salience 85)) ?g <- (art a63) (s (revoke_established_otherwise claim_or_concession))
  => (retract ?g) (push c63A3 a64) (assert (art a64)))
(defrule r63A4 (declare (salience 84)) ?g <- (art a63) (s (revoke_established_otherwise agreed_to_claim))
  => (retract ?g) (push c63A4 a64) (assert (art a64)))
(defrule r62A (declare (salience 83)) ?g <- (art a63) => (retract ?g) (push c62A a62) (assert (art a62)))

(defrule r62B1 (declare (salience 90)) ?g <- (art a62) (s (revoker_role defender) (revoke_card_faced FALSE))
  => (retract ?g) (push c62B1))
(defrule r62B2-declarer (declare (salience 89)) ?g <- (art a62) (s (revoker_role declarer))
  => (retract ?g) (push c62B2_decl))
(defrule r62B2 (declare (salience 88)) ?g <- (art a62) => (retract ?g) (push c62B2))

(deffunction both-revoked (?o ?e) (and (neq ?o no) (eq ?e TRUE)))
;; the first ground of 64B that holds, each other one beside it, then the
;; adjustment (64B2 not beside 64B6 or 64B7)
(deffunction b3-holds (?r ?p) (or (eq ?r dummy) (and (eq ?r defender) (eq ?p TRUE))))
(deffunction push-64B (?n ?t ?both ?b3 ?second)
  (bind ?late (or (eq ?n after_round) (eq ?n after_next_board_call)))
  (bind ?twelfth (eq ?t TRUE))
  (if (eq ?n after_round) then (push g64B5)
   else (if (eq ?n after_next_board_call) then (push g64B4)
   else (if ?twelfth then (push g64B6)
   else (if ?both then (push g64B7) else (push g64B3)))))
  (if (and ?late ?twelfth) then (push b64B6))
  (if (and ?both (or ?late ?twelfth)) then (push b64B7))
  (if (and ?b3 (or ?late ?twelfth ?both)) then (push b64B3))
  (if ?both then (push e64C2b)
   else (if (and (eq ?second TRUE) (not ?twelfth)) then (push e64B2) else (push e64C1))))
(defrule r64B-grounds (declare (salience 90)) ?g <- (art a64)
  (s (revoke_noticed ?n) (revoke_in_twelfth_trick ?t) (other_side_revoked ?o)
     (other_revoke_established ?e) (revoker_role ?r) (revoke_failed_penalty_card ?p)
     (second_revoke_same_suit ?sc))
  (test (or (eq ?n after_round) (eq ?n after_next_board_call) (eq ?t TRUE)
            (both-revoked ?o ?e) (b3-holds ?r ?p)))
  => (retract ?g) (push-64B ?n ?t (both-revoked ?o ?e) (b3-holds ?r ?p) ?sc))
;; 64B1 before 64A: play over, the revoking side won no trick from the revoke on
(defrule r64B2-64B1 (declare (salience 84)) ?g <- (art a64)
  (s (second_revoke_same_suit TRUE) (play_over TRUE) (revoke_trick_won_by opponents) (offending_side_tricks_after 0))
  => (retract ?g) (push c64B2 c64B1))
(defrule r64B2 (declare (salience 83)) ?g <- (art a64) (s (second_revoke_same_suit TRUE))
  => (retract ?g) (push c64B2 a64A) (assert (art a64A)))
(defrule r64B1 (declare (salience 82)) ?g <- (art a64)
  (s (play_over TRUE) (revoke_trick_won_by opponents) (offending_side_tricks_after 0))
  => (retract ?g) (push c64B1_first))
(defrule r64-transfer (declare (salience 81)) ?g <- (art a64) => (retract ?g) (push a64A) (assert (art a64A)))

(defrule r64A-during (declare (salience 90)) ?g <- (art a64A) (s (play_over FALSE) (revoke_trick_won_by ?w))
  => (retract ?g) (push c64A_during)
  (if (eq ?w offender) then (push c64A1_during)
   else (if (eq ?w partner) then (push c64A2_during) else (push c64A0_during))))
(defrule r64A1 (declare (salience 89)) ?g <- (art a64A) (s (revoke_trick_won_by offender) (offending_side_tricks_after ?t))
  => (retract ?g) (push c64A1) (bind ?*arg* (+ 1 (min 1 ?t))))
(defrule r64A2 (declare (salience 88)) ?g <- (art a64A) => (retract ?g) (push c64A2))
