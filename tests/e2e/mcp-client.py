#!/usr/bin/env python3
"""A scripted MCP client for e2e-mcp: mcp-client.py BOTDESK RECORDER_FILE.
Runs `BOTDESK mcp` and drives it as an agent framework would, checking every answer; the
recorder's file shows what reached the desktop. It speaks revision 2026-07-28 as a dual-era
client does (server/discover first, every request naming its revision in _meta), then the
legacy handshake (initialize) of older clients on the same connection. Exits non-zero with the
first failure."""
import base64
import json
import subprocess
import sys
import time

from e2elib import jpeg_size, png_size

botdesk, rec = sys.argv[1], sys.argv[2]
srv = subprocess.Popen([botdesk, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
next_id = 0


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    srv.kill()
    sys.exit(1)


def send(obj):
    line = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    srv.stdin.write(line + b"\n")
    srv.stdin.flush()


def recv():
    line = srv.stdout.readline()
    if not line:
        fail("the server closed its output")
    return json.loads(line)


MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"}}


def call(method, params=None, expect_error=None, modern=True, meta=META):
    """One request; modern ones carry META in params._meta, and their results must say they
    are complete and name the server; legacy results must not."""
    global next_id
    next_id += 1
    msg = {"jsonrpc": "2.0", "id": next_id, "method": method}
    if modern:
        params = dict(params or {}, _meta=meta)
    if params is not None:
        msg["params"] = params
    send(msg)
    r = recv()
    if r.get("id") != next_id or r.get("jsonrpc") != "2.0":
        fail(f"{method}: a response to another request: {r}")
    if expect_error is not None:
        if r.get("error", {}).get("code") != expect_error:
            fail(f"{method} {params}: expected error {expect_error}, got {r}")
        return r["error"]
    if "error" in r:
        fail(f"{method} {params}: {r['error']}")
    res = r["result"]
    if modern:
        info = res.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {})
        if res.pop("resultType", None) != "complete" or info.get("name") != "botdesk":
            fail(f"{method}: a {MODERN} result without resultType or serverInfo: {res}")
        del res["_meta"]
    elif "resultType" in res:
        fail(f"{method}: a legacy result with a resultType: {res}")
    return res


def tool(name, args=None, is_error=False, modern=True):
    res = call("tools/call", {"name": name, "arguments": args or {}}, modern=modern)
    if bool(res.get("isError")) != is_error:
        fail(f"{name} {args}: isError {res.get('isError')}: {res}")
    return res["content"]


def text(content):
    return json.loads(content[0]["text"])


def point(content):
    """A pointer action's result without the window it landed on (issue 26), which it must
    name: {"id", "title"}, or null over the root (the recorder covers the screen unmanaged)."""
    d = text(content)
    if "window" not in d or not (d["window"] is None or set(d["window"]) == {"id", "title"}):
        fail(f"a pointer action's result names no window: {d}")
    del d["window"]
    return d


def rec_lines():
    with open(rec, encoding="utf-8") as f:
        return f.read().splitlines()


def rec_wait(line, start):
    """Waits (bounded, woken by the file changing) for line after the first start lines."""
    deadline = time.monotonic() + 15
    while line not in rec_lines()[start:]:
        if time.monotonic() > deadline:
            fail(f"the recorder never got {line!r}: {rec_lines()[start:][-20:]}")
        subprocess.run(["inotifywait", "-qq", "-t", "1", "-e", "modify", rec], check=False)


# -- 2026-07-28: no handshake; server/discover is a dual-era client's first request
disc = call("server/discover")
if disc["supportedVersions"][0] != MODERN or "2025-11-25" not in disc["supportedVersions"]:
    fail(f"server/discover: supportedVersions {disc}")
if "tools" not in disc["capabilities"] or not disc.get("instructions"):
    fail(f"server/discover: {disc}")
if not disc.get("ttlMs", 0) > 0 or disc.get("cacheScope") not in ("public", "private"):
    fail(f"server/discover: no cache hints: {disc}")
listed = call("tools/list")
if not listed.get("ttlMs", 0) > 0 or listed.get("cacheScope") not in ("public", "private"):
    fail(f"tools/list: no cache hints: {listed}")
tools = {t["name"]: t for t in listed["tools"]}
want = {"screenshot", "click", "move", "drag", "scroll", "type", "key", "cursor", "wait",
        "status", "start", "lease", "batch", "computer", "computer_actions", "clipboard_get",
        "clipboard_set", "windows", "window", "open", "launch", "ask_human", "tree",
        "find"}
if set(tools) != want:
    fail(f"tools/list: {sorted(tools)}")
for t in tools.values():
    if t["inputSchema"].get("type") != "object" or not t.get("description"):
        fail(f"tool without a schema or description: {t}")

# -- status, start, lease
if not text(tool("status"))["running"]:
    fail("status: not running")
if not text(tool("start", {"wait": 30}))["running"]:
    fail("start")
if text(tool("lease"))["holder"] != "agent":
    fail("lease")

# -- the eyes
# Without a size: the largest picture of the screen's aspect within Anthropic's budget (long
# edge <= 1568, ceil(w/28) * ceil(h/28) <= 1568 tiles): 1440x900 is 52 x 33 = 1716 tiles, too
# many; 1389x868 is 50 x 31 = 1550, and 1390 wide (869 high) would be 50 x 32 = 1600.
shot = tool("screenshot")
if shot[0]["type"] != "image" or shot[0]["mimeType"] != "image/jpeg":
    fail(f"screenshot content: {shot[0]['type']} {shot[0].get('mimeType')}")
if jpeg_size(base64.b64decode(shot[0]["data"])) != (1389, 868):
    fail(f"the default screenshot is not 1389x868: {jpeg_size(base64.b64decode(shot[0]['data']))}")
if text(shot[1:]) != {"width": 1389, "height": 868, "screen": "1440x900", "scale": 1.0367}:
    fail(f"the default screenshot's text: {shot[1]}")
lossless = tool("screenshot", {"format": "png"})
if lossless[0]["mimeType"] != "image/png" or png_size(base64.b64decode(lossless[0]["data"])) != (1389, 868):
    fail("the default screenshot as PNG")
full = tool("screenshot", {"max": "1440x900", "format": "png"})
# Another size than the default picture's says the from its coordinates need.
if png_size(base64.b64decode(full[0]["data"])) != (1440, 900) or text(full[1:]) != {
        "width": 1440, "height": 900, "screen": "1440x900", "from": "1440x900"}:
    fail(f"screenshot max 1440x900: {full[1]}")
small = tool("screenshot", {"max": "960x600", "format": "png"})
if png_size(base64.b64decode(small[0]["data"])) != (960, 600) or text(small[1:]) != {
        "width": 960, "height": 600, "screen": "1440x900", "scale": 1.5, "from": "960x600"}:
    fail(f"screenshot max 960x600: {small[1]}")
# A region is read in the default picture and grabbed at the screen's resolution: [0, 0, 100,
# 50] of 1389x868 covers screen [0, 104) x [0, 52).
jpeg = tool("screenshot", {"format": "jpeg", "region": [0, 0, 100, 50]})
if jpeg[0]["mimeType"] != "image/jpeg" or jpeg_size(base64.b64decode(jpeg[0]["data"])) != (104, 52):
    fail(f"jpeg region screenshot: {text(jpeg[1:])}")

# -- the hands
# Without from, coordinates are the default picture's: its pixel p is the centre of the screen
# area it was averaged from, (2p + 1) * 1440 / (2 * 1389); the recorder (an X client) sees the
# press there.
def from_model(p, pic, screen):
    return (2 * p + 1) * screen // (2 * pic)


mx, my = from_model(1000, 1389, 1440), from_model(600, 868, 900)
n = len(rec_lines())
if point(tool("click", {"x": 1000, "y": 600})) != {"x": mx, "y": my, "screen": "1440x900"}:
    fail("click in the model picture")
rec_wait(f"release 1 {mx} {my}", n)
if f"press 1 {mx} {my}" not in rec_lines()[n:]:
    fail(f"the click in the model picture did not land at {mx},{my}: {rec_lines()[n:]}")
n = len(rec_lines())
if point(tool("click", {"x": 1388, "y": 867})) != {"x": 1439, "y": 899, "screen": "1440x900"}:
    fail("click at the model picture's last pixel")
rec_wait("release 1 1439 899", n)
if text(tool("cursor")) != {"x": 1388, "y": 867, "screen": "1440x900"}:
    fail("cursor in the model picture")
if text(tool("cursor", {"from": "1440x900"})) != {"x": 1439, "y": 899, "screen": "1440x900"}:
    fail("cursor in screen pixels")
n = len(rec_lines())
if point(tool("click", {"x": 480, "y": 300, "from": "960x600"})) != {"x": 720, "y": 450, "screen": "1440x900"}:
    fail("click from 960x600")
rec_wait("release 1 720 450", n)
# The recorder draws a square on the press: the change happened after the last action began.
if not text(tool("wait", {"for": "change", "timeout": 10}))["changed"]:
    fail("wait for change")
if not text(tool("wait", {"for": "idle", "quiet": 0.2}))["idle"]:
    fail("wait for idle")
n = len(rec_lines())
tool("click", {"x": 100, "y": 120, "button": "right", "double": True, "from": "1440x900"})
rec_wait("release 3 100 120", n)
if [l for l in rec_lines()[n:] if l == "press 3 100 120"] != ["press 3 100 120"] * 2:
    fail("double right click")
tool("move", {"x": 33, "y": 44, "from": "1440x900"})
if text(tool("cursor", {"from": "1440x900"})) != {"x": 33, "y": 44, "screen": "1440x900"}:
    fail("cursor")
n = len(rec_lines())
tool("drag", {"x1": 10, "y1": 10, "x2": 200, "y2": 100, "from": "1440x900"})
rec_wait("release 1 200 100", n)
n = len(rec_lines())
tool("scroll", {"x": 300, "y": 300, "direction": "up", "amount": 2, "from": "1440x900"})
tool("click", {"x": 1, "y": 1, "from": "1440x900"})
rec_wait("release 1 1 1", n)
if rec_lines()[n:].count("press 4 300 300") != 2:
    fail("scroll up 2")
n = len(rec_lines())
typed = "Grüße, €5 — 中文 😀!"
out = text(tool("type", {"text": typed}))
if out["characters"] != len(typed):
    fail(f"type: {out}")
rec_wait("char U+0021", n)
got = [l[5:] for l in rec_lines()[n:] if l.startswith("char ")]
if got != ["U+%04X" % ord(c) for c in typed]:
    fail(f"type: {got}")
n = len(rec_lines())
tool("key", {"keys": ["ctrl+l", "Return"]})
rec_wait("key 0xff0d 0", n)
if "key 0x6c 0x4" not in rec_lines()[n:]:
    fail("key ctrl+l")

# -- a batch: its steps in order through the tools' own path (the model's picture's space, as
# each tool alone), the summary as text, the pictures after it
n = len(rec_lines())
res = call("tools/call", {"name": "batch", "arguments": {"steps": [
    {"tool": "click", "arguments": {"x": 50, "y": 60, "from": "1440x900"}},
    {"tool": "click", "arguments": {"x": 1000, "y": 600}},
    {"tool": "screenshot", "arguments": {"max": "96x60", "format": "png"}}]}})
summary = json.loads(res["content"][0]["text"])
if res.get("isError") or summary["status"] != "done" or summary["done"] != 3:
    fail(f"batch: {summary}")
if {k: v for k, v in summary["results"][1]["result"].items() if k != "window"} != {"x": mx, "y": my, "screen": "1440x900"} or summary["results"][2]["images"] != 1:
    fail(f"batch results: {summary['results']}")
if res["content"][1]["type"] != "image" or png_size(base64.b64decode(res["content"][1]["data"])) != (96, 60):
    fail("batch: the screenshot's picture")
rec_wait(f"release 1 {mx} {my}", n)
got = [l for l in rec_lines()[n:] if l.startswith("press ")]
if got != ["press 1 50 60", f"press 1 {mx} {my}"]:
    fail(f"batch: the presses, in order: {got}")
# A step that fails stops it; a malformed batch is a tool error before any step runs.
n = len(rec_lines())
res = call("tools/call", {"name": "batch", "arguments": {"steps": [
    {"tool": "click", "arguments": {"x": 70, "y": 80, "from": "1440x900"}},
    {"tool": "click", "arguments": {"x": 1389, "y": 0}},
    {"tool": "click", "arguments": {"x": 90, "y": 95, "from": "1440x900"}}]}})
summary = json.loads(res["content"][0]["text"])
if not res.get("isError") or summary["stopped"]["step"] != 2 or summary["stopped"]["reason"] != "failed":
    fail(f"batch with a failing step: {summary}")
for steps, says in (([{"tool": "teleport"}], "names no tool"), ([], "1 to 64 steps"),
                    ([{"tool": "batch", "arguments": {"steps": []}}], "is a batch"),
                    ([{"tool": "cursor"}, {"tool": "click", "arguments": {"x": 1}}], "step 2 (click): invalid arguments")):
    err = tool("batch", {"steps": steps}, is_error=True)[0]["text"]
    if not err.startswith("invalid arguments: 'steps': ") or says not in err:
        fail(f"batch {steps}: {err}")
tool("click", {"x": 3, "y": 3, "from": "1440x900"})
rec_wait("release 1 3 3", n)
if [l for l in rec_lines()[n:] if l.startswith("press ")] != ["press 1 70 80", "press 1 3 3"]:
    fail(f"batch: a step after the failure arrived: {rec_lines()[n:]}")

# -- the legacy handshake on the same connection, as a client of 2025 speaks it
init = call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "e2e", "version": "1"}}, modern=False)
if init["protocolVersion"] != "2025-06-18" or "tools" not in init["capabilities"]:
    fail(f"initialize: {init}")
if init["serverInfo"]["name"] != "botdesk":
    fail(f"serverInfo: {init}")
# A revision it does not know, or 2026-07-28 (which has no initialize): the newest legacy one.
for asked in ("1999-01-01", MODERN):
    if call("initialize", {"protocolVersion": asked}, modern=False)["protocolVersion"] != "2025-11-25":
        fail(f"initialize {asked} is not answered with 2025-11-25")
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
if call("ping", modern=False) != {}:
    fail("ping")
if len(call("tools/list", modern=False)["tools"]) != len(want):
    fail("legacy tools/list")
n = len(rec_lines())
if point(tool("click", {"x": 3, "y": 4, "from": "1440x900"}, modern=False)) != {"x": 3, "y": 4, "screen": "1440x900"}:
    fail("legacy click")
rec_wait("release 1 3 4", n)

# -- errors: the protocol's, and the tools'
send(b"{not json")
r = recv()
if r["id"] is not None or r["error"]["code"] != -32700:
    fail(f"malformed JSON: {r}")
send(b'{"id": 99, "method": "ping"}')
r = recv()
if r["id"] != 99 or r["error"]["code"] != -32600:
    fail(f"no jsonrpc member: {r}")
send(b"[1, 2]")
if recv()["error"]["code"] != -32600:
    fail("a batch")
call("no/such/method", expect_error=-32601)
call("no/such/method", expect_error=-32601, modern=False)
# 2026-07-28 has no ping or initialize; its requests must name a revision it speaks, and the
# client's capabilities; server/discover is its alone.
call("ping", expect_error=-32601)
call("initialize", {"protocolVersion": MODERN}, expect_error=-32601)
e = call("tools/list", expect_error=-32022, meta=dict(META, **{"io.modelcontextprotocol/protocolVersion": "2099-01-01"}))
if e.get("data", {}).get("requested") != "2099-01-01" or MODERN not in e["data"].get("supported", []):
    fail(f"unsupported version: {e}")
e = call("tools/list", expect_error=-32602, meta={"io.modelcontextprotocol/protocolVersion": MODERN})
if "clientCapabilities" not in e["message"]:
    fail(f"no clientCapabilities: {e}")
call("server/discover", expect_error=-32602, modern=False)
# No tool to call is a protocol error; arguments a tool refuses are a tool error the model
# reads, in either era.
call("tools/call", {"name": "teleport"}, expect_error=-32602)
call("tools/call", {"name": "teleport"}, expect_error=-32602, modern=False)
for args in ({"x": 1}, {"x": "1", "y": 2}, {"x": 1, "y": 2, "z": 3}):
    for modern in (True, False):
        err = tool("click", args, is_error=True, modern=modern)[0]["text"]
        if not err.startswith("invalid arguments: "):
            fail(f"click {args}: {err}")
if "'for' cannot be 'godot'" not in tool("wait", {"for": "godot"}, is_error=True)[0]["text"]:
    fail("wait for godot")
err = tool("click", {"x": 1389, "y": 0}, is_error=True)[0]["text"]
if "off the 1389x868 picture" not in err or "from = the screen's size, 1440x900" not in err:
    fail(f"off the model picture: {err}")
err = tool("click", {"x": 1440, "y": 0, "from": "1440x900"}, is_error=True)[0]["text"]
if "off the 1440x900 picture" not in err:
    fail(f"off screen: {err}")
if "unknown key name" not in tool("key", {"keys": ["ctrl+nosuchkey"]}, is_error=True)[0]["text"]:
    fail("unknown key")
if "control character" not in tool("type", {"text": "a\u0007"}, is_error=True)[0]["text"]:
    fail("control character")
if "reaches outside the 1389x868 picture" not in tool("screenshot", {"region": [1300, 0, 100, 10]}, is_error=True)[0]["text"]:
    fail("region outside the model picture")
if "reaches outside" not in tool("screenshot", {"region": [1400, 0, 100, 10], "from": "1440x900"}, is_error=True)[0]["text"]:
    fail("region outside")
# An oversize request is refused and skipped; the server goes on.
send(b'{"jsonrpc":"2.0","id":100,"method":"ping","params":{"pad":"' + b"x" * (2 << 20) + b'"}}')
r = recv()
if r["id"] is not None or r["error"]["code"] != -32600 or "longer than" not in r["error"]["message"]:
    fail(f"oversize: {r}")
if call("ping", modern=False) != {}:
    fail("ping after an oversize request")

# -- a human takes the desktop: every action is a tool error, nothing arrives
subprocess.run([botdesk, "take", "--reason", "2FA"], check=True, stdout=subprocess.DEVNULL)
n = len(rec_lines())
for name, args in [("click", {"x": 5, "y": 5}), ("type", {"text": "secret"}),
                   ("key", {"keys": ["Return"]}), ("screenshot", {}), ("move", {"x": 9, "y": 9}),
                   ("wait", {"for": "idle"}),
                   ("batch", {"steps": [{"tool": "click", "arguments": {"x": 5, "y": 5}}]})]:
    msg = tool(name, args, is_error=True)[0]["text"]
    if "a human holds the desktop" not in msg or "(2FA)" not in msg:
        fail(f"{name} under a human's lease: {msg}")
if text(tool("lease"))["holder"] != "human":
    fail("lease while a human holds it")
subprocess.run([botdesk, "release"], check=True, stdout=subprocess.DEVNULL)
tool("click", {"x": 2, "y": 2})
rec_wait("release 1 2 2", n)
if len(rec_lines()[n:]) > 3:
    fail(f"events reached the desktop under a human's lease: {rec_lines()[n:]}")

srv.stdin.close()
if srv.wait(timeout=10) != 0:
    fail("the server did not end cleanly at the end of its input")
print("ok: mcp client")
