"""A minimal protocol adapter in Python (conformance/PROTOCOL.md): says hello,
declares core, and answers every request with `skipped`. It shows the
protocol is language-agnostic and that skipped required cases block a level."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "hello":
        out = {"type": "hello", "protocol": 1, "name": "skip-all (python)", "version": "0.0.1", "level": "core",
               "limits": {"MAX_LIMIT": 1000}}
    else:
        out = {"id": msg["id"], "status": "skipped", "reason": "not implemented"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
