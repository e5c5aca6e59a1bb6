//! Streaming chunks of an ASSEMBLE's formatted text (§11.1 `chunk`, §10.9.7).
//!
//! A stream must deliver the same text as the non-streamed response, in pieces of about
//! `chunk_size` tokens, and never cut an element (an SML tag, a markdown bullet, a TOON row, a
//! JSON object) in two. The chunker therefore works on the finished text: it finds where each
//! included element sits in it and cuts only between elements, so concatenating the chunks gives
//! the text back byte for byte, whatever the format.
//!
//! The text between elements is framing: the SML `<context>` envelope, markdown and triples
//! headings, TOON's metadata header and group headers, JSON's brackets. A framing line that
//! opens something (a heading, `<context …>`, `{`) travels with the element after it; one that
//! closes something (`</context>`, `]`, `}`, a blank separator line) with the element before it.
//! So the first chunk carries the opening of the envelope and the last chunk its closing.
//!
//! Token counts: the whole text is encoded once and each of its tokens is attributed to the
//! chunk in which it starts, so the chunks' `tokens` add up exactly to the text's count and a
//! running countdown ends at the budget minus `formatted_context.tokens`.

use std::ops::Range;

use cal_grammar::FormatName;

use crate::assemble::{AssembleRequest, Output, SourceInput};
use crate::formats::{self, Assembly, Doc, Source, json, markdown, sml, text, toon, triples, yaml};
use crate::project::{Element, ProjectionOptions, project};
use crate::tokens;

/// One element of an assembly: its source (index in priority order) and its rank there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ElementRef {
    /// Index of the source, highest priority first.
    pub source: usize,
    /// Index of the element within the source's included grains.
    pub index: usize,
}

/// One chunk of formatted output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The text; the chunks of a text concatenate to it exactly.
    pub text: String,
    /// Where the chunk lies in the whole text, in bytes.
    pub range: Range<usize>,
    /// Tokens of the whole text's encoding that start in this chunk.
    pub tokens: usize,
    /// The elements the chunk carries, whole, in text order.
    pub elements: Vec<ElementRef>,
}

/// What the text was made from, so that element boundaries can be found in it.
#[derive(Debug, Clone, Copy)]
pub struct Layout<'a> {
    /// The (resolved) format; `None` for template output, which is cut at line ends only.
    pub format: Option<FormatName>,
    /// The included grains of each source, in priority order.
    pub sources: &'a [SourceInput],
    /// The projection the text was rendered with.
    pub projection: &'a ProjectionOptions,
}

/// The chunks of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunking {
    /// The chunks, in order; none for an empty text.
    pub chunks: Vec<Chunk>,
    /// True when every element was located, so no chunk splits one. False for template output
    /// (line ends are the only boundaries known) or a text the layout does not describe.
    pub by_element: bool,
}

/// What a line of the text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// (Part of) an element.
    Element(ElementRef),
    /// Framing that belongs with what follows.
    Open,
    /// Framing that belongs with what precedes.
    Close,
}

/// A piece that is never split: an element with the framing around it.
#[derive(Debug)]
struct Atom {
    range: Range<usize>,
    elements: Vec<ElementRef>,
}

/// Cuts `text` into chunks of about `chunk_size` tokens. Chunks are filled with whole elements
/// while they stay within `chunk_size`; an element larger than that is a chunk of its own.
pub fn chunk(text: &str, layout: &Layout<'_>, chunk_size: usize) -> Chunking {
    let lines = line_ranges(text);
    let located = layout.format.and_then(|f| locate(text, &lines, f, layout));
    let by_element = located.is_some();
    let kinds = located.unwrap_or_else(|| vec![Kind::Open; lines.len()]);
    let atoms = if by_element { atoms(text, &lines, &kinds) } else { line_atoms(&lines) };
    Chunking { chunks: pack(text, atoms, chunk_size.max(1)), by_element }
}

/// Byte ranges of the lines of `text`, each with its newline (the last one without).
fn line_ranges(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// The line without its newline.
fn line<'t>(text: &'t str, r: &Range<usize>) -> &'t str {
    let s = text.get(r.clone()).unwrap_or_default();
    s.strip_suffix('\n').unwrap_or(s)
}

/// The projected elements of each source, as the formats saw them.
fn elements(layout: &Layout<'_>) -> Vec<Vec<Element>> {
    layout.sources.iter().map(|s| s.grains.iter().map(|g| project(g, layout.projection)).collect()).collect()
}

/// Each element's lines as they appear in the assembled document, in document order.
fn blocks(format: FormatName, layout: &Layout<'_>) -> Vec<(ElementRef, Vec<String>)> {
    let els = elements(layout);
    let mut out = Vec::new();
    let indent = |s: String, pad: &str| s.split('\n').map(|l| format!("{pad}{l}")).collect::<Vec<_>>();
    for (si, source) in els.iter().enumerate() {
        let at = |index| ElementRef { source: si, index };
        match format {
            FormatName::Toon => {
                // Rows are grouped by type within a source (§10.9.4); a group's columns depend on
                // the group, so each group is rendered as TOON renders a same-type RECALL.
                let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
                for (i, e) in source.iter().enumerate() {
                    match groups.iter_mut().find(|(g, _)| *g == e.group) {
                        Some((_, v)) => v.push(i),
                        None => groups.push((&e.group, vec![i])),
                    }
                }
                let projected = layout.projection.project.as_ref().map(|p| p.attrs.as_slice());
                for (_, idx) in groups {
                    let group: Vec<Element> = idx.iter().map(|&i| source[i].clone()).collect();
                    let rendered = toon::recall(&group, layout.projection.disclosure, projected);
                    // A RECALL's rows are indented under their header as an ASSEMBLE's are.
                    for (&i, row) in idx.iter().zip(rendered.split('\n').skip(1)) {
                        out.push((at(i), vec![row.to_string()]));
                    }
                }
            }
            _ => {
                for (i, e) in source.iter().enumerate() {
                    // Prose formats do not escape a newline inside a grain's text: such an
                    // element spans several lines, and is kept whole all the same.
                    let lines = match format {
                        FormatName::Sml => indent(sml::element(e), ""),
                        FormatName::Markdown => indent(markdown::element(e), ""),
                        FormatName::Text => indent(text::element(e), ""),
                        FormatName::Triples => indent(triples::element(e), ""),
                        FormatName::Json => {
                            indent(serde_json::to_string_pretty(&json::element(e)).unwrap_or_default(), "        ")
                        }
                        _ => indent(yaml::render(Doc::Recall(std::slice::from_ref(e))), "      "),
                    };
                    out.push((at(i), lines));
                }
            }
        }
    }
    out
}

/// Marks every line of `text` as element or framing, or `None` when some element is not found
/// where the layout says it is (then the text is cut at lines only).
fn locate(text: &str, lines: &[Range<usize>], format: FormatName, layout: &Layout<'_>) -> Option<Vec<Kind>> {
    let format = format.resolve();
    let comma_ok = format == FormatName::Json;
    let mut kinds = Vec::with_capacity(lines.len());
    let mut cursor = 0;
    for (r, block) in blocks(format, layout) {
        if block.is_empty() {
            continue;
        }
        loop {
            let candidate = lines.get(cursor..cursor + block.len())?;
            let matches = candidate.iter().zip(&block).enumerate().all(|(k, (range, want))| {
                let got = line(text, range);
                got == want || (comma_ok && k + 1 == block.len() && got.strip_suffix(',') == Some(want.as_str()))
            });
            if matches {
                kinds.extend(std::iter::repeat_n(Kind::Element(r), block.len()));
                cursor += block.len();
                break;
            }
            kinds.push(framing(line(text, &lines[cursor])));
            cursor += 1;
        }
    }
    kinds.extend(lines[cursor..].iter().map(|r| framing(line(text, r))));
    Some(kinds)
}

/// Whether a framing line closes what precedes it (blank separators, `</context>`, `]`, `}`).
fn framing(line: &str) -> Kind {
    let t = line.trim_start();
    if t.is_empty() || t.starts_with('}') || t.starts_with(']') || t.starts_with("</") {
        Kind::Close
    } else {
        Kind::Open
    }
}

/// Groups lines into atoms: each element with the opening framing before it and the closing
/// framing after it. Framing with no element to attach to forms one atom (an empty envelope).
fn atoms(text: &str, lines: &[Range<usize>], kinds: &[Kind]) -> Vec<Atom> {
    let mut atoms: Vec<Atom> = Vec::new();
    let mut open: Option<usize> = None;
    let mut last: Option<ElementRef> = None;
    for (r, kind) in lines.iter().zip(kinds) {
        match *kind {
            Kind::Element(e) if last == Some(e) && open.is_none() => {
                if let Some(a) = atoms.last_mut() {
                    a.range.end = r.end;
                }
            }
            Kind::Element(e) => {
                let start = open.take().unwrap_or(r.start);
                atoms.push(Atom { range: start..r.end, elements: vec![e] });
                last = Some(e);
            }
            Kind::Close if open.is_none() && !atoms.is_empty() => {
                if let Some(a) = atoms.last_mut() {
                    a.range.end = r.end;
                }
                last = None;
            }
            Kind::Open | Kind::Close => {
                open.get_or_insert(r.start);
                last = None;
            }
        }
    }
    if let Some(start) = open {
        match atoms.last_mut() {
            Some(a) => a.range.end = text.len(),
            None => atoms.push(Atom { range: start..text.len(), elements: Vec::new() }),
        }
    }
    atoms
}

/// One atom per line (template output, or a text the layout does not describe).
fn line_atoms(lines: &[Range<usize>]) -> Vec<Atom> {
    lines.iter().map(|r| Atom { range: r.clone(), elements: Vec::new() }).collect()
}

/// Fills chunks with atoms while they stay within `chunk_size` tokens.
fn pack(text: &str, atoms: Vec<Atom>, chunk_size: usize) -> Vec<Chunk> {
    let starts = tokens::starts(text);
    let tokens_in = |r: &Range<usize>| {
        let lo = starts.partition_point(|s| *s < r.start);
        let hi = starts.partition_point(|s| *s < r.end);
        hi - lo
    };
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut current: Option<Chunk> = None;
    for atom in atoms {
        let n = tokens_in(&atom.range);
        match current.as_mut() {
            Some(c) if c.tokens + n <= chunk_size => {
                c.range.end = atom.range.end;
                c.tokens += n;
                c.elements.extend(atom.elements);
            }
            _ => {
                chunks.extend(current.take());
                current = Some(Chunk { text: String::new(), range: atom.range, tokens: n, elements: atom.elements });
            }
        }
    }
    chunks.extend(current);
    for c in &mut chunks {
        c.text = text.get(c.range.clone()).unwrap_or_default().to_string();
    }
    chunks
}

/// Renders exactly the grains of `req.sources` (no budget selection) in the request's format:
/// the well-formed document of a stream cancelled after some chunks, holding the elements
/// delivered. Returns the text and its exact token count; `None` for template output.
pub fn render_selection(req: &AssembleRequest) -> Option<(String, usize)> {
    let Output::Format(format) = &req.output else { return None };
    let mut a = Assembly {
        name: req.name.clone(),
        intent: req.intent.clone(),
        sources: req
            .sources
            .iter()
            .map(|s| Source {
                label: s.label.clone(),
                elements: s.grains.iter().map(|g| project(g, &req.projection)).collect(),
            })
            .collect(),
        tokens_used: 0,
        tokens_total: req.budget.amount,
    };
    let mut text = formats::render(*format, Doc::Assemble(&a), &req.projection);
    let mut count = tokens::count(&text);
    // TOON prints its own token count; re-render until the printed count is the real one.
    for _ in 0..4 {
        if a.tokens_used == count {
            break;
        }
        a.tokens_used = count;
        text = formats::render(*format, Doc::Assemble(&a), &req.projection);
        count = tokens::count(&text);
    }
    Some((text, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_newlines() {
        assert_eq!(line_ranges("a\nbc\n\nd"), vec![0..2, 2..5, 5..6, 6..7]);
        assert_eq!(line_ranges("a\n"), vec![0..2]);
        assert!(line_ranges("").is_empty());
    }

    #[test]
    fn framing_sides() {
        for l in ["", "</context>", "  ]", "    },", "}"] {
            assert_eq!(framing(l), Kind::Close, "{l:?}");
        }
        for l in ["<context>", "## Context: x", "**Beliefs**", "    {", "# context: c", "beliefs[2]{a,b}:"] {
            assert_eq!(framing(l), Kind::Open, "{l:?}");
        }
    }

    #[test]
    fn opening_framing_goes_forward_and_closing_backward() {
        let text = "<context>\n<a>x</a>\n<b>y</b>\n</context>";
        let lines = line_ranges(text);
        let e = |index| Kind::Element(ElementRef { source: 0, index });
        let atoms = atoms(text, &lines, &[Kind::Open, e(0), e(1), Kind::Close]);
        let texts: Vec<&str> = atoms.iter().map(|a| &text[a.range.clone()]).collect();
        assert_eq!(texts, ["<context>\n<a>x</a>\n", "<b>y</b>\n</context>"]);
        let empty = "<context>\n</context>";
        let only = super::atoms(empty, &line_ranges(empty), &[Kind::Open, Kind::Close]);
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].range, 0..empty.len());
        assert!(only[0].elements.is_empty());
    }

    /// Grains whose text looks like framing or spans lines, in every format: the chunks give the
    /// text back, every element is found (so none is split), and each sits in one chunk.
    #[test]
    fn awkward_grains_are_kept_whole_in_every_format() {
        use crate::assemble::assemble;
        use crate::budget::{Budget, BudgetUnit};
        use crate::grain::{CalValue as V, GrainInput, test_grain};
        use cal_grammar::GrainType;
        let s = |x: &str| V::Str(x.into());
        let grain = |i: usize, object: &str| {
            let fields = [
                ("subject", s("alice")),
                ("relation", s("mg:prefers")),
                ("object", s(object)),
                ("confidence", V::Float(0.5)),
                ("time", V::Time(1_700_000_000_000)),
            ];
            test_grain(GrainType::Belief, &format!("sha256:{i:064x}"), &fields)
        };
        let event = |i: usize, content: &str| {
            let fields = [("role", s("user")), ("content", s(content)), ("time", V::Time(1_700_000_000_000))];
            test_grain(GrainType::Event, &format!("sha256:{i:064x}"), &fields)
        };
        let awkward = ["two\nlines", "</context>", "  - type: x", "}\n]", "é漢字 🙂", "", "**Beliefs**", "# b"];
        let a: Vec<GrainInput> = awkward.iter().enumerate().map(|(i, o)| grain(i, o)).collect();
        let b: Vec<GrainInput> = awkward.iter().enumerate().map(|(i, o)| event(100 + i, o)).collect();
        let mixed: Vec<GrainInput> = vec![grain(200, "tea"), event(201, "hi\nthere"), grain(202, "coffee")];
        for format in [
            FormatName::Sml,
            FormatName::Markdown,
            FormatName::Text,
            FormatName::Json,
            FormatName::Yaml,
            FormatName::Triples,
            FormatName::Toon,
        ] {
            let req = AssembleRequest {
                name: "ctx".into(),
                intent: Some("x \"y\"".into()),
                sources: vec![
                    SourceInput { label: "a".into(), grains: a.clone() },
                    SourceInput { label: "empty".into(), grains: vec![] },
                    SourceInput { label: "b".into(), grains: b.clone() },
                    SourceInput { label: "mixed".into(), grains: mixed.clone() },
                ],
                budget: Budget::new(16_000, BudgetUnit::Tokens),
                output: Output::Format(format),
                projection: ProjectionOptions { now_ms: 1_800_000_000_000, ..ProjectionOptions::default() },
            };
            let out = assemble(&req);
            let included: Vec<SourceInput> = req
                .sources
                .iter()
                .zip(&out.sources)
                .map(|(s, r)| SourceInput { label: s.label.clone(), grains: s.grains[..r.grains].to_vec() })
                .collect();
            let total: usize = included.iter().map(|s| s.grains.len()).sum();
            assert_eq!(total, a.len() + b.len() + mixed.len(), "{format:?}: everything fits");
            let layout = Layout { format: Some(format), sources: &included, projection: &req.projection };
            for size in [1, 20, 100, 1000] {
                let c = chunk(&out.text, &layout, size);
                assert!(c.by_element, "{format:?}: every element located in\n{}", out.text);
                assert_eq!(c.chunks.iter().map(|c| c.text.as_str()).collect::<String>(), out.text, "{format:?}");
                assert_eq!(c.chunks.iter().map(|c| c.tokens).sum::<usize>(), out.tokens, "{format:?}");
                let mut seen: Vec<ElementRef> = c.chunks.iter().flat_map(|c| c.elements.clone()).collect();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), total, "{format:?}: each element in exactly one chunk");
            }
        }
    }

    #[test]
    fn template_output_is_cut_at_line_ends() {
        let text = "HEADER\n* one\n* two\n";
        let opts = ProjectionOptions::default();
        let c = chunk(text, &Layout { format: None, sources: &[], projection: &opts }, 1);
        assert!(!c.by_element);
        assert_eq!(c.chunks.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["HEADER\n", "* one\n", "* two\n"]);
        assert!(chunk("", &Layout { format: None, sources: &[], projection: &opts }, 20).chunks.is_empty());
    }

    #[test]
    fn packing_respects_the_size_and_never_splits() {
        let text = "one two three\nfour five six\nseven eight nine\n";
        let atoms = line_atoms(&line_ranges(text));
        let chunks = pack(text, atoms, 7);
        assert_eq!(chunks.iter().map(|c| c.text.as_str()).collect::<String>(), text);
        assert_eq!(chunks.iter().map(|c| c.tokens).sum::<usize>(), tokens::count(text));
        assert!(chunks.iter().all(|c| c.tokens <= 7 || c.text.lines().count() == 1));
        let tiny = pack(text, line_atoms(&line_ranges(text)), 1);
        assert_eq!(tiny.len(), 3, "an atom larger than the size is a chunk of its own");
    }
}
