"""Grains whose payload is encrypted (OMS §3.1.1 flag bit 1, §20.2) in the `encrypted` fixture:
CAL-E080 GrainFormatError, "individual grain could not be formatted" (Appendix C).

The engine holds no key (CAL §2), so it can name such a grain by its full address but never
format it. Ruling C27 (docs/spec-decisions-conformance.md): only a selection by address, with
nothing its clear header cannot answer, reaches it; the grain is left out and CAL-E080 is
reported for it in `_cal.warnings`, the rest of the answer standing; in a stream, an `error`
event that does not end the stream; HISTORY of it is refused with CAL-E080. Where the code is
reported is the ruling's, so those assertions are scored as rulings; that the grain is never
formatted, and never reached by a field condition, follows from the spec.

Every case is tagged `encrypted`: an engine that cannot hold such grains declares the
capability `encrypted_grains` false and the cases are not applicable."""

from book import add
from oracle import fixture

FX = "encrypted"
AREA = "encrypted"
C27 = "spec-decisions-conformance.md C27"
E080 = "CAL-E080"


def build():
    f = fixture(FX)
    belief, goal = f.addr("sealed-belief"), f.addr("sealed-goal")
    alice = ["tea", "editor", "desk"]
    n = iter(range(1, 1000))

    def case(query, level, tags, sections, desc, **kw):
        add(AREA, f"execute.encrypted.{next(n):03d}", FX, query, level, ["encrypted"] + tags, sections, desc=desc, **kw)

    case(f"RECALL beliefs WHERE hash = {belief}", "extended", ["E080", "recall", "hash"], ["22.2", "8.1"],
         "An encrypted belief named by its address matches, cannot be formatted, and is left out with CAL-E080.",
         empty=True, warnings=[E080], rulings={"warnings": C27})
    case(f'(RECALL beliefs WHERE hash = {belief}) UNION (RECALL beliefs WHERE subject = "alice")', "extended",
         ["E080", "set_op", "hash"], ["22.2", "8.11"],
         "A union with an operand that names the encrypted belief: the readable beliefs are answered, the encrypted one reported.",
         keys=alice, warnings=[E080], rulings={"warnings": C27})
    case(f"RECALL goals WHERE hash = {goal} AS markdown", "extended", ["E080", "recall", "format"], ["22.2", "10.1"],
         "Asked for as markdown: nothing of the encrypted goal is rendered; CAL-E080 names it.",
         empty=True, warnings=[E080], rulings={"warnings": C27})
    case(f"EXISTS {belief}", "extended", ["exists"], ["8.3"],
         "An encrypted grain exists: EXISTS reads no payload.", fields={"/exists": True})
    case(f"HISTORY {belief}", "extended", ["E080", "history"], ["8.4", "22.2"],
         "HISTORY would show the encrypted grain's fields: refused with CAL-E080.",
         error=E080, rulings={"error": C27})
    case(f'ASSEMBLE vault FROM a: (RECALL beliefs WHERE subject = "alice"), b: (RECALL beliefs WHERE hash = {belief}) '
         "BUDGET 500 tokens", "extended", ["E080", "assemble"], ["8.2", "22.2"],
         "An assembly with a source that names the encrypted belief: the other source is assembled, CAL-E080 reported.",
         warnings=[E080], fields={"/_cal/statement_type": "assemble"}, rulings={"warnings": C27},
         invariants=[{"pointer": "/formatted_context/text", "contains": ["green tea", "a dark theme", "a standing desk"],
                      "section": "10.3.2"}])
    case(f'ASSEMBLE vault FROM a: (RECALL beliefs WHERE subject = "alice"), b: (RECALL goals WHERE hash = {goal}) '
         "BUDGET 500 tokens STREAM", "full", ["E080", "assemble", "stream"], ["11.1", "11.2", "22.2"],
         "Streamed: an error event names the encrypted goal, and the assembly goes on to assembly_completed.",
         warnings=[E080], stream={"cancel_after": 1000}, fields={"/_cal/statement_type": "assemble"},
         stream_end={"event": "assembly_completed", "errors": [E080]}, rulings={"warnings": C27})
    # What the encrypted grains must never do: match by a field, leak into a listing, or be reported
    # when the query could not have reached them.
    case('RECALL beliefs WHERE subject = "alice"', "extended", ["recall"], ["8.1"],
         "A field condition never reaches an encrypted grain (its subject cannot be read): only the readable beliefs.",
         keys=alice, warnings=[])
    case("RECALL goals", "extended", ["recall"], ["8.1"],
         "A listing of every goal leaves the encrypted goal out, and reports nothing: it was never selected.",
         empty=True, warnings=[])
    case(f'RECALL beliefs WHERE hash = {belief} AND subject = "alice"', "extended", ["recall", "hash"], ["8.1"],
         "Named by address and a field: the field cannot be read, so the grain does not match and nothing is reported.",
         empty=True, warnings=[], rulings={"warnings": C27})
    case(f"RECALL beliefs WHERE hash = {goal}", "extended", ["recall", "hash"], ["8.1", "22.2"],
         "The address of the encrypted goal under RECALL beliefs: its clear header says goal, so it does not match.",
         empty=True, warnings=[], rulings={"warnings": C27})
    case(f"RECALL beliefs WHERE hash = {belief}", "extended", ["capability", "recall", "hash"], ["18.3", "22.2"],
         "Confined to a namespace by a capability token: an encrypted grain's namespace cannot be read (its header's "
         "2-byte hash is advisory, OMS §13.1), so it is not reached.",
         empty=True, warnings=[], capability="conf:main", rulings={"warnings": C27})
