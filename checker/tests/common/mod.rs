//! Shared by the checker's test files: reading a case's directives, drawing
//! diagnostics as code frames, and the invariants every check must keep.

#![allow(dead_code)] // each test file uses a different part

use cal_checker::{Analysis, Params, analyze};
use cal_grammar::{Diagnostic, LineIndex};
use std::fmt::Write as _;

/// The codes listed on `-- expect: CAL-Exxx …` lines.
pub fn expected_codes(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("-- expect:"))
        .flat_map(|rest| rest.split_whitespace().map(str::to_string))
        .collect()
}

/// The bindings of `-- param: name=value` lines; `-- params: none` means "bindings given, empty".
/// `None` when the case says nothing about parameters.
pub fn params_of(src: &str) -> Option<Params> {
    let args: Vec<&str> = src.lines().filter_map(|l| l.trim().strip_prefix("-- param:")).map(str::trim).collect();
    let empty = src.lines().any(|l| l.trim() == "-- params: none");
    if args.is_empty() && !empty {
        return None;
    }
    Some(Params::from_args(args).expect("valid -- param: lines"))
}

/// A diagnostic as a code frame, with everything it carries.
pub fn frame(src: &str, d: &Diagnostic) -> String {
    let index = LineIndex::new(src);
    let pos = index.position(d.span);
    let line_text = src.lines().nth(pos.line as usize - 1).unwrap_or("");
    let covered = src.get(pos.start as usize..pos.end as usize).unwrap_or("");
    let width = covered.chars().take_while(|c| *c != '\n').count().max(1);
    let mut out = String::new();
    let _ = writeln!(out, "{}[{}]: {}", if d.is_error() { "error" } else { "warning" }, d.code, d.message);
    let _ = writeln!(out, "  --> {}:{}", pos.line, pos.col);
    let _ = writeln!(out, "   | {line_text}");
    let _ = writeln!(out, "   | {}{}", " ".repeat(pos.col as usize - 1), "^".repeat(width));
    if let Some(s) = &d.suggestion {
        let _ = writeln!(out, "   = help: {s}");
    }
    if let Some(r) = &d.replacement {
        let _ = writeln!(out, "   = fix: replace with `{r}`");
    }
    if let Some(e) = &d.example {
        let _ = writeln!(out, "   = example: {e}");
    }
    if !d.valid_values.is_empty() {
        let shown: Vec<&str> = d.valid_values.iter().take(40).map(String::as_str).collect();
        let more = d.valid_values.len().saturating_sub(shown.len());
        let tail = if more > 0 { format!(", … ({more} more)") } else { String::new() };
        let _ = writeln!(out, "   = valid values: {}{tail}", shown.join(", "));
    }
    for l in &d.labels {
        let p = index.position(l.span);
        let _ = writeln!(out, "   = note: {} at {}:{}", l.message, p.line, p.col);
    }
    out
}

/// Spans inside the text on character boundaries, diagnostics in source order,
/// every error with a suggestion (§22.1).
pub fn check_invariants(name: &str, src: &str, a: &Analysis) {
    let mut last = 0;
    for d in &a.diagnostics {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(s <= e && e <= src.len(), "{name}: span {:?} out of bounds", d.span);
        assert!(src.is_char_boundary(s) && src.is_char_boundary(e), "{name}: span {:?} not on a char boundary", d.span);
        assert!(s >= last, "{name}: diagnostics out of order at {:?}", d.span);
        last = s;
        for l in &d.labels {
            assert!(l.span.end as usize <= src.len(), "{name}: label span {:?} out of bounds", l.span);
        }
        assert!(!d.message.is_empty(), "{name}: empty message");
    }
}

/// Applying a diagnostic's replacement removes that diagnostic: no diagnostic with the
/// same code starts where it started. Parse-phase fixes are the parser's business.
pub fn check_replacements(name: &str, src: &str, a: &Analysis, params: Option<&Params>) {
    for d in &a.diagnostics {
        let Some(fix) = &d.replacement else { continue };
        if d.code.info().phase != cal_grammar::Phase::Check {
            continue;
        }
        let fixed = format!("{}{}{}", &src[..d.span.start as usize], fix, &src[d.span.end as usize..]);
        let again = analyze(&fixed, params);
        let same = again
            .diagnostics
            .iter()
            .find(|o| o.code == d.code && o.span.start == d.span.start && o.message == d.message);
        assert!(same.is_none(), "{name}: applying the fix `{fix}` for {} did not remove it:\n{fixed}", d.code);
    }
}
