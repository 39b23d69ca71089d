/* jansson-start.c — the floor of the cold-start target (docs/performance.md):
 * a C program linked to jansson alone that reads the benchmark's scenario
 * and writes it back, as `arbiter rule` reads one and writes a record. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    json_error_t err;
    json_t *scenario = json_load_file(argc > 1 ? argv[1] : "/dev/null", 0, &err);
    if (!scenario) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.source, err.line, err.column, err.text);
        return 2;
    }
    char *text = json_dumps(scenario, JSON_COMPACT);
    if (text) puts(text);
    free(text);
    json_decref(scenario);
    return 0;
}
