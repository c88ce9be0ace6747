#!/usr/bin/env python3
"""Debian's headless Chromium, driven through its DevTools protocol on a pipe (no client library),
for the web tests. Reads one command a line on stdin and answers one line on stdout:

    open URL              navigates and waits for the load event       -> ok
    wait JS [SECONDS]     waits until the expression is true (bounded)  -> ok | timeout VALUE
    eval JS               the expression's value, as JSON               -> value JSON
    shot FILE             a PNG of the viewport                         -> ok
    click X Y             a left click at page coordinates              -> ok
    key TEXT              each character typed (keyDown, char, keyUp)   -> ok
    quit
An error answers `error ...`. Chromium runs with a fresh profile under $TMPDIR.

    webbrowser.py [--size WxH] [--chromium PATH]
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium, size):
        self.dir = tempfile.mkdtemp(prefix="bd-chromium.")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4.
        args = [chromium, "--headless=new", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--user-data-dir=" + self.dir, "--window-size=" + size.replace("x", ","),
                "about:blank"]
        if os.environ.get("BD_CHROMIUM_NO_SANDBOX"):
            args.insert(1, "--no-sandbox")

        def child_fds():
            # Through fresh numbers first: a pipe end may itself be 3 or 4.
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(args, preexec_fn=child_fds,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(self.dir, "stderr"), "w"),
                                     close_fds=False)
        os.close(to_r)
        os.close(from_w)
        self.w = os.fdopen(to_w, "wb", buffering=0)
        self.r = os.fdopen(from_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    def message(self):
        while b"\0" not in self.buf:
            chunk = self.r.read(65536)
            if not chunk:
                raise EOFError("chromium ended: " + self.stderr())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def stderr(self):
        try:
            with open(os.path.join(self.dir, "stderr")) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def call(self, method, session=False, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        self.w.write(json.dumps(msg).encode() + b"\0")
        while True:
            m = self.message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for i, e in enumerate(self.events):
                if e.get("method") == name:
                    del self.events[i]
                    return e
            self.events.append(self.message())
        raise TimeoutError(name)

    def eval(self, js):
        r = self.call("Runtime.evaluate", session=True, expression=js, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"].get("text", "exception"))
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close")
        except (OSError, EOFError, RuntimeError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def run(b, line):
    cmd, _, rest = line.partition(" ")
    if cmd == "open":
        b.events.clear()
        b.call("Page.navigate", session=True, url=rest)
        b.wait_event("Page.loadEventFired", 20)
        return "ok"
    if cmd == "wait":
        js, seconds = rest, 20.0
        if js.rsplit(" ", 1)[-1].replace(".", "").isdigit():
            js, s = js.rsplit(" ", 1)
            seconds = float(s)
        # The page's own timer does the waiting: one round trip, bounded.
        v = b.eval("new Promise((ok) => { const t0 = Date.now(); (function f() {"
                   " let v; try { v = (%s); } catch (e) { v = false; }"
                   " if (v) ok(true); else if (Date.now() - t0 > %d) ok(false);"
                   " else setTimeout(f, 20); })(); })" % (js, int(seconds * 1000)))
        return "ok" if v else "timeout " + json.dumps(b.eval("String(%s)" % js))
    if cmd == "eval":
        return "value " + json.dumps(b.eval(rest))
    if cmd == "shot":
        data = b.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(rest, "wb") as f:
            f.write(base64.b64decode(data))
        return "ok"
    if cmd == "click":
        x, y = (float(v) for v in rest.split())
        for t in ("mousePressed", "mouseReleased"):
            b.call("Input.dispatchMouseEvent", session=True, type=t, x=x, y=y, button="left",
                   clickCount=1)
        return "ok"
    if cmd == "key":
        for ch in rest:
            code = "Key" + ch.upper() if ch.isalpha() else ""
            b.call("Input.dispatchKeyEvent", session=True, type="keyDown", key=ch, code=code,
                   text=ch, windowsVirtualKeyCode=ord(ch.upper()))
            b.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=ch, code=code,
                   windowsVirtualKeyCode=ord(ch.upper()))
        return "ok"
    raise ValueError("unknown command " + cmd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    b = Browser(a.chromium, a.size)
    print("ready", flush=True)
    try:
        for line in sys.stdin:
            line = line.rstrip("\n")
            if line == "quit":
                break
            try:
                out = run(b, line)
            except (OSError, RuntimeError, ValueError, TimeoutError, StopIteration) as e:
                out = "error %s" % e
            print(out, flush=True)
    finally:
        b.close()


if __name__ == "__main__":
    main()
