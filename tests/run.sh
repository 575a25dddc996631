#!/bin/sh
# Runs every test suite: the unit-test binaries, then each CLI script in
# tests/cli/. Each suite prints "PASS name", "FAIL name: why" or "SKIP
# name: why" lines; this counts them, prints every skip, treats a suite
# that exits non-zero without a FAIL line as one
# failure (a crash), and ends with "N passed, N failed".
set -u
BUILD=${BUILD:-build}
export BUILD
BLOBC=$(cd "$BUILD" && pwd)/blobc
export BLOBC
TOP=$(pwd)
export TOP
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_suite() {
    name=$1
    shift
    out=$(mktemp)
    "$@" >"$out" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$out" >>"$log"
    grep -E '^(FAIL|SKIP) ' "$out"
    if [ $rc -ne 0 ] && ! grep -qE '^FAIL ' "$out"; then
        echo "FAIL $name: exited $rc without reporting a failure; last output:" | tee -a "$log"
        tail -5 "$out" | sed 's/^/    /'
    fi
    rm -f "$out"
}

# TESTS="test_a test_b" runs only those unit-test binaries (make tsan).
if [ -n "${TESTS:-}" ]; then
    for t in $TESTS; do run_suite "$t" "$BUILD/tests/$t"; done
else
    for t in "$BUILD"/tests/test_*; do
        [ -x "$t" ] || continue
        run_suite "$(basename "$t")" "$t"
    done
    for s in tests/cli/*.sh; do
        case "$s" in */lib.sh) continue ;; esac
        run_suite "$(basename "$s" .sh)" sh "$s"
    done
fi

passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
