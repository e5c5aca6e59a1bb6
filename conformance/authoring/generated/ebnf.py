"""A reader for the ISO 14977-style EBNF of grammar/cal.ebnf (and of CAL §4).

`read(text)` returns a `Grammar`: each production's name, its right-hand side as a tree
of tuples, and the comments written just before it (so a caller can tell which
productions the file marks EXTENSION or RULING). The notation is the one the file's
header describes:

    ,  concatenation     |  alternative     [ x ]  optional     { x }  zero or more
    x+  one or more      ( x )  grouping    x - y  x but not y  "..." / '...'  terminal
    ? ... ?  described in prose             (* ... *)  comment

Nodes: ("seq", [n...]), ("alt", [n...]), ("opt", n), ("rep", n), ("plus", n),
("term", text), ("nt", name), ("prose", text), ("except", n, m).
"""

import re

_TOKEN = re.compile(r'''
    (?P<ws>\s+)
  | (?P<comment>\(\*.*?\*\))
  | (?P<term>"[^"]*"|'[^']*')
  | (?P<prose>\?[^?]*\?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>[,|\[\]{}()+\-=;])
''', re.S | re.X)


class Grammar:
    """The productions of one EBNF text, in file order."""

    def __init__(self):
        self.rules = {}
        self.order = []
        self.comments = {}

    def marked(self, word):
        """The productions whose preceding comments contain `word` (EXTENSION, RULING)."""
        return [n for n in self.order if any(word in c for c in self.comments[n])]


def read(text):
    """Parses an EBNF text into a Grammar (ValueError on anything the notation does not allow)."""
    toks = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"unexpected character {text[pos]!r} at offset {pos}")
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        toks.append((kind, m.group(kind)))
    g = Grammar()
    p = _Parser(toks)
    while not p.done():
        comments = []
        while p.peek()[0] == "comment":
            comments.append(p.next()[1])
        if p.done():
            break
        name = p.expect("name")
        p.expect_op("=")
        rhs = p.alternatives()
        p.expect_op(";")
        if name in g.rules:
            raise ValueError(f"production {name} is defined twice")
        g.rules[name] = rhs
        g.order.append(name)
        g.comments[name] = comments
    return g


class _Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def done(self):
        return self.i >= len(self.toks)

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("eof", "")

    def next(self):
        t = self.peek()
        self.i += 1
        return t

    def expect(self, kind):
        t = self.next()
        if t[0] != kind:
            raise ValueError(f"expected {kind}, found {t[1]!r}")
        return t[1]

    def expect_op(self, op):
        t = self.next()
        if t != ("op", op):
            raise ValueError(f"expected {op!r}, found {t[1]!r}")

    def skip_comments(self):
        while self.peek()[0] == "comment":
            self.i += 1

    def is_op(self, op):
        self.skip_comments()
        return self.peek() == ("op", op)

    def alternatives(self):
        alts = [self.sequence()]
        while self.is_op("|"):
            self.i += 1
            alts.append(self.sequence())
        return alts[0] if len(alts) == 1 else ("alt", alts)

    def sequence(self):
        items = [self.exception()]
        while self.is_op(","):
            self.i += 1
            items.append(self.exception())
        return items[0] if len(items) == 1 else ("seq", items)

    def exception(self):
        node = self.factor()
        if self.is_op("-"):
            self.i += 1
            node = ("except", node, self.factor())
        return node

    def factor(self):
        self.skip_comments()
        kind, text = self.next()
        if kind == "term":
            node = ("term", text[1:-1])
        elif kind == "prose":
            node = ("prose", text[1:-1].strip())
        elif kind == "name":
            node = ("nt", text)
        elif (kind, text) == ("op", "["):
            node = ("opt", self.alternatives())
            self.expect_op("]")
        elif (kind, text) == ("op", "{"):
            node = ("rep", self.alternatives())
            self.expect_op("}")
        elif (kind, text) == ("op", "("):
            node = self.alternatives()
            self.expect_op(")")
        else:
            raise ValueError(f"unexpected {text!r}")
        if self.is_op("+"):
            self.i += 1
            node = ("plus", node)
        return node


def names(node):
    """The production names a right-hand side refers to."""
    kind = node[0]
    if kind == "nt":
        return {node[1]}
    if kind in ("seq", "alt"):
        return set().union(*(names(n) for n in node[1]))
    if kind in ("opt", "rep", "plus"):
        return names(node[1])
    if kind == "except":
        return names(node[1]) | names(node[2])
    return set()


def reachable(rules, start):
    """Every production reachable from `start` through `rules`."""
    seen, todo = set(), [start]
    while todo:
        n = todo.pop()
        if n in seen or n not in rules:
            continue
        seen.add(n)
        todo.extend(names(rules[n]))
    return seen
