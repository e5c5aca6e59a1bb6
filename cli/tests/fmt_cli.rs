//! `cal fmt` on files with comments: nothing a person wrote is deleted, a query
//! kept as written is named on standard error, and `--check` accepts the result.

mod common;

/// `cal args` with `stdin` as text.
fn cal(args: &[&str], stdin: &str) -> std::process::Output {
    common::cal(args, stdin.as_bytes())
}

#[test]
fn fmt_keeps_comments_and_check_accepts_its_output() {
    let input =
        "-- ticket 42\nrecall beliefs about \"alice\"; -- end\nrecall goals -- inside\n  where subject = \"b\"\n";
    let out = cal(&["fmt"], input);
    assert_eq!(out.status.code(), Some(0));
    let formatted = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        formatted,
        "-- ticket 42\nRECALL beliefs ABOUT \"alice\"; -- end\n\nrecall goals -- inside\n  where subject = \"b\"\n"
    );
    let notes = String::from_utf8(out.stderr).unwrap();
    assert!(notes.contains("<stdin>:3: note: this query has a comment inside it and is kept as written"), "{notes}");
    // Not yet formatted: --check says so; formatted: --check passes.
    assert_eq!(cal(&["fmt", "--check"], input).status.code(), Some(1));
    assert_eq!(cal(&["fmt", "--check"], &formatted).status.code(), Some(0));
}
