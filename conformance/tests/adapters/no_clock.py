"""An engine without an injectable clock: our own adapter (the command after
the first argument), except that it ignores the `clock` of every execute
request and uses its own "now" (a fixed date years after the cases' clocks).
With argv[1] `declare` it says so in `hello` (`"capabilities": {"clock":
false}`): the clock-dependent cases are then not applicable and it certifies
what it can show. With `silent` it does not: those cases fail."""

import sys

from wrapper import run

mode, command = sys.argv[1], sys.argv[2:]


def on_request(msg):
    if msg.get("type") == "execute":
        msg["clock"] = "2031-07-01T00:00:00Z"
    return None


def on_answer(msg, answer):
    if msg.get("type") == "hello" and mode == "declare":
        answer["capabilities"] = {"clock": False}
    return answer


run(command, on_answer, on_request)
