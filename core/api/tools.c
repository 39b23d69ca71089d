/* api/tools.c — the tools for whole rulesets behind arbiter.h ("Tools for
 * whole rulesets"): the completeness proof, the test runner, the diff of two
 * rulesets, an article's graph as DOT, the table of installed rulesets and
 * why a ruling did not name an action. The reports are written exactly as
 * `arbiter` prints them; the work is done by core/tools and dsl/check. */
#include "arbiter.h"

#include "protect.h"

#include "check.h"
#include "compare.h"
#include "compile.h"
#include "diff.h"
#include "dot.h"
#include "load.h"
#include "overlap.h"
#include "plugin.h"
#include "report.h"
#include "testrun.h"
#include "whynot.h"

#include <stdlib.h>
#include <string.h>

/* ---- check ---------------------------------------------------------------- */

/* The proof run without a word, to learn whether a ruleset from its image
 * has problems worth reporting from the files. */
static int quiet_check(const ruleset *rs) {
    diag *d = diag_new(stderr);
    diag_mute(d, 1);
    int problems = dsl_check(rs, d);
    diag_free(d);
    return problems;
}

static void write_summary(const ruleset *rs, FILE *out) {
    const rs_test *tests;
    int ntests = rs_tests(rs, &tests);
    fprintf(out,
            "%s: complete — %d articles, %d clauses, %d facts asked or derived from the record, "
            "%d graph nodes, %d tests\n",
            rs->name, rs->narticles, rs->nclauses - rs->narticles, rs->nvars,
            graph_size(rs->graph, rs->root), ntests);
    for (int i = 0; i < rs->noutside; i++)
        fprintf(out, "  declared outside its scope (%s:%d): %s\n", rs->outside[i].loc.file,
                rs->outside[i].loc.line, rs->outside[i].message);
}

/* Compiled (or from its image) and proved; a ruleset from an image that has
 * problems is compiled again, since an image holds no source lines to quote. */
static ruleset *compile_and_prove(const char *path, const char *const *amendments, int n, diag *d,
                                  int *problems) {
    bool cached;
    ruleset *rs = load_or_compile(path, amendments, n, d, &cached);
    *problems = rs && cached ? quiet_check(rs) : 0;
    if (*problems) {
        ruleset_free(rs);
        rs = dsl_compile_amended(path, amendments, n, d);
    }
    if (rs && (!cached || *problems)) *problems = dsl_check(rs, d);
    return rs;
}

static enum arb_status check_unprotected(const char *name, const char *const *amendments,
                                         int namendments, FILE *out, FILE *errors, ruleset **kept) {
    char why[120];
    if (!name || !out || !load_amendments_ok(amendments, namendments, why, sizeof why)) {
        if (errors && name && out) fprintf(errors, "arbiter: %s\n", why);
        return ARB_BAD_INPUT;
    }
    char *path = arb_find_ruleset(name);
    if (!path) {
        if (errors) fprintf(errors, "arbiter: no ruleset named or at '%s'\n", name);
        return ARB_BAD_INPUT;
    }
    diag *d = diag_new(errors ? errors : stderr);
    if (!errors) diag_mute(d, 1);
    int problems;
    ruleset *rs = compile_and_prove(path, amendments, namendments, d, &problems);
    enum arb_status status = ARB_BAD_INPUT;
    if (rs && problems == 0) {
        int warnings = overlap_report(rs, d); /* warned, not refused: the law may mean it */
        int untitled = check_english_titles(rs, d);
        write_summary(rs, out);
        if (warnings)
            fprintf(out,
                    "  %d warning%s: articles that can both rule on one situation (see above)\n",
                    warnings, warnings == 1 ? "" : "s");
        if (untitled)
            fprintf(out, "  %d warning%s: articles without an English title (see above)\n",
                    untitled, untitled == 1 ? "" : "s");
        status = ARB_OK;
    } else if (errors) {
        fprintf(errors, "%s: %d error%s\n", path, diag_errors(d), diag_errors(d) == 1 ? "" : "s");
    }
    diag_free(d);
    if (kept && status == ARB_OK) { /* the caller's now */
        *kept = rs;
        rs = NULL;
    }
    ruleset_free(rs);
    xfree(path);
    return status;
}

enum arb_status arb_check(const char *name, const char *const *amendments, int namendments,
                          FILE *out, FILE *errors) {
    return arb_check_kept(name, amendments, namendments, out, errors, NULL);
}

enum arb_status arb_check_kept(const char *name, const char *const *amendments, int namendments,
                               FILE *out, FILE *errors, arb_ruleset **rs) {
    if (rs) *rs = NULL;
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(errors);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = check_unprotected(name, amendments, namendments, out, errors, rs);
    api_leave(&g);
    return result;
}

/* ---- clauses an earlier one partly hides ------------------------------------ */

static void write_clause(const ruleset *rs, int c, FILE *out) {
    const rs_clause *cl = &rs->clauses[c];
    fprintf(out, "%s (%s:%d)", cl->cite ? cl->cite : rs->articles[cl->article].id,
            cl->loc.file ? cl->loc.file : "?", cl->loc.line);
}

static enum arb_status hidden_clauses_unprotected(const arb_ruleset *rs, FILE *out, int *found) {
    if (found) *found = 0;
    if (!rs || !out) return ARB_BAD_INPUT;
    overlap *list;
    int n = overlap_clauses(rs, &list);
    for (int i = 0; i < n; i++) {
        fprintf(out, "article %s: clause ", rs->articles[rs->clauses[list[i].b].article].id);
        write_clause(rs, list[i].b, out);
        fputs(" is partly hidden by the earlier clause ", out);
        write_clause(rs, list[i].a, out);
        fprintf(out, ": given %s\n", list[i].given);
    }
    fprintf(out, "%d clause%s partly hidden by an earlier one\n", n, n == 1 ? "" : "s");
    overlap_free(list, n);
    if (found) *found = n;
    return ARB_OK;
}

enum arb_status arb_hidden_clauses(const arb_ruleset *rs, FILE *out, int *found) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = hidden_clauses_unprotected(rs, out, found);
    api_leave(&g);
    return result;
}

/* ---- test ----------------------------------------------------------------- */

static enum arb_status test_unprotected(const arb_ruleset *rs, const arb_plugins *plugins,
                                        int flags, FILE *out, int *passed, int *failed) {
    if (passed) *passed = 0;
    if (failed) *failed = 0;
    if (!rs || !out) return ARB_BAD_INPUT;
    bool coverage = flags & ARB_TEST_COVERAGE;
    /* The completeness proof counts as one test: a ruleset with a gap is
     * not green, whatever its test blocks say. */
    diag *d = diag_new(out);
    int problems = dsl_check(rs, d);
    diag_free(d);
    test_totals t = testrun_all(rs, plugins ? plugin_set_hooks(plugins) : NULL, out,
                                flags & ARB_TEST_VERBOSE, coverage);
    if (problems)
        t.failed++;
    else
        t.passed++;
    /* So is the proof that the legal article always leaves a legal card. */
    if (rs->legal_article >= 0) {
        if (arb_check_legal_cards(rs, plugins, out, out) == ARB_OK)
            t.passed++;
        else
            t.failed++;
    }
    const rs_test *tests;
    if (rs_tests(rs, &tests) == 0)
        fprintf(out, "%s: warning: the ruleset has no test blocks\n", rs->name);
    if (coverage)
        fprintf(out, "%d of %d clauses reached by a test\n", t.clauses - t.uncovered, t.clauses);
    fprintf(out, "%d passed, %d failed\n", t.passed, t.failed);
    if (passed) *passed = t.passed;
    if (failed) *failed = t.failed;
    if (problems) return ARB_BAD_INPUT;
    return t.failed || (coverage && t.uncovered) ? ARB_NO_RULING : ARB_OK;
}

enum arb_status arb_test(const arb_ruleset *rs, const arb_plugins *plugins, int flags, FILE *out,
                         int *passed, int *failed) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = test_unprotected(rs, plugins, flags, out, passed, failed);
    api_leave(&g);
    return result;
}

/* ---- the tests as scenarios ---------------------------------------------- */

static enum arb_status test_scenarios_unprotected(const arb_ruleset *rs, FILE *out, int *written) {
    if (written) *written = 0;
    if (!rs || !out) return ARB_BAD_INPUT;
    json_t *all = report_test_scenarios(rs);
    for (size_t i = 0; i < json_array_size(all); i++) {
        char *line = json_dumps(json_array_get(all, i), JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(out, "%s\n", line);
        xfree(line);
    }
    if (written) *written = (int)json_array_size(all);
    json_decref(all);
    return ARB_OK;
}

enum arb_status arb_test_scenarios(const arb_ruleset *rs, FILE *out, int *written) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = test_scenarios_unprotected(rs, out, written);
    api_leave(&g);
    return result;
}

/* ---- diff ----------------------------------------------------------------- */

static void write_json(json_t *o, FILE *out) {
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(out, "%s\n", s);
    xfree(s);
    json_decref(o);
}

/* A count of fact combinations: exact while that reads well. */
static void write_count(double n, FILE *out) {
    if (n < 1e15)
        fprintf(out, "%.0f", n);
    else
        fprintf(out, "%.3g", n);
}

static json_t *region_json(const diff_result *d, const diff_region *r) {
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
    return j;
}

static json_t *diff_json(const ruleset *a, const ruleset *b, const diff_result *d) {
    json_t *o = json_object(), *regions = json_array(), *only_a = json_array(),
           *only_b = json_array();
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
    for (int i = 0; i < d->nregions; i++)
        json_array_append_new(regions, region_json(d, &d->regions[i]));
    json_object_set_new(o, "regions", regions);
    return o;
}

/* "Feiten alleen in A: x, y", for each side that has facts of its own. */
static void write_own_facts(const ruleset *a, const ruleset *b, const diff_result *d, FILE *out) {
    for (int side = 0; side < 2; side++) {
        int n = 0;
        for (int f = 0; f < d->nfacts; f++) {
            if ((side ? d->facts[f].fa : d->facts[f].fb) >= 0) continue;
            if (n++)
                fprintf(out, ", %s", d->facts[f].name);
            else
                fprintf(out, "Feiten alleen in %s: %s", side ? b->name : a->name, d->facts[f].name);
        }
        if (n) fputc('\n', out);
    }
}

static void write_region(const ruleset *a, const ruleset *b, const diff_result *d, int i,
                         FILE *out) {
    const diff_region *r = &d->regions[i];
    strbuf text;
    sb_init(&text);
    diff_region_text(d, r, &text);
    fprintf(out, "\n%d. %s  (", i + 1, text.data);
    write_count(r->count, out);
    fprintf(out, " situaties)\n   %s: %s\n   %s: %s\n", a->name, r->ruling_a, b->name, r->ruling_b);
    json_t *ex = diff_region_example(d, r);
    char *s = json_dumps(ex, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fprintf(out, "   voorbeeld: %s\n", s);
    xfree(s);
    json_decref(ex);
    sb_free(&text);
}

static void write_diff(const ruleset *a, const ruleset *b, const diff_result *d, FILE *out) {
    fprintf(out, "Verschil %s → %s", a->name, b->name);
    if (d->article) fprintf(out, " (situaties waarin artikel %s meedoet)", d->article);
    fputc('\n', out);
    write_own_facts(a, b, d, out);
    fprintf(out, "%d gebied%s met een andere uitspraak: ", d->nregions,
            d->nregions == 1 ? "" : "en");
    write_count(d->differing, out);
    fprintf(out, " situaties; gelijk: ");
    write_count(d->equal, out);
    fputs(" situaties.\n", out);
    for (int i = 0; i < d->nregions; i++)
        write_region(a, b, d, i, out);
}

/* The articles A and B rule with apart from their roots (the legal card,
 * the trick), compared too where no article was named: how many kinds of
 * situation each changes, -1 where that comparison is incomplete, 0
 * where it changes nothing. A report that said "no ruling changes" while
 * an amendment changed which card may be played would mislead. */
static int own_article_changes(const arb_ruleset *a, const arb_ruleset *b, int which,
                               const char **id) {
    *id = diff_own_article(a, which);
    const char *in_b = diff_own_article(b, which);
    if (!*id || !in_b || strcmp(*id, in_b) != 0) return 0;
    diff_result d;
    diff_rulesets(a, b, *id, &d);
    int n = d.incomplete ? -1 : d.nregions;
    diff_free(&d);
    return n;
}

/* What the report says of those articles (one paragraph each, in the
 * report's language), or, for JSON, the list "own_articles". */
static void own_articles_note(const arb_ruleset *a, const arb_ruleset *b, enum arb_lang lang,
                              json_t *json, strbuf *note) {
    static const char *const what[2][2] = {
        {"dat beslist welke kaart gespeeld mag worden", "which card may be played"},
        {"dat een slag telt", "what a trick counts"}};
    json_t *list = json ? json_array() : NULL;
    for (int w = 0; w < 2; w++) {
        const char *id;
        int n = own_article_changes(a, b, w, &id);
        if (list && id)
            json_array_append_new(list, json_pack("{ss si}", "article", id, "kinds", n));
        if (!note || n == 0) continue;
        if (note->len) sb_putc(note, '\n');
        bool one = n == 1;
        if (lang == ARB_EN)
            sb_printf(note,
                      "Article %s (%s) is compared on its own: %s%d kind%s of situation change%s "
                      "there; `--article %s` shows %s.",
                      id, what[w][1], n < 0 ? "incomplete, " : "", n < 0 ? 0 : n, one ? "" : "s",
                      one ? "s" : "", id, one ? "it" : "them");
        else
            sb_printf(note,
                      "Artikel %s (%s) wordt apart vergeleken: daar %s %s%d soort%s situatie%s een "
                      "andere uitspraak; `--article %s` toont %s.",
                      id, what[w][0], one ? "krijgt" : "krijgen", n < 0 ? "onvolledig, " : "",
                      n < 0 ? 0 : n, one ? "" : "en", one ? "" : "s", id, one ? "die" : "ze");
    }
    if (list) json_object_set_new(json, "own_articles", list);
}

static enum arb_status diff_unprotected(const arb_ruleset *a, const arb_ruleset *b,
                                        const arb_diff_options *options, FILE *out, FILE *errors) {
    arb_diff_options o = options ? *options : (arb_diff_options){0};
    if (!a || !b || !out || (o.cases_len && !o.cases) || o.format > ARB_DIFF_HTML ||
        o.lang > ARB_EN)
        return ARB_BAD_INPUT;
    if (o.json) o.format = ARB_DIFF_JSON;
    if (o.cases)
        return report_cases(a, b, o.cases, o.cases_len, o.format == ARB_DIFF_JSON, o.lang, out);
    if (o.article && rs_find_article(a, o.article) < 0 && rs_find_article(b, o.article) < 0) {
        if (errors)
            fprintf(errors, "arbiter diff: neither %s nor %s has an article %s\n", a->name, b->name,
                    o.article);
        return ARB_BAD_INPUT;
    }
    diff_result d;
    diff_rulesets(a, b, o.article, &d);
    enum arb_status status = ARB_OK;
    if (d.incomplete) { /* never a silent "nothing changed" */
        if (errors)
            fprintf(errors,
                    "arbiter diff: %s → %s: incomplete — the decisions of the two rulesets grew "
                    "too large to "
                    "compare; no regions are reported, which does not mean that no ruling changes "
                    "(hint: --article N compares fewer situations, --cases FILE rules given "
                    "scenarios)\n",
                    a->name, b->name);
        status = ARB_BAD_INPUT;
    } else if (o.format == ARB_DIFF_JSON) {
        json_t *j = diff_json(a, b, &d);
        json_object_set_new(j, "groups", report_groups(a, b, &d, o.lang));
        if (!o.article) own_articles_note(a, b, o.lang, j, NULL);
        write_json(j, out);
    } else if (o.format == ARB_DIFF_EXACT) {
        write_diff(a, b, &d, out);
    } else {
        static const enum report_format formats[] = {[ARB_DIFF_TEXT] = REPORT_TEXT,
                                                     [ARB_DIFF_MARKDOWN] = REPORT_MARKDOWN,
                                                     [ARB_DIFF_HTML] = REPORT_HTML};
        json_t *groups = report_groups(a, b, &d, o.lang);
        strbuf note;
        sb_init(&note);
        if (!o.article) own_articles_note(a, b, o.lang, NULL, &note);
        report_write(a, b, &d, groups, note.data, formats[o.format], o.lang, out);
        sb_free(&note);
        json_decref(groups);
    }
    diff_free(&d);
    return status;
}

enum arb_status arb_diff(const arb_ruleset *a, const arb_ruleset *b,
                         const arb_diff_options *options, FILE *out, FILE *errors) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(errors);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = diff_unprotected(a, b, options, out, errors);
    api_leave(&g);
    return result;
}

/* ---- graph ---------------------------------------------------------------- */

static enum arb_status graph_dot_unprotected(const arb_ruleset *rs, const char *article, FILE *out,
                                             FILE *errors) {
    if (!rs || !article || !out) return ARB_BAD_INPUT;
    int a = rs_find_article(rs, article);
    if (a < 0) {
        if (errors) fprintf(errors, "arbiter graph: %s has no article %s\n", rs->name, article);
        return ARB_BAD_INPUT;
    }
    dot_write(rs, rs->articles[a].root, &rs->articles[a], out);
    return ARB_OK;
}

enum arb_status arb_graph_dot(const arb_ruleset *rs, const char *article, FILE *out, FILE *errors) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(errors);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = graph_dot_unprotected(rs, article, out, errors);
    api_leave(&g);
    return result;
}

/* ---- rulesets ------------------------------------------------------------- */

/* One ruleset's line; false when it does not compile. */
static bool write_ruleset_line(const char *dir, const char *name, FILE *out) {
    strbuf path;
    sb_init(&path);
    sb_printf(&path, "%s/%s", dir, name);
    ruleset *rs = arb_load(path.data, NULL);
    char hash[32] = "";
    if (rs) arb_hash(rs, hash);
    fprintf(out, "%-22s %-24s %s\n", name, rs ? hash : "(errors: arbiter check)",
            rs ? rs->title : "");
    bool ok = rs != NULL;
    arb_free(rs);
    sb_free(&path);
    return ok;
}

static enum arb_status rulesets_table_unprotected(const char *dir, FILE *out, int *listed) {
    if (listed) *listed = 0;
    if (!dir || !out) return ARB_BAD_INPUT;
    char **names;
    int n = arb_list_rulesets(dir, &names), broken = 0;
    for (int i = 0; i < n; i++) {
        broken += !write_ruleset_line(dir, names[i], out);
        xfree(names[i]);
    }
    xfree(names);
    if (listed) *listed = n;
    return broken ? ARB_BAD_INPUT : ARB_OK;
}

enum arb_status arb_rulesets_table(const char *dir, FILE *out, int *listed) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = rulesets_table_unprotected(dir, out, listed);
    api_leave(&g);
    return result;
}

/* ---- why not -------------------------------------------------------------- */

/* "1 > 1B": the citations of an outcome's trail. */
static void write_outcome_trail(const ruleset *rs, int outcome, FILE *out) {
    const rs_outcome *o = rs_outcome_at(rs, outcome);
    for (int i = 0, n = 0; i < o->ntrail; i++)
        if (rs->clauses[o->trail[i]].cite)
            fprintf(out, "%s%s", n++ ? " > " : "", rs->clauses[o->trail[i]].cite);
}

/* "  minutes = 16 (niet 5)" for each fact that would have to differ; a
 * derived fact the decisions test as a variable of its own is said to be
 * one: it is changed through the facts it is computed from. */
static void write_changes(const ruleset *rs, const fact_values *fv, const whynot *w, FILE *out) {
    for (int i = 0; i < w->nchanges; i++) {
        const rs_fact *f = &rs->facts[w->fact[i]];
        strbuf want, had;
        sb_init(&want);
        sb_init(&had);
        int missing = w->fact[i];
        int64_t value = 0;
        bool known = eval_tested_value(rs, w->fact[i], fv, &value, &missing) == EXPR_OK;
        rs_format_value(rs, f->type, w->value[i], FMT_NAME, &want);
        if (known) rs_format_value(rs, f->type, value, FMT_NAME, &had);
        fprintf(out, "  %s = %s (niet %s%s)\n", f->name, want.data, known ? had.data : "gegeven",
                f->derived >= 0 ? "; afgeleid: het volgt uit de feiten waaruit het berekend wordt"
                                : "");
        sb_free(&want);
        sb_free(&had);
    }
}

static void write_why_not(const ruleset *rs, const fact_values *fv, int action, const char *name,
                          FILE *out) {
    whynot w;
    whynot_find(rs, rs->root, fv, action, &w);
    if (!w.reachable) {
        fprintf(out,
                "Waarom niet %s? Geen enkele situatie leidt in deze regelset tot die maatregel.\n",
                name);
    } else if (w.nchanges == 0) {
        fprintf(out,
                "Waarom niet %s? Met de gegeven feiten kan die maatregel wel volgen; de nog niet "
                "gegeven feiten "
                "beslissen.\n",
                name);
    } else {
        fprintf(out, "Waarom niet %s? Die maatregel zou volgen (", name);
        write_outcome_trail(rs, w.outcome, out);
        fputs(") als:\n", out);
        write_changes(rs, fv, &w, out);
    }
}

static enum arb_status why_not_unprotected(const arb_ruleset *rs, const arb_plugins *plugins,
                                           const char *text, size_t len, const char *action,
                                           FILE *out) {
    int act = rs && action ? rs_find_action(rs, action) : -1;
    if (act < 0 || !text || !out || len > ARB_MAX_LINE) return ARB_BAD_INPUT;
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = plugins ? plugin_set_hooks(plugins) : NULL; /* a plugin's own facts are read */
    strbuf err;
    sb_init(&err);
    bool ok = scenario_read_json_placed(&sc, text, len, &err);
    if (ok) { /* the facts as the ruling sees them: a silent fact takes its default */
        ruling r;
        sc.hooks = NULL;
        scenario_rule(rs, rs->root, &sc, &r, &err);
        ruling_clear(&r);
        write_why_not(rs, &sc.fv, act, action, out);
    }
    sb_free(&err);
    scenario_free(&sc);
    return ok ? ARB_OK : ARB_BAD_INPUT;
}

enum arb_status arb_why_not(const arb_ruleset *rs, const arb_plugins *plugins, const char *text,
                            size_t len, const char *action, FILE *out) {
    mem_guard g;
    API_PROTECT(g) {
        api_no_memory_on(NULL);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = why_not_unprotected(rs, plugins, text, len, action, out);
    api_leave(&g);
    return result;
}
