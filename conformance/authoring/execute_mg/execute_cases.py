"""Writes the execute corpus (`conformance/cases/execute/*.json`) from the
case families in `cases_*.py`, reconciling every case with our toolchain.

Usage: `cargo build -p cal && python3 conformance/authoring/execute_mg/execute_cases.py`
(`CAL_BIN` overrides the binary). Ids are stable: families only append.
"""

import sys

import book
import cases_domain
import cases_errors
import cases_more
import cases_recall
import cases_rendered
import cases_sealed
import cases_session
import cases_shortcuts
import cases_statements
import cases_types

DESCRIPTIONS = {
    "recall-where": "RECALL WHERE over beliefs-basic: every common field, comparators, IN, tags, hash and type conditions, parameters, NULL semantics (CAL §5.2, §5.4, §8.1).",
    "pipeline": "Pipeline stages over beliefs-basic: ORDER BY, LIMIT, OFFSET, FIRST, SELECT, COUNT, extractors, GROUP BY, the default LIMIT and tie-breaking (CAL §4, §17.3, §17.4).",
    "shortcuts": "Semantic shortcuts (CAL §9): ABOUT, RECENT, SINCE, LIKE, MY, CONTRADICTIONS, BETWEEN, THREAD, relation categories (§7.2).",
    "time": "Time expressions against an injected clock over the temporal fixture (CAL §5.2 time, §9.3, §9.7, §17.4).",
    "types": "Grain-type-specific fields (CAL §6.3) over all-types, tasks-goals and conversations.",
    "views": "Supersession, contradictions, verification status and WITH options that change results (CAL §8.1, §8.9, §9.6, WITH).",
    "namespaces": "Namespaces and capability-token confinement (CAL §2.3, §18.3) over multi-namespace, and Unicode data (§16).",
    "domain": "Domain profile querying over domain-profiles: profile: tags, prefixed fields at the top level and in the context map, CAL-W002 (CAL §12).",
    "evolve": "Evolve-level error outcomes under a Tier 1 capability: SupersessionConflict, NoPreviousVersion, GrainTypeNotEvolvable, TargetNotFound (CAL §8.8-§8.10, Appendix C); and writes that succeed, prepared and executed in a setup, checked by follow-up reads (§18.2); NamespaceMismatch for targets in another namespace and WriteQuotaExceeded once a token's quota is spent.",
    "statements": "EXISTS, HISTORY, DESCRIBE, BATCH, COALESCE, LET, EXPLAIN, set operations, ASSEMBLE and Tier 1 refusals (CAL §8).",
    "session": "Cases that need a session (PROTOCOL.md execute: setup, settings, stream): DEFINE TEMPLATE and its registry (CAL-E085, E088, E089, §10.6-§10.8), configured timeouts (CAL-E031, E075, §17.3), auto-TOON (CAL-W005, §10.9.5), a streamed ASSEMBLE cancelled by its client (CAL-E082, §11).",
    "encrypted": "Grains whose payload is encrypted (OMS §3.1.1 flag bit 1, §20.2) in the encrypted fixture: reached by full address only, never formatted, reported with CAL-E080 (Appendix C; docs/spec-decisions-conformance.md C27). Cases tagged `encrypted` need the capability `encrypted_grains`.",
    "rendered": "Rendered output: RECALL AS every format and preset, ASSEMBLE FORMAT, PROJECT, EXPLAIN plans and DESCRIBE content, checked by invariant where the spec fixes the content but not the bytes (CAL §8.5, §8.6, §10, §13, §14.2; docs/spec-decisions-conformance.md C18).",
}


def main():
    cases_recall.build()
    cases_shortcuts.build()
    cases_types.build()
    cases_statements.build()
    cases_domain.build()
    cases_more.build()
    cases_errors.build()
    cases_rendered.build()
    cases_session.build()
    cases_sealed.build()
    n, bad = book.reconcile_and_write(DESCRIPTIONS)
    print(f"{n} execute cases written; {bad} disagree with our toolchain (execute-disagreements.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
