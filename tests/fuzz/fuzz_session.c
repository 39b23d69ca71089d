/* fuzz_session.c — a session's score sheet as `arbiter session` reads it
 * (CSV with a header row, , or ;), scored with bridge-2017 by each method
 * through the call the command makes (arb_session_json); and the same
 * bytes as a sheet `arbiter ranking` ranks with klaverjas-nkf-1976
 * (arb_ranking_json); each answer written as the CSV the command prints
 * (arb_csv). */
#include "arbiter.h"
#include "fuzz.h"

static arb_ruleset *session_rs, *ranking_rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    session_rs = fuzz_compile("rulesets/bridge-2017");
    ranking_rs = fuzz_compile("rulesets/klaverjas-nkf-1976");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const methods[] = {"matchpoints", "butler", "cross"};
    for (int m = 0; m < 3; m++) {
        char *json = NULL, *error = NULL;
        arb_session_json(session_rs, NULL, (const char *)data, size, methods[m], &json, &error);
        if (json) fuzz_as_csv("session-boards", strdup(json));
        fuzz_as_csv("session", json);
        free(error);
    }
    char *json = NULL, *error = NULL;
    arb_ranking_json(ranking_rs, NULL, (const char *)data, size, &json, &error);
    fuzz_as_csv("ranking", json);
    free(error);
    return 0;
}
