-- A hostile plugin for tests/plugins.sh: gsub with a backtracking pattern.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: gsub with a backtracking pattern",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local s = string.rep("ab", 50000)
    s:gsub("a.-b.-b.-b.-b.-x", "")
  end,
}
