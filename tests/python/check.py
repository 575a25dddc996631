"""Checks of the blobc Python module, run by tests/cli/python.sh. Prints
"PASS python.NAME" / "FAIL python.NAME: why" lines.

    check.py values NAME BLOB JSON [NAME BLOB JSON ...]
        every value read through the views (attributes, indexing, negative
        indexes, slices, iteration) and through to_python() equals the
        JSON `blobc dump --json` wrote for BLOB
    check.py bad DIR BLOBC
        each blob of DIR/MANIFEST that needs no schema: opened from its
        path and from its bytes, refused with the code the manifest names
        and the text `blobc verify` prints, or read when it is "ok"
    check.py api BLOB
        the rest of the interface on one blob (the sample)
"""
import gc
import json
import math
import os
import struct
import subprocess
import sys
import threading

import blobc


def ok(name):
    print("PASS python.%s" % name)


def bad(name, why):
    print("FAIL python.%s: %s" % (name, why))


class Mismatch(Exception):
    pass


def same_float(x, j):
    """A float read from the blob against dump's text for it. dump writes
    the shortest text that reads back as the same value of the field's
    type; an f32 comes to Python exactly widened, so its text may read back
    as a different double (0.1 vs 0.10000000149011612): then the text,
    rounded to f32, must be the value, which must itself be an f32. An f64
    prints exactly, so it compares equal."""
    if isinstance(j, str):
        return {"nan": math.isnan(x), "inf": x == math.inf, "-inf": x == -math.inf}.get(j, False)
    if not isinstance(j, (int, float)) or isinstance(j, bool):
        return False
    if float(j) == x:
        return True
    as32 = struct.unpack("<f", struct.pack("<f", x))[0]
    try:
        j32 = struct.unpack("<f", struct.pack("<f", float(j)))[0]
    except OverflowError:
        return False
    return as32 == x and j32 == x


def scalar(x, j, where):
    if isinstance(x, float):
        if not same_float(x, j):
            raise Mismatch("%s: %r, dump says %r" % (where, x, j))
    elif type(x) is not type(j) or x != j:
        raise Mismatch("%s: %r (%s), dump says %r (%s)" % (where, x, type(x).__name__, j,
                                                            type(j).__name__))


def json_key(k):
    """A map's key as JSON writes it: an integer key as its digits."""
    return str(k) if isinstance(k, int) and not isinstance(k, bool) else k


def plain(x, j, where):
    """to_python()'s result against the JSON. Where the two differ by
    design (docs/PYTHON.md, docs/DUMP.md): an absent optional field is None
    in the dict and left out of the dump, a union tagged by a field is
    {member: {...}} and the dump the member's object with the tag first,
    an integer map key is an int and the dump's its digits."""
    if isinstance(j, dict):
        if isinstance(x, dict):
            x = {json_key(k): v for k, v in x.items()}
        if isinstance(x, dict) and len(x) == 1 and list(x)[0] not in j and j and \
                isinstance(x[list(x)[0]], dict) and list(j)[0] not in x[list(x)[0]]:
            x = x[list(x)[0]]
            j = dict(list(j.items())[1:])
        if isinstance(x, dict):
            x = {k: v for k, v in x.items() if k in j or v is not None}
        if not isinstance(x, dict) or list(x) != list(j):
            raise Mismatch("%s: keys %r, dump has %r" % (where, x if not isinstance(x, dict)
                                                         else list(x), list(j)))
        for k in j:
            plain(x[k], j[k], "%s.%s" % (where, k))
    elif isinstance(j, list):
        if not isinstance(x, list) or len(x) != len(j):
            raise Mismatch("%s: %r, dump has %d items" % (where, type(x).__name__, len(j)))
        for i, (a, b) in enumerate(zip(x, j)):
            plain(a, b, "%s[%d]" % (where, i))
    elif j is None:
        if x is not None:
            raise Mismatch("%s: %r, dump says null" % (where, x))
    else:
        scalar(x, j, where)


def field(view, k):
    # a field named like a method (to_python) is still an item by name
    if k.isidentifier() and not hasattr(type(view), k):
        return getattr(view, k)
    return view[k]


def viewed(x, j, where):
    """The views against the JSON: attributes, items, sequences. A
    reference reads as its target, a struct with a key; dump writes the key."""
    if isinstance(x, blobc.Struct) and not isinstance(j, dict) and j is not None:
        k = blobc.key(x)
        if k is None:
            raise Mismatch("%s: %r, dump has %r" % (where, x, j))
        scalar(k, j, where + " (key)")
    elif isinstance(j, dict) and isinstance(x, blobc.Map):
        keys = [json_key(k) for k in x]
        if keys != list(j) or len(x) != len(j):
            raise Mismatch("%s: map keys %r, dump has %r" % (where, keys, list(j)))
        for k, (k2, v) in zip(x, x.items()):
            if k2 != k or k not in x:
                raise Mismatch("%s: items() or `in` disagree at key %r" % (where, k))
            viewed(x[k], j[json_key(k)], "%s{%s}" % (where, k))
            viewed(v, j[json_key(k)], "%s{%s} (items)" % (where, k))
    elif isinstance(j, (dict, list)) and isinstance(x, (dict, list)):
        plain(x, j, where + " (any)")
    elif isinstance(j, dict):
        if not isinstance(x, blobc.Struct):
            raise Mismatch("%s: %r, dump has an object" % (where, x))
        if x._tag is not None and list(j) == [x._tag]:
            if blobc.tag(x) != x._tag:
                raise Mismatch("%s: union member %s, blobc.tag says %r" % (where, x._tag, blobc.tag(x)))
            j = j[x._tag]
            where += "." + x._tag
        elif x._tag is not None:
            # a union tagged by a field: the dump's first key is the tag
            if not j or list(j)[0] in x._fields:
                raise Mismatch("%s: union member %s, dump has %r" % (where, x._tag, list(j)))
            j = dict(list(j.items())[1:])
            where += "." + x._tag
        # an absent optional field is left out of the dump
        fields = [k for k in x._fields if k in j or field(x, k) is not None]
        if fields != list(j):
            raise Mismatch("%s: fields %r, dump has %r" % (where, x._fields, list(j)))
        for k in j:
            viewed(field(x, k), j[k], "%s.%s" % (where, k))
    elif isinstance(j, list):
        if not isinstance(x, blobc.Array) or len(x) != len(j):
            raise Mismatch("%s: %r, dump has %d items" % (where, x, len(j)))
        items = list(x)
        for i, b in enumerate(j):
            viewed(x[i], b, "%s[%d]" % (where, i))
            viewed(items[i], b, "%s[%d] (iterated)" % (where, i))
        if j:
            viewed(x[-1], j[-1], "%s[-1]" % where)
            viewed(x[-len(j)], j[0], "%s[-len]" % where)
            for s in (slice(1, None), slice(None, None, -1), slice(-2, None, 2)):
                got = x[s]
                if len(got) != len(j[s]):
                    raise Mismatch("%s[%s]: %d items, want %d" % (where, s, len(got), len(j[s])))
                for a, b in zip(got, j[s]):
                    viewed(a, b, "%s[%s]" % (where, s))
        for i in (len(j), -len(j) - 1):
            try:
                x[i]
                raise Mismatch("%s[%d]: no IndexError" % (where, i))
            except IndexError:
                pass
    elif j is None:
        if x is not None:
            raise Mismatch("%s: %r, dump says null" % (where, x))
    else:
        scalar(x, j, where)


def values(args):
    for i in range(0, len(args), 3):
        name, blob, js = args[i:i + 3]
        try:
            with open(js, encoding="utf-8") as f:
                want = json.load(f)
            want.pop("$type", None)
            want.pop("$schema", None)
            root = blobc.open(blob)
            viewed(root, want, "(root)")
            plain(root.to_python(), want, "(root)")
            with open(blob, "rb") as f:
                plain(blobc.to_python(blobc.open(f.read())), want, "(root, from bytes)")
            ok(name)
        except (Mismatch, blobc.Error, OSError, ValueError, AttributeError, KeyError) as e:
            bad(name, "%s: %s" % (type(e).__name__, e))


def bad_blobs(d, blobc_cmd):
    with open(os.path.join(d, "MANIFEST"), encoding="utf-8") as f:
        lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    for fields in lines:
        if len(fields) != 2:
            continue  # needs a schema: the module opens self-describing blobs
        name, code = fields
        path = os.path.join(d, name)
        cli = subprocess.run([blobc_cmd, "verify", path], capture_output=True, text=True)
        test = "bad." + name[:-len(".blob")]
        with open(path, "rb") as f:
            data = f.read()
        try:
            for how, src in (("path", path), ("bytes", data)):
                try:
                    blobc.open(src)
                    got = "ok"
                except blobc.Error as e:
                    got = e.code_name
                    text = str(e)
                    want = cli.stderr.strip()
                    if how == "bytes":
                        want = want[len(path) + 2:]  # no file name to give
                    if text != want:
                        raise Mismatch("from %s: %r, blobc verify says %r" % (how, text, want))
                    if e.offset is None and "offset" in want:
                        raise Mismatch("from %s: no offset" % how)
                if got != code:
                    raise Mismatch("from %s: %s, want %s" % (how, got, code))
                if code == "ok" and blobc.verify(src) is not True:
                    raise Mismatch("verify(%s) is not True" % how)
            ok(test)
        except Mismatch as e:
            bad(test, str(e))


def check(name, cond, why):
    (ok if cond else lambda n: bad(n, why))(name)


def raises(fn, exc):
    try:
        fn()
    except exc as e:
        return e
    return None


def api(blob):
    lvl = blobc.open(blob)
    e = raises(lambda: lvl.room, AttributeError)
    check("attr_did_you_mean", e is not None and
          str(e) == "struct Level has no field 'room'; did you mean 'rooms'?", repr(e))
    e = raises(lambda: lvl.rooms[0].xyzzy, AttributeError)
    check("attr_lists_fields", e is not None and str(e).startswith(
        "struct Room has no field 'xyzzy' (fields: id, name, kind,"), repr(e))
    e = raises(lambda: lvl["rooms "], KeyError)
    check("item_did_you_mean", e is not None and "did you mean 'rooms'" in str(e), repr(e))
    # a NUL ends the name C reads: the name is still no field's
    e = raises(lambda: lvl["rooms\0x"], KeyError)
    check("item_nul_in_name", e is not None and "has no field" in str(e), repr(e))
    check("attr_nul_in_name", raises(lambda: getattr(lvl, "name\0"), AttributeError) is not None and
          "name\0" not in lvl, "")
    # an index that is no integer: TypeError, as a list's; out of range: the index given
    e = raises(lambda: lvl.rooms[1.0], TypeError)
    check("index_float_typeerror", e is not None and "not float" in str(e), repr(e))
    e = raises(lambda: lvl.rooms[-10], IndexError)
    check("index_negative_message", e is not None and str(e).startswith("index -10 out of range"), repr(e))
    check("index_bool_numpy_like", lvl.rooms[True].name == lvl.rooms[1].name, "")
    check("item_by_name", lvl["name"] == lvl.name == "Sunken Keep", repr(lvl["name"]))
    check("contains", "rooms" in lvl and "room" not in lvl, "")
    check("enum_is_name", lvl.rooms[-1].kind == "stairs" and type(lvl.rooms[0].kind) is str,
          repr(lvl.rooms[-1].kind))
    check("null_pointer_none", lvl.rooms[2].meta is None, repr(lvl.rooms[2].meta))
    check("pointer_target", isinstance(lvl.boss, blobc.Struct) and lvl.boss._type == "Room",
          repr(lvl.boss))
    check("u64", lvl.seed == 16045690984503111693, repr(lvl.seed))
    check("f32_widened", lvl.origin.rotation[2] == struct.unpack("<f", struct.pack("<f", 0.7071068))[0],
          repr(lvl.origin.rotation[2]))
    check("read_only", raises(lambda: setattr(lvl, "name", "x"), AttributeError) is not None, "")
    check("dir_fields", "rooms" in dir(lvl) and lvl._type == "Level", repr(lvl._type))
    e = raises(lambda: blobc.open(blob + ".missing"), OSError)
    check("missing_file_oserror", isinstance(e, FileNotFoundError), repr(e))
    e = raises(lambda: blobc.open(b"not a blob"), blobc.Error)
    check("bytes_refused", e is not None and e.code_name == "truncated" or
          e is not None and e.code_name == "bad-magic", repr(e))
    # the bytes stay alive while a view does: only an array view is kept
    with open(blob, "rb") as f:
        rooms = blobc.open(bytearray(f.read())).rooms
    gc.collect()
    check("views_keep_bytes", [r.name for r in rooms] == [r.name for r in lvl.rooms], "")
    # many threads read one blob at once, all alike
    want = lvl.to_python()
    got = []
    ts = [threading.Thread(target=lambda: got.append(lvl.to_python())) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check("threads", len(got) == 8 and all(repr(g) == repr(want) for g in got), "")


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "values":
        values(args)
    elif mode == "bad":
        bad_blobs(*args)
    elif mode == "api":
        api(*args)
    else:
        sys.exit("check.py: unknown mode " + mode)


main()
