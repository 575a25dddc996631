# verify -s judges the schema's value checks: a blob baked with a loose
# schema (or before a check was tightened) fails against the stricter one
# with every failing value at its path, in the bake's words (golden
# stderr), exit 1; @path only with --assets; --max-errors; shared payloads
# judged once and deep chains walked without recursion, in bounded time;
# verify without -s is unchanged.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/checks

# Work in $T with the schemas and assets beside the blobs, so messages
# name files as the goldens do.
cp "$D"/*.schema "$T/" && cp -R "$D/assets" "$T/assets" || exit 1
in_t() { (cd "$T" && "$@"); }

expect bake_bad_loose 0 sh -c "cd '$D' && '$BLOBC' bake bad.yaml -s '$T/loose.schema' -o '$T/bad.blob'"
expect bake_good 0 sh -c "cd '$D' && '$BLOBC' bake good.yaml -s items.schema --assets assets -o '$T/good.blob'"

# ---- every failing value, as the bake says it ----
run in_t "$BLOBC" verify -s items.schema --assets assets bad.blob
rc_is bad_exit 1 && same_file bad_golden "$T/err" "$D/verify_bad.expect"
[ -s "$T/out" ] && fail bad_no_ok "$(cat "$T/out")" || pass bad_no_ok
# The same messages the bake gives for the same values, place aside.
(cd "$D" && "$BLOBC" bake bad.yaml -s items.schema --assets assets -o "$T/never.blob") 2>"$T/bake_err"
sed -n 's/^bad\.yaml:[0-9]*:[0-9]*: //p' "$T/bake_err" | sort >"$T/bake_msgs"
sed 's/^bad\.blob: //' "$D/verify_bad.expect" | sort >"$T/verify_msgs"
[ -s "$T/bake_msgs" ] && same_file bad_same_words_as_bake "$T/verify_msgs" "$T/bake_msgs"

# A check tightened after the bake: the stricter schema refuses the blob
# the looser one baked (defaults baked then are judged too).
run in_t "$BLOBC" verify -s tight.schema --assets assets good.blob
rc_is tight_exit 1 && same_file tight_golden "$T/err" "$D/verify_tight.expect"
expect good_passes 0 in_t "$BLOBC" verify -s items.schema --assets assets good.blob
grep -qx 'good.blob: ok' "$T/out" && pass good_ok_line || fail good_ok_line "$(cat "$T/out")"

# ---- @path only with --assets ----
run in_t "$BLOBC" verify -s items.schema bad.blob
rc_is no_assets_exit 1 && { grep -q '@path' "$T/err" && fail no_assets_no_path "$(grep '@path' "$T/err")" ||
    pass no_assets_no_path; }
n=$(grep -c ': error: ' "$T/err")
[ "$n" -eq 12 ] && pass no_assets_others_judged || fail no_assets_others_judged "$n errors"
mkdir "$T/empty"
expect good_no_assets 0 in_t "$BLOBC" verify -s items.schema good.blob
expect_err good_wrong_assets 1 \
    'good.blob: items[0].icon: error: "sword.png" names no file: empty/icons/sword.png is not there (@path("icons/", ".png"))' \
    in_t "$BLOBC" verify -s items.schema --assets empty good.blob
expect_err assets_needs_schema 2 "--assets needs -s SCHEMA" in_t "$BLOBC" verify --assets assets good.blob
expect_err assets_not_dir 2 "--assets 'items.schema' is not a directory" \
    in_t "$BLOBC" verify -s items.schema --assets items.schema good.blob

# ---- how many are listed ----
run in_t "$BLOBC" verify -s items.schema --assets assets --max-errors 2 bad.blob
rc_is max_errors_exit 1 && { n=$(grep -c ': items\[' "$T/err"); [ "$n" -eq 2 ] &&
    grep -qx 'bad.blob: error: too many errors; stopping here: 13 more not shown (--max-errors 0 shows all)' "$T/err" &&
    pass max_errors_two || fail max_errors_two "$n errors: $(head -c 300 "$T/err")"; }
expect_err max_errors_bad 2 "--max-errors needs a count" in_t "$BLOBC" verify -s items.schema --max-errors x bad.blob
# --json: every failing value in the blob's one line, with its stable code.
run in_t "$BLOBC" verify -s items.schema --assets assets --json bad.blob
n=$(grep -o '"code":"value-check"' "$T/out" | wc -l)
rc_is json_exit 1 && [ "$n" -eq 15 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && grep -qF '"path":"items[0].name"' "$T/out" &&
    grep -q '^{"file":"bad.blob","ok":false,"errors":\[{.*}\]}$' "$T/out" && pass json_every_failure || fail json_every_failure "$n: $(head -c 300 "$T/out")"

# ---- verify without -s is unchanged: checks are not in the blob ----
expect no_schema_passes 0 in_t "$BLOBC" verify bad.blob
grep -qx 'bad.blob: ok' "$T/out" && [ ! -s "$T/err" ] && pass no_schema_quiet || fail no_schema_quiet "$(cat "$T/out" "$T/err")"

# ---- bounded on shared payloads and deep chains ----
# A 40-level DAG: each list holds two nodes whose kids are one shared list,
# 2^40 paths. Each list is judged once: two failing nodes a level.
printf 'struct Node { v: i32; kids: [Node]; }\nroot Node;\n' >"$T/dag_loose.schema"
printf 'struct Node { @range(0, 5) v: i32; kids: [Node]; }\nroot Node;\n' >"$T/dag.schema"
awk 'BEGIN { l = "&L1 [{v: 9, kids: []}, {v: 9, kids: []}]"
    for (k = 2; k <= 40; k++) l = "&L" k " [{v: 9, kids: " l "}, {v: 9, kids: *L" (k - 1) "}]"
    print "v: 1\nkids: " l }' >"$T/dag.yaml"
expect dag_bake 0 "$BLOBC" bake "$T/dag.yaml" -s "$T/dag_loose.schema" -o "$T/dag.blob"
run timeout 20 "$BLOBC" verify -s "$T/dag.schema" --max-errors 0 "$T/dag.blob"
rc_is dag_exit 1 && { n=$(grep -c 'error: 9 is out of @range(0, 5)$' "$T/err"); [ "$n" -eq 80 ] &&
    grep -q ': kids\[1\]\.v: error' "$T/err" && pass dag_each_once || fail dag_each_once "$n errors"; }

# A 9,000-deep *M chain, every level failing, and one failing only at the
# bottom, whose path is cut to its end.
printf 'struct M { v: i32 = 0; a: *M; }\nroot M;\n' >"$T/deep_loose.schema"
printf 'struct M { @range(0, 5) v: i32 = 0; a: *M; }\nroot M;\n' >"$T/deep.schema"
awk 'BEGIN { printf "a: "; for (i = 0; i < 9000; i++) printf "{v: 9, a: "; printf "{v: 9}";
    for (i = 0; i < 9000; i++) printf "}"; print "" }' >"$T/deep.yaml"
awk 'BEGIN { printf "a: "; for (i = 0; i < 9000; i++) printf "{a: "; printf "{v: 7}";
    for (i = 0; i < 9000; i++) printf "}"; print "" }' >"$T/bottom.yaml"
expect deep_bake 0 "$BLOBC" bake "$T/deep.yaml" -s "$T/deep_loose.schema" -o "$T/deep.blob"
expect bottom_bake 0 "$BLOBC" bake "$T/bottom.yaml" -s "$T/deep_loose.schema" -o "$T/bottom.blob"
run timeout 20 "$BLOBC" verify -s "$T/deep.schema" --max-errors 0 "$T/deep.blob"
rc_is deep_exit 1 && { n=$(grep -c 'error: 9 is out of @range(0, 5)$' "$T/err"); [ "$n" -eq 9001 ] &&
    pass deep_every_level || fail deep_every_level "$n errors"; }
run timeout 20 "$BLOBC" verify -s "$T/deep.schema" "$T/bottom.blob"
rc_is bottom_exit 1 && { grep -q '^[^ ]*bottom.blob: \.\.\.[a.]*\.a\.a\.v: error: 7 is out of @range(0, 5)$' "$T/err" &&
    [ "$(wc -l <"$T/err")" -eq 1 ] && pass bottom_path_cut || fail bottom_path_cut "$(head -c 300 "$T/err")"; }

# ---- every place a checked field can be: the bake's paths and words ----
# Inside a map's values (by key), an optional, a list of optionals, a
# union's member (in a field and in a list) and a *T target.
cat >"$T/forms.schema" <<'S'
struct V { @range(0, 1) x: f32; @len(, 2) @match("^a") s: ?string; @range(0, 3) o: [?i32]; }
struct A { @range(0, 1) k: i32; }
struct Bm { @len(1, ) n: string; }
union U { A, Bm }
struct R { m: [string: V]; u: U; us: [U]; p: *V; }
root R;
S
sed 's/@[a-z]*([^)]*) //g' "$T/forms.schema" >"$T/forms_loose.schema"
cat >"$T/forms.yaml" <<'Y'
m: {one: {x: 2, s: bbb, o: [1, null, 9]}, two: {x: 0.5, s: null, o: []}}
u: {A: {k: 5}}
us: [{Bm: {n: ""}}, {A: {k: 0}}]
p: {x: -1, s: abc, o: [4]}
Y
expect forms_bake 0 "$BLOBC" bake "$T/forms.yaml" -s "$T/forms_loose.schema" -o "$T/forms.blob"
(cd "$T" && "$BLOBC" bake forms.yaml -s forms.schema -o never.blob) 2>&1 | sed -n 's/^forms\.yaml:[0-9]*:[0-9]*: //p' >"$T/forms_bake"
run in_t "$BLOBC" verify -s forms.schema forms.blob
rc_is forms_exit 1 && { sed 's/^forms\.blob: //' "$T/err" >"$T/forms_verify"
    [ "$(wc -l <"$T/forms_bake")" -eq 9 ] && same_file forms_as_bake "$T/forms_verify" "$T/forms_bake" ||
        fail forms_as_bake "$(cat "$T/forms_bake")"; }

# A 1 MB string that 40,000 items of 20,000 @unique lists share: its text
# is read once (matched once, hashed once), not once per item.
printf 'struct L { t: [string]; }\nstruct R { s: string; ls: [L]; }\nroot R;\n' >"$T/sh_loose.schema"
printf 'struct L { @unique @match("b") t: [string]; }\nstruct R { s: string; ls: [L]; }\nroot R;\n' >"$T/sh.schema"
awk 'BEGIN { s = "aaaaaaaaaa"; while (length(s) < 1000000) s = s s; print "s: &S " substr(s, 1, 1000000)
    print "ls:"; for (i = 0; i < 20000; i++) print "  - {t: [*S, *S]}" }' >"$T/sh.yaml"
expect shared_text_bake 0 "$BLOBC" bake "$T/sh.yaml" -s "$T/sh_loose.schema" -o "$T/sh.blob"
run timeout 20 "$BLOBC" verify -s "$T/sh.schema" --max-errors 0 "$T/sh.blob"
rc_is shared_text_exit 1 && { n=$(grep -c '"\.\.\. repeats item 0 (@unique)$' "$T/err"); m=$(grep -c 'does not match' "$T/err")
    [ "$n" -eq 20000 ] && [ "$m" -eq 1 ] && pass shared_text_once || fail shared_text_once "$n repeats, $m matches"; }
