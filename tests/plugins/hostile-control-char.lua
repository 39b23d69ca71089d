-- A hostile plugin for tests/plugins.sh: a note with an escape sequence.
-- Printed as it is, ESC [8m would hide the rest of the ruling on the
-- director's terminal (ESC [2J clears it). It attacks the ruling on an
-- insufficient bid and leaves every other ruling alone, so that a batch
-- shows the next ruling made right.
return {
  api = 1,
  name = "hostile: a note with an escape sequence",
  cite = "Proef art. 1",
  actions = { fee = { text = "Tafelgeld {x}.", en = "Table fee {x}." } },
  override = {
    ["*"] = function(ruling)
      if ruling.facts.irregularity ~= "insufficient_bid" then return nil end
      return { actions = { { name = "fee", args = { x = "2" } } }, note = "ok\27[8m hidden" }
    end,
  },
}
