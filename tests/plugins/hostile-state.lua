-- A hostile plugin for tests/plugins.sh: state carried from one ruling into
-- the next. It keeps a count in a global, the last scenario's irregularity
-- in an upvalue, a mark in the string library and one in its own table, and
-- refuses any scenario that finds one of them set: a ruling that sees
-- anything of an earlier one is refused, so a batch ruled without a refusal
-- shows that nothing was carried.
local last
local plugin = {
  api = 1,
  name = "hostile: state carried between rulings",
  cite = "Proef art. 1",
}

function plugin.validate(f)
  rulings = (rulings or 0) + 1
  if rulings > 1 then return "a global counted " .. rulings .. " rulings" end
  if last then return "an upvalue kept " .. last end
  if string.seen then return "the string library kept a mark" end
  if plugin.seen then return "the plugin's table kept a mark" end
  last = f.irregularity or "?"
  string.seen = true
  plugin.seen = true
  return nil
end

-- Every call starts from the plugin as loaded: the override, a call of its
-- own, finds none of validate's marks either.
plugin.override = {
  ["*"] = function(ruling)
    if rulings or last or string.seen or plugin.seen then
      return { note = "the override saw another call's state" }
    end
    rulings = 1
    return nil
  end,
}

return plugin
