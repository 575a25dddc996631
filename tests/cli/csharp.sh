# gen cs beyond one file and beyond Unity: a schema that imports others
# gets one C# file per schema file, named after it, the imported file's
# the same whichever schema it was made from, its types defined once, so
# that any set of generated files compiles together (with Unity's types
# and with blobc's runtime); depfiles; a name that would differ between
# files is refused. Keyed arrays get <field>_Find, references are
# BlobPtr<T>. `gen cs --runtime standalone` compiles with Mono's mcs
# against lib/cs/BlobcRuntime.cs alone for every schema, and reads a
# baked .blob back value for value as dump prints it; Open refuses what
# the C runtime refuses.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
RT=lib/cs/BlobcRuntime.cs

S=$T/schemas
mkdir -p "$S"
cp tests/data/split/*.schema "$S/"

# --- one file per schema file ---
split_outputs cs cs
grep -q '^// Uses the types of common.cs: compile them with this file.$' "$T/one/level.cs" && pass level_names_common ||
    fail level_names_common "$(head -6 "$T/one/level.cs")"
n=$(cat "$T/one/level.cs" "$T/one/common.cs" | grep -c 'public unsafe struct Vec3$')
[ "$n" = 1 ] && pass vec3_defined_once || fail vec3_defined_once "$n definitions"
# [[u16; 3]] in both files: each file's helper is its own
grep -q 'struct Fixed_u16x3_common$' "$T/one/common.cs" && grep -q 'struct Fixed_u16x3_level$' "$T/one/level.cs" &&
    pass helpers_per_file || fail helpers_per_file "$(grep -h 'struct Fixed' "$T/one/"*.cs)"
cp "$T/two/dialogue.cs" "$T/one/"
expect gen_game_file_and_depfile 0 "$BLOBC" gen cs "$S/game.schema" -o "$T/one/game_types.cs" --depfile "$T/one/game.d"
[ -f "$T/one/game_types.cs" ] && [ -f "$T/one/level.cs" ] && pass others_beside_the_file || fail others_beside_the_file "$(ls "$T/one")"
depfile_checks "$T/one/game.d" "$T/one/game_types.cs" "$S/game.schema" "$S/level.schema" \
    "$S/dialogue.schema" "$S/common.schema"
expect_err split_needs_output 2 "give -o FILE or -o DIR/" "$BLOBC" gen cs "$S/level.schema"
# a type whose name would be another's in some file but not in another
printf 'struct BlobArray_ { v: u8; }\n' >"$S/taken.schema"
printf 'import "taken.schema";\nstruct BlobArray { a: BlobArray_; }\nroot BlobArray;\n' >"$S/takes.schema"
mkdir -p "$T/three"
expect_err split_name_depends_on_file 1 "type BlobArray would be named BlobArray__, as BlobArray_ is taken" \
    "$BLOBC" gen cs "$S/takes.schema" -o "$T/three/"
[ -z "$(ls "$T/three")" ] && pass refused_split_writes_nothing || fail refused_split_writes_nothing "$(ls "$T/three")"
expect_err runtime_value 2 "--runtime wants unity or standalone, got 'godot'" \
    "$BLOBC" gen cs "$S/common.schema" --runtime godot
expect_err runtime_only_cs 2 "--runtime applies to gen cs only" "$BLOBC" gen c "$S/common.schema" --runtime unity

if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
    skip csharp "mcs and mono (packages mono-mcs, mono-runtime) are not installed"
    exit 0
fi
MCS="mcs -unsafe -warnaserror+ -nowarn:169,649"

# --- any set of the files compiles together, with either runtime ---
$MCS -target:library -out:"$T/standin.dll" tests/cs/UnityStandIn.cs >"$T/mcs.log" 2>&1 ||
    fail standin "$(head -3 "$T/mcs.log")"
if $MCS -target:library -r:"$T/standin.dll" -out:"$T/all.dll" "$T/one/"*.cs >"$T/mcs.log" 2>&1; then
    pass unity_files_compile_together
else
    fail unity_files_compile_together "$(grep -m3 error "$T/mcs.log")"
fi
mkdir -p "$T/sa"
for s in game level dialogue; do
    "$BLOBC" gen cs "$S/$s.schema" --runtime standalone --namespace Game.Data -o "$T/sa/" 2>"$T/err" ||
        fail "gen_standalone_$s" "$(cat "$T/err")"
done
if $MCS -target:library -out:"$T/sa.dll" "$T/sa/"*.cs "$RT" >"$T/mcs.log" 2>&1; then
    pass standalone_files_compile_together
else
    fail standalone_files_compile_together "$(grep -m3 error "$T/mcs.log")"
fi

# --- the runtime: an XML doc comment on everything public ---
if $MCS -doc:"$T/rt.xml" -target:library -out:"$T/rt.dll" "$RT" >"$T/mcs.log" 2>&1; then
    pass runtime_compiles_documented
else
    fail runtime_compiles_documented "$(grep -m3 -E 'error|warning' "$T/mcs.log")"
fi

# --- every schema, standalone: compiles against the runtime alone ---
ncs=0
for s in schemas/*.schema tests/data/*/*.schema; do
    [ -f "$s" ] || continue
    "$BLOBC" check "$s" >/dev/null 2>&1 || continue
    name=$(echo "$s" | tr '/.' '__')
    rm -rf "$T/every" && mkdir -p "$T/every"
    if ! "$BLOBC" gen cs "$s" --runtime standalone -o "$T/every/gen.cs" 2>"$T/err"; then
        fail "gen_standalone_$name" "$(head -3 "$T/err")"
    elif grep -qE 'global::Unity\.|^using Unity[.;]|\[MayOnlyLiveInBlobStorage\]' "$T/every/"*.cs; then
        fail "standalone_no_unity_$name" "$(grep -m2 -E 'global::Unity\.|^using Unity[.;]|\[MayOnly' "$T/every/"*.cs)"
    elif same_as_reference "same_as_plain_$name" cs "$s" "$T/every/gen.cs" --runtime standalone; then
        ncs=$((ncs + 1))
    elif [ $? -eq 2 ]; then
        :
    elif $MCS -target:library -out:"$T/every/gen.dll" "$T/every/"*.cs "$RT" >"$T/mcs.log" 2>&1; then
        ncs=$((ncs + 1))
    else
        fail "mcs_standalone_$name" "$(grep -m3 error "$T/mcs.log")"
    fi
done
if [ $ncs -ge 10 ]; then pass "standalone_every_schema_$ncs"; else fail standalone_every_schema "only $ncs schemas"; fi

# --- a .blob read back through the standalone structs, every value ---
U=tests/data/unity
"$BLOBC" bake -s "$U/level.schema" "$U/level.yaml" -o "$T/level.blob" 2>"$T/err" || fail bake_level "$(head -3 "$T/err")"
"$BLOBC" gen cs "$U/level.schema" --runtime standalone --namespace Game.Data -o "$T/level.cs"
if $MCS -define:STANDALONE -out:"$T/read.exe" "$T/level.cs" "$RT" tests/cs/ReadLevel.cs >"$T/mcs.log" 2>&1; then
    (cd "$T" && mono read.exe level.blob) >"$T/cs.txt" 2>"$T/err"
    same_values standalone_reads_every_value "$U/level.schema" "$T/level.blob" "$T/cs.txt" $? 90
    # refusals, as the C runtime words them
    "$BLOBC" bake -s "$U/small.schema" "$U/small.yaml" -o "$T/small.blob" 2>"$T/err"
    head -c 100 "$T/level.blob" >"$T/short.blob"
    for c in "small.blob:SchemaHash: blob was baked for a different schema layout" \
        "short.blob:Truncated: file is shorter than its header says" \
        "level.cs:BadMagic: not a blob file (bad magic number)"; do
        f=${c%%:*}
        (cd "$T" && mono read.exe "$f") >/dev/null 2>"$T/err"
        rc=$?
        if [ $rc -eq 1 ] && grep -qF "$f: ${c#*:}" "$T/err"; then pass "standalone_refuses_${f%%.*}"; else
            fail "standalone_refuses_${f%%.*}" "exit $rc: $(head -c 300 "$T/err")"
        fi
    done
else
    fail standalone_reader_compiles "$(grep -m5 error "$T/mcs.log")"
fi

# --- game data: <field>_Find over every kind of key, references as
# BlobPtr<T> followed to their items: what gen c's lookup prints ---
GD=tests/data/gamedata
"$BLOBC" bake "$GD/game.yaml" -o "$T/game.blob" 2>"$T/err" || fail bake_game "$(head -3 "$T/err")"
"$BLOBC" gen cs "$GD/game.schema" --runtime standalone -o "$T/game.cs" 2>"$T/err" || fail gen_game "$(head -3 "$T/err")"
if $MCS -out:"$T/lookup.exe" "$T/game.cs" "$RT" tests/cs/Lookup.cs >"$T/mcs.log" 2>&1; then
    (cd "$T" && mono lookup.exe game.blob) >"$T/lookup.txt" 2>"$T/err"
    [ $? -eq 0 ] && pass lookup_runs || fail lookup_runs "$(head -c 400 "$T/err")"
    same_file lookup_finds_as_gen_c "$T/lookup.txt" "$GD/lookup.expect"
else
    fail lookup_compiles "$(grep -m5 error "$T/mcs.log")"
fi
