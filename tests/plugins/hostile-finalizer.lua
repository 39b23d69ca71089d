-- A hostile plugin for tests/plugins.sh: a finalizer that never ends.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: a finalizer that never ends",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    setmetatable({}, { __gc = function() while true do end end })
  end,
}
