/* test_regressions.c — inputs that crashed, hung or ran out of memory once
 * (found by the fuzz targets of tests/fuzz or written against the limits of
 * docs/language.md, "Limits"), each kept here so that it stays fixed.
 *
 * Every case feeds the input through the same entry point a director's
 * command uses (dsl_compile, arb_rule_batch, read_file) and checks for a
 * clear error instead of a crash. Cases for bugs in files another engineer
 * owns are written but left out of the test array, marked BUG; see
 * docs/robustness.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "arbiter.h"
#include "check.h"
#include "compile.h"

/* ---------------------------------------------------------------- helpers */

#define HEADER                                                                                     \
    "ruleset \"r\" { title \"Regressie\" game bridge }\naction x text \"x\"\nfact a : bool ask "   \
    "\"a?\"\n"
#define TWO_ARTICLES "article 1 when a { x }\narticle 2 when not a { x }\n"

typedef struct compiled {
    ruleset *rs;
    int errors;
    char *out; /* what the diag printed */
} compiled;

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Compiles texts as the files (00.rules, 01.rules, …) of a fresh ruleset
 * directory, and proves it complete when it compiles (what `arbiter check`
 * does). */
static void compile_files(compiled *c, const char *const *texts, int n) {
    char dir[] = "/tmp/arbiter-unit-regress-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%02d.rules", dir, i);
        write_text(path, texts[i]);
    }
    size_t len = 0;
    FILE *mem = open_memstream(&c->out, &len);
    assert_non_null(mem);
    diag *d = diag_new(mem);
    c->rs = dsl_compile(dir, d);
    if (c->rs) dsl_check(c->rs, d);
    c->errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%02d.rules", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

static void compile_text(compiled *c, const char *text) {
    compile_files(c, &text, 1);
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

/* The text fails to compile with message among its errors. */
static void assert_rejected(const char *text, const char *message) {
    compiled c = {0};
    compile_text(&c, text);
    assert_null(c.rs);
    assert_true(c.errors > 0);
    assert_contains(c.out, message);
    compiled_free(&c);
}

static void assert_compiles(const char *text) {
    compiled c = {0};
    compile_text(&c, text);
    if (!c.rs || c.errors) fail_msg("expected no errors:\n%s", c.out);
    compiled_free(&c);
}

/* HEADER + before + `sep`.join(item * n) + after, malloc'd. */
static char *repeat(const char *before, const char *item, const char *sep, int n,
                    const char *after) {
    size_t len = strlen(HEADER) + strlen(before) + (size_t)n * (strlen(item) + strlen(sep)) +
                 strlen(after) + 1;
    char *s = malloc(len), *p = s;
    assert_non_null(s);
    p += sprintf(p, "%s%s", HEADER, before);
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s%s", i ? sep : "", item);
    strcpy(p, after);
    return s;
}

static int count(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ------------------------------------------------ found by fuzz_rules */

/* fuzz_rules crash a4b291ef (heap-buffer-overflow in graph_node_ref): a
 * fact of an empty range was still given a decision variable, with no
 * values, and the first decision on it read past its children. */
static void test_empty_range_fact_in_a_decision(void **state) {
    (void)state;
    assert_rejected(HEADER "fact n : int 5..4 ask \"n?\"\n"
                           "article 1 when a and n == 5 { x }\narticle 2 when not a { x }\n",
                    "empty range 5..4");
}

/* The width of a range sizes decisions and tables: hi - lo must not
 * overflow (UBSan) nor hi - lo + 1. */
static void test_range_too_wide(void **state) {
    (void)state;
    assert_rejected(HEADER "fact n : int -1..9223372036854775807 ask \"n?\"\n" TWO_ARTICLES,
                    "is too wide");
    assert_rejected(
        HEADER
        "table t(k: int -9223372036854775807..9223372036854775807) : int { _ => 1 }\n" TWO_ARTICLES,
        "is too wide");
    assert_compiles(HEADER "fact n : int 1..9223372036854775807 ask \"n?\"\n" TWO_ARTICLES);
}

/* ------------------------------------------------------ nesting limits */

/* A chain `a and a and …` is parsed left-associative: 100 000 terms made an
 * AST 100 000 deep, and the compiler's recursive walk overflowed the stack
 * (SIGSEGV). Each operator of the chain counts as a level. */
static void test_long_operator_chain(void **state) {
    (void)state;
    char *ok = repeat("article 1 when ", "a", " and ", 250, " { x }\narticle 2 when not a { x }\n");
    assert_compiles(ok);
    free(ok);
    char *deep =
        repeat("article 1 when ", "a", " and ", 100000, " { x }\narticle 2 when not a { x }\n");
    assert_rejected(deep, "nested more than 256 levels deep");
    free(deep);
    char *sum = repeat("fact m : int 0..3 ask \"m?\"\narticle 1 when a and ", "m", " + ", 300,
                       " > 2 { x }\narticle 2 when not a { x }\narticle 3 when a { x }\n");
    assert_rejected(sum, "nested more than 256 levels deep");
    free(sum);
}

/* Parentheses, `not` and nested blocks deeper than the parser's stack
 * ended in Bison's bare "memory exhausted". */
static void test_deep_parentheses_and_blocks(void **state) {
    (void)state;
    char *parens = repeat("article 1 when ", "(", "", 20000, "a { x }\n");
    assert_rejected(parens, "nested more than 256 levels deep");
    free(parens);
    char *nots = repeat("article 1 when ", "not", " ", 50000, " a { x }\n");
    assert_rejected(nots, "nested more than 256 levels deep");
    free(nots);
    char *blocks = repeat("article 1 when a { ", "if a {", " ", 5000, " x }\n");
    assert_rejected(blocks, "nested more than 256 levels deep");
    free(blocks);
    char *some = repeat("article 1 when a { ", "if a {", " ", 100, "");
    char *closed = repeat("", "}", " ", 101, "\narticle 2 when not a { x }\n");
    size_t n = strlen(some) + strlen(closed) + 8;
    char *both = malloc(n);
    snprintf(both, n, "%s x %s", some, closed + strlen(HEADER));
    assert_compiles(both);
    free(some), free(closed), free(both);
}

/* A match arm's pattern and an action argument nest too. */
static void test_deep_argument(void **state) {
    (void)state;
    char *arg = repeat("action y(k: int) text \"{k}\"\narticle 1 when a { y(0", " + 1", "", 400,
                       ") }\narticle 2 when not a { x }\n");
    assert_rejected(arg, "nested more than 256 levels deep");
    free(arg);
}

/* --------------------------------------------------------- count limits */

static char *numbered(const char *fmt, int n, const char *after) {
    size_t len = strlen(HEADER) + (size_t)n * (strlen(fmt) + 20) + strlen(after) + 1;
    char *s = malloc(len), *p = s;
    assert_non_null(s);
    p += sprintf(p, "%s", HEADER);
    for (int i = 0; i < n; i++)
        p += sprintf(p, fmt, i, i);
    strcpy(p, after);
    return s;
}

/* 100 000 facts took the compiler minutes (name lookups are linear) and
 * 2.5 GB; an apply chain of 20 000 articles overflowed the stack. */
static void test_declarations_per_file(void **state) {
    (void)state;
    char *facts = numbered("fact f%d : bool ask \"q%d\"\n", 2100, TWO_ARTICLES);
    assert_rejected(facts, "more than 2000 declarations in one file");
    free(facts);
    char *chain = numbered("article %d { apply %d }\n", 20000, TWO_ARTICLES);
    assert_rejected(chain, "more than 2000 declarations in one file");
    free(chain);
}

/* A table over int 0..99999 holds 100 000 cells: 2000 of them took 1.6 GB. */
static void test_tables_per_file(void **state) {
    (void)state;
    char *tables = numbered("table t%d(k: int 0..99999) : int { _ => %d }\n", 101, TWO_ARTICLES);
    assert_rejected(tables, "more than 100 tables in one file");
    free(tables);
}

/* 1000 derived facts, each a chain of 250 `and` over the one before:
 * checking them for cycles recursed 250 000 deep (ASan: stack-overflow).
 * Here 100 facts of 50 levels: 5000 levels together. */
static void test_derived_fact_levels(void **state) {
    (void)state;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, HEADER TWO_ARTICLES);
    for (int i = 0; i < 100; i++) {
        sb_printf(&sb, "fact d%d : bool = ", i);
        for (int k = 0; k < 50; k++) {
            if (i)
                sb_printf(&sb, "%sd%d", k ? " and " : "", i - 1);
            else
                sb_printf(&sb, "%sa", k ? " and " : "");
        }
        sb_puts(&sb, "\n");
    }
    compiled c = {0};
    compile_text(&c, sb.data);
    assert_null(c.rs);
    assert_contains(c.out, "nest more than 4096 levels together");
    compiled_free(&c);
    sb_free(&sb);
}

/* A 300-byte file ran for hours: the decision graph of a product of four
 * 256-valued facts has millions of outcomes, and building it revisited far
 * more than the operation cache holds. The graph's work and size budgets
 * (core/engine/graph.h) ended it in seconds with an error the checker reported at
 * the header; the compiler now refuses the product before building it, at
 * the article (dsl/compile_internal.h, MAX_EXPR_VALUES). */
static void test_graph_blowup_ends_in_an_error(void **state) {
    (void)state;
    compiled c = {0};
    compile_text(
        &c, HEADER
        "fact p : int 0..255 ask \"p?\"\nfact q : int 0..255 ask \"q?\"\n"
        "fact r : int 0..255 ask \"r?\"\nfact s : int 0..255 ask \"s?\"\n"
        "article 1 when p * q * r * s == 7 { x }\narticle 2 when p * q * r * s != 7 { x }\n");
    assert_true(c.errors > 0);
    assert_contains(c.out, "the value computed here can take up to 16581376 different values");
    compiled_free(&c);
}

/* ----------------------------------------------------------- messages */

/* 100 000 match arms that can never apply printed 100 000 errors, each
 * quoting a 1.5 MB line: gigabytes of output. Now the first 100 messages
 * are shown, each quoting at most a window of its line. */
static void test_error_flood_is_cut(void **state) {
    (void)state;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, HEADER "fact m : int 0..3 ask \"m?\"\narticle 1 when a { match m {");
    for (int i = 0; i < 1000; i++)
        sb_printf(&sb, " %d => { x }", i % 4);
    sb_puts(&sb, " } }\narticle 2 when not a { x }\n");
    compiled c = {0};
    compile_text(&c, sb.data);
    assert_null(c.rs);
    assert_true(c.errors >= 996);
    assert_true(count(c.out, "error: this clause can never apply") <= 100);
    assert_contains(c.out, "more than 100 messages; the rest are not shown");
    for (const char *line = c.out; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        size_t n = strcspn(line, "\n");
        if (n > 200) fail_msg("a line of %zu bytes:\n%.*s", n, 300, line);
    }
    compiled_free(&c);
    sb_free(&sb);
}

/* --------------------------------------------------------------- inputs */

/* Reading /dev/zero (an `include` of it) took all memory: a file past
 * READ_FILE_MAX is refused, and a device is no rule file at all. */
static void test_read_file_is_bounded(void **state) {
    (void)state;
    char path[] = "/tmp/arbiter-big-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)READ_FILE_MAX + 1), 0); /* sparse: nothing written */
    close(fd);
    size_t len = 0;
    errno = 0;
    assert_null(read_file(path, &len));
    assert_int_equal(errno, EFBIG);
    unlink(path);
    errno = 0;
    assert_null(read_file("/dev/zero", &len));
    assert_int_equal(errno, EINVAL);
    assert_rejected(HEADER "include \"/dev/zero\"\n" TWO_ARTICLES,
                    "cannot read /dev/zero: not a regular file");
}

/* An `include` of a named pipe waited for ever for a writer: a pipe is
 * refused as it is opened, without waiting. */
static void test_include_of_a_pipe_does_not_wait(void **state) {
    (void)state;
    char dir[] = "/tmp/arbiter-fifo-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[64], text[256];
    snprintf(fifo, sizeof fifo, "%s/pipe.rules", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    errno = 0;
    assert_null(read_file(fifo, NULL));
    assert_int_equal(errno, EINVAL);
    assert_string_equal(read_file_error(EINVAL), "not a regular file");
    snprintf(text, sizeof text, HEADER "include \"%s\"\n" TWO_ARTICLES, fifo);
    assert_rejected(text, "not a regular file");
    unlink(fifo);
    rmdir(dir);
}

/* A batch line of 1 MiB + 1 is answered with an error record without being
 * parsed; the lines around it are ruled as usual. */
static void test_batch_line_too_long(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load("tests/rules/toy", stderr);
    assert_non_null(rs);
    const char *first = "{\"irregularity\": \"late\", \"minutes\": 5}";
    strbuf sb; /* line 2: {"x": "yyy…"}, ARB_MAX_LINE + 3 bytes */
    sb_init(&sb);
    sb_printf(&sb, "%s\n{\"x\": \"", first);
    size_t line2 = sb.len;
    for (int i = 0; i < ARB_MAX_LINE - 6; i++)
        sb_putc(&sb, 'y');
    sb_printf(&sb, "\"}\n%s\n", first);
    char *batch = sb.data;
    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    assert_int_equal(arb_rule_batch(rs, batch, sb.len, mem), ARB_BAD_INPUT);
    fclose(mem);
    assert_int_equal(count(out, "\n"), 3);
    assert_contains(out, "{\"line\":2,\"status\":\"bad_input\",\"error\":\"the scenario is longer "
                         "than 1048576 bytes");
    assert_int_equal(count(out, "\"status\":\"ruling\""), 2);
    free(out);
    char *json = NULL;
    assert_int_equal(arb_rule_json(rs, batch + line2 - 7, ARB_MAX_LINE + 1, &json), ARB_BAD_INPUT);
    assert_contains(json, "longer than");
    free(json);
    sb_free(&sb);
    arb_free(rs);
}

/* -------------------------------------------------------- determinism */

/* The same scenario, ruled twice by one loaded ruleset and once by another
 * load of it, gives the same bytes. */
static void test_same_input_same_bytes(void **state) {
    (void)state;
    const char *scenario = "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}";
    char *outs[3] = {0};
    arb_ruleset *a = arb_load("tests/rules/toy", stderr), *b = arb_load("tests/rules/toy", stderr);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(arb_rule_json(a, scenario, strlen(scenario), &outs[0]), ARB_OK);
    assert_int_equal(arb_rule_json(a, scenario, strlen(scenario), &outs[1]), ARB_OK);
    assert_int_equal(arb_rule_json(b, scenario, strlen(scenario), &outs[2]), ARB_OK);
    assert_string_equal(outs[0], outs[1]);
    assert_string_equal(outs[0], outs[2]);
    for (int i = 0; i < 3; i++)
        free(outs[i]);
    arb_free(a);
    arb_free(b);
}

/* The CLI's `rule --json` and the library's arb_rule_json give the same
 * ruling: the same JSON, key for key in the same order, once the CLI's
 * indentation is taken out. The CLI is the arbiter beside this test's
 * directory (BUILD/tests/test_regressions -> BUILD/arbiter). */
static void test_cli_and_library_agree(void **state) {
    (void)state;
    char exe[4096], cmd[4400];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = 0;
    for (int up = 0; up < 2; up++)
        *strrchr(exe, '/') = 0;
    const char *scenarios[] = {
        "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}",
        "{\"irregularity\": \"noise\", \"minutes\": 0, \"volume\": \"large\", \"repeated\": false}",
        "{\"irregularity\": \"late\"}"};
    arb_ruleset *rs = arb_load("tests/rules/toy", stderr);
    assert_non_null(rs);
    for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
        char path[] = "/tmp/arbiter-unit-regress-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_true(write(fd, scenarios[i], strlen(scenarios[i])) == (ssize_t)strlen(scenarios[i]));
        close(fd);
        snprintf(cmd, sizeof cmd, "%s/arbiter rule --ruleset tests/rules/toy --json %s 2>/dev/null",
                 exe, path);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        json_error_t je;
        json_t *cli = json_loadf(p, 0, &je);
        pclose(p);
        unlink(path);
        if (!cli) fail_msg("`%s` gave no JSON: %s", cmd, je.text);
        char *from_cli = json_dumps(cli, JSON_COMPACT | JSON_PRESERVE_ORDER), *from_lib = NULL;
        arb_rule_json(rs, scenarios[i], strlen(scenarios[i]), &from_lib);
        assert_string_equal(from_cli, from_lib);
        free(from_cli);
        free(from_lib);
        json_decref(cli);
    }
    arb_free(rs);
}

/* ------------------------------------------------ limits per ruleset */

/* The limits above are per file; a ruleset of many files could still chain
 * `apply` through 20 000 articles (the compiler recursed once per link:
 * SIGSEGV at about 15 000) or declare half a million facts. */
static void test_articles_per_ruleset(void **state) {
    (void)state;
    char *texts[21];
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, HEADER "article 0 when a { apply 1 }\narticle 99999 when not a { x }\n");
    texts[0] = sb_take(&sb);
    for (int f = 0; f < 20; f++) {
        sb_init(&sb);
        for (int i = f * 1000 + 1; i <= (f + 1) * 1000; i++)
            sb_printf(&sb, "article %d { apply %d }\n", i, i + 1);
        if (f == 19) sb_puts(&sb, "article 20001 { x }\n");
        texts[f + 1] = sb_take(&sb);
    }
    compiled c = {0};
    compile_files(&c, (const char *const *)texts, 21);
    assert_null(c.rs);
    assert_contains(c.out, "more than 4096 articles in one ruleset");
    compiled_free(&c);
    for (int f = 0; f < 21; f++)
        free(texts[f]);
}

static void test_apply_chain_depth(void **state) {
    (void)state;
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, HEADER "article 0 when a { apply 1 }\narticle 999 when not a { x }\n");
    for (int i = 1; i <= 300; i++)
        sb_printf(&sb, "article %d { apply %d }\n", i, i + 1);
    sb_puts(&sb, "article 301 { x }\n");
    compiled c = {0};
    compile_text(&c, sb.data);
    assert_null(c.rs);
    assert_contains(c.out, "apply chain more than 256 articles deep");
    compiled_free(&c);
    sb_free(&sb);
    /* 200 deep is allowed */
    sb_init(&sb);
    sb_puts(&sb, HEADER "article 0 when a { apply 1 }\narticle 999 when not a { x }\n");
    for (int i = 1; i <= 200; i++)
        sb_printf(&sb, "article %d { apply %d }\n", i, i + 1);
    sb_puts(&sb, "article 201 { x }\n");
    compile_text(&c, sb.data);
    assert_non_null(c.rs);
    assert_int_equal(c.errors, 0);
    compiled_free(&c);
    sb_free(&sb);
}

static void test_facts_per_ruleset(void **state) {
    (void)state;
    char *texts[3];
    for (int f = 0; f < 3; f++) {
        strbuf sb;
        sb_init(&sb);
        if (f == 0) sb_puts(&sb, HEADER TWO_ARTICLES);
        for (int i = 0; i < 1500; i++)
            sb_printf(&sb, "fact f%d_%d : bool\n", f, i);
        texts[f] = sb_take(&sb);
    }
    compiled c = {0};
    compile_files(&c, (const char *const *)texts, 3);
    assert_null(c.rs);
    assert_contains(c.out, "more than 4096 facts in one ruleset");
    compiled_free(&c);
    for (int f = 0; f < 3; f++)
        free(texts[f]);
}

/* The cell count of a table is the product of its key ranges: 2^62 * 2
 * overflowed unchecked (UBSan), the wrapped count passed the 100 000-cell
 * limit, no cells were allocated, and the rows were written past them. */
static void test_table_cells_overflow(void **state) {
    (void)state;
    assert_rejected(HEADER TWO_ARTICLES
                    "table t(k: int 0..4611686018427387903, b: bool) : int { 0, true => 1 }\n",
                    "cells");
}

/* Rows grouped by name in n log n (sheets were grouped by board comparing
 * every row with every other: seconds for a season): each row's group is
 * its name's first row, and a group is walked in the order of its rows. */
typedef struct named_row {
    int score;
    char name[8];
} named_row;

static void test_group_by_name(void **state) {
    (void)state;
    const char *names[] = {"b", "a", "b", "c", "a", "b"};
    vec rows;
    vec_init(&rows, sizeof(named_row));
    for (int i = 0; i < 6; i++)
        snprintf(((named_row *)vec_push(&rows))->name, sizeof(((named_row *)0)->name), "%s",
                 names[i]);
    int first[6], count[6], next[6];
    vec_group_by_name(&rows, offsetof(named_row, name), first, count, next);
    int want_first[6] = {0, 1, 0, 3, 1, 0};
    for (int i = 0; i < 6; i++)
        assert_int_equal(first[i], want_first[i]);
    assert_int_equal(count[0], 3);
    assert_int_equal(count[1], 2);
    assert_int_equal(count[3], 1);
    int want_next[6] = {2, 4, 5, -1, -1, -1};
    for (int i = 0; i < 6; i++)
        assert_int_equal(next[i], want_next[i]);
    vec_group_by_name(&rows, offsetof(named_row, name), first, NULL, NULL); /* first alone */
    assert_int_equal(first[5], 0);
    vec_free(&rows);
    vec empty;
    vec_init(&empty, sizeof(named_row));
    vec_group_by_name(&empty, offsetof(named_row, name), first, count, next); /* no rows */
}

/* Text that is not UTF-8 vanished from JSON answers (jansson refuses such
 * a string): the readers check it with utf8_bad_byte, and a PBN file's
 * Latin-1 is taken as such by utf8_from_latin1, which never cuts a
 * character in two. */
static void test_utf8_checks(void **state) {
    (void)state;
    const char *ok = "caf\xC3\xA9 \xE2\x99\xA0 \xF0\x9F\x82\xA1";
    assert_int_equal(utf8_bad_byte(ok, strlen(ok)), strlen(ok));
    assert_int_equal(utf8_bad_byte("ab\x80", 3), 2);           /* a stray continuation */
    assert_int_equal(utf8_bad_byte("a\xC0\x80", 3), 1);        /* overlong NUL */
    assert_int_equal(utf8_bad_byte("\xED\xA0\x80", 3), 0);     /* a surrogate */
    assert_int_equal(utf8_bad_byte("\xF4\x90\x80\x80", 4), 0); /* past U+10FFFF */
    assert_int_equal(utf8_bad_byte("x\xC3", 2), 1);            /* cut short */
    assert_int_equal(utf8_bad_byte("a\0b", 3), 1);             /* a NUL */
    assert_int_equal(utf8_bad_byte("caf\xE9", 4), 3);          /* Latin-1 */
    char out[16];
    assert_int_equal(utf8_from_latin1(out, sizeof out, "caf\xE9", 4), 5);
    assert_string_equal(out, "caf\xC3\xA9");
    char whole[32];
    assert_int_equal(utf8_from_latin1(whole, sizeof whole, ok, strlen(ok)), strlen(ok));
    assert_string_equal(whole, ok);                                  /* UTF-8 as it is */
    assert_int_equal(utf8_from_latin1(out, 5, "caf\xC3\xA9", 5), 3); /* é does not fit whole */
    assert_string_equal(out, "caf");
    assert_int_equal(utf8_from_latin1(out, 1, "x", 1), 0);
    assert_string_equal(out, "");
    /* control characters: C0 but a tab, DEL, C1 (U+0080-U+009F); not
     * U+00A0 and past */
    assert_int_equal(text_control_char(ok, strlen(ok)), strlen(ok));
    assert_int_equal(text_control_char("a\tb", 3), 3);
    assert_int_equal(text_control_char("ab\x1B[8m", 6), 2);
    assert_int_equal(text_control_char("a\nb", 3), 1);
    assert_int_equal(text_control_char("\x7F", 1), 0);
    assert_int_equal(text_control_char("x\xC2\x9B", 3), 1);
    assert_int_equal(text_control_char("x\xC2\xA0", 3), 3);
}

/* The checks read eight bytes at a time where the text is plain ASCII:
 * every kind of byte they look for is found at each place within a word
 * and across a word's end, in a text long enough to have whole words
 * before and after it. */
static void test_utf8_checks_by_word(void **state) {
    (void)state;
    static const struct {
        const char *bytes;
        size_t len, bad, ctl; /* where each check stops, from the bytes' start */
    } cases[] = {
        {"\x80", 1, 0, 1},     {"\0", 1, 0, 0},       {"\x1B", 1, 1, 0}, {"\x7F", 1, 1, 0},
        {"\x1F", 1, 1, 0},     {"\t", 1, 1, 1},       {"\n", 1, 1, 0},   {"\xC2\x9B", 2, 2, 0},
        {"\xC2\xA0", 2, 2, 2}, {"\xC3\xA9", 2, 2, 2}, {"\xC3", 1, 0, 1}, {"\xE2\x99\xA0", 3, 3, 3},
        {"\xC0\x80", 2, 0, 2}, {" ~", 2, 2, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t at = 0; at < 24; at++) {
            char text[64];
            memset(text, 'a', sizeof text);
            memcpy(text + at, cases[c].bytes, cases[c].len);
            size_t n = at + cases[c].len + 17;
            size_t bad = cases[c].bad < cases[c].len ? at + cases[c].bad : n;
            size_t ctl = cases[c].ctl < cases[c].len ? at + cases[c].ctl : n;
            if (utf8_bad_byte(text, n) != bad || text_control_char(text, n) != ctl)
                fail_msg("case %zu at %zu: utf8_bad_byte %zu (want %zu), text_control_char %zu "
                         "(want %zu)",
                         c, at, utf8_bad_byte(text, n), bad, text_control_char(text, n), ctl);
            /* a valid sequence cut after its first byte: the check sees
             * only the bytes it is given */
            if (cases[c].len > 1 && cases[c].bad == cases[c].len && (cases[c].bytes[0] & 0x80) &&
                utf8_bad_byte(text, at + 1) != at)
                fail_msg("case %zu cut at %zu", c, at);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_checks),
        cmocka_unit_test(test_utf8_checks_by_word),
        cmocka_unit_test(test_group_by_name),
        cmocka_unit_test(test_empty_range_fact_in_a_decision),
        cmocka_unit_test(test_range_too_wide),
        cmocka_unit_test(test_long_operator_chain),
        cmocka_unit_test(test_deep_parentheses_and_blocks),
        cmocka_unit_test(test_deep_argument),
        cmocka_unit_test(test_declarations_per_file),
        cmocka_unit_test(test_tables_per_file),
        cmocka_unit_test(test_derived_fact_levels),
        cmocka_unit_test(test_graph_blowup_ends_in_an_error),
        cmocka_unit_test(test_error_flood_is_cut),
        cmocka_unit_test(test_read_file_is_bounded),
        cmocka_unit_test(test_include_of_a_pipe_does_not_wait),
        cmocka_unit_test(test_batch_line_too_long),
        cmocka_unit_test(test_same_input_same_bytes),
        cmocka_unit_test(test_cli_and_library_agree),
        cmocka_unit_test(test_articles_per_ruleset),
        cmocka_unit_test(test_apply_chain_depth),
        cmocka_unit_test(test_facts_per_ruleset),
        cmocka_unit_test(test_table_cells_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
