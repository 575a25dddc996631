#!/usr/bin/env python3
"""json_same.py WANT GOT: whether two JSON documents hold the same values.

WANT is `blobc dump --json` (its "$type" and "$schema" keys are ignored),
GOT what a reader printed. Integers and strings must be equal; a float
equals when it is the same number, or the same f32 (readers print f32
fields with 9 significant digits, dump with the shortest round trip).
Exit 0 when the same, 1 with the first difference's path otherwise.
"""
import json
import struct
import sys


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def diff(want, got, path):
    if isinstance(want, dict):
        want = {k: v for k, v in want.items() if not k.startswith("$")}
        if not isinstance(got, dict) or list(want) != list(got):
            return "%s: keys %s, got %s" % (path, list(want), list(got) if isinstance(got, dict) else got)
        for k in want:
            d = diff(want[k], got[k], path + "/" + k)
            if d:
                return d
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(want) != len(got):
            return "%s: %d items, got %r" % (path, len(want), got)
        for i, (w, g) in enumerate(zip(want, got)):
            d = diff(w, g, "%s/%d" % (path, i))
            if d:
                return d
        return None
    if isinstance(want, bool) or isinstance(got, bool) or want is None or isinstance(want, str):
        return None if want == got and type(want) is type(got) else "%s: %r, got %r" % (path, want, got)
    if isinstance(want, int) and isinstance(got, int):
        return None if want == got else "%s: %r, got %r" % (path, want, got)
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        if float(want) == float(got) or f32(float(want)) == f32(float(got)):
            return None
    return "%s: %r, got %r" % (path, want, got)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        want = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        got = json.load(f)
    d = diff(want, got, "")
    if d:
        print(d)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
