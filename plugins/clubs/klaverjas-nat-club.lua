-- A club's scoring of a failed hand (nat, beet). The NKF 1976 text never
-- says what each side writes down when the takers fail; the ruleset reads
-- it as: the defenders get all 162 points and ALL roem claimed in the hand
-- (19i10). Many clubs play it otherwise: the defenders get the 162 and
-- their OWN roem, and the takers' roem lapses — a failed game earns nothing
-- for anyone's melds but the side that kept them. This plugin scores a nat
-- hand that way; a made hand (and mars) is scored as the ruleset says.
local function own_roem_only(ruling)
  local nat = false
  for _, action in ipairs(ruling.actions) do
    if action.name == "outcome" and action.args.result == "nat" then nat = true end
  end
  if not nat then return nil end
  return {
    remove = { "roem_column" },
    actions = {
      { name = "roem_column", args = { side = "takers", points = 0 } },
      { name = "roem_column", args = { side = "defenders", points = ruling.facts.defenders_roem } },
    },
    note = "nat: de tegenspelers krijgen alleen hun eigen roem, die van de spelers vervalt",
  }
end

return {
  api = 1,
  name = "Clubtelling bij nat",
  cite = "Clubreglement klaverjassen art. 5",
  -- 19 decides a hand without roem, 20i9 one with roem: both can be nat
  override = { ["19"] = own_roem_only },
}
