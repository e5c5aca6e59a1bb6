//! When diagnostics follow an edit (issue 20). A fixed quiet period made every edit wait
//! 120 ms, although analyzing a 2,000-line document takes a few milliseconds. The delay is
//! now adaptive: the server remembers what the last analysis of each document cost per byte,
//! predicts the next one from the current length, and analyzes at once when that prediction
//! is cheap; otherwise it waits for a quiet period so that a burst of keystrokes costs one
//! analysis. Both thresholds are settings ([`Config`]): from `cal lsp` flags and from the
//! client's `initializationOptions` (`debounceMs`, `immediateBelowMs`).

use serde_json::Value;
use std::time::Duration;

/// How long after the last change an expensive document is analyzed.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(120);

/// A document whose next analysis is predicted to take less than this is analyzed at once.
/// 15 ms keeps edit-to-diagnostics under 20 ms on the 2,000-line document of the benchmark
/// (about 4–9 ms of analysis there) while a document ten times as big is debounced.
pub const DEFAULT_IMMEDIATE_BELOW: Duration = Duration::from_millis(15);

/// The longest delay a setting may ask for: a larger value is clamped to it, so that a
/// mistyped setting cannot make diagnostics appear never.
pub const MAX_SETTING: Duration = Duration::from_secs(10);

/// Server settings: when diagnostics are computed after a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Quiet period before analyzing a changed document whose analysis is expensive.
    pub debounce: Duration,
    /// Predicted analysis time under which a change is analyzed at once, with no quiet
    /// period; [`Duration::ZERO`] turns the adaptive path off (always debounce).
    pub immediate_below: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config { debounce: DEFAULT_DEBOUNCE, immediate_below: DEFAULT_IMMEDIATE_BELOW }
    }
}

/// What the last analysis of a document cost, to predict the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Wall time of the analysis.
    pub took: Duration,
    /// Length of the text it analyzed, in bytes.
    pub bytes: usize,
}

impl Cost {
    /// The predicted time to analyze `bytes` bytes: analysis is linear in the text, so the
    /// last cost scaled by the change in length (a paste of a huge text is predicted huge).
    pub fn predict(&self, bytes: usize) -> Duration {
        let per_byte = self.took.as_secs_f64() / self.bytes.max(1) as f64;
        Duration::try_from_secs_f64(per_byte * bytes.max(1) as f64).unwrap_or(Duration::MAX)
    }
}

impl Config {
    /// The delay before analyzing a document of `bytes` bytes whose last analysis cost
    /// `last` (`None`: never analyzed, so debounced). Zero means "analyze now".
    pub fn delay(&self, last: Option<Cost>, bytes: usize) -> Duration {
        match last {
            Some(c) if c.predict(bytes) < self.immediate_below => Duration::ZERO,
            _ => self.debounce,
        }
    }

    /// These settings overridden by the client's `initializationOptions`: `debounceMs` and
    /// `immediateBelowMs`, non-negative integers of milliseconds (clamped to
    /// [`MAX_SETTING`]). Anything else, a missing key or a value of another type leaves the
    /// setting as it was (docs/spec-decisions-lsp.md L1).
    pub fn with_options(mut self, options: Option<&Value>) -> Config {
        let ms = |key: &str| {
            options
                .and_then(|o| o.get(key))
                .and_then(Value::as_u64)
                .map(|ms| Duration::from_millis(ms).min(MAX_SETTING))
        };
        if let Some(d) = ms("debounceMs") {
            self.debounce = d;
        }
        if let Some(d) = ms("immediateBelowMs") {
            self.immediate_below = d;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn cheap_documents_are_analyzed_at_once_and_expensive_ones_debounced() {
        let c = Config::default();
        let four_ms_for_80k = Cost { took: 4 * MS, bytes: 80_000 };
        assert_eq!(c.delay(Some(four_ms_for_80k), 80_001), Duration::ZERO);
        // Ten times the text: predicted 40 ms, debounced.
        assert_eq!(c.delay(Some(four_ms_for_80k), 800_000), DEFAULT_DEBOUNCE);
        // Never analyzed: debounced.
        assert_eq!(c.delay(None, 10), DEFAULT_DEBOUNCE);
        // The adaptive path off.
        let fixed = Config { immediate_below: Duration::ZERO, ..c };
        assert_eq!(fixed.delay(Some(Cost { took: Duration::ZERO, bytes: 1 }), 1), DEFAULT_DEBOUNCE);
    }

    #[test]
    fn initialization_options_override_what_they_name() {
        let c = Config::default();
        assert_eq!(c.with_options(None), c);
        assert_eq!(c.with_options(Some(&json!({"debounceMs": 0}))), Config { debounce: Duration::ZERO, ..c });
        let both = c.with_options(Some(&json!({"debounceMs": 50, "immediateBelowMs": 0})));
        assert_eq!(both, Config { debounce: 50 * MS, immediate_below: Duration::ZERO });
        // Wrong types and negative numbers are ignored; huge values are clamped.
        let odd = c.with_options(Some(&json!({"debounceMs": "50", "immediateBelowMs": -1})));
        assert_eq!(odd, c);
        assert_eq!(c.with_options(Some(&json!({"debounceMs": u64::MAX}))).debounce, MAX_SETTING);
        assert_eq!(c.with_options(Some(&json!([1, 2]))), c);
    }
}
