//! Drives the server through a long random sequence of incremental edits
//! (multi-byte characters included) interleaved with requests, then checks it
//! is alive and that the last diagnostics published are those of the final text.

mod common;

use cal_lsp::engine::{Document, Encoding, Lines, diagnostics};
use common::Client;
use serde_json::json;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "RECALL ",
    "beliefs ",
    "WHERE ",
    "subject = \"é😀\" ",
    "AND ",
    "relation IS PREFERENCE ",
    "| LIMIT 5",
    ";\n",
    "LET $a = RECALL events;\n",
    "ASSEMBLE c FROM x: (RECALL goals) PRIORITY x",
    "\"",
    "(",
    ")",
    "{{",
    "}}",
    "--",
    "\n",
    "WITH diversity(mmr, ",
    "DEFINE TEMPLATE t { HEADER { {{assembly.name}} } }",
    "ADD belief SET ",
    "sha256:",
    "é",
    "😀",
    " ",
    "DELETE ",
    "$a",
    "x_",
    "[",
    "]",
];

fn char_boundary(text: &str, rng: &mut Rng) -> usize {
    let mut i = rng.below(text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[tokio::test(flavor = "current_thread")]
async fn random_edits_never_crash_and_diagnostics_are_current() {
    let uri = "file:///random.cal";
    let mut c = Client::start(5);
    c.initialize(&[]).await;
    let mut text = String::from("RECALL beliefs WHERE subject = \"a\"");
    c.open(uri, &text).await;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut version = 1;
    for step in 0..400 {
        let a = char_boundary(&text, &mut rng);
        let b = char_boundary(&text, &mut rng);
        let (a, b) = (a.min(b), a.max(b).min(a + 40));
        let b = (b..=text.len()).find(|i| text.is_char_boundary(*i)).unwrap_or(text.len());
        let insert = if rng.below(3) == 0 { "" } else { PIECES[rng.below(PIECES.len())] };
        let lines = Lines::new(&text, Encoding::Utf16);
        let (sl, sc) = lines.position(a as u32);
        let (el, ec) = lines.position(b as u32);
        text.replace_range(a..b, insert);
        version += 1;
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}, "text": insert}]}),
        )
        .await;
        if step % 10 == 0 {
            let at = char_boundary(&text, &mut rng);
            let p = Lines::new(&text, Encoding::Utf16).position(at as u32);
            let position = json!({"line": p.0, "character": p.1});
            c.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": position})).await;
            c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": position})).await;
            c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}})).await;
            c.request(
                "textDocument/formatting",
                json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
            )
            .await;
        }
        if step % 50 == 0 {
            // Let the debounce fire sometimes, so analysis and edits interleave.
            tokio::time::sleep(std::time::Duration::from_millis(8)).await;
        }
    }
    let published = c.diagnostics(Some(version)).await;
    let expected = diagnostics::diagnostics(&Document::new(text.clone(), version as i32));
    let got = published["diagnostics"].as_array().unwrap();
    assert_eq!(got.len(), expected.len(), "final text: {text:?}");
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g["code"], e.code);
        assert_eq!(g["message"], e.message);
    }
    // Still responsive.
    assert_eq!(c.request("shutdown", json!(null)).await, json!(null));
}
