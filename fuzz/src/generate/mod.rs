//! Structured CAL queries from fuzzer bytes.
//!
//! Byte-level mutation of CAL text rarely gets past the parser and the checker,
//! so the interpreter sees few interesting queries. This generator builds the
//! typed AST directly with [`arbitrary::Unstructured`], drawing every name from
//! the language's own tables (grain types, the fields each type has, their
//! operators, closed enum values and numeric ranges, the `mg:` relations, WITH
//! options, pipeline stages, formats) and string values from the vocabulary of
//! the fixture stores, so that most trees are valid and reach deep into the
//! checker, planner and interpreter. A small share of choices is deliberately
//! off (a wrong value type, an unknown relation, an out-of-range limit) so the
//! error paths are exercised too.
//!
//! Every leaf the generator produces is one the lexer could have produced
//! (identifiers that are not reserved words, NFC strings, finite numbers), so
//! a tree that prints to text must parse back to itself.

mod recall;
mod statements;

use arbitrary::{Result, Unstructured};
use cal_grammar::Span;
use cal_parser::ast::{Ident, IntLit, Number, StringLit, Target, TargetKind, Text, Value, ValueKind};

pub use statements::query;

/// Words the generator draws from that are not in the grammar tables: the
/// fixture stores' subjects and objects, namespaces, time expressions, labels.
pub struct Vocab {
    /// Hex content addresses of grains in the store the query will run on (full length).
    pub hashes: Vec<String>,
}

/// String values: subjects, objects and free text found in the fixture stores,
/// plus strings that exercise escaping and Unicode in the printer.
const STRINGS: &[&str] = &[
    "alice",
    "bob",
    "carol",
    "user",
    "dark mode",
    "light mode",
    "python",
    "Q1 review",
    "deploy",
    "team-alpha",
    "acme:team-alpha",
    "mg:prefers",
    "prefers",
    "coffee",
    "",
    "naïve café",
    "日本語",
    "quote \" and \\ backslash",
    "tab\tand\nnewline",
    "x",
];

/// Namespaces and scopes of the fixture stores, and one that matches nothing.
const NAMESPACES: &[&str] = &["acme:team-alpha", "shared", "default", "personal", "nowhere"];

/// Time expressions the interpreter resolves (interp/src/timeexpr.rs), and two it rejects.
const TIMES: &[&str] = &[
    "last 7 days",
    "past 3 hours",
    "last week",
    "last month",
    "today",
    "yesterday",
    "this week",
    "this year",
    "3 days ago",
    "since yesterday",
    "2026",
    "2026-03",
    "2026-03-01",
    "2026-03-01T09:30:00Z",
    "1709251200",
    "now",
    "next blue moon",
    "2026-13-45",
];

/// User-chosen names: labels, context names, template names. None is a keyword or reserved
/// word (a context name `recent` does not parse: RECENT is a keyword).
const IDENTS: &[&str] = &["a", "b", "c", "prefs", "goals", "latest", "facts", "ctx", "left_side", "x_1"];

/// LET binding names; `p`… are also the parameters the pipeline binds.
const LET_NAMES: &[&str] = &["p", "q", "r", "subj", "users"];

/// Parameters bound by the pipeline target's execution options (see `pipeline::exec_options`).
pub const BOUND_PARAMS: &[&str] = &["n", "who", "h", "conf"];

/// Numbers: in-range confidences, small counts, epochs, negatives, boundaries.
const FLOATS: &[f64] = &[0.0, 0.1, 0.25, 0.5, 0.75, 0.8, 0.9, 1.0, 1.5, -0.5, 2.5e3];
const INTS: &[i64] = &[0, 1, 2, 3, 5, 10, 42, 100, -3, 1_772_798_400_000, 1_709_251_200];

/// Small non-negative integers for LIMIT, RECENT, BUDGET and friends, with the §17.3 boundaries.
const COUNTS: &[u64] = &[0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 201, 1000, 1001, 4000, 16_000, 16_001];

/// The generator state: the bytes left, the vocabulary, and the nesting depth.
pub struct Gen<'a, 'b> {
    u: &'b mut Unstructured<'a>,
    vocab: &'b Vocab,
    depth: u32,
    /// The LET names bound so far, which `$name` values and sources may refer to.
    pub(crate) lets: Vec<Text>,
}

/// Spans are irrelevant to a generated tree; every node gets the empty one.
pub(crate) const SP: Span = Span { start: 0, end: 0 };

impl<'a, 'b> Gen<'a, 'b> {
    /// A generator reading from `u`.
    pub fn new(u: &'b mut Unstructured<'a>, vocab: &'b Vocab) -> Self {
        Gen { u, vocab, depth: 0, lets: Vec::new() }
    }

    /// True with probability `num / den` (false once the bytes are used up).
    pub(crate) fn chance(&mut self, num: u8, den: u8) -> Result<bool> {
        self.u.ratio(num, den)
    }

    /// A count in `lo..=hi` (`lo` once the bytes are used up).
    pub(crate) fn count(&mut self, lo: usize, hi: usize) -> Result<usize> {
        self.u.int_in_range(lo..=hi)
    }

    /// One element of a non-empty slice.
    pub(crate) fn pick<T: Copy>(&mut self, items: &[T]) -> Result<T> {
        Ok(*self.u.choose(items)?)
    }

    /// One index into `0..n` (`n > 0`).
    pub(crate) fn index(&mut self, n: usize) -> Result<usize> {
        self.u.choose_index(n)
    }

    /// Runs `f` one level deeper; nested statements stop branching at depth 3.
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Whether nesting may go deeper (the §17.3 subquery depth is 3; one more level probes it).
    pub(crate) fn can_nest(&self) -> bool {
        self.depth < 4
    }

    pub(crate) fn text(&mut self, items: &[&str]) -> Result<Text> {
        Ok(Text::from(self.pick(items)?))
    }

    pub(crate) fn string_lit(&mut self, items: &[&str]) -> Result<StringLit> {
        Ok(StringLit { value: self.text(items)?, span: SP })
    }

    pub(crate) fn any_string(&mut self) -> Result<StringLit> {
        self.string_lit(STRINGS)
    }

    pub(crate) fn namespace(&mut self) -> Result<StringLit> {
        self.string_lit(NAMESPACES)
    }

    pub(crate) fn time(&mut self) -> Result<StringLit> {
        self.string_lit(TIMES)
    }

    pub(crate) fn ident(&mut self) -> Result<Ident> {
        Ok(Ident { name: self.text(IDENTS)?, span: SP })
    }

    pub(crate) fn let_name(&mut self) -> Result<Ident> {
        Ok(Ident { name: self.text(LET_NAMES)?, span: SP })
    }

    pub(crate) fn int_lit(&mut self) -> Result<IntLit> {
        Ok(IntLit { value: self.pick(COUNTS)?, span: SP })
    }

    /// A small count, mostly within the limits.
    pub(crate) fn small_int(&mut self, hi: u64) -> Result<IntLit> {
        Ok(IntLit { value: self.u.int_in_range(1..=hi)?, span: SP })
    }

    pub(crate) fn number(&mut self) -> Result<Number> {
        Ok(if self.chance(1, 2)? { Number::Float(self.pick(FLOATS)?) } else { Number::Int(self.pick(INTS)?) })
    }

    /// A number in `lo..=hi` for fields with a closed range; sometimes outside it.
    pub(crate) fn number_in(&mut self, lo: f64, hi: f64) -> Result<Number> {
        if self.chance(1, 12)? {
            return self.number();
        }
        let steps = self.count(0, 4)? as f64;
        let v = lo + (hi - lo) * steps / 4.0;
        Ok(if v.fract() == 0.0 && self.chance(1, 3)? { Number::Int(v as i64) } else { Number::Float(v) })
    }

    /// The hex of a grain of the store (full, or a prefix of at least 8 digits), or one that is absent.
    pub(crate) fn hash_hex(&mut self) -> Result<Text> {
        if self.vocab.hashes.is_empty() || self.chance(1, 8)? {
            return Ok(Text::from(self.pick(&["deadbeef", "0123456789abcdef", "a1b2c3d4e5f6a7b8"])?));
        }
        let i = self.index(self.vocab.hashes.len())?;
        let full = &self.vocab.hashes[i];
        let len = if self.chance(1, 2)? { full.len() } else { self.count(8, full.len().min(64))? };
        Ok(Text::from(&full[..len]))
    }

    pub(crate) fn target(&mut self) -> Result<Target> {
        let kind = if self.chance(1, 10)? {
            TargetKind::Param(self.text(&["h", "unbound"])?)
        } else {
            TargetKind::Hash(self.hash_hex()?)
        };
        Ok(Target { kind, span: SP })
    }

    /// Any value at all, for places where the field's type is unknown or to probe type errors.
    pub(crate) fn any_value(&mut self) -> Result<Value> {
        let kind = match self.count(0, 6)? {
            0 | 1 => ValueKind::String(self.text(STRINGS)?),
            2 => ValueKind::Number(self.number()?),
            3 => ValueKind::Bool(self.chance(1, 2)?),
            4 => ValueKind::Param(self.text(BOUND_PARAMS)?),
            5 => ValueKind::Hash(self.hash_hex()?),
            _ => {
                let n = self.count(0, 3)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(val(ValueKind::String(self.text(STRINGS)?)));
                }
                ValueKind::Array(items)
            }
        };
        Ok(val(kind))
    }
}

/// A value node.
pub(crate) fn val(kind: ValueKind) -> Value {
    Value { kind, span: SP }
}
