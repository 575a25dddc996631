# Batches: many inputs in one run, on a pool of threads. The results equal
# one-by-one bakes byte for byte at any -j; a failing input is reported
# and the others are still written; inputs that map to one output name
# are refused before anything is written.
. "$(dirname "$0")/lib.sh"
SCH=$TOP/schemas/level.schema
mkdir -p "$T/in" "$T/one" "$T/b1" "$T/b4"
# Twelve inputs, YAML and JSON, each a little different.
i=0
while [ $i -lt 6 ]; do
    sed -e "s/^index: 3/index: $i/" -e '/^\$schema/d' "$TOP/samples/level.yaml" >"$T/in/y$i.yaml"
    sed -e "s/\"index\": 3/\"index\": $((i + 10))/" -e '/"\$schema"/d' "$TOP/samples/level.json" >"$T/in/j$i.json"
    i=$((i + 1))
done
set -- "$T"/in/*
for f in "$@"; do
    b=$(basename "$f"); b=${b%.*}
    "$BLOBC" bake -s "$SCH" "$f" -o "$T/one/$b.blob" || fail "one_by_one_$b" "bake failed"
done
expect batch_j1 0 "$BLOBC" bake -j 1 -s "$SCH" -o "$T/b1" "$@"
expect batch_j4 0 "$BLOBC" bake -j4 -s "$SCH" -o "$T/b4" "$@"
same=0
for f in "$T"/one/*.blob; do
    b=$(basename "$f")
    cmp -s "$f" "$T/b1/$b" && cmp -s "$f" "$T/b4/$b" && same=$((same + 1))
done
[ "$same" -eq 12 ] && pass batch_equals_one_by_one || fail batch_equals_one_by_one "$same of 12 equal"
[ ! -s "$T/err" ] && pass batch_quiet_off_terminal || fail batch_quiet_off_terminal "$(cat "$T/err")"

# A failing input among good ones: the others are written, every failure
# is reported in input order, exit 1.
mkdir -p "$T/f"
printf 'index: "x"\n' >"$T/in/y2.yaml"
printf '{"index": [1]}\n' >"$T/in/j4.json"
expect batch_failures 1 "$BLOBC" bake -j 4 -s "$SCH" -o "$T/f" "$@"
[ "$(ls "$T/f" | wc -l)" -eq 10 ] && pass batch_good_ones_written ||
    fail batch_good_ones_written "$(ls "$T/f" | wc -l) outputs"
absent batch_failed_not_written "$T/f/y2.blob"
grep -q 'j4.json.*error' "$T/err" && grep -q 'y2.yaml.*error' "$T/err" &&
    [ "$(grep -n 'j4.json' "$T/err" | head -1 | cut -d: -f1)" -lt "$(grep -n 'y2.yaml' "$T/err" | head -1 | cut -d: -f1)" ] &&
    pass batch_errors_in_input_order || fail batch_errors_in_input_order "$(cat "$T/err")"
cmp -s "$T/f/y3.blob" "$T/one/y3.blob" && pass batch_failure_others_equal || fail batch_failure_others_equal "y3 differs"

# Inputs that map to one output name are refused up front, naming both.
mkdir -p "$T/a" "$T/b" "$T/c"
cp "$T/in/y0.yaml" "$T/a/lvl.yaml"
cp "$T/in/y1.yaml" "$T/b/lvl.yaml"
expect_err batch_clash_dirs 2 "inputs '$T/a/lvl.yaml' and '$T/b/lvl.yaml' would both be written to '$T/c/lvl.blob'" \
    "$BLOBC" bake -s "$SCH" -o "$T/c" "$T/a/lvl.yaml" "$T/b/lvl.yaml"
absent batch_clash_nothing_written "$T/c/lvl.blob"
cp "$T/in/j0.json" "$T/a/lvl.json"
expect_err batch_clash_ext 2 "inputs '$T/a/lvl.yaml' and '$T/a/lvl.json' would both be written to '$T/a/lvl.blob'" \
    "$BLOBC" bake -s "$SCH" "$T/a/lvl.yaml" "$T/a/lvl.json"
absent batch_clash_ext_nothing_written "$T/a/lvl.blob"

expect_err batch_bad_jobs 2 "-j needs a number" "$BLOBC" bake -j 0 -s "$SCH" -o "$T/c" "$@"
# An output that is one of the inputs (through another name) is refused.
ln -s "$T/in/y0.yaml" "$T/c/y1.blob"
expect_err batch_output_is_input 2 "refusing to overwrite input file" \
    "$BLOBC" bake -s "$SCH" -o "$T/c" "$T/in/y0.yaml" "$T/in/y1.yaml"
cmp -s "$T/in/y0.yaml" "$T/a/lvl.yaml" && pass batch_input_kept || fail batch_input_kept "input changed"

# The progress line: on a terminal only, and not with -q.
if windows_build; then
    skip progress_on_terminal "Wine's console on a Unix terminal writes escape sequences of its own"
elif have_pty; then
    mkdir -p "$T/p1" "$T/p2"
    script -qc "'$BLOBC' bake -j 1 -s '$SCH' -o '$T/p1' $(echo "$T"/one/*.blob | sed 's|/one/\([^ ]*\)\.blob|/in/\1.*|g')" /dev/null >"$T/tty.out" 2>&1
    grep -q '\[[0-9]*/12\]' "$T/tty.out" && pass progress_on_terminal || fail progress_on_terminal "$(od -c "$T/tty.out" | head -5)"
    script -qc "'$BLOBC' bake -q -j 2 -s '$SCH' -o '$T/p2' $T/in/y0.yaml $T/in/y1.yaml" /dev/null >"$T/tty.out" 2>&1
    grep -q '\[' "$T/tty.out" && fail progress_quiet "$(od -c "$T/tty.out" | head -5)" || pass progress_quiet
else
    skip progress_on_terminal "script(1) not installed, or no pseudo-terminal here"
fi

# Linear in the number of inputs: the stat calls of a batch of 400 are
# about twice those of 200 (every output used to be checked against every
# input: 81,406 for 200 inputs).
if windows_build; then
    skip batch_linear_stats "counts Linux stat system calls (strace)"
elif command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    mkdir -p "$T/lin/in" "$T/lin/o200" "$T/lin/o400"
    printf 'struct P { x: u32; }\nroot P;\n' >"$T/lin/p.schema"
    i=0
    while [ $i -lt 400 ]; do printf 'x: %d\n' $i >"$T/lin/in/a$i.yaml"; i=$((i + 1)); done
    stats() {
        strace -f -c -e trace=stat,lstat,fstat,newfstatat,statx -o "$T/lin/st" \
            "$BLOBC" bake -j 2 -s "$T/lin/p.schema" -o "$@" >/dev/null 2>&1
        awk '$NF == "total" { print $4 + 0 }' "$T/lin/st"
    }
    s200=$(stats "$T/lin/o200" $(i=0; while [ $i -lt 200 ]; do echo "$T/lin/in/a$i.yaml"; i=$((i + 1)); done))
    s400=$(stats "$T/lin/o400" "$T"/lin/in/*.yaml)
    if [ "${s200:-0}" -gt 0 ] && [ "$s400" -le $((s200 * 22 / 10)) ] && [ "$s200" -le 4000 ]; then
        pass batch_linear_stats
    else
        fail batch_linear_stats "stat calls: $s200 for 200 inputs, $s400 for 400"
    fi
else
    skip batch_linear_stats "strace not installed (make deps installs it), or not allowed to trace here"
fi

# System calls per asset on the common path of a batch (-j 2, small
# inputs, outputs in one directory that is there): at most 12 an asset
# when the outputs are replaced, and when they are new (docs/PIPELINE.md
# lists them). Counted as a batch of 200 less a batch of 100, divided by
# 100, so the start-up's calls (loading, the schema, the threads) cancel.
if windows_build; then
    skip batch_syscalls_per_asset "counts Linux system calls (strace)"
elif nm "$BLOBC" 2>/dev/null | grep -q '__asan_init'; then
    skip batch_syscalls_per_asset "counted for Linux builds without sanitizers (they make calls of their own, and LeakSanitizer stops under strace)"
elif command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    mkdir -p "$T/sc/in"
    printf 'struct P { x: u32; name: string; tags: [string]; }\nroot P;\n' >"$T/sc/p.schema"
    i=0
    while [ $i -lt 200 ]; do
        if [ $((i % 2)) -eq 0 ]; then
            printf '{"x": %d, "name": "n%d", "tags": ["a", "b"]}\n' $i $i >"$T/sc/in/a$i.json"
        else
            printf 'x: %d\nname: n%d\ntags: [a, b]\n' $i $i >"$T/sc/in/a$i.yaml"
        fi
        i=$((i + 1))
    done
    first() { ls "$T/sc/in" | head -"$1" | sed "s|^|$T/sc/in/|"; }
    # calls OUTDIR N: the system calls of a batch of the first N inputs.
    calls() {
        # shellcheck disable=SC2046
        strace -f -c -o "$T/sc/st" "$BLOBC" bake -q -j 2 -s "$T/sc/p.schema" -o "$1" $(first "$2") \
            >/dev/null 2>"$T/sc/err" || { echo "bake failed: $(head -3 "$T/sc/err")"; return; }
        awk '$NF == "total" { print $4 + 0 }' "$T/sc/st"
    }
    # per_asset NAME FRESH: fresh: outputs not there yet (their directory
    # is). A second count before failing: a busy machine adds a lock's
    # futex call here and there, not an asset's worth.
    per_asset() {
        for try in 1 2; do
            for n in 100 200; do
                rm -rf "$T/sc/o$n"
                mkdir -p "$T/sc/o$n"
                # shellcheck disable=SC2046
                [ "$2" = fresh ] || "$BLOBC" bake -q -s "$T/sc/p.schema" -o "$T/sc/o$n" $(first $n)
            done
            c100=$(calls "$T/sc/o100" 100)
            c200=$(calls "$T/sc/o200" 200)
            per=$(awk -v a="$c100" -v b="$c200" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", (b - a) / 100 }')
            if [ -n "$per" ] && awk -v p="$per" 'BEGIN { exit !(p <= 12) }'; then
                pass "$1"
                return
            fi
        done
        fail "$1" "${per:-?} calls an asset ($c100 for 100 inputs, $c200 for 200); at most 12"
    }
    per_asset batch_syscalls_per_asset_replaced existing
    per_asset batch_syscalls_per_asset_new fresh
    for n in 100 200; do
        # shellcheck disable=SC2046
        "$BLOBC" bake -q -j 1 -s "$T/sc/p.schema" -o "$T/sc/one$n" $(first $n)
        diff -r "$T/sc/one$n" "$T/sc/o$n" >/dev/null && pass "batch_syscalls_same_bytes_$n" ||
            fail "batch_syscalls_same_bytes_$n" "the traced batch wrote other bytes than -j 1"
    done
else
    skip batch_syscalls_per_asset "strace not installed (make deps installs it), or not allowed to trace here"
fi

# The summary after a batch (-v, or under the progress line): what became
# of the inputs and how long it took.
mkdir -p "$T/sum"
printf 'struct S { x: u32; }\nroot S;\n' >"$T/sum/s.schema"
printf 'x: 1\n' >"$T/sum/a.yaml"
printf 'x: 2\n' >"$T/sum/b.yaml"
printf 'x: -3\n' >"$T/sum/c.yaml"
"$BLOBC" bake -q --cache "$T/sum/cache" -s "$T/sum/s.schema" "$T/sum/a.yaml" -o "$T/sum/out/a.blob" 2>/dev/null
run "$BLOBC" bake -v --cache "$T/sum/cache" -s "$T/sum/s.schema" "$T/sum/a.yaml" "$T/sum/b.yaml" "$T/sum/c.yaml" -o "$T/sum/out/"
rc_is summary_exit_1 1 && tail -1 "$T/err" | grep -Eq '^blobc bake: 2 of 3 inputs baked \(1 from the cache\), 1 failed, in [0-9]+\.[0-9]{2} s$' &&
    pass summary_line || fail summary_line "$(tail -2 "$T/err")"
run "$BLOBC" bake -s "$T/sum/s.schema" "$T/sum/a.yaml" "$T/sum/b.yaml" -o "$T/sum/out2/"
rc_is summary_quiet_exit_0 0 && [ ! -s "$T/err" ] && pass summary_not_without_v || fail summary_not_without_v "$(cat "$T/err")"
