/* builtins.c — auction facts by name. */
#include "builtins.h"

#include <string.h>

static const char *const seat_names[] = {"N", "E", "S", "W"};
static const char *const relative_names[] = {"offender", "lho", "partner", "rho"};
static const char *const kind_names[] = {"pass", "bid", "double", "redouble"};

enum {
    B_OFFENDER, B_TURN, B_TURN_WAS, B_CALL_KIND, B_INSUFFICIENT, B_OVER_SEVEN, B_DOUBLE_ADMISSIBLE,
    B_AFTER_FINAL_PASS, B_OFFENDER_CALLED_BEFORE, B_LHO_CALLED, B_LOWEST_SUFFICIENT,
    B_IRREGULAR_CALL, B_DEALER, B_COUNT
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

bool builtin_value(int i, const bridge_auction *a, const bridge_facts *bf, int64_t *value,
                   const char **symbol) {
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
    case B_DEALER: *symbol = seat_names[a->dealer]; return true;
    }
    return false;
}
