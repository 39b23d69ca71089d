/* scenario.c — reading situations. */
#include "scenario.h"

#include "builtins.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The part of a record a built-in reads (builtin_value gives nothing
 * without it), so that a scenario without that part skips it: */
enum { PART_ANY, PART_AUCTION, PART_CONTRACT, PART_SCORING, PART_PLAY, PART_COUNT };
_Static_assert(PART_COUNT == SCENARIO_RECORD_PARTS, "scenario.h counts the record's parts");

static unsigned char record_part(const char *ns) {
    return strcmp(ns, "auction") == 0    ? PART_AUCTION
           : strcmp(ns, "contract") == 0 ? PART_CONTRACT /* and "vulnerable" */
           : strcmp(ns, "scoring") == 0  ? PART_SCORING
           : strcmp(ns, "play") == 0     ? PART_PLAY
                                         : PART_ANY;
}

/* The parts a record has, one bit each (1 << PART_...); PART_ANY's is always set. */
static unsigned parts_present(const record *rec) {
    return 1u << PART_ANY | (unsigned)rec->has_auction << PART_AUCTION |
           (unsigned)(rec->has_contract || rec->has_vulnerable) << PART_CONTRACT |
           (unsigned)rec->has_scoring << PART_SCORING | (unsigned)rec->has_play << PART_PLAY;
}

/* Every per-fact array in one block (value first, so that freeing it frees
 * all), and the lists of the facts a record or a default may settle, so
 * that neither a ruling nor a reset walks every fact. */
void scenario_init(scenario *sc, const ruleset *rs) {
    memset(sc, 0, sizeof *sc);
    sc->rs = rs;
    size_t n = (size_t)rs->nfacts + 1;
    char *block = xcalloc(n, sizeof(int64_t) + 4 * sizeof(int) + 5 * sizeof(bool));
    sc->fv.value = (int64_t *)block;
    block = (char *)(sc->fv.value + n);
    sc->touched = (int *)block;
    sc->builtin_facts = sc->touched + n;
    sc->default_facts = sc->builtin_facts + n;
    sc->symbol_at = sc->default_facts + n;
    bool *flags = (bool *)(sc->symbol_at + n);
    sc->fv.known = flags;
    sc->given = flags + n;
    sc->corrected = flags + 2 * n;
    sc->assumed = flags + 3 * n;
    sc->listed = flags + 4 * n;
    /* the builtin facts grouped by part, in the ruleset's order within each */
    int count[PART_COUNT] = {0};
    for (int f = 0; f < rs->nfacts; f++)
        if (rs->facts[f].builtin >= 0) count[record_part(builtin_at(rs->facts[f].builtin)->ns)]++;
    for (int p = 0; p < PART_COUNT; p++)
        sc->part_end[p] = (p ? sc->part_end[p - 1] : 0) + count[p];
    size_t nsymbols = 0;
    for (int f = 0; f < rs->nfacts; f++) {
        if (rs->facts[f].has_default) sc->default_facts[sc->ndefault_facts++] = f;
        if (rs->facts[f].builtin < 0) continue;
        const builtin_desc *d = builtin_at(rs->facts[f].builtin);
        int part = record_part(d->ns), i = sc->part_end[part] - count[part]--;
        sc->symbol_at[i] = (int)nsymbols;
        nsymbols += d->type == BT_SYMBOL ? (size_t)d->nsymbols : 0;
        sc->builtin_facts[i] = f;
        sc->nbuiltin_facts++;
    }
    sc->symbol_enum = xcalloc(nsymbols + 1, sizeof *sc->symbol_enum); /* looked up when met */
}

void scenario_free(scenario *sc) {
    json_decref(sc->own);
    xfree(sc->fv.value);
    xfree(sc->symbol_enum);
    memset(sc, 0, sizeof *sc);
}

/* Remembers that fact f now holds something, for scenario_reset. */
static void touch(scenario *sc, int f) {
    if (sc->listed[f]) return;
    sc->listed[f] = true;
    sc->touched[sc->ntouched++] = f;
}

void scenario_reset(scenario *sc) {
    for (int i = 0; i < sc->ntouched; i++) {
        int f = sc->touched[i];
        sc->fv.value[f] = 0;
        sc->fv.known[f] = sc->given[f] = sc->corrected[f] = sc->assumed[f] = sc->listed[f] = false;
    }
    sc->ntouched = 0;
    record *rec = &sc->rec;
    if (rec->has_play || rec->has_kj_position_record || rec->has_kj_hand_record ||
        rec->has_kj_position || rec->has_kj_card || rec->has_kj_trick || rec->has_kj_hand) {
        memset(rec, 0, sizeof *rec);
    } else { /* what a flat line sets: each part is read only under its flag (builtin_value) */
        rec->has_auction = rec->has_contract = rec->has_vulnerable = rec->has_scoring = false;
        rec->vulnerable = false;
    }
    sc->err_line = sc->err_col = 0;
    sc->err_key = NULL;
    json_decref(sc->own);
    sc->own = NULL;
}

void scenario_give(scenario *sc, int fact, int64_t value) {
    touch(sc, fact);
    sc->fv.value[fact] = value;
    sc->fv.known[fact] = true;
    sc->given[fact] = true;
    sc->assumed[fact] = false;
}

/* The facts the scenario is silent about that have a `default` take it,
 * marked as assumed: the ruling says so, and `ask` offers to correct it. */
static void assume_defaults(const ruleset *rs, scenario *sc) {
    for (int i = 0; i < sc->ndefault_facts; i++) {
        int f = sc->default_facts[i];
        if (sc->fv.known[f]) continue;
        touch(sc, f);
        sc->fv.value[f] = rs->facts[f].default_value;
        sc->fv.known[f] = true;
        sc->assumed[f] = true;
    }
}

static void unassume(scenario *sc, int f) {
    sc->fv.known[f] = sc->assumed[f] = false;
}

/* A default is an assumption, and never makes a situation impossible: a
 * scenario that gives two playable penalty cards and says nothing of how
 * many penalty cards there are is not ruled as one card. Where what was
 * assumed breaks an invariant that what was given does not, the defaults
 * are taken one by one in order and each that would break one is left
 * unknown (asked, where the ruling needs it). True when one was. Only a
 * rejected ruling comes here: the others keep every default. */
static bool drop_breaking_defaults(const ruleset *rs, scenario *sc) {
    int *held = xmalloc(sizeof(int) * ((size_t)sc->ndefault_facts + 1)), n = 0;
    for (int i = 0; i < sc->ndefault_facts; i++) {
        int f = sc->default_facts[i];
        if (sc->assumed[f]) held[n++] = f, unassume(sc, f);
    }
    bool dropped = false, given_breaks = eval_broken_invariant(rs, &sc->fv) >= 0;
    for (int i = 0; i < n; i++) {
        sc->fv.known[held[i]] = sc->assumed[held[i]] = true;
        if (!given_breaks && eval_broken_invariant(rs, &sc->fv) >= 0)
            unassume(sc, held[i]), dropped = true;
    }
    xfree(held);
    return dropped;
}

/* r: an earlier ruling or all zero (eval_rule_again). */
static bool rule_with_hooks(const ruleset *rs, gref root, scenario *sc, ruling *r, strbuf *err) {
    const scenario_hooks *h = sc->hooks;
    assume_defaults(rs, sc);
    if (h && h->validate && !h->validate(h->ctx, sc, err)) {
        ruling_reset(r);
        r->rs = rs;
        r->status = RULING_ERROR;
        return false;
    }
    bool grounds = !sc->without_grounds || h; /* plugins may read them */
    eval_rule_again(rs, root, &sc->fv, grounds, r);
    if (r->status == RULING_REJECTED && drop_breaking_defaults(rs, sc))
        eval_rule_again(rs, root, &sc->fv, grounds, r);
    return !(h && h->after_ruling && r->status == RULING_OK &&
             !h->after_ruling(h->ctx, sc, r, err));
}

bool scenario_rule(const ruleset *rs, gref root, scenario *sc, ruling *r, strbuf *err) {
    memset(r, 0, sizeof *r);
    return rule_with_hooks(rs, root, sc, r, err);
}

bool scenario_rule_again(const ruleset *rs, gref root, scenario *sc, ruling *r, strbuf *err) {
    return rule_with_hooks(rs, root, sc, r, err);
}

void scenario_forget(scenario *sc, int fact) {
    sc->fv.known[fact] = false;
    sc->given[fact] = false;
    sc->assumed[fact] = false;
}

static void list_values(const rs_type *t, strbuf *err) {
    for (int i = 0; i < t->nvalues; i++)
        sb_printf(err, "%s%s", i ? ", " : "", t->values[i]);
}

static bool int_in_range(const rs_type *t, int64_t v) {
    return !t->bounded || (v >= t->lo && v <= t->hi);
}

/* A value from text: enum names, calls, citations and strings. */
static bool value_from_text(const ruleset *rs, const rs_fact *f, const char *s, int64_t *out,
                            strbuf *err) {
    const rs_type *t = f->type;
    switch (t->kind) {
    case TY_ENUM: {
        int i = rs_enum_index(t, s);
        if (i >= 0) {
            *out = i;
            return true;
        }
        sb_printf(err, "'%s' is not a value of fact '%s'; expected one of: ", s, f->name);
        list_values(t, err);
        return false;
    }
    case TY_CALL: {
        bridge_call c;
        char msg[160];
        if (!bridge_parse_call(s, &c, msg, sizeof msg)) {
            sb_printf(err, "fact '%s': %s", f->name, msg);
            return false;
        }
        *out = call_to_value(&c);
        return true;
    }
    case TY_CITE:
    case TY_STRING:
        for (int i = 0; i < rs->strings.len; i++)
            if (strcmp(rs_string(rs, i), s) == 0) {
                *out = i;
                return true;
            }
        sb_printf(err, "fact '%s': '%s' is not a text this ruleset knows", f->name, s);
        return false;
    default:
        sb_printf(err, "fact '%s' is %s, not a string", f->name,
                  t->kind == TY_BOOL ? "true or false" : "a number");
        return false;
    }
}

static bool value_from_json(const ruleset *rs, const rs_fact *f, json_t *j, int64_t *out,
                            strbuf *err) {
    const rs_type *t = f->type;
    if (json_is_string(j)) return value_from_text(rs, f, json_string_value(j), out, err);
    if (t->kind == TY_BOOL && json_is_boolean(j)) {
        *out = json_is_true(j);
        return true;
    }
    if (t->kind == TY_INT && json_is_integer(j)) {
        *out = json_integer_value(j);
        if (int_in_range(t, *out)) return true;
        sb_printf(err, "fact '%s' is %lld, outside %lld..%lld", f->name, (long long)*out,
                  (long long)t->lo, (long long)t->hi);
        return false;
    }
    sb_printf(err, "fact '%s' expects %s", f->name,
              t->kind == TY_BOOL  ? "true or false"
              : t->kind == TY_INT ? "an integer"
                                  : "a string");
    if (t->kind == TY_ENUM) {
        sb_puts(err, " (one of: ");
        list_values(t, err);
        sb_puts(err, ")");
    }
    return false;
}

static bool read_call_entry(json_t *item, int index, bridge_auction_entry *e, strbuf *err) {
    const char *key;
    json_t *v;
    if (!json_is_object(item)) {
        sb_printf(err,
                  "auction call %d: expected an object like {\"seat\": \"N\", \"call\": \"1S\"}",
                  index + 1);
        return false;
    }
    bool has_seat = false, has_call = false;
    json_object_foreach(item, key, v) {
        char msg[160];
        if (strcmp(key, "seat") == 0 && json_is_string(v)) {
            if (!bridge_parse_seat(json_string_value(v), &e->seat)) {
                sb_printf(err, "auction call %d: '%s' is not a seat (N, E, S or W)", index + 1,
                          json_string_value(v));
                return false;
            }
            has_seat = true;
        } else if (strcmp(key, "call") == 0 && json_is_string(v)) {
            if (!bridge_parse_call(json_string_value(v), &e->call, msg, sizeof msg)) {
                sb_printf(err, "auction call %d: %s", index + 1, msg);
                return false;
            }
            has_call = true;
        } else if (strcmp(key, "irregular") == 0 && json_is_boolean(v)) {
            e->marked_irregular = json_is_true(v);
        } else {
            sb_printf(err, "auction call %d: unexpected key '%s' (known: seat, call, irregular)",
                      index + 1, key);
            return false;
        }
    }
    if (!has_seat || !has_call) {
        sb_printf(err, "auction call %d: needs both \"seat\" and \"call\"", index + 1);
        return false;
    }
    return true;
}

static bool read_auction(json_t *obj, bridge_auction *a, strbuf *err) {
    json_t *au = json_object_get(obj, "auction"), *dealer = json_object_get(obj, "dealer");
    char msg[200];
    memset(a, 0, sizeof *a);
    if (json_is_string(au)) {
        if (!bridge_parse_auction(json_string_value(au), a, msg, sizeof msg)) {
            sb_printf(err, "auction: %s", msg);
            return false;
        }
        enum bridge_seat d;
        if (dealer && (!json_is_string(dealer) ||
                       !bridge_parse_seat(json_string_value(dealer), &d) || d != a->dealer)) {
            sb_puts(err, "\"dealer\" disagrees with the dealer the auction string names");
            return false;
        }
        return true;
    }
    if (!json_is_array(au)) {
        sb_puts(err, "\"auction\" is a list of {\"seat\", \"call\"} objects or a string such as "
                     "\"N: 1S 1H\"");
        return false;
    }
    if (!json_is_string(dealer) || !bridge_parse_seat(json_string_value(dealer), &a->dealer)) {
        sb_puts(err, "an auction needs \"dealer\": \"N\", \"E\", \"S\" or \"W\"");
        return false;
    }
    if (json_array_size(au) == 0 || json_array_size(au) > BRIDGE_MAX_CALLS) {
        sb_printf(err, "an auction has 1 to %d calls", BRIDGE_MAX_CALLS);
        return false;
    }
    size_t i;
    json_t *item;
    json_array_foreach(au, i, item) {
        if (!read_call_entry(item, (int)i, &a->calls[i], err)) return false;
    }
    a->ncalls = (int)json_array_size(au);
    return true;
}

static const char *nearest_fact(const ruleset *rs, const char *name) {
    int best = 3;
    const char *found = NULL;
    for (int i = 0; i < rs->nfacts; i++) {
        int d = edit_distance(name, rs->facts[i].name);
        if (d < best) {
            best = d;
            found = rs->facts[i].name;
        }
    }
    return found;
}

static bool is_klaverjas(const ruleset *rs) {
    return rs->game != NULL && strcmp(rs->game, "klaverjas") == 0;
}

/* The records of a klaverjas scenario: a player about to play, and a hand
 * as played; "trump" and "taker" belong to both. */
static const char *const position_keys[] = {"seat", "hand", "trick", "card", "penalty_card"};
static const char *const hand_keys[] = {"tricks", "first_leader", "roem_claimed", "hands"};
#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

static bool key_in(const char *key, const char *const *keys, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, keys[i]) == 0) return true;
    return false;
}

/* Keys the core reads itself rather than as facts: the bridge play's in a
 * bridge ruleset, the klaverjas records' in a klaverjas one. */
static bool is_record_key(const ruleset *rs, const char *key) {
    static const char *const common[] = {"auction", "dealer", "contract", "vulnerable"};
    static const char *const bridge_play[] = {"deal", "play", "declarer", "trump"};
    if (key_in(key, common, COUNT_OF(common))) return true;
    if (!is_klaverjas(rs)) return key_in(key, bridge_play, COUNT_OF(bridge_play));
    return strcmp(key, "trump") == 0 || strcmp(key, "taker") == 0 ||
           key_in(key, position_keys, COUNT_OF(position_keys)) ||
           key_in(key, hand_keys, COUNT_OF(hand_keys));
}

static bool read_contract(scenario *sc, json_t *obj, strbuf *err) {
    json_t *c = json_object_get(obj, "contract"), *v = json_object_get(obj, "vulnerable");
    if (c) {
        char msg[200];
        if (!json_is_string(c) ||
            !bridge_parse_contract(json_string_value(c), &sc->rec.contract, msg, sizeof msg)) {
            sb_printf(err, "contract: %s",
                      json_is_string(c) ? msg : "a string such as \"4SX+1\" or \"PASS\"");
            return false;
        }
        sc->rec.has_contract = true;
    }
    if (v) {
        if (!json_is_boolean(v)) {
            sb_puts(err, "\"vulnerable\" is true or false (the declaring side's vulnerability)");
            return false;
        }
        sc->rec.has_vulnerable = true;
        sc->rec.vulnerable = json_is_true(v);
    }
    return true;
}

/* "trump": a denomination as a bid names it (C, D, H, S, NT; Dutch K, R, SA). */
static bool read_trump(const scenario *sc, json_t *tr, int *trump, strbuf *err) {
    static const struct {
        const char *word;
        enum bridge_denom denom;
    } words[] = {
        {"C", DENOM_C}, {"K", DENOM_C}, {"D", DENOM_D},   {"R", DENOM_D},
        {"H", DENOM_H}, {"S", DENOM_S}, {"NT", DENOM_NT}, {"SA", DENOM_NT},
    };
    const record *rec = &sc->rec;
    if (rec->has_contract && rec->contract.passed_out) {
        sb_puts(err, "\"play\" with a passed-out \"contract\": a board passed out is not played");
        return false;
    }
    if (!tr) {
        if (!rec->has_contract) {
            sb_puts(
                err,
                "\"play\" needs \"trump\" (C, D, H, S or NT) or a \"contract\" to take it from");
            return false;
        }
        *trump = (int)rec->contract.denom;
        return true;
    }
    for (size_t i = 0; json_is_string(tr) && i < sizeof words / sizeof *words; i++)
        if (strcasecmp(json_string_value(tr), words[i].word) == 0) {
            *trump = (int)words[i].denom;
            if (rec->has_contract && *trump != (int)rec->contract.denom) {
                sb_puts(err, "\"trump\" disagrees with the denomination of the \"contract\"");
                return false;
            }
            return true;
        }
    sb_puts(err, "\"trump\" is \"C\", \"D\", \"H\", \"S\" or \"NT\"");
    return false;
}

static bool read_card_entry(json_t *item, int index, bridge_play *p, strbuf *err) {
    const char *key;
    json_t *v;
    if (!json_is_object(item)) {
        sb_printf(err, "play %d: expected an object like {\"seat\": \"W\", \"card\": \"SK\"}",
                  index + 1);
        return false;
    }
    bool has_seat = false, has_card = false;
    json_object_foreach(item, key, v) {
        char msg[160];
        if (strcmp(key, "seat") == 0 && json_is_string(v)) {
            if (!bridge_parse_seat(json_string_value(v), &p->plays[index].seat)) {
                sb_printf(err, "play %d: '%s' is not a seat (N, E, S or W)", index + 1,
                          json_string_value(v));
                return false;
            }
            has_seat = true;
        } else if (strcmp(key, "card") == 0 && json_is_string(v)) {
            if (!bridge_parse_card(json_string_value(v), &p->plays[index].card, msg, sizeof msg)) {
                sb_printf(err, "play %d: %s", index + 1, msg);
                return false;
            }
            has_card = true;
        } else {
            sb_printf(err, "play %d: unexpected key '%s' (known: seat, card)", index + 1, key);
            return false;
        }
    }
    if (!has_seat || !has_card) {
        sb_printf(err, "play %d: needs both \"seat\" and \"card\"", index + 1);
        return false;
    }
    return true;
}

static bool read_cards_played(json_t *pl, bridge_play *p, strbuf *err) {
    char msg[200];
    if (json_is_string(pl)) {
        if (bridge_parse_play(json_string_value(pl), p, msg, sizeof msg)) return true;
        sb_printf(err, "play: %s", msg);
        return false;
    }
    if (!json_is_array(pl)) {
        sb_puts(err, "\"play\" is a string such as \"W:SK N:S2 E:S5 S:SA\" or a list of {\"seat\", "
                     "\"card\"} objects");
        return false;
    }
    if (json_array_size(pl) == 0 || json_array_size(pl) > BRIDGE_MAX_PLAYS) {
        sb_printf(err, "a play record has 1 to %d cards", BRIDGE_MAX_PLAYS);
        return false;
    }
    size_t i;
    json_t *item;
    json_array_foreach(pl, i, item) {
        if (!read_card_entry(item, (int)i, p, err)) return false;
    }
    p->nplays = (int)json_array_size(pl);
    return true;
}

static bool analyse_play(scenario *sc, strbuf *err) {
    char msg[300];
    if (!bridge_analyse_play(&sc->rec.play, &sc->rec.play_facts, msg, sizeof msg)) {
        sb_printf(err, "impossible play: %s", msg);
        return false;
    }
    sc->rec.has_play = true;
    return true;
}

/* "play" with "declarer", "trump" (or "contract") and, optionally, "deal". */
static bool read_play(scenario *sc, json_t *obj, strbuf *err) {
    json_t *pl = json_object_get(obj, "play"), *deal = json_object_get(obj, "deal");
    json_t *declarer = json_object_get(obj, "declarer"), *trump = json_object_get(obj, "trump");
    if (!pl) {
        const char *stray = deal ? "deal" : declarer ? "declarer" : trump ? "trump" : NULL;
        if (stray)
            sb_printf(err, "\"%s\" without \"play\": give the cards played too, or leave it out",
                      stray);
        return stray == NULL;
    }
    bridge_play *p = &sc->rec.play;
    memset(p, 0, sizeof *p);
    if (!json_is_string(declarer) ||
        !bridge_parse_seat(json_string_value(declarer), &p->declarer)) {
        sb_puts(err, "\"play\" needs \"declarer\": \"N\", \"E\", \"S\" or \"W\"");
        return false;
    }
    p->first_leader =
        bridge_seat_at(p->declarer, REL_LHO); /* Art. 41A: declarer's LHO leads to trick 1 */
    if (!read_trump(sc, trump, &p->trump, err)) return false;
    if (deal) {
        char msg[200];
        if (!json_is_string(deal) ||
            !bridge_parse_deal(json_string_value(deal), &p->deal, msg, sizeof msg)) {
            sb_printf(err, "deal: %s",
                      json_is_string(deal) ? msg
                                           : "a PBN string such as \"N:AKQ2.JT9.876.543 - - -\"");
            return false;
        }
        p->has_deal = true;
    }
    return read_cards_played(pl, p, err) && analyse_play(sc, err);
}

/* ---- klaverjas records ---- */

static bool has_any_key(json_t *obj, const char *const *keys, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (json_object_get(obj, keys[i])) return true;
    return false;
}

/* ok, and where it is not, the key the error is placed at (its line and
 * column: scenario_read_json) */
static bool at_key(scenario *sc, const char *key, bool ok) {
    if (!ok) sc->err_key = key;
    return ok;
}

static bool read_kj_seat(json_t *v, const char *key, enum bridge_seat *out, strbuf *err) {
    if (json_is_string(v) && bridge_parse_seat(json_string_value(v), out)) return true;
    sb_printf(err, "\"%s\" is \"N\", \"E\", \"S\" or \"W\"", key);
    return false;
}

/* A JSON string of cards, "HJ H9 SA", at most max of them. */
static bool read_kj_cards(json_t *v, const char *what, kj_card *list, int max, int *n,
                          strbuf *err) {
    char msg[200];
    if (!json_is_string(v)) {
        sb_printf(err, "%s: a string of cards such as \"HJ H9 SA\"", what);
        return false;
    }
    if (kj_parse_cards(json_string_value(v), list, max, n, msg, sizeof msg)) return true;
    sb_printf(err, "%s: %s", what, msg);
    return false;
}

static bool read_kj_trick(json_t *v, const char *what, kj_trick *t, strbuf *err) {
    char msg[200];
    if (!json_is_string(v)) {
        sb_printf(err, "%s: a string such as \"E:S7 SA S8 S10\"", what);
        return false;
    }
    if (kj_parse_trick(json_string_value(v), t, msg, sizeof msg)) return true;
    sb_printf(err, "%s: %s", what, msg);
    return false;
}

/* "penalty_card": a card of the hand that lies face up as a penalty card. */
static bool read_kj_penalty_card(json_t *v, kj_position *p, strbuf *err) {
    char msg[200];
    p->has_penalty_card = v != NULL;
    if (!v) return true;
    if (!json_is_string(v) ||
        !kj_parse_card(json_string_value(v), &p->penalty_card, msg, sizeof msg)) {
        sb_printf(err, "penalty_card: %s", json_is_string(v) ? msg : "a card such as \"SA\"");
        return false;
    }
    return true;
}

/* "seat", "hand", optionally "trick" (empty or absent: the player leads),
 * "penalty_card" and "card": the one card the position facts are settled
 * for. */
static bool read_kj_position(scenario *sc, json_t *obj, strbuf *err) {
    kj_position *p = &sc->rec.kj_position_record;
    json_t *trick = json_object_get(obj, "trick"), *card = json_object_get(obj, "card");
    char msg[200];
    if (!at_key(sc, "seat", read_kj_seat(json_object_get(obj, "seat"), "seat", &p->seat, err)))
        return false;
    if (!json_object_get(obj, "hand")) {
        sb_puts(err,
                "a position needs \"hand\": the cards the player holds, e.g. \"S9 SK H7 D10\"");
        return false;
    }
    if (!at_key(sc, "hand",
                read_kj_cards(json_object_get(obj, "hand"), "hand", p->hand, KJ_HAND_SIZE,
                              &p->ncards, err)))
        return false;
    if (trick && !at_key(sc, "trick", read_kj_trick(trick, "trick", &p->trick, err))) return false;
    if (!at_key(sc, "penalty_card",
                read_kj_penalty_card(json_object_get(obj, "penalty_card"), p, err)))
        return false;
    if (!trick || (p->trick.ncards == 0 && !strchr(json_string_value(trick), ':')))
        p->trick.leader = p->seat;
    if (!kj_check_position(p, msg, sizeof msg)) {
        sb_printf(err, "impossible position: %s", msg);
        return false;
    }
    kj_settle_position(p, &sc->rec.kj_tables, &sc->rec.kj_position);
    sc->rec.has_kj_position_record = sc->rec.has_kj_position = true;
    if (!card) return true;
    kj_card c;
    sc->err_key = "card";
    if (!json_is_string(card) || !kj_parse_card(json_string_value(card), &c, msg, sizeof msg)) {
        sb_printf(err, "card: %s", json_is_string(card) ? msg : "a card such as \"SA\"");
        return false;
    }
    if (!kj_holds(p, c)) {
        sb_printf(err, "impossible position: %s does not hold %s", bridge_seat_name(p->seat),
                  json_string_value(card));
        return false;
    }
    kj_settle_card(p, c, &sc->rec.kj_tables, &sc->rec.kj_card);
    sc->rec.has_kj_card = true;
    return true;
}

static bool read_kj_roem_claims(json_t *v, kj_hand *h, strbuf *err) {
    size_t i;
    json_t *item;
    if (!json_is_array(v)) {
        sb_puts(err, "\"roem_claimed\" is a list of trick numbers, e.g. [3, 7]");
        return false;
    }
    json_array_foreach(v, i, item) {
        json_int_t n = json_is_integer(item) ? json_integer_value(item) : 0;
        if (n < 1 || n > KJ_TRICKS || h->roem_claimed[n - 1]) {
            sb_printf(err, "roem_claimed: entry %d is %s", (int)i + 1,
                      n < 1 || n > KJ_TRICKS ? "not a trick number 1..8" : "a trick named twice");
            return false;
        }
        h->roem_claimed[n - 1] = true;
    }
    return true;
}

/* "hands": {"N": "HJ H9 …", …}; a seat left out is not known. */
static bool read_kj_dealt(json_t *v, kj_hand *h, strbuf *err) {
    const char *key;
    json_t *hand;
    if (!json_is_object(v)) {
        sb_puts(err,
                "\"hands\" is an object of the hands dealt, e.g. {\"N\": \"HJ H9 …\", \"E\": …}");
        return false;
    }
    json_object_foreach(v, key, hand) {
        enum bridge_seat seat;
        kj_card cards[KJ_HAND_SIZE];
        int n = 0;
        char what[32];
        if (!bridge_parse_seat(key, &seat)) {
            sb_printf(err, "hands: '%s' is not a seat (N, E, S or W)", key);
            return false;
        }
        snprintf(what, sizeof what, "%s's hand", bridge_seat_name(seat));
        if (!read_kj_cards(hand, what, cards, KJ_HAND_SIZE, &n, err)) return false;
        h->known[seat] = true;
        h->dealt[seat] = 0;
        for (int k = 0; k < n; k++)
            h->dealt[seat] |= kj_card_bit(cards[k]);
    }
    return true;
}

static bool read_kj_tricks(json_t *v, kj_hand *h, strbuf *err) {
    size_t i;
    json_t *item;
    if (!json_is_array(v) || json_array_size(v) > KJ_TRICKS) {
        sb_puts(err, "\"tricks\" is a list of up to eight tricks, e.g. [\"E:S7 SA S8 S10\", …]");
        return false;
    }
    json_array_foreach(v, i, item) {
        char what[24];
        snprintf(what, sizeof what, "trick %d", (int)i + 1);
        if (!read_kj_trick(item, what, &h->tricks[i], err)) return false;
    }
    h->ntricks = (int)json_array_size(v);
    return true;
}

/* "taker", "tricks" and optionally "first_leader", "roem_claimed", "hands";
 * the record is checked, but its trick.* and hand.* facts are settled only
 * by `arbiter score`, one trick at a time. */
static bool read_kj_hand(scenario *sc, json_t *obj, int trump, strbuf *err) {
    kj_hand *h = &sc->rec.kj_hand_record;
    json_t *leader = json_object_get(obj, "first_leader"),
           *roem = json_object_get(obj, "roem_claimed");
    json_t *dealt = json_object_get(obj, "hands");
    char msg[300];
    memset(h, 0, sizeof *h);
    h->trump = trump;
    if (!json_object_get(obj, "taker")) {
        sb_puts(err, "a hand record needs \"taker\": the player who plays the game");
        return false;
    }
    if (!at_key(sc, "taker", read_kj_seat(json_object_get(obj, "taker"), "taker", &h->taker, err)))
        return false;
    if (!json_object_get(obj, "tricks")) {
        sb_puts(err,
                "a hand record needs \"tricks\": the tricks played, e.g. [\"E:S7 SA S8 S10\", …]");
        return false;
    }
    if (!at_key(sc, "tricks", read_kj_tricks(json_object_get(obj, "tricks"), h, err))) return false;
    if (leader &&
        !at_key(sc, "first_leader", read_kj_seat(leader, "first_leader", &h->first_leader, err)))
        return false;
    h->has_first_leader = leader != NULL;
    if (roem && !at_key(sc, "roem_claimed", read_kj_roem_claims(roem, h, err))) return false;
    if (dealt && !at_key(sc, "hands", read_kj_dealt(dealt, h, err))) return false;
    if (!kj_check_hand(h, &sc->rec.kj_tables, msg, sizeof msg)) {
        sb_printf(err, "impossible hand: %s", msg);
        return false;
    }
    sc->rec.has_kj_hand_record = true;
    return true;
}

/* A klaverjas scenario's records: a position ("seat", "hand", …), a hand
 * as played ("tricks", …) or both, with "trump" and, mostly, "taker". */
static bool read_klaverjas(scenario *sc, json_t *obj, strbuf *err) {
    bool position = has_any_key(obj, position_keys, COUNT_OF(position_keys));
    bool hand = has_any_key(obj, hand_keys, COUNT_OF(hand_keys));
    json_t *trump = json_object_get(obj, "trump"), *taker = json_object_get(obj, "taker");
    char msg[200];
    if (!position && !hand) {
        const char *stray = trump ? "trump" : taker ? "taker" : NULL;
        if (stray)
            sb_printf(err,
                      "\"%s\" without \"tricks\" or a position (\"seat\", \"hand\"): give those "
                      "too, or leave it out",
                      stray);
        return stray == NULL;
    }
    if (!kj_tables_load(sc->rs, &sc->rec.kj_tables, msg, sizeof msg)) {
        sb_printf(err, "klaverjas: %s", msg);
        return false;
    }
    int suit;
    if (!json_is_string(trump) || !kj_parse_suit(json_string_value(trump), &suit)) {
        if (trump) sc->err_key = "trump";
        sb_puts(err, "a klaverjas record needs \"trump\": \"H\", \"S\", \"D\" (or \"R\") or \"C\" "
                     "(or \"K\")");
        return false;
    }
    kj_position *p = &sc->rec.kj_position_record;
    p->trump = suit;
    p->has_taker = taker != NULL;
    if (taker && !at_key(sc, "taker", read_kj_seat(taker, "taker", &p->taker, err))) return false;
    if (position && !read_kj_position(sc, obj, err)) return false;
    return !hand || read_kj_hand(sc, obj, suit, err);
}

void scenario_forget_record(scenario *sc) {
    for (int i = 0; i < sc->nbuiltin_facts; i++)
        if (!sc->given[sc->builtin_facts[i]]) sc->fv.known[sc->builtin_facts[i]] = false;
}

/* "corrected": the facts a record settles whose value the director has
 * corrected (an artificial bid the record reads as natural, a call he
 * judges otherwise): the value the scenario gives for them wins. */
static bool read_corrected(scenario *sc, json_t *list, strbuf *err) {
    const ruleset *rs = sc->rs;
    if (!json_is_array(list)) {
        sb_puts(err, "\"corrected\" is a list of the facts whose record value the director "
                     "corrected, e.g. [\"lho_called\"]");
        return false;
    }
    size_t i;
    json_t *name;
    json_array_foreach(list, i, name) {
        int f = json_is_string(name) ? rs_find_fact(rs, json_string_value(name)) : -1;
        if (f < 0) {
            sb_printf(err, "\"corrected\": item %zu is not a fact of %s", i + 1, rs->name);
            return false;
        }
        if (rs->facts[f].builtin < 0 &&
            !rs->facts[f].has_default) { /* a default is corrected by giving a value */
            sb_printf(err,
                      "\"corrected\": '%s' is neither filled from a record nor assumed; just give "
                      "its value",
                      rs->facts[f].name);
            return false;
        }
        touch(sc, f);
        sc->corrected[f] = true;
    }
    return true;
}

bool scenario_read_object(scenario *sc, json_t *obj, strbuf *err) {
    const ruleset *rs = sc->rs;
    if (!json_is_object(obj)) {
        sb_puts(
            err,
            "a scenario is a JSON object of facts, e.g. {\"irregularity\": \"insufficient_bid\"}");
        return false;
    }
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        if (key[0] == '_' || is_record_key(rs, key)) continue;
        sc->err_key = key;
        if (strcmp(key, "corrected") == 0) {
            if (!read_corrected(sc, v, err)) return false;
            continue;
        }
        int f = rs_find_fact(rs, key);
        if (f < 0 && sc->hooks && sc->hooks->own_fact) {
            bool taken = false;
            if (!sc->hooks->own_fact(sc->hooks->ctx, key, v, &taken, err)) return false;
            if (taken) {
                if (!sc->own) sc->own = json_object();
                json_object_set(sc->own, key, v);
                continue;
            }
        }
        if (f < 0) {
            const char *near = nearest_fact(rs, key);
            sb_printf(err, "unknown fact '%s'", key);
            if (near)
                sb_printf(err, "; did you mean '%s'?", near);
            else
                sb_printf(err, " (`arbiter ask --ruleset %s` lists the questions)", rs->name);
            return false;
        }
        if (rs->facts[f].derived >= 0) {
            sb_printf(err, "'%s' is derived from other facts; give those instead", key);
            return false;
        }
        int64_t value;
        if (!value_from_json(rs, &rs->facts[f], v, &value, err)) return false;
        scenario_give(sc, f, value);
    }
    sc->err_key = json_object_get(obj, "contract") ? "contract" : NULL;
    if (!read_contract(sc, obj, err)) return false;
    sc->err_key = !is_klaverjas(rs) && json_object_get(obj, "play") ? "play" : NULL;
    if (is_klaverjas(rs) ? !read_klaverjas(sc, obj, err) : !read_play(sc, obj, err)) return false;
    sc->err_key = NULL;
    if (json_object_get(obj, "auction")) {
        bridge_auction a;
        sc->err_key = "auction";
        if (!read_auction(obj, &a, err)) return false;
        return scenario_set_auction(sc, &a, err);
    }
    if (json_object_get(obj, "dealer")) {
        sc->err_key = "dealer";
        sb_puts(err, "\"dealer\" without \"auction\": give the calls too, or leave both out");
        return false;
    }
    return scenario_apply_record(sc, err);
}

/* Where the top-level key `key` of a JSON object's text starts (its opening
 * quote): jansson keeps no positions once it has parsed, so a value refused
 * for its meaning is found again in the text. Keys written with escapes are
 * not matched (the position is then left out). */
static bool top_level_key_at(const char *text, size_t len, const char *key, int *line, int *col) {
    size_t klen = strlen(key);
    int depth = 0, ln = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n') {
            ln++;
            line_start = i + 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == '"') {
            size_t start = i++;
            while (i < len && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            size_t j = i + 1;
            while (j < len &&
                   (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
                j++;
            bool is_key = depth == 1 && j < len && text[j] == ':';
            if (is_key && i - start - 1 == klen && memcmp(text + start + 1, key, klen) == 0) {
                *line = ln;
                *col = utf8_column(text + line_start, text + start);
                return true;
            }
        }
    }
    return false;
}

bool scenario_read_json(scenario *sc, const char *text, size_t len, strbuf *err) {
    json_error_t je;
    sc->err_line = sc->err_col = 0;
    json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    const char *nul = obj ? NULL : memchr(text, '\0', len);
    if (nul && je.position >= nul - text) {
        /* jansson ends the text there and says "end of file expected near
         * end of file": say what is there instead */
        sc->err_line = 1;
        for (const char *p = text; p < nul; p++)
            sc->err_line += *p == '\n';
        sc->err_col = utf8_column(text, nul);
        sb_puts(err, "a NUL byte: a scenario is JSON text, which holds none");
        return false;
    }
    if (!obj) {
        sc->err_line = je.line;
        sc->err_col = je.column > 0 ? je.column : 1; /* jansson says 0 at a line's start */
        sb_printf(err, "invalid JSON: %s", je.text);
        return false;
    }
    sc->err_key = NULL;
    bool ok = scenario_read_object(sc, obj, err);
    if (!ok && sc->err_key) top_level_key_at(text, len, sc->err_key, &sc->err_line, &sc->err_col);
    sc->err_key = NULL; /* it lives in obj */
    json_decref(obj);
    return ok;
}

bool scenario_read_json_placed(scenario *sc, const char *text, size_t len, strbuf *err) {
    strbuf why;
    sb_init(&why);
    bool ok = scenario_read_json(sc, text, len, &why);
    if (!ok && sc->err_line > 0)
        sb_printf(err, "line %d, column %d: %s", sc->err_line, sc->err_col,
                  why.data ? why.data : "");
    else if (!ok)
        sb_puts(err, why.data ? why.data : "");
    sb_free(&why);
    return ok;
}

/* The value a record gives fact f (the i-th of the builtin facts). A
 * symbol is one of the built-in's own constant strings, so its address
 * finds its enum index, looked up the first time it is met (kept plus one:
 * 0 is not yet). */
static bool record_value(const rs_fact *f, scenario *sc, int i, int64_t *out) {
    const char *symbol = NULL;
    if (!builtin_value(f->builtin, &sc->rec, out, &symbol)) return false;
    if (!symbol) return true;
    const builtin_desc *d = builtin_at(f->builtin);
    for (int k = 0; k < d->nsymbols; k++) {
        if (d->symbols[k] != symbol) continue;
        int64_t *known = &sc->symbol_enum[sc->symbol_at[i] + k];
        if (!*known) *known = rs_enum_index(f->type, symbol) + 1;
        return (*out = *known - 1) >= 0;
    }
    *out = rs_enum_index(f->type, symbol); /* the compiler checked that it is listed */
    return *out >= 0;
}

/* Built-in i settles its fact from the record, if the record says it;
 * false (with err) where the value is out of range or contradicts one
 * given. */
static bool apply_builtin(scenario *sc, int i, strbuf *err) {
    const ruleset *rs = sc->rs;
    int f = sc->builtin_facts[i];
    const rs_fact *fact = &rs->facts[f];
    int64_t v;
    if (!record_value(fact, sc, i, &v)) return true;
    if (fact->type->kind == TY_INT && !int_in_range(fact->type, v)) {
        sb_printf(err, "the %s settles '%s' as %lld, outside %lld..%lld",
                  builtin_at(fact->builtin)->ns, fact->name, (long long)v,
                  (long long)fact->type->lo, (long long)fact->type->hi);
        return false;
    }
    if (sc->given[f]) {
        if (fact->overridable || sc->corrected[f] || sc->fv.value[f] == v) return true;
        strbuf shown;
        sb_init(&shown);
        rs_format_value(rs, fact->type, v, FMT_NAME, &shown);
        sb_printf(err, "the %s settles '%s' as %s, the scenario says otherwise",
                  builtin_at(fact->builtin)->ns, fact->name, shown.data);
        sb_free(&shown);
        return false;
    }
    touch(sc, f);
    sc->fv.value[f] = v;
    sc->fv.known[f] = true;
    return true;
}

bool scenario_apply_record(scenario *sc, strbuf *err) {
    unsigned present = parts_present(&sc->rec);
    for (int part = 0, i = 0; part < PART_COUNT; i = sc->part_end[part++]) {
        if (!(present >> part & 1)) continue; /* none of its facts */
        for (; i < sc->part_end[part]; i++)
            if (!apply_builtin(sc, i, err)) return false;
    }
    return true;
}

bool scenario_set_auction(scenario *sc, const bridge_auction *a, strbuf *err) {
    char msg[300];
    /* the calls made, not the whole array: a batch sets one on every line */
    sc->rec.auction.dealer = a->dealer;
    sc->rec.auction.ncalls = a->ncalls;
    memcpy(sc->rec.auction.calls, a->calls, sizeof *a->calls * (size_t)a->ncalls);
    if (!bridge_analyse(a, &sc->rec.auction_facts, msg, sizeof msg)) {
        sb_printf(err, "impossible auction: %s", msg);
        return false;
    }
    sc->rec.has_auction = true;
    return scenario_apply_record(sc, err);
}

bool scenario_set_play(scenario *sc, const bridge_play *p, strbuf *err) {
    if (p != &sc->rec.play) sc->rec.play = *p;
    return analyse_play(sc, err) && scenario_apply_record(sc, err);
}

static bool answer_bool(const char *s, int64_t *out) {
    static const char *const yes[] = {"ja", "j", "yes", "y", "true", "1"};
    static const char *const no[] = {"nee", "n", "no", "false", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (strcasecmp(s, yes[i]) == 0) return (*out = 1), true;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (strcasecmp(s, no[i]) == 0) return (*out = 0), true;
    return false;
}

bool scenario_parse_answer(const ruleset *rs, int fact, const char *text, int64_t *out,
                           strbuf *err) {
    const rs_fact *f = &rs->facts[fact];
    const rs_type *t = f->type;
    if (t->kind == TY_BOOL) {
        if (answer_bool(text, out)) return true;
        sb_puts(err, "answer ja or nee");
        return false;
    }
    if (t->kind == TY_ENUM) {
        char *end;
        long n = strtol(text, &end, 10);
        if (*text && !*end && n >= 1 && n <= t->nvalues) return (*out = n - 1), true;
        for (int i = 0; i < t->nvalues; i++)
            if (strcasecmp(text, t->values[i]) == 0 ||
                (t->labels[i] && strcasecmp(text, t->labels[i]) == 0))
                return (*out = i), true;
        sb_printf(err, "answer a number from 1 to %d or one of: ", t->nvalues);
        list_values(t, err);
        return false;
    }
    if (t->kind == TY_INT) {
        char *end;
        errno = 0;
        long long n = strtoll(text, &end, 10); /* past 64 bits: ERANGE, not the largest number */
        if (*text && !*end && errno != ERANGE && int_in_range(t, n)) return (*out = n), true;
        if (t->bounded)
            sb_printf(err, "answer a whole number from %lld to %lld", (long long)t->lo,
                      (long long)t->hi);
        else
            sb_puts(err, "answer a whole number");
        return false;
    }
    return value_from_text(rs, f, text, out, err);
}

/* ---- many scenarios: names by hash, flat lines without a DOM ------------- */

/* An entry of the index: a fact's name (type NULL) or the name of a value
 * of an enum type. */
typedef struct index_slot {
    const char *name;
    size_t len;
    const rs_type *type;
    int value; /* the fact, or the value's index */
} index_slot;

/* What a key that is no fact is to a flat line: a record it reads itself,
 * or a key that jansson's path reads. */
enum { INDEX_OTHER_KEY = -2, INDEX_FLAT_RECORD = -3 /* down to -3 - (FLAT_RECORDS - 1) */ };
/* The records a flat line may hold, in the order of keys[] below. */
enum flat_record { FLAT_AUCTION, FLAT_DEALER, FLAT_CONTRACT, FLAT_VULNERABLE, FLAT_RECORDS };

#define FLAT_MAX_FIELDS 48 /* members of a flat line; more go to jansson */

/* The key last seen at a member's place in a line: the lines of a batch
 * mostly name the same keys in the same order, and one comparison then
 * finds the fact. */
#define MEMO_KEY 40

typedef struct key_memo {
    char key[MEMO_KEY];
    size_t len; /* 0: none */
    int value;
} key_memo;

struct scenario_index {
    const ruleset *rs;
    index_slot *slots;
    size_t mask;
    key_memo *memo;                /* FLAT_MAX_FIELDS of them */
    const index_slot **last_value; /* per fact: the enum value it last took, or NULL */
};

/* Eight bytes a step (names are short, and looked up on every line). */
static uint64_t index_hash(const rs_type *type, const char *name, size_t len) {
    uint64_t h = hash_step((uint64_t)(uintptr_t)type, len);
    for (; len >= 8; name += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, name, 8);
        h = hash_step(h, w);
    }
    uint64_t tail = 0;
    memcpy(&tail, name, len);
    return hash_step(h, tail);
}

static void index_put(scenario_index *ix, const rs_type *type, const char *name, int value) {
    size_t len = strlen(name);
    for (size_t i = index_hash(type, name, len) & ix->mask;; i = (i + 1) & ix->mask) {
        index_slot *s = &ix->slots[i];
        if (!s->name) {
            *s = (index_slot){name, len, type, value};
            return;
        }
        if (s->type == type && s->len == len && memcmp(s->name, name, len) == 0)
            return; /* the first wins */
    }
}

static const index_slot *slot_of_name(const scenario_index *ix, const rs_type *type,
                                      const char *name, size_t len) {
    for (size_t i = index_hash(type, name, len) & ix->mask;; i = (i + 1) & ix->mask) {
        const index_slot *s = &ix->slots[i];
        if (!s->name) return NULL;
        if (s->type == type && s->len == len && memcmp(s->name, name, len) == 0) return s;
    }
}

static int index_get(const scenario_index *ix, const rs_type *type, const char *name, size_t len) {
    for (size_t i = index_hash(type, name, len) & ix->mask;; i = (i + 1) & ix->mask) {
        const index_slot *s = &ix->slots[i];
        if (!s->name) return -1;
        if (s->type == type && s->len == len && memcmp(s->name, name, len) == 0) return s->value;
    }
}

scenario_index *scenario_index_new(const ruleset *rs) {
    size_t n = (size_t)rs->nfacts + 32; /* and the record keys below */
    for (int f = 0; f < rs->nfacts; f++)
        if (rs->facts[f].type->kind == TY_ENUM) n += (size_t)rs->facts[f].type->nvalues;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    scenario_index *ix = xcalloc(1, sizeof *ix);
    if (!ix || !(ix->slots = xcalloc(cap, sizeof *ix->slots)) ||
        !(ix->memo = xcalloc(FLAT_MAX_FIELDS, sizeof *ix->memo)) ||
        !(ix->last_value = xcalloc((size_t)rs->nfacts + 1, sizeof *ix->last_value)))
        abort();
    ix->rs = rs;
    ix->mask = cap - 1;
    /* the keys the core reads itself go first: scenario_read_object takes
     * them as records even where a fact has the same name */
    static const char *const keys[] = {
        "auction", "dealer",       "contract",     "vulnerable", "deal",     "play", "declarer",
        "trump",   "taker",        "seat",         "hand",       "trick",    "card", "penalty_card",
        "tricks",  "first_leader", "roem_claimed", "hands",      "corrected"};
    for (size_t k = 0; k < COUNT_OF(keys); k++)
        if (is_record_key(rs, keys[k]) || strcmp(keys[k], "corrected") == 0)
            index_put(ix, NULL, keys[k],
                      k < FLAT_RECORDS ? INDEX_FLAT_RECORD - (int)k : INDEX_OTHER_KEY);
    for (int f = 0; f < rs->nfacts; f++) {
        const rs_type *t = rs->facts[f].type;
        index_put(ix, NULL, rs->facts[f].name, f); /* rs_find_fact takes the first too */
        for (int v = 0; t->kind == TY_ENUM && v < t->nvalues; v++)
            index_put(ix, t, t->values[v], v);
    }
    return ix;
}

void scenario_index_free(scenario_index *ix) {
    if (!ix) return;
    xfree(ix->slots);
    xfree(ix->memo);
    xfree(ix->last_value);
    xfree(ix);
}

int scenario_index_fact(const scenario_index *ix, const char *name, size_t len) {
    int f = index_get(ix, NULL, name, len);
    return f >= 0 ? f : -1;
}

/* One member of a flat object: its key and a string, true/false or an
 * integer (kind 's', 'b', 'i'). Strings are as written: without escapes. */
typedef struct flat_field {
    const char *key, *str;
    size_t klen, slen;
    char kind;
    int64_t num;
} flat_field;

static const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    return p;
}

/* A string without escapes, control characters or bytes past ASCII (those
 * go to jansson, which checks and decodes them). */
static const char *scan_string(const char *p, const char *end, const char **s, size_t *n) {
    if (p >= end || *p != '"') return NULL;
    const char *q = ++p;
    while (end - q >= 8) { /* eight bytes a step: where one is '"', '\\', a control byte or past
                              ASCII, the first such byte is found by its bit */
        uint64_t w;
        memcpy(&w, q, 8);
        const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
        uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');
        uint64_t hit =
            ((w - ones * 0x20) & ~w) | w | ((quote - ones) & ~quote) | ((slash - ones) & ~slash);
        hit &= highs;
        if (!hit) {
            q += 8;
            continue;
        }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        q += __builtin_ctzll(hit) / 8; /* the first flagged byte is a true one */
        if (*q != '"') return NULL;    /* a control byte, a backslash or past ASCII */
        goto closed;
#else
        break;
#endif
    }
    while (q < end && *q != '"') {
        unsigned char c = (unsigned char)*q;
        if ((unsigned char)(c - 0x20) >= 0x60 || c == '\\')
            return NULL; /* below 0x20 or past 0x7f */
        q++;
    }
    if (q >= end) return NULL;
closed:
    *s = p;
    *n = (size_t)(q - p);
    return q + 1;
}

static const char *scan_value(const char *p, const char *end, flat_field *f) {
    if (p >= end) return NULL;
    if (*p == '"') {
        f->kind = 's';
        return scan_string(p, end, &f->str, &f->slen);
    }
    if (end - p >= 4 && memcmp(p, "true", 4) == 0) return f->kind = 'b', f->num = 1, p + 4;
    if (end - p >= 5 && memcmp(p, "false", 5) == 0) return f->kind = 'b', f->num = 0, p + 5;
    bool neg = *p == '-';
    const char *d = p + neg;
    if (d >= end || *d < '0' || *d > '9' ||
        (*d == '0' && d + 1 < end && d[1] >= '0' && d[1] <= '9'))
        return NULL;
    int64_t v = 0;
    int digits = 0;
    for (; d < end && *d >= '0' && *d <= '9'; d++, digits++)
        if (digits < 18) v = v * 10 + (*d - '0'); /* past 18 digits it would overflow */
    if (digits > 18 || (d < end && (*d == '.' || *d == 'e' || *d == 'E')))
        return NULL; /* jansson's */
    f->kind = 'i';
    f->num = neg ? -v : v;
    return d;
}

/* The members of a flat JSON object, in order; false for anything else
 * (nesting, escapes, a syntax error, trailing text). Duplicate keys are
 * the caller's to find. */
static bool scan_flat(const char *text, size_t len, flat_field *fields, int *nfields) {
    const char *p = skip_ws(text, text + len), *end = text + len;
    int n = 0;
    if (p >= end || *p++ != '{') return false;
    p = skip_ws(p, end);
    if (p < end && *p == '}') {
        p++;
    } else {
        for (;;) {
            if (n == FLAT_MAX_FIELDS) return false;
            flat_field *f = &fields[n];
            if (!(p = scan_string(p, end, &f->key, &f->klen))) return false;
            p = skip_ws(p, end);
            if (p >= end || *p++ != ':') return false;
            if (!(p = scan_value(skip_ws(p, end), end, f))) return false;
            n++;
            p = skip_ws(p, end);
            if (p < end && *p == ',') {
                p = skip_ws(p + 1, end);
                continue;
            }
            if (p < end && *p == '}') {
                p++;
                break;
            }
            return false;
        }
    }
    if (skip_ws(p, end) != end) return false;
    *nfields = n;
    return true;
}

/* A string field's text, terminated, in buf (false: too long for it). */
static bool field_text(const flat_field *f, char *buf, size_t size) {
    if (f->kind != 's' || f->slen >= size) return false;
    memcpy(buf, f->str, f->slen);
    buf[f->slen] = 0;
    return true;
}

/* A fact's value as scenario_read_object takes it, or false where that
 * would refuse it or reads it another way (the fallback says why). */
static bool flat_value(scenario_index *ix, int fact_index, const rs_fact *fact, const flat_field *f,
                       int64_t *out) {
    const rs_type *t = fact->type;
    char buf[64];
    switch (f->kind) {
    case 's':
        if (t->kind == TY_ENUM) { /* the value this fact took last, else by hash */
            const index_slot *v = ix->last_value[fact_index];
            if (!v || v->len != f->slen || memcmp(v->name, f->str, f->slen) != 0)
                v = ix->last_value[fact_index] = slot_of_name(ix, t, f->str, f->slen);
            return v && (*out = v->value, true);
        }
        if (t->kind == TY_CALL) {
            bridge_call c;
            char msg[160];
            if (!field_text(f, buf, sizeof buf) || !bridge_parse_call(buf, &c, msg, sizeof msg))
                return false;
            *out = call_to_value(&c);
            return true;
        }
        return false;
    case 'b':
        *out = f->num;
        return t->kind == TY_BOOL;
    case 'i':
        *out = f->num;
        return t->kind == TY_INT && int_in_range(t, f->num);
    }
    return false;
}

/* The records a flat line may carry in a bridge ruleset: "contract",
 * "vulnerable", "dealer" and an "auction" string; the play and klaverjas
 * records go to jansson. */
static bool flat_records(scenario *sc, const flat_field *const record[FLAT_RECORDS], strbuf *err) {
    const flat_field *contract = record[FLAT_CONTRACT], *vul = record[FLAT_VULNERABLE];
    const flat_field *au = record[FLAT_AUCTION], *dealer = record[FLAT_DEALER];
    char buf[512], msg[300];
    if (contract) {
        if (!field_text(contract, buf, sizeof buf) ||
            !bridge_parse_contract(buf, &sc->rec.contract, msg, sizeof msg))
            return false;
        sc->rec.has_contract = true;
    }
    if (vul) {
        if (vul->kind != 'b') return false;
        sc->rec.has_vulnerable = true;
        sc->rec.vulnerable = vul->num != 0;
    }
    if (!au) return !dealer && scenario_apply_record(sc, err);
    bridge_auction a; /* bridge_parse_auction sets what it reads */
    if (!field_text(au, buf, sizeof buf) || !bridge_parse_auction(buf, &a, msg, sizeof msg))
        return false;
    if (dealer) {
        char seat[8];
        enum bridge_seat d;
        if (!field_text(dealer, seat, sizeof seat) || !bridge_parse_seat(seat, &d) || d != a.dealer)
            return false;
    }
    return scenario_set_auction(sc, &a, err);
}

/* Whether a key starting with '_' (a comment, which the scenario skips)
 * comes twice: jansson refuses that. */
static bool comment_twice(const flat_field *fields, int i) {
    for (int k = 0; k < i; k++)
        if (fields[k].klen == fields[i].klen &&
            memcmp(fields[k].key, fields[i].key, fields[i].klen) == 0)
            return true;
    return false;
}

/* The fact (or record) a key names: as at the same place in the last line, else by hash. */
static int key_at(scenario_index *ix, int place, const char *key, size_t len) {
    key_memo *m = &ix->memo[place];
    if (len > 0 && m->len == len && memcmp(m->key, key, len) == 0)
        return m->value; /* len 0: no memo */
    int v = index_get(ix, NULL, key, len);
    if (len > 0 && len <= MEMO_KEY) {
        memcpy(m->key, key, len);
        m->len = len;
        m->value = v;
    }
    return v;
}

bool scenario_read_flat(scenario *sc, scenario_index *ix, const char *text, size_t len) {
    const ruleset *rs = sc->rs;
    flat_field fields[FLAT_MAX_FIELDS];
    const flat_field *record[FLAT_RECORDS] = {0};
    int n;
    if (ix->rs != rs || !scan_flat(text, len, fields, &n)) return false;
    for (int i = 0; i < n; i++) {
        const flat_field *f = &fields[i];
        if (f->klen && f->key[0] == '_') {
            if (comment_twice(fields, i)) return false;
            continue;
        }
        int fact = key_at(ix, i, f->key, f->klen);
        if (fact <= INDEX_FLAT_RECORD) {
            const flat_field **r = &record[INDEX_FLAT_RECORD - fact];
            if (*r) return false; /* a key twice */
            *r = f;
            continue;
        }
        int64_t
            v; /* not a fact: a record jansson reads, a plugin's own, "corrected", or an error */
        if (fact < 0 || sc->given[fact] || rs->facts[fact].derived >= 0 ||
            !flat_value(ix, fact, &rs->facts[fact], f, &v))
            return false; /* (a fact given already: the key twice) */
        scenario_give(sc, fact, v);
    }
    strbuf err;
    sb_init(&err);
    bool ok = flat_records(sc, record, &err);
    sb_free(&err);
    return ok;
}
