//! Values against what their position wants (§5.2, §6.3, Appendix E): the
//! type of the field (CAL-E020), its numeric range, its closed value set
//! (CAL-E062–E066, and our codes for the others: docs/spec-decisions-grammar.md
//! A10), `mg:` relations (CAL-W001), and LIMIT bounds (CAL-E010).
//!
//! The same function judges a literal and the JSON bound to a parameter, so
//! the two say the same thing; only literals get a `replacement`, since a
//! bound value is fixed in the bindings, not in the query.

use crate::context::{Amend, Checker};
use crate::lit::{Kinds, Lit};
use crate::render::{float, quote};
use cal_grammar::fields::{EvolveField, FieldInfo, ValueType};
use cal_grammar::{Code, Span, enums, hash, limits, relations};
use cal_parser::ast::{Value, ValueKind};

/// The type facts of a field, whether queried (Appendix E) or SET (§5.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Typed<'q> {
    /// The field name as written.
    pub name: &'q str,
    /// Its value type.
    pub ty: ValueType,
    /// Its closed numeric range.
    pub range: Option<(f64, f64)>,
    /// A domain field (§12.2): values are external, any scalar is accepted.
    pub domain: bool,
}

impl Typed<'static> {
    /// The type of a queryable field.
    pub(crate) fn field(f: &'static FieldInfo) -> Self {
        Typed { name: f.name, ty: f.value_type, range: f.range, domain: f.section == "12.2" }
    }

    /// The type of an evolve field.
    pub(crate) fn evolve(f: &'static EvolveField) -> Self {
        Typed { name: f.name, ty: f.value_type, range: f.range, domain: false }
    }
}

impl<'q> Typed<'q> {
    /// A domain field outside §12.2's example lists: any scalar.
    pub(crate) fn domain(name: &'q str) -> Self {
        Typed { name, ty: ValueType::String, range: None, domain: true }
    }
}

/// What a position wants of its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Want<'q> {
    /// A value of the field's type: `field op value`, `SET field = value`.
    Of(Typed<'q>),
    /// One element of `field IN (…)`; a parameter may hold the whole list.
    Element(Typed<'q>),
    /// A bound of `BETWEEN a AND b`.
    Bound(Typed<'q>),
    /// The array of `field INCLUDE […]` / `EXCLUDE […]`.
    Set(Typed<'q>),
    /// A content address: EXISTS, HISTORY, SUPERSEDE, REVERT, THREAD FROM, DIFF.
    Hash,
    /// `LIMIT n`.
    Limit,
    /// `OFFSET n`.
    Offset,
    /// Anything (extension arguments).
    Any,
}

impl Want<'_> {
    /// What the position is called in a message.
    pub(crate) fn subject(&self) -> String {
        match self {
            Want::Of(t) | Want::Element(t) | Want::Bound(t) | Want::Set(t) => format!("`{}`", t.name),
            Want::Hash => "the target".into(),
            Want::Limit => "LIMIT".into(),
            Want::Offset => "OFFSET".into(),
            Want::Any => "this position".into(),
        }
    }

    /// What the position takes, in words.
    pub(crate) fn needs(&self) -> String {
        match self {
            Want::Of(t) | Want::Element(t) => needs_type(t),
            Want::Bound(_) => "a time bound: epoch seconds or a date string".into(),
            Want::Set(_) => "an array of strings such as [\"a\", \"b\"]".into(),
            Want::Hash => "a content address: sha256: followed by 8 to 64 hex digits".into(),
            Want::Limit => format!("a whole number from 1 to {}", limits::MAX_LIMIT),
            Want::Offset => "a whole number, 0 or more".into(),
            Want::Any => "any value".into(),
        }
    }

    /// The JSON kinds a parameter bound here may have.
    pub(crate) fn kinds(&self) -> Kinds {
        match self {
            Want::Of(t) => type_kinds(t),
            Want::Element(t) => type_kinds(t).or(Kinds::ARRAY),
            Want::Bound(_) => Kinds::STR.or(Kinds::NUMBER),
            Want::Set(_) => Kinds::ARRAY,
            Want::Hash => Kinds::STR,
            Want::Limit | Want::Offset => Kinds::INT,
            Want::Any => Kinds::ANY,
        }
    }
}

fn type_kinds(t: &Typed<'_>) -> Kinds {
    if t.domain {
        return Kinds::STR.or(Kinds::NUMBER).or(Kinds::BOOL);
    }
    match t.ty {
        ValueType::String | ValueType::GrainType | ValueType::Hash => Kinds::STR,
        ValueType::Number => Kinds::NUMBER,
        ValueType::Boolean => Kinds::BOOL,
        ValueType::Temporal => Kinds::STR.or(Kinds::NUMBER),
        ValueType::Array => Kinds::ARRAY,
    }
}

fn needs_type(t: &Typed<'_>) -> String {
    if t.domain {
        return "a string, number or boolean".into();
    }
    match (t.ty, t.range) {
        (ValueType::String, _) => "a string".into(),
        (ValueType::GrainType, _) => "a grain type name such as \"belief\"".into(),
        (ValueType::Number, Some((lo, hi))) => format!("a number from {} to {}", float(lo), float(hi)),
        (ValueType::Number, None) => "a number".into(),
        (ValueType::Boolean, _) => "`true` or `false`".into(),
        (ValueType::Temporal, _) => "a time: text such as \"last 7 days\", an ISO 8601 date, or epoch seconds".into(),
        (ValueType::Hash, _) => "a content address: sha256: followed by 8 to 64 hex digits".into(),
        (ValueType::Array, _) => "an array of strings such as [\"a\", \"b\"]".into(),
    }
}

/// Checks a value written in the query against what its position wants.
#[inline]
pub(crate) fn check_value<'q>(cx: &mut Checker<'q>, value: &'q Value, want: Want<'q>) {
    // The usual case, a string literal for a plain string field, goes straight to what
    // `check_lit` would do with it: the closed value set and the `mg:` rule.
    if let (ValueKind::String(s), Want::Of(t)) = (&value.kind, want)
        && !t.domain
        && matches!(t.ty, ValueType::String | ValueType::GrainType)
    {
        closed_value(cx, &t, s, value.span, None);
        return;
    }
    check_lit(cx, &Lit::of(value), value.span, want, None);
}

/// Checks a literal, or a value bound to the parameter `param`, at `span`.
pub(crate) fn check_lit<'q>(cx: &mut Checker<'q>, lit: &Lit<'q>, span: Span, want: Want<'q>, param: Option<&str>) {
    if let Lit::Param(name) = lit {
        crate::params::use_param(cx, name, span, want);
        return;
    }
    if want == Want::Any {
        return;
    }
    if let (Want::Element(t), Lit::Array(items), Some(p)) = (want, lit, param) {
        // A bound list standing for the whole `IN (…)` list.
        if items.len() > limits::MAX_IN_SET {
            cx.error(
                Code::E011,
                span,
                format!("`${p}` is bound to {} values; an IN list takes at most {}.", items.len(), limits::MAX_IN_SET),
            )
            .help(format!("Bind at most {} values, or split the query with UNION.", limits::MAX_IN_SET));
        }
        for (item, s) in items {
            check_lit(cx, item, *s, Want::Of(t), param);
        }
        return;
    }
    if !type_ok(&want, lit, param.is_some()) {
        mismatch(cx, lit, span, &want, param);
        return;
    }
    match (want, lit) {
        (Want::Of(t) | Want::Element(t), Lit::Str(s)) => {
            if t.ty == ValueType::Hash {
                hash_string(cx, s, span, param);
            } else {
                closed_value(cx, &t, s, span, param);
            }
        }
        (Want::Of(t) | Want::Element(t), Lit::Int(_) | Lit::Float(_)) => range(cx, &t, lit, span, param),
        (Want::Of(t) | Want::Set(t), Lit::Array(items)) => {
            for (item, s) in items {
                match item {
                    Lit::Str(_) => {}
                    Lit::Param(name) => {
                        let element = Typed { name: t.name, ty: ValueType::String, range: None, domain: false };
                        crate::params::use_param(cx, name, *s, Want::Of(element));
                    }
                    other => {
                        let d =
                            cx.error(Code::E020, *s, format!("`{}` holds strings, not {}.", t.name, other.describe()));
                        if param.is_none()
                            && let Some(text) = as_text(other)
                        {
                            d.fix(quote(&text)).help(format!("Write it as a string: {}.", quote(&text)));
                        }
                    }
                }
            }
        }
        (Want::Hash, Lit::Str(s)) => hash_string(cx, s, span, param),
        (Want::Limit, Lit::Int(n)) => limit(cx, *n, span, param),
        (Want::Offset, Lit::Int(n)) if *n < 0 => {
            cx.error(Code::E020, span, format!("OFFSET must be 0 or more, not {n}."))
                .help("Use a whole number, 0 or more.");
        }
        _ => {}
    }
}

fn type_ok(want: &Want<'_>, lit: &Lit<'_>, bound: bool) -> bool {
    let scalar = |t: &Typed<'_>| -> bool {
        if t.domain {
            return matches!(lit, Lit::Str(_) | Lit::Int(_) | Lit::Float(_) | Lit::Bool(_));
        }
        match t.ty {
            ValueType::String | ValueType::GrainType => matches!(lit, Lit::Str(_)),
            ValueType::Number => matches!(lit, Lit::Int(_) | Lit::Float(_)),
            ValueType::Boolean => matches!(lit, Lit::Bool(_)),
            ValueType::Temporal => matches!(lit, Lit::Str(_) | Lit::Int(_) | Lit::Float(_)),
            ValueType::Hash => matches!(lit, Lit::Hash(_)) || (bound && matches!(lit, Lit::Str(_))),
            ValueType::Array => matches!(lit, Lit::Array(_)),
        }
    };
    match want {
        Want::Of(t) | Want::Element(t) => scalar(t),
        Want::Bound(_) => matches!(lit, Lit::Str(_) | Lit::Int(_) | Lit::Float(_)),
        Want::Set(_) => matches!(lit, Lit::Array(_)),
        Want::Hash => matches!(lit, Lit::Hash(_)) || (bound && matches!(lit, Lit::Str(_))),
        Want::Limit | Want::Offset => matches!(lit, Lit::Int(_)),
        Want::Any => true,
    }
}

/// The text of a scalar, for quoting it.
fn as_text(lit: &Lit<'_>) -> Option<String> {
    match lit {
        Lit::Int(i) => Some(i.to_string()),
        Lit::Float(f) => Some(float(*f)),
        Lit::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// True for `-?digits(.digits)?`, CAL's number syntax.
fn is_cal_number(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// True for `sha256:` followed by 8 to 64 lower-case hex digits (`cal_grammar::hash`).
fn is_hash_text(s: &str) -> bool {
    hash::hex_of(s).is_some()
}

/// The literal rewritten to what the position wants, when the intent is unambiguous.
fn coerce(lit: &Lit<'_>, want: &Want<'_>) -> Option<String> {
    let ty = match want {
        Want::Of(t) | Want::Element(t) if !t.domain => Some(t.ty),
        Want::Set(_) => Some(ValueType::Array),
        Want::Hash => Some(ValueType::Hash),
        _ => None,
    }?;
    match (ty, lit) {
        (ValueType::String | ValueType::GrainType, l) => as_text(l).map(|t| quote(&t)),
        (ValueType::Number, Lit::Str(s)) if is_cal_number(s.trim()) => Some(s.trim().to_string()),
        (ValueType::Boolean, Lit::Str(s)) if s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false") => {
            Some(s.to_ascii_lowercase())
        }
        (ValueType::Hash, Lit::Str(s)) if is_hash_text(&s.to_ascii_lowercase()) => Some(s.to_ascii_lowercase()),
        (ValueType::Array, Lit::Str(s)) => Some(format!("[{}]", quote(s))),
        _ => None,
    }
}

fn mismatch<'q>(cx: &mut Checker<'q>, lit: &Lit<'q>, span: Span, want: &Want<'q>, param: Option<&str>) {
    let (what, need) = (want.subject(), want.needs());
    let message = match param {
        Some(p) => format!("`${p}` is bound to {}, but {what} takes {need}.", lit.describe()),
        None => format!("{what} takes {need}, not {}.", lit.describe()),
    };
    let fix = if param.is_none() { coerce(lit, want) } else { None };
    let d = cx.error(Code::E020, span, message);
    match (fix, param) {
        (Some(f), _) => {
            d.help(format!("Write {f}.")).fix(f);
        }
        (None, Some(p)) => {
            d.help(format!("Bind `${p}` to {need}."));
        }
        (None, None) => {
            d.help(format!("Use {need} here."));
        }
    }
    if let (Want::Hash, Lit::Str(_)) = (want, lit) {
        d.help("Write the content address as sha256: followed by 8 to 64 hex digits, without quotes.");
    }
}

/// A bound string standing for a content address must look like one (CAL-E015).
fn hash_string(cx: &mut Checker<'_>, s: &str, span: Span, param: Option<&str>) {
    if is_hash_text(s) {
        return;
    }
    let who = param.map_or_else(|| "This value".to_string(), |p| format!("`${p}`"));
    let d = cx.error(Code::E015, span, format!("{who} is not a content address: {}.", crate::render::quote_short(s)));
    match s.strip_prefix(hash::HASH_PREFIX).map(hash::check_hex) {
        Some(Err(hash::HexProblem::UpperCase)) => {
            d.help(format!(
                "Content addresses are lower-case hex (OMS §5): bind {}.",
                crate::render::quote_short(&s.to_ascii_lowercase())
            ));
        }
        _ => {
            d.help("A content address is sha256: followed by 8 to 64 hex digits, e.g. \"sha256:a1b2c3d4\".");
        }
    }
}

/// Closed value sets (CAL-E062–E066 and the documented codes) and `mg:` relations (CAL-W001).
#[inline(always)]
fn closed_value(cx: &mut Checker<'_>, t: &Typed<'_>, s: &str, span: Span, param: Option<&str>) {
    if let Some(e) = enums::closed_enum(t.name)
        && !e.contains(s)
    {
        not_in_closed_set(cx, t, e, s, span, param);
        return;
    }
    if t.name == cal_grammar::fields::names::RELATION && relations::is_mg(s) && !relations::is_known_mg(s) {
        unknown_mg(cx, s, span, param);
    }
}

#[cold]
#[inline(never)]
fn not_in_closed_set(
    cx: &mut Checker<'_>,
    t: &Typed<'_>,
    e: &enums::ClosedEnum,
    s: &str,
    span: Span,
    param: Option<&str>,
) {
    let shown = crate::render::quote_short(s);
    let message = match (e.code, param) {
        (Code::E003, None) => format!("Unknown grain type {shown} in `type`."),
        (Code::E003, Some(p)) => format!("`${p}` is bound to the unknown grain type {shown}."),
        (_, None) => format!("{shown} is not a valid `{}`.", t.name),
        (_, Some(p)) => format!("`${p}` is bound to {shown}, which is not a valid `{}`.", t.name),
    };
    let d = cx.error(e.code, span, message);
    d.valid(e.values.iter().copied());
    match e.suggest(s) {
        Some(v) => {
            d.help(format!("Did you mean \"{v}\"?"));
            if param.is_none() {
                d.fix(quote(v));
            }
        }
        None => {
            d.help(format!("`{}` is one of {}.", t.name, crate::render::or_list(e.values)));
        }
    }
}

#[cold]
#[inline(never)]
fn unknown_mg(cx: &mut Checker<'_>, s: &str, span: Span, param: Option<&str>) {
    let d = cx.error(
        Code::W001,
        span,
        format!(
            "{} is not a standard mg: relation; it will only match grains stored with exactly this relation.",
            crate::render::quote_short(s)
        ),
    );
    d.valid(relations::MG_RELATIONS.iter().map(|r| r.name));
    match relations::suggest_mg(s) {
        Some(r) => {
            d.help(format!("Did you mean \"{r}\"?"));
            if param.is_none() {
                d.fix(quote(r));
            }
        }
        None => {
            d.help("Use a standard mg: relation, or a relation without the mg: prefix for a custom one.");
        }
    }
}

/// Stated numeric ranges (§5.2 confidence/importance, §6.3 threshold): CAL-E020 outside them.
fn range(cx: &mut Checker<'_>, t: &Typed<'_>, lit: &Lit<'_>, span: Span, param: Option<&str>) {
    let (Some((lo, hi)), Some(v)) = (t.range, lit.as_f64()) else { return };
    if (lo..=hi).contains(&v) {
        return;
    }
    let shown = match lit {
        Lit::Float(f) => float(*f),
        _ => format!("{v}"),
    };
    let message = match param {
        Some(p) => format!("`${p}` is bound to {shown}, but `{}` is between {} and {}.", t.name, float(lo), float(hi)),
        None => format!("`{}` is between {} and {}; {shown} is out of range.", t.name, float(lo), float(hi)),
    };
    let d = cx.error(Code::E020, span, message);
    if hi == 1.0 && (10.0..=100.0).contains(&v) && v.fract() == 0.0 {
        let pct = float(v / 100.0);
        d.help(format!("Did you mean {pct}? Values are fractions, not percentages."));
        if param.is_none() {
            d.fix(pct);
        }
    } else {
        d.help(format!("Use a number from {} to {}.", float(lo), float(hi)));
    }
}

/// LIMIT n (and a bound LIMIT $n): 1 to MAX_LIMIT (CAL-E010).
fn limit(cx: &mut Checker<'_>, n: i64, span: Span, param: Option<&str>) {
    let max = limits::MAX_LIMIT as i64;
    if (1..=max).contains(&n) {
        return;
    }
    let who = param.map_or_else(|| format!("LIMIT {n}"), |p| format!("`${p}` (bound to {n})"));
    let d = if n > max {
        cx.error(Code::E010, span, format!("{who} exceeds the maximum LIMIT of {max}."))
    } else {
        cx.error(Code::E010, span, format!("{who} returns nothing; LIMIT is at least 1."))
    };
    d.help(format!("Use a LIMIT from 1 to {max}; page through more results with OFFSET."));
    if param.is_none() {
        d.fix(n.clamp(1, max).to_string());
    }
}

/// The LIMIT-like bound of `RECENT n` and `LIMIT n` literals, shared with the pipeline.
#[inline]
pub(crate) fn check_limit(cx: &mut Checker<'_>, n: u64, span: Span, what: &str) {
    if !(1..=limits::MAX_LIMIT as u64).contains(&n) {
        limit_out_of_range(cx, n, span, what);
    }
}

#[cold]
#[inline(never)]
fn limit_out_of_range(cx: &mut Checker<'_>, n: u64, span: Span, what: &str) {
    let max = limits::MAX_LIMIT as u64;
    let d = if n > max {
        cx.error(Code::E010, span, format!("{what} {n} exceeds the maximum of {max}."))
    } else {
        cx.error(Code::E010, span, format!("{what} 0 returns nothing; it is at least 1."))
    };
    d.help(format!("Use a number from 1 to {max}; page through more results with OFFSET."))
        .fix(n.clamp(1, max).to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_and_hash_shapes() {
        assert!(is_cal_number("0.8") && is_cal_number("-1") && is_cal_number("42"));
        assert!(!is_cal_number("1e5") && !is_cal_number(".5") && !is_cal_number("1.") && !is_cal_number(""));
        assert!(is_hash_text("sha256:a1b2c3d4"));
        assert!(!is_hash_text("sha256:a1b2") && !is_hash_text("a1b2c3d4") && !is_hash_text("sha256:zzzzzzzz"));
    }
}
