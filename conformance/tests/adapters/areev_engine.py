"""An adapter for Areev (`areev` on PyPI: a Rust CAL engine with a Python package), an engine we
did not write, run as part of how we judge the suite (docs/conformance.md "An outside engine").
Written from PROTOCOL.md alone, on the walkthrough adapter's pattern (not named `areev.py`, which
would shadow the package).

What Areev offers through its Python package (1.13.2): `Areev(path, ns=…).cal_prepare(query)`
parses and validates a statement and raises `ValueError("CAL-Ennn: message")` when it rejects
it; `cal(query)` runs it. It has no canonical text (§15.3), no JSON form (§15), no loader for an
OMS 1.3 `.mg` file, and no OMS 1.3 codec we can reach, so this adapter answers `parse` and
skips the rest (`load_fixture` skipped: every execute case is reported skipped).

Run: `cal conformance run --adapter 'VENV/bin/python conformance/tests/adapters/areev_engine.py' --level core`
with Areev installed in VENV (`python3 -m venv VENV && VENV/bin/pip install areev`).
"""

import json
import os
import re
import sys
import tempfile
from pathlib import Path

import areev

PHASES = json.loads((Path(__file__).resolve().parents[2] / "schema" / "phases.json").read_text())["codes"]
CODE = re.compile(r"\b(CAL-[EW]\d{3})\b")
# Areev reports a few rejections with codes of its own (`VAL-E001`, `STO-E…`): the protocol
# accepts any code without spaces; the phase is then a guess (check).
OTHER = re.compile(r"\b([A-Z]{3}-[EW]\d{3})\b")

DB_DIR = tempfile.mkdtemp(prefix="areev-conformance-")
ENGINE = areev.Areev(os.path.join(DB_DIR, "conformance.db"), ns="conformance")


def diagnostic(message):
    m = CODE.search(message) or OTHER.search(message)
    code = m.group(1) if m else "AREEV-ERROR"
    return {"code": code, "severity": "error", "phase": PHASES.get(code, {}).get("phase", "check"),
            "message": message, "suggestion": ""}


def parse(msg):
    if "query_hex" in msg:
        data = bytes.fromhex(msg["query_hex"])
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            # The package takes `str`: bytes that are not UTF-8 cannot reach the engine at all.
            return {"status": "skipped", "reason": "Areev's Python API takes text, not raw bytes"}
    else:
        text = msg["query"]
    try:
        ENGINE.cal_prepare(text)
    except ValueError as e:
        return {"status": "ok", "result": {"accept": False, "diagnostics": [diagnostic(str(e))]}}
    except Exception as e:  # noqa: BLE001 - any other refusal of the engine is still an answer
        return {"status": "ok", "result": {"accept": False, "diagnostics": [diagnostic(f"{type(e).__name__}: {e}")]}}
    return {"status": "ok", "result": {"accept": True, "diagnostics": []}}


def answer(msg):
    kind = msg.get("type")
    if kind == "hello":
        return {"type": "hello", "protocol": 1, "name": "areev (python package)",
                "version": getattr(areev, "__version__", "1.13.2"), "level": "core", "limits": {"MAX_LIMIT": 1000}}
    if kind == "parse":
        return {"id": msg["id"], **parse(msg)}
    return {"id": msg.get("id"), "status": "skipped", "reason": f"{kind}: not reachable through Areev's Python package"}


for line in sys.stdin:
    sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
    sys.stdout.flush()
