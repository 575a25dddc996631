// Reads a Unity blob asset file of tests/data/unity/level.schema through
// the structs `blobc gen cs --namespace Game.Data` made for it, with
// BlobAssetReference<Level>.TryRead as a DOTS project would, and prints
// every value as "path = value", the paths and value spellings of
// `blobc dump --map`, for tests/cli/unity.sh to compare.
// Usage: mono ReadLevel.exe FILE VERSION
// Compiled with -define:STANDALONE, it reads a .blob of the same schema
// through `gen cs --runtime standalone` and BlobcRuntime.cs instead
// (tests/cli/csharp.sh), where vectors are fixed buffers.
// Usage: mono ReadLevel.exe FILE
using System;
using System.Globalization;
using System.IO;
using System.Text;
using Game.Data;
#if STANDALONE
using Blobc;
#else
using Unity.Entities;
using Unity.Mathematics;
#endif

static unsafe class ReadLevel
{
    static TextWriter o;

    static void P(string path, string value) { o.Write(path + " = " + value + "\n"); }
    static void P(string path, long v) { P(path, v.ToString(CultureInfo.InvariantCulture)); }
    static void P(string path, ulong v) { P(path, v.ToString(CultureInfo.InvariantCulture)); }
    static void P(string path, bool v) { P(path, v ? "true" : "false"); }
    static void P(string path, double v)
    {
        string s = v.ToString("R", CultureInfo.InvariantCulture);
        if (s.IndexOf('.') < 0 && s.IndexOf('E') < 0) s += ".0";
        P(path, s);
    }
    static void P(string path, ref BlobString s) { P(path, "\"" + s.ToString() + "\""); }
    static bool Empty(string path, int length)
    {
        if (length == 0) P(path, "[]");
        return length == 0;
    }

#if STANDALONE
    static void F(string path, float* v, int n) { for (int i = 0; i < n; i++) P(path + "[" + i + "]", v[i]); }

    static void Item(string path, ref Item it)
    {
        P(path + ".kind", it.kind.ToString());
        fixed (float* v = it.pos) F(path + ".pos", v, 3);
        P(path + ".count", it.count);
    }

    static void Bounds(string path, ref Bounds b)
    {
        fixed (float* v = b.min) F(path + ".min", v, 4);
        fixed (float* v = b.max) F(path + ".max", v, 4);
        fixed (bool* f = b.flags)
        {
            P(path + ".flags[0]", f[0]);
            P(path + ".flags[1]", f[1]);
        }
    }
#else
    static void F3(string path, float3 v) { P(path + "[0]", v.x); P(path + "[1]", v.y); P(path + "[2]", v.z); }
    static void F4(string path, float4 v) { F3(path, new float3 { x = v.x, y = v.y, z = v.z }); P(path + "[3]", v.w); }

    static void Item(string path, ref Item it)
    {
        P(path + ".kind", it.kind.ToString());
        F3(path + ".pos", it.pos);
        P(path + ".count", it.count);
    }

    static void Bounds(string path, ref Bounds b)
    {
        F4(path + ".min", b.min);
        F4(path + ".max", b.max);
        P(path + ".flags[0]", b.flags.x);
        P(path + ".flags[1]", b.flags.y);
    }
#endif

    // dump --map: "path: Prop tag = 2 (Bounds)", or for none the tag and "offset = 0"
    static void PrintProp(string path, ref Prop p)
    {
        if (p.tag == Prop.Tag.None)
        {
            P(path, "0 (none)");
            P(path, "0");
            return;
        }
        P(path, (uint)p.tag + " (" + p.tag + ")");
        if (p.tag == Prop.Tag.Item) Item(path + ".Item", ref p.AsItem);
        else Bounds(path + ".Bounds", ref p.AsBounds);
    }

    static void ItemPtr(string path, ref BlobPtr<Item> p)
    {
        if (!p.IsValid) P(path, "null");
        else Item(path, ref p.Value);
    }

    static void Node(string path, ref Node n)
    {
        P(path + ".id", n.id);
        if (!Empty(path + ".kids", n.kids.Length))
            for (int i = 0; i < n.kids.Length; i++) Node(path + ".kids[" + i + "]", ref n.kids[i]);
        if (!n.next.IsValid) P(path + ".next", "null");
        else Node(path + ".next", ref n.next.Value);
    }

    static int Main(string[] args)
    {
        o = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
#if STANDALONE
        BlobAsset<Level> blob;
        BlobStatus st = Level.TryOpen(File.ReadAllBytes(args[0]), out blob);
        if (st != BlobStatus.Ok)
        {
            Console.Error.WriteLine(args[0] + ": " + st + ": " + BlobException.Describe(st));
            return 1;
        }
#else
        BlobAssetReference<Level> blob;
        if (!BlobAssetReference<Level>.TryRead(args[0], int.Parse(args[1]), out blob))
        {
            Console.Error.WriteLine(args[0] + ": TryRead refused the file (version)");
            return 1;
        }
#endif
        ref Level l = ref blob.Value;
        P("name", ref l.name);
        if (!Empty("tags", l.tags.Length))
            for (int i = 0; i < l.tags.Length; i++) P("tags[" + i + "]", ref l.tags[i]);
        if (!Empty("items", l.items.Length))
            for (int i = 0; i < l.items.Length; i++) Item("items[" + i + "]", ref l.items[i]);
        ItemPtr("spawn", ref l.spawn);
        ItemPtr("none", ref l.none);
        P("small", l.small);
        P("big", l.big);
        P("neg", l.neg);
        P("ratio", l.ratio);
        P("open", l.open);
        P("team", l.team.ToString());
        P("mask", l.mask.ToString());
        Bounds("bounds", ref l.bounds);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++) P("grid[" + i + "][" + j + "]", l.grid[i * 2 + j]);
        Item("corners[0]", ref l.corners_0);
        Item("corners[1]", ref l.corners_1);
        P("labels[0]", ref l.labels_0);
        P("labels[1]", ref l.labels_1);
        P("kinds[0]", l.kinds_0.ToString());
        P("kinds[1]", l.kinds_1.ToString());
        P("kinds[2]", l.kinds_2.ToString());
        if (!Empty("triples", l.triples.Length))
            for (int i = 0; i < l.triples.Length; i++)
                fixed (ushort* t = l.triples[i].item) // C# 7 wants a fixed statement here
                    for (int j = 0; j < 3; j++) P("triples[" + i + "][" + j + "]", t[j]);
        if (!Empty("uv", l.uv.Length))
            for (int i = 0; i < l.uv.Length; i++)
            {
#if STANDALONE
                fixed (float* v = l.uv[i].item) F("uv[" + i + "]", v, 2);
#else
                P("uv[" + i + "][0]", l.uv[i].x);
                P("uv[" + i + "][1]", l.uv[i].y);
#endif
            }
        if (!Empty("rows", l.rows.Length))
            for (int i = 0; i < l.rows.Length; i++)
                if (!Empty("rows[" + i + "]", l.rows[i].Length))
                    for (int j = 0; j < l.rows[i].Length; j++) P("rows[" + i + "][" + j + "]", l.rows[i][j]);
        if (!Empty("refs", l.refs.Length))
            for (int i = 0; i < l.refs.Length; i++) ItemPtr("refs[" + i + "]", ref l.refs[i]);
        Node("tree", ref l.tree);
#if STANDALONE
        fixed (int* c = l.cell)
        {
            P("cell[0]", c[0]);
            P("cell[1]", c[1]);
        }
#else
        P("cell[0]", l.cell.x);
        P("cell[1]", l.cell.y);
#endif
        PrintProp("prop", ref l.prop);
        if (!Empty("props", l.props.Length))
            for (int i = 0; i < l.props.Length; i++) PrintProp("props[" + i + "]", ref l.props[i]);
        PrintProp("no_prop", ref l.no_prop);
        try
        {
            P("wrong member", l.prop.AsItem.count);
        }
        catch (InvalidOperationException) { }
        o.Flush();
        blob.Dispose();
        return 0;
    }
}
