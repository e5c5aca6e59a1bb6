"""Reject cases for the static checks (phase `check`): fields, limits,
types, evolve statements, grain-type rules, enum values, streams."""

from dsl import B1, E3, Area

A = "ASSEMBLE ctx FROM a: (RECALL beliefs)"
C, X, V, F = "core", "extended", "evolve", "full"


def sub(n):
    """A RECALL with `n` levels of nested subqueries."""
    q = "RECALL beliefs | SUBJECTS"
    for _ in range(1, n):
        q = f"RECALL beliefs WHERE subject IN ({q}) | SUBJECTS"
    return f"RECALL WHERE subject IN ({q})"


def area(code, desc, level, tags, sections, rows):
    a = Area(f"parse/errors-{code[4:]}.json", f"{code}: {desc}", level, tags, sections)
    for row in rows:
        q, at = row[0], row[1]
        kw = row[2] if len(row) > 2 else {}
        occ = 0
        if isinstance(at, tuple) and isinstance(at[1], int) and isinstance(at[0], str):
            at, occ = at
        a.rej(f"parse.err.{code[4:].lower()}", q, code, at, occ, **kw)
    return a


AREAS = [
    area("CAL-E004", "a field name that is not in the closed set (§3.3, §6.2).", C, ("field",), ("3.3", "6.2"), [
        ('RECALL beliefs WHERE colour = "red"', "colour"),
        ('RECALL WHERE subjct = "a"', "subjct"),
        ("RECALL beliefs | ORDER BY rank DESC", "rank", {"level": X}),
        ('RECALL beliefs WHERE Subject = "a"', "Subject"),
        ("RECALL beliefs | SELECT subject, foo", "foo", {"level": X}),
        ("RECALL beliefs | GROUP BY category", "category", {"level": X}),
        ('RECALL beliefs WHERE x_team = "a"', "x_team"),
        ('RECALL beliefs\nWHERE subject = "zoë"\nAND prio = "high"', "prio"),
        (A + " WITH dedup(author)", "author", {"level": X}),
        ("RECALL beliefs WHERE content_hash = sha256:a1b2c3d4", "content_hash"),
        ("RECALL beliefs | PROJECT content(summary)", "summary", {"level": F}),
        ('RECALL beliefs ABOUT "東京" WHERE created_at = "today"', "created_at"),
        ('RECALL WHERE subjct = "a"', "subjct", {"level": X, "flags": ("should",), "suggestion": "subject",
                                              "tags": ("suggestion",)}),
        ("RECALL beliefs WHERE confidance >= 0.5", "confidance", {"level": X, "flags": ("should",),
                                                                  "suggestion": "confidence", "tags": ("suggestion",)}),
    ]),
    area("CAL-E007", "subqueries nested deeper than 3 levels, or LET chains beyond §8.12's rules (§17.3).", X,
         ("subquery", "limit"), ("17.3", "8.12"), [
        (sub(4), None),
        (sub(5), None),
        (sub(4).replace("RECALL WHERE", "RECALL beliefs WHERE", 1), None),
        ("RECALL WHERE object IN (RECALL WHERE object IN (RECALL WHERE object IN (RECALL WHERE object IN "
         "(RECALL beliefs | OBJECTS) | OBJECTS) | OBJECTS) | OBJECTS)", None),
        ("-- four levels\n" + sub(4), None),
        ('RECALL beliefs ABOUT "zoë" WHERE subject IN (' + sub(4)[len("RECALL WHERE subject IN ("):] , None),
        ("LET $a = RECALL beliefs | SUBJECTS;\nLET $b = RECALL beliefs WHERE subject IN ($a) | SUBJECTS;\n"
         "RECALL goals WHERE subject IN ($b)", ("$a", 1), {"ruling": B1}),
        ("LET $a = RECALL beliefs | SUBJECTS;\nLET $b = RECALL beliefs | SUBJECTS;\n"
         "LET $c = RECALL beliefs WHERE subject IN ($a) AND object IN ($b) | SUBJECTS;\n"
         "ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($c))", ("$b", 1), {"ruling": B1}),
        ("LET $l0 = RECALL beliefs | SUBJECTS;\nLET $l1 = RECALL beliefs WHERE subject IN ($l0) | SUBJECTS;\n"
         "LET $l2 = RECALL beliefs WHERE subject IN ($l1) | SUBJECTS;\n"
         "LET $l3 = RECALL beliefs WHERE subject IN ($l2) | SUBJECTS;\n"
         "ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($l3))", ("$l2", 1), {"ruling": B1}),
        ("EXPLAIN " + sub(4), None),
    ]),
    area("CAL-E008", "a $parameter or name that nothing binds (§3.4, §8.2, §8.12).", C, ("parameter",), ("3.4",), [
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), b: (RECALL goals) PRIORITY a > c", ("c", 1), {"level": X}),
        ("ASSEMBLE ctx FROM a: $missing", "$missing", {"level": X}),
        ("LET $a = RECALL beliefs WHERE subject IN ($b) | SUBJECTS;\nLET $b = RECALL beliefs | SUBJECTS;\n"
         "ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($a))", "$b", {"level": X}),
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), g: ($ghost)", "$ghost", {"level": X}),
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), b: (RECALL goals) PRIORITY zeta > a", "zeta", {"level": X}),
        ('ASSEMBLE ctx FOR "für zoë" FROM prefs: ($team_prefs)', "$team_prefs", {"level": X}),
        ("ASSEMBLE ctx\nFROM a: (RECALL beliefs)\nPRIORITY a > b", ("b", 1), {"level": X}),
        ("ASSEMBLE ctx FROM first: (RECALL beliefs), second: (RECALL goals) PRIORITY first > thrid", "thrid",
         {"level": X}),
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), b: $nowhere PRIORITY a > b", "$nowhere", {"level": X}),
        ("LET $a = RECALL beliefs;\nASSEMBLE ctx FROM x: ($a), y: ($c)", "$c", {"level": X}),
    ]),
    area("CAL-E009", "a name bound twice, or too many bindings (§3.4, §8.12, §17.3).", C, ("parameter",), ("3.4",), [
        # The second label `a` (occurrence 1; occurrence 2 is the `a` of `goals`), as for BATCH below.
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), a: (RECALL goals)", ("a", 1), {"level": X, "ruling": E3}),
        ("BATCH { x: RECALL beliefs, x: RECALL goals }", ("x", 1), {"level": X, "ruling": E3}),
        ("LET $a = RECALL beliefs | SUBJECTS;\nLET $a = RECALL beliefs | OBJECTS;\nASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($a))",
         ("$a", 1), {"level": X}),
        ("".join(f"LET $l{i} = RECALL beliefs;\n" for i in range(6)) + "ASSEMBLE ctx FROM a: ($l0)", "$l5",
         {"level": X, "ruling": B1}),
        ("RECALL WHERE subject IN (" + ", ".join(f"$p{i}" for i in range(21)) + ")", "$p20", {"ruling": B1}),
        ("RECALL WHERE subject IN (" + ", ".join(f"$p{i}" for i in range(25)) + ")", "$p20", {"ruling": B1}),
        ("ASSEMBLE ctx\nFROM notes: (RECALL beliefs),\n     notes: (RECALL events)", ("notes", 1), {"level": X, "ruling": E3}),
        ('BATCH {\n  prefs: RECALL beliefs ABOUT "zoë",\n  prefs: RECALL goals\n}', ("prefs", 1), {"level": X, "ruling": E3}),
        ("ASSEMBLE ctx FROM history: (RECALL beliefs), HISTORY: (RECALL events)", "HISTORY", {"level": X, "ruling": E3}),
        ("BATCH { a: RECALL beliefs, b: RECALL goals, a: RECALL events }", ("a", 2), {"level": X, "ruling": E3}),
    ]),
    area("CAL-E010", "a LIMIT (or RECENT) outside 1..1000 (§17.3).", C, ("limit",), ("17.3",), [
        ("RECALL beliefs | LIMIT 1001", "1001", {"level": C}),
        ("RECALL beliefs LIMIT 5000", "5000"),
        ("RECALL beliefs | LIMIT 0", "0"),
        ("RECALL events RECENT 1001", "1001"),
        ("RECALL events RECENT 0", "0"),
        ('RECALL beliefs ABOUT "zoë"\n| LIMIT 100000', "100000"),
        ("ASSEMBLE ctx FROM a: (RECALL beliefs | LIMIT 2000)", "2000", {"level": X}),
        ("BATCH { a: RECALL beliefs | LIMIT 1001 }", "1001", {"level": X}),
        ("RECALL WHERE subject IN (RECALL beliefs | LIMIT 1001 | SUBJECTS)", "1001", {"level": X}),
        ("COALESCE(RECALL beliefs | LIMIT 1, RECALL goals | LIMIT 9999)", "9999", {"level": X}),
    ]),
    area("CAL-E011", "an IN list of more than 100 values (§17.3).", C, ("in_condition", "limit"), ("17.3",), [
        ("RECALL WHERE subject IN (" + ", ".join(f'"s{i}"' for i in range(101)) + ")", None),
        ("RECALL WHERE object IN (" + ", ".join(f'"o{i}"' for i in range(150)) + ")", None),
        ("RECALL beliefs WHERE relation IN (" + ", ".join(f'"r{i}"' for i in range(101)) + ")", None),
        ("RECALL actions WHERE tool_name IN (" + ", ".join(f'"t{i}"' for i in range(101)) + ")", None, {"level": X}),
        ("RECALL goals WHERE depends_on IN (" + ", ".join(f'"sha256:{i:08x}"' for i in range(101)) + ")", None,
         {"level": X}),
        ('RECALL beliefs ABOUT "zoë"\nWHERE subject IN (' + ", ".join(f'"ü{i}"' for i in range(101)) + ")", None),
        ("RECALL WHERE subject IN (" + ", ".join(f'"s{i}"' for i in range(1000)) + ")", None),
        ("ASSEMBLE ctx FROM a: (RECALL WHERE subject IN (" + ", ".join(f'"s{i}"' for i in range(101)) + "))", None,
         {"level": X}),
        ("RECALL beliefs WHERE hc:condition_code IN (" + ", ".join(f'"J{i}"' for i in range(101)) +
         ') AND tags INCLUDE ["profile:healthcare"]', None, {"level": X}),
        ("RECALL beliefs WHERE object IN (" + ", ".join(f'"東{i}"' for i in range(101)) + ")", None),
    ]),
    area("CAL-E012", "more than 5 pipeline stages (§17.3).", C, ("pipeline", "limit"), ("17.3",), [
        ("RECALL beliefs | OFFSET 1 | OFFSET 1 | OFFSET 1 | OFFSET 1 | OFFSET 1 | OFFSET 1", None),
        ("RECALL beliefs | SELECT subject | ORDER BY subject | OFFSET 1 | LIMIT 5 | OFFSET 2 | LIMIT 1", None),
        ("RECALL beliefs\n| ORDER BY confidence DESC\n| OFFSET 1\n| LIMIT 50\n| OFFSET 1\n| LIMIT 10\n| COUNT", None),
        ('RECALL beliefs ABOUT "zoë" LIMIT 5 OFFSET 1 LIMIT 4 OFFSET 1 LIMIT 3 OFFSET 1', None),
        ("ASSEMBLE ctx FROM a: (RECALL beliefs | OFFSET 1 | OFFSET 1 | OFFSET 1 | OFFSET 1 | OFFSET 1 | LIMIT 1)",
         None),
        ("RECALL beliefs " + " ".join(["| OFFSET 1"] * 10), None),
        ("BATCH { a: RECALL beliefs | LIMIT 9 | LIMIT 8 | LIMIT 7 | LIMIT 6 | LIMIT 5 | LIMIT 4 }", None),
        ("COALESCE(RECALL beliefs, RECALL goals | LIMIT 9 | LIMIT 8 | LIMIT 7 | LIMIT 6 | LIMIT 5 | LIMIT 4)", None),
        ("RECALL beliefs | ORDER BY time | LIMIT 9 | LIMIT 8 | LIMIT 7 | LIMIT 6 | FIRST", None),
        ("(RECALL beliefs | LIMIT 9 | LIMIT 8 | LIMIT 7 | LIMIT 6 | LIMIT 5 | LIMIT 4) UNION (RECALL goals)", None),
    ]),
    area("CAL-E013", "too many operands: set operations (5), BATCH (10), COALESCE (2-5), sources (8) (§17.3).", X,
         ("limit",), ("17.3",), [
        (" UNION ".join(f'(RECALL WHERE subject = "s{i}")' for i in range(6)), None),
        (" INTERSECT ".join(f"(RECALL beliefs | LIMIT {i + 1})" for i in range(7)), None),
        ("((RECALL beliefs) UNION (RECALL goals) UNION (RECALL events)) EXCEPT ((RECALL states) UNION "
         "(RECALL actions) UNION (RECALL workflows))", None),
        ("BATCH { " + ", ".join(f"e{i}: RECALL beliefs" for i in range(11)) + " }", None, {"ruling": B1}),
        ("COALESCE(" + ", ".join(["RECALL beliefs"] * 6) + ")", None, {"ruling": B1}),
        ("COALESCE(RECALL beliefs)", None, {"ruling": B1}),
        ("ASSEMBLE ctx FROM " + ", ".join(f"s{i}: (RECALL beliefs)" for i in range(9)), None, {"ruling": B1}),
        ("BATCH {\n" + ",\n".join(f'  q{i}: RECALL beliefs ABOUT "zoë{i}"' for i in range(12)) + "\n}", None, {"ruling": B1}),
        ("EXPLAIN " + " UNION ".join(f"(RECALL goals RECENT {i + 1})" for i in range(6)), None),
        ("ASSEMBLE ctx FOR \"für\" FROM " + ", ".join(f"s{i}: (RECALL goals)" for i in range(10)), None, {"ruling": B1}),
    ]),
]
