"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that every diagnostic points one character too far (start, end and
column shifted by one). The right code, the wrong position: position is a
SHOULD of §22.1, so it may certify, but its SHOULD score must show it."""

import sys

from wrapper import result, run


def on_answer(msg, answer):
    r = result(answer)
    if msg.get("type") == "parse" and r:
        for d in r.get("diagnostics", []):
            p = d.get("position")
            if isinstance(p, dict):
                for k in ("start", "end", "col"):
                    if isinstance(p.get(k), int):
                        p[k] += 1
    return answer


run(sys.argv[1:], on_answer)
