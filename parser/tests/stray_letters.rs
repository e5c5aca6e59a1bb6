//! A look-alike letter in a keyword or name (Greek `Ε`, Cyrillic `е`) is one
//! mistake: the lexer rejects the letter and splits the word there, and the
//! parser does not also report the ASCII fragments it is left with
//! (docs/spec-decisions.md E1; conformance `parse.i18n.ascii_identifiers.*`).

use cal_grammar::{Code, Span};
use cal_parser::{glued_to_stray_letter, is_stray_letter, parse_document, parse_query};

fn errors(text: &str) -> Vec<(Code, Span)> {
    parse_query(text).diagnostics.iter().map(|d| (d.code, d.span)).collect()
}

#[test]
fn only_the_letter_is_reported() {
    assert_eq!(errors("RΕCALL beliefs"), [(Code::E002, Span::new(1, 3))]);
    assert_eq!(errors("RECALL beliefs | LIMΙT 5"), [(Code::E002, Span::new(20, 22))]);
    let doc = parse_document("RECALL beliefs;\nRΕCALL goals");
    let spans: Vec<Span> = doc.diagnostics.iter().map(|d| d.span).collect();
    assert_eq!(spans, [Span::new(17, 19)]);
}

#[test]
fn fragments_are_words_touching_the_letter() {
    let text = "RΕCALL beliefs";
    let stray = Span::new(1, 3);
    assert!(is_stray_letter(text, stray));
    assert!(!is_stray_letter(text, Span::new(0, 1)), "an ASCII letter is not stray");
    assert!(!is_stray_letter("a → b", Span::new(2, 5)), "a non-letter is not a look-alike");
    assert!(glued_to_stray_letter(text, Span::new(0, 1), stray));
    assert!(glued_to_stray_letter(text, Span::new(3, 7), stray));
    assert!(!glued_to_stray_letter(text, Span::new(8, 15), stray), "a word elsewhere");
    assert!(!glued_to_stray_letter(text, stray, stray), "the letter's own diagnostic stays");
    assert!(!glued_to_stray_letter(text, Span::empty(1), stray), "an empty span is no fragment");
}

#[test]
fn a_letter_inside_a_string_is_no_mistake() {
    assert!(errors(r#"RECALL beliefs ABOUT "Εlena""#).is_empty());
}
