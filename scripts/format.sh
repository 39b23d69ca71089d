#!/bin/sh
# The C sources against .clang-format (the style; docs/internals.md), with
# Debian's clang-format (scripts/deps.sh installs it).
#
#   ./scripts/format.sh        one "ok"/"FAIL" line per file and "N passed, N failed"
#   ./scripts/format.sh --fix  rewrites the files that fail (what `make format` runs)
#
# plugins/patterns.c is left out: it is Lua's lstrlib.c matcher kept in
# Lua's own layout, so that it still reads against the original.
cd "$(dirname "$0")/.." || exit 2
command -v clang-format >/dev/null 2>&1 || {
    echo "FAIL clang-format: not installed (scripts/deps.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
}
files=$(ls core/*/*.c core/*/*.h dsl/*.c dsl/*.h plugins/*.c plugins/*.h tests/unit/*.c tests/unit/*.h | grep -v '^plugins/patterns\.c$')
if [ "${1:-}" = "--fix" ]; then
    exec clang-format -i $files
fi
passed=0
failed=0
for f in $files; do
    if clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        passed=$((passed + 1))
        echo "ok $f"
    else
        failed=$((failed + 1))
        echo "FAIL $f: not as .clang-format has it ($(clang-format "$f" | diff "$f" - | grep -c '^<') lines; make format)"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
