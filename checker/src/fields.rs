//! Field resolution (§6.2): common fields always, a grain type's fields only
//! after that type; CAL-E004 (unknown, with "did you mean" over the fields
//! valid at that point), CAL-E060 (FieldNotOnGrainType, listing the valid
//! fields), CAL-E061 (type-specific field without a grain type), domain fields
//! (§12.2: CAL-W002 without their `profile:` tag, CAL-W003 for an unknown
//! prefix), projection aliases and `x_` extension fields in PROJECT
//! (docs/spec-decisions-checker.md), and what each use of a field requires
//! (sortable, groupable, projectable: Appendix E, CAL-E021).

use crate::context::{Amend, Checker};
use crate::render::code_list;
use crate::values::Typed;
use cal_grammar::Span;
use cal_grammar::fields::{self, DomainProfile, FieldInfo, FieldResolution};
use cal_grammar::suggest::did_you_mean;
use cal_grammar::{Code, GrainType};
use cal_parser::ast::{FieldRef, GrainTypeRef};

/// Where a field name is used, which decides the fields valid there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// A WHERE condition.
    Where,
    /// `ORDER BY`.
    Sort,
    /// `GROUP BY`.
    Group,
    /// `SELECT`.
    Select,
    /// `PROJECT content(…)` / `attr(…)`.
    Project,
    /// `WITH dedup(…)`.
    Dedup,
}

impl Use {
    /// Whether `f` may be used this way (Appendix E flags).
    #[inline]
    fn allows(self, f: &FieldInfo) -> bool {
        match self {
            Use::Where => true,
            Use::Sort => f.sortable,
            Use::Group | Use::Dedup => f.groupable,
            Use::Select | Use::Project => f.projectable,
        }
    }

    /// The clause, for messages.
    fn clause(self) -> std::borrow::Cow<'static, str> {
        match self {
            Use::Where => "WHERE".into(),
            Use::Sort => "ORDER BY".into(),
            Use::Group => "GROUP BY".into(),
            Use::Select => "SELECT".into(),
            Use::Project => "PROJECT".into(),
            Use::Dedup => format!("{}(…)", cal_grammar::WithOptionName::Dedup).into(),
        }
    }

    /// What the flag is called, for messages.
    fn ability(self) -> &'static str {
        match self {
            Use::Where => "queryable",
            Use::Sort => "sortable",
            Use::Group | Use::Dedup => "groupable",
            Use::Select | Use::Project => "projectable",
        }
    }
}

/// Which `profile:` tags a RECALL selects (§12.1), for CAL-W002.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Profiles {
    /// The tags named in `tags INCLUDE [...]`.
    Known(Vec<String>),
    /// Tags come from an unbound parameter: we cannot tell, so we do not warn.
    Unknown,
}

impl Profiles {
    fn has(&self, tag: &str) -> bool {
        match self {
            Profiles::Known(tags) => tags.iter().any(|t| t == tag),
            Profiles::Unknown => true,
        }
    }
}

/// What a name is resolved against: the declared grain type and the profile tags.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    /// The grain type of the statement, when declared.
    pub grain: Option<GrainTypeRef>,
    /// The profile tags selected.
    pub profiles: Profiles,
    /// Where a grain type would be declared (just after `RECALL` or `MY`), when there is
    /// such a place: examples for a field that needs a grain type insert one there.
    pub grain_slot: Option<Span>,
}

/// What a field name resolved to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Resolved<'q> {
    /// A common, type-specific or listed domain field.
    Field(&'static FieldInfo),
    /// A domain field of a known profile outside §12.2's example list.
    Domain(Typed<'q>),
    /// A §10.3.2 attribute name standing for a field in PROJECT (`observer`).
    Alias(&'static FieldInfo),
    /// An `x_` extension field in PROJECT (CAL-W004 reported).
    Extension,
    /// Not usable; the diagnostic has been reported.
    Bad,
}

/// Resolves `field` in `scope` for `use_`, reporting what is wrong with it.
///
/// A common field usable this way, the usual case, is answered here; everything else (other
/// fields and every diagnostic) by [`resolve_rest`], kept out of line so that this path stays
/// small (docs/performance-checker.md).
#[inline]
pub(crate) fn resolve<'q>(cx: &mut Checker<'q>, scope: &Scope, field: &'q FieldRef, use_: Use) -> Resolved<'q> {
    if let Some(f) = fields::common_field(field.name.as_str())
        && use_.allows(f)
    {
        return Resolved::Field(f);
    }
    resolve_rest(cx, scope, field, use_)
}

/// [`resolve`] for everything but a usable common field.
#[inline(never)]
fn resolve_rest<'q>(cx: &mut Checker<'q>, scope: &Scope, field: &'q FieldRef, use_: Use) -> Resolved<'q> {
    let grain = scope.grain.map(|g| g.grain_type);
    let name = field.name.as_str();
    if name.is_empty() {
        // The parser's placeholder for a field it could not read (`WHERE NOT …`,
        // `AND AND`): its syntax error is the one diagnostic (one mistake, one diagnostic).
        return Resolved::Bad;
    }
    let resolved = match fields::resolve(grain, name) {
        FieldResolution::Common(f) | FieldResolution::TypeSpecific(f) => Resolved::Field(f),
        FieldResolution::Domain { profile: Some(p), field: info } => {
            if !scope.profiles.has(p.tag) {
                domain_without_profile(cx, p, field, use_);
            }
            info.map_or(Resolved::Domain(Typed::domain(name)), Resolved::Field)
        }
        FieldResolution::Domain { profile: None, .. } => {
            unknown_prefix(cx, field);
            return Resolved::Bad;
        }
        FieldResolution::NotOnGrainType { owners, .. } => {
            if let Some(f) = alias(grain, name, use_) {
                return Resolved::Alias(f);
            }
            not_on_grain_type(cx, scope, field, &owners, use_);
            return Resolved::Bad;
        }
        FieldResolution::NeedsGrainType { owners } => {
            needs_grain_type(cx, scope, field, &owners, use_);
            return Resolved::Bad;
        }
        FieldResolution::Unknown => {
            if let Some(f) = alias(grain, name, use_) {
                return Resolved::Alias(f);
            }
            if use_ == Use::Project && name.starts_with("x_") {
                cx.error(
                    Code::W004,
                    field.span,
                    format!(
                        "`{name}` is not a CAL field; as an extension field (§25.2) it is passed on and may be ignored."
                    ),
                )
                .help("Extension fields only affect output; use a CAL field for anything a query depends on.");
                return Resolved::Extension;
            }
            unknown(cx, grain, field, use_);
            return Resolved::Bad;
        }
    };
    if let Resolved::Field(f) = resolved
        && !use_.allows(f)
    {
        incapable(cx, grain, field, f, use_);
    }
    resolved
}

/// A §10.3.2 attribute name used in PROJECT (docs/spec-decisions-grammar.md A9).
fn alias(grain: Option<GrainType>, name: &str, use_: Use) -> Option<&'static FieldInfo> {
    if use_ != Use::Project {
        return None;
    }
    let attr = fields::projection_alias(grain?, name)?;
    fields::resolve(grain, attr.field).info()
}

/// The names valid for `use_` on `grain`.
fn valid_names(grain: Option<GrainType>, use_: Use) -> Vec<&'static str> {
    fields::fields_for(grain).filter(|f| use_ == Use::Where || use_.allows(f)).map(|f| f.name).collect()
}

fn incapable(cx: &mut Checker<'_>, grain: Option<GrainType>, field: &FieldRef, f: &FieldInfo, use_: Use) {
    let valid = valid_names(grain, use_);
    let d = cx.error(
        Code::E021,
        field.span,
        format!("`{}` is not {}, so it cannot be used in {} (Appendix E).", f.name, use_.ability(), use_.clause()),
    );
    d.help(format!("{} takes {}.", use_.clause(), code_list(&valid)));
    if let Some(first) = valid.first() {
        d.rewrite(field.span, *first);
    }
    d.valid(valid);
}

fn unknown(cx: &mut Checker<'_>, grain: Option<GrainType>, field: &FieldRef, use_: Use) {
    let name = field.name.as_str();
    let valid = valid_names(grain, use_);
    let d = cx.error(Code::E004, field.span, format!("Unknown field `{name}`."));
    if let Some(s) = did_you_mean(name, valid.iter().copied())
        .or_else(|| did_you_mean(name, fields::fields_for(grain).map(|f| f.name)))
    {
        d.help(format!("Did you mean `{s}`?")).fix(s);
    } else if let Some((g, s)) = GrainType::ALL
        .iter()
        .find_map(|g| did_you_mean(name, fields::type_fields(*g).iter().map(|f| f.name)).map(|s| (*g, s)))
    {
        d.help(format!("Did you mean `{s}`? It is a field of {}: `RECALL {} …`.", g.plural(), g.plural()));
    } else if name.starts_with("x_") {
        d.help("Extension (x_) fields can only be projected with PROJECT; filters, sorts and groups use CAL fields.");
    } else {
        d.help(format!("Fields usable here: {}.", code_list(&valid)));
    }
    d.valid(valid);
}

fn not_on_grain_type(cx: &mut Checker<'_>, scope: &Scope, field: &FieldRef, owners: &[GrainType], use_: Use) {
    let Some(declared) = scope.grain else { return };
    let owner_names: Vec<&str> = owners.iter().map(|g| g.plural()).collect();
    let valid = valid_names(Some(declared.grain_type), use_);
    let first_owner = owner_names.first().copied().unwrap_or("another type");
    cx.error(
        Code::E060,
        field.span,
        format!(
            "`{}` is not a field of {}; it belongs to {}.",
            field.name,
            declared.grain_type.plural(),
            crate::render::or_list(&owner_names)
        ),
    )
    .help(format!(
        "Query {first_owner} (`RECALL {first_owner} …`) to use `{}`, or use a field of {}.",
        field.name,
        declared.grain_type.plural()
    ))
    .note(declared.span, format!("{} declared here", declared.grain_type.plural()))
    .rewrite(declared.span, first_owner)
    .valid(valid);
}

fn needs_grain_type(cx: &mut Checker<'_>, scope: &Scope, field: &FieldRef, owners: &[GrainType], use_: Use) {
    let owner = owners.first().map_or("events", |g| g.plural());
    let valid = valid_names(None, use_);
    let d = cx
        .error(
            Code::E061,
            field.span,
            format!("`{}` is a field of {owner}; it can only be used after declaring that grain type.", field.name),
        )
        .help(format!("Write `RECALL {owner}` to unlock the fields of {owner} (§6.2)."))
        .valid(valid);
    if let Some(slot) = scope.grain_slot {
        d.rewrite(slot, format!(" {owner}"));
    }
}

fn unknown_prefix(cx: &mut Checker<'_>, field: &FieldRef) {
    let Some((prefix, rest)) = field.name.split_once(':') else { return };
    let prefixes: Vec<String> = fields::DOMAIN_PROFILES.iter().map(|p| format!("{}:", p.prefix)).collect();
    let d = cx.error(
        Code::W003,
        field.span,
        format!("Unknown domain prefix `{prefix}:`; `{}` will match nothing unless the store has it.", field.name),
    );
    match did_you_mean(prefix, fields::DOMAIN_PROFILES.iter().map(|p| p.prefix)) {
        Some(p) => {
            d.help(format!("Did you mean `{p}:`?")).fix(format!("{p}:{rest}"));
        }
        None => {
            d.help(format!("Domain prefixes are {}.", code_list(&prefixes)));
        }
    }
    d.valid(prefixes);
}

fn domain_without_profile(cx: &mut Checker<'_>, p: &DomainProfile, field: &FieldRef, use_: Use) {
    let d = cx
        .error(
            Code::W002,
            field.span,
            format!(
                "`{}` is a {} field, but this query does not select `{}` grains.",
                field.name,
                p.domain.to_lowercase(),
                p.tag
            ),
        )
        .help(format!("Add `tags INCLUDE [\"{}\"]` to the WHERE clause (§12.1).", p.tag));
    // In a condition the profile test goes just before it, and the example is the query so.
    if use_ == Use::Where {
        d.rewrite(Span::empty(field.span.start as usize), format!("tags INCLUDE [\"{}\"] AND ", p.tag));
    }
}
