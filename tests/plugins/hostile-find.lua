-- A hostile plugin for tests/plugins.sh: a pattern that backtracks for hours in one C call.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: a pattern that backtracks for hours in one C call",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    string.find(string.rep("a", 200000), ".-.-.-.-.-.-.-.-b")
  end,
}
