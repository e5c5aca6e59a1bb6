use super::*;
use cal_grammar::FutureReserved;

fn kinds(src: &str) -> Vec<Token<'_>> {
    lex(src).tokens.into_iter().map(|(t, _)| t).collect()
}

fn codes(src: &str) -> Vec<&'static str> {
    lex(src).diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// `plain` holds exactly when no string needs unescaping or normalizing and no
/// character outside ASCII could hide a bidi control; each way of clearing it.
#[test]
fn plain_texts() {
    let plain = |src: &str| lex(src).plain;
    assert!(plain(r#"RECALL beliefs ABOUT "alice" WHERE tags INCLUDE ["a", "b"] | LIMIT 5"#));
    assert!(plain("EXISTS sha256:a1b2c3d4 -- ascii comment"));
    assert!(plain(r#"RECALL ABOUT """#));
    // An escape, anywhere in a string.
    assert!(!plain(r#"RECALL ABOUT "say \"hi\"""#));
    assert!(!plain(r#"RECALL ABOUT "a long string, longer than eight bytes\\""#));
    // Non-ASCII in a string (before and after the first eight bytes), a comment,
    // rejected input, an abbreviated hash, a template body.
    assert!(!plain("RECALL ABOUT \"caf\u{e9}\""));
    assert!(!plain("RECALL ABOUT \"a string of some length \u{e9}\""));
    assert!(!plain("RECALL beliefs -- caf\u{e9}"));
    assert!(!plain("RECALL b\u{e9}liefs"));
    assert!(!plain("EXISTS sha256:a1b2c3d4\u{2026}"));
    assert!(!plain("DEFINE TEMPLATE t ELEMENT { {{subject}} }"));
    // Bidi controls are still found where they hide.
    for text in ["RECALL ABOUT \"a\u{202E}b\"", "RECALL beliefs -- \u{2066}", "RECALL \u{202E}beliefs"] {
        assert_eq!(codes(text).first(), Some(&"CAL-E071"), "{text:?}");
    }
}

#[test]
fn recycling_keeps_the_allocation() {
    let text = String::from("RECALL beliefs WHERE subject = \"alice\"");
    let lexed = lex(&text);
    let (ptr, capacity) = (lexed.tokens.as_ptr() as usize, lexed.tokens.capacity());
    let buffer = recycle(lexed.tokens);
    assert!(buffer.is_empty());
    assert_eq!((buffer.as_ptr() as usize, buffer.capacity()), (ptr, capacity));
    drop(text);
    // The buffer outlives the text it was made for and serves the next one.
    let next = String::from("EXISTS $x");
    let again = lex_into(&next, buffer);
    assert_eq!(again.tokens.as_ptr() as usize, ptr);
    assert_eq!(again.tokens.len(), 2);
}

#[test]
fn every_keyword_lexes_as_itself_in_any_case() {
    for k in Keyword::ALL {
        let upper = k.as_str();
        let lower = upper.to_ascii_lowercase();
        let mixed: String =
            upper.chars().enumerate().map(|(i, c)| if i % 2 == 0 { c } else { c.to_ascii_lowercase() }).collect();
        for w in [upper.to_string(), lower, mixed] {
            assert_eq!(kinds(&w), vec![Token::Kw(*k)], "{w}");
        }
    }
}

#[test]
fn every_excluded_word_is_rejected() {
    for e in ExcludedWord::ALL {
        let toks = kinds(e.as_str());
        assert_eq!(toks, vec![Token::Excluded(*e)], "{e}");
        let d = &lex(e.as_str()).diagnostics[0];
        assert_eq!(d.code, Code::E002);
        assert!(d.message.contains("cannot destroy or administer"), "{}", d.message);
    }
    // The grain type `consent` is a name, not the excluded word.
    assert_eq!(kinds("consent"), vec![Token::Ident("consent")]);
    assert_eq!(kinds("Consent"), vec![Token::Excluded(ExcludedWord::Consent)]);
}

#[test]
fn future_reserved_words_are_identifiers_to_the_lexer() {
    for w in FutureReserved::ALL {
        let lower = w.as_str().to_ascii_lowercase();
        assert!(matches!(kinds(&lower)[..], [Token::Ident(_)]), "{w}");
    }
}

#[test]
fn keywords_are_ascii_only() {
    // U+017F LATIN SMALL LETTER LONG S case-folds to `s`; it must not make a keyword (§16.6).
    let toks = kinds("\u{017F}ubjects");
    assert!(!toks.contains(&Token::Kw(Keyword::Subjects)), "{toks:?}");
    assert_eq!(codes("\u{017F}ubjects")[0], "CAL-E002");
}

#[test]
fn literals() {
    assert_eq!(
        kinds(r#"RECALL "a \"b\"" 0.8 -1 42 true $user sha256:a1b2c3d4"#),
        vec![
            Token::Kw(Keyword::Recall),
            Token::Str(r#"a \"b\""#),
            Token::Number("0.8"),
            Token::Number("-1"),
            Token::Number("42"),
            Token::Kw(Keyword::True),
            Token::Param("user"),
            Token::Hash("a1b2c3d4"),
        ]
    );
}

#[test]
fn operators_and_comments() {
    assert_eq!(
        kinds("a != b >= c -- comment >= here\n<= < > = | , ; : / ( ) [ ] { }"),
        vec![
            Token::Ident("a"),
            Token::Ne,
            Token::Ident("b"),
            Token::Ge,
            Token::Ident("c"),
            Token::Le,
            Token::Lt,
            Token::Gt,
            Token::Eq,
            Token::Pipe,
            Token::Comma,
            Token::Semicolon,
            Token::Colon,
            Token::Slash,
            Token::LParen,
            Token::RParen,
            Token::LBracket,
            Token::RBracket,
            Token::LBrace,
            Token::RBrace,
        ]
    );
}

#[test]
fn hash_literal_boundaries() {
    let ok8 = format!("sha256:{}", "a".repeat(8));
    let ok64 = format!("sha256:{}", "f".repeat(64));
    assert!(codes(&ok8).is_empty());
    assert!(codes(&ok64).is_empty());
    // Lower case only (docs/spec-decisions.md L4), in one E015 whose fix lower-cases it.
    assert_eq!(codes(&format!("sha256:{}", "F".repeat(64))), vec!["CAL-E015"]);
    assert_eq!(codes("sha256:a1B2c3D4"), vec!["CAL-E015"]);
    assert_eq!(codes(&format!("sha256:{}", "a".repeat(7))), vec!["CAL-E015"]);
    assert_eq!(codes(&format!("sha256:{}", "a".repeat(65))), vec!["CAL-E015"]);
    assert_eq!(codes("sha256:target_hash"), vec!["CAL-E015"]);
    assert_eq!(codes("sha256:"), vec!["CAL-E015"]);
    let l = lex("EXISTS sha256:xyz12345");
    assert_eq!(l.diagnostics[0].span, Span::new(7, 22));
}

#[test]
fn elided_examples_are_one_diagnostic() {
    // An abbreviated hash is one E015 covering the dots.
    let l = lex("HISTORY sha256:a1b2c3d4...");
    assert_eq!(codes("HISTORY sha256:a1b2c3d4..."), vec!["CAL-E015"]);
    assert_eq!(l.diagnostics[0].span, Span::new(8, 26));
    assert_eq!(l.tokens.len(), 2);
    assert_eq!(codes("EXISTS sha256:aaa\u{2026}"), vec!["CAL-E015"]);
    // A bare ellipsis is one E002, whatever its length.
    for (src, len) in [("RECALL ...", 3), ("RECALL ....", 4), ("RECALL \u{2026}", 3)] {
        let l = lex(src);
        assert_eq!(l.diagnostics.len(), 1, "{src}");
        assert_eq!(l.diagnostics[0].code, Code::E002);
        assert_eq!(l.diagnostics[0].span, Span::new(7, 7 + len), "{src}");
    }
    // One dot after a hash is not an ellipsis.
    assert_eq!(codes("sha256:a1b2c3d4."), vec!["CAL-E002"]);
}

#[test]
fn single_quoted_strings_are_one_error_with_the_fix() {
    let l = lex("RECALL ABOUT 'alice'");
    assert_eq!(l.diagnostics.len(), 1);
    assert_eq!(l.diagnostics[0].span, Span::new(13, 20));
    assert_eq!(l.diagnostics[0].replacement.as_deref(), Some("\"alice\""));
    // An apostrophe alone is still an unexpected character.
    assert_eq!(codes("RECALL ABOUT '"), vec!["CAL-E002"]);
}

#[test]
fn malformed_numbers_with_an_obvious_fix() {
    for (bad, fix) in [(".5", Some("0.5")), ("-.5", Some("-0.5")), ("1.", Some("1.0")), ("1.2.3", None), ("1e5", None)]
    {
        assert_eq!(lex(bad).diagnostics[0].replacement.as_deref(), fix, "{bad}");
    }
}

#[test]
fn malformed_numbers() {
    for bad in ["1.", "1.2.3", "12abc", "1e5", ".5", "-.5"] {
        let l = lex(bad);
        assert_eq!(l.diagnostics.len(), 1, "{bad}: {:?}", l.diagnostics);
        assert_eq!(l.diagnostics[0].code, Code::E006, "{bad}");
        assert_eq!(l.diagnostics[0].span, Span::new(0, bad.len()), "{bad}");
    }
    assert!(codes("LIMIT 10 | x").is_empty());
}

#[test]
fn unterminated_string_reaches_end_of_input() {
    let l = lex("RECALL ABOUT \"alice");
    assert_eq!(l.diagnostics[0].code, Code::E005);
    assert_eq!(l.diagnostics[0].span, Span::new(13, 19));
    let l = lex("RECALL ABOUT \"alice\\");
    assert_eq!(l.diagnostics[0].code, Code::E005);
}

#[test]
fn strings_may_span_lines() {
    assert_eq!(kinds("\"a\nb\""), vec![Token::Str("a\nb")]);
}

#[test]
fn template_sections_are_raw() {
    let src =
        "FORMAT TEMPLATE { ELEMENT { <{{grain.type}} s=\"{{grain.subject}}\">{{grain.content}}</{{grain.type}}> } }";
    let toks = kinds(src);
    assert_eq!(toks.len(), 8, "{toks:?}");
    assert!(matches!(toks[5], Token::TemplateText(t) if t.contains("{{grain.content}}")));
    assert_eq!(toks[6], Token::RBrace);
    assert_eq!(toks[7], Token::RBrace);
    let l = lex("HEADER { unclosed");
    assert_eq!(l.diagnostics[0].code, Code::E002);
}

/// Whitespace and comments may separate any two tokens (§3.5): also a section keyword and
/// the `{` of its body (found by the sentences derived from grammar/cal.ebnf, C38).
#[test]
fn a_comment_between_a_section_keyword_and_its_body() {
    for src in ["ELEMENT -- note\n{ x {{subject}} }", "ELEMENT\n  -- one\n -- two\n\t{ x {{subject}} }"] {
        let l = lex(src);
        assert!(l.diagnostics.is_empty(), "{src:?}: {:?}", l.diagnostics);
        let toks: Vec<Token> = l.tokens.iter().map(|(t, _)| *t).collect();
        assert_eq!(toks.len(), 4, "{toks:?}");
        assert!(matches!(toks[2], Token::TemplateText(" x {{subject}} ")), "{toks:?}");
    }
    // A comment that runs to the end of the text leaves no body to capture.
    assert!(!lex("ELEMENT -- only a comment").tokens.iter().any(|(t, _)| matches!(t, Token::TemplateText(_))));
}

#[test]
fn bidi_controls_are_reported_once() {
    let l = lex("RECALL \u{202E} ABOUT \"x\u{2066}\"");
    let c: Vec<_> = l.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(c, vec![Code::E071, Code::E071]);
}

#[test]
fn domain_fields_are_three_tokens() {
    assert_eq!(kinds("hc:patient_id"), vec![Token::Ident("hc"), Token::Colon, Token::Ident("patient_id")]);
}

#[test]
fn unexpected_characters_are_errors_and_lexing_goes_on() {
    let l = lex("RECALL @ beliefs");
    assert_eq!(l.diagnostics[0].code, Code::E002);
    assert_eq!(l.tokens.last().unwrap().0, Token::Ident("beliefs"));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn never_panics_and_spans_are_ordered_on_char_boundaries(src in "\\PC{0,80}") {
            let l = lex(&src);
            let mut last = 0u32;
            for (_, span) in &l.tokens {
                prop_assert!(span.start >= last && span.end >= span.start);
                prop_assert!(src.is_char_boundary(span.start as usize) && src.is_char_boundary(span.end as usize));
                last = span.end;
            }
            for d in &l.diagnostics {
                prop_assert!(src.is_char_boundary(d.span.start as usize) && src.is_char_boundary(d.span.end as usize));
            }
            // A text said to be plain has nothing outside ASCII, so no bidi control was skipped.
            prop_assert!(!l.plain || src.is_ascii());
        }

        #[test]
        fn cal_like_text_never_panics(src in "[a-zA-Z0-9_$:\"\\\\ .,;|(){}\\[\\]=<>!-]{0,60}") {
            let _ = lex(&src);
        }
    }
}

#[test]
fn classify_agrees_with_the_grammar_tables() {
    // keywords.rs is generated from grammar/src/vocab.rs (scripts/gen_keywords.py):
    // this fails when one of them changed without the other.
    for k in Keyword::ALL {
        let lower = k.as_str().to_ascii_lowercase();
        assert_eq!(keywords::classify(k.as_str()), Some(Token::Kw(*k)));
        assert_eq!(keywords::classify(&lower), Some(Token::Kw(*k)));
    }
    for e in ExcludedWord::ALL {
        assert_eq!(keywords::classify(e.as_str()), Some(Token::Excluded(*e)));
    }
    for w in ["beliefs", "subject", "recal", "recalls", "x", "", "element_summar", "_where"] {
        assert_eq!(keywords::classify(w), None, "{w}");
    }
}

mod scanner_agrees_with_logos {
    use super::*;
    use proptest::prelude::*;

    fn same(src: &str) -> Result<(), TestCaseError> {
        let fast = lex(src);
        let reference = crate::lex_with_logos(src);
        prop_assert_eq!(&fast.tokens, &reference.tokens, "{:?}", src);
        let codes = |l: &Lexed<'_>| l.diagnostics.iter().map(|d| (d.code, d.span)).collect::<Vec<_>>();
        prop_assert_eq!(codes(&fast), codes(&reference), "{:?}", src);
        if fast.plain {
            prop_assert!(src.is_ascii(), "{:?}", src);
            for (t, _) in &fast.tokens {
                if let Token::Str(raw) = t {
                    prop_assert!(!raw.contains('\\'), "{:?}", src);
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn on_cal_shaped_text(src in "([a-zA-Z_]{1,8}|[0-9]{1,4}|-?[0-9]\\.[0-9]|\"[a-z\\\\\" ]{0,6}\"?|\\$[a-z]{0,3}|sha256:[0-9a-fx]{0,70}|--[a-z ]{0,5}\n|[ \\n\\t]|[-(){}\\[\\],;:|/=!<>.'é\u{202E}]|ELEMENT \\{ [a-z{} ]{0,8}\\}){0,30}") {
            same(&src)?;
        }

        /// Identifier bytes against their neighbours in the byte order (`@`, `[`, the
        /// backtick, `{`, `/`, `:`, DEL, a Latin-1 letter), where word scanning eight
        /// bytes at a time could go wrong.
        #[test]
        fn on_word_edges(src in "[a-zA-Z0-9_@\\[`{/:\u{7f}\u{c0}é \"\\\\]{0,40}") {
            same(&src)?;
        }

        #[test]
        fn on_anything(src in "\\PC{0,60}") {
            same(&src)?;
        }
    }

    #[test]
    fn on_the_corpus() {
        for dir in ["../parser/tests/corpus/ok", "../parser/tests/corpus/err"] {
            for entry in std::fs::read_dir(dir).unwrap() {
                if let Ok(src) = std::fs::read_to_string(entry.unwrap().path()) {
                    same(&src).unwrap();
                }
            }
        }
    }
}

#[test]
fn a_comment_ends_at_every_line_end_an_editor_shows() {
    // A lone `\r` ends a line in an editor (and in the positions we report): what follows
    // it must not be hidden in the comment while the editor shows it as code.
    for text in ["-- c\rRECALL beliefs", "-- c\nRECALL beliefs", "-- c\r\nRECALL beliefs"] {
        for lexed in [lex(text), lex_with_logos(text)] {
            let kinds: Vec<_> = lexed.tokens.iter().map(|(t, _)| *t).collect();
            assert_eq!(kinds, [Token::Kw(Keyword::Recall), Token::Ident("beliefs")], "{text:?}");
        }
    }
}

/// Read a window at a time, every size of window, a text gives the tokens and the
/// diagnostics of [`lex`] over the whole: `;` inside strings, comments and template
/// bodies does not end a window, and bidi controls are found at their offsets.
#[test]
fn windows_are_the_whole_text() {
    let texts = [
        "RECALL beliefs ABOUT \"a;b\"; RECALL goals -- a;comment\n; ;;",
        "DEFINE TEMPLATE t ELEMENT { {{subject}}; } ; RECALL \u{202E}beliefs; EXISTS sha256:a1b2c3d4\u{2026};",
        "RECALL x WHERE \"unterminated ; string",
        ";;;;;",
        "RECALL ABOUT \"caf\u{e9}\"; DELETE; RECALL b\u{e9}liefs; LET $a = RECALL x; RECALL y",
        "",
    ];
    for text in texts {
        let whole = lex(text);
        for at_least in [1, 2, 3, 4, 5, 1000] {
            let (mut tokens, mut diagnostics, mut from) = (Vec::new(), Vec::new(), 0);
            loop {
                let (lexed, end) = if at_least % 2 == 0 {
                    lex_tokens(text, from, at_least, Vec::new())
                } else {
                    lex_window(text, from, at_least, Vec::new())
                };
                tokens.extend(lexed.tokens);
                diagnostics.extend(lexed.diagnostics);
                if end >= text.len() {
                    break;
                }
                assert!(end > from, "{text:?}");
                from = end;
            }
            assert_eq!(tokens, whole.tokens, "{text:?} {at_least}");
            let mut sorted = diagnostics.clone();
            sorted.sort_by_key(|d| d.span.start);
            let mut expected = whole.diagnostics.clone();
            expected.sort_by_key(|d| d.span.start);
            assert_eq!(sorted, expected, "{text:?} {at_least}");
        }
    }
    assert_eq!(semicolons("a; \";\" ;b;", 10), vec![2, 8, 10]);
    assert_eq!(semicolons(";;;;", 2), vec![1, 2]);
    assert_eq!(count_semicolons(&"a; \";\" ;b;".repeat(3000)), (9000, 30_000));
}
