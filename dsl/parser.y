/* parser.y — the grammar of rule files (Bison). Actions stay one-liners that
 * call the small constructors at the end of this file; errors recover at
 * the next declaration or block item so that one run reports them all. */
%define api.pure full
%locations
%define parse.error custom
%param { dsl_lexer *lx }

%code requires {
#include "ast.h"
typedef struct dsl_lexer dsl_lexer;
}

%code {
#include "lexer.h"
#include "mem.h"
#include <stdlib.h>
#include <string.h>

/* A deep nesting grows Bison's stacks: through the library's allocator, so
 * that running out of memory unwinds the compile like any other (mem.h). */
#define YYMALLOC xmalloc
#define YYFREE xfree

static void yyerror(YYLTYPE *loc, dsl_lexer *lx, const char *msg);
static src_loc L(dsl_lexer *lx, YYLTYPE l);
static void *node(dsl_lexer *lx, size_t size, YYLTYPE l);
static ast_list list1(dsl_lexer *lx, void *item);
static ast_list push(dsl_lexer *lx, ast_list l, void *item);
static ast_expr *expr_leaf(dsl_lexer *lx, YYLTYPE l, int kind, int64_t ival, const char *text);
static ast_expr *expr_op(dsl_lexer *lx, YYLTYPE l, int kind, int op, ast_expr *a, ast_expr *b);
static ast_decl *decl(dsl_lexer *lx, YYLTYPE l, int kind, const char *name);
static ast_type *type_new(dsl_lexer *lx, YYLTYPE l, int kind);
static ast_type *range_type(dsl_lexer *lx, YYLTYPE l, int64_t lo, int64_t hi);
static ast_item *item_new(dsl_lexer *lx, YYLTYPE l, int kind);
static ast_clause *clause_new(dsl_lexer *lx, YYLTYPE l, const char *cite, ast_block *b, const char *apply, YYLTYPE al);
static ast_expect *expect_new(dsl_lexer *lx, YYLTYPE l, int kind, const char *name);
static void add_decl(dsl_lexer *lx, ast_decl *d);
static ast_decl *change(dsl_lexer *lx, YYLTYPE l, int op, int target, const char *name);
static void append(dsl_lexer *lx, ast_list *to, ast_list from);
#define MK(type, l) ((type *)node(lx, sizeof(type), (l)))
}

%union {
    int64_t ival;
    const char *text;
    ast_list list;
    ast_expr *expr;
    ast_type *type;
    ast_decl *decl;
    ast_block *block;
    ast_item *item;
    ast_clause *clause;
    ast_arm *arm;
    ast_pattern *pattern;
    ast_expect *expect;
    ast_given *given;
    ast_row *row;
    ast_param *param;
    ast_enumval *enumval;
}

%token RULESET "'ruleset'" INCLUDE "'include'" TYPE "'type'" FACT "'fact'" ASK "'ask'" EN "'en'"
%token FROM "'from'" OVERRIDABLE "'overridable'" ACTION "'action'" TEXT "'text'" TABLE "'table'"
%token COMBINE "'combine'"
%token OUTSIDE "'outside'" AMENDMENT "'amendment'" REPLACE "'replace'" ADD "'add'" REMOVE "'remove'"
%token CLAUSE "'clause'" ROW "'row'" CITEKW "'cite'" DEFAULT "'default'"
%token INVARIANT "'invariant'" ARTICLE "'article'" WHEN "'when'" IF "'if'" MATCH "'match'"
%token OTHERWISE "'otherwise'" APPLY "'apply'" TEST "'test'" GIVEN "'given'" EXPECT "'expect'"
%token ASKS "'asks'" REJECTED "'rejected'" TRAIL "'trail'" BOOL "'bool'" ENUM "'enum'" INTKW "'int'"
%token AND "'and'" OR "'or'" NOT "'not'" IMPLIES "'implies'" IN "'in'" UNDERSCORE "'_'"
%token ARROW "'=>'" DOTDOT "'..'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"
%token <ival> BOOLLIT "true or false"
%token <text> IDENT "name" CITE "citation" STRING "string"
%token <text> INTLIT "number"

%type <decl> changeable change
%type <decl> decl ruleset_decl fact_decl fact_opts action_decl action_opts table_decl article_decl test_decl test_body
%type <type> type
%type <list> enumvals params params_opt args args_opt header_items items arms patterns rows keys
%type <list> givens expects cites citelist fact_cites
%type <enumval> enumval
%type <param> param
%type <expr> expr when_opt cell
%type <text> artid cite_opt pname
%type <block> block
%type <item> item
%type <clause> clause
%type <arm> arm
%type <pattern> pattern key
%type <given> given header_item
%type <expect> expect expect_atom
%type <row> row

%right IMPLIES
%left OR
%left AND
%precedence NOT
%nonassoc EQ NE '<' LE '>' GE IN
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS

%%

file: %empty
    | file decl          { if ($2) add_decl(lx, $2); }
    | file error         { }
    ;

decl: ruleset_decl
    | INCLUDE STRING                 { $$ = decl(lx, @1, AD_INCLUDE, $2); }
    | TYPE IDENT '=' type            { $$ = decl(lx, @2, AD_TYPE, $2); $$->type = $4; }
    | fact_decl
    | action_decl
    | table_decl
    | INVARIANT STRING expr          { $$ = decl(lx, @1, AD_INVARIANT, NULL); $$->title = $2; $$->expr = $3; }
    | INVARIANT STRING EN STRING expr { $$ = decl(lx, @1, AD_INVARIANT, NULL); $$->title = $2; $$->text_en = $4; $$->expr = $5; }
    | OUTSIDE STRING expr            { $$ = decl(lx, @1, AD_OUTSIDE, NULL); $$->title = $2; $$->expr = $3; }
    | OUTSIDE STRING EN STRING expr  { $$ = decl(lx, @1, AD_OUTSIDE, NULL); $$->title = $2; $$->text_en = $4; $$->expr = $5; }
    | COMBINE artid artid            { $$ = decl(lx, @2, AD_COMBINE, $2); $$->title = $3; $$->from_loc = decl(lx, @3, AD_COMBINE, $3)->loc; }
    | article_decl
    | test_decl
    | AMENDMENT STRING '{' header_items '}' { $$ = decl(lx, @2, AD_AMENDMENT, $2); $$->params = $4; }
    | change
    ;

/* An amendment's changes to its base ruleset. */
changeable: fact_decl | action_decl | table_decl | article_decl | test_decl
    | TYPE IDENT '=' type            { $$ = decl(lx, @2, AD_TYPE, $2); $$->type = $4; }
    ;
change: REPLACE changeable           { $$ = change(lx, @1, CHANGE_REPLACE, $2->kind, $2->name); $$->inner = $2; }
    | ADD changeable                 { $$ = change(lx, @1, CHANGE_ADD, $2->kind, $2->name); $$->inner = $2; }
    | REMOVE ARTICLE artid           { $$ = change(lx, @3, CHANGE_REMOVE, AD_ARTICLE, $3); }
    | REMOVE FACT IDENT              { $$ = change(lx, @3, CHANGE_REMOVE, AD_FACT, $3); }
    | REMOVE ACTION IDENT            { $$ = change(lx, @3, CHANGE_REMOVE, AD_ACTION, $3); }
    | REMOVE TABLE IDENT             { $$ = change(lx, @3, CHANGE_REMOVE, AD_TABLE, $3); }
    | REMOVE TEST STRING             { $$ = change(lx, @3, CHANGE_REMOVE, AD_TEST, $3); }
    | REMOVE CLAUSE artid            { $$ = change(lx, @3, CHANGE_REMOVE, CHANGE_CLAUSE, $3); }
    | REPLACE CLAUSE artid clause    { $$ = change(lx, @3, CHANGE_REPLACE, CHANGE_CLAUSE, $3); $$->clause = $4; }
    | REPLACE ROW IDENT row          { $$ = change(lx, @3, CHANGE_REPLACE, CHANGE_ROW, $3); $$->row = $4; }
    | ADD ROW IDENT row              { $$ = change(lx, @3, CHANGE_ADD, CHANGE_ROW, $3); $$->row = $4; }
    | REMOVE ROW IDENT keys          { $$ = change(lx, @3, CHANGE_REMOVE, CHANGE_ROW, $3); $$->row = MK(ast_row, @4); $$->row->keys = $4; }
    ;

ruleset_decl: RULESET STRING '{' header_items '}'  { $$ = decl(lx, @2, AD_RULESET, $2); $$->params = $4; }
    ;
header_items: %empty                 { $$ = (ast_list){0}; }
    | header_items header_item       { $$ = push(lx, $1, $2); }
    ;
header_item: IDENT STRING            { $$ = MK(ast_given, @1); $$->name = $1; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    | IDENT IDENT                    { $$ = MK(ast_given, @1); $$->name = $1; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    | IDENT INTLIT                   { $$ = MK(ast_given, @1); $$->name = $1; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    | IDENT CITE                     { $$ = MK(ast_given, @1); $$->name = $1; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    | CITEKW STRING                  { $$ = MK(ast_given, @1); $$->name = "cite"; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    | CITEKW artid                   { $$ = MK(ast_given, @1); $$->name = "cite"; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    ;

type: BOOL                           { $$ = type_new(lx, @1, AT_BOOL); }
    | ENUM '{' enumvals opt_comma '}' { $$ = type_new(lx, @1, AT_ENUM); $$->values = $3; }
    | INTKW                          { $$ = type_new(lx, @1, AT_INT); }
    | INTKW INTLIT DOTDOT INTLIT     { $$ = range_type(lx, @1, strtoll($2, NULL, 10), strtoll($4, NULL, 10)); }
    | INTKW '-' INTLIT DOTDOT INTLIT { $$ = range_type(lx, @1, -strtoll($3, NULL, 10), strtoll($5, NULL, 10)); }
    | IDENT                          { $$ = type_new(lx, @1, AT_NAMED); $$->name = $1; }
    | CITEKW                         { $$ = type_new(lx, @1, AT_NAMED); $$->name = "cite"; }
    ;
enumvals: enumval                    { $$ = list1(lx, $1); }
    | enumvals ',' enumval           { $$ = push(lx, $1, $3); }
    ;
enumval: IDENT                       { $$ = MK(ast_enumval, @1); $$->name = $1; }
    | IDENT STRING                   { $$ = MK(ast_enumval, @1); $$->name = $1; $$->label = $2; }
    | IDENT STRING EN STRING         { $$ = MK(ast_enumval, @1); $$->name = $1; $$->label = $2; $$->label_en = $4; }
    ;
opt_comma: %empty | ',' ;

fact_decl: FACT IDENT ':' type fact_opts  { $$ = $5; $$->loc = L(lx, @2); $$->name = $2; $$->type = $4; }
    | FACT IDENT ':' type '=' expr fact_cites { $$ = decl(lx, @2, AD_FACT, $2); $$->type = $4; $$->expr = $6; $$->cites = $7; }
    ;
/* cite 18D 16C1: the articles a fact's value rests on, cited by every clause it decides */
fact_cites: %empty                   { $$ = (ast_list){0}; }
    | CITEKW citelist                { $$ = $2; }
    ;
citelist: artid                      { $$ = list1(lx, expr_leaf(lx, @1, AE_CITE, 0, $1)); }
    | citelist artid                 { $$ = push(lx, $1, expr_leaf(lx, @2, AE_CITE, 0, $2)); }
    ;
fact_opts: %empty                    { $$ = decl(lx, @$, AD_FACT, NULL); }
    | fact_opts ASK STRING           { $$ = $1; $$->ask = $3; }
    | fact_opts EN STRING            { $$ = $1; $$->ask_en = $3; }
    | fact_opts FROM IDENT '.' IDENT { $$ = $1; $$->from_ns = $3; $$->from_name = $5; $$->from_loc = L(lx, @3); }
    | fact_opts OVERRIDABLE          { $$ = $1; $$->overridable = true; }
    | fact_opts CITEKW citelist      { $$ = $1; append(lx, &$$->cites, $3); }
    | fact_opts DEFAULT expr         { $$ = $1; $$->default_value = $3; }
    ;

action_decl: ACTION IDENT params_opt action_opts { $$ = $4; $$->loc = L(lx, @2); $$->name = $2; $$->params = $3; }
    ;
action_opts: %empty                  { $$ = decl(lx, @$, AD_ACTION, NULL); }
    | action_opts TEXT STRING        { $$ = $1; $$->text = $3; }
    | action_opts EN STRING          { $$ = $1; $$->text_en = $3; }
    ;
params_opt: %empty                   { $$ = (ast_list){0}; }
    | '(' ')'                        { $$ = (ast_list){0}; }
    | '(' params ')'                 { $$ = $2; }
    ;
params: param                        { $$ = list1(lx, $1); }
    | params ',' param               { $$ = push(lx, $1, $3); }
    ;
param: pname ':' type                { $$ = MK(ast_param, @1); $$->name = $1; $$->type = $3; }
    ;
/* A parameter may be called after a keyword: see(article: cite). */
pname: IDENT
    | ARTICLE { $$ = "article"; } | TEXT { $$ = "text"; } | TYPE { $$ = "type"; } | TABLE { $$ = "table"; }
    | TEST { $$ = "test"; } | FACT { $$ = "fact"; } | ACTION { $$ = "action"; } | TRAIL { $$ = "trail"; }
    ;

table_decl: TABLE IDENT '(' params ')' ':' type '{' rows '}'
                                     { $$ = decl(lx, @2, AD_TABLE, $2); $$->params = $4; $$->type = $7; $$->rows = $9; }
    ;
rows: %empty                         { $$ = (ast_list){0}; }
    | rows row                       { $$ = push(lx, $1, $2); }
    | rows ','                       { $$ = $1; }
    | rows ';'                       { $$ = $1; }
    | rows error                     { $$ = $1; }
    ;
row: keys ARROW cell                 { $$ = MK(ast_row, @1); $$->keys = $1; $$->value = $3; }
    | UNDERSCORE ARROW cell          { $$ = MK(ast_row, @1); $$->value = $3; }
    ;
/* A cell is an atom so that rows need no separator: `a => 1 b => -2`. */
cell: INTLIT                         { $$ = expr_leaf(lx, @1, AE_INT, strtoll($1, NULL, 10), $1); }
    | '-' INTLIT                     { $$ = expr_op(lx, @1, AE_UNARY, OP_NEG, expr_leaf(lx, @2, AE_INT, strtoll($2, NULL, 10), $2), NULL); }
    | IDENT                          { $$ = expr_leaf(lx, @1, AE_NAME, 0, $1); }
    | BOOLLIT                        { $$ = expr_leaf(lx, @1, AE_BOOL, $1, NULL); }
    | '(' expr ')'                   { $$ = $2; }
    ;
keys: key                            { $$ = list1(lx, $1); }
    | keys ',' key                   { $$ = push(lx, $1, $3); }
    ;
key: expr                            { $$ = MK(ast_pattern, @1); $$->kind = AP_VALUE; $$->lo = $1; }
    | expr DOTDOT expr               { $$ = MK(ast_pattern, @1); $$->kind = AP_RANGE; $$->lo = $1; $$->hi = $3; }
    ;

article_decl: ARTICLE artid STRING when_opt block
                                     { $$ = decl(lx, @2, AD_ARTICLE, $2); $$->title = $3; $$->expr = $4; $$->body = $5; }
    | ARTICLE artid STRING EN STRING when_opt block
                                     { $$ = decl(lx, @2, AD_ARTICLE, $2); $$->title = $3; $$->text_en = $5; $$->expr = $6; $$->body = $7; }
    | ARTICLE artid when_opt block   { $$ = decl(lx, @2, AD_ARTICLE, $2); $$->expr = $3; $$->body = $4; }
    ;
artid: INTLIT | CITE ;
when_opt: %empty                     { $$ = NULL; }
    | WHEN expr                      { $$ = $2; }
    ;

block: '{' items '}'                 { $$ = MK(ast_block, @1); $$->items = $2; }
    ;
items: %empty                        { $$ = (ast_list){0}; }
    | items item                     { $$ = push(lx, $1, $2); }
    | items ';'                      { $$ = $1; }
    | items ','                      { $$ = $1; }
    | items error                    { $$ = $1; }
    ;
item: IDENT                          { $$ = item_new(lx, @1, AI_ACTION); $$->name = $1; }
    | IDENT '(' args_opt ')'         { $$ = item_new(lx, @1, AI_ACTION); $$->name = $1; $$->args = $3; }
    | IF expr clause                 { $$ = item_new(lx, @1, AI_IF); $$->cond = $2; $$->clause = $3; }
    | IF expr block                  { $$ = item_new(lx, @1, AI_IF); $$->cond = $2; $$->clause = clause_new(lx, @3, NULL, $3, NULL, @3); }
    | IF expr error block            { $$ = item_new(lx, @1, AI_IF); $$->cond = $2; $$->clause = clause_new(lx, @4, NULL, $4, NULL, @4); yyerrok; }
    | MATCH expr '{' arms '}'        { $$ = item_new(lx, @1, AI_MATCH); $$->cond = $2; $$->arms = $4; }
    | OTHERWISE clause               { $$ = item_new(lx, @1, AI_OTHERWISE); $$->clause = $2; }
    | APPLY artid                    { $$ = item_new(lx, @1, AI_APPLY); $$->name = $2; }
    | CITEKW citelist                { $$ = item_new(lx, @1, AI_CITE); $$->args = $2; }
    ;
clause: ARROW cite_opt block         { $$ = clause_new(lx, @1, $2, $3, NULL, @1); }
    | ARROW cite_opt APPLY artid     { $$ = clause_new(lx, @1, $2, NULL, $4, @4); }
    ;
cite_opt: %empty                     { $$ = NULL; }
    | INTLIT | CITE | STRING
    ;
arms: %empty                         { $$ = (ast_list){0}; }
    | arms arm                       { $$ = push(lx, $1, $2); }
    | arms ','                       { $$ = $1; }
    | arms ';'                       { $$ = $1; }
    | arms error                     { $$ = $1; }
    ;
arm: patterns clause                 { $$ = MK(ast_arm, @1); $$->patterns = $1; $$->clause = $2; }
    ;
patterns: pattern                    { $$ = list1(lx, $1); }
    | patterns ',' pattern           { $$ = push(lx, $1, $3); }
    ;
pattern: expr                        { $$ = MK(ast_pattern, @1); $$->kind = AP_VALUE; $$->lo = $1; }
    | expr DOTDOT expr               { $$ = MK(ast_pattern, @1); $$->kind = AP_RANGE; $$->lo = $1; $$->hi = $3; }
    | UNDERSCORE                     { $$ = MK(ast_pattern, @1); $$->kind = AP_ANY; }
    ;

test_decl: TEST STRING '{' test_body '}' { $$ = $4; $$->loc = L(lx, @1); $$->name = $2; }
    | TEST STRING ARTICLE artid '{' test_body '}'
                                     { $$ = $6; $$->loc = L(lx, @1); $$->name = $2; $$->title = $4; $$->from_loc = L(lx, @4); }
    ;
test_body: %empty                    { $$ = decl(lx, @$, AD_TEST, NULL); }
    | test_body GIVEN givens         { $$ = $1; append(lx, &$$->givens, $3); }
    | test_body EXPECT expects       { $$ = $1; append(lx, &$$->expects, $3); }
    | test_body error                { $$ = $1; }
    ;
givens: given                        { $$ = list1(lx, $1); }
    | givens ',' given               { $$ = push(lx, $1, $3); }
    ;
given: IDENT '=' expr                { $$ = MK(ast_given, @1); $$->name = $1; $$->value = $3; }
    | IDENT STRING                   { $$ = MK(ast_given, @1); $$->name = $1; $$->value = expr_leaf(lx, @2, AE_STRING, 0, $2); }
    ;
expects: expect                      { $$ = list1(lx, $1); }
    | expects ',' expect             { $$ = push(lx, $1, $3); }
    ;
expect: expect_atom
    | NOT expect_atom                { $$ = $2; $$->negated = true; }
    | TRAIL '[' cites ']'            { $$ = expect_new(lx, @1, AX_TRAIL, NULL); $$->args = $3; }
    | ASKS IDENT                     { $$ = expect_new(lx, @1, AX_ASKS, $2); }
    | REJECTED                       { $$ = expect_new(lx, @1, AX_REJECTED, NULL); }
    | OUTSIDE                        { $$ = expect_new(lx, @1, AX_OUTSIDE, NULL); }
    | NOT OUTSIDE                    { $$ = expect_new(lx, @1, AX_OUTSIDE, NULL); $$->negated = true; }
    | NOT REJECTED                   { $$ = expect_new(lx, @1, AX_REJECTED, NULL); $$->negated = true; }
    ;
expect_atom: artid                   { $$ = expect_new(lx, @1, AX_CITE, $1); }
    | IDENT                          { $$ = expect_new(lx, @1, AX_ACTION, $1); }
    | IDENT '(' args_opt ')'         { $$ = expect_new(lx, @1, AX_ACTION, $1); $$->has_args = true; $$->args = $3; }
    ;
cites: artid                         { $$ = list1(lx, expr_leaf(lx, @1, AE_CITE, 0, $1)); }
    | cites ',' artid                { $$ = push(lx, $1, expr_leaf(lx, @3, AE_CITE, 0, $3)); }
    ;

args_opt: %empty                     { $$ = (ast_list){0}; }
    | args
    ;
args: expr                           { $$ = list1(lx, $1); }
    | args ',' expr                  { $$ = push(lx, $1, $3); }
    ;

expr: INTLIT                         { $$ = expr_leaf(lx, @1, AE_INT, strtoll($1, NULL, 10), $1); }
    | BOOLLIT                        { $$ = expr_leaf(lx, @1, AE_BOOL, $1, NULL); }
    | IDENT                          { $$ = expr_leaf(lx, @1, AE_NAME, 0, $1); }
    | CITE                           { $$ = expr_leaf(lx, @1, AE_CITE, 0, $1); }
    | STRING                         { $$ = expr_leaf(lx, @1, AE_STRING, 0, $1); }
    | IDENT '(' args_opt ')'         { $$ = expr_leaf(lx, @1, AE_CALL, 0, $1); $$->args = $3; }
    | '(' expr ')'                   { $$ = $2; }
    | NOT expr                       { $$ = expr_op(lx, @1, AE_UNARY, OP_NOT, $2, NULL); }
    | '-' expr %prec UMINUS          { $$ = expr_op(lx, @1, AE_UNARY, OP_NEG, $2, NULL); }
    | expr AND expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_AND, $1, $3); }
    | expr OR expr                   { $$ = expr_op(lx, @2, AE_BINARY, OP_OR, $1, $3); }
    | expr IMPLIES expr              { $$ = expr_op(lx, @2, AE_BINARY, OP_IMPLIES, $1, $3); }
    | expr EQ expr                   { $$ = expr_op(lx, @2, AE_BINARY, OP_EQ, $1, $3); }
    | expr NE expr                   { $$ = expr_op(lx, @2, AE_BINARY, OP_NE, $1, $3); }
    | expr '<' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_LT, $1, $3); }
    | expr LE expr                   { $$ = expr_op(lx, @2, AE_BINARY, OP_LE, $1, $3); }
    | expr '>' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_GT, $1, $3); }
    | expr GE expr                   { $$ = expr_op(lx, @2, AE_BINARY, OP_GE, $1, $3); }
    | expr '+' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_ADD, $1, $3); }
    | expr '-' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_SUB, $1, $3); }
    | expr '*' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_MUL, $1, $3); }
    | expr '/' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_DIV, $1, $3); }
    | expr '%' expr                  { $$ = expr_op(lx, @2, AE_BINARY, OP_MOD, $1, $3); }
    | expr IN '{' args opt_comma '}' { $$ = expr_op(lx, @2, AE_IN, 0, $1, NULL); $$->args = $4; }
    ;

%%

static src_loc L(dsl_lexer *lx, YYLTYPE l) {
    src_loc s = {lx->path, l.first_line, l.first_column};
    return s;
}

static void *node(dsl_lexer *lx, size_t size, YYLTYPE l) {
    src_loc *p = arena_alloc(lx->arena, size);
    *p = L(lx, l); /* every node starts with its location */
    return p;
}

static ast_list list1(dsl_lexer *lx, void *item) {
    ast_list l = {0};
    ast_push(lx->arena, &l, item);
    return l;
}

static ast_list push(dsl_lexer *lx, ast_list l, void *item) {
    ast_push(lx->arena, &l, item);
    return l;
}

static ast_expr *expr_leaf(dsl_lexer *lx, YYLTYPE l, int kind, int64_t ival, const char *text) {
    ast_expr *e = MK(ast_expr, l);
    e->kind = kind;
    e->ival = ival;
    e->text = text;
    return e;
}

static ast_expr *expr_op(dsl_lexer *lx, YYLTYPE l, int kind, int op, ast_expr *a, ast_expr *b) {
    ast_expr *e = MK(ast_expr, l);
    e->kind = kind;
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

static ast_decl *decl(dsl_lexer *lx, YYLTYPE l, int kind, const char *name) {
    ast_decl *d = MK(ast_decl, l);
    d->kind = kind;
    d->name = name;
    return d;
}

static ast_type *type_new(dsl_lexer *lx, YYLTYPE l, int kind) {
    ast_type *t = MK(ast_type, l);
    t->kind = kind;
    return t;
}

static ast_item *item_new(dsl_lexer *lx, YYLTYPE l, int kind) {
    ast_item *i = MK(ast_item, l);
    i->kind = kind;
    return i;
}

static ast_clause *clause_new(dsl_lexer *lx, YYLTYPE l, const char *cite, ast_block *b,
                              const char *apply, YYLTYPE al) {
    ast_clause *c = MK(ast_clause, l);
    c->cite = cite;
    c->block = b;
    c->apply = apply;
    c->apply_loc = L(lx, al);
    return c;
}

static ast_expect *expect_new(dsl_lexer *lx, YYLTYPE l, int kind, const char *name) {
    ast_expect *x = MK(ast_expect, l);
    x->kind = kind;
    x->name = name;
    return x;
}

static ast_decl *change(dsl_lexer *lx, YYLTYPE l, int op, int target, const char *name) {
    ast_decl *d = decl(lx, l, AD_CHANGE, name);
    d->change_op = op;
    d->change_target = target;
    return d;
}

/* ---- limits (docs/language.md, "Limits") ------------------------------------
 * The compiler, the checker and the evaluator walk blocks, clauses and
 * expressions recursively; nesting is bounded here, before anything deep
 * reaches them, so that a runaway file gets an error instead of overflowing
 * the stack. The counts bound what one file can make the compiler do. */
#define DSL_MAX_NESTING 256
#define DSL_MAX_DECLS 2000
#define DSL_MAX_TABLES 100
/* A derived fact is evaluated through the derived facts it names, so the
 * levels of all of a file's derived facts together bound that recursion. */
#define DSL_MAX_DERIVED_LEVELS 4096

static ast_type *range_type(dsl_lexer *lx, YYLTYPE l, int64_t lo, int64_t hi) {
    ast_type *t = type_new(lx, l, AT_RANGE);
    t->lo = lo;
    t->hi = hi;
    int64_t width; /* decisions and tables are sized hi - lo + 1 */
    if (lo > hi)
        diag_report(lx->diag, DIAG_ERROR, L(lx, l), "write the range low..high", "empty range %lld..%lld",
                    (long long)lo, (long long)hi);
    else if (__builtin_sub_overflow(hi, lo, &width) || width == INT64_MAX)
        diag_report(lx->diag, DIAG_ERROR, L(lx, l), "write `int` for a number without bounds",
                    "the range %lld..%lld is too wide", (long long)lo, (long long)hi);
    return t;
}

/* Each walk stops one level past the limit, so it is bounded itself; *at
 * receives the first node that is too deep. */
static bool too_deep(int depth, src_loc loc, src_loc *at) {
    if (depth <= DSL_MAX_NESTING) return false;
    *at = loc;
    return true;
}

static bool expr_deep(const ast_expr *e, int depth, src_loc *at);

static bool exprs_deep(const ast_list *l, int depth, src_loc *at) {
    for (int i = 0; i < l->n; i++)
        if (expr_deep(l->items[i], depth, at)) return true;
    return false;
}

static bool expr_deep(const ast_expr *e, int depth, src_loc *at) {
    if (!e) return false;
    if (too_deep(depth, e->loc, at)) return true;
    return expr_deep(e->a, depth + 1, at) || expr_deep(e->b, depth + 1, at) || exprs_deep(&e->args, depth + 1, at);
}

static bool patterns_deep(const ast_list *l, int depth, src_loc *at) {
    for (int i = 0; i < l->n; i++) {
        const ast_pattern *p = l->items[i];
        if (expr_deep(p->lo, depth, at) || expr_deep(p->hi, depth, at)) return true;
    }
    return false;
}

static bool block_deep(const ast_block *b, int depth, src_loc *at);

static bool clause_deep(const ast_clause *c, int depth, src_loc *at) {
    return c && block_deep(c->block, depth, at);
}

static bool item_deep(const ast_item *it, int depth, src_loc *at) {
    if (exprs_deep(&it->args, depth, at) || expr_deep(it->cond, depth, at) || clause_deep(it->clause, depth, at))
        return true;
    for (int i = 0; i < it->arms.n; i++) {
        const ast_arm *arm = it->arms.items[i];
        if (patterns_deep(&arm->patterns, depth, at) || clause_deep(arm->clause, depth, at)) return true;
    }
    return false;
}

/* A block is one level; what its items hold is one level further in. */
static bool block_deep(const ast_block *b, int depth, src_loc *at) {
    if (!b) return false;
    if (too_deep(depth, b->loc, at)) return true;
    for (int i = 0; i < b->items.n; i++)
        if (item_deep(b->items.items[i], depth + 1, at)) return true;
    return false;
}

static bool row_deep(const ast_row *r, src_loc *at) {
    return r && (patterns_deep(&r->keys, 1, at) || expr_deep(r->value, 1, at));
}

static bool decl_deep(const ast_decl *d, src_loc *at) {
    if (expr_deep(d->expr, 1, at) || block_deep(d->body, 1, at) || clause_deep(d->clause, 1, at) || row_deep(d->row, at))
        return true;
    for (int i = 0; i < d->rows.n; i++)
        if (row_deep(d->rows.items[i], at)) return true;
    for (int i = 0; i < d->givens.n; i++)
        if (expr_deep(((ast_given *)d->givens.items[i])->value, 1, at)) return true;
    for (int i = 0; i < d->expects.n; i++)
        if (exprs_deep(&((ast_expect *)d->expects.items[i])->args, 1, at)) return true;
    return d->inner && decl_deep(d->inner, at);
}

/* The depth of an expression, counted up to one past the limit. */
static int expr_depth(const ast_expr *e, int depth) {
    if (!e || depth > DSL_MAX_NESTING) return e ? depth : depth - 1;
    int deepest = depth;
    const ast_expr *kids[2] = {e->a, e->b};
    for (int i = 0; i < 2; i++) {
        int d = expr_depth(kids[i], depth + 1);
        if (d > deepest) deepest = d;
    }
    for (int i = 0; i < e->args.n; i++) {
        int d = expr_depth(e->args.items[i], depth + 1);
        if (d > deepest) deepest = d;
    }
    return deepest;
}

/* Called once the file is parsed: reports the derived fact at which the
 * file's derived facts pass DSL_MAX_DERIVED_LEVELS together. */
static void check_derived_levels(dsl_lexer *lx) {
    long levels = 0;
    for (int i = 0; i < lx->file->decls.n; i++) {
        const ast_decl *d = lx->file->decls.items[i];
        if (d->kind == AD_CHANGE && d->inner) d = d->inner;
        if (d->kind != AD_FACT || !d->expr) continue;
        levels += expr_depth(d->expr, 1);
        if (levels <= DSL_MAX_DERIVED_LEVELS) continue;
        diag_report(lx->diag, DIAG_ERROR, d->loc, "compute fewer steps in derived facts, or move some to another file",
                    "the derived facts of this file nest more than %d levels together (each counts the levels of "
                    "its expression)", DSL_MAX_DERIVED_LEVELS);
        return;
    }
}

static bool is_table(const ast_decl *d) {
    return d->kind == AD_TABLE || (d->kind == AD_CHANGE && d->inner && d->inner->kind == AD_TABLE);
}

/* Whether one more declaration of d's kind fits in the file. The one that
 * reaches a limit is reported and kept (the file has an error, so nothing
 * is compiled); those after it are dropped without a word. */
static bool within_counts(dsl_lexer *lx, const ast_decl *d) {
    const ast_list *decls = &lx->file->decls;
    if (decls->n > DSL_MAX_DECLS) return false;
    if (decls->n == DSL_MAX_DECLS) {
        diag_report(lx->diag, DIAG_ERROR, d->loc, "split the rules over several files",
                    "more than %d declarations in one file", DSL_MAX_DECLS);
        return true;
    }
    if (!is_table(d)) return true;
    int tables = 0;
    for (int i = 0; i < decls->n; i++) tables += is_table(decls->items[i]);
    if (tables == DSL_MAX_TABLES)
        diag_report(lx->diag, DIAG_ERROR, d->loc, "split the rules over several files",
                    "more than %d tables in one file", DSL_MAX_TABLES);
    return tables <= DSL_MAX_TABLES;
}

static void add_decl(dsl_lexer *lx, ast_decl *d) {
    src_loc at;
    if (decl_deep(d, &at)) {
        diag_report(lx->diag, DIAG_ERROR, at,
                    "split it: give a part a derived fact of its own, or an article of its own and `apply` it",
                    "nested more than %d levels deep (each block and each operator counts, also every "
                    "operator of a chain such as `a and b and c`)",
                    DSL_MAX_NESTING);
        return;
    }
    if (within_counts(lx, d)) ast_push(lx->arena, &lx->file->decls, d);
}

static void append(dsl_lexer *lx, ast_list *to, ast_list from) {
    for (int i = 0; i < from.n; i++) ast_push(lx->arena, to, from.items[i]);
}

/* An article's titles: `article 27 "Onvoldoende bod" en "Insufficient Bid"`. recent[0] is the
 * token that did not fit, recent[1] … the ones before it. */
static const char *title_hint(const dsl_lexer *lx) {
    const int *t = lx->recent;
    bool after_id = t[1] == INTLIT || t[1] == CITE;
    if (t[0] == EN && after_id && t[2] == ARTICLE && t[3] != REMOVE)
        return "the Dutch title comes first: `article 27 \"Onvoldoende bod\" en \"Insufficient Bid\"`";
    if (t[0] == STRING && t[1] == STRING && (t[2] == INTLIT || t[2] == CITE) && t[3] == ARTICLE)
        return "an article has one Dutch title; write `en` before the English one: `article 27 \"Onvoldoende "
               "bod\" en \"Insufficient Bid\"`";
    if (t[0] != STRING && t[1] == EN && t[2] == STRING && (t[3] == INTLIT || t[3] == CITE) && t[4] == ARTICLE)
        return "`en` takes the English title in quotes: `article 27 \"Onvoldoende bod\" en \"Insufficient Bid\"`";
    return NULL;
}

static const char *token_hint(yysymbol_kind_t expected[], int n, yysymbol_kind_t got) {
    for (int i = 0; i < n; i++)
        if (expected[i] == YYSYMBOL_ARROW && got == YYSYMBOL_IDENT)
            return "a clause reads `if CONDITION => CITATION { actions }`";
    if (got == YYSYMBOL_DEFAULT) return "`default` goes after a fact's question (ask, en, from); a derived fact is computed and has none";
    if (got == YYSYMBOL_CITE) return "a citation follows `=>`: `if CONDITION => 27B1a { actions }`";
    if (got == YYSYMBOL_YYEOF) return "a '{' or '(' may be missing its closing partner";
    if (got == YYSYMBOL_STRING) return "strings are titles, questions and messages; names have no quotes";
    return NULL;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, dsl_lexer *lx) {
    enum { MAX_EXPECTED = 8 };
    yysymbol_kind_t expected[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
    yysymbol_kind_t got = yypcontext_token(ctx);
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "unexpected %s", yysymbol_name(got));
    if (got == YYSYMBOL_IDENT || got == YYSYMBOL_CITE || got == YYSYMBOL_INTLIT) {
        int len = (int)(lx->cur - lx->tok);
        sb_printf(&sb, " '%.*s'", len > 40 ? 40 : len, lx->tok);
    }
    if (n > 0) {
        sb_puts(&sb, ", expected ");
        for (int i = 0; i < n; i++)
            sb_printf(&sb, "%s%s", i == 0 ? "" : (i == n - 1 ? " or " : ", "), yysymbol_name(expected[i]));
    }
    src_loc at = L(lx, *yypcontext_location(ctx));
    const char *hint = title_hint(lx);
    diag_report(lx->diag, DIAG_ERROR, at, hint ? hint : token_hint(expected, n < 0 ? 0 : n, got), "%s", sb.data);
    sb_free(&sb);
    return 0;
}

/* Bison's only other message is "memory exhausted": its stack is full,
 * which takes nesting far past DSL_MAX_NESTING (parentheses, blocks, `not`
 * or `implies` chains); the parse stops there. */
static void yyerror(YYLTYPE *loc, dsl_lexer *lx, const char *msg) {
    if (strcmp(msg, "memory exhausted") == 0)
        diag_report(lx->diag, DIAG_ERROR, L(lx, *loc), "split it: give a part a derived fact or an article of its own",
                    "nested more than %d levels deep; the rest of the file is not read", DSL_MAX_NESTING);
    else
        diag_report(lx->diag, DIAG_ERROR, L(lx, *loc), NULL, "%s", msg);
}

void ast_push(arena *a, ast_list *l, void *item) {
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        void **items = arena_alloc(a, (size_t)cap * sizeof *items);
        if (l->n) memcpy(items, l->items, (size_t)l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = item;
}

ast_file *dsl_parse(arena *a, diag *d, const char *path, const char *text) {
    dsl_lexer lx;
    dsl_lexer_init(&lx, a, d, path, text);
    lx.file = arena_alloc(a, sizeof *lx.file);
    lx.file->path = path;
    yyparse(&lx);
    check_derived_levels(&lx);
    return lx.file;
}
