"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that every rejected query reports every CAL-E code, in code order,
before its real diagnostics. A suite that passes a negative case when its
code appears anywhere in the list would certify it; ours must not."""

import json
import subprocess
import sys

inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
SPRAY = [
    {"code": f"CAL-E{n:03d}", "phase": "parse", "message": "sprayed", "severity": "error"} for n in range(1, 100)
]

for line in sys.stdin:
    inner.stdin.write(line)
    inner.stdin.flush()
    answer = json.loads(inner.stdout.readline())
    result = answer.get("result")
    if isinstance(result, dict) and result.get("accept") is False:
        result["diagnostics"] = SPRAY + result.get("diagnostics", [])
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
