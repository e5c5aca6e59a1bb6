//! The canonical `text/cal` printer: a total function from the AST to text.
//!
//! `parse(print(ast))` is `ast` again (spans aside) for every tree the parser
//! can produce, which makes printing idempotent. The layout is fixed, so the
//! printed form is *the* canonical text of a query:
//!
//! * keywords in upper case; names, labels and literals as stored in the tree;
//! * RECALL clauses in the order of the EBNF (MY, type, IN, ABOUT, LIKE, SINCE,
//!   BETWEEN, THREAD, WHERE, WITH, pipeline, RECENT, CONTRADICTIONS, AS), every
//!   pipeline stage written `| STAGE`;
//! * a statement that fits in [`WIDTH`] columns stays on one line; a longer one
//!   puts each clause on its own line, indented two spaces deeper than the line
//!   the statement starts on. ASSEMBLE, BATCH, COALESCE and DEFINE TEMPLATE are
//!   always laid out that way, and every LET binding starts its own line;
//! * a query whose laid-out text would be longer than a query may be (§17.3,
//!   8,192 bytes) is printed on one line instead ([`one_line`]): the layout must
//!   not turn a query that parses into one that is refused with CAL-E001.
//!
//! The layout decisions live in one small context type (where a node starts,
//! how deep its continuation lines go); each statement family has its own file.

mod assemble;
mod recall;
mod source;
mod statements;
mod stretches;
mod values;

pub use source::{Formatted, Kept, comment_inside, comment_spans, format_source};
pub use stretches::{FORMAT_STRETCH_TOKENS, format_in_stretches};

use crate::ast::{Document, Query, QueryBody, Recall, Statement};
use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_lexer::Token;

/// The column limit: a statement longer than this is broken into one clause per line.
pub const WIDTH: usize = 80;

/// Prints one query in canonical form, without a trailing newline.
pub fn query_to_text(query: &Query) -> String {
    let text = laid_out(query);
    if text.len() > MAX_QUERY_BYTES { one_line(&text) } else { text }
}

/// Prints one query in canonical form on one line (but for line breaks inside string
/// literals and template text): what [`query_to_text`] falls back to at the length
/// limit, and a form for logs and messages that must be one line.
pub fn query_to_one_line(query: &Query) -> String {
    one_line(&laid_out(query))
}

/// The query with the layout rules of the module docs.
fn laid_out(query: &Query) -> String {
    let mut out = String::new();
    let mut col = 0;
    if let Some(v) = &query.version {
        out.push_str(&format!("CAL/{}", v.major));
        if query.lets.is_empty() {
            out.push(' ');
            col = out.len();
        } else {
            out.push('\n');
        }
    }
    for binding in &query.lets {
        let head = format!("LET ${} = ", binding.name.name);
        let cx = Ctx { indent: 0, col: head.len(), tail: 1, flat: false };
        out.push_str(&head);
        out.push_str(&recall::recall(&binding.recall, cx));
        out.push_str(";\n");
    }
    let cx = Ctx { indent: 0, col, tail: 0, flat: false };
    match &query.body {
        QueryBody::Statement(s) => out.push_str(&statements::statement(s, cx)),
        QueryBody::DefineTemplate(d) => out.push_str(&statements::define_template(d, cx)),
    }
    out
}

/// `text`, a printed query, with every line break between two tokens (and the
/// indentation after it) replaced by one space. Breaks inside string literals and
/// template text are part of those tokens and stay; the tokens, and so the tree the
/// text parses to, are unchanged, and the text can only get shorter.
fn one_line(text: &str) -> String {
    let tokens = cal_lexer::lex(text).tokens;
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (i, (token, span)) in tokens.iter().enumerate() {
        let gap = &text[at..span.start as usize];
        let beside_template = matches!(token, Token::TemplateText(_))
            || i.checked_sub(1).is_some_and(|p| matches!(tokens[p].0, Token::TemplateText(_)));
        if gap.contains('\n') && !beside_template && gap.chars().all(char::is_whitespace) {
            out.push(' ');
        } else {
            out.push_str(gap);
        }
        out.push_str(&text[span.range()]);
        at = span.end as usize;
    }
    out.push_str(&text[at..]);
    out
}

/// Prints a document: its queries in canonical form separated by `;` and a blank
/// line, ending with a newline (an empty document prints as the empty string).
pub fn document_to_text(document: &Document) -> String {
    if document.queries.is_empty() {
        return String::new();
    }
    let mut out = document.queries.iter().map(query_to_text).collect::<Vec<_>>().join(";\n\n");
    out.push('\n');
    out
}

/// Prints one statement in canonical form, as it would appear as the body of a
/// query (for EXPLAIN output, desugaring displays and messages).
pub fn statement_to_text(statement: &Statement) -> String {
    statements::statement(statement, Ctx::line(0))
}

/// Prints a RECALL as a statement, without wrapping it in one first (LET
/// bindings, ASSEMBLE sources and desugared forms are RECALLs outside a statement).
pub fn recall_to_text(r: &Recall) -> String {
    recall::recall(r, Ctx::line(0))
}

/// Where a node is printed: what the layout decisions need to know.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    /// Indentation of the line the node starts on; its continuation lines go two deeper.
    pub indent: usize,
    /// Column at which the node's first character is printed.
    pub col: usize,
    /// Characters printed right after the node on its last line (`)`, `,`, `;`).
    pub tail: usize,
    /// Render on one line whatever the width (used to measure the flat form).
    pub flat: bool,
}

impl Ctx {
    /// One-line rendering, whatever its length.
    pub const FLAT: Ctx = Ctx { indent: 0, col: 0, tail: 0, flat: true };

    /// A node at the start of a line indented by `indent`.
    pub fn line(indent: usize) -> Ctx {
        Ctx { indent, col: indent, tail: 0, flat: false }
    }

    /// True when `text` can be printed here on one line.
    pub fn fits(&self, text: &str) -> bool {
        !text.contains('\n') && (self.flat || self.col + text.chars().count() + self.tail <= WIDTH)
    }

    /// The context of something printed after `prefix` characters on this node's first line.
    pub fn after(self, prefix: usize) -> Ctx {
        Ctx { col: self.col + prefix, ..self }
    }

    /// The same context with `extra` more characters following the node.
    pub fn with_tail(self, extra: usize) -> Ctx {
        Ctx { tail: self.tail + extra, ..self }
    }

    /// The indentation of this node's continuation lines.
    pub fn inner(&self) -> usize {
        self.indent + 2
    }
}

/// `head` and its clauses on one line when they fit, else one clause per line under `head`.
/// The clauses must not depend on the layout (no nested statements inside them).
pub(crate) fn block(head: &str, clauses: &[String], cx: Ctx) -> String {
    let mut flat = head.to_string();
    for c in clauses {
        flat.push(' ');
        flat.push_str(c);
    }
    if cx.fits(&flat) {
        return flat;
    }
    let mut out = head.to_string();
    for c in clauses {
        newline(&mut out, cx.inner());
        out.push_str(c);
    }
    out
}

/// Starts a new line indented by `indent` spaces.
pub(crate) fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
}
