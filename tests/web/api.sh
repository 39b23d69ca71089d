#!/bin/bash
# The JSON API of `arbiter serve`, against a server this script starts on a
# loopback port of its own: every endpoint answers what the CLI's --json
# answers, every bad request gets its status (400, 404, 405, 413) and a
# message, and the server goes on serving after each. Ends with
# "N passed, N failed".
#
# usage: [WITH_1963=0|1] tests/web/api.sh [ARBITER] [KLAVERJAS-RULESET] [HAND.json]
# (WITH_1963: whether bridge-1963 is served and compared; by default, when
# its directory is there)
ARBITER=${1:-build/arbiter}
KJ=${2:-klaverjas-nkf-1976}
HAND=${3:-examples/klaverjas-hand.json}
passed=0
failed=0
work=$(mktemp -d)
server_pid=
if [ -z "$WITH_1963" ]; then WITH_1963=0; [ -d rulesets/bridge-1963 ] && WITH_1963=1; fi

cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

pass() { passed=$((passed + 1)); echo "ok $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
    [ -s "$work/body" ] && head -c 600 "$work/body" | sed 's/^/    | /' && echo
}

# ---- the server ----

rulesets="--ruleset bridge-2017 --ruleset $KJ"
[ "$WITH_1963" = 1 ] && rulesets="$rulesets --ruleset bridge-1963"
# shellcheck disable=SC2086 # the options are words
"$ARBITER" serve --listen 127.0.0.1:0 $rulesets --verbose >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
for _ in $(seq 1 600); do # compiling the rulesets takes seconds, more under ASan
    grep -qs 'http://' "$work/stdout" && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
done
port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/stdout")
if [ -z "$port" ]; then
    cat "$work/stderr"
    echo "FAIL start: the server did not start"
    echo "0 passed, 1 failed"
    exit 1
fi
pass "start: listening on 127.0.0.1:$port"
base="http://127.0.0.1:$port"

# ---- helpers ----

# call NAME METHOD PATH [BODY-FILE]: the status in $status, the body in $work/body
call() {
    local method=$2 path=$3 data=()
    [ -n "$4" ] && data=(--data-binary "@$4" -H 'Content-Type: application/json')
    status=$(curl -s -m 20 -o "$work/body" -D "$work/headers" -w '%{http_code}' -X "$method" "${data[@]}" "$base$path")
}

# expect_status NAME STATUS METHOD PATH [BODY-FILE] [PATTERN]: status and a pattern in the body
expect_status() {
    local name=$1 want=$2
    call "$name" "$3" "$4" "$5"
    if [ "$status" != "$want" ]; then fail "$name" "status $status, expected $want"; return 1; fi
    if [ -n "$6" ] && ! grep -qF -- "$6" "$work/body"; then fail "$name" "body lacks: $6"; return 1; fi
    pass "$name"
}

# An error answer is a JSON object with a message.
expect_error() {
    local name=$1
    expect_status "$@" || return
    if ! jq -e '.error | type == "string" and length > 0' "$work/body" >/dev/null; then
        passed=$((passed - 1)); fail "$name" "no {\"error\": message}"
    fi
}

# same NAME JQ-FILTER FILE-A FILE-B: the two JSON files agree under the filter
same() {
    if diff <(jq -S "$2" "$3") <(jq -S "$2" "$4") >"$work/diff"; then pass "$1"
    else fail "$1" "differs from the CLI: $(head -n 8 "$work/diff")"; fi
}

# body FILE JQ-EXPR ARGS…: writes a request body built by jq
body() {
    local file=$1
    shift
    jq -n "$@" >"$work/$file"
}

still_serving() {
    call still GET /api/rulesets
    if [ "$status" = 200 ] && kill -0 "$server_pid" 2>/dev/null; then pass "still serving after $1"
    else fail "still serving after $1" "status $status"; fi
}

# ---- rulesets ----

expect_status "rulesets: list" 200 GET /api/rulesets "" '"bridge-2017"'
hash=$("$ARBITER" rulesets | awk '$1 == "bridge-2017" { print $2 }')
if jq -e --arg h "$hash" '.rulesets[] | select(.name == "bridge-2017") | .hash == $h and .game == "bridge" and (.title | length > 0)' "$work/body" >/dev/null
then pass "rulesets: name, title, hash and game as \`arbiter rulesets\`"
else fail "rulesets: name, title, hash and game" "hash $hash"; fi
expect_status "rulesets: one, with facts and articles" 200 GET /api/rulesets/bridge-2017 "" '"irregularity"'
jq -e '(.articles | map(.id) | index("27")) and (.facts[] | select(.name == "irregularity") | .choices | length > 3)' "$work/body" >/dev/null \
    && pass "rulesets: article 27 and the irregularity's choices" || fail "rulesets: article 27 and choices" ""
jq -e '.articles[] | select(.id == "27") | .title == "Onvoldoende bod" and .title_en == "Insufficient Bid"' "$work/body" >/dev/null \
    && pass "rulesets: an article's title in Dutch and English" || fail "rulesets: an article's title in Dutch and English" ""
expect_error "rulesets: unknown → 404" 404 GET /api/rulesets/bridge-2099 "" "bridge-2099"

# ---- the next question, and a ruling ----

body empty.json '{ruleset: "bridge-2017", scenario: {}}'
expect_status "next: the first question" 200 POST /api/next "$work/empty.json" '"needs":"irregularity"'
jq -e '.question.name == "irregularity" and .question.type == "enum" and (.question.choices[0] | has("label") and has("value"))' "$work/body" >/dev/null \
    && pass "next: question text, type and labelled choices" || fail "next: question" ""

body partial.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 1H", irregularity: "insufficient_bid", unintended_call: false}}'
expect_status "next: only what matters (the auction settles whose turn it was)" 200 POST /api/next "$work/partial.json" '"needs":"replacement"'
body unintended.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 1H", irregularity: "insufficient_bid"}}'
expect_status "next: a call not said to be unintended is ruled as intended (25A)" 200 POST /api/next "$work/unintended.json" '"needs":"replacement"'
body artificial.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1NT 2H 2C", irregularity: "insufficient_bid", unintended_call: false, replacement: "bid", replacement_call: "3C"}}'
expect_status "next: an insufficient bid replaced - was it artificial? (27B1a)" 200 POST /api/next "$work/artificial.json" '"needs":"call_artificial"'
body corrected.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 1H", irregularity: "insufficient_bid", unintended_call: false, lho_called: true, corrected: ["lho_called"]}}'
expect_status "next: a value the director corrected wins over the record" 200 POST /api/next "$work/corrected.json" '"27A1"'
body uncorrected.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 1H", irregularity: "insufficient_bid", unintended_call: false, lho_called: true}}'
expect_error "next: contradicting the record without \"corrected\" → 400" 400 POST /api/next "$work/uncorrected.json" "the scenario says otherwise"

body scenario.json --slurpfile s examples/insufficient-bid.json '{ruleset: "bridge-2017", scenario: $s[0]}'
expect_status "next: a ruling when nothing is missing" 200 POST /api/next "$work/scenario.json" '"status":"ruling"'
expect_status "rule: insufficient-bid.json" 200 POST /api/rule "$work/scenario.json" '"27B1a"'
"$ARBITER" rule --ruleset bridge-2017 --json examples/insufficient-bid.json >"$work/cli.json"
same "rule: the same ruling as \`arbiter rule --json\`" 'del(.title)' "$work/body" "$work/cli.json"

body impossible.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 1H", irregularity: "insufficient_bid", replacement: "bid", replacement_call: "P"}}'
expect_status "next: an impossible answer is explained" 200 POST /api/next "$work/impossible.json" '"status":"rejected"'
jq -e '.impossible.message | length > 0' "$work/body" >/dev/null && pass "next: the invariant's message" || fail "next: the invariant's message" ""

# ---- editions compared ----

if [ "$WITH_1963" = 1 ]; then
    body compare.json --slurpfile s examples/1963-insufficient-bid.json '{rulesets: ["bridge-2017", "bridge-1963"], scenario: $s[0]}'
    expect_status "compare: 2017 and 1963" 200 POST /api/compare "$work/compare.json" '"27b"'
    "$ARBITER" compare --ruleset bridge-2017 --ruleset bridge-1963 --json examples/1963-insufficient-bid.json >"$work/cli.json"
    same "compare: as \`arbiter compare --json\`" '{rulings: [.rulings[] | del(.question)], differences}' "$work/body" "$work/cli.json"
else
    echo "note: bridge-1963 is not served; compare tested with 2017 twice"
    body compare.json --slurpfile s examples/insufficient-bid.json '{rulesets: ["bridge-2017", "bridge-2017"], scenario: $s[0]}'
    expect_status "compare: 2017 with itself" 200 POST /api/compare "$work/compare.json" '"differences":[{}]'
fi
body compare1.json '{rulesets: ["bridge-2017"], scenario: {}}'
expect_error "compare: one ruleset → 400" 400 POST /api/compare "$work/compare1.json" "2 to 8"

# ---- scores ----

body score.json '{ruleset: "bridge-2017", contract: "4SX+1", vulnerable: true}'
expect_status "score: 4SX+1 vulnerable" 200 POST /api/score "$work/score.json" '"score":'
"$ARBITER" score --ruleset bridge-2017 --vul --json 4SX+1 >"$work/cli.json"
same "score: as \`arbiter score --json\`" '.' "$work/body" "$work/cli.json"
body novul.json '{ruleset: "bridge-2017", contract: "4SX+1"}'
expect_error "score: vulnerability not given → 400" 400 POST /api/score "$work/novul.json" 'give \"vulnerable\"'
body badcontract.json '{ruleset: "bridge-2017", contract: "9SX+1", vulnerable: false}'
expect_error "score: a contract that cannot be → 400" 400 POST /api/score "$work/badcontract.json" "level"

body hand.json --arg r "$KJ" --slurpfile h "$HAND" '{ruleset: $r, hand: $h[0]}'
expect_status "klaverjas: a hand ($KJ)" 200 POST /api/klaverjas "$work/hand.json" '"totals"'
"$ARBITER" score --ruleset "$KJ" --json "$HAND" >"$work/cli.json"
same "klaverjas: as \`arbiter score --json\`" '.' "$work/body" "$work/cli.json"
body badhand.json --arg r "$KJ" '{ruleset: $r, hand: {trump: "H", taker: "N", tricks: ["E:SA SA S8 SK"]}}'
expect_error "klaverjas: an impossible hand → 400" 400 POST /api/klaverjas "$work/badhand.json" "SA twice"
body bridgehand.json --slurpfile h "$HAND" '{ruleset: "bridge-2017", hand: $h[0]}'
expect_error "klaverjas: a bridge ruleset → 400" 400 POST /api/klaverjas "$work/bridgehand.json" "not a klaverjas ruleset"

body mp.json --rawfile csv examples/board-1.csv '{ruleset: "bridge-2017", csv: $csv}'
expect_status "matchpoints: board-1.csv" 200 POST /api/matchpoints "$work/mp.json" '"matchpoints":'
"$ARBITER" matchpoints --ruleset bridge-2017 --json examples/board-1.csv >"$work/cli.json"
jq .rows "$work/body" >"$work/rows.json"
same "matchpoints: the rows of \`arbiter matchpoints --json\`" '.' "$work/rows.json" "$work/cli.json"
body mpbad.json '{ruleset: "bridge-2017", csv: "board,pair,score\n1,1,six hundred\n"}'
expect_error "matchpoints: a line that is no score → 400" 400 POST /api/matchpoints "$work/mpbad.json" "line 2"
seq 1 5001 | jq -Rs '{ruleset: "bridge-2017", csv: .}' >"$work/mpmany.json"
expect_error "matchpoints: more than 5000 scores → 413" 413 POST /api/matchpoints "$work/mpmany.json" "5000"

# ---- the decision graph ----

expect_status "graph: article 27 as DOT" 200 GET '/api/graph?ruleset=bridge-2017&article=27' "" 'digraph article'
jq -e '.title == "Onvoldoende bod" and .title_en == "Insufficient Bid"' "$work/body" >/dev/null \
    && pass "graph: the article's title in Dutch and English" || fail "graph: the article's title in Dutch and English" ""
"$ARBITER" graph --ruleset bridge-2017 --article 27 >"$work/cli.dot"
if [ "$(jq -r .dot "$work/body")" = "$(cat "$work/cli.dot")" ]; then pass "graph: the DOT of \`arbiter graph\`"
else fail "graph: the DOT of \`arbiter graph\`" "differs"; fi
expect_error "graph: no such article → 404" 404 GET '/api/graph?ruleset=bridge-2017&article=999' "" "no article 999"
expect_error "graph: no article given → 400" 400 GET '/api/graph?ruleset=bridge-2017' "" "article="

# ---- bad requests, each followed by a good one ----

printf '{"ruleset": "bridge-2017", "scenario": {' >"$work/broken.json"
expect_error "malformed JSON → 400" 400 POST /api/next "$work/broken.json" "malformed JSON"
still_serving "malformed JSON"
body unknownfact.json '{ruleset: "bridge-2017", scenario: {irregularrity: "insufficient_bid"}}'
expect_error "unknown fact → 400" 400 POST /api/next "$work/unknownfact.json" "did you mean 'irregularity'"
body badvalue.json '{ruleset: "bridge-2017", scenario: {irregularity: "asleep"}}'
expect_error "unknown value → 400" 400 POST /api/rule "$work/badvalue.json" "asleep"
body badauction.json '{ruleset: "bridge-2017", scenario: {auction: "N: 1S 9Z"}}'
expect_error "an auction that cannot be read → 400" 400 POST /api/next "$work/badauction.json" "9Z"
body unknownkey.json '{ruleset: "bridge-2017", scenario: {}, facts: {}}'
expect_error "unknown key in the request → 400" 400 POST /api/next "$work/unknownkey.json" "unknown key 'facts'"
body noruleset.json '{scenario: {}}'
expect_error "no ruleset named → 400" 400 POST /api/next "$work/noruleset.json" 'give \"ruleset\"'
body unknownrs.json '{ruleset: "bridge-2099", scenario: {}}'
expect_error "unknown ruleset → 404" 404 POST /api/next "$work/unknownrs.json" "bridge-2099"
echo '[1, 2]' >"$work/array.json"
expect_error "a JSON array → 400" 400 POST /api/rule "$work/array.json" "JSON object"
: >"$work/nothing.json"
expect_error "an empty body → 400" 400 POST /api/rule "$work/nothing.json" "malformed JSON"
printf '{"ruleset": "bridge-2017", "ruleset": "bridge-1963", "scenario": {}}' >"$work/dup.json"
expect_error "a key twice → 400" 400 POST /api/rule "$work/dup.json" "duplicate"
still_serving "bad JSON requests"

expect_error "GET on a POST endpoint → 405" 405 GET /api/next "" "use POST"
grep -qi '^Allow: POST' "$work/headers" && pass "405 says Allow: POST" || fail "405 says Allow: POST" "$(cat "$work/headers")"
expect_error "DELETE on a GET endpoint → 405" 405 DELETE /api/rulesets "" "use GET"
expect_error "PUT on a page → 405" 405 PUT /index.html "" "use GET"
expect_error "unknown endpoint → 404" 404 GET /api/nothing "" "no endpoint"
still_serving "wrong methods"

head -c 300000 /dev/zero | tr '\0' ' ' >"$work/big.json"
expect_error "oversized body → 413" 413 POST /api/rule "$work/big.json" "larger than"
status=$(curl -s -m 20 -o "$work/body" -w '%{http_code}' -H 'Transfer-Encoding: chunked' --data-binary "@$work/big.json" "$base/api/rule")
[ "$status" = 413 ] && pass "oversized chunked body (no length) → 413" || fail "oversized chunked body → 413" "status $status"
still_serving "oversized bodies"

# ---- the web app's files ----

expect_status "page: /" 200 GET / "" 'app.js'
grep -qi '^Content-Type: text/html' "$work/headers" && pass "page: text/html" || fail "page: text/html" ""
grep -qi "^Content-Security-Policy: default-src 'self'" "$work/headers" && pass "page: loads nothing from elsewhere (CSP)" || fail "page: CSP" ""
for f in app.js graph.js style.css; do expect_status "page: /$f" 200 GET "/$f" "" ""; done
expect_error "page: missing file → 404" 404 GET /nothing.js "" "no page"
status=$(curl -s -m 5 --path-as-is -o "$work/body" -w '%{http_code}' "$base/../../Makefile")
[ "$status" = 404 ] && pass "page: nothing outside core/serve/web (../)" || fail "page: ../" "status $status"
status=$(curl -s -m 5 -o "$work/body" -w '%{http_code}' "$base/.hidden")
[ "$status" = 404 ] && pass "page: no dot files" || fail "page: dot files" "status $status"

# ---- a client that stops sending holds nobody up, and is dropped ----

exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'POST /api/rule HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"rul' >&3
still_serving "a stalled request (meanwhile)"
start=$(date +%s)
if timeout 30 cat <&3 >/dev/null; then
    waited=$(($(date +%s) - start))
    [ "$waited" -le 20 ] && pass "a stalled request is dropped after its idle time (${waited}s)" || fail "stalled request dropped" "${waited}s"
else
    fail "a stalled request is dropped" "still open after 30s"
fi
exec 3<&-

still_serving "everything above"

# ---- starting and stopping ----

"$ARBITER" serve --listen nonsense >"$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q 'HOST:PORT' "$work/out" && pass "serve: a bad --listen → exit 2" || fail "serve: bad --listen" "exit $rc: $(cat "$work/out")"
"$ARBITER" serve --listen 127.0.0.1:0 --ruleset bridge-2099 >"$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q 'bridge-2099' "$work/out" && pass "serve: an unknown --ruleset → exit 2" || fail "serve: unknown --ruleset" "exit $rc"
"$ARBITER" serve --listen "127.0.0.1:$port" --ruleset bridge-2017 >"$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q 'cannot listen' "$work/out" && pass "serve: a port in use → exit 2" || fail "serve: port in use" "exit $rc"

kill -TERM "$server_pid"
wait "$server_pid"
rc=$?
server_pid=
[ "$rc" = 0 ] && pass "serve: stops cleanly on SIGTERM" || { fail "serve: SIGTERM" "exit $rc"; cat "$work/stderr"; }
grep -q 'POST /api/next 200' "$work/stderr" && pass "serve --verbose: a line per request" || fail "serve --verbose" ""

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
