/* fuzz_rules.c — the rule language end to end: lexer, parser, compiler,
 * completeness checker, the ruleset's own tests, and its rulings written
 * out (messages filled from fuzzed templates and labels), on one fuzzed
 * .rules file. Every input must end in a ruleset or in errors, never in a
 * crash. */
#include "fuzz.h"

#include "eval.h"
#include "output.h"
#include "scenario.h"
#include "testrun.h"
#include "check.h"

/* The situations the file's own tests give, ruled on and written out as
 * JSON and as text. */
static void rule_tests(const ruleset *rs) {
    for (int t = 0; t < rs->ntests && t < 8; t++) {
        const rs_test *test = &rs->tests[t];
        scenario sc;
        scenario_init(&sc, rs);
        for (int i = 0; i < test->ngiven; i++)
            scenario_give(&sc, test->given_fact[i], test->given_value[i]);
        ruling r;
        eval_rule(rs, rs->root, &sc.fv, &r);
        json_t *o = output_json(&r, &sc);
        free(json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER));
        json_decref(o);
        if (r.status == RULING_OK) output_text(&r, &sc, fuzz_devnull());
        ruling_clear(&r);
        scenario_free(&sc);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_write_file("fuzz.rules", data, size);
    diag *d = diag_new(stderr);
    diag_mute(d, 1);
    ruleset *rs = dsl_compile(path, d);
    if (rs) {
        dsl_check(rs, d);
        testrun_all(rs, NULL, fuzz_devnull(), false, true); /* no plugin hooks */
        rule_tests(rs);
        ruleset_free(rs);
    }
    (void)diag_last(d);
    diag_free(d);
    return 0;
}
