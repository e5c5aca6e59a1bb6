"""A Core engine without the JSON wire format or a formatter: our own adapter (the
command in argv[1:]), declaring Core, answering parse without the `json` form or a
`canonical` text, and skipping every serialize request. §24 lists
application/json+cal (the dual wire format, whose way back prints the text form)
under Extended, so it must certify Core — and nothing above it (rulings C15, C26)."""

import sys

from wrapper import result, run


def on_request(msg):
    if msg.get("type") == "serialize":
        return {"id": msg["id"], "status": "skipped", "reason": "no JSON wire format (Core)"}
    return None


def on_answer(msg, answer):
    if msg.get("type") == "hello":
        answer["level"] = "core"
        answer["name"] = answer.get("name", "") + " (Core, text only)"
    r = result(answer)
    if msg.get("type") == "parse" and r:
        r.pop("json", None)
        r.pop("canonical", None)
    return answer


run(sys.argv[1:], on_answer, on_request)
