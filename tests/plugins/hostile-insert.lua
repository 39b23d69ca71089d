-- A hostile plugin for tests/plugins.sh: table.insert into a table whose length lies.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: table.insert into a table whose length lies",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end })
    table.insert(t, 1, "x")
  end,
}
