//! The facts of CAL's template sub-language (§10.5, §10.7): the closed set of
//! template variables with their types and levels, and which presets a
//! template may extend.
//!
//! They live here, as data, because several crates need them and must agree:
//! the checker rejects a variable outside the set (CAL-E090) and a parent
//! that is not one of [`TEMPLATE_PARENTS`] (CAL-E086, CAL-E087), the renderer
//! fills exactly these variables, and the language server completes and
//! explains them. The syntax of templates (tags, sections) is the parser's
//! (`cal_parser::template`).

use crate::FormatName;

/// The type of a template variable's value (§10.5), shown by hover and used to
/// explain what a variable renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarType {
    /// Text.
    String,
    /// A whole number.
    Integer,
    /// A number.
    Number,
    /// true / false.
    Boolean,
    /// Only meaningful as a section (`{{#grain.is_full}}`).
    Section,
}

/// Which level of the assembly a variable describes (§10.5's three tables):
/// it decides in which template sections the variable has a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The whole assembly.
    Assembly,
    /// One source.
    Source,
    /// One grain.
    Grain,
}

/// One variable of the closed set: one row of §10.5's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateVariable {
    /// Its name, as written between the braces.
    pub name: &'static str,
    /// Its type.
    pub var_type: VarType,
    /// Its level.
    pub level: Level,
    /// §10.5's description.
    pub doc: &'static str,
}

const fn var(name: &'static str, var_type: VarType, level: Level, doc: &'static str) -> TemplateVariable {
    TemplateVariable { name, var_type, level, doc }
}

/// The closed variable set of §10.5, in its order. Anything else is CAL-E090.
#[rustfmt::skip]
pub static VARIABLES: &[TemplateVariable] = &[
    var("assembly.name", VarType::String, Level::Assembly, "Context name"),
    var("assembly.intent", VarType::String, Level::Assembly, "FOR clause text"),
    var("assembly.source_count", VarType::Integer, Level::Assembly, "Number of sources"),
    var("assembly.grain_count", VarType::Integer, Level::Assembly, "Total grains included"),
    var("budget.total", VarType::Integer, Level::Assembly, "Total budget"),
    var("budget.used", VarType::Integer, Level::Assembly, "Budget consumed"),
    var("budget.remaining", VarType::Integer, Level::Assembly, "Remaining budget"),
    var("budget.unit", VarType::String, Level::Assembly, "\"tokens\" or \"grains\""),
    var("budget.utilization", VarType::Number, Level::Assembly, "0.0-1.0 utilization ratio"),
    var("disclosure.level", VarType::String, Level::Assembly, "Disclosure level"),
    var("timestamp", VarType::String, Level::Assembly, "ISO 8601 assembly timestamp"),
    var("source.label", VarType::String, Level::Source, "Source label"),
    var("source.index", VarType::Integer, Level::Source, "0-based position"),
    var("source.priority", VarType::Integer, Level::Source, "1-based priority rank"),
    var("source.grain_count", VarType::Integer, Level::Source, "Grains in this source"),
    var("source.tokens_used", VarType::Integer, Level::Source, "Tokens consumed"),
    var("source.truncated", VarType::Boolean, Level::Source, "Whether grains were cut for budget"),
    var("grain.content", VarType::String, Level::Grain, "Projected text content (per Section 10.3.2 content rules)"),
    var("grain.type", VarType::String, Level::Grain, "Grain type (used as SML element name)"),
    var("grain.subject", VarType::String, Level::Grain, "Triple subject"),
    var("grain.relation", VarType::String, Level::Grain, "Raw triple relation (with namespace)"),
    var("grain.humanized_relation", VarType::String, Level::Grain, "Humanized relation (namespace stripped, underscores replaced)"),
    var("grain.object", VarType::String, Level::Grain, "Triple object"),
    var("grain.confidence", VarType::Number, Level::Grain, "Confidence [0.0, 1.0]"),
    var("grain.importance", VarType::Number, Level::Grain, "Importance [0.0, 1.0]"),
    var("grain.tags", VarType::String, Level::Grain, "Comma-separated tags"),
    var("grain.created_at", VarType::String, Level::Grain, "ISO 8601 timestamp"),
    var("grain.relative_time", VarType::String, Level::Grain, "Humanized relative time (e.g., \"2h ago\")"),
    var("grain.score", VarType::Number, Level::Grain, "Relevance score"),
    var("grain.hash", VarType::String, Level::Grain, "Content address (for machine envelope use, not LLM output)"),
    var("grain.is_full", VarType::Section, Level::Grain, "True when disclosure = full"),
    var("grain.is_summary", VarType::Section, Level::Grain, "True when disclosure = summary"),
];

/// The variable called `name`, if it is in the closed set: the one lookup the
/// checker (CAL-E090) and the language server share.
pub fn variable(name: &str) -> Option<&'static TemplateVariable> {
    VARIABLES.iter().find(|v| v.name == name)
}

/// The presets a template may extend (§10.7): every preset but `data`, which
/// outputs structural JSON rather than template text. In the order messages
/// list them.
pub const TEMPLATE_PARENTS: [FormatName; 3] = [FormatName::Structured, FormatName::Readable, FormatName::Compact];

/// The parent of a template that names none (§10.7: "Default parent is readable").
pub const DEFAULT_TEMPLATE_PARENT: FormatName = FormatName::Readable;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_set_is_section_10_5() {
        assert_eq!(VARIABLES.len(), 32);
        assert_eq!(variable("grain.is_full").map(|v| v.var_type), Some(VarType::Section));
        assert!(variable("grain.nope").is_none());
        assert_eq!(VARIABLES.iter().filter(|v| v.level == Level::Source).count(), 6);
        let mut names: Vec<&str> = VARIABLES.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), VARIABLES.len(), "no variable is listed twice");
    }

    #[test]
    fn template_parents_are_the_presets_but_data() {
        let presets: Vec<FormatName> =
            FormatName::ALL.iter().copied().filter(|f| f.is_preset() && *f != FormatName::Data).collect();
        assert_eq!(presets, TEMPLATE_PARENTS);
        assert!(TEMPLATE_PARENTS.contains(&DEFAULT_TEMPLATE_PARENT));
    }
}
