//! Lexer and parser on raw bytes: never panic, every diagnostic span on character
//! boundaries inside the input, every code from the registry.
#![no_main]

use cal_grammar::{Code, Diagnostic};
use libfuzzer_sys::fuzz_target;

fn check_spans(input: &[u8], text: Option<&str>, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        assert!(Code::ALL.contains(&d.code), "code {:?} not in the registry", d.code);
        let spans = std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span));
        for s in spans {
            let (start, end) = (s.start as usize, s.end as usize);
            assert!(start <= end && end <= input.len(), "span {start}..{end} outside {} bytes", input.len());
            if let Some(t) = text {
                assert!(t.is_char_boundary(start) && t.is_char_boundary(end), "span {start}..{end} splits a character");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = std::str::from_utf8(data).ok();
    let q = cal_parser::parse_query_bytes(data);
    check_spans(data, text, &q.diagnostics);
    if let Some(t) = text {
        let d = cal_parser::parse_document(t);
        check_spans(data, text, &d.diagnostics);
    }
});
