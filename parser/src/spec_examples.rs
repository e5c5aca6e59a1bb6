//! Queries quoted from the CAL spec that several crates measure or test.
//!
//! The lexer/parser, checker and ASSEMBLE benchmarks all time §8.2's flagship
//! query; keeping the one verbatim copy here means their figures are about the
//! same text.

/// §8.2's four-source ASSEMBLE, verbatim (line breaks as in the spec).
pub const ASSEMBLE_8_2: &str = r#"CAL/1 ASSEMBLE user_context
FOR "conversation about alice's preferences and goals"
FROM
beliefs: (RECALL beliefs ABOUT "alice" WHERE relation = "prefers" LIMIT 20),
goals: (RECALL goals ABOUT "alice" RECENT 10),
events: (RECALL events WHERE user_id = "alice" RECENT 5),
history: (RECALL beliefs ABOUT "alice"
WHERE relation = "prefers" WITH superseded
| ORDER BY time DESC | LIMIT 3)
BUDGET 2000 tokens
PRIORITY beliefs > goals > events > history
FORMAT markdown
WITH progressive_disclosure, dedup(subject)"#;

#[cfg(test)]
mod tests {
    #[test]
    fn the_flagship_assemble_parses_clean() {
        let parsed = crate::parse_query(super::ASSEMBLE_8_2);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    }
}
