//! Compiles the generated parser (`src/parser.c`, committed: no tree-sitter CLI is needed to
//! build or test, only a C compiler).
fn main() {
    let src = std::path::Path::new("src");
    cc::Build::new().include(src).file(src.join("parser.c")).warnings(false).compile("tree-sitter-cal");
    println!("cargo:rerun-if-changed=src/parser.c");
}
