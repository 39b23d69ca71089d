/* api/pbnfile.c — a PBN file for the scorer (arbiter.h, "PBN files"): the
 * games as JSON, every result scored by the ruleset's score article and
 * matchpointed board by board by its matchpoints article (a ScoreTable's
 * rows as a session's sheet, session.c, field by field of the event, in
 * IMPs when the Scoring tag says so), the file's own figures and its
 * TotalScoreTable held against arbiter's, and the file written back with
 * the Score, ScoreMP and ScorePercentage tags. */
#include "arbiter.h"
#include "csvline.h"
#include "protect.h"

#include "pbn.h"
#include "pbnexport.h"
#include "plugin.h"
#include "scoring.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static enum arb_status fail(enum arb_status status, char **error, const char *msg) {
    if (error) *error = xstrdup(msg && *msg ? msg : "no answer");
    return status;
}

/* A fault of the whole file, named as the reader names a line's:
 * "name: message". */
static enum arb_status fail_file(char **error, const char *name, const char *msg) {
    if (error) {
        strbuf b;
        sb_init(&b);
        sb_printf(&b, "%s: %s", name && *name ? name : "pbn", msg);
        *error = sb_take(&b);
    }
    return ARB_BAD_INPUT;
}

static void give_json(json_t *j, char **json) {
    if (json) *json = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    json_decref(j);
}

static const char *const vul_names[] = {"None", "NS", "EW", "All"}; /* enum pbn_vulnerable */
static const char *const denom_names[] = {"C", "D", "H", "S", "NT"};

static json_t *seat_json(int seat) {
    return seat >= 0 ? json_string(bridge_seat_name((enum bridge_seat)seat)) : json_null();
}

static json_t *notes_json(char *const *notes) {
    json_t *j = json_object();
    for (int i = 1; i <= PBN_MAX_NOTES; i++) {
        char key[16];
        snprintf(key, sizeof key, "%d", i);
        if (notes[i]) json_object_set_new(j, key, json_string(notes[i]));
    }
    return j;
}

static json_t *auction_json(const pbn_game *g) {
    json_t *calls = json_array();
    for (int i = 0; i < g->ncalls; i++) {
        const pbn_call *c = &g->calls[i];
        char text[8];
        bridge_format_call(&c->call, text);
        json_t *j = json_pack("{ssss}", "seat", bridge_seat_name(c->seat), "call", text);
        if (c->insufficient) json_object_set_new(j, "insufficient", json_true());
        if (c->out_of_rotation) json_object_set_new(j, "out_of_rotation", json_true());
        if (c->note) json_object_set_new(j, "note", json_integer(c->note));
        json_array_append_new(calls, j);
    }
    return json_pack("{sosososo}", "first", seat_json(g->auction_first), "calls", calls, "ended",
                     json_boolean(g->auction_ended), "notes", notes_json(g->notes));
}

static json_t *play_json(const pbn_game *g) {
    json_t *cards = json_array();
    for (int i = 0; i < g->ncards; i++) {
        const pbn_card *c = &g->cards[i];
        char text[8] = "-";
        if (c->known) bridge_format_card(c->card, text);
        json_t *j = json_pack("{ssss}", "seat", bridge_seat_name(c->seat), "card", text);
        if (c->revoke) json_object_set_new(j, "revoke", json_true());
        if (c->lead_out_of_turn) json_object_set_new(j, "lead_out_of_turn", json_true());
        if (c->note) json_object_set_new(j, "note", json_integer(c->note));
        json_array_append_new(cards, j);
    }
    return json_pack("{sososo}", "first", seat_json(g->play_first), "cards", cards, "notes",
                     notes_json(g->play_notes));
}

static json_t *contract_json(const pbn_result *res) {
    if (!res->has_contract) return json_null();
    if (res->passed_out) return json_string("Pass");
    char text[16];
    snprintf(text, sizeof text, "%d%s%s", res->contract.level, denom_names[res->contract.denom],
             res->doubling == 2 ? "XX"
             : res->doubling    ? "X"
                                : "");
    return json_string(text);
}

/* A ScoreTable's rows as read: the result each gives. */
static json_t *table_json(const pbn_game *g) {
    json_t *rows = json_array();
    for (int k = 0; k < g->nrows; k++) {
        const pbn_row *r = &g->rows[k];
        json_t *j =
            json_pack("{sIssss}", "line", (json_int_t)r->line, "ns", r->pair_ns, "ew", r->pair_ew);
        json_object_set_new(j, "contract", contract_json(&r->res));
        json_object_set_new(j, "declarer", seat_json(r->res.declarer));
        json_object_set_new(j, "result",
                            r->res.result >= 0 ? json_integer(r->res.result) : json_null());
        json_object_set_new(j, "score_ns",
                            r->res.has_score ? json_integer(r->res.score_ns) : json_null());
        if (r->others) json_object_set_new(j, "others", json_string(r->others));
        if (r->bad) json_object_set_new(j, "bad", json_true());
        json_array_append_new(rows, j);
    }
    return rows;
}

static json_t *game_json(const pbn_game *g) {
    json_t *j = json_object();
    json_object_set_new(j, "line", json_integer(g->line));
    json_object_set_new(j, "board", json_string(g->board));
    json_object_set_new(j, "dealer", seat_json(g->dealer));
    json_object_set_new(j, "vulnerable",
                        g->vulnerable >= 0 ? json_string(vul_names[g->vulnerable]) : json_null());
    json_object_set_new(j, "deal", g->has_deal ? json_string(g->deal_text) : json_null());
    json_object_set_new(j, "declarer", seat_json(g->res.declarer));
    if (g->declarer_swapped) json_object_set_new(j, "declarer_swapped", json_true());
    json_object_set_new(j, "contract", contract_json(&g->res));
    json_object_set_new(j, "result",
                        g->res.result >= 0 ? json_integer(g->res.result) : json_null());
    if (g->result_disputed) json_object_set_new(j, "result_disputed", json_true());
    json_object_set_new(j, "score_ns",
                        g->res.has_score ? json_integer(g->res.score_ns) : json_null());
    if (g->auction_first >= 0) json_object_set_new(j, "auction", auction_json(g));
    if (g->play_first >= 0) json_object_set_new(j, "play", play_json(g));
    if (g->table_line) json_object_set_new(j, "score_table", table_json(g));
    if (g->bad) json_object_set_new(j, "bad", json_true());
    return j;
}

/* Reads the file; the games as JSON into *games (may be NULL). */
static enum arb_status read_games(const char *pbn, size_t len, const char *name, pbn_file *f,
                                  char **error) {
    if (!pbn_read(pbn, len, name, f)) return fail(ARB_BAD_INPUT, error, "out of memory");
    if (f->nerrors) {
        if (error) *error = xstrdup(f->errors.data);
        return ARB_BAD_INPUT;
    }
    if (f->games.len == 0) return fail(ARB_BAD_INPUT, error, "no PBN games in the file");
    return ARB_OK;
}

static enum arb_status pbn_json_unprotected(const char *pbn, size_t len, const char *name,
                                            char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!pbn) return fail(ARB_BAD_INPUT, error, "arb_pbn_json: no text");
    pbn_file f;
    enum arb_status status = read_games(pbn, len, name, &f, error);
    json_t *games = json_array();
    for (int i = 0; i < (int)f.games.len; i++)
        json_array_append_new(games, game_json(&VEC_AT(&f.games, pbn_game, i)));
    give_json(games, json);
    pbn_free(&f);
    return status;
}

enum arb_status arb_pbn_json(const char *pbn, size_t len, const char *name, char **json,
                             char **error) {
    API_ANSWER_PROTECTED(json, error, pbn_json_unprotected(pbn, len, name, json, error));
}

/* ---- a game as a scenario ---- */

static enum arb_status pbn_scenario_json_unprotected(const char *pbn, size_t len, const char *name,
                                                     int game, char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!pbn) return fail(ARB_BAD_INPUT, error, "arb_pbn_scenario_json: no text");
    pbn_file f;
    enum arb_status status = read_games(pbn, len, name, &f, error);
    if (status == ARB_OK && (game < 1 || game > (int)f.games.len)) {
        char msg[80];
        snprintf(msg, sizeof msg, "no game %d: the file has %d", game, (int)f.games.len);
        status = fail(ARB_BAD_INPUT, error, msg);
    }
    if (status == ARB_OK) {
        const pbn_game *g = &VEC_AT(&f.games, pbn_game, game - 1);
        json_t *j = json_object();
        char text[1024];
        if (pbn_auction_record(g, text, sizeof text) && strchr(text, '*')) {
            /* the auction record is the record of an irregular call */
            json_object_set_new(j, "dealer", seat_json(g->dealer));
            json_object_set_new(j, "auction", json_string(text));
        }
        if (g->has_deal) json_object_set_new(j, "deal", json_string(g->deal_text));
        if (g->res.declarer >= 0) json_object_set_new(j, "declarer", seat_json(g->res.declarer));
        if (pbn_contract_text(&g->res, text, sizeof text) && !g->res.passed_out)
            json_object_set_new(j, "contract", json_string(text));
        else if (g->res.has_contract && !g->res.passed_out) /* no result yet: what the play needs */
            json_object_set_new(j, "trump", json_string(denom_names[g->res.contract.denom]));
        if (pbn_play_record(g, text, sizeof text) && text[0])
            json_object_set_new(j, "play", json_string(text));
        int vul = pbn_declarer_vulnerable(g);
        if (vul >= 0) json_object_set_new(j, "vulnerable", json_boolean(vul));
        give_json(j, json);
    }
    pbn_free(&f);
    return status;
}

enum arb_status arb_pbn_scenario_json(const char *pbn, size_t len, const char *name, int game,
                                      char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         pbn_scenario_json_unprotected(pbn, len, name, game, json, error));
}

/* ---- a commentary ---- */

/* text as a brace comment (3.8): a } inside would end it, so it becomes a
 * ); blank lines are left out (a reader that splits games on them before
 * it sees comments would split the game); lines are wrapped at spaces to
 * stay well under the 255 characters a PBN line may have (2.3). */
#define COMMENT_WIDTH 78

static void brace_comment_text(strbuf *out, const char *text, const char *eol) {
    sb_putc(out, '{');
    size_t col = 1;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const char *line = p, *stop = p + n;
        p = *stop ? stop + 1 : stop;
        while (line < stop && (*line == '\r' || stop[-1] == '\r'))
            stop -= stop[-1] == '\r', line += *line == '\r';
        if (line + strspn(line, " \t") >= stop) continue; /* a blank line */
        if (col > 1) sb_puts(out, eol), col = 0;
        for (const char *w = line; w < stop;) {
            size_t lead = 0, len = 0;
            while (w + lead < stop && w[lead] == ' ')
                lead++;
            while (w + lead + len < stop && w[lead + len] != ' ')
                len++;
            if (col > 4 && col + lead + len > COMMENT_WIDTH) { /* wrap, the next line indented */
                sb_puts(out, eol);
                sb_puts(out, "    ");
                col = 4;
                lead = 0;
                while (w < stop && *w == ' ')
                    w++;
            }
            for (size_t k = 0; k < lead + len; k++)
                sb_putc(out, w[k] == '}' ? ')' : w[k]);
            col += lead + len;
            w += lead + len;
        }
    }
    sb_putc(out, '}');
    sb_puts(out, eol);
}

static enum arb_status pbn_commentary_unprotected(const char *pbn, size_t len, const char *name,
                                                  int game, const char *text, char **out,
                                                  char **error) {
    if (out) *out = NULL;
    if (error) *error = NULL;
    if (!pbn || !text) return fail(ARB_BAD_INPUT, error, "arb_pbn_commentary: no text");
    pbn_file f;
    enum arb_status status = read_games(pbn, len, name, &f, error);
    if (status == ARB_OK && (game < 1 || game > (int)f.games.len)) {
        char msg[80];
        snprintf(msg, sizeof msg, "no game %d: the file has %d", game, (int)f.games.len);
        status = fail(ARB_BAD_INPUT, error, msg);
    }
    if (status == ARB_OK) {
        const pbn_game *g = &VEC_AT(&f.games, pbn_game, game - 1);
        const char *eol = "\n";
        for (size_t i = 0; i + 1 < len; i++)
            if (pbn[i] == '\r' && pbn[i + 1] == '\n') {
                eol = "\r\n";
                break;
            }
        strbuf o;
        sb_init(&o);
        sb_putn(&o, pbn, g->end);
        if (o.len && o.data[o.len - 1] != '\n') sb_puts(&o, eol);
        /* a file that is not UTF-8 is Latin-1 (the standard's own): the
         * commentary is written in it, not in UTF-8 beside its text */
        char *latin1 = NULL;
        if (utf8_bad_byte(pbn, len) < len) {
            size_t n = strlen(text);
            latin1 = xmalloc(n + 1);
            latin1_from_utf8(latin1, n + 1, text, n);
        }
        /* at the end of the game: it refers to what precedes it */
        brace_comment_text(&o, latin1 ? latin1 : text, eol);
        xfree(latin1);
        sb_putn(&o, pbn + g->end, len - g->end);
        if (out) *out = xstrdup(o.data ? o.data : "");
        sb_free(&o);
    }
    pbn_free(&f);
    return status;
}

enum arb_status arb_pbn_commentary(const char *pbn, size_t len, const char *name, int game,
                                   const char *text, char **out, char **error) {
    API_ANSWER_PROTECTED(out, error,
                         pbn_commentary_unprotected(pbn, len, name, game, text, out, error));
}

/* ---- scoring ---- */

/* What scoring one game gave. */
typedef struct game_score {
    bool scored;     /* a contract scored: ns */
    bool artificial; /* a ScoreTable row's artificial score (the row's adjusted) */
    char contract[16];
    int64_t ns;
    bool has_mp[2];       /* north-south, east-west */
    double mp[2], top;    /* the matchpoints (as the ruleset rounds them) and the board's top */
    double pct[2];        /* the percentages, of the matchpoints before they are rounded */
    char articles[2][64]; /* the articles that ruled on an adjusted board */
    double scale;         /* the file's matchpoints over arbiter's on this board (0: not known) */
    bool imps;            /* scored in IMPs (78B): imp, not mp, top and pct */
    bool has_imp[2];
    double imp[2];
    char problem[240];
} game_score;

static void score_game(const arb_ruleset *rs, const scenario_hooks *hooks, const pbn_game *g,
                       const pbn_result *res, game_score *s) {
    if (!pbn_contract_text(res, s->contract, sizeof s->contract)) {
        snprintf(s->problem, sizeof s->problem,
                 "no result to score: give Contract, Declarer and Result");
        return;
    }
    scenario sc;
    scenario_init(&sc, rs);
    sc.hooks = hooks;
    strbuf err;
    sb_init(&err);
    ruling r;
    int64_t total = 0;
    int vul = res->passed_out ? 0 : pbn_seat_vulnerable(g->vulnerable, res->declarer);
    if (scoring_contract(rs, &sc, s->contract, vul, &r, &total, &err)) {
        s->scored = true;
        s->ns =
            res->passed_out || res->declarer == SEAT_N || res->declarer == SEAT_S ? total : -total;
    } else {
        snprintf(s->problem, sizeof s->problem, "%s: %s", s->contract,
                 vul < 0    ? "the Vulnerable tag is missing"
                 : err.data ? err.data
                            : "no score");
    }
    ruling_clear(&r);
    sb_free(&err);
    scenario_free(&sc);
}

/* One result of the file: a game's own, or one row of its ScoreTable. */
typedef struct unit {
    const pbn_game *g;
    const pbn_row *row; /* NULL: the game's own result */
    int game;           /* the game's index in the file */
} unit;

static const pbn_result *unit_result(const unit *u) {
    return u->row ? &u->row->res : &u->g->res;
}

static int unit_line(const unit *u) {
    return u->row ? u->row->line : u->g->line;
}

static void field_key(const pbn_game *g, char *key, size_t size);

/* Matchpoints the scored games board by board, for one direction (the
 * north-south scores, or their negatives for east-west), each field of
 * the event apart (field_key): a board is its field's number and its own
 * ("2 7": board 7 of the file's second field). */
static bool matchpoint_direction(const arb_ruleset *rs, const scenario_hooks *hooks,
                                 const unit *units, int nunits, game_score *scores, int side,
                                 strbuf *err) {
    vec rows;
    vec_init(&rows, sizeof(score_line));
    json_t *fields = json_object(); /* each field's number, by its key */
    for (int i = 0; i < nunits; i++) {
        if (!scores[i].scored || units[i].row) continue; /* a ScoreTable's rows: the session's */
        char key[400];
        field_key(units[i].g, key, sizeof key);
        if (!json_object_get(fields, key))
            json_object_set_new(fields, key, json_integer((json_int_t)json_object_size(fields)));
        score_line *row = vec_push(&rows);
        snprintf(row->board, sizeof row->board, "%d %.15s",
                 (int)json_integer_value(json_object_get(fields, key)), units[i].g->board);
        snprintf(row->pair, sizeof row->pair, "%d", i);
        row->score = side == 0 ? scores[i].ns : -scores[i].ns;
        row->entry = (sheet_entry){
            .kind = ENTRY_SCORE, .nparts = 1, .parts = {{.score = row->score, .percent = 100}}};
        row->line = unit_line(&units[i]);
    }
    int article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    bool ok = article >= 0 && scoring_matchpoint_lines(rs, hooks, &rows, err);
    size_t room = rows.len ? (size_t)rows.len : 1;
    int *board = xmalloc(sizeof *board * room), *count = xmalloc(sizeof *count * room);
    vec_group_by_name(&rows, offsetof(score_line, board), board, count, NULL);
    for (int k = 0; ok && k < (int)rows.len; k++) {
        const score_line *row = &VEC_AT(&rows, score_line, k);
        game_score *s = &scores[atoi(row->pair)];
        s->mp[side] = (double)row->mp;
        s->has_mp[side] = true;
        int n = count[board[k]]; /* the board's scores: its top is beating the n - 1 others */
        int64_t top;
        ok = scoring_matchpoints_of(rs, hooks, article, n - 1, 0, n - 1, &top, err);
        s->top = (double)top;
        s->pct[side] = s->top > 0 ? 100 * s->mp[side] / s->top : 50;
    }
    xfree(board), xfree(count);
    json_decref(fields);
    vec_free(&rows);
    return ok;
}

/* A CSV field of the sheet, quoted by libcsv ("" for a quote in it). */
static void sheet_field(strbuf *out, const char *text, bool last) {
    csv_put_field(out, text, true, last);
}

/* The field of the event a game belongs to: its Event, Stage and Section
 * tags (3.4.1; 4.4.6, 4.4.5: the stage of a multistage event, the playing
 * section of a tournament, "Open", "Ladies"). A board is compared only
 * within its field, and each field is ranked apart. A Section column in a
 * ScoreTable (not one of 5.7's columns: Ruter writes the seating section,
 * "A", "B") does not split its table: the program put the rows in one
 * table to compare them, across the sections, as its own figures do. */
static void field_key(const pbn_game *g, char *key, size_t size) {
    char text[sizeof g->event + sizeof g->stage + sizeof g->section + 20];
    int n = snprintf(text, sizeof text, "%s\x1f%s\x1f%s", g->event, g->stage, g->section);
    if (g->event_cut) /* two Events alike as far as event holds them are two fields */
        snprintf(text + n, sizeof text - (size_t)n, "\x1f%016llx",
                 (unsigned long long)g->event_cut);
    /* a JSON object's key (its fields): a byte past ASCII as %XX (an "é"
     * as %C3%A9), so that the key is ASCII; the longest, 394 bytes */
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && o + 4 < size; p++) {
        if (*p < 0x80 && *p != '%')
            key[o++] = (char)*p;
        else
            o += (size_t)snprintf(key + o, size - o, "%%%02X", *p);
    }
    key[o] = 0;
}

static void unit_key(const unit *u, char *key, size_t size) {
    field_key(u->g, key, size);
}

/* Whether the word of a Scoring tag (n bytes at p) names a way of scoring
 * that compares no field by matchpoints or IMPs: board-a-match, total
 * points, rubber bridge and its kin. Ranked as matchpoints, such a file
 * would get a ranking it did not ask for. */
static bool unranked_scoring(const char *p, size_t n) {
    static const char *const systems[] = {"BAM",    "BoardaMatch", "Board-a-match", "Instant",
                                          "Rubber", "Chicago",     "Cavendish",     "TP",
                                          "Total",  "TotalPoints"};
    for (size_t i = 0; i < sizeof systems / sizeof *systems; i++)
        if (strlen(systems[i]) == n && strncasecmp(p, systems[i], n) == 0) return true;
    return false;
}

/* How the game's rows are scored, as its Scoring tag names it (3.4.12:
 * "MP", "MatchPoints", or "IMP" with a modifier: "Butler", "Butler-2",
 * "Cross", "Cross1", "Cross2"): "matchpoints", "butler" or "cross"; the
 * session's method. NULL where the tag names a way of scoring that ranks
 * no field so (unranked_scoring). Without the tag, a row with IMPs and no
 * matchpoints is Butler's. The datum's and the comparisons' details are
 * the ruleset's (its 78D clause), not the tag's. */
static const char *field_method(const pbn_game *g, const pbn_row *row) {
    bool imps = false, cross = false;
    const char *p = g->scoring;
    while (*p) {
        size_t n = strcspn(p, ";");
        if (unranked_scoring(p, n)) return NULL;
        if (n >= 3 && strncasecmp(p, "IMP", 3) == 0 && (n == 3 || p[3] == ' ')) imps = true;
        if (n >= 6 && strncasecmp(p, "Butler", 6) == 0) imps = true;
        if (n >= 5 && strncasecmp(p, "Cross", 5) == 0) imps = cross = true;
        p += n + (p[n] == ';');
    }
    if (!g->scoring[0] && row) imps = (row->has_imp[0] || row->has_imp[1]) && !row->has_mp[0];
    return !imps ? "matchpoints" : cross ? "cross" : "butler";
}

/* The ScoreTables' rows of one field (key) as a pairs session's sheet
 * (board, ns, ew, each side's entry: arbiter's score of the contract, or
 * the row's artificial score), scored as the session is by the field's
 * method: matchpoints (78A; adjusted scores by the adjusted-score article,
 * 12C; a board played fewer times brought to the others by its method,
 * 78D), or IMPs (78B, Butler or cross-IMPs), into the rows' scores; the
 * session's answer (its rankings) into *session. A row without a pair gets
 * its line as the pair ("L24"): it is ranked on its own. With `directions`
 * (the TotalScoreTable has a pair number twice, north-south and east-west:
 * a Mitchell whose two fields both number their pairs from 1) a pair is
 * its number and its direction ("1 NS"), so that pair 1 NS and pair 1 EW
 * stay two pairs. */
static bool score_field(const arb_ruleset *rs, const scenario_hooks *hooks, const unit *units,
                        int nunits, game_score *scores, bool directions, const char *key,
                        json_t **session, strbuf *err) {
    strbuf sheet;
    sb_init(&sheet);
    sb_puts(&sheet, "board,ns,ew,score,score_ew\n");
    int *of = xcalloc((size_t)nunits + 1, sizeof *of), n = 0; /* the sheet's lines' units */
    const char *method = NULL;
    for (int i = 0; i < nunits; i++) {
        const unit *u = &units[i];
        const game_score *s = &scores[i];
        char own[400];
        if (!u->row || (!s->scored && !s->artificial)) continue;
        unit_key(u, own, sizeof own);
        if (strcmp(own, key) != 0) continue;
        if (!method && !(method = field_method(u->g, u->row))) { /* not ranked: unranked_field */
            *session = NULL;
            xfree(of);
            sb_free(&sheet);
            return true;
        }
        char board[32], pairs[2][32], score[32];
        snprintf(board, sizeof board, "%s", u->g->board[0] ? u->g->board : "?");
        for (int side = 0; side < 2; side++) {
            const char *id = side ? u->row->pair_ew : u->row->pair_ns;
            if (id[0])
                snprintf(pairs[side], sizeof pairs[side], "%s%s", id,
                         !directions ? ""
                         : side      ? " EW"
                                     : " NS");
            else
                snprintf(pairs[side], sizeof pairs[side], "L%d", u->row->line);
        }
        snprintf(score, sizeof score, "%lld", (long long)s->ns);
        sheet_field(&sheet, board, false);
        sheet_field(&sheet, pairs[0], false);
        sheet_field(&sheet, pairs[1], false);
        sheet_field(&sheet, s->artificial ? u->row->adjusted[0] : score, false);
        sheet_field(&sheet, s->artificial ? u->row->adjusted[1] : "", true);
        of[n++] = i;
    }
    *session = NULL;
    bool ok = true, imps = method && strcmp(method, "matchpoints") != 0;
    if (n > 0) {
        strbuf why;
        sb_init(&why);
        *session = session_sheet_json(rs, hooks, sheet.data, sheet.len, method, &why);
        if (!*session) {
            const char *msg = why.data ? why.data : "no answer";
            int line = 0; /* the sheet's line is the row's (the header is line 1) */
            if (sscanf(msg, "line %d", &line) == 1 && line >= 2 && line - 2 < n) {
                msg = strchr(msg, ':') ? strchr(msg, ':') + 2 : msg;
                sb_printf(err, "line %d: ", units[of[line - 2]].row->line);
            }
            /* a second line the message names ("already (line 3)"): the file's too */
            const char *other = strstr(msg, "(line ");
            int at = 0;
            if (other && sscanf(other, "(line %d)", &at) == 1 && at >= 2 && at - 2 < n) {
                sb_printf(err, "%.*s(line %d%s", (int)(other - msg), msg,
                          units[of[at - 2]].row->line, strchr(other, ')'));
            } else {
                sb_puts(err, msg);
            }
            ok = false;
        }
        sb_free(&why);
    }
    json_t *boards = *session ? json_object_get(*session, "boards") : NULL;
    for (int k = 0; ok && k < n && k < (int)json_array_size(boards); k++) {
        json_t *b = json_array_get(boards, (size_t)k);
        game_score *s = &scores[of[k]];
        static const char *const keys[2][4] = {
            {"matchpoints_ns", "articles_ns", "percentage_ns", "imps_ns"},
            {"matchpoints_ew", "articles_ew", "percentage_ew", "imps_ew"}};
        s->imps = imps;
        for (int side = 0; side < 2; side++) {
            json_t *mp = json_object_get(b, keys[side][imps ? 3 : 0]);
            *(imps ? &s->has_imp[side] : &s->has_mp[side]) = json_is_number(mp);
            *(imps ? &s->imp[side] : &s->mp[side]) = json_number_value(mp);
            s->pct[side] = json_number_value(json_object_get(b, keys[side][2]));
            json_t *cited = json_object_get(b, keys[side][1]);
            if (json_is_string(cited))
                snprintf(s->articles[side], sizeof s->articles[side], "%s",
                         json_string_value(cited));
        }
        s->top = json_number_value(json_object_get(b, "top"));
    }
    xfree(of);
    sb_free(&sheet);
    return ok;
}

/* Every field's rows scored (score_field), field by field in the order
 * the file first gives them; *sessions: each field's session by its key. */
static bool score_fields(const arb_ruleset *rs, const scenario_hooks *hooks, const unit *units,
                         int nunits, game_score *scores, bool directions, json_t **sessions,
                         strbuf *err) {
    *sessions = json_object();
    bool ok = true;
    for (int i = 0; ok && i < nunits; i++) {
        char key[400];
        if (!units[i].row) continue;
        unit_key(&units[i], key, sizeof key);
        if (json_object_get(*sessions, key)) continue;
        json_t *session = NULL;
        ok = score_field(rs, hooks, units, nunits, scores, directions, key, &session, err);
        json_object_set_new(*sessions, key, session ? session : json_null());
    }
    return ok;
}

/* The first ScoreTable's game whose Scoring tag names a way of scoring no
 * field is ranked by here (unranked_scoring), or NULL: its rows' scores are
 * checked, but the file's ranking is refused rather than made by
 * matchpoints it did not ask for. */
static const pbn_game *unranked_field(const unit *units, int nunits) {
    for (int i = 0; i < nunits; i++)
        if (units[i].row && !field_method(units[i].g, units[i].row)) return units[i].g;
    return NULL;
}

/* The error of a ranking asked of such a file. */
static enum arb_status refuse_unranked(const pbn_game *g, char **error) {
    char msg[200];
    if (error) xfree(*error); /* a mistake of another game: this one stops the ranking */
    snprintf(msg, sizeof msg,
             "line %d: Scoring \"%s\": arbiter ranks a field by matchpoints (MP) or IMPs (IMP: "
             "Butler or cross-IMPs), not this way",
             g->line, g->scoring);
    return fail(ARB_BAD_INPUT, error, msg);
}

static double percentage(const game_score *s, int side) {
    return round(100 * s->pct[side]) / 100;
}

/* A figure of the file against arbiter's: whether they differ by more than
 * the file's rounding (half its last digit) and arbiter's (0.005). */
static bool differs(double file, int decimals, double arbiter, double scale) {
    return fabs(file - arbiter) > (0.5 * pow(10, -decimals) + 0.005) * scale + 1e-9;
}

static void add_disagreement(json_t *list, const char *column, double file, double arbiter) {
    json_array_append_new(list, json_pack("{sssfsf}", "column", column, "file", file, "arbiter",
                                          round(100 * arbiter) / 100));
}

/* Where a ScoreTable row's own Score, MP and Percentage figures differ from
 * arbiter's. The file's matchpoints are compared on its own scale: a row
 * of the board with a result played (not an artificial score) giving both
 * MP_NS and MP_EW gives its top as their sum (each comparison gives the
 * two sides' matchpoints together the top), and arbiter's figure is put
 * on that scale. */
static json_t *disagreements(const pbn_row *row, const game_score *s) {
    static const char *const mp_names[] = {"MP_NS", "MP_EW"};
    static const char *const pct_names[] = {"Percentage_NS", "Percentage_EW"};
    static const char *const imp_names[] = {"IMP_NS", "IMP_EW"};
    json_t *list = json_array();
    if (s->scored && row->res.has_score && row->res.score_ns != s->ns)
        add_disagreement(list, "Score_NS", (double)row->res.score_ns, (double)s->ns);
    for (int side = 0; side < 2; side++) /* IMPs: as the file writes them, no scale */
        if (s->has_imp[side] && row->has_imp[side] &&
            differs(row->imp[side], row->imp_decimals[side], s->imp[side], 1))
            add_disagreement(list, imp_names[side], row->imp[side], s->imp[side]);
    double scale = s->scale > 0 ? s->scale : 1;
    for (int side = 0; side < 2; side++) {
        if (!s->has_mp[side]) continue;
        if (row->has_mp[side] &&
            differs(row->mp[side], row->mp_decimals[side], s->mp[side] * scale, scale))
            add_disagreement(list, mp_names[side], row->mp[side], s->mp[side] * scale);
        double pct = percentage(s, side);
        if (row->has_pct[side] && differs(row->pct[side], row->pct_decimals[side], pct, 1))
            add_disagreement(list, pct_names[side], row->pct[side], pct);
    }
    return list;
}

static json_t *score_json(const unit *u, const game_score *s) {
    const pbn_game *g = u->g;
    const pbn_row *row = u->row;
    const pbn_result *res = unit_result(u);
    json_t *j = json_object();
    json_object_set_new(j, "line", json_integer(unit_line(u)));
    json_object_set_new(j, "board", json_string(g->board));
    if (row) {
        json_object_set_new(j, "ns", json_string(row->pair_ns));
        json_object_set_new(j, "ew", json_string(row->pair_ew));
        const char *section = row->section[0] ? row->section : g->section;
        if (g->stage[0]) json_object_set_new(j, "stage", json_string(g->stage));
        if (section[0]) json_object_set_new(j, "section", json_string(section));
        if (row->others) json_object_set_new(j, "others", json_string(row->others));
    }
    if (!s->scored && !s->artificial) {
        json_object_set_new(j, "problem", json_string(s->problem));
        return j;
    }
    if (s->artificial) {
        json_object_set_new(j, "adjusted_ns", json_string(row->adjusted[0]));
        json_object_set_new(j, "adjusted_ew", json_string(row->adjusted[1]));
    } else {
        json_object_set_new(j, "contract", json_string(s->contract));
        json_object_set_new(j, "declarer", seat_json(res->declarer));
        json_object_set_new(j, "score_ns", json_integer(s->ns));
        json_object_set_new(j, "score_ew", json_integer(-s->ns));
    }
    if (!row && res->has_score && res->score_ns != s->ns)
        json_object_set_new(j, "score_tag_ns", json_integer(res->score_ns));
    static const char *const keys[2][3] = {{"matchpoints_ns", "percentage_ns", "articles_ns"},
                                           {"matchpoints_ew", "percentage_ew", "articles_ew"}};
    for (int side = 0; side < 2; side++)
        json_object_set_new(j, keys[side][0],
                            s->has_mp[side] ? json_real(s->mp[side]) : json_null());
    if (!s->imps) json_object_set_new(j, "top", json_real(s->top));
    for (int side = 0; side < 2; side++)
        json_object_set_new(j, keys[side][1],
                            s->has_mp[side] ? json_real(percentage(s, side)) : json_null());
    for (int side = 0; s->imps && side < 2; side++)
        json_object_set_new(j, side ? "imps_ew" : "imps_ns",
                            s->has_imp[side] ? json_real(s->imp[side]) : json_null());
    for (int side = 0; side < 2; side++)
        if (s->articles[side][0])
            json_object_set_new(j, keys[side][2], json_string(s->articles[side]));
    if (row) json_object_set_new(j, "disagreements", disagreements(row, s));
    return j;
}

/* The results of a file, each with what scoring it gave. */
typedef struct scored_file {
    pbn_file f;
    int n;
    unit *units;
    game_score *scores;
    json_t *sessions; /* each field's ScoreTables' rows as a session (its rankings), by key */
    bool directions;  /* its pairs are named with their direction (see score_field) */
} scored_file;

static void scored_file_free(scored_file *sf) {
    json_decref(sf->sessions);
    xfree(sf->units);
    xfree(sf->scores);
    pbn_free(&sf->f);
}

/* Scores and matchpoints every result of the file. */
static enum arb_status score_file(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                  size_t len, const char *name, scored_file *sf, bool *scored,
                                  char **error) {
    memset(sf, 0, sizeof *sf);
    *scored = false;
    if (rs->game && strcmp(rs->game, "bridge") != 0) { /* PBN (2.1) records bridge games */
        char msg[200];
        snprintf(msg, sizeof msg,
                 "ruleset %s is for %s, and a PBN file holds bridge games: give a bridge ruleset "
                 "(`arbiter rulesets` lists them)",
                 rs->name, rs->game);
        return fail(ARB_BAD_INPUT, error, msg);
    }
    pbn_file *f = &sf->f;
    if (!pbn_read(pbn, len, name, f)) return fail(ARB_BAD_INPUT, error, "out of memory");
    if (f->games.len == 0 && !f->nerrors)
        return fail(ARB_BAD_INPUT, error, "no PBN games in the file");
    const scenario_hooks *hooks = p ? plugin_set_hooks(p) : NULL;
    for (int i = 0; i < (int)f->games.len; i++) {
        int rows = VEC_AT(&f->games, pbn_game, i).nrows;
        sf->n += rows ? rows : 1;
    }
    size_t n = sf->n ? (size_t)sf->n : 1;
    sf->units = xcalloc(n, sizeof *sf->units);
    sf->scores = xcalloc(n, sizeof *sf->scores);
    if (!sf->units || !sf->scores) return fail(ARB_BAD_INPUT, error, "out of memory");
    int u = 0;
    for (int i = 0; i < (int)f->games.len; i++) {
        const pbn_game *g = &VEC_AT(&f->games, pbn_game, i);
        for (int k = 0; k < (g->nrows ? g->nrows : 1); k++, u++) {
            unit *un = &sf->units[u];
            *un = (unit){.g = g, .row = g->nrows ? &g->rows[k] : NULL, .game = i};
            game_score *sc = &sf->scores[u];
            if (un->row ? un->row->bad : g->bad)
                snprintf(sc->problem, sizeof sc->problem, "the %s has a mistake (see the messages)",
                         un->row ? "row" : "game");
            else if (un->row && un->row->bye)
                snprintf(sc->problem, sizeof sc->problem,
                         "a bye: a pair sat out, the row has no result");
            else if (un->row && un->row->adjusted[0][0])
                sc->artificial = true;
            else
                score_game(rs, hooks, g, unit_result(un), sc);
        }
    }
    /* a TotalScoreTable with a pair number in each direction (a Direction
     * column alone says where a pair sat first, in a Howell too) */
    bool directions = false;
    for (int i = 0; i < (int)f->games.len; i++) {
        const pbn_game *g = &VEC_AT(&f->games, pbn_game, i);
        for (int k = 0; k < g->ntotals; k++)
            for (int l = 0; l < k; l++)
                directions =
                    directions || (g->totals[k].direction >= 0 && g->totals[l].direction >= 0 &&
                                   g->totals[k].direction != g->totals[l].direction &&
                                   strcmp(g->totals[k].pair, g->totals[l].pair) == 0);
    }
    sf->directions = directions;
    strbuf err;
    sb_init(&err);
    enum arb_status status = ARB_OK;
    *scored =
        matchpoint_direction(rs, hooks, sf->units, sf->n, sf->scores, 0, &err) &&
        matchpoint_direction(rs, hooks, sf->units, sf->n, sf->scores, 1, &err) &&
        score_fields(rs, hooks, sf->units, sf->n, sf->scores, directions, &sf->sessions, &err);
    for (int a = 0; *scored && a < sf->n; a++) { /* each board's scale (see disagreements) */
        const pbn_row *row = sf->units[a].row;
        const game_score *s = &sf->scores[a];
        if (!row || !s->scored || s->imps || !row->has_mp[0] || !row->has_mp[1] || s->top <= 0)
            continue;
        for (int b = 0; b < sf->n; b++)
            if (sf->units[b].g == sf->units[a].g && sf->scores[b].scale == 0)
                sf->scores[b].scale = (row->mp[0] + row->mp[1]) / s->top;
    }
    if (!*scored)
        status = fail(ARB_BAD_INPUT, error, err.data);
    else if (f->nerrors) /* the other games are scored all the same */
        status = fail(ARB_BAD_INPUT, error, f->errors.data);
    sb_free(&err);
    return status;
}

static enum arb_status pbn_score_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                  const char *pbn, size_t len, const char *name,
                                                  char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!rs || !pbn) return fail(ARB_BAD_INPUT, error, "arb_pbn_score_json: no ruleset or no text");
    scored_file sf;
    bool scored;
    enum arb_status status = score_file(rs, p, pbn, len, name, &sf, &scored, error);
    if (scored) {
        json_t *all = json_array();
        for (int u = 0; u < sf.n; u++)
            json_array_append_new(all, score_json(&sf.units[u], &sf.scores[u]));
        give_json(all, json);
    }
    scored_file_free(&sf);
    return status;
}

enum arb_status arb_pbn_score_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                   size_t len, const char *name, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         pbn_score_json_unprotected(rs, p, pbn, len, name, json, error));
}

/* ---- the event's totals ---- */

/* arbiter's ranking of the pair a TotalScoreTable row names: its entry in
 * the session's rankings (the row's direction, or the ranking of pairs
 * that sat both ways), NULL when the ScoreTables do not have it. */
static json_t *ranked_pair(json_t *session, const pbn_total *t, bool named) {
    static const char *const directions[] = {"NS", "EW"};
    size_t i, k;
    json_t *ranking, *pair;
    json_array_foreach(json_object_get(session, "rankings"), i, ranking) {
        const char *d = json_string_value(json_object_get(ranking, "direction"));
        if (!d || (t->direction >= 0 && strcmp(d, "all") != 0 &&
                   strcmp(d, directions[t->direction]) != 0))
            continue;
        char want[32]; /* as score_field named it */
        snprintf(want, sizeof want, "%s%s%s", t->pair, named && t->direction >= 0 ? " " : "",
                 named && t->direction >= 0 ? directions[t->direction] : "");
        json_array_foreach(json_object_get(ranking, "pairs"), k, pair) {
            const char *id = json_string_value(json_object_get(pair, "pair"));
            if (id && strcmp(id, want) == 0) return pair;
        }
    }
    return NULL;
}

/* The pair's matchpoints in its field (key) on the file's scale (each
 * board's: see disagreements), or its IMPs, and how many boards it has
 * them on. */
static double file_scale_total(const scored_file *sf, const pbn_total *t, const char *key,
                               int *boards) {
    double total = 0;
    *boards = 0;
    for (int u = 0; u < sf->n; u++) {
        const pbn_row *row = sf->units[u].row;
        const game_score *s = &sf->scores[u];
        char own[400];
        if (!row) continue;
        unit_key(&sf->units[u], own, sizeof own);
        if (strcmp(own, key) != 0) continue;
        for (int side = 0; side < 2; side++) {
            if ((sf->directions && t->direction >= 0 && t->direction != side) ||
                !(s->imps ? s->has_imp : s->has_mp)[side] ||
                strcmp(side ? row->pair_ew : row->pair_ns, t->pair) != 0)
                continue;
            total += s->imps ? s->imp[side] : s->mp[side] * (s->scale > 0 ? s->scale : 1);
            ++*boards;
        }
    }
    return total;
}

/* A TotalScoreTable row (of game g) against arbiter's ranking of the pair
 * in its field: its game's, or its Section column's. */
static json_t *total_json(const scored_file *sf, const pbn_game *g, const pbn_total *t) {
    static const char *const directions[] = {"NS", "EW"};
    json_t *j = json_pack("{sIss}", "line", (json_int_t)t->line, "pair", t->pair);
    json_object_set_new(j, "direction",
                        t->direction >= 0 ? json_string(directions[t->direction]) : json_null());
    char key[400];
    field_key(g, key, sizeof key);
    const char *section = t->section[0] ? t->section : g->section;
    if (g->stage[0]) json_object_set_new(j, "stage", json_string(g->stage));
    if (section[0]) json_object_set_new(j, "section", json_string(section));
    if (t->others) json_object_set_new(j, "others", json_string(t->others));
    json_t *session = json_object_get(sf->sessions, key);
    json_t *p = json_is_object(session) ? ranked_pair(session, t, sf->directions) : NULL;
    if (t->bad || !p) {
        json_object_set_new(j, "problem",
                            json_string(t->bad ? "the row has a mistake (see the messages)"
                                               : "the ScoreTables give this pair no result"));
        return j;
    }
    static const char *const keys[] = {"rank",       "place",  "matchpoints", "top",
                                       "percentage", "boards", "imps"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (json_object_get(p, keys[k])) json_object_set(j, keys[k], json_object_get(p, keys[k]));
    bool imps = json_object_get(p, "imps") != NULL;
    json_t *list = json_array();
    int rank = (int)json_integer_value(json_object_get(p, "rank"));
    if (t->rank >= 0 && t->rank != rank) add_disagreement(list, "Rank", t->rank, rank);
    int boards;
    double mp = file_scale_total(sf, t, key, &boards);
    double scale = 1;
    for (int u = 0; u < sf->n && scale == 1; u++)
        if (sf->scores[u].scale > 0) scale = sf->scores[u].scale;
    if (imps) /* IMPs: each board's as the file rounds it */
        scale = 1;
    if (t->has_mp && (t->imps != imps || /* a total in IMPs of a field in matchpoints */
                      differs(t->mp, t->mp_decimals, mp, scale * (boards > 0 ? boards : 1))))
        add_disagreement(list, t->mp_column, t->mp, mp);
    double pct = json_number_value(json_object_get(p, "percentage"));
    if (t->has_pct && !imps && differs(t->pct, t->pct_decimals, pct, 1))
        add_disagreement(list, "TotalPercentage", t->pct, pct);
    int played = (int)json_integer_value(json_object_get(p, "boards"));
    if (t->boards >= 0 && t->boards != played)
        add_disagreement(list, "NrBoards", t->boards, played);
    json_object_set_new(j, "disagreements", list);
    return j;
}

static enum arb_status pbn_totals_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                   const char *pbn, size_t len, const char *name,
                                                   char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!rs || !pbn)
        return fail(ARB_BAD_INPUT, error, "arb_pbn_totals_json: no ruleset or no text");
    scored_file sf;
    bool scored;
    enum arb_status status = score_file(rs, p, pbn, len, name, &sf, &scored, error);
    const pbn_game *unranked = scored ? unranked_field(sf.units, sf.n) : NULL;
    if (unranked) {
        status = refuse_unranked(unranked, error);
    } else if (scored) {
        json_t *all = json_array();
        for (int i = 0; i < (int)sf.f.games.len; i++) {
            const pbn_game *g = &VEC_AT(&sf.f.games, pbn_game, i);
            for (int k = 0; k < g->ntotals; k++)
                json_array_append_new(all, total_json(&sf, g, &g->totals[k]));
        }
        if (json_array_size(all) == 0 && status == ARB_OK)
            status = fail_file(error, name, "the file has no TotalScoreTable");
        give_json(all, json);
    }
    scored_file_free(&sf);
    return status;
}

enum arb_status arb_pbn_totals_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                    size_t len, const char *name, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         pbn_totals_json_unprotected(rs, p, pbn, len, name, json, error));
}

/* ---- the file's rows as a session ---- */

/* The game whose field (field_key) is key; NULL when none. */
static const pbn_game *game_of_field(const scored_file *sf, const char *key) {
    char own[400];
    for (int u = 0; u < sf->n; u++) {
        unit_key(&sf->units[u], own, sizeof own);
        if (strcmp(own, key) == 0) return sf->units[u].g;
    }
    return NULL;
}

/* A field's name: its Event, Stage and Section tags where the fields of
 * the file differ in them, " / " between them ("Ladies / A"). */
static void field_name(const scored_file *sf, const pbn_game *g, char *name, size_t size) {
    bool differ[3] = {false, false, false};
    for (int u = 0; u < sf->n; u++) {
        const pbn_game *o = sf->units[u].g;
        differ[0] = differ[0] || strcmp(o->event, g->event) != 0;
        differ[1] = differ[1] || strcmp(o->stage, g->stage) != 0;
        differ[2] = differ[2] || strcmp(o->section, g->section) != 0;
    }
    const char *parts[3] = {g->event, g->stage, g->section};
    size_t at = 0;
    name[0] = 0;
    for (int k = 0; k < 3 && at < size; k++)
        if (differ[k])
            at += (size_t)snprintf(name + at, size - at, "%s%s", at ? " / " : "", parts[k]);
}

static void append_with_field(json_t *to, json_t *items, const char *field) {
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        json_t *copy = json_copy(item);
        json_object_set_new(copy, "field", json_string(field));
        json_array_append_new(to, copy);
    }
}

/* The ScoreTables' rows as one session's answer: the one field's session,
 * or, for an event of several fields, every field's boards, rankings and
 * notes one after the other, each with its "field". NULL when no row is
 * scored. */
static json_t *file_session(const scored_file *sf) {
    json_t *all = NULL, *session;
    const char *key;
    int fields = 0;
    json_object_foreach(sf->sessions, key, session) fields += !json_is_null(session);
    json_object_foreach(sf->sessions, key, session) {
        if (json_is_null(session)) continue;
        if (fields == 1) return json_incref(session);
        const pbn_game *g = game_of_field(sf, key);
        char name[200] = "";
        if (g) field_name(sf, g, name, sizeof name);
        if (!all)
            all = json_pack("{sO s[] s[] s[]}", "method", json_object_get(session, "method"),
                            "boards", "rankings", "notes");
        static const char *const lists[] = {"boards", "rankings", "notes"};
        for (int k = 0; k < 3; k++)
            append_with_field(json_object_get(all, lists[k]), json_object_get(session, lists[k]),
                              name);
    }
    return all;
}

static enum arb_status pbn_session_json_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                                    const char *pbn, size_t len, const char *name,
                                                    char **json, char **error) {
    if (json) *json = NULL;
    if (error) *error = NULL;
    if (!rs || !pbn)
        return fail(ARB_BAD_INPUT, error, "arb_pbn_session_json: no ruleset or no text");
    scored_file sf;
    bool scored;
    enum arb_status status = score_file(rs, p, pbn, len, name, &sf, &scored, error);
    const pbn_game *unranked = scored ? unranked_field(sf.units, sf.n) : NULL;
    if (unranked) {
        status = refuse_unranked(unranked, error);
        scored = false;
    }
    json_t *session = scored ? file_session(&sf) : NULL;
    if (scored && !session && status == ARB_OK)
        status = fail_file(error, name, "the file has no ScoreTable row that can be scored");
    if (session) give_json(session, json);
    scored_file_free(&sf);
    return status;
}

enum arb_status arb_pbn_session_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                     size_t len, const char *name, char **json, char **error) {
    API_ANSWER_PROTECTED(json, error,
                         pbn_session_json_unprotected(rs, p, pbn, len, name, json, error));
}

/* ---- the file written back ---- */

/* Whether the line at p (up to the end of the line) is one of the tags the
 * results replace, alone on its line. */
static bool replaced_tag_line(const char *p, const char *end) {
    static const char *const tags[] = {"[Score ", "[ScoreMP ", "[ScorePercentage "};
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    while (stop > p && (stop[-1] == '\r' || stop[-1] == ' ' || stop[-1] == '\t'))
        stop--;
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        if ((size_t)(stop - p) > strlen(tags[i]) && strncmp(p, tags[i], strlen(tags[i])) == 0 &&
            stop[-1] == ']' && !memchr(p + 1, '[', (size_t)(stop - p - 1)))
            return true;
    return false;
}

static void number_text(char *buf, size_t size, double v) {
    if (v == floor(v))
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.2f", v);
}

static void result_tags(strbuf *out, const game_score *s, const char *eol) {
    char ns[32], ew[32];
    sb_printf(out, "[Score \"NS %lld EW %lld\"]%s", (long long)s->ns, (long long)-s->ns, eol);
    number_text(ns, sizeof ns, s->mp[0]);
    number_text(ew, sizeof ew, s->mp[1]);
    sb_printf(out, "[ScoreMP \"NS %s EW %s\"]%s", ns, ew, eol);
    number_text(ns, sizeof ns, percentage(s, 0));
    number_text(ew, sizeof ew, percentage(s, 1));
    sb_printf(out, "[ScorePercentage \"NS %s EW %s\"]%s", ns, ew, eol);
}

/* One game as it was read, its old result tags dropped and the new ones
 * put before its auction or play section (or at its end). */
static void write_game(strbuf *out, const char *text, const pbn_game *g, const game_score *s,
                       const char *eol) {
    const char *p = text + g->start, *end = text + g->end;
    bool written = !s->scored;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        if (!written && (strncmp(p, "[Auction ", 9) == 0 || strncmp(p, "[Play ", 6) == 0)) {
            result_tags(out, s, eol);
            written = true;
        }
        if (!replaced_tag_line(p, next)) sb_putn(out, p, (size_t)(next - p));
        p = next;
    }
    if (!written) {
        if (out->len && out->data[out->len - 1] != '\n') sb_puts(out, eol);
        result_tags(out, s, eol);
    }
}

static enum arb_status pbn_results_unprotected(const arb_ruleset *rs, const arb_plugins *p,
                                               const char *pbn, size_t len, const char *name,
                                               char **out, char **error) {
    if (out) *out = NULL;
    if (error) *error = NULL;
    if (!rs || !pbn) return fail(ARB_BAD_INPUT, error, "arb_pbn_results: no ruleset or no text");
    scored_file sf;
    bool scored;
    enum arb_status status = score_file(rs, p, pbn, len, name, &sf, &scored, error);
    if (scored) {
        const char *eol = "\n"; /* as the file has it: CRLF in export format (2.3) */
        for (size_t i = 0; i + 1 < len; i++)
            if (pbn[i] == '\r' && pbn[i + 1] == '\n') {
                eol = "\r\n";
                break;
            }
        strbuf text;
        sb_init(&text);
        size_t copied = 0; /* what lies before and between the games (escape lines, blank lines) */
        for (int u = 0; u < sf.n; u++) {
            const unit *un = &sf.units[u];
            const pbn_game *g = un->g;
            if (un->row && un->row != g->rows) continue; /* a ScoreTable's game: once, as read */
            sb_putn(&text, pbn + copied, g->start - copied);
            if (un->row)
                sb_putn(&text, pbn + g->start, g->end - g->start);
            else
                write_game(&text, pbn, g, &sf.scores[u], eol);
            copied = g->end;
        }
        sb_putn(&text, pbn + copied, len - copied);
        if (out) *out = xstrdup(text.data ? text.data : "");
        sb_free(&text);
    }
    scored_file_free(&sf);
    return status;
}

enum arb_status arb_pbn_results(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                size_t len, const char *name, char **out, char **error) {
    API_ANSWER_PROTECTED(out, error, pbn_results_unprotected(rs, p, pbn, len, name, out, error));
}

/* ---- the export format ---- */

static enum arb_status pbn_export_unprotected(const char *pbn, size_t len, const char *name,
                                              char **out, char **error) {
    if (out) *out = NULL;
    if (error) *error = NULL;
    if (!pbn) return fail(ARB_BAD_INPUT, error, "arb_pbn_export: no text");
    /* A Latin-1 file (the standard's own character set) is written in
     * UTF-8, as the reader takes its values: the export is text any JSON
     * can carry ({"pbn": text}), where jansson refused it. A NUL is left
     * for the reader to report. */
    char *utf8 = NULL;
    if (utf8_bad_byte(pbn, len) < len && !memchr(pbn, 0, len)) {
        utf8 = xmalloc(2 * len + 1);
        len = utf8_from_latin1(utf8, 2 * len + 1, pbn, len);
        pbn = utf8;
    }
    pbn_file f;
    enum arb_status status = read_games(pbn, len, name, &f, error);
    if (status == ARB_OK && out) {
        strbuf text, err;
        sb_init(&text);
        sb_init(&err);
        if (pbn_export(pbn, len, &f, name, &text, &err)) {
            *out = sb_take(&text);
        } else {
            status = fail(ARB_BAD_INPUT, error, err.data);
            sb_free(&text);
        }
        sb_free(&err);
    }
    pbn_free(&f);
    xfree(utf8);
    return status;
}

enum arb_status arb_pbn_export(const char *pbn, size_t len, const char *name, char **out,
                               char **error) {
    API_ANSWER_PROTECTED(out, error, pbn_export_unprotected(pbn, len, name, out, error));
}
