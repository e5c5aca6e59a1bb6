"""Streaming (§11.3, §11.5, §11.6) through real clients: SSE and NDJSON with httpx,
WebSocket with `websockets`; parity with `cal run --stream`; cancellation by DELETE, by
disconnect and by WebSocket; the stall timeout; the per-client limit; reconnection."""

import asyncio
import json
import re
import signal
import socket
import threading
import time

import httpx
import pytest
import websockets

from conftest import NAMESPACE, TIMEOUT, Server, cal, wait_for

ASSEMBLE = ('ASSEMBLE c FOR "helping alice" FROM a: (RECALL beliefs ABOUT "alice"), '
            'b: (RECALL events ABOUT "alice" RECENT 10) BUDGET 1500 tokens FORMAT markdown STREAM { all, chunk_size = 20 }')
BIG = ('ASSEMBLE big FROM a: (RECALL beliefs | LIMIT 200), b: (RECALL events | LIMIT 200) '
       'BUDGET 16000 tokens FORMAT markdown STREAM { all, chunk_size = 20 }')


def headers(token, accept):
    return {"Authorization": f"Bearer {token}", "Content-Type": "text/cal", "Accept": accept}


def sse_events(text):
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        out.append((fields.get("id"), fields.get("event"), json.loads(fields["data"])))
    return out


def without_id(e):
    e = dict(e)
    e.pop("assembly_id", None)
    return e


def cli_events(memory, token, query):
    ran = cal("run", "--stream", "--store", memory.db, "--token", token, "--key", memory.key, query)
    return [json.loads(l) for l in ran.stdout.splitlines() if l.strip()]


def test_sse_and_ndjson_carry_the_events_cal_run_streams(server, memory):
    token = memory.token(tier=0)
    sse = httpx.post(server.cal_url(), content=ASSEMBLE, headers=headers(token, "text/event-stream"), timeout=TIMEOUT)
    assert sse.status_code == 200 and sse.headers["content-type"].startswith("text/event-stream")
    events = sse_events(sse.text)
    for sid, name, data in events:
        assert sid == str(data["seq"]) and name == data["type"]
    nd = httpx.post(server.cal_url(), content=ASSEMBLE, headers=headers(token, "application/x-ndjson"), timeout=TIMEOUT)
    assert nd.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(l) for l in nd.text.splitlines()]
    cli = cli_events(memory, token, ASSEMBLE)
    # The assembly id depends on the clock of each run; everything else is the same, in order.
    assert [without_id(d) for _, _, d in events] == [without_id(e) for e in lines] == [without_id(e) for e in cli]
    assert events[0][1] == "assembly_started" and events[-1][1] == "assembly_completed"


def test_a_query_that_cannot_stream_answers_its_envelope(server, memory):
    r = httpx.post(server.cal_url(), content="RECALL beliefs | LIMIT 1",
                   headers=headers(memory.token(tier=0), "text/event-stream"), timeout=TIMEOUT)
    assert r.status_code == 200 and "results" in r.json()


def audit(memory):
    out = cal("store", "audit", memory.db).stdout
    return [json.loads(l)["entry"] for l in out.splitlines() if l.strip()]


def streamed_entries(memory):
    return [e for e in audit(memory) if e.get("stream_enabled")]


# A slow reader is simulated with a hand-written HTTP client whose receive buffer is small
# and a server whose send buffer is small (`--send-buffer`): what the client has not read
# then stays in the server's event buffer, where §11.6's limits apply, instead of in the
# kernel's socket buffers.
SLOW = ("--event-buffer", "512", "--send-buffer", "4096")


def stalled_request(addr, token, body, accept="application/x-ndjson"):
    """Sends the request and returns the socket, reading nothing."""
    host, port = addr.split(":")
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.settimeout(TIMEOUT)
    s.connect((host, int(port)))
    data = body.encode()
    head = (f"POST /memories/{NAMESPACE}/cal HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: text/cal\r\nAccept: {accept}\r\nContent-Length: {len(data)}\r\n\r\n")
    s.sendall(head.encode() + data)
    return s


def read_until(sock, needle: bytes, limit=1 << 20) -> bytes:
    got = b""
    while needle not in got and len(got) < limit:
        part = sock.recv(1024)
        if not part:
            break
        got += part
    return got


def assembly_id(data: bytes) -> str:
    m = re.search(rb'"assembly_id":"(asm_[0-9a-f]+)"', data)
    assert m, data[:500]
    return m.group(1).decode()


def test_delete_cancels_a_running_stream_and_the_audit_records_it(memory):
    s = Server(memory, *SLOW, "--stall-timeout-ms", "10000")
    try:
        conn = stalled_request(s.addr, memory.token(tier=0), BIG)
        aid = assembly_id(read_until(conn, b"assembly_started"))
        d = httpx.delete(s.cal_url(f"/stream/{aid}"), timeout=TIMEOUT)
        assert d.status_code == 202, d.text
        rest = read_until(conn, b'"type":"cancelled"')
        assert b'"type":"cancelled"' in rest
        conn.close()
        assert wait_for(lambda: any(e.get("cancelled") and "DELETE" in (e.get("cancel_reason") or "")
                                    for e in streamed_entries(memory)))
        # A stream that is not there: E081.
        gone = httpx.delete(s.cal_url("/stream/asm_00000000"), timeout=TIMEOUT)
        assert gone.status_code == 410 and gone.json()["error"]["code"] == "CAL-E081"
    finally:
        assert s.stop() == 0


def test_a_client_that_disconnects_leaves_a_cancelled_entry(memory):
    s = Server(memory, *SLOW, "--reconnect-window-ms", "300", "--stall-timeout-ms", "10000")
    try:
        conn = stalled_request(s.addr, memory.token(tier=0), BIG, accept="text/event-stream")
        read_until(conn, b"assembly_started")
        conn.close()  # hang up mid-stream
        assert wait_for(lambda: any(e.get("cancelled") and "closed" in (e.get("cancel_reason") or "")
                                    for e in streamed_entries(memory)), seconds=15)
    finally:
        assert s.stop() == 0


def test_a_stalled_reader_is_cut_after_the_stall_timeout(memory):
    s = Server(memory, *SLOW, "--stall-timeout-ms", "700")
    try:
        conn = stalled_request(s.addr, memory.token(tier=0), BIG, accept="text/event-stream")
        try:
            assert wait_for(lambda: any(e.get("cancelled") and "stall" in (e.get("cancel_reason") or "")
                                        for e in streamed_entries(memory)), seconds=15)
        finally:
            conn.close()
    finally:
        assert s.stop() == 0


def test_a_fourth_concurrent_stream_is_refused(memory):
    s = Server(memory, *SLOW, "--stall-timeout-ms", "10000")
    try:
        token = memory.token(tier=0)
        held = [stalled_request(s.addr, token, BIG) for _ in range(3)]
        try:
            for c in held:
                read_until(c, b"assembly_started")
            fourth = httpx.post(s.cal_url(), content=BIG, headers=headers(token, "application/x-ndjson"), timeout=TIMEOUT)
            assert fourth.status_code == 429, fourth.text
            assert fourth.json()["error"]["code"] == "CAL-E905"
            # Another client (another token) is not affected.
            other = httpx.post(s.cal_url(), content=ASSEMBLE, headers=headers(memory.token(tier=0), "application/x-ndjson"),
                               timeout=TIMEOUT)
            assert other.status_code == 200
        finally:
            for c in held:
                c.close()
    finally:
        assert s.stop() == 0


def test_a_reader_resumes_within_the_window_and_gets_e081_after(memory):
    s = Server(memory, "--event-buffer", "512", "--reconnect-window-ms", "1500")
    try:
        token = memory.token(tier=0)
        with httpx.stream("POST", s.cal_url(), content=BIG, headers=headers(token, "text/event-stream"), timeout=TIMEOUT) as r:
            buf = ""
            for chunk in r.iter_text():
                buf += chunk
                if "\n\n" in buf:
                    break
        first = sse_events(buf.split("\n\n")[0] + "\n\n")[0]
        aid, last = first[2]["assembly_id"], first[0]
        resumed = httpx.get(s.cal_url(f"/stream/{aid}"), headers={"Last-Event-ID": last}, timeout=TIMEOUT)
        assert resumed.status_code == 200
        events = sse_events(resumed.text)
        assert events[0][2]["seq"] == int(last) + 1, events[0]
        assert events[-1][1] in ("assembly_completed", "cancelled")
        time.sleep(2.0)
        gone = httpx.get(s.cal_url(f"/stream/{aid}"), timeout=TIMEOUT)
        assert gone.status_code == 410 and gone.json()["error"]["code"] == "CAL-E081"
    finally:
        assert s.stop() == 0


def test_websocket_assemble_pause_resume_and_cancel(server, memory):
    token = memory.token(tier=0)

    async def run():
        uri = f"ws://{server.addr}/memories/{NAMESPACE}/cal/ws"
        async with websockets.connect(uri, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=TIMEOUT) as ws:
            await ws.send(json.dumps({"action": "assemble", "request_id": "r1", "payload": {"query": ASSEMBLE}}))
            events = []
            while True:
                e = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                assert e["request_id"] == "r1"
                events.append(e)
                if e["type"] in ("assembly_completed", "cancelled", "error"):
                    break
            cli = cli_events(memory, token, ASSEMBLE)
            strip = lambda e: {k: v for k, v in e.items() if k not in ("assembly_id", "request_id")}
            assert [strip(e) for e in events] == [strip(e) for e in cli]
            # A read query answers one frame with the envelope.
            await ws.send(json.dumps({"action": "assemble", "request_id": "r2", "payload": {"query": "RECALL beliefs | LIMIT 1"}}))
            frame = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert frame["request_id"] == "r2" and "results" in frame.get("response", {}), frame
            # Garbage gets an error frame; the socket stays open.
            await ws.send("{nope")
            assert "error" in json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            await ws.send(json.dumps({"action": "cancel", "assembly_id": "asm_00000000"}))
            assert "error" in json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))

    asyncio.run(run())


def test_websocket_cancel_stops_an_assembly(memory):
    s = Server(memory, "--event-buffer", "512", "--stall-timeout-ms", "5000")
    token = memory.token(tier=0)

    async def run():
        uri = f"ws://{s.addr}/memories/{NAMESPACE}/cal/ws"
        async with websockets.connect(uri, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=TIMEOUT) as ws:
            await ws.send(json.dumps({"action": "assemble", "request_id": "big", "payload": {"query": BIG}}))
            first = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            await ws.send(json.dumps({"action": "pause", "assembly_id": first["assembly_id"]}))
            await ws.send(json.dumps({"action": "resume", "assembly_id": first["assembly_id"]}))
            await ws.send(json.dumps({"action": "cancel", "assembly_id": first["assembly_id"]}))
            last = first
            while last["type"] not in ("assembly_completed", "cancelled", "error"):
                last = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            return last

    try:
        last = asyncio.run(run())
        assert last["type"] in ("cancelled", "assembly_completed")
    finally:
        assert s.stop() == 0


def test_shutdown_cancels_open_streams_and_exits_cleanly(memory):
    s = Server(memory, *SLOW, "--stall-timeout-ms", "20000")
    conn = stalled_request(s.addr, memory.token(tier=0), BIG)
    read_until(conn, b"assembly_started")
    got = []
    t = threading.Thread(target=lambda: got.append(read_until(conn, b"0\r\n\r\n")))
    s.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    t.start()  # the client reads on once the server was told to stop
    t.join(TIMEOUT)
    conn.close()
    assert s.stop() == 0
    assert b'"type":"cancelled"' in got[0] and b"shutting down" in got[0]
