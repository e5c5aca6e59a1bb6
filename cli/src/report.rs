//! `cal check`'s reports for programs: JSON (§22.1 objects with the file, end positions and
//! the quick fixes), GitHub Actions annotations and SARIF 2.1.0. Code frames for people are
//! in [`crate::render`].
//!
//! Positions are counted on the input's bytes, lines and characters, an invalid byte
//! counting as one character ([`display_source`]); columns are 1-based characters.

use crate::commands::check::Checked;
use cal_grammar::display::{display_source, escape_for_display};
use cal_grammar::{Diagnostic, LineIndex, Span};
use cal_lsp::engine::actions::{Action, actions};
use serde_json::{Value, json};

/// A diagnostic's start and end as 1-based (line, column) pairs.
fn ends(index: &LineIndex<'_>, span: Span) -> ((u32, u32), (u32, u32)) {
    let start = index.position(span);
    let end = index.position(Span::new(span.end as usize, span.end as usize));
    ((start.line, start.col), (end.line, end.col))
}

/// The quick fixes of one input, each with the diagnostic it fixes: the language server's
/// preferred actions (a diagnostic's machine-applicable replacement), the ones `--fix` applies.
fn fixes(shown: &str, diagnostics: &[Diagnostic]) -> Vec<Action> {
    actions(shown, None, diagnostics, Span::new(0, shown.len()))
}

/// `{"ok": bool, "diagnostics": [...]}`: each diagnostic is [`Diagnostic::to_json`] plus
/// `"file"`, `position.end_line`/`end_col`, and `"fixes"` (title and edits with positions).
pub fn json(checked: &[Checked]) -> Value {
    let mut all = Vec::new();
    for c in checked {
        let shown = display_source(&c.bytes);
        let index = LineIndex::new(&shown);
        let fixes = fixes(&shown, &c.diagnostics);
        for d in &c.diagnostics {
            let mut obj = d.to_json(&index);
            let (_, (end_line, end_col)) = ends(&index, d.span);
            obj["file"] = json!(c.name);
            if let Some(p) = obj.get_mut("position").and_then(Value::as_object_mut) {
                p.insert("end_line".into(), json!(end_line));
                p.insert("end_col".into(), json!(end_col));
            }
            let mine: Vec<Value> = fixes
                .iter()
                .filter(|a| &a.diagnostic == d)
                .map(|a| {
                    let edits: Vec<Value> = a
                        .edits
                        .iter()
                        .map(|e| {
                            let ((line, col), (end_line, end_col)) = ends(&index, e.span);
                            json!({
                                "start": e.span.start, "end": e.span.end,
                                "line": line, "col": col, "end_line": end_line, "end_col": end_col,
                                "text": e.text,
                            })
                        })
                        .collect();
                    json!({ "title": escape_for_display(&a.title), "edits": edits })
                })
                .collect();
            if !mine.is_empty() {
                obj["fixes"] = Value::Array(mine);
            }
            all.push(obj);
        }
    }
    json!({ "ok": !checked.iter().any(|c| c.diagnostics.iter().any(Diagnostic::is_error)), "diagnostics": all })
}

/// Escapes a GitHub workflow command's message (`%`, CR, LF) or, with `property`, a property
/// value (also `:` and `,`).
fn gh_escape(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape_for_display(s).chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// One GitHub Actions annotation per diagnostic:
/// `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=CAL-E003::message`.
pub fn github(checked: &[Checked]) -> String {
    let mut out = String::new();
    for c in checked {
        let shown = display_source(&c.bytes);
        let index = LineIndex::new(&shown);
        for d in &c.diagnostics {
            let ((line, col), (end_line, end_col)) = ends(&index, d.span);
            let level = if d.is_error() { "error" } else { "warning" };
            out.push_str(&format!(
                "::{level} file={},line={line},col={col},endLine={end_line},endColumn={end_col},title={}::{}\n",
                gh_escape(&c.name, true),
                gh_escape(&annotation_title(d.code), true),
                gh_escape(&format!("{} {}", d.message, d.suggestion_or_default()), false),
            ));
        }
    }
    out
}

/// A SARIF 2.1.0 log with one run: a rule per code that occurs, a result per diagnostic,
/// with its region and, when there is one, its fix.
pub fn sarif(checked: &[Checked]) -> Value {
    let mut codes: Vec<cal_grammar::Code> = checked.iter().flat_map(|c| c.diagnostics.iter().map(|d| d.code)).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|code| {
            let info = code.info();
            json!({
                "id": code.as_str(),
                "name": info.name,
                "shortDescription": { "text": info.title },
                "properties": { "section": format!("§{}", info.section) },
            })
        })
        .collect();
    let mut results = Vec::new();
    for c in checked {
        let shown = display_source(&c.bytes);
        let index = LineIndex::new(&shown);
        let fixes = fixes(&shown, &c.diagnostics);
        let region = |span: Span| {
            let ((line, col), (end_line, end_col)) = ends(&index, span);
            json!({ "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col })
        };
        let location = json!({ "uri": c.name.replace('\\', "/") });
        for d in &c.diagnostics {
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": codes.iter().position(|x| *x == d.code),
                "level": if d.is_error() { "error" } else { "warning" },
                "message": { "text": escape_for_display(&format!("{} {}", d.message, d.suggestion_or_default())) },
                "locations": [{ "physicalLocation": { "artifactLocation": location, "region": region(d.span) } }],
            });
            let mine: Vec<Value> = fixes
                .iter()
                .filter(|a| &a.diagnostic == d)
                .map(|a| {
                    let replacements: Vec<Value> = a
                        .edits
                        .iter()
                        .map(|e| json!({ "deletedRegion": region(e.span), "insertedContent": { "text": e.text } }))
                        .collect();
                    json!({
                        "description": { "text": escape_for_display(&a.title) },
                        "artifactChanges": [{ "artifactLocation": location, "replacements": replacements }],
                    })
                })
                .collect();
            if !mine.is_empty() {
                result["fixes"] = Value::Array(mine);
            }
            results.push(result);
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "cal",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// A GitHub annotation's title: the code and what it means in words (`CAL-E043 too many
/// evolve operations`), never the registry's internal name (`AmbiguousShortcut`).
fn annotation_title(code: cal_grammar::Code) -> String {
    match crate::render::title_words(code).as_str() {
        "here" => code.to_string(),
        words => format!("{code} {words}"),
    }
}
