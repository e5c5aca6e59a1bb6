//! The parser's cursor over the token slice: lookahead, expected-token
//! bookkeeping for error messages, error reporting and recovery.
//!
//! Every check of the next token (`at`, `eat`) records what was expected at
//! the current position, so that when the parser gives up there, the error
//! can say everything that would have been accepted — the same information
//! a combinator library collects, at the cost of an OR into a bitset. As in a
//! combinator library, the furthest position wins: where the parser tries a
//! list item and rewinds (`SELECT a, | …`), what that item lacked is kept, and
//! an error reported behind it names it instead. Nothing is reported at or
//! before a position already reported, so one mistake yields one message.
//!
//! That bookkeeping is only needed when there is an error to report, and most
//! queries have none. So a query is first parsed *untracked*: nothing is
//! recorded, and the first error abandons the attempt (the cursor jumps to the
//! end of the input, where every production stops). Only a query whose
//! untracked parse met an error or a diagnostic is parsed again, tracked, and
//! that second parse alone decides what is reported. Control flow never reads
//! the bookkeeping, so the tree of an error-free query is the same either way.

use super::expected::{Expect, Expected, Found, token_bit};
use cal_grammar::{Diagnostic, Keyword, Span};
use cal_lexer::Token;

/// Whether a token's identity includes its text (names, literals), so that two
/// tokens of the same kind may still differ.
#[inline]
fn carries_text(t: &Token<'_>) -> bool {
    matches!(
        t,
        Token::Excluded(_)
            | Token::Ident(_)
            | Token::Str(_)
            | Token::Number(_)
            | Token::Hash(_)
            | Token::Param(_)
            | Token::TemplateText(_)
    )
}

/// An error has been reported; unwind to the nearest recovery point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bail;

/// Result of a parsing function.
pub(crate) type PResult<T> = Result<T, Bail>;

/// How deep statements and subqueries may nest before the parser refuses:
/// far beyond the spec's limit of 3 (which the checker enforces), low enough
/// that adversarial input cannot exhaust the stack.
pub(crate) const MAX_NESTING: u32 = 48;

pub(crate) struct Cursor<'s, 't> {
    pub src: &'s str,
    toks: &'t [(Token<'s>, Span)],
    pub pos: usize,
    /// End offset of the last consumed token.
    pub last_end: u32,
    pub diags: Vec<Diagnostic>,
    expected: Expected,
    /// Token index of the furthest syntax error reported, so one mistake yields one message.
    last_error_at: Option<usize>,
    pub depth: u32,
    /// Whether expectations are recorded and errors reported (see the module docs).
    track: bool,
    /// An untracked parse met an error and was abandoned.
    failed: bool,
    /// Every string token's text is its value ([`cal_lexer::Lexed::plain`]).
    pub plain: bool,
    /// Where this parse's own diagnostics start in `diags` (the lexer's come first).
    own_from: usize,
    /// Diagnostics not kept because [`crate::MAX_DIAGNOSTICS`] were already (lexer's included).
    dropped: usize,
    /// How many of those the lexer's were.
    dropped_from: usize,
    /// Where the first one not kept was.
    first_dropped: Option<Span>,
    /// How many diagnostics this cursor keeps ([`crate::MAX_DIAGNOSTICS`], or what is left of
    /// a document's budget after its earlier stretches).
    limit: usize,
}

impl<'s, 't> Cursor<'s, 't> {
    /// A cursor at the first token; `track` records expectations for error
    /// messages; `plain` is the lexer's word that string tokens need no unescaping;
    /// `diags` holds the lexer's diagnostics, which this parse's follow.
    pub fn new(src: &'s str, toks: &'t [(Token<'s>, Span)], track: bool, plain: bool, diags: Vec<Diagnostic>) -> Self {
        Cursor {
            src,
            toks,
            pos: 0,
            last_end: 0,
            own_from: diags.len(),
            diags,
            expected: Expected::at(0),
            last_error_at: None,
            depth: 0,
            track,
            failed: false,
            plain,
            dropped: 0,
            dropped_from: 0,
            first_dropped: None,
            limit: crate::MAX_DIAGNOSTICS,
        }
    }

    /// Keeps at most `limit` diagnostics (the lexer's included); the rest are counted.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// True when no further diagnostic would be kept: a caller that would build one only to
    /// report it calls [`Cursor::count_dropped`] instead (10 MB of `;` is ten million).
    #[inline]
    pub fn is_full(&self) -> bool {
        self.diags.len() >= self.limit
    }

    /// Counts a diagnostic at `span` that is not kept, the cap being reached ([`Cursor::is_full`]).
    pub fn count_dropped(&mut self, span: Span) {
        self.dropped += 1;
        self.first_dropped.get_or_insert(span);
    }

    /// The diagnostics kept, how many were not (the lexer's included) and where the first
    /// of this parse's own was: for a document read a stretch at a time, whose summary
    /// is made once at its end.
    pub fn into_counted(self) -> (Vec<Diagnostic>, usize, Option<Span>) {
        (self.diags, self.dropped, self.first_dropped)
    }

    /// The lexer dropped `n` diagnostics past the cap already: they are counted in the summary.
    pub fn with_dropped(mut self, n: usize) -> Self {
        self.dropped = n;
        self.dropped_from = n;
        self
    }

    /// The diagnostics, with one summary at the end for those not kept past the cap.
    pub fn finish_diagnostics(mut self) -> Vec<Diagnostic> {
        if self.dropped > 0
            && let Some(last) = self.diags.last()
        {
            let code = last.code;
            let span = self.first_dropped.unwrap_or(last.span);
            self.diags.push(crate::summary(code, span, self.dropped));
        }
        self.diags
    }

    /// True when this untracked parse met an error or a diagnostic, so that
    /// the query must be parsed again with tracking to report it.
    pub fn needs_tracked_parse(&self) -> bool {
        !self.track && (self.failed || self.diags.len() > self.own_from || self.dropped > self.dropped_from)
    }

    /// The diagnostics the cursor started with, without this parse's own: for a parse
    /// that is done again.
    pub fn into_given_diagnostics(self) -> Vec<Diagnostic> {
        let mut diags = self.diags;
        diags.truncate(self.own_from);
        diags
    }

    /// The next token, if any.
    #[inline]
    pub fn peek(&self) -> Option<Token<'s>> {
        self.toks.get(self.pos).map(|(t, _)| *t)
    }

    /// The token after the next one.
    #[inline]
    pub fn peek2(&self) -> Option<Token<'s>> {
        self.toks.get(self.pos + 1).map(|(t, _)| *t)
    }

    /// The token `n` positions ahead (0 is the next one).
    #[inline]
    pub fn peek_at(&self, n: usize) -> Option<Token<'s>> {
        self.toks.get(self.pos + n).map(|(t, _)| *t)
    }

    /// The span of the token at index `i`, if any.
    #[inline]
    pub fn span_of(&self, i: usize) -> Option<Span> {
        self.toks.get(i).map(|(_, s)| *s)
    }

    /// The text of the source at `span`.
    #[inline]
    pub fn text(&self, span: Span) -> &'s str {
        &self.src[span.range()]
    }

    /// The token at index `i`, if any.
    #[inline]
    pub fn token_at(&self, i: usize) -> Option<Token<'s>> {
        self.toks.get(i).map(|(t, _)| *t)
    }

    /// The span of the next token, or an empty span at the end of the text.
    #[inline]
    pub fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some((_, s)) => *s,
            None => Span::empty(self.src.len()),
        }
    }

    /// Start offset of the next token (for node spans).
    #[inline]
    pub fn start(&self) -> u32 {
        self.span().start
    }

    /// The span from `start` to the end of the last consumed token.
    #[inline]
    pub fn since(&self, start: u32) -> Span {
        Span { start, end: self.last_end.max(start) }
    }

    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Makes the expected-set the one of the current position, unless it already
    /// holds a further one: after a rewind, the furthest failure is the one to report
    /// (the position a combinator parser would name).
    #[inline(always)]
    fn expected_here(&mut self) -> bool {
        if self.expected.pos < self.pos {
            self.expected = Expected::at(self.pos);
        }
        self.expected.pos == self.pos
    }

    #[inline(always)]
    fn note(&mut self, bit: u8) {
        if self.track && self.expected_here() {
            self.expected.tokens |= 1u128 << bit;
        }
    }

    /// Records that a named thing ("a field name") would be accepted here.
    #[inline]
    pub fn expect_label(&mut self, label: Expect) {
        if self.track && self.expected_here() {
            self.expected.labels |= 1 << (label as u8);
        }
    }

    /// Records that `label` would be accepted `offset` tokens ahead: what a list that
    /// stops before a `,` would have taken after it, to be reported if nothing else takes the `,`.
    pub fn expect_after(&mut self, offset: usize, label: Expect) {
        let pos = self.pos;
        self.pos += offset;
        self.expect_label(label);
        self.pos = pos;
    }

    /// As [`Cursor::expect_after`], for a token.
    pub fn expect_token_after(&mut self, offset: usize, t: Token<'static>) {
        let pos = self.pos;
        self.pos += offset;
        self.note(token_bit(&t));
        self.pos = pos;
    }

    /// Replaces what was recorded at the current position by `label` ("expected a
    /// condition" rather than "expected a field name").
    #[inline]
    pub fn relabel(&mut self, label: Expect) {
        if self.track && self.expected_here() {
            self.expected = Expected::label_at(self.pos, label);
        }
    }

    /// Records that the end of the query would be accepted here.
    #[inline]
    pub fn expect_label_bit(&mut self, bit: u8) {
        self.note(bit);
    }

    /// Is the next token `t`? Records the expectation.
    #[inline(always)]
    pub fn at(&mut self, t: Token<'static>) -> bool {
        let bit = token_bit(&t);
        self.note(bit);
        match self.peek() {
            // Keywords and punctuation carry no text, so their bit says everything; only
            // text-carrying tokens (never passed here in practice) need the full comparison.
            Some(p) if carries_text(&t) => p == t,
            Some(p) => token_bit(&p) == bit,
            None => false,
        }
    }

    /// Is the next token keyword `k`? Records the expectation.
    #[inline]
    pub fn at_kw(&mut self, k: Keyword) -> bool {
        self.at(Token::Kw(k))
    }

    /// Is the next token the identifier `w`? (No expectation recorded: callers label.)
    #[inline]
    pub fn at_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Token::Ident(s)) if s == w)
    }

    /// Consumes the next token unconditionally.
    #[inline]
    pub fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos < self.toks.len() {
            self.pos += 1;
            self.last_end = span.end;
        }
        span
    }

    /// Consumes `t` if it is next.
    #[inline(always)]
    pub fn eat(&mut self, t: Token<'static>) -> Option<Span> {
        if self.at(t) { Some(self.bump()) } else { None }
    }

    /// Consumes keyword `k` if it is next.
    #[inline]
    pub fn eat_kw(&mut self, k: Keyword) -> Option<Span> {
        self.eat(Token::Kw(k))
    }

    /// Consumes the identifier `w` if it is next.
    #[inline]
    pub fn eat_word(&mut self, w: &str) -> Option<Span> {
        if self.at_word(w) { Some(self.bump()) } else { None }
    }

    /// Consumes `t` or reports what was expected here.
    #[inline]
    pub fn expect(&mut self, t: Token<'static>) -> PResult<Span> {
        match self.eat(t) {
            Some(s) => Ok(s),
            None => Err(self.error()),
        }
    }

    /// Consumes keyword `k` or reports.
    pub fn expect_kw(&mut self, k: Keyword) -> PResult<Span> {
        self.expect(Token::Kw(k))
    }

    /// Reports an unexpected token at the furthest position anything was expected
    /// (once per position) and bails.
    #[cold]
    pub fn error(&mut self) -> Bail {
        if !self.track {
            self.abandon();
            return Bail;
        }
        self.expected_here();
        let exp = self.expected;
        self.expected = Expected::at(0);
        self.report_unexpected(exp);
        Bail
    }

    /// Reports "unexpected `X`; expected `label`" at the current position, whatever
    /// else was recorded there: a stretch of text that is skipped.
    pub fn error_skipping(&mut self, label: Expect) {
        if !self.track {
            self.abandon();
            return;
        }
        self.report_unexpected(Expected::label_at(self.pos, label));
    }

    /// Ends an untracked parse at its first error: the cursor moves to the end of
    /// the input, where every production stops, and stays there.
    #[cold]
    fn abandon(&mut self) {
        self.failed = true;
        self.pos = self.toks.len();
    }

    fn report_unexpected(&mut self, exp: Expected) {
        let at = exp.pos;
        // One mistake, one message: nothing is reported at or before a position already
        // reported (after a rewind, the furthest failure is the one that counts).
        if self.last_error_at.is_some_and(|last| at <= last) {
            return;
        }
        self.last_error_at = Some(at);
        let found = Found {
            token: self.toks.get(at).map(|(t, _)| *t),
            span: match self.toks.get(at) {
                Some((_, s)) => *s,
                None => Span::empty(self.src.len()),
            },
            prev: at.checked_sub(1).and_then(|i| self.toks.get(i)).copied(),
            ends_in_error: matches!(self.toks.last(), Some((Token::Error, _))),
        };
        if let Some(d) = super::expected::unexpected(self.src, found, exp) {
            self.report(d);
        }
    }

    /// True when a syntax error has been reported at the next token.
    #[inline]
    pub fn reported_here(&self) -> bool {
        self.last_error_at == Some(self.pos)
    }

    /// Reports an unexpected token with a specific label ("expected a field name").
    pub fn error_expecting(&mut self, label: Expect) -> Bail {
        self.expect_label(label);
        self.error()
    }

    /// Records a diagnostic that does not interrupt parsing.
    pub fn report(&mut self, d: Diagnostic) {
        // Memory and time stay proportional to what is shown (issue 19: 2 MB of `;` made
        // millions of diagnostics); the rest are counted.
        if self.diags.len() >= self.limit {
            self.dropped += 1;
            self.first_dropped.get_or_insert(d.span);
            return;
        }
        self.diags.push(d);
    }

    /// Skips tokens until `stop` holds for a token at bracket depth zero (or the end).
    /// Returns whether anything was skipped.
    pub fn skip_until(&mut self, stop: impl Fn(&Token<'s>) -> bool) -> bool {
        let mut depth = 0i32;
        let start = self.pos;
        while let Some(t) = self.peek() {
            if depth == 0 && stop(&t) {
                break;
            }
            match t {
                Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
        self.pos > start
    }

    /// The current position, to come back to with [`Cursor::reset`].
    #[inline]
    pub fn mark(&self) -> (usize, u32) {
        (self.pos, self.last_end)
    }

    /// Goes back to a position taken with [`Cursor::mark`] (what was expected further on is kept).
    #[inline]
    pub fn reset(&mut self, mark: (usize, u32)) {
        if self.failed {
            return;
        }
        (self.pos, self.last_end) = mark;
    }

    /// Moves forward to token index `to`, as if the tokens before it were consumed.
    pub fn skip_to(&mut self, to: usize) {
        if to > self.pos {
            self.pos = to.min(self.toks.len());
            self.last_end = self.toks[self.pos - 1].1.end;
        }
    }

    /// The token index just after the bracket that closes the one at `open`, when the
    /// brackets in between are balanced and properly nested.
    pub fn matching_close(&self, open: usize) -> Option<usize> {
        let mut stack: Vec<Token<'s>> = Vec::new();
        for (i, (t, _)) in self.toks.iter().enumerate().skip(open) {
            match t {
                Token::LParen => stack.push(Token::RParen),
                Token::LBracket => stack.push(Token::RBracket),
                Token::LBrace => stack.push(Token::RBrace),
                Token::RParen | Token::RBracket | Token::RBrace => {
                    if stack.pop() != Some(*t) {
                        return None;
                    }
                    if stack.is_empty() {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
            if stack.is_empty() {
                return None;
            }
        }
        None
    }

    /// Skips a stretch of text that is not what was expected, up to a token for which
    /// `stop` holds (or the end): bracketed groups are skipped whole when they are
    /// balanced, so a `,` or `)` inside them does not end the stretch. `stop` also sees
    /// the token before the one it is asked about.
    pub fn skip_stretch(&mut self, stop: impl Fn(&Token<'s>, Option<Token<'s>>) -> bool) {
        while let Some(t) = self.peek() {
            let before = self.pos.checked_sub(1).and_then(|i| self.token_at(i));
            if stop(&t, before) {
                break;
            }
            match self.matching_close(self.pos) {
                Some(end) => self.skip_to(end),
                None => {
                    self.bump();
                }
            }
        }
    }

    /// Enters a nested statement or subquery; refuses beyond [`MAX_NESTING`].
    #[inline]
    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// CAL-E007, leaving the level that was refused.
    #[cold]
    fn too_deep(&mut self) -> Bail {
        let span = self.span();
        self.report(
            Diagnostic::new(
                cal_grammar::Code::E007,
                span,
                format!("Statements and subqueries are nested more than {MAX_NESTING} deep."),
            )
            .with_suggestion("Flatten the query: CAL allows 3 levels of subquery nesting (§17.3)."),
        );
        self.depth -= 1;
        Bail
    }

    /// Leaves a nesting level entered with [`Cursor::enter`].
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
