//! Regenerates `interp/demo/demo.mg`, the built-in demo memory, from the
//! tables in `interp/src/demo/`: `cargo run -p cal-interp --example gen_demo`.
//! The output is deterministic; the test `demo_file_is_fresh` checks that the
//! committed file matches.

fn main() -> std::process::ExitCode {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/demo.mg");
    match cal_interp::demo::generate() {
        Ok(bytes) => match oms::atomic::write_atomic(&path, &bytes) {
            Ok(()) => {
                let store = cal_interp::demo::load(cal_interp::demo::NOW_MS);
                let grains = store.map(|s| s.len()).unwrap_or(0);
                println!("wrote {} ({} bytes, {grains} grains)", path.display(), bytes.len());
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cannot write {}: {e}", path.display());
                std::process::ExitCode::from(2)
            }
        },
        Err(e) => {
            eprintln!("generation failed: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
