"""RECALL over `beliefs-basic`: WHERE conditions on every common field, NULL
semantics, IN, hash and type conditions, tags, and the pipeline stages."""

from book import Sel, add, all_of, cmp, eq, exclude, include, isin, ne, ty
from oracle import fixture, select

FX = "beliefs-basic"
B = ty("belief")


def where():
    a = "recall-where"
    n = iter(range(1, 1000))

    def w(query, pred, tags, level="core", sections=("8.1", "5.2"), **kw):
        add(a, f"execute.where.{next(n):03d}", FX, query, level, ["recall", "where"] + tags, list(sections),
            sel=Sel(pred), **kw)

    for s in ["alice", "bob", "carol", "dave", "erin", "nobody"]:
        w(f'RECALL beliefs WHERE subject = "{s}"', all_of(B, eq("subject", s)), ["subject", "eq"])
    w('RECALL beliefs WHERE subject != "alice"', all_of(B, ne("subject", "alice")), ["subject", "ne"])
    w('RECALL beliefs WHERE subject = "Alice"', all_of(B, eq("subject", "Alice")), ["subject", "case-sensitive"],
      desc="String equality is exact: no grain has the subject \"Alice\".")
    for r in ["mg:prefers", "mg:avoids", "mg:knows", "mg:requires", "member_of", "role", "led_by", "status"]:
        w(f'RECALL beliefs WHERE relation = "{r}"', all_of(B, eq("relation", r)), ["relation", "eq"])
    w('RECALL beliefs WHERE relation != "mg:prefers" AND subject = "alice"',
      all_of(B, ne("relation", "mg:prefers"), eq("subject", "alice")), ["relation", "ne", "and"])
    for o in ["dark mode", "team-alpha", "team-beta", "vim", "no such object"]:
        w(f'RECALL beliefs WHERE object = "{o}"', all_of(B, eq("object", o)), ["object", "eq"])
    w('RECALL beliefs WHERE object != "team-alpha" AND relation = "member_of"',
      all_of(B, ne("object", "team-alpha"), eq("relation", "member_of")), ["object", "ne", "and"])
    w('RECALL beliefs WHERE subject IN ("alice", "carol")', all_of(B, isin("subject", ["alice", "carol"])), ["in"])
    w('RECALL beliefs WHERE subject IN ("dave", "erin", "zed")', all_of(B, isin("subject", ["dave", "erin", "zed"])), ["in"])
    w('RECALL beliefs WHERE relation IN ("mg:knows", "role")', all_of(B, isin("relation", ["mg:knows", "role"])), ["in", "relation"])
    w('RECALL beliefs WHERE object IN ("dark mode", "light mode", "vim")',
      all_of(B, isin("object", ["dark mode", "light mode", "vim"])), ["in", "object"])
    w('RECALL beliefs WHERE subject IN ("zed")', all_of(B, isin("subject", ["zed"])), ["in", "empty-result"])
    for op, v in [(">=", 0.9), (">", 0.9), ("<=", 0.7), ("<", 0.7), ("=", 0.9), (">=", 1.0), ("<", 0.0)]:
        w(f"RECALL beliefs WHERE confidence {op} {v}", all_of(B, cmp("confidence", op, v) if op != "=" else eq("confidence", v)),
          ["confidence", "comparator"])
    w("RECALL beliefs WHERE confidence != 1.0 AND subject = \"alice\"",
      all_of(B, ne("confidence", 1.0), eq("subject", "alice")), ["confidence", "ne"])
    w("RECALL beliefs WHERE confidence >= 0.8 AND confidence <= 0.9",
      all_of(B, cmp("confidence", ">=", 0.8), cmp("confidence", "<=", 0.9)), ["confidence", "range"])
    w("RECALL beliefs WHERE confidence >= 1", all_of(B, cmp("confidence", ">=", 1.0)), ["confidence", "integer-literal"],
      desc="An integer literal compares numerically with a float field.")
    abc = isin("subject", ["alice", "bob", "carol"])
    for op, v in [(">=", 0.7), ("<", 0.3), ("=", 0.6), (">", 0.0)]:
        w(f'RECALL beliefs WHERE importance {op} {v} AND subject IN ("alice", "bob", "carol")',
          all_of(B, abc, cmp("importance", op, v) if op != "=" else eq("importance", v)),
          ["importance", "null-semantics"], sections=("8.1", "5.2", "5.4"))
    w('RECALL beliefs WHERE importance != 0.6 AND subject IN ("alice", "bob", "carol")', all_of(B, abc, ne("importance", 0.6)),
      ["importance", "ne", "null-semantics"], sections=("5.4",), desc="A grain without importance matches neither = nor != (§5.4).")
    w('RECALL beliefs WHERE user_id = "alice"', all_of(B, eq("user_id", "alice")), ["user_id"])
    w('RECALL beliefs WHERE user_id != "alice"', all_of(B, ne("user_id", "alice")), ["user_id", "ne", "null-semantics"],
      sections=("5.2", "5.4"), desc="Grains without user_id do not match user_id != \"alice\".")
    w('RECALL beliefs WHERE namespace = "conf:main" AND subject = "erin"',
      all_of(B, eq("namespace", "conf:main"), eq("subject", "erin")), ["namespace"])
    w('RECALL beliefs WHERE namespace = "elsewhere"', all_of(B, eq("namespace", "elsewhere")), ["namespace", "empty-result"])
    for st in ["system", "user_explicit", "agent_inferred", "llm_generated"]:
        w(f'RECALL beliefs WHERE source_type = "{st}"', all_of(B, eq("source_type", st)), ["source_type", "meta"])
    for p in ["hot", "warm", "cold"]:
        w(f'RECALL beliefs WHERE recall_priority = "{p}"', all_of(B, eq("recall_priority", p)), ["recall_priority", "meta"],
          level="core")
    for e in ["certain", "probable", "uncertain", "derived"]:
        w(f'RECALL beliefs WHERE epistemic_status = "{e}"', all_of(B, eq("epistemic_status", e)), ["epistemic_status", "meta"])
    w('RECALL beliefs WHERE tags INCLUDE ["ui"]', all_of(B, include(["ui"])), ["tags", "include"])
    w('RECALL beliefs WHERE tags INCLUDE ["preference", "tooling"]', all_of(B, include(["preference", "tooling"])),
      ["tags", "include", "all-of"], desc="INCLUDE with several tags keeps grains that carry every one of them.")
    w('RECALL beliefs WHERE tags INCLUDE ["no-such-tag"]', all_of(B, include(["no-such-tag"])), ["tags", "include", "empty-result"])
    w('RECALL beliefs WHERE tags EXCLUDE ["preference", "team"]', all_of(B, exclude(["preference", "team"])),
      ["tags", "exclude"], desc="EXCLUDE drops grains carrying any listed tag; a grain with no tags is kept.")
    w('RECALL beliefs WHERE tags INCLUDE ["team"] AND tags EXCLUDE ["profile"]',
      all_of(B, include(["team"]), exclude(["profile"])), ["tags", "include", "exclude"])
    w('RECALL WHERE type = "belief" AND subject = "carol"', all_of(B, eq("subject", "carol")), ["type-condition"])
    w('RECALL WHERE type = "event"', ty("event"), ["type-condition", "empty-result"])
    w('RECALL WHERE subject = "bob"', eq("subject", "bob"), ["untyped"], desc="Without a grain type every type is searched.")
    w('RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND confidence >= 0.85',
      all_of(B, eq("subject", "alice"), eq("relation", "mg:prefers"), cmp("confidence", ">=", 0.85)), ["and", "three-conditions"])
    w('RECALL beliefs WHERE subject = "alice" AND subject = "bob"', lambda r: False, ["and", "contradictory"],
      desc="Conditions are ANDed: two different subjects match nothing.")
    w('RECALL beliefs WHERE relation = "mg:prefers" AND object = "dark mode" AND tags INCLUDE ["ui"]',
      all_of(B, eq("relation", "mg:prefers"), eq("object", "dark mode"), include(["ui"])), ["and"])
    w('RECALL beliefs WHERE subject = $who', all_of(B, eq("subject", "carol")), ["parameter"], params={"who": "carol"},
      sections=("8.1", "4"))
    w('RECALL beliefs WHERE confidence >= $min AND subject = $who',
      all_of(B, cmp("confidence", ">=", 0.9), eq("subject", "alice")), ["parameter"], params={"min": 0.9, "who": "alice"},
      sections=("8.1", "4"))
    w('RECALL beliefs WHERE subject IN ($a, $b)', all_of(B, isin("subject", ["bob", "dave"])), ["parameter", "in"],
      params={"a": "bob", "b": "dave"}, sections=("8.1", "4"))
    f = fixture(FX)
    h = f.hexof("carol-wcag")
    w(f"RECALL WHERE hash = sha256:{h}", eq("hash", h), ["hash", "hash-literal"], sections=("5.2", "3.4"))
    w(f"RECALL beliefs WHERE hash = sha256:{h[:8]}", lambda r: r["addr"].startswith(h[:8]), ["hash", "hash-prefix"],
      sections=("5.2", "3.4"))
    w("RECALL WHERE hash = sha256:" + "0" * 64, lambda r: False, ["hash", "empty-result"], sections=("5.2", "3.4"))
    w("RECALL WHERE hash = $h", eq("hash", h), ["hash", "parameter"], params={"h": "sha256:" + h}, sections=("5.2", "3.4"))


def pipeline():
    a = "pipeline"
    n = iter(range(1, 1000))

    def p(query, pred, tags, level="extended", sections=("4", "8.1"), **kw):
        sel_kw = kw.pop("sel_kw", {})
        add(a, f"execute.pipeline.{next(n):03d}", FX, query, level, ["pipeline"] + tags, list(sections),
            sel=Sel(pred, **sel_kw), **kw)

    prefs = all_of(B, eq("relation", "mg:prefers"))
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY confidence DESC', prefs, ["order-by", "desc"],
      sel_kw={"order": "confidence", "desc": True}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY confidence ASC', prefs, ["order-by", "asc"],
      sel_kw={"order": "confidence"}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY confidence', prefs, ["order-by", "default-direction"],
      sel_kw={"order": "confidence"}, ordered=True, desc="ORDER BY without a direction is ascending.")
    p('RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC', all_of(B, eq("subject", "alice")), ["order-by", "time"],
      sel_kw={"order": "time", "desc": True}, ordered=True)
    p('RECALL beliefs WHERE subject = "alice" | ORDER BY time ASC', all_of(B, eq("subject", "alice")), ["order-by", "time"],
      sel_kw={"order": "time"}, ordered=True)
    p('RECALL beliefs WHERE relation = "member_of" | ORDER BY subject ASC', all_of(B, eq("relation", "member_of")),
      ["order-by", "string"], sel_kw={"order": "subject"}, ordered=True)
    p('RECALL beliefs WHERE relation = "member_of" | ORDER BY subject DESC', all_of(B, eq("relation", "member_of")),
      ["order-by", "string", "desc"], sel_kw={"order": "subject", "desc": True}, ordered=True)
    p('RECALL beliefs WHERE relation = "member_of" | ORDER BY confidence DESC', all_of(B, eq("relation", "member_of")),
      ["order-by", "tiebreak"], sel_kw={"order": "confidence", "desc": True}, ordered=True, sections=("17.4",),
      desc="Equal sort keys break ties by content address ascending (§17.4).")
    for lim in [1, 3, 5]:
        p(f'RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY confidence DESC | LIMIT {lim}', prefs,
          ["order-by", "limit"], sel_kw={"order": "confidence", "desc": True, "limit": lim}, ordered=True, with_total=True)
    p('RECALL beliefs WHERE subject = "alice" | LIMIT 2', all_of(B, eq("subject", "alice")), ["limit"], level="core",
      sel_kw={"limit": 2}, with_total=True, sections=("4", "8.1", "17.4"),
      desc="Without ORDER BY, equal scores order by content address ascending (§17.4), so LIMIT takes a defined prefix.")
    p('RECALL beliefs WHERE subject = "erin" | LIMIT 100', all_of(B, eq("subject", "erin")), ["limit"], level="core",
      sel_kw={"limit": 100}, with_total=True)
    p('RECALL beliefs WHERE subject = "bob" | LIMIT 1000', all_of(B, eq("subject", "bob")), ["limit", "limit-boundary"],
      level="core", sel_kw={"limit": 1000}, sections=("17.3",))
    p("RECALL beliefs", B, ["default-limit"], level="core", sel_kw={"limit": 20}, with_total=True, sections=("17.3", "17.4"),
      desc="An unbounded RECALL returns the default LIMIT of 20 grains (§17.3) and reports every match in total.")
    p("RECALL beliefs | ORDER BY time ASC", B, ["default-limit", "order-by"], sel_kw={"order": "time", "limit": 20},
      ordered=True, with_total=True, sections=("17.3",))
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY confidence DESC | OFFSET 2 | LIMIT 3', prefs,
      ["offset", "limit"], sel_kw={"order": "confidence", "desc": True, "offset": 2, "limit": 3}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY time ASC | OFFSET 10', prefs, ["offset"],
      sel_kw={"order": "time", "offset": 10}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY time ASC | OFFSET 50', prefs, ["offset", "empty-result"],
      sel_kw={"order": "time", "offset": 50}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY time ASC | OFFSET $skip | LIMIT 2', prefs, ["offset", "parameter"],
      sel_kw={"order": "time", "offset": 4, "limit": 2}, ordered=True, params={"skip": 4})
    p('RECALL beliefs WHERE subject = "carol" | ORDER BY confidence DESC | FIRST', all_of(B, eq("subject", "carol")),
      ["first"], sel_kw={"order": "confidence", "desc": True, "limit": 1}, ordered=True)
    p('RECALL beliefs WHERE subject = "carol" | ORDER BY time ASC | FIRST', all_of(B, eq("subject", "carol")),
      ["first"], sel_kw={"order": "time", "limit": 1}, ordered=True)
    p('RECALL beliefs WHERE relation = "mg:prefers" | ORDER BY subject ASC | LIMIT 4', prefs, ["order-by", "tiebreak", "limit"],
      sel_kw={"order": "subject", "limit": 4}, ordered=True, sections=("17.4",),
      desc="Four alice rows tie on subject; the content address breaks the tie.")
    p('RECALL beliefs WHERE subject = "nobody" | FIRST', lambda r: False, ["first", "empty-result"], sel_kw={"limit": 1})
    p('RECALL beliefs WHERE subject = "alice" | ORDER BY time ASC | SELECT subject, object', all_of(B, eq("subject", "alice")),
      ["select"], sel_kw={"order": "time"}, ordered=True, sections=("4",),
      desc="SELECT narrows the fields, not the grains: the same grains come back.")
    p('RECALL beliefs WHERE relation = "role" | SELECT object', all_of(B, eq("relation", "role")), ["select"])
    for (q, pred) in [
        ('RECALL beliefs WHERE subject = "alice" | COUNT', all_of(B, eq("subject", "alice"))),
        ('RECALL beliefs | COUNT', B),
        ('RECALL beliefs WHERE subject = "nobody" | COUNT', lambda r: False),
        ('RECALL beliefs WHERE tags INCLUDE ["preference"] | COUNT', all_of(B, include(["preference"]))),
    ]:
        _, total = select(FX, pred, limit=None)
        add(a, f"execute.pipeline.{next(n):03d}", FX, q, "extended", ["pipeline", "count"], ["4", "8.1"],
            total=total, fields={"/count": total}, desc="COUNT counts every match, not a page of them.")
    f = fixture(FX)

    def values(query, tags, vals, level="extended"):
        add(a, f"execute.pipeline.{next(n):03d}", FX, query, level, ["pipeline"] + tags, ["4", "8.1"],
            fields={"/values": vals})

    values('RECALL beliefs WHERE relation = "member_of" | ORDER BY subject ASC | SUBJECTS', ["subjects", "extractor"],
           ["alice", "bob", "carol", "dave", "erin"])
    values('RECALL beliefs WHERE subject = "carol" | ORDER BY time ASC | OBJECTS', ["objects", "extractor"],
           [f.rec(k)["g"]["object"] for k in ["carol-team", "carol-figma", "carol-theme", "carol-huddles", "carol-wcag"]])
    values('RECALL beliefs WHERE subject = "dave" | ORDER BY confidence DESC | HASHES', ["hashes", "extractor"],
           [f.addr(k) for k in ["dave-team", "dave-python", "dave-tea", "dave-stats"]])
    values('RECALL beliefs WHERE relation = "member_of" | ORDER BY subject DESC | OBJECTS', ["objects", "extractor"],
           ["team-beta", "team-alpha"])
    add(a, f"execute.pipeline.{next(n):03d}", FX, 'RECALL beliefs WHERE relation = "member_of" | GROUP BY object',
        "extended", ["pipeline", "group-by"], ["4", "8.1"], total=5, desc="GROUP BY groups the five matches; total counts them.")
    add(a, f"execute.pipeline.{next(n):03d}", FX, 'RECALL beliefs WHERE relation = "member_of" | ORDER BY object ASC | GROUP BY object',
        "extended", ["pipeline", "group-by"], ["4", "8.1"],
        fields={"/groups/0/key": "team-alpha", "/groups/0/count": 3, "/groups/1/key": "team-beta", "/groups/1/count": 2})
    add(a, f"execute.pipeline.{next(n):03d}", FX, 'RECALL beliefs WHERE subject = "alice" | ORDER BY relation ASC | GROUP BY relation',
        "extended", ["pipeline", "group-by"], ["4", "8.1"],
        fields={"/groups/0/key": "member_of", "/groups/0/count": 1, "/groups/1/key": "mg:avoids",
                "/groups/2/key": "mg:knows", "/groups/3/key": "mg:prefers", "/groups/3/count": 4})
    # DEFAULT_LIMIT's boundary pair (§17.3: 20): of the 28 beliefs, 20 remain after OFFSET 8 and the
    # default page holds them all; 21 remain after OFFSET 7 and the page leaves the last one out.
    p("RECALL beliefs | ORDER BY time ASC | OFFSET 8", B, ["default-limit", "order-by", "offset", "DEFAULT_LIMIT",
      "limit-boundary"], sel_kw={"order": "time", "offset": 8, "limit": 20}, ordered=True, sections=("17.3", "4"),
      desc="20 beliefs remain after OFFSET 8: the default LIMIT of 20 (§17.3) returns every one of them.")
    p("RECALL beliefs | ORDER BY time ASC | OFFSET 7", B, ["default-limit", "order-by", "offset", "DEFAULT_LIMIT"],
      sel_kw={"order": "time", "offset": 7, "limit": 20}, ordered=True, sections=("17.3", "4"),
      desc="21 beliefs remain after OFFSET 7: the default LIMIT of 20 (§17.3) leaves the latest one out.")


def nulls():
    a = "recall-where"
    add(a, "execute.null.001", FX, 'RECALL beliefs WHERE importance >= 0.0 AND subject IN ("alice", "bob")', "core",
        ["recall", "null-semantics"], ["5.4"], sel=Sel(all_of(B, isin("subject", ["alice", "bob"]), cmp("importance", ">=", 0.0))),
        desc="importance >= 0.0 is true for every present value; absent never matches.")
    add(a, "execute.null.002", FX, 'RECALL beliefs WHERE importance < 1.0 AND subject = "bob"', "core", ["recall", "null-semantics"],
        ["5.4"], sel=Sel(all_of(B, cmp("importance", "<", 1.0), eq("subject", "bob"))))
    add(a, "execute.null.003", FX, 'RECALL beliefs WHERE user_id = "team-alpha"', "core", ["recall", "null-semantics"], ["5.4"],
        empty=True, desc="The team-alpha grain has no user_id, so it does not match.")
    add(a, "execute.null.004", FX, 'RECALL beliefs WHERE recall_priority = "hot" AND subject = "bob"', "core",
        ["recall", "null-semantics", "meta"], ["5.4"], sel=Sel(all_of(B, eq("recall_priority", "hot"), eq("subject", "bob"))))
    add(a, "execute.null.005", FX, 'RECALL beliefs WHERE tags EXCLUDE ["team"] AND subject = "team-alpha"', "core",
        ["recall", "tags", "exclude"], ["5.4", "5.2"], keys=["team-alpha-lead"],
        desc="A grain with an empty tag set excludes every tag.")
    add(a, "execute.null.006", FX, 'RECALL beliefs WHERE tags INCLUDE ["team"] AND subject = "team-alpha"', "core",
        ["recall", "tags", "include"], ["5.4", "5.2"], empty=True)


def build():
    where()
    pipeline()
    nulls()
