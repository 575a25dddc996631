# Diagnostics that protect the author: bounded work on hostile flow
# nesting, several errors per run in document order, syntax errors before
# data errors, and JSON syntax errors at the offending token.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
printf 'struct M { a: *M; l: [u8]; }\nroot M;\n' >m.schema

# ---- bounded work on deep flow nesting ----
# 9,000 flow mappings around a 400,000-item flow list: refused at the event
# that uses up the flow budget, with a located error, on either thread.
sh "$TOP/tests/tools/gen_flow.sh" 9000 400000 >hostile.yaml
want='hostile.yaml:2:98460: error: too much inside flow collections ([...], {...}) nested deeper than 64 levels (9002 here): write the outer levels in block style'
for mode in threaded one_thread; do
    opt=
    [ "$mode" = one_thread ] && opt=--one-thread
    run "$BLOBC" bake $opt hostile.yaml -o out.blob
    got=$(head -1 "$T/err")
    if [ "$RC" -ne 1 ]; then fail "flow_budget_$mode" "exit $RC, want 1: $got"
    elif [ "$got" != "$want" ]; then fail "flow_budget_$mode" "got '$got'"
    else pass "flow_budget_$mode"; fi
    absent "flow_budget_no_output_$mode" out.blob
done
# Deep flow nesting with little inside stays accepted (what dump writes
# for deep chains), and so does a long list under shallow nesting.
sh "$TOP/tests/tools/gen_flow.sh" 3000 3 >chain.yaml
expect flow_deep_chain_ok 0 "$BLOBC" bake chain.yaml -o chain.blob
sh "$TOP/tests/tools/gen_flow.sh" 60 100000 >wide.yaml
expect flow_long_list_ok 0 "$BLOBC" bake wide.yaml -o wide.blob

# ---- several errors per run ----
cd "$TOP" || exit 1
bad=tests/bad/data
# Every error of the file, in document order, each located with its
# source line; exit 1 and no output.
run "$BLOBC" bake "$bad/several_errors.yaml" -o "$T/out.blob"
if [ "$RC" -ne 1 ]; then fail several_errors_rc "exit $RC, want 1"; else pass several_errors_rc; fi
same_file several_errors_stderr "$T/err" tests/data/diag/several_errors.stderr
absent several_errors_no_output "$T/out.blob"
# The limit: N errors, then one line that counts the rest.
run "$BLOBC" bake --max-errors 3 "$bad/several_errors.yaml" -o "$T/out.blob"
same_file max_errors_3_stderr "$T/err" tests/data/diag/several_errors_max3.stderr
# 0 is no limit; so is a limit above the count.
run "$BLOBC" bake --max-errors 0 "$bad/several_errors.yaml" -o "$T/out.blob"
same_file max_errors_0_stderr "$T/err" tests/data/diag/several_errors.stderr
expect_err max_errors_not_a_number 2 "--max-errors needs a count (0 for no limit), got 'x'" \
    "$BLOBC" bake --max-errors x "$bad/several_errors.yaml" -o "$T/out.blob"
expect_err max_errors_signed 2 "--max-errors needs a count (0 for no limit), got '+3'" \
    "$BLOBC" bake --max-errors +3 "$bad/several_errors.yaml" -o "$T/out.blob"
expect_err jobs_signed 2 "-j needs a number from 1 to 1024, got '+2'" \
    "$BLOBC" bake -j +2 "$bad/several_errors.yaml" -o "$T/out.blob"
# JSON too: all six errors, one line each.
run "$BLOBC" bake "$bad/json_several_errors.json" -o "$T/out.blob"
n=$(grep -c ': error: ' "$T/err")
[ "$RC" -eq 1 ] && [ "$n" -eq 6 ] && pass json_several_errors || fail json_several_errors "exit $RC, $n errors, want 1 and 6"

# The same errors whether libyaml parses on a second thread (inputs of
# 1 MiB or more) or not: 3,000 rooms, every 100th with three mistakes.
awk -v schema="$TOP/schemas/level.schema" 'BEGIN {
    print "$schema: " schema
    print "index: 1\nname: big\nsize_m: 1.0\nseed: 5"
    print "origin: {position: {x: 0, y: 0, z: 0}, rotation: [0, 0, 0, 1]}"
    print "rooms:"
    for (i = 0; i < 3000; i++) {
        bad = i % 100 == 7
        printf "  - id: %d\n    name: \"room %d %s\"\n", bad ? -i : i, i, sprintf("%0300d", i)
        printf "    kind: %s\n", bad ? "wal" : "wall"
        print "    center: {x: 1.5, y: 2.5, z: 3.5}\n    weights: [1, 2, 3, 4]"
        if (bad) print "    colour: red"
    }
}' >"$T/big_errors.yaml"
size=$(wc -c <"$T/big_errors.yaml")
[ "$size" -ge 1048576 ] && pass big_input_is_threaded || fail big_input_is_threaded "only $size bytes"
run "$BLOBC" bake --max-errors 0 "$T/big_errors.yaml" -o "$T/out.blob"
cp "$T/err" "$T/threaded.err"
run "$BLOBC" bake --max-errors 0 --one-thread "$T/big_errors.yaml" -o "$T/out.blob"
same_file threaded_same_errors "$T/err" "$T/threaded.err"
n=$(grep -c ': error: ' "$T/err")
[ "$n" -eq 90 ] && pass big_all_errors || fail big_all_errors "$n errors, want 90"
run "$BLOBC" bake "$T/big_errors.yaml" -o "$T/out.blob"
tail -1 "$T/err" >"$T/last"
echo "$T/big_errors.yaml: error: too many errors; stopping here: 70 more not shown (--max-errors 0 shows all)" >"$T/want"
same_file big_default_limit "$T/last" "$T/want"

# ---- syntax first ----
# An indentation slip: libyaml closes the mapping early (which once gave a
# missing field lines before) and fails at the slipped line; only the
# syntax error is reported, with or without a limit.
for opt in --max-errors=20 --max-errors=1; do
    run "$BLOBC" bake "$opt" "$bad/indent_slip.yaml" -o "$T/out.blob"
    got=$(grep -v '^ ' "$T/err")
    want="$bad/indent_slip.yaml:14:4: error: invalid YAML: did not find expected '-' indicator (while parsing a block collection at $bad/indent_slip.yaml:8:3)"
    [ "$RC" -eq 1 ] && [ "$got" = "$want" ] && pass "syntax_first$opt" || fail "syntax_first$opt" "exit $RC: $got"
done

# ---- second places ----
# A message that points at a second place (a first declaration, an anchor,
# the construct a syntax error is in) names it as file:line:col, through
# blobc_place: no message in lib/ spells out a line number on its own.
own=$(grep -n '"[^"]*\(at line\|line %\|, column %\)' "$TOP"/lib/*/*.c |
    grep -v 'lib/common/error.c:[0-9]*: *else snprintf(buf, cap, "line %u, column %u"' | tr '\n' ';')
[ -z "$own" ] && pass second_place_through_blobc_place || fail second_place_through_blobc_place "$own"
# and each kind, in one file and across an import, names the file
printf 'struct P { x: u8; }\nenum E : u8 { a, b }\n' >"$T/first.schema"
n=0
for second in 'struct P { y: u8; }' 'root P;\nroot P;' 'struct Q { x: u8; x: u8; }' \
    'enum F : u8 { a, a }' 'union U { P, P }'; do
    n=$((n + 1))
    printf "import \"first.schema\";\n$second\n" >"$T/second$n.schema"
    run "$BLOBC" check "$T/second$n.schema"
    head -1 "$T/err" | grep -q " at $T/[a-z0-9]*\.schema:[0-9]*:[0-9]*)$" && pass "second_place_$n" ||
        fail "second_place_$n" "$(head -1 "$T/err")"
done
printf 'struct S { a: [u8]; b: u8; }\nroot S;\n' >"$T/s.schema"
printf '$schema: s.schema\na: &x [1, 2\nb: 3\n' >"$T/syn.yaml"
expect_err second_place_yaml_context 1 "(while parsing a flow sequence at $T/syn.yaml:2:7)" "$BLOBC" bake "$T/syn.yaml" -o "$T/o.blob"
printf 'struct T { a: [u8]; b: u16; }\nroot T;\n' >"$T/t.schema"
printf '$schema: t.schema\na: &x [1, 2]\nb: *x\n' >"$T/al.yaml"
run "$BLOBC" bake "$T/al.yaml" -o "$T/o.blob"
head -1 "$T/err" | grep -q "anchored at $T/al.yaml:2:4)" && pass second_place_alias ||
    fail second_place_alias "$(head -1 "$T/err")"
