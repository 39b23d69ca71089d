-- noop-plugin.lua — the plugin `make bench` times: one function, called on
-- every ruling, that leaves it alone. What it costs is what any plugin
-- costs a ruling before it does anything.
return {
  api = 1,
  name = "bench: nothing",
  override = { ["*"] = function(ruling) return nil end },
}
