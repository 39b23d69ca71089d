#!/bin/sh
# `make test-install`: `make install` into a scratch DESTDIR, then the
# installed program, started from another directory, finds its rulesets,
# rules the demo, and serves the web app from share/arbiter/web. Ends with
# one line "N passed, N failed".
BUILD=${1:-build}
root=$(cd "$BUILD" && pwd)/install-test
here=$(pwd)
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
rm -rf "$root"
trap 'kill "$server" 2>/dev/null; rm -rf "$root"' EXIT

if make --no-print-directory -s install BUILD="$BUILD" DESTDIR="$root" PREFIX=/usr >"$root.log" 2>&1; then
    pass "make install"
else
    fail "make install"
    cat "$root.log"
fi
rm -f "$root.log"
bin=$root/usr/bin/arbiter
for f in bin/arbiter lib/libarbiter.a lib/libarbiter.so include/arbiter.h share/arbiter/web/index.html \
    share/arbiter/web/app.js share/arbiter/rulesets/bridge-2017; do
    if [ -e "$root/usr/$f" ]; then pass "installed: $f"; else fail "installed: $f"; fi
done

cd /
if ARBITER_CACHE=off "$bin" rule --ruleset bridge-2017 "$here/examples/insufficient-bid.json" | grep -q '27B1'; then
    pass "the installed program rules with its own rulesets, from another directory"
else
    fail "the installed program rules with its own rulesets, from another directory"
fi

ARBITER_CACHE=off "$bin" serve --listen 127.0.0.1:0 >"$root/serve.out" 2>&1 &
server=$!
port=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$root/serve.out")
    [ -n "$port" ] && break
    sleep 0.5
done
if [ -n "$port" ] && curl -s "http://127.0.0.1:$port/" | grep -qi '<html'; then
    pass "the installed server serves the web app from share/arbiter/web"
else
    fail "the installed server serves the web app from share/arbiter/web"
    cat "$root/serve.out"
fi
cd "$here"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
