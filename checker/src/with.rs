//! WITH options (§4 `with_option`, §25.2): the field of `dedup(…)` must be
//! groupable (Appendix E, CAL-E021 via `fields.rs`), and an `x_` extension
//! this implementation does not know is a warning, never an error (CAL-W004).
//! Unknown option names without `x_` are syntax errors the parser reports.

use crate::context::{Amend, Checker};
use crate::fields::{self, Scope, Use};
use crate::operators::walk_value;
use cal_grammar::Code;
use cal_parser::ast::{WithKind, WithOption};

/// The `x_` extensions this implementation understands (§25.2). None yet: each
/// one used is reported as CAL-W004 and ignored.
const KNOWN_EXTENSIONS: &[&str] = &[];

#[cold]
#[inline(never)]
fn unknown_extension(cx: &mut Checker<'_>, name: &str, span: cal_grammar::Span) {
    cx.error(Code::W004, span, format!("Unknown extension option `{name}` is ignored (§25.2)."))
        .help("Extensions are implementation hints; this implementation knows none, so the option has no effect. Remove it to silence this warning.");
}

/// Checks the options of a WITH clause, resolving fields in `scope`.
#[inline]
pub(crate) fn check_options<'q>(cx: &mut Checker<'q>, scope: &Scope, options: &'q [WithOption]) {
    for o in options {
        match &o.kind {
            WithKind::Dedup(f) => {
                fields::resolve(cx, scope, f, Use::Dedup);
            }
            WithKind::Extension { name, args } => {
                if !KNOWN_EXTENSIONS.contains(&name.as_str()) {
                    unknown_extension(cx, name, o.span);
                }
                for v in args.iter().flatten() {
                    walk_value(cx, v);
                }
            }
            _ => {}
        }
    }
}
