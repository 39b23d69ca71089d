-- A plugin for tests/unit/test_api_faces.c: its validate counts to 20000
-- (about a hundred thousand instructions, well within the host's default
-- budget of a million) and then accepts the scenario, so that a budget of
-- a thousand instructions stops it and the default does not.
local plugin = {
  api = 1,
  name = "busy: counts before it accepts",
  cite = "Proef art. 1",
}

function plugin.validate(f)
  local n = 0
  for i = 1, 20000 do n = n + i end
  if n < 0 then return "impossible" end
  return nil
end

return plugin
