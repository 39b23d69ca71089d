/* test_report.c — the committee's reports (docs/committee.md), through
 * arbiter.h alone:
 * - every example in the shipped reports in docs/reports (made by
 *   `make reports`) is ruled again, under each ruleset the report names,
 *   and must get the trail the report shows for it; an example of a
 *   situation one ruleset holds impossible must be rejected by it;
 * - in the JSON of fresh diffs, every group's example must rule, under
 *   both rulesets, exactly as the region it was taken from says (trail,
 *   and actions by name), so that the report never shows an example of a
 *   change that `arbiter rule` does not confirm.
 * The expectations are the report's own words and the exact regions; the
 * check is an independent ruling of each example from scratch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "arbiter.h"

static arb_ruleset *r1963, *r2017, *r64a1;
static const char *const amendment = "examples/amendments/64A1-one-trick.rules";

static int group_setup(void **state) {
    (void)state;
    r1963 = arb_load("bridge-1963", stderr);
    r2017 = arb_load("bridge-2017", stderr);
    r64a1 = arb_load_amended("bridge-2017", &amendment, 1, stderr);
    return r1963 && r2017 && r64a1 ? 0 : -1;
}

static int group_teardown(void **state) {
    (void)state;
    arb_free(r1963);
    arb_free(r2017);
    arb_free(r64a1);
    return 0;
}

static arb_ruleset *by_name(const char *name, size_t len) {
    arb_ruleset *all[] = {r1963, r2017, r64a1};
    for (int i = 0; i < 3; i++)
        if (strlen(arb_name(all[i])) == len && strncmp(arb_name(all[i]), name, len) == 0)
            return all[i];
    return NULL;
}

/* The example as rs reads it: without the facts only `other` has. */
static char *scenario_for(const arb_ruleset *rs, const arb_ruleset *other, const char *example) {
    json_t *sc = json_loads(example, 0, NULL);
    assert_non_null(sc);
    const char *key;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(sc, tmp, key, v) {
        if (other && arb_fact_find(rs, key) < 0 && arb_fact_find(other, key) >= 0)
            json_object_del(sc, key);
    }
    char *text = json_dumps(sc, JSON_COMPACT);
    json_decref(sc);
    return text;
}

/* The ruling of an example under rs, as JSON. */
static json_t *rule(const arb_ruleset *rs, const arb_ruleset *other, const char *example) {
    char *text = scenario_for(rs, other, example), *out = NULL;
    arb_rule_json(rs, text, strlen(text), &out);
    json_t *j = json_loads(out, 0, NULL);
    free(text);
    free(out);
    assert_non_null(j);
    return j;
}

static void trail_text(json_t *ruling, char *buf, size_t n) {
    buf[0] = 0;
    json_t *arts = json_object_get(ruling, "articles");
    for (size_t i = 0; i < json_array_size(arts); i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, n - used, "%s%s", i ? " > " : "",
                 json_string_value(json_array_get(arts, i)));
    }
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 21];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* One ruleset's line of a group: "- **NAME (TRAIL)**: …". */
typedef struct side_line {
    const arb_ruleset *rs;
    char trail[512];
} side_line;

static bool parse_side(const char *line, side_line *s) {
    if (strncmp(line, "- **", 4) != 0) return false;
    const char *name = line + 4, *end = strstr(name, "**: ");
    const char *open = strstr(name, " (");
    if (!end) return false;
    if (!open || open > end) { /* no ruling, so no trail: "- **NAME**: what instead" */
        s->rs = by_name(name, (size_t)(end - name));
        s->trail[0] = 0;
        return s->rs != NULL;
    }
    s->rs = by_name(name, (size_t)(open - name));
    snprintf(s->trail, sizeof s->trail, "%.*s", (int)(end - open - 3), open + 2);
    return s->rs != NULL;
}

/* Every example of a Markdown report rules as the report says; returns
 * how many were checked. */
static int check_report(const char *path) {
    char *text = read_file(path);
    int checked = 0;
    side_line sides[2];
    int nsides = 0;
    bool impossible_section = false;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (strncmp(line, "## ", 3) == 0) {
            nsides = 0;
            impossible_section = !(line[3] >= '0' && line[3] <= '9');
        } else if (!impossible_section && nsides < 2 && parse_side(line, &sides[nsides])) {
            nsides++;
        } else if (!impossible_section && strcmp(line, "```") == 0 && next) {
            char *example = next;
            next = strchr(next, '\n');
            if (next) *next++ = 0;
            if (next && strncmp(next, "```", 3) == 0)
                next = strchr(next, '\n'); /* the closing fence */
            if (next) next++;
            assert_int_equal(nsides, 2);
            for (int s = 0; s < 2; s++) {
                json_t *r = rule(sides[s].rs, sides[1 - s].rs, example);
                char got[512];
                trail_text(r, got, sizeof got);
                const char *status = json_string_value(json_object_get(r, "status"));
                if (!sides[s].trail[0] && strcmp(status, "ruling") == 0)
                    fail_msg("%s: %s rules %s, the report says it gives no ruling", path,
                             arb_name(sides[s].rs), example);
                if (sides[s].trail[0] && strcmp(got, sides[s].trail) != 0)
                    fail_msg("%s: %s rules %s as %s, the report says %s", path,
                             arb_name(sides[s].rs), example, got, sides[s].trail);
                json_decref(r);
            }
            checked++;
        } else if (impossible_section && strncmp(line, "- **", 4) == 0 && strstr(line, ": {")) {
            const char *name = line + 4, *end = strstr(name, "**: ");
            arb_ruleset *rs = end ? by_name(name, (size_t)(end - name)) : NULL;
            assert_non_null(rs);
            const char *example = strstr(line, ": {") + 2;
            json_t *r = rule(rs, rs == r1963 ? r2017 : r1963, example);
            assert_string_equal(json_string_value(json_object_get(r, "status")), "rejected");
            json_decref(r);
            checked++;
        }
    }
    free(text);
    return checked;
}

static void test_shipped_reports(void **state) {
    (void)state;
    assert_true(check_report("docs/reports/1963-2017-art27.md") >= 20);
    assert_int_equal(check_report("docs/reports/64A1-one-trick.md"), 1);
}

/* The groups of a fresh diff: each example rules as its region says. */
static int check_groups(arb_ruleset *a, arb_ruleset *b, const char *article) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    arb_diff_options o = {.article = article, .format = ARB_DIFF_JSON};
    assert_int_equal(arb_diff(a, b, &o, out, NULL), ARB_OK);
    fclose(out);
    json_t *d = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(d);
    json_t *groups = json_object_get(d, "groups"), *regions = json_object_get(d, "regions");
    int checked = 0;
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *gr = json_array_get(groups, g), *ex = json_object_get(gr, "example");
        if (!json_is_object(ex)) continue;
        json_t *region = json_array_get(
            regions, (size_t)json_integer_value(json_object_get(gr, "example_region")));
        char *example = json_dumps(ex, JSON_COMPACT);
        for (int s = 0; s < 2; s++) {
            json_t *want = json_object_get(region, s ? "b" : "a");
            json_t *got = rule(s ? b : a, s ? a : b, example);
            const char *status = json_string_value(json_object_get(want, "status"));
            if (strcmp(status, "ruling") == 0) {
                assert_true(json_equal(json_object_get(want, "articles"),
                                       json_object_get(got, "articles")));
                json_t *wa = json_object_get(want, "actions"),
                       *ga = json_object_get(got, "actions");
                assert_int_equal(json_array_size(wa), json_array_size(ga));
                for (size_t i = 0; i < json_array_size(wa); i++)
                    assert_true(json_equal(json_object_get(json_array_get(wa, i), "name"),
                                           json_object_get(json_array_get(ga, i), "name")));
            } else if (strcmp(status, "unknown_value") != 0) {
                assert_string_equal(json_string_value(json_object_get(got, "status")), status);
            }
            json_decref(got);
        }
        free(example);
        checked++;
    }
    json_decref(d);
    return checked;
}

static void test_examples_rule_as_their_regions(void **state) {
    (void)state;
    assert_int_equal(check_groups(r2017, r64a1, NULL), 1);
    assert_true(check_groups(r1963, r2017, "27") >= 20);
    assert_true(check_groups(r1963, r2017, "64") >= 1);
}

/* The amendment's one change: transfer_tricks 2 against 1, with the texts
 * the rule files give (64A1 as amended), and an example the 2017 laws rule
 * with two tricks: the revoker won the revoke trick, his side a later one. */
static void test_amendment_report(void **state) {
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    arb_diff_options o = {.format = ARB_DIFF_JSON, .lang = ARB_EN};
    assert_int_equal(arb_diff(r2017, r64a1, &o, out, NULL), ARB_OK);
    fclose(out);
    json_t *d = json_loads(text, 0, NULL);
    free(text);
    json_t *groups = json_object_get(d, "groups");
    assert_int_equal(json_array_size(groups), 1);
    json_t *g = json_array_get(groups, 0);
    json_t *act_a = json_array_get(json_object_get(json_object_get(g, "a"), "actions"), 0);
    json_t *act_b = json_array_get(json_object_get(json_object_get(g, "b"), "actions"), 0);
    assert_string_equal(json_string_value(json_object_get(act_a, "name")), "transfer_tricks");
    assert_string_equal(json_string_value(json_object_get(act_a, "article")), "64A1");
    assert_non_null(strstr(json_string_value(json_object_get(act_a, "text")), "2 trick"));
    assert_non_null(strstr(json_string_value(json_object_get(act_b, "text")), "1 trick"));
    json_t *ex = json_object_get(g, "example");
    assert_string_equal(json_string_value(json_object_get(ex, "revoke_trick_won_by")), "offender");
    assert_true(json_integer_value(json_object_get(ex, "offending_side_tricks_after")) >= 1);
    assert_null(
        json_object_get(ex, "lowest_same_denomination")); /* nothing of an auction irregularity */
    json_decref(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_reports),
        cmocka_unit_test(test_examples_rule_as_their_regions),
        cmocka_unit_test(test_amendment_report),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
