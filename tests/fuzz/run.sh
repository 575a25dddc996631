#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for FUZZ_SECONDS seconds,
# seeded from the samples and test data. A crash, leak, timeout or
# sanitizer report fails the run; its input is kept in BUILD/fuzz-artifacts.
set -u
BUILD=${1:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-20}
corpus=$BUILD/fuzz-corpus
art=$BUILD/fuzz-artifacts
mkdir -p "$art"

seed() { # target files...
    d=$corpus/$1
    shift
    mkdir -p "$d"
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$d/" 2>/dev/null; done
    return 0
}
seed fuzz_verify samples/*.blob tests/data/*/*.blob tests/bad/blob/*.blob
seed fuzz_dump samples/*.blob tests/data/*/*.blob tests/bad/blob/*.blob
seed fuzz_schema schemas/*.schema tests/data/*/*.schema tests/bad/schema/*.schema
mkdir -p "$corpus/fuzz_bake"
i=0
for f in samples/*.yaml samples/*.json tests/data/bake/*.yaml tests/data/bake/*.json; do
    [ -f "$f" ] || continue
    i=$((i + 1))
    case "$f" in *.json) p='\001' ;; *) p='\000' ;; esac
    { printf "$p"; cat "$f"; } >"$corpus/fuzz_bake/seed$i"
done

failed=0
passed=0
for bin in "$BUILD"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    mkdir -p "$corpus/$name"
    log=$BUILD/$name.log
    if "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$art/$name-" "$corpus/$name" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
        [ -n "$runs" ] || runs=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
        echo "PASS fuzz.$name: ${SECONDS_EACH}s, ${runs:-?} inputs, no crash"
        passed=$((passed + 1))
    else
        echo "FAIL fuzz.$name: see $log and $art/"
        grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
