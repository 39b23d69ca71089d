#!/bin/sh
# Installs the Debian packages arbiter builds and tests with, when missing.
# Runs apt-get as root (directly, or through sudo when available).
set -eu

# nettle-dev: SHA-256 and the HMAC-SHA-256 that seals the ruleset images.
# libclang-rt-14-dev: the fuzzer and sanitizer runtimes `make fuzz` links
# (clang only recommends it); valgrind: the CI's memory check of the demo;
# clang-format: the style check of `make test` (scripts/format.sh).
PACKAGES="re2c bison pkg-config libjansson-dev libcsv-dev libcmocka-dev liblua5.4-dev libclips-dev libmicrohttpd-dev nettle-dev make gcc clang clang-format libclang-rt-14-dev valgrind curl jq chromium"
# `scripts/deps.sh web` adds what `make web` needs (the WebAssembly build of
# the library, core/web): Debian's emscripten, and dpkg-dev for `apt-get
# source`, which fetches Lua's, jansson's and libcsv's Debian source packages (from a
# deb-src entry added below when the machine has none). `make test` needs
# none of it.
WEB_PACKAGES="emscripten dpkg-dev"
[ "${1:-}" = web ] && PACKAGES="$PACKAGES $WEB_PACKAGES"
# node and npm drive the browser tests (tests/web); a machine that has them
# from elsewhere (e.g. NodeSource's nodejs) keeps them.
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

# playwright-core for the browser tests, from npm at the version the
# lock file pins; it never downloads a browser (Debian's chromium is used).
npm_ci() {
    [ -d tests/web/node_modules/playwright-core ] && return 0
    echo "deps: npm ci in tests/web"
    (cd tests/web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
}

# The deb-src entry `apt-get source` needs: Debian's archive for the
# machine's release (its codename from /etc/os-release), source packages only.
DEB_SRC=/etc/apt/sources.list.d/arbiter-deb-src.sources
deb_src() {
    echo "deps: adding $DEB_SRC (Debian source packages, for make web)"
    src=$(mktemp)
    cat >"$src" <<EOF2
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $(. /etc/os-release && echo "$VERSION_CODENAME") $(. /etc/os-release && echo "$VERSION_CODENAME")-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF2
    $SUDO install -m 644 "$src" "$DEB_SRC"
    rm -f "$src"
    $SUDO apt-get update -qq
}

root_or_sudo() {
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "deps: missing$1; run as root: $2" >&2
        exit 2
    fi
}

cd "$(dirname "$0")/.."
if [ "${1:-}" = web ] && ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    root_or_sudo " deb-src" "scripts/deps.sh web"
    deb_src
fi
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { npm_ci; exit; }

echo "deps: installing$missing"
root_or_sudo "$missing" "apt-get install$missing"
export DEBIAN_FRONTEND=noninteractive
# Install from the lists already on the machine; refresh them only if that fails.
$SUDO apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 || {
    $SUDO apt-get update -qq
    $SUDO apt-get install -y --no-install-recommends $missing
}
npm_ci
