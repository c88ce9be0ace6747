#!/usr/bin/env bash
# What a pointer action changed (issue 26.5), with a real application: a page in Debian's
# Chromium, in a window of a real desktop, as a real non-root user, whose left half never
# changes and whose right half is a box that turns red on mousedown.
#  - `move --changes --json` over the still half reports no region in the page (the panel's
#    clock may redraw elsewhere meanwhile);
#  - `click --changes --json` on the box reports a region that covers the point clicked, inside
#    Chromium's window;
#  - the same through `botdesk mcp` (`changes: true`), in the model picture's coordinates;
#  - without --changes no "changed" key; with --element it is refused (exit 2).
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v chromium >/dev/null || bd_skip "no chromium: install chromium (scripts/deps/test.txt)"
e2e_user_a

py() { "$E2E_PY" -c "$@"; }

bd start --json
e2e_expect_rc 0 "start"

PAGE=$OUTD/page.html
cat >"$PAGE" <<'HTML'
<!doctype html><meta charset=utf-8>
<style>html, body { margin: 0; height: 100%; cursor: default }
#still { position: fixed; left: 0; top: 0; width: 50vw; height: 100vh; background: #808080 }
#box { position: fixed; right: 0; top: 0; width: 50vw; height: 100vh; background: #ffffff }</style>
<div id=still></div><div id=box></div><script>
let n = 0;
document.getElementById('box').addEventListener('mousedown', () => {
    n++;
    document.getElementById('box').style.background = n % 2 ? '#ff0000' : '#0000ff';
    document.title = 'clicked ' + n;
});
document.title = 'ready';
</script>
HTML
chmod 0644 "$PAGE"
e2e_chromium_app "file://$PAGE"

# The window, once its page said ready (the list is read again: no event reaches the test).
deadline=$((SECONDS + 60))
WIN=
while ((SECONDS < deadline)) && [ -z "$WIN" ]; do
    bd windows --json
    WIN=$(py 'import json,sys
for w in json.loads(sys.argv[1])["windows"]:
    if w["title"].startswith("ready"):
        print(w["id"], w["x"], w["y"], w["width"], w["height"]); break' "$OUT")
    [ -n "$WIN" ] || sleep 0.2
done
[ -n "$WIN" ] || bd_fail "Chromium's page did not come up: $(tail -5 "$OUTD/chromium.out")"
read -r WID WX WY WW WH <<<"$WIN"
# Points well inside each half of the page (the frame's title bar is above the page).
SX=$((WX + WW / 4)) SY=$((WY + WH / 2))
BX=$((WX + 3 * WW / 4)) BY=$((WY + WH / 2))
# Everything settled (the window mapped, the page drawn, the focus given) before measuring.
bd move "$SX" "$SY"
bd wait-idle --quiet 1 --timeout 20
e2e_expect_rc 0 "the desktop settles"

bd move "$((SX + 20))" "$((SY + 20))" --changes --json
e2e_expect_rc 0 "move --changes"
# Nothing in the page; the rest of the screen may redraw on its own (the panel's clock).
py 'import json,sys
c=json.loads(sys.argv[1])["changed"]; wx,wy,ww,wh=map(int,sys.argv[2:6])
assert not [b for b in c if b["x"] < wx+ww and wx < b["x"]+b["width"] and b["y"] < wy+wh and wy < b["y"]+b["height"]], c' \
    "$OUT" "$WX" "$WY" "$WW" "$WH" || bd_fail "a move over a still page drew something in it: $OUT"

bd click "$BX" "$BY" --changes --json
echo "click --changes: $OUT"
e2e_expect_rc 0 "click --changes"
py 'import json,sys
r=json.loads(sys.argv[1]); x,y=int(sys.argv[2]),int(sys.argv[3]); wx,wy,ww,wh=map(int,sys.argv[4:8])
c=r["changed"]
assert 1 <= len(c) <= 8, c
assert any(b["x"] <= x < b["x"]+b["width"] and b["y"] <= y < b["y"]+b["height"] for b in c), c
assert all(wx <= b["x"] and b["x"]+b["width"] <= wx+ww and wy <= b["y"] and b["y"]+b["height"] <= wy+wh for b in c), c' \
    "$OUT" "$BX" "$BY" "$WX" "$WY" "$WW" "$WH" || bd_fail "click --changes did not report the box it turned red: $OUT (window $WIN)"

bd click "$BX" "$BY" --json
e2e_expect_rc 0 "click without --changes"
SCREEN=$(py 'import json,sys; print(json.loads(sys.argv[1])["screen"])' "$OUT")
py 'import json,sys; assert "changed" not in json.loads(sys.argv[1])' "$OUT" ||
    bd_fail "changed reported without --changes: $OUT"
bd click --element "button:Send" --changes
e2e_expect_rc 2 "click --element --changes"

# The MCP server: the same, asked with changes: true, in screen pixels (from = the screen).
bd wait-idle --quiet 0.5 --timeout 20
MCPOUT=$OUTD/mcp.out
{
    printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
    printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"click","arguments":{"x":%d,"y":%d,"from":"%s","changes":true}}}\n' "$BX" "$BY" "$SCREEN"
} | BOTDESK_STATE_DIR=$ST bd_as "$U" timeout 30 "$BOTDESK_BIN" mcp >"$MCPOUT" 2>"$OUTD/mcp.err" ||
    bd_fail "botdesk mcp failed: $(tail -3 "$OUTD/mcp.err")"
py 'import json,sys
for line in open(sys.argv[1]):
    m=json.loads(line)
    if m.get("id")==2:
        r=json.loads(m["result"]["content"][0]["text"]); x,y=int(sys.argv[2]),int(sys.argv[3])
        assert any(b["x"] <= x < b["x"]+b["width"] and b["y"] <= y < b["y"]+b["height"] for b in r["changed"]), r
        break
else:
    raise SystemExit("no answer")' "$MCPOUT" "$BX" "$BY" || bd_fail "MCP click with changes: $(cat "$MCPOUT")"

bd stop
echo "ok: a pointer action says what it changed, and only when asked"
