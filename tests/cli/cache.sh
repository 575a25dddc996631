# The content-addressed cache in a directory: a hit skips the parse, every
# change that changes the bytes misses, concurrent writers leave only
# whole entries, and a bad entry is a warning and a normal bake.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples
C=$T/cache
cp "$TOP/schemas/level.schema" "$T/level.schema"
sed -e 's|^\$schema: .*|$schema: level.schema|' "$S/level.yaml" >"$T/level.yaml"
"$BLOBC" bake "$T/level.yaml" -o "$T/want.blob" || fail setup "plain bake failed"

# verbose_is NAME WORD : the last bake's -v line says WORD (baked / cached).
verbose_is() {
    if grep -q ": $2 " "$T/err"; then pass "$1"; else fail "$1" "want '$2'; stderr: $(cat "$T/err")"; fi
}

expect miss_first 0 "$BLOBC" bake -v --cache "$C" "$T/level.yaml" -o "$T/a.blob"
verbose_is miss_first_baked baked
same_file miss_output "$T/a.blob" "$T/want.blob"
expect hit_second 0 "$BLOBC" bake -v --cache "$C" "$T/level.yaml" -o "$T/b.blob"
verbose_is hit_second_cached cached
same_file hit_output "$T/b.blob" "$T/want.blob"
expect hit_env 0 env BLOBC_CACHE="$C" "$BLOBC" bake -v "$T/level.yaml" -o "$T/b.blob"
verbose_is hit_env_cached cached
expect no_cache 0 env BLOBC_CACHE="$C" "$BLOBC" bake -v --no-cache "$T/level.yaml" -o "$T/b.blob"
verbose_is no_cache_baked baked

# A hit does not parse the data: the stats count it, and the parse's own
# work (here, a schema that is read but a data error that would be found
# late) never happens. The plan reads only the meta keys.
expect stats 0 "$BLOBC" cache stats "$C"
grep -q '^entries: 1$' "$T/out" && grep -q '^hits: 2$' "$T/out" && grep -q '^misses: 1$' "$T/out" &&
    pass stats_counts || fail stats_counts "$(cat "$T/out")"

# Everything that decides the bytes is in the key.
expect miss_strip 0 "$BLOBC" bake -v --cache "$C" --strip "$T/level.yaml" -o "$T/s.blob"
verbose_is miss_strip_baked baked
expect miss_raw 0 "$BLOBC" bake -v --cache "$C" --format raw "$T/level.yaml" -o "$T/r.bin"
verbose_is miss_raw_baked baked
sed -e 's/^index: 3/index: 4/' "$T/level.yaml" >"$T/level4.yaml"
expect miss_input 0 "$BLOBC" bake -v --cache "$C" "$T/level4.yaml" -o "$T/l4.blob"
verbose_is miss_input_baked baked
# A comment in the schema changes its text, not its meaning: a hit.
printf '// a comment\n' >>"$T/level.schema"
expect hit_comment 0 "$BLOBC" bake -v --cache "$C" "$T/level.yaml" -o "$T/b.blob"
verbose_is hit_comment_cached cached
# Renaming a field changes the type description (names are in the blob).
sed -i 's/\bgravity\b/gravity2/' "$T/level.schema"
sed -e 's/^gravity:/gravity2:/' "$T/level.yaml" >"$T/level-r.yaml"
expect miss_schema 0 "$BLOBC" bake -v --cache "$C" "$T/level-r.yaml" -o "$T/lr.blob"
verbose_is miss_schema_baked baked
cp "$TOP/schemas/level.schema" "$T/level.schema"

# A bad entry is a warning and a normal bake, and the entry is replaced.
C1=$T/cache1
"$BLOBC" bake --cache "$C1" "$T/level4.yaml" -o "$T/l4.blob"
other=$(find "$C1" -type f -path '*/[0-9a-f][0-9a-f]/*')
"$BLOBC" bake --cache "$C1" "$T/level.yaml" -o "$T/c.blob"
entry=$(find "$C1" -type f -path '*/[0-9a-f][0-9a-f]/*' ! -name "$(basename "$other")")
cp "$entry" "$T/entry.good"
printf '\377' | dd of="$entry" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_err corrupt_warns 0 "warning: cache entry rejected (verification failed" \
    "$BLOBC" bake -v --cache "$C1" "$T/level.yaml" -o "$T/c.blob"
verbose_is corrupt_baked baked
same_file corrupt_output "$T/c.blob" "$T/want.blob"
cmp -s "$entry" "$T/entry.good" && pass corrupt_entry_replaced || fail corrupt_entry_replaced "entry not rewritten"
head -c 100 "$T/entry.good" >"$entry"
expect_err truncated_warns 0 "cache entry rejected" "$BLOBC" bake --cache "$C1" "$T/level.yaml" -o "$T/c.blob"
same_file truncated_output "$T/c.blob" "$T/want.blob"
# A valid entry of another key under this key's name.
cp "$other" "$entry"
expect_err wrong_key_warns 0 "it holds another key" "$BLOBC" bake --cache "$C1" "$T/level.yaml" -o "$T/c.blob"
same_file wrong_key_output "$T/c.blob" "$T/want.blob"
# Forged entries: the right key and head, a blob that verifies against the
# schema's layout, but other names in its type description (a field, a
# type, an enum member, the recorded schema name). The verifier checks the
# layout only, so the type section must equal the one this bake writes,
# byte for byte, or dump would print the forged names.
# entry_of BLOB OUT : an entry of BLOB under the real entry's key (its
# magic and key, then BLOB's length and bytes).
entry_of() {
    len=$(wc -c <"$1")
    {
        head -c 24 "$T/entry.good"
        i=0
        while [ $i -lt 8 ]; do
            # shellcheck disable=SC2059
            printf "\\$(printf %o $(((len >> (8 * i)) & 255)))"
            i=$((i + 1))
        done
        cat "$1"
    } >"$2"
}
# forge NAME SCHEMA_EDIT DATA_EDIT : the real entry replaced by the blob of
# the edited schema and data (same layout, same data section).
forge() {
    mkdir -p "$T/forge"
    sed -e "$2" "$T/level.schema" >"$T/forge/level.schema"
    sed -e 's|^\$schema:.*|$schema: level.schema|' -e "$3" "$T/level.yaml" >"$T/forge/level.yaml"
    if ! "$BLOBC" bake "$T/forge/level.yaml" -o "$T/forge/f.blob" 2>"$T/forge/err" ||
        cmp -s "$T/forge/f.blob" "$T/want.blob"; then
        fail "forged_$1_setup" "no forged blob: $(cat "$T/forge/err")"
        return
    fi
    entry_of "$T/forge/f.blob" "$entry"
    expect_err "forged_$1_warns" 0 "cache entry rejected (its type description is not the one this bake writes)" \
        "$BLOBC" bake -v --cache "$C1" "$T/level.yaml" -o "$T/c.blob"
    verbose_is "forged_$1_baked" baked
    same_file "forged_$1_output" "$T/c.blob" "$T/want.blob"
    cmp -s "$entry" "$T/entry.good" && pass "forged_$1_entry_replaced" || fail "forged_$1_entry_replaced" "entry not rewritten"
}
forge field 's/gravity/gravitz/' 's/^gravity:/gravitz:/'
forge type 's/Vec3/Vec4/g' ''
forge member 's/stairs/stairz/' 's/kind: stairs/kind: stairz/'
forge schema_name '' 's|^\$schema:.*|$schema: ../forge/level.schema|'

# A hit on an entry only this user can write (the cache directory, its
# ab/ and the entry theirs, writable by no group or other) is checked
# where it lies and copied file to file: copy_file_range where the kernel
# can, else (BLOBC_COPY=plain, or Windows) read and written in pieces
# whose data-section hash is checked on the way. Both give the bake's
# bytes; a damaged data section is refused by both before the output is
# given its name. An entry bigger than one piece (256 KiB) is used.
CP=$T/cache-private
mkdir -p "$CP" && chmod 755 "$CP"
printf 'struct R { id: u32; name: string; xs: [u32]; }\nstruct L { rooms: [R]; }\nroot L;\n' >"$T/big.schema"
awk 'BEGIN { print "$schema: big.schema"; print "rooms:";
    for (i = 0; i < 10000; i++) printf "  - {id: %d, name: room%d, xs: [%d, %d, %d]}\n", i, i, i, i + 1, i * 7 }' \
    >"$T/big.yaml"
"$BLOBC" bake "$T/big.yaml" -o "$T/big.want" || fail big_setup "plain bake failed"
"$BLOBC" bake -q --cache "$CP" "$T/big.yaml" -o "$T/big.got"
EP=$(find "$CP" -type f -path '*/[0-9a-f][0-9a-f]/*')
chmod 644 "$EP" && chmod 755 "$(dirname "$EP")"
cp "$EP" "$T/big.entry"
[ "$(wc -c <"$EP")" -gt 300000 ] && pass private_entry_size || fail private_entry_size "$(wc -c <"$EP") bytes"
for mode in kernel plain; do
    copy=; [ $mode = plain ] && copy=plain
    expect "private_hit_$mode" 0 env BLOBC_COPY=$copy "$BLOBC" bake -v --cache "$CP" "$T/big.yaml" -o "$T/big.$mode"
    verbose_is "private_hit_${mode}_cached" cached
    same_file "private_hit_${mode}_bytes" "$T/big.$mode" "$T/big.want"
    # a byte of the data section, deep in the entry (past the first piece)
    cp "$T/big.entry" "$EP"
    printf '\125' | dd of="$EP" bs=1 seek=300000 conv=notrunc 2>/dev/null
    cp "$T/big.want" "$T/big.$mode"
    expect_err "private_damaged_$mode" 0 "cache entry rejected (verification failed: the data section does not hash" \
        env BLOBC_COPY=$copy "$BLOBC" bake -v --cache "$CP" "$T/big.yaml" -o "$T/big.$mode"
    verbose_is "private_damaged_${mode}_baked" baked
    same_file "private_damaged_${mode}_bytes" "$T/big.$mode" "$T/big.want"
    cmp -s "$EP" "$T/big.entry" && pass "private_damaged_${mode}_replaced" ||
        fail "private_damaged_${mode}_replaced" "entry not rewritten"
done
# to standard output (never read back before it is seen): checked in
# memory first, damaged or not
run env "$BLOBC" bake --cache "$CP" "$T/big.yaml" -o -
cmp -s "$T/out" "$T/big.want" && pass private_hit_stdout || fail private_hit_stdout "stdout differs"
printf '\125' | dd of="$EP" bs=1 seek=300000 conv=notrunc 2>/dev/null
expect_err private_damaged_stdout 0 "cache entry rejected (verification failed" \
    "$BLOBC" bake --cache "$CP" "$T/big.yaml" -o -
cmp -s "$T/out" "$T/big.want" && pass private_damaged_stdout_bytes || fail private_damaged_stdout_bytes "stdout differs"
# Which way each took, by its system calls: copy_file_range only for the
# private hit; the plain copy and a directory that others can write (its
# entries read whole and verified in full, as before) never use it.
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
    calls() { strace -f -e trace=copy_file_range,pread64 -o "$T/trace" "$@" 2>/dev/null >/dev/null
        grep -c "^[0-9 ]*copy_file_range(" "$T/trace"; }
    [ "$(calls "$BLOBC" bake -q --cache "$CP" "$T/big.yaml" -o "$T/big.got")" -ge 1 ] &&
        pass private_uses_copy_file_range || fail private_uses_copy_file_range "$(head -5 "$T/trace")"
    same_file private_copy_bytes "$T/big.got" "$T/big.want"
    [ "$(calls env BLOBC_COPY=plain "$BLOBC" bake -q --cache "$CP" "$T/big.yaml" -o "$T/big.got")" -eq 0 ] &&
        pass plain_no_copy_file_range || fail plain_no_copy_file_range "$(grep copy_file_range "$T/trace" | head -2)"
    same_file plain_copy_bytes "$T/big.got" "$T/big.want"
    chmod g+w "$CP"
    [ "$(calls "$BLOBC" bake -q --cache "$CP" "$T/big.yaml" -o "$T/big.got")" -eq 0 ] &&
        grep -q "pread64(.*, $(($(wc -c <"$T/big.entry") - 32)), 32)" "$T/trace" &&
        pass shared_dir_read_whole || fail shared_dir_read_whole "$(grep -v 'resumed' "$T/trace" | tail -3)"
    same_file shared_dir_bytes "$T/big.got" "$T/big.want"
    chmod g-w "$CP"
else
    skip private_uses_copy_file_range "strace cannot run here"
fi

# A cache that cannot be written is a warning, never a failed bake.
expect_err unwritable_cache 0 "warning" "$BLOBC" bake --cache /proc/blobc-cache "$T/level.yaml" -o "$T/u.blob"
same_file unwritable_output "$T/u.blob" "$T/want.blob"

# 16 processes writing one cache at once (half of them the same keys):
# only whole, valid entries are left, and no temporary files.
C2=$T/cache2
mkdir -p "$T/many"
cp "$T/level.schema" "$T/many/"
i=0
while [ $i -lt 16 ]; do
    sed -e "s/^index: 3/index: $((i % 8))/" "$T/level.yaml" >"$T/many/l$i.yaml"
    i=$((i + 1))
done
i=0
while [ $i -lt 16 ]; do
    "$BLOBC" bake -q --cache "$C2" "$T/many/l$i.yaml" -o "$T/many/l$i.blob" 2>>"$T/many.err" &
    i=$((i + 1))
done
wait
[ "$(find "$C2" -path '*/[0-9a-f][0-9a-f]/*' -type f | wc -l)" -eq 8 ] && pass concurrent_entries ||
    fail concurrent_entries "$(find "$C2" -type f | wc -l) files"
[ -z "$(find "$C2" -name '.*' -type f)" ] && pass concurrent_no_temp || fail concurrent_no_temp "$(find "$C2" -name '.*')"
[ ! -s "$T/many.err" ] && pass concurrent_no_warnings || fail concurrent_no_warnings "$(head -3 "$T/many.err")"
mkdir -p "$T/again"
expect concurrent_all_hit 0 "$BLOBC" bake -v --cache "$C2" -o "$T/again" "$T"/many/l*.yaml
[ "$(grep -c ': cached ' "$T/err")" -eq 16 ] && ! grep -q warning "$T/err" && pass concurrent_entries_valid ||
    fail concurrent_entries_valid "$(grep -c ': cached ' "$T/err") cached; $(grep warning "$T/err" | head -2)"
ok=0
for f in "$T"/many/l*.blob; do cmp -s "$f" "$T/again/$(basename "$f")" && ok=$((ok + 1)); done
[ $ok -eq 16 ] && pass concurrent_outputs_equal || fail concurrent_outputs_equal "$ok of 16"

# cache prune: least recently used first, down to the size asked.
expect prune 0 "$BLOBC" cache prune --max-size 5K "$C2"
sz=$(find "$C2" -path '*/[0-9a-f][0-9a-f]/*' -type f -exec cat {} + | wc -c)
[ "$sz" -le 5120 ] && [ "$sz" -gt 0 ] && pass prune_size || fail prune_size "$sz bytes left"
expect_err prune_needs_size 2 "--max-size" "$BLOBC" cache prune "$C2"
expect_err cache_bad_sub 2 "unknown subcommand 'zap'" "$BLOBC" cache zap "$C2"

# libcurl is loaded only for an HTTP cache: the binary does not need it
# (on Windows: blobc.exe imports no libcurl DLL).
OBJDUMP=${CROSS:-x86_64-w64-mingw32-}objdump
if windows_build && command -v "$OBJDUMP" >/dev/null 2>&1; then
    "$OBJDUMP" -p "$WIN_BUILD/blobc.exe" | grep 'DLL Name' >"$T/dlls"
    if ! grep -q 'KERNEL32' "$T/dlls"; then fail no_libcurl_at_start "no imports read: $(cat "$T/dlls")"
    elif grep -qi 'curl' "$T/dlls"; then fail no_libcurl_at_start "$(grep -i curl "$T/dlls")"
    else pass no_libcurl_at_start; fi
elif windows_build; then
    skip no_libcurl_at_start "$OBJDUMP not installed (make deps installs it with mingw-w64)"
elif command -v ldd >/dev/null 2>&1; then
    if ldd "$BLOBC" | grep -q 'libcurl'; then fail no_libcurl_at_start "$(ldd "$BLOBC" | grep libcurl)"
    else pass no_libcurl_at_start; fi
else
    skip no_libcurl_at_start "no ldd"
fi
