#!/bin/sh
# Runs every suite — unit (cmocka), rulesets (their own test blocks and the
# completeness proof), CLI — and ends with one line that sums them all, so a
# run that tested nothing cannot look green.
BUILD=${1:-build}
ARBITER=$BUILD/arbiter
# Ruleset images (core/store/cache.h) go under the build directory, never into
# the user's home; emptied first, so that every run compiles once.
ARBITER_CACHE=$BUILD/cache
export ARBITER_CACHE
rm -rf "$ARBITER_CACHE"
passed=0
failed=0

add() { passed=$((passed + $1)); failed=$((failed + $2)); }

# counts OUTPUT: p and f from its last line, "N passed, N failed"; output
# that does not end so (a crash) counts as one failure.
counts() {
    line=$(printf '%s\n' "$1" | tail -n 1)
    p=$(printf '%s\n' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
}

echo "== unit"
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    out=$("$t" 2>&1)
    rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # crashed before its summary
    if [ "$f" -ne 0 ]; then
        printf '%s\n' "$out"
    else # cmocka's own summary
        printf '%s\n' "$out" | grep -E '^\[(==========|  PASSED  )\] [0-9]+ test' | sed 's/^/  /'
    fi
    echo "  $(basename "$t"): $p passed, $f failed"
    add "$p" "$f"
done

echo "== rulesets"
for dir in rulesets/* tests/rules/*; do
    [ -d "$dir" ] || continue
    grep -qs '^ruleset ' "$dir"/*.rules || continue # shared vocabularies have no header
    # the shipped rulesets must have every clause reached by a test
    case $dir in rulesets/*) cov=--coverage ;; *) cov= ;; esac
    out=$("$ARBITER" test "$dir" $cov 2>&1)
    counts "$out"
    if printf '%s\n' "$out" | grep -q 'no test reaches clause'; then f=$((f + 1)); fi # coverage counts as a test
    [ "$f" -ne 0 ] && printf '%s\n' "$out"
    echo "  $dir: $p passed, $f failed (test blocks, the completeness proof${cov:+, every clause reached})"
    add "$p" "$f"
done

# suite NAME SCRIPT: a script that prints "ok …" lines, failures, and ends
# with "N passed, N failed"; its failures are shown, its counts added.
suite() {
    echo "== $1"
    out=$("$2" "$ARBITER" 2>&1)
    counts "$out"
    printf '%s\n' "$out" | grep -v '^ok ' | sed '$d'
    echo "  $1: $p passed, $f failed"
    add "$p" "$f"
}
suite cli tests/cli.sh
suite images tests/image.sh
suite plugins tests/plugins.sh
suite serve tests/serve.sh
suite guide scripts/guide-examples.sh
suite layers scripts/layers.sh
suite format scripts/format.sh

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
