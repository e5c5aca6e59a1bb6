"""An adapter whose fixtures load the first time and not all of them again after a restart
(conformance/tests/protocol.rs): `python3 reload_fails.py STATE_DIR`. The first process
loads every fixture; a later one (STATE_DIR/started exists) answers `errored` to reloading
fixture "b" and exits while reloading fixture "c", and loads "a" again. A query containing
"crash" makes it exit; anything else is answered with an empty result."""

import json
import os
import sys

state = sys.argv[1]
marker = os.path.join(state, "started")
restarted = os.path.exists(marker)
open(marker, "a").close()


def answer(out):
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        answer({"type": "hello", "protocol": 1, "name": "reload-fails (python)", "version": "0.0.1", "level": "core"})
    elif kind == "load_fixture":
        if restarted and msg["name"] == "b":
            answer({"id": msg["id"], "status": "errored", "message": "the store b is locked"})
        elif restarted and msg["name"] == "c":
            sys.exit(3)
        else:
            answer({"id": msg["id"], "status": "ok", "result": {"grains": 1}})
    elif kind == "execute":
        if "crash" in msg["query"]:
            sys.exit(1)
        answer({"id": msg["id"], "status": "ok", "result": {"response": {"results": [], "total": 0}}})
    elif kind == "parse":
        answer({"id": msg["id"], "status": "ok", "result": {"accept": True, "diagnostics": []}})
    else:
        answer({"id": msg["id"], "status": "skipped", "reason": "not implemented"})
