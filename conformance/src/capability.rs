//! What a case needs from the engine *besides* the CAL behaviour it tests: ways for the
//! runner to set a case up and read its answer. An engine that lacks one says so in `hello`
//! (`"capabilities": {"clock": false}`); every case that needs it is then reported as *not
//! applicable*, with the reason, instead of failing (docs/spec-decisions-conformance.md C20).
//! The certificate says what it was earned without.

use crate::case::{Body, Case, Flag};
use std::collections::HashMap;
use std::path::Path;

/// One capability the protocol may ask of an engine (PROTOCOL.md "Capabilities").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    /// Time expressions resolve against the `clock` of the execute request (an injectable "now").
    Clock,
    /// `$parameters` are bound from the execute request's `params`.
    Params,
    /// The execute request's `capability` token confines the query (namespace, user, tier).
    CapabilityToken,
    /// Without a capability token, a query sees every namespace of the fixture store.
    AllNamespaces,
    /// Results carry OMS 1.3 content addresses (SHA-256 of the canonical blob), the ones the
    /// cases expect.
    OmsAddresses,
    /// The execute request's `setup` queries run first in the same session (DEFINE TEMPLATE).
    Session,
    /// The execute request's `settings` apply to it: timeouts (§17.3) and auto-TOON (§10.9.5).
    Settings,
    /// The execute request's `stream`: the ASSEMBLE's events are delivered and the assembly
    /// cancelled after the given number of them (§11).
    Streaming,
    /// The execute request's `then` queries run after the query in the same session and their
    /// responses come back: how a write made by the query itself is read back (ruling C23).
    FollowUp,
    /// The execute request's `http`: the query goes through the engine's HTTP binding (§11.3,
    /// §26) in the way described, for the transport codes CAL-E079 and E081 (ruling C24).
    Http,
    /// `query =`, `LIKE` and `ABOUT` find grains written in another language (§16.4): the
    /// engine has multilingual embeddings. Offered only when declared `true` (opt-in): it needs
    /// a model the engine brings, which the protocol cannot hand over.
    CrossLingualSearch,
    /// The engine loads a store holding grains whose payload is encrypted (OMS §3.1.1 flag
    /// bit 1, §20.2) without their key, names them by address, and reports CAL-E080 where one
    /// would be formatted (ruling C27).
    EncryptedGrains,
}

impl Capability {
    /// Every capability, in the order PROTOCOL.md lists them.
    pub const ALL: [Capability; 12] = [
        Capability::Clock,
        Capability::Params,
        Capability::CapabilityToken,
        Capability::AllNamespaces,
        Capability::OmsAddresses,
        Capability::Session,
        Capability::Settings,
        Capability::Streaming,
        Capability::FollowUp,
        Capability::Http,
        Capability::CrossLingualSearch,
        Capability::EncryptedGrains,
    ];

    /// Whether the capability counts as offered only when `hello` declares it `true` (every
    /// other one is offered unless declared `false`).
    pub fn opt_in(self) -> bool {
        self == Capability::CrossLingualSearch
    }

    /// The name used in `hello`'s `capabilities`.
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Clock => "clock",
            Capability::Params => "params",
            Capability::CapabilityToken => "capability_token",
            Capability::AllNamespaces => "all_namespaces",
            Capability::OmsAddresses => "oms_addresses",
            Capability::Session => "session",
            Capability::Settings => "settings",
            Capability::Streaming => "streaming",
            Capability::FollowUp => "follow_up",
            Capability::Http => "http",
            Capability::CrossLingualSearch => "cross_lingual_search",
            Capability::EncryptedGrains => "encrypted_grains",
        }
    }

    /// Reads a name of `hello`'s `capabilities`.
    pub fn parse(name: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// What the capability is, for the reason a case is not applicable.
    pub fn what(self) -> &'static str {
        match self {
            Capability::Clock => "an injectable clock (the request's `clock`)",
            Capability::Params => "`$parameter` binding from the request's `params`",
            Capability::CapabilityToken => "capability tokens (the request's `capability`)",
            Capability::AllNamespaces => "every namespace visible without a capability token",
            Capability::OmsAddresses => "OMS 1.3 content addresses in results",
            Capability::Session => "setup queries run first in the same session (the request's `setup`)",
            Capability::Settings => "deployment settings per request (the request's `settings`)",
            Capability::Streaming => {
                "streamed delivery of an ASSEMBLE's events, with cancellation (the request's `stream`)"
            }
            Capability::FollowUp => "queries run after the query in the same session (the request's `then`)",
            Capability::Http => "the engine's HTTP binding, §11.3 and §26 (the request's `http`)",
            Capability::CrossLingualSearch => "cross-lingual search with multilingual embeddings (§16.4)",
            Capability::EncryptedGrains => "a store holding grains with encrypted payloads (OMS §3.1.1, §20.2)",
        }
    }
}

/// The tag of the cases that need [`Capability::CrossLingualSearch`].
pub const CROSS_LINGUAL_TAG: &str = "cross-lingual";

/// The tag of the cases that need [`Capability::EncryptedGrains`].
pub const ENCRYPTED_TAG: &str = "encrypted";

/// How many namespaces each fixture store holds (read once per fixture), to tell which cases
/// rely on a query seeing all of them.
#[derive(Debug, Default)]
pub struct FixtureNamespaces {
    dir: std::path::PathBuf,
    counts: HashMap<String, usize>,
}

impl FixtureNamespaces {
    /// For the fixtures under `dir`.
    pub fn new(dir: &Path) -> Self {
        FixtureNamespaces { dir: dir.to_path_buf(), counts: HashMap::new() }
    }

    /// The number of distinct namespaces in fixture `name` (0 when it cannot be read).
    pub fn count(&mut self, name: &str) -> usize {
        let dir = &self.dir;
        *self.counts.entry(name.to_string()).or_insert_with(|| namespaces_in(&dir.join(format!("{name}.mg"))))
    }
}

fn namespaces_in(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else { return 0 };
    let Ok(store) = oms::store::Store::load(&bytes, oms::store::StoreConfig::default()) else { return 0 };
    let names: std::collections::BTreeSet<String> = store
        .addresses()
        .iter()
        .filter_map(|a| store.peek(a))
        .filter_map(|s| s.grain().namespace().map(str::to_string))
        .collect();
    names.len()
}

/// The capabilities a case needs (none for parse, wire and mg cases: they only need the
/// requests of their kind).
pub fn needs(case: &Case, namespaces: &mut FixtureNamespaces) -> Vec<Capability> {
    let Body::Execute(e) = &case.body else { return Vec::new() };
    let mut out = Vec::new();
    if case.has_flag(Flag::NeedsClock) {
        out.push(Capability::Clock);
    }
    if !e.params.is_empty() {
        out.push(Capability::Params);
    }
    match &e.capability {
        Some(_) => out.push(Capability::CapabilityToken),
        None if namespaces.count(&e.fixture) > 1 => out.push(Capability::AllNamespaces),
        None => {}
    }
    if e.expect.results.as_ref().is_some_and(|r| !r.is_empty()) {
        out.push(Capability::OmsAddresses);
    }
    if !e.session.setup.is_empty() {
        out.push(Capability::Session);
    }
    if !e.session.settings.is_empty() {
        out.push(Capability::Settings);
    }
    if e.session.stream.is_some() {
        out.push(Capability::Streaming);
    }
    if !e.session.then.is_empty() || e.expect.store_change.is_some() {
        out.push(Capability::FollowUp);
    }
    if e.session.http.is_some() {
        out.push(Capability::Http);
    }
    if case.tags.iter().any(|t| t == CROSS_LINGUAL_TAG) {
        out.push(Capability::CrossLingualSearch);
    }
    if case.tags.iter().any(|t| t == ENCRYPTED_TAG) {
        out.push(Capability::EncryptedGrains);
    }
    out
}
