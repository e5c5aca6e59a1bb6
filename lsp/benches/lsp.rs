//! Language-server latency: diagnostics for a 2,000-line `.cal` file after a
//! one-character edit (budget 20 ms) and completion in it (budget 5 ms).
//! Figures are recorded in docs/performance-lsp.md.

use cal_lsp::engine::{Document, Encoding, completion, diagnostics, hover};

fn main() {
    divan::main();
}

/// 2,000 lines: 400 five-line queries of the kinds an editor holds.
fn big_document() -> String {
    let mut s = String::new();
    for i in 0..400 {
        match i % 4 {
            0 => s.push_str(&format!(
                "-- query {i}\nRECALL beliefs\n  WHERE subject = \"user-{i}\" AND relation IS PREFERENCE\n  WITH diversity(mmr, lambda = 0.5)\n  | ORDER BY confidence DESC | LIMIT 10;\n"
            )),
            1 => s.push_str(
                "LET $recent = RECALL events WHERE time = \"last 7 days\" | SUBJECTS;\nRECALL goals\n  WHERE goal_state = \"active\"\n  AND subject IN ($recent)\n  AS markdown;\n",
            ),
            2 => s.push_str(&format!(
                "ASSEMBLE ctx_{i} FOR \"planning\"\n  FROM facts: (RECALL beliefs ABOUT \"alice\"), todo: (RECALL goals)\n  BUDGET 2000 tokens\n  PRIORITY todo > facts\n  FORMAT readable;\n"
            )),
            _ => s.push_str(&format!(
                "RECALL actions\n  WHERE action_phase = \"call\"\n  AND tool_name = \"search-{i}\"\n  AND confidence >= 0.7\n  | LIMIT 5;\n"
            )),
        }
    }
    s
}

#[divan::bench]
fn diagnostics_after_one_character_edit(bencher: divan::Bencher) {
    let text = big_document();
    assert_eq!(text.lines().count(), 2000);
    let doc = Document::new(text, 1);
    let mut flip = false;
    bencher.with_inputs(|| doc.clone()).bench_local_values(|mut doc| {
        // Change one character in the middle of the file (line 1000), then analyze.
        flip = !flip;
        doc.apply_change((1001, 22), (1001, 23), if flip { "x" } else { "y" }, Encoding::Utf16);
        doc.set_version(2);
        doc.analyze();
        diagnostics::diagnostics(&doc).len()
    });
}

#[divan::bench]
fn completion_after_where(bencher: divan::Bencher) {
    let mut text = big_document();
    text.push_str("RECALL actions WHERE confidence >= 0.5 AND ");
    let at = text.len();
    bencher.bench(|| completion::complete(divan::black_box(&text), at).items.len());
}

#[divan::bench]
fn hover_on_a_field(bencher: divan::Bencher) {
    let text = big_document();
    let doc = Document::new(text.clone(), 1);
    let at = text.rfind("tool_name").unwrap_or(0) + 2;
    bencher.bench(|| hover::hover(divan::black_box(&text), doc.analysis.document.as_ref(), at).is_some());
}
