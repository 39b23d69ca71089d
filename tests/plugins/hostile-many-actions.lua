-- A hostile plugin for tests/plugins.sh: a thousand actions of a long text.
-- It attacks the ruling on an insufficient bid and leaves every other
-- ruling alone, so that a batch shows the next ruling made right.
return {
  api = 1,
  name = "hostile: a thousand actions of a long text",
  cite = "Proef art. 1",
  actions = { big = { text = "{x}", en = "{x}" }, loud = { text = string.rep("{x}", 100) } },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity ~= "insufficient_bid" then return nil end
      local actions = {}
      for i = 1, 1000 do actions[i] = { name = "big", args = { x = string.rep("y", 256) } } end
      return { actions = actions }
    end,
  },
}
