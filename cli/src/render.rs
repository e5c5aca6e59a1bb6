//! Showing diagnostics to people (ariadne code frames) and to programs (`--json`).
//!
//! This is the only place in the toolchain that turns a [`Diagnostic`] into
//! terminal text; colour follows `--color`, NO_COLOR and FORCE_COLOR ([`resolve_color`]).

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use cal_grammar::display::{display_source, escape_for_display};
use cal_grammar::{Diagnostic, LineIndex, Severity};
use std::io::{IsTerminal, Write};

/// Writes every diagnostic as a code frame to standard error.
///
/// `source` is the input as read, bytes: invalid UTF-8, bidi and control characters are
/// drawn as placeholders at their own offsets ([`display_source`]), so that a span of
/// CAL-E070 or CAL-E071 frames what it names and the terminal never receives them.
///
/// A person is shown the first [`MAX_SHOWN`] diagnostics and told how many more there
/// are; a diagnostic whose lines are longer than [`MAX_FRAME_BYTES`] is shown as a short
/// excerpt ([`write_excerpt`]) rather than a frame of whole lines.
pub fn eprint_diagnostics(name: &str, source: &[u8], diagnostics: &[Diagnostic]) {
    let color = color();
    let choice = if color { anstream::ColorChoice::Always } else { anstream::ColorChoice::Never };
    // ariadne paints only when asked; the stream strips whatever might still slip through.
    let mut err = anstream::AutoStream::new(std::io::stderr().lock(), choice);
    let _ = write_diagnostics(name, source, diagnostics, color, &mut err);
}

/// When `cal` colours its output (`--color`, global).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorWhen {
    /// Colour when standard error is a terminal, unless NO_COLOR is set (FORCE_COLOR forces it).
    #[default]
    Auto,
    /// Always colour, whatever the environment says.
    Always,
    /// Never colour.
    Never,
}

static COLOR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Fixes the colour choice for the whole run (from `--color`, read once in `main`).
pub fn set_color(when: ColorWhen) {
    let on = decide(when);
    let _ = COLOR.set(on);
    anstream::ColorChoice::write_global(if on { anstream::ColorChoice::Always } else { anstream::ColorChoice::Never });
}

/// Whether code frames are coloured (auto, when [`set_color`] was not called).
pub fn color() -> bool {
    *COLOR.get_or_init(|| decide(ColorWhen::Auto))
}

/// [`resolve_color`] with this process's environment and standard error.
fn decide(when: ColorWhen) -> bool {
    resolve_color(
        when,
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("FORCE_COLOR").as_deref(),
        std::io::stderr().is_terminal() && std::env::var_os("TERM").is_none_or(|t| t != "dumb"),
    )
}

/// The colour rule: `--color always|never` wins; then NO_COLOR (no-color.org: set and not
/// empty turns colour off), then FORCE_COLOR (force-color.org: set and not empty turns it on,
/// except `0` or `false`); then whether the stream is a terminal.
pub fn resolve_color(
    when: ColorWhen,
    no_color: Option<&std::ffi::OsStr>,
    force_color: Option<&std::ffi::OsStr>,
    terminal: bool,
) -> bool {
    let set = |v: Option<&std::ffi::OsStr>| v.is_some_and(|v| !v.is_empty());
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto if set(no_color) => false,
        ColorWhen::Auto if set(force_color) => force_color.is_some_and(|v| v != "0" && v != "false"),
        ColorWhen::Auto => terminal,
    }
}

/// A diagnostic's text as a person is shown it: unsafe characters escaped, and cut
/// after [`MAX_TEXT_CHARS`] characters (a message quotes the word it is about, and the
/// word may be megabytes long; `--json` keeps the whole text).
fn human(text: &str) -> String {
    let text = escape_for_display(text);
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

/// The longest message, help or note shown in full.
pub const MAX_TEXT_CHARS: usize = 400;

/// How many diagnostics a person is shown; `cal check --json` lists every one.
pub const MAX_SHOWN: usize = 100;

/// The most text a code frame draws: an ariadne frame draws every line its spans
/// touch, whole, and a 5 MB one-line file took seconds per diagnostic.
pub const MAX_FRAME_BYTES: usize = 2_000;

/// [`eprint_diagnostics`] into any writer.
pub fn write_diagnostics(
    name: &str,
    source: &[u8],
    diagnostics: &[Diagnostic],
    color: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let shown = display_source(source);
    let index = LineIndex::new(&shown);
    for d in diagnostics.iter().take(MAX_SHOWN) {
        if frame_is_small(&shown, &index, d) {
            write_report(name, &shown, d, color, out)?;
        } else {
            write_excerpt(name, &index, d, out)?;
        }
    }
    if let Some(more) = diagnostics.len().checked_sub(MAX_SHOWN).filter(|n| *n > 0) {
        writeln!(out, "… and {more} more diagnostics (`cal check --json` lists every one)")?;
    }
    Ok(())
}

/// True when the lines a frame of `d` would draw hold at most [`MAX_FRAME_BYTES`].
fn frame_is_small(shown: &str, index: &LineIndex<'_>, d: &Diagnostic) -> bool {
    let spans = || std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span));
    let start = spans().map(|s| s.start).min().unwrap_or(0);
    let end = (spans().map(|s| s.end).max().unwrap_or(0) as usize).min(shown.len());
    let (_, line_start) = index.line_of(start);
    let Some(room) = MAX_FRAME_BYTES.checked_sub(end.saturating_sub(line_start as usize)) else { return false };
    // The rest of the last line, looked at no further than the room left.
    shown.as_bytes()[end..].iter().take(room + 1).take_while(|b| !matches!(b, b'\n' | b'\r')).count() <= room
}

/// A diagnostic on a line too long to draw: its position, up to 40 characters before its
/// start and 80 after, underlined, then help and notes as in a frame.
fn write_excerpt(name: &str, index: &LineIndex<'_>, d: &Diagnostic, out: &mut impl Write) -> std::io::Result<()> {
    let text = index.text();
    let pos = index.position(d.span);
    let (_, line_start) = index.line_of(pos.start);
    let (line_start, start, end) = (line_start as usize, pos.start as usize, pos.end as usize);
    let before: usize = text[line_start..start].chars().rev().take(40).map(char::len_utf8).sum();
    // Lines end at `\n`, `\r\n` or a lone `\r`, as LineIndex counts them. Only the 80
    // characters shown are looked at: a 10 MB line is not scanned once per diagnostic.
    let ends_line = |c: char| matches!(c, '\r' | '\n');
    let after: usize = text[start..].chars().take_while(|c| !ends_line(*c)).take(80).map(char::len_utf8).sum();
    let (from, to) = (start - before, start + after);
    let lead = if from > line_start { "…" } else { "" };
    let tail = if text[to..].chars().next().is_some_and(|c| !ends_line(c)) { "…" } else { "" };
    let kind = if d.is_error() { "Error" } else { "Warning" };
    writeln!(out, "[{}] {kind}: {}", d.code, human(&d.message))?;
    writeln!(out, "   ╭─[ {name}:{}:{} ]", pos.line, pos.col)?;
    writeln!(out, "   │ {lead}{}{tail}", &text[from..to])?;
    let width = text[start..end.clamp(start, to)].chars().count().max(1);
    let indent = lead.chars().count() + text[from..start].chars().count();
    writeln!(out, "   │ {}{}", " ".repeat(indent), "^".repeat(width))?;
    writeln!(out, "   │ Help: {}", human(&help_text(d)))?;
    if let Some(example) = &d.example {
        writeln!(out, "   │ Note: example: {}", human(example))?;
    }
    writeln!(out, "───╯")
}

/// Renders one diagnostic as an ariadne report into `out`; `source` is already safe to
/// show ([`display_source`]), the diagnostic's texts are escaped here.
pub fn write_report(
    name: &str,
    source: &str,
    d: &Diagnostic,
    color: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let (kind, paint) = match d.severity {
        Severity::Error => (ReportKind::Error, Color::Red),
        Severity::Warning => (ReportKind::Warning, Color::Yellow),
    };
    let range = d.span.range();
    let config = Config::default().with_index_type(IndexType::Byte).with_color(color);
    let mut report = Report::build(kind, (name, range.clone()))
        .with_config(config)
        .with_code(d.code.as_str())
        .with_message(human(&d.message))
        .with_label(Label::new((name, range)).with_message(human(&label_text(d))).with_color(paint));
    for l in &d.labels {
        let message = human(&l.message);
        report = report.with_label(Label::new((name, l.span.range())).with_message(message).with_color(Color::Blue));
    }
    report = report.with_help(human(&help_text(d)));
    if let Some(example) = &d.example {
        report = report.with_note(format!("example: {}", human(example)));
    }
    if !d.valid_values.is_empty() {
        report = report.with_note(format!("valid values: {}", d.valid_values.join(", ")));
    }
    report.finish().write((name, Source::from(source)), out)
}

/// What the frame writes under the span: the fix when there is one; else what is wrong in
/// words — the message's first clause when it is short, or the code's Appendix C title
/// without its internal name (`AddQuotaExceeded -- too many ADD operations`) — never an
/// internal name such as `AmbiguousShortcut` (issue 21).
fn label_text(d: &Diagnostic) -> String {
    match &d.replacement {
        Some(r) if r.is_empty() => return "remove this".to_string(),
        Some(r) => return format!("try `{r}`"),
        None => {}
    }
    let cut = [". ", "; "].iter().filter_map(|sep| d.message.find(sep)).min().unwrap_or(d.message.len());
    let first = d.message[..cut].trim().trim_end_matches('.');
    if (1..=MAX_LABEL_CHARS).contains(&first.chars().count()) {
        return first.to_string();
    }
    title_words(d.code)
}

/// The help a person is shown: the diagnostic's suggestion; without one, a pointer to the
/// valid values listed below the frame, else what §22.1's JSON `suggestion` says
/// ([`Diagnostic::suggestion_or_default`]: what would have been accepted, or the code's
/// advice) — the same words for people and programs.
fn help_text(d: &Diagnostic) -> String {
    if d.suggestion.is_none() && !d.valid_values.is_empty() {
        return "Use one of the valid values below.".to_string();
    }
    d.suggestion_or_default()
}

/// The longest message clause used as a label.
const MAX_LABEL_CHARS: usize = 60;

/// A code's Appendix C title as words: the part after `Name -- `, without `(includes …)`,
/// starting in lower case; "here" when the title is only names.
pub fn title_words(code: cal_grammar::Code) -> String {
    let title = code.info().title;
    let words = title.split_once(" -- ").map_or(title, |(_, rest)| rest);
    let words = words.split(" (includes").next().unwrap_or(words).trim();
    let is_names = !words.contains(' ') || words.split(" / ").all(|w| !w.contains(' '));
    if is_names {
        return "here".to_string();
    }
    let mut chars = words.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cal_grammar::{Code, Span};

    fn render(source: &str, diagnostics: &[Diagnostic]) -> String {
        let mut out = Vec::new();
        write_diagnostics("q.cal", source.as_bytes(), diagnostics, false, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn unexpected(at: usize) -> Diagnostic {
        Diagnostic::new(Code::E002, Span::new(at, at + 1), "Unexpected `x`.")
    }

    #[test]
    fn labels_are_words_never_internal_names() {
        for code in Code::ALL.iter().chain(Code::EXTENSIONS) {
            let d = Diagnostic::new(*code, Span::new(0, 1), "x".repeat(MAX_LABEL_CHARS + 1));
            let label = label_text(&d);
            assert_ne!(label, code.info().name, "{code}");
            assert!(label.contains(' ') || label == "here", "{code}: {label:?}");
        }
        let e060 = Diagnostic::new(
            Code::E060,
            Span::new(20, 30),
            "`goal_state` is not a field of events; it belongs to goals (FieldNotOnGrainType).",
        );
        assert_eq!(label_text(&e060), "`goal_state` is not a field of events");
        assert_eq!(title_words(Code::E043), "too many evolve operations");
        assert_eq!(title_words(Code::E003), "unknown grain type");
    }

    #[test]
    fn help_without_a_suggestion_says_what_would_do() {
        let bare = Diagnostic::new(Code::E002, Span::new(0, 1), "Unexpected `x`.");
        assert_eq!(help_text(&bare), cal_grammar::advice::advice(Code::E002));
        let expected = bare.clone().with_expected(vec!["WHERE".into(), "|".into()]);
        assert_eq!(help_text(&expected), "Write WHERE or | at this point.");
        let valid = bare.with_valid_values(["beliefs", "goals"]);
        assert_eq!(help_text(&valid), "Use one of the valid values below.");
    }

    #[test]
    fn the_colour_rule() {
        use std::ffi::OsStr;
        let (yes, empty, zero) = (Some(OsStr::new("1")), Some(OsStr::new("")), Some(OsStr::new("0")));
        // (when, NO_COLOR, FORCE_COLOR, terminal) → colour
        let cases = [
            (ColorWhen::Auto, None, None, true, true),
            (ColorWhen::Auto, None, None, false, false),
            (ColorWhen::Auto, yes, None, true, false),
            (ColorWhen::Auto, empty, None, true, true),
            (ColorWhen::Auto, None, yes, false, true),
            (ColorWhen::Auto, None, zero, true, false),
            (ColorWhen::Auto, yes, yes, false, false),
            (ColorWhen::Always, yes, None, false, true),
            (ColorWhen::Never, None, yes, true, false),
        ];
        for (when, no, force, tty, want) in cases {
            assert_eq!(
                resolve_color(when, no, force, tty),
                want,
                "{when:?} NO_COLOR={no:?} FORCE_COLOR={force:?} tty={tty}"
            );
        }
    }

    #[test]
    fn a_line_of_max_frame_bytes_is_framed_and_a_longer_one_excerpted() {
        let framed = render(&"x".repeat(MAX_FRAME_BYTES), &[unexpected(0)]);
        assert!(framed.contains("╰──"), "an ariadne frame draws a label arrow:\n{framed}");
        let excerpted = render(&"x".repeat(MAX_FRAME_BYTES + 1), &[unexpected(0)]);
        assert!(!excerpted.contains("╰──") && excerpted.contains("q.cal:1:1"), "{excerpted}");
        assert!(excerpted.len() < 600, "an excerpt is short: {} bytes", excerpted.len());
    }

    #[test]
    fn the_excerpt_shows_the_neighbourhood_and_underlines_the_span() {
        let source = format!("{}WHRE{}", "a ".repeat(2_000), " b".repeat(2_000));
        let d = Diagnostic::new(Code::E002, Span::new(4_000, 4_004), "Unexpected `WHRE`.");
        let out = render(&source, &[d]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "   ╭─[ q.cal:1:4001 ]");
        let shown = lines[2].strip_prefix("   │ …").expect("cut at the start");
        assert!(shown.ends_with('…'));
        let at = shown.find("WHRE").unwrap();
        assert_eq!(&shown[..at], "a ".repeat(20));
        assert_eq!(lines[3], format!("   │ {}^^^^", " ".repeat(41)));
    }

    #[test]
    fn a_lone_carriage_return_ends_the_line_framed_or_excerpted() {
        // The line of the diagnostic is short; a long second line after a lone `\r` does not count.
        let source = format!("RECALL beliefs WHRE \"a\"\r-- {}", "x".repeat(3 * MAX_FRAME_BYTES));
        let out = render(&source, &[Diagnostic::new(Code::E002, Span::new(15, 19), "Unexpected `WHRE`.")]);
        assert!(out.contains("╰──"), "a frame:\n{out}");
        // An excerpt of a long line stops at a lone `\r` and never prints it.
        let source = format!("{}WHRE\r{}", "a ".repeat(MAX_FRAME_BYTES), "b".repeat(10));
        let at = 2 * MAX_FRAME_BYTES;
        let out = render(&source, &[Diagnostic::new(Code::E002, Span::new(at, at + 4), "Unexpected `WHRE`.")]);
        assert!(!out.contains('\r') && out.contains("WHRE\n"), "{out:?}");
    }

    #[test]
    fn at_most_max_shown_diagnostics_then_a_count() {
        let source = "x ".repeat(MAX_SHOWN + 5);
        let all: Vec<Diagnostic> = (0..MAX_SHOWN + 5).map(|i| unexpected(2 * i)).collect();
        let out = render(&source, &all);
        assert_eq!(out.matches("[CAL-E002]").count(), MAX_SHOWN);
        assert!(out.ends_with("… and 5 more diagnostics (`cal check --json` lists every one)\n"), "{out}");
        let exactly = render(&source, &all[..MAX_SHOWN]);
        assert_eq!(exactly.matches("[CAL-E002]").count(), MAX_SHOWN);
        assert!(!exactly.contains("more diagnostics"));
    }

    #[test]
    fn long_messages_are_cut_for_people() {
        let word = "b".repeat(10_000);
        let d = Diagnostic::new(Code::E003, Span::new(7, 10_007), format!("Unknown grain type \"{word}\"."));
        let out = render(&format!("RECALL {word}"), &[d]);
        let first = out.lines().next().unwrap();
        assert_eq!(first.chars().count(), "[CAL-E003] Error: ".len() + MAX_TEXT_CHARS + 1);
        assert!(first.ends_with('…'));
    }
}
