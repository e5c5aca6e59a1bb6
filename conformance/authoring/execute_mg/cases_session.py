"""Cases that need more than one query and a store: a session (PROTOCOL.md "execute":
`setup`, `settings`, `stream`). DEFINE TEMPLATE and its registry limits (CAL-E088, E089,
§10.6-§10.8), the implementation-configurable timeouts (CAL-E031, E075, §17.3; a timeout of
0 ms means the time is up when the query starts), auto-TOON under budget pressure (CAL-W005,
§10.9.5) and a streamed ASSEMBLE cancelled by its client (CAL-E082, §11.5).

Every expectation is the spec's: the code Appendix C gives the refusal, the format §10.9.5
selects, the event §11.2 always emits. What the spec leaves open is avoided (whether EXPLAIN,
which runs no store operation, or a BATCH as a whole can time out; which of E088 and E089 wins
for a duplicate name in a full namespace) or named as a ruling (the members of the DEFINE
TEMPLATE response, docs/spec-decisions-conformance.md C21)."""

from book import Sel, add, all_of, any_of, eq, ty
from oracle import fixture, select

BB = "beliefs-basic"
AREA = "session"
CAROL = Sel(all_of(ty("belief"), eq("subject", "carol")))
DIGEST = "DEFINE TEMPLATE digest EXTENDS structured ELEMENT { - {{grain.subject}}: {{grain.content}} }"
C21 = "spec-decisions-conformance.md C21"


def timeouts():
    n = iter(range(1, 1000))
    f = fixture(BB)
    zero = {"query_timeout_ms": 0}

    def t(query, level, tags, sections, desc, fx=BB):
        add(AREA, f"execute.timeout.{next(n):03d}", fx, query, level, ["E031", "timeout"] + tags, ["17.3"] + sections,
            error="CAL-E031", settings=zero, desc=desc)

    # A time limit's boundary pair (ruling C39): spent (0 ms) against the default, with a query far
    # inside it; a pair at N and N + 1 ms would measure the machine, not the engine.
    t('RECALL beliefs WHERE subject = "carol"', "core", ["recall", "QUERY_TIMEOUT_MS"], ["8.1"],
      "A query timeout of 0 ms: the time is up before the first store operation (§17.3, Appendix C).")
    t('RECALL beliefs ABOUT "alice"', "core", ["recall", "about"], ["9.1"], "ABOUT under a spent query timeout.")
    t('RECALL beliefs WHERE confidence > 0.5 | LIMIT 3', "core", ["recall", "limit"], ["4"],
      "A LIMIT does not make a query exempt from the timeout.")
    t(f"EXISTS sha256:{f.hexof('carol-wcag')}", "core", ["exists"], ["8.3"], "EXISTS is a query like any other.")
    t('RECALL beliefs WHERE subject = "nobody"', "core", ["recall"], ["8.1"],
      "A query that would match nothing still times out: the limit is on time, not on results.")
    t('HISTORY WHERE subject = "carol" AND relation = "member_of"', "extended", ["history"], ["8.4"],
      "HISTORY under a spent query timeout.")
    t('(RECALL beliefs WHERE subject = "carol") UNION (RECALL beliefs WHERE subject = "dave")', "extended", ["set_op"],
      ["8.11"], "A set operation runs one query per operand, each bound by the timeout.")
    t('COALESCE(RECALL beliefs WHERE subject = "zed", RECALL beliefs WHERE subject = "carol")', "extended",
      ["coalesce"], ["8.13"], "COALESCE under a spent query timeout.")
    add(AREA, f"execute.timeout.{next(n):03d}", BB, 'RECALL beliefs WHERE subject = "carol"', "core",
        ["timeout", "recall", "QUERY_TIMEOUT_MS", "limit-boundary"], ["17.3", "8.1"], sel=CAROL,
        settings={"query_timeout_ms": 5000},
        desc="The default query timeout of §17.3 set explicitly: the query runs.")

    m = iter(range(1, 1000))

    def a(query, tags, desc, fx=BB):
        add(AREA, f"execute.assemble-timeout.{next(m):03d}", fx, query, "extended", ["E075", "timeout", "assemble"] + tags,
            ["17.3", "8.2"], error="CAL-E075", settings={"assemble_timeout_ms": 0}, desc=desc)

    a('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol")', ["ASSEMBLE_TIMEOUT_MS"],
      "An ASSEMBLE timeout of 0 ms: the time is up before the first source (§17.3, Appendix C).")
    a('ASSEMBLE c FOR "review" FROM a: (RECALL beliefs WHERE subject = "carol"), b: (RECALL beliefs WHERE subject = "dave") '
      'BUDGET 500 tokens PRIORITY a > b', ["priority", "budget"], "Several sources, a budget and a priority.")
    a('ASSEMBLE c FROM a: (RECALL beliefs ABOUT "alice") BUDGET 20 grains FORMAT markdown', ["format"],
      "A format does not change the timeout.")
    a('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "nobody")', [],
      "Sources that would find nothing still time out.")
    a('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") FORMAT sml', ["format", "sml"],
      "Whatever the output form.")
    add(AREA, f"execute.assemble-timeout.{next(m):03d}", BB, 'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol")',
        "extended", ["timeout", "assemble", "ASSEMBLE_TIMEOUT_MS", "limit-boundary"], ["17.3", "8.2"],
        settings={"assemble_timeout_ms": 10000},
        fields={"/_cal/statement_type": "assemble", "/_cal/budget/grains_returned": 5},
        desc="The default ASSEMBLE timeout of §17.3 set explicitly: all five of carol's grains.")


def templates():
    n = iter(range(1, 1000))

    def d(query, setup, tags, sections, desc, capability=None):
        add(AREA, f"execute.template-dup.{next(n):03d}", BB, query, "full", ["E088", "template", "define_template"] + tags,
            ["10.6"] + sections, error="CAL-E088", setup=setup, capability=capability, desc=desc)

    d(DIGEST, [DIGEST], [], ["10.8"], "The same definition twice in one session: the name is taken.")
    d("DEFINE TEMPLATE digest ELEMENT { {{grain.content}} }", [DIGEST], [], ["10.8"],
      "Another body under a name already defined.")
    d("DEFINE TEMPLATE digest EXTENDS readable HEADER { # ctx } ELEMENT { * {{grain.content}} }", [DIGEST],
      ["extends"], ["10.7"], "Another parent preset does not make it a new template.")
    d("DEFINE TEMPLATE digest ELEMENT { x }",
      ["DEFINE TEMPLATE digest ELEMENT { x }", "DEFINE TEMPLATE other ELEMENT { y }"], [], [],
      "Defining another template in between does not free the name.")
    d(DIGEST, [DIGEST], ["capability"], ["18.3"], "The same in a session confined to a namespace.",
      capability="conf:main")

    m = iter(range(1, 1000))
    fifty = [f"DEFINE TEMPLATE t{i:02d} ELEMENT {{ {i}: {{{{grain.content}}}} }}" for i in range(1, 51)]

    def f(query, tags, desc, setup=fifty, capability=None):
        add(AREA, f"execute.template-limit.{next(m):03d}", BB, query, "full", ["E089", "template", "define_template"] + tags,
            ["10.8"], error="CAL-E089", setup=setup, capability=capability, desc=desc)

    f("DEFINE TEMPLATE t51 ELEMENT { {{grain.content}} }", [],
      "The namespace already holds 50 templates, the limit of §10.8.")
    f(DIGEST, ["extends"], "A 51st template, whatever it extends.")
    f("DEFINE TEMPLATE extra EXTENDS readable HEADER { h } ELEMENT { e } FOOTER { f }", ["extends"],
      "A 51st template with several sections.")
    f("DEFINE TEMPLATE zz ELEMENT { z }", [], "A 51st after fifty of another form.",
      setup=[f"DEFINE TEMPLATE n{i} EXTENDS compact ELEMENT {{ {{{{grain.subject}}}} }}" for i in range(1, 51)])
    f("DEFINE TEMPLATE t51 ELEMENT { x }", ["capability"], "The limit holds in a namespace-confined session.",
      capability="conf:main")

    k = iter(range(1, 1000))

    def ok(query, level, tags, sections, desc, setup=None, **kw):
        add(AREA, f"execute.template.{next(k):03d}", BB, query, level, ["template"] + tags, ["10.6"] + sections, setup=setup,
            desc=desc, **kw)

    ok(DIGEST, "full", ["define_template"], [], "DEFINE TEMPLATE registers the template and writes no grain.",
       fields={"/template": "digest", "/defined": True, "/grains_written": 0},
       rulings={"field /template": C21, "field /defined": C21, "field /grains_written": C21})
    ok("DEFINE TEMPLATE t50 ELEMENT { {{grain.content}} }", "full", ["define_template", "limit"], ["10.8"],
       "The 50th template of a namespace is still accepted (the limit is 50).", setup=fifty[:49],
       fields={"/defined": True, "/templates_in_namespace": 50},
       rulings={"field /defined": C21, "field /templates_in_namespace": C21})
    ok('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") FORMAT TEMPLATE digest', "full",
       ["assemble", "format"], ["10.2"], "A template defined earlier in the session renders the assembly, one ELEMENT per grain.",
       setup=[DIGEST], fields={"/_cal/budget/grains_returned": 5},
       invariants=[{"pointer": "/formatted_context/text", "contains": ["- carol: "]}])
    ok('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") FORMAT TEMPLATE digest2', "full",
       ["assemble", "E085"], ["22"], "Only the name defined exists: another one is TemplateNotFound.",
       setup=[DIGEST], error="CAL-E085")
    ok('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") FORMAT TEMPLATE t51', "full",
       ["assemble", "E085"], ["22", "10.8"], "Fifty templates defined, none of them t51.", setup=fifty, error="CAL-E085")
    ok("DESCRIBE templates", "full", ["describe"], ["8.6"], "DESCRIBE templates lists the templates registered in the session.",
       setup=[DIGEST, "DEFINE TEMPLATE brief ELEMENT { {{grain.content}} }"],
       invariants=[{"pointer": "", "mentions": ["digest", "brief"]}])


def auto_toon():
    n = iter(range(1, 1000))
    on = {"auto_toon": True}

    def w(query, tags, desc, fx=BB):
        add(AREA, f"execute.auto-toon.{next(n):03d}", fx, query, "extended", ["W005", "assemble", "toon"] + tags,
            ["10.9.5", "22.3"], warnings=["CAL-W005"], settings=on, fields={"/formatted_context/format": "toon"},
            desc=desc)

    w('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") BUDGET 10 tokens', ["budget"],
      "Auto-TOON on, a BUDGET far below the content, one grain type: toon is selected, with CAL-W005.")
    w('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "alice") BUDGET 20 tokens', ["budget"],
      "The same for alice's beliefs.")
    w('ASSEMBLE c FOR "team" FROM a: (RECALL beliefs WHERE subject = "carol"), b: (RECALL beliefs WHERE subject = "dave") '
      'BUDGET 10 tokens', ["budget"], "Two sources, each of one grain type.")
    w('ASSEMBLE c FROM a: (RECALL beliefs WHERE relation = "member_of") BUDGET 5 tokens PRIORITY a', ["budget", "priority"],
      "With a PRIORITY clause.")
    w('ASSEMBLE c FROM g: (RECALL goals) BUDGET 10 tokens', ["budget", "goal"], "Goals only.", fx="tasks-goals")

    m = iter(range(1, 1000))

    def quiet(query, tags, desc, settings=on, fx=BB):
        add(AREA, f"execute.auto-toon-off.{next(m):03d}", fx, query, "extended", ["assemble", "toon"] + tags,
            ["10.9.5", "22.3"], warnings=[], settings=settings, desc=desc,
            invariants=[{"pointer": "/formatted_context/format", "excludes": ["toon"]}])

    quiet('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") BUDGET 10 tokens FORMAT sml', ["format"],
          "An explicit FORMAT suppresses auto-TOON and its warning (§10.9.5).")
    quiet('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol")', [],
          "Without a BUDGET clause auto-TOON does not apply.")
    quiet('ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") BUDGET 10 tokens', [],
          "Auto-TOON is opt-in at the server level: off, no toon and no warning.", settings={"auto_toon": False})


def streaming():
    n = iter(range(1, 1000))
    base = 'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol"), b: (RECALL beliefs WHERE subject = "dave") BUDGET 1000 tokens'

    def c(query, after, desc):
        add(AREA, f"execute.stream-cancel.{next(n):03d}", BB, query, "full", ["E082", "stream", "assemble", "cancel"],
            ["11.5", "11.1", "11.2"], stream={"cancel_after": after},
            stream_end={"event": "cancelled", "code": "CAL-E082"}, fields={"/_cal/statement_type": "assemble"}, desc=desc)

    c(base + " STREAM", 1, "Cancelled after the first event: the stream ends with `cancelled`, AssemblyCancelled.")
    c(base + " STREAM", 2, "Cancelled while the first source resolves.")
    c(base + " STREAM { all }", 3, "Cancelled after the first source completed.")
    c(base + " STREAM { progress }", 1, "Only progress events asked for; cancelled after the first.")
    c(base + " STREAM { all, chunk_size = 20 }", 5, "Cancelled before any chunk.")
    add(AREA, f"execute.stream-cancel.{next(n):03d}", BB, base + " STREAM", "full", ["stream", "assemble"], ["11.1", "11.2"],
        stream={"cancel_after": 1000}, stream_end={"event": "assembly_completed"},
        fields={"/_cal/budget/grains_returned": len(select(BB, any_of(eq("subject", "carol"), eq("subject", "dave")))[0])},
        desc="Never cancelled: the stream ends with assembly_completed, every grain of both sources included.")


def build():
    timeouts()
    templates()
    auto_toon()
    streaming()
