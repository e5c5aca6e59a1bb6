#!/usr/bin/env python3
"""Edit-to-diagnostics latency of `cal lsp` (docs/performance-lsp.md; issue 20).

Starts `cal lsp` as an editor does (JSON-RPC over standard input/output), opens the
2,000-line document of `lsp/benches/lsp.rs`, then changes one character in its middle again
and again, each time timing from writing `didChange` to reading the `publishDiagnostics` of
that version. Prints the median and spread.

Usage: scripts/lsp-latency.py [--edits N] CAL [cal lsp flags...]
e.g.   scripts/lsp-latency.py target/release/cal
       scripts/lsp-latency.py target/release/cal --immediate-below-ms 0   # always debounce
"""

import argparse
import json
import statistics
import subprocess
import time


def big_document():
    """The benchmark's document: 400 five-line queries, 2,000 lines."""
    out = []
    for i in range(400):
        k = i % 4
        if k == 0:
            out.append(
                f'-- query {i}\nRECALL beliefs\n  WHERE subject = "user-{i}" AND relation IS PREFERENCE\n'
                "  WITH diversity(mmr, lambda = 0.5)\n  | ORDER BY confidence DESC | LIMIT 10;\n"
            )
        elif k == 1:
            out.append(
                'LET $recent = RECALL events WHERE time = "last 7 days" | SUBJECTS;\nRECALL goals\n'
                '  WHERE goal_state = "active"\n  AND subject IN ($recent)\n  AS markdown;\n'
            )
        elif k == 2:
            out.append(
                f'ASSEMBLE ctx_{i} FOR "planning"\n  FROM facts: (RECALL beliefs ABOUT "alice"), todo: (RECALL goals)\n'
                "  BUDGET 2000 tokens\n  PRIORITY todo > facts\n  FORMAT readable;\n"
            )
        else:
            out.append(
                f'RECALL actions\n  WHERE action_phase = "call"\n  AND tool_name = "search-{i}"\n'
                "  AND confidence >= 0.7\n  | LIMIT 5;\n"
            )
    return "".join(out)


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = 0
        while True:
            line = self.p.stdout.readline().strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def diagnostics_of(self, version):
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
                return m


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument("cal")
    ap.add_argument("flags", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    s = Server([args.cal, "lsp", *args.flags])
    s.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    s.recv()
    s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    uri = "file:///bench.cal"
    doc = big_document()
    assert doc.count("\n") == 2000
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "cal", "version": 1, "text": doc}}})
    s.diagnostics_of(1)
    times = []
    for version in range(2, args.edits + 2):
        change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": 1001, "character": 22}, "end": {"line": 1001, "character": 23}},
             "text": "x" if version % 2 else "y"}]}
        start = time.perf_counter()
        s.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change})
        s.diagnostics_of(version)
        times.append((time.perf_counter() - start) * 1000)
    s.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    s.send({"jsonrpc": "2.0", "method": "exit", "params": None})
    s.p.wait(timeout=10)
    t = sorted(times)
    q = statistics.quantiles(t, n=10, method="inclusive")
    print(f"{len(t)} edits, ms from didChange to its publishDiagnostics: median {statistics.median(t):.1f}, "
          f"p10 {q[0]:.1f}, p90 {q[-1]:.1f}, min {t[0]:.1f}, max {t[-1]:.1f}")


if __name__ == "__main__":
    main()
