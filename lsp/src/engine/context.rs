//! Where is the cursor, grammatically? Completion and signature help need to
//! know this even in a query that does not parse yet, so this works on the
//! tokens before the cursor (the lexer never fails) rather than on the tree.
//!
//! The current statement is the run of tokens after the last `;`: a LET
//! binding's `;` ends the binding and what follows starts a statement, so the
//! rule holds for LET blocks too.

use cal_grammar::{GrainType, Keyword, Span, WithOptionName};
use cal_lexer::{Token, lex};

/// A token with its span (owned strings, so a context outlives the lexer's borrow).
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    /// The token kind and its text.
    pub kind: Kind,
    /// Where.
    pub span: Span,
}

/// The token kinds context analysis distinguishes.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A keyword.
    Kw(Keyword),
    /// An identifier (field names, grain types, option names, labels, …).
    Ident(String),
    /// A string literal's value (raw, without quotes).
    Str(String),
    /// `$name` without the `$`.
    Param(String),
    /// Any other token: punctuation by its text, literals as their kind name.
    Other(String),
}

impl Tok {
    /// True for the punctuation or operator `p`.
    pub fn is(&self, p: &str) -> bool {
        matches!(&self.kind, Kind::Other(s) if s == p)
    }

    /// True for the keyword `k`.
    pub fn is_kw(&self, k: Keyword) -> bool {
        self.kind == Kind::Kw(k)
    }

    /// The identifier text, if an identifier.
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            Kind::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// Lexes `text` into context tokens (template text and comments dropped).
pub fn tokens(text: &str) -> Vec<Tok> {
    lex(text).tokens.into_iter().map(|(t, span)| Tok { kind: kind_of(&t, text, span), span }).collect()
}

/// The [`tokens`] of the stretch of the document around `offset`
/// (`cal_parser::stream::DocumentReader::stretch_around`: whole queries, the whole text of
/// any document under 16,384 tokens), with their offsets in `text`: what a request at
/// `offset` reads, so that it does not lex ten million tokens of a huge document.
pub fn tokens_near(text: &str, offset: usize) -> Vec<Tok> {
    let range = cal_parser::stream::DocumentReader::stretch_around(text, offset);
    let (lexed, _) = cal_lexer::lex_window(&text[..range.end], range.start, usize::MAX, Vec::new());
    lexed.tokens.into_iter().map(|(t, span)| Tok { kind: kind_of(&t, text, span), span }).collect()
}

/// [`tokens`] one at a time, until `keep` returns false, holding a few thousand lexer
/// tokens at most: how a request on a huge document stays bounded (issue 19).
pub fn tokens_while(text: &str, mut keep: impl FnMut(Tok) -> bool) {
    let (mut from, mut buffer) = (0usize, Vec::new());
    while from < text.len() {
        let (lexed, end) = cal_lexer::lex_tokens(text, from, 4096, buffer);
        for (t, span) in &lexed.tokens {
            if !keep(Tok { kind: kind_of(t, text, *span), span: *span }) {
                return;
            }
        }
        buffer = cal_lexer::recycle(lexed.tokens);
        from = end;
    }
}

fn kind_of(t: &Token<'_>, text: &str, span: Span) -> Kind {
    match t {
        Token::Kw(k) => Kind::Kw(*k),
        Token::Ident(s) => Kind::Ident((*s).to_string()),
        Token::Str(s) => Kind::Str((*s).to_string()),
        Token::Param(p) => Kind::Param((*p).to_string()),
        Token::Number(_) => Kind::Other("number".into()),
        Token::Hash(_) => Kind::Other("hash".into()),
        Token::TemplateText(_) => Kind::Other("template".into()),
        Token::Excluded(e) => Kind::Other(e.as_str().into()),
        Token::Error => Kind::Other("error".into()),
        _ => Kind::Other(text.get(span.range()).unwrap_or("").to_string()),
    }
}

/// The grammatical place of the cursor, as completion needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// Where a statement (or LET, DEFINE) starts.
    StatementStart,
    /// After `(` that opens a subquery or source: RECALL.
    Subquery,
    /// After RECALL [MY].
    GrainPlural,
    /// After ADD.
    GrainAddable,
    /// After DESCRIBE.
    DescribeTarget,
    /// After `DESCRIBE fields`.
    GrainSingular,
    /// A field name in WHERE, ORDER BY, SELECT, GROUP BY, dedup(…), content(…).
    Field(Option<GrainType>),
    /// A field after SET in ADD / SUPERSEDE.
    SetField(Option<GrainType>),
    /// An operator after a field in WHERE.
    Operator(Option<GrainType>, String),
    /// A value after `field <op>`; `in_string` when the cursor is inside the quotes.
    Value {
        /// The field compared.
        field: String,
        /// True inside a string literal.
        in_string: bool,
    },
    /// After `relation IS`.
    Category,
    /// After `|`.
    Stage,
    /// After WITH or a `,` of the WITH list.
    WithOption,
    /// Inside `diversity(`.
    Diversity,
    /// Inside `consistency(`.
    Consistency,
    /// Inside `progressive_disclosure(`.
    Disclosure,
    /// After AS or FORMAT.
    Format {
        /// After FORMAT, where TEMPLATE is allowed too.
        template: bool,
    },
    /// After ORDER BY field.
    SortDirection,
    /// After BUDGET n.
    BudgetUnit,
    /// Inside `STREAM {`.
    StreamEvent,
    /// After PRIORITY or `>` in it.
    PriorityLabel,
    /// A `$name`.
    LetName,
    /// Inside `{{ }}` of a template.
    TemplateVariable,
    /// Inside template text or a string where nothing can be proposed.
    Nothing,
    /// Anywhere else: keywords.
    Keyword,
}

/// The cursor's place plus what the completion replaces and everything the items need.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// Where the cursor is.
    pub place: Place,
    /// The partial word before the cursor that an item replaces.
    pub replace: Span,
    /// The tokens of the current statement before the cursor.
    pub statement: Vec<Tok>,
    /// The tokens of the document around the cursor (all of them, unless it is huge: [`tokens_near`]).
    pub all: Vec<Tok>,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Finds the place of `offset` in `text`.
pub fn at(text: &str, offset: usize) -> Context {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let all = tokens_near(text, offset);
    let bytes = text.as_bytes();
    // Inside a token that is not a word we could be completing (a string, template text)?
    let inside = all.iter().find(|t| (t.span.start as usize) < offset && offset < t.span.end as usize);
    let mut word_start = offset;
    let allow_colon_dot = inside.is_some_and(|t| matches!(t.kind, Kind::Str(_)) || t.is("template"));
    while word_start > 0 {
        let b = bytes[word_start - 1];
        if is_word_byte(b) || (allow_colon_dot && (b == b':' || b == b'.')) {
            word_start -= 1;
        } else {
            break;
        }
    }
    let dollar = word_start > 0 && bytes[word_start - 1] == b'$';
    let replace = Span::new(if dollar { word_start - 1 } else { word_start }, offset);

    // Template text: only `{{ … }}` offers anything.
    if let Some(t) = inside.filter(|t| t.is("template")) {
        let before = &text[t.span.start as usize..offset];
        let open = before.rfind("{{");
        let place = match open {
            Some(o) if before[o..].find("}}").is_none() => Place::TemplateVariable,
            _ => Place::Nothing,
        };
        return Context { place, replace: Span::new(word_start, offset), statement: Vec::new(), all };
    }
    // A string literal, closed or still open.
    let mut in_string = inside.filter(|t| matches!(t.kind, Kind::Str(_)) || t.is("error")).map(|t| t.span.start);
    let boundary = in_string.map_or(word_start, |s| s as usize);
    let before: Vec<&Tok> = all.iter().filter(|t| (t.span.end as usize) <= boundary).collect();
    if in_string.is_none() {
        let gap_start = before.last().map_or(0, |t| t.span.end as usize);
        if let Some(q) = text[gap_start..boundary].find('"') {
            in_string = Some((gap_start + q) as u32);
        }
    }
    let seg_start = before.iter().rposition(|t| t.is(";")).map_or(0, |i| i + 1);
    let statement: Vec<Tok> = before[seg_start..].iter().map(|t| (*t).clone()).collect();
    let place = if dollar && in_string.is_none() { Place::LetName } else { place_of(&statement, in_string.is_some()) };
    Context { place, replace, statement, all }
}

fn place_of(seg: &[Tok], in_string: bool) -> Place {
    let n = seg.len();
    let Some(p) = seg.last() else { return Place::StatementStart };
    let pp = n.checked_sub(2).map(|i| &seg[i]);
    let ppp = n.checked_sub(3).map(|i| &seg[i]);
    let grain = || recall_grain(seg);
    if in_string {
        return match (pp, p) {
            (Some(f), op) if is_comparator(op) => match f.ident() {
                Some(field) => Place::Value { field: field.to_string(), in_string: true },
                None => Place::Nothing,
            },
            _ => Place::Nothing,
        };
    }
    if p.is("(") {
        return match pp.map(|t| &t.kind) {
            Some(Kind::Ident(f)) => match WithOptionName::from_word(f) {
                Some(WithOptionName::Diversity) => Place::Diversity,
                Some(WithOptionName::Consistency) => Place::Consistency,
                Some(WithOptionName::ProgressiveDisclosure) => Place::Disclosure,
                Some(WithOptionName::Dedup) => Place::Field(grain()),
                // PROJECT's `content(…)` and `attr(…)` list fields too.
                _ if f == "content" || f == "attr" => Place::Field(grain()),
                _ => Place::Subquery,
            },
            Some(Kind::Kw(Keyword::In)) => Place::Subquery,
            _ => Place::Subquery,
        };
    }
    if p.is(",") {
        return match nearest_clause(seg) {
            Some(Keyword::With) => Place::WithOption,
            Some(Keyword::Select) => Place::Field(grain()),
            Some(Keyword::Stream) => Place::StreamEvent,
            Some(Keyword::From) => Place::Keyword,
            _ => Place::Keyword,
        };
    }
    if p.is("|") {
        return Place::Stage;
    }
    if p.is("{") && pp.is_some_and(|t| t.is_kw(Keyword::Stream)) {
        return Place::StreamEvent;
    }
    if p.is(">") && nearest_clause(seg) == Some(Keyword::Priority) {
        return Place::PriorityLabel;
    }
    if is_comparator(p) {
        if let Some(f) = pp.and_then(Tok::ident) {
            return Place::Value { field: f.to_string(), in_string: false };
        }
        return Place::Keyword;
    }
    if let Kind::Kw(k) = &p.kind {
        return match k {
            Keyword::Explain => Place::StatementStart,
            Keyword::Recall => Place::GrainPlural,
            Keyword::My if pp.is_some_and(|t| t.is_kw(Keyword::Recall)) => Place::GrainPlural,
            Keyword::Add => Place::GrainAddable,
            Keyword::Describe => Place::DescribeTarget,
            Keyword::Where => Place::Field(grain()),
            Keyword::And if ppp.is_some_and(|t| t.is_kw(Keyword::Between)) => Place::Keyword,
            Keyword::And | Keyword::Not => Place::Field(grain()),
            Keyword::Set => Place::SetField(add_grain(seg)),
            Keyword::Is if pp.and_then(Tok::ident) == Some("relation") => Place::Category,
            Keyword::By | Keyword::Select => Place::Field(grain()),
            Keyword::With => Place::WithOption,
            Keyword::As => Place::Format { template: false },
            Keyword::Format => Place::Format { template: true },
            Keyword::Priority => Place::PriorityLabel,
            Keyword::Union | Keyword::Intersect | Keyword::Except | Keyword::Coalesce => Place::Subquery,
            _ => Place::Keyword,
        };
    }
    if let Some(word) = p.ident() {
        if pp.is_some_and(|t| t.is_kw(Keyword::Where) || t.is_kw(Keyword::And) || t.is_kw(Keyword::Not)) {
            return Place::Operator(grain(), word.to_string());
        }
        if word == "fields" && pp.is_some_and(|t| t.is_kw(Keyword::Describe)) {
            return Place::GrainSingular;
        }
        if pp.is_some_and(|t| t.is_kw(Keyword::By)) && ppp.is_some_and(|t| t.is_kw(Keyword::Order)) {
            return Place::SortDirection;
        }
    }
    if p.is("number") && pp.is_some_and(|t| t.is_kw(Keyword::Budget)) {
        return Place::BudgetUnit;
    }
    Place::Keyword
}

fn is_comparator(t: &Tok) -> bool {
    ["=", "!=", ">=", "<=", ">", "<"].iter().any(|c| t.is(c))
}

/// Walks back from the end at paren depth 0 (skipping closed groups) and returns the
/// position of the first token `pred` accepts.
fn scan_back(seg: &[Tok], mut pred: impl FnMut(&Tok) -> bool) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in seg.iter().enumerate().rev() {
        if t.is(")") {
            depth += 1;
        } else if t.is("(") {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && pred(t) {
            return Some(i);
        }
    }
    None
}

/// The clause keyword that governs the end of the statement (for `,` and `>`).
fn nearest_clause(seg: &[Tok]) -> Option<Keyword> {
    use Keyword as K;
    let clauses = [K::With, K::Select, K::Stream, K::From, K::Priority, K::Where, K::Budget, K::Format, K::As, K::By];
    let i = scan_back(seg, |t| matches!(&t.kind, Kind::Kw(k) if clauses.contains(k)))?;
    match &seg[i].kind {
        Kind::Kw(k) => Some(*k),
        _ => None,
    }
}

/// The grain type of the RECALL the cursor is in (nearest at the same nesting level).
pub fn recall_grain(seg: &[Tok]) -> Option<GrainType> {
    let i = scan_back(seg, |t| t.is_kw(Keyword::Recall))?;
    let mut j = i + 1;
    if seg.get(j).is_some_and(|t| t.is_kw(Keyword::My)) {
        j += 1;
    }
    seg.get(j).and_then(Tok::ident).and_then(GrainType::from_plural)
}

/// The grain type of the ADD the cursor is in.
fn add_grain(seg: &[Tok]) -> Option<GrainType> {
    let i = scan_back(seg, |t| t.is_kw(Keyword::Add))?;
    seg.get(i + 1).and_then(Tok::ident).and_then(GrainType::from_singular)
}

/// The LET names visible in the statement that contains `offset`: the LET bindings
/// written before it in the same query. Returns `(name, span of the $name)` in order.
pub fn visible_lets(all: &[Tok], offset: usize) -> Vec<(String, Span)> {
    let mut lets: Vec<(String, Span)> = Vec::new();
    let mut seg_start = true;
    let mut in_let = false;
    for (i, t) in all.iter().enumerate() {
        if t.span.start as usize >= offset {
            break;
        }
        if t.is(";") {
            if !in_let {
                lets.clear();
            }
            seg_start = true;
            in_let = false;
            continue;
        }
        if seg_start {
            in_let = t.is_kw(Keyword::Let);
            if in_let && let Some(Tok { kind: Kind::Param(name), span }) = all.get(i + 1) {
                lets.push((name.clone(), *span));
            }
        }
        seg_start = false;
    }
    lets
}

/// The source labels of the ASSEMBLE the cursor is in: `label:` before `(` or `$`.
pub fn source_labels(seg: &[Tok]) -> Vec<(String, Span)> {
    let start = seg.iter().rposition(|t| t.is_kw(Keyword::Assemble)).unwrap_or(0);
    let seg = &seg[start..];
    seg.windows(3)
        .filter(|w| w[1].is(":") && (w[2].is("(") || matches!(w[2].kind, Kind::Param(_))))
        .filter_map(|w| w[0].ident().map(|n| (n.to_string(), w[0].span)))
        .collect()
}
