"""Rendered output (issue 23, "every output checked"): the formatted text of
RECALL AS every format and preset and of ASSEMBLE FORMAT, PROJECT, EXPLAIN
plans and DESCRIBE content. An engine that answers with addresses only fails
these at Extended and Full.

The spec fixes what a rendering says, rarely its bytes, so most checks are
invariants (docs/spec-decisions-conformance.md C18), each computed here from
the fixture by the oracle, not read from our toolchain:

* the projected content of every result (§10.3.2: a belief's is
  humanize(relation) + " " + object) and its subject attribute appear;
* nothing of the machine envelope does (§14.2 "MUST NOT": content
  addresses, namespaces) and no raw relation either (§10.3.3 "MUST apply
  humanize()");
* `AS json` / `AS data` is a JSON document; TOON is compared exactly
  (§10.9.3 gives every byte; rule C12 accepts either row layout);
* PROJECT keeps what it lists and drops the rest (§10.3.5), and TOON's
  columns are the projected fields (§10.9.6);
* EXPLAIN runs nothing (§8.5) and reports §13's store-operation bounds;
* DESCRIBE names what §5.1, §6.3 and §24 say it lists.
"""

from book import add
from oracle import fixture

BB = "beliefs-basic"
TOP2 = ["carol-team", "carol-wcag"]  # carol's two most confident beliefs (1.0, 0.95)
Q = 'RECALL beliefs WHERE subject = "carol" | ORDER BY confidence DESC | LIMIT 2'
TYPES = ["belief", "event", "state", "workflow", "action", "observation", "goal", "reasoning", "consensus", "consent"]


def humanize(relation):
    """§10.3.3: strip a namespace prefix, underscores to spaces."""
    head, sep, rest = relation.partition(":")
    if sep and head and rest and all(c.isalnum() or c in "_-" for c in head):
        relation = rest
    return relation.replace("_", " ")


def number(x):
    """§10.9.3 canonical decimal: no exponent, no trailing fractional zeros."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def grains(keys):
    f = fixture(BB)
    return [f.rec(k)["g"] for k in keys]


def addresses(keys):
    f = fixture(BB)
    return [f.hexof(k) for k in keys]


def content(g):
    """§10.3.2's content of a belief."""
    return humanize(g["relation"]) + " " + g["object"]


def envelope_only(keys):
    """What §14.2 keeps out of the content layer, and the raw relations §10.3.3 humanizes."""
    out = addresses(keys) + sorted({g["namespace"] for g in grains(keys)})
    for g in grains(keys):
        if humanize(g["relation"]) != g["relation"]:
            out.append(g["relation"])
    return out


def formats():
    n = iter(range(1, 1000))
    gs = grains(TOP2)
    for fmt in ["sml", "markdown", "text", "json", "yaml", "toon", "triples",
                "structured", "readable", "compact", "data"]:
        if fmt == "triples":
            # §10.1: "subject-relation-object triples"; the pieces, not the joined content.
            parts = [g["subject"] for g in gs] + [humanize(g["relation"]) for g in gs] + [g["object"] for g in gs]
        else:
            parts = [content(g) for g in gs] + [g["subject"] for g in gs]
        inv = [{"pointer": "/formatted", "contains": parts, "section": "10.3.2"},
               {"pointer": "/formatted", "excludes": envelope_only(TOP2), "section": "14.2"}]
        fields = None
        if fmt in ("json", "data"):
            inv.append({"pointer": "/formatted", "parses_as": "json", "section": "10.1"})
        if fmt == "toon":
            rows = [f"{g['subject']},{content(g)},{number(g['confidence'])}" for g in gs]
            fields = {"/formatted": "\n".join([f"beliefs[{len(gs)}]{{subject,content,confidence}}:"] + rows),
                      "/format": "toon"}
        add("rendered", f"execute.rendered.format.{next(n):03d}", BB, f"{Q} AS {fmt}", "extended",
            ["recall", "format", fmt], ["10.1", "10.3.2", "14.2"] + (["10.9.3"] if fmt == "toon" else []),
            keys=TOP2, ordered=True, fields=fields, invariants=inv,
            desc=f"AS {fmt}: the formatted text shows each grain's projected content and none of the envelope.")


def assemble_formats():
    n = iter(range(1, 1000))
    gs = grains(TOP2)
    for fmt in ["sml", "markdown", "text", "json", "toon", "readable", "compact"]:
        query = f'ASSEMBLE review FOR "carol review" FROM a: ({Q}) BUDGET 1000 tokens FORMAT {fmt}'
        inv = [{"pointer": "/formatted_context/text", "contains": [content(g) for g in gs], "section": "10.3.2"},
               {"pointer": "/formatted_context/text", "excludes": envelope_only(TOP2), "section": "14.2"}]
        add("rendered", f"execute.rendered.assemble.{next(n):03d}", BB, query, "extended",
            ["assemble", "format", fmt], ["8.2", "10.1", "14.2"],
            fields={"/_cal/statement_type": "assemble", "/_cal/budget/grains_returned": 2}, invariants=inv,
            desc=f"ASSEMBLE FORMAT {fmt}: the context text shows the grains' content, not the envelope.")


def project():
    n = iter(range(1, 1000))
    gs = grains(TOP2)
    objects = [g["object"] for g in gs]

    def p(spec, fmt, inv, **kw):
        add("rendered", f"execute.rendered.project.{next(n):03d}", BB, f"{Q} | PROJECT {spec} AS {fmt}", "full",
            ["pipeline", "project", fmt], ["10.3.5"], keys=TOP2, ordered=True, invariants=inv, **kw)

    # Only the listed fields reach the formatted text (§10.3.5): no relation, no subject.
    p("content(object), attr(confidence)", "sml",
      [{"pointer": "/formatted", "contains": objects},
       {"pointer": "/formatted", "excludes": [content(g) for g in gs] + ["carol"]}],
      desc="PROJECT content(object): the objects alone, without the relation or the unlisted subject.")
    # Relation-type fields in content() go through humanize() (§10.3.5, §10.3.3).
    p("content(relation, object)", "markdown",
      [{"pointer": "/formatted", "contains": [content(g) for g in gs]},
       {"pointer": "/formatted", "excludes": envelope_only(TOP2)}],
      desc="PROJECT content(relation, object): joined with a space, relations humanized.")
    # TOON's columns are the projected fields, content first (§10.9.6).
    p("content(object), attr(subject)", "toon",
      [{"pointer": "/formatted", "contains": [f"beliefs[2]{{content,subject}}:"] +
        [f"{g['object']},{g['subject']}" for g in gs], "section": "10.9.6"}],
      desc="PROJECT with TOON: the projected fields are the column headers.")
    # The JSON result's `projected` member is our envelope's, so it is a ruling check (C18).
    rulings = {f"field /results/{i}/projected/content": "spec-decisions-conformance.md C18" for i in range(2)}
    p("content(object), attr(confidence)", "json", [{"pointer": "/formatted", "contains": objects}],
      fields={f"/results/{i}/projected/content": g["object"] for i, g in enumerate(gs)}, rulings=rulings,
      desc="PROJECT in the machine envelope: each result's projected content (our member, a ruling).")


def explain():
    n = iter(range(1, 1000))
    for query, lo, hi, tags in [
        ('RECALL beliefs WHERE subject = "carol"', 1, 1, ["recall"]),
        ('(RECALL beliefs WHERE subject = "carol") UNION (RECALL goals)', 2, 2, ["set_op", "union"]),
        ('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol"), b: (RECALL goals) BUDGET 500 tokens', 2, 2,
         ["assemble"]),
        ("EXISTS sha256:" + addresses(TOP2)[0], 1, 1, ["exists"]),
        ('HISTORY WHERE subject = "carol" AND relation = "member_of"', 1, 1, ["history"]),
    ]:
        add("rendered", f"execute.rendered.explain.{next(n):03d}", BB, "EXPLAIN " + query, "extended",
            ["explain"] + tags, ["8.5", "13"],
            fields={"/_cal/statement_type": "explain", "/plan/store_ops": {"min": lo, "max": hi}},
            invariants=[{"pointer": "/results", "is": "empty", "section": "8.5"},
                        {"pointer": "/plan", "is": "object", "section": "8.5"}],
            desc=f"EXPLAIN runs nothing and bounds the work: {lo}..{hi} store operations (§13).")


def describe():
    n = iter(range(1, 1000))

    def d(query, level, names, sections, desc):
        add("rendered", f"execute.rendered.describe.{next(n):03d}", BB, query, level,
            ["describe", query.split()[1]], ["8.6"] + sections,
            fields={"/_cal/statement_type": "describe"},
            invariants=[{"pointer": "", "mentions": names}], desc=desc)

    d("DESCRIBE grain_types", "extended", TYPES, ["5.1"], "DESCRIBE grain_types names the ten grain types of §5.1.")
    d("DESCRIBE fields belief", "extended", ["subject", "relation", "object", "confidence", "importance"],
      ["5.2", "6.3"], "DESCRIBE fields belief names a belief's queryable fields.")
    d("DESCRIBE fields", "extended", ["subject", "tool_name", "goal_state", "role", "consent_action"],
      ["5.2", "6.3"], "DESCRIBE fields names the common and the type-specific fields (§6.3).")
    d("DESCRIBE capabilities", "extended", ["cal_conformance", "cal_version", "1.0"], ["24"],
      "DESCRIBE capabilities declares the conformance level and CAL version (§24 MUST).")
    d("DESCRIBE templates", "full", ["structured", "readable", "compact", "data"], ["10.1", "10.6"],
      "DESCRIBE templates lists what FORMAT can name: the presets at least.")


def build():
    formats()
    assemble_formats()
    project()
    explain()
    describe()
