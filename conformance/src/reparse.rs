//! Canonical text compared by what it means, not how it is laid out: CAL §15.3 promises
//! `parse(serialize(parse(text))) == parse(text)` and "whitespace may differ", and §1.2 says
//! neither form is canonical, so no byte layout can be required of an engine. Two texts are
//! the same query when our reference parser reads them as the same tree (compared through
//! the JSON form, which carries the whole tree and no layout).

use serde_json::Value;

/// The tree of a text as its JSON form, or `None` when it does not parse cleanly.
pub fn tree(text: &str) -> Option<Value> {
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return None;
    }
    parsed.ast.map(|doc| cal_parser::json::document_to_json(&doc))
}

/// Whether `actual` reads back as the same tree as `expected` (both must parse).
pub fn same_tree(expected: &str, actual: &str) -> bool {
    expected == actual || matches!((tree(expected), tree(actual)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_comments_do_not_matter_but_content_does() {
        let canonical = "RECALL beliefs\nWHERE subject = \"alice\"\n| LIMIT 5";
        assert!(same_tree(canonical, "RECALL beliefs WHERE subject = \"alice\" | LIMIT 5"));
        assert!(same_tree(canonical, "recall beliefs -- note\n  where subject = \"alice\" | limit 5"));
        assert!(!same_tree(canonical, "RECALL beliefs WHERE subject = \"bob\" | LIMIT 5"));
        assert!(!same_tree(canonical, "RECALL beliefs WHERE subject = \"alice\" | LIMIT 6"));
        assert!(!same_tree(canonical, "RECALL beliefs WHERE"), "a text that does not parse is never the same");
    }
}
