/* compile_load.c — reading the files of a ruleset and what they include,
 * each once, within the limits on files and their sizes. */
#include "compile_internal.h"

/* ---- load ---------------------------------------------------------------- */

static const char *dir_of(compiler *c, const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? arena_strndup(c->a, path, (size_t)(slash - path)) : ".";
}

/* Each file and directory is read once, however it is reached: known by
 * its device and inode (one stat, where resolving the path's every
 * component took several calls). */
typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static bool first_visit(compiler *c, const char *path, src_loc from) {
    struct stat st;
    if (stat(path, &st) != 0) {
        ERR(c->d, from, NULL, "cannot find %s: %s", path, strerror(errno));
        return false;
    }
    for (int i = 0; i < c->included.n; i++) {
        const file_id *seen = c->included.items[i];
        if (seen->dev == st.st_dev && seen->ino == st.st_ino) return false;
    }
    file_id *id = arena_alloc(c->a, sizeof *id);
    id->dev = st.st_dev;
    id->ino = st.st_ino;
    ast_push(c->a, &c->included, id);
    return true;
}

static bool fit_to_parse(compiler *c, const char *path, src_loc from, const char *text,
                         size_t len) {
    if (len > MAX_FILE_SIZE) {
        ERR(c->d, no_loc(path), "split the rules over several files",
            "file is larger than %d bytes", MAX_FILE_SIZE);
        return false;
    }
    if (strlen(text) != len) {
        ERR(c->d, no_loc(path), "rule files are text", "file contains a NUL byte");
        return false;
    }
    if (c->files.n >= MAX_FILES) {
        ERR(c->d, from, NULL, "more than %d rule files", MAX_FILES);
        return false;
    }
    return true;
}

/* Reads and parses one file; its text joins the hash and the sources that
 * errors quote. */
ast_file *read_and_parse(compiler *c, const char *path, src_loc from) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        ERR(c->d, from, NULL, "cannot read %s: %s", path, read_file_error(errno));
        return NULL;
    }
    if (!fit_to_parse(c, path, from, text, len)) {
        xfree(text);
        return NULL;
    }
    const char *p = keep_str(c, path); /* every location in the file names it */
    size_t body_len = len;
    const char *body = skip_bom(text, &body_len); /* parsed and quoted without it */
    bool kept = diag_take_source(c->d, p, text, body);
    const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1
                                       : p; /* the hash does not depend on where it is installed */
    c->rs->hash = fnv1a64(c->rs->hash, base, strlen(base));
    c->rs->hash = fnv1a64(c->rs->hash, text, len);
    ast_file *f = dsl_parse(c->a, c->d, p, body); /* the tree holds copies of what it names */
    if (!kept) xfree(text);
    ast_push(c->a, &c->files, f);
    return f;
}

static void load_file(compiler *c, const char *path, src_loc from, int depth) {
    if (!first_visit(c, path, from)) return;
    ast_file *f = read_and_parse(c, path, from);
    if (!f) return;
    const char *p = f->path;
    for (int i = 0; i < f->decls.n; i++) {
        ast_decl *d = f->decls.items[i];
        if (d->kind == AD_INCLUDE) {
            const char *target =
                d->name[0] == '/' ? d->name : arena_printf(c->a, "%s/%s", dir_of(c, p), d->name);
            load_path(c, target, d->loc, depth + 1);
        } else {
            ast_push(c->a, &c->decls, d);
        }
    }
}

static void load_dir(compiler *c, const char *dir, src_loc from, int depth) {
    char **names;
    int n = list_rule_files(dir, &names);
    if (n < 0) {
        ERR(c->d, from, NULL, "cannot open %s: %s", dir, strerror(errno));
        return;
    }
    if (n == 0)
        ERR(c->d, from, "a ruleset is a directory of *.rules files", "no .rules files in %s", dir);
    for (int i = 0; i < n; i++) {
        load_file(c, arena_printf(c->a, "%s/%s", dir, names[i]), from, depth);
        xfree(names[i]);
    }
    xfree(names);
}

void load_path(compiler *c, const char *path, src_loc from, int depth) {
    if (depth > MAX_INCLUDE_DEPTH) {
        ERR(c->d, from, "includes nest too deep; is there an include cycle?", "cannot include %s",
            path);
        return;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (first_visit(c, path, from)) load_dir(c, path, from, depth);
    } else {
        load_file(c, path, from, depth);
    }
}
