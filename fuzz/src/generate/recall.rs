//! RECALL and its clauses: conditions from the field tables, WITH options, pipeline stages.

use arbitrary::Result;
use cal_grammar::fields::{FieldInfo, FieldOp, ValueType, fields_for};
use cal_grammar::relations::MG_RELATIONS;
use cal_grammar::{
    Comparator, ConsistencyKind, DisclosureLevel, Extractor, FormatName, GrainType, RelationCategory, SortDirection,
};
use cal_parser::ast::{
    BetweenClause, Condition, Consistency, Diversity, FieldRef, FormatRef, GrainTypeRef, InScope, IntOrParam,
    ProjectSpec, Recall, Stage, StageKind, Test, Text, Thread, ThreadKind, Value, ValueKind, WhereClause, WithClause,
    WithKind, WithOption,
};

use super::{BOUND_PARAMS, Gen, NAMESPACES, SP, STRINGS, val};

/// Where a RECALL sits, which decides how its pipeline must end.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A statement of its own, a set operand, a source, a COALESCE branch.
    Free,
    /// Inside `field IN (RECALL … | EXTRACTOR)`: ends with an extractor.
    Subquery,
}

/// Field names that are in no table, to probe CAL-E006-style diagnostics.
const UNKNOWN_FIELDS: &[&str] = &["colour", "subjekt", "x_custom", "hc:patient_id"];

impl Gen<'_, '_> {
    /// A RECALL with clauses chosen independently, most of them valid for its grain type.
    pub(crate) fn recall(&mut self, role: Role) -> Result<Recall> {
        let grain_type = if self.chance(7, 8)? { Some(self.pick(GrainType::ALL)?) } else { None };
        let mut r = Recall {
            grain_type: grain_type.map(|g| GrainTypeRef { grain_type: g, span: SP }),
            my: if self.chance(1, 10)? { Some(SP) } else { None },
            ..Recall::default()
        };
        if self.chance(1, 8)? {
            r.scope = Some(InScope { is_scope: self.chance(1, 2)?, value: self.namespace()?, span: SP });
        }
        if self.chance(1, 3)? {
            r.about = Some(self.any_string()?);
        }
        if self.chance(1, 10)? {
            r.like = Some(self.any_string()?);
        }
        if self.chance(1, 6)? {
            r.since = Some(self.time()?);
        }
        if self.chance(1, 12)? {
            let low = self.time_value()?;
            let high = self.time_value()?;
            r.between = Some(BetweenClause { low, high, span: SP });
        }
        if self.chance(1, 16)? {
            let kind = if self.chance(1, 2)? {
                ThreadKind::Session(self.any_string()?)
            } else {
                ThreadKind::From(self.target()?)
            };
            r.thread = Some(Thread { kind, span: SP });
        }
        if self.chance(1, 2)? {
            let n = self.count(1, 3)?;
            let mut conditions = Vec::with_capacity(n);
            for _ in 0..n {
                conditions.push(self.condition(grain_type)?);
            }
            r.where_clause = Some(WhereClause { conditions, span: SP });
        }
        if self.chance(1, 4)? {
            let n = self.count(1, 3)?;
            let mut options = Vec::with_capacity(n);
            for _ in 0..n {
                options.push(WithOption { kind: self.with_kind(grain_type)?, span: SP });
            }
            r.with = Some(WithClause { options, span: SP });
        }
        r.pipeline = self.pipeline(grain_type, role)?;
        if self.chance(1, 6)? {
            r.recent = Some(self.small_int(12)?);
        }
        if self.chance(1, 12)? {
            r.contradictions = Some(SP);
        }
        if role == Role::Free && self.chance(1, 6)? {
            r.as_format = Some(FormatRef { format: self.pick(FormatName::ALL)?, span: SP });
        }
        Ok(r)
    }

    fn time_value(&mut self) -> Result<Value> {
        Ok(if self.chance(3, 4)? {
            val(ValueKind::String(self.time()?.value))
        } else {
            val(ValueKind::Number(self.number()?))
        })
    }

    /// A field of the grain type (or a common one), sometimes one that does not exist there.
    fn field_info(&mut self, grain_type: Option<GrainType>) -> Result<&'static FieldInfo> {
        let gt = if self.chance(1, 16)? { Some(self.pick(GrainType::ALL)?) } else { grain_type };
        let fields: Vec<&'static FieldInfo> = fields_for(gt).collect();
        Ok(fields[self.index(fields.len())?])
    }

    fn field_ref(&mut self, info: &FieldInfo) -> Result<FieldRef> {
        let name = if self.chance(1, 32)? { self.text(UNKNOWN_FIELDS)? } else { Text::from(info.name) };
        Ok(FieldRef { name, span: SP })
    }

    /// A field with one of the flags (sortable, projectable, groupable) when one exists.
    fn field_where(&mut self, grain_type: Option<GrainType>, ok: fn(&FieldInfo) -> bool) -> Result<FieldRef> {
        let fields: Vec<&'static FieldInfo> = fields_for(grain_type).filter(|f| ok(f)).collect();
        if fields.is_empty() || self.chance(1, 20)? {
            let info = self.field_info(grain_type)?;
            return self.field_ref(info);
        }
        let info = fields[self.index(fields.len())?];
        self.field_ref(info)
    }

    fn condition(&mut self, grain_type: Option<GrainType>) -> Result<Condition> {
        let info = self.field_info(grain_type)?;
        let field = self.field_ref(info)?;
        let op = if self.chance(1, 20)? { self.pick(FieldOp::ALL)? } else { self.pick(info.ops)? };
        let test = match op {
            FieldOp::In if self.chance(1, 4)? && self.can_nest() => {
                Test::InSubquery(Box::new(self.nested(|g| g.recall(Role::Subquery))?))
            }
            FieldOp::In => {
                let n = self.count(1, 4)?;
                let mut values = Vec::with_capacity(n);
                for _ in 0..n {
                    values.push(self.typed_value(info)?);
                }
                Test::InList(values)
            }
            FieldOp::Is => Test::IsCategory(self.pick(RelationCategory::ALL)?, SP),
            FieldOp::Include => Test::Include(self.string_array()?),
            FieldOp::Exclude => Test::Exclude(self.string_array()?),
            FieldOp::Between => Test::Between { low: self.typed_value(info)?, high: self.typed_value(info)? },
            cmp => {
                let op = Comparator::ALL.iter().copied().find(|c| c.as_str() == cmp.as_str()).unwrap_or(Comparator::Eq);
                Test::Compare { op, op_span: SP, value: self.typed_value(info)? }
            }
        };
        Ok(Condition { field, test, span: SP })
    }

    fn string_array(&mut self) -> Result<Value> {
        let n = self.count(0, 3)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(val(ValueKind::String(self.text(&["work", "personal", "urgent", "ui", "q1", "health"])?)));
        }
        Ok(val(ValueKind::Array(items)))
    }

    /// A value of the field's type, from its closed set or range when it has one.
    pub(crate) fn typed_value(&mut self, info: &FieldInfo) -> Result<Value> {
        if self.chance(1, 16)? {
            return self.any_value();
        }
        if !self.lets.is_empty() && self.chance(1, 16)? {
            let i = self.index(self.lets.len())?;
            return Ok(val(ValueKind::Param(self.lets[i].clone())));
        }
        if self.chance(1, 24)? {
            return Ok(val(ValueKind::Param(self.text(BOUND_PARAMS)?)));
        }
        if let Some(values) = info.enum_values {
            return Ok(val(ValueKind::String(self.text(values)?)));
        }
        let kind = match info.value_type {
            ValueType::String => match info.name {
                "relation" => {
                    let rel = MG_RELATIONS[self.index(MG_RELATIONS.len())?].name;
                    let word = if self.chance(1, 10)? { self.pick(&["prefers", "mg:likes", "knows"])? } else { rel };
                    ValueKind::String(Text::from(word))
                }
                "namespace" => ValueKind::String(self.text(NAMESPACES)?),
                _ => ValueKind::String(self.text(STRINGS)?),
            },
            ValueType::Number => match info.range {
                Some((lo, hi)) => ValueKind::Number(self.number_in(lo, hi)?),
                None => ValueKind::Number(self.number()?),
            },
            ValueType::Boolean => ValueKind::Bool(self.chance(1, 2)?),
            ValueType::Array => return self.string_array(),
            ValueType::GrainType => ValueKind::String(Text::from(self.pick(GrainType::ALL)?.singular())),
            ValueType::Temporal => return self.time_value(),
            ValueType::Hash => ValueKind::Hash(self.hash_hex()?),
        };
        Ok(val(kind))
    }

    fn with_kind(&mut self, grain_type: Option<GrainType>) -> Result<WithKind> {
        Ok(match self.count(0, 13)? {
            0 => WithKind::Superseded,
            1 => WithKind::ScoreBreakdown,
            2 => WithKind::Explanation,
            3 => WithKind::Provenance,
            4 => WithKind::ContradictionDetection,
            5 => WithKind::Summarize,
            6 => WithKind::IsoTimestamps,
            7 => WithKind::ProgressiveDisclosure(if self.chance(1, 2)? {
                Some((self.pick(DisclosureLevel::ALL)?, SP))
            } else {
                None
            }),
            8 => WithKind::Diversity(if self.chance(1, 2)? {
                Diversity::Mmr(if self.chance(1, 2)? { Some((self.number_in(0.0, 1.0)?, SP)) } else { None })
            } else {
                Diversity::Threshold(self.number_in(0.0, 1.0)?, SP)
            }),
            9 => WithKind::Consistency(match self.pick(ConsistencyKind::ALL)? {
                ConsistencyKind::Eventual => Consistency::Eventual,
                ConsistencyKind::Bounded => Consistency::Bounded(self.number()?, SP),
                ConsistencyKind::Linearizable => Consistency::Linearizable,
            }),
            10 => WithKind::Dedup(self.field_where(grain_type, |f| f.groupable)?),
            11 => WithKind::Locale(self.string_lit(&["de", "en", "fr-CA", "ja", ""])?),
            12 => WithKind::Cache(self.int_lit()?),
            _ => WithKind::Extension {
                name: self.text(&["x_trace", "x_vendor_boost"])?,
                args: if self.chance(1, 2)? {
                    let n = self.count(0, 2)?;
                    let mut args = Vec::with_capacity(n);
                    for _ in 0..n {
                        args.push(self.any_value()?);
                    }
                    Some(args)
                } else {
                    None
                },
            },
        })
    }

    fn int_or_param(&mut self) -> Result<IntOrParam> {
        Ok(if self.chance(1, 10)? {
            IntOrParam::Param(self.text(&["n", "unbound"])?, SP)
        } else if self.chance(3, 4)? {
            IntOrParam::Int(self.small_int(30)?)
        } else {
            IntOrParam::Int(self.int_lit()?)
        })
    }

    /// Up to four reordering stages, then maybe one reshaping stage (always an extractor for a subquery).
    fn pipeline(&mut self, grain_type: Option<GrainType>, role: Role) -> Result<Vec<Stage>> {
        let mut stages = Vec::new();
        let n = self.count(0, 4)?;
        for _ in 0..n {
            let kind = match self.count(0, 3)? {
                0 => StageKind::OrderBy {
                    field: self.field_where(grain_type, |f| f.sortable)?,
                    direction: if self.chance(2, 3)? { Some(self.pick(SortDirection::ALL)?) } else { None },
                },
                1 => StageKind::Offset(self.int_or_param()?),
                _ => StageKind::Limit(self.int_or_param()?),
            };
            stages.push(Stage { kind, span: SP });
        }
        let last = match role {
            Role::Subquery => Some(StageKind::Extract(self.pick(Extractor::ALL)?)),
            Role::Free if self.chance(1, 3)? => Some(self.reshaping_stage(grain_type)?),
            Role::Free => None,
        };
        stages.extend(last.map(|kind| Stage { kind, span: SP }));
        Ok(stages)
    }

    fn reshaping_stage(&mut self, grain_type: Option<GrainType>) -> Result<StageKind> {
        Ok(match self.count(0, 5)? {
            0 => StageKind::Count,
            1 => StageKind::First,
            2 => StageKind::Extract(self.pick(Extractor::ALL)?),
            3 => StageKind::GroupBy(self.field_where(grain_type, |f| f.groupable)?),
            4 => {
                let n = self.count(1, 3)?;
                let mut fields = Vec::with_capacity(n);
                for _ in 0..n {
                    fields.push(self.field_where(grain_type, |f| f.projectable)?);
                }
                StageKind::Select(fields)
            }
            _ => {
                let n = self.count(1, 2)?;
                let mut specs = Vec::with_capacity(n);
                for _ in 0..n {
                    let m = self.count(1, 3)?;
                    let mut fields = Vec::with_capacity(m);
                    for _ in 0..m {
                        fields.push(self.field_where(grain_type, |f| f.projectable)?);
                    }
                    specs.push(ProjectSpec { is_attr: self.chance(1, 2)?, fields, span: SP });
                }
                StageKind::Project(specs)
            }
        })
    }
}
