// NotifyPrint.cs - the C# notify client (clients/unity/BlobcNotify.cs) in
// a console program for tests/cli/watch.sh: polls the way a game's frame
// loop would and prints each notice as "GENERATION PATH HASH", until it
// has printed COUNT of them or 20 seconds have passed (exit 1 then).
using System;
using System.Threading;

static class NotifyPrint
{
    static int Main(string[] args)
    {
        if (args.Length != 3) { Console.Error.WriteLine("usage: NotifyPrint HOST PORT COUNT"); return 2; }
        // the parser alone, on lines a server could send
        Blobc.Notice n;
        if (Blobc.NotifyClient.TryParse(System.Text.Encoding.ASCII.GetBytes("x a 0123456789abcdef0123456789abcdef"), out n) ||
            !Blobc.NotifyClient.TryParse(System.Text.Encoding.ASCII.GetBytes("3 a%20b 0123456789abcdef0123456789abcdef"), out n) ||
            n.Path != "a b" || n.Generation != 3)
        {
            Console.Error.WriteLine("NotifyPrint: the parser is wrong");
            return 1;
        }
        var client = new Blobc.NotifyClient(args[0], int.Parse(args[1]));
        int want = int.Parse(args[2]), got = 0;
        DateTime end = DateTime.UtcNow.AddSeconds(20);
        while (got < want && DateTime.UtcNow < end)
        {
            while (got < want && client.Poll(out n))
            {
                Console.WriteLine("{0} {1} {2}", n.Generation, n.Path, n.Hash);
                got++;
            }
            Thread.Sleep(10);
        }
        client.Dispose();
        return got == want ? 0 : 1;
    }
}
