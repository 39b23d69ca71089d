/* fuzz_matchpoints.c — the score lines of `arbiter matchpoints` (a score
 * per line, or CSV board,pair,score), matchpointed with bridge-2017.
 *
 * The parser is static in core/cli/cli.c and the CLI is the only caller, so
 * this target compiles cli.c into itself (its main renamed) to reach
 * parse_score_lines and matchpoint_boards without a process per input. */
#define main arbiter_cli_main
#include "../../core/cli/cli.c"
#undef main

#include "fuzz.h"

static ruleset *mp_rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    mp_rs = fuzz_compile("rulesets/bridge-2017");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_cstring(data, size);
    vec rows;
    vec_init(&rows, sizeof(score_line));
    strbuf err;
    sb_init(&err);
    /* cmd_matchpoints refuses text with a NUL byte before parsing */
    if (strlen(text) == size && parse_score_lines(text, &rows, &err)) matchpoint_boards(mp_rs, &rows, &err);
    sb_free(&err);
    vec_free(&rows);
    free(text);
    return 0;
}
