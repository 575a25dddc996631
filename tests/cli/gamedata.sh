# Game data end to end: keys and references. check's listing; the sample
# baked from YAML (item variants by merge keys) and JSON (written out) to
# the same bytes (keyed arrays sorted, forward references and a cycle
# resolved, an omitted all-default struct); verify;
# dump as YAML and JSON against golden files (references as keys) and
# re-baked identical; upgrade and verify --against carrying references;
# dump --map naming each reference's item; lookups through gen c and gen
# cpp; and the located errors
# (duplicate keys naming both places, dangling keys with a did-you-mean
# and each one's path,
# null where none is allowed, keys in error without made-up duplicates)
# against golden stderr.
. "$(dirname "$0")/lib.sh"
G=$TOP/tests/data/gamedata
cp "$G/game.schema" "$G/game.yaml" "$G/game.json" "$G/bad_keys.yaml" "$G/bad_keys.json" \
    "$G/bad_merge.yaml" "$G/bad_key_values.yaml" "$G/bad_key_values.json" \
    "$G/ref_paths.schema" "$G/bad_ref_paths.yaml" "$G/bad_ref_paths.json" \
    "$G/int_keys.schema" "$G/int_keys.yaml" "$G/bad_int_map.yaml" "$T/"
cd "$T" || exit 1

# --- check ---
expect check_runs 0 "$BLOBC" check game.schema
same_file check_listing "$T/out" "$G/check.expect"

# --- bake, verify, dump, re-bake ---
expect bake_yaml 0 "$BLOBC" bake game.yaml -o y.blob
expect bake_json 0 "$BLOBC" bake game.json -o j.blob
same_file yaml_json_same_bytes y.blob j.blob
expect verify 0 "$BLOBC" verify y.blob
expect dump_yaml 0 "$BLOBC" dump y.blob
cp "$T/out" dump.yaml
same_file dump_yaml_golden dump.yaml "$G/dump.yaml.expect"
expect dump_json 0 "$BLOBC" dump --json y.blob
cp "$T/out" dump.json
same_file dump_json_golden dump.json "$G/dump.json.expect"
expect rebake_yaml 0 "$BLOBC" bake dump.yaml -o y2.blob
same_file rebake_yaml_identical y2.blob y.blob
expect rebake_json 0 "$BLOBC" bake dump.json -o j2.blob
same_file rebake_json_identical j2.blob y.blob
# a stripped blob dumps the same through the schema
expect bake_stripped 0 "$BLOBC" bake --strip game.yaml -o s.blob
expect dump_stripped 0 "$BLOBC" dump -s game.schema s.blob
same_file dump_stripped_same "$T/out" "$G/dump.yaml.expect"

# keyed arrays come out sorted whatever the input order (ids 3 5 7, then
# 1 11; names ask bye start; depths -1 0 2)
sed -n '1,/^loot:/p' dump.yaml | grep -E '^  - (id|name|kind|depth):' | sed 's/^  - //; s/[" ]//g' |
    tr '\n' ' ' >keys.txt
want='id:3 id:5 id:7 id:1 id:11 id:13 name:ask name:bye name:start kind:weapon kind:armor kind:potion depth:-1 depth:0 depth:2 '
[ "$(cat keys.txt)" = "$want" ] && pass sorted_by_key || fail sorted_by_key "$(cat keys.txt)"

# --- the value stream: upgrade and verify --against carry references ---
expect upgrade_same 0 "$BLOBC" upgrade y.blob -s game.schema -o up.blob
same_file upgrade_identical up.blob y.blob
expect against 0 "$BLOBC" verify --against game.yaml y.blob
sed 's/best: 7/best: 5/' game.yaml >changed.yaml
expect_err against_changed_ref 1 "loot[0].best" "$BLOBC" verify --against changed.yaml y.blob

# --- dump --map names the item each reference lands on ---
expect map 0 "$BLOBC" dump --map y.blob
grep -F 'dialogue[2].next: &Node' "$T/out" | grep -q '(item 0 of the \[Node\]' &&
    pass map_ref_target || fail map_ref_target "$(grep -F 'next: &Node' "$T/out" | head -3)"

# --- errors, located, several per run, golden ---
run "$BLOBC" bake bad_keys.yaml -o bad.blob
rc_is bad_keys_yaml_exit_1 1 && pass bad_keys_yaml_exit_1
same_file bad_keys_yaml_stderr "$T/err" "$G/bad_keys.yaml.expect"
absent bad_keys_no_output bad.blob
run "$BLOBC" bake bad_keys.json -o bad.blob
rc_is bad_keys_json_exit_1 1 && pass bad_keys_json_exit_1
same_file bad_keys_json_stderr "$T/err" "$G/bad_keys.json.expect"
# integer keys of every sign and size sorted as numbers (i64 and u64
# extremes, keys that differ only in high digits), and a map's duplicate
# key naming the first of the two
expect int_keys_bake 0 "$BLOBC" bake int_keys.yaml -o ik.blob
expect int_keys_dump 0 "$BLOBC" dump ik.blob
same_file int_keys_sorted "$T/out" "$G/int_keys.dump.expect"
run "$BLOBC" bake bad_int_map.yaml -o bad.blob
rc_is bad_int_map_exit_1 1 && pass bad_int_map_exit_1
same_file bad_int_map_stderr "$T/err" "$G/bad_int_map.yaml.expect"
# dangling references everywhere a reference can be (struct fields, list
# items, map values, nested lists, the root), each error naming its own path
for f in yaml json; do
    run "$BLOBC" bake "bad_ref_paths.$f" -o bad.blob
    rc_is "bad_ref_paths_${f}_exit_1" 1 && pass "bad_ref_paths_${f}_exit_1"
    same_file "bad_ref_paths_${f}_stderr" "$T/err" "$G/bad_ref_paths.$f.expect"
    absent "bad_ref_paths_${f}_no_output" bad.blob
done
# keys in error (a bad value, missing, a NUL): each error once; the item
# joins no key space, so no duplicate or dangling key is made up from it
for f in yaml json; do
    run "$BLOBC" bake "bad_key_values.$f" -o bad.blob
    rc_is "bad_key_values_${f}_exit_1" 1 && pass "bad_key_values_${f}_exit_1"
    same_file "bad_key_values_${f}_stderr" "$T/err" "$G/bad_key_values.$f.expect"
done
# a reference that is its item's first field cannot name that item: its
# offset would be 0, which reads as null (found: bake exited 0 with a blob
# verify refused), also after sorting moves the item to that place
printf 'struct N { next: &N; @key id: u32; }\nstruct R { ns: [N]; }\n' >selfref.schema
printf '$schema: selfref.schema\n$type: R\nns: [{id: 2, next: 1}, {id: 1, next: 1}]\n' >selfref.yaml
expect_err self_ref_first_field 1 \
    "selfref.yaml:3:38: error: a reference cannot name the item it is the first field of" \
    "$BLOBC" bake selfref.yaml -o selfref.blob
absent self_ref_first_field_no_output selfref.blob
printf '$schema: selfref.schema\n$type: R\nns: [{id: 2, next: 1}, {id: 1, next: 2}]\n' >selfref.yaml
expect self_ref_other_item 0 "$BLOBC" bake selfref.yaml -o selfref.blob
expect self_ref_other_item_verifies 0 "$BLOBC" verify selfref.blob
run "$BLOBC" bake bad_merge.yaml -o bad.blob
rc_is bad_merge_exit_1 1 && pass bad_merge_exit_1
same_file bad_merge_stderr "$T/err" "$G/bad_merge.yaml.expect"

# a string key in JSON is any scalar, as for a string field: a bare number
# or true/false names the item whose key is that text
printf 'struct N { @key name: string; next: &N = null; }\nstruct R { ns: [N]; first: &N; }\nroot R;\n' >bare.schema
printf '{"ns": [{"name": "7", "next": true}, {"name": "true", "next": 1.5}, {"name": "1.5"}], "first": 7}\n' >bare.json
sed 's/: \(true\|1\.5\|7\)\([,}]\)/: "\1"\2/g' bare.json >quoted.json
expect bare_key_json 0 "$BLOBC" bake -s bare.schema bare.json -o bare.blob
expect quoted_key_json 0 "$BLOBC" bake -s bare.schema quoted.json -o quoted.blob
same_file bare_key_json_same_bytes bare.blob quoted.blob
printf '{"ns": [{"name": "null"}], "first": null}\n' >jnull.json
expect_err json_null_is_no_string_key 1 "/first: error: expected a key of N (a string), got null (null, no element" "$BLOBC" bake -s bare.schema jnull.json -o jnull.blob

# --- the schema language's key errors ---
printf 'struct A { @key x: f32; }\n' >k1.schema
expect_err key_type 1 "k1.schema:1:17: error: struct A: the @key field 'x' is f32" "$BLOBC" check k1.schema
printf 'struct B { x: u8; }\nstruct A { r: &B; }\n' >k2.schema
expect_err ref_needs_key 1 "k2.schema:2:16: error: &B refers to an element of a keyed array, so B must be a struct with a @key field" "$BLOBC" check k2.schema

# --- gen c: <S>_<f>_find by key, references followed; C11 and C++17 ---
INC=$TOP/lib/include
expect gen_c 0 "$BLOBC" gen c game.schema -o game.h
for w in 'const Item \*Game_items_find(const Game \*blobc_p, uint32_t blobc_key)' \
    'const Node \*Game_dialogue_find(const Game \*blobc_p, const char \*blobc_key, size_t blobc_len)' \
    'const Rule \*Game_rules_find(const Game \*blobc_p, Kind blobc_key)' \
    'const Floor \*Game_floors_find(const Game \*blobc_p, int32_t blobc_key)' \
    'const Node \*Node_next(const Node \*blobc_p)' 'const Item \*Loot_drops_at('; do
    grep -q "$w" game.h || echo "$w"
done >missing
[ -s missing ] && fail gen_c_find_api "missing: $(cat missing)" || pass gen_c_find_api
if ${CC:-cc} -std=c11 $GEN_WARN -Wstrict-prototypes -I"$INC" -I. "$G/lookup.c" -o lookup 2>cc.log; then
    pass lookup_builds_c
    expect lookup_runs 0 ./lookup y.blob
    same_file lookup_golden "$T/out" "$G/lookup.expect"
else
    fail lookup_builds_c "$(head -c 800 cc.log)"
fi
CXX1=$(command -v g++ || command -v clang++ || true)
if [ -z "$CXX1" ]; then
    skip lookup_builds_cxx "no C++ compiler (g++ or clang++)"
elif $CXX1 -std=c++17 $GEN_CXXWARN -I"$INC" -I. \
    -x c++ "$G/lookup.c" -o lookupxx 2>cc.log; then
    pass lookup_builds_cxx
    expect lookup_runs_cxx 0 ./lookupxx y.blob
    same_file lookup_cxx_golden "$T/out" "$G/lookup.expect"
else
    fail lookup_builds_cxx "$(head -c 800 cc.log)"
fi

# --- gen cpp: Vector<T>::find by key, references as const T *; the same
# output as lookup.c, in the global namespace and in one ---
if [ -z "$CXX1" ]; then
    skip lookup_cpp "no C++ compiler (g++ or clang++)"
fi
for ns in "" game; do
    [ -n "$CXX1" ] || break
    tag=${ns:-global}
    # shellcheck disable=SC2086
    expect "gen_cpp_$tag" 0 "$BLOBC" gen cpp game.schema ${ns:+--namespace $ns} -o game.hpp
    if $CXX1 -std=c++17 $GEN_CXXWARN -fno-exceptions -fno-rtti \
        ${ns:+-DGAME_NS} -I"$INC" -I. "$G/lookup.cpp" -o lookupcpp 2>cc.log; then
        pass "lookup_cpp_builds_$tag"
        expect "lookup_cpp_runs_$tag" 0 ./lookupcpp y.blob
        same_file "lookup_cpp_golden_$tag" "$T/out" "$G/lookup.expect"
    else
        fail "lookup_cpp_builds_$tag" "$(head -c 800 cc.log)"
    fi
done

# keys of structs named after the runtime's and the C library's names
cat >hk.schema <<'EOT'
enum remove : u8 { a, b }
struct key_of { @key type: remove; get: &key_of = null; }
struct exit { @key get: string; find: &key_of; }
struct find { @key open: i64; }
struct Root { key_of: [key_of]; exit: [exit]; find: [find]; }
root Root;
EOT
cat >hk.cpp <<'EOT'
#include "hk.hpp"
#ifdef NS
using namespace a::b;
#endif
int main() {
    const Root *r = Root::open("", 0);
    if (!r) return 0;
    const class key_of *k = r->key_of().find(remove::b);
    const class exit *e = r->exit().find("x");
    const class find *o = r->find().find(-1);
    return k && e && o && e->find() == k->get();
}
EOT
for ns in "" a::b; do
    [ -n "$CXX1" ] || break
    "$BLOBC" gen cpp hk.schema ${ns:+--namespace $ns} -o hk.hpp 2>cc.log &&
        $CXX1 -std=c++17 $GEN_CXXWARN ${ns:+-DNS} -I"$INC" -I. \
            hk.cpp -o hk 2>>cc.log && pass "cpp_hostile_keys_${ns:-global}" ||
        fail "cpp_hostile_keys_${ns:-global}" "$(head -c 800 cc.log)"
done

# --- gen jsonschema: references as their key's type, an all-default struct
# optional; a real validator and bake agree on the sample and on edits ---
expect gen_jsonschema 0 "$BLOBC" gen jsonschema game.schema -o game.json.schema
if ! command -v python3 >/dev/null 2>&1; then
    skip jsonschema_validator "python3 not installed (make deps installs it)"
elif python3 "$TOP/tests/tools/jsonschema_check.py" game.json.schema game.json >v.txt 2>&1 ||
    [ $? -ne 3 ]; then
    js_agree js_sample_valid 0 valid game.json.schema game.schema game.json
    js_agree js_sample_yaml_valid 0 valid game.json.schema game.schema game.yaml
    js_agree js_ref_key_type 1 "invalid" game.json.schema game.schema game.json \
        set loot.0.best '"seven"'
    js_agree js_ref_null_where_allowed 0 valid game.json.schema game.schema game.json \
        set dialogue.0.next null
    js_agree js_ref_null_refused 1 "invalid" game.json.schema game.schema game.json set loot.0.best null
    js_agree js_required_ref 1 "invalid" game.json.schema game.schema game.json del loot.0.best
    js_agree js_default_struct_optional 0 valid game.json.schema game.schema game.json del items.0.stats
    js_flush
else
    skip jsonschema_validator "$(cat v.txt)"
fi

# --- compat and upgrade: keys and references are part of the data ---
printf 'struct Item { id: u32; name: string; }\nstruct Db { items: [Item]; best: *Item; }\nroot Db;\n' >c1.schema
printf 'struct Item { @key id: u32; name: string; }\nstruct Db { items: [Item]; best: &Item; }\nroot Db;\n' >c2.schema
printf 'struct Item { id: u32; @key name: string; }\nstruct Db { items: [Item]; best: &Item; }\nroot Db;\n' >c3.schema
expect compat_key_added 1 "$BLOBC" compat c1.schema c2.schema
printf 'best: retyped from *Item to &Item\nitems[]: struct Item: @key added on '"'"'id'"'"' (its arrays are sorted by it)\nincompatible: 2 changes\n' >want.txt
same_file compat_key_added_listing "$T/out" want.txt
expect compat_key_moved 1 "$BLOBC" compat c2.schema c3.schema
grep -q "@key moved from 'id' to 'name'" "$T/out" && pass compat_key_moved_listing ||
    fail compat_key_moved_listing "$(cat "$T/out")"
expect compat_same 0 "$BLOBC" compat game.schema game.schema
printf 'items: [{id: 2, name: b}, {id: 1, name: a}]\nbest: 2\n' >c2.yaml
expect bake_c2 0 "$BLOBC" bake -s c2.schema c2.yaml -o c2.blob
expect_err upgrade_ref_to_ptr_refused 1 "a reference only to a reference" \
    "$BLOBC" upgrade c2.blob -s c1.schema -o c1.blob
absent upgrade_refused_no_output c1.blob
# references are carried by their key: across a key change the old key
# names no item, and the upgrade says so at the reference
expect_err upgrade_key_moved 1 'c2.blob: best: error: no Item has the key "2"; did you mean "a"?' \
    "$BLOBC" upgrade c2.blob -s c3.schema -o c3.blob
printf 'struct Item { @key id: u32; name: string; extra: u8 = 7; }\nstruct Db { items: [Item]; best: &Item; }\nroot Db;\n' >c4.schema
expect upgrade_keeps_refs 0 "$BLOBC" upgrade c2.blob -s c4.schema -o c4.blob
expect dump_upgraded 0 "$BLOBC" dump c4.blob
grep -q '^best: 2$' "$T/out" && pass upgrade_ref_carried || fail upgrade_ref_carried "$(cat "$T/out")"

# --- renames: @was(old) on a field, an enum member and a union member ---
printf 'enum Kind : u8 { sword, shield }\nstruct Item { @key id: u32; title: string; kind: Kind = sword; }\nstruct Db { items: [Item]; }\nroot Db;\n' >w0.schema
printf 'enum Kind : u8 { sword, @was(shield) guard }\nstruct Item { @key id: u32; @was(title) name: string; kind: Kind = sword; }\nstruct Db { items: [Item]; }\nroot Db;\n' >w1.schema
printf 'items: [{id: 1, title: Blade, kind: shield}]\n' >w0.yaml
printf 'items: [{id: 1, name: Blade, kind: guard}]\n' >w1.yaml
# renamed TAG OLD NEW LISTING...: OLD.schema and OLD.yaml use the old names,
# NEW.schema (with @was) and NEW.yaml the new ones; want-warn.txt holds the
# warnings the old data gives under the new schema, want-compat.txt compat's
# listing; check's listing has each LISTING line. The old data bakes with
# the new schema to the new data's bytes, and upgrade carries the old blob.
renamed() {
    tag=$1 old=$2 new=$3
    shift 3
    expect "bake_old_names_$tag" 0 "$BLOBC" bake -s "$new.schema" "$old.yaml" -o "${old}new.blob"
    same_file "bake_old_names_warnings_$tag" "$T/err" want-warn.txt
    expect "bake_new_names_$tag" 0 "$BLOBC" bake -s "$new.schema" "$new.yaml" -o "$new.blob"
    [ -s "$T/err" ] && fail "bake_new_names_quiet_$tag" "$(cat "$T/err")" || pass "bake_new_names_quiet_$tag"
    same_file "old_names_same_bytes_$tag" "${old}new.blob" "$new.blob"
    expect "compat_rename_$tag" 0 "$BLOBC" compat "$old.schema" "$new.schema"
    same_file "compat_rename_listing_$tag" "$T/out" want-compat.txt
    expect "bake_old_schema_$tag" 0 "$BLOBC" bake -s "$old.schema" "$old.yaml" -o "$old.blob"
    expect "upgrade_rename_$tag" 0 "$BLOBC" upgrade "$old.blob" -s "$new.schema" -o "${old}up.blob"
    same_file "upgrade_rename_carries_$tag" "${old}up.blob" "$new.blob"
    expect "check_was_$tag" 0 "$BLOBC" check "$new.schema"
    for line; do
        grep -qF -- "$line" "$T/out" || echo "$line"
    done >missing
    [ -s missing ] && fail "check_lists_was_$tag" "missing: $(cat missing)" || pass "check_lists_was_$tag"
}
printf '%s\n' 'w0.yaml:1:17: items[0].title: warning: field "title" of struct Item is now called "name" (@was)' \
    '    items: [{id: 1, title: Blade, kind: shield}]' '                    ^' \
    'w0.yaml:1:37: items[0].kind: warning: member "shield" of enum Kind is now called "guard" (@was)' \
    '    items: [{id: 1, title: Blade, kind: shield}]' '                                        ^' >want-warn.txt
printf '%s\n' "note: items[].title: renamed to 'name' (@was)" \
    "note: items[].kind: enum Kind: member 'shield' (1) renamed to 'guard' (@was)" \
    'compatible (the layout is the same; see the notes)' >want-compat.txt
renamed field w0 w1 'name: string  (@was title)' 'guard = 1  (@was shield)'
# a union member (named by its struct) renamed: @was before it
printf 'struct Round { r: f32; }\nstruct Box { w: f32; }\nunion Shape { Round, Box }\nstruct D { s: Shape; }\nroot D;\n' >u0.schema
printf 'struct Circle { r: f32; }\nstruct Box { w: f32; }\nunion Shape { @was(Round) Circle, Box }\nstruct D { s: Shape; }\nroot D;\n' >u1.schema
printf 's: {Round: {r: 1.5}}\n' >u0.yaml
printf '{"s": {"Round": {"r": 1.5}}}\n' >u0.json
printf 's: {Circle: {r: 1.5}}\n' >u1.yaml
printf '%s\n' 'u0.yaml:1:5: s.Round: warning: member "Round" of union Shape is now called "Circle" (@was)' \
    '    s: {Round: {r: 1.5}}' '        ^' >want-warn.txt
printf '%s\n' "note: s: union Shape: member 'Round' (tag 1) renamed to 'Circle' (@was)" \
    'note: s.Round: struct Round is now called Circle' \
    'compatible (the layout is the same; see the notes)' >want-compat.txt
renamed union u0 u1 '1  Circle  (size 4, align 4)  (@was Round)'
expect bake_union_old_name_json 0 "$BLOBC" bake -s u1.schema u0.json -o u0json.blob
grep -q '^u0.json:1:8: /s/Round: warning: member "Round" of union Shape is now called "Circle" (@was)$' "$T/err" &&
    pass bake_union_old_name_json_warning || fail bake_union_old_name_json_warning "$(cat "$T/err")"
same_file union_old_name_json_same_bytes u0json.blob u1.blob
printf 'struct Box { w: f32; }\nunion S { Box, @was(x) }\n' >u2.schema
expect_err union_was_needs_member 1 "u2.schema:2:24: error: expected a member after @was, got '}'" "$BLOBC" check u2.schema

printf 'struct A { x: u8; @was(y) }\n' >w2.schema
expect_err was_needs_field 1 "w2.schema:1:27: error: expected a field after @was, got '}'" "$BLOBC" check w2.schema
