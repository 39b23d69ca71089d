/* load.c — the image when it is current, else the compiler. */
#include "load.h"

#include "cache.h"
#include "compile.h"

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
