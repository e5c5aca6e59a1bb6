//! The parser's error type and its conversion into [`Diagnostic`]s.
//!
//! Chumsky builds an error for every alternative that fails while it
//! explores a `choice`, on the happy path as much as on bad input, so this
//! type must be cheap: expected tokens are a bitset over token kinds and
//! labels a bitset over [`Expect`]. Only errors that reach the user are
//! turned into text, with the source at hand.

use cal_grammar::{Code, Diagnostic, GrainType, Keyword, Span, suggest};
use cal_lexer::Token;
use chumsky::DefaultExpected;
use chumsky::error::LabelError;
use chumsky::input::Input;
use chumsky::span::SimpleSpan;
use chumsky::util::MaybeRef;

/// Named things the parser expects, for "expected a field name" rather than a token soup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Expect {
    Statement,
    GrainType,
    Field,
    Value,
    Operator,
    String,
    Integer,
    Number,
    Hash,
    Label,
    Name,
    WithOption,
    Stage,
    Format,
    DescribeTarget,
    Condition,
    Source,
    StreamOption,
    TemplateSection,
    Category,
    Parameter,
    Clause,
    BudgetUnit,
    HistoryCondition,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::Statement => "a statement (RECALL, ASSEMBLE, EXISTS, HISTORY, DESCRIBE, …)",
            Expect::GrainType => "a grain type",
            Expect::Field => "a field name",
            Expect::Value => "a value",
            Expect::Operator => "an operator (=, !=, >=, <=, >, <, IN, BETWEEN, INCLUDE, EXCLUDE, IS)",
            Expect::String => "a string literal",
            Expect::Integer => "an integer",
            Expect::Number => "a number",
            Expect::Hash => "a hash literal (sha256:…)",
            Expect::Label => "a label",
            Expect::Name => "a name",
            Expect::WithOption => "a WITH option",
            Expect::Stage => "a pipeline stage",
            Expect::Format => "a format",
            Expect::DescribeTarget => "what to describe",
            Expect::Condition => "a condition",
            Expect::Source => "a source",
            Expect::StreamOption => "a stream option",
            Expect::TemplateSection => "a template section (HEADER, ELEMENT, …)",
            Expect::Category => "a relation category",
            Expect::Parameter => "a parameter ($name)",
            Expect::Clause => "a clause",
            Expect::BudgetUnit => "a budget unit (tokens or grains)",
            Expect::HistoryCondition => "`subject = …` or `relation = …`",
        }
    }

    const ALL: [Expect; 24] = [
        Expect::Statement,
        Expect::GrainType,
        Expect::Field,
        Expect::Value,
        Expect::Operator,
        Expect::String,
        Expect::Integer,
        Expect::Number,
        Expect::Hash,
        Expect::Label,
        Expect::Name,
        Expect::WithOption,
        Expect::Stage,
        Expect::Format,
        Expect::DescribeTarget,
        Expect::Condition,
        Expect::Source,
        Expect::StreamOption,
        Expect::TemplateSection,
        Expect::Category,
        Expect::Parameter,
        Expect::Clause,
        Expect::BudgetUnit,
        Expect::HistoryCondition,
    ];
}

/// A parse failure: a syntax error with what was expected, or a diagnostic
/// with its own code (unknown grain type, unsupported version, …).
#[derive(Debug, Clone)]
pub(crate) struct ParseError {
    pub span: SimpleSpan,
    found: Option<u8>,
    expected: u128,
    labels: u32,
    custom: Option<Box<Diagnostic>>,
}

impl ParseError {
    /// "Unexpected `found`; expected `what`", for an error the grammar detects itself
    /// (a stretch of text it skips) rather than one chumsky reports.
    pub fn unexpected(span: SimpleSpan, found: &Token<'_>, what: Expect) -> Self {
        ParseError { span, found: Some(token_bit(found)), expected: 0, labels: 1 << (what as u8), custom: None }
    }

    /// An error that already knows its code and wording.
    pub fn custom(diag: Diagnostic) -> Self {
        ParseError {
            span: SimpleSpan::from(diag.span.range()),
            found: None,
            expected: 0,
            labels: 0,
            custom: Some(Box::new(diag)),
        }
    }
}

const KEYWORDS: usize = 79;

/// Bit index of a token kind in the expected-set. Keywords take 0..79.
fn token_bit(t: &Token<'_>) -> u8 {
    let k = KEYWORDS as u8;
    match t {
        Token::Kw(kw) => Keyword::ALL.iter().position(|x| x == kw).map_or(127, |p| p as u8),
        Token::Excluded(_) => k,
        Token::Ident(_) => k + 1,
        Token::Str(_) => k + 2,
        Token::Number(_) => k + 3,
        Token::Hash(_) => k + 4,
        Token::Param(_) => k + 5,
        Token::TemplateText(_) => k + 6,
        Token::LParen => k + 7,
        Token::RParen => k + 8,
        Token::LBracket => k + 9,
        Token::RBracket => k + 10,
        Token::LBrace => k + 11,
        Token::RBrace => k + 12,
        Token::Comma => k + 13,
        Token::Semicolon => k + 14,
        Token::Colon => k + 15,
        Token::Pipe => k + 16,
        Token::Slash => k + 17,
        Token::Eq => k + 18,
        Token::Ne => k + 19,
        Token::Ge => k + 20,
        Token::Le => k + 21,
        Token::Gt => k + 22,
        Token::Lt => k + 23,
        Token::Error => k + 24,
    }
}

const EOI_BIT: u8 = 126;

fn bit_name(bit: u8) -> Option<&'static str> {
    let k = KEYWORDS as u8;
    Some(match bit {
        // DEFINE only starts DEFINE TEMPLATE, CAL only the version prefix.
        b if b < k && Keyword::ALL[b as usize] == Keyword::Define => "DEFINE TEMPLATE",
        b if b < k && Keyword::ALL[b as usize] == Keyword::Cal => "a version prefix (CAL/1)",
        b if b < k => Keyword::ALL[b as usize].as_str(),
        b if b == k + 1 => "a name",
        b if b == k + 2 => "a string literal",
        b if b == k + 3 => "a number",
        b if b == k + 4 => "a hash literal (sha256:…)",
        b if b == k + 5 => "a parameter ($name)",
        b if b == k + 6 => "template text",
        b if b == k + 7 => "`(`",
        b if b == k + 8 => "`)`",
        b if b == k + 9 => "`[`",
        b if b == k + 10 => "`]`",
        b if b == k + 11 => "`{`",
        b if b == k + 12 => "`}`",
        b if b == k + 13 => "`,`",
        b if b == k + 14 => "`;`",
        b if b == k + 15 => "`:`",
        b if b == k + 16 => "`|`",
        b if b == k + 17 => "`/`",
        b if b == k + 18 => "`=`",
        b if b == k + 19 => "`!=`",
        b if b == k + 20 => "`>=`",
        b if b == k + 21 => "`<=`",
        b if b == k + 22 => "`>`",
        b if b == k + 23 => "`<`",
        EOI_BIT => "end of query",
        _ => return None,
    })
}

impl<'t, 's: 't, I> LabelError<'t, I, DefaultExpected<'t, Token<'s>>> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'t, Token<'s>>>>(
        expected: E,
        found: Option<MaybeRef<'t, Token<'s>>>,
        span: SimpleSpan,
    ) -> Self {
        let mut bits = 0u128;
        for e in expected {
            match e {
                DefaultExpected::Token(t) => bits |= 1u128 << token_bit(&t),
                DefaultExpected::EndOfInput => bits |= 1u128 << EOI_BIT,
                _ => {}
            }
        }
        ParseError { span, found: found.map(|t| token_bit(&t)), expected: bits, labels: 0, custom: None }
    }
}

impl<'t, 's: 't, I> LabelError<'t, I, Expect> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn expected_found<E: IntoIterator<Item = Expect>>(
        expected: E,
        found: Option<MaybeRef<'t, Token<'s>>>,
        span: SimpleSpan,
    ) -> Self {
        let labels = expected.into_iter().fold(0u32, |acc, l| acc | 1 << (l as u8));
        ParseError { span, found: found.map(|t| token_bit(&t)), expected: 0, labels, custom: None }
    }

    fn label_with(&mut self, label: Expect) {
        if self.custom.is_none() {
            self.expected = 0;
            self.labels = 1 << (label as u8);
        }
    }
}

impl<'t, 's: 't, I> chumsky::error::Error<'t, I> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.custom.is_some() {
            return self;
        }
        if other.custom.is_some() {
            return other;
        }
        self.expected |= other.expected;
        self.labels |= other.labels;
        self
    }
}

/// Turns a parse error into a diagnostic, or `None` when it is a consequence of a
/// problem the lexer has already reported: the offending token is invalid or excluded, or
/// the input ended early because an invalid token (an unterminated string or template
/// section) ran to the end of the text.
pub(crate) fn to_diagnostic(err: ParseError, source: &str, tokens: &[(Token<'_>, Span)]) -> Option<Diagnostic> {
    if let Some(d) = err.custom {
        return Some(*d);
    }
    let mut span = Span::new(err.span.start, err.span.end);
    let at = tokens.iter().position(|(_, s)| s.start == span.start);
    let found_token = at.map(|i| tokens[i].0);
    if matches!(found_token, Some(Token::Error | Token::Excluded(_))) {
        return None;
    }
    if err.found.is_none() && matches!(tokens.last(), Some((Token::Error, _))) {
        return None;
    }
    // Recovery can leave an error with an empty span in front of the token it found.
    if let (Some(i), true) = (at, span.is_empty()) {
        span = tokens[i].1;
    }
    let prev = tokens.iter().rev().find(|(_, s)| s.end <= span.start).copied();
    let mut labels = err.labels;
    let mut bits = err.expected;
    let has_label = |l: Expect| labels & (1 << (l as u8)) != 0;
    // `:` is only worth naming when nothing else fits: elsewhere it is the middle of a
    // domain field (`hc:patient_id`) or of a label, which no one forgets to finish.
    let colon = 1u128 << token_bit(&Token::Colon);
    if bits != colon || labels != 0 {
        bits &= !colon;
    }
    // Where a statement is expected, the `;` on offer is an empty query: not a suggestion.
    if has_label(Expect::Statement) {
        bits &= !(1u128 << token_bit(&Token::Semicolon));
    }
    // Only HISTORY says what its condition must be; RECALL takes any field.
    if has_label(Expect::HistoryCondition) {
        labels &= !(1 << (Expect::Condition as u8));
    }
    let found_text = source.get(span.range()).unwrap_or("");
    let mut expected: Vec<String> =
        Expect::ALL.iter().filter(|l| labels & (1 << (**l as u8)) != 0).map(|l| l.describe().to_string()).collect();
    for bit in 0..128u8 {
        if bits & (1u128 << bit) != 0 {
            if let Some(name) = bit_name(bit) {
                if !expected.iter().any(|e| e == name) {
                    expected.push(name.to_string());
                }
            }
        }
    }
    let found_desc = match err.found {
        None => "end of query".to_string(),
        Some(_) => match found_token {
            Some(Token::Str(_)) => "string literal".to_string(),
            _ => format!("`{found_text}`"),
        },
    };
    let message = if expected.is_empty() {
        format!("Unexpected {found_desc}.")
    } else {
        format!("Unexpected {found_desc}; expected {}.", join_or(&expected))
    };
    let mut d = Diagnostic::new(Code::E002, span, message).with_expected(expected);
    let context = Context { expected: bits, labels, found: found_token, text: found_text, prev };
    d = add_hint(d, &context, source);
    Some(d)
}

/// What an error found and what was expected there, for [`add_hint`].
struct Context<'a, 's> {
    expected: u128,
    labels: u32,
    found: Option<Token<'s>>,
    text: &'a str,
    prev: Option<(Token<'s>, Span)>,
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] if init.len() < 8 => format!("{} or {last}", init.join(", ")),
        _ => format!("{}, …", items[..8].join(", ")),
    }
}

/// Keywords that can start a clause of RECALL or ASSEMBLE.
const CLAUSE_KEYWORDS: &[Keyword] = &[
    Keyword::Where,
    Keyword::With,
    Keyword::About,
    Keyword::Like,
    Keyword::Since,
    Keyword::Between,
    Keyword::Thread,
    Keyword::Recent,
    Keyword::Contradictions,
    Keyword::As,
    Keyword::In,
    Keyword::For,
    Keyword::From,
    Keyword::Budget,
    Keyword::Priority,
    Keyword::Format,
    Keyword::Stream,
];

/// Keywords that start a statement.
const STATEMENT_KEYWORDS: &[Keyword] = &[
    Keyword::Recall,
    Keyword::Assemble,
    Keyword::Exists,
    Keyword::History,
    Keyword::Explain,
    Keyword::Describe,
    Keyword::Batch,
    Keyword::Coalesce,
    Keyword::Add,
    Keyword::Supersede,
    Keyword::Revert,
    Keyword::Define,
];

/// Keywords that start a pipeline stage.
const STAGE_KEYWORDS: &[Keyword] = &[
    Keyword::Select,
    Keyword::Order,
    Keyword::Limit,
    Keyword::Offset,
    Keyword::Count,
    Keyword::First,
    Keyword::Subjects,
    Keyword::Objects,
    Keyword::Hashes,
    Keyword::Group,
    Keyword::Project,
];

/// Targeted advice for the mistakes people (and LLMs) actually make.
fn add_hint(d: Diagnostic, cx: &Context<'_, '_>, source: &str) -> Diagnostic {
    let has_label = |l: Expect| cx.labels & (1 << (l as u8)) != 0;
    let expects = |t: Token<'_>| cx.expected & (1u128 << token_bit(&t)) != 0;
    let expects_kw = |k: Keyword| {
        expects(Token::Kw(k))
            || (has_label(Expect::Clause) && CLAUSE_KEYWORDS.contains(&k))
            || (has_label(Expect::Statement) && STATEMENT_KEYWORDS.contains(&k))
            || (has_label(Expect::Stage) && STAGE_KEYWORDS.contains(&k))
    };
    let ends_query = expects(Token::Semicolon) || cx.expected & (1u128 << EOI_BIT) != 0;
    let prev = cx.prev.map(|(t, _)| t);
    // `==`, `=>`, `=<`: the second character is the unexpected token, right after `=`.
    if let (Some((Token::Eq, eq)), Some(op)) = (cx.prev, cx.found) {
        let fix = match op {
            Token::Eq => Some("="),
            Token::Gt => Some(">="),
            Token::Lt => Some("<="),
            _ => None,
        };
        if let Some(fix) = fix.filter(|_| eq.end == d.span.start) {
            let written = &source[eq.start as usize..d.span.end as usize];
            let mut d = d.with_suggestion(format!("Did you mean `{fix}`?")).with_replacement(fix);
            d.message = format!("`{written}` is not an operator.");
            d.span = eq.cover(d.span);
            return d;
        }
    }
    match cx.found {
        Some(_) if has_label(Expect::HistoryCondition) => d
            .with_suggestion("HISTORY by triple names the subject and the relation, and nothing else.")
            .with_example("HISTORY WHERE subject = \"alice\" AND relation = \"prefers\""),
        Some(Token::Kw(Keyword::Or)) => d
            .with_suggestion("CAL combines conditions with AND only; use UNION of two RECALLs for alternatives, or `field IN (a, b)`.")
            .with_example("(RECALL WHERE subject = \"alice\") UNION (RECALL WHERE subject = \"bob\")"),
        Some(Token::Kw(Keyword::Not)) => d.with_suggestion("CAL has no NOT; use `!=`, `tags EXCLUDE [...]`, or EXCEPT."),
        Some(Token::Kw(Keyword::Null)) => {
            d.with_suggestion("CAL has no NULL tests: a missing field simply does not match (§5.4).")
        }
        Some(Token::Kw(Keyword::Union | Keyword::Intersect | Keyword::Except)) => d
            .with_suggestion("The operands of a set operation are statements in parentheses.")
            .with_example("(RECALL beliefs ABOUT \"alice\") UNION (RECALL goals ABOUT \"alice\")"),
        Some(Token::Kw(k)) if STATEMENT_KEYWORDS.contains(&k) && ends_query => {
            if expects(Token::Semicolon) && cx.expected & (1u128 << EOI_BIT) == 0 {
                d.with_suggestion("A LET binding ends with `;`.")
                    .with_replacement(format!("; {}", cx.text))
            } else {
                d.with_suggestion("Separate queries in a document with `;`.")
                    .with_replacement(format!("; {}", cx.text))
            }
        }
        Some(Token::Ident(word)) if has_label(Expect::Clause) && GrainType::from_plural(word).is_some() => d
            .with_suggestion("The grain type comes right after RECALL (or RECALL MY), before the clauses."),
        Some(Token::Ident(word)) => {
            let candidates = Keyword::ALL.iter().filter(|k| expects_kw(**k)).map(|k| k.as_str());
            match suggest::did_you_mean(&word.to_ascii_uppercase(), candidates) {
                Some(kw) => d.with_suggestion(format!("Did you mean `{kw}`?")).with_replacement(kw),
                None if cx.expected == 1u128 << token_bit(&Token::Colon) && cx.labels == 0 => d
                    .with_suggestion("A label is followed by `:`, as in `prefs: RECALL beliefs`."),
                None => d,
            }
        }
        Some(Token::Comma) if expects(Token::Kw(Keyword::And)) => d
            .with_suggestion("Combine conditions with AND.")
            .with_replacement("AND"),
        Some(Token::Comma) if expects(Token::Gt) => d
            .with_suggestion("PRIORITY lists labels separated by `>`, highest priority first.")
            .with_replacement(" >"),
        Some(Token::Comma) if matches!(prev, Some(Token::Ident(w)) if GrainType::from_plural(w).is_some()) => d
            .with_suggestion("A RECALL reads one grain type; combine several with UNION.")
            .with_example("(RECALL beliefs ABOUT \"alice\") UNION (RECALL goals ABOUT \"alice\")"),
        Some(_) if prev == Some(Token::Kw(Keyword::In)) && expects(Token::LParen) => d
            .with_suggestion("IN takes a list in parentheses, as in `subject IN (\"alice\", \"bob\")`.")
            .with_replacement(format!("({})", cx.text)),
        Some(Token::Kw(Keyword::And)) if has_label(Expect::Clause) => d
            .with_suggestion("AND joins two conditions of a WHERE clause: write a condition after it, or remove it."),
        Some(Token::RParen) if prev == Some(Token::LParen) && has_label(Expect::Value) => {
            d.with_suggestion("The list is empty: IN needs at least one value.")
        }
        Some(Token::Kw(k)) if cx.expected == 1u128 << token_bit(&Token::Kw(Keyword::Recall)) && cx.labels == 0 => d
            .with_suggestion(format!("Only a RECALL can stand here, not {}: COALESCE branches and LET bindings are RECALLs.", k.as_str())),
        Some(Token::Eq) if expects_kw(Keyword::Is) => {
            d.with_suggestion("Use `=` with a value, or `IS` with a relation category such as PREFERENCE.")
        }
        Some(_) if cx.expected == 1u128 << token_bit(&Token::Colon) && cx.labels == 0 => d
            .with_suggestion("A label is followed by `:`, as in `prefs: RECALL beliefs`."),
        _ => d,
    }
}
