// Reads the blob tests/data/gen/read_newtypes.c built through the structs
// of `blobc gen cs --runtime standalone` and prints what read_newtypes.c
// prints (tests/data/gen/newtypes.out): maps by index and by key, options,
// any-values and the tags of tagged unions. Exit 1 when a lookup answers
// wrong.
//
//   mono ReadNewtypes.exe NEWTYPES.blob
using System;
using System.Globalization;
using System.IO;
using System.Text;
using Blobc;

static unsafe class ReadNewtypes
{
    static TextWriter o;
    static int failures;

    static void Check(bool ok, string what)
    {
        if (ok) return;
        Console.Error.WriteLine("wrong: " + what);
        failures++;
    }

    // as C's %g prints the values of the test
    static string G(double d) { return d.ToString("R", CultureInfo.InvariantCulture); }

    static void PrintAny(ref BlobAny a)
    {
        switch (a.kind)
        {
            case BlobAny.Kind.Null: o.Write("null"); break;
            case BlobAny.Kind.Bool: o.Write(a.AsBool ? "true" : "false"); break;
            case BlobAny.Kind.Int: o.Write(a.AsLong.ToString(CultureInfo.InvariantCulture)); break;
            case BlobAny.Kind.UInt: o.Write(a.AsULong.ToString(CultureInfo.InvariantCulture)); break;
            case BlobAny.Kind.Float: o.Write(G(a.AsDouble)); break;
            case BlobAny.Kind.String: o.Write("\"" + a.AsString + "\""); break;
            case BlobAny.Kind.List:
                o.Write("[");
                for (int i = 0; i < a.ListCount; i++)
                {
                    o.Write(i > 0 ? ", " : "");
                    PrintAny(ref a.ListItem(i));
                }
                o.Write("]");
                break;
            case BlobAny.Kind.Map:
                o.Write("{");
                for (int i = 0; i < a.MapCount; i++)
                {
                    o.Write((i > 0 ? ", " : "") + "\"" + a.MapKey(i) + "\": ");
                    PrintAny(ref a.MapValue(i));
                }
                o.Write("}");
                break;
        }
    }

    static int Main(string[] args)
    {
        o = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        BlobAsset<Root> blob;
        BlobStatus st = Root.TryOpen(File.ReadAllBytes(args[0]), out blob);
        if (st != BlobStatus.Ok)
        {
            Console.Error.WriteLine("open: " + BlobException.Describe(st));
            return 1;
        }
        ref Root root = ref blob.Value;
        ref Item it = ref root.items[0];
        o.Write("item id " + it.id + " name " + it.name.ToString() + "\n");
        o.Write("tags");
        for (int i = 0; i < it.tags.Length; i++) o.Write(" " + it.tags[i].key.ToString() + "=" + it.tags[i].value);
        o.Write("\n");
        Check(it.tags.Length == 3 && it.tags[it.tags_Find("ab")].value == 20 && it.tags_Find("abc") == -1 &&
              it.tags_Find("") == -1 && it.tags_Find("b") == 2 && it.tags_Find("a") == 0, "tags find");
        o.Write("by_num");
        for (int i = 0; i < it.by_num.Length; i++) o.Write(" " + it.by_num[i].key + "=" + it.by_num[i].value.ToString());
        o.Write("\n");
        Check(it.by_num_Find(-5) == 0 && it.by_num_Find(1L << 40) == 2 && it.by_num_Find(0) == -1 &&
              it.by_num_Find(long.MinValue) == -1 && it.by_num_Find(long.MaxValue) == -1, "by_num find");
        Check(it.by_color[it.by_color_Find(Color.blue)].value.x == -3 && it.by_color_Find(Color.green) == -1, "by_color find");
        o.Write("by_color");
        for (int i = 0; i < it.by_color.Length; i++)
            o.Write(" " + it.by_color[i].key + "=(" + it.by_color[i].value.x + "," + it.by_color[i].value.y + ")");
        o.Write("\n");
        Check(it.by_level[it.by_level_Find(Level.low)].value == 1 && it.by_level[it.by_level_Find(Level.high)].value == 2,
              "by_level");
        Check(it.small_Find(-1) >= 0 && it.small_Find(5) >= 0 && it.small_Find(4) == -1 && it.small.Length == 3, "small");
        o.Write("score " + (it.HasScore ? "present" : "absent") + " " + G(it.score.value) + "\n");
        o.Write("label " + (it.HasLabel ? "present" : "absent") + " " + (it.label.HasValue ? "?" : "NULL") + "\n");
        o.Write("at " + it.at.value.x + " " + it.at.value.y + "\n");
        Check(it.HasShape && it.shape.value.tag == Shape.Tag.Square, "shape present");
        o.Write("shape side " + G(it.shape.value.AsSquare.side) + "\n");
        o.Write("extra ");
        PrintAny(ref it.extra);
        o.Write("\n");
        int k = it.extra.MapFind("k");
        Check(k >= 0 && it.extra.MapValue(k).ListCount == 6 && it.extra.MapFind("j") == -1, "extra find");
        ref BlobArray<byte> sized = ref it.sized[it.sized_Find(2)].value;
        o.Write("sized 2=[" + sized[0] + "," + sized[1] + "] of " + sized.Length + "\n");
        ref BlobArray<Item_tags_entry> inner = ref it.nested[it.nested_Find("x")].value;
        o.Write("nested x.q=" + inner[Item_tags_entry.Find(ref inner, "q")].value + "\n");
        o.Write("maybe n=" + (it.maybe[it.maybe_Find("n")].value.HasValue ? "present" : "absent") + " p=" +
                it.maybe[it.maybe_Find("p")].value.value + "\n");
        ref BlobArray<Item_opt_map_entry> om = ref it.opt_map.value;
        o.Write("opt_map " + (it.HasOpt_map ? "present" : "absent") + " " + om.Length + " " + om[0].key.ToString() + "=" +
                G(om[0].value) + "\n");
        o.Write("opt_list " + it.opt_list.value.Length + " [" + it.opt_list.value[0] + "]\n");
        o.Write("opt_ptr " + it.opt_ptr.value.Value.x + " " + it.opt_ptr.value.Value.y + "\n");
        o.Write("opt_any " + (it.HasOpt_any ? "present" : "absent") + "\n");
        fixed (short* fx = it.opt_fixed.value) o.Write("opt_fixed " + fx[0] + " " + fx[1] + " " + fx[2] + "\n");
        o.Write("opt_in_fixed " + (it.opt_in_fixed_0.HasValue ? "present" : "absent") + " " + it.opt_in_fixed_1.value + "\n");
        Check(it.map_in_fixed_0[Item_map_in_fixed_entry.Find(ref it.map_in_fixed_0, 1)].value == 10 &&
              Item_map_in_fixed_entry.Find(ref it.map_in_fixed_1, 1) == -1, "map_in_fixed find");
        o.Write("map_in_fixed " + it.map_in_fixed_0.Length + ":" + it.map_in_fixed_0[0].value + " " + it.map_in_fixed_1.Length + "\n");
        ref BlobArray<Item_list_of_maps_entry> lm = ref it.list_of_maps[0];
        o.Write("list_of_maps " + lm.Length + " " + lm[0].key.ToString() + "=" + lm[0].value + "\n");
        o.Write("list_of_opts " + it.list_of_opts.Length + " " + it.list_of_opts[0].value + " " +
                (it.list_of_opts[1].HasValue ? "present" : "absent") + "\n");
        ref Num num = ref root.nums[0];
        Check(num.tag == Num.Tag.Square, "num tag");
        o.Write("num tag " + (uint)num.tag + " side " + G(num.AsSquare.side) + " kind " + Num.TagOf(Num.Tag.Square) + "\n");
        Check(Num.TagOf(Num.Tag.None) == 0 && Shape.TagOf(Shape.Tag.None) == null, "tag of none");
        o.Write("tagged " + Tagged.TagOf(Tagged.Tag.Circle) + " r " + G(root.tagged[0].AsCircle.r) + "\n");
        ref Shape sh = ref root.shapes[0];
        o.Write("shape " + Shape.TagField + "=" + Shape.TagOf(sh.tag) + " r " + G(sh.AsCircle.r) + " default " +
                (uint)Shape.DefaultMember + "\n");
        o.Write("anys ");
        PrintAny(ref root.anys[0]);
        o.Write(" ");
        PrintAny(ref root.anys[1]);
        o.Write("\nlookup one ");
        PrintAny(ref root.lookup[root.lookup_Find("one")].value.data);
        o.Write("\n");
        Check(!root.docs.IsValid, "docs null");
        o.Flush();
        blob.Dispose();
        return failures > 0 ? 1 : 0;
    }
}
