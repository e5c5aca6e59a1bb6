//! JSON → text → JSON: a document accepted from `application/json+cal` prints to text
//! that parses without errors back to the same JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(doc) = cal_parser::json::from_json_text(text) else { return };
    for q in &doc.queries {
        let json = cal_parser::json::query_to_json(q);
        let printed = cal_parser::print::query_to_text(q);
        if printed.len() > 8192 {
            continue;
        }
        let again = cal_parser::parse_query(&printed);
        assert!(!again.has_errors(), "printed text does not parse:\n{printed}\n{:?}", again.diagnostics);
        let q2 = again.ast.expect("no errors means a tree");
        assert_eq!(json, cal_parser::json::query_to_json(&q2), "JSON → text → JSON changed:\n{printed}");
    }
});
