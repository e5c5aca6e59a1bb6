"""An adapter whose answers break the protocol's schemas in different ways,
chosen by the request's id: the runner must turn each into an `errored`
case naming the problem, and never panic."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "hello":
        out = {"type": "hello", "protocol": 1, "name": "bad-messages", "version": "0", "level": "core"}
    else:
        n = msg["id"] % 4
        if n == 0:
            out = {"id": msg["id"], "status": "maybe"}
        elif n == 1:
            out = {"id": msg["id"], "status": "ok", "result": {"accept": "yes", "diagnostics": []}}
        elif n == 2:
            out = {"id": msg["id"] + 1000, "status": "ok", "result": {"accept": True, "diagnostics": []}}
        else:
            out = {"status": "ok"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
