//! The register of diagnostics we know are poor (PRQL keeps `bad_error_messages.rs` the same
//! way): each entry is a query, what is wrong with what it gets today, and a snapshot of every
//! diagnostic it gets, rendered with everything a reader sees (message, help, fix, example,
//! valid values). The snapshots pin today's poor output so that an improvement is a visible
//! snapshot change rather than an accident, and nothing here is forgotten.
//!
//! How to graduate an entry, once its diagnostic is good:
//! 1. make the change, run `cargo test -p cal-checker --test bad_diagnostics`, and read the
//!    new `.snap.new`: it should now answer the "poor because" line;
//! 2. move the query to the corpus as a pinned case (`parser/tests/corpus/err/` for syntax,
//!    `checker/tests/corpus/err/` for checks), whose snapshot then holds the good message;
//! 3. delete the entry here and its `snapshots/bad_diagnostics__<name>.snap` (CI rejects a
//!    snapshot no test writes, `.ci/run`).
//!
//! Add an entry whenever a message is found wanting and not fixed at once. A query may start
//! with `-- param: name=value` lines, as corpus cases do.

mod common;

use cal_checker::analyze_bytes;
use common::frame;
use std::fmt::Write as _;

/// (snapshot name, query, why today's diagnostic is poor).
const REGISTER: &[(&str, &str, &str)] = &[
    (
        "unquoted_string_value",
        r#"RECALL beliefs WHERE subject = alice"#,
        "A bare word where a string goes: the message says only \"expected a value\" and the help is \
         the generic §4 pointer; it should offer `\"alice\"` as the fix, as it does for 'alice'.",
    ),
    (
        "unquoted_about_text",
        r#"RECALL beliefs ABOUT alice"#,
        "Same as above for ABOUT: \"expected a string literal\" with no fix; `ABOUT \"alice\"` is \
         the obvious replacement.",
    ),
    (
        "hash_without_prefix",
        "EXISTS a1b2c3d4e5f6a7b8",
        "A content address without `sha256:`: \"expected a hash literal (sha256:…) or parameter\" \
         and the generic help, where `sha256:a1b2c3d4e5f6a7b8` is a machine-applicable fix.",
    ),
    (
        "dedup_without_field",
        "RECALL beliefs WITH dedup",
        "\"Unexpected end of query; expected `(`\" says nothing about what goes inside: dedup \
         takes a field, `dedup(subject)`; no example, generic help.",
    ),
    (
        "between_without_and",
        "RECALL beliefs WHERE confidence BETWEEN 0.5 0.9",
        "\"expected AND\" with the generic help; the fix (`BETWEEN 0.5 AND 0.9`) is certain and \
         could be offered.",
    ),
    (
        "is_null",
        r#"RECALL beliefs WHERE subject IS NULL"#,
        "One mistake, two diagnostics, and the first misleads: its fix (`subject` → `relation`) \
         and example lead to `WHERE relation IS NULL`, itself invalid. Only the second says what \
         helps: CAL has no NULL tests.",
    ),
    (
        "sql_select",
        "SELECT * FROM beliefs",
        "SQL habits get no hint (`RECALL beliefs`), and the `*` is a second diagnostic for the \
         same mistake.",
    ),
    (
        "unbound_parameter_used_twice",
        "-- param: user=\"alice\"\nRECALL beliefs WHERE subject = $usr AND object = $usr",
        "The fix `$user` replaces the first use only (the second is \
         a label), so the example still has an unbound `$usr`. The fix should cover every use.",
    ),
    (
        "select_example_repeats_a_field",
        "RECALL beliefs | SELECT subject, query",
        "The example swaps `query` for the first projectable field, `subject`, which is already \
         selected: `SELECT subject, subject` is valid but not what anyone would write.",
    ),
    (
        "trailing_and",
        r#"RECALL beliefs WHERE subject = "a" AND"#,
        "\"expected a condition\" at the end with the generic §4 help; it could name the \
         dangling AND and offer to remove it.",
    ),
];

#[test]
fn known_bad_diagnostics() {
    for (name, query, why) in REGISTER {
        // `-- param: name=value` lines bind parameters, as in the corpus.
        let analysis = analyze_bytes(query.as_bytes(), common::params_of(query).as_ref());
        let mut snap = String::new();
        let _ = writeln!(snap, "Query\n-----\n{query}\n\nPoor because\n------------\n{why}\n");
        let _ = writeln!(snap, "Diagnostics today\n-----------------");
        for d in &analysis.diagnostics {
            let _ = write!(snap, "{}", frame(query, d));
            if d.suggestion.is_none() {
                let _ = writeln!(snap, "   = (no help of its own; shown: {})", d.suggestion_or_default());
            }
            let _ = writeln!(snap);
        }
        if analysis.diagnostics.is_empty() {
            let _ = writeln!(snap, "(none)");
        }
        insta::assert_snapshot!(*name, snap);
    }
}
