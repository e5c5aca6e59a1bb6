//! Runs one CAL query against the built-in demo memory and prints the
//! response: `cargo run -p cal-interp --example query -- 'RECALL beliefs ABOUT "alice"'`.
//! (`cal run` does the same with checking, options and rendering.)

use std::sync::Arc;

use cal_interp::{ExecOptions, demo};

fn main() -> std::process::ExitCode {
    let text = std::env::args().nth(1).unwrap_or_else(|| "RECALL beliefs ABOUT \"alice\" RECENT 5".into());
    let parsed = cal_parser::parse_query(&text);
    let query = match parsed.into_result() {
        Ok(q) => q,
        Err(diags) => {
            for d in diags {
                eprintln!("{}: {}", d.code, d.message);
            }
            return std::process::ExitCode::FAILURE;
        }
    };
    let store = match demo::load(demo::NOW_MS) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("cannot load the demo memory: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let interp = cal_interp::over(store);
    let mut opts = ExecOptions::fixed(demo::NOW_MS);
    opts.user = Some("alice".into());
    let response = interp.execute(&query, &opts);
    println!("{}", response.to_pretty());
    if response.is_error() { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
}
