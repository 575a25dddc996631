#!/usr/bin/env python3
"""A cache server that misbehaves on purpose, for tests/cli/http_hostile.sh.

    hostile_http.py PORTFILE LOG ENTRIES

Listens on 127.0.0.1 (a free port, written to PORTFILE) and answers
    METHOD /<mode>/<2 hex>/<32 hex>
as <mode> says (see MODES below), logging one line per request to LOG:
"METHOD /path auth=<user:password or ->". ENTRIES is a directory cache's
root: mode "good" serves its entries and stores PUTs in it. Every wait and
every endless answer is bounded, and the server exits by itself after two
minutes, whatever happens to the test.
"""
import base64
import os
import socket
import socketserver
import struct
import sys
import threading
import time

PORTFILE, LOG, ENTRIES = sys.argv[1:4]
LIFETIME = 120          # s: the server ends itself
SEND_FOR = 30           # s: the longest any answer is sent
HTML = (b"<!DOCTYPE HTML>\n<html><head><title>Error response</title></head>\n"
        b"<body><h1>Error response</h1><p>This body must never reach a blob.</p>"
        + b"<!-- padding -->" * 15 + b"</body></html>\n")
log_lock = threading.Lock()


def head(key_hex, length):
    """A cache entry's 32-byte head, as blobc writes it, for this key."""
    return b"BLOBCCE1" + bytes.fromhex(key_hex) + struct.pack("<Q", length)


class Handler(socketserver.StreamRequestHandler):
    def send(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def answer(self, status, body=b"", headers=()):
        lines = [f"HTTP/1.1 {status} X", "Connection: close",
                 f"Content-Length: {len(body)}", *headers]
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

    def endless(self, chunk, total=None, rate=None):
        """Sends chunk again and again: `total` bytes, or until the client
        goes, or SEND_FOR seconds; at `rate` bytes a second when given."""
        end, sent = time.time() + SEND_FOR, 0
        while time.time() < end and (total is None or sent < total):
            part = chunk if total is None else chunk[:total - sent]
            self.send(part)
            sent += len(part)
            if rate:
                time.sleep(len(part) / rate)

    def read_request(self):
        line = self.rfile.readline(8192).decode("latin-1").strip()
        headers = {}
        for _ in range(200):
            h = self.rfile.readline(8192).decode("latin-1")
            if h in ("\r\n", "\n", ""):
                break
            k, _, v = h.partition(":")
            headers[k.strip().lower()] = v.strip()
        return line, headers

    def handle(self):
        try:
            self.serve()
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass

    def serve(self):
        self.request.settimeout(SEND_FOR)
        line, headers = self.read_request()
        parts = line.split(" ")
        if len(parts) < 2:
            return
        method, path = parts[0], parts[1]
        auth = headers.get("authorization", "")
        who = base64.b64decode(auth[6:]).decode() if auth.startswith("Basic ") else "-"
        with log_lock, open(LOG, "a") as f:
            f.write(f"{method} {path} auth={who}\n")
        segs = path.strip("/").split("/")
        mode, key = segs[0], segs[-1]
        body = b""
        if method == "PUT" and mode not in ("slowread",):
            if headers.get("expect", "").lower() == "100-continue":
                self.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            body = self.rfile.read(min(int(headers.get("content-length", "0")), 1 << 26))
        getattr(self, "mode_" + mode.split("-")[0], self.mode_unknown)(
            method, mode, key, segs, body)

    def mode_unknown(self, method, mode, key, segs, body):
        self.answer(400, HTML)

    # get-NNN: every request answered NNN with an HTML page.
    def mode_get(self, method, mode, key, segs, body):
        self.answer(int(mode.split("-")[1]), HTML)

    # put-NNN: a GET misses (a 404 page); a PUT is answered NNN with a page.
    def mode_put(self, method, mode, key, segs, body):
        self.answer(int(mode.split("-")[1]) if method == "PUT" else 404, HTML)

    # silent: nothing for 4.5 s, then a 404 (the time limits' old blind spot).
    def mode_silent(self, method, mode, key, segs, body):
        time.sleep(4.5)
        self.answer(404, HTML)

    # slowput: a GET misses at once; a PUT is answered after 4.5 s.
    def mode_slowput(self, method, mode, key, segs, body):
        if method == "PUT":
            time.sleep(4.5)
            self.answer(201)
        else:
            self.answer(404, HTML)

    # trickle404: a 404 whose 38 KiB page comes at 2 KiB/s.
    def mode_trickle404(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 404 X\r\nConnection: close\r\nContent-Length: 38912\r\n\r\n")
        self.endless(b"x" * 2048, 38912, 2048)

    # trickleheaders: 38 KiB of header lines at 2 KiB/s.
    def mode_trickleheaders(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 404 X\r\n")
        self.endless(b"X-Pad: " + b"p" * 2039 + b"\r\n", 38912, 2048)
        self.send(b"Content-Length: 0\r\n\r\n")

    # trickle200: an entry with a right head whose body comes at 2 KiB/s.
    def mode_trickle200(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 38944\r\n\r\n")
        self.send(head(key, 38912))
        self.endless(b"\0" * 2048, 38912, 2048)

    # huge-N: a right head declaring N bytes, then N zero bytes at full speed.
    def mode_huge(self, method, mode, key, segs, body):
        n = int(mode.split("-")[1])
        self.send(f"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {32 + n}\r\n\r\n"
                  .encode() + head(key, n))
        self.endless(b"\0" * (1 << 20), n)

    # endless: a right head declaring 1 MiB, then zeros without end.
    def mode_endless(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + head(key, 1 << 20))
        self.endless(b"\0" * (1 << 16))

    # garbage: a 200 of random bytes without end.
    def mode_garbage(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        self.endless(os.urandom(1 << 16))

    # endless404: a 404 page without end.
    def mode_endless404(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 404 X\r\nConnection: close\r\n\r\n")
        self.endless(HTML)

    # endlessput: a GET misses; a PUT is answered 200 and a page without end.
    def mode_endlessput(self, method, mode, key, segs, body):
        if method != "PUT":
            return self.answer(404, HTML)
        self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        self.endless(HTML)

    # hugeheaders: a 200 with 1 MiB of header lines.
    def mode_hugeheaders(self, method, mode, key, segs, body):
        self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n")
        self.endless(b"X-Pad: " + b"p" * 1017 + b"\r\n", 1 << 20)
        self.send(b"Content-Length: 0\r\n\r\n")

    # redirect: a 302 to the good entry, under another host name.
    def mode_redirect(self, method, mode, key, segs, body):
        port = self.server.server_address[1]
        self.answer(302, HTML, [f"Location: http://localhost:{port}/good/{key[:2]}/{key}"])

    def entry(self, key):
        return os.path.join(ENTRIES, key[:2], key)

    # good: a working cache (PUTs stored, answered 201 with a page).
    def mode_good(self, method, mode, key, segs, body):
        path = self.entry(key)
        if method == "PUT":
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".tmp", "wb") as f:
                f.write(body)
            os.replace(path + ".tmp", path)
            return self.answer(201, HTML)
        if not os.path.exists(path):
            return self.answer(404, HTML)
        with open(path, "rb") as f:
            data = f.read()
        variant = mode.split("-")[1] if "-" in mode else ""
        if variant == "cllong":   # says 1000 bytes more than it sends
            self.send(f"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {len(data) + 1000}"
                      "\r\n\r\n".encode() + data)
        elif variant == "clcut":  # says 10 bytes less, and sends that
            self.send(f"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {len(data) - 10}"
                      "\r\n\r\n".encode() + data[:-10])
        elif variant == "cut":    # no Content-Length, and 10 bytes short
            self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + data[:-10])
        elif variant == "extra":  # no Content-Length, and garbage after the entry
            self.send(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + data + HTML)
        else:
            self.answer(200, data)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    threading.Timer(LIFETIME, lambda: os._exit(0)).start()
    with open(PORTFILE + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(PORTFILE + ".tmp", PORTFILE)
    srv.serve_forever()


main()
