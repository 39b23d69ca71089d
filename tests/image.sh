#!/bin/sh
# Ruleset images (core/store/image.h, core/store/cache.h): a ruleset loaded from its
# image gives the same bytes as one compiled from its files, for every
# command; an image that no longer matches its rule files, or is damaged,
# or was made by another build, is never used; a cache that cannot be
# written costs nothing but the compile. (e) The trust model
# (docs/robustness.md): a forged image, an image or cache directory that
# another user owns or may write, and a key that others may read or that is
# a symbolic link are never trusted.
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
    # the images and the key, not the notes of images checked before: a
    # run may add one when the image has left its racy window meanwhile
    before=$(ls -i "$ARBITER_CACHE" 2>/dev/null | grep -v '\.seen$' | sort)
    run "$WORK/warm" "$@"
    after=$(ls -i "$ARBITER_CACHE" 2>/dev/null | grep -v '\.seen$' | sort)
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
same "diff" "$ARBITER" diff bridge-1963 bridge-2017 --format exact
same "diff, the report of an article" "$ARBITER" diff bridge-1963 bridge-2017 --article 27
same "compare, three editions" "$ARBITER" compare --ruleset bridge-1997 --ruleset bridge-2017 --ruleset bridge-1963 examples/dummy-warns-defender.json
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
# An image is trusted by its files' sizes and times once they are older
# than the racy window (core/store/cache.c): then it is used as it is, and
# a change must still be seen — a file added beside them, a file changed
# in place to the same size with its modification time put back (its
# change time cannot be put back).
trusted_by_times() {
    sleep 3 # out of the racy window
    "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null # records the times, no longer racy
    before=$(inode "$(image_of "$TOY")")
    run "$WORK/warm" "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json"
    if [ "$before" = "$(inode "$(image_of "$TOY")")" ] && grep -q "exit 0" "$WORK/warm"; then
        pass "$1: the image is used as it is"
    else
        fail "$1: the image is used as it is" "it was rewritten, or the ruling failed"
    fi
}
trusted_by_times "files older than the racy window"
# The seal and the references are checked once per file (core/store/image.c,
# "a seal checked before"): an image older than the racy window, once
# checked, gets a note beside it, and is not hashed again while it is the
# same file. A write to it afterwards must still be seen, the note left as
# it was; and so must a new key.
img=$(image_of "$TOY")
note=${img%.arb}.seen
if [ -f "$note" ] && [ "$(stat -c %a "$note")" = 600 ]; then pass "an image checked once has a note, 0600"
else fail "an image checked once has a note, 0600" "$(ls -l "$ARBITER_CACHE")"; fi
cp "$note" "$WORK/note"
size=$(wc -c <"$img")
printf 'X' | dd of="$img" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
stale "a byte flipped in an image with a note"
trusted_by_times "the image made again, older than the racy window"
img=$(image_of "$TOY")
head -c 32 /dev/urandom >"$WORK/new-key" && chmod 600 "$WORK/new-key" && mv "$WORK/new-key" "$ARBITER_CACHE/key"
env ARBITER_CACHE_VERBOSE=1 "$ARBITER" rule --ruleset "$TOY" "$WORK/late.json" >/dev/null 2>"$WORK/why"
if grep -q "seal does not match" "$WORK/why"; then pass "a new key: the image with a note is checked again, and refused"
else fail "a new key: the image with a note is checked again, and refused" "$(cat "$WORK/why")"; fi
cp "$WORK/note" "${img%.arb}.seen"
printf 'X' | dd of="$img" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
stale "an image changed, with an earlier note put back beside it"
printf 'test "added" {\n  given irregularity = noise\n  given minutes = 0\n  given volume = small\n  expect 2A\n}\n' >"$TOY/zz-added.rules"
stale "a file added beside files trusted by their times"
rm "$TOY/zz-added.rules"
trusted_by_times "after a file was removed"
touch -r "$TOY/toy.rules" "$WORK/times"
size=$(wc -c <"$TOY/toy.rules")
sed 's/penalty(minutes \* 3)/penalty(minutes * 4)/' "$TOY/toy.rules" >"$WORK/t" && cat "$WORK/t" >"$TOY/toy.rules"
touch -r "$WORK/times" "$TOY/toy.rules"
if [ "$(wc -c <"$TOY/toy.rules")" = "$size" ]; then pass "the file changed keeps its size"; else fail "the file changed keeps its size" "it did not"; fi
stale "a file changed in place, its size and modification time as before"
grep -q "Aftrek van 80 punten" "$WORK/warm" && pass "that change shows" || fail "that change shows" "still the old ruling"
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
if [ -z "$(find "$ARBITER_CACHE" -name '*.arb.*' -o -name '*.seen.*')" ]; then pass "no temporary files left"
else fail "no temporary files left" "$(find "$ARBITER_CACHE" -name '*.arb.*' -o -name '*.seen.*')"; fi

# (e) the trust model. Two copies of the toy ruleset whose rulings differ
# (a deduction of 40 points against one of 60), in a cache of their own.
ARBITER_CACHE=$WORK/cache-trust
A=$WORK/trust/a
B=$WORK/trust/b
mkdir -p "$A" "$B"
cp tests/rules/toy/*.rules "$A"/
cp tests/rules/toy/*.rules "$B"/
sed 's/penalty(minutes \* 2)/penalty(minutes * 3)/' tests/rules/toy/toy.rules >"$B/toy.rules"
"$ARBITER" rule --ruleset "$A" "$WORK/late.json" >/dev/null
"$ARBITER" rule --ruleset "$B" "$WORK/late.json" >/dev/null
mode() { stat -c %a "$1"; }
if [ "$(mode "$ARBITER_CACHE")" = 700 ] && [ "$(mode "$ARBITER_CACHE/key")" = 600 ] &&
    [ "$(mode "$(image_of "$A")")" = 600 ] && [ "$(stat -c %s "$ARBITER_CACHE/key")" = 32 ]; then
    pass "the cache is made 0700, its images and its 32-byte key 0600"
else
    fail "the cache is made 0700, its images and its 32-byte key 0600" "$(ls -la "$ARBITER_CACHE")"
fi

hash_of() { "$ARBITER" rule --ruleset "$1" --json "$WORK/late.json" | sed -n 's/.*"ruleset_hash": "fnv1a64:\([0-9a-f]*\)".*/\1/p'; }
# little-endian bytes of a 64-bit hex number, as hex pairs
le_hex() { echo "$1" | sed 's/\(..\)/\1 /g' | awk '{ for (i = NF; i >= 1; i--) printf "%s", $i }'; }
# write_hex FILE OFFSET HEX: the bytes HEX over FILE at OFFSET
write_hex() {
    esc=""
    for b in $(echo "$3" | sed 's/../& /g'); do esc="$esc$(printf '\\%03o' "0x$b")"; done
    printf "$esc" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# The forgery that an unkeyed checksum let through: B's image, its hash
# field patched to A's hash, the header's integrity field made again by
# whoever has no key (a SHA-256 of what the seal covers), put in place of
# A's image. The ruling must be A's, compiled from A's rule files.
hash_a=$(hash_of "$A")
hash_b=$(hash_of "$B")
img_a=$(image_of "$A")
forged=$WORK/forged.arb
cp "$(image_of "$B")" "$forged"
at=$(od -An -v -tx1 "$forged" | tr -d ' \n' | awk -v h="$(le_hex "$hash_b")" '{ i = index($0, h); while (i % 2 == 0 && i > 0) { j = index(substr($0, i + 1), h); i = j ? i + j : 0 } print i ? (i - 1) / 2 : -1 }')
if [ -n "$hash_a" ] && [ "$hash_a" != "$hash_b" ] && [ "$at" -ge 88 ]; then
    echo "  (B's hash $hash_b at byte $at of its image, patched to A's $hash_a)"
    write_hex "$forged" "$at" "$(le_hex "$hash_a")"
    unkeyed=$( { head -c 56 "$forged"; tail -c +89 "$forged"; } | sha256sum | cut -c1-64)
    write_hex "$forged" 56 "$unkeyed"
    cp "$forged" "$img_a"
    old=$(inode "$img_a")
    run "$WORK/cold" env ARBITER_CACHE=off "$ARBITER" rule --ruleset "$A" --json "$WORK/late.json"
    env ARBITER_CACHE_VERBOSE=1 "$ARBITER" rule --ruleset "$A" --json "$WORK/late.json" >"$WORK/warm" 2>"$WORK/why"
    echo "exit $?" >>"$WORK/warm"
    if ! cmp -s "$WORK/cold" "$WORK/warm"; then
        fail "a forged image is refused" "the ruling is not the rule files'"
        diff "$WORK/cold" "$WORK/warm" | head -n 10 | sed 's/^/    | /'
    elif ! grep -q "Aftrek van 40 punten" "$WORK/warm" || ! grep -q "$hash_a" "$WORK/warm"; then
        fail "a forged image is refused" "not A's ruling and hash"
    elif ! grep -q "seal does not match" "$WORK/why" || [ "$(inode "$img_a")" = "$old" ]; then
        fail "a forged image is refused" "not refused for its seal, or not rebuilt: $(cat "$WORK/why")"
    else
        pass "a forged image (another ruleset's, hash patched, integrity field made again) is refused"
    fi
else
    fail "a forged image is refused" "cannot find B's hash $hash_b in its image ($at)"
fi
run "$WORK/cold" env ARBITER_CACHE=off "$ARBITER" rule --ruleset "$A" "$WORK/late.json"

# refused NAME CHECK: after the change made to A's image, A's next ruling
# must be a compile's, say CHECK when asked why, and leave a new image of
# mode 0600
refused() {
    name=$1
    old=$(inode "$img_a")
    env ARBITER_CACHE_VERBOSE=1 "$ARBITER" rule --ruleset "$A" "$WORK/late.json" >"$WORK/warm" 2>"$WORK/why"
    echo "exit $?" >>"$WORK/warm"
    if ! cmp -s "$WORK/cold" "$WORK/warm"; then
        fail "$name" "output differs from a compile"
    elif ! grep -q "$2" "$WORK/why"; then
        fail "$name" "not refused for that: $(cat "$WORK/why")"
    elif [ "$(inode "$img_a")" = "$old" ] || [ "$(mode "$img_a")" != 600 ]; then
        fail "$name" "the image was not made again, 0600"
    else
        pass "$name"
    fi
}
chmod 620 "$img_a"
refused "an image the group may write is refused" "may be written by group or others"
chmod 606 "$img_a"
refused "an image others may write is refused" "may be written by group or others"
ln -s "$(image_of "$B")" "$WORK/link.arb" && mv -f "$WORK/link.arb" "$img_a"
refused "an image that is a symbolic link is refused" "symbolic link"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody "$img_a"
    refused "an image of another user is refused" "belongs to another user"
else
    pass "an image of another user is refused (skipped: only root can give a file away)"
fi

# unused NAME CHECK: with the cache directory changed, A's ruling must be a
# compile's, say CHECK when asked, and leave the directory's files alone
unused() {
    name=$1
    before=$(ls -il "$ARBITER_CACHE" | sort)
    env ARBITER_CACHE_VERBOSE=1 "$ARBITER" rule --ruleset "$A" "$WORK/late.json" >"$WORK/warm" 2>"$WORK/why"
    echo "exit $?" >>"$WORK/warm"
    if ! cmp -s "$WORK/cold" "$WORK/warm"; then
        fail "$name" "output differs from a compile"
    elif ! grep -q "$2" "$WORK/why"; then
        fail "$name" "not refused for that: $(cat "$WORK/why")"
    elif [ "$(ls -il "$ARBITER_CACHE" | sort)" != "$before" ]; then
        fail "$name" "the cache was written"
    else
        pass "$name"
    fi
}
chmod 770 "$ARBITER_CACHE"
unused "a cache directory the group may write is not used" "may be written by group or others"
chmod 707 "$ARBITER_CACHE"
unused "a cache directory others may write is not used" "may be written by group or others"
chmod 700 "$ARBITER_CACHE"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody "$ARBITER_CACHE"
    unused "a cache directory of another user is not used" "belongs to another user"
    chown "$(id -u)" "$ARBITER_CACHE"
else
    pass "a cache directory of another user is not used (skipped: only root can give a file away)"
fi

# A key that others may read, or that is a link, is not used; the next
# image made replaces it by a new key of the user's, and the images the
# old key sealed are made again.
key=$ARBITER_CACHE/key
cp "$key" "$WORK/old-key"
chmod 640 "$key"
refused "a key the group may read is not used" "group or others may read the key"
if [ "$(mode "$key")" = 600 ] && ! cmp -s "$key" "$WORK/old-key"; then pass "it is replaced by a new key, 0600"
else fail "it is replaced by a new key, 0600" "mode $(mode "$key")"; fi
cp "$key" "$WORK/their-key"
cp "$key" "$WORK/their-key-before"
ln -sf "$WORK/their-key" "$key"
refused "a key that is a symbolic link is not followed" "the key is a symbolic link"
if [ ! -L "$key" ] && [ "$(mode "$key")" = 600 ] && cmp -s "$WORK/their-key" "$WORK/their-key-before" &&
    ! cmp -s "$key" "$WORK/their-key"; then
    pass "the link is replaced by a new key, its target left alone"
else
    fail "the link is replaced by a new key, its target left alone" "$(ls -l "$key")"
fi

# Silence unless asked: a refused cache is no error, and says nothing.
chmod 606 "$img_a"
"$ARBITER" rule --ruleset "$A" "$WORK/late.json" 2>"$WORK/why" >/dev/null
if [ ! -s "$WORK/why" ]; then pass "a refused image says nothing unless asked"
else fail "a refused image says nothing unless asked" "$(cat "$WORK/why")"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
