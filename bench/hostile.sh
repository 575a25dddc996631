#!/bin/sh
# bench/hostile.sh - how long blobc takes to refuse hostile text. Not part
# of `make check` or `make bench`; run by hand from the top of the tree:
#     sh bench/hostile.sh            (BLOBC defaults to build/blobc)
# Prints the wall time of each case (best of 3). Every case must end in an
# error (exit 1), well under a second.
set -eu
BLOBC=${BLOBC:-$(pwd)/build/blobc}
GEN=$(pwd)/tests/tools/gen_flow.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
printf 'struct M { a: *M; l: [u8]; }\nroot M;\n' >m.schema

now() { date +%s%N; }
best() { # best NAME CMD... : best wall time of 3 runs, in ms
    name=$1
    shift
    b=
    for _ in 1 2 3; do
        t0=$(now)
        "$@" >/dev/null 2>&1 && { echo "$name: unexpectedly succeeded" >&2; exit 1; }
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
    best "flow $1 deep around $2 items ($size bytes)" "$BLOBC" bake h.yaml -o o.blob
    best "  the same, --one-thread" "$BLOBC" bake --one-thread h.yaml -o o.blob
done
