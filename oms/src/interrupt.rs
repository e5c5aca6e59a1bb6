//! A deadline for the store's own loops (issue 19: a 5,000 ms query timeout fired only
//! after 9–22 s, because scoring and sorting 100,000 grains ran to the end before the
//! interpreter looked at the clock again).
//!
//! The caller that has a deadline (the CAL interpreter: §17.3's query and ASSEMBLE
//! timeouts) sets it for the current thread with [`within`] around its store calls; loops
//! whose work grows with the store ask [`Ticker::tick`] as they go, which reads the clock
//! once every [`EVERY`] iterations, and give up with [`OmsError::Interrupted`]. Without a
//! deadline set, nothing is ever interrupted. A thread-local rather than a parameter keeps
//! every store signature (and its other callers) as it was.

use crate::error::OmsError;
use std::cell::Cell;
use std::time::Instant;

/// How many iterations pass between two looks at the clock: a few microseconds of work.
pub const EVERY: u32 = 1024;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The deadline set by [`within`], restored to what it was when dropped.
#[must_use = "the deadline holds only while the scope lives"]
pub struct Scope {
    before: Option<Instant>,
}

impl Drop for Scope {
    fn drop(&mut self) {
        DEADLINE.set(self.before);
    }
}

/// Sets `deadline` for this thread's store loops until the returned scope is dropped.
pub fn within(deadline: Instant) -> Scope {
    Scope { before: DEADLINE.replace(Some(deadline)) }
}

/// Whether this thread's deadline, if any, has passed.
pub fn expired() -> bool {
    DEADLINE.get().is_some_and(|d| Instant::now() >= d)
}

/// Counts a loop's iterations and looks at the clock every [`EVERY`].
#[derive(Debug, Default)]
pub struct Ticker {
    n: u32,
}

impl Ticker {
    /// One more iteration: `Err(Interrupted)` once the deadline has passed.
    #[inline]
    pub fn tick(&mut self) -> Result<(), OmsError> {
        self.n = self.n.wrapping_add(1);
        if self.n.is_multiple_of(EVERY) && expired() {
            return Err(OmsError::Interrupted);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_passed_deadline_interrupts_within_one_round_and_the_scope_restores() {
        let mut t = Ticker::default();
        assert!((0..10 * EVERY).all(|_| t.tick().is_ok()), "no deadline, no interruption");
        {
            let _s = within(Instant::now() - Duration::from_millis(1));
            let mut t = Ticker::default();
            let stopped = (0..10 * EVERY).position(|_| t.tick().is_err());
            assert_eq!(stopped, Some(EVERY as usize - 1));
        }
        assert!(!expired());
    }
}
