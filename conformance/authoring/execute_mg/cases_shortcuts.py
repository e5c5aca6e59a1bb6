"""Semantic shortcuts (CAL §9), relation categories (§7.2) and time
expressions against an injected clock (§5.2 `time`, §9.3, §9.7)."""

from book import Sel, add, all_of, eq, isin, ty
from oracle import CLOCK, DAY, fixture, select

B = ty("belief")
E = ty("event")
HOUR = 3_600_000
NOW = 1_772_798_400_000  # 2026-03-06T12:00:00Z

# CAL §7.2: the normative expansion of each category (mg:owned_by is listed under
# Knowledge in §7.1 but not in §7.2's expansion; the expansion wins — see
# docs/spec-decisions-corpus.md C2).
CATEGORIES = {
    "PREFERENCE": ["mg:prefers", "mg:avoids", "mg:requires"],
    "KNOWLEDGE": ["mg:knows", "mg:infers"],
    "PERMISSION": ["mg:permits", "mg:revokes", "mg:prohibits"],
    "INTERACTION": ["mg:said", "mg:did", "mg:handed_off_to"],
    "AGENCY": ["mg:delegates_to", "mg:has_capability", "mg:assigned_to"],
    "LIFECYCLE": ["mg:intends", "mg:depends_on"],
    "OBSERVATION": ["mg:perceives", "mg:state_at"],
}


def shortcuts():
    a = "shortcuts"
    n = iter(range(1, 1000))

    def s(fx, query, tags, sections, level="extended", **kw):
        add(a, f"execute.shortcut.{next(n):03d}", fx, query, level, ["recall", "shortcut"] + tags, list(sections), **kw)

    bb = "beliefs-basic"
    for who in ["alice", "bob", "carol", "dave"]:
        s(bb, f'RECALL beliefs ABOUT "{who}"', ["about"], ["9.1"], level="core", sel=Sel(all_of(B, eq("subject", who))))
    s(bb, 'RECALL beliefs ABOUT "alice" WHERE relation = "mg:prefers"', ["about", "where"], ["9.1", "9.8"], level="core",
      sel=Sel(all_of(B, eq("subject", "alice"), eq("relation", "mg:prefers"))),
      desc="ABOUT combined with WHERE becomes an additional AND condition (§9.8).")
    s(bb, 'RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers"', ["about", "desugared"], ["9.1"], level="core",
      sel=Sel(all_of(B, eq("subject", "alice"), eq("relation", "mg:prefers"))),
      desc="The desugared form of the previous case gives identical results (§9).")
    s(bb, 'RECALL ABOUT "team-alpha"', ["about", "untyped"], ["9.1"], level="core", keys=["team-alpha-lead"])
    s(bb, 'RECALL beliefs ABOUT "vim"', ["about", "fallback"], ["9.1"], level="core", keys=["bob-editor"],
      desc="No belief has the subject \"vim\", so ABOUT falls back to a text search (§9.1).")
    s(bb, 'RECALL beliefs ABOUT "accessibility"', ["about", "fallback"], ["9.1"], level="core", keys=["carol-wcag"])
    s(bb, 'RECALL beliefs ABOUT "zyxwvut"', ["about", "fallback", "empty-result"], ["9.1"], level="core", empty=True)
    s(bb, 'RECALL beliefs ABOUT "alice" RECENT 3', ["about", "recent"], ["9.2"], level="core",
      keys=["alice-coffee", "alice-incidents", "alice-rust"], ordered=True)
    s(bb, 'RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | LIMIT 3', ["recent", "desugared"], ["9.2"],
      keys=["alice-coffee", "alice-incidents", "alice-rust"], ordered=True)
    s(bb, 'RECALL beliefs ABOUT "carol" RECENT 1', ["about", "recent"], ["9.2"], level="core", keys=["carol-wcag"], ordered=True)
    s(bb, 'RECALL beliefs ABOUT "erin" RECENT 10', ["about", "recent"], ["9.2"], level="core",
      keys=["erin-slides", "erin-team"], ordered=True)
    s(bb, 'RECALL beliefs RECENT 2', ["recent"], ["9.2"], level="core", keys=["phoenix-status", "erin-slides"], ordered=True)
    s(bb, 'RECALL beliefs WHERE relation = "member_of" RECENT 2', ["recent", "where"], ["9.2"], level="core",
      keys=["erin-team", "dave-team"], ordered=True)
    s(bb, 'RECALL LIKE "vim"', ["like"], ["9.4"], keys=["bob-editor"])
    s(bb, 'RECALL beliefs LIKE "PostgreSQL"', ["like"], ["9.4"], keys=["bob-postgres"])
    s(bb, 'RECALL beliefs WHERE query = "PostgreSQL"', ["like", "desugared", "query"], ["9.4", "5.2"], keys=["bob-postgres"])
    s(bb, 'RECALL beliefs LIKE "accessibility guidelines"', ["like"], ["9.4"], keys=["carol-wcag"])
    s(bb, 'RECALL beliefs LIKE "zyxwvut"', ["like", "empty-result"], ["9.4"], empty=True)
    for who in ["alice", "bob", "erin"]:
        s(bb, "RECALL MY beliefs", ["my", "capability"], ["9.5", "18.3"], sel=Sel(all_of(B, eq("user_id", who))),
          capability='{"user_id": "%s"}' % who)
    s(bb, 'RECALL MY beliefs WHERE relation = "mg:prefers"', ["my", "where"], ["9.5"],
      sel=Sel(all_of(B, eq("user_id", "carol"), eq("relation", "mg:prefers"))), capability='{"user_id": "carol"}')
    s(bb, "RECALL beliefs WHERE user_id = $current_user_id", ["my", "desugared"], ["9.5"],
      sel=Sel(all_of(B, eq("user_id", "dave"))), params={"current_user_id": "dave"})
    s(bb, "RECALL MY beliefs", ["my", "capability"], ["9.5"], empty=True, capability='{"user_id": "nobody"}')
    ct = "contradictions"
    s(ct, "RECALL beliefs CONTRADICTIONS", ["contradictions"], ["9.6"],
      keys=["bob-likes-mornings", "carol-office", "erin-city"])
    s(ct, 'RECALL beliefs ABOUT "bob" CONTRADICTIONS', ["contradictions", "about"], ["9.6"], keys=["bob-likes-mornings"])
    s(ct, 'RECALL beliefs ABOUT "alice" CONTRADICTIONS', ["contradictions", "about", "empty-result"], ["9.6"], empty=True)
    s(ct, 'RECALL beliefs WHERE contradicted = true WITH contradiction_detection', ["contradictions", "desugared"], ["9.6"],
      keys=["bob-likes-mornings", "carol-office", "erin-city"])
    s(ct, "RECALL beliefs CONTRADICTIONS WITH contradiction_detection", ["contradictions", "with"], ["9.6", "9.8"],
      keys=["bob-likes-mornings", "carol-office", "erin-city"], desc="Redundant but not an error (§9.8).")
    cv = "conversations"
    f = fixture(cv)
    for sid, cnt in [("sess-a", 4), ("sess-b", 5), ("sess-c", 3), ("sess-d", 2)]:
        s(cv, f'RECALL events THREAD "{sid}"', ["thread"], ["8.1.1"], keys=[f"{sid}-{i}" for i in range(1, cnt + 1)], ordered=True)
    s(cv, 'RECALL events WHERE session_id = "sess-b" | ORDER BY time ASC', ["thread", "desugared"], ["8.1.1"],
      keys=[f"sess-b-{i}" for i in range(1, 6)], ordered=True)
    s(cv, 'RECALL events THREAD "sess-none"', ["thread", "empty-result"], ["8.1.1"], empty=True)
    s(cv, f"RECALL events THREAD FROM sha256:{f.hexof('sess-b-3')}", ["thread", "thread-from"], ["8.1.1"],
      keys=[f"sess-b-{i}" for i in range(1, 6)], ordered=True)
    s(cv, f"RECALL events THREAD FROM sha256:{f.hexof('sess-d-2')[:12]}", ["thread", "thread-from", "hash-prefix"], ["8.1.1"],
      keys=["sess-d-1", "sess-d-2"], ordered=True)
    s(cv, "RECALL events THREAD FROM sha256:" + "ab" * 32, ["thread", "thread-from", "E046"], ["8.1.1", "22"],
      error="CAL-E046", desc="THREAD FROM an address the store does not hold is TargetNotFound.")
    s(cv, 'RECALL events THREAD "sess-a" | LIMIT 2', ["thread", "limit"], ["8.1.1"], keys=["sess-a-1", "sess-a-2"], ordered=True)
    rl = "relations"
    for cat, rels in CATEGORIES.items():
        s(rl, f'RECALL beliefs WHERE subject = "alice" AND relation IS {cat}', ["relation-category", cat.lower()], ["7.2"],
          sel=Sel(all_of(B, eq("subject", "alice"), isin("relation", rels))))
        s(rl, f"RECALL beliefs WHERE relation IS {cat}", ["relation-category", cat.lower()], ["7.2"],
          sel=Sel(all_of(B, isin("relation", rels))))
    s(rl, 'RECALL beliefs WHERE subject = "alice" AND relation IN ("mg:prefers", "mg:avoids", "mg:requires")',
      ["relation-category", "desugared"], ["7.2"], sel=Sel(all_of(B, eq("subject", "alice"), isin("relation", CATEGORIES["PREFERENCE"]))))
    s(rl, 'RECALL beliefs WHERE subject = "alice" AND relation IS PREFERENCE | ORDER BY confidence DESC',
      ["relation-category", "order-by"], ["7.2"],
      sel=Sel(all_of(B, eq("subject", "alice"), isin("relation", CATEGORIES["PREFERENCE"])), order="confidence", desc=True),
      ordered=True)
    s(rl, 'RECALL beliefs WHERE relation = "mg:owned_by"', ["relation", "mg"], ["7.1"], sel=Sel(all_of(B, eq("relation", "mg:owned_by"))))
    s(rl, 'RECALL beliefs WHERE relation = "mg:enjoys"', ["relation", "W001"], ["7.3"], keys=["bob-unknown-mg"],
      warnings=["CAL-W001"], desc="An unknown mg: relation warns (CAL-W001) and still matches exactly.")
    s(rl, 'RECALL beliefs WHERE relation = "prefers"', ["relation", "plain"], ["7.1"], keys=["alice-prefers-plain"],
      desc="A relation without the mg: prefix is a different relation.")
    s(rl, 'RECALL beliefs WHERE relation = "likes" AND subject = "alice"', ["relation", "plain"], ["7.1"], keys=["alice-likes"])


def times():
    a = "time"
    n = iter(range(1, 1000))
    tp = "temporal"
    f = fixture(tp)

    def at(key):
        return f.rec(key)["g"]["created_at"]

    def t(query, lo, hi, tags, sections=("5.2", "9.3"), level="extended", types=("belief",), clock=CLOCK, **kw):
        """Grains created in [lo, hi) (epoch ms)."""
        pred = all_of(lambda r: r["g"]["type"] in types, lambda r: lo <= r["g"]["created_at"] < hi)
        return add(a, f"execute.time.{next(n):03d}", tp, query, level, ["time"] + tags, list(sections), sel=Sel(pred),
                   clock=clock, **kw)

    midnight = NOW - 12 * HOUR
    t('RECALL beliefs SINCE "last 7 days"', NOW - 7 * DAY, NOW, ["since", "rolling"])
    t('RECALL beliefs WHERE time = "last 7 days"', NOW - 7 * DAY, NOW, ["time-condition", "desugared"], level="core")
    t('RECALL beliefs SINCE "last 30 days"', NOW - 30 * DAY, NOW, ["since", "rolling"])
    t('RECALL beliefs SINCE "last week"', NOW - 7 * DAY, NOW, ["since", "rolling"],
      desc="\"last week\" is the rolling seven days before the clock (docs/spec-decisions-interp.md T1).")
    t('RECALL beliefs SINCE "past 4 hours"', NOW - 4 * HOUR, NOW, ["since", "rolling"])
    t('RECALL beliefs SINCE "today"', midnight, midnight + DAY, ["since", "calendar"])
    t('RECALL beliefs SINCE "yesterday"', midnight - DAY, midnight, ["since", "calendar"])
    t('RECALL beliefs SINCE "this week"', midnight - 4 * DAY, midnight + 3 * DAY, ["since", "calendar"],
      desc="Weeks start on Monday: 2026-03-02 to 2026-03-09.")
    t('RECALL beliefs SINCE "this month"', 1_772_323_200_000, 1_775_001_600_000, ["since", "calendar"])
    t('RECALL beliefs SINCE "this year"', 1_767_225_600_000, 1_798_761_600_000, ["since", "calendar"])
    t('RECALL beliefs SINCE "3 days ago"', midnight - 3 * DAY, midnight - 2 * DAY, ["since", "calendar"])
    t('RECALL beliefs SINCE "since 2026-03-01"', 1_772_323_200_000, NOW, ["since", "open-interval"])
    t('RECALL beliefs WHERE time = "2026-03-05"', midnight - DAY, midnight, ["time-condition", "iso-date"], level="core")
    t('RECALL beliefs WHERE time = "2026-02"', 1_769_904_000_000, 1_772_323_200_000, ["time-condition", "iso-month"], level="core")
    t('RECALL beliefs WHERE time = "2026"', 1_767_225_600_000, 1_798_761_600_000, ["time-condition", "iso-year"], level="core")
    t('RECALL beliefs WHERE time = "2025"', 1_735_689_600_000, 1_767_225_600_000, ["time-condition", "iso-year"], level="core")
    t('RECALL events SINCE "last 7 days"', NOW - 7 * DAY, NOW, ["since", "events"], types=("event",))
    t('RECALL SINCE "yesterday"', midnight - DAY, midnight, ["since", "untyped"], types=("belief", "event"))
    lo, hi = (NOW - 3 * DAY - HOUR) // 1000, (NOW - DAY + HOUR) // 1000
    t(f"RECALL beliefs BETWEEN {lo} AND {hi}", lo * 1000, hi * 1000 + 1000, ["between", "epoch"], sections=("9.7",),
      desc="Epoch seconds, both ends included.")
    t(f"RECALL beliefs WHERE time BETWEEN {lo} AND {hi}", lo * 1000, hi * 1000 + 1000, ["between", "desugared"],
      sections=("9.7", "5.2"), level="core")
    t(f"RECALL events BETWEEN {lo} AND {hi}", lo * 1000, hi * 1000 + 1000, ["between", "events"], sections=("9.7",), types=("event",))
    t('RECALL beliefs WHERE time BETWEEN "2026-03-01" AND "2026-03-04"', 1_772_323_200_000, midnight - DAY,
      ["between", "iso-date"], sections=("5.2",), level="core", desc="Two dates: from the start of the first to the end of the second.")
    t('RECALL beliefs BETWEEN "2025-01-01" AND "2025-12-31"', 1_735_689_600_000, 1_767_225_600_000, ["between", "iso-date"],
      sections=("9.7",))
    t('RECALL beliefs WHERE time BETWEEN "2020-01-01" AND "2020-12-31"', 0, 0, ["between", "empty-result"], sections=("5.2",),
      level="core")
    # The same query under different clocks.
    for clock, ms in [("2026-03-08T13:00:00Z", NOW + 2 * DAY + HOUR), ("2026-03-01T00:00:00Z", 1_772_323_200_000),
                      ("2025-06-01T12:00:00Z", 1_748_779_200_000)]:
        day0 = ms - ms % DAY
        t('RECALL beliefs SINCE "today"', day0, day0 + DAY, ["since", "clock"], clock=clock,
          desc="\"today\" is resolved against the injected clock, not the system time.")
        t('RECALL beliefs SINCE "last 7 days"', ms - 7 * DAY, ms, ["since", "clock"], clock=clock)
    last = t('RECALL beliefs ABOUT "alice" SINCE "last 7 days"', NOW - 7 * DAY, NOW, ["since", "about"], sections=("9.3", "9.8"),
      desc="Alice holds the even rows of the timeline.")
    # The last case's oracle above ignores the subject: narrow it here.
    last["expect"]["results"], _ = select(tp, all_of(B, eq("subject", "alice"),
                                                     lambda r: NOW - 7 * DAY <= r["g"]["created_at"] < NOW))
    add(a, f"execute.time.{next(n):03d}", tp, "RECALL beliefs RECENT 3", "core", ["recent", "time"], ["9.2"],
        keys=["belief-p2d", "belief-p1h", "belief-m5min"], ordered=True, desc="RECENT orders by time, future grains included.")
    add(a, f"execute.time.{next(n):03d}", tp, 'RECALL beliefs SINCE "last 30 days" | ORDER BY time ASC | LIMIT 3', "extended",
        ["since", "order-by", "time"], ["9.3"], keys=["belief-m29d", "belief-m20d", "belief-m10d"], ordered=True)
    add(a, f"execute.time.{next(n):03d}", tp, 'RECALL events | ORDER BY time DESC', "extended", ["order-by", "time"], ["4"],
        sel=Sel(E, order="time", desc=True), ordered=True)
    add(a, f"execute.time.{next(n):03d}", tp, 'RECALL beliefs SINCE "last 7 days" | COUNT', "extended", ["since", "count", "time"],
        ["9.3"], total=len([k for k in f.keys if k.startswith("belief-") and NOW - 7 * DAY <= at(k) < NOW]))


def build():
    shortcuts()
    times()
