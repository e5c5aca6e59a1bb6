"""Domain profile querying (CAL §12) over `domain-profiles`, evolve-level
error outcomes under a Tier 1 capability (§8.8-§8.10, Appendix C E040-E046),
and ASSEMBLE source failures (E076)."""

from book import Sel, add, all_of, eq, include, isin, ty
from oracle import fixture

B = ty("belief")
TIER1 = '{"namespace": "conf:main", "user_id": "alice", "tier": 1}'


def domain():
    a = "domain"
    n = iter(range(1, 1000))
    fx = "domain-profiles"

    def d(query, pred, tags, sections=("12.1", "12.2"), **kw):
        add(a, f"execute.domain.{next(n):03d}", fx, query, "extended", ["domain-profile"] + tags, list(sections),
            sel=Sel(pred), **kw)

    hc = include(["profile:healthcare"])
    d('RECALL WHERE tags INCLUDE ["profile:healthcare"]', hc, ["profile-tag"], sections=("12.1",))
    d('RECALL beliefs WHERE tags INCLUDE ["profile:finance"]', all_of(B, include(["profile:finance"])), ["profile-tag"],
      sections=("12.1",))
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id = "P-12345"',
      all_of(B, hc, eq("hc:patient_id", "P-12345")), ["hc"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id = "P-99999"',
      all_of(B, hc, eq("hc:patient_id", "P-99999")), ["hc"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id != "P-12345"',
      all_of(B, hc, lambda r: r["g"].get("hc:patient_id") not in (None, "P-12345")), ["hc", "ne"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id = "P-12345" '
      'AND hc:condition_code IN ("J06.9", "J20.9") AND relation = "mg:knows" | ORDER BY time DESC | LIMIT 20',
      all_of(B, hc, eq("hc:patient_id", "P-12345"), isin("hc:condition_code", ["J06.9", "J20.9"]), eq("relation", "mg:knows")),
      ["hc", "in", "spec-example"],
      desc="The §12.2 example query.")
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:condition_code = "J20.9"',
      all_of(B, hc, eq("hc:condition_code", "J20.9")), ["hc"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:encounter_id = "E-3"',
      all_of(B, hc, eq("hc:encounter_id", "E-3")), ["hc", "empty-result"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND subject = "patient:P-12345" AND relation IS PREFERENCE',
      all_of(B, hc, eq("subject", "patient:P-12345"), isin("relation", ["mg:prefers", "mg:avoids", "mg:requires"])),
      ["hc", "relation-category", "spec-example"], sections=("12.1", "7.2"), desc="The §12.1 example query.")
    d('RECALL beliefs WHERE hc:patient_id = "P-12345"', all_of(B, eq("hc:patient_id", "P-12345")), ["hc", "W002"],
      warnings=["CAL-W002"], desc="A domain field without the matching profile: tag warns (CAL-W002) and still filters.")
    d('RECALL beliefs WHERE tags INCLUDE ["profile:finance"] AND fin:risk_category = "high"',
      all_of(B, include(["profile:finance"]), eq("fin:risk_category", "high")), ["fin"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:finance"] AND fin:account_id IN ("A-1", "A-2")',
      all_of(B, include(["profile:finance"]), isin("fin:account_id", ["A-1", "A-2"])), ["fin", "in"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:legal"] AND legal:jurisdiction = "EU"',
      all_of(B, include(["profile:legal"]), eq("legal:jurisdiction", "EU")), ["legal"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:integration"] AND int:source_system = "jira"',
      all_of(B, include(["profile:integration"]), eq("int:source_system", "jira")), ["int", "context-map"],
      desc="Integration fields live in the grain's context map (OMS Appendix A).")
    d('RECALL beliefs WHERE tags INCLUDE ["profile:integration"] AND int:sync_status != "ok"',
      all_of(B, include(["profile:integration"]), lambda r: (r["g"].get("context") or {}).get("int:sync_status") not in (None, "ok")),
      ["int", "ne"])
    d('RECALL beliefs WHERE tags EXCLUDE ["profile:healthcare", "profile:finance", "profile:legal", "profile:integration"]',
      all_of(B, lambda r: not any(t.startswith("profile:") for t in r["g"].get("structural_tags", []))), ["profile-tag", "exclude"],
      sections=("12.1",))
    add(a, f"execute.domain.{next(n):03d}", fx, 'RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] | COUNT', "extended",
        ["domain-profile", "count"], ["12.1"], total=4, fields={"/count": 4})
    d('RECALL beliefs WHERE zz:foo = "x"', lambda r: False, ["W003"], sections=("12.2", "22.3"), warnings=["CAL-W003"],
      desc="An unknown domain prefix warns (CAL-W003); no grain has the field.")
    d('RECALL beliefs WHERE fin:risk_category = "low"', all_of(B, eq("fin:risk_category", "low")), ["fin", "W002"],
      warnings=["CAL-W002"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:consumer"] AND con:interaction_channel = "web"', lambda r: False,
      ["con", "empty-result"])
    d('RECALL beliefs WHERE tags INCLUDE ["profile:legal"] AND legal:case_id = "C-7" AND relation = "mg:knows"',
      all_of(B, include(["profile:legal"]), eq("legal:case_id", "C-7"), eq("relation", "mg:knows")), ["legal", "and"])


def evolve():
    a = "evolve"
    n = iter(range(1, 1000))
    sc, at = fixture("supersession-chains"), fixture("all-types")

    def e(fx, query, code, tags, sections, desc):
        add(a, f"execute.evolve.{next(n):03d}", fx, query, "evolve", ["tier1", code.replace("CAL-", "")] + tags, list(sections),
            error=code, capability=TIER1, desc=desc)

    e("supersession-chains", f'SUPERSEDE sha256:{sc.hexof("theme-v1")} SET object = "sepia" REASON "x"', "CAL-E040",
      ["supersede"], ["8.9", "17.4"], "The target was already superseded: SupersessionConflict.")
    e("supersession-chains", f'SUPERSEDE sha256:{sc.hexof("status-v4")} SET object = "done" REASON "x"', "CAL-E040",
      ["supersede"], ["8.9", "17.4"], "A middle version of a chain was superseded too.")
    e("supersession-chains", f'SUPERSEDE sha256:{sc.hexof("editor-v1")} SET confidence = 0.1 REASON "x"', "CAL-E040",
      ["supersede"], ["8.9"], "SupersessionConflict whatever the SET clauses.")
    e("supersession-chains", f'REVERT sha256:{sc.hexof("theme-v1")} REASON "x"', "CAL-E041", ["revert"], ["8.10"],
      "The first version has no previous version to restore.")
    e("supersession-chains", f'REVERT sha256:{sc.hexof("alice-team")} REASON "x"', "CAL-E041", ["revert"], ["8.10"],
      "A grain that was never superseded has no previous version.")
    e("supersession-chains", f'REVERT sha256:{sc.hexof("status-v1")} REASON "x"', "CAL-E041", ["revert"], ["8.10"],
      "The original of a five-version chain.")
    for key, t in [("event-1", "event"), ("goal-1", "goal"), ("observation-1", "observation"), ("action-1", "action"),
                   ("consent-1", "consent")]:
        e("all-types", f'SUPERSEDE sha256:{at.hexof(key)} SET object = "x" REASON "x"', "CAL-E042", ["supersede", t],
          ["8.9"], f"Only Belief grains can be superseded; this target is {'an' if t[0] in 'aeo' else 'a'} {t}.")
    e("supersession-chains", 'SUPERSEDE sha256:' + "e" * 64 + ' SET object = "x" REASON "x"', "CAL-E046", ["supersede"],
      ["8.9"], "The target does not exist.")
    e("supersession-chains", 'REVERT sha256:' + "f" * 64 + ' REASON "x"', "CAL-E046", ["revert"], ["8.10"],
      "The target does not exist.")
    e("empty", 'SUPERSEDE sha256:' + "1" * 64 + ' SET object = "x" REASON "x"', "CAL-E046", ["supersede", "empty-store"],
      ["8.9"], "Nothing exists in an empty store.")
    e("empty", 'REVERT sha256:' + "2" * 64 + ' REASON "x"', "CAL-E046", ["revert", "empty-store"], ["8.10"],
      "Nothing exists in an empty store.")


def assemble_failures():
    a = "statements"
    cv = "conversations"
    bad1, bad2 = "ab" * 32, "cd" * 32
    add(a, "execute.assemble-fail.001", cv,
        f"ASSEMBLE c FROM a: (RECALL events THREAD FROM sha256:{bad1}), b: (RECALL events THREAD FROM sha256:{bad2})",
        "extended", ["assemble", "E076"], ["8.2", "22"], error="CAL-E076", desc="Every source fails (unknown THREAD FROM targets).")
    add(a, "execute.assemble-fail.002", cv, f"ASSEMBLE c FROM a: (RECALL events THREAD FROM sha256:{bad1})", "extended",
        ["assemble", "E076"], ["8.2", "22"], error="CAL-E076", desc="The only source fails.")
    add(a, "execute.assemble-fail.003", cv,
        f'ASSEMBLE c FROM a: (RECALL events THREAD FROM sha256:{bad1}), b: (RECALL events THREAD "sess-a")', "extended",
        ["assemble", "partial-failure"], ["8.2"], fields={"/_cal/statement_type": "assemble", "/_cal/budget/grains_returned": 4},
        desc="One failing source does not fail the assembly; the other's four grains are returned.")


def build():
    domain()
    evolve()
    assemble_failures()
