/* fuzz_pbn.c — a PBN file as `arbiter pbn` reads it (core/games/pbn.c),
 * then scored and written back with bridge-2017 through the calls the
 * command makes (arb_pbn_json, arb_pbn_score_json, arb_pbn_totals_json,
 * arb_pbn_session_json, arb_pbn_results), each answer written as the CSV
 * the command prints (arb_csv), and
 * written in the export format (arb_pbn_export). */
#include "arbiter.h"
#include "fuzz.h"

static arb_ruleset *pbn_rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    pbn_rs = fuzz_compile("rulesets/bridge-2017");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *json = NULL, *error = NULL;
    arb_pbn_json((const char *)data, size, "fuzz.pbn", &json, &error);
    free(json);
    free(error);
    json = error = NULL;
    arb_pbn_score_json(pbn_rs, NULL, (const char *)data, size, "fuzz.pbn", &json, &error);
    fuzz_as_csv("pbn", json);
    free(error);
    json = error = NULL;
    arb_pbn_totals_json(pbn_rs, NULL, (const char *)data, size, "fuzz.pbn", &json, &error);
    fuzz_as_csv("pbn-totals", json);
    free(error);
    json = error = NULL;
    arb_pbn_session_json(pbn_rs, NULL, (const char *)data, size, "fuzz.pbn", &json, &error);
    fuzz_as_csv("session", json);
    free(error);
    json = error = NULL;
    arb_pbn_results(pbn_rs, NULL, (const char *)data, size, "fuzz.pbn", &json, &error);
    free(json);
    free(error);
    json = error = NULL;
    arb_pbn_export((const char *)data, size, "fuzz.pbn", &json, &error);
    free(json);
    free(error);
    return 0;
}
