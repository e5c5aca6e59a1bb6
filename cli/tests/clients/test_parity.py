"""Parity (issue 18): for every execute case of the conformance corpus that needs no
session, the REST response and the MCP `cal` tool's equal `cal run`'s for the same query,
store, clock and token, ignoring timing. One server per fixture and clock (`--now`)."""

import asyncio
import collections
import json
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from conftest import ROOT, TIMEOUT, Memory, Server, cal
from test_rest import strip_timing

CASES = ROOT / "conformance" / "cases" / "execute"
FIXTURES = ROOT / "conformance" / "fixtures"


def cases():
    groups = collections.defaultdict(list)
    for f in sorted(CASES.glob("*.json")):
        doc = json.loads(f.read_text())
        for c in doc["cases"] if isinstance(doc, dict) else doc:
            if c.get("kind") != "execute" or any(k in c for k in ("setup", "settings", "stream")):
                continue
            groups[(c["fixture"], c.get("clock", "2026-03-06T12:00:00Z"))].append(c)
    return sorted(groups.items())


def claims(case):
    cap = case.get("capability")
    if not cap:
        return {"namespace": "conf:main", "user_id": "conformance", "tier": 0}
    try:
        v = json.loads(cap)
    except ValueError:
        v = {"namespace": cap}
    return {"namespace": v.get("namespace", "conf:main"), "user_id": v.get("user_id", "conformance"), "tier": v.get("tier", 0)}


class FixtureMemory(Memory):
    def __init__(self, root: Path, fixture: str):
        self.root = root
        self.db = str(root / "memory.db")
        self.key = str(root / "server.key")
        cal("store", "init", self.db)
        cal("store", "import", self.db, str(FIXTURES / f"{fixture}.mg"))
        cal("key", "new", self.key)


@pytest.mark.parametrize("group", cases(), ids=lambda g: f"{g[0][0]}@{g[0][1]}")
def test_rest_and_mcp_answer_what_cal_run_answers(tmp_path, group):
    (fixture, clock), items = group
    memory = FixtureMemory(tmp_path, fixture)
    server = Server(memory, "--now", clock)
    tokens = {}

    def token(case):
        c = claims(case)
        key = (c["namespace"], c["user_id"], c["tier"])
        if key not in tokens:
            args = ["token", "issue", "--key", memory.key, "--namespace", c["namespace"], "--user", c["user_id"],
                    "--tier", str(c["tier"]), "--ttl", "1h", "--max-uses", "100000", "--now", clock]
            if c["tier"] == 1:
                args += ["--types", "belief,goal,observation", "--quota", "1000"]
            tokens[key] = cal(*args).stdout.strip()
        return tokens[key]

    async def via_mcp(items):
        """Every case of the group through MCP, one session per token."""
        out = {}
        by_token = collections.defaultdict(list)
        for case in items:
            by_token[token(case)].append(case)
        for t, group in by_token.items():
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {t}"}, timeout=TIMEOUT) as client:
                async with streamable_http_client(server.url("/mcp"), http_client=client) as streams:
                    async with ClientSession(streams[0], streams[1]) as s:
                        await s.initialize()
                        for case in group:
                            r = await s.call_tool("cal", {"query": case["query"], "params": case.get("params") or {}})
                            out[case["id"]] = r.structured_content
        return out

    mismatches = []
    rest_answers = {}
    try:
        for case in items:
            t = token(case)
            params = case.get("params") or {}
            rest = httpx.post(server.cal_url(memory=claims(case)["namespace"]), json={"query": case["query"], "params": params},
                              headers={"Authorization": f"Bearer {t}"}, timeout=TIMEOUT)
            rest_answers[case["id"]] = rest.json()
            args = ["run", "--store", memory.db, "--now", clock, "--token", t, "--key", memory.key]
            for k, v in params.items():
                args += ["--param", f"{k}={json.dumps(v)}"]
            ran = cal(*args, case["query"], check=False)
            want = strip_timing(json.loads(ran.stdout))
            if "statement_type" not in want.get("_cal", {}) and rest.status_code != 400:
                # A static error: cal run prints the refusal REST answers with status 400.
                mismatches.append((case["id"], "static error expected", rest.status_code))
            if strip_timing(rest.json()) != want:
                mismatches.append((case["id"], "REST", json.dumps(rest.json())[:300], json.dumps(want)[:300]))
        # MCP: every case again through the official client; the `cal` tool's structured
        # content is the envelope REST gave.
        for case_id, m in asyncio.run(via_mcp(items)).items():
            if strip_timing(m) != strip_timing(rest_answers[case_id]):
                mismatches.append((case_id, "MCP", json.dumps(m)[:300], json.dumps(rest_answers[case_id])[:300]))
    finally:
        assert server.stop() == 0
    assert not mismatches, "\n".join(map(str, mismatches[:10]))
