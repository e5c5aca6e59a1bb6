//! Queries, LET bindings, the statement dispatch, and the statements other than RECALL and ASSEMBLE.

use super::{Decoder, NO_SPAN, Ptr, R};
use crate::ast::*;
use crate::json::schema::at_code;
use cal_grammar::Code;
use serde_json::{Map, Value as Json};

impl Decoder {
    pub(super) fn query(&mut self, v: &Json, p: &Ptr) -> R<Query> {
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

    pub(super) fn let_binding(&mut self, v: &Json, p: &Ptr) -> R<LetBinding> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "name", p).and_then(|n| self.let_name(n, &p.key("name")));
        let recall = self.req(o, "recall", p).and_then(|r| self.recall_object(r, &p.key("recall")));
        Ok(LetBinding { name: name?, recall: recall?, span: NO_SPAN })
    }

    /// A nested statement object (`"statement"` required).
    pub(super) fn statement(&mut self, v: &Json, p: &Ptr) -> R<Statement> {
        let o = self.obj(v, p)?;
        let kind = self.req(o, "statement", p)?;
        let kind = self.raw_str(kind, &p.key("statement"))?;
        self.statement_body(kind, o, p)
    }

    pub(super) fn statement_body(&mut self, kind: &str, o: &Map<String, Json>, p: &Ptr) -> R<Statement> {
        Ok(match kind {
            "recall" => Statement::Recall(Box::new(self.recall(o, p)?)),
            "assemble" => Statement::Assemble(Box::new(self.assemble(o, p)?)),
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
                // An entry written in parentheses (a set operation) right after an ASSEMBLE
                // whose FROM list ends it reads, as text, as one more source of that ASSEMBLE
                // (`a: ASSEMBLE c FROM x: (…), b: (…) UNION (…)`): no text is this tree, so
                // the JSON form refuses it as the text does (issue 19, ruling D4).
                if let Some(i) = (1..entries.len())
                    .find(|&i| open_from_list(&entries[i - 1].statement) && starts_with_paren(&entries[i].statement))
                {
                    return Err(self.fail(
                        &p.key("entries").idx(i),
                        "this entry is a set operation right after an ASSEMBLE entry whose FROM list ends it; \
                         as text it would read as another source of that ASSEMBLE.",
                    ));
                }
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

    pub(super) fn batch_entry(&mut self, v: &Json, p: &Ptr) -> R<BatchEntry> {
        let o = self.obj(v, p)?;
        let label = self.req(o, "label", p).and_then(|l| self.label(l, &p.key("label")));
        let statement = self.statement(v, p);
        Ok(BatchEntry { label: label?, statement: statement?, span: NO_SPAN })
    }

    pub(super) fn history(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<History> {
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

    pub(super) fn describe(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Describe> {
        let target = self.req(o, "target", p)?;
        let target = self.word(target, &p.key("target"), "DESCRIBE target", DescribeTarget::from_word)?;
        let grain_type = self.opt(o, "grain_type", p, Self::singular)?;
        if grain_type.is_some() && target != DescribeTarget::Fields {
            return Err(self.fail(&p.key("grain_type"), "only `DESCRIBE fields` takes a grain type."));
        }
        Ok(Describe { target, target_span: NO_SPAN, grain_type, span: NO_SPAN })
    }

    pub(super) fn singular(&mut self, v: &Json, p: &Ptr) -> R<GrainTypeRef> {
        Ok(GrainTypeRef {
            grain_type: self.word(v, p, "grain type (singular)", GrainType::from_singular)?,
            span: NO_SPAN,
        })
    }

    /// `set` and `reason` of ADD and SUPERSEDE.
    pub(super) fn evolve(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<(Vec<SetClause>, Option<StringLit>)> {
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

    pub(super) fn define_template(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<DefineTemplate> {
        let name = self.req(o, "name", p).and_then(|n| self.user_name(n, &p.key("name")));
        let extends = self.opt(o, "extends", p, Self::word_name);
        let body = self.req(o, "sections", p).and_then(|s| self.template_body(s, &p.key("sections")));
        Ok(DefineTemplate { name: name?, extends: extends?, body: body?, span: NO_SPAN })
    }
}

/// Whether `s` prints ending with an ASSEMBLE's FROM list (no clause after it), which a
/// following `, label: (…)` would continue.
fn open_from_list(s: &Statement) -> bool {
    match s {
        Statement::Assemble(a) => {
            a.budget.is_none() && a.priority.is_none() && a.format.is_none() && a.stream.is_none() && a.with.is_none()
        }
        Statement::Explain(e) => open_from_list(&e.statement),
        _ => false,
    }
}

/// Whether `s` prints starting with `(`: a set operation, whose operands are parenthesized.
fn starts_with_paren(s: &Statement) -> bool {
    matches!(s, Statement::SetOp(_))
}
