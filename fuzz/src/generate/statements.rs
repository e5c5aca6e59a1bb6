//! Queries and the statements other than RECALL: LET, ASSEMBLE, set operations, EXISTS,
//! HISTORY, EXPLAIN, DESCRIBE, BATCH, COALESCE, ADD/SUPERSEDE/REVERT, DEFINE TEMPLATE.

use arbitrary::{Result, Unstructured};
use cal_grammar::fields::fields_for;
use cal_grammar::{BudgetUnit, DescribeTarget, FormatName, GrainType, SetOperator, StreamEvents, TemplateSectionKind};
use cal_parser::ast::{
    Add, Assemble, Batch, BatchEntry, Budget, Coalesce, DefineTemplate, Describe, Exists, Explain, FormatKind,
    FormatSpec, GrainTypeRef, History, HistoryKind, Ident, InScope, IntLit, LetBinding, Priority, Query, QueryBody,
    Recall, Revert, SetClause, SetOp, Source, SourceBody, Statement, Stream, StreamOption, StreamOptionKind, Supersede,
    TemplateBody, TemplateSection, Text, ValueKind, Version,
};

use super::recall::Role;
use super::{Gen, IDENTS, SP, STRINGS, Vocab, val};

/// Raw template texts (printed verbatim between the section's braces).
const TEMPLATE_TEXTS: &[&str] = &[
    " {{grain.content}} ",
    " - {{grain.subject}} {{grain.relation}} {{grain.object}} ",
    " # {{context.name}} ",
    " ({{grain.type}}, {{grain.created_at}}) ",
    " --- ",
    " {{grain.score}} {{grain.unknown}} ",
    " {{#if grain.subject}}{{grain.subject}}{{/if}} ",
    "",
];

/// One whole query from the fuzzer's bytes: maybe `CAL/1`, maybe LET bindings, a body.
pub fn query(u: &mut Unstructured<'_>, vocab: &Vocab) -> Result<Query> {
    let mut g = Gen::new(u, vocab);
    // Only `CAL/1`: another major version is a parse-phase error (CAL-E100) that the
    // checker, which sees trees, leaves to the parser.
    let version = if g.chance(1, 8)? { Some(Version { major: 1, span: SP }) } else { None };
    let mut lets = Vec::new();
    if g.chance(1, 5)? {
        for _ in 0..g.count(1, 3)? {
            let name = g.let_name()?;
            let recall = g.nested(|g| g.recall(Role::Free))?;
            g.lets.push(name.name.clone());
            lets.push(LetBinding { name, recall, span: SP });
        }
    }
    let body = if g.chance(1, 20)? {
        QueryBody::DefineTemplate(g.define_template()?)
    } else {
        QueryBody::Statement(g.statement()?)
    };
    Ok(Query { version, lets, body, span: SP })
}

impl Gen<'_, '_> {
    /// Any statement; the nested ones (set operations, EXPLAIN, BATCH) only while depth allows.
    pub(crate) fn statement(&mut self) -> Result<Statement> {
        let roll = self.count(0, 99)?;
        let nest = self.can_nest();
        Ok(match roll {
            0..=34 => Statement::Recall(Box::new(self.recall(Role::Free)?)),
            35..=49 => Statement::Assemble(Box::new(self.assemble()?)),
            50..=57 if nest => Statement::SetOp(self.set_op()?),
            58..=62 => Statement::Exists(Exists { target: self.target()?, span: SP }),
            63..=68 => Statement::History(self.history()?),
            69..=73 if nest => {
                // EXPLAIN of an EXPLAIN is a syntax error (CAL-E002) the checker leaves to the parsers.
                let inner = self.nested(|g| g.statement())?;
                let inner =
                    if matches!(inner, Statement::Explain(_)) { Statement::Describe(self.describe()?) } else { inner };
                Statement::Explain(Explain { statement: Box::new(inner), span: SP })
            }
            74..=78 => Statement::Describe(self.describe()?),
            79..=83 if nest => Statement::Batch(self.batch()?),
            84..=86 => Statement::Add(self.add()?),
            87..=89 => Statement::Supersede(self.supersede()?),
            90..=92 => Statement::Revert(Revert { target: self.target()?, reason: self.reason()?, span: SP }),
            93..=99 => Statement::Coalesce(self.coalesce()?),
            _ => Statement::Recall(Box::new(self.recall(Role::Free)?)),
        })
    }

    fn set_op(&mut self) -> Result<SetOp> {
        let left = self.nested(|g| g.operand())?;
        let right = self.nested(|g| g.operand())?;
        Ok(SetOp {
            left: Box::new(left),
            op: self.pick(SetOperator::ALL)?,
            op_span: SP,
            right: Box::new(right),
            span: SP,
        })
    }

    /// A set operand: a RECALL, or (left-nested chains) another set operation.
    fn operand(&mut self) -> Result<Statement> {
        if self.can_nest() && self.chance(1, 5)? {
            return Ok(Statement::SetOp(self.set_op()?));
        }
        if self.chance(1, 20)? {
            return self.statement();
        }
        Ok(Statement::Recall(Box::new(self.recall(Role::Free)?)))
    }

    fn assemble(&mut self) -> Result<Assemble> {
        let n = self.count(1, 4)?;
        let labelled = self.chance(7, 8)?;
        let first = self.index(IDENTS.len())?;
        let mut sources = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        for i in 0..n {
            let label = if labelled || i == 0 {
                // Distinct labels, except now and then a duplicate to probe its diagnostic.
                let k = if self.chance(1, 24)? { first } else { (first + i) % IDENTS.len() };
                Some(Ident { name: Text::from(IDENTS[k]), span: SP })
            } else {
                None
            };
            labels.extend(label.iter().cloned());
            let body = if !self.lets.is_empty() && self.chance(1, 3)? {
                let i = self.index(self.lets.len())?;
                SourceBody::LetRef(Ident { name: self.lets[i].clone(), span: SP })
            } else {
                SourceBody::Recall(self.nested(|g| g.recall(Role::Free))?)
            };
            sources.push(Source { label, body, span: SP });
        }
        let priority = if labels.len() > 1 && self.chance(1, 3)? {
            let mut ordered = Vec::with_capacity(labels.len());
            while !labels.is_empty() {
                ordered.push(labels.remove(self.index(labels.len())?));
            }
            Some(Priority { labels: ordered, span: SP })
        } else {
            None
        };
        let budget = if self.chance(2, 3)? {
            let unit = self.pick(BudgetUnit::ALL)?;
            let amount = match unit {
                BudgetUnit::Tokens if self.chance(3, 4)? => IntLit { value: self.count(1, 40)? as u64 * 100, span: SP },
                BudgetUnit::Grains if self.chance(3, 4)? => self.small_int(60)?,
                _ => self.int_lit()?,
            };
            Some(Budget { amount, unit, span: SP })
        } else {
            None
        };
        let format = if self.chance(1, 2)? {
            let kind = match self.count(0, 7)? {
                0 => FormatKind::Template(Ident { name: self.text(&["semantic_sml", "missing", "t"])?, span: SP }),
                1 => FormatKind::Inline(self.template_body()?),
                _ => FormatKind::Named(self.pick(FormatName::ALL)?),
            };
            Some(FormatSpec { kind, span: SP })
        } else {
            None
        };
        let stream = if self.chance(1, 6)? {
            let n = self.count(0, 2)?;
            let mut options = Vec::with_capacity(n);
            for _ in 0..n {
                let kind = if self.chance(2, 3)? {
                    StreamOptionKind::Events(self.pick(StreamEvents::ALL)?)
                } else {
                    StreamOptionKind::ChunkSize(self.pick(&[10, 20, 100, 1000, 1001])?.into_lit())
                };
                options.push(StreamOption { kind, span: SP });
            }
            Some(Stream { options, span: SP })
        } else {
            None
        };
        Ok(Assemble {
            name: if self.chance(7, 8)? { Some(self.ident()?) } else { None },
            intent: if self.chance(1, 2)? { Some(self.any_string()?) } else { None },
            sources,
            budget,
            priority,
            format,
            stream,
            with: None,
            span: SP,
        })
    }

    fn template_body(&mut self) -> Result<TemplateBody> {
        let n = self.count(1, 3)?;
        let mut sections = Vec::with_capacity(n);
        for _ in 0..n {
            sections.push(TemplateSection {
                kind: self.pick(TemplateSectionKind::ALL)?,
                text: self.text(TEMPLATE_TEXTS)?,
                text_span: SP,
                span: SP,
            });
        }
        Ok(TemplateBody { sections, span: SP })
    }

    pub(crate) fn define_template(&mut self) -> Result<DefineTemplate> {
        let extends = if self.chance(1, 3)? {
            let base = self.pick(&["readable", "structured", "compact", "data", "markdown", "t"])?;
            Some(Ident { name: Text::from(base), span: SP })
        } else {
            None
        };
        Ok(DefineTemplate {
            name: Ident { name: self.text(&["t", "brief", "semantic_sml"])?, span: SP },
            extends,
            body: self.template_body()?,
            span: SP,
        })
    }

    fn history(&mut self) -> Result<History> {
        let kind = if self.chance(1, 2)? {
            HistoryKind::Hash {
                target: self.target()?,
                diff: if self.chance(1, 4)? { Some(self.target()?) } else { None },
            }
        } else {
            let subject = val(ValueKind::String(self.text(STRINGS)?));
            let relation = val(ValueKind::String(self.text(&["mg:prefers", "mg:knows", "mg:works_on", "prefers"])?));
            HistoryKind::Triple {
                scope: if self.chance(1, 6)? {
                    Some(InScope { is_scope: self.chance(1, 2)?, value: self.namespace()?, span: SP })
                } else {
                    None
                },
                subject,
                relation,
                as_of: if self.chance(1, 4)? { Some(self.time()?) } else { None },
            }
        };
        Ok(History { kind, span: SP })
    }

    fn describe(&mut self) -> Result<Describe> {
        let target = self.pick(DescribeTarget::ALL)?;
        let grain_type = if target == DescribeTarget::Fields && self.chance(2, 3)? {
            Some(GrainTypeRef { grain_type: self.pick(GrainType::ALL)?, span: SP })
        } else {
            None
        };
        Ok(Describe { target, target_span: SP, grain_type, span: SP })
    }

    fn batch(&mut self) -> Result<Batch> {
        let n = self.count(1, 4)?;
        let first = self.index(IDENTS.len())?;
        let mut entries = Vec::with_capacity(n);
        for i in 0..n {
            let label = Ident { name: Text::from(IDENTS[(first + i) % IDENTS.len()]), span: SP };
            let statement = self.nested(|g| {
                Ok(match g.count(0, 5)? {
                    0 => Statement::Exists(Exists { target: g.target()?, span: SP }),
                    1 => Statement::History(g.history()?),
                    2 => Statement::Describe(g.describe()?),
                    3 if g.can_nest() => g.statement()?,
                    _ => Statement::Recall(Box::new(g.recall(Role::Free)?)),
                })
            })?;
            entries.push(BatchEntry { label, statement, span: SP });
        }
        Ok(Batch { entries, span: SP })
    }

    fn coalesce(&mut self) -> Result<Coalesce> {
        let n = self.count(1, 4)?;
        let mut branches: Vec<Recall> = Vec::with_capacity(n);
        for _ in 0..n {
            branches.push(self.nested(|g| g.recall(Role::Free))?);
        }
        Ok(Coalesce { branches, span: SP })
    }

    fn reason(&mut self) -> Result<Option<cal_parser::ast::StringLit>> {
        Ok(if self.chance(7, 8)? {
            Some(self.string_lit(&["user said so", "corrected by alice", "", "retracted"])?)
        } else {
            None
        })
    }

    fn sets(&mut self, grain_type: Option<GrainType>, max: usize) -> Result<Vec<SetClause>> {
        let n = self.count(1, max)?;
        let fields: Vec<_> = fields_for(grain_type).collect();
        let mut sets = Vec::with_capacity(n);
        for _ in 0..n {
            let info = fields[self.index(fields.len())?];
            let field = cal_parser::ast::FieldRef { name: Text::from(info.name), span: SP };
            sets.push(SetClause { field, value: self.typed_value(info)?, span: SP });
        }
        Ok(sets)
    }

    fn add(&mut self) -> Result<Add> {
        let grain_type = if self.chance(7, 8)? {
            self.pick(&[GrainType::Belief, GrainType::Observation, GrainType::Goal])?
        } else {
            self.pick(GrainType::ALL)?
        };
        Ok(Add {
            grain_type: GrainTypeRef { grain_type, span: SP },
            sets: self.sets(Some(grain_type), 7)?,
            reason: self.reason()?,
            span: SP,
        })
    }

    fn supersede(&mut self) -> Result<Supersede> {
        Ok(Supersede { target: self.target()?, sets: self.sets(None, 5)?, reason: self.reason()?, span: SP })
    }
}

/// `n.into_lit()` for the integer literal tables.
trait IntoLit {
    fn into_lit(self) -> IntLit;
}

impl IntoLit for u64 {
    fn into_lit(self) -> IntLit {
        IntLit { value: self, span: SP }
    }
}
