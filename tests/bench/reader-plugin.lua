-- reader-plugin.lua — the plugin `make bench` times next to noop-plugin.lua:
-- one function, called on every ruling, that reads what a club rule such as
-- plugins/clubs/bridge-beginners-revoke.lua reads (a fact of the ruleset, one of
-- its own, every action's name and arguments) and leaves the ruling alone.
return {
  api = 1,
  name = "bench: reading",
  facts = { club_fee = "int" },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity == "none" or ruling.facts.club_fee then return nil end
      for _, action in ipairs(ruling.actions) do
        if action.name == "none" then return nil end
        for _, value in pairs(action.args) do
          if value == "none" then return nil end
        end
      end
      return nil
    end,
  },
}
