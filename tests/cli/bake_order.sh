# The order of a JSON document: one whose values come in the blob's own
# order is written straight into place, any other is baked a second time
# with the layout pass (docs/PERFORMANCE.md). Either way the bytes are the
# same as for the same data in the schema's order, in every output format,
# and what the first pass already said (a warning) is said once.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

cat >"$T/o.schema" <<'EOF'
struct Meta { note: string; author: string = "unknown"; }
struct Item { @was(label) name: string; tags: [string]; meta: *Meta; vals: [f64]; }
struct Root { title: string = "none"; items: [Item]; last: string; }
root Root;
EOF
# The same data: in order, keys reversed in the last item, a string
# default left out before a later string, keys reversed at the top.
items='{"name":"a","tags":["x","y"],"meta":{"note":"n"},"vals":[1.5]},{"name":"b","tags":[],"vals":[2,3]}'
printf '{"title":"none","items":[%s,{"name":"c","tags":["z"],"meta":{"note":"m","author":"unknown"},"vals":[]}],"last":"end"}\n' "$items" >"$T/in.json"
printf '{"title":"none","items":[%s,{"vals":[],"meta":{"author":"unknown","note":"m"},"tags":["z"],"name":"c"}],"last":"end"}\n' "$items" >"$T/keys.json"
printf '{"items":[%s,{"name":"c","tags":["z"],"meta":{"note":"m"},"vals":[]}],"last":"end"}\n' "$items" >"$T/default.json"
printf '{"last":"end","items":[%s,{"name":"c","tags":["z"],"meta":{"note":"m"},"vals":[]}]}\n' "$items" >"$T/top.json"
for fmt in blob raw; do
    expect "in_order_$fmt" 0 "$BLOBC" bake --format "$fmt" -s "$T/o.schema" "$T/in.json" -o "$T/in.$fmt" || continue
    for f in keys default top; do
        expect "${f}_$fmt" 0 "$BLOBC" bake --format "$fmt" -s "$T/o.schema" "$T/$f.json" -o "$T/$f.$fmt" &&
            same_file "${f}_${fmt}_same_bytes" "$T/$f.$fmt" "$T/in.$fmt"
    done
done
expect in_order_unity 0 "$BLOBC" bake --format unity --unity-version 3 -s "$T/o.schema" "$T/in.json" -o "$T/in.u" &&
    expect keys_unity 0 "$BLOBC" bake --format unity --unity-version 3 -s "$T/o.schema" "$T/keys.json" -o "$T/keys.u" &&
    same_file keys_unity_same_bytes "$T/keys.u" "$T/in.u"

# A warning before the place where the order turns out not to be the
# blob's is given once, not again by the second pass.
printf '{"items":[{"label":"a","tags":[],"vals":[]},{"vals":[],"tags":[],"name":"b"}],"last":"end"}\n' >"$T/was.json"
run "$BLOBC" bake -q -s "$T/o.schema" "$T/was.json" -o "$T/was.blob"
n=$(grep -c 'warning: field "label" of struct Item is now called "name"' "$T/err")
[ "$RC" -eq 0 ] && [ "$n" -eq 1 ] && pass warning_once || fail warning_once "exit $RC, $n warnings: $(head -c 300 "$T/err")"

# An error after the order broke is the layout pass's, at its place.
printf '{"items":[{"vals":[],"tags":[],"name":"b"},{"name":"c","tags":7,"vals":[]}],"last":"end"}\n' >"$T/bad.json"
expect_err error_after_reorder 1 "bad.json:1:63: /items/1/tags: error: expected an array ([string]), got the number 7" \
    "$BLOBC" bake -q -s "$T/o.schema" "$T/bad.json" -o "$T/bad.blob"
absent error_after_reorder_no_output "$T/bad.blob"

# A schema with keys (sorted arrays, references) takes the layout pass
# from the start: the same bytes as YAML.
cat >"$T/k.schema" <<'EOF'
struct Door { @key id: string; to: &Door = null; }
struct House { doors: [Door]; main: &Door; }
root House;
EOF
printf '{"doors":[{"id":"b","to":"a"},{"id":"a"}],"main":"b"}\n' >"$T/k.json"
printf 'doors:\n  - {id: b, to: a}\n  - {id: a}\nmain: b\n' >"$T/k.yaml"
expect keyed_json 0 "$BLOBC" bake -s "$T/k.schema" "$T/k.json" -o "$T/kj.blob" &&
    expect keyed_yaml 0 "$BLOBC" bake -s "$T/k.schema" "$T/k.yaml" -o "$T/ky.blob" &&
    same_file keyed_same_bytes "$T/kj.blob" "$T/ky.blob"
