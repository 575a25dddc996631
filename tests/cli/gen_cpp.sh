# gen cpp: the sample schema's header (golden); every schema's header
# compiles with g++ and clang++ (C++17, warnings as errors, -pedantic,
# -fno-exceptions -fno-rtti), the hostile-names corpus too, in the global
# namespace and in a nested one; a reader program prints every value of
# the sample level through the classes, from a .blob, a raw section and
# through the verified open, equal to dump --json; bad blobs are refused
# with the reason; bad usage fails with exit 2.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
INC=$TOP/lib/include
G=$TOP/tests/data/gen
CXXWARN="$GEN_CXXWARN -fno-exceptions -fno-rtti"

find_compilers
CXX1=$(echo "$CXXS" | head -1)
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_'; then SAN="-fsanitize=address,undefined"; fi
LIBS="$(pkg-config --libs yaml-0.1 libcjson libxxhash 2>/dev/null) -lm -pthread"
# The programs that link the library: with the Windows build, mingw-w64's
# g++ (its library is a Windows one), run under Wine.
LIB_CXXS=$CXXS
if windows_build; then
    LIBS="$(sed -n 's/^DEP_LIBS := //p' "$BUILD/config.mk") -lm -static-libgcc -static-libstdc++"
    LIB_CXXS="${CROSS:-x86_64-w64-mingw32-}g++"
    CXXWARN="$CXXWARN -Wno-float-conversion"
    if ! command -v "$LIB_CXXS" >/dev/null 2>&1; then
        skip read_level_builds "$LIB_CXXS is not installed (make deps installs it)"
        LIB_CXXS=""
    fi
fi

# --- the sample schema: golden, deterministic, -o equals stdout ---
expect gen_cpp_level 0 "$BLOBC" gen cpp schemas/level.schema -o "$T/level.hpp"
same_file gen_cpp_level_golden "$T/level.hpp" "$G/level.hpp.expect"
expect gen_cpp_stdout 0 "$BLOBC" gen cpp schemas/level.schema
same_file gen_cpp_stdout_equals_file "$T/out" "$T/level.hpp"
grep -q '^#ifndef BLOBC_GEN_LEVEL_HPP$' "$T/level.hpp" && pass gen_cpp_guard ||
    fail gen_cpp_guard "$(grep -m1 '#ifndef' "$T/level.hpp")"
hash=$("$BLOBC" check schemas/level.schema | sed -n 's/^root .*schema hash \(0x[0-9a-f]*\)).*/\1/p')
grep -A1 'layout hash of Level,' "$T/level.hpp" | grep -q "UINT64_C($hash);" && pass gen_cpp_hash_matches_check ||
    fail gen_cpp_hash_matches_check "check says $hash"

# --- the runtime alone: first in a unit, with and without the library ---
# (a check of the tree alone: make check's, not again under make asan or Wine)
if [ -n "${REF_BLOBC:-}" ]; then
    skip blob_hpp_alone "the runtime's sources are make check's to compile"
else
    for cxx in $CXXS; do
        for lib in "" "-DBLOBC_WITH_LIBRARY"; do
            printf '#include <blobc/blob.hpp>\nint main() { return blobc::Fixed<float, 2>::size() == 2 ? 0 : 1; }\n' |
                $cxx -std=c++17 $CXXWARN $lib -I"$INC" -x c++ -fsyntax-only - >"$T/cc.log" 2>&1 ||
                echo "$cxx $lib: $(head -c 400 "$T/cc.log")"
        done
    done >"$T/rt.fail"
    [ -s "$T/rt.fail" ] && fail blob_hpp_alone "$(cat "$T/rt.fail")" || pass blob_hpp_alone
fi

# --- every schema compiles (global namespace, with the library part) ---
printf '#define BLOBC_WITH_LIBRARY\n#include "gen.hpp"\nint main() { return 0; }\n' >"$T/use.cpp"
if [ -z "$CXXS" ]; then skip cpp_compiles "no C++ compiler"; fi
ngen=0
bad=""
for s in schemas/*.schema tests/data/*/*.schema; do
    [ -n "$CXXS" ] || break
    "$BLOBC" check "$s" >/dev/null 2>&1 || continue
    if ! "$BLOBC" gen cpp "$s" -o "$T/gen.hpp" 2>"$T/err"; then
        bad="$bad $s(gen: $(head -c 200 "$T/err"))"
        continue
    fi
    ngen=$((ngen + 1))
    same_as_reference "same_as_plain_$(echo "$s" | tr '/.' '__')" cpp "$s" "$T/gen.hpp"
    [ $? -eq 1 ] || continue
    for cxx in $CXXS; do
        $cxx -std=c++17 $CXXWARN -I"$INC" -I"$T" -fsyntax-only "$T/use.cpp" >"$T/cc.log" 2>&1 ||
            bad="$bad $s($cxx: $(grep -m2 error "$T/cc.log"))"
    done
done
if [ -n "$CXXS" ]; then
    [ -z "$bad" ] && [ "$ngen" -ge 10 ] && pass "cpp_every_schema_compiles_$ngen" ||
        fail cpp_every_schema_compiles "$ngen generated;$bad"
fi

# --- the hostile names: C, C++ and C# keywords, library names, clashes ---
for ns in "" "--namespace hostile::names"; do
    tag=$([ -n "$ns" ] && echo namespaced || echo global)
    # shellcheck disable=SC2086
    expect "gen_cpp_hostile_$tag" 0 "$BLOBC" gen cpp "$G/hostile_names.schema" $ns -o "$T/gen.hpp"
    # shellcheck disable=SC2086
    same_as_reference "same_as_plain_hostile_$tag" cpp "$G/hostile_names.schema" "$T/gen.hpp" $ns
    [ $? -eq 1 ] || continue
    for cxx in $CXXS; do
        for std in c++17 gnu++17 c++20; do
            $cxx -std=$std $CXXWARN -I"$INC" -I"$T" -fsyntax-only "$T/use.cpp" >"$T/cc.log" 2>&1 ||
                echo "$cxx -std=$std $ns: $(head -c 600 "$T/cc.log")"
        done
    done >"$T/hn.fail"
    [ -s "$T/hn.fail" ] && fail "cpp_hostile_names_$tag" "$(cat "$T/hn.fail")" || pass "cpp_hostile_names_$tag"
done
# the escaped spellings, used
"$BLOBC" gen cpp "$G/hostile_names.schema" -o "$T/hostile.hpp" 2>/dev/null
cat >"$T/hostile.cpp" <<'EOT'
#include "hostile.hpp"
#include <string_view>
static_assert(std::string_view(to_string(Words::int__)) == "int");
static_assert(std::string_view(to_string(Words::uint__)) == "uint");
static_assert(std::string_view(to_string(Choice::Tag::Tag__)) == "Tag");
static_assert(static_cast<unsigned>(Choice::Tag::NONE) == 0u && static_cast<unsigned>(Choice::Tag::Item_) == 9u);
int main() {
    const Root *r = Root::open("", 0);
    const class Fields *f = nullptr;
    const class int_ *i = nullptr;
    const class uint_ *u = nullptr;
    const class to_string_ *ts = nullptr;
    const class blobc_ *b = nullptr;
    // a class named like the API every class declares, renamed (not its API)
    const class open_ *o = open_::open("", 0);
    static_assert(schema_hash_::schema_hash != 0u && open_verified_::schema_hash != 0u);
    // members named after their class, keywords and the class's own API, escaped
    using F = const class Fields;
    uint8_t (F::*same)() const noexcept = &F::Fields_;
    uint8_t (F::*open)() const noexcept = &F::open_;
    bool (F::*cls)() const noexcept = &F::class_;
    const class Tag *(Choice::*as)() const noexcept = &Choice::as_Tag;
    return r || f || i || u || ts || b || o || !same || !open || !cls || as == nullptr;
}
EOT
if [ -n "$CXX1" ]; then
    if $CXX1 -std=c++17 $CXXWARN -I"$INC" -I"$T" "$T/hostile.cpp" -o "$T/hostile" 2>"$T/cc.log" && "$T/hostile"; then
        pass cpp_hostile_spellings
    else
        fail cpp_hostile_spellings "$(head -c 800 "$T/cc.log")"
    fi
fi

# --- the reader: every value of the sample level, as dump --json has it ---
"$BLOBC" gen cpp schemas/level.schema --namespace game -o "$T/level.hpp" 2>"$T/err" ||
    fail gen_cpp_namespace "$(cat "$T/err")"
expect bake_level 0 "$BLOBC" bake samples/level.yaml -o "$T/level.blob"
expect bake_level_raw 0 "$BLOBC" bake --format raw samples/level.yaml -o "$T/level.raw"
"$BLOBC" dump --json "$T/level.blob" >"$T/want.json"
for cxx in $LIB_CXXS; do
    if ! $cxx -std=c++17 $CXXWARN $SAN -DBLOBC_WITH_LIBRARY -I"$INC" -I"$T" "$G/read_level.cpp" \
        -o "$T/read_$cxx" "$BUILD/libblobc.a" $LIBS 2>"$T/cc.log"; then
        fail "read_level_builds_$cxx" "$(head -c 800 "$T/cc.log")"
        continue
    fi
    as_program "$T/read_$cxx"
    pass "read_level_builds_$cxx"
    for mode in blob raw verified; do
        file=$T/level.blob
        [ "$mode" = raw ] && file=$T/level.raw
        "$T/read_$cxx" "$file" $mode >"$T/got.json" 2>"$T/err"
        rc=$?
        if [ $rc -ne 0 ]; then fail "read_level_${mode}_$cxx" "exit $rc: $(head -c 300 "$T/got.json")"; continue; fi
        if ! command -v python3 >/dev/null 2>&1; then
            skip "read_level_${mode}_$cxx" "python3 not installed to compare the JSON (make deps installs it)"
            continue
        fi
        python3 "$TOP/tests/tools/json_same.py" "$T/want.json" "$T/got.json" >"$T/diff" 2>&1 &&
            pass "read_level_${mode}_$cxx" || fail "read_level_${mode}_$cxx" "$(head -c 400 "$T/diff")"
    done
done
READ=$T/read_$(echo "$LIB_CXXS" | head -1)

# --- bad blobs: refused, with the reason ---
if [ -x "$READ" ]; then
    head -c 200 "$T/level.blob" >"$T/short.blob"
    expect refuse_truncated 0 "$READ" "$T/short.blob" refuse
    grep -qx 'refused: file is shorter than its header says' "$T/out" && pass refuse_truncated_reason ||
        fail refuse_truncated_reason "$(cat "$T/out")"
    "$BLOBC" bake "$G/all.yaml" -o "$T/all.blob" 2>/dev/null
    expect refuse_other_schema 0 "$READ" "$T/all.blob" refuse
    grep -qx 'refused: blob was baked for a different schema layout' "$T/out" && pass refuse_other_schema_reason ||
        fail refuse_other_schema_reason "$(cat "$T/out")"
    printf 'NOTABLOB' | dd of="$T/magic.blob" bs=1 conv=notrunc 2>/dev/null
    cat "$T/level.blob" >>"$T/magic.blob"
    expect refuse_magic 0 "$READ" "$T/magic.blob" refuse
    grep -qx 'refused: not a blob file (bad magic number)' "$T/out" && pass refuse_magic_reason ||
        fail refuse_magic_reason "$(cat "$T/out")"
    # one byte of the data changed: the trusted open reads on, the verified one refuses
    cp "$T/level.blob" "$T/flip.blob"
    printf 'Z' | dd of="$T/flip.blob" bs=1 seek=100 conv=notrunc 2>/dev/null
    expect verified_refuses_changed_data 1 "$READ" "$T/flip.blob" verified
    grep -q '^refused: .*data hash' "$T/out" && pass verified_refusal_reason ||
        fail verified_refusal_reason "$(head -c 300 "$T/out")"
fi

# --- usage and errors ---
expect_err gen_cpp_bad_namespace 2 "namespace 'a::' is not a C++ namespace name" \
    "$BLOBC" gen cpp schemas/level.schema --namespace 'a::'
expect_err gen_cpp_keyword_namespace 2 "namespace 'class' is not a C++ namespace name" \
    "$BLOBC" gen cpp schemas/level.schema --namespace class
expect_err gen_cpp_prefix 2 "--prefix applies to gen c only" "$BLOBC" gen cpp schemas/level.schema --prefix p_
printf 'struct A { b: B; }\n' >"$T/bad.schema"
expect_err gen_cpp_bad_schema 1 "bad.schema:1:15: error: unknown type 'B'" "$BLOBC" gen cpp "$T/bad.schema" -o "$T/bad.hpp"
absent gen_cpp_bad_schema_no_output "$T/bad.hpp"
