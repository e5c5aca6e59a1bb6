//! The headings of the CAL/1.0 specification, so that a hover or a diagnostic can name the
//! section it cites ("§5.1 Grain Types (Closed Set)") instead of linking to a copy that is
//! not published anywhere (docs/spec-decisions-cli.md, L6). Taken from the spec's text
//! (`CAL-1.0.txt`, its numbered headings); `section_title` falls back to the enclosing
//! section for a number the spec does not head (`5.1.7`).

/// (section number, heading), in the spec's order.
pub const SECTIONS: &[(&str, &str)] = &[
    ("1", "Introduction"),
    ("1.1", "What is CAL?"),
    ("1.2", "Design Goals"),
    ("1.3", "What CAL Is NOT"),
    ("1.4", "The Git Analogy"),
    ("1.5", "Relationship to OMS"),
    ("2", "The Safety Model"),
    ("2.1", "The Core Guarantee"),
    ("2.2", "Three-Tier Capability Model"),
    ("2.3", "Formal Safety Proofs"),
    ("2.4", "Grammar-Level Exclusions"),
    ("3", "Lexical Structure"),
    ("3.1", "Character Set"),
    ("3.2", "Keywords"),
    ("3.3", "Identifiers"),
    ("3.4", "Literals"),
    ("3.5", "Comments"),
    ("3.6", "Reserved Words (Future-Proofing)"),
    ("4", "Grammar (EBNF)"),
    ("5", "Type System"),
    ("5.1", "Grain Types (Closed Set)"),
    ("5.2", "Common Field Types"),
    ("5.3", "Evolve Fields (Tier 1, Closed Set)"),
    ("5.4", "NULL Semantics"),
    ("6", "OMS Grain Type Integration"),
    ("6.1", "Design Principle"),
    ("6.2", "Field Resolution Rules"),
    ("6.3", "Grain-Type-Specific Queryable Fields"),
    ("6.4", "Type-Specific ADD Extensions"),
    ("7", "mg: Relation Vocabulary"),
    ("7.1", "Standard mg: Relations"),
    ("7.2", "Relation Category Shortcuts"),
    ("8", "Statement Semantics"),
    ("8.1", "RECALL (Tier 0)"),
    ("8.3", "EXISTS (Tier 0)"),
    ("8.8", "ADD (Tier 1)"),
    ("8.9", "SUPERSEDE (Tier 1)"),
    ("8.10", "REVERT (Tier 1)"),
    ("8.12", "LET Bindings"),
    ("8.13", "COALESCE"),
    ("9", "Semantic Shortcuts"),
    ("9.1", "ABOUT"),
    ("10", "FORMAT System"),
    ("10.1", "Semantic Presets"),
    ("10.2", "Custom Templates (Mustache-subset)"),
    ("10.3", "Content Projection Model"),
    ("10.3.1", "Design Principle"),
    ("10.3.2", "Per-Grain-Type Content Projection"),
    ("10.3.3", "The humanize() Function"),
    ("10.3.4", "Time Humanization"),
    ("10.3.5", "The PROJECT Clause"),
    ("10.5", "Template Variables"),
    ("10.6", "DEFINE TEMPLATE"),
    ("10.8", "Template Safety Model"),
    ("10.9", "TOON — Token-Oriented Object Notation"),
    ("10.9.1", "What is TOON?"),
    ("10.9.2", "When to Use TOON"),
    ("10.9.3", "TOON Rendering Rules for RECALL Results"),
    ("10.9.4", "TOON Rendering Rules for ASSEMBLE Results"),
    ("10.9.5", "Auto-TOON (Budget Pressure Hint)"),
    ("10.9.6", "TOON and PROJECT"),
    ("10.9.7", "TOON and Streaming"),
    ("10.9.8", "TOON Wire Format in application/json+cal"),
    ("11", "Streaming Protocol"),
    ("11.1", "Event Types"),
    ("11.2", "STREAM Clause"),
    ("11.3", "Transport Bindings"),
    ("11.5", "Cancellation"),
    ("11.6", "Backpressure"),
    ("12", "Domain Profile Querying"),
    ("12.1", "Profile Querying via Tags"),
    ("13", "Store Protocol Mapping"),
    ("14", "Response Model"),
    ("14.1", "Machine Envelope"),
    ("14.3", "Progressive Disclosure"),
    ("14.4", "Per-Grain-Type Content Projection"),
    ("15", "Dual Wire Format"),
    ("15.1", "Media Types"),
    ("15.2", "Bijective Mapping"),
    ("15.4", "Content Negotiation"),
    ("15.5", "JSON Schema"),
    ("16", "Internationalization"),
    ("16.1", "Character Encoding"),
    ("16.2", "Unicode Normalization"),
    ("16.3", "Bidirectional Text (Bidi)"),
    ("16.4", "Cross-Lingual Search"),
    ("16.6", "Identifier Safety"),
    ("17", "Execution Model"),
    ("17.1", "Query Pipeline (Tier 0)"),
    ("17.2", "Evolve Pipeline (Tier 1)"),
    ("17.3", "Resource Limits"),
    ("17.4", "Determinism Guarantees"),
    ("18", "Capability Token Model"),
    ("18.1", "Token Structure"),
    ("18.3", "Namespace Enforcement"),
    ("19", "Policy Integration"),
    ("19.1", "CAL Inherits Sealed Policy"),
    ("19.2", "GDPR Implications"),
    ("19.3", "HIPAA Implications"),
    ("19.4", "EU AI Act Implications"),
    ("20", "Threat Model"),
    ("20.1", "Attack Vectors and Defenses"),
    ("20.2", "Query Firewall"),
    ("20.3", "Kill Switch"),
    ("21", "Audit Trail"),
    ("22", "Error Model"),
    ("22.1", "Error Format"),
    ("22.3", "Warning Codes"),
    ("23", "Compliance Checks"),
    ("24", "Conformance Levels"),
    ("25", "Versioning and Evolution"),
    ("25.1", "Semver for Specs"),
    ("25.2", "Extension Mechanism"),
    ("26", "Interface Integration"),
    ("27", "LLM System Prompt Template"),
    ("Appendix A", "Complete EBNF Grammar"),
    ("Appendix B", "JSON Schema References"),
    ("Appendix C", "Error Code Registry"),
    ("Appendix D", "Reserved Words"),
    ("Appendix E", "Queryable Fields Reference"),
    ("Appendix F", "Version History"),
];

/// The heading of `section` (`"5.1"`), or of the nearest enclosing section the spec
/// heads; `None` when neither is known.
pub fn section_title(section: &str) -> Option<&'static str> {
    let mut s = section;
    loop {
        if let Some((_, t)) = SECTIONS.iter().find(|(n, _)| *n == s) {
            return Some(t);
        }
        s = &s[..s.rfind('.')?];
    }
}

/// How a text cites `section`: `CAL spec §5.1 (Grain Types (Closed Set))`.
pub fn cite(section: &str) -> String {
    match section_title(section) {
        Some(t) => format!("CAL spec §{section} ({t})"),
        None => format!("CAL spec §{section}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cited_section_has_a_heading() {
        for c in cal_grammar::Code::ALL.iter().chain(cal_grammar::Code::EXTENSIONS) {
            assert!(section_title(c.info().section).is_some(), "{c}: §{}", c.info().section);
        }
        for f in cal_grammar::fields::fields_for(None)
            .chain(cal_grammar::GrainType::ALL.iter().flat_map(|g| cal_grammar::fields::type_fields(*g)))
        {
            assert!(section_title(f.section).is_some(), "{}: §{}", f.name, f.section);
        }
        assert_eq!(cite("5.1"), "CAL spec §5.1 (Grain Types (Closed Set))");
        assert_eq!(section_title("5.1.7"), section_title("5.1"));
    }
}
