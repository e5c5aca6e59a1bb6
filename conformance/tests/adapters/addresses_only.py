"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that an executed query answers with the grains' addresses and the
counts only — no formatted text, no PROJECT, no EXPLAIN plan, no DESCRIBE
content. Rendered output is Extended and Full (§24: AS, EXPLAIN, DESCRIBE,
ASSEMBLE FORMAT; PROJECT), so it certifies Core and fails both above."""

import sys

from wrapper import result, run

KEEP = {"_cal", "error", "total", "next_cursor", "exists", "count"}


def bare(response):
    out = {k: v for k, v in response.items() if k in KEEP}
    results = response.get("results")
    if isinstance(results, list):
        out["results"] = [{"content_address": r["content_address"]} for r in results
                          if isinstance(r, dict) and "content_address" in r]
    elif isinstance(results, dict):  # BATCH: one response per slot
        out["results"] = {k: bare(v) if isinstance(v, dict) else v for k, v in results.items()}
    return out


def on_answer(msg, answer):
    r = result(answer)
    if msg.get("type") == "execute" and r and isinstance(r.get("response"), dict):
        r["response"] = bare(r["response"])
    return answer


run(sys.argv[1:], on_answer)
