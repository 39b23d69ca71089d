/* lexer.re — tokens of the rule language (re2c). Newlines are white space;
 * `#` starts a comment. Citations (27B1a) are digits followed by letters. */
#include "lexer.h"

#include "parser.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void dsl_lexer_init(dsl_lexer *lx, arena *a, diag *d, const char *path, const char *text) {
    memset(lx, 0, sizeof *lx);
    lx->arena = a;
    lx->diag = d;
    lx->path = path;
    lx->cur = lx->line_start = text;
    lx->line = 1;
}

static src_loc here(const dsl_lexer *lx, const char *p) {
    src_loc l = {lx->path, lx->line, (int)(p - lx->line_start) + 1};
    return l;
}

static void set_loc(const dsl_lexer *lx, YYLTYPE *loc) {
    src_loc l = here(lx, lx->tok);
    loc->first_line = loc->last_line = l.line;
    loc->first_column = l.col;
    loc->last_column = (int)(lx->cur - lx->line_start);
}

/* A string whose opening quote was just read: true with lx->cur after its
 * closing quote, or false (a newline or the end of the text before it) with
 * lx->cur where it was. A backslash takes the next character with it,
 * except a newline or the end. The runs between quotes and backslashes are
 * skipped by strcspn rather than a byte a step. */
static bool string_end(dsl_lexer *lx) {
    const char *p = lx->cur;
    for (;;) {
        p += strcspn(p, "\"\\\n");
        if (*p == '"') {
            lx->cur = p + 1;
            return true;
        }
        if (*p != '\\' || p[1] == '\n' || p[1] == '\0') return false;
        p += 2;
    }
}

/* Strings keep \" \\ \n escapes; a newline inside a string is an error. */
static char *unescape(dsl_lexer *lx, const char *s, const char *e) {
    char *out = arena_alloc(lx->arena, (size_t)(e - s) + 1), *o = out;
    const char *esc = memchr(s, '\\', (size_t)(e - s));
    if (!esc) { /* the usual string: copied whole */
        memcpy(out, s, (size_t)(e - s));
        out[e - s] = 0;
        return out;
    }
    for (const char *p = s; p < e; p++) {
        if (*p == '\\' && p + 1 < e) {
            p++;
            *o++ = *p == 'n' ? '\n' : *p;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return out;
}

/*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "lx->cur";
    re2c:yyfill:enable = 0;
    re2c:flags:utf-8 = 0;
    re2c:flags:computed-gotos = 1; // a state's next state by a table of labels (gcc, clang)
*/

static int next_token(YYSTYPE *val, YYLTYPE *loc, dsl_lexer *lx) {
    for (;;) {
        lx->tok = lx->cur;
        /*!re2c
            end = "\x00";
            digit = [0-9];
            ident = [A-Za-z_][A-Za-z0-9_]*;

            end { set_loc(lx, loc); lx->cur--; return 0; }
            "\n" [ \t\r]* { lx->line++; lx->line_start = lx->tok + 1; continue; } /* and the next line's indent */
            [ \t\r]+ { continue; }
            "#" { lx->cur += strcspn(lx->cur, "\n"); continue; }

            "ruleset"     { set_loc(lx, loc); return RULESET; }
            "include"     { set_loc(lx, loc); return INCLUDE; }
            "type"        { set_loc(lx, loc); return TYPE; }
            "fact"        { set_loc(lx, loc); return FACT; }
            "ask"         { set_loc(lx, loc); return ASK; }
            "en"          { set_loc(lx, loc); return EN; }
            "from"        { set_loc(lx, loc); return FROM; }
            "overridable" { set_loc(lx, loc); return OVERRIDABLE; }
            "action"      { set_loc(lx, loc); return ACTION; }
            "text"        { set_loc(lx, loc); return TEXT; }
            "table"       { set_loc(lx, loc); return TABLE; }
            "invariant"   { set_loc(lx, loc); return INVARIANT; }
            "outside"     { set_loc(lx, loc); return OUTSIDE; }
            "combine"     { set_loc(lx, loc); return COMBINE; }
            "amendment"   { set_loc(lx, loc); return AMENDMENT; }
            "replace"     { set_loc(lx, loc); return REPLACE; }
            "add"         { set_loc(lx, loc); return ADD; }
            "remove"      { set_loc(lx, loc); return REMOVE; }
            "clause"      { set_loc(lx, loc); return CLAUSE; }
            "row"         { set_loc(lx, loc); return ROW; }
            "cite"        { set_loc(lx, loc); return CITEKW; }
            "default"     { set_loc(lx, loc); return DEFAULT; }
            "article"     { set_loc(lx, loc); return ARTICLE; }
            "when"        { set_loc(lx, loc); return WHEN; }
            "if"          { set_loc(lx, loc); return IF; }
            "match"       { set_loc(lx, loc); return MATCH; }
            "otherwise"   { set_loc(lx, loc); return OTHERWISE; }
            "apply"       { set_loc(lx, loc); return APPLY; }
            "test"        { set_loc(lx, loc); return TEST; }
            "given"       { set_loc(lx, loc); return GIVEN; }
            "expect"      { set_loc(lx, loc); return EXPECT; }
            "asks"        { set_loc(lx, loc); return ASKS; }
            "rejected"    { set_loc(lx, loc); return REJECTED; }
            "trail"       { set_loc(lx, loc); return TRAIL; }
            "bool"        { set_loc(lx, loc); return BOOL; }
            "enum"        { set_loc(lx, loc); return ENUM; }
            "int"         { set_loc(lx, loc); return INTKW; }
            "true"        { set_loc(lx, loc); val->ival = 1; return BOOLLIT; }
            "false"       { set_loc(lx, loc); val->ival = 0; return BOOLLIT; }
            "and"         { set_loc(lx, loc); return AND; }
            "or"          { set_loc(lx, loc); return OR; }
            "not"         { set_loc(lx, loc); return NOT; }
            "implies"     { set_loc(lx, loc); return IMPLIES; }
            "in"          { set_loc(lx, loc); return IN; }
            "_"           { set_loc(lx, loc); return UNDERSCORE; }

            ident {
                set_loc(lx, loc);
                val->text = arena_strndup(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
                return IDENT;
            }
            digit+ {
                set_loc(lx, loc);
                val->text = arena_strndup(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
                errno = 0;
                (void)strtoll(val->text, NULL, 10); /* the parser reads the digits again */
                if (errno == ERANGE) {
                    ERR(lx->diag, here(lx, lx->tok), "write a number below 2^63",
                        "the number %s is too large", val->text);
                    val->text = "0";
                }
                return INTLIT;
            }
            digit+ [A-Za-z] [A-Za-z0-9]* {
                set_loc(lx, loc);
                val->text = arena_strndup(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
                return CITE;
            }
            ["] {
                if (string_end(lx)) {
                    set_loc(lx, loc);
                    size_t n = (size_t)(lx->cur - 1 - (lx->tok + 1)),
                           bad = utf8_bad_byte(lx->tok + 1, n);
                    size_t ctl = bad < n ? n : text_control_char(lx->tok + 1, n);
                    if (bad < n) /* jansson and the browser would drop the whole text */
                        ERR(lx->diag, here(lx, lx->tok + 1 + bad),
                            "save the file as UTF-8",
                            "byte 0x%02X in a string is not UTF-8", (unsigned char)lx->tok[1 + bad]);
                    else if (ctl < n) /* a message is printed as it is: on a terminal it would act */
                        ERR(lx->diag, here(lx, lx->tok + 1 + ctl),
                            "write \\n for a new line; other control characters have no place in a text",
                            "control character U+%04X in a string",
                            text_control_code(lx->tok + 1 + ctl));
                    val->text = unescape(lx, lx->tok + 1, lx->cur - 1);
                    return STRING;
                }
                ERR(lx->diag, here(lx, lx->tok), "close the string with \" on the same line",
                    "unterminated string");
                while (*lx->cur && *lx->cur != '\n') lx->cur++;
                continue;
            }
            "=>" { set_loc(lx, loc); return ARROW; }
            ".." { set_loc(lx, loc); return DOTDOT; }
            "==" { set_loc(lx, loc); return EQ; }
            "!=" { set_loc(lx, loc); return NE; }
            "<=" { set_loc(lx, loc); return LE; }
            ">=" { set_loc(lx, loc); return GE; }
            [{}()[\]:;,.=<>+*/%-] { set_loc(lx, loc); return lx->tok[0]; }
            * {
                unsigned char c = (unsigned char)lx->tok[0];
                if (c >= 0x80 || c < 0x20 || c == 0x7f) {
                    ERR(lx->diag, here(lx, lx->tok), c >= 0x80 ? "non-ASCII text belongs inside \"strings\"" : NULL,
                        "unexpected byte 0x%02X outside a string", c);
                    while ((unsigned char)*lx->cur >= 0x80) lx->cur++;
                } else {
                    ERR(lx->diag, here(lx, lx->tok), NULL, "unexpected character '%c'", c);
                }
                continue;
            }
        */
    }
}

int yylex(YYSTYPE *val, YYLTYPE *loc, dsl_lexer *lx) {
    int t = next_token(val, loc, lx);
    memmove(lx->recent + 1, lx->recent, sizeof lx->recent - sizeof *lx->recent);
    lx->recent[0] = t;
    return t;
}
