//! Parameter bindings (§3.4 `$name`, §26 `params`) and the rules on their use:
//! CAL-E008 (unbound), CAL-E009 (bound twice, too many parameters), and the
//! type of every use (CAL-E020): against the bound value when bindings are
//! given, for consistency between uses when they are not.
//!
//! [`Params`] is the one type the CLI (`cal check --param name=value`), the
//! language server and a server's request handler build, so all three report
//! the same diagnostics for the same bindings.

use crate::context::{Amend, Checker};
use crate::lit::{Kinds, Lit};
use crate::values::{Want, check_lit};
use cal_grammar::{Code, Span, limits, suggest::did_you_mean};
use serde_json::Value;
use std::fmt;

/// Values bound to `$parameters`, by name (without `$`).
///
/// Built from a list (command-line flags, a form), it remembers names bound
/// more than once instead of silently keeping one: the check reports each as
/// CAL-E009. The first binding of a name is the one used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    bindings: Vec<(String, Value)>,
    duplicates: Vec<(String, Value)>,
}

impl Params {
    /// No bindings: every parameter a query uses will be unbound (CAL-E008).
    pub fn new() -> Self {
        Params::default()
    }

    /// Bindings from `(name, value)` pairs in order; a leading `$` on a name is ignored.
    pub fn from_pairs<I, S>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (S, Value)>,
        S: Into<String>,
    {
        let mut params = Params::new();
        for (name, value) in pairs {
            params.bind(name, value);
        }
        params
    }

    /// Bindings from a JSON object, the `params` member of a REST or MCP request (§26).
    pub fn from_json_object(object: &serde_json::Map<String, Value>) -> Self {
        Params::from_pairs(object.iter().map(|(k, v)| (k.clone(), v.clone())))
    }

    /// Bindings from command-line arguments of the form `name=value` (see [`parse_param_arg`]).
    pub fn from_args<I, S>(args: I) -> Result<Self, ParamArgError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut params = Params::new();
        for arg in args {
            let (name, value) = parse_param_arg(arg.as_ref())?;
            params.bind(name, value);
        }
        Ok(params)
    }

    /// Binds `name`; returns false (and records a duplicate) when it is already bound.
    pub fn bind(&mut self, name: impl Into<String>, value: Value) -> bool {
        let name = name.into();
        let name = name.strip_prefix('$').map(str::to_string).unwrap_or(name);
        if self.get(&name).is_some() {
            self.duplicates.push((name, value));
            false
        } else {
            self.bindings.push((name, value));
            true
        }
    }

    /// The value bound to `name` (without `$`).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.bindings.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The bindings in the order they were made (first binding of each name).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.bindings.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// Number of distinct names bound.
    pub fn len(&self) -> usize {
        self.bindings.len()
    }

    /// True when nothing is bound.
    pub fn is_empty(&self) -> bool {
        self.bindings.is_empty()
    }

    /// The second and later bindings of names already bound, in order.
    pub fn duplicates(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.duplicates.iter().map(|(n, v)| (n.as_str(), v))
    }
}

/// A `--param` argument that is not `name=value` with a valid name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamArgError {
    /// The argument as given.
    pub arg: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ParamArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid parameter binding `{}`: {}", self.arg, self.reason)
    }
}

impl std::error::Error for ParamArgError {}

/// Parses `name=value` (`$name=value` too). The value is JSON (`5`, `true`,
/// `"alice"`, `["a","b"]`); text that is not JSON is taken as a string, so
/// `--param user=alice` binds `"alice"`.
pub fn parse_param_arg(arg: &str) -> Result<(String, Value), ParamArgError> {
    let err = |reason: &str| ParamArgError { arg: arg.to_string(), reason: reason.to_string() };
    let (name, raw) = arg.split_once('=').ok_or_else(|| err("expected name=value"))?;
    let name = name.trim();
    let name = name.strip_prefix('$').unwrap_or(name);
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(err("a parameter name is a letter or `_`, then letters, digits or `_`"));
    }
    let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    Ok((name.to_string(), value))
}

/// Records a use of `$name` where `want` is expected. A LET binding used as a
/// value is CAL-E021: its result is a list of grains or values, not a value.
pub(crate) fn use_param<'q>(cx: &mut Checker<'q>, name: &'q str, span: Span, want: Want<'q>) {
    if let Some(i) = cx.let_index(name) {
        let decl = cx.lets[i].span;
        cx.error(
            Code::E021,
            span,
            format!("`${name}` is a LET binding: it holds a query result, which cannot stand for {}.", want.needs()),
        )
        .help(format!("Use a LET binding as `field IN (${name})` or as an ASSEMBLE source `label: (${name})`."))
        .note(decl, "bound here");
        return;
    }
    cx.param_uses.push(crate::context::ParamUse { name, span, want });
}

/// Judges every parameter use once the whole query has been walked.
#[inline]
pub(crate) fn finish(cx: &mut Checker<'_>, query_span: Span) {
    if !cx.param_uses.is_empty() || cx.params.is_some() {
        finish_uses(cx, query_span);
    }
}

/// [`finish`] when any parameter is used or bound.
#[inline(never)]
fn finish_uses(cx: &mut Checker<'_>, query_span: Span) {
    let uses = std::mem::take(&mut cx.param_uses);
    let mut names: Vec<&str> = Vec::new();
    for u in &uses {
        if !names.contains(&u.name) {
            names.push(u.name);
        }
    }
    let first_use = |name: &str| uses.iter().find(|u| u.name == name).map(|u| u.span);

    if let Some(params) = cx.params {
        // A bound value passes the lexical checks a literal in its place would (§16.3): no
        // bidirectional control character may ride in through a parameter.
        for name in &names {
            if let Some(c) = params.get(name).and_then(bidi_in)
                && let Some(span) = first_use(name)
            {
                cx.error(
                    Code::E071,
                    span,
                    format!(
                        "The value bound to `${name}` holds the bidirectional control character U+{:04X}.",
                        c as u32
                    ),
                )
                .help("Remove the character from the value; parameters pass the same checks as literals (§16.3).");
            }
        }
        for (name, value) in params.duplicates() {
            let first = params.get(name).map_or_else(String::new, |v| v.to_string());
            let span = first_use(name).unwrap_or(Span::empty(query_span.start as usize));
            cx.error(Code::E009, span, format!("`${name}` is bound twice: to {first} and to {value}."))
                .help(format!("Bind `${name}` once."));
        }
        for slot in cx.lets.clone() {
            if params.get(slot.name).is_some() {
                cx.error(
                    Code::E009,
                    slot.span,
                    format!("`${}` is both a LET binding and a bound parameter.", slot.name),
                )
                .help("Rename the LET binding or drop the parameter binding.");
            }
        }
    }

    if let Some(extra) = names.get(limits::MAX_PARAMETERS) {
        let span = first_use(extra).unwrap_or_default();
        cx.error(
            Code::E009,
            span,
            format!(
                "This query uses {} distinct parameters; at most {} are allowed (§17.3).",
                names.len(),
                limits::MAX_PARAMETERS
            ),
        )
        .help("Write some values as literals, or split the query.");
    }

    for name in names {
        let mine: Vec<_> = uses.iter().filter(|u| u.name == name).collect();
        match cx.params {
            Some(params) => match params.get(name) {
                Some(value) => {
                    for u in &mine {
                        check_lit(cx, &Lit::of_json(value, u.span), u.span, u.want, Some(name));
                    }
                }
                None => unbound(cx, params, name, &mine),
            },
            None => consistency(cx, name, &mine),
        }
    }
}

fn unbound(cx: &mut Checker<'_>, params: &Params, name: &str, uses: &[&crate::context::ParamUse<'_>]) {
    let Some(first) = uses.first() else { return };
    let d = cx.error(Code::E008, first.span, format!("`${name}` is not bound."));
    match did_you_mean(name, params.iter().map(|(n, _)| n)) {
        Some(other) => {
            d.help(format!("Did you mean `${other}`?")).fix(format!("${other}"));
        }
        None => {
            d.help(format!(
                "Bind it with `--param {name}=<json value>` (`params` in a server request), or write a literal."
            ));
        }
    }
    if !params.is_empty() {
        d.valid(params.iter().map(|(n, _)| format!("${n}")));
    }
    for u in &uses[1..] {
        d.note(u.span, "also used here");
    }
}

fn consistency(cx: &mut Checker<'_>, name: &str, uses: &[&crate::context::ParamUse<'_>]) {
    let Some(first) = uses.first() else { return };
    let mut accepted = Kinds::ANY;
    for u in uses {
        let next = accepted.and(u.want.kinds());
        if next.is_empty() {
            cx.error(
                Code::E020,
                u.span,
                format!(
                    "`${name}` is used here as {} for {}, but earlier as {}; no one value can be both.",
                    u.want.kinds().describe(),
                    u.want.subject(),
                    accepted.describe()
                ),
            )
            .help("Use two parameters.")
            .note(first.span, "first used here");
            return;
        }
        accepted = next;
    }
}

/// The first bidirectional control character in a bound value's strings, if any.
pub fn bidi_in(v: &Value) -> Option<char> {
    match v {
        Value::String(s) => s.chars().find(|c| cal_grammar::display::is_bidi_control(*c)),
        Value::Array(items) => items.iter().find_map(bidi_in),
        Value::Object(m) => m.values().find_map(bidi_in),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn args_parse_as_json_or_text() {
        assert_eq!(parse_param_arg("n=5").unwrap(), ("n".into(), json!(5)));
        assert_eq!(parse_param_arg("$user=alice").unwrap(), ("user".into(), json!("alice")));
        assert_eq!(parse_param_arg("s=\"a=b\"").unwrap(), ("s".into(), json!("a=b")));
        assert_eq!(parse_param_arg("tags=[\"a\"]").unwrap(), ("tags".into(), json!(["a"])));
        assert!(parse_param_arg("novalue").is_err());
        assert!(parse_param_arg("1x=2").is_err());
        assert!(parse_param_arg("=2").unwrap_err().to_string().contains("letter"));
    }

    #[test]
    fn duplicates_are_remembered() {
        let p = Params::from_args(["a=1", "b=2", "$a=3"]).unwrap();
        assert_eq!(p.get("a"), Some(&json!(1)));
        assert_eq!(p.len(), 2);
        assert_eq!(p.duplicates().collect::<Vec<_>>(), [("a", &json!(3))]);
        let q = Params::from_json_object(json!({"x": true}).as_object().unwrap());
        assert_eq!(q.iter().collect::<Vec<_>>(), [("x", &json!(true))]);
        assert!(Params::new().is_empty());
    }
}
