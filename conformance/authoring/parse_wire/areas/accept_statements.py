"""Accept cases for every statement other than RECALL (§4, §8)."""

from dsl import Area

C, X, V, F = "core", "extended", "evolve", "full"
H = "sha256:a1b2c3d4e5f6a7b8"
H2 = "sha256:0f0e0d0c0b0a0908"
S3 = 'SET subject = "alice" SET relation = "prefers" SET object = "dark mode"'

a = Area("parse/assemble.json", "ASSEMBLE and its clauses (§4 assemble_stmt, §8.2).", X, ("assemble_stmt",), ("8.2",))
SRC = "FROM a: (RECALL beliefs)"
for prod, qs in [
    ("context_name", ["ASSEMBLE ctx " + SRC, "ASSEMBLE " + SRC, "ASSEMBLE user_context_2 " + SRC]),
    ("for_clause", ['ASSEMBLE ctx FOR "conversation about alice" ' + SRC, 'ASSEMBLE FOR "" ' + SRC,
                    'ASSEMBLE ctx FOR "für Zoë, 東京" ' + SRC]),
    ("from_clause", ["ASSEMBLE ctx FROM (RECALL beliefs)", "ASSEMBLE ctx FROM a: (RECALL beliefs), b: (RECALL goals)",
                     "ASSEMBLE ctx FROM a: (RECALL beliefs), (RECALL goals RECENT 5)"]),
    ("source", ["LET $p = RECALL beliefs;\nASSEMBLE ctx FROM prefs: ($p)", "LET $p = RECALL beliefs;\nASSEMBLE ctx FROM prefs: $p",
                "LET $p = RECALL beliefs;\nASSEMBLE ctx FROM $p", "ASSEMBLE ctx FROM history: (RECALL beliefs), recent: (RECALL events)"]),
    ("budget_clause", [f"ASSEMBLE ctx {SRC} BUDGET 2000 tokens", f"ASSEMBLE ctx {SRC} BUDGET 50 grains",
                       f"ASSEMBLE ctx {SRC} BUDGET 16000 tokens", f"ASSEMBLE ctx {SRC} BUDGET 1 grains"]),
    ("priority_clause", [f"ASSEMBLE ctx {SRC}, b: (RECALL goals) PRIORITY a > b",
                         f"ASSEMBLE ctx {SRC}, b: (RECALL goals), c: (RECALL events) PRIORITY c > a > b",
                         f"ASSEMBLE ctx {SRC} PRIORITY a"]),
    ("format_clause", [f"ASSEMBLE ctx {SRC} FORMAT {t}" for t in
                       ["markdown", "json", "yaml", "text", "sml", "triples", "toon", "structured", "readable",
                        "compact", "data"]]),
    ("stream_clause", [f"ASSEMBLE ctx {SRC} STREAM", f"ASSEMBLE ctx {SRC} STREAM {{ all }}",
                       f"ASSEMBLE ctx {SRC} STREAM {{ progress, chunks }}", f"ASSEMBLE ctx {SRC} STREAM {{ budget }}",
                       f"ASSEMBLE ctx {SRC} STREAM {{ all, chunk_size = 200 }}",
                       f"ASSEMBLE ctx {SRC} STREAM {{ chunk_size = 20 }}", f"ASSEMBLE ctx {SRC} STREAM {{ chunk_size = 1000 }}"]),
    ("with_clause", [f"ASSEMBLE ctx {SRC} WITH dedup(subject)", f"ASSEMBLE ctx {SRC} WITH progressive_disclosure(full)",
                     f"ASSEMBLE ctx {SRC} WITH provenance, summarize"]),
    ("assemble_clause", [f'ASSEMBLE ctx BUDGET 100 tokens {SRC} FOR "any order"',
                         f"ASSEMBLE ctx FORMAT sml {SRC} PRIORITY a BUDGET 10 grains",
                         f'ASSEMBLE ctx WITH provenance STREAM FORMAT text BUDGET 300 tokens {SRC} FOR "x"']),
]:
    for q in qs:
        lv = F if prod == "stream_clause" else X
        a.acc(f"parse.assemble.{prod}", q, level=lv, tags=(prod,),
              sections=("11.2",) if prod == "stream_clause" else ("10.1",) if prod == "format_clause" else ())
for q in [f"ASSEMBLE ctx {SRC} FORMAT TEMPLATE semantic_sml",
          "ASSEMBLE ctx " + SRC + " FORMAT TEMPLATE { ELEMENT { - [{{grain.type}}] {{grain.content}} } }",
          "ASSEMBLE ctx " + SRC + " FORMAT TEMPLATE { HEADER { # {{assembly.intent}} } ELEMENT { {{grain.content}} } }"]:
    a.acc("parse.assemble.format_template", q, level=F, tags=("format_spec", "template_body"), sections=("10.6",))
a.acc("parse.assemble.full", 'CAL/1 ASSEMBLE user_context FOR "alice" FROM beliefs: (RECALL beliefs ABOUT "alice" LIMIT 20), '
      'goals: (RECALL goals ABOUT "alice" RECENT 10) BUDGET 2000 tokens PRIORITY beliefs > goals FORMAT markdown '
      'WITH progressive_disclosure, dedup(subject)', tags=("assemble_clause",))

s = Area("parse/statements.json", "EXISTS, HISTORY, DESCRIBE, BATCH, COALESCE, EXPLAIN, set operations, LET, CAL/1.",
         X, ("statement",), ("4", "8"))
for prod, lv, sec, qs in [
    ("exists_stmt", C, "8.3", [f"EXISTS {H}", "EXISTS $h", "EXISTS sha256:" + "ab" * 32, "exists sha256:abcdef0123"]),
    ("history_stmt", X, "8.4", [f"HISTORY {H}", "HISTORY $h", f"HISTORY {H} DIFF {H2}", f"HISTORY {H} DIFF $other",
                                'HISTORY WHERE subject = "alice" AND relation = "prefers"',
                                'HISTORY WHERE relation = "prefers" AND subject = "alice"',
                                'HISTORY WHERE subject = "alice" AND relation = "prefers" AS OF "2025-06-15"',
                                'HISTORY IN "work" WHERE subject = "alice" AND relation = "prefers"',
                                "HISTORY WHERE subject = $s AND relation = $r"]),
    ("diff_clause", X, "8.4", [f"HISTORY {H} DIFF {H2}", f"HISTORY $a DIFF $b", f"HISTORY {H} DIFF sha256:{'f' * 64}"]),
    ("as_of_clause", X, "8.4", ['HISTORY WHERE subject = "a" AND relation = "b" AS OF "yesterday"',
                                'HISTORY WHERE subject = "a" AND relation = "b" AS OF "2026-01-01T00:00:00Z"',
                                'HISTORY WHERE relation = "b" AND subject = "a" AS OF "last week"']),
    ("describe_stmt", X, "8.6", ["DESCRIBE grain_types", "DESCRIBE fields", "DESCRIBE capabilities", "DESCRIBE server"]),
    ("describe_target", F, "8.6", ["DESCRIBE templates", "DESCRIBE grammar", "describe grammar"]),
    ("batch_stmt", X, "8.7", ['BATCH { a: RECALL beliefs }', f'BATCH {{ a: RECALL beliefs, b: EXISTS {H} }}',
                              'BATCH { p: RECALL beliefs ABOUT "alice", h: HISTORY WHERE subject = "a" AND relation = "b", '
                              'd: DESCRIBE server, c: COALESCE(RECALL beliefs, RECALL goals) }']),
    ("batch_entry", X, "8.7", ['BATCH { recent: RECALL events RECENT 5 }', 'BATCH { HISTORY: RECALL beliefs }',
                               'BATCH {\n  a: RECALL beliefs,\n  b: RECALL goals\n}']),
    ("coalesce_stmt", X, "8.13", ["COALESCE(RECALL beliefs, RECALL goals)",
                                  'COALESCE(RECALL beliefs WHERE subject = "a", RECALL beliefs ABOUT "a", RECALL LIKE "a")',
                                  "COALESCE(RECALL beliefs, RECALL goals, RECALL events, RECALL states, RECALL actions)",
                                  "COALESCE (\n  RECALL beliefs,\n  RECALL goals\n)"]),
    ("explain_stmt", X, "8.5", ["EXPLAIN RECALL beliefs", f"EXPLAIN ASSEMBLE ctx FROM a: (RECALL beliefs)",
                                "EXPLAIN (RECALL beliefs) UNION (RECALL goals)", f"EXPLAIN EXISTS {H}",
                                f"EXPLAIN HISTORY {H}", "EXPLAIN DESCRIBE server", "EXPLAIN BATCH { a: RECALL beliefs }",
                                "EXPLAIN COALESCE(RECALL beliefs, RECALL goals)"]),
    ("set_stmt", X, "8.11", ["(RECALL beliefs) UNION (RECALL goals)", "(RECALL beliefs) INTERSECT (RECALL goals)",
                             "(RECALL beliefs) EXCEPT (RECALL goals)",
                             "(RECALL beliefs) UNION (RECALL goals) EXCEPT (RECALL events)",
                             "((RECALL beliefs) UNION (RECALL goals)) INTERSECT (RECALL events)",
                             "(RECALL a1) UNION (RECALL b1)".replace("a1", "beliefs").replace("b1", "states"),
                             " UNION ".join(f"(RECALL WHERE subject = \"s{i}\")" for i in range(5)),
                             "(COALESCE(RECALL beliefs, RECALL goals)) UNION (RECALL events)"]),
    ("let_binding", X, "8.12", ["LET $x = RECALL beliefs | SUBJECTS;\nRECALL beliefs WHERE subject IN ($x)",
                                "LET $x = RECALL beliefs | OBJECTS;\nRECALL WHERE object IN ($x)",
                                "LET $x = RECALL goals | HASHES;\nRECALL goals WHERE depends_on IN ($x)",
                                "LET $x = RECALL beliefs;\nASSEMBLE ctx FROM a: ($x)",
                                "LET $a = RECALL beliefs | SUBJECTS;\nLET $b = RECALL beliefs WHERE subject IN ($a) | SUBJECTS;\n"
                                "ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($b))"]),
    ("version_prefix", C, "25.1", ["CAL/1 RECALL beliefs", "cal/1 RECALL beliefs", "CAL/1\nRECALL beliefs",
                                   "CAL/1 EXISTS " + H]),
]:
    for q in qs:
        s.acc(f"parse.stmt.{prod}", q, level=lv, tags=(prod,), sections=(sec,))
for q in ["DESCRIBE fields " + t for t in ["belief", "event", "state", "workflow", "action", "observation", "goal",
                                          "reasoning", "consensus", "consent"]]:
    s.acc("parse.stmt.describe_fields", q, level=X, tags=("describe_target", "grain_type_singular"), sections=("8.6",))

t = Area("parse/templates.json", "DEFINE TEMPLATE and its sections (§10.6, §10.7).", F, ("define_template_stmt",),
         ("10.6",))
for prod, qs in [
    ("header_section", ["DEFINE TEMPLATE t HEADER { <context intent=\"{{assembly.intent}}\"> }",
                        "DEFINE TEMPLATE t HEADER { # {{assembly.name}} ({{budget.used}}/{{budget.total}}) }",
                        "DEFINE TEMPLATE t HEADER {}"]),
    ("element_section", ["DEFINE TEMPLATE t ELEMENT { {{grain.content}} }",
                         "DEFINE TEMPLATE t ELEMENT { <{{grain.type}} subject=\"{{grain.subject}}\">{{grain.content}}</{{grain.type}}> }",
                         "DEFINE TEMPLATE t ELEMENT { {{#grain.confidence}}({{grain.confidence}}){{/grain.confidence}} }"]),
    ("element_summary_section", ["DEFINE TEMPLATE t ELEMENT_SUMMARY { {{grain.subject}}: {{grain.content}} }",
                                 "DEFINE TEMPLATE t ELEMENT { a } ELEMENT_SUMMARY { b }",
                                 "DEFINE TEMPLATE t ELEMENT_SUMMARY { - {{grain.humanized_relation}} }"]),
    ("element_omit_section", ["DEFINE TEMPLATE t ELEMENT_OMIT { ({{source.label}} truncated) }",
                              "DEFINE TEMPLATE t ELEMENT { x } ELEMENT_OMIT { ... }", "DEFINE TEMPLATE t ELEMENT_OMIT { }"]),
    ("source_break_section", ["DEFINE TEMPLATE t SOURCE_BREAK { --- }", "DEFINE TEMPLATE t SOURCE_BREAK {\n}",
                              "DEFINE TEMPLATE t SOURCE_BREAK { ## {{source.label}} }"]),
    ("footer_section", ["DEFINE TEMPLATE t FOOTER { </context> }", "DEFINE TEMPLATE t FOOTER { {{timestamp}} }",
                        "DEFINE TEMPLATE t ELEMENT { x } FOOTER { end }"]),
    ("extends_clause", ["DEFINE TEMPLATE t EXTENDS structured ELEMENT { x }", "DEFINE TEMPLATE t EXTENDS readable ELEMENT { x }",
                        "DEFINE TEMPLATE t EXTENDS compact FOOTER { x }"]),
    ("mustache_tag", ["DEFINE TEMPLATE t ELEMENT { {{^grain.is_summary}}{{grain.content}}{{/grain.is_summary}} }",
                      "DEFINE TEMPLATE t ELEMENT { {{! a comment }}{{grain.content}} }",
                      "DEFINE TEMPLATE t HEADER { {{#each}}x{{/each}} }"]),
    ("template_text", ["DEFINE TEMPLATE t ELEMENT { {\"json\": \"{{grain.content}}\"} }",
                       "DEFINE TEMPLATE t ELEMENT { -- not a comment here }", "DEFINE TEMPLATE t ELEMENT { zoë 東京 }"]),
]:
    for q in qs:
        t.acc(f"parse.template.{prod}", q, tags=(prod,))
t.acc("parse.template.all", "CAL/1 DEFINE TEMPLATE semantic_sml EXTENDS structured HEADER { h } ELEMENT { e } "
      "ELEMENT_SUMMARY { s } ELEMENT_OMIT { o } SOURCE_BREAK { b } FOOTER { f }", tags=("template_body", "section"))

e = Area("parse/evolve.json", "ADD, SUPERSEDE, REVERT (§4 Tier 1, §8.8-§8.10).", V, ("evolve",), ("8.8",))
for prod, sec, qs in [
    ("add_stmt", "8.8", [f'ADD belief {S3} REASON "stated"', f'ADD belief {S3} SET confidence = 0.9 SET importance = 0.5 '
                         'SET tags = ["preference", "ui"] REASON "onboarding"',
                         f'ADD goal {S3} SET goal_state = "active" SET assigned_agent = "did:web:a" SET deadline = "2026-03-15" '
                         'SET depends_on = "sha256:a1b2c3d4" REASON "planning"',
                         f'ADD observation {S3} SET observer_id = "obs-1" SET observer_type = "agent:tracker" REASON "seen"',
                         'ADD belief SET object = "o" SET relation = "r" SET subject = "s" REASON "any order"']),
    ("add_field", "5.3", [f'ADD belief {S3} SET confidence = 1 REASON "r"', f'ADD belief {S3} SET importance = 0 REASON "r"',
                          f'ADD belief {S3} SET tags = [] REASON "r"', 'ADD belief SET subject = $s SET relation = $r '
                          'SET object = $o REASON "params"']),
    ("supersede_stmt", "8.9", [f'SUPERSEDE {H} SET object = "light mode" REASON "changed"',
                               f'SUPERSEDE {H} SET object = "x" SET confidence = 0.95 SET importance = 0.2 SET tags = ["t"] REASON "all four"',
                               'SUPERSEDE $target SET confidence = 0.1 REASON "less sure"']),
    ("set_clause", "5.3", [f'SUPERSEDE {H} SET tags = ["a", "b"] REASON "r"', f'SUPERSEDE {H} SET importance = 1 REASON "r"',
                           f'SUPERSEDE {H} SET confidence = 0.5 REASON "r"']),
    ("revert_stmt", "8.10", [f'REVERT {H} REASON "misunderstood"', 'REVERT $h REASON "undo"',
                             f'REVERT {H}\nREASON "über-correction, 東京"']),
    ("reason_clause", "8.8", [f'REVERT {H} REASON "' + "r" * 500 + '"', f'REVERT {H} REASON "why \\"quoted\\""',
                              f'EXPLAIN ADD belief {S3} REASON "preview"']),
]:
    for q in qs:
        e.acc(f"parse.evolve.{prod}", q, tags=(prod,), sections=(sec,))

AREAS = [a, s, t, e]
