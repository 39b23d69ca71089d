/* compile.h — rule files to a compiled ruleset: name resolution, type
 * checking, decision graphs, and the checks that come out of building them
 * (unreachable clauses, apply cycles). Completeness is proved afterwards by
 * check.h on the finished graphs. */
#ifndef ARBITER_COMPILE_H
#define ARBITER_COMPILE_H

#include "ruleset.h"

/* Load and compile the ruleset in dir (a directory of *.rules files, or a
 * single .rules file). Errors go to d; returns NULL if there were any. */
ruleset *dsl_compile(const char *path, diag *d);

/* The same, with amendment files applied in order: each names its base
 * ruleset and replaces, adds or removes declarations, clauses (by their
 * citation) and table rows; errors point into the amendment. */
ruleset *dsl_compile_amended(const char *path, const char *const *amendments, int namendments,
                             diag *d);

#endif
