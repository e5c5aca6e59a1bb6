//! `application/json+cal`: the JSON wire form of CAL (§15), both directions.
//!
//! The mapping is flat and keyed by clause: a RECALL is one object whose keys
//! are its clauses (`grain_type`, `about`, `where`, …), present only when the
//! clause is. The output for the example of §15.2 is exactly the spec's JSON;
//! every other construct follows the same style (docs/json-form.md).
//!
//! * [`query_to_json`] / [`document_to_json`] are total functions of the AST.
//! * [`query_from_json`] / [`document_from_json`] / [`from_json_text`] first
//!   validate against the published JSON Schema ([`SCHEMA`], draft 2020-12), then
//!   build the tree. They never panic: every problem is a [`Diagnostic`] whose
//!   message names the JSON pointer of the offending value.
//!
//! Both round trips of §15.3 hold: text → JSON → text and JSON → text → JSON give
//! back what they started from. Trees built from JSON carry empty spans.

mod decode;
mod encode;
mod names;
mod read;
mod schema;

use crate::ast::{Document, Query, Statement};
use cal_grammar::Diagnostic;
use serde_json::Value;

pub use read::{MAX_QUERY_VALUES, ReadError, ReadLimits, read_document, read_each, read_value};
pub use schema::{SCHEMA, SCHEMA_ID, schema, validate};

/// The JSON form of one query: `cal_version` (only when `CAL/n` was written),
/// `lets`, `statement` and the statement's keys.
pub fn query_to_json(query: &Query) -> Value {
    encode::query(query)
}

/// The JSON form of a document: the query's object when there is exactly one
/// query, otherwise an array of query objects.
pub fn document_to_json(document: &Document) -> Value {
    match document.queries.as_slice() {
        [one] => encode::query(one),
        many => Value::Array(many.iter().map(encode::query).collect()),
    }
}

/// The JSON form of one statement, as it appears nested in another (a set
/// operand, the target of EXPLAIN): `statement` and its keys.
pub fn statement_to_json(statement: &Statement) -> Value {
    encode::statement(statement)
}

/// Structural fingerprint of a query, spans ignored: two trees are equal up to
/// spans exactly when their fingerprints are equal (the JSON form is bijective).
pub fn to_value(query: &Query) -> Value {
    encode::query(query)
}

/// Builds one query from its JSON form after validating it against the schema.
/// An array is rejected: use [`document_from_json`] for documents.
pub fn query_from_json(json: &Value) -> Result<Query, Vec<Diagnostic>> {
    validate_all(json)?;
    decode::query_only(json)
}

/// CAL-E001 for a query whose text form would exceed §17.3's 8,192 bytes: a JSON *request* is
/// bound by the same limit as the text it stands for (docs/json-form.md "Limits"), so a
/// 100,000-condition query cannot ride in as JSON. Decoding itself stays total.
fn too_long(q: &Query) -> Option<Diagnostic> {
    let max = cal_grammar::limits::MAX_QUERY_BYTES;
    let n = crate::print::query_to_one_line(q).len();
    (n > max).then(|| {
        Diagnostic::new(
            cal_grammar::Code::E001,
            q.span,
            format!("This query is {n} bytes as text/cal; at most {max} are allowed (§17.3), in either form."),
        )
        .with_suggestion("Shorten the query: bind long value lists as $parameters, or split it.")
    })
}

/// Builds a document from a query object (one query) or an array of them,
/// after validating it against the schema.
pub fn document_from_json(json: &Value) -> Result<Document, Vec<Diagnostic>> {
    validate_all(json)?;
    decode::document(json)
}

/// Reads `application/json+cal` text: a query object or an array of them.
/// Invalid JSON is CAL-E002 at the position serde_json reports; schema
/// violations are CAL-E002 naming the JSON pointer; then as [`document_from_json`].
/// Read in bounded memory ([`read_document`] with the default limits): a query of more
/// than [`MAX_QUERY_VALUES`] values is CAL-E001 before the rest is read.
pub fn from_json_text(text: &str) -> Result<Document, Vec<Diagnostic>> {
    match read_document(text, &ReadLimits::default()) {
        Ok(doc) => Ok(doc),
        Err(ReadError::Refused(diagnostics)) => Err(diagnostics),
        // Unreachable with no limit on the number of queries; refused all the same.
        Err(ReadError::TooManyQueries(n)) => Err(vec![Diagnostic::new(
            cal_grammar::Code::E002,
            cal_grammar::Span::default(),
            format!("The document holds {n} queries, more than this reader takes."),
        )]),
    }
}

fn validate_all(json: &Value) -> Result<(), Vec<Diagnostic>> {
    let errors = validate(json);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}
