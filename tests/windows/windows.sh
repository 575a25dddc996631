# What only Windows has, checked on the Windows build under Wine (make
# check-windows; tests/wine.sh): CRLF text, "\" and drive-letter paths, a
# non-ASCII file name, binary standard output, an output another process
# holds open, Ctrl-C during a bake, and numbers under a German locale.
. "$(dirname "$0")/../cli/lib.sh"
if ! windows_build; then
    skip windows "the Windows build under Wine (make check-windows)"
    exit 0
fi
TOOLS=$(cd "$BUILD" && pwd)/tools
S=$TOP/samples
# Z: is Wine's drive for the Unix root: Z:\tmp\... is /tmp/...
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }

# ---- CRLF line ends: the same bytes as LF ----
mkdir -p "$T/lf/samples" "$T/lf/schemas" "$T/crlf/samples" "$T/crlf/schemas"
cp "$S/level.yaml" "$S/level.json" "$T/lf/samples/"
cp "$TOP/schemas/level.schema" "$T/lf/schemas/"
for f in samples/level.yaml samples/level.json schemas/level.schema; do
    sed 's/$/\r/' "$T/lf/$f" >"$T/crlf/$f"
done
grep -q "$(printf '\r')" "$T/crlf/samples/level.yaml" && pass crlf_inputs_made || fail crlf_inputs_made "no CR"
for f in level.yaml level.json; do
    expect "crlf_bake_${f#*.}" 0 "$BLOBC" bake "$T/crlf/samples/$f" -o "$T/crlf/$f.blob"
    expect "lf_bake_${f#*.}" 0 "$BLOBC" bake "$T/lf/samples/$f" -o "$T/lf/$f.blob"
    same_file "crlf_same_bytes_${f#*.}" "$T/crlf/$f.blob" "$T/lf/$f.blob"
done
expect crlf_check 0 "$BLOBC" check "$T/crlf/schemas/level.schema"
# An error in a CRLF file: the line and column are those of the LF file,
# and the source line shown has no CR.
printf 'struct P {\r\n  x: u8;\r\n  y: nosuch;\r\n}\r\nroot P;\r\n' >"$T/bad.schema"
expect_err crlf_error_position 1 "bad.schema:3:6: error: unknown type 'nosuch'" "$BLOBC" check "$T/bad.schema"
grep -q "$(printf '\r')" "$T/err" && fail crlf_error_no_cr "a CR in: $(od -c "$T/err" | head -3)" ||
    pass crlf_error_no_cr

# ---- paths: "\", drive letters, non-ASCII names ----
mkdir -p "$T/p/in" "$T/p/out"
# $schema with "\" too (single-quoted YAML: no escapes).
printf '%s\n' "\$schema: '..\\..\\schemas\\level.schema'" >"$T/schemaline"
awk 'NR == FNR { l = $0; next } /^\$schema:/ { print l; next } { print }' "$T/schemaline" \
    "$S/level.yaml" >"$T/p/in/level.yaml"
mkdir -p "$T/schemas"
cp "$TOP/schemas/level.schema" "$T/schemas/"
# (The blob records the $schema text, so the reference is this file baked
# through plain "/" paths.)
expect slash_paths 0 "$BLOBC" bake "$T/p/in/level.yaml" -o "$T/p/out/ref.blob"
(cd "$T/p" && "$BLOBC" bake 'in\level.yaml' -o 'out\level.blob' >"$T/out" 2>"$T/err")
RC=$?
rc_is backslash_paths 0 && same_file backslash_paths_bytes "$T/p/out/level.blob" "$T/p/out/ref.blob"
D=$(winpath "$T/p")
expect drive_letter_paths 0 "$BLOBC" bake "$D\\in\\level.yaml" -o "$D\\out\\drive.blob"
same_file drive_letter_bytes "$T/p/out/drive.blob" "$T/p/out/ref.blob"
expect drive_letter_forward_slashes 0 "$BLOBC" bake "Z:$T/p/in/level.yaml" -o "Z:$T/p/out/fwd.blob"
same_file drive_letter_forward_bytes "$T/p/out/fwd.blob" "$T/p/out/ref.blob"
# Messages name the file as given, drive letter and all.
printf 'struct P { x: u8; }\nroot P;\n' >"$T/p/s.schema"
printf 'x: 300\n' >"$T/p/in/big.yaml"
expect_err drive_letter_in_message 1 "$D\\in\\big.yaml:1:4: x: error: expected an integer" \
    "$BLOBC" bake -s "$D\\s.schema" "$D\\in\\big.yaml" -o "$D\\out\\big.blob"
# A depfile with drive letters: the paths as given, one rule make reads.
expect drive_letter_depfile 0 "$BLOBC" bake "$D\\in\\level.yaml" -o "$D\\out\\dep.blob" \
    --depfile "$D\\out\\dep.d"
grep -q "dep.blob:" "$T/p/out/dep.d" && pass drive_letter_depfile_rule ||
    fail drive_letter_depfile_rule "$(cat "$T/p/out/dep.d")"
# ninja reads the drive letters back exactly (its depfile parser is the
# same code on Windows): a rule that hands ninja this depfile, then the
# dependencies ninja recorded.
if command -v ninja >/dev/null 2>&1; then
    mkdir -p "$T/nj"
    cp "$T/p/out/dep.d" "$T/nj/dep.src"
    printf 'rule cp\n  command = cp dep.src $out.d && touch $out\n  depfile = $out.d\n  deps = gcc\nbuild out: cp\n' \
        >"$T/nj/build.ninja"
    printf '%s\n' "$D\\in\\level.yaml" "$D\\in\\..\\..\\schemas\\level.schema" >"$T/nj/want"
    (cd "$T/nj" && ninja >/dev/null 2>&1 && ninja -t deps) | sed -n 's/^    //p' >"$T/nj/got"
    same_file drive_letter_depfile_ninja "$T/nj/got" "$T/nj/want"
else
    skip drive_letter_depfile_ninja "ninja not found (make deps installs it)"
fi
# The "\\?\" form (long paths): read and written, a $schema with ".."
# found from it (Windows takes such a path literally: blobc tidies it); a
# depfile cannot hold its "?", which ninja ends a name at, and says so.
L="\\\\?\\$D"
printf 'x: 7\n' >"$T/p/in/small.yaml"
expect long_path_form 0 "$BLOBC" bake -s "$L\\s.schema" "$L\\in\\small.yaml" -o "$L\\out\\long.blob"
expect long_path_verify 0 "$BLOBC" verify "$D\\out\\long.blob"
printf '$schema: ../s.schema\nx: 7\n' >"$T/p/in/up.yaml"
expect long_path_schema_up 0 "$BLOBC" bake "$L\\in\\up.yaml" -o "$L\\out\\up.blob"
expect long_path_schema_up_plain 0 "$BLOBC" bake "$D\\in\\up.yaml" -o "$D\\out\\up-plain.blob"
same_file long_path_schema_up_bytes "$T/p/out/up.blob" "$T/p/out/up-plain.blob"
expect_err long_path_depfile_refused 2 "in a depfile: it holds \"?\"" \
    "$BLOBC" bake -s "$L\\s.schema" "$L\\in\\small.yaml" -o "$L\\out\\long.blob" --depfile "$D\\out\\long.d"
[ ! -e "$T/p/out/long.d" ] && pass long_path_no_depfile || fail long_path_no_depfile "$(cat "$T/p/out/long.d")"
# A cache directory named with a drive letter, "\" and non-ASCII letters
# (the wide-character API below the root): a miss, then a hit.
C="$D\\cache-été"
expect cache_drive_letter_miss 0 "$BLOBC" bake -v --cache "$C" "$D\\in\\level.yaml" -o "$D\\out\\c1.blob"
expect cache_drive_letter_hit 0 "$BLOBC" bake -v --cache "$C" "$D\\in\\level.yaml" -o "$D\\out\\c2.blob"
grep -qF "cached $D\\out\\c2.blob" "$T/err" && pass cache_drive_letter_hit_said ||
    fail cache_drive_letter_hit_said "$(cat "$T/err")"
same_file cache_drive_letter_bytes "$T/p/out/c2.blob" "$T/p/out/ref.blob"
[ "$(find "$T/p/cache-été" -path '*/[0-9a-f][0-9a-f]/*' -type f | wc -l)" -eq 1 ] &&
    pass cache_non_ascii_entry || fail cache_non_ascii_entry "$(find "$T/p" -path '*cache*')"
expect cache_drive_letter_stats 0 "$BLOBC" cache stats "$C"
grep -qx 'hits: 1' "$T/out" && pass cache_drive_letter_counts || fail cache_drive_letter_counts "$(cat "$T/out")"
# Non-ASCII names in and out (UTF-16 on Windows, UTF-8 here).
U="niveau-été-日本"
cp "$T/lf/samples/level.yaml" "$T/lf/samples/$U.yaml"
expect non_ascii_name 0 "$BLOBC" bake "$T/lf/samples/$U.yaml" -o "$T/lf/$U.blob"
same_file non_ascii_bytes "$T/lf/$U.blob" "$T/lf/level.yaml.blob"
expect non_ascii_verify 0 "$BLOBC" verify "$T/lf/$U.blob"
grep -qF "$U.blob: ok" "$T/out" && pass non_ascii_in_output || fail non_ascii_in_output "$(cat "$T/out")"
expect_err non_ascii_missing 2 "cannot open '$T/lf/$U-missing.yaml': No such file or directory" \
    "$BLOBC" bake "$T/lf/$U-missing.yaml" -o "$T/lf/x.blob"

# ---- standard input and output are binary ----
"$BLOBC" bake "$T/lf/samples/level.yaml" -o - >"$T/stdout.blob" 2>"$T/err"
RC=$?
rc_is blob_to_stdout 0 && same_file blob_to_stdout_bytes "$T/stdout.blob" "$T/lf/level.yaml.blob"
od -An -tx1 "$T/stdout.blob" | grep -q ' 0a' && pass blob_has_newline_bytes ||
    fail blob_has_newline_bytes "no 0x0a byte: the check proves nothing"
expect dump_from_stdin 0 sh -c "'$BLOBC' dump - <'$T/stdout.blob'"
expect verify_from_stdin 0 sh -c "'$BLOBC' verify - <'$T/stdout.blob'"
expect bake_from_stdin 0 sh -c "'$BLOBC' bake -s '$TOP/schemas/level.schema' - -o - <'$T/crlf/samples/level.yaml' >'$T/stdin.blob'"
same_file bake_from_stdin_bytes "$T/stdin.blob" "$T/lf/level.yaml.blob"

# ---- an output another process holds open ----
cp "$T/lf/level.json.blob" "$T/held.blob"
rm -f "$T/stop"
"$TOOLS/hold_open" "$T/held.blob" "$T/stop" >"$T/hold.out" 2>&1 &
HPID=$!
for _ in $(seq 1 100); do grep -q held "$T/hold.out" 2>/dev/null && break; sleep 0.1; done
if grep -q held "$T/hold.out"; then
    expect_err held_output_refused 2 "cannot replace '$T/held.blob': the file is open in another process" \
        "$BLOBC" bake "$T/lf/samples/level.yaml" -o "$T/held.blob"
    same_file held_output_intact "$T/held.blob" "$T/lf/level.json.blob"
    left=$(ls -A "$T" | grep '^\.held\.blob\.' | tr '\n' ' ')
    [ -z "$left" ] && pass held_output_no_temp || fail held_output_no_temp "$left"
else
    fail held_output_refused "hold_open did not start: $(cat "$T/hold.out")"
fi
touch "$T/stop"
wait $HPID
expect held_then_free 0 "$BLOBC" bake "$T/lf/samples/level.yaml" -o "$T/held.blob"
same_file held_then_free_bytes "$T/held.blob" "$T/lf/level.yaml.blob"

# ---- Ctrl-C: the console handler removes the temporary file ----
# Wine turns SIGINT into the console's Ctrl-C event for the process.
mkdir "$T/kill"
printf 'struct P { xs: [u32]; name: string; }\nroot P;\n' >"$T/kill/big.schema"
awk 'BEGIN { printf "{\"name\": \"big\", \"xs\": ["; for (i = 0; i < 1500000; i++) printf "%s%d", (i ? "," : ""), i; print "]}" }' \
    >"$T/kill/big.json"
"$BLOBC" bake -s "$T/kill/big.schema" "$T/kill/big.json" -o "$T/kill/big.blob"
cp "$T/kill/big.blob" "$T/big.ref"
ints=0
for d in $(awk 'BEGIN { srand(); for (i = 0; i < 6; i++) printf "%.2f ", 0.2 + rand() * 0.8 }'); do
    "$BLOBC" bake -s "$T/kill/big.schema" "$T/kill/big.json" -o "$T/kill/big.blob" &
    pid=$!
    sleep "$d"
    kill -INT $pid 2>/dev/null && ints=$((ints + 1))
    wait $pid 2>/dev/null
done
left=$(ls -A "$T/kill" | grep -v -x -e big.schema -e big.json -e big.blob | tr '\n' ' ')
[ -z "$left" ] && pass ctrl_c_leaves_no_temp || fail ctrl_c_leaves_no_temp "after $ints interrupts: $left"
same_file ctrl_c_keeps_the_output "$T/kill/big.blob" "$T/big.ref"

# ---- numbers under a German locale (decimal comma) ----
expect locale_c 0 "$TOOLS/locale_bake" C
cp "$T/out" "$T/c.out"
expect locale_german 0 "$TOOLS/locale_bake" German_Germany.1252
grep -q '^== program.s own 1.5: 1,5' "$T/out" && pass locale_german_in_effect ||
    fail locale_german_in_effect "$(tail -3 "$T/out")"
grep -v '^== program' "$T/c.out" >"$T/c.lib"
grep -v '^== program' "$T/out" | tr -d '\r' >"$T/de.lib"
tr -d '\r' <"$T/c.lib" >"$T/c2.lib"
same_file locale_same_output_under_decimal_comma "$T/de.lib" "$T/c2.lib"
