//! `textDocument/signatureHelp` inside a WITH option's parentheses
//! (`diversity(`, `consistency(`, `progressive_disclosure(`, `dedup(`,
//! `locale(`, `cache(`): the option's argument syntax from the EBNF.

use super::context::{self, Tok};
use super::{docs, ebnf};
use cal_grammar::WithOptionName;

/// The signature to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// `diversity(mmr [, lambda = number] | threshold, number)`.
    pub label: String,
    /// Markdown.
    pub documentation: String,
    /// How many top-level commas precede the cursor inside the parentheses.
    pub active_parameter: u32,
}

/// Signature help at `offset`, when it is inside the parentheses of a WITH option.
pub fn signature(text: &str, offset: usize) -> Option<Signature> {
    let all = context::tokens_near(text, offset);
    let before: Vec<&Tok> = all.iter().filter(|t| (t.span.end as usize) <= offset).collect();
    let mut depth = 0usize;
    let mut commas = 0u32;
    for (i, t) in before.iter().enumerate().rev() {
        if t.is(";") {
            return None;
        }
        if t.is(")") {
            depth += 1;
        } else if t.is("(") {
            if depth == 0 {
                let name = before.get(i.checked_sub(1)?)?.ident()?;
                WithOptionName::from_word(name)?;
                return Some(Signature {
                    label: format!("{name}({})", arguments(name)),
                    documentation: docs::with_option(name),
                    active_parameter: commas,
                });
            }
            depth -= 1;
        } else if t.is(",") && depth == 0 {
            commas += 1;
        }
    }
    None
}

/// The argument syntax of an option, from its `with_option` alternative in the EBNF.
fn arguments(name: &str) -> String {
    let text = ebnf::rule("with_option").map_or("", |r| r.text.as_str());
    let quoted = format!("\"{name}\" , \"(\" ,");
    let Some(i) = text.find(&quoted) else { return String::new() };
    let rest = &text[i + quoted.len()..];
    let end = rest.find("\")\"").unwrap_or(rest.len());
    let inner = rest[..end].trim().trim_end_matches(',').trim();
    match ebnf::rule(inner) {
        Some(r) => r.text.split_once('=').map_or("", |(_, b)| b).trim().trim_end_matches(';').trim().to_string(),
        None => inner.to_string(),
    }
}
