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
CC1=${CC:-cc}
if $CC1 -std=c11 $GEN_WARN -Wstrict-prototypes -I"$INC" -I"$T" "$U/read_union.c" -o "$T/ru" 2>"$T/cc.log"; then
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
elif $CXX1 -std=c++17 $GEN_CXXWARN -I"$INC" -I"$T" \
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
    "bad.json:1:10: /main: error: expected an object with one key naming a member of union Shape (Circle, Box, Group), got null (null, no member, is allowed only in a field declared '= null' or an @open union)"
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
hostile none_in_required_field 0 '\000' union 'union Shape holds no member (tag 0), which only a field declared'
hostile none_with_offset 12 '\004' union 'union holds no member (tag 0) but its offset is'
hostile member_without_payload 4 '\000\000\000\000' union 'union tag 1 (Circle) with offset 0'
hostile payload_misaligned 4 '\002' misaligned 'pointer target'
hostile payload_out_of_bounds 4 '\377\377\377\177' offset-range 'pointer offset 2147483647'

# --- several errors in one run, in document order, YAML and JSON alike ---
for f in errors.yaml errors.json; do
    (cd "$TOP" && "$BLOBC" bake "tests/data/union/$f" -o "$T/e.blob" 2>"$T/e.err")
    rc=$?
    [ $rc -eq 1 ] && pass "several_errors_$f" || fail "several_errors_$f" "exit $rc, want 1"
    same_file "several_errors_${f}_golden" "$T/e.err" "$U/$f.stderr"
    absent "several_errors_${f}_no_output" "$T/e.blob"
done

# --- gen jsonschema: a union is a oneOf of one-key objects; a real
# validator agrees with bake on each kind of mistake ---
expect jsonschema_gen 0 "$BLOBC" gen jsonschema "$U/shapes.schema" -o "$T/shapes.json"
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
    skip jsonschema_validator "python3-jsonschema and python3-yaml are not installed (make deps)"
else
    agree() { # NAME WANT_RC TEXT EDIT...: the validator's verdict, then bake's
        n=$1 wrc=$2 txt=$3
        shift 3
        js_agree "jsonschema_$n" "$wrc" "$txt" "$T/shapes.json" "$U/shapes.schema" "$U/scene.json" "$@"
    }
    agree sample 0 valid
    agree none_where_allowed 0 valid set extra null
    agree none_field_absent 0 valid del extra
    agree other_member 0 valid set main '{"Box": {"w": 1, "h": 2}}'
    agree unknown_member 1 "is not valid under any of the given schemas" set main '{"Oval": {}}'
    agree two_members 1 "is not valid under any of the given schemas" \
        set main '{"Circle": {"r": 1}, "Box": {"w": 1, "h": 2}}'
    agree null_not_allowed 1 "None is not valid under any of the given schemas" set main null
    agree null_item 1 "None is not valid under any of the given schemas" set shapes.0 null
    agree required_union_missing 1 "'main' is a required property" del main
    agree member_field_missing 1 "is not valid under any of the given schemas" set main '{"Box": {"w": 1}}'
    agree scalar_for_union 1 "is not valid under any of the given schemas" set main 3
    js_flush
fi

# --- compat and upgrade: members pair by name; tags are positions ---
cat >"$T/u1.schema" <<'S'
struct Circle { r: f32; }
struct Box { w: f32; h: f32; }
union Shape { Circle, Box }
struct S { s: Shape; l: [Shape]; }
root S;
S
variant() { # NAME SED: a changed copy of u1.schema
    sed "$2" "$T/u1.schema" >"$T/$1.schema"
}
variant append 's/union Shape { Circle, Box }/union Shape { Circle, Box, Tri }\nstruct Tri { a: f32; }/'
variant swap 's/union Shape { Circle, Box }/union Shape { Box, Circle }/'
variant remove 's/union Shape { Circle, Box }/union Shape { Circle }/'
variant widen 's/struct Box { w: f32; h: f32; }/struct Box { w: f32; h: f64; }/'
variant rename 's/struct Box { w: f32; h: f32; }/struct Rect { w: f32; h: f32; }/; s/union Shape { Circle, Box }/union Shape { Circle, Rect }/'
variant drop 's/struct Box { w: f32; h: f32; }/struct Box { w: f32; }/'
compat() { # NAME RC LAST_LINE [LINE]
    run "$BLOBC" compat "$T/u1.schema" "$T/$1.schema"
    if [ "$RC" -ne "$2" ] || [ "$(tail -1 "$T/out")" != "$3" ] || { [ -n "${4:-}" ] && ! grep -qxF -- "$4" "$T/out"; }; then
        fail "compat_$1" "exit $RC, want $2: $(cat "$T/out")"
    else
        pass "compat_$1"
    fi
}
compat append 0 "compatible (the layout is the same; see the notes)" \
    "note: s: union Shape: member 'Tri' added (tag 3; old blobs do not hold it)"
compat swap 1 "incompatible: 2 changes" "s: union Shape: member 'Circle' moved from tag 1 to 2"
compat remove 1 "incompatible: 1 change" "s: union Shape: member 'Box' (tag 2) removed"
compat widen 1 "incompatible: 4 changes" "s.Box.h: retyped from f32 to f64 (size 4 to 8)"
compat rename 1 "incompatible: 1 change" \
    "s: union Shape: member 'Box' (tag 2) removed (tag 2 is now 'Rect')"

printf 's: {Box: {w: 1, h: 2}}\nl: [{Circle: {r: 3}}, {Box: {w: 4, h: 5}}]\n' >"$T/ud.yaml"
"$BLOBC" bake -s "$T/u1.schema" "$T/ud.yaml" -o "$T/ud.blob"
# an upgrade gives exactly what baking the old data with the new schema gives
for v in swap widen append; do
    expect "upgrade_$v" 0 "$BLOBC" upgrade "$T/ud.blob" -s "$T/$v.schema" -o "$T/up.blob"
    "$BLOBC" bake -s "$T/$v.schema" "$T/ud.yaml" -o "$T/direct.blob"
    same_file "upgrade_${v}_as_baked" "$T/up.blob" "$T/direct.blob"
done
expect_err upgrade_removed_member 1 's: error: unknown member "Box" of union Shape (members: Circle)' \
    "$BLOBC" upgrade "$T/ud.blob" -s "$T/remove.schema" -o "$T/up.blob"
expect_err upgrade_member_field_dropped 1 "s.Box.h: error: field 'h' is not in the new schema" \
    "$BLOBC" upgrade "$T/ud.blob" -s "$T/drop.schema" -o "$T/up.blob"
expect upgrade_drop_in_member 0 "$BLOBC" upgrade "$T/ud.blob" -s "$T/drop.schema" --drop -o "$T/up.blob"
printf 's: {Box: {w: 1}}\nl: [{Circle: {r: 3}}, {Box: {w: 4}}]\n' >"$T/dd.yaml"
"$BLOBC" bake -s "$T/drop.schema" "$T/dd.yaml" -o "$T/direct.blob"
same_file upgrade_drop_in_member_as_baked "$T/up.blob" "$T/direct.blob"
