// BlobcNotify.cs - the client of `blobc watch --notify` for Unity (or any
// .NET program): copy it into the project's Assets and call Poll once a
// frame; it never blocks. The line it reads is the one <blobc/notify.h>
// reads (blobc(1), watch; docs/WATCH.md):
//
//     GENERATION PATH HASH\n
//
// GENERATION grows by one with every output published; PATH is the
// output's name with '%', bytes below 0x20 and 0x7f written as %XX; HASH
// is the XXH3-128 of the file's bytes, 32 lowercase hex digits. A client
// that connects is first sent the last line of every output so far.
//
//     var notify = new Blobc.NotifyClient("127.0.0.1", 7777);
//     void Update() {
//         while (notify.Poll(out var n)) Reload(n.Path);
//     }
//     void OnDestroy() { notify.Dispose(); }
using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Blobc
{
    /// <summary>One published output.</summary>
    public struct Notice
    {
        public ulong Generation;
        public string Path;
        public string Hash;
    }

    /// <summary>Connects to the server on the first Poll and again, once a
    /// second, after it went; reads only what has arrived.</summary>
    public sealed class NotifyClient : IDisposable
    {
        const int MaxLine = 4096 * 3 + 64;
        readonly IPEndPoint server;
        Socket socket;
        bool connecting;
        bool skipping;
        DateTime lastTry = DateTime.MinValue;
        readonly List<byte> pending = new List<byte>();
        readonly byte[] chunk = new byte[4096];

        public NotifyClient(string host, int port)
        {
            if (host == "localhost") host = "127.0.0.1";
            server = new IPEndPoint(IPAddress.Parse(host), port);
        }

        /// <summary>The next notice, if one has arrived.</summary>
        public bool Poll(out Notice notice)
        {
            notice = default(Notice);
            if (socket == null) Connect();
            if (socket == null) return false;
            if (connecting)
            {
                if (socket.Poll(0, SelectMode.SelectError)) { Close(); return false; }
                if (!socket.Poll(0, SelectMode.SelectWrite)) return false;
                connecting = false;
            }
            for (;;)
            {
                int nl = pending.IndexOf((byte)'\n');
                if (nl >= 0)
                {
                    byte[] line = pending.GetRange(0, nl).ToArray();
                    pending.RemoveRange(0, nl + 1);
                    bool ok = !skipping && TryParse(line, out notice);
                    skipping = false;
                    if (ok) return true;
                    continue;
                }
                if (pending.Count >= MaxLine) { skipping = true; pending.Clear(); }
                if (!Read()) return false;
            }
        }

        /// <summary>Parses one line without its newline.</summary>
        public static bool TryParse(byte[] line, out Notice notice)
        {
            notice = default(Notice);
            int sp1 = Array.IndexOf(line, (byte)' '), n = line.Length;
            if (sp1 <= 0 || n < 34 || line[n - 33] != (byte)' ' || n - 33 <= sp1 + 1) return false;
            ulong gen = 0;
            for (int i = 0; i < sp1; i++)
            {
                byte c = line[i];
                if (c < (byte)'0' || c > (byte)'9' || gen > (ulong.MaxValue - 9) / 10) return false;
                gen = gen * 10 + (ulong)(c - '0');
            }
            var path = new List<byte>();
            for (int i = sp1 + 1; i < n - 33; i++)
            {
                byte c = line[i];
                if (c == (byte)'%')
                {
                    if (i + 2 >= n - 33) return false;
                    int hi = Hex(line[i + 1], true), lo = Hex(line[i + 2], true);
                    if (hi < 0 || lo < 0) return false;
                    c = (byte)(hi * 16 + lo);
                    i += 2;
                }
                path.Add(c);
            }
            for (int i = n - 32; i < n; i++)
                if (Hex(line[i], false) < 0) return false;
            notice.Generation = gen;
            notice.Path = Encoding.UTF8.GetString(path.ToArray());
            notice.Hash = Encoding.ASCII.GetString(line, n - 32, 32);
            return true;
        }

        static int Hex(byte c, bool upper)
        {
            if (c >= (byte)'0' && c <= (byte)'9') return c - '0';
            if (c >= (byte)'a' && c <= (byte)'f') return c - 'a' + 10;
            if (upper && c >= (byte)'A' && c <= (byte)'F') return c - 'A' + 10;
            return -1;
        }

        void Connect()
        {
            DateTime now = DateTime.UtcNow;
            if ((now - lastTry).TotalSeconds < 1) return;
            lastTry = now;
            socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            socket.Blocking = false;
            try
            {
                socket.Connect(server);
                connecting = false;
            }
            catch (SocketException e)
            {
                if (e.SocketErrorCode == SocketError.WouldBlock ||
                    e.SocketErrorCode == SocketError.InProgress)
                    connecting = true;
                else
                    Close();
            }
        }

        // Whatever has arrived; false when nothing has (or the server went).
        bool Read()
        {
            if (socket.Available == 0)
            {
                // readable with nothing to read: the server closed
                if (socket.Poll(0, SelectMode.SelectRead)) Close();
                return false;
            }
            SocketError err;
            int got = socket.Receive(chunk, 0, chunk.Length, SocketFlags.None, out err);
            if (err == SocketError.WouldBlock) return false;
            if (err != SocketError.Success || got == 0) { Close(); return false; }
            for (int i = 0; i < got; i++) pending.Add(chunk[i]);
            return true;
        }

        void Close()
        {
            if (socket != null) socket.Close();
            socket = null;
            connecting = false;
            skipping = false;
            pending.Clear();
        }

        public void Dispose() { Close(); }
    }
}
