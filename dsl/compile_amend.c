/* compile_amend.c — amendments: a committee's changes (replaced, added and
 * removed declarations, clauses and table rows) applied to the syntax trees
 * before anything is declared. */
#include "compile_internal.h"

/* ---- amendments ------------------------------------------------------------
 * An amendment edits the base's syntax trees before anything is compiled,
 * so the amended ruleset is checked exactly as if it had been written so,
 * and every error in a replaced part points into the amendment. */

static const char *const kind_words[] = {
    [AD_TYPE] = "type",   [AD_FACT] = "fact",       [AD_ACTION] = "action",
    [AD_TABLE] = "table", [AD_ARTICLE] = "article", [AD_TEST] = "test"};

static void list_remove(ast_list *l, int i) {
    memmove(&l->items[i], &l->items[i + 1], sizeof(void *) * (size_t)(l->n - i - 1));
    l->n--;
}

/* The first declaration of this kind and name, and in *count how many
 * there are (NULL: not counted). */
static int find_decls(compiler *c, int kind, const char *name, int *count) {
    int first = -1, n = 0;
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if ((int)d->kind != kind || !d->name || strcmp(d->name, name) != 0) continue;
        if (first < 0) first = i;
        n++;
        if (!count) break;
    }
    if (count) *count = n;
    return first;
}

static int find_decl(compiler *c, int kind, const char *name) {
    return find_decls(c, kind, name, NULL);
}

/* The change of this amendment that removed a declaration of this kind and
 * name, or NULL. */
static const ast_decl *removal_of(const compiler *c, int kind, const char *name) {
    for (int i = c->removed.n - 1; i >= 0; i--) {
        const ast_decl *ch = c->removed.items[i];
        if (ch->change_target == kind && strcmp(ch->name, name) == 0) return ch;
    }
    return NULL;
}

/* Where a clause with this citation sits: the item (if/otherwise) or the
 * match arm that holds it, in the list it can be removed from. */
typedef struct clause_site {
    ast_list *list;
    int index;
    ast_clause *clause;
} clause_site;

static int find_clause(ast_block *b, const char *cite, clause_site *found, int nfound) {
    for (int i = 0; b && i < b->items.n; i++) {
        ast_item *it = b->items.items[i];
        ast_clause *cl = it->clause;
        if (cl && cl->cite && strcmp(cl->cite, cite) == 0)
            found[nfound < 2 ? nfound : 1] = (clause_site){&b->items, i, cl}, nfound++;
        if (cl) nfound = find_clause(cl->block, cite, found, nfound);
        for (int k = 0; k < it->arms.n; k++) {
            ast_arm *arm = it->arms.items[k];
            if (arm->clause->cite && strcmp(arm->clause->cite, cite) == 0)
                found[nfound < 2 ? nfound : 1] = (clause_site){&it->arms, k, arm->clause}, nfound++;
            nfound = find_clause(arm->clause->block, cite, found, nfound);
        }
    }
    return nfound;
}

static void change_clause(compiler *c, ast_decl *ch) {
    clause_site found[2];
    int n = 0;
    for (int i = 0; i < c->decls.n; i++) {
        ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ARTICLE) n = find_clause(d->body, ch->name, found, n);
    }
    if (n == 0) {
        ERR(c->d, ch->loc, NULL, "no clause of the base ruleset cites %s", ch->name);
        return;
    }
    if (n > 1) {
        ERR(c->d, ch->loc, "name a clause by a citation only it carries",
            "%d clauses cite %s in the base ruleset", n, ch->name);
        return;
    }
    if (ch->change_op == CHANGE_REMOVE)
        list_remove(found[0].list, found[0].index);
    else
        *found[0].clause = *ch->clause;
}

static bool same_keys(const ast_row *x, const ast_row *y) {
    if (x->keys.n != y->keys.n) return false;
    for (int k = 0; k < x->keys.n; k++) {
        const ast_pattern *p = x->keys.items[k], *q = y->keys.items[k];
        const ast_expr *a[2] = {p->lo, p->hi}, *b[2] = {q->lo, q->hi};
        for (int e = 0; e < 2; e++) {
            if (!a[e] || !b[e]) {
                if (a[e] != b[e]) return false;
                continue;
            }
            if (a[e]->kind != b[e]->kind || a[e]->ival != b[e]->ival ||
                (a[e]->text && b[e]->text && strcmp(a[e]->text, b[e]->text) != 0))
                return false;
        }
    }
    return true;
}

static void change_row(compiler *c, ast_decl *ch) {
    int t = find_decl(c, AD_TABLE, ch->name);
    if (t < 0) {
        ERR(c->d, ch->loc, NULL, "the base ruleset has no table '%s'", ch->name);
        return;
    }
    ast_decl *table = c->decls.items[t];
    for (int r = 0; r < table->rows.n; r++) {
        ast_row *row = table->rows.items[r];
        if (!same_keys(row, ch->row)) continue;
        if (ch->change_op == CHANGE_ADD)
            ERR(c->d, ch->loc, "use `replace row`", "table '%s' already has this row", ch->name);
        else if (ch->change_op == CHANGE_REMOVE)
            list_remove(&table->rows, r);
        else
            table->rows.items[r] = ch->row;
        return;
    }
    if (ch->change_op == CHANGE_ADD)
        ast_push(c->a, &table->rows, ch->row);
    else
        ERR(c->d, ch->loc, "a row is named by its keys exactly as the base writes them",
            "table '%s' has no such row", ch->name);
}

static void apply_change(compiler *c, ast_decl *ch) {
    if (ch->change_target == CHANGE_CLAUSE) return change_clause(c, ch);
    if (ch->change_target == CHANGE_ROW) return change_row(c, ch);
    int count;
    int at = find_decls(c, ch->change_target, ch->name, &count);
    const char *what = kind_words[ch->change_target];
    const ast_decl *removed = at < 0 ? removal_of(c, ch->change_target, ch->name) : NULL;
    if (ch->change_op == CHANGE_ADD) {
        if (at >= 0)
            ERR(c->d, ch->loc, "use `replace`", "the base ruleset already has %s %s", what,
                ch->name);
        else
            ast_push(c->a, &c->decls, ch->inner);
    } else if (removed) {
        ERR(c->d, ch->loc,
            arena_printf(c->a, "the removal is at %s:%d:%d",
                         removed->loc.file ? removed->loc.file : "?", removed->loc.line,
                         removed->loc.col),
            "the amendment has already removed %s %s", what, ch->name);
    } else if (at < 0) {
        ERR(c->d, ch->loc, NULL, "the base ruleset has no %s %s", what, ch->name);
    } else if (count > 1) { /* which one is meant cannot be told (test names may repeat) */
        ERR(c->d, ch->loc, "give each its own name in the base ruleset",
            "%d %ss are named '%s' in the base ruleset", count, what, ch->name);
    } else if (ch->change_op == CHANGE_REMOVE) {
        list_remove(&c->decls, at);
        ast_push(c->a, &c->removed, ch);
    } else {
        c->decls.items[at] = ch->inner;
    }
}

bool report_removed(compiler *c, int kind, const char *name, src_loc at) {
    const ast_decl *ch = removal_of(c, kind, name);
    if (!ch) return false;
    const char *hint = arena_printf(c->a,
                                    "the amendment removes it at %s:%d:%d; replace what uses it in "
                                    "the amendment too, or keep the %s",
                                    ch->loc.file ? ch->loc.file : "?", ch->loc.line, ch->loc.col,
                                    kind_words[kind]);
    ERR(c->d, at, hint, "%s %s is removed by the amendment, and this still uses it",
        kind_words[kind], name);
    return true;
}

/* Whether text names the citation as a word: "(13i12)", "art. 13i12". */
static bool text_cites(const char *text, const char *cite) {
    size_t n = strlen(cite);
    for (const char *p = text ? strstr(text, cite) : NULL; p; p = strstr(p + 1, cite)) {
        bool starts = p == text || !isalnum((unsigned char)p[-1]);
        if (starts && !isalnum((unsigned char)p[n])) return true;
    }
    return false;
}

static void block_actions(const ast_block *b, ast_list *names, arena *a);

static void clause_actions(const ast_clause *cl, ast_list *names, arena *a) {
    if (cl) block_actions(cl->block, names, a);
}

/* The names of the actions a block (and its clauses) names. */
static void block_actions(const ast_block *b, ast_list *names, arena *a) {
    for (int i = 0; b && i < b->items.n; i++) {
        const ast_item *it = b->items.items[i];
        if (it->kind == AI_ACTION) ast_push(a, names, (void *)it->name);
        clause_actions(it->clause, names, a);
        for (int k = 0; k < it->arms.n; k++)
            clause_actions(((ast_arm *)it->arms.items[k])->clause, names, a);
    }
}

static bool listed(const ast_list *names, const char *name) {
    for (int i = 0; name && i < names->n; i++)
        if (strcmp(names->items[i], name) == 0) return true;
    return false;
}

/* A message or question kept from before the amendment that cites a clause
 * the amendment replaced or removed states that clause's old reading,
 * which would outlive it in every ruling that shows it: said, so that the
 * amendment replaces that text too. Actions the new clause names itself
 * are the amendment's choice; an action no article names shows nowhere. */
static void warn_stale_text(compiler *c, const ast_decl *d, const char *what, const char *text,
                            const ast_decl *ch, const char *amendment) {
    if (!text_cites(text, ch->name) || (d->loc.file && strcmp(d->loc.file, amendment) == 0)) return;
    diag_report(
        c->d, DIAG_WARNING, d->loc,
        arena_printf(c->a, "replace the %s %s in the amendment too", kind_words[d->kind], d->name),
        "the %s of %s '%s' cites %s, a clause the amendment %s: it would keep that clause's old "
        "reading",
        what, kind_words[d->kind], d->name, ch->name,
        ch->change_op == CHANGE_REMOVE ? "removes" : "replaces");
}

static void warn_stale_enum(compiler *c, const ast_decl *d, const ast_type *t, const ast_decl *ch,
                            const char *amendment) {
    for (int v = 0; t && t->kind == AT_ENUM && v < t->values.n; v++) {
        const ast_enumval *ev = t->values.items[v];
        warn_stale_text(c, d, "label", ev->label, ch, amendment);
        warn_stale_text(c, d, "English label", ev->label_en, ch, amendment);
    }
}

static void warn_stale_texts(compiler *c, const ast_decl *ch, const char *amendment) {
    ast_list own = {0}, used = {0};
    if (ch->clause) clause_actions(ch->clause, &own, c->a);
    for (int i = 0; i < c->decls.n; i++) {
        const ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ARTICLE) block_actions(d->body, &used, c->a);
    }
    for (int i = 0; i < c->decls.n; i++) {
        const ast_decl *d = c->decls.items[i];
        if (d->kind == AD_ACTION && listed(&used, d->name) && !listed(&own, d->name)) {
            warn_stale_text(c, d, "message", d->text, ch, amendment);
            warn_stale_text(c, d, "English message", d->text_en, ch, amendment);
        } else if (d->kind == AD_FACT) {
            warn_stale_text(c, d, "question", d->ask, ch, amendment);
            warn_stale_text(c, d, "English question", d->ask_en, ch, amendment);
            warn_stale_enum(c, d, d->type, ch, amendment);
        } else if (d->kind == AD_TYPE) {
            warn_stale_enum(c, d, d->type, ch, amendment);
        }
    }
}

void apply_amendment(compiler *c, const char *path) {
    ast_file *f = read_and_parse(c, path, no_loc(path));
    if (!f) return;
    ast_decl *header = NULL;
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_AMENDMENT && !header)
            header = d;
        else if (d->kind == AD_AMENDMENT || d->kind == AD_RULESET)
            ERR(c->d, d->loc, NULL,
                "an amendment has one `amendment` header and no `ruleset` header");
    }
    if (!header) {
        ERR(c->d, no_loc(path),
            "start it with: amendment \"title\" { base \"bridge-2017\" cite \"…\" }",
            "%s is not an amendment", path);
        return;
    }
    const char *base = NULL;
    for (int i = 0; i < header->params.n; i++) {
        ast_given *g = header->params.items[i];
        if (strcmp(g->name, "base") == 0) base = g->value->text;
    }
    int r = find_decl(c, AD_RULESET, base ? base : "");
    if (r < 0) {
        ERR(c->d, header->loc, NULL,
            "this amendment is for %s, not for the ruleset it is applied to",
            base ? base : "(no base)");
        return;
    }
    ast_push(c->a, &c->amendments, header);
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_CHANGE)
            apply_change(c, d);
        else if (d->kind == AD_INCLUDE)
            load_path(c, d->name, d->loc, 1);
        else if (d->kind != AD_AMENDMENT && d->kind != AD_RULESET)
            ast_push(c->a, &c->decls, d);
    }
    for (int i = 0; i < f->decls.n; i++) { /* once every change is made: a later one may mend it */
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_CHANGE && d->change_target == CHANGE_CLAUSE)
            warn_stale_texts(c, d, header->loc.file);
    }
}
