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
want='hostile.yaml:2:32769: error: too much inside flow collections ([...], {...}) nested deeper than 64 levels (8192 here): write the outer levels in block style'
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
