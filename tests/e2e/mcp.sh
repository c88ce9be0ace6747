#!/usr/bin/env bash
# botdesk mcp driven by a scripted client (mcp-client.py) on a real desktop, as a real non-root
# user: revision 2026-07-28 (server/discover, per-request _meta) and the legacy handshake
# (initialize) on one connection, tools/list, tools/call of every tool (what reaches the desktop is checked
# through the recording window), malformed JSON, invalid requests and params, an oversize
# request, and every action refused as a tool error while a human holds the lease.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
e2e_user_a

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
e2e_recorder

BOTDESK_STATE_DIR=$ST bd_as "$U" "$E2E_PY" "$BD_SRCDIR/tests/e2e/mcp-client.py" "$BOTDESK_BIN" "$REC" ||
    bd_fail "the MCP client"
grep -q '"source":"mcp","command":"click"' "$ST/default/actions.jsonl" || bd_fail "no MCP action in the log"
! grep -q 'secret\|Grüße' "$ST/default/actions.jsonl" || bd_fail "typed text in the action log"
e2e_bd "$U" "$ST" stop
echo "ok: mcp"
