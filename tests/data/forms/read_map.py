"""Reads back the values of a blob baked from map.schema, from its bytes
alone, and prints them one per line: what the test compares."""
import struct
import sys

b = open(sys.argv[1], "rb").read()
D = 96  # data_offset


def u32(o): return struct.unpack_from("<I", b, o)[0]
def i32(o): return struct.unpack_from("<i", b, o)[0]


def rel(o):  # an offset relative to its own field
    return o + i32(o)


def string(o):
    n = u32(o + 4)
    return b[rel(o):rel(o) + n - 1].decode() if n else ""


def array(o, size):
    n = u32(o + 4)
    return [rel(o) + i * size for i in range(n)] if n else []


def anyv(o, depth=0):
    k = u32(o)
    if k == 0: return None
    if k == 1: return bool(u32(o + 4))
    if k == 2: return struct.unpack_from("<q", b, o + 4)[0]
    if k == 3: return struct.unpack_from("<Q", b, o + 4)[0]
    if k == 4: return struct.unpack_from("<d", b, o + 4)[0]
    if k == 5: return string(o + 4)
    if k == 6: return [anyv(e, depth + 1) for e in array(o + 4, 12)]
    if k == 7: return [(string(e), anyv(e + 8, depth + 1)) for e in array(o + 4, 20)]
    raise SystemExit("bad any kind %d" % k)


r = D
print("width", u32(r))
print("height", "absent" if b[r + 8] == 0 else u32(r + 4), "flag", b[r + 8])
print("opacity", struct.unpack_from("<f", b, r + 12)[0], "flag", b[r + 16])
print("props", [(string(e), i32(e + 8)) for e in array(r + 20, 12)])
print("byid", [(u32(e), string(e + 4)) for e in array(r + 28, 12)])
for e in array(r + 36, 8):
    tag, m = u32(e), rel(e + 4)
    if tag == 1:
        print("layer tilelayer", [u32(x) for x in array(m, 4)], string(m + 8))
    else:
        print("layer objectgroup", string(m), [(string(x), anyv(x + 8)) for x in array(m + 8, 20)])
print("extra", anyv(r + 44))
print("nothing flag", b[r + 64])
