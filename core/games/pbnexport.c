/* pbnexport.c — a PBN file written again in the export format (pbnexport.h).
 * Section numbers are the standard's (PBN 2.1). The file has been read by
 * pbn_read without a mistake: its games' bytes are known and valid, so
 * this lexer only splits them into tag pairs, section tokens and comments. */
#include "pbnexport.h"

#include <ctype.h>
#include <string.h>

#define LINE_MAX_CHARS 255 /* 2.3: a line, not counting its end */
#define MAX_KEPT 64        /* tag values a later game may inherit (4.8) */

enum item_kind { ITEM_TAG, ITEM_WORD, ITEM_COMMENT };

typedef struct item {
    enum item_kind kind;
    char *name;      /* a tag's */
    char *text;      /* a tag's value, a word, a comment's text */
    bool line_start; /* a word that began a line of the file */
} item;

/* A tag value by name: the previous game's, or one given with "##". */
typedef struct kept {
    char name[64];
    char *value;
} kept;

typedef struct exporter {
    strbuf *out;
    strbuf line; /* the line being written */
    kept prev[MAX_KEPT], sticky[MAX_KEPT], cur[MAX_KEPT];
    int nprev, nsticky, ncur;
} exporter;

/* 3.4: the mandatory tag set, in its order. */
static const char *const mandatory[] = {"Event", "Site",    "Date",     "Board",    "West",
                                        "North", "East",    "South",    "Dealer",   "Vulnerable",
                                        "Deal",  "Scoring", "Declarer", "Contract", "Result"};
#define NMANDATORY (sizeof mandatory / sizeof *mandatory)

static bool is_mandatory(const char *name) {
    for (size_t i = 0; i < NMANDATORY; i++)
        if (strcmp(name, mandatory[i]) == 0) return true;
    return false;
}

static char *copy(const char *p, size_t n) {
    char *s = xmalloc(n + 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* ---- lexing one game ---- */

static void push(vec *items, enum item_kind kind, char *name, char *text, bool line_start) {
    item *it = vec_push(items);
    if (!it) {
        xfree(name);
        xfree(text);
        return;
    }
    *it = (item){kind, name, text, line_start};
}

/* A tag pair at *pp (3.3), valid: the reader read it. */
static void lex_tag(const char **pp, const char *end, vec *items) {
    const char *p = *pp + 1;
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *name = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    char *tag = copy(name, (size_t)(p - name));
    while (p < end && *p != '"')
        p++;
    strbuf value;
    sb_init(&value);
    for (p++; p < end && *p != '"'; p++) {
        if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\')) p++;
        sb_putc(&value, *p);
    }
    while (p < end && *p != ']')
        p++;
    *pp = p < end ? p + 1 : end;
    push(items, ITEM_TAG, tag, value.data ? value.data : copy("", 0), false);
}

/* The game's items; false at a NUL byte outside a tag's value or a
 * comment (a word cannot hold it, and the reader should have refused the
 * file), with *line the line it is on, counted from the game's first. */
static bool lex_game(const char *p, const char *end, vec *items, int *line, int *col) {
    const char *begin = p;
    bool bol = true, newline = true;
    while (p < end) {
        if (bol && *p == '%') { /* an escape line (2.4) */
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        bol = false;
        if (*p == '\n') {
            bol = newline = true;
            p++;
        } else if (!*p) {
            for (const char *c = begin; c < p; c++)
                *line += *c == '\n';
            *col = utf8_column(begin, p);
            return false;
        } else if (isspace((unsigned char)*p)) {
            p++;
        } else if (*p == ';') { /* to the end of the line (3.8) */
            const char *s = ++p;
            while (p < end && *p != '\n')
                p++;
            while (s < p && (*s == ' ' || *s == '\t'))
                s++;
            char *text = copy(s, (size_t)(p - s));
            for (char *c = text; c && *c; c++)
                if (*c == '}') *c = ')'; /* it becomes a brace comment */
            push(items, ITEM_COMMENT, NULL, text, false);
        } else if (*p == '{') {
            const char *s = ++p;
            while (p < end && *p != '}')
                p++;
            push(items, ITEM_COMMENT, NULL, copy(s, (size_t)(p - s)), false);
            if (p < end) p++;
        } else if (*p == '[') {
            lex_tag(&p, end, items);
            newline = true;
        } else {
            const char *s = p;
            if (*p == '"') { /* a table's quoted value (5.2): one word, its spaces, [ { ; kept */
                p++;
                while (p < end && *p != '"' && *p != '\n' && *p)
                    p++;
                if (p < end && *p == '"') p++;
            }
            while (p < end && !isspace((unsigned char)*p) && !strchr("[{;", *p))
                p++;
            push(items, ITEM_WORD, NULL, copy(s, (size_t)(p - s)), newline);
            newline = false;
        }
    }
    return true;
}

/* ---- writing ---- */

static void end_line(exporter *x) {
    if (!x->line.len) return;
    sb_putn(x->out, x->line.data, x->line.len);
    sb_puts(x->out, "\r\n");
    x->line.len = 0;
    x->line.data[0] = 0;
}

/* Text on lines of their own, each cut at a space to LINE_MAX_CHARS. */
static void put_lines(exporter *x, const char *text) {
    end_line(x);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        const char *next = p[n] ? p + n + 1 : p + n;
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
            n--;
        while (n > LINE_MAX_CHARS) {
            size_t cut = LINE_MAX_CHARS;
            while (cut > 1 && p[cut] != ' ')
                cut--;
            if (cut <= 1) cut = LINE_MAX_CHARS;
            sb_putn(x->out, p, cut);
            sb_puts(x->out, "\r\n");
            p += cut;
            n -= cut;
            while (n > 0 && *p == ' ')
                p++, n--;
        }
        sb_putn(x->out, p, n);
        sb_puts(x->out, "\r\n");
        p = next;
    }
}

static void put_comment(exporter *x, const char *text) {
    strbuf c;
    sb_init(&c);
    sb_printf(&c, "{%s}", text);
    for (size_t i = 0; c.data && i < c.len; i++)
        if (c.data[i] == '\t') c.data[i] = ' ';
    put_lines(x, c.data ? c.data : "{}");
    sb_free(&c);
}

static void put_word(exporter *x, const char *word, bool new_line) {
    size_t n = strlen(word);
    if (new_line || (x->line.len && x->line.len + 1 + n > LINE_MAX_CHARS)) end_line(x);
    if (x->line.len) sb_putc(&x->line, ' ');
    sb_puts(&x->line, word);
}

/* A tag pair on a line of its own (3.3): a " in the value escaped, and a
 * \ where it would be read as an escape (before " or \, or at the end);
 * elsewhere it stays as the value has it (a table's "Score_NS\6R"). */
static void put_tag(exporter *x, const char *name, const char *value) {
    end_line(x);
    sb_printf(x->out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || (*p == '\\' && (!p[1] || p[1] == '"' || p[1] == '\\')))
            sb_putc(x->out, '\\');
        sb_putc(x->out, *p);
    }
    sb_puts(x->out, "\"]\r\n");
}

/* A call or a card, or "-" or AP: what a line of four counts. */
static bool counted(const char *word) {
    return isalnum((unsigned char)word[0]) || strcmp(word, "-") == 0;
}

/* The items after a tag: its section, four calls or cards a line for the
 * auction and the play (3.5, 3.6), the file's lines for other sections. */
static void put_section(exporter *x, const char *tag, const item *items, int n) {
    bool four = strcmp(tag, "Auction") == 0 || strcmp(tag, "Play") == 0;
    int on_line = 0;
    for (int i = 0; i < n; i++) {
        const item *it = &items[i];
        if (it->kind == ITEM_COMMENT) {
            put_comment(x, it->text);
            on_line = 0;
            continue;
        }
        bool main = counted(it->text);
        bool new_line = four ? main && on_line == 4 : it->line_start;
        if (new_line || x->line.len == 0) on_line = 0;
        put_word(x, it->text, new_line);
        on_line += main;
    }
    end_line(x);
}

/* ---- tag values and their inheritance (4.8) ---- */

static const char *kept_value(const kept *k, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(k[i].name, name) == 0) return k[i].value;
    return NULL;
}

static void keep(kept *k, int *n, const char *name, const char *value) {
    int i = 0;
    while (i < *n && strcmp(k[i].name, name) != 0)
        i++;
    if (i == *n) {
        if (*n == MAX_KEPT) return;
        (*n)++;
        snprintf(k[i].name, sizeof k[i].name, "%s", name);
        k[i].value = NULL;
    }
    xfree(k[i].value);
    k[i].value = xstrdup(value);
}

static void forget(kept *k, int *n) {
    for (int i = 0; i < *n; i++)
        xfree(k[i].value);
    *n = 0;
}

/* The value a tag of this game stands for: "#" the previous game's (or a
 * "##" one's), "##v" v, which later games that do not give the tag have
 * too. */
static const char *resolved(exporter *x, const char *name, const char *value) {
    if (value[0] == '#' && value[1] == '#') {
        keep(x->sticky, &x->nsticky, name, value + 2);
        return value + 2;
    }
    if (value[0] == '#' && !value[1]) {
        const char *v = kept_value(x->prev, x->nprev, name);
        if (!v) v = kept_value(x->sticky, x->nsticky, name);
        return v ? v : "";
    }
    return value;
}

/* ---- a game ---- */

/* The tags of a game in the file's order: the index of each tag item, the
 * first of its name only (3.4: a repeated tag is ignored), Note always. */
static bool first_of_name(const item *items, int at) {
    if (strcmp(items[at].name, "Note") == 0) return true;
    for (int i = 0; i < at; i++)
        if (items[i].kind == ITEM_TAG && strcmp(items[i].name, items[at].name) == 0) return false;
    return true;
}

/* The items from `at` to the next tag. */
static int section_length(const item *items, int n, int at) {
    int k = at;
    while (k < n && items[k].kind != ITEM_TAG)
        k++;
    return k - at;
}

/* A tag and (unless it is written later) its section. */
static void put_group(exporter *x, const item *items, int n, int at, bool section) {
    const char *value = resolved(x, items[at].name, items[at].text);
    keep(x->cur, &x->ncur, items[at].name, value);
    put_tag(x, items[at].name, value);
    if (section) put_section(x, items[at].name, items + at + 1, section_length(items, n, at + 1));
}

/* The tag of the mandatory tag set named mandatory[m], or n. */
static int mandatory_at(const item *items, int n, int first_tag, size_t m) {
    int at = first_tag;
    while (at < n && !(items[at].kind == ITEM_TAG && strcmp(items[at].name, mandatory[m]) == 0))
        at++;
    return at;
}

/* The game opens with the mandatory tag set, tag after tag; commentary
 * before the first tag or after one of these follows them. */
static void export_game(exporter *x, const item *items, int n) {
    int first_tag = 0;
    while (first_tag < n && items[first_tag].kind != ITEM_TAG)
        first_tag++;
    for (size_t m = 0; m < NMANDATORY; m++) {
        int at = mandatory_at(items, n, first_tag, m);
        if (at < n) {
            put_group(x, items, n, at, false);
            continue;
        }
        const char *v = kept_value(x->sticky, x->nsticky, mandatory[m]);
        keep(x->cur, &x->ncur, mandatory[m], v ? v : "?");
        put_tag(x, mandatory[m], v ? v : "?");
    }
    put_section(x, "", items, first_tag);
    for (size_t m = 0; m < NMANDATORY; m++) {
        int at = mandatory_at(items, n, first_tag, m);
        if (at < n) put_section(x, "", items + at + 1, section_length(items, n, at + 1));
    }
    for (int at = first_tag; at < n; at++)
        if (items[at].kind == ITEM_TAG && !is_mandatory(items[at].name) && first_of_name(items, at))
            put_group(x, items, n, at, true);
    for (int k = 0; k < x->nsticky; k++) { /* "##" tags this game does not give */
        bool given = is_mandatory(x->sticky[k].name);
        for (int at = first_tag; !given && at < n; at++)
            given = items[at].kind == ITEM_TAG && strcmp(items[at].name, x->sticky[k].name) == 0;
        if (given) continue;
        keep(x->cur, &x->ncur, x->sticky[k].name, x->sticky[k].value);
        put_tag(x, x->sticky[k].name, x->sticky[k].value);
    }
    forget(x->prev, &x->nprev); /* this game's values are the next one's "#" */
    for (int k = 0; k < x->ncur; k++)
        keep(x->prev, &x->nprev, x->cur[k].name, x->cur[k].value);
    forget(x->cur, &x->ncur);
}

bool pbn_export(const char *text, size_t len, const pbn_file *f, const char *name, strbuf *out,
                strbuf *err) {
    exporter x = {.out = out};
    sb_init(&x.line);
    sb_puts(&x.line, ""); /* data, so that end_line may clear it */
    sb_puts(out, "% PBN 2.1\r\n% EXPORT\r\n");
    bool failed = false;
    for (int g = 0; g < (int)f->games.len; g++) {
        const pbn_game *game = &VEC_AT(&f->games, pbn_game, g);
        size_t start = game->start < len ? game->start : len;
        size_t end = game->end < len ? game->end : len;
        vec items;
        vec_init(&items, sizeof(item));
        int line = game->line, col = 1;
        bool ok = lex_game(text + start, text + (end > start ? end : start), &items, &line, &col);
        if (!ok) {
            sb_printf(err,
                      "%s:%d:%d: error: a NUL byte outside a tag's value: the file is not text",
                      name, line, col);
            failed = true;
        } else if (!failed) {
            if (g > 0) sb_puts(out, "\r\n"); /* a game ends at an empty line (3) */
            export_game(&x, (const item *)items.data, (int)items.len);
        }
        for (int i = 0; i < (int)items.len; i++) {
            xfree(VEC_AT(&items, item, i).name);
            xfree(VEC_AT(&items, item, i).text);
        }
        vec_free(&items);
    }
    forget(x.prev, &x.nprev);
    forget(x.sticky, &x.nsticky);
    sb_free(&x.line);
    return !failed;
}
