#!/usr/bin/env bash
# botdesk mcp driven by the official MCP TypeScript SDK (npm @modelcontextprotocol/sdk, pinned by
# tests/e2e/mcp-sdk/package-lock.json) on a real desktop, as a real non-root user: the SDK's own
# Client over its stdio transport lists the tools, takes a screenshot (a 1389x868 JPEG of the
# 1440x900 screen), clicks, types and runs a batch (each checked in what reached the recording
# window), and is refused a click and a batch after `botdesk take` (tests/e2e/mcp-sdk/client.mjs).
# The SDK is installed by scripts/test into the build tree (tests/e2e/mcp-sdk/install), or here
# when it is missing; it skips only when node or, for a missing install, npm is not there.
source "$BD_SRCDIR/tests/e2e/e2e-lib.sh"
e2e_init
command -v node >/dev/null || bd_skip "no node: install nodejs and npm (scripts/deps/npm.txt; scripts/test does)"
sdk=$BD_BUILDDIR/tests/e2e/mcp-sdk
if ! cmp -s "$BD_SRCDIR/tests/e2e/mcp-sdk/package-lock.json" "$sdk/installed-lock.json" 2>/dev/null; then
    command -v npm >/dev/null || bd_skip "no npm to install the MCP SDK into $sdk: install npm (scripts/deps/npm.txt; scripts/test does)"
    "$BD_SRCDIR/tests/e2e/mcp-sdk/install" "$sdk" ||
        bd_fail "npm could not install the pinned MCP SDK into $sdk (is npm's registry reachable? scripts/test installs it before the tests)"
fi
e2e_user_a

e2e_bd "$U" "$ST" start
e2e_expect_rc 0 "start"
e2e_recorder

BOTDESK_STATE_DIR=$ST bd_as "$U" node "$BD_SRCDIR/tests/e2e/mcp-sdk/client.mjs" "$sdk" "$BOTDESK_BIN" "$REC" ||
    bd_fail "the MCP SDK's client"
grep -q '"source":"mcp","command":"click"' "$P/actions.jsonl" || bd_fail "no MCP action in the log"
e2e_bd "$U" "$ST" stop
echo "ok: mcp-sdk"
