/* testrun.h — the test blocks of a ruleset, run against its graphs. */
#ifndef ARBITER_TESTRUN_H
#define ARBITER_TESTRUN_H

#include "ruleset.h"

struct scenario_hooks;

#include <stdio.h>

typedef struct test_totals {
    int passed, failed;
    int clauses, uncovered; /* with coverage: clauses with a citation, and those no test reached */
} test_totals;

/* Runs every test; failures are written to out with file:line:col. With
 * coverage, the clauses no test reaches are listed too. */
test_totals testrun_all(const ruleset *rs, const struct scenario_hooks *hooks, FILE *out,
                        bool verbose, bool coverage);

#endif
