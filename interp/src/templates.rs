//! DEFINE TEMPLATE (§10.6) and `FORMAT TEMPLATE name`: registering a named
//! template in the request's namespace and resolving it for an ASSEMBLE.
//!
//! Templates are session (deployment) state held in [`crate::Templates`], keyed by
//! namespace; defining one creates no grain and never reaches the store, so the
//! read-only facade stays read-only (§2.3). A request confined to a namespace
//! (§18.3) sees only that namespace's templates (§10.8 "no access to other
//! namespaces"); an unconfined request uses the default registry.

use cal_grammar::{Code, Diagnostic, FormatName, Span};
use cal_parser::ast::{DefineTemplate, Ident};
use cal_render::{TemplateDef, TemplateError};
use serde_json::{Map, Value as Json};

use crate::context::Ctx;

/// A registry error as a diagnostic at `span`, with a suggestion per code.
fn diagnostic(e: TemplateError, span: Span) -> Diagnostic {
    let suggestion = match e.code {
        Code::E088 => "Choose another name: a template cannot be redefined in the same session.",
        Code::E089 => "Reuse one of the namespace's templates, or write this one inline: FORMAT TEMPLATE { … }.",
        Code::E085 => {
            "Define it first with DEFINE TEMPLATE (in this namespace), or write it inline: FORMAT TEMPLATE { … }."
        }
        _ => "Fix the template's Mustache syntax; `cal check` shows where.",
    };
    let message = match e.code {
        Code::E085 | Code::E088 | Code::E089 => {
            let mut m = e.message;
            if let Some(first) = m.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{m}.")
        }
        _ => e.message,
    };
    Diagnostic::new(e.code, span, message).with_suggestion(suggestion)
}

/// The render-time form of a DEFINE TEMPLATE: the preset it extends and its sections.
pub fn definition(d: &DefineTemplate) -> TemplateDef {
    TemplateDef {
        extends: d.extends.as_ref().and_then(|p| FormatName::from_word(&p.name)),
        sections: d.body.sections.iter().map(|s| (s.kind, s.text.to_string())).collect(),
    }
}

/// Executes DEFINE TEMPLATE: stores the template under its name in the request's namespace
/// (CAL-E088 when the name is taken, CAL-E089 when the namespace holds 50). The response says
/// what was registered; nothing is written to memory.
pub fn define(cx: &mut Ctx<'_>, d: &DefineTemplate) -> Result<Map<String, Json>, Diagnostic> {
    let ns = cx.config.namespace.as_deref();
    if let Some(parent) = d.extends.as_ref().filter(|p| FormatName::from_word(&p.name).is_none()) {
        let message =
            format!("`{}` is not a preset: templates extend only presets, one level deep (§10.7).", parent.name);
        return Err(Diagnostic::new(Code::E087, parent.span, message)
            .with_suggestion("Extend structured, readable or compact."));
    }
    let def = definition(d);
    def.validate().map_err(|e| diagnostic(e, d.span))?;
    let count = cx.config.templates.define(ns, &d.name.name, def).map_err(|e| diagnostic(e, d.name.span))?;
    let mut body = Map::new();
    body.insert("template".into(), d.name.name.as_str().into());
    body.insert("defined".into(), true.into());
    body.insert("extends".into(), d.extends.as_ref().map_or(FormatName::Readable.as_str(), |p| p.name.as_str()).into());
    body.insert("namespace".into(), ns.map_or(Json::Null, |n| Json::String(n.to_string())));
    body.insert("templates_in_namespace".into(), count.into());
    body.insert("grains_written".into(), 0.into());
    Ok(body)
}

/// `FORMAT TEMPLATE name`: the template defined under `name` in the request's namespace,
/// or CAL-E085 at the name.
pub fn resolve(cx: &Ctx<'_>, name: &Ident) -> Result<TemplateDef, Diagnostic> {
    cx.config.templates.get(cx.config.namespace.as_deref(), &name.name).map_err(|e| diagnostic(e, name.span))
}

/// A template that failed at render time (CAL-E091/E093/E094 for a section the checker did
/// not see), reported at the FORMAT clause.
pub fn render_error(e: TemplateError, span: Span) -> Diagnostic {
    diagnostic(e, span)
}

/// The names `DESCRIBE templates` lists: the request namespace's templates.
pub fn names(cx: &Ctx<'_>) -> Vec<String> {
    cx.config.templates.names(cx.config.namespace.as_deref())
}
