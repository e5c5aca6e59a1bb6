"""PROJECT (Full), result-shaping WITH options (dedup, diversity), streaming
and template ASSEMBLE (Full): the grains or counts CAL fixes, not the text."""

from book import Sel, add, all_of, eq, ty

B = ty("belief")
BB = "beliefs-basic"
CAROL = Sel(all_of(B, eq("subject", "carol")))


def project():
    n = iter(range(1, 1000))
    for spec in ["content(subject, object)", "attr(confidence), content(object)", "content(object)",
                 "attr(subject, relation, confidence)"]:
        add("pipeline", f"execute.project.{next(n):03d}", BB, f'RECALL beliefs WHERE subject = "carol" | PROJECT {spec}', "full",
            ["pipeline", "project"], ["10.3.5", "4"], sel=CAROL,
            desc="PROJECT shapes each grain's content; the grains are the same.")
    add("pipeline", f"execute.project.{next(n):03d}", BB,
        'RECALL beliefs WHERE subject = "carol" | ORDER BY confidence DESC | LIMIT 2 | PROJECT content(object)', "full",
        ["pipeline", "project", "limit"], ["10.3.5", "4"], keys=["carol-team", "carol-wcag"], ordered=True)


def with_options():
    n = iter(range(1, 1000))

    def w(query, tags, sections, **kw):
        add("views", f"execute.with.{next(n):03d}", BB, query, "extended", ["recall", "with"] + tags, list(sections), **kw)

    w('RECALL beliefs WHERE relation = "member_of" WITH dedup(object)', ["dedup"], ["8.2", "4"],
      fields={"/_cal/budget/grains_returned": 2}, desc="One grain per distinct object: team-alpha and team-beta.")
    w('RECALL beliefs WHERE relation = "member_of" WITH dedup(subject)', ["dedup"], ["8.2", "4"],
      sel=Sel(all_of(B, eq("relation", "member_of"))), desc="Every subject is distinct, so nothing is dropped.")
    w('RECALL beliefs WHERE object = "dark mode" WITH dedup(object)', ["dedup"], ["8.2", "4"],
      fields={"/_cal/budget/grains_returned": 1})
    w('RECALL beliefs WHERE subject = "carol" WITH diversity(mmr)', ["diversity", "mmr"], ["4"], sel=CAROL,
      desc="MMR re-ranks; when every match is returned the set is unchanged.")
    w('RECALL beliefs WHERE subject = "carol" WITH diversity(mmr, lambda = 0.3)', ["diversity", "mmr"], ["4"], sel=CAROL)
    w('RECALL beliefs WHERE subject = "carol" WITH superseded, score_breakdown', ["superseded", "score_breakdown"], ["4"],
      sel=CAROL, desc="Several options in one WITH clause.")


def assemble_full():
    n = iter(range(1, 1000))
    base = 'ASSEMBLE c FROM a: (RECALL beliefs WHERE subject = "carol") BUDGET 1000 tokens'
    for tail, tags, secs in [(" STREAM", ["stream"], ["11.2"]), (" STREAM { progress, chunk_size = 50 }", ["stream", "chunk_size"], ["11.2"]),
                             (" STREAM { all }", ["stream"], ["11.2"]),
                             (" FORMAT TEMPLATE { ELEMENT { {{grain.subject}} } }", ["template", "inline"], ["10.2", "10.6"]),
                             (" FORMAT toon", ["format", "toon"], ["10.9"]), (" FORMAT sml", ["format", "sml"], ["10", "14.2"]),
                             (" FORMAT compact", ["format", "preset"], ["10.1"])]:
        level = "extended" if tags[0] == "format" else "full"
        add("statements", f"execute.assemble-full.{next(n):03d}", BB, base + tail, level, ["assemble"] + tags, secs,
            fields={"/_cal/statement_type": "assemble", "/_cal/budget/grains_returned": 5},
            desc="All five of carol's grains fit the budget, whatever the output form.")


def build():
    project()
    with_options()
    assemble_full()
