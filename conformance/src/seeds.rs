//! Fuzzing seeds from the corpus (issue #8: "seed corpora come from the
//! conformance cases"): every case becomes one input file for the fuzz
//! targets of `fuzz/` that read its kind, named after the case id.
//!
//! * CAL text (parse and execute queries, wire text) → `parse_bytes/`,
//!   `print_idempotent/`, `check_run/`;
//! * `application/json+cal` (wire JSON, pinned JSON forms) → `json_roundtrip/`;
//! * OMS blobs (mg hex) → `mg_decode/`, with the target's mode byte 0 (a blob).

use crate::case::{Body, Case, MgCase, ParseExpect, WireCase};
use crate::raw::decode_hex;
use std::path::Path;

/// The fuzz targets that take CAL text.
pub const TEXT_TARGETS: [&str; 3] = ["parse_bytes", "print_idempotent", "check_run"];

/// Writes the seeds of `cases` under `dir/<target>/case-<id>`; returns how many files were written.
pub fn write(cases: &[Case], dir: &Path) -> std::io::Result<usize> {
    let mut written = 0;
    let mut put = |target: &str, id: &str, bytes: &[u8]| -> std::io::Result<()> {
        let sub = dir.join(target);
        std::fs::create_dir_all(&sub)?;
        oms::atomic::write_atomic(&sub.join(format!("case-{id}")), bytes)?;
        written += 1;
        Ok(())
    };
    for case in cases {
        let id = case.id.as_str();
        let mut texts: Vec<&[u8]> = Vec::new();
        let mut jsons = Vec::new();
        match &case.body {
            Body::Parse(p) => {
                texts.push(p.query.bytes());
                if let ParseExpect::Accept { json: Some(j), .. } = &p.expect {
                    jsons.push(j.to_string());
                }
            }
            Body::Wire(WireCase::TextToJson { query, json }) => {
                texts.push(query.as_bytes());
                jsons.push(json.to_string());
            }
            Body::Wire(WireCase::JsonToText { json, text }) => {
                texts.push(text.as_bytes());
                jsons.push(json.to_string());
            }
            Body::Wire(WireCase::JsonRejected { json, .. }) => jsons.push(json.to_string()),
            Body::Execute(e) => texts.push(e.query.as_bytes()),
            Body::Mg(MgCase::Decode { hex, .. } | MgCase::Reject { hex, .. } | MgCase::Encode { hex, .. }) => {
                if let Some(blob) = decode_hex(hex) {
                    let mut input = vec![0u8];
                    input.extend(blob);
                    put("mg_decode", id, &input)?;
                }
            }
        }
        for text in texts {
            for target in TEXT_TARGETS {
                put(target, id, text)?;
            }
        }
        for json in jsons {
            put("json_roundtrip", id, json.as_bytes())?;
        }
    }
    Ok(written)
}
