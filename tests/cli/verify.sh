# blobc verify over the bad-blob corpus (tests/bad/blob): a fresh run of
# its generator gives the committed bytes, each bad case exits 1 naming
# its code (in text and in --json), each valid one exits 0, and several
# files at once report each and exit 1 if any fails.
. "$(dirname "$0")/lib.sh"
C=$TOP/tests/bad/blob
GEN=$TOP/$BUILD/tools/gen_bad_blobs

# --- the corpus is what the generator writes ---
mkdir "$T/gen"
if "$GEN" "$T/gen" 2>"$T/err"; then
    if diff -r "$T/gen" "$C" >"$T/diff" 2>&1; then pass corpus_up_to_date; else
        fail corpus_up_to_date "regenerate with $GEN tests/bad/blob: $(head -3 "$T/diff")"
    fi
else
    fail corpus_up_to_date "generator failed: $(head -c 300 "$T/err")"
fi

# --- every case, by its MANIFEST line ---
n=0
while read -r name code schema type; do
    case "$name" in '#'* | '') continue ;; esac
    n=$((n + 1))
    set -- "$BLOBC" verify --json
    [ -n "$schema" ] && [ "$schema" != - ] && set -- "$@" -s "$C/$schema"
    [ -n "$type" ] && set -- "$@" -t "$type"
    run "$@" "$C/$name"
    base=${name%.blob}
    if [ "$code" = ok ]; then
        if [ "$RC" -eq 0 ] && grep -q '"ok":true' "$T/out"; then pass "$base"; else
            fail "$base" "exit $RC, want 0: $(head -c 300 "$T/out")"
        fi
    elif [ "$RC" -eq 1 ] && grep -q "\"code\":\"$code\"" "$T/out"; then
        pass "$base"
    else
        fail "$base" "exit $RC, want 1 with code $code: $(head -c 300 "$T/out") $(head -c 200 "$T/err")"
    fi
done <"$C/MANIFEST"
[ "$n" -ge 40 ] && pass corpus_size || fail corpus_size "only $n cases"

# --- the text form names the code, the offset and the path ---
expect_err text_bool 1 "bool" "$BLOBC" verify "$C/bool_2.blob"
grep -q 'bool_2.blob: offset 0x[0-9a-f]* (rooms\[1\]\.lit): error: bool' "$T/err" && pass text_bool_place ||
    fail text_bool_place "$(cat "$T/err")"
expect_err text_utf8_in_tag 1 "(rooms[2].tags[1])" "$BLOBC" verify "$C/utf8_in_tag.blob"
expect_err text_cycle 1 "cycle" "$BLOBC" verify "$C/cycle_two.blob"

# --- several files: each reported, exit 1 when any fails ---
expect many_files 1 "$BLOBC" verify "$C/valid_level.blob" "$C/bool_2.blob" "$C/chain_ok.blob"
grep -q "valid_level.blob: ok" "$T/out" && grep -q "chain_ok.blob: ok" "$T/out" &&
    grep -q "bool_2.blob" "$T/err" && pass many_files_each_reported ||
    fail many_files_each_reported "out: $(cat "$T/out") err: $(cat "$T/err")"
expect many_files_ok 0 "$BLOBC" verify "$C/valid_level.blob" "$C/dag_shared_40_ok.blob"
