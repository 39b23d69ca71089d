/* api/csvout.c — a scorer's answer written as CSV (arbiter.h, "CSV"): the
 * one writer of the sheets the CLI prints and the server and the web app
 * hand out, so that they are the same bytes everywhere. Each form reads
 * the JSON answer of its call; a field goes through libcsv (csvline.h). */
#include "arbiter.h"
#include "csvline.h"
#include "protect.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *text_of(json_t *row, const char *key) {
    const char *v = json_string_value(json_object_get(row, key));
    return v ? v : "";
}

/* A number as the sheets give it: whole, or to twelve significant
 * digits; "-" for none. */
static void number_text(char *out, size_t size, json_t *v) {
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, size, "%.12g", json_real_value(v));
    else
        snprintf(out, size, "-");
}

static void text_field(strbuf *out, json_t *row, const char *key, bool last) {
    csv_put_field(out, text_of(row, key), false, last);
}

/* A number field: empty for none. */
static void number_field(strbuf *out, json_t *row, const char *key, bool last) {
    char text[32];
    number_text(text, sizeof text, json_object_get(row, key));
    csv_put_field(out, strcmp(text, "-") == 0 ? "" : text, false, last);
}

/* A number field of a scored PBN result: empty for null, "-" for a key
 * the row does not have. */
static void figure_field(strbuf *out, json_t *row, const char *key, bool last) {
    json_t *v = json_object_get(row, key);
    char text[32] = "";
    if (!json_is_null(v)) number_text(text, sizeof text, v);
    csv_put_field(out, text, false, last);
}

/* A number field of a TotalScoreTable's row: "-" for none. */
static void total_field(strbuf *out, json_t *row, const char *key, bool last) {
    char text[32];
    number_text(text, sizeof text, json_object_get(row, key));
    csv_put_field(out, text, false, last);
}

static void header(strbuf *out, const char *line) {
    sb_puts(out, line);
    sb_putc(out, '\n');
}

/* Whether any item of the list has key (a column only some answers have:
 * an event's field, IMPs). */
static bool any_has(json_t *list, const char *key) {
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item) {
        if (json_object_get(item, key)) return true;
    }
    return false;
}

/* The header ending in ",field" when the rows name their field (an event
 * of several sections or stages), else as it is. */
static void header_with(strbuf *out, const char *line, bool field) {
    sb_puts(out, line);
    sb_puts(out, field ? ",field\n" : "\n");
}

/* A row's last fields: its numbers under keys (NULL-terminated), then,
 * when the rows name their field, the field `named` gives. */
static void numbers_to_end(strbuf *out, json_t *row, const char *const *keys, json_t *named,
                           bool field) {
    for (; *keys; keys++)
        number_field(out, row, *keys, !keys[1] && !field);
    if (field) text_field(out, named, "field", true);
}

/* arb_session_json: each ranking's pairs (with its field, for an event
 * of several). */
static void session_rankings(strbuf *out, json_t *answer) {
    static const char *const mp_keys[] = {"boards", "matchpoints", "top", "percentage", NULL};
    static const char *const imp_keys[] = {"boards", "imps", NULL};
    static const char *const total_keys[] = {"boards", "points", NULL};
    bool mp = strcmp(text_of(answer, "method"), "matchpoints") == 0,
         total = strcmp(text_of(answer, "method"), "total") == 0;
    json_t *rankings = json_object_get(answer, "rankings");
    bool field = any_has(rankings, "field");
    header_with(out,
                mp      ? "place,pair,direction,boards,matchpoints,top,percentage"
                : total ? "place,pair,direction,boards,points"
                        : "place,pair,direction,boards,imps",
                field);
    size_t i, k;
    json_t *r, *p;
    json_array_foreach(rankings, i, r) {
        json_array_foreach(json_object_get(r, "pairs"), k, p) {
            text_field(out, p, "place", false);
            text_field(out, p, "pair", false);
            text_field(out, p, "direction", false);
            numbers_to_end(out, p, mp ? mp_keys : total ? total_keys : imp_keys, r, field);
        }
    }
}

/* arb_session_json: every board and table, each side's figures and the
 * articles that ruled on them (empty for a plain board's). */
static void session_boards(strbuf *out, json_t *answer) {
    static const char *const texts[] = {"board", "ns", "ew", "score_ns", "score_ew"};
    static const char *const mp_keys[] = {"matchpoints_ns", "matchpoints_ew", "percentage_ns",
                                          "percentage_ew"};
    static const char *const imp_keys[] = {"imps_ns", "imps_ew"};
    static const char *const total_keys[] = {"points_ns", "points_ew"};
    bool mp = strcmp(text_of(answer, "method"), "matchpoints") == 0,
         total = strcmp(text_of(answer, "method"), "total") == 0;
    json_t *boards = json_object_get(answer, "boards");
    bool field = any_has(boards, "field");
    header_with(out,
                mp ? "board,ns,ew,score_ns,score_ew,matchpoints_ns,matchpoints_ew,percentage_ns,"
                     "percentage_ew,articles_ns,articles_ew"
                : total
                    ? "board,ns,ew,score_ns,score_ew,points_ns,points_ew,articles_ns,articles_ew"
                    : "board,ns,ew,score_ns,score_ew,imps_ns,imps_ew,articles_ns,articles_ew",
                field);
    size_t i;
    json_t *b;
    json_array_foreach(boards, i, b) {
        for (size_t c = 0; c < sizeof texts / sizeof *texts; c++)
            text_field(out, b, texts[c], false);
        for (size_t c = 0; c < (mp ? 4u : 2u); c++)
            number_field(out, b, mp ? mp_keys[c] : total ? total_keys[c] : imp_keys[c], false);
        text_field(out, b, "articles_ns", false);
        text_field(out, b, "articles_ew", !field);
        if (field) text_field(out, b, "field", true);
    }
}

/* arb_ranking_json: the pairs in their order. */
static void ranking(strbuf *out, json_t *pairs) {
    header(out, "place,pair,boards,matchpoints,tops,points,tie_broken_by");
    static const char *const numbers[] = {"boards", "matchpoints", "tops", "points"};
    size_t i;
    json_t *p;
    json_array_foreach(pairs, i, p) {
        text_field(out, p, "place", false);
        text_field(out, p, "pair", false);
        for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++)
            number_field(out, p, numbers[k], false);
        text_field(out, p, "tie_broken_by", true);
    }
}

/* arb_matchpoints_sheet: board, pair, then a plain score and its
 * matchpoints, or an adjusted entry as written, its matchpoints, its
 * percentage of the top and (when ruled on) "art. " and the trail. No
 * header: the rows answer the sheet's own lines. */
static void matchpoints(strbuf *out, json_t *rows) {
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) {
        text_field(out, r, "board", false);
        text_field(out, r, "pair", false);
        if (!json_object_get(r, "entry")) {
            number_field(out, r, "score", false);
            number_field(out, r, "matchpoints", true);
            continue;
        }
        char mp[32], pct[40];
        number_text(mp, sizeof mp, json_object_get(r, "matchpoints"));
        number_text(pct, sizeof pct, json_object_get(r, "percentage"));
        if (strcmp(pct, "-") != 0) strcat(pct, "%");
        const char *cited = text_of(r, "articles");
        text_field(out, r, "entry", false);
        csv_put_field(out, mp, false, false);
        csv_put_field(out, pct, false, !*cited);
        if (*cited) {
            char *trail = xmalloc(strlen(cited) + 6);
            strcpy(trail, "art. ");
            strcat(trail, cited);
            csv_put_field(out, trail, false, true);
            xfree(trail);
        }
    }
}

/* A result's disagreements with the file as one field, always quoted:
 * "Score_NS 620 (arbiter 650); MP_NS 3 (arbiter 4)"; nothing when none;
 * then the line's end, or a comma when `more` fields follow. */
static void disagreements(strbuf *out, json_t *list, bool more) {
    if (json_array_size(list) == 0) {
        sb_putc(out, more ? ',' : '\n');
        return;
    }
    strbuf text;
    sb_init(&text);
    size_t i;
    json_t *d;
    char file[32], arbiter[32];
    json_array_foreach(list, i, d) {
        number_text(file, sizeof file, json_object_get(d, "file"));
        number_text(arbiter, sizeof arbiter, json_object_get(d, "arbiter"));
        sb_printf(&text, "%s%s %s (arbiter %s)", i ? "; " : "", text_of(d, "column"), file,
                  arbiter);
    }
    csv_put_field(out, text.data, true, !more);
    sb_free(&text);
}

/* A problem in place of a result's figures: `empty` empty fields before
 * it, the problem quoted. */
static void problem(strbuf *out, json_t *row, int empty) {
    for (int k = 0; k < empty; k++)
        sb_putc(out, ',');
    csv_put_field(out, text_of(row, "problem"), true, false);
}

/* arb_pbn_score_json: each result a line, a ScoreTable row's pairs and
 * where the file's own figures differ at the end; a file scored in IMPs
 * has their columns after the percentages, an event of several fields
 * each row's stage and section after the disagreements. */
static void pbn_scores(strbuf *out, json_t *scores) {
    bool imps = any_has(scores, "imps_ns");
    bool fields = any_has(scores, "stage") || any_has(scores, "section");
    sb_puts(out, "board,line,contract,declarer,score_ns,matchpoints_ns,matchpoints_ew,"
                 "percentage_ns,percentage_ew");
    header(out, imps ? (fields ? ",imps_ns,imps_ew,problem,ns,ew,disagreements,stage,section"
                               : ",imps_ns,imps_ew,problem,ns,ew,disagreements")
                     : (fields ? ",problem,ns,ew,disagreements,stage,section"
                               : ",problem,ns,ew,disagreements"));
    static const char *const figures[] = {"matchpoints_ns", "matchpoints_ew", "percentage_ns",
                                          "percentage_ew",  "imps_ns",        "imps_ew"};
    size_t i;
    json_t *s;
    json_array_foreach(scores, i, s) {
        text_field(out, s, "board", false);
        number_field(out, s, "line", false);
        if (json_object_get(s, "problem")) {
            problem(out, s, imps ? 9 : 7);
        } else {
            if (json_object_get(s, "adjusted_ns")) { /* an artificial score: "60%/40%" */
                char adjusted[80];
                snprintf(adjusted, sizeof adjusted, "%s/%s", text_of(s, "adjusted_ns"),
                         text_of(s, "adjusted_ew"));
                csv_put_field(out, adjusted, false, false);
                sb_puts(out, ",,");
            } else {
                text_field(out, s, "contract", false);
                text_field(out, s, "declarer", false);
                number_field(out, s, "score_ns", false);
            }
            for (size_t k = 0; k < (imps ? 6u : 4u); k++)
                figure_field(out, s, figures[k], false);
            sb_putc(out, ','); /* no problem */
        }
        text_field(out, s, "ns", false);
        text_field(out, s, "ew", false);
        disagreements(out, json_object_get(s, "disagreements"), fields);
        if (fields) {
            text_field(out, s, "stage", false);
            text_field(out, s, "section", true);
        }
    }
}

/* arb_pbn_totals_json: a TotalScoreTable's rows against arbiter's
 * ranking; of a file scored in IMPs, its IMPs in place of the
 * matchpoints, top and percentage. */
static void pbn_totals(strbuf *out, json_t *totals) {
    bool imps = any_has(totals, "imps");
    header(out, imps ? "line,pair,direction,rank,imps,boards,problem,disagreements"
                     : "line,pair,direction,rank,matchpoints,top,percentage,boards,problem,"
                       "disagreements");
    static const char *const mp_figures[] = {"matchpoints", "top", "percentage", "boards", NULL};
    static const char *const imp_figures[] = {"imps", "boards", NULL};
    size_t i;
    json_t *t;
    json_array_foreach(totals, i, t) {
        number_field(out, t, "line", false);
        text_field(out, t, "pair", false);
        text_field(out, t, "direction", false);
        if (json_object_get(t, "problem")) {
            problem(out, t, imps ? 3 : 5);
            sb_putc(out, '\n');
            continue;
        }
        text_field(out, t, "place", false);
        for (const char *const *k = imps ? imp_figures : mp_figures; *k; k++)
            total_field(out, t, *k, false);
        sb_putc(out, ','); /* no problem */
        disagreements(out, json_object_get(t, "disagreements"), false);
    }
}

typedef struct csv_form {
    const char *name;
    void (*write)(strbuf *out, json_t *answer);
    bool array; /* the answer is an array (else an object) */
} csv_form;

static const csv_form forms[] = {
    {"session", session_rankings, false},
    {"session-boards", session_boards, false},
    {"ranking", ranking, true},
    {"matchpoints", matchpoints, true},
    {"pbn", pbn_scores, true},
    {"pbn-totals", pbn_totals, true},
};

static enum arb_status fail(char **error, const char *msg) {
    if (error) *error = xstrdup(msg);
    return ARB_BAD_INPUT;
}

static enum arb_status csv_unprotected(const char *form, const char *json, size_t len, char **csv,
                                       char **error) {
    if (csv) *csv = NULL;
    if (error) *error = NULL;
    const csv_form *f = NULL;
    for (size_t i = 0; form && i < sizeof forms / sizeof *forms; i++)
        if (strcmp(forms[i].name, form) == 0) f = &forms[i];
    if (!f)
        return fail(error, "arb_csv: the form is session, session-boards, ranking, matchpoints, "
                           "pbn or pbn-totals");
    json_t *answer = json ? json_loadb(json, len, 0, NULL) : NULL;
    if (!answer || json_is_array(answer) != f->array) {
        json_decref(answer);
        return fail(error, f->array ? "arb_csv: expected the call's answer, a JSON array"
                                    : "arb_csv: expected the call's answer, a JSON object");
    }
    strbuf out;
    sb_init(&out);
    f->write(&out, answer);
    json_decref(answer);
    char *text = sb_take(&out);
    if (csv)
        *csv = text;
    else
        xfree(text);
    return ARB_OK;
}

enum arb_status arb_csv(const char *form, const char *json, size_t len, char **csv, char **error) {
    API_ANSWER_PROTECTED(csv, error, csv_unprotected(form, json, len, csv, error));
}
