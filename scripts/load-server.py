#!/usr/bin/env python3
"""Load benchmark of `cal serve` on loopback (issue 18; not a test: figures go to
docs/performance-server.md). N concurrent clients send M mixed queries over REST (some of
them streamed as NDJSON), then /health must show no stream left open.

Usage: scripts/load-server.py CAL_BIN [--clients 100] [--queries 10000]
Needs httpx (the venv of the client tests: target/py-clients/bin/python)."""

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
NS = "acme:team-alpha"
QUERIES = [
    ('RECALL beliefs ABOUT "alice" | LIMIT 5', "application/json"),
    ('RECALL events WHERE role = "user" RECENT 10', "application/json"),
    ('RECALL beliefs WHERE confidence >= 0.8 | COUNT', "application/json"),
    ('EXPLAIN RECALL goals ABOUT "erin"', "application/json"),
    ('HISTORY WHERE subject = "bob" AND relation = "prefers"', "application/json"),
    ('ASSEMBLE c FOR "helping alice" FROM a: (RECALL beliefs ABOUT "alice"), b: (RECALL goals) BUDGET 800 tokens FORMAT markdown', "application/json"),
    ('ASSEMBLE s FROM a: (RECALL beliefs ABOUT "bob") FORMAT sml STREAM', "application/x-ndjson"),
    ("DESCRIBE capabilities", "application/json"),
]


def cal(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cal")
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--queries", type=int, default=10000)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    db, key = str(tmp / "m.db"), str(tmp / "k.key")
    cal(a.cal, "store", "init", db)
    cal(a.cal, "store", "import", db, str(ROOT / "interp/demo/demo.mg"))
    cal(a.cal, "key", "new", key)
    tokens = [cal(a.cal, "token", "issue", "--key", key, "--namespace", NS, "--user", f"user{i}", "--tier", "0",
                  "--ttl", "2h", "--max-uses", str(a.queries)).strip() for i in range(a.clients)]
    server = subprocess.Popen([a.cal, "serve", "--store", db, "--key", key, "--addr", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = "http://" + re.search(r"http://(\S+?) ", server.stdout.readline()).group(1)
    latencies, errors = [], []
    per_client = a.queries // a.clients
    limits = httpx.Limits(max_connections=a.clients, max_keepalive_connections=a.clients)

    async def client(i, http):
        for n in range(per_client):
            q, accept = QUERIES[(i + n) % len(QUERIES)]
            t0 = time.perf_counter()
            r = await http.post(f"{base}/memories/{NS}/cal", content=q,
                                headers={"Authorization": f"Bearer {tokens[i]}", "Content-Type": "text/cal", "Accept": accept})
            body = r.content
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors.append((r.status_code, body[:200]))

    started = time.perf_counter()
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(client(i, http) for i in range(a.clients)))
    wall = time.perf_counter() - started
    health = httpx.get(f"{base}/health").json()
    server.terminate()
    server.wait(30)
    lat = sorted(latencies)
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
    print(json.dumps({
        "clients": a.clients, "requests": len(lat), "errors": len(errors), "wall_s": round(wall, 2),
        "throughput_rps": round(len(lat) / wall, 1), "p50_ms": round(q(0.50), 2), "p99_ms": round(q(0.99), 2),
        "max_ms": round(lat[-1] * 1000, 2), "streams_open_after": health["streams"],
    }))
    if errors:
        print("first errors:", errors[:3], file=sys.stderr)
    return 1 if errors or health["streams"] else 0


sys.exit(asyncio.run(main()))
