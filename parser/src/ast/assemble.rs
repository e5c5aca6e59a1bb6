//! ASSEMBLE and what only it has: sources, budget, priority, format specs, STREAM, templates.

use super::*;

/// ASSEMBLE (§8.2).
#[derive(Debug, Clone, PartialEq)]
pub struct Assemble {
    /// The context name.
    pub name: Option<Ident>,
    /// `FOR "intent"`.
    pub intent: Option<StringLit>,
    /// `FROM source, …`.
    pub sources: Vec<Source>,
    /// `BUDGET n unit`.
    pub budget: Option<Budget>,
    /// `PRIORITY a > b > …`.
    pub priority: Option<Priority>,
    /// `FORMAT …`.
    pub format: Option<FormatSpec>,
    /// `STREAM [{ … }]`.
    pub stream: Option<Stream>,
    /// `WITH …`.
    pub with: Option<WithClause>,
    /// The whole statement.
    pub span: Span,
}

/// One ASSEMBLE source.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// `label:`, when written.
    pub label: Option<Ident>,
    /// The query or LET reference.
    pub body: SourceBody,
    /// Where.
    pub span: Span,
}

/// What a source draws from.
// Sources are few (at most 8) and built once; see `QueryBody`.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SourceBody {
    /// `(RECALL …)`.
    Recall(Recall),
    /// `$name` (also accepted as `($name)`).
    LetRef(Ident),
}

/// `BUDGET n tokens|grains`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The amount.
    pub amount: IntLit,
    /// The unit.
    pub unit: BudgetUnit,
    /// Where.
    pub span: Span,
}

/// `PRIORITY a > b > …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Priority {
    /// Labels, highest priority first.
    pub labels: Vec<Ident>,
    /// Where.
    pub span: Span,
}

/// `FORMAT …` (§4 `format_spec`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatSpec {
    /// Which form.
    pub kind: FormatKind,
    /// Where.
    pub span: Span,
}

/// The forms of a format spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatKind {
    /// A format type or preset.
    Named(FormatName),
    /// `TEMPLATE name`.
    Template(Ident),
    /// `TEMPLATE { sections }`.
    Inline(TemplateBody),
}

/// `STREAM` with its options (empty = bare `STREAM`, all events).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// The options in order.
    pub options: Vec<StreamOption>,
    /// Where.
    pub span: Span,
}

/// One stream option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOption {
    /// Which option.
    pub kind: StreamOptionKind,
    /// Where.
    pub span: Span,
}

/// The stream options of §11.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamOptionKind {
    /// An event group.
    Events(StreamEvents),
    /// `chunk_size = n`.
    ChunkSize(IntLit),
}

/// The sections of a template (§10.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateBody {
    /// Sections in source order (duplicates are kept for the checker to report).
    pub sections: Vec<TemplateSection>,
    /// Where.
    pub span: Span,
}

/// `HEADER { … }` and friends. The text between the braces is kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSection {
    /// Which section.
    pub kind: TemplateSectionKind,
    /// The raw template text between the braces.
    pub text: Text,
    /// Where the text is (inside the braces).
    pub text_span: Span,
    /// The whole section.
    pub span: Span,
}
