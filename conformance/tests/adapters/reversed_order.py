"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that it returns every result list in reverse order. The right grains in
the wrong order: §17.4's determinism (same query, same state, same results and
same order) is Core, so it must not certify Core."""

import sys

from wrapper import result, run


def on_answer(msg, answer):
    r = result(answer)
    response = r.get("response") if r else None
    if msg.get("type") == "execute" and isinstance(response, dict) and isinstance(response.get("results"), list):
        response["results"].reverse()
    return answer


run(sys.argv[1:], on_answer)
