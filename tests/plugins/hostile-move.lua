-- A hostile plugin for tests/plugins.sh: table.move over a huge range.
-- It attacks on an insufficient bid and lets every other scenario pass, so
-- that a batch shows the next ruling in the same process made right.
return {
  api = 1,
  name = "hostile: table.move over a huge range",
  cite = "Proef art. 1",
  validate = function(f)
    if f.irregularity ~= "insufficient_bid" then return nil end
    table.move({}, 1, math.maxinteger - 1, 2)
  end,
}
