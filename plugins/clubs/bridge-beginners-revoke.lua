-- Clubreglement voor de beginnersdrive: een verzaking kost hoogstens één
-- slag. Where the 2017 laws transfer two tricks (64A1: the revoker won the
-- revoke trick and his side won a later one), a beginners' drive transfers
-- one; everything else in the ruling (64C, the trail) stands.
--
-- The scenario says whether the board is played in a beginners' drive:
--   "beginners_drive": true
return {
  api = 1,
  name = "Beginnersdrive: een verzaking kost één slag",
  cite = "Clubreglement beginnersdrive art. 2",
  facts = {
    beginners_drive = {
      kind = "bool",
      ask = "Wordt dit spel in een beginnersdrive gespeeld?",
      ask_en = "Is this board played in a beginners' drive?",
    },
  },
  override = {
    ["64A1"] = function(ruling)
      if not ruling.facts.beginners_drive then return nil end
      for _, action in ipairs(ruling.actions) do
        if action.name == "transfer_tricks" and action.args.n > 1 then
          return {
            remove = { "transfer_tricks" },
            actions = { { name = "transfer_tricks", args = { n = 1 } } },
            note = "in de beginnersdrive gaat er één slag over in plaats van " .. action.args.n,
          }
        end
      end
      return nil
    end,
  },
}
