//! Enables the `toon_node` cfg when the official TOON implementation can run: `node` on the
//! PATH and `tests/toon-decode/node_modules` installed (`npm ci --prefix
//! render/tests/toon-decode`). Tests that decode our TOON with it are ignored, with that
//! reason, otherwise. Under CI (`CI=true`) the cfg is always on, so a missing node fails
//! the tests instead of skipping them.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(toon_node)");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-changed=tests/toon-decode/node_modules");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let installed = Path::new("tests/toon-decode/node_modules/@toon-format/toon").is_dir();
    if ci || (node && installed) {
        println!("cargo::rustc-cfg=toon_node");
    }
}
