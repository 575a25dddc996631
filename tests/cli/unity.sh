# Unity blob asset files and `gen cs`: bake --format unity gives the
# golden bytes (header fields, hash, padding, data); the hash is
# xxHash32 as xxhsum -H0 computes it, for data of many lengths; verify
# and dump read the files (named or recognised) and refuse every broken
# header field; `gen cs` output of every schema compiles with Mono's mcs
# against tests/cs/UnityStandIn.cs, lays every struct out as `blobc check`
# says, and reads a baked level back value for value as dump prints it.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
U=tests/data/unity
CS=tests/cs

have() { command -v "$1" >/dev/null 2>&1; }

# u32le FILE OFFSET / u64le FILE OFFSET: a little-endian field, in decimal
u32le() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64le() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
# xxh32 FILE OFFSET: xxhsum -H0 of the file from OFFSET on, as a decimal
xxh32() { printf '%d' "0x$(tail -c +$(($2 + 1)) "$1" | xxhsum -H0 - | cut -d' ' -f1)"; }
# le32 N: N as four bytes, little-endian, for printf
le32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
# patch FILE OFFSET BYTES: overwrite in place (BYTES as printf escapes)
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

# --- golden bytes ---
expect bake_padded 0 "$BLOBC" bake --format unity --unity-version 1 "$U/small.yaml" -o "$T/small.bytes"
same_file golden_padded "$T/small.bytes" "$U/small.bytes"
expect bake_exact 0 "$BLOBC" bake --format unity --unity-version 1 --unity-length exact "$U/small.yaml" -o "$T/exact.bytes"
same_file golden_exact "$T/exact.bytes" "$U/small-exact.bytes"
run "$BLOBC" bake --format unity --unity-version 1 --unity-length 0.17 "$U/small.yaml" -o "$T/r017.bytes"
same_file release_017_is_exact "$T/r017.bytes" "$U/small-exact.bytes"
run "$BLOBC" bake --format unity --unity-version 1 --unity-length 1.3 "$U/small.yaml" -o "$T/r13.bytes"
same_file release_13_is_padded "$T/r13.bytes" "$U/small.bytes"
run "$BLOBC" bake --format raw "$U/small.yaml" -o "$T/small.bin"
G=$U/small.bytes
field() {
    if [ "$3" = "$4" ]; then pass "$1"; else fail "$1" "$2 is $3, want $4"; fi
}
field header_version version "$(u32le "$G" 0)" 1
field header_validation_ptr ValidationPtr "$(u64le "$G" 4)" 0
field header_length Length "$(u32le "$G" 12)" 48
field header_allocator_none Allocator "$(u32le "$G" 16)" 1
field header_padding Padding "$(u64le "$G" 28)" 0
field file_size size "$(wc -c <"$G" | tr -d ' ')" 84
field exact_length "Length (exact)" "$(u32le "$U/small-exact.bytes" 12)" 36
tail -c +37 "$G" | head -c 36 >"$T/data"
same_file data_is_raw_section "$T/data" "$T/small.bin"
field zero_padding "bytes 72..83" "$(tail -c 12 "$G" | od -An -tx1 | tr -d ' \n')" 000000000000000000000000

# --- the hash is xxHash32 with seed 0 (xxhsum -H0) ---
if have xxhsum; then
    field hash_small Hash "$(u64le "$G" 20)" "$(xxh32 "$G" 36)"
    field hash_exact Hash "$(u64le "$U/small-exact.bytes" 20)" "$(xxh32 "$U/small-exact.bytes" 36)"
    printf 'struct Bytes { b: [u8]; }\nroot Bytes;\n' >"$T/bytes.schema"
    # data of 8 + n bytes: every length mod 4 and mod 16, and past xxHash32's 16-byte stripes
    nok=0
    nbad=0
    for n in 1 2 3 4 5 7 8 9 15 16 17 23 24 25 31 33 57 100 1000; do
        printf 'b: [' >"$T/b.yaml"
        i=0
        while [ $i -lt $n ]; do printf '%d,' $(((i * 37 + n) % 256)) >>"$T/b.yaml"; i=$((i + 1)); done
        printf ']\n' >>"$T/b.yaml"
        "$BLOBC" bake -s "$T/bytes.schema" --format unity --unity-version 0 --unity-length exact \
            "$T/b.yaml" -o "$T/b.bytes" 2>"$T/err" || { nbad=$((nbad + 1)); continue; }
        len=$(u32le "$T/b.bytes" 12)
        if [ "$len" -ne $((8 + n)) ] || [ "$(u64le "$T/b.bytes" 20)" != "$(xxh32 "$T/b.bytes" 36)" ]; then
            nbad=$((nbad + 1))
            echo "length $len: Hash $(u64le "$T/b.bytes" 20), xxhsum $(xxh32 "$T/b.bytes" 36)" >>"$T/hashlog"
        else
            nok=$((nok + 1))
        fi
    done
    if [ $nbad -eq 0 ] && [ $nok -eq 19 ]; then pass hash_is_xxh32_19_lengths; else
        fail hash_is_xxh32_19_lengths "$nbad of 19 differ: $(head -3 "$T/hashlog" 2>/dev/null)"
    fi
else
    skip hash_xxhsum "xxhsum (package xxhash) is not installed"
fi

# --- verify and dump read them ---
expect verify_recognised 0 "$BLOBC" verify -s "$U/small.schema" "$G"
expect verify_named 0 "$BLOBC" verify --format unity -s "$U/small.schema" "$G" "$U/small-exact.bytes"
expect verify_version 0 "$BLOBC" verify --unity-version 1 -s "$U/small.schema" "$G"
expect_err verify_other_version 1 "bad-version: version 1; TryRead with version 2 refuses it" \
    "$BLOBC" verify --unity-version 2 -s "$U/small.schema" "$G"
expect_err verify_padded_rule 1 "Length 36 is not a multiple of 16" \
    "$BLOBC" verify --unity-length padded -s "$U/small.schema" "$U/small-exact.bytes"
expect verify_exact_rule 0 "$BLOBC" verify --unity-length 0.17 -s "$U/small.schema" "$U/small-exact.bytes"
expect_err verify_no_schema 1 "no-types: a Unity blob asset file has no type description" \
    "$BLOBC" verify "$G"
expect_err verify_named_no_schema 2 "a Unity file needs -s SCHEMA" "$BLOBC" verify --format unity "$G"
expect_err verify_other_schema 1 "data-size: data section is 48 bytes, smaller than the root Node" \
    "$BLOBC" verify -s tests/data/bake/node.schema "$G"
expect_err verify_blob_as_unity 1 "ValidationPtr" \
    "$BLOBC" verify --format unity -s schemas/level.schema tests/data/golden/level-json.blob
expect_err verify_bad_format 2 "unknown format 'yaml'" "$BLOBC" verify --format yaml "$G"

run "$BLOBC" dump -s "$U/small.schema" "$G"
cp "$T/out" "$T/dump.yaml"
run "$BLOBC" dump --raw -s "$U/small.schema" "$T/small.bin"
same_file dump_equals_raw_dump "$T/dump.yaml" "$T/out"
run "$BLOBC" dump --format unity -s "$U/small.schema" "$U/small-exact.bytes"
same_file dump_exact "$T/dump.yaml" "$T/out"
expect_err dump_no_schema 2 "a Unity file needs -s SCHEMA" "$BLOBC" dump --format unity "$G"
run "$BLOBC" dump --map -s "$U/small.schema" "$G"
if grep -q 'header.Length = 48' "$T/out" && grep -q 'header.Allocator = 1' "$T/out" &&
    grep -q '## data: 48 bytes at 0x00000024, root Small' "$T/out" &&
    grep -q '^0x00000048      12  00 .*(padding up to Length)' "$T/out"; then pass dump_map_header; else
    fail dump_map_header "$(head -12 "$T/out")"
fi
# the map of the round trip: dump's YAML bakes to the same file
"$BLOBC" bake --format unity --unity-version 1 -s "$U/small.schema" "$T/dump.yaml" -o "$T/again.bytes" 2>"$T/err"
same_file dump_bakes_back "$T/again.bytes" "$G"

# --- broken files ---
broken() { # NAME OFFSET BYTES TEXT
    cp "$G" "$T/bad.bytes"
    patch "$T/bad.bytes" "$2" "$3"
    expect_err "$1" 1 "$4" "$BLOBC" verify --format unity -s "$U/small.schema" "$T/bad.bytes"
}
broken bad_validation_ptr 4 '\001' "bad-header: ValidationPtr is 0x1"
broken bad_allocator 16 '\004' "bad-header: Allocator is 4"
broken bad_padding_field 28 '\001' "bad-header: the header's Padding is not zero"
broken bad_hash_high 24 '\001' "has upper bits set"
broken bad_hash 20 '\000' "data-hash: Hash is"
broken bad_data 40 '\001' "data-hash"
broken length_long 12 '\100' "truncated: Length is 64, but only 48 bytes follow"
broken length_short 12 '\040' "bad-header: 16 trailing bytes after the 32 bytes"
broken length_zero 12 '\000' "data-size: Length is 0"
broken length_negative 15 '\200' "data-size: Length is -2147483600"
# a nonzero byte in the padding behind the data, with a matching hash
if have xxhsum; then
    cp "$G" "$T/bad.bytes"
    patch "$T/bad.bytes" 80 '\001'
    patch "$T/bad.bytes" 20 "$(le32 "$(xxh32 "$T/bad.bytes" 36)")"
    expect_err bad_tail_padding 1 "padding: nonzero byte in the padding after the last payload" \
        "$BLOBC" verify -s "$U/small.schema" "$T/bad.bytes"
    # and a hash mismatch alone no longer makes it a Unity file: a hint
    patch "$T/bad.bytes" 20 '\000'
    expect_err unrecognised_hint 1 "looks like a Unity blob asset's" \
        "$BLOBC" verify -s "$U/small.schema" "$T/bad.bytes"
fi
head -c 30 "$G" >"$T/short.bytes"
expect_err short_file 1 "shorter than the 36 bytes" \
    "$BLOBC" verify --format unity -s "$U/small.schema" "$T/short.bytes"

# --- payloads in other orders than blobc's: Unity's BlobBuilder lays them
# out in the order a baker allocates them. Sound files are read whatever the
# order; overlapping, misaligned or hidden bytes are refused; .blob files and
# raw sections keep the canonical rule. ---
L=$T/layouts
mkdir -p "$L"
LAYOUTS=${BUILD:-build}/tools/unity_layouts
if "$LAYOUTS" "$L" 200000 2>"$T/err"; then
    O=$U/order.schema
    run "$BLOBC" bake --format unity --unity-version 1 "$U/order.yaml" -o "$T/order.bytes"
    same_file layouts_canonical_is_bake "$L/canonical.bytes" "$T/order.bytes"
    run "$BLOBC" dump -s "$O" "$T/order.bytes"
    cp "$T/out" "$T/order.yaml"
    for n in reverse bfs interleaved; do
        expect "order_${n}_verifies" 0 "$BLOBC" verify -s "$O" "$L/$n.bytes"
        expect "order_${n}_dumps" 0 "$BLOBC" dump -s "$O" "$L/$n.bytes"
        same_file "order_${n}_same_values" "$T/out" "$T/order.yaml"
        # the map lists the data by address: every line's offset after the last
        run "$BLOBC" dump --map -s "$O" "$L/$n.bytes"
        if [ "$RC" -eq 0 ] && awk '/^0x/ { a = $1 ""; if (a < last) bad = 1; last = a }
            END { exit bad }' "$T/out" && grep -q 'title: string bytes = "orders"' "$T/out"; then
            pass "order_${n}_map_by_address"
        else
            fail "order_${n}_map_by_address" "exit $RC: $(head -c 300 "$T/err")"
        fi
    done
    expect order_shared_verifies 0 "$BLOBC" verify -s "$O" "$L/shared.bytes"
    run "$BLOBC" dump -s "$O" "$L/shared.bytes"
    if grep -q '^tags: \["x", \*a1, "zzz"\]$' "$T/out" && grep -q '^  vals: \*a2$' "$T/out"; then
        pass order_shared_dump_aliases; else fail order_shared_dump_aliases "$(cat "$T/out")"
    fi
    cp "$T/out" "$T/shared.yaml"
    run "$BLOBC" bake --format unity --unity-version 1 -s "$O" "$T/shared.yaml" -o "$T/shared-again.bytes"
    run "$BLOBC" dump -s "$O" "$T/shared-again.bytes"
    same_file order_shared_bakes_back "$T/out" "$T/shared.yaml"
    expect_err order_overlap_refused 1 \
        "offset 0x8c (tags[1]): error: overlap: string target 0x41 (3 x string byte) overlaps the payload at 0x40" \
        "$BLOBC" verify -s "$O" "$L/overlap.bytes"
    expect_err order_inside_refused 1 \
        "offset 0x34 (best): error: overlap: pointer target 0x5c (1 x Item) overlaps the payload at 0x48" \
        "$BLOBC" verify -s "$O" "$L/inside.bytes"
    expect_err order_misaligned_refused 1 "misaligned: array target 0x8b is not aligned to 2" \
        "$BLOBC" verify -s "$O" "$L/misaligned.bytes"
    expect_err order_gap_byte_refused 1 "padding: nonzero byte 0x5a outside every payload" \
        "$BLOBC" verify -s "$O" "$L/gap.bytes"
    expect order_gap_byte_exact_rule 0 "$BLOBC" verify --unity-length exact -s "$O" "$L/gap.bytes"
    run "$BLOBC" dump --map -s "$O" "$L/overlap.bytes"
    if [ "$RC" -eq 1 ] && grep -q '<-- overlap: string target 0x41' "$T/out"; then pass order_overlap_map; else
        fail order_overlap_map "exit $RC: $(tail -3 "$T/out")"
    fi
    # the same data as a raw section (or in a .blob) must be canonical
    len=$(u32le "$L/reverse.bytes" 12)
    tail -c +37 "$L/reverse.bytes" | head -c "$len" >"$T/reverse.raw"
    expect_err order_raw_is_canonical 1 "string target 0x98 is not where the next payload goes (0x1c)" \
        "$BLOBC" dump --raw -s "$O" "$T/reverse.raw"
    # 200,000 strings laid out backwards, and 200,000 references to one
    # string: linear work (tests/unit/test_anyorder.c counts it)
    expect order_many_reverse 0 "$BLOBC" verify -s "$O" "$L/many-reverse.bytes"
    expect order_many_shared 0 "$BLOBC" verify -s "$O" "$L/many-shared.bytes"
else
    fail layouts_tool "$(head -3 "$T/err")"
fi

# --- the bake cache keeps Unity files apart by version and length rule ---
run "$BLOBC" bake --cache "$T/cache" -v --format unity --unity-version 1 "$U/small.yaml" -o "$T/c1.bytes"
run "$BLOBC" bake --cache "$T/cache" -v --format unity --unity-version 1 "$U/small.yaml" -o "$T/c2.bytes"
if grep -q cached "$T/err"; then pass cache_hit; else fail cache_hit "$(cat "$T/err")"; fi
same_file cache_hit_bytes "$T/c2.bytes" "$G"
run "$BLOBC" bake --cache "$T/cache" -v --format unity --unity-version 2 "$U/small.yaml" -o "$T/c3.bytes"
field cache_other_version version "$(u32le "$T/c3.bytes" 0)" 2
run "$BLOBC" bake --cache "$T/cache" -v --format unity --unity-version 1 --unity-length exact "$U/small.yaml" -o "$T/c4.bytes"
same_file cache_other_length "$T/c4.bytes" "$U/small-exact.bytes"

# --- bake usage ---
expect_err bake_needs_version 2 "--format unity needs --unity-version N" \
    "$BLOBC" bake --format unity "$U/small.yaml" -o "$T/x.bytes"
absent bake_needs_version_no_output "$T/x.bytes"
expect_err bake_bad_version 2 "--unity-version wants a 32-bit integer, got '1x'" \
    "$BLOBC" bake --format unity --unity-version 1x "$U/small.yaml" -o "$T/x.bytes"
expect_err bake_version_range 2 "got '2147483648'" \
    "$BLOBC" bake --format unity --unity-version 2147483648 "$U/small.yaml" -o "$T/x.bytes"
expect_err bake_bad_length 2 "--unity-length wants padded, exact" \
    "$BLOBC" bake --format unity --unity-version 1 --unity-length tight "$U/small.yaml" -o "$T/x.bytes"
expect_err bake_release_too_old 2 "Entities 0.2 wrote another header" \
    "$BLOBC" bake --format unity --unity-version 1 --unity-length 0.2 "$U/small.yaml" -o "$T/x.bytes"
run "$BLOBC" bake --format unity --unity-version 1 --unity-length 0.3 "$U/small.yaml" -o "$T/r03.bytes"
same_file release_03_is_exact "$T/r03.bytes" "$U/small-exact.bytes"
expect_err bake_version_alone 2 "go with --format unity" \
    "$BLOBC" bake --unity-version 1 "$U/small.yaml" -o "$T/x.bytes"
expect bake_negative_version 0 "$BLOBC" bake --format unity --unity-version -7 "$U/small.yaml" -o "$T/neg.bytes"
field negative_version version "$(od -An -td4 -N4 "$T/neg.bytes" | tr -d ' ')" -7
cp "$U/small.yaml" "$U/small.schema" "$T/"
expect bake_default_name 0 "$BLOBC" bake --format unity --unity-version 1 "$T/small.yaml"
same_file default_name_bytes "$T/small.bytes" "$G"
expect_err gen_cs_bad_namespace 2 "namespace 'Game..Data' is not a C# namespace name" \
    "$BLOBC" gen cs "$U/small.schema" --namespace Game..Data
expect_err gen_cs_keyword_namespace 2 "is not a C# namespace name" \
    "$BLOBC" gen cs "$U/small.schema" --namespace Game.class
expect_err gen_c_namespace 2 "--namespace applies to gen cpp and gen cs" "$BLOBC" gen c "$U/small.schema" --namespace X

# --- gen cs golden ---
run "$BLOBC" gen cs "$U/level.schema" --namespace Game.Data
same_file gen_cs_golden "$T/out" "$U/level.cs"

# --- C#: compiles, lays out as blobc does, reads the values ---
if ! have mcs || ! have mono; then
    skip csharp "mcs and mono (packages mono-mcs, mono-runtime) are not installed"
    exit 0
fi
MCS="mcs -unsafe -warnaserror+ -nowarn:169,649"
if $MCS -target:library -out:"$T/standin.dll" "$CS/UnityStandIn.cs" >"$T/mcs.log" 2>&1; then
    pass standin_compiles
else
    fail standin_compiles "$(head -5 "$T/mcs.log")"
fi
mcs -r:"$T/standin.dll" -out:"$T/layout.exe" "$CS/Layout.cs" >"$T/mcs.log" 2>&1 ||
    fail layout_tool "$(head -5 "$T/mcs.log")"

# blobc check's layout (its output on stdin) as "Type size N" /
# "Type.field offset" lines, names without trailing `_`s as Layout.cs
# prints them (a schema type named like gen cs's helpers, Fixed_*,
# *_entry, *_opt and BlobAny*, is left out, as they are)
check_layout() {
    awk '
function plain(s) { t = s; sub(/_+$/, "", t); return t == "" ? "_" : t }
/^(@[a-z]+(\([^)]*\))? )*struct / { for (i = 1; $i != "struct"; i++) ; n = $(i + 1); s = $0
    sub(/.*\(size /, "", s); sub(/,.*/, "", s); n = plain(n); if (n ~ /^(Fixed_|BlobAny)|_(entry|opt)$/) { n = ""; next }
    print n " size " s; next }
/^union / { s = $0; sub(/.*\(size /, "", s); sub(/,.*/, "", s); u = plain($2); print u " size " s
    print u ".tag 0"; print u ".offset 4"; n = ""; next }
/^[^ ]/ { n = "" }
n != "" && /^ +[0-9]+ +[0-9]+  [^(]/ { for (i = 3; $i ~ /^@/; i++) ; f = $i; sub(/:.*/, "", f)
    print n "." plain(f) " " $1 }' | LC_ALL=C sort
}

# one schema in one variant: gen cs, mcs, and the layout the runtime gives
# every struct against blobc's; prints its PASS/FAIL lines
one_variant() { # SCHEMA NAME VARIANT DIR GEN-OPTIONS...
    s=$1 name=$2 variant=$3 d=$4
    shift 4
    mkdir -p "$d"
    rm -f "$d"/*.cs
    cp "$T/standin.dll" "$T/layout.exe" "$d/"
    # a schema that imports others: one file per schema file, compiled together
    if ! "$BLOBC" gen cs "$s" "$@" -o "$d/gen.cs" 2>"$d/err"; then
        fail "gen_cs_${variant}_$name" "$(head -3 "$d/err")"
        return
    fi
    same_as_reference "same_as_plain_${variant}_$name" cs "$s" "$d/gen.cs" "$@"
    case $? in
    0)  # and blobc check prints the layout the plain build's does, which
        # make check compares with the runtime's
        if cmp -s "$T/check.lay" "$T/ref.lay"; then pass "layout_${variant}_$name"; else
            fail "layout_${variant}_$name" "blobc check differs from the plain build's: $(diff "$T/check.lay" "$T/ref.lay" | head -4)"
        fi
        return ;;
    2) return ;;
    esac
    if ! $MCS -target:library -r:"$d/standin.dll" -out:"$d/gen.dll" "$d"/*.cs >"$d/mcs.log" 2>&1; then
        fail "mcs_${variant}_$name" "$(grep -m3 error "$d/mcs.log")"
        return
    fi
    pass "mcs_${variant}_$name"
    (cd "$d" && mono layout.exe gen.dll) >"$d/cs.lay" 2>"$d/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$d/cs.lay" "$T/check.lay"; then
        pass "layout_${variant}_$name"
    else
        fail "layout_${variant}_$name" "exit $rc $(head -c 200 "$d/err"); $(diff "$d/cs.lay" "$T/check.lay" | head -6)"
    fi
}

ncs=0
for s in schemas/*.schema tests/data/*/*.schema; do
    [ -f "$s" ] || continue
    "$BLOBC" check "$s" >"$T/check.txt" 2>/dev/null || continue
    name=$(echo "$s" | tr '/.' '__')
    # blobc check's layout, the same for every variant
    tr -d '\r' <"$T/check.txt" | check_layout >"$T/check.lay"
    [ -z "${REF_BLOBC:-}" ] || "$REF_BLOBC" check "$s" | check_layout >"$T/ref.lay"
    # the variants side by side: mcs is the slow part
    one_variant "$s" "$name" plain "$T/v.plain" >"$T/v.plain.out" &
    one_variant "$s" "$name" ns "$T/v.ns" --namespace Game.System.Unity >"$T/v.ns.out" &
    one_variant "$s" "$name" nomath "$T/v.nomath" --no-mathematics >"$T/v.nomath.out"
    wait
    cat "$T/v.plain.out" "$T/v.ns.out" "$T/v.nomath.out"
    ncs=$((ncs + 1))
done
if [ $ncs -ge 5 ]; then pass gen_cs_every_schema; else fail gen_cs_every_schema "only $ncs schemas"; fi

# doc comments that hold what ends a comment or a line: golden, and
# well-formed XML documentation (mcs -doc makes every malformed one a
# warning, and warnings are errors)
G=tests/data/gen
run "$BLOBC" gen cs "$G/hostile_docs.schema"
same_file gen_cs_hostile_docs_golden "$T/out" "$G/hostile_docs.cs.expect"
cp "$T/out" "$T/docs.cs"
if $MCS -nowarn:1591 -doc:"$T/docs.xml" -target:library -r:"$T/standin.dll" -out:"$T/docs.dll" \
    "$T/docs.cs" >"$T/mcs.log" 2>&1; then pass gen_cs_hostile_docs_xml; else
    fail gen_cs_hostile_docs_xml "$(grep -m3 -E 'error|warning' "$T/mcs.log")"
fi

# a DOTS-style reader: TryRead, then every value through the generated structs
"$BLOBC" bake --format unity --unity-version 7 "$U/level.yaml" -o "$T/level.bytes" 2>"$T/err" ||
    fail bake_level "$(head -3 "$T/err")"
"$BLOBC" gen cs "$U/level.schema" --namespace Game.Data -o "$T/level.cs"
if $MCS -r:"$T/standin.dll" -out:"$T/read.exe" "$T/level.cs" "$CS/ReadLevel.cs" >"$T/mcs.log" 2>&1; then
    (cd "$T" && mono read.exe level.bytes 7) >"$T/cs.txt" 2>"$T/err"
    same_values csharp_reads_every_value "$U/level.schema" "$T/level.bytes" "$T/cs.txt" $? 90
    (cd "$T" && mono read.exe level.bytes 8) >/dev/null 2>"$T/err"
    if [ $? -eq 1 ] && grep -q "TryRead refused" "$T/err"; then pass csharp_tryread_version; else
        fail csharp_tryread_version "a file of version 7 was read as version 8"
    fi
else
    fail csharp_reader_compiles "$(grep -m5 error "$T/mcs.log")"
fi
