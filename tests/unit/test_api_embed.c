/* test_api_embed.c — what an embedder configures (core/api/arbiter.h,
 * "Embedding: memory and messages"), through arbiter.h alone: every block
 * comes from its allocator and goes back to it, and the library's own
 * notes go to its sink instead of stderr. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter.h"

#define TOY "tests/rules/toy"
#define SCENARIO "{\"irregularity\": \"late\", \"minutes\": 20, \"repeated\": true}"

/* An allocator that counts what it gives and takes back. */
typedef struct counting {
    long allocations, frees, live;
} counting;

static void *counting_alloc(void *ud, void *ptr, size_t size) {
    counting *c = ud;
    if (size == 0) {
        if (ptr) {
            c->frees++;
            c->live--;
        }
        free(ptr);
        return NULL;
    }
    void *q = realloc(ptr, size);
    if (q && !ptr) {
        c->allocations++;
        c->live++;
    }
    return q;
}

static char cache_given[4096]; /* $ARBITER_CACHE as the test was run, unless "off" */

static int cache_off(void **state) {
    (void)state;
    const char *given = getenv("ARBITER_CACHE");
    if (given && strcmp(given, "off") != 0) snprintf(cache_given, sizeof cache_given, "%s", given);
    setenv("ARBITER_CACHE", "off", 1); /* compile every time: the longer path */
    return 0;
}

static int defaults_back(void **state) {
    (void)state;
    arb_configure(NULL);
    return 0;
}

/* A load and a ruling take their blocks from the embedder's allocator and
 * give every one back once the ruleset is freed and the answer released. */
static void test_allocator_gets_every_block_back(void **state) {
    (void)state;
    counting c = {0, 0, 0};
    assert_int_equal(arb_configure(&(arb_config){counting_alloc, &c, NULL, NULL}), ARB_OK);
    arb_ruleset *rs = arb_load(TOY, stderr);
    assert_non_null(rs);
    char *json = NULL;
    assert_int_equal(arb_rule_json(rs, SCENARIO, strlen(SCENARIO), &json), ARB_OK);
    assert_non_null(strstr(json, "\"status\":\"ruling\""));
    arb_release(json);
    arb_free(rs);
    arb_configure(NULL);
    assert_true(c.allocations > 100); /* a compile allocates: the count is real */
    assert_int_equal(c.live, 0);
    assert_int_equal(c.frees, c.allocations);
}

/* The library's own notes (here: a cache in /tmp, which anyone may write,
 * refused) reach the embedder's sink. */
typedef struct notes {
    char text[1024];
    int count;
} notes;

static void take_note(void *ud, const char *message) {
    notes *n = ud;
    n->count++;
    strncat(n->text, message, sizeof n->text - strlen(n->text) - 1);
}

static void test_notes_go_to_the_sink(void **state) {
    (void)state;
    notes n = {"", 0};
    assert_int_equal(arb_configure(&(arb_config){NULL, NULL, take_note, &n}), ARB_OK);
    setenv("ARBITER_CACHE", "/tmp", 1);
    setenv("ARBITER_CACHE_VERBOSE", "1", 1);
    arb_ruleset *rs = arb_load(TOY, stderr);
    unsetenv("ARBITER_CACHE_VERBOSE");
    setenv("ARBITER_CACHE", "off", 1);
    assert_non_null(rs);
    arb_free(rs);
    assert_int_equal(n.count, 1);
    assert_non_null(strstr(n.text, "cache: /tmp: "));
    assert_non_null(strstr(n.text, "the rule files are compiled"));
}

/* ---- out of memory ---------------------------------------------------------
 * An allocator that gives budget blocks (or resizes) and then none: a load
 * and a ruling run with every budget from 0 up until they succeed. Each
 * run either succeeds or says "out of memory" (ARB_NO_MEMORY, NULL, and the
 * message where the call writes its errors); every block it took comes back
 * (the allocator counts them, and ASan, in `make test-asan`, checks what the
 * count cannot: files, maps, Lua states); and the library rules on after. */
typedef struct failing {
    long budget; /* requests left; -1: no end */
    long live;
} failing;

static void *failing_alloc(void *ud, void *ptr, size_t size) {
    failing *f = ud;
    if (size == 0) {
        f->live -= ptr != NULL;
        free(ptr);
        return NULL;
    }
    if (f->budget == 0) return NULL;
    if (f->budget > 0) f->budget--;
    void *q = realloc(ptr, size);
    f->live += q && !ptr;
    return q;
}

static arb_ruleset *loaded_before; /* with the default allocator, ruled on between runs */

/* One load and one ruling with a budget; true when both got through. */
static bool load_and_rule_within(long budget) {
    failing f = {budget, 0};
    char *errors = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&errors, &len);
    arb_configure(&(arb_config){failing_alloc, &f, NULL, NULL});
    arb_ruleset *rs = arb_load(TOY, err);
    char *json = NULL;
    enum arb_status st = rs ? arb_rule_json(rs, SCENARIO, strlen(SCENARIO), &json) : ARB_NO_MEMORY;
    bool done = rs && st == ARB_OK;
    if (rs && st == ARB_OK) {
        assert_non_null(strstr(json, "\"status\":\"ruling\""));
    } else if (rs) {
        assert_int_equal(st, ARB_NO_MEMORY);
        if (json) assert_non_null(strstr(json, "\"status\":\"no_memory\""));
    }
    arb_release(json);
    arb_free(rs);
    arb_configure(NULL);
    fclose(err);
    if (!rs && !strstr(errors, "out of memory"))
        fail_msg("budget %ld: no ruleset, and not for memory: %s", budget, errors);
    free(errors);
    if (f.live != 0) fail_msg("budget %ld: %ld blocks not given back", budget, f.live);
    /* the library is as usable as before */
    json = NULL;
    assert_int_equal(arb_rule_json(loaded_before, SCENARIO, strlen(SCENARIO), &json), ARB_OK);
    free(json);
    return done;
}

static void run_every_budget(void) {
    loaded_before = arb_load(TOY, stderr);
    assert_non_null(loaded_before);
    long budget = 0;
    while (!load_and_rule_within(budget)) {
        budget++;
        assert_true(budget < 1000000); /* a load and a ruling take far fewer */
    }
    printf("    a load and a ruling fit in %ld allocations\n", budget);
    arb_free(loaded_before);
}

static void test_out_of_memory_compiling(void **state) {
    (void)state;
    setenv("ARBITER_CACHE", "off", 1);
    run_every_budget();
}

/* The same through the image cache: the first run that gets far enough
 * writes the image, the later ones read it. */
static void test_out_of_memory_with_images(void **state) {
    (void)state;
    if (!cache_given[0]) skip(); /* the test run's cache: scripts/run-tests.sh gives one */
    setenv("ARBITER_CACHE", cache_given, 1);
    run_every_budget();
    setenv("ARBITER_CACHE", "off", 1);
}

/* A batch (three scenarios, one of them bad input) on a ruleset loaded
 * before: every budget ends in every line ruled, or in the record
 * {"status":"no_memory"} after the lines ruled so far. */
#define BATCH SCENARIO "\n{\"irregularity\": \"late\", \"minutes\": 99}\n" SCENARIO "\n"

static bool batch_within(long budget, const arb_ruleset *rs) {
    failing f = {budget, 0};
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    arb_configure(&(arb_config){failing_alloc, &f, NULL, NULL});
    enum arb_status st = arb_rule_batch(rs, BATCH, strlen(BATCH), o);
    arb_configure(NULL);
    fclose(o);
    bool done = st != ARB_NO_MEMORY;
    if (done) {
        assert_int_equal(st, ARB_BAD_INPUT); /* the second line: minutes out of range */
        assert_non_null(strstr(out, "\"line\":3"));
    } else {
        const char *last = strstr(out, "{\"status\":\"no_memory\"");
        if (!last || strchr(last, '\n')[1] != 0) fail_msg("budget %ld: %s", budget, out);
    }
    free(out);
    if (f.live != 0) fail_msg("budget %ld: %ld blocks not given back", budget, f.live);
    return done;
}

static void test_out_of_memory_in_a_batch(void **state) {
    (void)state;
    arb_ruleset *rs = arb_load(TOY, stderr);
    assert_non_null(rs);
    long budget = 0;
    while (!batch_within(budget, rs)) {
        budget++;
        assert_true(budget < 1000000);
    }
    printf("    a batch of three fits in %ld allocations\n", budget);
    arb_free(rs);
}

/* The same for a club plugin: loading it (its Lua state included) and a
 * ruling with it, on a ruleset loaded before. Lua's own memory error when
 * the allocator has no more is "out of memory" too, not the plugin's. */
#define BRIDGE "rulesets/bridge-2017"
#define REVOKE_PLUGIN "plugins/clubs/bridge-beginners-revoke.lua"
#define REVOKE_SCENARIO "tests/plugins/revoke-64A1.json"

/* The plugin's default limits but a clock that does not run out: these
 * tests are about memory, and under a sanitizer on a busy machine a
 * ruling with the plugin can take longer than the default 50 ms. */
static const arb_plugin_limits MEMORY_NOT_TIME = {0, 0, 60000};

static bool plugin_and_rule_within(long budget, arb_ruleset *rs, const char *scenario,
                                   const arb_plugins *loaded) {
    failing f = {budget, 0};
    char *errors = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&errors, &len);
    arb_configure(&(arb_config){failing_alloc, &f, NULL, NULL});
    const char *paths[] = {REVOKE_PLUGIN};
    arb_plugins *p = arb_load_plugins_limited(rs, paths, 1, &MEMORY_NOT_TIME, err);
    char *json = NULL;
    enum arb_status st =
        p ? arb_rule_json_plugins(rs, p, scenario, strlen(scenario), &json) : ARB_NO_MEMORY;
    bool done = p && st == ARB_OK;
    if (p && st != ARB_OK) {
        if (st != ARB_NO_MEMORY)
            fail_msg("budget %ld: status %d: %s", budget, st, json ? json : "");
        if (json) assert_non_null(strstr(json, "\"status\":\"no_memory\""));
    }
    if (done) assert_non_null(strstr(json, "\"64A1\""));
    arb_release(json);
    arb_free_plugins(p);
    arb_configure(NULL);
    fclose(err);
    if (!p && !strstr(errors, "out of memory"))
        fail_msg("budget %ld: no plugin, and not for memory: %s", budget, errors);
    free(errors);
    if (f.live != 0) fail_msg("budget %ld: %ld blocks not given back", budget, f.live);
    json = NULL;
    assert_int_equal(arb_rule_json_plugins(rs, loaded, scenario, strlen(scenario), &json), ARB_OK);
    free(json);
    return done;
}

static void test_out_of_memory_in_a_plugin(void **state) {
    (void)state;
    setenv("ARBITER_CACHE", cache_given[0] ? cache_given : "off", 1);
    arb_ruleset *rs = arb_load(BRIDGE, stderr);
    assert_non_null(rs);
    FILE *f = fopen(REVOKE_SCENARIO, "rb");
    assert_non_null(f);
    char scenario[8192];
    size_t n = fread(scenario, 1, sizeof scenario - 1, f);
    fclose(f);
    scenario[n] = 0;
    const char *paths[] = {REVOKE_PLUGIN};
    arb_plugins *loaded = arb_load_plugins_limited(rs, paths, 1, &MEMORY_NOT_TIME, stderr);
    assert_non_null(loaded);
    long budget = 0;
    while (!plugin_and_rule_within(budget, rs, scenario, loaded)) {
        budget++;
        assert_true(budget < 1000000);
    }
    printf("    loading the plugin and a ruling with it fit in %ld allocations\n", budget);
    arb_free_plugins(loaded);
    arb_free(rs);
    setenv("ARBITER_CACHE", "off", 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_allocator_gets_every_block_back, defaults_back),
        cmocka_unit_test_teardown(test_notes_go_to_the_sink, defaults_back),
        cmocka_unit_test_teardown(test_out_of_memory_compiling, defaults_back),
        cmocka_unit_test_teardown(test_out_of_memory_with_images, defaults_back),
        cmocka_unit_test_teardown(test_out_of_memory_in_a_batch, defaults_back),
        cmocka_unit_test_teardown(test_out_of_memory_in_a_plugin, defaults_back),
    };
    return cmocka_run_group_tests(tests, cache_off, NULL);
}
