"""Internationalization (§16): NFC normalization of string literals at parse
time (§16.2), ASCII-only keywords and field names (§16.6), and comments (§3.5)."""

from dsl import Area

i = Area("parse/i18n-and-comments.json", "NFC-normalized strings, ASCII identifiers, comments (§16.2, §16.6, §3.5).",
         "core", ("i18n",), ("16.2",))
for q in ['RECALL ABOUT "Zoe\u0301"', 'RECALL WHERE subject = "Cafe\u0301 A\u030angstro\u0308m"',
          'RECALL ABOUT "\u1112\u1161\u11ab\u1100\u1173\u11af"', 'RECALL ABOUT "\u212b"', 'RECALL ABOUT "東京 😀"',
          'RECALL WHERE object = "\u0041\u030a"']:
    i.acc("parse.i18n.nfc", q, tags=("nfc", "string_literal"),
          desc="the JSON form holds the NFC form of the literal (§16.2)")
# A look-alike letter is one diagnostic, on the letter (docs/spec-decisions.md E1).
for q, at in [
    ("R\u0395CALL beliefs", "\u0395"),
    ('RECALL beliefs WHERE subj\u0435ct = "a"', "\u0435"),
    ('RECALL beliefs WHERE subject \uff1d "a"', "\uff1d"),
    ("RECALL beliefs | LIM\u0399T 5", "\u0399"),
    ('RECALL \u0432eliefs', "\u0432"),
]:
    i.rej("parse.i18n.ascii_identifiers", q, "CAL-E002", at, sections=("16.6",), tags=("identifier",))
for q in ['RECALL beliefs --', 'RECALL beliefs -- "unclosed', "RECALL beliefs -- ' single", "-- head\nRECALL beliefs",
          'RECALL beliefs --no space\n| LIMIT 5', "RECALL beliefs -- é 東京 😀\n| LIMIT 5",
          'RECALL ABOUT "a -- b" -- a comment after a string with dashes', "RECALL beliefs ---- many dashes"]:
    i.acc("parse.comment", q, tags=("comment",), sections=("3.5",))

AREAS = [i]
