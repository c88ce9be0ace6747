#!/usr/bin/env python3
"""For e2e-take-midway: mcp-take.py BOTDESK RECORDER_FILE N. Asks `BOTDESK mcp` to type N
letters 'a', runs `BOTDESK take` once the recorder has seen 30 of them arrive, and prints the
tool's result (JSON, one line) when it comes. Exits non-zero when something else happens."""
import json
import os
import subprocess
import sys
import time

botdesk, rec, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = os.path.getsize(rec)
srv = subprocess.Popen([botdesk, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "e2e", "version": "1"}}
req = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
       "params": {"name": "type", "arguments": {"text": "a" * n}, "_meta": meta}}
srv.stdin.write(json.dumps(req).encode() + b"\n")
srv.stdin.flush()
# The recorder's file grows with every key: polled, bounded (no event crosses the two).
deadline = time.monotonic() + 30
while True:
    with open(rec, "rb") as f:
        f.seek(start)
        seen = sum(1 for line in f if line.startswith(b"key 0x41 "))
    if seen >= 30:
        break
    if time.monotonic() > deadline or srv.poll() is not None:
        sys.exit(f"FAIL: only {seen} keys arrived before the take")
    time.sleep(0.02)
subprocess.run([botdesk, "take", "--reason", "mid-way"], check=True, stdout=subprocess.DEVNULL)
line = srv.stdout.readline()
srv.stdin.close()
srv.wait(timeout=10)
if not line:
    sys.exit("FAIL: the server closed its output")
print(json.dumps(json.loads(line)["result"]))
