/* scoring.h — scoring as rulings. The core turns a scorer's input (a
 * contract, one board's scores, two scores to compare) into a record, and
 * rules on it with the article the ruleset's header names for the job
 * (`score`, `matchpoints`, `imps`). What the ruleset gives for it is the
 * sum of the `points` arguments of the actions the ruling names: the table
 * and its arithmetic stay in the rule file. A klaverjas hand is scored the
 * same way, trick by trick, with each side's points kept apart. */
#ifndef ARBITER_SCORING_H
#define ARBITER_SCORING_H

#include "eval.h"
#include "scenario.h"

/* The jobs a header names an article for: bridge's score, matchpoints and
 * imps, and klaverjas's legal (one card) and trick (one finished trick). */
enum scoring_job {
    SCORE_CONTRACT,
    SCORE_MATCHPOINTS,
    SCORE_IMPS,
    SCORE_LEGAL,
    SCORE_TRICK,
    SCORE_ADJUSTED,
    SCORE_RANKING,
    SCORE_TOTAL
};

/* The job a header key names ("score", "legal", …), or -1. */
int scoring_job_named(const char *key);

/* The article for a job, or -1 (with a message in err) when the ruleset
 * has none. */
int scoring_article(const ruleset *rs, enum scoring_job job, strbuf *err);

/* Rules on sc with that article; *total is the sum of the `points`
 * arguments. False (with err) when no ruling could be made. */
bool scoring_rule(const ruleset *rs, int article, scenario *sc, ruling *r, int64_t *total,
                  strbuf *err);

/* The same sum, and per side: an action with a `side` argument (an enum
 * with the values takers and defenders) gives its points to that side, and
 * when it also has `roem: bool` set, they count as that side's roem too. */
typedef struct point_sums {
    int64_t total;
    int64_t side[2]; /* by enum kj_side */
    int64_t roem[2];
} point_sums;

bool scoring_rule_sides(const ruleset *rs, int article, scenario *sc, ruling *r, point_sums *sums,
                        strbuf *err);

/* Klaverjas: rules with the legal article on card c of the position in
 * sc->rec.kj_position_record; *legal says which of the actions `legal` and
 * `illegal` the ruling names (false with err when it names neither). When
 * no verdict could be had, *r is the ruling that failed (on the card, or on
 * the penalty card as any card): its status, and the fact it needs. */
bool scoring_rule_card(const ruleset *rs, int article, scenario *sc, kj_card c, ruling *r,
                       bool *legal, strbuf *err);

/* A hand scored: each trick ruled on by the trick article, the hand.* facts
 * summed from them, the first card played that the legal article calls
 * illegal (when hands are known: hand.illegal_by, hand.illegal_reason; the
 * score article says whether it is a revoke), and the score article's
 * ruling. */
typedef struct kj_trick_ruling {
    kj_trick_facts facts;
    ruling r;
    point_sums sums;
} kj_trick_ruling;

typedef struct kj_hand_score {
    bool from_record; /* false: no tricks, the result as the scenario's facts give it */
    int ntricks;      /* ruled on so far */
    kj_trick_ruling tricks[KJ_TRICKS];
    kj_hand_facts hand;
    int illegal_trick, illegal_card; /* the first illegal card, 0-based; -1 when none was found */
    ruling illegal;                  /* the legal article's ruling on it */
    bool scored;
    ruling score;
    point_sums score_sums;
    enum ruling_status failed; /* the status of a ruling that failed */
} kj_hand_score;

/* Scores the hand record of sc (read from a klaverjas scenario). Without
 * tricks (and without a position) the score article rules on the facts
 * the scenario gives: the hand's result as played, when the trick record
 * is not there (a late revoke claim, a score slip). False with err when a
 * fact or a record is missing or a ruling could not be made. */
bool scoring_klaverjas_hand(const ruleset *rs, scenario *sc, kj_hand_score *out, strbuf *err);
void kj_hand_score_clear(kj_hand_score *s);

/* The most scores one matchpoint sheet may hold, for `arbiter matchpoints`,
 * POST /api/matchpoints and the two calls below alike. Sorting makes a
 * sheet n log n, but every score is still a ruling through the rule files
 * and the club's plugins (each under its own budget), so the time one
 * sheet takes grows with its scores: the cap bounds it (a few hundred
 * milliseconds). A real sheet is far smaller: a board is played by at most
 * a few hundred pairs, and a session's sheet of 30 boards and 80 pairs
 * holds 2400 scores. */
#define SCORING_MAX_SCORES 5000

/* For each of n scores, how many of the others it beats (is greater than)
 * and how many it equals, from one sort: n log n. False when out of
 * memory. */
bool scoring_rank_counts(const int64_t *scores, int n, int64_t *beaten, int64_t *equalled);

/* The matchpoints of each of n scores on one board, compared with the
 * others; false with err on failure (or more than SCORING_MAX_SCORES). */
bool scoring_matchpoints(const ruleset *rs, const scenario_hooks *hooks, const int64_t *scores,
                         int n, int64_t *mp, strbuf *err);

/* The matchpoints the matchpoints article (with the plugins' hooks) gives
 * one score that beats `beaten` of the `others` on its board and equals
 * `equalled`; false with err. */
bool scoring_matchpoints_of(const ruleset *rs, const scenario_hooks *hooks, int article,
                            int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                            strbuf *err);

/* The same, and whether the ruling names the action `action` (*named):
 * klaverjas's `top` (2deel19c). */
bool scoring_matchpoints_naming(const ruleset *rs, const scenario_hooks *hooks, int article,
                                int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                                const char *action, bool *named, strbuf *err);
/* The same, and the ruling's trail appended to cited (scoring_cite_append). */
bool scoring_matchpoints_cited(const ruleset *rs, const scenario_hooks *hooks, int article,
                               int64_t beaten, int64_t equalled, int64_t others, int64_t *mp,
                               char *cited, size_t citedsz, strbuf *err);

/* ---- the answers `arbiter score` and `matchpoints` give, shared with
 * `arbiter serve` so that both say the same ---- */

/* A bridge contract and its result ("4SX+1", "PASS") scored with the score
 * article: the record is set in sc (initialised by the caller, its hooks
 * set) from the text and the vulnerability (1, 0, or -1 when not known),
 * and the hooks adjust the score. False with err; r is then cleared or
 * holds the failed ruling. */
bool scoring_contract(const ruleset *rs, scenario *sc, const char *contract, int vulnerable,
                      ruling *r, int64_t *total, strbuf *err);
/* The ruling with "contract", "vulnerable" (when known) and "score". */
json_t *scoring_contract_json(const ruling *r, const scenario *sc, const char *contract,
                              int64_t total);

/* A scored klaverjas hand as `arbiter score --json` gives it: "tricks",
 * "totals", "illegal_by", "illegal", "score"; and the illegal card on its
 * own. */
json_t *scoring_hand_json(const ruleset *rs, const kj_hand_score *hs, const scenario *sc);
json_t *scoring_illegal_json(const kj_hand *h, const kj_hand_score *hs, const scenario *sc);

/* Room for the articles one line of a sheet names. */
#define SCORING_CITED 128

/* Appends one ruling's trail ("12C > 12C2a") to out, after "; " when out
 * already names one; a trail out already names is not named again. */
void scoring_cite_append(char *out, size_t size, const char *trail);
/* The same with r's trail. */
void scoring_cite_ruling(const ruling *r, char *out, size_t size);

/* What one line of a sheet gives for its pair (adjusted.c reads it): a
 * score; a weighted score (12C1c: "30% 420 + 70% -50", the results with
 * their weights in per cent); an artificial score (12C2: A+, A=, A-, G+,
 * G, G-, or a percentage "65%"); or "-" / "NP", not played. A procedural
 * penalty may follow: "P" (the size the ruleset gives) or "P10%". */
enum entry_kind { ENTRY_SCORE, ENTRY_WEIGHTED, ENTRY_ARTIFICIAL, ENTRY_NOT_PLAYED };

#define SHEET_MAX_PARTS 4 /* results of one weighted score */

typedef struct score_part {
    int64_t score;
    int percent;
    /* a result given as a contract ("4S=", "EW 4H-1"; empty: a score): the
     * contract as written, and who declared it: 0 the side whose score
     * the column gives, 1 north-south, 2 east-west */
    char contract[12];
    int declarer;
} score_part;

typedef struct sheet_entry {
    enum entry_kind kind;
    bool contracts, scored; /* results given as contracts; scored by sheet_score_contracts */
    int nparts;
    score_part parts[SHEET_MAX_PARTS]; /* a score: one part of 100% */
    const char *adjusted;              /* artificial: a value of scoring.adjusted */
    int percentage;                    /* with adjusted "percentage" */
    const char *penalty;               /* NULL, "procedural_penalty" or "penalty_percentage" */
    int penalty_percentage;
    char
        cited[64]; /* the trails of the rulings that scored its contracts (sheet_score_contracts) */
} sheet_entry;

/* Reads one entry (the last field of a sheet's line); false with a
 * message in msg that says what was expected. A weighted score's results
 * may be contracts ("30% 4S= + 70% EW 4H-1", the + optional), scored
 * later by sheet_score_contracts. */
bool sheet_parse_entry(const char *text, sheet_entry *e, char *msg, size_t msgsz);

/* Scores the contracts of a weighted entry (a no-op for any other, or
 * once done): each by the score article, as the adjusted-score article
 * says board `board` is vulnerable (asked with scoring.adjusted =
 * contract and scoring.board), for the side whose score the column gives
 * (side: 0 north-south, 1 east-west). False with err (no line number). */
bool sheet_score_contracts(const ruleset *rs, const scenario_hooks *hooks, const char *board,
                           int side, sheet_entry *e, strbuf *err);

/* A matchpoint sheet: one board's scores (a score per line), or CSV lines
 * board,pair,score (a header line is skipped). A board "7/a" is group a of
 * board 7: a board split because its deal changed (Plezierig Rechtzetten,
 * "Verminkt/veranderd spel"), each group matchpointed on its own and
 * brought to the whole board's count. */
typedef struct score_line {
    char board[32], pair[32];
    char text[64]; /* the entry as the sheet writes it */
    sheet_entry entry;
    int64_t score, mp; /* score: a plain entry's; mp: the matchpoints, rounded to a whole number */
    int line;
    /* boards with an adjusted entry (adjusted.c): the matchpoints as the
     * ruleset rounds them, the board's top, and the articles that ruled
     * on the line's figure (the trails of the rulings, "; " between them:
     * the comparison, a weighted score, the factoring to the whole
     * board, an artificial score, a penalty) */
    bool adjusted_board, has_points;
    double points, exact, top; /* points rounded, exact not */
    double penalty;            /* a procedural penalty's matchpoints (taken off points) */
    int decimals;
    char cited[SCORING_CITED];
    /* the pair's result on the session's other boards is known (a
     * session's sheet sets it; a board's sheet knows no session) */
    bool session_known;
} score_line;

/* Matchpoints one board with adjusted entries (rows[0..n), a board's rows
 * in the sheet's order); false with err naming the line. */
bool adjusted_board(const ruleset *rs, const scenario_hooks *hooks, score_line **rows, int n,
                    strbuf *err);

/* What a sheet knows of an entry besides the entry, given to the
 * adjusted-score article as facts (builtins.h): whether the sheet's scores
 * are IMPs (scoring.in_imps), whether the side's result on the session's
 * other boards is known (scoring.session_known) and whether it passes the
 * bound of the article's exception for the session (scoring.session_passes:
 * known once the session is scored), and whether the board has an adjusted
 * score (scoring.board_adjusted, asked with the board's scoring methods).
 * Values as the record's: 0 not known, 1 no, 2 yes. What they mean, and
 * which article they bring in, is the rule file's. */
typedef struct sheet_facts {
    int8_t in_imps, session_known, session_passes, board_adjusted;
} sheet_facts;

/* Whether an entry is an adjusted score (artificial or weighted). */
bool sheet_entry_adjusted(const sheet_entry *e);

/* Rules with the adjusted-score article (article) on scoring.adjusted =
 * adjusted (and scoring.percentage, and the sheet's facts when facts is
 * not NULL); *value (and *symbol for an enum, when not NULL) is the
 * argument `want` of the first action that has one; the ruling's trail is
 * appended to cited (may be NULL). False with err. */
bool adjusted_ask(const ruleset *rs, const scenario_hooks *hooks, int article, const char *adjusted,
                  int percentage, const sheet_facts *facts, const char *want, int64_t *value,
                  const char **symbol, char *cited, size_t citedsz, strbuf *err);

/* Rules with the adjusted-score article on scoring.adjusted = adjusted
 * for the articles alone (a weighted score: its clause names no argument
 * the core reads) and appends the trail to cited. False with err. */
bool adjusted_cite(const ruleset *rs, const scenario_hooks *hooks, int article,
                   const char *adjusted, char *cited, size_t citedsz, strbuf *err);

/* What the adjusted-score article says of an artificial score and the
 * session (2017 12C2c, 1963 107): the exception (`exception`: "above" or
 * "below"; NULL when the ruling names none or "none"), its bound in per
 * cent (`session_percent`) and in IMPs a board (`session_imps`), and the
 * article its action cites (`article`). False with err when no ruling
 * could be made. */
typedef struct session_exception {
    const char *kind;
    int64_t percent, imps;
    char article[16];
} session_exception;

bool adjusted_session_exception(const ruleset *rs, const scenario_hooks *hooks, int article,
                                const char *adjusted, int percentage, const sheet_facts *facts,
                                session_exception *out, strbuf *err);

/* How the adjusted-score article brings a board with fewer comparable
 * scores to the whole board (scoring.adjusted = board; where its ruling
 * names, in the cite argument `methods` of an action, the article that
 * holds the board's scoring methods, that article's ruling): the factoring
 * method (*method, a value of its `method` argument), the trail into
 * cited, and that action's message in Dutch and English (may be NULL).
 * False with err. */
bool adjusted_board_method(const ruleset *rs, const scenario_hooks *hooks, int article,
                           const sheet_facts *facts, const char **method, char *cited,
                           size_t citedsz, strbuf *message, strbuf *message_en, strbuf *err);

/* True when the board's rows need adjusted_board (not all plain scores of
 * one group). */
bool adjusted_board_needed(score_line *const *rows, int n);

/* A pairs session's sheet (CSV as arb_session_json reads it, len bytes
 * with no NUL) scored by method ("matchpoints", "butler" or "cross"): the
 * JSON arb_session_json gives ({"method", "boards", "rankings", "notes"}),
 * its boards in the sheet's order; NULL with error. */
json_t *session_sheet_json(const ruleset *rs, const scenario_hooks *hooks, const char *sheet,
                           size_t len, const char *method, strbuf *error);

/* A pair's result on a board: where a sheet names it. */
typedef struct sheet_seat {
    const char *board, *pair;
    int line;
} sheet_seat;

/* Whether each pair plays each board once: false with err naming the
 * line that gives a pair a second result on a board it already has one
 * on (a pair plays a board once, at one table; a line of the pair against
 * itself is a second result too). Sorts seats. */
bool scoring_pairs_once(sheet_seat *seats, int n, strbuf *err);

/* Reads the sheet into rows (a vec of score_line); false with err naming
 * the line (a pair given two scores on one board too). */
bool scoring_parse_score_lines(const char *text, vec *rows, strbuf *err);
/* The same for a sheet of len bytes that need not be terminated (a NUL in
 * it is refused: the file is not text). */
bool scoring_parse_sheet(const char *sheet, size_t len, vec *rows, strbuf *err);
/* Matchpoints each board of the sheet on its own (rows[i].mp); false with
 * err on failure, or when the sheet holds more than SCORING_MAX_SCORES. */
bool scoring_matchpoint_lines(const ruleset *rs, const scenario_hooks *hooks, vec *rows,
                              strbuf *err);
/* The rows as JSON: [{"board", "pair", "score", "matchpoints"}] (board and
 * pair only when the sheet gives them). */
json_t *scoring_lines_json(const vec *rows);

#endif
