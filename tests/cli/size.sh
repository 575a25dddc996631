# blobc size: where a blob's bytes go. The report of the sample level
# byte for byte (text, JSON, --depth 1); every table summing to the file's
# size for the sample, a stripped blob, a raw data section, Unity files and
# the random corpus (tests/tools/randgen), read back by Python's json; a
# blob that fails verification gives the verify error and exit 1, nothing
# on standard output; usage errors exit 2.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$TOP/$BUILD ;; esac
G=$TOP/tests/data/size
C=$TOP/tests/bad/blob
S=$TOP/schemas

# --- the sample, byte for byte ---
expect text 0 "$BLOBC" size "$TOP/samples/level.blob" && same_file text_golden "$T/out" "$G/level.txt"
expect json 0 "$BLOBC" size --json "$TOP/samples/level.blob" && same_file json_golden "$T/out" "$G/level.json"
expect depth1 0 "$BLOBC" size --depth 1 "$TOP/samples/level.blob" &&
    same_file depth1_golden "$T/out" "$G/level-depth1.txt"
# the shared payloads: the one RoomMeta three rooms point to, once
grep -q '^ *12 .*rooms\[\]\.meta  (1 shared payload, 16 bytes, 3 references)$' "$G/level.txt" &&
    pass golden_shared || fail golden_shared "$(grep meta "$G/level.txt")"
# --depth 1: no row goes below a top-level field
if grep -q '^ *[0-9]* *[0-9.]*%  [a-z_]*[.[]' "$T/out"; then fail depth1_rows "$(grep '[.[]' "$T/out" | head -3)"; else pass depth1_rows; fi
expect output_file 0 "$BLOBC" size -o "$T/o.txt" "$TOP/samples/level.blob" && same_file output_file_same "$T/o.txt" "$G/level.txt"

# --- usage ---
expect_err depth_zero 2 "--depth wants a number of field steps from 1 to 64, got '0'" "$BLOBC" size --depth 0 "$TOP/samples/level.blob"
expect_err depth_big 2 "got '65'" "$BLOBC" size --depth 65 "$TOP/samples/level.blob"
expect_err depth_text 2 "got 'x'" "$BLOBC" size --depth x "$TOP/samples/level.blob"
# digits only, as every count a command takes: no sign or space strtoul would skip
expect_err depth_plus 2 "got '+3'" "$BLOBC" size --depth +3 "$TOP/samples/level.blob"
expect_err depth_space 2 "got ' 3'" "$BLOBC" size --depth " 3" "$TOP/samples/level.blob"
expect_err depth_minus 2 "got '-1'" "$BLOBC" size --depth -1 "$TOP/samples/level.blob"
expect_err no_blob 2 "no blob given" "$BLOBC" size
expect_err no_map 2 "map" "$BLOBC" size --map "$TOP/samples/level.blob"
expect help 0 "$BLOBC" size --help
grep -q -- '--depth N' "$T/out" && pass help_depth || fail help_depth "$(cat "$T/out")"

# --- hostile blobs: the verify error, exit 1, nothing printed ---
n=0 bad=""
while read -r name code schema type; do
    case $name in '#'*) continue ;; esac
    set -- "$C/$name"
    [ -n "$schema" ] && set -- -s "$C/$schema" "$@"
    [ -n "$type" ] && set -- -t "$type" "$@"
    "$BLOBC" size "$@" >"$T/sz.out" 2>"$T/sz.err"
    rc=$?
    "$BLOBC" dump "$@" >/dev/null 2>"$T/dump.err"
    n=$((n + 1))
    if [ "$code" = ok ]; then
        [ $rc -eq 0 ] && [ -s "$T/sz.out" ] || bad="$bad $name(rc $rc)"
    elif [ $rc -ne 1 ] || [ -s "$T/sz.out" ] || ! cmp -s "$T/sz.err" "$T/dump.err" ||
        ! grep -q . "$T/sz.err"; then
        bad="$bad $name(rc $rc: $(head -c 100 "$T/sz.err"))"
    fi
done <"$C/MANIFEST"
[ -z "$bad" ] && [ $n -gt 50 ] && pass "hostile_$n" || fail hostile "of $n:$bad"

# --- sums: every table adds up to the file's size ---
if ! command -v python3 >/dev/null 2>&1; then
    skip sums "python3 not installed (make deps installs it)"
    exit 0
fi
# sums NAME FILE SIZE-ARGS...: the JSON report of FILE, kept with its
# name and FILE's size for check_sums, which parses them all in one Python
# process (a Python start costs more than the reports themselves).
mkdir -p "$T/sums"
: >"$T/sums.list"
nsums=0
sums() {
    name=$1 file=$2
    shift 2
    nsums=$((nsums + 1))
    if ! "$BLOBC" size --json "$@" "$file" >"$T/sums/$nsums.json" 2>"$T/s.err"; then
        fail "$name" "exit $?: $(head -c 300 "$T/s.err")"
        return
    fi
    printf '%s %s %s\n' "$name" "$T/sums/$nsums.json" "$(wc -c <"$file")" >>"$T/sums.list"
}
# check_sums: a "PASS SUITE.NAME" or "FAIL SUITE.NAME: why" line in
# $T/sums.out for every report sums kept: each table's sum is the file's
# size.
check_sums() {
    python3 - "$T/sums.list" "$SUITE" >"$T/sums.out" 2>&1 <<'EOF'
import json, sys
def check(path, size):
    r = json.load(open(path))
    assert r["file_size"] == size, (r["file_size"], size)
    for key in ("kinds", "types", "paths"):
        rows = r[key]
        assert all(x["bytes"] > 0 for x in rows), key
        total = sum(x["bytes"] for x in rows)
        assert total == size, (key, total, size)
    paths = [x["path"] for x in r["paths"]]
    assert len(paths) == len(set(paths)), "a path twice"
    for x in r["paths"]:
        if "shared_payloads" in x:
            assert x["references"] >= 2 * x["shared_payloads"], x
for line in open(sys.argv[1]):
    name, path, size = line.split()
    try:
        check(path, int(size))
        print("PASS %s.%s" % (sys.argv[2], name))
    except Exception as e:
        print(("FAIL %s.%s: %r" % (sys.argv[2], name, e))[:400])
EOF
    [ $? -eq 0 ] || echo "FAIL $SUITE.check_sums: $(tail -c 400 "$T/sums.out")" >>"$T/sums.out"
}
sums sum_sample "$TOP/samples/level.blob"
sums sum_sample_depth1 "$TOP/samples/level.blob" --depth 1
sums sum_sample_depth64 "$TOP/samples/level.blob" --depth 64
sums sum_stripped "$TOP/tests/data/golden/level-strip.blob" -s "$S/level.schema"
sums sum_raw "$TOP/tests/data/golden/level.bin" --format raw -s "$S/level.schema"
U=$TOP/tests/data/unity
for u in level order; do
    if "$BLOBC" bake --format unity --unity-version 3 -s "$U/$u.schema" "$U/$u.yaml" -o "$T/$u.unity" 2>"$T/err"; then
        sums "sum_unity_$u" "$T/$u.unity" --format unity -s "$U/$u.schema"
    else
        fail "sum_unity_$u" "bake: $(head -c 300 "$T/err")"
    fi
done
sums sum_dag "$C/dag_shared_40_ok.blob"
if "$BLOBC" bake "$TOP/tests/data/gamedata/game.yaml" -o "$T/game.blob" 2>"$T/err"; then
    sums sum_refs "$T/game.blob"
else
    fail sum_refs "bake: $(head -c 300 "$T/err")"
fi
sums sum_chain "$C/chain_1000_ok.blob"

# the random corpus: YAML bakes (shared payloads) and JSON bakes (copies)
RG=$B/tools/randgen
if [ ! -x "$RG" ]; then
    fail random "$RG is not built"
    check_sums
    cat "$T/sums.out"
    exit 0
fi
# Their reports are checked with the others below; the seeds' results
# count as one check.
n=0 bad=""
for s in $(seq 1 ${SIZE_SEEDS:-${RANDGEN_SEEDS:-30}}); do
    d=$T/seed-$s
    mkdir -p "$d"
    "$RG" case "$s" "$d" >/dev/null 2>&1 || { bad="$bad $s(randgen)"; continue; }
    for f in yaml json; do
        "$BLOBC" bake "$d/t.$f" -o "$d/$f.blob" 2>/dev/null || { bad="$bad $s.$f(bake)"; continue; }
        for depth in 1 3 64; do
            sums "seed_$s.$f.$depth" "$d/$f.blob" --depth $depth >"$T/line"
            [ -s "$T/line" ] && bad="$bad $(cat "$T/line")"
            n=$((n + 1))
        done
    done
    rm -rf "$d"
done
check_sums
grep -v "^[A-Z]* $SUITE\.seed_" "$T/sums.out"
bad="$bad$(grep "^FAIL $SUITE\.seed_" "$T/sums.out" | tr '\n' ' ' | sed 's/^/ /; s/ $//')"
ok=$(grep -c "^PASS $SUITE\.seed_" "$T/sums.out")
[ "$ok" -eq "$n" ] || bad="$bad (only $ok of $n reports checked)"
[ -z "$bad" ] && pass "random_sums_$n" || fail random_sums "$bad"
