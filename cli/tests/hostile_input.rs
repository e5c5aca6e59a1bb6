//! Input that is not what it should be reaches every command as bytes: invalid UTF-8,
//! bidi controls, terminal escape sequences. Each command must report it (CAL-E070,
//! CAL-E071) with exit status 1, never panic, and never pass the dangerous characters
//! on to whoever reads the output (`cli/src/render.rs`, `grammar/src/display.rs`).

mod common;

use common::cal;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("cal writes UTF-8")
}

/// Nothing a terminal would obey, nothing that reorders a line.
fn assert_safe_to_show(what: &str, out: &str) {
    assert!(!out.contains('\u{1b}'), "{what}: an escape character reached the output:\n{out}");
    let bidi: Vec<char> = out.chars().filter(|c| cal_grammar::display::is_bidi_control(*c)).collect();
    assert!(bidi.is_empty(), "{what}: bidi controls {bidi:?} reached the output:\n{out}");
}

const INVALID: &[&[u8]] = &[
    b"\xff",
    b"RECALL beliefs ABOUT \"a\xffb\"",
    b"RECALL \xe2\x82 beliefs",
    b"RECALL beliefs ABOUT \"\xf0\x9f\x98\" | LIMIT 5\n-- \xc3",
    b"\xc0\xaf\xed\xa0\x80RECALL beliefs",
];

#[test]
fn invalid_utf8_is_e070_with_status_1_from_every_command() {
    for bytes in INVALID {
        for args in [&["check"][..], &["check", "--json"], &["fmt"], &["fmt", "--check"], &["json"], &["text"]] {
            let out = cal(args, bytes);
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            let what = format!("cal {} on {bytes:?}", args.join(" "));
            assert!(!stderr.contains("panicked"), "{what} panicked: {stderr}");
            assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
            assert!(stdout.contains("CAL-E070") || stderr.contains("CAL-E070"), "{what}: no CAL-E070:\n{stderr}");
            assert_safe_to_show(&what, &stderr);
        }
        let out = cal(&["run", "--format", "text", "-f", "-"], bytes);
        assert_eq!(out.status.code(), Some(1), "cal run on {bytes:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("CAL-E070"));
    }
}

#[test]
fn the_e070_position_is_the_first_bad_byte_as_the_conformance_suite_says() {
    // docs/spec-decisions-conformance-parse-wire.md, C3: the empty span at the first bad byte.
    let out = cal(&["check", "--json"], b"RECALL beliefs\nABOUT \"a\xe2\x82b\"");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    let d = &report["diagnostics"][0];
    assert_eq!(d["code"], "CAL-E070");
    assert_eq!(
        d["position"],
        serde_json::json!({"start": 23, "end": 23, "line": 2, "col": 9, "end_line": 2, "end_col": 9})
    );
}

#[test]
fn bidi_controls_and_escapes_in_the_query_do_not_reach_the_reader() {
    let hostile = "-- \u{1b}[2J\u{1b}]0;owned\u{7}\nRECALL beliefs ABOUT \"a\u{202E}b\u{2066}\" WHRE 3\r";
    for args in [&["check"][..], &["check", "--json"], &["fmt"], &["json"]] {
        let out = cal(args, hostile.as_bytes());
        let what = format!("cal {}", args.join(" "));
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert_safe_to_show(&format!("{what} (stdout)"), &text(&out.stdout));
        assert_safe_to_show(&format!("{what} (stderr)"), &text(&out.stderr));
    }
    // The JSON report still says what was there, escaped: the corrected example keeps the string's text.
    let out = cal(&["check", "--json"], hostile.as_bytes());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    let codes: Vec<&str> =
        report["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"CAL-E071"), "{codes:?}");
    let example = report["diagnostics"].as_array().unwrap().iter().find_map(|d| d["example"].as_str());
    assert!(example.is_some_and(|e| e.contains("\\u{202E}")), "{report:#}");
}
