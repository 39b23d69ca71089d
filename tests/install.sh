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

# Built for its prefix in a directory of its own: the library compiles the
# prefix in, and the build tree's library stays as it was.
if make --no-print-directory -s -j2 install BUILD="$BUILD/install-build" PREFIX="$root/usr" >"$root.log" 2>&1; then
    pass "make install"
else
    fail "make install"
    cat "$root.log"
fi
rm -f "$root.log"
bin=$root/usr/bin/arbiter
for f in bin/arbiter lib/libarbiter.a lib/libarbiter.so lib/libarbiter.so.0 lib/pkgconfig/arbiter.pc \
    include/arbiter.h share/arbiter/web/index.html \
    share/arbiter/web/app.js share/arbiter/rulesets/bridge-2017 share/arbiter/rulesets/bridge-1997; do
    if [ -e "$root/usr/$f" ]; then pass "installed: $f"; else fail "installed: $f"; fi
done

cd /
if ARBITER_CACHE=off "$bin" rule --ruleset bridge-2017 "$here/examples/insufficient-bid.json" | grep -q '27B1'; then
    pass "the installed program rules with its own rulesets, from another directory"
else
    fail "the installed program rules with its own rulesets, from another directory"
fi

if ARBITER_CACHE=off "$bin" rulesets | grep -q '^bridge-1997 ' &&
    ARBITER_CACHE=off "$bin" rule --ruleset bridge-1997 "$here/examples/dummy-warns-defender.json" | grep -q '43A1c'; then
    pass "the installed program lists bridge-1997 and rules with it"
else
    fail "the installed program lists bridge-1997 and rules with it"
fi

ARBITER_CACHE=off "$bin" serve --listen 127.0.0.1:0 >"$root/serve.out" 2>&1 &
server=$!
port=
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$root/serve.out" 2>/dev/null)
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

if readelf -d "$root/usr/lib/libarbiter.so" | grep -q 'SONAME.*\[libarbiter\.so\.0\]'; then
    pass "the shared library is libarbiter.so.0 (SONAME)"
else
    fail "the shared library is libarbiter.so.0 (SONAME)"
fi

others=$(nm -D --defined-only "$root/usr/lib/libarbiter.so" | awk '$3 !~ /^arb_/ {print $3}')
if [ -z "$others" ]; then
    pass "the shared library exports arb_* only"
else
    fail "the shared library exports arb_* only: $(echo $others | head -c 200)"
fi
if ! ldd "$root/usr/lib/libarbiter.so" | grep -q microhttpd; then
    pass "the library leaves the HTTP server out (no libmicrohttpd)"
else
    fail "the library leaves the HTTP server out (no libmicrohttpd)"
fi

# An embedder: a small C program built against the installed header and
# library with pkg-config alone, run from elsewhere with no ARBITER_RULESETS,
# loads a shipped ruleset by name and rules on the demo — with its own
# allocator (which must get every block back) and its own sink for the
# library's notes (arb_configure).
cat >"$root/embed.c" <<'EOF'
#include <arbiter.h>
#include <stdio.h>
#include <stdlib.h>

static long live; /* blocks the library holds */

static void *counted(void *ud, void *ptr, size_t size) {
    (void)ud;
    if (size == 0) {
        live -= ptr != NULL;
        free(ptr);
        return NULL;
    }
    void *q = realloc(ptr, size);
    live += q && !ptr;
    return q;
}

static void note(void *ud, const char *message) {
    fprintf(ud, "embed: %s\n", message);
}

int main(int argc, char **argv) {
    arb_configure(&(arb_config){counted, NULL, note, stderr});
    arb_ruleset *rs = arb_load("bridge-2017", stderr);
    if (!rs || argc < 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    char text[65536];
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    char *json = NULL;
    enum arb_status st = arb_rule_json(rs, text, n, &json);
    puts(json ? json : "");
    arb_release(json);
    arb_free(rs);
    printf("blocks still held: %ld\n", live);
    return (int)st;
}
EOF
export PKG_CONFIG_PATH="$root/usr/lib/pkgconfig"
if cc -o "$root/embed" "$root/embed.c" $(pkg-config --cflags --libs arbiter) -Wl,-rpath,"$root/usr/lib" 2>"$root/embed.log"; then
    pass "a program builds against the installed library with pkg-config --cflags --libs arbiter"
else
    fail "a program builds against the installed library with pkg-config --cflags --libs arbiter"
    cat "$root/embed.log"
fi
(cd / && env -u ARBITER_RULESETS ARBITER_CACHE=off "$root/embed" "$here/examples/insufficient-bid.json") >"$root/embed.out"
if grep -q '"27B1' "$root/embed.out"; then
    pass "the installed library finds its installed rulesets by name and rules"
else
    fail "the installed library finds its installed rulesets by name and rules"
fi
if grep -qx 'blocks still held: 0' "$root/embed.out"; then
    pass "the embedder's allocator gets back every block it gave (arb_configure)"
else
    fail "the embedder's allocator gets back every block it gave (arb_configure): $(tail -n 1 "$root/embed.out")"
fi
# libarbiter.a with the shared libraries of the packages the .pc file
# requires: the list is complete. (A fully static link also needs their
# own static dependencies, which Debian does not all ship.)
requires=$(sed -n 's/^Requires.private: *//p' "$PKG_CONFIG_PATH/arbiter.pc")
private=$(sed -n 's/^Libs.private: *//p' "$PKG_CONFIG_PATH/arbiter.pc")
if cc -o "$root/embed-static" "$root/embed.c" $(pkg-config --cflags arbiter) "$root/usr/lib/libarbiter.a" \
    $(pkg-config --libs $requires) $private 2>"$root/embed.log"; then
    pass "libarbiter.a links with what the .pc file names"
else
    fail "libarbiter.a links with what the .pc file names"
    cat "$root/embed.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
