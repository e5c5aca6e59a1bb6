//! `application/json+cal` → AST.
//!
//! Runs after schema validation, so the shapes are normally right; still,
//! nothing here trusts its input: every access is checked and a mismatch is a
//! diagnostic naming the JSON pointer, never a panic. On top of the schema it
//! checks what only CAL's lexer knows (keywords among names, template braces,
//! bidi controls, NFC) and the version (CAL-E100), so that whatever it accepts
//! prints as text that parses back to the same tree. All spans are empty.

mod assemble;
mod recall;
mod statements;

use super::names;
use super::schema::{at, at_code, escape};
use crate::ast::*;
use cal_grammar::{Code, Diagnostic, Span};
use cal_lexer::is_bidi_control;
use serde_json::{Map, Value as Json};
use std::borrow::Cow;

/// A structural failure; its diagnostic has already been recorded.
struct Stop;

type R<T> = Result<T, Stop>;

/// A JSON pointer under construction.
#[derive(Clone)]
struct Ptr(String);

impl Ptr {
    fn key(&self, k: &str) -> Ptr {
        Ptr(format!("{}/{}", self.0, escape(k)))
    }

    fn idx(&self, i: usize) -> Ptr {
        Ptr(format!("{}/{i}", self.0))
    }
}

const NO_SPAN: Span = Span { start: 0, end: 0 };

/// Whether a float serde_json produced is a whole number that no 64-bit
/// integer (signed or unsigned) holds: 2^64 and above, or below -2^63.
fn beyond_64_bits(f: f64) -> bool {
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    const MINUS_TWO_63: f64 = -9_223_372_036_854_775_808.0;
    f.is_finite() && f.fract() == 0.0 && !(MINUS_TWO_63..TWO_64).contains(&f)
}

/// One query object; an array is an error here.
pub(crate) fn query_only(json: &Json) -> Result<Query, Vec<Diagnostic>> {
    let mut d = Decoder::default();
    if json.is_array() {
        d.errors.push(
            at("", "expected one query object, found an array.")
                .with_suggestion("Use document_from_json (or `cal text`) for an array of queries."),
        );
        return Err(d.errors);
    }
    let q = d.query(json, &Ptr(String::new()));
    d.finish(q)
}

/// A query object (a document of one query) or an array of them.
pub(crate) fn document(json: &Json) -> Result<Document, Vec<Diagnostic>> {
    let mut d = Decoder::default();
    let root = Ptr(String::new());
    let queries = match json {
        Json::Array(items) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if let Ok(q) = d.query(item, &root.idx(i)) {
                    out.push(q);
                }
            }
            Ok(out)
        }
        _ => d.query(json, &root).map(|q| vec![q]),
    };
    d.finish(queries.map(|queries| Document { queries }))
}

/// A document decoded one query at a time, as [`document`] decodes it whole: each
/// element's JSON value can be dropped once its tree is built, and each tree handed on
/// (issue 19). The length check of §17.3 is made on each tree as it is built.
#[derive(Default)]
pub(crate) struct Items {
    d: Decoder,
    /// CAL-E001 for each query over §17.3's length as text.
    long: Vec<Diagnostic>,
    /// Queries built.
    built: usize,
    /// The top-level value was one query object, and it could not be built.
    failed: bool,
}

impl Items {
    /// Decodes one query (element `index` of an array, or the top-level object when
    /// `None`) and hands its tree to `each`.
    pub(crate) fn decode(&mut self, json: &Json, index: Option<usize>, each: &mut dyn FnMut(Query)) {
        let root = Ptr(String::new());
        let p = index.map_or_else(|| root.clone(), |i| root.idx(i));
        match self.d.query(json, &p) {
            Ok(q) => {
                self.long.extend(super::too_long(&q));
                self.built += 1;
                each(q);
            }
            Err(Stop) => self.failed |= index.is_none(),
        }
    }

    /// How many queries were built, or every problem found: the decoder's, else the
    /// length check's.
    pub(crate) fn finish(self) -> Result<usize, Vec<Diagnostic>> {
        let built = if self.failed { Err(Stop) } else { Ok(self.built) };
        let built = self.d.finish(built)?;
        if self.long.is_empty() { Ok(built) } else { Err(self.long) }
    }
}

#[derive(Default)]
struct Decoder {
    errors: Vec<Diagnostic>,
}

impl Decoder {
    fn finish<T>(mut self, result: R<T>) -> Result<T, Vec<Diagnostic>> {
        match result {
            Ok(v) if self.errors.is_empty() => Ok(v),
            _ if self.errors.is_empty() => {
                self.errors.push(at(
                    "",
                    "the request could not be decoded; this is a bug in the toolchain, please report it.",
                ));
                Err(self.errors)
            }
            _ => Err(self.errors),
        }
    }

    /// Records a problem that does not stop decoding.
    fn report(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    /// Records a problem after which this value cannot be built.
    fn fail(&mut self, p: &Ptr, detail: impl std::fmt::Display) -> Stop {
        self.errors.push(at(&p.0, detail));
        Stop
    }

    // ----- shapes -----

    fn obj<'v>(&mut self, v: &'v Json, p: &Ptr) -> R<&'v Map<String, Json>> {
        v.as_object().ok_or_else(|| self.fail(p, format!("expected an object, found {}.", kind(v))))
    }

    fn arr<'v>(&mut self, v: &'v Json, p: &Ptr) -> R<&'v [Json]> {
        v.as_array().map(Vec::as_slice).ok_or_else(|| self.fail(p, format!("expected an array, found {}.", kind(v))))
    }

    fn req<'v>(&mut self, o: &'v Map<String, Json>, key: &str, p: &Ptr) -> R<&'v Json> {
        o.get(key).ok_or_else(|| self.fail(p, format!("the key `{key}` is required.")))
    }

    fn raw_str<'v>(&mut self, v: &'v Json, p: &Ptr) -> R<&'v str> {
        v.as_str().ok_or_else(|| self.fail(p, format!("expected a string, found {}.", kind(v))))
    }

    /// A list of items decoded one by one.
    fn list<T>(&mut self, v: &Json, p: &Ptr, mut f: impl FnMut(&mut Self, &Json, &Ptr) -> R<T>) -> R<Vec<T>> {
        let items = self.arr(v, p)?;
        let mut out = Vec::with_capacity(items.len());
        let mut failed = false;
        for (i, item) in items.iter().enumerate() {
            match f(self, item, &p.idx(i)) {
                Ok(x) => out.push(x),
                Err(Stop) => failed = true,
            }
        }
        if failed { Err(Stop) } else { Ok(out) }
    }

    /// The optional key `key` of `o`, decoded with `f`.
    fn opt<T>(
        &mut self,
        o: &Map<String, Json>,
        key: &str,
        p: &Ptr,
        f: impl FnOnce(&mut Self, &Json, &Ptr) -> R<T>,
    ) -> R<Option<T>> {
        match o.get(key) {
            Some(v) => f(self, v, &p.key(key)).map(Some),
            None => Ok(None),
        }
    }

    /// A closed-vocabulary word (`"beliefs"`, `"DESC"`, `"markdown"`).
    fn word<T>(&mut self, v: &Json, p: &Ptr, what: &str, from: impl Fn(&str) -> Option<T>) -> R<T> {
        let s = self.raw_str(v, p)?;
        from(s).ok_or_else(|| self.fail(p, format!("\"{s}\" is not a valid {what}.")))
    }

    /// A `true` flag (`my`, `contradictions`).
    fn flag(&mut self, o: &Map<String, Json>, key: &str, p: &Ptr) -> R<Option<Span>> {
        match o.get(key) {
            None => Ok(None),
            Some(Json::Bool(true)) => Ok(Some(NO_SPAN)),
            Some(v) => Err(self.fail(&p.key(key), format!("expected true, found {v}."))),
        }
    }

    // ----- leaves -----

    /// A string literal's value: bidi controls rejected (CAL-E071), NFC applied (§16.2, §16.3).
    fn string(&mut self, v: &Json, p: &Ptr) -> R<Text> {
        let s = self.raw_str(v, p)?;
        self.check_bidi(s, p);
        Ok(cal_lexer::nfc(Cow::Borrowed(s)).into())
    }

    fn check_bidi(&mut self, s: &str, p: &Ptr) {
        if let Some(c) = s.chars().find(|c| is_bidi_control(*c)) {
            let detail = format!("the text contains the bidi control character U+{:04X}.", c as u32);
            self.report(
                at_code(Code::E071, &p.0, detail).with_suggestion("Remove bidirectional override characters (§16.3)."),
            );
        }
    }

    fn string_lit(&mut self, v: &Json, p: &Ptr) -> R<StringLit> {
        Ok(StringLit { value: self.string(v, p)?, span: NO_SPAN })
    }

    fn count(&mut self, v: &Json, p: &Ptr) -> R<u64> {
        let Json::Number(n) = v else {
            return Err(self.fail(p, format!("expected a non-negative integer, found {}.", kind(v))));
        };
        match n.as_u64() {
            Some(u) => Ok(u),
            // Without arbitrary precision, serde_json holds an integer beyond
            // 64 bits as a float; a whole value out of range is that integer
            // (CAL-E006, as the text form reports it), not a decimal.
            None if n.as_f64().is_some_and(beyond_64_bits) => {
                self.report(at_code(Code::E006, &p.0, format!("{n} is out of range for a 64-bit integer.")));
                Err(Stop)
            }
            None if n.is_f64() => Err(self
                .fail(p, format!("{n} is written as a decimal; an integer is required here (write it without `.`)."))),
            None => Err(self.fail(p, format!("{n} is out of range for a non-negative integer."))),
        }
    }

    fn int_lit(&mut self, v: &Json, p: &Ptr) -> R<IntLit> {
        Ok(IntLit { value: self.count(v, p)?, span: NO_SPAN })
    }

    fn number(&mut self, v: &Json, p: &Ptr) -> R<Number> {
        let Json::Number(n) = v else {
            return Err(self.fail(p, format!("expected a number, found {}.", kind(v))));
        };
        if let Some(i) = n.as_i64() {
            return Ok(Number::Int(i));
        }
        if n.is_u64() {
            self.report(at_code(Code::E006, &p.0, format!("{n} is out of range for a 64-bit integer.")));
            return Err(Stop);
        }
        n.as_f64()
            .filter(|f| f.is_finite())
            .map(Number::Float)
            .ok_or_else(|| self.fail(p, format!("{n} is not a finite number.")))
    }

    fn value(&mut self, v: &Json, p: &Ptr) -> R<Value> {
        let kind = match v {
            Json::String(_) => ValueKind::String(self.string(v, p)?),
            Json::Number(_) => ValueKind::Number(self.number(v, p)?),
            Json::Bool(b) => ValueKind::Bool(*b),
            Json::Array(_) => ValueKind::Array(self.list(v, p, Self::value)?),
            Json::Object(o) => match (o.get("param"), o.get("hash"), o.len()) {
                (Some(name), None, 1) => ValueKind::Param(self.param_name(name, &p.key("param"))?),
                (None, Some(h), 1) => ValueKind::Hash(self.hash(h, &p.key("hash"))?),
                _ => return Err(self.fail(p, r#"a value object is {"param": name} or {"hash": "sha256:…"}."#)),
            },
            Json::Null => return Err(self.fail(p, "null is not a CAL value (CAL has no NULL, §5.4).")),
        };
        Ok(Value { kind, span: NO_SPAN })
    }

    fn values(&mut self, v: &Json, p: &Ptr) -> R<Vec<Value>> {
        self.list(v, p, Self::value)
    }

    /// The hex digits of `"sha256:…"` (8 to 64 lower-case hex digits).
    fn hash(&mut self, v: &Json, p: &Ptr) -> R<Text> {
        let s = self.raw_str(v, p)?;
        match cal_grammar::hash::hex_of(s) {
            Some(hex) => Ok(hex.into()),
            None => {
                let detail = format!("\"{s}\" is not a hash literal: `sha256:` and 8 to 64 lower-case hex digits.");
                self.report(at_code(Code::E015, &p.0, detail));
                Err(Stop)
            }
        }
    }

    fn target(&mut self, v: &Json, p: &Ptr) -> R<Target> {
        let o = self.obj(v, p)?;
        let kind = match (o.get("hash"), o.get("param"), o.len()) {
            (Some(h), None, 1) => TargetKind::Hash(self.hash(h, &p.key("hash"))?),
            (None, Some(n), 1) => TargetKind::Param(self.param_name(n, &p.key("param"))?),
            _ => return Err(self.fail(p, r#"a target is {"hash": "sha256:…"} or {"param": name}."#)),
        };
        Ok(Target { kind, span: NO_SPAN })
    }

    fn int_or_param(&mut self, v: &Json, p: &Ptr) -> R<IntOrParam> {
        match v {
            Json::Object(o) => match (o.get("param"), o.len()) {
                (Some(n), 1) => Ok(IntOrParam::Param(self.param_name(n, &p.key("param"))?, NO_SPAN)),
                _ => Err(self.fail(p, r#"expected an integer or {"param": name}."#)),
            },
            _ => Ok(IntOrParam::Int(self.int_lit(v, p)?)),
        }
    }

    // ----- names -----

    /// A parameter or LET name (without `$`).
    fn param_name(&mut self, v: &Json, p: &Ptr) -> R<Text> {
        let s = self.raw_str(v, p)?;
        let mut chars = s.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ok { Ok(s.into()) } else { Err(self.fail(p, format!("\"{s}\" is not a valid parameter name."))) }
    }

    fn ident(&mut self, v: &Json, p: &Ptr, check: impl Fn(&str) -> Option<String>) -> R<Ident> {
        let s = self.raw_str(v, p)?;
        match check(s) {
            None => Ok(Ident { name: s.into(), span: NO_SPAN }),
            Some(why) => Err(self.fail(p, why)),
        }
    }

    fn label(&mut self, v: &Json, p: &Ptr) -> R<Ident> {
        self.ident(v, p, names::label_problem)
    }

    fn user_name(&mut self, v: &Json, p: &Ptr) -> R<Ident> {
        self.ident(v, p, names::user_name_problem)
    }

    fn word_name(&mut self, v: &Json, p: &Ptr) -> R<Ident> {
        self.ident(v, p, |s| (!names::is_word(s)).then(|| format!("`{s}` is a keyword or not a name.")))
    }

    fn let_name(&mut self, v: &Json, p: &Ptr) -> R<Ident> {
        Ok(Ident { name: self.param_name(v, p)?, span: NO_SPAN })
    }

    fn field(&mut self, v: &Json, p: &Ptr) -> R<FieldRef> {
        let s = self.raw_str(v, p)?;
        if names::is_field(s) {
            Ok(FieldRef { name: s.into(), span: NO_SPAN })
        } else {
            Err(self.fail(p, format!("\"{s}\" is not a field name (a keyword, or not a name at all).")))
        }
    }

    fn fields(&mut self, v: &Json, p: &Ptr) -> R<Vec<FieldRef>> {
        self.list(v, p, Self::field)
    }
}

/// What kind of JSON value this is, for messages.
fn kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}
