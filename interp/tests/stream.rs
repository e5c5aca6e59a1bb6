//! Streaming ASSEMBLE (§11) on the demo memory: the causal order of the events over many
//! queries, formats, budgets and chunk sizes; option filtering; chunks that concatenate to the
//! non-streamed text in every format and never split an element; cancellation with a valid
//! partial result; the error event; one full stream as a snapshot.

mod common;

use std::sync::{Arc, OnceLock};

use cal_interp::stream::{CancelToken, Control, Event, EventBody};
use cal_interp::{ExecOptions, Interpreter, MemoryAudit, OmsFacade, Response, demo};
use serde_json::Value as Json;

fn store() -> Arc<oms::store::Store> {
    static STORE: OnceLock<Arc<oms::store::Store>> = OnceLock::new();
    STORE.get_or_init(|| Arc::new(demo::load(demo::NOW_MS).expect("the demo memory loads"))).clone()
}

fn interp() -> Interpreter<OmsFacade> {
    cal_interp::over(store())
}

fn opts() -> ExecOptions {
    let mut o = ExecOptions::fixed(demo::NOW_MS);
    o.user = Some("alice".into());
    o
}

fn parse(text: &str) -> cal_parser::ast::Query {
    cal_parser::parse_query(text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"))
}

/// Runs `text` streamed, collecting every event.
fn stream(text: &str) -> (Vec<Event>, Response) {
    let mut events: Vec<Event> = Vec::new();
    let r = interp().execute_stream(&parse(text), &opts(), &mut events, &CancelToken::new());
    (events, r)
}

fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(|e| e.body.kind()).collect()
}

fn chunk_texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::Chunk { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

fn text(r: &Response) -> &str {
    r.json["formatted_context"]["text"].as_str().unwrap_or_else(|| panic!("no text: {}", r.json))
}

const SOURCES: &str = r#"FROM prefs: (RECALL beliefs ABOUT "alice"), goals: (RECALL goals ABOUT "alice"),
    recent: (RECALL events WHERE user_id = "alice" RECENT 6) PRIORITY prefs > goals > recent"#;

/// Queries of different shapes: three sources, dedup across overlapping sources, one source
/// of mixed grain types (TOON splits it into groups), a grains budget, full disclosure.
fn queries() -> Vec<String> {
    vec![
        format!(r#"ASSEMBLE ctx FOR "helping alice" {SOURCES}"#),
        r#"ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "alice"), b: (RECALL beliefs WHERE subject = "alice")
            PRIORITY b > a WITH dedup(object)"#
            .to_string(),
        r#"ASSEMBLE mixed FOR "alice's week" FROM all: (RECALL WHERE user_id = "alice" RECENT 12)"#.to_string(),
        format!(r#"ASSEMBLE ctx {SOURCES} WITH progressive_disclosure(full)"#),
    ]
}

const FORMATS: [&str; 8] = [
    "FORMAT sml",
    "FORMAT markdown",
    "FORMAT text",
    "FORMAT json",
    "FORMAT yaml",
    "FORMAT triples",
    "FORMAT toon",
    "FORMAT TEMPLATE { HEADER { CTX {{assembly.name}} } ELEMENT { * {{grain.content}} } }",
];

/// Puts the BUDGET / FORMAT / STREAM clauses where the grammar wants them (before WITH).
fn with_clauses(q: &str, budget: &str, format: &str, stream: &str) -> String {
    let clauses = format!("BUDGET {budget} {format} {stream}");
    match q.find(" WITH ") {
        Some(i) => format!("{} {clauses}{}", &q[..i], &q[i..]),
        None => format!("{q} {clauses}"),
    }
}

/// The phase rank of an event: the ordering invariant of §11.1 says ranks never decrease.
fn rank(e: &EventBody) -> u8 {
    match e {
        EventBody::AssemblyStarted { .. } => 0,
        EventBody::SourceStarted { .. } | EventBody::SourceCompleted { .. } => 1,
        EventBody::DedupCompleted { .. } => 2,
        EventBody::BudgetAllocated { .. } => 3,
        EventBody::DisclosureDecided { .. } => 4,
        EventBody::Chunk { .. } => 5,
        EventBody::AssemblyCompleted { .. } | EventBody::Error { .. } | EventBody::Cancelled { .. } => 6,
    }
}

/// Checks every invariant of a complete, unfiltered stream against its response.
fn check_stream(q: &str, events: &[Event], r: &Response, budget: u64, chunk_size: usize) {
    assert!(r.error.is_none(), "{q}: {:?}", r.error);
    let id = &events[0].assembly_id;
    assert!(id.starts_with("asm_") && id.len() == 12, "{q}: {id}");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.seq, i as u64, "{q}: seq");
        assert_eq!(&e.assembly_id, id, "{q}: one id per stream");
    }
    assert!(events.windows(2).all(|w| rank(&w[0].body) <= rank(&w[1].body)), "{q}: {:?}", kinds(events));
    assert_eq!(kinds(events).first(), Some(&"assembly_started"), "{q}");
    assert_eq!(kinds(events).last(), Some(&"assembly_completed"), "{q}");
    for k in ["dedup_completed", "budget_allocated", "disclosure_decided", "assembly_completed"] {
        assert_eq!(kinds(events).iter().filter(|x| **x == k).count(), 1, "{q}: {k}");
    }
    // Each source: started, then completed, before the next starts.
    let mut open: Option<String> = None;
    let mut seen = Vec::new();
    for e in events {
        match &e.body {
            EventBody::SourceStarted { source, .. } => {
                assert!(open.is_none(), "{q}: {source} starts inside another source");
                open = Some(source.clone());
            }
            EventBody::SourceCompleted { source, .. } => {
                assert_eq!(open.take().as_deref(), Some(source.as_str()), "{q}");
                seen.push(source.clone());
            }
            _ => {}
        }
    }
    assert_eq!(seen.len(), r.json["sources"].as_array().unwrap().len(), "{q}: every source once");
    // Chunks: consecutive indexes, one `last`, the countdown, exact tokens, the text.
    let chunks: Vec<(usize, usize, usize, u64, bool, usize)> = events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::Chunk { chunk_index, tokens, tokens_emitted, budget_remaining, last, elements, .. } => {
                Some((*chunk_index, *tokens, *tokens_emitted, *budget_remaining, *last, *elements))
            }
            _ => None,
        })
        .collect();
    let total = r.json["formatted_context"]["tokens"].as_u64().unwrap() as usize;
    assert_eq!(chunk_texts(events).concat(), text(r), "{q}: chunks concatenate to the text");
    assert_eq!(chunks.iter().map(|c| c.1).sum::<usize>(), total, "{q}: chunk tokens add up");
    let mut emitted = 0;
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!(c.0, i, "{q}");
        emitted += c.1;
        assert_eq!(c.2, emitted, "{q}");
        assert_eq!(c.4, i + 1 == chunks.len(), "{q}: last");
        if r.json["budget"]["unit"] == "tokens" {
            assert_eq!(c.3, budget.saturating_sub(emitted as u64), "{q}: countdown");
        }
        // About chunk_size: within it unless one element alone is larger, and a chunk was
        // closed only because the next element did not fit.
        assert!(c.1 <= chunk_size || c.5 <= 1, "{q}: chunk {i} has {} tokens, {} elements", c.1, c.5);
        if let Some(next) = chunks.get(i + 1) {
            assert!(c.1 + next.1 > chunk_size, "{q}: chunks {i} and {} would have fitted together", i + 1);
        }
    }
    let included: usize =
        r.json["sources"].as_array().unwrap().iter().map(|s| s["results"].as_array().map_or(0, Vec::len)).sum();
    let is_template = r.json["formatted_context"]["format"] == "template";
    if !is_template {
        assert_eq!(chunks.iter().map(|c| c.5).sum::<usize>(), included, "{q}: every element in one chunk");
    }
    let EventBody::AssemblyCompleted { summary } = &events.last().unwrap().body else { unreachable!() };
    assert_eq!(summary.tokens_used, total, "{q}");
    assert_eq!(summary.chunks, chunks.len(), "{q}");
    assert_eq!(summary.grains, included, "{q}");
    assert!(!r.json["_cal"]["notes"].to_string().contains("element boundaries"), "{q}: {}", r.json["_cal"]);
}

#[test]
fn the_ordering_invariant_holds_over_queries_formats_budgets_and_chunk_sizes() {
    let interp = interp();
    let mut n = 0;
    for (qi, q) in queries().iter().enumerate() {
        for (fi, format) in FORMATS.iter().enumerate() {
            for (bi, budget) in [90u64, 400, 3000].into_iter().enumerate() {
                let chunk_size = [20, 100, 1000, 37][(qi + fi + bi) % 4];
                let plain = with_clauses(q, &format!("{budget} tokens"), format, "");
                let streamed = with_clauses(
                    q,
                    &format!("{budget} tokens"),
                    format,
                    &format!("STREAM {{ all, chunk_size = {chunk_size} }}"),
                );
                let mut events: Vec<Event> = Vec::new();
                let r = interp.execute_stream(&parse(&streamed), &opts(), &mut events, &CancelToken::new());
                check_stream(&streamed, &events, &r, budget, chunk_size);
                let whole = interp.execute(&parse(&plain), &opts());
                assert_eq!(whole.json["formatted_context"], r.json["formatted_context"], "{streamed}");
                assert_eq!(whole.json["sources"], r.json["sources"], "{streamed}");
                n += 1;
            }
        }
    }
    assert_eq!(n, 96);
}

#[test]
fn a_grains_budget_counts_down_in_grains() {
    let q = format!("ASSEMBLE ctx {SOURCES} BUDGET 5 grains FORMAT text STREAM {{ chunks, chunk_size = 20 }}");
    let (events, r) = stream(&q);
    let remaining: Vec<u64> = events
        .iter()
        .filter_map(
            |e| if let EventBody::Chunk { budget_remaining, .. } = e.body { Some(budget_remaining) } else { None },
        )
        .collect();
    let included: usize =
        r.json["sources"].as_array().unwrap().iter().map(|s| s["results"].as_array().map_or(0, Vec::len)).sum();
    assert_eq!(included, 5);
    assert_eq!(remaining.last(), Some(&0), "{remaining:?}");
    assert!(remaining.windows(2).all(|w| w[0] > w[1]), "{remaining:?}");
}

#[test]
fn stream_options_filter_the_events() {
    let base = format!("ASSEMBLE ctx {SOURCES} BUDGET 300 tokens FORMAT sml");
    let all = ["assembly_started", "source_started", "source_completed", "dedup_completed", "budget_allocated"];
    let progress = ["assembly_started", "source_started", "source_completed", "assembly_completed"];
    let budget = ["dedup_completed", "budget_allocated", "disclosure_decided"];
    let cases: [(&str, &[&str]); 8] = [
        ("STREAM", &[&all[..], &["disclosure_decided", "chunk", "assembly_completed"]].concat()),
        ("STREAM { all }", &[&all[..], &["disclosure_decided", "chunk", "assembly_completed"]].concat()),
        ("STREAM { chunk_size = 50 }", &[&all[..], &["disclosure_decided", "chunk", "assembly_completed"]].concat()),
        ("STREAM { progress }", &progress),
        ("STREAM { budget }", &budget),
        ("STREAM { chunks }", &["chunk"]),
        ("STREAM { progress, chunks }", &[&progress[..], &["chunk"]].concat()),
        ("STREAM { budget, budget, chunks }", &[&budget[..], &["chunk"]].concat()),
    ];
    for (clause, want) in cases {
        let (events, r) = stream(&format!("{base} {clause}"));
        let mut got: Vec<&str> = kinds(&events);
        got.dedup();
        let mut got_set: Vec<&str> = got.clone();
        got_set.sort();
        got_set.dedup();
        let mut want_set: Vec<&str> = want.to_vec();
        want_set.sort();
        want_set.dedup();
        assert_eq!(got_set, want_set, "{clause}: {got:?}");
        assert!(events.iter().enumerate().all(|(i, e)| e.seq == i as u64), "{clause}: seq counts delivered events");
        if want.contains(&"chunk") {
            assert_eq!(chunk_texts(&events).concat(), text(&r), "{clause}");
        }
    }
}

#[test]
fn chunks_concatenate_to_the_text_in_every_format_and_never_split_an_element() {
    for format in ["sml", "markdown", "text", "json", "yaml", "triples", "toon"] {
        let q = format!(
            r#"ASSEMBLE ctx FOR "helping alice" {SOURCES} BUDGET 1500 tokens FORMAT {format} STREAM {{ chunks, chunk_size = 20 }}"#
        );
        let (events, r) = stream(&q);
        let chunks = chunk_texts(&events);
        assert!(chunks.len() > 3, "{format}: {}", chunks.len());
        assert_eq!(chunks.concat(), text(&r), "{format}");
        for c in &chunks[..chunks.len() - 1] {
            assert!(c.ends_with('\n'), "{format}: a chunk ends at a line end: {c:?}");
        }
        for (i, c) in chunks.iter().enumerate() {
            let inner = c.trim_end();
            match format {
                // Every tag a chunk opens it closes (the envelope aside).
                "sml" => {
                    let body: Vec<&str> = inner.lines().filter(|l| !l.contains("context")).collect();
                    assert!(body.iter().all(|l| l.starts_with('<') && l.ends_with('>') && l.contains("</")), "{c:?}");
                }
                // A chunk starts with an object: a grain, or a source holding the next grain.
                "json" if i > 0 => assert!(inner.trim_start().starts_with('{'), "{c:?}"),
                // A YAML chunk starts with a grain's `- type:` line or the source holding it.
                "yaml" if i > 0 => {
                    let first = inner.trim_start();
                    assert!(first.starts_with("- type:") || first.starts_with("- label:"), "{c:?}");
                }
                // TOON: the metadata header is in the first chunk (§10.9.7); rows are whole lines.
                "toon" if i == 0 => assert!(c.starts_with("context: ctx\n"), "{c:?}"),
                "markdown" => assert!(
                    inner
                        .lines()
                        .all(|l| l.starts_with("- ") || l.starts_with("**") || l.starts_with("## ") || l.is_empty()),
                    "{c:?}"
                ),
                _ => {}
            }
        }
        if format == "sml" {
            assert!(
                chunks[0].starts_with("<context intent=\"helping alice\">\n<"),
                "the first chunk opens the envelope"
            );
            assert!(chunks.last().unwrap().ends_with("</context>"), "the last chunk closes it");
        }
        if format == "json" {
            assert!(serde_json::from_str::<Json>(&chunks.concat()).is_ok());
        }
    }
}

#[test]
fn an_empty_envelope_is_one_chunk_and_an_empty_text_none() {
    let nothing = r#"(RECALL beliefs WHERE subject = "nobody-at-all")"#;
    let (events, r) = stream(&format!("ASSEMBLE ctx FROM a: {nothing} FORMAT sml STREAM {{ chunks }}"));
    assert_eq!(chunk_texts(&events), vec![text(&r).to_string()]);
    assert!(text(&r).starts_with("<context"), "{}", text(&r));
    let (events, r) = stream(&format!("ASSEMBLE ctx FROM a: {nothing} FORMAT text STREAM"));
    assert_eq!(text(&r), "");
    assert!(chunk_texts(&events).is_empty());
    assert_eq!(kinds(&events).last(), Some(&"assembly_completed"));
}

/// A sink that cancels after it has received `k` chunks.
fn cancel_after(k: usize, events: &mut Vec<Event>) -> impl FnMut(&Event) -> Control + '_ {
    move |e: &Event| {
        events.push(e.clone());
        let chunks = events.iter().filter(|e| e.body.kind() == "chunk").count();
        if e.body.kind() == "chunk" && chunks == k { Control::Cancel("enough".into()) } else { Control::Continue }
    }
}

#[test]
fn cancelling_after_k_chunks_gives_a_valid_partial_result() {
    let audit = Arc::new(MemoryAudit::default());
    let config = cal_interp::InterpConfig { audit: Some(audit.clone()), ..Default::default() };
    let interp = Interpreter::new(OmsFacade::new(store()), config);
    for format in ["sml", "json", "markdown", "toon", "text"] {
        let q = format!("ASSEMBLE ctx {SOURCES} BUDGET 2000 tokens FORMAT {format} STREAM {{ all, chunk_size = 40 }}");
        let full = interp.execute(&parse(&q), &opts());
        for k in [1, 3] {
            let mut events = Vec::new();
            let r = interp.execute_stream(&parse(&q), &opts(), &mut cancel_after(k, &mut events), &CancelToken::new());
            assert!(r.error.is_none(), "{format}: cancelled is not an error");
            assert_eq!(kinds(&events).last(), Some(&"cancelled"), "{format}: {:?}", kinds(&events));
            assert!(!kinds(&events).contains(&"assembly_completed"));
            assert_eq!(chunk_texts(&events).len(), k, "{format}: no chunk after the cancel");
            let EventBody::Cancelled { code, reason, phase, chunks_delivered, tokens_delivered } =
                &events.last().unwrap().body
            else {
                unreachable!()
            };
            assert_eq!((code.as_str(), reason.as_str(), phase.as_str()), ("CAL-E082", "enough", "formatting"));
            assert_eq!(*chunks_delivered, k);
            let delivered: String = chunk_texts(&events).concat();
            assert_eq!(
                *tokens_delivered,
                events
                    .iter()
                    .filter_map(|e| match e.body {
                        EventBody::Chunk { tokens, .. } => Some(tokens),
                        _ => None,
                    })
                    .sum::<usize>()
            );
            assert_eq!(r.json["cancelled"]["chunks_delivered"], k);
            let partial = text(&r);
            assert_eq!(r.json["formatted_context"]["partial"], true);
            assert_eq!(r.json["formatted_context"]["tokens"], cal_render::tokens::count(partial), "{format}");
            assert!(partial.len() < text(&full).len(), "{format}: partial is smaller");
            let results: usize =
                r.json["sources"].as_array().unwrap().iter().map(|s| s["results"].as_array().map_or(0, Vec::len)).sum();
            assert!(results > 0 && results < 19, "{format}: {results}");
            match format {
                // The delivered chunks are the partial document up to its closing.
                "sml" => assert_eq!(format!("{delivered}</context>"), partial),
                "json" => {
                    let v: Json = serde_json::from_str(partial).expect("the partial JSON is well-formed");
                    let n: usize =
                        v["sources"].as_array().unwrap().iter().map(|s| s["grains"].as_array().unwrap().len()).sum();
                    assert_eq!(n, results);
                }
                "markdown" | "text" => assert_eq!(delivered.trim_end(), partial),
                _ => assert!(partial.starts_with("context: ctx\n"), "{partial}"),
            }
        }
    }
    let entries = audit.entries();
    let cancelled = entries.iter().filter(|e| e.stream.as_ref().is_some_and(|s| s.cancelled)).count();
    assert_eq!(cancelled, 10, "every cancelled stream is in the audit trail");
    let s = entries.iter().find_map(|e| e.stream.clone()).unwrap();
    assert_eq!(s.cancel_reason.as_deref(), Some("enough"));
    assert_eq!(entries.iter().find(|e| e.stream.is_some()).unwrap().to_json()["stream_enabled"], true);
}

#[test]
fn a_token_cancels_between_sources() {
    let token = CancelToken::new();
    let t = token.clone();
    let mut events: Vec<Event> = Vec::new();
    let mut sink = |e: &Event| {
        events.push(e.clone());
        if e.body.kind() == "source_completed" {
            t.cancel("client closed the connection");
        }
        Control::Continue
    };
    let q = format!("ASSEMBLE ctx {SOURCES} FORMAT sml STREAM");
    let r = interp().execute_stream(&parse(&q), &opts(), &mut sink, &token);
    assert_eq!(kinds(&events), ["assembly_started", "source_started", "source_completed", "cancelled"]);
    assert_eq!(r.json["cancelled"]["phase"], "source_resolution");
    assert_eq!(r.json["cancelled"]["reason"], "client closed the connection");
    assert_eq!(text(&r), "");
    let sources = r.json["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 3);
    assert_eq!(sources[0]["label"], "prefs");
    assert!(sources[0]["candidates"].as_u64().unwrap() > 0);
    assert_eq!(sources[1]["status"], "not_run");
    assert_eq!(sources[2]["status"], "not_run");
}

#[test]
fn a_cancel_after_the_last_chunk_changes_nothing() {
    let q = format!("ASSEMBLE ctx {SOURCES} BUDGET 200 tokens FORMAT text STREAM {{ chunks, chunk_size = 1000 }}");
    let mut events = Vec::new();
    let r = interp().execute_stream(&parse(&q), &opts(), &mut cancel_after(1, &mut events), &CancelToken::new());
    assert_eq!(chunk_texts(&events).len(), 1);
    assert!(r.json.get("cancelled").is_none(), "everything was delivered");
    assert!(!kinds(&events).contains(&"cancelled"));
}

#[test]
fn failures_end_the_stream_with_an_error_event() {
    let bad = "(RECALL events THREAD FROM sha256:00000000deadbeef)";
    // One failing source: reported, its budget redistributed, the stream completes.
    let (events, r) = stream(&format!(r#"ASSEMBLE ctx FROM bad: {bad}, ok: (RECALL beliefs ABOUT "alice") STREAM"#));
    assert!(r.error.is_none());
    let failed = events.iter().find_map(|e| match &e.body {
        EventBody::SourceCompleted { status, error, .. } if status == "failed" => error.clone(),
        _ => None,
    });
    assert_eq!(failed.unwrap()["code"], "CAL-E046");
    let allocated = events.iter().find_map(|e| match &e.body {
        EventBody::BudgetAllocated { sources, .. } => Some(sources.clone()),
        _ => None,
    });
    let allocated = allocated.unwrap();
    assert!(allocated.iter().any(|s| s.source == "bad" && s.failed && s.allocated == 0), "{allocated:?}");
    let EventBody::AssemblyCompleted { summary } = &events.last().unwrap().body else { panic!("{:?}", kinds(&events)) };
    assert_eq!(summary.sources_failed, 1);
    // Every source failing: CAL-E076, as the last event, even when only chunks were asked for.
    let (events, r) = stream(&format!("ASSEMBLE ctx FROM a: {bad}, b: {bad} STREAM {{ chunks }}"));
    assert_eq!(r.error.as_ref().map(|d| d.code.as_str()), Some("CAL-E076"));
    assert_eq!(kinds(&events), ["error"]);
    let EventBody::Error { phase, error } = &events[0].body else { unreachable!() };
    assert_eq!((phase.as_str(), error["code"].as_str()), ("source_resolution", Some("CAL-E076")));
    let (events, _) = stream(&format!("ASSEMBLE ctx FROM a: {bad}, b: {bad} STREAM"));
    assert_eq!(
        kinds(&events),
        ["assembly_started", "source_started", "source_completed", "source_started", "source_completed", "error"]
    );
}

#[test]
fn an_unchecked_chunk_size_is_refused_at_run_time() {
    // The checker reports CAL-E078; a query that skipped it gets the same code from the interpreter.
    for n in [5, 1001] {
        let q = format!(r#"ASSEMBLE ctx FROM a: (RECALL beliefs ABOUT "alice") STREAM {{ chunk_size = {n} }}"#);
        let (events, r) = stream(&q);
        assert_eq!(r.error.as_ref().map(|d| d.code.as_str()), Some("CAL-E078"), "{n}");
        assert_eq!(kinds(&events), ["error"]);
        let plain = interp().execute(&parse(&q), &opts());
        assert_eq!(plain.error.as_ref().map(|d| d.code.as_str()), Some("CAL-E078"));
    }
}

#[test]
fn without_a_stream_the_response_is_complete_and_says_so() {
    let q = format!("ASSEMBLE ctx {SOURCES} FORMAT sml STREAM {{ progress }}");
    let r = interp().execute(&parse(&q), &opts());
    assert!(r.json["_cal"]["notes"].to_string().contains("STREAM: this response is the complete result"));
    assert!(r.json.get("cancelled").is_none());
    // Other statements stream nothing.
    let mut events: Vec<Event> = Vec::new();
    let r =
        interp().execute_stream(&parse(r#"RECALL beliefs ABOUT "alice""#), &opts(), &mut events, &CancelToken::new());
    assert!(events.is_empty() && r.error.is_none());
}

#[test]
fn the_same_request_streams_the_same_events() {
    let q = format!("ASSEMBLE ctx {SOURCES} BUDGET 300 tokens FORMAT toon STREAM");
    let (a, _) = stream(&q);
    let (b, _) = stream(&q);
    assert_eq!(a, b);
    let lines: Vec<String> = a.iter().map(Event::to_ndjson).collect();
    for (l, e) in lines.iter().zip(&a) {
        let back: Event = serde_json::from_str(l).expect("an NDJSON line reads back");
        assert_eq!(&back, e);
        assert!(l.starts_with(&format!("{{\"type\":\"{}\",\"assembly_id\":\"asm_", e.body.kind())), "{l}");
    }
}

#[test]
fn snapshot_of_a_full_stream() {
    let q = r#"ASSEMBLE alice_context FOR "helping alice prepare her Q1 review"
        FROM prefs: (RECALL beliefs ABOUT "alice" WHERE relation IS PREFERENCE | LIMIT 4),
             goals: (RECALL goals ABOUT "alice")
        BUDGET 250 tokens PRIORITY prefs > goals FORMAT sml STREAM { all, chunk_size = 40 }"#;
    let (events, _) = stream(q);
    let lines: Vec<String> = events.iter().map(Event::to_ndjson).collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn describe_declares_streaming() {
    let r = interp().execute(&parse("DESCRIBE capabilities"), &opts());
    let caps = &r.json["capabilities"];
    assert_eq!(caps["streaming"], true);
    assert_eq!(caps["streaming_transports"], serde_json::json!(["ndjson"]));
    assert!(caps["levels"]["full"]["implemented"].to_string().contains("STREAM"));
}

/// A small deterministic generator for the property below (no shrinking needed: a failing
/// case prints its query).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

#[test]
fn property_random_budgets_chunk_sizes_and_cancel_points() {
    let interp = interp();
    let queries = queries();
    let mut rng = Lcg(0x5eed_cafe);
    let (mut completed, mut cancelled) = (0, 0);
    for _ in 0..60 {
        let q = &queries[rng.below(queries.len() as u64) as usize];
        let format = FORMATS[rng.below(FORMATS.len() as u64) as usize];
        let budget = 30 + rng.below(3000);
        let chunk_size = 20 + rng.below(981) as usize;
        let cancel_at = rng.below(5) as usize; // 0: never
        let text_q =
            with_clauses(q, &format!("{budget} tokens"), format, &format!("STREAM {{ chunk_size = {chunk_size} }}"));
        let mut events = Vec::new();
        let r = if cancel_at == 0 {
            interp.execute_stream(&parse(&text_q), &opts(), &mut events, &CancelToken::new())
        } else {
            interp.execute_stream(
                &parse(&text_q),
                &opts(),
                &mut cancel_after(cancel_at, &mut events),
                &CancelToken::new(),
            )
        };
        assert!(events.windows(2).all(|w| rank(&w[0].body) <= rank(&w[1].body)), "{text_q}: {:?}", kinds(&events));
        if r.json.get("cancelled").is_none() {
            check_stream(&text_q, &events, &r, budget, chunk_size);
            completed += 1;
            continue;
        }
        cancelled += 1;
        // Cancelled after `cancel_at` chunks: the delivered text is a prefix of the whole text,
        // and the partial result is a counted, well-formed document of fewer grains.
        let whole = interp.execute(&parse(&text_q), &opts());
        let delivered = chunk_texts(&events).concat();
        assert_eq!(chunk_texts(&events).len(), cancel_at, "{text_q}");
        assert!(text(&whole).starts_with(&delivered), "{text_q}");
        assert_eq!(kinds(&events).last(), Some(&"cancelled"), "{text_q}");
        let partial = text(&r);
        assert_eq!(r.json["formatted_context"]["tokens"], cal_render::tokens::count(partial), "{text_q}");
        let grains = |j: &Json| -> usize {
            j["sources"].as_array().unwrap().iter().map(|s| s["results"].as_array().map_or(0, Vec::len)).sum()
        };
        assert!(grains(&r.json) < grains(&whole.json), "{text_q}");
        match r.json["formatted_context"]["format"].as_str() {
            Some("sml") => assert_eq!(format!("{delivered}</context>"), partial, "{text_q}"),
            Some("json") => assert!(serde_json::from_str::<Json>(partial).is_ok(), "{text_q}: {partial}"),
            Some("template") => assert_eq!(delivered, partial, "{text_q}"),
            _ => {}
        }
    }
    assert!(completed >= 10 && cancelled >= 10, "both branches are exercised: {completed} / {cancelled}");
}

#[test]
fn auto_toon_streams_the_text_it_switched_to() {
    let config = cal_interp::InterpConfig { auto_toon: true, ..Default::default() };
    let interp = Interpreter::new(OmsFacade::new(store()), config);
    let q = r#"ASSEMBLE ctx FOR "alice" FROM b: (RECALL beliefs ABOUT "alice" LIMIT 20),
        g: (RECALL goals ABOUT "alice" LIMIT 5) BUDGET 60 tokens STREAM { chunk_size = 20 }"#;
    let mut events: Vec<Event> = Vec::new();
    let r = interp.execute_stream(&parse(q), &opts(), &mut events, &CancelToken::new());
    assert_eq!(r.json["formatted_context"]["format"], "toon", "{}", r.json);
    check_stream(q, &events, &r, 60, 20);
    let EventBody::AssemblyStarted { format, .. } = &events[0].body else { unreachable!() };
    assert_eq!(format, "markdown", "assembly_started names the format asked for");
    let EventBody::AssemblyCompleted { summary } = &events.last().unwrap().body else { unreachable!() };
    assert_eq!(summary.format, "toon", "the summary the one used");
}

#[test]
fn events_as_server_sent_events_and_in_the_audit_trail() {
    let audit = Arc::new(MemoryAudit::default());
    let config = cal_interp::InterpConfig { audit: Some(audit.clone()), ..Default::default() };
    let interp = Interpreter::new(OmsFacade::new(store()), config);
    let q = format!("ASSEMBLE ctx {SOURCES} BUDGET 200 tokens FORMAT markdown STREAM {{ progress, chunks }}");
    let mut events: Vec<Event> = Vec::new();
    interp.execute_stream(&parse(&q), &opts(), &mut events, &CancelToken::new());
    let sse = events[0].to_sse();
    assert!(sse.starts_with("id: 0\nevent: assembly_started\ndata: {\"type\":\"assembly_started\""), "{sse}");
    assert!(sse.ends_with("}\n\n") && sse.matches('\n').count() == 4, "one data line, then a blank line: {sse:?}");
    let entry = audit.entries().pop().unwrap();
    let s = entry.stream.expect("a streamed request has the streaming audit fields");
    assert_eq!(s.events_emitted, events.len() as u64);
    assert_eq!(s.stream_options, ["progress", "chunks"]);
    assert!(!s.cancelled && s.cancel_reason.is_none() && s.sources_failed == 0);
    interp.execute(&parse(&q), &opts());
    assert!(audit.entries().pop().unwrap().stream.is_none(), "not streamed: no streaming fields");
}

/// Every ASSEMBLE of the parser's and checker's corpora (valid or not, recovered trees
/// included) streams without a panic, completed or cancelled at its first event, and its
/// stream ends as its response says.
#[test]
fn every_corpus_assemble_streams_and_ends_as_its_response_says() {
    let files = common::corpus_files();
    let interp = interp();
    let mut assembles = 0;
    for f in &files {
        let Ok(source) = std::fs::read_to_string(f) else { continue };
        let Some(doc) = cal_parser::parse_document(&source).ast else { continue };
        for q in doc.queries.iter().filter(|q| {
            matches!(&q.body, cal_parser::ast::QueryBody::Statement(cal_parser::ast::Statement::Assemble(_)))
        }) {
            assembles += 1;
            for cancel in [false, true] {
                let mut events: Vec<Event> = Vec::new();
                let r = if cancel {
                    let mut sink = |e: &Event| {
                        events.push(e.clone());
                        Control::Cancel("first event".into())
                    };
                    interp.execute_stream(q, &opts(), &mut sink, &CancelToken::new())
                } else {
                    interp.execute_stream(q, &opts(), &mut events, &CancelToken::new())
                };
                let last = kinds(&events).last().copied();
                let name = f.display();
                if r.error.is_some() {
                    assert_eq!(last, Some("error"), "{name}");
                } else if r.json.get("cancelled").is_some() {
                    assert_eq!(last, Some("cancelled"), "{name}");
                } else if kinds(&events).contains(&"chunk") {
                    assert_eq!(chunk_texts(&events).concat(), text(&r), "{name}");
                }
                assert!(events.windows(2).all(|w| rank(&w[0].body) <= rank(&w[1].body)), "{name}");
            }
        }
    }
    assert!(assembles >= 20, "{assembles}");
}
