//! What the tests of the stored generated cases share.

use std::path::Path;
use std::process::Command;

/// Runs a generator of `authoring/generated/` with `args` (`--check` among them) and fails,
/// with its output, unless the stored files under `cases/generated/<what>` are what it writes.
pub fn assert_generator_check(script: &str, args: &[&str], what: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("authoring/generated").join(script);
    let out = Command::new("python3").arg(&path).args(args).output().expect("python3 runs the generator");
    assert!(
        out.status.success(),
        "conformance/cases/generated/{what} is not what the generator writes: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
