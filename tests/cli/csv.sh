# Spreadsheets in: CSV and TSV bakes. The same items from a hand-written
# CSV, from YAML, with the columns shuffled, with CRLF line ends, from
# LibreOffice's CSV and TSV exports and from a file in Excel's "CSV UTF-8"
# convention all bake to the same bytes (nested fields, fixed arrays by
# index, lists split by a header's separator and by @sep, enums,
# references by key, maps, optionals, defaults for empty cells, multi-line
# and non-ASCII cells, a $tags column, value checks); the one-[T] root and --table; --input for other
# names and standard input; the cache key and the depfile; and each error,
# located at the cell and naming its column, against golden stderr.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/csv
cp "$D"/*.csv "$D"/*.tsv "$D"/*.yaml "$D"/game.schema "$T/"
cd "$T" || exit 1

# --- one table, every form of cell ---
expect bake_csv 0 "$BLOBC" bake items.csv -s game.schema -t Shop -o csv.blob
expect bake_yaml 0 "$BLOBC" bake items.yaml -s game.schema -t Shop -o yaml.blob
same_file csv_same_bytes_as_yaml csv.blob yaml.blob
expect dump_csv 0 "$BLOBC" dump csv.blob
same_file dump_golden "$T/out" "$D/items.dump.expect"
expect verify_csv 0 "$BLOBC" verify csv.blob

expect bake_shuffled 0 "$BLOBC" bake items_shuffled.csv -s game.schema -t Shop -o shuffled.blob
same_file columns_in_any_order shuffled.blob csv.blob
# every line end CRLF, the one inside the quoted cell too (stored as LF)
sed 's/$/\r/' items.csv >crlf.csv
expect bake_crlf 0 "$BLOBC" bake crlf.csv -s game.schema -t Shop -o crlf.blob
same_file crlf_same_bytes crlf.blob csv.blob
for f in libreoffice.csv libreoffice_minimal.csv libreoffice.tsv excel.csv; do
    expect "bake_$f" 0 "$BLOBC" bake "$f" -s game.schema -t Shop -o "$f.blob"
    same_file "${f}_same_bytes" "$f.blob" csv.blob
done
# the $tags| column: the rows tagged dev, then also test, left out as the
# YAML items with the same $tags are
for x in dev dev,test; do
    expect "bake_yaml_excluding_$x" 0 "$BLOBC" bake items.yaml -s game.schema -t Shop --exclude-tags "$x" -o "y_$x.blob"
    for f in items.csv items_shuffled.csv libreoffice.csv libreoffice.tsv excel.csv; do
        expect "bake_${f}_excluding_$x" 0 "$BLOBC" bake "$f" -s game.schema -t Shop --exclude-tags "$x" -o "${f}_$x.blob"
        same_file "${f}_excluding_${x}_same_bytes" "${f}_$x.blob" "y_$x.blob"
    done
done
# the schema's value checks on a row of LibreOffice's export
sed 's/^3,"Sword","weapon",10,/3,"Sword","weapon",500,/' libreoffice.csv >lo_range.csv
expect_err libreoffice_range 1 'lo_range.csv:2:20: column "stats.hp": error: 500 is out of @range(-100, 100)' \
    "$BLOBC" bake lo_range.csv -s game.schema -t Shop -o lo_range.blob
n=$("$BLOBC" dump y_dev,test.blob | grep -c '^  - id: ')
[ "$n" -eq 2 ] && pass excluding_rows_left || fail excluding_rows_left "$n items"
cmp -s y_dev.blob csv.blob && fail excluding_changes_bytes "same as without" || pass excluding_changes_bytes
# no trailing line end, and blank lines between rows
awk 'NR == 2 { print "" } { print } END { print "" }' items.csv | head -c -1 >blank.csv
expect bake_blank_lines 0 "$BLOBC" bake blank.csv -s game.schema -t Shop -o blank.blob
same_file blank_lines_skipped blank.blob csv.blob

# --- --input: any name, standard input ---
cp items.csv items.txt
expect input_csv 0 "$BLOBC" bake --input csv items.txt -s game.schema -t Shop -o txt.blob
same_file input_csv_same txt.blob csv.blob
cp libreoffice.tsv items.dat
expect input_tsv 0 "$BLOBC" bake --input tsv items.dat -s game.schema -t Shop -o dat.blob
same_file input_tsv_same dat.blob csv.blob
run sh -c '"$0" bake --input csv - -s game.schema -t Shop -o stdin.blob <items.csv' "$BLOBC"
rc_is input_stdin 0 && same_file input_stdin_same stdin.blob csv.blob
expect_err input_unknown 2 "unknown input format 'xls' (expected yaml, json, csv or tsv)" \
    "$BLOBC" bake --input xls items.csv -s game.schema -o x.blob

# --- which list the rows fill ---
run "$BLOBC" bake items.csv -s game.schema -o x.blob
rc_is two_lists_exit_1 1 && same_file two_lists_stderr "$T/err" "$D/two_lists.expect"
absent two_lists_no_output x.blob
expect table_items 0 "$BLOBC" bake items.csv -s game.schema --table items -o game.blob
expect bake_yaml_game 0 "$BLOBC" bake items.yaml -s game.schema -o game_yaml.blob
same_file table_other_fields_default game.blob game_yaml.blob
run "$BLOBC" bake items.csv -s game.schema --table itms -o x.blob
rc_is table_typo_exit_1 1 && same_file table_typo_stderr "$T/err" "$D/table_typo.expect"
run "$BLOBC" bake items.csv -s game.schema --table version -o x.blob
rc_is table_not_list_exit_1 1 && same_file table_not_list_stderr "$T/err" "$D/table_not_list.expect"

# --- several tables of one root: --table FIELD=FILE ---
expect tables_bake 0 "$BLOBC" bake --table items=items.csv --table loot=loot.csv -s game.schema -o tables.blob
expect tables_yaml 0 "$BLOBC" bake game.yaml -s game.schema -o tables_yaml.blob
same_file tables_same_bytes_as_yaml tables.blob tables_yaml.blob
expect tables_other_order 0 "$BLOBC" bake --table loot=loot.csv --table items=items.csv -s game.schema -o tables2.blob
same_file tables_order_free tables2.blob tables.blob
expect tables_depfile 0 "$BLOBC" bake --table items=items.csv --table loot=loot.csv -s game.schema \
    -o tables.blob --depfile tables.d
depfile_checks tables.d tables.blob items.csv loot.csv game.schema
expect tables_cache_miss 0 "$BLOBC" bake -v --cache tcache --table items=items.csv --table loot=loot.csv \
    -s game.schema -o t1.blob
expect tables_cache_hit 0 "$BLOBC" bake -v --cache tcache --table items=items.csv --table loot=loot.csv \
    -s game.schema -o t2.blob
grep -q "cached t2.blob" "$T/err" && pass tables_cache_hit_cached || fail tables_cache_hit_cached "$(cat "$T/err")"
# every table's bytes are in the key, not only the first's
sed 's/Goblin drop,0.5/Goblin drop,0.25/' loot.csv >loot.tmp && mv loot.tmp loot.csv
expect tables_cache_edit 0 "$BLOBC" bake -v --cache tcache --table items=items.csv --table loot=loot.csv \
    -s game.schema -o t3.blob
grep -q "baked t3.blob" "$T/err" && pass tables_second_table_in_key || fail tables_second_table_in_key "$(cat "$T/err")"
"$BLOBC" dump t3.blob | grep -q 'chance: 0.25' && pass tables_edit_baked || fail tables_edit_baked "$(cat "$T/err")"
# an error in a later table names its file; a reference across tables is
# checked when the last one ends
printf 'name,chance,item\nX,0.5,99\n' >badloot.csv
run "$BLOBC" bake --table items=items.csv --table loot=badloot.csv -s game.schema -o bad.blob
rc_is tables_bad_ref_exit_1 1 && same_file tables_bad_ref_stderr "$T/err" "$D/tables_bad_ref.expect"
expect_err tables_missing_file 2 "cannot open 'nope.csv'" \
    "$BLOBC" bake --table items=items.csv --table loot=nope.csv -s game.schema -o bad.blob
expect_err tables_one_list_twice 1 "two tables fill the list items of struct Game" \
    "$BLOBC" bake --table items=items.csv --table items=loot.csv -s game.schema -o bad.blob
expect_err tables_and_input 2 "with --table FIELD=FILE the tables are the input: no INPUT too" \
    "$BLOBC" bake items.csv --table items=items.csv -s game.schema -o bad.blob
expect_err tables_mixed 2 "--table FIELD and --table FIELD=FILE do not go together" \
    "$BLOBC" bake --table items --table loot=loot.csv -s game.schema -o bad.blob
absent tables_failed_no_output bad.blob

# --- the cache and the depfile: a table is an input like any other ---
expect cache_miss 0 "$BLOBC" bake -v --cache cache items.csv -s game.schema -t Shop -o c1.blob
expect cache_hit 0 "$BLOBC" bake -v --cache cache items.csv -s game.schema -t Shop -o c2.blob
grep -q "cached c2.blob" "$T/err" && pass cache_hit_cached || fail cache_hit_cached "$(cat "$T/err")"
same_file cache_hit_same c2.blob csv.blob
# --table is in the key: the same bytes for another list are no hit
expect cache_table_key 0 "$BLOBC" bake -v --cache cache items.csv -s game.schema --table items -o c3.blob
grep -q "baked c3.blob" "$T/err" && pass cache_table_not_hit || fail cache_table_not_hit "$(cat "$T/err")"
same_file cache_table_bytes c3.blob game.blob
# so is @sep, which the blob's schema does not keep
sed 's/@sep(";")/@sep("+")/' game.schema >plus.schema
expect_err cache_sep_key 1 'column "flags": error' \
    "$BLOBC" bake --cache cache items.csv -s plus.schema -t Shop -o c4.blob
expect depfile 0 "$BLOBC" bake items.csv -s game.schema -t Shop -o d.blob --depfile d.d
depfile_checks d.d d.blob items.csv game.schema

# --- errors: at the cell, naming the column ---
for name in bad_number bad_values unknown_column too_many_cells unterminated bad_utf8 \
    duplicate_column index_past stray_quote no_separator bad_pair missing_index after_quote; do
    run "$BLOBC" bake "$name.csv" -s game.schema -t Shop -o bad.blob
    rc_is "${name}_exit_1" 1 && pass "${name}_exit_1"
    same_file "${name}_stderr" "$T/err" "$D/$name.expect"
    absent "${name}_no_output" bad.blob
done
# one error per run when asked
run "$BLOBC" bake --max-errors 1 bad_number.csv -s game.schema -t Shop -o bad.blob
rc_is max_errors_exit_1 1 && [ "$(grep -c ': error:' "$T/err")" -eq 2 ] &&
    grep -q 'too many errors; stopping here: 2 more not shown' "$T/err" &&
    pass max_errors_one || fail max_errors_one "$(cat "$T/err")"
# the same error from TSV says TSV
printf 'id\tname\tstats.hp\tpos.0\tpos.1\tpos.2\n1\t"a\n' >open.tsv
expect_err tsv_unterminated 1 'open.tsv:2:3: error: invalid TSV: a quoted cell is not closed' \
    "$BLOBC" bake open.tsv -s game.schema -t Shop -o bad.blob
: >empty.csv
expect_err empty_file 1 'empty.csv:1:1: error: no header row' \
    "$BLOBC" bake empty.csv -s game.schema -t Shop -o bad.blob

# --- @sep in the schema ---
printf 'struct A { @sep("ab") x: [u8]; }\nroot A;\n' >sep2.schema
expect_err sep_one_char 1 "@sep takes one punctuation character in quotes" "$BLOBC" check sep2.schema
printf 'struct A { @sep("|") @sep(";") x: [u8]; }\nroot A;\n' >sep3.schema
expect_err sep_twice 1 "@sep is given twice" "$BLOBC" check sep3.schema
printf 'struct A { x: [u8]; @sep("|") }\nroot A;\n' >sep4.schema
expect_err sep_last 1 "a field after @sep" "$BLOBC" check sep4.schema

# --- the sample bakes as its README says ---
expect sample_bakes 0 "$BLOBC" bake "$TOP/samples/spreadsheet/items.csv" \
    -s "$TOP/samples/spreadsheet/items.schema" -o sample.blob
expect sample_verifies 0 "$BLOBC" verify sample.blob
S=$TOP/samples/spreadsheet
expect sample_release_fr 0 "$BLOBC" bake "$S/items.csv" -s "$S/items.schema" --strings "$S/strings.csv" \
    --lang fr --exclude-tags test -o sample_fr.blob
"$BLOBC" dump sample_fr.blob >sample_fr.txt 2>&1
grep -q '^    name: "Potion de soin,\\ngrande"$' sample_fr.txt && ! grep -q 'item\.\|999' sample_fr.txt &&
    [ "$(grep -c '^  - id: ' sample_fr.txt)" -eq 5 ] && pass sample_release_fr_values ||
    fail sample_release_fr_values "$(head -c 600 sample_fr.txt)"
