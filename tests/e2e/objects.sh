#!/usr/bin/env bash
# The desktop's objects for an agent (issue 26), with a real application (Debian's Chromium, in a
# window of a real desktop, as a real non-root user):
#  - clipboard set survives the command's exit and `clipboard get` reads it back byte for byte
#    (Unicode, quotes, backslashes, emoji, a tab, newlines); 1 MiB goes through INCR and back;
#    more is refused (exit 2);
#  - Chromium pastes what botdesk set exactly (ctrl+v into a textarea; the page puts what it
#    got, percent-encoded, in its title, which `windows` reads), and what Chromium copies
#    (ctrl+c) is what `clipboard get` prints;
#  - `windows --json` lists Chromium's window with its pid (the browser's own), its class, a
#    frame inside the screen and the focus; `window move`/`resize` change its frame to what was
#    asked; `window close` closes it and Chromium ends;
#  - while a human holds the lease, clipboard and windows exit 4; actions.jsonl has their lines
#    and never the clipboard's text;
#  - after stop no clipboard owner is left.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v chromium >/dev/null || bd_skip "no chromium: install chromium (scripts/deps/test.txt)"
e2e_user_a

# bd_in FILE ARGS...: botdesk with FILE on standard input.
bd_in() {
    local in=$1 out=$E2E_SCRATCH/out.$$ err=$E2E_SCRATCH/err.$$
    shift
    RC=0
    BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" "$@" <"$in" >"$out" 2>"$err" || RC=$?
    OUT=$(<"$out")
    ERR=$(<"$err")
}
py() { "$E2E_PY" -c "$@"; }

bd start --json
e2e_expect_rc 0 "start"

# -- the clipboard alone: set, the command gone, get
TEXT=$OUTD/text
printf 'plain ascii, "double" and '\''single'\'' quotes, back\\slash \\n not a newline\n\tü € 漢字 😀👍🏽\nlast line without newline' >"$TEXT"
chmod 0644 "$TEXT"
bd_in "$TEXT" clipboard set --json
e2e_expect_rc 0 "clipboard set from stdin"
[ "$(e2e_json bytes)" = "$(stat -c %s "$TEXT")" ] || bd_fail "clipboard set --json: $OUT"
GOT=$OUTD/got
BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" clipboard get >"$GOT" || bd_fail "clipboard get failed"
cmp "$TEXT" "$GOT" || bd_fail "clipboard get is not what was set: $(od -c "$GOT" | head)"
bd clipboard get --json
e2e_expect_rc 0 "clipboard get --json"
py 'import json,sys; t=open(sys.argv[2],encoding="utf-8").read(); j=json.loads(sys.argv[1]); sys.exit(0 if j["text"]==t and j["owned"] else 1)' "$OUT" "$TEXT" ||
    bd_fail "clipboard get --json differs: $OUT"
OWNER=$(pgrep -u "$U" -f -- '--clipboard-owner' | head -1)
[ -n "$OWNER" ] || bd_fail "no clipboard owner process after set"
# In the desktop's cgroup (its own, when it has one: the desktop's limit covers the owner).
LAUNCHER=$(cut -d' ' -f1 "$P/launcher.pid")
[ "$(cat "/proc/$OWNER/cgroup")" = "$(cat "/proc/$LAUNCHER/cgroup")" ] ||
    bd_fail "the clipboard owner is in $(cat "/proc/$OWNER/cgroup"), the desktop in $(cat "/proc/$LAUNCHER/cgroup")"

# A second set replaces the first, whose owner ends (it lost the selection).
bd clipboard set "second"
e2e_expect_rc 0 "clipboard set TEXT"
bd clipboard get
[ "$OUT" = second ] || bd_fail "clipboard get after a second set: '$OUT'"
bd_wait_gone "$OWNER" 10 || bd_fail "the first owner $OWNER did not end when replaced"

# PRIMARY is another selection.
bd clipboard set --primary "sel"
bd clipboard get --primary
[ "$OUT" = sel ] || bd_fail "clipboard get --primary: '$OUT'"
bd clipboard get
[ "$OUT" = second ] || bd_fail "CLIPBOARD changed by a --primary set: '$OUT'"

# 1 MiB exactly: by INCR (pieces of 256 KiB) both ways; one byte more is refused.
BIG=$OUTD/big
py 'import sys; s=("0123456789abcdef€"*70000).encode(); sys.stdout.buffer.write(s[:1048576-3]+"é".encode()+b"!")' >"$BIG"
chmod 0644 "$BIG"
[ "$(stat -c %s "$BIG")" = 1048576 ] || bd_fail "the big text is $(stat -c %s "$BIG") bytes"
bd_in "$BIG" clipboard set
e2e_expect_rc 0 "clipboard set of 1 MiB"
BOTDESK_STATE_DIR=$ST bd_as "$U" "$BOTDESK_BIN" clipboard get >"$GOT" || bd_fail "clipboard get of 1 MiB failed"
cmp "$BIG" "$GOT" || bd_fail "1 MiB came back different"
printf x >>"$BIG"
bd_in "$BIG" clipboard set
e2e_expect_rc 2 "clipboard set of 1 MiB + 1"
printf '\xff\xfe' >"$OUTD/bad"
chmod 0644 "$OUTD/bad"
bd_in "$OUTD/bad" clipboard set
e2e_expect_rc 2 "clipboard set of bytes that are not UTF-8"

# -- Chromium on the desktop: a page with a textarea that shows what it holds in its title.
PAGE=$OUTD/page.html
cat >"$PAGE" <<'EOF'
<!doctype html><meta charset=utf-8>
<style>html, body { margin: 0 } textarea { box-sizing: border-box; width: 100vw; height: 100vh }</style>
<textarea id=t autofocus></textarea><script>
const t = document.getElementById('t');
t.value = decodeURIComponent(location.hash.slice(1));
const show = () => { document.title = 'v:' + encodeURIComponent(t.value); };
t.addEventListener('input', show);
t.focus();
t.select();
document.title = 'ready';
</script>
EOF
chmod 0644 "$PAGE"
COPY_SRC='copied by "Chromium" \ ü 😀'
ENC=$(py 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$COPY_SRC")
e2e_chromium_app "file://$PAGE#$ENC"

# win_wait PYEXPR: waits (bounded) until a window w of `windows --json` satisfies PYEXPR; sets
# WIN to its id. No event reaches the test from the window manager: the list is read again.
win_wait() {
    local expr=$1 deadline=$((SECONDS + 60))
    WIN=
    while ((SECONDS < deadline)); do
        bd windows --json
        e2e_expect_rc 0 "windows --json"
        WIN=$(py 'import json,sys
for w in json.loads(sys.argv[1])["windows"]:
    if eval(sys.argv[2]):
        print(w["id"]); break' "$OUT" "$expr")
        [ -n "$WIN" ] && return 0
        sleep 0.2
    done
    bd_fail "no window with $expr: $OUT; chromium: $(tail -5 "$OUTD/chromium.out")"
}
win_wait 'w["title"].startswith("ready")'
LIST=$OUT

# Its pid is Chromium's (the browser process, a chromium of the test user), its frame lies on
# the screen, and a new window has the focus.
py 'import json,sys,os
j=json.loads(sys.argv[1]); w=[w for w in j["windows"] if w["id"]==sys.argv[2]][0]
sw,sh=map(int,j["screen"].split("x"))
assert w["pid"] and "chromium" in open("/proc/%d/comm"%w["pid"]).read(), w
assert w["class"].lower().startswith("chromium"), w
assert 0<=w["x"] and 0<=w["y"] and w["x"]+w["width"]<=sw and w["y"]+w["height"]<=sh, w
assert w["width"]>=400 and w["height"]>=300, w' "$LIST" "$WIN" || bd_fail "Chromium's window: $LIST"
bd windows
grep -q "^$WIN " <<<"$OUT" || bd_fail "windows (text) has no line for $WIN: $OUT"

bd window focus "$WIN" --json
e2e_expect_rc 0 "window focus"
bd windows --json
py 'import json,sys; j=json.loads(sys.argv[1]); assert [w for w in j["windows"] if w["focused"]][0]["id"]==sys.argv[2]' "$OUT" "$WIN" ||
    bd_fail "window focus: $WIN is not the focused one: $OUT"

# A click names the window it landed on: Chromium's, by its id and title (the textarea fills the
# page: the click keeps it focused).
CLICK_AT=$(py 'import json,sys; w=[w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]][0]; print(w["x"]+w["width"]//2, w["y"]+w["height"]//2)' "$OUT" "$WIN")
# shellcheck disable=SC2086
bd click $CLICK_AT --json
e2e_expect_rc 0 "click on Chromium's window"
py 'import json,sys; w=json.loads(sys.argv[1])["window"]; assert w["id"]==sys.argv[2] and w["title"]=="ready", w' "$OUT" "$WIN" ||
    bd_fail "click --json does not name Chromium's window: $OUT"
bd key ctrl+a
e2e_expect_rc 0 "select the textarea again"

# Copy in Chromium: the textarea's text is selected; ctrl+c; botdesk reads it.
bd key ctrl+a ctrl+c
e2e_expect_rc 0 "ctrl+a ctrl+c in Chromium"
deadline=$((SECONDS + 15))
until bd clipboard get && [ "$OUT" = "$COPY_SRC" ]; do
    ((SECONDS < deadline)) || bd_fail "clipboard get after Chromium's copy: '$OUT' ($ERR)"
    sleep 0.2
done

# Paste in Chromium what botdesk set: the title shows the textarea's value, percent-encoded.
bd_in "$TEXT" clipboard set
e2e_expect_rc 0 "clipboard set for Chromium"
bd key ctrl+a ctrl+v
e2e_expect_rc 0 "ctrl+a ctrl+v in Chromium"
pasted() {
    py 'import json,sys,urllib.parse
w=[w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]][0]
t=w["title"]
sys.exit(0 if t.startswith("v:") and urllib.parse.unquote(t[2:])==open(sys.argv[3],encoding="utf-8").read() else 1)' "$OUT" "$WIN" "$TEXT"
}
deadline=$((SECONDS + 15))
until bd windows --json && pasted; do
    ((SECONDS < deadline)) || bd_fail "Chromium pasted something else: $OUT"
    sleep 0.2
done

# Move and resize: the frame goes where it was asked.
bd window move "$WIN" 40 30 --json
e2e_expect_rc 0 "window move"
[ "$(e2e_json x),$(e2e_json y)" = "40,30" ] || bd_fail "window move: $OUT"
bd window resize "$WIN" 700 500 --json
e2e_expect_rc 0 "window resize"
[ "$(e2e_json width)x$(e2e_json height)" = "700x500" ] || bd_fail "window resize: $OUT"
bd windows --json
py 'import json,sys; w=[w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]][0]; assert (w["x"],w["y"],w["width"],w["height"])==(40,30,700,500), w' "$OUT" "$WIN" ||
    bd_fail "windows after move and resize: $OUT"

bd window focus 0x1 
e2e_expect_rc 2 "window focus of no window"
bd window frob "$WIN"
e2e_expect_rc 2 "window frob"

# -- refused while a human holds the desktop
bd take
e2e_expect_rc 0 "take"
for args in "clipboard get" "clipboard set x" "windows" "window focus $WIN"; do
    # shellcheck disable=SC2086
    bd $args
    e2e_expect_rc 4 "$args while a human holds the desktop"
done
bd release
e2e_expect_rc 0 "release"

# Close: politely, as the title bar's button; Chromium ends.
CPID=$(py 'import json,sys; print([w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]][0]["pid"])' "$LIST" "$WIN")
bd window close "$WIN"
e2e_expect_rc 0 "window close"
deadline=$((SECONDS + 30))
while bd windows && grep -q "^$WIN " <<<"$OUT"; do
    ((SECONDS < deadline)) || bd_fail "window close: $WIN is still there: $OUT"
    sleep 0.2
done
bd_wait_gone "$CPID" 30 || bd_fail "Chromium ($CPID) did not end after its window was closed"

# -- launch and open: each returns the id of the new window
bd launch xfce4-terminal --json
e2e_expect_rc 0 "launch xfce4-terminal"
TERMWIN=$(e2e_json id)
bd windows --json
py 'import json,sys; w=[w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]]; assert w and w[0]["class"]=="Xfce4-terminal", w' "$OUT" "$TERMWIN" ||
    bd_fail "launch: $TERMWIN is no terminal window: $OUT"
bd window close "$TERMWIN"
e2e_expect_rc 0 "window close of the terminal"
bd launch no-such-application
e2e_expect_rc 2 "launch of no application"
bd launch ../etc/passwd
e2e_expect_rc 2 "launch of a path"
# A file URL in the browser setting's program (Chromium): the page's window, titled by it.
BOTDESK_BROWSER=chromium bd open "file://$PAGE"
e2e_expect_rc 0 "open a file URL: $ERR"
OPENWIN=$OUT
[[ "$OPENWIN" =~ ^0x[0-9a-f]+$ ]] || bd_fail "open printed no window id: $OUT"
win_wait "w['id']=='$OPENWIN' and w['class'].lower().startswith('chromium')"
OPID=$(py 'import json,sys; print([w for w in json.loads(sys.argv[1])["windows"] if w["id"]==sys.argv[2]][0]["pid"])' "$OUT" "$OPENWIN")
bd window close "$OPENWIN"
bd_wait_gone "$OPID" 30 || bd_fail "the opened Chromium ($OPID) did not end after its window was closed"

# -- the log: a line per clipboard and window action, never the text
grep -q '"command":"clipboard","verb":"set"' "$P/actions.jsonl" || bd_fail "no clipboard set line: $(tail "$P/actions.jsonl")"
grep -q '"command":"window","verb":"close"' "$P/actions.jsonl" || bd_fail "no window close line"
grep -q '"command":"launch","name":"xfce4-terminal","id":"'"$TERMWIN"'"' "$P/actions.jsonl" || bd_fail "no launch line"
grep -q '"command":"open","id":' "$P/actions.jsonl" || bd_fail "no open line"
if grep -q 'page.html' "$P/actions.jsonl"; then
    bd_fail "actions.jsonl holds the URL opened"
fi
if grep -q 'second\|漢字\|0123456789abcdef' "$P/actions.jsonl"; then
    bd_fail "actions.jsonl holds the clipboard's text"
fi

# -- ask: a request beside the lease, which lease shows and a take answers
bd lease --json
[ "$(e2e_json requested)" = null ] || bd_fail "a request before any ask: $OUT"
bd ask --reason "a CAPTCHA on the login page" --json
e2e_expect_rc 0 "ask"
py 'import json,sys; j=json.loads(sys.argv[1]); r=j["requested"]; assert j["holder"]=="agent" and r["reason"]=="a CAPTCHA on the login page" and r["since"]>0, j' "$OUT" ||
    bd_fail "ask --json: $OUT"
# The lease itself is untouched (its four lines: older readers, the gate among them, read it as
# the agent's), so the agent may still act.
[ "$(wc -l <"$P/lease" 2>/dev/null || echo 0)" -le 4 ] || bd_fail "ask changed the lease file: $(cat "$P/lease")"
bd cursor
e2e_expect_rc 0 "an action after ask"
bd ask --reason "second reason"
bd lease --json
[ "$(py 'import json,sys; print(json.loads(sys.argv[1])["requested"]["reason"])' "$OUT")" = "second reason" ] ||
    bd_fail "a new ask does not replace the request: $OUT"
bd lease
grep -q '^requested: a human, since .*(second reason)$' <<<"$OUT" || bd_fail "lease (text) has no request: $OUT"
bd take --json
e2e_expect_rc 0 "take after ask"
[ "$(e2e_json requested)" = null ] || bd_fail "take did not answer the request: $OUT"
# Asking while a human holds the desktop is allowed (it is no action on it); release ends it.
bd ask
e2e_expect_rc 0 "ask while a human holds the desktop"
bd lease --json
[ "$(e2e_json requested)" != null ] || bd_fail "ask while human: $OUT"
bd release --json
e2e_expect_rc 0 "release after ask"
[ "$(e2e_json requested)" = null ] || bd_fail "release did not clear the request: $OUT"
bd ask --reason "$(printf 'two\nlines')"
e2e_expect_rc 2 "ask with a reason of two lines"

# -- the MCP tools: clipboard_set, clipboard_get and windows, as an agent framework calls them
BOTDESK_STATE_DIR=$ST bd_as "$U" "$E2E_PY" - "$BOTDESK_BIN" >"$OUTD/mcp.out" 2>&1 <<'EOF' || bd_fail "MCP: $(cat "$OUTD/mcp.out")"
import json, subprocess, sys
srv = subprocess.Popen([sys.argv[1], "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def rpc(i, method, params):
    srv.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}).encode() + b"\n")
    srv.stdin.flush()
    while True:
        m = json.loads(srv.stdout.readline())
        if m.get("id") == i:
            return m["result"]
def tool(i, name, args):
    r = rpc(i, "tools/call", {"name": name, "arguments": args})
    assert not r.get("isError"), r
    return json.loads(r["content"][0]["text"])
rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": {"name": "objects", "version": "1"}})
text = 'from MCP: "q" \\ ü 😀\n\tend'
tool(2, "clipboard_set", {"text": text})
got = tool(3, "clipboard_get", {})
assert got == {"text": text, "owned": True}, got
ws = tool(4, "windows", {})
assert isinstance(ws["windows"], list) and "x" in ws["screen"], ws
l = tool(5, "ask_human", {"reason": "needs a password"})
assert l["requested"]["reason"] == "needs a password" and l["holder"] == "agent", l
assert tool(6, "lease", {})["requested"]["reason"] == "needs a password"
print("mcp ok")
EOF

# -- nothing left after stop
bd clipboard set "last"
OWNER=$(pgrep -u "$U" -f -- '--clipboard-owner' | head -1)
[ -n "$OWNER" ] || bd_fail "no clipboard owner process after the last set"
bd stop
e2e_expect_rc 0 "stop"
bd_wait_gone "$OWNER" 10 || bd_fail "the clipboard owner $OWNER outlived the desktop"
echo "ok"
