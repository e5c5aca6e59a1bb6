//! ASSEMBLE's content phases (§8.2 phases 3–5): budget allocation over the
//! sources' candidate grains, disclosure, formatting, and exact token counts.

use cal_grammar::{FormatName, GrainType};

use crate::budget::{Allocation, Budget, BudgetUnit, allocate, weights};
use crate::deadline::{self, Watch};
use crate::formats::{self, Assembly, Doc, Source};
use crate::grain::GrainInput;
use crate::project::{Element, ProjectionOptions, project};
use crate::template;
use crate::tokens;
use cal_parser::template::Template;

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
    /// `FORMAT TEMPLATE name` (resolved by the caller) or `FORMAT TEMPLATE { … }`, parsed.
    Template(Template),
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
    /// Tokens of its included elements: each element's marginal cost in the output (its line
    /// among others, see [`assemble()`]). The exact total of the text is [`Assembled::tokens`].
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
        Output::Template(t) => {
            template::render_assembly(t, a, Some(&req.sources), reports, &req.projection, req.budget)
        }
    }
}

/// What one more element costs in the output, in tokens: what a second copy of it adds to a
/// document holding it once — the inserted line with its newline (TOON: its row, indented;
/// templates: the difference of the two documents' counts). Headings, table headers and the
/// envelope are not charged per element, so summing these estimates the formatted total
/// closely (costs of elements rendered alone, headers included, would overshoot and
/// under-fill the budget); `assemble` corrects the rest with exact counts.
fn element_cost(req: &AssembleRequest, e: &Element) -> usize {
    let two = [e.clone(), e.clone()];
    match &req.output {
        Output::Format(f) => {
            let one = formats::render(*f, Doc::Recall(&two[..1]), &req.projection);
            let both = formats::render(*f, Doc::Recall(&two), &req.projection);
            match inserted(&one, &both) {
                // Line formats: the second copy is one inserted run (the line and its newline),
                // and counting just it is one small count instead of two.
                Some(part) => tokens::count(&part).max(1),
                // TOON's header carries the row count, so the documents differ in two places;
                // a row is the last line, indented under its header as ASSEMBLE writes it.
                None if f.resolve() == FormatName::Toon => {
                    one.lines().last().map_or(1, |row| tokens::count(&format!("{row}\n")).max(1))
                }
                None => tokens::count(&both).saturating_sub(tokens::count(&one)).max(1),
            }
        }
        Output::Template(t) => {
            let doc = |els: &[Element]| Assembly {
                name: req.name.clone(),
                intent: req.intent.clone(),
                sources: vec![Source { label: String::new(), elements: els.to_vec() }],
                tokens_used: 0,
                tokens_total: req.budget.amount,
            };
            let count = |els: &[Element]| {
                let unbounded = Budget::new(BudgetUnit::Tokens.max_amount(), BudgetUnit::Tokens);
                tokens::count(&template::render_assembly(t, &doc(els), None, &[], &req.projection, unbounded))
            };
            count(&two).saturating_sub(count(&two[..1])).max(1)
        }
    }
}

/// Auto-TOON's threshold (§10.9.5): utilization estimates above 85% of the budget.
pub const AUTO_TOON_UTILIZATION: f64 = 0.85;

/// The tokens an ASSEMBLE would need to include every candidate in the requested output: the
/// empty envelope plus every candidate's marginal cost ([`element_cost`]). This is the
/// "estimated token utilization" auto-TOON compares with the budget (§10.9.5); our plans carry
/// no token estimate, so the estimate is made from the retrieved candidates before allocation.
pub fn estimate_tokens(req: &AssembleRequest) -> usize {
    let empty = Assembly {
        name: req.name.clone(),
        intent: req.intent.clone(),
        sources: req.sources.iter().map(|s| Source { label: s.label.clone(), elements: Vec::new() }).collect(),
        tokens_used: 0,
        tokens_total: req.budget.amount,
    };
    let envelope = tokens::count(&render_doc(req, &empty, &[]));
    let elements: usize =
        req.sources.iter().flat_map(|s| s.grains.iter()).map(|g| element_cost(req, &project(g, &req.projection))).sum();
    envelope + elements
}

/// Whether auto-TOON applies to a request whose FORMAT was not written but whose BUDGET was
/// (§10.9.5): a token budget, every source holding one grain type (so each is one TOON table),
/// and the estimate of the request as it stands over 85% of the budget.
pub fn auto_toon_applies(req: &AssembleRequest) -> bool {
    let single_type = req.sources.iter().all(|s| {
        let mut types = s.grains.iter().map(GrainInput::type_name);
        types.next().is_none_or(|first| types.all(|t| t == first))
    });
    req.budget.unit == BudgetUnit::Tokens
        && single_type
        && estimate_tokens(req) as f64 > AUTO_TOON_UTILIZATION * req.budget.amount as f64
}

/// When `longer` is `shorter` with one run inserted, that run, written as a line followed by
/// its newline (`"\nL"` at the end becomes `"L\n"`), which is how a line is tokenized among
/// others: o200k_base joins a line's closing punctuation and its newline into one piece.
fn inserted(shorter: &str, longer: &str) -> Option<String> {
    let prefix =
        shorter.char_indices().zip(longer.chars()).find(|((_, a), b)| a != b).map_or(shorter.len(), |((i, _), _)| i);
    let part = longer.get(prefix..)?.strip_suffix(shorter.get(prefix..)?)?;
    match part.strip_prefix('\n') {
        Some(line) if !line.is_empty() => Some(format!("{line}\n")),
        _ if !part.is_empty() => Some(part.to_string()),
        _ => None,
    }
}

/// Runs budget allocation, formatting and counting (§8.2 phases 3–5).
///
/// 1. Every candidate is costed by its marginal tokens in the chosen output
///    ([`element_cost`]; 1 per grain for a `grains` budget) and [`allocate`] splits the budget
///    left after the empty envelope by the PRIORITY weights, redistributing surplus.
/// 2. The chosen grains are formatted and the text counted exactly. While it is over a token
///    budget, grains are dropped from the lowest priority up — as many as the excess needs by
///    their estimates, at least one — and the text recounted.
/// 3. While it is under, grains are added, each to the source furthest below its weighted
///    share (whose next estimate fits the slack; ties to the higher priority): first as one
///    batch whose estimates fit, then, if its exact count does not, one at a time; a source
///    whose next grain does not fit takes no more (ranks are never skipped).
///
/// The output never exceeds a token budget: when not even the format's empty envelope fits, the
/// text is empty (0 tokens) and every source with candidates is truncated. Reported `tokens`
/// is the exact count of the returned text.
pub fn assemble(req: &AssembleRequest) -> Assembled {
    // Past the deadline every loop stops short; the answer is then never shown (deadline.rs).
    let mut watch = Watch::default();
    let elements: Vec<Vec<Element>> = req
        .sources
        .iter()
        .map(|s| s.grains.iter().take_while(|_| watch.go()).map(|g| project(g, &req.projection)).collect())
        .collect();
    let costs: Vec<Vec<usize>> = elements
        .iter()
        .map(|els| match req.budget.unit {
            BudgetUnit::Grains => vec![1; els.len()],
            BudgetUnit::Tokens => els.iter().take_while(|_| watch.go()).map(|e| element_cost(req, e)).collect(),
        })
        .collect();
    if deadline::expired() {
        return Assembled { text: String::new(), tokens: 0, sources: Vec::new(), budget: req.budget };
    }
    let mut a = Assembly {
        name: req.name.clone(),
        intent: req.intent.clone(),
        sources: req.sources.iter().map(|s| Source { label: s.label.clone(), elements: Vec::new() }).collect(),
        tokens_used: 0,
        tokens_total: req.budget.amount,
    };
    let token_budget = req.budget.unit == BudgetUnit::Tokens;
    let total = if token_budget {
        let empty = tokens::count(&render_doc(req, &a, &[]));
        req.budget.amount.saturating_sub(empty)
    } else {
        req.budget.amount
    };
    let alloc: Allocation = allocate(total, &costs, &weights(req.sources.len()));
    let mut taken = alloc.taken.clone();
    let fill = |a: &mut Assembly, taken: &[usize]| {
        for (i, s) in a.sources.iter_mut().enumerate() {
            s.elements = elements[i][..taken[i]].to_vec();
        }
    };
    fill(&mut a, &taken);
    let report = |taken: &[usize]| reports(req, &alloc, &costs, &elements, taken);
    let (mut text, mut count) = render_counted(req, &mut a, &report(&taken));
    if token_budget {
        // Over: drop from the lowest priority — as many grains as the excess needs by their
        // estimates (at least one) — and recount.
        while count > req.budget.amount && !deadline::expired() {
            let mut excess = count - req.budget.amount;
            let mut dropped = 0;
            while excess > 0 || dropped == 0 {
                let Some(v) = taken.iter().rposition(|t| *t > 0) else { break };
                taken[v] -= 1;
                excess = excess.saturating_sub(costs[v][taken[v]]);
                dropped += 1;
            }
            if dropped == 0 {
                break;
            }
            fill(&mut a, &taken);
            (text, count) = render_counted(req, &mut a, &report(&taken));
        }
        // Under: add while the exact count fits, each grain to the source furthest below its
        // weighted share (ties to the higher priority), so the slack is shared by weight. A
        // batch whose estimates fit the slack is tried at once; if its exact count does not
        // fit, grains are tried one at a time, and a source whose next grain does not fit takes
        // no more (ranks are never skipped).
        let mut closed = vec![false; taken.len()];
        let w = weights(req.sources.len());
        let mut one_at_a_time = false;
        while !deadline::expired() {
            let mut plan = taken.clone();
            let mut left = req.budget.amount.saturating_sub(count);
            let mut last = None;
            loop {
                let used = |i: usize| costs[i][..plan[i]].iter().sum::<usize>() as f64 / w[i].max(1e-9);
                let next = (0..plan.len())
                    .filter(|&i| !closed[i] && plan[i] < costs[i].len() && costs[i][plan[i]] <= left)
                    .min_by(|&x, &y| used(x).total_cmp(&used(y)).then(x.cmp(&y)));
                let Some(i) = next else { break };
                left -= costs[i][plan[i]];
                plan[i] += 1;
                last = Some(i);
                if one_at_a_time {
                    break;
                }
            }
            let Some(i) = last else { break };
            fill(&mut a, &plan);
            let (t, c) = render_counted(req, &mut a, &report(&plan));
            if c <= req.budget.amount {
                (text, count, taken) = (t, c, plan);
            } else if one_at_a_time {
                closed[i] = true;
            } else {
                one_at_a_time = true;
            }
        }
        fill(&mut a, &taken);
        if count > req.budget.amount {
            // Not even the empty envelope fits.
            (text, count) = (String::new(), 0);
        }
    }
    Assembled { text, tokens: count, sources: report(&taken), budget: req.budget }
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
        let again = render_doc(req, a, reports);
        if again == text {
            // The format does not print its own count: the text, and so the count, stand.
            break;
        }
        text = again;
        count = tokens::count(&text);
    }
    (text, count)
}

fn reports(
    req: &AssembleRequest,
    alloc: &Allocation,
    costs: &[Vec<usize>],
    elements: &[Vec<Element>],
    taken: &[usize],
) -> Vec<SourceReport> {
    req.sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let candidates = s.grains.len();
            let grains = taken.get(i).copied().unwrap_or(0);
            SourceReport {
                label: s.label.clone(),
                priority: i + 1,
                candidates,
                grains,
                allocated: alloc.allocated.get(i).copied().unwrap_or(0),
                tokens_used: match req.budget.unit {
                    BudgetUnit::Tokens => costs.get(i).map_or(0, |c| c[..grains.min(c.len())].iter().sum()),
                    BudgetUnit::Grains => {
                        elements.get(i).map_or(0, |els| els.iter().take(grains).map(|e| element_cost(req, e)).sum())
                    }
                },
                truncated: grains < candidates,
            }
        })
        .collect()
}

/// Formats a RECALL result (`AS format`) and counts its tokens. The grain type of an empty
/// result is unknown here; [`render_recall_of`] takes the queried one.
pub fn render_recall(grains: &[GrainInput], format: FormatName, opts: &ProjectionOptions) -> (String, usize) {
    render_recall_of(None, grains, format, opts)
}

/// [`render_recall`] for a RECALL of `grain_type` (`RECALL beliefs …`; `None` when the query
/// names no type). The type matters only when no grain came back: TOON then prints the type's
/// header with `[0]` (`beliefs[0]{subject,content,confidence}:`), which decodes to an empty
/// array, rather than an empty document (§10.9.3 with N = 0).
pub fn render_recall_of(
    grain_type: Option<GrainType>,
    grains: &[GrainInput],
    format: FormatName,
    opts: &ProjectionOptions,
) -> (String, usize) {
    let text = if grains.is_empty() && format.resolve() == FormatName::Toon {
        formats::toon::empty_recall(grain_type, opts.disclosure, opts.project.as_ref())
    } else {
        let mut watch = Watch::default();
        let els: Vec<Element> = grains.iter().take_while(|_| watch.go()).map(|g| project(g, opts)).collect();
        formats::render(format, Doc::Recall(&els), opts)
    };
    let n = tokens::count(&text);
    (text, n)
}
