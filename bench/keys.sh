#!/bin/sh
# bench/keys.sh - what keys and references cost, run by bench/run.sh after
# its own steps (or alone, from the top of the tree, after `make`): one
# JSON graph of 200,000 nodes with four links each (bench/keys/gen_graph.py,
# seeded, nodes in shuffled order) baked three ways: links as plain u32
# (plain.schema), with `@key id` (key.schema: the array sorted, every key
# checked unique), and with the links as `&Node` references (ref.schema:
# 800,000 references resolved at the end of the document). The goal: each
# within 1.5x of the plain bake's time and peak memory. Reports only.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc), CC,
# REPORT (a markdown file to append to; default $BUILD/bench/keys.md),
# BENCH_GRAPH_NODES (default 200000), RUNS (default 7).
set -eu
BUILD=${BUILD:-build}
B=$(mkdir -p "$BUILD/bench/keys" && cd "$BUILD/bench/keys" && pwd)
BLOBC=$(cd "$(dirname "${BLOBC:-$BUILD/blobc}")" && pwd)/$(basename "${BLOBC:-$BUILD/blobc}")
CC=${CC:-cc}
REPORT=${REPORT:-$B/keys.md}
N=${BENCH_GRAPH_NODES:-200000}
RUNS=${RUNS:-7}
K=bench/keys

. bench/lib.sh
[ -x "$B/rss" ] && [ "$B/rss" -nt bench/rss.c ] || $CC -O2 -o "$B/rss" bench/rss.c
[ -s "$B/graph$N.json" ] || python3 "$K/gen_graph.py" "$N" "$B/graph$N.json"
MB=$(awk -v b="$(wc -c <"$B/graph$N.json")" 'BEGIN { printf "%.1f", b / 1e6 }')

say "## Keys and references (bench/keys.sh)"
say ""
say "One JSON graph, $N nodes with four links each ($MB MB), baked three ways"
say "(median of $RUNS runs; peak RSS the largest of any run):"
say ""
say "| schema | median s | CPU s | peak RSS MB | time / plain | memory / plain |"
say "|---|---:|---:|---:|---:|---:|"
for s in plain key ref; do
    # rss prints: median min max rss_kb cpu cpu_min
    set -- $("$B/rss" -n "$RUNS" -- "$BLOBC" bake -s "$K/$s.schema" -o "$B/$s.blob" "$B/graph$N.json")
    eval "t_$s=$1 m_$s=$4 c_$s=$5"
done
row() {
    eval "t=\$t_$1 m=\$m_$1 c=\$c_$1"
    say "| $1 | $t | $c | $(awk -v k="$m" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }') | $(ratio "$t" "$t_plain") | $(ratio "$m" "$m_plain") |"
}
row plain
row key
row ref
le() { awk -v r="$1" 'BEGIN { print (r + 0 <= 1.5) ? "met" : "missed" }'; }
say ""
say "| goal | target | result | |"
say "|---|---|---|---|"
for s in key ref; do
    eval "t=\$t_$s m=\$m_$s"
    rt=$(ratio "$t" "$t_plain")
    rm=$(ratio "$m" "$m_plain")
    say "| $s: time against plain | <= 1.5x | ${rt}x | $(le "$rt") |"
    say "| $s: peak memory against plain | <= 1.5x | ${rm}x | $(le "$rm") |"
done
