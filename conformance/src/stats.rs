//! Corpus statistics (`cal conformance stats`): size per kind, level and
//! flag; cases per error and warning code of the registry (codes with fewer than
//! [`MIN_CASES_PER_CODE`] are listed); accepted cases per keyword, WITH
//! option and EBNF production; boundary coverage of every §17.3 limit.
//!
//! Every list of things to cover comes from `cal-grammar` (codes, keywords,
//! WITH options, the EBNF text, the LIMITS table), never from a copy.
//! Production coverage is measured through keywords: a production counts the
//! accepted cases that contain its leading keyword (with the next one when the
//! right-hand side starts with two, as `AS OF`); productions without a keyword
//! terminal are listed as not measurable.

use crate::case::{Body, Case, Flag, Level, ParseExpect, QueryInput, WireCase};
use crate::exclusions::POSITIONS;
use cal_grammar::limits::LIMITS;
use cal_grammar::{Code, Keyword, WithOptionName};
use cal_lexer::Token;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The bar: reject cases per error code.
pub const MIN_CASES_PER_CODE: usize = 10;
/// The bar: accept cases per production, keyword and WITH option.
pub const MIN_ACCEPTS: usize = 3;
/// The bar for execute cases per WITH option: each one's effect checked at least twice.
pub const MIN_EXECUTE_PER_OPTION: usize = 2;

/// What `stats` measures.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Cases in all.
    pub total: usize,
    /// Generated cases among them.
    pub generated: usize,
    /// The generated cases stored in case files (written from a seed by a generator under
    /// `authoring/generated/`); the others are derived from stored cases when the corpus loads.
    pub generated_stored: usize,
    /// SHOULD cases among them.
    pub should: usize,
    /// Per kind.
    pub per_kind: BTreeMap<&'static str, usize>,
    /// Per level.
    pub per_level: BTreeMap<&'static str, usize>,
    /// Cases with an assertion that comes from a project ruling (scored, never gating), per ruling.
    pub per_ruling: BTreeMap<String, usize>,
    /// Cases per registry code, every code listed: rejections with that error, and cases
    /// expecting that warning.
    pub per_code: BTreeMap<&'static str, usize>,
    /// Accepted parse cases per keyword.
    pub per_keyword: BTreeMap<&'static str, usize>,
    /// Accepted parse cases per WITH option.
    pub per_with_option: BTreeMap<&'static str, usize>,
    /// Accepted parse cases per EBNF production (through its keyword terminals).
    pub per_production: BTreeMap<String, usize>,
    /// Productions whose right-hand side has no keyword terminal.
    pub unmeasured_productions: Vec<String>,
    /// Execute cases per statement (the `statement` of the query's JSON form; `let` when it has LET bindings too).
    pub execute_per_statement: BTreeMap<String, usize>,
    /// Execute cases per WITH option, every option listed (in the query, its setup or `then` queries).
    pub execute_per_with_option: BTreeMap<&'static str, usize>,
    /// Execute cases per keyword (clause), every keyword listed (as for WITH options).
    pub execute_per_keyword: BTreeMap<&'static str, usize>,
    /// §17.3 limits: name → (generated boundary cases, hand-written cases tagged with the name).
    pub limits: BTreeMap<&'static str, (usize, usize)>,
    /// §2.4 excluded words: word → position (`crate::exclusions::POSITIONS`, and `other` for a
    /// case tagged `excluded:<WORD>` without a position) → cases. Every word and position listed.
    pub per_exclusion: BTreeMap<&'static str, BTreeMap<&'static str, usize>>,
}

/// Measures a corpus.
pub fn measure(cases: &[Case]) -> Stats {
    let mut s = Stats { total: cases.len(), ..Stats::default() };
    for code in Code::ALL {
        s.per_code.insert(code.as_str(), 0);
    }
    for k in Keyword::ALL {
        s.per_keyword.insert(k.as_str(), 0);
    }
    for w in WithOptionName::ALL {
        s.per_with_option.insert(w.as_str(), 0);
        s.execute_per_with_option.insert(w.as_str(), 0);
    }
    for k in Keyword::ALL {
        s.execute_per_keyword.insert(k.as_str(), 0);
    }
    let productions = productions(cal_grammar::EBNF);
    for (name, kws) in &productions {
        if kws.is_empty() {
            s.unmeasured_productions.push(name.clone());
        } else {
            s.per_production.insert(name.clone(), 0);
        }
    }
    for l in LIMITS.iter().filter(|l| l.section.split(',').any(|x| x.trim() == "17.3")) {
        s.limits.insert(l.name, (0, 0));
    }
    for w in cal_grammar::vocab::ExcludedWord::ALL {
        s.per_exclusion.insert(w.as_str(), POSITIONS.iter().map(|p| (*p, 0)).collect());
    }
    for case in cases {
        count_exclusion(&mut s, case);
        *s.per_kind.entry(case.kind().as_str()).or_default() += 1;
        *s.per_level.entry(case.level.as_str()).or_default() += 1;
        s.generated += usize::from(case.has_flag(Flag::Generated));
        s.generated_stored += usize::from(case.has_flag(Flag::Generated) && is_stored(case));
        s.should += usize::from(case.is_should());
        for ruling in case.rulings.values().collect::<BTreeSet<_>>() {
            *s.per_ruling.entry(ruling.clone()).or_default() += 1;
        }
        for code in expected_codes(case) {
            if let Some(n) = s.per_code.get_mut(code) {
                *n += 1;
            }
        }
        for tag in &case.tags {
            if let Some((gen_count, hand)) = s.limits.get_mut(tag.as_str()) {
                if case.has_flag(Flag::Generated) {
                    *gen_count += 1;
                } else {
                    *hand += 1;
                }
            }
        }
        if let Body::Execute(e) = &case.body {
            for statement in statements(&e.query) {
                *s.execute_per_statement.entry(statement).or_default() += 1;
            }
            let (mut keywords, mut options) = words(&e.query);
            for text in e.session.setup.iter().chain(&e.session.then) {
                let (k, o) = words(text);
                keywords.extend(k);
                options.extend(o);
            }
            for k in keywords {
                *s.execute_per_keyword.entry(k).or_default() += 1;
            }
            for o in options {
                *s.execute_per_with_option.entry(o).or_default() += 1;
            }
        }
        if let Some(text) = accepted_text(case) {
            count_words(&mut s, &productions, text);
        }
    }
    s
}

/// Counts a case tagged `excluded:<WORD>` under its word and position.
fn count_exclusion(s: &mut Stats, case: &Case) {
    let position = POSITIONS
        .iter()
        .find(|p| case.tags.iter().any(|t| t.strip_prefix("excluded-as:") == Some(**p)))
        .copied()
        .unwrap_or("other");
    for word in case.tags.iter().filter_map(|t| t.strip_prefix("excluded:")) {
        if let Some(per) = s.per_exclusion.get_mut(word) {
            *per.entry(position).or_default() += 1;
        }
    }
}

/// The statements of a query as its JSON form names them (`recall`, `assemble`, …), plus `let`.
fn statements(query: &str) -> Vec<String> {
    let parsed = cal_parser::parse_document(query);
    let Some(doc) = parsed.ast else { return Vec::new() };
    let mut out = Vec::new();
    for q in &doc.queries {
        let j = cal_parser::json::query_to_json(q);
        if let Some(s) = j.get("statement").and_then(Value::as_str) {
            out.push(s.to_string());
        }
        if j.get("lets").is_some() {
            out.push("let".to_string());
        }
    }
    out
}

/// Whether a §17.3 limit is a performance target (the parse time budget): nothing is refused
/// when it is missed, so no conformance case can show its boundary (ruling C39).
pub fn is_performance_target(name: &str) -> bool {
    cal_grammar::limits::LIMITS
        .iter()
        .any(|l| l.name == name && l.code.is_none() && l.kind == cal_grammar::limits::LimitKind::Performance)
}

/// Whether a case is written in a case file as it runs (`/cases/N` of its file), rather than
/// derived from one when the corpus loads (`/cases/N+canonical`, an exclusion, a limit pair).
fn is_stored(case: &Case) -> bool {
    case.origin.pointer.strip_prefix("/cases/").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
}

/// The codes a case expects to be reported: the error of a rejection, and expected warnings.
fn expected_codes(case: &Case) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    match &case.body {
        Body::Parse(p) => match &p.expect {
            ParseExpect::Reject { code, .. } => out.push(code),
            ParseExpect::Accept { warnings, .. } => out.extend(warnings.iter().flatten().map(String::as_str)),
            ParseExpect::WellFormed { .. } => {}
        },
        Body::Wire(WireCase::JsonRejected { code, .. }) => out.push(code),
        Body::Execute(e) => {
            out.extend(e.expect.error.as_deref());
            out.extend(e.expect.warnings.iter().flatten().map(String::as_str));
            out.extend(e.expect.stream_end.as_ref().and_then(|s| s.code.as_deref()));
            out.extend(e.expect.stream_end.iter().flat_map(|s| s.errors.iter().map(String::as_str)));
        }
        _ => {}
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The query of an accepted parse case (or a text→JSON wire case).
fn accepted_text(case: &Case) -> Option<&str> {
    match &case.body {
        Body::Parse(p) => match (&p.query, &p.expect) {
            (QueryInput::Text(t), ParseExpect::Accept { .. }) => Some(t),
            _ => None,
        },
        Body::Wire(WireCase::TextToJson { query, .. }) => Some(query),
        _ => None,
    }
}

/// The keywords and WITH options a query text uses.
fn words(text: &str) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    words_in(&cal_lexer::lex(text).tokens)
}

/// The keywords and WITH options among lexed tokens.
fn words_in<S>(tokens: &[(Token<'_>, S)]) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let mut keywords: BTreeSet<&'static str> = BTreeSet::new();
    let mut options: BTreeSet<&'static str> = BTreeSet::new();
    let mut after_with = false;
    for (t, _) in tokens {
        match t {
            Token::Kw(k) => {
                keywords.insert(k.as_str());
                after_with |= *k == Keyword::With;
            }
            Token::Ident(w) if after_with => {
                if let Some(o) = WithOptionName::from_word(w) {
                    options.insert(o.as_str());
                }
            }
            _ => {}
        }
    }
    (keywords, options)
}

fn count_words(s: &mut Stats, productions: &[(String, Vec<&'static str>)], text: &str) {
    let lexed = cal_lexer::lex(text);
    let (keywords, options) = words_in(&lexed.tokens);
    for k in &keywords {
        *s.per_keyword.entry(k).or_default() += 1;
    }
    for o in options {
        *s.per_with_option.entry(o).or_default() += 1;
    }
    let words: Vec<Option<&'static str>> =
        lexed.tokens.iter().map(|(t, _)| if let Token::Kw(k) = t { Some(k.as_str()) } else { None }).collect();
    for (name, sig) in productions {
        let used = !sig.is_empty() && words.windows(sig.len()).any(|w| w.iter().zip(sig).all(|(a, b)| *a == Some(*b)));
        if used {
            *s.per_production.entry(name.clone()).or_default() += 1;
        }
    }
}

/// The productions of the EBNF (`name = … ;`) with the keyword terminals of their right-hand sides.
pub fn productions(ebnf: &str) -> Vec<(String, Vec<&'static str>)> {
    let text = strip_comments(ebnf);
    let mut out = Vec::new();
    for rule in text.split(';') {
        let Some((lhs, rhs)) = rule.split_once('=') else { continue };
        let name = lhs.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        out.push((name.to_string(), signature(rhs)));
    }
    out
}

/// The leading keyword of a right-hand side, with the keyword right after it when the two are
/// concatenated (`"AS" , "OF"`): the words a query must contain, in a row, to use the production.
fn signature(rhs: &str) -> Vec<&'static str> {
    let keyword = |t: &str| Keyword::ALL.iter().find(|k| k.as_str() == t).map(|k| k.as_str());
    // Alternating pieces: outside quotes, a quoted terminal, outside, a terminal, …
    let pieces: Vec<&str> = rhs.split('"').collect();
    let terminals: Vec<(usize, &str)> = pieces.iter().enumerate().skip(1).step_by(2).map(|(i, t)| (i, *t)).collect();
    let Some(pos) = terminals.iter().position(|(_, t)| keyword(t).is_some()) else { return Vec::new() };
    let (i, first) = terminals[pos];
    let mut sig: Vec<&'static str> = keyword(first).into_iter().collect();
    if let Some((_, next)) = terminals.get(pos + 1) {
        let between = pieces.get(i + 1).map_or("", |s| s.trim());
        if between == "," {
            sig.extend(keyword(next));
        }
    }
    sig
}

/// The EBNF without `(* … *)` comments and without quoted terminals' `;` and `=` confusing the split.
fn strip_comments(ebnf: &str) -> String {
    let mut out = String::with_capacity(ebnf.len());
    let mut rest = ebnf;
    while let Some(i) = rest.find("(*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*)").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    // Quoted ";" and "=" are terminals, not rule punctuation.
    out.replace("\";\"", "\"SEMI\"").replace("\"=\"", "\"EQ\"")
}

impl Stats {
    /// Codes with fewer than [`MIN_CASES_PER_CODE`] cases.
    pub fn thin_codes(&self) -> Vec<(&'static str, usize)> {
        self.per_code.iter().filter(|(_, n)| **n < MIN_CASES_PER_CODE).map(|(c, n)| (*c, *n)).collect()
    }

    /// The excluded words lacking a case in some position, with the positions they lack.
    pub fn exclusions_missing(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        self.per_exclusion
            .iter()
            .filter_map(|(w, per)| {
                let lacking: Vec<&'static str> = POSITIONS.iter().copied().filter(|p| per.get(p) == Some(&0)).collect();
                (!lacking.is_empty()).then_some((*w, lacking))
            })
            .collect()
    }

    /// The statistics as JSON.
    pub fn to_json(&self) -> Value {
        let under = |m: &BTreeMap<&'static str, usize>| -> Vec<Value> {
            m.iter().filter(|(_, n)| **n < MIN_ACCEPTS).map(|(k, n)| json!({ "name": k, "cases": n })).collect()
        };
        let limits: Map<String, Value> = self
            .limits
            .iter()
            .map(|(k, (g, h))| (k.to_string(), json!({ "generated": g, "hand_written": h })))
            .collect();
        json!({
            "total": self.total,
            "generated": self.generated,
            "generated_stored": self.generated_stored,
            "generated_derived_at_load": self.generated - self.generated_stored,
            "hand_written": self.total - self.generated,
            "should": self.should,
            "per_kind": self.per_kind,
            "per_level": self.per_level,
            "per_ruling": self.per_ruling,
            "per_code": self.per_code,
            "codes_under_minimum": self.thin_codes().iter().map(|(c, n)| json!({
                "code": c,
                "cases": n,
                "execution_only": Code::parse(c).is_some_and(|x| x.info().phase == cal_grammar::Phase::Execute),
            })).collect::<Vec<_>>(),
            "per_keyword": self.per_keyword,
            "keywords_under_minimum": under(&self.per_keyword),
            "per_with_option": self.per_with_option,
            "with_options_under_minimum": under(&self.per_with_option),
            "per_production": self.per_production,
            "productions_under_minimum": self.per_production.iter().filter(|(_, n)| **n < MIN_ACCEPTS).map(|(k, n)| json!({ "name": k, "cases": n })).collect::<Vec<_>>(),
            "productions_not_measured": self.unmeasured_productions,
            "execute_per_statement": self.execute_per_statement,
            "execute_per_with_option": self.execute_per_with_option,
            "execute_per_keyword": self.execute_per_keyword,
            "limits_17_3": limits,
            "exclusion_positions": POSITIONS,
            "per_exclusion": self.per_exclusion,
            "exclusions_missing_a_position": self.exclusions_missing().iter().map(|(w, ps)| json!({ "word": w, "positions": ps })).collect::<Vec<_>>(),
        })
    }

    /// The keywords (clauses) no execute case uses, among those a production of the grammar
    /// admits; and apart, the keywords no production admits (reserved words, §3.6), which no
    /// query that runs can hold.
    pub fn keywords_without_execute_case(&self) -> (Vec<&'static str>, Vec<&'static str>) {
        let ebnf = strip_comments(cal_grammar::EBNF).to_ascii_lowercase();
        let admitted = |k: &str| ebnf.contains(&format!("\"{}\"", k.to_ascii_lowercase()));
        let mut missing = Vec::new();
        let mut reserved = Vec::new();
        for (k, n) in &self.execute_per_keyword {
            if !admitted(k) {
                reserved.push(*k);
            } else if *n == 0 {
                missing.push(*k);
            }
        }
        (missing, reserved)
    }

    /// The statistics as readable text.
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "corpus: {} cases ({} hand-written, {} generated: {} stored from a seed, {} derived at load; {} SHOULD)",
            self.total,
            self.total - self.generated,
            self.generated,
            self.generated_stored,
            self.generated - self.generated_stored,
            self.should
        );
        let _ = writeln!(o, "per kind:  {}", pairs(self.per_kind.iter().map(|(k, n)| (k.to_string(), *n))));
        let levels =
            Level::ALL.iter().map(|l| (l.as_str().to_string(), self.per_level.get(l.as_str()).copied().unwrap_or(0)));
        let _ = writeln!(o, "per level: {}", pairs(levels));
        if !self.per_ruling.is_empty() {
            let rulings = pairs(self.per_ruling.iter().map(|(k, n)| (k.clone(), *n)));
            let _ = writeln!(o, "cases with a ruled assertion (scored like SHOULD, never gating): {rulings}");
        }
        let covered = self.per_code.values().filter(|n| **n > 0).count();
        let _ = writeln!(
            o,
            "\nerror and warning codes: {covered}/{} have a case; {} have fewer than {MIN_CASES_PER_CODE}:",
            self.per_code.len(),
            self.thin_codes().len()
        );
        let thin = self.thin_codes().into_iter().map(|(c, n)| {
            let only_at_run_time = Code::parse(c).is_some_and(|x| x.info().phase == cal_grammar::Phase::Execute);
            (if only_at_run_time { format!("{c} (execution-only)") } else { c.to_string() }, n)
        });
        let _ = writeln!(o, "  {}", pairs(thin));
        let section = |o: &mut String, title: &str, m: &mut dyn Iterator<Item = (String, usize)>| {
            let all: Vec<(String, usize)> = m.collect();
            let thin: Vec<(String, usize)> = all.iter().filter(|(_, n)| *n < MIN_ACCEPTS).cloned().collect();
            let _ = writeln!(
                o,
                "\n{title}: {}/{} have at least {MIN_ACCEPTS} accepted cases; under:",
                all.len() - thin.len(),
                all.len()
            );
            let _ = writeln!(o, "  {}", pairs(thin.into_iter()));
        };
        section(&mut o, "keywords", &mut self.per_keyword.iter().map(|(k, n)| (k.to_string(), *n)));
        section(&mut o, "WITH options", &mut self.per_with_option.iter().map(|(k, n)| (k.to_string(), *n)));
        section(
            &mut o,
            "productions (by keyword terminals)",
            &mut self.per_production.iter().map(|(k, n)| (k.clone(), *n)),
        );
        let _ = writeln!(o, "  not measurable by keyword: {}", self.unmeasured_productions.len());
        let _ = writeln!(
            o,
            "\nexecute cases per statement: {}",
            pairs(self.execute_per_statement.iter().map(|(k, n)| (k.clone(), *n)))
        );
        let thin_options: Vec<(String, usize)> = self
            .execute_per_with_option
            .iter()
            .filter(|(_, n)| **n < MIN_EXECUTE_PER_OPTION)
            .map(|(k, n)| (k.to_string(), *n))
            .collect();
        let _ = writeln!(
            o,
            "execute cases per WITH option: {}\n  under {MIN_EXECUTE_PER_OPTION}: {}",
            pairs(self.execute_per_with_option.iter().map(|(k, n)| (k.to_string(), *n))),
            pairs(thin_options.into_iter())
        );
        let (missing, reserved) = self.keywords_without_execute_case();
        let admitted = self.execute_per_keyword.len() - reserved.len();
        let _ = writeln!(
            o,
            "keywords (clauses) in execute cases: {}/{admitted} of those a production admits have one; none for: {}",
            admitted - missing.len(),
            if missing.is_empty() { "(none)".to_string() } else { missing.join(", ") }
        );
        let _ = writeln!(o, "  admitted by no production (reserved): {}", reserved.join(", "));
        let _ = writeln!(o, "\n§17.3 limits (generated boundary cases / hand-written cases tagged with the limit):");
        for (name, (g, h)) in &self.limits {
            let note = if *g >= 2 || *h >= 2 {
                ""
            } else if is_performance_target(name) {
                "  (a performance target with no code: no case can observe it; benchmarked, C39)"
            } else {
                "  ← no boundary pair"
            };
            let _ = writeln!(o, "  {name:<28} {g:>3} / {h:<3}{note}");
        }
        let missing = self.exclusions_missing();
        let _ = writeln!(
            o,
            "\n§2.4 excluded words: {}/{} have a case in every position; cases per word and position:",
            self.per_exclusion.len() - missing.len(),
            self.per_exclusion.len()
        );
        let _ = writeln!(o, "  {:<12} {}", "word", POSITIONS.join(" "));
        for (word, per) in &self.per_exclusion {
            let cells: Vec<String> =
                POSITIONS.iter().map(|p| format!("{:>w$}", per.get(p).copied().unwrap_or(0), w = p.len())).collect();
            let other = per.get("other").copied().unwrap_or(0);
            let other = if other > 0 { format!("  other {other}") } else { String::new() };
            let _ = writeln!(o, "  {word:<12} {}{other}", cells.join(" "));
        }
        for (word, lacking) in &missing {
            let _ = writeln!(o, "  {word} lacks: {}", lacking.join(", "));
        }
        o
    }
}

fn pairs(items: impl Iterator<Item = (String, usize)>) -> String {
    let v: Vec<String> = items.map(|(k, n)| format!("{k} {n}")).collect();
    if v.is_empty() { "(none)".into() } else { v.join(", ") }
}
