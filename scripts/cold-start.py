#!/usr/bin/env python3
"""Cold start of one-shot `cal run` (docs/performance.md, "Cold start"; issue 20).

Runs each query as a whole process, again and again, on the built-in demo memory, and prints
the median and spread of the wall time from process start to exit. Several binaries are
measured interleaved (A, B, A, B, ... in a shuffled order each round), so that the load of a
shared machine falls on all of them alike.

Usage: scripts/cold-start.py [--runs N] LABEL=PATH [LABEL=PATH ...]
e.g.   scripts/cold-start.py --runs 200 before=/tmp/cal-e615842 after=target/release/cal
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

# §8.2's ASSEMBLE, as cal_parser::spec_examples::ASSEMBLE_8_2 has it.
ASSEMBLE = """CAL/1 ASSEMBLE user_context
FOR "conversation about alice's preferences and goals"
FROM
beliefs: (RECALL beliefs ABOUT "alice" WHERE relation = "prefers" LIMIT 20),
goals: (RECALL goals ABOUT "alice" RECENT 10),
events: (RECALL events WHERE user_id = "alice" RECENT 5),
history: (RECALL beliefs ABOUT "alice"
WHERE relation = "prefers" WITH superseded
| ORDER BY time DESC | LIMIT 3)
BUDGET 2000 tokens
PRIORITY beliefs > goals > events > history
FORMAT markdown
WITH progressive_disclosure, dedup(subject)"""

QUERIES = {
    "RECALL": 'RECALL beliefs ABOUT "alice" RECENT 5',
    "RECALL AS markdown": 'RECALL beliefs ABOUT "alice" RECENT 5 AS markdown',
    "ASSEMBLE §8.2": ASSEMBLE,
}


def once(binary, query):
    """Wall and CPU (user + system) milliseconds of one whole `cal run`."""
    start = time.perf_counter()
    child = subprocess.Popen([binary, "run", query], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{binary} run failed ({child.returncode}) on: {query}")
    return elapsed * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("binaries", nargs="+", metavar="LABEL=PATH")
    args = ap.parse_args()
    binaries = [b.split("=", 1) for b in args.binaries]
    cells = [(label, path, name) for label, path in binaries for name in QUERIES]
    times = {(label, name): [] for label, _, name in cells}
    for label, path, name in cells:  # warm the page cache
        once(path, QUERIES[name])
    rng = random.Random(20)
    for _ in range(args.runs):
        rng.shuffle(cells)
        for label, path, name in cells:
            times[(label, name)].append(once(path, QUERIES[name]))
    print(f"{args.runs} runs each, interleaved; ms from process start to exit (wall) and CPU (user + system)")
    print("| query | binary | wall median | wall p10 | wall p90 | wall min | wall max | CPU median | CPU min |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in QUERIES:
        for label, _ in binaries:
            t = sorted(w for w, _ in times[(label, name)])
            cpu = sorted(c for _, c in times[(label, name)])
            q = statistics.quantiles(t, n=10, method="inclusive")
            print(
                f"| {name} | {label} | {statistics.median(t):.1f} | {q[0]:.1f} | {q[-1]:.1f} | {t[0]:.1f} | {t[-1]:.1f}"
                f" | {statistics.median(cpu):.1f} | {cpu[0]:.1f} |"
            )


if __name__ == "__main__":
    main()
