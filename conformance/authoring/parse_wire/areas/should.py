"""SHOULD-level cases (§22.1: errors SHOULD include position, expected
alternatives and an example correction; §24 Extended: the "did you mean?"
suggestion system). Flagged `should`: scored separately, never gating."""

from dsl import B1, Area

A = "ASSEMBLE ctx FROM a: (RECALL beliefs)"
sh = Area("parse/should-suggestions.json", "Did-you-mean suggestions and example corrections (§22.1, §24).", "extended",
          ("suggestion",), ("22.1", "24"))
S = "parse.should.suggest."
for code, q, at, sugg in [
    ("CAL-E002", 'RECALL beliefs WHER subject = "a"', "WHER", "WHERE"),
    ("CAL-E002", "RECAL beliefs", "RECAL", "RECALL"),
    ("CAL-E002", 'RECALL beliefs ABOUT "a" | LIMT 5', "LIMT", "LIMIT"),
    ("CAL-E002", A + " BUDGT 100 tokens", "BUDGT", "BUDGET"),
    ("CAL-E002", "RECALL beliefs | ORDR BY time", "ORDR", "ORDER"),
    ("CAL-E002", "RECALL beliefs AS markdwn", "markdwn", "markdown"),
    ("CAL-E002", "RECALL beliefs WITH supersded", "supersded", "superseded"),
    ("CAL-E002", "RECALL beliefs WHERE relation IS PREFERENCES", "PREFERENCES", "PREFERENCE"),
    ("CAL-E002", "DESCRIBE capabilites", "capabilites", "capabilities"),
    ("CAL-E002", A + " BUDGET 100 token", "token", "tokens"),
    ("CAL-E002", "RECALL beliefs WHERE subject = 'alice'", "'alice'", '"alice"'),
    ("CAL-E002", 'RECALL beliefs WHERE subject == "a"', "==", "="),
    ("CAL-E003", "RECALL goal", "goal", "goals"),
    ("CAL-E003", "RECALL facts", "facts", "belief"),
    ("CAL-E003", 'ADD beliefs SET subject = "a" SET relation = "b" SET object = "c" REASON "r"', "beliefs", "belief"),
    ("CAL-E003", "RECALL consensus", "consensus", "consensuses"),
    ("CAL-E004", 'RECALL WHERE objct = "a"', "objct", "object"),
    ("CAL-E004", "RECALL WHERE importnce > 0.5", "importnce", "importance"),
    ("CAL-E004", 'RECALL WHERE user = "a"', "user", "user_id"),
    ("CAL-E004", "RECALL beliefs | ORDER BY confidense", "confidense", "confidence"),
    ("CAL-E017", 'SUPERSEDE sha256:a1b2c3d4 SET objet = "x" REASON "r"', "objet", "object"),
    ("CAL-E061", 'RECALL WHERE tool_name = "x"', "tool_name", "actions"),
    ("CAL-E061", 'RECALL WHERE goal_state = "active"', "goal_state", "goals"),
    ("CAL-E060", 'RECALL goals WHERE role = "user"', "role", "events"),
    ("CAL-E062", 'RECALL actions WHERE action_phase = "completed"', '"completed"', "complete"),
    ("CAL-E063", 'RECALL goals WHERE goal_state = "activ"', '"activ"', "active"),
    ("CAL-E064", 'RECALL consents WHERE consent_action = "grnt"', '"grnt"', "grant"),
    ("CAL-E065", 'RECALL WHERE recall_priority = "hott"', '"hott"', "hot"),
    ("CAL-E066", 'RECALL WHERE epistemic_status = "probabl"', '"probabl"', "probable"),
    ("CAL-E077", A + " STREAM { progres }", "progres", "progress"),
    ("CAL-E077", A + " STREAM { chunk }", "chunk", "chunks"),
    ("CAL-E090", "DEFINE TEMPLATE t ELEMENT { {{grain.contnet}} }", "grain.contnet", "grain.content"),
    ("CAL-E090", "DEFINE TEMPLATE t ELEMENT { {{subject}} }", "subject", "grain.subject"),
    ("CAL-E087", "DEFINE TEMPLATE t EXTENDS markdown ELEMENT { x }", "markdown", "readable"),
    ("CAL-E010", "RECALL beliefs | LIMIT 5000", "5000", "1000"),
    ("CAL-E030", A + " BUDGET 20000 tokens", "20000", "16000"),
]:
    lv = "full" if code in ("CAL-E090", "CAL-E087", "CAL-E077") else "extended"
    sh.rej(S + code[4:].lower(), q, code, at, level=lv, flags=("should",), suggestion=sugg,
           ruling=B1 if code == "CAL-E030" else None)
for code, q, at in [
    ("CAL-E003", 'RECALL fact WHERE subject = "alice"', "fact"),
    ("CAL-E014", "", (0, 0)),
    ("CAL-E005", 'RECALL ABOUT "alice', '"alice'),
    ("CAL-E010", "RECALL beliefs | LIMIT 1001", "1001"),
    ("CAL-E018", 'REVERT sha256:a1b2c3d4', "$END"),
    ("CAL-E050", 'ADD belief SET subject = "a" REASON "r"', "ADD belief"),
    ("CAL-E030", A + " BUDGET 201 grains", "201"),
    ("CAL-E001", 'RECALL ABOUT "' + "a" * 8200 + '"', (0, 8215)),
]:
    sh.rej("parse.should.example." + code[4:].lower(), q, code, at, level="extended", flags=("should",), example=True,
           tags=("example",), ruling=B1 if code == "CAL-E030" else None)

AREAS = [sh]
