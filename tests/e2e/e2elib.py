"""What the end-to-end suite's Python shares, as e2e-lib.sh is the shell's: the sizes in the
pictures botdesk sends, and reading a socket exactly. The clients here import it from beside
them; a script a shell test feeds to Python puts $BD_SRCDIR/tests/e2e on sys.path first (bd_as
keeps BD_SRCDIR)."""
import struct


def jpeg_size(data):
    """(width, height) from a JPEG's frame header (SOF0, 1 or 2), or None when data is no JPEG
    or has none: a caller comparing the size with what it expects fails either way."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker, seglen = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + seglen
    return None


def png_size(data):
    """(width, height) from a PNG's header, or None when data is no PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", data[16:24])


def recv_exact(s, n):
    """Exactly n bytes from socket s; EOFError when it closes first."""
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError("closed")
        data += chunk
    return data


class BufferedSocket:
    """A stream socket read in exact lengths: what a recv brings beyond them waits in buf."""

    def __init__(self, s):
        self.s = s
        self.buf = b""

    def fill(self, enough, closed="the server closed the connection"):
        """Reads until enough(buf) holds; EOFError(closed) when the peer closes first."""
        while not enough(self.buf):
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError(closed)
            self.buf += chunk

    def need(self, n):
        """The next n bytes."""
        self.fill(lambda buf: len(buf) >= n)
        out, self.buf = self.buf[:n], self.buf[n:]
        return out
