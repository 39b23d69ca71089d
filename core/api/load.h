/* load.h — a ruleset from its image in the cache when that is current, else
 * compiled from its rule files (and saved for the next run). */
#ifndef ARBITER_LOAD_H
#define ARBITER_LOAD_H

#include "diag.h"
#include "ruleset.h"

#include <stdbool.h>

/* The ruleset at path (as arb_find_ruleset gives it) from its image when
 * that is current, else compiled with the amendments, errors and warnings
 * going to d; a ruleset compiled cleanly (no message at all) without
 * amendments is saved for the next run. *cached (may be NULL) says
 * which. NULL after errors. */
ruleset *load_or_compile(const char *path, const char *const *amendments, int namendments, diag *d,
                         bool *cached);

/* The amendments a caller gives (namendments paths): a count that is not
 * negative, with a path behind each. False with the reason in why. */
bool load_amendments_ok(const char *const *amendments, int namendments, char *why, size_t size);

#endif
