/* plugin.c — the Lua host: loading, the sandbox, and the hooks.
 *
 * Every call of a hook after the first starts from the plugin's state as
 * loaded (prepare()): the heap that state lives in is put back, byte for
 * byte, as it was frozen at load (keep_state(), heap.h), or, for a plugin
 * whose loading does not fit such a heap, a new state is made. Either way
 * nothing of one ruling reaches the next; a lock makes a plugin serve one
 * call at a time. Every call into a
 * state goes through call_protected(): a fresh instruction budget and
 * deadline, lua_pcall, and one error path that names the plugin, the line
 * (Lua puts "file:line:" in front of its messages) and the limit that was
 * hit. The count hook reads the clock; the library functions that loop in
 * C count their work (patterns.c) or are written in Lua (sandbox_library);
 * once a limit is hit, nothing the plugin runs can go on (trip()).
 * Whatever can run the plugin's code (a metamethod too) or allocate in its
 * state happens inside such a call, most of it in a C function run() calls
 * protected, so that a failure is an error and never a Lua panic. Memory is
 * capped by the allocator, with what the host copies out of a call counted
 * against the same cap (charge()); when it refuses, Lua raises a memory
 * error and the state stays usable.
 *
 * What a hook sees is made when it is read: `ruling` gets its articles,
 * actions and facts the first time the plugin reads them, and `facts` is a
 * read-only view that converts only the fact read. A ruling that none of a
 * plugin's overrides applies to does not enter Lua at all. The views hold
 * pointers into the call's scenario and ruling, so they refuse to be read
 * after their call. */
#include "plugin.h"

#include "builtins.h"
#include "heap.h"
#include "patterns.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct plugin {
    char *path, *name, *cite;
    char *source, *chunkname; /* the file as loaded: every fresh state runs this text */
    char hash[32];            /* "fnv1a64:…" of that text */
    strbuf code;              /* that text compiled (lua_dump), which a fresh state loads */
    size_t source_len;
    lua_State *L;
    heap *heap; /* where L lives, put back as loaded before each call; NULL: see keep_state */
    size_t loaded_used;   /* `used` of the state as loaded */
    pthread_mutex_t lock; /* held for each call: a plugin serves one at a time */
    bool dirty;  /* the state has run a hook since it was loaded: put it back before the next */
    bool loaded; /* the header was read (name, citations, facts); a fresh state only binds the hooks
                  */
    const ruleset *rs;
    size_t used, cap;
    bool starved; /* the allocator had no more (not the cap): out of memory, not the plugin's fault
                   */
    size_t host_used; /* bytes the host copied out of the plugin for the ruling under way */
    long budget, left;
    long time_ms;
    int64_t deadline; /* of the call under way, on the monotonic clock in ns */
    bool tripped;     /* it ran out of instructions or time: nothing it runs may go on */
    char trip_msg[300];
    /* registry references, made once at load */
    int table;                        /* the table the plugin returned */
    int given;                        /* the plugin's own facts of the call's scenario */
    int validate, score, matchpoints; /* its hooks; LUA_NOREF where it has none */
    bool has_validate, has_score,
        has_matchpoints;       /* as loaded: a fresh state that failed has none of them */
    int facts_mt, ruling_mt;   /* the views' metatables */
    int cur_facts, cur_ruling; /* slots: the views of the call under way (false between calls) */
    /* the facts it declares, and their kinds */
    char **own;
    int *own_kind;
    char **own_ask, **own_ask_en; /* their questions (NULL: none) */
    int nown;
    int *fact_order; /* the ruleset's facts by name */
    /* override[cite]: the citations in calling order, their functions, and
     * for each clause of the ruleset the citation naming it (-1: none) */
    int nkeys, star;
    char **keys;
    int *key_fn;
    int *clause_key;
    bool *hit; /* per citation: the ruling's trail passes it */
    /* the call under way, for the views and the C functions run() calls */
    const scenario *sc;
    ruling *r;
    unsigned made; /* which of the ruling view's fields exist (or were set) */
    int key;
    int64_t num;
    bool changed_ok;
    strbuf *err;
    strbuf value_text, message; /* reused between calls */
};

/* The count hook fires every HOOK_EVERY instructions: often enough that a
 * few hundred costly instructions (comparing two long strings) cannot go
 * far past the clock. */
#define HOOK_EVERY 250

static void count_hook(lua_State *L, lua_Debug *ar);

static plugin *host(lua_State *L) {
    void *ud;
    lua_getallocf(L, &ud);
    return ud;
}

/* ---- the sandbox -------------------------------------------------------- */

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    plugin *p = ud;
    size_t old = ptr ? osize : 0;
    bool starved = false;
    if (nsize == 0) {
        if (p->heap)
            heap_realloc(p->heap, ptr, old, 0, &starved);
        else
            mem_try_free(ptr);
        p->used -= old;
        return NULL;
    }
    if (nsize > old && p->used - old + nsize > p->cap) return NULL; /* Lua raises a memory error */
    void *q;
    if (p->heap)
        q = heap_realloc(p->heap, ptr, old, nsize, &starved);
    else
        starved = !(q = mem_try_realloc(ptr, nsize));
    if (q)
        p->used = p->used - old + nsize;
    else
        p->starved = starved; /* else the heap's limit: a memory error of the plugin's */
    return q;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* "FILE:LINE" of the innermost frame that runs the plugin's own file (not
 * the sandbox's library code it called), from stack level `level` up. */
static void plugin_where(lua_State *L, plugin *p, int level, char *out, size_t size) {
    lua_Debug ar;
    snprintf(out, size, "%s", p->path);
    for (; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0 && strcmp(ar.source, p->chunkname) == 0) {
            snprintf(out, size, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
}

/* The call has run out of instructions or time: from now on the hook fires
 * at every instruction and pcall and xpcall pass the error on, so that no
 * plugin code can go on after it (see guarded_pcall). */
static int trip(lua_State *L, plugin *p, int level, bool time) {
    char where[240];
    plugin_where(L, p, level, where, sizeof where);
    if (time)
        snprintf(p->trip_msg, sizeof p->trip_msg, "%s: time limit of %ld ms exceeded", where,
                 p->time_ms);
    else
        snprintf(p->trip_msg, sizeof p->trip_msg, "%s: instruction budget of %ld exceeded", where,
                 p->budget);
    p->tripped = true;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    lua_pushstring(L, p->trip_msg);
    return lua_error(L);
}

/* The clock of the ruling under way on this thread (see start_ruling_clock). */
static _Thread_local const scenario *ruling_sc;
static _Thread_local int64_t ruling_until;
static _Thread_local bool ruling_clock;

static bool past_deadline(const plugin *p) {
    return now_ns() > p->deadline;
}

static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    plugin *p = host(L);
    if (p->tripped) {
        lua_pushstring(L, p->trip_msg);
        lua_error(L);
    }
    p->left -= HOOK_EVERY;
    if (p->left <= 0) trip(L, p, 0, false);
    if (past_deadline(p)) trip(L, p, 0, true);
}

/* The library functions that work in C (patterns.c) look at the limits
 * every few thousand steps through this. */
void sandbox_tick(lua_State *L) {
    plugin *p = host(L);
    if (p->tripped) {
        lua_pushstring(L, p->trip_msg);
        lua_error(L);
    }
    if (past_deadline(p)) trip(L, p, 1, true);
}

/* pcall and xpcall as Lua's, but an error of the limits goes on through
 * them: a plugin cannot catch it and carry on. */
static int guarded_pcall(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    plugin *p = host(L);
    if (p->tripped) {
        lua_pushstring(L, p->trip_msg);
        return lua_error(L);
    }
    return lua_gettop(L);
}

/* xpcall's message handler: an error of the limits is raised from the
 * count hook, and Lua runs the handler of such an error with the hooks
 * off, where a handler that loops would never stop. So the handler is not
 * called for it; the limit's message is the result. */
static int guarded_handler(lua_State *L) {
    plugin *p = host(L);
    if (p->tripped) {
        lua_pushstring(L, p->trip_msg);
        return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int guarded_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);
    lua_replace(L, 2);
    return guarded_pcall(L);
}

/* setmetatable as Lua's, but a metatable with __gc is refused: Lua runs
 * finalizers with the hooks off, where no limit holds (and when the state
 * is closed, after the ruling). */
static int guarded_setmetatable(lua_State *L) {
    lua_settop(L, 2);
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) /* raw, as Lua looks for it */
            return luaL_error(L, "a plugin may not have finalizers (__gc in a metatable)");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

static void wrap_global(lua_State *L, const char *name, lua_CFunction guard) {
    lua_getglobal(L, name);
    lua_pushcclosure(L, guard, 1);
    lua_setglobal(L, name);
}

/* The table functions in Lua, over t[i] as the C versions go: their loops
 * are the plugin's instructions, under its budget and its clock, where
 * Lua's C versions could loop for hours in one call (table.move over a
 * huge range, table.insert into a table whose __len lies, table.sort
 * comparing long strings). */
static const char sandbox_library[] =
    "local error, select, type, tostring, tointeger = error, select, type, tostring, "
    "math.tointeger\n"
    "local concat = table.concat\n"
    "local function int(v, n, f)\n"
    "  local i = tointeger(v)\n"
    "  if i == nil then error(('bad argument #%d to \\'%s\\' (number has no integer "
    "representation)'):format(n, f), 3) end\n"
    "  return i\n"
    "end\n"
    "local function str(v, n, f)\n"
    "  if type(v) == 'number' then return tostring(v) end\n"
    "  if type(v) ~= 'string' then error(('bad argument #%d to \\'%s\\' (string expected, got "
    "%s)'):format(n, f, type(v)), 3) end\n"
    "  return v\n"
    "end\n"
    "function table.insert(t, ...)\n"
    "  local n, e = select('#', ...), #t + 1\n"
    "  if n == 1 then t[e] = ...; return end\n"
    "  if n ~= 2 then error(\"wrong number of arguments to 'insert'\", 2) end\n"
    "  local pos, v = ...\n"
    "  pos = int(pos, 2, 'insert')\n"
    "  if pos < 1 or pos > e then error(\"bad argument #2 to 'insert' (position out of bounds)\", "
    "2) end\n"
    "  for i = e, pos + 1, -1 do t[i] = t[i - 1] end\n"
    "  t[pos] = v\n"
    "end\n"
    "function table.remove(t, pos)\n"
    "  local size = #t\n"
    "  if pos == nil then pos = size else pos = int(pos, 2, 'remove') end\n"
    "  if pos ~= size and (pos < 1 or pos > size + 1) then\n"
    "    error(\"bad argument #2 to 'remove' (position out of bounds)\", 2)\n"
    "  end\n"
    "  local v = t[pos]\n"
    "  while pos < size do t[pos] = t[pos + 1]; pos = pos + 1 end\n"
    "  t[pos] = nil\n"
    "  return v\n"
    "end\n"
    "function table.move(a1, f, e, t, a2)\n"
    "  if a2 == nil then a2 = a1 end\n"
    "  f, e, t = int(f, 2, 'move'), int(e, 3, 'move'), int(t, 4, 'move')\n"
    "  if e >= f then\n"
    "    if f <= 0 and e >= math.maxinteger + f then error(\"bad argument #3 to 'move' (too many "
    "elements to move)\", 2) end\n"
    "    if t > math.maxinteger - (e - f) then error(\"bad argument #4 to 'move' (destination wrap "
    "around)\", 2) end\n"
    "    if t > e or t <= f or a1 ~= a2 then\n"
    "      for i = 0, e - f do a2[t + i] = a1[f + i] end\n"
    "    else\n"
    "      for i = e - f, 0, -1 do a2[t + i] = a1[f + i] end\n"
    "    end\n"
    "  end\n"
    "  return a2\n"
    "end\n"
    "function table.concat(t, sep, i, j)\n"
    "  if sep == nil then sep = '' else sep = str(sep, 2, 'concat') end\n"
    "  if i == nil then i = 1 else i = int(i, 3, 'concat') end\n"
    "  if j == nil then j = #t else j = int(j, 4, 'concat') end\n"
    "  local parts, n = {}, 0\n"
    "  for k = i, j do\n"
    "    local v = t[k]\n"
    "    local kind = type(v)\n"
    "    if kind ~= 'string' and kind ~= 'number' then\n"
    "      error(('invalid value (at index %d) in table for \\'concat\\''):format(k), 2)\n"
    "    end\n"
    "    n = n + 1\n"
    "    parts[n] = v\n"
    "  end\n"
    "  return concat(parts, sep, 1, n)\n"
    "end\n"
    "function table.sort(t, less)\n"
    "  local n, a = #t, {}\n"
    "  for k = 1, n do a[k] = t[k] end\n"
    "  less = less or function(x, y) return x < y end\n"
    "  local function sift(root, last)\n"
    "    while true do\n"
    "      local child = 2 * root\n"
    "      if child > last then return end\n"
    "      if child < last and less(a[child], a[child + 1]) then child = child + 1 end\n"
    "      if not less(a[root], a[child]) then return end\n"
    "      a[root], a[child] = a[child], a[root]\n"
    "      root = child\n"
    "    end\n"
    "  end\n"
    "  for k = n // 2, 1, -1 do sift(k, n) end\n"
    "  for last = n, 2, -1 do a[1], a[last] = a[last], a[1]; sift(1, last - 1) end\n"
    "  for k = 1, n do t[k] = a[k] end\n"
    "end\n";

static int dump_writer(lua_State *L, const void *b, size_t n, void *ud) {
    (void)L;
    sb_putn(ud, b, n);
    return 0;
}

/* The sandbox library compiled once per process: a fresh state loads the
 * compiled code, which is many times faster than parsing the text. */
static strbuf library_code;
static pthread_once_t library_once = PTHREAD_ONCE_INIT;

/* The process's copy outlives the call that happens to make it, and must
 * not unwind inside pthread_once: its blocks are neither recorded nor
 * thrown for (core/base/mem.h). Without memory for it, the text is loaded
 * instead. */
static int library_writer(lua_State *L, const void *b, size_t n, void *ud) {
    (void)L;
    strbuf *sb = ud;
    char *grown = mem_try_realloc(sb->data, sb->len + n);
    if (!grown) {
        mem_try_free(sb->data);
        sb_init(sb);
        return 1; /* lua_dump stops */
    }
    memcpy(grown + sb->len, b, n);
    sb->data = grown;
    sb->cap = sb->len += n;
    return 0;
}

static void compile_library(void) {
    lua_State *L = luaL_newstate();
    if (L &&
        luaL_loadbufferx(L, sandbox_library, sizeof sandbox_library - 1, "=sandbox", "t") == LUA_OK)
        lua_dump(L, library_writer, &library_code, 0);
    if (L) lua_close(L);
}

/* Only these libraries, and without the functions that reach outside the
 * sandbox or load code: no io, os, package, debug, coroutine, no dofile,
 * loadfile, load (binary chunks), collectgarbage, string.dump, print,
 * warn. The functions whose C loops no hook sees are replaced by bounded
 * ones; pcall, xpcall and setmetatable are guarded. */
static void open_sandbox(lua_State *L) {
    static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                                    {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_MATHLIBNAME, luaopen_math},
                                    {LUA_UTF8LIBNAME, luaopen_utf8}};
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    static const char *const removed[] = {"dofile", "loadfile", "load", "collectgarbage",
                                          "print",  "require",  "warn"};
    for (size_t i = 0; i < sizeof removed / sizeof *removed; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    luaL_setfuncs(L, sandbox_patterns, 0);
    lua_pop(L, 1);
    /* the same numbers in every state, so that a ruling is the same each time */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    wrap_global(L, "pcall", guarded_pcall);
    wrap_global(L, "xpcall", guarded_xpcall);
    wrap_global(L, "setmetatable", guarded_setmetatable);
    pthread_once(&library_once, compile_library);
    if ((library_code.len
             ? luaL_loadbufferx(L, library_code.data, library_code.len, "=sandbox", "b")
             : luaL_loadbufferx(L, sandbox_library, sizeof sandbox_library - 1, "=sandbox", "t")) !=
        LUA_OK)
        lua_error(L);
    lua_call(L, 0, 0);
}

/* The views of a finished call point at a scenario and a ruling that may be
 * gone: their slots go back to false (a slot never holds nil, so that
 * setting it never allocates). */
static void end_call(plugin *p) {
    p->sc = NULL;
    p->r = NULL;
    if (p->cur_facts == LUA_NOREF) return; /* still loading */
    lua_pushboolean(p->L, 0);
    lua_rawseti(p->L, LUA_REGISTRYINDEX, p->cur_facts);
    lua_pushboolean(p->L, 0);
    lua_rawseti(p->L, LUA_REGISTRYINDEX, p->cur_ruling);
}

#define ERROR_TEXT_MAX 1000

/* The error value at the top as text that any output can carry: bytes that
 * are NUL or not UTF-8, and control characters (an escape sequence would
 * act on the terminal that shows the error), written as \xNN, and cut
 * after ERROR_TEXT_MAX. */
static void error_text(lua_State *L, strbuf *err) {
    size_t n;
    const char *msg = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
                          ? lua_tolstring(L, -1, &n)
                          : NULL;
    if (!msg) {
        sb_puts(err, "error without a message");
        return;
    }
    for (size_t i = 0; i < n && i < ERROR_TEXT_MAX;) {
        size_t good = utf8_bad_byte(msg + i, n - i);
        good = text_control_char(msg + i, good); /* C1's second byte is then a stray one */
        sb_putn(err, msg + i, good);
        i += good;
        if (i < n) sb_printf(err, "\\x%02X", (unsigned char)msg[i++]);
    }
    if (n > ERROR_TEXT_MAX) sb_puts(err, "…");
}

/* Lua's memory error when the allocator itself had no more: the public
 * call under way fails with "out of memory" (core/base/mem.h), as it would
 * had the host's own allocation failed; the next call starts from the
 * state as loaded. */
static void out_of_memory_if_starved(plugin *p) {
    bool starved = p->starved;
    p->starved = false;
    if (starved && mem_protected()) {
        p->dirty = true;
        mem_throw();
    }
}

/* The state as loaded again, in place (heap.h): what a call left in it is gone. */
static void restore_state(plugin *p) {
    heap_restore(p->heap);
    p->used = p->loaded_used;
    p->dirty = false;
}

/* Runs the function on the stack with nargs arguments; on failure err gets
 * "plugin NAME: FILE:LINE: message" (and the limit hit, if one was). */
static bool call_protected(plugin *p, int nargs, int nresults, strbuf *err) {
    int base = lua_gettop(p->L) - nargs - 1;
    p->left = p->budget;
    p->tripped = false;
    p->starved = false;
    int64_t now = now_ns();
    p->deadline = now + (int64_t)p->time_ms * 1000000;
    if (ruling_clock && ruling_until < p->deadline) p->deadline = ruling_until;
    if (now >= p->deadline) { /* the ruling's time is up before this call: it does not start */
        lua_settop(p->L, base);
        sb_printf(err, "plugin %s: %s: time limit of %ld ms exceeded", p->name ? p->name : p->path,
                  p->path, p->time_ms);
        p->dirty = true;
        return false;
    }
    lua_sethook(p->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    int status = lua_pcall(p->L, nargs, nresults, 0);
    end_call(p);
    if (status == LUA_OK && !p->tripped) return true;
    if (status == LUA_ERRMEM) {
        lua_settop(p->L, base);
        out_of_memory_if_starved(p);
    }
    sb_printf(err, "plugin %s: ", p->name ? p->name : p->path);
    if (p->tripped)
        sb_puts(err, p->trip_msg);
    else if (status == LUA_ERRMEM)
        sb_printf(err, "%s: memory limit of %zu bytes exceeded", p->path, p->cap);
    else
        error_text(p->L, err);
    lua_settop(p->L, base);
    if (p->heap && heap_frozen(p->heap)) {
        restore_state(p); /* give back what a runaway call took, now */
    } else {
        lua_gc(p->L, LUA_GCCOLLECT); /* give back what a runaway call took */
        p->dirty = true;             /* and start afresh next time */
    }
    return false;
}

/* Calls fn protected, with the nargs values on the stack as its arguments
 * (pushing a C function without upvalues allocates nothing). */
static bool run(plugin *p, lua_CFunction fn, int nargs, int nresults, strbuf *err) {
    lua_pushcfunction(p->L, fn);
    lua_insert(p->L, -1 - nargs);
    return call_protected(p, nargs, nresults, err);
}

/* ---- what a plugin sees: the views ----------------------------------------- */

/* A value as the plugin sees it: bool and int as Lua's, the rest by name. */
static void push_value(lua_State *L, plugin *p, const rs_type *t, int64_t v) {
    if (t->kind == TY_BOOL) {
        lua_pushboolean(L, v != 0);
    } else if (t->kind == TY_INT) {
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        p->value_text.len = 0;
        rs_format_value(p->rs, t, v, FMT_NAME, &p->value_text);
        lua_pushlstring(L, p->value_text.data ? p->value_text.data : "", p->value_text.len);
    }
}

/* Whether the view (argument 1) is the one in the slot: given to the call under way. */
static bool is_current(lua_State *L, int slot) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, slot);
    bool current = lua_rawequal(L, 1, -1);
    lua_pop(L, 1);
    return current;
}

/* A view may only be read during the call it was given to. */
static void check_current(lua_State *L, int slot, const char *what) {
    if (!is_current(L, slot))
        luaL_error(L, "the %s table was given to an earlier call: keep its values, not the table",
                   what);
}

/* Whether the plugin's own facts (at given) have the key at idx: those
 * stand in for a ruleset fact of the same name. */
static bool own_has(lua_State *L, int given, int idx) {
    lua_pushvalue(L, idx);
    bool has = lua_rawget(L, given) != LUA_TNIL;
    lua_pop(L, 1);
    return has;
}

static const ruleset *sorting_rs;

static int by_fact_name(const void *a, const void *b) {
    return strcmp(sorting_rs->facts[*(const int *)a].name, sorting_rs->facts[*(const int *)b].name);
}

/* The ruleset's facts in the order of their names, made once per plugin (a
 * state made for every call would otherwise build a table of them). */
static void sort_fact_names(plugin *p) {
    static pthread_mutex_t sorting = PTHREAD_MUTEX_INITIALIZER;
    p->fact_order = xmalloc(sizeof *p->fact_order * (size_t)(p->rs->nfacts + 1));
    for (int f = 0; f < p->rs->nfacts; f++)
        p->fact_order[f] = f;
    pthread_mutex_lock(&sorting);
    sorting_rs = p->rs;
    qsort(p->fact_order, (size_t)p->rs->nfacts, sizeof *p->fact_order, by_fact_name);
    pthread_mutex_unlock(&sorting);
}

/* The ruleset's fact named by the string at idx, or -1. */
static int fact_at(lua_State *L, const plugin *p, int idx) {
    if (lua_type(L, idx) != LUA_TSTRING) return -1;
    const char *name = lua_tostring(L, idx);
    int lo = 0, hi = p->rs->nfacts - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, f = p->fact_order[mid];
        int c = strcmp(name, p->rs->facts[f].name);
        if (c == 0) return f;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

/* facts[name] */
static int facts_index(lua_State *L) {
    plugin *p = host(L);
    check_current(L, p->cur_facts, "facts");
    lua_settop(L, 2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->given);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, 3) != LUA_TNIL) return 1;
    int f = p->sc ? fact_at(L, p, 2) : -1;
    if (f < 0 || !p->sc->fv.known[f]) return 0;
    push_value(L, p, p->rs->facts[f].type, p->sc->fv.value[f]);
    return 1;
}

/* The iterator pairs(facts) returns: the scenario's known facts in the
 * ruleset's order, then the plugin's own. */
static int facts_next(lua_State *L) {
    plugin *p = host(L);
    check_current(L, p->cur_facts, "facts");
    lua_settop(L, 2);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->given); /* 3 */
    int f = 0, nfacts = p->sc ? p->rs->nfacts : 0;
    bool own = false;
    if (!lua_isnil(L, 2)) {
        int at = fact_at(L, p, 2);
        if (at >= 0 && !own_has(L, 3, 2))
            f = at + 1;
        else
            own = true;
        lua_settop(L, 3);
    }
    for (; !own && f < nfacts; f++) {
        if (!p->sc->fv.known[f]) continue;
        lua_pushstring(L, p->rs->facts[f].name);
        if (own_has(L, 3, 4)) {
            lua_pop(L, 1);
            continue;
        }
        push_value(L, p, p->rs->facts[f].type, p->sc->fv.value[f]);
        return 2;
    }
    if (!own)
        lua_pushnil(L); /* the plugin's own facts from their start */
    else
        lua_pushvalue(L, 2);
    return lua_next(L, 3) ? 2 : 0;
}

static int facts_pairs(lua_State *L) {
    check_current(L, host(L)->cur_facts, "facts");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int facts_read_only(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING)
        return luaL_error(L, "facts are read-only (facts.%s)", lua_tostring(L, 2));
    return luaL_error(L, "facts are read-only");
}

/* A new view of the call's facts, at the top. */
static void push_facts_view(lua_State *L, plugin *p) {
    lua_createtable(L, 0, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->facts_mt);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawseti(L, LUA_REGISTRYINDEX, p->cur_facts);
}

/* articles = { "61", "63", … }: the citations on the ruling's trail. */
static void push_articles(lua_State *L, plugin *p) {
    const rs_outcome *o = rs_outcome_at(p->rs, p->r->outcome);
    lua_createtable(L, o->ntrail, 0);
    for (int i = 0, n = 0; i < o->ntrail; i++) {
        const char *cite = p->rs->clauses[o->trail[i]].cite;
        if (!cite) continue;
        lua_pushstring(L, cite);
        lua_rawseti(L, -2, ++n);
    }
}

/* actions = { { name = …, args = { … } }, … } */
static void push_actions(lua_State *L, plugin *p) {
    const ruling *r = p->r;
    lua_createtable(L, r->nactions, 0);
    for (int i = 0; i < r->nactions; i++) {
        const rs_action *a = &p->rs->actions[rs_use_at(p->rs, r->actions[i].use)->action];
        lua_createtable(L, 0, 2);
        lua_pushstring(L, a->name);
        lua_setfield(L, -2, "name");
        lua_createtable(L, 0, a->nparams);
        for (int k = 0; k < a->nparams; k++) {
            push_value(L, p, a->params[k].type, r->actions[i].args[k]);
            lua_setfield(L, -2, a->params[k].name);
        }
        lua_setfield(L, -2, "args");
        lua_rawseti(L, -2, i + 1);
    }
}

static const char *const ruling_fields[] = {"articles", "actions", "facts"};

/* Makes the ruling's field (an index into ruling_fields), stores it in the
 * ruling at idx (an absolute index) and leaves it at the top. */
static void fill_ruling(lua_State *L, plugin *p, int idx, int field) {
    lua_pushstring(L, ruling_fields[field]);
    if (field == 0)
        push_articles(L, p);
    else if (field == 1)
        push_actions(L, p);
    else
        push_facts_view(L, p);
    lua_pushvalue(L, -1);
    lua_insert(L, -3);
    lua_rawset(L, idx);
    p->made |= 1u << field;
}

/* Which of ruling_fields the key at idx is, or -1. */
static int ruling_field(lua_State *L, int idx) {
    const char *key = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : "";
    for (int field = 0; field < 3; field++)
        if (strcmp(key, ruling_fields[field]) == 0) return field;
    return -1;
}

/* A field is made once: one the plugin has set, even to nil, stays as set. */
static int ruling_index(lua_State *L) {
    plugin *p = host(L);
    int field = ruling_field(L, 2);
    if (field < 0) return 0;
    check_current(L, p->cur_ruling, "ruling");
    if (p->made & 1u << field) return 0;
    fill_ruling(L, p, 1, field);
    return 1;
}

static int ruling_newindex(lua_State *L) {
    plugin *p = host(L);
    int field = ruling_field(L, 2);
    if (field >= 0 && is_current(L, p->cur_ruling)) p->made |= 1u << field;
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 0;
}

static int raw_next(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

/* pairs(ruling): every field, made first if it was not read or set yet. */
static int ruling_pairs(lua_State *L) {
    plugin *p = host(L);
    check_current(L, p->cur_ruling, "ruling");
    for (int field = 0; field < 3; field++)
        if (!(p->made & 1u << field)) {
            fill_ruling(L, p, 1, field);
            lua_pop(L, 1);
        }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* A new ruling for the call, at the top: a table whose fields are made when
 * read (and then stay, writable like any table's). */
static void push_ruling_view(lua_State *L, plugin *p) {
    p->made = 0;
    lua_createtable(L, 0, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->ruling_mt);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawseti(L, LUA_REGISTRYINDEX, p->cur_ruling);
}

/* The views' metatables (protected: getmetatable gives false), made once. */
static void make_view_metatables(lua_State *L, plugin *p) {
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, facts_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, facts_next);
    lua_pushcclosure(L, facts_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, facts_read_only);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    p->facts_mt = luaL_ref(L, LUA_REGISTRYINDEX);

    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, ruling_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ruling_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, raw_next);
    lua_pushcclosure(L, ruling_pairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    p->ruling_mt = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* ---- loading ----------------------------------------------------------------- */

static int open_host(lua_State *L) {
    plugin *p = host(L);
    open_sandbox(L);
    lua_newtable(L);
    p->given = luaL_ref(L, LUA_REGISTRYINDEX);
    make_view_metatables(L, p);
    lua_pushboolean(L, 0);
    p->cur_ruling = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushboolean(L, 0);
    p->cur_facts = luaL_ref(L, LUA_REGISTRYINDEX); /* last: end_call's sign that loading is done */
    return 0;
}

/* The string t[key] (NULL when it is none); one with a NUL byte is "\xff",
 * which no check passes. The table keeps the string alive. */
static const char *field_string(lua_State *L, int t, const char *key) {
    lua_getfield(L, t, key);
    size_t n;
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : NULL;
    if (s && strlen(s) != n) s = "\xff";
    lua_pop(L, 1);
    return s;
}

static int load_error(lua_State *L, const char *msg) {
    lua_pushstring(L, msg);
    return lua_error(L);
}

/* A registry reference to the function t[key], or LUA_NOREF. */
static int hook_ref(lua_State *L, int t, const char *key) {
    if (lua_getfield(L, t, key) == LUA_TFUNCTION) return luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return LUA_NOREF;
}

static bool cite_exists(const ruleset *rs, const char *cite) {
    if (strcmp(cite, "*") == 0) return true;
    for (int i = 0; i < rs->nclauses; i++)
        if (rs->clauses[i].cite && strcmp(rs->clauses[i].cite, cite) == 0) return true;
    return false;
}

static int table_count(lua_State *L, int t) {
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        n++;
    }
    return n;
}

/* The citations in a fixed order, so that rulings are the same run after run. */
static void sort_keys(plugin *p) {
    for (int i = 0; i < p->nkeys; i++)
        for (int k = i + 1; k < p->nkeys; k++)
            if (strcmp(p->keys[k], p->keys[i]) < 0) {
                char *t = p->keys[i];
                int fn = p->key_fn[i];
                p->keys[i] = p->keys[k], p->key_fn[i] = p->key_fn[k];
                p->keys[k] = t, p->key_fn[k] = fn;
            }
}

/* Which override each clause of the ruleset sets off. */
static void map_clauses(plugin *p) {
    p->clause_key = xmalloc(sizeof *p->clause_key * (size_t)(p->rs->nclauses + 1));
    p->hit = xcalloc((size_t)p->nkeys + 1, sizeof *p->hit);
    for (int c = 0; c < p->rs->nclauses; c++) {
        p->clause_key[c] = -1;
        for (int k = 0; p->rs->clauses[c].cite && k < p->nkeys; k++)
            if (strcmp(p->keys[k], p->rs->clauses[c].cite) == 0) p->clause_key[c] = k;
    }
    for (int k = 0; k < p->nkeys; k++)
        if (strcmp(p->keys[k], "*") == 0) p->star = k;
}

/* override = { [cite] = function, … }: each citation must be the ruleset's. */
static void read_overrides(lua_State *L, plugin *p) {
    int t = lua_getfield(L, 1, "override") == LUA_TTABLE ? lua_gettop(L) : 0;
    if (!t && !lua_isnil(L, -1)) load_error(L, "`override` is a table of citation = function");
    int n = t ? table_count(L, t) : 0;
    p->keys = xcalloc((size_t)n + 1, sizeof *p->keys);
    p->key_fn = xcalloc((size_t)n + 1, sizeof *p->key_fn);
    lua_pushnil(L);
    while (t && lua_next(L, t)) {
        const char *cite = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (!cite || !cite_exists(p->rs, cite) || !lua_isfunction(L, -1)) {
            lua_pushfstring(L, "override \"%s\": %s", cite ? cite : "?",
                            !cite || lua_isfunction(L, -1)
                                ? "no article or clause of the ruleset has this citation"
                                : "expected a function");
            lua_error(L);
        }
        p->keys[p->nkeys++] = xstrdup(cite); /* the plugin's to free before anything can fail */
        p->key_fn[p->nkeys - 1] = luaL_ref(L, LUA_REGISTRYINDEX); /* pops the function */
    }
    lua_settop(L, 1);
    sort_keys(p);
    map_clauses(p);
}

/* A field a table of the plugin's may have, and the type it must be
 * (LUA_TNONE: checked where it is read). */
typedef struct field_rule {
    const char *name;
    int type;
    const char *as; /* the type in words, for the error */
} field_rule;

/* Whether every key of table t is one of rules[0..n) and each value of its
 * type; otherwise why not, in why (cap bytes). Raw: no metamethod runs. A
 * misspelt field passed over would be a part of the plugin that silently
 * never applies. */
static bool fields_ok(lua_State *L, int t, const field_rule *rules, size_t n, char *why,
                      size_t cap) {
    t = lua_absindex(L, t);
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1)) {
        size_t f = 0, len = 0;
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
        while (f < n && !(key && strcmp(key, rules[f].name) == 0))
            f++;
        if (f == n) {
            bool shown = key && len <= 64 && utf8_bad_byte(key, len) == len;
            snprintf(why, cap, "a field it does not know: %s%s%s", shown ? "'" : "",
                     shown ? key : "a key that is no short text", shown ? "'" : "");
        } else if (rules[f].type != LUA_TNONE && lua_type(L, -1) != rules[f].type) {
            snprintf(why, cap, "`%s` must be %s, not a %s", rules[f].name, rules[f].as,
                     luaL_typename(L, -1));
        } else {
            continue;
        }
        lua_pop(L, 2);
        return false;
    }
    return true;
}

static const char *const fact_kinds[] = {"bool", "int", "string"};

static bool is_header_text(const char *s);
static const char *field_string(lua_State *L, int t, const char *key);

/* One entry of `facts` (key at -2, value at -1): a kind, or { kind = …,
 * ask = "Dutch question", ask_en = "English question" }. */
static void read_own_fact(lua_State *L, plugin *p) {
    static const char *const usage =
        "`facts` is a table of name = \"bool\", \"int\" or \"string\", or name = "
        "{ kind = …, ask = \"question\", ask_en = \"question\" }";
    static const field_rule fact_fields[] = {{"kind", LUA_TSTRING, "text"},
                                             {"ask", LUA_TSTRING, "text"},
                                             {"ask_en", LUA_TSTRING, "text"}};
    bool full = lua_istable(L, -1);
    char why[120];
    if (full && !fields_ok(L, -1, fact_fields, 3, why, sizeof why)) {
        lua_pushfstring(L, "the fact '%s': %s (a fact is { kind = …, ask = …, ask_en = … })",
                        lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?", why);
        lua_error(L);
    }
    const char *kind = full                             ? field_string(L, -1, "kind")
                       : lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                        : NULL;
    int k = 0;
    while (kind && k < 3 && strcmp(kind, fact_kinds[k]) != 0)
        k++;
    if (lua_type(L, -2) != LUA_TSTRING || !kind || k == 3) load_error(L, usage);
    const char *ask = full ? field_string(L, -1, "ask") : NULL,
               *ask_en = full ? field_string(L, -1, "ask_en") : NULL;
    if (!is_header_text(ask) || !is_header_text(ask_en))
        load_error(L, "a fact's `ask` and `ask_en` are UTF-8 text "
                      "without NUL bytes or control characters, at most 200 bytes long");
    p->own_kind[p->nown] = k;
    p->own_ask[p->nown] = ask ? xstrdup(ask) : NULL;
    p->own_ask_en[p->nown] = ask_en ? xstrdup(ask_en) : NULL;
    p->own[p->nown++] = xstrdup(lua_tostring(L, -2));
}

/* facts = { name = kind, … }: the facts of its own a scenario may give. */
static void read_own_facts(lua_State *L, plugin *p) {
    if (lua_getfield(L, 1, "facts") == LUA_TTABLE) {
        int n = table_count(L, 2);
        p->own = xcalloc((size_t)n + 1, sizeof *p->own);
        p->own_kind = xcalloc((size_t)n + 1, sizeof *p->own_kind);
        p->own_ask = xcalloc((size_t)n + 1, sizeof *p->own_ask);
        p->own_ask_en = xcalloc((size_t)n + 1, sizeof *p->own_ask_en);
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            read_own_fact(L, p);
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 1);
}

/* The hooks of the table at 1, as registry references. */
static void bind_hooks(lua_State *L, plugin *p) {
    p->validate = hook_ref(L, 1, "validate");
    p->score = hook_ref(L, 1, "score");
    p->matchpoints = hook_ref(L, 1, "matchpoints");
    lua_pushvalue(L, 1);
    p->table = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* A name or citation a ruling can carry (NULL: not given): UTF-8 without
 * control characters, which would act on a terminal. */
static bool is_header_text(const char *s) {
    size_t n =
        s ? strlen(s) : 0; /* a NUL byte ends it early: then it is not all of the Lua string */
    return !s || (n <= 200 && utf8_bad_byte(s, n) == n && text_control_char(s, n) == n);
}

/* The fields of a plugin's table; those without a type are checked where
 * they are read. A misspelt hook (`overide`), or one that is no function,
 * would be a club rule that silently never applies. */
static const field_rule plugin_fields[] = {
    {"api", LUA_TNONE, NULL},
    {"name", LUA_TNONE, NULL},
    {"cite", LUA_TNONE, NULL},
    {"facts", LUA_TNONE, NULL},
    {"actions", LUA_TTABLE, "a table name = { text = …, en = … }"},
    {"override", LUA_TTABLE, "a table"},
    {"validate", LUA_TFUNCTION, "a function"},
    {"score", LUA_TFUNCTION, "a function"},
    {"matchpoints", LUA_TFUNCTION, "a function"},
};

/* Each action of the plugin's own: name = { text = …, en = … }, checked as
 * it loads (its texts where it is used). */
static void check_own_actions(lua_State *L, int t) {
    static const field_rule message_fields[] = {{"text", LUA_TSTRING, "text"},
                                                {"en", LUA_TSTRING, "text"}};
    if (lua_getfield(L, t, "actions") != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int actions = lua_gettop(L);
    for (lua_pushnil(L); lua_next(L, actions); lua_pop(L, 1)) {
        char why[120];
        const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (!lua_istable(L, -1))
            snprintf(why, sizeof why, "a %s", luaL_typename(L, -1));
        else if (fields_ok(L, -1, message_fields, 2, why, sizeof why))
            continue;
        lua_pushfstring(L, "its action '%s': %s (an action of its own is { text = …, en = … })",
                        name, why);
        lua_error(L);
    }
    lua_pop(L, 1);
}

/* The table the file returned (argument 1), read once: its header, its
 * hooks and the citations it overrides. */
static int read_plugin(lua_State *L) {
    plugin *p = host(L);
    if (!lua_istable(L, 1))
        return load_error(L, "the file must return a table (return { api = 1, name = \"…\", … })");
    const char *name = field_string(L, 1, "name");
    const char *cite = field_string(L, 1, "cite");
    if (!is_header_text(name) || !is_header_text(cite))
        return load_error(L, "`name` and `cite` are UTF-8 text without NUL bytes or control "
                             "characters, at most 200 bytes long");
    p->name = xstrdup(name ? name : p->path);
    p->cite = xstrdup(cite ? cite : p->name);
    lua_getfield(L, 1, "api");
    lua_Integer api = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : -1;
    lua_pop(L, 1);
    if (api != PLUGIN_API_VERSION) {
        lua_pushfstring(L, "written for API version %I; this arbiter speaks version %d", api,
                        PLUGIN_API_VERSION);
        return lua_error(L);
    }
    char why[120];
    if (!fields_ok(L, 1, plugin_fields, sizeof plugin_fields / sizeof *plugin_fields, why,
                   sizeof why)) {
        lua_pushfstring(L,
                        "its table: %s (a plugin's table has api, name, cite, facts, actions, "
                        "validate, override, score and matchpoints)",
                        why);
        return lua_error(L);
    }
    check_own_actions(L, 1);
    read_overrides(L, p);
    read_own_facts(L, p);
    bind_hooks(L, p);
    p->has_validate = p->validate != LUA_NOREF;
    p->has_score = p->score != LUA_NOREF;
    p->has_matchpoints = p->matchpoints != LUA_NOREF;
    return 0;
}

/* The same table in a fresh state: the same text gives the same table, so
 * only the references to its functions are taken again. */
static int rebind_plugin(lua_State *L) {
    plugin *p = host(L);
    if (!lua_istable(L, 1) || (lua_getfield(L, 1, "override") != LUA_TTABLE && p->nkeys))
        return load_error(L, "the file returned another table than when it was loaded");
    for (int k = 0; k < p->nkeys; k++) {
        if (lua_getfield(L, 2, p->keys[k]) != LUA_TFUNCTION)
            return load_error(L, "the file returned another table than when it was loaded");
        p->key_fn[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_settop(L, 1);
    bind_hooks(L, p);
    if ((p->validate != LUA_NOREF) != p->has_validate || (p->score != LUA_NOREF) != p->has_score ||
        (p->matchpoints != LUA_NOREF) != p->has_matchpoints)
        return load_error(L, "the file returned another table than when it was loaded");
    return 0;
}

/* Keeps the compiled chunk (argument 1) for the fresh states to come, and
 * returns it. */
static int dump_chunk(lua_State *L) {
    plugin *p = host(L);
    p->code.len = 0;
    lua_dump(L, dump_writer, &p->code, 0);
    return 1;
}

/* The plugin's state gone, with its heap if it lives in one. */
static void drop_state(plugin *p) {
    if (p->heap) {
        heap_free(p->heap); /* all the state had: no lua_close */
        p->heap = NULL;
    } else if (p->L) {
        lua_close(p->L);
    }
    p->L = NULL;
}

/* A state of its own for the plugin, with the file's table read, in a heap
 * of its own or not (in_heap): at load, and, where it has no heap, before
 * every call that follows a call (see prepare()). */
static bool start_state(plugin *p, bool in_heap, strbuf *err) {
    drop_state(p);
    p->used = 0;
    p->table = p->given = p->validate = p->score = p->matchpoints = LUA_NOREF;
    p->facts_mt = p->ruling_mt = p->cur_facts = p->cur_ruling = LUA_NOREF;
    p->starved = false;
    if (in_heap && !(p->heap = heap_new(p->cap))) {
        sb_printf(err, "plugin %s: no memory for its heap", p->path);
        return false;
    }
    p->L = lua_newstate(capped_alloc, p);
    if (!p->L) out_of_memory_if_starved(p);
    if (!p->L) {
        sb_printf(err, "plugin %s: cannot start Lua within the memory limit", p->path);
        return false;
    }
    if (!run(p, open_host, 0, 0, err)) return false;
    /* The file is text only (no binary chunks); compiled at load, the code
     * a fresh state then loads is that compilation, not a file's. */
    size_t len = p->source_len;
    const char *text = skip_bom(p->source, &len); /* as luaL_loadfile does */
    int status = p->code.len ? luaL_loadbufferx(p->L, p->code.data, p->code.len, p->chunkname, "b")
                             : luaL_loadbufferx(p->L, text, len, p->chunkname, "t");
    if (status == LUA_ERRMEM) out_of_memory_if_starved(p);
    if (status != LUA_OK) {
        sb_printf(err, "plugin %s: %s", p->path, lua_tostring(p->L, -1));
        return false;
    }
    if (!p->code.len && !run(p, dump_chunk, 1, 1, err)) return false;
    if (!call_protected(p, 0, 1, err) ||
        !run(p, p->loaded ? rebind_plugin : read_plugin, 1, 0, err))
        return false;
    p->loaded = true;
    p->dirty = false;
    return true;
}

/* The state the calls start from, kept: built once more, from the compiled
 * chunk, in a heap of its own (heap.h), collected, and frozen; prepare()
 * puts the heap back before every call that follows a call. That gives
 * each call the bytes of a state as loaded without making one (the
 * libraries opened, the sandbox loaded, the chunk run: 35 µs and more) for
 * it. Since a Lua state holds nothing outside the memory its allocator
 * gave it, and the host keeps only the lua_State and registry references
 * into it, nothing of a call survives that: no global, upvalue, table,
 * metatable (the strings' too), registry entry, interned string, the
 * random generator's state, the collector's debt. A plugin whose file, as
 * it runs, needs more heap than its memory cap (heap blocks are reused
 * only at their own size while it loads: a file that makes much garbage
 * of ever new sizes), or with no memory for the copy, keeps a state made
 * the old way, and each call after the first makes a new one. */
static bool keep_state(plugin *p, strbuf *err) {
    strbuf ignored;
    sb_init(&ignored);
    bool kept = start_state(p, true, &ignored);
    if (kept) lua_gc(p->L, LUA_GCCOLLECT); /* a call starts a whole cycle away from a collection */
    kept = kept && heap_freeze(p->heap);
    sb_free(&ignored);
    if (kept) {
        p->loaded_used = p->used;
        return true;
    }
    return start_state(p, false, err);
}

/* Every call starts from the plugin as loaded: what an earlier call left in
 * its globals, upvalues or tables is undone by putting its heap back, or
 * gone with the state it ran in. */
static bool prepare(plugin *p, strbuf *err) {
    if (p->dirty && p->heap)
        restore_state(p);
    else if (p->dirty && !start_state(p, false, err))
        return false;
    p->dirty = true;
    return true;
}

static void free_plugin_unwound(void *p) {
    plugin_free(p);
}

plugin *plugin_load(const char *path, const ruleset *rs, plugin_limits limits, strbuf *err) {
    plugin *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    /* out of memory in the middle: its Lua state is not the call's to free */
    int undo = mem_defer(free_plugin_unwound, p);
    p->path = xstrdup(path);
    p->rs = rs;
    p->cap = limits.memory ? limits.memory : PLUGIN_DEFAULT_MEMORY;
    p->budget = limits.instructions ? limits.instructions : PLUGIN_DEFAULT_INSTRUCTIONS;
    p->time_ms = limits.time_ms ? limits.time_ms : PLUGIN_DEFAULT_TIME_MS;
    p->star = -1;
    sort_fact_names(p);
    /* the buffers a ruling writes in are made now: a block the plugin
     * gained in a ruling that ran out of memory would be freed under it */
    sb_putc(&p->value_text, 0);
    sb_putc(&p->message, 0);
    p->source = read_file(path, &p->source_len);
    if (!p->source) {
        sb_printf(err, "plugin %s: cannot read it: %s", path, read_file_error(errno));
        mem_undefer(undo);
        plugin_free(p);
        return NULL;
    }
    snprintf(p->hash, sizeof p->hash, "fnv1a64:%016llx",
             (unsigned long long)fnv1a64(FNV1A64_INIT, p->source, p->source_len));
    size_t n = strlen(path) + 2;
    p->chunkname = xmalloc(n);
    snprintf(p->chunkname, n, "@%s", path);
    bool started = start_state(p, false, err) && keep_state(p, err);
    mem_undefer(undo);
    if (!started) {
        plugin_free(p);
        return NULL;
    }
    return p;
}

void plugin_free(plugin *p) {
    if (!p) return;
    drop_state(p);
    for (int i = 0; i < p->nkeys; i++)
        xfree(p->keys[i]);
    for (int i = 0; i < p->nown; i++)
        xfree(p->own[i]), xfree(p->own_ask[i]), xfree(p->own_ask_en[i]);
    xfree(p->own_ask);
    xfree(p->own_ask_en);
    xfree(p->keys);
    xfree(p->key_fn);
    xfree(p->clause_key);
    xfree(p->hit);
    xfree(p->own);
    xfree(p->own_kind);
    xfree(p->fact_order);
    sb_free(&p->value_text);
    sb_free(&p->message);
    xfree(p->source);
    sb_free(&p->code);
    xfree(p->chunkname);
    xfree(p->path);
    xfree(p->name);
    xfree(p->cite);
    pthread_mutex_destroy(&p->lock);
    xfree(p);
}

const char *plugin_name(const plugin *p) {
    return p->name;
}

const char *plugin_hash(const plugin *p) {
    return p->hash;
}

const char *plugin_path(const plugin *p) {
    return p->path;
}

/* ---- the plugin's own facts ---------------------------------------------------- */

static int own_index(const plugin *p, const char *name) {
    for (int i = 0; i < p->nown; i++)
        if (strcmp(p->own[i], name) == 0) return i;
    return -1;
}

bool plugin_has_fact(const plugin *p, const char *name) {
    return own_index(p, name) >= 0;
}

bool plugin_check_fact(const plugin *p, const char *name, json_t *value, strbuf *err) {
    int i = own_index(p, name);
    int kind = i >= 0 ? p->own_kind[i] : -1;
    if (kind == 0   ? json_is_boolean(value)
        : kind == 1 ? json_is_integer(value)
                    : json_is_string(value))
        return true;
    sb_printf(err, "plugin %s: fact '%s' is %s", p->name, name,
              kind == 0   ? "true or false"
              : kind == 1 ? "a whole number"
                          : "a string");
    return false;
}

static void push_json(lua_State *L, json_t *v) {
    if (json_is_boolean(v))
        lua_pushboolean(L, json_is_true(v));
    else if (json_is_integer(v))
        lua_pushinteger(L, (lua_Integer)json_integer_value(v));
    else if (json_is_string(v))
        lua_pushlstring(L, json_string_value(v), json_string_length(v));
    else
        lua_pushnil(L);
}

/* The plugin's own facts that the call's scenario gives, into `given`
 * (empty: the state is fresh). Inside the protected call. */
static void load_own_facts(lua_State *L, plugin *p) {
    if (!p->nown || !p->sc || !p->sc->own) return; /* nown first: sc->own is often not in cache */
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->given);
    for (int i = 0; i < p->nown; i++) {
        json_t *v = json_object_get(p->sc->own, p->own[i]);
        if (!v) continue;
        push_json(L, v);
        lua_setfield(L, -2, p->own[i]);
    }
    lua_pop(L, 1);
}

/* ---- hooks, and what a plugin hands back ------------------------------------------------ */

/* Counts bytes the host copies out of a call against the memory cap, with
 * what the plugin's state holds: a plugin cannot grow the process through
 * the ruling any more than through its own state. */
static bool charge(plugin *p, size_t bytes, strbuf *err) {
    p->host_used += bytes;
    if (p->used + p->host_used <= p->cap) return true;
    sb_printf(
        err,
        "plugin %s: %s: returned too much: what it hands back passes the memory limit of %zu bytes",
        p->name, p->path, p->cap);
    return false;
}

/* Whether the string at idx (of type string) is text a ruling can carry:
 * UTF-8, no NUL or other control character, at most max bytes. `what` names it in the error. */
static bool check_text(plugin *p, int idx, const char *what, size_t max, strbuf *err) {
    size_t n;
    const char *s = lua_tolstring(p->L, idx, &n);
    if (n > max) {
        sb_printf(err, "plugin %s: %s: returned too much: %s of %zu bytes (at most %zu)", p->name,
                  p->path, what, n, max);
        return false;
    }
    size_t bad = utf8_bad_byte(s, n);
    size_t ctl = bad < n ? n : text_control_char(s, n);
    if (bad == n && ctl == n) return charge(p, n + 1, err);
    if (ctl < n) /* printed as it is, it would act on the terminal (ESC [2J clears it) */
        sb_printf(err,
                  "plugin %s: %s: %s holds a control character (U+%04X at byte %zu); a text a "
                  "ruling carries is printable",
                  p->name, p->path, what, text_control_code(s + ctl), ctl + 1);
    else if (s[bad] == '\0')
        sb_printf(err, "plugin %s: %s: %s holds a NUL byte (byte %zu)", p->name, p->path, what,
                  bad + 1);
    else
        sb_printf(err, "plugin %s: %s: %s is not UTF-8 text (byte %zu is 0x%02X)", p->name, p->path,
                  what, bad + 1, (unsigned char)s[bad]);
    return false;
}

/* A string field of the table at t, checked; NULL (and no error) when it
 * is nil, NULL with err when it is there but not such text. The string
 * stays on the stack. */
static const char *text_field(plugin *p, int t, const char *key, const char *what, strbuf *err,
                              bool *ok) {
    int type = lua_getfield(p->L, t, key);
    if (type == LUA_TNIL) return NULL;
    if (type != LUA_TSTRING) {
        sb_printf(err, "plugin %s: %s: %s must be text, not %s", p->name, p->path, what,
                  lua_typename(p->L, type));
        *ok = false;
        return NULL;
    }
    if (!check_text(p, -1, what, PLUGIN_MAX_TEXT, err)) {
        *ok = false;
        return NULL;
    }
    return lua_tostring(p->L, -1);
}

static int validate_call(lua_State *L) {
    plugin *p = host(L);
    load_own_facts(L, p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->validate);
    push_facts_view(L, p);
    lua_call(L, 1, 1);
    return 1;
}

static bool plugin_validate_unlocked(plugin *p, const scenario *sc, strbuf *rejection,
                                     strbuf *err) {
    if (!p->has_validate) return true;
    if (!prepare(p, err)) return false;
    p->sc = sc;
    p->host_used = 0;
    if (!run(p, validate_call, 0, 1, err)) return false;
    int type = lua_type(p->L, -1);
    if (type != LUA_TNIL && type != LUA_TSTRING) { /* neither accepts nor says why it refuses */
        sb_printf(err,
                  "plugin %s: %s: `validate` returns nil to accept the scenario or a message to "
                  "refuse it, not a %s",
                  p->name, p->path, lua_typename(p->L, type));
        lua_pop(p->L, 1);
        return false;
    }
    bool ok =
        type != LUA_TSTRING || check_text(p, -1, "the message of `validate`", PLUGIN_MAX_TEXT, err);
    if (ok && lua_type(p->L, -1) == LUA_TSTRING)
        sb_printf(rejection, "%s (%s)", lua_tostring(p->L, -1), p->cite);
    lua_pop(p->L, 1);
    return ok;
}

/* An argument's value as text (it was checked: a boolean, number or text). */
static void arg_text(lua_State *L, int idx, strbuf *sb) {
    if (lua_isboolean(L, idx)) {
        sb_puts(sb, lua_toboolean(L, idx) ? "ja" : "nee");
    } else if (lua_type(L, idx) == LUA_TNUMBER) {
        char num[48];
        if (lua_isinteger(L, idx))
            snprintf(num, sizeof num, LUA_INTEGER_FMT, lua_tointeger(L, idx));
        else
            lua_number2str(num, sizeof num, lua_tonumber(L, idx));
        sb_puts(sb, num);
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        sb_putn(sb, s, n);
    }
}

/* An argument for a ruleset action's parameter: an enum value shows its
 * label (Dutch or English), a bool ja/nee or yes/no, the rest as written. */
static void typed_arg(lua_State *L, int idx, const ruleset *rs, const rs_type *t, bool english,
                      strbuf *sb) {
    if (t && t->kind == TY_ENUM && lua_type(L, idx) == LUA_TSTRING) {
        int v = rs_enum_index(t, lua_tostring(L, idx));
        if (v >= 0) {
            rs_format_value(rs, t, v, english ? FMT_ENGLISH : FMT_DUTCH, sb);
            return;
        }
    }
    if (t && t->kind == TY_BOOL && lua_isboolean(L, idx)) {
        sb_puts(sb, lua_toboolean(L, idx) ? (english ? "yes" : "ja") : (english ? "no" : "nee"));
        return;
    }
    arg_text(L, idx, sb);
}

/* A message template with {name} filled from the args table at args; for a
 * ruleset action, a (its parameters give the arguments' types). The text
 * grows in the plugin's buffer, no longer than PLUGIN_MAX_TEXT: a Lua error
 * on the way leaks nothing. NULL (with err) when it grows past that. */
static char *fill_template(plugin *p, int args, const char *t, const rs_action *a, bool english,
                           strbuf *err) {
    lua_State *L = p->L;
    strbuf *sb = &p->message;
    sb->len = 0;
    while (t && *t && sb->len <= PLUGIN_MAX_TEXT) {
        const char *open = strchr(t, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            sb_puts(sb, t);
            break;
        }
        sb_putn(sb, t, (size_t)(open - t));
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(close - open - 1), open + 1);
        lua_pushstring(L, key);
        lua_rawget(L, args); /* raw: the values check_args checked, no __index */
        const rs_type *type = NULL;
        for (int i = 0; a && i < a->nparams; i++)
            if (strcmp(a->params[i].name, key) == 0) type = a->params[i].type;
        typed_arg(L, -1, p->rs, type, english, sb);
        lua_pop(L, 1);
        t = close + 1;
    }
    if (sb->len > PLUGIN_MAX_TEXT) {
        sb_printf(err, "plugin %s: %s: returned too much: a message longer than %d bytes", p->name,
                  p->path, PLUGIN_MAX_TEXT);
        return NULL;
    }
    if (!charge(p, sb->len + 1, err)) return NULL;
    return xstrdup(sb->len ? sb->data : "");
}

/* A float as Lua's tostring writes it, without converting on the stack. */
static void number_text(lua_Number x, char buf[48]) {
    lua_number2str(buf, 48, x);
    if (buf[strspn(buf, "-0123456789")] == '\0') strcat(buf, ".0"); /* looks like an int */
}

/* Checks the args table at args: at most PLUGIN_MAX_ARGS, each named by
 * text and a boolean, a number or text of at most PLUGIN_MAX_ARG bytes. */
static bool check_args(plugin *p, int args, const char *action, strbuf *err) {
    lua_State *L = p->L;
    int n = 0;
    char what[160];
    lua_pushnil(L);
    while (lua_next(L, args)) {
        snprintf(what, sizeof what, "an argument name of action '%s'", action);
        bool ok = ++n <= PLUGIN_MAX_ARGS;
        if (!ok)
            sb_printf(err,
                      "plugin %s: %s: returned too much: action '%s' has more than %d arguments",
                      p->name, p->path, action, PLUGIN_MAX_ARGS);
        else if (lua_type(L, -2) != LUA_TSTRING)
            ok = false, sb_printf(err,
                                  "plugin %s: the arguments of action '%s' "
                                  "are named (args = { name = value })",
                                  p->name, action);
        else
            ok = check_text(p, -2, what, PLUGIN_MAX_ARG, err);
        if (ok) {
            int type = lua_type(L, -1);
            snprintf(what, sizeof what, "argument '%s' of action '%s'", lua_tostring(L, -2),
                     action);
            if (type == LUA_TSTRING)
                ok = check_text(p, -1, what, PLUGIN_MAX_ARG, err);
            else if (type != LUA_TBOOLEAN && type != LUA_TNUMBER)
                ok = false,
                sb_printf(err,
                          "plugin %s: %s: %s is a %s; an argument is true/false, a number or text",
                          p->name, p->path, what, lua_typename(L, type));
        }
        lua_pop(L, 1);
        if (!ok) {
            lua_pop(L, 1);
            return false;
        }
    }
    return true;
}

/* Whether the value at idx is one of type t; what it should be, in err. */
static bool fits_type(lua_State *L, int idx, const rs_type *t, strbuf *want) {
    int type = lua_type(L, idx);
    switch (t->kind) {
    case TY_BOOL:
        if (type == LUA_TBOOLEAN) return true;
        sb_puts(want, "true or false");
        return false;
    case TY_INT:
        if (lua_isinteger(L, idx) &&
            (!t->bounded || (lua_tointeger(L, idx) >= t->lo && lua_tointeger(L, idx) <= t->hi)))
            return true;
        if (t->bounded)
            sb_printf(want, "a whole number from %lld to %lld", (long long)t->lo, (long long)t->hi);
        else
            sb_puts(want, "a whole number");
        return false;
    case TY_ENUM:
        if (type == LUA_TSTRING && rs_enum_index(t, lua_tostring(L, idx)) >= 0) return true;
        sb_puts(want, "one of ");
        for (int i = 0; i < t->nvalues; i++)
            sb_printf(want, "%s\"%s\"", i ? ", " : "", t->values[i]);
        return false;
    case TY_CALL: {
        bridge_call c;
        char msg[160];
        if (type == LUA_TSTRING && bridge_parse_call(lua_tostring(L, idx), &c, msg, sizeof msg))
            return true;
        sb_puts(want, "a call such as \"2H\", \"P\" or \"X\"");
        return false;
    }
    default:
        if (type == LUA_TSTRING) return true;
        sb_puts(want, "text");
        return false;
    }
}

/* What the plugin gave where a value was refused, for the message: a
 * number by its value (1e+308 or 2.5 is plainer than "number"), anything
 * else by its type. */
static void describe_given(lua_State *L, int idx, char *out, size_t cap) {
    if (lua_isnil(L, idx))
        snprintf(out, cap, "none");
    else if (lua_type(L, idx) != LUA_TNUMBER)
        snprintf(out, cap, "%s", luaL_typename(L, idx));
    else if (lua_tonumber(L, idx) != lua_tonumber(L, idx))
        snprintf(out, cap, "NaN, not a number");
    else
        snprintf(out, cap, "%.17g", (double)lua_tonumber(L, idx));
}

/* The arguments the plugin gives one of the ruleset's actions (args, checked
 * by check_args) are its parameters, each of the parameter's type. */
static bool check_ruleset_args(plugin *p, int args, const rs_action *a, strbuf *err) {
    lua_State *L = p->L;
    strbuf want;
    sb_init(&want);
    bool ok = true;
    for (int k = 0; ok && k < a->nparams; k++) {
        lua_pushstring(L, a->params[k].name);
        lua_rawget(L, args);
        ok = fits_type(L, -1, a->params[k].type, &want);
        if (!ok) {
            char gave[40];
            describe_given(L, -1, gave, sizeof gave);
            sb_printf(err,
                      "plugin %s: %s: argument '%s' of the ruleset's action '%s' must be %s (the "
                      "plugin gave %s)",
                      p->name, p->path, a->params[k].name, a->name, want.data, gave);
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (ok && lua_next(L, args)) {
        int k = 0;
        while (k < a->nparams && strcmp(a->params[k].name, lua_tostring(L, -2)) != 0)
            k++;
        if (k == a->nparams) {
            sb_printf(err,
                      "plugin %s: %s: the ruleset's action '%s' has no argument '%s' (it takes:",
                      p->name, p->path, a->name, lua_tostring(L, -2));
            for (k = 0; k < a->nparams; k++)
                sb_printf(err, " %s", a->params[k].name);
            sb_puts(err, a->nparams ? ")" : " none)");
            ok = false;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    sb_free(&want);
    return ok;
}

/* The checked args table at args as a JSON object. */
static char *args_json(plugin *p, int args, strbuf *err) {
    lua_State *L = p->L;
    json_t *o = json_object();
    lua_pushnil(L);
    while (lua_next(L, args)) {
        char num[48];
        json_t *v;
        if (lua_isboolean(L, -1))
            v = json_boolean(lua_toboolean(L, -1));
        else if (lua_isinteger(L, -1))
            v = json_integer(lua_tointeger(L, -1));
        else if (lua_type(L, -1) == LUA_TNUMBER)
            number_text(lua_tonumber(L, -1), num), v = json_string(num);
        else
            v = json_stringn(lua_tostring(L, -1), lua_rawlen(L, -1));
        json_object_set_new(o, lua_tostring(L, -2), v);
        lua_pop(L, 1);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    if (s && !charge(p, strlen(s) + 1, err)) {
        xfree(s);
        return NULL;
    }
    return s;
}

/* The message of an action the plugin names: the plugin's own template, or
 * the ruleset action's (with the arguments as the plugin wrote them). The
 * template strings stay on the stack while they are used. */
static bool action_message(plugin *p, const char *name, int args, char **nl, char **en,
                           strbuf *err) {
    lua_State *L = p->L;
    int top = lua_gettop(L);
    const char *text = NULL, *text_en = NULL;
    bool ok = true;
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->table);
    if (lua_getfield(L, top + 1, "actions") == LUA_TTABLE &&
        lua_getfield(L, top + 2, name) == LUA_TTABLE) {
        text = text_field(p, top + 3, "text", "the message of one of its actions", err, &ok);
        if (ok)
            text_en =
                text_field(p, top + 3, "en", "the English message of one of its actions", err, &ok);
    }
    int a = rs_find_action(p->rs, name);
    const rs_action *act = ok && !text && a >= 0 ? &p->rs->actions[a] : NULL;
    if (act) text = act->text, text_en = act->text_en;
    if (act && !check_ruleset_args(p, args, act, err))
        ok = false; /* with the ruleset's message, its types */
    if (ok && !text) {
        sb_printf(err,
                  "plugin %s: action '%s' is neither the ruleset's nor declared in the plugin's "
                  "`actions`",
                  p->name, name);
        ok = false;
    }
    ok = ok && (*nl = fill_template(p, args, text, act, false, err)) != NULL;
    ok = ok && (*en = fill_template(p, args, text_en ? text_en : text, act, text_en != NULL,
                                    err)) != NULL;
    lua_settop(L, top);
    return ok;
}

/* One action { name = …, args = { … } } at the top, added to the ruling.
 * The entry belongs to the ruling before anything can fail. */
static bool add_extra(plugin *p, ruling *r, const char *cite, strbuf *err) {
    lua_State *L = p->L;
    int action = lua_gettop(L);
    if (!lua_istable(L, action) || lua_getfield(L, action, "name") != LUA_TSTRING) {
        sb_printf(err, "plugin %s: an action is { name = \"…\", args = { … } }", p->name);
        return false;
    }
    if (!check_text(p, action + 1, "the name of an action", PLUGIN_MAX_ARG, err)) return false;
    const char *name = lua_tostring(L, action + 1);
    static const field_rule action_fields[] = {{"name", LUA_TSTRING, "text"},
                                               {"args", LUA_TTABLE, "a table { name = value, … }"}};
    char why[120];
    if (!fields_ok(L, action, action_fields, 2, why, sizeof why)) {
        sb_printf(err,
                  "plugin %s: the action '%s': %s; an action is { name = \"…\", args = { … } }",
                  p->name, name, why);
        return false;
    }
    if (lua_getfield(L, action, "args") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    if (!check_args(p, action + 2, name, err) ||
        !charge(p, sizeof *r->extra + strlen(cite) + 1, err))
        return false;
    r->extra = xrealloc(r->extra, sizeof *r->extra * (size_t)(r->nextra + 1));
    ruling_extra *e = &r->extra[r->nextra++];
    *e = (ruling_extra){xstrdup(name), xstrdup(cite), NULL, NULL, NULL};
    return action_message(p, name, action + 2, &e->message, &e->message_en, err) &&
           (e->args = args_json(p, action + 2, err)) != NULL;
}

static void add_note(plugin *p, ruling *r, const char *cite, const char *what) {
    r->notes = xrealloc(r->notes, sizeof *r->notes * (size_t)(r->nnotes + 1));
    r->notes[r->nnotes++] = (ruling_note){xstrdup(p->name), xstrdup(cite), xstrdup(what)};
}

/* Marks the ruleset's actions named in the list at list for removal. */
static bool remove_actions(plugin *p, ruling *r, int list, strbuf *err) {
    lua_State *L = p->L;
    for (lua_Integer i = 1; lua_rawgeti(L, list, i) != LUA_TNIL; i++) {
        bool ok = i <= PLUGIN_MAX_ACTIONS;
        if (!ok)
            sb_printf(err, "plugin %s: %s: returned too much: more than %d names in `remove`",
                      p->name, p->path, PLUGIN_MAX_ACTIONS);
        else if (lua_type(L, -1) != LUA_TSTRING)
            ok = false, sb_printf(err, "plugin %s: `remove` is a list of action names", p->name);
        else
            ok = check_text(p, -1, "a name in `remove`", PLUGIN_MAX_ARG, err);
        if (!ok) {
            lua_pop(L, 1);
            return false;
        }
        for (int k = 0; k < r->nactions; k++)
            if (strcmp(p->rs->actions[rs_use_at(p->rs, r->actions[k].use)->action].name,
                       lua_tostring(L, -1)) == 0)
                r->actions[k].dropped = true;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return true;
}

/* The actions in the list at list, added to the ruling: at most
 * PLUGIN_MAX_ACTIONS. */
static bool add_actions(plugin *p, ruling *r, int list, const char *cite, strbuf *err) {
    lua_State *L = p->L;
    bool ok = true;
    for (lua_Integer i = 1; ok && lua_rawgeti(L, list, i) != LUA_TNIL; i++) {
        if (i > PLUGIN_MAX_ACTIONS) {
            sb_printf(err, "plugin %s: %s: returned too much: more than %d actions", p->name,
                      p->path, PLUGIN_MAX_ACTIONS);
            ok = false;
        } else {
            ok = add_extra(p, r, cite, err);
        }
        lua_settop(L, list);
    }
    lua_settop(L, list);
    return ok;
}

/* The fields an override's table may have, and the type each must be: a
 * misspelt field or one of another type would otherwise be passed over,
 * and the ruling would lose its actions (replace is the default) without a
 * word. */
static const field_rule change_fields[] = {
    {"actions", LUA_TTABLE, "a list of { name = …, args = { … } }"},
    {"remove", LUA_TTABLE, "a list of action names"},
    {"replace", LUA_TBOOLEAN, "true or false"},
    {"cite", LUA_TSTRING, "text"},
    {"note", LUA_TSTRING, "text"},
    /* the ruling's own fields, there when it returns the ruling it got: unread */
    {"articles", LUA_TTABLE, "a list of citations"},
    {"facts", LUA_TTABLE, "the facts table"},
};

/* What an override returned (at the top): nil (no change) or { cite,
 * replace, remove, actions, note }. The citation stays on the stack while
 * the plugin's code may run (a metamethod), so that it cannot be collected.
 * Every text it hands back is checked before the ruling carries it. */
static bool apply_change(plugin *p, ruling *r, const char *key, strbuf *err) {
    lua_State *L = p->L;
    int t = lua_gettop(L);
    if (lua_isnil(L, t)) return true;
    if (!lua_istable(L, t)) {
        sb_printf(err,
                  "plugin %s: override \"%s\" returns nil or a table { actions = …, replace = … }",
                  p->name, key);
        return false;
    }
    char why[120];
    if (!fields_ok(L, t, change_fields, sizeof change_fields / sizeof *change_fields, why,
                   sizeof why)) {
        sb_printf(err,
                  "plugin %s: override \"%s\" returned %s (its table has actions, remove, "
                  "replace, cite and note)",
                  p->name, key, why);
        return false;
    }
    bool ok = true;
    const char *cite = text_field(p, t, "cite", "the citation", err, &ok);
    if (!ok) return false;
    if (!cite) {
        lua_pop(L, 1);
        lua_pushstring(L, p->cite);
        cite = p->cite;
    }
    lua_getfield(L, t, "replace");
    bool removes = lua_getfield(L, t, "remove") == LUA_TTABLE;
    bool replace = lua_isnil(L, t + 2) ? !removes : lua_toboolean(L, t + 2);
    if (removes && !remove_actions(p, r, t + 3, err)) return false;
    lua_settop(L, t + 1);
    r->replaced |= replace;
    if (lua_getfield(L, t, "actions") == LUA_TTABLE && !add_actions(p, r, t + 2, cite, err))
        return false;
    lua_settop(L, t + 1);
    const char *note = text_field(p, t, "note", "the note", err, &ok);
    if (!ok || !charge(p, 2 * strlen(cite) + strlen(key) + 64, err)) return false;
    r->extra_cites =
        xrealloc(r->extra_cites, sizeof *r->extra_cites * (size_t)(r->nextra_cites + 1));
    r->extra_cites[r->nextra_cites++] = xstrdup(cite);
    strbuf what;
    sb_init(&what);
    sb_printf(&what, "%s the ruling at %s%s%s",
              replace   ? "replaced"
              : removes ? "changed"
                        : "added to",
              key, note ? ": " : "", note ? note : "");
    add_note(p, r, cite, what.data);
    sb_free(&what);
    lua_settop(L, t);
    return true;
}

/* One override: the function, a new ruling view, the call, and what it
 * returned applied to the ruling, all inside the protected call. */
static int override_call(lua_State *L) {
    plugin *p = host(L);
    load_own_facts(L, p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->key_fn[p->key]);
    push_ruling_view(L, p);
    lua_call(L, 1, 1);
    p->changed_ok = apply_change(p, p->r, p->keys[p->key], p->err);
    return 0;
}

/* Marks the citations whose override applies to the ruling; false when
 * none does. A clause's citation names at most one override. */
static bool find_hits(plugin *p, const ruling *r) {
    memset(p->hit, 0, sizeof *p->hit * (size_t)p->nkeys);
    bool any = p->star >= 0;
    if (any) p->hit[p->star] = true;
    if (p->nkeys == (p->star >= 0)) return any;
    const rs_outcome *o = rs_outcome_at(p->rs, r->outcome);
    for (int i = 0; i < o->ntrail; i++) {
        int k = p->clause_key[o->trail[i]];
        if (k >= 0) p->hit[k] = any = true;
    }
    return any;
}

static bool plugin_override_unlocked(plugin *p, const scenario *sc, ruling *r, strbuf *err) {
    if (r->status != RULING_OK || !p->nkeys || !find_hits(p, r)) return true;
    p->host_used = 0; /* what this ruling carries of the plugin's */
    for (int k = 0; k < p->nkeys; k++) {
        if (!p->hit[k]) continue;
        if (!prepare(p, err)) return false;
        p->sc = sc;
        p->r = r;
        p->key = k;
        p->err = err;
        p->changed_ok = true;
        if (!run(p, override_call, 0, 0, err) || !p->changed_ok) return false;
    }
    return true;
}

/* What `score` and `matchpoints` may return: a bridge score is at most 7600
 * either way, and figures this size sum and subtract without overflow. */
#define PLUGIN_MAX_FIGURE 100000000

static bool integer_result(plugin *p, const char *hook, int64_t *out, strbuf *err) {
    if (!lua_isinteger(p->L, -1) || lua_tointeger(p->L, -1) < -PLUGIN_MAX_FIGURE ||
        lua_tointeger(p->L, -1) > PLUGIN_MAX_FIGURE) {
        sb_printf(err, "plugin %s: `%s` returns a whole number between -%d and %d", p->name, hook,
                  PLUGIN_MAX_FIGURE, PLUGIN_MAX_FIGURE);
        lua_pop(p->L, 1);
        return false;
    }
    *out = lua_tointeger(p->L, -1);
    lua_pop(p->L, 1);
    return true;
}

static int score_call(lua_State *L) {
    plugin *p = host(L);
    load_own_facts(L, p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, p->score);
    lua_pushinteger(L, (lua_Integer)p->num);
    push_facts_view(L, p);
    lua_call(L, 2, 1);
    return 1;
}

static bool plugin_adjust_score_unlocked(plugin *p, const scenario *sc, int64_t *score,
                                         strbuf *err) {
    if (!p->has_score) return true;
    if (!prepare(p, err)) return false;
    p->sc = sc;
    p->num = *score;
    return run(p, score_call, 0, 1, err) && integer_result(p, "score", score, err);
}

/* Only integers go in: nothing to allocate, so the function is called directly. */
static bool plugin_adjust_matchpoints_unlocked(plugin *p, int64_t beaten, int64_t equalled,
                                               int64_t others, int64_t *mp, strbuf *err) {
    if (!p->has_matchpoints) return true;
    if (!prepare(p, err)) return false;
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->matchpoints);
    lua_pushinteger(p->L, (lua_Integer)beaten);
    lua_pushinteger(p->L, (lua_Integer)equalled);
    lua_pushinteger(p->L, (lua_Integer)others);
    lua_pushinteger(p->L, (lua_Integer)*mp);
    return call_protected(p, 4, 1, err) && integer_result(p, "matchpoints", mp, err);
}

/* ---- one call at a time ---------------------------------------------------------- */

/* A plugin serves one call at a time: threads that share it (a server's,
 * or a program's through arbiter.h) take turns, and each call starts from
 * the plugin as loaded, with the facts of its own scenario. A call that
 * runs out of memory unwinds (core/base/mem.h) with the lock released. The
 * time a ruling waits for another thread's call is not its plugins' time:
 * its clock moves on by as much. */
static void unlock_unwound(void *p) {
    pthread_mutex_unlock(&((plugin *)p)->lock);
}

static int lock(plugin *p) {
    if (pthread_mutex_trylock(&p->lock) != 0) {
        int64_t asked = now_ns();
        pthread_mutex_lock(&p->lock);
        if (ruling_clock) ruling_until += now_ns() - asked;
    }
    return mem_defer(unlock_unwound, p);
}

static void unlock(plugin *p, int held) {
    mem_undefer(held);
    pthread_mutex_unlock(&p->lock);
}

bool plugin_validate(plugin *p, const scenario *sc, strbuf *rejection, strbuf *err) {
    int held = lock(p);
    bool ok = plugin_validate_unlocked(p, sc, rejection, err);
    unlock(p, held);
    return ok;
}

bool plugin_override(plugin *p, const scenario *sc, ruling *r, strbuf *err) {
    int held = lock(p);
    bool ok = plugin_override_unlocked(p, sc, r, err);
    unlock(p, held);
    return ok;
}

bool plugin_adjust_score(plugin *p, const scenario *sc, int64_t *score, strbuf *err) {
    int held = lock(p);
    bool ok = plugin_adjust_score_unlocked(p, sc, score, err);
    unlock(p, held);
    return ok;
}

bool plugin_adjust_matchpoints(plugin *p, int64_t beaten, int64_t equalled, int64_t others,
                               int64_t *mp, strbuf *err) {
    int held = lock(p);
    bool ok = plugin_adjust_matchpoints_unlocked(p, beaten, equalled, others, mp, err);
    unlock(p, held);
    return ok;
}

/* ---- a set of plugins as the core's hooks ------------------------------------------- */

bool plugin_set_has_fact(const plugin_set *s, const char *name) {
    for (int i = 0; s && i < s->n; i++)
        if (plugin_has_fact(s->list[i], name)) return true;
    return false;
}

/* A scenario key one of the plugins declares: checked against its kind;
 * the scenario keeps it (scenario.own), so it dies with the scenario. */
static bool set_own_fact(void *ctx, const char *key, json_t *value, bool *taken, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (plugin_has_fact(s->list[i], key)) {
            *taken = true;
            if (!plugin_check_fact(s->list[i], key, value, err)) return false;
        }
    return true;
}

/* The time limit of the ruling under way on this thread. A set's validate
 * starts a ruling of sc (the core calls it first, every time it rules);
 * the overrides and the score of that ruling share its limit, so that all
 * the plugins' calls for one ruling, fresh states included, take no longer
 * together than the limit. Outside the set's hooks (a plugin called on its
 * own) each call has the limit to itself. */

static void start_ruling_clock(const plugin_set *s, const scenario *sc, bool new_ruling) {
    if (new_ruling || ruling_sc != sc) {
        ruling_sc = sc;
        ruling_until = now_ns() + (int64_t)s->time_ms * 1000000;
    }
    ruling_clock = true;
}

static bool stop_ruling_clock(bool ok) {
    ruling_clock = false;
    return ok;
}

bool plugin_set_for(const plugin_set *s, const ruleset *rs) {
    return s->n == 0 || s->list[0]->rs == rs; /* plugin_set_load loads them all for one */
}

/* False, with the error, for a scenario of a ruleset the set was not
 * loaded for (an embedder's mistake the library can see). */
static bool same_ruleset(const plugin_set *s, const scenario *sc, strbuf *err) {
    if (plugin_set_for(s, sc->rs)) return true;
    sb_printf(err,
              "plugin %s: loaded for ruleset %s, not for %s, which rules this scenario; load the "
              "plugins for each ruleset that rules with them (arb_load_plugins)",
              plugin_name(s->list[0]), s->list[0]->rs->name, sc->rs->name);
    return false;
}

static bool set_validate(void *ctx, const scenario *sc, strbuf *err) {
    plugin_set *s = ctx;
    if (!same_ruleset(s, sc, err)) return false;
    start_ruling_clock(s, sc, true);
    for (int i = 0; i < s->n; i++) {
        strbuf rejection;
        sb_init(&rejection);
        bool ok = plugin_validate(s->list[i], sc, &rejection, err);
        if (ok && rejection.len) {
            sb_printf(err, "plugin %s refuses the scenario: %s", plugin_name(s->list[i]),
                      rejection.data);
            ok = false;
        }
        sb_free(&rejection);
        if (!ok) return stop_ruling_clock(false);
    }
    return stop_ruling_clock(true);
}

static bool set_after_ruling(void *ctx, const scenario *sc, ruling *r, strbuf *err) {
    plugin_set *s = ctx;
    if (!same_ruleset(s, sc, err)) return false;
    start_ruling_clock(s, sc, false);
    for (int i = 0; i < s->n; i++)
        if (!plugin_override(s->list[i], sc, r, err)) return stop_ruling_clock(false);
    return stop_ruling_clock(true);
}

static bool set_adjust_score(void *ctx, const scenario *sc, int64_t *score, strbuf *err) {
    plugin_set *s = ctx;
    if (!same_ruleset(s, sc, err)) return false;
    start_ruling_clock(s, sc, false);
    for (int i = 0; i < s->n; i++)
        if (!plugin_adjust_score(s->list[i], sc, score, err)) return stop_ruling_clock(false);
    return stop_ruling_clock(true);
}

static bool set_adjust_matchpoints(void *ctx, int64_t beaten, int64_t equalled, int64_t others,
                                   int64_t *mp, strbuf *err) {
    plugin_set *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (!plugin_adjust_matchpoints(s->list[i], beaten, equalled, others, mp, err)) return false;
    return true;
}

/* Whether the plugin acts on a ruling: it validates or scores every one,
 * or one of its overrides names a citation on the ruling's trail. */
static bool acts_on(const plugin *p, const ruling *r) {
    if (p->has_validate || p->has_score || p->star >= 0) return true;
    if (r->status != RULING_OK || !p->nkeys) return false;
    const rs_outcome *o = rs_outcome_at(p->rs, r->outcome);
    for (int i = 0; i < o->ntrail; i++)
        if (p->clause_key[o->trail[i]] >= 0) return true;
    return false;
}

bool plugin_set_question(const plugin_set *s, const scenario *sc, const ruling *r,
                         plugin_question *q) {
    if (!plugin_set_for(s, sc->rs)) return false;
    for (int i = 0; i < s->n; i++) {
        const plugin *p = s->list[i];
        for (int f = 0; f < p->nown && acts_on(p, r); f++) {
            if (!p->own_ask[f] || (sc->own && json_object_get(sc->own, p->own[f]))) continue;
            *q = (plugin_question){p->own[f], fact_kinds[p->own_kind[f]], p->own_ask[f],
                                   p->own_ask_en[f]};
            return true;
        }
    }
    return false;
}

bool plugin_answer(scenario *sc, const plugin_question *q, const char *text, strbuf *err) {
    json_t *v = NULL;
    if (strcmp(q->kind, "bool") == 0) {
        static const char *const yes[] = {"JA", "J", "YES", "Y", "TRUE"}, *const no[] = {"NEE", "N",
                                                                                         "NO",
                                                                                         "FALSE"};
        for (size_t i = 0; i < 5 && !v; i++)
            if (equals_ignoring_case(text, yes[i]) || (i < 4 && equals_ignoring_case(text, no[i])))
                v = json_boolean(equals_ignoring_case(text, yes[i]));
        if (!v) sb_puts(err, "antwoord ja of nee");
    } else if (strcmp(q->kind, "int") == 0) {
        char *end;
        errno = 0;
        long long n = strtoll(text, &end, 10);
        if (*text && !*end && errno != ERANGE) /* past 64 bits: not the largest number, silently */
            v = json_integer(n);
        else
            sb_puts(err, "antwoord met een geheel getal");
    } else {
        v = json_string(text); /* NULL when the text is not UTF-8 */
        if (!v) sb_puts(err, "antwoord met tekst (UTF-8)");
    }
    if (!v) return false;
    if (!sc->own) sc->own = json_object();
    json_object_set_new(sc->own, q->fact, v);
    return true;
}

static json_t *set_describe(void *ctx) {
    plugin_set *s = ctx;
    json_t *files = json_array();
    for (int i = 0; i < s->n; i++) {
        const plugin *p = s->list[i];
        /* a path that is not UTF-8 (jansson refuses it, and the plugin
         * vanished from the record) with its other bytes as Latin-1 */
        size_t n = strlen(p->path), size = 2 * n + 1;
        char *file = xmalloc(size);
        utf8_from_latin1(file, size, p->path, n);
        json_array_append_new(
            files, json_pack("{s:s, s:s, s:s}", "name", p->name, "file", file, "hash", p->hash));
        xfree(file);
    }
    return files;
}

static void free_set_unwound(void *s) {
    plugin_set_free(s);
}

bool plugin_set_load(plugin_set *s, const ruleset *rs, const char *const *paths, int n,
                     plugin_limits limits, strbuf *err) {
    memset(s, 0, sizeof *s);
    s->time_ms = limits.time_ms ? limits.time_ms : PLUGIN_DEFAULT_TIME_MS;
    s->hooks = (scenario_hooks){s,
                                set_own_fact,
                                set_validate,
                                set_after_ruling,
                                set_adjust_score,
                                set_adjust_matchpoints,
                                set_describe};
    int undo = mem_defer(free_set_unwound, s); /* the plugins loaded before one ran out of memory */
    for (int i = 0; i < n && i < PLUGIN_MAX; i++) {
        plugin *p = plugin_load(paths[i], rs, limits, err);
        if (!p) {
            mem_undefer(undo);
            plugin_set_free(s);
            return false;
        }
        s->list[s->n++] = p;
    }
    mem_undefer(undo);
    return true;
}

void plugin_set_free(plugin_set *s) {
    for (int i = 0; i < s->n; i++)
        plugin_free(s->list[i]);
    s->n = 0;
}

const scenario_hooks *plugin_set_hooks(const plugin_set *s) {
    return s->n ? &s->hooks : NULL;
}
