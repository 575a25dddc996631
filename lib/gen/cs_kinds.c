/*
 * cs_kinds.c - what `gen cs` writes for `any` and for the tags of unions
 * tagged by a field or a YAML tag (docs/UNITY.md, "Maps, optionals, any
 * and tagged unions").
 *
 * An any is 12 bytes, a u32 kind and 8 bytes of body (docs/FORMAT.md,
 * "Free-form values"). Its reader struct keeps the body as two ints, as
 * a string's, a list's or a mapping's offset and length are, and reads
 * lists ([any], 12 bytes an item) and mappings ([string: any], 20 bytes
 * an entry: the key's string, then the value) through pointers: typed
 * views of them would make the struct hold itself (CS0523 for mcs).
 */
#include "gen/cs_internal.h"

#include <inttypes.h>

void blobc_gencs_emit_any(csgen *c, const char *name) {
    const char *in = c->indent, *ar = as_ref(c);
    emit(c, "%s// any: size 12, alignment 4; a kind, then 8 bytes of body (an int, a float, a string, a list\n"
            "%s// of any or a mapping of strings to any)\n", in, in);
    if (!c->standalone) emit(c, "%s[MayOnlyLiveInBlobStorage]\n", in);
    emit(c, "%s[StructLayout(LayoutKind.Explicit, Size = 12)]\n%spublic unsafe struct %s\n%s{\n", in, in, name, in);
    emit(c, "%s    /// <summary>What an any holds.</summary>\n"
            "%s    public enum Kind : uint { Null = 0, Bool = 1, Int = 2, UInt = 3, Float = 4, String = 5, List = 6, Map = 7 }\n\n"
            "%s    [FieldOffset(0)] public Kind kind;\n"
            "%s    [FieldOffset(4)] internal int offset;\n"
            "%s    [FieldOffset(8)] internal int length;\n\n",
         in, in, in, in, in);
    emit(c, "%s    ulong Bits { get { return (uint)offset | (ulong)(uint)length << 32; } }\n\n"
            "%s    /// <summary>A Bool's value; false for any other kind.</summary>\n"
            "%s    public bool AsBool { get { return kind == Kind.Bool && (offset & 0xff) != 0; } }\n\n"
            "%s    /// <summary>An Int; 0 for any other kind (a UInt does not fit a long).</summary>\n"
            "%s    public long AsLong { get { return kind == Kind.Int ? (long)Bits : 0; } }\n\n"
            "%s    /// <summary>A UInt or an Int of 0 or more; 0 for any other kind.</summary>\n"
            "%s    public ulong AsULong { get { return kind == Kind.UInt || (kind == Kind.Int && length >= 0) ? Bits : 0; } }\n\n"
            "%s    /// <summary>A Float, or an Int or a UInt converted; 0 for any other kind.</summary>\n"
            "%s    public double AsDouble\n%s    {\n%s        get\n%s        {\n"
            "%s            if (kind == Kind.Float) return global::System.BitConverter.Int64BitsToDouble((long)Bits);\n"
            "%s            if (kind == Kind.Int) return (long)Bits;\n"
            "%s            return kind == Kind.UInt ? (double)Bits : 0;\n"
            "%s        }\n%s    }\n\n",
         in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in);
    emit(c, "%s    /// <summary>A String's text; null for any other kind.</summary>\n"
            "%s    public string AsString\n%s    {\n%s        get\n%s        {\n"
            "%s            if (kind != Kind.String) return null;\n"
            "%s            if (length <= 1) return \"\";\n"
            "%s            fixed (int* p = &offset) { return global::System.Text.Encoding.UTF8.GetString((byte*)p + offset, length - 1); }\n"
            "%s        }\n%s    }\n\n",
         in, in, in, in, in, in, in, in, in, in);
    emit(c, "%s    int Count(Kind k) { return kind == k && offset != 0 && length > 0 ? length : 0; }\n\n"
            "%s    int Index(int index, int count)\n%s    {\n"
            "%s        if ((uint)index >= (uint)count)\n"
            "%s            throw new global::System.IndexOutOfRangeException(\"index \" + index + \" is outside the %s of \" + count);\n"
            "%s        return index;\n%s    }\n\n",
         in, in, in, in, in, name, in, in);
    emit(c, "%s    /// <summary>A List's length; 0 for any other kind.</summary>\n"
            "%s    public int ListCount { get { return Count(Kind.List); } }\n\n"
            "%s    /// <summary>Item i of a List; throws IndexOutOfRangeException outside 0..ListCount-1.</summary>\n"
            "%s    public ref %s ListItem(int index)\n%s    {\n"
            "%s        long at = Index(index, ListCount) * 12L;\n"
            "%s        fixed (int* p = &offset) { return ref %s<%s>((byte*)p + offset + at); }\n%s    }\n\n",
         in, in, in, in, name, in, in, in, ar, name, in);
    emit(c, "%s    /// <summary>A Map's entry count; 0 for any other kind.</summary>\n"
            "%s    public int MapCount { get { return Count(Kind.Map); } }\n\n"
            "%s    /// <summary>Key i of a Map, in key order; throws IndexOutOfRangeException outside 0..MapCount-1.</summary>\n"
            "%s    public string MapKey(int index)\n%s    {\n"
            "%s        long at = Index(index, MapCount) * 20L;\n"
            "%s        fixed (int* p = &offset)\n%s        {\n"
            "%s            int* e = (int*)((byte*)p + offset + at);\n"
            "%s            return e[1] <= 1 ? \"\" : global::System.Text.Encoding.UTF8.GetString((byte*)e + e[0], e[1] - 1);\n"
            "%s        }\n%s    }\n\n",
         in, in, in, in, in, in, in, in, in, in, in, in);
    emit(c, "%s    /// <summary>Value i of a Map; throws IndexOutOfRangeException outside 0..MapCount-1.</summary>\n"
            "%s    public ref %s MapValue(int index)\n%s    {\n"
            "%s        long at = Index(index, MapCount) * 20L + 8;\n"
            "%s        fixed (int* p = &offset) { return ref %s<%s>((byte*)p + offset + at); }\n%s    }\n\n",
         in, in, name, in, in, in, ar, name, in);
    emit(c, "%s    /// <summary>The index of a Map's entry whose key is key, or -1 (also for any other\n"
            "%s    /// kind): a binary search, keys compared as UTF-8 bytes, a shorter prefix first.</summary>\n"
            "%s    public int MapFind(string key)\n%s    {\n"
            "%s        byte[] k = global::System.Text.Encoding.UTF8.GetBytes(key);\n"
            "%s        int lo = 0, hi = MapCount;\n"
            "%s        fixed (int* p = &offset)\n%s        {\n"
            "%s            while (lo < hi)\n%s            {\n"
            "%s                int mid = lo + (hi - lo) / 2;\n"
            "%s                int* e = (int*)((byte*)p + offset + mid * 20L);\n"
            "%s                byte* m = (byte*)e + e[0];\n"
            "%s                int n = e[1] - 1, c = 0;\n"
            "%s                for (int i = 0; c == 0 && i < n && i < k.Length; i++) c = m[i].CompareTo(k[i]);\n"
            "%s                if (c == 0) c = n.CompareTo(k.Length);\n"
            "%s                if (c < 0) lo = mid + 1;\n"
            "%s                else if (c > 0) hi = mid;\n"
            "%s                else return mid;\n"
            "%s            }\n%s        }\n%s        return -1;\n%s    }\n%s}\n\n",
         in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in, in);
}

/* s as a C# string literal: quotes and backslashes escaped, and what would
 * end the line or is invisible (controls, DEL, U+0085, U+2028, U+2029) as
 * \uXXXX; the rest is UTF-8 as it is. */
static void put_literal(csgen *c, const char *s) {
    emit(c, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') emit(c, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) emit(c, "\\u%04x", *p);
        else if (p[0] == 0xc2 && p[1] == 0x85) emit(c, "\\u0085"), p++;
        else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) emit(c, "\\u%04x", 0x2000 + p[2] - 0x80), p += 2;
        else emit(c, "%c", *p);
    }
    emit(c, "\"");
}

void blobc_gencs_emit_union_tags(csgen *c, const blobc_type *t, const cs_type_info *ti) {
    const char *in = c->indent;
    bool ints = t->by == BLOBC_UNION_BY_FIELD && t->int_tags;
    if (t->by == BLOBC_UNION_BY_FIELD && t->tag_field) {
        emit(c, "\n%s    /// <summary>The field of a member's data that names the member.</summary>\n"
                "%s    public const string %s = ", in, in, ti->tag_field_const);
        put_literal(c, t->tag_field);
        emit(c, ";\n");
    }
    if (t->by == BLOBC_UNION_BY_FIELD && t->default_member && t->default_member <= t->nfields)
        emit(c, "\n%s    /// <summary>The member whose data may leave out the tag field.</summary>\n"
                "%s    public const %s %s = %s.%s;\n", in, in, ti->tag_enum, ti->default_const, ti->tag_enum,
             ti->values[t->default_member - 1]);
    emit(c, "\n%s    /// <summary>The tag that names a member in the data (%s), or %s for None.</summary>\n"
            "%s    public static %s %s(%s member)\n%s    {\n%s        switch (member)\n%s        {\n",
         in, t->by == BLOBC_UNION_BY_TAG ? "its YAML tag" : "the value of its tag field", ints ? "0" : "null", in,
         ints ? "long" : "string", ti->tag_of, ti->tag_enum, in, in, in);
    for (uint32_t m = 0; m < t->nfields; m++) {
        emit(c, "%s            case %s.%s: return ", in, ti->tag_enum, ti->values[m]);
        if (ints) emit(c, "%" PRId64, (int64_t)t->fields[m].tag_value);
        else put_literal(c, t->fields[m].tag ? t->fields[m].tag : "");
        emit(c, ";\n");
    }
    emit(c, "%s            default: return %s;\n%s        }\n%s    }\n", in, ints ? "0" : "null", in, in);
}
