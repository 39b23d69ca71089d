-- A club rule written too broadly, as the Rotterdam plugin first was: under
-- a trick that lies with his partner, a player who cannot follow and holds
-- a trump must play a trump, even one that cannot beat the partner's. With
-- the ruleset's ban on undertrumping while he holds another suit (12i4d),
-- that leaves a player with no legal card: `arbiter check --plugin` must
-- find such a position (tests/plugins.sh).
local function must_trump(ruling)
  local f = ruling.facts
  if f.can_follow or not f.has_trump or not f.partner_winning or f.is_trump then return nil end
  return { actions = { { name = "illegal", args = {} } }, note = "Rotterdams: altijd troef" }
end

return {
  api = 1,
  name = "Rotterdams klaverjassen (te ruim)",
  cite = "Rotterdams art. 1",
  actions = {
    illegal = { text = "Deze kaart mag niet: in het Rotterdamse spel moet hij troef bijspelen.",
                en = "This card may not be played: in Rotterdam style he must play a trump." },
  },
  override = { ["12d"] = must_trump },
}
