//! The scale benchmark of issue 20: loads a generated `.mg` store into the in-memory
//! OMS store and times the query shapes of CAL §6/§9 through the whole `cal run` path
//! (parse → check → execute → JSON text). Run it through `scripts/scale-bench.sh`, which
//! generates the 10k/100k/1M stores (`oms --example gen_store`, a pure function of the
//! grain index) and runs this binary on each:
//!
//! `cargo run --release -p cal-interp --example scale_bench -- STORE.mg [REPS]`
//! (`SCALE_BENCH_ONLY=user_id` runs only the shapes whose name contains the text)
//!
//! Prints one line per figure: load time, resident memory per grain beyond the file's
//! own bytes (the file is read into memory before the clock starts), the peak, and the
//! median and p90 of each query shape over REPS runs (default 50), each run with a
//! different subject or user drawn from a fixed seed. A shape whose first run ends in an
//! error (an older build over its time limit) is reported with that error and skipped.
//! Timings are printed, never asserted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cal_interp::{ExecOptions, Interpreter, OmsFacade};
use oms::store::{Store, StoreConfig};
use oms::synthetic::lcg;

/// The generator's "now" (`oms/examples/gen_store.rs`): 2026-03-06T12:00:00Z.
const NOW: i64 = 1_772_798_400_000;

/// A `/proc/self/status` figure in bytes (`VmRSS`, `VmHWM`).
fn status_bytes(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()))
        })
        .map_or(0, |kb| kb * 1024)
}

/// CPU time of this process so far (user + system), from `/proc/self/stat`: under a
/// busy machine it says more about the work done than the wall clock does.
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1.split_whitespace().collect::<Vec<_>>();
            Some(rest.get(11)?.parse::<u64>().ok()? + rest.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// One query shape: a name and the query text of run `i`.
struct Shape {
    name: &'static str,
    text: fn(u64, usize) -> String,
}

/// Subject `entity-k` of the generated store (50,000 subjects per million grains).
fn subject(r: u64, n: usize) -> u64 {
    (r >> 16) % (n as u64 / 20).max(1)
}

/// User `user-k` (1,000 users).
fn user(r: u64) -> u64 {
    (r >> 24) % 1000
}

const SHAPES: [Shape; 7] = [
    Shape {
        name: "RECALL subject = … | LIMIT 20",
        text: |r, n| format!("RECALL beliefs WHERE subject = \"entity-{}\" | LIMIT 20", subject(r, n)),
    },
    Shape {
        name: "RECALL user_id + relation | LIMIT 20",
        text: |r, _| {
            format!("RECALL beliefs WHERE user_id = \"user-{}\" AND relation = \"mg:prefers\" | LIMIT 20", user(r))
        },
    },
    Shape { name: "RECALL beliefs RECENT 10", text: |_, _| "RECALL beliefs RECENT 10".to_string() },
    Shape {
        name: "RECALL confidence >= 0.99 | LIMIT 20",
        text: |_, _| "RECALL beliefs WHERE confidence >= 0.99 | LIMIT 20".to_string(),
    },
    Shape {
        name: "4-source ASSEMBLE BUDGET 2000",
        text: |r, n| {
            let (s, u) = (subject(r, n), user(r));
            format!(
                "ASSEMBLE ctx FOR \"reviewing entity-{s}\" \
                 FROM about: (RECALL beliefs WHERE subject = \"entity-{s}\" | LIMIT 20), \
                 prefs: (RECALL beliefs WHERE user_id = \"user-{u}\" AND relation = \"mg:prefers\" | LIMIT 20), \
                 recent: (RECALL events WHERE user_id = \"user-{u}\" RECENT 10), \
                 seen: (RECALL observations WHERE subject = \"entity-{s}\" | LIMIT 10) \
                 BUDGET 2000 tokens PRIORITY about > prefs > recent > seen"
            )
        },
    },
    // The shapes added with the walks (issue 20) come last, so that a build that answers
    // them slowly (decoding every belief on the way) does not change what the first five
    // measure.
    Shape {
        name: "RECALL beliefs IN one namespace RECENT 10",
        text: |r, _| format!("RECALL beliefs IN \"bench-{}\" RECENT 10", (r >> 20) % 16),
    },
    Shape {
        name: "ORDER BY confidence DESC | LIMIT 20",
        text: |_, _| "RECALL beliefs | ORDER BY confidence DESC | LIMIT 20".to_string(),
    },
];

/// The whole path `cal run` takes for one query, to the printed bytes; or the code of the
/// error the query ended with (a build that cannot answer a shape in time reports E031).
fn end_to_end(interp: &Interpreter<OmsFacade>, text: &str, opts: &ExecOptions) -> Result<usize, String> {
    let query = cal_parser::parse_query(text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"));
    let diags = cal_checker::check(&query, None);
    assert!(!diags.iter().any(cal_grammar::Diagnostic::is_error), "{text}: {diags:?}");
    let response = interp.execute(&query, opts);
    match &response.error {
        Some(e) => Err(format!("{:?}", e.code)),
        None => Ok(response.to_pretty().len()),
    }
}

fn pct(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: scale_bench STORE.mg [REPS]");
        std::process::exit(2);
    };
    let reps: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(50);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let rss_before = status_bytes("VmRSS:");
    let (t, cpu) = (Instant::now(), cpu_time());
    let file_len = bytes.len();
    // The store keeps the file's bytes (its grains point into them), as `cal run` does.
    let store = Store::load_owned(bytes, StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) })
        .unwrap_or_else(|e| panic!("{path} does not load: {e}"));
    let (load, load_cpu) = (t.elapsed(), cpu_time().saturating_sub(cpu));
    let n = store.len();
    let rss_after = status_bytes("VmRSS:");
    let per_grain = rss_after.saturating_sub(rss_before) as f64 / n.max(1) as f64;
    println!("grains: {n}; file {file_len} bytes ({:.0} B/grain)", file_len as f64 / n.max(1) as f64);
    println!(
        "load: {:.3} s wall ({:.0} grains/s), {:.2} s CPU",
        load.as_secs_f64(),
        n as f64 / load.as_secs_f64(),
        load_cpu.as_secs_f64()
    );
    println!(
        "rss: {:.0} B/grain beyond the file; {} MB after load, peak {} MB",
        per_grain,
        rss_after >> 20,
        status_bytes("VmHWM:") >> 20
    );
    let interp = cal_interp::over(Arc::new(store));
    let opts = ExecOptions::fixed(NOW);
    // `SCALE_BENCH_ONLY=text` runs only the shapes whose name holds it (for a profiler).
    let only = std::env::var("SCALE_BENCH_ONLY").unwrap_or_default();
    for shape in SHAPES.iter().filter(|s| s.name.contains(only.as_str())) {
        let mut r = 0x5eed_u64;
        let t = Instant::now();
        if let Err(code) = end_to_end(&interp, &(shape.text)(r, n), &opts) {
            // One run is enough to say it: the others would each take as long.
            println!("{:<40} error {code} after {:.1?} (first run; not repeated)", shape.name, t.elapsed());
            continue;
        }
        let mut times: Vec<Duration> = (0..reps)
            .map(|_| {
                r = lcg(r);
                let text = (shape.text)(r, n);
                let t = Instant::now();
                let out = end_to_end(&interp, &text, &opts).unwrap_or_else(|code| panic!("{text}: {code}"));
                std::hint::black_box(out);
                t.elapsed()
            })
            .collect();
        times.sort_unstable();
        println!("{:<40} median {:>10.1?}  p90 {:>10.1?}", shape.name, pct(&times, 50), pct(&times, 90));
    }
}
