#!/bin/sh
# Runs every test suite: the unit-test binaries, then each CLI script in
# tests/cli/. Each suite prints "PASS name", "FAIL name: why" or "SKIP
# name: why" lines; this counts them, prints every skip, treats a suite
# that exits non-zero without a FAIL line as one
# failure (a crash), and ends with "N passed, N failed". Suites run in
# parallel (JOBS, default the number of cores).
#
# SUITES_EXTRA names more directories of suites (tests/windows for make
# check-windows); SKIP_SUITES holds "name: why" lines, suites that cannot
# run here and are counted as skipped instead (tests/wine.sh).
set -u
BUILD=${BUILD:-build}
export BUILD
BLOBC=$(cd "$BUILD" && pwd)/blobc
export BLOBC
TOP=$(pwd)
export TOP
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT
# Suites run side by side, JOBS at a time (default: the online cores);
# each writes its own output file, and the report reads them back in list
# order, so the output is the same at any JOBS.
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
export WORK="$work"

# The suites, one "name command..." line each.
list() {
    # TESTS="test_a test_b" runs only those unit-test binaries (make tsan).
    if [ -n "${TESTS:-}" ]; then
        for t in $TESTS; do echo "$t $BUILD/tests/$t"; done
        return
    fi
    # The CLI suites first, the largest (the slowest, roughly) leading, so
    # that the short unit tests fill the gaps at the end.
    for s in $(ls -S tests/cli/*.sh ${SUITES_EXTRA:+$(for d in $SUITES_EXTRA; do echo "$d"/*.sh; done)}); do
        case "$s" in */lib.sh) continue ;; esac
        skipped "$(basename "$s" .sh)" && continue
        chosen "$(basename "$s" .sh)" || continue
        echo "$(basename "$s" .sh) sh $s"
    done
    for t in "$BUILD"/tests/test_*; do
        skipped "$(basename "$t")" && continue
        chosen "$(basename "$t")" || continue
        [ -x "$t" ] && echo "$(basename "$t") $t"
    done
}
# SUITES="output cache_key" runs only the suites named (a developer's
# shortcut, e.g. through make check-windows).
chosen() { [ -z "${SUITES:-}" ] || printf ' %s ' "$SUITES" | grep -q " $1 "; }
skipped() { printf '%s\n' "${SKIP_SUITES:-}" | grep -q "^$1: "; }
printf '%s\n' "${SKIP_SUITES:-}" | sed -n 's/^\([^:]*\): \(.*\)/SKIP \1: \2/p' | tee -a "$log"
list >"$work/list"
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c 't=$(date +%s); "$@" >"$WORK/$0.out" 2>&1; echo $? >"$WORK/$0.rc"; echo $(($(date +%s) - t)) >"$WORK/$0.time"' <"$work/list"

# A suite that exits non-zero without a FAIL line counts as one failure.
while read -r name _; do
    out=$work/$name.out
    rc=$(cat "$work/$name.rc" 2>/dev/null || echo 127)
    grep -E '^(PASS|FAIL|SKIP) ' "$out" >>"$log"
    grep -E '^(FAIL|SKIP) ' "$out"
    if [ "$rc" -ne 0 ] && ! grep -qE '^FAIL ' "$out"; then
        echo "FAIL $name: exited $rc without reporting a failure; last output:" | tee -a "$log"
        tail -5 "$out" | sed 's/^/    /'
    fi
done <"$work/list"

# The slowest suites' wall times (SUITE_TIMES=N lists N, 0 none): where
# the run's time goes.
while read -r name _; do
    echo "$(cat "$work/$name.time" 2>/dev/null || echo 0) $name"
done <"$work/list" | sort -rn | head -n "${SUITE_TIMES:-8}" |
    awk '$1 > 0 || NR == 1 {printf "%s%s %d s", (NR > 1 ? ", " : "slowest suites: "), $2, $1} END {if (NR) print ""}'

passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
