/* serve.h — `arbiter serve`: the library as a JSON API over HTTP, and the
 * web app of core/serve/web/ that directs a ruling in the browser. Built on
 * libmicrohttpd; docs/guide.md ("In de browser") shows the app, and
 * core/serve/serve.c lists the endpoints. */
#ifndef ARBITER_SERVE_H
#define ARBITER_SERVE_H

#include "arbiter.h"

#include <stdbool.h>

typedef struct serve_config {
    const char *listen; /* "HOST:PORT" ("[::1]:8080"); NULL: 127.0.0.1:8080; port 0 picks one */
    const char *const
        *rulesets; /* the rulesets to serve, by name or path; none: every installed one */
    int nrulesets;
    const char *const *plugins; /* --plugin files, loaded for every ruleset served */
    int nplugins;
    arb_plugin_limits limits; /* for the plugins (0 in a field: the default) */
    const char *web;          /* the web app's directory; NULL: core/serve/web beside the program */
    bool verbose;             /* a line on stderr per request */
} serve_config;

/* Loads the rulesets, then serves until SIGINT or SIGTERM, answering
 * requests in parallel within the limits of core/serve/serve.c (connections in
 * all and per address, idle time, a deadline for each whole request).
 * Prints the address it listens on ("arbiter serve:
 * http://127.0.0.1:8080/") once it does. At the signal it takes no new
 * connection and lets the answers in progress finish. Returns an exit
 * status: 0 after a signal, 2 when it cannot start. */
int serve_run(const serve_config *c);

#endif
