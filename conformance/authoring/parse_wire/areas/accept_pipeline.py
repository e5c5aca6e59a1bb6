"""Accept cases for pipeline stages (§4 pipeline) and WITH options (§4 with_option)."""

from dsl import Area

C, X, V, F = "core", "extended", "evolve", "full"

# Core by default: LIMIT and OFFSET stages are Core (§24 "RECALL with WHERE, IN, LIMIT"); `build.py` raises
# every case using another stage to Extended (dsl.level_of).
p = Area("parse/pipeline.json", "Pipeline stages, with and without the leading `|` (§4 pipeline, ruling R2).", C,
         ("pipeline", "pipe_stage"), ("4",))
STAGES = [
    ("select_stage", ["RECALL beliefs | SELECT subject", "RECALL beliefs | SELECT subject, relation, object",
                      'RECALL beliefs ABOUT "alice" | SELECT object, confidence']),
    ("order_stage", ["RECALL beliefs | ORDER BY confidence DESC", "RECALL beliefs | ORDER BY time ASC",
                     "RECALL beliefs | ORDER BY importance", "RECALL beliefs ORDER BY time DESC"]),
    ("limit_stage", ["RECALL beliefs | LIMIT 10", "RECALL beliefs | LIMIT 1", "RECALL beliefs | LIMIT 1000",
                     "RECALL beliefs LIMIT 20", "RECALL beliefs | LIMIT $n"]),
    ("offset_stage", ["RECALL beliefs | OFFSET 10", "RECALL beliefs | OFFSET 0", "RECALL beliefs | OFFSET $page",
                      "RECALL beliefs | LIMIT 10 | OFFSET 20"]),
    ("count_stage", ["RECALL beliefs | COUNT", 'RECALL goals ABOUT "alice" | COUNT', "RECALL WHERE confidence > 0.5 COUNT"]),
    ("first_stage", ["RECALL beliefs | FIRST", "RECALL beliefs | ORDER BY confidence DESC | FIRST",
                     'RECALL events THREAD "s" | FIRST']),
    ("subjects_stage", ["RECALL beliefs | SUBJECTS", 'RECALL beliefs WHERE relation = "member_of" | SUBJECTS',
                        "RECALL | SUBJECTS"]),
    ("objects_stage", ["RECALL beliefs | OBJECTS", 'RECALL beliefs ABOUT "alice" | OBJECTS', "RECALL | LIMIT 5 | OBJECTS"]),
    ("hashes_stage", ["RECALL beliefs | HASHES", "RECALL goals | HASHES", "RECALL events RECENT 5 | HASHES"]),
    ("group_stage", ["RECALL beliefs | GROUP BY subject", "RECALL beliefs | GROUP BY relation",
                     "RECALL | GROUP BY type | COUNT"]),
]
for prod, qs in STAGES:
    for q in qs:
        p.acc("parse.pipeline." + prod.replace("_stage", ""), q, tags=(prod,))
P = "parse.pipeline.project"
for q in ['RECALL beliefs ABOUT "alice" | PROJECT content(relation, object)',
          "RECALL beliefs | PROJECT attr(subject, confidence)",
          "RECALL beliefs | PROJECT content(object), attr(subject)",
          'RECALL observations WHERE tags INCLUDE ["profile:healthcare"] | PROJECT content(object), attr(observer_id, hc:patient_id)',
          "RECALL events PROJECT content(content) AS sml"]:
    p.acc(P, q, level=F, tags=("project_stage", "project_spec", "project_field"), sections=("10.3.5",))
P = "parse.pipeline.chain"
for q in ["RECALL beliefs | ORDER BY confidence DESC | LIMIT 10 | OFFSET 5 | SELECT subject | GROUP BY subject",
          'RECALL beliefs ABOUT "alice" LIMIT 5 OFFSET 5', "RECALL beliefs | SELECT subject | ORDER BY subject"]:
    p.acc(P, q, tags=("pipe_item",))

wo = Area("parse/with-options.json", "Every WITH option (§4 with_option), alone and combined.", X,
          ("with_clause", "with_option"), ("4",))
OPTIONS = [
    ("superseded", ["WITH superseded", 'ABOUT "alice" WITH superseded | LIMIT 3', "WITH superseded, provenance"]),
    ("score_breakdown", ["WITH score_breakdown", 'WHERE query = "x" WITH score_breakdown', "WITH score_breakdown, explanation"]),
    ("explanation", ["WITH explanation", "WITH explanation | LIMIT 2", "WITH provenance, explanation"]),
    ("provenance", ["WITH provenance", 'ABOUT "bob" WITH provenance', "WITH provenance, superseded"]),
    ("contradiction_detection", ["WITH contradiction_detection", 'WHERE subject = "alice" WITH contradiction_detection',
                                 "CONTRADICTIONS WITH contradiction_detection"]),
    ("progressive_disclosure", ["WITH progressive_disclosure", "WITH progressive_disclosure(summary)",
                                "WITH progressive_disclosure(headlines)", "WITH progressive_disclosure(full)",
                                "WITH progressive_disclosure(standard)"]),
    ("summarize", ["WITH summarize", "WITH summarize, provenance", "WITH summarize | LIMIT 50"]),
    ("iso_timestamps", ["WITH iso_timestamps", "WITH iso_timestamps, provenance", "WITH iso_timestamps AS text"]),
    ("diversity", ["WITH diversity(mmr)", "WITH diversity(mmr, lambda = 0.5)", "WITH diversity(threshold, 0.8)"]),
    ("consistency", ["WITH consistency(eventual)", "WITH consistency(bounded(5))", "WITH consistency(linearizable)"]),
    ("dedup", ["WITH dedup(subject)", "WITH dedup(object)", "WITH dedup(relation)"]),
    ("locale", ['WITH locale("de")', 'WITH locale("ja-JP") | ORDER BY object', 'WITH locale("fr"), provenance']),
    ("cache", ["WITH cache(ttl = 60)", "WITH cache(ttl = 1)", "WITH cache(ttl = 3600), superseded"]),
]
for opt, forms in OPTIONS:
    for f in forms:
        wo.acc(f"parse.with.{opt}", f"RECALL beliefs {f}", tags=(f"with:{opt}",),
               sections=("16.5",) if opt == "locale" else ("10.3.4",) if opt == "iso_timestamps" else ())
wo.acc("parse.with.combined", "RECALL beliefs WITH superseded, score_breakdown, explanation, provenance, "
       "contradiction_detection, progressive_disclosure(full), summarize, diversity(mmr, lambda = 0.7), "
       "consistency(eventual), dedup(subject), locale(\"en\"), cache(ttl = 30)", tags=("with:all",))
wo.acc("parse.with.assemble", 'ASSEMBLE ctx FROM a: (RECALL beliefs) WITH progressive_disclosure, dedup(subject)',
       tags=("assemble_stmt",))
wo.acc("parse.with.diversity_spec", "RECALL beliefs WITH diversity(mmr, lambda = 1)", tags=("diversity_spec",))
wo.acc("parse.with.consistency_level", "RECALL beliefs WITH consistency(bounded(0.5))", tags=("consistency_level",))
wo.acc("parse.with.disclosure_level", "ASSEMBLE ctx FROM a: (RECALL beliefs) WITH progressive_disclosure(summary)",
       tags=("disclosure_level",))

AREAS = [p, wo]
