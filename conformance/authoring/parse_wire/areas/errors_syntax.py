"""Reject cases for syntax: CAL-E002 (unexpected token), CAL-E003 (grain
type), CAL-E077 (STREAM option). Positions are the offending token."""

from dsl import Area

A = "ASSEMBLE ctx FROM a: (RECALL beliefs)"
ADD = 'ADD belief SET subject = "a" SET relation = "b" SET object = "c"'

e002 = Area("parse/errors-E002.json", "CAL-E002: a token the grammar (§4) does not allow where it stands.", "core",
            ("syntax",), ("4",))
P = "parse.err.e002"
C, X, V = "core", "extended", "evolve"
for q, at, lv, extra in [
    ("RECALL beliefs WHERE", "$END", C, "where_clause"),
    ('RECALL beliefs WHERE subject == "a"', "==", C, "comparator"),
    ('RECALL beliefs WHERE subject = "a" OR object = "b"', "OR", C, "OR"),
    ('RECALL beliefs WHERE NOT subject = "a"', "NOT", C, "NOT"),
    ("RECALL beliefs WHERE subject = NULL", "NULL", C, "NULL"),
    ("RECALL beliefs WHERE subject = 'alice'", "'alice'", C, "string_literal"),
    ('DELETE beliefs WHERE subject = "a"', "DELETE", C, "excluded-word"),
    ('RECALL beliefs WHERE subject = "a" | DROP', "DROP", C, "excluded-word"),
    ("RECALL beliefs WHERE subject IN ()", ")", C, "in_condition"),
    ('RECALL beliefs WHERE subject = "a" WHERE object = "b"', 'WHERE object = "b"', C, "duplicate-clause"),
    ('RECALL beliefs WHER subject = "a"', "WHER", C, "misspelled-keyword"),
    ("RECAL beliefs", "RECAL", C, "misspelled-keyword"),
    ("RECALL beliefs | ORDER confidence", "confidence", X, "order_stage"),
    ("ASSEMBLE ctx BUDGET 100 tokens", "ASSEMBLE", X, "from_clause"),
    (A + " BUDGET 100 words", "words", X, "budget_clause"),
    ("RECALL beliefs AS html", "html", X, "as_clause"),
    ("RECALL beliefs WITH supersede", "supersede", X, "with_option"),
    ("RECALL beliefs WITH progressive_disclosure(verbose)", "verbose", X, "disclosure_level"),
    ("DESCRIBE tables", "tables", X, "describe_target"),
    ("EXPLAIN EXPLAIN RECALL beliefs", "EXPLAIN RECALL beliefs", X, "explain_stmt"),
    ("RECALL beliefs WHERE relation IS FRIENDSHIP", "FRIENDSHIP", X, "relation_shortcut"),
    ("RECALL beliefs UNION RECALL events", "UNION", X, "set_stmt"),
    ("(RECALL beliefs) UNION", "$END", X, "set_stmt"),
    ("BATCH { RECALL beliefs }", "beliefs", X, "batch_entry"),
    ("BATCH { a: " + ADD + ' REASON "r" }', "ADD", X, "batch_entry"),
    ("COALESCE(RECALL beliefs, RECALL goals, EXISTS sha256:a1b2c3d4)", "EXISTS", X, "coalesce_stmt"),
    ('HISTORY WHERE subject = "a" AND object = "b"', "object", X, "history_stmt"),
    ("LET $x = RECALL beliefs | SUBJECTS RECALL beliefs WHERE subject IN ($x)", ("RECALL", 1), X, "let_binding"),
    ("RECALL beliefs, events", ",", C, "grain_type_plural"),
    ('RECALL beliefs WHERE subject = "a", object = "b"', ",", C, "where_clause"),
    ("ASSEMBLE ctx FROM a: (RECALL beliefs), b: (RECALL goals) PRIORITY a, b", (",", 1), X, "priority_clause"),
    ('RECALL beliefs WHERE subject = "a" AND', "$END", C, "where_clause"),
    ("RECALL beliefs | SELECT subject,", "$END", X, "select_stage"),
    ("ASSEMBLE select FROM a: (RECALL beliefs)", "select", X, "context_name"),
    ("RECALL beliefs @", "@", C, "lexical"),
    ("CAL/1", "$END", C, "version_prefix"),
    ("RECALL beliefs ABOUT 5", "5", C, "about_clause"),
    ('RECALL beliefs\nWHERE subject = "zoë"\n  AND confidence 0.5', "0.5", C, "field_condition"),
    ('RECALL beliefs ABOUT "東京" | LIMT 5', "LIMT", C, "misspelled-keyword"),
    (ADD + " REASON", "$END", V, "reason_clause"),
    ("RECALL beliefs RECALL events", ("RECALL", 1), C, "statement"),
    ("RECALL beliefs | GROUP subject", "subject", X, "group_stage"),
    ('RECALL beliefs ABOUT "a" ABOUT "b"', '"b"', C, "duplicate-clause"),
    (A + " BUDGET 100 tokens BUDGET 200 tokens", "BUDGET 200 tokens", X, "duplicate-clause"),
    ('RECALL WHERE subject = "a" | LIMIT', "$END", C, "limit_stage"),
    ("RECALL beliefs INSERT", "INSERT", C, "excluded-word"),
    (A + " STREAM { progress", "$END", "full", "stream_clause"),
    ("RECALL beliefs WHERE relation IS NULL", "NULL", X, "relation_shortcut"),
    ("RECALL beliefs WHERE subject IN \"a\"", '"a"', C, "in_condition"),
    ("EXISTS", "$END", C, "exists_stmt"),
    ("HISTORY", "$END", X, "history_stmt"),
    ("RECALL beliefs THREAD 5", "5", X, "thread_clause"),
    ("RECALL beliefs | ORDER BY confidence UP", "UP", X, "order_stage"),
    ('DEFINE TEMPLATE t HEADER { x', "{", "full", "header_section"),
    ("ASSEMBLE ctx FROM a: (RECALL beliefs FORMAT markdown", "FORMAT", X, "source"),
    ('RECALL beliefs -- the condition is on the next line\nWHERE subject = "a" AND AND object = "b"', ("AND", 1), C, "where_clause"),
]:
    a, occ = (at if isinstance(at, tuple) else (at, 0))
    # The follow-on CAL-E004/E013/E018 once reported next to some of these are gone
    # (docs/spec-decisions-checker.md F15).
    e002.rej(P, q, "CAL-E002", a, occ, level=lv, tags=(extra,))

e003 = Area("parse/errors-E003.json", "CAL-E003: a grain type that is not one of the ten (§5.1).", "core",
            ("grain_type",), ("5.1",))
P = "parse.err.e003"
for q, at, lv, sugg in [
    ('RECALL fact WHERE subject = "alice"', "fact", C, None),
    ("RECALL facts", "facts", C, None),
    ("RECALL Beliefs", "Beliefs", C, None),
    ("RECALL belief", "belief", C, None),
    (ADD.replace("ADD belief", "ADD beliefs") + ' REASON "r"', "beliefs", V, None),
    (ADD.replace("ADD belief", "ADD fact") + ' REASON "r"', "fact", V, None),
    ("DESCRIBE fields beliefs", "beliefs", X, None),
    ("RECALL memories", "memories", C, None),
    ("ASSEMBLE ctx FROM a: (RECALL belifs)", "belifs", X, None),
    ("RECALL MY evnts", "evnts", X, None),
    ('-- für alice\nRECALL goalz ABOUT "zoë"', "goalz", C, None),
    ("BATCH { a: RECALL eventz }", "eventz", X, None),
    ("DESCRIBE fields memory", "memory", X, None),
]:
    e003.rej(P, q, "CAL-E003", at, level=lv)

# SHOULD: the suggestion names the intended type (§22.1 "did you mean?").
P = "parse.should.e003"
for q, at, sugg in [
    ('RECALL fact WHERE subject = "alice"', "fact", "belief"),
    ("RECALL belifs", "belifs", "beliefs"),
    ("RECALL Beliefs", "Beliefs", "beliefs"),
    ("RECALL evnts", "evnts", "events"),
    ("RECALL observatons", "observatons", "observations"),
    ("RECALL belief", "belief", "beliefs"),
]:
    e003.rej(P, q, "CAL-E003", at, level="extended", flags=("should",), tags=("suggestion",), suggestion=sugg,
             example=True, sections=("22.1",))

e077 = Area("parse/errors-E077.json", "CAL-E077: an option the STREAM clause does not have (§11.2).", "full",
            ("stream_clause",), ("11.2",))
P = "parse.err.e077"
for q, at in [
    (A + " STREAM { everything }", "everything"),
    (A + " STREAM { progres }", "progres"),
    (A + " STREAM { chunksize = 200 }", "chunksize"),
    (A + " STREAM { progress, events }", "events"),
    (A + " STREAM { all, foo, bar }", "foo"),
    (A + " STREAM { Progress }", "Progress"),
    ("ASSEMBLE ctx\nFROM a: (RECALL beliefs)\nSTREAM { budgets }", "budgets"),
    ('ASSEMBLE ctx FOR "für zoë" FROM a: (RECALL beliefs) STREAM { chunk }', "chunk"),
    (A + " STREAM { cancel }", "cancel"),
    (A + " STREAM { tokens, all }", "tokens"),
]:
    e077.rej(P, q, "CAL-E077", at)

AREAS = [e002, e003, e077]
