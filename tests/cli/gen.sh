# gen c: the header of every schema in the tree compiles as C11 and C++17
# with warnings as errors (gcc and clang when present); a program reads
# every value of a baked sample through the accessors, from a .blob, a raw
# section and through the checked open; the sample reader prints the
# sample level; bad schemas and bad usage fail with the right exit code.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
INC=$TOP/lib/include
G=$TOP/tests/data/gen

CWARN="$GEN_WARN -Wstrict-prototypes -Wmissing-prototypes"

find_compilers
CC1=$(echo "$CCS" | head -1)
CXX1=$(echo "$CXXS" | head -1)

# A library built with sanitizers needs them at link time too.
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then
    SAN="-fsanitize=address,undefined"
fi
LIBS="$(pkg-config --libs yaml-0.1 libcjson libxxhash 2>/dev/null) -lm"
windows_build && LIBS="$(sed -n 's/^DEP_LIBS := //p' "$BUILD/config.mk") -lm"

# --- every schema's header compiles, with and without the library part ---
printf '#include "gen.h"\nint main(void) { return 0; }\n' >"$T/use.c"
printf '#define BLOBC_WITH_LIBRARY\n#include "gen.h"\nint main(void) { return 0; }\n' >"$T/uselib.c"
ngen=0
nbad=0
for s in schemas/*.schema tests/data/*/*.schema; do
    [ -f "$s" ] || continue
    name=$(echo "$s" | tr '/.' '__')
    if ! "$BLOBC" check "$s" >/dev/null 2>&1; then
        # test data of other areas may be meant to fail; gen must agree
        run "$BLOBC" gen c "$s"
        if [ "$RC" -ne 1 ]; then fail "gen_$name" "check refuses $s but gen c exits $RC"; fi
        nbad=$((nbad + 1))
        continue
    fi
    run "$BLOBC" gen c "$s" -o "$T/gen.h"
    if [ "$RC" -ne 0 ] || [ ! -s "$T/gen.h" ]; then
        fail "gen_$name" "gen c $s: exit $RC: $(head -c 300 "$T/err")"
        continue
    fi
    ngen=$((ngen + 1))
    same_as_reference "same_as_plain_$name" c "$s" "$T/gen.h"
    [ $? -eq 1 ] || continue
    # every compiler at once; each leaves a log only when it fails
    rm -f "$T"/cc.*.fail
    for cc in $CCS; do
        for f in use uselib; do
            ($cc -std=c11 $CWARN -I"$INC" -I"$T" -fsyntax-only "$T/$f.c" >"$T/cc.$cc.$f.log" 2>&1 ||
                mv "$T/cc.$cc.$f.log" "$T/cc.$cc.$f.fail") &
        done
    done
    for cxx in $CXXS; do
        for f in use uselib; do
            ($cxx -std=c++17 $GEN_CXXWARN -I"$INC" -I"$T" -x c++ -fsyntax-only "$T/$f.c" \
                >"$T/cc.$cxx.$f.log" 2>&1 || mv "$T/cc.$cxx.$f.log" "$T/cc.$cxx.$f.fail") &
        done
    done
    wait
    if ls "$T"/cc.*.fail >/dev/null 2>&1; then
        fail "compiles_$name" "$(for l in "$T"/cc.*.fail; do echo "$l:"; head -c 600 "$l"; done)"
    else
        pass "compiles_$name"
    fi
done
[ "$ngen" -ge 3 ] && pass "schemas_found_$ngen" || fail schemas_found "only $ngen schemas generated"

# --- output: deterministic, -o equals stdout, independent of the directory ---
expect gen_stdout 0 "$BLOBC" gen c "$G/all.schema"
cp "$T/out" "$T/all-stdout.h"
expect gen_file 0 "$BLOBC" gen c "$G/all.schema" -o "$T/all.h"
same_file gen_file_equals_stdout "$T/all.h" "$T/all-stdout.h"
[ ! -s "$T/out" ] && pass gen_file_quiet || fail gen_file_quiet "stdout: $(head -c 200 "$T/out")"
(cd "$G" && "$BLOBC" gen c all.schema >"$T/all-here.h" 2>"$T/err")
same_file gen_independent_of_directory "$T/all-here.h" "$T/all.h"
grep -q '^#ifndef BLOBC_GEN_ALL_H$' "$T/all.h" && pass guard_from_file_name ||
    fail guard_from_file_name "$(grep -m1 '#ifndef' "$T/all.h")"
hash=$("$BLOBC" check "$G/all.schema" | sed -n 's/.*hash \(0x[0-9a-f]*\).*/\1/p' | head -1)
if [ -n "$hash" ]; then
    grep -q "^#define Everything_SCHEMA_HASH UINT64_C($hash)\$" "$T/all.h" && pass schema_hash_matches_check ||
        fail schema_hash_matches_check "check says $hash; header: $(grep SCHEMA_HASH "$T/all.h" | tail -1)"
fi

# --- the names schema: escaped spellings, used from C and C++ ---
expect gen_names 0 "$BLOBC" gen c "$G/names.schema" -o "$T/names.h"
cat >"$T/names.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include "names.h"
int main(void) {
    main_ m;
    template_ t;
    m.stdin_ = 1;
    m.EOF_ = -1;
    t.errno_ = BLOBC_RT_CAST(uint8_t, m.stdin_ + m.EOF_);
    t.I_ = 0.5f;
    t.int_ = 1;
    t.class__ = class__default;
    t.delete_ = 2;
    t.size_t__.z = 3;
    t.linux__.unix_ = 4;
    t.uint32_t_ = 5;
    t.xblobc_pad0 = 6;
    t.open.offset = 0;
    return t.int_ + t.class__ - 8 + t.errno_ + (t.I_ == 0.5f ? 0 : 1) + (class__name(class__int)[0] == 'i' ? 0 : 1) +
           (template__open_(&t)[0] == '\0' ? 0 : 1) + (xblobc_clash_open_raw(&t, 0, BLOBC_RT_NULL) ? 1 : 0);
}
EOF
for cc in $CCS; do
    for std in c11 gnu11; do
        $cc -std=$std $CWARN -I"$INC" -I"$T" "$T/names.c" -o "$T/names" 2>"$T/cc.log" && "$T/names" ||
            echo "$cc -std=$std: exit $?: $(head -c 600 "$T/cc.log")"
    done
done >"$T/n.fail"
for cxx in $CXXS; do
    for std in c++17 gnu++17; do
        $cxx -std=$std $GEN_CXXWARN -I"$INC" -I"$T" -x c++ "$T/names.c" -o "$T/names" 2>"$T/cc.log" &&
            "$T/names" || echo "$cxx -std=$std: exit $?: $(head -c 600 "$T/cc.log")"
    done
done >>"$T/n.fail"
[ -s "$T/n.fail" ] && fail names_compile_and_run "$(cat "$T/n.fail")" || pass names_compile_and_run

# --- hostile doc comments: golden, and compiled where trigraphs are on
# (-std=c11, -trigraphs, C++14) with every comment warning ---
expect gen_hostile_docs 0 "$BLOBC" gen c "$G/hostile_docs.schema" -o "$T/hostile_docs.h"
same_file gen_hostile_docs_golden "$T/hostile_docs.h" "$G/hostile_docs.h.expect"
printf '#define BLOBC_WITH_LIBRARY\n#include "hostile_docs.h"\nint main(void) { return 0; }\n' >"$T/docs.c"
if ! same_as_reference same_as_plain_hostile_docs c "$G/hostile_docs.schema" "$T/hostile_docs.h"; then
    for cc in $CCS; do
        for std in "-std=c11" "-std=gnu11 -trigraphs"; do
            $cc $std $CWARN -Wcomment -Wtrigraphs -I"$INC" -I"$T" -fsyntax-only "$T/docs.c" 2>"$T/cc.log" ||
                echo "$cc $std: $(head -c 600 "$T/cc.log")"
        done
    done >"$T/d.fail"
    for cxx in $CXXS; do
        for std in c++14 c++17; do
            $cxx -std=$std $GEN_CXXWARN -Wcomment -Wtrigraphs -I"$INC" -I"$T" -x c++ -fsyntax-only "$T/docs.c" \
                2>"$T/cc.log" || echo "$cxx -std=$std: $(head -c 600 "$T/cc.log")"
        done
    done >>"$T/d.fail"
    [ -s "$T/d.fail" ] && fail hostile_docs_compile "$(cat "$T/d.fail")" || pass hostile_docs_compile
fi

# --- the hostile names corpus also in GNU modes (GCC predefines linux, unix) ---
expect gen_hostile_names 0 "$BLOBC" gen c "$G/hostile_names.schema" -o "$T/hostile_names.h"
printf '#define BLOBC_WITH_LIBRARY\n#include "hostile_names.h"\nint main(void) { return 0; }\n' >"$T/hn.c"
if ! same_as_reference same_as_plain_hostile_names c "$G/hostile_names.schema" "$T/hostile_names.h"; then
    for cc in $CCS; do
        $cc -std=gnu11 $CWARN -I"$INC" -I"$T" -fsyntax-only "$T/hn.c" 2>"$T/cc.log" ||
            echo "$cc -std=gnu11: $(head -c 600 "$T/cc.log")"
    done >"$T/hn.fail"
    for cxx in $CXXS; do
        $cxx -std=gnu++17 $GEN_CXXWARN -I"$INC" -I"$T" -x c++ -fsyntax-only "$T/hn.c" 2>"$T/cc.log" ||
            echo "$cxx -std=gnu++17: $(head -c 600 "$T/cc.log")"
    done >>"$T/hn.fail"
    [ -s "$T/hn.fail" ] && fail hostile_names_gnu "$(cat "$T/hn.fail")" || pass hostile_names_gnu
fi

# --- every value of all.yaml, read through the accessors ---
expect bake_all 0 "$BLOBC" bake "$G/all.yaml" -o "$T/all.blob"
expect bake_all_raw 0 "$BLOBC" bake --format raw "$G/all.yaml" -o "$T/all.raw"
expect bake_all_stripped 0 "$BLOBC" bake --strip "$G/all.yaml" -o "$T/all-stripped.blob"
if $CC1 -std=c11 $GEN_WARN -I"$INC" -I"$T" "$G/read_all.c" -o "$T/read_all_c" 2>"$T/cc.log"; then
    pass read_all_builds_c
    expect read_all_blob 0 "$T/read_all_c" "$T/all.blob" blob
    grep -q '^ok [0-9]* values$' "$T/out" && pass read_all_blob_count || fail read_all_blob_count "$(head -5 "$T/out")"
    expect read_all_raw 0 "$T/read_all_c" "$T/all.raw" raw
    expect read_all_stripped 0 "$T/read_all_c" "$T/all-stripped.blob" blob
else
    fail read_all_builds_c "$(head -c 800 "$T/cc.log")"
fi
if [ -z "$CXX1" ]; then
    skip read_all_builds_cxx "no C++ compiler"
    skip read_all_blob_cxx "no C++ compiler"
elif $CXX1 -std=c++17 $GEN_WARN -I"$INC" -I"$T" -x c++ "$G/read_all.c" -o "$T/read_all_cxx" \
    2>"$T/cc.log"; then
    pass read_all_builds_cxx
    expect read_all_blob_cxx 0 "$T/read_all_cxx" "$T/all.blob" blob
else
    fail read_all_builds_cxx "$(head -c 800 "$T/cc.log")"
fi

# --- the checked open, linking the library ---
if ${LIB_CC:-$CC1} -std=c11 $GEN_WARN $SAN -DBLOBC_WITH_LIBRARY -I"$INC" -I"$T" "$G/read_all.c" \
    -o "$T/read_all_lib" "$BUILD/libblobc.a" $LIBS 2>"$T/cc.log"; then
    as_program "$T/read_all_lib"
    pass read_all_builds_with_library
    expect read_all_checked 0 "$T/read_all_lib" "$T/all.blob" checked
    expect read_all_checked_stripped 0 "$T/read_all_lib" "$T/all-stripped.blob" checked
    # a padding byte of the data section set (Scalars has one at 3): the
    # trusted open reads every value fine, the checked open refuses it
    cp "$T/all.blob" "$T/bad.blob"
    printf 'Z' | dd of="$T/bad.blob" bs=1 seek=99 conv=notrunc 2>/dev/null
    expect trusted_open_skips_walk 0 "$T/read_all_c" "$T/bad.blob" blob
    expect checked_open_refuses 0 "$T/read_all_lib" "$T/bad.blob" refuse
    grep -q '^refused: .*error: data hash.*(data-hash)$' "$T/out" && pass checked_open_error ||
        fail checked_open_error "$(cat "$T/out")"
    # a blob of another schema: refused by both opens
    "$BLOBC" bake "$TOP/samples/level.yaml" -o "$T/level.blob" 2>/dev/null
    expect trusted_open_wrong_schema 1 "$T/read_all_c" "$T/level.blob" blob
    grep -q 'FAIL: open: blob was baked for a different schema layout' "$T/out" &&
        pass trusted_open_wrong_schema_message || fail trusted_open_wrong_schema_message "$(cat "$T/out")"
    expect checked_open_wrong_schema 0 "$T/read_all_lib" "$T/level.blob" refuse
    grep -q '(schema-hash)$' "$T/out" && pass checked_open_wrong_schema_code ||
        fail checked_open_wrong_schema_code "$(cat "$T/out")"
else
    fail read_all_builds_with_library "$(head -c 800 "$T/cc.log")"
fi

# --- the sample reader (built by make check from schemas/level.schema) ---
READER=$BUILD/samples/reader
if [ -x "$READER" ]; then
    "$BLOBC" bake samples/level.yaml -o "$T/level.blob" 2>/dev/null
    # (A Windows program's printf ends lines with CRLF: compared without.)
    text_out() { if windows_build; then tr -d '\r' <"$T/out" >"$T/out.lf" && mv "$T/out.lf" "$T/out"; fi; }
    expect reader_runs 0 "$READER" "$T/level.blob"
    text_out
    if cmp -s "$T/out" "$G/reader.out"; then pass reader_output; else
        fail reader_output "differs from tests/data/gen/reader.out: $(diff "$G/reader.out" "$T/out" | head -10)"
    fi
    if [ -f samples/level.blob ]; then
        expect reader_golden_blob 0 "$READER" samples/level.blob
        text_out
        same_file reader_golden_output "$T/out" "$G/reader.out"
    fi
    expect_err reader_refuses_other_blob 1 "baked for a different schema layout" "$READER" "$T/all.blob"
else
    fail reader_built "$READER missing: run the suite through make check"
fi

# --- errors ---
nbad=0
badlist=""
for s in tests/bad/schema/*.schema; do
    [ -f "$s" ] || continue
    run "$BLOBC" gen c "$s" -o "$T/never.h"
    want=$(head -1 "${s%.schema}.expect" 2>/dev/null)
    if [ "$RC" -ne 1 ] || [ -e "$T/never.h" ] || { [ -n "$want" ] && ! grep -qF -- "$want" "$T/err"; }; then
        # what it said, and whether it wrote, so that a failure tells why
        badlist="$badlist $s(exit $RC$([ -e "$T/never.h" ] && echo ', wrote its output'); stderr: $(head -c 300 "$T/err"))"
        rm -f "$T/never.h"
    fi
    nbad=$((nbad + 1))
done
if [ -z "$badlist" ] && [ "$nbad" -gt 0 ]; then pass "bad_schemas_exit_1_$nbad"; else
    fail bad_schemas_exit_1 "${badlist:-no bad schemas found}"
fi
printf 'struct A { b: B; }\n' >"$T/bad.schema"
expect_err gen_bad_schema 1 "bad.schema:1:15: error: unknown type 'B'" "$BLOBC" gen c "$T/bad.schema"
[ ! -s "$T/out" ] && pass gen_bad_schema_no_output || fail gen_bad_schema_no_output "$(head -c 200 "$T/out")"
expect_err gen_missing_schema 2 "nope.schema" "$BLOBC" gen c "$T/nope.schema"
expect_err gen_no_language 2 "gen c SCHEMA" "$BLOBC" gen
: >"$T/plain"
expect_err gen_unwritable 2 "plain/dir" "$BLOBC" gen c "$G/all.schema" -o "$T/plain/dir/x.h"

# --prefix names every type; doc comments become C comments (golden).
expect gen_prefix 0 "$BLOBC" gen c "$G/docs.schema" --prefix my_
same_file gen_prefix_docs_golden "$T/out" "$G/docs_prefix.h.expect"
printf '#include "p.h"\nint main(void) { my_Thing t; t.stuff = my_Stuff_stone; return t.stuff == 1 ? 0 : 1; }\n' >"$T/p.c"
cp "$T/out" "$T/p.h"
if $CC1 -std=c11 $CWARN -Wcomment -I"$INC" -I"$T" -o "$T/p" "$T/p.c" 2>"$T/err" && "$T/p"; then
    pass gen_prefix_compiles_and_runs; else fail gen_prefix_compiles_and_runs "$(head -c 300 "$T/err")"; fi
expect_err gen_prefix_not_identifier 2 "prefix '1x' is not a C identifier" \
    "$BLOBC" gen c "$G/docs.schema" --prefix 1x

# A 2,000-deep chain of inline structs (each struct's hash covers all it
# contains; gen c takes them from one serialization): every struct's
# _SCHEMA_HASH is the hash `check` reports with that struct as the root.
# (Timing of the 10,000-deep chain: bench/, "gen c".)
awk 'BEGIN { n = 2000
    for (i = 0; i < n; i++) printf "struct S%d { v: u8; s: string; n: S%d; }\n", i, i + 1
    printf "struct S%d { v: u8; }\n", n }' >"$T/chain.schema"
expect gen_deep_chain 0 "$BLOBC" gen c "$T/chain.schema" -o "$T/chain.h"
bad=""
for k in 0 1 999 1998 2000; do
    { cat "$T/chain.schema"; echo "root S$k;"; } >"$T/chain_$k.schema"
    want=$("$BLOBC" check "$T/chain_$k.schema" | sed -n 's/^root .*schema hash \(0x[0-9a-f]*\)).*/\1/p')
    got=$(sed -n "s/^#define S${k}_SCHEMA_HASH UINT64_C(\(0x[0-9a-f]*\))/\1/p" "$T/chain.h")
    [ -n "$want" ] && [ "$want" = "$got" ] || bad="$bad S$k(check $want, gen $got)"
done
if [ -z "$bad" ]; then pass gen_deep_chain_hashes; else fail gen_deep_chain_hashes "$bad"; fi
