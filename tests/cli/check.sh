# blobc check: the layout report on stdout with exit 0, lint warnings that
# do not change the exit code, and every bad schema in tests/bad/schema
# failing with exit 1 and exactly its expected error on stderr.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/schema

# The golden report, printed for the file name given on the command line.
cp "$D/report.schema" "$T/report.schema"
if (cd "$T" && "$BLOBC" check report.schema >out 2>err); then pass report_exit; else
    fail report_exit "exit $?; stderr: $(head -c 400 "$T/err")"
fi
same_file report_golden "$T/out" "$D/report.expect"
[ -s "$T/err" ] && fail report_quiet_stderr "$(head -c 400 "$T/err")" || pass report_quiet_stderr

expect level 0 "$BLOBC" check "$TOP/schemas/level.schema"
grep -q '^root Level  (size [0-9]*, align [0-9]*, schema hash 0x[0-9a-f]\{16\})$' "$T/out" &&
    pass level_root_line || fail level_root_line "$(grep root "$T/out")"
grep -q 'level.schema: 9 types, [0-9]* warnings\?$' "$T/out" && pass level_summary ||
    fail level_summary "$(tail -1 "$T/out")"

# A schema with nothing to warn about.
printf 'struct V { x: f32; y: f32; }\nroot V;\n' >"$T/clean.schema"
expect clean 0 "$BLOBC" check "$T/clean.schema"
tail -1 "$T/out" | grep -q 'clean.schema: 1 type, 0 warnings$' && pass clean_summary ||
    fail clean_summary "$(tail -1 "$T/out")"

# Every bad schema: exit 1, the exact message with source line and caret.
n=0
for f in "$TOP"/tests/bad/schema/*.schema; do
    name=$(basename "$f" .schema)
    n=$((n + 1))
    (cd "$TOP" && "$BLOBC" check "tests/bad/schema/$name.schema" >"$T/out" 2>"$T/err")
    rc=$?
    if [ "$rc" -ne 1 ]; then fail "bad_$name" "exit $rc, want 1"; continue; fi
    if [ -s "$T/out" ]; then fail "bad_$name" "wrote to stdout"; continue; fi
    if cmp -s "$T/err" "$TOP/tests/bad/schema/$name.expect"; then pass "bad_$name"; else
        fail "bad_$name" "stderr: $(head -c 300 "$T/err")"
    fi
done
[ "$n" -ge 50 ] && pass bad_corpus_size || fail bad_corpus_size "only $n bad schemas"

expect_err missing 2 "nothing.schema" "$BLOBC" check "$T/nothing.schema"
expect_err two_operands 2 "expected one schema" "$BLOBC" check "$T/clean.schema" "$T/clean.schema"
