//! print → parse idempotency: a query that parses without errors prints to text that
//! parses without errors and prints the same text again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return;
    }
    let Some(doc) = parsed.ast else { return };
    for q in &doc.queries {
        let printed = cal_parser::print::query_to_text(q);
        if printed.len() > 8192 {
            // Canonical spacing may push a query near the limit over it (CAL-E001); not a printer bug.
            continue;
        }
        let again = cal_parser::parse_query(&printed);
        assert!(!again.has_errors(), "printed text does not parse:\n{printed}\n{:?}", again.diagnostics);
        let q2 = again.ast.expect("no errors means a tree");
        let reprinted = cal_parser::print::query_to_text(&q2);
        assert_eq!(printed, reprinted, "printing is not idempotent");
    }
});
