# blobc compat: the golden report and exit status of one kind of change per
# schema in tests/data/compat against old.schema; blobs (their embedded
# types) in place of schemas give the same reports; notes do not fail;
# errors and usage have their exit codes.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/compat
cd "$D" || exit 1

n=0
# golden DIR PREFIX: each DIR/NAME.schema against DIR/old.schema.
golden() {
    for f in "$1"/*.schema; do
        name=$(basename "$f" .schema)
        [ "$name" = old ] && continue
        n=$((n + 1))
        want=1
        tail -1 "$1/$name.expect" | grep -q '^compatible' && want=0
        (cd "$1" && "$BLOBC" compat old.schema "$name.schema" >"$T/out" 2>"$T/err")
        rc=$?
        if [ "$rc" -ne "$want" ]; then fail "$2$name" "exit $rc, want $want: $(head -c 300 "$T/err")"; continue; fi
        same_file "$2${name}_golden" "$T/out" "$1/$name.expect"
    done
}
golden "$D" ""
golden "$D/union" union_
golden "$D/forms" forms_
[ "$n" -ge 27 ] && pass golden_count || fail golden_count "only $n cases"

# Every kind of line the documentation promises appears in some golden file.
for what in 'added (' 'removed (was' 'moved from offset' 'retyped from' 'resized from' \
    'changed value from' 'base changed from' 'alignment changed from' 'size changed from' \
    'root type changed from' "note: (root): struct Level is now called World" \
    "total: added (u16 at offset 16)" "member 'door' (5) removed (5 is now 'gate')" \
    'moved from tag 1 to 2' "member 'Box' (tag 2) removed" "(tag 1) removed (tag 1 is now 'Round')" \
    "member 'Spot' added (tag 3" "extra: takes no null any more" "count: made optional (u32 to ?u32" \
    "missing: no longer optional (?u16 to u16" "by_id: map key retyped from u32 to u64" \
    "by_color{}: retyped from u8 to u32" "member 'sq' (tag 2) removed (tag 2 is now 'square')" \
    "member '!dot' added (tag 3" "member '3' added (tag 3"; do
    cat ./*.expect union/*.expect forms/*.expect | grep -qF -- "$what" && pass "says_${what%% *}" || fail "says_$what" "in no golden file"
done

# Blobs in place of schemas: the embedded type description gives the same report.
"$BLOBC" bake -s old.schema old.yaml -o "$T/old.blob" 2>"$T/err" && pass bake_old || fail bake_old "$(cat "$T/err")"
sed 's/^count:/total:/' old.yaml >"$T/renamed.yaml"
"$BLOBC" bake -s "$D/renamed.schema" "$T/renamed.yaml" -o "$T/renamed.blob" 2>"$T/err" &&
    pass bake_renamed || fail bake_renamed "$(cat "$T/err")"
expect blob_vs_schema 1 "$BLOBC" compat "$T/old.blob" retyped.schema
same_file blob_vs_schema_golden "$T/out" retyped.expect
expect blob_vs_blob 1 "$BLOBC" compat "$T/old.blob" "$T/renamed.blob"
same_file blob_vs_blob_golden "$T/out" renamed.expect
"$BLOBC" bake -s "$D/types_renamed.schema" old.yaml -o "$T/types.blob" 2>"$T/err" || fail bake_types "$(cat "$T/err")"
expect blob_vs_blob_compatible 0 "$BLOBC" compat "$T/old.blob" "$T/types.blob"
same_file blob_vs_blob_compatible_golden "$T/out" types_renamed.expect
expect same_file_compatible 0 "$BLOBC" compat old.schema old.schema
[ "$(cat "$T/out")" = compatible ] && pass same_file_says_compatible || fail same_file_says_compatible "$(cat "$T/out")"
expect quiet 1 "$BLOBC" compat -q old.schema moved.schema
[ -s "$T/out" ] && fail quiet_prints_nothing "$(head -2 "$T/out")" || pass quiet_prints_nothing

# -t compares another type of both schemas (a blob always gives its root).
expect type_option 1 "$BLOBC" compat -t Item old.schema resized.schema
head -1 "$T/out" | grep -qx '(root): struct Item: size changed from 48 to 44' && pass type_option_paths ||
    fail type_option_paths "$(head -1 "$T/out")"
expect type_option_same 0 "$BLOBC" compat -t Vec3 old.schema resized.schema

# Errors.
"$BLOBC" bake --strip -s old.schema old.yaml -o "$T/stripped.blob" 2>/dev/null
expect_err stripped_blob 1 "the blob is stripped (no embedded type description): pass its schema file instead" \
    "$BLOBC" compat "$T/stripped.blob" old.schema
expect_err unknown_type 1 "no type 'Nope' in the schema" "$BLOBC" compat -t Nope old.schema old.schema
expect_err enum_type 1 "'Kind' is not a struct" "$BLOBC" compat -t Kind old.schema old.schema
printf 'struct A { x: B; }\n' >"$T/bad.schema"
expect_err bad_schema 1 "bad.schema:1:15: error: unknown type 'B'" "$BLOBC" compat old.schema "$T/bad.schema"
expect_err missing_file 2 "nope.schema" "$BLOBC" compat old.schema "$T/nope.schema"
expect_err one_operand 2 "expected two operands" "$BLOBC" compat old.schema
head -c 100 "$T/old.blob" >"$T/cut.blob"
expect_err truncated_blob 1 "cut.blob" "$BLOBC" compat "$T/cut.blob" old.schema

# What "compatible" means: the same data bakes to the same data bytes with
# both schemas (types renamed included); for a change it does not. (That
# upgrade then carries every blob over unchanged: tests/unit/test_evolve.c.)
"$BLOBC" bake --format raw -s old.schema old.yaml -o "$T/old.bin" 2>/dev/null
"$BLOBC" bake --format raw -s "$D/types_renamed.schema" old.yaml -o "$T/types.bin" 2>/dev/null
same_file compatible_same_bytes "$T/types.bin" "$T/old.bin"
"$BLOBC" bake --format raw -s "$D/moved.schema" old.yaml -o "$T/moved.bin" 2>/dev/null
if [ -s "$T/moved.bin" ] && ! cmp -s "$T/moved.bin" "$T/old.bin"; then pass incompatible_other_bytes; else
    fail incompatible_other_bytes "moved.schema bakes the same bytes"; fi
# The same over maps, optionals, any and tagged unions: members added at
# the end bake the same bytes; a map's value widened does not.
cd "$D/forms" || exit 1
"$BLOBC" bake --format raw -s old.schema old.yaml -o "$T/f-old.bin" 2>"$T/err" || fail forms_bake "$(cat "$T/err")"
"$BLOBC" bake --format raw -s members_added.schema old.yaml -o "$T/f-added.bin" 2>/dev/null
same_file forms_compatible_same_bytes "$T/f-added.bin" "$T/f-old.bin"
"$BLOBC" bake --format raw -s map_value_widened.schema old.yaml -o "$T/f-wide.bin" 2>/dev/null
if [ -s "$T/f-wide.bin" ] && ! cmp -s "$T/f-wide.bin" "$T/f-old.bin"; then pass forms_incompatible_other_bytes; else
    fail forms_incompatible_other_bytes "map_value_widened.schema bakes the same bytes"; fi
