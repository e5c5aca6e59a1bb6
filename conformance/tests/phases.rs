//! `conformance/schema/phases.json` is the registry's phase table, generated:
//! an implementer reads each code's phase from it (PROTOCOL.md), so it must
//! never drift from `grammar/src/codes.rs`. PROTOCOL.md carries the same table
//! in Markdown (between its `phase-table` markers), rendered from phases.json, so
//! the two cannot drift either. Regenerate both with
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

const BEGIN: &str = "<!-- phase-table:begin (generated from schema/phases.json by conformance/tests/phases.rs) -->\n";
const END: &str = "<!-- phase-table:end -->";

/// The Markdown table of phases.json: one row per code, in the file's order.
fn markdown(table: &serde_json::Value) -> String {
    let mut out = String::from("| code | name | phase | section |\n|---|---|---|---|\n");
    for (code, v) in table["codes"].as_object().expect("codes") {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        out.push_str(&format!("| `{code}` | {} | `{}` | §{} |\n", s("name"), s("phase"), s("section")));
    }
    out
}

#[test]
fn protocol_md_carries_the_phase_table_of_phases_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let phases = std::fs::read_to_string(dir.join("schema/phases.json")).expect("phases.json");
    let table: serde_json::Value = serde_json::from_str(&phases).expect("JSON");
    let path = dir.join("PROTOCOL.md");
    let doc = std::fs::read_to_string(&path).expect("PROTOCOL.md");
    let (Some(b), Some(e)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("PROTOCOL.md has no phase-table markers ({BEGIN:?} … {END:?})")
    };
    let want = markdown(&table);
    let have = &doc[b + BEGIN.len()..e];
    if std::env::var_os("UPDATE_PHASES").is_some() && have != want {
        let updated = format!("{}{want}{}", &doc[..b + BEGIN.len()], &doc[e..]);
        oms::atomic::write_atomic(&path, updated.as_bytes()).expect("write PROTOCOL.md");
        return;
    }
    assert!(
        have == want,
        "PROTOCOL.md's phase table is stale: run UPDATE_PHASES=1 cargo test -p cal-conformance --test phases"
    );
    // Every code of the registry has its row, with the phase a parse answer must carry.
    for code in cal_grammar::Code::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(have.contains(&row), "no row for {row}");
    }
    assert!(have.contains("| `CAL-E070` | "), "lex codes are there");
}
