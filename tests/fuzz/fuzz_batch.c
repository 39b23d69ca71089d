/* fuzz_batch.c — a JSON Lines batch through the public API (arb_rule_batch)
 * with bridge-2017, and its first line through arb_rule_json. Every line
 * gives exactly one output line, a ruling or an error record. */
#include "fuzz.h"

#include "arbiter.h"

static arb_ruleset *rs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    char path[512];
    snprintf(path, sizeof path, "%s/rulesets/bridge-2017", ARB_SRCDIR);
    rs = arb_load(path, stderr);
    if (!rs) abort();
    return 0;
}

static size_t count_lines(const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    if (!f) abort();
    arb_rule_batch(rs, (const char *)data, size, f);
    fclose(f);
    /* one record per non-blank line, never more than the lines given */
    if (count_lines(out, outlen) > count_lines((const char *)data, size) + 1) abort();
    free(out);
    char *json = NULL;
    const uint8_t *nl = memchr(data, '\n', size);
    arb_rule_json(rs, (const char *)data, nl ? (size_t)(nl - data) : size, &json);
    if (!json) abort(); /* a ruling or an error object, always */
    free(json);
    return 0;
}
