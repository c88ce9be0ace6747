#!/usr/bin/env python3
"""One request to botdesk web, with exactly the headers the test asks for (no client library
adds or drops any), for the web tests.

    webclient.py ADDR METHOD PATH [--cookie C] [--origin O] [--host H] [--header 'K: V']...
                 [--key KEYSYM] [--page-key HEX] [--no-go]

ADDR is unix:/path or HOST:PORT. Prints `status N`, then `set-cookie: ...` and `location: ...`
when the answer has them, then `body: ...` (its first 400 bytes). METHOD `WS` asks for a
WebSocket upgrade of PATH; on 101 it first does the page's part (a nonce, the server's proof of
the page's key, checked with --page-key HEX: 1 when it does not match; then "go"), then prints
`hello <RFB version>` from the first frame, and with
--key it goes through the RFB handshake, sends that key (pressed and released) and a one-pixel
update request, and prints `synced` once the update arrives: the desktop has had the key.
With --no-go it never says "go" and prints `closed after N frames: ...` once the server ends the
stream.
Exit 0 whatever the status; 1 with a message on stderr when the exchange itself fails.
"""

import argparse
import base64
import hashlib
import hmac
import os
import socket
import struct
import sys

from e2elib import BufferedSocket


def connect(addr):
    if addr.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(addr[5:])
        return s
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
    return s


class Conn(BufferedSocket):
    def head(self):
        self.fill(lambda buf: b"\r\n\r\n" in buf,
                  "the server closed the connection before its headers")
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers.setdefault(k.strip().lower(), []).append(v.strip())
        return status, headers


class WS:
    """Binary frames over an upgraded connection; the client's frames masked."""

    def __init__(self, conn):
        self.c = conn
        self.data = b""

    def send(self, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            hdr = struct.pack("!BB", 0x82, 0x80 | n)
        else:
            hdr = struct.pack("!BBH", 0x82, 0x80 | 126, n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.c.s.sendall(hdr + mask + body)

    def frame(self):
        b0, b1 = self.c.need(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self.c.need(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self.c.need(8))
        payload = self.c.need(n)
        if b0 & 0x0F == 8:
            raise EOFError("the server closed the websocket: %r" % payload)
        return payload

    def read(self, n):
        while len(self.data) < n:
            self.data += self.frame()
        out, self.data = self.data[:n], self.data[n:]
        return out


def tight_rect(ws, w, h):
    """Reads one Tight rect (32-bit pixels: 3-byte TPIXELs) of w x h and returns nothing."""
    def compact():
        n, shift = 0, 0
        for _ in range(3):
            (b,) = struct.unpack("!B", ws.read(1))
            n |= (b & 0x7f) << shift
            shift += 7
            if not b & 0x80:
                break
        return n
    (ctl,) = struct.unpack("!B", ws.read(1))
    kind = ctl >> 4
    if kind == 8:  # fill
        ws.read(3)
        return
    if kind == 9:  # JPEG
        ws.read(compact())
        return
    filt, bits = 0, 24
    if kind & 4:
        (filt,) = struct.unpack("!B", ws.read(1))
    if filt == 1:  # palette
        (n,) = struct.unpack("!B", ws.read(1))
        ws.read((n + 1) * 3)
        size = (w + 7) // 8 * h if n + 1 == 2 else w * h
    else:
        size = w * h * bits // 8
    ws.read(size if size < 12 else compact())


def first_update(ws):
    """The answer to the server's own first request (docs/web.md, "The stream before the proof"):
    Tight, LastRect or Raw; read whole, so that what follows is the answer to ours."""
    (mtype,) = struct.unpack("!B", ws.read(1))
    if mtype != 0:
        raise RuntimeError("expected the server's first update, got message %d" % mtype)
    ws.read(1)
    (nrect,) = struct.unpack("!H", ws.read(2))
    i = 0
    while nrect == 0xFFFF or i < nrect:
        x, y, rw, rh, enc = struct.unpack("!HHHHi", ws.read(12))
        i += 1
        if enc == -224:  # LastRect
            return
        if enc == 7:
            tight_rect(ws, rw, rh)
        elif enc == 0:
            ws.read(rw * rh * 4)
        else:
            raise RuntimeError("encoding %d in the server's first update" % enc)


def rfb_key(ws, keysym):
    ws.send(b"RFB 003.008\n")
    (count,) = struct.unpack("!B", ws.read(1))
    types = ws.read(count)
    if 1 not in types:
        raise RuntimeError("no security type None: %r" % types)
    ws.send(b"\x01")
    (result,) = struct.unpack("!I", ws.read(4))
    if result != 0:
        raise RuntimeError("security result %d" % result)
    ws.send(b"\x01")
    w, h = struct.unpack("!HH", ws.read(4))
    ws.read(16)
    (namelen,) = struct.unpack("!I", ws.read(4))
    ws.read(namelen)
    first_update(ws)
    ws.send(struct.pack("!BxH", 2, 0))  # SetEncodings: none (raw only)
    ws.send(struct.pack("!BBxxI", 4, 1, keysym) + struct.pack("!BBxxI", 4, 0, keysym))
    ws.send(struct.pack("!BBHHHH", 3, 0, 0, 0, 1, 1))
    # The first FramebufferUpdate answers the request: everything before it was handled.
    while True:
        (mtype,) = struct.unpack("!B", ws.read(1))
        if mtype == 0:
            ws.read(1)
            (nrect,) = struct.unpack("!H", ws.read(2))
            for _ in range(nrect):
                x, y, rw, rh, enc = struct.unpack("!HHHHi", ws.read(12))
                if enc == 0:
                    ws.read(rw * rh * 4)
            print("synced")
            return
        if mtype == 2:
            continue
        if mtype == 3:
            ws.read(3)
            (n,) = struct.unpack("!I", ws.read(4))
            ws.read(n)
            continue
        raise RuntimeError("unexpected RFB message %d" % mtype)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("addr")
    ap.add_argument("method")
    ap.add_argument("path")
    ap.add_argument("--cookie")
    ap.add_argument("--origin")
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--key")
    ap.add_argument("--page-key")
    ap.add_argument("--no-go", action="store_true")
    ap.add_argument("--host")
    a = ap.parse_args()
    host = "localhost:6080" if a.addr.startswith("unix:") else a.addr
    if a.host is not None:
        host = a.host
    method = "GET" if a.method == "WS" else a.method
    lines = ["%s %s HTTP/1.1" % (method, a.path), "Host: " + host]
    if a.method == "WS":
        key = base64.b64encode(os.urandom(16)).decode()
        lines += ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: " + key,
                  "Sec-WebSocket-Version: 13"]
    if a.method == "POST":
        lines.append("Content-Length: 0")
    if a.cookie:
        lines.append("Cookie: " + a.cookie)
    if a.origin:
        lines.append("Origin: " + a.origin)
    lines += a.header
    lines.append("Connection: close" if a.method != "WS" else "")
    s = connect(a.addr)
    s.sendall(("\r\n".join(l for l in lines if l) + "\r\n\r\n").encode())
    c = Conn(s)
    status, headers = c.head()
    print("status %d" % status)
    for k in ("set-cookie", "location"):
        for v in headers.get(k, []):
            print("%s: %s" % (k, v))
    if a.method == "WS" and status == 101:
        ws = WS(c)
        nonce = os.urandom(16).hex()
        ws.send(nonce.encode())
        got = ws.frame()
        if a.page_key:
            want = hmac.new(bytes.fromhex(a.page_key), b"botdesk-web websocket " + nonce.encode(),
                            hashlib.sha256).hexdigest().encode()
            if got != want:
                raise RuntimeError("the server's proof %r is not of the page's key" % got)
        if a.no_go:
            # The server's door is open behind the stream, but nothing of it may come before
            # "go"; without one the server ends the stream (docs/web.md).
            c.s.settimeout(60)
            frames = 0
            try:
                while True:
                    ws.frame()
                    frames += 1
            except (EOFError, ConnectionError) as e:
                print("closed after %d frames: %s" % (frames, e))
            return 0
        ws.send(b"go")
        print("hello " + ws.read(12).decode("latin-1").strip())
        if a.key:
            rfb_key(ws, int(a.key, 16))
        return 0
    n = int(headers.get("content-length", ["0"])[0])
    body = c.need(min(n, 400)) if n else b""
    print("body: " + body.decode("utf-8", "replace").replace("\n", " ").strip())
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, EOFError, RuntimeError, ValueError) as e:
        print("webclient: %s" % e, file=sys.stderr)
        sys.exit(1)
