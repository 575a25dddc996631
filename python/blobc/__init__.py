"""Reading blobc blobs from Python, through the types each blob carries.

    import blobc
    lvl = blobc.open("level.blob")        # a path, or the bytes of a blob
    lvl.rooms[0].name                     # 'Hall'
    lvl.rooms[-1].kind                    # 'stairs' (an enum is its name)
    lvl.to_python()                       # plain dicts and lists

No generated code and no compiler: the module calls libblobc's read API
(blobc/read.h) through ctypes. docs/PYTHON.md describes the mapping.
"""
import builtins
import ctypes
import difflib
import operator
import os
from collections.abc import Sequence

from . import _forms, _lib
from ._lib import lib

Map = _forms.Map

__all__ = ["open", "verify", "to_python", "tag", "key", "Error", "Struct", "Array", "Map"]

# BLOBC_KIND_* (blobc/schema.h)
_BOOL, _F32, _F64, _ENUM, _STRUCT, _STRING, _ARRAY, _FIXED, _PTR, _UNION = \
    1, 10, 11, 12, 13, 14, 15, 16, 17, 18
_SIGNED = (2, 4, 6, 8)
_UNSIGNED = (3, 5, 7, 9)


class Error(Exception):
    """A blob the library refused. str() is the library's message as the
    CLI prints it; code is the stable verify code (docs/VERIFY.md) and
    code_name its name, offset the byte offset (None when none applies),
    path the schema path of the bad value ('' when none)."""

    def __init__(self, err):
        self.status = err.status
        self.code = err.code
        name = lib.blobc_verify_code_name(err.code) if err.code else None
        self.code_name = name.decode() if name else None
        self.offset = err.offset if err.has_offset else None
        self.path = err.path.decode("utf-8", "replace")
        self.file = err.file.decode("utf-8", "replace")
        self.message = err.message.decode("utf-8", "replace")
        if name:
            # the stable code first, as `blobc verify` prints it
            err.message = (name + b": " + err.message)[:1023]
        buf = ctypes.create_string_buffer(4096)
        lib.blobc_error_format(ctypes.byref(err), buf, len(buf))
        super().__init__(buf.value.decode("utf-8", "replace"))


class _Reader:
    """An open blob: the bytes and the library's reader over them. Every
    view holds one, so the bytes live as long as any view does."""
    __slots__ = ("buf", "handle", "__weakref__")

    def __init__(self, src):
        self.handle = None
        name = ""
        if isinstance(src, (bytes, bytearray, memoryview)):
            data = memoryview(src).cast("B")
            # a copy of our own: malloc'd (aligned) and never changed under us
            self.buf = (ctypes.c_char * len(data)).from_buffer_copy(data)
        else:
            name = os.fsdecode(src)
            self.buf = _read_file(src)
        err = _lib.Error()
        h = ctypes.c_void_p()
        st = lib.blobc_reader_open(self.buf, len(self.buf), None, ctypes.byref(h),
                                   ctypes.byref(err))
        if st != 0:
            if name and not err.file:
                err.file = name.encode("utf-8", "surrogateescape")[:511]
            raise Error(err)
        self.handle = h

    def __del__(self):
        if self.handle:
            lib.blobc_reader_free(self.handle)
            self.handle = None


def _read_file(path):
    with builtins.open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not os.path.stat.S_ISREG(st.st_mode):
            data = f.read()
            return (ctypes.c_char * len(data)).from_buffer_copy(data)
        buf = (ctypes.c_char * st.st_size)()
        n = f.readinto(memoryview(buf).cast("B"))
        if n != st.st_size:
            raise OSError("%s: changed size while being read" % os.fsdecode(path))
        return buf



def open(src):  # noqa: A001
    """Opens a blob (a path, or bytes) after verifying it, and returns its
    root struct. Raises blobc.Error when the blob is refused, OSError when
    the file cannot be read."""
    r = _Reader(src)
    return _convert(r, lib.blobc_reader_root(r.handle))


def verify(src):
    """Verifies a blob (a path, or bytes) as `blobc verify` does: True, or
    raises blobc.Error with the code, offset and path of the first fault."""
    _Reader(src)
    return True


def _spell(v):
    buf = ctypes.create_string_buffer(256)
    lib.blobc_type_spell(v.type, buf, len(buf))
    return buf.value.decode("utf-8", "replace")


def _scalar(v, k):
    if k in _SIGNED:
        out = ctypes.c_int64()
        lib.blobc_value_int(v, ctypes.byref(out))
        return out.value
    if k in _UNSIGNED:
        out = ctypes.c_uint64()
        lib.blobc_value_uint(v, ctypes.byref(out))
        return out.value
    if k in (_F32, _F64):
        out = ctypes.c_double()
        lib.blobc_value_float(v, ctypes.byref(out))
        return out.value
    if k == _BOOL:
        out = ctypes.c_bool()
        lib.blobc_value_bool(v, ctypes.byref(out))
        return out.value
    if k == _ENUM:
        return lib.blobc_value_enum_name(v).decode("utf-8")
    if k == _STRING:
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        lib.blobc_value_string(v, ctypes.byref(p), ctypes.byref(n))
        return ctypes.string_at(p, n.value).decode("utf-8") if n.value else ""
    raise AssertionError("blobc: unexpected kind %d" % k)


def _convert(r, v):
    """The Python face of one value: a view for structs and arrays, the
    target of a pointer or reference (None when null), the member of a
    union (None when it holds none), a Python scalar otherwise."""
    k = lib.blobc_value_kind(v)
    while k == _PTR:
        v = lib.blobc_value_deref(v)
        k = lib.blobc_value_kind(v)
        if k == 0:
            return None
    if k == _STRUCT:
        return Struct(r, v, None)
    if k in (_ARRAY, _FIXED):
        return Array(r, v)
    if k == _UNION:
        t = lib.blobc_value_union_tag(v)
        if t is None:
            return None
        return Struct(r, lib.blobc_value_union_member(v), t.decode("utf-8"))
    if k == _forms.MAP:
        return _forms.Map(r, v, _convert)
    if k == _forms.OPTIONAL:
        return _forms.optional(r, v, _convert)
    if k == _forms.ANY:
        return _forms.any_value(r, v.offset)
    return _scalar(v, k)


class Struct:
    """A struct in a blob: its fields are attributes (and items by name).
    _fields is the tuple of field names, _type the type's name, _tag the
    union member name when the struct was reached through a union."""
    __slots__ = ("_r", "_v", "_tag")

    def __init__(self, r, v, tag):
        self._r, self._v, self._tag = r, v, tag

    @property
    def _fields(self):
        v = self._v
        n = lib.blobc_value_field_count(v)
        return tuple(lib.blobc_value_field_name(v, i).decode("utf-8") for i in range(n))

    @property
    def _type(self):
        return _spell(self._v)

    def _get(self, name):
        if "\0" in name:  # C would read the name only up to it
            return None, False
        f = lib.blobc_value_field(self._v, name.encode("utf-8", "surrogateescape"))
        if lib.blobc_value_kind(f) == 0:
            return f, False
        return _convert(self._r, f), True

    def __getattr__(self, name):
        if name in Struct.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        val, ok = self._get(name)
        if not ok:
            raise AttributeError(self._missing(name), name=name, obj=self)
        return val

    def __getitem__(self, name):
        if not isinstance(name, str):
            raise TypeError("a struct's items are its fields, by name")
        val, ok = self._get(name)
        if not ok:
            raise KeyError(self._missing(name))
        return val

    def __contains__(self, name):
        return isinstance(name, str) and self._get(name)[1]

    def _missing(self, name):
        fields = self._fields
        msg = "struct %s has no field '%s'" % (self._type, name)
        near = difflib.get_close_matches(name, fields, n=1, cutoff=0.6)
        if near:
            return msg + "; did you mean '%s'?" % near[0]
        return msg + " (fields: %s)" % ", ".join(fields)

    def __setattr__(self, name, value):
        if name in Struct.__slots__:
            object.__setattr__(self, name, value)
        else:
            raise AttributeError("blobc views are read-only")

    def __dir__(self):
        return sorted(set(self._fields) | {"to_python", "_fields", "_type", "_tag"})

    def __eq__(self, other):
        if isinstance(other, Struct):
            return self.to_python() == other.to_python()
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return "<blobc %s%s: %s>" % (self._type, "" if self._tag is None else
                                     " (union member %s)" % self._tag,
                                     ", ".join(self._fields))

    def to_python(self):
        """Plain dicts and lists, the shape `blobc dump --json` writes."""
        return to_python(self)


class Array(Sequence):
    """A [T] or [T; N]: len, indexing (negative too), slices (lists),
    iteration. Items are converted as fields are."""
    __slots__ = ("_r", "_v", "_n")

    def __init__(self, r, v):
        self._r, self._v = r, v
        self._n = lib.blobc_value_length(v)

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        try:
            i = operator.index(i)
        except TypeError:
            raise TypeError("%s indices must be integers or slices, not %s"
                            % (_spell(self._v), type(i).__name__)) from None
        j = i + self._n if i < 0 else i
        if not 0 <= j < self._n:
            raise IndexError("index %d out of range for %s of %d items"
                             % (i, _spell(self._v), self._n))
        return _convert(self._r, lib.blobc_value_item(self._v, j))

    def __iter__(self):
        for i in range(self._n):
            yield _convert(self._r, lib.blobc_value_item(self._v, i))

    def __eq__(self, other):
        if isinstance(other, (Array, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __repr__(self):
        return "<blobc %s: %d items>" % (_spell(self._v), self._n)

    def to_python(self):
        return to_python(self)


def key(value):
    """The key of a struct with a @key field (its value, as the field
    reads), else None."""
    if not isinstance(value, Struct):
        return None
    k = lib.blobc_value_key(value._v)
    kind = lib.blobc_value_kind(k)
    return _scalar(k, kind) if kind else None


def _plain(r, v):
    """A value for to_python: a reference as its target's key, as `blobc
    dump` writes it (so that cycles end), else as _convert has it."""
    k = lib.blobc_value_key(v) if lib.blobc_value_kind(v) == _PTR else None
    if k is not None and lib.blobc_value_kind(k):
        return _scalar(k, lib.blobc_value_kind(k))
    return _convert(r, v)


def tag(value):
    """The union member name of a struct reached through a union, else None."""
    return value._tag if isinstance(value, Struct) else None


def to_python(value):
    """A view as plain dicts and lists: structs are dicts in field order, a
    union is {member: {...}} (None when it holds none), a null *T is None,
    a reference &T its target's key, enums their names, floats Python
    floats (an f32 exactly widened).
    Scalars pass through. Without recursion, so any depth converts; a
    struct shared by several references is one dict."""
    if not isinstance(value, (Struct, Array, _forms.Map)):
        return value
    memo = {}
    box = [None]
    work = [(value, box, 0)]
    while work:
        x, into, key = work.pop()
        if isinstance(x, Struct):
            ident = (x._v.type, x._v.offset)
            d = memo.get(ident)
            if d is None:
                d = memo[ident] = {}
                v = x._v
                for i in range(lib.blobc_value_field_count(v)):
                    name = lib.blobc_value_field_name(v, i).decode("utf-8")
                    d[name] = None
                    work.append((_plain(x._r, lib.blobc_value_field_at(v, i)), d, name))
            if x._tag is not None:
                d = {x._tag: d}
            into[key] = d
        elif isinstance(x, Array):
            lst = [None] * len(x)
            for i in range(len(x)):
                work.append((_plain(x._r, lib.blobc_value_item(x._v, i)), lst, i))
            into[key] = lst
        elif isinstance(x, _forms.Map):
            d = {}
            for i, e in enumerate(x._entries):
                k = x._key(i)
                d[k] = None
                work.append((_plain(x._r, lib.blobc_value_field_at(e, 1)), d, k))
            into[key] = d
        else:
            into[key] = x
    return box[0]
