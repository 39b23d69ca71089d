/* lexer.h — the re2c lexer's interface to the parser. */
#ifndef ARBITER_LEXER_H
#define ARBITER_LEXER_H

#include "ast.h"
#include "parser.h"

typedef struct dsl_lexer {
    arena *arena;
    diag *diag;
    const char *path;
    const char *cur, *line_start, *tok;
    int line;
    int recent[5];  /* the last tokens read, the latest first: a syntax error's hint reads them */
    ast_file *file; /* what the parser builds */
} dsl_lexer;

void dsl_lexer_init(dsl_lexer *lx, arena *a, diag *d, const char *path, const char *text);
/* The next token of the text (0 at its end): its value in *val, its
 * place in *loc. The parser's scanner, and the floor a compile stands on
 * (tests/bench: the rule text read, hashed and cut into tokens alone). */
int yylex(YYSTYPE *val, YYLTYPE *loc, dsl_lexer *lx);

#endif
