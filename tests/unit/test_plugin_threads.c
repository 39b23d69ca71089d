/* test_plugin_threads.c — one arb_plugins shared by four threads (as a
 * server or a program through arbiter.h may share it): every ruling is
 * right, none sees another's facts or another call's state, nothing
 * crashes. Before plugins served one call at a time, four threads sharing
 * a const arb_plugins * crashed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arbiter.h"

#define THREADS 4
#define RULINGS 250

/* Adds the club's table fee when the scenario gives one, and notes how many
 * calls its state has seen: always one, since every call starts afresh. */
static const char plugin_text[] =
    "return { api = 1, name = \"tafelgeld\", cite = \"Clubreglement art. 9\",\n"
    "  facts = { table_fee = \"int\" },\n"
    "  actions = { fee = { text = \"Tafelgeld: {euro} euro.\" } },\n"
    "  override = { [\"*\"] = function(r)\n"
    "    calls = (calls or 0) + 1\n"
    "    local fee = r.facts.table_fee\n"
    "    for i = 1, 2000 do fee = fee and fee + 0 end -- a little work, so that calls overlap\n"
    "    if not fee then return { replace = false, note = 'call ' .. calls } end\n"
    "    return { replace = false, note = 'call ' .. calls, actions = { { name = \"fee\", args = { "
    "euro = fee } } } }\n"
    "  end } }\n";

typedef struct worker {
    const arb_ruleset *rs;
    const arb_plugins *plugins;
    int id, wrong;
    char first_wrong[300];
} worker;

static void *rule_many(void *arg) {
    worker *w = arg;
    for (int k = 0; k < RULINGS; k++) {
        int fee = w->id * 1000 + k;
        bool given = k % 2 == 0;
        char scenario[160], want[64];
        if (given)
            snprintf(scenario, sizeof scenario,
                     "{\"irregularity\": \"late\", \"minutes\": 5, \"table_fee\": %d}", fee);
        else
            snprintf(scenario, sizeof scenario, "{\"irregularity\": \"late\", \"minutes\": 5}");
        snprintf(want, sizeof want, "Tafelgeld: %d euro.", fee);
        char *json = NULL;
        enum arb_status st =
            arb_rule_json_plugins(w->rs, w->plugins, scenario, strlen(scenario), &json);
        bool right = st == ARB_OK && json && strstr(json, "call 1\"") && !strstr(json, "call 2") &&
                     (given ? strstr(json, want) != NULL : strstr(json, "Tafelgeld") == NULL);
        if (!right && w->wrong++ == 0)
            snprintf(w->first_wrong, sizeof w->first_wrong, "%s", json ? json : "(none)");
        free(json);
    }
    return NULL;
}

static void test_four_threads_share_one_set_of_plugins(void **state) {
    (void)state;
    char path[] = "/tmp/arbiter-threads-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, plugin_text, sizeof plugin_text - 1),
                     (ssize_t)(sizeof plugin_text - 1));
    close(fd);
    arb_ruleset *rs = arb_load("tests/rules/toy", stderr);
    assert_non_null(rs);
    const char *paths[] = {path};
    /* What is tested is sharing, not speed: a loaded machine (or the
     * sanitizers) must not turn a slow ruling into a wrong one here. */
    arb_plugin_limits limits = {.time_ms = 20000};
    arb_plugins *plugins = arb_load_plugins_limited(rs, paths, 1, &limits, stderr);
    unlink(path);
    assert_non_null(plugins);
    pthread_t threads[THREADS];
    worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (worker){rs, plugins, i + 1, 0, ""};
        assert_int_equal(pthread_create(&threads[i], NULL, rule_many, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < THREADS; i++)
        if (workers[i].wrong)
            fail_msg("thread %d: %d wrong rulings, the first: %s", i + 1, workers[i].wrong,
                     workers[i].first_wrong);
    arb_free_plugins(plugins);
    arb_free(rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_threads_share_one_set_of_plugins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
