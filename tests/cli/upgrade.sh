# blobc upgrade: the result is byte for byte what baking the old blob's
# dump with the new schema gives (widening, narrowing, enums by name, new
# defaulted fields, moved fields); --drop; every refusal with its path and
# exit code; stripped blobs with --from.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/compat
cd "$D" || exit 1
"$BLOBC" bake -s old.schema old.yaml -o "$T/old.blob" 2>"$T/err" && pass bake_old || fail bake_old "$(cat "$T/err")"

# reference NEW.schema OUT: the old blob dumped, its $schema made NEW's, baked with NEW.
reference() {
    "$BLOBC" dump "$T/old.blob" | sed -e "s|^\\\$schema: .*|\$schema: \"$1\"|" -e "/^\\\$type:/d" >"$T/ref.yaml"
    "$BLOBC" bake -s "$1" "$T/ref.yaml" -o "$2"
}

for n in same_layout types_renamed added_field added_in_padding moved retyped enum_values enum_base \
    aligned widened narrowed; do
    expect "$n" 0 "$BLOBC" upgrade "$T/old.blob" -s "$n.schema" -o "$T/$n.blob"
    reference "$n.schema" "$T/$n.ref.blob" 2>"$T/err" || fail "${n}_reference" "$(cat "$T/err")"
    same_file "${n}_same_as_rebake" "$T/$n.blob" "$T/$n.ref.blob"
done
expect verify_upgraded 0 "$BLOBC" verify "$T/widened.blob"

# Values read back: widened numbers, an enum by member name (wall is 1 in
# the old schema, 9 in the new), a new field's default, a new empty array.
"$BLOBC" dump "$T/widened.blob" >"$T/w.yaml"
for want in '^  - id: 1$' '^      x: 0.1$' '^    kind: wall$' '^version: 2$' '^    extra: \[\]$' '^count: 2$'; do
    grep -q -- "$want" "$T/w.yaml" && pass "widened_has_$want" || fail "widened_has_$want" "not in the dump"
done
"$BLOBC" dump --map "$T/widened.blob" >"$T/w.map"
grep -q 'kind.*wall' "$T/w.map" && pass widened_map_enum || fail widened_map_enum "$(grep kind "$T/w.map" | head -2)"

# --drop: the fields are left out; the result is the JSON dump without them, baked.
expect_err removed_needs_drop 1 "old.blob: flags: error: field 'flags' is not in the new schema; --drop leaves its values out" \
    "$BLOBC" upgrade "$T/old.blob" -s removed_field.schema -o "$T/rf.blob"
absent removed_no_output "$T/rf.blob"
expect drop 0 "$BLOBC" upgrade "$T/old.blob" -s removed_field.schema -o "$T/rf.blob" --drop
if python3 -c 1 2>/dev/null; then
    "$BLOBC" dump --json "$T/old.blob" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); del d["flags"]; d["$schema"]="removed_field.schema"; json.dump(d, sys.stdout)' >"$T/rf.json"
    "$BLOBC" bake -s removed_field.schema "$T/rf.json" -o "$T/rf.ref.blob"
    same_file drop_same_as_rebake "$T/rf.blob" "$T/rf.ref.blob"
else
    skip drop_same_as_rebake "python3 is not installed"
fi
"$BLOBC" dump "$T/rf.blob" | grep -q '^flags' && fail drop_left_out "flags still there" || pass drop_left_out

# Refusals, each naming the path.
expect_err no_default 1 "old.blob: items[].weight: error: new field 'weight' (f32) has no default to take" \
    "$BLOBC" upgrade "$T/old.blob" -s no_default.schema -o "$T/x.blob"
expect_err kind_change 1 "items[].next: error: cannot carry *Item over to [Item]" \
    "$BLOBC" upgrade "$T/old.blob" -s pointer_and_array.schema -o "$T/x.blob"
expect_err renamed_field 1 "count: error: field 'count' is not in the new schema (values carry over by name: if 'total' is its new name, rename it back first); --drop leaves its values out" \
    "$BLOBC" upgrade "$T/old.blob" -s renamed.schema -o "$T/x.blob"
expect_err fixed_length 1 "items[0].weights: error: too many items for [f32; 3]" \
    "$BLOBC" upgrade "$T/old.blob" -s resized.schema -o "$T/x.blob"
sed 's/id: 2,/id: 300,/' old.yaml >"$T/big.yaml"
"$BLOBC" bake -s old.schema "$T/big.yaml" -o "$T/big.blob"
expect_err narrowing_overflow 1 "big.blob: items[1].id: error:" \
    "$BLOBC" upgrade "$T/big.blob" -s narrowed.schema -o "$T/x.blob"
grep -q "u8 range" "$T/err" && pass narrowing_says_range || fail narrowing_says_range "$(cat "$T/err")"
absent refused_no_output "$T/x.blob"
printf 'enum Kind : u8 { floor, door = 5 }\nstruct Vec3 { x: f32; y: f32; z: f32; }\nstruct Item { id: u32; kind: Kind = floor; pos: Vec3; weights: [f32; 4]; tags: [string]; next: *Item; }\nstruct Level { name: string; items: [Item]; count: u16; flags: u16 = 0; }\nroot Level;\n' >"$T/nowall.schema"
expect_err enum_member_gone 1 'items[0].kind: error: unknown member "wall" of enum Kind' \
    "$BLOBC" upgrade "$T/old.blob" -s "$T/nowall.schema" -o "$T/x.blob"

# Stripped blobs need --from; a --from of another layout is refused.
"$BLOBC" bake --strip -s old.schema old.yaml -o "$T/stripped.blob"
expect_err stripped 1 "the blob is stripped (no embedded type description): give its schema with --from" \
    "$BLOBC" upgrade "$T/stripped.blob" -s widened.schema -o "$T/x.blob"
expect from_schema 0 "$BLOBC" upgrade "$T/stripped.blob" --from old.schema -s widened.schema -o "$T/ws.blob"
same_file from_schema_same "$T/ws.blob" "$T/widened.blob"
expect_err from_wrong_schema 1 "layout hash" \
    "$BLOBC" upgrade "$T/stripped.blob" --from widened.schema -s widened.schema -o "$T/x.blob"
expect strip_output 0 "$BLOBC" upgrade "$T/old.blob" -s widened.schema -o "$T/wstrip.blob" --strip
expect_err strip_output_has_no_types 1 "stripped" "$BLOBC" compat "$T/wstrip.blob" widened.schema

# -t: another type of the new schema, root renamed.
expect type_option 0 "$BLOBC" upgrade "$T/old.blob" -s same_layout.schema -t Level -o "$T/t.blob"
expect_err type_unknown 1 "the new schema has no struct Nope" \
    "$BLOBC" upgrade "$T/old.blob" -s same_layout.schema -t Nope -o "$T/x.blob"

# Usage and I/O.
expect_err needs_schema 2 "the new schema is required" "$BLOBC" upgrade "$T/old.blob" -o "$T/x.blob"
expect_err needs_output 2 "the output is required" "$BLOBC" upgrade "$T/old.blob" -s widened.schema
expect_err missing_blob 2 "nope.blob" "$BLOBC" upgrade "$T/nope.blob" -s widened.schema -o "$T/x.blob"
head -c 120 "$T/old.blob" >"$T/cut.blob"
expect_err truncated_blob 1 "cut.blob" "$BLOBC" upgrade "$T/cut.blob" -s widened.schema -o "$T/x.blob"

# Unions: members by name (their tags may change), member structs upgraded
# like any struct, --drop inside a member; a member the new union lacks
# fails where a value uses it.
cd "$D/union" || exit 1
"$BLOBC" bake -s old.schema old.yaml -o "$T/u.blob" 2>"$T/err" && pass union_bake_old || fail union_bake_old "$(cat "$T/err")"
ureference() {
    "$BLOBC" dump "$T/u.blob" | sed "s|^\\\$schema: .*|\$schema: \"$1\"|" >"$T/uref.yaml"
    "$BLOBC" bake -s "$1" "$T/uref.yaml" -o "$2"
}
for n in member_added member_reordered member_changed; do
    expect "union_$n" 0 "$BLOBC" upgrade "$T/u.blob" -s "$n.schema" -o "$T/u-$n.blob"
    ureference "$n.schema" "$T/u-$n.ref.blob" 2>"$T/err" || fail "union_${n}_reference" "$(cat "$T/err")"
    same_file "union_${n}_same_as_rebake" "$T/u-$n.blob" "$T/u-$n.ref.blob"
done
"$BLOBC" dump "$T/u-member_changed.blob" | grep -q '^main: {Box: {w: 2.0, h: 3.0, d: 1.0}}$\|d: 1.0' &&
    pass union_member_default || fail union_member_default "$("$BLOBC" dump "$T/u-member_changed.blob" | head -5)"
expect_err union_member_gone 1 'main: error: unknown member "Box" of union Shape' \
    "$BLOBC" upgrade "$T/u.blob" -s member_removed.schema -o "$T/x.blob"
expect_err union_null_gone 1 "extra: error: expected a mapping with one key naming a member of union Shape" \
    "$BLOBC" upgrade "$T/u.blob" -s null_removed.schema -o "$T/x.blob"
expect_err union_member_renamed 1 'unknown member "Circle" of union Form' \
    "$BLOBC" upgrade "$T/u.blob" -s member_renamed.schema -o "$T/x.blob"
expect_err union_field_needs_drop 1 "main.Box.h: error: field 'h' is not in the new schema" \
    "$BLOBC" upgrade "$T/u.blob" -s member_field_dropped.schema -o "$T/x.blob"
expect union_drop 0 "$BLOBC" upgrade "$T/u.blob" -s member_field_dropped.schema --drop -o "$T/u-drop.blob"
"$BLOBC" dump "$T/u-drop.blob" >"$T/u-drop.yaml"
grep -q 'h:' "$T/u-drop.yaml" && fail union_drop_left_out "$(grep 'h:' "$T/u-drop.yaml" | head -2)" ||
    pass union_drop_left_out
grep -q 'w: 4.0' "$T/u-drop.yaml" && pass union_drop_kept_values || fail union_drop_kept_values "$(cat "$T/u-drop.yaml")"

# Shared payloads stay shared: the upgraded blob is byte for byte a fresh
# bake of the same data (anchors and aliases) with the new schema, also
# when a dropped field held a payload's first use (old_first.yaml) and
# when values are widened (new.schema: Part.id u32 -> u64).
cd "$D/shared" || exit 1
for n in old old_first; do
    "$BLOBC" bake "$n.yaml" -o "$T/s-$n.blob" 2>"$T/err" || fail "shared_bake_$n" "$(cat "$T/err")"
done
"$BLOBC" bake dropped.yaml -o "$T/s-dropped.ref" && "$BLOBC" bake dropped_first.yaml -o "$T/s-df.ref" &&
    "$BLOBC" bake new.yaml -o "$T/s-new.ref" || fail shared_reference "the references did not bake"
expect shared_drop 0 "$BLOBC" upgrade "$T/s-old.blob" -s dropped.schema --drop -o "$T/s-dropped.blob"
same_file shared_drop_same_as_fresh_bake "$T/s-dropped.blob" "$T/s-dropped.ref"
expect shared_drop_first 0 "$BLOBC" upgrade "$T/s-old_first.blob" -s dropped.schema --drop -o "$T/s-df.blob"
same_file shared_drop_first_same_as_fresh_bake "$T/s-df.blob" "$T/s-df.ref"
expect shared_widen 0 "$BLOBC" upgrade "$T/s-old.blob" -s new.schema --drop -o "$T/s-new.blob"
same_file shared_widen_same_as_fresh_bake "$T/s-new.blob" "$T/s-new.ref"
n=$("$BLOBC" dump "$T/s-dropped.blob" | grep -c '\*a[0-9]')
[ "$n" = 4 ] && pass shared_drop_aliases || fail shared_drop_aliases "$n aliases, want 4"
expect shared_same_schema 0 "$BLOBC" upgrade "$T/s-old.blob" -s old.schema -o "$T/s-same.blob"
same_file shared_same_schema_identity "$T/s-same.blob" "$T/s-old.blob"

# Maps, optionals, any and tagged unions (tests/data/compat/forms): the
# blob's own schema gives the same bytes back; each upgrade is the old
# dump baked with the new schema, and its values read back; refusals.
cd "$D/forms" || exit 1
"$BLOBC" bake -s old.schema old.yaml -o "$T/f.blob" 2>"$T/err" && pass forms_bake_old || fail forms_bake_old "$(cat "$T/err")"
expect forms_same_schema 0 "$BLOBC" upgrade "$T/f.blob" -s old.schema -o "$T/f-same.blob"
same_file forms_same_schema_identity "$T/f-same.blob" "$T/f.blob"
freference() {
    "$BLOBC" dump "$T/f.blob" | sed -e "s|^\\\$schema: .*|\$schema: \"$1\"|" -e "/^\\\$type:/d" >"$T/fref.yaml"
    "$BLOBC" bake -s "$1" "$T/fref.yaml" -o "$2"
}
for n in optional_added optional_dropped map_value_grown map_value_widened members_added; do
    expect "forms_$n" 0 "$BLOBC" upgrade "$T/f.blob" -s "$n.schema" -o "$T/f-$n.blob"
    freference "$n.schema" "$T/f-$n.ref.blob" 2>"$T/err" || fail "forms_${n}_reference" "$(cat "$T/err")"
    same_file "forms_${n}_same_as_rebake" "$T/f-$n.blob" "$T/f-$n.ref.blob"
    expect "forms_${n}_verifies" 0 "$BLOBC" verify "$T/f-$n.blob"
done
# has LABEL BLOB PATH=JSON...: the value at each dotted PATH of the
# blob's JSON dump is JSON (each pair its own result).
has() {
    label=$1 blob=$2
    shift 2
    if ! python3 -c 1 2>/dev/null; then skip "$label" "python3 is not installed"; return; fi
    "$BLOBC" dump --json "$blob" >"$T/f.json" 2>"$T/err" || { fail "${label}_dump" "$(cat "$T/err")"; return; }
    for want in "$@"; do
        got=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
want=json.loads(sys.argv[3])
print("ok" if d == want and type(d) == type(want) else json.dumps(d))' "$T/f.json" "${want%%=*}" "${want#*=}" 2>&1)
        [ "$got" = ok ] && pass "${label}_${want%%=*}" || fail "${label}_${want%%=*}" "got $got, want ${want#*=}"
    done
}
# T to ?T: present, the value kept; the other values as they were.
has forms_optional_added "$T/f-optional_added.blob" 'count=3' 'score=0.5' 'label="north"' \
    'maybe_list=[]' 'extra.big=18446744073709551615' 'extra.list=[1, -2, 2.5, "s", true, null, [], {}]' \
    'by_color={"red": 1, "blue": 3}' 'by_id={"2": "two", "10": "north"}' 'opts={"none": null, "some": 5}' \
    'anys=[null, 0, "x", [], {}, {"k": [1]}]' 'nums=[{"kind": 2, "side": 1.5}, {"kind": 1, "r": 0.25}]' \
    'maybe_ptr={"x": 7, "y": 8}'
"$BLOBC" dump --map "$T/f-optional_added.blob" | grep -q 'count: presence = 1 (present)' &&
    pass forms_optional_added_present || fail forms_optional_added_present "$("$BLOBC" dump --map "$T/f-optional_added.blob" | grep count | head -3)"
# ?T to T with a default: the present value kept, the absent one the default.
has forms_optional_dropped "$T/f-optional_dropped.blob" 'score=0.5' 'missing=9' 'count=3'
# a map's struct value grown: each entry rebuilt with the new field's default
has forms_map_value_grown "$T/f-map_value_grown.blob" 'points.a={"x": 0, "y": 1, "z": -1}' \
    'points.b={"x": 2, "y": 3, "z": -1}' 'at={"x": 1, "y": -2, "z": -1}' 'maybe_ptr={"x": 7, "y": 8, "z": -1}'
has forms_map_value_widened "$T/f-map_value_widened.blob" 'by_color={"red": 1, "blue": 3}'
has forms_members_added "$T/f-members_added.blob" 'shape={"type": "sq", "side": 2.0}' \
    'nums=[{"kind": 2, "side": 1.5}, {"kind": 1, "r": 0.25}]'
"$BLOBC" dump "$T/f-members_added.blob" | grep -q '^  - !circle$' && pass forms_members_added_yaml_tag ||
    fail forms_members_added_yaml_tag "$("$BLOBC" dump "$T/f-members_added.blob" | tail -5)"
expect_err forms_optional_no_default 1 "f.blob: missing: error: field 'missing' is no longer optional (?u16 to u16) and has no default for the values that are absent; give it one in the schema" \
    "$BLOBC" upgrade "$T/f.blob" -s optional_no_default.schema -o "$T/x.blob"
expect_err forms_map_key 1 "f.blob: by_id: error: the map's key type changed from u32 to u64: keys do not convert (a map's entries are sorted by key); bake the data again" \
    "$BLOBC" upgrade "$T/f.blob" -s map_key_changed.schema -o "$T/x.blob"
expect_err forms_member_retagged 1 'f.blob: shape: error: unknown tag "sq" of union Shape (field "type"; tags: "circle", "square")' \
    "$BLOBC" upgrade "$T/f.blob" -s member_retagged.schema -o "$T/x.blob"
expect_err forms_any_retyped 1 "f.blob: extra: error: cannot carry any over to [string: any]" \
    "$BLOBC" upgrade "$T/f.blob" -s any_retyped.schema -o "$T/x.blob"
absent forms_refused_no_output "$T/x.blob"
