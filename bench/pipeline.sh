#!/bin/sh
# bench/pipeline.sh - the pipeline benchmarks, run by bench/run.sh after its
# own steps (or alone, from the top of the tree, after `make bench`):
#   1. a batch of 2,000 small levels (5 to 60 rooms each, JSON):
#      `blobc bake -j2` against flatc's own batch `flatc -b` on the same files;
#   2. the 200,000-room level: a cache hit against a bake; a 60-room level:
#      a hit from a cache directory against a bake, one process each as
#      under ninja; with a local nginx as an HTTP cache (when installed),
#      YAML and JSON levels on both sides of the size below which the
#      server is not asked: the bake through the cache (a hit above, a bake
#      alone below) against a bake without it, and a hit that asks the
#      server whatever the size (--cache-server-min 0);
#   3. ninja with nothing to do over the same 2,000 assets.
# Times are hyperfine medians of wall time; the HTTP table is CPU time
# (user + system, hyperfine's means). Reports only. hyperfine: `make deps`.
#
# Environment: BUILD (default build), BLOBC (default $BUILD/blobc),
# BENCH_ASSETS (default 2000), BENCH_ROOMS (default 200000), REPORT (a
# markdown file to append to; default $BUILD/bench/pipeline.md).
set -eu
BUILD=${BUILD:-build}
B=$(mkdir -p "$BUILD/bench" && cd "$BUILD/bench" && pwd)
BLOBC=$(cd "$(dirname "${BLOBC:-$BUILD/blobc}")" && pwd)/$(basename "${BLOBC:-$BUILD/blobc}")
N=${BENCH_ASSETS:-2000}
ROOMS=${BENCH_ROOMS:-200000}
REPORT=${REPORT:-$B/pipeline.md}
SCHEMA=$(pwd)/bench/level.schema
FBS=$(pwd)/bench/level.fbs
M=$B/many

# say, median, cpu, ratio, verdict
. bench/lib.sh
if ! command -v hyperfine >/dev/null 2>&1; then
    say "## Pipelines: skipped (hyperfine not installed; make deps installs it)"
    exit 0
fi
[ -x "$B/gen_level" ] || { echo "bench: run 'make bench' first" >&2; exit 2; }


# ---- 2,000 small levels ----
mkdir -p "$M/json" "$M/out" "$M/fb"
if [ ! -s "$M/json/a$(printf %04d $((N - 1))).json" ]; then
    echo "bench: generating $N small levels in $M/json" >&2
    i=0
    while [ $i -lt "$N" ]; do
        "$B/gen_level" json $((5 + (i * 7919) % 56)) "$M/json/a$(printf %04d $i).json"
        i=$((i + 1))
    done
fi
bytes=$(cat "$M"/json/*.json | wc -c)
say "## Pipelines"
say ""
say "$N small levels, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of JSON in all:"
say ""
say "| step | median |"
say "|---|---|"
(cd "$M/json" && ls) >"$M/list"
bake=$(cd "$M/json" && median batch "'$BLOBC' bake -j2 -s '$SCHEMA' -o ../out \$(cat ../list)")
say "| blobc bake -j2 (one batch) | ${bake} s |"
if command -v flatc >/dev/null 2>&1; then
    flatc=$(cd "$M/json" && median flatc_batch "flatc -b -o ../fb '$FBS' \$(cat ../list)")
    say "| flatc -b (one batch) | ${flatc} s |"
else
    flatc=
fi

# ---- a cache hit on the big level ----
big=$B/level_$ROOMS.json
[ -s "$big" ] || "$B/gen_level" json "$ROOMS" "$big"
rm -rf "$B/cache"
"$BLOBC" bake -q --cache "$B/cache" -s "$SCHEMA" "$big" -o "$B/big.blob"
nocache=$(median big_bake "'$BLOBC' bake --no-cache -s '$SCHEMA' '$big' -o '$B/big.blob'")
hit=$(median big_hit "'$BLOBC' bake --cache '$B/cache' -s '$SCHEMA' '$big' -o '$B/big.blob'")
say "| bake of the $ROOMS-room level, no cache | ${nocache} s |"
say "| the same, a cache hit | ${hit} s |"

# ---- a cache hit on a small asset (one process per asset, as under ninja) ----
small=$B/level_60.yaml
[ -s "$small" ] || "$B/gen_level" yaml 60 "$small"
"$BLOBC" bake -q --cache "$B/cache" -s "$SCHEMA" "$small" -o "$B/small.blob"
small_bake=$(median small_bake "'$BLOBC' bake --no-cache -s '$SCHEMA' '$small' -o '$B/small.blob'" -N)
small_dir=$(median small_dir_hit "'$BLOBC' bake --cache '$B/cache' -s '$SCHEMA' '$small' -o '$B/small.blob'" -N)
say "| bake of a 60-room level (YAML, $(wc -c <"$small") bytes), no cache | ${small_bake} s |"
say "| the same, a cache directory hit | ${small_dir} s |"
# ---- ninja with nothing to do ----
if command -v ninja >/dev/null 2>&1; then
    {
        printf 'rule bake\n  command = %s bake -q -s %s $in -o $out --depfile $out.d\n' "$BLOBC" "$SCHEMA"
        printf '  depfile = $out.d\n  deps = gcc\n'
        while read -r f; do printf 'build nout/%s.blob: bake json/%s\n' "${f%.json}" "$f"; done <"$M/list"
    } >"$M/build.ninja"
    (cd "$M" && ninja -j2 >/dev/null)
    noop=$(cd "$M" && median ninja_noop ninja)
    say "| ninja, nothing to do ($N assets) | ${noop} s |"
fi
# HTTP: a local nginx (as tests/cli/http.sh runs it) holds the entries.
# Each level is put there first (--cache-server-min 0: whatever its size).
hit_worst=
small_worst=
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ -x "$NGINX" ] && command -v curl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    X=$B/nginx
    rm -rf "$X"
    port=$((20000 + $$ % 20000))
    . "$(pwd)/tests/tools/nginx_cache.sh"
    nginx_cache_conf "$X" "$port"
    "$NGINX" -p "$X" -c "$X/nginx.conf" -e "$X/error.log" >"$X/out" 2>&1 &
    npid=$!
    trap 'kill $npid 2>/dev/null' EXIT
    tries=0
    until curl -s -o /dev/null "http://127.0.0.1:$port/" || [ $tries -ge 20 ]; do
        sleep 0.25
        tries=$((tries + 1))
    done
    url=http://127.0.0.1:$port/blobc
    say ""
    say "An HTTP cache (local nginx), one process per asset: CPU seconds"
    say "(user + system). Below the size from which the server is asked"
    say "(YAML 256 KiB, JSON 2 MiB by default), the bake through the cache"
    say "is a bake alone; above it, a hit."
    say ""
    say "| asset | bytes | bake, no cache | through the cache | / bake | a hit asking the server at any size | / bake |"
    say "|---|---:|---:|---:|---:|---:|---:|"
    for lv in yaml:60 yaml:600 yaml:2000 json:6000 json:20000; do
        fmt=${lv%%:*} rooms=${lv#*:}
        f=$B/level_$rooms.$fmt
        [ -s "$f" ] || "$B/gen_level" "$fmt" "$rooms" "$f"
        "$BLOBC" bake -q --cache-server-min 0 --cache "$url" -s "$SCHEMA" "$f" -o "$B/h.blob" || continue
        c_bake=$(cpu "http_bake_$rooms$fmt" "'$BLOBC' bake --no-cache -s '$SCHEMA' '$f' -o '$B/h.blob'")
        c_via=$(cpu "http_via_$rooms$fmt" "'$BLOBC' bake --cache '$url' -s '$SCHEMA' '$f' -o '$B/h.blob'")
        c_hit=$(cpu "http_hit_$rooms$fmt" "'$BLOBC' bake --cache-server-min 0 --cache '$url' -s '$SCHEMA' '$f' -o '$B/h.blob'")
        r_via=$(awk -v a="$c_via" -v b="$c_bake" 'BEGIN { printf "%.2f", a / b }')
        r_hit=$(awk -v a="$c_hit" -v b="$c_bake" 'BEGIN { printf "%.2f", a / b }')
        say "| $rooms rooms, $fmt | $(wc -c <"$f") | $c_bake | $c_via | $r_via | $c_hit | $r_hit |"
        # above the threshold a hit, below it the same bake as without a cache
        min=262144
        [ "$fmt" = json ] && min=2097152
        if [ "$(wc -c <"$f")" -ge $min ]; then
            hit_worst=$(awk -v w="${hit_worst:-0}" -v r="$r_via" 'BEGIN { print (r > w) ? r : w }')
        else
            small_worst=$(awk -v w="${small_worst:-0}" -v r="$r_via" 'BEGIN { print (r > w) ? r : w }')
        fi
    done
    kill $npid 2>/dev/null || true
    wait $npid 2>/dev/null || true
    trap - EXIT
fi

say ""
say "| goal | target | result | |"
say "|---|---|---|---|"
if [ -n "$flatc" ]; then
    r=$(ratio "$flatc" "$bake")
    say "| $N small assets: bake -j2 vs flatc -b | >= 3x | ${r}x | $(verdict "$r" 3) |"
fi
r=$(ratio "$nocache" "$hit")
say "| cache hit vs bake, $ROOMS rooms | >= 10x | ${r}x | $(verdict "$r" 10) |"
r=$(ratio "$small_bake" "$small_dir")
say "| cache directory hit vs bake, 60 rooms | >= 1x | ${r}x | $(verdict "$r" 1) |"
le() { awk -v r="$1" -v g="$2" 'BEGIN { print (r + 0 <= g + 0) ? "met" : "missed" }'; }
if [ -n "$hit_worst" ]; then
    say "| HTTP cache hit vs bake, above the threshold (worst CPU ratio) | <= 1x | ${hit_worst}x | $(le "$hit_worst" 1) |"
fi
if [ -n "$small_worst" ]; then
    say "| bake through an HTTP cache vs bake, below it (the same bake; worst CPU ratio) | <= 1.1x | ${small_worst}x | $(le "$small_worst" 1.1) |"
fi
if [ -n "${noop:-}" ]; then
    ms=$(awk -v s="$noop" 'BEGIN { printf "%.0f", s * 1000 }')
    say "| ninja no-op over $N assets | < 100 ms | ${ms} ms | $(awk -v m="$ms" 'BEGIN { print (m < 100) ? "met" : "missed" }') |"
fi
