/* compile_types.c — the built-in types and those a ruleset declares,
 * resolved by name. */
#include "compile_internal.h"

/* ---- types ----------------------------------------------------------------- */

rs_type *type_new(compiler *c, const char *name, enum type_kind kind) {
    rs_type *t = arena_alloc(c->keep, sizeof *t);
    t->name = keep_str(c, name);
    t->kind = kind;
    return t;
}

/* Named types, the built-in ones (seat, call, cite, string) first. */
const rs_type *builtin_type(compiler *c, const char *name) {
    for (int i = 0; i < c->rs->ntypes; i++)
        if (c->rs->types[i]->name && strcmp(c->rs->types[i]->name, name) == 0)
            return c->rs->types[i];
    return NULL;
}

/* The array grows a copy at a time in the compiler's arena; finish makes
 * the ruleset's own. */
void add_type(compiler *c, rs_type *t) {
    rs_type **types = arena_alloc(c->a, sizeof *types * (size_t)(c->rs->ntypes + 1));
    if (c->rs->ntypes) memcpy(types, c->rs->types, sizeof *types * (size_t)c->rs->ntypes);
    types[c->rs->ntypes++] = t;
    c->rs->types = types;
}

void declare_builtin_types(compiler *c) {
    static const char *const seats[] = {"N", "E", "S", "W"};
    rs_type *seat = type_new(c, "seat", TY_ENUM);
    seat->nvalues = 4;
    seat->values = (const char **)seats;
    seat->labels = arena_alloc(c->keep, sizeof(char *) * 4);
    seat->labels_en = arena_alloc(c->keep, sizeof(char *) * 4);
    add_type(c, seat);
    add_type(c, type_new(c, "call", TY_CALL));
    add_type(c, type_new(c, "cite", TY_CITE));
    add_type(c, type_new(c, "string", TY_STRING));
}

const rs_type *resolve_type(compiler *c, const ast_type *at, const char *name) {
    rs_type *t;
    switch (at->kind) {
    case AT_BOOL:
        t = type_new(c, name, TY_BOOL);
        break;
    case AT_INT:
        t = type_new(c, name, TY_INT);
        break;
    case AT_RANGE:
        t = type_new(c, name, TY_INT);
        t->bounded = true;
        t->lo = at->lo;
        t->hi = at->hi;
        if (at->lo > at->hi)
            ERR(c->d, at->loc, "write the range low..high", "empty range %lld..%lld",
                (long long)at->lo, (long long)at->hi);
        break;
    case AT_ENUM:
        t = type_new(c, name, TY_ENUM);
        /* Checked before the values are: each is compared with those
         * before it, and 400 000 of them (3.5 MB, a file the size limit
         * lets through) took minutes to reach the error. The values past
         * the limit are not read. */
        t->nvalues = at->values.n;
        if (t->nvalues > RS_MAX_DOMAIN) {
            const ast_enumval *first_over = at->values.items[RS_MAX_DOMAIN];
            ERR(c->d, first_over->loc, "split the values into several facts, or use a bounded int",
                "an enum may have at most %d values; '%s' is value %d", RS_MAX_DOMAIN,
                first_over->name, RS_MAX_DOMAIN + 1);
            t->nvalues = RS_MAX_DOMAIN;
        }
        t->values = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        t->labels = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        t->labels_en = arena_alloc(c->keep, sizeof(char *) * (size_t)t->nvalues);
        for (int i = 0; i < t->nvalues; i++) {
            ast_enumval *v = at->values.items[i];
            for (int j = 0; j < i; j++)
                if (strcmp(t->values[j], v->name) == 0)
                    ERR(c->d, v->loc, NULL, "'%s' is listed twice", v->name);
            t->values[i] = keep_str(c, v->name);
            t->labels[i] = keep_str(c, v->label);
            t->labels_en[i] = keep_str(c, v->label_en);
        }
        break;
    default: {
        const rs_type *found = builtin_type(c, at->name);
        if (!found) {
            const char *names[64];
            int n = 0;
            for (int i = 0; i < c->rs->ntypes && n < 64; i++)
                if (c->rs->types[i]->name) names[n++] = c->rs->types[i]->name;
            if (!report_removed(c, AD_TYPE, at->name, at->loc))
                ERR(c->d, at->loc, nearest(c, at->name, names, n), "unknown type '%s'", at->name);
            return type_new(c, NULL, TY_BOOL);
        }
        return found;
    }
    }
    return t;
}

bool branchable(const rs_type *t) {
    return rs_decision_values(t) > 0;
}

/* A table key needs a finite set of values, not a small one. */
bool finite_type(const rs_type *t) {
    return t->kind == TY_BOOL || t->kind == TY_ENUM || (t->kind == TY_INT && t->bounded);
}

const char *type_text(compiler *c, const rs_type *t) {
    static const char *const kinds[] = {"bool", "enum", "int", "call", "cite", "string"};
    if (t->name) return t->name;
    if (t->kind == TY_ENUM) {
        strbuf sb;
        sb_init(&sb);
        sb_puts(&sb, "enum {");
        for (int i = 0; i < t->nvalues && i < 6; i++)
            sb_printf(&sb, "%s %s", i ? "," : "", t->values[i]);
        sb_puts(&sb, t->nvalues > 6 ? ", … }" : " }");
        const char *r = arena_strdup(c->a, sb.data);
        sb_free(&sb);
        return r;
    }
    if (t->kind == TY_INT && t->bounded)
        return arena_printf(c->a, "int %lld..%lld", (long long)t->lo, (long long)t->hi);
    return kinds[t->kind];
}

bool same_type(const rs_type *a, const rs_type *b) {
    if (a == b) return true;
    if (a->kind != b->kind) return false;
    if (a->kind != TY_ENUM) return true;
    if (a->nvalues != b->nvalues) return false;
    for (int i = 0; i < a->nvalues; i++)
        if (strcmp(a->values[i], b->values[i]) != 0) return false;
    return true;
}
