//! What the interpreter is configured with (per deployment) and what each
//! execution is given (per request): the injected clock, the user, the
//! parameter bindings.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use cal_checker::DefinedTemplate;
use cal_grammar::Code;
use cal_grammar::limits::{ASSEMBLE_TIMEOUT_MS, MAX_TEMPLATES, QUERY_TIMEOUT_MS};
use cal_parser::template::Template;
use serde_json::Value as Json;

use crate::audit::AuditSink;

/// Deployment settings: fixed for the life of an [`crate::Interpreter`].
#[derive(Debug, Clone)]
pub struct InterpConfig {
    /// Whether Tier 1 (ADD, SUPERSEDE, REVERT) is enabled for this request (§2.2): a Tier 1
    /// token on a store whose Tier 1 switch is off. The interpreter never writes: an evolve
    /// statement is refused with CAL-E044 either way, naming prepare/execute when this is true
    /// (the service layer performs it, §18.2).
    pub tier1_enabled: bool,
    /// Whether the store's Tier 1 kill switch is on (§20.3), for DESCRIBE capabilities.
    pub tier1_switched_off: bool,
    /// The capability token's namespace (§18.3). When set, every RECALL and
    /// HISTORY is confined to it, and any namespace written in the query
    /// (`IN "ns"`, `IN SCOPE`, `namespace = …`) is overwritten by it (§2.3).
    pub namespace: Option<String>,
    /// Query timeout (§17.3, CAL-E031).
    pub query_timeout_ms: u64,
    /// ASSEMBLE timeout (§8.2, CAL-E075).
    pub assemble_timeout_ms: u64,
    /// Name reported by `DESCRIBE server`.
    pub server_name: String,
    /// Where the audit entry of every execution goes (§21); none when `None`.
    pub audit: Option<Arc<dyn AuditSink>>,
    /// The key under which user ids are pseudonymized in audit entries (HMAC-SHA256).
    pub audit_key: Vec<u8>,
    /// DEFINE TEMPLATE registrations, per namespace (§10.6–§10.8). Session state, not memory:
    /// no grain is written. Cloning the config shares the registry, so interpreters of one
    /// deployment confined to different namespaces see one store of templates, each only its own.
    pub templates: Templates,
    /// Auto-TOON (§10.9.5), opt-in per server: an ASSEMBLE without FORMAT but with a BUDGET whose
    /// estimated utilization exceeds 85% and whose sources each return one grain type is
    /// rendered as TOON, with CAL-W005.
    pub auto_toon: bool,
    /// The store's semantic side (§16.4): its embedder and the vectors of its grains. With
    /// one, a `query =`, `LIKE` or ABOUT-fallback search ranks by BM25 and by vector
    /// similarity, fused (reciprocal rank fusion); without one, by BM25 alone.
    pub semantic: Option<Arc<cal_embed::Retriever>>,
}

/// The template registries of a deployment (§10.6–§10.8), one per namespace, shared by every
/// clone: DEFINE TEMPLATE's session state. Only a [`DefinedTemplate`] can be registered, so
/// every stored template passed the checker's define-time rules exactly once, whoever
/// registers it, and is rendered without being validated again.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    inner: Arc<Mutex<BTreeMap<String, BTreeMap<String, Template>>>>,
}

/// Why a namespace's registry refused a request, with the code to report: CAL-E085 (no
/// template of that name), E088 (the name is taken), E089 (the namespace holds 50).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryError {
    /// CAL-E085, E088 or E089.
    pub code: Code,
    /// What happened, as a sentence.
    pub message: String,
}

impl Templates {
    /// The registry key of a namespace: the token namespace, or `""` for an unconfined request.
    fn key(namespace: Option<&str>) -> String {
        namespace.unwrap_or_default().to_string()
    }

    /// Registers `def` under its name in `namespace`: CAL-E088 for a duplicate, CAL-E089 past
    /// 50 (§10.8). Returns how many templates the namespace holds afterwards.
    pub fn define(&self, namespace: Option<&str>, def: DefinedTemplate) -> Result<usize, RegistryError> {
        let mut map = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let reg = map.entry(Self::key(namespace)).or_default();
        let name = def.name();
        if reg.contains_key(name) {
            return Err(RegistryError { code: Code::E088, message: format!("Template `{name}` already exists.") });
        }
        if reg.len() >= MAX_TEMPLATES {
            let message = format!("This namespace already has {MAX_TEMPLATES} templates.");
            return Err(RegistryError { code: Code::E089, message });
        }
        reg.insert(name.to_string(), def.into_template());
        Ok(reg.len())
    }

    /// The template `name` of `namespace`, or CAL-E085 (templates of other namespaces are not seen).
    pub fn get(&self, namespace: Option<&str>, name: &str) -> Result<Template, RegistryError> {
        let map = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&Self::key(namespace))
            .and_then(|reg| reg.get(name))
            .cloned()
            .ok_or_else(|| RegistryError { code: Code::E085, message: format!("No template named `{name}`.") })
    }

    /// The names defined in `namespace`, sorted (`DESCRIBE templates`).
    pub fn names(&self, namespace: Option<&str>) -> Vec<String> {
        let map = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&Self::key(namespace)).map(|reg| reg.keys().cloned().collect()).unwrap_or_default()
    }
}

impl Default for InterpConfig {
    fn default() -> Self {
        InterpConfig {
            tier1_enabled: false,
            tier1_switched_off: false,
            namespace: None,
            query_timeout_ms: QUERY_TIMEOUT_MS,
            assemble_timeout_ms: ASSEMBLE_TIMEOUT_MS,
            server_name: "cal-interp (reference)".into(),
            audit: None,
            audit_key: Vec::new(),
            templates: Templates::default(),
            auto_toon: false,
            semantic: None,
        }
    }
}

/// How `duration_ms` is reported in the envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Timing {
    /// Measured with a monotonic clock (the default).
    #[default]
    Measured,
    /// Always this value: for byte-identical output across runs (§17.4 tests,
    /// `cal run --no-timing`). Timeouts are still enforced with a real clock.
    Fixed(u64),
}

/// Per-execution inputs. Same query + same store + same options ⇒ same bytes
/// (with [`Timing::Fixed`]).
#[derive(Debug, Clone, Default)]
pub struct ExecOptions {
    /// The injected clock: "now" in epoch milliseconds. Every time expression
    /// of the query ("last 7 days", "yesterday") is resolved against it.
    pub now_ms: i64,
    /// The user on whose behalf the query runs: `MY` and `$current_user_id` (§9.5).
    pub user: Option<String>,
    /// Bound `$parameters`, by name without `$`.
    pub params: serde_json::Map<String, Json>,
    /// How `duration_ms` is reported.
    pub timing: Timing,
    /// `next_cursor` of a previous response of the same query: return the next page.
    pub cursor: Option<String>,
    /// Which agent generated the query, for the audit entry (§21 `agent_id`).
    pub agent_id: Option<String>,
    /// Cancels the execution from elsewhere (the REPL's Ctrl-C): the query stops at its next
    /// look at the clock and answers CAL-E082 (docs/spec-decisions-cli.md, L7).
    pub cancel: Option<crate::stream::CancelToken>,
}

impl ExecOptions {
    /// Options with a fixed clock and fixed timing: reproducible output.
    pub fn fixed(now_ms: i64) -> Self {
        ExecOptions { now_ms, timing: Timing::Fixed(0), ..ExecOptions::default() }
    }
}
