#!/usr/bin/env python3
"""A small RFB viewer for the gate's tests: connects to a unix socket, speaks RFB 3.3, 3.7 or
3.8, and sends what the steps on its command line say, in the chunking asked for.

    rfbclient.py SOCKET [--version 3.8] [--chunk whole|bytes|random] [--seed N]
                 [--encodings N,N,...] STEP...

--encodings: the SetEncodings list sent after the handshake (default: Raw, DesktopSize,
ExtendedDesktopSize, LastRect and QEMU extended keys).

Steps (bytes are queued, then sent at the next `sync`, `expect-close` or the end):
    ptr:X,Y[,MASK]   a PointerEvent            key:KEYSYM   KeyEvent press and release (hex)
    qkey:KEYSYM      QEMU extended key press and release
    cut:N            ClientCutText of N bytes  cuthead:N    only a ClientCutText header saying N
    size:WxH         SetDesktopSize, one screen
    pf               SetPixelFormat (32 bpp, the server's)
    xvp              an xvp shutdown request
    raw:HEX          these bytes
    repeat:N         the steps after it, up to the next `end`, N times ... end
    sync             sends what is queued, then a FramebufferUpdateRequest for one pixel, and
                     reads until its update arrives: the server has handled all before it
    expect-close     sends what is queued and expects the connection to end (5 s)
    hold:FIFO        stays connected until a line can be read from FIFO
Prints `hello <server version>`, `init WxH`, `synced WxH` (the screen size the server
reports), `closed`. Exit status 0, or 1 with a message on stderr.
"""

import argparse
import os
import random
import socket
import struct
import sys

from e2elib import BufferedSocket

ENC_RAW = 0
ENC_DESKTOP_SIZE = -223
ENC_LAST_RECT = -224
ENC_EXT_DESKTOP_SIZE = -308
ENC_FENCE = -312
ENC_CONTINUOUS = -313
ENC_QEMU_KEY = -258


class Viewer(BufferedSocket):
    def __init__(self, path, version, chunk, seed, encodings):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(path)
        super().__init__(s)
        self.version = version
        self.chunk = chunk
        self.rng = random.Random(seed)
        self.queue = b""
        self.width = self.height = 0
        self.bpp = 4
        self.closed = False
        self.encodings = encodings

    # The next n bytes from the gate.
    recv = BufferedSocket.need

    def send_queued(self):
        data, self.queue = self.queue, b""
        if self.chunk == "whole":
            self.s.sendall(data)
        elif self.chunk == "bytes":
            for i in range(len(data)):
                self.s.sendall(data[i:i + 1])
        else:
            i = 0
            while i < len(data):
                n = self.rng.randint(1, 23)
                self.s.sendall(data[i:i + n])
                i += n

    def handshake(self, exclusive):
        hello = self.recv(12)
        print("hello " + hello.decode("ascii").strip(), flush=True)
        minor = {"3.3": 3, "3.7": 7, "3.8": 8}[self.version]
        self.queue += b"RFB 003.%03d\n" % minor
        self.send_queued()
        if minor == 3:
            (sec,) = struct.unpack(">I", self.recv(4))
            if sec != 1:
                raise RuntimeError("security type %d, expected None" % sec)
        else:
            (n,) = struct.unpack(">B", self.recv(1))
            types = self.recv(n)
            if 1 not in types:
                raise RuntimeError("None is not offered: %r" % types)
            self.queue += b"\x01"
            self.send_queued()
            if minor == 8:
                (res,) = struct.unpack(">I", self.recv(4))
                if res != 0:
                    raise RuntimeError("security result %d" % res)
        self.queue += b"\x00" if exclusive else b"\x01"
        self.send_queued()
        self.width, self.height = struct.unpack(">HH", self.recv(4))
        pf = self.recv(16)
        self.bpp = pf[0] // 8
        (name_len,) = struct.unpack(">I", self.recv(4))
        self.recv(name_len)
        print("init %dx%d" % (self.width, self.height), flush=True)
        encs = self.encodings
        self.queue += struct.pack(">BxH", 2, len(encs)) + b"".join(struct.pack(">i", e) for e in encs)

    def read_update(self):
        """Reads server messages until a FramebufferUpdate has been read whole."""
        while True:
            (t,) = struct.unpack(">B", self.recv(1))
            if t == 0:
                (n,) = struct.unpack(">xH", self.recv(3))
                for _ in range(n):
                    x, y, w, h, enc = struct.unpack(">HHHHi", self.recv(12))
                    if enc == ENC_RAW:
                        self.recv(w * h * self.bpp)
                    elif enc == ENC_EXT_DESKTOP_SIZE:
                        (screens,) = struct.unpack(">Bxxx", self.recv(4))
                        self.recv(16 * screens)
                        self.width, self.height = w, h
                    elif enc == ENC_DESKTOP_SIZE:
                        self.width, self.height = w, h
                    elif enc == ENC_LAST_RECT:
                        break
                    elif enc in (ENC_QEMU_KEY, ENC_FENCE, ENC_CONTINUOUS):
                        pass
                    else:
                        raise RuntimeError("unexpected encoding %d" % enc)
                return
            if t == 2:
                continue
            if t == 3:
                (n,) = struct.unpack(">xxxI", self.recv(7))
                self.recv(n)
                continue
            if t == 150:
                continue
            if t == 248:
                flags, n = struct.unpack(">xxxIB", self.recv(8))
                self.recv(n)
                continue
            raise RuntimeError("unexpected server message %d" % t)

    def sync(self):
        self.queue += struct.pack(">BBHHHH", 3, 0, 0, 0, 1, 1)
        self.send_queued()
        self.read_update()
        print("synced %dx%d" % (self.width, self.height), flush=True)

    def expect_close(self):
        self.send_queued()
        self.s.settimeout(5)
        try:
            while True:
                self.recv(1 << 16)
        except (EOFError, ConnectionResetError):
            print("closed", flush=True)
            self.closed = True

    def step(self, st):
        kind, _, arg = st.partition(":")
        q = b""
        if kind == "ptr":
            v = [int(x) for x in arg.split(",")]
            q = struct.pack(">BBHH", 5, v[2] if len(v) > 2 else 0, v[0], v[1])
        elif kind == "key":
            k = int(arg, 16)
            q = struct.pack(">BBxxI", 4, 1, k) + struct.pack(">BBxxI", 4, 0, k)
        elif kind == "qkey":
            k = int(arg, 16)
            q = struct.pack(">BBHII", 255, 0, 1, k, 38) + struct.pack(">BBHII", 255, 0, 0, k, 38)
        elif kind == "cut":
            n = int(arg)
            q = struct.pack(">BxxxI", 6, n) + b"x" * n
        elif kind == "cuthead":
            q = struct.pack(">Bxxxi", 6, int(arg))
        elif kind == "size":
            w, h = (int(x) for x in arg.split("x"))
            q = struct.pack(">BxHHBx", 251, w, h, 1) + struct.pack(">IHHHHI", 0, 0, 0, w, h, 0)
        elif kind == "pf":
            q = struct.pack(">Bxxx", 0) + bytes([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0])
        elif kind == "xvp":
            q = struct.pack(">BxBB", 250, 1, 2)
        elif kind == "raw":
            q = bytes.fromhex(arg)
        elif kind == "sync":
            self.sync()
        elif kind == "expect-close":
            self.expect_close()
        elif kind == "hold":
            self.send_queued()
            with open(arg) as f:
                f.readline()
        else:
            raise RuntimeError("unknown step " + st)
        self.queue += q


def expand(steps):
    out, i = [], 0
    while i < len(steps):
        if steps[i].startswith("repeat:"):
            n = int(steps[i].split(":")[1])
            j = steps.index("end", i)
            out += expand(steps[i + 1:j]) * n
            i = j + 1
        else:
            out.append(steps[i])
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("socket")
    ap.add_argument("--version", default="3.8", choices=["3.3", "3.7", "3.8"])
    ap.add_argument("--chunk", default="whole", choices=["whole", "bytes", "random"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--encodings", default="%d,%d,%d,%d,%d" % (
        ENC_RAW, ENC_DESKTOP_SIZE, ENC_EXT_DESKTOP_SIZE, ENC_LAST_RECT, ENC_QEMU_KEY))
    ap.add_argument("--exclusive", action="store_true", help="ask for an unshared session")
    ap.add_argument("steps", nargs="*")
    a = ap.parse_intermixed_args()
    try:
        encodings = [int(e) for e in a.encodings.split(",") if e]
        v = Viewer(a.socket, a.version, a.chunk, a.seed, encodings)
        v.handshake(a.exclusive)
        for st in expand(a.steps):
            if v.closed:
                raise RuntimeError("the connection is closed before step " + st)
            v.step(st)
        if not v.closed:
            v.send_queued()
    except (OSError, EOFError, RuntimeError, struct.error) as e:
        print("rfbclient: %s" % e, file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
