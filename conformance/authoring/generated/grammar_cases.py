"""Grammar-directed generated parse cases, stored in conformance/cases/generated/.

Usage: `python3 conformance/authoring/generated/grammar_cases.py [--check]`
(`--check` regenerates in memory and exits 1 when a stored file differs).

Everything comes from one seed (SEED below) through Python's `random.Random`,
whose sequence for a given seed is fixed, so the files are reproducible.

Valid queries are derived production by production from CAL §4 (the
productions of grammar/cal.ebnf that are the spec's, no EXTENSION): RECALL with
a grain type, WHERE conditions built from Appendix E's table (each field with
an operator and value type that table allows), IN lists, ABOUT, RECENT,
LIMIT; pipelines of §4 (SELECT of projectable fields, ORDER BY of sortable
ones, LIMIT, OFFSET, FIRST, COUNT, GROUP BY of groupable ones, an extractor
last, at most 5 stages, §17.3); WITH options; AS formats; EXISTS, HISTORY,
set operations, COALESCE, BATCH, EXPLAIN, DESCRIBE and ASSEMBLE. The oracle is
the construction: the query must be accepted with no error, and its canonical
text must read back as the same query (`round_trip`, §15.3: the same tree,
whatever the engine's layout).

Mutations change exactly one token of a valid query, chosen so that Appendix C
names the first error and schema/phases.json its phase: an unknown grain type
(CAL-E003), an unterminated string (E005), an unknown field (E004), a string
compared with a number field (E020, Appendix E), a hash literal with a non-hex
digit (E015), a bidi override in a string (E071), a byte that is not UTF-8
(E070). A second pass, from its own stream (seed SEED + 1, so the first 3,000
are unchanged), adds a keyword where a value must stand (E002), a number with a
second decimal part (E006: the spec's `number` production rules it out, the code
for it is the lexer's ruling L7, so any rejection in the parse phase passes and
the code is a ruling check, C16) and an extractor over a type that is not beliefs
(E022, "SUBJECTS/OBJECTS requires belief-type input").
"""

import json
import os
import random
import sys

SEED = 20261126
VALID = 4000
MUTATED = 3000
# The second pass: mutants per kind (E022 has few bases: an extractor ending a RECALL of beliefs).
MUTATED_MORE = {"E002": 300, "E006": 300, "E022": 20}
PER_FILE = 1000

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stored  # noqa: E402

ROOT = stored.ROOT

with open(os.path.join(ROOT, "schema", "phases.json")) as f:
    PHASES = {c: v["phase"] for c, v in json.load(f)["codes"].items()}

TYPES = ["beliefs", "events", "states", "workflows", "actions", "observations", "goals", "reasonings",
         "consensuses", "consents"]
WORDS = ["alice", "bob", "carol", "dave", "erin", "project phoenix", "team-alpha", "dark mode", "tea", "berlin",
         "rust", "q1 review", "release notes", "onboarding", "incident 42"]
RELATIONS = ["prefers", "member_of", "lives_in", "works_on", "likes", "status", "owns", "knows_about"]
TAGS = ["work", "personal", "urgent", "draft", "review"]
# Appendix E, common fields: operators, sortable, projectable, groupable.
STRING_FIELDS = ["subject", "relation", "object"]
NUMBER_FIELDS = ["confidence", "importance"]
SORTABLE = ["subject", "relation", "object", "confidence", "importance", "score", "time"]
PROJECTABLE = ["subject", "relation", "object", "user_id", "confidence", "importance", "score", "tags", "type", "time"]
GROUPABLE = ["subject", "relation", "object", "user_id", "type"]
WITH_OPTIONS = ["superseded", "score_breakdown", "explanation", "provenance"]
FORMATS = ["markdown", "sml", "json", "yaml", "toon", "text", "triples", "structured", "readable", "compact", "data"]
DESCRIBE = ["grain_types", "fields", "capabilities", "server", "templates"]
SINGULAR = ["belief", "event", "state", "workflow", "action", "observation", "goal", "reasoning", "consensus", "consent"]
UNKNOWN_TYPES = ["facts", "memos", "widgets", "records", "notions", "entries"]
UNKNOWN_FIELDS = ["colour", "flavour", "mood", "weight_kg", "nickname"]


def q(s):
    return '"' + s + '"'


class Gen:
    """One query's construction: its text, the productions it used, the highest level among them."""

    def __init__(self, rng):
        self.r = rng
        self.prods = set()
        self.level = "core"

    def ext(self):
        self.level = "extended"

    def hexes(self):
        return "".join(self.r.choice("0123456789abcdef") for _ in range(64))

    def condition(self):
        r = self.r
        k = r.randrange(6)
        if k == 0:
            self.prods.add("field_condition")
            return f"{r.choice(STRING_FIELDS)} {r.choice(['=', '!='])} {q(r.choice(WORDS) if r.random() < .7 else r.choice(RELATIONS))}"
        if k == 1:
            self.prods.add("field_condition")
            num = r.choice(["0", "0.5", "0.25", "0.75", "1", "0.9"])
            return f"{r.choice(NUMBER_FIELDS)} {r.choice(['=', '!=', '>', '>=', '<', '<='])} {num}"
        if k == 2:
            self.prods.add("in_condition")
            vals = r.sample(WORDS, r.randint(1, 4))
            return f"{r.choice(STRING_FIELDS)} IN ({', '.join(q(v) for v in vals)})"
        if k == 3:
            self.prods.add("tag_condition")
            vals = r.sample(TAGS, r.randint(1, 3))
            return f"tags {r.choice(['INCLUDE', 'EXCLUDE'])} [{', '.join(q(v) for v in vals)}]"
        if k == 4:
            self.prods.add("field_condition")
            return f"score {r.choice(['>', '>='])} {r.choice(['0.1', '0.5', '0.8'])}"
        self.prods.add("field_condition")
        return f"user_id {r.choice(['=', '!='])} {q(r.choice(WORDS[:5]))}"

    def recall(self, pipeline_ok=True, core_only=False):
        r = self.r
        self.prods.add("recall_stmt")
        parts = ["RECALL", r.choice(TYPES)]
        shape = r.randrange(4)
        if shape in (0, 1):
            self.prods.add("where_clause")
            parts.append("WHERE " + " AND ".join(self.condition() for _ in range(r.randint(1, 3))))
        elif shape == 2:
            self.prods.add("about_clause")
            parts.append("ABOUT " + q(r.choice(WORDS)))
        else:
            # RECENT n is ORDER BY time DESC | LIMIT n: with either stage it is ambiguous (§9.8, CAL-E060).
            self.prods.add("recent_clause")
            parts.append(f"RECENT {r.randint(1, 50)}")
        recent = shape == 3
        if core_only or not pipeline_ok or r.random() < .35:
            if not recent and r.random() < .5:
                self.prods.add("limit_stage")
                parts.append(f"| LIMIT {r.randint(1, 100)}")
            return " ".join(parts)
        self.ext()
        stages = []
        # Stages that keep whole grains (ORDER BY, LIMIT, OFFSET) first; then at most one that
        # reshapes them (SELECT, COUNT, FIRST, an extractor, GROUP BY), last: what a stage may
        # follow once the grains are reshaped the spec does not say.
        for _ in range(r.randint(0 if recent else 1, 3)):
            s = r.randrange(3) if not recent else 2
            if s == 0:
                self.prods.add("order_stage")
                stages.append(f"ORDER BY {r.choice(SORTABLE)}" + r.choice(["", " ASC", " DESC"]))
            elif s == 1:
                self.prods.add("limit_stage")
                stages.append(f"LIMIT {r.randint(1, 100)}")
            else:
                self.prods.add("offset_stage")
                stages.append(f"OFFSET {r.randint(1, 50)}")
        end = r.randrange(7)
        if end == 0:
            self.prods.add("count_stage")
            stages.append("COUNT")
        elif end == 1:
            self.prods.add("first_stage")
            stages.append("FIRST")
        elif end == 2 and parts[1] == "beliefs":
            # SUBJECTS / OBJECTS need belief-type input (CAL-E022).
            self.prods.add("subjects_stage")
            stages.append(r.choice(["SUBJECTS", "OBJECTS"]))
        elif end == 3:
            self.prods.add("group_stage")
            stages.append(f"GROUP BY {r.choice(GROUPABLE)}")
        elif end == 4:
            self.prods.add("select_stage")
            stages.append("SELECT " + ", ".join(r.sample(PROJECTABLE, r.randint(1, 3))))
        if not stages:
            self.prods.add("offset_stage")
            stages.append(f"OFFSET {r.randint(1, 50)}")
        parts.append(" ".join("| " + s for s in stages))
        if r.random() < .3:
            self.prods.add("with_clause")
            parts.append("WITH " + ", ".join(r.sample(WITH_OPTIONS, r.randint(1, 2))))
        if r.random() < .25 and not any(s in ("COUNT", "SUBJECTS", "OBJECTS") or s.startswith(("GROUP", "SELECT")) for s in stages):
            self.prods.add("as_clause")
            parts.append("AS " + r.choice(FORMATS))
        return " ".join(parts)

    def statement(self):
        r = self.r
        k = r.randrange(20)
        if k < 8:
            return self.recall(core_only=k < 3)
        if k == 8:
            self.prods.add("exists_stmt")
            return f"EXISTS sha256:{self.hexes() if r.random() < .5 else self.hexes()[:r.choice([8, 12, 16])]}"
        self.ext()
        if k == 9:
            self.prods.add("history_stmt")
            return f"HISTORY sha256:{self.hexes()}"
        if k == 10:
            self.prods.add("history_stmt")
            return f"HISTORY WHERE subject = {q(r.choice(WORDS))} AND relation = {q(r.choice(RELATIONS))}"
        if k == 11:
            self.prods.add("set_stmt")
            ops = [r.choice(["UNION", "INTERSECT", "EXCEPT"]) for _ in range(r.randint(1, 3))]
            out = "(" + self.recall(pipeline_ok=False) + ")"
            for op in ops:
                out += f" {op} (" + self.recall(pipeline_ok=False) + ")"
            return out
        if k == 12:
            self.prods.add("coalesce_stmt")
            return "COALESCE(" + ", ".join(self.recall(pipeline_ok=False) for _ in range(r.randint(2, 4))) + ")"
        if k == 13:
            self.prods.add("batch_stmt")
            entries = []
            for i in range(r.randint(1, 4)):
                body = self.recall(pipeline_ok=False) if r.random() < .7 else f"EXISTS sha256:{self.hexes()}"
                entries.append(f"e{i}: {body}")
            return "BATCH { " + ", ".join(entries) + " }"
        if k == 14:
            self.prods.add("explain_stmt")
            return "EXPLAIN " + self.recall()
        if k == 15:
            self.prods.add("describe_stmt")
            t = r.choice(DESCRIBE)
            if t == "fields" and r.random() < .5:
                t += " " + r.choice(SINGULAR)
            return "DESCRIBE " + t
        self.prods.add("assemble_stmt")
        labels = ["a", "b", "c", "d"][:r.randint(1, 3)]
        out = "ASSEMBLE ctx"
        if r.random() < .5:
            out += " FOR " + q(r.choice(WORDS))
        out += " FROM " + ", ".join(f"{lb}: ({self.recall(pipeline_ok=False)})" for lb in labels)
        if r.random() < .7:
            out += f" BUDGET {r.choice([200, 500, 1000, 2000, 4000])} tokens"
        if len(labels) > 1 and r.random() < .5:
            out += " PRIORITY " + " > ".join(r.sample(labels, len(labels)))
        if r.random() < .5:
            out += " FORMAT " + r.choice(FORMATS)
        return out


def valid_cases(rng):
    out, seen = [], set()
    while len(out) < VALID:
        g = Gen(rng)
        text = g.statement()
        if text in seen or len(text.encode()) > 8192:
            continue
        seen.add(text)
        out.append({
            "id": f"gen.grammar.valid.{len(out) + 1:05d}",
            "kind": "parse",
            "level": g.level,
            "tags": ["generated", "grammar"] + sorted(g.prods),
            "sections": ["4", "15.3"],
            "flags": ["generated"],
            "query": text,
            "expect": {"accept": True, "round_trip": True},
        })
    return out


def mutate(rng, text):
    """One single-token mutation of `text` with its code, or None when this query offers none of the kind drawn."""
    kind = rng.randrange(7)
    if kind == 0:
        # Only where nothing depends on the grain type afterwards (no pipeline, WITH or AS):
        # whatever else an engine reports about the rest is not the spec's to say.
        if not text.startswith("RECALL ") or any(w in text for w in ("|", " WITH ", " AS ")):
            return None
        for t in TYPES:
            if f"RECALL {t}" in text:
                return text.replace(f"RECALL {t}", f"RECALL {rng.choice(UNKNOWN_TYPES)}", 1), "CAL-E003", None
        return None
    if kind == 1:
        # The query's last token is a string: without its closing quote it runs to the end,
        # and nothing else is left to be wrong.
        i = len(text) - 1
        if not text.endswith('"'):
            return None
        return text[:i] + text[i + 1:], "CAL-E005", None
    if kind == 2:
        for f in ["subject =", "object =", "relation =", "subject IN", "object IN", "subject !=", "object !="]:
            j = text.find("WHERE " + f)
            if j >= 0 and text.startswith("RECALL "):
                field = f.split()[0]
                start = j + len("WHERE ")
                return text[:start] + rng.choice(UNKNOWN_FIELDS) + text[start + len(field):], "CAL-E004", None
        return None
    if kind == 3:
        for f in ["confidence", "importance"]:
            for op in [" = ", " != ", " > ", " >= ", " < ", " <= "]:
                j = text.find(f + op)
                if j >= 0:
                    start = j + len(f + op)
                    end = start
                    while end < len(text) and (text[end].isdigit() or text[end] == "."):
                        end += 1
                    return text[:start] + q(rng.choice(["high", "low", "very"])) + text[end:], "CAL-E020", None
        return None
    if kind == 4:
        j = text.find("sha256:")
        if j < 0:
            return None
        k = j + len("sha256:") + rng.randrange(8)
        return text[:k] + rng.choice("ghxz") + text[k + 1:], "CAL-E015", None
    if kind == 5:
        i = text.find('"')
        if i < 0:
            return None
        return text[:i + 1] + "\u202e" + text[i + 1:], "CAL-E071", None
    i = text.find('"')
    if i < 0:
        return None
    raw = text.encode()
    b = len(text[:i + 1].encode())
    return None, "CAL-E070", (raw[:b] + b"\xff" + raw[b:]).hex()


def mutate_more(rng, text, kind):
    """The second pass's mutation of `kind` (E002, E006, E022), like `mutate`."""
    if kind == "E002":
        # A keyword where the value of a string comparison must stand: UnexpectedToken.
        spots = [j for f in [" subject = \"", " object = \"", " relation = \""] for j in range(len(text))
                 if text.startswith(f, j)]
        if not spots:
            return None
        j = rng.choice(spots)
        start = text.index("= ", j) + 2
        end = text.index('"', start + 1) + 1
        return text[:start] + rng.choice(["WHERE", "LIMIT", "RECALL", "BY"]) + text[end:], "CAL-E002", None
    if kind == "E006":
        # A number compared with a number field gets a second decimal part.
        for f in ["confidence", "importance"]:
            for op in [" = ", " != ", " > ", " >= ", " < ", " <= "]:
                j = text.find(f + op)
                if j >= 0:
                    end = j + len(f + op)
                    while end < len(text) and (text[end].isdigit() or text[end] == "."):
                        end += 1
                    # `0.5` -> `0.5.3`; an integer `1` -> `1.5.3` (one more part makes it a decimal only).
                    extra = "." + str(rng.randrange(1, 10))
                    if "." not in text[j + len(f + op):end]:
                        extra = "." + str(rng.randrange(1, 10)) + extra
                    return text[:end] + extra + text[end:], "CAL-E006", None
        return None
    # The query's one extractor ends it and reads beliefs: another type is ExtractorNeedsBeliefs,
    # where nothing else depends on the type (no subquery, WITH, AS; common fields only).
    if not text.startswith("RECALL beliefs") or not text.endswith(("| SUBJECTS", "| OBJECTS")):
        return None
    if any(w in text for w in ("(", " WITH ", " AS ")):
        return None
    other = rng.choice([t for t in TYPES if t != "beliefs"])
    return "RECALL " + other + text[len("RECALL beliefs"):], "CAL-E022", None


def mutated_cases(rng, valid, count=MUTATED, mutation=mutate, first=1, seen=None):
    out, seen = [], set() if seen is None else seen
    tries = 0
    while len(out) < count and tries < 200 * count:
        tries += 1
        base = rng.choice(valid)
        m = mutation(rng, base["query"])
        if m is None:
            continue
        text, code, hexq = m
        key = text or hexq
        if key in seen:
            continue
        seen.add(key)
        case = {
            "id": f"gen.grammar.mutant.{len(out) + first:05d}",
            "kind": "parse",
            "level": "core" if base["level"] == "core" else "extended",
            "tags": ["generated", "grammar", "mutation", code.replace("CAL-", "")],
            "sections": ["22.1", "C"],
            "flags": ["generated"],
            "description": f"One token of {base['id']} changed.",
        }
        if hexq is not None:
            case["query_hex"] = hexq
        else:
            case["query"] = text
        if code == "CAL-E006":
            case["rulings"] = {"code": "spec-decisions.md L7"}
        case["expect"] = {"accept": False, "code": code, "phase": PHASES[code]}
        out.append(case)
    return out


def files():
    rng = random.Random(SEED)
    valid = valid_cases(rng)
    seen = set()
    mutants = mutated_cases(rng, valid, seen=seen)
    more = random.Random(SEED + 1)
    for kind, count in MUTATED_MORE.items():
        mutants += mutated_cases(more, valid, count, lambda r, t, k=kind: mutate_more(r, t, k), len(mutants) + 1, seen)
    docs = {}
    for name, cases, what in [("valid", valid, "valid queries derived from the grammar's productions, accepted and read back as the same tree"),
                              ("mutant", mutants, "single-token mutations of those queries, each with the first error Appendix C gives")]:
        for n in range(0, len(cases), PER_FILE):
            docs[f"grammar-{name}-{n // PER_FILE + 1:02d}.json"] = {
                "$schema": "../../schema/case-file.schema.json",
                "description": f"Generated (conformance/authoring/generated/grammar_cases.py, seed {SEED}): {what}. Do not edit.",
                "cases": cases[n:n + PER_FILE],
            }
    return {k: json.dumps(v, indent=1, ensure_ascii=False) + "\n" for k, v in docs.items()}


def main():
    return stored.store(files(), "grammar-", "--check" in sys.argv, SEED)


if __name__ == "__main__":
    sys.exit(main())
