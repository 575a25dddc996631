# Errors for CI (--error-format, every command): GitHub Actions workflow
# commands (golden), JSON lines (each line an object holding what the text
# form says), and a SARIF 2.1.0 log validated against SARIF's own JSON
# Schema (tests/data/sarif) by a real validator; warnings, blobs' byte
# offsets, a schema's errors, and escaping in each form.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/checks
in_data() { (cd "$D" && "$@"); }

# The text form, for comparison: 15 errors.
run in_data "$BLOBC" bake bad.yaml -s items.schema --assets assets -o "$T/x.blob"
cp "$T/err" "$T/text.err"

# GitHub: one workflow command a line, file, line and column as properties.
run in_data "$BLOBC" bake bad.yaml -s items.schema --assets assets -o "$T/x.blob" --error-format github
rc_is github_exit_1 1 && same_file github_golden "$T/err" "$D/bad.yaml.github.expect"
absent github_no_output "$T/x.blob"
n=$(grep -c '^::error file=bad.yaml,line=[0-9]*,col=[0-9]*,title=blobc::' "$T/err")
[ "$n" -eq "$(grep -c ': error: ' "$T/text.err")" ] && pass github_every_error || fail github_every_error "$n lines"

# JSON lines: every line an object with the text form's fields.
run in_data "$BLOBC" bake bad.yaml -s items.schema --assets assets -o "$T/x.blob" --error-format=json
rc_is json_exit_1 1
python3 - "$T/err" "$T/text.err" >"$T/js" 2>&1 <<'PY'
import json, re, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
text = [l for l in open(sys.argv[2]) if ": error: " in l]
assert len(objs) == len(text) == 15, (len(objs), len(text))
for o, t in zip(objs, text):
    m = re.match(r"^(.*?):(\d+):(\d+): (.*?): error: (.*)$", t.rstrip("\n"))
    want = {"tool": "blobc", "severity": "error", "file": m[1], "line": int(m[2]),
            "column": int(m[3]), "path": m[4], "message": m[5]}
    assert o == want, (o, want)
print("ok")
PY
grep -qx ok "$T/js" && pass json_lines_match_text || fail json_lines_match_text "$(head -c 600 "$T/js")"

# SARIF: one log at the end, valid against SARIF 2.1.0's schema.
run in_data "$BLOBC" bake bad.yaml -s items.schema --assets assets -o "$T/x.blob" --error-format sarif
rc_is sarif_exit_1 1
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    skip sarif_valid "python3-jsonschema is not installed (make deps)"
else
    python3 - "$TOP/tests/data/sarif/sarif-schema-2.1.0.json" "$T/err" >"$T/sv" 2>&1 <<'PY'
import json, sys, jsonschema
schema, log = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = list(jsonschema.Draft4Validator(schema).iter_errors(log))
assert not errs, [e.message for e in errs[:3]]
res = log["runs"][0]["results"]
assert len(res) == 15 and log["version"] == "2.1.0"
r = res[1]
assert r["level"] == "error" and r["message"]["text"] == "items[0].drop: 1.5 is out of @range(0, 1)"
loc = r["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "bad.yaml" and loc["region"] == {"startLine": 4, "startColumn": 11}
print("ok")
PY
    grep -qx ok "$T/sv" && pass sarif_valid || fail sarif_valid "$(head -c 600 "$T/sv")"
fi

# A clean run still writes a log (of no results), and exits 0.
run in_data "$BLOBC" bake good.yaml -s items.schema --assets assets -o "$T/g.blob" --error-format=sarif
rc_is sarif_clean_exit_0 0 && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"][0]["results"] == []' "$T/err" &&
    pass sarif_clean_empty || fail sarif_clean_empty "$(head -c 300 "$T/err")"

# A warning (a field under its old name) is a warning in each form.
printf 'struct A { @was(old) x: u32; }\nroot A;\n' >"$T/w.schema"
printf 'old: 1\n' >"$T/w.yaml"
expect_err github_warning 0 '::warning file=' "$BLOBC" bake "$T/w.yaml" -s "$T/w.schema" -o "$T/w.blob" --error-format github
expect_err json_warning 0 '"severity":"warning"' "$BLOBC" bake "$T/w.yaml" -s "$T/w.schema" -o "$T/w.blob" --error-format json

# A blob's error has a byte offset, no line: SARIF says byteOffset.
printf 'struct B { b: bool; }\nroot B;\n' >"$T/b.schema"
printf 'b: true\n' >"$T/b.yaml"
"$BLOBC" bake "$T/b.yaml" -s "$T/b.schema" -o "$T/b.blob"
python3 -c '
import struct, sys
p = sys.argv[1]; d = bytearray(open(p, "rb").read())
d[struct.unpack_from("<Q", d, 16)[0]] = 2  # the bool, at the data offset the header gives
open(p, "wb").write(d)' "$T/b.blob"
expect_err json_blob_offset 1 '"file":"'"$T"'/b.blob","offset":32,"code":"data-hash","message":"data-hash: data hash is' \
    "$BLOBC" verify -s "$T/b.schema" "$T/b.blob" --error-format json
run "$BLOBC" verify -s "$T/b.schema" "$T/b.blob" --error-format sarif
rc_is sarif_blob_exit_1 1
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
reg = r["locations"][0]["physicalLocation"]["region"]
assert reg == {"byteOffset": 32} and r["ruleId"] == "data-hash", r
print("ok")' "$T/err" >"$T/bo" 2>&1
grep -qx ok "$T/bo" && pass sarif_blob_offset || fail sarif_blob_offset "$(cat "$T/bo") $(head -c 400 "$T/err")"

# A schema's error (check), and escaping: a file name with ',' and ':'
# is escaped as a property, a message's '%' and line breaks as data.
if windows_build; then
    skip github_escaped "':' cannot be in a Windows file name"
else
    printf 'struct A { x: u3; }\nroot A;\n' >"$T/a,b:c.schema"
    run "$BLOBC" check "$T/a,b:c.schema" --error-format github
    rc_is github_check_exit_1 1 && grep -q "^::error file=$(printf %s "$T" | sed 's/:/%3A/g; s/,/%2C/g')/a%2Cb%3Ac.schema,line=1,col=15,title=blobc::unknown type 'u3'" "$T/err" &&
        pass github_escaped || fail github_escaped "$(cat "$T/err")"
fi

# An unknown format is a usage error.
expect_err format_unknown 2 "invalid --error-format 'xml' (expected text, json, github or sarif)" \
    "$BLOBC" check "$D/items.schema" --error-format xml
