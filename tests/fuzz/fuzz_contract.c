/* fuzz_contract.c — contract notation ("4SX+1", "3NTXX-2", "PASS"): either
 * a contract whose fields are in range or a one-line error. */
#include "fuzz.h"

#include "bridge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_cstring(data, size);
    bridge_contract c;
    char err[200];
    err[0] = 0;
    if (bridge_parse_contract(text, &c, err, sizeof err)) {
        /* what the scorer relies on */
        if (!c.passed_out &&
            (c.level < 1 || c.level > 7 || c.denom > DENOM_NT || c.doubling < 0 || c.doubling > 2 ||
             c.level + 6 + c.result < 0 || c.level + 6 + c.result > 13))
            abort();
    } else if (!memchr(err, 0, sizeof err) || !err[0]) {
        abort(); /* a failure must say why */
    }
    free(text);
    return 0;
}
