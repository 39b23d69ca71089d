#!/bin/sh
# The layers (docs/internals.md), checked from the sources: every file
# includes only headers of its own layer or of the layers below it, and the
# faces (core/cli, core/serve, core/web: the WebAssembly glue) go through
# the one door, arbiter.h.
#
#   ./scripts/layers.sh          prints the include graph between layers, one
#                                "ok"/"FAIL" line per file, and "N passed, N failed"
#
# The order, from the bottom up; a header is found in the folder of its
# layer. Headers made at build time (parser.h from dsl/parser.y, build_id.h,
# prefix.h) belong to the layer that includes them.
LAYERS="core/base core/engine core/games dsl core/store core/tools plugins core/api core/serve core/web core/cli"
# A face includes arbiter.h and nothing else of the library (the CLI may
# include the server's own header, to start it).
cd "$(dirname "$0")/.." || exit 2

passed=0
failed=0
rank_of() { # rank_of DIR: the position of a layer folder, from 0
    i=0
    for l in $LAYERS; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}
layer_of_header() { # the folder holding header $1, if it is one of ours
    for l in $LAYERS; do
        [ -f "$l/$1" ] && { echo "$l"; return; }
    done
}

edges=""
debts=0
for l in $LAYERS; do
    mine=$(rank_of "$l")
    for f in "$l"/*.c "$l"/*.h "$l"/*.y "$l"/*.re; do
        [ -f "$f" ] || continue
        bad=""
        for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            hl=$(layer_of_header "$h")
            [ -z "$hl" ] && continue # generated, or a system header
            [ "$hl" = "$l" ] && continue
            theirs=$(rank_of "$hl")
            case " $edges " in *" $l>$hl "*) ;; *) edges="$edges $l>$hl" ;; esac
            if [ "$theirs" -gt "$mine" ]; then
                bad="$bad $h ($hl is above $l)"
            elif { [ "$l" = core/cli ] || [ "$l" = core/serve ] || [ "$l" = core/web ]; } && [ "$h" != arbiter.h ] &&
                [ "$hl" != core/serve ]; then # the command starts the server: a face, not an internal
                bad="$bad $h (a face goes through arbiter.h only)"
                debts=$((debts + 1))
            fi
        done
        if [ -n "$bad" ]; then
            echo "FAIL $f includes$bad"
            failed=$((failed + 1))
        else
            echo "ok $f"
            passed=$((passed + 1))
        fi
    done
done
echo "include graph between layers (an arrow runs from a layer to one below it):"
for e in $edges; do echo "  ${e%%>*} -> ${e#*>}"; done
echo "internal headers the faces include beside arbiter.h: $debts (must be 0)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
