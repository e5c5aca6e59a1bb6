//! The edge: engine answers (byte spans) to protocol types (positions in the
//! negotiated encoding), and back.

use crate::engine::completion::{Completion, ItemKind};
use crate::engine::diagnostics::EditorDiagnostic;
use crate::engine::symbols::{Symbol, SymbolKind as EngineSymbolKind};
use crate::engine::{Edit, Encoding, Lines};
use cal_grammar::{Severity, Span};
use tower_lsp_server::ls_types as lsp;

/// An LSP position from a byte offset.
pub fn position(lines: &Lines<'_>, offset: u32) -> lsp::Position {
    let (line, character) = lines.position(offset);
    lsp::Position { line, character }
}

/// An LSP range from a byte span.
pub fn range(lines: &Lines<'_>, span: Span) -> lsp::Range {
    lsp::Range { start: position(lines, span.start), end: position(lines, span.end) }
}

/// A byte offset from an LSP position.
pub fn offset(lines: &Lines<'_>, p: lsp::Position) -> usize {
    lines.offset(p.line, p.character) as usize
}

/// A byte span from an LSP range.
pub fn span(lines: &Lines<'_>, r: lsp::Range) -> Span {
    let (a, b) = (offset(lines, r.start), offset(lines, r.end));
    Span::new(a.min(b), a.max(b))
}

/// Text edits.
pub fn edits(lines: &Lines<'_>, edits: Vec<Edit>) -> Vec<lsp::TextEdit> {
    edits.into_iter().map(|e| lsp::TextEdit { range: range(lines, e.span), new_text: e.text }).collect()
}

/// A diagnostic with its code link and related information.
pub fn diagnostic(lines: &Lines<'_>, uri: &lsp::Uri, d: EditorDiagnostic) -> lsp::Diagnostic {
    let related = d
        .related
        .into_iter()
        .map(|(s, message)| lsp::DiagnosticRelatedInformation {
            location: lsp::Location { uri: uri.clone(), range: range(lines, s) },
            message,
        })
        .collect::<Vec<_>>();
    lsp::Diagnostic {
        range: range(lines, d.span),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        code_description: None,
        source: Some("cal".into()),
        message: d.message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// Completion items with their replace range.
pub fn completion(lines: &Lines<'_>, c: Completion) -> Vec<lsp::CompletionItem> {
    let replace = range(lines, c.replace);
    c.items
        .into_iter()
        .enumerate()
        .map(|(i, it)| lsp::CompletionItem {
            kind: Some(match it.kind {
                ItemKind::Keyword => lsp::CompletionItemKind::KEYWORD,
                ItemKind::Field => lsp::CompletionItemKind::FIELD,
                ItemKind::Enum => lsp::CompletionItemKind::ENUM_MEMBER,
                ItemKind::Operator => lsp::CompletionItemKind::OPERATOR,
                ItemKind::Value => lsp::CompletionItemKind::VALUE,
                ItemKind::Variable => lsp::CompletionItemKind::VARIABLE,
            }),
            detail: Some(it.detail),
            documentation: (!it.documentation.is_empty()).then_some({
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: it.documentation,
                })
            }),
            sort_text: Some(format!("{i:04}")),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                range: replace,
                new_text: it.insert.unwrap_or_else(|| it.label.clone()),
            })),
            label: it.label,
            ..Default::default()
        })
        .collect()
}

/// Document symbols, nested.
#[allow(deprecated)] // `deprecated` is a required field of the struct.
pub fn symbols(lines: &Lines<'_>, syms: Vec<Symbol>) -> Vec<lsp::DocumentSymbol> {
    syms.into_iter()
        .map(|s| {
            let r = range(lines, s.span);
            let sel = range(lines, s.selection);
            let inside = sel.start >= r.start && sel.end <= r.end;
            lsp::DocumentSymbol {
                name: if s.name.is_empty() { "?".into() } else { s.name },
                detail: (!s.detail.is_empty()).then_some(s.detail),
                kind: match s.kind {
                    EngineSymbolKind::Query => lsp::SymbolKind::FUNCTION,
                    EngineSymbolKind::Let => lsp::SymbolKind::VARIABLE,
                    EngineSymbolKind::Source => lsp::SymbolKind::FIELD,
                    EngineSymbolKind::Template => lsp::SymbolKind::CLASS,
                },
                tags: None,
                deprecated: None,
                range: r,
                selection_range: if inside { sel } else { r },
                children: (!s.children.is_empty()).then(|| symbols(lines, s.children)),
            }
        })
        .collect()
}

/// The encoding to use, from what the client offers (UTF-8 when offered, else UTF-16).
pub fn negotiate(params: &lsp::InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|o| o.contains(&lsp::PositionEncodingKind::UTF8)) { Encoding::Utf8 } else { Encoding::Utf16 }
}
