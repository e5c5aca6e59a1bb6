//! What the parser expected where it stopped, and the E002 message built from it.

use cal_grammar::{Code, Diagnostic, GrainType, Keyword, Span, suggest};
use cal_lexer::Token;

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
    /// A clause of RECALL.
    Clause,
    BudgetUnit,
    HistoryCondition,
    /// A clause of ASSEMBLE (its own keywords: a misspelling is matched against them only).
    AssembleClause,
}

impl Expect {
    const ALL: [Expect; 25] = [
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
        Expect::AssembleClause,
    ];

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
            Expect::Hash => "a hash literal (sha256:…) or parameter",
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
            Expect::Clause | Expect::AssembleClause => "a clause",
            Expect::BudgetUnit => "a budget unit (tokens or grains)",
            Expect::HistoryCondition => "`subject = …` or `relation = …`",
        }
    }
}

/// The expectations recorded at one token position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expected {
    pub pos: usize,
    pub tokens: u128,
    pub labels: u32,
}

impl Expected {
    pub fn at(pos: usize) -> Self {
        Expected { pos, tokens: 0, labels: 0 }
    }

    /// Only `label` expected at `pos`: what a skipped stretch of text reports.
    pub fn label_at(pos: usize, label: Expect) -> Self {
        Expected { pos, tokens: 0, labels: 1 << (label as u8) }
    }

    fn has(&self, l: Expect) -> bool {
        self.labels & (1 << (l as u8)) != 0
    }

    fn has_token(&self, t: Token<'_>) -> bool {
        self.tokens & (1u128 << token_bit(&t)) != 0
    }

    fn has_kw(&self, k: Keyword) -> bool {
        self.has_token(Token::Kw(k))
            || (self.has(Expect::Clause) && CLAUSE_KEYWORDS.contains(&k))
            || (self.has(Expect::AssembleClause) && ASSEMBLE_CLAUSE_KEYWORDS.contains(&k))
            || (self.has(Expect::Statement) && STATEMENT_KEYWORDS.contains(&k))
            || (self.has(Expect::Stage) && STAGE_KEYWORDS.contains(&k))
    }
}

const KEYWORDS: u8 = Keyword::ALL.len() as u8;
const EOI_BIT: u8 = 126;

/// Bit index of a token kind in the expected-set: keywords by discriminant, then the rest.
#[inline]
pub(crate) fn token_bit(t: &Token<'_>) -> u8 {
    let k = KEYWORDS;
    match t {
        Token::Kw(kw) => *kw as u8,
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

/// The bit that stands for "end of query".
pub(crate) fn eoi_bit() -> u8 {
    EOI_BIT
}

fn bit_name(bit: u8) -> Option<&'static str> {
    let k = KEYWORDS;
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

/// Keywords that can start a clause of RECALL.
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
];

/// Keywords that can start a clause of ASSEMBLE.
const ASSEMBLE_CLAUSE_KEYWORDS: &[Keyword] =
    &[Keyword::For, Keyword::From, Keyword::Budget, Keyword::Priority, Keyword::Format, Keyword::Stream, Keyword::With];

/// Keywords that start a statement.
pub(crate) const STATEMENT_KEYWORDS: &[Keyword] = &[
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

/// Where the parser stopped: the token it found (if any), the one before it, and the text.
pub(crate) struct Found<'s> {
    pub token: Option<Token<'s>>,
    pub span: Span,
    pub prev: Option<(Token<'s>, Span)>,
    /// The last token of the input is an invalid one (it may have run to the end).
    pub ends_in_error: bool,
}

/// The E002 diagnostic for an unexpected token, or `None` when it is a consequence
/// of a problem the lexer has already reported: the token is invalid or excluded, or
/// the input ended early because an invalid token (an unterminated string or
/// template section) ran to the end of the text.
pub(crate) fn unexpected(src: &str, found: Found<'_>, exp: Expected) -> Option<Diagnostic> {
    if matches!(found.token, Some(Token::Error | Token::Excluded(_))) {
        return None;
    }
    if found.token.is_none() && found.ends_in_error {
        return None;
    }
    let mut exp = exp;
    // `:` is only worth naming when nothing else fits: elsewhere it is the middle of a
    // domain field (`hc:patient_id`) or of a label, which no one forgets to finish.
    let colon = 1u128 << token_bit(&Token::Colon);
    if exp.tokens != colon || exp.labels != 0 {
        exp.tokens &= !colon;
    }
    // Where a statement is expected, the `;` on offer is an empty query: not a suggestion.
    if exp.has(Expect::Statement) {
        exp.tokens &= !(1u128 << token_bit(&Token::Semicolon));
    }
    // Only HISTORY says what its condition must be; RECALL takes any field.
    if exp.has(Expect::HistoryCondition) {
        exp.labels &= !(1 << (Expect::Condition as u8));
    }
    let text = src.get(found.span.range()).unwrap_or("");
    let mut expected: Vec<String> =
        Expect::ALL.iter().filter(|l| exp.has(**l)).map(|l| l.describe().to_string()).collect();
    for bit in 0..128u8 {
        if exp.tokens & (1u128 << bit) != 0
            && let Some(name) = bit_name(bit)
            && !expected.iter().any(|e| e == name)
        {
            expected.push(name.to_string());
        }
    }
    let found_desc = match found.token {
        None => "end of query".to_string(),
        Some(Token::Str(_)) => "string literal".to_string(),
        Some(_) => format!("`{text}`"),
    };
    let message = if expected.is_empty() {
        format!("Unexpected {found_desc}.")
    } else {
        format!("Unexpected {found_desc}; expected {}.", join_or(&expected))
    };
    let d = Diagnostic::new(Code::E002, found.span, message).with_expected(expected);
    Some(add_hint(d, exp, &found, text, src))
}

/// The word that starts `after` once blanks are skipped, with the byte offset of its end
/// in `after`: the next word of a keyword written in two parts.
fn next_word(after: &str) -> Option<(&str, usize)> {
    let start = after.len() - after.trim_start_matches([' ', '\t']).len();
    let len = after[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len() - start);
    (len > 0).then(|| (&after[start..start + len], start + len))
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] if init.len() < 8 => format!("{} or {last}", init.join(", ")),
        _ => format!("{}, …", items[..8].join(", ")),
    }
}

/// Targeted advice for the mistakes people (and LLMs) actually make.
fn add_hint(d: Diagnostic, exp: Expected, found: &Found<'_>, text: &str, src: &str) -> Diagnostic {
    let only = |t: Token<'_>| exp.tokens == 1u128 << token_bit(&t) && exp.labels == 0;
    let ends_query = exp.has_token(Token::Semicolon) || exp.tokens & (1u128 << EOI_BIT) != 0;
    let prev = found.prev.map(|(t, _)| t);
    // `==`, `=>`, `=<`: the second character is the unexpected token, right after `=`.
    if let (Some((Token::Eq, eq)), Some(op)) = (found.prev, found.token) {
        let fix = match op {
            Token::Eq => Some("="),
            Token::Gt => Some(">="),
            Token::Lt => Some("<="),
            _ => None,
        };
        if let Some(fix) = fix.filter(|_| eq.end == d.span.start) {
            let written = src.get(eq.start as usize..d.span.end as usize).unwrap_or("");
            let mut d = d.with_suggestion(format!("Did you mean `{fix}`?")).with_replacement(fix);
            d.message = format!("`{written}` is not an operator.");
            d.span = eq.cover(d.span);
            return d;
        }
    }
    match found.token {
        // `(RECALL beliefs)` with nothing after it: as a query, or as `label: (…)` in BATCH,
        // written like an ASSEMBLE source.
        Some(Token::Comma | Token::RBrace | Token::Semicolon) | None
            if prev == Some(Token::RParen) && exp.has_kw(Keyword::Union) =>
        {
            d.with_suggestion(
                "Parentheses around a statement are for the operands of UNION, INTERSECT and EXCEPT; a statement \
                 on its own (a query, a BATCH entry) is written without them.",
            )
            .with_example("BATCH { known: RECALL beliefs ABOUT \"alice\", todo: RECALL goals ABOUT \"alice\" }")
        }
        Some(_) if exp.has(Expect::HistoryCondition) => d
            .with_suggestion("HISTORY by triple names the subject and the relation, and nothing else.")
            .with_example("HISTORY WHERE subject = \"alice\" AND relation = \"prefers\""),
        Some(Token::Kw(Keyword::Or)) => d
            .with_suggestion(
                "CAL combines conditions with AND only; use UNION of two RECALLs for alternatives, or `field IN (a, b)`.",
            )
            .with_example("(RECALL WHERE subject = \"alice\") UNION (RECALL WHERE subject = \"bob\")"),
        Some(Token::Kw(Keyword::Not)) => d.with_suggestion("CAL has no NOT; use `!=`, `tags EXCLUDE [...]`, or EXCEPT."),
        Some(Token::Kw(Keyword::Null)) => {
            d.with_suggestion("CAL has no NULL tests: a missing field simply does not match (§5.4).")
        }
        Some(Token::Kw(Keyword::Union | Keyword::Intersect | Keyword::Except)) => d
            .with_suggestion("The operands of a set operation are statements in parentheses.")
            .with_example("(RECALL beliefs ABOUT \"alice\") UNION (RECALL goals ABOUT \"alice\")"),
        Some(Token::Kw(k)) if STATEMENT_KEYWORDS.contains(&k) && ends_query => {
            if exp.has_token(Token::Semicolon) && exp.tokens & (1u128 << EOI_BIT) == 0 {
                d.with_suggestion("A LET binding ends with `;`.").with_replacement(format!("; {text}"))
            } else {
                d.with_suggestion("Separate queries in a document with `;`.").with_replacement(format!("; {text}"))
            }
        }
        // `ORDER confidence`, `GROUP subject`: the BY is missing.
        Some(Token::Ident(_)) if only(Token::Kw(Keyword::By)) && matches!(prev, Some(Token::Kw(Keyword::Order | Keyword::Group))) => {
            let kw = if prev == Some(Token::Kw(Keyword::Order)) { Keyword::Order } else { Keyword::Group };
            d.with_suggestion(format!("{} is always followed by BY: `{} BY {text}`.", kw.as_str(), kw.as_str()))
                .with_replacement(format!("BY {text}"))
        }
        Some(Token::Ident(word)) if exp.has(Expect::Clause) && GrainType::from_plural(word).is_some() => {
            d.with_suggestion("The grain type comes right after RECALL (or RECALL MY), before the clauses.")
        }
        Some(Token::Ident(word)) => {
            let upper = word.to_ascii_uppercase();
            let after = src.get(found.span.end as usize..).unwrap_or("");
            let next = next_word(after);
            // `ORDER` and `GROUP` are only ever followed by `BY`: a misspelling is matched
            // against the whole phrase (`ORDERBY` is `ORDER BY`, not `ORDER`), unless the
            // `BY` is already written (`ORDR BY`).
            let by_follows = next.is_some_and(|(w, _)| w.eq_ignore_ascii_case(Keyword::By.as_str()));
            let phrase = |k: &Keyword| match k {
                Keyword::Order | Keyword::Group if !by_follows => format!("{} {}", k.as_str(), Keyword::By.as_str()),
                _ => k.as_str().to_string(),
            };
            let candidates: Vec<String> = Keyword::ALL.iter().filter(|k| exp.has_kw(**k)).map(phrase).collect();
            // After the clauses come the pipeline's stages: `LIMT 3` is a misspelt `| LIMIT 3`.
            let stages: Vec<String> =
                STAGE_KEYWORDS.iter().filter(|_| exp.has(Expect::Clause)).map(phrase).collect();
            let stage = || suggest::did_you_mean(&upper, stages.iter().map(String::as_str)).map(|kw| format!("| {kw}"));
            // A keyword split in two (`SUPER SEDE`): the word joined with the next one.
            let joined = next.and_then(|(w, end)| {
                let whole = format!("{upper}{}", w.to_ascii_uppercase());
                let hit = candidates.iter().chain(&stages).find(|c| **c == whole)?;
                let hit = if stages.contains(hit) && !candidates.contains(hit) { format!("| {hit}") } else { hit.clone() };
                Some((hit, found.span.end + end as u32))
            });
            if let Some((kw, end)) = joined {
                let mut d = d.with_suggestion(format!("Did you mean `{kw}`? It is one word.")).with_replacement(kw);
                d.span = Span::new(d.span.start as usize, end as usize);
                return d;
            }
            match suggest::did_you_mean(&upper, candidates.iter().map(String::as_str)).map(str::to_string).or_else(stage) {
                Some(kw) => d.with_suggestion(format!("Did you mean `{kw}`?")).with_replacement(kw),
                None if only(Token::Colon) => {
                    d.with_suggestion("A label is followed by `:`, as in `prefs: RECALL beliefs`.")
                }
                None => d,
            }
        }
        Some(Token::Comma) if exp.has_token(Token::Kw(Keyword::And)) => {
            d.with_suggestion("Combine conditions with AND.").with_replacement("AND")
        }
        Some(Token::Comma) if exp.has_token(Token::Gt) => d
            .with_suggestion("PRIORITY lists labels separated by `>`, highest priority first.")
            .with_replacement(" >"),
        Some(Token::Comma) if matches!(prev, Some(Token::Ident(w)) if GrainType::from_plural(w).is_some()) => d
            .with_suggestion("A RECALL reads one grain type; combine several with UNION.")
            .with_example("(RECALL beliefs ABOUT \"alice\") UNION (RECALL goals ABOUT \"alice\")"),
        Some(_) if prev == Some(Token::Kw(Keyword::In)) && exp.has_token(Token::LParen) => d
            .with_suggestion("IN takes a list in parentheses, as in `subject IN (\"alice\", \"bob\")`.")
            .with_replacement(format!("({text})")),
        Some(Token::Kw(Keyword::And)) if exp.has(Expect::Clause) => d.with_suggestion(
            "AND joins two conditions of a WHERE clause: write a condition after it, or remove it.",
        ),
        Some(Token::RParen) if prev == Some(Token::LParen) && exp.has(Expect::Value) => {
            d.with_suggestion("The list is empty: IN needs at least one value.")
        }
        Some(Token::Kw(k)) if only(Token::Kw(Keyword::Recall)) => d.with_suggestion(format!(
            "Only a RECALL can stand here, not {}: COALESCE branches and LET bindings are RECALLs.",
            k.as_str()
        )),
        Some(Token::Eq) if exp.has_kw(Keyword::Is) => {
            d.with_suggestion("Use `=` with a value, or `IS` with a relation category such as PREFERENCE.")
        }
        Some(_) if only(Token::Colon) => d.with_suggestion("A label is followed by `:`, as in `prefs: RECALL beliefs`."),
        _ => d,
    }
}
