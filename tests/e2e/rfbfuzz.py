#!/usr/bin/env python3
"""A differential fuzzer of the gate in front of a real Xvnc: RFB client streams, built from
valid handshakes and message sequences and then mutated (types, lengths, fields, framing), are
sent through the gate's doors; after each stream Xvnc and the gate must still be alive and
answer a viewer. What the gate lets through is what Xvnc sees, so a stream that kills Xvnc
names a message the gate must not forward.

    rfbfuzz.py --rfb SOCKET --view SOCKET --xvnc PID --gate PID [--seconds 60] [--seed N]
               [--max-streams N]

Prints `streams N` at the end and exits 0; on a death it prints the seed, the stream's number
and its bytes (hex) to stderr and exits 1. The same seed replays the same streams.
"""

import argparse
import os
import random
import socket
import struct
import sys
import time

from e2elib import recv_exact

# Pseudo-encodings of the extensions a client message may depend on, and plain encodings.
ENCODINGS = [0, 1, 2, 5, 7, 16, -223, -224, -239, -258, -259, -305, -307, -308, -309, -312,
             -313, -314, -1063131698, -32, -256, -247]
# Keysyms that do nothing a window manager reacts to (letters), sent to the recorder's grab.
SAFE_KEYS = list(range(0x61, 0x7b))


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except OSError:
        return False


class Gen:
    def __init__(self, rng):
        self.r = rng

    def u8(self):
        return self.r.choice([0, 1, 2, 0x7f, 0x80, 0xff, self.r.randrange(256)])

    def u16(self):
        return self.r.choice([0, 1, 2, 0x7fff, 0x8000, 0xffff, self.r.randrange(1 << 16),
                              self.r.randrange(1, 4096)])

    def u32(self):
        return self.r.choice([0, 1, 0x7fffffff, 0x80000000, 0xffffffff,
                              self.r.randrange(1 << 32), self.r.randrange(1, 512)])

    def encodings(self):
        if self.r.random() < 0.3:
            # What a plain viewer announces: no extension at all.
            encs = self.r.sample([0, 1, 7, -223, -224, -239], self.r.randrange(1, 5))
        else:
            encs = [self.r.choice(ENCODINGS) for _ in range(self.r.randrange(0, 12))]
        return struct.pack(">BxH", 2, len(encs)) + b"".join(struct.pack(">i", e) for e in encs)

    def message(self):
        r = self.r
        k = r.randrange(16)
        if k == 0:
            bpp = r.choice([8, 16, 32, 24, 0, 1, 255])
            return struct.pack(">Bxxx", 0) + bytes([bpp, r.choice([8, 16, 24, 32, 0, 255]),
                                                    r.randrange(2), r.randrange(2)]) + \
                struct.pack(">HHHBBBxxx", self.u16(), self.u16(), self.u16(), self.u8(),
                            self.u8(), self.u8())
        if k == 1:
            return self.encodings()
        if k == 2:
            return struct.pack(">BBHHHH", 3, r.randrange(2), self.u16(), self.u16(), self.u16(),
                               self.u16())
        if k == 3:
            key = r.choice(SAFE_KEYS)
            return struct.pack(">BBxxI", 4, 1, key) + struct.pack(">BBxxI", 4, 0, key)
        if k == 4:
            # Moves only: a click could reach the panel or the window manager.
            return struct.pack(">BBHH", 5, 0, self.u16(), self.u16())
        if k == 5:
            n = r.choice([0, 1, 5, 100, 4096])
            return struct.pack(">BxxxI", 6, n) + bytes(r.randrange(256) for _ in range(n))
        if k == 6:
            # Extended Clipboard: flags, then a payload that may or may not be valid zlib.
            payload = struct.pack(">I", self.u32()) + bytes(r.randrange(256)
                                                             for _ in range(r.randrange(20)))
            return struct.pack(">Bxxxi", 6, -len(payload)) + payload
        if k == 7:
            return struct.pack(">BBHHHH", 150, r.randrange(2), self.u16(), self.u16(),
                               self.u16(), self.u16())
        if k == 8:
            n = r.randrange(0, 65)
            return struct.pack(">BxxxIB", 248, self.u32(), n) + bytes(r.randrange(256)
                                                                      for _ in range(n))
        if k == 9:
            return struct.pack(">BxBB", 250, self.u8(), self.u8())
        if k == 10:
            screens = r.choice([0, 1, 1, 2, 3, 16])
            body = b"".join(struct.pack(">IHHHHI", self.u32(), self.u16(), self.u16(),
                                        self.u16(), self.u16(), self.u32())
                            for _ in range(screens))
            w = r.choice([0, 1, 64, 800, 1024, 8192, 16384, 65535, self.u16()])
            h = r.choice([0, 1, 64, 600, 768, 8192, 16384, 65535, self.u16()])
            return struct.pack(">BxHHBx", 251, w, h, screens) + body
        if k in (14, 15):
            # A well-formed resize: one screen covering the new size.
            w, h = r.choice([(1024, 768), (800, 600), (1280, 1024), (640, 480)])
            return struct.pack(">BxHHBx", 251, w, h, 1) + struct.pack(">IHHHHI", 0, 0, 0, w, h, 0)
        if k == 11:
            return struct.pack(">BBHII", 255, 0, r.randrange(2), r.choice(SAFE_KEYS),
                               r.randrange(256))
        if k == 12:
            op = r.randrange(4)
            tail = struct.pack(">BBI", self.u8(), self.u8(), self.u32())[:6] if op == 2 else b""
            return struct.pack(">BBH", 255, 1, op) + tail
        return bytes([r.randrange(256)])

    def mutate(self, data):
        r = self.r
        data = bytearray(data)
        for _ in range(r.randrange(1, 4)):
            if not data:
                break
            m = r.randrange(6)
            i = r.randrange(len(data))
            if m == 0:
                data[i] ^= 1 << r.randrange(8)
            elif m == 1:
                data[i] = r.choice([0, 2, 3, 6, 150, 248, 250, 251, 255, r.randrange(256)])
            elif m == 2:
                data.insert(i, r.randrange(256))
            elif m == 3:
                del data[i]
            elif m == 4:
                j = min(len(data), i + r.randrange(1, 16))
                data[i:i] = data[i:j]
            else:
                del data[i:]
        return bytes(data)

    def stream(self):
        """The handshake's choices and the bytes to send after ServerInit."""
        r = self.r
        version = r.choice(["3.8", "3.8", "3.8", "3.7", "3.3"])
        msgs = []
        if r.random() < 0.8:
            msgs.append(self.encodings())
        for _ in range(r.randrange(1, 12)):
            msgs.append(self.message())
        body = b"".join(msgs)
        if r.random() < 0.7:
            body = self.mutate(body)
        return version, body


def handshake(s, version, shared, rng, mutate):
    """Speaks the client's side up to ServerInit; False where a mutated handshake was refused."""
    recv_exact(s, 12)
    minor = {"3.3": 3, "3.7": 7, "3.8": 8}[version]
    hello = b"RFB 003.%03d\n" % minor
    if mutate:
        hello = bytearray(hello)
        hello[rng.randrange(len(hello))] = rng.randrange(256)
        s.sendall(bytes(hello))
        return False
    s.sendall(hello)
    if minor == 3:
        recv_exact(s, 4)
    else:
        (n,) = struct.unpack(">B", recv_exact(s, 1))
        recv_exact(s, n)
        s.sendall(b"\x01")
        if minor == 8:
            recv_exact(s, 4)
    s.sendall(b"\x01" if shared else b"\x00")
    recv_exact(s, 20)
    (name_len,) = struct.unpack(">I", recv_exact(s, 4))
    recv_exact(s, name_len)
    return True


def send_chunked(s, data, rng):
    i = 0
    while i < len(data):
        n = rng.choice([1, 2, 3, 7, 64, len(data)])
        s.sendall(data[i:i + n])
        i += n


def drain(s, seconds):
    """Reads what the server sends until it closes or goes quiet: Xvnc has read the stream."""
    s.settimeout(seconds)
    try:
        while s.recv(1 << 16):
            pass
    except (socket.timeout, OSError):
        pass


def probe(path):
    """A viewer that asks for one pixel and waits for it: Xvnc answers through the gate."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect(path)
        handshake(s, "3.8", True, None, False)
        s.sendall(struct.pack(">BxHi", 2, 1, 0) + struct.pack(">BBHHHH", 3, 0, 0, 0, 1, 1))
        while True:
            (t,) = struct.unpack(">B", recv_exact(s, 1))
            if t == 0:
                return True
            if t == 2:
                continue
            if t == 3:
                (n,) = struct.unpack(">xxxI", recv_exact(s, 7))
                recv_exact(s, n)
                continue
            return False
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rfb", required=True)
    ap.add_argument("--view", required=True)
    ap.add_argument("--xvnc", type=int, required=True)
    ap.add_argument("--gate", type=int, required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--max-streams", type=int, default=1 << 30)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    gen = Gen(rng)
    deadline = time.monotonic() + a.seconds
    n = 0
    print("seed %d" % a.seed, flush=True)
    while time.monotonic() < deadline and n < a.max_streams:
        n += 1
        door = a.rfb if rng.random() < 0.75 else a.view
        version, body = gen.stream()
        mutate_hs = rng.random() < 0.05
        shared = rng.random() < 0.9
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        try:
            s.connect(door)
            if handshake(s, version, shared, rng, mutate_hs):
                send_chunked(s, body, rng)
            # Read until the server closes or a short quiet: the stream has been handled.
            drain(s, 0.05)
        except (OSError, EOFError, struct.error):
            pass
        finally:
            s.close()
        dead = [what for what, pid in (("Xvnc", a.xvnc), ("the gate", a.gate)) if not alive(pid)]
        if not dead:
            try:
                if not probe(a.view):
                    dead = ["the desktop's answer"]
            except (OSError, EOFError, struct.error) as e:
                dead = ["the desktop's answer (%s)" % e]
        if dead:
            print("rfbfuzz: %s gone after stream %d (seed %d, door %s, version %s, shared %s): %s"
                  % (", ".join(dead), n, a.seed, os.path.basename(door), version, shared,
                     body.hex()), file=sys.stderr, flush=True)
            return 1
    print("streams %d" % n, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
