"""Accept cases for RECALL: its clauses, conditions, values and grain types.
Tags name the EBNF productions (grammar/cal.ebnf) each case exercises."""

from dsl import Area

C, X, V, F = "core", "extended", "evolve", "full"

PLURALS = ["beliefs", "events", "states", "workflows", "actions", "observations", "goals", "reasonings",
           "consensuses", "consents"]

# ---------------------------------------------------------------- statement and clauses
r = Area("parse/recall-clauses.json", "RECALL with each of its clauses (§4 recall_stmt, §8.1, §9).", C,
         ("recall_stmt",), ("4", "8.1"))
P = "parse.recall.basic"
r.acc(P, "RECALL")
r.acc(P, "recall beliefs", tags=("grain_type_plural",), sections=("3.1",))
r.acc(P, "Recall Beliefs".replace("Beliefs", "beliefs"), tags=("grain_type_plural",), sections=("3.1",))
for g in PLURALS:
    r.acc("parse.recall.grain_type", f"RECALL {g}", tags=("grain_type_plural",), sections=("5.1",))
P = "parse.recall.my"
r.acc(P, "RECALL MY beliefs", level=X, sections=("9.5",), tags=("my",))
r.acc(P, "RECALL MY", level=X, sections=("9.5",), tags=("my",))
r.acc(P, 'RECALL MY goals ABOUT "q1 review" | LIMIT 5', level=X, sections=("9.5",), tags=("my",))
P = "parse.recall.in"
r.acc(P, 'RECALL beliefs IN "work"', tags=("in_clause",))
r.acc(P, 'RECALL IN SCOPE "team-alpha"', tags=("in_clause",))
r.acc(P, 'RECALL events IN SCOPE "support" WHERE role = "user"', level=X, tags=("in_clause",))
r.acc(P, 'RECALL goals IN "personal" ABOUT "alice"', tags=("in_clause",))
P = "parse.recall.about"
for q in ['RECALL ABOUT "alice"', 'RECALL beliefs ABOUT "alice"', 'RECALL goals ABOUT "zoë"',
          'RECALL beliefs ABOUT "alice" WHERE relation = "prefers"', 'RECALL ABOUT ""',
          'RECALL beliefs ABOUT "say \\"hi\\""']:
    r.acc(P, q, tags=("about_clause",), sections=("9.1",))
P = "parse.recall.recent"
for q in ["RECALL events RECENT 5", 'RECALL events ABOUT "alice" RECENT 1', "RECALL goals RECENT 1000",
          'RECALL RECENT 10 ABOUT "bob"']:
    r.acc(P, q, tags=("recent_clause",), sections=("9.2",))
P = "parse.recall.since"
for q in ['RECALL events SINCE "last week"', 'RECALL SINCE "2026-01-01"', 'RECALL beliefs SINCE "yesterday" ABOUT "alice"']:
    r.acc(P, q, level=X, tags=("since_clause",), sections=("9.3",))
P = "parse.recall.like"
for q in ['RECALL LIKE "machine learning best practices"', 'RECALL beliefs LIKE "dark mode"',
          'RECALL events LIKE "東京の天気"']:
    r.acc(P, q, level=X, tags=("like_clause",), sections=("9.4",))
P = "parse.recall.between"
for q in ["RECALL events BETWEEN 1709251200 AND 1709337600", 'RECALL BETWEEN "2026-01-01" AND "2026-02-01"',
          "RECALL beliefs BETWEEN $from AND $to"]:
    r.acc(P, q, level=X, tags=("between_clause",), sections=("9.7",))
P = "parse.recall.thread"
for q in ['RECALL events THREAD "sess-123"', "RECALL events THREAD FROM sha256:a1b2c3d4e5f6a7b8",
          'RECALL events THREAD "sess-9" | LIMIT 50']:
    r.acc(P, q, level=X, tags=("thread_clause", "thread_target"), sections=("8.1.1",))
P = "parse.recall.contradictions"
for q in ['RECALL beliefs ABOUT "alice" CONTRADICTIONS', "RECALL CONTRADICTIONS",
          'RECALL beliefs CONTRADICTIONS WITH contradiction_detection']:
    r.acc(P, q, level=X, tags=("contradictions_clause",), sections=("9.6",))
P = "parse.recall.as"
for f in ["markdown", "json", "yaml", "text", "sml", "triples", "toon"]:
    r.acc(P, f"RECALL beliefs AS {f}", level=X, tags=("as_clause", "format_type"), sections=("10.1",))
for f in ["structured", "readable", "compact", "data"]:
    r.acc(P, f'RECALL beliefs ABOUT "alice" AS {f}', level=X, tags=("as_clause", "preset_name"), sections=("10.1",))
P = "parse.recall.order"
r.acc(P, 'RECALL beliefs AS sml WITH provenance ABOUT "alice" | LIMIT 3 IN "work"', level=X,
      tags=("recall_clause",), desc="clauses in any order (ruling R1); printed in the EBNF order")
r.acc(P, 'RECALL events RECENT 5 ABOUT "alice" AS text', level=X, tags=("recall_clause",))
r.acc(P, 'RECALL beliefs | ORDER BY object ASC WITH locale("de")', level=X, tags=("recall_clause", "with_clause"),
      sections=("16.5",))
r.acc(P, 'RECALL beliefs WITH superseded | LIMIT 5 WITH provenance', level=X, tags=("with_clause",),
      desc="a WITH before and after the pipeline merge (ruling R3)")

# ---------------------------------------------------------------- conditions
w = Area("parse/recall-where.json", "WHERE conditions: comparators, IN, BETWEEN, tags, relation shortcuts (§4).", C,
         ("where_clause", "condition"), ("4", "5.2"))
P = "parse.where.compare"
for q in ['RECALL beliefs WHERE subject = "alice"', 'RECALL beliefs WHERE subject != "bob"',
          "RECALL beliefs WHERE confidence >= 0.8", "RECALL beliefs WHERE confidence <= 0.2",
          "RECALL beliefs WHERE importance > 0.5", "RECALL beliefs WHERE importance < 0.5",
          "RECALL beliefs WHERE score >= 0.75", "RECALL WHERE score > 0",
          'RECALL WHERE relation = "prefers" AND object != "tea" AND confidence = 1']:
    w.acc(P, q, tags=("field_condition", "comparator"))
P = "parse.where.field"
for q in ['RECALL WHERE query = "project status"', 'RECALL WHERE user_id = "alice"', 'RECALL WHERE user_id != "bob"',
          'RECALL WHERE namespace = "team"', 'RECALL WHERE type = "belief"', 'RECALL WHERE time = "last week"',
          "RECALL WHERE hash = sha256:a1b2c3d4", "RECALL WHERE hash = $h", "RECALL WHERE contradicted = true",
          "RECALL beliefs WHERE contradicted = false", 'RECALL WHERE verification_status = "verified"',
          'RECALL WHERE source_type = "user"', 'RECALL WHERE recall_priority = "hot"',
          'RECALL WHERE epistemic_status = "probable"', 'RECALL WHERE object = "dark mode"']:
    w.acc(P, q, tags=("field_condition",), sections=("5.2",))
P = "parse.where.in"
for q in ['RECALL WHERE subject IN ("alice", "bob")', 'RECALL WHERE relation IN ("mg:prefers", "mg:avoids")',
          'RECALL WHERE object IN ("x")', "RECALL WHERE subject IN ($people)", 'RECALL WHERE subject IN ($a, "b")']:
    w.acc(P, q, tags=("in_condition", "value_list"))
P = "parse.where.subquery"
for q in ['RECALL WHERE subject IN (RECALL beliefs WHERE relation = "member_of" | SUBJECTS)',
          "RECALL WHERE object IN (RECALL beliefs | OBJECTS)",
          "RECALL goals WHERE depends_on IN (RECALL goals | HASHES)",
          'RECALL beliefs WHERE subject IN (RECALL WHERE subject IN (RECALL beliefs | SUBJECTS) | SUBJECTS)']:
    w.acc(P, q, level=X, tags=("in_condition", "subquery_extract", "extractor"))
P = "parse.where.between"
for q in ['RECALL WHERE time BETWEEN "2026-01-01" AND "2026-02-01"', "RECALL WHERE time BETWEEN 1709251200 AND 1709337600",
          'RECALL goals WHERE deadline BETWEEN "2026-03-01" AND "2026-03-31"',
          'RECALL consents WHERE expires_at BETWEEN $a AND $b']:
    w.acc(P, q, level=C if "goals" not in q and "consents" not in q else X, tags=("between_condition",))
P = "parse.where.tags"
for q in ['RECALL WHERE tags INCLUDE ["ui"]', 'RECALL WHERE tags EXCLUDE ["archived"]',
          'RECALL beliefs WHERE tags INCLUDE ["preference", "ui"] AND tags EXCLUDE ["old"]',
          'RECALL WHERE tags INCLUDE []', 'RECALL consensuses WHERE participating_observers INCLUDE ["obs-1"]']:
    w.acc(P, q, tags=("tag_condition", "array_literal"), level=X if "consensuses" in q else C)
P = "parse.where.relation_is"
for cat in ["PREFERENCE", "KNOWLEDGE", "PERMISSION", "INTERACTION", "AGENCY", "LIFECYCLE", "OBSERVATION"]:
    w.acc(P, f'RECALL beliefs WHERE subject = "alice" AND relation IS {cat}', level=X,
          tags=("relation_shortcut", "relation_category"), sections=("7.2",))
w.acc(P, "RECALL WHERE relation is preference", level=X, tags=("relation_shortcut",), sections=("7.2", "3.1"))
w.acc(P, "RECALL WHERE relation IS Knowledge", level=X, tags=("relation_shortcut",), sections=("7.2", "3.1"))
P = "parse.where.domain"
for pre, tag, field in [("hc", "healthcare", "patient_id"), ("legal", "legal", "case_id"), ("fin", "finance", "account_id"),
                        ("rob", "robotics", "device_id"), ("sci", "science", "experiment_id"),
                        ("con", "consumer", "interaction_channel"), ("int", "integration", "sync_status")]:
    w.acc(P, f'RECALL beliefs WHERE tags INCLUDE ["profile:{tag}"] AND {pre}:{field} = "v1"', level=X,
          tags=("domain_field", "domain_prefix"), sections=("12.2",))
w.acc(P, 'RECALL WHERE tags INCLUDE ["profile:healthcare"] AND hc:condition_code IN ("J06.9", "J20.9")', level=X,
      tags=("domain_field", "in_condition"), sections=("12.2",))
P = "parse.where.values"
for q in ['RECALL WHERE subject = "alice"', "RECALL WHERE confidence >= 0", "RECALL WHERE confidence >= 1",
          "RECALL WHERE importance >= 0.123456", "RECALL WHERE subject = $user", "RECALL WHERE contradicted = TRUE",
          'RECALL WHERE subject = "tab\\\\slash"', 'RECALL WHERE subject = "multi\nline"', 'RECALL WHERE subject = ""',
          "RECALL WHERE hash = sha256:" + "0123456789abcdef" * 4, "RECALL WHERE hash = sha256:abcdef01"]:
    w.acc(P, q, tags=("value",), sections=("3.4",))
P = "parse.where.layout"
w.acc(P, 'RECALL beliefs\n  WHERE subject = "alice"\n    AND relation = "prefers"\n  | LIMIT 5', tags=("layout",))
w.acc(P, 'RECALL beliefs WHERE subject="alice"AND relation="prefers"', tags=("layout",))
w.acc(P, 'RECALL beliefs -- who\nWHERE subject = "alice" -- and what\n| LIMIT 5', tags=("comment",), sections=("3.5",))
w.acc(P, "RECALL\tbeliefs\r\nWHERE\tconfidence>=0.5", tags=("layout",))

# ---------------------------------------------------------------- grain-type fields
g = Area("parse/recall-grain-fields.json", "Grain-type-specific fields unlocked by the grain type (§6.2, §6.3).", X,
         ("grain_field_name",), ("6.2", "6.3"))
FIELDS = [
    ("events", "role", '= "user"'), ("events", "role", '!= "system"'), ("events", "session_id", '= "sess-1"'),
    ("events", "parent_message_id", '= "m-1"'), ("events", "model_id", '!= "gpt"'), ("events", "content", '= "weather"'),
    ("states", "context", '= "q1_review_prep"'), ("states", "plan", '= "slides"'),
    ("workflows", "trigger", '= "on:user_message"'), ("workflows", "steps", '= "retrieve metrics"'),
    ("actions", "tool_name", '= "get_weather"'), ("actions", "tool_name", 'IN ("a", "b")'),
    ("actions", "action_phase", '= "definition"'), ("actions", "action_phase", '= "call"'),
    ("actions", "action_phase", '= "result"'), ("actions", "action_phase", '= "complete"'),
    ("actions", "is_error", "= false"), ("actions", "tool_call_id", '= "call-7"'),
    ("observations", "observer_id", '= "obs-activity-monitor"'), ("observations", "observer_type", '!= "agent:monitor"'),
    ("goals", "goal_state", '= "active"'), ("goals", "goal_state", '= "completed"'), ("goals", "goal_state", '= "abandoned"'),
    ("goals", "goal_state", '!= "blocked"'), ("goals", "assigned_agent", '= "did:web:assistant.example.com"'),
    ("goals", "deadline", '= "2026-03-15T00:00:00Z"'), ("goals", "depends_on", '= "sha256:a1b2c3d4"'),
    ("reasonings", "reasoning_type", '= "deductive"'), ("reasonings", "reasoning_type", '= "abductive"'),
    ("reasonings", "premises", '= "metrics"'), ("reasonings", "conclusion", '!= "none"'),
    ("consensuses", "threshold", ">= 0.5"), ("consensuses", "agreement_count", "> 3"),
    ("consents", "consent_action", '= "grant"'), ("consents", "consent_action", '= "withdraw"'),
    ("consents", "purpose", '= "personalization"'), ("consents", "grantor_did", '= "did:key:z6Mk"'),
    ("consents", "grantee_did", '= "did:web:agent"'), ("consents", "scope", '= "metrics"'),
    ("consents", "expires_at", '= "2027-01-01"'),
]
for gt, f, rest in FIELDS:
    g.acc("parse.grain_field." + gt, f"RECALL {gt} WHERE {f} {rest}", tags=(f"field:{f}",))
for gt, f in [("events", "role"), ("goals", "deadline"), ("consensuses", "agreement_count"), ("consents", "expires_at")]:
    g.acc("parse.grain_field.sort", f"RECALL {gt} | ORDER BY {f} DESC", tags=(f"field:{f}", "order_stage"))

# ---------------------------------------------------------------- warnings
wn = Area("parse/warnings.json", "Accepted queries with warnings CAL-W001 to CAL-W004 (§7.3, §12.2, §25.2).", X,
          ("warning",), ("22.3",))
for q in ['RECALL WHERE relation = "mg:likes"', 'RECALL beliefs WHERE relation IN ("mg:prefers", "mg:enjoys")',
          'ADD belief SET subject = "a" SET relation = "mg:lovez" SET object = "b" REASON "r"',
          'HISTORY WHERE subject = "alice" AND relation = "mg:prefer"',
          'RECALL beliefs ABOUT "zoë"\nWHERE relation != "mg:unknown_rel"']:
    wn.acc("parse.warn.w001", q, warnings=("CAL-W001",), sections=("7.3",), tags=("W001",),
           level=V if q.startswith("ADD") else X)
for q in ['RECALL beliefs WHERE hc:patient_id = "P-1"', 'RECALL WHERE fin:account_id = "A-9"',
          'RECALL beliefs WHERE tags INCLUDE ["profile:legal"] AND hc:encounter_id = "E-5"',
          'RECALL WHERE sci:dataset_id = "d1" | LIMIT 5']:
    wn.acc("parse.warn.w002", q, warnings=("CAL-W002",), sections=("12.2",), tags=("W002",))
for q in ['RECALL WHERE med:patient_id = "P-1"', 'RECALL beliefs WHERE hcx:code = "a"', 'RECALL WHERE acme:team = "x"',
          'RECALL WHERE tags INCLUDE ["profile:healthcare"] AND health:id = "1"']:
    wn.acc("parse.warn.w003", q, warnings=("CAL-W003",), sections=("12.2",), tags=("W003",))
for q in ['RECALL WHERE query = "..." WITH x_hnsw_ef(200)', "RECALL beliefs WITH x_fast",
          'RECALL beliefs WITH superseded, x_rerank("bm25", 3)', "RECALL beliefs | PROJECT attr(confidence, x_department)"]:
    wn.acc("parse.warn.w004", q, warnings=("CAL-W004",), sections=("25.2",), tags=("W004", "extension_option"),
           level=F if "PROJECT" in q else X)

AREAS = [r, w, g, wn]
