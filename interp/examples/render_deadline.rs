//! How far past its deadline a query that renders a wide result answers (issue 19,
//! docs/reliability.md "Rendering deadlines"): loads a `.mg` store, then runs each query
//! once with no deadline to speak of (how long the whole takes) and once for each given
//! timeout, printing the elapsed wall time, the answer's code and the overshoot.
//! `cargo run --release -p cal-interp --example render_deadline -- STORE.mg 'QUERY' MS…`

use cal_interp::{ExecOptions, InterpConfig, Interpreter, OmsFacade};
use oms::store::{Store, StoreConfig};
use std::sync::Arc;
use std::time::Instant;

const NOW: i64 = 1_772_798_400_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(text)) = (args.next(), args.next()) else {
        eprintln!("usage: render_deadline STORE.mg QUERY [TIMEOUT_MS …]");
        std::process::exit(2);
    };
    let timeouts: Vec<u64> = args.filter_map(|a| a.parse().ok()).collect();
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let store = Arc::new(
        Store::load(&bytes, StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) })
            .unwrap_or_else(|e| panic!("{path} does not load: {e}")),
    );
    let query = cal_parser::parse_query(&text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"));
    let run = |ms: u64| {
        let config = InterpConfig { query_timeout_ms: ms, assemble_timeout_ms: ms, ..Default::default() };
        let interp = Interpreter::new(OmsFacade::new(store.clone()), config);
        let t = Instant::now();
        let response = interp.execute(&query, &ExecOptions::fixed(NOW));
        (t.elapsed().as_secs_f64() * 1000.0, response.error.map_or("-", |d| d.code.as_str()))
    };
    let (whole, code) = run(3_600_000);
    println!("{} grains; no deadline: {whole:.0} ms, {code}", store.len());
    for ms in timeouts {
        let (elapsed, code) = run(ms);
        let over = (elapsed - ms as f64) / ms as f64 * 100.0;
        println!("timeout {ms} ms: {elapsed:.0} ms, {code}, {over:+.1} % of the deadline");
    }
}
