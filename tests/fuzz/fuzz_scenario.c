/* fuzz_scenario.c — a director's scenario (a JSON object: facts, an
 * auction, a contract, a deal and its play) ruled on with bridge-2017, and
 * the ruling written as JSON and as text. */
#include "fuzz.h"

#include "eval.h"
#include "output.h"
#include "scenario.h"

static ruleset *rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    rs = fuzz_compile("rulesets/bridge-2017");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    if (scenario_read_json(&sc, (const char *)data, size, &err)) {
        ruling r;
        eval_rule(rs, rs->root, &sc.fv, &r);
        json_t *o = output_json(&r, &sc);
        free(json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER));
        json_decref(o);
        if (r.status == RULING_OK) output_text(&r, &sc, fuzz_devnull());
        strbuf problem;
        sb_init(&problem);
        if (r.status != RULING_OK) ruling_problem(&r, &problem);
        sb_free(&problem);
        ruling_clear(&r);
    }
    sb_free(&err);
    scenario_free(&sc);
    return 0;
}
