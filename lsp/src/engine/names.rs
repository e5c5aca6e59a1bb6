//! Go to definition, find references and rename for the two kinds of names a
//! `.cal` file defines: `$let` bindings (scoped to their query) and ASSEMBLE
//! source labels (scoped to their statement, referenced in PRIORITY).

use super::Edit;
use super::context::{self, Kind, Tok};
use cal_grammar::{Keyword, Span};

/// What kind of name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// `LET $name = …`.
    Let,
    /// `label: (RECALL …)` in ASSEMBLE … FROM.
    Label,
}

/// A name with its definition and every occurrence (definition included), in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrences {
    /// Which kind.
    pub kind: NameKind,
    /// The name (without `$`).
    pub name: String,
    /// Where it is defined.
    pub definition: Span,
    /// All occurrences, the definition included.
    pub references: Vec<Span>,
}

/// Token index ranges of the queries: a LET segment belongs to the statement that follows it.
fn query_ranges(all: &[Tok]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut q_start, mut seg_start) = (0, 0);
    for (i, t) in all.iter().enumerate() {
        if t.is(";") {
            let is_let = all.get(seg_start).is_some_and(|t| t.is_kw(Keyword::Let));
            if !is_let {
                out.push((q_start, i));
                q_start = i + 1;
            }
            seg_start = i + 1;
        }
    }
    out.push((q_start, all.len()));
    out
}

/// Token index range of the statement segment (between `;`) containing token `i`.
fn segment(all: &[Tok], i: usize) -> (usize, usize) {
    let start = all[..i].iter().rposition(|t| t.is(";")).map_or(0, |j| j + 1);
    let end = all[i..].iter().position(|t| t.is(";")).map_or(all.len(), |j| i + j);
    (start, end)
}

fn is_label_def(all: &[Tok], i: usize) -> bool {
    all.get(i + 1).is_some_and(|t| t.is(":"))
        && all.get(i + 2).is_some_and(|t| t.is("(") || matches!(t.kind, Kind::Param(_)))
        && all[i].ident().is_some()
}

/// True when token `i` is inside a PRIORITY clause (PRIORITY a > b > …).
fn in_priority(all: &[Tok], start: usize, i: usize) -> bool {
    let mut j = i;
    while j > start {
        j -= 1;
        let t = &all[j];
        if t.is_kw(Keyword::Priority) {
            return true;
        }
        if !(t.is(">") || t.ident().is_some()) {
            return false;
        }
    }
    false
}

/// The name at `offset` and all its occurrences, if the cursor is on a LET name or a source label.
pub fn occurrences(text: &str, offset: usize) -> Option<Occurrences> {
    let all = context::tokens_near(text, offset);
    let i = all.iter().position(|t| {
        (t.span.start as usize) <= offset
            && offset <= t.span.end as usize
            && matches!(t.kind, Kind::Param(_) | Kind::Ident(_))
    })?;
    match &all[i].kind {
        Kind::Param(name) => {
            let (qs, qe) = *query_ranges(&all).iter().find(|(s, e)| *s <= i && i < (*e).max(*s + 1))?;
            let q = &all[qs..qe];
            let def = q.windows(2).find(|w| w[0].is_kw(Keyword::Let) && w[1].kind == Kind::Param(name.clone()))?;
            let references = q.iter().filter(|t| t.kind == Kind::Param(name.clone())).map(|t| t.span).collect();
            Some(Occurrences { kind: NameKind::Let, name: name.clone(), definition: def[1].span, references })
        }
        Kind::Ident(name) => {
            let (s, e) = segment(&all, i);
            if !(is_label_def(&all, i) || in_priority(&all, s, i)) {
                return None;
            }
            let def = (s..e).find(|&j| all[j].ident() == Some(name) && is_label_def(&all, j))?;
            let references = (s..e)
                .filter(|&j| all[j].ident() == Some(name) && (j == def || in_priority(&all, s, j)))
                .map(|j| all[j].span)
                .collect();
            Some(Occurrences { kind: NameKind::Label, name: name.clone(), definition: all[def].span, references })
        }
        _ => None,
    }
}

/// Why a rename is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenameError {
    /// The cursor is not on a LET name or label.
    NotAName,
    /// The new name is not an identifier.
    InvalidName(String),
}

/// The edits that rename the name at `offset` to `new_name` (a leading `$` is optional for LET names).
pub fn rename(text: &str, offset: usize, new_name: &str) -> Result<Vec<Edit>, RenameError> {
    let occ = occurrences(text, offset).ok_or(RenameError::NotAName)?;
    let bare = new_name.strip_prefix('$').unwrap_or(new_name);
    let valid = bare.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid || (occ.kind == NameKind::Label && cal_grammar::Keyword::lookup(bare).is_some()) {
        return Err(RenameError::InvalidName(new_name.to_string()));
    }
    let replacement = match occ.kind {
        NameKind::Let => format!("${bare}"),
        NameKind::Label => bare.to_string(),
    };
    Ok(occ.references.into_iter().map(|span| Edit { span, text: replacement.clone() }).collect())
}

/// The source text of the LET binding whose `$name` is at `def` (from LET to its `;`).
pub fn let_binding_text(text: &str, all: &[Tok], def: Span) -> Option<String> {
    let i = all.iter().position(|t| t.span == def)?;
    let start = all.get(i.checked_sub(1)?)?.span.start as usize;
    let end = all[i..].iter().find(|t| t.is(";")).map_or(text.len(), |t| t.span.end as usize);
    text.get(start..end).map(str::to_string)
}
