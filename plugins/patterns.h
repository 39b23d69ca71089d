/* patterns.h — string.find, match, gmatch, gsub and rep for plugins:
 * Lua's, with the work they do counted (patterns.c). */
#ifndef ARBITER_PATTERNS_H
#define ARBITER_PATTERNS_H

#include <lua.h>
#include <lauxlib.h>

/* The five functions, for luaL_setfuncs on a plugin's string table. */
extern const luaL_Reg sandbox_patterns[];

/* Called every few thousand steps of a match: raises a Lua error (it does
 * not return) when the calling plugin is past its time or instruction
 * limit. The plugin host defines it. */
void sandbox_tick(lua_State *L);

#endif
