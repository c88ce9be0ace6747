#!/usr/bin/env python3
"""botdesk web's first frame, by hand, with a desktop running (the profile's):

    bench/web/bench-web.py [--runs N] [--profile P] [--botdesk PATH] [--timeline]
                           [--server NAME=BOTDESK_WEB:BOTDESK_WEB_DATA]...

Each run starts a fresh `botdesk web --listen 127.0.0.1:PORT` (a new server: new salt, new
cookie) and a fresh headless Chromium (an empty profile: nothing cached), opens the ticket URL
and takes the time from the navigation's start to the first frame noVNC draws on the page's
canvas that is not black (the page's own clock, performance.now(): no DevTools round trips in
it); then reloads the page and takes the same time again (the cache warm, the cookie set).
Prints each run's breakdown and the median, min and max of both. --timeline prints each
request's start and end (ms since the navigation) of the first run.

With --server (twice or more: before and after a change), the runs take the servers in turn, so
that every server sees the same load on a shared machine; each gets its own summary.

Chromium runs through its DevTools pipe (tests/e2e/webbrowser.py). As root it needs
BD_CHROMIUM_NO_SANDBOX=1.
"""

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "e2e"))
from webbrowser import Browser  # noqa: E402  (tests/e2e/webbrowser.py, not Python's)

# Before any of the page's scripts: marks on the page's clock when the stream is made, opens and
# proves its server, and when the first non-black frame reaches the visible canvas (noVNC's
# Display.flip draws its back buffer onto it with drawImage).
HOOKS = r"""
(() => {
  const mark = (k) => { if (!(k in window.bdMarks)) window.bdMarks[k] = performance.now(); };
  window.bdMarks = {};
  window.bdStream = [];
  const WS = window.WebSocket;
  window.WebSocket = function (...a) {
    mark('ws_new');
    const ws = new WS(...a);
    ws.addEventListener('open', () => mark('ws_open'));
    let n = 0;
    const size = (d) => typeof d === 'string' ? d.length : d.byteLength;
    const log = (what, d) => { if (window.bdStream.length < 40) window.bdStream.push([what, performance.now(), size(d)]); };
    ws.addEventListener('message', (e) => {
      mark(++n === 1 ? 'ws_first_message' : 'rfb_first_message');
      log('in', e.data);
    });
    const send = ws.send.bind(ws);
    ws.send = (d) => { if (d === 'go') mark('ws_go'); log('out', d); return send(d); };
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...a) {
    const r = draw.apply(this, a);
    const c = this.canvas;
    if (!('frame' in window.bdMarks) && c.isConnected && c.width) {
      mark('first_draw');
      const d = this.getImageData(c.width / 2 | 0, c.height / 2 | 0, 1, 1).data;
      if (d[0] + d[1] + d[2] > 0) mark('frame');
    }
    return r;
  };
  document.addEventListener('DOMContentLoaded', () => mark('dom_content_loaded'));
})();
"""

# What the page's clock says, once the frame is there.
REPORT = r"""
(() => {
  const n = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const mods = res.filter((r) => r.name.includes('/novnc/') || r.name.includes('/web/'));
  const m = window.bdMarks;
  return {
    redirect_end: n.redirectEnd, page_response_end: n.responseEnd,
    transfer: res.reduce((s, r) => s + r.transferSize, 0) + n.transferSize,
    requests: res.length + 1, modules: mods.length,
    modules_end: Math.max(0, ...mods.map((r) => r.responseEnd)),
    dom_content_loaded: m.dom_content_loaded, ws_new: m.ws_new, ws_open: m.ws_open,
    ws_first_message: m.ws_first_message, ws_go: m.ws_go, rfb_first_message: m.rfb_first_message,
    first_draw: m.first_draw, frame: m.frame, stream: window.bdStream,
    timeline: [[n.name.replace(location.origin, ''), 0, n.responseEnd]].concat(
      res.map((r) => [r.name.replace(location.origin, ''), r.startTime, r.responseEnd,
                      r.transferSize])),
  };
})()
"""

KEYS = ["redirect_end", "page_response_end", "dom_content_loaded", "modules_end", "ws_new",
        "ws_open", "ws_first_message", "ws_go", "rfb_first_message", "first_draw", "frame"]


def wait_frame(b, seconds):
    ok = b.eval("new Promise((ok) => { const t0 = Date.now(); (function f() {"
                " if (window.bdMarks && 'frame' in window.bdMarks) ok(true);"
                " else if (Date.now() - t0 > %d) ok(false); else setTimeout(f, 20); })(); })"
                % (seconds * 1000))
    if not ok:
        raise TimeoutError("no frame in %d s" % seconds)
    return b.eval(REPORT)


def load(b, url):
    b.events.clear()
    if url is None:
        b.call("Page.reload", session=True)
    else:
        b.call("Page.navigate", session=True, url=url)
    b.wait_event("Page.loadEventFired", 20)
    return wait_frame(b, 20)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_server(botdesk, profile, work, env):
    out = open(os.path.join(work, "web.out"), "w+")
    p = subprocess.Popen([botdesk, "--profile", profile, "web", "--listen",
                          "127.0.0.1:%d" % free_port()], stdout=out, stderr=subprocess.STDOUT,
                         env=env)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        out.seek(0)
        text = out.read()
        for word in text.split():
            if "?ticket=" in word:
                return p, word
        if p.poll() is not None:
            break
        time.sleep(0.05)
    p.kill()
    raise RuntimeError("botdesk web said: " + text)


def summary(name, values):
    return "%-6s median %4.0f ms  min %4.0f  max %4.0f  (%d runs)" % (
        name, statistics.median(values), min(values), max(values), len(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--profile", default="default")
    ap.add_argument("--botdesk", default=os.environ.get("BOTDESK_BIN", "botdesk"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--timeline", action="store_true")
    ap.add_argument("--server", action="append", default=[],
                    help="NAME=BOTDESK_WEB:BOTDESK_WEB_DATA (botdesk-web and its page)")
    a = ap.parse_args()
    servers = []
    for spec in a.server:
        name, _, paths = spec.partition("=")
        web, _, data = paths.partition(":")
        servers.append((name, dict(os.environ, BOTDESK_WEB=web, BOTDESK_WEB_DATA=data)))
    if not servers:
        servers = [("", dict(os.environ))]
    work = tempfile.mkdtemp(prefix="bd-bench-web.")
    firsts = {name: [] for name, _ in servers}
    reloads = {name: [] for name, _ in servers}
    try:
        for i in range(a.runs):
            for name, env in servers:
                first, again = one_run(a, work, env)
                firsts[name].append(first["frame"])
                reloads[name].append(again["frame"])
                for what, r in (("first", first), ("reload", again)):
                    print("%srun %d %-6s " % (name and name + " ", i + 1, what) +
                          " ".join("%s=%.0f" % (k, r[k]) for k in KEYS if r.get(k) is not None) +
                          " requests=%d modules=%d transferred=%d" % (
                              r["requests"], r["modules"], r["transfer"]))
                if a.timeline and i == 0:
                    for what, r in (("first", first), ("reload", again)):
                        print("timeline of the %s open (ms since the navigation):" % what)
                        for t in r["timeline"]:
                            print("  %7.1f %7.1f %7s  %s" % (
                                t[1], t[2], t[3] if len(t) > 3 else "", t[0]))
                        print("the stream's first messages of the %s open (ms, bytes):" % what)
                        for t in r["stream"]:
                            print("  %7.1f %-3s %7d" % (t[1], t[0], t[2]))
                sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name, _ in servers:
        print((name + ": " if name else "") + summary("first", firsts[name]))
        print((name + ": " if name else "") + summary("reload", reloads[name]))


def one_run(a, work, env):
    server, url = start_server(a.botdesk, a.profile, work, env)
    b = Browser(a.chromium, "1600x1000")
    try:
        b.call("Page.addScriptToEvaluateOnNewDocument", session=True, source=HOOKS)
        return load(b, url), load(b, None)
    finally:
        b.close()
        server.send_signal(signal.SIGINT)
        server.wait(10)


if __name__ == "__main__":
    main()
