//! The parser's own nesting cap (48 levels, CAL-E007): where it starts, and
//! that a broken construct gives its level back so that later queries of the
//! same document are not refused for it.

use cal_grammar::Code;
use cal_parser::{parse_document, parse_query};

fn codes(diagnostics: &[cal_grammar::Diagnostic]) -> Vec<Code> {
    diagnostics.iter().map(|d| d.code).collect()
}

/// A RECALL is one level and each array one more: 47 arrays are the 48th level.
#[test]
fn arrays_nest_up_to_the_cap_and_not_one_more() {
    let nested =
        |depth: usize| format!("RECALL beliefs WHERE tags INCLUDE {}\"x\"{}", "[".repeat(depth), "]".repeat(depth));
    let at = parse_query(&nested(47));
    assert!(!codes(&at.diagnostics).contains(&Code::E007), "{:?}", at.diagnostics);
    let over = parse_query(&nested(48));
    assert!(codes(&over.diagnostics).contains(&Code::E007), "{:?}", over.diagnostics);
}

/// Found in review: a broken array kept its nesting level, so after 47 of them a
/// document refused its next, valid query as nested too deep.
#[test]
fn broken_arrays_give_their_level_back() {
    let mut doc = "RECALL beliefs WHERE a = [;\n".repeat(60);
    doc.push_str("RECALL beliefs WHERE tags INCLUDE [\"x\"]");
    let parsed = parse_document(&doc);
    let codes = codes(&parsed.diagnostics);
    assert!(!codes.contains(&Code::E007), "{codes:?}");
    assert_eq!(parsed.ast.map(|d| d.queries.len()), Some(61));
}

/// The cap is there so that no input exhausts the stack: the deepest nestings
/// the parser accepts, and far deeper ones it refuses, parse on a thread with
/// the standard library's default stack for spawned threads (2 MiB), in the
/// debug build the tests run in, whose frames are largest (the subquery chain
/// needed about 1 MiB when this test was written).
#[test]
fn the_deepest_nesting_parses_on_a_default_thread_stack() {
    let subqueries = |depth: usize| {
        let mut q = String::from("RECALL beliefs");
        for _ in 0..depth {
            q = format!("RECALL beliefs WHERE subject IN ({q} | SUBJECTS)");
        }
        q
    };
    let arrays =
        |depth: usize| format!("RECALL beliefs WHERE tags INCLUDE {}\"x\"{}", "[".repeat(depth), "]".repeat(depth));
    let texts = [subqueries(47), subqueries(48), subqueries(400), arrays(47), arrays(400)];
    let parsed = std::thread::Builder::new()
        .stack_size(2 << 20)
        // As documents: a query is cut off at 8 KiB (CAL-E001) before it is parsed, a document is not.
        .spawn(move || {
            texts.iter().map(|t| codes(&parse_document(t).diagnostics).contains(&Code::E007)).collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(parsed, [false, true, true, false, true]);
}

/// Issue 19: a document of a million mistakes reports the first `MAX_DIAGNOSTICS` and one
/// summary counting the rest, so time and memory stay proportional to what is shown.
#[test]
fn diagnostics_are_capped_with_a_count_of_the_rest() {
    let max = cal_parser::MAX_DIAGNOSTICS;
    let text = ";".repeat(max + 4000);
    let d = cal_parser::parse_document(&text).diagnostics;
    assert_eq!(d.len(), max + 1);
    assert!(d[max].message.starts_with("4000 more problems"), "{}", d[max].message);
    assert_eq!(d[max].span.start as usize, max, "the summary points at the first one not listed");
    // At the cap exactly, no summary.
    assert_eq!(cal_parser::parse_document(&";".repeat(max)).diagnostics.len(), max);
}
