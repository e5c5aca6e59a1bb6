"""The small vocabulary the area modules use to write cases.

An `Area` is one case file. Its helpers append cases in the order written;
ids are `<prefix>.<nnn>` numbered in that order, so a list may only grow at
its end (ids are stable: never insert, never renumber).
"""

LEVELS = ("core", "extended", "evolve", "full")

# Rulings a case's expected code can come from, where the spec names no code (the case then
# requires a rejection in the right phase, and scores the code like a SHOULD;
# docs/spec-decisions-conformance.md C16).
B1 = "spec-decisions-grammar.md B1"
E3 = "spec-decisions-checker.md E3"


class Area:
    """One case file: `kind/<name>.json`, with defaults for its cases."""

    def __init__(self, path, description, level, tags=(), sections=()):
        self.path = path
        self.description = description
        self.level = level
        self.tags = list(tags)
        self.sections = list(sections)
        self.specs = []
        self._counters = {}

    def _id(self, prefix):
        assert prefix == prefix.lower(), prefix
        n = self._counters.get(prefix, 0) + 1
        self._counters[prefix] = n
        return f"{prefix}.{n:03d}"

    def _common(self, prefix, level, tags, sections, flags, desc):
        lv = level or self.level
        assert lv in LEVELS, lv
        return {
            "id": self._id(prefix),
            "level": lv,
            "tags": sorted(set(self.tags + list(tags))),
            "sections": list(dict.fromkeys(self.sections + list(sections))),
            "flags": list(flags),
            "description": desc,
        }

    def acc(self, prefix, query, *, level=None, tags=(), sections=(), warnings=(), flags=(), desc=None,
            disagree=None, canonical=True):
        """An accepted query; JSON and canonical text are recorded from the toolchain."""
        s = self._common(prefix, level, tags, sections, flags, desc)
        s.update(kind="parse", mode="accept", query=query, warnings=sorted(warnings), disagree=disagree,
                 canonical=canonical)
        self.specs.append(s)
        return s

    def rej(self, prefix, query, code, at=None, occ=0, *, level=None, tags=(), sections=(), flags=(),
            desc=None, suggestion=None, example=None, disagree=None, query_hex=None, ruling=None):
        """A rejected query: `code` reported on the `occ`-th occurrence of `at`; `ruling` names the
        project ruling the code comes from when the spec gives none (B1, E3)."""
        s = self._common(prefix, level, tags + (code.replace("CAL-", ""),), sections, flags, desc)
        s.update(kind="parse", mode="reject", query=query, code=code, at=at, occ=occ,
                 suggestion=suggestion, example=example, disagree=disagree, query_hex=query_hex, ruling=ruling)
        self.specs.append(s)
        return s

    def wire_t2j(self, prefix, query, *, level="extended", tags=(), sections=(), desc=None, disagree=None):
        s = self._common(prefix, level, tags, ("15.2", "15.3") + tuple(sections), (), desc)
        s.update(kind="wire", mode="t2j", query=query, disagree=disagree)
        self.specs.append(s)
        return s

    def wire_j2t(self, prefix, obj, *, text=None, level="extended", tags=(), sections=(), desc=None,
                 disagree=None):
        s = self._common(prefix, level, tags, ("15.2", "15.3") + tuple(sections), (), desc)
        s.update(kind="wire", mode="j2t", json=obj, text=text, disagree=disagree)
        self.specs.append(s)
        return s

    def wire_err(self, prefix, obj, code="CAL-E002", pointer=None, *, level="extended", tags=(),
                 sections=(), desc=None, disagree=None):
        s = self._common(prefix, level, tags, ("15.5",) + tuple(sections), (), desc)
        s.update(kind="wire", mode="error", json=obj, code=code, pointer=pointer, disagree=disagree)
        self.specs.append(s)
        return s


def level_of(query):
    """The minimum conformance level (CAL §24) of the features a query uses."""
    import re
    words = set(re.findall(r"[A-Za-z_]+", re.sub(r'"(\\.|[^"\\])*"|--[^\n]*', " ", query)))
    up = {w for w in words if w.isupper()}
    if up & {"STREAM", "DEFINE", "PROJECT"} or ("DESCRIBE" in up and words & {"templates", "grammar"}) or \
            re.search(r"FORMAT\s+TEMPLATE", query):
        return "full"
    if up & {"ADD", "SUPERSEDE", "REVERT"}:
        return "evolve"
    extended = {"ASSEMBLE", "BATCH", "COALESCE", "HISTORY", "EXPLAIN", "DESCRIBE", "LET", "UNION", "INTERSECT",
                "EXCEPT", "SELECT", "ORDER", "COUNT", "FIRST", "GROUP", "SUBJECTS", "OBJECTS", "HASHES", "SINCE",
                "LIKE", "MY", "CONTRADICTIONS", "BETWEEN", "THREAD", "WITH", "AS", "IS", "INCLUDE", "EXCLUDE"}
    type_fields = {"role", "session_id", "parent_message_id", "model_id", "content", "context", "plan", "trigger",
                   "steps", "tool_name", "action_phase", "is_error", "tool_call_id", "observer_id", "observer_type",
                   "goal_state", "assigned_agent", "deadline", "depends_on", "reasoning_type", "premises",
                   "conclusion", "threshold", "agreement_count", "participating_observers", "consent_action",
                   "purpose", "grantor_did", "grantee_did", "expires_at"}
    if up & extended or words & type_fields or re.search(r"\b[a-z]+:[a-z_]+\s*(=|!=|IN)", query):
        return "extended"
    return "core"
