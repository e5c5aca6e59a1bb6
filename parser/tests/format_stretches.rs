//! `cal fmt` formats a large document a stretch at a time (`print::format_in_stretches`,
//! issue 19); the canonical text is the one of formatting the whole at once, whatever the
//! stretch: on the format cases (comments between, before and inside queries), on the
//! corpus's valid queries joined into one document with and without comments between.

use cal_parser::print::{format_in_stretches, format_source};

fn files(dir: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(dir);
    let mut files: Vec<_> = std::fs::read_dir(path).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

/// Whether `text` parsed without errors (only those are formatted).
fn same_in_every_stretch(text: &str) -> bool {
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return false;
    }
    let whole = format_source(text, parsed.ast.as_ref().unwrap());
    for stretch in [1, 2, 3, 8, 1 << 20] {
        let pieces = format_in_stretches(text, stretch);
        assert_eq!(pieces.text, whole.text, "stretches of {stretch} tokens: {text:.300}");
        assert_eq!(pieces.kept_as_written, whole.kept_as_written, "{stretch}: {text:.300}");
    }
    true
}

#[test]
fn formatting_in_stretches_is_formatting_the_whole() {
    let cases = files("format_cases");
    let corpus = files("corpus/ok");
    assert!(cases.len() >= 5 && corpus.len() > 100);
    let clean = cases.iter().filter(|c| same_in_every_stretch(c)).count();
    assert!(clean >= 5, "{clean}");
    assert!(same_in_every_stretch(&corpus.join(";\n")));
    assert!(same_in_every_stretch(&corpus.join(";\n\n-- between\n")));
    assert!(same_in_every_stretch(&corpus.join("; -- after\n")));
}
