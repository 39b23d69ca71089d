/* cli.c — the `arbiter` command. Exit status: 0 ruling / all tests pass,
 * 1 no ruling or a test failed, 2 bad input or usage. */
#include "check.h"
#include "compile.h"
#include "arbiter.h"
#include "cache.h"
#include "load.h"
#include "diff.h"
#include "dot.h"
#include "eval.h"
#include "compare.h"
#include "output.h"
#include "scenario.h"
#include "scoring.h"
#include "serve.h"
#include "testrun.h"
#include "whynot.h"
#include "plugin.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_COMPARED 8

typedef struct options {
    const char *ruleset, *article, *input, *input2, *why_not, *cases;
    const char *listen; /* serve: ADDRESS:PORT */
    const char *rulesets[MAX_COMPARED]; /* every --ruleset, for compare */
    int nrulesets;
    const char *amends[MAX_COMPARED]; /* --amend files, applied in order */
    int namends;
    const char *plugins[PLUGIN_MAX]; /* --plugin files, in order */
    int nplugins;
    plugin_limits limits;
    bool json, verbose, coverage, help, vul, nonvul;
} options;

typedef struct command {
    const char *name, *usage, *help;
    int (*run)(const options *o);
} command;

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    fprintf(stderr, "arbiter %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n    hint: arbiter %s --help\n", cmd);
    return ARB_BAD_INPUT;
}

/* An input file (or stdin) that cannot be read, with the reason. */
static int cannot_read(const char *cmd, const char *path) {
    const char *why = strerror(errno);
    fprintf(stderr, "arbiter %s: cannot read '%s': %s\n    hint: arbiter %s --help\n", cmd, path, why, cmd);
    return ARB_BAD_INPUT;
}

static int parse_options(const char *cmd, int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) o->help = true;
        else if (strcmp(a, "--json") == 0) o->json = true;
        else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) o->verbose = true;
        else if (strcmp(a, "--coverage") == 0) o->coverage = true;
        else if (strcmp(a, "--vul") == 0) o->vul = true;
        else if (strcmp(a, "--nonvul") == 0) o->nonvul = true;
        else if (strcmp(a, "--ruleset") == 0 && has_next) {
            if (o->nrulesets == MAX_COMPARED) return usage_error(cmd, "at most 8 rulesets, not '%s'", argv[i + 1]);
            o->ruleset = o->rulesets[o->nrulesets++] = argv[++i];
        }
        else if (strcmp(a, "--article") == 0 && has_next) o->article = argv[++i];
        else if (strcmp(a, "--why-not") == 0 && has_next) o->why_not = argv[++i];
        else if (strcmp(a, "--cases") == 0 && has_next) o->cases = argv[++i];
        else if (strcmp(a, "--listen") == 0 && has_next) o->listen = argv[++i];
        else if (strcmp(a, "--plugin") == 0 && has_next) {
            if (o->nplugins == PLUGIN_MAX) return usage_error(cmd, "at most 8 plugins, not '%s'", argv[i + 1]);
            o->plugins[o->nplugins++] = argv[++i];
        } else if ((strcmp(a, "--plugin-instructions") == 0 || strcmp(a, "--plugin-memory") == 0 ||
                    strcmp(a, "--plugin-time") == 0) &&
                   has_next) {
            char *end;
            long long v = strtoll(argv[++i], &end, 10);
            if (*end || v <= 0 || v > LONG_MAX / 1000000)
                return usage_error(cmd, "%s needs a positive whole number", a);
            if (a[9] == 'i') o->limits.instructions = (long)v;
            else if (a[9] == 't')
                o->limits.time_ms = (long)v;
            else o->limits.memory = (size_t)v;
        } else if (strcmp(a, "--amend") == 0 && has_next) {
            if (o->namends == MAX_COMPARED) return usage_error(cmd, "at most 8 amendments, not '%s'", argv[i + 1]);
            o->amends[o->namends++] = argv[++i];
        } else if (a[0] == '-' && a[1] == '-')
            return usage_error(cmd, "unknown or incomplete option '%s'", a);
        else if (!o->input) o->input = a;
        else if (!o->input2) o->input2 = a;
        else return usage_error(cmd, "unexpected argument '%s'", a);
    }
    return ARB_OK;
}

/* Every command that takes a ruleset takes --amend and --plugin too; the
 * plugins are bound to the ruleset the command rules with. */
static const options *current;
static plugin_set plugins;
static const scenario_hooks *hooks; /* NULL without plugins */

static ruleset *load_or_report(const char *name) {
    ruleset *rs = arb_load_amended(name, current ? current->amends : NULL, current ? current->namends : 0, stderr);
    if (!rs || !current || !current->nplugins) return rs;
    strbuf err;
    sb_init(&err);
    if (!plugin_set_load(&plugins, rs, current->plugins, current->nplugins, current->limits, &err)) {
        fprintf(stderr, "arbiter: %s\n", err.data);
        arb_free(rs);
        rs = NULL;
    }
    hooks = plugin_set_hooks(&plugins);
    sb_free(&err);
    return rs;
}

/* A ruling with the plugins around it; false (reported) when a plugin failed. */
static bool rule_with_plugins(const ruleset *rs, gref root, scenario *sc, ruling *r) {
    strbuf err;
    sb_init(&err);
    bool ok = scenario_rule(rs, root, sc, r, &err);
    if (!ok) fprintf(stderr, "arbiter: %s\n", err.data);
    sb_free(&err);
    return ok;
}

/* For compare and diff, the amendments apply to the last ruleset named. */
static ruleset *load_plain(const char *name) {
    return arb_load(name, stderr);
}

static char *read_input(const char *path, size_t *len) {
    return strcmp(path, "-") == 0 ? read_stream(stdin, len) : read_file(path, len);
}

/* One JSON document, or JSON Lines: one scenario per line. Text that is
 * neither is a broken document when its first line is not a whole JSON
 * value, so that its syntax error is shown where it is. */
static bool is_single_document(const char *text, size_t len) {
    json_error_t je;
    json_t *j = json_loadb(text, len, 0, &je);
    if (j) {
        json_decref(j);
        return true;
    }
    size_t start = 0;
    while (start < len && (text[start] == ' ' || text[start] == '\t' || text[start] == '\r' || text[start] == '\n'))
        start++;
    const char *nl = memchr(text + start, '\n', len - start);
    size_t first = nl ? (size_t)(nl - (text + start)) : len - start;
    j = json_loadb(text + start, first, 0, &je);
    if (j) json_decref(j);
    return j == NULL;
}

/* Which facts would have to differ for the ruling to name the action. */
static int explain_why_not(const ruleset *rs, const scenario *sc, const char *name) {
    int action = rs_find_action(rs, name);
    if (action < 0) return usage_error("rule", "--why-not: the ruleset has no action '%s'", name);
    whynot w;
    whynot_find(rs, rs->root, &sc->fv, action, &w);
    if (!w.reachable) {
        printf("Waarom niet %s? Geen enkele situatie leidt in deze regelset tot die maatregel.\n", name);
        return ARB_OK;
    }
    if (w.nchanges == 0) {
        printf("Waarom niet %s? Met de gegeven feiten kan die maatregel wel volgen; de nog niet gegeven feiten beslissen.\n", name);
        return ARB_OK;
    }
    printf("Waarom niet %s? Die maatregel zou volgen (", name);
    const rs_outcome *o = rs_outcome_at(rs, w.outcome);
    for (int i = 0, n = 0; i < o->ntrail; i++)
        if (rs->clauses[o->trail[i]].cite) printf("%s%s", n++ ? " > " : "", rs->clauses[o->trail[i]].cite);
    puts(") als:");
    for (int i = 0; i < w.nchanges; i++) {
        const rs_fact *f = &rs->facts[w.fact[i]];
        strbuf want, had;
        sb_init(&want);
        sb_init(&had);
        rs_format_value(rs, f->type, w.value[i], FMT_NAME, &want);
        rs_format_value(rs, f->type, sc->fv.value[w.fact[i]], FMT_NAME, &had);
        printf("  %s = %s (niet %s)\n", f->name, want.data, had.data);
        sb_free(&want);
        sb_free(&had);
    }
    return ARB_OK;
}

static int rule_single(ruleset *rs, const char *path, const char *text, size_t len, bool json,
                       const char *why_not) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf err;
    sb_init(&err);
    int status = ARB_OK;
    if (!scenario_read_json(&sc, text, len, &err)) {
        if (sc.err_line > 0) fprintf(stderr, "%s:%d:%d: error: %s\n", path, sc.err_line, sc.err_col, err.data);
        else fprintf(stderr, "%s: error: %s\n", path, err.data);
        status = ARB_BAD_INPUT;
    } else {
        ruling r;
        if (!rule_with_plugins(rs, rs->root, &sc, &r)) {
            ruling_clear(&r);
            sb_free(&err);
            scenario_free(&sc);
            return ARB_BAD_INPUT;
        }
        if (json) {
            json_t *o = output_json(&r, &sc);
            char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            puts(s);
            free(s);
            json_decref(o);
        } else if (r.status == RULING_OK) {
            output_text(&r, &sc, stdout);
        }
        if (why_not && explain_why_not(rs, &sc, why_not) != ARB_OK) status = ARB_BAD_INPUT;
        if (r.status != RULING_OK) {
            sb_free(&err);
            ruling_problem(&r, &err);
            fprintf(stderr, "%s: error: %s\n", path, err.data);
            if (r.status == RULING_NEEDS) fprintf(stderr, "    hint: add it to the scenario, or use `arbiter ask`\n");
            if (status == ARB_OK)
                status = r.status == RULING_NEEDS || r.status == RULING_REJECTED ? ARB_BAD_INPUT : ARB_NO_RULING;
        }
        ruling_clear(&r);
    }
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

static int cmd_rule(const options *o) {
    if (!o->ruleset || !o->input) return usage_error("rule", "%s", "needs --ruleset NAME and a SCENARIO file (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("rule", o->input);
    ruleset *rs = load_or_report(o->ruleset);
    int status = ARB_BAD_INPUT;
    if (rs) {
        if (is_single_document(text, len)) {
            status = rule_single(rs, o->input, text, len, o->json, o->why_not);
        } else {
            status = arb_rule_batch_plugins(rs, hooks ? &plugins : NULL, text, len, stdout);
            fflush(stdout); /* the records first, whole, then the summary */
            if (status != ARB_OK) fprintf(stderr, "%s: some scenarios were not ruled (see their error records)\n", o->input);
        }
    }
    free(text);
    arb_free(rs);
    return status;
}

static void print_choices(const rs_type *t) {
    if (t->kind == TY_BOOL) {
        puts("  (ja/nee)");
        return;
    }
    for (int i = 0; t->kind == TY_ENUM && i < t->nvalues; i++)
        printf("  %d) %s\n", i + 1, t->labels[i] ? t->labels[i] : t->values[i]);
    if (t->kind == TY_INT && t->bounded) printf("  (%lld..%lld)\n", (long long)t->lo, (long long)t->hi);
    if (t->kind == TY_CALL) puts("  (een bieding: P, X, XX of een bod zoals 2H of 3SA)");
}

/* Asks one question until it is answered; false at end of input. */
static bool ask_fact(const ruleset *rs, int f, scenario *sc) {
    const rs_fact *fact = &rs->facts[f];
    for (;;) {
        printf("%s\n", fact->ask ? fact->ask : fact->name);
        print_choices(fact->type);
        printf("> ");
        fflush(stdout);
        char line[512];
        if (!fgets(line, sizeof line, stdin)) return false;
        line[strcspn(line, "\r\n")] = 0;
        if (!isatty(STDIN_FILENO)) printf("%s\n", line); /* piped answers show in the transcript */
        int64_t v;
        strbuf err;
        sb_init(&err);
        bool ok = scenario_parse_answer(rs, f, line, &v, &err);
        if (!ok) printf("  %s\n", err.data);
        sb_free(&err);
        if (ok) {
            scenario_give(sc, f, v);
            return true;
        }
    }
}

/* Asks a plugin's own fact that a plugin acting on the ruling needs and
 * the scenario does not give (see plugin_set_question): 1 when answered, 0
 * when there is none to ask, -1 at end of input. */
static int ask_plugin_fact(scenario *sc, const ruling *r) {
    plugin_question q;
    if (!plugin_set_question(&plugins, sc, r, &q)) return 0;
    for (;;) {
        printf("%s\n  (%s)\n> ", q.ask,
               strcmp(q.kind, "bool") == 0  ? "ja/nee"
               : strcmp(q.kind, "int") == 0 ? "een getal"
                                            : "tekst");
        fflush(stdout);
        char line[512];
        if (!fgets(line, sizeof line, stdin)) {
            fprintf(stderr, "arbiter ask: no answer for '%s' (end of input)\n", q.fact);
            return -1;
        }
        line[strcspn(line, "\r\n")] = 0;
        if (!isatty(STDIN_FILENO)) printf("%s\n", line);
        strbuf err;
        sb_init(&err);
        bool ok = plugin_answer(sc, &q, line, &err);
        if (!ok) printf("  %s\n", err.data);
        sb_free(&err);
        if (ok) return 1;
    }
}

/* The facts of the ruling's path that a record (the auction, the play, a
 * contract) settled rather than the director, or that were assumed (a
 * fact's default): at most `cap` of them, in path order. */
static int record_facts_on_path(const ruleset *rs, const scenario *sc, const ruling *r, int *out,
                                int cap) {
    int n = 0;
    for (int i = 0; i < r->npath && n < cap; i++) {
        int f = r->path_fact[i];
        if ((!sc->given[f] && rs->facts[f].builtin >= 0) || sc->assumed[f]) out[n++] = f;
    }
    return n;
}

/* Shows the values the ruling took from a record and lets the director
 * correct one: the record cannot know everything (an artificial bid, a
 * call he judges otherwise). Returns the fact to ask again, or -1 to keep
 * the ruling (an empty answer, or the end of input). */
static int record_value_to_correct(const ruleset *rs, const scenario *sc, const ruling *r) {
    int facts[64];
    int n = record_facts_on_path(rs, sc, r, facts, 64);
    if (n == 0) return -1;
    for (;;) {
        puts("Uit het biedverloop of spelverloop afgeleid, of aangenomen (de wedstrijdleider kan elke "
             "waarde verbeteren):");
        for (int i = 0; i < n; i++) {
            const rs_fact *fact = &rs->facts[facts[i]];
            strbuf v;
            sb_init(&v);
            rs_format_value(rs, fact->type, sc->fv.value[facts[i]], FMT_DUTCH, &v);
            printf("  %d) %s: %s%s\n", i + 1, fact->ask ? fact->ask : fact->name, v.data,
                   sc->assumed[facts[i]] ? " (aangenomen)" : "");
            sb_free(&v);
        }
        printf("Nummer van de waarde die niet klopt, of Enter als alles klopt\n> ");
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) return -1;
        line[strcspn(line, "\r\n")] = 0;
        if (!isatty(STDIN_FILENO)) printf("%s\n", line);
        if (!line[0]) return -1;
        char *end;
        long k = strtol(line, &end, 10);
        if (!*end && k >= 1 && k <= n) return facts[k - 1];
        printf("  Geef een nummer van 1 tot en met %d, of Enter.\n", n);
    }
}

static int cmd_ask(const options *o) {
    if (!o->ruleset) return usage_error("ask", "%s", "needs --ruleset NAME");
    ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    int status = ARB_OK;
    if (o->input) {
        size_t len;
        char *text = read_input(o->input, &len);
        strbuf err;
        sb_init(&err);
        if (!text || !scenario_read_json(&sc, text, len, &err)) {
            fprintf(stderr, "%s: error: %s\n", o->input, text ? err.data : strerror(errno));
            status = ARB_BAD_INPUT;
        }
        sb_free(&err);
        free(text);
    }
    ruling r = {0};
    int answered = -1;
    while (status == ARB_OK) {
        if (!rule_with_plugins(rs, rs->root, &sc, &r)) {
            status = ARB_BAD_INPUT;
            break;
        }
        if (r.status == RULING_REJECTED && answered >= 0) {
            /* the last answer made the situation impossible: ask it again */
            printf("  Dat kan niet: %s\n", rs->invariants[r.invariant].message);
            scenario_forget(&sc, answered);
            r.status = RULING_NEEDS;
            r.fact = answered;
        }
        if (r.status != RULING_NEEDS) {
            int asked = hooks ? ask_plugin_fact(&sc, &r) : 0;
            if (asked < 0) {
                status = ARB_BAD_INPUT;
                break;
            }
            if (asked > 0) {
                ruling_clear(&r); /* rule again with the plugin's fact */
                continue;
            }
        }
        int f = r.fact;
        if (r.status != RULING_NEEDS) {
            f = r.status == RULING_OK ? record_value_to_correct(rs, &sc, &r) : -1;
            if (f < 0) break;
        }
        ruling_clear(&r);
        if (!ask_fact(rs, f, &sc)) {
            fprintf(stderr, "arbiter ask: no answer for '%s' (end of input)\n", rs->facts[f].name);
            status = ARB_BAD_INPUT;
        }
        answered = f;
    }
    if (status == ARB_OK) {
        putchar('\n');
        if (o->json) {
            json_t *j = output_json(&r, &sc);
            char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            puts(s);
            free(s);
            json_decref(j);
        } else {
            output_text(&r, &sc, stdout);
        }
        status = r.status == RULING_OK ? ARB_OK : r.status == RULING_REJECTED ? ARB_BAD_INPUT : ARB_NO_RULING;
    }
    ruling_clear(&r);
    scenario_free(&sc);
    arb_free(rs);
    return status;
}

static int quiet_check(const ruleset *rs) {
    diag *d = diag_new(stderr);
    diag_mute(d, 1);
    int problems = dsl_check(rs, d);
    diag_free(d);
    return problems;
}

static int cmd_check(const options *o) {
    const char *name = o->input ? o->input : o->ruleset;
    if (!name) return usage_error("check", "%s", "needs a ruleset NAME or PATH");
    char *path = arb_find_ruleset(name);
    if (!path) return usage_error("check", "no ruleset named or at '%s'", name);
    diag *d = diag_new(stderr);
    bool cached;
    ruleset *rs = load_or_compile(path, o->amends, o->namends, d, &cached);
    int problems = rs && cached ? quiet_check(rs) : 0;
    if (problems) { /* an image holds no source lines to quote: report from the files */
        ruleset_free(rs);
        rs = dsl_compile_amended(path, o->amends, o->namends, d);
    }
    if (rs && (!cached || problems)) problems = dsl_check(rs, d);
    int status = ARB_BAD_INPUT;
    if (rs && problems == 0) {
        printf("%s: complete — %d articles, %d clauses, %d facts asked or derived from the record, "
               "%d graph nodes, %d tests\n",
               rs->name, rs->narticles, rs->nclauses - rs->narticles, rs->nvars, graph_size(rs->graph, rs->root),
               rs->ntests);
        for (int i = 0; i < rs->noutside; i++)
            printf("  declared outside its scope (%s:%d): %s\n", rs->outside[i].loc.file, rs->outside[i].loc.line,
                   rs->outside[i].message);
        status = ARB_OK;
    } else {
        fprintf(stderr, "%s: %d error%s\n", path, diag_errors(d), diag_errors(d) == 1 ? "" : "s");
    }
    diag_free(d);
    ruleset_free(rs);
    free(path);
    return status;
}

static int cmd_test(const options *o) {
    const char *name = o->input ? o->input : o->ruleset;
    if (!name) return usage_error("test", "%s", "needs a ruleset NAME or PATH");
    ruleset *rs = load_or_report(name);
    if (!rs) {
        puts("0 passed, 1 failed");
        return ARB_BAD_INPUT;
    }
    /* The completeness proof counts as one test: a ruleset with a gap is
     * not green, whatever its test blocks say. */
    diag *d = diag_new(stdout);
    int problems = dsl_check(rs, d);
    diag_free(d);
    test_totals t = testrun_all(rs, hooks, stdout, o->verbose, o->coverage);
    if (problems) t.failed++;
    else t.passed++;
    if (rs->ntests == 0) printf("%s: warning: the ruleset has no test blocks\n", rs->name);
    if (o->coverage) printf("%d of %d clauses reached by a test\n", t.clauses - t.uncovered, t.clauses);
    printf("%d passed, %d failed\n", t.passed, t.failed);
    arb_free(rs);
    if (problems) return ARB_BAD_INPUT;
    return t.failed || (o->coverage && t.uncovered) ? ARB_NO_RULING : ARB_OK;
}

/* The rulesets of a directory (arb_list_rulesets: shared vocabularies such
 * as bridge-common have no header and are not listed), each compiled. */
static int list_rulesets_in(const char *base, int *shown) {
    char **names;
    int n = arb_list_rulesets(base, &names), broken = 0;
    for (int i = 0; i < n; i++) {
        strbuf path;
        sb_init(&path);
        sb_printf(&path, "%s/%s", base, names[i]);
        ruleset *rs = arb_load(path.data, NULL);
        char hash[32] = "";
        if (rs) arb_hash(rs, hash);
        printf("%-22s %-24s %s\n", names[i], rs ? hash : "(errors: arbiter check)", rs ? rs->title : "");
        broken += !rs;
        (*shown)++;
        arb_free(rs);
        sb_free(&path);
        free(names[i]);
    }
    free(names);
    return broken;
}

static int cmd_rulesets(const options *o) {
    char *any = arb_find_ruleset(o->input ? o->input : "bridge-2017");
    char base[PATH_MAX] = "rulesets";
    if (any) { /* the directory the search found rulesets in */
        snprintf(base, sizeof base, "%s", any);
        char *slash = strrchr(base, '/');
        if (slash) *slash = 0;
    }
    free(any);
    int shown = 0, broken = list_rulesets_in(base, &shown);
    if (!shown) fprintf(stderr, "arbiter rulesets: none found in %s\n", base);
    return shown && !broken ? ARB_OK : ARB_BAD_INPUT;
}

/* The scoring components as text: each action's message with its article. */
static void print_components(const ruleset *rs, const ruling *r) {
    for (int i = 0; i < r->nactions; i++) {
        if (r->replaced || r->actions[i].dropped) continue; /* a plugin took it out */
        strbuf m;
        sb_init(&m);
        output_message(rs, &r->actions[i], false, &m);
        const rs_action_use *u = rs_use_at(rs, r->actions[i].use);
        printf("  [%s] %s\n", u->clause >= 0 && rs->clauses[u->clause].cite ? rs->clauses[u->clause].cite : "", m.data ? m.data : "");
        sb_free(&m);
    }
    for (int i = 0; i < r->nextra; i++) printf("  [%s] %s\n", r->extra[i].cite, r->extra[i].message);
    for (int i = 0; i < r->nnotes; i++) printf("  Plugin %s (%s): %s\n", r->notes[i].plugin, r->notes[i].cite, r->notes[i].what);
}

static void print_json(json_t *o) {
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    puts(s);
    free(s);
    json_decref(o);
}

/* ---- klaverjas: legal and score ---- */

static void print_trail(json_t *trail);

static bool is_klaverjas(const ruleset *rs) {
    return rs->game != NULL && strcmp(rs->game, "klaverjas") == 0;
}

/* Exit status of a command whose ruling failed: no ruling (1) when the rule
 * files gave none, bad input (2) when the scenario lacked or broke
 * something. */
static int failed_status(enum ruling_status s) {
    return s == RULING_GAP || s == RULING_ERROR || s == RULING_OUTSIDE ? ARB_NO_RULING : ARB_BAD_INPUT;
}

/* Reads a scenario file into sc (initialised here); reports and returns
 * false on failure. */
static bool read_scenario_file(ruleset *rs, const char *path, scenario *sc) {
    size_t len;
    strbuf err;
    sb_init(&err);
    scenario_init(sc, rs);
    sc->hooks = hooks;
    char *text = read_input(path, &len);
    bool ok = text != NULL && scenario_read_json(sc, text, len, &err);
    if (!ok) fprintf(stderr, "%s: error: %s\n", path, text ? err.data : strerror(errno));
    free(text);
    sb_free(&err);
    return ok;
}

/* Adds the keys of part to j, and lets part go. */
static void merge_json(json_t *j, json_t *part) {
    json_object_update(j, part);
    json_decref(part);
}

/* "[12 > 12A] Message. Message." */
static void print_trail_and_messages(json_t *ruling) {
    printf("[");
    print_trail(json_object_get(ruling, "articles"));
    printf("]");
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ruling, "messages"), i, m) printf(" %s", json_string_value(m));
    putchar('\n');
}

static void print_legal(const ruleset *rs, json_t *answer) {
    const char *seat = json_string_value(json_object_get(answer, "seat"));
    const char *trick = json_string_value(json_object_get(answer, "trick"));
    const char *penalty = json_string_value(json_object_get(answer, "penalty_card"));
    if (*trick)
        printf("%s aan slag, troef %s, slag %s", seat,
               json_string_value(json_object_get(answer, "trump")), trick);
    else
        printf("%s komt uit, troef %s", seat, json_string_value(json_object_get(answer, "trump")));
    if (penalty) printf(", strafkaart %s", penalty);
    printf(" — %s\n", rs->title);
    size_t i;
    json_t *card;
    json_array_foreach(json_object_get(answer, "cards"), i, card) {
        printf("  %-4s %-8s ", json_string_value(json_object_get(card, "card")),
               json_string_value(json_object_get(card, "verdict")));
        print_trail_and_messages(card);
    }
}

/* Every card of the position's hand, ruled on by the legal article. */
static int rule_every_card(const ruleset *rs, int article, scenario *sc, json_t *cards, strbuf *err) {
    kj_position position = sc->rec.kj_position_record; /* the ruling loop rewrites the record's facts */
    for (int i = 0; i < position.ncards; i++) {
        ruling r;
        bool legal = false;
        char card[8];
        strbuf why;
        sb_init(&why);
        kj_format_card(position.hand[i], card);
        bool ok = scoring_rule_card(rs, article, sc, position.hand[i], &r, &legal, &why);
        if (ok) {
            json_t *j = json_object();
            json_object_set_new(j, "card", json_string(card));
            json_object_set_new(j, "verdict", json_string(legal ? "legal" : "illegal"));
            json_object_set_new(j, "legal", json_boolean(legal));
            merge_json(j, output_ruling_part_json(&r, sc));
            json_array_append_new(cards, j);
        } else {
            sb_printf(err, "%s: %s", card, why.data ? why.data : "no ruling");
        }
        enum ruling_status status = r.status;
        ruling_clear(&r);
        sb_free(&why);
        if (!ok) return failed_status(status == RULING_OK ? RULING_REJECTED : status);
    }
    return ARB_OK;
}

static int cmd_legal(const options *o) {
    if (!o->ruleset || !o->input) return usage_error("legal", "%s", "needs --ruleset NAME and a POSITION file (or -)");
    if (o->input2) return usage_error("legal", "unexpected argument '%s'", o->input2);
    ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    scenario sc;
    strbuf err;
    sb_init(&err);
    int status = ARB_BAD_INPUT, article = -1;
    if (!read_scenario_file(rs, o->input, &sc)) {
        /* reported */
    } else if (!sc.rec.has_kj_position_record) {
        sb_puts(&err, "no position to rule on: give \"trump\", \"seat\", \"hand\" and \"trick\"");
    } else if ((article = scoring_article(rs, SCORE_LEGAL, &err)) >= 0) {
        const kj_position *p = &sc.rec.kj_position_record;
        char trick[64] = "";
        if (p->trick.ncards > 0) kj_format_trick(&p->trick, trick, sizeof trick);
        json_t *answer = output_answer_json(rs), *cards = json_array();
        json_object_set_new(answer, "seat", json_string(bridge_seat_name(p->seat)));
        json_object_set_new(answer, "trump", json_string(kj_suit_name(p->trump)));
        json_object_set_new(answer, "trick", json_string(trick));
        if (p->has_penalty_card) {
            char penalty[8];
            kj_format_card(p->penalty_card, penalty);
            json_object_set_new(answer, "penalty_card", json_string(penalty));
        }
        json_object_set_new(answer, "cards", cards);
        status = rule_every_card(rs, article, &sc, cards, &err);
        if (status == ARB_OK && o->json) print_json(json_incref(answer));
        else if (status == ARB_OK) print_legal(rs, answer);
        json_decref(answer);
    }
    if (status != ARB_OK && err.len) fprintf(stderr, "%s: error: %s\n", o->input, err.data);
    sb_free(&err);
    scenario_free(&sc);
    arb_free(rs);
    return status;
}

static const char *const side_words[] = {"spelers", "tegenspelers"}; /* enum kj_side */

static void print_tricks(const kj_hand *h, const kj_hand_score *hs, const scenario *sc) {
    for (int t = 0; t < hs->ntricks; t++) {
        const kj_trick_ruling *tr = &hs->tricks[t];
        char trick[64];
        kj_format_trick(&h->tricks[t], trick, sizeof trick);
        printf("Slag %d  %s  → %s (%s), %lld kaartpunten, roem %lld  ", t + 1, trick, bridge_seat_name(tr->facts.winner),
               side_words[tr->facts.won_by], (long long)tr->facts.card_points,
               (long long)(tr->sums.roem[KJ_TAKERS] + tr->sums.roem[KJ_DEFENDERS]));
        json_t *r = output_ruling_part_json(&tr->r, sc);
        printf("[");
        print_trail(json_object_get(r, "articles"));
        puts("]");
        json_decref(r);
        print_components(sc->rs, &tr->r);
    }
}

/* The first card the legal article calls illegal: whether it is a revoke,
 * the score article's ruling says (its trail). */
static void print_illegal(const ruleset *rs, const kj_hand *h, const kj_hand_score *hs,
                          const scenario *sc) {
    if (!hs->hand.illegal_settled) {
        printf("Verboden kaart (legal-artikel): niet uit het verloop vast te stellen (%s)\n",
               rs->legal_article < 0 ? "de regelset noemt geen legal-artikel"
                                     : "niet alle handen zijn bekend");
    } else if (hs->illegal_trick < 0) {
        puts("Verboden kaart (legal-artikel): geen");
    } else {
        json_t *j = scoring_illegal_json(h, hs, sc);
        printf("Verboden kaart van de %s: slag %lld, %s speelde %s ",
               side_words[hs->hand.illegal_by == KJ_ILLEGAL_TAKERS ? KJ_TAKERS : KJ_DEFENDERS],
               (long long)json_integer_value(json_object_get(j, "trick")),
               json_string_value(json_object_get(j, "seat")),
               json_string_value(json_object_get(j, "card")));
        print_trail_and_messages(j);
        json_decref(j);
    }
}

static void print_hand_score(const ruleset *rs, const kj_hand_score *hs, const scenario *sc) {
    const kj_hand *h = &sc->rec.kj_hand_record;
    const kj_hand_facts *f = &hs->hand;
    if (hs->from_record) {
        printf("Klaverjas volgens %s (%s): troef %s, speler %s\n", rs->title, rs->name,
               kj_suit_name(h->trump), bridge_seat_name(h->taker));
        print_tricks(h, hs, sc);
        printf("Slagen: spelers %d, tegenspelers %d\n", f->tricks[KJ_TAKERS],
               f->tricks[KJ_DEFENDERS]);
        printf("Uit de slagen: spelers %lld (roem %lld), tegenspelers %lld (roem %lld)\n",
               (long long)f->points[KJ_TAKERS], (long long)f->roem[KJ_TAKERS],
               (long long)f->points[KJ_DEFENDERS], (long long)f->roem[KJ_DEFENDERS]);
        print_illegal(rs, h, hs, sc);
    } else {
        printf("Klaverjas volgens %s (%s): het resultaat zoals opgegeven, zonder slagverloop\n",
               rs->title, rs->name);
    }
    json_t *score = output_ruling_part_json(&hs->score, sc);
    printf("Score [");
    print_trail(json_object_get(score, "articles"));
    puts("]");
    json_decref(score);
    print_components(rs, &hs->score);
    printf("Spelers: %lld   Tegenspelers: %lld\n", (long long)hs->score_sums.side[KJ_TAKERS],
           (long long)hs->score_sums.side[KJ_DEFENDERS]);
}

/* `arbiter score` on a klaverjas ruleset: a hand record, trick by trick. */
static int score_klaverjas(ruleset *rs, const options *o) {
    scenario sc;
    if (!read_scenario_file(rs, o->input, &sc)) {
        scenario_free(&sc);
        return ARB_BAD_INPUT;
    }
    strbuf err;
    sb_init(&err);
    kj_hand_score hs;
    int status = ARB_OK;
    if (!scoring_klaverjas_hand(rs, &sc, &hs, &err)) {
        fprintf(stderr, "%s: error: %s\n", o->input, err.data);
        status = failed_status(hs.failed);
    } else if (o->json) {
        print_json(scoring_hand_json(rs, &hs, &sc));
    } else {
        print_hand_score(rs, &hs, &sc);
    }
    kj_hand_score_clear(&hs);
    sb_free(&err);
    scenario_free(&sc);
    return status;
}

static int cmd_score(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("score", "%s", "needs --ruleset NAME and a CONTRACT such as 4SX+1 (klaverjas: a HAND file)");
    if (o->input2) return usage_error("score", "unexpected argument '%s'", o->input2);
    ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    if (is_klaverjas(rs)) {
        int status = score_klaverjas(rs, o);
        arb_free(rs);
        return status;
    }
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf err;
    sb_init(&err);
    ruling r;
    int64_t total = 0;
    int status = ARB_BAD_INPUT;
    if (scoring_contract(rs, &sc, o->input, o->vul ? 1 : o->nonvul ? 0 : -1, &r, &total, &err))
        status = ARB_OK;
    else if (r.status == RULING_NEEDS && !sc.rec.has_vulnerable)
        sb_puts(&err, "; say --vul or --nonvul");
    if (status != ARB_OK) {
        fprintf(stderr, "arbiter score: %s\n", err.data);
    } else if (o->json) {
        print_json(scoring_contract_json(&r, &sc, o->input, total));
    } else {
        printf("%s%s — %s\n", o->input, !sc.rec.has_vulnerable ? "" : o->vul ? ", kwetsbaar" : ", niet kwetsbaar", rs->title);
        print_components(rs, &r);
        printf("Score van de leider: %lld\n", (long long)total);
    }
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    arb_free(rs);
    return status;
}

static int cmd_imps(const options *o) {
    if (!o->ruleset || !o->input || !o->input2) return usage_error("imps", "%s", "needs --ruleset NAME and two scores A B");
    char *end1, *end2;
    long long a = strtoll(o->input, &end1, 10), b = strtoll(o->input2, &end2, 10);
    if (*end1 || *end2 || !*o->input || !*o->input2 || a < -100000 || a > 100000 || b < -100000 || b > 100000)
        return usage_error("imps", "scores are whole numbers between -100000 and 100000, not '%s'", *end1 ? o->input : o->input2);
    ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf err;
    sb_init(&err);
    ruling r = {0};
    int64_t imps = 0;
    int status = ARB_BAD_INPUT, article = scoring_article(rs, SCORE_IMPS, &err);
    sc.rec.has_scoring = true;
    sc.rec.difference = a - b;
    if (article >= 0 && scenario_apply_record(&sc, &err) && scoring_rule(rs, article, &sc, &r, &imps, &err)) status = ARB_OK;
    if (status != ARB_OK) {
        fprintf(stderr, "arbiter imps: %s\n", err.data);
    } else if (o->json) {
        json_t *j = output_json(&r, &sc);
        json_object_set_new(j, "difference", json_integer(a - b));
        json_object_set_new(j, "imps", json_integer(imps));
        print_json(j);
    } else {
        printf("%lld tegen %lld: verschil %lld — %s\n", a, b, a - b, rs->title);
        print_components(rs, &r);
        printf("IMP's: %lld\n", (long long)imps);
    }
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
    arb_free(rs);
    return status;
}

/* One board's scores: a score per line, or CSV lines board,pair,score (a
 * header line is skipped). Boards are matchpointed separately, with the
 * CLI's plugins. (tests/fuzz/fuzz_matchpoints.c compiles this file and
 * calls these two by name.) */
static bool parse_score_lines(const char *text, vec *rows, strbuf *err) {
    return scoring_parse_score_lines(text, rows, err);
}

static bool matchpoint_boards(const ruleset *rs, vec *rows, strbuf *err) {
    return scoring_matchpoint_lines(rs, hooks, rows, err);
}

static int cmd_matchpoints(const options *o) {
    if (!o->ruleset || !o->input) return usage_error("matchpoints", "%s", "needs --ruleset NAME and a FILE of scores (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("matchpoints", o->input);
    ruleset *rs = load_or_report(o->ruleset);
    vec rows;
    vec_init(&rows, sizeof(score_line));
    strbuf err;
    sb_init(&err);
    int status = ARB_BAD_INPUT;
    if (rs && strlen(text) == len && parse_score_lines(text, &rows, &err) && matchpoint_boards(rs, &rows, &err)) {
        status = ARB_OK;
        for (int i = 0; !o->json && i < rows.len; i++) {
            score_line *r = &VEC_AT(&rows, score_line, i);
            if (r->board[0]) {
                printf("%s,%s,%lld,%lld\n", r->board, r->pair, (long long)r->score, (long long)r->mp);
            } else {
                printf("%6lld  %lld\n", (long long)r->score, (long long)r->mp);
            }
        }
        if (o->json) print_json(scoring_lines_json(&rows));
    } else if (rs) {
        fprintf(stderr, "%s: error: %s\n", o->input, err.len ? err.data : "the file is not text");
    }
    sb_free(&err);
    vec_free(&rows);
    free(text);
    arb_free(rs);
    return status;
}

/* One ruleset's ruling on the scenario as JSON, with the score of the
 * scenario's contract when the ruleset scores; status as for `rule`. */
static int compare_one(const char *name, bool amended, const char *text, size_t len, json_t **out) {
    ruleset *rs = amended ? load_or_report(name) : load_plain(name);
    if (!rs) return ARB_BAD_INPUT;
    strbuf err;
    sb_init(&err);
    int status = compare_ruling_json(rs, amended ? hooks : NULL, text, len, out, &err);
    if (err.len) fprintf(stderr, "arbiter: %s\n", err.data);
    sb_free(&err);
    arb_free(rs);
    return status;
}

static void print_trail(json_t *trail) {
    size_t i;
    json_t *c;
    json_array_foreach(trail, i, c) printf("%s%s", i ? " > " : "", json_string_value(c));
}

static void print_actions(json_t *actions, const char *indent) {
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        char *args = json_dumps(json_object_get(a, "args"), JSON_COMPACT | JSON_PRESERVE_ORDER);
        printf("%s[%s] %s%s\n", indent, json_string_value(json_object_get(a, "article")), json_string_value(json_object_get(a, "name")),
               strcmp(args, "{}") ? args : "");
        free(args);
    }
}

static void print_compared(json_t *ruling) {
    printf("== %s — %s\n", json_string_value(json_object_get(ruling, "ruleset")),
           json_string_value(json_object_get(ruling, "title")) ? json_string_value(json_object_get(ruling, "title")) : "");
    if (json_object_get(ruling, "error")) {
        printf("Geen uitspraak: %s\n\n", json_string_value(json_object_get(ruling, "error")));
        return;
    }
    printf("Artikelen: ");
    print_trail(json_object_get(ruling, "articles"));
    puts("\nUitspraak:");
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ruling, "messages"), i, m) {
        json_t *a = json_array_get(json_object_get(ruling, "actions"), i);
        printf("  [%s] %s\n", json_string_value(json_object_get(a, "article")), json_string_value(m));
    }
    if (json_object_get(ruling, "score"))
        printf("Score van de leider: %lld\n", (long long)json_integer_value(json_object_get(ruling, "score")));
    json_t *unused = json_object_get(ruling, "unused");
    json_array_foreach(unused, i, m) printf("%s%s", i ? ", " : "Speelde geen rol: ", json_string_value(m));
    if (json_array_size(unused)) putchar('\n');
    putchar('\n');
}

static void print_differences(json_t *rulings, json_t *diff) {
    const char *na = json_string_value(json_object_get(json_array_get(rulings, 0), "ruleset"));
    const char *nb = json_string_value(json_object_get(json_array_get(rulings, 1), "ruleset"));
    if (json_object_size(diff) == 0) {
        printf("Geen verschil tussen %s en %s.\n", na, nb);
        return;
    }
    printf("Verschillen tussen %s en %s:\n", na, nb);
    json_t *arts = json_object_get(diff, "articles");
    if (arts) {
        printf("  Artikelen: %s ", na);
        print_trail(json_array_get(arts, 0));
        printf(" | %s ", nb);
        print_trail(json_array_get(arts, 1));
        putchar('\n');
    }
    json_t *only = json_object_get(diff, "actions_only_in");
    for (int s = 0; only && s < 2; s++) {
        if (!json_array_size(json_array_get(only, s))) continue;
        printf("  Alleen in %s:\n", s ? nb : na);
        print_actions(json_array_get(only, s), "    ");
    }
    json_t *score = json_object_get(diff, "score");
    if (score) {
        char *s = json_dumps(score, JSON_COMPACT | JSON_ENCODE_ANY);
        printf("  Score: %s (%s, %s)\n", s, na, nb);
        free(s);
    }
    json_t *st = json_object_get(diff, "status");
    if (st) {
        char *s = json_dumps(st, JSON_COMPACT);
        printf("  Status: %s\n", s);
        free(s);
    }
}

static int cmd_compare(const options *o) {
    if (o->nrulesets < 2 || !o->input) return usage_error("compare", "%s", "needs two --ruleset and a SCENARIO file (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("compare", o->input);
    json_t *rulings = json_array();
    int status = ARB_OK;
    for (int i = 0; i < o->nrulesets; i++) {
        json_t *one = NULL;
        int st = compare_one(o->rulesets[i], i == o->nrulesets - 1, text, len, &one);
        if (!one) {
            status = ARB_BAD_INPUT;
            break;
        }
        json_array_append_new(rulings, one);
        if (st > status) status = st;
    }
    if ((int)json_array_size(rulings) == o->nrulesets) {
        json_t *diffs = json_array();
        for (int i = 1; i < o->nrulesets; i++)
            json_array_append_new(diffs, compare_differences_json(json_array_get(rulings, 0), json_array_get(rulings, i)));
        if (o->json) {
            json_t *all = json_object();
            json_object_set_new(all, "scenario", json_string(o->input));
            json_object_set(all, "rulings", rulings);
            json_object_set(all, "differences", diffs);
            print_json(all);
        } else {
            printf("Vergelijking voor %s\n\n", o->input);
            for (size_t i = 0; i < json_array_size(rulings); i++) print_compared(json_array_get(rulings, i));
            for (int i = 1; i < o->nrulesets; i++) {
                json_t *pair = json_pack("[OO]", json_array_get(rulings, 0), json_array_get(rulings, i));
                print_differences(pair, json_array_get(diffs, (size_t)i - 1));
                json_decref(pair);
            }
        }
        json_decref(diffs);
    }
    json_decref(rulings);
    free(text);
    return status;
}

static void print_count(double n) {
    if (n < 1e15) printf("%.0f", n);
    else printf("%.3g", n);
}

static json_t *diff_json(const ruleset *a, const ruleset *b, const diff_result *d) {
    json_t *o = json_object(), *regions = json_array(), *only_a = json_array(), *only_b = json_array();
    json_object_set_new(o, "a", json_string(a->name));
    json_object_set_new(o, "b", json_string(b->name));
    if (d->article) json_object_set_new(o, "article", json_string(d->article));
    for (int f = 0; f < d->nfacts; f++) {
        if (d->facts[f].fb < 0) json_array_append_new(only_a, json_string(d->facts[f].name));
        if (d->facts[f].fa < 0) json_array_append_new(only_b, json_string(d->facts[f].name));
    }
    json_object_set_new(o, "facts_only_in_a", only_a);
    json_object_set_new(o, "facts_only_in_b", only_b);
    json_object_set_new(o, "differing", json_real(d->differing));
    json_object_set_new(o, "equal", json_real(d->equal));
    for (int i = 0; i < d->nregions; i++) {
        const diff_region *r = &d->regions[i];
        json_t *j = json_object(), *constraints = json_object();
        for (int f = 0; f < d->nfacts; f++) {
            if (!r->allowed[f]) continue;
            json_t *vals = json_array();
            for (int v = 0; v < d->facts[f].nvalues; v++)
                if (r->allowed[f][v]) json_array_append(vals, d->facts[f].json[v]);
            json_object_set_new(constraints, d->facts[f].name, vals);
        }
        json_object_set_new(j, "region", constraints);
        json_object_set_new(j, "count", json_real(r->count));
        json_object_set_new(j, "example", diff_region_example(d, r));
        json_object_set(j, "a", r->json_a);
        json_object_set(j, "b", r->json_b);
        json_array_append_new(regions, j);
    }
    json_object_set_new(o, "regions", regions);
    return o;
}

static void print_diff(const ruleset *a, const ruleset *b, const diff_result *d) {
    printf("Verschil %s → %s", a->name, b->name);
    if (d->article) printf(" (situaties waarin artikel %s meedoet)", d->article);
    putchar('\n');
    for (int side = 0; side < 2; side++) {
        int n = 0;
        for (int f = 0; f < d->nfacts; f++) {
            if ((side ? d->facts[f].fa : d->facts[f].fb) >= 0) continue;
            if (n++) printf(", %s", d->facts[f].name);
            else printf("Feiten alleen in %s: %s", side ? b->name : a->name, d->facts[f].name);
        }
        if (n) putchar('\n');
    }
    printf("%d gebied%s met een andere uitspraak: ", d->nregions, d->nregions == 1 ? "" : "en");
    print_count(d->differing);
    printf(" situaties; gelijk: ");
    print_count(d->equal);
    puts(" situaties.");
    for (int i = 0; i < d->nregions; i++) {
        const diff_region *r = &d->regions[i];
        strbuf text;
        sb_init(&text);
        diff_region_text(d, r, &text);
        printf("\n%d. %s  (", i + 1, text.data);
        print_count(r->count);
        printf(" situaties)\n   %s: %s\n   %s: %s\n", a->name, r->ruling_a, b->name, r->ruling_b);
        json_t *ex = diff_region_example(d, r);
        char *s = json_dumps(ex, JSON_COMPACT | JSON_PRESERVE_ORDER);
        printf("   voorbeeld: %s\n", s);
        free(s);
        json_decref(ex);
        sb_free(&text);
    }
}

/* Every scenario of a corpus under both rulesets; the ones whose ruling
 * changes are listed with both rulings. */
static int diff_cases(ruleset *a, ruleset *b, const char *path, bool json) {
    size_t len;
    char *text = read_input(path, &len);
    if (!text) return cannot_read("diff", path);
    int changed = 0, total = 0, status = ARB_OK;
    long line = 0;
    json_t *all = json_array();
    for (char *p = text, *next; p && *p; p = next) {
        next = strchr(p, '\n');
        if (next) *next++ = 0;
        line++;
        if (strspn(p, " \t\r") == strlen(p)) continue;
        total++;
        char *ra = NULL, *rb = NULL;
        enum arb_status sa = arb_rule_json(a, p, strlen(p), &ra), sb = arb_rule_json(b, p, strlen(p), &rb);
        json_t *ja = json_loads(ra, 0, NULL), *jb = json_loads(rb, 0, NULL);
        json_t *d = compare_differences_json(ja, jb);
        if (sa == ARB_BAD_INPUT && sb == ARB_BAD_INPUT) status = ARB_BAD_INPUT;
        if (json_object_size(d)) {
            changed++;
            json_t *c = json_pack("{sIsOsOsO}", "line", (json_int_t)line, "a", ja, "b", jb, "differences", d);
            if (!json) {
                printf("regel %ld: %s\n", line, p);
                json_t *pair = json_pack("[OO]", ja, jb);
                print_differences(pair, d);
                json_decref(pair);
            }
            json_array_append_new(all, c);
        }
        json_decref(d);
        json_decref(ja);
        json_decref(jb);
        free(ra);
        free(rb);
    }
    if (json) {
        json_t *o = json_pack("{sisiso}", "cases", total, "changed", changed, "rulings", all);
        print_json(o);
    } else {
        json_decref(all);
        printf("%d van %d zaken krijgen een andere uitspraak.\n", changed, total);
    }
    free(text);
    return status;
}

static int cmd_diff(const options *o) {
    if (!o->input || !o->input2) return usage_error("diff", "%s", "needs two rulesets A B");
    ruleset *a = load_plain(o->input), *b = a ? load_or_report(o->input2) : NULL;
    int status = ARB_BAD_INPUT;
    if (a && b && o->cases) {
        status = diff_cases(a, b, o->cases, o->json);
    } else if (a && b) {
        if (o->article && rs_find_article(a, o->article) < 0 && rs_find_article(b, o->article) < 0) {
            fprintf(stderr, "arbiter diff: neither %s nor %s has an article %s\n", a->name, b->name, o->article);
        } else {
            diff_result d;
            diff_rulesets(a, b, o->article, &d);
            if (d.incomplete) {
                fprintf(
                    stderr,
                    "arbiter diff: %s → %s: incomplete — the decisions of the two rulesets grew "
                    "too large to "
                    "compare; no regions are reported, which does not mean that no ruling changes "
                    "(hint: --article N compares fewer situations, --cases FILE rules given "
                    "scenarios)\n",
                    a->name, b->name);
            } else {
                if (o->json)
                    print_json(diff_json(a, b, &d));
                else
                    print_diff(a, b, &d);
                status = ARB_OK;
            }
            diff_free(&d);
        }
    }
    arb_free(a);
    arb_free(b);
    return status;
}

static int cmd_graph(const options *o) {
    if (!o->ruleset || !o->article) return usage_error("graph", "%s", "needs --ruleset NAME and --article N");
    ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    int a = rs_find_article(rs, o->article);
    int status = ARB_OK;
    if (a < 0) {
        fprintf(stderr, "arbiter graph: %s has no article %s\n", rs->name, o->article);
        status = ARB_BAD_INPUT;
    } else {
        dot_write(rs, rs->articles[a].root, &rs->articles[a], stdout);
    }
    arb_free(rs);
    return status;
}

static int cmd_serve(const options *o) {
    if (o->input) return usage_error("serve", "unexpected argument '%s'", o->input);
    serve_config c = {o->listen, o->rulesets, o->nrulesets, o->plugins, o->nplugins, o->limits, NULL, o->verbose};
    return serve_run(&c);
}

static const command commands[] = {
    {"rule", "rule --ruleset NAME|DIR SCENARIO.json|- [--json] [--why-not ACTION]",
     "Rules on a scenario: a JSON object of facts, optionally with \"dealer\" and \"auction\".\n"
     "A file of several lines is read as JSON Lines: one ruling (or error record) per line.\n"
     "--why-not ACTION says which facts kept the ruling from naming that action.",
     cmd_rule},
    {"ask", "ask --ruleset NAME|DIR [SCENARIO.json] [--json]",
     "Asks only the questions the decision needs, in the ruleset's own words, then rules.\n"
     "Answers come from the terminal or from stdin (one per line).",
     cmd_ask},
    {"check", "check NAME|DIR",
     "Compiles a ruleset and proves it complete: every situation gets a ruling. Reports\n"
     "syntax and type errors, unknown names, apply cycles, unreachable clauses and gaps.",
     cmd_check},
    {"test", "test NAME|DIR [--verbose] [--coverage]",
     "Runs the ruleset's test blocks, and its completeness proof as one more test, and prints\n"
     "`N passed, N failed`. With --coverage, lists the clauses no test reaches (and fails if\n"
     "there are any).",
     cmd_test},
    {"score", "score --ruleset NAME|DIR CONTRACT|HAND.json [--vul|--nonvul] [--json]",
     "Scores a contract and its result for the declaring side (negative when it went down):\n"
     "4S=, 4SX+1, 3NTXX-2, 6H+1, PASS. The ruleset's own scoring table decides.\n"
     "Under a klaverjas ruleset, scores a hand record (\"trump\", \"taker\", \"tricks\", …): each\n"
     "trick by the header's trick article, then the hand by its score article, per side.\n"
     "Without \"tricks\", the score article rules on the hand's result as the file gives it\n"
     "(its facts: points, tricks, roem, a revoke and when it was claimed, …).",
     cmd_score},
    {"legal", "legal --ruleset NAME|DIR POSITION.json|- [--json]",
     "Klaverjas: rules on every card of a player's hand with the header's legal article and\n"
     "lists each as legal or illegal, with the reason and the articles. The position gives\n"
     "\"trump\", \"seat\", \"hand\", \"trick\" (e.g. \"E:S7 SA\") and, mostly, \"taker\".",
     cmd_legal},
    {"matchpoints", "matchpoints --ruleset NAME|DIR FILE|- [--json]",
     "Matchpoints one board's scores (one per line), or several boards as CSV lines\n"
     "board,pair,score, by the ruleset's own scale. A sheet holds at most 5000 scores\n"
     "(core/api/scoring.h); a larger one is refused with exit status 2.",
     cmd_matchpoints},
    {"imps", "imps --ruleset NAME|DIR A B [--json]",
     "The IMPs for score A against score B (negative when B is higher), by the ruleset's scale.",
     cmd_imps},
    {"compare", "compare --ruleset A --ruleset B [--ruleset C …] SCENARIO.json|- [--json]",
     "Rules on one scenario under several rulesets (editions) and shows the rulings side by side,\n"
     "marking what differs: the article trail, the actions on one side only, the score of the\n"
     "scenario's contract.",
     cmd_compare},
    {"diff", "diff A B [--article N] [--json] [--cases FILE.jsonl]",
     "Every region of situations that rulesets A and B rule differently, found by walking their\n"
     "decision graphs together: the region's fact constraints, how many fact combinations it\n"
     "covers, an example scenario and both rulings. --article N limits it to the situations in\n"
     "which either ruling passes through article N. With --cases, rules every scenario of a\n"
     "JSON Lines file under both and lists those whose ruling changes.",
     cmd_diff},
    {"rulesets", "rulesets", "Lists the installed rulesets with their title and hash.",
     cmd_rulesets},
    {"graph", "graph --ruleset NAME|DIR --article N",
     "Writes the decision graph of an article as Graphviz DOT (render with `dot -Tsvg`).",
     cmd_graph},
    {"serve", "serve [--listen HOST:PORT] [--ruleset NAME …] [--plugin FILE …] [--verbose]",
     "Serves the rulings in the browser (core/serve/web) and as a JSON API, on 127.0.0.1:8080 unless\n"
     "--listen says otherwise, with the rulesets named (default: every installed one). Stops on\n"
     "Ctrl-C. docs/guide.md, \"In de browser\", shows the app; core/serve/serve.c lists the endpoints.",
     cmd_serve},
};

#define NCOMMANDS (int)(sizeof commands / sizeof *commands)

static void general_help(FILE *out) {
    fprintf(out, "arbiter %s — rulings from card-game regulations, with the article trail\n\nusage:\n", ARB_VERSION);
    for (int i = 0; i < NCOMMANDS; i++) fprintf(out, "  arbiter %s\n", commands[i].usage);
    fputs("\n`arbiter COMMAND --help` explains a command. Exit status: 0 ok, 1 no ruling or a test\n"
          "failed, 2 bad input or usage.\n",
          out);
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        general_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? ARB_BAD_INPUT : ARB_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("arbiter %s\n", ARB_VERSION);
        return ARB_OK;
    }
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        options o;
        if (parse_options(commands[i].name, argc - 2, argv + 2, &o) != ARB_OK) return ARB_BAD_INPUT;
        current = &o;
        if (o.help) {
            printf("usage: arbiter %s\n\n%s\n", commands[i].usage, commands[i].help);
            return ARB_OK;
        }
        int status = commands[i].run(&o);
        fflush(stdout); /* the ruling is out before the plugins go */
        plugin_set_free(&plugins);
        return status;
    }
    fprintf(stderr, "arbiter: unknown command '%s'\n", argv[1]);
    general_help(stderr);
    return ARB_BAD_INPUT;
}
