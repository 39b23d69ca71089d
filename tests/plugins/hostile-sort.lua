-- A hostile plugin for tests/plugins.sh: table.sort of a table whose length and values lie.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: table.sort of a table whose length and values lie",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local t = setmetatable({}, { __len = function() return 2 ^ 31 - 2 end, __index = rawlen })
    table.sort(t)
  end,
}
