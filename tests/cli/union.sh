# Unions end to end: check's listing, baking YAML and JSON (the same
# values; YAML shares an aliased member payload), verify, dump as YAML and
# JSON against golden files and re-baked byte-identical, dump without the
# schema (from the type section), dump --map, the gen c header compiled as
# C11 and C++17 reading every value back, and the errors: bad data with
# its located message and exit 1, hostile blobs with the verify code.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
U=$TOP/tests/data/union
INC=$TOP/lib/include

# --- check ---
expect check_runs 0 "$BLOBC" check "$U/shapes.schema"
(cd "$U" && "$BLOBC" check shapes.schema >"$T/check.out" 2>&1)
same_file check_listing "$T/check.out" "$U/check.expect"

# --- bake, verify, dump, re-bake ---
expect bake_yaml 0 "$BLOBC" bake "$U/scene.yaml" -o "$T/y.blob"
expect bake_json 0 "$BLOBC" bake "$U/scene.json" -o "$T/j.blob"
expect verify_yaml 0 "$BLOBC" verify "$T/y.blob"
expect verify_json 0 "$BLOBC" verify "$T/j.blob"
expect verify_with_schema 0 "$BLOBC" verify -s "$U/shapes.schema" "$T/y.blob"

expect dump_yaml 0 "$BLOBC" dump "$T/y.blob"
cp "$T/out" "$T/dump.yaml"
same_file dump_yaml_golden "$T/dump.yaml" "$U/dump.yaml.expect"
expect dump_json 0 "$BLOBC" dump --json "$T/y.blob"
cp "$T/out" "$T/dump.json"
same_file dump_json_golden "$T/dump.json" "$U/dump.json.expect"
# the JSON bake has copies where YAML shares: its dump is the JSON dump of
# the YAML bake, which writes shared payloads out as copies
expect dump_json_of_json 0 "$BLOBC" dump --json "$T/j.blob"
same_file dump_json_same_values "$T/out" "$U/dump.json.expect"

# dump output re-bakes to the same bytes (run where $schema resolves)
cp "$U/shapes.schema" "$T/shapes.schema"
expect rebake_yaml 0 "$BLOBC" bake "$T/dump.yaml" -o "$T/y2.blob"
same_file rebake_yaml_identical "$T/y2.blob" "$T/y.blob"
expect rebake_json 0 "$BLOBC" bake "$T/dump.json" -o "$T/j2.blob"
same_file rebake_json_identical "$T/j2.blob" "$T/j.blob"

# without the schema file: the type section describes the unions
expect dump_stripped_needs_schema 0 "$BLOBC" bake --strip "$U/scene.yaml" -o "$T/s.blob"
expect dump_with_schema 0 "$BLOBC" dump -s "$U/shapes.schema" "$T/s.blob"
# ($schema is then the -s path: compare from the first field on)
tail -n +3 "$T/out" >"$T/s.yaml"
tail -n +3 "$U/dump.yaml.expect" >"$T/want.yaml"
same_file dump_stripped_same "$T/s.yaml" "$T/want.yaml"

expect dump_map 0 "$BLOBC" dump --map "$T/y.blob"
sed 's/^\(.*\)$/\1/' "$T/out" >"$T/map.out"
same_file dump_map_golden "$T/map.out" "$U/map.expect"
grep -q 'main: Shape tag = 1 (Circle)' "$T/map.out" && pass map_shows_tag ||
    fail map_shows_tag "$(grep -m2 'main' "$T/map.out")"
grep -q 'main.Circle: \*Circle -> 0x' "$T/map.out" && pass map_shows_target ||
    fail map_shows_target "$(grep -m2 'main' "$T/map.out")"

# --- gen c: the header compiles as C and C++ and reads every value ---
expect gen_c 0 "$BLOBC" gen c "$U/shapes.schema" -o "$T/shapes.h"
for w in Shape_NONE Shape_Circle 'const Circle \*Shape_as_Circle(const Shape \*blobc_u)' \
    'uint32_t Shape_tag(const Shape \*blobc_u)' 'BLOBC_RT_STATIC_ASSERT(sizeof(Shape) == 8'; do
    grep -q "$w" "$T/shapes.h" || echo "$w"
done >"$T/missing"
[ -s "$T/missing" ] && fail gen_c_union_api "missing: $(cat "$T/missing")" || pass gen_c_union_api
WARN="-Wall -Wextra -Werror -pedantic -Wshadow -Wconversion -Wsign-conversion -Wcast-qual -Wundef"
CC1=${CC:-cc}
if $CC1 -std=c11 $WARN -Wstrict-prototypes -I"$INC" -I"$T" "$U/read_union.c" -o "$T/ru" 2>"$T/cc.log"; then
    pass read_union_builds_c
    expect read_union_yaml 0 "$T/ru" "$T/y.blob"
    grep -q '^ok [0-9]* values$' "$T/out" && pass read_union_count || fail read_union_count "$(head -5 "$T/out")"
    expect read_union_json 0 "$T/ru" "$T/j.blob" copied
else
    fail read_union_builds_c "$(head -c 800 "$T/cc.log")"
fi
CXX1=$(command -v g++ || command -v clang++ || true)
if [ -z "$CXX1" ]; then
    skip read_union_builds_cxx "no C++ compiler (g++ or clang++)"
elif $CXX1 -std=c++17 $WARN -Wold-style-cast -Wzero-as-null-pointer-constant -I"$INC" -I"$T" \
    -x c++ "$U/read_union.c" -o "$T/ruxx" 2>"$T/cc.log"; then
    pass read_union_builds_cxx
    expect read_union_cxx 0 "$T/ruxx" "$T/y.blob"
else
    fail read_union_builds_cxx "$(head -c 800 "$T/cc.log")"
fi

# --- bad data: located errors, exit 1, no output ---
bad() { # NAME EXT TEXT MESSAGE
    printf '%s' "$3" >"$T/bad.$2"
    expect_err "bake_$1" 1 "$4" "$BLOBC" bake -s "$U/shapes.schema" "$T/bad.$2" -o "$T/bad.blob"
    absent "bake_$1_no_output" "$T/bad.blob"
}
bad unknown_member yaml 'main: {Circel: {r: 1}}
pair: []' 'bad.yaml:1:8: main: error: unknown member "Circel" of union Shape; did you mean "Circle"?'
bad two_members yaml 'main: {Circle: {r: 1}, Box: {w: 1, h: 1}}' \
    'bad.yaml:1:24: main: error: a union value names exactly one member, but "Box" follows "Circle" (union Shape)'
bad not_mapping yaml 'main: Circle' \
    'bad.yaml:1:7: main: error: expected a mapping with one key naming a member of union Shape (Circle, Box, Group), got "Circle"'
bad null_not_allowed json '{"main": null}' \
    "bad.json:1:10: /main: error: expected an object with one key naming a member of union Shape (Circle, Box, Group), got null (null, no member, is allowed only in a field declared '= null')"
bad null_in_array yaml 'main: {Circle: {r: 1}}
shapes: [null]' 'bad.yaml:2:10: shapes[0]: error: expected a mapping with one key naming a member of union Shape'
bad member_of_other_union yaml 'main: {Spot: {angle: 1}}' \
    'bad.yaml:1:8: main: error: unknown member "Spot" of union Shape (members: Circle, Box, Group)'

# --- hostile data: the tag and the payload reference ---
# (dump --raw verifies a data section first; the hashes of a .blob would
# catch a flipped byte before the walk: tests/bad/blob has those)
expect bake_raw 0 "$BLOBC" bake --format raw "$U/scene.yaml" -o "$T/y.raw"
hostile() { # NAME AT BYTES CODE TEXT: main's tag is at 0, its offset at 4
    cp "$T/y.raw" "$T/h.raw"
    printf "$3" | dd of="$T/h.raw" bs=1 seek="$2" conv=notrunc 2>/dev/null
    expect_err "$1" 1 "$5" "$BLOBC" dump --raw -s "$U/shapes.schema" "$T/h.raw"
    # the map names the verification code where it stops
    run "$BLOBC" dump --map --raw -s "$U/shapes.schema" "$T/h.raw"
    grep -q "^## verification failed at .*: $4: " "$T/out" && pass "$1_code" ||
        fail "$1_code" "want $4: $(tail -1 "$T/out")"
}
hostile tag_out_of_range 0 '\007' union 'union tag 7 names no member of Shape (1 to 3, or 0 for none)'
hostile none_with_offset 0 '\000' union 'union holds no member (tag 0) but its offset is'
hostile member_without_payload 4 '\000\000\000\000' union 'union tag 1 (Circle) with offset 0'
hostile payload_misaligned 4 '\002' misaligned 'pointer target'
hostile payload_out_of_bounds 4 '\377\377\377\177' offset-range 'pointer offset 2147483647'
