"""Builds conformance/cases/{parse,wire}/*.json from areas/*.py.

    python3 conformance/authoring/parse_wire/build.py [area ...]

Runs `target/debug/cal` (build it first: `cargo build -p cal`) to record the
JSON form and canonical text of accepted queries, compares every case's
expectation with what our toolchain does, prints each disagreement, and
writes them to DISAGREEMENTS.md. A case marked `disagree=` is one where the
spec's answer is kept against our toolchain (the case is expected to fail).
"""

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import caltool  # noqa: E402
from dsl import LEVELS, level_of  # noqa: E402


def raised(level, query):
    """A case is at least at the level of every feature its query uses (§24)."""
    return max(level, level_of(query), key=LEVELS.index)

CASES_DIR = os.path.join(caltool.ROOT, "conformance", "cases")


KEYWORDS = set("""RECALL ASSEMBLE WHERE AND OR NOT IN BETWEEN LIMIT OFFSET ORDER BY ASC DESC WITH EXPLAIN SCOPE UNION
INTERSECT EXCEPT SELECT COUNT FIRST GROUP SUBJECTS OBJECTS HASHES PROJECT INCLUDE EXCLUDE IS NULL TRUE FALSE EXISTS
HISTORY DESCRIBE BATCH COALESCE ABOUT RECENT SINCE LIKE MY CONTRADICTIONS AS FOR FROM BUDGET PRIORITY FORMAT LET THREAD
DIFF ADD SUPERSEDE REVERT SET REASON STREAM TEMPLATE DEFINE UNDEFINE EXTENDS HEADER ELEMENT ELEMENT_SUMMARY ELEMENT_OMIT
SOURCE_BREAK FOOTER PREFERENCE KNOWLEDGE PERMISSION INTERACTION AGENCY LIFECYCLE OBSERVATION CAL OF""".split())


def keyword_tags(q):
    """`kw:<KEYWORD>` for each keyword written in the query (outside strings and comments)."""
    out, i, n, words = [], 0, len(q), []
    while i < n:
        if q.startswith("--", i):
            j = q.find("\n", i)
            i = n if j < 0 else j
        elif q[i] == '"':
            j = i + 1
            while j < n and q[j] != '"':
                j += 2 if q[j] == "\\" else 1
            i = j + 1
        else:
            out.append(q[i])
            i += 1
    import re
    for w in re.findall(r"[A-Za-z_]+", "".join(out)):
        if w.upper() in KEYWORDS and (w.isupper() or w in ("true", "false")):
            words.append("kw:" + w.upper())
    return words


def build_parse(s, problems):
    q = s["query"]
    tags = sorted(set(s["tags"]) | (set(keyword_tags(q)) if not s.get("query_hex") else set()))
    lv = s["level"] if s.get("query_hex") else raised(s["level"], q)
    case = {"id": s["id"], "kind": "parse", "level": lv, "tags": tags, "sections": s["sections"]}
    if s["flags"]:
        case["flags"] = s["flags"]
    if s["description"]:
        case["description"] = s["description"]
    if s.get("ruling"):
        case["rulings"] = {"code": s["ruling"]}
    qbytes = bytes.fromhex(s["query_hex"]) if s.get("query_hex") else q.encode("utf-8")
    if s.get("query_hex"):
        case["query_hex"] = s["query_hex"]
    else:
        case["query"] = q
    diags = caltool.check(qbytes)
    errors = [d for d in diags if d["severity"] == "error"]
    warns = sorted({d["code"] for d in diags if d["severity"] == "warning"})
    note = s.get("disagree")

    def problem(msg):
        problems.append((s["id"], msg, note))

    if s["mode"] == "accept":
        exp = {"accept": True}
        if errors:
            problem(f"toolchain rejects: {[(d['code'], d['message']) for d in errors]}")
        js = caltool.to_json(q)
        canon = caltool.fmt(q) if s.get("canonical", True) else None
        if js is not None:
            exp["json"] = js
        if canon is not None:
            exp["canonical"] = canon
            if caltool.fmt(canon) != canon:
                problem(f"canonical text is not a fixed point: {canon!r}")
            if js is not None and caltool.to_json(canon) != js:
                problem("canonical text gives another JSON")
        elif not errors and s.get("canonical", True):
            problem("no canonical text")
        if s["warnings"]:
            exp["warnings"] = s["warnings"]
        if warns != s["warnings"]:
            problem(f"warnings: expected {s['warnings']}, toolchain {warns}")
    else:
        code = s["code"]
        exp = {"accept": False, "code": code, "phase": caltool.phase_of(code)}
        ours = [d for d in diags if d["code"] == code]
        pos = None
        if s["at"] is not None:
            if s.get("query_hex"):
                st, en = s["at"]
                pos = caltool.position_bytes(qbytes, st, en)
            else:
                st, en = caltool.locate(q, s["at"], s["occ"])
                pos = caltool.position(q, st, en)
        if not ours:
            problem(f"toolchain does not report {code}: {[(d['code'], d['message']) for d in diags]}")
        else:
            if pos is None:
                pos = ours[0]["position"]
            elif ours[0]["position"] != pos:
                problem(f"position: expected {pos}, toolchain {ours[0]['position']} ({ours[0]['message']})")
            others = [d["code"] for d in errors if d["code"] != code]
            if others:
                problem(f"other errors too: {others}")
            if errors and errors[0]["code"] != code:
                problem(f"first error is {errors[0]['code']}")
        if pos is not None:
            exp["position"] = pos
        if s["suggestion"] is not None:
            exp["suggestion_contains"] = s["suggestion"]
            if ours and s["suggestion"] not in (ours[0].get("suggestion") or ""):
                problem(f"suggestion lacks {s['suggestion']!r}: {ours[0].get('suggestion')!r}")
        if s["example"] is not None:
            exp["has_example"] = s["example"]
            if ours and bool(ours[0].get("example")) != s["example"]:
                problem(f"example presence: expected {s['example']}")
    case["expect"] = exp
    return case


def build_wire(s, problems):
    lv = raised(s["level"], s["query"]) if s["mode"] == "t2j" else s["level"]
    case = {"id": s["id"], "kind": "wire", "level": lv, "tags": s["tags"], "sections": s["sections"]}
    if s["description"]:
        case["description"] = s["description"]
    note = s.get("disagree")

    def problem(msg):
        problems.append((s["id"], msg, note))

    if s["mode"] == "t2j":
        q = s["query"]
        js = caltool.to_json(q)
        if js is None:
            problem("toolchain cannot convert the query")
            js = {}
        case["query"] = q
        case["expect"] = {"json": js}
        canon = caltool.fmt(q)
        text, code, _ = caltool.to_text(js)
        if text != canon:
            problem(f"JSON->text {text!r} differs from canonical {canon!r} ({code})")
    elif s["mode"] == "j2t":
        text, code, pointer = caltool.to_text(s["json"])
        expected = s["text"] if s["text"] is not None else text
        if text is None:
            problem(f"toolchain rejects the JSON: {code} at {pointer}")
        elif expected != text:
            problem(f"text: expected {expected!r}, toolchain {text!r}")
        case["json"] = s["json"]
        case["expect"] = {"text": expected}
    else:
        text, code, pointer = caltool.to_text(s["json"])
        err = {"code": s["code"]}
        exp_pointer = s["pointer"]
        if text is not None:
            problem(f"toolchain accepts the JSON: {text!r}")
        else:
            if code != s["code"]:
                problem(f"code: expected {s['code']}, toolchain {code}")
            if exp_pointer is not None and exp_pointer not in pointer:
                problem(f"pointer: expected {exp_pointer}, toolchain {pointer}")
        if exp_pointer is not None:
            err["pointer"] = exp_pointer
        case["json"] = s["json"]
        case["expect"] = {"error": err}
    return case


def main(selected):
    names = sorted(f[:-3] for f in os.listdir(os.path.join(HERE, "areas")) if f.endswith(".py") and f != "__init__.py")
    if selected:
        names = [n for n in names if n in selected]
    all_problems = []
    for name in names:
        mod = importlib.import_module(f"areas.{name}")
        for area in mod.AREAS:
            problems = []
            cases = []
            for s in area.specs:
                cases.append(build_parse(s, problems) if s["kind"] == "parse" else build_wire(s, problems))
            out = os.path.join(CASES_DIR, area.path)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "w", encoding="utf-8") as f:
                doc = {"$schema": "../../schema/case-file.schema.json", "description": area.description, "cases": cases}
                json.dump(doc, f, ensure_ascii=False, indent=1)
                f.write("\n")
            print(f"{area.path}: {len(cases)} cases, {len(problems)} disagreements")
            for pid, msg, note in problems:
                mark = "KEPT" if note else "CHECK"
                print(f"  [{mark}] {pid}: {msg}" + (f"  -- {note}" if note else ""))
            all_problems += [(area.path, *p) for p in problems]
    if not selected:
        with open(os.path.join(HERE, "DISAGREEMENTS.md"), "w", encoding="utf-8") as f:
            f.write("# Cases where the spec's answer differs from our toolchain\n\n")
            f.write("Written by build.py. KEPT: reviewed; the case keeps the spec's answer (or our documented\n")
            f.write("ruling). A wrong code fails the case; a wrong position or pointer fails its SHOULD check; extra\n")
            f.write("diagnostics next to the expected one are not counted by `cal conformance run` but are listed\n")
            f.write("here as toolchain bugs (one mistake, one diagnostic). CHECK: not reviewed yet.\n\n")
            for path, pid, msg, note in all_problems:
                f.write(f"- [{'KEPT' if note else 'CHECK'}] `{pid}` ({path}): {msg}" + (f" -- {note}" if note else "") + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
