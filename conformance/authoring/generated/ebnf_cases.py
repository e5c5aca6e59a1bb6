"""Parse cases derived from the productions of grammar/cal.ebnf, read as a grammar.

Usage: `python3 conformance/authoring/generated/ebnf_cases.py [--check] [--coverage]`
(`--check` regenerates in memory and exits 1 when a stored file differs; `--coverage`
prints how often each production was used).

Where grammar_cases.py builds queries from hand-written shapes, this generator reads
grammar/cal.ebnf (with `ebnf.py`) and derives sentences from its start symbol `query`
at random, by the productions themselves: an alternative, an optional part, a
repetition is chosen from one seed (SEED, Python's `random.Random`), and past a depth
only the shortest way out of each production is taken, so every derivation ends.

The spec's language, not ours. Every production the file marks EXTENSION accepts
more than CAL §4; for each, SPEC_FORMS below gives the spec's own production (CAL §4,
with the grammar rulings of docs/spec-decisions-grammar.md where §4 is ambiguous), and
the generator uses that instead. The generator refuses to run when a production is
marked EXTENSION and has no spec form, so a new extension cannot slip into the cases.
Lexical productions (a string, a number, a hash, a parameter, an identifier, template
text, a domain field) are one token each and are written by the functions of LEXICAL.
Keywords are written upper, lower or mixed case (§3.1: keywords are case-insensitive).

The oracle is the derivation: the text is a sentence of §4's grammar, so no error of the
lex or parse phase may be reported (`"well_formed": true`). The checker may still reject
it (a derivation knows nothing of Appendix E's types or §17.3's limits): then every error
must be of the check phase. When the engine accepts it, its canonical text must read back
as the same tree (`"round_trip": true`, §15.3; Extended, as for every canonical text).

Metamorphic variants: 800 of the sentences again with other whitespace and line comments
between tokens (§3.2, §3.5); well-formed too, and accepted, their canonical text must read back
as the tree of the sentence they came from (`"same_tree_as"`).

Mutants: one token of a derivation (never inside template text) replaced by one of the
§2.4 excluded words, in any case; CAL-E002 in the parse phase is then the first error
(§2.4: "wherever they appear"), since everything before the word is a prefix of a sentence.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ebnf  # noqa: E402
import stored  # noqa: E402

SEED = 20261202
WELL_FORMED = 2400
MUTANTS = 600
# Metamorphic variants: a derivation with other whitespace and comments between its tokens.
VARIANTS = 800
PER_FILE = 800
# Past this depth only the shortest alternatives are taken.
DEPTH = 9

GRAMMAR = os.path.normpath(os.path.join(stored.ROOT, "..", "grammar", "cal.ebnf"))

# CAL §4's productions for those grammar/cal.ebnf marks EXTENSION, and the spec's
# special forms of a condition (which cal.ebnf folds into five general ones).
SPEC_FORMS = r'''
explain_stmt = "EXPLAIN" , ( recall_stmt | assemble_stmt | set_stmt
             | add_stmt | supersede_stmt | revert_stmt | batch_stmt | coalesce_stmt ) ;
(* §4: two operands; a chain of operations is our extension. An operand is a
   parenthesized statement: §4 writes query, ruling G-set keeps LET and CAL/1 outside. *)
set_stmt = set_operand , set_op , set_operand ;
recall_stmt = "RECALL" , [ "MY" ] , [ grain_type_plural ] , [ in_clause ] ,
              [ about_clause ] , [ like_clause ] , [ since_clause ] ,
              [ between_clause ] , [ thread_clause ] ,
              [ where_clause ] , [ with_clause ] , [ pipeline ] ,
              [ recent_clause ] , [ contradictions_clause ] , [ as_clause ] ;
assemble_stmt = "ASSEMBLE" , [ context_name ] , [ for_clause ] , from_clause ,
                [ budget_clause ] , [ priority_clause ] , [ format_clause ] ,
                [ stream_clause ] , [ with_clause ] ;
history_stmt = "HISTORY" , ( hash_literal | parameter ) , [ diff_clause ]
             | "HISTORY" , [ in_clause ] , "WHERE" , subject_clause , "AND" , relation_clause ,
               [ as_of_clause ] ;
label = identifier ;
source = [ label , ":" ] , "(" , recall_stmt , ")"
       | [ label , ":" ] , let_ref ;
as_clause = "AS" , format_type ;
condition = field_condition | grain_field_condition | query_condition
          | time_condition | type_condition | tag_condition
          | in_condition | hash_condition | meta_condition
          | relation_shortcut | domain_field_condition ;
field_condition = field_name , comparator , value ;
grain_field_condition = grain_field_name , comparator , value ;
meta_condition = meta_field_name , comparator , value ;
query_condition = "query" , "=" , string_literal ;
time_condition = "time" , "=" , string_literal
               | "time" , "BETWEEN" , value , "AND" , value ;
(* §5.1: `type` takes a singular grain type ("Singular (in ADD/WHERE)"); any other string is
   CAL-E003, which Appendix C files among the parse errors (E001-E019), so the string the
   derivation writes is one of the ten names (type_name, lexical). *)
type_condition = "type" , "=" , type_name ;
tag_condition = "tags" , ( "INCLUDE" | "EXCLUDE" ) , array_literal ;
in_condition = field_name , "IN" , "(" , ( value_list | subquery_extract ) , ")" ;
hash_condition = "hash" , "=" , ( hash_literal | parameter ) ;
relation_shortcut = "relation" , "IS" , relation_category ;
domain_field_condition = domain_field , comparator , value ;
field_ref = field_name ;
with_option = "superseded" | "score_breakdown" | "explanation" | "provenance"
            | "contradiction_detection" | "progressive_disclosure"
            | "summarize"
            | "diversity" , "(" , diversity_spec , ")"
            | "consistency" , "(" , consistency_level , ")"
            | "progressive_disclosure" , "(" , disclosure_level , ")"
            | "dedup" , "(" , field_name , ")"
            | "locale" , "(" , string_literal , ")"
            | "cache" , "(" , "ttl" , "=" , positive_integer , ")"
            | extension_option ;
disclosure_level = "summary" | "headlines" | "full" ;
pipeline = pipe_item , { pipe_item } ;
pipe_item = "|" , pipe_stage ;
limit_stage = "LIMIT" , positive_integer ;
project_field = field_name | grain_field_name | domain_field ;
'''

# The productions the generator never enters: `document` is our extension above `query`.
NOT_REACHED = {"document"}

IDENTIFIERS = ["ctx", "prefs", "team_prefs", "alpha", "beta2", "work_notes", "p1", "who", "topic", "brief_v2",
               "Mixed_Case", "x9"]
WORDS = ["alice", "bob", "dark mode", "project phoenix", "team-alpha", "tea", "berlin", "q1 review", "mg:prefers",
         "last 7 days", "2026-03-01", "café", "日本語のメモ", "naïve", "say \\\"hi\\\"", "C:\\\\path", "", "en",
         "release notes", "incident 42"]
SINGULAR = ["belief", "event", "state", "workflow", "action", "observation", "goal", "reasoning", "consensus",
            "consent"]
DOMAIN_PREFIXES = ["hc", "legal", "fin", "rob", "sci", "con", "int"]
TEMPLATE_TEXTS = ["", "{{subject}}", " Memory: {{content}} ", "- {{subject}} {{relation}} {{object}}\n",
                  "{{#grains}}{{subject}}{{/grains}}", "## Context {{budget}}", "plain text, no tags"]
# CAL §2.4, the 29 excluded words (CONSENT left out: in ADD and DESCRIBE fields it is the
# grain type `consent`, ruling G-types, so replacing that token with it is no mutation).
EXCLUDED = ["DELETE", "DROP", "FORGET", "ERASE", "DESTROY", "PURGE", "TRUNCATE", "INSERT", "CREATE", "WRITE",
            "STORE", "KEY", "ENCRYPT", "DECRYPT", "ROTATE", "MASTER", "DEK", "SECRET", "POLICY", "SEAL",
            "UNSEAL", "GRANT", "REVOKE", "RESTRICT", "SCHEMA", "PARTITION", "INDEX", "MIGRATION"]


def hexes(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def number(r):
    whole = r.choice(["0", "1", "3", "42", "100", "2026", "007"])
    frac = r.choice(["", "", ".5", ".25", ".0", ".125"])
    return ("-" if r.random() < .2 else "") + whole + frac


def string_literal(r):
    return '"' + r.choice(WORDS) + '"'


# One token each: (production, writer). The names are cal.ebnf's.
LEXICAL = {
    "version_prefix": lambda r: "CAL/1",
    "string_literal": string_literal,
    "number": number,
    "positive_integer": lambda r: str(r.choice([0, 1, 2, 5, 10, 20, 50, 100, 250, 1000, 5000])),
    "hash_literal": lambda r: "sha256:" + hexes(r, r.choice([8, 12, 16, 32, 64])),
    "parameter": lambda r: "$" + r.choice(IDENTIFIERS),
    "identifier": lambda r: r.choice(IDENTIFIERS),
    "word": lambda r: r.choice(IDENTIFIERS),
    "extension_name": lambda r: "x_" + r.choice(["hnsw_ef", "trace", "a1", "Vendor_hint"]),
    "domain_field": lambda r: r.choice(DOMAIN_PREFIXES) + ":" + r.choice(["patient_id", "case_no", "ticker", "x"]),
    "template_text": lambda r: r.choice(TEMPLATE_TEXTS),
    "type_name": lambda r: '"' + r.choice(SINGULAR) + '"',
}

# §24: the level a production (or keyword) belongs to; a case takes the highest it uses.
EXTENDED = {"explain_stmt", "set_stmt", "subquery_extract", "history_stmt", "describe_stmt", "batch_stmt",
            "coalesce_stmt", "let_binding", "since_clause", "like_clause", "contradictions_clause", "between_clause",
            "assemble_stmt", "with_clause", "as_clause", "grain_field_condition", "relation_shortcut",
            "domain_field_condition", "thread_clause", "select_stage", "order_stage", "offset_stage", "count_stage",
            "first_stage", "subjects_stage", "objects_stage", "hashes_stage", "group_stage", "MY", "BETWEEN"}
EVOLVE = {"add_stmt", "supersede_stmt", "revert_stmt"}
# How often an alternative is taken, by the production (or keyword) it starts with: 1 unless
# named here, so that queries are mostly statements and mostly RECALL, as users write them.
WEIGHTS = {"define_template_stmt": .15, "recall_stmt": 5, "assemble_stmt": 1.5}
FULL = {"stream_clause", "define_template_stmt", "project_stage", "template_body", "grammar", "templates"}


def grammar():
    """cal.ebnf's productions with the spec forms in place of its extensions."""
    base = ebnf.read(open(GRAMMAR, encoding="utf-8").read())
    spec = ebnf.read(SPEC_FORMS)
    missing = [n for n in base.marked("EXTENSION") if n not in spec.rules and n not in LEXICAL and n not in NOT_REACHED]
    if missing:
        raise SystemExit(f"grammar/cal.ebnf marks EXTENSION on {missing}: give each its CAL §4 form in SPEC_FORMS")
    rules = dict(base.rules)
    rules.update(spec.rules)
    for name in LEXICAL:
        rules.pop(name, None)
    undefined = set().union(*(ebnf.names(n) for n in rules.values())) - set(rules) - set(LEXICAL)
    if undefined:
        raise SystemExit(f"productions used but not defined: {sorted(undefined)}")
    return rules


def heights(rules):
    """The fewest production steps each production needs to reach only tokens."""
    h = {n: 0 for n in LEXICAL}
    inf = float("inf")

    def of(node):
        k = node[0]
        if k == "nt":
            return h.get(node[1], inf)
        if k == "seq":
            return max((of(n) for n in node[1]), default=0)
        if k == "alt":
            return min(of(n) for n in node[1])
        if k in ("opt", "rep"):
            return 0
        if k == "plus":
            return of(node[1])
        return 0

    changed = True
    while changed:
        changed = False
        for name, rhs in rules.items():
            v = of(rhs) + 1
            if v < h.get(name, inf):
                h[name] = v
                changed = True
    return h, of


class Derivation:
    """One sentence: its tokens ((text, kind) with kind keyword/terminal/lexical/template) and the
    productions it used."""

    def __init__(self, rng, rules, height, barred=frozenset()):
        self.r = rng
        self.rules = rules
        self.height = height
        # Productions and keywords of a higher level than the profile's (never entered).
        self.barred = barred
        self.tokens = []
        self.used = set()

    def run(self, node, depth):
        r, k = self.r, node[0]
        if k == "term":
            text = node[1]
            kind = "keyword" if text.isupper() and text.replace("_", "").isalpha() else "terminal"
            self.tokens.append((text, kind))
            if text in EXTENDED or text in FULL:
                self.used.add(text)
        elif k == "nt":
            name = node[1]
            self.used.add(name)
            if name in LEXICAL:
                self.tokens.append((LEXICAL[name](r), "template" if name == "template_text" else "lexical"))
            else:
                self.run(self.rules[name], depth + 1)
        elif k == "seq":
            for n in node[1]:
                self.run(n, depth)
        elif k == "alt":
            alts = [a for a in node[1] if head(a) not in self.barred] or node[1]
            if depth > DEPTH:
                low = min(self.height(a) for a in alts)
                alts = [a for a in alts if self.height(a) == low]
            self.run(r.choices(alts, [WEIGHTS.get(head(a), 1) for a in alts])[0], depth)
        elif k == "opt":
            if depth <= DEPTH and head(node[1]) not in self.barred and r.random() < .4:
                self.run(node[1], depth)
        elif k in ("rep", "plus"):
            more = depth <= DEPTH and head(node[1]) not in self.barred
            n = (1 if k == "plus" else 0) + (r.choice([0, 0, 0, 1, 1, 2]) if more else 0)
            for _ in range(n):
                self.run(node[1], depth)
        else:
            raise SystemExit(f"{k} outside a lexical production: give it a writer in LEXICAL")

    def text(self, case):
        out = []
        for text, kind in self.tokens:
            if kind == "keyword":
                text = case(text)
            out.append(text)
        return " ".join(out)

    def level(self):
        if self.used & FULL:
            return "full"
        if self.used & EVOLVE:
            return "evolve"
        if self.used & EXTENDED:
            return "extended"
        return "core"


def head(node):
    """The production or keyword an alternative starts with."""
    while node[0] in ("seq", "opt", "rep", "plus"):
        node = node[1][0] if node[0] == "seq" else node[1]
    return node[1] if node[0] in ("nt", "term") else None


def keyword_case(r):
    """How this query writes its keywords (§3.1)."""
    mode = r.choices(["upper", "lower", "mixed"], [17, 2, 1])[0]
    if mode == "upper":
        return lambda t: t
    if mode == "lower":
        return str.lower
    return lambda t: "".join(c.lower() if i % 2 else c for i, c in enumerate(t))


def tags(used):
    keep = [u for u in used if u.endswith(("_stmt", "_clause", "_stage", "_condition", "_binding"))]
    return ["generated", "ebnf"] + sorted(keep)


def names_a_label_twice(tokens):
    """Whether a PRIORITY clause names one label twice: §4's `label , { ">" , label }` allows it,
    but an order that ranks a source above itself is no order, and our ruling (checker rulings,
    "Naming a label twice in PRIORITY is CAL-E002") refuses it with a parse-category code, so such
    a derivation is not a case of well-formedness alone."""
    for i, (text, kind) in enumerate(tokens):
        if kind == "keyword" and text == "PRIORITY":
            labels = [tokens[i + 1][0]]
            j = i + 2
            while j + 1 < len(tokens) and tokens[j][0] == ">":
                labels.append(tokens[j + 1][0])
                j += 2
            if len(set(labels)) < len(labels):
                return True
    return False


def derive(rules):
    height, of = heights(rules)
    rng = random.Random(SEED)
    out, seen, coverage = [], set(), {}
    while len(out) < WELL_FORMED:
        # A profile per derivation, so every level has its share: Core only, up to Extended, or all.
        profile = rng.choices(["core", "extended", "full"], [4, 3, 3])[0]
        barred = {"core": EXTENDED | EVOLVE | FULL, "extended": EVOLVE | FULL, "full": set()}[profile]
        d = Derivation(rng, rules, of, frozenset(barred))
        d.run(("nt", "query"), 0)
        text = d.text(keyword_case(rng))
        if names_a_label_twice(d.tokens) or text in seen or len(text.encode()) > 8192:
            continue
        seen.add(text)
        for u in d.used:
            coverage[u] = coverage.get(u, 0) + 1
        out.append((d, text))
    return out, coverage, rng


def cases(rules):
    derived, coverage, rng = derive(rules)
    unused = sorted(ebnf.reachable(rules, "query") - set(coverage) - set(LEXICAL))
    if unused:
        raise SystemExit(f"productions no derivation used: {unused} (raise WELL_FORMED or DEPTH)")
    well = []
    for d, text in derived:
        well.append({
            "id": f"gen.ebnf.wf.{len(well) + 1:05d}",
            "kind": "parse",
            "level": d.level(),
            "tags": tags(d.used),
            "sections": ["4", "3.1", "15.3"],
            "flags": ["generated"],
            "query": text,
            "expect": {"well_formed": True, "round_trip": True},
        })
    mutants = []
    while len(mutants) < MUTANTS:
        i = rng.randrange(len(derived))
        d, _ = derived[i]
        spots = [n for n, (_, kind) in enumerate(d.tokens) if kind != "template"]
        at = rng.choice(spots)
        word = rng.choice(EXCLUDED)
        word = word if rng.random() < .8 else word.lower()
        tokens = list(d.tokens)
        tokens[at] = (word, "excluded")
        text = " ".join(t for t, _ in tokens)
        if len(text.encode()) > 8192:
            continue
        mutants.append({
            "id": f"gen.ebnf.mutant.{len(mutants) + 1:05d}",
            "kind": "parse",
            "level": well[i]["level"],
            "tags": ["generated", "ebnf", "mutant", f"excluded:{word.upper()}"],
            "sections": ["2.4", "4"],
            "flags": ["generated"],
            "description": f"{well[i]['id']} with token {at + 1} replaced by the excluded word {word}",
            "query": text,
            "expect": {"accept": False, "code": "CAL-E002", "phase": "parse"},
        })
    return well, mutants, coverage, derived, rng


GAPS = [" \t", "\n", "   ", "\n\t", " -- a comment\n", "\n-- a whole-line comment\n  ", "\r\n", "\t-- note --\n"]


def variants(rng, derived, well):
    """Metamorphic variants (§3.2, §3.5): each gap between two tokens (none next to template
    text, where whitespace is content) becomes other whitespace or a line comment; the variant
    must read back as the same tree as the sentence it came from."""
    out = []
    picks = rng.sample(range(len(derived)), VARIANTS)
    for i in picks:
        d, base = derived[i]
        parts = [d.tokens[0][0]]
        changed = False
        for (_, before), (text, kind) in zip(d.tokens, d.tokens[1:]):
            if "template" in (before, kind) or rng.random() < .5:
                parts.append(" ")
            else:
                parts.append(rng.choice(GAPS))
                changed = True
            parts.append(text)
        query = "".join(parts)
        if not changed or len(query.encode()) > 8192:
            continue
        case = dict(well[i])
        case.update(id=well[i]["id"].replace(".wf.", ".variant."), tags=well[i]["tags"] + ["metamorphic"],
                    sections=["4", "3.2", "3.5", "15.3"], description=f"{well[i]['id']} with other whitespace and comments",
                    query=query, expect={"well_formed": True, "same_tree_as": base})
        out.append(case)
    return out


def files():
    well, mutants, coverage, derived, rng = cases(grammar())
    metamorphic = variants(rng, derived, well)
    docs = {}
    for name, cs, what in [
        ("wf", well, "sentences derived at random from grammar/cal.ebnf's productions (the spec's forms in place "
                     "of its extensions): no lex or parse error, and a canonical text that reads back as the same tree"),
        ("mutant", mutants, "those sentences with one token replaced by a §2.4 excluded word: CAL-E002, parse phase"),
        ("variant", metamorphic, "those sentences with other whitespace and comments between tokens: the same tree"),
    ]:
        for n in range(0, len(cs), PER_FILE):
            docs[f"ebnf-{name}-{n // PER_FILE + 1:02d}.json"] = {
                "$schema": "../../schema/case-file.schema.json",
                "description": f"Generated (conformance/authoring/generated/ebnf_cases.py, seed {SEED}): {what}. Do not edit.",
                "cases": cs[n:n + PER_FILE],
            }
    return {k: json.dumps(v, indent=1, ensure_ascii=False) + "\n" for k, v in docs.items()}, coverage


def main():
    out, coverage = files()
    if "--coverage" in sys.argv:
        for name, n in sorted(coverage.items(), key=lambda kv: kv[1]):
            print(f"{n:6d}  {name}")
    return stored.store(out, "ebnf-", "--check" in sys.argv, SEED)


if __name__ == "__main__":
    sys.exit(main())
