# The shapes real data files use: maps, optionals, any-values, @open
# structs, unions tagged by a field or a YAML tag, @anchor fields and
# @stream roots. JSON and YAML bake to the same bytes (golden files), the
# values read back from the bytes alone are the data's, and bad data is
# refused with located errors and no output.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
F=tests/data/forms

for fmt in json yaml; do
    expect "map_$fmt" 0 "$BLOBC" bake "$F/map.$fmt" -s "$F/in/map.schema" -o "$T/map.$fmt.blob"
    same_file "map_${fmt}_golden" "$T/map.$fmt.blob" "$F/map.blob.expect"
    expect "stream_$fmt" 0 "$BLOBC" bake "$F/stream.$fmt" -s "$F/in/stream.schema" -o "$T/s.$fmt.blob"
    same_file "stream_${fmt}_golden" "$T/s.$fmt.blob" "$F/stream.blob.expect"
    expect "bad_$fmt" 1 "$BLOBC" bake "$F/bad.$fmt" -s "$F/in/map.schema" -o "$T/bad.blob"
    same_file "bad_${fmt}_errors" "$T/err" "$F/bad.$fmt.expect"
    if [ -e "$T/bad.blob" ]; then fail "bad_${fmt}_no_output" "bad.blob written"; else pass "bad_${fmt}_no_output"; fi
done

# verify knows the forms: map keys sorted and unique, presence bytes,
# any-values well formed.
expect verify_map 0 "$BLOBC" verify "$T/map.json.blob"
expect verify_stream 0 "$BLOBC" verify "$T/s.yaml.blob"

# Values read back from the bytes: sorted map keys, presence flags, any.
if command -v python3 >/dev/null; then
    python3 "$F/read_map.py" "$T/map.json.blob" >"$T/values" 2>&1
    same_file map_values "$T/values" "$F/map.values.expect"
else
    skip map_values "python3 is not installed"
fi

# Unity YAML: a %TAG handle declared once, the class tag picks the
# member, the anchor fills the @anchor field.
expect unity 0 "$BLOBC" bake "$F/unity.yaml" -s "$F/in/unity.schema" -o "$T/u.blob"
same_file unity_golden "$T/u.blob" "$F/unity.blob.expect"
expect verify_unity 0 "$BLOBC" verify "$T/u.blob"

# @open: unknown keys are skipped, and listed with --warn-unknown.
printf '{"width": 1, "zzz": [1, {"a": 2}], "props": {}, "byid": {}, "layers": [], "extra": 1}' >"$T/open.json"
expect open_skips 0 "$BLOBC" bake "$T/open.json" -s "$F/in/map.schema" -o "$T/open.blob"
expect_err open_warns 0 'warning: key "zzz" is not read (struct Map is @open)' \
    "$BLOBC" bake "$T/open.json" -s "$F/in/map.schema" -o "$T/open2.blob" --warn-unknown
same_file open_same_bytes "$T/open.blob" "$T/open2.blob"
expect_err open_verbose_count 0 'open.json: baked '"$T"'/open3.blob (1 key of @open structs or tags of @open unions not read; --warn-unknown lists them)' \
    "$BLOBC" bake -v "$T/open.json" -s "$F/in/map.schema" -o "$T/open3.blob"
# Without @open an unknown key stays an error.
sed 's/^@open //' "$F/in/map.schema" >"$T/closed.schema"
expect_err closed_refuses 1 'unknown field "zzz" in struct Map' \
    "$BLOBC" bake "$T/open.json" -s "$T/closed.schema" -o "$T/closed.blob"
# gen cs reads these forms (tests/cli/gen_maps.sh reads their values
# back): a union by YAML tag says its members' tags, a map of any-values
# is searched by key.
expect gen_cs_tags 0 "$BLOBC" gen cs "$F/in/unity.schema" -o "$T/unity.cs"
grep -qF 'case Tag.GameObject: return "!u!1";' "$T/unity.cs" && pass gen_cs_tag_of ||
    fail gen_cs_tag_of "$(grep -m3 'case Tag' "$T/unity.cs")"
expect gen_cs_map_of_any 0 "$BLOBC" gen cs "$F/in/map.schema" -o "$T/map.cs"
grep -qF 'public BlobArray<ObjectGroup_objects_entry> objects;' "$T/map.cs" &&
    grep -qF '[FieldOffset(8)] public BlobAny value;' "$T/map.cs" &&
    grep -qF 'public int objects_Find(string key)' "$T/map.cs" && pass gen_cs_map_entries ||
    fail gen_cs_map_entries "$(grep -m4 -E 'objects|BlobAny value' "$T/map.cs")"

# A union by YAML tag without a tag on the node: the one-key form, the
# tag as its key; an unknown tag is named with a did-you-mean.
printf -- '--- {"!u!5": {m_Name: x}}\n' >"$T/untagged.yaml"
expect_err untagged_unknown 1 'error: unknown tag "!u!5" of union Obj (a YAML tag, or the one key of an untagged mapping); did you mean "!u!1"?' \
    "$BLOBC" bake "$T/untagged.yaml" -s "$F/in/unity.schema" -o "$T/untagged.blob"
# A struct field holding a union tagged by a field (the type section
# marks it) bakes, verifies and dumps back.
expect held_bake 0 "$BLOBC" bake "$F/held.json" -s "$F/in/held.schema" -o "$T/held.blob"
expect held_verify 0 "$BLOBC" verify "$T/held.blob"
expect held_dump 0 "$BLOBC" dump "$T/held.blob" -o "$T/held.yaml"
same_file held_dump_golden "$T/held.yaml" "$F/held.dump.expect"

# dump writes what bakes back to the same bytes, in YAML and in JSON (a
# union by a %TAG-handle tag verbatim in YAML, one-key in JSON).
for b in map stream unity; do
    for how in yaml json; do
        flag=; [ "$how" = json ] && flag=--json
        expect "dump_${b}_$how" 0 "$BLOBC" dump $flag "$F/$b.blob.expect" -o "$T/$b.dump.$how"
        expect "rebake_${b}_$how" 0 "$BLOBC" bake "$T/$b.dump.$how" -s "$F/in/$b.schema" -o "$T/$b.re.blob"
        same_file "roundtrip_${b}_$how" "$T/$b.re.blob" "$F/$b.blob.expect"
    done
done

# Real files other tools wrote (tests/data/formats, with their licenses)
# bake unchanged with the schemas of samples/formats, and verify.
for pair in tiled/map-with-many-layers.tmj:tiled tiled/title.json:tiled gltf/AnimatedTriangle.gltf:gltf \
    gltf/DirectionalLight.gltf:gltf ldtk/Test_file_for_API_showing_all_features.ldtk:ldtk \
    spine/free_form_deformation.json:spine unity/NoiseMotion.unity:unity; do
    d=tests/data/formats/${pair%:*} s=samples/formats/${pair#*:}.schema n=$(basename "${pair%:*}")
    expect "real_bake_$n" 0 "$BLOBC" bake "$d" -s "$s" -o "$T/real.blob" &&
        expect "real_verify_$n" 0 "$BLOBC" verify "$T/real.blob"
done

# Keys that are not identifiers, or are keywords, are quoted field names:
# they bake, dump (quoted where YAML or JSON needs it) and bake back, and
# generated C and C++ take identifiers made of them (and compile).
expect quoted_bake 0 "$BLOBC" bake "$F/quoted.json" -s "$F/in/quoted.schema" -o "$T/q.blob"
expect quoted_dump 0 "$BLOBC" dump "$T/q.blob" -o "$T/q.yaml"
same_file quoted_dump_golden "$T/q.yaml" "$F/quoted.dump.expect"
expect quoted_rebake 0 "$BLOBC" bake "$T/q.yaml" -s "$F/in/quoted.schema" -o "$T/q2.blob"
same_file quoted_roundtrip "$T/q2.blob" "$T/q.blob"
expect quoted_dump_json 0 "$BLOBC" dump --json "$T/q.blob" -o "$T/q.json"
expect quoted_rebake_json 0 "$BLOBC" bake "$T/q.json" -s "$F/in/quoted.schema" -o "$T/q3.blob"
same_file quoted_roundtrip_json "$T/q3.blob" "$T/q.blob"
expect_err quoted_empty 1 'a quoted field name cannot be empty or hold a NUL character' \
    "$BLOBC" check "$F/in/quoted_empty.schema"
find_compilers
expect quoted_gen_c 0 "$BLOBC" gen c "$F/in/quoted.schema" -o "$T/quoted.h"
printf '#include "quoted.h"\nint main(void) { return sizeof(R) > 0 ? 0 : 1; }\n' >"$T/quoted.c"
for cc in $CCS; do
    expect "quoted_c_compiles_$cc" 0 "$cc" -std=c11 -Wall -Wextra -Werror -I"$T" -Ilib/include \
        -o "$T/quoted_c" "$T/quoted.c"
done
expect quoted_gen_cpp 0 "$BLOBC" gen cpp "$F/in/quoted.schema" -o "$T/quoted.hpp"
printf '#include "quoted.hpp"\nint main() { return 0; }\n' >"$T/quoted.cpp"
for cxx in $CXXS; do
    expect "quoted_cpp_compiles_$cxx" 0 "$cxx" -std=c++17 -Wall -Wextra -Werror -I"$T" -Ilib/include \
        -o "$T/quoted_cpp" "$T/quoted.cpp"
done

# An @open union: a tag naming no member leaves the value out (none, null
# in a dump), warned with --warn-unknown and counted by -v; the dump bakes
# back and verify takes none anywhere in it.
expect_err openunion_warns 0 'warning: tag "group" names no member of union L: left out (the union is @open)' \
    "$BLOBC" bake "$F/openunion.json" -s "$F/in/openunion.schema" -o "$T/ou.blob" --warn-unknown
expect openunion_verify 0 "$BLOBC" verify "$T/ou.blob"
expect openunion_dump 0 "$BLOBC" dump "$T/ou.blob" -o "$T/ou.yaml"
same_file openunion_dump_golden "$T/ou.yaml" "$F/openunion.dump.expect"
expect openunion_rebake 0 "$BLOBC" bake "$T/ou.yaml" -s "$F/in/openunion.schema" -o "$T/ou2.blob"
same_file openunion_roundtrip "$T/ou2.blob" "$T/ou.blob"
# The checked open of gen c verifies against the schema the header holds
# as text: an @open union stays @open there, and the none it holds
# verifies.
DEP_LIBS=$(sed -n 's/^DEP_LIBS := //p' "$BUILD/config.mk" 2>/dev/null)
SAN=""
if nm "$BUILD/libblobc.a" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then SAN="-fsanitize=address,undefined"; fi
# open_checked NAME SCHEMA ROOT BLOB [CXX]: the header of gen c for SCHEMA
# compiles (warnings are errors) and its ROOT_open_checked opens BLOB.
open_checked() {
    expect "$1_gen_c" 0 "$BLOBC" gen c "$2" -o "$T/$1.h" || return
    if [ -n "${5:-}" ]; then
        # shellcheck disable=SC2086
        $5 -std=c++17 -Wall -Wextra -Werror -pedantic -Wold-style-cast -DBLOBC_WITH_LIBRARY -DHEADER="\"$1.h\"" \
            -DROOT="$3" -I"$TOP/lib/include" -I"$T" -x c++ -fsyntax-only "$F/open_checked.c" 2>"$T/cc.log" &&
            pass "$1_header_cxx" || fail "$1_header_cxx" "$(head -c 600 "$T/cc.log")"
    fi
    # shellcheck disable=SC2086
    if ${LIB_CC:-${CC:-cc}} -std=c11 -Wall -Wextra -Werror -pedantic $SAN -DBLOBC_WITH_LIBRARY \
        -DHEADER="\"$1.h\"" -DROOT="$3" -I"$TOP/lib/include" -I"$T" "$F/open_checked.c" \
        "$BUILD/libblobc.a" $DEP_LIBS -lm -o "$T/$1_open" 2>"$T/cc.log"; then
        as_program "$T/$1_open"
        expect "$1_open_checked" 0 "$T/$1_open" "$4"
    else
        fail "$1_open_checked" "$(head -c 600 "$T/cc.log")"
    fi
}
open_checked openunion "$F/in/openunion.schema" Root "$T/ou.blob"
# (quoted names past ASCII go into the header's schema text as bytes a
# signed char may not hold; C++ refuses their narrowing)
CXX=${CXX:-c++}
command -v "$CXX" >/dev/null 2>&1 || CXX=""
open_checked quoted "$F/in/quoted.schema" R "$T/q.blob" "$CXX"
# ... and behind a pointer or an optional it is as if null: a null
# pointer, an absent optional (no target made, no presence marked), the
# tag looked up first (by a field, a YAML tag, or the one key).
for fmt in yaml json; do
    expect_err "openwrapped_$fmt" 0 'baked '"$T"'/ow.'"$fmt"'.blob (5 keys of @open structs or tags of @open unions not read' \
        "$BLOBC" bake -v "$F/openwrapped.$fmt" -s "$F/in/openwrapped.schema" -o "$T/ow.$fmt.blob"
done
same_file openwrapped_yaml_json "$T/ow.json.blob" "$T/ow.yaml.blob"
expect openwrapped_dump 0 "$BLOBC" dump "$T/ow.yaml.blob" -o "$T/ow.yaml"
same_file openwrapped_dump_golden "$T/ow.yaml" "$F/openwrapped.dump.expect"
expect openwrapped_rebake 0 "$BLOBC" bake "$T/ow.yaml" -s "$F/in/openwrapped.schema" -o "$T/ow2.blob"
same_file openwrapped_roundtrip "$T/ow2.blob" "$T/ow.yaml.blob"
sed 's/^@open union/union/' "$F/in/openunion.schema" >"$T/closedunion.schema"
expect_err closedunion_refuses 1 'unknown tag "zzz" of union L (field "type"; tags: "a", "b")' \
    "$BLOBC" bake "$F/openunion.json" -s "$T/closedunion.schema" -o "$T/cu.blob"
printf 'struct A { x: u8; }\n@open union U { A }\nstruct R { u: U; }\nroot R;\n' >"$T/onekey.schema"
expect_err open_onekey_refused 1 '@open applies to unions tagged by a field or a YAML tag' \
    "$BLOBC" check "$T/onekey.schema"

# gen cs of quoted names and @open unions compiles (Mono's mcs).
if command -v mcs >/dev/null 2>&1; then
    for s in quoted openunion; do
        expect "gen_cs_$s" 0 "$BLOBC" gen cs --runtime standalone "$F/in/$s.schema" -o "$T/cs_$s.cs" &&
            expect "cs_compiles_$s" 0 mcs -unsafe -warnaserror+ -nowarn:169,649 -target:library \
                -out:"$T/cs_$s.dll" "$T/cs_$s.cs" lib/cs/BlobcRuntime.cs
    done
else
    skip gen_cs_forms "mcs (package mono-mcs) is not installed"
fi

# An any value nests lists and mappings up to 256 deep: the bake refuses
# deeper (as verify would), located, and writes nothing.
for n in 256 257; do
    awk -v n=$n 'BEGIN { s = "{\"width\":1,\"props\":{},\"byid\":{},\"layers\":[],\"extra\":";
        for (i = 0; i < n; i++) s = s "["; for (i = 0; i < n; i++) s = s "]"; print s "}" }' >"$T/deep$n.json"
done
expect any_256_deep 0 "$BLOBC" bake "$T/deep256.json" -s "$F/in/map.schema" -o "$T/deep256.blob" &&
    expect any_256_verifies 0 "$BLOBC" verify "$T/deep256.blob"
expect_err any_257_deep 1 'error: an any value nests lists and mappings more than 256 deep' \
    "$BLOBC" bake "$T/deep257.json" -s "$F/in/map.schema" -o "$T/deep257.blob"
if [ -e "$T/deep257.blob" ]; then fail any_257_no_output "deep257.blob written"; else pass any_257_no_output; fi
