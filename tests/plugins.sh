#!/bin/sh
# The shipped club plugins from the command line, and the sandbox's limits:
# each failure a clear error naming the plugin, the line and the limit,
# exit status 2. Expected figures are worked out in the comments.
ARBITER=${1:-build/arbiter}
P=plugins/clubs
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
    started=$(date +%s%N)
    "$@" >"$out" 2>&1 </dev/null
    rc=$?
    ms=$((($(date +%s%N) - started) / 1000000))
    missing=$(printf '%s\n' "$patterns" | while IFS= read -r p; do
        [ -z "$p" ] && continue
        grep -qF -- "$p" "$out" || printf '%s' "$p"
    done)
    if [ -n "$within_ms" ] && [ "$ms" -gt "$within_ms" ]; then
        missing="$missing (took $ms ms, more than $within_ms)"
    fi
    if [ "$rc" -ne "$status" ] || [ -n "$missing" ]; then
        failed=$((failed + 1))
        echo "FAIL $name: exit $rc (expected $status)${missing:+, output lacks: $missing}"
        sed 's/^/    | /' "$out" | head -n 15
    else
        passed=$((passed + 1))
        echo "ok $name"
    fi
}

same() { # name, then two strings that must be equal (and not empty)
    if [ -n "$2" ] && [ "$2" = "$3" ]; then
        passed=$((passed + 1))
        echo "ok $1"
    else
        failed=$((failed + 1))
        echo "FAIL $1"
        printf '    | %s\n    | %s\n' "$2" "$3"
    fi
}

# Beginners' drive: the revoker won the revoke trick and his side five more
# (64A1: two tricks); in the drive the club transfers one.
expect "beginners' drive: one trick" 0 "[Clubreglement beginnersdrive art. 2] Als het spel uit is, gaan er 1 slag(en)" \
    "in plaats van 2" -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $T/revoke-64A1.json
expect "beginners' drive json" 0 '"plugins": [' '"cite": "Clubreglement beginnersdrive art. 2"' '"n": 1' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua --json $T/revoke-64A1.json
# `arbiter ask` asks a plugin's own fact by its question when the plugin
# acts on the ruling (64A1 is on its trail) and the scenario does not give
# it; an answer that is not ja/nee is asked again.
tr -d '\n' <$T/revoke-64A1-club.json | sed 's/, *"beginners_drive": false//' >"$tmp/nodrive.json"
expect "ask: the drive's question, answered ja" 0 "Wordt dit spel in een beginnersdrive gespeeld?" "antwoord ja of nee" \
    "gaan er 1 slag(en)" -- sh -c "printf 'misschien\nja\n' | \"$ARBITER\" ask --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $tmp/nodrive.json"
expect "ask: answered nee, the law's two tricks" 0 "Wordt dit spel in een beginnersdrive gespeeld?" "gaan er 2 slag(en)" \
    -- sh -c "printf 'nee\n' | \"$ARBITER\" ask --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $tmp/nodrive.json"
# A whole number past 64 bits was taken as the largest there is
# (9223372036854775807) without a word; it is asked again.
printf 'return { api = 1, name = "p", cite = "C 1", facts = { n = { kind = "int", ask = "Hoeveel tafels?" } },\n  override = { ["*"] = function(r) if r.facts.n then return { note = "n=" .. r.facts.n, remove = {} } end end } }\n' >"$tmp/askint.lua"
printf '{"irregularity": "late", "minutes": 5}' >"$tmp/late.json"
expect "ask: a plugin's number past 64 bits is asked again" 0 "antwoord met een geheel getal" "changed the ruling at *: n=12" \
    -- sh -c "printf '99999999999999999999\n12\n' | \"$ARBITER\" ask --ruleset tests/rules/toy --plugin $tmp/askint.lua $tmp/late.json"
expect "ask: no answer" 2 "the input ended before the questions did" \
    -- "$ARBITER" ask --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua "$tmp/nodrive.json"
expect "ask: not asked where the plugin does not act" 0 "27B1a" \
    -- sh -c "\"$ARBITER\" ask --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua examples/insufficient-bid.json | grep -v beginnersdrive"

# The ruling names each plugin's file with the hash of its text (FNV-1a
# 64 over the file's bytes, as the ruleset's hash), so that a ruling kept
# proves which version spoke; the figure is worked out apart from arbiter.
hash=$(python3 -c "
h = 0xcbf29ce484222325
for b in open('$P/bridge-beginners-revoke.lua', 'rb').read(): h = ((h ^ b) * 0x100000001b3) % 2**64
print('fnv1a64:%016x' % h)" 2>/dev/null)
if [ -n "$hash" ]; then
    expect "the plugin's file and hash in the JSON ruling" 0 '"plugin_files": [' '"file": "plugins/clubs/bridge-beginners-revoke.lua"' \
        "\"hash\": \"$hash\"" -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua --json $T/revoke-64A1.json
    expect "the plugin's file and hash in the text ruling" 0 "Plugin-bestand: plugins/clubs/bridge-beginners-revoke.lua (Beginnersdrive: een verzaking kost één slag), $hash" \
        -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua $T/revoke-64A1.json
    cp $P/bridge-beginners-revoke.lua "$tmp/changed.lua"
    echo "-- one more line" >>"$tmp/changed.lua"
    "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/changed.lua" --json $T/revoke-64A1.json >"$tmp/changed.out"
    other=$(grep -o '"hash": "fnv1a64:[0-9a-f]*"' "$tmp/changed.out")
    same "another version of the file, another hash" "$([ -n "$other" ] && [ "$other" != "\"hash\": \"$hash\"" ] && echo yes)" yes
fi
# A plugin at a path that is not UTF-8 (a Latin-1 file name): its entry
# vanished from plugin_files (jansson refuses such a string), and the
# ruling no longer said which plugin had decided it.
latin=$(printf '%s/caf\351.lua' "$tmp")
cp $P/bridge-beginners-revoke.lua "$latin"
expect "a plugin at a path that is not UTF-8 is named in plugin_files" 0 "\"file\": \"$tmp/café.lua\"" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$latin" --json $T/revoke-64A1.json
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

# Rotterdams, a trump in the trick: South (North's partner) trumped the
# club lead with the jack, the highest trump; North has no club, one lower
# trump and other suits. 12c (as for an opponent's trump) asks him to
# overtrump if he can; he cannot, so he may play another suit (12i4a), and
# the ruleset forbids the undertrump while he holds another card (12i4d).
# Before, the plugin forbade the other suits too, and no card was legal.
printf '{ "trump": "H", "seat": "N", "hand": "H7 S7 D8 DA", "trick": "E:CA HJ C7" }\n' >"$tmp/rotterdam-jack.json"
expect "Rotterdam: under the partner's jack, another suit is legal" 0 "H7   illegal  [12 > 12d > 12i4d]" \
    "S7   legal    [12 > 12d]" "D8   legal" "DA   legal" \
    -- "$ARBITER" legal --ruleset klaverjas-nkf-1976 --plugin $P/rotterdams-klaverjassen.lua "$tmp/rotterdam-jack.json"
printf '{ "trump": "H", "seat": "N", "hand": "H9 S7 D8", "trick": "E:CA HA C7" }\n' >"$tmp/rotterdam-over.json"
expect "Rotterdam: over the partner's ace he must overtrump" 0 "H9   legal" \
    "S7   illegal  [12 > 12d > Rotterdams art. 1] Deze kaart mag niet: in het Rotterdamse spel moet hij overtroeven" \
    "D8   illegal" -- "$ARBITER" legal --ruleset klaverjas-nkf-1976 --plugin $P/rotterdams-klaverjassen.lua "$tmp/rotterdam-over.json"
# The checker walks every kind of position the legal article can tell
# apart: with the Rotterdam plugin, each leaves a legal card.
expect "Rotterdam: a legal card in every position" 0 "klaverjas-nkf-1976: a legal card in every position: " \
    -- "$ARBITER" check klaverjas-nkf-1976 --plugin $P/rotterdams-klaverjassen.lua
# A plugin written too broadly (as the Rotterdam plugin first was) forbids
# the other suits under a partner's trump too: the checker finds the
# position it leaves without a card (partner S trumped with H8; N holds DK and the lower H7).
expect "Rotterdam written too broadly: no card in a position" 2 \
    "klaverjas-nkf-1976, with its plugins: no card is legal in this position" \
    '{"trump":"H","seat":"N","hand":"DK H7","trick":"E:S7 H8 S8"}' \
    -- "$ARBITER" check klaverjas-nkf-1976 --plugin tests/plugins/rotterdam-no-card.lua
printf '{"trump":"H","seat":"N","hand":"DK H7","trick":"E:S7 H8 S8"}\n' >"$tmp/no-card.json"
expect "Rotterdam written too broadly: arbiter legal shows both cards illegal" 0 "DK   illegal  [12 > 12d > Rotterdams art. 1]" \
    "H7   illegal  [12 > 12d > 12i4d]" \
    -- "$ARBITER" legal --ruleset klaverjas-nkf-1976 --plugin tests/plugins/rotterdam-no-card.lua "$tmp/no-card.json"

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
expect "memory bomb" 2 "plugin proef: $tmp/bomb.lua: memory limit of 2000000 bytes exceeded" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/bomb.lua" --plugin-memory 2000000 --plugin-time 60000 \
    examples/insufficient-bid.json
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
printf '{"irregularity": "insufficient_bid", "dealer": "N", "auction": "N: 1S 1H", "replacement": "bid", "replacement_call": "2H", "call_artificial": false}\n{"dealer": "N", "auction": "N: E:1H*", "irregularity": "call_out_of_rotation", "unintended_call": false, "rho_must_pass": false, "rho_called": false, "rho_next_call": "call", "replacement": "bid", "call_artificial": false, "replacement_comparable": false}\n' >"$tmp/batch.jsonl"
expect "batch with a refusing plugin" 2 '"line":1' '"status":"plugin_error"' '"line":2' '"articles":["29","29B","31","31A","31A2","23A","31A2b","16C","26B","72C"]' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/refuse.lua" "$tmp/batch.jsonl"

# Hostile plugins (tests/plugins/hostile-*.lua), each attacking on an
# insufficient bid: stopped within a second (the time limit is 50 ms),
# exit 2, the plugin named with its file and line; and in a batch, the
# next line ruled right by the same process. The whole run, loading the
# ruleset included, must take less than a second.
hostile() { # file, what the error says
    expect "hostile $1" 2 "plugin hostile: " "$T/$1:" "$2" \
        -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$T/$1" examples/insufficient-bid.json
    expect "hostile $1: the next line ruled right" 2 '"line":1' '"status":"plugin_error"' "$T/$1:" "$2" '"line":2' \
        '"articles":["29","29B","31","31A","31A2","23A","31A2b","16C","26B","72C"]' -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$T/$1" "$tmp/batch.jsonl"
}
within_ms=1000
hostile hostile-find.lua "time limit of 50 ms exceeded"
hostile hostile-gsub.lua "time limit of 50 ms exceeded"
hostile hostile-plainfind.lua "time limit of 50 ms exceeded"
hostile hostile-rep.lua ":12: resulting string too large" # after two empty ones made at once
hostile hostile-move.lua "exceeded"
hostile hostile-insert.lua "exceeded"
hostile hostile-pcall.lua "exceeded"
hostile hostile-xpcall.lua "exceeded"
hostile hostile-finalizer.lua "a plugin may not have finalizers (__gc in a metatable)"
# What a plugin hands back is capped and counted against its memory, and
# every text it hands back must be UTF-8 without NUL: refused, never dropped.
hostile hostile-many-actions.lua "returned too much: more than 16 actions"
hostile hostile-long-message.lua "returned too much: a message longer than 2000 bytes"
hostile hostile-long-argument.lua "returned too much: argument 'x' of action 'big' of 1000000 bytes (at most 256)"
hostile hostile-bad-utf8.lua "the note is not UTF-8 text (byte 4 is 0xE9)"
hostile hostile-bad-utf8-argument.lua "argument 'x' of action 'big' is not UTF-8 text (byte 1 is 0xFF)"
hostile hostile-nul.lua "the citation holds a NUL byte (byte 6)"
# Nor a control character: printed as it is, ESC [8m hides what follows.
hostile hostile-control-char.lua "the note holds a control character (U+001B at byte 3)"
printf 'return { api = 1, name = "p", cite = "C 1", actions = { fee = { text = "\033[2J{x}" } },\n  override = { ["*"] = function() return { actions = { { name = "fee", args = { x = "1" } } } } end } }\n' >"$tmp/clear.lua"
expect "a message with a control character" 2 "clear.lua: the message of one of its actions holds a control character (U+001B at byte 1)" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/clear.lua" examples/insufficient-bid.json
printf 'return { api = 1, name = "p\033[2J", cite = "Proef art. 1" }\n' >"$tmp/escname.lua"
expect "a name with a control character" 2 "escname.lua: \`name\` and \`cite\` are UTF-8 text without NUL bytes or control characters" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/escname.lua" examples/insufficient-bid.json
# A plugin's error with an escape sequence reached the terminal as it was
# wherever the library wrote it itself (a load error, `test`'s "got:", the
# legal-card walk of `check`): its control characters are written \xNN,
# as its NUL bytes and bytes that are not UTF-8 are.
printf 'error("load \\27[2J x")\n' >"$tmp/load-esc.lua"
expect "a load error with an escape sequence" 2 'load-esc.lua:1: load \x1B[2J x' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/load-esc.lua" examples/insufficient-bid.json
printf 'return { api = 1, name = "p", cite = "Proef art. 1", validate = function() error("v \\27[2J") end }\n' >"$tmp/error-esc.lua"
expect "test: a plugin's error with an escape sequence" 1 'got: plugin p: ' 'error-esc.lua:1: v \x1B[2J' \
    -- "$ARBITER" test tests/rules/toy --plugin "$tmp/error-esc.lua"
same "a plugin's error: no escape sequence in the output" "$({
    "$ARBITER" test tests/rules/toy --plugin "$tmp/error-esc.lua"
    "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/load-esc.lua" examples/insufficient-bid.json
} 2>&1 | grep -c "$(printf '\033')")" 0
printf 'return { api = 1, name = "caf\351", cite = "Proef art. 1" }\n' >"$tmp/badname.lua"
expect "a name that is not UTF-8" 2 "badname.lua: \`name\` and \`cite\` are UTF-8 text without NUL bytes" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$tmp/badname.lua" examples/insufficient-bid.json
expect "hostile hostile-sort.lua" 2 "plugin hostile: table.sort" "exceeded" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin "$T/hostile-sort.lua" examples/insufficient-bid.json
expect "--plugin-time sets the limit" 2 "hostile-find.lua:10: time limit of 200 ms exceeded" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $T/hostile-find.lua --plugin-time 200 examples/insufficient-bid.json
within_ms=
expect "--plugin-time needs a positive whole number" 2 "--plugin-time needs a positive whole number" \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $T/hostile-find.lua --plugin-time 0 examples/insufficient-bid.json

# A plugin's own fact belongs to its scenario: in a batch whose second line
# says beginners_drive and whose first and third do not, the first and third
# are ruled alike, by 64A1 (two tricks), and the second by the club (one).
plain=$(tr -d '\n' <$T/revoke-64A1-club.json | sed 's/, *"beginners_drive": false//')
{ echo "$plain"; tr -d '\n' <$T/revoke-64A1.json; echo; echo "$plain"; } >"$tmp/drive.jsonl"
expect "batch: the drive's fact holds for its own line" 0 '"line":2' '"n":1' \
    -- "$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua "$tmp/drive.jsonl"
"$ARBITER" rule --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua "$tmp/drive.jsonl" >"$tmp/drive.out"
same "batch: line 1 ruled by 64A1, two tricks" "$(sed -n 1p "$tmp/drive.out" | grep -o '"n":2')" '"n":2'
same "batch: line 3 ruled exactly as line 1" "$(sed -n 1p "$tmp/drive.out" | sed 's/"line":1/L/')" \
    "$(sed -n 3p "$tmp/drive.out" | sed 's/"line":3/L/')"

# A plugin that tries to carry state from one ruling into the next (a
# global, an upvalue, a table of its chunk's, the string and table libraries,
# the strings' metatable, a metatable on the globals, its own table,
# math.random's state): every line of a batch is ruled as if it were the
# only one, and the override of each finds nothing of validate's call.
expect "hostile-state.lua: nothing carried from line to line" 0 '"line":1' '"line":2' '"line":3' '"line":4' \
    -- sh -c "cat $tmp/batch.jsonl $tmp/batch.jsonl | \"$ARBITER\" rule --ruleset bridge-2017 --plugin $T/hostile-state.lua - |
              grep -v -e plugin_error -e 'another call'"
# The same through `arbiter serve`: one client's drive is not another's.
if command -v curl >/dev/null; then
    : >"$tmp/serve.out"
    "$ARBITER" serve --listen 127.0.0.1:0 --ruleset bridge-2017 --plugin $P/bridge-beginners-revoke.lua \
        >"$tmp/serve.out" 2>&1 &
    server=$!
    trap 'kill $server 2>/dev/null; rm -rf "$out" "$tmp"' EXIT
    port=
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.out")
        [ -n "$port" ] && break
        sleep 0.5
    done
    post() { curl -s -m 10 -H 'Content-Type: application/json' -d "$1" "http://127.0.0.1:$port/api/rule"; }
    first=$(post "{\"ruleset\": \"bridge-2017\", \"scenario\": $plain}")
    drive=$(post "{\"ruleset\": \"bridge-2017\", \"scenario\": $(tr -d '\n' <$T/revoke-64A1.json)}")
    third=$(post "{\"ruleset\": \"bridge-2017\", \"scenario\": $plain}")
    same "serve: the first request by 64A1, two tricks" "$(echo "$first" | grep -o '"n": *[0-9]*' | tr -d ' ')" '"n":2'
    same "serve: the drive's request, one trick" "$(echo "$drive" | grep -o '"n": *[0-9]*' | tr -d ' ')" '"n":1'
    same "serve: the third request answered exactly as the first" "$first" "$third"

    # A plugin stuck in a pattern: its request is answered with the error
    # at the time limit, and the next client is served, both within a second.
    : >"$tmp/serve2.out"
    "$ARBITER" serve --listen 127.0.0.1:0 --ruleset bridge-2017 --plugin $T/hostile-find.lua >"$tmp/serve2.out" 2>&1 &
    server2=$!
    trap 'kill $server $server2 2>/dev/null; rm -rf "$out" "$tmp"' EXIT
    port=
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/serve2.out")
        [ -n "$port" ] && break
        sleep 0.5
    done
    started=$(date +%s%N)
    stuck=$(post "{\"ruleset\": \"bridge-2017\", \"scenario\": $(tr -d '\n' <examples/insufficient-bid.json)}")
    other=$(post "{\"ruleset\": \"bridge-2017\", \"scenario\": $(sed -n 2p "$tmp/batch.jsonl")}")
    ms=$((($(date +%s%N) - started) / 1000000))
    same "serve: a stuck plugin's request gets the time limit's error" \
        "$(echo "$stuck" | grep -o 'hostile-find.lua:10: time limit of 50 ms exceeded')" "hostile-find.lua:10: time limit of 50 ms exceeded"
    same "serve: the next client is ruled right" "$(echo "$other" | grep -o '"31A2b"' | head -n 1)" '"31A2b"'
    same "serve: both answered within a second" "$([ "$ms" -lt 1000 ] && echo yes || echo "no: $ms ms")" yes
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
