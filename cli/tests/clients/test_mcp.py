"""MCP through the official Python SDK (`mcp`): `cal mcp` over stdio and `/mcp` over
Streamable HTTP — list the tools, call them, read the prompt and the resources — and the
`cal` tool answering what REST answers."""

import asyncio
import json

import httpx
import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from conftest import CAL, NAMESPACE, TIMEOUT, valid_response
from test_rest import QUERIES, strip_timing


async def exercise(session, tier1):
    await session.initialize()
    names = [t.name for t in (await session.list_tools()).tools]
    base = ["cal", "cal_check", "cal_explain", "cal_describe"]
    assert names == base + (["cal_prepare", "cal_execute"] if tier1 else [])
    for t in (await session.list_tools()).tools:
        assert len(t.description) > 60, t.name  # each description teaches its use

    ok = await session.call_tool("cal", {"query": 'RECALL beliefs ABOUT "alice" | LIMIT 2'})
    assert not ok.is_error
    envelope = valid_response(json.loads(ok.content[0].text))
    assert envelope["_cal"]["statement_type"] == "recall"

    bad = await session.call_tool("cal", {"query": "RECALL belifs"})
    assert bad.is_error
    err = json.loads(bad.content[0].text)["error"]
    assert err["code"] == "CAL-E003" and err["suggestion"]

    checked = await session.call_tool("cal_check", {"query": "RECALL beliefs WHERE confidence > 2"})
    body = json.loads(checked.content[0].text)
    assert body["ok"] is False and body["diagnostics"][0]["code"].startswith("CAL-E")

    plan = await session.call_tool("cal_explain", {"query": 'RECALL beliefs ABOUT "bob"'})
    assert json.loads(plan.content[0].text)["_cal"]["statement_type"] == "explain"

    fields = await session.call_tool("cal_describe", {"target": "fields", "grain_type": "goal"})
    assert "goal_state" in fields.content[0].text

    prompt = await session.get_prompt("cal_quick_reference")
    text = prompt.messages[0].content.text
    assert "RECALL" in text and "ASSEMBLE" in text
    assert ("prepare" in text.lower()) == tier1

    resources = [str(r.uri) for r in (await session.list_resources()).resources]
    assert "cal://grammar" in resources and "cal://fields/belief" in resources
    grammar = await session.read_resource("cal://grammar")
    assert "recall" in grammar.contents[0].text.lower()

    if tier1:
        add = 'ADD belief SET subject = "mcp" SET relation = "prefers" SET object = "tools" REASON "via MCP"'
        p = await session.call_tool("cal_prepare", {"query": add})
        assert not p.is_error, p.content[0].text
        prepared = json.loads(p.content[0].text)
        done = await session.call_tool("cal_execute", {"token": prepared["token"]})
        assert not done.is_error, done.content[0].text
        assert json.loads(done.content[0].text)["evolve"]["new_hash"] == prepared["side_effects"]["new_hash"]


def test_mcp_over_stdio(memory):
    token = memory.token(tier=1)

    async def run():
        params = StdioServerParameters(command=CAL, args=["mcp", "--store", memory.db, "--key", memory.key, "--token", token])
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                await asyncio.wait_for(exercise(s, tier1=True), TIMEOUT)

    asyncio.run(run())


@pytest.mark.parametrize("tier", [0, 1])
def test_mcp_over_streamable_http(server, memory, tier):
    token = memory.token(tier=tier)

    async def run():
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT) as client:
            async with streamable_http_client(server.url("/mcp"), http_client=client) as streams:
                async with ClientSession(streams[0], streams[1]) as s:
                    await asyncio.wait_for(exercise(s, tier1=tier == 1), TIMEOUT)

    asyncio.run(run())


def test_the_cal_tool_answers_what_rest_answers(server, memory):
    token = memory.token(tier=0)

    async def run():
        out = []
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT) as client:
            async with streamable_http_client(server.url("/mcp"), http_client=client) as streams:
                async with ClientSession(streams[0], streams[1]) as s:
                    await s.initialize()
                    for q in QUERIES:
                        r = await s.call_tool("cal", {"query": q})
                        out.append(r.structured_content)
        return out

    via_mcp = asyncio.run(run())
    for q, m in zip(QUERIES, via_mcp):
        rest = httpx.post(server.cal_url(), json={"query": q}, timeout=TIMEOUT,
                          headers={"Authorization": f"Bearer {token}"}).json()
        assert strip_timing(m) == strip_timing(rest), q
