#!/bin/bash
# `arbiter serve` under load, on 127.0.0.1 only (core/serve/serve.c, the limits;
# docs/robustness.md, "The server"): slow clients that dribble a request
# byte by byte do not keep a normal request from being answered within two
# seconds, not even past the limit per address; a request that does not
# arrive whole within the deadline is dropped; parallel requests (with and
# without plugins) get the answers one request alone gets; SIGTERM and
# SIGINT stop the server promptly with status 0. Every client and loop is
# bounded in count and time. Ends with "N passed, N failed".
ARBITER=${1:-build/arbiter}
REQUEST_SECONDS=10 # core/serve/serve.c
PER_CLIENT=64      # core/serve/serve.c, MAX_PER_CLIENT
passed=0
failed=0
work=$(mktemp -d)
server_pid=
clients=()

pass() { passed=$((passed + 1)); echo "ok $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

stop_clients() {
    [ ${#clients[@]} -gt 0 ] && kill "${clients[@]}" 2>/dev/null
    wait "${clients[@]}" 2>/dev/null
    clients=()
}
cleanup() {
    stop_clients
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

ms() { date +%s%3N; }

# start_server [OPTIONS…]: a server on a loopback port of its own; $port
start_server() {
    "$ARBITER" serve --listen 127.0.0.1:0 --verbose "$@" >"$work/stdout" 2>"$work/stderr" &
    server_pid=$!
    port=
    for _ in $(seq 1 600); do # compiling takes a moment, more under ASan
        port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/stdout")
        [ -n "$port" ] && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    cat "$work/stderr"
    return 1
}

# stop_server SIGNAL NAME: the signal ends the server with status 0 within 2 s
stop_server() {
    local start took rc
    start=$(ms)
    kill "-$1" "$server_pid"
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$server_pid" 2>/dev/null; then
        fail "$2" "still running 5 s after SIG$1"
        kill -KILL "$server_pid"
        wait "$server_pid" 2>/dev/null
    else
        wait "$server_pid"
        rc=$?
        took=$(($(ms) - start))
        if [ "$rc" -eq 0 ] && [ "$took" -le 2000 ]; then pass "$2 (status 0 in $took ms)"
        else fail "$2" "status $rc after $took ms"; fi
    fi
    server_pid=
}

# slow_client SECONDS: sends a request's first line, then one header line
# every 2 seconds, for at most SECONDS (a "slowloris" client).
slow_client() {
    trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$port" || return
    printf 'POST /api/rule HTTP/1.1\r\nHost: 127.0.0.1\r\n' >&3 2>/dev/null || return # refused: closed at once
    local end=$((SECONDS + $1))
    while [ "$SECONDS" -lt "$end" ]; do
        sleep 2
        printf 'X-Slow: 1\r\n' >&3 2>/dev/null || return
    done
}

start_slow_clients() { # COUNT SECONDS
    for _ in $(seq 1 "$1"); do
        slow_client "$2" &
        clients+=($!)
    done
}

# normal NAME: GET /api/rulesets is answered (200) within 2 seconds
normal() {
    local start took status
    start=$(ms)
    status=$(curl -s -m 2 -o "$work/body" -w '%{http_code}' "http://127.0.0.1:$port/api/rulesets")
    took=$(($(ms) - start))
    if [ "$status" = 200 ] && grep -q '"rulesets"' "$work/body"; then pass "$1 (in $took ms)"
    else fail "$1" "status $status after $took ms"; fi
}

# ---- slow clients ----

if ! start_server --ruleset tests/rules/toy; then
    echo "FAIL start: the server did not start"
    echo "0 passed, 1 failed"
    exit 1
fi
pass "start: listening on 127.0.0.1:$port"

start_slow_clients 40 14
sleep 1
normal "40 slow clients: a normal request is answered"
normal "40 slow clients: and another"
start_slow_clients $((PER_CLIENT + 16)) 12
sleep 2 # the slow ones are then older than SLOW_AFTER_MS
normal "$((PER_CLIENT + 56)) slow clients, more than an address may open: a normal request is answered"
if grep -q '^POST /api/rule' "$work/stderr"; then fail "slow clients" "a dribbled request was answered"; else pass "slow clients: none answered"; fi
stop_clients

# ---- the whole-request deadline ----

# A client that sends a header line every second is never idle, but its
# request never ends: it is dropped REQUEST_SECONDS after it began.
deadline_client() {
    trap '' PIPE
    exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "no connection"; return; }
    printf 'GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\n' >&3 2>/dev/null
    local start=$SECONDS
    while [ $((SECONDS - start)) -lt $((REQUEST_SECONDS + 8)) ]; do
        printf 'X-Slow: 1\r\n' >&3 2>/dev/null || break
        read -r -t 1 -u 3 _
        [ $? -eq 1 ] && break # end of file: the server closed it
    done
    echo $((SECONDS - start))
}
took=$(deadline_client)
if [ "$took" -ge $((REQUEST_SECONDS - 1)) ] && [ "$took" -le $((REQUEST_SECONDS + 3)) ]; then
    pass "a request still arriving after ${REQUEST_SECONDS} s is dropped (after ${took} s)"
else
    fail "deadline" "the connection lasted ${took} s (expected about ${REQUEST_SECONDS})"
fi
if grep -q "past the $REQUEST_SECONDS s deadline" "$work/stderr"; then pass "deadline: logged"
else fail "deadline" "no line in --verbose's log"; fi
normal "after the deadline: a normal request is answered"

# ---- parallel requests ----

# parallel NAME N FILE: N requests of FILE at once, each answered as the first one
parallel() {
    local name=$1 n=$2 body=$3 pids=() i bad=0
    curl -s -m 10 -o "$work/want" --data-binary "@$body" "http://127.0.0.1:$port/api/rule"
    for i in $(seq 1 "$n"); do
        curl -s -m 10 -o "$work/got.$i" --data-binary "@$body" "http://127.0.0.1:$port/api/rule" &
        pids+=($!)
    done
    wait "${pids[@]}"
    for i in $(seq 1 "$n"); do cmp -s "$work/want" "$work/got.$i" || bad=$((bad + 1)); done
    if [ -s "$work/want" ] && [ "$bad" -eq 0 ]; then pass "$name: $n answers, each the same"
    else fail "$name" "$bad of $n answers differ from one request alone"; fi
}

printf '{"ruleset": "toy", "scenario": {"irregularity": "late", "minutes": 20, "repeated": true}}' >"$work/toy.json"
parallel "parallel rulings" 40 "$work/toy.json"
stop_server TERM "SIGTERM: the server stops"

if start_server --ruleset bridge-2017 --plugin plugins/clubs/bridge-beginners-revoke.lua; then
    jq -c '{ruleset: "bridge-2017", scenario: .}' tests/plugins/revoke-64A1.json >"$work/revoke.json"
    parallel "parallel rulings with a plugin" 30 "$work/revoke.json"
    if grep -qF '"plugins":[{"plugin"' "$work/want"; then pass "the plugin took part"
    else fail "plugin" "its ruling does not name the plugin: $(head -c 300 "$work/want")"; fi
    # The wizard asks the plugin's own question when the scenario does not
    # give it (the ruling is made; a face asks, then rules again).
    jq -c '{ruleset: "bridge-2017", scenario: (. | del(.beginners_drive))}' tests/plugins/revoke-64A1.json >"$work/next.json"
    curl -s -m 10 -o "$work/next.out" --data-binary "@$work/next.json" "http://127.0.0.1:$port/api/next"
    if jq -e '.question.name == "beginners_drive" and .question.from_plugin and (.question.choices | length) == 2
              and .question.question == "Wordt dit spel in een beginnersdrive gespeeld?"' "$work/next.out" >/dev/null
    then pass "next: the plugin's own question is asked"
    else fail "next: plugin question" "$(head -c 400 "$work/next.out")"; fi
    curl -s -m 10 -o "$work/next.out" --data-binary "@$work/revoke.json" "http://127.0.0.1:$port/api/next"
    if jq -e '.status == "ruling" and (.question == null)' "$work/next.out" >/dev/null
    then pass "next: answered, the plugin's question is not asked again"
    else fail "next: plugin question answered" "$(head -c 400 "$work/next.out")"; fi
    # SIGINT with slow clients connected
    start_slow_clients 10 10
    sleep 0.5
    stop_server INT "SIGINT with slow clients connected: the server stops"
    stop_clients
else
    fail "start with a plugin" "the server did not start"
fi

# The scorer's desk over HTTP: a session, a PBN file and a klaverjas
# ranking answer what `arbiter session|pbn|ranking --json` prints.
if start_server --ruleset bridge-2017 --ruleset klaverjas-nkf-1976; then
    desk() { # NAME ENDPOINT RULESET KEY FILE FIELD CLI-COMMAND
        jq -Rs --arg r "$3" --arg k "$4" '{ruleset: $r} + {($k): .}' "$5" >"$work/desk.json"
        curl -s -m 30 -o "$work/desk.out" --data-binary "@$work/desk.json" "http://127.0.0.1:$port/api/$2"
        "$ARBITER" "$7" --ruleset "$3" "$5" --json >"$work/desk.cli" 2>/dev/null
        if jq -e --slurpfile cli "$work/desk.cli" ".$6 == \$cli[0]" "$work/desk.out" >/dev/null 2>&1
        then pass "$1: as the CLI's --json"
        else fail "$1" "$(head -c 300 "$work/desk.out")"; fi
    }
    desk "/api/session" session bridge-2017 csv examples/session.csv session session
    desk "/api/pbn" pbn bridge-2017 pbn tests/pbn/session.pbn games pbn
    desk "/api/pbn with a ScoreTable" pbn bridge-2017 pbn tests/pbn/event.pbn games pbn
    desk "/api/ranking" ranking klaverjas-nkf-1976 csv examples/klaverjas-ranking.csv ranking ranking
    # a file with mistakes: 400, the mistakes with their lines, and the games
    # read all the same (the CLI prints both and exits 2)
    desk "/api/pbn with mistakes: the games read all the same" pbn bridge-2017 pbn tests/pbn/mistakes.pbn games pbn
    if jq -e '(.error | test("pbn:4:14: error: Vulnerable")) and (.error | test("pbn:32:10: error: Result"))' "$work/desk.out" >/dev/null 2>&1 &&
        [ "$(curl -s -m 30 -o /dev/null -w '%{http_code}' --data-binary "@$work/desk.json" "http://127.0.0.1:$port/api/pbn")" = 400 ]
    then pass "/api/pbn with mistakes: 400, each mistake with its line"
    else fail "/api/pbn with mistakes" "$(head -c 300 "$work/desk.out")"; fi
    jq -Rs '{pbn: ., export: true}' tests/pbn/export.pbn >"$work/desk.json"
    curl -s -m 30 -o "$work/desk.out" --data-binary "@$work/desk.json" "http://127.0.0.1:$port/api/pbn"
    "$ARBITER" pbn --export --json tests/pbn/export.pbn >"$work/desk.cli" 2>/dev/null
    if jq -e --slurpfile cli "$work/desk.cli" '. == $cli[0]' "$work/desk.out" >/dev/null 2>&1
    then pass "/api/pbn with export: as the CLI's --export --json"
    else fail "/api/pbn export" "$(head -c 300 "$work/desk.out")"; fi
    # "format": "csv": the CSV the command prints, the same bytes (arb_csv)
    desk_csv() { # NAME ENDPOINT RULESET KEY FILE EXTRA-JSON CLI-COMMAND [CLI-ARGS…]
        jq -Rs --arg r "$3" --arg k "$4" --argjson x "$6" '{ruleset: $r, format: "csv"} + {($k): .} + $x' "$5" >"$work/desk.json"
        curl -s -m 30 -o "$work/desk.out" --data-binary "@$work/desk.json" "http://127.0.0.1:$port/api/$2"
        local name=$1 ruleset=$3 file=$5 command=$7
        shift 7
        "$ARBITER" "$command" --ruleset "$ruleset" "$file" "$@" >"$work/desk.cli" 2>/dev/null
        if jq -j .csv "$work/desk.out" 2>/dev/null | cmp -s - "$work/desk.cli" && [ -s "$work/desk.cli" ]
        then pass "$name: the CLI's CSV, byte for byte"
        else fail "$name" "$(head -c 300 "$work/desk.out")"; fi
    }
    desk_csv "/api/session in CSV" session bridge-2017 csv examples/session.csv '{}' session
    desk_csv "/api/session in CSV, the boards" session bridge-2017 csv examples/session.csv '{"boards": true, "method": "butler"}' session --boards --method butler
    desk_csv "/api/matchpoints in CSV" matchpoints bridge-2017 csv examples/board-adjusted.csv '{}' matchpoints
    desk_csv "/api/ranking in CSV" ranking klaverjas-nkf-1976 csv examples/klaverjas-ranking.csv '{}' ranking
    desk_csv "/api/pbn in CSV" pbn bridge-2017 pbn tests/pbn/event.pbn '{}' pbn
    desk_csv "/api/pbn ranking in CSV" pbn bridge-2017 pbn tests/pbn/event.pbn '{"ranking": true}' pbn --ranking
    desk_csv "/api/pbn totals in CSV" pbn bridge-2017 pbn tests/pbn/event.pbn '{"totals": true}' pbn --totals
    # /api/pbn's other views of a file, as the CLI's --totals and --ranking
    for view in totals:totals ranking:session; do
        jq -Rs --arg v "${view%%:*}" '{ruleset: "bridge-2017", pbn: .} + {($v): true}' tests/pbn/event.pbn >"$work/desk.json"
        curl -s -m 30 -o "$work/desk.out" --data-binary "@$work/desk.json" "http://127.0.0.1:$port/api/pbn"
        "$ARBITER" pbn --ruleset bridge-2017 "--${view%%:*}" --json tests/pbn/event.pbn >"$work/desk.cli" 2>/dev/null
        if jq -e --slurpfile cli "$work/desk.cli" ".${view#*:} == \$cli[0]" "$work/desk.out" >/dev/null 2>&1
        then pass "/api/pbn with ${view%%:*}: as the CLI's --${view%%:*} --json"
        else fail "/api/pbn ${view%%:*}" "$(head -c 300 "$work/desk.out")"; fi
    done
    for bad in '{"ruleset":"bridge-2017","csv":"board,ns,ew,score\n","format":"xml"}|is json or csv' \
               '{"ruleset":"bridge-2017","pbn":"","ranking":true,"totals":true}|one at a time' \
               '{"ruleset":"bridge-2017","pbn":"","ranking":"yes"}|is true or false'; do
        path=/api/session; case $bad in *pbn*) path=/api/pbn ;; esac
        code=$(curl -s -m 10 -o "$work/desk.out" -w '%{http_code}' --data-binary "${bad%%|*}" "http://127.0.0.1:$port$path")
        if [ "$code" = 400 ] && grep -qF "${bad#*|}" "$work/desk.out"; then pass "$path refuses ${bad%%|*}: 400, said why"
        else fail "$path bad request" "$code $(cat "$work/desk.out")"; fi
    done
    code=$(curl -s -m 10 -o "$work/desk.out" -w '%{http_code}' --data-binary '{"ruleset":"bridge-2017","csv":1}' "http://127.0.0.1:$port/api/session")
    if [ "$code" = 400 ] && grep -q 'give \\"csv\\"' "$work/desk.out"; then pass "/api/session without a sheet: 400, said why"
    else fail "/api/session bad" "$code $(cat "$work/desk.out")"; fi
    # An address that is not UTF-8 was quoted in an error jansson refused:
    # no answer at all, the connection closed. An argument given twice was
    # taken the first time.
    for bad in '/api/rulesets/%ff|the address is not UTF-8 text' '/%ff|the address is not UTF-8 text' \
               '/api/graph?ruleset=%ff&article=1|not UTF-8 text' \
               '/api/graph?ruleset=bridge-2017&ruleset=toy&article=1|given twice'; do
        code=$(curl -s -m 10 -o "$work/desk.out" -w '%{http_code}' "http://127.0.0.1:$port${bad%%|*}")
        if [ "$code" = 400 ] && grep -qF "${bad#*|}" "$work/desk.out"; then pass "GET ${bad%%|*}: 400, said why"
        else fail "GET ${bad%%|*}" "$code $(cat "$work/desk.out")"; fi
    done
    stop_server TERM "the scorer's desk: the server stops"
else
    fail "scorer's desk" "the server did not start"
fi

# --web DIR: another build of the app (make web's build/web, with its
# WebAssembly module and manifest), served with their types; the policy lets
# the page compile WebAssembly and nothing from elsewhere.
mkdir -p "$work/web"
printf '<!doctype html><title>x</title>' >"$work/web/index.html"
printf '\0asm\1\0\0\0' >"$work/web/arbiter.wasm"
printf '{"name":"arbiter"}' >"$work/web/manifest.webmanifest"
if start_server --ruleset tests/rules/toy --web "$work/web"; then
    headers=$(curl -s -m 10 -D - -o /dev/null "http://127.0.0.1:$port/arbiter.wasm")
    if printf '%s' "$headers" | grep -qi '^content-type: application/wasm' &&
        printf '%s' "$headers" | grep -qi "script-src 'self' 'wasm-unsafe-eval'"; then pass "--web: the WebAssembly module, with its type and policy"
    else fail "--web wasm" "$headers"; fi
    if curl -s -m 10 -D - -o /dev/null "http://127.0.0.1:$port/manifest.webmanifest" | grep -qi '^content-type: application/manifest+json'
    then pass "--web: the manifest, with its type"
    else fail "--web manifest" "wrong type"; fi
    stop_server TERM "--web: the server stops"
else
    fail "--web" "the server did not start"
fi
# --verbose logs each request's address: one with an escape sequence in it
# (%1b%5b2J clears the screen) is logged with '?', never as it came.
if start_server --ruleset tests/rules/toy; then
    curl -s -m 10 -o /dev/null "http://127.0.0.1:$port/api/rulesets/%1b%5b2Jx"
    curl -s -m 10 -o /dev/null "http://127.0.0.1:$port/api/x%1b%5b8my"
    stop_server TERM "--verbose: the server stops"
    if grep -q "$(printf '\033')" "$work/stderr"; then fail "--verbose: no escape sequence in the log" "$(grep -c "$(printf '\033')" "$work/stderr") lines hold ESC"
    elif grep -qF 'GET /api/rulesets/?[2Jx 404' "$work/stderr" && grep -qF 'GET /api/x?[8my 404' "$work/stderr"; then pass "--verbose: a control character in an address logged as ?"
    else fail "--verbose: the addresses logged" "$(cat "$work/stderr")"; fi
else
    fail "--verbose log" "the server did not start"
fi
"$ARBITER" serve --listen 127.0.0.1:0 --ruleset tests/rules/toy --web "$work/nowhere" >/dev/null 2>"$work/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "no index.html there" "$work/err"; then pass "--web without an app: exit 2, said why"
else fail "--web nowhere" "status $rc: $(cat "$work/err")"; fi

echo "$passed passed, $failed failed"
