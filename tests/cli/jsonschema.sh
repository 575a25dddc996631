# gen jsonschema: the golden output; -t and -o; errors with exit codes; and
# a real validator (python3-jsonschema, Draft 2020-12) accepting the sample
# data and refusing each kind of mistake, in agreement with bake.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/import

if (cd "$D" && "$BLOBC" gen jsonschema level.schema >"$T/out" 2>"$T/err"); then pass golden_exit; else
    fail golden_exit "$(head -c 300 "$T/err")"
fi
same_file golden "$T/out" "$D/level.schema.json"
(cd "$D" && "$BLOBC" gen jsonschema level.schema -o "$T/o.json") && same_file output_file "$T/o.json" "$D/level.schema.json" ||
    fail output_file "exit $?"
expect type_option 0 "$BLOBC" gen jsonschema "$D/level.schema" -t Room
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["title"] == "Room" and d["properties"]["$type"] == {"const": "Room"} else 1)' "$T/out" &&
    pass type_option_title || fail type_option_title "$(head -5 "$T/out")"

expect_err unknown_type 1 "gen jsonschema: no type 'Nope' in the schema" \
    "$BLOBC" gen jsonschema "$D/level.schema" -t Nope
expect_err enum_type 1 "'Kind' is an enum" "$BLOBC" gen jsonschema "$D/level.schema" -t Kind
printf 'struct A { x: u8; }\n' >"$T/noroot.schema"
expect_err no_root 1 "the schema has no root; name the type with -t" "$BLOBC" gen jsonschema "$T/noroot.schema"
expect_err prefix_is_for_c 2 "--prefix applies to gen c only" \
    "$BLOBC" gen jsonschema "$D/level.schema" --prefix x_
expect_err type_is_for_jsonschema 2 "-t applies to gen jsonschema only" \
    "$BLOBC" gen c "$D/level.schema" -t Room
expect_err bad_schema 1 "unknown type" sh -c "printf 'struct A { x: B; }\n' >'$T/b.schema'; '$BLOBC' gen jsonschema '$T/b.schema'"
expect_err unknown_language 2 "available: c, cpp, cs, jsonschema" "$BLOBC" gen rust "$D/level.schema"

# ---- the validator ----
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
    skip validator "python3-jsonschema and python3-yaml are not installed (make deps)"
    exit 0
fi
S=$T/level.schema.json
SCH=$TOP/schemas/level.schema
"$BLOBC" gen jsonschema "$SCH" -o "$S"

# valid NAME DATA EDIT... / invalid NAME TEXT DATA EDIT...: the validator's
# verdict, then bake's on the same edited data (JSON) must agree (unless
# BAKE_RC says otherwise: where the JSON Schema is knowingly stricter).
verdict() {
    name=$1 want=$2 text=$3 data=$4
    shift 4
    js_agree "$name" "$want" "$text" "$S" "$SCH" "$data" "$@"
}
valid() { n=$1 d=$2; shift 2; verdict "$n" 0 valid "$d" "$@"; }
invalid() { n=$1 t=$2 d=$3; shift 3; verdict "$n" 1 "$t" "$d" "$@"; }

J=$TOP/samples/level.json
valid sample_json "$J"
valid sample_yaml "$TOP/samples/level.yaml"
valid defaulted_field_absent "$J" del gravity
valid array_and_pointer_absent "$J" del rooms del boss
valid null_array_and_pointer "$J" set rooms null set boss null
valid type_key "$J" set '$type' '"Level"'
valid u64_max "$J" set seed 18446744073709551615
valid inf_as_string "$J" set size_m '"inf"'
invalid misspelt_key "'radus' was unexpected" "$J" rename rooms.0.radius radus
invalid unknown_enum_name "'flor' is not one of ['floor', 'wall', 'door', 'stairs']" "$J" set rooms.0.kind '"flor"'
invalid string_for_integer "'3' is not valid under any of the given schemas" "$J" set index '"3"'
invalid object_for_string "{} is not of type 'string'" "$J" set name '{}'
# bake takes a number's text for a string; the JSON Schema asks for a string.
BAKE_RC=0
invalid number_for_string "5 is not of type 'string'" "$J" set name 5
BAKE_RC=
invalid object_for_array "is not of type 'array', 'null'" "$J" set rooms '{}'
invalid i8_out_of_range "128 is not valid under any of the given schemas" "$J" set version 128
invalid u8_negative "-1 is not valid under any of the given schemas" "$J" set flags -1
invalid u64_over "18446744073709551616 is not valid" "$J" set seed 18446744073709551616
invalid missing_field "'index' is a required property" "$J" del index
invalid missing_nested_field "'z' is a required property" "$J" del origin.position.z
invalid fixed_array_short "is too short" "$J" set origin.rotation '[0, 0, 0]'
invalid fixed_array_long "is too long" "$J" set rooms.0.weights '[1, 2, 3, 4, 5]'
invalid wrong_type_key "'Level' was expected" "$J" set '$type' '"Room"'
invalid bool_as_string "'yes' is not of type 'boolean'" "$J" set rooms.0.lit '"yes"'
invalid null_for_struct "None is not of type 'object'" "$J" set origin null

# Unions: a single-key object naming the member (oneOf); null only where
# the field's default says so.
S=$T/shapes.schema.json
SCH=$TOP/tests/data/union/shapes.schema
"$BLOBC" gen jsonschema "$SCH" -o "$S"
U=$TOP/tests/data/union/scene.json
valid union_sample_json "$U"
valid union_sample_yaml "$TOP/tests/data/union/scene.yaml"
valid union_null_where_allowed "$U" set extra null
valid union_other_member "$U" set main '{"Box": {"w": 1, "h": 2}}'
invalid union_unknown_member "is not valid under any of the given schemas" "$U" set main '{"Triangle": {"r": 1}}'
invalid union_two_members "is not valid under any of the given schemas" "$U" set main '{"Circle": {"r": 1}, "Box": {"w": 1, "h": 2}}'
invalid union_null_not_allowed "None is not valid under any of the given schemas" "$U" set main null
invalid union_member_field_misspelt "is not valid under any of the given schemas" "$U" set main '{"Circle": {"radius": 1}}'
js_flush

# Every schema of the tree with a root, the hostile names and doc comments
# among them: the output is a valid JSON Schema (Draft 2020-12's
# metaschema), and in the names corpus every field keeps its own name.
# (one Python process checks them all: a start costs more than a check)
n=0
bad=""
: >"$T/any.list"
for s in "$TOP"/schemas/*.schema "$TOP"/tests/data/*/*.schema; do
    "$BLOBC" check "$s" >/dev/null 2>&1 || continue
    "$BLOBC" gen jsonschema "$s" -o "$T/any-$n.json" 2>"$T/err" || {
        grep -q 'has no root' "$T/err" || bad="$bad $s(gen: $(head -c 200 "$T/err"))"
        continue
    }
    printf '%s %s\n' "$T/any-$n.json" "$s" >>"$T/any.list"
    n=$((n + 1))
done
python3 -c 'import json, sys, jsonschema
for line in open(sys.argv[1]):
    path, name = line.split()
    try:
        jsonschema.Draft202012Validator.check_schema(json.load(open(path, encoding="utf-8")))
        print("ok " + name)
    except Exception as e:
        print(("bad %s(%s)" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__))[:300])' \
    "$T/any.list" >"$T/v" 2>&1
bad="$bad$(grep -v '^ok ' "$T/v" | sed 's/^bad / /' | tr -d '\n')"
[ "$(grep -c '^ok ' "$T/v")" -eq "$n" ] || bad="$bad (only $(grep -c '^ok ' "$T/v") of $n checked)"
if [ -z "$bad" ] && [ "$n" -ge 10 ]; then pass "every_schema_valid_json_schema_$n"; else
    fail every_schema_valid_json_schema "$n checked;$bad"
fi
"$BLOBC" gen jsonschema "$TOP/tests/data/gen/hostile_names.schema" -o "$T/names.json"
"$BLOBC" check "$TOP/tests/data/gen/hostile_names.schema" |
    awk '/^struct Fields /{on=1; next} /^[^ ]/{on=0} on && /^ +[0-9]+ +[0-9]+  [^(]/ { f = $3; sub(/:.*/, "", f); print f }' |
    LC_ALL=C sort >"$T/want"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
defs = d.get("$defs", {})
print("\n".join(sorted(k for k in defs["Fields"]["properties"] if k != "$type")))' "$T/names.json" |
    LC_ALL=C sort >"$T/got" 2>&1
if [ "$(wc -l <"$T/want")" -ge 200 ] && cmp -s "$T/want" "$T/got"; then pass hostile_names_properties; else
    fail hostile_names_properties "$(diff "$T/want" "$T/got" | head -5)"
fi
