#!/bin/sh
# The corpus of bridge-2017 cases a committee measures an amendment on
# (docs/committee.md, "Past cases"): the director's examples, the worked
# cases of the guide "Plezierig Rechtzetten" (examples/cases/guide-cases.jsonl,
# written by hand), and the situations of the ruleset's own tests
# (`arbiter test --scenarios`), one scenario a line, in that order.
# For another ruleset (klaverjas-nkf-1976), only its tests: its examples
# are hands to score and positions to judge, not cases to rule.
# usage: scripts/corpus.sh BUILD_DIR [RULESET] >examples/cases/corpus.jsonl
set -e
ARBITER=${1:-build}/arbiter
RULESET=${2:-bridge-2017}
if [ "$RULESET" != bridge-2017 ]; then
    exec "$ARBITER" test "$RULESET" --scenarios
fi
for f in examples/*.json; do
    case $(basename "$f") in
    1963-* | klaverjas-*) continue ;; # other rulesets' scenarios
    esac
    tr -d '\n' <"$f"
    echo
done
cat examples/cases/guide-cases.jsonl
"$ARBITER" test bridge-2017 --scenarios
