# The Windows build makes the Linux build's bytes: every golden file the
# suites compare against (tests/data/golden/, samples/level.blob), and every
# YAML and JSON input of samples/ and tests/data/ baked both ways (plain,
# --strip, --format raw, --format unity) and dumped back, byte for byte.
. "$(dirname "$0")/../cli/lib.sh"
if ! windows_build; then
    skip win_golden "the Windows build under Wine (make check-windows)"
    exit 0
fi
L=${LINUX_BLOBC:-$TOP/build/blobc}
if [ ! -x "$L" ]; then
    fail linux_build "$L is not built (make check-windows builds it first)"
    exit 0
fi
S=$TOP/samples
G=$TOP/tests/data/golden
expect golden_level 0 "$BLOBC" bake "$S/level.yaml" -o "$T/level.blob"
same_file golden_level_bytes "$T/level.blob" "$S/level.blob"
expect golden_json 0 "$BLOBC" bake "$S/level.json" -o "$T/level-json.blob"
same_file golden_json_bytes "$T/level-json.blob" "$G/level-json.blob"
expect golden_strip 0 "$BLOBC" bake --strip "$S/level.yaml" -o "$T/level-strip.blob"
same_file golden_strip_bytes "$T/level-strip.blob" "$G/level-strip.blob"
expect golden_raw 0 "$BLOBC" bake --format raw "$S/level.yaml" -o "$T/level.bin"
same_file golden_raw_bytes "$T/level.bin" "$G/level.bin"

# Every input: whatever Linux makes of it (a blob, or an error and its
# text), Windows makes too.
n=0
bad=""
for f in "$S"/*.yaml "$S"/*.json "$TOP"/tests/data/*/*.yaml "$TOP"/tests/data/*/*.json; do
    [ -f "$f" ] || continue
    base=$(echo "${f#"$TOP"/}" | tr / _)
    sch=""
    [ -f "${f%.*}.schema" ] && sch="${f%.*}.schema"
    for mode in plain strip raw unity; do
        case $mode in plain) opt="" ;; strip) opt="--strip" ;; raw) opt="--format raw" ;; unity) opt="--format unity" ;; esac
        # shellcheck disable=SC2086
        "$L" bake $opt ${sch:+-s "$sch"} "$f" -o "$T/$base.$mode.l" >/dev/null 2>"$T/$base.$mode.le"
        lrc=$?
        # shellcheck disable=SC2086
        "$BLOBC" bake $opt ${sch:+-s "$sch"} "$f" -o "$T/$base.$mode.w" >/dev/null 2>"$T/$base.$mode.we"
        wrc=$?
        n=$((n + 1))
        if [ $lrc -ne $wrc ]; then
            bad="$bad $base/$mode(exit $lrc vs $wrc: $(head -c 300 "$T/$base.$mode.we" | tr '\n' ' '))"
        elif [ $lrc -eq 0 ] && ! cmp -s "$T/$base.$mode.l" "$T/$base.$mode.w"; then
            bad="$bad $base/$mode(bytes)"
        elif [ $lrc -ne 0 ] && ! cmp -s "$T/$base.$mode.le" "$T/$base.$mode.we"; then
            bad="$bad $base/$mode(message)"
        fi
        # The same blob dumped by both (a stripped one needs its schema).
        if [ $lrc -eq 0 ] && { [ $mode = plain ] || { [ $mode = strip ] && [ -n "$sch" ]; }; }; then
            dopt=""
            [ $mode = strip ] && dopt="-s $sch"
            # shellcheck disable=SC2086
            "$L" dump $dopt "$T/$base.$mode.l" >"$T/d.l" 2>&1
            # shellcheck disable=SC2086
            "$BLOBC" dump $dopt "$T/$base.$mode.l" >"$T/d.w" 2>&1
            cmp -s "$T/d.l" "$T/d.w" || bad="$bad $base/$mode(dump)"
        fi
    done
done
[ $n -ge 40 ] || fail bakes_compared "only $n bakes"
echo "# $n bakes compared with Linux's"
if [ -z "$bad" ]; then pass same_as_linux; else fail same_as_linux "$bad"; fi
