//! Showing diagnostics to people (ariadne code frames) and to programs (`--json`).
//!
//! This is the only place in the toolchain that turns a [`Diagnostic`] into
//! terminal text; colour is used only when the stream is a terminal.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use cal_grammar::display::{display_source, escape_for_display};
use cal_grammar::{Diagnostic, LineIndex, Severity};
use serde_json::{Value, json};
use std::io::{IsTerminal, Write};

/// Writes every diagnostic as a code frame to standard error.
///
/// `source` is the input as read, bytes: invalid UTF-8, bidi and control characters are
/// drawn as placeholders at their own offsets ([`display_source`]), so that a span of
/// CAL-E070 or CAL-E071 frames what it names and the terminal never receives them.
pub fn eprint_diagnostics(name: &str, source: &[u8], diagnostics: &[Diagnostic]) {
    let color = std::io::stderr().is_terminal();
    let mut err = std::io::stderr().lock();
    let shown = display_source(source);
    for d in diagnostics {
        let _ = write_report(name, &shown, d, color, &mut err);
    }
}

/// Renders one diagnostic as an ariadne report into `out`; `source` is already safe to
/// show ([`display_source`]), the diagnostic's texts are escaped here.
pub fn write_report(
    name: &str,
    source: &str,
    d: &Diagnostic,
    color: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let (kind, paint) = match d.severity {
        Severity::Error => (ReportKind::Error, Color::Red),
        Severity::Warning => (ReportKind::Warning, Color::Yellow),
    };
    let range = d.span.range();
    let config = Config::default().with_index_type(IndexType::Byte).with_color(color);
    let mut report = Report::build(kind, (name, range.clone()))
        .with_config(config)
        .with_code(d.code.as_str())
        .with_message(escape_for_display(&d.message))
        .with_label(Label::new((name, range)).with_message(escape_for_display(&label_text(d))).with_color(paint));
    for l in &d.labels {
        let message = escape_for_display(&l.message);
        report = report.with_label(Label::new((name, l.span.range())).with_message(message).with_color(Color::Blue));
    }
    report = report.with_help(escape_for_display(&d.suggestion_or_default()));
    if let Some(example) = &d.example {
        report = report.with_note(format!("example: {}", escape_for_display(example)));
    }
    if !d.valid_values.is_empty() {
        report = report.with_note(format!("valid values: {}", d.valid_values.join(", ")));
    }
    report.finish().write((name, Source::from(source)), out)
}

fn label_text(d: &Diagnostic) -> String {
    match &d.replacement {
        Some(r) if r.is_empty() => "remove this".to_string(),
        Some(r) => format!("try `{r}`"),
        None => d.code.info().name.to_string(),
    }
}

/// The `--json` report: `{"ok": bool, "diagnostics": [ §22.1 error objects + "severity" ]}`.
/// Positions are counted on the input's bytes, lines and characters, an invalid byte
/// counting as one character ([`display_source`]).
pub fn json_report(source: &[u8], diagnostics: &[Diagnostic]) -> Value {
    let shown = display_source(source);
    let index = LineIndex::new(&shown);
    json!({
        "ok": !diagnostics.iter().any(Diagnostic::is_error),
        "diagnostics": diagnostics.iter().map(|d| d.to_json(&index)).collect::<Vec<_>>(),
    })
}
