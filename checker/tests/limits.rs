//! Every limit at its boundary: at the limit passes, one over (or, for a
//! minimum, one under) fails with the limit's code.
//!
//! The limits come from `cal_grammar::limits::LIMITS`; each row that a static
//! check can enforce has a generator here that writes a query with exactly
//! `n` of the limited thing. A row without a generator fails the test, unless
//! it is listed with the reason no query text can reach it.

use cal_checker::analyze;
use cal_grammar::limits::{LIMITS, LimitKind};
use cal_grammar::{Code, Phase};

/// A query with exactly `n` of what the limit counts.
type Gen = fn(usize) -> String;

fn list(n: usize, f: impl Fn(usize) -> String, sep: &str) -> String {
    (0..n).map(f).collect::<Vec<_>>().join(sep)
}

fn query_bytes(n: usize) -> String {
    let (pre, post) = ("RECALL WHERE subject = \"", "\"");
    format!("{pre}{}{post}", "a".repeat(n - pre.len() - post.len()))
}

fn nested(n: usize) -> String {
    let mut q = "RECALL beliefs | SUBJECTS".to_string();
    for _ in 1..n {
        q = format!("RECALL beliefs WHERE subject IN ({q}) | SUBJECTS");
    }
    format!("RECALL WHERE subject IN ({q})")
}

fn template(total: usize) -> String {
    let body = format!(" {{{{grain.content}}}}{}", "x".repeat(total - 18));
    assert_eq!(body.len(), total);
    format!("DEFINE TEMPLATE t ELEMENT {{{body}}}")
}

fn let_chain(n: usize) -> String {
    let mut q = String::from("LET $l0 = RECALL beliefs | SUBJECTS;\n");
    for i in 1..n {
        q += &format!("LET $l{i} = RECALL beliefs WHERE subject IN ($l{}) | SUBJECTS;\n", i - 1);
    }
    q + &format!("ASSEMBLE ctx FROM g: (RECALL goals WHERE subject IN ($l{}))", n - 1)
}

const ADD_FIELDS: [&str; 7] = [
    "SET subject = \"s\"",
    "SET relation = \"r\"",
    "SET object = \"o\"",
    "SET confidence = 0.5",
    "SET importance = 0.5",
    "SET tags = [\"t\"]",
    "SET tags = [\"u\"]",
];
const SUPERSEDE_FIELDS: [&str; 5] =
    ["SET object = \"o\"", "SET confidence = 0.5", "SET importance = 0.5", "SET tags = [\"t\"]", "SET object = \"p\""];

fn generator(name: &str) -> Option<Gen> {
    Some(match name {
        "MAX_QUERY_BYTES" => query_bytes,
        "MAX_LIMIT" => |n| format!("RECALL beliefs | LIMIT {n}"),
        "MAX_SUBQUERY_DEPTH" => nested,
        "MAX_PIPELINE_STAGES" => |n| format!("RECALL beliefs {}", list(n, |_| "| OFFSET 1".into(), " ")),
        "MAX_IN_SET" => |n| format!("RECALL WHERE subject IN ({})", list(n, |i| format!("\"s{i}\""), ", ")),
        "MAX_SET_OPERANDS" => |n| list(n, |i| format!("(RECALL WHERE subject = \"s{i}\")"), " UNION "),
        "MAX_PARAMETERS" => |n| format!("RECALL WHERE subject IN ({})", list(n, |i| format!("$p{i}"), ", ")),
        "MAX_SET_PER_ADD" => |n| format!("ADD belief {} REASON \"r\"", ADD_FIELDS[..n].join(" ")),
        "MAX_SET_PER_SUPERSEDE" => {
            |n| format!("SUPERSEDE sha256:a1b2c3d4 {} REASON \"r\"", SUPERSEDE_FIELDS[..n].join(" "))
        }
        "MAX_REASON_CHARS" => |n| format!("REVERT sha256:a1b2c3d4 REASON \"{}\"", "é".repeat(n)),
        "MAX_BATCH" => |n| format!("BATCH {{ {} }}", list(n, |i| format!("e{i}: RECALL beliefs"), ", ")),
        "MAX_COALESCE" | "MIN_COALESCE" => |n| format!("COALESCE({})", list(n, |_| "RECALL beliefs".into(), ", ")),
        "MAX_LET" => {
            |n| format!("{} ASSEMBLE ctx FROM a: ($l0)", list(n, |i| format!("LET $l{i} = RECALL beliefs;"), " "))
        }
        "MAX_SOURCES" => |n| format!("ASSEMBLE ctx FROM {}", list(n, |i| format!("s{i}: (RECALL beliefs)"), ", ")),
        "MAX_BUDGET_TOKENS" => |n| format!("ASSEMBLE ctx FROM (RECALL beliefs) BUDGET {n} tokens"),
        "MAX_BUDGET_GRAINS" => |n| format!("ASSEMBLE ctx FROM (RECALL beliefs) BUDGET {n} grains"),
        "MAX_CONTEXT_NAME_CHARS" => |n| format!("ASSEMBLE {} FROM (RECALL beliefs)", "c".repeat(n)),
        "MAX_FOR_CHARS" => |n| format!("ASSEMBLE ctx FOR \"{}\" FROM (RECALL beliefs)", "ü".repeat(n)),
        "MAX_LET_CHAIN_DEPTH" => let_chain,
        "MAX_TEMPLATE_BYTES" => template,
        "MAX_TEMPLATE_NESTING" => |n| {
            format!("DEFINE TEMPLATE t ELEMENT {{ {}x{} }}", "{{#grain.score}}".repeat(n), "{{/grain.score}}".repeat(n))
        },
        "MAX_TEMPLATE_NAME_CHARS" => |n| format!("DEFINE TEMPLATE {} ELEMENT {{ x }}", "t".repeat(n)),
        "MAX_TEMPLATE_INHERITANCE_DEPTH" => |n| match n {
            1 => "DEFINE TEMPLATE t EXTENDS readable ELEMENT { x }".into(),
            _ => "DEFINE TEMPLATE t EXTENDS other_template ELEMENT { x }".into(),
        },
        "MIN_CHUNK_SIZE" | "MAX_CHUNK_SIZE" => {
            |n| format!("ASSEMBLE ctx FROM (RECALL beliefs) STREAM {{ chunk_size = {n} }}")
        }
        "MIN_HASH_HEX" | "MAX_HASH_HEX" => |n| format!("EXISTS sha256:{}", "a".repeat(n)),
        _ => return None,
    })
}

/// Limits no query text can reach: they count things across requests or connections.
const NOT_STATIC: &[(&str, &str)] = &[
    ("MAX_TEMPLATES", "templates per namespace: the template registry (CAL-E089 at execution)"),
    ("MAX_CONCURRENT_STREAMS", "streams per client: the connection (CAL-E079 at execution)"),
];

#[test]
fn every_limit_holds_at_its_boundary() {
    let mut problems = Vec::new();
    let mut tested = 0;
    for l in LIMITS {
        let Some(code) = l.code else { continue };
        if !matches!(l.kind, LimitKind::Max | LimitKind::Min) || code.info().phase == Phase::Execute {
            continue;
        }
        if NOT_STATIC.iter().any(|(n, _)| *n == l.name) {
            continue;
        }
        let Some(generate) = generator(l.name) else {
            problems.push(format!("{}: no generator (add one, or list it in NOT_STATIC with the reason)", l.name));
            continue;
        };
        let at = l.value as usize;
        let past = if l.kind == LimitKind::Max { at + 1 } else { at - 1 };
        let (ok, bad) = (generate(at), generate(past));
        let ok_diags = analyze(&ok, None).diagnostics;
        if let Some(d) = ok_diags.iter().find(|d| d.is_error()) {
            problems.push(format!("{} = {at} should pass, got {}: {}", l.name, d.code, d.message));
        }
        let bad_codes: Vec<Code> = analyze(&bad, None).diagnostics.iter().map(|d| d.code).collect();
        if !bad_codes.contains(&code) {
            problems.push(format!("{} = {past} should fail with {code}, got {bad_codes:?}", l.name));
        }
        tested += 1;
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(tested >= 28, "only {tested} limits tested");
}

#[test]
fn recent_is_bound_by_max_limit() {
    let ok = analyze("RECALL events RECENT 1000", None);
    assert!(!ok.has_errors());
    let bad = analyze("RECALL events RECENT 1001", None);
    assert_eq!(bad.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::E010]);
}

#[test]
fn set_clauses_per_add_count_the_type_extensions() {
    // docs/spec-decisions-grammar.md A7: ADD goal may set the 6 base fields and its 4 own.
    let goal = "ADD goal SET subject = \"s\" SET relation = \"r\" SET object = \"o\" SET confidence = 0.5 \
                SET importance = 0.5 SET tags = [] SET goal_state = \"active\" SET assigned_agent = \"a\" \
                SET deadline = \"2026-01-01\" SET depends_on = \"sha256:a1b2c3d4\" REASON \"ten\"";
    assert!(!analyze(goal, None).has_errors());
    let eleven = goal.replace("REASON", "SET importance = 0.4 REASON");
    assert!(analyze(&eleven, None).diagnostics.iter().any(|d| d.code == Code::E017));
}
