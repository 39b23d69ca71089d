/* pbn.h — Portable Bridge Notation 2.1 games read from a file.
 *
 * Written from the standard's text (PBN 2.1, 2017.02.14): games end at a
 * semi-empty line; a line with % in its first column is an escape line;
 * comments run from ; to the end of the line or from { to }; tag pairs
 * are [Name "value"] (in import format with any white space, over several
 * lines); "#" and "##" inherit a tag value (4.8). The reader keeps what a
 * director and a scorer need: the identification tags (Board, Dealer,
 * Vulnerable, Deal, Declarer, Contract, Result, Score), the auction with
 * its notes and irregularity marks (^I insufficient, ^S a call skipped by a
 * call out of rotation), and the play with ^R (revoke) and ^L (lead out of
 * turn). A ScoreTable (4.4, a table as 5 defines it: columns NAME\WIDTH
 * separated by ';', then whitespace-separated values, a row a line as the
 * programs write it, a value with spaces in quotes, "-" for none) gives the board's results table
 * by table, as scoring programs write one game per board; an artificial score in it
 * (A+, A60, A60A40, ^ before it or not) is kept as a score sheet writes it. A
 * TotalScoreTable (5.8) gives the event's ranking, a pair a row. Other
 * supplemental sections are skipped (4.9). A mistake is reported as
 * file:line: message; the game it is in is marked bad and the other games are still read.
 */
#ifndef ARBITER_PBN_H
#define ARBITER_PBN_H

#include "bridge.h"
#include "cards.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PBN_MAX_NOTES 32     /* note indexes 1..32 (3.5.4) */
#define PBN_MAX_GAMES 5000   /* a season of club evenings; each game takes some 5 KiB */
#define PBN_MAX_ROWS 100000  /* rows of ScoreTables and TotalScoreTables, a file's all */
#define PBN_MAX_MESSAGES 100 /* mistakes listed; more are counted */

enum pbn_vulnerable { PBN_VUL_UNKNOWN = -1, PBN_VUL_NONE, PBN_VUL_NS, PBN_VUL_EW, PBN_VUL_ALL };

typedef struct pbn_call {
    enum bridge_seat seat;
    bridge_call call;
    bool insufficient;    /* marked ^I */
    bool out_of_rotation; /* made after a ^S: its player called in another's turn */
    int note;             /* 1..32, 0 for none */
    int line;
} pbn_call;

typedef struct pbn_card {
    enum bridge_seat seat;
    bool known; /* false for "-" */
    bridge_card card;
    bool revoke, lead_out_of_turn; /* ^R, ^L */
    int note;
    int line;
} pbn_card;

#define PBN_MAX_COLUMNS 32 /* columns of a table */

/* A result as a game's tags or a ScoreTable row give it. */
typedef struct pbn_result {
    bool has_contract, passed_out;
    bridge_call contract; /* a bid */
    int doubling;         /* 0, 1 (X), 2 (XX) */
    int declarer;         /* enum bridge_seat, -1 when not given */
    int result;           /* tricks won by declarer, -1 when not given */
    bool has_score;       /* the Score tag, or Score_NS or Score_EW */
    int64_t score_ns;     /* seen from north-south */
} pbn_result;

/* One row of a ScoreTable: one table's result of the board. */
typedef struct pbn_row {
    int line;
    bool bad;                      /* a mistake was reported in it */
    char pair_ns[16], pair_ew[16]; /* PairId_NS, PairId_EW; "" when not given */
    pbn_result res;
    /* an artificial score (5.2: a table element marked ^; 5.7: with "-"
     * for Contract, Declarer and Result) in Score_NS, Score_EW or
     * Contract, for north-south and east-west as a score sheet writes it
     * ("A+", "A=", "A-", "G+", "G", "G-", or "60%" for A60); "" for none */
    char adjusted[2][16];
    bool has_mp[2], has_pct[2]; /* MP_NS/MP_EW, Percentage_NS/Percentage_EW */
    double mp[2], pct[2];
    int mp_decimals[2], pct_decimals[2]; /* the figures' precision, as written */
    bool has_imp[2];                     /* IMP_NS/IMP_EW (5.7) */
    double imp[2];
    int imp_decimals[2];
    char section[16]; /* a Section column: the row's section of the event; "" for none */
    bool bye;         /* "Bye" for the score: a pair sat out, no result */
    char *others;     /* the columns not read, "Name=value" separated by spaces; NULL for none */
} pbn_row;

/* One row of a TotalScoreTable (5.8): a pair's total in the event. */
typedef struct pbn_total {
    int line;
    bool bad;
    int rank;      /* Rank, -1 when not given */
    char pair[16]; /* PairId, "" when not given */
    int direction; /* Direction: 0 north-south, 1 east-west, -1 when not given */
    bool has_mp, has_pct;
    char mp_column[16]; /* the column of the total: TotalMP or TotalScoreMP, or (IMPs)
                           TotalIMP or TotalScoreIMP */
    bool imps;          /* the total is in IMPs (TotalIMP, TotalScoreIMP) */
    double mp, pct;     /* that total, TotalPercentage */
    int mp_decimals, pct_decimals;
    int boards;       /* NrBoards, -1 when not given */
    char section[16]; /* a Section column, as a ScoreTable row's */
    char *others;     /* the columns not read, as a ScoreTable row's */
} pbn_total;

typedef struct pbn_game {
    int line, last_line; /* the game's first and last line in the file */
    size_t start, end;   /* its bytes in the file */
    bool bad;            /* a mistake was reported in it */
    char board[16];      /* "" when not given */
    int dealer;          /* enum bridge_seat, -1 when not given */
    enum pbn_vulnerable vulnerable;
    bool has_deal;
    bridge_deal deal;
    char deal_text[80];
    pbn_result res; /* the Contract, Declarer, Result and Score tags */
    /* the tags that tell one field of an event from another (4.4: Event,
     * Stage, Section: 3.4.1, 4.4.6, 4.4.5) and the Scoring tag (3.4.12: "MP",
     * "IMP;Butler-2", …),
     * "" when not given */
    char event[64], stage[32], section[32], scoring[64];
    uint64_t event_cut; /* an Event too long for event (cut there): a hash of the whole, else 0 */
    bool declarer_swapped; /* "^S": declarer and dummy swapped (3.4.13) */
    bool result_disputed;  /* "^": differs from the tricks actually won */
    int auction_first;     /* -1: no auction section */
    int ncalls;
    pbn_call calls[BRIDGE_MAX_CALLS];
    bool auction_ended;             /* by the passes, AP or * */
    char *notes[PBN_MAX_NOTES + 1]; /* the auction's notes, by index */
    int play_first;                 /* -1: no play section */
    int ncards;
    pbn_card cards[BRIDGE_MAX_PLAYS]; /* by trick, in the seat order of the Play tag */
    char *play_notes[PBN_MAX_NOTES + 1];
    int table_line; /* the ScoreTable tag's line, 0 for none */
    int nrows;
    pbn_row *rows;   /* the ScoreTable's rows */
    int totals_line; /* the TotalScoreTable tag's line, 0 for none */
    int ntotals;
    pbn_total *totals; /* its rows */
} pbn_game;

typedef struct pbn_file {
    vec games;     /* pbn_game */
    strbuf errors; /* "name:line: message\n" each */
    int nerrors;
} pbn_file;

/* Reads every game of text (len bytes, a NUL is a mistake) into f; name
 * is the file name the messages give. False only when out of memory. */
bool pbn_read(const char *text, size_t len, const char *name, pbn_file *f);
void pbn_free(pbn_file *f);

/* The contract and its result as a scorer writes it ("5HX-2", "3NT=",
 * "PASS") into buf; false when the result does not give them. */
bool pbn_contract_text(const pbn_result *res, char *buf, size_t size);

/* The play as the scenario's compact record has it ("W:SK N:H3 E:S4 S:S3
 * N:C2 …"): each trick from its leader (the winner of the trick before,
 * or the card marked ^L), up to the first trick with an unknown card.
 * False when the game has no play or no contract to find the winners. */
bool pbn_play_record(const pbn_game *g, char *buf, size_t size);

/* The auction as the compact record has it ("N: 1D 1S 3H …"); a call
 * out of rotation with its seat ("E:2D"), and the first irregular call
 * (^I, or the call after ^S) marked "*". */
bool pbn_auction_record(const pbn_game *g, char *buf, size_t size);

/* Whether the declaring side is vulnerable; -1 when not known. */
int pbn_declarer_vulnerable(const pbn_game *g);

/* The same for declarer (a seat, -1 when not given) on a board of that
 * vulnerability: a ScoreTable row's declarer on its game's board. */
int pbn_seat_vulnerable(enum pbn_vulnerable vulnerable, int declarer);

#endif
