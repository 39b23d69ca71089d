/* test_lexer_parser.c — unit tests of dsl/lexer.re and dsl/parser.y through
 * dsl_parse.
 *
 * Covers: every declaration kind lands in the syntax tree with the right
 * fields (ruleset header, include, type, fact with ask/en/from/overridable,
 * derived fact, action with parameters and text/en, table rows with the `_`
 * default, invariant, article with `when` and if/match/otherwise/apply,
 * patterns with ranges and `_`, test with given/auction/expect in all its
 * forms); citations against integers; string escapes; comments; operator
 * precedence; syntax errors at the right line:col, several in one file;
 * unterminated strings; non-ASCII bytes outside strings; numbers too large;
 * a keyword as a parameter name.
 *
 * Expected trees are written from docs/language.md and the grammar's
 * documented intent, not from the parser's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

/* ---------------------------------------------------------------- helpers */

typedef struct parsed {
    arena *a;
    ast_file *file;
    int errors;
    char *out; /* what the diag printed */
} parsed;

/* Parses text as file "t.rules"; diagnostics are captured in p->out. */
static void parse_text(parsed *p, const char *text) {
    size_t len = 0;
    FILE *mem = open_memstream(&p->out, &len);
    assert_non_null(mem);
    p->a = arena_new();
    diag *d = diag_new(mem);
    char *copy = arena_strdup(p->a, text);
    diag_add_source(d, "t.rules", copy);
    p->file = dsl_parse(p->a, d, "t.rules", copy);
    p->errors = diag_errors(d);
    diag_free(d);
    fclose(mem);
}

static void parsed_free(parsed *p) {
    arena_free(p->a);
    free(p->out);
}

/* Parses text that must have no errors. */
static void parse_ok(parsed *p, const char *text) {
    parse_text(p, text);
    if (p->errors) fail_msg("unexpected errors:\n%s", p->out);
}

static void assert_contains(const char *text, const char *needle) {
    if (!text || !strstr(text, needle))
        fail_msg("expected \"%s\" in \"%s\"", needle, text ? text : "(null)");
}

static ast_decl *decl_at(const parsed *p, int i) {
    assert_true(i < p->file->decls.n);
    return p->file->decls.items[i];
}

static void *item(const ast_list *l, int i) {
    if (i >= l->n) fail_msg("list has %d items, wanted index %d", l->n, i);
    return l->items[i];
}

static void assert_name(const ast_expr *e, const char *name) {
    assert_non_null(e);
    assert_int_equal(e->kind, AE_NAME);
    assert_string_equal(e->text, name);
}

static void assert_loc(src_loc l, int line, int col) {
    if (l.line != line || l.col != col)
        fail_msg("location %d:%d, expected %d:%d", l.line, l.col, line, col);
}

/* ----------------------------------------------------------- declarations */

static void test_ruleset_header_and_include(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "ruleset \"bridge-2017\" {\n"
                 "  title \"Spelregels 2017\"\n"
                 "  game  bridge\n"
                 "  edition 2017\n"
                 "}\n"
                 "include \"../bridge-common\"\n");
    assert_int_equal(p.file->decls.n, 2);
    ast_decl *h = decl_at(&p, 0);
    assert_int_equal(h->kind, AD_RULESET);
    assert_string_equal(h->name, "bridge-2017");
    assert_int_equal(h->params.n, 3);
    ast_given *title = item(&h->params, 0), *game = item(&h->params, 1), *ed = item(&h->params, 2);
    assert_string_equal(title->name, "title");
    assert_string_equal(title->value->text, "Spelregels 2017");
    assert_string_equal(game->name, "game");
    assert_string_equal(game->value->text, "bridge");
    assert_string_equal(ed->name, "edition");
    assert_string_equal(ed->value->text, "2017");
    ast_decl *inc = decl_at(&p, 1);
    assert_int_equal(inc->kind, AD_INCLUDE);
    assert_string_equal(inc->name, "../bridge-common");
    assert_loc(inc->loc, 6, 1);
    parsed_free(&p);
}

static void test_named_types(void **state) {
    (void)state;
    parsed p;
    parse_ok(
        &p,
        "type denomination = enum { clubs, diamonds \"ruiten\" en \"diamonds\", notrump \"SA\", }\n"
        "type tricks = int 1..13\n"
        "type delta = int -3..3\n"
        "type flag = bool\n"
        "type amount = int\n"
        "type where = seat\n");
    assert_int_equal(p.file->decls.n, 6);
    ast_decl *d = decl_at(&p, 0);
    assert_int_equal(d->kind, AD_TYPE);
    assert_string_equal(d->name, "denomination");
    assert_int_equal(d->type->kind, AT_ENUM);
    assert_int_equal(d->type->values.n, 3); /* a trailing comma is allowed */
    ast_enumval *v0 = item(&d->type->values, 0), *v1 = item(&d->type->values, 1);
    assert_string_equal(v0->name, "clubs");
    assert_null(v0->label);
    assert_string_equal(v1->name, "diamonds");
    assert_string_equal(v1->label, "ruiten");
    assert_string_equal(v1->label_en, "diamonds");
    ast_enumval *v2 = item(&d->type->values, 2);
    assert_string_equal(v2->label, "SA");
    assert_null(v2->label_en);
    ast_type *r = decl_at(&p, 1)->type;
    assert_int_equal(r->kind, AT_RANGE);
    assert_int_equal(r->lo, 1);
    assert_int_equal(r->hi, 13);
    ast_type *neg = decl_at(&p, 2)->type;
    assert_int_equal(neg->kind, AT_RANGE);
    assert_int_equal(neg->lo, -3);
    assert_int_equal(neg->hi, 3);
    assert_int_equal(decl_at(&p, 3)->type->kind, AT_BOOL);
    assert_int_equal(decl_at(&p, 4)->type->kind, AT_INT);
    assert_int_equal(decl_at(&p, 5)->type->kind, AT_NAMED);
    assert_string_equal(decl_at(&p, 5)->type->name, "seat");
    parsed_free(&p);
}

static void test_fact_with_every_option(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "fact lho_called : bool\n"
                 "  ask \"Heeft de LT geboden?\"\n"
                 "  en  \"Has LHO called?\"\n"
                 "fact turn_was : enum { offender, lho, partner, rho }\n"
                 "  ask \"Wie was aan de beurt?\"\n"
                 "  from auction.turn_was\n"
                 "  overridable\n"
                 "fact plain : int 0..60\n");
    assert_int_equal(p.file->decls.n, 3);
    ast_decl *a = decl_at(&p, 0);
    assert_int_equal(a->kind, AD_FACT);
    assert_string_equal(a->name, "lho_called");
    assert_loc(a->loc, 1, 6);
    assert_int_equal(a->type->kind, AT_BOOL);
    assert_string_equal(a->ask, "Heeft de LT geboden?");
    assert_string_equal(a->ask_en, "Has LHO called?");
    assert_null(a->from_ns);
    assert_false(a->overridable);
    assert_null(a->expr);
    ast_decl *b = decl_at(&p, 1);
    assert_string_equal(b->name, "turn_was");
    assert_int_equal(b->type->kind, AT_ENUM);
    assert_int_equal(b->type->values.n, 4);
    assert_string_equal(b->from_ns, "auction");
    assert_string_equal(b->from_name, "turn_was");
    assert_loc(b->from_loc, 6, 8);
    assert_true(b->overridable);
    assert_null(b->ask_en);
    ast_decl *c = decl_at(&p, 2);
    assert_null(c->ask);
    assert_int_equal(c->type->kind, AT_RANGE);
    parsed_free(&p);
}

static void test_derived_fact(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "fact offender_in_turn : bool = turn_was == offender\n");
    ast_decl *d = decl_at(&p, 0);
    assert_int_equal(d->kind, AD_FACT);
    assert_string_equal(d->name, "offender_in_turn");
    assert_non_null(d->expr);
    assert_int_equal(d->expr->kind, AE_BINARY);
    assert_int_equal(d->expr->op, OP_EQ);
    assert_name(d->expr->a, "turn_was");
    assert_name(d->expr->b, "offender");
    assert_null(d->ask);
    parsed_free(&p);
}

static void test_action_with_params_and_texts(void **state) {
    (void)state;
    parsed p;
    parse_ok(
        &p,
        "action partner_must_pass(span: enum { next_turn \"bij zijn beurt\", rest \"de rest\" })\n"
        "  text \"De partner moet {span} passen.\"\n"
        "  en   \"Partner must pass {span}.\"\n"
        "action director_judgment(article: cite, question: string)\n"
        "  text \"Oordeel (art. {article}): {question}\"\n"
        "action auction_continues text \"Het bieden gaat verder.\"\n"
        "action empty() text \"x\"\n");
    assert_int_equal(p.file->decls.n, 4);
    ast_decl *a = decl_at(&p, 0);
    assert_int_equal(a->kind, AD_ACTION);
    assert_string_equal(a->name, "partner_must_pass");
    assert_int_equal(a->params.n, 1);
    ast_param *span = item(&a->params, 0);
    assert_string_equal(span->name, "span");
    assert_int_equal(span->type->kind, AT_ENUM);
    assert_int_equal(span->type->values.n, 2);
    assert_string_equal(((ast_enumval *)item(&span->type->values, 1))->label, "de rest");
    assert_string_equal(a->text, "De partner moet {span} passen.");
    assert_string_equal(a->text_en, "Partner must pass {span}.");
    ast_decl *b = decl_at(&p, 1);
    assert_int_equal(b->params.n, 2);
    ast_param *art = item(&b->params, 0), *q = item(&b->params, 1);
    assert_string_equal(art->name, "article"); /* a keyword as a parameter name */
    assert_int_equal(art->type->kind, AT_NAMED);
    assert_string_equal(art->type->name, "cite");
    assert_string_equal(q->name, "question");
    assert_string_equal(q->type->name, "string");
    assert_null(b->text_en);
    ast_decl *c = decl_at(&p, 2);
    assert_string_equal(c->name, "auction_continues");
    assert_int_equal(c->params.n, 0);
    assert_string_equal(c->text, "Het bieden gaat verder.");
    assert_int_equal(decl_at(&p, 3)->params.n, 0);
    parsed_free(&p);
}

static void test_keywords_as_parameter_names(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "action see(article: cite) text \"Zie {article}.\"\n"
                 "action many(text: string, type: bool, table: int, test: int, fact: int, action: "
                 "int, trail: int)\n"
                 "  text \"x\"\n");
    assert_int_equal(p.file->decls.n, 2);
    ast_decl *m = decl_at(&p, 1);
    static const char *const names[] = {"text", "type", "table", "test", "fact", "action", "trail"};
    assert_int_equal(m->params.n, 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(((ast_param *)item(&m->params, i))->name, names[i]);
    parsed_free(&p);
}

/* A row key may be a range: `20..40 => 1`. */
static void test_table_row_with_range_key(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "table imp(d: int 0..100) : int { 0..1 => 0  2..4 => 1 }\n");
    ast_decl *t = decl_at(&p, 0);
    assert_int_equal(t->rows.n, 2);
    ast_pattern *k = item(&((ast_row *)item(&t->rows, 1))->keys, 0);
    assert_int_equal(k->kind, AP_RANGE);
    assert_int_equal(k->lo->ival, 2);
    assert_int_equal(k->hi->ival, 4);
    parsed_free(&p);
}

static void test_table_rows_and_default(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "table undertrick(dbl: doubling, n: int 1..13) : int {\n"
                 "  undoubled, 1 => 50\n"
                 "  doubled, 1 => -100, redoubled, 1 => (2 * 100)\n"
                 "  _ => 0\n"
                 "}\n");
    ast_decl *t = decl_at(&p, 0);
    assert_int_equal(t->kind, AD_TABLE);
    assert_string_equal(t->name, "undertrick");
    assert_int_equal(t->params.n, 2);
    assert_string_equal(((ast_param *)item(&t->params, 0))->name, "dbl");
    assert_int_equal(((ast_param *)item(&t->params, 1))->type->kind, AT_RANGE);
    assert_int_equal(t->type->kind, AT_INT);
    assert_int_equal(t->rows.n, 4);
    ast_row *r0 = item(&t->rows, 0);
    assert_int_equal(r0->keys.n, 2);
    assert_name(((ast_pattern *)item(&r0->keys, 0))->lo, "undoubled");
    assert_int_equal(((ast_pattern *)item(&r0->keys, 1))->kind, AP_VALUE);
    assert_int_equal(((ast_pattern *)item(&r0->keys, 1))->lo->kind, AE_INT);
    assert_int_equal(((ast_pattern *)item(&r0->keys, 1))->lo->ival, 1);
    assert_int_equal(r0->value->kind, AE_INT);
    assert_int_equal(r0->value->ival, 50);
    assert_loc(r0->loc, 2, 3);
    ast_row *r1 = item(&t->rows, 1);
    assert_int_equal(r1->value->kind, AE_UNARY);
    assert_int_equal(r1->value->op, OP_NEG);
    assert_int_equal(r1->value->a->ival, 100);
    ast_row *r2 = item(&t->rows, 2);
    assert_name(((ast_pattern *)item(&r2->keys, 0))->lo, "redoubled");
    assert_int_equal(r2->value->kind, AE_BINARY);
    assert_int_equal(r2->value->op, OP_MUL);
    ast_row *def = item(&t->rows, 3);
    assert_int_equal(def->keys.n, 0); /* the default row */
    assert_int_equal(def->value->ival, 0);
    parsed_free(&p);
}

static void test_invariant(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "invariant \"Wie op zijn beurt bood, bood niet voor de beurt\"\n"
                 "  irregularity == call_out_of_rotation implies turn_was != offender\n");
    ast_decl *d = decl_at(&p, 0);
    assert_int_equal(d->kind, AD_INVARIANT);
    assert_string_equal(d->title, "Wie op zijn beurt bood, bood niet voor de beurt");
    assert_int_equal(d->expr->kind, AE_BINARY);
    assert_int_equal(d->expr->op, OP_IMPLIES);
    assert_int_equal(d->expr->a->op, OP_EQ);
    assert_int_equal(d->expr->b->op, OP_NE);
    assert_name(d->expr->b->b, "offender");
    parsed_free(&p);
}

/* An article's English title follows its Dutch one after `en`, also in an
 * amendment's `replace article`; without it the article has none. */
static void test_article_titles(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "article 27 \"Onvoldoende bod\" en \"Insufficient Bid\" when x { ok }\n"
                 "article 28 \"Bieding voor de beurt\" { ok }\n"
                 "replace article 29 \"Verbeurd\" en \"Forfeited\" { ok }\n");
    ast_decl *d = decl_at(&p, 0);
    assert_int_equal(d->kind, AD_ARTICLE);
    assert_string_equal(d->title, "Onvoldoende bod");
    assert_string_equal(d->text_en, "Insufficient Bid");
    assert_name(d->expr, "x");
    d = decl_at(&p, 1);
    assert_string_equal(d->title, "Bieding voor de beurt");
    assert_null(d->text_en);
    d = decl_at(&p, 2);
    assert_int_equal(d->kind, AD_CHANGE);
    assert_string_equal(d->inner->title, "Verbeurd");
    assert_string_equal(d->inner->text_en, "Forfeited");
    parsed_free(&p);
}

/* A title in the wrong form: located, with a hint that shows the right one. */
static void test_article_title_errors(void **state) {
    (void)state;
    static const struct {
        const char *text, *where, *hint;
    } cases[] = {
        {"article 27 en \"Insufficient Bid\" { ok }\n", "t.rules:1:12: error: unexpected 'en'",
         "the Dutch title comes first"},
        {"article 27 \"Onvoldoende bod\" \"Insufficient Bid\" { ok }\n",
         "t.rules:1:30: error: unexpected string", "write `en` before the English one"},
        {"article 27 \"Onvoldoende bod\" en { ok }\n",
         "t.rules:1:33: error: unexpected '{', expected string",
         "`en` takes the English title in quotes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parsed p;
        parse_text(&p, cases[i].text);
        assert_int_equal(p.errors, 1);
        assert_contains(p.out, cases[i].where);
        assert_contains(p.out, cases[i].hint);
        parsed_free(&p);
    }
}

static void test_article_with_every_item(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "article 27 \"Onvoldoende bod\" when irregularity == insufficient_bid {\n"
                 "  if lho_called => 27A1 { insufficient_bid_accepted }\n"
                 "  if not offender_in_turn => 27A2 apply 31\n"
                 "  match replacement {\n"
                 "    lowest => 27B1a { auction_continues }\n"
                 "    other, pass => 27B2 { partner_must_pass(rest_of_auction); see(72C) }\n"
                 "  }\n"
                 "  otherwise => 27D { call_cancelled, warn }\n"
                 "}\n");
    ast_decl *d = decl_at(&p, 0);
    assert_int_equal(d->kind, AD_ARTICLE);
    assert_string_equal(d->name, "27");
    assert_loc(d->loc, 1, 9);
    assert_string_equal(d->title, "Onvoldoende bod");
    assert_int_equal(d->expr->op, OP_EQ);
    assert_name(d->expr->b, "insufficient_bid");
    ast_list *items = &d->body->items;
    assert_int_equal(items->n, 4);

    ast_item *i0 = item(items, 0);
    assert_int_equal(i0->kind, AI_IF);
    assert_loc(i0->loc, 2, 3);
    assert_name(i0->cond, "lho_called");
    assert_string_equal(i0->clause->cite, "27A1");
    assert_null(i0->clause->apply);
    ast_item *act = item(&i0->clause->block->items, 0);
    assert_int_equal(act->kind, AI_ACTION);
    assert_string_equal(act->name, "insufficient_bid_accepted");
    assert_int_equal(act->args.n, 0);

    ast_item *i1 = item(items, 1);
    assert_int_equal(i1->kind, AI_IF);
    assert_int_equal(i1->cond->kind, AE_UNARY);
    assert_int_equal(i1->cond->op, OP_NOT);
    assert_string_equal(i1->clause->cite, "27A2");
    assert_string_equal(i1->clause->apply, "31");
    assert_null(i1->clause->block);
    assert_loc(i1->clause->apply_loc, 3, 41);

    ast_item *i2 = item(items, 2);
    assert_int_equal(i2->kind, AI_MATCH);
    assert_name(i2->cond, "replacement");
    assert_int_equal(i2->arms.n, 2);
    ast_arm *arm1 = item(&i2->arms, 1);
    assert_int_equal(arm1->patterns.n, 2);
    ast_pattern *pat = item(&arm1->patterns, 1);
    assert_int_equal(pat->kind, AP_VALUE);
    assert_name(pat->lo, "pass");
    assert_string_equal(arm1->clause->cite, "27B2");
    ast_list *acts = &arm1->clause->block->items;
    assert_int_equal(acts->n, 2);
    ast_item *pmp = item(acts, 0), *see = item(acts, 1);
    assert_string_equal(pmp->name, "partner_must_pass");
    assert_name(item(&pmp->args, 0), "rest_of_auction");
    assert_string_equal(see->name, "see");
    ast_expr *cite = item(&see->args, 0);
    assert_int_equal(cite->kind, AE_CITE);
    assert_string_equal(cite->text, "72C");

    ast_item *i3 = item(items, 3);
    assert_int_equal(i3->kind, AI_OTHERWISE);
    assert_string_equal(i3->clause->cite, "27D");
    assert_int_equal(i3->clause->block->items.n, 2);
    parsed_free(&p);
}

static void test_article_without_when_and_groups(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "article 16C2 {\n"
                 "  penalty(10)\n"
                 "  if a { if b => 16C2a { x } otherwise => 16C2b { y } }\n"
                 "  apply 31\n"
                 "}\n");
    ast_decl *d = decl_at(&p, 0);
    assert_string_equal(d->name, "16C2"); /* a citation as an article number */
    assert_null(d->expr);
    assert_null(d->title);
    ast_list *items = &d->body->items;
    assert_int_equal(items->n, 3);
    ast_item *pen = item(items, 0);
    assert_int_equal(pen->kind, AI_ACTION);
    ast_expr *ten = item(&pen->args, 0);
    assert_int_equal(ten->kind, AE_INT);
    assert_int_equal(ten->ival, 10);
    ast_item *grp = item(items, 1);
    assert_int_equal(grp->kind, AI_IF);
    assert_null(grp->clause->cite); /* `if COND BLOCK` groups clauses */
    assert_null(grp->clause->apply);
    assert_int_equal(grp->clause->block->items.n, 2);
    ast_item *ap = item(items, 2);
    assert_int_equal(ap->kind, AI_APPLY);
    assert_string_equal(ap->name, "31");
    parsed_free(&p);
}

static void test_match_patterns_ranges_and_any(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "article 5 when true {\n"
                 "  match minutes {\n"
                 "    0 => 5A { x }\n"
                 "    1..5, 7 => 5B { y }\n"
                 "    -3..-1 => 5C { y }\n"
                 "    _ => 5D { z }\n"
                 "  }\n"
                 "}\n");
    ast_item *m = item(&decl_at(&p, 0)->body->items, 0);
    assert_int_equal(m->arms.n, 4);
    ast_arm *a0 = item(&m->arms, 0), *a1 = item(&m->arms, 1), *a2 = item(&m->arms, 2),
            *a3 = item(&m->arms, 3);
    ast_pattern *zero = item(&a0->patterns, 0);
    assert_int_equal(zero->kind, AP_VALUE);
    assert_int_equal(zero->lo->ival, 0);
    assert_null(zero->hi);
    assert_int_equal(a1->patterns.n, 2);
    ast_pattern *range = item(&a1->patterns, 0), *seven = item(&a1->patterns, 1);
    assert_int_equal(range->kind, AP_RANGE);
    assert_int_equal(range->lo->ival, 1);
    assert_int_equal(range->hi->ival, 5);
    assert_int_equal(seven->kind, AP_VALUE);
    assert_int_equal(seven->lo->ival, 7);
    ast_pattern *negr = item(&a2->patterns, 0);
    assert_int_equal(negr->kind, AP_RANGE);
    assert_int_equal(negr->lo->kind, AE_UNARY);
    assert_int_equal(negr->lo->op, OP_NEG);
    assert_int_equal(negr->lo->a->ival, 3);
    assert_int_equal(negr->hi->a->ival, 1);
    ast_pattern *any = item(&a3->patterns, 0);
    assert_int_equal(any->kind, AP_ANY);
    assert_string_equal(a3->clause->cite, "5D");
    parsed_free(&p);
}

static void test_test_block_givens_and_expects(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "test \"27B2: vervangen\" {\n"
                 "  given irregularity = insufficient_bid, lho_called = false,\n"
                 "        minutes = 20\n"
                 "  given auction \"N: 1S 1H 2C\"\n"
                 "  expect 27B2, partner_must_pass(rest_of_auction), not auction_continues\n"
                 "  expect trail [27, 27B, 27B2], not 27A1, penalty(40), asks lho_called\n"
                 "  expect rejected\n"
                 "}\n");
    ast_decl *t = decl_at(&p, 0);
    assert_int_equal(t->kind, AD_TEST);
    assert_string_equal(t->name, "27B2: vervangen");
    assert_loc(t->loc, 1, 1);
    assert_int_equal(t->givens.n, 4);
    ast_given *g0 = item(&t->givens, 0), *g1 = item(&t->givens, 1), *g2 = item(&t->givens, 2),
              *g3 = item(&t->givens, 3);
    assert_string_equal(g0->name, "irregularity");
    assert_name(g0->value, "insufficient_bid");
    assert_string_equal(g1->name, "lho_called");
    assert_int_equal(g1->value->kind, AE_BOOL);
    assert_int_equal(g1->value->ival, 0);
    assert_string_equal(g2->name, "minutes");
    assert_int_equal(g2->value->ival, 20);
    assert_string_equal(g3->name, "auction");
    assert_int_equal(g3->value->kind, AE_STRING);
    assert_string_equal(g3->value->text, "N: 1S 1H 2C");

    assert_int_equal(t->expects.n, 8);
    ast_expect *e[8];
    for (int i = 0; i < 8; i++)
        e[i] = item(&t->expects, i);
    assert_int_equal(e[0]->kind, AX_CITE);
    assert_string_equal(e[0]->name, "27B2");
    assert_false(e[0]->negated);
    assert_int_equal(e[1]->kind, AX_ACTION);
    assert_string_equal(e[1]->name, "partner_must_pass");
    assert_true(e[1]->has_args);
    assert_int_equal(e[1]->args.n, 1);
    assert_int_equal(e[2]->kind, AX_ACTION);
    assert_string_equal(e[2]->name, "auction_continues");
    assert_true(e[2]->negated);
    assert_false(e[2]->has_args);
    assert_int_equal(e[3]->kind, AX_TRAIL);
    assert_int_equal(e[3]->args.n, 3);
    static const char *const trail[] = {"27", "27B", "27B2"};
    for (int i = 0; i < 3; i++)
        assert_string_equal(((ast_expr *)item(&e[3]->args, i))->text, trail[i]);
    assert_int_equal(e[4]->kind, AX_CITE);
    assert_string_equal(e[4]->name, "27A1");
    assert_true(e[4]->negated);
    assert_int_equal(e[5]->kind, AX_ACTION);
    assert_int_equal(((ast_expr *)item(&e[5]->args, 0))->ival, 40);
    assert_int_equal(e[6]->kind, AX_ASKS);
    assert_string_equal(e[6]->name, "lho_called");
    assert_int_equal(e[7]->kind, AX_REJECTED);
    parsed_free(&p);
}

static void test_file_keeps_declaration_order(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p,
             "fact a : bool\naction w text \"w\"\ntable t(k: bool) : int { _ => 1 }\n"
             "invariant \"i\" a\narticle 1 when a { w }\ntest \"x\" { given a = true expect 1 }\n");
    static const int kinds[] = {AD_FACT, AD_ACTION, AD_TABLE, AD_INVARIANT, AD_ARTICLE, AD_TEST};
    assert_int_equal(p.file->decls.n, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(decl_at(&p, i)->kind, kinds[i]);
    assert_string_equal(p.file->path, "t.rules");
    parsed_free(&p);
}

/* -------------------------------------------------------------- lexemes */

static void test_citations_and_integers(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "article 1 when true { f(27B1a, 27, 72C, 007) }\n");
    ast_item *it = item(&decl_at(&p, 0)->body->items, 0);
    assert_int_equal(it->args.n, 4);
    ast_expr *a = item(&it->args, 0), *b = item(&it->args, 1), *c = item(&it->args, 2),
             *d = item(&it->args, 3);
    assert_int_equal(a->kind, AE_CITE);
    assert_string_equal(a->text, "27B1a");
    assert_int_equal(b->kind, AE_INT);
    assert_int_equal(b->ival, 27);
    assert_string_equal(b->text, "27"); /* the digits are kept, for `see(27)` */
    assert_int_equal(c->kind, AE_CITE);
    assert_string_equal(c->text, "72C");
    assert_int_equal(d->kind, AE_INT);
    assert_int_equal(d->ival, 7);
    assert_string_equal(d->text, "007");
    parsed_free(&p);
}

static void test_string_escapes(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "action w text \"zeg \\\"ja\\\", \\\\ en\\nklaar # geen commentaar\"\n");
    assert_string_equal(decl_at(&p, 0)->text, "zeg \"ja\", \\ en\nklaar # geen commentaar");
    parsed_free(&p);
}

static void test_non_ascii_inside_strings_is_accepted(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "action w text \"caf\xC3\xA9 \xE2\x99\xA0\"\n");
    assert_string_equal(decl_at(&p, 0)->text, "caf\xC3\xA9 \xE2\x99\xA0");
    parsed_free(&p);
}

static void test_comments_and_line_endings(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "# kop\n"
                 "fact a : bool # achter een declaratie\n"
                 "\n"
                 "  # ingesprongen\r\n"
                 "fact b : bool\r\n"
                 "# laatste regel zonder newline");
    assert_int_equal(p.file->decls.n, 2);
    assert_loc(decl_at(&p, 0)->loc, 2, 6);
    assert_loc(decl_at(&p, 1)->loc, 5, 6);
    parsed_free(&p);
}

static void test_empty_file(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "");
    assert_int_equal(p.file->decls.n, 0);
    parsed_free(&p);
    parse_ok(&p, "  # niets dan commentaar\n\n");
    assert_int_equal(p.file->decls.n, 0);
    parsed_free(&p);
}

static void test_identifier_prefixed_by_keyword(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p,
             "fact iffy : bool\nfact fact_x : bool\nfact _hidden : bool\nfact notable : bool\n");
    static const char *const names[] = {"iffy", "fact_x", "_hidden", "notable"};
    assert_int_equal(p.file->decls.n, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(decl_at(&p, i)->name, names[i]);
    parsed_free(&p);
}

static void test_largest_integer(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "table t(k: bool) : int { true => 9223372036854775807, false => 0 }\n");
    ast_row *r = item(&decl_at(&p, 0)->rows, 0);
    assert_int_equal(r->value->ival, INT64_MAX);
    parsed_free(&p);
    parse_text(&p, "table t(k: bool) : int { true => 9223372036854775808, false => 0 }\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:1:34: error: the number 9223372036854775808 is too large");
    parsed_free(&p);
}

/* ------------------------------------------------------------ precedence */

static void test_boolean_precedence(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "fact x : bool = a or b and not c\n"
                 "fact y : bool = a implies b implies c\n"
                 "fact z : bool = not a == b\n");
    ast_expr *x = decl_at(&p, 0)->expr;
    assert_int_equal(x->op, OP_OR); /* a or (b and (not c)) */
    assert_name(x->a, "a");
    assert_int_equal(x->b->op, OP_AND);
    assert_int_equal(x->b->b->kind, AE_UNARY);
    assert_int_equal(x->b->b->op, OP_NOT);
    ast_expr *y = decl_at(&p, 1)->expr;
    assert_int_equal(y->op, OP_IMPLIES); /* right associative */
    assert_name(y->a, "a");
    assert_int_equal(y->b->kind, AE_BINARY);
    assert_int_equal(y->b->op, OP_IMPLIES);
    ast_expr *z = decl_at(&p, 2)->expr;
    assert_int_equal(z->kind, AE_UNARY); /* not (a == b) */
    assert_int_equal(z->op, OP_NOT);
    assert_int_equal(z->a->op, OP_EQ);
    parsed_free(&p);
}

static void test_arithmetic_precedence_and_calls(void **state) {
    (void)state;
    parsed p;
    parse_ok(&p, "fact x : int = 1 + 2 * 3 - 4 % 3\n"
                 "fact y : bool = -a * b + max(c, 2) >= abs(d) / trick_value(e)\n"
                 "fact z : bool = t in { hearts, spades, }\n");
    ast_expr *x = decl_at(&p, 0)->expr;
    assert_int_equal(x->op, OP_SUB); /* (1 + (2 * 3)) - (4 % 3) */
    assert_int_equal(x->a->op, OP_ADD);
    assert_int_equal(x->a->b->op, OP_MUL);
    assert_int_equal(x->b->op, OP_MOD);
    ast_expr *y = decl_at(&p, 1)->expr;
    assert_int_equal(y->op, OP_GE);
    assert_int_equal(y->a->op, OP_ADD);
    assert_int_equal(y->a->a->op, OP_MUL);
    assert_int_equal(y->a->a->a->kind, AE_UNARY); /* (-a) * b */
    assert_int_equal(y->a->a->a->op, OP_NEG);
    ast_expr *mx = y->a->b;
    assert_int_equal(mx->kind, AE_CALL);
    assert_string_equal(mx->text, "max");
    assert_int_equal(mx->args.n, 2);
    assert_int_equal(y->b->op, OP_DIV);
    assert_int_equal(y->b->a->kind, AE_CALL);
    assert_string_equal(y->b->b->text, "trick_value");
    ast_expr *z = decl_at(&p, 2)->expr;
    assert_int_equal(z->kind, AE_IN);
    assert_name(z->a, "t");
    assert_int_equal(z->args.n, 2);
    assert_name(item(&z->args, 1), "spades");
    parsed_free(&p);
}

/* --------------------------------------------------------- syntax errors */

static void test_syntax_error_position(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a : bool\nfact b bool\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:2:8: error: unexpected 'bool'");
    assert_contains(p.out, "':'");
    /* the source line and a caret under column 8 */
    assert_contains(p.out, "    fact b bool\n           ^\n");
    parsed_free(&p);
}

static void test_syntax_error_position_after_crlf(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a : bool\r\nfact b bool\r\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:2:8: error: unexpected 'bool'");
    parsed_free(&p);
}

static void test_several_errors_in_one_file(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a bool\n"
                   "fact b : bool\n"
                   "fact c : enum { x y }\n"
                   "fact d : bool\n"
                   "action w(p int) text \"x\"\n"
                   "fact e : bool\n");
    assert_int_equal(p.errors, 3);
    assert_contains(p.out, "t.rules:1:8: error: unexpected 'bool'");
    assert_contains(p.out, "t.rules:3:19: error: unexpected name 'y'");
    assert_contains(p.out, "t.rules:5:12: error: unexpected 'int'");
    /* the declarations around the errors still parse */
    int seen_b = 0, seen_d = 0, seen_e = 0;
    for (int i = 0; i < p.file->decls.n; i++) {
        ast_decl *d = decl_at(&p, i);
        seen_b |= d->name && strcmp(d->name, "b") == 0;
        seen_d |= d->name && strcmp(d->name, "d") == 0;
        seen_e |= d->name && strcmp(d->name, "e") == 0;
    }
    assert_true(seen_b && seen_d && seen_e);
    parsed_free(&p);
}

/* Regression: a broken clause (`if a 1A { x }`) recovers at its block,
 * so the errors on later lines are reported too. */
static void test_errors_after_broken_clause_are_reported(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "article 1 {\n"
                   "  if a 1A { x }\n"
                   "  if b => 1B { y }\n"
                   "  if c 1C { z }\n"
                   "}\n"
                   "fact q bool\n");
    assert_contains(p.out, "t.rules:2:8: error: unexpected citation '1A'");
    assert_contains(p.out, "t.rules:4:8: error: unexpected citation '1C'");
    assert_contains(p.out, "t.rules:6:8: error: unexpected 'bool'");
    assert_int_equal(p.errors, 3);
    parsed_free(&p);
}

static void test_missing_closing_brace_at_end_of_file(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "article 2 when true {\n  x\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:3:1: error: unexpected end of file");
    parsed_free(&p);
}

static void test_string_where_a_name_belongs(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact \"a\" : bool\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:1:6: error: unexpected string");
    parsed_free(&p);
}

static void test_error_in_test_block(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "test \"t\" {\n  given a = 1\n  expect 1A,\n}\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:4:1: error: unexpected '}'");
    parsed_free(&p);
}

static void test_unterminated_string(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a : bool\n  ask \"Wie bood\nfact b : bool\n");
    assert_true(p.errors >= 1);
    /* the first error is the string, at its opening quote */
    assert_int_equal(strncmp(p.out, "t.rules:2:7: error: unterminated string", 39), 0);
    /* the next line is read as it stands */
    int seen_b = 0;
    for (int i = 0; i < p.file->decls.n; i++)
        seen_b |= strcmp(decl_at(&p, i)->name, "b") == 0;
    assert_true(seen_b);
    parsed_free(&p);
}

static void test_non_ascii_outside_string(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a : bool\nfact b\xC3\xA9 : bool\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:2:7: error: unexpected byte 0xC3 outside a string");
    /* the whole UTF-8 sequence is one error, not one per byte */
    assert_null(strstr(p.out, "0xA9"));
    parsed_free(&p);
}

static void test_unexpected_ascii_character(void **state) {
    (void)state;
    parsed p;
    parse_text(&p, "fact a : bool\n  ask \"x\" @\nfact b : bool\n");
    assert_int_equal(p.errors, 1);
    assert_contains(p.out, "t.rules:2:11: error: unexpected character '@'");
    assert_int_equal(p.file->decls.n, 2);
    parsed_free(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ruleset_header_and_include),
        cmocka_unit_test(test_named_types),
        cmocka_unit_test(test_fact_with_every_option),
        cmocka_unit_test(test_derived_fact),
        cmocka_unit_test(test_action_with_params_and_texts),
        cmocka_unit_test(test_keywords_as_parameter_names),
        cmocka_unit_test(test_table_rows_and_default),
        cmocka_unit_test(test_table_row_with_range_key),
        cmocka_unit_test(test_invariant),
        cmocka_unit_test(test_article_titles),
        cmocka_unit_test(test_article_title_errors),
        cmocka_unit_test(test_article_with_every_item),
        cmocka_unit_test(test_article_without_when_and_groups),
        cmocka_unit_test(test_match_patterns_ranges_and_any),
        cmocka_unit_test(test_test_block_givens_and_expects),
        cmocka_unit_test(test_file_keeps_declaration_order),
        cmocka_unit_test(test_citations_and_integers),
        cmocka_unit_test(test_string_escapes),
        cmocka_unit_test(test_non_ascii_inside_strings_is_accepted),
        cmocka_unit_test(test_comments_and_line_endings),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_identifier_prefixed_by_keyword),
        cmocka_unit_test(test_largest_integer),
        cmocka_unit_test(test_boolean_precedence),
        cmocka_unit_test(test_arithmetic_precedence_and_calls),
        cmocka_unit_test(test_syntax_error_position),
        cmocka_unit_test(test_syntax_error_position_after_crlf),
        cmocka_unit_test(test_several_errors_in_one_file),
        cmocka_unit_test(test_missing_closing_brace_at_end_of_file),
        cmocka_unit_test(test_string_where_a_name_belongs),
        cmocka_unit_test(test_error_in_test_block),
        cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_non_ascii_outside_string),
        cmocka_unit_test(test_unexpected_ascii_character),
        cmocka_unit_test(test_errors_after_broken_clause_are_reported),
    };
    return cmocka_run_group_tests_name("lexer_parser", tests, NULL, NULL);
}
