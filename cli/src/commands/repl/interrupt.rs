//! Ctrl-C while a query runs: the query is cancelled and the prompt comes back.
//!
//! While the line editor reads, the terminal is in raw mode and Ctrl-C is a key (it drops
//! the entry being typed). While a query runs, the terminal is back in its usual mode and
//! Ctrl-C is SIGINT, which would end the process. [`Interrupt`] catches SIGINT for the
//! whole session (`signal-hook`'s iterator, on a thread of its own) and, when a query is
//! running, cancels it through its [`CancelToken`] (`ExecOptions::cancel`): the
//! interpreter stops at its next look at the clock and answers CAL-E082.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use cal_interp::stream::CancelToken;
use signal_hook::consts::SIGINT;
use signal_hook::iterator::{Handle, Signals};

/// The SIGINT catcher of an interactive session; dropping it stops the catching thread.
pub struct Interrupt {
    /// The token of the query running now, if one is.
    running: Arc<Mutex<Option<CancelToken>>>,
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl Interrupt {
    /// Starts catching SIGINT. From now on Ctrl-C outside a query does nothing.
    pub fn install() -> std::io::Result<Interrupt> {
        let mut signals = Signals::new([SIGINT])?;
        let handle = signals.handle();
        let running: Arc<Mutex<Option<CancelToken>>> = Arc::default();
        let shared = running.clone();
        let thread = std::thread::Builder::new().name("repl-sigint".into()).spawn(move || {
            for _ in signals.forever() {
                if let Some(token) = shared.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
                    token.cancel("interrupted with Ctrl-C");
                }
            }
        })?;
        Ok(Interrupt { running, handle, thread: Some(thread) })
    }

    /// A fresh token for the query about to run; Ctrl-C cancels it until [`Interrupt::finish`].
    pub fn start(&self) -> CancelToken {
        let token = CancelToken::new();
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) = Some(token.clone());
        token
    }

    /// The query is over: Ctrl-C no longer cancels anything.
    pub fn finish(&self) {
        *self.running.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
