#!/bin/sh
# The shipped club plugins from the command line, and the sandbox's limits:
# each failure a clear error naming the plugin, the line and the limit,
# exit status 2. Expected figures are worked out in the comments.
ARBITER=${1:-build/arbiter}
P=plugins
T=tests/plugins
passed=0
failed=0
out=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$tmp"' EXIT

expect() {
    name=$1 status=$2
    shift 2
    patterns=""
    while [ "$1" != "--" ]; do
        patterns="$patterns
$1"
        shift
    done
    shift
    "$@" >"$out" 2>&1 </dev/null
    rc=$?
    missing=$(printf '%s\n' "$patterns" | while IFS= read -r p; do
        [ -z "$p" ] && continue
        grep -qF -- "$p" "$out" || printf '%s' "$p"
    done)
    if [ "$rc" -ne "$status" ] || [ -n "$missing" ]; then
        failed=$((failed + 1))
        echo "FAIL $name: exit $rc (expected $status)${missing:+, output lacks: $missing}"
        sed 's/^/    | /' "$out" | head -n 15
    else
        passed=$((passed + 1))
        echo "ok $name"
    fi
}

# Beginners' drive: the revoker won the revoke trick and his side five more
# (64A1: two tricks); in the drive the club transfers one.
expect "beginners' drive: one trick" 0 "[Clubreglement beginnersdrive art. 2] Als het spel uit is, gaan er 1 slag(en)" \
    "in plaats van 2" -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $T/revoke-64A1.json
expect "beginners' drive json" 0 '"plugins": [' '"cite": "Clubreglement beginnersdrive art. 2"' '"n": 1' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua --json $T/revoke-64A1.json
expect "not a beginners' drive: the law's two tricks" 0 "gaan er 2 slag(en)" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $T/revoke-64A1-club.json
expect "the club's fact needs the plugin" 2 "unknown fact 'beginners_drive'" \
    -- "$ARBITER" rule --ruleset bridge-2017 $T/revoke-64A1.json

# Percentages: 620 beats 170, -100 and 140 and ties the other 620 among five
# others: 100 * (2*3 + 1) / 10 = 70; 650 beats all five: 100; 170 beats two:
# 40; 140 beats one: 20; -100 none: 0.
expect "club percentages" 0 "1,1,620,70" "1,2,650,100" "1,3,620,70" "1,4,170,40" "1,5,-100,0" "1,6,140,20" \
    -- "$ARBITER" matchpoints --ruleset bridge-2017 --plugin $P/club-percentages.lua examples/board-1.csv

# Rotterdams: West cannot follow spades, holds trumps, and the trick lies
# with his partner East (SA). Amsterdam (the NKF text, 12d/12i2) lets him
# discard; Rotterdam makes him trump.
expect "Amsterdam: a discard is legal" 0 "D7   legal    [12 > 12d > 12i2]" "H7   legal" \
    -- "$ARBITER" legal --ruleset klaverjas-nkf-1976 $T/klaverjas-partner-holds.json
expect "Rotterdam: he must trump" 0 "D7   illegal  [12 > 12d > 12i2 > Rotterdams art. 1]" "in het Rotterdamse spel moet hij introeven" \
    "DK   illegal" "H7   legal" "HA   legal" \
    -- "$ARBITER" legal --ruleset klaverjas-nkf-1976 --plugin $P/rotterdams-klaverjassen.lua $T/klaverjas-partner-holds.json

# A failed hand: the takers have 9 card points and 20 roem against 153.
# The ruleset (19i10): the defenders 162 and all roem, 182. The club: the
# defenders 162 and their own roem (none): 162.
expect "nat under the NKF text" 0 "Kolom roem voor de tegenspelers: 20." "Spelers: 0   Tegenspelers: 182" \
    -- "$ARBITER" score --ruleset klaverjas-nkf-1976 $T/klaverjas-nat.json
expect "nat at the club" 0 "[Clubreglement klaverjassen art. 5] Kolom roem voor de tegenspelers: 0." "Spelers: 0   Tegenspelers: 162" \
    "changed the ruling at 19" -- "$ARBITER" score --ruleset klaverjas-nkf-1976 --plugin $P/klaverjas-nat-club.lua $T/klaverjas-nat.json

# The sandbox, through the CLI: each limit a clear error, exit 2.
header='return { api = 1, name = "proef", cite = "Proef art. 1",'
echo "$header validate = function(f) while true do end end }" >"$tmp/loop.lua"
expect "endless loop" 2 "plugin proef: " "loop.lua:1: instruction budget of 1000 exceeded" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/loop.lua" --plugin-instructions 1000 examples/insufficient-bid.json
printf '%s\n validate = function(f)\n local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 100) .. i end end }\n' "$header" >"$tmp/bomb.lua"
expect "memory bomb" 2 "plugin proef: memory limit of 2000000 bytes exceeded" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/bomb.lua" --plugin-memory 2000000 examples/insufficient-bid.json
for call in 'os.execute("true")' 'io.open("/etc/passwd")' 'require("os")' 'dofile("x")' 'load("return 1")'; do
    echo "$header validate = function(f) return $call end }" >"$tmp/forbidden.lua"
    expect "forbidden: $call" 2 "plugin proef: " "forbidden.lua:1: attempt to" \
        -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/forbidden.lua" examples/insufficient-bid.json
done
echo "$header validate = function(f) error('kapot') end }" >"$tmp/error.lua"
expect "runtime error" 2 "plugin proef: " "error.lua:1: kapot" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/error.lua" examples/insufficient-bid.json
echo "return { api = 7, name = \"oud\" }" >"$tmp/old.lua"
expect "api version" 2 "plugin oud: written for API version 7; this arbiter speaks version 1" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/old.lua" examples/insufficient-bid.json
echo "$header validate = function(f) if f.irregularity == \"insufficient_bid\" then return \"niet op de clubavond\" end end }" >"$tmp/refuse.lua"
expect "validation refuses" 2 "plugin proef refuses the scenario: niet op de clubavond (Proef art. 1)" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/refuse.lua" examples/insufficient-bid.json
# a batch goes on after a plugin error on one line, and the other lines are right
printf '{"irregularity": "insufficient_bid", "dealer": "N", "auction": "N: 1S 1H", "replacement": "bid", "replacement_call": "2H"}\n{"dealer": "N", "auction": "N: E:1H*", "irregularity": "call_out_of_rotation", "unintended_call": false, "rho_must_pass": false, "rho_called": false, "rho_next_call": "call", "replacement": "bid", "call_artificial": false, "replacement_comparable": false}\n' >"$tmp/batch.jsonl"
expect "batch with a refusing plugin" 2 '"line":1' '"status":"plugin_error"' '"line":2' '"articles":["29","29B","31","23A","31A2b","31A2","16C","26B","72C"]' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/refuse.lua" "$tmp/batch.jsonl"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
