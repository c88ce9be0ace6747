#!/usr/bin/env python3
"""The application half of e2e-computer: computer-client.py BOTDESK PAGE DIR.

Serves PAGE (computer-page.html) on 127.0.0.1 and opens it in Debian's Chromium on the desktop
(`botdesk exec`); the page reports every mouse, key and wheel event it gets back to this
process. Then drives `botdesk mcp` with a small JSON-RPC client through the models' own
vocabularies (the `computer` tool as Anthropic's model emits it, `computer_actions` as OpenAI's
does) and checks what each action must produce in the application: a triple click is one press
of click count 3, `text: "shift"` on a click arrives with shiftKey, a hold_key of 1 s is a
keydown and a keyup 1 s apart, a drag's path passes every point, OpenAI's scroll_y scrolls the
right way. DIR holds Chromium's profile. Exits non-zero with the first failure."""
import base64
import http.server
import json
import os
import subprocess
import sys
import threading
import time

import e2elib

botdesk, page_file, work = sys.argv[1], sys.argv[2], sys.argv[3]
events = []
cond = threading.Condition()
procs = []


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    with cond:
        tail = events[-30:]
    print("the page's last events: " + json.dumps(tail), file=sys.stderr)
    with open(os.path.join(work, "events.json"), "w") as f:
        json.dump(events, f, indent=0)
    for p in procs:
        p.kill()
    sys.exit(1)


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(page_file, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        batch = json.loads(self.rfile.read(n))
        with cond:
            events.extend(batch)
            cond.notify_all()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
threading.Thread(target=server.serve_forever, daemon=True).start()


def wait_until(pred, start, what, seconds=30):
    """Waits (bounded; woken by each report) until pred holds of the events after start."""
    deadline = time.monotonic() + seconds
    with cond:
        while not pred(events[start:]):
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"the page never got {what}: {json.dumps(events[start:][-20:])}")
            cond.wait(left)


def wheel_sum(evs, key):
    return sum(e[key] for e in evs if e["type"] == "wheel")


def mark():
    with cond:
        return len(events)


def since(start):
    with cond:
        return list(events[start:])


def wait_for(pred, start, what, seconds=30):
    """The first event after start for which pred holds (bounded; woken by each report)."""
    deadline = time.monotonic() + seconds
    with cond:
        while True:
            for e in events[start:]:
                if pred(e):
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                break
            cond.wait(left)
    fail(f"the page never got {what}: {json.dumps(events[start:][-20:])}")


# -- Chromium on the desktop, the page in an app window
args = [botdesk, "exec", "--", "chromium", "--app=http://127.0.0.1:%d/" % server.server_address[1],
        "--user-data-dir=" + os.path.join(work, "chromium"), "--no-first-run",
        "--no-default-browser-check", "--password-store=basic", "--disable-features=Translate",
        "--noerrdialogs", "--disable-session-crashed-bubble", "--window-position=0,0",
        "--window-size=1440,900"]
if os.environ.get("BD_CHROMIUM_NO_SANDBOX"):
    args.append("--no-sandbox")
chrome = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=open(os.path.join(work, "chromium.err"), "w"))
procs.append(chrome)
ready = wait_for(lambda e: e["type"] == "ready", 0, "its load", 120)
# Loaded is not yet shown: the window manager maps the window and gives it the focus after.
if not ready["focus"]:
    wait_for(lambda e: e["type"] == "focus", 0, "the focus", 60)

# -- the MCP server, spoken to as a 2025 client does
mcp = subprocess.Popen([botdesk, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
procs.append(mcp)
next_id = 0


def rpc(proc, method, params=None):
    global next_id
    next_id += 1
    msg = {"jsonrpc": "2.0", "id": next_id, "method": method}
    if params is not None:
        msg["params"] = params
    proc.stdin.write(json.dumps(msg).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        fail("the MCP server closed its output")
    r = json.loads(line)
    if r.get("id") != next_id or "error" in r:
        fail(f"{method} {params}: {r}")
    return r["result"]


def call(tool, args, is_error=False, proc=None):
    res = rpc(proc or mcp, "tools/call", {"name": tool, "arguments": args})
    if bool(res.get("isError")) != is_error:
        fail(f"{tool} {args}: isError {res.get('isError')}: {json.dumps(res)[:400]}")
    return res["content"]


def computer(args, is_error=False, proc=None):
    return call("computer", args, is_error, proc)


def actions(acts, is_error=False):
    return call("computer_actions", {"actions": acts}, is_error)


def jpeg_size(content):
    if content["type"] != "image" or content["mimeType"] != "image/jpeg":
        fail(f"not a JPEG image: {content['type']} {content.get('mimeType')}")
    return e2elib.jpeg_size(base64.b64decode(content["data"]))


rpc(mcp, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "e2e-computer", "version": "1"}})
mcp.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
mcp.stdin.flush()

# The model picture (act/modelpic.h) and the screen: a model point p is the centre of the screen
# area its pixel was averaged from, as the page's screenX/screenY show it.
shot = call("screenshot", {})
size = json.loads(shot[1]["text"])
MW, MH = size["width"], size["height"]
SW, SH = (int(v) for v in size["screen"].split("x"))
if (ready["w"], ready["h"]) != (SW, SH):
    fail(f"the page sees a {ready['w']}x{ready['h']} screen, not {SW}x{SH}")


def sx(p):
    return (2 * p + 1) * SW // (2 * MW)


def sy(p):
    return (2 * p + 1) * SH // (2 * MH)


def at(e, p):
    return (e.get("x"), e.get("y")) == (sx(p[0]), sy(p[1]))


def downs(evs, p=None):
    return [e for e in evs if e["type"] == "mousedown" and (p is None or at(e, p))]


def sentinel(start, p=(400, 300)):
    """A click that marks that everything before it arrived: events come in order."""
    n = mark()
    computer({"action": "left_click", "coordinate": list(p)})
    wait_for(lambda e: e["type"] == "mouseup" and at(e, p), n, f"the sentinel's mouseup at {p}")


# The page loaded and had the focus, and still its window may not be mapped yet: no event
# says when it is. Clicks (each waited for, bounded) until one reaches the page.
W = (650, 650)
for attempt in range(30):
    n = mark()
    computer({"action": "left_click", "coordinate": list(W)})
    with cond:
        cond.wait_for(lambda: any(e["type"] == "mouseup" for e in events[n:]), 2)
    if any(e["type"] == "mouseup" for e in since(n)):
        break
else:
    fail("no click reached the page's window")

# -- Anthropic: a click
A = (400, 300)
n = mark()
out = computer({"action": "left_click", "coordinate": list(A)})
if out[0]["type"] != "text" or len(out) != 1:
    fail(f"left_click's answer: {out}")
wait_for(lambda e: e["type"] == "click" and at(e, A), n, "the left click")
d = downs(since(n), A)
if len(d) != 1 or d[0]["button"] != 0 or d[0]["detail"] != 1:
    fail(f"left_click: {d}")

# -- triple_click: one press of click count 3 (the DOM's three mousedowns, detail 1, 2, 3)
B = (700, 300)
n = mark()
computer({"action": "triple_click", "coordinate": list(B)})
wait_for(lambda e: e["type"] == "click" and at(e, B) and e["detail"] == 3, n,
         "a click of detail 3")
if [e["detail"] for e in downs(since(n), B)] != [1, 2, 3]:
    fail(f"triple_click: mousedown details {[e['detail'] for e in downs(since(n), B)]}")

# -- text: "shift" on a click: Shift down around it, the press with shiftKey
C = (1000, 300)
n = mark()
computer({"action": "left_click", "coordinate": list(C), "text": "shift"})
# Chromium hands key and mouse events to the page on queues of their own: each is waited for.
wait_for(lambda e: e["type"] == "mouseup" and at(e, C), n, "the shift-click")
wait_for(lambda e: e["type"] == "keyup" and e["key"] == "Shift", n, "Shift's keyup after the click")
evs = since(n)
d = downs(evs, C)
if len(d) != 1 or not d[0]["shift"]:
    fail(f"left_click with text shift: {d}")
# So Shift's keyup may come before the mousedown; the keydown comes first, and the press
# carries the state the server had: shift held.
order = [e["type"] for e in evs if e["type"] in ("keydown", "mousedown")]
if order[:2] != ["keydown", "mousedown"]:
    fail(f"left_click with text shift: the order {order}")

# -- hold_key: a keydown and a keyup a second apart (the server's event times)
n = mark()
t0 = time.monotonic()
computer({"action": "hold_key", "text": "shift", "duration": 1})
if time.monotonic() - t0 < 1:
    fail("hold_key of 1 s answered in less than a second")
up = wait_for(lambda e: e["type"] == "keyup" and e["key"] == "Shift", n, "the held key's keyup")
down = [e for e in since(n) if e["type"] == "keydown" and e["key"] == "Shift"]
if not down or up["t"] - down[0]["t"] < 900:
    fail(f"hold_key 1 s: keydown {down[:1]} keyup {up}")

# -- left_mouse_down, mouse_move, left_mouse_up: the button held across the move
D1, D2, D3 = (400, 500), (450, 520), (500, 540)
n = mark()
computer({"action": "left_mouse_down", "coordinate": list(D1)})
computer({"action": "mouse_move", "coordinate": list(D2)})
computer({"action": "left_mouse_up", "coordinate": list(D3)})
wait_for(lambda e: e["type"] == "mouseup" and at(e, D3), n, "the mouse_up")
if len(downs(since(n), D1)) != 1:
    fail(f"left_mouse_down: {since(n)}")
# Chromium merges the motions waiting in its X queue into the last one (as most toolkits do), so
# which of them the page sees depends on its speed: a move with the button held is what counts.
# (e2e-vocab checks every motion at the X server.)
moves = [e for e in since(n) if e["type"] == "pointermove" and e["buttons"] == 1]
if not moves:
    fail(f"mouse_move with the button down: {since(n)}")

# -- left_click_drag from start_coordinate to coordinate
n = mark()
computer({"action": "left_click_drag", "start_coordinate": [300, 400], "coordinate": [350, 450]})
wait_for(lambda e: e["type"] == "mouseup" and at(e, (350, 450)), n, "the drag's release")
if len(downs(since(n), (300, 400))) != 1:
    fail(f"left_click_drag: {since(n)}")

# -- type and key (xdotool's syntax)
n = mark()
computer({"action": "type", "text": "Hi!"})
computer({"action": "key", "text": "ctrl+a Return"})
wait_for(lambda e: e["type"] == "keydown" and e["key"] == "Enter", n, "Return")
keys = [(e["key"], e["ctrl"]) for e in since(n) if e["type"] == "keydown"]
if [k for k in keys if k[0] in ("H", "i", "!", "a", "Enter")] != [
        ("H", False), ("i", False), ("!", False), ("a", True), ("Enter", False)]:
    fail(f"type and key: {keys}")

# -- scroll, with a modifier held. Chromium hands wheel events to the page on a queue of their
# own, merged while they wait: the distance counts, not the events. One notch first, for the
# page's distance per notch.
n = mark()
computer({"action": "scroll", "coordinate": [800, 500], "scroll_direction": "down",
          "scroll_amount": 1})
STEP = wait_for(lambda e: e["type"] == "wheel", n, "a wheel notch")["dy"]
if STEP <= 0:
    fail(f"scroll down: a wheel event upwards ({STEP})")
n = mark()
computer({"action": "scroll", "coordinate": [800, 500], "scroll_direction": "up",
          "scroll_amount": 2, "text": "ctrl"})
wait_until(lambda evs: wheel_sum(evs, "dy") <= -2 * STEP, n, "two notches up")
wheels = [e for e in since(n) if e["type"] == "wheel"]
# Chromium gives a wheel event the modifiers of its own keyboard state when it dispatches it:
# the held keys stay down a moment after the last notch (act.c's HOLD_WHEEL_GAP_MS), or Ctrl's
# keyup overtook the second notch.
if wheel_sum(wheels, "dy") != -2 * STEP or not all(e["ctrl"] and at(e, (800, 500)) for e in wheels):
    fail(f"scroll up 2 with ctrl: {wheels}")

# -- the eyes: screenshot, zoom, cursor_position
pic = computer({"action": "screenshot"})
if len(pic) != 1 or jpeg_size(pic[0]) != (MW, MH):
    fail(f"screenshot: {[c['type'] for c in pic]}")
# [x0, y0, x1, y1] in the model picture: the screen pixels that cover it, scaled (here up) to
# fill the model picture's size with their aspect.
z = computer({"action": "zoom", "region": [100, 100, 300, 200]})
rw, rh = -(-300 * SW // MW) - 100 * SW // MW, -(-200 * SH // MH) - 100 * SH // MH
if rw * MH >= rh * MW:
    want = (MW, (rh * MW + rw // 2) // rw)
else:
    want = ((rw * MH + rh // 2) // rh, MH)
if len(z) != 1 or jpeg_size(z[0]) != want:
    fail(f"zoom: {jpeg_size(z[0])}, expected {want}")
computer({"action": "mouse_move", "coordinate": [321, 222]})
if computer({"action": "cursor_position"})[0]["text"] != "X=321,Y=222":
    fail("cursor_position in the model picture")
computer({"action": "wait", "duration": 0.2})
err = computer({"action": "left_click", "coordinate": [MW, 0]}, is_error=True)[0]["text"]
if f"off the {MW}x{MH} picture" not in err:
    fail(f"a click off the model picture: {err}")

# -- OpenAI: a list run in order, answered with one screenshot
E = [(600, 450), (700, 450), (700, 600)]
n = mark()
out = actions([{"type": "click", "x": 900, "y": 400, "button": "left"},
               {"type": "keypress", "keys": ["CTRL", "A"]},
               {"type": "drag", "path": [{"x": x, "y": y} for x, y in E]},
               {"type": "click", "x": 900, "y": 550, "button": "right"},
               {"type": "click", "x": 950, "y": 550, "button": "wheel"},
               {"type": "click", "x": 1000, "y": 550, "button": "back"},
               {"type": "double_click", "x": 1100, "y": 400},
               {"type": "type", "text": "ok"},
               {"type": "screenshot"}])
if out[0]["type"] != "image" or jpeg_size(out[0]) != (MW, MH):
    fail(f"computer_actions' answer: {[c['type'] for c in out]}")
wait_for(lambda e: e["type"] == "keydown" and e["key"] == "k", n, "the typed 'ok'")
sentinel(n)
evs = since(n)
if not any(e["type"] == "keydown" and e["key"] == "a" and e["ctrl"] for e in evs):
    fail(f"keypress CTRL A: {[e for e in evs if e['type'] == 'keydown']}")
if len(downs(evs, E[0])) != 1 or not any(e["type"] == "mouseup" and at(e, E[-1]) for e in evs):
    fail(f"drag: pressed at the first point, released at the last: {downs(evs)}")
points = [tuple(p) for e in evs if e["type"] == "pointermove" and e["buttons"] == 1
          for p in e["points"]]
# Every point the page saw with the button down lies on the path's legs (a straight drag from
# the first point to the last would cut the corner); which ones it saw is Chromium's merging.
legs = list(zip(E, E[1:]))


def on_leg(p, a, b):
    (ax, ay), (bx, by) = (sx(a[0]), sy(a[1])), (sx(b[0]), sy(b[1]))
    cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
    return abs(cross) <= 2 * max(abs(bx - ax), abs(by - ay)) and \
        min(ax, bx) - 1 <= p[0] <= max(ax, bx) + 1 and min(ay, by) - 1 <= p[1] <= max(ay, by) + 1


off = [p for p in points if not any(on_leg(p, a, b) for a, b in legs)]
if not points or off:
    fail(f"the drag's path: points off its legs {off} of {points}")
if (sx(E[-1][0]), sy(E[-1][1])) not in points:
    fail(f"the drag did not reach its last point: {points}")
buttons = [(e["button"], e["x"], e["y"]) for e in downs(evs) if e["button"] != 0]
if buttons != [(2, sx(900), sy(550)), (1, sx(950), sy(550)), (3, sx(1000), sy(550))]:
    fail(f"right, wheel and back buttons: {buttons}")
if [e["detail"] for e in downs(evs, (1100, 400))] != [1, 2]:
    fail(f"double_click: {downs(evs, (1100, 400))}")

# -- OpenAI's scroll in pixels: 300 down is 6 notches of 53 px, 120 up is 2, 150 right is 3
n = mark()
actions([{"type": "scroll", "x": 800, "y": 500, "scroll_x": 0, "scroll_y": 300}])
wait_until(lambda evs: wheel_sum(evs, "dy") >= 6 * STEP, n, "six notches down")
n2 = mark()
actions([{"type": "scroll", "x": 800, "y": 500, "scroll_x": 0, "scroll_y": -120}])
wait_until(lambda evs: wheel_sum(evs, "dy") <= -2 * STEP, n2, "two notches up")
n3 = mark()
actions([{"type": "scroll", "x": 800, "y": 500, "scroll_x": 150, "scroll_y": 0}])
wait_until(lambda evs: wheel_sum(evs, "dx") > 0, n3, "a scroll right")
sentinel(n)
if (wheel_sum(since(n)[:n2 - n], "dy"), wheel_sum(since(n2)[:n3 - n2], "dy")) != (6 * STEP, -2 * STEP):
    fail(f"scroll_y 300 and -120: {[e for e in since(n) if e['type'] == 'wheel']}")
if [e for e in since(n3) if e["type"] == "wheel" and (e["dy"] != 0 or e["dx"] < 0)]:
    fail(f"scroll_x 150: {[e for e in since(n3) if e['type'] == 'wheel']}")

# -- the first failure stops the list: the action after it is never sent
F1, F3 = (300, 600), (500, 600)
n = mark()
msg = actions([{"type": "click", "x": F1[0], "y": F1[1], "button": "left"},
               {"type": "keypress", "keys": ["NOSUCHKEY"]},
               {"type": "click", "x": F3[0], "y": F3[1], "button": "left"}], is_error=True)
if "failed at action 2 of 3 (keypress)" not in msg[0]["text"]:
    fail(f"a failing list: {msg}")
sentinel(n)
if len(downs(since(n), F1)) != 1 or downs(since(n), F3):
    fail(f"a failing list: before it done, after it not sent: {downs(since(n))}")

# -- a human's take stops a list at once: nothing is delivered
subprocess.run([botdesk, "take", "--reason", "e2e"], check=True, stdout=subprocess.DEVNULL)
n = mark()
msg = actions([{"type": "click", "x": F3[0], "y": F3[1], "button": "left"},
               {"type": "type", "text": "secret"}], is_error=True)
if "stopped at action 1 of 2 (click)" not in msg[0]["text"] or "a human holds" not in msg[0]["text"]:
    fail(f"a list under a human's lease: {msg}")
msg = computer({"action": "hold_key", "text": "shift", "duration": 0.1}, is_error=True)
if "a human holds" not in msg[0]["text"]:
    fail(f"computer under a human's lease: {msg}")
subprocess.run([botdesk, "release"], check=True, stdout=subprocess.DEVNULL)
sentinel(n)
if [e for e in since(n) if e["type"] in ("keydown", "wheel") or (e["type"] == "mousedown" and not at(e, A))]:
    fail(f"events reached the page under a human's lease: {since(n)}")

# -- the setting: every action answered with a settled screenshot too
env = dict(os.environ, BOTDESK_COMPUTER_SCREENSHOTS="yes")
shots = subprocess.Popen([botdesk, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
procs.append(shots)
out = computer({"action": "left_click", "coordinate": list(A)}, proc=shots)
if [c["type"] for c in out] != ["text", "image", "text"] or jpeg_size(out[1]) != (MW, MH):
    fail(f"left_click with computer_screenshots: {[c['type'] for c in out]}")
shots.stdin.close()
mcp.stdin.close()
if shots.wait(timeout=10) != 0 or mcp.wait(timeout=10) != 0:
    fail("an MCP server did not end cleanly at the end of its input")
chrome.terminate()
try:
    chrome.wait(timeout=20)
except subprocess.TimeoutExpired:
    chrome.kill()
print("ok: computer client")
