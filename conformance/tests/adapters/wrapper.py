"""What every deliberately broken adapter here shares: it runs our own adapter
(the command given after its own arguments) and passes each request through,
changing one thing on the way in or out. Each script breaks exactly one
behaviour, so the suite must refuse it at the level that behaviour belongs to
(cli/tests/conformance.rs)."""

import json
import subprocess
import sys


def run(command, on_answer, on_request=None):
    """Serves stdin/stdout through `command`. `on_request(msg)` may change the request
    before it is passed on, or return an answer of its own (the inner adapter is then
    not asked); `on_answer(msg, answer)` returns the answer to print."""
    inner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        msg = json.loads(line)
        answer = on_request(msg) if on_request else None
        if answer is None:
            inner.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
            inner.stdin.flush()
            answer = json.loads(inner.stdout.readline())
        answer = on_answer(msg, answer)
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def result(answer):
    """The `result` object of an ok answer, or None."""
    r = answer.get("result") if answer.get("status") == "ok" else None
    return r if isinstance(r, dict) else None
