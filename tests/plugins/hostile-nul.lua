-- A hostile plugin for tests/plugins.sh: a citation with a NUL byte.
-- It attacks the ruling on an insufficient bid and leaves every other
-- ruling alone, so that a batch shows the next ruling made right.
return {
  api = 1,
  name = "hostile: a citation with a NUL byte",
  cite = "Proef art. 1",
  actions = { big = { text = "{x}", en = "{x}" }, loud = { text = string.rep("{x}", 100) } },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity ~= "insufficient_bid" then return nil end
      return { cite = "Proef\0 art. 2", actions = { { name = "big", args = { x = "ok" } } } }
    end,
  },
}
