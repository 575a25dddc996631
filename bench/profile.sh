#!/bin/sh
# bench/profile.sh - where the bake paths spend their time, as text:
# `perf record` of one run each, summarized by `perf report` (self time
# per function, the functions of 1% or more) into bench/profiles/NAME.txt.
# Run from the top of the tree after `make`; perf must be allowed to
# record (as root, or with kernel.perf_event_paranoid <= 1). The inputs
# are the benchmark's own: the 200,000-room level (bench/gen_level.c) as
# JSON and YAML, the 200,000-node graph of bench/keys.sh with references,
# and the 10,000-deep chain of bench/run.sh.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc), CC,
# OUT (default bench/profiles).
set -eu
BUILD=${BUILD:-build}
BLOBC=${BLOBC:-$BUILD/blobc}
CC=${CC:-cc}
OUT=${OUT:-bench/profiles}
B=$BUILD/bench/profile
mkdir -p "$B" "$OUT"
command -v perf >/dev/null 2>&1 || { echo "profile: perf not installed" >&2; exit 2; }

$CC -O2 -o "$B/gen_level" bench/gen_level.c
[ -s "$B/level.json" ] || "$B/gen_level" json 200000 "$B/level.json"
[ -s "$B/level.yaml" ] || "$B/gen_level" yaml 200000 "$B/level.yaml"
[ -s "$B/graph.json" ] || python3 bench/keys/gen_graph.py 200000 "$B/graph.json"
awk 'BEGIN { n = 9999
    for (i = 0; i < n; i++) printf "struct S%d { v: u8; n: S%d; }\n", i, i + 1
    printf "struct S%d { v: u8; }\nroot S0;\n", n }' >"$B/deep_chain.schema"

# profile NAME WHAT -- COMMAND...: one recorded run, summarized.
profile() {
    name=$1 what=$2
    shift 3
    perf record -q -F 4000 -o "$B/$name.data" -- "$@" >/dev/null 2>&1 ||
        { echo "profile: $name: perf record failed" >&2; exit 1; }
    {
        echo "# $what"
        echo "# $(echo "$@" | sed "s|$B/||g; s|$BUILD/||g")"
        echo "# perf report --no-children --percent-limit 1 --sort dso,symbol (self time; $(date -u +%Y-%m-%d))"
        perf report -q -i "$B/$name.data" --no-children --percent-limit 1 --sort dso,symbol --stdio 2>/dev/null |
            sed 's/[[:space:]]*$//; s/[[:space:]]*-[[:space:]]*-$//' | grep -v '^$'
    } >"$OUT/$name.txt"
    echo "profile: $OUT/$name.txt"
}
profile bake_json "bake of the 200,000-room level, JSON" -- \
    "$BLOBC" bake -s bench/level.schema -o "$B/level.blob" "$B/level.json"
profile bake_yaml "bake of the 200,000-room level, YAML (two threads: libyaml's parse and the fill)" -- \
    "$BLOBC" bake -s bench/level.schema -o "$B/level.blob" "$B/level.yaml"
profile bake_refs "bake of the 200,000-node graph with 800,000 references (bench/keys/ref.schema)" -- \
    "$BLOBC" bake -s bench/keys/ref.schema -o "$B/graph.blob" "$B/graph.json"
profile gen_c_deep "gen c of the 10,000-deep chain of inline structs" -- \
    "$BLOBC" gen c -o "$B/deep_chain.h" "$B/deep_chain.schema"
