# Schema imports: the same types in one file or split over imported files
# bake identical blobs; check shows doc comments and names each file in its
# warnings; cycles, duplicate types, missing files and misplaced imports
# fail with exit codes and messages that name the file and position.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/import

mkdir -p "$T/one" "$T/split"
cp "$TOP/schemas/level.schema" "$T/one/"
cp "$D"/*.schema "$T/split/"
for v in one split; do
    (cd "$T/$v" && "$BLOBC" bake -s level.schema "$TOP/samples/level.yaml" -o "$T/$v.blob" \
        2>"$T/err") && pass "bake_$v" || fail "bake_$v" "$(head -c 300 "$T/err")"
done
same_file split_blob_identical "$T/split.blob" "$T/one.blob"
h1=$("$BLOBC" check "$T/one/level.schema" | grep '^root ')
h2=$("$BLOBC" check "$T/split/level.schema" | grep '^root ')
[ -n "$h1" ] && [ "$h1" = "$h2" ] && pass same_root_and_hash || fail same_root_and_hash "$h1 / $h2"

# The report of the split schema: doc comments, warnings located in the
# imported file they are about.
if (cd "$D" && "$BLOBC" check level.schema >"$T/out" 2>"$T/err"); then pass check_exit; else
    fail check_exit "$(head -c 300 "$T/err")"
fi
same_file check_golden "$T/out" "$D/level.check.expect"
grep -q '^rooms.schema:20:5: warning: struct Room' "$T/out" && pass warning_names_file ||
    fail warning_names_file "$(grep warning "$T/out" | head -2)"

# An error inside an imported file names that file.
cd "$T"
printf 'struct Q { x: Vec4; }\n' >inner.schema
printf 'import "inner.schema";\nstruct R { q: u8; }\n' >outer.schema
expect_err error_in_import 1 'inner.schema:1:15: error: unknown type '"'Vec4'" "$BLOBC" check outer.schema

# A cycle is named in full, at the import that closes it.
mkdir -p sub
printf 'import "sub/b.schema";\nstruct A { x: u8; }\n' >a.schema
printf 'import "c.schema";\nstruct B { x: u8; }\n' >sub/b.schema
printf 'import "../a.schema";\nstruct C { x: u8; }\n' >sub/c.schema
expect_err cycle 1 'sub/c.schema:1:8: error: import cycle: a.schema -> sub/b.schema -> sub/c.schema -> a.schema' \
    "$BLOBC" check a.schema
printf 'import "self.schema";\nstruct S { x: u8; }\n' >self.schema
expect_err self_import 1 'self.schema:1:8: error: import cycle: self.schema -> self.schema' \
    "$BLOBC" check self.schema

# A type declared in two files: the error is at the second, pointing at the first.
printf 'struct Vec3 { x: f32; }\n' >v1.schema
printf 'import "v1.schema";\n\nstruct Vec3 { x: f64; }\n' >v2.schema
expect_err duplicate_across_files 1 \
    "v2.schema:3:8: error: duplicate type name 'Vec3' (first declared at v1.schema:1:8)" \
    "$BLOBC" check v2.schema

# The same for a second root in a file (an imported file's root is its own).
printf 'struct B { x: u8; }\n\nroot B;\nroot B;\n' >rb.schema
expect_stderr root_twice_names_file 1 'rb.schema:4:1: error: a schema has at most one root (the first is at rb.schema:3:1)
    root B;
    ^' "$BLOBC" check rb.schema

# A diamond (two files import the same one) reads it once: no duplicate.
printf 'import "v1.schema";\nstruct L { v: Vec3; }\n' >l.schema
printf 'import "v1.schema";\nstruct M { v: Vec3; }\n' >m.schema
printf 'import "l.schema";\nimport "m.schema";\nimport "./v1.schema";\nstruct N { l: L; m: M; }\nroot N;\n' >n.schema
expect diamond 0 "$BLOBC" check n.schema
grep -q 'n.schema: 4 types' "$T/out" && pass diamond_types || fail diamond_types "$(tail -1 "$T/out")"

# A missing file: an I/O error (exit 2) located at the import.
printf 'import "nope.schema";\nstruct S { x: u8; }\n' >miss.schema
expect_err missing_import 2 'miss.schema:1:8: error: cannot import "nope.schema": cannot open '"'nope.schema'" \
    "$BLOBC" check miss.schema
printf 'import "sub";\nstruct S { x: u8; }\n' >dir.schema
expect_err import_directory 2 'dir.schema:1:8: error: cannot import "sub"' "$BLOBC" check dir.schema
# Reached through the data's $schema (and another import), the error is
# still at the import, and names the line of the data that led there.
mkdir -p sub
printf 'import "../miss.schema";\nstruct R { s: S; }\nroot R;\n' >sub/top.schema
printf '$schema: sub/top.schema\ns: {x: 1}\n' >via.yaml
expect_err missing_import_via_schema 2 'sub/../miss.schema:1:8: error: cannot import "nope.schema": cannot open '"'sub/../nope.schema'"': No such file or directory (in the schema $schema names at via.yaml:1:10)' \
    "$BLOBC" bake via.yaml
grep -q '^    import "nope.schema";$' "$T/err" && pass missing_import_via_schema_line ||
    fail missing_import_via_schema_line "$(cat "$T/err")"
printf '{"$schema": "sub/top.schema", "s": {"x": 1}}\n' >via.json
expect_err missing_import_via_schema_json 2 '(in the schema $schema names at via.json:1:13)' "$BLOBC" bake via.json
absent missing_import_via_schema_nothing_written via.blob

# Imports come first; the path is a string; the statement ends with ';'.
printf 'struct S { x: u8; }\nimport "v1.schema";\n' >late.schema
expect_err import_after_declaration 1 'late.schema:2:1: error: imports come first in a file, before any declaration' \
    "$BLOBC" check late.schema
printf 'import v1;\n' >bare.schema
expect_err import_needs_string 1 "bare.schema:1:8: error: expected a file name in quotes after 'import', got 'v1'" \
    "$BLOBC" check bare.schema
printf 'import "v1.schema"\nstruct S { x: u8; }\n' >nosemi.schema
expect_err import_needs_semicolon 1 "nosemi.schema:2:1: error: expected ';' after the import, got 'struct'" \
    "$BLOBC" check nosemi.schema

# Bounded: a chain of 40 imports stops at the depth limit.
i=0
while [ $i -lt 40 ]; do
    printf 'import "d%d.schema";\nstruct D%d { x: u8; }\n' $((i + 1)) $i >d$i.schema
    i=$((i + 1))
done
printf 'struct D40 { x: u8; }\n' >d40.schema
expect_err import_depth 1 'error: imports nested too deeply (more than 32 files)' "$BLOBC" check d0.schema
