//! The committed fixture stores and key maps are exactly what
//! `examples/gen_fixtures.rs` produces: regenerating gives identical bytes.

#[path = "../examples/gen_fixtures.rs"]
mod gen_fixtures;

#[test]
fn fixture_stores_are_fresh() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = gen_fixtures::outputs(root).expect("the fixtures build");
    assert!(files.len() >= 20, "every fixture writes a store and a key map");
    for (path, bytes) in files {
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(
            committed == bytes,
            "{} is stale: run `cargo run -p cal-conformance --example gen_fixtures`",
            path.display()
        );
    }
}

#[test]
fn regenerating_twice_gives_the_same_bytes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let a = gen_fixtures::outputs(root).expect("the fixtures build");
    let b = gen_fixtures::outputs(root).expect("the fixtures build");
    assert_eq!(a, b);
}
