#!/bin/sh
# bench/run.sh - the benchmark driver behind `make bench`. It generates the
# benchmark level (bench/gen_level.c) into $BUILD/bench, times blobc's bake,
# dump and verify against the parsers' own floors (cJSON alone, libyaml
# events alone, XXH3 and memcpy of the blob) and against flatc and capnp on
# the same data (and against the code flatcc generates for it, when
# FLATCC_SRC names flatcc's source: bench/flatcc.sh builds it), checks how
# the times scale with the room count, and ends
# with the goal ratios, each marked met or missed; then bench/pipeline.sh
# (batches against flatc's, a cache hit, a ninja no-op build) and
# bench/watch.sh (a save to the notice of its blob). It only reports: no
# number here ever fails the build; the exit status is non-zero only when a
# command fails to run. See bench/README.md.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc), CC (for
# the report and flatcc), FLATCC_SRC (flatcc's source directory; without
# it the flatcc steps are reported as not run), BENCH_QUICK=1
# (one size, one run: a smoke test), BENCH_ROOMS (the main size),
# BENCH_SIZES (the sizes of the scaling table, default 50000 to 400000),
# BENCH_RUNS (runs per fast step, default 5), BENCH_SLOW_RUNS (runs per
# flatc/capnp step, default 3), BENCH_MS_RUNS (runs of verify, a step of
# milliseconds, default 20), BENCH_PAIR_ROUNDS (alternating rounds per
# compared pair, default 10; 0 skips them).
set -eu

BUILD=${BUILD:-build}
CC=${CC:-cc}
B=$BUILD/bench
BLOBC=${BLOBC:-$BUILD/blobc}
SCHEMA=bench/level.schema
FBS=bench/level.fbs
CAPNP_SCHEMA=bench/level.capnp

if [ "${BENCH_QUICK:-0}" = 1 ]; then
    MAIN=${BENCH_ROOMS:-50000}
    SIZES=$MAIN
    RUNS=1
    SLOW_RUNS=1
    MS_RUNS=1
    PAIR_ROUNDS=${BENCH_PAIR_ROUNDS:-0}
else
    MAIN=${BENCH_ROOMS:-200000}
    SIZES=${BENCH_SIZES:-"50000 100000 200000 400000"}
    RUNS=${BENCH_RUNS:-5}
    SLOW_RUNS=${BENCH_SLOW_RUNS:-3}
    MS_RUNS=${BENCH_MS_RUNS:-20}
    PAIR_ROUNDS=${BENCH_PAIR_ROUNDS:-10}
fi
case " $SIZES " in *" $MAIN "*) ;; *) SIZES="$SIZES $MAIN" ;; esac

die() {
    echo "bench: $*" >&2
    exit 2
}

[ -f "$SCHEMA" ] || die "run from the top of the source tree (no $SCHEMA here)"
for p in rss gen_level limit_cjson limit_yaml limit_xxh3_memcpy; do
    [ -x "$B/$p" ] || die "$B/$p is missing: run 'make bench' to build the bench programs"
done
[ -x "$BLOBC" ] || die "$BLOBC is missing: run 'make bench'"

mkdir -p "$B/res" "$B/out" "$B/fb" "$B/fbjson"
# Time a copy, so that a rebuild of $BLOBC during the run cannot change
# or remove the binary under test halfway.
cp "$BLOBC" "$B/blobc.tested"
BLOBC_SRC=$BLOBC
BLOBC=$B/blobc.tested
rm -f "$B"/res/* "$B/results.md"
REPORT=$B/results.md
FAILED=0
START=$(date +%s)

# Everything printed goes to the terminal and to $REPORT (markdown).
say() {
    printf '%s\n' "$*" | tee -a "$REPORT"
}

size_of() {
    wc -c <"$1" | tr -d ' '
}

# ---- the machine ----
cpu=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
[ -n "$cpu" ] || cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)
cores=$(nproc 2>/dev/null || echo '?')
mem=$(awk '/^MemTotal:/ { printf "%.1f GB", $2 * 1024 / 1e9 }' /proc/meminfo 2>/dev/null || echo '?')
say "# blobc benchmark"
say ""
say "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
say "- machine: ${cpu:-unknown CPU}, $cores cores, $mem memory, $(uname -sr)"
say "- compiler: $($CC --version 2>/dev/null | head -1) (flags as in the Makefile)"
say "- $("$BLOBC" --version 2>/dev/null | head -1 || echo "blobc (no --version)") ($BLOBC_SRC); libyaml $(pkg-config --modversion yaml-0.1 2>/dev/null || echo '?'), cJSON $(pkg-config --modversion libcjson 2>/dev/null || echo '?'), xxHash $(pkg-config --modversion libxxhash 2>/dev/null || echo '?')"
HAVE_FLATC=0
HAVE_CAPNP=0
if command -v flatc >/dev/null 2>&1; then
    HAVE_FLATC=1
    say "- peer: $(flatc --version 2>/dev/null | head -1)"
else
    say "- peer: flatc not installed, its steps are skipped (Debian: apt-get install flatbuffers-compiler)"
fi
if command -v capnp >/dev/null 2>&1; then
    HAVE_CAPNP=1
    say "- peer: $(capnp --version 2>/dev/null | head -1)"
else
    say "- peer: capnp not installed, its steps are skipped (Debian: apt-get install capnproto)"
fi
# flatcc is no package: it is built from a source directory when one is
# named. Its steps are counted as not run otherwise.
FLATCC=""
NOT_RUN=0
if [ -n "${FLATCC_SRC:-}" ]; then
    echo "bench: building flatcc from $FLATCC_SRC" >&2
    if FLATCC=$(BUILD=$BUILD CC=$CC sh bench/flatcc.sh); then
        say "- peer: flatcc $("$B/flatcc/build/bin/flatcc" --version 2>/dev/null | sed -n 's/^version: *//p' | head -1) (built from $FLATCC_SRC by bench/flatcc.sh; its generated JSON parser, printer and verifier, -O3)"
    else
        FLATCC=""
        FAILED=1
        say "- peer: flatcc did not build from FLATCC_SRC=$FLATCC_SRC (see above); its 3 steps are not run"
    fi
else
    say "- peer: flatcc not run (FLATCC_SRC is not set; FLATCC_SRC=/path/to/flatcc make bench runs it); its 3 steps are not run"
fi
say "- runs: median of $RUNS (flatc, capnp: $SLOW_RUNS; verify: $MS_RUNS); side by side: $PAIR_ROUNDS rounds; level: $MAIN rooms; sizes: $SIZES"
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
say "- load average at the start: $load"
if awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l + 0 > (c + 0) / 2) }'; then
    say "- WARNING: the machine is busy; wall times will be high and noisy (CPU times suffer less)"
fi
say ""

# ---- the data ----
json_of() { echo "$B/level_$1.json"; }
yaml_of() { echo "$B/level_$1.yaml"; }
for n in $SIZES; do
    for fmt in json yaml; do
        f=$B/level_$n.$fmt
        if [ ! -s "$f" ] || [ -n "$(find "$B/gen_level" -newer "$f")" ]; then
            echo "bench: generating $f" >&2
            "$B/gen_level" "$fmt" "$n" "$f.tmp"
            mv "$f.tmp" "$f"
        fi
    done
done
JSON=$(json_of "$MAIN")
YAML=$(yaml_of "$MAIN")
JSON_BYTES=$(size_of "$JSON")
YAML_BYTES=$(size_of "$YAML")

# ---- measuring ----
# measure KEY LABEL RUNS BYTES BASIS [rss options] -- COMMAND...
# Runs COMMAND through bench/rss.c; stores "median min max rss_kb cpu cpu_min"
# in $B/res/KEY and, unless ROWS=0, prints one table row. BYTES/BASIS give
# the MB/s column.
ROWS=1
measure() {
    key=$1 label=$2 runs=$3 bytes=$4 basis=$5
    shift 5
    if "$B/rss" -n "$runs" "$@" >"$B/res/$key.tmp" 2>"$B/res/$key.err"; then
        mv "$B/res/$key.tmp" "$B/res/$key"
        [ "$ROWS" = 1 ] || return 0
        awk -v label="$label" -v runs="$runs" -v bytes="$bytes" -v basis="$basis" '{
            printf "| %s | %d | %.4f | %.4f-%.4f | %.4f | %.1f | %s | %.1f |\n",
                label, runs, $1, $2, $3, $5, bytes / $1 / 1e6, basis, $4 * 1024 / 1e6
        }' "$B/res/$key" | tee -a "$REPORT"
    else
        FAILED=1
        rm -f "$B/res/$key.tmp"
        msg=$(grep -v '^rss: run' "$B/res/$key.err" | head -1 | tr '|' '/')
        [ -n "$msg" ] || msg=$(head -1 "$B/res/$key.err")
        if [ "$ROWS" = 1 ]; then say "| $label | failed: $msg ||||||"; fi
        echo "bench: $label failed; its output:" >&2
        sed 's/^/    /' "$B/res/$key.err" | head -20 >&2
    fi
}

skip() {
    say "| $1 | skipped: $2 ||||||"
}

# A step of a peer that is not there at all: counted, and named at the end.
not_run() {
    NOT_RUN=$((NOT_RUN + 1))
    say "| $1 | not run: $2 ||||||"
}

have() {
    [ -s "$B/res/$1" ]
}

# field KEY N: the Nth number of a result (1 median wall, 4 peak RSS KiB,
# 5 median CPU, 6 min CPU)
field() {
    awk -v n="$2" '{ print $n }' "$B/res/$1"
}

table_head() {
    say "| step | runs | median s | min-max s | CPU s | MB/s | MB/s of | peak RSS MB |"
    say "|---|---:|---:|---:|---:|---:|---|---:|"
}

# ---- the main level ----
say "## $MAIN rooms: $(awk -v b="$JSON_BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB JSON, $(awk -v b="$YAML_BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB YAML"
say ""
table_head

BLOB=$B/out/level_$MAIN.blob
rm -f "$BLOB"
measure bake_json "blobc bake (JSON)" "$RUNS" "$JSON_BYTES" "input" \
    -- "$BLOBC" bake -s "$SCHEMA" -o "$BLOB" "$JSON"
measure bake_yaml "blobc bake (YAML)" "$RUNS" "$YAML_BYTES" "input" \
    -- "$BLOBC" bake -s "$SCHEMA" -o "$B/out/level_$MAIN.yaml.blob" "$YAML"
if [ -s "$BLOB" ]; then
    BLOB_BYTES=$(size_of "$BLOB")
    measure dump_yaml "blobc dump (YAML)" "$RUNS" "$BLOB_BYTES" "blob" \
        -o "$B/out/dump_$MAIN.yaml" -- "$BLOBC" dump "$BLOB"
    measure dump_json "blobc dump --json" "$RUNS" "$BLOB_BYTES" "blob" \
        -o "$B/out/dump_$MAIN.json" -- "$BLOBC" dump --json "$BLOB"
    measure verify "blobc verify" "$MS_RUNS" "$BLOB_BYTES" "blob" -- "$BLOBC" verify "$BLOB"
    measure size "blobc size" "$RUNS" "$BLOB_BYTES" "blob" -o "$B/out/size_$MAIN.txt" -- "$BLOBC" size "$BLOB"
    measure dump_html "blobc dump --html" "$RUNS" "$BLOB_BYTES" "blob" \
        -- "$BLOBC" dump --html -o "$B/out/level_$MAIN.html" "$BLOB"
else
    BLOB_BYTES=0
    for s in "blobc dump (YAML)" "blobc dump --json" "blobc verify" "blobc size" "blobc dump --html"; do
        skip "$s" "no blob (bake failed)"
    done
fi
# gen c and check on a 10,000-deep chain of inline structs: linear in the
# schema (a struct's layout hash covers all it contains; gen c takes every
# struct's bytes out of one serialization of the chain).
DEEP=$B/deep_chain.schema
# (S0 ... S9999: as deep as a type may nest inline)
awk 'BEGIN { n = 9999
    for (i = 0; i < n; i++) printf "struct S%d { v: u8; n: S%d; }\n", i, i + 1
    printf "struct S%d { v: u8; }\nroot S0;\n", n }' >"$DEEP"
DEEP_BYTES=$(size_of "$DEEP")
measure gen_deep "blobc gen c (10,000-deep chain)" "$RUNS" "$DEEP_BYTES" "schema" \
    -- "$BLOBC" gen c -o "$B/out/deep_chain.h" "$DEEP"
measure check_deep "blobc check (10,000-deep chain)" "$RUNS" "$DEEP_BYTES" "schema" \
    -o "$B/out/deep_chain.txt" -- "$BLOBC" check "$DEEP"

FB_BIN=$B/fb/level_$MAIN.bin
CAPNP_BIN=$B/out/level_$MAIN.capnp.bin
# Outputs of an earlier run must not stand in for a step that fails now.
rm -f "$FB_BIN" "$CAPNP_BIN"
if [ "$HAVE_FLATC" = 1 ]; then
    measure flatc_b "flatc -b (JSON to binary)" "$SLOW_RUNS" "$JSON_BYTES" "input" \
        -- flatc -b -o "$B/fb" "$FBS" "$JSON"
    if [ -s "$FB_BIN" ]; then
        FB_BYTES=$(size_of "$FB_BIN")
        measure flatc_json "flatc --json --raw-binary" "$SLOW_RUNS" "$FB_BYTES" "flatc binary" \
            -- flatc --json --strict-json --raw-binary -o "$B/fbjson" "$FBS" -- "$FB_BIN"
    else
        skip "flatc --json --raw-binary" "flatc -b made no binary"
    fi
else
    skip "flatc -b (JSON to binary)" "flatc not installed"
    skip "flatc --json --raw-binary" "flatc not installed"
fi

if [ "$HAVE_CAPNP" = 1 ]; then
    measure capnp_bin "capnp convert json:binary" "$SLOW_RUNS" "$JSON_BYTES" "input" \
        -i "$JSON" -o "$CAPNP_BIN" -- capnp convert json:binary "$CAPNP_SCHEMA" Level
    if [ -s "$CAPNP_BIN" ]; then
        CAPNP_BYTES=$(size_of "$CAPNP_BIN")
        measure capnp_json "capnp convert binary:json" "$SLOW_RUNS" "$CAPNP_BYTES" "capnp binary" \
            -i "$CAPNP_BIN" -o "$B/out/capnp_$MAIN.json" -- capnp convert binary:json "$CAPNP_SCHEMA" Level
    else
        skip "capnp convert binary:json" "json:binary made no message"
    fi
else
    skip "capnp convert json:binary" "capnp not installed"
    skip "capnp convert binary:json" "capnp not installed"
fi

FCC_BIN=$B/out/level_$MAIN.flatcc.bin
rm -f "$FCC_BIN"
if [ -n "$FLATCC" ]; then
    measure flatcc_parse "flatcc generated JSON parser" "$RUNS" "$JSON_BYTES" "input" \
        -- "$FLATCC" parse "$JSON" "$FCC_BIN"
    if [ -s "$FCC_BIN" ]; then
        FCC_BYTES=$(size_of "$FCC_BIN")
        measure flatcc_print "flatcc generated JSON printer" "$RUNS" "$FCC_BYTES" "flatcc binary" \
            -o "$B/out/flatcc_$MAIN.json" -- "$FLATCC" print "$FCC_BIN"
        measure flatcc_verify "flatcc generated verifier" "$MS_RUNS" "$FCC_BYTES" "flatcc binary" \
            -- "$FLATCC" verify "$FCC_BIN"
    else
        skip "flatcc generated JSON printer" "the parser made no binary"
        skip "flatcc generated verifier" "the parser made no binary"
    fi
else
    for s in "flatcc generated JSON parser" "flatcc generated JSON printer" "flatcc generated verifier"; do
        not_run "$s" "FLATCC_SRC not set"
    done
fi

measure cjson "limit: cJSON parse alone" "$RUNS" "$JSON_BYTES" "input" -- "$B/limit_cjson" "$JSON"
measure libyaml "limit: libyaml events alone" "$RUNS" "$YAML_BYTES" "input" -- "$B/limit_yaml" "$YAML"
# The floors for verify need a blob; before blobc can bake one, the
# FlatBuffers binary of the same level stands in so the rows still show.
LIMIT_BLOB=$BLOB
LIMIT_OF=blob
if [ ! -s "$LIMIT_BLOB" ] && [ -s "$FB_BIN" ]; then
    LIMIT_BLOB=$FB_BIN
    LIMIT_OF="flatc binary"
fi
if [ -s "$LIMIT_BLOB" ]; then
    LB=$(size_of "$LIMIT_BLOB")
    measure xxh3 "limit: read + XXH3-64 of the blob" "$RUNS" "$LB" "$LIMIT_OF" \
        -- "$B/limit_xxh3_memcpy" xxh3 "$LIMIT_BLOB"
    measure xxh3_mmap "limit: mmap + XXH3-64 of the blob" "$RUNS" "$LB" "$LIMIT_OF" \
        -- "$B/limit_xxh3_memcpy" xxh3-mmap "$LIMIT_BLOB"
    measure memcpy "limit: read + memcpy of the blob" "$RUNS" "$LB" "$LIMIT_OF" \
        -- "$B/limit_xxh3_memcpy" memcpy "$LIMIT_BLOB"
else
    skip "limit: read + XXH3-64 of the blob" "no blob"
    skip "limit: mmap + XXH3-64 of the blob" "no blob"
    skip "limit: read + memcpy of the blob" "no blob"
fi
say ""
say "MB = 10^6 bytes. Times are whole-process wall clock (start-up, reading the"
say "input and writing the output included); CPU s is the median user + system time;"
say "MB/s is of wall time; peak RSS is the largest ru_maxrss of any run."
if [ -s "$LIMIT_BLOB" ]; then
    say ""
    say "In-process, warm memory, best of 10:"
    say ""
    say "- $("$B/limit_xxh3_memcpy" xxh3 "$LIMIT_BLOB" 10)"
    say "- $("$B/limit_xxh3_memcpy" xxh3-mmap "$LIMIT_BLOB" 10)"
    say "- $("$B/limit_xxh3_memcpy" memcpy "$LIMIT_BLOB" 10)"
fi
# The --html page in a browser: the page's own clock, read back from the
# DOM headless Chromium dumps (its script's time, and the time from the
# start of loading until the first view is drawn).
PAGE=$B/out/level_$MAIN.html
if [ -s "$PAGE" ] && command -v chromium >/dev/null 2>&1; then
    t0=$(date +%s.%N)
    ms=$(timeout 600 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$B/chromium" --window-size=1280,900 --dump-dom "file://$(realpath "$PAGE")" 2>/dev/null |
        sed -n 's/.*data-build-ms="\([0-9]*\)" data-ready-ms="\([0-9]*\)".*/\1 \2/p')
    t1=$(date +%s.%N)
    say ""
    if [ -n "$ms" ]; then
        set -- $ms
        say "The --html page of the blob: $(awk -v b="$(size_of "$PAGE")" 'BEGIN { printf "%.1f", b / 1e6 }') MB; in headless Chromium ($(chromium --version 2>/dev/null | head -1)) its script builds the first view in $1 ms, drawn $2 ms after loading began ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s for the whole headless run, start-up and the DOM's dump included)."
    else
        say "The --html page of the blob: Chromium gave no timing (the page's script did not finish)."
        FAILED=1
    fi
elif [ -s "$PAGE" ]; then
    say ""
    say "The --html page of the blob: $(size_of "$PAGE") bytes; not loaded in a browser: chromium is not installed (make deps)."
fi
if [ -s "$BLOB" ] && [ -s "$B/out/level_$MAIN.yaml.blob" ]; then
    say ""
    if cmp -s "$BLOB" "$B/out/level_$MAIN.yaml.blob"; then
        say "The JSON and YAML inputs baked to identical blobs ($BLOB_BYTES bytes)."
    else
        say "WARNING: the JSON and YAML inputs baked to different blobs."
        FAILED=1
    fi
fi
sizes=""
[ "$BLOB_BYTES" -gt 0 ] && sizes="$sizes, blob $BLOB_BYTES"
[ -s "$FB_BIN" ] && sizes="$sizes, FlatBuffers $(size_of "$FB_BIN")"
[ -s "$CAPNP_BIN" ] && sizes="$sizes, Cap'n Proto $(size_of "$CAPNP_BIN")"
if [ -n "$sizes" ]; then
    say ""
    say "Output sizes in bytes: ${sizes#, }."
fi
say ""

# ---- scaling ----
if [ "$SIZES" != "$MAIN" ]; then
    say "## Scaling"
    say ""
    say "Median wall s (min CPU s); x = min CPU time over the previous size's: 2.0 is linear, 4.0 quadratic."
    say ""
    say "| rooms | JSON MB | bake JSON s | x | bake YAML s | x | blob MB | verify s | x |"
    say "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    ROWS=0
    for n in $SIZES; do
        echo "bench: scaling, $n rooms" >&2
        if [ "$n" = "$MAIN" ]; then
            for k in bake_json bake_yaml verify; do
                if have "$k"; then cp "$B/res/$k" "$B/res/${k}_$n"; fi
            done
        else
            j=$(json_of "$n")
            y=$(yaml_of "$n")
            bl=$B/out/level_$n.blob
            measure "bake_json_$n" "bake JSON $n" "$RUNS" "$(size_of "$j")" input \
                -- "$BLOBC" bake -s "$SCHEMA" -o "$bl" "$j"
            measure "bake_yaml_$n" "bake YAML $n" "$RUNS" "$(size_of "$y")" input \
                -- "$BLOBC" bake -s "$SCHEMA" -o "$B/out/level_$n.yaml.blob" "$y"
            if [ -s "$bl" ]; then
                measure "verify_$n" "verify $n" "$MS_RUNS" "$(size_of "$bl")" blob \
                    -- "$BLOBC" verify "$bl"
            fi
        fi
    done
    ROWS=1
    prev=""
    for n in $SIZES; do
        row="| $n | $(awk -v b="$(size_of "$(json_of "$n")")" 'BEGIN { printf "%.1f", b / 1e6 }')"
        for k in bake_json bake_yaml verify; do
            if [ "$k" = verify ]; then
                bl=$B/out/level_$n.blob
                if [ -s "$bl" ]; then
                    row="$row | $(awk -v b="$(size_of "$bl")" 'BEGIN { printf "%.1f", b / 1e6 }')"
                else
                    row="$row | -"
                fi
            fi
            if have "${k}_$n"; then
                t=$(awk '{ printf "%.3f (%.3f)", $1, $6 }' "$B/res/${k}_$n")
                x=-
                if [ -n "$prev" ] && have "${k}_$prev"; then
                    x=$(awk -v a="$(field "${k}_$n" 6)" -v b="$(field "${k}_$prev" 6)" 'BEGIN { printf "%.2f", a / b }')
                fi
                row="$row | $t | $x"
            else
                row="$row | - | -"
            fi
        done
        say "$row |"
        prev=$n
    done
    say ""
    # the table as a chart beside the report (bench/plot.py: python3, no
    # plotting library); copy it to bench/ with RESULTS.md
    if command -v python3 >/dev/null 2>&1 && python3 bench/plot.py "$REPORT" "$B/scaling.svg"; then
        say "![Scaling: min CPU s against rooms, log-log](scaling.svg)"
    else
        say "(no chart: python3 is missing or bench/plot.py failed)"
    fi
    say ""
fi

# ---- side by side ----
# The speed goals compare two programs. Timed in separate blocks a minute
# apart, their ratio also measures how the machine drifted in between (on
# a virtual machine, easily 30%), so each pair also runs in alternating
# rounds: A then B, then B then A, and so on. Its ratio is the median of
# the per-round ratios.

# once KEY: one timed run of the step KEY; prints its median wall time.
once() {
    case $1 in
    bake_json) set -- -- "$BLOBC" bake -s "$SCHEMA" -o "$BLOB" "$JSON" ;;
    bake_yaml) set -- -- "$BLOBC" bake -s "$SCHEMA" -o "$B/out/level_$MAIN.yaml.blob" "$YAML" ;;
    dump_json) set -- -o "$B/out/dump_$MAIN.json" -- "$BLOBC" dump --json "$BLOB" ;;
    verify) set -- -- "$BLOBC" verify "$BLOB" ;;
    flatcc_parse) set -- -- "$FLATCC" parse "$JSON" "$FCC_BIN" ;;
    flatcc_print) set -- -o "$B/out/flatcc_$MAIN.json" -- "$FLATCC" print "$FCC_BIN" ;;
    flatcc_verify) set -- -- "$FLATCC" verify "$FCC_BIN" ;;
    cjson) set -- -- "$B/limit_cjson" "$JSON" ;;
    libyaml) set -- -- "$B/limit_yaml" "$YAML" ;;
    flatc_b) set -- -- flatc -b -o "$B/fb" "$FBS" "$JSON" ;;
    flatc_json) set -- -- flatc --json --strict-json --raw-binary -o "$B/fbjson" "$FBS" -- "$FB_BIN" ;;
    *) die "no step $1" ;;
    esac
    "$B/rss" -n 1 "$@" 2>/dev/null | awk '{ print $1 }'
}

# paired PEER BLOBC: alternating rounds; stores "median ratio, PEER median,
# BLOBC median, rounds" in $B/res/pair_PEER_BLOBC.
paired() {
    have "$1" && have "$2" || return 0
    echo "bench: side by side, $1 and $2" >&2
    out=$B/res/pair_$1_$2
    : >"$out.rounds"
    r=1
    while [ "$r" -le "$PAIR_ROUNDS" ]; do
        if [ $((r % 2)) = 1 ]; then
            a=$(once "$1") && b=$(once "$2") || return 0
        else
            b=$(once "$2") && a=$(once "$1") || return 0
        fi
        [ -n "$a" ] && [ -n "$b" ] || return 0
        echo "$a $b" >>"$out.rounds"
        r=$((r + 1))
    done
    med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    ratio=$(awk '{ print $1 / $2 }' "$out.rounds" | med)
    ta=$(awk '{ print $1 }' "$out.rounds" | med)
    tb=$(awk '{ print $2 }' "$out.rounds" | med)
    echo "$ratio $ta $tb $PAIR_ROUNDS $1 $2" >"$out"
}

paired cjson bake_json
paired flatc_b bake_json
paired libyaml bake_yaml
paired flatc_json dump_json
paired flatcc_parse bake_json
paired flatcc_print dump_json
paired flatcc_verify verify
if ls "$B"/res/pair_* >/dev/null 2>&1 && [ "$PAIR_ROUNDS" -gt 0 ]; then
    say "## Side by side"
    say ""
    say "Alternating rounds (A B, B A, ...); median wall s of each, and the median of the per-round speed ratios."
    say ""
    say "| peer | blobc step | rounds | peer s | blobc s | ratio |"
    say "|---|---|---:|---:|---:|---:|"
    for f in "$B"/res/pair_*; do
        case $f in *.rounds) continue ;; esac
        awk '{
            printf "| %s | %s | %d | %.4f | %.4f | %.2fx |\n", $5, $6, $4, $2, $3, $1
        }' "$f" | tee -a "$REPORT"
    done
    say ""
fi

# ---- goals ----
# goal LABEL TARGET MEASURED VERDICT: VERDICT is met, missed or n/a (why).
goal() {
    say "| $1 | $2 | $3 | $4 |"
}

# ratio_goal LABEL TARGET_TEXT MIN NUM_KEY DEN_KEY: met when the time of
# NUM_KEY over the time of DEN_KEY (a speed ratio of DEN over NUM) >= MIN,
# judged side by side when the pair ran in rounds; the ratio of the two
# table medians is shown beside it.
ratio_goal() {
    if have "$4" && have "$5"; then
        t=$(awk -v a="$(field "$4" 1)" -v b="$(field "$5" 1)" 'BEGIN { printf "%.2f", a / b }')
        if have "pair_$4_$5"; then
            r=$(awk '{ printf "%.2f", $1 }' "$B/res/pair_$4_$5")
            shown="${r}x side by side (table medians ${t}x)"
        else
            r=$t
            shown="${r}x"
        fi
        v=$(awk -v r="$r" -v m="$3" 'BEGIN { print (r >= m) ? "met" : "missed" }')
        goal "$1" "$2" "$shown" "$v"
    else
        goal "$1" "$2" "-" "n/a (not measured)"
    fi
}

# scaling_goal LABEL KEY: met when no doubling of the rooms more than
# multiplies the CPU time by 2.5 (linear is 2.0, quadratic 4.0). The least
# CPU time of the runs, because a busy machine can stretch one wall-clock
# median, or even a CPU-time median, by more than that.
scaling_goal() {
    worst=""
    prev=""
    for n in $SIZES; do
        if have "${2}_$n" && [ -n "$prev" ] && have "${2}_$prev"; then
            worst=$(awk -v a="$(field "${2}_$n" 6)" -v b="$(field "${2}_$prev" 6)" -v w="$worst" \
                'BEGIN { r = a / b; if (w == "" || r > w) w = r; printf "%.2f", w }')
        fi
        prev=$n
    done
    if [ -n "$worst" ]; then
        v=$(awk -v w="$worst" 'BEGIN { print (w <= 2.5) ? "met" : "missed" }')
        goal "$1" "each doubling <= 2.5x CPU time" "worst ${worst}x" "$v"
    else
        goal "$1" "each doubling <= 2.5x CPU time" "-" "n/a (not measured)"
    fi
}

say "## Goals"
say ""
say "| goal | target | measured | verdict |"
say "|---|---|---:|---|"
ratio_goal "bake JSON speed vs cJSON parse alone" ">= 0.8x" 0.8 cjson bake_json
ratio_goal "bake JSON speed vs flatc -b" ">= 2x" 2 flatc_b bake_json
ratio_goal "bake YAML speed vs libyaml events alone" ">= 0.8x" 0.8 libyaml bake_yaml
ratio_goal "dump --json speed vs flatc --json" ">= 3x" 3 flatc_json dump_json
if [ -n "$FLATCC" ]; then
    ratio_goal "bake JSON speed vs flatcc's generated parser" ">= 1.2x" 1.2 flatcc_parse bake_json
    ratio_goal "dump --json speed vs flatcc's generated printer" ">= 1.0x" 1.0 flatcc_print dump_json
    ratio_goal "verify speed vs flatcc's generated verifier" ">= 2x" 2 flatcc_verify verify
else
    for g in "bake JSON speed vs flatcc's generated parser:>= 1.2x" \
        "dump --json speed vs flatcc's generated printer:>= 1.0x" \
        "verify speed vs flatcc's generated verifier:>= 2x"; do
        goal "${g%%:*}" "${g#*:}" "-" "not run (FLATCC_SRC not set)"
    done
fi
if have verify && [ "$BLOB_BYTES" -gt 0 ]; then
    r=$(awk -v b="$BLOB_BYTES" -v t="$(field verify 1)" 'BEGIN { printf "%.0f", b / t / 1e6 }')
    v=$(awk -v r="$r" 'BEGIN { print (r >= 1000) ? "met" : "missed" }')
    goal "verify throughput, whole process" ">= 1000 MB/s of blob" "$r MB/s" "$v"
else
    goal "verify throughput, whole process" ">= 1000 MB/s of blob" "-" "n/a (not measured)"
fi
if have bake_yaml && [ "$BLOB_BYTES" -gt 0 ]; then
    lim=$(awk -v b="$BLOB_BYTES" 'BEGIN { printf "%.1f", (2 * b + 16 * 1048576) / 1e6 }')
    got=$(awk -v k="$(field bake_yaml 4)" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')
    v=$(awk -v g="$got" -v l="$lim" 'BEGIN { print (g <= l) ? "met" : "missed" }')
    goal "peak RSS of bake YAML" "<= 2 x blob + 16 MiB = $lim MB" "$got MB" "$v"
else
    goal "peak RSS of bake YAML" "<= 2 x blob + 16 MiB" "-" "n/a (not measured)"
fi
if have bake_json && have cjson; then
    r=$(awk -v a="$(field bake_json 4)" -v b="$(field cjson 4)" 'BEGIN { printf "%.2f", a / b }')
    v=$(awk -v r="$r" 'BEGIN { print (r <= 1.2) ? "met" : "missed" }')
    goal "peak RSS of bake JSON vs cJSON parse alone" "<= 1.2x" "${r}x" "$v"
else
    goal "peak RSS of bake JSON vs cJSON parse alone" "<= 1.2x" "-" "n/a (not measured)"
fi
if have gen_deep; then
    t=$(field gen_deep 1)
    v=$(awk -v t="$t" 'BEGIN { print (t < 0.2) ? "met" : "missed" }')
    goal "gen c, 10,000-deep chain of inline structs" "< 0.2 s" "$t s" "$v"
else
    goal "gen c, 10,000-deep chain of inline structs" "< 0.2 s" "-" "n/a (not measured)"
fi
if [ "$SIZES" != "$MAIN" ]; then
    scaling_goal "scaling of bake JSON" bake_json
    scaling_goal "scaling of bake YAML" bake_yaml
    scaling_goal "scaling of verify" verify
else
    goal "scaling" "each doubling <= 2.5x CPU time" "-" "n/a (one size: BENCH_QUICK)"
fi
say ""
# Batches, the cache and ninja (bench/pipeline.sh), appended to this report.
BUILD=$BUILD BLOBC=$BLOBC REPORT=$REPORT sh bench/pipeline.sh || FAILED=1
# Maps and a Tiled map against blobc's own form (bench/forms.sh), appended.
BUILD=$BUILD BLOBC=$BLOBC REPORT=$REPORT sh bench/forms.sh || FAILED=1
# What keys and references cost against plain integers (bench/keys.sh).
BUILD=$BUILD BLOBC=$BLOBC REPORT=$REPORT sh bench/keys.sh || FAILED=1
# A spreadsheet's table against the same data in JSON (bench/csv.sh).
BUILD=$BUILD BLOBC=$BLOBC REPORT=$REPORT sh bench/csv.sh || FAILED=1
# The reaction time of blobc watch (bench/watch.sh), appended too.
BUILD=$BUILD BLOBC=$BLOBC REPORT=$REPORT sh bench/watch.sh || FAILED=1
say ""
say "Speed ratios are the peer's median time over blobc's: 2x means blobc takes half as long."
if [ "$NOT_RUN" -gt 0 ]; then
    say "Not run: $NOT_RUN steps of peers that are not there (see the rows marked \"not run\")."
fi
say "Total benchmark time: $(($(date +%s) - START)) s. Report: $REPORT"

if [ "$FAILED" != 0 ]; then
    echo "bench: some steps failed (see above)" >&2
    exit 1
fi
