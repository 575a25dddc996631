"""Maps, optionals and any-values, read from a blob's bytes: the library's
value API (blobc/read.h) walks structs, arrays and unions; these kinds it
hands over as a type and an offset, and this module reads the rest."""
import ctypes
import struct
from collections.abc import Mapping

from . import _lib

MAP, OPTIONAL, ANY = 21, 22, 23
_ENUM, _STRING = 12, 14
_SIGNED = (2, 4, 6, 8)
_HEADER = 96  # a .blob's data section starts after its header (FORMAT.md)


class _Type(ctypes.Structure):
    # the leading members of blobc_type (blobc/schema.h), all this reads
    _fields_ = [("kind", ctypes.c_int), ("size", ctypes.c_uint32), ("align", ctypes.c_uint32),
                ("name", ctypes.c_char_p), ("elem", ctypes.c_void_p)]


def _type(p):
    return _Type.from_address(p)


def _data(r):
    return memoryview(r.buf).cast("B")[_HEADER:]


def _u32(d, o):
    return struct.unpack_from("<I", d, o)[0]


def _rel(d, o):
    """The target of the self-relative i32 at o, or None for 0."""
    off = struct.unpack_from("<i", d, o)[0]
    return o + off if off else None


def _string(d, o):
    at, n = _rel(d, o), _u32(d, o + 4)
    return bytes(d[at:at + n - 1]).decode("utf-8") if at is not None and n else ""


def _list(d, o, size):
    at, n = _rel(d, o), _u32(d, o + 4)
    return [at + i * size for i in range(n)] if at is not None else []


def any_value(r, offset):
    """An any-value as Python: None, bool, int, float, str, list, dict (in
    key order). Nested lists and mappings are converted with a work list,
    so that the deepest nesting blobs allow needs no recursion."""
    d = _data(r)
    box = [None]
    work = [(offset, box, 0)]
    while work:
        o, into, key = work.pop()
        k = _u32(d, o)
        if k == 1:
            v = d[o + 4] != 0
        elif k == 2:
            v = struct.unpack_from("<q", d, o + 4)[0]
        elif k == 3:
            v = struct.unpack_from("<Q", d, o + 4)[0]
        elif k == 4:
            v = struct.unpack_from("<d", d, o + 4)[0]
        elif k == 5:
            v = _string(d, o + 4)
        elif k == 6:
            items = _list(d, o + 4, 12)
            v = [None] * len(items)
            work.extend((e, v, i) for i, e in enumerate(items))
        elif k == 7:
            v = {}
            for e in _list(d, o + 4, 20):
                v[_string(d, e)] = None
                work.append((e + 8, v, _string(d, e)))
        else:
            v = None
        into[key] = v
    return box[0]


def optional(r, v, convert):
    """The value of a ?T, or None when absent."""
    t = _type(v.type)
    inner = _type(t.elem)
    if _data(r)[v.offset + inner.size] == 0:
        return None
    return convert(r, _lib.Value(v.reader, t.elem, v.offset))


class Map(Mapping):
    """A map [K: V]: len, m[key], get, `in`, keys/values/items and
    iteration in key order (the blob's). A lookup by string or integer key
    is a binary search over the sorted entries; an enum key is its
    member's name (or its value)."""
    __slots__ = ("_r", "_v", "_entries", "_convert", "_kind")

    def __init__(self, r, v, convert):
        self._r, self._v, self._convert = r, v, convert
        entry = _type(v.type).elem
        self._entries = [_lib.Value(v.reader, entry, o)
                         for o in _list(_data(r), v.offset, _type(entry).size)]
        self._kind = None

    def _key(self, i):
        return self._convert(self._r, _lib.lib.blobc_value_field_at(self._entries[i], 0))

    def _order(self, i):
        """Entry i's key as the blob orders it: bytes, or a number."""
        k = _lib.lib.blobc_value_field_at(self._entries[i], 0)
        kind = _lib.lib.blobc_value_kind(k)
        if kind == _STRING:
            return self._key(i).encode("utf-8")
        if kind == _ENUM or kind in _SIGNED:
            out = ctypes.c_int64()
            if _lib.lib.blobc_value_int(k, ctypes.byref(out)):
                return out.value
        out = ctypes.c_uint64()
        _lib.lib.blobc_value_uint(k, ctypes.byref(out))
        return out.value

    def _find(self, key):
        if self._entries and isinstance(key, str) and \
                _lib.lib.blobc_value_kind(_lib.lib.blobc_value_field_at(self._entries[0], 0)) == _ENUM:
            for i in range(len(self._entries)):
                if self._key(i) == key:
                    return i
            return None
        want = key.encode("utf-8") if isinstance(key, str) else key
        lo, hi = 0, len(self._entries)
        while lo < hi:
            mid = (lo + hi) // 2
            k = self._order(mid)
            if type(k) is not type(want):
                return None
            if k < want:
                lo = mid + 1
            elif want < k:
                hi = mid
            else:
                return mid
        return None

    def __getitem__(self, key):
        i = self._find(key)
        if i is None:
            raise KeyError(key)
        return self._convert(self._r, _lib.lib.blobc_value_field_at(self._entries[i], 1))

    def __contains__(self, key):
        return self._find(key) is not None

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        for i in range(len(self._entries)):
            yield self._key(i)

    def items(self):
        return [(self._key(i), self._convert(self._r, _lib.lib.blobc_value_field_at(e, 1)))
                for i, e in enumerate(self._entries)]

    def __repr__(self):
        return "<blobc map: %d entries>" % len(self._entries)
