-- A hostile plugin for tests/plugins.sh: a plain search that compares megabytes at every position.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: a plain search that compares megabytes at every position",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local s = string.rep("a", 2000000)
    string.find(s, string.rep("a", 1000000) .. "b", 1, true)
  end,
}
