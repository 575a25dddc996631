# Tagged items ($tags on an item of a list whose struct declares @tags)
# and bake --exclude-tags: an excluded item leaves the blob as if it had
# never been written (the same bytes as the data without it, from YAML,
# JSON and CSV), wrong tags are errors at their place in every bake
# (golden stderr), the excluded tags are part of the cache key, and gen
# jsonschema lets an editor check $tags.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/tags

# Run from the data's folder, so messages name files as the goldens do.
in_data() { (cd "$D" && "$@"); }

# bake_same NAME ARGS... : bakes with ARGS into $T/NAME.blob.
bake_same() {
    name=$1
    shift
    expect "$name" 0 in_data "$BLOBC" bake "$@" -o "$T/$name.blob"
}

# The same data by hand without the excluded items gives the same bytes.
bake_same release_yaml full.yaml -s level.schema --exclude-tags dev
bake_same release_json full.json -s level.schema --exclude-tags dev
bake_same release_by_hand release.yaml -s level.schema
same_file release_yaml_bytes "$T/release_yaml.blob" "$T/release_by_hand.blob"
same_file release_json_bytes "$T/release_json.blob" "$T/release_by_hand.blob"
bake_same two_tags full.yaml -s level.schema --exclude-tags dev,test
bake_same two_tags_by_hand nodevtest.yaml -s level.schema
same_file two_tags_bytes "$T/two_tags.blob" "$T/two_tags_by_hand.blob"
# Without --exclude-tags every item is in, as if $tags were not written.
bake_same all_yaml full.yaml -s level.schema
bake_same all_by_hand notags.yaml -s level.schema
same_file all_yaml_bytes "$T/all_yaml.blob" "$T/all_by_hand.blob"
python3 -c '
import json, sys
def strip(v):
    if isinstance(v, dict): return {k: strip(x) for k, x in v.items() if k != "$tags"}
    if isinstance(v, list): return [strip(x) for x in v]
    return v
json.dump(strip(json.load(open(sys.argv[1]))), open(sys.argv[2], "w"))' "$D/full.json" "$T/notags.json"
bake_same all_json full.json -s level.schema
expect all_json_by_hand 0 in_data "$BLOBC" bake "$T/notags.json" -s level.schema -o "$T/notags.blob"
same_file all_json_bytes "$T/all_json.blob" "$T/notags.blob"
"$BLOBC" dump "$T/release_yaml.blob" >"$T/dump" 2>&1
grep -q 'debug_sword\|god_key' "$T/dump" && fail release_values "$(head -c 400 "$T/dump")" ||
    { grep -q '"test_potion"' "$T/dump" && pass release_values || fail release_values "$(head -c 400 "$T/dump")"; }

# A spreadsheet's $tags column ("$tags|": several tags split by '|'):
# the same bytes as the same items in YAML, for every exclusion.
for x in none dev dev,test cheat; do
    a=""; [ "$x" = none ] || a="--exclude-tags $x"
    bake_same "shop_yaml_$x" shop.yaml -s shop.schema $a
    bake_same "shop_csv_$x" items.csv -s shop.schema $a
    same_file "shop_csv_bytes_$x" "$T/shop_csv_$x.blob" "$T/shop_yaml_$x.blob"
done
n=$(in_data "$BLOBC" dump "$T/shop_csv_dev,test.blob" | grep -c '  - id: ')
[ "$n" -eq 2 ] && pass shop_csv_rows_left || fail shop_csv_rows_left "$n items"

# Wrong tags: every one reported at its place, in every bake.
for f in bad.yaml bad.json; do
    run in_data "$BLOBC" bake "$f" -s level.schema -o "$T/bad.blob"
    rc_is "${f%.*}_${f#*.}_exit" 1 && same_file "${f%.*}_${f#*.}_golden" "$T/err" "$D/$f.expect"
    absent "${f%.*}_${f#*.}_no_output" "$T/bad.blob"
done
run in_data "$BLOBC" bake bad.csv -s shop.schema -o "$T/bad.blob"
rc_is bad_csv_exit 1 && same_file bad_csv_golden "$T/err" "$D/bad.csv.expect"
run in_data "$BLOBC" bake bad.yaml -s level.schema --exclude-tags dev -o "$T/bad.blob"
rc_is bad_yaml_excluding_exit 1 && same_file bad_yaml_excluding_golden "$T/err" "$D/bad.yaml.expect"
expect_err csv_untagged_struct 1 'untagged.csv:1:6: column "$tags": error: struct Room declares no @tags, so its rows take no $tags column' \
    in_data "$BLOBC" bake untagged.csv -s rooms.schema -o "$T/x.blob"
expect_err csv_two_tag_columns 1 'twice.csv:1:10: column "$tags|": error: a second $tags column ("$tags" at 1:4 is one)' \
    in_data "$BLOBC" bake twice.csv -s shop.schema -o "$T/x.blob"

# The excluded tags must be ones the schema declares (a typo would
# exclude nothing), and be names.
expect_stderr exclude_unknown_tag 1 'full.yaml: error: --exclude-tags "dve": no struct of schema level.schema declares that tag in its @tags; did you mean "dev"?' \
    in_data "$BLOBC" bake full.yaml -s level.schema --exclude-tags dev,dve -o "$T/x.blob"
expect_err exclude_not_a_name 2 "--exclude-tags 'dev,,test': expected tag names separated by commas" \
    in_data "$BLOBC" bake full.yaml -s level.schema --exclude-tags dev,,test -o "$T/x.blob"
absent exclude_errors_no_output "$T/x.blob"

# A reference to an excluded item finds no item: said, with its key.
printf 'items:\n  - id: a\n  - id: dbg\n    $tags: dev\nrooms:\n  - name: r\n    spawns: [{item: a, at: [0, 0]}]\nstarter: dbg\n' >"$T/ref.yaml"
expect_err ref_to_excluded 1 'starter: error: ' \
    "$BLOBC" bake "$T/ref.yaml" -s "$D/level.schema" --exclude-tags dev -o "$T/ref.blob"
grep -qF '"dbg"' "$T/err" && pass ref_to_excluded_names_key || fail ref_to_excluded_names_key "$(cat "$T/err")"
expect ref_kept_without_exclusion 0 "$BLOBC" bake "$T/ref.yaml" -s "$D/level.schema" -o "$T/ref.blob"

# Hostile tags: too many, nested, huge: an error, never a crash.
python3 -c 'print("items:\n  - id: a\n    $tags: [" + ", ".join(["dev"] * 65) + "]\nrooms: [{name: r, spawns: [{item: a, at: [0, 0]}]}]")' >"$T/many.yaml"
expect_err too_many_tags 1 'items[0].$tags: error: $tags holds more than 64 tags' \
    "$BLOBC" bake "$T/many.yaml" -s "$D/level.schema" -o "$T/x.blob"
python3 -c 'print("{\"items\": [{\"id\": \"a\", \"$tags\": " + "[" * 500 + "]" * 500 + "}], \"rooms\": [{\"name\": \"r\", \"spawns\": []}]}")' >"$T/deep.json"
expect_err nested_tags 1 '/items/0/$tags: error: $tags takes a tag name or a list of them' \
    "$BLOBC" bake "$T/deep.json" -s "$D/level.schema" -o "$T/x.blob"

# The excluded tags are in the cache key: the release bake is not the
# entry the full one stored.
expect cache_full 0 in_data "$BLOBC" bake --cache "$T/cache" full.yaml -s level.schema -o "$T/c1.blob"
expect cache_release 0 in_data "$BLOBC" bake -v --cache "$T/cache" full.yaml -s level.schema --exclude-tags dev -o "$T/c2.blob"
grep -q cached "$T/out" "$T/err" && fail cache_release_not_cached "$(cat "$T/out" "$T/err")" || pass cache_release_not_cached
same_file cache_release_bytes "$T/c2.blob" "$T/release_by_hand.blob"
expect cache_release_again 0 in_data "$BLOBC" bake -v --cache "$T/cache" full.yaml -s level.schema --exclude-tags dev -o "$T/c3.blob"
grep -q cached "$T/out" "$T/err" && pass cache_release_cached || fail cache_release_cached "$(cat "$T/out" "$T/err")"
same_file cache_release_cached_bytes "$T/c3.blob" "$T/release_by_hand.blob"
# ... and so are the @tags the schema declares: a tag taken out of them
# makes the same data an error, not a stale success.
sed 's/@tags(dev, test, cheat)/@tags(dev, cheat)/' "$D/level.schema" >"$T/level.schema"
cp "$D/full.yaml" "$T/full.yaml"
expect cache_vocab_first 0 "$BLOBC" bake --cache "$T/cache" "$D/full.yaml" -s "$D/level.schema" -o "$T/v1.blob"
expect_err cache_vocab_changed 1 'unknown tag "test" of struct Item' \
    "$BLOBC" bake --cache "$T/cache" "$T/full.yaml" -s "$T/level.schema" -o "$T/v2.blob"

# A batch takes --exclude-tags for every input.
mkdir -p "$T/batch"
cp "$D/full.json" "$T/other.json"
expect batch_release 0 in_data "$BLOBC" bake -q full.yaml "$T/other.json" -s level.schema --exclude-tags dev -o "$T/batch/"
same_file batch_yaml_bytes "$T/batch/full.blob" "$T/release_by_hand.blob"
same_file batch_json_bytes "$T/batch/other.blob" "$T/release_by_hand.blob"

# check lists the tags with the struct.
in_data "$BLOBC" check level.schema >"$T/report" 2>&1
grep -qx '@tags(dev, test, cheat) struct Item  (size 16, align 4)' "$T/report" &&
    grep -qx '@tags(dev) struct Spawn  (size 12, align 4)' "$T/report" &&
    pass check_lists_tags || fail check_lists_tags "$(grep struct "$T/report")"

# gen jsonschema: $tags takes a declared tag or a list of them; a real
# validator and the bake agree on each edit.
"$BLOBC" gen jsonschema "$D/level.schema" -o "$T/level.json"
if ! command -v python3 >/dev/null 2>&1; then
    skip jsonschema_tags "python3 is not installed (make deps installs it)"
elif js_validator jsonschema_tags "$T/level.json" "$D/full.json"; then
    J="$T/level.json" S="$D/level.schema" F="$D/full.json"
    js_agree js_tags_full 0 valid "$J" "$S" "$F"
    js_agree js_tags_one 0 valid "$J" "$S" "$F" set 'items.1.$tags' '"cheat"'
    js_agree js_tags_unknown 1 invalid "$J" "$S" "$F" set 'items.1.$tags' '["dve"]'
    js_agree js_tags_not_a_name 1 invalid "$J" "$S" "$F" set 'items.1.$tags' '{"dev": 1}'
    js_flush
fi
