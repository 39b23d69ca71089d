/* adjusted.c — a board of a score sheet with adjusted scores: weighted
 * scores (12C1c), artificial scores (12C2), procedural penalties (90A), a
 * board played fewer times or split into groups. The arithmetic is the
 * core's (as it adds up `points`); what a score is worth is the rule
 * files': the matchpoints article (78A) for each comparison, and the
 * adjusted-score article (header key `adjusted`, bridge-2017: 12C) for an
 * artificial score's percentage and a penalty's size, and for the
 * factoring method and the rounding that article, or the article its
 * `board` clause names (bridge-2017: 78D). What the sheet knows besides
 * an entry (its scale, the session, an adjusted score on the board) goes
 * to those rulings as record facts; which articles that brings in is the
 * rule files'. */
#include "scoring.h"

#include "bridge.h"
#include "output.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading an entry ---- */

#define SCORE_LIMIT 100000 /* a bridge score is at most 7600 either way */

/* The artificial scores a sheet may write, and what they ask the article. */
static const struct {
    const char *mark, *adjusted;
} artificial_marks[] = {
    {"A+", "average_plus"},  {"G+", "average_plus"},  {"A=", "average"},
    {"A", "average"},        {"G", "average"},        {"G=", "average"},
    {"A-", "average_minus"}, {"G-", "average_minus"},
};

static const char *skip_spaces(const char *p) {
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A whole number at *p (an optional sign, digits), within ±limit. */
static bool read_number(const char **p, int64_t limit, int64_t *v) {
    const char *s = *p;
    bool negative = *s == '-';
    if (*s == '-' || *s == '+') s++;
    if (!isdigit((unsigned char)*s)) return false;
    int64_t n = 0;
    while (isdigit((unsigned char)*s)) {
        n = n * 10 + (*s++ - '0');
        if (n > limit) return false;
    }
    *v = negative ? -n : n;
    *p = s;
    return true;
}

/* "N%" at *p, 0 to 100. */
static bool read_percent(const char **p, int64_t *v) {
    const char *s = *p;
    if (*s == '-' || *s == '+' || !read_number(&s, 100, v) || *s != '%') return false;
    *p = s + 1;
    return true;
}

/* Who declared a contract, when the result names the side or a seat
 * first ("EW 4H-1", "N 4S="; Dutch NZ, OW, Z, O too): 1 north-south, 2
 * east-west, and *p moves past it; 0 when it does not. */
static int read_declarer(const char **p) {
    static const struct {
        const char *word;
        int side;
    } words[] = {{"NS", 1}, {"NZ", 1}, {"EW", 2}, {"OW", 2}, {"N", 1},
                 {"S", 1},  {"Z", 1},  {"E", 2},  {"W", 2},  {"O", 2}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t n = strlen(words[i].word);
        bool same = true;
        for (size_t k = 0; k < n; k++)
            same = same && toupper((unsigned char)(*p)[k]) == words[i].word[k];
        if (same && ((*p)[n] == ' ' || (*p)[n] == '\t')) {
            *p = skip_spaces(*p + n);
            return words[i].side;
        }
    }
    return 0;
}

/* One result of a weighted score at *p: a score, or a contract with its
 * result as `arbiter score` reads it (4S=, 4SX+1, PASS), the declaring
 * side or seat before it when it is not the column's own side. */
static bool read_result(const char **p, score_part *part, char *msg, size_t msgsz) {
    const char *s = *p;
    int declarer = read_declarer(&s);
    if (!declarer && read_number(&s, SCORE_LIMIT, &part->score) &&
        (!*s || *s == ' ' || *s == '\t' || *s == '+')) {
        *p = s;
        return true;
    }
    s = declarer ? s : *p;
    size_t n = strcspn(s, " \t");
    for (size_t i = 0; i < n; i++) /* "4S=+70% 4S-1": the + before a weight ends it */
        if (s[i] == '+' && isdigit((unsigned char)s[i + 1]) &&
            s[i + 1 + strspn(s + i + 1, "0123456789")] == '%')
            n = i;
    char why[200];
    bridge_contract c;
    if (n == 0 || n >= sizeof part->contract) return false;
    memcpy(part->contract, s, n);
    part->contract[n] = 0;
    if (!bridge_parse_contract(part->contract, &c, why, sizeof why)) {
        if (!declarer && !isdigit((unsigned char)*s) && toupper((unsigned char)*s) != 'P')
            return false;
        snprintf(msg, msgsz, "a result of a weighted score: %s", why);
        return false;
    }
    part->declarer = declarer;
    *p = s + n;
    return true;
}

/* A weighted score: "30% 420 + 70% -50", two to SHEET_MAX_PARTS results
 * whose weights add up to 100; a result may be a contract ("30% 4S= + 70%
 * EW 4H-1"), and the + between them may be left out. */
static bool read_weighted(const char *s, sheet_entry *e, char *msg, size_t msgsz) {
    int total = 0;
    for (;;) {
        int64_t percent;
        score_part part = {0};
        s = skip_spaces(s);
        if (!read_percent(&s, &percent)) break;
        s = skip_spaces(s);
        msg[0] = 0;
        if (!read_result(&s, &part, msg, msgsz)) {
            if (msg[0]) return false;
            break;
        }
        if (e->nparts == SHEET_MAX_PARTS) {
            snprintf(msg, msgsz, "a weighted score has at most %d results", SHEET_MAX_PARTS);
            return false;
        }
        if (percent == 0) {
            snprintf(msg, msgsz, "a result of a weighted score has a weight above 0%%");
            return false;
        }
        part.percent = (int)percent;
        e->contracts = e->contracts || part.contract[0];
        e->parts[e->nparts++] = part;
        total += (int)percent;
        s = skip_spaces(s);
        if (!*s) {
            if (total == 100 && e->nparts >= 2) return true;
            snprintf(msg, msgsz, "the weights of a weighted score add up to 100%%, not %d%%%s",
                     total, e->nparts < 2 ? " (and it has two results or more)" : "");
            return false;
        }
        if (*s == '+') s++;
    }
    snprintf(msg, msgsz,
             "expected a weighted score: weights and results, as 30%% 420 + 70%% -50 or 30%% 4S= "
             "+ 70%% EW 4H-1");
    return false;
}

/* The penalty at the end of the entry ("P" or "P10%"), cut off. */
static bool read_penalty(char *buf, sheet_entry *e, char *msg, size_t msgsz) {
    char *last = strrchr(buf, ' ');
    char *word = last ? last + 1 : buf;
    if (toupper((unsigned char)word[0]) != 'P' || toupper((unsigned char)word[1]) == 'A')
        return true;
    const char *p = word + 1;
    int64_t percent = 0;
    if (*p && (!read_percent(&p, &percent) || *p)) {
        snprintf(msg, msgsz,
                 "a procedural penalty is P (the ruleset's size) or P with a percentage of a top, "
                 "as P10%%");
        return false;
    }
    e->penalty = word[1] ? "penalty_percentage" : "procedural_penalty";
    e->penalty_percentage = (int)percent;
    if (!last) {
        snprintf(msg, msgsz, "a procedural penalty follows the pair's score, as 420 P");
        return false;
    }
    *last = 0;
    return true;
}

/* U+2212 (minus sign) and U+2013 (en dash) as '-': a sheet typed in a
 * word processor has them. */
static void plain_minus(const char *text, char *buf, size_t size) {
    size_t o = 0;
    for (const char *p = text; *p && o + 1 < size; p++) {
        if ((unsigned char)p[0] == 0xE2 &&
            (((unsigned char)p[1] == 0x88 && (unsigned char)p[2] == 0x92) ||
             ((unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x93))) {
            buf[o++] = '-';
            p += 2;
        } else {
            buf[o++] = *p;
        }
    }
    while (o > 0 && (buf[o - 1] == ' ' || buf[o - 1] == '\t'))
        o--;
    buf[o] = 0;
}

static bool read_artificial(const char *s, sheet_entry *e) {
    for (size_t i = 0; i < sizeof artificial_marks / sizeof *artificial_marks; i++) {
        const char *m = artificial_marks[i].mark;
        if (toupper((unsigned char)s[0]) == m[0] && strcmp(s + 1, m + 1) == 0) {
            e->kind = ENTRY_ARTIFICIAL;
            e->adjusted = artificial_marks[i].adjusted;
            return true;
        }
    }
    int64_t percent;
    const char *p = s;
    if (read_percent(&p, &percent) && !*skip_spaces(p)) {
        e->kind = ENTRY_ARTIFICIAL;
        e->adjusted = "percentage";
        e->percentage = (int)percent;
        return true;
    }
    return false;
}

bool sheet_parse_entry(const char *text, sheet_entry *e, char *msg, size_t msgsz) {
    char buf[256];
    memset(e, 0, sizeof *e);
    plain_minus(skip_spaces(text), buf, sizeof buf);
    if (!read_penalty(buf, e, msg, msgsz)) return false;
    const char *s = buf;
    int64_t score;
    if (strcmp(s, "-") == 0 || strcmp(s, "NP") == 0 || strcmp(s, "np") == 0) {
        e->kind = ENTRY_NOT_PLAYED;
        if (!e->penalty) return true;
        snprintf(
            msg, msgsz,
            "a board not played carries no procedural penalty: give the pair an adjusted score");
        return false;
    }
    if (read_artificial(s, e)) return true;
    if (isdigit((unsigned char)*s) && s[strspn(s, "0123456789")] == '%' &&
        !*skip_spaces(s + strspn(s, "0123456789") + 1)) {
        snprintf(msg, msgsz, "an artificial score as a percentage is 0%% to 100%%");
        return false;
    }
    if (strchr(s, '%')) {
        e->kind = ENTRY_WEIGHTED;
        return read_weighted(s, e, msg, msgsz);
    }
    const char *p = s;
    if (*s && read_number(&p, SCORE_LIMIT, &score) && !*skip_spaces(p)) {
        e->kind = ENTRY_SCORE;
        e->nparts = 1;
        e->parts[0] = (score_part){.score = score, .percent = 100};
        return true;
    }
    const char *digits = s + (*s == '-' || *s == '+');
    if (isdigit((unsigned char)*digits) && !*skip_spaces(digits + strspn(digits, "0123456789"))) {
        snprintf(msg, msgsz,
                 "a score is a whole number from %d to %d (a bridge score is at most "
                 "7600 either way)",
                 -SCORE_LIMIT, SCORE_LIMIT);
        return false;
    }
    snprintf(
        msg, msgsz,
        "expected a score (a whole number), a weighted score (30%% 420 + 70%% -50), an artificial "
        "score "
        "(A+, A=, A-, G+, G, G-, 60%%) or - (not played), and then P for a procedural penalty");
    return false;
}

/* ---- what the adjusted-score article says ---- */

/* An int or enum argument of the ruling's actions by parameter name; the
 * first action that has it. */
static bool ruling_argument(const ruleset *rs, const ruling *r, const char *name, int64_t *value,
                            const char **symbol) {
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        if (r->actions[i].dropped) continue;
        const rs_action *a = &rs->actions[rs_use_at(rs, r->actions[i].use)->action];
        for (int p = 0; p < a->nparams; p++) {
            if (strcmp(a->params[p].name, name) != 0) continue;
            int64_t v = r->actions[i].args[p];
            *value = v;
            if (symbol && a->params[p].type->kind == TY_ENUM)
                *symbol =
                    v >= 0 && v < a->params[p].type->nvalues ? a->params[p].type->values[v] : NULL;
            return true;
        }
    }
    return false;
}

void scoring_cite_append(char *out, size_t size, const char *trail) {
    size_t n = strlen(trail), o = strlen(out);
    if (n == 0) return;
    for (const char *p = out; (p = strstr(p, trail)) != NULL; p++)
        if ((p == out || (p - out >= 2 && p[-2] == ';')) && (p[n] == 0 || p[n] == ';')) return;
    if (o + 1 < size) snprintf(out + o, size - o, "%s%s", o ? "; " : "", trail);
}

void scoring_cite_ruling(const ruling *r, char *out, size_t size) {
    const char *cites[16];
    char one[SCORING_CITED] = "";
    int n = ruling_trail(r, cites, 16);
    size_t o = 0;
    for (int i = 0; i < n && i < 16 && o + 1 < sizeof one; i++) {
        int w = snprintf(one + o, sizeof one - o, "%s%s", i ? " > " : "", cites[i]);
        o = w > 0 && (size_t)w < sizeof one - o ? o + (size_t)w : sizeof one - 1;
    }
    scoring_cite_append(out, size, one);
}

/* Rules with the adjusted-score article on scoring.adjusted = adjusted
 * (scoring.board = board when it is above 0); the caller clears r and
 * frees sc. */
static bool adjusted_rule_on_board(const ruleset *rs, const scenario_hooks *hooks, int article,
                                   const char *adjusted, int percentage, int64_t board,
                                   const sheet_facts *facts, scenario *sc, ruling *r, strbuf *err) {
    scenario_init(sc, rs);
    sc->hooks = hooks;
    sc->rec.has_scoring = true;
    sc->rec.adjusted = adjusted;
    sc->rec.percentage = percentage;
    sc->rec.board = board;
    if (facts) {
        sc->rec.in_imps = facts->in_imps;
        sc->rec.session_known = facts->session_known;
        sc->rec.session_passes = facts->session_passes;
        sc->rec.board_adjusted = facts->board_adjusted;
    }
    int64_t unused;
    return scenario_apply_record(sc, err) && scoring_rule(rs, article, sc, r, &unused, err);
}

static void ruling_cite_argument(const ruleset *rs, const ruling *r, const char *name, char *out,
                                 size_t size);

bool sheet_entry_adjusted(const sheet_entry *e) {
    return e->kind == ENTRY_ARTIFICIAL || e->kind == ENTRY_WEIGHTED;
}

/* The adjusted-score article's ruling on scoring.adjusted = adjusted, or,
 * where it names the article that holds such entries (a cite argument
 * `methods`: a board's scoring methods, bridge-2017's 78D; `held_in`: a
 * procedural penalty, 90A), that article's ruling on the same facts, with
 * its own trail: the line names the article that decided it. The caller
 * clears r and frees sc. */
static bool adjusted_rule(const ruleset *rs, const scenario_hooks *hooks, int article,
                          const char *adjusted, int percentage, const sheet_facts *facts,
                          scenario *sc, ruling *r, strbuf *err) {
    if (!adjusted_rule_on_board(rs, hooks, article, adjusted, percentage, 0, facts, sc, r, err))
        return false;
    char id[32] = "";
    ruling_cite_argument(rs, r, "methods", id, sizeof id);
    if (!id[0]) ruling_cite_argument(rs, r, "held_in", id, sizeof id);
    if (!id[0]) return true;
    int held = rs_find_article(rs, id);
    if (held < 0) {
        sb_printf(err, "article %s names article %s for '%s', which the ruleset does not have",
                  rs->articles[article].id, id, adjusted);
        return false;
    }
    ruling_clear(r);
    scenario_free(sc);
    return adjusted_rule_on_board(rs, hooks, held, adjusted, percentage, 0, facts, sc, r, err);
}

bool adjusted_cite(const ruleset *rs, const scenario_hooks *hooks, int article,
                   const char *adjusted, char *cited, size_t citedsz, strbuf *err) {
    scenario sc;
    ruling r = {0};
    bool ok = adjusted_rule(rs, hooks, article, adjusted, 0, NULL, &sc, &r, err);
    if (ok) scoring_cite_ruling(&r, cited, citedsz);
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

/* Rules with the adjusted-score article on one question; the answer is the
 * argument `want` of its actions. */
bool adjusted_ask(const ruleset *rs, const scenario_hooks *hooks, int article, const char *adjusted,
                  int percentage, const sheet_facts *facts, const char *want, int64_t *value,
                  const char **symbol, char *cited, size_t citedsz, strbuf *err) {
    scenario sc;
    ruling r = {0};
    bool ok = adjusted_rule(rs, hooks, article, adjusted, percentage, facts, &sc, &r, err);
    if (ok && !ruling_argument(rs, &r, want, value, symbol)) {
        /* what the ruling says instead (e.g. that these laws know no such
         * score): its own words are what a scorer can act on */
        sb_printf(err, "article %s gives no %s for '%s'", rs->articles[article].id, want, adjusted);
        for (int i = 0; i < r.nactions; i++) {
            sb_puts(err, i ? " " : ": ");
            output_message(rs, &r.actions[i], true, err);
        }
        ok = false;
    }
    if (ok && cited) scoring_cite_ruling(&r, cited, citedsz);
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

/* The cite argument `name` of the ruling's actions as text, into out. */
static void ruling_cite_argument(const ruleset *rs, const ruling *r, const char *name, char *out,
                                 size_t size) {
    for (int i = 0; !r->replaced && i < r->nactions; i++) {
        if (r->actions[i].dropped) continue;
        const rs_action *a = &rs->actions[rs_use_at(rs, r->actions[i].use)->action];
        for (int p = 0; p < a->nparams; p++) {
            if (strcmp(a->params[p].name, name) != 0 || a->params[p].type->kind != TY_CITE)
                continue;
            strbuf text;
            sb_init(&text);
            rs_format_value(rs, a->params[p].type, r->actions[i].args[p], FMT_NAME, &text);
            snprintf(out, size, "%s", text.data ? text.data : "");
            sb_free(&text);
            return;
        }
    }
}

bool adjusted_session_exception(const ruleset *rs, const scenario_hooks *hooks, int article,
                                const char *adjusted, int percentage, const sheet_facts *facts,
                                session_exception *out, strbuf *err) {
    scenario sc;
    ruling r = {0};
    memset(out, 0, sizeof *out);
    bool ok = adjusted_rule(rs, hooks, article, adjusted, percentage, facts, &sc, &r, err);
    int64_t kind;
    if (ok && ruling_argument(rs, &r, "exception", &kind, &out->kind) && out->kind &&
        strcmp(out->kind, "none") != 0) {
        if (!ruling_argument(rs, &r, "session_percent", &out->percent, NULL) ||
            !ruling_argument(rs, &r, "session_imps", &out->imps, NULL)) {
            sb_printf(err,
                      "the ruling of article %s on '%s' names an exception for the session "
                      "without the arguments `session_percent` and `session_imps`",
                      rs->articles[article].id, adjusted);
            ok = false;
        } else if (strcmp(out->kind, "above") != 0 && strcmp(out->kind, "below") != 0) {
            sb_printf(err,
                      "the ruling of article %s on '%s' names the exception '%s' for the "
                      "session, not one the core knows (above, below, none)",
                      rs->articles[article].id, adjusted, out->kind);
            ok = false;
        }
        ruling_cite_argument(rs, &r, "article", out->article, sizeof out->article);
    } else {
        out->kind = NULL;
    }
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

bool adjusted_board_method(const ruleset *rs, const scenario_hooks *hooks, int article,
                           const sheet_facts *facts, const char **method, char *cited,
                           size_t citedsz, strbuf *message, strbuf *message_en, strbuf *err) {
    scenario sc;
    ruling r = {0};
    int64_t unused;
    *method = NULL;
    bool ok = adjusted_rule(rs, hooks, article, "board", 0, facts, &sc, &r, err);
    if (ok && (!ruling_argument(rs, &r, "method", &unused, method) || !*method)) {
        sb_printf(err, "the ruling of article %s on 'board' names no factoring method",
                  rs->articles[article].id);
        ok = false;
    }
    for (int i = 0; ok && !r.replaced && i < r.nactions; i++) {
        const rs_action *a = &rs->actions[rs_use_at(rs, r.actions[i].use)->action];
        bool has_method = false;
        for (int p = 0; p < a->nparams; p++)
            has_method = has_method || strcmp(a->params[p].name, "method") == 0;
        if (r.actions[i].dropped || !has_method) continue;
        if (message) output_message(rs, &r.actions[i], false, message);
        if (message_en) output_message(rs, &r.actions[i], true, message_en);
        break;
    }
    if (ok && cited) scoring_cite_ruling(&r, cited, citedsz);
    ruling_clear(&r);
    scenario_free(&sc);
    return ok;
}

/* ---- a weighted score's contracts ---- */

/* The board's number: the digits before a group's slash ("7/a": 7). */
static int64_t board_number(const char *board) {
    int64_t n = 0;
    size_t i = 0;
    for (; isdigit((unsigned char)board[i]) && n <= 100000; i++)
        n = n * 10 + (board[i] - '0');
    return i > 0 && (board[i] == 0 || board[i] == '/') && n <= 100000 ? n : 0;
}

bool sheet_score_contracts(const ruleset *rs, const scenario_hooks *hooks, const char *board,
                           int side, sheet_entry *e, strbuf *err) {
    if (!e->contracts || e->scored) return true;
    int64_t number = board_number(board);
    if (number <= 0) {
        if (board[0])
            sb_printf(err,
                      "a weighted score's contracts are scored as the board is vulnerable: the "
                      "board is a number (7, or 7/a for a group), not '%s'",
                      board);
        else
            sb_puts(err, "a weighted score's contracts are scored as the board is vulnerable: "
                         "give board,pair,score lines with the board's number");
        return false;
    }
    int article = scoring_article(rs, SCORE_ADJUSTED, err);
    if (article < 0) return false;
    scenario sc;
    ruling r = {0};
    int64_t unused;
    const char *vul = NULL;
    bool ok = adjusted_rule_on_board(rs, hooks, article, "contract", 0, number, NULL, &sc, &r, err);
    if (ok && (!ruling_argument(rs, &r, "vulnerable", &unused, &vul) || !vul)) {
        sb_printf(err,
                  "the ruling of article %s on a weighted score's contract names no action with "
                  "the argument `vulnerable`",
                  rs->articles[article].id);
        ok = false;
    }
    if (ok) scoring_cite_ruling(&r, e->cited, sizeof e->cited);
    ruling_clear(&r);
    scenario_free(&sc);
    bool ns_vul = vul && (strcmp(vul, "north_south") == 0 || strcmp(vul, "both") == 0);
    bool ew_vul = vul && (strcmp(vul, "east_west") == 0 || strcmp(vul, "both") == 0);
    if (ok && !ns_vul && !ew_vul && strcmp(vul, "nobody") != 0) {
        sb_printf(err,
                  "article %s gives the vulnerability '%s', not one the core knows (nobody, "
                  "north_south, east_west, both)",
                  rs->articles[article].id, vul);
        ok = false;
    }
    for (int k = 0; ok && k < e->nparts; k++) {
        score_part *part = &e->parts[k];
        if (!part->contract[0]) continue;
        int declarer = part->declarer ? part->declarer - 1 : side; /* 0 NS, 1 EW */
        int64_t total = 0;
        scenario_init(&sc, rs);
        sc.hooks = hooks;
        ok = scoring_contract(rs, &sc, part->contract, declarer == 0 ? ns_vul : ew_vul, &r, &total,
                              err);
        if (ok) scoring_cite_ruling(&r, e->cited, sizeof e->cited);
        ruling_clear(&r);
        scenario_free(&sc);
        part->score = declarer == side ? total : -total;
    }
    e->scored = ok;
    return ok;
}

/* ---- a board ---- */

/* What the regulation says for the whole board, and its top; the trails
 * of the rulings a line's figure may come from. */
typedef struct board_rules {
    int mp_article, adj_article;
    int full;           /* N: the board's entries, every group, not played too */
    double top;         /* what beating the N - 1 others is worth */
    double equal_unit;  /* what one equal score is worth (Neuberg) */
    const char *method; /* a value of the factoring method */
    int artificial;     /* the board's artificial entries */
    int decimals;
    char mp_cited[SCORING_CITED];       /* the matchpoints article's: a comparison */
    char board_cited[SCORING_CITED];    /* the adjusted-score article's on the board */
    char weighted_cited[SCORING_CITED]; /* its ruling on a weighted score */
} board_rules;

/* The matchpoints of one score; its ruling's trail appended to cited
 * unless that is NULL. */
static bool mp_of(const ruleset *rs, const scenario_hooks *hooks, const board_rules *b,
                  int64_t beaten, int64_t equalled, int64_t others, double *out, char *cited,
                  size_t citedsz, strbuf *err) {
    int64_t mp;
    if (!scoring_matchpoints_cited(rs, hooks, b->mp_article, beaten, equalled, others, &mp, cited,
                                   citedsz, err))
        return false;
    *out = (double)mp;
    return true;
}

static bool board_rules_of(const ruleset *rs, const scenario_hooks *hooks, int full, bool adjusted,
                           board_rules *b, strbuf *err) {
    sheet_facts facts = {.board_adjusted = adjusted ? 2 : 1};
    b->full = full;
    b->mp_article = scoring_article(rs, SCORE_MATCHPOINTS, err);
    b->adj_article = b->mp_article < 0 ? -1 : scoring_article(rs, SCORE_ADJUSTED, err);
    if (b->adj_article < 0) return false;
    double none_equal, one_equal;
    int64_t decimals = 2;
    b->method = NULL;
    b->mp_cited[0] = b->board_cited[0] = b->weighted_cited[0] = 0;
    if (!mp_of(rs, hooks, b, full - 1, 0, full - 1, &b->top, b->mp_cited, sizeof b->mp_cited,
               err) || /* the top, and the comparison's trail */
        !mp_of(rs, hooks, b, 0, 0, 1, &none_equal, NULL, 0, err) ||
        !mp_of(rs, hooks, b, 0, 1, 1, &one_equal, NULL, 0, err) ||
        !adjusted_ask(rs, hooks, b->adj_article, "board", 0, &facts, "method", &(int64_t){0},
                      &b->method, b->board_cited, sizeof b->board_cited, err) ||
        !adjusted_ask(rs, hooks, b->adj_article, "board", 0, &facts, "decimals", &decimals, NULL,
                      NULL, 0, err))
        return false;
    b->equal_unit = one_equal - none_equal;
    if (decimals < 0 || decimals > 6 || !b->method) {
        sb_printf(err, "article %s gives %s", rs->articles[b->adj_article].id,
                  b->method ? "a rounding outside 0 to 6 decimals" : "no factoring method");
        return false;
    }
    b->decimals = (int)decimals;
    return true;
}

/* The comparable entries of one group: their rows' indices. */
typedef struct group {
    const char *name;
    int n, *rows;
} group;

static const char *group_of(const score_line *row) {
    const char *slash = strchr(row->board, '/');
    return slash ? slash + 1 : "";
}

/* How many combinations of the weighted scores' results one group may be
 * matchpointed over: each a ruling per score. */
#define MAX_WORLDS 4096
#define MAX_WORLD_RULINGS 200000

/* The expected matchpoints of each comparable entry over every
 * combination of the weighted scores' results, each combination weighted
 * by the product of its results' weights: a weighted score gets its
 * results' matchpoints weighted (the guide's 25% of 16 plus 75% of 4), and
 * every other score its comparison with each result, weighted. */
static bool group_expected(const ruleset *rs, const scenario_hooks *hooks, score_line **rows,
                           const group *g, double *expected, strbuf *err) {
    long worlds = 1;
    for (int k = 0; k < g->n; k++) {
        worlds *= rows[g->rows[k]]->entry.nparts;
        if (worlds > MAX_WORLDS || worlds * g->n > MAX_WORLD_RULINGS) {
            sb_printf(err,
                      "line %d: too many weighted scores on board %s to combine their results "
                      "(more than %d ways)",
                      rows[g->rows[k]]->line, rows[0]->board, MAX_WORLDS);
            return false;
        }
    }
    size_t count = g->n > 0 ? (size_t)g->n : 1;
    int64_t *scores = xcalloc(count, sizeof *scores), *mp = xcalloc(count, sizeof *mp);
    int *pick = xcalloc(count, sizeof *pick);
    bool ok = scores && mp && pick;
    if (!ok) sb_puts(err, "out of memory");
    for (int k = 0; k < g->n; k++)
        expected[k] = 0;
    for (long w = 0; ok && w < worlds; w++) {
        double weight = 1;
        for (int k = 0; k < g->n; k++) {
            const score_part *part = &rows[g->rows[k]]->entry.parts[pick[k]];
            scores[k] = part->score;
            weight *= part->percent / 100.0;
        }
        ok = scoring_matchpoints(rs, hooks, scores, g->n, mp, err);
        for (int k = 0; ok && k < g->n; k++)
            expected[k] += weight * (double)mp[k];
        for (int k = 0; k < g->n && ++pick[k] == rows[g->rows[k]]->entry.nparts; k++)
            pick[k] = 0;
    }
    xfree(scores);
    xfree(mp);
    xfree(pick);
    return ok;
}

/* Whether the board's method changes the matchpoints of a group of n
 * comparable scores: factoring to N entries when n < N, or 1963's equal
 * comparison with each artificial entry. */
static bool factoring_applies(const board_rules *b, int n) {
    return strcmp(b->method, "equal_comparison") == 0 ? b->artificial > 0 : n < b->full;
}

/* n comparable scores brought to the board's N entries. */
static bool factored(const ruleset *rs, const scenario_hooks *hooks, const board_rules *b, int n,
                     double mp, double *out, strbuf *err) {
    *out = mp;
    if (strcmp(b->method, "equal_comparison") ==
        0) { /* each adjusted entry as an equal score (1963 Art. 81) */
        *out = mp + b->artificial * b->equal_unit;
        return true;
    }
    if (n >= b->full || strcmp(b->method, "none") == 0) return true;
    if (strcmp(b->method, "neuberg") == 0) {
        *out = (mp + b->equal_unit) * b->full / n - b->equal_unit;
        return true;
    }
    if (strcmp(b->method, "proportional") != 0) {
        sb_printf(err,
                  "factoring method '%s' is not one the core knows (neuberg, proportional, none, "
                  "equal_comparison)",
                  b->method);
        return false;
    }
    double top_n;
    if (!mp_of(rs, hooks, b, n - 1, 0, n - 1, &top_n, NULL, 0, err)) return false;
    *out = top_n > 0 ? mp * b->top / top_n : b->top / 2; /* a lone score: half the top */
    return true;
}

static double rounded(double v, int decimals) {
    double scale = pow(10, decimals);
    return round(v * scale) / scale;
}

/* An artificial score, or a penalty: a share of the top from the article. */
static bool share_of_top(const ruleset *rs, const scenario_hooks *hooks, const board_rules *b,
                         score_line *row, const char *adjusted, int percentage, double *out,
                         strbuf *err) {
    int64_t percent;
    strbuf why;
    sb_init(&why);
    /* a matchpoint sheet: not in IMPs; the session is known on a session's sheet */
    /* whether the session's result passes 12C2c's bound is known once the
     * session is scored (session.c, session_exceptions): not yet */
    sheet_facts facts = {
        .in_imps = 1, .session_known = row->session_known ? 2 : 1, .session_passes = 1};
    bool ok = adjusted_ask(rs, hooks, b->adj_article, adjusted, percentage, &facts, "percent",
                           &percent, NULL, row->cited, sizeof row->cited, &why);
    if (ok && (percent < 0 || percent > 100)) {
        sb_printf(&why, "article %s gives %lld%%, not 0 to 100", rs->articles[b->adj_article].id,
                  (long long)percent);
        ok = false;
    }
    if (ok) *out = b->top * (double)percent / 100;
    if (!ok) sb_printf(err, "line %d: %s", row->line, why.data ? why.data : "no ruling");
    sb_free(&why);
    return ok;
}

/* Every group's comparable scores matchpointed among themselves and
 * factored to the whole board. */
static bool rule_groups(const ruleset *rs, const scenario_hooks *hooks, score_line **rows, int n,
                        const board_rules *b, strbuf *err) {
    size_t count = n > 0 ? (size_t)n : 1;
    int *order = xmalloc(sizeof *order * count);
    double *expected = xmalloc(sizeof *expected * count);
    bool *done = xcalloc(count, sizeof *done);
    bool ok = order && expected && done;
    if (!ok) sb_puts(err, "out of memory");
    for (int i = 0; ok && i < n; i++) {
        if (done[i] ||
            (rows[i]->entry.kind != ENTRY_SCORE && rows[i]->entry.kind != ENTRY_WEIGHTED))
            continue;
        group g = {group_of(rows[i]), 0, order};
        for (int j = i; j < n; j++)
            if ((rows[j]->entry.kind == ENTRY_SCORE || rows[j]->entry.kind == ENTRY_WEIGHTED) &&
                strcmp(group_of(rows[j]), g.name) == 0)
                done[j] = true, order[g.n++] = j;
        ok = group_expected(rs, hooks, rows, &g, expected, err);
        for (int k = 0; ok && k < g.n; k++) {
            score_line *row = rows[order[k]];
            ok = factored(rs, hooks, b, g.n, expected[k], &row->points, err);
            row->has_points = true;
            /* the articles of the figure: the comparison, a weighted
             * score's (and its contracts'), the factoring */
            scoring_cite_append(row->cited, sizeof row->cited, b->mp_cited);
            if (row->entry.kind == ENTRY_WEIGHTED) {
                scoring_cite_append(row->cited, sizeof row->cited, b->weighted_cited);
                scoring_cite_append(row->cited, sizeof row->cited, row->entry.cited);
            }
            if (factoring_applies(b, g.n))
                scoring_cite_append(row->cited, sizeof row->cited, b->board_cited);
        }
    }
    xfree(order);
    xfree(expected);
    xfree(done);
    return ok;
}

bool adjusted_board_needed(score_line *const *rows, int n) {
    for (int i = 0; i < n; i++)
        if (rows[i]->entry.kind != ENTRY_SCORE || rows[i]->entry.penalty ||
            strchr(rows[i]->board, '/'))
            return true;
    return false;
}

bool adjusted_board(const ruleset *rs, const scenario_hooks *hooks, score_line **rows, int n,
                    strbuf *err) {
    board_rules b;
    strbuf why;
    sb_init(&why);
    bool weighted = false;
    int artificial = 0;
    for (int i = 0; i < n; i++) {
        artificial += rows[i]->entry.kind == ENTRY_ARTIFICIAL;
        weighted = weighted || rows[i]->entry.kind == ENTRY_WEIGHTED;
    }
    bool ok = board_rules_of(rs, hooks, n, artificial > 0 || weighted, &b, &why);
    b.artificial = artificial;
    if (ok && weighted) /* 12C1c: the article's clause for a weighted score */
        ok = adjusted_cite(rs, hooks, b.adj_article, "weighted", b.weighted_cited,
                           sizeof b.weighted_cited, &why);
    if (!ok) {
        const score_line *first = rows[0]; /* the first line that is more than a score */
        for (int i = n - 1; i >= 0; i--)
            if (adjusted_board_needed(&rows[i], 1)) first = rows[i];
        sb_printf(err, "line %d: '%s' needs the ruleset's article for adjusted scores: %s",
                  first->line, first->text, why.data ? why.data : "no ruling");
    }
    sb_free(&why);
    ok = ok && rule_groups(rs, hooks, rows, n, &b, err);
    for (int i = 0; ok && i < n; i++) {
        score_line *row = rows[i];
        const sheet_entry *e = &row->entry;
        row->adjusted_board = true;
        row->top = b.top;
        row->decimals = b.decimals;
        if (e->kind == ENTRY_ARTIFICIAL) {
            ok = share_of_top(rs, hooks, &b, row, e->adjusted, e->percentage, &row->points, err);
            row->has_points = ok;
        }
        double penalty = 0;
        if (ok && e->penalty)
            ok = share_of_top(rs, hooks, &b, row, e->penalty, e->penalty_percentage, &penalty, err);
        row->penalty = penalty;
        row->exact = row->points - penalty;
        row->points = rounded(row->exact, b.decimals);
        row->mp = (int64_t)llround(row->points);
        if (row->has_points && fabs(row->points - row->exact) > 1e-9) /* the board's rounding */
            scoring_cite_append(row->cited, sizeof row->cited, b.board_cited);
    }
    return ok;
}
