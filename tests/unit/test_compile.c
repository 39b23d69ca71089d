/* test_compile.c — unit tests of the compiler (dsl/compile*.c) through dsl_compile.
 *
 * Covers: type errors (an enum value not in the enum, with the did-you-mean
 * hint; int compared with bool; a condition that is not a bool; wrong
 * action arity; unknown action, fact, table, article; a {placeholder} that
 * is not a parameter), duplicate declarations, derived-fact cycles, apply
 * cycles, unreachable clauses (after an earlier clause, outside the `when`,
 * excluded by an invariant, a second `otherwise`, a repeated match value),
 * `from auction.X` (unknown, wrong type, enum lacking a value the record can
 * return, overridable without from), tables (missing row reported with its
 * key, default row, key outside the range, a row given twice), includes (a
 * shared vocabulary directory, include cycles read once), the `ruleset`
 * header (two, none).
 *
 * Each rule text is written into a fresh temporary directory and compiled;
 * error positions are worked out from the text itself (line of a fragment,
 * column of a token in it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "expr.h"

/* ---------------------------------------------------------------- helpers */

/* A small vocabulary most tests start from. */
#define VOCAB                                                                                      \
    "ruleset \"unit\" { title \"Eenheid\" game bridge }\n"                                         \
    "type size = enum { small \"klein\", large \"groot\" }\n"                                      \
    "fact irregularity : enum { late \"te laat\", noise \"lawaai\" }\n"                            \
    "  ask \"Wat is er gebeurd?\"\n"                                                               \
    "fact minutes : int 0..60\n"                                                                   \
    "  ask \"Hoeveel minuten?\"\n"                                                                 \
    "fact repeated : bool\n"                                                                       \
    "  ask \"Eerder gebeurd?\"\n"                                                                  \
    "fact volume : size\n"                                                                         \
    "  ask \"Hoe hard?\"\n"                                                                        \
    "table fine(s: size, r: bool) : int {\n"                                                       \
    "  small, false => 1\n"                                                                        \
    "  small, true => 2\n"                                                                         \
    "  large, false => 3\n"                                                                        \
    "  large, true => 6\n"                                                                         \
    "}\n"                                                                                          \
    "action warning text \"Waarschuwing.\"\n"                                                      \
    "action penalty(points: int) text \"Aftrek van {points} punten.\"\n"                           \
    "action see(article: cite) text \"Zie artikel {article}.\"\n"

typedef struct compiled {
    ruleset *rs;
    int errors;
    char *out;        /* everything the diag printed */
    const char *text; /* the text of a.rules, for positions */
} compiled;

static void remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dp = opendir(path);
        if (dp) {
            struct dirent *e;
            while ((e = readdir(dp))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char sub[1024];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
            closedir(dp);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void make_temp_dir(char *buf, size_t n) {
    snprintf(buf, n, "/tmp/arbiter-unit-compile-XXXXXX");
    assert_non_null(mkdtemp(buf));
}

/* Writes root/rel, creating one level of subdirectory if rel has one. */
static void write_file(const char *root, const char *rel, const char *text) {
    char path[1024];
    const char *slash = strchr(rel, '/');
    if (slash) {
        snprintf(path, sizeof path, "%s/%.*s", root, (int)(slash - rel), rel);
        mkdir(path, 0755);
    }
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void compile_path(compiled *c, const char *path) {
    size_t len = 0;
    FILE *mem = open_memstream(&c->out, &len);
    assert_non_null(mem);
    diag *d = diag_new(mem);
    c->rs = dsl_compile(path, d);
    c->errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
}

/* Compiles a ruleset directory holding one file, a.rules. */
static void compile_text(compiled *c, const char *rules) {
    char dir[64];
    make_temp_dir(dir, sizeof dir);
    write_file(dir, "a.rules", rules);
    c->text = rules;
    compile_path(c, dir);
    remove_tree(dir);
}

static void compiled_free(compiled *c) {
    ruleset_free(c->rs);
    free(c->out);
    memset(c, 0, sizeof *c);
}

static void assert_contains(const char *text, const char *needle) {
    if (!text || !strstr(text, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, text ? text : "(null)");
}

static void assert_compiles(compiled *c, const char *rules) {
    compile_text(c, rules);
    if (!c->rs || c->errors) fail_msg("expected no errors:\n%s", c->out);
}

/* "a.rules:LINE:COL: error: MSG" where LINE is the line of `fragment` in the
 * text and COL the column of `token`, searched from the fragment on. */
static void assert_error_at(const compiled *c, const char *fragment, const char *token,
                            const char *msg) {
    const char *at = strstr(c->text, fragment);
    if (!at) fail_msg("fragment \"%s\" not in the rule text", fragment);
    const char *tok = strstr(at, token);
    if (!tok) fail_msg("token \"%s\" not after \"%s\"", token, fragment);
    int line = 1;
    const char *line_start = c->text;
    for (const char *p = c->text; p < tok; p++)
        if (*p == '\n') {
            line++;
            line_start = p + 1;
        }
    char want[512];
    snprintf(want, sizeof want, "a.rules:%d:%d: error: %s", line, (int)(tok - line_start) + 1, msg);
    assert_contains(c->out, want);
}

static void assert_failed(const compiled *c, int errors) {
    assert_null(c->rs);
    if (c->errors != errors) fail_msg("%d errors, expected %d:\n%s", c->errors, errors, c->out);
}

/* --------------------------------------------------------- a good ruleset */

static void test_vocabulary_compiles(void **state) {
    (void)state;
    compiled c;
    assert_compiles(&c, VOCAB "article 1 \"Alles\" when true { warning }\n");
    ruleset *rs = c.rs;
    assert_string_equal(rs->name, "unit");
    assert_string_equal(rs->title, "Eenheid");
    assert_string_equal(rs->game, "bridge");
    assert_int_equal(rs->nfacts, 4);
    assert_int_equal(rs->nactions, 3);
    assert_int_equal(rs->ntables, 1);
    assert_int_equal(rs->narticles, 1);
    assert_string_equal(rs->articles[0].title, "Alles");
    assert_true(rs->articles[0].has_when);
    /* graph variables are the testable input facts in declaration order */
    assert_int_equal(rs->nvars, 4);
    static const char *const order[] = {"irregularity", "minutes", "repeated", "volume"};
    for (int v = 0; v < 4; v++)
        assert_string_equal(rs->facts[rs->var_fact[v]].name, order[v]);
    assert_int_equal(rs->graph->domain[1], 61);
    assert_int_equal(rs->graph->lo[1], 0);
    /* the named type keeps its labels */
    const rs_type *size = rs->facts[rs_find_fact(rs, "volume")].type;
    assert_int_equal(size->kind, TY_ENUM);
    assert_string_equal(size->labels[1], "groot");
    compiled_free(&c);
}

static void test_syntax_error_stops_compilation(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact broken bool\narticle 1 when true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "fact broken bool", "bool", "unexpected 'bool'");
    compiled_free(&c);
}

/* ------------------------------------------------------------ type errors */

static void test_enum_value_not_in_enum(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when irregularity == lat { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "when irregularity == lat", "lat", "'lat' is neither a value of");
    assert_contains(c.out, "hint: did you mean 'late'?");
    compiled_free(&c);
}

static void test_enum_value_of_another_enum(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when volume == noise { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "when volume == noise", "noise",
                    "'noise' is neither a value of size nor a fact");
    compiled_free(&c);
}

static void test_int_compared_with_bool(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when minutes == true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "when minutes == true", "true", "expected int 0..60, found bool");
    compiled_free(&c);
}

static void test_condition_must_be_bool(void **state) {
    (void)state;
    compiled c;
    compile_text(
        &c,
        VOCAB "article 1 when true { if minutes => 1A { warning } otherwise => 1B { warning } }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "if minutes", "minutes", "expected bool, found int 0..60");
    compiled_free(&c);
}

static void test_int_range_of_256_values_can_be_tested(void **state) {
    (void)state;
    compiled c;
    /* 0..255 has 256 values: testable */
    assert_compiles(&c, VOCAB
                    "fact m : int 0..255\n  ask \"m?\"\n"
                    "article 1 when m > 100 { warning }\narticle 2 when m <= 100 { warning }\n");
    assert_int_equal(c.rs->graph->domain[c.rs->facts[rs_find_fact(c.rs, "m")].var], 256);
    compiled_free(&c);
    /* 0..256 has 257: it may be used in arguments, not tested */
    compile_text(&c, VOCAB
                 "fact m : int 0..256\n  ask \"m?\"\n"
                 "article 1 when m > 100 { penalty(m) }\narticle 2 when true { penalty(m) }\n");
    assert_null(c.rs);
    assert_error_at(&c, "when m > 100", "m >",
                    "fact 'm' (int 0..256) cannot be tested in a decision");
    compiled_free(&c);
}

static void test_unknown_fact_compared_is_one_error(void **state) {
    (void)state;
    compiled c;
    /* the unknown name is the mistake; its missing type is no second one */
    compile_text(&c, VOCAB "fact g : bool = nosuch > 15\narticle 1 when g { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "nosuch > 15", "nosuch", "unknown fact 'nosuch'");
    compiled_free(&c);
}

static void test_action_argument_type(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { penalty(repeated) }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "penalty(repeated)", "repeated", "expected int, found bool");
    compiled_free(&c);
}

static void test_wrong_action_arity(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB
                 "article 1 when true { penalty(1, 2) }\narticle 2 when true { warning(1) }\n");
    assert_failed(&c, 2);
    assert_error_at(&c, "penalty(1, 2)", "penalty", "action 'penalty' takes 1 argument, given 2");
    assert_error_at(&c, "warning(1)", "warning", "action 'warning' takes 0 arguments, given 1");
    compiled_free(&c);
}

static void test_unknown_action(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { warnng }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "{ warnng }", "warnng", "unknown action 'warnng'");
    assert_contains(c.out, "hint: did you mean 'warning'?");
    compiled_free(&c);
}

static void test_unknown_fact(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when repeatd { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "when repeatd", "repeatd", "unknown fact 'repeatd'");
    assert_contains(c.out, "hint: did you mean 'repeated'?");
    compiled_free(&c);
}

static void test_unknown_table(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { penalty(fin(volume, repeated)) }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "penalty(fin(", "fin(", "unknown table or function 'fin'");
    compiled_free(&c);
}

static void test_table_key_count(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { penalty(fine(volume)) }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "penalty(fine(", "fine(", "table 'fine' takes 2 keys, given 1");
    compiled_free(&c);
}

static void test_unknown_article_in_apply(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { apply 9 }\narticle 8 { warning }\n");
    assert_failed(&c, 1);
    /* at `apply` or at its article number: either names the culprit */
    const char *at_apply = strstr(c.out, "no article 9 in this ruleset");
    assert_non_null(at_apply);
    char apply_col[64], number_col[64];
    int line = 1;
    for (const char *p = c.text; p < strstr(c.text, "{ apply 9 }"); p++)
        line += *p == '\n';
    snprintf(apply_col, sizeof apply_col, "a.rules:%d:23: error: no article 9", line);
    snprintf(number_col, sizeof number_col, "a.rules:%d:29: error: no article 9", line);
    assert_true(strstr(c.out, apply_col) || strstr(c.out, number_col));
    assert_contains(c.out, "hint: did you mean ");
    compiled_free(&c);
}

static void test_placeholder_not_a_parameter(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "action fined(pts: int) text \"Aftrek van {points} punten.\"\n"
                           "article 1 when true { fined(3) }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "action fined", "fined",
                    "the message of 'fined' uses {points}, which is not a parameter");
    compiled_free(&c);
}

static void test_english_placeholder_not_a_parameter(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "action fined(pts: int) text \"Aftrek van {pts} punten.\" en \"A "
                           "deduction of {points} points.\"\n"
                           "article 1 when true { fined(3) }\n");
    assert_failed(&c, 1);
    assert_contains(c.out, "uses {points}, which is not a parameter");
    compiled_free(&c);
}

/* ----------------------------------------------------------- duplicates */

static void test_duplicate_fact_action_table(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact repeated : bool\n"
                           "action warning text \"nog eens\"\n"
                           "table fine(s: size) : int { _ => 1 }\n"
                           "article 1 when true { warning }\n");
    assert_failed(&c, 3);
    assert_error_at(&c, "fact repeated : bool\naction", "repeated",
                    "fact 'repeated' is declared twice");
    assert_error_at(&c, "action warning text \"nog", "warning",
                    "action 'warning' is declared twice");
    assert_error_at(&c, "table fine(s: size) :", "fine", "table 'fine' is declared twice");
    compiled_free(&c);
}

static void test_duplicate_type_article_enum_value(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "type size = bool\n"
                           "fact e : enum { a, b, a }\n"
                           "article 1 when true { warning }\n"
                           "article 1 when repeated { warning }\n");
    assert_failed(&c, 3);
    assert_error_at(&c, "type size = bool", "size", "type 'size' is already declared");
    assert_error_at(&c, "enum { a, b, a }", "a }", "'a' is listed twice");
    /* the second declaration is the one reported, not the first */
    assert_error_at(&c, "article 1 when repeated", "1 when", "article 1 is declared twice");
    compiled_free(&c);
}

/* --------------------------------------------------------------- cycles */

static void test_derived_fact_cycle(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact p : bool = q and repeated\n"
                           "fact q : bool = not p\n"
                           "article 1 when p { warning }\n"
                           "article 2 when not p { warning }\n");
    assert_null(c.rs);
    assert_true(c.errors >= 1);
    assert_contains(c.out, "is defined in terms of itself");
    compiled_free(&c);
}

static void test_derived_fact_cycle_in_action_argument(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact p : int = q + 1\n"
                           "fact q : int = p + 1\n"
                           "article 1 when true { penalty(p) }\n");
    assert_null(c.rs);
    assert_contains(c.out, "is defined in terms of itself");
    compiled_free(&c);
}

static void test_apply_cycle(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { apply 2 }\n"
                           "article 2 { if repeated => 2A apply 3 otherwise => 2B { warning } }\n"
                           "article 3 { apply 2 }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "article 3 { apply 2 }", "apply 2",
                    "apply cycle: article 2 is applied again");
    compiled_free(&c);
}

static void test_apply_to_itself(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 4 when true { apply 4 }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "{ apply 4 }", "apply 4", "apply cycle: article 4");
    compiled_free(&c);
}

static void test_apply_without_cycle_is_fine(void **state) {
    (void)state;
    compiled c;
    /* a diamond: 1 and 2 both hand over to 3; no cycle */
    assert_compiles(&c, VOCAB "article 1 when irregularity == late { apply 3 }\n"
                              "article 2 when irregularity == noise { apply 3 }\n"
                              "article 3 { warning }\n");
    compiled_free(&c);
}

/* ------------------------------------------------------ unreachable clauses */

static void test_clause_covered_by_earlier_clause(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true {\n"
                           "  if repeated => 1A { warning }\n"
                           "  if repeated and minutes > 3 => 1B { warning }\n"
                           "  otherwise => 1C { warning }\n"
                           "}\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "  if repeated and", "if", "this clause can never apply");
    compiled_free(&c);
}

static void test_clause_outside_when(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when irregularity == late {\n"
                           "  if irregularity == noise => 1A { warning }\n"
                           "  otherwise => 1B { warning }\n"
                           "}\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "  if irregularity == noise", "if", "this clause can never apply");
    compiled_free(&c);
}

static void test_clause_excluded_by_invariant(void **state) {
    (void)state;
    compiled c;
    compile_text(
        &c,
        VOCAB "invariant \"Lawaai duurt geen minuten\" irregularity == noise implies minutes == 0\n"
              "article 2 when irregularity == noise {\n"
              "  if minutes > 0 => 2A { warning }\n"
              "  otherwise => 2B { warning }\n"
              "}\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "  if minutes > 0", "if", "this clause can never apply");
    compiled_free(&c);
}

static void test_second_otherwise(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true {\n"
                           "  otherwise => 1D { warning }\n"
                           "  otherwise => 1E { warning }\n"
                           "}\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "  otherwise => 1E", "otherwise", "this clause can never apply");
    compiled_free(&c);
}

static void test_repeated_match_value(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { match volume {\n"
                           "  small => 1A { warning }\n"
                           "  small => 1B { warning }\n"
                           "  large => 1C { warning }\n"
                           "} }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "  small => 1B", "small", "this clause can never apply");
    compiled_free(&c);
}

static void test_article_never_ruled_on_is_a_warning(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { warning }\narticle 2 { warning }\n");
    assert_non_null(c.rs);
    assert_int_equal(c.errors, 0);
    assert_contains(c.out, "warning: article 2 is never ruled on");
    compiled_free(&c);
}

/* --------------------------------------------------------- auction facts */

static void test_unknown_record_fact(void **state) {
    (void)state;
    compiled c;
    compile_text(&c,
                 VOCAB "fact t : bool from auction.turn_wass\narticle 1 when true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "from auction.turn_wass", "auction",
                    "unknown record fact 'auction.turn_wass'");
    assert_contains(c.out, "hint: did you mean 'turn_was'?");
    compiled_free(&c);
}

static void test_record_fact_enum_lacks_a_value(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact t : enum { offender, lho, partner } from auction.turn_was\n"
                           "article 1 when true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "from auction.turn_was", "auction",
                    "'auction.turn_was' can be 'rho', which 't' does not list");
    assert_contains(c.out, "hint: add 'rho' to the enum");
    compiled_free(&c);
}

static void test_record_fact_of_the_wrong_type(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "fact t : bool from auction.turn_was\n"
                           "fact k : seat from auction.lho_called\n"
                           "article 1 when true { warning }\n");
    assert_failed(&c, 2);
    assert_error_at(&c, "fact t : bool from", "auction",
                    "'auction.turn_was' does not fit the type of 't'");
    assert_error_at(&c, "fact k : seat from", "auction",
                    "'auction.lho_called' does not fit the type of 'k'");
    compiled_free(&c);
}

static void test_record_facts_that_fit(void **state) {
    (void)state;
    compiled c;
    assert_compiles(&c,
                    VOCAB "fact t : enum { rho, partner, lho, offender } from auction.turn_was\n"
                          "fact o : seat from auction.offender\n"
                          "fact l : bool from auction.lho_called overridable\n"
                          "fact s : call from auction.lowest_sufficient\n"
                          "article 1 when true { warning }\n");
    const rs_fact *o = &c.rs->facts[rs_find_fact(c.rs, "o")];
    assert_true(o->builtin >= 0);
    assert_false(o->overridable);
    assert_true(c.rs->facts[rs_find_fact(c.rs, "l")].overridable);
    assert_true(c.rs->facts[rs_find_fact(c.rs, "s")].builtin >= 0);
    assert_int_equal(c.rs->facts[rs_find_fact(c.rs, "s")].type->kind, TY_CALL);
    compiled_free(&c);
}

static void test_overridable_without_from(void **state) {
    (void)state;
    compiled c;
    compile_text(&c,
                 VOCAB "fact w : bool ask \"w?\" overridable\narticle 1 when true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "fact w : bool", "w :", "'w' is overridable but not filled from a record");
    compiled_free(&c);
}

/* ---------------------------------------------------------------- tables */

static void test_missing_table_row_names_the_key(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "table g(s: size, r: bool) : int {\n"
                           "  small, false => 1  small, true => 2  large, false => 3\n"
                           "}\n"
                           "article 1 when true { penalty(g(volume, repeated)) }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "table g(", "g(", "table 'g' has no row for large, true");
    compiled_free(&c);
}

static void test_table_default_row(void **state) {
    (void)state;
    compiled c;
    assert_compiles(&c, VOCAB "table g(s: size, n: int 1..3) : int {\n"
                              "  small, 2 => 20\n"
                              "  large, 3 => -7\n"
                              "  _ => 5\n"
                              "}\n"
                              "article 1 when true { penalty(g(volume, 1)) }\n");
    const rs_table *t = &c.rs->tables[1];
    assert_string_equal(t->name, "g");
    assert_int_equal(t->ncells, 6);
    for (int s = 0; s < 2; s++)
        for (int n = 1; n <= 3; n++) {
            int64_t keys[] = {s, n}, v = 0;
            assert_int_equal(expr_table(t, keys, &v), EXPR_OK);
            int64_t want = (s == 0 && n == 2) ? 20 : (s == 1 && n == 3) ? -7 : 5;
            assert_int_equal(v, want);
        }
    int64_t outside[] = {0, 4}, v;
    assert_int_equal(expr_table(t, outside, &v), EXPR_NO_ROW);
    compiled_free(&c);
}

static void test_table_key_outside_and_row_twice(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "table g(s: size, n: int 1..3) : int { small, 4 => 1  small, 1 => 2  "
                           "small, 1 => 3  _ => 0 }\n"
                           "article 1 when true { warning }\n");
    assert_failed(&c, 2);
    assert_error_at(&c, "small, 4 =>", "4", "key outside int 1..3");
    assert_error_at(&c, "small, 1 => 3", "small", "this key already has a row");
    compiled_free(&c);
}

/* -------------------------------------------------------- header, include */

static void test_two_ruleset_headers(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 when true { warning }\nruleset \"twee\" { }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "ruleset \"twee\"", "\"twee\"", "a ruleset has one 'ruleset' header");
    assert_contains(c.out, "a.rules:1");
    compiled_free(&c);
}

static void test_no_ruleset_header(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, "fact a : bool\n  ask \"a?\"\naction w text \"w\"\narticle 1 when a { w "
                     "}\narticle 2 when not a { w }\n");
    assert_null(c.rs);
    assert_true(c.errors >= 1);
    assert_contains(c.out, "error: no 'ruleset' header in ");
    compiled_free(&c);
}

static void test_no_article_has_a_when(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "article 1 { warning }\n");
    assert_failed(&c, 1);
    assert_contains(c.out, "no article has a `when`");
    compiled_free(&c);
}

static void test_include_shared_vocabulary_directory(void **state) {
    (void)state;
    char root[64], ed[128];
    make_temp_dir(root, sizeof root);
    write_file(root, "common/facts.rules", "fact a : bool\n  ask \"a?\"\n");
    write_file(root, "common/more.rules",
               "action w text \"w\"\ntable t(k: bool) : int { _ => 3 }\n");
    write_file(root, "ed2017/00.rules",
               "ruleset \"ed2017\" { title \"2017\" }\ninclude \"../common\"\n");
    write_file(root, "ed2017/10.rules",
               "include \"../common\"\narticle 1 when a { w }\narticle 2 when not a { w }\n");
    write_file(root, "ed2007/00.rules",
               "ruleset \"ed2007\" { }\ninclude \"../common\"\narticle 5 when true { w }\n");
    compiled c = {0}, d = {0};
    snprintf(ed, sizeof ed, "%s/ed2017", root);
    compile_path(&c, ed);
    snprintf(ed, sizeof ed, "%s/ed2007", root);
    compile_path(&d, ed);
    remove_tree(root);
    if (!c.rs) fail_msg("%s", c.out);
    if (!d.rs) fail_msg("%s", d.out);
    /* both editions see the one vocabulary, read once each */
    assert_int_equal(c.rs->nfacts, 1);
    assert_int_equal(c.rs->nactions, 1);
    assert_int_equal(c.rs->ntables, 1);
    assert_int_equal(c.rs->nfiles, 4);
    assert_int_equal(c.rs->narticles, 2);
    assert_int_equal(d.rs->nfacts, 1);
    assert_int_equal(d.rs->narticles, 1);
    assert_string_equal(d.rs->name, "ed2007");
    compiled_free(&c);
    compiled_free(&d);
}

static void test_include_cycle_of_files_read_once(void **state) {
    (void)state;
    char root[64], path[128];
    make_temp_dir(root, sizeof root);
    write_file(root, "main.rules",
               "ruleset \"c\" { }\ninclude \"part.inc\"\nfact a : bool\n"
               "article 1 when a { w }\narticle 2 when not a { w }\n");
    write_file(root, "part.inc", "include \"main.rules\"\naction w text \"w\"\n");
    compiled c = {0};
    snprintf(path, sizeof path, "%s/main.rules", root);
    compile_path(&c, path);
    remove_tree(root);
    if (!c.rs) fail_msg("%s", c.out);
    assert_int_equal(c.rs->nfiles, 2);
    assert_int_equal(c.rs->nactions, 1);
    compiled_free(&c);
}

static void test_include_cycle_of_directories_read_once(void **state) {
    (void)state;
    char root[64], path[128];
    make_temp_dir(root, sizeof root);
    write_file(root, "x/a.rules",
               "ruleset \"x\" { }\ninclude \"../y\"\narticle 1 when a { w }\narticle 2 when not a "
               "{ w }\n");
    write_file(root, "y/b.rules", "include \"../x\"\nfact a : bool\naction w text \"w\"\n");
    compiled c = {0};
    snprintf(path, sizeof path, "%s/x", root);
    compile_path(&c, path);
    remove_tree(root);
    if (!c.rs) fail_msg("%s", c.out);
    assert_int_equal(c.rs->nfiles, 2);
    compiled_free(&c);
}

static void test_include_back_into_ruleset_directory_read_once(void **state) {
    (void)state;
    char root[64], path[128];
    make_temp_dir(root, sizeof root);
    write_file(root, "r/a.rules",
               "ruleset \"r\" { }\ninclude \"b.inc\"\nfact a : bool\n"
               "article 1 when a { w }\narticle 2 when not a { w }\n");
    write_file(root, "r/b.inc", "include \"a.rules\"\naction w text \"w\"\n");
    write_file(root, "common/vocab.rules", "fact z : bool\n");
    write_file(root, "s/a.rules",
               "ruleset \"s\" { }\ninclude \"../common\"\naction w text \"w\"\n"
               "article 1 when z { w }\narticle 2 when not z { w }\n");
    write_file(root, "s/b.rules", "include \"../common/vocab.rules\"\n");
    compiled c = {0}, d = {0};
    snprintf(path, sizeof path, "%s/r", root);
    compile_path(&c, path);
    snprintf(path, sizeof path, "%s/s", root);
    compile_path(&d, path);
    remove_tree(root);
    if (!c.rs) fail_msg("%s", c.out);
    if (!d.rs) fail_msg("%s", d.out);
    compiled_free(&c);
    compiled_free(&d);
}

static void test_include_of_missing_path(void **state) {
    (void)state;
    compiled c;
    compile_text(&c, VOCAB "include \"../nowhere\"\narticle 1 when true { warning }\n");
    assert_failed(&c, 1);
    assert_error_at(&c, "include \"../nowhere\"", "include", "cannot find ");
    compiled_free(&c);
}

static void test_missing_ruleset_directory(void **state) {
    (void)state;
    compiled c = {0};
    compile_path(&c, "/tmp/arbiter-unit-compile-does-not-exist");
    assert_null(c.rs);
    assert_int_equal(c.errors, 1);
    compiled_free(&c);
}

/* The trail of outcome o as it shows (a clause citing what the one before
 * it cites is one step), joined by " > ". */
static void shown_trail(const ruleset *rs, const rs_outcome *o, char *out, size_t cap) {
    const char *last = NULL;
    out[0] = 0;
    for (int i = 0; i < o->ntrail; i++) {
        const char *cite = rs->clauses[o->trail[i]].cite;
        if (!cite || (last && strcmp(last, cite) == 0)) continue;
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", last ? " > " : "", cite);
        last = cite;
    }
}

/* The first outcome whose trail, as it shows, names a citation twice; -1
 * when none does. */
static int outcome_repeating_a_cite(const ruleset *rs) {
    for (int i = 0; i < rs->outcomes.len; i++) {
        const rs_outcome *o = rs_outcome_at(rs, i);
        const char *shown[256];
        int n = 0;
        const char *last = NULL;
        for (int t = 0; t < o->ntrail && n < 256; t++) {
            const char *cite = rs->clauses[o->trail[t]].cite;
            if (!cite || (last && strcmp(last, cite) == 0)) continue;
            for (int j = 0; j < n; j++)
                if (strcmp(shown[j], cite) == 0) return i;
            shown[n++] = last = cite;
        }
    }
    return -1;
}

/* The first outcome that states one of its actions twice (the same use
 * of an action, come back with its clause); -1 when none does. */
/* Whether two action uses state one measure: the same action with the same
 * constant arguments (or the same use). */
static bool same_measure(const ruleset *rs, int a, int b) {
    const rs_action_use *ua = rs_use_at(rs, a), *ub = rs_use_at(rs, b);
    if (a == b) return true;
    if (ua->action != ub->action) return false;
    for (int p = 0; p < rs->actions[ua->action].nparams; p++) {
        const rs_expr *ea = rs_expr_at(rs, rs_arg(rs, ua->args + p));
        const rs_expr *eb = rs_expr_at(rs, rs_arg(rs, ub->args + p));
        if (ea->kind != EX_CONST || eb->kind != EX_CONST || ea->k != eb->k) return false;
    }
    return true;
}

static int outcome_repeating_an_action(const ruleset *rs) {
    for (int i = 0; i < rs->outcomes.len; i++) {
        const rs_outcome *o = rs_outcome_at(rs, i);
        for (int a = 0; a < o->nactions; a++)
            for (int b = 0; b < a; b++)
                if (same_measure(rs, o->actions[a], o->actions[b])) return i;
    }
    return -1;
}

/* Two clauses of one ruling that name the same action with the same
 * arguments state one measure: the ruling names it once (1963 64b and 64d
 * each left 12a's artificial score open); with other arguments both stay. */
static void test_ruling_states_a_measure_once(void **state) {
    (void)state;
    compiled c;
    assert_compiles(&c, VOCAB "article 1 \"Een\" when irregularity == late {\n"
                              "  otherwise => 1A {\n"
                              "    penalty(3)\n"
                              "    if repeated => 1B { penalty(3) see(2) }\n"
                              "    otherwise => 1C { penalty(4) }\n"
                              "  }\n"
                              "}\n");
    assert_int_equal(outcome_repeating_an_action(c.rs), -1);
    bool seen_once = false, seen_both = false;
    for (int i = 0; i < c.rs->outcomes.len; i++) {
        const rs_outcome *o = rs_outcome_at(c.rs, i);
        char acts[200] = "";
        for (int k = 0; k < o->nactions; k++) {
            const rs_action_use *u = rs_use_at(c.rs, o->actions[k]);
            const rs_expr *x = rs_expr_at(c.rs, rs_arg(c.rs, u->args));
            const char *name = c.rs->actions[u->action].name;
            size_t at = strlen(acts);
            if (strcmp(name, "see") == 0)
                snprintf(acts + at, sizeof acts - at, "%ssee(%s)", k ? " " : "",
                         rs_string(c.rs, x->k));
            else
                snprintf(acts + at, sizeof acts - at, "%s%s(%lld)", k ? " " : "", name,
                         (long long)x->k);
        }
        seen_once |= strcmp(acts, "penalty(3) see(2)") == 0;     /* not penalty(3) twice */
        seen_both |= strcmp(acts, "penalty(3) penalty(4)") == 0; /* other arguments: both */
    }
    assert_true(seen_once && seen_both);
    compiled_free(&c);
}

/* A trail names a citation once, whatever brings it back: a block's cite
 * list and a clause of the same label after it, an article applied where
 * the trail cites it already. An article's entry and a clause citing its
 * number stay one step. */
static void test_trail_names_a_citation_once(void **state) {
    (void)state;
    compiled c;
    assert_compiles(&c, VOCAB "article 3 \"Drie\" when irregularity == noise {\n"
                              "  otherwise => 3 { see(2) cite 2 }\n"
                              "}\n"
                              "article 1 \"Een\" when irregularity == late {\n"
                              "  otherwise => 1A {\n"
                              "    warning\n"
                              "    cite 2 3\n"
                              "    if repeated => 2 { penalty(1) }\n"
                              "    otherwise => 1B { penalty(2) }\n"
                              "  }\n"
                              "}\n"
                              "article 4 \"Vier\" when irregularity == noise {\n"
                              "  otherwise => 4A { cite 2  apply 3 }\n"
                              "}\n");
    assert_int_equal(outcome_repeating_a_cite(c.rs), -1);
    bool seen_1a = false, seen_joined = false;
    for (int i = 0; i < c.rs->outcomes.len; i++) {
        char trail[200];
        shown_trail(c.rs, rs_outcome_at(c.rs, i), trail, sizeof trail);
        seen_1a |= strcmp(trail, "1 > 1A > 2 > 3") == 0;     /* not ... > 3 > 2 */
        seen_joined |= strcmp(trail, "3 > 2 > 4 > 4A") == 0; /* not ... > 4A > 3 > 2 */
    }
    assert_true(seen_1a && seen_joined);
    compiled_free(&c);
}

/* No ruling of the shipped bridge editions names a citation twice on its
 * trail, or states one of its measures twice (they did, where articles'
 * rulings were joined: 2017 25 > 25A4 > 29 > 29B > 32 > 32C > 25 > 25A4
 * with unintended_call_too_late twice, 1963 64b's and 64d's 12a). */
static void test_shipped_trails_name_a_citation_once(void **state) {
    (void)state;
    static const char *const editions[] = {"rulesets/bridge-2017", "rulesets/bridge-1963",
                                           "rulesets/klaverjas-nkf-1976"};
    for (size_t e = 0; e < sizeof editions / sizeof *editions; e++) {
        compiled c = {0};
        compile_path(&c, editions[e]);
        if (!c.rs || c.errors) fail_msg("%s does not compile:\n%s", editions[e], c.out);
        int o = outcome_repeating_a_cite(c.rs);
        if (o >= 0) {
            char trail[1000];
            shown_trail(c.rs, rs_outcome_at(c.rs, o), trail, sizeof trail);
            fail_msg("%s: a trail names a citation twice: %s", editions[e], trail);
        }
        o = outcome_repeating_an_action(c.rs);
        if (o >= 0) {
            char trail[1000];
            shown_trail(c.rs, rs_outcome_at(c.rs, o), trail, sizeof trail);
            fail_msg("%s: the ruling of %s states an action twice", editions[e], trail);
        }
        compiled_free(&c);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vocabulary_compiles),
        cmocka_unit_test(test_syntax_error_stops_compilation),
        cmocka_unit_test(test_enum_value_not_in_enum),
        cmocka_unit_test(test_enum_value_of_another_enum),
        cmocka_unit_test(test_int_compared_with_bool),
        cmocka_unit_test(test_condition_must_be_bool),
        cmocka_unit_test(test_int_range_of_256_values_can_be_tested),
        cmocka_unit_test(test_unknown_fact_compared_is_one_error),
        cmocka_unit_test(test_action_argument_type),
        cmocka_unit_test(test_wrong_action_arity),
        cmocka_unit_test(test_unknown_action),
        cmocka_unit_test(test_unknown_fact),
        cmocka_unit_test(test_unknown_table),
        cmocka_unit_test(test_table_key_count),
        cmocka_unit_test(test_unknown_article_in_apply),
        cmocka_unit_test(test_placeholder_not_a_parameter),
        cmocka_unit_test(test_duplicate_fact_action_table),
        cmocka_unit_test(test_duplicate_type_article_enum_value),
        cmocka_unit_test(test_derived_fact_cycle),
        cmocka_unit_test(test_apply_cycle),
        cmocka_unit_test(test_apply_to_itself),
        cmocka_unit_test(test_apply_without_cycle_is_fine),
        cmocka_unit_test(test_clause_covered_by_earlier_clause),
        cmocka_unit_test(test_clause_outside_when),
        cmocka_unit_test(test_clause_excluded_by_invariant),
        cmocka_unit_test(test_second_otherwise),
        cmocka_unit_test(test_repeated_match_value),
        cmocka_unit_test(test_article_never_ruled_on_is_a_warning),
        cmocka_unit_test(test_unknown_record_fact),
        cmocka_unit_test(test_record_fact_enum_lacks_a_value),
        cmocka_unit_test(test_record_fact_of_the_wrong_type),
        cmocka_unit_test(test_record_facts_that_fit),
        cmocka_unit_test(test_overridable_without_from),
        cmocka_unit_test(test_missing_table_row_names_the_key),
        cmocka_unit_test(test_table_default_row),
        cmocka_unit_test(test_table_key_outside_and_row_twice),
        cmocka_unit_test(test_two_ruleset_headers),
        cmocka_unit_test(test_no_ruleset_header),
        cmocka_unit_test(test_no_article_has_a_when),
        cmocka_unit_test(test_include_shared_vocabulary_directory),
        cmocka_unit_test(test_include_cycle_of_files_read_once),
        cmocka_unit_test(test_include_cycle_of_directories_read_once),
        cmocka_unit_test(test_include_of_missing_path),
        cmocka_unit_test(test_missing_ruleset_directory),
        cmocka_unit_test(test_english_placeholder_not_a_parameter),
        cmocka_unit_test(test_derived_fact_cycle_in_action_argument),
        cmocka_unit_test(test_include_back_into_ruleset_directory_read_once),
        cmocka_unit_test(test_trail_names_a_citation_once),
        cmocka_unit_test(test_ruling_states_a_measure_once),
        cmocka_unit_test(test_shipped_trails_name_a_citation_once),
    };
    return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}
