"""More execution-only error outcomes, so that each code the spec fixes has
about ten cases: E040, E041, E042 under a Tier 1 capability; E046, E076 and
E085 at Tier 0 (CAL Appendix C)."""

from book import add
from oracle import fixture

TIER1 = '{"namespace": "conf:main", "user_id": "alice", "tier": 1}'


def evolve_more():
    a = "evolve"
    n = iter(range(1, 1000))
    sc, at, bb = fixture("supersession-chains"), fixture("all-types"), fixture("beliefs-basic")

    def e(fx, query, code, tags, sections, desc):
        add(a, f"execute.evolve-err.{next(n):03d}", fx, query, "evolve", ["tier1", code.replace("CAL-", "")] + tags,
            list(sections), error=code, capability=TIER1, desc=desc)

    for key, sets in [("theme-v2", 'SET object = "x"'), ("status-v1", 'SET confidence = 0.9'),
                      ("status-v2", 'SET importance = 0.2'), ("status-v3", 'SET tags = ["late"]'),
                      ("city-v1", 'SET object = "Braga" SET confidence = 0.5'), ("theme-v1", 'SET tags = []'),
                      ("editor-v1", 'SET object = "nano" SET importance = 0.1')]:
        e("supersession-chains", f'SUPERSEDE sha256:{sc.hexof(key)} {sets} REASON "late update"', "CAL-E040", ["supersede"],
          ["8.9", "17.4"], "The target is no longer current: SupersessionConflict.")
    for key in ["editor-v1", "city-v1", "bob-team", "carol-team", "alice-tea"]:
        e("supersession-chains", f'REVERT sha256:{sc.hexof(key)} REASON "undo"', "CAL-E041", ["revert"], ["8.10"],
          "The target is an original grain: NoPreviousVersion.")
    for key in ["alice-theme", "carol-wcag"]:
        e("beliefs-basic", f'REVERT sha256:{bb.hexof(key)} REASON "undo"', "CAL-E041", ["revert"], ["8.10"],
          "A belief that was never superseded has no previous version.")
    for key in ["event-2", "event-3", "state-1", "workflow-1", "action-3", "reasoning-1", "consensus-1", "consent-2"]:
        e("all-types", f'SUPERSEDE sha256:{at.hexof(key)} SET confidence = 0.5 REASON "x"', "CAL-E042",
          ["supersede", key.split("-")[0]], ["8.9"], "Only Belief grains can be superseded.")


def tier0_more():
    a = "statements"
    n = iter(range(1, 1000))
    sc = fixture("supersession-chains")
    unknown = ["ab" * 32, "cd" * 32, "0123456789abcdef" * 4, "f" * 64]

    def s(fx, query, code, tags, sections, desc, level="extended"):
        add(a, f"execute.err.{next(n):03d}", fx, query, level, [code.replace("CAL-", "")] + tags, list(sections), error=code,
            desc=desc)

    s("supersession-chains", f"HISTORY sha256:{sc.hexof('theme-v3')} DIFF sha256:{unknown[0]}", "CAL-E046", ["history", "diff"],
      ["8.4"], "DIFF against an address the store does not hold.")
    s("supersession-chains", f"HISTORY sha256:{unknown[1]}", "CAL-E046", ["history"], ["8.4"], "HISTORY of an unknown address.")
    s("empty", f"HISTORY sha256:{unknown[2]}", "CAL-E046", ["history", "empty-store"], ["8.4"], "Nothing exists in an empty store.")
    s("supersession-chains", "HISTORY sha256:deadbeef", "CAL-E046", ["history", "hash-prefix"], ["8.4", "3.4"],
      "No grain has this 8-digit prefix.")
    s("conversations", f"RECALL events THREAD FROM sha256:{unknown[3]}", "CAL-E046", ["thread"], ["8.1.1"],
      "THREAD FROM an unknown message.")
    s("empty", f"RECALL events THREAD FROM sha256:{unknown[0]}", "CAL-E046", ["thread", "empty-store"], ["8.1.1"],
      "THREAD FROM in an empty store.")
    add(a, f"execute.err.{next(n):03d}", "multi-namespace", f"HISTORY sha256:{fixture('multi-namespace').hexof('globex-0')}",
        "extended", ["E046", "history", "capability"], ["8.4", "18.3", "20.1"], error="CAL-E046", capability="acme",
        desc="A grain outside the token's namespace is answered exactly as one that does not exist.")
    bad = [f"RECALL events THREAD FROM sha256:{u}" for u in unknown]
    s("conversations", f"ASSEMBLE c FROM a: ({bad[0]}), b: ({bad[1]}), c: ({bad[2]})", "CAL-E076", ["assemble"], ["8.2"],
      "Three sources, all failing.")
    s("conversations", f"ASSEMBLE c FROM a: ({bad[3]}) BUDGET 500 tokens FORMAT markdown", "CAL-E076", ["assemble"], ["8.2"],
      "The only source fails, whatever the budget and format.")
    s("conversations", f"ASSEMBLE c FROM a: ({bad[0]}), b: ({bad[1]}) BUDGET 10 grains PRIORITY b > a", "CAL-E076",
      ["assemble", "priority"], ["8.2"], "Priority does not matter when every source fails.")
    s("empty", f"ASSEMBLE c FROM a: ({bad[2]})", "CAL-E076", ["assemble", "empty-store"], ["8.2"], "In an empty store too.")
    for q in ['ASSEMBLE c FROM a: (RECALL beliefs ABOUT "alice") FORMAT TEMPLATE nope',
              'ASSEMBLE c FROM a: (RECALL beliefs) BUDGET 10 grains FORMAT TEMPLATE team_digest',
              'ASSEMBLE c FOR "x" FROM a: (RECALL beliefs), b: (RECALL goals) BUDGET 1000 tokens PRIORITY a > b FORMAT TEMPLATE t1',
              'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "bob") FORMAT TEMPLATE Structured']:
        s("beliefs-basic", q, "CAL-E085", ["assemble", "template"], ["10.6", "22"], "No template of this name is registered.",
          level="full")


def build():
    evolve_more()
    tier0_more()
