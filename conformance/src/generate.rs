//! Generated variants, derived at load time so case authors write only
//! hand-written cases:
//!
//! * metamorphic variants of every accepted parse case that pins its JSON form
//!   (`<id>.gen-case`, `<id>.gen-ws`, `<id>.gen-comment`): keyword case,
//!   whitespace and comments must leave the JSON form, canonical text and
//!   warnings unchanged (CAL §3.2, §3.5);
//! * limit-boundary pairs from the grammar's [`LIMITS`] table, rendered by
//!   the templates of `conformance/templates/limits.json` (see [`crate::limits`]);
//! * the JSON-form pins of Core cases, moved to Extended cases of their own
//!   (`<id>.json-form`, [`json_pins_at_extended`]): §24 lists the JSON wire
//!   format under Extended, so an engine answering Core in text only certifies Core;
//! * the canonical-text pins of Core cases, moved the same way (`<id>.canonical`,
//!   [`canonical_pins_at_extended`]): printing a query's text form is the way back of
//!   §15.2's mapping, part of the dual wire format, so a Core engine need not print one.

use crate::case::{Body, Case, Flag, Level, Origin, ParseCase, ParseExpect, QueryInput};
use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_lexer::Token;

/// Appends the metamorphic variants of every eligible case.
pub fn metamorphic(cases: &[Case]) -> Vec<Case> {
    let mut out = Vec::new();
    for case in cases {
        let Body::Parse(ParseCase { query: QueryInput::Text(text), expect }) = &case.body else { continue };
        let ParseExpect::Accept { json: Some(_), .. } = expect else { continue };
        if case.has_flag(Flag::Generated) {
            continue;
        }
        let variants =
            [("gen-case", keyword_case(text)), ("gen-ws", whitespace(text)), ("gen-comment", comments(text))];
        for (suffix, variant) in variants {
            let Some(query) = variant else { continue };
            if query == *text || query.len() > MAX_QUERY_BYTES {
                continue;
            }
            out.push(derive(case, expect, suffix, query));
        }
    }
    out
}

fn derive(case: &Case, expect: &ParseExpect, suffix: &str, query: String) -> Case {
    let mut flags = case.flags.clone();
    flags.push(Flag::Generated);
    let mut tags = case.tags.clone();
    tags.push(suffix.to_string());
    Case {
        id: format!("{}.{suffix}", case.id),
        level: case.level,
        tags,
        sections: case.sections.clone(),
        flags,
        description: Some(format!("{} variant of {}", suffix, case.id)),
        rulings: case.rulings.clone(),
        origin: Origin { file: case.origin.file.clone(), pointer: format!("{}+{suffix}", case.origin.pointer) },
        body: Body::Parse(ParseCase { query: QueryInput::Text(query), expect: expect.clone() }),
    }
}

/// Moves the `json` expectation of every Core parse case to an Extended case of its own,
/// `<id>.json-form` (accepted, with that JSON form): the JSON form is an Extended feature
/// (§24 "application/json+cal wire format" under Level 2), so no Core case may require it.
/// The Core case keeps its acceptance, canonical text and warnings.
pub fn json_pins_at_extended(cases: &mut Vec<Case>) {
    let mut moved = Vec::new();
    for case in cases.iter_mut() {
        if case.level != Level::Core {
            continue;
        }
        let Body::Parse(ParseCase { query, expect: ParseExpect::Accept { json, .. } }) = &mut case.body else {
            continue;
        };
        let Some(form) = json.take() else { continue };
        let mut flags = case.flags.clone();
        if !flags.contains(&Flag::Generated) {
            flags.push(Flag::Generated);
        }
        let mut tags = case.tags.clone();
        tags.push("json-form".into());
        let mut sections = case.sections.clone();
        sections.extend(["15.2".to_string(), "24".to_string()]);
        moved.push(Case {
            id: format!("{}.json-form", case.id),
            level: Level::Extended,
            tags,
            sections,
            flags,
            description: Some(format!("the JSON form of {} (Extended, §24)", case.id)),
            rulings: case.rulings.clone(),
            origin: Origin { file: case.origin.file.clone(), pointer: format!("{}+json-form", case.origin.pointer) },
            body: Body::Parse(ParseCase {
                query: query.clone(),
                expect: ParseExpect::Accept { json: Some(form), canonical: None, warnings: None, reads_back_as: None },
            }),
        });
    }
    cases.extend(moved);
}

/// Moves the `canonical` and round-trip (`reads_back_as`) expectations of every Core parse
/// case to an Extended case of its own, `<id>.canonical`: reading `text/cal` is Core (§24),
/// but printing a query's text form is the way back of §15.2's bijective mapping, which
/// serves the dual wire format §24 lists under Extended ("neither is canonical", §1). An
/// engine without a formatter certifies Core (docs/spec-decisions-conformance.md C26).
pub fn canonical_pins_at_extended(cases: &mut Vec<Case>) {
    let mut moved = Vec::new();
    for case in cases.iter_mut() {
        if case.level != Level::Core {
            continue;
        }
        let Body::Parse(ParseCase { query, expect }) = &mut case.body else { continue };
        let (canonical, reads_back_as, well_formed) = match expect {
            ParseExpect::Accept { canonical, reads_back_as, .. } => (canonical, reads_back_as, false),
            ParseExpect::WellFormed { reads_back_as } => (&mut None, reads_back_as, true),
            ParseExpect::Reject { .. } => continue,
        };
        if canonical.is_none() && reads_back_as.is_none() {
            continue;
        }
        let (canonical, reads_back_as) = (canonical.take(), reads_back_as.take());
        let mut flags = case.flags.clone();
        if !flags.contains(&Flag::Generated) {
            flags.push(Flag::Generated);
        }
        let mut tags = case.tags.clone();
        tags.push("canonical".into());
        let mut sections = case.sections.clone();
        sections.extend(["15.2".to_string(), "24".to_string()]);
        moved.push(Case {
            id: format!("{}.canonical", case.id),
            level: Level::Extended,
            tags,
            sections,
            flags,
            description: Some(format!("the canonical text of {} (Extended, §15.2, §24)", case.id)),
            rulings: case.rulings.clone(),
            origin: Origin { file: case.origin.file.clone(), pointer: format!("{}+canonical", case.origin.pointer) },
            body: Body::Parse(ParseCase {
                query: query.clone(),
                expect: if well_formed {
                    ParseExpect::WellFormed { reads_back_as }
                } else {
                    ParseExpect::Accept { json: None, canonical, warnings: None, reads_back_as }
                },
            }),
        });
    }
    cases.extend(moved);
}

/// The tokens of a text when it lexes cleanly and has no raw template text (whose
/// whitespace is content, not separation).
fn clean_tokens(text: &str) -> Option<Vec<(Token<'_>, std::ops::Range<usize>)>> {
    let lexed = cal_lexer::lex(text);
    if !lexed.diagnostics.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(lexed.tokens.len());
    for (t, span) in lexed.tokens {
        if matches!(t, Token::TemplateText(_) | Token::Error) {
            return None;
        }
        out.push((t, span.range()));
    }
    Some(out)
}

/// Every keyword written in capitals becomes alternating case (`RECALL` → `rEcAlL`).
pub fn keyword_case(text: &str) -> Option<String> {
    let tokens = clean_tokens(text)?;
    let mut out = text.to_string();
    for (t, r) in tokens {
        let word = &text[r.clone()];
        if matches!(t, Token::Kw(_)) && word.bytes().all(|b| b.is_ascii_uppercase()) {
            let flipped: String =
                word.chars().enumerate().map(|(i, c)| if i % 2 == 0 { c.to_ascii_lowercase() } else { c }).collect();
            out.replace_range(r, &flipped);
        }
    }
    Some(out)
}

/// The pure-whitespace gaps between tokens, as byte ranges.
fn gaps(text: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let tokens = clean_tokens(text)?;
    let mut out = Vec::new();
    for pair in tokens.windows(2) {
        let gap = pair[0].1.end..pair[1].1.start;
        if !gap.is_empty() && text[gap.clone()].bytes().all(|b| b.is_ascii_whitespace()) {
            out.push(gap);
        }
    }
    Some(out)
}

/// Every gap becomes a run of mixed whitespace, and the query is padded at both ends.
pub fn whitespace(text: &str) -> Option<String> {
    let gaps = gaps(text)?;
    let mut out = text.to_string();
    for g in gaps.into_iter().rev() {
        out.replace_range(g, " \t\n  ");
    }
    Some(format!("\n  {out} \n"))
}

/// A line comment in every gap, one before the query and one after it.
pub fn comments(text: &str) -> Option<String> {
    let gaps = gaps(text)?;
    let mut out = text.to_string();
    for g in gaps.into_iter().rev() {
        out.replace_range(g, " -- note: RECALL \"x\" ; \n ");
    }
    Some(format!("-- a generated comment\n{out}\n-- the end"))
}
