#!/bin/sh
# The version of a built web app (make web): a hash of its files, written
# into its service worker (sw.js, where "dev" stands in the sources), so
# that a phone that opened an older build replaces its cached copy the next
# time it is online, and keeps it while it is not.
set -eu
WEB=${1:-build/web}
version=$(cd "$WEB" && ls | grep -v '^sw\.js$' | sort | xargs cat | sha256sum | cut -c1-16)
sed "s/const VERSION = '[^']*'/const VERSION = '$version'/" core/serve/web/sw.js >"$WEB/sw.js.tmp"
mv "$WEB/sw.js.tmp" "$WEB/sw.js"
