"""A correct engine with another canonical layout: our own adapter (the
command in argv[1:]), except that every canonical text (parse `canonical`,
serialize `text`) is laid out differently — on one line where that is safe,
otherwise with surrounding blank lines. The tree is the same (§15.3: "whitespace
may differ"), so it must certify what our toolchain certifies; only the ruling
score for our layout (docs/spec-decisions-conformance.md C14) shows it."""

import sys

from wrapper import result, run


def relay(text):
    if '"' not in text and "{" not in text and "--" not in text:
        return " ".join(text.split())
    return "\n" + text + "\n"


def on_answer(msg, answer):
    r = result(answer)
    if r:
        for key in ("canonical", "text"):
            if isinstance(r.get(key), str):
                r[key] = relay(r[key])
    return answer


run(sys.argv[1:], on_answer)
