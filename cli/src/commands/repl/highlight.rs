//! Colours for the entry being typed, from the language server's semantic tokens
//! (`cal_lsp::engine::semantic`), so the prompt and an editor colour CAL alike. Used only
//! when colour is on (`--color`, NO_COLOR, FORCE_COLOR: [`crate::render::color`]).

use cal_lsp::engine::semantic;
use nu_ansi_term::{Color, Style};
use reedline::{Highlighter, StyledText};

/// The highlighter the line editor calls on every keystroke.
pub struct CalHighlighter;

impl Highlighter for CalHighlighter {
    fn highlight(&self, line: &str, _cursor: usize) -> StyledText {
        let mut styled = StyledText::new();
        for (style, piece) in pieces(line) {
            styled.push((style, piece.to_string()));
        }
        styled
    }
}

/// `entry` cut into styled pieces that cover it exactly, in order: the command word of a
/// `:` command, then the CAL text's tokens ([`super::cal_start`]).
fn pieces(entry: &str) -> Vec<(Style, &str)> {
    let mut out = Vec::new();
    let start = super::cal_start(entry).unwrap_or(entry.len());
    if start > 0 {
        out.push((Style::new().fg(Color::Cyan), &entry[..start]));
    }
    let text = &entry[start..];
    let mut at = 0;
    for token in semantic::tokens(text) {
        let (from, to) = (token.span.start as usize, token.span.end as usize);
        // Tokens come in source order; one that does not (or is off a character boundary)
        // is left uncoloured rather than drawn twice.
        let (Some(gap), Some(word)) = (text.get(at..from), text.get(from..to)) else { continue };
        if !gap.is_empty() {
            out.push((Style::new(), gap));
        }
        out.push((style(token.kind), word));
        at = to;
    }
    if at < text.len() {
        out.push((Style::new(), &text[at..]));
    }
    out
}

/// The style of a semantic token type (an index into [`semantic::LEGEND`]).
fn style(kind: u32) -> Style {
    match semantic::LEGEND.get(kind as usize).copied() {
        Some("keyword") => Style::new().bold().fg(Color::Blue),
        Some("type" | "enumMember") => Style::new().fg(Color::Cyan),
        Some("property") => Style::new().fg(Color::Green),
        Some("string") => Style::new().fg(Color::Yellow),
        Some("number") => Style::new().fg(Color::Purple),
        Some("comment") => Style::new().fg(Color::DarkGray),
        _ => Style::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Color, Style, pieces};

    #[test]
    fn the_pieces_cover_the_entry_and_keywords_are_coloured() {
        for entry in ["RECALL beliefs ABOUT \"alice\" RECENT 5; -- note", ":explain RECALL beliefs", ":help", "", "\"é"]
        {
            let joined: String = pieces(entry).iter().map(|(_, p)| *p).collect();
            assert_eq!(joined, entry);
        }
        let p = pieces("RECALL beliefs");
        assert_eq!(p[0], (Style::new().bold().fg(Color::Blue), "RECALL"));
    }
}
