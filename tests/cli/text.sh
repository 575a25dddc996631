# Localized text: fields declared `text` hold keys of a string table
# (--strings, a CSV or TSV file exported by LibreOffice), and --lang bakes
# each as one language's text: the same bytes as the data written by hand
# in that language, from YAML, JSON and a CSV table; the first language
# where a cell is empty, each such text listed as a warning; keys the
# table lacks and texts too long for their @len as errors (golden
# stderr); the table's own mistakes located in it; the table and the
# language in the cache key and the depfile.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/text

# Run from the data's folder, so messages name files as the goldens do.
in_data() { (cd "$D" && "$@"); }

for lang in fr de; do
    expect "by_hand_$lang" 0 in_data "$BLOBC" bake "$lang.yaml" -s shop.schema -o "$T/$lang.hand.blob"
    for strings in strings.csv strings.tsv; do
        expect "yaml_${lang}_$strings" 0 in_data "$BLOBC" bake shop.yaml -s shop.schema \
            --strings "$strings" --lang "$lang" -o "$T/$lang.blob"
        same_file "yaml_${lang}_${strings}_bytes" "$T/$lang.blob" "$T/$lang.hand.blob"
    done
    expect "csv_table_$lang" 0 in_data "$BLOBC" bake items.csv -s shop.schema --strings strings.csv \
        --lang "$lang" -o "$T/$lang.csv.blob"
    same_file "csv_table_${lang}_bytes" "$T/$lang.csv.blob" "$T/$lang.hand.blob"
done
expect json_fr 0 in_data "$BLOBC" bake shop.json -s shop.schema --strings strings.csv --lang fr -o "$T/fr.json.blob"
same_file json_fr_bytes "$T/fr.json.blob" "$T/fr.hand.blob"

# Every empty cell the language leaves is a warning at the text's place,
# and the first language's text is baked.
run in_data "$BLOBC" bake shop.yaml -s shop.schema --strings strings.csv --lang de -o "$T/de.blob"
rc_is missing_exit_0 0 && same_file missing_listed "$T/err" "$D/de.warnings.expect"

# Without --lang the keys are baked as written, each checked to be there.
expect keys_plain 0 in_data "$BLOBC" bake shop.yaml -s shop.schema -o "$T/keys.blob"
expect keys_checked 0 in_data "$BLOBC" bake shop.yaml -s shop.schema --strings strings.csv -o "$T/keys2.blob"
same_file keys_checked_bytes "$T/keys2.blob" "$T/keys.blob"
"$BLOBC" dump "$T/keys.blob" | grep -q '^    name: "item.sword"$' && pass keys_kept || fail keys_kept "$("$BLOBC" dump "$T/keys.blob" | head -20)"

# Keys the table lacks (with a did-you-mean), and a translation longer
# than its field's @len, in one run.
run in_data "$BLOBC" bake bad.yaml -s shop.schema --strings strings.csv --lang fr -o "$T/bad.blob"
rc_is bad_exit_1 1 && same_file bad_golden "$T/err" "$D/bad.yaml.expect"
absent bad_no_output "$T/bad.blob"
expect_err bad_keys_only 1 'bad.yaml:2:8: title: error: text key "shop.titel" is not in strings.csv; did you mean "shop.title"?' \
    in_data "$BLOBC" bake bad.yaml -s shop.schema --strings strings.csv -o "$T/bad.blob"

# An optional text, and items left out by their tags, with the rest.
printf 'greeting: line.two\nitems:\n  - {id: a, name: item.sword}\n  - {id: b, name: item.debug, $tags: dev}\n' >"$T/opt.yaml"
expect optional_text 0 "$BLOBC" bake "$T/opt.yaml" -s "$D/shop.schema" --strings "$D/strings.csv" --lang fr \
    --exclude-tags dev -o "$T/opt.blob"
"$BLOBC" dump "$T/opt.blob" >"$T/opt.dump"
grep -q '^greeting: "Deux\\nlignes"$' "$T/opt.dump" && grep -q '^title: "La Boutique"$' "$T/opt.dump" &&
    ! grep -q 'Objet de test' "$T/opt.dump" && pass optional_text_values || fail optional_text_values "$(cat "$T/opt.dump")"

# The table's own mistakes, located in it; a wrong --lang.
printf 'key,en,fr\na,A,\nb,B,BB\na,AA,\n' >"$T/dup.csv"
expect_stderr table_duplicate_key 1 "$T/dup.csv:4:1: error: key \"a\" is given twice (first at $T/dup.csv:2:1)
    a,AA,
    ^" "$BLOBC" bake "$D/shop.yaml" -s "$D/shop.schema" --strings "$T/dup.csv" --lang en -o "$T/x.blob"
printf 'key,en\n,A\n' >"$T/nokey.csv"
expect_err table_empty_key 1 "$T/nokey.csv:2:1: error: a row without a key (the first cell)" \
    "$BLOBC" bake "$D/shop.yaml" -s "$D/shop.schema" --strings "$T/nokey.csv" -o "$T/x.blob"
printf 'key,en\n"a,A\n' >"$T/open.csv"
expect_err table_syntax 1 "$T/open.csv:2:1: error: invalid CSV: a quoted cell is not closed" \
    "$BLOBC" bake "$D/shop.yaml" -s "$D/shop.schema" --strings "$T/open.csv" -o "$T/x.blob"
printf '\n' >"$T/empty.csv"
expect_err table_no_header 1 "error: no header row (the first row names the key column, then one column per language)" \
    "$BLOBC" bake "$D/shop.yaml" -s "$D/shop.schema" --strings "$T/empty.csv" -o "$T/x.blob"
expect_err table_unknown_lang 1 'strings.csv:1:1: error: --lang es: the table has no column "es" (its languages: en, fr, de)' \
    in_data "$BLOBC" bake shop.yaml -s shop.schema --strings strings.csv --lang es -o "$T/x.blob"
expect_err table_missing 2 "cannot open '$T/none.csv'" \
    "$BLOBC" bake "$D/shop.yaml" -s "$D/shop.schema" --strings "$T/none.csv" -o "$T/x.blob"
expect_err lang_needs_strings 2 "--lang fr needs --strings FILE, the table its texts come from" \
    in_data "$BLOBC" bake shop.yaml -s shop.schema --lang fr -o "$T/x.blob"
expect_err strings_need_text 1 "--strings $D/strings.csv: schema level.schema has no text field for its keys" \
    sh -c "cd '$TOP/tests/data/tags' && '$BLOBC' bake full.yaml -s level.schema --strings '$D/strings.csv' -o '$T/x.blob'"
absent table_errors_no_output "$T/x.blob"

# The table and the language are in the cache key: a changed translation
# is baked again, never served stale; and the table is in the depfile.
cp "$D/shop.yaml" "$D/shop.schema" "$D/strings.csv" "$T/"
expect cache_fr 0 "$BLOBC" bake --cache "$T/cache" "$T/shop.yaml" -s "$T/shop.schema" --strings "$T/strings.csv" --lang fr -o "$T/c1.blob"
expect cache_de 0 "$BLOBC" bake -v --cache "$T/cache" "$T/shop.yaml" -s "$T/shop.schema" --strings "$T/strings.csv" --lang de -o "$T/c2.blob"
grep -q cached "$T/out" "$T/err" && fail cache_lang_in_key "$(cat "$T/out")" || pass cache_lang_in_key
sed -i 's/La Boutique/Le Magasin/' "$T/strings.csv"
expect cache_changed_table 0 "$BLOBC" bake -v --cache "$T/cache" "$T/shop.yaml" -s "$T/shop.schema" --strings "$T/strings.csv" --lang fr -o "$T/c3.blob"
grep -q cached "$T/out" "$T/err" && fail cache_table_in_key "$(cat "$T/out")" || pass cache_table_in_key
"$BLOBC" dump "$T/c3.blob" | grep -q '^title: "Le Magasin"$' && pass cache_new_text || fail cache_new_text "$("$BLOBC" dump "$T/c3.blob" | head -3)"
expect depfile_bake 0 sh -c "cd '$T' && '$BLOBC' bake shop.yaml -s shop.schema --strings strings.csv --lang fr -o d.blob --depfile d.d"
printf 'd.blob: shop.yaml strings.csv \\\n  shop.schema\n\nshop.schema:\n' >"$T/d.want"
same_file depfile_lists_table "$T/d.d" "$T/d.want"

# check shows text as written.
in_data "$BLOBC" check shop.schema >"$T/report" 2>&1
grep -q ' name: text$' "$T/report" && grep -q ' hint: text = "hint.none"  @len(, 24)$' "$T/report" &&
    grep -q ' lines: \[text\]$' "$T/report" && grep -q ' greeting: ?text$' "$T/report" &&
    pass check_shows_text || fail check_shows_text "$(cat "$T/report")"
