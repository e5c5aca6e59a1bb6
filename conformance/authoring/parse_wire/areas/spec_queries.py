"""Every CAL query in the spec text (docs/spec-decisions.md P0): the
verbatim copies kept by the parser corpus (parser/tests/corpus/{ok,err}/spec_*.cal),
read from there so that the two lists cannot drift. Queries with elided
or placeholder parts are rejects with the code the rulings give them; §8.13's
COALESCE example is rejected (checker ruling D1); §10.3.5 and §25.2 warn
(rulings D2, D3)."""

import glob
import os
import re

from dsl import Area, level_of
import caltool

CORPUS = os.path.join(caltool.ROOT, "parser", "tests", "corpus")
DOCUMENTED = {  # file -> (code or warnings, ruling)
    "spec_8_13_coalesce.cal": ("CAL-E060", "docs/spec-decisions-checker.md D1"),
}

ok = Area("parse/spec-queries.json", "The CAL queries of the spec text, verbatim (CAL 1.0, all sections).", "core",
          ("spec-example",), ())
err = Area("parse/spec-queries-rejected.json",
           "Spec queries with elided or placeholder parts, and §8.13's ambiguous example: rejected as the rulings say.",
           "core", ("spec-example",), ())


def load(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    head = lines[0]
    sec = re.search(r"§([0-9A-Z.]+[0-9])", head)
    expect = [l for l in lines if l.startswith("-- expect:")]
    body = [l for l in lines[1:] if not l.startswith("-- expect:")]
    while body and body[-1] == "":
        body.pop()
    return sec.group(1) if sec else None, (expect[0].split()[2] if expect else None), "\n".join(body)


for path in sorted(glob.glob(os.path.join(CORPUS, "ok", "spec_*.cal"))):
    name = os.path.basename(path)
    sec, _, q = load(path)
    sections = (sec,) if sec else ()
    slug = name[len("spec_"):-len(".cal")]
    if name in DOCUMENTED:
        code, ruling = DOCUMENTED[name]
        err.rej("parse.spec." + slug, q, code, None, level=level_of(q), sections=sections,
                desc=f"ruling {ruling}")
        continue
    if name == "spec_3_1_keywords_case_insensitive.cal":  # "RECALL = recall = Recall": three queries
        for one in q.split(";\n"):
            ok.acc("parse.spec." + slug, one, level="core", sections=sections)
        continue
    diags = caltool.check(q.encode("utf-8"))
    warns = sorted({d["code"] for d in diags if d["severity"] == "warning"})
    ok.acc("parse.spec." + slug, q, level=level_of(q), sections=sections, warnings=warns)
for path in sorted(glob.glob(os.path.join(CORPUS, "err", "spec_*.cal"))):
    name = os.path.basename(path)
    sec, code, q = load(path)
    slug = name[len("spec_"):-len(".cal")]
    err.rej("parse.spec." + slug, q, code, None, level=level_of(q), sections=(sec,) if sec else ())

AREAS = [ok, err]
