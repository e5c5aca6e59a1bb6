//! The one interface the runner drives: our toolchain in-process
//! ([`crate::inprocess::InProcess`]) and any engine behind the JSON-lines
//! protocol ([`crate::subprocess::Subprocess`]) both implement it, so every
//! case is run and judged through the same code.

use crate::case::QueryInput;
use crate::protocol::{Answer, Hello, Request};
use crate::raw::encode_hex;
use serde_json::{Map, Value};
use std::path::Path;

/// A CAL implementation under test.
pub trait Implementation {
    /// The `hello` exchange: name, version, declared level, configurable limits.
    fn hello(&mut self) -> Result<Hello, String>;

    /// How many requests have timed out so far (the runner gives up after
    /// several in a row); an implementation that cannot time out keeps 0.
    fn timeouts(&self) -> u64 {
        0
    }

    /// Answers one request. Never panics; failures are [`Answer::Errored`].
    fn request(&mut self, request: &Request) -> Answer;

    /// Lex, parse and statically check one query.
    fn parse(&mut self, query: &QueryInput) -> Answer {
        let request = match query {
            QueryInput::Text(t) => Request::Parse { query: Some(t.clone()), query_hex: None },
            QueryInput::Bytes(b) => match std::str::from_utf8(b) {
                Ok(t) => Request::Parse { query: Some(t.to_string()), query_hex: None },
                Err(_) => Request::Parse { query: None, query_hex: Some(encode_hex(b)) },
            },
        };
        self.request(&request)
    }

    /// text/cal → application/json+cal.
    fn serialize_text(&mut self, query: &str) -> Answer {
        self.request(&Request::Serialize { query: Some(query.to_string()), json: None })
    }

    /// application/json+cal → canonical text/cal.
    fn serialize_json(&mut self, json: &Value) -> Answer {
        self.request(&Request::Serialize { query: None, json: Some(json.clone()) })
    }

    /// Loads a fixture store under `name`.
    fn load_fixture(&mut self, name: &str, path: &Path) -> Answer {
        self.request(&Request::LoadFixture { name: name.to_string(), path: path.display().to_string() })
    }

    /// Runs a query against a loaded fixture.
    fn execute(
        &mut self,
        fixture: &str,
        query: &str,
        clock: &str,
        params: &Map<String, Value>,
        capability: Option<&str>,
    ) -> Answer {
        self.execute_in(fixture, query, clock, params, capability, &crate::case::Session::default())
    }

    /// Runs a query against a loaded fixture in a session: queries run first, deployment
    /// settings, a streamed delivery ([`crate::case::Session`]).
    fn execute_in(
        &mut self,
        fixture: &str,
        query: &str,
        clock: &str,
        params: &Map<String, Value>,
        capability: Option<&str>,
        session: &crate::case::Session,
    ) -> Answer {
        self.request(&Request::Execute {
            fixture: fixture.to_string(),
            query: query.to_string(),
            clock: clock.to_string(),
            params: params.clone(),
            capability: capability.map(str::to_string),
            session: session.clone(),
        })
    }

    /// Encodes a grain.
    fn mg_encode(&mut self, grain: &Value) -> Answer {
        self.request(&Request::MgEncode { grain: grain.clone() })
    }

    /// Decodes a blob given as hex.
    fn mg_decode(&mut self, hex: &str) -> Answer {
        self.request(&Request::MgDecode { hex: hex.to_string() })
    }
}
