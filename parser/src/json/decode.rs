//! `application/json+cal` → AST.
//!
//! Runs after schema validation, so the shapes are normally right; still,
//! nothing here trusts its input: every access is checked and a mismatch is a
//! diagnostic naming the JSON pointer, never a panic. On top of the schema it
//! checks what only CAL's lexer knows (keywords among names, template braces,
//! bidi controls, NFC) and the version (CAL-E100), so that whatever it accepts
//! prints as text that parses back to the same tree. All spans are empty.

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

#[derive(Default)]
struct Decoder {
    errors: Vec<Diagnostic>,
}

impl Decoder {
    fn finish<T>(self, result: R<T>) -> Result<T, Vec<Diagnostic>> {
        match result {
            Ok(v) if self.errors.is_empty() => Ok(v),
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
    fn string(&mut self, v: &Json, p: &Ptr) -> R<String> {
        let s = self.raw_str(v, p)?;
        self.check_bidi(s, p);
        Ok(cal_lexer::nfc(Cow::Borrowed(s)).into_owned())
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
        match v {
            Json::Number(n) if n.is_u64() => n.as_u64().ok_or(Stop),
            Json::Number(n) if n.is_f64() => Err(self
                .fail(p, format!("{n} is written as a decimal; an integer is required here (write it without `.`)."))),
            Json::Number(n) => Err(self.fail(p, format!("{n} is out of range for a non-negative integer."))),
            other => Err(self.fail(p, format!("expected a non-negative integer, found {}.", kind(other)))),
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
    fn hash(&mut self, v: &Json, p: &Ptr) -> R<String> {
        let s = self.raw_str(v, p)?;
        match s.strip_prefix("sha256:") {
            Some(hex)
                if cal_lexer::HASH_HEX_DIGITS.contains(&hex.len())
                    && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
            {
                Ok(hex.to_string())
            }
            _ => {
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
    fn param_name(&mut self, v: &Json, p: &Ptr) -> R<String> {
        let s = self.raw_str(v, p)?;
        let mut chars = s.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ok { Ok(s.to_string()) } else { Err(self.fail(p, format!("\"{s}\" is not a valid parameter name."))) }
    }

    fn ident(&mut self, v: &Json, p: &Ptr, check: impl Fn(&str) -> Option<String>) -> R<Ident> {
        let s = self.raw_str(v, p)?;
        match check(s) {
            None => Ok(Ident { name: s.to_string(), span: NO_SPAN }),
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
            Ok(FieldRef { name: s.to_string(), span: NO_SPAN })
        } else {
            Err(self.fail(p, format!("\"{s}\" is not a field name (a keyword, or not a name at all).")))
        }
    }

    fn fields(&mut self, v: &Json, p: &Ptr) -> R<Vec<FieldRef>> {
        self.list(v, p, Self::field)
    }

    // ----- queries and statements -----

    fn query(&mut self, v: &Json, p: &Ptr) -> R<Query> {
        let o = self.obj(v, p)?;
        let version = self.opt(o, "cal_version", p, |d, v, p| {
            let n = d.count(v, p)?;
            let major = u32::try_from(n).unwrap_or(u32::MAX);
            if major != 1 {
                let detail = format!("CAL/{n} is not supported; this implementation speaks CAL/1.");
                d.report(
                    at_code(Code::E100, &p.0, detail)
                        .with_suggestion("Write \"cal_version\": 1, or leave the key out.")
                        .with_valid_values(["1"]),
                );
            }
            Ok(Version { major, span: NO_SPAN })
        });
        let lets = self.opt(o, "lets", p, |d, v, p| d.list(v, p, Self::let_binding));
        let kind = self.req(o, "statement", p).and_then(|k| self.raw_str(k, &p.key("statement")));
        let body = match kind? {
            "define_template" => self.define_template(o, p).map(QueryBody::DefineTemplate),
            kind => self.statement_body(kind, o, p).map(QueryBody::Statement),
        };
        Ok(Query { version: version?, lets: lets?.unwrap_or_default(), body: body?, span: NO_SPAN })
    }

    fn let_binding(&mut self, v: &Json, p: &Ptr) -> R<LetBinding> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "name", p).and_then(|n| self.let_name(n, &p.key("name")));
        let recall = self.req(o, "recall", p).and_then(|r| self.recall_object(r, &p.key("recall")));
        Ok(LetBinding { name: name?, recall: recall?, span: NO_SPAN })
    }

    /// A nested statement object (`"statement"` required).
    fn statement(&mut self, v: &Json, p: &Ptr) -> R<Statement> {
        let o = self.obj(v, p)?;
        let kind = self.req(o, "statement", p)?;
        let kind = self.raw_str(kind, &p.key("statement"))?;
        self.statement_body(kind, o, p)
    }

    fn statement_body(&mut self, kind: &str, o: &Map<String, Json>, p: &Ptr) -> R<Statement> {
        Ok(match kind {
            "recall" => Statement::Recall(self.recall(o, p)?),
            "assemble" => Statement::Assemble(self.assemble(o, p)?),
            "set_op" => {
                let op = self
                    .req(o, "op", p)
                    .and_then(|v| self.word(v, &p.key("op"), "set operator", SetOperator::from_word));
                let left = self.req(o, "left", p).and_then(|v| self.statement(v, &p.key("left")));
                let right = self.req(o, "right", p).and_then(|v| self.statement(v, &p.key("right")));
                Statement::SetOp(SetOp {
                    left: Box::new(left?),
                    op: op?,
                    op_span: NO_SPAN,
                    right: Box::new(right?),
                    span: NO_SPAN,
                })
            }
            "exists" => {
                let target = self.req(o, "target", p)?;
                Statement::Exists(Exists { target: self.target(target, &p.key("target"))?, span: NO_SPAN })
            }
            "history" => Statement::History(self.history(o, p)?),
            "explain" => {
                let of = self.req(o, "of", p)?;
                let inner = self.statement(of, &p.key("of"))?;
                if matches!(inner, Statement::Explain(_)) {
                    return Err(self.fail(&p.key("of"), "EXPLAIN cannot explain an EXPLAIN."));
                }
                Statement::Explain(Explain { statement: Box::new(inner), span: NO_SPAN })
            }
            "describe" => Statement::Describe(self.describe(o, p)?),
            "batch" => {
                let entries = self.req(o, "entries", p)?;
                let entries = self.list(entries, &p.key("entries"), Self::batch_entry)?;
                Statement::Batch(Batch { entries, span: NO_SPAN })
            }
            "coalesce" => {
                let branches = self.req(o, "branches", p)?;
                let branches = self.list(branches, &p.key("branches"), Self::recall_object)?;
                Statement::Coalesce(Coalesce { branches, span: NO_SPAN })
            }
            "add" => {
                let grain_type = self.req(o, "grain_type", p).and_then(|v| self.singular(v, &p.key("grain_type")));
                let (sets, reason) = self.evolve(o, p)?;
                Statement::Add(Add { grain_type: grain_type?, sets, reason, span: NO_SPAN })
            }
            "supersede" => {
                let target = self.req(o, "target", p).and_then(|v| self.target(v, &p.key("target")));
                let (sets, reason) = self.evolve(o, p)?;
                Statement::Supersede(Supersede { target: target?, sets, reason, span: NO_SPAN })
            }
            "revert" => {
                let target = self.req(o, "target", p).and_then(|v| self.target(v, &p.key("target")));
                let reason = self.opt(o, "reason", p, Self::string_lit)?;
                Statement::Revert(Revert { target: target?, reason, span: NO_SPAN })
            }
            other => return Err(self.fail(&p.key("statement"), format!("\"{other}\" is not a statement."))),
        })
    }

    fn batch_entry(&mut self, v: &Json, p: &Ptr) -> R<BatchEntry> {
        let o = self.obj(v, p)?;
        let label = self.req(o, "label", p).and_then(|l| self.label(l, &p.key("label")));
        let statement = self.statement(v, p);
        Ok(BatchEntry { label: label?, statement: statement?, span: NO_SPAN })
    }

    // ----- RECALL -----

    fn recall_object(&mut self, v: &Json, p: &Ptr) -> R<Recall> {
        let o = self.obj(v, p)?;
        self.recall(o, p)
    }

    fn recall(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Recall> {
        let my = self.flag(o, "my", p);
        let grain_type = self.opt(o, "grain_type", p, |d, v, p| {
            let g = d.word(v, p, "grain type (plural)", GrainType::from_plural)?;
            Ok(GrainTypeRef { grain_type: g, span: NO_SPAN })
        });
        let scope = self.opt(o, "in", p, Self::in_scope);
        let about = self.opt(o, "about", p, Self::string_lit);
        let like = self.opt(o, "like", p, Self::string_lit);
        let since = self.opt(o, "since", p, Self::string_lit);
        let between = self.opt(o, "between", p, |d, v, p| {
            let o = d.obj(v, p)?;
            let (low, high) = d.low_high(o, p)?;
            Ok(BetweenClause { low, high, span: NO_SPAN })
        });
        let thread = self.opt(o, "thread", p, Self::thread);
        let where_clause = self.opt(o, "where", p, |d, v, p| {
            Ok(WhereClause { conditions: d.list(v, p, Self::condition)?, span: NO_SPAN })
        });
        let with = self.opt(o, "with", p, Self::with_clause);
        let pipeline = self.opt(o, "pipeline", p, |d, v, p| d.list(v, p, Self::stage));
        let recent = self.opt(o, "recent", p, Self::int_lit);
        let contradictions = self.flag(o, "contradictions", p);
        let as_format = self.opt(o, "as", p, |d, v, p| {
            Ok(FormatRef { format: d.word(v, p, "format", FormatName::from_word)?, span: NO_SPAN })
        });
        Ok(Recall {
            my: my?,
            grain_type: grain_type?,
            scope: scope?,
            about: about?,
            like: like?,
            since: since?,
            between: between?,
            thread: thread?,
            where_clause: where_clause?,
            with: with?,
            pipeline: pipeline?.unwrap_or_default(),
            recent: recent?,
            contradictions: contradictions?,
            as_format: as_format?,
            span: NO_SPAN,
        })
    }

    fn low_high(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<(Value, Value)> {
        let low = self.req(o, "low", p).and_then(|v| self.value(v, &p.key("low")));
        let high = self.req(o, "high", p).and_then(|v| self.value(v, &p.key("high")));
        Ok((low?, high?))
    }

    /// `"ns"` or `{"scope": "s"}`.
    fn in_scope(&mut self, v: &Json, p: &Ptr) -> R<InScope> {
        let (is_scope, value) = match v {
            Json::Object(o) => {
                let s = self.req(o, "scope", p)?;
                (true, self.string_lit(s, &p.key("scope"))?)
            }
            _ => (false, self.string_lit(v, p)?),
        };
        Ok(InScope { is_scope, value, span: NO_SPAN })
    }

    /// `"session"` or `{"from": target}`.
    fn thread(&mut self, v: &Json, p: &Ptr) -> R<Thread> {
        let kind = match v {
            Json::Object(o) => {
                let t = self.req(o, "from", p)?;
                ThreadKind::From(self.target(t, &p.key("from"))?)
            }
            _ => ThreadKind::Session(self.string_lit(v, p)?),
        };
        Ok(Thread { kind, span: NO_SPAN })
    }

    fn condition(&mut self, v: &Json, p: &Ptr) -> R<Condition> {
        let o = self.obj(v, p)?;
        let field = self.req(o, "field", p).and_then(|f| self.field(f, &p.key("field")));
        let op = self.req(o, "op", p)?;
        let op = self.raw_str(op, &p.key("op"))?;
        let test = match op {
            "IN" => match (o.get("values"), o.get("subquery")) {
                (Some(vs), None) => Test::InList(self.values(vs, &p.key("values"))?),
                (None, Some(sq)) => Test::InSubquery(Box::new(self.recall_object(sq, &p.key("subquery"))?)),
                _ => return Err(self.fail(p, "an IN condition has either `values` or `subquery`.")),
            },
            "BETWEEN" => {
                let (low, high) = self.low_high(o, p)?;
                Test::Between { low, high }
            }
            "INCLUDE" | "EXCLUDE" => {
                let value = self.req(o, "value", p).and_then(|v| self.value(v, &p.key("value")))?;
                if op == "INCLUDE" { Test::Include(value) } else { Test::Exclude(value) }
            }
            "IS" => {
                let c = self.req(o, "category", p)?;
                let c = self.word(c, &p.key("category"), "relation category", RelationCategory::from_word)?;
                Test::IsCategory(c, NO_SPAN)
            }
            other => match Comparator::from_word(other) {
                Some(cmp) => {
                    let value = self.req(o, "value", p).and_then(|v| self.value(v, &p.key("value")))?;
                    Test::Compare { op: cmp, op_span: NO_SPAN, value }
                }
                None => return Err(self.fail(&p.key("op"), format!("\"{other}\" is not an operator."))),
            },
        };
        Ok(Condition { field: field?, test, span: NO_SPAN })
    }

    fn with_clause(&mut self, v: &Json, p: &Ptr) -> R<WithClause> {
        let options = self.list(v, p, |d, v, p| Ok(WithOption { kind: d.with_option(v, p)?, span: NO_SPAN }))?;
        Ok(WithClause { options, span: NO_SPAN })
    }

    fn with_option(&mut self, v: &Json, p: &Ptr) -> R<WithKind> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "option", p)?;
        let name = self.raw_str(name, &p.key("option"))?;
        let num = |d: &mut Self, key: &str| -> R<(Number, Span)> {
            let v = d.req(o, key, p)?;
            Ok((d.number(v, &p.key(key))?, NO_SPAN))
        };
        Ok(match name {
            "superseded" => WithKind::Superseded,
            "score_breakdown" => WithKind::ScoreBreakdown,
            "explanation" => WithKind::Explanation,
            "provenance" => WithKind::Provenance,
            "contradiction_detection" => WithKind::ContradictionDetection,
            "summarize" => WithKind::Summarize,
            "iso_timestamps" => WithKind::IsoTimestamps,
            "progressive_disclosure" => WithKind::ProgressiveDisclosure(self.opt(o, "level", p, |d, v, p| {
                Ok((d.word(v, p, "disclosure level", DisclosureLevel::from_word)?, NO_SPAN))
            })?),
            "diversity" => {
                let mode = self.req(o, "mode", p)?;
                match self.raw_str(mode, &p.key("mode"))? {
                    "mmr" if o.contains_key("lambda") => {
                        WithKind::Diversity(Diversity::Mmr(Some(num(self, "lambda")?)))
                    }
                    "mmr" => WithKind::Diversity(Diversity::Mmr(None)),
                    "threshold" => {
                        let (n, s) = num(self, "threshold")?;
                        WithKind::Diversity(Diversity::Threshold(n, s))
                    }
                    other => return Err(self.fail(&p.key("mode"), format!("\"{other}\" is not a diversity mode."))),
                }
            }
            "consistency" => {
                let level = self.req(o, "level", p)?;
                match self.raw_str(level, &p.key("level"))? {
                    "eventual" => WithKind::Consistency(Consistency::Eventual),
                    "linearizable" => WithKind::Consistency(Consistency::Linearizable),
                    "bounded" => {
                        let (n, s) = num(self, "bound")?;
                        WithKind::Consistency(Consistency::Bounded(n, s))
                    }
                    other => return Err(self.fail(&p.key("level"), format!("\"{other}\" is not a consistency level."))),
                }
            }
            "dedup" => {
                let f = self.req(o, "field", p)?;
                WithKind::Dedup(self.field(f, &p.key("field"))?)
            }
            "locale" => {
                let l = self.req(o, "locale", p)?;
                WithKind::Locale(self.string_lit(l, &p.key("locale"))?)
            }
            "cache" => {
                let ttl = self.req(o, "ttl", p)?;
                WithKind::Cache(self.int_lit(ttl, &p.key("ttl"))?)
            }
            ext if ext.starts_with("x_") && names::is_word(ext) => {
                WithKind::Extension { name: ext.to_string(), args: self.opt(o, "args", p, Self::values)? }
            }
            other => return Err(self.fail(&p.key("option"), format!("\"{other}\" is not a WITH option."))),
        })
    }

    fn stage(&mut self, v: &Json, p: &Ptr) -> R<Stage> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "stage", p)?;
        let name = self.raw_str(name, &p.key("stage"))?;
        let field = |d: &mut Self| -> R<FieldRef> {
            let f = d.req(o, "field", p)?;
            d.field(f, &p.key("field"))
        };
        let kind = match name {
            "select" => {
                let fs = self.req(o, "fields", p)?;
                StageKind::Select(self.fields(fs, &p.key("fields"))?)
            }
            "order_by" => StageKind::OrderBy {
                field: field(self)?,
                direction: self
                    .opt(o, "direction", p, |d, v, p| d.word(v, p, "direction", SortDirection::from_word))?,
            },
            "limit" | "offset" => {
                let n = self.req(o, "value", p)?;
                let n = self.int_or_param(n, &p.key("value"))?;
                if name == "limit" { StageKind::Limit(n) } else { StageKind::Offset(n) }
            }
            "count" => StageKind::Count,
            "first" => StageKind::First,
            "subjects" => StageKind::Extract(Extractor::Subjects),
            "objects" => StageKind::Extract(Extractor::Objects),
            "hashes" => StageKind::Extract(Extractor::Hashes),
            "group_by" => StageKind::GroupBy(field(self)?),
            "project" => {
                let specs = self.req(o, "specs", p)?;
                StageKind::Project(self.list(specs, &p.key("specs"), Self::project_spec)?)
            }
            other => return Err(self.fail(&p.key("stage"), format!("\"{other}\" is not a pipeline stage."))),
        };
        Ok(Stage { kind, span: NO_SPAN })
    }

    /// `{"content": [fields]}` or `{"attr": [fields]}`.
    fn project_spec(&mut self, v: &Json, p: &Ptr) -> R<ProjectSpec> {
        let o = self.obj(v, p)?;
        let (is_attr, fields) = match (o.get("content"), o.get("attr"), o.len()) {
            (Some(fs), None, 1) => (false, self.fields(fs, &p.key("content"))?),
            (None, Some(fs), 1) => (true, self.fields(fs, &p.key("attr"))?),
            _ => return Err(self.fail(p, r#"a PROJECT spec is {"content": [fields]} or {"attr": [fields]}."#)),
        };
        Ok(ProjectSpec { is_attr, fields, span: NO_SPAN })
    }

    // ----- ASSEMBLE -----

    fn assemble(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Assemble> {
        let name = self.opt(o, "name", p, Self::user_name);
        let intent = self.opt(o, "for", p, Self::string_lit);
        let sources = self.opt(o, "from", p, |d, v, p| d.list(v, p, Self::source));
        let budget = self.opt(o, "budget", p, |d, v, p| {
            let b = d.obj(v, p)?;
            let amount = d.req(b, "amount", p).and_then(|a| d.int_lit(a, &p.key("amount")));
            let unit =
                d.req(b, "unit", p).and_then(|u| d.word(u, &p.key("unit"), "budget unit", BudgetUnit::from_word));
            Ok(Budget { amount: amount?, unit: unit?, span: NO_SPAN })
        });
        let priority =
            self.opt(o, "priority", p, |d, v, p| Ok(Priority { labels: d.list(v, p, Self::label)?, span: NO_SPAN }));
        let format = self.opt(o, "format", p, Self::format_spec);
        let stream = self
            .opt(o, "stream", p, |d, v, p| Ok(Stream { options: d.list(v, p, Self::stream_option)?, span: NO_SPAN }));
        let with = self.opt(o, "with", p, Self::with_clause);
        Ok(Assemble {
            name: name?,
            intent: intent?,
            sources: sources?.unwrap_or_default(),
            budget: budget?,
            priority: priority?,
            format: format?,
            stream: stream?,
            with: with?,
            span: NO_SPAN,
        })
    }

    fn source(&mut self, v: &Json, p: &Ptr) -> R<Source> {
        let o = self.obj(v, p)?;
        let label = self.opt(o, "label", p, Self::label);
        let body = match (o.get("recall"), o.get("let")) {
            (Some(r), None) => SourceBody::Recall(self.recall_object(r, &p.key("recall"))?),
            (None, Some(n)) => SourceBody::LetRef(self.let_name(n, &p.key("let"))?),
            _ => return Err(self.fail(p, "a source has either `recall` or `let`.")),
        };
        Ok(Source { label: label?, body, span: NO_SPAN })
    }

    /// `"markdown"`, `{"template": name}` or `{"template": [sections]}`.
    fn format_spec(&mut self, v: &Json, p: &Ptr) -> R<FormatSpec> {
        let kind = match v {
            Json::Object(o) => {
                let t = self.req(o, "template", p)?;
                let tp = p.key("template");
                match t {
                    Json::String(_) => FormatKind::Template(self.word_name(t, &tp)?),
                    _ => FormatKind::Inline(self.template_body(t, &tp)?),
                }
            }
            _ => FormatKind::Named(self.word(v, p, "format", FormatName::from_word)?),
        };
        Ok(FormatSpec { kind, span: NO_SPAN })
    }

    fn stream_option(&mut self, v: &Json, p: &Ptr) -> R<StreamOption> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "option", p)?;
        let kind = match self.raw_str(name, &p.key("option"))? {
            "chunk_size" => {
                let n = self.req(o, "value", p)?;
                StreamOptionKind::ChunkSize(self.int_lit(n, &p.key("value"))?)
            }
            _ => {
                StreamOptionKind::Events(self.word(name, &p.key("option"), "stream option", StreamEvents::from_word)?)
            }
        };
        Ok(StreamOption { kind, span: NO_SPAN })
    }

    /// `[{"section": "ELEMENT", "text": "…"}, …]`; each text must be a body the lexer reads back whole.
    fn template_body(&mut self, v: &Json, p: &Ptr) -> R<TemplateBody> {
        let sections = self.list(v, p, |d, v, p| {
            let o = d.obj(v, p)?;
            let kind = d
                .req(o, "section", p)
                .and_then(|k| d.word(k, &p.key("section"), "template section", TemplateSectionKind::from_word));
            let text = d.req(o, "text", p)?;
            let tp = p.key("text");
            let text = d.raw_str(text, &tp)?;
            d.check_bidi(text, &tp);
            if !text.chars().any(is_bidi_control) && !names::is_template_text(text) {
                d.report(
                    at(&tp.0, "the template text has unbalanced braces or an unclosed `{{` tag.").with_suggestion(
                        "Literal braces inside a section must be balanced, and every `{{` closed by `}}`.",
                    ),
                );
            }
            Ok(TemplateSection { kind: kind?, text: text.to_string(), text_span: NO_SPAN, span: NO_SPAN })
        })?;
        Ok(TemplateBody { sections, span: NO_SPAN })
    }

    // ----- the other statements -----

    fn history(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<History> {
        let kind = if let Some(t) = o.get("target") {
            let target = self.target(t, &p.key("target"));
            let diff = self.opt(o, "diff", p, Self::target);
            HistoryKind::Hash { target: target?, diff: diff? }
        } else {
            let scope = self.opt(o, "in", p, Self::in_scope);
            let subject = self.req(o, "subject", p).and_then(|v| self.value(v, &p.key("subject")));
            let relation = self.req(o, "relation", p).and_then(|v| self.value(v, &p.key("relation")));
            let as_of = self.opt(o, "as_of", p, Self::string_lit);
            HistoryKind::Triple { scope: scope?, subject: subject?, relation: relation?, as_of: as_of? }
        };
        Ok(History { kind, span: NO_SPAN })
    }

    fn describe(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Describe> {
        let target = self.req(o, "target", p)?;
        let target = self.word(target, &p.key("target"), "DESCRIBE target", DescribeTarget::from_word)?;
        let grain_type = self.opt(o, "grain_type", p, Self::singular)?;
        if grain_type.is_some() && target != DescribeTarget::Fields {
            return Err(self.fail(&p.key("grain_type"), "only `DESCRIBE fields` takes a grain type."));
        }
        Ok(Describe { target, target_span: NO_SPAN, grain_type, span: NO_SPAN })
    }

    fn singular(&mut self, v: &Json, p: &Ptr) -> R<GrainTypeRef> {
        Ok(GrainTypeRef {
            grain_type: self.word(v, p, "grain type (singular)", GrainType::from_singular)?,
            span: NO_SPAN,
        })
    }

    /// `set` and `reason` of ADD and SUPERSEDE.
    fn evolve(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<(Vec<SetClause>, Option<StringLit>)> {
        let sets = self.opt(o, "set", p, |d, v, p| {
            d.list(v, p, |d, v, p| {
                let s = d.obj(v, p)?;
                let field = d.req(s, "field", p).and_then(|f| d.field(f, &p.key("field")));
                let value = d.req(s, "value", p).and_then(|v| d.value(v, &p.key("value")));
                Ok(SetClause { field: field?, value: value?, span: NO_SPAN })
            })
        });
        let reason = self.opt(o, "reason", p, Self::string_lit);
        Ok((sets?.unwrap_or_default(), reason?))
    }

    fn define_template(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<DefineTemplate> {
        let name = self.req(o, "name", p).and_then(|n| self.user_name(n, &p.key("name")));
        let extends = self.opt(o, "extends", p, Self::word_name);
        let body = self.req(o, "sections", p).and_then(|s| self.template_body(s, &p.key("sections")));
        Ok(DefineTemplate { name: name?, extends: extends?, body: body?, span: NO_SPAN })
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
