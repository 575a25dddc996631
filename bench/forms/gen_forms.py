#!/usr/bin/env python3
"""Data for bench/forms.sh, deterministic (seeded).

  gen_forms.py map N OUT        a [string: Item] map of N entries, keys in
                                shuffled order
  gen_forms.py tiled MB OUT OWN a Tiled JSON map of about MB megabytes (tile
                                layers, object groups with properties and
                                the editor keys Tiled writes) at OUT, and
                                the same values in blobc's own form at OWN
                                (own.schema: plain structs, one-key unions,
                                no skipped keys)
"""
import json
import random
import sys


def gen_map(n, out):
    rng = random.Random(7)
    keys = ["item%07d" % i for i in range(n)]
    rng.shuffle(keys)
    with open(out, "w") as f:
        f.write('{"items": {')
        f.write(",".join('"%s": {"hp": %d, "name": "n%d"}' % (k, i, i) for i, k in enumerate(keys)))
        f.write("}}\n")


def props(rng, i):
    return [{"name": "speed", "type": "float", "value": rng.random() * 10},
            {"name": "label", "type": "string", "value": "obj%d" % i},
            {"name": "hp", "type": "int", "value": rng.randrange(1000)}]


def gen_tiled(mb, out, own):
    rng = random.Random(11)
    w = h = 256
    target = mb * 1000 * 1000
    layers, own_layers, size, lid = [], [], 0, 0
    while size < target:
        lid += 1
        data = [rng.randrange(64) for _ in range(w * h)]
        layers.append({"data": data, "height": h, "id": lid, "name": "ground%d" % lid,
                       "opacity": 1, "type": "tilelayer", "visible": True, "width": w,
                       "x": 0, "y": 0})
        own_layers.append({"TileLayer": {"id": lid, "name": "ground%d" % lid, "width": w,
                                         "height": h, "data": data, "opacity": 1.0,
                                         "visible": True}})
        lid += 1
        objs, own_objs = [], []
        for i in range(400):
            x, y = rng.randrange(8192), rng.randrange(8192)
            pr = props(rng, i)
            objs.append({"height": 32, "id": i + 1, "name": "o%d" % i, "properties": pr,
                         "rotation": 0, "type": "enemy", "visible": True, "width": 32,
                         "x": x, "y": y})
            own_objs.append({"id": i + 1, "name": "o%d" % i, "type": "enemy", "x": x, "y": y,
                             "width": 32, "height": 32, "rotation": 0,
                             "properties": [own_prop(p) for p in pr], "visible": True})
        layers.append({"draworder": "topdown", "id": lid, "name": "things%d" % lid,
                       "objects": objs, "opacity": 1, "type": "objectgroup", "visible": True,
                       "x": 0, "y": 0})
        own_layers.append({"ObjectGroup": {"id": lid, "name": "things%d" % lid,
                                           "objects": own_objs, "opacity": 1.0, "visible": True}})
        size += w * h * 3 + 400 * 260
    tiled = {"compressionlevel": -1, "height": h, "infinite": False, "layers": layers,
             "nextlayerid": lid + 1, "nextobjectid": 401, "orientation": "orthogonal",
             "renderorder": "right-down", "tiledversion": "1.10.2", "tileheight": 16,
             "tilesets": [{"firstgid": 1, "source": "tiles.tsj"}], "tilewidth": 16,
             "type": "map", "version": "1.10", "width": w}
    with open(out, "w") as f:
        json.dump(tiled, f, separators=(",", ":"))
    with open(own, "w") as f:
        json.dump({"width": w, "height": h, "tilewidth": 16, "tileheight": 16,
                   "layers": own_layers}, f, separators=(",", ":"))


def own_prop(p):
    kind = {"float": "FloatProp", "string": "StrProp", "int": "IntProp"}[p["type"]]
    return {kind: {"name": p["name"], "value": p["value"]}}


if __name__ == "__main__":
    if sys.argv[1] == "map":
        gen_map(int(sys.argv[2]), sys.argv[3])
    else:
        gen_tiled(int(sys.argv[2]), sys.argv[3], sys.argv[4])
