"""Reads every value of a blob baked from tests/data/forms/map.json (with
tests/data/forms/in/map.schema) back through the blobc module and compares
each with the value the data gives: maps as blobc.Map in key order, absent
optionals as None, any-values as plain Python, a tagged union's member with
its tag. Prints one line per mismatch; the exit status is their number."""
import math
import sys

import blobc

m = blobc.open(sys.argv[1])
bad = []


def same(what, got, want):
    ok = got == want and type(got) is type(want)
    if isinstance(want, float) and isinstance(got, float):
        ok = got == want or (math.isnan(got) and math.isnan(want))
    if not ok:
        bad.append("%s: got %r, want %r" % (what, got, want))


same("width", m.width, 10)
same("height", m.height, None)
same("opacity", m.opacity, 0.5)
same("nothing", m.nothing, None)
same("props is a Map", isinstance(m.props, blobc.Map), True)
same("props keys", list(m.props.keys()), ["a", "b", "c"])
same("props values", list(m.props.values()), [1, 2, -3])
same("props[b]", m.props["b"], 2)
same("props.get(x)", m.props.get("x"), None)
same("'c' in props", "c" in m.props, True)
same("len(props)", len(m.props), 3)
same("byid items", list(m.byid.items()), [(2, "two"), (10, "ten")])
same("byid[10]", m.byid[10], "ten")
same("len(layers)", len(m.layers), 2)
g, t = m.layers[0], m.layers[1]
same("layers[0] tag", blobc.tag(g), "ObjectGroup")
same("layers[0].name", g.name, "g")
same("objects keys", list(g.objects.keys()), ["a", "z"])
same("objects[a]", g.objects["a"], [1, 2.5, "s", True, {"k": 18446744073709551615}])
same("objects[z]", g.objects["z"], None)
same("layers[1] tag", blobc.tag(t), "TileLayer")
same("layers[1].name", t.name, "t")
same("layers[1].data", list(t.data), [1, 2, 3])
same("extra", m.extra, {"list": [1, -2, 32500000000.0], "t": False})
same("to_python", m.to_python()["props"], {"a": 1, "b": 2, "c": -3})
for line in bad:
    print(line)
print("%d values differ" % len(bad) if bad else "every value read back")
sys.exit(len(bad))
