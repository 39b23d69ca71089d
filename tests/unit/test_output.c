/* test_output.c — the batch's records are the single ruling's records, byte
 * for byte (docs/json.md): arb_rule_stream writes them from kept fragments
 * and reads flat lines without jansson, arb_rule_json builds a jansson tree
 * from a scenario jansson read. Compared on every example scenario (under
 * every shipped ruleset, so that error records are compared too), on the
 * situations of every test block of the shipped rulesets, and on those
 * lines written differently (spaces, escapes, duplicate keys, nesting,
 * trailing text) so that the flat reader's refusals are exercised. The
 * Dutch text is compared with the text as it was built before it was
 * written straight into a buffer (reference_text below). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter.h"
#include "builtins.h"
#include "output.h"
#include "scenario.h"

static const char *const rulesets[] = {"rulesets/bridge-2017", "rulesets/bridge-1963",
                                       "rulesets/klaverjas-nkf-1976"};
#define NRULESETS (sizeof rulesets / sizeof *rulesets)

static int compared, flat_read;

/* ---- the lines ------------------------------------------------------------- */

typedef struct lines {
    char **line;
    int n, cap;
} lines;

static void add(lines *l, char *line) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->line = realloc(l->line, sizeof *l->line * (size_t)l->cap);
        assert_non_null(l->line);
    }
    l->line[l->n++] = line;
}

static void free_lines(lines *l) {
    for (int i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, got, m);
    fclose(m);
    fclose(f);
    return text;
}

/* Every .json file of examples/ as one line, and every line of its .jsonl files. */
static void example_lines(lines *l) {
    DIR *d = opendir("examples");
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        char path[512];
        snprintf(path, sizeof path, "examples/%s", e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
            assert_non_null(j);
            add(l, json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER));
            json_decref(j);
        } else if (n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0) {
            char *text = read_text(path), *save = NULL;
            assert_non_null(text);
            for (char *p = strtok_r(text, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
                add(l, strdup(p));
            free(text);
        }
    }
    closedir(d);
}

/* The situation of each test block as a scenario line: its given facts
 * and its auction. */
static void test_block_lines(const ruleset *rs, lines *l) {
    for (int t = 0; t < rs->ntests; t++) {
        const rs_test *test = &rs->tests[t];
        json_t *o = json_object();
        for (int g = 0; g < test->ngiven; g++) {
            const rs_fact *f = &rs->facts[test->given_fact[g]];
            int64_t v = test->given_value[g];
            json_t *value;
            if (f->type->kind == TY_BOOL) {
                value = json_boolean(v);
            } else if (f->type->kind == TY_INT) {
                value = json_integer(v);
            } else {
                strbuf sb;
                sb_init(&sb);
                rs_format_value(rs, f->type, v, FMT_NAME, &sb);
                value = json_string(sb.data ? sb.data : "");
                sb_free(&sb);
            }
            json_object_set_new(o, f->name, value);
        }
        if (test->auction) json_object_set_new(o, "auction", json_string(test->auction));
        add(l, json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER));
        json_decref(o);
    }
}

/* The line written otherwise, each way jansson reads alike or refuses. */
static void variants(const char *line, lines *l) {
    size_t n = strlen(line);
    char *spaced = malloc(3 * n + 8), *p = spaced;
    bool in_string = false;
    for (const char *c = line; *c; c++) { /* a space around every , and : outside strings */
        if (*c == '"' && (c == line || c[-1] != '\\')) in_string = !in_string;
        if (!in_string && (*c == ',' || *c == ':')) *p++ = ' ';
        *p++ = *c;
        if (!in_string && (*c == ',' || *c == ':' || *c == '{')) *p++ = '\t';
    }
    strcpy(p, " \r");
    add(l, spaced);
    const char *q = strchr(line, ':');
    if (!q || line[0] != '{') return;
    const char *key_end = q; /* the first key, twice */
    char *dup = malloc(2 * n + 8);
    sprintf(dup, "{%.*s:1,%s", (int)(key_end - line - 1), line + 1, line + 1);
    add(l, dup);
    char *escaped = strdup(line); /* an escape in the first string value: \u0041-style letters */
    char *v = strchr(escaped, ':');
    if (v && v[1] == '"' && v[2] && v[2] != '"') {
        char *e = malloc(n + 16);
        sprintf(e, "%.*s\\u%04x%s", (int)(v + 2 - escaped), escaped, (unsigned char)v[2], v + 3);
        add(l, e);
    }
    free(escaped);
    char *trailing = malloc(n + 8);
    sprintf(trailing, "%s x", line);
    add(l, trailing);
    char *nested = malloc(n + 32);
    sprintf(nested, "{\"_note\":{\"a\":[1]},%s", line + 1);
    add(l, nested);
    char *real = malloc(n + 32);
    sprintf(real, "{\"_n\":1.5,%s", line + 1);
    add(l, real);
    char *empty = malloc(n + 32); /* an empty key first, where a fact's name may have been */
    sprintf(empty, "{\"\":%s", strchr(line, ':') + 1);
    add(l, empty);
    char *utf8 = malloc(n + 32);
    sprintf(utf8, "{\"_n\":\"\xc3\xa9\",%s", line + 1);
    add(l, utf8);
}

/* ---- the records compared ---------------------------------------------------- */

static char *stream_record(const arb_ruleset *rs, enum arb_record_format format, const char *line) {
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    arb_rule_stream(rs, NULL, format, line, strlen(line), NULL, m);
    fclose(m);
    return out;
}

/* The Dutch text as output_text built it before it was written into a buffer. */
static void reference_text(const ruling *r, const scenario *sc, FILE *out) {
    const ruleset *rs = r->rs;
    char hash[32];
    output_hash(rs, hash);
    fprintf(out, "Uitspraak volgens %s (%s)\n", rs->title, rs->name);
    if (r->status != RULING_OK) {
        strbuf sb;
        sb_init(&sb);
        ruling_problem(r, &sb);
        fprintf(out, "Geen uitspraak: %s\n", sb.data);
        sb_free(&sb);
        return;
    }
    fputs("Artikelen:", out);
    json_t *trail = output_trail_json(r), *cite;
    size_t k;
    json_array_foreach(trail, k, cite)
        fprintf(out, "%s%s", k ? " > " : " ", json_string_value(cite));
    json_decref(trail);
    fputs("\nUitspraak:\n", out);
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        const rs_action_use *u = rs_use_at(rs, r->actions[i].use);
        const char *c = u->clause < 0 ? ""
                        : rs->clauses[u->clause].cite
                            ? rs->clauses[u->clause].cite
                            : rs->articles[rs->clauses[u->clause].article].id;
        strbuf m;
        sb_init(&m);
        output_message(rs, &r->actions[i], false, &m);
        fprintf(out, "  [%s] %s\n", c, m.data ? m.data : "");
        sb_free(&m);
    }
    if (r->npath) fputs("Beslist op grond van:\n", out);
    static const char *const sources[][2] = {
        {"default", " (aangenomen: het scenario zegt het niet)"},
        {"derived", " (berekend uit de gegeven feiten)"},
        {"auction", " (uit het biedverloop)"},
        {"contract", " (uit het contract)"},
        {"scoring", " (uit de scores)"},
        {"play", " (uit het spelverloop)"},
        {"trick", " (uit het spelverloop)"},
        {"hand", " (uit het spelverloop)"},
        {"card", " (uit het spelverloop)"},
        {"position", " (uit het spelverloop)"}};
    for (int i = 0; i < r->npath; i++) {
        const rs_fact *f = &rs->facts[r->path_fact[i]];
        strbuf v;
        sb_init(&v);
        rs_format_value(rs, f->type, r->path_value[i], FMT_DUTCH, &v);
        const char *source = output_fact_source(rs, sc, r->path_fact[i]), *said = "";
        for (size_t s = 0; s < sizeof sources / sizeof *sources; s++)
            if (strcmp(source, sources[s][0]) == 0) said = sources[s][1];
        fprintf(out, "  %s: %s%s\n", f->ask ? f->ask : f->name, v.data, said);
        sb_free(&v);
    }
    json_t *unused = output_unused_json(r, sc), *name;
    json_array_foreach(unused, k, name)
        fprintf(out, "%s%s", k ? ", " : "Speelde geen rol: ", json_string_value(name));
    if (json_array_size(unused)) fputc('\n', out);
    json_decref(unused);
    fprintf(out, "Regelset: %s\n", hash);
}

static void compare_text(const arb_ruleset *rs, const char *line) {
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    if (scenario_read_json(&sc, line, strlen(line), &err)) {
        ruling r;
        assert_true(scenario_rule(rs, rs->root, &sc, &r, &err));
        char *want = NULL, *got = NULL;
        size_t wlen = 0, glen = 0;
        FILE *w = open_memstream(&want, &wlen), *g = open_memstream(&got, &glen);
        reference_text(&r, &sc, w);
        output_text(&r, &sc, g);
        fclose(w);
        fclose(g);
        if (strcmp(want, got) != 0)
            fprintf(stderr, "text differs for %s\n%s\n---\n%s\n", line, want, got);
        assert_string_equal(want, got);
        char *streamed = stream_record(rs, ARB_RECORD_TEXT, line);
        assert_true(strncmp(streamed, "--- regel 1\n", 12) == 0);
        assert_string_equal(streamed + 12, want);
        free(streamed);
        free(want);
        free(got);
        ruling_clear(&r);
    }
    sb_free(&err);
    scenario_free(&sc);
}

static bool same(json_t *a, json_t *b) {
    return (!a && !b) || json_equal(a, b);
}

/* The brief record says what the full one says, without the texts. */
static void compare_brief(const arb_ruleset *rs, const char *line, const char *full) {
    char *brief = stream_record(rs, ARB_RECORD_BRIEF, line);
    json_t *b = json_loads(brief, 0, NULL), *f = json_loads(full, 0, NULL);
    assert_non_null(b);
    assert_non_null(f);
    assert_true(same(json_object_get(b, "status"), json_object_get(f, "status")));
    assert_true(same(json_object_get(b, "line"), json_object_get(f, "line")));
    if (json_object_get(f, "articles")) {
        assert_true(same(json_object_get(b, "articles"), json_object_get(f, "articles")));
        assert_true(same(json_object_get(b, "actions"), json_object_get(f, "actions")));
        assert_true(same(json_object_get(b, "needs"), json_object_get(f, "needs")));
        assert_null(json_object_get(b, "messages"));
    } else {
        assert_true(json_equal(b, f)); /* an error record */
    }
    json_decref(b);
    json_decref(f);
    free(brief);
}

/* The flat reader settles the same facts as jansson's, where it reads a line. */
static void compare_scenarios(const arb_ruleset *rs, scenario_index *ix, const char *line) {
    scenario a, b;
    scenario_init(&a, rs);
    scenario_init(&b, rs);
    strbuf err;
    sb_init(&err);
    if (scenario_read_flat(&a, ix, line, strlen(line))) {
        flat_read++;
        assert_true(scenario_read_json(&b, line, strlen(line), &err));
        for (int f = 0; f < rs->nfacts; f++) {
            assert_int_equal(a.fv.known[f], b.fv.known[f]);
            assert_int_equal(a.given[f], b.given[f]);
            if (a.fv.known[f]) assert_int_equal(a.fv.value[f], b.fv.value[f]);
        }
        scenario_reset(&a); /* and a reset leaves nothing behind */
        for (int f = 0; f < rs->nfacts; f++)
            assert_false(a.fv.known[f] || a.given[f] || a.assumed[f]);
    }
    sb_free(&err);
    scenario_free(&a);
    scenario_free(&b);
}

static void compare_line(const arb_ruleset *rs, scenario_index *ix, const char *line) {
    char *single = NULL;
    arb_rule_json(rs, line, strlen(line), &single);
    assert_non_null(single);
    /* the batch's record is the single one with "line" last (first, in an error record) */
    char *want = malloc(strlen(single) + 32);
    if (strncmp(single, "{\"status\":", 10) == 0)
        sprintf(want, "{\"line\":1,%s\n", single + 1);
    else
        sprintf(want, "%.*s,\"line\":1}\n", (int)strlen(single) - 1, single);
    char *got = stream_record(rs, ARB_RECORD_JSON, line);
    if (strcmp(want, got) != 0)
        fprintf(stderr, "record differs for %s\n%s---\n%s", line, want, got);
    assert_string_equal(want, got);
    compared++;
    compare_brief(rs, line, got);
    compare_text(rs, line);
    compare_scenarios(rs, ix, line);
    free(got);
    free(want);
    free(single);
}

static void test_records_are_the_single_rulings(void **state) {
    (void)state;
    for (size_t i = 0; i < NRULESETS; i++) {
        arb_ruleset *rs = arb_load(rulesets[i], stderr);
        assert_non_null(rs);
        scenario_index *ix = scenario_index_new(rs);
        lines l = {0};
        example_lines(&l);
        int examples = l.n;
        test_block_lines(rs, &l);
        int base = l.n;
        for (int k = 0; k < base;
             k++) /* written otherwise: the examples, and one test block in eight */
            if (k < examples || k % 8 == 0) variants(l.line[k], &l);
        for (int k = 0; k < l.n; k++)
            compare_line(rs, ix, l.line[k]);
        free_lines(&l);
        scenario_index_free(ix);
        arb_free(rs);
    }
    fprintf(stderr, "  %d records compared, %d lines read flat\n", compared, flat_read);
    assert_true(flat_read > compared / 4); /* the fast path was the one compared, mostly */
}

/* A whole stream: many lines, blank ones, one too long, one without its
 * newline, records in order with their line numbers. */
static void test_a_stream_in_lines(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load("rulesets/bridge-2017", stderr);
    assert_non_null(rs);
    const char *good =
        "{\"dealer\":\"N\",\"auction\":\"N: 1S 1H\",\"irregularity\":\"insufficient_bid\","
        "\"replacement\":\"pass\",\"replacement_comparable\":false}";
    char *path = strdup("/tmp/arbiter-stream-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *in = fdopen(fd, "w+");
    for (int i = 0; i < 3000; i++)
        fprintf(in, "%s\n", i % 1000 == 7 ? "   " : good);
    fputc('{', in); /* a line past ARB_MAX_LINE */
    for (int i = 0; i < ARB_MAX_LINE + 10; i++)
        fputc(' ', in);
    fprintf(in, "}\n%s", good); /* the last without a newline */
    rewind(in);
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    assert_int_equal(arb_rule_stream(rs, NULL, ARB_RECORD_BRIEF, NULL, 0, in, m), ARB_BAD_INPUT);
    fclose(m);
    fclose(in);
    unlink(path);
    free(path);
    int records = 0;
    long last = 0;
    for (char *p = out; p && *p; p = strchr(p, '\n') + 1) {
        json_t *r = json_loadb(p, (size_t)(strchr(p, '\n') - p), 0, NULL);
        assert_non_null(r);
        long line = (long)json_integer_value(json_object_get(r, "line"));
        assert_true(line > last);
        last = line;
        const char *status = json_string_value(json_object_get(r, "status"));
        assert_string_equal(status, line == 3001 ? "bad_input" : "ruling");
        records++;
        json_decref(r);
    }
    assert_int_equal(records, 3000 - 3 + 2);
    assert_int_equal(last, 3002);
    free(out);
    arb_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_are_the_single_rulings),
        cmocka_unit_test(test_a_stream_in_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
