//! ASSEMBLE's content phases (§8.2 phases 3–5): budget allocation over the
//! sources' candidate grains, disclosure, formatting, and exact token counts.

use cal_grammar::FormatName;

use crate::budget::{Allocation, Budget, BudgetUnit, allocate, weights};
use crate::formats::{self, Assembly, Doc, Source};
use crate::grain::GrainInput;
use crate::project::{Element, ProjectionOptions, project};
use crate::template::{self, TemplateDef};
use crate::tokens;

/// One source's retrieved grains, already deduplicated, in rank order.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInput {
    /// The FROM label.
    pub label: String,
    /// Candidate grains, best first.
    pub grains: Vec<GrainInput>,
}

/// How an ASSEMBLE is formatted.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// `FORMAT name` (a format or a preset).
    Format(FormatName),
    /// `FORMAT TEMPLATE name` (resolved by the caller) or `FORMAT TEMPLATE { … }`.
    Template(TemplateDef),
}

/// Everything the content phases of an ASSEMBLE need.
#[derive(Debug, Clone, PartialEq)]
pub struct AssembleRequest {
    /// The context name.
    pub name: String,
    /// The FOR text.
    pub intent: Option<String>,
    /// Sources in PRIORITY order, highest first (FROM order without PRIORITY).
    pub sources: Vec<SourceInput>,
    /// The BUDGET clause, or [`Budget::default_tokens`].
    pub budget: Budget,
    /// The output format.
    pub output: Output,
    /// Disclosure level, clock, ISO opt-out, PROJECT.
    pub projection: ProjectionOptions,
}

/// What one source contributed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceReport {
    /// The FROM label.
    pub label: String,
    /// 1-based priority rank.
    pub priority: usize,
    /// Candidates it returned.
    pub candidates: usize,
    /// Grains included.
    pub grains: usize,
    /// Its share of the budget after surplus redistribution, in the budget's unit.
    pub allocated: usize,
    /// Tokens of its included elements, each counted as the format renders it on its own.
    pub tokens_used: usize,
    /// True when candidates were cut for the budget.
    pub truncated: bool,
}

/// The formatted context and its accounting.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembled {
    /// The formatted text (`formatted_context.text`).
    pub text: String,
    /// Exact o200k_base tokens of `text`.
    pub tokens: usize,
    /// Per-source accounting, in priority order.
    pub sources: Vec<SourceReport>,
    /// The budget applied.
    pub budget: Budget,
}

fn render_doc(req: &AssembleRequest, a: &Assembly, reports: &[SourceReport]) -> String {
    match &req.output {
        Output::Format(f) => formats::render(*f, Doc::Assemble(a), &req.projection),
        Output::Template(t) => template::render_assembly(t, a, reports, &req.projection, req.budget),
    }
}

fn element_cost(req: &AssembleRequest, e: &Element) -> usize {
    match &req.output {
        Output::Format(f) => tokens::count(&formats::render(*f, Doc::Recall(std::slice::from_ref(e)), &req.projection)),
        Output::Template(_) => {
            tokens::count(&formats::render(FormatName::Sml, Doc::Recall(std::slice::from_ref(e)), &req.projection))
        }
    }
}

/// Runs budget allocation, formatting and counting. The output never exceeds a token budget:
/// candidates are chosen by [`allocate`] on per-element costs, and if the exact count of the
/// formatted text is still over (headings and joins cost a little), the lowest-priority
/// source's last grain is dropped until it fits.
pub fn assemble(req: &AssembleRequest) -> Assembled {
    let elements: Vec<Vec<Element>> =
        req.sources.iter().map(|s| s.grains.iter().map(|g| project(g, &req.projection)).collect()).collect();
    let costs: Vec<Vec<usize>> = elements
        .iter()
        .map(|els| match req.budget.unit {
            BudgetUnit::Grains => vec![1; els.len()],
            BudgetUnit::Tokens => els.iter().map(|e| element_cost(req, e)).collect(),
        })
        .collect();
    let mut a = Assembly {
        name: req.name.clone(),
        intent: req.intent.clone(),
        sources: req.sources.iter().map(|s| Source { label: s.label.clone(), elements: Vec::new() }).collect(),
        tokens_used: 0,
        tokens_total: req.budget.amount,
    };
    let total = match req.budget.unit {
        BudgetUnit::Grains => req.budget.amount,
        BudgetUnit::Tokens => {
            let empty = tokens::count(&render_doc(req, &a, &[]));
            req.budget.amount.saturating_sub(empty)
        }
    };
    let alloc: Allocation = allocate(total, &costs, &weights(req.sources.len()));
    for (i, s) in a.sources.iter_mut().enumerate() {
        s.elements = elements[i].iter().take(alloc.taken[i]).cloned().collect();
    }
    let mut cut = vec![false; a.sources.len()];
    loop {
        let reports = reports(req, &a, &alloc, &cut);
        let (text, count) = render_counted(req, &mut a, &reports);
        let over = req.budget.unit == BudgetUnit::Tokens && count > req.budget.amount;
        let victim = a.sources.iter().rposition(|s| !s.elements.is_empty());
        match (over, victim) {
            (true, Some(v)) => {
                a.sources[v].elements.pop();
                cut[v] = true;
            }
            _ => return Assembled { text, tokens: count, sources: reports, budget: req.budget },
        }
    }
}

/// Renders, then re-renders while the text's own token count (TOON prints it) changes.
fn render_counted(req: &AssembleRequest, a: &mut Assembly, reports: &[SourceReport]) -> (String, usize) {
    let mut text = render_doc(req, a, reports);
    let mut count = tokens::count(&text);
    for _ in 0..4 {
        if a.tokens_used == count {
            break;
        }
        a.tokens_used = count;
        text = render_doc(req, a, reports);
        count = tokens::count(&text);
    }
    (text, count)
}

fn reports(req: &AssembleRequest, a: &Assembly, alloc: &Allocation, cut: &[bool]) -> Vec<SourceReport> {
    a.sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let candidates = req.sources[i].grains.len();
            SourceReport {
                label: s.label.clone(),
                priority: i + 1,
                candidates,
                grains: s.elements.len(),
                allocated: alloc.allocated[i],
                tokens_used: s.elements.iter().map(|e| element_cost(req, e)).sum(),
                truncated: s.elements.len() < candidates || cut[i],
            }
        })
        .collect()
}

/// Formats a RECALL result (`AS format`) and counts its tokens.
pub fn render_recall(grains: &[GrainInput], format: FormatName, opts: &ProjectionOptions) -> (String, usize) {
    let els: Vec<Element> = grains.iter().map(|g| project(g, opts)).collect();
    let text = formats::render(format, Doc::Recall(&els), opts);
    let n = tokens::count(&text);
    (text, n)
}
