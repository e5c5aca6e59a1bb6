//! DEFINE TEMPLATE (§10.6) and `FORMAT TEMPLATE name`: registering a named
//! template in the request's namespace and resolving it for an ASSEMBLE.
//!
//! Templates are session (deployment) state held in [`crate::Templates`], keyed by
//! namespace; defining one creates no grain and never reaches the store, so the
//! read-only facade stays read-only (§2.3). A request confined to a namespace
//! (§18.3) sees only that namespace's templates (§10.8 "no access to other
//! namespaces"); an unconfined request uses the default registry.

use cal_grammar::templates::DEFAULT_TEMPLATE_PARENT;
use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{DefineTemplate, Ident, TemplateBody};
use cal_parser::template::Template;

use crate::config::RegistryError;
use crate::context::Ctx;
use crate::outcome::TemplateDefined;

/// A registry refusal as a diagnostic at `span`, with a suggestion per code.
fn diagnostic(e: RegistryError, span: Span) -> Diagnostic {
    let suggestion = match e.code {
        Code::E088 => "Choose another name: a template cannot be redefined in the same session.",
        Code::E089 => "Reuse one of the namespace's templates, or write this one inline: FORMAT TEMPLATE { … }.",
        _ => "Define it first with DEFINE TEMPLATE (in this namespace), or write it inline: FORMAT TEMPLATE { … }.",
    };
    Diagnostic::new(e.code, span, e.message).with_suggestion(suggestion)
}

/// Executes DEFINE TEMPLATE: judges the definition by the checker's define-time rules
/// (CAL-E016, E086–E096; the query may not have been checked), then stores the template under
/// its name in the request's namespace (CAL-E088 when the name is taken, CAL-E089 when the
/// namespace holds 50). The response says what was registered; nothing is written to memory.
pub fn define(cx: &mut Ctx<'_>, d: &DefineTemplate) -> Result<TemplateDefined, Diagnostic> {
    let ns = cx.config.namespace.as_deref();
    let def = cal_checker::validate_definition(d).map_err(|errors| {
        // Never empty: the checker rejects a definition only with an error.
        errors
            .into_iter()
            .find(Diagnostic::is_error)
            .unwrap_or_else(|| Diagnostic::new(Code::E094, d.span, "The template definition was rejected."))
    })?;
    let count = cx.config.templates.define(ns, def).map_err(|e| diagnostic(e, d.name.span))?;
    Ok(TemplateDefined {
        template: d.name.name.to_string(),
        defined: true,
        extends: d.extends.as_ref().map_or(DEFAULT_TEMPLATE_PARENT.as_str(), |p| p.name.as_str()).to_string(),
        namespace: ns.map(str::to_string),
        templates_in_namespace: count,
        grains_written: 0,
    })
}

/// `FORMAT TEMPLATE name`: the template defined under `name` in the request's namespace,
/// or CAL-E085 at the name.
pub fn resolve(cx: &Ctx<'_>, name: &Ident) -> Result<Template, Diagnostic> {
    cx.config.templates.get(cx.config.namespace.as_deref(), &name.name).map_err(|e| diagnostic(e, name.span))
}

/// `FORMAT TEMPLATE { … }`: the inline template, parsed for rendering. A section that cannot
/// be rendered (CAL-E091, E093, E094: the query was not checked) is reported as the checker
/// reports it, inside the section.
pub fn inline(body: &TemplateBody) -> Result<Template, Diagnostic> {
    cal_checker::inline_template(body)
}

/// The names `DESCRIBE templates` lists: the request namespace's templates.
pub fn names(cx: &Ctx<'_>) -> Vec<String> {
    cx.config.templates.names(cx.config.namespace.as_deref())
}
