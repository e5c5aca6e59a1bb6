//! The `lsp_session` target: a session of editor requests against the language server's
//! engine (`cal_lsp::engine`), in process, as the server makes them for `didOpen`,
//! `didChange` (ranged and whole), `completion`, `hover`, `signatureHelp`,
//! `documentSymbol`, `semanticTokens/full`, `formatting`, `rename`, `references`,
//! `codeAction` and `publishDiagnostics`, with fuzzed text and positions in either position
//! encoding. Never panic, and every answer is well-formed: each span lies inside the
//! current text on character boundaries and converts to a position that converts back to
//! it; semantic tokens are in order and do not overlap; symbol selections lie inside their
//! symbol; formatting and rename edits do not overlap.

use arbitrary::{Result, Unstructured};
use cal_grammar::Span;
use cal_lsp::engine::{self, Document, Edit, Encoding, Lines};

/// One request or notification, positions as the client sends them.
#[derive(Debug)]
enum Op {
    Change { start: (u8, u16), end: (u8, u16), text: String },
    Replace(String),
    Insert { at: (u8, u16), piece: Piece },
    Complete((u8, u16)),
    Hover((u8, u16)),
    Signature((u8, u16)),
    Symbols,
    Semantic,
    Format,
    FormatRange((u8, u16), (u8, u16)),
    Rename((u8, u16), String),
    References((u8, u16)),
    Actions((u8, u16), (u8, u16)),
    Diagnostics,
}

/// Pieces of CAL typed into the document, so that sessions reach real queries quickly.
#[derive(Debug, Clone, Copy)]
enum Piece {
    Recall,
    Where,
    With,
    Assemble,
    Let,
    Semicolon,
    Pipe,
    Quote,
    Paren,
    Template,
}

/// A position as a client sends it: a line and a character.
fn pos(u: &mut Unstructured<'_>) -> Result<(u8, u16)> {
    Ok((u.arbitrary()?, u.arbitrary()?))
}

impl Op {
    /// The next operation of a session, from the fuzzer's bytes.
    fn read(u: &mut Unstructured<'_>) -> Result<Op> {
        Ok(match u.int_in_range(0u8..=13)? {
            0 => Op::Change { start: pos(u)?, end: pos(u)?, text: u.arbitrary()? },
            1 => Op::Replace(u.arbitrary()?),
            2 => Op::Insert { at: pos(u)?, piece: Piece::ALL[usize::from(u.int_in_range(0u8..=9)?)] },
            3 => Op::Complete(pos(u)?),
            4 => Op::Hover(pos(u)?),
            5 => Op::Signature(pos(u)?),
            6 => Op::Symbols,
            7 => Op::Semantic,
            8 => Op::Format,
            9 => Op::FormatRange(pos(u)?, pos(u)?),
            10 => Op::Rename(pos(u)?, u.arbitrary()?),
            11 => Op::References(pos(u)?),
            12 => Op::Actions(pos(u)?, pos(u)?),
            _ => Op::Diagnostics,
        })
    }
}

impl Piece {
    const ALL: [Piece; 10] = [
        Piece::Recall,
        Piece::Where,
        Piece::With,
        Piece::Assemble,
        Piece::Let,
        Piece::Semicolon,
        Piece::Pipe,
        Piece::Quote,
        Piece::Paren,
        Piece::Template,
    ];

    fn text(self) -> &'static str {
        match self {
            Piece::Recall => "RECALL beliefs ABOUT \"alice\" ",
            Piece::Where => "WHERE subject = \"bob\" AND confidence > 0.5 ",
            Piece::With => "WITH diversity(mmr, lambda = 0.5) ",
            Piece::Assemble => {
                "ASSEMBLE ctx FOR \"x\" FROM a: (RECALL goals), b: $p BUDGET 500 tokens PRIORITY a > b FORMAT sml"
            }
            Piece::Let => "LET $p = RECALL events RECENT 3;\n",
            Piece::Semicolon => ";\n",
            Piece::Pipe => "| LIMIT 5 | SELECT subject ",
            Piece::Quote => "\"é\u{1F600}",
            Piece::Paren => "(",
            Piece::Template => "DEFINE TEMPLATE t ELEMENT { {{grain.subject}} }",
        }
    }
}

fn check_span(text: &str, lines: &Lines<'_>, span: Span, what: &str) {
    let (a, b) = (span.start as usize, span.end as usize);
    assert!(a <= b && b <= text.len(), "{what}: {span:?} outside a text of {} bytes", text.len());
    assert!(text.is_char_boundary(a) && text.is_char_boundary(b), "{what}: {span:?} splits a character");
    let ((l1, c1), (l2, c2)) = lines.range(span);
    assert_eq!(lines.offset(l1, c1), span.start, "{what}: start does not convert back");
    assert_eq!(lines.offset(l2, c2), span.end, "{what}: end does not convert back");
}

fn check_edits(text: &str, lines: &Lines<'_>, edits: &[Edit], what: &str) {
    let mut spans: Vec<Span> = edits.iter().map(|e| e.span).collect();
    spans.sort_by_key(|s| (s.start, s.end));
    for s in &spans {
        check_span(text, lines, *s, what);
    }
    for w in spans.windows(2) {
        assert!(w[0].end <= w[1].start, "{what}: overlapping edits {w:?}");
    }
}

/// Runs one session (see the module documentation).
pub fn lsp_session(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let encoding = if u.arbitrary::<bool>().unwrap_or(false) { Encoding::Utf8 } else { Encoding::Utf16 };
    let Ok(text) = u.arbitrary::<String>() else { return };
    let mut doc = Document::new(text, 1);
    let mut version = 1;
    for _ in 0..24 {
        let Ok(op) = Op::read(&mut u) else { break };
        let lines = Lines::new(&doc.text, encoding);
        let at = |(l, c): (u8, u16)| lines.offset(u32::from(l), u32::from(c)) as usize;
        let text = doc.text.as_str();
        match op {
            Op::Change { start, end, text: new } => {
                doc.apply_change(
                    (u32::from(start.0), u32::from(start.1)),
                    (u32::from(end.0), u32::from(end.1)),
                    &new,
                    encoding,
                );
                version += 1;
                doc.set_version(version);
            }
            Op::Insert { at: p, piece } => {
                let p = (u32::from(p.0), u32::from(p.1));
                doc.apply_change(p, p, piece.text(), encoding);
                version += 1;
                doc.set_version(version);
            }
            Op::Replace(new) => {
                version += 1;
                doc.replace_all(new, version);
            }
            Op::Complete(p) => {
                let c = engine::completion::complete(text, at(p));
                check_span(text, &lines, c.replace, "completion");
            }
            Op::Hover(p) => {
                if !doc.is_fresh() {
                    doc.analyze();
                }
                let text = doc.text.as_str();
                let lines = Lines::new(text, encoding);
                let offset = lines.offset(u32::from(p.0), u32::from(p.1)) as usize;
                if let Some(h) = engine::hover::hover(text, doc.analysis.document.as_ref(), offset) {
                    check_span(text, &lines, h.span, "hover");
                }
            }
            Op::Signature(p) => {
                let _ = engine::signature::signature(text, at(p));
            }
            Op::Symbols | Op::Diagnostics => {
                if !doc.is_fresh() {
                    doc.analyze();
                }
                let text = doc.text.as_str();
                let lines = Lines::new(text, encoding);
                for s in doc.analysis.document.as_ref().map(engine::symbols::symbols).unwrap_or_default() {
                    check_span(text, &lines, s.span, "symbol");
                    check_span(text, &lines, s.selection, "symbol selection");
                    assert!(s.span.start <= s.selection.start && s.selection.end <= s.span.end, "selection outside");
                }
                for d in engine::diagnostics::diagnostics(&doc) {
                    check_span(text, &lines, d.span, "diagnostic");
                }
            }
            Op::Semantic => {
                let tokens = engine::semantic::tokens(text);
                for t in &tokens {
                    check_span(text, &lines, t.span, "semantic token");
                    assert!((t.kind as usize) < engine::semantic::LEGEND.len(), "kind outside the legend");
                }
                for w in tokens.windows(2) {
                    assert!(w[0].span.end <= w[1].span.start, "semantic tokens overlap or are out of order");
                }
            }
            Op::Format => check_edits(text, &lines, &engine::format::format(text, None), "format"),
            Op::FormatRange(a, b) => {
                let (a, b) = (at(a).min(at(b)), at(a).max(at(b)));
                check_edits(text, &lines, &engine::format::format(text, Some(Span::new(a, b))), "range format");
            }
            Op::Rename(p, name) => {
                if let Ok(edits) = engine::names::rename(text, at(p), &name) {
                    check_edits(text, &lines, &edits, "rename");
                }
            }
            Op::References(p) => {
                if let Some(o) = engine::names::occurrences(text, at(p)) {
                    check_span(text, &lines, o.definition, "definition");
                    for r in &o.references {
                        check_span(text, &lines, *r, "reference");
                    }
                }
            }
            Op::Actions(a, b) => {
                if !doc.is_fresh() {
                    doc.analyze();
                }
                let text = doc.text.as_str();
                let lines = Lines::new(text, encoding);
                let a = lines.offset(u32::from(a.0), u32::from(a.1)) as usize;
                let b = lines.offset(u32::from(b.0), u32::from(b.1)) as usize;
                let range = Span::new(a.min(b), a.max(b));
                for action in
                    engine::actions::actions(text, doc.analysis.document.as_ref(), &doc.analysis.diagnostics, range)
                {
                    for e in &action.edits {
                        check_span(text, &lines, e.span, "code action");
                    }
                }
            }
        }
    }
}
