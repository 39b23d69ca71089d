/* fuzz_auction.c — compact auction notation ("N: 1S 1H E:2C X*") and the
 * analysis of the record (whose turn, sufficient, admissible, …). */
#include "fuzz.h"

#include "bridge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_cstring(data, size);
    static bridge_auction a;
    char err[200];
    err[0] = 0;
    if (bridge_parse_auction(text, &a, err, sizeof err)) {
        if (a.ncalls < 0 || a.ncalls > BRIDGE_MAX_CALLS) abort();
        bridge_facts f;
        if (bridge_analyse(&a, &f, err, sizeof err)) {
            if (f.irregular_index < 0 || f.irregular_index >= a.ncalls) abort();
            char buf[8];
            bridge_format_call(&f.irregular_call, buf);
            if (f.has_lowest_sufficient) bridge_format_call(&f.lowest_sufficient, buf);
        } else if (!err[0]) {
            abort();
        }
    } else if (!err[0]) {
        abort(); /* a failure must say why */
    }
    free(text);
    return 0;
}
