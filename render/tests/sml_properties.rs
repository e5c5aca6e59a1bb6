//! SML's structural rules as properties (§10.4, §14.2): whatever the grains and the intent
//! hold, the output is one `<context …>` envelope, then flat elements (no element inside
//! another, one per grain, no group wrappers), with attribute values and text escaped so that
//! no grain text can open or close a tag.

use cal_grammar::FormatName;
use cal_render::{
    AssembleRequest, Budget, BudgetUnit, Disclosure, GrainInput, Output, ProjectionOptions, SourceInput, assemble,
};
use proptest::prelude::*;
use serde_json::json;

/// Text with every character SML must neutralise, plus ordinary words.
fn nasty() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("<".to_string()),
            Just(">".to_string()),
            Just("&".to_string()),
            Just("\"".to_string()),
            Just("'".to_string()),
            Just("</context>".to_string()),
            Just("<belief x=\"y\">".to_string()),
            Just("&amp;".to_string()),
            Just(" ".to_string()),
            "[a-zA-Zé0-9 ,:;=/-]{1,8}",
        ],
        0..8,
    )
    .prop_map(|v| v.concat())
}

fn grain(kind: u8, a: String, b: String, c: String) -> GrainInput {
    let v = match kind % 5 {
        0 => json!({"type": "belief", "subject": a, "relation": format!("mg:{b}"), "object": c, "confidence": 0.5}),
        1 => json!({"type": "event", "role": a, "content": c}),
        2 => json!({"type": "goal", "subject": a, "object": c, "description": c, "goal_state": "active"}),
        3 => json!({"type": "action", "tool_name": a, "action_phase": b, "object": c}),
        _ => json!({"type": "consent", "is_withdrawal": false, "subject_did": a, "grantee_did": b, "purpose": c}),
    };
    cal_interp::fields::grain_input_from_json(&v, 1.0, "sha256:00").expect("a grain")
}

/// Checks an attribute value or text: no raw `<`, `>` (and no `"` in attributes); every `&`
/// starts one of the entities SML writes.
fn escaped(s: &str, attr: bool) -> bool {
    let entities = ["&amp;", "&lt;", "&gt;", "&quot;"];
    let forbidden: &[char] = if attr { &['<', '>', '"'] } else { &['<', '>'] };
    !s.contains(forbidden) && s.match_indices('&').all(|(i, _)| entities.iter().any(|e| s[i..].starts_with(e)))
}

/// Parses one element `<tag a="v" …>text</tag>` from the start of `s`; returns the rest.
fn element(s: &str) -> Result<&str, String> {
    let s = s.strip_prefix('<').ok_or("element does not start with <")?;
    let tag_end = s.find([' ', '>']).ok_or("unterminated tag")?;
    let tag = &s[..tag_end];
    if tag.is_empty() || tag == "context" || !tag.chars().all(|c| c.is_ascii_lowercase()) {
        return Err(format!("bad element name {tag:?}"));
    }
    let mut rest = &s[tag_end..];
    while let Some(r) = rest.strip_prefix(' ') {
        let eq = r.find("=\"").ok_or("attribute without =\"")?;
        let name = &r[..eq];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "_-:.".contains(c)) {
            return Err(format!("bad attribute name {name:?}"));
        }
        let value_and_more = &r[eq + 2..];
        let close = value_and_more.find('"').ok_or("unterminated attribute")?;
        if !escaped(&value_and_more[..close], true) {
            return Err(format!("unescaped attribute {:?}", &value_and_more[..close]));
        }
        rest = &value_and_more[close + 1..];
    }
    let rest = rest.strip_prefix('>').ok_or("no > after the attributes")?;
    let end = format!("</{tag}>");
    let close = rest.find('<').ok_or("no closing tag")?;
    if !rest[close..].starts_with(&end) {
        return Err(format!("a tag inside <{tag}>: {:?}", &rest[close..]));
    }
    if !escaped(&rest[..close], false) {
        return Err(format!("unescaped text {:?}", &rest[..close]));
    }
    Ok(&rest[close + end.len()..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn sml_is_flat_with_one_envelope_and_escaped(
        intent in nasty(),
        rows in proptest::collection::vec((any::<u8>(), nasty(), nasty(), nasty()), 0..12),
        split in 0usize..12,
        level in 0u8..3,
    ) {
        let grains: Vec<GrainInput> = rows.into_iter().map(|(k, a, b, c)| grain(k, a, b, c)).collect();
        let (one, two) = grains.split_at(split.min(grains.len()));
        let disclosure = [Disclosure::Summary, Disclosure::Standard, Disclosure::Full][usize::from(level)];
        let req = AssembleRequest {
            name: "ctx".into(),
            intent: Some(intent.clone()),
            sources: vec![
                SourceInput { label: "one".into(), grains: one.to_vec() },
                SourceInput { label: "two".into(), grains: two.to_vec() },
            ],
            budget: Budget::new(16_000, BudgetUnit::Tokens),
            output: Output::Format(FormatName::Sml),
            projection: ProjectionOptions { disclosure, ..Default::default() },
        };
        let out = assemble(&req);
        let text = out.text.as_str();
        // One envelope: the first line opens it, the text ends by closing it, nothing else does.
        let first = text.lines().next().unwrap_or_default();
        prop_assert!(first.starts_with("<context intent=\"") && first.ends_with("\">"), "{first}");
        let intent_value = &first["<context intent=\"".len()..first.len() - 2];
        prop_assert!(escaped(intent_value, true), "{intent_value}");
        prop_assert_eq!(text.matches("<context").count(), 1);
        prop_assert_eq!(text.matches("</context>").count(), 1);
        prop_assert!(text.ends_with("\n</context>"));
        // Between them: elements only, one per grain, each starting a line.
        let mut body = &text[first.len() + 1..text.len() - "</context>".len()];
        let mut count = 0;
        while !body.is_empty() {
            body = element(body).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            body = body.strip_prefix('\n').ok_or_else(|| TestCaseError::fail(format!("element not followed by a newline\n{text}")))?;
            count += 1;
        }
        prop_assert_eq!(count, grains.len());
        prop_assert_eq!(out.sources.iter().map(|s| s.grains).sum::<usize>(), grains.len());
    }
}
