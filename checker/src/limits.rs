//! The two shapes every "at most N" rule of §17.3, §8.2 and §10.8 takes:
//! too many items (reported on the first item past the limit through the
//! last, so the span shows exactly what to remove) and text too long
//! (counted in characters of the NFC-normalized text, as
//! docs/spec-decisions-grammar.md B3 decides). The codes come from the
//! [`cal_grammar::limits::LIMITS`] table's decisions; callers pass them.

use crate::context::{Amend, Checker};
use cal_grammar::{Code, Span};

/// Reports `code` when there are more than `max` items.
pub(crate) fn too_many<T>(
    cx: &mut Checker<'_>,
    code: Code,
    items: &[T],
    span_of: impl Fn(&T) -> Span,
    max: usize,
    what: &str,
    help: &str,
) -> bool {
    let (Some(extra), Some(last)) = (items.get(max), items.last()) else { return false };
    cx.error(
        code,
        span_of(extra).cover(span_of(last)),
        format!("{what}: {} here; at most {max} are allowed.", items.len()),
    )
    .help(help);
    true
}

/// Reports CAL-E016 when `text` has more than `max` characters.
pub(crate) fn text_length(cx: &mut Checker<'_>, text: &str, span: Span, max: usize, what: &str) -> bool {
    let n = text.chars().count();
    if n <= max {
        return false;
    }
    cx.error(Code::E016, span, format!("{what} is {n} characters long; at most {max} are allowed."))
        .help(format!("Shorten it to {max} characters or fewer."));
    true
}
