# The command line itself: help, version, usage errors and exit codes,
# file handling (no partial output, inputs never overwritten), and the
# golden sample blobs checked byte for byte.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples
SCH=$TOP/schemas/level.schema

# --- help, version, usage ---
expect version 0 "$BLOBC" --version
grep -q '^blobc [0-9]*\.[0-9]*\.[0-9]* (blob format 1)$' "$T/out" && pass version_text ||
    fail version_text "got: $(cat "$T/out")"
expect help 0 "$BLOBC" --help
grep -q 'bake' "$T/out" && grep -q 'verify' "$T/out" && pass help_lists_commands ||
    fail help_lists_commands "$(cat "$T/out")"
for c in bake dump verify check gen; do
    expect "help_$c" 0 "$BLOBC" "$c" --help
    grep -q "^Usage: blobc $c" "$T/out" && pass "help_${c}_usage" || fail "help_${c}_usage" "$(head -1 "$T/out")"
done
expect_err no_command 2 "Usage: blobc" "$BLOBC"
expect_err unknown_command 2 "unknown command 'frobnicate'" "$BLOBC" frobnicate
expect_err unknown_option 2 "unknown option '--bogus'" "$BLOBC" bake --bogus x.yaml
# a mistyped option: the command's own, or every command's, suggested
expect_stderr option_did_you_mean 2 "blobc bake: unknown option '--exlcude-tags'; did you mean '--exclude-tags'?
Try 'blobc bake --help' for more information." "$BLOBC" bake --exlcude-tags dev x.yaml
expect_err option_did_you_mean_value 2 "unknown option '--prefx=a'; did you mean '--prefix'?" "$BLOBC" gen c --prefx=a x.schema
expect_err option_did_you_mean_common 2 "unknown option '--error-fromat'; did you mean '--error-format'?" "$BLOBC" check --error-fromat json x.schema
expect_stderr option_no_guess 2 "blobc dump: unknown option '--frobnicate'
Try 'blobc dump --help' for more information." "$BLOBC" dump --frobnicate x.blob
expect_err missing_value 2 "option '-s' needs a value" "$BLOBC" bake x.yaml -s
expect_err bad_format 2 "unknown format 'zip'" "$BLOBC" bake --format zip "$S/level.yaml"
expect_err bake_no_input 2 "no input file" "$BLOBC" bake
expect_err dump_no_blob 2 "no blob given" "$BLOBC" dump
expect_err verify_no_blob 2 "no blob given" "$BLOBC" verify
expect_err gen_unknown_lang 2 "unknown language 'rust'" "$BLOBC" gen rust "$SCH"
expect_err dump_json_map 2 "exclusive" "$BLOBC" dump --json --map x.blob

# --- missing files are I/O errors (exit 2) naming the file ---
expect_err bake_missing_input 2 "nope.yaml" "$BLOBC" bake "$T/nope.yaml" -o "$T/x.blob"
absent bake_missing_input_no_output "$T/x.blob"
expect_err check_missing_schema 2 "missing.schema" "$BLOBC" check "$T/missing.schema"
expect_err verify_missing_blob 2 "gone.blob" "$BLOBC" verify "$T/gone.blob"
expect_err dump_missing_blob 2 "gone.blob" "$BLOBC" dump "$T/gone.blob"

# --- the samples bake to the golden blobs, byte for byte ---
expect bake_yaml 0 "$BLOBC" bake "$S/level.yaml" -o "$T/level.blob"
same_file golden_level_yaml "$T/level.blob" "$S/level.blob"
expect bake_json 0 "$BLOBC" bake "$S/level.json" -o "$T/level-json.blob"
same_file golden_level_json "$T/level-json.blob" "$TOP/tests/data/golden/level-json.blob"
expect bake_twice 0 "$BLOBC" bake "$S/level.yaml" -o "$T/level2.blob"
same_file bake_deterministic "$T/level.blob" "$T/level2.blob"
expect bake_raw 0 "$BLOBC" bake --format raw "$S/level.yaml" -o "$T/level.bin"
same_file golden_level_raw "$T/level.bin" "$TOP/tests/data/golden/level.bin"
expect bake_strip 0 "$BLOBC" bake --strip "$S/level.yaml" -o "$T/level-strip.blob"
same_file golden_level_strip "$T/level-strip.blob" "$TOP/tests/data/golden/level-strip.blob"

# A big YAML input is parsed on a second thread unless --one-thread: the
# same bytes, and the same error, either way.
printf 'struct P { xs: [u32]; names: [string]; }\nroot P;\n' >"$T/big.schema"
awk 'BEGIN { print "xs:"; for (i = 0; i < 120000; i++) print "  - " i * 7; print "names:";
             for (i = 0; i < 40000; i++) print "  - name " i }' >"$T/big.yaml"
expect bake_big_threaded 0 "$BLOBC" bake -s "$T/big.schema" "$T/big.yaml" -o "$T/big1.blob"
expect bake_big_one_thread 0 "$BLOBC" bake --one-thread -s "$T/big.schema" "$T/big.yaml" -o "$T/big2.blob"
same_file bake_big_same_bytes "$T/big1.blob" "$T/big2.blob"
expect verify_big 0 "$BLOBC" verify "$T/big1.blob"
{ cat "$T/big.yaml"; echo "  - [late]"; } >"$T/bigbad.yaml"
expect_err bake_big_late_error 1 "bigbad.yaml:160003:5: names[40000]: error: expected a string, got a sequence" \
    "$BLOBC" bake -s "$T/big.schema" "$T/bigbad.yaml" -o "$T/bigbad.blob"
expect_err bake_big_late_error_one_thread 1 "bigbad.yaml:160003:5: names[40000]: error: expected a string, got a sequence" \
    "$BLOBC" bake --one-thread -s "$T/big.schema" "$T/bigbad.yaml" -o "$T/bigbad.blob"
absent bake_big_late_error_no_output "$T/bigbad.blob"

# Default output name: the input's extension replaced, next to the input.
# The copy keeps the sample's relative $schema, so the bytes are the golden ones.
mkdir -p "$T/proj/samples" "$T/proj/schemas"
cp "$SCH" "$T/proj/schemas/"
cp "$S/level.yaml" "$T/proj/samples/copy.yaml"
expect bake_default_name 0 "$BLOBC" bake "$T/proj/samples/copy.yaml"
same_file bake_default_name_bytes "$T/proj/samples/copy.blob" "$S/level.blob"
expect bake_default_raw_name 0 "$BLOBC" bake --format raw "$T/proj/samples/copy.yaml"
same_file bake_raw_ext "$T/proj/samples/copy.bin" "$TOP/tests/data/golden/level.bin"
cp "$S/level.yaml" "$T/copy.yaml"
sed -i "s|\\\$schema: ../schemas/level.schema|\$schema: $SCH|" "$T/copy.yaml"

# Several inputs into a directory.
mkdir -p "$T/outdir"
cp "$S/level.json" "$T/copy2.json"
sed -i "s|\"../schemas/level.schema\"|\"$SCH\"|" "$T/copy2.json"
expect bake_many 0 "$BLOBC" bake "$T/copy.yaml" "$T/copy2.json" -o "$T/outdir"
[ -f "$T/outdir/copy.blob" ] && [ -f "$T/outdir/copy2.blob" ] && pass bake_many_outputs ||
    fail bake_many_outputs "$(ls "$T/outdir")"
expect_err bake_many_not_dir 2 "-o '$T/copy.yaml' is not a directory" \
    "$BLOBC" bake "$T/copy.yaml" "$T/copy2.json" -o "$T/copy.yaml"

# Output to stdout.
"$BLOBC" bake "$S/level.yaml" -o - >"$T/stdout.blob" 2>"$T/err"
same_file bake_stdout "$T/stdout.blob" "$S/level.blob"

# --- an input is never overwritten ---
cp "$S/level.yaml" "$T/keep.yaml"
sed -i "s|\\\$schema: ../schemas/level.schema|\$schema: $SCH|" "$T/keep.yaml"
cp "$T/keep.yaml" "$T/keep.orig"
expect_err refuse_overwrite_input 2 "refusing to overwrite input file" "$BLOBC" bake "$T/keep.yaml" -o "$T/keep.yaml"
same_file input_untouched "$T/keep.yaml" "$T/keep.orig"
cp "$SCH" "$T/keep.schema"
cp "$SCH" "$T/keep.schema.orig"
expect_err refuse_overwrite_schema 2 "refusing to overwrite input file" "$BLOBC" bake -s "$T/keep.schema" "$T/keep.yaml" -o "$T/keep.schema"
same_file schema_untouched "$T/keep.schema" "$T/keep.schema.orig"
sed "s|\\\$schema: .*|\$schema: keep.schema|" "$T/keep.yaml" >"$T/keep2.yaml"
expect_err refuse_overwrite_data_schema 2 "refusing to overwrite input file" "$BLOBC" bake "$T/keep2.yaml" -o "$T/keep.schema"
same_file data_schema_untouched "$T/keep.schema" "$T/keep.schema.orig"

# --- a failed bake leaves no file and keeps an existing output intact ---
printf '$schema: %s\nindex: 1\nname: x\nsize_m: 1.0\nseed: 1.5\norigin: {position: {x: 0, y: 0, z: 0}, rotation: [0, 0, 0, 1]}\n' "$SCH" >"$T/bad.yaml"
expect_err bad_value_exit1 1 "bad.yaml:5:7: seed: error: expected an integer in u64 range 0..18446744073709551615, got \"1.5\"" "$BLOBC" bake "$T/bad.yaml" -o "$T/bad.blob"
absent bad_value_no_output "$T/bad.blob"
cp "$S/level.blob" "$T/existing.blob"
expect bad_value_keeps_existing_rc 1 "$BLOBC" bake "$T/bad.yaml" -o "$T/existing.blob"
same_file bad_value_keeps_existing "$T/existing.blob" "$S/level.blob"
ls "$T" | grep -q '\.tmp' && fail no_temp_left "$(ls "$T")" || pass no_temp_left

# --- an unwritable output is an I/O error ---
# (a missing directory is made; a file in the way of one is an error)
: >"$T/plain"
expect_err unwritable_output 2 "Not a directory" "$BLOBC" bake "$S/level.yaml" -o "$T/plain/dir/x.blob"

# --- verify and dump of the golden sample ---
expect verify_sample 0 "$BLOBC" verify "$S/level.blob"
grep -qx "$S/level.blob: ok" "$T/out" && pass verify_ok_line || fail verify_ok_line "$(cat "$T/out")"
expect verify_sample_schema 0 "$BLOBC" verify -s "$SCH" "$S/level.blob"
expect verify_json 0 "$BLOBC" verify --json "$S/level.blob"
grep -qx "{\"file\":\"$S/level.blob\",\"ok\":true,\"errors\":\[\]}" "$T/out" && pass verify_json_line ||
    fail verify_json_line "$(cat "$T/out")"
expect dump_sample 0 "$BLOBC" dump "$S/level.blob"
cp "$T/out" "$T/dump.yaml"
head -1 "$T/dump.yaml" | grep -qx '$type: Level' && pass dump_type_first || fail dump_type_first "$(head -2 "$T/dump.yaml")"
expect rebake_dump 0 "$BLOBC" bake -s "$SCH" "$T/dump.yaml" -o "$T/rebaked.blob"
same_file rebake_dump_identical "$T/rebaked.blob" "$S/level.blob"
