"""Helpers for authoring the parse and wire conformance cases.

Each area module (areas/*.py) lists deliberately chosen queries with the
behaviour the spec calls for (accept, or reject with a code at a given
token). `build.py` records what only the toolchain can spell out (the
application/json+cal form, the canonical text) by running `cal`, compares
every expectation with what our toolchain does, and writes the case files.
Disagreements are printed for review; where the spec is on the case's side
the case keeps the spec's answer (see README.md).
"""

import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CAL = os.environ.get("CAL_BIN", os.path.join(ROOT, "target", "debug", "cal"))

# Registry phase -> case-file phase (see README.md, "Phases").
PHASES = {
    "CAL-E001": "lex", "CAL-E070": "lex", "CAL-E071": "lex",
    "CAL-E002": "parse", "CAL-E003": "parse", "CAL-E005": "parse",
    "CAL-E006": "parse", "CAL-E014": "parse", "CAL-E015": "parse",
    "CAL-E077": "parse", "CAL-E100": "parse",
}


def phase_of(code):
    """The phase a static code belongs to: lex, parse, or check."""
    return PHASES.get(code, "check")


def _run(args, data):
    p = subprocess.run([CAL] + args + ["-"], input=data, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check(query_bytes):
    """`cal check --json`: the list of diagnostics."""
    _, out, err = _run(["check", "--json"], query_bytes)
    try:
        return json.loads(out)["diagnostics"]
    except Exception as e:  # noqa: BLE001
        raise RuntimeError(f"cal check gave no JSON: {out!r} {err!r}") from e


def to_json(query):
    rc, out, err = _run(["json"], query.encode("utf-8"))
    if rc != 0:
        return None
    return json.loads(out)


def fmt(query):
    """The canonical text: `cal fmt` without comments (`cal fmt` keeps a document's comments;
    the canonical text of a query, as the JSON form gives it back, has none)."""
    rc, out, _ = _run(["fmt"], query.encode("utf-8"))
    if rc != 0:
        return None
    js = to_json(query)
    if js is not None:
        text, _, _ = to_text(js)
        if text is not None:
            return text
    return out[:-1] if out.endswith("\n") else out


def to_text(obj):
    """`cal text`: (text or None, error code or None, pointer or None)."""
    rc, out, err = _run(["text"], json.dumps(obj).encode("utf-8"))
    if rc == 0:
        return (out[:-1] if out.endswith("\n") else out), None, None
    code = None
    pointer = None
    for token in err.split():
        if token.startswith("error[CAL-"):
            code = token[len("error["):token.index("]")]
            break
    pointer = [part.split("`", 1)[0] for part in err.split("at `")[1:]]
    return None, code, pointer


def position(query, start, end):
    """0-based UTF-8 byte offsets, 1-based line and column (column in characters)."""
    b = query.encode("utf-8")
    before = b[:start].decode("utf-8")
    line = before.count("\n") + 1
    col = len(before) - (before.rfind("\n") + 1) + 1
    return {"start": start, "end": end, "line": line, "col": col}


def position_bytes(data, start, end):
    """As `position`, for raw bytes that may not be UTF-8 after `start`."""
    before = data[:start].decode("utf-8", "replace")
    line = before.count("\n") + 1
    col = len(before) - (before.rfind("\n") + 1) + 1
    return {"start": start, "end": end, "line": line, "col": col}


def locate(query, at, occ=0):
    """Span of the `occ`-th occurrence of substring `at` (byte offsets).

    `at` may be "$END" (an empty span at the end of the query) or a tuple
    (start, end) of byte offsets."""
    b = query.encode("utf-8")
    if at == "$END":
        return len(b), len(b)
    if isinstance(at, tuple):
        return at
    needle = at.encode("utf-8")
    i = -1
    for _ in range(occ + 1):
        i = b.find(needle, i + 1)
        if i < 0:
            raise ValueError(f"{at!r} (occurrence {occ}) not in {query!r}")
    return i, i + len(needle)
