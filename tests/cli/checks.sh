# Value checks in the schema (@range, @len, @match, @path, @unique): the
# check report lists them, good data bakes to the same bytes from YAML and
# JSON, bad data fails with every failing value located (golden stderr),
# bad checks are schema errors (tests/bad/schema/check_*), @path follows
# --assets and keeps its bakes out of the cache, and a changed check is a
# changed cache key.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/checks

# Run from the data's folder, so messages name files as the goldens do.
in_data() { (cd "$D" && "$@"); }

RC=0
in_data "$BLOBC" check items.schema >"$T/out" 2>"$T/err" || RC=$?
rc_is report_exit 0 && same_file report_golden "$T/out" "$D/report.expect"

expect good_yaml 0 in_data "$BLOBC" bake good.yaml -s items.schema --assets assets -o "$T/y.blob"
expect good_json 0 in_data "$BLOBC" bake good.json -s items.schema --assets assets -o "$T/j.blob"
same_file good_same_bytes "$T/y.blob" "$T/j.blob"
expect good_csv 0 in_data "$BLOBC" bake good.csv -s items.schema --assets assets -o "$T/c.blob"
same_file good_csv_same_bytes "$T/c.blob" "$T/y.blob"
"$BLOBC" dump "$T/y.blob" >"$T/dump" 2>&1
grep -q '^    drop: 0.5$' "$T/dump" && grep -q '^    rarities: \[common, rare\]$' "$T/dump" &&
    pass good_values || fail good_values "$(head -c 400 "$T/dump")"

for f in bad.yaml bad.json bad.csv; do
    run in_data "$BLOBC" bake "$f" -s items.schema --assets assets -o "$T/bad.blob"
    rc_is "${f%.*}_${f#*.}_exit" 1 && same_file "${f%.*}_${f#*.}_golden" "$T/err" "$D/$f.expect"
    absent "${f%.*}_${f#*.}_no_output" "$T/bad.blob"
done
n=$(grep -c ': error: ' "$D/bad.yaml.expect")
[ "$n" -eq 15 ] && pass bad_yaml_every_failure || fail bad_yaml_every_failure "$n errors"

# Without --assets, @path looks under the current directory.
expect path_from_cwd 0 sh -c "cd '$D/assets' && '$BLOBC' bake ../good.yaml -s ../items.schema -o '$T/c.blob'"
expect_err path_root_named 1 '"sword.png" names no file: ./icons/sword.png is not there (@path("icons/", ".png"); --assets DIR sets the root)' \
    in_data "$BLOBC" bake good.yaml -s items.schema -o "$T/n.blob"
expect_err assets_not_dir 2 "--assets 'items.schema' is not a directory" \
    in_data "$BLOBC" bake good.yaml -s items.schema --assets items.schema -o "$T/n.blob"

# A bake with @path checks is never taken from the cache: the files it
# checks are not in the key. Removing the file makes the same bake fail.
mkdir -p "$T/assets/icons/weapons"
cp "$D/assets/icons/sword.png" "$T/assets/icons/"
cp "$D/assets/icons/weapons/axe.png" "$T/assets/icons/weapons/"
for i in 1 2; do
    expect "path_cache_bake_$i" 0 in_data "$BLOBC" bake -v --cache "$T/cache" good.yaml -s items.schema \
        --assets "$T/assets" -o "$T/p$i.blob"
done
grep -q cached "$T/out" "$T/err" && fail path_cache_not_used "$(cat "$T/out" "$T/err")" || pass path_cache_not_used
rm "$T/assets/icons/weapons/axe.png"
expect_err path_cache_file_gone 1 'weapons/axe.png is not there' \
    in_data "$BLOBC" bake --cache "$T/cache" good.yaml -s items.schema --assets "$T/assets" -o "$T/p3.blob"

# The checks are part of the cache key: data a tighter @range refuses is
# not answered from the entry the looser one stored.
printf 'struct A { @range(0, 10) x: i32; }\nroot A;\n' >"$T/a.schema"
printf 'x: 7\n' >"$T/a.yaml"
expect key_loose 0 "$BLOBC" bake --cache "$T/cache2" "$T/a.yaml" -s "$T/a.schema" -o "$T/a1.blob"
expect key_loose_again 0 "$BLOBC" bake -v --cache "$T/cache2" "$T/a.yaml" -s "$T/a.schema" -o "$T/a2.blob"
grep -q cached "$T/out" "$T/err" && pass key_loose_cached || fail key_loose_cached "$(cat "$T/out" "$T/err")"
printf 'struct A { @range(0, 5) x: i32; }\nroot A;\n' >"$T/a.schema"
expect_err key_tight_refused 1 '7 is out of @range(0, 5)' \
    "$BLOBC" bake --cache "$T/cache2" "$T/a.yaml" -s "$T/a.schema" -o "$T/a3.blob"

# A pattern that takes a backtracking matcher exponential time, on a long
# string: answered (the matcher is linear), and the value refused.
printf 'struct S { @match("^(a|a)*(a|aa)*(a*)*b$") s: string; }\nroot S;\n' >"$T/re.schema"
python3 -c 'print("s: " + "a" * 30000)' >"$T/re.yaml"
expect_err hostile_pattern 1 'does not match @match("^(a|a)*(a|aa)*(a*)*b$")' \
    "$BLOBC" bake "$T/re.yaml" -s "$T/re.schema" -o "$T/re.blob"

# Several errors per run stop at --max-errors like any others.
run in_data "$BLOBC" bake bad.yaml -s items.schema --assets assets --max-errors 2 -o "$T/m.blob"
rc_is max_errors_exit 1 && { n=$(grep -c ':[0-9]*: .*: error: ' "$T/err"); [ "$n" -eq 2 ] &&
    grep -q '^bad.yaml: error: too many errors; stopping here: 13 more not shown' "$T/err" &&
    pass max_errors_two || fail max_errors_two "$n errors: $(head -c 300 "$T/err")"; }

# gen jsonschema says the checks as JSON Schema keywords, so an editor
# flags the values the bake refuses: a real validator (Draft 2020-12) and
# the bake agree on each edit (the bake run under assets/, @path's root).
"$BLOBC" gen jsonschema "$D/items.schema" -o "$T/items.json"
if ! command -v python3 >/dev/null 2>&1; then
    skip jsonschema_checks "python3 is not installed (make deps installs it)"
elif js_validator jsonschema_checks "$T/items.json" "$D/good.json"; then
    J="$T/items.json" S="$D/items.schema" G="$D/good.json"
    js_agree js_checks_good 0 valid "$J" "$S" "$G"
    js_agree js_checks_range 1 "1.5 is greater than the maximum of 1" "$J" "$S" "$G" set items.0.drop 1.5
    js_agree js_checks_len 1 "is too long" "$J" "$S" "$G" set items.0.name '"xxxxxxxxxxxxxxxxx"'
    js_agree js_checks_match 1 "'Sword' does not match '^[a-z][a-z_]*$'" "$J" "$S" "$G" set items.0.name '"Sword"'
    js_agree js_checks_ending 1 "'sword.gif' does not match" "$J" "$S" "$G" set items.0.icon '"sword.gif"'
    js_agree js_checks_unique 1 "has non-unique elements" "$J" "$S" "$G" set items.0.tags '["a", "a"]'
    js_agree js_checks_each 1 "9 is greater than the maximum of 5" "$J" "$S" "$G" set items.0.bonus '[9, 0]'
    js_agree js_checks_map_len 1 "should be non-empty" "$J" "$S" "$G" set items.0.stats '{}'
    (cd "$D/assets" && js_flush)
fi

# The files @path found are in the depfile, with an empty rule each, so
# make bakes again when one changes and is not stopped when one is gone.
expect depfile_bake 0 in_data "$BLOBC" bake good.yaml -s items.schema --assets assets -o "$T/d.blob" \
    --depfile "$T/d.d"
printf '%s: good.yaml \\\n  items.schema \\\n  assets/icons/sword.png \\\n  assets/icons/weapons/axe.png\n\nitems.schema:\n\nassets/icons/sword.png:\n\nassets/icons/weapons/axe.png:\n' \
    "$T/d.blob" >"$T/d.want"
same_file depfile_assets "$T/d.d" "$T/d.want"
if command -v make >/dev/null; then
    mkdir -p "$T/mk/assets/icons/weapons"
    cp "$D/items.schema" "$D/good.yaml" "$T/mk/"
    cp "$D/assets/icons/sword.png" "$T/mk/assets/icons/"
    cp "$D/assets/icons/weapons/axe.png" "$T/mk/assets/icons/weapons/"
    printf 'out.blob:\n\t"%s" bake good.yaml -s items.schema --assets assets -o out.blob --depfile out.d\n-include out.d\n' \
        "$BLOBC" >"$T/mk/Makefile"
    make -s -C "$T/mk" >/dev/null 2>&1
    make -q -s -C "$T/mk" && pass depfile_make_up_to_date || fail depfile_make_up_to_date "make -q says out of date"
    sleep 1; touch "$T/mk/assets/icons/weapons/axe.png"
    make -q -s -C "$T/mk" && fail depfile_make_asset_changed "make -q says up to date" || pass depfile_make_asset_changed
else
    skip depfile_make "make is not installed"
fi
