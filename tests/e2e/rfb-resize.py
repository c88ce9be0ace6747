#!/usr/bin/env python3
"""rfb-resize.py SOCKET W H: resizes a desktop the way a VNC viewer does, over its RFB socket:
no security, a shared session, the ExtendedDesktopSize encoding, then SetDesktopSize. Exits 0
once the server answers the request with success; every read is bounded (10 s)."""
import socket, struct, sys
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(path)
def recv(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c: raise SystemExit("the server closed the connection")
        b += c
    return b
assert recv(12).startswith(b"RFB 003.")
s.sendall(b"RFB 003.008\n")
types = recv(recv(1)[0])
assert 1 in types, types
s.sendall(b"\x01")
assert struct.unpack(">I", recv(4))[0] == 0
s.sendall(b"\x01")
fw, fh = struct.unpack(">HH", recv(4)); bpp = recv(16)[0]; recv(struct.unpack(">I", recv(4))[0])
s.sendall(struct.pack(">BBHii", 2, 0, 2, -308, 0))
def update(incremental, fw, fh):
    s.sendall(struct.pack(">BBHHHH", 3, incremental, 0, 0, fw, fh))
    # One update; returns the ExtendedDesktopSize rect (reason, result, w, h, screen id) or None.
    t = recv(1)[0]
    if t != 0: raise SystemExit("unexpected message %d" % t)
    recv(1)
    found = None
    for _ in range(struct.unpack(">H", recv(2))[0]):
        x, y, rw, rh, enc = struct.unpack(">HHHHi", recv(12))
        if enc == -308:
            ns = recv(1)[0]; recv(3)
            ids = [struct.unpack(">IHHHHI", recv(16))[0] for _ in range(ns)]
            found = (x, y, rw, rh, ids[0])
        elif enc == 0:
            recv(rw * rh * bpp // 8)
        else:
            raise SystemExit("unexpected encoding %d" % enc)
    return found
first = update(0, fw, fh)
assert first, "no ExtendedDesktopSize from the server"
s.sendall(struct.pack(">BBHHBB", 251, 0, w, h, 1, 0) + struct.pack(">IHHHHI", first[4], 0, 0, w, h, 0))
for _ in range(20):
    r = update(1, fw, fh)
    if r and r[0] == 1:  # reason 1: this client's own request
        print("resize result %d: %dx%d" % (r[1], r[2], r[3]))
        sys.exit(0 if r[1] == 0 else 1)
raise SystemExit("no answer to SetDesktopSize")
