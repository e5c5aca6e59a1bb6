//! The committed TextMate grammar must be what the generator makes from the grammar tables.
//! Run with `UPDATE_TEXTMATE=1` to rewrite it.

#[test]
fn textmate_grammar_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode/syntaxes/cal.tmLanguage.json");
    let generated = cal_lsp::textmate::grammar();
    if std::env::var_os("UPDATE_TEXTMATE").is_some() {
        std::fs::write(&path, &generated).expect("write the grammar");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run `UPDATE_TEXTMATE=1 cargo test -p cal-lsp --test textmate`",
        path.display()
    );
}
