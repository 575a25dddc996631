#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for FUZZ_SECONDS seconds each,
# FUZZ_JOBS targets at a time (default: the number of cores), starting from
# the seeds in the tree (tests/fuzz/seeds.sh: the corpus, the regression
# cases, the samples and test data). A crash, leak, timeout or sanitizer
# report fails the run; its input is kept in BUILD/fuzz-artifacts (add it
# to tests/fuzz/regress/TARGET, named after what it found, with the fix).
#
# FUZZ_TOTAL, when set, is the stage's wall-clock budget in seconds instead:
# the targets run in rounds of FUZZ_JOBS, so each gets FUZZ_TOTAL divided
# by the number of rounds (CI: docs/TESTING.md, "CI").
set -u
BUILD=${1:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-20}
JOBS=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
if [ -n "${FUZZ_TOTAL:-}" ]; then
    targets=$(ls "$BUILD"/fuzz/fuzz_* | wc -l)
    rounds=$(((targets + JOBS - 1) / JOBS))
    SECONDS_EACH=$((FUZZ_TOTAL / (rounds > 0 ? rounds : 1)))
    echo "fuzz: $targets targets, $JOBS at a time: $rounds rounds of ${SECONDS_EACH} s (FUZZ_TOTAL=$FUZZ_TOTAL)"
fi
corpus=$BUILD/fuzz-corpus
art=$BUILD/fuzz-artifacts
mkdir -p "$art"
. tests/fuzz/seeds.sh

# Every seed file of a target into its working corpus (which keeps what
# earlier runs found).
for bin in "$BUILD"/fuzz/fuzz_*; do
    name=$(basename "$bin")
    mkdir -p "$corpus/$name"
    for p in $(fuzz_seeds "$name"); do
        if [ -d "$p" ]; then
            for f in "$p"/*; do [ -f "$f" ] && cp "$f" "$corpus/$name/"; done
        else
            cp "$p" "$corpus/$name/"
        fi
    done
done
# The samples and test data as bake inputs: the first byte picks the format.
i=0
for f in samples/*.yaml samples/*.json tests/data/bake/*.yaml tests/data/bake/*.json; do
    [ -f "$f" ] || continue
    i=$((i + 1))
    case "$f" in *.json) p='\001' ;; *) p='\000' ;; esac
    { printf "$p"; cat "$f"; } >"$corpus/fuzz_bake/seed$i"
done

# One target: its verdict in BUILD/NAME.result.
fuzz_one() {
    bin=$1
    name=$(basename "$bin")
    log=$BUILD/$name.log
    if "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$art/$name-" "$corpus/$name" >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
        [ -n "$runs" ] || runs=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
        echo "PASS fuzz.$name: ${SECONDS_EACH}s, ${runs:-?} inputs, no crash" >"$BUILD/$name.result"
    else
        {
            echo "FAIL fuzz.$name: see $log and $art/"
            grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
        } >"$BUILD/$name.result"
    fi
}

running=0
for bin in "$BUILD"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    rm -f "$BUILD/$(basename "$bin").result"
    fuzz_one "$bin" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait
        running=0
    fi
done
wait

failed=0
passed=0
for bin in "$BUILD"/fuzz/fuzz_*; do
    r=$BUILD/$(basename "$bin").result
    [ -f "$r" ] || continue
    cat "$r"
    if grep -q '^PASS' "$r"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
