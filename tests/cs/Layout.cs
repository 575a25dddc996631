// Prints the layout C# gives the structs of an assembly made from
// `blobc gen cs` output, in the form tests/cli/unity.sh makes of
// `blobc check`: "Type size N" and "Type.field offset", with the names
// the schema uses (an item-per-field array by its first item, an untyped
// BlobArray/BlobPtr by its offset int, without the `_`s that keep a name
// clear of another). Sizes are checked twice: as the
// runtime lays the struct out in memory (unsafe, through a Span of bytes)
// and as Marshal sees it, which must agree for blob data to be readable.
// And every struct that holds an offset, and no other, must be marked
// [MayOnlyLiveInBlobStorage]. The structs of map entries, optionals and
// any (`*_entry`, `*_opt`, `BlobAny*`) are checked for the mark and their
// size, but have no layout lines: blobc check prints none for them.
// Usage: mono Layout.exe ASSEMBLY
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;

static class Layout
{
    static int MemorySize<T>() where T : struct
    {
        return MemoryMarshal.AsBytes(new Span<T>(new T[1])).Length;
    }

    // A name without the `_`s gen cs appends to keep it clear of another
    // (docs/UNITY.md, "Names"); unity.sh strips them from blobc check's.
    static string Plain(string n)
    {
        string p = n.TrimEnd('_');
        return p.Length > 0 ? p : "_";
    }

    static string SchemaName(Type t, FieldInfo f, out bool skip)
    {
        string n = f.Name;
        skip = false;
        BindingFlags all = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        // the internal ints of an untyped BlobArray/BlobPtr: P_offset and
        // P_length (each with `_`s behind when taken), read through the
        // ref property P
        if (!f.IsPublic && f.FieldType == typeof(int))
        {
            foreach (PropertyInfo p in t.GetProperties(all))
            {
                if (!p.PropertyType.IsByRef || !n.StartsWith(p.Name + "_")) continue;
                string rest = Plain(n.Substring(p.Name.Length));
                if (rest == "_offset") return Plain(p.Name);
                if (rest == "_length") { skip = true; return n; }
            }
        }
        int us = n.LastIndexOf('_');
        string stem = us > 0 ? n.Substring(0, us) : n;
        int k;
        if (us > 0 && int.TryParse(n.Substring(us + 1), out k) && t.GetField(stem + "_0", all) != null)
        {
            skip = k != 0;
            n = stem;
        }
        return Plain(n);
    }

    // Whether a value of type t holds an offset, valid only where it lies
    // in blob storage: a BlobArray, BlobPtr or BlobString, an offset kept
    // as an internal int (untyped views, a union's), or a struct holding one.
    static bool HoldsOffsets(Type t)
    {
        if (t.IsGenericType && t.Namespace == "Unity.Entities") return true;
        if (t == typeof(Unity.Entities.BlobString)) return true;
        if (!t.IsValueType || t.IsPrimitive || t.IsEnum) return false;
        foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
        {
            if (!f.IsPublic && f.FieldType == typeof(int)) return true;
            if (f.FieldType != t && HoldsOffsets(f.FieldType)) return true;
        }
        return false;
    }

    static bool Helper(string n)
    {
        return n.EndsWith("_entry") || n.EndsWith("_opt") || n.StartsWith("BlobAny");
    }

    static int Main(string[] args)
    {
        var lines = new List<string>();
        MethodInfo size = typeof(Layout).GetMethod("MemorySize", BindingFlags.NonPublic | BindingFlags.Static);
        int bad = 0;
        foreach (Type t in Assembly.LoadFrom(args[0]).GetTypes())
        {
            if (!t.IsValueType || t.IsEnum || t.IsNested) continue;
            if (t.Namespace != null && t.Namespace.StartsWith("Unity")) continue;
            // copied out of blob storage, such a struct reads garbage:
            // Unity's analysis refuses the copy when it is marked
            bool marked = t.IsDefined(typeof(Unity.Entities.MayOnlyLiveInBlobStorageAttribute), false);
            if (marked != HoldsOffsets(t))
            {
                Console.Error.WriteLine(t.Name + (marked ? " is marked [MayOnlyLiveInBlobStorage] but holds no offset"
                                                         : " holds offsets but lacks [MayOnlyLiveInBlobStorage]"));
                bad++;
            }
            if (t.Name.StartsWith("Fixed_")) continue;
            int mem = (int)size.MakeGenericMethod(t).Invoke(null, null);
            int marshal = Marshal.SizeOf(t);
            if (mem != marshal)
            {
                Console.Error.WriteLine(t.Name + ": " + mem + " bytes in memory, " + marshal + " for Marshal");
                bad++;
            }
            // the structs gen cs adds for maps, optionals and any: blobc
            // check has no line for them (their sizes are in its fields')
            if (Helper(Plain(t.Name))) continue;
            lines.Add(Plain(t.Name) + " size " + mem);
            foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
            {
                bool skip;
                string n = SchemaName(t, f, out skip);
                if (!skip) lines.Add(Plain(t.Name) + "." + n + " " + Marshal.OffsetOf(t, f.Name));
            }
        }
        lines.Sort(string.CompareOrdinal);
        foreach (string l in lines) Console.Out.Write(l + "\n");
        return bad == 0 ? 0 : 1;
    }
}
