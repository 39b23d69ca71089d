/* fuzz_matchpoints.c — a matchpoint sheet as `arbiter matchpoints` reads it
 * (a score per line, or CSV board,pair,score), matchpointed with
 * bridge-2017 through the call the command makes (arb_matchpoints_sheet),
 * and its answer written as the CSV the command prints (arb_csv). */
#include "arbiter.h"
#include "fuzz.h"

static arb_ruleset *mp_rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    mp_rs = fuzz_compile("rulesets/bridge-2017");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *json = NULL, *error = NULL;
    arb_matchpoints_sheet(mp_rs, NULL, (const char *)data, size, &json, &error);
    fuzz_as_csv("matchpoints", json);
    free(error);
    return 0;
}
