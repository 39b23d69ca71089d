#!/bin/sh
# The worked examples of docs/guide.md, run: every "$ arbiter …" line in a
# code block is run from the top of the tree, and every line shown under
# it (but "..." and lines cut short with "…") must be in what it prints,
# stdout and stderr together; `arbiter ask`, a dialogue, is left out. Ends
# with "N passed, N failed".
ARBITER=${1:-build/arbiter}
GUIDE=${2:-docs/guide.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One file per example: its command on the first line, the lines it shows after.
awk -v dir="$work" '
    /^```/ { inblock = !inblock; cur = ""; next }
    inblock && /^\$ arbiter / { cur = sprintf("%s/%03d", dir, ++n); print substr($0, 3) >cur; next }
    inblock && cur != "" { print >>cur }
' "$GUIDE"
passed=0
failed=0
for f in "$work"/[0-9]*; do
    [ -f "$f" ] || continue
    cmd=$(head -n 1 "$f" | sed 's/  *#.*$//; s/^arbiter //')
    case $cmd in ask*) continue ;; esac # a dialogue at the terminal: what it shows is typed too
    # shellcheck disable=SC2086 # the command line is split as the guide writes it
    eval "\"$ARBITER\" $cmd" >"$f.out" 2>&1 </dev/null
    missing=$(tail -n +2 "$f" | while IFS= read -r line; do
        case $line in "" | *...* | *…*) continue ;; esac
        grep -qF -- "$line" "$f.out" || printf '    | %s\n' "$line"
    done)
    if [ -z "$missing" ]; then
        passed=$((passed + 1))
        echo "ok arbiter $cmd"
    else
        failed=$((failed + 1))
        echo "FAIL arbiter $cmd: the guide shows lines it does not print:"
        printf '%s\n' "$missing"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
