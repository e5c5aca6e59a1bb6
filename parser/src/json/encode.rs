//! AST → `application/json+cal`. Total: every tree has a JSON form.
//!
//! Keys are written in the order of the text form, and a key is present only
//! when its clause is, so the output for §15.2 is byte-for-byte the spec's.

use crate::ast::*;
use cal_grammar::WithOptionName;
use cal_grammar::with::DiversityMode;
use serde_json::{Map, Value as Json, json};

/// Builds one JSON object, keys in insertion order.
struct Obj(Map<String, Json>);

impl Obj {
    fn new() -> Self {
        Obj(Map::new())
    }

    fn put(&mut self, key: &str, value: impl Into<Json>) -> &mut Self {
        self.0.insert(key.to_string(), value.into());
        self
    }

    fn put_opt<T>(&mut self, key: &str, value: Option<T>, f: impl FnOnce(T) -> Json) -> &mut Self {
        if let Some(v) = value {
            self.put(key, f(v));
        }
        self
    }

    fn done(&mut self) -> Json {
        Json::Object(std::mem::take(&mut self.0))
    }
}

/// A query: `cal_version` (when written), `lets`, then the statement's keys.
pub(crate) fn query(q: &Query) -> Json {
    let mut o = Obj::new();
    o.put_opt("cal_version", q.version.as_ref(), |v| json!(v.major));
    if !q.lets.is_empty() {
        o.put("lets", Json::Array(q.lets.iter().map(let_binding).collect()));
    }
    match &q.body {
        QueryBody::Statement(s) => statement_into(s, &mut o),
        QueryBody::DefineTemplate(d) => define_template_into(d, &mut o),
    }
    o.done()
}

fn let_binding(l: &LetBinding) -> Json {
    json!({ "name": l.name.name, "recall": recall_object(&l.recall) })
}

/// A statement on its own (an operand, an EXPLAIN target).
pub(crate) fn statement(s: &Statement) -> Json {
    let mut o = Obj::new();
    statement_into(s, &mut o);
    o.done()
}

/// Writes `"statement": kind` and the statement's keys into `o`.
fn statement_into(s: &Statement, o: &mut Obj) {
    o.put("statement", s.kind_name());
    match s {
        Statement::Recall(r) => recall_into(r, o),
        Statement::Assemble(a) => assemble_into(a, o),
        Statement::SetOp(op) => {
            o.put("op", op.op.as_str()).put("left", statement(&op.left)).put("right", statement(&op.right));
        }
        Statement::Exists(e) => {
            o.put("target", target(&e.target));
        }
        Statement::History(h) => history_into(h, o),
        Statement::Explain(e) => {
            o.put("of", statement(&e.statement));
        }
        Statement::Describe(d) => {
            o.put("target", d.target.as_str());
            o.put_opt("grain_type", d.grain_type.as_ref(), |g| json!(g.grain_type.singular()));
        }
        Statement::Batch(b) => {
            let entries = b.entries.iter().map(|e| {
                let mut entry = Obj::new();
                entry.put("label", e.label.name.as_str());
                statement_into(&e.statement, &mut entry);
                entry.done()
            });
            o.put("entries", Json::Array(entries.collect()));
        }
        Statement::Add(a) => {
            o.put("grain_type", a.grain_type.grain_type.singular());
            evolve_into(&a.sets, a.reason.as_ref(), o);
        }
        Statement::Supersede(s) => {
            o.put("target", target(&s.target));
            evolve_into(&s.sets, s.reason.as_ref(), o);
        }
        Statement::Revert(r) => {
            o.put("target", target(&r.target));
            evolve_into(&[], r.reason.as_ref(), o);
        }
        Statement::Coalesce(c) => {
            o.put("branches", Json::Array(c.branches.iter().map(recall_object).collect()));
        }
    }
}

/// A RECALL in a position that only takes a RECALL: its keys without `"statement"`.
fn recall_object(r: &Recall) -> Json {
    let mut o = Obj::new();
    recall_into(r, &mut o);
    o.done()
}

fn recall_into(r: &Recall, o: &mut Obj) {
    if r.my.is_some() {
        o.put("my", true);
    }
    o.put_opt("grain_type", r.grain_type.as_ref(), |g| json!(g.grain_type.plural()));
    o.put_opt("in", r.scope.as_ref(), in_scope);
    o.put_opt("about", r.about.as_ref(), |s| json!(s.value));
    o.put_opt("like", r.like.as_ref(), |s| json!(s.value));
    o.put_opt("since", r.since.as_ref(), |s| json!(s.value));
    o.put_opt("between", r.between.as_ref(), |b| json!({ "low": value(&b.low), "high": value(&b.high) }));
    o.put_opt("thread", r.thread.as_ref(), |t| match &t.kind {
        ThreadKind::Session(s) => json!(s.value),
        ThreadKind::From(t) => json!({ "from": target(t) }),
    });
    o.put_opt("where", r.where_clause.as_ref(), |w| Json::Array(w.conditions.iter().map(condition).collect()));
    o.put_opt("with", r.with.as_ref(), with_clause);
    if !r.pipeline.is_empty() {
        o.put("pipeline", Json::Array(r.pipeline.iter().map(|s| stage(&s.kind)).collect()));
    }
    o.put_opt("recent", r.recent.as_ref(), |n| json!(n.value));
    if r.contradictions.is_some() {
        o.put("contradictions", true);
    }
    o.put_opt("as", r.as_format.as_ref(), |f| json!(f.format.as_str()));
}

/// `"ns"` for `IN "ns"`, `{"scope": "s"}` for `IN SCOPE "s"`.
fn in_scope(s: &InScope) -> Json {
    if s.is_scope { json!({ "scope": s.value.value }) } else { json!(s.value.value) }
}

fn condition(c: &Condition) -> Json {
    let mut o = Obj::new();
    o.put("field", c.field.name.as_str());
    match &c.test {
        Test::Compare { op, value: v, .. } => o.put("op", op.as_str()).put("value", value(v)),
        Test::InList(items) => o.put("op", "IN").put("values", values(items)),
        Test::InSubquery(r) => o.put("op", "IN").put("subquery", recall_object(r)),
        Test::Between { low, high } => o.put("op", "BETWEEN").put("low", value(low)).put("high", value(high)),
        Test::Include(v) => o.put("op", "INCLUDE").put("value", value(v)),
        Test::Exclude(v) => o.put("op", "EXCLUDE").put("value", value(v)),
        Test::IsCategory(cat, _) => o.put("op", "IS").put("category", cat.as_str()),
    };
    o.done()
}

fn with_clause(w: &WithClause) -> Json {
    Json::Array(w.options.iter().map(|opt| with_option(&opt.kind)).collect())
}

/// `{"option": name, …arguments}`: option names and argument words are the grammar's, the
/// member names are the JSON form's (docs/json-form.md).
fn with_option(k: &WithKind) -> Json {
    let name = match k {
        WithKind::Extension { name, .. } => name.as_str(),
        // Every option but an extension has a name in the grammar's table.
        _ => k.name().map_or("", WithOptionName::as_str),
    };
    let mut o = json!({ "option": name });
    let args: Vec<(&str, Json)> = match k {
        WithKind::ProgressiveDisclosure(Some((level, _))) => vec![("level", level.as_str().into())],
        WithKind::Diversity(Diversity::Mmr(None)) => vec![("mode", DiversityMode::Mmr.as_str().into())],
        WithKind::Diversity(Diversity::Mmr(Some((n, _)))) => {
            vec![("mode", DiversityMode::Mmr.as_str().into()), ("lambda", number(*n))]
        }
        WithKind::Diversity(Diversity::Threshold(n, _)) => {
            vec![("mode", DiversityMode::Threshold.as_str().into()), ("threshold", number(*n))]
        }
        WithKind::Consistency(Consistency::Eventual) => vec![("level", ConsistencyKind::Eventual.as_str().into())],
        WithKind::Consistency(Consistency::Bounded(n, _)) => {
            vec![("level", ConsistencyKind::Bounded.as_str().into()), ("bound", number(*n))]
        }
        WithKind::Consistency(Consistency::Linearizable) => {
            vec![("level", ConsistencyKind::Linearizable.as_str().into())]
        }
        WithKind::Dedup(f) => vec![("field", f.name.as_str().into())],
        WithKind::Locale(s) => vec![("locale", s.value.as_str().into())],
        WithKind::Cache(ttl) => vec![("ttl", ttl.value.into())],
        WithKind::Extension { args: Some(args), .. } => vec![("args", values(args))],
        _ => vec![],
    };
    if let Some(m) = o.as_object_mut() {
        m.extend(args.into_iter().map(|(k, v)| (k.to_string(), v)));
    }
    o
}

/// `{"stage": name, …arguments}`.
fn stage(k: &StageKind) -> Json {
    let fields = |fs: &[FieldRef]| Json::Array(fs.iter().map(|f| json!(f.name)).collect());
    match k {
        StageKind::Select(fs) => json!({ "stage": "select", "fields": fields(fs) }),
        StageKind::OrderBy { field, direction: None } => json!({ "stage": "order_by", "field": field.name }),
        StageKind::OrderBy { field, direction: Some(d) } => {
            json!({ "stage": "order_by", "field": field.name, "direction": d.as_str() })
        }
        StageKind::Limit(n) => json!({ "stage": "limit", "value": int_or_param(n) }),
        StageKind::Offset(n) => json!({ "stage": "offset", "value": int_or_param(n) }),
        StageKind::Count => json!({ "stage": "count" }),
        StageKind::First => json!({ "stage": "first" }),
        StageKind::Extract(Extractor::Subjects) => json!({ "stage": "subjects" }),
        StageKind::Extract(Extractor::Objects) => json!({ "stage": "objects" }),
        StageKind::Extract(Extractor::Hashes) => json!({ "stage": "hashes" }),
        StageKind::GroupBy(f) => json!({ "stage": "group_by", "field": f.name }),
        StageKind::Project(specs) => {
            let specs = specs.iter().map(|s| {
                let key = if s.is_attr { "attr" } else { "content" };
                let mut o = Obj::new();
                o.put(key, fields(&s.fields));
                o.done()
            });
            json!({ "stage": "project", "specs": Json::Array(specs.collect()) })
        }
    }
}

fn assemble_into(a: &Assemble, o: &mut Obj) {
    o.put_opt("name", a.name.as_ref(), |n| json!(n.name));
    o.put_opt("for", a.intent.as_ref(), |s| json!(s.value));
    if !a.sources.is_empty() {
        o.put("from", Json::Array(a.sources.iter().map(source).collect()));
    }
    o.put_opt("budget", a.budget.as_ref(), |b| json!({ "amount": b.amount.value, "unit": b.unit.as_str() }));
    o.put_opt("priority", a.priority.as_ref(), |p| Json::Array(p.labels.iter().map(|l| json!(l.name)).collect()));
    o.put_opt("format", a.format.as_ref(), |f| match &f.kind {
        FormatKind::Named(name) => json!(name.as_str()),
        FormatKind::Template(name) => json!({ "template": name.name }),
        FormatKind::Inline(body) => json!({ "template": sections(body) }),
    });
    o.put_opt("stream", a.stream.as_ref(), |s| {
        Json::Array(
            s.options
                .iter()
                .map(|opt| match &opt.kind {
                    StreamOptionKind::Events(e) => json!({ "option": e.as_str() }),
                    StreamOptionKind::ChunkSize(n) => json!({ "option": "chunk_size", "value": n.value }),
                })
                .collect(),
        )
    });
    o.put_opt("with", a.with.as_ref(), with_clause);
}

/// `{"label": …, "recall": {…}}` or `{"label": …, "let": name}`.
fn source(s: &Source) -> Json {
    let mut o = Obj::new();
    o.put_opt("label", s.label.as_ref(), |l| json!(l.name));
    match &s.body {
        SourceBody::Recall(r) => o.put("recall", recall_object(r)),
        SourceBody::LetRef(name) => o.put("let", name.name.as_str()),
    };
    o.done()
}

/// `[{"section": "ELEMENT", "text": "…"}, …]`, the text verbatim.
fn sections(body: &TemplateBody) -> Json {
    Json::Array(body.sections.iter().map(|s| json!({ "section": s.kind.as_str(), "text": s.text })).collect())
}

fn history_into(h: &History, o: &mut Obj) {
    match &h.kind {
        HistoryKind::Hash { target: t, diff } => {
            o.put("target", target(t));
            o.put_opt("diff", diff.as_ref(), target);
        }
        HistoryKind::Triple { scope, subject, relation, as_of } => {
            o.put_opt("in", scope.as_ref(), in_scope);
            o.put("subject", value(subject)).put("relation", value(relation));
            o.put_opt("as_of", as_of.as_ref(), |s| json!(s.value));
        }
    }
}

/// `"set": [{"field", "value"}, …]` (when there are any) and `"reason"`.
fn evolve_into(sets: &[SetClause], reason: Option<&StringLit>, o: &mut Obj) {
    if !sets.is_empty() {
        let sets = sets.iter().map(|s| json!({ "field": s.field.name, "value": value(&s.value) }));
        o.put("set", Json::Array(sets.collect()));
    }
    o.put_opt("reason", reason, |r| json!(r.value));
}

fn define_template_into(d: &DefineTemplate, o: &mut Obj) {
    o.put("statement", "define_template");
    o.put("name", d.name.name.as_str());
    o.put_opt("extends", d.extends.as_ref(), |e| json!(e.name));
    o.put("sections", sections(&d.body));
}

/// `{"hash": "sha256:…"}` or `{"param": name}`.
fn target(t: &Target) -> Json {
    match &t.kind {
        TargetKind::Hash(h) => json!({ "hash": format!("sha256:{h}") }),
        TargetKind::Param(p) => json!({ "param": p }),
    }
}

fn int_or_param(v: &IntOrParam) -> Json {
    match v {
        IntOrParam::Int(i) => json!(i.value),
        IntOrParam::Param(p, _) => json!({ "param": p }),
    }
}

/// A JSON number that keeps integers and decimals apart (`5` vs `5.0`).
/// Non-finite decimals cannot come from either parser and have no JSON form: they become `null`.
fn number(n: Number) -> Json {
    match n {
        Number::Int(i) => json!(i),
        Number::Float(f) => serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number),
    }
}

fn value(v: &Value) -> Json {
    match &v.kind {
        ValueKind::String(s) => json!(s),
        ValueKind::Number(n) => number(*n),
        ValueKind::Bool(b) => json!(b),
        ValueKind::Param(p) => json!({ "param": p }),
        ValueKind::Array(items) => values(items),
        ValueKind::Hash(h) => json!({ "hash": format!("sha256:{h}") }),
    }
}

fn values(items: &[Value]) -> Json {
    Json::Array(items.iter().map(value).collect())
}
