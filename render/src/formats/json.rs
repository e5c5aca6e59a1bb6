//! JSON, the `data` preset: the projected elements as structured data
//! (`type`, `content`, then the attributes), pretty-printed with two-space
//! indentation. It carries the content layer only; the machine envelope
//! (§14.1) is the interpreter's, not this format's.

use serde_json::{Map, Value};

use super::Doc;
use crate::project::Element;

/// One element as a JSON object.
pub fn element(el: &Element) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), el.tag.clone().into());
    m.insert("content".into(), el.content.clone().into());
    for a in &el.attrs {
        m.insert(a.name.clone(), a.value.to_json());
    }
    Value::Object(m)
}

/// The document as a JSON value (shared with the YAML format).
pub fn value(doc: Doc<'_>) -> Value {
    match doc {
        Doc::Recall(els) => Value::Array(els.iter().map(element).collect()),
        Doc::Assemble(a) => {
            let mut m = Map::new();
            m.insert("context".into(), a.name.clone().into());
            if let Some(i) = &a.intent {
                m.insert("intent".into(), i.clone().into());
            }
            let sources = a
                .sources
                .iter()
                .map(|s| {
                    let mut o = Map::new();
                    o.insert("label".into(), s.label.clone().into());
                    o.insert("grains".into(), Value::Array(s.elements.iter().map(element).collect()));
                    Value::Object(o)
                })
                .collect();
            m.insert("sources".into(), Value::Array(sources));
            Value::Object(m)
        }
    }
}

/// Renders a document.
pub fn render(doc: Doc<'_>) -> String {
    serde_json::to_string_pretty(&value(doc)).unwrap_or_default()
}
