"""The adapter of docs/conformance.md's walkthrough: an engine with a command line,
certified on `parse` first. Our own `cal` stands in for "your engine" (the path is the
first argument); swap `engine_check` and `engine_canonical` for calls into your engine.

Protocol (conformance/PROTOCOL.md): one JSON request per line on stdin, one JSON answer
per line on stdout, in order. Requests this adapter does not implement yet are `skipped`.
"""

import json
import subprocess
import sys
from pathlib import Path

ENGINE = sys.argv[1]
# Each code's phase, as the runner expects it (generated from the code registry).
PHASES = json.loads((Path(__file__).resolve().parents[2] / "schema" / "phases.json").read_text())["codes"]


def engine_check(data):
    """Your engine's static check of the query's bytes: its diagnostics as §22.1 objects."""
    out = subprocess.run([ENGINE, "check", "--json", "-"], input=data, capture_output=True)
    return json.loads(out.stdout)["diagnostics"]


def engine_canonical(text):
    """Your engine's canonical text of an accepted query (§15.3)."""
    return subprocess.run([ENGINE, "fmt", "-"], input=text, capture_output=True, text=True).stdout


def parse(msg):
    # A query that is not valid UTF-8 comes as hex: the engine gets the raw bytes (CAL-E070).
    data = bytes.fromhex(msg["query_hex"]) if "query_hex" in msg else msg["query"].encode()
    diagnostics = []
    for d in engine_check(data):
        d = {k: d[k] for k in ("code", "severity", "message", "position", "suggestion", "example") if k in d}
        d["phase"] = PHASES.get(d["code"], {}).get("phase", "check")
        diagnostics.append(d)
    accept = not any(d["severity"] == "error" for d in diagnostics)
    result = {"accept": accept, "diagnostics": diagnostics}
    if accept:
        result["canonical"] = engine_canonical(data.decode())
    return {"status": "ok", "result": result}


def answer(msg):
    if msg.get("type") == "hello":
        return {"type": "hello", "protocol": 1, "name": "walkthrough (python)", "version": "0.1.0", "level": "core",
                "limits": {"MAX_LIMIT": 1000}}
    if msg.get("type") == "parse":
        return {"id": msg["id"], **parse(msg)}
    return {"id": msg.get("id"), "status": "skipped", "reason": f"{msg.get('type')} is not implemented yet"}


for line in sys.stdin:
    sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
    sys.stdout.flush()
