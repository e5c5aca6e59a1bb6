//! The bodies of the byte-level targets, one function each, so the cargo-fuzz binaries and
//! the regression replay test (`tests/regressions.rs`) run the same checks on the same bytes.
//! Each function panics on a violated property and returns normally otherwise.

use std::sync::{Arc, OnceLock};

use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_grammar::{Code, Diagnostic};
use cal_interp::demo::{self, NOW_MS};
use cal_interp::{ExecOptions, store_digest};
use oms::store::Store;
use sha2::{Digest, Sha256};

fn check_spans(input: &[u8], text: Option<&str>, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        assert!(Code::ALL.contains(&d.code), "code {:?} not in the registry", d.code);
        for s in std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span)) {
            let (start, end) = (s.start as usize, s.end as usize);
            assert!(start <= end && end <= input.len(), "span {start}..{end} outside {} bytes", input.len());
            if let Some(t) = text {
                assert!(t.is_char_boundary(start) && t.is_char_boundary(end), "span {start}..{end} splits a character");
            }
        }
    }
}

/// Lexer and parser on raw bytes: never panic, every diagnostic span on character
/// boundaries inside the input, every code from the registry.
pub fn parse_bytes(data: &[u8]) {
    let text = std::str::from_utf8(data).ok();
    check_spans(data, text, &cal_parser::parse_query_bytes(data).diagnostics);
    if let Some(t) = text {
        check_spans(data, text, &cal_parser::parse_document(t).diagnostics);
    }
}

/// print → parse idempotency: a query that parses without errors prints to text that
/// parses without errors and prints the same text again.
pub fn print_idempotent(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return;
    }
    for q in parsed.ast.iter().flat_map(|d| &d.queries) {
        let Some((printed, q2)) = reparse_printed(q) else { continue };
        assert_eq!(printed, cal_parser::print::query_to_text(&q2), "printing is not idempotent");
    }
    if let Some(doc) = &parsed.ast {
        format_keeps_comments(text, doc);
    }
}

/// `cal fmt` on a whole file: every comment kept in order, the same queries, and
/// formatting the output changes nothing.
fn format_keeps_comments(text: &str, doc: &cal_parser::ast::Document) {
    let out = cal_parser::print::format_source(text, doc).text;
    if doc.queries.iter().any(|q| cal_parser::print::query_to_text(q).len() > MAX_QUERY_BYTES) {
        return;
    }
    assert_eq!(comments(&out), comments(text), "a comment was lost or reordered:\n{out}");
    let again = cal_parser::parse_document(&out);
    assert!(!again.has_errors(), "formatted text does not parse:\n{out}\n{:?}", again.diagnostics);
    let again = again.ast.expect("no errors means a tree");
    let json =
        |d: &cal_parser::ast::Document| d.queries.iter().map(cal_parser::json::query_to_json).collect::<Vec<_>>();
    assert_eq!(json(&again), json(doc), "formatting changed the queries:\n{out}");
    assert_eq!(cal_parser::print::format_source(&out, &again).text, out, "formatting is not idempotent");
}

/// The comments of `text` in order (what follows `--` outside every token, trailing spaces cut).
fn comments(text: &str) -> Vec<&str> {
    let tokens = cal_lexer::lex(text).tokens;
    let mut found = Vec::new();
    let mut at = 0;
    for end in tokens.iter().map(|(_, s)| (s.start as usize, s.end as usize)).chain([(text.len(), text.len())]) {
        for line in text[at..end.0].split(['\r', '\n']) {
            if let Some(i) = line.find("--") {
                found.push(line[i..].trim_end());
            }
        }
        at = end.1;
    }
    found
}

/// Prints `q` and parses the text again, which must succeed; `None` when the
/// canonical spacing pushed a query near the limit over it (CAL-E001), which
/// is not a printer bug.
fn reparse_printed(q: &cal_parser::ast::Query) -> Option<(String, cal_parser::ast::Query)> {
    let printed = cal_parser::print::query_to_text(q);
    if printed.len() > MAX_QUERY_BYTES {
        return None;
    }
    let again = cal_parser::parse_query(&printed);
    assert!(!again.has_errors(), "printed text does not parse:\n{printed}\n{:?}", again.diagnostics);
    let tree = again.ast.expect("no errors means a tree");
    Some((printed, tree))
}

/// JSON → text → JSON: a document accepted from `application/json+cal` prints to text
/// that parses without errors back to the same JSON.
pub fn json_roundtrip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(doc) = cal_parser::json::from_json_text(text) else { return };
    for q in &doc.queries {
        let Some((printed, q2)) = reparse_printed(q) else { continue };
        let json = cal_parser::json::query_to_json(q);
        assert_eq!(json, cal_parser::json::query_to_json(&q2), "JSON → text → JSON changed:\n{printed}");
    }
}

/// A blob that decodes re-encodes to the same bytes (it was canonical, §4), and the
/// re-encoded bytes decode to the same grain.
pub(crate) fn mg_blob(data: &[u8]) {
    // The one-pass canonical check answers as its oracle, the re-encoding, does: the same
    // grain or the same error.
    let decoded = oms::decode(data);
    let oracle = oms::grain::decode_by_reencoding(data, &oms::DecodeOptions::default());
    assert_eq!(decoded, oracle, "the one-pass check and the re-encoding disagree");
    if let Ok(grain) = decoded {
        let blob = grain.encode().expect("a decoded grain encodes");
        assert_eq!(blob.bytes, data, "re-encoding a decoded blob changed its bytes");
        assert_eq!(oms::decode(&blob.bytes).as_ref(), Ok(&grain), "decode(encode(grain)) differs");
    }
}

fn mg_file(data: &[u8]) {
    if let Ok(f) = oms::mg::MgFile::open(data) {
        let _ = (f.header(), f.len(), f.manifest());
        for entry in f.entries().flatten() {
            mg_blob(entry);
        }
    }
    let _ = oms::mg::verify(data);
}

/// A grain given as JSON (as `cal mg encode` takes it): when it encodes, the blob decodes
/// to the same grain, and that grain encodes to the same bytes again.
fn mg_grain_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(grain) = oms::Grain::from_json_str(text) else { return };
    let Ok(blob) = grain.encode() else { return };
    let back = oms::decode(&blob.bytes).expect("an encoded grain decodes");
    // Encoding normalizes (NFC strings, nulls omitted from maps, sensitivity bits from tags,
    // §4): `back` is the normalized grain, not `grain` itself (issue 19: comparing with the
    // input failed on the target's own seeds). The normalized grain is a fixed point.
    let again = back.encode().expect("encodes again");
    assert_eq!(again.bytes, blob.bytes, "encoding is not canonical: the normalized grain encodes differently");
    assert_eq!(oms::decode(&again.bytes).expect("decodes again"), back, "the normalized grain is not a fixed point");
}

/// `.mg` decoding and canonical re-encoding. The first byte selects the mode: 0 a blob,
/// 1 a file as given, 2 a file whose SHA-256 footer is appended (so mutations get past
/// the integrity check), 3 a grain as JSON, encoded then decoded.
pub fn mg_decode(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    match mode % 4 {
        0 => mg_blob(rest),
        1 => mg_file(rest),
        2 => {
            let mut v = rest.to_vec();
            v.extend_from_slice(&Sha256::digest(rest));
            mg_file(&v);
        }
        _ => mg_grain_json(rest),
    }
}

fn demo_store() -> &'static (Arc<Store>, String) {
    static STORE: OnceLock<(Arc<Store>, String)> = OnceLock::new();
    STORE.get_or_init(|| {
        let s = Arc::new(demo::load(NOW_MS).expect("the demo store loads"));
        let d = store_digest(&s);
        (s, d)
    })
}

/// Checker and interpreter on text: `cal_checker::analyze`; every query of a clean
/// document runs twice over the demo store with a fixed clock: no panic, the same
/// response, the store digest unchanged.
pub fn check_run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let analysis = cal_checker::analyze(text, None);
    if analysis.has_errors() {
        return;
    }
    let Some(doc) = analysis.document else { return };
    let (store, digest) = demo_store();
    let opts = ExecOptions::fixed(NOW_MS);
    for q in &doc.queries {
        // A fresh interpreter per run: DEFINE TEMPLATE is session state (a second definition
        // of the same name is CAL-E088), and the store is what must not change.
        let run = || cal_interp::over(store.clone()).execute(q, &opts);
        let (first, second) = (run(), run());
        assert_eq!(first.json, second.json, "same query twice, different responses");
    }
    assert_eq!(&store_digest(store), digest, "a Tier-0 query changed the store");
}

/// The intact store the `durable_open` target damages, and its answers to [`durable_queries`].
fn good_store() -> &'static (Vec<u8>, Vec<Vec<oms::ContentAddress>>) {
    static GOOD: OnceLock<(Vec<u8>, Vec<Vec<oms::ContentAddress>>)> = OnceLock::new();
    GOOD.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("cal-fuzz-durable-good-{}.db", std::process::id()));
        remove_store(&path);
        let store = oms::durable::DurableStore::create(&path, oms::store::StoreConfig::fixed_clock(NOW_MS))
            .expect("a store can be created");
        store.import_mg(crate::sample::demo_sample()).expect("the demo sample imports");
        let answers: Vec<_> =
            durable_answers(&store).into_iter().map(|a| a.expect("the intact store answers")).collect();
        assert!(answers.iter().all(|a| !a.is_empty()), "each query finds grains in the intact store");
        drop(store);
        let bytes = std::fs::read(&path).expect("the store file reads");
        remove_store(&path);
        (bytes, answers)
    })
}

fn remove_store(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

/// A structured query by subject, the whole current view, and a text search.
fn durable_answers(store: &oms::durable::DurableStore) -> Vec<oms::Result<Vec<oms::ContentAddress>>> {
    use oms::store::{CmpOp, Filter, Query, View};
    let addresses =
        |r: oms::Result<oms::store::ResultEnvelope>| r.map(|e| e.results.iter().map(|h| h.address).collect());
    let subject = Filter::Cmp { field: "subject".into(), op: CmpOp::Eq, value: oms::Value::Str("alice".into()) };
    vec![
        addresses(store.query(&Query { filters: vec![subject], ..Query::default() })),
        addresses(store.query(&Query { view: View::All, ..Query::default() })),
        addresses(store.search("dark mode", &Query::default())),
    ]
}

/// A damaged store database: the intact store of the demo sample (`sample.rs`: a few dozen
/// grains of every kind, so each input costs little) with the input applied as damage
/// (every 5 bytes: a little-endian offset and a byte XORed in there; a remainder of 1–4
/// bytes truncates the file in proportion). Opening, querying and verifying never panic;
/// and when `verify` passes on the damaged file, every query answers exactly as on the
/// intact one: damage that changes an answer must be found.
pub fn durable_open(data: &[u8]) {
    let (good, reference) = good_store();
    let mut bytes = good.clone();
    for chunk in data.chunks_exact(5) {
        let off = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) as usize % bytes.len();
        bytes[off] ^= chunk[4];
    }
    let rest = data.len() % 5;
    if rest > 0 {
        bytes.truncate(bytes.len() * (5 - rest) / 5);
    }
    let path = std::env::temp_dir().join(format!("cal-fuzz-durable-{}.db", std::process::id()));
    remove_store(&path);
    if std::fs::write(&path, &bytes).is_err() {
        return;
    }
    let opts = oms::durable::OpenOptions { read_batch: 7, ..oms::durable::OpenOptions::read_only() };
    if let Ok(store) = oms::durable::DurableStore::open(&path, oms::store::StoreConfig::fixed_clock(NOW_MS), opts) {
        let answers = durable_answers(&store);
        if store.verify().is_ok() {
            for (got, want) in answers.iter().zip(reference) {
                assert_eq!(got.as_ref().ok(), Some(want), "verify passed, yet an answer changed");
            }
        }
    }
    remove_store(&path);
}
