/* compile_tests.c — the test blocks, checked against the names they use. */
#include "compile_internal.h"

/* ---- tests --------------------------------------------------------------------- */

static bool cite_known(compiler *c, const char *cite) {
    if (!c->cite_ix.cap)
        index_make(c, &c->cite_ix, c->clauses.len, cite_at); /* the tests come after every clause */
    return index_find(&c->cite_ix, cite) >= 0;
}

static void compile_given(compiler *c, rs_test *t, const ast_given *g) {
    if (strcmp(g->name, "auction") == 0 && g->value->kind == AE_STRING) {
        bridge_auction au;
        char err[200];
        if (!bridge_parse_auction(g->value->text, &au, err, sizeof err))
            ERR(c->d, g->value->loc, "write e.g. given auction \"N: 1S 1H\"", "%s", err);
        t->auction = keep_str(c, g->value->text);
        return;
    }
    int f = find_fact(c, g->name);
    if (f < 0) {
        name_expr(c, &(ast_expr){.loc = g->loc, .kind = AE_NAME, .text = g->name}, NULL);
        return;
    }
    if (c->rs->facts[f].derived >= 0) {
        ERR(c->d, g->loc, "give the facts it is derived from", "'%s' is derived, not given",
            g->name);
        return;
    }
    int x = compile_expr(c, g->value, c->rs->facts[f].type);
    if (!is_constant(c, x)) {
        ERR(c->d, g->value->loc, NULL, "a test gives values, not expressions");
        return;
    }
    t->given_fact[t->ngiven] = f;
    t->given_value[t->ngiven++] = constant_value(c, x);
}

static void compile_expect(compiler *c, rs_expect *x, const ast_expect *e) {
    x->loc = e->loc;
    x->negated = e->negated;
    x->kind = (enum expect_kind)e->kind;
    switch (e->kind) {
    case AX_CITE:
        x->cite = keep_str(c, e->name);
        if (!cite_known(c, e->name))
            ERR(c->d, e->loc, NULL, "no clause or article cites %s", e->name);
        break;
    case AX_ACTION: {
        ast_item it = {.loc = e->loc, .kind = AI_ACTION, .name = e->name, .args = e->args};
        x->action = find_action(c, e->name);
        if (x->action < 0 || !e->has_args) {
            if (x->action < 0) action_use(c, &it, -1);
            break;
        }
        const rs_action *a = &c->rs->actions[x->action];
        if (e->args.n != a->nparams) {
            ERR(c->d, e->loc, NULL, "action '%s' takes %d argument%s", a->name, a->nparams,
                a->nparams == 1 ? "" : "s");
            break;
        }
        x->has_args = true;
        x->args = arena_alloc(c->keep, sizeof(int64_t) * (size_t)(a->nparams + 1));
        for (int i = 0; i < a->nparams; i++) {
            int v = compile_expr(c, e->args.items[i], a->params[i].type);
            if (!is_constant(c, v))
                ERR(c->d, expr_at(c, v)->loc, NULL, "an expected argument is a value");
            x->args[i] = is_constant(c, v) ? constant_value(c, v) : 0;
        }
        break;
    }
    case AX_TRAIL:
        x->ntrail = e->args.n;
        x->trail = arena_alloc(c->keep, sizeof(char *) * (size_t)(e->args.n + 1));
        for (int i = 0; i < e->args.n; i++) {
            x->trail[i] = keep_str(c, ((ast_expr *)e->args.items[i])->text);
            if (!cite_known(c, x->trail[i]))
                ERR(c->d, ((ast_expr *)e->args.items[i])->loc, NULL,
                    "no clause or article cites %s", x->trail[i]);
        }
        break;
    case AX_ASKS:
        x->fact = find_fact(c, e->name);
        if (x->fact < 0)
            name_expr(c, &(ast_expr){.loc = e->loc, .kind = AE_NAME, .text = e->name}, NULL);
        break;
    case AX_REJECTED:
    case AX_OUTSIDE:
        break;
    }
}

void compile_tests(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_TEST;
    c->rs->tests = arena_alloc(c->keep, sizeof(rs_test) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TEST) continue;
        rs_test *t = &c->rs->tests[c->rs->ntests++];
        t->name = keep_str(c, d->name);
        t->loc = d->loc;
        t->article = d->title ? find_article(c, d->title, d->from_loc) : -1;
        /* a test's three arrays in one allocation, each exactly its length
         * (read by count only): the test blocks are most of what a ruleset
         * keeps besides its graph, and each allocation is rounded up */
        size_t ng = (size_t)d->givens.n, ne = (size_t)d->expects.n;
        char *arrays =
            arena_alloc(c->keep, sizeof(int64_t) * ng + sizeof(rs_expect) * ne + sizeof(int) * ng);
        _Static_assert(sizeof(rs_expect) % _Alignof(rs_expect) == 0 &&
                           _Alignof(rs_expect) <= _Alignof(int64_t),
                       "the expectations follow the values, aligned");
        t->given_value = (int64_t *)arrays;
        t->expect = (rs_expect *)(arrays + sizeof(int64_t) * ng);
        t->given_fact = (int *)(arrays + sizeof(int64_t) * ng + sizeof(rs_expect) * ne);
        for (int j = 0; j < d->givens.n; j++)
            compile_given(c, t, d->givens.items[j]);
        t->nexpect = d->expects.n;
        for (int j = 0; j < d->expects.n; j++)
            compile_expect(c, &t->expect[j], d->expects.items[j]);
        if (d->expects.n == 0)
            ERR(c->d, d->loc, "add: expect CITATION, action, …", "test '%s' expects nothing",
                d->name);
    }
}
