/* api/session.c — a pairs session's score sheet (arbiter.h, "A session"):
 * every board of the session, north-south and east-west apart, scored as
 * matchpoints (78A, with adjusted scores as adjusted.c reads them), as
 * cross-IMPs or as Butler IMPs (78B); each pair's total, and a ranking
 * with ties as a results list shows them ("3=" for a shared third place).
 * The sheet is CSV with a header row, separated by commas or semicolons. */
#include "arbiter.h"
#include "protect.h"

#include "plugin.h"
#include "csvline.h"
#include "scoring.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum method { METHOD_MATCHPOINTS, METHOD_BUTLER, METHOD_CROSS, METHOD_TOTAL };
static const char *const method_names[] = {"matchpoints", "butler", "cross", "total"};
/* what a side's figure on a board and a pair's sum are called, by method */
static const char *const figure_names[] = {"matchpoints", "imps", "imps", "points"};

#define MAX_FIELDS CSV_LINE_FIELDS
#define MAX_LINE CSV_LINE_MAX

/* One line of the sheet: a board played by two pairs, each side's entry. */
typedef struct session_row {
    char board[32], pair[2][32]; /* [0] north-south, [1] east-west */
    char text[2][64];
    sheet_entry entry[2];
    int line;
    bool has_result[2];
    double result[2];  /* matchpoints or IMPs */
    double exact[2];   /* matchpoints: before the ruleset rounds them (the percentage's) */
    double top[2];     /* matchpoints: the board's top for that side */
    double penalty[2]; /* a procedural penalty's matchpoints or IMPs, taken off result */
    int decimals[2];   /* matchpoints: as the ruleset rounds them */
    char cited[2][SCORING_CITED];
    /* an artificial score replaced by the side's result on the session's
     * other boards (2017 12C2c, 1963 107): the article, and that result (a
     * percentage, or IMPs a board) */
    char exception[2][16];
    double session[2];
    /* the pair has a result on another board of the session that is not
     * an artificial score: the session's result the exception compares
     * with is known */
    bool session_known[2];
} session_row;

/* ---- CSV: fields separated by `sep`, "quoted" where they hold it ---- */

/* A sheet's line split into at most MAX_FIELDS fields; false (with msg)
 * for a quote out of place or a field too many. */
static bool fields_of(const char *line, char sep, csv_line *cf, char *msg, size_t msgsz) {
    if (!csv_line_split(line, sep, MAX_FIELDS, cf, msg, msgsz)) return false;
    if (!cf->too_many) return true;
    snprintf(msg, msgsz, "more than %d fields", MAX_FIELDS);
    return false;
}

/* The columns the header names, by the names a scorer writes. */
enum column { COL_BOARD, COL_NS, COL_EW, COL_SCORE, COL_SCORE_EW, NCOLUMNS };
static const char *const column_names[NCOLUMNS][4] = {
    {"board", "spel", "bord", NULL},      {"ns", "nz", "pair_ns", NULL},
    {"ew", "ow", "pair_ew", NULL},        {"score", "score_ns", "score_nz", NULL},
    {"score_ew", "score_ow", NULL, NULL},
};

static int column_named(const char *name) {
    char lower[32];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    lower[i] = 0;
    for (int c = 0; c < NCOLUMNS; c++)
        for (int k = 0; k < 4 && column_names[c][k]; k++)
            if (strcmp(lower, column_names[c][k]) == 0) return c;
    return -1;
}

/* The separator of the header line: the one it has more of. */
static char separator_of(const char *line) {
    int commas = 0, semicolons = 0;
    for (const char *p = line; *p; p++)
        commas += *p == ',', semicolons += *p == ';';
    return semicolons > commas ? ';' : ',';
}

/* ---- entries ---- */

/* What the other side has when the sheet gives only north-south's entry:
 * the score the other way round, the artificial score that complements
 * it (A+ and A-, 60% and 40%); not a penalty, which is the offender's. */
static void opposite_entry(const sheet_entry *ns, const char *ns_text, sheet_entry *ew, char *text,
                           size_t size) {
    *ew = *ns;
    ew->penalty = NULL;
    ew->penalty_percentage = 0;
    size_t o = 0;
    text[0] = 0;
    switch (ns->kind) {
    case ENTRY_SCORE:
    case ENTRY_WEIGHTED:
        for (int k = 0; k < ns->nparts; k++) {
            score_part *part = &ew->parts[k];
            part->score = -ns->parts[k].score;
            if (part->contract[0] && !part->declarer) part->declarer = 1; /* north-south's */
            int w = ns->kind != ENTRY_WEIGHTED
                        ? snprintf(text + o, size - o, "%lld", (long long)part->score)
                    : part->contract[0]
                        ? snprintf(text + o, size - o, "%s%d%% %s %s", k ? " + " : "",
                                   part->percent, part->declarer == 1 ? "NS" : "EW", part->contract)
                        : snprintf(text + o, size - o, "%s%d%% %lld", k ? " + " : "", part->percent,
                                   (long long)part->score);
            o = w > 0 && (size_t)w < size - o ? o + (size_t)w : size - 1;
        }
        break;
    case ENTRY_ARTIFICIAL:
        if (strcmp(ns->adjusted, "average_plus") == 0) {
            ew->adjusted = "average_minus";
            snprintf(text, size, "A-");
        } else if (strcmp(ns->adjusted, "average_minus") == 0) {
            ew->adjusted = "average_plus";
            snprintf(text, size, "A+");
        } else if (strcmp(ns->adjusted, "percentage") == 0) {
            ew->percentage = 100 - ns->percentage;
            snprintf(text, size, "%d%%", ew->percentage);
        } else {
            snprintf(text, size, "%s", ns_text[0] ? "A=" : "");
        }
        break;
    case ENTRY_NOT_PLAYED:
        snprintf(text, size, "-");
        break;
    }
}

/* A weighted score's contracts scored for the side whose entry it is. */
static bool score_contracts(const ruleset *rs, const scenario_hooks *hooks, session_row *row,
                            int side, strbuf *err) {
    strbuf why;
    sb_init(&why);
    bool ok = sheet_score_contracts(rs, hooks, row->board, side, &row->entry[side], &why);
    if (!ok)
        sb_printf(err, "line %d: %s%s", row->line, side ? "east-west: " : "",
                  why.data ? why.data : "no score");
    sb_free(&why);
    return ok;
}

/* A row of the sheet: f its fields, col the index of each named column
 * among them, at where each field begins in the line (for the messages). */
static bool read_row(const ruleset *rs, const scenario_hooks *hooks, char **f, const int *col,
                     const int *at, int line, session_row *row, strbuf *err) {
    char msg[300];
    /* a name cut to fit would make two boards or pairs one */
    static const enum column named[] = {COL_BOARD, COL_NS, COL_EW};
    for (int i = 0; i < 3; i++)
        if (strlen(f[col[named[i]]]) >= sizeof row->board) {
            sb_printf(err, "line %d, column %d: a board or a pair is named in at most %zu bytes",
                      line, at[col[named[i]]], sizeof row->board - 1);
            return false;
        }
    snprintf(row->board, sizeof row->board, "%.31s", f[col[COL_BOARD]]);
    snprintf(row->pair[0], sizeof row->pair[0], "%.31s", f[col[COL_NS]]);
    snprintf(row->pair[1], sizeof row->pair[1], "%.31s", f[col[COL_EW]]);
    row->line = line;
    if (!row->board[0] || !row->pair[0][0] || !row->pair[1][0]) {
        sb_printf(err, "line %d: a line gives the board and both pairs", line);
        return false;
    }
    snprintf(row->text[0], sizeof row->text[0], "%.63s", f[col[COL_SCORE]]);
    if (!sheet_parse_entry(row->text[0], &row->entry[0], msg, sizeof msg)) {
        sb_printf(err, "line %d, column %d: %s", line, at[col[COL_SCORE]], msg);
        return false;
    }
    if (!score_contracts(rs, hooks, row, 0, err)) return false;
    const char *ew = col[COL_SCORE_EW] >= 0 ? f[col[COL_SCORE_EW]] : "";
    if (!*ew) {
        opposite_entry(&row->entry[0], row->text[0], &row->entry[1], row->text[1],
                       sizeof row->text[1]);
        return true;
    }
    snprintf(row->text[1], sizeof row->text[1], "%.63s", ew);
    if (!sheet_parse_entry(ew, &row->entry[1], msg, sizeof msg)) {
        sb_printf(err, "line %d, column %d: east-west: %s", line, at[col[COL_SCORE_EW]], msg);
        return false;
    }
    return score_contracts(rs, hooks, row, 1, err);
}

/* The header, then a row per line. */
static bool read_sheet(const ruleset *rs, const scenario_hooks *hooks, const char *text, size_t len,
                       vec *rows, strbuf *err) {
    int col[NCOLUMNS], line = 0;
    char sep = ',';
    bool header = false;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char buf[MAX_LINE], msg[120];
        csv_line cf;
        line++;
        p += n + (nl ? 1 : 0);
        if (n >= sizeof buf) {
            sb_printf(err, "line %d: longer than %d characters", line, MAX_LINE - 1);
            return false;
        }
        memcpy(buf, p - n - (nl ? 1 : 0), n);
        buf[n] = 0;
        buf[strcspn(buf, "\r")] = 0;
        if (!buf[strspn(buf, " \t")]) continue;
        if (!header) {
            sep = separator_of(buf);
            if (!fields_of(buf, sep, &cf, msg, sizeof msg)) {
                sb_printf(err, "line %d, column %d: %s", line, cf.bad_col, msg);
                return false;
            }
            for (int c = 0; c < NCOLUMNS; c++)
                col[c] = -1;
            for (int i = 0; i < cf.n; i++) {
                int c = column_named(cf.f[i]);
                if (c >= 0 && col[c] >= 0) { /* which would be read is a guess: neither is */
                    sb_printf(err,
                              "line %d, column %d: the header names a column twice ('%s' and "
                              "'%s' are both %s); each column once",
                              line, cf.col[i], cf.f[col[c]], cf.f[i], column_names[c][0]);
                    return false;
                }
                if (c >= 0) col[c] = i;
            }
            if (col[COL_BOARD] < 0 || col[COL_NS] < 0 || col[COL_EW] < 0 || col[COL_SCORE] < 0) {
                sb_printf(err,
                          "line %d: the header row names the columns board, ns, ew and score (and "
                          "score_ew "
                          "for an east-west score of its own), separated by , or ;",
                          line);
                return false;
            }
            header = true;
            continue;
        }
        if (!fields_of(buf, sep, &cf, msg, sizeof msg)) {
            sb_printf(err, "line %d, column %d: %s", line, cf.bad_col, msg);
            return false;
        }
        int nf = cf.n;
        for (int c = 0; c < NCOLUMNS; c++)
            if (col[c] >= nf) {
                if (c == COL_SCORE_EW) continue;
                sb_printf(err, "line %d: %d fields, and the header has a column %d", line, nf,
                          col[c] + 1);
                return false;
            }
        char *fields[MAX_FIELDS + 1];
        for (int i = 0; i < nf; i++)
            fields[i] = cf.f[i];
        int ew = col[COL_SCORE_EW];
        if (ew >= nf)
            fields[ew] = "",
            col[COL_SCORE_EW] = ew; /* a short line: no east-west score of its own */
        if (rows->len >= SCORING_MAX_SCORES) {
            sb_printf(err, "line %d: more than %d lines in one session sheet", line,
                      SCORING_MAX_SCORES);
            return false;
        }
        if (!read_row(rs, hooks, fields, col, cf.col, line, vec_push(rows), err)) return false;
    }
    if (!header || rows->len == 0) {
        sb_puts(err, header ? "no results under the header row" : "no header row");
        return false;
    }
    /* each pair once a board, north-south or east-west */
    sheet_seat *seats = xmalloc(sizeof *seats * 2 * (size_t)rows->len);
    int n = 0;
    for (int i = 0; i < (int)rows->len; i++) {
        const session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; side < 2; side++)
            seats[n++] = (sheet_seat){r->board, r->pair[side], r->line};
    }
    bool ok = scoring_pairs_once(seats, n, err);
    xfree(seats);
    return ok;
}

/* ---- a board played fewer times than the others ---- */

/* A board the sheet has fewer lines of than the session's other boards:
 * how often it and they were played, and what the adjusted-score article
 * says of it (its clause for a board with fewer comparable scores: the
 * factoring method, the articles, the message). */
typedef struct short_board {
    char board[32]; /* before a group's slash */
    int played, session;
    const char *method; /* NULL when the ruleset names no adjusted-score article */
    /* IMPs (78B): "butler", "cross averaged" or "cross scaled" (NULL: matchpoints) */
    const char *imps;
    bool factored; /* brought to the session's count (neuberg, proportional) */
    char cited[64];
    char message[400], message_en[400];
} short_board;

static bool same_board(const char *a, const char *b) {
    size_t na = strcspn(a, "/"), nb = strcspn(b, "/");
    return na == nb && strncmp(a, b, na) == 0;
}

/* What the adjusted-score article's clause for a board is asked with: the
 * sheet's scores in matchpoints or in IMPs, on a board without or with an
 * adjusted score (sheet_facts: 1 no, 2 yes). */
static const sheet_facts board_in_matchpoints = {.in_imps = 1, .board_adjusted = 1},
                         adjusted_board_in_matchpoints = {.in_imps = 1, .board_adjusted = 2},
                         board_in_imps = {.in_imps = 2, .board_adjusted = 1},
                         adjusted_board_in_imps = {.in_imps = 2, .board_adjusted = 2};

/* The boards played fewer times than the most played one: found from the
 * sheet, each line a table that played it (a line marked - counts: the
 * board was played there by the others). */
static bool find_short_boards(const ruleset *rs, const scenario_hooks *hooks, const vec *rows,
                              vec *shorts, strbuf *err) {
    vec counts;
    vec_init(&counts, sizeof(short_board));
    int most = 0;
    for (int i = 0; i < (int)rows->len; i++) {
        const char *board = VEC_AT(rows, session_row, i).board;
        short_board *b = NULL;
        for (int k = 0; !b && k < (int)counts.len; k++)
            if (same_board(VEC_AT(&counts, short_board, k).board, board))
                b = &VEC_AT(&counts, short_board, k);
        if (!b) {
            b = vec_push(&counts);
            memset(b, 0, sizeof *b);
            snprintf(b->board, sizeof b->board, "%.*s", (int)strcspn(board, "/"), board);
        }
        if (++b->played > most) most = b->played;
    }
    for (int k = 0; k < (int)counts.len; k++) {
        short_board *b = &VEC_AT(&counts, short_board, k);
        if (b->played == most) continue;
        b->session = most;
        *(short_board *)vec_push(shorts) = *b;
    }
    vec_free(&counts);
    if (shorts->len == 0) return true;
    strbuf why, message, message_en;
    sb_init(&why);
    sb_init(&message);
    sb_init(&message_en);
    const char *method = NULL;
    char cited[2][64] = {"", ""}; /* on a board without and with an adjusted score */
    int article = scoring_article(rs, SCORE_ADJUSTED, &why);
    bool ok =
        article < 0 ||
        (adjusted_board_method(rs, hooks, article, &board_in_matchpoints, &method, cited[0],
                               sizeof cited[0], &message, &message_en, err) &&
         adjusted_board_method(rs, hooks, article, &adjusted_board_in_matchpoints,
                               &(const char *){NULL}, cited[1], sizeof cited[1], NULL, NULL, err));
    for (int k = 0; ok && k < (int)shorts->len; k++) {
        short_board *b = &VEC_AT(shorts, short_board, k);
        bool adjusted = false;
        for (int i = 0; i < (int)rows->len; i++)
            for (int d = 0; d < 2; d++)
                adjusted =
                    adjusted || (same_board(VEC_AT(rows, session_row, i).board, b->board) &&
                                 sheet_entry_adjusted(&VEC_AT(rows, session_row, i).entry[d]));
        b->method = method;
        b->factored =
            method && (strcmp(method, "neuberg") == 0 || strcmp(method, "proportional") == 0);
        snprintf(b->cited, sizeof b->cited, "%s", cited[adjusted]);
        snprintf(b->message, sizeof b->message, "%s", message.data ? message.data : "");
        snprintf(b->message_en, sizeof b->message_en, "%s", message_en.data ? message_en.data : "");
    }
    sb_free(&why);
    sb_free(&message);
    sb_free(&message_en);
    return ok;
}

/* What the scorer is told of a board played fewer times. */
static void short_board_text(const short_board *b, strbuf *out) {
    sb_printf(out, "board %s was played %d time%s, the session's other boards %d: ", b->board,
              b->played, b->played == 1 ? "" : "s", b->session);
    if (b->imps && strcmp(b->imps, "butler") == 0)
        sb_puts(out, "its IMPs stand as compared, each score's against the board's datum (78B)");
    else if (b->imps && strcmp(b->imps, "cross averaged") == 0)
        sb_puts(out, "its cross-IMPs stand as compared, averaged per comparison (78B)");
    else if (b->imps)
        sb_printf(out,
                  "its cross-IMPs, summed over the comparisons, are brought to %d comparisons "
                  "in proportion (78B)",
                  b->session - 1);
    else if (b->factored)
        sb_printf(out, "its matchpoints are brought to %d entries by the method %s (%s)",
                  b->session, b->method, b->cited);
    else if (b->method)
        sb_printf(out, "its matchpoints stand as compared (%s: %s)", b->cited, b->method);
    else
        sb_puts(out, "its matchpoints stand as compared (the ruleset names no article for "
                     "adjusted scores)");
}

static json_t *short_boards_json(const vec *shorts) {
    json_t *all = json_array();
    for (int k = 0; k < (int)shorts->len; k++) {
        const short_board *b = &VEC_AT(shorts, short_board, k);
        strbuf text;
        sb_init(&text);
        short_board_text(b, &text);
        json_t *j = json_pack("{sssisisbss}", "board", b->board, "played", b->played, "session",
                              b->session, "factored", b->factored, "text", text.data);
        sb_free(&text);
        if (b->method) {
            json_object_set_new(j, "method", json_string(b->method));
            json_object_set_new(j, "articles", json_string(b->cited));
            json_object_set_new(j, "message", json_string(b->message));
            json_object_set_new(j, "message_en", json_string(b->message_en));
        }
        json_array_append_new(all, j);
    }
    return all;
}

/* ---- matchpoints ---- */

/* Per row: the rows of its board. */
static int *board_counts(const vec *rows) {
    size_t room = (size_t)(rows->len > 0 ? rows->len : 1);
    int *first = xmalloc(sizeof *first * room), *count = xmalloc(sizeof *count * room);
    vec_group_by_name(rows, offsetof(session_row, board), first, count, NULL);
    for (int i = 0; i < rows->len; i++)
        first[i] = count[first[i]];
    xfree(count);
    return first;
}

/* One side's entries as a matchpoint sheet, matchpointed board by board;
 * a board played fewer times gets the entries it lacks as not played, so
 * that the adjusted-score article's method brings it to the others. */
static bool matchpoint_side(const ruleset *rs, const scenario_hooks *hooks, vec *rows,
                            const vec *shorts, int side, strbuf *err) {
    vec sheet;
    vec_init(&sheet, sizeof(score_line));
    for (int i = 0; i < (int)rows->len; i++) {
        const session_row *r = &VEC_AT(rows, session_row, i);
        score_line *l = vec_push(&sheet);
        snprintf(l->board, sizeof l->board, "%s", r->board);
        snprintf(l->pair, sizeof l->pair, "%s", r->pair[side]);
        snprintf(l->text, sizeof l->text, "%s", r->text[side]);
        l->entry = r->entry[side];
        l->score = r->entry[side].kind == ENTRY_SCORE ? r->entry[side].parts[0].score : 0;
        l->line = r->line;
        l->session_known = r->session_known[side];
    }
    for (int k = 0; k < (int)shorts->len; k++) {
        const short_board *b = &VEC_AT(shorts, short_board, k);
        for (int missing = b->factored ? b->session - b->played : 0; missing > 0; missing--) {
            score_line *l = vec_push(&sheet);
            memset(l, 0, sizeof *l);
            snprintf(l->board, sizeof l->board, "%s", b->board);
            snprintf(l->text, sizeof l->text, "-");
            l->entry.kind = ENTRY_NOT_PLAYED;
        }
    }
    int article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    bool ok = article >= 0 && scoring_matchpoint_lines(rs, hooks, &sheet, err);
    int *played = board_counts(rows); /* per row: the rows of its board */
    for (int i = 0; ok && i < (int)rows->len; i++) {
        session_row *r = &VEC_AT(rows, session_row, i);
        const score_line *l = &VEC_AT(&sheet, score_line, i);
        r->has_result[side] = l->adjusted_board ? l->has_points : true;
        r->result[side] = l->adjusted_board ? l->points : (double)l->mp;
        r->exact[side] = l->adjusted_board ? l->exact : (double)l->mp;
        r->penalty[side] = l->adjusted_board ? l->penalty : 0;
        r->decimals[side] = l->adjusted_board ? l->decimals : 0;
        snprintf(r->cited[side], sizeof r->cited[side], "%s", l->cited);
        if (l->adjusted_board) {
            r->top[side] = l->top;
            continue;
        }
        int n = played[i]; /* a plain board: its top is beating the n - 1 others */
        int64_t top;
        ok = scoring_matchpoints_of(rs, hooks, article, n - 1, 0, n - 1, &top, err);
        r->top[side] = (double)top;
    }
    xfree(played);
    vec_free(&sheet);
    return ok;
}

/* ---- IMPs (78B) ---- */

/* The IMPs article's ruling on a difference; its trail appended to cited
 * unless that is NULL. */
static bool imps_of(const ruleset *rs, const scenario_hooks *hooks, int article, double difference,
                    double *imps, char *cited, size_t citedsz, strbuf *err) {
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    sc.rec.has_scoring = true;
    sc.rec.difference = (int64_t)llround(difference);
    ruling r = {0};
    int64_t total = 0;
    bool ok = scenario_apply_record(&sc, err) && scoring_rule(rs, article, &sc, &r, &total, err);
    if (ok && cited) scoring_cite_ruling(&r, cited, citedsz);
    *imps = (double)total;
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

/* The IMPs of each difference, ruled on once in a session: cross-IMPs
 * compare each result of a board with every other, n(n-1) comparisons for
 * n results and each a ruling of some microseconds (two boards of 1000
 * results took 15 s, one of 5000 far longer), while a board's scores
 * differ in few ways. A sheet whose scores differ in more than
 * IMP_MEMO_MAX ways (chosen to, 5000 scores can) is refused. */
#define IMP_MEMO_MAX 20000

typedef struct imp_memo {
    struct imp_known {
        int64_t difference;
        double imps;
        bool used;
    } * slot;
    size_t cap, len; /* cap a power of two, at least twice len */
} imp_memo;

static size_t memo_at(const imp_memo *m, int64_t difference) {
    size_t i = (size_t)((uint64_t)difference * 0x9E3779B97F4A7C15u >> 32) & (m->cap - 1);
    while (m->slot[i].used && m->slot[i].difference != difference)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static bool memo_imps(const ruleset *rs, const scenario_hooks *hooks, int article, imp_memo *m,
                      double difference, int line, double *imps, strbuf *err) {
    int64_t d = llround(difference);
    if (2 * (m->len + 1) > m->cap) {
        imp_memo grown = {xcalloc(m->cap ? 2 * m->cap : 1024, sizeof *m->slot),
                          m->cap ? 2 * m->cap : 1024, m->len};
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].used) grown.slot[memo_at(&grown, m->slot[i].difference)] = m->slot[i];
        xfree(m->slot);
        *m = grown;
    }
    size_t i = memo_at(m, d);
    if (m->slot[i].used) {
        *imps = m->slot[i].imps;
        return true;
    }
    if (m->len == IMP_MEMO_MAX) {
        sb_printf(err,
                  "line %d: the scores differ in more than %d ways: too many to compare in IMPs",
                  line, IMP_MEMO_MAX);
        return false;
    }
    if (!imps_of(rs, hooks, article, (double)d, imps, NULL, 0, err)) return false;
    m->slot[i] = (struct imp_known){d, *imps, true};
    m->len++;
    return true;
}

/* The IMPs of entry e against a datum, each result by its weight. */
static bool imps_against(const ruleset *rs, const scenario_hooks *hooks, int article,
                         imp_memo *memo, const sheet_entry *e, int line, double datum, double *out,
                         strbuf *err) {
    *out = 0;
    for (int k = 0; k < e->nparts; k++) {
        double imps;
        if (!memo_imps(rs, hooks, article, memo, (double)e->parts[k].score - datum, line, &imps,
                       err))
            return false;
        *out += imps * e->parts[k].percent / 100;
    }
    return true;
}

static bool comparable(const sheet_entry *e) {
    return e->kind == ENTRY_SCORE || e->kind == ENTRY_WEIGHTED;
}

static double expected_score(const sheet_entry *e) {
    double v = 0;
    for (int k = 0; k < e->nparts; k++)
        v += (double)e->parts[k].score * e->parts[k].percent / 100;
    return v;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Butler: the datum is the mean of the board's scores without the `drop`
 * highest and lowest, rounded to `rounding` (the rule file's choice). */
static double butler_datum(const double *scores, int n, int drop, int rounding) {
    double sorted[SCORING_MAX_SCORES];
    memcpy(sorted, scores, sizeof *scores * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    if (n - 2 * drop < 1) drop = 0;
    double sum = 0;
    for (int i = drop; i < n - drop; i++)
        sum += sorted[i];
    double mean = sum / (n - 2 * drop);
    return rounding > 0 ? round(mean / rounding) * rounding : mean;
}

/* The settings of the adjusted-score article's `board` ruling, and the
 * trails a compared score's line names: the IMPs article's (the scale)
 * and that ruling's (the datum, the cross-IMPs). */
typedef struct imp_settings {
    int imps_article, adj_article;
    int64_t drop, rounding, per_comparison;
    int most; /* the lines of the session's most played board */
    imp_memo *memo;
    char imps_cited[SCORING_CITED];
    char board_cited[2][SCORING_CITED]; /* on a board without and with an adjusted score */
} imp_settings;

/* An artificial score's IMPs (12C2b), or a penalty's, from the article. */
static bool adjusted_imps(const ruleset *rs, const scenario_hooks *hooks, const imp_settings *s,
                          const char *adjusted, int percentage, session_row *row, int side,
                          double *out, strbuf *err) {
    int64_t imps;
    if (strcmp(adjusted, "percentage") == 0 || strcmp(adjusted, "penalty_percentage") == 0) {
        sb_printf(err, "line %d: a percentage has no IMP equivalent: give A+, A= or A-, or P",
                  row->line);
        return false;
    }
    sheet_facts facts = {.in_imps = 2,
                         .session_known = row->session_known[side] ? 2 : 1,
                         .session_passes = 1}; /* known once the session is scored */
    if (!adjusted_ask(rs, hooks, s->adj_article, adjusted, percentage, &facts, "imps", &imps, NULL,
                      row->cited[side], sizeof row->cited[side], err))
        return false;
    *out = (double)imps;
    return true;
}

/* One board (rows idx[0..n)) of one side in IMPs. */
static bool imp_board(const ruleset *rs, const scenario_hooks *hooks, const imp_settings *s,
                      enum method m, vec *rows, const int *idx, int n, int side, strbuf *err) {
    double scores[SCORING_MAX_SCORES];
    int real = 0;
    for (int k = 0; k < n; k++) {
        const sheet_entry *e = &VEC_AT(rows, session_row, idx[k]).entry[side];
        if (comparable(e)) scores[real++] = expected_score(e);
    }
    double datum = real ? butler_datum(scores, real, (int)s->drop, (int)s->rounding) : 0;
    bool ok = true, adjusted = false;
    for (int k = 0; k < n; k++)
        for (int d = 0; d < 2; d++)
            adjusted =
                adjusted || sheet_entry_adjusted(&VEC_AT(rows, session_row, idx[k]).entry[d]);
    for (int k = 0; ok && k < n; k++) {
        session_row *r = &VEC_AT(rows, session_row, idx[k]);
        const sheet_entry *e = &r->entry[side];
        double v = 0;
        r->has_result[side] = e->kind != ENTRY_NOT_PLAYED;
        if (comparable(e)) { /* the scale, a weighted score's articles, the datum */
            char *cited = r->cited[side];
            scoring_cite_append(cited, sizeof r->cited[side], s->imps_cited);
            if (e->kind == ENTRY_WEIGHTED)
                ok = adjusted_cite(rs, hooks, s->adj_article, "weighted", cited,
                                   sizeof r->cited[side], err);
            scoring_cite_append(cited, sizeof r->cited[side], e->cited);
            scoring_cite_append(cited, sizeof r->cited[side], s->board_cited[adjusted]);
        }
        if (e->kind == ENTRY_ARTIFICIAL) {
            ok = adjusted_imps(rs, hooks, s, e->adjusted, e->percentage, r, side, &v, err);
        } else if (ok && comparable(e) && m == METHOD_BUTLER) {
            ok = imps_against(rs, hooks, s->imps_article, s->memo, e, r->line, datum, &v, err);
        } else if (ok &&
                   comparable(e)) { /* cross: against every other score, each by its weights */
            int comparisons = 0;
            for (int j = 0; ok && j < n; j++) {
                const sheet_entry *o = &VEC_AT(rows, session_row, idx[j]).entry[side];
                if (j == k || !comparable(o)) continue;
                for (int l = 0; ok && l < o->nparts; l++) {
                    double imps;
                    ok = imps_against(rs, hooks, s->imps_article, s->memo, e, r->line,
                                      (double)o->parts[l].score, &imps, err);
                    v += imps * o->parts[l].percent / 100;
                }
                comparisons++;
            }
            if (s->per_comparison && comparisons)
                v /= comparisons;
            else if (comparisons && comparisons < s->most - 1) /* summed: to the others' count */
                v *= (double)(s->most - 1) / comparisons;
        }
        double penalty = 0;
        if (ok && e->penalty)
            ok = adjusted_imps(rs, hooks, s, e->penalty, e->penalty_percentage, r, side, &penalty,
                               err);
        r->penalty[side] = penalty;
        r->result[side] = round((v - penalty) * 100) / 100;
    }
    return ok;
}

static bool imp_sessions(const ruleset *rs, const scenario_hooks *hooks, enum method m, vec *rows,
                         strbuf *err) {
    imp_memo memo = {0};
    imp_settings s = {.imps_article = scoring_article(rs, SCORE_IMPS, err), .memo = &memo};
    if (s.imps_article < 0) return false;
    s.adj_article = scoring_article(rs, SCORE_ADJUSTED, err);
    if (s.adj_article < 0 ||
        !imps_of(rs, hooks, s.imps_article, 0, &(double){0}, s.imps_cited, sizeof s.imps_cited,
                 err) || /* the scale's trail */
        !adjusted_ask(rs, hooks, s.adj_article, "board", 0, &board_in_imps, "drop", &s.drop, NULL,
                      s.board_cited[0], sizeof s.board_cited[0], err) ||
        !adjusted_ask(rs, hooks, s.adj_article, "board", 0, &adjusted_board_in_imps, "drop",
                      &(int64_t){0}, NULL, s.board_cited[1], sizeof s.board_cited[1], err) ||
        !adjusted_ask(rs, hooks, s.adj_article, "board", 0, &board_in_imps, "rounding", &s.rounding,
                      NULL, NULL, 0, err) ||
        !adjusted_ask(rs, hooks, s.adj_article, "board", 0, &board_in_imps, "per_comparison",
                      &s.per_comparison, NULL, NULL, 0, err))
        return false;
    int n = (int)rows->len, *idx = xmalloc(sizeof *idx * (size_t)(n ? n : 1));
    size_t room = (size_t)(n ? n : 1);
    int *first = xmalloc(sizeof *first * room), *count = xmalloc(sizeof *count * room),
        *next = xmalloc(sizeof *next * room);
    vec_group_by_name(rows, offsetof(session_row, board), first, count, next);
    bool ok = true;
    for (int i = 0; i < n; i++)
        if (count[i] > s.most) s.most = count[i];
    for (int i = 0; ok && i < n; i++) {
        if (first[i] != i) continue; /* a board, at its first row */
        int played = 0;
        for (int j = i; j >= 0; j = next[j])
            idx[played++] = j;
        ok = imp_board(rs, hooks, &s, m, rows, idx, played, 0, err) &&
             imp_board(rs, hooks, &s, m, rows, idx, played, 1, err);
    }
    xfree(first), xfree(count), xfree(next);
    xfree(idx);
    xfree(memo.slot);
    return ok;
}

/* The boards of an IMP session played fewer times than the others, and
 * what became of them: Butler IMPs are each score's against the board's
 * datum and cross-IMPs averaged per comparison stand as compared (78B
 * gives an IMP a comparison, whatever the number of tables); summed
 * cross-IMPs were brought to the others' count of comparisons. */
static bool imp_short_boards(const ruleset *rs, const scenario_hooks *hooks, enum method m,
                             const vec *rows, vec *shorts, strbuf *err) {
    int64_t per_comparison = 1;
    strbuf why;
    sb_init(&why);
    int article = scoring_article(rs, SCORE_ADJUSTED, &why);
    sb_free(&why);
    if (m == METHOD_CROSS && article >= 0 &&
        !adjusted_ask(rs, hooks, article, "board", 0, &board_in_imps, "per_comparison",
                      &per_comparison, NULL, NULL, 0, err))
        return false;
    int most = 0;
    for (int i = 0; i < (int)rows->len; i++) {
        const char *board = VEC_AT(rows, session_row, i).board;
        short_board *b = NULL;
        for (int k = 0; !b && k < (int)shorts->len; k++)
            if (strcmp(VEC_AT(shorts, short_board, k).board, board) == 0)
                b = &VEC_AT(shorts, short_board, k);
        if (!b) {
            b = vec_push(shorts);
            memset(b, 0, sizeof *b);
            snprintf(b->board, sizeof b->board, "%s", board);
            b->imps = m == METHOD_BUTLER ? "butler"
                      : per_comparison   ? "cross averaged"
                                         : "cross scaled";
        }
        if (++b->played > most) most = b->played;
    }
    int kept = 0;
    for (int k = 0; k < (int)shorts->len; k++) {
        short_board *b = &VEC_AT(shorts, short_board, k);
        b->session = most;
        b->factored = strcmp(b->imps, "cross scaled") == 0;
        if (b->played < most) VEC_AT(shorts, short_board, kept++) = *b;
    }
    shorts->len = (size_t)kept;
    return true;
}

/* ---- totals and the ranking ---- */

typedef struct pair_total {
    char pair[32];
    int direction; /* 0 NS, 1 EW, 2 both (a Howell) */
    int boards;
    double result, top;
    double key; /* what ranks: the percentage, or the IMPs */
} pair_total;

static int find_pair(vec *totals, const char *pair, int direction) {
    for (int i = 0; i < (int)totals->len; i++) {
        const pair_total *t = &VEC_AT(totals, pair_total, i);
        if (strcmp(t->pair, pair) == 0 && t->direction == direction) return i;
    }
    pair_total *t = vec_push(totals);
    snprintf(t->pair, sizeof t->pair, "%s", pair);
    t->direction = direction;
    return (int)totals->len - 1;
}

/* A Mitchell has two fields (a pair sits one way all session); a Howell
 * one (a pair sits both ways). */
static bool one_field(const vec *rows) {
    vec names; /* the north-south pairs' names, then the east-west ones */
    vec_init(&names, sizeof(((session_row *)0)->pair[0]));
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < rows->len; i++)
            memcpy(vec_push(&names), VEC_AT(rows, session_row, i).pair[side], names.elem);
    int n = rows->len, *first = xmalloc(sizeof *first * (size_t)(2 * n + 1));
    vec_group_by_name(&names, 0, first, NULL, NULL);
    bool both = false; /* an east-west name first seen among the north-south ones */
    for (int i = n; i < 2 * n && !both; i++)
        both = first[i] < n;
    xfree(first);
    vec_free(&names);
    return both;
}

/* ---- an artificial score and the session (2017 12C2c, 1963 107) ---- */

/* Each pair's results on the boards it has a result on that is not an
 * artificial score: what the exception compares with. */
typedef struct pair_result {
    char pair[32];
    int direction; /* as pair_total's */
    int boards;
    double result, top;
} pair_result;

static pair_result *pair_result_of(vec *results, const char *pair, int direction) {
    for (int i = 0; i < (int)results->len; i++) {
        pair_result *t = &VEC_AT(results, pair_result, i);
        if (strcmp(t->pair, pair) == 0 && t->direction == direction) return t;
    }
    pair_result *t = vec_push(results);
    snprintf(t->pair, sizeof t->pair, "%s", pair);
    t->direction = direction;
    return t;
}

static bool one_field(const vec *rows);

/* In a line's articles (trails separated by "; "), the trail was replaced
 * by now (the first such item; nothing where there is none). */
static void replace_trail(char *cited, size_t size, const char *was, const char *now) {
    char out[SCORING_CITED] = "";
    bool done = false;
    for (const char *p = cited; *p;) {
        const char *end = strstr(p, "; ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        bool same = !done && n == strlen(was) && strncmp(p, was, n) == 0;
        done |= same;
        size_t o = strlen(out);
        snprintf(out + o, sizeof out - o, "%s%.*s", o ? "; " : "", same ? (int)strlen(now) : (int)n,
                 same ? now : p);
        p = end ? end + 2 : p + n;
    }
    snprintf(cited, size, "%s", out);
}

/* The trail an artificial score's line names once the side's session is
 * known to pass the bound: the article's ruling with scoring.session_passes
 * yes in place of the one the line was scored with (12C2c joins it). */
static bool cite_exception(const ruleset *rs, const scenario_hooks *hooks, int article,
                           const sheet_entry *e, sheet_facts facts, const char *want, char *cited,
                           size_t size, strbuf *err) {
    char was[SCORING_CITED] = "", now[SCORING_CITED] = "";
    int64_t unused;
    facts.session_passes = 1;
    if (!adjusted_ask(rs, hooks, article, e->adjusted, e->percentage, &facts, want, &unused, NULL,
                      was, sizeof was, err))
        return false;
    facts.session_passes = 2;
    if (!adjusted_ask(rs, hooks, article, e->adjusted, e->percentage, &facts, want, &unused, NULL,
                      now, sizeof now, err))
        return false;
    replace_trail(cited, size, was, now);
    return true;
}

/* An artificial score (A+, A-) whose side scored past the bound the
 * adjusted-score article gives on the session's other boards gets what it
 * scored there instead: as a percentage of the board's top, or as its
 * mean IMPs a board; a penalty on the board still comes off. */
static bool session_exceptions(const ruleset *rs, const scenario_hooks *hooks, enum method m,
                               vec *rows, strbuf *err) {
    bool any = false;
    for (int i = 0; i < (int)rows->len && !any; i++)
        for (int side = 0; side < 2; side++)
            any = any || VEC_AT(rows, session_row, i).entry[side].kind == ENTRY_ARTIFICIAL;
    if (!any) return true;
    int article = scoring_article(rs, SCORE_ADJUSTED, err);
    if (article < 0) return false;
    bool howell = one_field(rows);
    vec results;
    vec_init(&results, sizeof(pair_result));
    for (int i = 0; i < (int)rows->len; i++) {
        const session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; side < 2; side++) {
            if (!r->has_result[side] || !comparable(&r->entry[side])) continue;
            pair_result *t = pair_result_of(&results, r->pair[side], howell ? 2 : side);
            t->boards++;
            t->result += r->result[side];
            t->top += r->top[side];
        }
    }
    bool ok = true;
    for (int i = 0; ok && i < (int)rows->len; i++) {
        session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; ok && side < 2; side++) {
            const sheet_entry *e = &r->entry[side];
            if (e->kind != ENTRY_ARTIFICIAL || !r->has_result[side]) continue;
            session_exception x;
            strbuf why;
            sb_init(&why);
            /* the bound, as the article gives it where the result passes */
            sheet_facts facts = {.in_imps = m == METHOD_MATCHPOINTS ? 1 : 2,
                                 .session_known = r->session_known[side] ? 2 : 1,
                                 .session_passes = 2};
            ok = adjusted_session_exception(rs, hooks, article, e->adjusted, e->percentage, &facts,
                                            &x, &why);
            if (!ok) sb_printf(err, "line %d: %s", r->line, why.data ? why.data : "no ruling");
            sb_free(&why);
            const pair_result *t = NULL;
            for (int k = 0; ok && x.kind && k < (int)results.len; k++) {
                const pair_result *c = &VEC_AT(&results, pair_result, k);
                if (strcmp(c->pair, r->pair[side]) == 0 && c->direction == (howell ? 2 : side))
                    t = c;
            }
            if (!t || t->boards == 0 || (m == METHOD_MATCHPOINTS && t->top <= 0)) continue;
            double session =
                m == METHOD_MATCHPOINTS ? 100 * t->result / t->top : t->result / t->boards;
            double bound = m == METHOD_MATCHPOINTS ? (double)x.percent : (double)x.imps;
            bool above = strcmp(x.kind, "above") == 0;
            if (above ? !(session > bound + 1e-9) : !(session < bound - 1e-9)) continue;
            ok = cite_exception(rs, hooks, article, e, facts,
                                m == METHOD_MATCHPOINTS ? "percent" : "imps", r->cited[side],
                                sizeof r->cited[side], err);
            snprintf(r->exception[side], sizeof r->exception[side], "%s", x.article);
            r->session[side] = session;
            if (m == METHOD_MATCHPOINTS) {
                double scale = pow(10, r->decimals[side]);
                r->exact[side] = r->top[side] * session / 100 - r->penalty[side];
                r->result[side] = round(r->exact[side] * scale) / scale;
            } else {
                r->result[side] = round((session - r->penalty[side]) * 100) / 100;
            }
        }
    }
    vec_free(&results);
    return ok;
}

/* Total points (78C): each side's score on each board as the sheet gives
 * it (east-west the opposite of north-south's, or its own entry; a
 * weighted score by its weights), summed over the session, each line
 * naming the total-points article's ruling (header key total). An
 * artificial score or a penalty is a share of a top, which total points
 * do not have: refused at its line. */
static bool total_session(const ruleset *rs, const scenario_hooks *hooks, vec *rows, strbuf *err) {
    int article = scoring_article(rs, SCORE_TOTAL, err);
    if (article < 0) return false;
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    ruling r0 = {0};
    int64_t unused;
    char cited[SCORING_CITED] = "";
    bool ok = scoring_rule(rs, article, &sc, &r0, &unused, err);
    if (ok) scoring_cite_ruling(&r0, cited, sizeof cited);
    ruling_clear(&r0);
    scenario_free(&sc);
    for (int i = 0; ok && i < (int)rows->len; i++) {
        session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; ok && side < 2; side++) {
            const sheet_entry *e = &r->entry[side];
            r->has_result[side] = e->kind != ENTRY_NOT_PLAYED;
            if (!r->has_result[side]) continue;
            if (!comparable(e) || e->penalty) {
                sb_printf(err,
                          "line %d: '%s' has no value in total points (%s adds the scores): "
                          "give the score the director assigns",
                          r->line, r->text[side], rs->articles[article].id);
                ok = false;
                continue;
            }
            r->result[side] = expected_score(e);
            scoring_cite_append(r->cited[side], sizeof r->cited[side], cited);
        }
    }
    return ok;
}

static int compare_totals(const void *a, const void *b) {
    const pair_total *x = a, *y = b;
    if (x->direction != y->direction) return x->direction - y->direction;
    if (fabs(x->key - y->key) > 1e-9) return x->key < y->key ? 1 : -1;
    return strcmp(x->pair, y->pair);
}

static void total_pairs(const vec *rows, enum method m, vec *totals) {
    bool howell = one_field(rows);
    for (int i = 0; i < (int)rows->len; i++) {
        const session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; side < 2; side++) {
            if (!r->has_result[side]) continue;
            int at = find_pair(totals, r->pair[side], howell ? 2 : side); /* may move the totals */
            pair_total *t = &VEC_AT(totals, pair_total, at);
            t->boards++;
            t->result += r->result[side];
            t->top += r->top[side];
        }
    }
    for (int i = 0; i < (int)totals->len; i++) {
        pair_total *t = &VEC_AT(totals, pair_total, i);
        t->key = m == METHOD_MATCHPOINTS ? (t->top > 0 ? 100 * t->result / t->top : 50) : t->result;
        t->key = round(t->key * 100) / 100; /* as the list shows it: equal on the list, a tie */
    }
    if (totals->len > 1) qsort(totals->data, totals->len, sizeof(pair_total), compare_totals);
}

static json_t *number_json(double v) {
    v = round(v * 100) / 100;
    return v == (double)(int64_t)v ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *rankings_json(const vec *totals, enum method m) {
    static const char *const directions[] = {"NS", "EW", "all"};
    json_t *all = json_array();
    for (int i = 0; i < (int)totals->len;) {
        const pair_total *first = &VEC_AT(totals, pair_total, i);
        json_t *pairs = json_array();
        int d = first->direction, place = 0;
        for (; i < (int)totals->len && VEC_AT(totals, pair_total, i).direction == d; i++) {
            const pair_total *t = &VEC_AT(totals, pair_total, i);
            place++;
            int rank = place, tied = 0; /* the first place of its tie, and how many share it */
            for (int k = i - 1; k >= 0 && VEC_AT(totals, pair_total, k).direction == d &&
                                VEC_AT(totals, pair_total, k).key == t->key;
                 k--)
                rank--;
            for (int k = i - (place - rank);
                 k < (int)totals->len && VEC_AT(totals, pair_total, k).direction == d &&
                 VEC_AT(totals, pair_total, k).key == t->key;
                 k++)
                tied++;
            char rank_text[16];
            snprintf(rank_text, sizeof rank_text, "%d%s", rank, tied > 1 ? "=" : "");
            json_t *j = json_pack("{sisssssssi}", "rank", rank, "place", rank_text, "pair", t->pair,
                                  "direction", directions[d], "boards", t->boards);
            if (m == METHOD_MATCHPOINTS) {
                json_object_set_new(j, "matchpoints", number_json(t->result));
                json_object_set_new(j, "top", number_json(t->top));
                json_object_set_new(j, "percentage", number_json(t->key));
            } else {
                json_object_set_new(j, figure_names[m], number_json(t->result));
            }
            json_array_append_new(pairs, j);
        }
        json_array_append_new(all, json_pack("{ssso}", "direction", directions[d], "pairs", pairs));
    }
    return all;
}

static json_t *boards_json(const vec *rows, enum method m) {
    static const char *const keys[2][3] = {{"ns", "score_ns", "ns_result"},
                                           {"ew", "score_ew", "ew_result"}};
    json_t *all = json_array();
    for (int i = 0; i < (int)rows->len; i++) {
        const session_row *r = &VEC_AT(rows, session_row, i);
        json_t *j = json_pack("{sssi}", "board", r->board, "line", r->line);
        for (int side = 0; side < 2; side++) {
            json_object_set_new(j, keys[side][0], json_string(r->pair[side]));
            json_object_set_new(j, keys[side][1], json_string(r->text[side]));
        }
        for (int side = 0; side < 2; side++) {
            char what[32];
            snprintf(what, sizeof what, "%s_%s", figure_names[m], side ? "ew" : "ns");
            json_object_set_new(j, what,
                                r->has_result[side] ? number_json(r->result[side]) : json_null());
            if (m == METHOD_MATCHPOINTS)
                json_object_set_new(j, side ? "percentage_ew" : "percentage_ns",
                                    r->has_result[side] && r->top[side] > 0
                                        ? number_json(100 * r->exact[side] / r->top[side])
                                        : json_null());
        }
        if (m == METHOD_MATCHPOINTS) json_object_set_new(j, "top", number_json(r->top[0]));
        for (int side = 0; side < 2; side++)
            if (r->cited[side][0])
                json_object_set_new(j, side ? "articles_ew" : "articles_ns",
                                    json_string(r->cited[side]));
        for (int side = 0; side < 2; side++)
            if (r->exception[side][0])
                json_object_set_new(j, side ? "session_ew" : "session_ns",
                                    json_pack("{ssso}", "article", r->exception[side],
                                              m == METHOD_MATCHPOINTS ? "percentage" : "imps",
                                              number_json(r->session[side])));
        json_array_append_new(all, j);
    }
    return all;
}

/* Whether each side's pair has a result the session's exception compares
 * with (a score or a weighted score on another board): its result on the
 * session's other boards is known. */
static void mark_session_known(vec *rows) {
    bool howell = one_field(rows);
    for (int i = 0; i < (int)rows->len; i++) {
        session_row *r = &VEC_AT(rows, session_row, i);
        for (int side = 0; side < 2; side++)
            for (int j = 0; !r->session_known[side] && j < (int)rows->len; j++) {
                const session_row *o = &VEC_AT(rows, session_row, j);
                for (int os = 0; j != i && os < 2; os++)
                    if ((howell || os == side) && comparable(&o->entry[os]) &&
                        strcmp(o->pair[os], r->pair[side]) == 0)
                        r->session_known[side] = true;
            }
    }
}

json_t *session_sheet_json(const ruleset *rs, const scenario_hooks *hooks, const char *sheet,
                           size_t len, const char *method, strbuf *error) {
    enum method m = METHOD_MATCHPOINTS;
    while (method && m <= METHOD_TOTAL && strcmp(method, method_names[m]) != 0)
        m++;
    if (m > METHOD_TOTAL) {
        sb_puts(error, "the method is matchpoints, butler, cross or total");
        return NULL;
    }
    vec rows, totals, shorts;
    vec_init(&rows, sizeof(session_row));
    vec_init(&totals, sizeof(pair_total));
    vec_init(&shorts, sizeof(short_board));
    strbuf err;
    sb_init(&err);
    bool ok = read_sheet(rs, hooks, sheet, len, &rows, &err) && (mark_session_known(&rows), true) &&
              (m == METHOD_MATCHPOINTS ? find_short_boards(rs, hooks, &rows, &shorts, &err) &&
                                             matchpoint_side(rs, hooks, &rows, &shorts, 0, &err) &&
                                             matchpoint_side(rs, hooks, &rows, &shorts, 1, &err)
               : m == METHOD_TOTAL ? total_session(rs, hooks, &rows, &err)
                                   : imp_sessions(rs, hooks, m, &rows, &err) &&
                                         imp_short_boards(rs, hooks, m, &rows, &shorts, &err)) &&
              session_exceptions(rs, hooks, m, &rows, &err);
    json_t *j = NULL;
    if (ok) {
        total_pairs(&rows, m, &totals);
        j = json_pack("{ssso}", "method", method_names[m], "boards", boards_json(&rows, m));
        json_object_set_new(j, "rankings", rankings_json(&totals, m));
        if (shorts.len) json_object_set_new(j, "notes", short_boards_json(&shorts));
    } else {
        sb_puts(error, err.data ? err.data : "no answer");
    }
    sb_free(&err);
    vec_free(&rows);
    vec_free(&totals);
    vec_free(&shorts);
    return j;
}

static enum arb_status session_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                const char *sheet, size_t len, const char *method,
                                                char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!rs || !sheet) {
        if (error) *error = xstrdup("arb_session_json: no ruleset or no sheet");
        return ARB_BAD_INPUT;
    }
    if (memchr(sheet, 0, len)) {
        if (error) *error = xstrdup("the sheet is not text");
        return ARB_BAD_INPUT;
    }
    strbuf err;
    sb_init(&err);
    json_t *j = session_sheet_json(rs, p ? plugin_set_hooks(p) : NULL, sheet, len, method, &err);
    if (j && json)
        *json = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    else if (!j && error)
        *error = xstrdup(err.data ? err.data : "no answer");
    json_decref(j);
    sb_free(&err);
    return j ? ARB_OK : ARB_BAD_INPUT;
}

enum arb_status arb_session_json(const arb_ruleset *rs, const arb_plugins *p, const char *sheet,
                                 size_t len, const char *method, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         session_json_unprotected(rs, p, sheet, len, method, json, error));
}
