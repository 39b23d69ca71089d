#!/bin/sh
# `make test-web`: the API tests (api.sh, curl) and the end-to-end tests in
# headless Chromium (e2e.mjs), each against a server it starts itself on a
# loopback port; ends with one line that sums them.
#
# The klaverjas ruleset is klaverjas-nkf-1976 when it compiles, else the
# invented tests/rules/klaverjas-mini. SCREENSHOTS=docs/images writes the
# screenshots of the main screens there (they always go to
# $BUILD/web-screenshots). WEB=build/web (make test-web sets it) adds the
# offline app: the WebAssembly build's rulings against the CLI's
# (wasm-equal.mjs) and the app on a static host with the network cut.
BUILD=${1:-build}
ARBITER=$BUILD/arbiter
passed=0
failed=0

sum() { # the last "N passed, N failed" line of a suite's output
    line=$(printf '%s\n' "$1" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    p=$(printf '%s\n' "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
    f=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
}

if "$ARBITER" check rulesets/klaverjas-nkf-1976 >/dev/null 2>&1; then
    KJ=klaverjas-nkf-1976 HAND=examples/klaverjas-hand.json
else
    echo "note: rulesets/klaverjas-nkf-1976 does not compile; klaverjas is tested with tests/rules/klaverjas-mini"
    KJ=tests/rules/klaverjas-mini HAND=tests/rules/klaverjas-mini/hand.json
fi

if "$ARBITER" check rulesets/bridge-1963 >/dev/null 2>&1; then
    WITH_1963=1
else
    echo "note: rulesets/bridge-1963 is not there or does not compile; rulings are tested under 2017 only"
    WITH_1963=0
fi
export WITH_1963

echo "== web: API"
out=$(bash tests/web/api.sh "$ARBITER" "$KJ" "$HAND" 2>&1)
printf '%s\n' "$out" | grep -v '^ok '
sum "$out"

if [ -n "${WEB:-}" ] && [ -f "$WEB/arbiter.js" ]; then
    echo "== web: the WebAssembly build against the CLI"
    out=$(node tests/web/wasm-equal.mjs "$ARBITER" "$WEB/arbiter.js" 2>&1)
    printf '%s\n' "$out" | grep -v '^ok '
    sum "$out"
else
    echo "note: no web build (make web); the offline app is not tested"
fi

echo "== web: browser"
if [ ! -d tests/web/node_modules/playwright-core ] || [ ! -x /usr/bin/chromium ]; then
    echo "FAIL browser: chromium or playwright-core missing (scripts/deps.sh installs them)"
    failed=$((failed + 1))
else
    out=$(ARBITER="$ARBITER" KLAVERJAS="$KJ" HAND="$HAND" SHOTS="$BUILD/web-screenshots" WEB="${WEB:+$(cd "$WEB" && pwd)}" \
        node tests/web/e2e.mjs 2>&1)
    printf '%s\n' "$out" | grep -v '^ok '
    sum "$out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
