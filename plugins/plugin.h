/* plugin.h — club regulations in Lua 5.4, run in a sandbox.
 *
 * A plugin is a Lua file that returns a table: the API version it was
 * written for, its name and citation, and the hooks it fills (facts of its
 * own, input validation, overriding the outcome of a named article or
 * clause, adjusting a score or a matchpoint scale). It runs with no io, os,
 * package, debug, coroutine, binary chunks, dofile, loadfile, finalizers or
 * garbage-collector control, under an instruction budget, a wall-clock time
 * limit and a memory cap per call, each call starting from the plugin's
 * state as loaded (its memory put back, heap.h); what it hands back is
 * capped and must be UTF-8 text. Any failure is reported with
 * the plugin's name, its file (and line) and the limit, and leaves the
 * engine and the other plugins usable. docs/plugins.md is the reference for
 * plugin authors.
 */
#ifndef ARBITER_PLUGIN_H
#define ARBITER_PLUGIN_H

#include "eval.h"
#include "scenario.h"

#include <jansson.h>

#define PLUGIN_API_VERSION 1

/* Defaults; each can be set per plugin (0: the default). A real club rule
 * needs a few thousand instructions, kilobytes and well under a millisecond. */
#define PLUGIN_DEFAULT_INSTRUCTIONS 1000000L
#define PLUGIN_DEFAULT_MEMORY (8u << 20)
#define PLUGIN_DEFAULT_TIME_MS 50L

/* What a call may hand back; more is an error ("returned too much"). */
#define PLUGIN_MAX_ACTIONS 16 /* actions added, and names in `remove`, per override */
#define PLUGIN_MAX_ARGS 16    /* arguments of an action */
#define PLUGIN_MAX_ARG 256    /* bytes of an argument's name or text, or an action's name */
#define PLUGIN_MAX_TEXT 2000  /* bytes of a message, note, citation or refusal */

typedef struct plugin_limits {
    long instructions; /* per call */
    size_t memory;     /* bytes, for the plugin's state and what a call hands back */
    long time_ms;      /* wall-clock milliseconds per ruling through a plugin_set's hooks (all
                          its plugins' calls together), per call for a plugin called on its own */
} plugin_limits;

typedef struct plugin plugin;

/* Loads and checks a plugin for a ruleset: the API version must match, the
 * articles and clauses it overrides must exist, the actions it names must
 * be the ruleset's or its own. NULL with err on failure. */
plugin *plugin_load(const char *path, const ruleset *rs, plugin_limits limits, strbuf *err);
void plugin_free(plugin *p);
const char *plugin_name(const plugin *p);
const char *plugin_path(const plugin *p);
/* "fnv1a64:…" of the file's text as loaded (every call runs that text). */
const char *plugin_hash(const plugin *p);

/* Facts of the plugin's own that a scenario may give (e.g. minutes_late),
 * each of the kind the plugin declares. The scenario keeps their values
 * (scenario.own, filled while it is read): a hook sees those of the
 * scenario it is called with, and nothing of another scenario's. */
bool plugin_has_fact(const plugin *p, const char *name);
bool plugin_check_fact(const plugin *p, const char *name, json_t *value, strbuf *err);

/* What a plugin did to a ruling, for the audit trail. */
typedef struct plugin_note {
    char *plugin, *cite, *what;
} plugin_note;

/* Each returns false with err (naming the plugin, the line, the limit) when
 * the plugin fails; the caller reports it and stops with exit status 2.
 * Threads may share a plugin: it serves one call at a time (the others
 * wait), and every call starts from the plugin as loaded. */
bool plugin_validate(plugin *p, const scenario *sc, strbuf *rejection, strbuf *err);
bool plugin_override(plugin *p, const scenario *sc, ruling *r, strbuf *err);
bool plugin_adjust_score(plugin *p, const scenario *sc, int64_t *score, strbuf *err);
bool plugin_adjust_matchpoints(plugin *p, int64_t beaten, int64_t equalled, int64_t others,
                               int64_t *mp, strbuf *err);

/* The plugins a director loaded, in order, as the hooks the core calls
 * around each ruling (see scenario_hooks in core/games/scenario.h). */
#define PLUGIN_MAX 8

typedef struct plugin_set {
    plugin *list[PLUGIN_MAX];
    int n;
    long time_ms; /* for one ruling, shared by all its plugins' calls */
    scenario_hooks hooks;
} plugin_set;

bool plugin_set_load(plugin_set *s, const ruleset *rs, const char *const *paths, int n,
                     plugin_limits limits, strbuf *err);
void plugin_set_free(plugin_set *s);
/* NULL when no plugin is loaded. */
const scenario_hooks *plugin_set_hooks(const plugin_set *s);
/* Whether the set may act on rulings of rs: it is empty, or its plugins
 * were loaded for rs. A plugin reads a scenario's facts and a ruling's
 * trail by the numbers of the ruleset it was loaded for: on another
 * ruleset's, it would read the wrong facts, or past their end. The hooks
 * refuse such a scenario with an error. */
bool plugin_set_for(const plugin_set *s, const ruleset *rs);
/* Whether one of the set's plugins declares a fact of its own by this name. */
bool plugin_set_has_fact(const plugin_set *s, const char *name);

/* A fact of a plugin's own that has a question (its `ask`), for `arbiter
 * ask`: the first that the scenario does not give, of a plugin that acts
 * on the ruling r (its validate or score, or an override on r's trail).
 * False when there is none. The strings are the plugin's. */
typedef struct plugin_question {
    const char *fact, *kind, *ask,
        *ask_en; /* kind: "bool", "int" or "string"; ask_en may be NULL */
} plugin_question;
bool plugin_set_question(const plugin_set *s, const scenario *sc, const ruling *r,
                         plugin_question *q);
/* A director's answer to it (ja/nee, a whole number, text) given to the
 * scenario; false with err (a hint in Dutch) when it is not one. */
bool plugin_answer(scenario *sc, const plugin_question *q, const char *text, strbuf *err);

#endif
