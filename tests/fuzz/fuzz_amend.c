/* fuzz_amend.c — an amendment file applied to tests/rules/toy: parsing the
 * changes, applying them to the base's syntax trees, compiling, checking,
 * and the committee's diff of the base against the amended ruleset. */
#include "fuzz.h"

#include "diff.h"
#include "check.h"

static ruleset *base;
static char base_path[512];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    base = fuzz_compile("tests/rules/toy");
    snprintf(base_path, sizeof base_path, "%s/tests/rules/toy", ARB_SRCDIR);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *amendment = fuzz_write_file("fuzz.amend", data, size);
    diag *d = diag_new(stderr);
    diag_mute(d, 1);
    ruleset *rs = dsl_compile_amended(base_path, &amendment, 1, d);
    if (rs) {
        dsl_check(rs, d);
        diff_result diff;
        diff_rulesets(base, rs, NULL, &diff);
        for (int i = 0; i < diff.nregions && i < 4; i++) {
            strbuf sb;
            sb_init(&sb);
            diff_region_text(&diff, &diff.regions[i], &sb);
            sb_free(&sb);
            json_decref(diff_region_example(&diff, &diff.regions[i]));
        }
        diff_free(&diff);
        ruleset_free(rs);
    }
    diag_free(d);
    return 0;
}
