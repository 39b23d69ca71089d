/* test_api_embed.c — what an embedder configures (core/api/arbiter.h,
 * "Embedding: memory and messages"), through arbiter.h alone: every block
 * comes from its allocator and goes back to it, and the library's own
 * notes go to its sink instead of stderr. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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

static int cache_off(void **state) {
    (void)state;
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_allocator_gets_every_block_back, defaults_back),
        cmocka_unit_test_teardown(test_notes_go_to_the_sink, defaults_back),
    };
    return cmocka_run_group_tests(tests, cache_off, NULL);
}
