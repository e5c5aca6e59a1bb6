"""Generated execute cases over generated stores, stored in conformance/cases/generated/
(execute-*.json) with their stores in conformance/fixtures/gen-store-*.mg.

Usage:
  python3 conformance/authoring/generated/execute_cases.py            # write stores and cases (needs `cal`)
  python3 conformance/authoring/generated/execute_cases.py --check    # exit 1 when a stored file differs
  ... --emit-grains DIR     write each store's grains (JSON lines, the input of `cal mg pack --jsonl`) to DIR
  ... --envelopes DIR       read each store's `cal mg unpack --envelope` lines from DIR/<store>.jsonl
                            instead of running `cal` (what conformance/tests/execute_generated.rs does)

Everything comes from one seed (SEED) through Python's `random.Random`. The stores are
random grains of five OMS types (belief, observation, goal, event, action) with varied
subjects, relations, objects, confidences, importances (sometimes missing), user ids
(sometimes missing), namespaces, creation times and tags. The queries are RECALL-family
shapes the authoring oracle (`execute_mg/oracle.py`) answers on its own: field equality
and inequality (NULL semantics, §5.4), comparisons on confidence and importance, IN
lists, tags INCLUDE/EXCLUDE, `IN "<namespace>"`, `IN SCOPE`, RECENT n, ORDER BY with LIMIT and
OFFSET (ties by address, §17.4), COUNT, EXISTS, SINCE "last N days" and
`WHERE time BETWEEN` (epoch seconds). Each expected result is `oracle.select` over the
store's grains as the codec reads them back (content addresses only: no query engine is
involved). The codec (`cal mg pack`/`unpack`) is the only part of our toolchain used.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "execute_mg"))

import oracle  # noqa: E402
from oracle import CLOCK, DAY  # noqa: E402

SEED = 20261201
STORES = 4
GRAINS = (40, 60)
CASES_PER_STORE = 150
PER_FILE = 500

ROOT = oracle.ROOT
OUT = os.path.join(ROOT, "cases", "generated")
FIXTURES = os.path.join(ROOT, "fixtures")
NOW = 1772798400000  # CLOCK in epoch ms

TYPES = {"belief": "beliefs", "observation": "observations", "goal": "goals", "event": "events", "action": "actions"}
SUBJECTS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"]
RELATIONS = {
    "belief": ["mg:prefers", "mg:knows", "member_of", "lives_in", "works_on", "likes"],
    "observation": ["mg:perceives"],
    "goal": ["mg:intends"],
    "action": ["mg:did"],
}
OBJECTS = ["dark mode", "tea", "berlin", "rust", "team-alpha", "team-beta", "project phoenix", "vim", "lisbon",
           "release notes"]
TAGS = ["work", "personal", "urgent", "draft", "review", "ui"]
NAMESPACES = ["gen:main", "gen:main:team", "gen:lab", "gen:ops"]
USERS = ["alice", "bob", "carol"]
CONFS = [0.1, 0.25, 0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0]
GOAL_STATES = ["active", "satisfied", "failed", "suspended"]
ROLES = ["user", "assistant", "tool", "system"]
SORTABLE = ["subject", "relation", "object", "confidence", "importance", "time"]


def q(s):
    return '"' + s + '"'


def grain(r, kind, created_at):
    g = {"type": kind, "created_at": created_at, "namespace": r.choice(NAMESPACES),
         "subject": r.choice(SUBJECTS), "structural_tags": sorted(r.sample(TAGS, r.randint(0, 3)))}
    if r.random() < .7:
        g["user_id"] = r.choice(USERS)
    if r.random() < .6:
        g["importance"] = r.choice(CONFS)
    if kind == "belief":
        g.update(relation=r.choice(RELATIONS["belief"]), object=r.choice(OBJECTS), confidence=r.choice(CONFS))
    elif kind == "observation":
        g.update(relation="mg:perceives", object=r.choice(OBJECTS), confidence=r.choice(CONFS),
                 observer_id="obs-" + r.choice(["monitor", "camera", "log"]), observer_type="agent:monitor")
    elif kind == "goal":
        obj = "ship " + r.choice(OBJECTS)
        g.update(relation="mg:intends", object=obj, description=obj, goal_state=r.choice(GOAL_STATES))
    elif kind == "event":
        g.update(content=f"message about {r.choice(OBJECTS)}", role=r.choice(ROLES),
                 session_id=f"sess-{r.randint(1, 4)}")
    else:
        g.update(relation="mg:did", object="used " + r.choice(OBJECTS), content="done",
                 tool_name=r.choice(["search", "get_weather", "send_mail"]), tool_call_id=f"call-{created_at % 997}",
                 is_error=r.random() < .2, input={"q": r.choice(OBJECTS)})
    return {k: g[k] for k in sorted(g)}


def stores(rng):
    """Each store's grains, in file order."""
    out = {}
    for s in range(1, STORES + 1):
        n = rng.randint(*GRAINS)
        times = set()
        while len(times) < n:
            # Whole seconds, 17 s past a minute: never on a day boundary of SINCE or a BETWEEN bound.
            times.add(NOW - rng.randrange(1, 400 * 1440) * 60_000 + 17_000)
        kinds = list(TYPES)
        weights = [5, 2, 2, 2, 1]
        out[f"gen-store-{s}"] = [grain(rng, rng.choices(kinds, weights)[0], t) for t in sorted(times)]
    return out


def cal_envelopes(name, grains):
    """Packs the grains into conformance/fixtures/<name>.mg and reads them back (codec only)."""
    cal = oracle.CAL
    path = os.path.join(FIXTURES, name + ".mg")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(jsonl(grains))
    try:
        subprocess.run([cal, "mg", "pack", "--jsonl", f.name, path], check=True, capture_output=True)
    finally:
        os.unlink(f.name)
    out = subprocess.run([cal, "mg", "unpack", "--envelope", path], check=True, capture_output=True)
    return out.stdout.decode()


def jsonl(grains):
    return "".join(json.dumps(g, ensure_ascii=False, sort_keys=True) + "\n" for g in grains)


def install(name, envelope_text):
    """Hands the store to the oracle the way oracle.Fixture reads one (without running `cal`)."""
    fx = object.__new__(oracle.Fixture)
    fx.name = name
    fx.recs = []
    for line in envelope_text.splitlines():
        d = json.loads(line)
        st = d.get("index_state") or {}
        fx.recs.append({"addr": d["content_address"], "g": d["grain"], "superseded": st.get("superseded_by") is not None,
                        "contradicted": bool((st.get("extra") or {}).get("ct")),
                        "vstatus": st.get("verification_status"), "valid_to": st.get("system_valid_to")})
    fx.keys = {}
    fx.by_addr = {r["addr"]: r for r in fx.recs}
    oracle._FIXTURES[name] = fx
    return fx


# Predicates over oracle records (as execute_mg/book.py; CAL §5.4: a missing field never matches).
def f(r, name):
    return oracle.field(r, name)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


OPS = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
       "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}


class Query:
    def __init__(self, rng, fx):
        self.r = rng
        self.fx = fx
        self.level = "core"
        self.tags = set()
        self.clock = False

    def values(self, name):
        vals = sorted({f(x, name) for x in self.fx.recs if isinstance(f(x, name), str)})
        return vals or ["nobody"]

    def condition(self, kind):
        """(text, predicate) of one WHERE condition over grains of `kind` (None: any type)."""
        r = self.r
        k = r.randrange(7)
        if k <= 1:
            name = r.choice(["subject", "subject", "relation", "object", "user_id"] if kind != "event" else ["subject", "user_id"])
            v = r.choice(self.values(name)) if r.random() < .9 else "nobody"
            op = "=" if k == 0 or r.random() < .5 else "!="
            self.tags.add(name)
            return f"{name} {op} {q(v)}", (lambda x, n=name, v=v, op=op: f(x, n) is not None and OPS[op](f(x, n), v))
        if k <= 3 and kind in (None, "belief", "observation") or k == 2:
            name = "confidence" if kind in ("belief", "observation") and k <= 3 else "importance"
            op = r.choice([">", ">=", "<", "<=", "=", "!="])
            v = r.choice(CONFS)
            self.tags.add(name)
            return f"{name} {op} {v}", (lambda x, n=name, v=v, op=op: is_num(f(x, n)) and OPS[op](f(x, n), v))
        if k == 4:
            name = r.choice(["subject", "object"] if kind != "event" else ["subject"])
            vals = r.sample(self.values(name), min(len(self.values(name)), r.randint(1, 3)))
            self.tags.add("in-list")
            return f"{name} IN ({', '.join(q(v) for v in vals)})", (lambda x, n=name, vals=vals: f(x, n) in vals)
        if k == 5:
            tags = r.sample(TAGS, r.randint(1, 2))
            self.tags.add("tags")
            if r.random() < .5:
                return (f"tags INCLUDE [{', '.join(q(t) for t in tags)}]",
                        lambda x, tags=tags: all(t in f(x, "tags") for t in tags))
            return (f"tags EXCLUDE [{', '.join(q(t) for t in tags)}]",
                    lambda x, tags=tags: not any(t in f(x, "tags") for t in tags))
        # time BETWEEN epoch seconds, both ends included (§9.3); no grain sits on a bound.
        lo = (NOW - r.randrange(5, 400) * DAY) // 1000
        hi = lo + r.randrange(1, 120) * DAY // 1000
        self.tags.add("between")
        self.clock = True
        return f"time BETWEEN {lo} AND {hi}", (lambda x, lo=lo, hi=hi: lo * 1000 <= f(x, "time") <= hi * 1000)

    def build(self):
        """(query text, expect) for one RECALL-family query."""
        r = self.r
        if r.random() < .06:
            self.tags.add("exists")
            rec = r.choice(self.fx.recs)
            if r.random() < .6:
                return f"EXISTS sha256:{rec['addr']}", {"fields": {"/exists": True}}
            h = rec["addr"][:-6] + "".join(r.choice("0123456789abcdef") for _ in range(6))
            exists = any(x["addr"] == h for x in self.fx.recs)
            return f"EXISTS sha256:{h}", {"fields": {"/exists": exists}}
        kind = r.choice(list(TYPES) + ["belief", "belief", None])
        parts = ["RECALL"] + ([TYPES[kind]] if kind else [])
        preds = [(lambda x: x["g"]["type"] == kind)] if kind else []
        if r.random() < .25:
            ns = r.choice(NAMESPACES + ["gen:none", "gen:ma"])
            if r.random() < .3:
                # A scope is the namespace and every one below it, by whole segments (§4).
                parts.append(f"IN SCOPE {q(ns)}")
                preds.append(lambda x, ns=ns: isinstance(f(x, "namespace"), str)
                             and (f(x, "namespace") == ns or f(x, "namespace").startswith(ns + ":")))
                self.tags.add("in-scope")
            else:
                parts.append(f"IN {q(ns)}")
                preds.append(lambda x, ns=ns: f(x, "namespace") == ns)
                self.tags.add("in-namespace")
        conds = []
        for _ in range(r.choice([0, 1, 1, 1, 2, 2, 3]) if len(parts) > 1 else r.randint(1, 2)):
            text, pred = self.condition(kind)
            conds.append(text)
            preds.append(pred)
        # SINCE with a `time` condition is ambiguous (§9.8, CAL-E060): only without one.
        if r.random() < .12 and "between" not in self.tags:
            days = r.choice([3, 7, 14, 30, 90, 180])
            since = f"SINCE {q(f'last {days} days')}"
            lo = NOW - days * DAY
            preds.append(lambda x, lo=lo: lo <= f(x, "time") < NOW)
            self.tags.add("since")
            self.level = "extended"
            self.clock = True
        else:
            since = None
        if conds:
            parts.append("WHERE " + " AND ".join(conds))
        if since:
            parts.append(since)
        pred = (lambda x, ps=tuple(preds): all(p(x) for p in ps))
        shape = r.randrange(10)
        if shape <= 1:
            n = r.randint(1, 12)
            parts.append(f"RECENT {n}")
            self.tags.add("recent")
            self.clock = True
            sel = dict(order="time", desc=True, limit=n)
            return " ".join(parts), self.expect(pred, sel, ordered=True)
        if shape <= 4:
            if r.random() < .5:
                n = r.randint(1, 30)
                parts.append(f"| LIMIT {n}")
                self.tags.add("limit")
                return " ".join(parts), self.expect(pred, dict(limit=n), ordered=False)
            return " ".join(parts), self.expect(pred, dict(limit=20), ordered=False)
        self.level = "extended"
        if shape == 5:
            parts.append("| COUNT")
            self.tags.add("count")
            _, total = oracle.select(self.fx.name, pred, limit=None)
            return " ".join(parts), {"total": total, "fields": {"/count": total}}
        order = r.choice(SORTABLE if kind != "event" else ["subject", "importance", "time"])
        desc = r.random() < .5
        stages = [f"ORDER BY {order}" + (" DESC" if desc else r.choice(["", " ASC"]))]
        offset, limit = 0, 20
        if r.random() < .6:
            offset = r.randint(1, 15)
            stages.append(f"OFFSET {offset}")
        if r.random() < .7:
            limit = r.randint(1, 15)
            stages.append(f"LIMIT {limit}")
        parts.append(" ".join("| " + s for s in stages))
        self.tags.update(["order-by"] + (["offset"] if offset else []))
        return " ".join(parts), self.expect(pred, dict(order=order, desc=desc, offset=offset, limit=limit), ordered=True)

    def expect(self, pred, sel, ordered):
        results, _ = oracle.select(self.fx.name, pred, **sel)
        return {"results": results, "ordered": ordered}


def cases(rng, fixtures):
    out, seen = [], set()
    for name, fx in fixtures.items():
        made = 0
        while made < CASES_PER_STORE:
            g = Query(rng, fx)
            text, expect = g.build()
            if (name, text) in seen:
                continue
            # Most random conjunctions over a small store match nothing: keep few empty answers.
            if (expect.get("results") == [] or expect.get("total") == 0) and rng.random() < .85:
                continue
            seen.add((name, text))
            made += 1
            case = {"id": f"gen.execute.{len(out) + 1:04d}", "kind": "execute", "level": g.level,
                    "tags": ["generated", "execute"] + sorted(g.tags), "sections": ["8.1", "5.2", "17.4"],
                    "flags": ["generated"] + (["needs-clock"] if g.clock else []),
                    "fixture": name, "query": text, "clock": CLOCK, "expect": expect}
            out.append(case)
    return out


def files(envelopes):
    """{path: text} of everything the generator writes but the stores themselves."""
    fixtures = {name: install(name, text) for name, text in envelopes.items()}
    all_cases = cases(random.Random(SEED + 1), fixtures)
    docs = {}
    for n in range(0, len(all_cases), PER_FILE):
        doc = {"$schema": "../../schema/case-file.schema.json",
               "description": (f"Generated (conformance/authoring/generated/execute_cases.py, seed {SEED}): RECALL-family "
                               "queries over the generated stores fixtures/gen-store-*.mg, each answered by the authoring "
                               "oracle (authoring/execute_mg/oracle.py). Do not edit."),
               "cases": all_cases[n:n + PER_FILE]}
        docs[os.path.join(OUT, f"execute-{n // PER_FILE + 1:02d}.json")] = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    return docs


def main(argv):
    grains = stores(random.Random(SEED))
    if "--emit-grains" in argv:
        d = argv[argv.index("--emit-grains") + 1]
        for name, gs in grains.items():
            with open(os.path.join(d, name + ".jsonl"), "w") as fh:
                fh.write(jsonl(gs))
        return 0
    check = "--check" in argv
    if "--envelopes" in argv:
        d = argv[argv.index("--envelopes") + 1]
        envelopes = {}
        for name in grains:
            with open(os.path.join(d, name + ".jsonl")) as fh:
                envelopes[name] = fh.read()
    elif check:
        print("--check needs --envelopes DIR (the stores as the codec reads them back)", file=sys.stderr)
        return 2
    else:
        envelopes = {name: cal_envelopes(name, gs) for name, gs in grains.items()}
    # The stores must hold what the seed gives (the codec may add nothing, drop nothing).
    for name, gs in grains.items():
        back = [json.loads(line)["grain"] for line in envelopes[name].splitlines()]
        if back != gs:
            print(f"{name}: the store does not hold the grains seed {SEED} gives", file=sys.stderr)
            return 1
    docs = files(envelopes)
    if check:
        stale = [p for p, text in docs.items() if not os.path.exists(p) or open(p).read() != text]
        extra = [os.path.join(OUT, p) for p in os.listdir(OUT)
                 if p.startswith("execute-") and os.path.join(OUT, p) not in docs]
        for p in stale + extra:
            print(f"stale: {os.path.relpath(p, ROOT)}")
        return 1 if stale or extra else 0
    for p in os.listdir(OUT):
        if p.startswith("execute-"):
            os.unlink(os.path.join(OUT, p))
    for p, text in docs.items():
        with open(p, "w") as fh:
            fh.write(text)
    n = sum(len(json.loads(t)["cases"]) for t in docs.values())
    print(f"{len(grains)} stores, {n} generated execute cases written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
