-- A hostile plugin for tests/plugins.sh: pcall swallowing the limit.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: pcall swallowing the limit",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local function spin() while true do end end
    while true do pcall(spin) end
  end,
}
