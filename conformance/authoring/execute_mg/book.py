"""Case accumulation for the execute corpus: each area's cases, the spec's
answer computed by the oracle, reconciliation with our toolchain, and the
case files (`conformance/cases/execute/<area>.json`, < 150 cases each)."""

import json
import os

from oracle import CLOCK, ROOT, compare, field, fixture, run_session, run_toolchain, select

# Predicate helpers over oracle records (CAL §5.4: a missing field never matches).


def eq(name, value):
    return lambda r: field(r, name) == value


def ne(name, value):
    return lambda r: field(r, name) is not None and field(r, name) != value


def cmp(name, op, value):
    ops = {">": lambda a: a > value, ">=": lambda a: a >= value, "<": lambda a: a < value, "<=": lambda a: a <= value}
    return lambda r: isinstance(field(r, name), (int, float)) and not isinstance(field(r, name), bool) and ops[op](field(r, name))


def isin(name, values):
    return lambda r: field(r, name) in values


def ty(t):
    return eq("type", t)


def include(tags):
    return lambda r: all(t in field(r, "tags") for t in tags)


def exclude(tags):
    return lambda r: not any(t in field(r, "tags") for t in tags)


def all_of(*preds):
    return lambda r: all(p(r) for p in preds)


def any_of(*preds):
    return lambda r: any(p(r) for p in preds)


def between(name, lo, hi):
    return lambda r: isinstance(field(r, name), int) and lo <= field(r, name) <= hi


def always(_r):
    return True


class Sel:
    """The spec's answer as a selection (see `oracle.select`)."""

    def __init__(self, pred, **kw):
        self.pred = pred
        self.kw = kw


CASES = {}
SEEN = set()


def add(area, cid, fx, query, level, tags, sections, *, sel=None, keys=None, ordered=False, total=None,
        error=None, fields=None, warnings=None, clock=CLOCK, params=None, capability=None, flags=None,
        desc=None, with_total=False, empty=False, invariants=None, rulings=None, setup=None, settings=None,
        stream=None, stream_end=None):
    """One execute case; `sel` (a Sel), `keys` (grain keys) or `empty` give the results;
    `invariants` check rendered output (docs/spec-decisions-conformance.md C18); `rulings` name
    the assertions that come from a project ruling (C13); `setup`, `settings` and `stream` shape the
    session the query runs in, and `stream_end` says how a streamed delivery ends (PROTOCOL.md)."""
    assert cid not in SEEN, cid
    SEEN.add(cid)
    case = {"id": cid, "kind": "execute", "level": level, "tags": tags, "sections": sections}
    fl = list(flags or [])
    if clock != CLOCK or any(t in tags for t in ("time", "since", "between", "recent")):
        if "needs-clock" not in fl:
            fl.append("needs-clock")
    if fl:
        case["flags"] = fl
    if desc:
        case["description"] = desc
    if rulings:
        case["rulings"] = rulings
    case.update({"fixture": fx, "query": query, "clock": clock})
    if params:
        case["params"] = params
    if capability:
        case["capability"] = capability
    if setup:
        case["setup"] = setup
    if settings:
        case["settings"] = settings
    if stream:
        case["stream"] = stream
    expect = {}
    if error:
        expect["error"] = {"code": error}
    else:
        if sel is not None:
            results, tot = select(fx, sel.pred, **sel.kw)
            expect["results"] = results
            expect["ordered"] = ordered
            if with_total:
                expect["total"] = tot
        elif keys is not None:
            f = fixture(fx)
            expect["results"] = [f.addr(k) for k in keys]
            expect["ordered"] = ordered
        elif empty:
            expect["results"] = []
            expect["ordered"] = False
        if total is not None:
            expect["total"] = total
    if warnings is not None:
        expect["warnings"] = warnings
    if fields:
        expect["fields"] = fields
    if invariants:
        expect["invariants"] = invariants
    if stream_end:
        expect["stream_end"] = stream_end
    case["expect"] = expect
    CASES.setdefault(area, []).append(case)
    return case


def reconcile_and_write(descriptions):
    """Runs every case through our toolchain, writes the case files and the
    disagreement list; returns (cases, disagreements)."""
    out_dir = os.path.join(ROOT, "cases", "execute")
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    n = 0
    for area, cases in sorted(CASES.items()):
        # Cases written into the file by hand (Tier 1 setups, rendered ASSEMBLEs) have no family
        # here: they are kept as they are, after the generated ones, and reconciled like them.
        path = os.path.join(out_dir, area + ".json")
        if os.path.exists(path):
            with open(path) as f:
                ours = {c["id"] for c in cases}
                cases.extend(c for c in json.load(f)["cases"] if c["id"] not in ours)
        for c in cases:
            n += 1
            if any(k in c for k in ("setup", "settings", "stream")):
                resp, warnings, events = run_session(c)
            else:
                resp, warnings = run_toolchain(c["fixture"], c["query"], c["clock"], c.get("params"), c.get("capability"))
                events = None
            diffs = compare(c, resp, warnings, events)
            if diffs:
                lines.append(f"- `{c['id']}` — `{c['query']}`")
                lines.extend(f"  - {d}" for d in diffs)
        assert len(cases) < 150, area
        doc = {"$schema": "../../schema/case-file.schema.json", "description": descriptions[area], "cases": cases}
        with open(os.path.join(out_dir, area + ".json"), "w") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
    report = os.path.join(ROOT, "authoring", "execute_mg", "execute-disagreements.md")
    with open(report, "w") as f:
        f.write("# Execute cases where our toolchain disagrees with the spec's answer\n\n")
        f.write("Written by `execute_cases.py`: the case files keep the spec's answer; each case below\n")
        f.write("fails against our toolchain (`cal run`) until the toolchain or the ruling changes.\n")
        f.write("`execute.evolve.*` are expected here: our interpreter implements Tier 0 only and refuses every\n")
        f.write("evolve statement with CAL-E044 (docs/spec-decisions-interp.md S6). `execute.pipeline.012` and `.015`\n")
        f.write("(the §17.4 tie-break, docs/spec-decisions-corpus.md C1) were listed here until the interpreter\n")
        f.write("ordered equal scores by address (docs/spec-decisions-interp.md L6); they pass now.\n\n")
        f.write("\n".join(lines) + "\n" if lines else "None.\n")
    return n, sum(1 for line in lines if line.startswith("- "))
