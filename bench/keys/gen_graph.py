"""Writes the keys benchmark's graph (seeded): N nodes, each with an id,
a weight and four links to random nodes, as JSON. The same file bakes
with plain.schema (links as u32), key.schema (@key id) and ref.schema
(@key id, links as &Node references).

    python3 gen_graph.py N OUT.json
"""
import json
import random
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(1)
    nodes = [{"id": i, "w": i * 3, "links": [rnd.randrange(n) for _ in range(4)]} for i in range(n)]
    rnd.shuffle(nodes)  # keyed arrays are sorted by the bake: not already in order
    with open(out, "w") as f:
        json.dump({"nodes": nodes}, f, separators=(",", ":"))


main()
