# The inputs each fuzz target starts from (sourced by tests/fuzz/run.sh and
# tests/cli/fuzz_corpus.sh): its seed corpus in tests/fuzz/corpus/TARGET,
# the crashes it once found in tests/fuzz/regress/TARGET (each a
# regression case), and inputs the tree holds anyway. fuzz_dump and
# fuzz_size read the blobs fuzz_verify starts from. Prints one existing path a line.
fuzz_seeds() { # target
    for p in "tests/fuzz/corpus/$1" "tests/fuzz/regress/$1"; do
        [ -d "$p" ] && echo "$p"
    done
    case "$1" in
    fuzz_verify | fuzz_dump | fuzz_size)
        [ "$1" != fuzz_verify ] && echo tests/fuzz/corpus/fuzz_verify
        [ "$1" != fuzz_verify ] && [ -d tests/fuzz/regress/fuzz_verify ] && echo tests/fuzz/regress/fuzz_verify
        ls samples/*.blob tests/data/*/*.blob tests/bad/blob/*.blob 2>/dev/null
        ;;
    fuzz_csv)
        ls tests/data/csv/*.csv tests/data/csv/*.tsv 2>/dev/null
        ;;
    fuzz_schema)
        ls schemas/*.schema tests/data/*/*.schema tests/bad/schema/*.schema 2>/dev/null
        ;;
    esac
    return 0
}
