-- A hostile plugin for tests/plugins.sh: state carried from one ruling into
-- the next. Each call looks for what an earlier call may have left, and
-- leaves all of it: a count in a global, the last irregularity in an
-- upvalue and in a table the chunk made, marks in the string library, in
-- the strings' metatable and in its own table, the strings' methods and
-- table.insert replaced, a metatable on the globals, math.random reseeded.
-- It refuses any scenario that finds one of them (and the override notes
-- it): a batch ruled without a refusal or a note shows that nothing was
-- carried, neither from one ruling to the next nor from validate to the
-- override of the same ruling, each a call of its own.
local last
local seen = {}
math.randomseed(42)
local first_draw = math.random(1 << 30)
math.randomseed(42) -- so every call's first draw is first_draw

local plugin = {
  api = 1,
  name = "hostile: state carried between rulings",
  cite = "Proef art. 1",
}

-- What a call finds of an earlier one, each thing named (nil: nothing).
local function carried()
  local found = {}
  local function check(kept, what) if kept then found[#found + 1] = what end end
  check(rawget(_G, "rulings"), "a global")
  check(last, "an upvalue")
  check(#seen > 0, "the chunk's table")
  check(rawget(string, "seen"), "the string library")
  check(rawget(getmetatable(""), "seen"), "the strings' metatable")
  check(("x"):upper() ~= "X", "the strings' methods")
  check(getmetatable(_G) ~= nil, "the globals' metatable")
  check(rawget(table, "seen") or type(table.insert) ~= "function", "the table library")
  check(rawget(plugin, "seen"), "the plugin's table")
  check(math.random(1 << 30) ~= first_draw, "math.random's state")
  for _, name in ipairs({ "debug", "package", "coroutine", "require", "load", "collectgarbage" }) do
    check(rawget(_G, name), name .. ", which would reach the registry, the modules or the collector")
  end
  if #found == 0 then return nil end
  local text = "kept: " .. found[1]
  for i = 2, #found do text = text .. ", " .. found[i] end
  return text
end

local function leave_marks(what)
  rulings = 1
  last = what or "?"
  seen[#seen + 1] = last
  string.seen = true
  local strings = getmetatable("")
  strings.seen = true
  strings.__index = { upper = function() return "kept" end }
  table.seen = true
  table.insert = nil
  plugin.seen = true
  setmetatable(_G, { __index = function(_, name) return "kept " .. name end })
  math.randomseed(7)
end

function plugin.validate(f)
  local found = carried()
  if found then return found end
  leave_marks(f.irregularity)
  return nil
end

plugin.override = {
  ["*"] = function(ruling)
    local found = carried()
    if found then return { note = "the override saw another call's state: " .. found } end
    leave_marks("override")
    return nil
  end,
}

return plugin
