//! Auto-TOON (§10.9.5): opt-in per server; switches an ASSEMBLE without FORMAT, with BUDGET,
//! to TOON with CAL-W005 exactly when the estimate exceeds 85% of the budget and every
//! source holds one grain type.

mod common;

use std::sync::Arc;

use cal_interp::{InterpConfig, Interpreter, OmsFacade, Response};
use common::{fixture, opts};

const SOURCES: &str = r#"FROM b: (RECALL beliefs ABOUT "alice" LIMIT 20), g: (RECALL goals ABOUT "alice" LIMIT 5)"#;

fn run(i: &Interpreter<OmsFacade>, q: &str) -> Response {
    let q = cal_parser::parse_query(q).into_result().unwrap_or_else(|d| panic!("{q}: {d:?}"));
    i.execute(&q, &opts())
}

fn format_of(r: &Response) -> String {
    assert!(r.error.is_none(), "{:?}", r.error);
    r.json["formatted_context"]["format"].as_str().unwrap_or_default().to_string()
}

fn w005(r: &Response) -> usize {
    r.warnings.iter().filter(|w| w.code.as_str() == "CAL-W005").count()
}

#[test]
fn switches_only_when_every_condition_holds() {
    let f = fixture();
    let on = Interpreter::new(
        OmsFacade::new(Arc::clone(&f.store)),
        InterpConfig { auto_toon: true, ..InterpConfig::default() },
    );
    let tight = format!("ASSEMBLE ctx FOR \"alice\" {SOURCES} BUDGET 60 tokens");
    let r = run(&on, &tight);
    assert_eq!(format_of(&r), "toon");
    assert_eq!(w005(&r), 1);
    assert!(r.json["formatted_context"]["text"].as_str().unwrap_or_default().starts_with("context: ctx\n"));
    assert!(r.json["formatted_context"]["tokens"].as_u64().unwrap_or(u64::MAX) <= 60);
    assert!(on.config().auto_toon);
    assert_eq!(run(&on, "DESCRIBE capabilities").json["capabilities"]["auto_toon_enabled"], true);

    // Off by default: the same query stays markdown, silently.
    let off = run(&f.interp, &tight);
    assert_eq!((format_of(&off).as_str(), w005(&off)), ("markdown", 0));
    // An explicit FORMAT wins, even markdown.
    let explicit = run(&on, &format!("{tight} FORMAT markdown"));
    assert_eq!((format_of(&explicit).as_str(), w005(&explicit)), ("markdown", 0));
    // No BUDGET clause: no switch (the default 4,000 tokens is not budget pressure).
    let unbudgeted = run(&on, &format!("ASSEMBLE ctx FOR \"alice\" {SOURCES}"));
    assert_eq!((format_of(&unbudgeted).as_str(), w005(&unbudgeted)), ("markdown", 0));
    // A generous budget: the estimate is far under 85%.
    let roomy = run(&on, &format!("ASSEMBLE ctx FOR \"alice\" {SOURCES} BUDGET 8000 tokens"));
    assert_eq!((format_of(&roomy).as_str(), w005(&roomy)), ("markdown", 0));
    // A source mixing grain types cannot be one TOON table.
    let mixed = run(&on, "ASSEMBLE ctx FROM all: (RECALL ABOUT \"alice\" LIMIT 30) BUDGET 60 tokens");
    assert_eq!((format_of(&mixed).as_str(), w005(&mixed)), ("markdown", 0));
    // A grains budget is not a token estimate.
    let grains = run(&on, &format!("ASSEMBLE ctx FOR \"alice\" {SOURCES} BUDGET 3 grains"));
    assert_eq!((format_of(&grains).as_str(), w005(&grains)), ("markdown", 0));
}
