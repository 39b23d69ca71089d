/* arbiter.h — the public interface of libarbiter.
 *
 * Load a ruleset once, then rule on as many scenarios as you like; a loaded
 * ruleset is read-only and may be shared between threads. Every function
 * that can fail returns a status: ARB_OK, ARB_NO_RULING (the rules give no
 * ruling, or a test failed) or ARB_BAD_INPUT (a malformed rule file,
 * scenario or argument), which are also the CLI's exit statuses.
 */
#ifndef ARBITER_H
#define ARBITER_H

#include <stddef.h>
#include <stdio.h>

#define ARB_VERSION "0.1.0"

enum arb_status { ARB_OK = 0, ARB_NO_RULING = 1, ARB_BAD_INPUT = 2 };

typedef struct ruleset arb_ruleset;

/* Finds a ruleset by name (searching $ARBITER_RULESETS, the rulesets/
 * directory beside the program, and ./rulesets) or takes a path. Returns a
 * malloc'd path, or NULL. */
char *arb_find_ruleset(const char *name_or_path);

/* The directory of installed rulesets: the first of those places that
 * exists. A malloc'd path, or NULL. */
char *arb_rulesets_dir(void);
/* The rulesets in a directory: its subdirectories with a `ruleset` header
 * (shared vocabularies have none), sorted by name. Returns how many;
 * *names (malloc'd, as is each name; NULL when none) receives them. */
int arb_list_rulesets(const char *dir, char ***names);

/* Loads and compiles a ruleset; errors (file:line:col, expected, hint) are
 * written to errors (NULL: not written). NULL on failure.
 *
 * Without amendments, a ruleset compiled before is loaded from its image
 * in the cache instead ($ARBITER_CACHE, else $XDG_CACHE_HOME/arbiter, else
 * ~/.cache/arbiter; ARBITER_CACHE=off: never) while its rule files are
 * unchanged; one compiled without errors or warnings is saved there. The
 * result is the same either way; a cache that cannot be read or written
 * only costs the compile. */
arb_ruleset *arb_load(const char *name_or_path, FILE *errors);
/* The same with amendment files applied in order (see docs/committee.md). */
arb_ruleset *arb_load_amended(const char *name_or_path, const char *const *amendments, int namendments,
                              FILE *errors);
void arb_free(arb_ruleset *rs);

const char *arb_name(const arb_ruleset *rs);
const char *arb_title(const arb_ruleset *rs);
/* "fnv1a64:…", the hash of the rule files' names and contents. */
void arb_hash(const arb_ruleset *rs, char buf[32]);

/* Rules on one scenario (a JSON object). *json receives the ruling as a
 * JSON object (malloc'd; free it) — on failure, an object with "status" and
 * "error". */
enum arb_status arb_rule_json(const arb_ruleset *rs, const char *scenario, size_t len, char **json);

/* Rules on a JSON Lines batch, one ruling (or error record with its line
 * number) per line written to out. Returns ARB_OK when every line ruled.
 * A scenario (a line, or the text given to arb_rule_json) longer than
 * ARB_MAX_LINE bytes is not parsed but answered with an error record: a
 * real one is far shorter, and this bounds the memory one line takes. */
#define ARB_MAX_LINE (1 << 20)
enum arb_status arb_rule_batch(const arb_ruleset *rs, const char *jsonl, size_t len, FILE *out);

/* Club plugins (Lua, sandboxed; see docs/plugins.md) loaded for a ruleset,
 * and the two calls above with them around every ruling. NULL (with the
 * reason written to errors) when a plugin cannot be loaded. Threads may
 * share one arb_plugins (and its ruleset): each plugin serves one call at a
 * time, the others wait, and no ruling sees another's facts or state. */
typedef struct plugin_set arb_plugins;
arb_plugins *arb_load_plugins(const arb_ruleset *rs, const char *const *paths, int n, FILE *errors);
void arb_free_plugins(arb_plugins *p);
enum arb_status arb_rule_json_plugins(const arb_ruleset *rs, const arb_plugins *p, const char *scenario, size_t len,
                                      char **json);
enum arb_status arb_rule_batch_plugins(const arb_ruleset *rs, const arb_plugins *p, const char *jsonl, size_t len,
                                       FILE *out);

#endif
