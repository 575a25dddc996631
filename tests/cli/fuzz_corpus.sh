# The fuzz targets' seeds and regression cases, replayed through each
# target's own code built as a plain program (tests/fuzz/replay.c; under
# make asan with the sanitizers, as the fuzzer runs it): every input a
# target once crashed on (tests/fuzz/regress/TARGET) must pass for good.
# Also: the committed blob seeds are what the bake seeds give now.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
. tests/fuzz/seeds.sh
BUILD=${BUILD:-build}
for t in fuzz_bake fuzz_csv fuzz_dump fuzz_schema fuzz_size fuzz_verify; do
    bin=$BUILD/fuzz-replay/$t
    if [ ! -x "$bin" ]; then
        fail "$t" "$bin is not built (make check builds it)"
        continue
    fi
    # shellcheck disable=SC2046
    run "$bin" $(fuzz_seeds "$t")
    n=$(sed -n 's/^\([0-9]*\) inputs$/\1/p' "$T/out")
    if [ "$RC" -ne 0 ]; then
        fail "$t" "exit $RC on $(grep '^replay: ' "$T/err" | tail -1 | cut -c9-): $(grep -v '^replay: ' "$T/err" | head -3)"
    elif [ "${n:-0}" -lt 5 ]; then
        fail "$t" "only ${n:-0} inputs replayed: the corpus is missing"
    else
        pass "$t"
    fi
done
# Regression cases are named after the finding, not the fuzzer's hash.
for d in tests/fuzz/regress/*/; do
    [ -d "$d" ] || continue
    case "$(basename "$d")" in fuzz_bake | fuzz_csv | fuzz_dump | fuzz_schema | fuzz_size | fuzz_verify) ;;
    *) fail regress_dirs "$d is no fuzz target's" ;;
    esac
done
mkdir -p "$T/gen"
if "$BUILD/tools/gen_fuzz_corpus" tests/fuzz/corpus/fuzz_bake "$T/gen" 2>"$T/err" &&
    diff -r "$T/gen" tests/fuzz/corpus/fuzz_verify >"$T/out" 2>&1; then
    pass blob_seeds_up_to_date
else
    fail blob_seeds_up_to_date "regenerate with $BUILD/tools/gen_fuzz_corpus tests/fuzz/corpus/fuzz_bake tests/fuzz/corpus/fuzz_verify: $(head -3 "$T/out" "$T/err")"
fi
