#!/usr/bin/env bash
# The models' own vocabularies (issue 25.2, 25.3, 25.7) against a real application, as a real
# non-root user: a page in Debian's Chromium on the desktop records every mouse, key and wheel
# event it gets, and computer-client.py drives `botdesk mcp` through the `computer` tool
# (Anthropic's input as the model emits it) and `computer_actions` (OpenAI's list), checking
# what each action must produce there. The action log has the steps, never the typed text.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v chromium >/dev/null || bd_skip "no chromium: install chromium (scripts/deps/test.txt)"
e2e_user_a

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
home=$E2E_SCRATCH/home-$U
mkdir -p "$home"
bd_is_root && chown "$U:" "$home"
BOTDESK_STATE_DIR=$ST bd_as "$U" env HOME="$home" TMPDIR="$home" "$E2E_PY" \
    "$BD_SRCDIR/tests/e2e/computer-client.py" "$BOTDESK_BIN" \
    "$BD_SRCDIR/tests/e2e/computer-page.html" "$home" ||
    bd_fail "the computer client; chromium said: $(tail -5 "$home/chromium.err" 2>/dev/null)"
"$E2E_PY" - "$ST/default/actions.jsonl" <<'PY' || bd_fail "actions.jsonl: $(tail -20 "$ST/default/actions.jsonl")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
mcp = [l for l in lines if l["source"] == "mcp" and l["result"] == "ok"]
assert any(l["command"] == "click" and l.get("clicks") == 3 for l in mcp), "no triple click"
assert any(l["command"] == "click" and l.get("hold") == "shift" for l in mcp), "no shift-click"
assert any(l["command"] == "key" and l.get("hold_ms") == 1000 for l in mcp), "no hold_key"
assert any(l["command"] == "drag" and l.get("path_points") == 3 for l in mcp), "no drag path"
assert any(l["command"] == "mouse-down" for l in mcp), "no mouse-down"
assert any(l["command"] == "wait" for l in mcp), "no wait"
raw = open(sys.argv[1], encoding="utf-8").read()
assert "secret" not in raw and "Hi!" not in raw, "typed text in the log"
PY
e2e_bd "$U" "$ST" stop
echo "ok: computer"
