//! Rebuilds the crate when a file is added to or removed from `cases/` or `fixtures/`:
//! the corpus is embedded in the binary (`src/embedded.rs`), and the embedding macro
//! only tracks the files that existed when it last ran.

fn main() {
    println!("cargo::rerun-if-changed=cases");
    println!("cargo::rerun-if-changed=fixtures");
}
