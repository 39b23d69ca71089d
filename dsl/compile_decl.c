/* compile_decl.c — declarations: the header, types, facts, actions, tables,
 * derived facts, defaults and invariants. */
#include "compile_internal.h"

/* ---- declarations ------------------------------------------------------------ */

/* An amended ruleset is named after its base and each amendment. */
static void amended_names(compiler *c) {
    for (int i = 0; i < c->amendments.n; i++) {
        ast_decl *am = c->amendments.items[i];
        const char *label = am->name;
        for (int k = 0; k < am->params.n; k++) {
            ast_given *g = am->params.items[k];
            if (strcmp(g->name, "cite") == 0) label = g->value->text;
        }
        c->rs->name = keep_str(c, arena_printf(c->a, "%s+%s", c->rs->name, label));
    }
}

void declare_header(compiler *c) {
    ast_decl *header = NULL;
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_RULESET) continue;
        if (d->kind == AD_RULESET && c->amendments.n && header) continue;
        if (header) {
            ERR(c->d, d->loc,
                arena_printf(c->a, "the first is at %s:%d", header->loc.file, header->loc.line),
                "a ruleset has one 'ruleset' header");
            continue;
        }
        header = d;
    }
    if (!header) {
        ERR(c->d, no_loc(c->rs->dir), "start one file with: ruleset \"name\" { title \"…\" }",
            "no 'ruleset' header in %s", c->rs->dir);
        c->rs->name = "?";
        return;
    }
    c->rs->name = keep_str(c, header->name);
    c->rs->loc = header->loc;
    c->header = header;
    amended_names(c);
    for (int i = 0; i < header->params.n; i++) {
        ast_given *g = header->params.items[i];
        if (strcmp(g->name, "title") == 0)
            c->rs->title = keep_str(c, g->value->text);
        else if (strcmp(g->name, "game") == 0)
            c->rs->game = keep_str(c, g->value->text);
        else if (is_scoring_key(g->name))
            ; /* scoring articles: resolved once the articles are declared */
        else if (strcmp(g->name, "edition") != 0 && strcmp(g->name, "language") != 0)
            diag_report(c->d, DIAG_WARNING, g->loc,
                        "known keys: title, game, edition, language, score, matchpoints, imps, "
                        "legal, trick, adjusted, ranking, total",
                        "unknown ruleset header key '%s'", g->name);
    }
    if (!c->rs->title) c->rs->title = c->rs->name;
    for (int i = 0; i < c->amendments.n; i++)
        c->rs->title = keep_str(c, arena_printf(c->a, "%s, gewijzigd door %s", c->rs->title,
                                                ((ast_decl *)c->amendments.items[i])->name));
    if (!c->rs->game) c->rs->game = "";
}

void declare_types(compiler *c) {
    declare_builtin_types(c);
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TYPE) continue;
        if (builtin_type(c, d->name)) {
            ERR(c->d, d->loc, NULL, "type '%s' is already declared", d->name);
            continue;
        }
        const rs_type *t = resolve_type(c, d->type, d->name);
        if (!t->name ||
            strcmp(t->name, d->name) != 0) { /* an alias of a named type: copy under the new name */
            rs_type *copy = type_new(c, d->name, t->kind);
            *copy = *t;
            copy->name = keep_str(c, d->name);
            t = copy;
        }
        add_type(c, (rs_type *)t);
    }
}

static void check_builtin_fit(compiler *c, ast_decl *d, rs_fact *f) {
    int b = builtin_find(d->from_ns, d->from_name);
    if (b < 0) {
        const char *names[256];
        int n = 0;
        for (int i = 0; i < builtin_count() && n < 256; i++)
            names[n++] = builtin_at(i)->name;
        ERR(c->d, d->from_loc, nearest(c, d->from_name, names, n), "unknown record fact '%s.%s'",
            d->from_ns, d->from_name);
        return;
    }
    const builtin_desc *bd = builtin_at(b);
    f->builtin = b;
    bool fits = (bd->type == BT_BOOL && f->type->kind == TY_BOOL) ||
                (bd->type == BT_CALL && f->type->kind == TY_CALL) ||
                (bd->type == BT_INT && f->type->kind == TY_INT) ||
                (bd->type == BT_SYMBOL && f->type->kind == TY_ENUM);
    if (!fits) {
        ERR(c->d, d->from_loc, NULL, "'%s.%s' does not fit the type of '%s'", d->from_ns,
            d->from_name, f->name);
        return;
    }
    for (int i = 0; i < bd->nsymbols; i++)
        if (rs_enum_index(f->type, bd->symbols[i]) < 0)
            ERR(c->d, d->from_loc, arena_printf(c->a, "add '%s' to the enum", bd->symbols[i]),
                "'%s.%s' can be '%s', which '%s' does not list", d->from_ns, d->from_name,
                bd->symbols[i], f->name);
}

void declare_facts(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_FACT;
    c->rs->facts = arena_alloc(c->keep, sizeof(rs_fact) * (size_t)(n + 1));
    c->fact_decl = arena_alloc(c->a, sizeof(ast_decl *) * (size_t)(n + 1));
    index_init(c, &c->fact_ix, n); /* filled as they are declared: a second one is found */
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT) continue;
        if (find_fact(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "fact '%s' is declared twice", d->name);
            continue;
        }
        c->fact_decl[c->rs->nfacts] = d;
        rs_fact *f = &c->rs->facts[c->rs->nfacts++];
        f->name = keep_str(c, d->name);
        index_add(&c->fact_ix, f->name, c->rs->nfacts - 1);
        f->loc = d->loc;
        f->type = resolve_type(c, d->type, NULL);
        f->ask = keep_str(c, d->ask);
        f->ask_en = keep_str(c, d->ask_en);
        f->overridable = d->overridable;
        f->builtin = -1;
        f->derived = -1;
        f->var = -1;
        if (d->from_ns) check_builtin_fit(c, d, f);
        if (d->overridable && !d->from_ns)
            ERR(c->d, d->loc, "overridable says that a scenario may overrule 'from auction.…'",
                "'%s' is overridable but not filled from a record", d->name);
    }
    /* Graph variables: the input facts a decision can test, in order. */
    c->rs->var_fact = arena_alloc(c->keep, sizeof(int) * (size_t)(c->rs->nfacts + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        int f = d->kind == AD_FACT ? find_fact(c, d->name) : -1;
        if (f < 0 || d->expr || c->rs->facts[f].var >= 0 || !branchable(c->rs->facts[f].type))
            continue;
        c->rs->facts[f].var = c->rs->nvars;
        c->rs->var_fact[c->rs->nvars++] = f;
    }
}

/* Every {placeholder} of a message must name a parameter. */
static void check_placeholders(compiler *c, const ast_decl *d, const rs_action *a,
                               const char *text) {
    for (const char *t = text; t && (t = strchr(t, '{')); t++) {
        const char *end = strchr(t, '}');
        if (!end) break;
        bool known = false;
        for (int j = 0; j < a->nparams; j++)
            known |= strlen(a->params[j].name) == (size_t)(end - t - 1) &&
                     strncmp(a->params[j].name, t + 1, (size_t)(end - t - 1)) == 0;
        if (!known)
            ERR(c->d, d->loc, NULL, "the message of '%s' uses {%.*s}, which is not a parameter",
                d->name, (int)(end - t - 1), t + 1);
    }
}

void declare_actions(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_ACTION;
    c->rs->actions = arena_alloc(c->keep, sizeof(rs_action) * (size_t)(n + 1));
    index_init(c, &c->action_ix, n); /* filled as they are declared: a second one is found */
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_ACTION) continue;
        if (find_action(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "action '%s' is declared twice", d->name);
            continue;
        }
        rs_action *a = &c->rs->actions[c->rs->nactions++];
        a->name = keep_str(c, d->name);
        index_add(&c->action_ix, a->name, c->rs->nactions - 1);
        a->loc = d->loc;
        a->text = keep_str(c, d->text);
        a->text_en = keep_str(c, d->text_en);
        a->nparams = d->params.n;
        a->params = arena_alloc(c->keep, sizeof(rs_param) * (size_t)(d->params.n + 1));
        for (int j = 0; j < d->params.n; j++) {
            ast_param *p = d->params.items[j];
            a->params[j].name = keep_str(c, p->name);
            a->params[j].type = resolve_type(c, p->type, NULL);
        }
        if (!d->text)
            ERR(c->d, d->loc, "add: text \"…\" (Dutch), and en \"…\" for English",
                "action '%s' has no message", d->name);
        check_placeholders(c, d, a, d->text);
        check_placeholders(c, d, a, d->text_en);
    }
}

static int64_t key_count(const rs_type *t) {
    return t->kind == TY_BOOL ? 2 : t->kind == TY_ENUM ? t->nvalues : t->hi - t->lo + 1;
}

/* A row key as offsets into its key type: one value, or a range lo..hi. */
static bool key_span(compiler *c, const ast_pattern *k, const rs_type *t, int64_t *lo,
                     int64_t *hi) {
    int64_t base = t->kind == TY_INT ? t->lo : 0;
    int x = compile_expr(c, k->lo, t), y = k->hi ? compile_expr(c, k->hi, t) : x;
    if (!is_constant(c, x) || !is_constant(c, y)) {
        ERR(c->d, k->loc, NULL, "a table key is a value or a range lo..hi");
        return false;
    }
    *lo = constant_value(c, x) - base;
    *hi = constant_value(c, y) - base;
    if (*lo < 0 || *hi >= key_count(t) || *lo > *hi) {
        ERR(c->d, k->loc, NULL, "key outside %s", type_text(c, t));
        return false;
    }
    return true;
}

/* Fills every cell a row's keys cover (ranges expand to each value). */
static void fill_row(compiler *c, rs_table *t, const ast_row *row, int64_t value) {
    int64_t lo[8], hi[8], at[8];
    for (int k = 0; k < t->nkeys; k++) {
        if (!key_span(c, row->keys.items[k], t->keys[k], &lo[k], &hi[k])) return;
        at[k] = lo[k];
    }
    for (;;) {
        int64_t index = 0;
        for (int k = 0; k < t->nkeys; k++)
            index = index * key_count(t->keys[k]) + at[k];
        if (t->cells[index] != INT64_MIN) {
            ERR(c->d, row->loc, NULL, "this key already has a row");
            return;
        }
        t->cells[index] = value;
        int k = t->nkeys - 1;
        while (k >= 0 && at[k] == hi[k])
            at[k] = lo[k], k--;
        if (k < 0) return;
        at[k]++;
    }
}

static void report_missing_row(compiler *c, const ast_decl *d, const rs_table *t, int64_t cell) {
    strbuf sb;
    sb_init(&sb);
    int64_t offs[8];
    for (int k = t->nkeys - 1; k >= 0; k--) {
        offs[k] = cell % key_count(t->keys[k]);
        cell /= key_count(t->keys[k]);
    }
    for (int k = 0; k < t->nkeys; k++) {
        if (k) sb_puts(&sb, ", ");
        rs_format_value(c->rs, t->keys[k],
                        offs[k] + (t->keys[k]->kind == TY_INT ? t->keys[k]->lo : 0), FMT_NAME, &sb);
    }
    ERR(c->d, d->loc, "add the row, or a default row `_ => value`", "table '%s' has no row for %s",
        t->name, sb.data);
    sb_free(&sb);
}

static void fill_table(compiler *c, ast_decl *d, rs_table *t) {
    int64_t defval = INT64_MIN;
    bool has_default = false;
    for (int r = 0; r < d->rows.n; r++) {
        ast_row *row = d->rows.items[r];
        int v = compile_expr(c, row->value, t->value);
        if (!is_constant(c, v)) {
            ERR(c->d, row->value->loc, NULL, "a table cell is a value");
            continue;
        }
        if (row->keys.n == 0) {
            has_default = true;
            defval = constant_value(c, v);
        } else if (row->keys.n != t->nkeys) {
            ERR(c->d, row->loc, NULL, "table '%s' has %d key%s, this row gives %d", t->name,
                t->nkeys, t->nkeys == 1 ? "" : "s", row->keys.n);
        } else {
            fill_row(c, t, row, constant_value(c, v));
        }
    }
    for (int i = 0; i < t->ncells; i++) {
        if (t->cells[i] != INT64_MIN) continue;
        if (!has_default) {
            report_missing_row(c, d, t, i);
            return;
        }
        t->cells[i] = defval;
    }
}

void declare_tables(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_TABLE;
    c->rs->tables = arena_alloc(c->keep, sizeof(rs_table) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_TABLE) continue;
        if (find_table(c, d->name) >= 0) {
            ERR(c->d, d->loc, NULL, "table '%s' is declared twice", d->name);
            continue;
        }
        rs_table *t = &c->rs->tables[c->rs->ntables];
        t->name = keep_str(c, d->name);
        t->loc = d->loc;
        t->nkeys = d->params.n;
        t->keys = arena_alloc(c->keep, sizeof(rs_type *) * (size_t)(t->nkeys + 1));
        t->value = resolve_type(c, d->type, NULL);
        int64_t cells = 1;
        bool ok = t->nkeys >= 1 && t->nkeys <= 4;
        if (!ok) ERR(c->d, d->loc, NULL, "a table has one to four keys");
        for (int k = 0; k < t->nkeys && ok; k++) {
            ast_param *p = d->params.items[k];
            t->keys[k] = resolve_type(c, p->type, NULL);
            if (!finite_type(t->keys[k])) {
                ERR(c->d, p->loc, "use bool, an enum or a bounded int such as int 1..13",
                    "key '%s' of table '%s' has no finite set of values", p->name, d->name);
                ok = false;
            } else if (__builtin_mul_overflow(cells, key_count(t->keys[k]), &cells)) {
                cells = INT64_MAX; /* beyond any limit: reported below, never allocated */
            }
        }
        if (ok && cells > MAX_TABLE_CELLS) {
            ERR(c->d, d->loc, NULL, "table '%s' would have %lld cells; the limit is %d", d->name,
                (long long)cells, MAX_TABLE_CELLS);
            ok = false;
        }
        if (ok && cells > MAX_RULESET_TABLE_CELLS - c->table_cells) {
            /* once: the tables after it are not made either */
            if (c->table_cells <= MAX_RULESET_TABLE_CELLS)
                ERR(c->d, d->loc,
                    "split the regulations into rulesets of their own, or compute the values",
                    "the tables of the ruleset would have more than %d cells together "
                    "(table '%s' adds %lld to %lld)",
                    MAX_RULESET_TABLE_CELLS, d->name, (long long)cells, (long long)c->table_cells);
            c->table_cells = MAX_RULESET_TABLE_CELLS + 1;
            ok = false;
        }
        if (!ok) continue;
        c->table_cells += cells;
        t->ncells = (int)cells;
        t->cells = arena_alloc(c->keep, sizeof(int64_t) * (size_t)cells);
        for (int64_t j = 0; j < cells; j++)
            t->cells[j] = INT64_MIN;
        c->rs->ntables++; /* visible to its own rows' expressions only after this */
        fill_table(c, d, t);
    }
}

/* A derived fact may not depend on itself, whether or not a decision tests
 * it: an action argument would otherwise evaluate forever. */
static bool derived_cycle(compiler *c, int e, char *state) {
    const rs_expr *x = expr_at(c, e);
    if (x->kind == EX_FACT) {
        int f = x->a, d = c->rs->facts[f].derived;
        if (d < 0 || state[f] == 2) return false;
        if (state[f] == 1) return true;
        state[f] = 1;
        bool cyc = derived_cycle(c, d, state);
        state[f] = 2;
        return cyc;
    }
    if (x->a >= 0 && x->kind != EX_TABLE && derived_cycle(c, x->a, state)) return true;
    if (x->b >= 0 && derived_cycle(c, x->b, state)) return true;
    for (int i = 0; i < x->nargs; i++)
        if (x->kind != EX_IN && derived_cycle(c, rs_arg(c->rs, x->args + i), state)) return true;
    return false;
}

static void check_derived_cycles(compiler *c) {
    char *state = arena_alloc(c->a, (size_t)c->rs->nfacts + 1);
    for (int f = 0; f < c->rs->nfacts; f++) {
        const rs_fact *fact = &c->rs->facts[f];
        if (fact->derived < 0 || state[f] == 2) continue;
        memset(state, 0, (size_t)c->rs->nfacts);
        state[f] = 1;
        if (derived_cycle(c, fact->derived, state)) {
            ERR(c->d, fact->loc,
                "a derived fact is computed from the facts it names; none may lead back to it",
                "derived fact '%s' is defined in terms of itself", fact->name);
            c->rs->facts[f].derived =
                const_expr(c, fact->type, 0, fact->loc); /* so nothing loops later */
        }
    }
}

/* Whether expression e reads, itself or through derived facts, an input
 * fact no decision can test (an int without a range of at most 256
 * values, a string). seen[f]: 0 not yet, 1 under way, 2 yes, 3 no. */
static bool reads_untestable(compiler *c, int e, char *seen) {
    const rs_expr *x = expr_at(c, e);
    if (x->kind == EX_FACT) {
        const rs_fact *fact = &c->rs->facts[x->a];
        if (fact->derived < 0) return !branchable(fact->type);
        if (!seen[x->a]) {
            seen[x->a] = 1; /* check_derived_cycles broke every cycle */
            seen[x->a] = reads_untestable(c, fact->derived, seen) ? 2 : 3;
        }
        return seen[x->a] == 2;
    }
    if (x->a >= 0 && x->kind != EX_TABLE && x->kind != EX_CONST && reads_untestable(c, x->a, seen))
        return true;
    if (x->b >= 0 && x->kind != EX_CONST && reads_untestable(c, x->b, seen)) return true;
    for (int i = 0; i < x->nargs; i++)
        if (x->kind != EX_IN && reads_untestable(c, rs_arg(c->rs, x->args + i), seen)) return true;
    return false;
}

/* A derived fact of a type a decision can test (yes/no, an enum, a small
 * range) that reads a fact no decision can test — whether the takers' 110
 * points beat the defenders' 172 — cannot be substituted into the graph
 * as other derived facts are: it gets a graph variable of its own, and a
 * ruling computes its value from the scenario where the walk meets it
 * (core/engine/eval.c). After declare_derived, before the graph is made. */
void declare_computed(compiler *c) {
    char *seen = arena_alloc(c->a, (size_t)c->rs->nfacts + 1);
    for (int f = 0; f < c->rs->nfacts; f++) {
        rs_fact *fact = &c->rs->facts[f];
        if (fact->derived < 0 || !branchable(fact->type) ||
            !reads_untestable(c, fact->derived, seen))
            continue;
        fact->var = c->rs->nvars;
        c->rs->var_fact[c->rs->nvars++] = f;
    }
}

void declare_derived(compiler *c) {
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT || !d->expr) continue;
        int f = find_fact(c, d->name);
        if (f < 0 || c->rs->facts[f].derived >= 0) continue;
        if (d->ask || d->from_ns)
            ERR(c->d, d->loc, "a derived fact is computed, never asked",
                "'%s' has both '=' and ask/from", d->name);
        c->rs->facts[f].derived = compile_expr(c, d->expr, c->rs->facts[f].type);
    }
    check_derived_cycles(c);
}

/* `default V`: the value a scenario that is silent about an input fact is
 * ruled with, shown as assumed so that the director can correct it; for a
 * fact read from a record, where no record settles it. */
void declare_defaults(compiler *c) {
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_FACT || !d->default_value) continue;
        int f = find_fact(c, d->name);
        if (f < 0) continue;
        rs_fact *fact = &c->rs->facts[f];
        if (d->expr) { /* a record fact may have one: assumed where no record settles it */
            ERR(c->d, d->default_value->loc,
                "a default is for a fact the director or a record gives, not one computed",
                "'%s' cannot have a default", d->name);
            continue;
        }
        if (!branchable(fact->type)) {
            ERR(c->d, d->default_value->loc,
                "give defaults to yes/no, enum and bounded number facts",
                "'%s' (%s) cannot have a default", d->name, type_text(c, fact->type));
            continue;
        }
        int x = compile_expr(c, d->default_value, fact->type);
        if (!is_constant(c, x)) {
            ERR(c->d, d->default_value->loc,
                "write a value: true, false, an enum value or a number",
                "the default of '%s' is not a constant", d->name);
            continue;
        }
        int64_t v = constant_value(c, x);
        if (fact->type->kind == TY_INT && fact->type->bounded &&
            (v < fact->type->lo || v > fact->type->hi)) {
            ERR(c->d, d->default_value->loc, NULL, "the default %lld of '%s' is outside %lld..%lld",
                (long long)v, d->name, (long long)fact->type->lo, (long long)fact->type->hi);
            continue;
        }
        fact->has_default = true;
        fact->default_value = v;
    }
}

void declare_invariants(compiler *c) {
    int n = 0;
    for (int i = 0; i < c->decls.n; i++)
        n += ((ast_decl *)c->decls.items[i])->kind == AD_INVARIANT;
    c->rs->invariants = arena_alloc(c->keep, sizeof(rs_invariant) * (size_t)(n + 1));
    c->inv_conds = arena_alloc(c->a, sizeof(gref) * (size_t)(n + 1));
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind != AD_INVARIANT) continue;
        rs_invariant *inv = &c->rs->invariants[c->rs->ninvariants];
        inv->message = keep_str(c, d->title);
        inv->message_en = keep_str(c, d->text_en);
        inv->loc = d->loc;
        inv->expr = compile_expr(c, d->expr, type_of_kind(c, TY_BOOL));
        c->inv_conds[c->rs->ninvariants++] = expr_graph(c, inv->expr);
    }
    c->invariants = c->t_true;
    for (int i = c->rs->ninvariants - 1; i >= 0; i--)
        c->invariants = graph_ite(c->rs->graph, c->inv_conds[i], c->invariants, c->t_false);
}
