"""Writes the framework's self-test corpus (conformance/tests/data/cases/*.json).

    cargo build -p cal && python3 conformance/tests/data/build_selftest.py

These ~15 cases per kind test the *framework* (loader, runner, comparison,
certification), not the toolchain: the real corpus is conformance/cases/.
Queries avoid depending on the default result order (ordered cases say ORDER
BY; set operands and unordered cases stay under the default LIMIT), so that
toolchain changes there do not break the framework's tests.
Expectations are recorded from `cal` and were read by hand when written;
execute cases run on a copy of the demo memory (fixtures/demo.mg).
"""

import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CAL = os.path.join(ROOT, "target", "debug", "cal")
NOW = "2026-03-06T12:00:00Z"


def cal(args, data):
    p = subprocess.run([CAL] + args, input=data.encode(), capture_output=True)
    return p.returncode, p.stdout.decode()


def case(id_, kind, level, tags, sections, **kw):
    c = {"id": id_, "kind": kind, "level": level, "tags": tags, "sections": sections}
    c.update(kw)
    return c


def accept(i, q, level="core", tags=("recall",)):
    _, js = cal(["json", "-"], q)
    _, canon = cal(["fmt", "-"], q)
    return case(f"t.parse.ok.{i:03}", "parse", level, list(tags), ["4"], query=q,
                expect={"accept": True, "json": json.loads(js), "canonical": canon.rstrip("\n")})


def reject(i, q, code, phase, level="core", flags=None):
    _, out = cal(["check", "--json", "-"], q)
    d = [x for x in json.loads(out)["diagnostics"] if x["code"] == code][0]
    c = case(f"t.parse.err.{i:03}", "parse", level, [code.split("-")[1]], ["22"], query=q,
             expect={"accept": False, "code": code, "phase": phase, "position": d["position"]})
    if flags:
        c["flags"] = flags
    return c


parse = [
    accept(1, 'RECALL beliefs ABOUT "alice"'),
    accept(2, 'RECALL beliefs WHERE subject = "alice" AND confidence >= 0.8 RECENT 5'),
    accept(3, 'RECALL WHERE subject IN ("alice", "bob")'),
    accept(4, 'EXISTS sha256:a1b2c3d4', tags=("exists", "hash")),
    accept(5, 'RECALL beliefs WHERE subject = $who', tags=("params",)),
    accept(6, 'RECALL events ABOUT "bob" | LIMIT 3', level="extended", tags=("pipeline",)),
    accept(7, '(RECALL beliefs) UNION (RECALL goals)', level="extended", tags=("setops",)),
    accept(8, 'DESCRIBE grain_types', level="extended", tags=("describe",)),
    reject(9, 'RECALL facts', "CAL-E003", "parse"),
    reject(10, 'RECALL beliefs WHERE', "CAL-E002", "parse"),
    reject(11, 'DELETE beliefs', "CAL-E002", "parse"),
    reject(12, 'RECALL beliefs | LIMIT 1001', "CAL-E010", "check", level="extended"),
    reject(13, 'RECALL beliefs WHERE confidence = "high"', "CAL-E020", "check"),
    reject(14, 'RECALL beliefs WHERE colour = "red"', "CAL-E004", "check", flags=["should"]),
]
parse.append(case("t.parse.err.015", "parse", "core", ["E070"], ["3.1"], query_hex="524543414c4c20ff",
                  expect={"accept": False, "code": "CAL-E070", "phase": "lex"}))


def t2j(i, q, level="extended"):
    _, js = cal(["json", "-"], q)
    return case(f"t.wire.t2j.{i:03}", "wire", level, ["wire"], ["15.2"], query=q, expect={"json": json.loads(js)})


def j2t(i, q, level="extended"):
    _, js = cal(["json", "-"], q)
    _, text = cal(["text", "-"], js)
    return case(f"t.wire.j2t.{i:03}", "wire", level, ["wire"], ["15.2"], json=json.loads(js),
                expect={"text": text.rstrip("\n")})


wire = [t2j(i + 1, q) for i, q in enumerate([
    'RECALL beliefs ABOUT "alice"', 'RECALL beliefs WHERE confidence >= 0.8 RECENT 5 AS markdown',
    'EXISTS sha256:a1b2c3d4', 'RECALL goals | COUNT', 'HISTORY sha256:a1b2c3d4'])]
wire += [j2t(i + 6, q) for i, q in enumerate([
    'RECALL events ABOUT "bob" | LIMIT 3', 'DESCRIBE fields', 'RECALL beliefs WHERE subject IN ("a", "b")',
    'RECALL WHERE subject = $who', 'CAL/1 RECALL beliefs'])]
for i, (obj, ptr) in enumerate([
        ({"statement": "recall", "grain_type": "facts"}, "/grain_type"),
        ({"statement": "delete"}, "/statement"),
        ({"statement": "recall", "limit": "ten"}, "/limit"),
        ({"grain_type": "beliefs"}, ""),
        ({"statement": "recall", "recent": -1}, "/recent")]):
    wire.append(case(f"t.wire.err.{i + 11:03}", "wire", "extended", ["wire", "E002"], ["15.5"], json=obj,
                     expect={"error": {"code": "CAL-E002", "pointer": ptr}}))


def run(q, params=None):
    args = ["run", "--store", os.path.join(HERE, "fixtures", "demo.mg"), "--now", NOW, "--no-timing"]
    for k, v in (params or {}).items():
        args += ["--param", f"{k}={json.dumps(v)}"]
    _, out = cal(args + [q], "")
    if out.strip():
        return json.loads(out)
    # A static error: `cal run` prints it as a code frame; the first error of `cal check` is the code.
    _, chk = cal(["check", "--json", "--param", "unused_binding=0", "-"] + [a for k, v in (params or {}).items() for a in ("--param", f"{k}={json.dumps(v)}")], q)
    first = [d for d in json.loads(chk)["diagnostics"] if d["severity"] == "error"][0]
    return {"error": {"code": first["code"]}}


def ex(i, q, level="core", ordered=False, params=None, fields=None, flags=None):
    r = run(q, params)
    exp = {}
    if "error" in r:
        exp["error"] = {"code": r["error"]["code"]}
    else:
        if "results" in r:
            exp["results"] = ["sha256:" + x["content_address"] for x in r["results"]]
            exp["ordered"] = ordered
        if "total" in r and not fields:
            exp["total"] = r["total"]
        if fields:
            exp["fields"] = {f: r_pointer(r, f) for f in fields}
        exp["ignore"] = ["duration_ms"]
    c = case(f"t.exec.{i:03}", "execute", level, ["execute"], ["8.1"], fixture="demo", query=q, clock=NOW, expect=exp)
    if params:
        c["params"] = params
    if flags:
        c["flags"] = flags
    return c


def r_pointer(r, p):
    for part in p.strip("/").split("/"):
        r = r[int(part)] if isinstance(r, list) else r[part]
    return r


execute = [
    ex(1, 'RECALL beliefs WHERE subject = "alice"'),
    ex(2, 'RECALL beliefs WHERE subject = "alice" | ORDER BY confidence DESC', level="extended", ordered=True),
    ex(3, 'RECALL beliefs WHERE subject = $who', params={"who": "bob"}),
    ex(4, 'RECALL goals', ordered=False),
    ex(5, 'RECALL beliefs WHERE subject IN ("carol", "dave")'),
    ex(6, 'RECALL events RECENT 3', ordered=True),
    ex(7, 'RECALL beliefs WHERE subject = "alice" | ORDER BY confidence DESC | LIMIT 2', level="extended", ordered=True),
    ex(8, 'RECALL beliefs WHERE subject = "nobody"'),
    ex(9, 'RECALL beliefs | COUNT', level="extended", fields=["/count"]),
    ex(10, 'EXISTS sha256:0000000000000000000000000000000000000000000000000000000000000000', fields=["/exists"]),
    ex(11, 'RECALL beliefs WHERE subject = $missing'),
    ex(12, 'RECALL observations ABOUT "erin"'),
    ex(13, '(RECALL beliefs ABOUT "alice" | LIMIT 1000) INTERSECT (RECALL beliefs WHERE confidence >= 0.9 | LIMIT 1000)',
       level="extended"),
    ex(14, '(RECALL beliefs ABOUT "alice" | LIMIT 1000) EXCEPT (RECALL beliefs WHERE confidence >= 0.9 | LIMIT 1000)',
       level="extended"),
    ex(15, 'RECALL consents', level="extended"),
]

GRAINS = [
    {"type": "belief", "subject": "alice", "relation": "mg:prefers", "object": "tea", "confidence": 0.9,
     "created_at": 1700000000000, "source_type": "user_explicit"},
    {"type": "event", "content": "standup moved to 10:00", "created_at": 1700000001000},
    {"type": "goal", "description": "ship the beta", "goal_state": "active", "created_at": 1700000002000},
]


def encode(g):
    rc, out = cal(["mg", "encode", "-"], json.dumps(g))
    return json.loads(out) if rc == 0 else None


mg = []
n = 1
for g in GRAINS:
    e = encode(g)
    if e is None:
        continue
    mg.append(case(f"t.mg.enc.{n:03}", "mg", "core", ["mg", g["type"]], ["OMS 4"], grain=g,
                   expect={"hex": e["blob_hex"], "address": e["content_address"]}))
    n += 1
    _, dec = cal(["mg", "decode", "--hex", "-"], e["blob_hex"])
    mg.append(case(f"t.mg.dec.{n:03}", "mg", "core", ["mg", g["type"]], ["OMS 4"], hex=e["blob_hex"],
                   expect={"grain": json.loads(dec), "address": e["content_address"]}))
    n += 1
first = encode(GRAINS[0])["blob_hex"]
for blob, err in [("", "ERR_TOO_SHORT"), ("01", "ERR_TOO_SHORT"), ("02" + first[2:], "ERR_VERSION"),
                  (first[:-4], "ERR_CORRUPT"), ("0100010000000000000000", None), (first + "00", None),
                  ("01000100000000000000c0", None), ("ff" * 12, None), (first[:18] + "90", None)]:
    rc, out = cal(["mg", "decode", "--hex", "-"], blob or " ")
    if rc == 0:
        continue
    code = next((t for t in out.replace(":", " ").split() if t.startswith("ERR_")), None)
    if code is None:
        rc2 = subprocess.run([CAL, "mg", "decode", "--hex", "-"], input=(blob or " ").encode(), capture_output=True)
        code = next((t.strip(":()") for t in rc2.stderr.decode().replace(":", " ").split() if t.startswith("ERR_")), None)
    if code is None or (err and code != err):
        continue
    mg.append(case(f"t.mg.err.{n:03}", "mg", "core", ["mg", code], ["OMS 21"], hex=blob, expect={"error": code}))
    n += 1

for name, cases in [("parse", parse), ("wire", wire), ("execute", execute), ("mg", mg)]:
    with open(os.path.join(HERE, "cases", f"{name}.json"), "w", encoding="utf-8") as f:
        json.dump({"description": f"Framework self-test: {name} cases.", "cases": cases}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(name, len(cases))
