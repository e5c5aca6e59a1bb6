//! Progress bars (`indicatif`) for long work: `cal conformance run`, `cal mg pack` and
//! `cal store import`. Drawn on standard error only when it is a terminal; elsewhere (a
//! pipe, a file, CI) nothing is drawn, so output read by programs never changes.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar over `len` steps, or a hidden one when standard error is not a terminal or the
/// work is too small to need one (fewer than [`MIN_STEPS`] steps: it ends before a person
/// would read it).
pub fn bar(len: usize, what: &str) -> ProgressBar {
    if len < MIN_STEPS || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {prefix} {msg} ({eta} left)")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_prefix(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// The fewest steps worth a bar.
pub const MIN_STEPS: usize = 2;
