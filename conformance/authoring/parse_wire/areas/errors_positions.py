"""Position variants per code: the error at the very start or the very end of
the query, on a later line, and after non-ASCII text on its own line (so that
the column in characters differs from the byte offset)."""

from dsl import B1, Area

A = "ASSEMBLE ctx FROM a: (RECALL beliefs)"
S3 = 'SET subject = "zoë" SET relation = "prefers" SET object = "thé"'
H = "sha256:a1b2c3d4"
TPL = "DEFINE TEMPLATE t ELEMENT { "
C, X, V, F = "core", "extended", "evolve", "full"

pv = Area("parse/errors-positions.json", "Every static code at the start, at the end, on a later line and after "
          "non-ASCII text on the same line: positions are bytes, columns are characters (§22.1).", "core",
          ("position",), ("22.1",))
ROWS = [
    # code, query, at, level[, ruling the code comes from]
    ("CAL-E001", 'RECALL ABOUT "zoë"\nWHERE object = "' + "é" * 4100 + '"', None, C),
    ("CAL-E003", "RECALL beliefz", "beliefz", C),
    ("CAL-E004", 'RECALL WHERE subject = "zoë" AND mood = "é"', "mood", C),
    ("CAL-E004", 'RECALL beliefs | ORDER BY rank', "rank", X),
    ("CAL-E005", '"alice', '"alice', C),
    ("CAL-E006", 'RECALL WHERE subject = "zoë" AND confidence >= .9', ".9", C),
    ("CAL-E006", "1e5", "1e5", C),
    ("CAL-E007", 'RECALL WHERE object = "é" AND subject IN (RECALL WHERE subject IN (RECALL WHERE subject IN '
                 '(RECALL WHERE subject IN (RECALL beliefs | SUBJECTS) | SUBJECTS) | SUBJECTS) | SUBJECTS)',
     "RECALL beliefs | SUBJECTS", X),
    ("CAL-E008", 'ASSEMBLE ctx FOR "zoë" FROM a: (RECALL beliefs) PRIORITY zed', "zed", X),
    ("CAL-E010", 'RECALL ABOUT "zoë" | LIMIT 1001', "1001", C),
    ("CAL-E011", 'RECALL WHERE object IN (' + ", ".join(f'"é{i}"' for i in range(101)) + ")", None, C),
    ("CAL-E012", 'RECALL ABOUT "zoë" | LIMIT 6 | LIMIT 5 | LIMIT 4 | LIMIT 3 | LIMIT 2 | LIMIT 1', "LIMIT 1", C),
    ("CAL-E013", 'COALESCE(RECALL ABOUT "é")', None, X, B1),
    ("CAL-E014", "\n\n", (0, 2), C),
    ("CAL-E014", "-- é\n-- 東京", None, C),
    ("CAL-E015", 'RECALL WHERE subject = "zoë" AND hash = sha256:abc', "sha256:abc", C),
    ("CAL-E016", 'REVERT sha256:a1b2c3d4 REASON "' + "東" * 501 + '"', None, V),
    ("CAL-E017", f'ADD belief {S3} SET mood = "é" REASON "r"', "mood", V),
    ("CAL-E017", f'ADD belief\n  {S3}\n  SET user_id = "u"\nREASON "r"', "user_id", V),
    ("CAL-E018", f'ADD belief {S3}', "$END", V),
    ("CAL-E019", f'SUPERSEDE {H} REASON "zoë"', None, V),
    ("CAL-E020", 'RECALL WHERE subject = "zoë" AND confidence >= "high"', '"high"', C),
    ("CAL-E020", "RECALL WHERE confidence = 2", "2", C),
    ("CAL-E021", 'RECALL ABOUT "zoë" | COUNT | LIMIT 1', "LIMIT 1", X),
    ("CAL-E022", 'RECALL goals ABOUT "zoë" | SUBJECTS', "SUBJECTS", X),
    ("CAL-E030", f'ASSEMBLE ctx FOR "zoë" FROM a: (RECALL beliefs) BUDGET 999 grains', "999", X, B1),
    ("CAL-E030", f"{A}\nBUDGET 0 tokens", "0", X, B1),
    ("CAL-E050", 'ADD belief SET subject = "zoë" REASON "r"', None, V),
    ("CAL-E051", f'ADD event {S3} REASON "é"', "event", V),
    ("CAL-E060", 'RECALL beliefs ABOUT "zoë" LIKE "thé"', '"thé"', X),
    ("CAL-E060", 'RECALL beliefs WHERE subject = "zoë" AND tool_name = "x"', "tool_name", X),
    ("CAL-E061", 'RECALL WHERE subject = "zoë" AND role = "user"', "role", X),
    ("CAL-E062", 'RECALL actions WHERE tool_name = "é" AND action_phase = "done"', '"done"', X),
    ("CAL-E063", 'RECALL goals WHERE subject = "zoë" AND goal_state = "open"', '"open"', X),
    ("CAL-E064", 'RECALL consents WHERE purpose = "é" AND consent_action = "allow"', '"allow"', X),
    ("CAL-E065", 'RECALL WHERE subject = "zoë" AND recall_priority = "high"', '"high"', X),
    ("CAL-E066", 'RECALL WHERE subject = "zoë" AND epistemic_status = "sure"', '"sure"', X),
    ("CAL-E071", '\u202eRECALL beliefs', "\u202e", C),
    ("CAL-E071", 'RECALL beliefs ABOUT "zoë"\u2066', "\u2066", C),
    ("CAL-E077", 'ASSEMBLE ctx FOR "zoë" FROM a: (RECALL beliefs) STREAM { tokens }', "tokens", F),
    ("CAL-E078", 'ASSEMBLE ctx FOR "zoë" FROM a: (RECALL beliefs) STREAM { chunk_size = 5 }', "5", F),
    ("CAL-E087", "DEFINE TEMPLATE t EXTENDS fancy ELEMENT { zoë }", "fancy", F),
    ("CAL-E090", TPL + "é {{grain.nope}} }", "grain.nope", F),
    ("CAL-E091", TPL + "é {{#grain.score}} }", "{{#grain.score}}", F),
    ("CAL-E092", TPL + "é" * 2100 + " }", None, F),
    ("CAL-E093", TPL + "é " + "{{#grain.score}}" * 6 + "{{/grain.score}}" * 6 + " }", ("{{#grain.score}}", 5), F),
    ("CAL-E094", TPL + "é {{> p}} }", "{{> p}}", F),
    ("CAL-E095", "DEFINE TEMPLATE t HEADER { é } HEADER { b }", ("HEADER", 1), F),
    ("CAL-E096", "DEFINE TEMPLATE t ELEMENT_SUMMARY { é } ELEMENT { {{#grain.is_summary}}x{{/grain.is_summary}} }",
     "{{#grain.is_summary}}", F),
    ("CAL-E100", "CAL/7 RECALL", "7", C),
    ("CAL-E100", "-- é\nCAL/2 RECALL", "2", C),
    ("CAL-E007", "LET $a = RECALL beliefs | SUBJECTS;\nLET $b = RECALL beliefs WHERE subject IN ($a) | SUBJECTS;\n"
                 "RECALL WHERE subject IN ($b)", ("$a", 1), X, B1),
]
for code, q, at, lv, *ruling in ROWS:
    occ = 0
    if isinstance(at, tuple) and isinstance(at[0], str):
        at, occ = at
    pv.rej("parse.pos." + code[4:].lower(), q, code, at, occ, level=lv, ruling=ruling[0] if ruling else None)

AREAS = [pv]
