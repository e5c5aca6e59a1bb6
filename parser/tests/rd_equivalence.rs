//! Temporary: the hand-written parser must agree with the chumsky grammar on every corpus file.
#![allow(missing_docs)]

#[test]
fn same_ast_and_codes_on_the_corpus() {
    let mut failures = Vec::new();
    let mut n = 0;
    for dir in ["tests/corpus/ok", "tests/corpus/err"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Ok(src) = std::fs::read_to_string(&path) else { continue };
            n += 1;
            let a = cal_parser::parse_document(&src);
            let b = cal_parser::rd_parse_document(&src);
            let ast_a = format!("{:#?}", a.ast);
            let ast_b = format!("{:#?}", b.ast);
            let codes_a: Vec<_> = a.diagnostics.iter().map(|d| (d.code.as_str(), d.span)).collect();
            let codes_b: Vec<_> = b.diagnostics.iter().map(|d| (d.code.as_str(), d.span)).collect();
            if ast_a != ast_b && !a.has_errors() {
                failures.push(format!("AST differs: {}", path.display()));
            }
            if codes_a != codes_b {
                failures.push(format!(
                    "diagnostics differ: {}\n  chumsky: {:?}\n  rd:      {:?}\n  rd msgs: {:?}",
                    path.display(),
                    codes_a,
                    codes_b,
                    b.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
                ));
            }
        }
    }
    eprintln!("{n} files compared");
    assert!(failures.is_empty(), "{}\n{} failures", failures.join("\n"), failures.len());
}
