-- A hostile plugin for tests/plugins.sh: xpcall with a handler that spins, nested in pcall.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: xpcall with a handler that spins, nested in pcall",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local function spin() while true do end end
    while true do pcall(function() xpcall(spin, spin) end) end
  end,
}
