/* dot.h — a decision graph as Graphviz DOT, for people to look at. */
#ifndef ARBITER_DOT_H
#define ARBITER_DOT_H

#include "ruleset.h"

#include <stdio.h>

void dot_write(const ruleset *rs, gref root, const rs_article *article, FILE *out);

#endif
