//! RECALL: clauses, conditions, WITH options and pipeline stages.

use super::{Decoder, NO_SPAN, Ptr, R};
use crate::ast::*;
use crate::json::names;
use cal_grammar::WithOptionName;
use cal_grammar::with::{DiversityMode, EXTENSION_PREFIX};
use serde_json::{Map, Value as Json};

impl Decoder {
    pub(super) fn recall_object(&mut self, v: &Json, p: &Ptr) -> R<Recall> {
        let o = self.obj(v, p)?;
        self.recall(o, p)
    }

    pub(super) fn recall(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Recall> {
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

    pub(super) fn low_high(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<(Value, Value)> {
        let low = self.req(o, "low", p).and_then(|v| self.value(v, &p.key("low")));
        let high = self.req(o, "high", p).and_then(|v| self.value(v, &p.key("high")));
        Ok((low?, high?))
    }

    /// `"ns"` or `{"scope": "s"}`.
    pub(super) fn in_scope(&mut self, v: &Json, p: &Ptr) -> R<InScope> {
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
    pub(super) fn thread(&mut self, v: &Json, p: &Ptr) -> R<Thread> {
        let kind = match v {
            Json::Object(o) => {
                let t = self.req(o, "from", p)?;
                ThreadKind::From(self.target(t, &p.key("from"))?)
            }
            _ => ThreadKind::Session(self.string_lit(v, p)?),
        };
        Ok(Thread { kind, span: NO_SPAN })
    }

    pub(super) fn condition(&mut self, v: &Json, p: &Ptr) -> R<Condition> {
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

    pub(super) fn with_clause(&mut self, v: &Json, p: &Ptr) -> R<WithClause> {
        let options = self.list(v, p, |d, v, p| Ok(WithOption { kind: d.with_option(v, p)?, span: NO_SPAN }))?;
        Ok(WithClause { options, span: NO_SPAN })
    }

    pub(super) fn with_option(&mut self, v: &Json, p: &Ptr) -> R<WithKind> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "option", p)?;
        let name = self.raw_str(name, &p.key("option"))?;
        let num = |d: &mut Self, key: &str| -> R<(Number, Span)> {
            let v = d.req(o, key, p)?;
            Ok((d.number(v, &p.key(key))?, NO_SPAN))
        };
        let option = WithOptionName::from_word(name);
        if let Some(flag) = option.and_then(WithKind::flag) {
            return Ok(flag);
        }
        Ok(match option {
            Some(WithOptionName::ProgressiveDisclosure) => {
                WithKind::ProgressiveDisclosure(self.opt(o, "level", p, |d, v, p| {
                    Ok((d.word(v, p, "disclosure level", DisclosureLevel::from_word)?, NO_SPAN))
                })?)
            }
            Some(WithOptionName::Diversity) => {
                let mode = self.req(o, "mode", p)?;
                let mode_text = self.raw_str(mode, &p.key("mode"))?;
                match DiversityMode::from_word(mode_text) {
                    Some(DiversityMode::Mmr) if o.contains_key("lambda") => {
                        WithKind::Diversity(Diversity::Mmr(Some(num(self, "lambda")?)))
                    }
                    Some(DiversityMode::Mmr) => WithKind::Diversity(Diversity::Mmr(None)),
                    Some(DiversityMode::Threshold) => {
                        let (n, s) = num(self, "threshold")?;
                        WithKind::Diversity(Diversity::Threshold(n, s))
                    }
                    None => {
                        return Err(self.fail(&p.key("mode"), format!("\"{mode_text}\" is not a diversity mode.")));
                    }
                }
            }
            Some(WithOptionName::Consistency) => {
                let level = self.req(o, "level", p)?;
                let level_text = self.raw_str(level, &p.key("level"))?;
                match ConsistencyKind::from_word(level_text) {
                    Some(ConsistencyKind::Eventual) => WithKind::Consistency(Consistency::Eventual),
                    Some(ConsistencyKind::Linearizable) => WithKind::Consistency(Consistency::Linearizable),
                    Some(ConsistencyKind::Bounded) => {
                        let (n, s) = num(self, "bound")?;
                        WithKind::Consistency(Consistency::Bounded(n, s))
                    }
                    None => {
                        return Err(self.fail(&p.key("level"), format!("\"{level_text}\" is not a consistency level.")));
                    }
                }
            }
            Some(WithOptionName::Dedup) => {
                let f = self.req(o, "field", p)?;
                WithKind::Dedup(self.field(f, &p.key("field"))?)
            }
            Some(WithOptionName::Locale) => {
                let l = self.req(o, "locale", p)?;
                WithKind::Locale(self.string_lit(l, &p.key("locale"))?)
            }
            Some(WithOptionName::Cache) => {
                let ttl = self.req(o, "ttl", p)?;
                WithKind::Cache(self.int_lit(ttl, &p.key("ttl"))?)
            }
            None if name.starts_with(EXTENSION_PREFIX) && names::is_word(name) => {
                WithKind::Extension { name: name.into(), args: self.opt(o, "args", p, Self::values)? }
            }
            // The flags, returned above.
            Some(_) | None => {
                return Err(self.fail(&p.key("option"), format!("\"{name}\" is not a WITH option.")));
            }
        })
    }

    pub(super) fn stage(&mut self, v: &Json, p: &Ptr) -> R<Stage> {
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
    pub(super) fn project_spec(&mut self, v: &Json, p: &Ptr) -> R<ProjectSpec> {
        let o = self.obj(v, p)?;
        let (is_attr, fields) = match (o.get("content"), o.get("attr"), o.len()) {
            (Some(fs), None, 1) => (false, self.fields(fs, &p.key("content"))?),
            (None, Some(fs), 1) => (true, self.fields(fs, &p.key("attr"))?),
            _ => return Err(self.fail(p, r#"a PROJECT spec is {"content": [fields]} or {"attr": [fields]}."#)),
        };
        Ok(ProjectSpec { is_attr, fields, span: NO_SPAN })
    }
}
