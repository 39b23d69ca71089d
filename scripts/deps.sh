#!/bin/sh
# Installs the Debian packages arbiter builds and tests with, when missing.
# Runs apt-get as root (directly, or through sudo when available).
set -eu

# libssl-dev: libcrypto, whose HMAC-SHA-256 seals the ruleset images.
# libclang-rt-14-dev: the fuzzer and sanitizer runtimes `make fuzz` links
# (clang only recommends it); valgrind: the CI's memory check of the demo;
# clang-format: the style check of `make test` (scripts/format.sh).
PACKAGES="re2c bison pkg-config libjansson-dev libcmocka-dev liblua5.4-dev libclips-dev libmicrohttpd-dev libssl-dev make gcc clang clang-format libclang-rt-14-dev valgrind curl jq chromium"
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

cd "$(dirname "$0")/.."
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && { npm_ci; exit; }

echo "deps: installing$missing"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "deps: missing$missing; run as root: apt-get install$missing" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
# Install from the lists already on the machine; refresh them only if that fails.
$SUDO apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 || {
    $SUDO apt-get update -qq
    $SUDO apt-get install -y --no-install-recommends $missing
}
npm_ci
