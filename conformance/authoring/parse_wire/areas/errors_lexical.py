"""Reject cases for the codes found before or while tokens are formed:
CAL-E001 (length), E005 (strings), E006 (numbers), E014 (empty), E015
(hashes), E070 (UTF-8), E071 (bidi), E100 (version)."""

from dsl import Area


def pad(head, tail, total, fill="a"):
    """head + fill* + tail, exactly `total` UTF-8 bytes (fill may be multi-byte)."""
    room = total - len((head + tail).encode())
    w = len(fill.encode())
    return head + fill * (room // w) + "x" * (room % w) + tail


def whole(q):
    return (0, len(q.encode()))


e001 = Area("parse/errors-E001.json", "CAL-E001: a query longer than 8,192 bytes (§17.3), counted in bytes.",
            "core", ("limit",), ("17.3",))
P = "parse.err.e001"
for q in [
    pad('RECALL beliefs ABOUT "', '"', 8193),
    pad('RECALL beliefs ABOUT "', '"', 8193, "é"),
    pad('RECALL beliefs ABOUT "', '"', 8193, "東"),
    pad('RECALL LIKE "', '"', 8193, "😀"),
    pad('CAL/1 RECALL events WHERE session_id = "', '" | LIMIT 5', 8193),
    pad('RECALL beliefs\nWHERE subject = "alice"\nAND object = "', '"\n| LIMIT 5', 8193),
    pad('RECALL beliefs WHERE subject = "', '"', 10000),
    pad('RECALL beliefs WHERE subject = "', '"', 20000),
    pad('ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "', '")', 8193),
    pad('BATCH { a: RECALL beliefs ABOUT "', '" }', 8193),
    pad('ADD belief SET subject = "alice" SET relation = "prefers" SET object = "', '" REASON "r"', 8193),
    pad('EXPLAIN RECALL goals WHERE object = "', '"', 8194),
]:
    e001.rej(P, q, "CAL-E001", whole(q), desc=f"{len(q.encode())} bytes, {len(q)} characters.")

e005 = Area("parse/errors-E005.json", "CAL-E005: a string literal with no closing quote (§3.4).", "core", ("string",),
            ("3.4",))
P = "parse.err.e005"
for q, at in [
    ('RECALL ABOUT "alice', '"alice'),
    ('RECALL beliefs WHERE subject = "alice', '"alice'),
    ('RECALL beliefs WHERE subject = "alice\n| ORDER BY time DESC\n| LIMIT 5', '"alice\n| ORDER BY time DESC\n| LIMIT 5'),
    ('RECALL ABOUT "alice\\"', '"alice\\"'),
    ('RECALL WHERE subject IN ("alice", "bob)', '"bob)'),
    ('ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "why', '"why'),
    ('ASSEMBLE ctx FROM a: (RECALL beliefs) FOR "intent', '"intent'),
    ('RECALL ABOUT "zoë" WHERE object = "café', '"café'),
    ('RECALL LIKE "', '"'),
    ('-- a comment line\nRECALL events SINCE "last week', '"last week'),
    ('RECALL beliefs ABOUT "東京" LIKE "夜', '"夜'),
    ('HISTORY WHERE subject = "alice" AND relation = "prefers" AS OF "2025-06-15', '"2025-06-15'),
]:
    e005.rej(P, q, "CAL-E005", at)

e006 = Area("parse/errors-E006.json", "CAL-E006: a malformed number (§3.4 `number`, `positive_integer`).", "core",
            ("number",), ("3.4", "4"))
P = "parse.err.e006"
for q, at in [
    ("RECALL beliefs WHERE confidence >= 1.", "1."),
    ("RECALL beliefs WHERE confidence >= .5", ".5"),
    ("RECALL beliefs WHERE importance > 1e5", "1e5"),
    ("RECALL beliefs | LIMIT 12abc", "12abc"),
    ("RECALL beliefs WHERE confidence = 1.2.3", "1.2.3"),
    ("RECALL beliefs | LIMIT -5", "-5"),
    ("RECALL beliefs | LIMIT 2.5", "2.5"),
    ("RECALL consensuses WHERE agreement_count >= 99999999999999999999", "99999999999999999999"),
    ('ASSEMBLE ctx FROM a: (RECALL beliefs) BUDGET 1.5 tokens', "1.5"),
    ('RECALL beliefs ABOUT "zoë"\nWHERE confidence >= 0.8.1', "0.8.1"),
    ("RECALL events RECENT 3.0", "3.0"),
    ("RECALL beliefs | OFFSET -1", "-1"),
]:
    e006.rej(P, q, "CAL-E006", at)

e014 = Area("parse/errors-E014.json", "CAL-E014: a query with no statement (§4 `query`).", "core", ("empty",), ("4",))
P = "parse.err.e014"
for q in ["", " ", "\n", "\t\n  ", "-- comment", "-- a\n-- b\n", "   -- trailing comment", "\r\n", "-- ünïcode comment\n",
          "\n\n\n-- three blank lines then a comment"]:
    e014.rej(P, q, "CAL-E014", whole(q))

e015 = Area("parse/errors-E015.json",
            "CAL-E015: a hash literal that is not sha256: + 8-64 lower-case hex digits (§3.4; OMS §5.1).", "core",
            ("hash",), ("3.4",))
P = "parse.err.e015"
for q, at in [
    ("EXISTS sha256:abc", "sha256:abc"),
    ("EXISTS sha256:" + "a" * 65, "sha256:" + "a" * 65),
    ("EXISTS sha256:xyz12345", "sha256:xyz12345"),
    ("EXISTS sha256:", "sha256:"),
    ("HISTORY sha256:a1b2c3d4...", "sha256:a1b2c3d4..."),
    ('SUPERSEDE sha256:target_hash SET object = "x" REASON "r"', "sha256:target_hash"),
    ("RECALL events THREAD FROM sha256:1234567", "sha256:1234567"),
    ("HISTORY sha256:a1b2c3d4 DIFF sha256:bbb", "sha256:bbb"),
    ("RECALL WHERE hash = sha256:12345g78", "sha256:12345g78"),
    ('REVERT sha256:abcd\nREASON "undo"', "sha256:abcd"),
    ('RECALL beliefs ABOUT "ünï" WHERE hash = sha256:a1b2c3d4…', "sha256:a1b2c3d4…"),
    ("EXISTS sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0", None),
    # Upper-case hex: OMS §5 "Uppercase hexadecimal MUST be rejected" (docs/spec-decisions.md L4).
    ("EXISTS sha256:ABCDEF01", "sha256:ABCDEF01"),
    ("RECALL WHERE hash = sha256:aBcDeF01", "sha256:aBcDeF01"),
    ("RECALL events THREAD FROM sha256:" + "A1" * 32, "sha256:" + "A1" * 32),
    ("HISTORY sha256:a1b2c3d4 DIFF sha256:DEADBEEF", "sha256:DEADBEEF"),
]:
    if at is None:
        at = q[len("EXISTS "):]
    e015.rej(P, q, "CAL-E015", at)

e070 = Area("parse/errors-E070.json", "CAL-E070: bytes that are not UTF-8 (§3.1, §16.1); position is the first bad byte.",
            "core", ("utf8", "i18n"), ("3.1", "16.1"))
P = "parse.err.e070"
for raw, off in [
    (b'RECALL beliefs ABOUT "a\xffb"', 23),
    (b'RECALL beliefs ABOUT "\xc0\x80"', 22),
    (b'RECALL beliefs ABOUT "\xed\xa0\x80"', 22),
    (b'RECALL beliefs ABOUT "ab\xe2\x82', 24),
    (b'\x80RECALL beliefs', 0),
    (b'RECALL beliefs ABOUT "\xf5\x80\x80\x80"', 22),
    (b'RECALL beliefs -- comment \xfe\nWHERE subject = "a"', 26),
    (b'RECALL beliefs\nWHERE subject = "caf\xc3\xa9 \xc3"', 38),
    (b'RECALL bel\xefiefs', 10),
    (b'ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "\xa0"', 73),
]:
    e070.rej(P, raw.decode("latin-1"), "CAL-E070", (off, off), query_hex=raw.hex())

e071 = Area("parse/errors-E071.json", "CAL-E071: bidi override and isolate characters U+202A-U+202E, U+2066-U+2069 (§16.3).",
            "core", ("bidi", "i18n"), ("16.3",))
P = "parse.err.e071"
for q, ch in [
    ('RECALL beliefs ABOUT "a\u202eb"', "\u202e"),
    ('RECALL beliefs ABOUT "\u202aalice"', "\u202a"),
    ('RECALL beliefs WHERE subject = "\u202bx"', "\u202b"),
    ('RECALL beliefs WHERE object = "x\u202c"', "\u202c"),
    ('RECALL LIKE "admin\u202d"', "\u202d"),
    ('RECALL beliefs ABOUT "\u2066alice\u2069"', "\u2066"),
    ('RECALL beliefs\nWHERE subject = "\u2067evil"', "\u2067"),
    ('RECALL beliefs ABOUT "zoë \u2068x"', "\u2068"),
    ('RECALL beliefs -- comment \u202e hidden\n| LIMIT 5', "\u202e"),
    ('RECALL beliefs \u2069WHERE subject = "a"', "\u2069"),
    ('ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "\u202e"', "\u202e"),
]:
    e071.rej(P, q, "CAL-E071", ch)

e100 = Area("parse/errors-E100.json", "CAL-E100: a version prefix other than CAL/1 (§4 `version_prefix`, §25.1).", "core",
            ("version",), ("4", "25.1"))
P = "parse.err.e100"
for q, at in [
    ("CAL/2 RECALL beliefs", "2"),
    ("CAL/0 RECALL beliefs", "0"),
    ("CAL/10 RECALL beliefs", "10"),
    ("cal/2 RECALL beliefs", "2"),
    ("CAL/1.0 RECALL beliefs", "1.0"),
    ("CAL/3\nRECALL beliefs ABOUT \"alice\"", "3"),
    ("CAL/99 DESCRIBE server", "99"),
    ("Cal/2 ASSEMBLE ctx FROM a: (RECALL beliefs)", "2"),
    ("-- a newer dialect\nCAL/2 EXISTS sha256:a1b2c3d4", "2"),
    ("CAL/2 LET $x = RECALL beliefs | SUBJECTS;\nRECALL beliefs WHERE subject IN ($x)", "2"),
]:
    e100.rej(P, q, "CAL-E100", at, occ=0)

AREAS = [e001, e005, e006, e014, e015, e070, e071, e100]
