/* test_plugin.c — the Lua host: every sandbox limit gives a clear error
 * naming the plugin, the line and the limit; nothing crashes; the plugin
 * and the engine stay usable afterwards. The hooks change rulings, scores
 * and matchpoints as documented, against the toy ruleset. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "eval.h"
#include "plugin.h"
#include "scenario.h"

#include "fixture.h"

static char *write_plugin(const char *lua) {
    char *path = strdup("/tmp/arbiter-plugin-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, lua, strlen(lua)), (ssize_t)strlen(lua));
    close(fd);
    return path;
}

static const ruleset *toy(void **state) {
    return *state;
}

/* Loads a plugin from text; NULL (with err) when it fails to load. */
static plugin *load_limited(const ruleset *rs, const char *lua, plugin_limits limits, strbuf *err) {
    char *path = write_plugin(lua);
    plugin *p = plugin_load(path, rs, limits, err);
    unlink(path);
    free(path);
    return p;
}

static plugin *load(const ruleset *rs, const char *lua, long budget, size_t memory, strbuf *err) {
    return load_limited(rs, lua, (plugin_limits){.instructions = budget, .memory = memory}, err);
}

static void rule(const ruleset *rs, const char *json, scenario *sc, ruling *r) {
    strbuf err;
    sb_init(&err);
    scenario_init(sc, rs);
    assert_true(scenario_read_json(sc, json, strlen(json), &err));
    eval_rule(rs, rs->root, &sc->fv, r);
    sb_free(&err);
}

/* A fact of the plugin's own, as a scenario that gives it keeps it. */
static void give_own(scenario *sc, const char *name, json_int_t value) {
    if (!sc->own) sc->own = json_object();
    json_object_set_new(sc->own, name, json_integer(value));
}

#define HEADER "return { api = 1, name = \"test\", cite = \"Clubreglement art. 1\",\n"

static void test_loads_and_names_itself(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state), HEADER "}\n", 0, 0, &err);
    assert_non_null(p);
    assert_string_equal(plugin_name(p), "test");
    plugin_free(p);
    sb_free(&err);
}

static void test_api_version_mismatch(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(load(toy(state), "return { api = 2, name = \"old\" }\n", 0, 0, &err));
    assert_non_null(
        strstr(err.data, "plugin old: written for API version 2; this arbiter speaks version 1"));
    sb_free(&err);
}

static void test_unknown_override_citation(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(
        load(toy(state), HEADER "override = { [\"9Z\"] = function(r) end } }\n", 0, 0, &err));
    assert_non_null(
        strstr(err.data, "override \"9Z\": no article or clause of the ruleset has this citation"));
    sb_free(&err);
}

/* An error while loading names the file and the line. */
static void test_syntax_error(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(load(toy(state), "return { api = 1,\n name = }\n", 0, 0, &err));
    assert_non_null(strstr(err.data, ":2:"));
    sb_free(&err);
}

/* A misspelt field of the plugin's table, or a hook that is no function,
 * is refused as it loads: it would be a club rule that never applies. */
static void test_unknown_field_or_hook_of_another_type_is_refused(void **state) {
    static const struct {
        const char *lua, *error;
    } cases[] = {
        {HEADER "overide = { [\"1A\"] = function(r) return nil end } }\n",
         "its table: a field it does not know: 'overide'"},
        {HEADER "validate = \"nee\" }\n", "`validate` must be a function, not a string"},
        {HEADER "override = function(r) end }\n", "`override` must be a table, not a function"},
        {HEADER "score = 5 }\n", "`score` must be a function, not a number"},
        {HEADER "[1] = true }\n", "a key that is no short text"},
        {HEADER "actions = { fee = { txt = \"Fee.\" } } }\n",
         "its action 'fee': a field it does not know: 'txt'"},
        {HEADER "actions = { fee = \"Fee.\" } }\n", "its action 'fee': a string"},
        {HEADER "facts = { x = { knd = \"bool\" } } }\n",
         "the fact 'x': a field it does not know: 'knd'"},
        {HEADER "facts = { x = { kind = \"bool\", aks_en = \"X?\" } } }\n",
         "the fact 'x': a field it does not know: 'aks_en'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        strbuf err;
        sb_init(&err);
        assert_null(load(toy(state), cases[i].lua, 0, 0, &err));
        if (!strstr(err.data ? err.data : "", cases[i].error))
            fail_msg("case %zu: expected \"%s\" in: %s", i, cases[i].error, err.data);
        sb_free(&err);
    }
}

/* A plugin file that starts with a UTF-8 byte order mark (editors on
 * Windows write one) loads, as Lua's own loadfile takes it. */
static void test_byte_order_mark_is_skipped(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state), "\xEF\xBB\xBF" HEADER "}\n", 0, 0, &err);
    if (!p) fail_msg("a plugin with a byte order mark: %s", err.data);
    plugin_free(p);
    sb_free(&err);
}

/* Each removed function is simply not there: calling it is a runtime error
 * on the plugin's own line. */
static void check_forbidden(void **state, const char *call) {
    char lua[512];
    snprintf(lua, sizeof lua, HEADER "validate = function(f)\n  %s\nend }\n", call);
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    plugin *p = load(toy(state), lua, 0, 0, &err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, toy(state));
    assert_false(plugin_validate(p, &sc, &rejection, &err));
    assert_non_null(strstr(err.data, "plugin test: "));
    assert_non_null(strstr(err.data, ":3:")); /* the line of the call */
    assert_non_null(strstr(err.data, "nil value"));
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

static void test_no_os(void **state) {
    check_forbidden(state, "os.execute(\"true\")");
}

static void test_no_io(void **state) {
    check_forbidden(state, "io.open(\"/etc/passwd\")");
}

static void test_no_require(void **state) {
    check_forbidden(state, "require(\"os\")");
}

static void test_no_dofile_load_or_gc(void **state) {
    check_forbidden(state, "dofile(\"/etc/passwd\")");
    check_forbidden(state, "load(\"return 1\")");
    check_forbidden(state, "collectgarbage(\"stop\")");
    check_forbidden(state, "string.dump(print)");
    check_forbidden(state, "debug.getinfo(1)");
}

static void test_infinite_loop_hits_budget_and_plugin_stays_usable(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    plugin *p =
        load(toy(state),
             HEADER "validate = function(f)\n  if f.minutes == 1 then while true do end end\n"
                    "  if f.minutes == 2 then return \"te laat\" end\nend }\n",
             100000, 0, &err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, toy(state));
    scenario_give(&sc, rs_find_fact(toy(state), "minutes"), 1);
    assert_false(plugin_validate(p, &sc, &rejection, &err));
    assert_non_null(strstr(err.data, "instruction budget of 100000 exceeded"));
    assert_non_null(strstr(err.data, ":3:")); /* the loop's line: the header is line 1 */
    /* the same plugin answers the next call */
    scenario_give(&sc, rs_find_fact(toy(state), "minutes"), 2);
    sb_free(&err);
    assert_true(plugin_validate(p, &sc, &rejection, &err));
    assert_string_equal(rejection.data, "te laat (Clubreglement art. 1)");
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

static void test_memory_bomb_hits_cap_and_plugin_stays_usable(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    /* filling the memory takes its time (Lua collects at every refusal near
     * the cap): the clock is not what this test is about */
    plugin *p = load_limited(
        toy(state),
        HEADER "validate = function(f)\n  if f.minutes == 1 then local t = {} for i = 1, 1e9 do "
               "t[i] = string.rep('x', 1000) .. i end end\n  return nil\nend }\n",
        (plugin_limits){.memory = 4u << 20, .time_ms = 60000}, &err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, toy(state));
    scenario_give(&sc, rs_find_fact(toy(state), "minutes"), 1);
    assert_false(plugin_validate(p, &sc, &rejection, &err));
    assert_non_null(strstr(err.data, "plugin test: /tmp/arbiter-plugin-"));
    assert_non_null(strstr(err.data, ": memory limit of 4194304 bytes exceeded"));
    scenario_give(&sc, rs_find_fact(toy(state), "minutes"), 3);
    sb_free(&err);
    assert_true(plugin_validate(p, &sc, &rejection, &err));
    assert_int_equal(rejection.len, 0);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

/* The rejection validate returns on a scenario with minutes = 1 (the
 * plugin loaded with limits), or NULL with err when the call failed. */
static char *validate_limited(const ruleset *rs, const char *lua, plugin_limits limits,
                              strbuf *err) {
    plugin *p = load_limited(rs, lua, limits, err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, rs);
    scenario_give(&sc, rs_find_fact(rs, "minutes"), 1);
    strbuf rejection;
    sb_init(&rejection);
    char *out = NULL;
    if (plugin_validate(p, &sc, &rejection, err))
        out = strdup(rejection.data ? rejection.data : "");
    sb_free(&rejection);
    scenario_free(&sc);
    plugin_free(p);
    return out;
}

/* The bounded library does what Lua's does. */
static void test_bounded_library_works_as_lua_s(void **state) {
    strbuf err;
    sb_init(&err);
    char *got = validate_limited(
        toy(state),
        HEADER "validate = function(f)\n"
               "  local out = {}\n"
               "  local function add(...) for i = 1, select('#', ...) do out[#out + 1] = "
               "tostring((select(i, ...))) end end\n"
               "  add(string.find('hello world', 'o w')) add(string.find('a.b', '.', 1, true))\n"
               "  add(('key=val'):match('(%w+)=(%w+)'))\n"
               "  for w in ('one two'):gmatch('%a+') do add(w) end\n"
               "  add(('abc'):gsub('%w', '%0%0')) add(('x'):rep(3, '-')) add(('ab'):rep(0)) "
               "add(string.rep('', 5))\n"
               "  local t = { 3, 1, 2 }\n"
               "  table.sort(t) add(table.concat(t, ','))\n"
               "  table.sort(t, function(a, b) return a > b end) add(table.concat(t, ',', 2, 3))\n"
               "  table.insert(t, 4) table.insert(t, 1, 0) add(table.concat(t, ','))\n"
               "  add(table.remove(t)) add(table.remove(t, 1)) add(table.concat(t, ','))\n"
               "  add(table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), ','))\n"
               "  add(pcall(error, 'caught')) add(select(2, xpcall(error, function(m) return "
               "'handled ' .. m end, 'x')))\n"
               "  return table.concat(out, ' ')\n"
               "end }\n",
        (plugin_limits){0}, &err);
    if (!got) fail_msg("%s", err.data);
    assert_string_equal(
        got, "5 7 2 2 key val one two aabbcc 3 x-x-x   1,2,3 2,1 0,3,2,1,4 4 0 3,2,1 1,1,2,3 "
             "false caught handled x (Clubreglement art. 1)");
    free(got);
    sb_free(&err);
}

/* pcall and xpcall cannot catch a limit; the next call is served. */
static void test_limits_go_through_pcall(void **state) {
    static const char *const loops[] = {
        "local function spin() while true do end end while true do pcall(spin) end",
        "local function spin() while true do end end while true do pcall(xpcall, spin, spin) end",
        "while true do pcall(string.find, string.rep('a', 100000), '.-.-.-.-.-b') end",
    };
    for (size_t i = 0; i < sizeof loops / sizeof *loops; i++) {
        strbuf err;
        sb_init(&err);
        char lua[400];
        snprintf(lua, sizeof lua, HEADER "validate = function(f)\n  %s\nend }\n", loops[i]);
        assert_null(validate_limited(toy(state), lua,
                                     (plugin_limits){.instructions = 100000, .time_ms = 20}, &err));
        assert_non_null(strstr(err.data, ":3: "));
        assert_true(strstr(err.data, "instruction budget of 100000 exceeded") ||
                    strstr(err.data, "time limit of 20 ms exceeded"));
        sb_free(&err);
    }
}

/* A pattern that backtracks for hours meets the clock inside the C call. */
static void test_time_limit_inside_a_pattern(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(validate_limited(
        toy(state),
        HEADER "validate = function(f)\n"
               "  return string.find(string.rep('a', 200000), '.-.-.-.-.-.-.-.-b')\nend }\n",
        (plugin_limits){.time_ms = 30}, &err));
    assert_non_null(strstr(err.data, ":3: time limit of 30 ms exceeded"));
    sb_free(&err);
}

static void test_finalizers_are_refused(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(validate_limited(
        toy(state),
        HEADER "validate = function(f)\n"
               "  setmetatable({}, { __gc = function() while true do end end })\nend }\n",
        (plugin_limits){0}, &err));
    assert_non_null(strstr(err.data, ":3: a plugin may not have finalizers"));
    sb_free(&err);
}

static bool validate_on(const ruleset *rs, const char *lua, const char *json, strbuf *rejection,
                        strbuf *err);

/* The error an override gives that returns `ret` (Lua) on any ruling,
 * with the plugin's action big = "{x}" and a memory cap; NULL when the
 * override succeeds. */
static char *override_error(const ruleset *rs, const char *ret, size_t memory) {
    char lua[1200];
    snprintf(lua, sizeof lua,
             HEADER "actions = { big = { text = \"{x}{x}{x}{x}{x}{x}{x}\" }, loud = { text = "
                    "('{x}'):rep(10) } },\n"
                    "override = { [\"*\"] = function(r)\n  %s\nend } }\n",
             ret);
    strbuf err;
    sb_init(&err);
    plugin *p = load(rs, lua, 0, memory, &err);
    if (!p) fail_msg("%s", err.data);
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    char *out = NULL;
    if (!plugin_override(p, &sc, &r, &err)) out = strdup(err.data);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    return out;
}

static void expect_override_error(const ruleset *rs, const char *ret, size_t memory,
                                  const char *want) {
    char *got = override_error(rs, ret, memory);
    if (!got || !strstr(got, want))
        fail_msg("%s: got '%s', want '%s'", ret, got ? got : "(no error)", want);
    assert_non_null(strstr(got, "plugin test: /tmp/arbiter-plugin-"));
    free(got);
}

/* Everything an override hands back is capped, counted against the memory
 * cap, and must be UTF-8 text without NUL. */
static void test_what_a_plugin_hands_back_is_capped_and_checked(void **state) {
    const ruleset *rs = toy(state);
    const char *sixteen =
        "local a = {} for i = 1, 16 do a[i] = { name = 'big', args = { x = ('y'):rep(256) } } end ";
    char ret[400];
    snprintf(ret, sizeof ret, "%s return { actions = a }", sixteen);
    char *fine = override_error(rs, ret, 0);
    if (fine) fail_msg("%s", fine);
    expect_override_error(rs, ret, 80000,
                          "returned too much: what it hands back passes the memory limit of 80000");
    snprintf(ret, sizeof ret, "%s a[17] = a[1] return { actions = a }", sixteen);
    expect_override_error(rs, ret, 0, "returned too much: more than 16 actions");
    expect_override_error(
        rs, "return { actions = { { name = 'big', args = { x = ('y'):rep(300) } } } }", 0,
        "returned too much: argument 'x' of action 'big' of 300 bytes (at most 256)");
    expect_override_error(
        rs, "return { actions = { { name = 'loud', args = { x = ('y'):rep(250) } } } }", 0,
        "returned too much: a message longer than 2000 bytes");
    expect_override_error(rs,
                          "local a = {} for i = 1, 17 do a['k' .. i] = i end return { actions = { "
                          "{ name = 'big', args = a } } }",
                          0, "returned too much: action 'big' has more than 16 arguments");
    expect_override_error(rs, "return { note = ('n'):rep(2001) }", 0,
                          "returned too much: the note of 2001 bytes");
    expect_override_error(rs, "return { note = 'caf\\xe9' }", 0,
                          "the note is not UTF-8 text (byte 4 is 0xE9)");
    expect_override_error(rs, "return { note = '\\xed\\xa0\\x80' }", 0,
                          "the note is not UTF-8 text (byte 1 is 0xED)");
    expect_override_error(rs, "return { cite = 'art.\\0 2' }", 0,
                          "the citation holds a NUL byte (byte 5)");
    expect_override_error(rs, "return { actions = { { name = 'big\\0', args = { x = 1 } } } }", 0,
                          "the name of an action holds a NUL byte (byte 4)");
    expect_override_error(
        rs, "return { actions = { { name = 'big', args = { x = { 1 } } } } }", 0,
        "argument 'x' of action 'big' is a table; an argument is true/false, a number or text");
    expect_override_error(rs, "return { actions = { { name = 'big', args = { ['\\xff'] = 1 } } } }",
                          0, "an argument name of action 'big' is not UTF-8 text (byte 1 is 0xFF)");
    expect_override_error(rs, "return { remove = { 'penalty\\0' } }", 0,
                          "a name in `remove` holds a NUL byte (byte 8)");
    /* an argument only an __index gives is not an argument: no text slips past the checks */
    expect_override_error(rs,
                          "return { actions = { { name = 'penalty', args = setmetatable({}, "
                          "{ __index = function() return '\\xff' end }) } } }",
                          0,
                          "argument 'points' of the ruleset's action 'penalty' must be a whole "
                          "number (the plugin gave none)");
    char *hidden = override_error(rs,
                                  "return { actions = { { name = 'big', args = setmetatable({}, "
                                  "{ __index = function() return '\\xff' end }) } } }",
                                  0);
    if (hidden) fail_msg("%s", hidden);
    /* the ruleset's actions take their parameters, of their types */
    expect_override_error(
        rs, "return { actions = { { name = 'penalty', args = { points = 'veel' } } } }", 0,
        "argument 'points' of the ruleset's action 'penalty' must be a whole number (the plugin "
        "gave string)");
    expect_override_error(rs, "return { actions = { { name = 'penalty', args = {} } } }", 0,
                          "argument 'points' of the ruleset's action 'penalty' must be a whole "
                          "number (the plugin gave none)");
    /* a number refused is shown by its value; NaN says what it is */
    expect_override_error(
        rs, "return { actions = { { name = 'penalty', args = { points = 2.5 } } } }", 0,
        "argument 'points' of the ruleset's action 'penalty' must be a whole number (the plugin "
        "gave 2.5)");
    expect_override_error(rs,
                          "return { actions = { { name = 'penalty', args = { points = 0/0 } } } }",
                          0, "must be a whole number (the plugin gave NaN, not a number)");
    expect_override_error(
        rs, "return { actions = { { name = 'penalty', args = { points = 3, extra = 1 } } } }", 0,
        "the ruleset's action 'penalty' has no argument 'extra' (it takes: points)");
    expect_override_error(
        rs, "return { actions = { { name = 'replace_with', args = { c = '9Z' } } } }", 0,
        "argument 'c' of the ruleset's action 'replace_with' must be a call such as");
    expect_override_error(rs, "return { actions = { { name = 'warning', args = { why = 'x' } } } }",
                          0,
                          "the ruleset's action 'warning' has no argument 'why' (it takes: none)");
    char *typed =
        override_error(rs,
                       "return { actions = { { name = 'penalty', args = { points = 3 } }, "
                       "{ name = 'replace_with', args = { c = '2H' } }, { name = 'see', args = { "
                       "article = '1B' } } } }",
                       0);
    if (typed) fail_msg("%s", typed);
    /* UTF-8 that is text passes */
    char *ok = override_error(
        rs, "return { note = 'café ♠ 𝄞', actions = { { name = 'big', args = { x = 'één' } } } }",
        0);
    if (ok) fail_msg("%s", ok);

    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    assert_false(validate_on(rs, HEADER "validate = function(f) return 'nee\\0' end }\n",
                             "{\"minutes\": 5}", &rejection, &err));
    assert_non_null(strstr(err.data, "the message of `validate` holds a NUL byte (byte 4)"));
    sb_free(&err);
    sb_free(&rejection);
}

/* Through a set's hooks the time limit is the ruling's: its validate, its
 * overrides and its score share it. An override called after the ruling's
 * time is up does not start; the next ruling has its own time. */
static void test_time_limit_is_the_ruling_s(void **state) {
    const ruleset *rs = toy(state);
    char *path = write_plugin(HEADER "validate = function(f) return nil end,\n"
                                     "override = { [\"*\"] = function(r) return nil end } }\n");
    const char *paths[] = {path};
    strbuf err;
    sb_init(&err);
    plugin_set set;
    assert_true(plugin_set_load(&set, rs, paths, 1, (plugin_limits){.time_ms = 200}, &err));
    unlink(path);
    free(path);
    const scenario_hooks *h = plugin_set_hooks(&set);
    scenario sc;
    ruling r;
    rule(rs, "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_true(h->validate(h->ctx, &sc, &err));
    struct timespec pause = {0, 300 * 1000000};
    nanosleep(&pause, NULL);
    assert_false(h->after_ruling(h->ctx, &sc, &r, &err));
    assert_non_null(strstr(err.data, "plugin test: /tmp/arbiter-plugin-"));
    assert_non_null(strstr(err.data, ": time limit of 200 ms exceeded"));
    sb_free(&err);
    /* the next ruling starts its own clock */
    assert_true(h->validate(h->ctx, &sc, &err));
    if (!h->after_ruling(h->ctx, &sc, &r, &err)) fail_msg("%s", err.data);
    /* a plugin called on its own has the limit per call */
    nanosleep(&pause, NULL);
    if (!plugin_override(set.list[0], &sc, &r, &err)) fail_msg("%s", err.data);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_set_free(&set);
    sb_free(&err);
}

static void test_runtime_error_names_line(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    plugin *p = load(toy(state), HEADER "validate = function(f)\n  return f.nothing.here\nend }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, toy(state));
    assert_false(plugin_validate(p, &sc, &rejection, &err));
    assert_non_null(strstr(err.data, ":3: attempt to index a nil value"));
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

/* The toy's 1B: a repeated late arrival costs two points a minute; the club
 * caps it at 30 points, citing its own rule. */
static void test_override_replaces_ruling(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "override = { [\"1B\"] = function(r)\n"
                            "  local pts = r.actions[1].args.points\n"
                            "  if pts <= 30 then return nil end\n"
                            "  return { actions = { { name = \"penalty\", args = { points = 30 } } "
                            "}, note = \"ten hoogste 30\" }\n"
                            "end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    assert_int_equal(r.status, RULING_OK);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_true(r.replaced);
    assert_int_equal(r.nextra, 1);
    assert_string_equal(r.extra[0].name, "penalty");
    assert_string_equal(r.extra[0].message, "Aftrek van 30 punten.");
    assert_string_equal(r.extra[0].cite, "Clubreglement art. 1");
    assert_int_equal(r.nnotes, 1);
    assert_non_null(strstr(r.notes[0].what, "replaced the ruling at 1B: ten hoogste 30"));
    ruling_clear(&r);
    scenario_free(&sc);
    /* 1A is not 1B: the plugin does not touch it */
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_false(r.replaced);
    assert_int_equal(r.nextra, 0);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

/* A plugin's own fact and action: a club deduction added to every ruling. */
static void test_own_fact_and_action_added(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "facts = { table_fee = \"int\" },\n"
                            "actions = { fee = { text = \"Tafelgeld: {euro} euro.\", en = \"Table "
                            "fee: {euro} euro.\" } },\n"
                            "override = { [\"*\"] = function(r)\n"
                            "  if not r.facts.table_fee then return nil end\n"
                            "  return { replace = false, actions = { { name = \"fee\", args = { "
                            "euro = r.facts.table_fee } } } }\n"
                            "end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    assert_true(plugin_has_fact(p, "table_fee"));
    assert_false(plugin_has_fact(p, "minutes"));
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    give_own(&sc, "table_fee", 2);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_false(r.replaced);
    assert_int_equal(r.nextra, 1);
    assert_string_equal(r.extra[0].message, "Tafelgeld: 2 euro.");
    assert_string_equal(r.extra[0].message_en, "Table fee: 2 euro.");
    assert_string_equal(r.extra[0].args, "{\"euro\":2}");
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

/* `remove` takes named actions out and keeps the rest: 1B's see(3) stays,
 * its penalty goes, and the club's own penalty comes in. */
static void test_override_removes_one_action(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "override = { [\"1B\"] = function(r)\n"
                            "  return { remove = { \"penalty\" }, actions = { { name = "
                            "\"penalty\", args = { points = 5 } } } }\n"
                            "end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_false(r.replaced);
    assert_int_equal(r.nactions, 2); /* penalty(40), see(3) */
    assert_true(r.actions[0].dropped);
    assert_false(r.actions[1].dropped);
    assert_int_equal(r.nextra, 1);
    assert_string_equal(r.extra[0].message, "Aftrek van 5 punten.");
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

static void test_unknown_action_is_an_error(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "override = { [\"1A\"] = function(r) return { actions = { { name = "
                            "\"fine\" } } } end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_false(plugin_override(p, &sc, &r, &err));
    assert_non_null(strstr(err.data, "action 'fine' is neither the ruleset's nor declared"));
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

static void test_score_and_matchpoint_hooks(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "score = function(s, f) return s - 10 end,\n"
                            "matchpoints = function(beaten, equalled, others, mp)\n"
                            "  return (100 * (2 * beaten + equalled)) // (2 * others)\nend }\n",
                     0, 0, &err);
    assert_non_null(p);
    int64_t score = 420;
    assert_true(plugin_adjust_score(p, NULL, &score, &err));
    assert_int_equal(score, 410);
    /* beats 3 of 4 others and ties 1: (2*3 + 1) / 8 = 87.5% -> 87 */
    int64_t mp = 7;
    assert_true(plugin_adjust_matchpoints(p, 3, 1, 4, &mp, &err));
    assert_int_equal(mp, 87);
    plugin_free(p);
    sb_free(&err);
}

static void test_hook_must_return_a_whole_number(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p =
        load(toy(state), HEADER "score = function(s, f) return \"veel\" end }\n", 0, 0, &err);
    assert_non_null(p);
    int64_t score = 420;
    assert_false(plugin_adjust_score(p, NULL, &score, &err));
    assert_non_null(strstr(err.data, "plugin test: `score` returns a whole number"));
    assert_int_equal(score, 420);
    plugin_free(p);
    sb_free(&err);
}

/* A hook's answer of another type, a bound passed, or an override's field
 * misspelt or of another type is the plugin's error: passed over, each
 * would leave a ruling without the plugin's part (an override with no
 * `actions` it can read replaces the ruleset's actions with nothing). */
static void test_hooks_answer_in_their_own_types(void **state) {
    static const struct {
        const char *lua, *error;
    } cases[] = {
        {"validate = function(f) return true end }", "`validate` returns nil to accept"},
        {"validate = function(f) return {} end }", "or a message to refuse it, not a table"},
        {"score = function(s, f) return math.maxinteger end }",
         "`score` returns a whole number between -100000000 and 100000000"},
        {"matchpoints = function(b, e, o, mp) return -math.maxinteger end }",
         "`matchpoints` returns a whole number between"},
        {"override = { [\"1A\"] = function(r) return { action = {} } end } }",
         "returned a field it does not know: 'action'"},

        {"override = { [\"1A\"] = function(r) return { actions = 5 } end } }",
         "`actions` must be a list of { name = …, args = { … } }, not a number"},
        {"override = { [\"1A\"] = function(r) return { remove = \"warning\" } end } }",
         "`remove` must be a list of action names, not a string"},
        {"override = { [\"1A\"] = function(r) return { replace = 1 } end } }",
         "`replace` must be true or false, not a number"},
        {"override = { [\"1A\"] = function(r) return { [1] = 2 } end } }",
         "a key that is no short text"},
        {"override = { [\"1A\"] = function(r) return { actions = { { name = \"warning\", "
         "cite = \"9\" } } } end } }",
         "the action 'warning': a field it does not know: 'cite'"},
        {"override = { [\"1A\"] = function(r) return { actions = { { name = \"warning\", "
         "args = 5 } } } end } }",
         "the action 'warning': `args` must be a table { name = value, … }, not a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char lua[400];
        snprintf(lua, sizeof lua, HEADER "%s\n", cases[i].lua);
        strbuf err, rejection;
        sb_init(&err);
        sb_init(&rejection);
        plugin *p = load(toy(state), lua, 0, 0, &err);
        assert_non_null(p);
        scenario sc;
        ruling r;
        rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
        int64_t figure = 420;
        bool ok = plugin_validate(p, &sc, &rejection, &err) && plugin_override(p, &sc, &r, &err) &&
                  plugin_adjust_score(p, &sc, &figure, &err) &&
                  plugin_adjust_matchpoints(p, 1, 0, 2, &figure, &err);
        assert_false(ok);
        if (!strstr(err.data ? err.data : "", cases[i].error))
            fail_msg("case %zu: expected \"%s\" in: %s", i, cases[i].error, err.data);
        ruling_clear(&r);
        scenario_free(&sc);
        plugin_free(p);
        sb_free(&err);
        sb_free(&rejection);
    }
}

/* ---- the views a hook gets: `facts` and `ruling` ------------------------ */

/* The rejection validate returns for the scenario, with the plugin's own
 * table_fee = 2; false (with err) when the plugin fails. */
static bool validate_on(const ruleset *rs, const char *lua, const char *json, strbuf *rejection,
                        strbuf *err) {
    plugin *p = load(rs, lua, 0, 0, err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(rs, json, &sc, &r);
    if (plugin_has_fact(p, "table_fee")) give_own(&sc, "table_fee", 2);
    bool ok = plugin_validate(p, &sc, rejection, err);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    return ok;
}

/* A name the ruleset does not have, a fact the scenario does not give and
 * a key that is not a name all read nil; the facts given read as before. */
static void test_facts_unknown_name_and_unknown_fact_read_nil(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    assert_true(validate_on(
        toy(state),
        HEADER "facts = { table_fee = \"int\", badge = \"string\" },\n"
               "validate = function(f)\n"
               "  if f.no_such_fact ~= nil or f.volume ~= nil then return \"niet nil\" end\n"
               "  if f.badge ~= nil then return \"niet nil\" end\n"
               "  if f[1] ~= nil or f[true] ~= nil or #f ~= 0 then return \"niet nil\" end\n"
               "  return f.irregularity .. \" \" .. f.minutes .. \" \" .. f.table_fee .. \" \" ..\n"
               "    math.type(f.minutes)\n"
               "end }\n",
        "{\"irregularity\": \"late\", \"minutes\": 5}", &rejection, &err));
    assert_string_equal(rejection.data, "late 5 2 integer (Clubreglement art. 1)");
    sb_free(&err);
    sb_free(&rejection);
}

/* pairs gives every known fact once, the plugin's own too, each with the
 * value indexing gives; next on the view is not the way (it is empty). */
static void test_facts_pairs_gives_every_known_fact(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    assert_true(validate_on(
        toy(state),
        HEADER "facts = { table_fee = \"int\" },\n"
               "validate = function(f)\n"
               "  local seen = {}\n"
               "  for k, v in pairs(f) do\n"
               "    if f[k] ~= v or seen[k] then return \"pairs and index differ at \" .. k end\n"
               "    seen[k] = true\n"
               "    seen[#seen + 1] = k .. \"=\" .. tostring(v)\n"
               "  end\n"
               "  table.sort(seen)\n"
               "  return table.concat(seen, \",\")\n"
               "end }\n",
        "{\"irregularity\": \"late\", \"minutes\": 5, \"repeated\": false,"
        " \"auction\": \"N: 1S 1H\"}",
        &rejection, &err));
    assert_string_equal(rejection.data,
                        "irregularity=late,lowest=2H,minutes=5,repeated=false,table_fee=2,"
                        "turn_was=offender (Clubreglement art. 1)");
    sb_free(&err);
    sb_free(&rejection);
}

/* A fact of the plugin's own stands in for a ruleset fact of the same name,
 * in reading and in pairs alike (and pairs gives it once). */
static void test_own_fact_shadows_a_ruleset_fact(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    plugin *p =
        load(toy(state),
             HEADER "facts = { minutes = \"int\", table_fee = \"int\" },\n"
                    "validate = function(f)\n"
                    "  local seen = {}\n"
                    "  for k, v in pairs(f) do seen[#seen + 1] = k .. \"=\" .. tostring(v) end\n"
                    "  table.sort(seen)\n"
                    "  return f.minutes .. \" \" .. table.concat(seen, \",\")\n"
                    "end }\n",
             0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5, \"repeated\": true}", &sc, &r);
    give_own(&sc, "minutes", 99);
    give_own(&sc, "table_fee", 99);
    assert_true(plugin_validate(p, &sc, &rejection, &err));
    assert_string_equal(
        rejection.data,
        "99 irregularity=late,minutes=99,repeated=true,table_fee=99 (Clubreglement art. 1)");
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

/* Writing to the facts is an error on the plugin's line, in validate and
 * in an override alike; the plugin answers the next call. */
static void test_facts_are_read_only(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    assert_false(validate_on(toy(state), HEADER "validate = function(f)\n  f.minutes = 3\nend }\n",
                             "{\"irregularity\": \"late\", \"minutes\": 5}", &rejection, &err));
    assert_non_null(strstr(err.data, "plugin test: "));
    assert_non_null(strstr(err.data, ":3: facts are read-only (facts.minutes)"));
    sb_free(&err);
    assert_false(validate_on(toy(state),
                             HEADER "validate = function(f)\n  setmetatable(f, nil)\nend }\n",
                             "{\"irregularity\": \"late\", \"minutes\": 5}", &rejection, &err));
    assert_non_null(strstr(err.data, "cannot change a protected metatable"));
    sb_free(&err);

    plugin *p = load(toy(state),
                     HEADER "override = { [\"*\"] = function(r)\n"
                            "  if r.facts.minutes == 5 then r.facts.extra = 1 end\n"
                            "end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_false(plugin_override(p, &sc, &r, &err));
    assert_non_null(strstr(err.data, ":3: facts are read-only (facts.extra)"));
    ruling_clear(&r);
    scenario_free(&sc);
    sb_free(&err);
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    assert_true(plugin_override(p, &sc, &r, &err));
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

/* A view kept past its call (here in an upvalue) refuses to be read in a
 * later one: the scenario it showed may be gone. */
static void test_nothing_is_kept_between_calls(void **state) {
    strbuf err, rejection;
    sb_init(&err);
    sb_init(&rejection);
    /* a view kept in an upvalue, a count in a global, a library changed:
     * every call starts from the plugin as loaded */
    plugin *p = load(toy(state),
                     "local kept\n" HEADER "validate = function(f)\n"
                     "  if kept then return tostring(kept.minutes) end\n"
                     "  kept = f\n"
                     "  calls = (calls or 0) + 1\n"
                     "  if string.was_here or calls > 1 then return 'state kept' end\n"
                     "  string.was_here = true\nend }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    scenario_init(&sc, toy(state));
    scenario_give(&sc, rs_find_fact(toy(state), "minutes"), 1);
    for (int i = 0; i < 3; i++) {
        assert_true(plugin_validate(p, &sc, &rejection, &err));
        assert_int_equal(rejection.len, 0);
    }
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);

    /* math.random gives the same numbers in every call */
    p = load(toy(state),
             HEADER "validate = function(f) return tostring(math.random(1000000000)) end }\n", 0, 0,
             &err);
    assert_non_null(p);
    scenario_init(&sc, toy(state));
    assert_true(plugin_validate(p, &sc, &rejection, &err));
    char *first = strdup(rejection.data);
    sb_free(&rejection);
    assert_true(plugin_validate(p, &sc, &rejection, &err));
    assert_string_equal(rejection.data, first);
    free(first);
    sb_free(&rejection);
    scenario_free(&sc);
    plugin_free(p);

    p = load(toy(state),
             "local kept\n" HEADER "override = { [\"*\"] = function(r)\n"
             "  if kept then return { note = kept.articles[1] } end\n"
             "  kept = r\nend } }\n",
             0, 0, &err);
    assert_non_null(p);
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_int_equal(r.nnotes, 0);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    sb_free(&rejection);
}

/* validate on a scenario with minutes = m: the rejection ("" for none), or
 * NULL with err when the call failed. */
static char *validate_minutes(plugin *p, const ruleset *rs, int m, strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    scenario_give(&sc, rs_find_fact(rs, "minutes"), m);
    strbuf rejection;
    sb_init(&rejection);
    char *out = NULL;
    if (plugin_validate(p, &sc, &rejection, err))
        out = strdup(rejection.data ? rejection.data : "");
    sb_free(&rejection);
    scenario_free(&sc);
    return out;
}

static void expect_accepted(plugin *p, const ruleset *rs, int m) {
    strbuf err;
    sb_init(&err);
    char *out = validate_minutes(p, rs, m, &err);
    if (!out) fail_msg("minutes = %d: %s", m, err.data);
    if (*out) fail_msg("minutes = %d: refused: %s", m, out);
    free(out);
    sb_free(&err);
}

/* Every call starts from the state as loaded, whatever the call before it
 * did to the memory that state lives in: freed the chunk's strings, grew
 * and shrank its tables, filled its memory cap, ran into a limit. The
 * memory a call held is not counted against the next. */
static void test_the_loaded_state_comes_back_whole(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load_limited(
        toy(state),
        "local big, n = {}, 3000\n"
        "for i = 1, n do big[i] = ('x'):rep(i % 50) .. i end\n"
        "local names = { a = 1, b = 2 }\n" HEADER "validate = function(f)\n"
        "  if #big ~= n or big[1234] ~= ('x'):rep(34) .. 1234 or big[n] ~= '3000' then\n"
        "    return 'the chunk\\'s table changed'\n"
        "  end\n"
        "  if names.c or names.a ~= 1 or kept then return 'a call saw an earlier one' end\n"
        "  kept = true\n"
        "  if f.minutes == 1 then\n" /* free the chunk's strings and make the collector run */
        "    for i = 1, n do big[i] = nil end\n"
        "    for i = 1, 20000 do names['k' .. i] = i; names['k' .. i] = nil end\n"
        "    names.c = 3\n"
        "    local junk = {} for i = 1, 20000 do junk[i % 100 + 1] = ('y'):rep(100) .. i end\n"
        "  elseif f.minutes == 2 then\n" /* hold most of the cap */
        "    held = {} for i = 1, 2500 do held[i] = ('z'):rep(1000) .. i end\n"
        "  elseif f.minutes == 3 then\n" /* more than the cap */
        "    big[1] = 'changed'; local t = {} for i = 1, 1e9 do t[i] = ('w'):rep(1000) .. i end\n"
        "  elseif f.minutes == 4 then\n" /* more than the instructions */
        "    big[1] = 'changed'; big[n + 1] = 'more'; while true do end\n"
        "  end\n"
        "end }\n",
        (plugin_limits){.memory = 4u << 20, .instructions = 2000000, .time_ms = 60000}, &err);
    assert_non_null(p);
    for (int round = 0; round < 2; round++) {
        expect_accepted(p, toy(state), 1);
        expect_accepted(p, toy(state), 2);
        expect_accepted(p, toy(state), 2); /* the first one's memory is not counted */
        char *out = validate_minutes(p, toy(state), 3, &err);
        assert_null(out);
        assert_non_null(strstr(err.data, "memory limit of 4194304 bytes exceeded"));
        sb_free(&err);
        expect_accepted(p, toy(state), 2);
        out = validate_minutes(p, toy(state), 4, &err);
        assert_null(out);
        assert_non_null(strstr(err.data, "instruction budget of 2000000 exceeded"));
        sb_free(&err);
        expect_accepted(p, toy(state), 0);
    }
    plugin_free(p);
    sb_free(&err);
}

/* A file that makes more garbage while it loads than its memory cap holds
 * (each longer string a new size) is run afresh for every call instead:
 * it loads, and nothing is kept between calls either. (The clock is not
 * what this test is about.) */
static void test_a_plugin_that_loads_with_much_garbage_starts_afresh(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load_limited(
        toy(state),
        "local s = '' for i = 1, 3000 do s = s .. 'x' end\n" HEADER "validate = function(f)\n"
        "  if #s ~= 3000 then return 'the chunk\\'s string changed' end\n"
        "  if kept or string.kept then return 'a call saw an earlier one' end\n"
        "  kept = true; string.kept = true; s = ''\nend }\n",
        (plugin_limits){.memory = 1u << 20, .time_ms = 60000}, &err);
    if (!p) fail_msg("%s", err.data);
    for (int i = 0; i < 3; i++)
        expect_accepted(p, toy(state), 1);
    plugin_free(p);
    sb_free(&err);
}

/* The note of the one change an override made. */
static char *override_note(const ruleset *rs, const char *lua, const char *json) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(rs, lua, 0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(rs, json, &sc, &r);
    if (!plugin_override(p, &sc, &r, &err)) fail_msg("%s", err.data);
    assert_int_equal(r.nnotes, 1);
    char *what = strdup(r.notes[0].what);
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
    return what;
}

/* The ruling shows its articles, actions and facts, pairs gives all three,
 * and it and its tables stay the plugin's to change. */
static void test_ruling_fields_and_pairs(void **state) {
    char *what = override_note(
        toy(state),
        HEADER "override = { [\"1B\"] = function(r)\n"
               "  local fields = {}\n"
               "  for k in pairs(r) do fields[#fields + 1] = k end\n"
               "  table.sort(fields)\n"
               "  local a = r.actions[1]\n"
               "  r.articles[#r.articles + 1] = \"club\"\n"
               "  r.actions = nil\n"
               "  r.mine = true\n"
               "  return { replace = false, note = table.concat(fields, \",\") .. \" \" ..\n"
               "    table.concat(r.articles, \",\") .. \" \" ..\n"
               "    a.name .. \"(\" .. a.args.points .. \") \" ..\n"
               "    r.facts.irregularity .. \" \" ..\n"
               "    tostring(r.actions) .. \" \" .. #r.articles }\n"
               "end } }\n",
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}");
    assert_string_equal(
        what, "added to the ruling at 1B: actions,articles,facts 1,1B,club penalty(40) late nil 3");
    free(what);
}

/* An override that does not apply is not called at all. */
static void test_override_not_called_when_trail_misses_it(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p =
        load(toy(state), HEADER "override = { [\"1B\"] = function(r) error(\"geroepen\") end } }\n",
             0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_true(plugin_override(p, &sc, &r, &err));
    assert_int_equal(r.nnotes, 0);
    ruling_clear(&r);
    scenario_free(&sc);
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}", &sc, &r);
    assert_false(plugin_override(p, &sc, &r, &err));
    assert_non_null(strstr(err.data, ":2: geroepen"));
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

/* Returning the ruling itself reads its fields as any table's: its actions
 * come back as the plugin's. */
static void test_override_may_return_the_ruling(void **state) {
    char *what =
        override_note(toy(state), HEADER "override = { [\"1A\"] = function(r) return r end } }\n",
                      "{\"irregularity\": \"late\", \"minutes\": 5}");
    assert_string_equal(what, "replaced the ruling at 1A");
    free(what);
}

/* What the plugin returns is read inside the sandbox: a metamethod that
 * fails there is the plugin's error, with its line, and not a crash. */
static void test_failing_metamethod_on_the_result_is_an_error(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "override = { [\"*\"] = function(r)\n"
                            "  return setmetatable({}, { __index = function(t, k)\n"
                            "    error(\"geen \" .. k) end })\n"
                            "end } }\n",
                     0, 0, &err);
    assert_non_null(p);
    scenario sc;
    ruling r;
    rule(toy(state), "{\"irregularity\": \"late\", \"minutes\": 5}", &sc, &r);
    assert_false(plugin_override(p, &sc, &r, &err));
    assert_non_null(strstr(err.data, ":4: geen cite"));
    ruling_clear(&r);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

/* Too little memory to open the sandbox is the memory error, not a crash. */
static void test_memory_cap_too_small_to_start(void **state) {
    strbuf err;
    sb_init(&err);
    assert_null(load(toy(state), HEADER "}\n", 0, 8000, &err));
    assert_non_null(strstr(err.data, "memory limit of 8000 bytes exceeded"));
    sb_free(&err);
}

/* score's facts: without a scenario none; with one, the plugin's own that
 * it gives, and nothing of the scenario before it. */
static void test_score_facts_without_a_scenario(void **state) {
    strbuf err;
    sb_init(&err);
    plugin *p = load(toy(state),
                     HEADER "facts = { table_fee = \"int\" },\n"
                            "score = function(s, f)\n"
                            "  local n = 0\n"
                            "  for k, v in pairs(f) do n = n + 1 end\n"
                            "  return s - n * (f.table_fee or 0) - (f.minutes or 0)\nend }\n",
                     0, 0, &err);
    assert_non_null(p);
    int64_t score = 420;
    assert_true(plugin_adjust_score(p, NULL, &score, &err));
    assert_int_equal(score, 420);
    scenario sc;
    scenario_init(&sc, toy(state));
    give_own(&sc, "table_fee", 7);
    assert_true(plugin_adjust_score(p, &sc, &score, &err));
    assert_int_equal(score, 413);
    scenario_free(&sc);
    scenario_init(&sc, toy(state));
    score = 420;
    assert_true(plugin_adjust_score(p, &sc, &score, &err));
    assert_int_equal(score, 420);
    scenario_free(&sc);
    plugin_free(p);
    sb_free(&err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_and_names_itself),
        cmocka_unit_test(test_api_version_mismatch),
        cmocka_unit_test(test_unknown_override_citation),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_no_os),
        cmocka_unit_test(test_no_io),
        cmocka_unit_test(test_no_require),
        cmocka_unit_test(test_no_dofile_load_or_gc),
        cmocka_unit_test(test_infinite_loop_hits_budget_and_plugin_stays_usable),
        cmocka_unit_test(test_memory_bomb_hits_cap_and_plugin_stays_usable),
        cmocka_unit_test(test_bounded_library_works_as_lua_s),
        cmocka_unit_test(test_limits_go_through_pcall),
        cmocka_unit_test(test_time_limit_inside_a_pattern),
        cmocka_unit_test(test_finalizers_are_refused),
        cmocka_unit_test(test_what_a_plugin_hands_back_is_capped_and_checked),
        cmocka_unit_test(test_time_limit_is_the_ruling_s),
        cmocka_unit_test(test_runtime_error_names_line),
        cmocka_unit_test(test_override_replaces_ruling),
        cmocka_unit_test(test_own_fact_and_action_added),
        cmocka_unit_test(test_override_removes_one_action),
        cmocka_unit_test(test_unknown_action_is_an_error),
        cmocka_unit_test(test_score_and_matchpoint_hooks),
        cmocka_unit_test(test_hook_must_return_a_whole_number),
        cmocka_unit_test(test_unknown_field_or_hook_of_another_type_is_refused),
        cmocka_unit_test(test_byte_order_mark_is_skipped),
        cmocka_unit_test(test_hooks_answer_in_their_own_types),
        cmocka_unit_test(test_facts_unknown_name_and_unknown_fact_read_nil),
        cmocka_unit_test(test_facts_pairs_gives_every_known_fact),
        cmocka_unit_test(test_own_fact_shadows_a_ruleset_fact),
        cmocka_unit_test(test_facts_are_read_only),
        cmocka_unit_test(test_nothing_is_kept_between_calls),
        cmocka_unit_test(test_the_loaded_state_comes_back_whole),
        cmocka_unit_test(test_a_plugin_that_loads_with_much_garbage_starts_afresh),
        cmocka_unit_test(test_ruling_fields_and_pairs),
        cmocka_unit_test(test_override_not_called_when_trail_misses_it),
        cmocka_unit_test(test_override_may_return_the_ruling),
        cmocka_unit_test(test_failing_metamethod_on_the_result_is_an_error),
        cmocka_unit_test(test_memory_cap_too_small_to_start),
        cmocka_unit_test(test_score_facts_without_a_scenario),
    };
    return FIXTURE_RUN_COMPILED_GROUP("plugin", tests, "tests/rules/toy", NULL);
}
