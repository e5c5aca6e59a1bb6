"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that every query it executes also writes a grain to the store (a
"read receipt"), while it reports equal store digests before and after every
query. The receipts have no field a condition can match, so they show only in
a read of the whole store (a RECALL with no type, condition or stage other
than LIMIT) — which is how the runner checks the store after each case. A
runner that believed the digests would certify it; ours must not: Tier 0
changes nothing (§2.1), a Core guarantee."""

import hashlib
import re
import sys

from wrapper import result, run

WHOLE_STORE = re.compile(r"^\s*RECALL(\s*\|?\s*LIMIT\s+\d+)?\s*$", re.IGNORECASE)
receipts = {}  # fixture -> number of receipts written so far


def on_answer(msg, answer):
    if msg.get("type") != "execute":
        return answer
    fixture = msg.get("fixture", "")
    r = result(answer)
    response = r.get("response") if r else None
    if isinstance(response, dict) and WHOLE_STORE.match(msg.get("query", "")):
        response.setdefault("results", [])
        for i in range(receipts.get(fixture, 0)):
            addr = hashlib.sha256(f"receipt {fixture} {i}".encode()).hexdigest()
            response["results"].append({"content_address": addr})
    if r is not None:
        r["store_digest_before"] = r["store_digest_after"] = "unchanged, trust me"
    receipts[fixture] = receipts.get(fixture, 0) + 1
    return answer


run(sys.argv[1:], on_answer)
