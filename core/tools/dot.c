/* dot.c — Graphviz output. Edges to the same child are merged into one
 * edge labelled with every value that leads there. */
#include "dot.h"

#include <stdlib.h>

static void dot_string(const char *s, FILE *out) {
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void terminal_label(const ruleset *rs, const graph_term *t, strbuf *sb) {
    switch (t->kind) {
    case TERM_OUTCOME: {
        const rs_outcome *o = rs_outcome_at(rs, t->v);
        for (int i = 0, n = 0; i < o->ntrail; i++)
            if (rs->clauses[o->trail[i]].cite)
                sb_printf(sb, "%s%s", n++ ? " > " : "", rs->clauses[o->trail[i]].cite);
        for (int i = 0; i < o->nactions; i++)
            sb_printf(sb, "\n%s", rs->actions[rs_use_at(rs, o->actions[i])->action].name);
        break;
    }
    case TERM_REJECT:
        sb_printf(sb, "onmogelijk:\n%s", rs->invariants[t->v].message);
        break;
    case TERM_NOT_APPLICABLE:
        sb_puts(sb, "niet van toepassing");
        break;
    case TERM_GAP:
        sb_puts(sb, "GEEN UITSPRAAK");
        break;
    case TERM_OUTSIDE:
        sb_printf(sb, "buiten deze regelset:\n%s", rs->outside[t->v].message);
        break;
    default:
        sb_puts(sb, "fout");
        break;
    }
}

static void write_node(const ruleset *rs, gref r, unsigned char *seen, unsigned char *seen_term,
                       FILE *out) {
    const graph *g = rs->graph;
    if (GRAPH_IS_TERM(r)) {
        int t = GRAPH_TERM_INDEX(r);
        if (seen_term[t]) return;
        seen_term[t] = 1;
        strbuf sb;
        sb_init(&sb);
        terminal_label(rs, graph_term_at(g, r), &sb);
        fprintf(out, "  t%d [shape=box, style=rounded, label=", t);
        dot_string(sb.data, out);
        fputs("];\n", out);
        sb_free(&sb);
        return;
    }
    if (seen[r]) return;
    seen[r] = 1;
    const graph_node *nd = &g->nodes[r];
    const rs_fact *f = &rs->facts[rs->var_fact[nd->var]];
    fprintf(out, "  n%d [label=", r);
    dot_string(f->name, out);
    fputs("];\n", out);
    int n = g->domain[nd->var];
    for (int i = 0; i < n; i++) {
        gref kid = graph_kid(g, nd, i);
        bool first = true;
        for (int j = 0; j < i && first; j++)
            first = graph_kid(g, nd, j) != kid;
        if (!first) continue;
        strbuf label;
        sb_init(&label);
        for (int j = i; j < n; j++) {
            if (graph_kid(g, nd, j) != kid) continue;
            if (label.len) sb_puts(&label, ", ");
            rs_format_value(rs, f->type, g->lo[nd->var] + j, FMT_NAME, &label);
        }
        if (GRAPH_IS_TERM(kid))
            fprintf(out, "  n%d -> t%d [label=", r, GRAPH_TERM_INDEX(kid));
        else
            fprintf(out, "  n%d -> n%d [label=", r, kid);
        dot_string(label.data, out);
        fputs("];\n", out);
        sb_free(&label);
        write_node(rs, kid, seen, seen_term, out);
    }
}

void dot_write(const ruleset *rs, gref root, const rs_article *article, FILE *out) {
    const graph *g = rs->graph;
    unsigned char *seen = xcalloc((size_t)g->nnodes + 1, 1),
                  *seen_term = xcalloc((size_t)g->nterms + 1, 1);
    fputs("digraph article {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n  label=", out);
    strbuf title;
    sb_init(&title);
    sb_printf(&title, "%s — artikel %s %s", rs->name, article->id, article->title);
    dot_string(title.data, out);
    sb_free(&title);
    fputs(";\n", out);
    write_node(rs, root, seen, seen_term, out);
    fputs("}\n", out);
    xfree(seen);
    xfree(seen_term);
}
