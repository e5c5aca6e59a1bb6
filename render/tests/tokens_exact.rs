//! The o200k_base tokenizer laid out at build time (`cal_render::o200k`) against the
//! reference, tiktoken-rs (issue 20): the same vocabulary, rank for rank; the same
//! pre-tokenizer pattern; and the same counts and token boundaries on a varied corpus
//! (multilingual text, emoji, code, whitespace runs, pieces long enough for the heap merge,
//! the demo memory's rendered outputs) and on generated text.

use cal_render::{o200k, tokens};
use proptest::prelude::*;
use serde_json::Value;
use std::sync::{Arc, OnceLock};
use tiktoken_rs::CoreBPE;

fn reference() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("tiktoken-rs embeds o200k_base"))
}

/// tiktoken's token starts: the byte length of each token, accumulated.
fn reference_starts(text: &str) -> Vec<usize> {
    let bpe = reference();
    let mut at = 0;
    let mut out = Vec::new();
    for t in bpe.encode_ordinary(text) {
        out.push(at);
        at += bpe.decode_bytes(&[t]).expect("a rank tiktoken produced").len();
    }
    out
}

fn assert_same(text: &str) {
    let expected = reference_starts(text);
    assert_eq!(tokens::starts(text), expected, "token starts of {text:?}");
    assert_eq!(tokens::count(text), expected.len(), "count of {text:?}");
}

#[test]
fn the_pattern_is_tiktokens() {
    assert_eq!(o200k::PATTERN, tiktoken_rs::O200K_BASE_PAT_STR);
}

#[test]
fn every_rank_has_tiktokens_bytes_and_is_found_by_them() {
    let bpe = reference();
    assert_eq!(o200k::vocabulary_len(), 199_999, "ranks 0..199998; 199999 is <|endoftext|>");
    let mut missing = 0;
    for r in 0..o200k::vocabulary_len() as u32 {
        match bpe.decode_bytes(&[r]) {
            Ok(bytes) => {
                assert_eq!(o200k::token_bytes(r), bytes.as_slice(), "bytes of rank {r}");
                assert_eq!(o200k::rank(&bytes), Some(r), "lookup of rank {r}");
            }
            Err(_) => {
                missing += 1;
                assert!(o200k::token_bytes(r).is_empty());
            }
        }
    }
    // o200k_base leaves one rank below <|endoftext|> unassigned.
    assert!(missing <= 1, "{missing} ranks missing");
    assert_eq!(o200k::rank(b"<|endoftext|>"), None, "special tokens are not ordinary text");
    assert_eq!(o200k::rank(b""), None);
}

/// Hand-picked texts where pre-tokenizers and merges go wrong.
const CORPUS: &[&str] = &[
    "",
    "hello world",
    "Hello, World! It's 2026; we'll see—they've said they'd CAN'T won't.",
    "  leading spaces, trailing spaces   ",
    "tabs\tand\t\ttabs\n\n\nnewlines\r\nand CRLF\r\n\r\n",
    "     \n     \n\t \t \n",
    " ",
    "\n",
    "\u{a0}non-breaking\u{a0}\u{a0}spaces\u{2003}em\u{3000}ideographic",
    "12345678901234567890 3.14159 1,000,000 -42 0x1F 1e-9",
    "Ünïcödé façade naïve coöperate Ærøskøbing straße İstanbul",
    "日本語のテキストと漢字、カタカナ。中文文本，标点符号！한국어 텍스트입니다.",
    "Русский текст и ёжик. Ελληνικά κείμενα. עברית וערבית: العربية.",
    "हिन्दी पाठ और संयुक्ताक्षर। ภาษาไทยไม่มีช่องว่าง",
    "emoji 🎉🎉🎉 👩‍👩‍👧‍👦 family 🇫🇷 flag ❤️ heart 🤷🏽‍♀️ and e\u{301}\u{301} combining",
    "fn main() {\n    let x: Vec<u8> = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n",
    "def f(a, b):\n\treturn a ** b  # comment\n\n\nclass C: pass\n",
    "SELECT * FROM t WHERE a >= 0.5 AND b IN ('x', 'y') -- why\n",
    "{\"k\": [1, 2, {\"nested\": null}], \"s\": \"a\\\"b\"}",
    "<context>\n<belief subject=\"alice\">prefers dark mode</belief>\n</context>",
    "https://example.com/path/to/page?query=1&x=y#frag //comment /* block */",
    "<|endoftext|> <|fim_prefix|> special tokens are text here",
    "'s 't 're 've 'm 'll 'd 'S 'T 'RE 'VE 'M 'LL 'D don't DON'T",
    "a\u{300}\u{301}\u{302}b\u{303} \u{300}lone mark",
    "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
];

#[test]
fn the_corpus_tokenizes_as_tiktoken_does() {
    for text in CORPUS {
        assert_same(text);
    }
}

/// Pieces of 100 bytes and more take tiktoken's heap merge: long words, long runs of one
/// letter, of punctuation, of spaces and of base64.
#[test]
fn long_pieces_take_the_heap_merge_alike() {
    let mut texts = vec![
        "a".repeat(250),
        "ab".repeat(120),
        "x".repeat(99),
        "x".repeat(100),
        "supercalifragilisticexpialidocious".repeat(5),
        "é".repeat(150),
        "🎉".repeat(40),
        "-=".repeat(80),
        " ".repeat(300) + "end",
        "\t \n".repeat(60),
        "日本語".repeat(60),
    ];
    let mut b64 = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b64.push(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"[(x % 54) as usize] as char);
    }
    texts.push(b64);
    for t in &texts {
        assert_same(t);
    }
}

/// The demo memory's answers, rendered in every format, as `cal run` prints them: the JSON
/// and every string in it.
#[test]
fn the_demo_memorys_rendered_outputs_tokenize_alike() {
    let store = Arc::new(cal_interp::demo::load(cal_interp::demo::NOW_MS).expect("the demo memory loads"));
    let interp = cal_interp::over(store);
    let mut opts = cal_interp::ExecOptions::fixed(cal_interp::demo::NOW_MS);
    opts.user = Some("alice".into());
    let formats = ["markdown", "json", "yaml", "text", "sml", "triples", "toon"];
    let presets = ["structured", "readable", "compact", "data"];
    let mut queries = vec![cal_parser::spec_examples::ASSEMBLE_8_2.to_string()];
    for f in formats {
        queries.push(format!("RECALL beliefs ABOUT \"alice\" AS {f}"));
        queries.push(format!("RECALL events RECENT 20 AS {f}"));
    }
    for f in formats.iter().chain(&presets) {
        queries.push(format!(
            "ASSEMBLE c FOR \"planning\" FROM b: (RECALL beliefs ABOUT \"alice\"), g: (RECALL goals), \
             e: (RECALL events RECENT 10) BUDGET 500 tokens FORMAT {f}"
        ));
    }
    let mut texts = 0;
    for q in &queries {
        let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|d| panic!("{q}: {d:?}"));
        let response = interp.execute(&query, &opts);
        assert!(!response.is_error(), "{q}: {}", response.to_pretty());
        let pretty = response.to_pretty();
        assert_same(&pretty);
        let mut strings = Vec::new();
        collect_strings(&response.json, &mut strings);
        for s in strings {
            assert_same(&s);
            texts += 1;
        }
    }
    assert!(texts > 100, "only {texts} strings");
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_strings(i, out)),
        Value::Object(m) => m.values().for_each(|i| collect_strings(i, out)),
        _ => {}
    }
}

/// Characters from every class the pattern distinguishes.
fn text() -> impl Strategy<Value = String> {
    let chars = prop_oneof![
        4 => prop::sample::select(vec![' ', ' ', '\n', '\t', '\r', '\u{a0}', '\u{3000}']),
        4 => prop::char::range('a', 'z'),
        2 => prop::char::range('A', 'Z'),
        2 => prop::char::range('0', '9'),
        2 => prop::sample::select(vec!['\'', '"', '.', ',', '!', '?', '-', '/', '(', ')', '<', '>', '{', '}', '_', '#']),
        1 => prop::sample::select(vec!['é', 'ß', 'Ø', 'ж', 'Ж', 'λ', 'ع', 'न', 'ि', '日', 'の', '한', '\u{301}', 'ǅ', 'ʰ']),
        1 => prop::sample::select(vec!['🎉', '👩', '\u{200d}', '🏽', '❤', '\u{fe0f}', '½', '²', '٣', '€']),
    ];
    prop::collection::vec(chars, 0..200).prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn generated_text_tokenizes_as_tiktoken_does(t in text()) {
        let expected = reference_starts(&t);
        prop_assert_eq!(tokens::starts(&t), expected.clone());
        prop_assert_eq!(tokens::count(&t), expected.len());
    }
}
