/* builtins.c — auction facts by name. */
#include "builtins.h"

#include <string.h>

static const char *const seat_names[] = {"N", "E", "S", "W"};
static const char *const relative_names[] = {"offender", "lho", "partner", "rho"};
static const char *const kind_names[] = {"pass", "bid", "double", "redouble"};
static const char *const denom_names[] = {"clubs", "diamonds", "hearts", "spades", "notrump"};
static const char *const doubling_names[] = {"undoubled", "doubled", "redoubled"};

enum {
    B_OFFENDER, B_TURN, B_TURN_WAS, B_CALL_KIND, B_INSUFFICIENT, B_OVER_SEVEN, B_DOUBLE_ADMISSIBLE,
    B_AFTER_FINAL_PASS, B_OFFENDER_CALLED_BEFORE, B_LHO_CALLED, B_LOWEST_SUFFICIENT,
    B_IRREGULAR_CALL, B_DEALER,
    B_PASSED_OUT, B_LEVEL, B_DENOMINATION, B_DOUBLING, B_RESULT, B_TRICKS, B_VULNERABLE,
    B_BEATEN, B_EQUALLED, B_OTHERS, B_DIFFERENCE, B_COUNT
};

static const builtin_desc builtins[B_COUNT] = {
    [B_OFFENDER] = {"auction", "offender", BT_SYMBOL, seat_names, 4},
    [B_TURN] = {"auction", "turn", BT_SYMBOL, seat_names, 4},
    [B_TURN_WAS] = {"auction", "turn_was", BT_SYMBOL, relative_names, 4},
    [B_CALL_KIND] = {"auction", "call_kind", BT_SYMBOL, kind_names, 4},
    [B_INSUFFICIENT] = {"auction", "insufficient", BT_BOOL, NULL, 0},
    [B_OVER_SEVEN] = {"auction", "over_seven", BT_BOOL, NULL, 0},
    [B_DOUBLE_ADMISSIBLE] = {"auction", "double_admissible", BT_BOOL, NULL, 0},
    [B_AFTER_FINAL_PASS] = {"auction", "after_final_pass", BT_BOOL, NULL, 0},
    [B_OFFENDER_CALLED_BEFORE] = {"auction", "offender_called_before", BT_BOOL, NULL, 0},
    [B_LHO_CALLED] = {"auction", "lho_called", BT_BOOL, NULL, 0},
    [B_LOWEST_SUFFICIENT] = {"auction", "lowest_sufficient", BT_CALL, NULL, 0},
    [B_IRREGULAR_CALL] = {"auction", "irregular_call", BT_CALL, NULL, 0},
    [B_DEALER] = {"auction", "dealer", BT_SYMBOL, seat_names, 4},
    [B_PASSED_OUT] = {"contract", "passed_out", BT_BOOL, NULL, 0},
    [B_LEVEL] = {"contract", "level", BT_INT, NULL, 0},
    [B_DENOMINATION] = {"contract", "denomination", BT_SYMBOL, denom_names, 5},
    [B_DOUBLING] = {"contract", "doubling", BT_SYMBOL, doubling_names, 3},
    [B_RESULT] = {"contract", "result", BT_INT, NULL, 0},
    [B_TRICKS] = {"contract", "tricks", BT_INT, NULL, 0},
    [B_VULNERABLE] = {"contract", "vulnerable", BT_BOOL, NULL, 0},
    [B_BEATEN] = {"scoring", "beaten", BT_INT, NULL, 0},
    [B_EQUALLED] = {"scoring", "equalled", BT_INT, NULL, 0},
    [B_OTHERS] = {"scoring", "others", BT_INT, NULL, 0},
    [B_DIFFERENCE] = {"scoring", "difference", BT_INT, NULL, 0},
};

int builtin_count(void) {
    return B_COUNT;
}

const builtin_desc *builtin_at(int i) {
    return &builtins[i];
}

int builtin_find(const char *ns, const char *name) {
    for (int i = 0; i < B_COUNT; i++)
        if (strcmp(builtins[i].ns, ns) == 0 && strcmp(builtins[i].name, name) == 0) return i;
    return -1;
}

int64_t call_to_value(const bridge_call *c) {
    switch (c->kind) {
    case CALL_PASS: return 0;
    case CALL_DOUBLE: return 1;
    case CALL_REDOUBLE: return 2;
    default: return 3 + (int64_t)(c->level - 1) * 5 + (int64_t)c->denom;
    }
}

bridge_call call_from_value(int64_t v) {
    static const enum bridge_call_kind first[] = {CALL_PASS, CALL_DOUBLE, CALL_REDOUBLE};
    if (v >= 0 && v < 3) return (bridge_call){first[v], 0, DENOM_C};
    return (bridge_call){CALL_BID, (int)((v - 3) / 5 + 1), (enum bridge_denom)((v - 3) % 5)};
}

static bool auction_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const bridge_facts *bf = &rec->auction_facts;
    switch (i) {
    case B_OFFENDER: *symbol = seat_names[bf->offender]; return true;
    case B_TURN: *symbol = seat_names[bf->turn]; return true;
    case B_TURN_WAS: *symbol = relative_names[bf->turn_was]; return true;
    case B_CALL_KIND: *symbol = kind_names[bf->call_kind]; return true;
    case B_INSUFFICIENT: *value = bf->insufficient; return true;
    case B_OVER_SEVEN: *value = bf->over_seven; return true;
    case B_DOUBLE_ADMISSIBLE: *value = bf->double_admissible; return true;
    case B_AFTER_FINAL_PASS: *value = bf->after_final_pass; return true;
    case B_OFFENDER_CALLED_BEFORE: *value = bf->offender_called_before; return true;
    case B_LHO_CALLED: *value = bf->lho_called; return true;
    case B_LOWEST_SUFFICIENT:
        if (!bf->has_lowest_sufficient) return false;
        *value = call_to_value(&bf->lowest_sufficient);
        return true;
    case B_IRREGULAR_CALL: *value = call_to_value(&bf->irregular_call); return true;
    case B_DEALER: *symbol = seat_names[rec->auction.dealer]; return true;
    default: return false;
    }
}

static bool contract_value(int i, const record *rec, int64_t *value, const char **symbol) {
    const bridge_contract *c = &rec->contract;
    if (i == B_PASSED_OUT) return (*value = c->passed_out), true;
    if (c->passed_out) return false; /* a passed-out board has no contract to speak of */
    switch (i) {
    case B_LEVEL: *value = c->level; return true;
    case B_DENOMINATION: *symbol = denom_names[c->denom]; return true;
    case B_DOUBLING: *symbol = doubling_names[c->doubling]; return true;
    case B_RESULT: *value = c->result; return true;
    case B_TRICKS: *value = c->level + 6 + c->result; return true;
    default: return false;
    }
}

bool builtin_value(int i, const record *rec, int64_t *value, const char **symbol) {
    if (i <= B_DEALER) return rec->has_auction && auction_value(i, rec, value, symbol);
    if (i == B_VULNERABLE) return rec->has_vulnerable && ((*value = rec->vulnerable), true);
    if (i <= B_TRICKS) return rec->has_contract && contract_value(i, rec, value, symbol);
    if (!rec->has_scoring) return false;
    *value = i == B_BEATEN ? rec->beaten : i == B_EQUALLED ? rec->equalled : i == B_OTHERS ? rec->others : rec->difference;
    return true;
}
