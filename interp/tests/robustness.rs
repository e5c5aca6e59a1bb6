//! No panics on any input: every query of the parser's and the checker's
//! corpora (valid or not — the parser's recovered trees included) is planned,
//! explained and executed on the demo memory, with and without bindings.
//! Each must come back as a response, never a panic.

mod common;

use std::sync::Arc;

use cal_interp::demo::{self, NOW_MS};
use cal_interp::{ExecOptions, InterpConfig, Interpreter, OmsFacade};

#[test]
fn every_corpus_query_gets_a_response() {
    let files = common::corpus_files();
    let store = Arc::new(demo::load(NOW_MS).unwrap());
    let plain = cal_interp::over(store.clone());
    let confined = Interpreter::new(
        OmsFacade::new(store.clone()),
        InterpConfig { namespace: Some("acme:team-alpha".into()), tier1_enabled: true, ..InterpConfig::default() },
    );
    let mut bound = ExecOptions::fixed(NOW_MS);
    bound.user = Some("alice".into());
    for (name, value) in [
        ("limit", serde_json::json!(5)),
        ("user_id", serde_json::json!("alice")),
        ("h", serde_json::json!("sha256:33d595f7")),
    ] {
        bound.params.insert(name.into(), value);
    }
    let before = cal_interp::store_digest(&store);
    let mut queries = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let Some(doc) = cal_parser::parse_document(&text).ast else { continue };
        for q in &doc.queries {
            queries += 1;
            for i in [&plain, &confined] {
                for o in [&ExecOptions::fixed(NOW_MS), &bound] {
                    let plan = i.plan(q, o);
                    let _ = (plan.to_json(), plan.to_text());
                    let r = i.execute(q, o);
                    assert!(r.json.get("_cal").is_some(), "{}", f.display());
                    let _ = cal_interp::text::render(&r);
                    let _ = i.explain(q, o);
                }
            }
        }
    }
    assert!(queries > 100 || files.is_empty(), "{queries} queries from {} files", files.len());
    assert_eq!(cal_interp::store_digest(&store), before, "nothing in the corpora changed the store");
}
