# verify --against: a committed blob is checked against a fresh bake of its
# source; exit 0 when identical, 1 naming the first differing value by its
# schema path when not.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples
cp "$TOP/schemas/level.schema" "$T/level.schema"
sed -e 's|^\$schema: .*|$schema: level.schema|' "$S/level.yaml" >"$T/level.yaml"
"$BLOBC" bake "$T/level.yaml" -o "$T/level.blob"
"$BLOBC" bake --strip "$T/level.yaml" -o "$T/strip.blob"

expect against_same 0 "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
grep -q 'up to date' "$T/out" && pass against_same_says || fail against_same_says "$(cat "$T/out")"
expect against_sample 0 "$BLOBC" verify --against "$S/level.yaml" "$S/level.blob"
expect against_stripped 0 "$BLOBC" verify --against "$T/level.yaml" "$T/strip.blob"

sed -i 's/radius: 6.25/radius: 7.0/' "$T/level.yaml"
expect_err against_value 1 "level.blob: rooms[0].radius: error: out of date with $T/level.yaml: the blob has f32 = 6.25; a fresh bake has f32 = 7.0" \
    "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
expect_err against_value_stripped 1 "rooms[0].radius: error: out of date" \
    "$BLOBC" verify --against "$T/level.yaml" "$T/strip.blob"
sed -i 's/radius: 7.0/radius: 6.25/; s/name: Hall$/name: Hell/' "$T/level.yaml"
expect_err against_string 1 'rooms[0].name: error: out of date with '"$T"'/level.yaml: the blob has string bytes = "Hall"; a fresh bake has string bytes = "Hell"' \
    "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
sed -i 's/name: Hell$/name: Hallway/' "$T/level.yaml"
expect_err against_length 1 "rooms[0].name: error: out of date" "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
sed -i 's/name: Hallway$/name: Hall/' "$T/level.yaml"
# More items; a shared payload written out twice; an enum.
sed -i 's/neighbors: \[2, 3\]/neighbors: [2, 3, 4]/' "$T/level.yaml"
expect_err against_items 1 "rooms[0].neighbors: error: out of date with $T/level.yaml: the blob has [u32] of 2 items; a fresh bake has [u32] of 3 items" \
    "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
sed -i 's/neighbors: \[2, 3, 4\]/neighbors: [2, 3]/' "$T/level.yaml"
sed 's/^landmarks: \[\*keep_meta,/landmarks: [{note: "Built in the second age", author: Ada},/' "$T/level.yaml" >"$T/unshared.yaml"
expect_err against_unshared 1 "landmarks[0]: error: out of date with $T/unshared.yaml: the blob has *RoomMeta = the payload of an earlier value; a fresh bake has *RoomMeta to a value" \
    "$BLOBC" verify --against "$T/unshared.yaml" "$T/level.blob"
sed -i '0,/kind: floor$/s//kind: wall/' "$T/level.yaml"
expect_err against_enum 1 "rooms[0].kind: error: out of date with $T/level.yaml: the blob has Kind = floor; a fresh bake has Kind = wall" \
    "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
sed -i '0,/kind: wall$/s//kind: floor/' "$T/level.yaml"
expect against_restored 0 "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
# Same values, another recorded schema name: the type description differs.
sed -i 's|^\$schema: .*|$schema: ./level.schema|' "$T/level.yaml"
expect_err against_types 1 "the values are equal, the type description or header differs" \
    "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob"
# A broken blob fails verification first; a broken source fails its bake.
head -c 100 "$T/level.blob" >"$T/cut.blob"
expect_err against_bad_blob 1 "cut.blob" "$BLOBC" verify --against "$T/level.yaml" "$T/cut.blob"
printf 'index: [\n' >"$T/bad.yaml"
expect_err against_bad_source 1 "bad.yaml" "$BLOBC" verify -s "$T/level.schema" --against "$T/bad.yaml" "$T/level.blob"
expect_err against_one_blob 2 "--against compares one blob" "$BLOBC" verify --against "$T/level.yaml" "$T/level.blob" "$T/level.blob"
