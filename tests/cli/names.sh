# File names are bytes: a name that is not UTF-8 still gives valid UTF-8
# text from every writer that names a file in JSON or YAML (each such byte
# becomes U+FFFD): verify --json (the name, and messages that
# quote it), dump --json and dump's YAML ($schema), gen jsonschema
# ($comment names the schema file).
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
    skip all "python3 is not installed (make deps installs it)"
    exit 0
fi
cd "$T" || exit 1
printf 'struct P { x: u32; name: string; }\nroot P;\n' >"$(printf 's\377.schema')"
printf 'x: 7\nname: seven\n' >p.yaml
# (a blob records only a UTF-8 schema name: bake with another name)
cp "$(printf 's\377.schema')" s.schema
"$BLOBC" bake -s s.schema p.yaml -o "$(printf 'ok\377\303.blob')" || fail setup "bake"
printf 'junk' >"$(printf 'bad\376.blob')"

# json_ok NAME FILE WANT...: FILE is UTF-8, each line (or the whole, with
# `whole`) is JSON, and each WANT (a Python expression over `docs`, the
# parsed values) holds.
json_ok() {
    name=$1 file=$2
    shift 2
    if python3 - "$file" "$@" >"$T/py.err" 2>&1 <<'PY'; then pass "$name"; else fail "$name" "$(head -c 400 "$T/py.err")"; fi
import json, sys
raw = open(sys.argv[1], 'rb').read()
text = raw.decode('utf-8')  # strict: invalid UTF-8 fails here
docs = [json.loads(l) for l in text.splitlines() if l] if sys.argv[2] == 'lines' else [json.loads(text)]
for want in sys.argv[3:]:
    assert eval(want), want + ': ' + repr(docs)
PY
}

run "$BLOBC" verify --json "$(printf 'ok\377\303.blob')" "$(printf 'bad\376.blob')" \
    "$(printf 'gone\377.blob')"
rc_is verify_json_exit 2 && pass verify_json_exit
cp "$T/out" "$T/verify.json"
json_ok verify_json "$T/verify.json" lines \
    "docs[0]['file'] == 'ok\ufffd\ufffd.blob' and docs[0]['ok']" \
    "docs[1]['file'] == 'bad\ufffd.blob' and docs[1]['errors'][0]['code'] == 'bad-magic'" \
    "docs[2]['file'] == 'gone\ufffd.blob' and 'gone\ufffd.blob' in docs[2]['errors'][0]['message']"

expect dump_json 0 "$BLOBC" dump --json -s "$(printf 's\377.schema')" "$(printf 'ok\377\303.blob')"
cp "$T/out" "$T/dump.json"
json_ok dump_json_schema_name "$T/dump.json" whole "docs[0]['\$schema'] == 's\ufffd.schema'"

expect dump_yaml 0 "$BLOBC" dump -s "$(printf 's\377.schema')" "$(printf 'ok\377\303.blob')"
if python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$T/out" 2>"$T/py.err" &&
    grep -q '^\$schema: "s\\ufffd.schema"$' "$T/out"; then
    pass dump_yaml_schema_name
else
    fail dump_yaml_schema_name "$(head -3 "$T/out") $(cat "$T/py.err")"
fi

expect gen_jsonschema 0 "$BLOBC" gen jsonschema "$(printf 's\377.schema')"
cp "$T/out" "$T/gen.json"
json_ok gen_jsonschema_comment "$T/gen.json" whole "'s\ufffd.schema' in docs[0]['\$comment']"
