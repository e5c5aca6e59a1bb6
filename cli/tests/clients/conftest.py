"""Shared fixtures: a fresh store database with the demo memory, a server key, tokens,
and `cal serve` on a free loopback port, stopped by the fixture itself (SIGTERM).

Every server here binds 127.0.0.1 only; every request has a timeout."""

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

CAL = os.environ["CAL_BIN"]
ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "interp" / "demo" / "demo.mg"
NAMESPACE = "acme:team-alpha"
TIMEOUT = 30


def cal(*args, check=True, input=None):
    """Runs the cal binary; returns the completed process."""
    p = subprocess.run([CAL, *args], capture_output=True, text=True, timeout=120, input=input)
    if check and p.returncode != 0:
        raise AssertionError(f"cal {' '.join(args)} exited {p.returncode}: {p.stdout}{p.stderr}")
    return p


class Memory:
    """A store database, its key, and a way to issue tokens for it."""

    def __init__(self, root: Path):
        self.root = root
        self.db = str(root / "memory.db")
        self.key = str(root / "server.key")
        cal("store", "init", self.db)
        cal("store", "import", self.db, str(DEMO))
        cal("key", "new", self.key)

    def token(self, tier=1, namespace=NAMESPACE, user="alice", uses=1000, ttl="1h", quota=50, types="belief,goal,observation", ops=None):
        args = ["token", "issue", "--key", self.key, "--namespace", namespace, "--user", user,
                "--tier", str(tier), "--ttl", ttl, "--max-uses", str(uses)]
        if tier == 1:
            args += ["--types", types, "--quota", str(quota)]
        if ops:
            args += ["--ops", ops]
        return cal(*args).stdout.strip()


class Server:
    """`cal serve` on 127.0.0.1:0."""

    def __init__(self, memory: Memory, *extra: str):
        self.memory = memory
        self.log = open(memory.root / "server.log", "w")
        self.proc = subprocess.Popen(
            [CAL, "serve", "--store", memory.db, "--key", memory.key, "--addr", "127.0.0.1:0", *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://(127\.0\.0\.1:\d+)", line)
        assert m, f"no address in {line!r}"
        self.base = f"http://{m.group(1)}"
        self.addr = m.group(1)

    def url(self, path: str) -> str:
        return self.base + path

    def cal_url(self, suffix="", memory=NAMESPACE) -> str:
        return self.url(f"/memories/{memory}/cal{suffix}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            self.log.close()


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    return Memory(tmp_path_factory.mktemp("memory"))


@pytest.fixture(scope="module")
def server(memory):
    s = Server(memory, "--reconnect-window-ms", "1000", "--stall-timeout-ms", "2000")
    yield s
    assert s.stop() == 0


def schema_validator():
    import jsonschema
    schema = json.loads((ROOT / "parser" / "schema" / "cal-response.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


VALIDATOR = None


def valid_response(body):
    """Checks a response envelope against the published response schema."""
    global VALIDATOR
    if VALIDATOR is None:
        VALIDATOR = schema_validator()
    errors = sorted(VALIDATOR.iter_errors(body), key=str)
    assert not errors, f"{errors[0]}\n{json.dumps(body)[:2000]}"
    return body


def wait_for(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False
