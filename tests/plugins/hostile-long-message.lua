-- A hostile plugin for tests/plugins.sh: a message that grows a hundredfold from its arguments.
-- It attacks the ruling on an insufficient bid and leaves every other
-- ruling alone, so that a batch shows the next ruling made right.
return {
  api = 1,
  name = "hostile: a message that grows a hundredfold from its arguments",
  cite = "Proef art. 1",
  actions = { big = { text = "{x}", en = "{x}" }, loud = { text = string.rep("{x}", 100) } },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity ~= "insufficient_bid" then return nil end
      return { actions = { { name = "loud", args = { x = string.rep("y", 256) } } } }
    end,
  },
}
