//! Every suggestion re-checked (issue 21): for each code, the corpus cases that produce it
//! (the checker's `err/` and `ok/` cases — warnings come from `ok/` — and the
//! parser's `err/` cases), and for each of their diagnostics:
//!
//! * the help a reader gets (`suggestion_or_default`, which §22.1's JSON always carries)
//!   says what to do — no bare "See CAL spec §N" pointer — and neither it, the message
//!   nor a label shows an internal code name (`FieldNotOnGrainType`);
//! * the example is CAL: it parses and checks with fewer errors than the query it
//!   corrects, and cleanly when the query had one error or none; it elides nothing (`…`);
//! * a fix is never listed among the valid values in another form (singular for plural),
//!   so the list is in the form the message asks for (`RECALL consent` → `consents`, listed with the plurals).
//!
//! Known exceptions are listed in [`KNOWN`] with the reason; the diagnostics among them
//! that are poor are also in the register `bad_diagnostics.rs`.

mod common;

use cal_checker::{analyze, analyze_bytes};
use cal_grammar::{Code, Diagnostic};
use common::*;
use std::collections::BTreeMap;
use std::path::Path;

/// (case file, code, why its example does not check cleanly).
const KNOWN: &[(&str, Code, &str)] = &[
    (
        "e002_is_null.cal",
        Code::E020,
        "`subject IS NULL`: the fix `relation` leads to `relation IS NULL` (register: is_null)",
    ),
    (
        "e002_misspelt_stage_without_pipe.cal",
        Code::E002,
        "the corrected stage lets the checker reach `created_at`, an unknown field the parser never got to",
    ),
    (
        "e008_unbound_parameter.cal",
        Code::E008,
        "the fix replaces the first use of `$usr`; the other use is a label of the same diagnostic",
    ),
];

/// Whether `text` names a registry code's internal name as a word.
fn internal_name_in(text: &str) -> Option<&'static str> {
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    Code::ALL.iter().chain(Code::EXTENSIONS).map(|c| c.info().name).find(|n| words.contains(n))
}

fn errors(d: &[Diagnostic]) -> Vec<String> {
    d.iter().filter(|d| d.is_error()).map(|d| format!("{} {}", d.code, d.message)).collect()
}

#[test]
fn every_suggestion_and_example_is_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut cases_per_code: BTreeMap<Code, usize> = BTreeMap::new();
    // The parser's `ok/` cases are only syntax: many of them do not check, by design.
    let dirs = [root.join("tests/corpus/err"), root.join("tests/corpus/ok"), root.join("../parser/tests/corpus/err")];
    for dir in dirs {
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "cal")) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let bytes = std::fs::read(path).unwrap();
            let src = String::from_utf8_lossy(&bytes).into_owned();
            let params = params_of(&src);
            let a = analyze_bytes(&bytes, params.as_ref());
            let before = errors(&a.diagnostics);
            for d in &a.diagnostics {
                *cases_per_code.entry(d.code).or_default() += 1;
                let help = d.suggestion_or_default();
                if help.starts_with("See ") || help.contains("§") && help.len() < 30 {
                    problems.push(format!("{name} {}: the help only points at the spec: {help:?}", d.code));
                }
                let texts = std::iter::once(help.as_str())
                    .chain([d.message.as_str()])
                    .chain(d.labels.iter().map(|l| l.message.as_str()));
                for t in texts {
                    if let Some(n) = internal_name_in(t) {
                        problems.push(format!("{name} {}: {n:?} is an internal name: {t:?}", d.code));
                    }
                }
                // The singular offered while the plurals are listed, or the other way round.
                if let Some(fix) = &d.replacement
                    && let fix = fix.trim_matches('"')
                    && !d.valid_values.iter().any(|v| v == fix)
                    && d.valid_values.iter().any(|v| v.trim_end_matches('s') == fix.trim_end_matches('s'))
                {
                    problems.push(format!(
                        "{name} {}: the fix `{fix}` is not among the valid values listed {:?}",
                        d.code, d.valid_values
                    ));
                }
                let Some(example) = &d.example else { continue };
                if KNOWN.iter().any(|(n, c, _)| *n == name && *c == d.code) {
                    continue;
                }
                if example.contains('…') || example.contains("...") {
                    problems.push(format!("{name} {}: the example elides a part: {example:?}", d.code));
                    continue;
                }
                let after = errors(&analyze(example, params.as_ref()).diagnostics);
                let bad = if before.len() <= 1 { !after.is_empty() } else { after.len() >= before.len() };
                if bad {
                    problems.push(format!(
                        "{name} {}: the example {example:?} does not check: {after:?} (the query had {})",
                        d.code,
                        before.len()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
    // Every code a static phase can report has been re-checked through some case.
    for code in Code::ALL {
        if code.info().phase != cal_grammar::Phase::Execute {
            assert!(cases_per_code.contains_key(code), "{code}: no err case produces it, its help is unchecked");
        }
    }
}

/// The issue's own examples, each with the suggestion it must get.
#[test]
fn issue_21_examples() {
    let cases: &[(&str, &str, &str)] = &[
        ("RECALL beliefs | ORDERBY confidence", "Did you mean `ORDER BY`?", "RECALL beliefs | ORDER BY confidence"),
        ("RECALL beliefs | GROUPBY subject", "Did you mean `GROUP BY`?", "RECALL beliefs | GROUP BY subject"),
        ("RECALL beliefs ORDERBY time", "Did you mean `| ORDER BY`?", "RECALL beliefs | ORDER BY time"),
        ("RECALL beliefs | ORDR BY confidence", "Did you mean `ORDER`?", "RECALL beliefs | ORDER BY confidence"),
        ("RECALL beliefs | LIM IT 5", "Did you mean `LIMIT`? It is one word.", "RECALL beliefs | LIMIT 5"),
        ("RECALL consent", "Did you mean \"consents\"? RECALL takes the plural form.", "RECALL consents"),
        (
            "RECALL beliefs | ORDER confidence DESC",
            "ORDER is always followed by BY: `ORDER BY confidence`.",
            "RECALL beliefs | ORDER BY confidence DESC",
        ),
        // A keyword split in two, where no query could be read: the stretch is the example.
        (
            r#"SUPER SEDE sha256:a1b2c3d4 SET confidence = 0.5 REASON "checked""#,
            "Did you mean `SUPERSEDE`? It is one word.",
            r#"SUPERSEDE sha256:a1b2c3d4 SET confidence = 0.5 REASON "checked""#,
        ),
        (
            r#"RECALL events WHERE goal_state = "active""#,
            "Query goals (`RECALL goals …`) to use `goal_state`, or use a field of events.",
            r#"RECALL goals WHERE goal_state = "active""#,
        ),
        (
            r#"RECALL WHERE goal_state = "active""#,
            "Write `RECALL goals` to unlock the fields of goals (§6.2).",
            r#"RECALL goals WHERE goal_state = "active""#,
        ),
        // The example of each typo carries the other fixes too.
        (
            r#"RECALL belifs WHERE subjet = "a" | ORDERBY confidence"#,
            "Did you mean \"beliefs\"?",
            r#"RECALL beliefs WHERE subject = "a" | ORDER BY confidence"#,
        ),
    ];
    for (query, suggestion, example) in cases {
        let a = analyze(query, None);
        let d = a.diagnostics.first().unwrap_or_else(|| panic!("{query}: no diagnostic"));
        assert_eq!(d.suggestion_or_default(), *suggestion, "{query}");
        assert_eq!(d.example.as_deref(), Some(*example), "{query}");
        assert!(!analyze(example, None).has_errors(), "{example}");
    }
    let consent = analyze("RECALL consent", None);
    assert!(consent.diagnostics[0].valid_values.iter().all(|v| v.ends_with('s')), "{consent:?}");
}
