#!/bin/sh
# bench/watch.sh - the reaction time of `blobc watch`, run by bench/run.sh
# (or alone, from the top of the tree, after `make bench`): from a save of
# an input to the notice of its new blob at a client (bench/watch_react.c),
# for the sample level and a 10,000-room one, with the default debounce
# (30 ms) and none. The goal: within 100 ms of a change. Reports only.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc),
# BENCH_WATCH_ROUNDS (saves per case, default 30), REPORT (a markdown file
# to append to; default $BUILD/bench/watch.md).
set -eu
BUILD=${BUILD:-build}
B=$(mkdir -p "$BUILD/bench" && cd "$BUILD/bench" && pwd)
BLOBC=$(cd "$(dirname "${BLOBC:-$BUILD/blobc}")" && pwd)/$(basename "${BLOBC:-$BUILD/blobc}")
ROUNDS=${BENCH_WATCH_ROUNDS:-30}
REPORT=${REPORT:-$B/watch.md}
# absolute: each row is timed from inside its work directory
case $REPORT in /*) ;; *) REPORT=$(pwd)/$REPORT ;; esac
W=$B/watch
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
[ -x "$B/watch_react" ] && [ -x "$B/gen_level" ] || { echo "bench: run 'make bench' first" >&2; exit 2; }

rm -rf "$W"
mkdir -p "$W/out"
grep -v '^\$schema:' samples/level.yaml >"$W/small.yaml"
cp schemas/level.schema "$W/small.schema"
"$B/gen_level" yaml 10000 "$W/big.yaml"
cp bench/level.schema "$W/big.schema"

# The watch of the row being timed; ended however the script ends.
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT

# case_row INPUT DEBOUNCE : one row of the table (INPUT.yaml, INPUT.schema)
case_row() {
    input=$1 debounce=$2
    cd "$W"
    "$BLOBC" watch -q -s "$input.schema" --debounce "$debounce" --notify 127.0.0.1:0 "$input.yaml" -o out/ 2>"$W/err" &
    pid=$!
    i=0
    while ! grep -q 'notifying on' "$W/err" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    port=$(sed -n 's/.*notifying on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$W/err")
    t0=$(date +%s.%N)
    "$BLOBC" bake -s "$input.schema" "$input.yaml" -o "$W/one.blob"
    bake=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    if "$B/watch_react" "$port" "$input.yaml" "out/$input.blob" "$ROUNDS" >"$W/ms"; then
        n=$(wc -l <"$W/ms")
        med=$(sed -n "$(((n + 1) / 2))p" "$W/ms")
        p90=$(sed -n "$(((n * 9 + 9) / 10))p" "$W/ms")
        max=$(tail -1 "$W/ms")
        say "| $input ($(wc -c <"$input.yaml" | tr -d ' ') bytes) | $debounce | $(awk -v s="$bake" 'BEGIN { printf "%.0f", s * 1000 }') | $med | $p90 | $max |"
    else
        say "| $input | $debounce | - | failed: $(tail -1 "$W/err") | | |"
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
    cd - >/dev/null
}

say ""
say "## Watch: from a save to the new blob (bench/watch.sh)"
say ""
say "$ROUNDS saves per row, 100 ms apart, each timed from the save to the notice"
say "at a client (the blob is in place by then). The goal: within 100 ms."
say ""
say "| input | debounce (ms) | one bake alone (ms) | median (ms) | p90 (ms) | max (ms) |"
say "| --- | ---: | ---: | ---: | ---: | ---: |"
case_row small 30
case_row small 0
case_row big 30
