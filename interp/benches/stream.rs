//! What streaming costs: the §8.2-shaped three-source ASSEMBLE on the demo memory, BUDGET 2000
//! tokens, executed whole and streamed (all events, chunks of 100 tokens, into a vector), in
//! SML, markdown and TOON. The difference is locating the elements, counting token offsets and
//! building the events. Run with `cargo bench -p cal-interp --bench stream`; figures go to
//! docs/performance-interp.md.

use std::sync::{Arc, OnceLock};

use cal_grammar::FormatName;
use cal_interp::stream::{CancelToken, Event};
use cal_interp::{ExecOptions, Interpreter, OmsFacade, demo};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

fn interp() -> &'static Interpreter<OmsFacade> {
    static I: OnceLock<Interpreter<OmsFacade>> = OnceLock::new();
    I.get_or_init(|| cal_interp::over(Arc::new(demo::load(demo::NOW_MS).expect("the demo memory loads"))))
}

fn query(format: FormatName, stream: bool) -> cal_parser::ast::Query {
    let text = format!(
        r#"ASSEMBLE ctx FOR "helping alice prepare her Q1 review"
        FROM prefs: (RECALL beliefs ABOUT "alice"), goals: (RECALL goals ABOUT "alice"),
             recent: (RECALL events WHERE user_id = "alice" RECENT 10)
        BUDGET 2000 tokens PRIORITY prefs > goals > recent FORMAT {format} {}"#,
        if stream { "STREAM" } else { "" }
    );
    cal_parser::parse_query(&text).into_result().expect("the query parses")
}

const FORMATS: [FormatName; 3] = [FormatName::Sml, FormatName::Markdown, FormatName::Toon];

#[divan::bench(args = FORMATS, sample_count = 50)]
fn whole(b: Bencher, format: FormatName) {
    let (i, q, o) = (interp(), query(format, false), ExecOptions::fixed(demo::NOW_MS));
    b.bench(|| black_box(i.execute(&q, &o)));
}

#[divan::bench(args = FORMATS, sample_count = 50)]
fn streamed(b: Bencher, format: FormatName) {
    let (i, q, o) = (interp(), query(format, true), ExecOptions::fixed(demo::NOW_MS));
    b.bench(|| {
        let mut events: Vec<Event> = Vec::new();
        let r = i.execute_stream(&q, &o, &mut events, &CancelToken::new());
        black_box((r, events))
    });
}
