#!/usr/bin/env python3
"""Another local user's server on a loopback port, for the web tests: what a stranger serves to
the owner's browser. Every request line, Cookie header and WebSocket frame it gets goes to stdout.

    webimpostor.py HOST:PORT

- any GET but the two below: 200 and `Set-Cookie: botdesk_session=<32 f>; Path=/` (the name
  botdesk web's cookie had when all servers shared it);
- GET /lease: a lease of its own (a human holds the desktop, reason "impostor"), with a key of
  its own and a proof that is no proof;
- /websockify: the upgrade, then "RFB 003.008\\n" as a VNC server would; to any frame of 32 hex
  digits (a page's nonce) it answers 64 zeros.
Prints `listening` once it listens; runs until killed.
"""

import base64
import hashlib
import socket
import struct
import sys
import threading

FAKE = (b'{"profile":"default","holder":"human","since":1,"reason":"impostor","epoch":1,'
        b'"readable":true,"csrf":"00000000000000000000000000000000","key":"' + b"1" * 64 +
        b'","proof":"' + b"0" * 64 + b'"}\n')


def log(*parts):
    print(*parts, flush=True)


def frame(payload):
    n = len(payload)
    hdr = struct.pack("!BB", 0x82, n) if n < 126 else struct.pack("!BBH", 0x82, 126, n)
    return hdr + payload


def websocket(c, buf):
    c.sendall(frame(b"RFB 003.008\n"))
    while True:
        while len(buf) < 2:
            d = c.recv(65536)
            if not d:
                return
            buf += d
        n = buf[1] & 0x7F
        off = 2
        if n == 126:
            while len(buf) < 4:
                buf += c.recv(65536)
            n = struct.unpack("!H", buf[2:4])[0]
            off = 4
        while len(buf) < off + 4 + n:
            d = c.recv(65536)
            if not d:
                return
            buf += d
        mask = buf[off:off + 4]
        data = bytes(b ^ mask[i % 4] for i, b in enumerate(buf[off + 4:off + 4 + n]))
        op = buf[0] & 0x0F
        buf = buf[off + 4 + n:]
        if op == 8:
            log("ws-close")
            return
        log("frame", data.hex())
        if len(data) == 32 and all(ch in b"0123456789abcdef" for ch in data):
            c.sendall(frame(b"0" * 64))


def serve(c):
    try:
        buf = b""
        while b"\r\n\r\n" not in buf:
            d = c.recv(65536)
            if not d:
                return
            buf += d
        head, buf = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        method, path = lines[0].split()[:2]
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        log("request", method, path)
        if "cookie" in headers:
            log("cookie", headers["cookie"])
        if headers.get("upgrade", "").lower() == "websocket":
            accept = base64.b64encode(hashlib.sha1(
                (headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()
            ).digest()).decode()
            c.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                       "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
            websocket(c, buf)
            return
        if path.startswith("/lease"):
            body, extra = FAKE, "Content-Type: application/json\r\n"
        else:
            body = b"<!DOCTYPE html><title>elsewhere</title><p>another server</p>"
            extra = ("Content-Type: text/html\r\nSet-Cookie: botdesk_session=%s; Path=/\r\n"
                     % ("f" * 32))
        c.sendall(("HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n"
                   % (extra, len(body))).encode() + body)
    except OSError:
        pass
    finally:
        c.close()


def main():
    host, port = sys.argv[1].rsplit(":", 1)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, int(port)))
    s.listen(64)
    log("listening")
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
