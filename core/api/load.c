/* load.c — the image when it is current, else the compiler. */
#include "load.h"

#include "cache.h"
#include "compile.h"

#include <stdio.h>

ruleset *load_or_compile(const char *path, const char *const *amendments, int namendments, diag *d,
                         bool *cached) {
    ruleset *rs = namendments ? NULL : cache_load(path);
    if (cached) *cached = rs != NULL;
    if (rs) return rs;
    int before = diag_reports(d);
    rs = dsl_compile_amended(path, amendments, namendments, d);
    /* An image holds no warnings: a ruleset that has some is compiled
     * each time, so that they are shown each time. */
    if (rs && !namendments && diag_reports(d) == before) cache_store(rs, path);
    return rs;
}

/* The amendments argument of arb_load_amended and arb_check: a count that is not
 * negative, with a path behind each. False with the reason in why. */
bool load_amendments_ok(const char *const *amendments, int n, char *why, size_t size) {
    why[0] = 0;
    if (n < 0)
        snprintf(why, size, "the number of amendments is %d; it cannot be negative", n);
    else if (n > 0 && !amendments)
        snprintf(why, size, "%d amendments, but no list of them (NULL)", n);
    for (int i = 0; !why[0] && i < n; i++)
        if (!amendments[i]) snprintf(why, size, "amendment %d of %d is NULL, not a path", i + 1, n);
    return !why[0];
}
