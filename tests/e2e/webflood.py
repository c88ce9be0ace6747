#!/usr/bin/env python3
"""Another local user's connections to botdesk web, for the web tests: IDLE connections that
send nothing and SLOW ones that send a request's headers a byte a second, each one the server
closes opened again within a second, until stdin closes (or LIMIT seconds pass).

    webflood.py HOST:PORT IDLE SLOW [LIMIT]

Prints `flooding` once every connection has been opened once, then on exit `opened N closed M`
(how many connections it made, how many the server closed).
"""

import selectors
import socket
import sys
import time


def main():
    host, port = sys.argv[1].rsplit(":", 1)
    idle, slow = int(sys.argv[2]), int(sys.argv[3])
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 60
    addr = (host.strip("[]"), int(port))
    request = b"GET /lease HTTP/1.1\r\nHost: %s\r\n" % sys.argv[1].encode() + b"X-Slow: " + b"a" * 4000
    sel = selectors.DefaultSelector()
    sel.register(sys.stdin, selectors.EVENT_READ, None)
    conns = {}  # socket -> [kind, bytes sent]
    opened = closed = 0
    again = []

    def open_one(kind):
        nonlocal opened
        s = socket.socket(socket.AF_INET6 if ":" in addr[0] else socket.AF_INET)
        s.setblocking(False)
        s.connect_ex(addr)
        conns[s] = [kind, 0]
        sel.register(s, selectors.EVENT_READ, kind)
        opened += 1

    for _ in range(idle):
        open_one("idle")
    for _ in range(slow):
        open_one("slow")
    print("flooding", flush=True)
    end = time.monotonic() + limit
    next_byte = time.monotonic()
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.2):
            if key.data is None:
                if not sys.stdin.readline():
                    end = 0
                continue
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                kind = conns.pop(s)[0]
                sel.unregister(s)
                s.close()
                closed += 1
                again.append(kind)
        if time.monotonic() >= next_byte:
            next_byte += 1
            for kind in again:
                open_one(kind)
            again.clear()
            for s, c in list(conns.items()):
                if c[0] == "slow" and c[1] < len(request):
                    try:
                        s.send(request[c[1]:c[1] + 1])
                        c[1] += 1
                    except OSError:
                        pass
    print("opened %d closed %d" % (opened, closed), flush=True)


if __name__ == "__main__":
    main()
