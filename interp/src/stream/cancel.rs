//! Cancelling a streamed ASSEMBLE from outside the sink (§11.5: a closed connection, a
//! `DELETE …/stream/{assembly_id}`, a WebSocket `cancel` action).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Debug, Default)]
struct Inner {
    cancelled: AtomicBool,
    reason: Mutex<Option<String>>,
}

/// A shared flag: clone it, hand one clone to the interpreter and call [`CancelToken::cancel`]
/// on another. The assembly stops at its next checkpoint (between sources, phases or chunks).
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        CancelToken::default()
    }

    /// Requests cancellation; the first reason given is kept.
    pub fn cancel(&self, reason: impl Into<String>) {
        let mut r = self.inner.reason.lock().unwrap_or_else(PoisonError::into_inner);
        if r.is_none() {
            *r = Some(reason.into());
        }
        self.inner.cancelled.store(true, Ordering::SeqCst);
    }

    /// Whether cancellation was requested.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// The reason given, once cancelled.
    pub fn reason(&self) -> Option<String> {
        self.inner.reason.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clones_share_the_flag_and_the_first_reason() {
        let t = super::CancelToken::new();
        let other = t.clone();
        assert!(!t.is_cancelled() && t.reason().is_none());
        other.cancel("client closed the connection");
        other.cancel("second reason");
        assert!(t.is_cancelled());
        assert_eq!(t.reason().as_deref(), Some("client closed the connection"));
    }
}
