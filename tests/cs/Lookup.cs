// Reads the game-data sample (tests/data/gamedata) through the structs
// `blobc gen cs --runtime standalone` made for game.schema: lookups by key
// with the generated <field>_Find (found and not found) over every kind of
// key, references followed to their items, a dialogue cycle walked round.
// It prints what lookup.c prints through gen c (lookup.expect), for
// tests/cli/csharp.sh to compare.
// Usage: mono Lookup.exe GAME.blob
using System.Globalization;
using System.IO;
using Blobc;

static class Lookup
{
    static TextWriter o;

    static string Name(ref BlobPtr<Item> p) { return p.IsValid ? p.Value.name.ToString() : "(none)"; }

    static string Name(ref BlobArray<Item> a, int i) { return i < 0 ? "(none)" : a[i].name.ToString(); }

    static void Walk(ref Node n, int steps)
    {
        o.Write("node " + n.name.ToString() + ": " + n.text.ToString() + "\n");
        if (steps > 1 && n.next.IsValid) Walk(ref n.next.Value, steps - 1);
    }

    static int Main(string[] args)
    {
        o = new StreamWriter(System.Console.OpenStandardOutput());
        using (BlobAsset<Game> blob = Game.Open(File.ReadAllBytes(args[0])))
        {
            ref Game g = ref blob.Value;
            // integer keys, in two arrays of one key space
            foreach (uint id in new uint[] { 1, 3, 4, 5, 7, 11, 12 })
                o.Write("item " + id + ": items " + Name(ref g.items, g.items_Find(id)) + ", more_items " +
                        Name(ref g.more_items, g.more_items_Find(id)) + "\n");
            ref Item shield = ref g.items[g.items_Find(5)];
            o.Write("shield defense " + shield.stats.defense + " weight " +
                    shield.stats.weight.ToString("0.0", CultureInfo.InvariantCulture) + "\n");
            // string keys; references round the cycle start -> ask -> start
            Walk(ref g.dialogue[g.dialogue_Find("start")], 4);
            o.Write("find \"star\": " + (g.dialogue_Find("star") < 0 ? "not found" : "found") + "\n");
            o.Write("find \"bye\": " + (g.dialogue_Find("bye") < 0 ? "not found" : "found") + "\n");
            ref Node start = ref g.dialogue[g.dialogue_Find("start")];
            for (int i = 0; i < start.choices.Length; i++)
                o.Write("choice " + i + ": " + start.choices[i].Value.name.ToString() + "\n");
            // enum keys
            o.Write("rule potion: stack " + g.rules[g.rules_Find(Kind.potion)].stack + "\n");
            // signed keys; a null reference
            foreach (int depth in new int[] { -2, -1, 0, 2 })
            {
                int f = g.floors_Find(depth);
                o.Write("floor " + depth + ": " + (f < 0 ? "not found" : "found") + ", boss " +
                        (f < 0 ? "-" : Name(ref g.floors[f].boss)) + "\n");
            }
            // lists of references
            for (int i = 0; i < g.loot.Length; i++)
            {
                ref Loot l = ref g.loot[i];
                o.Write("loot " + l.name.ToString() + ": best " + Name(ref l.best) + ", drops");
                for (int d = 0; d < l.drops.Length; d++) o.Write(" " + Name(ref l.drops[d]));
                o.Write("\n");
            }
        }
        o.Flush();
        return 0;
    }
}
