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
use crate::word_enum;

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
    /// Which variable it is.
    pub var: Var,
    /// Its name, as written between the braces.
    pub name: &'static str,
    /// Its type.
    pub var_type: VarType,
    /// Its level.
    pub level: Level,
    /// §10.5's description.
    pub doc: &'static str,
}

const fn var(var: Var, var_type: VarType, level: Level, doc: &'static str) -> TemplateVariable {
    TemplateVariable { var, name: var.as_str(), var_type, level, doc }
}

word_enum! {
    /// A template variable of §10.5, by name: what the renderer fills and the checker accepts.
    pub enum Var {
        AssemblyName = "assembly.name",
        AssemblyIntent = "assembly.intent",
        AssemblySourceCount = "assembly.source_count",
        AssemblyGrainCount = "assembly.grain_count",
        BudgetTotal = "budget.total",
        BudgetUsed = "budget.used",
        BudgetRemaining = "budget.remaining",
        BudgetUnit = "budget.unit",
        BudgetUtilization = "budget.utilization",
        DisclosureLevel = "disclosure.level",
        Timestamp = "timestamp",
        SourceLabel = "source.label",
        SourceIndex = "source.index",
        SourcePriority = "source.priority",
        SourceGrainCount = "source.grain_count",
        SourceTokensUsed = "source.tokens_used",
        SourceTruncated = "source.truncated",
        GrainContent = "grain.content",
        GrainType = "grain.type",
        GrainSubject = "grain.subject",
        GrainRelation = "grain.relation",
        GrainHumanizedRelation = "grain.humanized_relation",
        GrainObject = "grain.object",
        GrainConfidence = "grain.confidence",
        GrainImportance = "grain.importance",
        GrainTags = "grain.tags",
        GrainCreatedAt = "grain.created_at",
        GrainRelativeTime = "grain.relative_time",
        GrainScore = "grain.score",
        GrainHash = "grain.hash",
        GrainIsFull = "grain.is_full",
        GrainIsSummary = "grain.is_summary",
    }
}

/// The closed variable set of §10.5, in its order. Anything else is CAL-E090.
#[rustfmt::skip]
pub static VARIABLES: &[TemplateVariable] = &[
    var(Var::AssemblyName, VarType::String, Level::Assembly, "Context name"),
    var(Var::AssemblyIntent, VarType::String, Level::Assembly, "FOR clause text"),
    var(Var::AssemblySourceCount, VarType::Integer, Level::Assembly, "Number of sources"),
    var(Var::AssemblyGrainCount, VarType::Integer, Level::Assembly, "Total grains included"),
    var(Var::BudgetTotal, VarType::Integer, Level::Assembly, "Total budget"),
    var(Var::BudgetUsed, VarType::Integer, Level::Assembly, "Budget consumed"),
    var(Var::BudgetRemaining, VarType::Integer, Level::Assembly, "Remaining budget"),
    var(Var::BudgetUnit, VarType::String, Level::Assembly, "\"tokens\" or \"grains\""),
    var(Var::BudgetUtilization, VarType::Number, Level::Assembly, "0.0-1.0 utilization ratio"),
    var(Var::DisclosureLevel, VarType::String, Level::Assembly, "Disclosure level"),
    var(Var::Timestamp, VarType::String, Level::Assembly, "ISO 8601 assembly timestamp"),
    var(Var::SourceLabel, VarType::String, Level::Source, "Source label"),
    var(Var::SourceIndex, VarType::Integer, Level::Source, "0-based position"),
    var(Var::SourcePriority, VarType::Integer, Level::Source, "1-based priority rank"),
    var(Var::SourceGrainCount, VarType::Integer, Level::Source, "Grains in this source"),
    var(Var::SourceTokensUsed, VarType::Integer, Level::Source, "Tokens consumed"),
    var(Var::SourceTruncated, VarType::Boolean, Level::Source, "Whether grains were cut for budget"),
    var(Var::GrainContent, VarType::String, Level::Grain, "Projected text content (per Section 10.3.2 content rules)"),
    var(Var::GrainType, VarType::String, Level::Grain, "Grain type (used as SML element name)"),
    var(Var::GrainSubject, VarType::String, Level::Grain, "Triple subject"),
    var(Var::GrainRelation, VarType::String, Level::Grain, "Raw triple relation (with namespace)"),
    var(Var::GrainHumanizedRelation, VarType::String, Level::Grain, "Humanized relation (namespace stripped, underscores replaced)"),
    var(Var::GrainObject, VarType::String, Level::Grain, "Triple object"),
    var(Var::GrainConfidence, VarType::Number, Level::Grain, "Confidence [0.0, 1.0]"),
    var(Var::GrainImportance, VarType::Number, Level::Grain, "Importance [0.0, 1.0]"),
    var(Var::GrainTags, VarType::String, Level::Grain, "Comma-separated tags"),
    var(Var::GrainCreatedAt, VarType::String, Level::Grain, "ISO 8601 timestamp"),
    var(Var::GrainRelativeTime, VarType::String, Level::Grain, "Humanized relative time (e.g., \"2h ago\")"),
    var(Var::GrainScore, VarType::Number, Level::Grain, "Relevance score"),
    var(Var::GrainHash, VarType::String, Level::Grain, "Content address (for machine envelope use, not LLM output)"),
    var(Var::GrainIsFull, VarType::Section, Level::Grain, "True when disclosure = full"),
    var(Var::GrainIsSummary, VarType::Section, Level::Grain, "True when disclosure = summary"),
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
