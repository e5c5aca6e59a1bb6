//! A request as transports receive it: text (`text/cal`, or `application/json+cal` when it
//! is a JSON document, §15.4) and parameters, turned into the one query the service runs —
//! or the static diagnostics that refuse it. `cal run` and the server read requests the
//! same way through [`analyze`].

use cal_checker::Params;
use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Document, Query};

/// Whether `text` is the JSON form of a query or document rather than text/cal.
pub fn is_json_form(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') || t.starts_with('[')
}

/// Parses and checks a request's text with its parameters: the document (when it parsed),
/// and every diagnostic (errors and warnings).
pub fn analyze(text: &str, params: &Params) -> (Option<Document>, Vec<Diagnostic>) {
    if is_json_form(text) {
        match cal_parser::json::from_json_text(text) {
            Ok(doc) => {
                let d = cal_checker::check_document(&doc, Some(params));
                (Some(doc), d)
            }
            Err(d) => (None, d),
        }
    } else {
        let a = cal_checker::analyze(text, Some(params));
        (a.document, a.diagnostics)
    }
}

/// The one query of a request, or the diagnostics that refuse it: the static errors;
/// CAL-E014 for a request with no query; CAL-E002 at the `;` that starts a second one (a
/// request is one query — BATCH runs several — so the separator is an unexpected token
/// here). Warnings are returned with the query.
pub fn one_query(text: &str, params: &Params) -> Result<(Query, Vec<Diagnostic>), Vec<Diagnostic>> {
    let max = cal_grammar::limits::MAX_QUERY_BYTES;
    if !is_json_form(text) && text.len() > max {
        // A request is one query, so its text is the query whose length §17.3 bounds; the
        // check comes before any token (Prelex), whatever else is wrong with the text.
        return Err(vec![
            Diagnostic::new(
                Code::E001,
                Span::new(max, text.len()),
                format!("The query is {} bytes; at most {max} are allowed (§17.3).", text.len()),
            )
            .with_suggestion("Shorten the query: bind long values as $parameters, or split it into several requests."),
        ]);
    }
    let (doc, diagnostics) = analyze(text, params);
    if diagnostics.iter().any(Diagnostic::is_error) {
        // As §17.1's pipeline reports them: a text the parser refused is not validated.
        let refusing = cal_checker::as_pipeline_reports(&diagnostics);
        return Err(refusing.into_iter().filter(|d| d.is_error()).cloned().collect());
    }
    let mut queries = doc.map(|d| d.queries).unwrap_or_default();
    match queries.len() {
        1 => Ok((queries.remove(0), diagnostics)),
        0 => Err(vec![
            Diagnostic::new(Code::E014, Span::default(), "The request holds no query.")
                .with_suggestion("Send one CAL query, e.g. RECALL beliefs ABOUT \"alice\"."),
        ]),
        _ => {
            let second = queries[1].span;
            let at = Span::new(queries[0].span.end as usize, second.start as usize);
            Err(vec![
                Diagnostic::new(Code::E002, at, "Unexpected `;`: a request holds exactly one query.")
                    .with_suggestion("Send one query per request; BATCH { a: …, b: … } runs several at once."),
            ])
        }
    }
}

/// The response to a request refused before it was a query (its text did not parse or
/// check): the §14.1 envelope with the §22.1 error object and nothing else. The server
/// answers it (with status 400), and `cal run`, `explain` and `prepare` print it for each
/// query of a document that fails statically, so a program reads the same object from both.
pub fn refusal(statement_type: &'static str, tier: u8, d: Diagnostic) -> cal_interp::Response {
    let json = serde_json::json!({
        "_cal": { "version": cal_interp::CAL_VERSION, "tier": tier },
        "error": cal_interp::diagnostic_json(&d),
    });
    cal_interp::Response { statement_type, json, error: Some(d), warnings: Vec::new() }
}

/// Static warnings (from checking the request) join the run's own in `_cal.warnings`,
/// without duplicates, so a response carries every warning once.
pub fn merge_warnings(response: &mut serde_json::Value, warnings: &[Diagnostic]) {
    let warnings: Vec<serde_json::Value> =
        warnings.iter().filter(|d| !d.is_error()).map(cal_interp::diagnostic_json).collect();
    if warnings.is_empty() {
        return;
    }
    let Some(cal) = response.get_mut("_cal").and_then(serde_json::Value::as_object_mut) else { return };
    let list = cal.entry("warnings").or_insert_with(|| serde_json::Value::Array(Vec::new()));
    if let serde_json::Value::Array(items) = list {
        for w in warnings {
            if !items.iter().any(|i| i.get("code") == w.get("code")) {
                items.push(w);
            }
        }
    }
}
