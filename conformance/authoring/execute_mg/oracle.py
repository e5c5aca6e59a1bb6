"""The authoring oracle for execute cases: an independent model of what CAL 1.0
says a query over a fixture store returns, and the reconciliation with our
toolchain.

Method (issue #8): every case states the spec's answer as a selection over the
fixture's grains (a predicate, a view, an order and a limit, or an explicit
list of grain keys); the oracle computes the content addresses from the
fixture itself (`cal mg unpack --envelope`), then `cal run` computes the
toolchain's answer. The case file always records the spec's answer; where the
two differ the case is listed in `execute-disagreements.md` (the case will
fail against our toolchain until one of them is fixed).
"""

import json
import os
import re
import subprocess

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
REPO = os.path.dirname(ROOT)
CAL = os.environ.get("CAL_BIN", os.path.join(REPO, "target", "debug", "cal"))
CLOCK = "2026-03-06T12:00:00Z"
DAY = 86_400_000


class Fixture:
    """The grains of one fixture store with their index state, and its key map."""

    def __init__(self, name):
        self.name = name
        path = os.path.join(ROOT, "fixtures", name + ".mg")
        out = subprocess.run([CAL, "mg", "unpack", "--envelope", path], capture_output=True, check=True)
        self.recs = []
        for line in out.stdout.decode().splitlines():
            d = json.loads(line)
            if d.get("encrypted"):
                # Held sealed (ruling C27): no query but its address reaches it, and then only CAL-E080.
                continue
            st = d.get("index_state") or {}
            self.recs.append({
                "addr": d["content_address"],
                "g": d["grain"],
                "superseded": st.get("superseded_by") is not None,
                "contradicted": bool((st.get("extra") or {}).get("ct")),
                "vstatus": st.get("verification_status"),
                "valid_to": st.get("system_valid_to"),
            })
        with open(os.path.join(ROOT, "authoring", "execute_mg", "keys", name + ".json")) as f:
            self.keys = json.load(f)
        self.by_addr = {r["addr"]: r for r in self.recs}

    def addr(self, key):
        """The content address (sha256:hex) of the grain the generator named `key`."""
        return "sha256:" + self.keys[key]

    def hexof(self, key):
        return self.keys[key]

    def rec(self, key):
        return self.by_addr[self.keys[key]]


_FIXTURES = {}


def fixture(name):
    if name not in _FIXTURES:
        _FIXTURES[name] = Fixture(name)
    return _FIXTURES[name]


# CAL field -> how to read it from a record (CAL §5.2, §6.3 over OMS names;
# the mapping rulings are docs/spec-decisions-interp.md F1-F8).
GOAL_STATES = {"active": "active", "satisfied": "completed", "failed": "abandoned", "suspended": "blocked"}


def field(r, name):
    g = r["g"]
    if name == "time":
        return g.get("created_at")
    if name == "tags":
        return g.get("structural_tags", [])
    if name == "contradicted":
        return r["contradicted"]
    if name == "verification_status":
        return r["vstatus"] or g.get("verification_status") or "unverified"
    if name == "reasoning_type":
        return g.get("inference_method")
    if name == "grantor_did":
        return g.get("subject_did")
    if name == "expires_at":
        return g.get("valid_to")
    if name == "consent_action":
        w = g.get("is_withdrawal")
        return None if w is None else ("withdraw" if w else "grant")
    if name == "goal_state":
        s = g.get("goal_state")
        return GOAL_STATES.get(s, s)
    if name == "action_phase":
        if g.get("type") != "action":
            return None
        return g.get("action_phase", "complete")
    if name == "context":
        c = g.get("context")
        return c.get("id") if isinstance(c, dict) else None
    if name == "hash":
        return r["addr"]
    if ":" in name and name not in g:
        # Domain fields (§12.2) may live in the context map (OMS Appendix A), with or without the prefix.
        c = g.get("context")
        if isinstance(c, dict):
            return c.get(name, c.get(name.split(":", 1)[1]))
    return g.get(name)


def select(fx, pred, order=None, desc=False, limit=20, offset=0, view="current"):
    """The spec's answer: grains of `fx` in `view` matching `pred`, sorted by
    `order` (missing values last, ties by address ascending, §17.4) or by
    address alone, then OFFSET/LIMIT. Returns (addresses, total)."""
    f = fixture(fx)
    pool = []
    for r in f.recs:
        if view == "current" and (r["superseded"] or r["contradicted"]):
            continue
        if view == "not-superseded" and r["superseded"]:
            continue
        if pred(r):
            pool.append(r)
    pool.sort(key=lambda r: r["addr"])
    if order:
        present = [r for r in pool if field(r, order) is not None]
        missing = [r for r in pool if field(r, order) is None]
        present.sort(key=lambda r: field(r, order), reverse=desc)
        if desc:
            # reverse=True keeps equal keys in reverse address order; restore ascending addresses
            present = _stable_desc(present, order)
        pool = present + missing
    total = len(pool)
    chosen = pool[offset:offset + limit] if limit is not None else pool[offset:]
    return ["sha256:" + r["addr"] for r in chosen], total


def _stable_desc(rows, order):
    groups = {}
    keys = []
    for r in rows:
        k = json.dumps(field(r, order), sort_keys=True)
        if k not in groups:
            groups[k] = []
            keys.append((field(r, order), k))
        groups[k].append(r)
    keys.sort(key=lambda t: t[0], reverse=True)
    out = []
    for _, k in keys:
        out.extend(sorted(groups[k], key=lambda r: r["addr"]))
    return out


def run_toolchain(fx, query, clock, params=None, capability=None):
    """Our toolchain's response to the case (JSON), via `cal run`."""
    args = [CAL, "run", "--no-timing", "--store", os.path.join(ROOT, "fixtures", fx + ".mg"), "--now", clock]
    if capability:
        try:
            tok = json.loads(capability)
        except ValueError:
            tok = {"namespace": capability}
        if isinstance(tok, dict):
            if tok.get("namespace"):
                args += ["--namespace", tok["namespace"]]
            if tok.get("user_id"):
                args += ["--user", tok["user_id"]]
    for k, v in (params or {}).items():
        args += ["--param", k + "=" + json.dumps(v)]
    args.append(query)
    out = subprocess.run(args, capture_output=True)
    try:
        resp = json.loads(out.stdout.decode() or "null")
    except ValueError:
        resp = None
    if isinstance(resp, list):
        resp = resp[0] if resp else None
    if resp is None:
        # A static error: `cal run` prints it as a code frame on stderr, not as JSON.
        m = re.search(r"\[(CAL-E[0-9]{3})\]", out.stderr.decode(errors="replace"))
        if m:
            resp = {"error": {"code": m.group(1), "message": "static error"}}
    warnings = []
    if isinstance(resp, dict):
        warnings = [w.get("code") for w in (resp.get("_cal") or {}).get("warnings", []) if isinstance(w, dict)]
    chk = subprocess.run([CAL, "check", "--json", "-"], input=query.encode(), capture_output=True)
    try:
        for d in json.loads(chk.stdout.decode()).get("diagnostics", []):
            code = d.get("code", "")
            if code.startswith("CAL-W") and code not in warnings:
                warnings.append(code)
    except ValueError:
        pass
    return resp, warnings


def pointer(doc, ptr):
    cur = doc
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, list):
            try:
                cur = cur[int(part)]
            except (ValueError, IndexError):
                return ("<missing>",)
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return ("<missing>",)
    return cur


TOON_TABULAR_HEADER = re.compile(r'^( *)(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9_.]*)\[(\d+)\]\{.*\}:$')


def toon_rows_indented(text):
    """TOON text with depth-0 tabular rows (§10.9.3 as printed) indented under their header
    (TOON v3), so either layout compares equal; `conformance/src/toon_layout.rs` does the same."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        m = TOON_TABULAR_HEADER.match(line)
        if not m:
            continue
        depth, n = len(m.group(1)), int(m.group(2))
        rows = lines[i:i + n]
        if n == 0 or len(rows) < n or not rows[0].strip() or len(rows[0]) - len(rows[0].lstrip(" ")) != depth:
            continue
        out.extend("  " + r for r in rows)
        i += n
    return "\n".join(out)


def run_session(case):
    """Our toolchain's answer to a case that needs a session (`setup`, `settings`, `stream`):
    `cal run` has none, so the case goes through `cal conformance adapter` as the runner sends
    it. Returns (response, warnings, events)."""
    p = subprocess.Popen([CAL, "conformance", "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    fx = case["fixture"]
    reqs = [{"id": 1, "type": "hello"},
            {"id": 2, "type": "load_fixture", "name": fx, "path": os.path.join(ROOT, "fixtures", fx + ".mg")}]
    ex = {"id": 3, "type": "execute", "fixture": fx, "query": case["query"], "clock": case["clock"],
          "params": case.get("params", {})}
    for k in ("capability", "setup", "settings", "stream"):
        if k in case:
            ex[k] = case[k]
    reqs.append(ex)
    out, _ = p.communicate("".join(json.dumps(r) + "\n" for r in reqs))
    answer = json.loads(out.splitlines()[-1])
    if answer.get("status") != "ok":
        return {"error": {"code": None, "message": answer.get("message")}}, [], None
    resp = answer["result"]["response"]
    warnings = [w.get("code") for w in (resp.get("_cal") or {}).get("warnings", [])]
    return resp, warnings, answer["result"].get("events")


def compare(case, resp, warnings, events=None):
    """Differences between the case's expectation and our toolchain's response."""
    e = case["expect"]
    diffs = []
    if resp is None:
        return ["no JSON response"]
    if "stream_end" in e:
        last = (events or [{}])[-1]
        if last.get("type") != e["stream_end"]["event"]:
            diffs.append(f"last stream event: expected {e['stream_end']['event']}, got {last.get('type')}")
        code = e["stream_end"].get("code")
        if code and code not in json.dumps([last, resp]):
            diffs.append(f"stream code {code} reported nowhere")
        if "errors" in e["stream_end"]:
            got = sorted({(ev.get("error") or {}).get("code") for ev in (events or [])[:-1] if ev.get("type") == "error"})
            if got != sorted(set(e["stream_end"]["errors"])):
                diffs.append(f"error events before the end: expected {e['stream_end']['errors']}, got {got}")
    err = (resp.get("error") or {}).get("code") if isinstance(resp.get("error"), dict) else None
    if "error" in e:
        if err != e["error"]["code"]:
            diffs.append(f"error: expected {e['error']['code']}, got {err}")
        return diffs
    if err:
        diffs.append(f"unexpected error {err}: {resp['error'].get('message')}")
        return diffs
    if "results" in e:
        got = ["sha256:" + r.get("content_address", "") for r in resp.get("results", []) if isinstance(r, dict)]
        if e.get("ordered"):
            if got != e["results"]:
                diffs.append(f"results (ordered): expected {e['results']}, got {got}")
        elif sorted(got) != sorted(e["results"]):
            diffs.append(f"results: expected {sorted(e['results'])}, got {sorted(got)}")
    if "total" in e and resp.get("total") != e["total"]:
        diffs.append(f"total: expected {e['total']}, got {resp.get('total')}")
    if "warnings" in e and sorted(set(warnings)) != sorted(set(e["warnings"])):
        diffs.append(f"warnings: expected {e['warnings']}, got {warnings}")
    for ptr, want in e.get("fields", {}).items():
        got = pointer(resp, ptr)
        fmt = pointer(resp, ptr.rsplit("/", 1)[0] + "/format")
        if fmt == "toon" and isinstance(got, str) and isinstance(want, str) \
                and toon_rows_indented(got) == toon_rows_indented(want):
            continue
        if got != want:
            diffs.append(f"field {ptr}: expected {json.dumps(want)}, got {json.dumps(got)[:200]}")
    for inv in e.get("invariants", []):
        if not invariant_holds(inv, resp):
            diffs.append(f"invariant {json.dumps(inv, ensure_ascii=False)[:300]} does not hold")
    return diffs


def _names(v, out):
    if isinstance(v, str):
        out.add(v)
    elif isinstance(v, list):
        for x in v:
            _names(x, out)
    elif isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            _names(x, out)
    return out


def _same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _holds(node, want):
    if _same(node, want):
        return True
    children = node if isinstance(node, list) else list(node.values()) if isinstance(node, dict) else []
    return any(_holds(c, want) for c in children)


def shows_changes(value, changed, unchanged, top):
    """A DIFF's changes (ruling C33; conformance/src/compare.rs::shows_changes does the same): some
    object or array names every changed field and holds both its values, and names no unchanged
    field; in a whole response the results are left out."""
    def shows(node):
        names = _names(node, set())
        return all(f in names and _holds(node, a) and _holds(node, b) for f, (a, b) in changed.items()) \
            and not any(f in names for f in unchanged)

    def any_part(node, skip_results):
        if isinstance(node, list):
            children = node
        elif isinstance(node, dict):
            children = [v for k, v in node.items() if not (skip_results and k == "results")]
        else:
            return False
        whole = {k: v for k, v in node.items() if k != "results"} if skip_results and isinstance(node, dict) else node
        return shows(whole) or any(any_part(c, False) for c in children)

    return bool(changed) and any_part(value, top)


def invariant_holds(inv, resp):
    """One invariant of rendered output (conformance/src/compare.rs::invariant does the same)."""
    if inv["pointer"] == "":
        value = {k: v for k, v in resp.items() if k != "_cal"}
    else:
        value = pointer(resp, inv["pointer"])
        if value == ("<missing>",):
            value = None
    text = value if isinstance(value, str) else None
    if "changes" in inv:
        return shows_changes(value, inv["changes"], inv.get("unchanged", []), inv["pointer"] == "")
    if "contains" in inv:
        return text is not None and all(p in text for p in inv["contains"])
    if "excludes" in inv:
        return text is None or not any(p in text for p in inv["excludes"])
    if "mentions" in inv:
        seen = set()

        def walk(v):
            if isinstance(v, str):
                seen.add(v)
            elif isinstance(v, list):
                for x in v:
                    walk(x)
            elif isinstance(v, dict):
                for k, x in v.items():
                    seen.add(k)
                    walk(x)
        walk(value)
        return all(m in seen for m in inv["mentions"])
    if "parses_as" in inv:
        try:
            json.loads(text)
            return True
        except (TypeError, ValueError):
            return False
    shape = inv["is"]
    if shape == "empty":
        return value in (None, [], {}, "")
    return isinstance(value, {"object": dict, "array": list, "string": str}[shape])
