"""A deliberately broken engine: our own adapter (the command after the mode),
except that it never answers some requests. Mode `half`: requests with an
even id (every other case); mode `all`: every request after `hello`. The
runner must end such a run within its deadline or after a few timeouts in a
row, not after hours."""

import json
import subprocess
import sys
import time

mode, command = sys.argv[1], sys.argv[2:]
inner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

for line in sys.stdin:
    msg = json.loads(line)
    hang = msg.get("type") != "hello" and (mode == "all" or msg.get("id", 0) % 2 == 0)
    if hang:
        time.sleep(3600)
    inner.stdin.write(line)
    inner.stdin.flush()
    sys.stdout.write(inner.stdout.readline())
    sys.stdout.flush()
