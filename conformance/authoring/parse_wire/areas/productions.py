"""Three or more deliberate accept cases for each grammar production
(grammar/cal.ebnf) not already pinned by a statement area, and for the
keywords that only a few cases used; the keywords that have no production
(OR, NOT, NULL, UNDEFINE: grammar ruling C2) get reject cases."""

from dsl import Area, level_of

pr = Area("parse/productions.json", "Accept cases naming the production of cal.ebnf they pin.", "core",
          ("production",), ("4",))
H = "sha256:a1b2c3d4"
ROWS = {
    "query": ['CAL/1 LET $x = RECALL beliefs | SUBJECTS;\nRECALL WHERE subject IN ($x)', "CAL/1 RECALL", "RECALL beliefs"],
    "major_version": ["CAL/1 RECALL", "cal/1 DESCRIBE server", "CAL/1 EXISTS $h"],
    "let_block": ["LET $a = RECALL beliefs;\nASSEMBLE ctx FROM ($a)",
                  "LET $a = RECALL beliefs;\nLET $b = RECALL goals;\nASSEMBLE ctx FROM x: ($a), y: ($b)",
                  "LET $s = RECALL beliefs | SUBJECTS;\nRECALL goals WHERE subject IN ($s)"],
    "set_operand": ["(RECALL beliefs | LIMIT 5) UNION (RECALL goals RECENT 3)",
                    "(COALESCE(RECALL beliefs, RECALL goals)) EXCEPT (RECALL events)",
                    "((RECALL beliefs) UNION (RECALL goals)) INTERSECT (RECALL states)"],
    "set_op": ["(RECALL beliefs) UNION (RECALL goals)", "(RECALL beliefs) INTERSECT (RECALL goals)",
               "(RECALL beliefs) EXCEPT (RECALL goals)", "(RECALL beliefs) intersect (RECALL events)"],
    "section": ["DEFINE TEMPLATE t HEADER { h }", "DEFINE TEMPLATE t ELEMENT { e } FOOTER { f }",
                "DEFINE TEMPLATE t SOURCE_BREAK { b } ELEMENT_OMIT { o }"],
    "template_char": ["DEFINE TEMPLATE t ELEMENT { a < b > & ' \" \\ }", "DEFINE TEMPLATE t ELEMENT { 東京 😀 }",
                      "DEFINE TEMPLATE t ELEMENT { a\tb\nc }"],
    "label": ["ASSEMBLE ctx FROM beliefs: (RECALL beliefs)", "BATCH { recent: RECALL events RECENT 5 }",
              "ASSEMBLE ctx FROM src_1: (RECALL beliefs), SRC2: (RECALL goals) PRIORITY SRC2 > src_1"],
    "let_ref": ["LET $team = RECALL beliefs;\nASSEMBLE ctx FROM $team", "LET $team = RECALL beliefs;\nASSEMBLE ctx FROM t: ($team)",
                "LET $team = RECALL beliefs;\nASSEMBLE ctx FROM t: $team, g: (RECALL goals)"],
    "stream_option": ["ASSEMBLE ctx FROM (RECALL beliefs) STREAM { progress }",
                      "ASSEMBLE ctx FROM (RECALL beliefs) STREAM { chunks, budget }",
                      "ASSEMBLE ctx FROM (RECALL beliefs) STREAM { chunk_size = 100 }"],
    "subject_clause": ['HISTORY WHERE subject = "alice" AND relation = "prefers"',
                       "HISTORY WHERE subject = $who AND relation = \"prefers\"",
                       'HISTORY WHERE relation = "knows" AND subject = "東京"'],
    "relation_clause": ['HISTORY WHERE subject = "a" AND relation = "mg:prefers"', 'HISTORY WHERE subject = "a" AND relation = $r',
                        'HISTORY WHERE relation = "works_at" AND subject = "bob"'],
    "field_ref": ['RECALL WHERE subject = "a"', "RECALL | ORDER BY confidence", "RECALL beliefs | SELECT hc:patient_id",
                  "RECALL consents WHERE scope = \"metrics\""],
    "field_name": ['RECALL WHERE user_id = "u"', 'RECALL WHERE namespace = "n"', 'RECALL WHERE verification_status = "contested"',
                   'RECALL WHERE source_type = "agent"'],
    "meta_field_name": ['RECALL WHERE recall_priority = "warm"', 'RECALL WHERE epistemic_status = "certain"',
                        'RECALL WHERE verification_status = "retracted"', 'RECALL WHERE recall_priority = "cold"',
                        'RECALL WHERE epistemic_status = "uncertain"', 'RECALL WHERE epistemic_status = "estimated"',
                        'RECALL WHERE epistemic_status = "derived"', 'RECALL WHERE verification_status = "unverified"'],
    "known_field": ["RECALL WHERE query = \"q\"", "RECALL WHERE type = \"goal\"", "RECALL WHERE time = \"today\""],
    "event_field": ['RECALL events WHERE role = "assistant"', 'RECALL events WHERE model_id = "m"',
                    'RECALL events WHERE parent_message_id = "p"'],
    "state_field": ['RECALL states WHERE context = "c"', 'RECALL states WHERE plan = "p"', 'RECALL states WHERE context != "x"'],
    "workflow_field": ['RECALL workflows WHERE trigger = "t"', 'RECALL workflows WHERE steps = "s"',
                       'RECALL workflows WHERE trigger != "on:cron"'],
    "action_field": ['RECALL actions WHERE tool_call_id = "c"', "RECALL actions WHERE is_error = true",
                     'RECALL actions WHERE tool_name != "x"'],
    "observation_field": ['RECALL observations WHERE observer_id = "o"', 'RECALL observations WHERE observer_type = "t"',
                          'RECALL observations WHERE observer_id != "o"'],
    "goal_field": ['RECALL goals WHERE assigned_agent != "a"', 'RECALL goals WHERE depends_on IN ("sha256:a1b2c3d4")',
                   'RECALL goals WHERE deadline = "2026-01-01"'],
    "reasoning_field": ['RECALL reasonings WHERE reasoning_type = "inductive"', 'RECALL reasonings WHERE reasoning_type = "analogical"',
                        'RECALL reasonings WHERE conclusion = "c"'],
    "consensus_field": ["RECALL consensuses WHERE threshold = 0.66", "RECALL consensuses WHERE agreement_count >= 2",
                        'RECALL consensuses WHERE participating_observers INCLUDE ["a", "b"]'],
    "consent_field": ['RECALL consents WHERE grantor_did = "did:key:x"', 'RECALL consents WHERE purpose != "ads"',
                      'RECALL consents WHERE expires_at BETWEEN "2026-01-01" AND "2027-01-01"'],
    "diversity_spec": ["RECALL WITH diversity(mmr, lambda = 0)", "RECALL WITH diversity(threshold, 0.5)", "RECALL WITH diversity(mmr)"],
    "consistency_level": ["RECALL WITH consistency(eventual)", "RECALL WITH consistency(bounded(10))",
                          "RECALL WITH consistency(linearizable)"],
    "disclosure_level": ["RECALL WITH progressive_disclosure(summary)", "RECALL WITH progressive_disclosure(headlines)",
                         "RECALL WITH progressive_disclosure(full)", "RECALL WITH progressive_disclosure(standard)"],
    "extension_name": ["RECALL WITH x_a", "RECALL WITH x_hnsw_ef(200)", "RECALL WITH x_9_lives"],
    "add_clause": ['ADD belief SET subject = "s" SET relation = "r" SET object = "o" REASON "r"',
                   'ADD belief SET subject = $s SET relation = "r" SET object = "o" SET tags = ["t"] REASON "r"',
                   'ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET assigned_agent = "a" REASON "r"'],
    "grain_add_field": ['ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET depends_on = "sha256:a1b2c3d4" REASON "r"',
                        'ADD observation SET subject = "s" SET relation = "r" SET object = "o" SET observer_type = "t" REASON "r"',
                        'ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET goal_state = "blocked" REASON "r"'],
    "goal_add_field": ['ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET goal_state = "active" REASON "r"',
                       'ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET deadline = "2026-12-31" REASON "r"',
                       'ADD goal SET subject = "s" SET relation = "r" SET object = "o" SET assigned_agent = "did:web:x" REASON "r"'],
    "observation_add_field": ['ADD observation SET subject = "s" SET relation = "r" SET object = "o" SET observer_id = "i" REASON "r"',
                              'ADD observation SET subject = "s" SET relation = "r" SET object = "o" SET observer_type = "agent:x" REASON "r"',
                              'ADD observation SET observer_id = "i" SET subject = "s" SET relation = "r" SET object = "o" REASON "r"'],
    "evolve_field": [f'SUPERSEDE {H} SET object = "o" REASON "r"', f'SUPERSEDE {H} SET confidence = 0.1 REASON "r"',
                     f'SUPERSEDE {H} SET importance = 0.9 REASON "r"', f'SUPERSEDE {H} SET tags = ["t"] REASON "r"'],
    "string_literal": ['RECALL ABOUT ""', 'RECALL ABOUT "a \\"quoted\\" word"', 'RECALL ABOUT "back\\\\slash"',
                       'RECALL ABOUT "C:\\path\\n"', 'RECALL ABOUT "-- not a comment"', 'RECALL ABOUT "東京 😀 zoë"'],
    "number": ["RECALL WHERE confidence >= 0", "RECALL WHERE importance >= 0.5", "RECALL WHERE tags INCLUDE [\"profile:finance\"] AND fin:balance > -1.5",
               "RECALL WHERE confidence = 1.0"],
    "boolean": ["RECALL WHERE contradicted = true", "RECALL WHERE contradicted = false", "RECALL WHERE contradicted = True"],
    "parameter": ["RECALL WHERE subject = $user_id", "RECALL | LIMIT $limit", "RECALL WHERE subject = $u2",
                  "RECALL WHERE subject = $a AND object = $a"],
    "array_literal": ['RECALL WHERE tags INCLUDE ["a"]', "RECALL WHERE tags INCLUDE []",
                      'RECALL WHERE tags INCLUDE ["a", $b, "c"]'],
    "hash_literal": ["EXISTS sha256:abcdef01", "EXISTS sha256:" + "0" * 64, "EXISTS sha256:abcdef0123456789",
                     "EXISTS sha256:0123456789"],
    "identifier": ["ASSEMBLE c1 FROM (RECALL beliefs)", "ASSEMBLE my_context FROM (RECALL beliefs)",
                   "DEFINE TEMPLATE tpl_2 ELEMENT { x }"],
    "template_name": ["ASSEMBLE ctx FROM (RECALL beliefs) FORMAT TEMPLATE mine", "DEFINE TEMPLATE semantic_sml ELEMENT { x }",
                      "DEFINE TEMPLATE t2 EXTENDS readable ELEMENT { x }"],
    "positive_integer": ["RECALL events RECENT 7", "RECALL | OFFSET 0", "ASSEMBLE ctx FROM (RECALL beliefs) BUDGET 4000 tokens",
                         "RECALL WITH cache(ttl = 86400)"],
    "hex_char": ["EXISTS sha256:0123456789abcdef", "EXISTS sha256:fedcba98", "EXISTS sha256:9a8b7c6d5e4f"],
    "word": ["BATCH { order: RECALL beliefs }", "RECALL WHERE subject IN ($limit)",
             'RECALL consents WHERE scope = "s"'],
    "in_clause": ['RECALL IN SCOPE "a"', 'RECALL beliefs IN SCOPE "team" WHERE subject = "x"', 'RECALL IN "plain"'],
}
for prod, qs in ROWS.items():
    for q in qs:
        warn = ("CAL-W004",) if "x_" in q else ("CAL-W002",) if "hc:patient_id" in q else ()
        pr.acc("parse.production." + prod, q, level=level_of(q), tags=(prod,), warnings=warn)
for cat, q in [("KNOWLEDGE", "RECALL WHERE relation IS KNOWLEDGE"), ("KNOWLEDGE", 'RECALL beliefs ABOUT "a" WHERE relation IS KNOWLEDGE'),
               ("INTERACTION", "RECALL WHERE relation IS INTERACTION"), ("INTERACTION", "RECALL events WHERE relation IS INTERACTION"),
               ("AGENCY", "RECALL WHERE relation IS AGENCY"), ("AGENCY", "RECALL goals WHERE relation IS AGENCY"),
               ("LIFECYCLE", "RECALL WHERE relation IS LIFECYCLE"), ("LIFECYCLE", "RECALL goals WHERE relation IS LIFECYCLE"),
               ("OBSERVATION", "RECALL WHERE relation IS OBSERVATION"), ("OBSERVATION", "RECALL observations WHERE relation IS OBSERVATION"),
               ("PERMISSION", "RECALL consents WHERE relation IS PERMISSION"),
               ("EXCLUDE", 'RECALL goals WHERE tags EXCLUDE ["done"]'), ("SCOPE", 'RECALL events IN SCOPE "s"'),
               ("INTERSECT", "(RECALL goals) INTERSECT (RECALL beliefs) INTERSECT (RECALL events)")]:
    pr.acc("parse.keyword." + cat.lower(), q, level="extended", tags=("keyword",), sections=("3.2",))

nk = Area("parse/keywords-without-production.json", "OR, NOT, NULL and UNDEFINE are reserved keywords with no production "
          "(§3.2, Appendix D; grammar ruling C2): wherever written, CAL-E002.", "core", ("keyword", "syntax"), ("3.2", "3.6"))
for q, at in [('RECALL WHERE subject = "a" OR subject = "b"', "OR"), ("RECALL OR", "OR"), ('RECALL\nWHERE object = "zoë" OR', "OR"),
              ('RECALL WHERE NOT contradicted = true', "NOT"), ("NOT RECALL", "NOT"), ('RECALL beliefs NOT IN "x"', "NOT"),
              ("RECALL WHERE subject = NULL", "NULL"), ('RECALL WHERE subject = "a" AND object = NULL', "NULL"),
              ("RECALL | SELECT NULL", "NULL"), ("UNDEFINE TEMPLATE t", "UNDEFINE"), ("DEFINE TEMPLATE t ELEMENT { x } UNDEFINE", "UNDEFINE"),
              ('RECALL ABOUT "a" UNDEFINE', "UNDEFINE")]:
    nk.rej("parse.keyword.no_production", q, "CAL-E002", at)

rw = Area("parse/reserved-words.json", "Reserved and future-reserved words (Appendix D) cannot be unquoted identifiers: "
          "a context name or template name spelled as one is CAL-E002.", "extended", ("reserved_word", "syntax"),
          ("3.6", "D"))
for w in ["FIND", "RELATE", "TIMELINE", "TRACE", "GRAPH", "ANNOTATE", "MATCHING", "SIMILAR", "NEAR", "TAGGED", "USER", "VIA",
          "DEPTH", "TOP", "UNTIL", "LAST", "HAVING", "DIVERSITY", "MMR", "THRESHOLD", "RERANK", "PROVENANCE", "SUPERSEDED",
          "EXPLANATION", "SCORE_BREAKDOWN", "CONSISTENCY", "EVENTUAL", "BOUNDED", "LINEARIZABLE", "CACHE", "PIN", "UNPIN",
          "MERGE", "LANG", "CHUNK", "PAUSE", "RESUME", "CANCEL"]:
    rw.rej("parse.reserved.context_name", f"ASSEMBLE {w.lower()} FROM a: (RECALL beliefs)", "CAL-E002", w.lower(),
           tags=(f"reserved:{w}",))
for w in ["select", "order", "limit", "recall", "history"]:
    rw.rej("parse.reserved.template_name", f"DEFINE TEMPLATE {w} ELEMENT {{ x }}", "CAL-E002", w, level="full",
           tags=(f"reserved:{w.upper()}",))

AREAS = [pr, nk, rw]
