/* report.c — the diff for a rules committee (report.h).
 *
 * The joint walk (core/tools/diff.c) gives one region per pair of rulings
 * that differ: exact, but a committee reads changes, not regions. Here the
 * regions are grouped by what changes between the two rulings (the actions
 * only one side gives), and each group gets one example scenario: built
 * from a region's own situation, completed where a ruling still asks a
 * fact, stripped of every fact neither ruling needs, with the record facts
 * replaced by an auction from the rulesets' own tests where one gives the
 * same rulings — and only kept when both rulesets, ruling it in full, rule
 * exactly as the region says. */
#include "report.h"

#include "builtins.h"
#include "compare.h"
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

/* ---- does a ruling say what a region says? ---------------------------------- */

static const char *str_of(json_t *o, const char *key) {
    return json_string_value(json_object_get(o, key));
}

static void value_text(json_t *v, strbuf *out) {
    if (json_is_string(v))
        sb_puts(out, json_string_value(v));
    else if (json_is_integer(v))
        sb_printf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_boolean(v))
        sb_puts(out, json_is_true(v) ? "true" : "false");
}

/* An argument the region shows as written (an expression, or a fact that
 * no decision tests), which a ruling shows by its value. */
static bool written_not_value(const ruleset *rs, const char *s) {
    return strpbrk(s, " (") != NULL || (rs && rs_find_fact(rs, s) >= 0);
}

static bool args_match(const ruleset *rs, json_t *want, json_t *got) {
    const char *key;
    json_t *w;
    json_object_foreach(want, key, w) {
        const char *ws = json_string_value(w);
        if (!ws || written_not_value(rs, ws)) continue;
        strbuf t;
        sb_init(&t);
        value_text(json_object_get(got, key), &t);
        bool same = t.data && strcmp(t.data, ws) == 0;
        sb_free(&t);
        if (!same) return false;
    }
    return true;
}

static bool ruling_matches(const ruleset *rs, json_t *want, json_t *got) {
    const char *ws = str_of(want, "status"), *gs = got ? str_of(got, "status") : NULL;
    if (!ws) return false;
    if (strcmp(ws, "unknown_value") == 0) return !gs || strcmp(gs, "bad_input") == 0; /* refused */
    if (!gs || strcmp(ws, gs) != 0) return false;
    if (strcmp(ws, "ruling") != 0) return true;
    if (!json_equal(json_object_get(want, "articles"), json_object_get(got, "articles")))
        return false;
    json_t *wa = json_object_get(want, "actions"), *ga = json_object_get(got, "actions");
    if (json_array_size(wa) != json_array_size(ga)) return false;
    for (size_t i = 0; i < json_array_size(wa); i++) {
        json_t *x = json_array_get(wa, i), *y = json_array_get(ga, i);
        const char *nx = str_of(x, "name"), *ny = str_of(y, "name");
        if (!nx || !ny || strcmp(nx, ny) != 0) return false;
        if (!args_match(rs, json_object_get(x, "args"), json_object_get(y, "args"))) return false;
    }
    return true;
}

/* What ruling_matches compares first, as one text: the status and, for a
 * ruling, its trail. Two rulings that match have the same key, but for a
 * region's "unknown_value", which a refusal matches: NULL for it. */
static char *match_key(json_t *ruling) {
    const char *st = ruling ? str_of(ruling, "status") : NULL;
    if (st && strcmp(st, "unknown_value") == 0) return NULL;
    strbuf key;
    sb_init(&key);
    sb_puts(&key, st ? st : "");
    if (st && strcmp(st, "ruling") == 0) {
        char *trail = json_dumps(json_object_get(ruling, "articles"), JSON_COMPACT);
        sb_putc(&key, '|');
        sb_puts(&key, trail ? trail : "");
        xfree(trail);
    }
    return key.data ? key.data : xstrdup(""); /* the buffer is the text */
}

bool report_ruling_matches(json_t *region_ruling, json_t *ruling) {
    return ruling_matches(NULL, region_ruling, ruling);
}

/* ---- one example per group ----------------------------------------------------- */

typedef struct search {
    const ruleset *a, *b;
    const diff_result *d;
    const diff_region *r;
    json_t *got_a, *got_b; /* the rulings of the last scenario tried */
    const char *needs;     /* a fact the last scenario left a ruling asking */
} search;

/* The scenario as ruleset rs reads it: without the facts only the other
 * ruleset has (an edition does not know what a later one asks). */
json_t *report_scenario_for(const ruleset *rs, const ruleset *other, json_t *scenario) {
    json_t *own = json_deep_copy(scenario);
    const char *key;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(own, tmp, key, v) {
        if (rs_find_fact(rs, key) < 0 && rs_find_fact(other, key) >= 0) json_object_del(own, key);
    }
    return own;
}

/* The ruling's record, as arb_rule_json writes it (full), or only the parts
 * a comparison reads (output_match_json), read from the scenario object
 * itself: a search rules thousands, with no text in between. */
static json_t *rule_scenario(const ruleset *rs, const ruleset *other, json_t *facts, bool full) {
    json_t *own = report_scenario_for(rs, other, facts), *j;
    scenario sc;
    scenario_init(&sc, rs);
    strbuf err;
    sb_init(&err);
    if (!scenario_read_object(&sc, own, &err)) {
        j = json_object();
        json_object_set_new(j, "status", json_string("bad_input"));
        json_object_set_new(j, "error", json_string(err.data ? err.data : ""));
    } else {
        ruling r;
        scenario_rule(rs, rs->root, &sc, &r, &err); /* no plugins: it cannot fail */
        j = full ? output_json(&r, &sc) : output_match_json(&r);
        ruling_clear(&r);
    }
    sb_free(&err);
    scenario_free(&sc);
    json_decref(own);
    return j;
}

static void rule_both(search *s, json_t *scenario, bool full) {
    json_decref(s->got_a);
    json_decref(s->got_b);
    s->got_a = rule_scenario(s->a, s->b, scenario, full);
    s->got_b = rule_scenario(s->b, s->a, scenario, full);
}

/* Whether both rulesets rule the scenario as the region says. */
static bool rules_as_region(search *s, json_t *scenario) {
    rule_both(s, scenario, false);
    s->needs = str_of(s->got_a, "needs");
    if (!s->needs) s->needs = str_of(s->got_b, "needs");
    return ruling_matches(s->a, s->r->json_a, s->got_a) &&
           ruling_matches(s->b, s->r->json_b, s->got_b);
}

static int joint_fact(const diff_result *d, const char *name) {
    for (int f = 0; f < d->nfacts; f++)
        if (strcmp(d->facts[f].name, name) == 0) return f;
    return -1;
}

/* The region's situation, with a value (one the region allows) for each
 * fact a ruling still asks; NULL when that does not give the region's rulings. */
static json_t *complete(search *s) {
    json_t *sc = diff_region_example(s->d, s->r);
    for (int tries = 0; tries <= s->d->nfacts; tries++) {
        if (rules_as_region(s, sc)) return sc;
        int f = s->needs ? joint_fact(s->d, s->needs) : -1;
        if (f < 0 || json_object_get(sc, s->needs)) break;
        int v = 0;
        while (s->r->allowed[f] && v < s->d->facts[f].nvalues && !s->r->allowed[f][v])
            v++;
        if (v >= s->d->facts[f].nvalues) break;
        json_object_set(sc, s->d->facts[f].name, s->d->facts[f].json[v]);
    }
    json_decref(sc);
    return NULL;
}

/* Drops, one at a time, every fact the rulings do not need. */
static json_t *minimise(search *s, json_t *sc) {
    const char *key;
    json_t *v;
    void *tmp;
    json_t *keys = json_array();
    json_object_foreach_safe(sc, tmp, key, v) json_array_append_new(keys, json_string(key));
    for (size_t i = json_array_size(keys); i-- > 0;) {
        const char *k = json_string_value(json_array_get(keys, i));
        if (strcmp(k, "auction") == 0) continue;
        json_t *without = json_deep_copy(sc);
        json_object_del(without, k);
        if (rules_as_region(s, without)) {
            json_decref(sc);
            sc = without;
        } else {
            json_decref(without);
        }
    }
    json_decref(keys);
    rules_as_region(s, sc); /* the rulings of the scenario kept */
    return sc;
}

static bool auction_fact(const ruleset *rs, const char *name) {
    int f = rs_find_fact(rs, name);
    return f >= 0 && rs->facts[f].builtin >= 0 &&
           strcmp(builtin_at(rs->facts[f].builtin)->ns, "auction") == 0;
}

static int by_length(const void *x, const void *y) {
    size_t a = strlen(*(const char *const *)x), b = strlen(*(const char *const *)y);
    return a < b ? -1 : a > b;
}

/* The auctions the rulesets' tests give, shortest first: for an example
 * that no test gives whole. */
static const char **test_auctions(const ruleset *a, const ruleset *b, int *n) {
    const rs_test *tests_a, *tests_b;
    int na = rs_tests(a, &tests_a), nb = rs_tests(b, &tests_b);
    const char **all = xcalloc((size_t)(na + nb + 1), sizeof(char *));
    *n = 0;
    for (int side = 0; side < 2; side++) {
        const rs_test *tests = side ? tests_b : tests_a;
        for (int t = 0; t < (side ? nb : na); t++) {
            const char *au = tests[t].auction;
            bool seen = !au;
            for (int i = 0; i < *n && !seen; i++)
                seen = strcmp(all[i], au) == 0;
            if (!seen) all[(*n)++] = au;
        }
    }
    qsort(all, (size_t)*n, sizeof *all, by_length);
    return all;
}

/* Record facts given by hand read better, and cannot contradict each
 * other, as an auction: the shortest test auction that gives the same
 * rulings replaces them. */
static json_t *with_auction(search *s, json_t *sc, const char **auctions, int nauctions) {
    json_t *bare = json_deep_copy(sc);
    const char *key;
    json_t *v;
    void *tmp;
    int dropped = 0;
    json_object_foreach_safe(bare, tmp, key, v) {
        if (auction_fact(s->a, key) || auction_fact(s->b, key)) {
            json_object_del(bare, key);
            dropped++;
        }
    }
    for (int i = 0; dropped && i < nauctions; i++) {
        json_t *c = json_deep_copy(bare);
        json_object_set_new(c, "auction", json_string(auctions[i]));
        if (rules_as_region(s, c)) {
            json_decref(bare);
            json_decref(sc);
            return minimise(s, c);
        }
        json_decref(c);
    }
    json_decref(bare);
    rules_as_region(s, sc);
    return sc;
}

/* ---- the rulesets' own tests as examples ------------------------------------
 * A test block is a situation its rules editor wrote by hand, with an
 * auction that fits it: where one rules as a region says, it is the
 * example, before anything built from the region's values. */

static bool test_is_case(const rs_test *t) {
    if (t->article >= 0) return false;
    for (int e = 0; e < t->nexpect; e++)
        if (!t->expect[e].negated &&
            (t->expect[e].kind == EXP_ASKS || t->expect[e].kind == EXP_REJECTED))
            return false;
    return true;
}

static json_t *given_json(const ruleset *rs, int fact, int64_t v) {
    const rs_type *t = rs->facts[fact].type;
    if (t->kind == TY_BOOL) return json_boolean(v);
    if (t->kind == TY_INT) return json_integer(v);
    strbuf name;
    sb_init(&name);
    rs_format_value(rs, t, v, FMT_NAME, &name);
    json_t *j = json_string(name.data ? name.data : "");
    sb_free(&name);
    return j;
}

json_t *report_test_scenarios(const ruleset *rs) {
    json_t *all = json_array();
    const rs_test *tests;
    int ntests = rs_tests(rs, &tests);
    for (int i = 0; i < ntests; i++) {
        const rs_test *t = &tests[i];
        if (!test_is_case(t)) continue;
        json_t *sc = json_object();
        if (t->auction) json_object_set_new(sc, "auction", json_string(t->auction));
        for (int g = 0; g < t->ngiven; g++)
            json_object_set_new(sc, rs->facts[t->given_fact[g]].name,
                                given_json(rs, t->given_fact[g], t->given_value[g]));
        json_array_append_new(all, sc);
    }
    return all;
}

/* Every test of both rulesets with its rulings under each and their
 * match_keys: [scenario, a, b, key a, key b]. */
static json_t *ruled_tests(const ruleset *a, const ruleset *b) {
    json_t *out = json_array();
    for (int side = 0; side < 2; side++) {
        json_t *tests = report_test_scenarios(side ? b : a);
        for (size_t i = 0; i < json_array_size(tests); i++) {
            json_t *sc = json_array_get(tests, i);
            json_t *ra = rule_scenario(a, b, sc, false), *rb = rule_scenario(b, a, sc, false);
            char *ka = match_key(ra), *kb = match_key(rb);
            json_array_append_new(out,
                                  json_pack("[Oo?o?ss]", sc, ra, rb, ka ? ka : "", kb ? kb : ""));
            xfree(ka);
            xfree(kb);
        }
        json_decref(tests);
    }
    return out;
}

/* Whether a test's key (from ruled_tests) rules it out for a region's
 * key (NULL: nothing is ruled out). */
static bool key_differs(const char *want, json_t *test_key) {
    return want && strcmp(want, json_string_value(test_key)) != 0;
}

/* A test that both rulesets rule as region r says, stripped of what they
 * do not need; NULL when none does. */
static json_t *test_example(search *s, json_t *tests) {
    char *ka = match_key(s->r->json_a), *kb = match_key(s->r->json_b);
    json_t *found = NULL;
    for (size_t i = 0; i < json_array_size(tests) && !found; i++) {
        json_t *t = json_array_get(tests, i);
        if (key_differs(ka, json_array_get(t, 3)) || key_differs(kb, json_array_get(t, 4)) ||
            !ruling_matches(s->a, s->r->json_a, json_array_get(t, 1)) ||
            !ruling_matches(s->b, s->r->json_b, json_array_get(t, 2)))
            continue;
        json_t *sc = json_deep_copy(json_array_get(t, 0));
        if (rules_as_region(s, sc))
            found = minimise(s, sc);
        else
            json_decref(sc);
    }
    xfree(ka);
    xfree(kb);
    return found;
}

/* The values the tests give each fact, the most used first: what a rules
 * editor writes for a replacement call (3NT, 2H), rather than the first
 * value a region allows (1C, which is no sufficient bid over 1S). */
static json_t *usual_values(json_t *tests) {
    json_t *counts = json_object(); /* fact -> {value text -> [value, n]} */
    for (size_t i = 0; i < json_array_size(tests); i++) {
        const char *key;
        json_t *v;
        json_object_foreach(json_array_get(json_array_get(tests, i), 0), key, v) {
            if (strcmp(key, "auction") == 0) continue;
            json_t *per = json_object_get(counts, key);
            if (!per) json_object_set_new(counts, key, per = json_object());
            char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
            json_t *entry = json_object_get(per, text);
            if (!entry) json_object_set_new(per, text, entry = json_pack("[Oi]", v, 0));
            json_array_set_new(entry, 1,
                               json_integer(json_integer_value(json_array_get(entry, 1)) + 1));
            xfree(text);
        }
    }
    json_t *out = json_object();
    const char *fact;
    json_t *per;
    json_object_foreach(counts, fact, per) {
        json_t *sorted = json_array();
        for (;;) { /* selection by count: a fact has few distinct values in tests */
            const char *best = NULL, *k;
            json_int_t most = 0;
            json_t *e;
            json_object_foreach(per, k, e) if (json_integer_value(json_array_get(e, 1)) > most) {
                most = json_integer_value(json_array_get(e, 1));
                best = k;
            }
            if (!best) break;
            json_array_append(sorted, json_array_get(json_object_get(per, best), 0));
            json_object_del(per, best);
        }
        json_object_set_new(out, fact, sorted);
    }
    json_decref(counts);
    return out;
}

/* Each fact of the example given the value the tests use most for it,
 * where the rulings stay those of the region. */
static json_t *usual_example(search *s, json_t *sc, json_t *usual) {
    const char *key;
    json_t *v;
    json_t *keys = json_array();
    json_object_foreach(sc, key, v) json_array_append_new(keys, json_string(key));
    for (size_t i = 0; i < json_array_size(keys); i++) {
        const char *k = json_string_value(json_array_get(keys, i));
        json_t *values = json_object_get(usual, k);
        for (size_t c = 0; c < json_array_size(values) && c < 8; c++) {
            json_t *value = json_array_get(values, c);
            if (json_equal(value, json_object_get(sc, k)))
                break; /* already the most usual that works */
            json_t *other = json_deep_copy(sc);
            json_object_set(other, k, value);
            if (rules_as_region(s, other)) {
                json_decref(sc);
                sc = other;
                break;
            }
            json_decref(other);
        }
    }
    json_decref(keys);
    rules_as_region(s, sc);
    return sc;
}

/* ---- grouping ---------------------------------------------------------------------- */

/* The actions of ruling x that ruling y does not give (by name and
 * arguments), as {"name", "args"}; or x's status when it is no ruling. */
static json_t *own_actions(json_t *x, json_t *y) {
    json_t *out = json_array(), *xs = json_object_get(x, "actions"),
           *ys = json_object_get(y, "actions");
    for (size_t i = 0; i < json_array_size(xs); i++) {
        json_t *act = json_array_get(xs, i);
        bool shared = false;
        for (size_t k = 0; k < json_array_size(ys) && !shared; k++) {
            json_t *other = json_array_get(ys, k);
            shared = json_equal(json_object_get(act, "name"), json_object_get(other, "name")) &&
                     json_equal(json_object_get(act, "args"), json_object_get(other, "args"));
        }
        if (!shared) json_array_append(out, act);
    }
    return out;
}

/* What changes between a region's two rulings, as one string: the key its
 * group is found by. Rulings with the same actions differ in their trail,
 * and then the trail is the change. */
static json_t *own_cites(json_t *own) {
    json_t *cites = json_array();
    for (size_t i = 0; i < json_array_size(own); i++) {
        json_t *c = json_object_get(json_array_get(own, i), "article");
        bool seen = false;
        for (size_t k = 0; k < json_array_size(cites) && !seen; k++)
            seen = json_equal(json_array_get(cites, k), c);
        if (!seen && c) json_array_append(cites, c);
    }
    return cites;
}

/* Regions are grouped by where the two rulings part: the citation of the
 * first action only each side gives (27b → 27B2), whatever else the trails
 * pass through. */
static char *change_key(const diff_region *r, json_t **own_a, json_t **own_b) {
    *own_a = own_actions(r->json_a, r->json_b);
    *own_b = own_actions(r->json_b, r->json_a);
    json_t *ca = own_cites(*own_a), *cb = own_cites(*own_b);
    json_t *k = json_pack("[ssOO]", str_of(r->json_a, "status"), str_of(r->json_b, "status"),
                          json_array_size(ca) ? json_array_get(ca, 0) : json_null(),
                          json_array_size(cb) ? json_array_get(cb, 0) : json_null());
    json_decref(ca);
    json_decref(cb);
    if (!json_array_size(*own_a) && !json_array_size(*own_b)) {
        json_array_append(k, json_object_get(r->json_a, "articles"));
        json_array_append(k, json_object_get(r->json_b, "articles"));
    }
    char *s = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(k);
    return s;
}

/* An action of a ruling as the group shows it: its article and its text
 * in lang, from the example's ruling where it gives the action. */
static json_t *action_shown(json_t *act, json_t *ruling, enum arb_lang lang) {
    json_t *out = json_pack("{sOsO}", "name", json_object_get(act, "name"), "args",
                            json_object_get(act, "args"));
    json_t *acts = json_object_get(ruling, "actions"),
           *msgs = json_object_get(ruling, lang == ARB_EN ? "messages_en" : "messages");
    for (size_t i = 0; i < json_array_size(acts); i++) {
        json_t *g = json_array_get(acts, i);
        if (!json_equal(json_object_get(g, "name"), json_object_get(act, "name"))) continue;
        if (!args_match(NULL, json_object_get(act, "args"), json_object_get(g, "args"))) continue;
        json_object_set(out, "article", json_object_get(g, "article"));
        json_object_set(out, "text", json_array_get(msgs, i));
        break;
    }
    return out;
}

/* One side of a group's change: its status, and what it alone gives. */
static json_t *side_change(json_t *region_ruling, json_t *own, json_t *example_ruling,
                           enum arb_lang lang) {
    json_t *side = json_pack("{sO}", "status", json_object_get(region_ruling, "status")),
           *acts = json_array();
    for (size_t i = 0; i < json_array_size(own); i++)
        json_array_append_new(acts, action_shown(json_array_get(own, i), example_ruling, lang));
    json_object_set_new(side, "actions", acts);
    json_object_set(side, "articles", json_object_get(region_ruling, "articles"));
    if (example_ruling && json_object_get(example_ruling, "error"))
        json_object_set(side, "error", json_object_get(example_ruling, "error"));
    return side;
}

/* The facts the example's two rulings decided on, and those the example
 * could not do without (an action's argument may read a fact no decision
 * tests: how many tricks the revoking side won). */
static json_t *deciding_facts(json_t *example, json_t *ra, json_t *rb) {
    json_t *facts = json_array();
    const char *key;
    json_t *v;
    json_object_foreach(example, key, v) json_array_append_new(facts, json_string(key));
    for (int side = 0; side < 2; side++) {
        json_t *by = json_object_get(side ? rb : ra, "decided_by");
        for (size_t i = 0; i < json_array_size(by); i++) {
            json_t *name = json_object_get(json_array_get(by, i), "fact");
            bool seen = false;
            for (size_t k = 0; k < json_array_size(facts) && !seen; k++)
                seen = json_equal(json_array_get(facts, k), name);
            if (!seen) json_array_append(facts, name);
        }
    }
    return facts;
}

static bool in_list(json_t *names, const char *name) {
    for (size_t i = 0; i < json_array_size(names); i++)
        if (strcmp(json_string_value(json_array_get(names, i)), name) == 0) return true;
    return false;
}

static bool same_allowed(const diff_result *d, int f, const unsigned char *x,
                         const unsigned char *y) {
    if (!x || !y) return x == y;
    return memcmp(x, y, (size_t)d->facts[f].nvalues) == 0;
}

/* The facts (of `facts`, or all when NULL) that every region of the group
 * constrains alike: per fact, 1 when common. */
static unsigned char *common_facts(const diff_result *d, const int *regions, int n, json_t *facts) {
    unsigned char *common = xcalloc((size_t)d->nfacts + 1, 1);
    for (int f = 0; f < d->nfacts; f++) {
        if (facts && !in_list(facts, d->facts[f].name)) continue;
        common[f] = 1;
        for (int i = 1; i < n && common[f]; i++)
            common[f] = same_allowed(d, f, d->regions[regions[0]].allowed[f],
                                     d->regions[regions[i]].allowed[f]);
    }
    return common;
}

/* Where the regions of a group, on the facts shown, fill the box of their
 * values fact by fact (8 regions that are every combination of three
 * yes/no facts), they read as one: *merged gets each shown fact's values
 * (NULL where that is every value), and `common` marks every shown fact.
 * False where they do not, or the box is too large to look through. */
enum { MERGE_MAX_BOX = 4096 };

static bool in_region(const diff_result *d, const diff_region *r, const int *fact, const int *value,
                      int n) {
    for (int k = 0; k < n; k++)
        if (r->allowed[fact[k]] && !r->allowed[fact[k]][value[k]]) return false;
    (void)d;
    return true;
}

static bool merge_regions(const diff_result *d, const int *regions, int n, json_t *facts,
                          unsigned char *common, diff_region *merged) {
    int *vary = xcalloc((size_t)d->nfacts + 1, sizeof(int)), nvary = 0;
    double box = 1;
    merged->allowed = xcalloc((size_t)d->nfacts + 1, sizeof(unsigned char *));
    for (int f = 0; f < d->nfacts; f++) {
        if (facts && !in_list(facts, d->facts[f].name)) continue;
        int nv = d->facts[f].nvalues, k = 0;
        unsigned char *u = xcalloc((size_t)nv, 1);
        for (int i = 0; i < n; i++)
            for (int v = 0; v < nv; v++)
                u[v] |= !d->regions[regions[i]].allowed[f] || d->regions[regions[i]].allowed[f][v];
        for (int v = 0; v < nv; v++)
            k += u[v];
        if (k == nv) xfree(u), u = NULL;
        merged->allowed[f] = u;
        if (!common[f]) {
            vary[nvary++] = f;
            box *= u ? k : nv;
        }
    }
    bool whole = nvary > 0 && box <= MERGE_MAX_BOX;
    int *value = xcalloc((size_t)nvary + 1, sizeof(int));
    /* every combination of the varying facts' values, as an odometer */
    while (whole) {
        bool allowed = true;
        for (int k = 0; k < nvary && allowed; k++)
            allowed = !merged->allowed[vary[k]] || merged->allowed[vary[k]][value[k]];
        bool covered = !allowed;
        for (int i = 0; i < n && !covered; i++)
            covered = in_region(d, &d->regions[regions[i]], vary, value, nvary);
        whole = covered;
        int k = 0;
        while (k < nvary && ++value[k] == d->facts[vary[k]].nvalues)
            value[k++] = 0;
        if (k == nvary) break;
    }
    if (whole)
        for (int k = 0; k < nvary; k++)
            common[vary[k]] = 1;
    xfree(value);
    xfree(vary);
    return whole;
}

/* A region's constraints on the facts `pick` marks (want 1: the common
 * ones; want 0: the others among `facts`), in words. */
static char *situation_text(const diff_result *d, const diff_region *r, json_t *facts,
                            const unsigned char *pick, int want) {
    diff_region shown = *r;
    shown.allowed = xcalloc((size_t)d->nfacts + 1, sizeof(unsigned char *));
    for (int f = 0; f < d->nfacts; f++)
        if ((!facts || in_list(facts, d->facts[f].name)) && pick[f] == want)
            shown.allowed[f] = r->allowed[f];
    strbuf sb;
    sb_init(&sb);
    diff_region_text(d, &shown, &sb);
    xfree(shown.allowed);
    return sb_take(&sb);
}

typedef struct group {
    char *key;
    int *regions, n;
    double count;
} group;

/* Article order: "27B2" after "27A1", "64" after "27", "31c" after "31". */
static int cite_cmp(const char *x, const char *y) {
    if (!x || !y) return !x - !y;
    long nx = strtol(x, NULL, 10), ny = strtol(y, NULL, 10);
    return nx != ny ? (nx > ny) - (nx < ny) : strcmp(x, y);
}

static bool key_impossible(json_t *key) {
    return strcmp(json_string_value(json_array_get(key, 0)), "rejected") == 0 ||
           strcmp(json_string_value(json_array_get(key, 1)), "rejected") == 0;
}

/* Changes of ruling first, in the order of the articles where the rulings
 * part (the second ruleset's, then the first's); then the situations only
 * one ruleset holds impossible. */
static int by_article(const void *x, const void *y) {
    json_t *kx = json_loads(((const group *)x)->key, 0, NULL),
           *ky = json_loads(((const group *)y)->key, 0, NULL);
    bool ix = key_impossible(kx), iy = key_impossible(ky);
    int c = ix != iy ? ix - iy
                     : cite_cmp(json_string_value(json_array_get(kx, 3)),
                                json_string_value(json_array_get(ky, 3)));
    if (!c)
        c = cite_cmp(json_string_value(json_array_get(kx, 2)),
                     json_string_value(json_array_get(ky, 2)));
    json_decref(kx);
    json_decref(ky);
    return c;
}

/* Regions of a group tried for an example before it is shown without one. */
enum { MAX_TRIES = 24 };

static json_t *group_json(const ruleset *a, const ruleset *b, const diff_result *d, const group *g,
                          const char **auctions, int nauctions, json_t *tests, json_t *usual,
                          enum arb_lang lang) {
    search s = {a, b, d, NULL, NULL, NULL, NULL};
    json_t *example = NULL;
    int at = g->regions[0];
    bool *tried = xcalloc((size_t)g->n, sizeof(bool));
    /* the widest regions first: the likeliest to hold a plain situation */
    for (int tries = 0; tries < g->n && tries < MAX_TRIES && !example; tries++) {
        int best = -1;
        for (int i = 0; i < g->n; i++)
            if (!tried[i] &&
                (best < 0 || d->regions[g->regions[i]].count > d->regions[g->regions[best]].count))
                best = i;
        tried[best] = true;
        at = g->regions[best];
        s.r = &d->regions[at];
        example = test_example(&s, tests);
    }
    for (int i = 0; i < g->n; i++)
        tried[i] = false;
    for (int tries = 0; tries < g->n && tries < MAX_TRIES && !example; tries++) {
        int best = -1;
        for (int i = 0; i < g->n; i++)
            if (!tried[i] &&
                (best < 0 || d->regions[g->regions[i]].count > d->regions[g->regions[best]].count))
                best = i;
        tried[best] = true;
        at = g->regions[best];
        s.r = &d->regions[at];
        example = complete(&s);
        if (example)
            example = usual_example(
                &s, with_auction(&s, minimise(&s, example), auctions, nauctions), usual);
    }
    xfree(tried);
    if (example) rule_both(&s, example, true); /* the example's whole records, texts and all */
    const diff_region *r = &d->regions[at];
    json_t *own_a, *own_b;
    xfree(change_key(r, &own_a, &own_b));
    json_t *o = json_object(), *regions = json_array(), *situations = json_array();
    json_object_set_new(o, "impossible",
                        json_boolean(strcmp(str_of(r->json_a, "status"), "rejected") == 0 ||
                                     strcmp(str_of(r->json_b, "status"), "rejected") == 0));
    json_object_set_new(o, "a", side_change(r->json_a, own_a, example ? s.got_a : NULL, lang));
    json_object_set_new(o, "b", side_change(r->json_b, own_b, example ? s.got_b : NULL, lang));
    json_decref(own_a);
    json_decref(own_b);
    json_t *facts = example ? deciding_facts(example, s.got_a, s.got_b) : NULL;
    unsigned char *common = common_facts(d, g->regions, g->n, facts);
    diff_region merged = {0};
    bool whole = merge_regions(d, g->regions, g->n, facts, common, &merged);
    char *shared =
        situation_text(d, whole ? &merged : &d->regions[g->regions[0]], facts, common, 1);
    json_object_set_new(o, "common", json_string(shared));
    xfree(shared);
    for (int f = 0; f < d->nfacts; f++)
        xfree(merged.allowed ? merged.allowed[f] : NULL);
    xfree(merged.allowed);
    for (int i = 0; i < g->n; i++) {
        json_array_append_new(regions, json_integer(g->regions[i]));
        char *text = whole ? xstrdup("(every situation)")
                           : situation_text(d, &d->regions[g->regions[i]], facts, common, 0);
        bool seen = strcmp(text, "(every situation)") == 0;
        for (size_t k = 0; k < json_array_size(situations) && !seen; k++)
            seen = strcmp(json_string_value(json_array_get(situations, k)), text) == 0;
        if (!seen) json_array_append_new(situations, json_string(text));
        xfree(text);
    }
    xfree(common);
    json_object_set_new(o, "regions", regions);
    json_object_set_new(o, "count", json_real(g->count));
    json_object_set_new(o, "facts", facts ? facts : json_null());
    json_object_set_new(o, "situations", situations);
    json_object_set_new(o, "example", example ? example : json_null());
    json_object_set_new(o, "example_region", example ? json_integer(at) : json_null());
    json_object_set_new(o, "rulings",
                        example ? json_pack("{sOsO}", "a", s.got_a, "b", s.got_b) : json_null());
    json_decref(s.got_a);
    json_decref(s.got_b);
    return o;
}

json_t *report_groups(const ruleset *a, const ruleset *b, const diff_result *d,
                      enum arb_lang lang) {
    group *groups = xcalloc((size_t)d->nregions + 1, sizeof(group));
    int ngroups = 0;
    for (int i = 0; i < d->nregions; i++) {
        json_t *own_a, *own_b;
        char *key = change_key(&d->regions[i], &own_a, &own_b);
        json_decref(own_a);
        json_decref(own_b);
        int g = 0;
        while (g < ngroups && strcmp(groups[g].key, key) != 0)
            g++;
        if (g == ngroups) {
            groups[ngroups].key = key;
            groups[ngroups++].regions = xcalloc((size_t)d->nregions, sizeof(int));
        } else {
            xfree(key);
        }
        groups[g].regions[groups[g].n++] = i;
        groups[g].count += d->regions[i].count;
    }
    qsort(groups, (size_t)ngroups, sizeof *groups, by_article);
    int nauctions;
    const char **auctions = test_auctions(a, b, &nauctions);
    json_t *out = json_array(), *tests = ngroups ? ruled_tests(a, b) : json_array();
    json_t *usual = usual_values(tests);
    for (int g = 0; g < ngroups; g++) {
        json_array_append_new(
            out, group_json(a, b, d, &groups[g], auctions, nauctions, tests, usual, lang));
        xfree(groups[g].key);
        xfree(groups[g].regions);
    }
    json_decref(tests);
    json_decref(usual);
    xfree(auctions);
    xfree(groups);
    return out;
}

/* ---- writing it ------------------------------------------------------------------- */

typedef struct words {
    const char *title, *limited, *summary_one, *summary_many, *in_articles, *none, *share,
        *regions_note, *own_facts, *situations, *example, *try_it, *no_example, *nothing,
        *no_measure, *rejected, *unknown_value, *outside, *gap, *error, *and_word,
        *impossible_title, *impossible_count, *own_facts_note;
} words;

static const words dutch = {
    "Verschil",
    "situaties waarin artikel %s meedoet",
    "1 soort situatie krijgt een andere uitspraak",
    "%d soorten situaties krijgen een andere uitspraak",
    "waar de uitspraken uiteengaan",
    "geen",
    "Samen %s van de %s combinaties van feiten die de vergelijking telt (%s%%).",
    "De exacte lijst (%d gebied%s, elk met zijn grenzen) geeft `arbiter diff --format exact`; voor "
    "programma's `--format json`.",
    "Feiten die alleen %s kent en die hier meebeslissen",
    "Situaties",
    "Voorbeeld",
    "Probeer",
    "(geen voorbeeld gevonden dat beide regelsets volledig beoordelen zoals dit gebied zegt)",
    "Geen enkele uitspraak verandert.",
    "geen eigen maatregel",
    "onmogelijke situatie volgens deze regelset",
    "deze waarde bestaat in deze regelset niet",
    "buiten wat deze regelset regelt",
    "geen uitspraak (een gat in de regels)",
    "de uitspraak kan niet worden bepaald",
    "en",
    "Situaties die maar één van beide regelsets onmogelijk noemt",
    " Daarnaast %d soort%s situaties die maar één van beide onmogelijk noemt (aan het eind).",
    "Een voorbeeld dat zo'n feit noemt, geef je aan %s zonder dat feit."};

static const words english = {
    "Difference",
    "situations in which article %s takes part",
    "1 kind of situation is ruled differently",
    "%d kinds of situation are ruled differently",
    "where the rulings part",
    "none",
    "Together %s of the %s fact combinations the comparison counts (%s%%).",
    "The exact list (%d region%s, each with its bounds) is `arbiter diff --format exact`; for "
    "programs `--format json`.",
    "Facts only %s has that take part here",
    "Situations",
    "Example",
    "Try it",
    "(no example found that both rulesets, ruling it in full, rule as this region says)",
    "No ruling changes.",
    "no measure of its own",
    "an impossible situation under this ruleset",
    "this value does not exist in this ruleset",
    "outside what this ruleset rules on",
    "no ruling (a gap in the rules)",
    "the ruling cannot be made",
    "and",
    "Situations only one of the two rulesets holds impossible",
    " Besides, %d kind%s of situation only one of the two holds impossible (at the end).",
    "An example that gives such a fact is ruled under %s without it."};

typedef struct writer {
    FILE *out;
    enum report_format fmt;
    const words *w;
} writer;

static void put_escaped(writer *wr, const char *s) {
    if (wr->fmt != REPORT_HTML) {
        fputs(s, wr->out);
        return;
    }
    bool in_code = false; /* `…` is code in the words; HTML says so with <code> */
    for (; *s; s++) {
        if (*s == '`')
            fputs((in_code = !in_code) ? "<code>" : "</code>", wr->out);
        else if (*s == '<')
            fputs("&lt;", wr->out);
        else if (*s == '>')
            fputs("&gt;", wr->out);
        else if (*s == '&')
            fputs("&amp;", wr->out);
        else if (*s == '"')
            fputs("&quot;", wr->out);
        else
            fputc(*s, wr->out);
    }
    if (in_code) fputs("</code>", wr->out);
}

static void heading(writer *wr, int level, const char *text) {
    if (wr->fmt == REPORT_MARKDOWN) fprintf(wr->out, "%.*s ", level, "####");
    if (wr->fmt == REPORT_HTML) fprintf(wr->out, "<h%d>", level);
    put_escaped(wr, text);
    if (wr->fmt == REPORT_HTML) fprintf(wr->out, "</h%d>", level);
    fputs(wr->fmt == REPORT_TEXT && level > 1 ? "\n" : "\n\n", wr->out);
}

static void paragraph(writer *wr, const char *text) {
    if (wr->fmt == REPORT_HTML) fputs("<p>", wr->out);
    put_escaped(wr, text);
    fputs(wr->fmt == REPORT_HTML ? "</p>\n" : "\n", wr->out);
    if (wr->fmt != REPORT_TEXT) fputc('\n', wr->out);
}

static void list_open(writer *wr) {
    if (wr->fmt == REPORT_HTML) fputs("<ul>\n", wr->out);
}

static void list_close(writer *wr) {
    fputs(wr->fmt == REPORT_HTML ? "</ul>\n" : wr->fmt == REPORT_MARKDOWN ? "\n" : "", wr->out);
}

/* A list item: `label: ` (bold where the format has it), then text. */
static void item(writer *wr, const char *label, const char *text) {
    fputs(wr->fmt == REPORT_HTML ? "<li>" : wr->fmt == REPORT_MARKDOWN ? "- " : "   ", wr->out);
    if (label) {
        fputs(wr->fmt == REPORT_HTML ? "<b>" : wr->fmt == REPORT_MARKDOWN ? "**" : "", wr->out);
        put_escaped(wr, label);
        fputs(wr->fmt == REPORT_HTML       ? "</b>: "
              : wr->fmt == REPORT_MARKDOWN ? "**: "
                                           : ": ",
              wr->out);
    }
    put_escaped(wr, text);
    fputs(wr->fmt == REPORT_HTML ? "</li>\n" : "\n", wr->out);
}

static void code(writer *wr, const char *text) {
    if (wr->fmt == REPORT_MARKDOWN) fputs("```\n", wr->out);
    if (wr->fmt == REPORT_HTML) fputs("<pre>", wr->out);
    if (wr->fmt == REPORT_TEXT) fputs("   ", wr->out);
    put_escaped(wr, text);
    fputs(wr->fmt == REPORT_MARKDOWN ? "\n```\n\n"
          : wr->fmt == REPORT_HTML   ? "</pre>\n"
                                     : "\n",
          wr->out);
}

static void count_text(double n, strbuf *out) {
    if (n < 1e15)
        sb_printf(out, "%.0f", n);
    else
        sb_printf(out, "%.3g", n);
}

/* "27B2: De partner … ; 16C: …", or what the side gives instead of a ruling. */
static void side_text(const words *w, json_t *side, strbuf *out) {
    const char *status = str_of(side, "status");
    if (status && strcmp(status, "ruling") != 0) {
        const char *what = strcmp(status, "rejected") == 0        ? w->rejected
                           : strcmp(status, "unknown_value") == 0 ? w->unknown_value
                           : strcmp(status, "outside") == 0       ? w->outside
                           : strcmp(status, "gap") == 0           ? w->gap
                                                                  : w->error;
        sb_puts(out, what);
        if (str_of(side, "error")) sb_printf(out, " (%s)", str_of(side, "error"));
        return;
    }
    json_t *acts = json_object_get(side, "actions");
    if (!json_array_size(acts)) {
        json_t *trail = json_object_get(side, "articles");
        sb_printf(out, "%s: %s",
                  json_string_value(json_array_get(trail, json_array_size(trail) - 1)),
                  w->no_measure);
    }
    for (size_t i = 0; i < json_array_size(acts); i++) {
        json_t *act = json_array_get(acts, i);
        if (i) sb_puts(out, " ");
        if (str_of(act, "article")) sb_printf(out, "%s: ", str_of(act, "article"));
        if (str_of(act, "text")) {
            sb_puts(out, str_of(act, "text"));
            continue;
        }
        sb_puts(out, str_of(act, "name"));
        const char *k;
        json_t *v;
        int n = 0;
        json_object_foreach(json_object_get(act, "args"), k, v)
            sb_printf(out, "%s%s", n++ ? ", " : "(", json_string_value(v));
        if (n) sb_putc(out, ')');
        sb_putc(out, '.');
    }
}

static void trail_text(json_t *trail, strbuf *out) {
    for (size_t i = 0; i < json_array_size(trail); i++)
        sb_printf(out, "%s%s", i ? " > " : "", json_string_value(json_array_get(trail, i)));
}

static size_t count_impossible(json_t *groups, bool impossible) {
    size_t n = 0;
    for (size_t g = 0; g < json_array_size(groups); g++)
        n += json_is_true(json_object_get(json_array_get(groups, g), "impossible")) == impossible;
    return n;
}

static int by_cite(const void *x, const void *y) {
    return cite_cmp(json_string_value(*(json_t *const *)x), json_string_value(*(json_t *const *)y));
}

/* Where each change starts on one side: the first article its own actions
 * cite (or its trail's last step), over the changes of ruling; sorted. */
static json_t *collect_articles(json_t *groups, const char *side) {
    json_t *into = json_array();
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *gr = json_array_get(groups, g);
        if (json_is_true(json_object_get(gr, "impossible"))) continue;
        json_t *s = json_object_get(gr, side), *acts = json_object_get(s, "actions");
        json_t *trail = json_object_get(s, "articles");
        json_t *c = json_array_size(acts) ? json_object_get(json_array_get(acts, 0), "article")
                                          : json_array_get(trail, json_array_size(trail) - 1);
        if (!c) continue;
        bool seen = false;
        for (size_t k = 0; k < json_array_size(into) && !seen; k++)
            seen = json_equal(json_array_get(into, k), c);
        if (!seen) json_array_append(into, c);
    }
    size_t n = json_array_size(into);
    json_t **items = xcalloc(n + 1, sizeof(json_t *));
    for (size_t i = 0; i < n; i++)
        items[i] = json_incref(json_array_get(into, i));
    qsort(items, n, sizeof *items, by_cite);
    json_array_clear(into);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(into, items[i]);
    xfree(items);
    return into;
}

static void cite_list_text(json_t *cites, const words *w, strbuf *out) {
    for (size_t i = 0; i < json_array_size(cites); i++)
        sb_printf(out, "%s%s", i ? ", " : "", json_string_value(json_array_get(cites, i)));
    if (!json_array_size(cites)) sb_puts(out, w->none);
}

static void write_summary(writer *wr, const ruleset *a, const ruleset *b, const diff_result *d,
                          json_t *groups) {
    const words *w = wr->w;
    strbuf sb;
    sb_init(&sb);
    int n = (int)count_impossible(groups, false), odd = (int)count_impossible(groups, true);
    if (!n && !odd) {
        paragraph(wr, w->nothing);
        sb_free(&sb);
        return;
    }
    sb_printf(&sb, n == 1 ? w->summary_one : w->summary_many, n);
    json_t *arts_a = collect_articles(groups, "a"), *arts_b = collect_articles(groups, "b");
    if (json_equal(arts_a, arts_b)) {
        sb_printf(&sb, "; %s: ", w->in_articles);
        cite_list_text(arts_a, w, &sb);
    } else {
        sb_printf(&sb, "; %s: %s ", w->in_articles, a->name);
        cite_list_text(arts_a, w, &sb);
        sb_printf(&sb, "; %s ", b->name);
        cite_list_text(arts_b, w, &sb);
    }
    json_decref(arts_a);
    json_decref(arts_b);
    sb_putc(&sb, '.');
    if (odd) sb_printf(&sb, w->impossible_count, odd, odd == 1 ? "" : (w == &dutch ? "en" : "s"));
    paragraph(wr, sb.data);
    strbuf x, y, pct;
    sb_init(&x);
    sb_init(&y);
    sb_init(&pct);
    count_text(d->differing, &x);
    count_text(d->differing + d->equal, &y);
    double share = d->differing + d->equal > 0 ? 100 * d->differing / (d->differing + d->equal) : 0;
    sb_printf(&pct, share > 0 && share < 0.1 ? "%.2g" : "%.1f", share);
    sb.len = 0;
    if (sb.data) sb.data[0] = 0;
    sb_printf(&sb, w->share, x.data, y.data, pct.data);
    sb_puts(&sb, " ");
    sb_printf(&sb, w->regions_note, d->nregions,
              d->nregions == 1 ? "" : (w == &dutch ? "en" : "s"));
    paragraph(wr, sb.data);
    sb_free(&x);
    sb_free(&y);
    sb_free(&pct);
    sb_free(&sb);
}

/* The facts only one ruleset has, where some group's situations name them. */
static void write_own_facts(writer *wr, const ruleset *a, const ruleset *b, const diff_result *d,
                            json_t *groups) {
    for (int side = 0; side < 2; side++) {
        strbuf sb;
        sb_init(&sb);
        int n = 0;
        for (int f = 0; f < d->nfacts; f++) {
            if ((side ? d->facts[f].fa : d->facts[f].fb) >= 0) continue;
            bool used = false;
            for (size_t g = 0; g < json_array_size(groups) && !used; g++) {
                json_t *facts = json_object_get(json_array_get(groups, g), "facts");
                if (json_is_array(facts)) used = in_list(facts, d->facts[f].name);
            }
            if (used) sb_printf(&sb, "%s%s", n++ ? ", " : "", d->facts[f].name);
        }
        if (n) {
            strbuf line;
            sb_init(&line);
            sb_printf(&line, wr->w->own_facts, side ? b->name : a->name);
            sb_printf(&line, ": %s. ", sb.data);
            sb_printf(&line, wr->w->own_facts_note, side ? a->name : b->name);
            paragraph(wr, line.data);
            sb_free(&line);
        }
        sb_free(&sb);
    }
}

/* The first sentence of a text: up to a full stop followed by a capital,
 * not the one of an abbreviation such as "art. 27". */
static size_t sentence_length(const char *text) {
    for (const char *p = text; (p = strstr(p, ". ")) != NULL; p++) {
        bool abbreviation = p - text >= 3 && strncmp(p - 3, "art", 3) == 0;
        if (!abbreviation && p[2] >= 'A' && p[2] <= 'Z') return (size_t)(p - text) + 1;
    }
    return strlen(text);
}

/* The title's part for one side: each changed clause with the first
 * sentence of its first text ("27B2: De partner … passen."). */
static void side_title(const words *w, json_t *side, strbuf *out) {
    const char *status = str_of(side, "status");
    json_t *acts = json_object_get(side, "actions");
    if ((status && strcmp(status, "ruling") != 0) || !json_array_size(acts)) {
        json_t *bare = json_deep_copy(side);
        json_object_del(bare, "error");
        side_text(w, bare, out);
        json_decref(bare);
        return;
    }
    const char *last = NULL;
    for (size_t i = 0; i < json_array_size(acts); i++) {
        json_t *act = json_array_get(acts, i);
        const char *cite = str_of(act, "article"), *text = str_of(act, "text");
        if (last && cite && strcmp(last, cite) == 0) continue; /* one sentence per clause */
        sb_printf(out, "%s%s: ", last ? "; " : "", cite ? cite : "");
        last = cite ? cite : "";
        if (!text) {
            sb_puts(out, str_of(act, "name"));
            continue;
        }
        size_t n = sentence_length(text);
        if (n > 110) {
            n = 100;
            while (n > 60 && text[n] != ' ')
                n--;
            sb_putn(out, text, n);
            sb_puts(out, " …");
        } else {
            sb_putn(out, text, n);
        }
    }
}

static void write_group(writer *wr, const ruleset *a, const ruleset *b, json_t *g, int number) {
    const words *w = wr->w;
    strbuf title, sa, sb;
    sb_init(&title);
    sb_init(&sa);
    sb_init(&sb);
    sb_printf(&title, "%d. ", number);
    side_title(w, json_object_get(g, "a"), &title);
    sb_puts(&title, " → ");
    side_title(w, json_object_get(g, "b"), &title);
    side_text(w, json_object_get(g, "a"), &sa);
    side_text(w, json_object_get(g, "b"), &sb);
    if (wr->fmt == REPORT_TEXT) fputc('\n', wr->out);
    heading(wr, 2, title.data);
    json_t *rulings = json_object_get(g, "rulings");
    list_open(wr);
    for (int side = 0; side < 2; side++) {
        json_t *r = json_is_object(rulings) ? json_object_get(rulings, side ? "b" : "a") : NULL;
        json_t *trail = r ? json_object_get(r, "articles")
                          : json_object_get(json_object_get(g, side ? "b" : "a"), "articles");
        strbuf t, label;
        sb_init(&t);
        sb_init(&label);
        sb_puts(&label, side ? b->name : a->name);
        if (json_array_size(trail)) {
            sb_puts(&label, " (");
            trail_text(trail, &label);
            sb_putc(&label, ')');
        }
        item(wr, label.data, side ? sb.data : sa.data);
        sb_free(&t);
        sb_free(&label);
    }
    const char *common = str_of(g, "common");
    json_t *sits = json_object_get(g, "situations");
    strbuf label;
    sb_init(&label);
    sb_printf(&label, "%s", w->situations);
    if (common && strcmp(common, "(every situation)") != 0)
        item(wr, label.data, common);
    else if (!json_array_size(sits))
        item(wr, label.data, common ? common : "");
    for (size_t i = 0; i < json_array_size(sits) && i < 6; i++)
        item(wr, NULL, json_string_value(json_array_get(sits, i)));
    if (json_array_size(sits) > 6) {
        sb_free(&label);
        sb_printf(&label, "… (%zu)", json_array_size(sits));
        item(wr, NULL, label.data);
    }
    sb_free(&label);
    list_close(wr);
    json_t *ex = json_object_get(g, "example");
    if (json_is_object(ex)) {
        char *s = json_dumps(ex, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (wr->fmt == REPORT_TEXT)
            fprintf(wr->out, "   %s:\n", w->example);
        else
            paragraph(wr, w->example);
        code(wr, s);
        xfree(s);
    } else {
        paragraph(wr, w->no_example);
    }
    sb_free(&title);
    sb_free(&sa);
    sb_free(&sb);
}

/* Situations only one ruleset holds impossible are no change of ruling a
 * committee weighs but a difference in what the two take for granted: one
 * line per invariant, with how many kinds of situation it takes away and
 * an example. */
static void write_impossible(writer *wr, const ruleset *a, const ruleset *b, json_t *groups) {
    if (!count_impossible(groups, true)) return;
    if (wr->fmt == REPORT_TEXT) fputc('\n', wr->out);
    heading(wr, 2, wr->w->impossible_title);
    json_t *seen = json_object(); /* "side|message" -> group index of its first */
    json_t *counts = json_object();
    for (size_t g = 0; g < json_array_size(groups); g++) {
        json_t *gr = json_array_get(groups, g);
        if (!json_is_true(json_object_get(gr, "impossible"))) continue;
        bool a_rejects = strcmp(str_of(json_object_get(gr, "a"), "status"), "rejected") == 0;
        const char *why = str_of(json_object_get(gr, a_rejects ? "a" : "b"), "error");
        strbuf key;
        sb_init(&key);
        sb_printf(&key, "%s|%s", a_rejects ? a->name : b->name, why ? why : "");
        json_t *first = json_object_get(seen, key.data);
        if (!first || (!json_is_object(json_object_get(
                           json_array_get(groups, (size_t)json_integer_value(first)), "example")) &&
                       json_is_object(json_object_get(gr, "example"))))
            json_object_set_new(seen, key.data, json_integer((json_int_t)g));
        json_object_set_new(
            counts, key.data,
            json_integer(json_integer_value(json_object_get(counts, key.data)) + 1));
        sb_free(&key);
    }
    list_open(wr);
    const char *key;
    json_t *at;
    json_object_foreach(seen, key, at) {
        json_t *gr = json_array_get(groups, (size_t)json_integer_value(at));
        const char *bar = strchr(key, '|');
        strbuf line, label;
        sb_init(&line);
        sb_init(&label);
        sb_printf(&label, "%.*s", (int)(bar - key), key); /* the ruleset that rejects */
        sb_printf(&line, "%s (%lld×)", bar[1] ? bar + 1 : wr->w->rejected,
                  (long long)json_integer_value(json_object_get(counts, key)));
        json_t *ex = json_object_get(gr, "example");
        if (json_is_object(ex)) {
            char *s = json_dumps(ex, JSON_COMPACT | JSON_PRESERVE_ORDER);
            sb_printf(&line, " — %s: %s", wr->w->example, s);
            xfree(s);
        }
        item(wr, label.data, line.data);
        sb_free(&line);
        sb_free(&label);
    }
    list_close(wr);
    json_decref(seen);
    json_decref(counts);
}

void report_write(const ruleset *a, const ruleset *b, const diff_result *d, json_t *groups,
                  const char *note, enum report_format format, enum arb_lang lang, FILE *out) {
    writer wr = {out, format, lang == ARB_EN ? &english : &dutch};
    strbuf title;
    sb_init(&title);
    sb_printf(&title, "%s %s → %s", wr.w->title, a->name, b->name);
    if (d->article) {
        /* the article with its title (the newer ruleset's, in lang where it has one) */
        const ruleset *has = rs_find_article(b, d->article) >= 0 ? b : a;
        int k = rs_find_article(has, d->article);
        const rs_article *art = k >= 0 ? &has->articles[k] : NULL;
        const char *name = !art                              ? NULL
                           : lang == ARB_EN && art->title_en ? art->title_en
                                                             : art->title;
        strbuf cite;
        sb_init(&cite);
        sb_puts(&cite, d->article);
        if (name && *name) sb_printf(&cite, ", %s,", name);
        sb_puts(&title, " (");
        sb_printf(&title, wr.w->limited, cite.data);
        sb_putc(&title, ')');
        sb_free(&cite);
    }
    if (format == REPORT_HTML) {
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", out);
        put_escaped(&wr, title.data);
        fputs("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:2em "
              "auto;line-height:1.4}"
              "pre{background:#f4f4f4;padding:.5em;white-space:pre-wrap}h2{font-size:1.1em;margin-"
              "top:2em}</style>\n"
              "</head><body>\n",
              out);
    }
    heading(&wr, 1, title.data);
    write_summary(&wr, a, b, d, groups);
    if (note && *note) paragraph(&wr, note);
    write_own_facts(&wr, a, b, d, groups);
    for (size_t g = 0, n = 0; g < json_array_size(groups); g++)
        if (!json_is_true(json_object_get(json_array_get(groups, g), "impossible")))
            write_group(&wr, a, b, json_array_get(groups, g), (int)++n);
    write_impossible(&wr, a, b, groups);
    if (format == REPORT_HTML) fputs("</body></html>\n", out);
    sb_free(&title);
}

/* ---- past cases ----------------------------------------------------------------------
 * Every line of a corpus ruled under both rulesets. A line either ruleset
 * cannot rule on (bad input, an impossible situation, a fact left
 * unanswered, a gap) is neither changed nor unchanged: it is listed with
 * its line and why, and counted apart. */

static bool ruled(json_t *r) {
    const char *s = str_of(r, "status");
    return s && (strcmp(s, "ruling") == 0 || strcmp(s, "outside") == 0);
}

/* Why a ruling is none: its error, with what it asks. */
static void why_not_ruled(json_t *r, strbuf *out) {
    const char *err = str_of(r, "error"), *status = str_of(r, "status");
    sb_puts(out, err ? err : status ? status : "no ruling");
}

/* The change between two rulings in one line: the actions only each
 * gives, with their articles (texts in lang), or the trails. */
static char *change_line(json_t *ra, json_t *rb, enum arb_lang lang) {
    const words *w = lang == ARB_EN ? &english : &dutch;
    json_t *own_a = own_actions(ra, rb), *own_b = own_actions(rb, ra);
    strbuf out;
    sb_init(&out);
    for (int side = 0; side < 2; side++) {
        json_t *r = side ? rb : ra, *own = side ? own_b : own_a;
        json_t *shown = side_change(r, own, r, lang);
        if (!json_array_size(own) && !json_array_size(side ? own_a : own_b)) {
            trail_text(json_object_get(r, "articles"), &out); /* the trail is the change */
        } else {
            side_text(w, shown, &out);
        }
        json_decref(shown);
        if (!side) sb_puts(&out, " → ");
    }
    json_decref(own_a);
    json_decref(own_b);
    return sb_take(&out);
}

typedef struct case_totals {
    int total, changed, unchanged, not_ruled;
    json_t *changes;  /* {"change": text, "cases": n, "lines": [..]} */
    json_t *rulings;  /* the changed cases, as before */
    json_t *failures; /* {"line", "scenario", "a", "b"}: why each side could not rule ("" if it
                         could) */
} case_totals;

static void count_change(case_totals *t, const char *change, long line) {
    for (size_t i = 0; i < json_array_size(t->changes); i++) {
        json_t *c = json_array_get(t->changes, i);
        if (strcmp(str_of(c, "change"), change) != 0) continue;
        json_object_set_new(c, "cases",
                            json_integer(json_integer_value(json_object_get(c, "cases")) + 1));
        json_array_append_new(json_object_get(c, "lines"), json_integer(line));
        return;
    }
    json_array_append_new(t->changes, json_pack("{sssis[I]}", "change", change, "cases", 1, "lines",
                                                (json_int_t)line));
}

static void one_case(const ruleset *a, const ruleset *b, const char *text, size_t len, long line,
                     bool json, enum arb_lang lang, case_totals *t, FILE *out) {
    char *sa = NULL, *sb = NULL;
    arb_rule_json(a, text, len, &sa);
    arb_rule_json(b, text, len, &sb);
    json_t *ra = sa ? json_loads(sa, 0, NULL) : NULL, *rb = sb ? json_loads(sb, 0, NULL) : NULL;
    xfree(sa);
    xfree(sb);
    t->total++;
    if (!ruled(ra) || !ruled(rb)) {
        t->not_ruled++;
        strbuf why_a, why_b;
        sb_init(&why_a);
        sb_init(&why_b);
        if (!ruled(ra)) why_not_ruled(ra, &why_a);
        if (!ruled(rb)) why_not_ruled(rb, &why_b);
        /* the line as a JSON string even when it is not UTF-8 (a byte that is not
         * shown as its Latin-1 character): the record is kept, not dropped */
        char *shown = xmalloc(2 * len + 1);
        utf8_from_latin1(shown, 2 * len + 1, text, len);
        json_array_append_new(t->failures,
                              json_pack("{sIssssss}", "line", (json_int_t)line, "scenario", shown,
                                        "a", why_a.data ? why_a.data : "", "b",
                                        why_b.data ? why_b.data : ""));
        xfree(shown);
        if (!json) { /* the reasons quote the line: a control character shown as '?' */
            strbuf text;
            sb_init(&text);
            sb_printf(&text, "regel %ld: niet te beoordelen", line);
            if (why_a.data && why_b.data && strcmp(why_a.data, why_b.data) == 0) {
                sb_printf(&text, " (%s en %s): ", a->name, b->name);
                sb_put_visible(&text, why_a.data, why_a.len);
            } else {
                if (why_a.data) {
                    sb_printf(&text, "; %s: ", a->name);
                    sb_put_visible(&text, why_a.data, why_a.len);
                }
                if (why_b.data) {
                    sb_printf(&text, "; %s: ", b->name);
                    sb_put_visible(&text, why_b.data, why_b.len);
                }
            }
            sb_putc(&text, '\n');
            fwrite(text.data, 1, text.len, out);
            sb_free(&text);
        }
        sb_free(&why_a);
        sb_free(&why_b);
    } else {
        json_t *diff = compare_differences_json(ra, rb);
        if (json_object_size(diff)) {
            t->changed++;
            json_array_append_new(t->rulings, json_pack("{sIsOsOsO}", "line", (json_int_t)line, "a",
                                                        ra, "b", rb, "differences", diff));
            char *change = change_line(ra, rb, lang);
            count_change(t, change, line);
            xfree(change);
            if (!json) {
                fprintf(out, "regel %ld: %s\n", line, text);
                compare_differences_text(out, ra, rb, diff);
            }
        } else {
            t->unchanged++;
        }
        json_decref(diff);
    }
    json_decref(ra);
    json_decref(rb);
}

static void write_case_totals(const case_totals *t, FILE *out) {
    fprintf(out, "%d van %d zaken krijgen een andere uitspraak; %d ongewijzigd", t->changed,
            t->total, t->unchanged);
    if (t->not_ruled)
        fprintf(out, "; %d niet te beoordelen (hierboven, met de reden)", t->not_ruled);
    fputs(".\n", out);
    for (size_t i = 0; i < json_array_size(t->changes); i++) {
        json_t *c = json_array_get(t->changes, i);
        fprintf(out, "  %lld× %s (regel",
                (long long)json_integer_value(json_object_get(c, "cases")), str_of(c, "change"));
        json_t *lines = json_object_get(c, "lines");
        for (size_t k = 0; k < json_array_size(lines); k++)
            fprintf(out, "%s%lld", k ? ", " : " ",
                    (long long)json_integer_value(json_array_get(lines, k)));
        fputs(")\n", out);
    }
}

enum arb_status report_cases(const ruleset *a, const ruleset *b, const char *cases, size_t len,
                             bool json, enum arb_lang lang, FILE *out) {
    char *text = xmalloc(len + 1);
    if (!text) return ARB_BAD_INPUT;
    memcpy(text, cases, len);
    text[len] = 0;
    case_totals t = {0, 0, 0, 0, json_array(), json_array(), json_array()};
    long line = 0;
    /* by length, not up to a NUL: a line holding one is a case that cannot be
     * read (invalid JSON), and the lines after it are still ruled */
    for (char *p = text, *end = text + len, *next; p < end; p = next) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        next = p + n + (nl ? 1 : 0);
        p[n] = 0;
        line++;
        if (strspn(p, " \t\r") == n) continue;
        one_case(a, b, p, n, line, json, lang, &t, out);
    }
    if (json) {
        json_t *o = json_pack("{sisisisisOsOsO}", "cases", t.total, "changed", t.changed,
                              "unchanged", t.unchanged, "not_ruled", t.not_ruled, "changes",
                              t.changes, "rulings", t.rulings, "failures", t.failures);
        char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fprintf(out, "%s\n", s);
        xfree(s);
        json_decref(o);
    } else {
        write_case_totals(&t, out);
    }
    json_decref(t.changes);
    json_decref(t.rulings);
    json_decref(t.failures);
    xfree(text);
    return t.not_ruled ? ARB_BAD_INPUT : ARB_OK;
}
