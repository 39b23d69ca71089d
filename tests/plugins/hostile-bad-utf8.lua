-- A hostile plugin for tests/plugins.sh: a note that is not UTF-8.
-- It attacks the ruling on an insufficient bid and leaves every other
-- ruling alone, so that a batch shows the next ruling made right.
return {
  api = 1,
  name = "hostile: a note that is not UTF-8",
  cite = "Proef art. 1",
  actions = { big = { text = "{x}", en = "{x}" }, loud = { text = string.rep("{x}", 100) } },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity ~= "insufficient_bid" then return nil end
      return { actions = { { name = "big", args = { x = "ok" } } }, note = "caf\xe9" }
    end,
  },
}
