//! `conformance/schema/phases.json` is the registry's phase table, generated:
//! an implementer reads each code's phase from it (PROTOCOL.md), so it must
//! never drift from `grammar/src/codes.rs`. Regenerate with
//! `UPDATE_PHASES=1 cargo test -p cal-conformance --test phases`.

use std::path::Path;

#[test]
fn the_phase_table_is_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/phases.json");
    let want = serde_json::to_string_pretty(&cal_conformance::inprocess::phase_table()).expect("JSON") + "\n";
    if std::env::var_os("UPDATE_PHASES").is_some() {
        oms::atomic::write_atomic(&path, want.as_bytes()).expect("write phases.json");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "schema/phases.json is stale: run UPDATE_PHASES=1 cargo test -p cal-conformance --test phases"
    );
    let table: serde_json::Value = serde_json::from_str(&have).expect("JSON");
    let codes = table["codes"].as_object().expect("codes");
    assert_eq!(codes.len(), cal_grammar::Code::ALL.len());
    assert_eq!(codes["CAL-E070"]["phase"], "lex");
    assert_eq!(codes["CAL-E002"]["phase"], "parse");
    assert_eq!(codes["CAL-E004"]["phase"], "check");
}
