//! The parser's cursor over the token slice: lookahead, expected-token
//! bookkeeping for error messages, error reporting and recovery.
//!
//! Every check of the next token (`at`, `eat`) records what was expected at
//! the current position, so that when the parser gives up there, the error
//! can say everything that would have been accepted — the same information
//! a combinator library collects, at the cost of an OR into a bitset.

use super::expected::{Expect, Expected, token_bit};
use cal_grammar::{Diagnostic, Keyword, Span};
use cal_lexer::Token;

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
    /// Token index of the last syntax error, so one mistake yields one message.
    last_error_at: Option<usize>,
    pub depth: u32,
}

impl<'s, 't> Cursor<'s, 't> {
    pub fn new(src: &'s str, toks: &'t [(Token<'s>, Span)]) -> Self {
        Cursor {
            src,
            toks,
            pos: 0,
            last_end: 0,
            diags: Vec::new(),
            expected: Expected::at(0),
            last_error_at: None,
            depth: 0,
        }
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

    #[inline]
    fn note(&mut self, bit: u8) {
        if self.expected.pos != self.pos {
            self.expected = Expected::at(self.pos);
        }
        self.expected.tokens |= 1u128 << bit;
    }

    /// Records that a named thing ("a field name") would be accepted here.
    #[inline]
    pub fn expect_label(&mut self, label: Expect) {
        if self.expected.pos != self.pos {
            self.expected = Expected::at(self.pos);
        }
        self.expected.labels |= 1 << (label as u8);
    }

    /// Records that the end of the query would be accepted here.
    #[inline]
    pub fn expect_label_bit(&mut self, bit: u8) {
        self.note(bit);
    }

    /// Is the next token `t`? Records the expectation.
    #[inline]
    pub fn at(&mut self, t: Token<'static>) -> bool {
        self.note(token_bit(&t));
        self.peek() == Some(t)
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
    #[inline]
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

    /// Reports an unexpected token at the current position (once per position) and bails.
    pub fn error(&mut self) -> Bail {
        if self.last_error_at == Some(self.pos) {
            return Bail;
        }
        self.last_error_at = Some(self.pos);
        let found = self.toks.get(self.pos).copied();
        if self.expected.pos != self.pos {
            self.expected = Expected::at(self.pos);
        }
        if let Some(d) = super::expected::unexpected(self.src, found, self.span(), self.expected) {
            self.diags.push(d);
        }
        Bail
    }

    /// Reports an unexpected token with a specific label ("expected a field name").
    pub fn error_expecting(&mut self, label: Expect) -> Bail {
        self.expect_label(label);
        self.error()
    }

    /// Records a diagnostic that does not interrupt parsing.
    pub fn report(&mut self, d: Diagnostic) {
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

    /// Enters a nested statement or subquery; refuses beyond [`MAX_NESTING`].
    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
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
            return Err(Bail);
        }
        Ok(())
    }

    /// Leaves a nesting level entered with [`Cursor::enter`].
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
