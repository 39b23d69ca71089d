/* cache.h — compiled rulesets kept between runs, so that a command that
 * rules once loads an image (image.h) instead of compiling the rule files.
 *
 * The cache is a directory: $ARBITER_CACHE if set ("off" turns the cache
 * off), else $XDG_CACHE_HOME/arbiter, else ~/.cache/arbiter. A ruleset's
 * image there is named by a hash of its directory's real path, and stands
 * in for the rule files only while they are the ones it was made from:
 * the same files with the same contents (hashed as the ruleset's own hash
 * is), and no rule file added beside them. A cache that cannot be read or
 * written is no error: the ruleset is compiled, as without one. */
#ifndef ARBITER_CACHE_H
#define ARBITER_CACHE_H

#include "ruleset.h"

/* The cache directory (malloc'd), or NULL when the cache is off. */
char *cache_dir(void);

/* The current image of path or NULL; and saving rs, compiled from path, as
 * that image (false when it could not be). The store never compiles:
 * load.h does, when there is no current image. */
ruleset *cache_load(const char *path);
bool cache_store(const ruleset *rs, const char *path);

#endif
