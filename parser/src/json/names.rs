//! Lexical checks on names and raw text that come from JSON.
//!
//! The schema's patterns say what a name looks like; they cannot say that
//! `count` is a keyword, that `Recall` as a label would be read back as
//! `recall`, or that a template body has balanced braces. These checks ask the
//! lexer itself how the printed text will read back, so that everything the
//! JSON decoder accepts survives JSON → text → JSON unchanged.

use cal_grammar::{Keyword, is_reserved};
use cal_lexer::{Token, lex};

/// Tokens of `text` when it lexes without any diagnostic.
fn clean_tokens(text: &str) -> Option<Vec<Token<'_>>> {
    let lexed = lex(text);
    lexed.diagnostics.is_empty().then(|| lexed.tokens.into_iter().map(|(t, _)| t).collect())
}

/// A field name: one word that is not a keyword (`scope` excepted, the parser
/// reads the consent field through the keyword), or a domain field `prefix:name`.
pub(crate) fn is_field(name: &str) -> bool {
    if name == cal_grammar::fields::names::SCOPE {
        return true;
    }
    matches!(
        clean_tokens(name).as_deref(),
        Some([Token::Ident(w)]) if *w == name
    ) || matches!(
        clean_tokens(name).as_deref(),
        Some([Token::Ident(p), Token::Colon, Token::Ident(n)]) if p.len() + 1 + n.len() == name.len()
    ) || matches!(
        // A domain field named like a keyword, written flush and in lower case (ruling L10).
        clean_tokens(name).as_deref(),
        Some([Token::Ident(p), Token::Colon, Token::Kw(k)])
            if !crate::syntax::starts_statement(*k)
                && name.as_bytes().get(p.len()) == Some(&b':')
                && name[p.len() + 1..].bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    )
}

/// One word that is not a keyword (template references, EXTENDS, extension options).
pub(crate) fn is_word(name: &str) -> bool {
    matches!(clean_tokens(name).as_deref(), Some([Token::Ident(w)]) if *w == name)
}

/// Why `name` cannot be a context or template name, if it cannot.
pub(crate) fn user_name_problem(name: &str) -> Option<String> {
    if !is_word(name) || is_reserved(name) {
        return Some(format!("`{name}` is a reserved word (Appendix D) and cannot be used as a name."));
    }
    None
}

/// Why `name` cannot be a label, if it cannot. Labels may be keywords, which
/// the parser normalizes to lower case, so only the lower-case spelling reads back.
pub(crate) fn label_problem(name: &str) -> Option<String> {
    let text = format!("{name}:");
    match clean_tokens(&text).as_deref() {
        Some([Token::Ident(w), Token::Colon]) if *w == name => None,
        Some([Token::Kw(k), Token::Colon]) if k.as_str().to_ascii_lowercase() == name => None,
        Some([Token::Kw(k), Token::Colon]) => Some(format!(
            "`{name}` is the keyword {}; a keyword used as a label is written in lower case (`{}`).",
            k.as_str(),
            k.as_str().to_ascii_lowercase()
        )),
        _ => Some(format!("`{name}` cannot be a label: it does not read back as a name in CAL text.")),
    }
}

/// True when `text` is a template section body the lexer captures whole:
/// braces balanced, Mustache tags closed.
pub(crate) fn is_template_text(text: &str) -> bool {
    let source = format!("HEADER {{{text}}}");
    matches!(
        clean_tokens(&source).as_deref(),
        Some([Token::Kw(Keyword::Header), Token::LBrace, Token::TemplateText(t), Token::RBrace]) if *t == text
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        // `hc:count` and `hc:key`: a domain field may be named like a keyword or an excluded word (ruling L10).
        for ok in ["subject", "hc:patient_id", "scope", "x_department", "consent", "hc:count", "hc:key"] {
            assert!(is_field(ok), "{ok}");
        }
        for bad in ["count", "SCOPE", "true", "delete", "sha256:abcdef01", "hc:COUNT", "hc: count", "hc:KEY", "a b", ""]
        {
            assert!(!is_field(bad), "{bad}");
        }
    }

    #[test]
    fn labels() {
        assert_eq!(label_problem("history"), None);
        assert_eq!(label_problem("beliefs"), None);
        assert!(label_problem("History").is_some());
        assert!(label_problem("sha256").is_some());
        assert!(label_problem("delete").is_some());
    }

    #[test]
    fn user_names() {
        assert_eq!(user_name_problem("user_context"), None);
        assert!(user_name_problem("depth").is_some());
        assert!(user_name_problem("recall").is_some());
    }

    #[test]
    fn template_text() {
        assert!(is_template_text("\n  <{{grain.type}}>{{grain.content}}</{{grain.type}}>\n"));
        assert!(is_template_text(" {nested} "));
        assert!(is_template_text(""));
        assert!(!is_template_text(" } "));
        assert!(!is_template_text(" { "));
        assert!(!is_template_text("{{unclosed"));
    }
}
