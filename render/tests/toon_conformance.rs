//! Our TOON encoder against the official `@toon-format/spec` encoding fixtures. Reads the npm
//! package installed by `npm ci --prefix render/tests/toon-decode` (pinned there, with the
//! decoder), or the directory in `TOON_SPEC_DIR`; ignored, with that reason, when neither
//! node nor the package is there (render/build.rs). Under `CI=true` it always runs.
//! Fixtures with options (other delimiters, indents, key folding) are skipped: CAL's TOON uses
//! the defaults only.

use cal_render::formats::toon::encode;
use serde_json::Value;

#[test]
#[cfg_attr(not(toon_node), ignore = "needs `npm ci --prefix render/tests/toon-decode` (or TOON_SPEC_DIR)")]
fn official_encode_fixtures() {
    let dir = std::env::var("TOON_SPEC_DIR").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/toon-decode/node_modules/@toon-format/spec").into()
    });
    let mut failures = Vec::new();
    let (mut run, mut skipped) = (0, 0);
    let path = std::path::Path::new(&dir).join("tests/fixtures/encode");
    let mut files: Vec<_> = std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()).collect();
    files.sort();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else { continue };
        for t in doc["tests"].as_array().into_iter().flatten() {
            let has_options = t.get("options").is_some_and(|o| o.as_object().is_some_and(|m| !m.is_empty()));
            if has_options || t.get("shouldError").is_some() {
                skipped += 1;
                continue;
            }
            run += 1;
            let got = encode(&t["input"]);
            if Some(got.as_str()) != t["expected"].as_str() {
                failures.push(format!("{}: {}\n  want {:?}\n  got  {:?}", f.display(), t["name"], t["expected"], got));
            }
        }
    }
    eprintln!("TOON fixtures: {run} run, {skipped} skipped, {} failed", failures.len());
    assert!(run > 100, "no fixtures under {dir}: run `npm ci --prefix render/tests/toon-decode`");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
