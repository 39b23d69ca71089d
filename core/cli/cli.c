/* cli.c — the `arbiter` command. Exit status: 0 ruling / all tests pass,
 * 1 no ruling or a test failed, 2 bad input or usage. */
#include "arbiter.h"
#ifdef ARBITER_SERVER
#include "serve.h"
#endif

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_COMPARED ARB_MAX_COMPARED /* rulesets to compare; also the most --amend files */

/* A message on stderr, a control character shown as '?': messages quote
 * what they were given (a scenario's key, a file's name), and on a
 * terminal an escape sequence would act instead of showing. A new line
 * and a tab are text; so is any byte of UTF-8 past U+009F. */
static void eprintf(const char *fmt, ...) {
    char small[1024], *text = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof small && (text = malloc((size_t)n + 1))) {
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    if (!text) text = small, n = (int)sizeof small - 1;
    arb_mask_controls(text, (size_t)n);
    fwrite(text, 1, (size_t)n, stderr);
    if (text != small) free(text);
}

/* A text on stdout that quotes an input (a ruleset's refusal of a
 * scenario), a control character shown as '?' as eprintf shows it. */
static void print_visible(const char *s) {
    size_t n = strlen(s);
    char *text = malloc(n + 1);
    if (!text) return;
    memcpy(text, s, n + 1);
    arb_mask_controls(text, n);
    fputs(text, stdout);
    free(text);
}

typedef struct options {
    const char *ruleset, *article, *input, *input2, *why_not, *cases, *format, *lang;
    const char *listen;                 /* serve: ADDRESS:PORT */
    const char *save;                   /* ask: the scenario's file */
    const char *web;                    /* serve: the web app's folder */
    const char *rulesets[MAX_COMPARED]; /* every --ruleset, for compare */
    int nrulesets;
    const char *amends[MAX_COMPARED]; /* --amend files, applied in order */
    int namends;
    const char *plugins[ARB_MAX_PLUGINS]; /* --plugin files, in order */
    int nplugins;
    arb_plugin_limits limits;
    bool json, brief, text, verbose, coverage, help, vul, nonvul, scenarios, clauses;
    bool write;         /* pbn: the file with its results */
    bool export_format; /* pbn: the file in the export format */
    bool totals;        /* pbn: the TotalScoreTable against arbiter's ranking */
    bool boards;        /* session, pbn --ranking: the boards, not the ranking */
    bool ranking;       /* pbn: the ScoreTables' rows ranked as a session */
    const char *method; /* session: matchpoints, butler, cross or total */
    const char *game;   /* pbn: the game to give as a scenario */
    const char *ruling; /* pbn: a scenario to rule on, the ruling written into the game */
} options;

typedef struct command {
    const char *name, *usage, *help;
    int (*run)(const options *o);
} command;

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    eprintf("arbiter %s: ", cmd);
    eprintf(fmt, arg);
    eprintf("\n    hint: arbiter %s --help\n", cmd);
    return ARB_BAD_INPUT;
}

/* An input file (or stdin) that cannot be read, with the reason. */
static int cannot_read(const char *cmd, const char *path) {
    const char *why = strerror(errno);
    eprintf("arbiter %s: cannot read '%s': %s\n    hint: arbiter %s --help\n", cmd, path, why, cmd);
    return ARB_BAD_INPUT;
}

/* --lang: nl (the default) or en, as parse_options checked it. */
static enum arb_lang lang_of(const options *o) {
    return o->lang && strcmp(o->lang, "en") == 0 ? ARB_EN : ARB_NL;
}

/* What a command cannot take twice or together: one of them would be
 * passed over without a word (the last --ruleset ruled, --text beat
 * --brief, a second scenario file was never read). */
static int conflicting_options(const char *cmd, const options *o) {
    bool two_inputs = strcmp(cmd, "imps") == 0 || strcmp(cmd, "diff") == 0;
    bool rulesets = strcmp(cmd, "compare") == 0 || strcmp(cmd, "serve") == 0;
    if (o->input2 && !two_inputs) return usage_error(cmd, "unexpected argument '%s'", o->input2);
    if (o->nrulesets > 1 && !rulesets)
        return usage_error(cmd, "give --ruleset once, not also '%s' (compare takes several)",
                           o->rulesets[1]);
    if (o->json + o->brief + o->text > 1)
        return usage_error(cmd, "%s", "--json, --brief and --text are three forms: give one");
    if (o->vul && o->nonvul) return usage_error(cmd, "%s", "--vul or --nonvul, not both");
    return ARB_OK;
}

/* The options only some commands take, and which: any other command would
 * pass one over without a word (`rule --vul`, `matchpoints --method
 * butler`). The rest (--ruleset, --amend, --plugin…, --help) are checked
 * where they are read. */
static const struct {
    const char *option, *commands; /* the commands, separated by spaces */
} option_commands[] = {
    {"--why-not", " rule "},
    {"--brief", " rule "},
    {"--text", " rule "},
    {"--save", " ask "},
    {"--clauses", " check "},
    {"--coverage", " test "},
    {"--scenarios", " test "},
    {"--verbose", " test serve "},
    {"-v", " test serve "},
    {"--vul", " score "},
    {"--nonvul", " score "},
    {"--write", " pbn "},
    {"--export", " pbn "},
    {"--totals", " pbn "},
    {"--ranking", " pbn "},
    {"--game", " pbn "},
    {"--ruling", " pbn "},
    {"--boards", " session pbn "},
    {"--method", " session "},
    {"--article", " graph diff "},
    {"--cases", " diff "},
    {"--listen", " serve "},
    {"--web", " serve "},
    {"--format", " diff "},
    {"--lang", " ask diff "},
    {"--json", " rule ask score legal matchpoints pbn session ranking imps compare diff "},
};

/* ARB_OK when cmd takes the option (or no entry limits it); otherwise the
 * usage error, naming the commands that take it. */
static int option_of(const char *cmd, const char *option) {
    for (size_t i = 0; i < sizeof option_commands / sizeof *option_commands; i++) {
        if (strcmp(option, option_commands[i].option) != 0) continue;
        char copy[128], msg[256], *word[16];
        snprintf(copy, sizeof copy, "%s", option_commands[i].commands);
        int n = 0;
        for (char *t = strtok(copy, " "); t && n < 16; t = strtok(NULL, " "))
            word[n++] = t;
        size_t at = (size_t)snprintf(
            msg, sizeof msg, "%s is not an option of this command; %s is for ", option, option);
        for (int k = 0; k < n; k++) {
            if (strcmp(word[k], cmd) == 0) return ARB_OK;
            at += (size_t)snprintf(msg + at, sizeof msg - at, "%s%s",
                                   k == 0       ? ""
                                   : k == n - 1 ? " and "
                                                : ", ",
                                   word[k]);
        }
        return usage_error(cmd, "%s", msg);
    }
    return ARB_OK;
}

/* An option with a value, given at most once (a second would win silently). */
#define GIVEN_ONCE(slot)                                                                           \
    do {                                                                                           \
        if (slot) return usage_error(cmd, "%s is given once", a);                                  \
        slot = argv[++i];                                                                          \
    } while (0)

static int parse_options(const char *cmd, int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (a[0] == '-' && option_of(cmd, a) != ARB_OK) return ARB_BAD_INPUT;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            o->help = true;
        else if (strcmp(a, "--json") == 0)
            o->json = true;
        else if (strcmp(a, "--brief") == 0)
            o->brief = true;
        else if (strcmp(a, "--text") == 0)
            o->text = true;
        else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0)
            o->verbose = true;
        else if (strcmp(a, "--coverage") == 0)
            o->coverage = true;
        else if (strcmp(a, "--scenarios") == 0)
            o->scenarios = true;
        else if (strcmp(a, "--clauses") == 0)
            o->clauses = true;
        else if (strcmp(a, "--vul") == 0)
            o->vul = true;
        else if (strcmp(a, "--nonvul") == 0)
            o->nonvul = true;
        else if (strcmp(a, "--write") == 0)
            o->write = true;
        else if (strcmp(a, "--export") == 0)
            o->export_format = true;
        else if (strcmp(a, "--totals") == 0)
            o->totals = true;
        else if (strcmp(a, "--boards") == 0)
            o->boards = true;
        else if (strcmp(a, "--ranking") == 0)
            o->ranking = true;
        else if (strcmp(a, "--method") == 0 && has_next)
            GIVEN_ONCE(o->method);
        else if (strcmp(a, "--game") == 0 && has_next)
            GIVEN_ONCE(o->game);
        else if (strcmp(a, "--ruling") == 0 && has_next)
            GIVEN_ONCE(o->ruling);
        else if (strcmp(a, "--ruleset") == 0 && has_next) {
            if (o->nrulesets == MAX_COMPARED)
                return usage_error(cmd, "at most 8 rulesets, not '%s'", argv[i + 1]);
            o->ruleset = o->rulesets[o->nrulesets++] = argv[++i];
        } else if (strcmp(a, "--article") == 0 && has_next)
            GIVEN_ONCE(o->article);
        else if (strcmp(a, "--why-not") == 0 && has_next)
            GIVEN_ONCE(o->why_not);
        else if (strcmp(a, "--cases") == 0 && has_next)
            GIVEN_ONCE(o->cases);
        else if (strcmp(a, "--format") == 0 && has_next)
            GIVEN_ONCE(o->format);
        else if (strcmp(a, "--listen") == 0 && has_next)
            GIVEN_ONCE(o->listen);
        else if (strcmp(a, "--save") == 0 && has_next)
            GIVEN_ONCE(o->save);
        else if (strcmp(a, "--web") == 0 && has_next)
            GIVEN_ONCE(o->web);
        else if (strcmp(a, "--lang") == 0 && has_next) {
            const char *l = argv[++i];
            if (strcmp(l, "nl") != 0 && strcmp(l, "en") != 0)
                return usage_error(cmd, "--lang is nl or en, not '%s'", l);
            if (o->lang) return usage_error(cmd, "%s is given once", a);
            o->lang = l;
        } else if (strcmp(a, "--plugin") == 0 && has_next) {
            if (o->nplugins == ARB_MAX_PLUGINS)
                return usage_error(cmd, "at most 8 plugins, not '%s'", argv[i + 1]);
            o->plugins[o->nplugins++] = argv[++i];
        } else if ((strcmp(a, "--plugin-instructions") == 0 || strcmp(a, "--plugin-memory") == 0 ||
                    strcmp(a, "--plugin-time") == 0) &&
                   has_next) {
            char *end;
            long long v = strtoll(argv[++i], &end, 10);
            if (*end || v <= 0 || v > LONG_MAX / 1000000)
                return usage_error(cmd, "%s needs a positive whole number", a);
            if (a[9] == 'i')
                o->limits.instructions = (long)v;
            else if (a[9] == 't')
                o->limits.time_ms = (long)v;
            else
                o->limits.memory = (size_t)v;
        } else if (strcmp(a, "--amend") == 0 && has_next) {
            if (o->namends == MAX_COMPARED)
                return usage_error(cmd, "at most 8 amendments, not '%s'", argv[i + 1]);
            o->amends[o->namends++] = argv[++i];
        } else if (a[0] == '-' && a[1] == '-')
            return usage_error(cmd, "unknown or incomplete option '%s'", a);
        else if (!o->input)
            o->input = a;
        else if (!o->input2)
            o->input2 = a;
        else
            return usage_error(cmd, "unexpected argument '%s'", a);
    }
    return conflicting_options(cmd, o);
}

/* Every command that takes a ruleset takes --amend and --plugin too; the
 * plugins are bound to the ruleset the command rules with. */
static const options *current;
static arb_plugins *plugins; /* NULL without --plugin */

static arb_ruleset *with_plugins(arb_ruleset *rs) {
    if (!rs || !current || !current->nplugins) return rs;
    plugins =
        arb_load_plugins_limited(rs, current->plugins, current->nplugins, &current->limits, stderr);
    if (!plugins) {
        arb_free(rs);
        rs = NULL;
    }
    return rs;
}

static arb_ruleset *load_or_report(const char *name) {
    return with_plugins(arb_load_amended(name, current ? current->amends : NULL,
                                         current ? current->namends : 0, stderr));
}

/* For compare and diff, the amendments apply to the last ruleset named. */
static arb_ruleset *load_plain(const char *name) {
    return arb_load(name, stderr);
}

#define READ_MAX ((size_t)16 << 20) /* bytes of an input file: EFBIG beyond */

/* The whole of a stream, terminated; NULL with errno set when it cannot be
 * read or is longer than READ_MAX. */
static char *read_all(FILE *f, size_t *len) {
    size_t n = 0, cap = 8192;
    char *text = malloc(cap + 1);
    for (size_t got = 1; text && got > 0 && n <= READ_MAX;) {
        if (n == cap) {
            char *more = realloc(text, 2 * cap + 1);
            if (!more) break;
            text = more;
            cap *= 2;
        }
        errno = 0;
        got = fread(text + n, 1, cap - n, f);
        n += got;
    }
    int failed = !text ? ENOMEM : ferror(f) ? (errno ? errno : EIO) : n > READ_MAX ? EFBIG : 0;
    if (failed) {
        free(text);
        errno = failed;
        return NULL;
    }
    text[n] = 0;
    *len = n;
    return text;
}

/* A UTF-8 byte order mark at the start of an input (editors on Windows
 * write one) is dropped: JSON readers may ignore it, and it is not text. */
static void drop_bom(char *text, size_t *len) {
    if (text && *len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        memmove(text, text + 3, *len - 3 + 1);
        *len -= 3;
    }
}

static char *read_input(const char *path, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return NULL;
    char *text = read_all(f, len);
    int saved = errno;
    if (f != stdin) fclose(f);
    errno = saved;
    if (text) drop_bom(text, len);
    return text;
}

/* Whether a line, spaces around it aside, is a whole JSON object. */
static bool line_is_object(const char *line, size_t n) {
    json_error_t je;
    json_t *j = json_loadb(line, n, 0, &je);
    bool object = json_is_object(j);
    json_decref(j);
    return object;
}

/* A first line that opens a value spread over the next lines (a document
 * as an editor lays it out) ends with what must be followed. */
static bool opens_a_value(const char *line, size_t n) {
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        n--;
    return n == 0 || strchr("{[,:", line[n - 1]) != NULL;
}

#define LINES_LOOKED_AT 16 /* later lines tried before a text is called one document */

/* After a first line (first, n) that is no JSON value: JSON Lines with a
 * bad first line when that line does not open a value spread over the
 * next lines and one of the lines after it, up to end, is a whole object. */
static bool lines_despite_first(const char *first, size_t n, const char *end) {
    if (opens_a_value(first, n)) return false;
    const char *p = first + n; /* its line break */
    for (int tried = 0; p && p + 1 < end && tried < LINES_LOOKED_AT; tried++) {
        const char *line = p + 1;
        const char *next = memchr(line, '\n', (size_t)(end - line));
        if (line_is_object(line, next ? (size_t)(next - line) : (size_t)(end - line))) return true;
        p = next;
    }
    return false;
}

static bool first_line_and_more(const char *text, size_t len, const char **first,
                                size_t *first_len);

/* One JSON document, or JSON Lines: one scenario per line. Text that is
 * neither is a broken document when its first line opens a value the rest
 * does not close, so that its syntax error is shown where it is; a bad
 * first line followed by lines that are whole objects is JSON Lines with
 * one bad line, which then costs no other line its ruling. */
static bool is_single_document(const char *text, size_t len) {
    json_error_t je;
    json_t *j = json_loadb(text, len, 0, &je);
    if (j) {
        json_decref(j);
        return true;
    }
    const char *first;
    size_t n;
    if (!first_line_and_more(text, len, &first, &n)) return true; /* one line, broken */
    j = json_loadb(first, n, 0, &je);
    json_decref(j);
    return !j && !lines_despite_first(first, n, text + len);
}

/* Which facts would have to differ for the ruling to name the action. */
static int explain_why_not(const arb_ruleset *rs, const char *text, size_t len, const char *name) {
    if (arb_why_not(rs, plugins, text, len, name, stdout) == ARB_OK) return ARB_OK;
    return usage_error("rule", "--why-not: the ruleset has no action '%s'", name);
}

static void print_json(json_t *o);
static json_t *answer_json(char *text);

/* The ruling as `rule` and `ask` print it: JSON, or the Dutch text. */
static void print_ruling(const arb_ruling *r, bool json) {
    if (json)
        print_json(answer_json(arb_ruling_json(r)));
    else
        arb_ruling_text(r, stdout);
}

/* An error in a file: FILE:LINE:COL: error: … where its place is known
 * (line above 0), FILE: error: … otherwise, and where to look. */
static void print_error_at(const char *path, int line, int col, const char *error,
                           const char *hint) {
    if (line > 0)
        eprintf("%s:%d:%d: error: %s\n", path, line, col, error);
    else
        eprintf("%s: error: %s\n", path, error);
    if (hint) eprintf("    hint: %s\n", hint);
}

/* A scenario file that cannot be read: where (its syntax, or the key whose
 * value was refused), what, and where to look. */
static void report_unread(const char *path, const arb_scenario *sc, const char *error) {
    int line, col;
    arb_scenario_error_position(sc, &line, &col);
    print_error_at(path, line, col, error,
                   strncmp(error, "invalid JSON", 12) == 0
                       ? "a scenario is one JSON object; check the quotes, commas and brackets "
                         "there"
                   : strncmp(error, "a NUL byte", 10) == 0
                       ? "save the scenario as text (UTF-8): a NUL byte comes from a file of "
                         "another kind, or from text saved as UTF-16"
                       : "docs/guide.md (\"A scenario file\") describes its keys; `arbiter ask` "
                         "asks for the facts one at a time");
}

/* An error in a file the library read: where it went wrong (the library
 * begins such a message "line N, column M: " or "line N: ", a fault of the
 * line as a whole, shown at its first column), what, and where to look. */
static void report_input_error(const char *path, const char *error, const char *hint) {
    int line = 0, col = 1, used = 0;
    if (!(sscanf(error, "line %d, column %d: %n", &line, &col, &used) == 2 && used > 0) &&
        !(sscanf(error, "line %d: %n", &line, &used) == 1 && used > 0))
        line = used = 0;
    print_error_at(path, line, line > 0 ? col : 1, error + used, hint);
}

/* The ruling printed, and why there is none on stderr; its exit status. */
static int report_ruling(const arb_ruleset *rs, const arb_ruling *r, const char *path,
                         const char *text, size_t len, bool json, const char *why_not) {
    enum arb_ruling_status st = arb_ruling_status(r);
    if (json || st == ARB_RULED) print_ruling(r, json);
    int status = ARB_OK;
    if (why_not && explain_why_not(rs, text, len, why_not) != ARB_OK) status = ARB_BAD_INPUT;
    if (st != ARB_RULED) {
        eprintf("%s: error: %s\n", path, arb_ruling_error(r));
        if (st == ARB_NEEDS) eprintf("    hint: add it to the scenario, or use `arbiter ask`\n");
        if (status == ARB_OK) status = arb_ruling_exit_status(r);
    }
    return status;
}

static int rule_single(const arb_ruleset *rs, const char *path, const char *text, size_t len,
                       bool json, const char *why_not) {
    arb_scenario *sc = arb_scenario_new_plugins(rs, plugins);
    char *error = NULL;
    int status = ARB_BAD_INPUT;
    if (!sc) {
        eprintf("arbiter rule: out of memory\n");
    } else if (arb_scenario_read_json(sc, text, len, &error) != ARB_OK) {
        report_unread(path, sc, error);
    } else {
        arb_ruling *r = arb_rule(rs, plugins, sc);
        if (!r)
            eprintf("arbiter rule: out of memory\n");
        else if (arb_ruling_status(r) == ARB_FAILED)
            eprintf("arbiter: %s\n", arb_ruling_error(r));
        else
            status = report_ruling(rs, r, path, text, len, json, why_not);
        arb_ruling_free(r);
    }
    free(error);
    arb_scenario_free(sc);
    return status;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Whether text (len bytes) holds its first non-blank line whole and
 * something after it: then *first and *first_len are that line. */
static bool first_line_and_more(const char *text, size_t len, const char **first,
                                size_t *first_len) {
    size_t p = 0;
    while (p < len && is_space(text[p]))
        p++;
    const char *nl = p < len ? memchr(text + p, '\n', len - p) : NULL;
    if (!nl) return false;
    for (const char *q = nl; q < text + len; q++)
        if (!is_space(*q)) {
            *first = text + p;
            *first_len = (size_t)(nl - (text + p));
            return true;
        }
    return false;
}

/* The start of the input, enough to tell one JSON document from JSON Lines
 * without reading a batch whole: read until the first non-blank line is
 * whole and something follows it, or to the end (*all). NULL with errno
 * when it cannot be read. */
static char *read_head(FILE *f, size_t *len, bool *all) {
    size_t n = 0, cap = 65536;
    char *text = malloc(cap + 1);
    const char *first;
    size_t first_len;
    *all = false;
    int read_errno = 0;
    while (text) {
        errno = 0;
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (ferror(f)) {
            read_errno = errno ? errno : EIO; /* EISDIR for a directory */
            break;
        }
        if (got == 0 || feof(f)) {
            *all = true;
            break;
        }
        if (first_line_and_more(text, n, &first, &first_len)) break;
        if (n == cap) {
            char *more = cap > READ_MAX ? NULL : realloc(text, 2 * cap + 1);
            if (!more) break;
            text = more;
            cap *= 2;
        }
    }
    int failed = !text                         ? ENOMEM
                 : read_errno                  ? read_errno
                 : (*all ? n : cap) > READ_MAX ? EFBIG
                                               : 0; /* one document: at most READ_MAX */
    if (failed) {
        free(text);
        errno = failed;
        return NULL;
    }
    text[n] = 0;
    *len = n;
    drop_bom(text, len);
    return text;
}

/* The rest of a stream after head (head_len bytes), all of it, terminated. */
static char *read_rest(FILE *f, char *head, size_t head_len, size_t *len) {
    size_t more_len;
    char *more = read_all(f, &more_len);
    char *text = more && head_len + more_len <= READ_MAX ? malloc(head_len + more_len + 1) : NULL;
    int failed = !more ? errno : !text ? EFBIG : 0;
    if (text) {
        memcpy(text, head, head_len);
        memcpy(text + head_len, more, more_len + 1);
        *len = head_len + more_len;
    }
    free(more);
    free(head);
    if (!text) errno = failed;
    return text;
}

static int rule_batch(const arb_ruleset *rs, const options *o, const char *head, size_t len,
                      FILE *in) {
    enum arb_record_format format = o->brief  ? ARB_RECORD_BRIEF
                                    : o->text ? ARB_RECORD_TEXT
                                              : ARB_RECORD_JSON;
    fflush(stdout);
    int status = arb_rule_stream(rs, plugins, format, head, len, in, stdout);
    fflush(stdout); /* the records first, whole, then the summary */
    if (status != ARB_OK)
        eprintf("%s: some scenarios were not ruled (see their error records)\n", o->input);
    return status;
}

/* A batch is read a line at a time, never whole: only its start is read
 * here, to tell it from one JSON document (which may span lines). */
static int cmd_rule(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("rule", "%s", "needs --ruleset NAME and a SCENARIO file (or -)");
    FILE *in = strcmp(o->input, "-") == 0 ? stdin : fopen(o->input, "rb");
    size_t len;
    bool all = false;
    char *text = in ? read_head(in, &len, &all) : NULL;
    const char *first;
    size_t first_len;
    bool lines = false;
    if (text && !all && first_line_and_more(text, len, &first, &first_len)) {
        json_error_t je;
        json_t *j = json_loadb(first, first_len, 0, &je);
        lines = j != NULL; /* a whole value on the first line, and more after it */
        json_decref(j);
        if (!lines) { /* or a bad first line, then whole objects: the lines the head holds whole */
            const char *last_nl = first + first_len;
            for (const char *q = text + len; q > last_nl; q--)
                if (q[-1] == '\n') {
                    last_nl = q - 1;
                    break;
                }
            lines = lines_despite_first(first, first_len, last_nl);
        }
    }
    if (text && !all && !lines) text = read_rest(in, text, len, &len);
    if (!text) {
        int saved = errno;
        if (in && in != stdin) fclose(in);
        errno = saved;
        return cannot_read("rule", o->input);
    }
    arb_ruleset *rs = load_or_report(o->ruleset);
    int status = ARB_BAD_INPUT;
    if (rs) {
        if (lines)
            status = rule_batch(rs, o, text, len, in);
        else if (is_single_document(text, len))
            status = rule_single(rs, o->input, text, len, o->json, o->why_not);
        else
            status = rule_batch(rs, o, text, len, NULL);
    }
    if (in != stdin) fclose(in);
    free(text);
    arb_free(rs);
    return status;
}

/* ---- ask: a ruling question by question ----------------------------------
 *
 * The director answers in his own words: a choice's number or a word of it,
 * ja/nee, a number, a call. At any question "terug" takes the last answer
 * back, "?" explains, "stop" (or Ctrl-C) ends with the scenario so far, as
 * a file `arbiter ask` or `rule` can start from again. */

#define ASK_HISTORY 256
#define COLUMNS_FROM 13 /* choices shown in two columns from this many on */

typedef struct ask_state {
    const arb_ruleset *rs;
    const char *name; /* as the director named the ruleset */
    arb_scenario *sc;
    enum arb_lang lang;
    int n;                      /* answers given, in order: */
    char *history[ASK_HISTORY]; /* the facts answered (the ruleset's or a plugin's) */
} ask_state;

/* What a line the director typed asks for besides an answer. */
enum reply {
    REPLY_ANSWER, /* an answer given (or, after a ruling, nothing more to ask) */
    REPLY_AGAIN,  /* a plugin's question answered: rule again */
    REPLY_BACK,   /* "terug" */
    REPLY_HELP,   /* "?" */
    REPLY_STOP,   /* "stop", Ctrl-C */
    REPLY_END     /* the input ended */
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
    (void)sig;
    interrupted = 1;
}

/* Ctrl-C ends the questions (the read is not restarted) instead of the program. */
static void catch_interrupt(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

static const char *say(const ask_state *a, const char *nl, const char *en) {
    return a->lang == ARB_EN ? en : nl;
}

/* One line of the director's answer, without its line end, echoed when
 * piped so that the answers show in the transcript; what it asks for. */
static enum reply read_reply(char *line, int size) {
    if (interrupted || !fgets(line, size, stdin)) return interrupted ? REPLY_STOP : REPLY_END;
    line[strcspn(line, "\r\n")] = 0;
    if (!isatty(STDIN_FILENO)) printf("%s\n", line);
    const char *back[] = {"terug", "back", "<"}, *help[] = {"?", "help", "hulp"},
               *stop[] = {"stop", "klaar"};
    for (size_t i = 0; i < 3; i++)
        if (strcasecmp(line, back[i]) == 0) return REPLY_BACK;
    for (size_t i = 0; i < 3; i++)
        if (strcasecmp(line, help[i]) == 0) return REPLY_HELP;
    for (size_t i = 0; i < 2; i++)
        if (strcasecmp(line, stop[i]) == 0) return REPLY_STOP;
    return REPLY_ANSWER;
}

static void print_help(const ask_state *a) {
    puts(say(
        a,
        "  Antwoord met het nummer van een keuze of een woord eruit, ja/nee, een getal of een "
        "bieding.\n  terug: de vorige vraag opnieuw.  stop (of Ctrl-C): stoppen; het scenario tot "
        "nu toe wordt getoond.",
        "  Answer with a choice's number or a word of it, yes/no, a number or a call.\n  back: the "
        "previous question again.  stop (or Ctrl-C): stop; the scenario so far is shown."));
}

/* The bytes of the first `chars` characters of a UTF-8 text. */
static size_t utf8_prefix(const char *s, size_t chars) {
    size_t i = 0;
    for (size_t n = 0; s[i] && n < chars; n++)
        for (i++; ((unsigned char)s[i] & 0xC0) == 0x80; i++)
            continue;
    return i;
}

static size_t utf8_length(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static int terminal_width(void) {
    struct winsize w;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40)
        return w.ws_col;
    return 80;
}

/* "  12) label", cut with … to width characters. */
static void print_choice(int k, const char *label, int width, bool pad) {
    char head[16];
    int h = snprintf(head, sizeof head, "  %2d) ", k + 1);
    size_t room = width > h + 1 ? (size_t)(width - h) : 1, len = utf8_length(label);
    bool cut = len > room;
    size_t shown = cut ? room - 1 : len;
    printf("%s%.*s%s", head, (int)utf8_prefix(label, shown), label, cut ? "…" : "");
    if (pad)
        for (size_t i = shown + cut; i < room; i++)
            putchar(' ');
}

/* A long list in two columns, so that the first question fits a 24-line
 * screen; a label cut short is found by typing a word of it. */
static void print_choice_list(const ask_state *a, int f, int n) {
    if (n < COLUMNS_FROM) {
        for (int k = 0; k < n; k++) {
            print_choice(k, arb_fact_choice_label(a->rs, f, k, a->lang), 1 << 20, false);
            putchar('\n');
        }
        return;
    }
    int rows = (n + 1) / 2, half = terminal_width() / 2;
    for (int row = 0; row < rows; row++) {
        print_choice(row, arb_fact_choice_label(a->rs, f, row, a->lang), half, row + rows < n);
        if (row + rows < n)
            print_choice(row + rows, arb_fact_choice_label(a->rs, f, row + rows, a->lang), half,
                         false);
        putchar('\n');
    }
}

static void print_choices(const ask_state *a, int f) {
    long long lo, hi;
    switch (arb_fact_kind(a->rs, f)) {
    case ARB_FACT_BOOL:
        puts(say(a, "  (ja/nee)", "  (yes/no)"));
        break;
    case ARB_FACT_ENUM:
        print_choice_list(a, f, arb_fact_choice_count(a->rs, f));
        break;
    case ARB_FACT_INT:
        if (arb_fact_range(a->rs, f, &lo, &hi)) printf("  (%lld..%lld)\n", lo, hi);
        break;
    case ARB_FACT_CALL:
        puts(say(a, "  (een bieding: P, X, XX of een bod zoals 2H of 3SA)",
                 "  (a call: P, X, XX or a bid such as 2H or 3NT)"));
        break;
    case ARB_FACT_TEXT:
    case ARB_FACT_NONE:
        break;
    }
}

/* What to say when an answer is not one, in the director's words. */
static void print_hint(const ask_state *a, int f) {
    long long lo, hi;
    switch (arb_fact_kind(a->rs, f)) {
    case ARB_FACT_BOOL:
        puts(say(a, "  Antwoord ja of nee.", "  Answer yes or no."));
        break;
    case ARB_FACT_ENUM:
        printf(
            say(a,
                "  Antwoord met een nummer van 1 tot en met %d, of met een woord uit een keuze.\n",
                "  Answer with a number from 1 to %d, or with a word of a choice.\n"),
            arb_fact_choice_count(a->rs, f));
        break;
    case ARB_FACT_INT:
        if (arb_fact_range(a->rs, f, &lo, &hi))
            printf(say(a, "  Antwoord met een geheel getal van %lld tot en met %lld.\n",
                       "  Answer with a whole number from %lld to %lld.\n"),
                   lo, hi);
        else
            puts(say(a, "  Antwoord met een geheel getal.", "  Answer with a whole number."));
        break;
    case ARB_FACT_CALL:
        puts(say(
            a,
            "  Geef een bieding: P (pas), X (doublet), XX (redoublet) of een bod zoals 2H of 3SA.",
            "  Give a call: P (pass), X (double), XX (redouble) or a bid such as 2H or 3NT."));
        break;
    case ARB_FACT_TEXT:
    case ARB_FACT_NONE:
        puts(say(a, "  Dat antwoord past niet.", "  That answer does not fit."));
        break;
    }
}

/* Whether text holds word, ignoring the case of ASCII letters. */
static bool contains_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (; n && *text; text++)
        if (strncasecmp(text, word, n) == 0) return true;
    return false;
}

/* A word the director typed, found in the choices' labels: its number as
 * text in `number`, when exactly one label holds it; the labels that hold
 * it are listed when several do. */
static bool find_choice(const ask_state *a, int f, const char *word, char number[16]) {
    int n = arb_fact_choice_count(a->rs, f), found = -1, count = 0;
    for (int k = 0; k < n && *word; k++) {
        const char *nl = arb_fact_choice_label(a->rs, f, k, ARB_NL),
                   *en = arb_fact_choice_label(a->rs, f, k, ARB_EN);
        if (!contains_word(nl, word) && !contains_word(en, word)) continue;
        found = count++ ? found : k;
    }
    if (count == 1) snprintf(number, 16, "%d", found + 1);
    if (count < 2) return count == 1;
    printf(say(a, "  \"%s\" staat in %d keuzes:\n", "  \"%s\" is in %d choices:\n"), word, count);
    for (int k = 0; k < n; k++) {
        const char *label = arb_fact_choice_label(a->rs, f, k, a->lang);
        if (!contains_word(arb_fact_choice_label(a->rs, f, k, ARB_NL), word) &&
            !contains_word(arb_fact_choice_label(a->rs, f, k, ARB_EN), word))
            continue;
        print_choice(k, label, 1 << 20, false);
        putchar('\n');
    }
    return false;
}

/* The answer given to the scenario: as typed, or (a list) the one choice
 * a word of it names. */
static bool give_answer(ask_state *a, int f, const char *line) {
    char *error = NULL, number[16];
    const char *name = arb_fact_name(a->rs, f);
    bool ok = arb_scenario_answer(a->sc, name, line, &error) == ARB_OK;
    free(error);
    if (!ok && arb_fact_kind(a->rs, f) == ARB_FACT_BOOL) { /* yes/no in English */
        const char *yes_no = strcasecmp(line, "yes") == 0 || strcasecmp(line, "y") == 0 ? "ja"
                             : strcasecmp(line, "no") == 0                              ? "nee"
                                                                                        : NULL;
        ok = yes_no && arb_scenario_answer(a->sc, name, yes_no, NULL) == ARB_OK;
    }
    if (!ok && arb_fact_kind(a->rs, f) == ARB_FACT_ENUM && find_choice(a, f, line, number))
        ok = arb_scenario_answer(a->sc, name, number, NULL) == ARB_OK;
    return ok;
}

static void remember(ask_state *a, const char *fact) {
    if (a->n == ASK_HISTORY) { /* the oldest answer can no longer be taken back */
        free(a->history[0]);
        memmove(a->history, a->history + 1, sizeof *a->history * (ASK_HISTORY - 1));
        a->n--;
    }
    a->history[a->n++] = strdup(fact);
}

/* "terug": the last answer is taken back, so that its question comes again. */
static void take_back(ask_state *a) {
    if (a->n == 0) {
        puts(say(a, "  Er is nog niets beantwoord.", "  Nothing has been answered yet."));
        return;
    }
    char *fact = a->history[--a->n];
    arb_scenario_forget(a->sc, fact);
    free(fact);
}

/* Asks one question until it is answered, or the director asks for more. */
static enum reply ask_fact(ask_state *a, int f) {
    for (;;) {
        printf("%s\n", arb_fact_question(a->rs, f, a->lang));
        print_choices(a, f);
        printf("> ");
        fflush(stdout);
        char line[512];
        enum reply reply = read_reply(line, sizeof line);
        if (reply == REPLY_HELP) print_help(a);
        if (reply == REPLY_HELP) continue;
        if (reply != REPLY_ANSWER) return reply;
        if (give_answer(a, f, line)) {
            remember(a, arb_fact_name(a->rs, f));
            return REPLY_ANSWER;
        }
        if (!strchr(line, ' ') || arb_fact_kind(a->rs, f) != ARB_FACT_ENUM) print_hint(a, f);
    }
}

/* Asks a plugin's own fact that a plugin acting on the ruling needs and
 * the scenario does not give (see arb_plugin_question_next): REPLY_AGAIN
 * when answered, REPLY_ANSWER when there is none to ask. */
static enum reply ask_plugin_fact(ask_state *a, const arb_ruling *r) {
    arb_plugin_question q;
    if (arb_plugin_question_next(plugins, a->sc, r, &q) != 1) return REPLY_ANSWER;
    for (;;) {
        bool yes_no = strcmp(q.kind, "bool") == 0;
        printf("%s\n  (%s)\n> ", a->lang == ARB_EN && q.ask_en ? q.ask_en : q.ask,
               yes_no                       ? say(a, "ja/nee", "yes/no")
               : strcmp(q.kind, "int") == 0 ? say(a, "een getal", "a number")
                                            : say(a, "tekst", "text"));
        fflush(stdout);
        char line[512], *error = NULL;
        enum reply reply = read_reply(line, sizeof line);
        if (reply == REPLY_HELP) print_help(a);
        if (reply == REPLY_HELP) continue;
        if (reply != REPLY_ANSWER) return reply;
        if (yes_no && (strcasecmp(line, "yes") == 0 || strcasecmp(line, "no") == 0))
            strcpy(line, strcasecmp(line, "yes") == 0 ? "ja" : "nee");
        bool ok = arb_scenario_answer_plugin(a->sc, &q, line, &error) == ARB_OK;
        if (!ok) printf("  %s\n", a->lang == ARB_EN ? "That answer does not fit." : error);
        free(error);
        if (ok) remember(a, q.fact);
        if (ok) return REPLY_AGAIN;
    }
}

/* The values on the ruling's path that a record (the auction, the play, a
 * contract) settled rather than the director, or that were assumed (a
 * fact's default): the indexes of at most `cap` of them, in path order. */
static int record_values_on_path(const arb_ruling *r, int *out, int cap) {
    int n = 0;
    for (int i = 0; i < arb_ruling_decided_count(r) && n < cap; i++)
        if (strcmp(arb_ruling_decided_source(r, i), "given") != 0) out[n++] = i;
    return n;
}

/* Shows the values the ruling took from a record and lets the director
 * correct one: the record cannot know everything (an artificial bid, a
 * call he judges otherwise). Returns the fact to ask again, or -1 to keep
 * the ruling (an empty answer); *reply says when he asked for more. */
static int record_value_to_correct(const ask_state *a, const arb_ruling *r, enum reply *reply) {
    int values[64];
    int n = record_values_on_path(r, values, 64);
    *reply = REPLY_ANSWER;
    if (n == 0) return -1;
    for (;;) {
        puts(say(
            a,
            "Uit het biedverloop of spelverloop afgeleid, of aangenomen (de wedstrijdleider kan "
            "elke waarde verbeteren):",
            "Taken from the auction or the play, or assumed (the director may correct any "
            "value):"));
        for (int i = 0; i < n; i++)
            printf("  %d) %s: %s%s\n", i + 1,
                   arb_fact_question(a->rs, arb_ruling_decided_fact(r, values[i]), a->lang),
                   arb_ruling_decided_value(r, values[i]),
                   strcmp(arb_ruling_decided_source(r, values[i]), "default") == 0
                       ? say(a, " (aangenomen)", " (assumed)")
                       : "");
        printf("%s\n> ", say(a, "Nummer van de waarde die niet klopt, of Enter als alles klopt",
                             "The number of a value that is wrong, or Enter if all are right"));
        fflush(stdout);
        char line[64];
        *reply = read_reply(line, sizeof line);
        if (*reply == REPLY_HELP) print_help(a);
        if (*reply == REPLY_HELP) continue;
        if (*reply != REPLY_ANSWER || !line[0]) return -1;
        char *end;
        long k = strtol(line, &end, 10);
        if (!*end && k >= 1 && k <= n) return arb_ruling_decided_fact(r, values[k - 1]);
        printf(say(a, "  Geef een nummer van 1 tot en met %d, of Enter.\n",
                   "  Give a number from 1 to %d, or Enter.\n"),
               n);
    }
}

/* The scenario file ask starts from, read into sc; false (reported) when it cannot be. */
static bool read_start(const char *path, arb_scenario *sc) {
    size_t len;
    char *text = read_input(path, &len), *error = NULL;
    bool ok = text && arb_scenario_read_json(sc, text, len, &error) == ARB_OK;
    if (!text)
        eprintf("%s: error: %s\n", path, strerror(errno));
    else if (!ok)
        report_unread(path, sc, error);
    free(error);
    free(text);
    return ok;
}

/* What comes after ruling r: the fact to ask (*fact), a plugin's question
 * asked (rule again), a correction chosen, or the ruling kept (*fact -1). */
static enum reply next_step(ask_state *a, const arb_ruling *r, int answered, int *fact) {
    enum arb_ruling_status st = arb_ruling_status(r);
    *fact = -1;
    if (st == ARB_REJECTED && answered >= 0) {
        printf(say(a, "  Dat kan niet: %s\n", "  That cannot be: %s\n"),
               arb_ruling_invariant(r, a->lang));
        take_back(a);
        *fact = answered;
        return REPLY_ANSWER;
    }
    if (st == ARB_NEEDS) {
        *fact = arb_fact_find(a->rs, arb_ruling_needs(r));
        return REPLY_ANSWER;
    }
    enum reply reply = plugins ? ask_plugin_fact(a, r) : REPLY_ANSWER;
    if (reply != REPLY_ANSWER) return reply;
    if (st == ARB_RULED) *fact = record_value_to_correct(a, r, &reply);
    return reply == REPLY_END ? REPLY_ANSWER : reply; /* Enter or the end: the ruling stands */
}

/* The scenario so far, on stdout and in --save's file: a start for later.
 * False when --save's file could not be written (the scenario then goes to
 * stdout, so that it is not lost). */
static bool show_scenario(const ask_state *a, const char *save, bool stopped) {
    char *json = arb_scenario_json(a->sc);
    if (!json) return !save;
    if (stopped) {
        printf(
            say(a,
                "\nGestopt. Het scenario tot nu toe (verder met `arbiter ask --ruleset %s "
                "BESTAND`):\n",
                "\nStopped. The scenario so far (go on with `arbiter ask --ruleset %s FILE`):\n"),
            a->name);
        printf("%s\n", json);
    }
    FILE *f = save ? fopen(save, "w") : NULL;
    /* a full disk shows at the flush: every step checked, not only the open */
    bool written = f && fprintf(f, "%s\n", json) >= 0;
    written = f && fclose(f) == 0 && written;
    if (written) printf(say(a, "Scenario bewaard in %s.\n", "Scenario saved in %s.\n"), save);
    if (save && !written) {
        eprintf("arbiter ask: cannot write '%s': %s\n"
                "    hint: the scenario is on stdout; --save a file in a directory you can write\n",
                save, strerror(errno));
        if (!stopped) printf("%s\n", json);
    }
    free(json);
    return !save || written;
}

/* The questions, until there is a ruling to keep; the ruling in *out. */
static enum reply ask_until_ruled(ask_state *a, arb_ruling **out) {
    arb_ruling *r = NULL;
    int answered = -1;
    for (;;) {
        arb_ruling_free(r);
        r = arb_rule(a->rs, plugins, a->sc);
        *out = r;
        if (arb_ruling_status(r) == ARB_FAILED) return REPLY_END;
        int f;
        enum reply reply = next_step(a, r, answered, &f);
        if (reply == REPLY_AGAIN) continue; /* with the plugin's fact */
        if (reply == REPLY_BACK) take_back(a);
        if (reply == REPLY_BACK) continue;
        if (reply != REPLY_ANSWER) return reply;
        if (f < 0) return REPLY_ANSWER;
        reply = ask_fact(a, f);
        if (reply == REPLY_BACK) take_back(a);
        if (reply == REPLY_STOP || reply == REPLY_END) return reply;
        answered = reply == REPLY_ANSWER ? f : -1;
    }
}

/* A value as the ruling names it (the Dutch label), in English. */
static const char *value_in_english(const arb_ruleset *rs, int f, const char *value) {
    for (int k = 0; k < arb_fact_choice_count(rs, f); k++)
        if (strcmp(arb_fact_choice_label(rs, f, k, ARB_NL), value) == 0)
            return arb_fact_choice_label(rs, f, k, ARB_EN);
    return value;
}

static const char *source_in_english(const char *source) {
    return strcmp(source, "given") == 0     ? ""
           : strcmp(source, "default") == 0 ? " (assumed: the scenario does not say)"
           : strcmp(source, "auction") == 0 ? " (from the auction)"
                                            : " (from the record)";
}

/* The ruling as arb_ruling_text writes it, in English: trail, actions, the facts it rests on. */
static void print_ruling_english(const ask_state *a, const arb_ruling *r) {
    if (arb_ruling_status(r) != ARB_RULED) {
        printf("No ruling: %s\n", arb_ruling_error(r));
        return;
    }
    printf("Ruling under %s\nArticles:", a->name);
    for (int i = 0; i < arb_ruling_trail_count(r); i++) {
        const char *cite = arb_ruling_trail(r, i), *title = arb_article_title(a->rs, cite, ARB_EN);
        printf("%s %s", i ? " >" : "", cite);
        if (title && *title) printf(" (%s)", title);
    }
    puts("\nRuling:");
    for (int i = 0; i < arb_ruling_action_count(r); i++)
        printf("  [%s] %s\n", arb_ruling_action_cite(r, i), arb_ruling_message(r, i, ARB_EN));
    puts("Decided on:");
    for (int i = 0; i < arb_ruling_decided_count(r); i++) {
        int f = arb_ruling_decided_fact(r, i);
        printf("  %s: %s%s\n", arb_fact_question(a->rs, f, ARB_EN),
               value_in_english(a->rs, f, arb_ruling_decided_value(r, i)),
               source_in_english(arb_ruling_decided_source(r, i)));
    }
}

static int cmd_ask(const options *o) {
    if (!o->ruleset) return usage_error("ask", "%s", "needs --ruleset NAME");
    arb_ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    ask_state a = {.rs = rs,
                   .name = o->ruleset,
                   .sc = arb_scenario_new_plugins(rs, plugins),
                   .lang = lang_of(o)};
    int status = a.sc && (!o->input || read_start(o->input, a.sc)) ? ARB_OK : ARB_BAD_INPUT;
    arb_ruling *r = NULL;
    catch_interrupt();
    enum reply reply = status == ARB_OK ? ask_until_ruled(&a, &r) : REPLY_END;
    if (status == ARB_OK && arb_ruling_status(r) == ARB_FAILED) {
        eprintf("arbiter: %s\n", r ? arb_ruling_error(r) : "out of memory");
        status = ARB_BAD_INPUT;
    } else if (status == ARB_OK && reply == REPLY_END) {
        eprintf("arbiter ask: the input ended before the questions did\n");
        show_scenario(&a, o->save, true);
        status = ARB_BAD_INPUT;
    } else if (status == ARB_OK && reply == REPLY_STOP) {
        status = show_scenario(&a, o->save, true) ? ARB_NO_RULING : ARB_BAD_INPUT;
    } else if (status == ARB_OK) {
        putchar('\n');
        if (a.lang == ARB_EN && !o->json)
            print_ruling_english(&a, r);
        else
            print_ruling(r, o->json);
        bool saved = show_scenario(&a, o->save, false);
        status = saved ? arb_ruling_exit_status(r) : ARB_BAD_INPUT;
    }
    for (int i = 0; i < a.n; i++)
        free(a.history[i]);
    arb_ruling_free(r);
    arb_scenario_free(a.sc);
    arb_free(rs);
    return status;
}

static int cmd_check(const options *o) {
    const char *name = o->input ? o->input : o->ruleset;
    if (!name) return usage_error("check", "%s", "needs a ruleset NAME or PATH");
    char *path = arb_find_ruleset(name);
    if (!path) return usage_error("check", "no ruleset named or at '%s'", name);
    arb_ruleset *rs = NULL; /* the ruleset the check compiled (or loaded), not compiled again */
    enum arb_status status = arb_check_kept(path, o->amends, o->namends, stdout, stderr, &rs);
    if (status == ARB_OK) rs = with_plugins(rs);
    if (status == ARB_OK)
        status = rs ? arb_check_legal_cards(rs, plugins, stdout, stderr) : ARB_BAD_INPUT;
    if (status == ARB_OK && o->clauses) status = arb_hidden_clauses(rs, stdout, NULL);
    arb_free(rs);
    free(path);
    return status;
}

static int cmd_test(const options *o) {
    const char *name = o->input ? o->input : o->ruleset;
    if (!name) return usage_error("test", "%s", "needs a ruleset NAME or PATH");
    arb_ruleset *rs = load_or_report(name);
    if (!rs) {
        puts("0 passed, 1 failed");
        return ARB_BAD_INPUT;
    }
    int flags = (o->verbose ? ARB_TEST_VERBOSE : 0) | (o->coverage ? ARB_TEST_COVERAGE : 0);
    enum arb_status status = o->scenarios ? arb_test_scenarios(rs, stdout, NULL)
                                          : arb_test(rs, plugins, flags, stdout, NULL, NULL);
    arb_free(rs);
    return status;
}

static int cmd_rulesets(const options *o) {
    char *any = arb_find_ruleset(o->input ? o->input : "bridge-2017");
    char base[PATH_MAX] = "rulesets";
    if (any) { /* the directory the search found rulesets in */
        snprintf(base, sizeof base, "%s", any);
        char *slash = strrchr(base, '/');
        if (slash) *slash = 0;
    }
    free(any);
    int shown;
    enum arb_status status = arb_rulesets_table(base, stdout, &shown);
    if (!shown) eprintf("arbiter rulesets: none found in %s\n", base);
    return shown ? status : ARB_BAD_INPUT;
}

static void print_json(json_t *o) {
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    puts(s);
    free(s);
    json_decref(o);
}

/* The plugins of the ruleset a command rules with, for the API's calls. */
static const arb_plugins *api_plugins(void) {
    return plugins;
}

/* An answer the API gave as JSON text, read back (the text is freed). */
static json_t *answer_json(char *text) {
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return j;
}

/* A string member of an answer; "" when it has none. */
static const char *text_of(json_t *row, const char *key) {
    const char *v = json_string_value(json_object_get(row, key));
    return v ? v : "";
}

/* A ruling's actions as text, each with its article, then what plugins changed. */
static void print_components_json(json_t *ruling) {
    size_t i;
    json_t *a, *p;
    json_array_foreach(json_object_get(ruling, "actions"), i, a)
        printf("  [%s] %s\n", json_string_value(json_object_get(a, "article")),
               json_string_value(json_array_get(json_object_get(ruling, "messages"), i)));
    json_array_foreach(json_object_get(ruling, "plugins"), i, p)
        printf("  Plugin %s (%s): %s\n", json_string_value(json_object_get(p, "plugin")),
               json_string_value(json_object_get(p, "cite")),
               json_string_value(json_object_get(p, "changed")));
}

/* ---- klaverjas: legal and score ---- */

static void print_trail(json_t *trail);

/* "[12 > 12A] Message. Message." */
static void print_trail_and_messages(json_t *ruling) {
    printf("[");
    print_trail(json_object_get(ruling, "articles"));
    printf("]");
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ruling, "messages"), i, m)
        printf(" %s", json_string_value(m));
    putchar('\n');
}

static void print_legal(const arb_ruleset *rs, json_t *answer) {
    const char *seat = json_string_value(json_object_get(answer, "seat"));
    const char *trick = json_string_value(json_object_get(answer, "trick"));
    const char *penalty = json_string_value(json_object_get(answer, "penalty_card"));
    if (*trick)
        printf("%s aan slag, troef %s, slag %s", seat,
               json_string_value(json_object_get(answer, "trump")), trick);
    else
        printf("%s komt uit, troef %s", seat, json_string_value(json_object_get(answer, "trump")));
    if (penalty) printf(", strafkaart %s", penalty);
    printf(" — %s\n", arb_title(rs));
    size_t i;
    json_t *card;
    json_array_foreach(json_object_get(answer, "cards"), i, card) {
        printf("  %-4s %-8s ", json_string_value(json_object_get(card, "card")),
               json_string_value(json_object_get(card, "verdict")));
        print_trail_and_messages(card);
    }
}

/* A call of the API that answers a scenario (arb_legal_json, arb_score_hand_json). */
typedef enum arb_status (*scenario_call)(const arb_ruleset *rs, const arb_plugins *p,
                                         const char *text, size_t len, char **json, char **error);

/* The scenario file o->input answered by call: printed as JSON or by
 * print_text, or what went wrong reported with the file's name. */
static int answer_scenario_file(const arb_ruleset *rs, const options *o, const char *cmd,
                                scenario_call call,
                                void (*print_text)(const arb_ruleset *rs, json_t *answer)) {
    size_t len;
    char *text = read_input(o->input, &len), *answer = NULL, *error = NULL;
    if (!text) return cannot_read(cmd, o->input); /* a contract given to klaverjas, say */
    int status = call(rs, api_plugins(), text, len, &answer, &error);
    json_t *j = answer_json(answer);
    if (status == ARB_OK && o->json)
        print_json(json_incref(j));
    else if (status == ARB_OK)
        print_text(rs, j);
    else
        report_input_error(o->input, error,
                           "docs/guide.md describes the file's keys; `arbiter ask` asks for the "
                           "facts one at a time");
    json_decref(j);
    free(error);
    free(text);
    return status;
}

static int cmd_legal(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("legal", "%s", "needs --ruleset NAME and a POSITION file (or -)");
    arb_ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    int status = answer_scenario_file(rs, o, "legal", arb_legal_json, print_legal);
    arb_free(rs);
    return status;
}

/* A side of a klaverjas hand, as the answers name it, in words. */
static const char *side_word(const char *side) {
    return strcmp(side, "takers") == 0 ? "spelers" : "tegenspelers";
}

static long long integer_at(json_t *j, const char *key, const char *side) {
    json_t *v = json_object_get(j, key);
    return json_integer_value(side ? json_object_get(v, side) : v);
}

/* "[3 > 3E]": the articles of a ruling. */
static void print_articles(json_t *ruling) {
    printf("[");
    print_trail(json_object_get(ruling, "articles"));
    puts("]");
}

static void print_tricks(json_t *tricks) {
    size_t t, i;
    json_t *tr, *card;
    json_array_foreach(tricks, t, tr) {
        printf("Slag %zu  %s:", t + 1, text_of(tr, "leader"));
        json_array_foreach(json_object_get(tr, "cards"), i, card)
            printf("%s%s", i ? " " : "", json_string_value(card));
        printf("  → %s (%s), %lld kaartpunten, roem %lld  ", text_of(tr, "winner"),
               side_word(text_of(tr, "won_by")), integer_at(tr, "card_points", NULL),
               integer_at(tr, "roem", "takers") + integer_at(tr, "roem", "defenders"));
        print_articles(tr);
        print_components_json(tr);
    }
}

/* The first card the legal article calls illegal: whether it is a revoke,
 * the score article's ruling says (its trail). */
static void print_illegal(const arb_ruleset *rs, json_t *hand) {
    json_t *illegal = json_object_get(hand, "illegal");
    if (json_is_null(json_object_get(hand, "illegal_by"))) {
        printf("Verboden kaart (legal-artikel): niet uit het verloop vast te stellen (%s)\n",
               !arb_job_article(rs, "legal") ? "de regelset noemt geen legal-artikel"
                                             : "niet alle handen zijn bekend");
    } else if (!illegal) {
        puts("Verboden kaart (legal-artikel): geen");
    } else {
        printf("Verboden kaart van de %s: slag %lld, %s speelde %s ",
               side_word(text_of(hand, "illegal_by")), integer_at(illegal, "trick", NULL),
               text_of(illegal, "seat"), text_of(illegal, "card"));
        print_trail_and_messages(illegal);
    }
}

static void print_hand_score(const arb_ruleset *rs, json_t *hand) {
    json_t *score = json_object_get(hand, "score");
    if (json_is_true(json_object_get(hand, "from_record"))) {
        printf("Klaverjas volgens %s (%s): troef %s, speler %s\n", arb_title(rs), arb_name(rs),
               text_of(hand, "trump"), text_of(hand, "taker"));
        print_tricks(json_object_get(hand, "tricks"));
        json_t *takers = json_object_get(json_object_get(hand, "totals"), "takers");
        json_t *defenders = json_object_get(json_object_get(hand, "totals"), "defenders");
        printf("Slagen: spelers %lld, tegenspelers %lld\n", integer_at(takers, "tricks", NULL),
               integer_at(defenders, "tricks", NULL));
        printf("Uit de slagen: spelers %lld (roem %lld), tegenspelers %lld (roem %lld)\n",
               integer_at(takers, "points", NULL), integer_at(takers, "roem", NULL),
               integer_at(defenders, "points", NULL), integer_at(defenders, "roem", NULL));
        print_illegal(rs, hand);
    } else {
        printf("Klaverjas volgens %s (%s): het resultaat zoals opgegeven, zonder slagverloop\n",
               arb_title(rs), arb_name(rs));
    }
    printf("Score ");
    print_articles(score);
    print_components_json(score);
    printf("Spelers: %lld   Tegenspelers: %lld\n", integer_at(score, "takers", NULL),
           integer_at(score, "defenders", NULL));
}

static int cmd_score(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error(
            "score", "%s",
            "needs --ruleset NAME and a CONTRACT such as 4SX+1 (klaverjas: a HAND file)");
    arb_ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    if (arb_game(rs) && strcmp(arb_game(rs), "klaverjas") == 0) {
        int status = answer_scenario_file(rs, o, "score", arb_score_hand_json,
                                          print_hand_score); /* trick by trick */
        arb_free(rs);
        return status;
    }
    enum arb_vulnerability vul = o->vul      ? ARB_VULNERABLE
                                 : o->nonvul ? ARB_NOT_VULNERABLE
                                             : ARB_VULNERABILITY_UNKNOWN;
    char *text = NULL, *error = NULL;
    long long total = 0;
    int status = arb_score_contract(rs, api_plugins(), o->input, vul, &total, &text, &error);
    json_t *answer = answer_json(text);
    if (status != ARB_OK) {
        /* the answer comes with a failure only when the score needs a fact: the vulnerability */
        eprintf("arbiter score: %s%s\n", error, answer && vul < 0 ? "; say --vul or --nonvul" : "");
    } else if (o->json) {
        print_json(json_incref(answer));
    } else {
        printf("%s%s — %s\n", o->input,
               vul < 0  ? ""
               : o->vul ? ", kwetsbaar"
                        : ", niet kwetsbaar",
               arb_title(rs));
        print_components_json(answer);
        printf("Score van de leider: %lld\n", total);
    }
    json_decref(answer);
    free(error);
    arb_free(rs);
    return status;
}

/* A score as imps takes it: a whole number, -100000 to 100000. */
static bool score_arg(const char *text, long long *out) {
    char *end;
    errno = 0;
    *out = strtoll(text, &end, 10);
    return *text && !*end && errno == 0 && *out >= -100000 && *out <= 100000;
}

static int cmd_imps(const options *o) {
    if (!o->ruleset || !o->input || !o->input2)
        return usage_error("imps", "%s", "needs --ruleset NAME and two scores A B");
    long long a, b;
    const char *bad = !score_arg(o->input, &a)    ? o->input
                      : !score_arg(o->input2, &b) ? o->input2
                                                  : NULL;
    if (bad)
        return usage_error("imps", "scores are whole numbers between -100000 and 100000, not '%s'",
                           bad);
    arb_ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    char *text = NULL, *error = NULL;
    long long imps = 0;
    int status = arb_imps(rs, api_plugins(), a - b, &imps, &text, &error);
    json_t *answer = answer_json(text);
    if (status != ARB_OK) {
        eprintf("arbiter imps: %s\n", error);
    } else if (o->json) {
        print_json(json_incref(answer));
    } else {
        printf("%lld tegen %lld: verschil %lld — %s\n", a, b, a - b, arb_title(rs));
        print_components_json(answer);
        printf("IMP's: %lld\n", imps);
    }
    json_decref(answer);
    free(error);
    arb_free(rs);
    return status;
}

/* The answer of a scorer's call (its JSON text, taken) as the library
 * writes it in CSV (arb_csv); false, with the library's error, when it
 * cannot. */
static bool print_csv(const char *form, char *answer) {
    char *csv = NULL, *error = NULL;
    bool ok = answer && arb_csv(form, answer, strlen(answer), &csv, &error) == ARB_OK;
    if (ok)
        fputs(csv, stdout);
    else if (answer)
        eprintf("arbiter: %s\n", error ? error : "out of memory");
    free(csv);
    free(error);
    free(answer);
    return ok;
}

/* A number of the sheet as the answer gives it: whole, or rounded; "-"
 * for none (a board not played). */
static void sheet_number(char *out, size_t size, json_t *v) {
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, size, "%.12g", json_real_value(v));
    else
        snprintf(out, size, "-");
}

/* A matchpoint sheet of bare scores (no board, no pair): a score and its
 * matchpoints a line, an adjusted entry with its percentage and trail. */
static void print_scores(json_t *rows) {
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) {
        char mp[32], pct[32];
        sheet_number(mp, sizeof mp, json_object_get(r, "matchpoints"));
        if (!json_object_get(r, "entry")) {
            printf("%6lld  %s\n", (long long)json_integer_value(json_object_get(r, "score")), mp);
            continue;
        }
        sheet_number(pct, sizeof pct, json_object_get(r, "percentage"));
        if (strcmp(pct, "-") != 0) strcat(pct, "%");
        const char *cited = text_of(r, "articles");
        printf("%6s  %s  (%s)%s%s\n", text_of(r, "entry"), mp, pct, *cited ? "  art. " : "", cited);
    }
}

static int cmd_matchpoints(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("matchpoints", "%s", "needs --ruleset NAME and a FILE of scores (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("matchpoints", o->input);
    arb_ruleset *rs = load_or_report(o->ruleset);
    char *sheet = NULL, *error = NULL;
    int status =
        rs ? arb_matchpoints_sheet(rs, api_plugins(), text, len, &sheet, &error) : ARB_BAD_INPUT;
    if (status != ARB_OK) {
        if (rs)
            report_input_error(o->input, error,
                               "a line is a score, or board,pair,score (`arbiter matchpoints "
                               "--help`; docs/guide.md)");
        free(sheet);
    } else if (o->json) {
        print_json(answer_json(sheet));
    } else {
        json_t *rows = json_loads(sheet, 0, NULL);
        if (!json_object_get(json_array_get(rows, 0), "board")) {
            print_scores(rows);
            free(sheet);
        } else if (!print_csv("matchpoints", sheet)) { /* CSV lines of board,pair,score */
            status = ARB_NO_MEMORY;
        }
        json_decref(rows);
    }
    free(error);
    free(text);
    arb_free(rs);
    return status;
}

static void print_trail(json_t *trail) {
    size_t i;
    json_t *c;
    json_array_foreach(trail, i, c) printf("%s%s", i ? " > " : "", json_string_value(c));
}

static void print_compared(json_t *ruling) {
    printf("== %s — %s\n", json_string_value(json_object_get(ruling, "ruleset")),
           json_string_value(json_object_get(ruling, "title"))
               ? json_string_value(json_object_get(ruling, "title"))
               : "");
    if (json_object_get(ruling, "error")) {
        fputs("Geen uitspraak: ", stdout);
        print_visible(json_string_value(json_object_get(ruling, "error")));
        fputs("\n\n", stdout);
        return;
    }
    printf("Artikelen: ");
    print_trail(json_object_get(ruling, "articles"));
    puts("\nUitspraak:");
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(ruling, "messages"), i, m) {
        json_t *a = json_array_get(json_object_get(ruling, "actions"), i);
        printf("  [%s] %s\n", json_string_value(json_object_get(a, "article")),
               json_string_value(m));
    }
    if (json_object_get(ruling, "score"))
        printf("Score van de leider: %lld\n",
               (long long)json_integer_value(json_object_get(ruling, "score")));
    json_t *unused = json_object_get(ruling, "unused");
    json_array_foreach(unused, i, m)
        printf("%s%s", i ? ", " : "Speelde geen rol: ", json_string_value(m));
    if (json_array_size(unused)) putchar('\n');
    putchar('\n');
}

/* The comparison as `compare` prints it: each ruling, then what differs
 * between the first and each of the others. */
static void print_comparison(const options *o, json_t *answer, const char *text) {
    json_t *rulings = json_object_get(answer, "rulings"),
           *diffs = json_object_get(answer, "differences");
    if (o->json) {
        print_json(
            json_pack("{sssOsO}", "scenario", o->input, "rulings", rulings, "differences", diffs));
        return;
    }
    fputs("Vergelijking voor ", stdout);
    print_visible(o->input);
    fputs("\n\n", stdout);
    for (size_t i = 0; i < json_array_size(rulings); i++)
        print_compared(json_array_get(rulings, i));
    arb_compare_differences_text(text, strlen(text), stdout);
}

/* Each line of what the plugins reported. */
static void print_plugin_errors(char *error) {
    char *save = NULL;
    for (char *line = error ? strtok_r(error, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save))
        eprintf("arbiter: %s\n", line);
}

/* The rulesets to compare, loaded in order; the amendments and plugins go
 * with the last. Returns how many loaded (all, or up to the first that
 * failed). */
static int load_compared(const options *o, arb_ruleset **rsets, const arb_plugins **with) {
    int n = 0;
    for (; n < o->nrulesets; n++) {
        bool last = n == o->nrulesets - 1;
        rsets[n] = last ? load_or_report(o->rulesets[n]) : load_plain(o->rulesets[n]);
        if (!rsets[n]) break;
        with[n] = last ? api_plugins() : NULL;
    }
    return n;
}

/* The error of a scenario every compared ruleset refused alike (its text
 * cannot be read, or it names what none of them knows): NULL otherwise. */
static const char *refused_by_all(json_t *all) {
    json_t *rulings = json_object_get(all, "rulings"), *r;
    const char *error = NULL;
    size_t i;
    json_array_foreach(rulings, i, r) {
        const char *e = json_string_value(json_object_get(r, "error"));
        if (strcmp(text_of(r, "status"), "bad_input") != 0 || !e || (error && strcmp(e, error)))
            return NULL;
        error = e;
    }
    return error;
}

static int cmd_compare(const options *o) {
    if (o->nrulesets < 2 || !o->input)
        return usage_error("compare", "%s", "needs two --ruleset and a SCENARIO file (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("compare", o->input);
    arb_ruleset *rsets[MAX_COMPARED];
    const arb_plugins *with[MAX_COMPARED];
    int loaded = load_compared(o, rsets, with), status = ARB_BAD_INPUT;
    if (loaded == o->nrulesets) {
        char *answer = NULL, *error = NULL;
        status = arb_compare_json((const arb_ruleset *const *)rsets, with, loaded, text, len,
                                  &answer, &error);
        print_plugin_errors(error);
        json_t *all = answer ? json_loads(answer, 0, NULL) : NULL;
        const char *unread = refused_by_all(all); /* as `rule` does, --json too */
        if (unread)
            report_input_error(o->input, unread,
                               "docs/guide.md describes a scenario's keys; `arbiter ask` asks "
                               "for the facts one at a time");
        else if (all)
            print_comparison(o, all, answer);
        json_decref(all);
        free(answer);
        free(error);
    }
    for (int i = 0; i < loaded; i++)
        arb_free(rsets[i]);
    free(text);
    return status;
}

/* diff --cases FILE: the corpus is read here, so that it may be stdin. */
static int cmd_diff(const options *o) {
    if (!o->input || !o->input2) return usage_error("diff", "%s", "needs two rulesets A B");
    static const char *const formats[] = {"text", "exact", "json", "md", "html"};
    arb_diff_options d = {.article = o->article, .json = o->json};
    int f = 0;
    while (o->format && f < 5 && strcmp(o->format, formats[f]) != 0)
        f++;
    if (f == 5)
        return usage_error("diff", "--format is text, exact, json, md or html, not '%s'",
                           o->format);
    d.format = (enum arb_diff_format)f;
    d.lang = lang_of(o);
    arb_ruleset *a = load_plain(o->input), *b = a ? load_or_report(o->input2) : NULL;
    char *cases = NULL;
    int status = ARB_BAD_INPUT;
    if (a && b && o->cases && !(cases = read_input(o->cases, &d.cases_len))) {
        status = cannot_read("diff", o->cases);
    } else if (a && b) {
        d.cases = cases;
        status = arb_diff(a, b, &d, stdout, stderr);
    }
    free(cases);
    arb_free(a);
    arb_free(b);
    return status;
}

static int cmd_graph(const options *o) {
    if (!o->ruleset || !o->article)
        return usage_error("graph", "%s", "needs --ruleset NAME and --article N");
    arb_ruleset *rs = load_or_report(o->ruleset);
    if (!rs) return ARB_BAD_INPUT;
    enum arb_status status = arb_graph_dot(rs, o->article, stdout, stderr);
    arb_free(rs);
    return status;
}

#ifdef ARBITER_SERVER
static int cmd_serve(const options *o) {
    if (o->input) return usage_error("serve", "unexpected argument '%s'", o->input);
    serve_config c = {o->listen,   o->rulesets, o->nrulesets, o->plugins,
                      o->nplugins, o->limits,   o->web,       o->verbose};
    return serve_run(&c);
}
#else
/* The server is arbiter-serve, beside this program (the Makefile says
 * why): it is run with this command line, options checked here first. */
static char **command_line;

static int cmd_serve(const options *o) {
    if (o->input) return usage_error("serve", "unexpected argument '%s'", o->input);
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - sizeof "arbiter-serve");
    if (n > 0) path[n] = 0;
    char *slash = n > 0 ? strrchr(path, '/') : NULL;
    if (slash) {
        strcpy(slash + 1, "arbiter-serve");
        command_line[0] = path;
        fflush(NULL);
        execv(path, command_line);
    }
    fprintf(stderr,
            "arbiter serve: cannot start the server %s: %s\n"
            "hint: arbiter-serve is built and installed beside arbiter (make, make install)\n",
            slash ? path : "arbiter-serve",
            slash ? strerror(errno) : "this program's path is unknown");
    return ARB_BAD_INPUT;
}
#endif

/* ---- pbn ---- */

/* The games as read: one line each. */
static void print_pbn_games(json_t *games) {
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g) {
        json_t *auction = json_object_get(g, "auction"), *play = json_object_get(g, "play");
        printf("board %s (line %lld): dealer %s, vulnerable %s",
               *text_of(g, "board") ? text_of(g, "board") : "?",
               (long long)json_integer_value(json_object_get(g, "line")),
               *text_of(g, "dealer") ? text_of(g, "dealer") : "?",
               *text_of(g, "vulnerable") ? text_of(g, "vulnerable") : "?");
        if (json_is_string(json_object_get(g, "contract")))
            printf("; %s by %s", text_of(g, "contract"),
                   *text_of(g, "declarer") ? text_of(g, "declarer") : "-");
        if (json_is_integer(json_object_get(g, "result")))
            printf(", %lld tricks", (long long)json_integer_value(json_object_get(g, "result")));
        if (auction) printf("; %zu calls", json_array_size(json_object_get(auction, "calls")));
        if (play) printf("; %zu cards played", json_array_size(json_object_get(play, "cards")));
        if (json_object_get(g, "score_table"))
            printf("; %zu results in its ScoreTable",
                   json_array_size(json_object_get(g, "score_table")));
        printf("%s\n", json_is_true(json_object_get(g, "bad")) ? " (has a mistake)" : "");
    }
}

/* The ruling on the scenario in file `path`, as `arbiter rule` prints it,
 * into *text (malloc'd); the exit status of that ruling. */
static int ruling_text_of(arb_ruleset *rs, const char *path, char **text) {
    size_t len, size = 0;
    *text = NULL;
    char *json = read_input(path, &len);
    if (!json) return cannot_read("pbn", path);
    arb_scenario *sc = arb_scenario_new_plugins(rs, api_plugins());
    char *error = NULL;
    int status = sc ? arb_scenario_read_json(sc, json, len, &error) : ARB_BAD_INPUT;
    arb_ruling *r = status == ARB_OK ? arb_rule(rs, api_plugins(), sc) : NULL;
    FILE *out = r ? open_memstream(text, &size) : NULL;
    if (status != ARB_OK) {
        eprintf("%s: error: %s\n", path, error ? error : "cannot read the scenario");
    } else if (!out || arb_ruling_text(r, out) != ARB_OK) {
        status = ARB_BAD_INPUT;
        eprintf("%s: error: %s\n", path,
                r && arb_ruling_error(r) ? arb_ruling_error(r) : "no ruling");
    } else {
        status = arb_ruling_exit_status(r);
    }
    if (out) fclose(out);
    arb_ruling_free(r);
    arb_scenario_free(sc);
    free(error);
    free(json);
    return status;
}

/* pbn --game N --ruling SCENARIO: the file with the ruling on game N. */
static int pbn_with_ruling(const options *o, arb_ruleset *rs, const char *text, size_t len) {
    char *ruling = NULL, *answer = NULL, *error = NULL;
    int status = ruling_text_of(rs, o->ruling, &ruling);
    if (ruling && status != ARB_BAD_INPUT) {
        int written =
            arb_pbn_commentary(text, len, o->input, atoi(o->game), ruling, &answer, &error);
        if (answer) fputs(answer, stdout);
        if (error) eprintf("%s", error);
        if (written != ARB_OK) status = written;
    }
    free(ruling);
    free(answer);
    free(error);
    return status;
}

static int cmd_pbn(const options *o) {
    if (!o->input) return usage_error("pbn", "%s", "needs a PBN FILE (or -)");
    if (o->export_format && (o->write || o->ruling || o->game))
        return usage_error("pbn", "%s",
                           "--export writes the file as it is: not with --write or --game");
    if (o->write && !o->ruleset)
        return usage_error("pbn", "%s", "--write needs --ruleset NAME to score the results");
    if ((o->totals || o->ranking) && (!o->ruleset || o->write || o->export_format || o->game))
        return usage_error("pbn", "%s needs --ruleset NAME, and not --write, --export or --game",
                           o->totals ? "--totals" : "--ranking");
    if (o->totals && o->ranking)
        return usage_error("pbn", "%s", "--totals or --ranking: one at a time");
    if (o->boards && !o->ranking) return usage_error("pbn", "%s", "--boards goes with --ranking");
    if (o->ruling && (!o->ruleset || !o->game))
        return usage_error("pbn", "%s", "--ruling SCENARIO needs --ruleset NAME and --game N");
    if (o->game) { /* atoi took 4294967297 for game 1, 1x for 1 and abc for 0 */
        char *end;
        errno = 0;
        long long n = strtoll(o->game, &end, 10);
        if (end == o->game || *end || errno || n < 1 || n > INT_MAX)
            return usage_error("pbn", "--game needs a game's number, 1 or more, not '%s'", o->game);
    }
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("pbn", o->input);
    arb_ruleset *rs = o->ruleset ? load_or_report(o->ruleset) : NULL;
    char *answer = NULL, *error = NULL;
    int status = ARB_BAD_INPUT;
    if (o->ruleset && !rs) {
        /* load_or_report said why */
    } else if (o->export_format) {
        status = arb_pbn_export(text, len, o->input, &answer, &error);
        if (answer && o->json) {
            print_json(json_pack("{ss}", "pbn", answer));
        } else if (answer) {
            fputs(answer, stdout);
        }
    } else if (o->ruling) {
        status = pbn_with_ruling(o, rs, text, len);
    } else if (o->write) {
        status = arb_pbn_results(rs, api_plugins(), text, len, o->input, &answer, &error);
        if (answer) fputs(answer, stdout);
    } else if (o->totals || o->ranking) {
        status =
            o->totals
                ? arb_pbn_totals_json(rs, api_plugins(), text, len, o->input, &answer, &error)
                : arb_pbn_session_json(rs, api_plugins(), text, len, o->input, &answer, &error);
        if (answer && o->json)
            print_json(answer_json(answer));
        else if (answer && !print_csv(o->totals   ? "pbn-totals"
                                      : o->boards ? "session-boards"
                                                  : "session",
                                      answer))
            status = ARB_NO_MEMORY;
        answer = NULL; /* taken */
    } else if (o->game) {
        status = arb_pbn_scenario_json(text, len, o->input, atoi(o->game), &answer, &error);
        json_t *j = answer_json(answer); /* frees the text */
        answer = NULL;
        if (j) print_json(j);
    } else {
        status = rs ? arb_pbn_score_json(rs, api_plugins(), text, len, o->input, &answer, &error)
                    : arb_pbn_json(text, len, o->input, &answer, &error);
        if (answer && rs && !o->json) {
            if (!print_csv("pbn", answer)) status = ARB_NO_MEMORY;
        } else {
            json_t *j = answer_json(answer); /* frees the text */
            if (j && o->json)
                print_json(json_incref(j));
            else if (j)
                print_pbn_games(j);
            json_decref(j);
        }
        answer = NULL; /* taken */
    }
    /* the file's mistakes name the file and their place themselves; any
     * other refusal is the file's as a whole */
    if (error && strncmp(error, o->input, strlen(o->input)) != 0)
        report_input_error(o->input, error, "`arbiter pbn --help`");
    else if (error)
        eprintf("%s%s", error, error[strlen(error) - 1] == '\n' ? "" : "\n");
    free(answer);
    free(error);
    free(text);
    arb_free(rs);
    return status;
}

/* ---- session ---- */

static int cmd_session(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("session", "%s", "needs --ruleset NAME and a FILE of results (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("session", o->input);
    arb_ruleset *rs = load_or_report(o->ruleset);
    char *answer = NULL, *error = NULL;
    int status = rs ? arb_session_json(rs, api_plugins(), text, len,
                                       o->method ? o->method : "matchpoints", &answer, &error)
                    : ARB_BAD_INPUT;
    json_t *j = answer ? json_loads(answer, 0, NULL) : NULL;
    if (status == ARB_OK && o->json) {
        print_json(json_incref(j));
        free(answer);
    } else if (status == ARB_OK) {
        if (!print_csv(o->boards ? "session-boards" : "session", answer)) status = ARB_NO_MEMORY;
    } else {
        if (rs)
            report_input_error(o->input, error,
                               "a session sheet is a header row board,ns,ew,score and a line a "
                               "result (`arbiter session --help`; docs/guide.md)");
        free(answer);
    }
    size_t i;
    json_t *note;
    if (status == ARB_OK && !o->json) /* a board played fewer times, and what became of it */
        json_array_foreach(json_object_get(j, "notes"), i, note) {
            eprintf("%s: note: %s\n", o->input, text_of(note, "text"));
        }
    json_decref(j);
    free(error);
    free(text);
    arb_free(rs);
    return status;
}

/* ---- ranking ---- */

static int cmd_ranking(const options *o) {
    if (!o->ruleset || !o->input)
        return usage_error("ranking", "%s",
                           "needs --ruleset NAME and a FILE of board,pair,score lines (or -)");
    size_t len;
    char *text = read_input(o->input, &len);
    if (!text) return cannot_read("ranking", o->input);
    arb_ruleset *rs = load_or_report(o->ruleset);
    char *answer = NULL, *error = NULL;
    int status =
        rs ? arb_ranking_json(rs, api_plugins(), text, len, &answer, &error) : ARB_BAD_INPUT;
    if (status == ARB_OK && o->json) {
        print_json(answer_json(answer));
    } else if (status == ARB_OK) {
        if (!print_csv("ranking", answer)) status = ARB_NO_MEMORY;
    } else {
        if (rs)
            report_input_error(o->input, error,
                               "a ranking reads board,pair,score lines (`arbiter ranking --help`)");
        free(answer);
    }
    free(error);
    free(text);
    arb_free(rs);
    return status;
}

static const command commands[] = {
    {"rule", "rule --ruleset NAME|DIR SCENARIO.json|- [--json] [--why-not ACTION] [--brief|--text]",
     "Rules on a scenario: a JSON object of facts, optionally with \"dealer\" and \"auction\".\n"
     "A file of several lines is read as JSON Lines, a line at a time: one ruling (or error\n"
     "record) per line, as JSON (docs/json.md); --brief writes brief records (status, articles,\n"
     "actions with their arguments: no texts), --text each ruling's Dutch text.\n"
     "--why-not ACTION says which facts kept the ruling from naming that action.",
     cmd_rule},
    {"ask", "ask --ruleset NAME|DIR [SCENARIO.json] [--json] [--lang en] [--save FILE]",
     "Asks only the questions the decision needs, in the ruleset's own words, then rules.\n"
     "Answers come from the terminal or from stdin (one per line): a choice's number or a\n"
     "word of it, ja/nee, a number, a call. 'terug' takes the last answer back, '?' helps,\n"
     "'stop' or Ctrl-C ends with the scenario so far. --save FILE keeps the scenario, to\n"
     "start from again (arbiter ask … FILE) or rule on (arbiter rule). --lang en: in English.",
     cmd_ask},
    {"check", "check NAME|DIR [--clauses] [--plugin FILE]",
     "Compiles a ruleset and proves it complete: every situation gets a ruling. Reports\n"
     "syntax and type errors, unknown names, apply cycles, unreachable clauses and gaps, and\n"
     "warns of two articles that can both rule on one situation (with that situation) unless\n"
     "the ruleset declares `combine A B`. --clauses also lists, in every block, the clauses an\n"
     "earlier clause partly hides, naming both, with a situation. Klaverjas: proves too that\n"
     "the legal article, with the plugins, always leaves a legal card.",
     cmd_check},
    {"test", "test NAME|DIR [--verbose] [--coverage] [--scenarios]",
     "Runs the ruleset's test blocks, and its completeness proof as one more test, and prints\n"
     "`N passed, N failed`. With --coverage, lists the clauses no test reaches (and fails if\n"
     "there are any). With --scenarios, runs nothing but writes the situations of the tests that\n"
     "rule on a whole situation as JSON Lines: a corpus for `arbiter diff --cases`.",
     cmd_test},
    {"score", "score --ruleset NAME|DIR CONTRACT|HAND.json [--vul|--nonvul] [--json]",
     "Scores a contract and its result for the declaring side (negative when it went down):\n"
     "4S=, 4SX+1, 3NTXX-2, 6H+1, PASS. The ruleset's own scoring table decides.\n"
     "Under a klaverjas ruleset, scores a hand record (\"trump\", \"taker\", \"tricks\", …): each\n"
     "trick by the header's trick article, then the hand by its score article, per side.\n"
     "Without \"tricks\", the score article rules on the hand's result as the file gives it\n"
     "(its facts: points, tricks, roem, a revoke and when it was claimed, …).",
     cmd_score},
    {"legal", "legal --ruleset NAME|DIR POSITION.json|- [--json]",
     "Klaverjas: rules on every card of a player's hand with the header's legal article and\n"
     "lists each as legal or illegal, with the reason and the articles. The position gives\n"
     "\"trump\", \"seat\", \"hand\", \"trick\" (e.g. \"E:S7 SA\") and, mostly, \"taker\".",
     cmd_legal},
    {"matchpoints", "matchpoints --ruleset NAME|DIR FILE|- [--json]",
     "Matchpoints one board's scores (one per line), or several boards as CSV lines\n"
     "board,pair,score, by the ruleset's own scale. A score may be an adjusted one: a weighted\n"
     "score (30% 420 + 70% -50, or with contracts, 30% 4S= + 70% EW 4H-1, scored as the board\n"
     "is vulnerable), A+ A= A- (G+ G G-), 60%, - (not played), with P or P10% for a procedural\n"
     "penalty; a board 7/a is a group of a split board (docs/guide.md).\n"
     "A sheet holds at most 5000 scores\n"
     "(core/api/scoring.h); a larger one is refused with exit status 2.",
     cmd_matchpoints},
    {"pbn",
     "pbn [--ruleset NAME|DIR] FILE|- [--json] [--write | --export | --totals | --ranking "
     "[--boards]] [--game N [--ruling SCENARIO.json]]",
     "Reads the games of a PBN (2.1) file: each mistake as FILE:LINE: message, the other games\n"
     "still read. With --ruleset, scores every result (Contract, Declarer, Result, Vulnerable)\n"
     "and matchpoints each board's games, north-south and east-west apart, as CSV with a header\n"
     "row; with --write, prints the file with the Score, ScoreMP and ScorePercentage tags.\n"
     "A game with a ScoreTable (one game per board, as scoring programs write it) gives one\n"
     "result per row (its pairs in the ns and ew columns); where the row's own Score_NS, MP_NS,\n"
     "MP_EW, Percentage_NS or Percentage_EW differs from arbiter's, the disagreements column\n"
     "says so (--json: \"disagreements\"). The rows are matchpointed as a session's sheet:\n"
     "an artificial score (A+, A60, A60A40, ^ before it or not) by the ruleset's 12C, a board\n"
     "played fewer times brought to the others (78D). --totals holds the file's TotalScoreTable\n"
     "(Rank, TotalMP, TotalPercentage, NrBoards) against arbiter's ranking of the same pairs;\n"
     "--ranking prints that ranking of the ScoreTables' rows as `session` prints a sheet's\n"
     "(--boards: the rows, matchpointed).\n"
     "--game N prints game N as a scenario (dealer, auction, deal, contract, play) to rule on;\n"
     "with --ruling SCENARIO.json (that scenario with what happened added), rules on it and\n"
     "prints the file with the ruling as a commentary { … } at the end of game N. --export\n"
     "prints a valid file in PBN 2.1's export format (the mandatory tags first, in order; CR LF;\n"
     "a tag a line; the auction four calls a line); --json gives it as {\"pbn\": text}.",
     cmd_pbn},
    {"session",
     "session --ruleset NAME|DIR FILE|- [--method matchpoints|butler|cross|total] [--boards] "
     "[--json]",
     "A pairs session's sheet: CSV (, or ;) with a header row naming board, ns, ew, score and\n"
     "optionally score_ew. Scores every board for north-south and east-west apart, as\n"
     "matchpoints (78A; adjusted scores as `matchpoints` reads them), IMPs (78B: Butler or\n"
     "cross) or total points (78C: the scores summed), and prints the ranking as CSV, ties as\n"
     "3=; --boards prints the boards instead.\n"
     "An artificial score gives way to the side's result on its other boards where the ruleset\n"
     "says so (12C2c); a board played fewer times than the others is brought to them by the\n"
     "ruleset's factoring method (78D), with a note on stderr.",
     cmd_session},
    {"ranking", "ranking --ruleset NAME|DIR FILE|- [--json]",
     "Ranks the pairs of a matchpoint sheet (board,pair,score lines) by their matchpoints, with\n"
     "their tops and points; pairs with as many matchpoints are ranked by the ruleset's ranking\n"
     "article (klaverjas-nkf-1976: 2e deel Art. 19: tops, then points, else ex aequo).",
     cmd_ranking},
    {"imps", "imps --ruleset NAME|DIR A B [--json]",
     "The IMPs for score A against score B (negative when B is higher), by the ruleset's scale.",
     cmd_imps},
    {"compare", "compare --ruleset A --ruleset B [--ruleset C …] SCENARIO.json|- [--json]",
     "Rules on one scenario under several rulesets (editions) and shows the rulings side by side,\n"
     "marking what differs: the article trail, the actions on one side only, the score of the\n"
     "scenario's contract.",
     cmd_compare},
    {"diff",
     "diff A B [--article N] [--format text|md|html|exact|json] [--lang nl|en] [--cases "
     "FILE.jsonl]",
     "Every situation that rulesets A and B rule differently, found by walking their decision\n"
     "graphs together. The report (text, or --format md / html for a meeting) opens with how many\n"
     "kinds of situation change and in which articles, then one section per change of ruling: the\n"
     "rulings' texts (--lang), the facts that decide it and an example scenario that both "
     "rulesets\n"
     "were seen to rule so. --format exact lists every region with its constraints and count;\n"
     "--format json (or --json) gives the regions and the groups as data. --article N limits it "
     "to\n"
     "the situations in which either ruling passes through article N. With --cases, rules every\n"
     "scenario of a JSON Lines file under both: the cases whose ruling changes and how, and every\n"
     "line that could not be ruled, with why (exit status 2 then).",
     cmd_diff},
    {"rulesets", "rulesets", "Lists the installed rulesets with their title and hash.",
     cmd_rulesets},
    {"graph", "graph --ruleset NAME|DIR --article N",
     "Writes the decision graph of an article as Graphviz DOT (render with `dot -Tsvg`).",
     cmd_graph},
    {"serve",
     "serve [--listen HOST:PORT] [--ruleset NAME …] [--plugin FILE …] [--web DIR] [--verbose]",
     "Serves the rulings in the browser (core/serve/web) and as a JSON API, on 127.0.0.1:8080 "
     "unless\n"
     "--listen says otherwise, with the rulesets named (default: every installed one). Stops on\n"
     "Ctrl-C. --web DIR serves another build of the app, e.g. build/web (`make web`): the offline "
     "app,\n"
     "which rules with the server while it answers and on its own without it.\n"
     "docs/guide.md, \"In de browser\", shows the app; core/serve/serve.c lists the endpoints.",
     cmd_serve},
};

#define NCOMMANDS (int)(sizeof commands / sizeof *commands)

static void general_help(FILE *out) {
    fprintf(out,
            "arbiter %s — rulings from card-game regulations, with the article trail\n\nusage:\n",
            ARB_VERSION);
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  arbiter %s\n", commands[i].usage);
    fputs(
        "\n`arbiter COMMAND --help` explains a command. Exit status: 0 ok, 1 no ruling or a test\n"
        "failed, 2 bad input or usage.\n",
        out);
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        general_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? ARB_BAD_INPUT : ARB_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("arbiter %s\n", ARB_VERSION);
        return ARB_OK;
    }
#ifndef ARBITER_SERVER
    command_line = argv;
#endif
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        options o;
        if (parse_options(commands[i].name, argc - 2, argv + 2, &o) != ARB_OK) return ARB_BAD_INPUT;
        current = &o;
        if (o.help) {
            printf("usage: arbiter %s\n\n%s\n", commands[i].usage, commands[i].help);
            return ARB_OK;
        }
        int status = commands[i].run(&o);
        fflush(stdout); /* the ruling is out before the plugins go */
        arb_free_plugins(plugins);
        /* the library said "out of memory" where the call writes its errors */
        return status == ARB_NO_MEMORY ? ARB_BAD_INPUT : status;
    }
    eprintf("arbiter: unknown command '%s'\n", argv[1]);
    general_help(stderr);
    return ARB_BAD_INPUT;
}
