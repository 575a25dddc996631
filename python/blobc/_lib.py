"""Finding libblobc and declaring the read API (blobc/read.h) for ctypes.

The library is looked for, in order: the file named by BLOBC_LIBRARY; a
libblobc.so.0 next to this package (`make install` links one there); the
build/ directory of the source tree this package sits in; the system
loader (LD_LIBRARY_PATH, ldconfig's cache).
"""
import ctypes
import ctypes.util
import glob
import os

SONAME = "libblobc.so.0"


class Value(ctypes.Structure):
    _fields_ = [("reader", ctypes.c_void_p), ("type", ctypes.c_void_p),
                ("offset", ctypes.c_uint64)]


class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("code", ctypes.c_int),
                ("line", ctypes.c_uint32), ("column", ctypes.c_uint32),
                ("has_offset", ctypes.c_int), ("offset", ctypes.c_uint64),
                ("file", ctypes.c_char * 512), ("path", ctypes.c_char * 512),
                ("message", ctypes.c_char * 1024),
                ("source_line", ctypes.c_char * 256)]


def _candidates():
    env = os.environ.get("BLOBC_LIBRARY")
    if env:
        # named explicitly: that file or nothing, never a silent fallback
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    out = [os.path.join(here, SONAME)]
    # the source tree's build/ holds only the versioned file
    out += sorted(glob.glob(os.path.join(here, "..", "..", "build", SONAME + ".*")))
    found = ctypes.util.find_library("blobc")
    out.append(found or SONAME)
    return out


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (no such file)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("blobc: cannot load the blobc library; tried: " + "; ".join(tried)
                      + ". Set BLOBC_LIBRARY to the path of " + SONAME)


_P = ctypes.c_void_p
_U32 = ctypes.c_uint32
_SIGS = {
    "blobc_reader_open": (ctypes.c_int, [_P, ctypes.c_size_t, _P, ctypes.POINTER(_P),
                                         ctypes.POINTER(Error)]),
    "blobc_reader_free": (None, [_P]),
    "blobc_reader_root": (Value, [_P]),
    "blobc_value_kind": (ctypes.c_int, [Value]),
    "blobc_value_field_count": (_U32, [Value]),
    "blobc_value_field_name": (ctypes.c_char_p, [Value, _U32]),
    "blobc_value_field_at": (Value, [Value, _U32]),
    "blobc_value_field": (Value, [Value, ctypes.c_char_p]),
    "blobc_value_union_tag": (ctypes.c_char_p, [Value]),
    "blobc_value_union_member": (Value, [Value]),
    "blobc_value_length": (_U32, [Value]),
    "blobc_value_item": (Value, [Value, _U32]),
    "blobc_value_deref": (Value, [Value]),
    "blobc_value_key": (Value, [Value]),
    "blobc_value_is_null": (ctypes.c_bool, [Value]),
    "blobc_value_enum_name": (ctypes.c_char_p, [Value]),
    "blobc_value_int": (ctypes.c_bool, [Value, ctypes.POINTER(ctypes.c_int64)]),
    "blobc_value_uint": (ctypes.c_bool, [Value, ctypes.POINTER(ctypes.c_uint64)]),
    "blobc_value_float": (ctypes.c_bool, [Value, ctypes.POINTER(ctypes.c_double)]),
    "blobc_value_bool": (ctypes.c_bool, [Value, ctypes.POINTER(ctypes.c_bool)]),
    "blobc_value_string": (ctypes.c_bool, [Value, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.POINTER(ctypes.c_size_t)]),
    "blobc_type_spell": (ctypes.c_size_t, [_P, ctypes.c_char_p, ctypes.c_size_t]),
    "blobc_error_format": (ctypes.c_size_t, [ctypes.POINTER(Error), ctypes.c_char_p,
                                             ctypes.c_size_t]),
    "blobc_verify_code_name": (ctypes.c_char_p, [ctypes.c_int]),
    "blobc_kind_name": (ctypes.c_char_p, [ctypes.c_int]),
}

lib = _load()
for _name, (_res, _args) in _SIGS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
