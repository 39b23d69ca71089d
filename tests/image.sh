#!/bin/sh
# Ruleset images (core/image.h, core/cache.h): a ruleset loaded from its
# image gives the same bytes as one compiled from its files, for every
# command; an image that no longer matches its rule files, or is damaged,
# or was made by another build, is never used; a cache that cannot be
# written costs nothing but the compile.
ARBITER=${1:-build/arbiter}
BUILD=$(dirname "$ARBITER")
WORK=$(cd "$BUILD" && pwd)/image-test
passed=0
failed=0
rm -rf "$WORK"
mkdir -p "$WORK"
ARBITER_CACHE=$WORK/cache
export ARBITER_CACHE
trap 'rm -rf "$WORK"' EXIT

pass() { passed=$((passed + 1)); echo "ok $1"; }
fail() {
    failed=$((failed + 1))
    echo "FAIL $1: $2"
}

# run OUT COMMAND…: stdout, stderr and the exit status, in one file
run() {
    o=$1
    shift
    "$@" >"$o" 2>&1
    echo "exit $?" >>"$o"
}

# The one image of a ruleset (there is one per directory), and its inode:
# an image that is used is left alone; one that is rebuilt is a new file.
image_of() { ls "$ARBITER_CACHE"/"$(basename "$1")"-*.arb 2>/dev/null | head -n 1; }
inode() { ls -i "$1" 2>/dev/null | cut -d' ' -f1; }

# same NAME COMMAND…: compiled (cache off), then through the cache twice
# (the first run writes the image, the second reads it); all three alike,
# and the second left the image as it was.
same() {
    name=$1
    shift
    run "$WORK/cold" env ARBITER_CACHE=off "$@"
    run "$WORK/first" "$@"
    before=$(ls -i "$ARBITER_CACHE" 2>/dev/null | sort)
    run "$WORK/warm" "$@"
    after=$(ls -i "$ARBITER_CACHE" 2>/dev/null | sort)
    if ! cmp -s "$WORK/cold" "$WORK/first" || ! cmp -s "$WORK/cold" "$WORK/warm"; then
        fail "$name" "output differs from a compile"
        diff "$WORK/cold" "$WORK/warm" | head -n 10 | sed 's/^/    | /'
    elif [ -z "$after" ] || [ "$before" != "$after" ]; then
        fail "$name" "the image was not written, or not used"
    else
        pass "$name"
    fi
}

# (a) every shipped ruleset's own tests, with coverage, from its image
for dir in rulesets/*; do
    grep -qs '^ruleset ' "$dir"/*.rules || continue
    same "test $dir from its image" "$ARBITER" test "$dir" --coverage --verbose
done

# (b) the commands, byte for byte
same "rule (text)" "$ARBITER" rule --ruleset bridge-2017 examples/insufficient-bid.json
same "rule --json batch" "$ARBITER" rule --ruleset bridge-2017 --json examples/batch.jsonl
same "rule --why-not" "$ARBITER" rule --ruleset tests/rules/toy tests/bad/missing-fact.json --why-not penalty
same "rule, 1963" "$ARBITER" rule --ruleset bridge-1963 examples/1963-insufficient-bid.json
same "klaverjas legal" "$ARBITER" legal --ruleset klaverjas-nkf-1976 examples/klaverjas-legal.json
same "klaverjas score" "$ARBITER" score --ruleset klaverjas-nkf-1976 examples/klaverjas-hand.json
same "check" "$ARBITER" check bridge-2017
same "check, the name as a path" "$ARBITER" check ./rulesets/bridge-2017/
same "check with a gap" "$ARBITER" check tests/bad/missing-case.rules
same "diff" "$ARBITER" diff bridge-1963 bridge-2017
same "diff --json of an article" "$ARBITER" diff bridge-1963 bridge-2017 --article 27 --json
same "graph" "$ARBITER" graph --ruleset bridge-2017 --article 27
same "rulesets" "$ARBITER" rulesets

# (c) an image that does not fit is rebuilt, and the output is a compile's.
# A copy of the toy ruleset, changed in each way in turn.
# A cache of its own: image_of finds an image by the directory's name, and
# tests/rules/toy above has the same name.
ARBITER_CACHE=$WORK/cache-toy
TOY=$WORK/toy
mkdir -p "$TOY"
cp tests/rules/toy/*.rules "$TOY"/
echo '{"irregularity": "late", "minutes": 20, "repeated": true}' >"$WORK/late.json"
# stale NAME: the next ruling must rebuild the image and agree with a compile
stale() {
    name=$1
    old=$(inode "$(image_of "$TOY")")
    run "$WORK/cold" env ARBITER_CACHE=off "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json"
    run "$WORK/warm" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json"
    new=$(inode "$(image_of "$TOY")")
    if ! cmp -s "$WORK/cold" "$WORK/warm"; then
        fail "$name" "output differs from a compile"
        diff "$WORK/cold" "$WORK/warm" | head -n 10 | sed 's/^/    | /'
    elif [ -z "$new" ] || [ "$old" = "$new" ]; then
        fail "$name" "the image was not rebuilt"
    else
        pass "$name"
    fi
}
"$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null
sed 's/penalty(minutes \* 2)/penalty(minutes * 3)/' "$TOY/toy.rules" >"$WORK/t" && mv "$WORK/t" "$TOY/toy.rules"
stale "a changed rule file"
grep -q "Aftrek van 60 punten" "$WORK/warm" && pass "the change shows" || fail "the change shows" "still the old ruling"
printf 'test "added" {\n  given irregularity = noise\n  given minutes = 0\n  given volume = small\n  expect 2A\n}\n' >"$TOY/zz-added.rules"
stale "an added rule file"
rm "$TOY/zz-added.rules"
stale "a removed rule file"
img=$(image_of "$TOY")
head -c 1000 "$img" >"$WORK/t" && cat "$WORK/t" >"$img"
stale "a truncated image"
img=$(image_of "$TOY")
size=$(wc -c <"$img")
printf 'X' | dd of="$img" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
stale "a flipped byte"
img=$(image_of "$TOY")
printf 'another build, not this one' | dd of="$img" bs=1 seek=16 conv=notrunc 2>/dev/null
stale "an image of another build"
img=$(image_of "$TOY")
: >"$img"
stale "an empty image"

# Broken rule files write no image.
printf 'ruleset "broken" {\n' >"$WORK/broken.rules"
run "$WORK/warm" "$ARBITER" check "$WORK/broken.rules"
if [ -z "$(image_of "$WORK/broken.rules")" ] && grep -q "exit 2" "$WORK/warm"; then pass "no image of a broken ruleset"
else fail "no image of a broken ruleset" "an image was written"; fi

# (d) where the cache lives, and a cache that cannot be written
run "$WORK/cold" env ARBITER_CACHE=off "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json"
unwritable() {
    name=$1
    shift
    run "$WORK/warm" env "$@" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json"
    if cmp -s "$WORK/cold" "$WORK/warm"; then pass "$name"; else fail "$name" "no ruling"; fi
}
unwritable "a cache under a file still rules" ARBITER_CACHE=/dev/null/arbiter
unwritable "a home that cannot be written still rules" -u ARBITER_CACHE -u XDG_CACHE_HOME HOME=/dev/null
unwritable "no home at all still rules" -u ARBITER_CACHE -u XDG_CACHE_HOME -u HOME
mkdir -p "$WORK/ro"
chmod 555 "$WORK/ro"
if touch "$WORK/ro/x" 2>/dev/null; then # root writes anyway: nothing to test
    pass "a read-only cache still rules (skipped: permissions are not enforced)"
else
    unwritable "a read-only cache still rules" ARBITER_CACHE="$WORK/ro"
fi
chmod 755 "$WORK/ro"
env -u ARBITER_CACHE -u XDG_CACHE_HOME HOME="$WORK/home" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null
if ls "$WORK"/home/.cache/arbiter/toy-*.arb >/dev/null 2>&1; then pass "~/.cache/arbiter by default"
else fail "~/.cache/arbiter by default" "no image there"; fi
env -u ARBITER_CACHE XDG_CACHE_HOME="$WORK/xdg" HOME="$WORK/home2" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null
if ls "$WORK"/xdg/arbiter/toy-*.arb >/dev/null 2>&1 && [ ! -e "$WORK/home2" ]; then pass "\$XDG_CACHE_HOME/arbiter when set"
else fail "\$XDG_CACHE_HOME/arbiter when set" "no image there"; fi
env ARBITER_CACHE=off HOME="$WORK/home3" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null
if [ ! -e "$WORK/home3" ]; then pass "ARBITER_CACHE=off writes nothing"
else fail "ARBITER_CACHE=off writes nothing" "something was written"; fi
if [ -z "$(find "$ARBITER_CACHE" -name '*.arb.*')" ]; then pass "no temporary files left"
else fail "no temporary files left" "$(find "$ARBITER_CACHE" -name '*.arb.*')"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
