#!/bin/sh
# Installs the Debian packages arbiter builds and tests with, when missing.
# Runs apt-get as root (directly, or through sudo when available).
set -eu

PACKAGES="re2c bison pkg-config libjansson-dev libcmocka-dev liblua5.4-dev make gcc clang"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

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
