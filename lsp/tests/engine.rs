//! Engine tests without an editor: in-memory documents, a position finder
//! (`‸` marks the cursor), and snapshots that show the source with a marker
//! under the position, then the answer.

use cal_grammar::Span;
use cal_lsp::engine::{self, Document, apply_edits};

/// Removes the `‸` marker and returns the text and the byte offset it marked.
fn find(src: &str) -> (String, usize) {
    let at = src.find('‸').expect("a ‸ marker in the test source");
    (src.replacen('‸', "", 1), at)
}

/// The source line holding `span`, with `^` under the span (one `^` for an empty span).
fn marked(text: &str, span: Span) -> String {
    let start = span.start as usize;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let col = text[line_start..start].chars().count();
    let width = text[start..(span.end as usize).min(line_end)].chars().count().max(1);
    format!("{}\n{}{}", &text[line_start..line_end], " ".repeat(col), "^".repeat(width))
}

fn completion(src: &str) -> String {
    let (text, at) = find(src);
    let c = engine::completion::complete(&text, at);
    let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
    let mut out = format!("{}\n\n{} items: {}\n", marked(&text, Span::new(at, at)), labels.len(), labels.join(", "));
    if let Some(first) = c.items.first() {
        out.push_str(&format!("\nfirst: {} ({})\n{}\n", first.label, first.detail, first.documentation));
    }
    out
}

fn hover(src: &str) -> String {
    let (text, at) = find(src);
    let doc = Document::new(text.clone(), 1);
    match engine::hover::hover(&text, doc.analysis.document.as_ref(), at) {
        Some(h) => format!("{}\n\n{}\n", marked(&text, h.span), h.markdown),
        None => format!("{}\n\n(no hover)\n", marked(&text, Span::new(at, at))),
    }
}

macro_rules! snap {
    ($name:ident, $f:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!($f($src));
        }
    };
}

snap!(complete_statement_start, completion, "‸");
snap!(complete_after_let_block, completion, "LET $a = RECALL beliefs;\n‸");
snap!(complete_grain_after_recall, completion, "RECALL ‸");
snap!(complete_grain_after_add, completion, "ADD ‸");
snap!(complete_fields_of_actions, completion, "RECALL actions WHERE ‸");
snap!(complete_common_fields_only, completion, "RECALL WHERE subject = \"a\" AND ‸");
snap!(complete_operators_of_field, completion, "RECALL actions WHERE action_phase ‸");
snap!(complete_partial_field_name, completion, "RECALL beliefs WHERE confid‸");
snap!(complete_enum_values, completion, "RECALL goals WHERE goal_state = ‸");
snap!(complete_relations_in_string, completion, "RECALL beliefs WHERE relation = \"mg:pr‸");
snap!(complete_categories, completion, "RECALL beliefs WHERE relation IS ‸");
snap!(complete_stages, completion, "RECALL beliefs | ‸");
snap!(complete_with_options, completion, "RECALL beliefs WITH superseded, ‸");
snap!(complete_formats, completion, "RECALL beliefs AS ‸");
snap!(complete_template_variables, completion, "DEFINE TEMPLATE t { HEADER { {{assembly.‸ } }");
snap!(
    complete_let_names,
    completion,
    "LET $recent = RECALL events;\nLET $mine = RECALL MY beliefs;\nRECALL beliefs WHERE subject IN ($‸"
);
snap!(
    complete_priority_labels,
    completion,
    "ASSEMBLE ctx FROM facts: (RECALL beliefs), todo: (RECALL goals) PRIORITY facts > ‸"
);
snap!(complete_fields_after_subquery, completion, "RECALL goals WHERE subject IN (RECALL actions | SUBJECTS) AND ‸");
snap!(complete_diversity_args, completion, "RECALL beliefs WITH diversity(‸");

snap!(hover_statement, hover, "RECALL‸ beliefs ABOUT \"alice\" LIMIT 5");
snap!(hover_field, hover, "RECALL actions WHERE action_ph‸ase = \"call\"");
snap!(hover_grain_type, hover, "RECALL go‸als");
snap!(hover_relation, hover, "RECALL beliefs WHERE relation = \"mg:pre‸fers\"");
snap!(hover_category, hover, "RECALL beliefs WHERE relation IS PREF‸ERENCE");
snap!(hover_code_in_comment, hover, "-- expect CAL-E0‸03\nRECALL facts");
snap!(hover_let_name, hover, "LET $recent = RECALL events | LIMIT 3;\nRECALL beliefs WHERE subject IN ($rec‸ent)");
snap!(hover_keyword, hover, "RECALL beliefs WH‸ERE subject = \"a\"");

#[test]
fn definition_references_and_rename_of_a_let_name() {
    let (text, at) =
        find("LET $recent = RECALL events;\nRECALL beliefs WHERE subject IN ($rec‸ent) AND object IN ($recent)");
    let occ = engine::names::occurrences(&text, at).expect("a name");
    assert_eq!(&text[occ.definition.range()], "$recent");
    assert_eq!(occ.definition.start, 4);
    assert_eq!(occ.references.len(), 3);
    let edits = engine::names::rename(&text, at, "latest").expect("rename");
    assert_eq!(
        apply_edits(&text, &edits),
        "LET $latest = RECALL events;\nRECALL beliefs WHERE subject IN ($latest) AND object IN ($latest)"
    );
    assert!(engine::names::rename(&text, at, "9x").is_err());
}

#[test]
fn let_names_are_scoped_to_their_query() {
    let text = "LET $a = RECALL events;\nRECALL beliefs WHERE subject IN ($a);\nLET $a = RECALL goals;\nRECALL beliefs WHERE subject IN ($a)";
    let second = text.rfind("$a").unwrap() + 1;
    let occ = engine::names::occurrences(text, second).unwrap();
    assert_eq!(occ.references.len(), 2);
    assert!(occ.definition.start as usize > text.find(";\nLET").unwrap());
}

#[test]
fn source_labels_rename_in_priority() {
    let (text, at) = find("ASSEMBLE ctx FROM facts: (RECALL beliefs), todo: (RECALL goals) PRIORITY todo > fa‸cts");
    let edits = engine::names::rename(&text, at, "known").unwrap();
    assert_eq!(
        apply_edits(&text, &edits),
        "ASSEMBLE ctx FROM known: (RECALL beliefs), todo: (RECALL goals) PRIORITY todo > known"
    );
}

#[test]
fn formatting_keeps_comments_and_refuses_broken_text() {
    let text = "recall   beliefs where subject = \"a\";\n-- keep me\nrecall goals -- and me\n  where subject = \"b\"";
    let out = apply_edits(text, &engine::format::format(text, None));
    assert_eq!(
        out,
        "RECALL beliefs WHERE subject = \"a\";\n\n-- keep me\nrecall goals -- and me\n  where subject = \"b\"\n"
    );
    let plain = "recall   beliefs where subject = \"a\";recall goals";
    let out = apply_edits(plain, &engine::format::format(plain, None));
    assert_eq!(out, "RECALL beliefs WHERE subject = \"a\";\n\nRECALL goals\n");
    assert!(engine::format::format("RECALL beliefs WHERE", None).is_empty());
    // Range formatting touches only the query in range.
    let two = "recall beliefs;\nrecall goals";
    let out = apply_edits(two, &engine::format::format(two, Some(Span::new(17, 18))));
    assert_eq!(out, "recall beliefs;\nRECALL goals");
}

#[test]
fn code_actions_apply_replacements() {
    let text = "RECALL facts WHERE subject = \"a\"";
    let doc = Document::new(text, 1);
    let acts = engine::actions::actions(
        text,
        doc.analysis.document.as_ref(),
        &doc.analysis.diagnostics,
        Span::new(0, text.len()),
    );
    let first = acts.first().expect("a quick fix for `facts`");
    assert_eq!(apply_edits(text, &first.edits), "RECALL beliefs WHERE subject = \"a\"", "{acts:#?}");
}

#[test]
fn signature_help_inside_diversity() {
    let (text, at) = find("RECALL beliefs WITH diversity(mmr, ‸");
    let s = engine::signature::signature(&text, at).expect("signature");
    assert!(s.label.starts_with("diversity(") && s.label.contains("lambda"), "{}", s.label);
    assert_eq!(s.active_parameter, 1);
    assert!(engine::signature::signature("RECALL beliefs WITH diversity(mmr) ", 35).is_none());
}

#[test]
fn semantic_tokens_classify_words() {
    let text = "-- c\nRECALL goals WHERE goal_state = \"active\" | LIMIT 5";
    let toks = engine::semantic::tokens(text);
    let kinds: Vec<(&str, &str)> =
        toks.iter().map(|t| (&text[t.span.range()], engine::semantic::LEGEND[t.kind as usize])).collect();
    assert_eq!(
        kinds,
        [
            ("-- c", "comment"),
            ("RECALL", "keyword"),
            ("goals", "type"),
            ("WHERE", "keyword"),
            ("goal_state", "property"),
            ("=", "operator"),
            ("\"active\"", "string"),
            ("|", "operator"),
            ("LIMIT", "keyword"),
            ("5", "number")
        ]
    );
}

#[test]
fn symbols_list_queries_lets_and_sources() {
    let text = "LET $a = RECALL events;\nASSEMBLE ctx FROM facts: (RECALL beliefs), $a;\nRECALL goals";
    let doc = Document::new(text, 1);
    let syms = engine::symbols::symbols(doc.analysis.document.as_ref().unwrap());
    let outline: Vec<String> = syms
        .iter()
        .map(|s| format!("{} [{}]", s.name, s.children.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")))
        .collect();
    assert_eq!(outline, ["ASSEMBLE ctx [$a, facts, $a]", "RECALL []"]);
}

#[test]
fn diagnostics_cite_their_section_and_carry_suggestions() {
    let doc = Document::new("RECALL facts", 1);
    let d = &engine::diagnostics::diagnostics(&doc)[0];
    assert_eq!(d.code, "CAL-E003");
    assert_eq!(d.cites, "CAL spec §5.1 (Grain Types (Closed Set))");
    assert!(d.message.contains('\n'), "{}", d.message);
}

#[test]
fn no_engine_function_panics_on_any_prefix() {
    let text = "CAL/1\nLET $a = RECALL events | SUBJECTS;\nASSEMBLE ctx FOR \"é😀\" FROM x: (RECALL beliefs WHERE relation IS PREFERENCE WITH diversity(mmr, lambda = 0.5)), $a BUDGET 10 tokens PRIORITY x FORMAT TEMPLATE { HEADER { {{assembly.name}} } } STREAM { progress };\nDEFINE TEMPLATE t EXTENDS readable { ELEMENT { {{grain.content}} } };\nADD belief SET subject = \"a\" REASON \"r\"";
    for end in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
        let t = &text[..end];
        let doc = Document::new(t, 1);
        for at in (0..=t.len()).step_by(7) {
            let _ = engine::completion::complete(t, at);
            let _ = engine::hover::hover(t, doc.analysis.document.as_ref(), at);
            let _ = engine::names::occurrences(t, at);
            let _ = engine::signature::signature(t, at);
        }
        let _ = engine::format::format(t, None);
        let _ = engine::semantic::tokens(t);
        let _ =
            engine::actions::actions(t, doc.analysis.document.as_ref(), &doc.analysis.diagnostics, Span::new(0, end));
    }
}
