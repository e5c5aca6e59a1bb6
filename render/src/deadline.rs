//! The query's deadline inside rendering (issue 19: timeouts within 10%).
//!
//! Formatting, budget fitting and token counting grow with the result (up to 8,000 grains
//! in an ASSEMBLE, each re-render of a token budget counting the whole text again), and
//! they ran to the end whatever the query's time limit. The interpreter sets the deadline
//! for its thread with `oms::interrupt::within`; the loops here look at it as the store's
//! loops do and stop early. What they return then is incomplete and is never shown: the
//! interpreter checks its deadline after every render call and answers CAL-E031 (E075 for
//! ASSEMBLE). Without a deadline set (tests, tools), nothing stops.

use oms::interrupt::Ticker;

/// Counts the iterations of a per-grain or per-piece loop and looks at the clock every
/// `oms::interrupt::EVERY`.
#[derive(Debug, Default)]
pub(crate) struct Watch(Ticker);

impl Watch {
    /// One more iteration: `false` once the deadline has passed.
    #[inline]
    pub(crate) fn go(&mut self) -> bool {
        self.0.tick().is_ok()
    }
}

/// Whether the deadline has passed: asked once per round of a loop whose every round
/// renders and counts a whole text (ASSEMBLE's budget fitting).
pub(crate) fn expired() -> bool {
    oms::interrupt::expired()
}
