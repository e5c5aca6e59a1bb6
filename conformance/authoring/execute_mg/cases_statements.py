"""The other statements (CAL §8): EXISTS, HISTORY, DESCRIBE, BATCH, COALESCE,
LET, EXPLAIN, set operations, ASSEMBLE, Tier 1 refusals, and the
execution-only error codes that can be triggered deterministically."""

from book import Sel, add, all_of, eq, isin, ty
from oracle import fixture

B = ty("belief")
ADD = 'ADD belief SET subject = "alice" SET relation = "mg:prefers" SET object = "tea" REASON "stated today"'


def statements():
    a = "statements"
    n = iter(range(1, 1000))

    def s(fx, query, level, tags, sections, **kw):
        if kw.get("keys") == []:
            kw.pop("keys")
            kw["empty"] = True
        add(a, f"execute.stmt.{next(n):03d}", fx, query, level, tags, list(sections), **kw)

    bb, sc = "beliefs-basic", "supersession-chains"
    f, c = fixture(bb), fixture(sc)
    # EXISTS (§8.3)
    s(bb, f"EXISTS sha256:{f.hexof('alice-theme')}", "core", ["exists"], ["8.3"], fields={"/exists": True})
    s(bb, f"EXISTS sha256:{f.hexof('bob-editor')[:8]}", "core", ["exists", "hash-prefix"], ["8.3", "3.4"], fields={"/exists": True})
    s(bb, "EXISTS sha256:" + "0" * 64, "core", ["exists"], ["8.3"], fields={"/exists": False})
    s(bb, "EXISTS sha256:00000000", "core", ["exists", "hash-prefix"], ["8.3"], fields={"/exists": False})
    s(bb, "EXISTS $h", "core", ["exists", "parameter"], ["8.3", "4"], params={"h": "sha256:" + f.hexof("carol-wcag")},
      fields={"/exists": True})
    s(sc, f"EXISTS sha256:{c.hexof('theme-v1')}", "core", ["exists", "supersession"], ["8.3", "8.9"], fields={"/exists": True},
      desc="A superseded grain still exists: nothing is ever deleted.")
    s("empty", "EXISTS sha256:" + "a" * 64, "core", ["exists", "empty-store"], ["8.3"], fields={"/exists": False})
    s("contradictions", f"EXISTS sha256:{fixture('contradictions').hexof('erin-city')}", "core", ["exists", "contradicted"],
      ["8.3"], fields={"/exists": True})
    # HISTORY (§8.4)
    s(sc, f"HISTORY sha256:{c.hexof('theme-v3')}", "extended", ["history", "by-hash"], ["8.4"],
      keys=["theme-v3", "theme-v2", "theme-v1"], ordered=True, desc="Versions newest first.")
    s(sc, f"HISTORY sha256:{c.hexof('status-v5')}", "extended", ["history", "by-hash"], ["8.4"],
      keys=[f"status-v{i}" for i in range(5, 0, -1)], ordered=True)
    s(sc, f"HISTORY sha256:{c.hexof('editor-v2')[:10]}", "extended", ["history", "by-hash", "hash-prefix"], ["8.4"],
      keys=["editor-v2", "editor-v1"], ordered=True)
    s(sc, f"HISTORY sha256:{c.hexof('alice-team')}", "extended", ["history", "by-hash", "single-version"], ["8.4"],
      keys=["alice-team"], ordered=True)
    s(sc, "HISTORY sha256:" + "cd" * 32, "extended", ["history", "E046"], ["8.4", "22"], error="CAL-E046")
    s(sc, 'HISTORY WHERE subject = "project phoenix" AND relation = "status"', "extended", ["history", "by-triple"], ["8.4"],
      keys=[f"status-v{i}" for i in range(5, 0, -1)], ordered=True)
    s(sc, 'HISTORY WHERE subject = "carol" AND relation = "lives_in"', "extended", ["history", "by-triple"], ["8.4"],
      keys=["city-v2", "city-v1"], ordered=True)
    s(sc, 'HISTORY WHERE subject = "nobody" AND relation = "status"', "extended", ["history", "by-triple", "empty-result"], ["8.4"],
      keys=[])
    s(sc, 'HISTORY WHERE subject = "project phoenix" AND relation = "status" AS OF "2026-02-10"', "extended",
      ["history", "as-of"], ["8.4"], keys=["status-v3"], flags=["needs-clock"],
      desc="The version the memory held at the end of 10 February.")
    s(sc, 'HISTORY WHERE subject = "project phoenix" AND relation = "status" AS OF "2026-01-06"', "extended",
      ["history", "as-of"], ["8.4"], keys=["status-v1"], flags=["needs-clock"])
    s(sc, 'HISTORY WHERE subject = "project phoenix" AND relation = "status" AS OF "2025-12-01"', "extended",
      ["history", "as-of", "empty-result"], ["8.4"], keys=[], flags=["needs-clock"])
    s(sc, 'HISTORY WHERE subject = "carol" AND relation = "lives_in" AS OF "2026-03-01"', "extended", ["history", "as-of"],
      ["8.4"], keys=["city-v2"], flags=["needs-clock"])
    s(sc, f"HISTORY sha256:{c.hexof('editor-v2')} DIFF sha256:{c.hexof('editor-v1')}", "extended", ["history", "diff"], ["8.4"],
      fields={"/_cal/statement_type": "history"})
    # DESCRIBE (§8.6)
    for target, level in [("grain_types", "extended"), ("fields", "extended"), ("fields belief", "extended"),
                          ("fields consent", "extended"), ("capabilities", "extended"), ("server", "extended"),
                          ("templates", "full"), ("grammar", "full")]:
        s(bb, f"DESCRIBE {target}", level, ["describe", target.split()[0]], ["8.6"], fields={"/_cal/statement_type": "describe"})
    # BATCH (§8.7)
    s(bb, 'BATCH { a: RECALL beliefs WHERE subject = "erin", b: EXISTS sha256:00000000 }', "extended", ["batch"], ["8.7"],
      fields={"/_cal/statement_type": "batch", "/results/b/exists": False})
    s(bb, 'BATCH { p: RECALL beliefs WHERE subject = "dave" | COUNT, q: RECALL beliefs WHERE subject = "erin" | COUNT }',
      "extended", ["batch", "count"], ["8.7"], fields={"/results/p/count": 4, "/results/q/count": 2})
    s(bb, 'BATCH { only: DESCRIBE grain_types }', "extended", ["batch", "describe"], ["8.7"], fields={"/_cal/statement_type": "batch"})
    s(sc, f'BATCH {{ h: HISTORY sha256:{c.hexof("city-v2")}, e: EXISTS sha256:{c.hexof("city-v1")} }}', "extended",
      ["batch", "history", "exists"], ["8.7"], fields={"/results/e/exists": True})
    # COALESCE (§8.13)
    s(bb, 'COALESCE(RECALL beliefs WHERE subject = "zed", RECALL beliefs WHERE subject = "erin")', "extended", ["coalesce"],
      ["8.13"], keys=["erin-slides", "erin-team"])
    s(bb, 'COALESCE(RECALL beliefs WHERE subject = "dave", RECALL beliefs WHERE subject = "erin")', "extended",
      ["coalesce", "short-circuit"], ["8.13"], sel=Sel(all_of(B, eq("subject", "dave"))))
    s(bb, 'COALESCE(RECALL beliefs WHERE subject = "x", RECALL beliefs WHERE subject = "y")', "extended",
      ["coalesce", "empty-result"], ["8.13"], keys=[])
    s(bb, 'COALESCE(RECALL beliefs WHERE subject = "x", RECALL beliefs WHERE subject = "y", RECALL beliefs WHERE subject = "z", '
      'RECALL beliefs WHERE subject = "w", RECALL beliefs WHERE relation = "led_by")', "extended", ["coalesce", "five-branches"],
      ["8.13", "17.3"], keys=["team-alpha-lead"])
    s(bb, 'COALESCE(RECALL beliefs WHERE subject = "alice" AND relation = "favorite_color", '
      'RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND tags INCLUDE ["ui"])', "extended",
      ["coalesce", "spec-example"], ["8.13"], keys=["alice-theme"])
    # LET (§8.12)
    s(bb, 'LET $m = RECALL beliefs WHERE relation = "member_of" AND object = "team-beta" | SUBJECTS; '
      'RECALL beliefs WHERE subject IN ($m)', "extended", ["let", "subquery"], ["8.12"],
      sel=Sel(all_of(B, isin("subject", ["dave", "erin"]))))
    s(bb, 'LET $m = RECALL beliefs WHERE relation = "member_of" AND object = "team-alpha" | SUBJECTS; '
      'RECALL beliefs WHERE subject IN ($m) AND relation = "role"', "extended", ["let", "subquery"], ["8.12"],
      keys=["alice-role", "bob-role"])
    s(bb, 'LET $x = RECALL beliefs WHERE object = "nothing" | SUBJECTS; RECALL beliefs WHERE subject IN ($x)', "extended",
      ["let", "empty-result"], ["8.12"], keys=[])
    s(bb, 'RECALL beliefs WHERE subject IN (RECALL beliefs WHERE object = "team-beta" | SUBJECTS) AND relation = "mg:prefers"',
      "extended", ["subquery", "in"], ["4", "24"], keys=["dave-python", "dave-tea", "erin-slides"])
    s(bb, 'LET $t = RECALL beliefs WHERE relation = "member_of" AND object = "team-beta" | SUBJECTS; '
      'ASSEMBLE beta FROM prefs: (RECALL beliefs WHERE subject IN ($t) AND relation = "mg:prefers") BUDGET 20 grains',
      "extended", ["let", "assemble"], ["8.12", "8.2"], fields={"/_cal/statement_type": "assemble"})
    # EXPLAIN (§8.5)
    for q in ['RECALL beliefs ABOUT "alice"', 'RECALL beliefs WHERE query = "alice preferences" | LIMIT 10',
              'ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "alice") BUDGET 2000 tokens',
              '(RECALL beliefs WHERE subject = "alice") UNION (RECALL beliefs WHERE subject = "bob")', ADD,
              f'SUPERSEDE sha256:{f.hexof("alice-theme")} SET object = "light mode" REASON "changed"',
              f'REVERT sha256:{f.hexof("alice-theme")} REASON "undo"']:
        s(bb, "EXPLAIN " + q, "extended", ["explain"], ["8.5", "13"], fields={"/_cal/statement_type": "explain"},
          desc="EXPLAIN returns the plan and executes nothing, Tier 1 statements included.")
    # Set operations (§8.11)
    so = "set-operation"
    s(bb, '(RECALL beliefs WHERE subject = "dave") UNION (RECALL beliefs WHERE subject = "erin")', "extended", [so, "union"],
      ["8.11"], sel=Sel(all_of(B, isin("subject", ["dave", "erin"]))))
    s(bb, '(RECALL beliefs WHERE subject = "dave") UNION (RECALL beliefs WHERE object = "team-beta")', "extended",
      [so, "union", "dedup"], ["8.11"], sel=Sel(all_of(B, lambda r: r["g"]["subject"] == "dave" or r["g"]["object"] == "team-beta")),
      desc="UNION deduplicates by content address.")
    s(bb, '(RECALL beliefs WHERE relation = "mg:prefers") INTERSECT (RECALL beliefs WHERE tags INCLUDE ["ui"])', "extended",
      [so, "intersect"], ["8.11"], keys=["alice-theme", "bob-theme", "carol-theme"])
    s(bb, '(RECALL beliefs WHERE subject = "alice") INTERSECT (RECALL beliefs WHERE subject = "bob")', "extended",
      [so, "intersect", "empty-result"], ["8.11"], keys=[])
    s(bb, '(RECALL beliefs WHERE subject = "carol") EXCEPT (RECALL beliefs WHERE relation = "mg:prefers")', "extended",
      [so, "except"], ["8.11"], keys=["carol-huddles", "carol-wcag", "carol-team"])
    s(bb, '(RECALL beliefs WHERE subject = "erin") EXCEPT (RECALL beliefs WHERE subject = "nobody")', "extended",
      [so, "except"], ["8.11"], keys=["erin-slides", "erin-team"])
    s(bb, '(RECALL beliefs WHERE subject = "erin") EXCEPT (RECALL beliefs WHERE subject = "erin")', "extended",
      [so, "except", "empty-result"], ["8.11"], keys=[])
    s(bb, '(RECALL beliefs WHERE subject = "dave") UNION ((RECALL beliefs WHERE subject = "erin") EXCEPT '
      '(RECALL beliefs WHERE relation = "member_of"))', "extended", [so, "nested"], ["8.11"],
      keys=["dave-python", "dave-tea", "dave-team", "dave-stats", "erin-slides"])
    s(bb, '(RECALL beliefs WHERE tags INCLUDE ["knowledge"]) INTERSECT (RECALL beliefs WHERE confidence >= 0.9)', "extended",
      [so, "intersect"], ["8.11"], keys=["alice-incidents", "bob-postgres", "carol-wcag"])
    # ASSEMBLE (§8.2)
    asm = 'ASSEMBLE ctx FOR "alice" FROM p: (RECALL beliefs ABOUT "alice" WHERE relation = "mg:prefers"), ' \
          'k: (RECALL beliefs ABOUT "alice" WHERE relation = "mg:knows") BUDGET 2000 tokens PRIORITY p > k'
    s(bb, asm, "extended", ["assemble", "budget", "priority"], ["8.2"], fields={"/_cal/statement_type": "assemble",
                                                                             "/_cal/budget/grains_returned": 5})
    s(bb, asm + " FORMAT markdown", "extended", ["assemble", "format"], ["8.2", "10"], fields={"/_cal/budget/grains_returned": 5})
    s(bb, 'ASSEMBLE ctx FROM a: (RECALL beliefs WHERE subject = "alice"), b: (RECALL beliefs WHERE subject = "bob") '
      'BUDGET 3 grains PRIORITY a > b', "extended", ["assemble", "budget-grains"], ["8.2"],
      fields={"/_cal/budget/grains_returned": 3}, desc="A grain budget caps the grains the assembly returns.")
    s(bb, 'ASSEMBLE ctx FROM a: (RECALL beliefs WHERE subject = "erin"), b: (RECALL beliefs WHERE object = "team-beta") '
      'BUDGET 50 grains PRIORITY a > b WITH dedup(subject)', "extended", ["assemble", "dedup"], ["8.2"],
      fields={"/_cal/statement_type": "assemble"})
    s("empty", 'ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "alice") BUDGET 100 tokens', "extended", ["assemble", "empty-store"],
      ["8.2"], fields={"/_cal/budget/grains_returned": 0})
    # Tier 1 without a Tier 1 capability (§2.4, §17.2): refused, store unchanged.
    t1 = [ADD,
          'ADD observation SET subject = "system" SET relation = "mg:perceives" SET object = "late nights" '
          'SET observer_id = "obs-1" SET observer_type = "agent:monitor" REASON "pattern"',
          'ADD goal SET subject = "alice" SET relation = "mg:intends" SET object = "review" SET goal_state = "active" REASON "plan"',
          f'SUPERSEDE sha256:{f.hexof("alice-theme")} SET object = "light mode" REASON "changed"',
          f'SUPERSEDE sha256:{f.hexof("bob-editor")} SET confidence = 0.5 SET tags = ["tooling"] REASON "less sure"',
          f'REVERT sha256:{f.hexof("alice-theme")} REASON "undo"',
          'SUPERSEDE sha256:' + "e" * 64 + ' SET object = "x" REASON "missing target"']
    for q in t1:
        s(bb, q, "core", ["tier1", "E044"], ["2.4", "17.2", "22"], error="CAL-E044",
          desc="Without a Tier 1 capability an evolve statement is refused and nothing is written.")
    s(sc, f'SUPERSEDE sha256:{c.hexof("theme-v3")} SET object = "sepia" REASON "x"', "core", ["tier1", "E044"], ["2.4"],
      error="CAL-E044")
    s(sc, f'REVERT sha256:{c.hexof("theme-v2")} REASON "x"', "core", ["tier1", "E044"], ["2.4"], error="CAL-E044")
    s(bb, ADD, "core", ["tier1", "E044", "capability"], ["2.4", "18.1"], error="CAL-E044",
      capability='{"namespace": "conf:main", "user_id": "alice", "tier": 0}')
    # Execution-only errors
    s(bb, 'ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "alice") BUDGET 100 tokens FORMAT TEMPLATE no_such_template', "full",
      ["assemble", "template", "E085"], ["10.6", "22"], error="CAL-E085")
    s(bb, "RECALL beliefs WHERE subject = $who", "core", ["parameter", "E008"], ["4", "22"], error="CAL-E008",
      desc="A parameter the request does not bind is CAL-E008.")
    s(bb, 'RECALL beliefs', "core", ["default-limit", "budget"], ["17.3", "14.1"], fields={"/_cal/budget/grains_returned": 20},
      total=28, desc="The default LIMIT of 20 bounds the grains returned; total counts all 28 matches.")
    s("empty", "RECALL beliefs", "core", ["empty-store"], ["8.1"], keys=[], total=0)
    s("empty", 'RECALL beliefs WHERE subject = "alice" | COUNT', "extended", ["empty-store", "count"], ["8.1"], total=0,
      fields={"/count": 0})
    s("empty", "RECALL LIKE \"anything\"", "extended", ["empty-store", "like"], ["9.4"], keys=[])
    s("empty", 'HISTORY WHERE subject = "alice" AND relation = "mg:prefers"', "extended", ["empty-store", "history"], ["8.4"], keys=[])
    # HISTORY … DIFF (§8.4, "show changes between two versions"): what changed is judged by invariant
    # (ruling C33), whatever the answer's shape: some part of it outside `results` names each changed
    # field with both values; naming no unchanged field besides, and our `diff` member, are rulings.
    CORE_FIELDS = ["subject", "relation", "object", "confidence", "namespace", "user_id", "type", "importance"]
    for x, y in [("editor-v2", "editor-v1"), ("editor-v1", "editor-v2"), ("theme-v3", "theme-v1"), ("city-v2", "city-v1"),
                 ("status-v5", "status-v1"), ("editor-v2", "alice-tea")]:
        gx, gy = c.rec(x)["g"], c.rec(y)["g"]
        changed = {k: [gx[k], gy[k]] for k in CORE_FIELDS if gx.get(k) != gy.get(k)}
        unchanged = [k for k in CORE_FIELDS if gx.get(k) == gy.get(k)]
        invariants = [{"pointer": "", "changes": changed, "section": "8.4"},
                      {"pointer": "", "changes": changed, "unchanged": unchanged,
                       "ruling": "spec-decisions-conformance.md C33"}]
        same_chain = not (x == "editor-v2" and y == "alice-tea")
        s(sc, f"HISTORY sha256:{c.hexof(x)} DIFF sha256:{c.hexof(y)}", "extended", ["history", "diff"], ["8.4"],
          fields={"/_cal/statement_type": "history", "/diff/from": c.hexof(x), "/diff/to": c.hexof(y),
                  "/diff/same_chain": same_chain},
          rulings={"field /diff/from": "spec-decisions-interp.md S2", "field /diff/to": "spec-decisions-interp.md S2",
                   "field /diff/same_chain": "spec-decisions-interp.md S2"},
          invariants=invariants,
          desc=f"DIFF shows what changed from {x} to {y}: " + ", ".join(f"{k} {a!r} -> {b!r}" for k, (a, b) in changed.items())
          + (" (versions of different chains)" if not same_chain else "") + ".")

    # Compliance (§19, §23; ruling C34): what of them a request can observe. DSAR completeness
    # (§19.2 Art. 15: "RECALL WHERE user_id = ... | COUNT"), injection prevention (a parameter is a
    # value, never query text), Tier 1 traceability (§19.4: REASON is mandatory), default
    # minimization (the default LIMIT bounds a subject-access listing).
    t1 = '{"namespace": "conf:main", "user_id": "alice", "tier": 1}'
    for fx in ["all-types", "beliefs-basic", "relations"]:
        fxd = fixture(fx)
        n_alice = sum(1 for r in fxd.recs if not r["superseded"] and r["g"].get("user_id") == "alice")
        s(fx, 'RECALL WHERE user_id = "alice" | COUNT', "extended", ["compliance", "dsar", "count", "user_id"],
          ["19.2", "23"], fields={"/count": n_alice},
          desc=f"A subject-access request (§19.2 Art. 15, §23 cal_dsar_completeness) counts every current grain of "
               f"the user, of every type: {n_alice} in {fx}.")
    for value in ['alice" OR subject = "bob', 'alice") | COUNT', 'alice" ; ADD belief SET subject = "x" SET '
                  'relation = "r" SET object = "o" REASON "r']:
        s(bb, "RECALL beliefs WHERE subject = $who", "core", ["compliance", "injection", "parameter"], ["23", "4"],
          params={"who": value}, keys=[],
          desc="A parameter is bound as a value, never read as query text (§23 cal_injection_prevention): no grain "
               "has this subject, and nothing is written.")
    s(sc, f'SUPERSEDE sha256:{c.hexof("editor-v2")} SET object = "nano"', "evolve",
      ["compliance", "tier1", "supersede", "E018"], ["19.4", "23", "8.9"], error="CAL-E018", capability=t1,
      desc="Tier 1 traceability (§19.4): a SUPERSEDE without REASON is refused, even under a Tier 1 token.")
    s(sc, f'REVERT sha256:{c.hexof("editor-v2")}', "evolve", ["compliance", "tier1", "revert", "E018"],
      ["19.4", "23", "8.10"], error="CAL-E018", capability=t1,
      desc="Tier 1 traceability (§19.4): a REVERT without REASON is refused, even under a Tier 1 token.")
    s("relations", 'RECALL WHERE user_id = "alice"', "core", ["compliance", "default-limit", "minimization"],
      ["23", "17.3", "19.2"], fields={"/_cal/budget/grains_returned": 20}, total=23,
      desc="Default minimization (§23 cal_default_minimization, GDPR Art. 25): a listing of all 23 of a user's "
           "grains returns the default LIMIT of 20, the total counting all.")


def build():
    statements()
