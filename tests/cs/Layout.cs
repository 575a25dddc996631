// Prints the layout C# gives the structs of an assembly made from
// `blobc gen cs` output, in the form tests/cli/unity.sh makes of
// `blobc check`: "Type size N" and "Type.field offset", with the names
// the schema uses (an item-per-field array by its first item, an untyped
// BlobArray/BlobPtr by its offset int). Sizes are checked twice: as the
// runtime lays the struct out in memory (unsafe, through a Span of bytes)
// and as Marshal sees it, which must agree for blob data to be readable.
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

    static string SchemaName(Type t, FieldInfo f, out bool skip)
    {
        string n = f.Name;
        skip = false;
        BindingFlags all = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        int us = n.LastIndexOf('_');
        string stem = us > 0 ? n.Substring(0, us) : n;
        int k;
        if (n.EndsWith("_offset") && t.GetProperty(stem, all) != null) n = stem;
        else if (n.EndsWith("_length") && t.GetProperty(stem, all) != null) skip = true;
        else if (us > 0 && int.TryParse(n.Substring(us + 1), out k) && t.GetField(stem + "_0", all) != null)
        {
            skip = k != 0;
            n = stem;
        }
        if (n == t.Name + "_") n = t.Name; // a member named like its struct
        return n;
    }

    static int Main(string[] args)
    {
        var lines = new List<string>();
        MethodInfo size = typeof(Layout).GetMethod("MemorySize", BindingFlags.NonPublic | BindingFlags.Static);
        int bad = 0;
        foreach (Type t in Assembly.LoadFrom(args[0]).GetTypes())
        {
            if (!t.IsValueType || t.IsEnum || t.IsNested || t.Name.StartsWith("Fixed_")) continue;
            if (t.Namespace != null && t.Namespace.StartsWith("Unity")) continue;
            int mem = (int)size.MakeGenericMethod(t).Invoke(null, null);
            int marshal = Marshal.SizeOf(t);
            if (mem != marshal)
            {
                Console.Error.WriteLine(t.Name + ": " + mem + " bytes in memory, " + marshal + " for Marshal");
                bad++;
            }
            lines.Add(t.Name + " size " + mem);
            foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
            {
                bool skip;
                string n = SchemaName(t, f, out skip);
                if (!skip) lines.Add(t.Name + "." + n + " " + Marshal.OffsetOf(t, f.Name));
            }
        }
        lines.Sort(string.CompareOrdinal);
        foreach (string l in lines) Console.Out.Write(l + "\n");
        return bad == 0 ? 0 : 1;
    }
}
