/* api/batch.c — rulings in bulk: JSON Lines in, one record a line out.
 *
 * Built for a season's worth of scenarios: the input is read a line at a
 * time (memory stays the same whatever its length), one scenario is reused
 * and reset between lines (touching only the facts the last one set), a
 * flat line is read without a JSON tree (scenario_read_flat; anything else
 * goes to jansson, which also words the errors), and the records are
 * written straight into one buffer from fragments made once per outcome
 * and per fact (output_json_write), which is flushed in large writes. The
 * records are the same bytes as arb_rule_json's (docs/json.md). */
#include "arbiter.h"
#include "protect.h"

#include "eval.h"
#include "output.h"
#include "plugin.h"
#include "scenario.h"

#include <stdlib.h>
#include <string.h>

#define FLUSH_AT (64 * 1024) /* bytes of records kept before a write */

typedef struct batch {
    const ruleset *rs;
    const arb_plugins *plugins;
    enum arb_record_format format;
    scenario sc;
    ruling r; /* each line's, its memory used again (scenario_rule_again) */
    scenario_index *index;
    output_cache *cache;
    strbuf out, err;
    FILE *to;
    enum arb_status worst;
    bool failed; /* a write failed */
} batch;

static void flush(batch *b) {
    if (b->out.len && fwrite(b->out.data, 1, b->out.len, b->to) != b->out.len) b->failed = true;
    b->out.len = 0;
}

/* An error record, as jansson writes it (the message may hold any text the
 * input had). */
static void error_record(batch *b, const char *status, const char *msg, long line) {
    if (b->format == ARB_RECORD_TEXT) {
        sb_printf(&b->out, "--- regel %ld\nFout (%s): ", line, status);
        sb_put_visible(&b->out, msg, strlen(msg)); /* it quotes the line: an escape would act */
        sb_putc(&b->out, '\n');
        return;
    }
    json_t *o = json_object();
    if (line > 0) json_object_set_new(o, "line", json_integer(line));
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "error", json_string(msg));
    char *s = json_dumps(o, JSON_COMPACT);
    sb_puts(&b->out, s);
    sb_putc(&b->out, '\n');
    xfree(s);
    json_decref(o);
}

static void note(batch *b, enum arb_status st) {
    if (st > b->worst) b->worst = st;
}

static enum arb_status ruling_exit(const ruling *r) {
    return r->status == RULING_OK                                        ? ARB_OK
           : (r->status == RULING_NEEDS || r->status == RULING_REJECTED) ? ARB_BAD_INPUT
                                                                         : ARB_NO_RULING;
}

/* "--- regel N" and a newline: before each ruling's text. */
static void put_line_header(strbuf *out, long line) {
    char digits[24], *p = digits + sizeof digits;
    unsigned long n = line > 0 ? (unsigned long)line : 0;
    do
        *--p = (char)('0' + n % 10);
    while (n /= 10);
    sb_puts(out, "--- regel ");
    sb_putn(out, p, (size_t)(digits + sizeof digits - p));
    sb_putc(out, '\n');
}

static void write_record(batch *b, const ruling *r, long line) {
    switch (b->format) {
    case ARB_RECORD_BRIEF:
        output_brief_write(b->cache, r, line, &b->out);
        return;
    case ARB_RECORD_TEXT:
        put_line_header(&b->out, line);
        output_text_cached(b->cache, r, &b->sc, &b->out);
        return;
    case ARB_RECORD_JSON:
        if (output_json_write(b->cache, r, &b->sc, line, &b->out)) return;
        json_t *o = output_json(r, &b->sc); /* plugins took part: their parts are JSON already */
        if (line > 0) json_object_set_new(o, "line", json_integer(line));
        char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
        sb_puts(&b->out, s);
        sb_putc(&b->out, '\n');
        xfree(s);
        json_decref(o);
        return;
    }
}

/* Reads one scenario into b->sc: flat lines directly, the rest (and every
 * line with plugins, whose own facts only jansson hands them) by jansson. */
static bool read_scenario(batch *b, const char *text, size_t n) {
    scenario_reset(&b->sc);
    if (!b->plugins && scenario_read_flat(&b->sc, b->index, text, n)) return true;
    scenario_reset(&b->sc);
    b->err.len = 0;
    return scenario_read_json(&b->sc, text, n, &b->err);
}

static void rule_line(batch *b, const char *text, size_t n, long line) {
    if (n > ARB_MAX_LINE) { /* not parsed: a JSON tree takes many times the text's memory */
        char msg[120];
        snprintf(msg, sizeof msg,
                 "the scenario is longer than %d bytes; a scenario is one JSON object (per line)",
                 ARB_MAX_LINE);
        error_record(b, "bad_input", msg, line);
        note(b, ARB_BAD_INPUT);
        return;
    }
    if (!read_scenario(b, text, n)) {
        error_record(b, "bad_input", b->err.data ? b->err.data : "", line);
        note(b, ARB_BAD_INPUT);
        return;
    }
    b->err.len = 0;
    if (!scenario_rule_again(b->rs, b->rs->root, &b->sc, &b->r, &b->err)) {
        error_record(b, "plugin_error", b->err.data ? b->err.data : "", line);
        note(b, ARB_BAD_INPUT);
    } else {
        write_record(b, &b->r, line);
        note(b, ruling_exit(&b->r));
    }
}

static bool blank(const char *s, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r') return false;
    return true;
}

static void one_line(batch *b, const char *text, size_t n, long line) {
    if (blank(text, n)) return; /* blank lines are not scenarios */
    rule_line(b, text, n, line);
    if (b->out.len >= FLUSH_AT) flush(b);
}

static void batch_init(batch *b, const arb_ruleset *rs, const arb_plugins *p,
                       enum arb_record_format format, FILE *out) {
    memset(b, 0, sizeof *b);
    b->rs = rs;
    b->plugins = p;
    b->format = format;
    b->to = out;
    scenario_init(&b->sc, rs);
    b->sc.hooks = p ? plugin_set_hooks(p) : NULL;
    b->sc.without_grounds = format == ARB_RECORD_BRIEF; /* a brief record shows none */
    b->index = scenario_index_new(rs);
    b->cache = output_cache_new(rs);
    sb_init(&b->out);
    sb_init(&b->err);
}

static enum arb_status batch_done(batch *b) {
    flush(b);
    ruling_clear(&b->r);
    scenario_free(&b->sc);
    scenario_index_free(b->index);
    output_cache_free(b->cache);
    sb_free(&b->out);
    sb_free(&b->err);
    return b->failed ? ARB_BAD_INPUT : b->worst;
}

/* The one record for a NULL ruleset or text. */
static enum arb_status refuse(const arb_ruleset *rs, FILE *out) {
    json_t *o = json_pack("{ssss}", "status", "bad_input", "error",
                          rs ? "no scenario: the text is NULL" : "no ruleset: it is NULL");
    char *s = json_dumps(o, JSON_COMPACT);
    fprintf(out, "%s\n", s);
    xfree(s);
    json_decref(o);
    return ARB_BAD_INPUT;
}

enum arb_status arb_rule_batch(const arb_ruleset *rs, const char *text, size_t len, FILE *out) {
    return arb_rule_batch_plugins(rs, NULL, text, len, out);
}

/* Out of memory: the records made so far are written before the batch's
 * blocks go (core/base/mem.h), and the wrapper adds the no_memory record. */
static void flush_unwound(void *b) {
    flush(b);
}

#define NO_MEMORY_RECORD "{\"status\":\"no_memory\",\"error\":\"" API_NO_MEMORY "\"}\n"

static enum arb_status rule_batch_plugins_unprotected(const arb_ruleset *rs,
                                                      const arb_plugins *plugins, const char *text,
                                                      size_t len, FILE *out) {
    if (!out) return ARB_BAD_INPUT; /* nowhere to say more */
    if (!rs || !text) return refuse(rs, out);
    batch b;
    batch_init(&b, rs, plugins, ARB_RECORD_JSON, out);
    int flushing = mem_defer(flush_unwound, &b);
    long line = 0;
    for (size_t at = 0; at < len;) {
        const char *start = text + at;
        const char *nl = memchr(start, '\n', len - at);
        size_t n = nl ? (size_t)(nl - start) : len - at;
        at += n + 1;
        one_line(&b, start, n, ++line);
    }
    mem_undefer(flushing);
    return batch_done(&b);
}

enum arb_status arb_rule_batch_plugins(const arb_ruleset *rs, const arb_plugins *plugins,
                                       const char *text, size_t len, FILE *out) {
    mem_guard g;
    API_PROTECT(g) {
        if (out) fputs(NO_MEMORY_RECORD, out);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = rule_batch_plugins_unprotected(rs, plugins, text, len, out);
    api_leave(&g);
    return result;
}

/* ---- a stream, a line at a time ---------------------------------------------- */

/* Room for the longest line a scenario may be, and a read beside it. */
#define READ_CHUNK (256 * 1024)

typedef struct reader {
    FILE *in;
    char *buf;
    size_t cap, start, end;
    bool eof, error;
} reader;

static void fill(reader *r) {
    if (r->start > 0) { /* the unread part to the front */
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->eof || r->end == r->cap) return;
    size_t want = r->cap - r->end < READ_CHUNK ? r->cap - r->end : READ_CHUNK;
    size_t got = fread(r->buf + r->end, 1, want, r->in);
    r->end += got;
    if (got < want) {
        r->eof = true;
        r->error = ferror(r->in) != 0;
    }
}

/* The next line (without its '\n') in *text, *n; a line longer than the
 * buffer is skipped to its end, with *n past ARB_MAX_LINE (or 0 when it was
 * blank) and *text NULL. False at the end of the input. */
static bool next_line(reader *r, const char **text, size_t *n) {
    for (;;) {
        char *from = r->buf + r->start, *nl = memchr(from, '\n', r->end - r->start);
        if (nl) {
            *text = from;
            *n = (size_t)(nl - from);
            r->start += *n + 1;
            return true;
        }
        if (r->eof) {
            if (r->start == r->end) return false;
            *text = from;
            *n = r->end - r->start;
            r->start = r->end;
            return true;
        }
        if (r->start == 0 && r->end == r->cap) break; /* a line longer than the buffer */
        fill(r);
    }
    bool text_seen = !blank(r->buf, r->end);
    for (;;) { /* skip to its end */
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        size_t upto = nl ? (size_t)(nl - r->buf) : r->end;
        text_seen = text_seen || !blank(r->buf + r->start, upto - r->start);
        if (nl || r->eof) {
            r->start = nl ? upto + 1 : r->end;
            break;
        }
        r->start = r->end = 0;
        fill(r);
    }
    *text = NULL;
    *n = text_seen ? (size_t)ARB_MAX_LINE + 1 : 0;
    return true;
}

static enum arb_status rule_stream_unprotected(const arb_ruleset *rs, const arb_plugins *plugins,
                                               enum arb_record_format format, const char *head,
                                               size_t head_len, FILE *in, FILE *out) {
    if (!out) return ARB_BAD_INPUT;
    if (!rs || (!in && !head)) return refuse(rs, out);
    if (format != ARB_RECORD_BRIEF && format != ARB_RECORD_TEXT) format = ARB_RECORD_JSON;
    reader r = {.in = in, .eof = in == NULL};
    r.cap = in ? (size_t)ARB_MAX_LINE + READ_CHUNK : 0; /* without in, head is all there is */
    if (head_len + 1 > r.cap) r.cap = head_len + 1;
    r.buf = xmalloc(r.cap);
    if (head_len) memcpy(r.buf, head, head_len);
    r.end = head_len;
    batch b;
    batch_init(&b, rs, plugins, format, out);
    int flushing = mem_defer(flush_unwound, &b);
    const char *text;
    size_t n;
    for (long line = 1; next_line(&r, &text, &n); line++) {
        if (text)
            one_line(&b, text, n, line);
        else if (n)
            rule_line(&b, "", n, line); /* too long: an error record, never read */
    }
    xfree(r.buf);
    mem_undefer(flushing);
    enum arb_status st = batch_done(&b);
    return r.error ? ARB_BAD_INPUT : st;
}

enum arb_status arb_rule_stream(const arb_ruleset *rs, const arb_plugins *plugins,
                                enum arb_record_format format, const char *head, size_t head_len,
                                FILE *in, FILE *out) {
    mem_guard g;
    API_PROTECT(g) {
        if (out) fputs(NO_MEMORY_RECORD, out);
        return ARB_NO_MEMORY;
    }
    enum arb_status result = rule_stream_unprotected(rs, plugins, format, head, head_len, in, out);
    api_leave(&g);
    return result;
}
