"""Boundary pairs for the static limits of §17.3, §8.2, §10.8, §11.2 and §3.4
(grammar/src/limits.rs LIMITS): at the limit accepted, one past rejected with
the limit's code (grammar ruling B1 for the limits the spec gives no code)."""

from dsl import B1, Area, level_of

# The limits whose code the spec does not give (grammar ruling B1; `code_from_spec` false in
# grammar/src/limits.rs, and MIN_BUDGET, which is E030 at check time).
RULED = {"MAX_PARAMETERS", "MAX_SET_PER_ADD", "MAX_SET_PER_SUPERSEDE", "MAX_BATCH", "MAX_COALESCE", "MIN_COALESCE",
         "MAX_LET", "MAX_SOURCES", "MAX_BUDGET_TOKENS", "MAX_BUDGET_GRAINS", "MIN_BUDGET", "MAX_CONTEXT_NAME_CHARS",
         "MAX_FOR_CHARS", "MAX_LET_CHAIN_DEPTH", "MAX_TEMPLATE_NAME_CHARS"}

lim = Area("parse/limits.json", "At each static limit accepted; one past it rejected with its code.", "core",
           ("limit-boundary",), ("17.3",))


def pair(name, sections, code, make, at_limit, past, level=None, canonical=True):
    ok, bad = make(at_limit), make(past)
    lim.acc(f"parse.limit.{name.lower()}", ok, level=level or level_of(ok), tags=(name,), sections=sections,
            desc=f"{name} = {at_limit}: at the limit", canonical=canonical)
    lim.rej(f"parse.limit.{name.lower()}", bad, code, None, level=level or level_of(bad), tags=(name,),
            sections=sections, desc=f"{name}: {past} is one past the limit", ruling=B1 if name in RULED else None)


def lst(n, f, sep=", "):
    return sep.join(f(i) for i in range(n))


def nested(n):
    q = "RECALL beliefs | SUBJECTS"
    for _ in range(1, n):
        q = f"RECALL beliefs WHERE subject IN ({q}) | SUBJECTS"
    return f"RECALL WHERE subject IN ({q})"


def let_chain(n):
    q = "LET $l0 = RECALL beliefs | SUBJECTS;\n"
    for i in range(1, n):
        q += f"LET $l{i} = RECALL beliefs WHERE subject IN ($l{i - 1}) | SUBJECTS;\n"
    return q + f"ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($l{n - 1}))"


ADD = ['SET subject = "s"', 'SET relation = "r"', 'SET object = "o"', "SET confidence = 0.5", "SET importance = 0.5",
       'SET tags = ["t"]', 'SET tags = ["u"]']
SUP = ['SET object = "o"', "SET confidence = 0.5", "SET importance = 0.5", 'SET tags = ["t"]', 'SET object = "p"']
SRC = "FROM a: (RECALL beliefs)"

pair("MAX_QUERY_BYTES", ("17.3",), "CAL-E001",
     lambda n: 'RECALL WHERE object = "' + "é" * ((n - 24) // 2) + "x" * ((n - 24) % 2) + '"', 8192, 8193,
     canonical=False)  # the canonical layout of a query at the limit may be longer than the limit
pair("MAX_LIMIT", ("17.3",), "CAL-E010", lambda n: f"RECALL beliefs | LIMIT {n}", 1000, 1001)
pair("MIN_LIMIT", ("17.3", "4"), "CAL-E010", lambda n: f"RECALL beliefs | LIMIT {n}", 1, 0)
pair("MAX_RECENT", ("17.3", "9.2"), "CAL-E010", lambda n: f"RECALL events RECENT {n}", 1000, 1001)
pair("MAX_SUBQUERY_DEPTH", ("17.3",), "CAL-E007", nested, 3, 4)
pair("MAX_PIPELINE_STAGES", ("17.3",), "CAL-E012", lambda n: "RECALL beliefs " + lst(n, lambda i: f"| LIMIT {100 - i}", " "),
     5, 6)
pair("MAX_IN_SET", ("17.3",), "CAL-E011", lambda n: f"RECALL WHERE subject IN ({lst(n, lambda i: chr(34) + f's{i}' + chr(34))})",
     100, 101)
pair("MAX_SET_OPERANDS", ("17.3", "8.11"), "CAL-E013",
     lambda n: lst(n, lambda i: f"(RECALL beliefs | LIMIT {i + 1})", " UNION "), 5, 6)
pair("MAX_PARAMETERS", ("17.3", "3.4"), "CAL-E009", lambda n: f"RECALL WHERE object IN ({lst(n, lambda i: f'$p{i}')})", 20, 21)
pair("MAX_SET_PER_ADD", ("17.3", "5.3"), "CAL-E017", lambda n: f'ADD belief {" ".join(ADD[:n])} REASON "r"', 6, 7)
pair("MAX_SET_PER_SUPERSEDE", ("17.3", "5.3"), "CAL-E017",
     lambda n: f'SUPERSEDE sha256:a1b2c3d4 {" ".join(SUP[:n])} REASON "r"', 4, 5)
pair("MAX_REASON_CHARS", ("17.3",), "CAL-E016", lambda n: 'REVERT sha256:a1b2c3d4 REASON "' + "é" * n + '"', 500, 501)
pair("MAX_BATCH", ("17.3", "8.7"), "CAL-E013", lambda n: "BATCH { " + lst(n, lambda i: f"q{i}: RECALL beliefs") + " }", 10, 11)
pair("MAX_COALESCE", ("17.3", "8.13"), "CAL-E013", lambda n: "COALESCE(" + lst(n, lambda i: f"RECALL beliefs | LIMIT {i + 1}") + ")",
     5, 6)
pair("MIN_COALESCE", ("4", "8.13"), "CAL-E013", lambda n: "COALESCE(" + lst(n, lambda i: "RECALL goals") + ")", 2, 1)
pair("MAX_LET", ("17.3", "8.12"), "CAL-E009",
     lambda n: "".join(f"LET $l{i} = RECALL beliefs;\n" for i in range(n)) + "ASSEMBLE ctx FROM a: ($l0)", 5, 6)
pair("MAX_SOURCES", ("17.3", "8.2"), "CAL-E013", lambda n: "ASSEMBLE ctx FROM " + lst(n, lambda i: f"s{i}: (RECALL beliefs)"),
     8, 9)
pair("MAX_BUDGET_TOKENS", ("17.3", "8.2"), "CAL-E030", lambda n: f"ASSEMBLE ctx {SRC} BUDGET {n} tokens", 16000, 16001)
pair("MAX_BUDGET_GRAINS", ("17.3", "8.2"), "CAL-E030", lambda n: f"ASSEMBLE ctx {SRC} BUDGET {n} grains", 200, 201)
pair("MIN_BUDGET", ("8.2",), "CAL-E030", lambda n: f"ASSEMBLE ctx {SRC} BUDGET {n} tokens", 1, 0)
pair("MAX_CONTEXT_NAME_CHARS", ("8.2",), "CAL-E016", lambda n: f"ASSEMBLE {'c' * n} {SRC}", 64, 65)
pair("MAX_FOR_CHARS", ("8.2",), "CAL-E016", lambda n: f'ASSEMBLE ctx FOR "{"ü" * n}" {SRC}', 256, 257)
pair("MAX_LET_CHAIN_DEPTH", ("8.12",), "CAL-E007", let_chain, 3, 4)
pair("MAX_TEMPLATE_BYTES", ("10.8",), "CAL-E092",
     lambda n: "DEFINE TEMPLATE t ELEMENT { {{grain.content}}" + "x" * (n - 18) + "}", 4096, 4097)
pair("MAX_TEMPLATE_NESTING", ("10.8",), "CAL-E093",
     lambda n: "DEFINE TEMPLATE t ELEMENT { " + "{{#grain.score}}" * n + "x" + "{{/grain.score}}" * n + " }", 5, 6)
pair("MAX_TEMPLATE_NAME_CHARS", ("10.8",), "CAL-E016", lambda n: f"DEFINE TEMPLATE {'t' * n} ELEMENT {{ x }}", 64, 65)
pair("MAX_TEMPLATE_INHERITANCE_DEPTH", ("10.7", "10.8"), "CAL-E087",
     lambda n: "DEFINE TEMPLATE t EXTENDS " + ("readable" if n == 1 else "other_template") + " ELEMENT { x }", 1, 2)
pair("MIN_CHUNK_SIZE", ("11.2",), "CAL-E078", lambda n: f"ASSEMBLE ctx {SRC} STREAM {{ chunk_size = {n} }}", 20, 19)
pair("MAX_CHUNK_SIZE", ("11.2",), "CAL-E078", lambda n: f"ASSEMBLE ctx {SRC} STREAM {{ chunk_size = {n} }}", 1000, 1001)
pair("MIN_HASH_HEX", ("3.4",), "CAL-E015", lambda n: f"EXISTS sha256:{'a' * n}", 8, 7)
pair("MAX_HASH_HEX", ("3.4",), "CAL-E015", lambda n: f"EXISTS sha256:{'b' * n}", 64, 65)

AREAS = [lim]
