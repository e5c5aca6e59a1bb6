"""A deliberately broken engine: our own adapter (the command in argv[1:]),
except that a query using one of the §2.4 excluded words (FORGET, PURGE,
DROP, …) is accepted as if CAL had them. The suite must certify it at no level."""

import json
import re
import subprocess
import sys

EXCLUDED = {
    "DELETE", "DROP", "FORGET", "ERASE", "DESTROY", "PURGE", "TRUNCATE", "INSERT", "CREATE", "WRITE",
    "STORE", "KEY", "ENCRYPT", "DECRYPT", "ROTATE", "MASTER", "DEK", "SECRET", "POLICY", "SEAL", "UNSEAL",
    "GRANT", "REVOKE", "CONSENT", "RESTRICT", "SCHEMA", "PARTITION", "INDEX", "MIGRATION",
}
inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

for line in sys.stdin:
    msg = json.loads(line)
    inner.stdin.write(line)
    inner.stdin.flush()
    answer = json.loads(inner.stdout.readline())
    words = set(re.findall(r"[A-Za-z_]+", msg.get("query", "") if isinstance(msg.get("query"), str) else ""))
    if msg.get("type") == "parse" and any(w.upper() in EXCLUDED for w in words) and isinstance(answer.get("result"), dict):
        answer["result"] = {"accept": True, "diagnostics": []}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
