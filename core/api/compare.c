/* compare.c — one scenario under several rulesets, and what differs. */
#include "compare.h"

#include "arbiter.h"
#include "scoring.h"

#include <stdlib.h>
#include <string.h>

static json_t *unreadable_json(const ruleset *rs, const char *error) {
    json_t *o = json_object();
    json_object_set_new(o, "ruleset", json_string(rs->name));
    json_object_set_new(o, "title", json_string(rs->title));
    json_object_set_new(o, "status", json_string("bad_input"));
    json_object_set_new(o, "error", json_string(error));
    return o;
}

/* The score of the scenario's contract, when the ruleset scores one. */
static void add_contract_score(const ruleset *rs, scenario *sc, json_t *out) {
    strbuf err;
    sb_init(&err);
    int article = sc->rec.has_contract ? scoring_article(rs, SCORE_CONTRACT, &err) : -1;
    ruling sr = {0};
    int64_t total;
    if (article >= 0 && scoring_rule(rs, article, sc, &sr, &total, &err)) {
        json_object_set_new(out, "score", json_integer(total));
        json_object_set_new(out, "score_articles", output_trail_json(&sr));
    }
    ruling_clear(&sr);
    sb_free(&err);
}

int compare_ruling_json(const ruleset *rs, const scenario_hooks *hooks, const char *text,
                        size_t len, json_t **out, strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf why;
    sb_init(&why);
    int status = ARB_OK;
    ruling r = {0};
    if (!scenario_read_json_placed(&sc, text, len, &why)) {
        *out = unreadable_json(rs, why.data);
        status = ARB_BAD_INPUT;
    } else {
        if (!scenario_rule(rs, rs->root, &sc, &r, err)) status = ARB_BAD_INPUT;
        *out = output_json(&r, &sc);
        json_object_set_new(*out, "title", json_string(rs->title));
        if (status == ARB_OK)
            status = r.status == RULING_OK                                     ? ARB_OK
                     : r.status == RULING_NEEDS || r.status == RULING_REJECTED ? ARB_BAD_INPUT
                                                                               : ARB_NO_RULING;
        add_contract_score(rs, &sc, *out);
    }
    ruling_clear(&r);
    sb_free(&why);
    scenario_free(&sc);
    return status;
}

static bool action_in(json_t *action, json_t *actions) {
    size_t i;
    json_t *other;
    json_array_foreach(actions, i, other) {
        if (json_equal(json_object_get(action, "name"), json_object_get(other, "name")) &&
            json_equal(json_object_get(action, "args"), json_object_get(other, "args")))
            return true;
    }
    return false;
}

static bool is_ruling(json_t *r) {
    const char *s = json_string_value(json_object_get(r, "status"));
    return s && strcmp(s, "ruling") == 0;
}

json_t *compare_differences_json(json_t *a, json_t *b) {
    json_t *d = json_object();
    if (!json_equal(json_object_get(a, "status"), json_object_get(b, "status")))
        json_object_set_new(
            d, "status",
            json_pack("[OO]", json_object_get(a, "status"), json_object_get(b, "status")));
    /* where one gave no ruling, its missing articles and actions are no
     * difference of the rules: the status says it, or, where both need a
     * fact, which each needs (the question may be worded apart). An error's
     * text is no difference: it names its ruleset, and each is shown. */
    if (!is_ruling(a) || !is_ruling(b)) {
        json_t *na = json_object_get(a, "needs"), *nb = json_object_get(b, "needs");
        if (!json_object_get(d, "status") && na && nb && !json_equal(na, nb))
            json_object_set_new(d, "needs", json_pack("[OO]", na, nb));
        return d;
    }
    if (!json_equal(json_object_get(a, "articles"), json_object_get(b, "articles")))
        json_object_set_new(
            d, "articles",
            json_pack("[OO]", json_object_get(a, "articles"), json_object_get(b, "articles")));
    json_t *sides[2] = {a, b}, *only = json_array();
    for (int s = 0; s < 2; s++) {
        json_t *mine = json_array(), *acts = json_object_get(sides[s], "actions");
        size_t i;
        json_t *act;
        json_array_foreach(acts, i,
                           act) if (!action_in(act, json_object_get(sides[1 - s], "actions")))
            json_array_append(mine, act);
        json_array_append_new(only, mine);
    }
    if (json_array_size(json_array_get(only, 0)) || json_array_size(json_array_get(only, 1)))
        json_object_set(d, "actions_only_in", only);
    json_decref(only);
    json_t *sa = json_object_get(a, "score"), *sb = json_object_get(b, "score");
    if ((sa || sb) && !json_equal(sa, sb))
        json_object_set_new(d, "score",
                            json_pack("[OO]", sa ? sa : json_null(), sb ? sb : json_null()));
    return d;
}

/* "27 > 27B > 27B2" */
static void write_trail(FILE *out, json_t *trail) {
    size_t i;
    json_t *c;
    json_array_foreach(trail, i, c) fprintf(out, "%s%s", i ? " > " : "", json_string_value(c));
}

static void write_actions(FILE *out, json_t *actions, const char *indent) {
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        char *args = json_dumps(json_object_get(a, "args"), JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(out, "%s[%s] %s%s\n", indent, json_string_value(json_object_get(a, "article")),
                json_string_value(json_object_get(a, "name")), strcmp(args, "{}") ? args : "");
        xfree(args);
    }
}

void compare_differences_text(FILE *out, json_t *a, json_t *b, json_t *diff) {
    const char *na = json_string_value(json_object_get(a, "ruleset"));
    const char *nb = json_string_value(json_object_get(b, "ruleset"));
    if (json_object_size(diff) == 0) {
        fprintf(out, "Geen verschil tussen %s en %s.\n", na, nb);
        return;
    }
    fprintf(out, "Verschillen tussen %s en %s:\n", na, nb);
    json_t *arts = json_object_get(diff, "articles");
    if (arts) {
        fprintf(out, "  Artikelen: %s ", na);
        write_trail(out, json_array_get(arts, 0));
        fprintf(out, " | %s ", nb);
        write_trail(out, json_array_get(arts, 1));
        fputc('\n', out);
    }
    json_t *only = json_object_get(diff, "actions_only_in");
    for (int s = 0; only && s < 2; s++) {
        if (!json_array_size(json_array_get(only, s))) continue;
        fprintf(out, "  Alleen in %s:\n", s ? nb : na);
        write_actions(out, json_array_get(only, s), "    ");
    }
    json_t *score = json_object_get(diff, "score");
    if (score) {
        char *s = json_dumps(score, JSON_COMPACT | JSON_ENCODE_ANY);
        fprintf(out, "  Score: %s (%s, %s)\n", s, na, nb);
        xfree(s);
    }
    json_t *needs = json_object_get(diff, "needs");
    if (needs)
        fprintf(out, "  Geen uitspraak, elk vraagt iets anders: %s %s | %s %s\n", na,
                json_string_value(json_array_get(needs, 0)), nb,
                json_string_value(json_array_get(needs, 1)));
    json_t *st = json_object_get(diff, "status");
    if (st) {
        char *s = json_dumps(st, JSON_COMPACT);
        fprintf(out, "  Status: %s\n", s);
        xfree(s);
    }
}
