#!/bin/sh
# bench/forms.sh - the forms real data files use, run by bench/run.sh after
# its own steps (or alone, from the top of the tree, after `make`):
#   1. a [string: Item] map of 25,000 to 200,000 entries, keys in shuffled
#      order: the bake's time per doubling (sorting makes it n log n: a
#      doubling costs a little over 2x), and lookups by key through the
#      find that `blobc gen c` writes (a binary search: a doubling adds
#      one comparison);
#   2. a Tiled map of about 10 MB (tile layers, object groups with typed
#      properties, the keys Tiled writes for its editor), baked with
#      samples/formats/tiled.schema (a union tagged by "type", @open
#      structs skipping keys, optionals), against the same values written in
#      blobc's own form (bench/forms/own.schema: one-key unions, every key
#      named). The goal: within 2x.
# Data from bench/forms/gen_forms.py (seeded). Times are hyperfine medians
# of wall time. Reports only.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc), CC,
# REPORT (a markdown file to append to; default $BUILD/bench/forms.md),
# BENCH_MAP_SIZES (default "25000 50000 100000 200000"), BENCH_TILED_MB
# (default 10).
set -eu
BUILD=${BUILD:-build}
B=$(mkdir -p "$BUILD/bench/forms" && cd "$BUILD/bench/forms" && pwd)
BLOBC=$(cd "$(dirname "${BLOBC:-$BUILD/blobc}")" && pwd)/$(basename "${BLOBC:-$BUILD/blobc}")
CC=${CC:-cc}
REPORT=${REPORT:-$B/forms.md}
SIZES=${BENCH_MAP_SIZES:-"25000 50000 100000 200000"}
MB=${BENCH_TILED_MB:-10}
F=bench/forms

# say, median, cpu, ratio, verdict
. bench/lib.sh
if ! command -v hyperfine >/dev/null 2>&1; then
    say "## Maps and real formats: skipped (hyperfine not installed; make deps installs it)"
    exit 0
fi

# ---- maps ----
"$BLOBC" gen c "$F/map.schema" -o "$B/map_bench.h"
$CC -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$B" -Ilib/include -o "$B/lookup" "$F/lookup.c"
say "## Maps and real formats"
say ""
say "A [string: Item] map, keys in shuffled order (bench/forms/map.schema):"
say ""
say "| entries | JSON MB | bake s | x per doubling | lookup ns | blob MB |"
say "|---|---|---|---|---|---|"
prev=
worst=0
for n in $SIZES; do
    [ -s "$B/map$n.json" ] || python3 "$F/gen_forms.py" map "$n" "$B/map$n.json"
    t=$(median "time_map$n" "'$BLOBC' bake '$B/map$n.json' -s $F/map.schema -o '$B/map$n.blob'")
    ns=$("$B/lookup" "$B/map$n.blob" 1000000 | awk '{ print $6 }')
    x=-
    if [ -n "$prev" ]; then
        x=$(ratio "$t" "$prev")
        worst=$(awk -v a="$x" -v b="$worst" 'BEGIN { print (a > b) ? a : b }')
    fi
    say "| $n | $(awk -v b="$(wc -c <"$B/map$n.json")" 'BEGIN { printf "%.1f", b / 1e6 }') | $t | $x | $ns | $(awk -v b="$(wc -c <"$B/map$n.blob")" 'BEGIN { printf "%.1f", b / 1e6 }') |"
    prev=$t
done

# ---- a Tiled map against blobc's own form ----
[ -s "$B/tiled.json" ] || python3 "$F/gen_forms.py" tiled "$MB" "$B/tiled.json" "$B/own.json"
tiled=$(median time_tiled "'$BLOBC' bake '$B/tiled.json' -s samples/formats/tiled.schema -o '$B/tiled.blob'")
own=$(median time_own "'$BLOBC' bake '$B/own.json' -s $F/own.schema -o '$B/own.blob'")
r=$(ratio "$tiled" "$own")
say ""
say "| step | input MB | median s |"
say "|---|---|---|"
say "| bake the Tiled map (samples/formats/tiled.schema) | $(awk -v b="$(wc -c <"$B/tiled.json")" 'BEGIN { printf "%.1f", b / 1e6 }') | $tiled |"
say "| bake the same values in blobc's own form | $(awk -v b="$(wc -c <"$B/own.json")" 'BEGIN { printf "%.1f", b / 1e6 }') | $own |"
say ""
say "| goal | target | result | |"
say "|---|---|---|---|"
say "| map bake, each doubling of entries | <= 2.5x | ${worst}x | $(awk -v w="$worst" 'BEGIN { print (w <= 2.5) ? "met" : "missed" }') |"
say "| Tiled map against blobc's own arrays | <= 2x the time | ${r}x | $(awk -v w="$r" 'BEGIN { print (w <= 2) ? "met" : "missed" }') |"
