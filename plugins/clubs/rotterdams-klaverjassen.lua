-- Rotterdams klaverjassen: the obligation to trump and to overtrump holds
-- even when the trick lies with partner. The NKF's Amsterdam rules (Art. 12
-- of the 1976 text) exempt a player whose partner holds the trick; in
-- Rotterdam he must trump when he cannot follow and has a trump, and must
-- overtrump when he can — exactly as when an opponent holds the trick.
--
-- The ruleset rules on a card with Art. 12; where its ruling rests on the
-- Amsterdam exemption (12d, and its interpretation 12i2 for not trumping
-- at all), this plugin rules instead as 12b and 12c rule for an opponent's
-- trick:
--   no trump in the trick yet (12b): he must trump in;
--   a trump holds the trick (12c): he must overtrump if he can. If he
--   cannot, 12c asks nothing more of him: he may play another suit
--   (12i4a), and undertrumping stays forbidden while he holds another
--   card (12i4d, the ruleset's own ruling, which this plugin leaves
--   alone). So a player who holds only lower trumps and other suits
--   always has a legal card: the other suits.
local function as_if_an_opponent_held_it(ruling)
  local f = ruling.facts
  if f.can_follow or not f.has_trump or not f.partner_winning then return nil end
  local function illegal(what, what_en)
    return {
      actions = { { name = "illegal", args = { what = what, what_en = what_en } } },
      note = "Rotterdams: de plicht geldt ook als de slag aan de partner ligt",
    }
  end
  if not f.trump_in_trick then
    if not f.is_trump then return illegal("introeven", "trump") end
    return nil -- trumping in: the card stands, as the ruleset says
  end
  if f.can_overtrump and not f.overtrumps then return illegal("overtroeven", "overtrump") end
  return nil -- overtrumping, or he cannot: the ruleset's ruling stands
end

return {
  api = 1,
  name = "Rotterdams klaverjassen",
  cite = "Rotterdams art. 1",
  -- `illegal` is the verdict the core looks for; the message is the club's
  actions = {
    illegal = {
      text = "Deze kaart mag niet: in het Rotterdamse spel moet hij {what}, ook als de slag aan zijn partner ligt. Speelt hij haar toch, dan verzaakt hij (art. 13).",
      en = "This card may not be played: in Rotterdam style he must {what_en}, even when the trick lies with his partner. If he plays it all the same, he revokes (Art. 13).",
    },
  },
  -- 12d is where the ruleset decides a trick that lies with partner (12i2,
  -- not trumping at all, is one of its clauses)
  override = { ["12d"] = as_if_an_opponent_held_it },
}
