/* test_diff.c — unit tests of `arbiter diff` (core/tools/diff.c) and of
 * amendments (dsl/compile.c, dsl_compile_amended).
 *
 * Covers: identical rulesets (no region, every combination equal); one
 * clause changed (exactly that clause's region, with its count); a fact only
 * in B (reported as such, and splitting the regions it decides); a fact only
 * in A; an action renamed (every region naming it differs); an enum value
 * only B lists (A's ruling: the value does not exist); `--article`
 * filtering, also through `apply`; two regions with the same pair of rulings
 * merged into one `in {…}` constraint; an amendment that changes one clause
 * against the hand-edited copy; `remove clause`; two amendments in order;
 * the amended ruleset's name; amendment errors pointing into the amendment
 * (unknown clause, table and fact; base mismatch; a type clash in a replaced
 * clause).
 *
 * Every count is worked out by hand from docs/language.md and the brief of
 * `arbiter diff`: a region covers the product, over every testable fact of
 * either ruleset, of the number of values it allows (bool 2, enum its
 * values, int LO..HI its range, call 38). The arithmetic stands next to each
 * expected number.
 */

#include <jansson.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "diff.h"

#include "fixture.h"

/* ------------------------------------------------------------ the rules */

/* The base of most tests. Testable facts: kind 2 values, minutes 10
 * (0..9), repeated 2, bid 38 (a call): 2 * 10 * 2 * 38 = 1520 combinations.
 *   kind = late,  minutes 0..4            1A warning         5*2*38 = 380
 *   kind = late,  minutes 5..9, repeated  1B penalty(2)      5*1*38 = 190
 *   kind = late,  minutes 5..9, not rep.  1C > 4 penalty(1)  5*1*38 = 190
 *   kind = noise, repeated                2A penalty(3)     10*1*38 = 380
 *   kind = noise, not repeated            2B warning        10*1*38 = 380
 *                                                             total   1520 */
#define BASE                                                                                       \
    "ruleset \"base\" { title \"Basis\" }\n"                                                       \
    "fact kind : enum { late, noise }\n"                                                           \
    "  ask \"Wat is er gebeurd?\"\n"                                                               \
    "fact minutes : int 0..9\n"                                                                    \
    "  ask \"Hoeveel minuten?\"\n"                                                                 \
    "fact repeated : bool\n"                                                                       \
    "  ask \"Herhaald?\"\n"                                                                        \
    "fact bid : call\n"                                                                            \
    "  ask \"Welk bod?\"\n"                                                                        \
    "action warning text \"Waarschuwing.\"\n"                                                      \
    "action penalty(points: int) text \"Aftrek van {points} punten.\"\n"                           \
    "article 1 \"Te laat\" when kind == late {\n"                                                  \
    "  if minutes < 5 => 1A { warning }\n"                                                         \
    "  if repeated => 1B { penalty(2) }\n"                                                         \
    "  otherwise => 1C apply 4\n"                                                                  \
    "}\n"                                                                                          \
    "article 2 \"Lawaai\" when kind == noise {\n"                                                  \
    "  if repeated => 2A { penalty(3) }\n"                                                         \
    "  otherwise => 2B { warning }\n"                                                              \
    "}\n"                                                                                          \
    "article 4 \"Herhaling\" { penalty(1) }\n"

/* For the merge: x has 4 values, y 2: 8 combinations. */
#define MERGE_A                                                                                    \
    "ruleset \"merge\" { }\n"                                                                      \
    "fact x : enum { a, b, c, d }\n  ask \"x?\"\n"                                                 \
    "fact y : bool\n  ask \"y?\"\n"                                                                \
    "action warning text \"w\"\n"                                                                  \
    "action penalty(points: int) text \"p {points}\"\n"                                            \
    "article 1 when x != d {\n"                                                                    \
    "  if y => 1A { warning }\n"                                                                   \
    "  otherwise => 1B { penalty(1) }\n"                                                           \
    "}\n"                                                                                          \
    "article 2 when x == d { warning }\n"

#define MERGE_B                                                                                    \
    "ruleset \"merge\" { }\n"                                                                      \
    "fact x : enum { a, b, c, d }\n  ask \"x?\"\n"                                                 \
    "fact y : bool\n  ask \"y?\"\n"                                                                \
    "action warning text \"w\"\n"                                                                  \
    "action penalty(points: int) text \"p {points}\"\n"                                            \
    "article 1 when x != d {\n"                                                                    \
    "  if y => 1A { penalty(9) }\n"                                                                \
    "  if x == b => 1C { penalty(2) }\n"                                                           \
    "  otherwise => 1B { penalty(1) }\n"                                                           \
    "}\n"                                                                                          \
    "article 2 when x == d { warning }\n"

/* A ruling that never tests its only fact; the table decides the number. */
#define TABLE_BASE                                                                                 \
    "ruleset \"tab\" { }\n"                                                                        \
    "fact repeated : bool\n  ask \"r?\"\n"                                                         \
    "action penalty(points: int) text \"p {points}\"\n"                                            \
    "table fine(r: bool) : int { false => 1  true => 3 }\n"                                        \
    "article 1 when true { penalty(fine(repeated)) }\n"

/* An action argument that is a derived fact. */
#define DERIVED                                                                                    \
    "ruleset \"d\" { }\n"                                                                          \
    "fact m : int 0..9\n  ask \"m?\"\n"                                                            \
    "fact extra : int = m * 2\n"                                                                   \
    "action penalty(points: int) text \"p {points}\"\n"                                            \
    "article 1 when true { penalty(extra) }\n"

/* A ruleset that tests repeated but never kind. */
#define UNTESTED_KIND                                                                              \
    "ruleset \"e\" { }\n"                                                                          \
    "fact kind : enum { late, noise }\n  ask \"k?\"\n"                                             \
    "fact repeated : bool\n  ask \"r?\"\n"                                                         \
    "action warning text \"w\"\n"                                                                  \
    "action penalty(points: int) text \"p {points}\"\n"                                            \
    "article 1 when true { if repeated => 1A { penalty(1) } otherwise => 1B { warning } }\n"

/* ---------------------------------------------------------------- helpers */

/* A ruleset compiled from text (in a directory of its own, base/a.rules),
 * with amendment files am.rules (one) or am1.rules, am2.rules … applied. */
typedef struct compiled {
    ruleset *rs;
    int errors;
    char *out; /* everything the diag printed */
} compiled;

static void compile_amended(compiled *c, const char *rules, const char *const *amendments, int n) {
    char dir[64], base[128], paths[4][128];
    const char *am[4];
    snprintf(dir, sizeof dir, "/tmp/arbiter-unit-diff-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(base, sizeof base, "%s/base", dir);
    assert_int_equal(mkdir(base, 0755), 0);
    char file[160];
    snprintf(file, sizeof file, "%s/a.rules", base);
    fixture_write(file, rules);
    assert_true(n <= 4);
    for (int i = 0; i < n; i++) {
        if (n == 1)
            snprintf(paths[i], sizeof paths[i], "%s/am.rules", dir);
        else
            snprintf(paths[i], sizeof paths[i], "%s/am%d.rules", dir, i + 1);
        fixture_write(paths[i], amendments[i]);
        am[i] = paths[i];
    }
    size_t len = 0;
    c->out = NULL;
    FILE *mem = open_memstream(&c->out, &len);
    assert_non_null(mem);
    diag *d = diag_new(mem);
    c->rs = dsl_compile_amended(base, am, n, d);
    c->errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
    fixture_remove_tree(dir);
}

static void compiled_free(compiled *c) {
    ruleset_free(c->rs);
    free(c->out);
    memset(c, 0, sizeof *c);
}

/* Compiles rules that must compile, with amendments that must apply. */
static ruleset *must_compile_amended(const char *rules, const char *const *amendments, int n) {
    compiled c;
    compile_amended(&c, rules, amendments, n);
    if (!c.rs || c.errors) fail_msg("the rules do not compile:\n%s", c.out);
    ruleset *rs = c.rs;
    free(c.out);
    return rs;
}

static ruleset *must_compile(const char *rules) {
    return must_compile_amended(rules, NULL, 0);
}

/* The text with every occurrence of `from` replaced by `to` (there must be
 * one): B is written as an edit of A, so the edit is all that differs. */
static char *edited(const char *text, const char *from, const char *to) {
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = text; (p = strstr(p, from)); p += nf)
        n++;
    if (n == 0) fail_msg("\"%s\" is not in the text", from);
    char *out = malloc(strlen(text) + n * nt + 1), *o = out;
    assert_non_null(out);
    const char *p = text, *q;
    while ((q = strstr(p, from))) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, nt);
        o += nt;
        p = q + nf;
    }
    strcpy(o, p);
    return out;
}

static char *region_text(const diff_result *d, const diff_region *r) {
    strbuf sb;
    sb_init(&sb);
    diff_region_text(d, r, &sb);
    return sb_take(&sb);
}

/* Every region, for a failure message. */
static char *all_regions(const diff_result *d) {
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < d->nregions; i++) {
        char *t = region_text(d, &d->regions[i]);
        sb_printf(&sb, "  %s (%.0f): %s | %s\n", t, d->regions[i].count, d->regions[i].ruling_a,
                  d->regions[i].ruling_b);
        free(t);
    }
    sb_printf(&sb, "  differing %.0f, equal %.0f\n", d->differing, d->equal);
    return sb_take(&sb);
}

/* The region whose constraints read `text`; it must exist. */
static const diff_region *region(const diff_result *d, const char *text) {
    for (int i = 0; i < d->nregions; i++) {
        char *t = region_text(d, &d->regions[i]);
        bool same = strcmp(t, text) == 0;
        free(t);
        if (same) return &d->regions[i];
    }
    fail_msg("no region \"%s\" among:\n%s", text, all_regions(d));
    return NULL;
}

static void assert_region(const diff_result *d, const char *text, double count,
                          const char *ruling_a, const char *ruling_b) {
    const diff_region *r = region(d, text);
    if (r->count != count)
        fail_msg("region \"%s\" covers %.0f, expected %.0f", text, r->count, count);
    assert_string_equal(r->ruling_a, ruling_a);
    assert_string_equal(r->ruling_b, ruling_b);
}

static void assert_totals(const diff_result *d, int nregions, double differing, double equal) {
    if (d->nregions != nregions || d->differing != differing || d->equal != equal)
        fail_msg("%d regions, %.0f differing, %.0f equal; expected %d, %.0f, %.0f:\n%s",
                 d->nregions, d->differing, d->equal, nregions, differing, equal, all_regions(d));
}

static const diff_fact *fact(const diff_result *d, const char *name) {
    for (int f = 0; f < d->nfacts; f++)
        if (strcmp(d->facts[f].name, name) == 0) return &d->facts[f];
    fail_msg("no joint fact %s", name);
    return NULL;
}

/* An error "FILE:LINE:COL: error: …" where FILE ends in `file`, LINE is the
 * line of `fragment` in `text` and COL the column of `token` searched from
 * the fragment on; the error's line also holds `words`. */
static void assert_error_at(const compiled *c, const char *file, const char *text,
                            const char *fragment, const char *token, const char *words) {
    if (c->rs) fail_msg("expected the amendment to fail; it compiled");
    const char *at = strstr(text, fragment);
    if (!at) fail_msg("fragment \"%s\" not in the text", fragment);
    const char *tok = strstr(at, token);
    if (!tok) fail_msg("token \"%s\" not after \"%s\"", token, fragment);
    int line = 1;
    const char *line_start = text;
    for (const char *p = text; p < tok; p++)
        if (*p == '\n') {
            line++;
            line_start = p + 1;
        }
    char want[256];
    snprintf(want, sizeof want, "/%s:%d:%d: error: ", file, line, (int)(tok - line_start) + 1);
    const char *hit = c->out ? strstr(c->out, want) : NULL;
    if (!hit) fail_msg("expected \"%s\" in:\n%s", want, c->out ? c->out : "(null)");
    const char *eol = strchr(hit, '\n');
    char *msg = strndup(hit, eol ? (size_t)(eol - hit) : strlen(hit));
    assert_has(msg, words);
    free(msg);
}

/* -------------------------------------------------------- the diff itself */

static void test_identical_rulesets(void **state) {
    (void)state;
    ruleset *a = must_compile(BASE), *b = must_compile(BASE);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* No region; every combination is equal: 2 * 10 * 2 * 38 = 1520. */
    assert_totals(&d, 0, 0, 1520);
    assert_int_equal(d.nfacts, 4);
    for (int f = 0; f < d.nfacts; f++) {
        assert_true(d.facts[f].fa >= 0);
        assert_true(d.facts[f].fb >= 0);
    }
    assert_int_equal(fact(&d, "kind")->nvalues, 2);
    assert_int_equal(fact(&d, "minutes")->nvalues, 10);
    assert_int_equal(fact(&d, "repeated")->nvalues, 2);
    assert_int_equal(fact(&d, "bid")->nvalues, 38);
    assert_null(d.article);
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
}

static void test_one_clause_changed(void **state) {
    (void)state;
    char *text = edited(BASE, "penalty(2)", "penalty(5)");
    ruleset *a = must_compile(BASE), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* Exactly 1B's region: kind 1 * minutes 5..9 5 * repeated 1 * bid 38 =
     * 190; equal 1520 - 190 = 1330. bid is free: the region leaves it out. */
    assert_totals(&d, 1, 190, 1330);
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = true", 190, "1 > 1B: penalty(2)",
                  "1 > 1B: penalty(5)");
    /* The example takes the first value each constraint allows. */
    json_t *ex = diff_region_example(&d, &d.regions[0]);
    json_t *want = json_pack("{sssisb}", "kind", "late", "minutes", 5, "repeated", 1);
    if (!json_equal(ex, want))
        fail_msg("example %s", json_dumps(ex, JSON_COMPACT | JSON_SORT_KEYS));
    json_decref(ex);
    json_decref(want);
    /* And both rulings as JSON. */
    json_t *arts = json_object_get(d.regions[0].json_b, "articles");
    assert_int_equal(json_array_size(arts), 2);
    assert_string_equal(json_string_value(json_array_get(arts, 1)), "1B");
    assert_string_equal(json_string_value(json_object_get(d.regions[0].json_a, "status")),
                        "ruling");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

static void test_fact_added_in_b(void **state) {
    (void)state;
    char *t1 =
        edited(BASE, "fact bid : call\n", "fact bid : call\nfact loud : bool\n  ask \"Luid?\"\n");
    char *t2 =
        edited(t1, "  if repeated => 2A", "  if loud => 2C { penalty(4) }\n  if repeated => 2A");
    ruleset *a = must_compile(BASE), *b = must_compile(t2);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* loud is only B's: joined facts kind, minutes, repeated, bid, loud. */
    assert_int_equal(d.nfacts, 5);
    assert_int_equal(fact(&d, "loud")->fa, -1);
    assert_true(fact(&d, "loud")->fb >= 0);
    assert_true(fact(&d, "repeated")->fa >= 0 && fact(&d, "repeated")->fb >= 0);
    /* Product 1520 * 2 = 3040. loud = true splits article 2 in B; A's
     * ruling there still depends on repeated, so two regions, each
     * kind 1 * minutes 10 * repeated 1 * bid 38 * loud 1 = 380; differing
     * 760, equal 3040 - 760 = 2280. */
    assert_totals(&d, 2, 760, 2280);
    assert_region(&d, "kind = noise, repeated = true, loud = true", 380, "2 > 2A: penalty(3)",
                  "2 > 2C: penalty(4)");
    assert_region(&d, "kind = noise, repeated = false, loud = true", 380, "2 > 2B: warning",
                  "2 > 2C: penalty(4)");
    diff_free(&d);

    /* The other way round the fact is only A's, the counts the same. */
    diff_rulesets(b, a, NULL, &d);
    assert_int_equal(fact(&d, "loud")->fb, -1);
    assert_true(fact(&d, "loud")->fa >= 0);
    assert_totals(&d, 2, 760, 2280);
    assert_region(&d, "kind = noise, repeated = true, loud = true", 380, "2 > 2C: penalty(4)",
                  "2 > 2A: penalty(3)");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(t1);
    free(t2);
}

/* A situation either ruleset declares outside its scope has no ruling to
 * compare: it is in no region and counted apart, as an edition that holds
 * only some articles (bridge-1997) is compared with another on those. */
static void test_outside_either_scope_left_out(void **state) {
    (void)state;
    char *t1 = edited(BASE, "penalty(2)", "penalty(5)");
    char *t2 = edited(t1,
                      "article 2 \"Lawaai\" when kind == noise {\n"
                      "  if repeated => 2A { penalty(3) }\n"
                      "  otherwise => 2B { warning }\n"
                      "}\n",
                      "outside \"Lawaai staat hier niet in\" kind == noise\n");
    ruleset *a = must_compile(BASE), *b = must_compile(t2);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* Only 1B's region (190) differs; the noise situations, kind 1 *
     * minutes 10 * repeated 2 * bid 38 = 760, are B's outside: neither
     * differing nor equal. Equal: 1520 - 190 - 760 = 570. */
    assert_totals(&d, 1, 190, 570);
    assert_true(d.out_of_scope == 760);
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = true", 190, "1 > 1B: penalty(2)",
                  "1 > 1B: penalty(5)");
    diff_free(&d);
    /* The same with the outside on A's side. */
    diff_rulesets(b, a, NULL, &d);
    assert_totals(&d, 1, 190, 570);
    assert_true(d.out_of_scope == 760);
    diff_free(&d);
    /* Without any outside nothing is left out. */
    diff_rulesets(a, a, NULL, &d);
    assert_true(d.out_of_scope == 0);
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(t1);
    free(t2);
}

static void test_action_renamed(void **state) {
    (void)state;
    char *text = edited(BASE, "warning", "caution");
    ruleset *a = must_compile(BASE), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* warning appears in 1A and 2B; both differ, nothing else does.
     * 1A: kind 1 * minutes 0..4 5 * repeated 2 * bid 38 = 380;
     * 2B: kind 1 * minutes 10 * repeated 1 * bid 38 = 380;
     * differing 760, equal 1520 - 760 = 760. */
    assert_totals(&d, 2, 760, 760);
    assert_region(&d, "kind = late, minutes in {0..4}", 380, "1 > 1A: warning", "1 > 1A: caution");
    assert_region(&d, "kind = noise, repeated = false", 380, "2 > 2B: warning", "2 > 2B: caution");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

static void test_enum_value_added_in_b(void **state) {
    (void)state;
    char *t1 = edited(BASE, "enum { late, noise }", "enum { late, noise, smoke }");
    size_t n = strlen(t1);
    const char *more = "article 3 \"Rook\" when kind == smoke { warning }\n";
    char *t2 = malloc(n + strlen(more) + 1);
    assert_non_null(t2);
    strcpy(t2, t1);
    strcat(t2, more);
    ruleset *a = must_compile(BASE), *b = must_compile(t2);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* kind has 3 joint values; smoke is B's only. */
    const diff_fact *k = fact(&d, "kind");
    assert_int_equal(k->nvalues, 3);
    int smoke = -1;
    for (int i = 0; i < k->nvalues; i++)
        if (strcmp(k->names[i], "smoke") == 0) smoke = i;
    assert_true(smoke >= 0);
    assert_true(k->va[smoke] == DIFF_ABSENT);
    assert_true(k->vb[smoke] == 2);
    /* Product 3 * 10 * 2 * 38 = 2280. kind = smoke: 1 * 10 * 2 * 38 = 760
     * differ (A has no such value); the other 2 * 10 * 2 * 38 = 1520 are
     * equal. */
    assert_totals(&d, 1, 760, 1520);
    assert_region(&d, "kind = smoke", 760, "(this value does not exist in this ruleset)",
                  "3: warning");
    assert_string_equal(json_string_value(json_object_get(d.regions[0].json_a, "status")),
                        "unknown_value");
    json_t *ex = diff_region_example(&d, &d.regions[0]);
    assert_string_equal(json_string_value(json_object_get(ex, "kind")), "smoke");
    json_decref(ex);
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(t1);
    free(t2);
}

/* Regression: a value only B lists makes A's ruling "(this value does not exist
 * in this ruleset)" only where A's graph tests the fact; where A never tests
 * it, A's ruling for the missing value is taken to be the ruling of the
 * other values, and the situations count as equal. */
static void test_enum_value_added_to_untested_fact(void **state) {
    (void)state;
    char *text = edited(UNTESTED_KIND, "enum { late, noise }", "enum { late, noise, smoke }");
    ruleset *a = must_compile(UNTESTED_KIND), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* Product kind 3 * repeated 2 = 6. kind = smoke does not exist in A:
     * 1 * 1 = 1 combination for each of B's two rulings (1A, 1B), which
     * differ, so two regions; equal: late, noise * 2 = 4. */
    assert_totals(&d, 2, 2, 4);
    assert_region(&d, "kind = smoke, repeated = true", 1,
                  "(this value does not exist in this ruleset)", "1 > 1A: penalty(1)");
    assert_region(&d, "kind = smoke, repeated = false", 1,
                  "(this value does not exist in this ruleset)", "1 > 1B: warning");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

/* Regression: the same for an int range B widens: minutes 10..12 exist in B only,
 * but article 2 (kind = noise) never tests minutes, so those situations are
 * counted as equal instead of as values A does not have. */
static void test_int_range_widened_in_b(void **state) {
    (void)state;
    char *text = edited(BASE, "int 0..9", "int 0..12");
    ruleset *a = must_compile(BASE), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* Product 2 * 13 * 2 * 38 = 1976. minutes 10..12 exist in B only: 3 *
     * 2 * 2 * 38 = 456, in four regions (B's rulings 1B, 1C, 2A, 2B) of 1 *
     * 3 * 1 * 38 = 114 each; equal: the 1520 of minutes 0..9. */
    assert_totals(&d, 4, 456, 1520);
    const char *none = "(this value does not exist in this ruleset)";
    assert_region(&d, "kind = late, minutes in {10..12}, repeated = true", 114, none,
                  "1 > 1B: penalty(2)");
    assert_region(&d, "kind = late, minutes in {10..12}, repeated = false", 114, none,
                  "1 > 1C > 4: penalty(1)");
    assert_region(&d, "kind = noise, minutes in {10..12}, repeated = true", 114, none,
                  "2 > 2A: penalty(3)");
    assert_region(&d, "kind = noise, minutes in {10..12}, repeated = false", 114, none,
                  "2 > 2B: warning");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

static void test_article_filter(void **state) {
    (void)state;
    /* B changes 1B, 2A and article 4 (reached from 1C through apply). */
    char *t1 = edited(BASE, "penalty(2)", "penalty(5)");
    char *t2 = edited(t1, "penalty(3)", "penalty(7)");
    char *t3 = edited(t2, "{ penalty(1) }", "{ penalty(6) }");
    ruleset *a = must_compile(BASE), *b = must_compile(t3);
    diff_result d;

    /* Whole rulesets: 1B 190 + 1C 190 + 2A 380 = 760; equal 1520 - 760. */
    diff_rulesets(a, b, NULL, &d);
    assert_totals(&d, 3, 760, 760);
    assert_region(&d, "kind = noise, repeated = true", 380, "2 > 2A: penalty(3)",
                  "2 > 2A: penalty(7)");
    diff_free(&d);

    /* Article 1: only kind = late, 10 * 2 * 38 = 760 situations; 1B and 1C
     * (which passes through 1 and then 4) differ: 190 + 190 = 380; the
     * other 760 - 380 = 380 (1A) are equal. 2A is left out. */
    diff_rulesets(a, b, "1", &d);
    assert_string_equal(d.article, "1");
    assert_totals(&d, 2, 380, 380);
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = true", 190, "1 > 1B: penalty(2)",
                  "1 > 1B: penalty(5)");
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = false", 190,
                  "1 > 1C > 4: penalty(1)", "1 > 1C > 4: penalty(6)");
    diff_free(&d);

    /* Article 4 is reached through apply only: kind = late, minutes 5..9,
     * not repeated: 1 * 5 * 1 * 38 = 190, all of them differing. */
    diff_rulesets(a, b, "4", &d);
    assert_totals(&d, 1, 190, 0);
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = false", 190,
                  "1 > 1C > 4: penalty(1)", "1 > 1C > 4: penalty(6)");
    diff_free(&d);

    /* Article 2: kind = noise, 10 * 2 * 38 = 760; 2A's 380 differ, 2B's
     * 380 are equal. */
    diff_rulesets(a, b, "2", &d);
    assert_totals(&d, 1, 380, 380);
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(t1);
    free(t2);
    free(t3);
}

static void test_regions_merged(void **state) {
    (void)state;
    ruleset *a = must_compile(MERGE_A), *b = must_compile(MERGE_B);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* x = a, c: y decides between 1A (differs: warning / penalty(9)) and 1B
     * (equal). x = b: y = true gives the same pair of rulings as for a and
     * c, y = false 1B / 1C. x = d: article 2 in both, equal.
     * The regions {x in {a, c}, y = true} and {x = b, y = true} have the
     * same pair and differ in x only: one region x in {a, b, c}, 3 * 1 = 3.
     * {x = b, y = false}: 1. Differing 4, equal 8 - 4 = 4 (a, c with
     * y = false; d with either y). */
    assert_totals(&d, 2, 4, 4);
    assert_region(&d, "x in {a, b, c}, y = true", 3, "1 > 1A: warning", "1 > 1A: penalty(9)");
    assert_region(&d, "x = b, y = false", 1, "1 > 1B: penalty(1)", "1 > 1C: penalty(2)");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
}

/* Regression: rulings are compared by the words of their action arguments, so a
 * changed table row, which changes the number a ruling names, goes unseen:
 * `arbiter diff` says nothing differs while `--cases` finds the change. */
static void test_table_row_changed(void **state) {
    (void)state;
    const char *am[] = {"amendment \"Boete\" { base \"tab\" cite \"B1\" }\n"
                        "replace row fine true => 9\n"};
    ruleset *a = must_compile(TABLE_BASE), *b = must_compile_amended(TABLE_BASE, am, 1);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* repeated = true: penalty 3 in A, 9 in B: 1 combination of 2;
     * repeated = false (penalty 1 in both) is equal. */
    assert_totals(&d, 1, 1, 1);
    region(&d, "repeated = true");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
}

/* Regression: the same for a derived fact an action argument names: B derives
 * extra as m * 3 instead of m * 2, every ruling but m = 0's changes, and
 * the diff sees the same words "penalty(extra)" on both sides. */
static void test_derived_fact_changed(void **state) {
    (void)state;
    char *text = edited(DERIVED, "m * 2", "m * 3");
    ruleset *a = must_compile(DERIVED), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* m has 10 values; 2m = 3m only for m = 0: 9 differ, 1 is equal (how
     * many regions the 9 make depends on how rulings are worded). */
    if (d.differing != 9 || d.equal != 1)
        fail_msg("expected 9 differing, 1 equal:\n%s", all_regions(&d));
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

/* ------------------------------------------------------------ wide facts */

/* w has 256 values: 256 combinations. A node on w is rebuilt as one node of
 * 256 children. Rebuilt value by value, it took 256 steps that each left a
 * node of 256 children behind, 65 536 children per node: on
 * klaverjas-nkf-1976 that filled the graph's budget, and the diff reported
 * "nothing differs". */
#define WIDE                                                                                       \
    "ruleset \"wide\" { title \"Breed\" }\n"                                                       \
    "fact w : int 0..255\n  ask \"w?\"\n"                                                          \
    "action warning text \"Waarschuwing.\"\n"                                                      \
    "action penalty(points: int) text \"Aftrek van {points} punten.\"\n"                           \
    "article 1 when w == 7 { warning }\n"                                                          \
    "article 2 when w != 7 { penalty(1) }\n"

static void test_wide_fact_rebuilt_node_by_node(void **state) {
    (void)state;
    char *text = edited(WIDE, "penalty(1)", "penalty(2)");
    ruleset *a = must_compile(WIDE), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* w != 7: 255 differ; w = 7 (warning in both): 1 equal. */
    assert_totals(&d, 1, 255, 1);
    region(&d, "w in {0..6, 8..255}");
    assert_false(d.incomplete);
    /* A's node, B's node, the paired node, and the few the paired
     * constants leave: a handful of 256-wide nodes, not 2 * 256 of them. */
    if (d.graph_kids > 8 * 256) fail_msg("the joint graph holds %ld children", d.graph_kids);
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

/* Two facts of 256 values and an argument that reads both: 2 * 256 * 256 =
 * 131 072 combinations, 65 536 with k. As written, the argument is one
 * ruling; by value it would be 511. */
#define WIDE_SUM                                                                                   \
    "ruleset \"sum\" { title \"Som\" }\n"                                                          \
    "fact k : bool\n  ask \"k?\"\n"                                                                \
    "fact p : int 0..255\n  ask \"p?\"\n"                                                          \
    "fact r : int 0..255\n  ask \"r?\"\n"                                                          \
    "action warning text \"Waarschuwing.\"\n"                                                      \
    "action score(points: int) text \"{points} punten.\"\n"                                        \
    "article 1 when k { score(p + r) }\n"                                                          \
    "article 2 when not k { warning }\n"

static void test_wide_argument_as_written(void **state) {
    (void)state;
    char *text = edited(WIDE_SUM, "{ warning }\n", "{ score(0) }\n");
    ruleset *a = must_compile(WIDE_SUM), *b = must_compile(text);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* not k: warning against score(0), 65 536; k: score(p + r) in both. */
    assert_totals(&d, 1, 65536, 65536);
    region(&d, "k = false");
    assert_string_equal(d.regions[0].ruling_a, "2: warning");
    assert_string_equal(d.regions[0].ruling_b, "2: score(0)");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    free(text);
}

/* Written differently, equal in value: r + p is p + r everywhere; r + r is
 * p + r only where p = r. */
static void test_argument_written_differently(void **state) {
    (void)state;
    char *swapped = edited(WIDE_SUM, "score(p + r)", "score(r + p)"),
         *doubled = edited(WIDE_SUM, "score(p + r)", "score(r + r)");
    ruleset *a = must_compile(WIDE_SUM), *b = must_compile(swapped), *c = must_compile(doubled);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    assert_totals(&d, 0, 0, 131072);
    diff_free(&d);
    diff_rulesets(a, c, NULL, &d);
    /* k and p != r: 256 * 255 = 65 280 differ; k and p = r: 256 equal,
     * not k: 65 536 equal. */
    assert_totals(&d, 1, 65280, 65792);
    assert_false(d.regions[0].exact); /* p != r is no box of values */
    assert_string_equal(d.regions[0].ruling_a, "1: score((p + r))");
    assert_string_equal(d.regions[0].ruling_b, "1: score((r + r))");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
    ruleset_free(c);
    free(swapped);
    free(doubled);
}

/* ------------------------------------------------------------- amendments */

static void test_amendment_equals_hand_edit(void **state) {
    (void)state;
    const char *am[] = {"amendment \"Zwaarder\" { base \"base\" cite \"A1\" }\n"
                        "replace clause 1B => 1B { penalty(5) }\n"};
    char *text = edited(BASE, "penalty(2)", "penalty(5)");
    ruleset *a = must_compile(BASE), *hand = must_compile(text),
            *amended = must_compile_amended(BASE, am, 1);
    /* Named BASE+CITE. */
    assert_string_equal(amended->name, "base+A1");
    diff_result dh, da;
    diff_rulesets(a, hand, NULL, &dh);
    diff_rulesets(a, amended, NULL, &da);
    /* The same one region as test_one_clause_changed: 190, equal 1330. */
    assert_totals(&da, 1, 190, 1330);
    assert_totals(&dh, 1, 190, 1330);
    for (int i = 0; i < da.nregions; i++) {
        char *ta = region_text(&da, &da.regions[i]), *th = region_text(&dh, &dh.regions[i]);
        assert_string_equal(ta, th);
        assert_true(da.regions[i].count == dh.regions[i].count);
        assert_string_equal(da.regions[i].ruling_a, dh.regions[i].ruling_a);
        assert_string_equal(da.regions[i].ruling_b, dh.regions[i].ruling_b);
        free(ta);
        free(th);
    }
    /* And the amended ruleset rules exactly as the hand-edited one. */
    diff_result same;
    diff_rulesets(hand, amended, NULL, &same);
    assert_totals(&same, 0, 0, 1520);
    diff_free(&same);
    diff_free(&dh);
    diff_free(&da);
    ruleset_free(a);
    ruleset_free(hand);
    ruleset_free(amended);
    free(text);
}

static void test_amendment_named_by_title_without_cite(void **state) {
    (void)state;
    const char *am[] = {"amendment \"Zwaarder\" { base \"base\" }\n"
                        "replace clause 1B => 1B { penalty(5) }\n"};
    ruleset *rs = must_compile_amended(BASE, am, 1);
    assert_string_equal(rs->name, "base+Zwaarder");
    ruleset_free(rs);
}

static void test_amendment_remove_clause(void **state) {
    (void)state;
    const char *am[] = {"amendment \"Geen waarschuwing\" { base \"base\" cite \"A2\" }\n"
                        "remove clause 1A\n"};
    ruleset *a = must_compile(BASE), *b = must_compile_amended(BASE, am, 1);
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* Without 1A, kind = late with minutes 0..4 falls to 1B or 1C:
     * 1 * 5 * 1 * 38 = 190 each, differing 380, equal 1520 - 380 = 1140. */
    assert_totals(&d, 2, 380, 1140);
    assert_region(&d, "kind = late, minutes in {0..4}, repeated = true", 190, "1 > 1A: warning",
                  "1 > 1B: penalty(2)");
    assert_region(&d, "kind = late, minutes in {0..4}, repeated = false", 190, "1 > 1A: warning",
                  "1 > 1C > 4: penalty(1)");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
}

static void test_two_amendments_in_order(void **state) {
    (void)state;
    const char *am[] = {"amendment \"Eerste\" { base \"base\" cite \"A1\" }\n"
                        "replace clause 1B => 1B { penalty(5) }\n",
                        "amendment \"Tweede\" { base \"base\" cite \"A2\" }\n"
                        "replace clause 1B => 1B { penalty(6) }\n"};
    ruleset *a = must_compile(BASE), *b = must_compile_amended(BASE, am, 2);
    assert_string_equal(b->name, "base+A1+A2");
    diff_result d;
    diff_rulesets(a, b, NULL, &d);
    /* The second wins: 1B's region, 190, now penalty(6). */
    assert_totals(&d, 1, 190, 1330);
    assert_region(&d, "kind = late, minutes in {5..9}, repeated = true", 190, "1 > 1B: penalty(2)",
                  "1 > 1B: penalty(6)");
    diff_free(&d);
    ruleset_free(a);
    ruleset_free(b);
}

static void test_amendment_unknown_clause(void **state) {
    (void)state;
    const char *text = "amendment \"Onbekend\" { base \"base\" cite \"A3\" }\n"
                       "replace clause 1Z => 1Z { penalty(5) }\n";
    compiled c;
    compile_amended(&c, BASE, &text, 1);
    /* Line 2, at the citation the base does not have. */
    assert_error_at(&c, "am.rules", text, "replace clause", "1Z", "1Z");
    compiled_free(&c);
}

static void test_amendment_base_mismatch(void **state) {
    (void)state;
    const char *text = "amendment \"Ander\" { base \"bridge-2017\" cite \"A4\" }\n"
                       "replace clause 1B => 1B { penalty(5) }\n";
    compiled c;
    compile_amended(&c, BASE, &text, 1);
    assert_null(c.rs);
    /* Line 1 of the amendment: its header names another base. */
    assert_has(c.out, "/am.rules:1:");
    assert_has(c.out, "bridge-2017");
    compiled_free(&c);
}

static void test_amendment_type_clash(void **state) {
    (void)state;
    const char *text = "amendment \"Type\" { base \"base\" cite \"A5\" }\n"
                       "replace clause 1B => 1B { penalty(true) }\n";
    compiled c;
    compile_amended(&c, BASE, &text, 1);
    /* penalty takes an int: the error is at `true`, in the amendment. */
    assert_error_at(&c, "am.rules", text, "penalty(true)", "true", "bool");
    compiled_free(&c);
}

static void test_amendment_unknown_table_and_fact(void **state) {
    (void)state;
    const char *table = "amendment \"Tabel\" { base \"tab\" cite \"A6\" }\n"
                        "replace row fines true => 9\n";
    compiled c;
    compile_amended(&c, TABLE_BASE, &table, 1);
    assert_error_at(&c, "am.rules", table, "replace row", "fines", "fines");
    compiled_free(&c);

    const char *fact_text = "amendment \"Feit\" { base \"base\" cite \"A7\" }\n"
                            "remove fact loudness\n";
    compile_amended(&c, BASE, &fact_text, 1);
    assert_error_at(&c, "am.rules", fact_text, "remove fact", "loudness", "loudness");
    compiled_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_rulesets),
        cmocka_unit_test(test_one_clause_changed),
        cmocka_unit_test(test_fact_added_in_b),
        cmocka_unit_test(test_outside_either_scope_left_out),
        cmocka_unit_test(test_action_renamed),
        cmocka_unit_test(test_enum_value_added_in_b),
        cmocka_unit_test(test_enum_value_added_to_untested_fact),
        cmocka_unit_test(test_int_range_widened_in_b),
        cmocka_unit_test(test_article_filter),
        cmocka_unit_test(test_regions_merged),
        cmocka_unit_test(test_table_row_changed),
        cmocka_unit_test(test_derived_fact_changed),
        cmocka_unit_test(test_wide_fact_rebuilt_node_by_node),
        cmocka_unit_test(test_wide_argument_as_written),
        cmocka_unit_test(test_argument_written_differently),
        cmocka_unit_test(test_amendment_equals_hand_edit),
        cmocka_unit_test(test_amendment_named_by_title_without_cite),
        cmocka_unit_test(test_amendment_remove_clause),
        cmocka_unit_test(test_two_amendments_in_order),
        cmocka_unit_test(test_amendment_unknown_clause),
        cmocka_unit_test(test_amendment_base_mismatch),
        cmocka_unit_test(test_amendment_type_clash),
        cmocka_unit_test(test_amendment_unknown_table_and_fact),
    };
    return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
