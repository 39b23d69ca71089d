/* ops.h — the operators of the rule language, shared by the parser's tree,
 * the compiled expressions and the graph folding of conditions. */
#ifndef ARBITER_OPS_H
#define ARBITER_OPS_H

enum op {
    OP_NOT,
    OP_NEG,
    OP_AND,
    OP_OR,
    OP_IMPLIES,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD
};

#endif
