"""Writes the CSV benchmark's table (seeded): N items as CSV and the same
items as compact JSON, which bake to the same blob.

    python3 gen_table.py N OUT.csv OUT.json
"""
import csv
import json
import random
import sys


def main():
    n, out_csv, out_json = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rnd = random.Random(1)
    kinds = ["weapon", "armor", "potion", "scroll"]
    words = ["iron", "oak", "ember", "frost", "old", "long", "grim", "bright"]
    items = []
    for i in range(n):
        items.append({
            "id": i,
            "name": "%s %s %d" % (rnd.choice(words), rnd.choice(words), i),
            "kind": rnd.choice(kinds),
            "stats": {"hp": rnd.randrange(-50, 500), "mp": rnd.randrange(0, 200)},
            # exact binary fractions: every reader stores the same f32 bits
            "pos": [rnd.randrange(-4096, 4096) / 8 for _ in range(3)],
            "weight": rnd.randrange(0, 1024) / 16,
            "rare": rnd.random() < 0.1,
            "tags": rnd.sample(words, rnd.randrange(0, 4)),
        })
    with open(out_json, "w") as f:
        json.dump({"items": items}, f, separators=(",", ":"))
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "name", "kind", "stats.hp", "stats.mp", "pos.0", "pos.1", "pos.2",
                    "weight", "rare", "tags|"])
        for it in items:
            w.writerow([it["id"], it["name"], it["kind"], it["stats"]["hp"], it["stats"]["mp"]] +
                       [repr(p) for p in it["pos"]] +
                       [repr(it["weight"]), "true" if it["rare"] else "false", "|".join(it["tags"])])


main()
