/* pbn.c — a reader of Portable Bridge Notation 2.1 (pbn.h), written from
 * the standard's chapters 2 (file layout), 3 (game layout) and 4.2, 4.8
 * (the Score tag, tag value inheritance). Section numbers in comments are
 * the standard's. */
#include "pbn.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_TAG_VALUE                                                                              \
    1024 /* a token is at most 255 characters (3.2); a value that runs on is refused */
#define MAX_INHERITED 64 /* tags whose values a later game may inherit (4.8) */

enum section { SECTION_NONE, SECTION_AUCTION, SECTION_PLAY, SECTION_TABLE, SECTION_OTHER };

/* A tag value a later game may take with "#", or that "##" gives to every
 * later game. */
typedef struct inherited {
    char name[32];
    char *value;
    bool sticky; /* "##" */
} inherited;

typedef struct reader {
    const char *text, *p, *end, *name;
    int line;
    /* where a message about line mark_line points: the token, the tag's
     * value or the place a tag's syntax went wrong (else the line's start) */
    const char *mark;
    int mark_line;
    pbn_file *f;
    pbn_game *g; /* the game being read, NULL between games */
    enum section section;
    bool seen[16]; /* which of the tags below the game already gave (3.4: a repeated tag is ignored)
                    */
    /* the auction being read */
    enum bridge_seat turn;
    bool next_insufficient, next_out_of_rotation, auction_started;
    int passes; /* passes in a row after the last bid or double */
    bool any_bid;
    bool play_lead_out_of_turn, play_revoke;
    char result[64], score[64]; /* the Result and Score values, read at the end of the game */
    int result_line, score_line;
    inherited prev[MAX_INHERITED]; /* the previous game's tags and the "##" values */
    int nprev;
    inherited cur[MAX_INHERITED]; /* this game's, to become prev */
    int ncur;
    bool oom;
    int ntags; /* tag pairs in the game so far */
    /* the ScoreTable being read */
    char columns[PBN_MAX_COLUMNS][32];
    int ncolumns;
    char values[PBN_MAX_COLUMNS][64];      /* the row being read */
    const char *value_at[PBN_MAX_COLUMNS]; /* where each begins in the text, for messages */
    int nvalues, row_line;
    pbn_row *row;     /* the row being finished: its result is read, its mistakes are its own */
    bool totals;      /* the table being read is a TotalScoreTable */
    int rows;         /* table rows read in the file so far */
    pbn_total *total; /* the TotalScoreTable row being finished */
} reader;

static const char *const known_tags[] = {"Board",    "Dealer", "Vulnerable", "Deal",    "Declarer",
                                         "Contract", "Result", "Score",      "Auction", "Play"};
enum {
    TAG_BOARD,
    TAG_DEALER,
    TAG_VULNERABLE,
    TAG_DEAL,
    TAG_DECLARER,
    TAG_CONTRACT,
    TAG_RESULT,
    TAG_SCORE,
    TAG_AUCTION,
    TAG_PLAY,
    NKNOWN
};

/* ---- messages ---- */

/* The column (characters from 1) a message about line points at: the mark
 * when it is on that line, else the line's first. */
static int column_of(const reader *r, int line) {
    return r->mark && r->mark_line == line ? utf8_column(r->text, r->mark) : 1;
}

static void mark_at(reader *r, const char *at, int line) {
    r->mark = at;
    r->mark_line = line;
}

static void mark_here(reader *r, const char *at) {
    mark_at(r, at, r->line);
}

/* A table row's value i: its messages point at it (a row is one line). */
static void mark_value(reader *r, int i) {
    mark_at(r, r->value_at[i], r->row_line);
}

static void report(reader *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void report(reader *r, int line, const char *fmt, ...) {
    if (r->row)
        r->row->bad = true;
    else if (r->total)
        r->total->bad = true;
    else if (r->g)
        r->g->bad = true;
    if (++r->f->nerrors > PBN_MAX_MESSAGES) { /* a file of garbage: counted, not listed */
        if (r->f->nerrors == PBN_MAX_MESSAGES + 1)
            sb_printf(&r->f->errors, "%s: more mistakes, not listed\n", r->name);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    sb_printf(&r->f->errors, "%s:%d:%d: error: ", r->name, line, column_of(r, line));
    sb_vprintf(&r->f->errors, fmt, ap);
    sb_putc(&r->f->errors, '\n');
    va_end(ap);
}

/* A name (a board, a pair, a section) into its field: one too long for it
 * is a mistake, since cut to fit it could name another board or pair. */
static void copy_name(reader *r, int line, const char *what, const char *v, char *out,
                      size_t size) {
    if (strlen(v) >= size)
        report(r, line,
               "%s\"%s\": expected at most %zu bytes (a name cut to fit could be another's)", what,
               v, size - 1);
    utf8_from_latin1(out, size, v, strlen(v));
}

/* ---- games ---- */

static void free_notes(char **notes) {
    for (int i = 0; i <= PBN_MAX_NOTES; i++) {
        xfree(notes[i]);
        notes[i] = NULL;
    }
}

static void free_inherited(inherited *t, int *n) {
    for (int i = 0; i < *n; i++)
        xfree(t[i].value);
    *n = 0;
}

static void start_game(reader *r, size_t at) {
    if (r->g) return;
    if (r->f->games.len >= PBN_MAX_GAMES) {
        report(r, r->line, "more than %d games in one file: the rest is not read", PBN_MAX_GAMES);
        r->p = r->end;
        return;
    }
    pbn_game *g = vec_push(&r->f->games);
    g->line = g->last_line = r->line;
    g->start = at;
    g->dealer = g->res.declarer = g->auction_first = g->play_first = -1;
    g->vulnerable = PBN_VUL_UNKNOWN;
    g->res.result = -1;
    r->g = g;
    r->section = SECTION_NONE;
    memset(r->seen, 0, sizeof r->seen);
    r->ncur = 0;
    r->ntags = 0;
}

/* The "##" values of earlier games for the tags this game does not give. */
static bool tag_given(const reader *r, const char *name) {
    for (int i = 0; i < r->ncur; i++)
        if (strcmp(r->cur[i].name, name) == 0) return true;
    return false;
}

static void handle_tag(reader *r, const char *name, const char *value, int line);
static void finish_result(reader *r);
static void end_table(reader *r);

static void end_game(reader *r) {
    if (!r->g) return;
    if (r->ntags == 0 && !r->g->bad) { /* comments only: no game (3) */
        r->f->games.len--;
        r->g = NULL;
        r->section = SECTION_NONE;
        return;
    }
    for (int i = 0; i < r->nprev; i++)
        if (r->prev[i].sticky && !tag_given(r, r->prev[i].name) && r->prev[i].value) {
            char *v = xstrdup(r->prev[i].value); /* handle_tag may record it in cur */
            if (v) handle_tag(r, r->prev[i].name, v, r->g->line);
            xfree(v);
        }
    end_table(r);
    finish_result(r);
    r->g->end = (size_t)(r->p - r->text);
    /* this game's tags become the ones a next game inherits; sticky ones stay */
    for (int i = 0; i < r->ncur; i++) {
        int k = 0;
        while (k < r->nprev && strcmp(r->prev[k].name, r->cur[i].name) != 0)
            k++;
        if (k == r->nprev) {
            if (r->nprev == MAX_INHERITED) {
                xfree(r->cur[i].value);
                continue;
            }
            r->nprev++;
        } else {
            xfree(r->prev[k].value);
            r->cur[i].sticky =
                r->cur[i].sticky || r->prev[k].sticky; /* a "##" value redefined stays (4.8) */
        }
        r->prev[k] = r->cur[i];
    }
    r->ncur = 0;
    r->g = NULL;
    r->section = SECTION_NONE;
}

/* ---- tag values (3.4, 4.2) ---- */

static int seat_of(const char *s) {
    enum bridge_seat seat;
    return strlen(s) == 1 && strchr("NESWnesw", s[0]) && bridge_parse_seat(s, &seat) ? (int)seat
                                                                                     : -1;
}

static bool equals_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

static void read_vulnerable(reader *r, const char *v, int line) {
    static const struct {
        const char *word;
        enum pbn_vulnerable vul;
    } words[] = {{"None", PBN_VUL_NONE}, {"Love", PBN_VUL_NONE}, {"-", PBN_VUL_NONE},
                 {"NS", PBN_VUL_NS},     {"EW", PBN_VUL_EW},     {"All", PBN_VUL_ALL},
                 {"Both", PBN_VUL_ALL}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (equals_nocase(v, words[i].word)) {
            r->g->vulnerable = words[i].vul;
            return;
        }
    report(r, line, "Vulnerable \"%s\": expected None, NS, EW or All (3.4.10)", v);
}

/* The result the value being read belongs to: the row's, or the game's. */
static pbn_result *result_of(reader *r) {
    return r->row ? &r->row->res : &r->g->res;
}

static void read_contract(reader *r, const char *v, int line) {
    pbn_result *g = result_of(r);
    if (equals_nocase(v, "Pass")) {
        g->has_contract = g->passed_out = true;
        return;
    }
    char text[16];
    int n = (int)strcspn(v, "xX");
    if (strlen(v) >= sizeof text || n > 3 || (v[n] && strspn(v + n, "xX") != strlen(v + n)) ||
        strlen(v + n) > 2) {
        report(r, line,
               "Contract \"%s\": expected Pass, or a level, a denomination and X or XX, as 4S, "
               "3NTX (3.4.14)",
               v);
        return;
    }
    memcpy(text, v, (size_t)n);
    text[n] = 0;
    char why[160];
    if (!isdigit((unsigned char)text[0]) ||
        !bridge_parse_call(text, &g->contract, why, sizeof why) || g->contract.kind != CALL_BID ||
        g->contract.level > 7) {
        report(r, line,
               "Contract \"%s\": expected Pass, or a level 1 to 7, a denomination (S, H, D, C, NT) "
               "and X or XX (3.4.14)",
               v);
        return;
    }
    g->doubling = (int)strlen(v + n);
    g->has_contract = true;
}

/* "<n>", "NS <n>", "EW <n>", "NS <n> EW <m>", "EW <n> NS <m>", with the
 * side and number separated by a space; *ns and *ew get what was given
 * (INT64_MIN when a side was not), *plain the bare number. */
static bool read_sides(const char *v, int64_t *plain, int64_t *ns, int64_t *ew) {
    *plain = *ns = *ew = INT64_MIN;
    const char *p = v;
    for (int k = 0; k < 2; k++) {
        while (*p == ' ')
            p++;
        int64_t *slot = plain;
        if ((p[0] == 'N' || p[0] == 'n') && (p[1] == 'S' || p[1] == 's') && p[2] == ' ')
            slot = ns, p += 3;
        else if ((p[0] == 'E' || p[0] == 'e') && (p[1] == 'W' || p[1] == 'w') && p[2] == ' ')
            slot = ew, p += 3;
        else if (k > 0)
            return false;
        char *end;
        long long n = strtoll(p, &end, 10);
        if (end == p || n < -100000 || n > 100000 || *slot != INT64_MIN) return false;
        *slot = n;
        p = end;
        while (*p == ' ')
            p++;
        if (!*p) return slot != plain || k == 0;
        if (slot == plain) return false;
    }
    return false;
}

static bool declarer_is_ns(const pbn_result *g) {
    return g->declarer == SEAT_N || g->declarer == SEAT_S;
}

static void read_result(reader *r, const char *v, int line) {
    pbn_result *g = result_of(r);
    if (!*v) return; /* passed out */
    if (*v == '^') {
        if (!r->row) r->g->result_disputed = true;
        v++;
    }
    int64_t plain, ns, ew;
    if (!read_sides(v, &plain, &ns, &ew) || (plain != INT64_MIN && (plain < 0 || plain > 13)) ||
        (ns != INT64_MIN && (ns < 0 || ns > 13)) || (ew != INT64_MIN && (ew < 0 || ew > 13)) ||
        (ns != INT64_MIN && ew != INT64_MIN && ns + ew != 13)) {
        report(r, line,
               "Result \"%s\": expected the tricks won by declarer (0 to 13), or NS n and/or EW n "
               "(3.4.15)",
               v);
        return;
    }
    if (plain != INT64_MIN) {
        g->result = (int)plain;
        return;
    }
    if (g->declarer < 0) {
        report(r, line, "Result \"%s\" counts a side's tricks, and the game names no Declarer", v);
        return;
    }
    int64_t side = declarer_is_ns(g) ? ns : ew, other = declarer_is_ns(g) ? ew : ns;
    g->result = (int)(side != INT64_MIN ? side : 13 - other);
}

static void read_score(reader *r, const char *v, int line) {
    pbn_result *g = result_of(r);
    int64_t plain, ns, ew;
    if (!read_sides(v, &plain, &ns, &ew) || (ns != INT64_MIN && ew != INT64_MIN && ns != -ew)) {
        report(r, line, "Score \"%s\": expected a whole number, or NS n and/or EW n (4.2.1)", v);
        return;
    }
    if (plain != INT64_MIN && g->declarer < 0) {
        report(r, line, "Score \"%s\" is declarer's, and the game names no Declarer", v);
        return;
    }
    g->has_score = true;
    g->score_ns = plain != INT64_MIN ? (declarer_is_ns(g) ? plain : -plain)
                  : ns != INT64_MIN  ? ns
                                     : -ew;
}

static void finish_result(reader *r) {
    if (r->result_line && r->result[0]) read_result(r, r->result, r->result_line);
    if (r->score_line && r->score[0]) read_score(r, r->score, r->score_line);
    r->result[0] = r->score[0] = 0;
    r->result_line = r->score_line = 0;
}

static void read_note(reader *r, const char *v, int line) {
    char **notes = r->section == SECTION_PLAY ? r->g->play_notes : r->g->notes;
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end != ':' || n < 1 || n > PBN_MAX_NOTES) {
        report(r, line, "Note \"%s\": expected an index 1 to 32, a colon and the text (3.5.5)", v);
        return;
    }
    if (r->section != SECTION_AUCTION && r->section != SECTION_PLAY) {
        report(r, line, "a Note belongs at the end of the Auction or the Play section (3.5.5)");
        return;
    }
    if (notes[n]) return; /* the first one counts */
    notes[n] = xstrdup(end + 1);
    if (!notes[n]) r->oom = true;
}

/* Remembers a tag value for the next game's "#" (not the forbidden ones). */
static void remember(reader *r, const char *name, const char *value, bool sticky) {
    if (r->ncur == MAX_INHERITED || strlen(name) >= sizeof r->cur[0].name) return;
    inherited *t = &r->cur[r->ncur];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->value = xstrdup(value);
    t->sticky = sticky;
    if (!t->value)
        r->oom = true;
    else
        r->ncur++;
}

static const char *inherited_value(const reader *r, const char *name) {
    for (int i = 0; i < r->nprev; i++)
        if (strcmp(r->prev[i].name, name) == 0) return r->prev[i].value;
    return "";
}

static int known_tag(const char *name) {
    for (int i = 0; i < NKNOWN; i++)
        if (strcmp(name, known_tags[i]) == 0) return i;
    return -1;
}

static void start_auction(reader *r, const char *v, int line) {
    int seat = seat_of(v);
    if (seat < 0) {
        report(r, line, "Auction \"%s\": expected the seat of the first call, N, E, S or W (3.5)",
               v);
        r->section = SECTION_OTHER;
        return;
    }
    if (r->g->dealer < 0)
        report(r, line, "the Auction section needs the Dealer tag before it (3.1)");
    r->g->auction_first = seat;
    r->turn = (enum bridge_seat)seat;
    r->section = SECTION_AUCTION;
    r->next_insufficient = r->next_out_of_rotation = r->auction_started = r->any_bid = false;
    r->passes = 0;
}

static void start_play(reader *r, const char *v, int line) {
    int seat = seat_of(v);
    if (seat < 0) {
        report(r, line, "Play \"%s\": expected the seat of the opening leader, N, E, S or W (3.6)",
               v);
        r->section = SECTION_OTHER;
        return;
    }
    if (!r->g->has_deal || r->g->res.declarer < 0 || !r->g->res.has_contract)
        report(r, line,
               "the Play section needs the Deal, Declarer and Contract tags before it (3.1)");
    r->g->play_first = seat;
    r->section = SECTION_PLAY;
    r->play_lead_out_of_turn = r->play_revoke = false;
}

/* ---- the ScoreTable (4.4; tables, 5) ---- */

/* The columns "Name\WIDTH[R|L];…" (5.1: the width and alignment only
 * lay the table out). */
static void start_table(reader *r, const char *table, const char *v, int line) {
    r->ncolumns = r->nvalues = 0;
    r->totals = strcmp(table, "TotalScoreTable") == 0;
    if (r->totals ? r->g->totals_line : r->g->table_line) {
        report(r, line, "a second %s in the game: only the first is read", table);
        return;
    }
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ";"), name = strcspn(p, "\\;");
        if (name == 0 || name >= sizeof r->columns[0] || r->ncolumns == PBN_MAX_COLUMNS) {
            report(r, line,
                   "%s \"%s\": expected column names separated by ';', each with an "
                   "optional \\width (5.2), at most %d",
                   table, v, PBN_MAX_COLUMNS);
            r->ncolumns = 0;
            return;
        }
        memcpy(r->columns[r->ncolumns], p, name);
        r->columns[r->ncolumns++][name] = 0;
        p += n + (p[n] == ';');
    }
    *(r->totals ? &r->g->totals_line : &r->g->table_line) = line;
    r->section = SECTION_TABLE;
}

static bool number_value(const char *v, double *x, int *decimals) {
    char text[64];
    snprintf(text, sizeof text, "%s", v + (*v == '^')); /* ^: an artificial score's figure (5.2) */
    char *comma = strchr(text, ','); /* a decimal comma, as some programs write */
    if (comma) *comma = '.';
    char *end;
    *x = strtod(text, &end);
    if (end == text || *end || !isfinite(*x)) return false;
    const char *dot = strchr(text, '.');
    *decimals = dot ? (int)strlen(dot + 1) : 0;
    return true;
}

static void read_contract(reader *r, const char *v, int line);
static void read_result(reader *r, const char *v, int line);

/* One artificial score at *p as a score sheet writes it into out: the
 * marks A+, A=, A, A-, G+, G, G- (12C2; AVE+, AVE, AVE- as ACBL programs
 * write them, for A+, A, A-), or A and a percentage (A60: "60%"), or a
 * percentage "60%". */
static bool artificial_one(const char **p, char out[16]) {
    const char *s = *p;
    char c = (char)toupper((unsigned char)*s);
    if (c == 'A' && toupper((unsigned char)s[1]) == 'V' &&
        (toupper((unsigned char)s[2]) == 'E' || toupper((unsigned char)s[2]) == 'G')) {
        s += 3;
        bool mark = *s == '+' || *s == '-';
        snprintf(out, 16, "A%s", mark ? (*s == '+' ? "+" : "-") : "");
        *p = s + mark;
        return true;
    }
    if (c == 'A' || c == 'G') {
        s++;
        if (*s == '+' || *s == '=' || *s == '-') {
            snprintf(out, 16, "%c%c", c, *s);
            *p = s + 1;
            return true;
        }
        if (!isdigit((unsigned char)*s)) {
            snprintf(out, 16, "%c", c);
            *p = s;
            return true;
        }
    }
    int n = 0, digits = 0;
    while (isdigit((unsigned char)*s) && digits < 4)
        n = n * 10 + (*s++ - '0'), digits++;
    if (!digits || n > 100 || (c != 'A' && *s != '%')) return false;
    if (*s == '%') s++;
    snprintf(out, 16, "%d%%", n);
    *p = s;
    return true;
}

/* An artificial score as a table element (5.2, "^" before it; scoring
 * programs write it without too): one for the column's side (first), or
 * two, that side's and the other's ("A60A40", "A60/A40"). */
static bool artificial_value(const char *v, char first[16], char second[16]) {
    const char *p = v + (*v == '^');
    second[0] = 0;
    if (!artificial_one(&p, first)) return false;
    if (!*p) return true;
    p += *p == '/';
    return artificial_one(&p, second) && !*p;
}

/* What the other side has when a row gives one side's artificial score:
 * the complement (A+ and A-, 60% and 40%), as a session sheet reads it. */
static void artificial_complement(const char *a, char out[16]) {
    int n = atoi(a);
    if (isdigit((unsigned char)a[0]))
        snprintf(out, 16, "%d%%", 100 - n);
    else
        snprintf(out, 16, "%c%s", a[0], a[1] == '+' ? "-" : a[1] == '-' ? "+" : a + 1);
}

/* rows (n of them, each size bytes) with room for one more: the room
 * doubles at each power of two, so that a long table is not copied row by
 * row. */
static void *grown(void *rows, int n, size_t size) {
    if (n == 0 || (n & (n - 1)) == 0) rows = xrealloc(rows, (size_t)(n ? 2 * n : 1) * size);
    return rows; /* never NULL */
}

/* A complete TotalScoreTable row (5.8): the pair, its rank and totals;
 * a mistake marks the row. */
static void finish_total(reader *r) {
    pbn_game *g = r->g;
    g->totals = grown(g->totals, g->ntotals, sizeof *g->totals);
    pbn_total *t = &g->totals[g->ntotals++];
    memset(t, 0, sizeof *t);
    t->line = r->row_line;
    t->rank = t->direction = t->boards = -1;
    r->total = t;
    strbuf others;
    sb_init(&others);
    for (int i = 0; i < r->ncolumns; i++) {
        const char *name = r->columns[i], *v = r->values[i];
        mark_value(r, i);
        bool none = strcmp(v, "-") == 0 || strcmp(v, "?") == 0 || !*v;
        double x;
        int dec;
        if (strcmp(name, "PairId") == 0) {
            copy_name(r, t->line, "TotalScoreTable row: PairId ", none ? "" : v, t->pair,
                      sizeof t->pair);
        } else if (strcmp(name, "Section") == 0) {
            copy_name(r, t->line, "TotalScoreTable row: Section ", none ? "" : v, t->section,
                      sizeof t->section);
        } else if (none) {
            continue;
        } else if (strcmp(name, "Rank") == 0 || strcmp(name, "NrBoards") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (end == v || n < 0 || n > 100000 || (*end && strcmp(end, "=") != 0))
                report(r, t->line, "TotalScoreTable row: %s \"%s\": expected a whole number", name,
                       v);
            else
                *(name[0] == 'R' ? &t->rank : &t->boards) = (int)n;
        } else if (strcmp(name, "Direction") == 0) {
            char d[8] = "";
            for (size_t k = 0, o = 0; v[k] && o + 1 < sizeof d; k++)
                if (v[k] != '-') d[o++] = (char)toupper((unsigned char)v[k]), d[o] = 0;
            /* Ruter's Swedish and Norwegian E-W, Ö-V and Ø-V (a Latin-1 file's read as UTF-8) */
            if (strcmp(d, "NS") == 0 || strcmp(d, "NZ") == 0)
                t->direction = 0;
            else if (strcmp(d, "EW") == 0 || strcmp(d, "OW") == 0 || strcmp(d, "\xC3\x96V") == 0 ||
                     strcmp(d, "\xC3\x98V") == 0)
                t->direction = 1;
            else
                report(r, t->line, "TotalScoreTable row: Direction \"%s\": expected N-S or E-W", v);
        } else if (strcmp(name, "TotalMP") == 0 || strcmp(name, "TotalScoreMP") == 0 ||
                   strcmp(name, "TotalIMP") == 0 || strcmp(name, "TotalScoreIMP") == 0 ||
                   strcmp(name, "TotalPercentage") == 0) {
            bool mp = name[5] != 'P';
            if (mp) t->imps = strstr(name, "IMP") != NULL;
            if (!number_value(v, &x, &dec)) {
                report(r, t->line, "TotalScoreTable row: %s \"%s\": expected a number or -", name,
                       v);
                continue;
            }
            *(mp ? &t->has_mp : &t->has_pct) = true;
            if (mp) snprintf(t->mp_column, sizeof t->mp_column, "%s", name);
            *(mp ? &t->mp : &t->pct) = x;
            *(mp ? &t->mp_decimals : &t->pct_decimals) = dec;
        } else {
            sb_printf(&others, "%s%s=%s", others.len ? " " : "", name, v);
        }
    }
    r->total = NULL;
    t->others = others.len ? sb_take(&others) : NULL;
    sb_free(&others);
}

/* A complete row: its values read as the tags of the same names would be,
 * into the row's result; a mistake marks the row, not the game. */
static void finish_row(reader *r) {
    pbn_game *g = r->g;
    g->rows = grown(g->rows, g->nrows, sizeof *g->rows);
    pbn_row *row = &g->rows[g->nrows++];
    memset(row, 0, sizeof *row);
    row->line = r->row_line;
    row->res.declarer = row->res.result = -1;
    r->row = row;
    int line = r->row_line, result = -1;
    char first[16], second[16];
    bool given[2] = {false, false}; /* an artificial score for each side */
    strbuf others;
    sb_init(&others);
    for (int i = 0; i < r->ncolumns; i++) {
        const char *name = r->columns[i];
        char *v = r->values[i];
        mark_value(r, i);
        bool none = strcmp(v, "-") == 0 || !*v;
        int side = strstr(name, "_EW") ? 1 : 0;
        if (strncmp(name, "Score_", 6) == 0 && strcasecmp(v, "Bye") == 0) {
            row->bye = true; /* Ruter's: a pair sat out, the table had no result */
            continue;
        }
        double x;
        int dec;
        if (strcmp(name, "PairId_NS") == 0 || strcmp(name, "PairId_EW") == 0) {
            copy_name(r, line, side ? "ScoreTable row: PairId_EW " : "ScoreTable row: PairId_NS ",
                      none ? "" : v, side ? row->pair_ew : row->pair_ns, sizeof row->pair_ns);
        } else if (strcmp(name, "Section") == 0) {
            copy_name(r, line, "ScoreTable row: Section ", none ? "" : v, row->section,
                      sizeof row->section);
        } else if ((strcmp(name, "Contract") == 0 || strcmp(name, "Score_NS") == 0 ||
                    strcmp(name, "Score_EW") == 0) &&
                   !none && artificial_value(v, first, second)) {
            int own = strcmp(name, "Score_EW") == 0; /* Contract: north-south's first */
            if (given[own] && strcmp(row->adjusted[own], first) != 0)
                report(r, line, "ScoreTable row: %s \"%s\": a second artificial score for %s", name,
                       v, own ? "east-west" : "north-south");
            snprintf(row->adjusted[own], sizeof row->adjusted[own], "%s", first);
            given[own] = true;
            if (second[0]) {
                snprintf(row->adjusted[!own], sizeof row->adjusted[!own], "%s", second);
                given[!own] = true;
            }
        } else if (strcmp(name, "Contract") == 0) {
            if (none) continue;
            char text[64];
            size_t n = strcspn(v, "xX");
            /* "3N" for 3NT, as scoring programs write it */
            if (n >= 2 && (v[n - 1] == 'N' || v[n - 1] == 'n') && n < 16)
                snprintf(text, sizeof text, "%.*sT%s", (int)n, v, v + n);
            else
                snprintf(text, sizeof text, "%s", v);
            read_contract(r, text, line);
        } else if (strcmp(name, "Declarer") == 0) {
            if (!none && (row->res.declarer = seat_of(v)) < 0)
                report(r, line, "ScoreTable row: Declarer \"%s\": expected N, E, S or W, or -", v);
        } else if (strcmp(name, "Result") == 0) {
            result = none ? -1 : i;
        } else if (strcmp(name, "Score_NS") == 0 || strcmp(name, "Score_EW") == 0) {
            if (none) continue;
            if (!number_value(v, &x, &dec) || dec || fabs(x) > 100000) {
                report(r, line,
                       "ScoreTable row: %s \"%s\": expected a whole number (4.2.1), an "
                       "artificial score (A+, A=, A-, A60, A60A40; 5.2) or -",
                       name, v);
            } else if (row->res.has_score && row->res.score_ns != (int64_t)(side ? -x : x)) {
                report(r, line, "ScoreTable row: Score_NS and Score_EW do not add up to 0");
            } else {
                row->res.has_score = true;
                row->res.score_ns = (int64_t)(side ? -x : x);
            }
        } else if (strcmp(name, "MP_NS") == 0 || strcmp(name, "MP_EW") == 0 ||
                   strcmp(name, "Percentage_NS") == 0 || strcmp(name, "Percentage_EW") == 0) {
            if (none) continue;
            bool mp = name[0] == 'M';
            if (!number_value(v, &x, &dec)) {
                report(r, line, "ScoreTable row: %s \"%s\": expected a number or -", name, v);
                continue;
            }
            (mp ? row->has_mp : row->has_pct)[side] = true;
            (mp ? row->mp : row->pct)[side] = x;
            (mp ? row->mp_decimals : row->pct_decimals)[side] = dec;
        } else if (strcmp(name, "IMP_NS") == 0 || strcmp(name, "IMP_EW") == 0) {
            if (none) continue;
            if (!number_value(v, &x, &dec)) {
                report(r, line, "ScoreTable row: %s \"%s\": expected a number or -", name, v);
                continue;
            }
            row->has_imp[side] = true;
            row->imp[side] = x;
            row->imp_decimals[side] = dec;
        } else if (!none) {
            sb_printf(&others, "%s%s=%s", others.len ? " " : "", name, v);
        }
    }
    for (int side = 0; side < 2; side++) /* one side's alone: the other has its complement */
        if (given[side] && !given[!side])
            artificial_complement(row->adjusted[side], row->adjusted[!side]);
    r->mark = NULL; /* the row as a whole */
    if ((given[0] || given[1]) && row->res.has_score)
        report(r, line, "ScoreTable row: a score and an artificial score; give one of them");
    if (result >= 0 && !given[0] && !given[1]) {
        mark_value(r, result);
        if (!row->res.has_contract || row->res.passed_out || row->res.declarer < 0) {
            double tricks;
            int dec;
            if (!number_value(r->values[result], &tricks, &dec) || dec || tricks < 0 || tricks > 13)
                report(r, line,
                       "ScoreTable row: Result \"%s\": expected the tricks won by declarer, 0 to "
                       "13, or -",
                       r->values[result]);
        } else {
            read_result(r, r->values[result], line);
        }
    }
    r->row = NULL;
    row->others = others.len ? sb_take(&others) : NULL;
    sb_free(&others);
}

/* One value of a row at r->p: a word, or a quoted string (5.2). */
static void table_token(reader *r) {
    const char *p = r->p, *start = p;
    size_t n;
    if (*p == '"') {
        const char *q = p + 1;
        while (q < r->end && *q != '"' && *q != '\n' && *q) /* a NUL is reported by the caller */
            q++;
        if (q < r->end && !*q) {
            r->p = q;
            r->nvalues = 0;
            return;
        }
        if (q >= r->end || *q != '"') {
            mark_here(r, p);
            report(r, r->line,
                   "a ScoreTable value has no closing quote (5.2); the row is not read");
            r->p = q;
            r->nvalues = 0; /* the rest of its line is passed over */
            return;
        }
        start = p + 1;
        n = (size_t)(q - start);
        r->p = q + 1;
    } else {
        while (p < r->end && *p && !strchr(" \t\r\n", *p))
            p++;
        n = (size_t)(p - start);
        r->p = p;
        if (n == 0) return; /* at a NUL: the caller reports it */
    }
    /* a control character would reach --write and --export as it is (in the
     * file's bytes, or a Latin-1 file's C1 characters once in UTF-8) */
    char shown[2 * sizeof r->values[0]];
    size_t len = utf8_from_latin1(shown, sizeof shown, start, n), ctl = text_control_char(start, n);
    const char *bad = ctl < n ? start + ctl : NULL;
    if (!bad && (ctl = text_control_char(shown, len)) < len) bad = shown + ctl;
    if (bad) {
        mark_here(r, ctl < n && bad == start + ctl ? bad : start);
        report(r, r->line,
               "a ScoreTable value holds a control character (U+%04X); a value is printable "
               "text (5.2); the row is not read",
               text_control_code(bad));
        while (r->p < r->end && *r->p != '\n') /* the rest of its line is passed over */
            r->p++;
        r->nvalues = 0;
        return;
    }
    if (r->ncolumns == 0) return;                   /* the columns were wrong: reported */
    if (r->nvalues > 0 && r->line != r->row_line) { /* a row a line, as the programs write it */
        report(r, r->row_line,
               "a ScoreTable row with %d values: the table has %d columns (5.2); the row is not "
               "read",
               r->nvalues, r->ncolumns);
        r->nvalues = 0;
    }
    if (r->nvalues == 0) r->row_line = r->line;
    r->value_at[r->nvalues] = start;
    /* in UTF-8, as a tag's value; a long value (Names) cut between characters */
    utf8_from_latin1(r->values[r->nvalues++], sizeof r->values[0], start, n);
    if (r->nvalues == r->ncolumns) {
        if (++r->rows > PBN_MAX_ROWS) { /* each row is kept: a 16 MiB file of rows took GiBs */
            report(r, r->row_line,
                   "more than %d score table rows in one file: the rest is not read", PBN_MAX_ROWS);
            r->nvalues = 0;
            r->p = r->end;
            return;
        }
        if (r->totals)
            finish_total(r);
        else
            finish_row(r);
        r->nvalues = 0;
    }
}

/* The table ends (a tag, or the end of the game): a row cut short is a
 * mistake. */
static void end_table(reader *r) {
    if (r->section != SECTION_TABLE) return;
    if (r->nvalues)
        report(r, r->row_line,
               "a ScoreTable row with %d values: the table has %d columns (5.2); the row is not "
               "read",
               r->nvalues, r->ncolumns);
    r->nvalues = r->ncolumns = 0;
    r->section = SECTION_OTHER;
}

static void handle_tag(reader *r, const char *name, const char *value, int line) {
    pbn_game *g = r->g;
    r->ntags++;
    int k = known_tag(name);
    bool forbidden = k == TAG_DEALER || k == TAG_VULNERABLE || k == TAG_DEAL || k == TAG_DECLARER ||
                     k == TAG_CONTRACT || k == TAG_AUCTION || k == TAG_PLAY ||
                     strcmp(name, "Note") == 0;
    if (value[0] == '#' && forbidden) {
        report(r, line, "%s cannot inherit its value with \"#\" (4.8)", name);
        return;
    }
    bool sticky = value[0] == '#' && value[1] == '#';
    if (value[0] == '#' && !sticky) value = inherited_value(r, name);
    if (sticky) value += 2;
    if (strcmp(name, "Note") == 0) {
        read_note(r, value, line);
        return;
    }
    if (k >= 0 && r->seen[k]) return; /* a repeated tag is ignored (3.4) */
    if (k >= 0) r->seen[k] = true;
    if (!forbidden) remember(r, name, value, sticky);
    end_table(r);
    r->section = SECTION_OTHER; /* a tag ends the section before it */
    if (strcmp(name, "ScoreTable") == 0 || strcmp(name, "TotalScoreTable") == 0)
        start_table(r, name, value, line);
    if (k >= TAG_DEALER && k <= TAG_SCORE && strcmp(value, "?") == 0)
        return; /* not known: the export format writes "?" for a tag the game does not give */
    char why[200];
    switch (k) {
    case TAG_BOARD:
        copy_name(r, line, "Board ", value, g->board, sizeof g->board);
        break;
    case TAG_DEALER:
        if ((g->dealer = seat_of(value)) < 0 && *value)
            report(r, line, "Dealer \"%s\": expected N, E, S or W (3.4.9)", value);
        break;
    case TAG_VULNERABLE:
        read_vulnerable(r, value, line);
        break;
    case TAG_DEAL:
        snprintf(g->deal_text, sizeof g->deal_text, "%.79s", value);
        if (!*value) break;
        if (bridge_parse_deal(value, &g->deal, why, sizeof why))
            g->has_deal = true;
        else
            report(r, line, "Deal: %s (3.4.11)", why);
        break;
    case TAG_DECLARER:
        if (*value == '^') g->declarer_swapped = true, value++;
        if ((g->res.declarer = seat_of(value)) < 0 && *value)
            report(r, line, "Declarer \"%s\": expected N, E, S or W, or ^ and a seat (3.4.13)",
                   value);
        break;
    case TAG_CONTRACT:
        if (*value) read_contract(r, value, line);
        break;
    case TAG_RESULT: /* read when the game is complete: "NS 9" needs the Declarer, given in any
                        order */
        snprintf(r->result, sizeof r->result, "%s", value);
        r->result_line = line;
        break;
    case TAG_SCORE:
        snprintf(r->score, sizeof r->score, "%s", value);
        r->score_line = line;
        break;
    case TAG_AUCTION:
        start_auction(r, value, line);
        break;
    case TAG_PLAY:
        start_play(r, value, line);
        break;
    default: { /* the fields of the event and its scoring; a supplemental tag's section is
                  skipped (4.9) */
        static const char *const fields[] = {"Event", "Stage", "Section", "Scoring"};
        char *const into[] = {g->event, g->stage, g->section, g->scoring};
        const size_t sizes[] = {sizeof g->event, sizeof g->stage, sizeof g->section,
                                sizeof g->scoring};
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
            if (strcmp(name, fields[i]) != 0) continue;
            if (into[i] == g->stage || into[i] == g->section) { /* names that set a field apart */
                char what[16];
                snprintf(what, sizeof what, "%s ", name);
                copy_name(r, line, what, value, into[i], sizes[i]);
            } else { /* a long Event cut between characters, and told apart by its hash */
                utf8_from_latin1(into[i], sizes[i], value, strlen(value));
                if (into[i] == g->event)
                    g->event_cut = strlen(value) >= sizes[i]
                                       ? fnv1a64(FNV1A64_INIT, value, strlen(value)) | 1
                                       : 0;
            }
        }
        break;
    }
    }
}

/* ---- the auction section (3.5) ---- */

static bool auction_over(const reader *r) {
    return r->g->auction_ended || (r->any_bid && r->passes >= 3) || (!r->any_bid && r->passes >= 4);
}

static void add_call(reader *r, bridge_call call, int line) {
    pbn_game *g = r->g;
    if (auction_over(r)) {
        report(r, line, "a call after the auction has ended");
        return;
    }
    if (g->ncalls == BRIDGE_MAX_CALLS) {
        report(r, line, "more than %d calls in the auction", BRIDGE_MAX_CALLS);
        return;
    }
    pbn_call *c = &g->calls[g->ncalls++];
    c->seat = r->turn;
    c->call = call;
    c->insufficient = r->next_insufficient;
    c->out_of_rotation = r->next_out_of_rotation;
    c->line = line;
    r->next_insufficient = r->next_out_of_rotation = false;
    r->auction_started = true;
    r->turn = (enum bridge_seat)((r->turn + 1) % 4);
    if (call.kind == CALL_PASS) {
        r->passes++;
    } else {
        r->passes = 0;
        r->any_bid = true;
    }
    if (auction_over(r)) g->auction_ended = true;
}

static void auction_token(reader *r, const char *tok, int line) {
    pbn_game *g = r->g;
    if (strcmp(tok, "-") == 0) {
        if (r->auction_started)
            report(r, line, "\"-\" only stands before the dealer's first call (3.5.1)");
        r->turn = (enum bridge_seat)((r->turn + 1) % 4);
        return;
    }
    if (equals_nocase(tok, "AP")) {
        bridge_call pass = {CALL_PASS, 0, DENOM_C};
        if (auction_over(r)) report(r, line, "AP after the auction has ended");
        while (!auction_over(r) && g->ncalls < BRIDGE_MAX_CALLS)
            add_call(r, pass, line);
        g->auction_ended = true;
        return;
    }
    bridge_call call;
    char why[160];
    if (!bridge_parse_call(equals_nocase(tok, "Pass") ? "P" : tok, &call, why, sizeof why) ||
        (call.kind == CALL_BID && call.level > 7)) {
        report(r, line, "\"%s\" is not a call: Pass, X, XX, AP, a bid as 1S or 3NT, or - (3.5.1)",
               tok);
        return;
    }
    if (r->next_insufficient && call.kind != CALL_BID)
        report(r, line, "^I marks an insufficient bid, not \"%s\" (3.9)", tok);
    add_call(r, call, line);
}

/* ---- the play section (3.6) ---- */

static void play_token(reader *r, const char *tok, int line) {
    pbn_game *g = r->g;
    if (g->ncards == BRIDGE_MAX_PLAYS) {
        report(r, line, "more than 13 tricks in the play");
        return;
    }
    pbn_card *c = &g->cards[g->ncards];
    memset(c, 0, sizeof *c);
    c->seat = (enum bridge_seat)((g->play_first + g->ncards) % 4);
    c->line = line;
    c->revoke = r->play_revoke;
    c->lead_out_of_turn = r->play_lead_out_of_turn;
    r->play_revoke = r->play_lead_out_of_turn = false;
    if (strcmp(tok, "-") != 0) {
        char why[160];
        if (strlen(tok) != 2 || !bridge_parse_card(tok, &c->card, why, sizeof why) ||
            !strchr("SHDCshdc", tok[0])) {
            report(
                r, line,
                "\"%s\" is not a card: a suit S, H, D, C and a rank A K Q J T 9 … 2, or - (3.6.1)",
                tok);
            return;
        }
        c->known = true;
        for (int i = 0; i < g->ncards; i++)
            if (g->cards[i].known &&
                bridge_card_index(g->cards[i].card) == bridge_card_index(c->card)) {
                report(r, line, "%s is played twice (first on line %d)", tok, g->cards[i].line);
                return;
            }
        if (g->has_deal && g->deal.known[c->seat] &&
            !(g->deal.hand[c->seat] >> bridge_card_index(c->card) & 1))
            report(r, line, "%s is not in %s's hand of the Deal", tok, bridge_seat_name(c->seat));
    }
    g->ncards++;
}

/* ---- tokens ---- */

/* The end of a run of characters that make a call or a card token. */
static size_t word_length(const char *p, const char *end) {
    size_t n = 0;
    while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_'))
        n++;
    return n;
}

/* One token of a section's data: an annotation, a mark or a call/card. */
static void section_token(reader *r) {
    const char *p = r->p;
    int line = r->line;
    mark_here(r, p);
    size_t n;
    char tok[64];
    if (*p == '=') { /* a note =n= */
        n = 1;
        while (p + n < r->end && isdigit((unsigned char)p[n]))
            n++;
        bool ok = p + n < r->end && p[n] == '=' && n > 1;
        long note = ok ? strtol(p + 1, NULL, 10) : 0; /* atoi took =4294967297= for =1= */
        r->p += ok ? n + 1 : 1;
        if (!ok || note < 1 || note > PBN_MAX_NOTES) {
            report(r, line, "a note reference is =n= with n from 1 to 32 (3.5.4)");
            return;
        }
        if (r->section == SECTION_AUCTION && r->g->ncalls > 0)
            r->g->calls[r->g->ncalls - 1].note = (int)note;
        if (r->section == SECTION_PLAY && r->g->ncards > 0)
            r->g->cards[r->g->ncards - 1].note = (int)note;
        return;
    }
    if (*p == '$') { /* a NAG */
        n = 1;
        while (p + n < r->end && isdigit((unsigned char)p[n]) && n < 6)
            n++;
        r->p += n;
        if (n == 1 || atoi(p + 1) > 255)
            report(r, line, "a NAG is $ and a number from 0 to 255 (3.7)");
        return;
    }
    if (*p == '!' || *p == '?') { /* a suffix */
        r->p += p + 1 < r->end && (p[1] == '!' || p[1] == '?') ? 2 : 1;
        return;
    }
    if (*p == '*' || *p == '+') {
        r->p++;
        if (*p == '*' && r->section == SECTION_AUCTION) r->g->auction_ended = true;
        return;
    }
    if (*p == '^') {
        char mark = p + 1 < r->end ? p[1] : 0;
        r->p += mark ? 2 : 1;
        if (r->section == SECTION_AUCTION && mark == 'I') {
            r->next_insufficient = true;
        } else if (r->section == SECTION_AUCTION && mark == 'S') { /* the skipped player's turn */
            r->turn = (enum bridge_seat)((r->turn + 1) % 4);
            r->next_out_of_rotation = true;
        } else if (r->section == SECTION_PLAY && mark == 'R') {
            r->play_revoke = true;
        } else if (r->section == SECTION_PLAY && mark == 'L') {
            r->play_lead_out_of_turn = true;
        } else {
            report(r, line,
                   "^%c is not an irregularity mark here: ^I and ^S in the auction, ^R and ^L in "
                   "the play (3.9)",
                   mark && isprint((unsigned char)mark) ? mark : '?');
        }
        return;
    }
    n = word_length(p, r->end);
    if (n == 0 || n >= sizeof tok) {
        report(r, line, "unexpected '%c' in the %s section", isprint((unsigned char)*p) ? *p : '?',
               r->section == SECTION_AUCTION ? "Auction" : "Play");
        r->p += n ? n : 1;
        return;
    }
    memcpy(tok, p, n);
    tok[n] = 0;
    r->p += n;
    if (r->section == SECTION_AUCTION)
        auction_token(r, tok, line);
    else
        play_token(r, tok, line);
}

static void skip_space(reader *r, bool newlines) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\v' ||
                             (newlines && *r->p == '\n'))) {
        if (*r->p == '\n') r->line++;
        r->p++;
    }
}

/* A tag pair [Name "value"] at r->p (3.3); in import format with any white
 * space between its tokens, lines included. */
static void tag_pair(reader *r) {
    int line = r->line;
    char name[64], value[MAX_TAG_VALUE];
    mark_here(r, r->p);
    r->p++;
    skip_space(r, true);
    size_t n = 0;
    while (r->p + n < r->end && (isalnum((unsigned char)r->p[n]) || r->p[n] == '_'))
        n++;
    if (n == 0 || n >= sizeof name || !isupper((unsigned char)*r->p)) {
        mark_here(r, r->p);
        report(r, line,
               "a tag pair is [Name \"value\"], the name a letter A-Z then letters, digits or _ "
               "(3.3)");
        goto skip;
    }
    memcpy(name, r->p, n);
    name[n] = 0;
    r->p += n;
    skip_space(r, true);
    if (r->p >= r->end || *r->p != '"') {
        mark_here(r, r->p);
        report(r, line, "tag %s: expected its value in quotes (3.3)", name);
        goto skip;
    }
    r->p++;
    const char *value_at = r->p; /* what most of a tag's messages are about */
    int value_line = r->line;
    mark_here(r, value_at);
    n = 0;
    while (r->p < r->end && *r->p != '"') {
        if (*r->p == '\n' || *r->p == '\t' || n + 1 >= sizeof value) {
            report(r, line, "tag %s: the value %s (3.2)", name,
                   n + 1 >= sizeof value ? "is too long"
                                         : "runs past the end of the line or holds a tab");
            goto skip;
        }
        if (*r->p == '\\' && r->p + 1 < r->end && (r->p[1] == '"' || r->p[1] == '\\')) r->p++;
        value[n++] = *r->p++;
    }
    value[n] = 0;
    if (r->p >= r->end) {
        report(r, line, "tag %s: the value has no closing quote", name);
        return;
    }
    r->p++;
    mark_here(r, r->p); /* where the ] belongs */
    skip_space(r, true);
    if (r->p >= r->end || *r->p != ']') {
        report(r, line, "tag %s: expected ] after the value (3.3)", name);
        goto skip;
    }
    r->p++;
    mark_at(r, value_at, value_line);
    /* in UTF-8: a Latin-1 file's too (the standard's own character set) */
    char text[2 * MAX_TAG_VALUE];
    size_t len = utf8_from_latin1(text, sizeof text, value, n);
    size_t ctl = text_control_char(text, len);
    if (ctl < len) { /* it would reach the output as it is: a terminal's escape, a broken line */
        report(r, line,
               "tag %s: the value holds a control character (U+%04X); a value is printable "
               "text (3.1)",
               name, text_control_code(text + ctl));
        return;
    }
    handle_tag(r, name, text, line);
    return;
skip: /* to the end of the tag's line (not past it): the rest of the game is still read */
    while (r->line == line && r->p < r->end && *r->p != '\n')
        r->p++;
}

/* A comment { … } (3.8): semi-empty lines in it do not end the game. */
static void brace_comment(reader *r) {
    int line = r->line;
    const char *opening = r->p;
    const char *close = memchr(r->p, '}', (size_t)(r->end - r->p));
    const char *stop = close ? close + 1 : r->end;
    for (const char *q = r->p; q < stop; q++)
        r->line += *q == '\n';
    r->p = stop;
    if (!close) {
        mark_at(r, opening, line);
        report(r, line, "a comment { has no closing } before the end of the file (3.8)");
    }
}

/* Whether the line at p is semi-empty: only spaces and tabs (3). */
static bool semi_empty(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p == end || *p == '\n';
}

static void read_all(reader *r) {
    bool bol = true;
    while (r->p < r->end && !r->oom) {
        if (bol) {
            bol = false;
            if (*r->p == '%' ||
                semi_empty(r->p, r->end)) { /* escape line (2.4), or the end of a game (3) */
                if (*r->p != '%') end_game(r);
                while (r->p < r->end && *r->p != '\n')
                    r->p++;
                continue;
            }
        }
        char c = *r->p;
        if (c == '\n') {
            r->line++;
            r->p++;
            bol = true;
            if (r->g) r->g->last_line = r->line - 1;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v') {
            r->p++;
        } else if (c == ';') {
            while (r->p < r->end && *r->p != '\n')
                r->p++;
        } else if (c == '{') {
            start_game(r, (size_t)(r->p - r->text));
            brace_comment(r);
        } else if (c == '[') {
            start_game(r, (size_t)(r->p - r->text));
            if (r->g) tag_pair(r);
        } else if (c == '\0') {
            start_game(r, (size_t)(r->p - r->text));
            mark_here(r, r->p);
            report(r, r->line, "a NUL byte: the file is not text");
            r->p = r->end;
        } else {
            start_game(r, (size_t)(r->p - r->text));
            if (!r->g) continue;
            if (r->section == SECTION_AUCTION || r->section == SECTION_PLAY) {
                section_token(r);
            } else if (r->section == SECTION_TABLE) {
                table_token(r);
            } else if (r->section == SECTION_OTHER) { /* a supplemental section's data (4.9) */
                while (r->p < r->end && !strchr(" \t\r\n[{;", *r->p))
                    r->p++;
            } else {
                report(r, r->line, "'%c' outside a tag pair and before any section",
                       isprint((unsigned char)c) ? c : '?');
                while (r->p < r->end && *r->p != '\n')
                    r->p++;
            }
        }
    }
    if (r->g) r->g->last_line = r->line;
    end_game(r);
}

bool pbn_read(const char *text, size_t len, const char *name, pbn_file *f) {
    memset(f, 0, sizeof *f);
    vec_init(&f->games, sizeof(pbn_game));
    sb_init(&f->errors);
    reader r = {0};
    r.text = r.p = text;
    r.end = text + len;
    r.name = name ? name : "-";
    r.line = 1;
    r.f = f;
    read_all(&r);
    free_inherited(r.prev, &r.nprev);
    free_inherited(r.cur, &r.ncur);
    if (f->games.len > PBN_MAX_GAMES) f->games.len = PBN_MAX_GAMES;
    return !r.oom;
}

void pbn_free(pbn_file *f) {
    for (int i = 0; i < (int)f->games.len; i++) {
        pbn_game *g = &VEC_AT(&f->games, pbn_game, i);
        free_notes(g->notes);
        free_notes(g->play_notes);
        for (int k = 0; k < g->nrows; k++)
            xfree(g->rows[k].others);
        xfree(g->rows);
        for (int k = 0; k < g->ntotals; k++)
            xfree(g->totals[k].others);
        xfree(g->totals);
    }
    vec_free(&f->games);
    sb_free(&f->errors);
}

bool pbn_contract_text(const pbn_result *res, char *buf, size_t size) {
    if (!res->has_contract) return false;
    if (res->passed_out) {
        snprintf(buf, size, "PASS");
        return true;
    }
    if (res->result < 0 || res->declarer < 0) return false;
    static const char *const denoms[] = {"C", "D", "H", "S", "NT"};
    int over = res->result - (res->contract.level + 6);
    char result[16];
    if (over == 0)
        snprintf(result, sizeof result, "=");
    else
        snprintf(result, sizeof result, "%+d", over);
    snprintf(buf, size, "%d%s%s%s", res->contract.level, denoms[res->contract.denom],
             res->doubling == 2 ? "XX"
             : res->doubling    ? "X"
                                : "",
             result);
    return true;
}

int pbn_seat_vulnerable(enum pbn_vulnerable vulnerable, int declarer) {
    if (vulnerable == PBN_VUL_UNKNOWN || declarer < 0) return -1;
    if (vulnerable == PBN_VUL_ALL) return 1;
    if (vulnerable == PBN_VUL_NONE) return 0;
    return (vulnerable == PBN_VUL_NS) == (declarer == SEAT_N || declarer == SEAT_S);
}

int pbn_declarer_vulnerable(const pbn_game *g) {
    return pbn_seat_vulnerable(g->vulnerable, g->res.declarer);
}

/* The card of trick t (cards in the Play tag's seat order) played by seat. */
static const pbn_card *trick_card(const pbn_game *g, int t, int seat) {
    return &g->cards[t * 4 + (seat - g->play_first + 4) % 4];
}

static int trick_winner(const pbn_game *g, int t, int leader, int trump) {
    const pbn_card *best = trick_card(g, t, leader);
    int winner = leader;
    for (int k = 1; k < 4; k++) {
        int seat = (leader + k) % 4;
        const pbn_card *c = trick_card(g, t, seat);
        bool beats = c->card.suit == best->card.suit ? c->card.rank > best->card.rank
                                                     : (int)c->card.suit == trump;
        if (beats) best = c, winner = seat;
    }
    return winner;
}

static bool append(char *buf, size_t size, size_t *o, const char *text) {
    int w = snprintf(buf + *o, size - *o, "%s", text);
    if (w < 0 || (size_t)w >= size - *o) return false;
    *o += (size_t)w;
    return true;
}

bool pbn_play_record(const pbn_game *g, char *buf, size_t size) {
    if (g->play_first < 0 || !g->res.has_contract || g->res.passed_out || size == 0) return false;
    int trump = g->res.contract.denom == DENOM_NT ? -1 : (int)g->res.contract.denom,
        leader = g->play_first;
    size_t o = 0;
    buf[0] = 0;
    for (int t = 0; t < g->ncards / 4; t++) {
        bool known = true;
        for (int k = 0; k < 4; k++) {
            const pbn_card *c = &g->cards[t * 4 + k];
            known = known && c->known;
            if (c->lead_out_of_turn) leader = c->seat;
        }
        if (!known) break;
        for (int k = 0; k < 4; k++) {
            int seat = (leader + k) % 4;
            char card[8], item[16];
            bridge_format_card(trick_card(g, t, seat)->card, card);
            snprintf(item, sizeof item, "%s%s:%s", o ? (k ? " " : "  ") : "",
                     bridge_seat_name((enum bridge_seat)seat), card);
            if (!append(buf, size, &o, item)) return false;
        }
        leader = trick_winner(g, t, leader, trump);
    }
    return true;
}

bool pbn_auction_record(const pbn_game *g, char *buf, size_t size) {
    if (g->auction_first < 0 || g->dealer < 0 || size == 0) return false;
    size_t o = 0;
    bool marked = false;
    char item[24];
    snprintf(item, sizeof item, "%s:", bridge_seat_name((enum bridge_seat)g->dealer));
    if (!append(buf, size, &o, item)) return false;
    for (int i = 0; i < g->ncalls; i++) {
        const pbn_call *c = &g->calls[i];
        char call[8], seat[4] = "";
        bridge_format_call(&c->call, call);
        bool irregular = !marked && (c->insufficient || c->out_of_rotation);
        marked = marked || irregular;
        if (c->out_of_rotation) snprintf(seat, sizeof seat, "%s:", bridge_seat_name(c->seat));
        snprintf(item, sizeof item, " %s%s%s", seat, call, irregular ? "*" : "");
        if (!append(buf, size, &o, item)) return false;
    }
    return true;
}
