//! Values at run time: literals of the query with `$parameters` bound (§3.4),
//! and LET results referenced as `$name` inside `IN (…)` (§8.12).

use cal_grammar::{Code, Diagnostic, Span, hash};
use cal_parser::ast::{Number, Target, TargetKind, Value as AstValue, ValueKind};
use cal_planner::CURRENT_USER_PARAM;
use oms::Value;
use serde_json::Value as Json;

use crate::context::Ctx;

/// A resolved literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A decimal.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Hex digits of a `sha256:` literal (8–64, lower case): a prefix unless 64.
    Hash(String),
    /// An array literal.
    Array(Vec<Lit>),
}

impl Lit {
    /// The value as the store compares it.
    pub fn to_store(&self) -> Value {
        match self {
            Lit::Str(s) => Value::Str(s.clone()),
            Lit::Int(i) => Value::Int(i128::from(*i)),
            Lit::Float(f) => Value::Float(*f),
            Lit::Bool(b) => Value::Bool(*b),
            Lit::Hash(h) => Value::Str(h.clone()),
            Lit::Array(items) => Value::Array(items.iter().map(Lit::to_store).collect()),
        }
    }

    /// The numeric value, for numbers.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Lit::Int(i) => Some(*i as f64),
            Lit::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The text of a string (or hash) literal.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Lit::Str(s) | Lit::Hash(s) => Some(s),
            _ => None,
        }
    }
}

fn nfc(s: &str) -> String {
    use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes { s.to_string() } else { s.nfc().collect() }
}

/// A bound parameter value as a literal; strings that are hash literals (`sha256:` and 8 to
/// 64 lower-case hex digits, `cal_grammar::hash`) become hashes.
pub fn from_json(j: &Json) -> Option<Lit> {
    Some(match j {
        Json::String(s) => match hash::hex_of(s) {
            Some(h) => Lit::Hash(h.to_string()),
            // Literals are NFC (§16.2); a bound value is normalized the same way.
            None => Lit::Str(nfc(s)),
        },
        Json::Bool(b) => Lit::Bool(*b),
        Json::Number(n) => n.as_i64().map_or_else(|| Lit::Float(n.as_f64().unwrap_or(f64::NAN)), Lit::Int),
        Json::Array(items) => Lit::Array(items.iter().map(from_json).collect::<Option<_>>()?),
        Json::Null | Json::Object(_) => return None,
    })
}

fn unbound(name: &str, span: Span) -> Diagnostic {
    if name == CURRENT_USER_PARAM {
        return Diagnostic::new(
            Code::E008,
            span,
            "MY (and `$current_user_id`) need the current user, and none is set.",
        )
        .with_suggestion("Run with a user (`cal run --user alice …`) or bind `current_user_id`.");
    }
    Diagnostic::new(Code::E008, span, format!("Parameter `${name}` is not bound."))
        .with_suggestion(format!("Bind it, for example `cal run --param {name}=…`."))
}

/// The value bound to `$name`: a parameter, or the session user for `$current_user_id`.
pub fn param(cx: &Ctx<'_>, name: &str, span: Span) -> Result<Lit, Diagnostic> {
    if let Some(j) = cx.opts.params.get(name) {
        if let Some(c) = cal_checker::bidi_in(j) {
            return Err(Diagnostic::new(
                Code::E071,
                span,
                format!("The value bound to `${name}` holds the bidirectional control character U+{:04X}.", c as u32),
            )
            .with_suggestion(
                "Remove the character from the value; parameters pass the same checks as literals (§16.3).",
            ));
        }
        return from_json(j).ok_or_else(|| {
            Diagnostic::new(Code::E020, span, format!("Parameter `${name}` is bound to {j}, which is not a CAL value."))
                .with_suggestion("Bind a string, number, boolean or array.")
        });
    }
    if name == CURRENT_USER_PARAM
        && let Some(user) = &cx.opts.user
    {
        return Ok(Lit::Str(user.clone()));
    }
    Err(unbound(name, span))
}

/// Resolves a literal of the query.
pub fn resolve(cx: &Ctx<'_>, v: &AstValue) -> Result<Lit, Diagnostic> {
    Ok(match &v.kind {
        ValueKind::String(s) => Lit::Str(s.to_string()),
        ValueKind::Number(Number::Int(i)) => Lit::Int(*i),
        ValueKind::Number(Number::Float(f)) => Lit::Float(*f),
        ValueKind::Bool(b) => Lit::Bool(*b),
        ValueKind::Hash(h) => Lit::Hash(h.to_string()),
        ValueKind::Array(items) => Lit::Array(items.iter().map(|i| resolve(cx, i)).collect::<Result<_, _>>()?),
        ValueKind::Param(name) => {
            if cx.lets.contains_key(name.as_str()) {
                return Err(Diagnostic::new(
                    Code::E021,
                    v.span,
                    format!("`${name}` is a LET binding: it holds a query result, not a value."),
                )
                .with_suggestion(format!("Use it as `field IN (${name})` or as an ASSEMBLE source.")));
            }
            param(cx, name, v.span)?
        }
    })
}

/// The hex digits of an EXISTS / HISTORY / THREAD FROM target.
pub fn target_hex(cx: &Ctx<'_>, t: &Target) -> Result<String, Diagnostic> {
    match &t.kind {
        TargetKind::Hash(h) => Ok(h.to_string()),
        TargetKind::Param(name) => match param(cx, name, t.span)? {
            Lit::Hash(h) => Ok(h),
            // `from_json` made every valid `sha256:…` string a hash, so this one is not.
            Lit::Str(s) => Err(bad_hash(&s, t.span)),
            other => Err(bad_hash(&format!("{other:?}"), t.span)),
        },
    }
}

fn bad_hash(found: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E015, span, format!("{found} is not a content address."))
        .with_suggestion("Bind `sha256:` followed by 8 to 64 lower-case hex digits.")
}
