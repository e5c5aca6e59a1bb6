//! Auto-TOON (§10.9.5): a server option that renders an ASSEMBLE as TOON instead of the
//! default format when its budget is under pressure, with warning CAL-W005.

use cal_grammar::{Code, Diagnostic, FormatName};
use cal_parser::ast::Assemble;
use cal_render::{AssembleRequest, Output, assemble::auto_toon_applies};

use crate::context::Ctx;

/// The message §10.9.5 gives for CAL-W005.
pub const W005_MESSAGE: &str = "FORMAT auto-selected as toon due to budget pressure (>85% utilization estimate). \
Specify FORMAT explicitly to suppress this warning.";

/// Switches `req` to TOON when the server enabled auto-TOON, the query wrote no FORMAT but did
/// write a BUDGET, every source returned one grain type, and the estimate of the default
/// output exceeds 85% of a token budget. Returns the format name to report when it switched,
/// after adding CAL-W005 (at the BUDGET clause) to the response's warnings.
pub fn select(cx: &mut Ctx<'_>, ast: &Assemble, req: &mut AssembleRequest) -> Option<String> {
    let budget = ast.budget.as_ref()?;
    if !cx.config.auto_toon || ast.format.is_some() || !auto_toon_applies(req) {
        return None;
    }
    req.output = Output::Format(FormatName::Toon);
    cx.stats.warn(
        Diagnostic::new(Code::W005, budget.span, W005_MESSAGE)
            .with_suggestion("Write FORMAT toon to keep TOON, or FORMAT markdown (or another) to keep that format."),
    );
    Some(FormatName::Toon.as_str().to_string())
}
