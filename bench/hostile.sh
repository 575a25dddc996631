#!/bin/sh
# bench/hostile.sh - how long blobc takes to refuse hostile text. Not part
# of `make check` or `make bench`; run by hand from the top of the tree:
#     sh bench/hostile.sh            (BLOBC defaults to build/blobc)
# Prints the wall time of each case (best of 3). Every YAML case must end
# in an error (exit 1), well under a second; the JSON case (cJSON allows
# 1000 levels, and the reader is linear in them) must bake.
set -eu
BLOBC=${BLOBC:-$(pwd)/build/blobc}
GEN=$(pwd)/tests/tools/gen_flow.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
printf 'struct M { a: *M; l: [u8]; }\nroot M;\n' >m.schema

now() { date +%s%N; }
best() { # best WANT NAME CMD... : best wall time of 3 runs, in ms; WANT is the exit code
    want=$1 name=$2
    shift 2
    b=
    for _ in 1 2 3; do
        t0=$(now)
        rc=0
        "$@" >/dev/null 2>&1 || rc=$?
        [ "$rc" -eq "$want" ] || { echo "$name: exit $rc, want $want" >&2; exit 1; }
        t1=$(now)
        ms=$(( (t1 - t0) / 1000000 ))
        if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
    done
    printf '%-48s %6d ms\n' "$name" "$b"
}

for spec in "9000 400000" "30000 1500000"; do
    set -- $spec
    sh "$GEN" "$1" "$2" >h.yaml
    size=$(wc -c <h.yaml)
    best 1 "flow $1 deep around $2 items ($size bytes)" "$BLOBC" bake h.yaml -o o.blob
    best 1 "  the same, --one-thread" "$BLOBC" bake --one-thread h.yaml -o o.blob
done

# JSON: 990 nested objects around a 400,000-item array.
awk 'BEGIN {
    printf "{\"$schema\": \"m.schema\", \"a\": "
    for (i = 0; i < 990; i++) printf "{\"a\": "
    printf "{\"l\": ["
    for (i = 0; i < 400000; i++) printf (i ? ", 1" : "1")
    printf "]}"
    for (i = 0; i < 991; i++) printf "}"
    printf "\n"
}' >h.json
best 0 "JSON 990 deep around 400000 items ($(wc -c <h.json) bytes)" "$BLOBC" bake h.json -o o.blob
