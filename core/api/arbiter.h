/* arbiter.h — the public interface of libarbiter.
 *
 * Load a ruleset once, then rule on as many scenarios as you like; a loaded
 * ruleset is read-only and may be shared between threads. Every function
 * that can fail returns a status: ARB_OK, ARB_NO_RULING (the rules give no
 * ruling, or a test failed) or ARB_BAD_INPUT (a malformed rule file,
 * scenario or argument), which are also the CLI's exit statuses, or
 * ARB_NO_MEMORY (the CLI exits with 2 for it).
 *
 * Out of memory. When the allocator (arb_configure) has no more, the call
 * under way frees what it had allocated and fails: ARB_NO_MEMORY, or NULL,
 * or -1, as it fails for bad input, with "out of memory" where it writes
 * its errors (its errors stream, *error, the "error" of its *json with
 * "status" "no_memory", else the library's notes). Nothing it was given
 * changes, except a scenario being read (arb_scenario_read_json), which
 * keeps the facts read so far and loses the plugins' own facts; the
 * library can be used on (docs/internals.md, "Out of memory").
 *
 * Arguments. A NULL where a call needs a value, a negative count, or a
 * count with no array behind it is refused with ARB_BAD_INPUT (or NULL, or
 * -1, as each call says), never a crash. The exceptions are the accessors
 * arb_name, arb_title and arb_hash, which have no way to say so: their
 * arguments are declared non-null (ARB_NONNULL), so that a compiler that
 * knows the attribute warns about a NULL it can see.
 *
 * Ownership and lifetime. What a call returns with "malloc'd" belongs to
 * the caller, who frees it with free(). A ruleset lives from arb_load until
 * arb_free; everything it gave out (arb_name's and arb_title's strings)
 * and every plugin set loaded for it must not be used after that. A
 * pointer passed to arb_free or arb_free_plugins must not be used again
 * (that cannot be detected). Nothing keeps a pointer to the caller's
 * strings, buffers or streams after the call returns.
 *
 * Where an input went wrong. A message (*error, or an "error" in *json)
 * about a place in a text the call was given — a sheet's line, a scenario's
 * key or syntax — begins "line N, column M: " (columns count characters),
 * or "line N: " where the line as a whole is at fault; the CLI prints it as
 * FILE:N:M: error: …. A PBN file's messages name the file themselves, one
 * a line, as FILE:N:M: error: …. A scenario read into an arb_scenario
 * keeps its place apart (arb_scenario_error_position).
 *
 * Threads. arb_rule_json and arb_rule_batch may run on one ruleset from
 * many threads at once. A plugin set may not: its Lua states change with
 * every ruling, so calls that use one plugin set must take turns (or each
 * thread loads its own).
 */
#ifndef ARBITER_H
#define ARBITER_H

#include <stddef.h>
#include <stdio.h>

#define ARB_VERSION "0.1.0"

/* Marks arguments that must not be NULL, where the compiler knows how. */
#if defined(__GNUC__) || defined(__clang__)
#define ARB_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define ARB_NONNULL(...)
#endif

/* The library is built with hidden symbols (-fvisibility=hidden): what is
 * declared between here and the end of this header is what it exports. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

enum arb_status { ARB_OK = 0, ARB_NO_RULING = 1, ARB_BAD_INPUT = 2, ARB_NO_MEMORY = 3 };

typedef struct ruleset arb_ruleset;

/* ---- Embedding: memory and messages -----------------------------------------
 * By default the library allocates with the C library's realloc and free,
 * and writes its own notes (the image cache's reasons when
 * ARBITER_CACHE_VERBOSE is set) on stderr. An embedder may give an
 * allocator and a sink for those notes instead: arb_configure, once,
 * before any other call (a block allocated before would be freed by the
 * other allocator), and not while another thread is in a call. Messages
 * that belong to a call (a rule file's errors) still go to the stream or
 * string the call takes. */
typedef struct arb_config {
    /* realloc-style, as Lua's lua_Alloc but without the old size: ptr NULL
     * allocates size bytes; size 0 frees ptr (returning NULL); otherwise
     * ptr is resized. NULL when there is no memory (ptr left as it was):
     * the call under way then fails with ARB_NO_MEMORY. NULL: realloc and
     * free. The library's JSON library (jansson) allocates through it too. */
    void *(*alloc)(void *ud, void *ptr, size_t size);
    void *alloc_ud;
    /* Receives each of the library's own notes, one line without its
     * newline. NULL: they are written to stderr, "arbiter: " before each. */
    void (*message)(void *ud, const char *message);
    void *message_ud;
} arb_config;
/* NULL: the defaults. Returns ARB_OK. */
enum arb_status arb_configure(const arb_config *config);
/* Frees what a call handed out "malloc'd" (a JSON text, an error message, a
 * path; not a ruleset, a scenario, a ruling or a plugin set, which have
 * their own arb_*free), with the configured allocator: with the default
 * one, free() does the same. NULL: nothing happens. */
void arb_release(void *p);
/* Writes '?' in place of each byte of every character of text (n bytes)
 * that a terminal would act on: a C0 control but a tab and a new line, DEL,
 * a C1 control (U+0080 to U+009F). For a face that prints what an input
 * gave it (a scenario's key, a client's address, a file's name): an escape
 * sequence would move the cursor or hide what follows instead of showing. */
void arb_mask_controls(char *text, size_t n);

/* Finds a ruleset by name (searching $ARBITER_RULESETS, the rulesets/
 * directory beside the program, and ./rulesets) or takes a path. Returns a
 * malloc'd path, or NULL (also for a NULL or empty name). */
char *arb_find_ruleset(const char *name_or_path);

/* The directory of installed rulesets: the first of those places that
 * exists. A malloc'd path, or NULL. */
char *arb_rulesets_dir(void);
/* The rulesets in a directory: its subdirectories with a `ruleset` header
 * (shared vocabularies have none), sorted by name. Returns how many;
 * *names (malloc'd, as is each name; NULL when none) receives them. A
 * directory that cannot be read has none. -1 when dir or names is NULL
 * (*names, when it can be, is set to NULL). */
int arb_list_rulesets(const char *dir, char ***names);

/* Loads and compiles a ruleset; errors (file:line:col, expected, hint) are
 * written to errors (NULL: not written). NULL on failure, and for a NULL
 * name.
 *
 * Without amendments, a ruleset compiled before is loaded from its image
 * in the cache instead ($ARBITER_CACHE, else $XDG_CACHE_HOME/arbiter, else
 * ~/.cache/arbiter; ARBITER_CACHE=off: never) while its rule files are
 * unchanged; one compiled without errors or warnings is saved there. The
 * result is the same either way; a cache that cannot be read or written
 * only costs the compile. The result is the caller's: free it with
 * arb_free. */
arb_ruleset *arb_load(const char *name_or_path, FILE *errors);
/* The same with amendment files applied in order (see docs/committee.md):
 * amendments holds namendments paths, none of them NULL (amendments may be
 * NULL when namendments is 0). A negative count, or a NULL where a path
 * should be, is refused: NULL, with the reason written to errors. */
arb_ruleset *arb_load_amended(const char *name_or_path, const char *const *amendments,
                              int namendments, FILE *errors);
/* Frees a ruleset (NULL: nothing happens). Free its plugin sets first. */
void arb_free(arb_ruleset *rs);

/* The ruleset's name and title, owned by it (valid until arb_free). */
const char *arb_name(const arb_ruleset *rs) ARB_NONNULL(1);
const char *arb_title(const arb_ruleset *rs) ARB_NONNULL(1);
/* "fnv1a64:…", the hash of the rule files' names and contents, written to
 * buf (32 bytes, terminated). */
void arb_hash(const arb_ruleset *rs, char buf[32]) ARB_NONNULL(1, 2);

/* Rules on one scenario (a JSON object of len bytes; it need not be
 * terminated). *json receives the ruling as a JSON object (malloc'd; free
 * it) — on failure, an object with "status" and "error". A NULL rs or
 * scenario gets ARB_BAD_INPUT and such an object; a NULL json gets
 * ARB_BAD_INPUT and nothing. */
enum arb_status arb_rule_json(const arb_ruleset *rs, const char *scenario, size_t len, char **json);

/* Rules on a JSON Lines batch (len bytes), one ruling (or error record with
 * its line number) per line written to out. Returns ARB_OK when every line
 * ruled. A scenario (a line, or the text given to arb_rule_json) longer than
 * ARB_MAX_LINE bytes is not parsed but answered with an error record: a
 * real one is far shorter, and this bounds the memory one line takes. A
 * NULL rs or jsonl gets ARB_BAD_INPUT and one error record on out; a NULL
 * out gets ARB_BAD_INPUT and nothing. */
#define ARB_MAX_LINE (1 << 20)
enum arb_status arb_rule_batch(const arb_ruleset *rs, const char *jsonl, size_t len, FILE *out);

/* Club plugins (Lua, sandboxed; see docs/plugins.md) loaded for a ruleset,
 * and the two calls above with them around every ruling. arb_load_plugins
 * takes n paths (0 to ARB_MAX_PLUGINS, none NULL; paths may be NULL when n
 * is 0) and returns NULL, with the reason written to errors (NULL: not
 * written), when a plugin cannot be loaded or an argument is bad: a NULL
 * rs, a negative n or one over ARB_MAX_PLUGINS, a NULL path. The set keeps
 * a pointer to rs: use it only with that ruleset (with another, every
 * ruling is the plugins' error, "plugin_error", and
 * arb_plugin_question_next gives -1), and free it
 * (arb_free_plugins; NULL: nothing happens) before the ruleset. A NULL p
 * in the two calls below means no plugins; their other arguments are as
 * for arb_rule_json and arb_rule_batch. Threads may share one arb_plugins
 * (and its ruleset): each plugin serves one call at a time, the others
 * wait, and no ruling sees another's facts or state. */
#define ARB_MAX_PLUGINS 8 /* PLUGIN_MAX in plugins/plugin.h */
typedef struct plugin_set arb_plugins;
arb_plugins *arb_load_plugins(const arb_ruleset *rs, const char *const *paths, int n, FILE *errors);
void arb_free_plugins(arb_plugins *p);
enum arb_status arb_rule_json_plugins(const arb_ruleset *rs, const arb_plugins *p,
                                      const char *scenario, size_t len, char **json);
enum arb_status arb_rule_batch_plugins(const arb_ruleset *rs, const arb_plugins *p,
                                       const char *jsonl, size_t len, FILE *out);

/* A JSON Lines batch read from a stream, a line at a time: memory stays the
 * same however long the input (a line past ARB_MAX_LINE gets an error
 * record), and the records go out in large writes. head (head_len bytes,
 * may be NULL) is what the caller already read from in and goes first; in
 * may be NULL when head is all. The records (docs/json.md):
 *   ARB_RECORD_JSON   the full record, byte for byte arb_rule_batch's;
 *   ARB_RECORD_BRIEF  status, trail, actions with their arguments and
 *                     articles, "line" — no texts;
 *   ARB_RECORD_TEXT   each ruling as arb_ruling_text, after "--- regel N".
 * plugins may be NULL. Returns the worst status, as arb_rule_batch (and
 * ARB_BAD_INPUT when in or out failed). */
enum arb_record_format { ARB_RECORD_JSON, ARB_RECORD_BRIEF, ARB_RECORD_TEXT };
enum arb_status arb_rule_stream(const arb_ruleset *rs, const arb_plugins *plugins,
                                enum arb_record_format format, const char *head, size_t head_len,
                                FILE *in, FILE *out);

/* ---- For the server and other faces -----------------------------------------
 * What a face that shows rulesets to people (the web app of `arbiter
 * serve`) reads of them, as JSON text, and plugins loaded within limits of
 * its own. Each JSON answer is malloc'd (free it); a NULL argument, or an
 * index out of range, gets NULL (or ARB_BAD_INPUT, as each call says). */

/* The ruleset in brief: {"name", "title", "hash", "game" ("bridge" when
 * the header names none), "english" (true when an action has an English
 * message), "scores": {"contract", "hand", "matchpoints", "imps"} (which of
 * the scorer's calls it answers: a bridge contract, a klaverjas hand)}.
 * With contents nonzero, also "articles": [{"id", "title" ("" when none),
 * "title_en" (only when the rule files give it), "ruled" (it has a `when`)}] and "facts": [each
 * fact a scenario may give, not the derived ones, as arb_fact_json gives it]. NULL for a NULL rs.
 */
char *arb_ruleset_json(const arb_ruleset *rs, int contents);

/* A fact as a director is asked it: {"name", "question" (its `ask`, else
 * its name), "question_en" (null when it has none), "type" ("bool", "enum",
 * "int", "call", "cite", "string"), "asked" (it has an `ask`), "choices":
 * [{"value" (true/false, or the value's name), "label", "label_en"}] (for
 * a yes/no fact and a list; empty otherwise), "min" and "max" (for a
 * bounded number)}. NULL for a NULL rs or f out of range (arb_fact_*). */
char *arb_fact_json(const arb_ruleset *rs, int f);

/* Rules as arb_rule_json_plugins does (the same status, and *json the same
 * object), and adds what a face shows beside a ruling not made yet: when
 * the decision needs a fact, "question" (that fact as arb_fact_json gives
 * it); when the situation breaks an invariant, "impossible": {"message",
 * "message_en" (null when it has none)}. With a ruling, when a plugin
 * acting on it has a fact of its own with a question that the scenario
 * does not give (arb_plugin_question_next), "question" is that fact, in
 * the same form with "from_plugin": true ("choices" yes/no for a bool):
 * a face asks it, and rules again with the answer. A NULL json gets ARB_BAD_INPUT and
 * nothing. */
enum arb_status arb_rule_next_json(const arb_ruleset *rs, const arb_plugins *p,
                                   const char *scenario, size_t len, char **json);

/* How many scores a matchpoint sheet (as arb_matchpoints_sheet reads it;
 * len bytes) holds, so that a face can refuse a sheet past ARB_MAX_SCORES
 * as too large before it is matchpointed; -1 when the sheet cannot be read
 * (arb_matchpoints_sheet says why) and for a NULL sheet. */
int arb_sheet_score_count(const char *sheet, size_t len);

/* The limits a plugin runs within (docs/plugins.md); 0 in a field: the
 * host's default. */
typedef struct arb_plugin_limits {
    long instructions; /* per call */
    size_t memory;     /* bytes, for the plugin's state and what a call hands back */
    long time_ms;      /* wall-clock milliseconds per ruling (all its plugins' calls together) */
} arb_plugin_limits;
/* arb_load_plugins with limits (NULL: the defaults, as arb_load_plugins).
 * The same arguments are refused, the same way, and so is a negative
 * limit: NULL, the reason on errors. */
arb_plugins *arb_load_plugins_limited(const arb_ruleset *rs, const char *const *paths, int n,
                                      const arb_plugin_limits *limits, FILE *errors);

/* The language of texts for people: Dutch, or English where the ruleset gives it. */
enum arb_lang { ARB_NL, ARB_EN };

/* ---- Tools for whole rulesets ------------------------------------------------
 * What a rules editor runs on a ruleset rather than on one scenario: the
 * completeness proof, the test blocks, the differences between two
 * rulesets, an article's decision graph, the installed rulesets, and why a
 * ruling did not name an action. Each writes its report to out (text as
 * `arbiter` prints it) and what went wrong to errors, where it takes one.
 * A NULL where a value is needed (rs, out, a name) is refused with
 * ARB_BAD_INPUT and nothing written; errors may be NULL (not written). */

/* Compiles the ruleset (as arb_load_amended finds it, with namendments
 * amendment files) and proves it complete: every situation that satisfies
 * its invariants gets a ruling. ARB_OK: one summary line (articles,
 * clauses, facts, graph nodes, tests, and the situations it declares
 * outside its scope) on out. ARB_BAD_INPUT: every error with file:line:col
 * (a gap as a ready-to-run test block) and the count of errors on errors;
 * likewise, with the reason, for a name that is no ruleset and for
 * amendments arb_load_amended refuses. */
enum arb_status arb_check(const char *name_or_path, const char *const *amendments, int namendments,
                          FILE *out, FILE *errors);
/* The same, and on ARB_OK the ruleset it proved in *rs (NULL otherwise;
 * freed with arb_free), as arb_load_amended would give it: a caller that
 * goes on to use the ruleset does not compile it a second time. */
enum arb_status arb_check_kept(const char *name_or_path, const char *const *amendments,
                               int namendments, FILE *out, FILE *errors, arb_ruleset **rs);

/* Inside each block of clauses, every clause that an earlier clause of the
 * block partly hides: a situation (satisfying the invariants, ruled on)
 * that meets the later clause's condition but is taken by the earlier one.
 * One line per pair on out — the article, both clauses with file:line, and
 * `given …` the situation — then the count; *found (may be NULL) receives
 * it. The law's own order of exceptions does this on purpose ("except as
 * provided in B1"), so this is a list for a rules editor to read, and
 * arb_check does not warn of it; two articles that both rule on one
 * situation it does warn of (unless the ruleset says `combine A B`). */
enum arb_status arb_hidden_clauses(const arb_ruleset *rs, FILE *out, int *found);

/* Runs the ruleset's test blocks, with plugins (NULL: none), and its
 * completeness proof as one more test; failures (file:line:col) and the
 * line `N passed, N failed` go to out. With ARB_TEST_COVERAGE, the clauses
 * no test reaches are listed too; with ARB_TEST_VERBOSE, each test that
 * passes is named too ("ok   NAME"). *passed and *failed (each may be
 * NULL) receive the counts. Returns ARB_BAD_INPUT when the ruleset is not
 * complete, ARB_NO_RULING when a test failed (or, with coverage, a clause
 * is not reached), else ARB_OK. */
enum arb_test_flags { ARB_TEST_VERBOSE = 1, ARB_TEST_COVERAGE = 2 };
enum arb_status arb_test(const arb_ruleset *rs, const arb_plugins *plugins, int flags, FILE *out,
                         int *passed, int *failed);

/* The ruleset's test blocks as scenarios, one JSON object a line (the form
 * arb_rule_batch and arb_diff's cases read): each test that rules with the
 * whole ruleset on a whole situation (not one that expects a question or a
 * rejection, nor one that rules with a single article), with its given
 * facts and auction. What a committee measures an amendment's impact on,
 * besides its own file of past cases. *written (may be NULL) receives the
 * number of lines. */
enum arb_status arb_test_scenarios(const arb_ruleset *rs, FILE *out, int *written);

/* Every region of situations that rulesets a and b rule differently, found
 * by walking their decision graphs together, or (cases) every scenario of a
 * JSON Lines text ruled under both. */
enum arb_diff_format {
    ARB_DIFF_TEXT,  /* for people: the changes grouped, with the rulings' texts and an example each
                     */
    ARB_DIFF_EXACT, /* every region with its constraints, count, example and both rulings */
    ARB_DIFF_JSON,  /* one JSON object: the exact regions and the groups */
    ARB_DIFF_MARKDOWN, /* the report for people as Markdown */
    ARB_DIFF_HTML      /* the report for people as one HTML page */
};
typedef struct arb_diff_options {
    /* only the situations in which either ruling passes through it; NULL: all */
    const char *article;
    int json; /* nonzero: ARB_DIFF_JSON, whatever format says */
    /* JSON Lines, one scenario a line (need not be terminated); NULL: walk the graphs.
     * With cases, article is not used. */
    const char *cases;
    size_t cases_len;
    enum arb_diff_format format; /* with cases: ARB_DIFF_JSON, else text */
    enum arb_lang lang;          /* the rulings' texts in the report for people */
} arb_diff_options;
/* options may be NULL (all situations, text). An article neither ruleset
 * has is refused: ARB_BAD_INPUT, the reason on errors. The groups of the
 * report for people put together the regions whose rulings differ in the
 * same actions; each group's example is a scenario that both rulesets,
 * ruling it in full, were seen to rule as its region says (none is shown
 * when no such scenario was found). With cases, every line is ruled under
 * both rulesets; a line either cannot rule (bad input, an invariant it
 * breaks, a fact it leaves unanswered, a gap) is listed with its number
 * and why, counted apart and never as unchanged, and makes the status
 * ARB_BAD_INPUT. A walk that
 * outgrows its budget reports no regions and is ARB_BAD_INPUT with
 * "incomplete" on errors: never a silent "nothing changed". */
enum arb_status arb_diff(const arb_ruleset *a, const arb_ruleset *b,
                         const arb_diff_options *options, FILE *out, FILE *errors);

/* The decision graph of an article as Graphviz DOT. An article the ruleset
 * does not have: ARB_BAD_INPUT, the reason on errors. */
enum arb_status arb_graph_dot(const arb_ruleset *rs, const char *article, FILE *out, FILE *errors);

/* The rulesets of a directory (arb_list_rulesets), one line each: name,
 * hash and title, or "(errors: arbiter check)" for one that does not
 * compile. *listed (may be NULL) receives how many lines were written.
 * ARB_OK when every one compiles (also when there are none). */
enum arb_status arb_rulesets_table(const char *dir, FILE *out, int *listed);

/* Why the ruling on a scenario (a JSON object of len bytes; plugins, NULL:
 * none, for the facts of their own it may give) does not name the action:
 * the fewest facts that would have to differ, with the articles of the
 * ruling they would give (a fact the scenario leaves out is taken with its
 * default, as arb_rule takes it); or that no situation leads to it; or
 * that the facts not yet given decide. ARB_OK
 * when that is written to out; ARB_BAD_INPUT, nothing written, when the
 * ruleset has no such action or the scenario cannot be read. */
enum arb_status arb_why_not(const arb_ruleset *rs, const arb_plugins *plugins, const char *scenario,
                            size_t len, const char *action, FILE *out);

/* ---- A ruling read field by field -------------------------------------------
 * A scenario is built from a JSON object (arb_scenario_read_json: the same
 * text arb_rule_json reads) and from a director's answers, one fact at a
 * time; arb_rule rules on it; the ruling is read through accessors. Every
 * string returned is owned by the ruling (or the ruleset, for facts) and
 * lives until arb_ruling_free (arb_free); a scenario must outlive the
 * rulings made on it. An index out of range or a NULL gives NULL or 0, never
 * a crash. Functions that take char **error set it to NULL, or on failure
 * to a malloc'd message (free it), when error is not NULL. */
typedef struct arb_scenario arb_scenario;
typedef struct arb_ruling arb_ruling;

enum arb_ruling_status {
    ARB_RULED,      /* a ruling: read its trail and actions */
    ARB_NEEDS,      /* a fact the decision needs is not known: arb_ruling_needs names it */
    ARB_REJECTED,   /* the situation breaks an invariant of the ruleset */
    ARB_GAP,        /* the rule files give no ruling */
    ARB_EVAL_ERROR, /* a condition or an argument could not be evaluated */
    ARB_OUTSIDE,    /* the ruleset declares the situation outside its scope */
    ARB_FAILED      /* a plugin failed: arb_ruling_error says why */
};

arb_scenario *arb_scenario_new(const arb_ruleset *rs); /* NULL: no ruleset, or out of memory */
/* The same for a scenario whose JSON may also give the plugins' own facts
 * (e.g. "minutes_late"; a key that is neither the ruleset's fact nor a
 * plugin's is refused). plugins (NULL: none, as arb_scenario_new) must be
 * loaded for rs and outlive the scenario; rule on it with the same set. */
arb_scenario *arb_scenario_new_plugins(const arb_ruleset *rs, const arb_plugins *plugins);
void arb_scenario_free(arb_scenario *sc);
enum arb_status arb_scenario_read_json(arb_scenario *sc, const char *json, size_t len,
                                       char **error);
/* A director's answer to a fact's question: a value's name, its label, its
 * number among the choices (from 1), ja/nee, a number or a call. A fact of
 * a plugin's own is answered with arb_scenario_answer_plugin (below): here
 * it is refused, and the error says so. */
enum arb_status arb_scenario_answer(arb_scenario *sc, const char *fact, const char *answer,
                                    char **error);
/* Forgets a fact given or answered (the ruleset's, or a plugin's own). */
void arb_scenario_forget(arb_scenario *sc, const char *fact);
/* The scenario as one JSON object (the caller frees it) that
 * arb_scenario_read_json, or `arbiter rule`, reads back to the same
 * facts: the keys of the texts it was read from (records included), every
 * fact given or answered since (a fact forgotten is left out), the
 * plugins' own facts, and "corrected". NULL for a NULL scenario. */
char *arb_scenario_json(const arb_scenario *sc);

/* Rules on sc, with plugins (NULL: none). NULL only for a NULL argument, a
 * scenario of another ruleset, or out of memory. */
arb_ruling *arb_rule(const arb_ruleset *rs, const arb_plugins *plugins, arb_scenario *sc);
void arb_ruling_free(arb_ruling *r);
enum arb_ruling_status arb_ruling_status(const arb_ruling *r);
/* The status `arbiter rule` exits with for this ruling, and for a kind of ruling. */
enum arb_status arb_ruling_exit_status(const arb_ruling *r);
enum arb_status arb_status_of(enum arb_ruling_status s);
/* Why there is no ruling, in one line (NULL for ARB_RULED). */
const char *arb_ruling_error(const arb_ruling *r);
/* ARB_NEEDS: the fact to ask next (see arb_fact_*); else NULL. */
const char *arb_ruling_needs(const arb_ruling *r);
/* The trail: the articles and sub-clauses that decided, in order. */
int arb_ruling_trail_count(const arb_ruling *r);
const char *arb_ruling_trail(const arb_ruling *r, int i);
/* The title of the ruleset's article id (a trail's step, "27"): Dutch, or
 * in English (ARB_EN) where the rule files give it, else the Dutch one; ""
 * for an article without a title. NULL for a NULL argument or an id that
 * is no article of the ruleset (a sub-clause such as "27B1a"). Owned by
 * the ruleset. */
const char *arb_article_title(const arb_ruleset *rs, const char *id, enum arb_lang lang);
/* The actions: the ruleset's, then those plugins added. Arguments are
 * given by name and as text (a value's name, a number, a call, a citation). */
int arb_ruling_action_count(const arb_ruling *r);
const char *arb_ruling_action(const arb_ruling *r, int i);
const char *arb_ruling_action_cite(const arb_ruling *r, int i);
const char *arb_ruling_message(const arb_ruling *r, int i, enum arb_lang lang);
int arb_ruling_arg_count(const arb_ruling *r, int i);
const char *arb_ruling_arg_name(const arb_ruling *r, int i, int j);
const char *arb_ruling_arg(const arb_ruling *r, int i, int j);
/* The ruling as the JSON object arb_rule_json gives (malloc'd; free it). */
char *arb_ruling_json(const arb_ruling *r);

/* The ruleset's facts, numbered from 0: their questions and choices (an
 * enum's values, or ja/nee for a yes/no fact; none for numbers and calls). */
int arb_fact_count(const arb_ruleset *rs);
int arb_fact_find(const arb_ruleset *rs, const char *name); /* -1: no such fact */
const char *arb_fact_name(const arb_ruleset *rs, int f);
const char *arb_fact_question(const arb_ruleset *rs, int f, enum arb_lang lang);
int arb_fact_choice_count(const arb_ruleset *rs, int f);
const char *arb_fact_choice(const arb_ruleset *rs, int f, int k); /* the value's name, an answer */
const char *arb_fact_choice_label(const arb_ruleset *rs, int f, int k, enum arb_lang lang);

/* Where the last arb_scenario_read_json on sc went wrong: a JSON syntax
 * error, or the top-level key whose value it refused (a fact it does not
 * know, a value out of range, an auction it cannot read: the key's opening
 * quote). *line and *col (counted from 1; each pointer may be NULL) receive
 * it, or 0 when that read succeeded or the error belongs to no one key (the
 * record's parts contradicting each other), so that a caller can write
 * FILE:LINE:COL. ARB_BAD_INPUT (and 0s) for a NULL sc. */
enum arb_status arb_scenario_error_position(const arb_scenario *sc, int *line, int *col);

/* The ruling in Dutch as `arbiter rule` prints it: the ruleset's title, the
 * articles, each action with its article, what plugins changed, the facts
 * that played no part; for no ruling, "Geen uitspraak: " and why.
 * ARB_BAD_INPUT, nothing written, for a NULL argument or a ruling a plugin
 * failed (see arb_ruling_error). */
enum arb_status arb_ruling_text(const arb_ruling *r, FILE *out);

/* ARB_REJECTED: the message of the invariant the situation breaks (Dutch,
 * or English when the ruleset gives it); else NULL. */
const char *arb_ruling_invariant(const arb_ruling *r, enum arb_lang lang);

/* The facts the decision tested, in the order it tested them (a fact may
 * come more than once), each with its value in Dutch as the ruling took it
 * and where that came from, as the JSON's "decided_by" says it: "default"
 * (the scenario is silent: assumed with the fact's default), the record
 * the core settled it from (the built-in's namespace: "auction",
 * "contract", "play", …), "derived" (a derived fact the decision tests,
 * computed from the facts it reads), else "given" (by the scenario or an
 * answer). A director may correct a value by answering
 * its fact (arb_scenario_answer): an answer wins over a record's value.
 * The values are taken when the ruling is made: later answers do not
 * change them. Count 0, fact -1 and NULL strings for a NULL ruling, one a
 * plugin failed, or an index out of range. */
int arb_ruling_decided_count(const arb_ruling *r);
int arb_ruling_decided_fact(const arb_ruling *r, int i); /* a fact number: see arb_fact_* */
const char *arb_ruling_decided_value(const arb_ruling *r, int i);
const char *arb_ruling_decided_source(const arb_ruling *r, int i);

/* What kind of answer a fact takes, and the range of a bounded whole
 * number: arb_fact_range returns 1 and sets *lo and *hi (each may be NULL)
 * for one, else 0. ARB_FACT_NONE for a NULL ruleset or a fact out of range. */
enum arb_fact_kind {
    ARB_FACT_NONE,
    ARB_FACT_BOOL, /* ja/nee */
    ARB_FACT_ENUM, /* one of arb_fact_choice */
    ARB_FACT_INT,  /* a whole number */
    ARB_FACT_CALL, /* a call: P, X, XX or a bid such as 2H or 3SA */
    ARB_FACT_TEXT  /* a citation or text */
};
enum arb_fact_kind arb_fact_kind(const arb_ruleset *rs, int f);
int arb_fact_range(const arb_ruleset *rs, int f, long long *lo, long long *hi);

/* A plugin's own fact that a plugin acting on ruling r (made on sc with p)
 * needs and sc does not give, to ask the director (its question in Dutch,
 * ask_en in English or NULL; kind "bool", "int" or "string"). The strings
 * are the plugin set's: they live until arb_free_plugins. Returns 1 and
 * fills *q when there is one, 0 when there is none, -1 for a NULL argument,
 * a ruling of another scenario or one a plugin failed. */
typedef struct arb_plugin_question {
    const char *fact, *kind, *ask, *ask_en;
} arb_plugin_question;
int arb_plugin_question_next(const arb_plugins *p, const arb_scenario *sc, const arb_ruling *r,
                             arb_plugin_question *q);
/* The director's answer to it (ja/nee, a whole number, text) given to sc;
 * ARB_BAD_INPUT with a hint in Dutch in *error when it is not one, or for
 * a NULL argument. */
enum arb_status arb_scenario_answer_plugin(arb_scenario *sc, const arb_plugin_question *q,
                                           const char *answer, char **error);

/* ---- Scores, legal cards and editions compared ------------------------------
 * A scorer's calls. Each rules with the article the ruleset's header names
 * for the job (`score`, `imps`, `matchpoints`, `legal`): the table and its
 * arithmetic stay in the rule files, and a ruleset that names no article
 * for the job is refused with ARB_BAD_INPUT. Plugins (NULL: none; a set
 * loaded for the same ruleset) adjust the answer as they do a ruling. An
 * answer that is a tree is JSON text: *json receives it (malloc'd; free
 * it) on success and is NULL otherwise, except where a call says so. json
 * may be NULL when the caller wants only the figure. error is as above:
 * NULL, or on failure a malloc'd message (free it). A NULL ruleset or text
 * is refused with ARB_BAD_INPUT. */

/* The game the ruleset's header names ("bridge", "klaverjas"; NULL when it
 * names none), owned by the ruleset. NULL for a NULL rs. */
const char *arb_game(const arb_ruleset *rs);
/* The article the header names for a job: "score", "matchpoints", "imps",
 * "legal" or "trick" (owned by the ruleset); NULL when it names none, for
 * another job, and for a NULL argument. */
const char *arb_job_article(const arb_ruleset *rs, const char *job);

enum arb_vulnerability {
    ARB_VULNERABILITY_UNKNOWN = -1,
    ARB_NOT_VULNERABLE = 0,
    ARB_VULNERABLE = 1
};

/* A bridge contract and its result ("4SX+1", "3NT-2", "PASS") scored for
 * the declaring side. *points (may be NULL) receives the score; *json the
 * ruling (its "articles", "actions" with their "article", "messages",
 * "plugins") with "contract", "vulnerable" (when given) and "score". When
 * the score article needs a fact the call does not give (the vulnerability,
 * with ARB_VULNERABILITY_UNKNOWN), the status is ARB_BAD_INPUT and *json
 * still receives that ruling, whose "needs" names the fact. */
enum arb_status arb_score_contract(const arb_ruleset *rs, const arb_plugins *p,
                                   const char *contract, enum arb_vulnerability vulnerable,
                                   long long *points, char **json, char **error);

/* The IMPs for a difference between two scores (the first minus the
 * second, -200000 to 200000). *imps (may be NULL) receives them; *json the
 * ruling with "difference" and "imps". */
enum arb_status arb_imps(const arb_ruleset *rs, const arb_plugins *p, long long difference,
                         long long *imps, char **json, char **error);

/* A matchpoint sheet (len bytes; no NUL byte in it): one board's scores, a
 * whole number per line, or CSV lines board,pair,score (a header line is
 * skipped); each board is matchpointed on its own. *json receives the rows
 * in the sheet's order: [{"board", "pair", "score", "matchpoints"}] (board
 * and pair only when the sheet gives them). A line that is neither is
 * refused with its number; so is a sheet of more than ARB_MAX_SCORES.
 *
 * Adjusted scores (docs/guide.md, "Arbitrale scores op de scorestaat"): a
 * score may instead be a weighted score ("30% 420 + 70% -50", 12C1c; its
 * results may be contracts, "30% 4S= + 70% EW 4H-1", each scored by the
 * score article as the adjusted-score article says the board is
 * vulnerable, north-south declaring unless a side or seat is named), an
 * artificial score ("A+", "A=", "A-", "G+", "G", "G-", or "65%", 12C2), or
 * "-" / "NP" for a pair that did not play the board; "P" or "P10%" after
 * it is a procedural penalty. A board "7/a" is group a of board 7 (a
 * board split). What these are worth is the ruleset's (header key
 * `adjusted`; bridge-2017: 12C): an error names the line when the ruleset
 * has no such article. The rows of a board with any of these carry "entry"
 * (the text as written), "kind" ("score", "weighted", "artificial",
 * "not_played"), "matchpoints" (a number rounded as the ruleset says, null
 * when not played), "top" (what beating every other entry is worth),
 * "percentage" (of the top, two decimals) and "articles" (the trail of the
 * rulings on an artificial score or a penalty); "score" only for a plain
 * score; a weighted score's "results": [{"weight", "contract" and
 * "declarer" ("NS" or "EW") when given as one, "score"}]. */
#define ARB_MAX_SCORES 5000 /* SCORING_MAX_SCORES in core/api/scoring.h */
enum arb_status arb_matchpoints_sheet(const arb_ruleset *rs, const arb_plugins *p,
                                      const char *sheet, size_t len, char **json, char **error);

/* ---- PBN files (Portable Bridge Notation 2.1; docs/guide.md, "PBN") ----
 *
 * Every game of a PBN file of len bytes (name: the file name the messages
 * give, or NULL). A mistake is reported as "name:line: message", one a
 * line, in *error (status ARB_BAD_INPUT), and the other games are still
 * read: *json gets them all. */

/* The games: [{"line", "board", "dealer", "vulnerable", "deal", "declarer",
 * "contract", "result", "score_ns", "auction": {"first", "calls": [{"seat",
 * "call", "insufficient" (^I), "out_of_rotation" (after ^S), "note"}],
 * "ended", "notes"}, "play": {"first", "cards": [{"seat", "card", "revoke"
 * (^R), "lead_out_of_turn" (^L), "note"}], "notes"}, "score_table":
 * [{"line", "ns", "ew", "contract", "declarer", "result", "score_ns",
 * "others", "bad"}] (a ScoreTable's rows), "bad"}] (the play by trick, in
 * the seat order of the Play tag, as PBN has it). */
enum arb_status arb_pbn_json(const char *pbn, size_t len, const char *name, char **json,
                             char **error);

/* Game number `game` (1 for the first) as a scenario's records, for the
 * director to add what happened and rule on the board as recorded:
 * {"dealer" and "auction" (when a call is marked ^I or made out of
 * rotation: the compact record, the first such call marked "*"), "deal", "declarer", "contract"
 * (with its result), "play" (in play order: each trick from its leader, the winner of the one
 * before, or the card marked ^L), "vulnerable" (the declaring side's), "trump" (when the game has a
 * contract but no result)}, each only when the game gives it. */
enum arb_status arb_pbn_scenario_json(const char *pbn, size_t len, const char *name, int game,
                                      char **json, char **error);

/* The file with text (a ruling, say) as a commentary { … } at the end of
 * game number `game` (3.8: a comment refers to what precedes it), into
 * *out (free() it); a } in the text becomes ), blank lines are left out. */
enum arb_status arb_pbn_commentary(const char *pbn, size_t len, const char *name, int game,
                                   const char *text, char **out, char **error);

/* Every game's result scored by the ruleset's score article (Contract,
 * Declarer, Result, Vulnerable) and matchpointed by its matchpoints
 * article against the other games of the same Board, each direction
 * apart: [{"line", "board", "contract" ("5HX-2"), "declarer", "score_ns",
 * "score_ew", "matchpoints_ns", "matchpoints_ew", "top", "percentage_ns",
 * "percentage_ew"; "score_tag_ns" when the file's Score tag differs}], or
 * {"line", "board", "problem"} for a game that cannot be scored. A game
 * with a ScoreTable (one game per board, as scoring programs write it)
 * gives one result per row instead, "line" the row's, with "ns" and "ew"
 * (PairId_NS, PairId_EW), "others" (the columns not read, "Name=value"
 * separated by spaces, when there are any) and "disagreements":
 * [{"column" (Score_NS, MP_NS, MP_EW, Percentage_NS, Percentage_EW),
 * "file", "arbiter"}] where the row's own figure differs from arbiter's by
 * more than its rounding; the row's matchpoints are compared on the file's
 * scale (MP_NS + MP_EW its top), arbiter's figure put on that scale. The
 * rows are matchpointed as arb_session_json matchpoints a sheet: a board
 * played fewer times brought to the others (78D), and a row's artificial
 * score (PBN 2.1 5.2, 5.7: "A60A40", "A+", "^A", "AVE-") by the
 * adjusted-score article, the row giving "adjusted_ns" and "adjusted_ew"
 * ("60%", "A+") instead of "contract", "declarer" and the scores, and
 * "articles_ns" / "articles_ew" on such a board; "matchpoints_ns" (and
 * the others) null for a side without a result; the percentages of the
 * unrounded matchpoints. A row that cannot be scored is left out of its
 * board. A board is compared only within its field: the games with the
 * same Event, Stage and Section tags (PBN 2.1 4.4.5, 4.4.6; a row gives
 * "section" and "stage" when they are given). A field whose Scoring tag
 * says IMP (with Butler, or Cross, Cross1, Cross2) is scored as
 * arb_session_json scores a sheet by "butler" or "cross": its rows give
 * "imps_ns" and "imps_ew" (matchpoints and percentages null, no "top"),
 * and IMP_NS and IMP_EW are compared too. */
enum arb_status arb_pbn_score_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                   size_t len, const char *name, char **json, char **error);

/* The file's TotalScoreTable (5.8: the event's ranking, a pair a row)
 * held against arbiter's: the ScoreTables' rows scored as
 * arb_pbn_score_json scores them and ranked as arb_session_json ranks a
 * session (pairs by percentage, north-south and east-west apart unless
 * pairs sat both ways). *json: [{"line", "pair", "direction" ("NS", "EW",
 * null when the row gives none), "others" (when there are columns not
 * read), and arbiter's "rank", "place", "matchpoints", "top",
 * "percentage", "boards", and "disagreements": [{"column" (Rank, TotalMP
 * or TotalScoreMP, TotalPercentage, NrBoards), "file", "arbiter"}], the
 * matchpoints compared on the file's scale (as a ScoreTable row's, each
 * board's), the figures within the file's rounding; in an IMP field
 * "imps" for the matchpoints, TotalIMP or TotalScoreIMP compared with
 * them; each row against its own field's ranking}] or {"line", "pair",
 * "direction", "problem"} for a pair the ScoreTables do not have or a
 * row with a mistake. ARB_BAD_INPUT when the file has no TotalScoreTable. */
enum arb_status arb_pbn_totals_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                    size_t len, const char *name, char **json, char **error);

/* The ScoreTables' rows ranked as a session: scored and matchpointed as
 * arb_pbn_score_json does, into arb_session_json's answer (its "boards"
 * the rows, its "rankings" the pairs; a pair is its PairId, with " NS" or
 * " EW" after it when the file's TotalScoreTable ranks the directions
 * apart, or "L" and its line when the row names none). ARB_BAD_INPUT when
 * no ScoreTable row can be scored. */
enum arb_status arb_pbn_session_json(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                     size_t len, const char *name, char **json, char **error);

/* The file as it was read with each scored game's Score, ScoreMP and
 * ScorePercentage tags (NS and EW) put before its auction (old ones on a
 * line of their own are dropped), into *out (free() it); a game with a
 * ScoreTable is written as it was. */
enum arb_status arb_pbn_results(const arb_ruleset *rs, const arb_plugins *p, const char *pbn,
                                size_t len, const char *name, char **out, char **error);

/* The file in PBN 2.1's export format (2.1), into *out (free() it): "%
 * PBN 2.1" and "% EXPORT" first (2.4), lines ended by CR LF and at most
 * 255 characters (2.3), tag pairs one a line with a single space (3.3),
 * the mandatory tag set first, complete and in its order, "?" where a
 * game does not give a tag (3.4), the other tags after them in the
 * file's order with their sections (the auction four calls a line, the
 * play a trick a line), inherited values (4.8) written out, commentary
 * in braces where it was (3.8). A file with a mistake is refused as
 * arb_pbn_json refuses it: the export format is written from a valid
 * file only. */
enum arb_status arb_pbn_export(const char *pbn, size_t len, const char *name, char **out,
                               char **error);

/* ---- a session (docs/guide.md, "A session's sheet") ----
 *
 * A pairs session's score sheet: CSV with a header row naming the columns
 * board, ns, ew and score (north-south's entry, as arb_matchpoints_sheet
 * reads one: a score, a weighted or artificial score, "-", a penalty),
 * and optionally score_ew (east-west's own entry; without it east-west
 * has the opposite: -420 for 420, A- for A+, 40% for 60%); fields
 * separated by "," or ";" (the header decides), "quoted" where a field
 * holds the separator. method: "matchpoints" (78A, per side), "butler" or
 * "cross" (IMPs, 78B; the datum and the averaging as the ruleset's
 * adjusted-score article says), or "total" (total points: each side's
 * scores summed, the article of header key `total`, bridge-2017 78C; an
 * artificial score or a penalty is refused at its line). *json: {"method",
 * "boards": [{"board", "line", "ns", "score_ns", "ew", "score_ew",
 * "matchpoints_ns", "matchpoints_ew", "percentage_ns", "percentage_ew",
 * "top"} (or "imps_ns", "imps_ew"; or "points_ns", "points_ew"), and
 * "session_ns" / "session_ew": {"article", "percentage" (or
 * "imps")} when an artificial score gave way to the side's result on the
 * session's other boards (the exception the adjusted-score article names:
 * 2017 12C2c, 1963 107)], "rankings": [{"direction" ("NS", "EW", or "all" when pairs
 * sat both ways), "pairs": [{"rank", "place" ("3=" for a shared third
 * place), "pair", "direction", "boards", "matchpoints", "top",
 * "percentage"} (or "imps"; or "points")]}]}, pairs ranked by percentage
 * (or IMPs, or points),
 * equal as the list shows them (two decimals) being a tie. With
 * matchpoints, a board the sheet has fewer lines of than the session's
 * most played board is brought to that count by the adjusted-score
 * article's factoring method (neuberg or proportional; other methods
 * leave it as compared), and said in "notes": [{"board", "played",
 * "session", "factored", "text", and "method", "articles", "message",
 * "message_en" when the ruleset names the article}]. In IMPs such a board
 * stands as compared (78B gives an IMP a comparison: Butler IMPs against
 * the board's datum, cross-IMPs averaged per comparison), unless the
 * ruleset sums cross-IMPs (cross_imps(false)): then they are brought to
 * the others' count of comparisons in proportion ("factored": true); the
 * note says which. */
enum arb_status arb_session_json(const arb_ruleset *rs, const arb_plugins *p, const char *sheet,
                                 size_t len, const char *method, char **json, char **error);

/* The ranking of a matchpoint sheet of board,pair,score lines (as
 * arb_matchpoints_sheet reads it; scores as played): each pair's
 * matchpoints, tops (the boards on which the matchpoints article named
 * the action `top`) and points, ranked by matchpoints; two pairs with as
 * many are ranked by the article the header names (`ranking`;
 * klaverjas-nkf-1976: 2deel19a: the tops, then the points, else ex
 * aequo). *json: [{"rank", "place" ("3=" when shared), "pair", "boards",
 * "matchpoints", "tops", "points", "tie_broken_by" (the citation)}]. */
enum arb_status arb_ranking_json(const arb_ruleset *rs, const arb_plugins *p, const char *sheet,
                                 size_t len, char **json, char **error);

/* ---- CSV ----
 *
 * A scorer's answer as the CSV `arbiter` writes it, so that the CLI, the
 * server and the web app give the same bytes: a header row (none for
 * "matchpoints", whose rows answer the sheet's own lines), a field quoted
 * (its quotes doubled) when it holds a comma, a quote or a line break, a
 * number whole or to twelve significant digits, none an empty field.
 * form: "session" (arb_session_json's rankings: place, pair, direction,
 * boards, matchpoints, top, percentage, or imps), "session-boards" (its
 * boards), "ranking" (arb_ranking_json), "matchpoints"
 * (arb_matchpoints_sheet: board, pair, then score and matchpoints, or the
 * entry, matchpoints, percentage and "art. " with the trail), "pbn"
 * (arb_pbn_score_json), "pbn-totals" (arb_pbn_totals_json). json: that
 * call's answer, len bytes. *csv receives the text (free() it). */
enum arb_status arb_csv(const char *form, const char *json, size_t len, char **csv, char **error);

/* Klaverjas: every card of the hand in a position (a scenario with
 * "trump", "seat", "hand" and "trick"; len bytes, at most ARB_MAX_LINE)
 * ruled on by the legal article. *json receives {"ruleset",
 * "ruleset_hash", "seat", "trump", "trick" (text, "" at the lead),
 * "penalty_card" (when there is one),
 * "cards": [{"card", "verdict" ("legal" or "illegal"), "legal", and the
 * ruling's "articles", "actions", "messages", ...}]}. A card the article
 * rules on with neither verdict fails the call: ARB_NO_RULING when the rule
 * files give no ruling, else ARB_BAD_INPUT. */
enum arb_status arb_legal_json(const arb_ruleset *rs, const arb_plugins *p, const char *position,
                               size_t len, char **json, char **error);

/* Klaverjas: proves that the ruleset, with the plugins (NULL: none) around
 * its rulings, leaves the player to play at least one legal card in every
 * position the game can produce, by ruling on one position of every kind
 * the legal article can tell apart (docs/klaverjas.md, "Always a legal
 * card"). ARB_OK: one line on out saying how many kinds and positions.
 * ARB_BAD_INPUT, on errors (may be NULL): the first position with no legal
 * card, as a scenario `arbiter legal` reads; or a card that got no
 * verdict, or a fact the walk cannot answer every way. A ruleset with no legal article (bridge):
 * ARB_OK, nothing written. arb_test runs this as one of its tests. */
enum arb_status arb_check_legal_cards(const arb_ruleset *rs, const arb_plugins *p, FILE *out,
                                      FILE *errors);

/* Klaverjas: a hand scored (a scenario of len bytes, at most ARB_MAX_LINE):
 * each trick ruled on by the trick article, the first card the legal
 * article calls illegal (when the hands are known), and the score
 * article's ruling. *json receives {"ruleset", "ruleset_hash",
 * "from_record" (false: no tricks given, the result as the scenario's
 * facts say), and with tricks "trump", "taker", "tricks": [{"number",
 * "leader", "cards", "winner", "won_by", "card_points", "points" and "roem"
 * per side, the ruling}], "totals" per side ("tricks", "points" with the
 * roem counted in, "roem"), "illegal_by" ("none", "takers", "defenders";
 * null when the tricks cannot settle it), "illegal" (the card: "trick", "seat", "card", "reason",
 * the ruling); and always "score": the score article's ruling with "takers" and "defenders"}. A
 * ruling that fails fails the call: ARB_NO_RULING when the rule files give none, else
 * ARB_BAD_INPUT. */
enum arb_status arb_score_hand_json(const arb_ruleset *rs, const arb_plugins *p, const char *hand,
                                    size_t len, char **json, char **error);

/* One scenario (len bytes) under n rulesets (2 to ARB_MAX_COMPARED; the
 * editions of a law, or a ruleset and its amended self), each with its
 * plugins (plugins may be NULL, and so may each of its n entries).
 * *json receives {"rulings": [one per ruleset: the ruling as arb_rule_json
 * gives it, with "title", and "score" and "score_articles" when the
 * ruleset scores the scenario's contract; a scenario a ruleset cannot read
 * gives its "status" "bad_input" and "error"], "differences": [what differs
 * between the first and each of the others: "status", "articles" (each a
 * pair), "actions_only_in", "score"; the "status" alone where one of the
 * two gave no ruling; where both need a fact, "needs" (the fact each
 * asks) if those differ; {} when they agree]}. The status is
 * the worst of the rulings' (as arb_rule_json's); *json is given whenever
 * the arguments were sound. A plugin that failed is named in *error, one
 * line each, beside the answer. */
#define ARB_MAX_COMPARED 8
enum arb_status arb_compare_json(const arb_ruleset *const *rulesets,
                                 const arb_plugins *const *plugins, int n, const char *scenario,
                                 size_t len, char **json, char **error);
/* What differs between the first ruling of such an answer (the JSON text
 * arb_compare_json gave, len bytes) and each of the others, as `arbiter
 * compare` prints it (Dutch), to out. ARB_BAD_INPUT (nothing written) for a
 * NULL argument or a text that is not such an answer. */
enum arb_status arb_compare_differences_text(const char *compare_json, size_t len, FILE *out);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif
