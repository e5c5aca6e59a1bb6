"""Grain-type-specific fields (CAL §6.3), views (supersession, contradiction,
verification), WITH options, namespaces with capability confinement, and
Unicode data."""

from book import Sel, add, all_of, cmp, eq, isin, ne, ty
from oracle import fixture

AGENT = "did:web:agent.conf.example"
PLURAL = {"belief": "beliefs", "event": "events", "state": "states", "workflow": "workflows", "action": "actions",
          "observation": "observations", "goal": "goals", "reasoning": "reasonings", "consensus": "consensuses",
          "consent": "consents"}


def types():
    a = "types"
    n = iter(range(1, 1000))

    def c(fx, query, tags, keys=None, sections=("6.3",), level="extended", **kw):
        if keys is not None:
            kw["keys"] = keys
        if keys == []:
            kw.pop("keys")
            kw["empty"] = True
        add(a, f"execute.types.{next(n):03d}", fx, query, level, ["recall", "grain-type"] + tags, list(sections), **kw)

    at = "all-types"
    for t, plural in PLURAL.items():
        c(at, f"RECALL {plural}", [t], sections=("5.1", "8.1"), level="core", sel=Sel(ty(t)))
    c(at, 'RECALL WHERE type = "goal"', ["type-condition"], sections=("5.2",), level="core", sel=Sel(ty("goal")))
    c(at, 'RECALL WHERE subject = "alice"', ["untyped"], sections=("6.2",), level="core", sel=Sel(eq("subject", "alice")))
    f = fixture(at)
    rows = [
        ('RECALL events WHERE role = "user"', ["event", "role"], ["event-1", "event-3"]),
        ('RECALL events WHERE role != "user"', ["event", "role", "ne"], ["event-2"]),
        ('RECALL events WHERE role = "tool"', ["event", "role"], []),
        ('RECALL events WHERE session_id = "sess-1"', ["event", "session_id"], ["event-1", "event-2"]),
        (f'RECALL events WHERE parent_message_id = "{f.hexof("event-1")}"', ["event", "parent_message_id"], ["event-2"]),
        ('RECALL events WHERE model_id = "model-a"', ["event", "model_id"], ["event-2"]),
        ('RECALL events WHERE model_id != "model-a"', ["event", "model_id", "null-semantics"], []),
        ('RECALL events WHERE content = "incident report"', ["event", "content", "semantic"], ["event-3"]),
        ('RECALL states WHERE context = "review_prep"', ["state", "context"], ["state-1"]),
        ('RECALL states WHERE context != "review_prep"', ["state", "context", "ne"], ["state-2"]),
        ('RECALL states WHERE plan = "reproduce bug"', ["state", "plan", "semantic"], ["state-2"]),
        ('RECALL workflows WHERE trigger = "on:schedule"', ["workflow", "trigger"], ["workflow-2"]),
        ('RECALL workflows WHERE trigger != "on:schedule"', ["workflow", "trigger", "ne"], ["workflow-1"]),
        ('RECALL workflows WHERE steps = "classify intent"', ["workflow", "steps", "semantic"], ["workflow-1"]),
        ('RECALL actions WHERE tool_name = "get_weather"', ["action", "tool_name"], ["action-1", "action-2"]),
        ('RECALL actions WHERE tool_name != "get_weather"', ["action", "tool_name", "ne"], ["action-3"]),
        ('RECALL actions WHERE tool_name IN ("send_email", "nothing")', ["action", "tool_name", "in"], ["action-3"]),
        ('RECALL actions WHERE is_error = true', ["action", "is_error"], ["action-2"]),
        ('RECALL actions WHERE is_error = false', ["action", "is_error", "null-semantics"], ["action-1"]),
        ('RECALL actions WHERE tool_call_id = "call-2"', ["action", "tool_call_id"], ["action-2"]),
        ('RECALL actions WHERE action_phase = "call"', ["action", "action_phase"], ["action-3"]),
        ('RECALL actions WHERE action_phase = "complete"', ["action", "action_phase"], ["action-1", "action-2"]),
        ('RECALL actions WHERE tool_name = "get_weather" AND is_error = false', ["action", "and"], ["action-1"]),
        ('RECALL observations WHERE observer_id = "obs-monitor"', ["observation", "observer_id"], ["observation-1"]),
        ('RECALL observations WHERE observer_type != "agent:monitor"', ["observation", "observer_type"], ["observation-2"]),
        ('RECALL goals WHERE goal_state = "active"', ["goal", "goal_state"], ["goal-1"]),
        ('RECALL goals WHERE goal_state = "abandoned"', ["goal", "goal_state"], ["goal-2"]),
        ('RECALL goals WHERE goal_state != "active"', ["goal", "goal_state", "ne"], ["goal-2"]),
        (f'RECALL goals WHERE assigned_agent = "{AGENT}"', ["goal", "assigned_agent"], ["goal-1"]),
        ('RECALL goals WHERE deadline BETWEEN "2026-03-01" AND "2026-03-31"', ["goal", "deadline"], ["goal-1"]),
        ('RECALL reasonings WHERE reasoning_type = "deductive"', ["reasoning", "reasoning_type"], ["reasoning-1"]),
        ('RECALL reasonings WHERE reasoning_type = "inductive"', ["reasoning", "reasoning_type"], []),
        ('RECALL reasonings WHERE conclusion != "the weather service is down in the north"', ["reasoning", "conclusion"],
         ["reasoning-1"]),
        ('RECALL consensuses WHERE agreement_count >= 2', ["consensus", "agreement_count"], ["consensus-1"]),
        ('RECALL consensuses WHERE agreement_count < 2', ["consensus", "agreement_count"], ["consensus-2"]),
        ('RECALL consensuses WHERE participating_observers INCLUDE ["did:web:c.example"]', ["consensus", "participating_observers"],
         ["consensus-1"]),
        ('RECALL consents WHERE consent_action = "grant"', ["consent", "consent_action"], ["consent-1"]),
        ('RECALL consents WHERE consent_action = "withdraw"', ["consent", "consent_action"], ["consent-2"]),
        ('RECALL consents WHERE purpose = "analytics"', ["consent", "purpose"], ["consent-2"]),
        ('RECALL consents WHERE purpose != "analytics"', ["consent", "purpose", "ne"], ["consent-1"]),
        ('RECALL consents WHERE grantor_did = "did:web:conf.example:alice"', ["consent", "grantor_did"], ["consent-1"]),
        ('RECALL consents WHERE expires_at BETWEEN "2026-12-01" AND "2026-12-31"', ["consent", "expires_at"], ["consent-1"]),
    ]
    for q, tags, keys in rows:
        c(at, q, tags, keys=keys)
    tg = "tasks-goals"
    g = fixture(tg)
    G = ty("goal")
    for state in ["active", "completed", "abandoned", "blocked"]:
        c(tg, f'RECALL goals WHERE goal_state = "{state}"', ["goal", "goal_state"], sel=Sel(all_of(G, eq("goal_state", state))))
    c(tg, 'RECALL goals WHERE goal_state = "active" | ORDER BY importance DESC', ["goal", "order-by"],
      sel=Sel(all_of(G, eq("goal_state", "active")), order="importance", desc=True), ordered=True)
    c(tg, 'RECALL goals WHERE goal_state = "active" | ORDER BY importance DESC | FIRST', ["goal", "first"],
      keys=["goal-review"], ordered=True)  # goal-launch (0.95) is suspended (CAL blocked), not active
    c(tg, f'RECALL goals WHERE assigned_agent = "{AGENT}"', ["goal", "assigned_agent"], sel=Sel(all_of(G, eq("assigned_agent", AGENT))))
    c(tg, f'RECALL goals WHERE assigned_agent != "{AGENT}"', ["goal", "assigned_agent", "ne", "null-semantics"],
      sel=Sel(all_of(G, ne("assigned_agent", AGENT))))
    c(tg, 'RECALL goals WHERE deadline BETWEEN "2026-03-01" AND "2026-03-31"', ["goal", "deadline"],
      keys=["goal-review", "goal-palette", "goal-roadmap"])
    c(tg, 'RECALL goals WHERE deadline BETWEEN "2026-01-01" AND "2026-02-28" | ORDER BY time ASC', ["goal", "deadline", "order-by"],
      keys=["goal-index", "goal-forecast", "goal-legacy"], ordered=True)
    c(tg, f'RECALL goals WHERE depends_on = "{g.hexof("goal-review")}"', ["goal", "depends_on"], keys=["goal-launch"])
    c(tg, f'RECALL goals WHERE depends_on IN ("{g.hexof("goal-palette")}", "{g.hexof("goal-index")}")',
      ["goal", "depends_on", "in"], keys=["goal-launch"])
    c(tg, 'RECALL goals ABOUT "bob"', ["goal", "about"], sections=("9.1",), keys=["goal-index", "goal-legacy"])
    c(tg, 'RECALL goals ABOUT "alice" RECENT 1', ["goal", "recent"], sections=("9.2",), keys=["goal-hiring"], ordered=True)
    c(tg, 'RECALL goals WHERE importance >= 0.8 AND goal_state = "active"', ["goal", "importance"],
      sel=Sel(all_of(G, cmp("importance", ">=", 0.8), eq("goal_state", "active"))))
    A = ty("action")
    c(tg, 'RECALL actions WHERE is_error = true', ["action", "is_error"], keys=["action-sql-2", "action-nb-1"])
    c(tg, 'RECALL actions WHERE tool_name IN ("run_notebook", "query_database") AND is_error = false', ["action", "in", "and"],
      keys=["action-sql-1", "action-nb-2"])
    c(tg, 'RECALL actions WHERE tool_call_id = "call-export"', ["action", "tool_call_id"],
      keys=["action-export-call", "action-export-result"])
    c(tg, 'RECALL actions WHERE action_phase = "result"', ["action", "action_phase"], keys=["action-export-result"])
    c(tg, 'RECALL actions WHERE subject = "bob" | ORDER BY time DESC', ["action", "order-by"],
      sel=Sel(all_of(A, eq("subject", "bob")), order="time", desc=True), ordered=True)
    c(tg, 'RECALL workflows WHERE trigger = "on:bug_report"', ["workflow", "trigger"], keys=["workflow-triage"])
    c(tg, 'RECALL beliefs WHERE relation IS LIFECYCLE', ["relation-category"], sections=("7.2",), keys=["dep-belief"])
    c(tg, 'RECALL beliefs WHERE relation IS AGENCY', ["relation-category"], sections=("7.2",), keys=["assign-belief"])
    cv = "conversations"
    c(cv, 'RECALL events WHERE role = "assistant" AND user_id = "alice"', ["event", "role"],
      keys=["sess-a-2", "sess-a-4", "sess-d-2"])
    c(cv, 'RECALL events WHERE role = "tool"', ["event", "role"], keys=["sess-b-4"])
    c(cv, 'RECALL events WHERE role = "system"', ["event", "role"], keys=["sess-c-1"])
    c(cv, 'RECALL events WHERE model_id = "model-b"', ["event", "model_id"], keys=["sess-b-2", "sess-b-5", "sess-d-2"])
    c(cv, 'RECALL events WHERE model_id != "model-b" AND role = "assistant"', ["event", "model_id", "ne"],
      keys=["sess-a-2", "sess-a-4", "sess-c-3"])
    c(cv, f'RECALL events WHERE parent_message_id = "{fixture(cv).hexof("sess-c-2")}"', ["event", "parent_message_id"],
      keys=["sess-c-3"])
    c(cv, 'RECALL events ABOUT "alice" RECENT 2', ["event", "recent"], sections=("9.2",), keys=["sess-d-2", "sess-d-1"],
      ordered=True)
    c(cv, 'RECALL events WHERE user_id = "bob" | ORDER BY time DESC | LIMIT 2', ["event", "order-by"],
      keys=["sess-b-5", "sess-b-4"], ordered=True)
    c(cv, 'RECALL events WHERE session_id = "sess-a" | COUNT', ["event", "count"], total=4, fields={"/count": 4})


def views():
    a = "views"
    n = iter(range(1, 1000))

    def v(fx, query, tags, sections, level="extended", **kw):
        if kw.get("keys") == []:
            kw.pop("keys")
            kw["empty"] = True
        add(a, f"execute.views.{next(n):03d}", fx, query, level, ["recall"] + tags, list(sections), **kw)

    sc = "supersession-chains"
    v(sc, 'RECALL beliefs WHERE subject = "alice"', ["supersession", "current-view"], ["8.9", "8.1"], level="core",
      keys=["theme-v3", "alice-team", "alice-tea"], desc="Superseded versions are not in the default view.")
    v(sc, 'RECALL beliefs WHERE subject = "alice" WITH superseded', ["supersession", "with-superseded"], ["8.9"],
      keys=["theme-v1", "theme-v2", "theme-v3", "alice-team", "alice-tea"])
    v(sc, 'RECALL beliefs WHERE subject = "project phoenix"', ["supersession"], ["8.9"], level="core", keys=["status-v5"])
    v(sc, 'RECALL beliefs WHERE subject = "project phoenix" WITH superseded | ORDER BY time ASC', ["supersession", "order-by"],
      ["8.9"], keys=[f"status-v{i}" for i in range(1, 6)], ordered=True)
    v(sc, 'RECALL beliefs WHERE subject = "project phoenix" WITH superseded | ORDER BY time DESC | LIMIT 2',
      ["supersession", "limit"], ["8.9"], keys=["status-v5", "status-v4"], ordered=True)
    v(sc, 'RECALL beliefs WHERE object = "light mode"', ["supersession"], ["8.9"], level="core", keys=[])
    v(sc, 'RECALL beliefs WHERE object = "light mode" WITH superseded', ["supersession", "with-superseded"], ["8.9"],
      keys=["theme-v2"])
    v(sc, 'RECALL beliefs WHERE object = "dark mode" WITH superseded', ["supersession", "with-superseded"], ["8.9"],
      keys=["theme-v1"])
    f = fixture(sc)
    v(sc, f"RECALL beliefs WHERE hash = sha256:{f.hexof('theme-v1')}", ["supersession", "hash"], ["8.9", "5.2"], keys=[],
      desc="A superseded grain is only queryable WITH superseded (§8.9).")
    v(sc, f"RECALL beliefs WHERE hash = sha256:{f.hexof('theme-v1')} WITH superseded", ["supersession", "hash"], ["8.9", "5.2"],
      keys=["theme-v1"])
    v(sc, 'RECALL beliefs | COUNT', ["supersession", "count"], ["8.9"], total=8, fields={"/count": 8})
    v(sc, 'RECALL beliefs WITH superseded | COUNT', ["supersession", "count"], ["8.9"], total=16, fields={"/count": 16})
    v(sc, 'RECALL beliefs WHERE relation = "lives_in"', ["supersession"], ["8.9"], level="core", keys=["city-v2"])
    v(sc, 'RECALL beliefs WHERE subject = "bob" WITH superseded | ORDER BY confidence ASC', ["supersession", "order-by"], ["8.9"],
      keys=["editor-v1", "editor-v2", "bob-team"], ordered=True)
    v(sc, 'RECALL beliefs WHERE tags INCLUDE ["single"]', ["tags"], ["5.2"], level="core",
      keys=["alice-team", "bob-team", "carol-team", "alice-tea"])
    ct = "contradictions"
    live = ["bob-avoids-mornings", "alice-coffee", "alice-no-coffee", "carol-remote", "dave-sql", "dave-lang",
            "erin-city-2", "frank-theme", "frank-editor"]
    v(ct, "RECALL beliefs", ["contradicted", "current-view"], ["9.6"], level="core", keys=live,
      desc="Contradicted grains leave the current view (OMS §28.3).")
    v(ct, "RECALL beliefs WHERE contradicted = false", ["contradicted"], ["5.2"], level="core", keys=live)
    v(ct, "RECALL beliefs WHERE contradicted = true", ["contradicted"], ["5.2", "9.6"], level="core",
      keys=["bob-likes-mornings", "carol-office", "erin-city"])
    v(ct, 'RECALL beliefs WHERE contradicted = true AND subject = "erin"', ["contradicted"], ["5.2"], level="core", keys=["erin-city"])
    v(ct, "RECALL beliefs WITH superseded | COUNT", ["contradicted", "with-superseded"], ["8.9"], total=12, fields={"/count": 12})
    v(ct, 'RECALL beliefs WHERE verification_status = "verified"', ["verification_status", "meta"], ["5.2"], level="core",
      keys=["dave-sql", "frank-editor"])
    v(ct, 'RECALL beliefs WHERE verification_status = "contested"', ["verification_status", "meta"], ["5.2"], level="core",
      keys=["dave-lang"])
    v(ct, 'RECALL beliefs WHERE verification_status = "retracted"', ["verification_status", "meta"], ["5.2"], level="core",
      keys=["frank-theme"])
    v(ct, 'RECALL beliefs WHERE verification_status = "unverified"', ["verification_status", "meta"], ["5.2"], level="core",
      keys=["bob-avoids-mornings", "alice-coffee", "alice-no-coffee", "carol-remote", "erin-city-2"],
      desc="A grain whose status was never set is \"unverified\" (OMS 1.3 §5 default).")
    for opt in ["score_breakdown", "explanation", "provenance", "contradiction_detection", "progressive_disclosure",
                "summarize", 'locale("en")', "consistency(eventual)", "cache(ttl = 60)"]:
        v("beliefs-basic", f'RECALL beliefs WHERE subject = "carol" WITH {opt}', ["with", opt.split("(")[0]], ["8.1", "4"],
          sel=Sel(all_of(ty("belief"), eq("subject", "carol"))), desc="This option annotates or shapes output; the grains are the same.")
    v("beliefs-basic", 'RECALL beliefs WHERE subject = "carol" WITH x_experimental', ["with", "extension", "W004"], ["25.2", "22.3"],
      sel=Sel(all_of(ty("belief"), eq("subject", "carol"))), warnings=["CAL-W004"],
      desc="An unknown extension option is ignored with CAL-W004.")
    v("beliefs-basic", 'RECALL beliefs WHERE subject = "carol" WITH locale("tlh")', ["with", "locale", "W004"], ["16"],
      sel=Sel(all_of(ty("belief"), eq("subject", "carol"))), warnings=["CAL-W004"], flags=["should"])
    for fmt in ["json", "markdown", "text", "sml", "toon"]:
        v("beliefs-basic", f'RECALL beliefs WHERE subject = "dave" AS {fmt}', ["as", fmt], ["8.1", "10"],
          sel=Sel(all_of(ty("belief"), eq("subject", "dave"))), desc="AS changes the content layer, not which grains return.")
    # §10.9.3's layout as the spec prints it (rows at depth 0); the suite also accepts the rows
    # indented under the header, as TOON v3 decoders need them (docs/spec-decisions-render.md).
    v("beliefs-basic", 'RECALL beliefs WHERE subject = "dave" | ORDER BY confidence DESC AS toon', ["as", "toon", "formatted"],
      ["10.9.3", "10.9.8"], sel=Sel(all_of(ty("belief"), eq("subject", "dave"))),
      fields={"/format": "toon", "/formatted": "beliefs[4]{subject,content,confidence}:\n"
              "dave,member of team-beta,1\ndave,prefers Python notebooks,0.75\n"
              "dave,prefers green tea,0.65\ndave,knows time series forecasting,0.55"},
      desc="AS toon: a tabular array with §10.9.3's columns, relations humanized, numbers canonical; "
           "rows at depth 0 as §10.9.3 prints them or indented as TOON v3 decodes them.")


def namespaces():
    a = "namespaces"
    n = iter(range(1, 1000))
    mn = "multi-namespace"
    Bq = ty("belief")

    def ns(query, tags, sections, level="core", **kw):
        add(a, f"execute.ns.{next(n):03d}", mn, query, level, ["namespace"] + tags, list(sections), **kw)

    def in_ns(*spaces):
        return Sel(all_of(Bq, isin("namespace", list(spaces))))

    ns('RECALL beliefs IN "acme"', ["in"], ["4", "8.1"], sel=in_ns("acme"))
    ns('RECALL beliefs IN "acme:eng"', ["in"], ["4", "8.1"], sel=in_ns("acme:eng"))
    ns('RECALL beliefs IN "nowhere"', ["in", "empty-result"], ["4"], empty=True)
    ns('RECALL beliefs IN SCOPE "acme"', ["in-scope"], ["4"], sel=in_ns("acme", "acme:eng", "acme:eng:backend", "acme:sales"),
       desc="A scope is the namespace and every namespace below it.")
    ns('RECALL beliefs IN SCOPE "acme:eng"', ["in-scope"], ["4"], sel=in_ns("acme:eng", "acme:eng:backend"))
    ns('RECALL beliefs IN SCOPE "globex"', ["in-scope"], ["4"], sel=in_ns("globex", "globex:eng"))
    ns('RECALL beliefs IN SCOPE "acm"', ["in-scope", "empty-result"], ["4"], empty=True,
       desc="A scope matches whole namespace segments, not string prefixes.")
    ns('RECALL beliefs WHERE namespace = "globex:eng"', ["namespace-field"], ["5.2"], sel=in_ns("globex:eng"))
    ns('RECALL beliefs IN "acme" WHERE subject = "alice"', ["in", "where"], ["4"],
       sel=Sel(all_of(Bq, eq("namespace", "acme"), eq("subject", "alice"))))
    ns('RECALL IN "globex"', ["in", "untyped"], ["4"], sel=Sel(eq("namespace", "globex")))
    for cap in ["acme", "globex:eng"]:
        ns("RECALL beliefs", ["capability", "confinement"], ["18.3", "2.3"], sel=in_ns(cap), capability=cap)
        ns(f'RECALL beliefs WHERE subject = "alice"', ["capability", "confinement"], ["18.3"],
           sel=Sel(all_of(Bq, eq("namespace", cap), eq("subject", "alice"))), capability=cap)
    ns('RECALL beliefs IN "globex"', ["capability", "override"], ["18.3"], sel=in_ns("acme:sales"), capability="acme:sales",
       desc="The token's namespace overwrites the one written in the query (§18.3).")
    ns('RECALL beliefs WHERE namespace = "globex"', ["capability", "override"], ["18.3"], sel=in_ns("acme"), capability="acme")
    ns("RECALL beliefs", ["capability", "json-token"], ["18.1", "18.3"], sel=in_ns("globex"),
       capability='{"namespace": "globex", "user_id": "alice"}')
    ns("RECALL MY beliefs", ["capability", "my"], ["18.3", "9.5"], level="extended",
       sel=Sel(all_of(Bq, eq("namespace", "globex"), eq("user_id", "alice"))), capability='{"namespace": "globex", "user_id": "alice"}')
    f = fixture(mn)
    ns(f"EXISTS sha256:{f.hexof('globex-0')}", ["capability", "exists"], ["18.3", "20.1"], capability="acme",
       fields={"/exists": False}, desc="A grain outside the token's namespace does not exist for the request.")
    ns(f"EXISTS sha256:{f.hexof('globex-0')}", ["exists"], ["8.3"], fields={"/exists": True})
    ns('RECALL beliefs WHERE subject = "alice" AND object = "no namespace"', ["no-namespace"], ["5.2"], keys=["no-ns"])
    un = "unicode"

    def uc(query, tags, keys, level="core", **kw):
        if keys:
            kw["keys"] = keys
        else:
            kw["empty"] = True
        add(a, f"execute.unicode.{next(n):03d}", un, query, level, ["unicode"] + tags, ["16", "3.4"], **kw)

    uc('RECALL beliefs WHERE subject = "zoë"', ["nfc"], ["zoe", "zoe-nfd-object"])
    uc('RECALL beliefs WHERE subject = "zoe\u0308"', ["nfd", "normalization"], ["zoe", "zoe-nfd-object"],
       desc="A decomposed ë in the query is normalized to NFC before matching (§16.2).")
    uc('RECALL beliefs WHERE subject = "zoe"', ["ascii"], ["ascii"])
    uc('RECALL beliefs WHERE subject = "José"', ["case-sensitive"], ["jose"])
    uc('RECALL beliefs WHERE subject = "josé"', ["case-sensitive"], ["jose-lower"])
    uc('RECALL beliefs WHERE subject = "田中"', ["cjk"], ["tanaka", "tanaka-2"])
    uc('RECALL beliefs WHERE object = "緑茶"', ["cjk"], ["tanaka"])
    uc('RECALL beliefs WHERE subject = "مريم"', ["rtl"], ["arabic"])
    uc('RECALL beliefs WHERE subject = "דוד"', ["rtl"], ["hebrew"])
    uc('RECALL beliefs WHERE object = "🍕 pizza"', ["emoji"], ["emoji"])
    uc('RECALL beliefs WHERE subject = "emoji-user" AND relation = "mg:avoids"', ["emoji"], ["emoji-2"])
    uc('RECALL beliefs WHERE subject = "Σοφία"', ["greek"], ["greek"])
    uc('RECALL beliefs WHERE subject = "Ирина"', ["cyrillic"], ["cyrillic"])
    uc('RECALL beliefs WHERE object = "Straße"', ["latin"], ["german"])
    uc('RECALL beliefs WHERE object = "Strasse"', ["latin", "empty-result"], [])
    uc('RECALL beliefs WHERE subject = "o\\"brien"', ["escape"], ["quote"])
    uc('RECALL beliefs WHERE subject = "\u212bngstr\u00f6m"', ["nfc", "normalization"], ["angstrom"],
       desc="U+212B ANGSTROM SIGN normalizes to U+00C5 under NFC.")
    uc('RECALL beliefs WHERE subject IN ("田中", "Σοφία")', ["in", "cjk"], ["tanaka", "tanaka-2", "greek"])
    uc('RECALL beliefs ABOUT "Jürgen"', ["about"], ["german"], level="core")
    uc('RECALL beliefs WHERE subject IN ("zoë", "zoe") | ORDER BY confidence ASC', ["order-by"], ["zoe", "zoe-nfd-object", "ascii"],
       level="extended", ordered=True)


def build():
    types()
    views()
    namespaces()
