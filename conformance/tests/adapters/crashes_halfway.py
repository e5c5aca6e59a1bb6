"""A deliberately broken engine: our own adapter (the command after the first
two arguments), except that after answering N requests (argv[1]) it exits, and
from then on it exits as soon as it starts (argv[2] is a marker file it leaves
behind). The runner must restart it, give up after a few failed starts, report
every later case as errored, and end — no hang, no certification."""

import os
import sys

from wrapper import run

limit, marker, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if os.path.exists(marker):
    sys.exit(3)
answered = 0


def on_answer(msg, answer):
    global answered
    answered += 1
    if answered > limit:
        open(marker, "w").close()
        os._exit(3)
    return answer


run(command, on_answer)
