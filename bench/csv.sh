#!/bin/sh
# bench/csv.sh - a spreadsheet's table against the same data in JSON, run
# by bench/run.sh after its own steps (or alone, from the top of the tree,
# after `make`): 100,000 item rows (bench/csv/gen_table.py, seeded: a
# string, an enum, a nested struct, a fixed array of three f32, an f32, a
# bool and a list split on '|') as CSV and as compact JSON, which bake to
# the same blob (checked). The goal: the CSV bake at least as fast as the
# JSON bake. Reports only.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc), CC,
# REPORT (a markdown file to append to; default $BUILD/bench/csv.md),
# BENCH_CSV_ROWS (default 100000), RUNS (default 7).
set -eu
BUILD=${BUILD:-build}
B=$(mkdir -p "$BUILD/bench/csv" && cd "$BUILD/bench/csv" && pwd)
BLOBC=$(cd "$(dirname "${BLOBC:-$BUILD/blobc}")" && pwd)/$(basename "${BLOBC:-$BUILD/blobc}")
CC=${CC:-cc}
REPORT=${REPORT:-$B/csv.md}
N=${BENCH_CSV_ROWS:-100000}
RUNS=${RUNS:-7}
S=bench/csv/table.schema

. bench/lib.sh
[ -x "$B/rss" ] && [ "$B/rss" -nt bench/rss.c ] || $CC -O2 -o "$B/rss" bench/rss.c
[ -s "$B/table$N.csv" ] && [ "$B/table$N.csv" -nt bench/csv/gen_table.py ] ||
    python3 bench/csv/gen_table.py "$N" "$B/table$N.csv" "$B/table$N.json"
"$BLOBC" bake -s "$S" -o "$B/csv.blob" "$B/table$N.csv"
"$BLOBC" bake -s "$S" -o "$B/json.blob" "$B/table$N.json"
cmp -s "$B/csv.blob" "$B/json.blob" || { echo "bench/csv.sh: the CSV and JSON blobs differ" >&2; exit 1; }
mb() { awk -v b="$(wc -c <"$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

say "## A table from a spreadsheet (bench/csv.sh)"
say ""
say "$N item rows as CSV ($(mb "$B/table$N.csv") MB) and as compact JSON ($(mb "$B/table$N.json") MB),"
say "baked to the same blob (median of $RUNS runs; peak RSS the largest of any run):"
say ""
say "| input | median s | CPU s | peak RSS MB | time / JSON |"
say "|---|---:|---:|---:|---:|"
for f in json csv; do
    # rss prints: median min max rss_kb cpu cpu_min
    set -- $("$B/rss" -n "$RUNS" -- "$BLOBC" bake -s "$S" -o "$B/$f.blob" "$B/table$N.$f")
    eval "t_$f=$1 m_$f=$4 c_$f=$5"
done
for f in json csv; do
    eval "t=\$t_$f m=\$m_$f c=\$c_$f"
    say "| $f | $t | $c | $(awk -v k="$m" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }') | $(ratio "$t" "$t_json") |"
done
r=$(ratio "$t_csv" "$t_json")
say ""
say "| goal | target | result | |"
say "|---|---|---|---|"
say "| CSV bake against JSON | <= 1.00x | ${r}x | $(awk -v r="$r" 'BEGIN { print (r + 0 <= 1.0) ? "met" : "missed" }') |"
