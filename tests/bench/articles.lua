-- articles.lua — Art. 17, 25-39 and 61-64 of bridge-2017 in plain Lua, the
-- same decisions as tests/bench/handtree.c: a baseline of `make bench`.
-- rule(f, out) reads the facts of one situation from f (enum values as
-- strings, booleans, calls and counts as integers), writes the names of the
-- ruling's segments (tests/bench/segments.h) to out[1..n] and returns n and
-- the ruling's dynamic argument.

local n, arg, out

local function push(s) n = n + 1; out[n] = s end

-- ---- derived facts

local function inadmissible_call(f)
  return (f.call_kind == "double" or f.call_kind == "redouble") and not f.double_admissible
end

local function deemed_in_rotation(f)
  local skipped = (f.turn_was == "lho" and f.lho_called and not f.offender_called_before)
               or (f.turn_was == "rho" and f.rho_called)
  return not inadmissible_call(f) and ((f.turn_was == "rho" and f.rho_must_pass) or skipped)
end

local question_irregularity = {
  insufficient_bid = true, call_out_of_rotation = true, simultaneous_call = true,
  inadmissible_double = true, call_when_obliged_to_pass = true, bid_above_seven = true,
}

local function unintended_call_question(f)
  local irr = f.irregularity
  if not question_irregularity[irr] then return false end
  return not ((irr == "insufficient_bid" or irr == "call_out_of_rotation")
              and f.turn_was == "lho" and f.offender_called_before)
end

local function unintended_call_replaced(f)
  return f.unintended_call and not f.partner_called_since and not f.auction_period_over
end

local function ib_deemed_in_rotation(f)
  return f.irregularity == "insufficient_bid" and f.turn_was == "rho" and f.rho_must_pass
end

local function ib_lapsed(f)
  return f.irregularity == "insufficient_bid" and f.turn_was == "rho" and not f.lho_called
     and not f.rho_must_pass and f.rho_called
end

local function rho_in_turn(f)
  if f.irregularity == "simultaneous_call" then return f.turn_was == "partner" end
  return f.turn_was == "rho"
end

local function partner_in_turn(f)
  if f.irregularity == "simultaneous_call" then return f.turn_was == "lho" end
  return f.turn_was == "partner"
end

local function lho_in_turn_after_own_call(f)
  return f.irregularity ~= "simultaneous_call" and f.turn_was == "lho" and f.offender_called_before
end

local function artificial_call_out_of_rotation(f)
  local irr = f.irregularity
  return (irr == "call_out_of_rotation" or irr == "simultaneous_call") and f.call_kind == "pass"
     and f.pass_artificial
end

-- ---- the auction

local function art26(f)
  push("a26"); push("f23A")
  if f.replacement_comparable then push("c26A") else push("c26B") end
end

-- 25B: a comparable call that stands is 26A's (23A tested before 26), no 25B3/16C
local function art25_b(f)
  if f.replacement_comparable then
    if f.lho_called then push("c25B1_comparable") else push("c25B2_comparable") end
    push("f23A"); push("a26"); push("c26A")
    return
  end
  if f.lho_called then push("c25B1") else push("c25B2") end
  art26(f)
end

local function art25(f)
  push("a25")
  if unintended_call_replaced(f) then push("c25A1"); if f.lho_called then push("c25A6") end
  elseif unintended_call_question(f) then
    if f.partner_called_since then push("c25A4_late") else push("c25A5_late") end
  elseif f.unintended_call and f.partner_called_since then push("c25A4"); art25_b(f)
  elseif f.unintended_call then push("c25A5"); art25_b(f)
  else art25_b(f) end
end

local function replacement(f, a, b)
  if artificial_call_out_of_rotation(f) then push("f29C") end
  push("f23A")
  if f.replacement_comparable then push(a) else push(b) end
end

local function art31(f)
  push("a31")
  if rho_in_turn(f) then
    push("g_rho31")
    -- an artificial pass's options name 29C too
    local a29C = artificial_call_out_of_rotation(f)
    if f.rho_next_call == "not_yet" then
      if a29C then push("f29C") end
      push("c31A")
    elseif f.rho_next_call == "pass" and f.irregularity == "insufficient_bid" then push("c31A1_ib")
    elseif f.rho_next_call == "pass" then push("c31A1")
    elseif f.replacement == "not_yet" then
      -- an artificial call's options: the lead-in, then 29C and 23A
      if a29C then push("o31A2"); push("f29C"); push("c31A2_29C")
      else push("c31A2") end
    else push("o31A2"); replacement(f, "c31A2a", "c31A2b") end
  elseif lho_in_turn_after_own_call(f) then
    push("c31C"); art25(f)
  else
    push("c31B")
    if f.replacement == "not_yet" then
      -- an artificial call's options: 31B2, then 29C and 23A
      if artificial_call_out_of_rotation(f) then push("o31B2"); push("f29C"); push("c31A2_29C")
      else push("c31B2") end
    else push("o31B2"); replacement(f, "c31B2a", "c31B2b") end
  end
end

local function art30(f)
  push("a30")
  if f.pass_artificial then push("c30C"); art31(f)
  elseif rho_in_turn(f) then push("c30A")
  elseif lho_in_turn_after_own_call(f) then push("c30B2"); art25(f)
  else
    push("c30B1")
    if f.replacement == "not_yet" then push("c30B1b")
    else
      push("o30B1b"); push("f23A")
      if f.replacement_comparable then push("c30B1bi") else push("c30B1bii") end
    end
  end
end

local function art32(f)
  push("a32")
  if rho_in_turn(f) then
    push("g_rho")
    if f.rho_next_call == "not_yet" then push("c32A")
    elseif f.rho_next_call == "pass" then push("c32A1")
    elseif f.replacement == "not_yet" then push("c32A2")
    else push("o32A2"); replacement(f, "c32A2a", "c32A2b") end
  elseif partner_in_turn(f) then
    push("c32B")
    if f.replacement == "not_yet" then push("c32B2")
    else push("o32B2"); replacement(f, "c32B2a", "c32B2b") end
  else
    push("c32C")
    -- 25 is on the trail already for an unintended call: named once
    if not (f.unintended_call and unintended_call_question(f)) then art25(f) end
  end
end

local function art36(f)
  push("a36")
  if f.auction_period_over then push("c36C")
  elseif f.lho_called then push("c36A")
  elseif f.turn_was ~= "offender" then push("c36B4")
  else push("c36B") end
end

local function art37(f)
  push("a37")
  if f.lho_called and f.pass_obligation == "rest_of_auction" then push("c37A_rest")
  elseif f.lho_called then push("c37A")
  else push("c37B") end
end

local function art38(f)
  push("a38")
  if f.lho_called then push("c38D_lho") else push("c38D") end
end

local function art39(f)
  push("a39")
  if f.lho_called then
    if f.offender_role == "none" then push("c22B_lho") else push("c39B_lho") end
  elseif f.offender_role == "none" then push("c22B")
  elseif f.offender_role == "declarer_or_dummy" then push("c39B")
  elseif f.call_kind == "pass" then push("c39B")
  else push("c39C") end
end

local function against_19(f)
  if not inadmissible_call(f) then return false end
  if f.call_kind == "double" then push("f19A1") else push("f19B1") end
  return true
end

local function art27(f)
  push("a27")
  if f.lho_called and f.turn_was ~= "offender" and not ib_deemed_in_rotation(f) then push("c27A1_oor")
  elseif f.lho_called then push("c27A1")
  elseif f.turn_was ~= "offender" and not ib_deemed_in_rotation(f) then push("c27A2"); art31(f)
  elseif f.replacement == "not_yet" then push("c27B"); arg = f.lowest_same_denomination
  elseif f.replacement == "insufficient_bid" then
    push("o27B"); push("c27B4")
    if f.second_insufficient_accepted then push("c27A1") else push("c27B3") end
  elseif f.replacement == "bid" and f.replacement_call == f.lowest_same_denomination then push("o27B"); push("c27B1a")
  else
    push("o27B"); push("f23A")
    if f.replacement_comparable then push("c27B1b")
    elseif f.replacement == "bid" or f.replacement == "pass" then push("c27B2")
    else push("c27B3") end
  end
end

local function art28(f)
  push("a28")
  if ib_deemed_in_rotation(f) then push("c28A"); art27(f)
  elseif f.turn_was == "rho" and f.rho_must_pass then push("c28A")
  else push("c28B") end
end

local function art29(f)
  push("a29")
  if against_19(f) then
    -- 32A1's exception: the RHO, in turn, passed after the cancellation
    if rho_in_turn(f) and f.rho_next_call == "pass" then push("c29_32A1") else push("c29_32") end
    art36(f)
  elseif f.lho_called then push("c29A")
  else
    push("c29B")
    local ck = f.call_kind
    if ck == "pass" then art30(f) elseif ck == "bid" then art31(f) else art32(f) end
  end
end

local function art33(f)
  push("a33")
  if f.turn_was == "rho" then push("c33rho") else push("c33other"); art29(f) end
end

local function art35(f)
  push("a35")
  local irr = f.irregularity
  if irr == "inadmissible_double" or irr == "call_when_obliged_to_pass" then
    if against_19(f) then push("c35A"); art36(f)
    else push("c35B"); art37(f) end
  elseif irr == "bid_above_seven" then push("c35C"); art38(f)
  else push("c35D"); art39(f) end
end

-- ---- the revoke

local function art62(f)
  push("a62")
  if f.revoker_role == "defender" and not f.revoke_card_faced then push("c62B1")
  elseif f.revoker_role == "declarer" then push("c62B2_decl")
  else push("c62B2") end
end

local function art64A(f)
  push("a64A")
  if not f.play_over then
    push("c64A_during")
    if f.revoke_trick_won_by == "offender" then push("c64A1_during")
    elseif f.revoke_trick_won_by == "partner" then push("c64A2_during")
    else push("c64A0_during") end
    return
  end
  local won = f.revoke_trick_won_by
  if won == "offender" then
    push("c64A1"); arg = 1 + math.min(1, f.offending_side_tricks_after)
  else push("c64A2") end
end

-- 64B1 before 64A: play over, the revoking side won no trick from the revoke on
-- (first: no ground of 64B named before, so 64B's first sentence comes with it).
local function art64_transfer(f, first)
  if f.play_over and f.revoke_trick_won_by == "opponents" and f.offending_side_tricks_after == 0 then
    if first then push("c64B1_first") else push("c64B1") end
  else art64A(f) end
end

local function art64(f)
  push("a64")
  local both = f.other_side_revoked ~= "no" and f.other_revoke_established
  local b3 = f.revoker_role == "dummy" or (f.revoker_role == "defender" and f.revoke_failed_penalty_card)
  local round = f.revoke_noticed == "after_round"
  local board = f.revoke_noticed == "after_next_board_call"
  local twelfth = f.revoke_in_twelfth_trick
  if round or board or twelfth or both or b3 then
    -- the first ground that holds, each other one beside it, then the adjustment
    if round then push("g64B5") elseif board then push("g64B4") elseif twelfth then push("g64B6")
    elseif both then push("g64B7") else push("g64B3") end
    if (round or board) and twelfth then push("b64B6") end
    if both and (round or board or twelfth) then push("b64B7") end
    if b3 and (round or board or twelfth or both) then push("b64B3") end
    if both then push("e64C2b")
    elseif f.second_revoke_same_suit and not twelfth then push("e64B2")
    else push("e64C1") end
  elseif f.second_revoke_same_suit then push("c64B2"); art64_transfer(f, false)
  else art64_transfer(f, true) end
end

local function art63(f)
  push("a63")
  local established = f.revoke_established_by_play or f.revoke_established_otherwise ~= "no"
  if f.revoke_in_twelfth_trick and f.revoke_noticed == "before_hands_returned" then
    if f.revoker_role == "defender" and f.revoker_partner_yet_to_play then push("c62D2") else push("c62D1") end
    art62(f)
  elseif f.other_side_revoked == "same_trick" and established ~= f.other_revoke_established then push("c62C3")
  elseif f.revoke_established_by_play then push("c63A1"); art64(f)
  else
    local other = f.revoke_established_otherwise
    if other == "card_named" then push("c63A2"); art64(f)
    elseif other == "claim_or_concession" then push("c63A3"); art64(f)
    elseif other == "agreed_to_claim" then push("c63A4"); art64(f)
    else push("c62A"); art62(f) end
  end
end

local function art61(f)
  push("a61")
  if f.revoke_occurred then push("c61A"); art63(f); return end
  local finding = f.no_revoke_finding
  if finding == "unclear_revoker_side_mixed" then push("c66D_assumed"); art63(f)
  elseif finding == "unclear_other_side_mixed" then push("c66D_not")
  elseif finding == "unclear" then push("c85A1")
  elseif finding == "unable_to_comply" then push("c61A_unable")
  else push("c61A_none") end
end

-- Every article whose `when` holds, in the rule files' order: 25 on an
-- unintended call beside the irregularity's own article (which gives way
-- when 25A1 replaces the call).
return function(f, o)
  n, arg, out = 0, 0, o
  if f.unintended_call and unintended_call_question(f) then
    push("a25")
    if unintended_call_replaced(f) then
      push("c25A1"); if f.lho_called then push("c25A6") end; return n, arg
    end
    if f.partner_called_since then push("c25A4_late") else push("c25A5_late") end
  end
  local irr = f.irregularity
  if irr == "insufficient_bid" then
    if ib_deemed_in_rotation(f) or ib_lapsed(f) then art28(f) else art27(f) end
  elseif irr == "call_out_of_rotation" then
    if deemed_in_rotation(f) then art28(f) else art29(f) end
  elseif irr == "simultaneous_call" then art33(f)
  elseif irr == "turn_missed_by_passes" then push("a34"); push("a17"); push("c17D3")
  elseif irr == "revoke" then art61(f)
  else art35(f) end
  return n, arg
end
