"""Writes `cases/execute/writes.json` and `cases/execute/transport.json` (run from anywhere;
standalone, it does not rewrite the other case files):

* writes made by the query itself (ruling C23): an ADD, SUPERSEDE or REVERT prepared and executed
  as the case's query declares its store change (`expect.store_change`: grains added by field
  values, addresses superseded), which the runner checks by reading the store back in the same
  session; `then` queries read it back again and their answers are judged (`expect.then`); DEFINE
  TEMPLATE as the query is checked by what later queries of the session see;
* CAL-E052, the 21st ADD within a minute in a namespace (§17.3, implementation-configurable: the
  code is scored as ruling S12);
* the transport codes through the engine's HTTP binding (ruling C24): CAL-E079 from an endpoint that
  answers one JSON object when asked to stream, CAL-E081 for a stream that cannot be resumed.
"""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CLOCK = "2026-03-06T12:00:00Z"
NS = "conf:main"
TIER1 = json.dumps({"namespace": NS, "user_id": "alice", "tier": 1})
TIER0 = json.dumps({"namespace": NS, "user_id": "alice", "tier": 0})
DARK = "sha256:f79ed30d186a068783217234f84b80cad1292e11889fe49d35009743c83f372a"  # alice prefers dark mode
CAROL = "sha256:4fbb3c5a4fedd92825b7c82c8ec2bb05b72f163877af34d7e0a04c70e5dc81ee"  # carol lives_in, the move

WRITES, TRANSPORT = [], []


def case(out, cid, level, tags, sections, desc, fixture, query, expect, **extra):
    c = {"id": cid, "kind": "execute", "level": level, "tags": tags, "sections": sections, "description": desc}
    rulings = extra.pop("rulings", None)
    if rulings:
        c["rulings"] = rulings
    c.update({"fixture": fixture, "query": query, "clock": CLOCK})
    c.update({k: v for k, v in extra.items() if v is not None})
    c["expect"] = expect
    out.append(c)


def write(n, tags, sections, desc, fixture, query, change, then=None, then_expect=None, params=None):
    expect = {"store_change": change}
    if then_expect:
        expect["then"] = then_expect
    case(WRITES, f"execute.write.{n:03d}", "evolve", ["tier1", "write-as-query"] + tags, sections, desc, fixture,
         query, expect, params=params, capability=TIER1, then=then)


def add_belief(subject, obj="green tea", extra=""):
    return (f'ADD belief SET subject = "{subject}" SET relation = "mg:prefers" SET object = "{obj}"{extra} '
            f'REASON "stated today"')


# --- ADD -------------------------------------------------------------------------------------
write(1, ["add"], ["8.8", "18.2", "18.3"],
      "An ADD prepared and executed as the query adds one belief with the fields it SETs, in the token's "
      "namespace and on behalf of its user.",
      "beliefs-basic", add_belief("zoe", extra=' SET confidence = 0.8'),
      {"added": [{"type": "belief", "subject": "zoe", "relation": "mg:prefers", "object": "green tea",
                  "confidence": 0.8, "namespace": NS, "user_id": "alice"}]})
write(2, ["add", "follow-up"], ["8.8", "5.3"],
      "The belief the query adds is found by a later read of the session, by subject and by tag.",
      "beliefs-basic", add_belief("zoe", extra=' SET tags = ["drinks"]'),
      {"added": [{"subject": "zoe", "object": "green tea"}]},
      then=['RECALL beliefs WHERE subject = "zoe"', 'RECALL beliefs WHERE tags INCLUDE ["drinks"]'],
      then_expect=[{"total": 1, "fields": {"/results/0/grain/object": "green tea"}},
                   {"total": 1, "fields": {"/results/0/grain/subject": "zoe"}}])
write(3, ["add", "observation"], ["8.8", "6.4"],
      "An ADD of an observation adds one, with its observer.",
      "beliefs-basic",
      'ADD observation SET subject = "office" SET relation = "mg:perceives" SET object = "too warm" '
      'SET observer_id = "sensor-7" SET observer_type = "sensor" REASON "reading"',
      {"added": [{"type": "observation", "subject": "office", "object": "too warm", "observer_id": "sensor-7"}]})
write(4, ["add", "goal"], ["8.8", "6.4"],
      "An ADD of a goal adds one, active unless its state is SET.",
      "beliefs-basic",
      'ADD goal SET subject = "zoe" SET relation = "mg:intends" SET object = "learn Portuguese" REASON "new year plan"',
      {"added": [{"type": "goal", "subject": "zoe", "object": "learn Portuguese", "goal_state": "active"}]},
      then=['RECALL goals WHERE subject = "zoe" AND goal_state = "active"'],
      then_expect=[{"total": 1}])
write(5, ["add", "params"], ["8.8", "3.4"],
      "An ADD whose values are $parameters adds the bound values.",
      "beliefs-basic",
      'ADD belief SET subject = $who SET relation = "mg:prefers" SET object = $what REASON "stated today"',
      {"added": [{"subject": "yann", "object": "oolong", "namespace": NS}]}, params={"who": "yann", "what": "oolong"})

# --- SUPERSEDE -------------------------------------------------------------------------------
write(6, ["supersede"], ["8.9", "17.4"],
      "A SUPERSEDE as the query adds the new version with the SET field changed and takes the old one "
      "out of the current view.",
      "beliefs-basic", f'SUPERSEDE {DARK} SET object = "light mode" REASON "changed her mind"',
      {"added": [{"subject": "alice", "relation": "mg:prefers", "object": "light mode", "namespace": NS}],
       "superseded": [DARK]})
write(7, ["supersede", "with-superseded", "follow-up"], ["8.9", "2.1"],
      "The version the query supersedes stays readable WITH superseded; the current view holds the new one.",
      "beliefs-basic", f'SUPERSEDE {DARK} SET object = "light mode" REASON "changed her mind"',
      {"added": [{"object": "light mode"}], "superseded": [DARK]},
      then=['RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND object = "dark mode" WITH superseded',
            'RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND object = "dark mode"'],
      then_expect=[{"results": [DARK], "ordered": False}, {"total": 0}])
write(8, ["supersede"], ["8.9", "5.3"],
      "Only the SET fields change: the new version keeps the old subject, relation and object.",
      "beliefs-basic", f'SUPERSEDE {DARK} SET confidence = 0.3 REASON "less sure"',
      {"added": [{"subject": "alice", "relation": "mg:prefers", "object": "dark mode", "confidence": 0.3}],
       "superseded": [DARK]})
write(9, ["supersede", "history", "follow-up"], ["8.9", "8.4"],
      "HISTORY of the version the query superseded finds the chain.",
      "beliefs-basic", f'SUPERSEDE {DARK} SET object = "light mode" REASON "changed her mind"',
      {"added": [{"object": "light mode"}], "superseded": [DARK]},
      then=[f"HISTORY {DARK}"], then_expect=[{"total": 1}])

# --- REVERT ----------------------------------------------------------------------------------
write(10, ["revert"], ["8.10"],
      "A REVERT as the query adds a version with the content before the target and supersedes the target.",
      "supersession-chains", f'REVERT {CAROL} REASON "the move was a mistake"',
      {"added": [{"subject": "carol", "relation": "lives_in", "object": "Porto"}], "superseded": [CAROL]})
write(11, ["revert", "follow-up"], ["8.10", "8.9"],
      "After the REVERT a read of carol's residence finds the restored content only.",
      "supersession-chains", f'REVERT {CAROL} REASON "the move was a mistake"',
      {"added": [{"object": "Porto"}], "superseded": [CAROL]},
      then=['RECALL beliefs WHERE subject = "carol" AND relation = "lives_in"'],
      then_expect=[{"total": 1, "fields": {"/results/0/grain/object": "Porto"}}])
write(12, ["revert", "E040", "follow-up"], ["8.10", "8.9"],
      "The version the query reverted is superseded: superseding it again in the session is SupersessionConflict.",
      "supersession-chains", f'REVERT {CAROL} REASON "the move was a mistake"',
      {"added": [{"object": "Porto"}], "superseded": [CAROL]},
      then=[f'SUPERSEDE {CAROL} SET object = "Faro" REASON "late update"'],
      then_expect=[{"error": {"code": "CAL-E040"}}])

# --- DEFINE TEMPLATE -------------------------------------------------------------------------
TPL = "DEFINE TEMPLATE digest EXTENDS structured ELEMENT { - {{grain.subject}}: {{grain.content}} }"
for n, (desc, then, then_expect) in enumerate([
    ("DEFINE TEMPLATE as the query: DESCRIBE templates in the same session lists it (§8.6).",
     ["DESCRIBE templates"], [{"invariants": [{"pointer": "", "mentions": ["digest"]}]}]),
    ("DEFINE TEMPLATE as the query: a later ASSEMBLE of the session renders with it.",
     ['ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers") FORMAT TEMPLATE digest'],
     [{"invariants": [{"pointer": "/formatted_context/text", "contains": ["alice: "]}]}]),
    ("DEFINE TEMPLATE as the query: defining the name again in the session is DuplicateTemplateName.",
     [TPL], [{"error": {"code": "CAL-E088"}}]),
], start=13):
    case(WRITES, f"execute.write.{n:03d}", "full", ["define_template", "write-as-query", "follow-up"],
         ["10.6", "10.8"], desc, "beliefs-basic", TPL, {"then": then_expect}, then=then)

# --- CAL-E052: the 21st ADD within a minute ----------------------------------------------------
RATE = [
    ("belief", "beliefs-basic", TIER1, lambda i: add_belief(f"rate-{i}")),
    ("observation", "beliefs-basic", TIER1,
     lambda i: f'ADD observation SET subject = "room-{i}" SET relation = "mg:perceives" SET object = "warm" '
               f'SET observer_id = "s-{i}" SET observer_type = "sensor" REASON "reading"'),
    ("goal", "beliefs-basic", TIER1,
     lambda i: f'ADD goal SET subject = "g-{i}" SET relation = "mg:intends" SET object = "ship {i}" REASON "plan"'),
    ("belief", "supersession-chains", json.dumps({"namespace": NS, "user_id": "bob", "tier": 1}),
     lambda i: add_belief(f"chain-{i}")),
]
for n, (kind, fixture, cap, make) in enumerate(RATE, start=2):
    setup = [make(i) for i in range(20)]
    case(WRITES, f"execute.evolve-rate.{n:03d}", "evolve", ["tier1", "E052", "rate", "MAX_ADD_PER_MINUTE"],
         ["17.3", "20.1", "22"],
         f"The 21st ADD ({kind}s) within a minute in one namespace: AddQuotaExceeded (§17.3: 20 per minute, "
         "implementation-configurable, so the code is scored as a ruling).",
         fixture, make(20), {"error": {"code": "CAL-E052"}}, capability=cap, setup=setup,
         rulings={"error": "spec-decisions-service.md S12"})

# --- the rate boundaries: at the limit the write succeeds, one over it is refused ----------------
# §17.3's defaults (implementation-configurable; an engine declaring another value in `hello` gets
# these cases not applicable, ruling C32): 20 ADD and 10 SUPERSEDE per minute per namespace.
# SUPERSEDE needs a distinct current belief per write, and beliefs-basic has 28 in conf:main.
# MAX_REVERT_PER_MINUTE (5): a REVERT needs a current version that superseded another, and versions
# made in `setup` have addresses only the engine knows, so the fixture revert-six holds six.
BASIC = [
    "121d34884fd302b8c13b90548c7438cae2ff373e7d9643d8a54b1f6ae6319999",  # alice prefers flat white
    "1805001a30a8be6c2ab5a24b4b43c2df11ce93843f6c6a515768fee65765bc6c",  # dave member_of team-beta
    "28961ae602a9324b1d139551ec054a338b554bbac44089ba4fd8aead48646041",  # team-alpha led_by alice
    "31ccfac2d25ee0b27f2ef3948439ec43fa3fdc2034b784be79782df95302ad3a",  # bob prefers dark mode
    "3b6b51e80aa0f65fd60ca1bdf73c6e343401c5117bf1876975af9e7ec402a22d",  # project phoenix status
    "3c599061b9d861b095645cb1320556cd51e037cb09a0e2565f779cd2f837c3d7",  # alice prefers async updates
    "421af962af18096ad5f0b2734e33c4c9ed93bee18b943c24dd070029b645648f",  # bob prefers vim
    "468c4c5e0bd7b722e9abffed26f4ea88ed9d6cee085646eb8f4dd209e50cb4af",  # dave prefers green tea
    "48ce7a948abdc76126e98815b972f40f74289261a0c3a7ba661c5557113240d5",  # carol member_of team-alpha
    "57ad3fcc3972fb4a8e0e5a5371572beaa3be3675bebd83aa1ddd0d32382eb032",  # dave knows forecasting
    "92409d1e3f7c321c14f84b7d8c2f3b4b3edf68cf4079c6f704d7fe1186a57d18",  # alice prefers Rust
]
BASIC_SUBJECTS = ["alice", "dave", "team-alpha", "bob", "project phoenix", "alice", "bob", "dave", "carol", "dave",
                  "alice"]


def supersede(i):
    return f'SUPERSEDE sha256:{BASIC[i]} SET confidence = 0.5 REASON "rate {i}"'


case(WRITES, "execute.evolve-rate.006", "evolve", ["tier1", "rate", "MAX_ADD_PER_MINUTE", "limit-boundary", "add"],
     ["17.3", "8.8"],
     "The 20th ADD within a minute in one namespace is still allowed (§17.3: 20 per minute): the limit's "
     "boundary, the 21st being AddQuotaExceeded (execute.evolve-rate.002).",
     "beliefs-basic", add_belief("rate-19"),
     # The store change counts the session's writes since the fixture was loaded: the setup's too.
     {"store_change": {"added": [{"subject": f"rate-{i}", "relation": "mg:prefers", "namespace": NS}
                                 for i in range(20)]}},
     capability=TIER1, setup=[add_belief(f"rate-{i}") for i in range(19)])
case(WRITES, "execute.evolve-rate.007", "evolve", ["tier1", "E043", "rate", "MAX_SUPERSEDE_PER_MINUTE", "supersede"],
     ["17.3", "20.1", "22"],
     "The 11th SUPERSEDE within a minute in one namespace is refused: WriteQuotaExceeded (§17.3: 10 per "
     "minute, implementation-configurable; the code is scored as a ruling).",
     "beliefs-basic", supersede(10), {"error": {"code": "CAL-E043"}}, capability=TIER1,
     setup=[supersede(i) for i in range(10)], rulings={"error": "spec-decisions-service.md S12"})
case(WRITES, "execute.evolve-rate.008", "evolve",
     ["tier1", "rate", "MAX_SUPERSEDE_PER_MINUTE", "limit-boundary", "supersede"], ["17.3", "8.9"],
     "The 10th SUPERSEDE within a minute in one namespace is still allowed (§17.3: 10 per minute).",
     "beliefs-basic", supersede(9),
     {"store_change": {"added": [{"subject": BASIC_SUBJECTS[i], "confidence": 0.5} for i in range(10)],
                       "superseded": ["sha256:" + BASIC[i] for i in range(10)]}},
     capability=TIER1, setup=[supersede(i) for i in range(9)])

with open(os.path.join(ROOT, "authoring", "execute_mg", "keys", "revert-six.json")) as f:
    SIX = json.load(f)
# Each chain's topic and the object its first version had (what a REVERT of the second restores).
SIX_TOPICS = [("editor", "vim"), ("drink", "coffee"), ("city", "Porto"), ("os", "linux"), ("language", "go"),
              ("theme", "light mode")]


def revert(i):
    return f'REVERT sha256:{SIX[SIX_TOPICS[i][0] + "-v2"]} REASON "rate {i}"'


case(WRITES, "execute.evolve-rate.009", "evolve", ["tier1", "E043", "rate", "MAX_REVERT_PER_MINUTE", "revert"],
     ["17.3", "20.1", "22"],
     "The 6th REVERT within a minute in one namespace is refused: WriteQuotaExceeded (§17.3: 5 per minute, "
     "implementation-configurable; the code is scored as a ruling).",
     "revert-six", revert(5), {"error": {"code": "CAL-E043"}}, capability=TIER1,
     setup=[revert(i) for i in range(5)], rulings={"error": "spec-decisions-service.md S12"})
case(WRITES, "execute.evolve-rate.010", "evolve",
     ["tier1", "rate", "MAX_REVERT_PER_MINUTE", "limit-boundary", "revert"], ["17.3", "8.10"],
     "The 5th REVERT within a minute in one namespace is still allowed (§17.3: 5 per minute): each restores "
     "the content before its target and supersedes the target.",
     "revert-six", revert(4),
     {"store_change": {"added": [{"subject": "alice", "relation": "mg:prefers", "object": SIX_TOPICS[i][1]}
                                 for i in range(5)],
                       "superseded": ["sha256:" + SIX[SIX_TOPICS[i][0] + "-v2"] for i in range(5)]}},
     capability=TIER1, setup=[revert(i) for i in range(4)])

# --- CAL-E079 / E081 over HTTP ------------------------------------------------------------------
ASM = 'ASSEMBLE ctx FROM prefs: (RECALL beliefs WHERE subject = "alice") BUDGET 500 tokens STREAM { all }'
ADD = add_belief("zoe")
E079 = [
    ("prepare", "text/event-stream", ADD, TIER1, "prepare asked for Server-Sent Events"),
    ("prepare", "application/x-ndjson", ADD, TIER1, "prepare asked for NDJSON"),
    ("prepare", "text/event-stream", ASM, TIER0, "prepare asked to stream a streamed ASSEMBLE"),
    ("execute", "text/event-stream", ADD, TIER1, "execute (of a prepared ADD) asked for Server-Sent Events"),
    ("execute", "application/x-ndjson", ADD, TIER1, "execute (of a prepared ADD) asked for NDJSON"),
]
for n, (endpoint, accept, query, cap, what) in enumerate(E079, start=1):
    case(TRANSPORT, f"execute.transport-e079.{n:03d}", "full", ["E079", "http", "streaming"],
         ["11.3", "18.2", "26"],
         f"StreamNotSupported: {what}, an endpoint that answers one JSON object (§18.2) and cannot stream.",
         "beliefs-basic", query, {"error": {"code": "CAL-E079"}}, capability=cap,
         http={"endpoint": endpoint, "accept": accept}, rulings={"error": "spec-decisions-server.md V7"})
E081 = [
    ("resume", "text/event-stream", "asm_0000000000000000", None, "an assembly id no stream has (SSE)"),
    ("resume", "application/x-ndjson", "asm_0000000000000000", None, "an assembly id no stream has (NDJSON)"),
    ("resume", "text/event-stream", "asm_ffffffffffffffff", 7, "with Last-Event-ID, an assembly no stream has"),
    ("cancel", None, "asm_0000000000000000", None, "cancelling an assembly no stream has"),
    ("resume", "text/event-stream", "not-an-assembly-id", None, "an id that is not an assembly id"),
]
for n, (endpoint, accept, aid, last, what) in enumerate(E081, start=1):
    http = {"endpoint": endpoint, "assembly_id": aid}
    if accept:
        http["accept"] = accept
    if last is not None:
        http["last_event_id"] = last
    case(TRANSPORT, f"execute.transport-e081.{n:03d}", "full", ["E081", "http", "streaming"], ["11.3", "11.5", "11.6"],
         f"StreamReconnectExpired: reconnecting to {what} (§11.6: a stream is resumable only within its window).",
         "beliefs-basic", ASM, {"error": {"code": "CAL-E081"}}, capability=TIER0, http=http,
         rulings={"error": "spec-decisions-server.md V3"})


# --- WITH options: a second execute case for each, checking what the option does -------------
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from book import all_of, eq, ty  # noqa: E402
from oracle import select  # noqa: E402

OPTIONS = []
ALICE = 'RECALL beliefs WHERE subject = "alice"'
alice, alice_total = select("beliefs-basic", all_of(ty("belief"), eq("subject", "alice")), limit=None)
EFFECT = "spec-decisions-conformance.md C25"
for n, (option, sections, desc, extra) in enumerate([
    ("cache(ttl = 30)", ["8.1", "4"], "cache(ttl) may serve a cached answer, never a different one: the same grains.", {}),
    ("consistency(linearizable)", ["8.1", "4"],
     "consistency(linearizable) on a store no one writes to: the same grains as without it.", {}),
    ("consistency(bounded(5))", ["8.1", "4"], "consistency(bounded(n)): the same grains as without it.", {}),
    ("explanation", ["8.1", "19.4"], "WITH explanation explains each result (§19.4) and changes no result.",
     {"invariants": [{"pointer": "/results/0", "mentions": ["explanation"], "ruling": EFFECT},
                     {"pointer": "/results/1", "mentions": ["explanation"], "ruling": EFFECT}]}),
    ("provenance", ["8.1", "19.4"], "WITH provenance gives each result's provenance (§19.4) and changes no result.",
     {"invariants": [{"pointer": "/results/0", "mentions": ["provenance", "author_did"], "ruling": EFFECT}]}),
    ("iso_timestamps", ["8.1", "10.3"],
     "WITH iso_timestamps (a MAY of §10.3) shapes rendered times only: the same grains.", {}),
    ("progressive_disclosure", ["8.1", "14.3"],
     "WITH progressive_disclosure shapes rendered detail (§14.3), not which grains match.", {}),
    ("summarize", ["8.1", "4"], "WITH summarize shapes rendered output, not which grains match.", {}),
], start=1):
    expect = {"results": alice, "ordered": False}
    expect.update(extra)
    c = {"id": f"execute.with-effect.{n:03d}", "kind": "execute", "level": "extended",
         "tags": ["with", option.split("(")[0]], "sections": sections, "description": desc,
         "fixture": "beliefs-basic", "query": f"{ALICE} WITH {option}", "clock": CLOCK, "expect": expect}
    if any("ruling" in i for i in extra.get("invariants", [])):
        c["rulings"] = {}
    OPTIONS.append(c)
for c in OPTIONS:
    if not c.get("rulings"):
        c.pop("rulings", None)
# Rendered with AS: the option keeps every result's content in the text (§10.3.2).
for n, option in enumerate(["iso_timestamps", "progressive_disclosure", "summarize"], start=len(OPTIONS) + 1):
    OPTIONS.append({"id": f"execute.with-effect.{n:03d}", "kind": "execute", "level": "extended",
                    "tags": ["with", option, "as"], "sections": ["8.1", "10.3.2", "14.2"],
                    "description": f"WITH {option} AS markdown: the text still holds each belief's content "
                                   "and no content address.",
                    "fixture": "beliefs-basic", "query": f"{ALICE} WITH {option} AS markdown", "clock": CLOCK,
                    "expect": {"results": alice, "ordered": False, "invariants": [
                        {"pointer": "/formatted", "contains": ["alice"]},
                        {"pointer": "/formatted", "excludes": [a.split(":")[1] for a in alice]}]}})

# --- Clauses without an execute case: the CAL/1 prefix and the template sections ----------------
CLAUSES = [
    ("core", ["cal-prefix", "recall"], ["25.1", "4"],
     "The CAL/1 version prefix changes nothing: the same grains as the query without it.",
     f"CAL/1 {ALICE}", {"results": alice, "ordered": False}),
    ("extended", ["cal-prefix", "exists"], ["25.1", "8.3"],
     "The CAL/1 prefix before EXISTS: the grain still exists.",
     f"CAL/1 EXISTS {DARK}", {"fields": {"/exists": True}}),
    ("full", ["define_template", "source_break"], ["10.6"],
     "SOURCE_BREAK separates the sources of an assembly: its text is there with each source's grains.",
     'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "alice"), b: (RECALL beliefs WHERE subject = "carol") '
     'FORMAT TEMPLATE { ELEMENT { - {{grain.subject}} {{grain.content}} } SOURCE_BREAK { ===== } }',
     {"invariants": [{"pointer": "/formatted_context/text", "contains": ["=====", "- alice ", "- carol "]},
                     {"pointer": "/formatted_context/text", "excludes": [a.split(":")[1] for a in alice]}]}),
    ("full", ["define_template", "element_summary", "progressive_disclosure"], ["10.6", "14.3"],
     "ELEMENT_SUMMARY renders the grains progressive disclosure summarizes under a tight budget.",
     'ASSEMBLE c FROM a: (RECALL beliefs) BUDGET 60 tokens WITH progressive_disclosure '
     'FORMAT TEMPLATE { ELEMENT { FULL {{grain.content}} } ELEMENT_SUMMARY { SUM {{grain.subject}} } }',
     {"invariants": [{"pointer": "/formatted_context/text", "contains": ["SUM "], "ruling": EFFECT}]}),
    ("full", ["define_template", "element_omit"], ["10.6", "10.7"],
     "A template with an ELEMENT_OMIT section is defined and used: its ELEMENT renders each grain.",
     'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "alice") '
     'FORMAT TEMPLATE { ELEMENT { - {{grain.subject}}: {{grain.content}} } ELEMENT_OMIT { (omitted) } }',
     {"invariants": [{"pointer": "/formatted_context/text", "contains": ["- alice: "]}]}),
    ("full", ["define_template", "element_omit", "element_summary", "source_break", "setup"], ["10.6"],
     "A named template with every section, defined in the session, renders the assembly.",
     'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") FORMAT TEMPLATE every_section',
     {"invariants": [{"pointer": "/formatted_context/text", "contains": ["[carol]"]}]}),
]
for n, (level, tags, sections, desc, query, expect) in enumerate(CLAUSES, start=1):
    c = {"id": f"execute.clause.{n:03d}", "kind": "execute", "level": level, "tags": ["clause"] + tags,
         "sections": sections, "description": desc, "fixture": "beliefs-basic", "query": query, "clock": CLOCK}
    if "setup" in tags:
        c["setup"] = ["DEFINE TEMPLATE every_section EXTENDS structured HEADER { # c } "
                      "ELEMENT { [{{grain.subject}}] {{grain.content}} } ELEMENT_SUMMARY { [{{grain.subject}}] } "
                      "ELEMENT_OMIT { - } SOURCE_BREAK { -- } FOOTER { # end }"]
    c["expect"] = expect
    OPTIONS.append(c)


def dump(name, description, cases):
    doc = {"$schema": "../../schema/case-file.schema.json", "description": description, "cases": cases}
    with open(os.path.join(ROOT, "cases", "execute", name), "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


dump("writes.json", "Tier 1 writes made by the query itself, prepared and executed (§18.2), with the store change "
     "they declare checked by reading back in the same session (ruling C23); DEFINE TEMPLATE as the query, checked by "
     "what later queries of its session see; CAL-E052 for the 21st ADD in a minute (ruling S12).", WRITES)
dump("transport.json", "The streaming transport codes through the engine's HTTP binding (§11.3, §26; ruling C24): "
     "CAL-E079 from prepare and execute asked to stream, CAL-E081 for a stream that cannot be resumed.", TRANSPORT)
dump("with-effects.json", "A second execute case for each WITH option, checking what it does: results unchanged where "
     "the option shapes delivery only, per-result explanation and provenance (ruling C25), rendered text that keeps "
     "each grain's content (§10.3.2); and the clauses that had no execute case: the CAL/1 prefix, the template "
     "sections ELEMENT_SUMMARY, ELEMENT_OMIT and SOURCE_BREAK.", OPTIONS)
print(len(WRITES), "write cases,", len(TRANSPORT), "transport cases,", len(OPTIONS), "WITH cases")
