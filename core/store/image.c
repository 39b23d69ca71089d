/* image.c — a compiled ruleset to bytes and back (image.h).
 *
 * Every number is little-endian and of fixed width (i32 for the struct's
 * ints and counts, i64 for its int64_t, u8 for its bools and kinds), so an
 * image means the same to every build of the same sources. Strings are
 * indices into the string table (0 is NULL), types indices into the type
 * table (-1 is NULL). Each field of ruleset.h is written in one place,
 * put_*, and read in one place, get_*, in the same order; validate()
 * then checks every reference the rest of arbiter follows without a check.
 *
 * ORDER: put_ruleset and get_ruleset must list the fields in the same
 * order; a change to either is a change of IMAGE_VERSION. */
#include "image.h"

#include "build_id.h"
#include "builtins.h"
#include "digest.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef ARB_BUILD_ID
#define ARB_BUILD_ID "unknown"
#endif

#define LITTLE_ENDIAN_HOST (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define BUILD_ID_SIZE 32
#define MAX_KEYS 4 /* expr.c: EXPR_MAX_KEYS */

/* A string of the table: a path relative to the ruleset's directory is
 * kept without it, and given the directory it is loaded as. */
enum { STR_PLAIN, STR_UNDER_DIR };

const char *image_build_id(void) {
    return ARB_BUILD_ID;
}

/* HMAC-SHA-256 under key of the header before the seal and the body. */
void image_seal(const unsigned char key[IMAGE_KEY_SIZE], const void *data, size_t len,
                unsigned char seal[IMAGE_SEAL_SIZE]) {
    const unsigned char *p = data;
    bool body = len > IMAGE_HEADER_SIZE;
    digest_part parts[2] = {{p, len < IMAGE_SEAL_OFFSET ? len : IMAGE_SEAL_OFFSET},
                            {body ? p + IMAGE_HEADER_SIZE : p, body ? len - IMAGE_HEADER_SIZE : 0}};
    _Static_assert(IMAGE_SEAL_SIZE == DIGEST_SIZE, "the seal is one HMAC-SHA-256");
    if (!digest_hmac_sha256(key, IMAGE_KEY_SIZE, parts, 2, seal))
        abort(); /* only when the crypto itself is broken: no image can be trusted */
}

static bool in(int64_t i, int64_t n) {
    return i >= 0 && i < n;
}

static bool opt(int64_t i, int64_t n) { /* -1 for none, or an index */
    return i == -1 || in(i, n);
}

/* ---- writing ------------------------------------------------------------- */

typedef struct writer {
    const ruleset *rs;
    strbuf out;
    /* the string table: entries in order, and an index over them */
    strbuf strs;
    int nstrs;
    struct wstr {
        const char *s;
        size_t len;
        int flag;
    } * keys;
    int capkeys;
    int32_t *slots;
    int capslots;
    const char *last_s; /* the string asked for last (most are a file name) */
    int last_flag, last_idx;
    /* the type table, by pointer */
    const rs_type **types;
    int ntypes, captypes;
    int32_t *tslots;
    int captslots;
    size_t dirlen;
} writer;

static void put_bytes(strbuf *b, const void *p, size_t n) {
    sb_putn(b, p, n);
}

static void put_u8(strbuf *b, unsigned v) {
    unsigned char c = (unsigned char)v;
    put_bytes(b, &c, 1);
}

static void put_i32(strbuf *b, int32_t v) {
    unsigned char c[4];
    for (int i = 0; i < 4; i++)
        c[i] = (unsigned char)((uint32_t)v >> (8 * i));
    put_bytes(b, c, 4);
}

static void put_i64(strbuf *b, int64_t v) {
    unsigned char c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (unsigned char)((uint64_t)v >> (8 * i));
    put_bytes(b, c, 8);
}

static void put_i32s(strbuf *b, const int *v, int n) {
    if (LITTLE_ENDIAN_HOST && sizeof(int) == 4) {
        if (n > 0) put_bytes(b, v, sizeof(int) * (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++)
        put_i32(b, v[i]);
}

static uint64_t str_hash(const char *s, size_t len, int flag) {
    return fnv1a64(FNV1A64_INIT ^ (uint64_t)flag, s, len);
}

static void str_rehash(writer *w) {
    xfree(w->slots);
    w->capslots = w->capslots ? 2 * w->capslots : 1024;
    w->slots = xcalloc((size_t)w->capslots, sizeof(int32_t));
    memset(w->slots, -1, sizeof(int32_t) * (size_t)w->capslots);
    for (int i = 0; i < w->nstrs; i++) {
        uint64_t h = str_hash(w->keys[i].s, w->keys[i].len, w->keys[i].flag);
        size_t m = (size_t)w->capslots - 1, k = h & m;
        while (w->slots[k] >= 0)
            k = (k + 1) & m;
        w->slots[k] = i;
    }
}

/* The index of s in the string table (1-based; 0 for NULL), added if new. */
static int str_index(writer *w, const char *s, int flag) {
    if (!s) return 0;
    if (s == w->last_s && flag == w->last_flag) return w->last_idx;
    size_t len = strlen(s);
    if (2 * (w->nstrs + 1) > w->capslots) str_rehash(w);
    size_t m = (size_t)w->capslots - 1, k = str_hash(s, len, flag) & m;
    for (; w->slots[k] >= 0; k = (k + 1) & m) {
        const struct wstr *e = &w->keys[w->slots[k]];
        if (e->flag == flag && e->len == len && memcmp(e->s, s, len) == 0) break;
    }
    if (w->slots[k] < 0) {
        if (w->nstrs == w->capkeys) {
            w->capkeys = w->capkeys ? 2 * w->capkeys : 1024;
            w->keys = xrealloc(w->keys, sizeof *w->keys * (size_t)w->capkeys);
        }
        w->keys[w->nstrs] = (struct wstr){s, len, flag};
        w->slots[k] = w->nstrs++;
        put_u8(&w->strs, (unsigned)flag);
        put_i32(&w->strs, (int32_t)len);
        put_bytes(&w->strs, s, len);
    }
    w->last_s = s;
    w->last_flag = flag;
    w->last_idx = w->slots[k] + 1;
    return w->last_idx;
}

static void put_str(writer *w, const char *s) {
    put_i32(&w->out, str_index(w, s, STR_PLAIN));
}

/* A file name: under the ruleset's directory it is kept relative to it. */
static void put_path(writer *w, const char *s) {
    const char *dir = w->rs->dir;
    if (s && dir && strncmp(s, dir, w->dirlen) == 0 && (s[w->dirlen] == '/' || s[w->dirlen] == 0))
        put_i32(&w->out, str_index(w, s + w->dirlen, STR_UNDER_DIR));
    else
        put_i32(&w->out, str_index(w, s, STR_PLAIN));
}

static void put_loc(writer *w, src_loc l) {
    put_path(w, l.file);
    put_i32(&w->out, l.line);
    put_i32(&w->out, l.col);
}

static uint64_t ptr_hash(const void *p) {
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 31);
}

static void type_rehash(writer *w) {
    xfree(w->tslots);
    w->captslots = w->captslots ? 2 * w->captslots : 256;
    w->tslots = xcalloc((size_t)w->captslots, sizeof(int32_t));
    memset(w->tslots, -1, sizeof(int32_t) * (size_t)w->captslots);
    for (int i = 0; i < w->ntypes; i++) {
        size_t m = (size_t)w->captslots - 1, k = ptr_hash(w->types[i]) & m;
        while (w->tslots[k] >= 0)
            k = (k + 1) & m;
        w->tslots[k] = i;
    }
}

/* The index of t in the type table (-1 for NULL), added if new: types are
 * shared by pointer (an anonymous type is its fact's own), and so they
 * stay after reading. */
static int type_index(writer *w, const rs_type *t) {
    if (!t) return -1;
    if (2 * (w->ntypes + 1) > w->captslots) type_rehash(w);
    size_t m = (size_t)w->captslots - 1, k = ptr_hash(t) & m;
    for (; w->tslots[k] >= 0; k = (k + 1) & m)
        if (w->types[w->tslots[k]] == t) return w->tslots[k];
    if (w->ntypes == w->captypes) {
        w->captypes = w->captypes ? 2 * w->captypes : 256;
        w->types = xrealloc(w->types, sizeof *w->types * (size_t)w->captypes);
    }
    w->types[w->ntypes] = t;
    w->tslots[k] = w->ntypes;
    return w->ntypes++;
}

static void put_type(writer *w, const rs_type *t) {
    put_i32(&w->out, type_index(w, t));
}

/* Every type a part of the ruleset points to, so that the type table can
 * be written (and read) before them. */
static void collect_types(writer *w) {
    const ruleset *rs = w->rs;
    for (int i = 0; i < rs->ntypes; i++)
        type_index(w, rs->types[i]);
    for (int i = 0; i < rs->nfacts; i++)
        type_index(w, rs->facts[i].type);
    for (int i = 0; i < rs->nactions; i++)
        for (int j = 0; j < rs->actions[i].nparams; j++)
            type_index(w, rs->actions[i].params[j].type);
    for (int i = 0; i < rs->ntables; i++) {
        for (int j = 0; j < rs->tables[i].nkeys; j++)
            type_index(w, rs->tables[i].keys[j]);
        type_index(w, rs->tables[i].value);
    }
    for (int i = 0; i < rs->exprs.len; i++)
        type_index(w, rs_expr_at(rs, i)->type);
}

static void put_names(writer *w, const char *const *names, int n) {
    put_u8(&w->out, names != NULL);
    if (names)
        for (int i = 0; i < n; i++)
            put_str(w, names[i]);
}

static void put_type_table(writer *w) {
    put_i32(&w->out, w->ntypes);
    for (int i = 0; i < w->ntypes; i++) {
        const rs_type *t = w->types[i];
        put_str(w, t->name);
        put_u8(&w->out, t->kind);
        put_i32(&w->out, t->nvalues);
        put_names(w, t->values, t->nvalues);
        put_names(w, t->labels, t->nvalues);
        put_names(w, t->labels_en, t->nvalues);
        put_u8(&w->out, t->bounded);
        put_i64(&w->out, t->lo);
        put_i64(&w->out, t->hi);
    }
}

static void put_fact(writer *w, const rs_fact *f) {
    put_str(w, f->name);
    put_loc(w, f->loc);
    put_type(w, f->type);
    put_str(w, f->ask);
    put_str(w, f->ask_en);
    put_i32(&w->out, f->builtin);
    put_u8(&w->out, f->overridable);
    put_i32(&w->out, f->derived);
    put_i32(&w->out, f->var);
    put_u8(&w->out, f->has_default);
    put_i64(&w->out, f->default_value);
}

static void put_action(writer *w, const rs_action *a) {
    put_str(w, a->name);
    put_loc(w, a->loc);
    put_i32(&w->out, a->nparams);
    for (int i = 0; i < a->nparams; i++) {
        put_str(w, a->params[i].name);
        put_type(w, a->params[i].type);
    }
    put_str(w, a->text);
    put_str(w, a->text_en);
}

static void put_table(writer *w, const rs_table *t) {
    put_str(w, t->name);
    put_loc(w, t->loc);
    put_i32(&w->out, t->nkeys);
    for (int i = 0; i < t->nkeys; i++)
        put_type(w, t->keys[i]);
    put_type(w, t->value);
    put_i32(&w->out, t->ncells);
    put_u8(&w->out, t->cells != NULL);
    for (int i = 0; t->cells && i < t->ncells; i++)
        put_i64(&w->out, t->cells[i]);
}

static void put_clause(writer *w, const rs_clause *c) {
    put_str(w, c->cite);
    put_loc(w, c->loc);
    put_i32(&w->out, c->article);
    put_u8(&w->out, c->is_article);
    put_i32(&w->out, c->cond);
    put_i32(&w->out, c->earlier);
}

static void put_article(writer *w, const rs_article *a) {
    put_str(w, a->id);
    put_str(w, a->title);
    put_str(w, a->title_en);
    put_loc(w, a->loc);
    put_i32(&w->out, a->entry_clause);
    put_u8(&w->out, a->has_when);
    put_i32(&w->out, a->root);
}

static void put_invariant(writer *w, const rs_invariant *v) {
    put_str(w, v->message);
    put_str(w, v->message_en);
    put_loc(w, v->loc);
    put_i32(&w->out, v->expr);
}

static void put_outside(writer *w, const rs_outside *o) {
    put_str(w, o->message);
    put_str(w, o->message_en);
    put_loc(w, o->loc);
}

static void put_combine(writer *w, const rs_combine *k) {
    put_i32(&w->out, k->a);
    put_i32(&w->out, k->b);
    put_loc(w, k->loc);
}

static void put_block(writer *w, const rs_block *b) {
    put_loc(w, b->loc);
    put_i32(&w->out, b->article);
}

static void put_expect(writer *w, const rs_expect *x) {
    put_loc(w, x->loc);
    put_u8(&w->out, x->kind);
    put_u8(&w->out, x->negated);
    put_str(w, x->cite);
    put_i32(&w->out, x->action);
    put_u8(&w->out, x->has_args);
    if (x->has_args) { /* as many as the action has parameters */
        int nargs = w->rs->actions[x->action].nparams;
        put_i32(&w->out, nargs);
        for (int i = 0; i < nargs; i++)
            put_i64(&w->out, x->args[i]);
    }
    put_i32(&w->out, x->ntrail);
    for (int i = 0; i < x->ntrail; i++)
        put_str(w, x->trail[i]);
    put_i32(&w->out, x->fact);
}

static void put_test(writer *w, const rs_test *t) {
    put_str(w, t->name);
    put_i32(&w->out, t->article);
    put_loc(w, t->loc);
    put_i32(&w->out, t->ngiven);
    for (int i = 0; i < t->ngiven; i++) {
        put_i32(&w->out, t->given_fact[i]);
        put_i64(&w->out, t->given_value[i]);
    }
    put_str(w, t->auction);
    put_i32(&w->out, t->nexpect);
    for (int i = 0; i < t->nexpect; i++)
        put_expect(w, &t->expect[i]);
}

static void put_expr(writer *w, const rs_expr *x) {
    put_u8(&w->out, x->kind);
    put_i32(&w->out, x->op);
    put_i32(&w->out, x->a);
    put_i32(&w->out, x->b);
    put_i32(&w->out, x->args);
    put_i32(&w->out, x->nargs);
    put_i64(&w->out, x->k);
    put_type(w, x->type);
    put_loc(w, x->loc);
}

static void put_outcomes(writer *w, const vec *v) {
    int total = 0;
    put_i32(&w->out, v->len);
    for (int i = 0; i < v->len; i++) {
        const rs_outcome *o = &VEC_AT(v, rs_outcome, i);
        put_i32(&w->out, o->ntrail);
        put_i32(&w->out, o->nactions);
        total += o->ntrail + o->nactions;
    }
    put_i32(&w->out, total);
    for (int i = 0; i < v->len; i++) {
        const rs_outcome *o = &VEC_AT(v, rs_outcome, i);
        put_i32s(&w->out, o->trail, o->ntrail);
        put_i32s(&w->out, o->actions, o->nactions);
    }
}

/* Zero bytes up to a multiple of `align` of out (the ruleset's part of the
 * body starts on a multiple of 8 in the file): the graph's arrays are
 * aligned, so that a mapped image can be read in place. */
static void put_pad(strbuf *out, size_t align) {
    while (out->len % align)
        sb_putc(out, 0);
}

static void put_graph(writer *w, const graph *g) {
    put_u8(&w->out, g != NULL);
    if (!g) return;
    put_i32(&w->out, g->nvars);
    put_i32s(&w->out, g->domain, g->nvars);
    for (int i = 0; i < g->nvars; i++)
        put_i64(&w->out, g->lo[i]);
    put_i32(&w->out, g->nnodes);
    put_pad(&w->out, 8);
    for (int i = 0; i < g->nnodes; i++) {
        put_i32(&w->out, g->nodes[i].var);
        put_i32(&w->out, g->nodes[i].kids);
    }
    put_i32(&w->out, g->nkids);
    put_pad(&w->out, 4);
    put_i32s(&w->out, g->kids, g->nkids);
    put_i32(&w->out, g->nterms);
    for (int i = 0; i < g->nterms; i++) {
        put_i32(&w->out, g->terms[i].kind);
        put_i64(&w->out, g->terms[i].v);
    }
}

/* ORDER: get_ruleset reads these in this order. */
static void put_ruleset(writer *w, const char *extra) {
    const ruleset *rs = w->rs;
    strbuf *o = &w->out;
    put_str(w, rs->name);
    put_str(w, rs->title);
    put_str(w, rs->game);
    put_path(w, rs->dir);
    put_i32(o, rs->score_article);
    put_i32(o, rs->matchpoints_article);
    put_i32(o, rs->imps_article);
    put_i32(o, rs->legal_article);
    put_i32(o, rs->trick_article);
    put_i32(o, rs->adjusted_article);
    put_i32(o, rs->ranking_article);
    put_i32(o, rs->total_article);
    for (int i = 0; i < KJT_COUNT; i++)
        put_i32(o, rs->klaverjas_tables[i]);
    put_loc(w, rs->loc);
    put_i64(o, (int64_t)rs->hash);
    put_i32(o, rs->nfiles);
    for (int i = 0; i < rs->nfiles; i++)
        put_path(w, rs->files[i]);
    put_i32(o, rs->ntypes);
    for (int i = 0; i < rs->ntypes; i++)
        put_type(w, rs->types[i]);
    put_i32(o, rs->nfacts);
    for (int i = 0; i < rs->nfacts; i++)
        put_fact(w, &rs->facts[i]);
    put_i32(o, rs->nactions);
    for (int i = 0; i < rs->nactions; i++)
        put_action(w, &rs->actions[i]);
    put_i32(o, rs->ntables);
    for (int i = 0; i < rs->ntables; i++)
        put_table(w, &rs->tables[i]);
    put_i32(o, rs->nclauses);
    for (int i = 0; i < rs->nclauses; i++)
        put_clause(w, &rs->clauses[i]);
    put_i32(o, rs->narticles);
    for (int i = 0; i < rs->narticles; i++)
        put_article(w, &rs->articles[i]);
    put_i32(o, rs->ninvariants);
    for (int i = 0; i < rs->ninvariants; i++)
        put_invariant(w, &rs->invariants[i]);
    put_i32(o, rs->noutside);
    for (int i = 0; i < rs->noutside; i++)
        put_outside(w, &rs->outside[i]);
    put_i32(o, rs->ncombines);
    for (int i = 0; i < rs->ncombines; i++)
        put_combine(w, &rs->combines[i]);
    put_i32(o, rs->nblocks);
    for (int i = 0; i < rs->nblocks; i++)
        put_block(w, &rs->blocks[i]);
    /* the test blocks after their length in bytes, so that a start can
     * step over them (rs_tests decodes them when asked) */
    const rs_test *tests;
    int ntests = rs_tests(rs, &tests);
    size_t tests_at = o->len;
    put_i64(o, 0);
    put_i32(o, ntests);
    for (int i = 0; i < ntests; i++)
        put_test(w, &tests[i]);
    uint64_t tests_len = (uint64_t)(o->len - tests_at - 8);
    for (int i = 0; i < 8; i++)
        o->data[tests_at + (size_t)i] = (char)(unsigned char)(tests_len >> (8 * i));
    put_i32(o, rs->exprs.len);
    for (int i = 0; i < rs->exprs.len; i++)
        put_expr(w, rs_expr_at(rs, i));
    put_i32(o, rs->expr_args.len);
    put_i32s(o, rs->expr_args.data, rs->expr_args.len);
    put_i32(o, rs->strings.len);
    for (int i = 0; i < rs->strings.len; i++)
        put_str(w, rs_string(rs, i));
    put_i32(o, rs->uses.len);
    for (int i = 0; i < rs->uses.len; i++) {
        const rs_action_use *u = rs_use_at(rs, i);
        put_i32(o, u->action);
        put_i32(o, u->clause);
        put_i32(o, u->args);
    }
    put_outcomes(w, &rs->outcomes);
    put_i32(o, rs->nvars);
    put_i32s(o, rs->var_fact, rs->nvars);
    put_graph(w, rs->graph);
    put_i32(o, rs->root);
    put_i32(o, rs->checked_root);
    put_i32(o, rs->invariant_root);
    put_str(w, extra);
}

/* The build id as the header holds it: NUL-padded to its field. */
static void build_id_field(char id[BUILD_ID_SIZE]) {
    size_t n = strlen(image_build_id());
    memset(id, 0, BUILD_ID_SIZE);
    memcpy(id, image_build_id(), n < BUILD_ID_SIZE ? n : BUILD_ID_SIZE);
}

/* The header before the seal; the seal is written once the body follows. */
static void put_header(strbuf *out, size_t len) {
    char id[BUILD_ID_SIZE];
    build_id_field(id);
    put_bytes(out, IMAGE_MAGIC, 8);
    put_i32(out, IMAGE_VERSION);
    put_i32(out, 0);
    put_bytes(out, id, sizeof id);
    put_i64(out, (int64_t)len);
    unsigned char none[IMAGE_SEAL_SIZE] = {0};
    put_bytes(out, none, sizeof none);
}

void image_encode(const ruleset *rs, const char *extra, const unsigned char key[IMAGE_KEY_SIZE],
                  strbuf *out) {
    size_t start = out->len;
    writer w = {.rs = rs, .dirlen = rs->dir ? strlen(rs->dir) : 0};
    sb_init(&w.out);
    sb_init(&w.strs);
    collect_types(&w);
    put_type_table(&w);
    strbuf types = w.out; /* the body: strings, types, then the rest */
    sb_init(&w.out);
    put_ruleset(&w, extra);
    strbuf body;
    sb_init(&body);
    put_i32(&body, w.nstrs);
    put_bytes(&body, w.strs.data ? w.strs.data : "", w.strs.len);
    put_bytes(&body, types.data ? types.data : "", types.len);
    while ((IMAGE_HEADER_SIZE + body.len) % 8) /* the ruleset's part aligned in the file */
        sb_putc(&body, 0);
    put_bytes(&body, w.out.data ? w.out.data : "", w.out.len);
    put_header(out, body.len);
    put_bytes(out, body.data, body.len);
    unsigned char *image = (unsigned char *)out->data + start;
    image_seal(key, image, out->len - start, image + IMAGE_SEAL_OFFSET);
    sb_free(&body);
    sb_free(&types);
    sb_free(&w.out);
    sb_free(&w.strs);
    xfree(w.keys);
    xfree(w.slots);
    xfree(w.types);
    xfree(w.tslots);
}

/* ---- reading ------------------------------------------------------------- */

typedef struct reader {
    const unsigned char *p, *end;
    const unsigned char *base; /* the image's first byte (its header's) */
    bool borrow;               /* the image outlives the ruleset: arrays read in place */
    bool lazy;                 /* borrowed and checked before: test blocks left for rs_tests */
    bool bad;                  /* read past the end, or a count that cannot fit */
    ruleset *rs;
    arena *a;
    const char **strs; /* [0] is NULL */
    int nstrs;
    rs_type **types;
    int ntypes;
} reader;

static bool take(reader *r, void *dst, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        if (dst) memset(dst, 0, n);
        return false;
    }
    if (dst) memcpy(dst, r->p, n);
    r->p += n;
    return true;
}

/* The next n bytes of the image, or NULL (and the reader bad) past its
 * end. The fixed-width readers below go through here, not through take:
 * a load has a few hundred thousand of them, and each is then a bounds
 * check and one load, not a call to memcpy. */
static inline const unsigned char *next(reader *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return NULL;
    }
    const unsigned char *p = r->p;
    r->p += n;
    return p;
}

static unsigned get_u8(reader *r) {
    const unsigned char *c = next(r, 1);
    return c ? c[0] : 0;
}

static bool get_bool(reader *r) {
    unsigned v = get_u8(r);
    if (v > 1) r->bad = true;
    return v == 1;
}

/* The zero bytes put_pad wrote, up to a multiple of align from base. */
static void skip_pad(reader *r, size_t align) {
    while (!r->bad && (size_t)(r->p - r->base) % align)
        if (get_u8(r) != 0) r->bad = true;
}

static int32_t get_i32(reader *r) {
    const unsigned char *c = next(r, 4);
    if (!c) return 0;
    return (int32_t)((uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
                     (uint32_t)c[3] << 24);
}

static int64_t get_i64(reader *r) {
    const unsigned char *c = next(r, 8);
    if (!c) return 0;
    uint64_t lo =
        (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    uint64_t hi =
        (uint32_t)c[4] | (uint32_t)c[5] << 8 | (uint32_t)c[6] << 16 | (uint32_t)c[7] << 24;
    return (int64_t)(hi << 32 | lo);
}

/* A count of things of at least `size` bytes each: it must fit in what is
 * left, so that a garbled count never makes a large allocation. */
static bool fits(reader *r, int32_t n, size_t size) {
    if (r->bad || n < 0 || (size_t)n > (size_t)(r->end - r->p) / size) r->bad = true;
    return !r->bad;
}

static int get_count(reader *r, size_t size) {
    int32_t n = get_i32(r);
    return fits(r, n, size) ? n : 0;
}

static void get_i32s(reader *r, int *dst, int n) {
    if (LITTLE_ENDIAN_HOST && sizeof(int) == 4) {
        take(r, dst, sizeof(int) * (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++)
        dst[i] = get_i32(r);
}

/* n zeroed elements in the arena (one more, as the compiler allocates) */
static void *alloc_n(reader *r, int n, size_t size) {
    return arena_alloc(r->a, size * ((size_t)n + 1));
}

static const char *get_str(reader *r) {
    int32_t i = get_i32(r);
    if (i < 0 || i > r->nstrs) {
        r->bad = true;
        return NULL;
    }
    return r->strs[i];
}

static const rs_type *get_type(reader *r) {
    int32_t i = get_i32(r);
    if (i < -1 || i >= r->ntypes) {
        r->bad = true;
        return NULL;
    }
    return i < 0 ? NULL : r->types[i];
}

static src_loc get_loc(reader *r) {
    src_loc l;
    l.file = get_str(r);
    l.line = get_i32(r);
    l.col = get_i32(r);
    return l;
}

static void get_string_table(reader *r, const char *dir) {
    r->nstrs = get_count(r, 5);
    r->strs = alloc_n(r, r->nstrs + 1, sizeof(char *));
    size_t dirlen = dir ? strlen(dir) : 0;
    for (int i = 1; i <= r->nstrs && !r->bad; i++) {
        unsigned flag = get_u8(r);
        int32_t len = get_count(r, 1);
        const char *s = (const char *)r->p;
        if (!take(r, NULL, (size_t)len) || flag > STR_UNDER_DIR || memchr(s, 0, (size_t)len)) {
            r->bad = true;
            break;
        }
        size_t pre = flag == STR_UNDER_DIR ? dirlen : 0;
        char *copy = arena_alloc(r->a, pre + (size_t)len + 1);
        if (pre) memcpy(copy, dir, pre);
        memcpy(copy + pre, s, (size_t)len);
        r->strs[i] = copy;
    }
}

static const char **get_names(reader *r, int n) {
    if (!get_bool(r)) return NULL;
    const char **names = alloc_n(r, n, sizeof(char *));
    for (int i = 0; i < n; i++)
        names[i] = get_str(r);
    return names;
}

static void get_type_table(reader *r) {
    r->ntypes = get_count(r, 29);
    r->types = alloc_n(r, r->ntypes, sizeof(rs_type *));
    for (int i = 0; i < r->ntypes && !r->bad; i++) {
        rs_type *t = arena_alloc(r->a, sizeof *t);
        t->name = get_str(r);
        t->kind = (enum type_kind)get_u8(r);
        t->nvalues = get_count(r, 4);
        if (t->nvalues > RS_MAX_DOMAIN) r->bad = true;
        t->values = get_names(r, t->nvalues);
        t->labels = get_names(r, t->nvalues);
        t->labels_en = get_names(r, t->nvalues);
        t->bounded = get_bool(r);
        t->lo = get_i64(r);
        t->hi = get_i64(r);
        r->types[i] = t;
    }
}

static void get_fact(reader *r, rs_fact *f) {
    f->name = get_str(r);
    f->loc = get_loc(r);
    f->type = get_type(r);
    f->ask = get_str(r);
    f->ask_en = get_str(r);
    f->builtin = get_i32(r);
    f->overridable = get_bool(r);
    f->derived = get_i32(r);
    f->var = get_i32(r);
    f->has_default = get_bool(r);
    f->default_value = get_i64(r);
}

static void get_action(reader *r, rs_action *a) {
    a->name = get_str(r);
    a->loc = get_loc(r);
    a->nparams = get_count(r, 8);
    a->params = alloc_n(r, a->nparams, sizeof *a->params);
    for (int i = 0; i < a->nparams; i++) {
        a->params[i].name = get_str(r);
        a->params[i].type = get_type(r);
    }
    a->text = get_str(r);
    a->text_en = get_str(r);
}

static void get_table(reader *r, rs_table *t) {
    t->name = get_str(r);
    t->loc = get_loc(r);
    t->nkeys = get_count(r, 4);
    t->keys = alloc_n(r, t->nkeys, sizeof *t->keys);
    for (int i = 0; i < t->nkeys; i++)
        t->keys[i] = get_type(r);
    t->value = get_type(r);
    t->ncells = get_i32(r);
    if (!get_bool(r)) return; /* a table the compiler could not fill */
    if (!fits(r, t->ncells, 8)) return;
    t->cells = alloc_n(r, t->ncells, sizeof *t->cells);
    for (int i = 0; i < t->ncells; i++)
        t->cells[i] = get_i64(r);
}

static void get_clause(reader *r, rs_clause *c) {
    c->cite = get_str(r);
    c->loc = get_loc(r);
    c->article = get_i32(r);
    c->is_article = get_bool(r);
    c->cond = get_i32(r);
    c->earlier = get_i32(r);
}

static void get_article(reader *r, rs_article *a) {
    a->id = get_str(r);
    a->title = get_str(r);
    a->title_en = get_str(r);
    a->loc = get_loc(r);
    a->entry_clause = get_i32(r);
    a->has_when = get_bool(r);
    a->root = get_i32(r);
}

static void get_invariant(reader *r, rs_invariant *v) {
    v->message = get_str(r);
    v->message_en = get_str(r);
    v->loc = get_loc(r);
    v->expr = get_i32(r);
}

static void get_outside(reader *r, rs_outside *o) {
    o->message = get_str(r);
    o->message_en = get_str(r);
    o->loc = get_loc(r);
}

static void get_combine(reader *r, rs_combine *k) {
    k->a = get_i32(r);
    k->b = get_i32(r);
    k->loc = get_loc(r);
}

static void get_block(reader *r, rs_block *b) {
    b->loc = get_loc(r);
    b->article = get_i32(r);
}

static void get_expect(reader *r, rs_expect *x) {
    x->loc = get_loc(r);
    x->kind = (enum expect_kind)get_u8(r);
    x->negated = get_bool(r);
    x->cite = get_str(r);
    x->action = get_i32(r);
    x->has_args = get_bool(r);
    if (x->has_args) {
        /* the actions are read already: the count must be the action's */
        int nargs = get_count(r, 8);
        if (!in(x->action, r->rs->nactions) || nargs != r->rs->actions[x->action].nparams)
            r->bad = true;
        x->args = alloc_n(r, nargs, sizeof *x->args);
        for (int i = 0; i < nargs && !r->bad; i++)
            x->args[i] = get_i64(r);
    }
    x->ntrail = get_count(r, 4);
    x->trail = alloc_n(r, x->ntrail, sizeof *x->trail);
    for (int i = 0; i < x->ntrail; i++)
        x->trail[i] = get_str(r);
    x->fact = get_i32(r);
}

static void get_test(reader *r, rs_test *t) {
    t->name = get_str(r);
    t->article = get_i32(r);
    t->loc = get_loc(r);
    t->ngiven = get_count(r, 12);
    t->given_fact = alloc_n(r, t->ngiven, sizeof *t->given_fact);
    t->given_value = alloc_n(r, t->ngiven, sizeof *t->given_value);
    for (int i = 0; i < t->ngiven; i++) {
        t->given_fact[i] = get_i32(r);
        t->given_value[i] = get_i64(r);
    }
    t->auction = get_str(r);
    t->nexpect = get_count(r, 16);
    t->expect = alloc_n(r, t->nexpect, sizeof *t->expect);
    for (int i = 0; i < t->nexpect && !r->bad; i++)
        get_expect(r, &t->expect[i]);
}

static void get_expr(reader *r, rs_expr *x) {
    x->kind = (enum expr_op)get_u8(r);
    x->op = get_i32(r);
    x->a = get_i32(r);
    x->b = get_i32(r);
    x->args = get_i32(r);
    x->nargs = get_i32(r);
    x->k = get_i64(r);
    x->type = get_type(r);
    x->loc = get_loc(r);
}

/* A vec of n elements in the ruleset's arena, whose blocks are faulted in
 * a call each rather than a page at a time (on a start, most of what a
 * decode costs); vec_free leaves them to the arena. */
static void *vec_sized(reader *r, vec *v, size_t elem, int n) {
    vec_init(v, elem);
    v->data = alloc_n(r, n, elem);
    v->len = v->cap = n;
    v->borrowed = true;
    return v->data;
}

static void get_outcomes(reader *r, vec *v) {
    int n = get_count(r, 8);
    rs_outcome *o = vec_sized(r, v, sizeof(rs_outcome), n);
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        o[i].ntrail = get_i32(r);
        o[i].nactions = get_i32(r);
        if (o[i].ntrail < 0 || o[i].nactions < 0) r->bad = true;
        total += (int64_t)o[i].ntrail + o[i].nactions;
    }
    int32_t all = get_count(r, 4);
    if (r->bad || all != total) {
        r->bad = true;
        return;
    }
    /* one block for every trail and action list */
    int *ints = alloc_n(r, all, sizeof(int));
    get_i32s(r, ints, all);
    for (int i = 0; i < n; i++) {
        o[i].trail = ints;
        ints += o[i].ntrail;
        o[i].actions = ints;
        ints += o[i].nactions;
    }
}

/* n elements of size bytes in place, when the image outlives the ruleset
 * and they lie aligned as this host reads them; NULL otherwise. */
static const void *in_place(reader *r, int n, size_t size, size_t align) {
    if (!r->borrow || !LITTLE_ENDIAN_HOST || (uintptr_t)r->p % align || !fits(r, n, size))
        return NULL;
    return next(r, size * (size_t)n);
}

static graph *get_graph(reader *r) {
    if (!get_bool(r) || r->bad) return NULL;
    graph *g = xcalloc(1, sizeof *g);
    g->nvars = get_count(r, 12);
    g->domain = xcalloc((size_t)g->nvars + 1, sizeof(int));
    g->lo = xcalloc((size_t)g->nvars + 1, sizeof(int64_t));
    get_i32s(r, g->domain, g->nvars);
    for (int i = 0; i < g->nvars; i++)
        g->lo[i] = get_i64(r);
    g->nnodes = g->capnodes = get_count(r, 8);
    skip_pad(r, 8);
    /* a mapped image is read in place (nodes and children: most of its
     * bytes, which a copy would have touched page by page); otherwise the
     * arrays are written whole, not cleared first (take zeroes what a
     * short image lacks) */
    const void *nodes = in_place(r, g->nnodes, sizeof *g->nodes, _Alignof(graph_node));
    if (nodes) {
        g->nodes = (graph_node *)nodes;
        g->borrowed = true;
    } else {
        g->nodes = xmalloc(sizeof *g->nodes * ((size_t)g->nnodes + 1));
        g->nodes[g->nnodes] = (graph_node){0, 0};
        if (LITTLE_ENDIAN_HOST && sizeof *g->nodes == 8) /* var and kids, as written */
            take(r, g->nodes, sizeof *g->nodes * (size_t)g->nnodes);
        else
            for (int i = 0; i < g->nnodes; i++) {
                g->nodes[i].var = get_i32(r);
                g->nodes[i].kids = get_i32(r);
            }
    }
    g->nkids = g->capkids = get_count(r, 4);
    skip_pad(r, 4);
    const void *kids = g->borrowed ? in_place(r, g->nkids, sizeof(gref), _Alignof(gref)) : NULL;
    if (kids) {
        g->kids = (gref *)kids;
    } else {
        g->kids = xmalloc(sizeof(gref) * ((size_t)g->nkids + 1));
        g->kids[g->nkids] = 0;
        get_i32s(r, g->kids, g->nkids);
        if (g->borrowed) { /* the nodes in place, the children not: own both */
            graph_node *own = xmalloc(sizeof *own * ((size_t)g->nnodes + 1));
            memcpy(own, g->nodes, sizeof *own * (size_t)g->nnodes);
            own[g->nnodes] = (graph_node){0, 0};
            g->nodes = own;
            g->borrowed = false;
        }
    }
    g->nterms = g->capterms = get_count(r, 12);
    g->terms = xcalloc((size_t)g->nterms + 1, sizeof *g->terms);
    for (int i = 0; i < g->nterms; i++) {
        g->terms[i].kind = get_i32(r);
        g->terms[i].v = get_i64(r);
    }
    return g;
}

static void get_tests(reader *r) {
    ruleset *rs = r->rs;
    rs->ntests = get_count(r, 32);
    rs->tests = alloc_n(r, rs->ntests, sizeof(rs_test));
    for (int i = 0; i < rs->ntests && !r->bad; i++)
        get_test(r, &rs->tests[i]);
}

/* Test blocks left in a mapped image until rs_tests asks for them: where
 * they are, and the tables their references need. */
typedef struct pending_tests {
    const unsigned char *p, *end, *base;
    const char **strs;
    int nstrs;
    rs_type **types;
    int ntypes;
} pending_tests;

static void decode_pending_tests(ruleset *rs) {
    const pending_tests *t = rs->tests_pending;
    reader r = {.p = t->p,
                .end = t->end,
                .base = t->base,
                .borrow = true,
                .rs = rs,
                .a = rs->arena,
                .strs = t->strs,
                .nstrs = t->nstrs,
                .types = t->types,
                .ntypes = t->ntypes};
    get_tests(&r);
    if (r.bad || r.p != r.end) { /* validated when the image was first checked: cannot happen */
        rs->ntests = 0;
        rs->tests = NULL;
    }
}

/* The test blocks, after their length: decoded now, or (an image read in
 * place and checked before) left for rs_tests. */
static void get_tests_section(reader *r) {
    uint64_t len = (uint64_t)get_i64(r);
    if (r->bad || len > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return;
    }
    const unsigned char *end = r->p + len;
    if (!r->lazy) {
        get_tests(r);
        if (r->p != end) r->bad = true;
        return;
    }
    pending_tests *t = arena_alloc(r->a, sizeof *t);
    *t = (pending_tests){r->p, end, r->base, r->strs, r->nstrs, r->types, r->ntypes};
    r->rs->tests_pending = t;
    r->rs->decode_tests = decode_pending_tests;
    r->p = end;
}

/* ORDER: as put_ruleset writes them. */
static void get_ruleset(reader *r, const char **extra) {
    ruleset *rs = r->rs;
    rs->name = get_str(r);
    rs->title = get_str(r);
    rs->game = get_str(r);
    rs->dir = get_str(r);
    rs->score_article = get_i32(r);
    rs->matchpoints_article = get_i32(r);
    rs->imps_article = get_i32(r);
    rs->legal_article = get_i32(r);
    rs->trick_article = get_i32(r);
    rs->adjusted_article = get_i32(r);
    rs->ranking_article = get_i32(r);
    rs->total_article = get_i32(r);
    for (int i = 0; i < KJT_COUNT; i++)
        rs->klaverjas_tables[i] = get_i32(r);
    rs->loc = get_loc(r);
    rs->hash = (uint64_t)get_i64(r);
    rs->nfiles = get_count(r, 4);
    rs->files = alloc_n(r, rs->nfiles, sizeof(char *));
    for (int i = 0; i < rs->nfiles; i++)
        rs->files[i] = get_str(r);
    rs->ntypes = get_count(r, 4);
    rs->types = alloc_n(r, rs->ntypes, sizeof(rs_type *));
    for (int i = 0; i < rs->ntypes; i++)
        rs->types[i] = (rs_type *)get_type(r);
    rs->nfacts = get_count(r, 40);
    rs->facts = alloc_n(r, rs->nfacts, sizeof(rs_fact));
    for (int i = 0; i < rs->nfacts && !r->bad; i++)
        get_fact(r, &rs->facts[i]);
    rs->nactions = get_count(r, 28);
    rs->actions = alloc_n(r, rs->nactions, sizeof(rs_action));
    for (int i = 0; i < rs->nactions && !r->bad; i++)
        get_action(r, &rs->actions[i]);
    rs->ntables = get_count(r, 28);
    rs->tables = alloc_n(r, rs->ntables, sizeof(rs_table));
    for (int i = 0; i < rs->ntables && !r->bad; i++)
        get_table(r, &rs->tables[i]);
    rs->nclauses = get_count(r, 21);
    rs->clauses = alloc_n(r, rs->nclauses, sizeof(rs_clause));
    for (int i = 0; i < rs->nclauses && !r->bad; i++)
        get_clause(r, &rs->clauses[i]);
    rs->narticles = get_count(r, 29);
    rs->articles = alloc_n(r, rs->narticles, sizeof(rs_article));
    for (int i = 0; i < rs->narticles && !r->bad; i++)
        get_article(r, &rs->articles[i]);
    rs->ninvariants = get_count(r, 24);
    rs->invariants = alloc_n(r, rs->ninvariants, sizeof(rs_invariant));
    for (int i = 0; i < rs->ninvariants && !r->bad; i++)
        get_invariant(r, &rs->invariants[i]);
    rs->noutside = get_count(r, 20);
    rs->outside = alloc_n(r, rs->noutside, sizeof(rs_outside));
    for (int i = 0; i < rs->noutside && !r->bad; i++)
        get_outside(r, &rs->outside[i]);
    rs->ncombines = get_count(r, 16);
    rs->combines = alloc_n(r, rs->ncombines, sizeof(rs_combine));
    for (int i = 0; i < rs->ncombines && !r->bad; i++)
        get_combine(r, &rs->combines[i]);
    rs->nblocks = get_count(r, 16);
    rs->blocks = alloc_n(r, rs->nblocks, sizeof(rs_block));
    for (int i = 0; i < rs->nblocks && !r->bad; i++)
        get_block(r, &rs->blocks[i]);
    get_tests_section(r);
    rs_expr *x = vec_sized(r, &rs->exprs, sizeof(rs_expr), get_count(r, 45));
    for (int i = 0; i < rs->exprs.len && !r->bad; i++)
        get_expr(r, &x[i]);
    int *args = vec_sized(r, &rs->expr_args, sizeof(int), get_count(r, 4));
    get_i32s(r, args, rs->expr_args.len);
    const char **strings = vec_sized(r, &rs->strings, sizeof(char *), get_count(r, 4));
    for (int i = 0; i < rs->strings.len; i++)
        strings[i] = get_str(r);
    rs_action_use *u = vec_sized(r, &rs->uses, sizeof(rs_action_use), get_count(r, 12));
    for (int i = 0; i < rs->uses.len; i++) {
        u[i].action = get_i32(r);
        u[i].clause = get_i32(r);
        u[i].args = get_i32(r);
    }
    get_outcomes(r, &rs->outcomes);
    rs->nvars = get_count(r, 4);
    rs->var_fact = alloc_n(r, rs->nvars, sizeof(int));
    get_i32s(r, rs->var_fact, rs->nvars);
    rs->graph = get_graph(r);
    rs->root = get_i32(r);
    rs->checked_root = get_i32(r);
    rs->invariant_root = get_i32(r);
    const char *x_extra = get_str(r);
    if (extra) *extra = x_extra;
}

/* ---- validation ---------------------------------------------------------- */

static bool valid_type(const rs_type *t) {
    if (!in(t->kind, TY_STRING + 1) || (t->bounded && t->lo > t->hi)) return false;
    if (t->kind != TY_ENUM) return t->nvalues == 0 && !t->values && !t->labels && !t->labels_en;
    if (t->nvalues > RS_MAX_DOMAIN || !t->values || !t->labels || !t->labels_en) return false;
    for (int i = 0; i < t->nvalues; i++)
        if (!t->values[i]) return false;
    return true;
}

static bool valid_gref(const graph *g, gref r) {
    return GRAPH_IS_TERM(r) ? GRAPH_TERM_INDEX(r) < g->nterms : r < g->nnodes;
}

/* A packed node's runs (core/engine/graph.h, graph_node): inside the children
 * array, at least one, their last values increasing up to the last value
 * of the domain, so that graph_kid's search stays among them. */
static bool valid_runs(const graph *g, const graph_node *nd) {
    int64_t p = -1 - (int64_t)nd->kids;
    if (p >= g->nkids) return false;
    int64_t runs = g->kids[p];
    if (runs < 1 || runs > g->domain[nd->var] || p + 1 + 2 * runs > g->nkids) return false;
    for (int64_t k = 0; k < runs; k++) {
        gref last = g->kids[p + 1 + k];
        if (last < (k ? g->kids[p + k] + 1 : 0)) return false;
    }
    return g->kids[p + runs] == g->domain[nd->var] - 1;
}

/* Child k of node i: a terminal of the graph, or an earlier node testing a
 * later variable. */
static bool valid_child(const graph *g, int i, gref k) {
    return GRAPH_IS_TERM(k) ? GRAPH_TERM_INDEX(k) < g->nterms
                            : k < i && g->nodes[k].var > g->nodes[i].var;
}

/* Ordered and acyclic: a child is an earlier node (as graph_compact and
 * hash-consing make them) testing a later variable, so every walk ends. */
static bool valid_graph(const ruleset *rs, const graph *g) {
    if (g->nvars != rs->nvars) return false;
    for (int v = 0; v < g->nvars; v++) {
        const rs_type *t = rs->facts[rs->var_fact[v]].type;
        int64_t lo = t->kind == TY_INT ? t->lo : 0;
        if (g->domain[v] < 1 || g->domain[v] != rs_decision_values(t) || g->lo[v] != lo)
            return false;
    }
    for (int i = 0; i < g->nnodes; i++) {
        const graph_node *nd = &g->nodes[i];
        if (!in(nd->var, g->nvars)) return false;
        if (nd->kids >= 0 ? nd->kids > g->nkids - g->domain[nd->var] : !valid_runs(g, nd))
            return false;
        /* each child as stored, not each value: a packed run is one child */
        int64_t p = -1 - (int64_t)nd->kids; /* packed: the runs' count, ends, children */
        const gref *kids = nd->kids >= 0 ? &g->kids[nd->kids] : &g->kids[p + 1 + g->kids[p]];
        int nkids = nd->kids >= 0 ? g->domain[nd->var] : (int)g->kids[p];
        for (int c = 0; c < nkids; c++)
            if (!valid_child(g, i, kids[c])) return false;
    }
    for (int i = 0; i < g->nterms; i++) {
        int64_t v = g->terms[i].v;
        switch (g->terms[i].kind) {
        case TERM_VALUE:
        case TERM_FALLTHROUGH:
        case TERM_ERROR:
        case TERM_NOT_APPLICABLE:
            break;
        case TERM_OUTCOME:
            if (!in(v, rs->outcomes.len)) return false;
            break;
        case TERM_GAP:
            if (!in(v, rs->nblocks)) return false;
            break;
        case TERM_REJECT:
            if (!in(v, rs->ninvariants)) return false;
            break;
        case TERM_OUTSIDE:
            if (!in(v, rs->noutside)) return false;
            break;
        default:
            return false;
        }
    }
    if (!valid_gref(g, rs->root) || !valid_gref(g, rs->checked_root) ||
        !valid_gref(g, rs->invariant_root))
        return false;
    for (int i = 0; i < rs->narticles; i++)
        if (!valid_gref(g, rs->articles[i].root)) return false;
    for (int i = 0; i < rs->nclauses; i++)
        if (rs->clauses[i].cond != RS_NO_COND && !valid_gref(g, rs->clauses[i].cond)) return false;
    return true;
}

static bool valid_args(const ruleset *rs, int args, int nargs) {
    return args >= 0 && nargs >= 0 && args <= rs->expr_args.len - nargs;
}

/* An expression's operands are made before it (compile_expr), so
 * evaluation, which follows them, always ends; derived facts are checked
 * for cycles separately. */
static bool valid_expr(const ruleset *rs, int e) {
    const rs_expr *x = rs_expr_at(rs, e);
    if (!x->type) return false;
    switch (x->kind) {
    case EX_CONST:
        return (x->type->kind != TY_STRING && x->type->kind != TY_CITE) ||
               in(x->k, rs->strings.len);
    case EX_FACT:
        return in(x->a, rs->nfacts);
    case EX_UNARY:
    case EX_ABS:
    case EX_SIGN:
        return in(x->a, e);
    case EX_BINARY:
    case EX_MIN:
    case EX_MAX:
        return in(x->a, e) && in(x->b, e);
    case EX_IN:
        if (!in(x->a, e) || !valid_args(rs, x->args, x->nargs)) return false;
        for (int i = 0; i < x->nargs; i++)
            if (!in(rs_arg(rs, x->args + i), e)) return false;
        return true;
    case EX_TABLE:
        if (!in(x->a, rs->ntables) || x->nargs != rs->tables[x->a].nkeys ||
            !valid_args(rs, x->args, x->nargs))
            return false;
        for (int i = 0; i < x->nargs; i++)
            if (!in(rs_arg(rs, x->args + i), e)) return false;
        return true;
    }
    return false;
}

/* Whether expression e reaches a derived fact already on the way (state
 * 1) — a cycle — walking through derived facts' expressions. */
static bool derived_cycle(const ruleset *rs, int e, char *state) {
    const rs_expr *x = rs_expr_at(rs, e);
    switch (x->kind) {
    case EX_FACT: {
        int d = rs->facts[x->a].derived;
        if (d < 0 || state[x->a] == 2) return false;
        if (state[x->a] == 1) return true;
        state[x->a] = 1;
        bool cycle = derived_cycle(rs, d, state);
        state[x->a] = 2;
        return cycle;
    }
    case EX_CONST:
        return false;
    case EX_IN:
        return derived_cycle(rs, x->a, state);
    case EX_TABLE:
        for (int i = 0; i < x->nargs; i++)
            if (derived_cycle(rs, rs_arg(rs, x->args + i), state)) return true;
        return false;
    case EX_BINARY:
    case EX_MIN:
    case EX_MAX:
        if (derived_cycle(rs, x->b, state)) return true;
        /* fall through */
    default:
        return derived_cycle(rs, x->a, state);
    }
}

/* A default is a value of an input or record fact's own type (the
 * compiler's rule). */
static bool valid_default(const rs_fact *x) {
    if (!x->has_default) return true;
    if (x->derived >= 0) return false;
    switch (x->type->kind) {
    case TY_BOOL:
        return x->default_value == 0 || x->default_value == 1;
    case TY_ENUM:
        return x->default_value >= 0 && x->default_value < x->type->nvalues;
    case TY_INT:
        return !x->type->bounded ||
               (x->default_value >= x->type->lo && x->default_value <= x->type->hi);
    default:
        return false;
    }
}

static bool valid_facts(const ruleset *rs) {
    for (int f = 0; f < rs->nfacts; f++) {
        const rs_fact *x = &rs->facts[f];
        if (!x->name || !x->type || !opt(x->builtin, builtin_count()) ||
            !opt(x->derived, rs->exprs.len) || !opt(x->var, rs->nvars) ||
            (x->var >= 0 && rs->var_fact[x->var] != f) || !valid_default(x))
            return false;
    }
    for (int v = 0; v < rs->nvars; v++)
        if (!in(rs->var_fact[v], rs->nfacts) || rs->facts[rs->var_fact[v]].var != v) return false;
    char *state = xcalloc((size_t)rs->nfacts + 1, 1);
    bool ok = true;
    for (int f = 0; f < rs->nfacts && ok; f++)
        if (rs->facts[f].derived >= 0 && state[f] == 0) {
            state[f] = 1;
            ok = !derived_cycle(rs, rs->facts[f].derived, state);
            state[f] = 2;
        }
    xfree(state);
    return ok;
}

static bool valid_declarations(const ruleset *rs) {
    for (int i = 0; i < rs->ntypes; i++)
        if (!rs->types[i]) return false;
    for (int i = 0; i < rs->nfiles; i++)
        if (!rs->files[i]) return false;
    for (int i = 0; i < rs->nactions; i++) {
        const rs_action *a = &rs->actions[i];
        if (!a->name) return false;
        for (int j = 0; j < a->nparams; j++)
            if (!a->params[j].name || !a->params[j].type) return false;
    }
    for (int i = 0; i < rs->ntables; i++) {
        const rs_table *t = &rs->tables[i];
        if (!t->name || !t->value || t->nkeys > MAX_KEYS) return false;
        for (int j = 0; j < t->nkeys; j++)
            if (!t->keys[j]) return false;
    }
    for (int i = 0; i < KJT_COUNT; i++)
        if (!opt(rs->klaverjas_tables[i], rs->ntables)) return false;
    int arts[] = {rs->score_article,   rs->matchpoints_article, rs->imps_article,
                  rs->legal_article,   rs->trick_article,       rs->adjusted_article,
                  rs->ranking_article, rs->total_article};
    for (size_t i = 0; i < sizeof arts / sizeof *arts; i++)
        if (!opt(arts[i], rs->narticles)) return false;
    for (int i = 0; i < rs->nclauses; i++)
        if (!in(rs->clauses[i].article, rs->narticles) || rs->clauses[i].earlier < -1 ||
            rs->clauses[i].earlier >= rs->nclauses)
            return false;
    for (int i = 0; i < rs->narticles; i++)
        if (!rs->articles[i].id || !in(rs->articles[i].entry_clause, rs->nclauses)) return false;
    for (int i = 0; i < rs->ninvariants; i++)
        if (!in(rs->invariants[i].expr, rs->exprs.len)) return false;
    for (int i = 0; i < rs->nblocks; i++)
        if (!in(rs->blocks[i].article, rs->narticles)) return false;
    for (int i = 0; i < rs->ncombines; i++)
        if (!in(rs->combines[i].a, rs->narticles) || !in(rs->combines[i].b, rs->narticles))
            return false;
    return true;
}

static bool valid_expect(const ruleset *rs, const rs_expect *x) {
    switch (x->kind) {
    case EXP_CITE:
        return x->cite != NULL;
    case EXP_ACTION:
        return in(x->action, rs->nactions); /* get_expect checked the arguments */
    case EXP_TRAIL:
        for (int i = 0; i < x->ntrail; i++)
            if (!x->trail[i]) return false;
        return true;
    case EXP_ASKS:
        return in(x->fact, rs->nfacts);
    case EXP_REJECTED:
    case EXP_OUTSIDE:
        return true;
    }
    return false;
}

static bool valid_tests(const ruleset *rs) {
    for (int i = 0; i < rs->ntests; i++) {
        const rs_test *t = &rs->tests[i];
        if (!t->name || !opt(t->article, rs->narticles)) return false;
        for (int j = 0; j < t->ngiven; j++)
            if (!in(t->given_fact[j], rs->nfacts)) return false;
        for (int j = 0; j < t->nexpect; j++)
            if (!valid_expect(rs, &t->expect[j])) return false;
    }
    return true;
}

static bool valid_exprs(const ruleset *rs) {
    for (int i = 0; i < rs->exprs.len; i++)
        if (!valid_expr(rs, i)) return false;
    return true;
}

static bool valid_rulings(const ruleset *rs) {
    for (int i = 0; i < rs->strings.len; i++)
        if (!rs_string(rs, i)) return false;
    for (int i = 0; i < rs->uses.len; i++) {
        const rs_action_use *u = rs_use_at(rs, i);
        if (!in(u->action, rs->nactions) || !opt(u->clause, rs->nclauses) ||
            !valid_args(rs, u->args, rs->actions[u->action].nparams))
            return false;
        for (int j = 0; j < rs->actions[u->action].nparams; j++)
            if (!in(rs_arg(rs, u->args + j), rs->exprs.len)) return false;
    }
    for (int i = 0; i < rs->outcomes.len; i++) {
        const rs_outcome *o = rs_outcome_at(rs, i);
        for (int j = 0; j < o->ntrail; j++)
            if (!in(o->trail[j], rs->nclauses)) return false;
        for (int j = 0; j < o->nactions; j++)
            if (!in(o->actions[j], rs->uses.len)) return false;
    }
    return true;
}

/* Every reference the rest of arbiter follows without checking it. */
static const char *validate(const ruleset *rs) {
    if (!rs->name || !rs->dir) return "the header";
    /* ORDER: each check follows only references checked before it */
    if (!valid_declarations(rs)) return "a declaration";
    if (!valid_exprs(rs)) return "an expression";
    if (!valid_facts(rs)) return "a fact";
    if (!valid_rulings(rs)) return "a ruling";
    if (!valid_tests(rs)) return "a test";
    if (!rs->graph || !valid_graph(rs, rs->graph)) return "the graph";
    return NULL;
}

/* The fixed fields of the header, then the seal: nothing of the body, which
 * another hand may have made, is read before it is known to be sealed
 * with this user's key. */
static bool check_header(const unsigned char *p, size_t len, const unsigned char *key,
                         bool checked_before, char *err, size_t errsz) {
    if (len < IMAGE_HEADER_SIZE) return fail_with(err, errsz, "shorter than its header");
    if (memcmp(p, IMAGE_MAGIC, 8) != 0) return fail_with(err, errsz, "not an image");
    reader r = {.p = p + 8, .end = p + IMAGE_HEADER_SIZE};
    int32_t version = get_i32(&r), reserved = get_i32(&r);
    if (version != IMAGE_VERSION || reserved != 0)
        return fail_with(err, errsz, "format version %d, not %d", version, IMAGE_VERSION);
    char id[BUILD_ID_SIZE];
    build_id_field(id);
    if (memcmp(r.p, id, sizeof id) != 0) return fail_with(err, errsz, "made by another build");
    r.p += sizeof id;
    uint64_t body = (uint64_t)get_i64(&r);
    if (body != len - IMAGE_HEADER_SIZE) return fail_with(err, errsz, "truncated or extended");
    if (checked_before) return true; /* this very file, by image_load */
    unsigned char seal[IMAGE_SEAL_SIZE];
    image_seal(key, p, len, seal);
    if (!digest_equal(seal, p + IMAGE_SEAL_OFFSET, IMAGE_SEAL_SIZE))
        return fail_with(err, errsz,
                         "its seal does not match (damaged, or not sealed with this key)");
    return true;
}

static ruleset *decode(const void *data, size_t len, const char *dir,
                       const unsigned char key[IMAGE_KEY_SIZE], bool checked_before, bool borrow,
                       const char **extra, char *err, size_t errsz) {
    if (extra) *extra = NULL;
    if (!check_header(data, len, key, checked_before, err, errsz)) return NULL;
    arena *a = arena_new();
    ruleset *rs = arena_alloc(a, sizeof *rs);
    rs->arena = a;
    vec_init(&rs->exprs, sizeof(rs_expr));
    vec_init(&rs->expr_args, sizeof(int));
    vec_init(&rs->strings, sizeof(const char *));
    vec_init(&rs->uses, sizeof(rs_action_use));
    vec_init(&rs->outcomes, sizeof(rs_outcome));
    reader r = {.p = (const unsigned char *)data + IMAGE_HEADER_SIZE,
                .end = (const unsigned char *)data + len,
                .base = data,
                .borrow = borrow,
                .lazy = borrow && checked_before,
                .rs = rs,
                .a = a};
    get_string_table(&r, dir);
    if (!r.bad) get_type_table(&r);
    for (int i = 0; i < r.ntypes && !r.bad; i++)
        r.bad = !valid_type(r.types[i]);
    skip_pad(&r, 8);
    if (!r.bad) get_ruleset(&r, extra);
    if (!r.bad && dir) rs->dir = arena_strdup(a, dir); /* as a compile of dir sets it */
    /* bytes checked before are checked still: the seal and validate's
     * verdict depend on nothing else (the build is in the header) */
    const char *wrong = r.bad            ? "its layout"
                        : r.p != r.end   ? "its length"
                        : checked_before ? NULL
                                         : validate(rs);
    if (wrong) {
        fail_with(err, errsz, "the image is inconsistent (%s)", wrong);
        if (extra) *extra = NULL;
        ruleset_free(rs);
        return NULL;
    }
    rs_index(rs);
    return rs;
}

ruleset *image_decode(const void *data, size_t len, const char *dir,
                      const unsigned char key[IMAGE_KEY_SIZE], const char **extra, char *err,
                      size_t errsz) {
    return decode(data, len, dir, key, false, false, extra, err, errsz);
}

/* ---- files --------------------------------------------------------------- */

static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* The file being written, removed when the call runs out of memory
 * before it is in place (mem_defer). */
typedef struct temp_file {
    int fd;
    char path[PATH_MAX];
} temp_file;

static void remove_temp_unwound(void *t) {
    close(((temp_file *)t)->fd);
    unlink(((temp_file *)t)->path);
}

bool image_save(const ruleset *rs, const char *extra, const unsigned char key[IMAGE_KEY_SIZE],
                const char *path, char *err, size_t errsz) {
    temp_file t;
    char *tmp = t.path;
    if (snprintf(tmp, sizeof t.path, "%s.XXXXXX", path) >= (int)sizeof t.path)
        return fail_with(err, errsz, "the path is too long");
    int fd = t.fd = mkstemp(tmp);
    if (fd < 0) return fail_with(err, errsz, "cannot create %s: %s", tmp, strerror(errno));
    int undo = mem_defer(remove_temp_unwound, &t);
    strbuf sb;
    sb_init(&sb);
    image_encode(rs, extra, key, &sb);
    mem_undefer(undo);
    bool ok = write_all(fd, sb.data, sb.len);
    int saved = errno;
    sb_free(&sb);
    ok = ok && fchmod(fd, 0600) == 0; /* mkstemp's mode, whatever the umask */
    if (close(fd) != 0) ok = false;
    if (ok && rename(tmp, path) == 0) return true;
    saved = errno ? errno : saved;
    unlink(tmp);
    return fail_with(err, errsz, "cannot write %s: %s", path, strerror(saved));
}

/* Why the file open at fd may not be trusted, or NULL: it must be a
 * regular file of the current user's that nobody else may write. */
static const char *untrusted_file(int fd, struct stat *st) {
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) return "is not a regular file";
    if (st->st_uid != geteuid()) return "belongs to another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH)) return "may be written by group or others";
    return NULL;
}

/* ---- a seal checked before ------------------------------------------------
 *
 * Checking the seal hashes the whole image, and checking every reference
 * in it walks the whole graph: together more than the rest of a start. So
 * once a file has passed both, a note beside it (note_path) records what
 * stat said of the file then (device, inode, size, modification and change
 * times to the nanosecond), its seal and a hash of the key. While all of
 * these are as noted, the file holds the bytes that passed: a write changes
 * its change time, which cannot be set back, a file put in its place is
 * another inode, and a new key changes the hash. A file whose times were
 * less than RACY_SECONDS old when checked gets no note, as a write in the
 * same tick of the clock would not show (cache.c's record of the rule files
 * does the same). The note is trusted as the key is (cache.c): a regular
 * file of the user's that nobody else may write, opened without following
 * a link. Whoever can write it can read the key. */

#define NOTE_MAX 256 /* a note's text: the stat fields, the seal in hex, the key's hash */

/* NAME.seen beside NAME.arb (NAME.arb.seen beside a file named otherwise). */
static bool note_path(const char *path, char out[PATH_MAX]) {
    size_t n = strlen(path);
    bool arb = n > 4 && strcmp(path + n - 4, ".arb") == 0;
    int k = snprintf(out, PATH_MAX, "%.*s.seen", (int)(arb ? n - 4 : n), path);
    return k > 0 && k < PATH_MAX;
}

/* The note of the file st, sealed with seal under key. */
static void note_text(const struct stat *st, const unsigned char *seal,
                      const unsigned char key[IMAGE_KEY_SIZE], char out[NOTE_MAX]) {
    int n = snprintf(out, NOTE_MAX, "%llu %llu %lld %lld.%09ld %lld.%09ld ",
                     (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
                     (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
                     (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
    for (int i = 0; i < IMAGE_SEAL_SIZE && n > 0 && n < NOTE_MAX - 3; i++)
        n += snprintf(out + n, (size_t)(NOTE_MAX - n), "%02x", seal[i]);
    if (n > 0 && n < NOTE_MAX)
        snprintf(out + n, (size_t)(NOTE_MAX - n), " %016llx\n",
                 (unsigned long long)fnv1a64(FNV1A64_INIT, key, IMAGE_KEY_SIZE));
}

/* Whether the note beside path says the seal of the file st (whose seal
 * field is at seal) was checked under key. */
static bool seal_noted(const char *path, const struct stat *st, const unsigned char *seal,
                       const unsigned char key[IMAGE_KEY_SIZE]) {
    char note[PATH_MAX], want[NOTE_MAX], have[NOTE_MAX];
    if (!note_path(path, note)) return false;
    int fd = open(note, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat ns;
    ssize_t n = untrusted_file(fd, &ns) ? -1 : read(fd, have, sizeof have - 1);
    close(fd);
    if (n <= 0) return false;
    have[n] = 0;
    note_text(st, seal, key, want);
    return strcmp(have, want) == 0;
}

/* The note that the seal of the file st was checked under key; none when
 * its times are too recent to tell a later write from it. Best effort:
 * without a note the seal is checked again next time. */
static void note_seal(const char *path, const struct stat *st, const unsigned char *seal,
                      const unsigned char key[IMAGE_KEY_SIZE]) {
    time_t now = time(NULL);
    char note[PATH_MAX], tmp[PATH_MAX], text[NOTE_MAX];
    if (st->st_mtim.tv_sec >= now - RACY_SECONDS || st->st_ctim.tv_sec >= now - RACY_SECONDS ||
        !note_path(path, note) || snprintf(tmp, sizeof tmp, "%s.XXXXXX", note) >= (int)sizeof tmp)
        return;
    note_text(st, seal, key, text);
    int fd = mkstemp(tmp);
    if (fd < 0) return;
    bool ok = fchmod(fd, 0600) == 0 && write_all(fd, text, strlen(text));
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, note) != 0) unlink(tmp);
}

typedef struct mapping {
    void *at;
    size_t len;
} mapping;

static void unmap_unwound(void *m) { /* out of memory while decoding */
    munmap(((mapping *)m)->at, ((mapping *)m)->len);
}

static void unmap_released(void *m) { /* the ruleset that read it in place is freed */
    unmap_unwound(m);
    xfree(m);
}

ruleset *image_load(const char *path, const char *dir, const unsigned char key[IMAGE_KEY_SIZE],
                    const char **extra, char *err, size_t errsz) {
    if (extra) *extra = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        fail_with(err, errsz, "cannot open %s: %s", path,
                  errno == ELOOP ? "it is a symbolic link" : strerror(errno));
        return NULL;
    }
    struct stat st;
    const char *why = untrusted_file(fd, &st);
    if (why || st.st_size < IMAGE_HEADER_SIZE) {
        close(fd);
        if (why)
            fail_with(err, errsz, "%s %s", path, why);
        else
            fail_with(err, errsz, "%s is not an image", path);
        return NULL;
    }
    /* mapped, not read: the pages are the file cache's own, and are mapped
     * at once (MAP_POPULATE): every one is read */
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fail_with(err, errsz, "cannot map %s: %s", path, strerror(errno));
        return NULL;
    }
    mapping m = {p, (size_t)st.st_size};
    int undo = mem_defer(unmap_unwound, &m);
    const unsigned char *seal = (const unsigned char *)p + IMAGE_SEAL_OFFSET;
    bool noted = seal_noted(path, &st, seal, key);
    ruleset *rs = decode(p, (size_t)st.st_size, dir, key, noted, true, extra, err, errsz);
    if (rs && !noted) note_seal(path, &st, seal, key);
    bool reads_it = rs && ((rs->graph && rs->graph->borrowed) || rs->tests_pending);
    mapping *kept = reads_it ? xmalloc(sizeof *kept) : NULL;
    mem_undefer(undo);
    if (kept) { /* the graph or the tests read the mapping: it stays until the ruleset goes */
        *kept = m;
        rs->release = unmap_released;
        rs->release_ctx = kept;
    } else {
        munmap(p, (size_t)st.st_size);
    }
    return rs;
}
