/* plugin.c — the Lua host: loading, the sandbox, and the hooks.
 *
 * Every call into a plugin goes through call_protected(): a fresh
 * instruction budget, lua_pcall, and one error path that names the plugin,
 * the line (Lua puts "file:line:" in front of its messages) and the limit
 * that was hit. Memory is capped by the allocator for the plugin's whole
 * life; when it refuses, Lua raises a memory error and the state stays
 * usable. */
#include "plugin.h"

#include "../core/builtins.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

struct plugin {
    char *path, *name, *cite;
    lua_State *L;
    const ruleset *rs;
    size_t used, cap;
    long budget, left;
    bool budget_hit;
    int table; /* registry reference to the table the plugin returned */
    int given; /* registry reference to the plugin's own facts for this scenario */
};

/* ---- the sandbox -------------------------------------------------------- */

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    plugin *p = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        p->used -= old;
        return NULL;
    }
    if (nsize > old && p->used - old + nsize > p->cap) return NULL; /* Lua raises a memory error */
    void *q = realloc(ptr, nsize);
    if (q) p->used = p->used - old + nsize;
    return q;
}

static void count_hook(lua_State *L, lua_Debug *ar) {
    plugin *p;
    lua_getallocf(L, (void **)&p);
    p->left -= 1000;
    if (p->left <= 0) {
        p->budget_hit = true;
        lua_getinfo(L, "Sl", ar); /* where the plugin was when the budget ran out */
        luaL_error(L, "%s:%d: instruction budget of %d exceeded", ar->short_src, ar->currentline, (int)p->budget);
    }
}

/* Only these libraries, and without the functions that reach outside the
 * sandbox or load code: no io, os, package, debug, no dofile, loadfile,
 * load (binary chunks), collectgarbage, string.dump, print. */
static void open_sandbox(lua_State *L) {
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},      {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8}};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    static const char *const removed[] = {"dofile", "loadfile", "load", "collectgarbage", "print", "require"};
    for (size_t i = 0; i < sizeof removed / sizeof *removed; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
}

/* Runs the function on the stack with nargs arguments; on failure err gets
 * "plugin NAME: FILE:LINE: message" (and the limit hit, if one was). */
static bool call_protected(plugin *p, int nargs, int nresults, strbuf *err) {
    p->left = p->budget;
    p->budget_hit = false;
    int status = lua_pcall(p->L, nargs, nresults, 0);
    if (status == LUA_OK) return true;
    const char *msg = lua_tostring(p->L, -1);
    sb_printf(err, "plugin %s: ", p->name ? p->name : p->path);
    if (status == LUA_ERRMEM) sb_printf(err, "memory limit of %zu bytes exceeded", p->cap);
    else sb_puts(err, msg ? msg : "error without a message");
    lua_pop(p->L, 1);
    lua_gc(p->L, LUA_GCCOLLECT); /* give back what a runaway call took */
    return false;
}

/* ---- loading ----------------------------------------------------------------- */

static const char *field_string(lua_State *L, int t, const char *key) {
    lua_getfield(L, t, key);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);
    return s;
}

static bool cite_exists(const ruleset *rs, const char *cite) {
    if (strcmp(cite, "*") == 0) return true;
    for (int i = 0; i < rs->nclauses; i++)
        if (rs->clauses[i].cite && strcmp(rs->clauses[i].cite, cite) == 0) return true;
    return false;
}

/* The overrides must name citations the ruleset has. */
static bool check_overrides(plugin *p, strbuf *err) {
    lua_getfield(p->L, -1, "override");
    bool ok = true;
    if (lua_istable(p->L, -1)) {
        lua_pushnil(p->L);
        while (ok && lua_next(p->L, -2)) {
            const char *cite = lua_type(p->L, -2) == LUA_TSTRING ? lua_tostring(p->L, -2) : NULL;
            if (!cite || !cite_exists(p->rs, cite) || !lua_isfunction(p->L, -1)) {
                sb_printf(err, "plugin %s: override \"%s\": %s", p->name, cite ? cite : "?",
                          !cite || lua_isfunction(p->L, -1) ? "no article or clause of the ruleset has this citation"
                                                            : "expected a function");
                ok = false;
            }
            lua_pop(p->L, 1);
        }
    } else if (!lua_isnil(p->L, -1)) {
        sb_printf(err, "plugin %s: `override` is a table of citation = function", p->name);
        ok = false;
    }
    lua_pop(p->L, 1);
    return ok;
}

static bool read_header(plugin *p, strbuf *err) {
    lua_State *L = p->L;
    if (!lua_istable(L, -1)) {
        sb_printf(err, "plugin %s: the file must return a table (return { api = %d, name = \"…\", … })", p->path,
                  PLUGIN_API_VERSION);
        return false;
    }
    const char *name = field_string(L, -1, "name"), *cite = field_string(L, -1, "cite");
    p->name = strdup(name ? name : p->path);
    p->cite = strdup(cite ? cite : p->name);
    lua_getfield(L, -1, "api");
    lua_Integer api = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
    lua_pop(L, 1);
    if (api != PLUGIN_API_VERSION) {
        sb_printf(err, "plugin %s: written for API version %lld; this arbiter speaks version %d", p->name,
                  (long long)api, PLUGIN_API_VERSION);
        return false;
    }
    return check_overrides(p, err);
}

plugin *plugin_load(const char *path, const ruleset *rs, plugin_limits limits, strbuf *err) {
    plugin *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->path = strdup(path);
    p->rs = rs;
    p->cap = limits.memory ? limits.memory : PLUGIN_DEFAULT_MEMORY;
    p->budget = limits.instructions ? limits.instructions : PLUGIN_DEFAULT_INSTRUCTIONS;
    p->L = lua_newstate(capped_alloc, p);
    if (!p->L) {
        sb_printf(err, "plugin %s: cannot start Lua within the memory limit", path);
        plugin_free(p);
        return NULL;
    }
    open_sandbox(p->L);
    lua_sethook(p->L, count_hook, LUA_MASKCOUNT, 1000);
    int status = luaL_loadfilex(p->L, path, "t"); /* text only: no binary chunks */
    if (status != LUA_OK) {
        sb_printf(err, "plugin %s: %s", path, lua_tostring(p->L, -1));
        plugin_free(p);
        return NULL;
    }
    if (!call_protected(p, 0, 1, err) || !read_header(p, err)) {
        plugin_free(p);
        return NULL;
    }
    p->table = luaL_ref(p->L, LUA_REGISTRYINDEX);
    lua_newtable(p->L);
    p->given = luaL_ref(p->L, LUA_REGISTRYINDEX);
    return p;
}

void plugin_free(plugin *p) {
    if (!p) return;
    if (p->L) lua_close(p->L);
    free(p->path);
    free(p->name);
    free(p->cite);
    free(p);
}

const char *plugin_name(const plugin *p) {
    return p->name;
}

/* ---- the plugin's own facts ---------------------------------------------------- */

bool plugin_has_fact(const plugin *p, const char *name) {
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->table);
    lua_getfield(p->L, -1, "facts");
    bool has = false;
    if (lua_istable(p->L, -1)) {
        lua_getfield(p->L, -1, name);
        has = !lua_isnil(p->L, -1);
        lua_pop(p->L, 1);
    }
    lua_pop(p->L, 2);
    return has;
}

static void push_json(lua_State *L, json_t *v) {
    if (json_is_boolean(v)) lua_pushboolean(L, json_is_true(v));
    else if (json_is_integer(v)) lua_pushinteger(L, (lua_Integer)json_integer_value(v));
    else if (json_is_real(v)) lua_pushnumber(L, json_real_value(v));
    else if (json_is_string(v)) lua_pushstring(L, json_string_value(v));
    else lua_pushnil(L);
}

bool plugin_set_fact(plugin *p, const char *name, json_t *value, strbuf *err) {
    if (!json_is_boolean(value) && !json_is_number(value) && !json_is_string(value)) {
        sb_printf(err, "plugin %s: fact '%s' is true/false, a number or a string", p->name, name);
        return false;
    }
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->given);
    push_json(p->L, value);
    lua_setfield(p->L, -2, name);
    lua_pop(p->L, 1);
    return true;
}

void plugin_clear_facts(plugin *p) {
    luaL_unref(p->L, LUA_REGISTRYINDEX, p->given);
    lua_newtable(p->L);
    p->given = luaL_ref(p->L, LUA_REGISTRYINDEX);
}

/* ---- what a plugin sees ------------------------------------------------------------ */

static void push_value(lua_State *L, const ruleset *rs, const rs_type *t, int64_t v) {
    if (t->kind == TY_BOOL) {
        lua_pushboolean(L, v != 0);
    } else if (t->kind == TY_INT) {
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        strbuf sb;
        sb_init(&sb);
        rs_format_value(rs, t, v, FMT_NAME, &sb);
        lua_pushstring(L, sb.data ? sb.data : "");
        sb_free(&sb);
    }
}

/* facts = { name = value, … }: the scenario's known facts and the plugin's own. */
static void push_facts(plugin *p, const scenario *sc) {
    lua_State *L = p->L;
    lua_newtable(L);
    for (int f = 0; sc && f < p->rs->nfacts; f++) {
        if (!sc->fv.known[f]) continue;
        push_value(L, p->rs, p->rs->facts[f].type, sc->fv.value[f]);
        lua_setfield(L, -2, p->rs->facts[f].name);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->given);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -5);
    }
    lua_pop(L, 1);
}

/* ruling = { articles = {…}, actions = { {name=…, args={…}}, … }, facts = {…} } */
static void push_ruling(plugin *p, const scenario *sc, const ruling *r) {
    lua_State *L = p->L;
    const ruleset *rs = p->rs;
    lua_newtable(L);
    lua_newtable(L);
    const rs_outcome *o = rs_outcome_at(rs, r->outcome);
    for (int i = 0, n = 0; i < o->ntrail; i++) {
        if (!rs->clauses[o->trail[i]].cite) continue;
        lua_pushstring(L, rs->clauses[o->trail[i]].cite);
        lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -2, "articles");
    lua_newtable(L);
    for (int i = 0; i < r->nactions; i++) {
        const rs_action *a = &rs->actions[rs_use_at(rs, r->actions[i].use)->action];
        lua_newtable(L);
        lua_pushstring(L, a->name);
        lua_setfield(L, -2, "name");
        lua_newtable(L);
        for (int k = 0; k < a->nparams; k++) {
            push_value(L, rs, a->params[k].type, r->actions[i].args[k]);
            lua_setfield(L, -2, a->params[k].name);
        }
        lua_setfield(L, -2, "args");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "actions");
    push_facts(p, sc);
    lua_setfield(L, -2, "facts");
}

/* Pushes the hook's function; false when the plugin has none. */
static bool push_hook(plugin *p, const char *hook, const char *key) {
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->table);
    lua_getfield(p->L, -1, hook);
    if (key && lua_istable(p->L, -1)) {
        lua_getfield(p->L, -1, key);
        lua_remove(p->L, -2);
    }
    lua_remove(p->L, -2);
    if (lua_isfunction(p->L, -1)) return true;
    lua_pop(p->L, 1);
    return false;
}

/* ---- hooks ------------------------------------------------------------------------- */

bool plugin_validate(plugin *p, const scenario *sc, strbuf *rejection, strbuf *err) {
    if (!push_hook(p, "validate", NULL)) return true;
    push_facts(p, sc);
    if (!call_protected(p, 1, 1, err)) return false;
    if (lua_type(p->L, -1) == LUA_TSTRING) sb_printf(rejection, "%s (%s)", lua_tostring(p->L, -1), p->cite);
    lua_pop(p->L, 1);
    return true;
}

static char *arg_text(lua_State *L, int idx) {
    if (lua_isboolean(L, idx)) return strdup(lua_toboolean(L, idx) ? "ja" : "nee");
    const char *s = lua_tostring(L, idx);
    return strdup(s ? s : "");
}

/* An argument for a ruleset action's parameter: an enum value shows its
 * label (Dutch or English), a bool ja/nee or yes/no, the rest as written. */
static char *typed_arg(lua_State *L, int idx, const ruleset *rs, const rs_type *t, bool english) {
    if (t && t->kind == TY_ENUM && lua_type(L, idx) == LUA_TSTRING) {
        int v = rs_enum_index(t, lua_tostring(L, idx));
        if (v >= 0) {
            strbuf sb;
            sb_init(&sb);
            rs_format_value(rs, t, v, english ? FMT_ENGLISH : FMT_DUTCH, &sb);
            return sb_take(&sb);
        }
    }
    if (t && t->kind == TY_BOOL && lua_isboolean(L, idx))
        return strdup(lua_toboolean(L, idx) ? (english ? "yes" : "ja") : (english ? "no" : "nee"));
    return arg_text(L, idx);
}

/* A message template with {name} filled from the args table at the top;
 * for a ruleset action, a (its parameters give the arguments' types). */
static char *fill_template(lua_State *L, const char *t, const ruleset *rs, const rs_action *a, bool english) {
    strbuf sb;
    sb_init(&sb);
    while (t && *t) {
        const char *open = strchr(t, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            sb_puts(&sb, t);
            break;
        }
        sb_putn(&sb, t, (size_t)(open - t));
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(close - open - 1), open + 1);
        lua_getfield(L, -1, key);
        const rs_type *type = NULL;
        for (int i = 0; a && i < a->nparams; i++)
            if (strcmp(a->params[i].name, key) == 0) type = a->params[i].type;
        char *v = typed_arg(L, -1, rs, type, english);
        sb_puts(&sb, v);
        free(v);
        lua_pop(L, 1);
        t = close + 1;
    }
    return sb_take(&sb);
}

static char *args_json(lua_State *L) {
    json_t *o = json_object();
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            json_t *v = lua_isboolean(L, -1) ? json_boolean(lua_toboolean(L, -1))
                        : lua_isinteger(L, -1) ? json_integer(lua_tointeger(L, -1))
                        : json_string(lua_tostring(L, -1) ? lua_tostring(L, -1) : "");
            json_object_set_new(o, lua_tostring(L, -2), v);
        }
        lua_pop(L, 1);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    return s;
}

/* The message of an action the plugin names: the plugin's own template, or
 * the ruleset action's (with the arguments as the plugin wrote them). */
static bool action_message(plugin *p, const char *name, char **nl, char **en, strbuf *err) {
    lua_State *L = p->L;
    const char *text = NULL, *text_en = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->table);
    lua_getfield(L, -1, "actions");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, name);
        if (lua_istable(L, -1)) {
            text = field_string(L, -1, "text");
            text_en = field_string(L, -1, "en");
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    int a = rs_find_action(p->rs, name);
    const rs_action *act = !text && a >= 0 ? &p->rs->actions[a] : NULL;
    if (act) text = act->text, text_en = act->text_en;
    if (!text) {
        sb_printf(err, "plugin %s: action '%s' is neither the ruleset's nor declared in the plugin's `actions`", p->name,
                  name);
        return false;
    }
    *nl = fill_template(L, text, p->rs, act, false);
    *en = fill_template(L, text_en ? text_en : text, p->rs, act, text_en != NULL);
    return true;
}

static bool add_extra(plugin *p, ruling *r, const char *cite, strbuf *err) {
    lua_State *L = p->L;
    const char *name = field_string(L, -1, "name");
    if (!name) {
        sb_printf(err, "plugin %s: an action is { name = \"…\", args = { … } }", p->name);
        return false;
    }
    lua_getfield(L, -1, "args");
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    ruling_extra e = {strdup(name), strdup(cite), NULL, NULL, NULL};
    bool ok = action_message(p, name, &e.message, &e.message_en, err);
    e.args = args_json(L);
    lua_pop(L, 1);
    r->extra = realloc(r->extra, sizeof *r->extra * (size_t)(r->nextra + 1));
    if (!r->extra) abort();
    r->extra[r->nextra++] = e;
    return ok;
}

static void add_note(plugin *p, ruling *r, const char *cite, const char *what) {
    r->notes = realloc(r->notes, sizeof *r->notes * (size_t)(r->nnotes + 1));
    if (!r->notes) abort();
    r->notes[r->nnotes++] = (ruling_note){strdup(p->name), strdup(cite), strdup(what)};
}

/* What an override returned: nil (no change) or { cite, replace, actions, note }. */
static bool apply_change(plugin *p, ruling *r, const char *key, strbuf *err) {
    lua_State *L = p->L;
    if (lua_isnil(L, -1)) return true;
    if (!lua_istable(L, -1)) {
        sb_printf(err, "plugin %s: override \"%s\" returns nil or a table { actions = …, replace = … }", p->name, key);
        return false;
    }
    const char *cite = field_string(L, -1, "cite");
    cite = cite ? cite : p->cite;
    lua_getfield(L, -1, "replace");
    lua_getfield(L, -2, "remove");
    bool removes = lua_istable(L, -1);
    bool replace = lua_isnil(L, -2) ? !removes : lua_toboolean(L, -2);
    for (lua_Integer i = 1; removes && lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) { /* the actions it takes out */
        for (int k = 0; k < r->nactions; k++)
            if (strcmp(p->rs->actions[rs_use_at(p->rs, r->actions[k].use)->action].name, lua_tostring(L, -1)) == 0)
                r->actions[k].dropped = true;
        lua_pop(L, 1);
    }
    lua_pop(L, removes ? 3 : 2);
    r->replaced |= replace;
    lua_getfield(L, -1, "actions");
    bool ok = true;
    for (lua_Integer i = 1; ok && lua_istable(L, -1); i++) {
        if (lua_rawgeti(L, -1, i) == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        }
        ok = add_extra(p, r, cite, err);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    r->extra_cites = realloc(r->extra_cites, sizeof *r->extra_cites * (size_t)(r->nextra_cites + 1));
    if (!r->extra_cites) abort();
    r->extra_cites[r->nextra_cites++] = strdup(cite);
    const char *note = field_string(L, -1, "note");
    strbuf what;
    sb_init(&what);
    sb_printf(&what, "%s the ruling at %s%s%s", replace ? "replaced" : removes ? "changed" : "added to", key,
              note ? ": " : "", note ? note : "");
    add_note(p, r, cite, what.data);
    sb_free(&what);
    return ok;
}

static bool ruling_passes(const ruleset *rs, const ruling *r, const char *cite) {
    if (strcmp(cite, "*") == 0) return true;
    const rs_outcome *o = rs_outcome_at(rs, r->outcome);
    for (int i = 0; i < o->ntrail; i++)
        if (rs->clauses[o->trail[i]].cite && strcmp(rs->clauses[o->trail[i]].cite, cite) == 0) return true;
    return false;
}

bool plugin_override(plugin *p, const scenario *sc, ruling *r, strbuf *err) {
    if (r->status != RULING_OK) return true;
    lua_State *L = p->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->table);
    lua_getfield(L, -1, "override");
    lua_remove(L, -2);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return true;
    }
    /* the citations first, in a fixed order, so that rulings are the same run after run */
    vec keys;
    vec_init(&keys, sizeof(char *));
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) *(char **)vec_push(&keys) = strdup(lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    bool ok = true;
    for (int i = 0; i < keys.len; i++)
        for (int k = i + 1; k < keys.len; k++)
            if (strcmp(VEC_AT(&keys, char *, k), VEC_AT(&keys, char *, i)) < 0) {
                char *t = VEC_AT(&keys, char *, i);
                VEC_AT(&keys, char *, i) = VEC_AT(&keys, char *, k);
                VEC_AT(&keys, char *, k) = t;
            }
    for (int i = 0; ok && i < keys.len; i++) {
        const char *key = VEC_AT(&keys, char *, i);
        if (!ruling_passes(p->rs, r, key) || !push_hook(p, "override", key)) continue;
        push_ruling(p, sc, r);
        ok = call_protected(p, 1, 1, err);
        if (ok) {
            ok = apply_change(p, r, key, err);
            lua_pop(L, 1);
        }
    }
    for (int i = 0; i < keys.len; i++) free(VEC_AT(&keys, char *, i));
    vec_free(&keys);
    return ok;
}

static bool integer_result(plugin *p, const char *hook, int64_t *out, strbuf *err) {
    if (!lua_isinteger(p->L, -1)) {
        sb_printf(err, "plugin %s: `%s` returns a whole number", p->name, hook);
        lua_pop(p->L, 1);
        return false;
    }
    *out = lua_tointeger(p->L, -1);
    lua_pop(p->L, 1);
    return true;
}

bool plugin_adjust_score(plugin *p, const scenario *sc, int64_t *score, strbuf *err) {
    if (!push_hook(p, "score", NULL)) return true;
    lua_pushinteger(p->L, (lua_Integer)*score);
    push_facts(p, sc);
    return call_protected(p, 2, 1, err) && integer_result(p, "score", score, err);
}

bool plugin_adjust_matchpoints(plugin *p, int64_t beaten, int64_t equalled, int64_t others, int64_t *mp, strbuf *err) {
    if (!push_hook(p, "matchpoints", NULL)) return true;
    lua_pushinteger(p->L, (lua_Integer)beaten);
    lua_pushinteger(p->L, (lua_Integer)equalled);
    lua_pushinteger(p->L, (lua_Integer)others);
    lua_pushinteger(p->L, (lua_Integer)*mp);
    return call_protected(p, 4, 1, err) && integer_result(p, "matchpoints", mp, err);
}

/* ---- a set of plugins as the core's hooks ------------------------------------------- */

static bool set_own_fact(void *ctx, const char *key, json_t *value, bool *taken, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (plugin_has_fact(s->list[i], key)) {
            *taken = true;
            if (!plugin_set_fact(s->list[i], key, value, err)) return false;
        }
    return true;
}

static bool set_validate(void *ctx, const scenario *sc, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++) {
        strbuf rejection;
        sb_init(&rejection);
        bool ok = plugin_validate(s->list[i], sc, &rejection, err);
        if (ok && rejection.len) {
            sb_printf(err, "plugin %s refuses the scenario: %s", plugin_name(s->list[i]), rejection.data);
            ok = false;
        }
        sb_free(&rejection);
        if (!ok) return false;
    }
    return true;
}

static bool set_after_ruling(void *ctx, const scenario *sc, ruling *r, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (!plugin_override(s->list[i], sc, r, err)) return false;
    return true;
}

static bool set_adjust_score(void *ctx, const scenario *sc, int64_t *score, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (!plugin_adjust_score(s->list[i], sc, score, err)) return false;
    return true;
}

static bool set_adjust_matchpoints(void *ctx, int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                                   strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (!plugin_adjust_matchpoints(s->list[i], beaten, equalled, others, mp, err)) return false;
    return true;
}

bool plugin_set_load(plugin_set *s, const ruleset *rs, const char *const *paths, int n, plugin_limits limits,
                     strbuf *err) {
    memset(s, 0, sizeof *s);
    s->hooks = (scenario_hooks){s, set_own_fact, set_validate, set_after_ruling, set_adjust_score, set_adjust_matchpoints};
    for (int i = 0; i < n && i < PLUGIN_MAX; i++) {
        plugin *p = plugin_load(paths[i], rs, limits, err);
        if (!p) {
            plugin_set_free(s);
            return false;
        }
        s->list[s->n++] = p;
    }
    return true;
}

void plugin_set_free(plugin_set *s) {
    for (int i = 0; i < s->n; i++) plugin_free(s->list[i]);
    s->n = 0;
}

const scenario_hooks *plugin_set_hooks(const plugin_set *s) {
    return s->n ? &s->hooks : NULL;
}
