//! A plain-text view of responses for people at a terminal (`cal run
//! --format text`, `cal repl`) of responses without formatted content (`cal
//! run` prints `formatted_context.text` / `formatted` when there is one). It is
//! not one of CAL's output formats (§10, cal-render): it shows one line per grain as the
//! `text` format projects it (§10.3.2), with its score and a short address, and the
//! envelope's counts in a footer.

use std::fmt::Write;

use cal_render::ProjectionOptions;
use cal_render::project::project;
use serde_json::Value as Json;

use crate::Response;

fn str_of(j: &Json) -> String {
    match j {
        Json::String(s) => s.clone(),
        Json::Array(items) => items.iter().map(str_of).collect::<Vec<_>>().join(", "),
        Json::Null => String::new(),
        other => other.to_string(),
    }
}

/// A grain as the `text` output format shows it (`[belief] alice prefers dark mode (0.92)`),
/// through the content layer's one projection; instants as RFC 3339, since a terminal view
/// has no request clock.
fn grain_line(g: &Json, score: f64) -> Option<String> {
    let grain = crate::fields::grain_input_from_json(g, score, "")?;
    let opts = ProjectionOptions { iso_timestamps: true, ..ProjectionOptions::default() };
    Some(cal_render::formats::text::element(&project(&grain, &opts)))
}

fn result_line(out: &mut String, indent: &str, r: &Json) {
    let g = r.get("grain").unwrap_or(&Json::Null);
    let addr = r.get("content_address").and_then(Json::as_str).map_or("", |a| a.get(..12).unwrap_or(a));
    let score = r.get("score").and_then(Json::as_f64).unwrap_or(0.0);
    // A whole OMS grain (a SELECT gives a map of the selected fields instead).
    let whole = g.get("type").is_some() && g.get("created_at").is_some();
    let line = if whole { grain_line(g, score) } else { None };
    let text = if let Some(line) = line {
        line
    } else if let Some(m) = g.as_object() {
        m.iter().map(|(k, v)| format!("{k}={}", str_of(v))).collect::<Vec<_>>().join("  ")
    } else {
        String::new()
    };
    let mut marks = String::new();
    if let Some(i) = r.get("index") {
        if i.get("superseded_by").is_some() {
            marks.push_str(" (superseded)");
        }
        if i.get("contradicted") == Some(&Json::Bool(true)) {
            marks.push_str(" (contradicted)");
        }
    }
    if let Some(c) = r.get("contradictions").and_then(|c| c.get("conflicts_with")).and_then(Json::as_array)
        && !c.is_empty()
    {
        let _ = write!(marks, " (conflicts with {})", c.len());
    }
    match r.get("version") {
        Some(v) => {
            let since = r.get("system_valid_from").map(str_of).unwrap_or_default();
            let _ = writeln!(out, "{indent}v{}  {since}  {text}{marks}  {addr}", str_of(v));
        }
        None => {
            let _ = writeln!(out, "{indent}{text}{marks}  {score:.2}  {addr}");
        }
    }
}

fn body(out: &mut String, indent: &str, j: &Json) {
    if let Some(e) = j.get("error") {
        let _ = writeln!(out, "{indent}error {}: {}", str_of(&e["code"]), str_of(&e["message"]));
        let _ = writeln!(out, "{indent}  help: {}", str_of(&e["suggestion"]));
        return;
    }
    let kind = j.get("statement_type").or_else(|| j.get("_cal").and_then(|c| c.get("statement_type")));
    match kind.and_then(Json::as_str).unwrap_or("") {
        "exists" => {
            let _ = writeln!(out, "{indent}exists: {}  {}", str_of(&j["exists"]), str_of(&j["content_address"]));
            return;
        }
        "explain" => {
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&j["plan"]).unwrap_or_default());
            return;
        }
        "describe" => {
            match j.get("grammar") {
                Some(g) => out.push_str(&str_of(g)),
                None => {
                    let mut m = j.clone();
                    if let Some(o) = m.as_object_mut() {
                        o.remove("_cal");
                        o.remove("statement_type");
                    }
                    let _ = writeln!(out, "{}", serde_json::to_string_pretty(&m).unwrap_or_default());
                }
            }
            return;
        }
        "batch" => {
            if let Some(slots) = j.get("results").and_then(Json::as_object) {
                for (label, slot) in slots {
                    let _ = writeln!(out, "{indent}{label}:");
                    body(out, &format!("{indent}  "), slot);
                }
            }
            return;
        }
        "assemble" => {
            for s in j.get("sources").and_then(Json::as_array).into_iter().flatten() {
                let _ = writeln!(out, "{indent}{} (priority {}):", str_of(&s["label"]), str_of(&s["priority"]));
                body(out, &format!("{indent}  "), s);
            }
            return;
        }
        _ => {}
    }
    if let Some(c) = j.get("count") {
        let _ = writeln!(out, "{indent}count: {}", str_of(c));
    }
    if let Some(vs) = j.get("values").and_then(Json::as_array) {
        for v in vs {
            let _ = writeln!(out, "{indent}{}", str_of(v));
        }
    }
    for g in j.get("groups").and_then(Json::as_array).into_iter().flatten() {
        let _ = writeln!(out, "{indent}{} ({}):", str_of(&g["key"]), str_of(&g["count"]));
        for r in g.get("results").and_then(Json::as_array).into_iter().flatten() {
            result_line(out, &format!("{indent}  "), r);
        }
    }
    for r in j.get("results").and_then(Json::as_array).into_iter().flatten() {
        result_line(out, indent, r);
    }
    if let Some(d) = j.get("diff") {
        for c in d.get("changes").and_then(Json::as_array).into_iter().flatten() {
            let _ = writeln!(out, "{indent}~ {}: {} → {}", str_of(&c["field"]), c["from"], c["to"]);
        }
    }
}

/// Renders a response as lines of text.
pub fn render(r: &Response) -> String {
    let mut out = String::new();
    body(&mut out, "", &r.json);
    let cal = &r.json["_cal"];
    let shown = r.json.get("results").and_then(Json::as_array).map(Vec::len);
    let mut footer = format!(
        "-- {}: {} store op(s), {} grain(s) scanned, {} ms",
        str_of(&cal["statement_type"]),
        str_of(&cal["store_ops"]),
        str_of(&cal["budget"]["grains_scanned"]),
        str_of(&cal["duration_ms"])
    );
    match (shown, r.json.get("total").and_then(Json::as_u64)) {
        (Some(n), Some(total)) if n > 0 => {
            let _ = write!(footer, "; {n} shown of {total}");
        }
        (Some(_), Some(total)) => {
            let _ = write!(footer, "; {total} matched");
        }
        _ => {}
    }
    if let Some(c) = r.json.get("next_cursor").and_then(Json::as_str) {
        let _ = write!(footer, "; next page: --cursor {c}");
    }
    let _ = writeln!(out, "{footer}");
    for n in cal.get("notes").and_then(Json::as_array).into_iter().flatten() {
        let _ = writeln!(out, "-- note: {}", str_of(n));
    }
    out
}
