#!/bin/sh
# Random cases from tests/tools/randgen (see docs/TESTING.md): schemas with
# enums, structs, unions (tagged by a field too), arrays, pointers, keys and
# references, maps, optionals and any, and values for them. For each seed:
# bake the YAML and the JSON, check both raw data sections with a C program
# whose structs the C compiler laid out (every value, offset, shared
# payload, padding byte, keyed array's and map's order, reference's item,
# presence byte and any's kind), then verify, dump and re-bake, and upgrade to the
# same schema (the identity). RANDGEN_SEEDS=N runs N
# seeds starting at RANDGEN_FIRST (default 1). A failing seed's files are
# kept in $BUILD/randgen-fail/seed-N/ and named in the FAIL line.
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-build}
case $BUILD in /*) B=$BUILD ;; *) B=$TOP/$BUILD ;; esac
RG=$B/tools/randgen
CC=${CC:-cc}
SEEDS=${RANDGEN_SEEDS:-40}
FIRST=${RANDGEN_FIRST:-1}
FAILDIR=$B/randgen-fail
LAST=$((FIRST + SEEDS - 1))

if [ ! -x "$RG" ]; then
    fail setup "$RG is not built"
    exit 0
fi

# keep SEED: copies the seed's files where a developer can look at them.
keep() {
    mkdir -p "$FAILDIR"
    rm -rf "$FAILDIR/seed-$1"
    cp -r "$T/seed-$1" "$FAILDIR/seed-$1"
}

# check SEED NAME CMD...: PASS/FAIL line for one command's exit status 0.
check() {
    s=$1 name=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 0 ]; then
        pass "seed-$s.$name"
        return 0
    fi
    fail "seed-$s.$name" "exit $rc: $(head -c 300 "$T/err") (files: $FAILDIR/seed-$s)"
    keep "$s"
    return 1
}

# same SEED NAME GOT WANT: byte identity.
same() {
    if cmp -s "$3" "$4"; then
        pass "seed-$1.$2"
    else
        fail "seed-$1.$2" "$(basename "$3") differs from $(basename "$4"): $(cmp "$3" "$4" 2>&1 | head -1) (files: $FAILDIR/seed-$1)"
        keep "$1"
    fi
}

gen_ok=1
s=$FIRST
while [ "$s" -le "$LAST" ]; do
    d=$T/seed-$s
    mkdir -p "$d"
    "$RG" case "$s" "$d" || { fail "seed-$s.generate" "randgen exited $?"; s=$((s + 1)); continue; }
    check "$s" bake-yaml "$BLOBC" bake --format raw -o "$d/y.bin" "$d/t.yaml"
    check "$s" bake-json "$BLOBC" bake --format raw -o "$d/j.bin" "$d/t.json"
    if [ -f "$d/y.bin" ] &&
        check "$s" dump-raw "$BLOBC" dump --raw -s "$d/t.schema" -t "$(sed -n 's/^root=//p' "$d/info")" -o "$d/dump-raw.yaml" "$d/y.bin" &&
        check "$s" bake-dump-raw "$BLOBC" bake -s "$d/t.schema" --format raw -o "$d/dump-raw.bin" "$d/dump-raw.yaml"; then
        same "$s" dump-raw-roundtrip "$d/dump-raw.bin" "$d/y.bin"
    fi
    if check "$s" bake-again "$BLOBC" bake --format raw -o "$d/y2.bin" "$d/t.yaml"; then
        same "$s" deterministic "$d/y2.bin" "$d/y.bin"
    fi
    if grep -q '^shared=0' "$d/info" && [ -f "$d/y.bin" ] && [ -f "$d/j.bin" ]; then
        same "$s" yaml-json-same "$d/j.bin" "$d/y.bin"
    fi
    if check "$s" bake-blob "$BLOBC" bake -o "$d/y.blob" "$d/t.yaml"; then
        check "$s" verify "$BLOBC" verify "$d/y.blob"
        # the same types split over imported files: the same blob
        if check "$s" bake-split "$BLOBC" bake -s "$d/m.schema" -o "$d/split.blob" "$d/t.yaml"; then
            same "$s" split-same "$d/split.blob" "$d/y.blob"
        fi
        root=$(sed -n 's/^root=//p' "$d/info")
        check "$s" verify-schema "$BLOBC" verify -s "$d/t.schema" -t "$root" "$d/y.blob"
        # upgrade to the same schema is the identity, shared payloads and all
        # (from the seed's directory: the schema's name is recorded as given)
        if check "$s" upgrade-same sh -c 'cd "$1" && "$2" upgrade -s t.schema -t "$3" -o up.blob y.blob' \
            _ "$d" "$BLOBC" "$root"; then
            same "$s" upgrade-same-identity "$d/up.blob" "$d/y.blob"
        fi
        # the dump names its schema ($schema: t.schema, as the data did), so
        # its bake records the same name: the same file, byte for byte
        if check "$s" dump "$BLOBC" dump -o "$d/dump.yaml" "$d/y.blob" &&
            check "$s" bake-dump "$BLOBC" bake -o "$d/dump.blob" "$d/dump.yaml"; then
            same "$s" dump-roundtrip "$d/dump.blob" "$d/y.blob"
        fi
        # JSON has no aliases: its dump re-bakes to the JSON input's bytes,
        # which are the YAML's when nothing is shared.
        if [ -f "$d/j.bin" ] && check "$s" dump-json "$BLOBC" dump --json -o "$d/dump.json" "$d/y.blob" &&
            check "$s" bake-dump-json "$BLOBC" bake -s "$d/t.schema" --format raw -o "$d/dump-json.bin" "$d/dump.json"; then
            same "$s" dump-json-roundtrip "$d/dump-json.bin" "$d/j.bin"
        fi
    fi
    root=$(sed -n 's/^root=//p' "$d/info")
    # a file name of its own: the include guard and file-scope helpers of a
    # header are named after it, and the readers include every seed's
    cp "$d/t.schema" "$d/seed$s.schema"
    check "$s" gen-c "$BLOBC" gen c "$d/seed$s.schema" -o "$T/gen-$s.h" || gen_ok=0
    if check "$s" bake-strip "$BLOBC" bake --strip -o "$d/strip.blob" "$d/t.yaml"; then
        check "$s" verify-strip "$BLOBC" verify -s "$d/t.schema" -t "$root" "$d/strip.blob"
        # no type section: dump needs the schema, and re-bakes to the same file
        if check "$s" dump-strip "$BLOBC" dump -s "$d/t.schema" -t "$root" -o "$d/dump-strip.yaml" "$d/strip.blob" &&
            check "$s" bake-dump-strip "$BLOBC" bake --strip -s "$d/t.schema" -t "$root" -o "$d/dump-strip.blob" "$d/dump-strip.yaml"; then
            same "$s" dump-strip-roundtrip "$d/dump-strip.blob" "$d/strip.blob"
        fi
    fi
    s=$((s + 1))
done

# One checker program and one gen c reader for all seeds: compiling is the
# slow part, so the three compilations run side by side.
seeds=$(seq "$FIRST" "$LAST")
CXX=${CXX:-c++}
# shellcheck disable=SC2086
"$RG" check "$T/check.c" $seeds || fail checker-generate "randgen check exited non-zero"
# shellcheck disable=SC2086
"$RG" genc "$T/reader.c" $seeds || fail reader-generate "randgen genc exited non-zero"
$CC -std=c11 -O0 -w -o "$T/check" "$T/check.c" 2>"$T/check.err" &
p1=$!
RFLAGS="-Wall -Wextra -Werror -pedantic -O0 -I$TOP/lib/include -I$T"
# The C reader links the library, for <Root>_open_checked; the C++ one is
# header-only.
DEP_LIBS=$(sed -n 's/^DEP_LIBS := //p' "$B/config.mk" 2>/dev/null)
# (a library built by `make asan` needs the sanitizers' runtimes to link)
SAN=""
if nm "$B/libblobc.a" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
    SAN="-fsanitize=address,undefined"
fi
# shellcheck disable=SC2086
${LIB_CC:-$CC} -std=c11 $RFLAGS $SAN -DBLOBC_WITH_LIBRARY -o "$T/reader" "$T/reader.c" "$B/libblobc.a" $DEP_LIBS -lm 2>"$T/reader.err" &
p2=$!
have_cxx=0
if command -v "$CXX" >/dev/null 2>&1; then
    have_cxx=1
    # shellcheck disable=SC2086
    $CXX -std=c++17 $RFLAGS -x c++ -o "$T/readerxx" "$T/reader.c" 2>"$T/readerxx.err" &
    p3=$!
else
    skip genc_cxx17 "no C++ compiler ($CXX): the C++17 gen c reader is not built"
fi
wait $p1
rc1=$?
wait $p2
rc2=$?
as_program "$T/reader"
rc3=1
[ $have_cxx = 1 ] && { wait $p3; rc3=$?; }

# keep_batch FILE: the generated program and every seed's files.
keep_batch() {
    mkdir -p "$FAILDIR"
    cp "$1" "$FAILDIR/"
    for s in $seeds; do keep "$s"; done
}

if [ $rc1 -ne 0 ]; then
    fail checker-compile "$(head -c 600 "$T/check.err") (files: $FAILDIR)"
    keep_batch "$T/check.c"
else
    args=""
    for s in $seeds; do
        [ -f "$T/seed-$s/y.bin" ] && args="$args $s $T/seed-$s/y.bin 0"
        [ -f "$T/seed-$s/j.bin" ] && args="$args $s $T/seed-$s/j.bin 1"
    done
    # shellcheck disable=SC2086
    "$T/check" $args >"$T/check.out" 2>&1
    for s in $seeds; do
        for f in y j; do
            [ -f "$T/seed-$s/$f.bin" ] || continue
            name=check-yaml
            [ $f = j ] && name=check-json
            if grep -q "^ok $s $T/seed-$s/$f.bin\$" "$T/check.out"; then
                pass "seed-$s.$name"
            else
                why=$(grep "^FAIL $s $T/seed-$s/$f.bin" "$T/check.out" | head -1 | sed "s|^FAIL $s $T/seed-$s/||")
                [ -n "$why" ] || why="checker printed no verdict: $(tail -2 "$T/check.out")"
                fail "seed-$s.$name" "$why (files: $FAILDIR/seed-$s, checker $FAILDIR/check.c)"
                keep "$s"
                cp "$T/check.c" "$FAILDIR/"
            fi
        done
    done
fi

# The gen c readers open each seed's .blob with <Root>_open (header and
# schema hash) and read every value through the generated accessors.
run_reader() { # NAME BINARY COMPILE_RC ERRFILE
    rname=$1 bin=$2 crc=$3 err=$4
    if [ "$gen_ok" = 0 ]; then
        return
    fi
    if [ "$crc" -ne 0 ]; then
        fail "$rname-compile" "$(head -c 800 "$err") (files: $FAILDIR)"
        keep_batch "$T/reader.c"
        cp "$T"/gen-*.h "$FAILDIR/" 2>/dev/null
        return
    fi
    args=""
    for s in $seeds; do
        [ -f "$T/seed-$s/y.blob" ] && args="$args $s $T/seed-$s/y.blob"
    done
    # shellcheck disable=SC2086
    "$bin" $args >"$T/$rname.out" 2>&1
    for s in $seeds; do
        [ -f "$T/seed-$s/y.blob" ] || continue
        if grep -q "^ok $s\$" "$T/$rname.out"; then
            pass "seed-$s.$rname"
        else
            why=$(grep "^FAIL $s:" "$T/$rname.out" | head -1)
            [ -n "$why" ] || why="reader printed no verdict: $(tail -2 "$T/$rname.out")"
            fail "seed-$s.$rname" "$why (files: $FAILDIR/seed-$s, reader $FAILDIR/reader.c)"
            keep "$s"
            cp "$T/reader.c" "$T/gen-$s.h" "$FAILDIR/"
        fi
    done
}
run_reader genc-c11 "$T/reader" "$rc2" "$T/reader.err"
[ $have_cxx = 1 ] && run_reader genc-cxx17 "$T/readerxx" "$rc3" "$T/readerxx.err"
exit 0
