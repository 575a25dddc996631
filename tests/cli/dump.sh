# blobc dump on the bad-blob corpus and its valid cases: a bad blob prints
# no YAML or JSON and exits 1 with the verify error; --map prints the
# layout up to the failure, marks it, and exits 1; valid, stripped and raw
# inputs dump and bake back to the same bytes.
. "$(dirname "$0")/lib.sh"
C=$TOP/tests/bad/blob

# --- invalid: nothing on stdout, the error on stderr, exit 1 ---
expect_err bad_yaml 1 "(rooms[1].lit): error: bool byte is 2" "$BLOBC" dump "$C/bool_2.blob"
[ -s "$T/out" ] && fail bad_yaml_no_output "stdout: $(head -c 200 "$T/out")" || pass bad_yaml_no_output
expect_err bad_json 1 "cycle" "$BLOBC" dump --json "$C/cycle_two.blob"
[ -s "$T/out" ] && fail bad_json_no_output "stdout: $(head -c 200 "$T/out")" || pass bad_json_no_output

# --- --map of an invalid blob: the layout up to the failure ---
expect_err map_bad 1 "bool byte is 2" "$BLOBC" dump --map "$C/bool_2.blob"
grep -q '^0x[0-9a-f]*       1  02 .*rooms\[1\]\.lit: bool = 2 (not a bool)   <-- bool: bool byte is 2' "$T/out" &&
    pass map_bad_marked || fail map_bad_marked "$(grep -a 'lit' "$T/out" | head -3)"
grep -q '^## verification failed at 0x[0-9a-f]* (rooms\[1\]\.lit): bool: ' "$T/out" &&
    pass map_bad_footer || fail map_bad_footer "$(tail -3 "$T/out")"
# a path longer than any fixed line buffer: the footer is whole, code,
# message and newline included
expect map_long_footer 1 "$BLOBC" dump --map "$C/chain_1000_cycle.blob"
grep -q '^## verification failed at 0x[0-9a-f]* (\.\.\.[next.]*next): cycle: .*(a cycle)$' "$T/out" &&
    pass map_long_footer_whole || fail map_long_footer_whole "$(tail -c 200 "$T/out")"
expect map_bad_magic 1 "$BLOBC" dump --map "$C/bad_magic.blob"
grep -q 'header.magic = "PK' "$T/out" && grep -q '^## verification failed: bad-magic: ' "$T/out" &&
    pass map_bad_magic_text || fail map_bad_magic_text "$(head -3 "$T/out")"

# --- valid: the map ends with the type section ---
expect map_ok 0 "$BLOBC" dump --map "$C/valid_level.blob"
grep -q '^## types: ' "$T/out" && grep -q '^struct Room: size 72, align 4, 11 fields$' "$T/out" &&
    pass map_ok_types || fail map_ok_types "$(tail -5 "$T/out")"

# --- dump, bake, compare ---
cp "$C/level.schema" "$T/fixture.schema"
expect dump_yaml 0 "$BLOBC" dump -o "$T/d.yaml" "$C/valid_level.blob"
head -2 "$T/d.yaml" | tr '\n' '|' | grep -q '^\$type: Level|\$schema: "fixture.schema"|$' &&
    pass dump_yaml_head || fail dump_yaml_head "$(head -2 "$T/d.yaml")"
expect rebake_yaml 0 "$BLOBC" bake -o "$T/again.blob" "$T/d.yaml"
same_file rebake_yaml_same "$T/again.blob" "$C/valid_level.blob"
expect dump_json 0 "$BLOBC" dump --json -o "$T/d.json" "$C/valid_level.blob"
expect rebake_json 0 "$BLOBC" bake -o "$T/again.json.blob" "$T/d.json"
# nothing is shared in this level, so the JSON bakes back to the same bytes
same_file rebake_json_same "$T/again.json.blob" "$C/valid_level.blob"
expect_err dump_json_dag 1 "JSON cannot share: dump it as YAML" "$BLOBC" dump --json "$C/dag_shared_40_ok.blob"
expect dump_yaml_dag 0 "$BLOBC" dump "$C/dag_shared_40_ok.blob"
grep -q '^b: \*a1$' "$T/out" && pass dump_yaml_dag_alias || fail dump_yaml_dag_alias "$(head -8 "$T/out")"

# --- stripped and raw need the schema ---
expect_err stripped_needs_schema 1 "stripped" "$BLOBC" dump "$C/stripped_no_schema.blob"
expect stripped_with_schema 0 "$BLOBC" dump -s "$C/level.schema" "$C/stripped_with_schema.blob"
grep -q '^\$schema: ".*level.schema"$' "$T/out" && pass stripped_schema_line ||
    fail stripped_schema_line "$(head -2 "$T/out")"
expect bake_raw 0 "$BLOBC" bake --format raw -s "$C/level.schema" -o "$T/l.bin" "$T/d.yaml"
expect dump_raw 0 "$BLOBC" dump --raw -s "$C/level.schema" -o "$T/raw.yaml" "$T/l.bin"
expect rebake_raw 0 "$BLOBC" bake --format raw -s "$C/level.schema" -o "$T/l2.bin" "$T/raw.yaml"
same_file rebake_raw_same "$T/l2.bin" "$T/l.bin"

# --- a text of many pieces goes out as it is made, the same bytes ---
awk 'BEGIN {
    print "name: \"Streamed\""; print "rooms:"
    for (i = 0; i < 4000; i++) {
        printf "  - name: \"Room %d \\\"q\\\"\"\n    kind: door\n", i
        printf "    center: {x: %d.25, y: -%d.125, z: 0.%d}\n    radius: %d.5\n", i, i % 97, i, i % 13
        printf "    lit: %s\n    neighbors: [%d, %d]\n    tags: [\"a\", \"b%d\"]\n", i % 2 ? "true" : "false", i, i * 7, i
    }
}' >"$T/big.yaml"
expect big_bake 0 "$BLOBC" bake -s "$TOP/bench/level.schema" -o "$T/big.blob" "$T/big.yaml"
for f in yaml json; do
    flag=$([ $f = json ] && echo --json)
    expect "big_${f}_stdout" 0 sh -c "exec '$BLOBC' dump $flag '$T/big.blob' >'$T/big_out.$f'"
    expect "big_${f}_file" 0 "$BLOBC" dump $flag -o "$T/big_file.$f" "$T/big.blob"
    same_file "big_${f}_same" "$T/big_out.$f" "$T/big_file.$f"
    expect "big_${f}_rebake" 0 "$BLOBC" bake -s "$TOP/bench/level.schema" -o "$T/big_again_$f.blob" "$T/big_out.$f"
    same_file "big_${f}_rebake_same" "$T/big_again_$f.blob" "$T/big.blob"
done
[ "$(wc -c <"$T/big_out.json")" -gt 500000 ] && pass big_json_many_pieces ||
    fail big_json_many_pieces "only $(wc -c <"$T/big_out.json") bytes"
# a dump that fails part way writes nothing: neither on standard output
# nor a file (the JSON copies of a shared DAG pass their budget after
# megabytes of text)
expect_err dump_json_dag_stdout 1 "JSON cannot share" sh -c "exec '$BLOBC' dump --json '$C/dag_shared_40_ok.blob' >'$T/dag.json'"
[ -s "$T/dag.json" ] && fail dump_json_dag_nothing "$(wc -c <"$T/dag.json") bytes written" ||
    pass dump_json_dag_nothing
expect_err dump_json_dag_file 1 "JSON cannot share" "$BLOBC" dump --json -o "$T/dag_file.json" "$C/dag_shared_40_ok.blob"
absent dump_json_dag_no_file "$T/dag_file.json"
# a failed dump leaves a file that was there as it was
printf 'keep\n' >"$T/dag_keep.json"
expect_err dump_json_dag_existing 1 "JSON cannot share" "$BLOBC" dump --json -o "$T/dag_keep.json" "$C/dag_shared_40_ok.blob"
[ "$(cat "$T/dag_keep.json")" = keep ] && pass dump_json_dag_existing_kept ||
    fail dump_json_dag_existing_kept "$(head -c 100 "$T/dag_keep.json")"
# -o FILE streams as standard output does: a dump's text never whole in
# memory (peak resident size below the blob plus half its text; building
# the text first took the blob plus all of it)
awk 'BEGIN {
    print "name: \"Huge\""; print "rooms:"
    for (i = 0; i < 100000; i++)
        printf "  - {name: \"Room %d\", kind: door, center: {x: %d.25, y: 1, z: 2}, radius: 1.5, lit: true, neighbors: [%d, %d], tags: [a, b%d]}\n", i, i, i, i * 7, i
}' >"$T/huge.yaml"
if ! "$BLOBC" bake -s "$TOP/bench/level.schema" -o "$T/huge.blob" "$T/huge.yaml" 2>"$T/err"; then
    fail huge_setup "$(head -c 300 "$T/err")"
elif windows_build || nm "$BLOBC" 2>/dev/null | grep -q '__asan_init'; then
    skip dump_file_streams "resident size is measured for Linux builds without sanitizers"
elif ! command -v python3 >/dev/null 2>&1; then
    skip dump_file_streams "python3 not found (it measures the resident size)"
else
    for f in yaml json; do
        flag=$([ $f = json ] && echo --json)
        python3 "$TOP/tests/tools/maxrss.py" "$T/rss" "$BLOBC" dump $flag -o "$T/huge.$f" "$T/huge.blob" ||
            fail "dump_file_streams.$f" "dump failed"
        rss=$(cat "$T/rss") blob=$(($(wc -c <"$T/huge.blob") / 1024)) text=$(($(wc -c <"$T/huge.$f") / 1024))
        if [ "$rss" -lt $((blob + text / 2)) ]; then pass "dump_file_streams.$f"; else
            fail "dump_file_streams.$f" "peak $rss KiB for a $blob KiB blob and $text KiB of text"
        fi
    done
    "$BLOBC" dump --json "$T/huge.blob" >"$T/huge_stdout.json"
    same_file dump_file_streams_same "$T/huge.json" "$T/huge_stdout.json"
fi
if windows_build; then
    skip big_dump_to_dev_full "/dev/full is a Linux device"
elif [ -c /dev/full ]; then
    expect_stderr big_dump_to_dev_full 2 "blobc: error: cannot write standard output: No space left on device" \
        sh -c "exec '$BLOBC' dump --json '$T/big.blob' >/dev/full"
    expect_err big_dump_o_dev_full 2 "cannot write '/dev/full': No space left on device" \
        "$BLOBC" dump --json -o /dev/full "$T/big.blob"
else
    skip big_dump_to_dev_full "no /dev/full here"
fi
