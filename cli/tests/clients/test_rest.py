"""§26 REST through httpx: the envelope, content negotiation (§15.4), prepare/execute,
statuses for every kind of refusal, bounded bodies, kill switches, and parity with
`cal run` for the same request."""

import json
import time

import httpx
import pytest

from conftest import NAMESPACE, TIMEOUT, cal, valid_response


def post(server, token, body, suffix="", memory=NAMESPACE, ctype="application/json", accept=None):
    headers = {"Content-Type": ctype}
    if accept:
        headers["Accept"] = accept
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body) if ctype == "application/json" and not isinstance(body, (str, bytes)) else body
    return httpx.post(server.cal_url(suffix, memory), content=data, headers=headers, timeout=TIMEOUT)


def test_health(server):
    r = httpx.get(server.url("/health"), timeout=TIMEOUT)
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["grains"] > 0


def test_a_query_as_json_text_or_json_form_gives_the_same_envelope(server, memory):
    token = memory.token(tier=0)
    query = 'RECALL beliefs ABOUT "alice" | LIMIT 3'
    a = post(server, token, {"query": query})
    assert a.status_code == 200, a.text
    valid_response(a.json())
    b = post(server, token, query, ctype="text/cal")
    c = post(server, token, {"query": query, "params": {}})
    for r in (b, c):
        assert r.status_code == 200
        assert r.json()["results"] == a.json()["results"]
    # application/json+cal: the JSON form itself.
    form = json.loads(cal("json", "-", input=query).stdout)
    d = post(server, token, json.dumps(form), ctype="application/json+cal")
    assert d.status_code == 200, d.text
    assert d.json()["results"] == a.json()["results"]


def test_parameters_bind(server, memory):
    token = memory.token(tier=0)
    r = post(server, token, {"query": "RECALL beliefs WHERE subject = $who | LIMIT 2", "params": {"who": "alice"}})
    assert r.status_code == 200, r.text
    assert all(e["grain"]["subject"] == "alice" for e in valid_response(r.json())["results"])


@pytest.mark.parametrize(
    "body,ctype,status,code",
    [
        ({"query": "RECALL belifs"}, "application/json", 400, "CAL-E003"),
        ({"query": "DELETE beliefs"}, "application/json", 400, None),
        ({"query": "RECALL beliefs", "extra": 1}, "application/json", 400, "CAL-E002"),
        ("{not json", "application/json", 400, "CAL-E002"),
        ("RECALL beliefs; RECALL events", "text/cal", 400, "CAL-E002"),
        ("", "text/cal", 400, "CAL-E014"),
        ("x" * 9000, "text/cal", 413, "CAL-E001"),
    ],
)
def test_bad_requests_get_their_status_and_code(server, memory, body, ctype, status, code):
    r = post(server, memory.token(tier=0), body, ctype=ctype)
    assert r.status_code == status, r.text
    err = valid_response(r.json())["error"]
    assert err["message"] and err["suggestion"]
    if code:
        assert err["code"] == code


def test_credentials_and_memories(server, memory):
    q = {"query": "RECALL beliefs | LIMIT 1"}
    assert post(server, None, q).status_code == 401
    assert post(server, "garbage", q).status_code == 401
    forged = json.loads(memory.token(tier=0))
    forged["namespace"] = "elsewhere"
    r = post(server, json.dumps(forged), q)
    assert r.status_code == 401 and r.json()["error"]["code"] == "CAL-E901"
    # A valid token addresses only its own memory.
    r = post(server, memory.token(tier=0), q, memory="elsewhere")
    assert r.status_code == 403 and r.json()["error"]["code"] == "CAL-E902"
    # Spent: one use.
    once = memory.token(tier=0, uses=1)
    assert post(server, once, q).status_code == 200
    r = post(server, once, q)
    assert r.status_code == 401 and r.json()["error"]["code"] == "CAL-E901"
    # Expired.
    short = memory.token(tier=0, ttl="1s")
    time.sleep(1.2)
    assert post(server, short, q).status_code == 401
    # An operation the token does not allow.
    only_recall = memory.token(tier=0, ops="recall")
    r = post(server, only_recall, {"query": 'HISTORY WHERE subject = "alice" AND relation = "prefers"'})
    assert r.status_code == 403 and r.json()["error"]["code"] == "CAL-E902"


def test_a_base64url_bearer_is_the_same_token(server, memory):
    import base64
    token = memory.token(tier=0)
    enc = base64.urlsafe_b64encode(token.encode()).decode().rstrip("=")
    r = post(server, enc, {"query": "RECALL beliefs | LIMIT 1"})
    assert r.status_code == 200, r.text


def test_a_large_body_is_refused_without_reading_it(server, memory):
    big = b'{"query": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    started = time.monotonic()
    try:
        r = httpx.post(server.cal_url(), content=big, timeout=TIMEOUT,
                       headers={"Content-Type": "application/json", "Authorization": f"Bearer {memory.token(tier=0)}"})
        assert r.status_code == 413
    except httpx.WriteError:
        pass  # the server answered and closed before the client finished sending: also refused
    assert time.monotonic() - started < TIMEOUT


def test_prepare_execute_and_read_back(server, memory):
    token = memory.token(tier=1)
    add = 'ADD belief SET subject = "zed" SET relation = "prefers" SET object = "rest" REASON "via REST"'
    # Direct execution of a write is refused, naming the two phases.
    r = post(server, token, {"query": add})
    assert r.status_code == 403 and "prepare" in r.json()["error"]["message"]
    p = post(server, token, {"query": add}, suffix="/prepare")
    assert p.status_code == 200, p.text
    prepared = p.json()
    assert set(prepared) == {"token", "plan", "tier", "side_effects"} and prepared["tier"] == 1
    e = httpx.post(server.cal_url("/execute"), json={"token": prepared["token"]}, timeout=TIMEOUT)
    assert e.status_code == 200, e.text
    assert valid_response(e.json())["evolve"]["new_hash"] == prepared["side_effects"]["new_hash"]
    again = httpx.post(server.cal_url("/execute"), json={"token": prepared["token"]}, timeout=TIMEOUT)
    assert again.status_code == 401
    # Prepared for this memory only.
    p2 = post(server, token, {"query": add.replace("rest", "other")}, suffix="/prepare").json()
    wrong = httpx.post(server.cal_url("/execute", memory="elsewhere"), json={"token": p2["token"]}, timeout=TIMEOUT)
    assert wrong.status_code == 403
    r = post(server, memory.token(tier=0), {"query": 'RECALL beliefs WHERE subject = "zed"'})
    assert [x["grain"]["object"] for x in r.json()["results"]] == ["rest"]
    # prepare cannot stream.
    s = post(server, token, {"query": add}, suffix="/prepare", accept="text/event-stream")
    assert s.status_code == 406 and s.json()["error"]["code"] == "CAL-E079"


def test_a_read_is_prepared_and_executed_with_its_parameters(server, memory):
    # §26: two-phase execution is RECOMMENDED for Tier 0 (ruling S17).
    token = memory.token(tier=0)
    body = {"query": "RECALL beliefs WHERE subject = $who | LIMIT 3", "params": {"who": "alice"}}
    p = post(server, token, body, suffix="/prepare")
    assert p.status_code == 200, p.text
    prepared = p.json()
    assert prepared["tier"] == 0 and prepared["side_effects"] == [] and prepared["plan"]["statement_type"] == "recall"
    direct = post(server, token, body).json()
    e = httpx.post(server.cal_url("/execute"), json={"token": prepared["token"]}, timeout=TIMEOUT)
    assert e.status_code == 200, e.text
    got = valid_response(e.json())
    assert got["results"] == direct["results"] and got["results"], got
    again = httpx.post(server.cal_url("/execute"), json={"token": prepared["token"]}, timeout=TIMEOUT)
    assert again.status_code == 401


def test_kill_switches(server, memory):
    read = {"query": "RECALL beliefs | LIMIT 1"}
    write = {"query": 'ADD belief SET subject = "k" SET relation = "r" SET object = "o" REASON "r"'}
    token = memory.token(tier=1)
    cal("store", "switch", memory.db, "tier1", "on")
    try:
        assert post(server, token, write, suffix="/prepare").status_code == 403
        assert post(server, token, read).status_code == 200
        cal("store", "switch", memory.db, "master", "on")
        r = post(server, token, read)
        assert r.status_code == 503 and r.json()["error"]["code"] == "CAL-E903"
    finally:
        cal("store", "switch", memory.db, "master", "off")
        cal("store", "switch", memory.db, "tier1", "off")
    assert post(server, token, write, suffix="/prepare").status_code == 200


QUERIES = [
    'RECALL beliefs ABOUT "alice" RECENT 5',
    'RECALL events WHERE role = "user" | COUNT',
    'ASSEMBLE ctx FOR "helping alice" FROM a: (RECALL beliefs ABOUT "alice"), b: (RECALL goals) BUDGET 800 tokens FORMAT markdown',
    'EXPLAIN RECALL beliefs ABOUT "bob"',
    "DESCRIBE capabilities",
    'HISTORY WHERE subject = "bob" AND relation = "prefers"',
    'BATCH { a: RECALL beliefs ABOUT "carol", b: EXISTS sha256:00000000 }',
    "RECALL belifs",
]


def strip_timing(v):
    if isinstance(v, dict):
        return {k: strip_timing(x) for k, x in v.items() if k != "duration_ms"}
    if isinstance(v, list):
        return [strip_timing(x) for x in v]
    return v


@pytest.mark.parametrize("query", QUERIES)
def test_rest_answers_what_cal_run_answers(server, memory, query):
    token = memory.token(tier=0)
    r = post(server, token, {"query": query})
    valid_response(r.json())
    ran = cal("run", "--store", memory.db, "--token", token, "--key", memory.key, query, check=False)
    expected = json.loads(ran.stdout) if ran.stdout.strip() else None
    if expected is None:
        # A static error: cal run prints code frames; the server answers the envelope.
        assert r.status_code == 400
        return
    got = strip_timing(r.json())
    want = strip_timing(expected)
    assert got == want
