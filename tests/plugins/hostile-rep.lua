-- A hostile plugin for tests/plugins.sh: string.rep of nothing a maxinteger times, then of something.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: string.rep of nothing a maxinteger times, then of something",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    assert(string.rep("", math.maxinteger) == "")
    assert(string.rep("", math.maxinteger, "") == "")
    return string.rep("x", math.maxinteger)
  end,
}
