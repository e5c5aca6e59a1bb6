//! The LLM quick reference of §27, generated from the tables of this crate.
//!
//! §27 gives a reference (~1200 tokens) that implementations SHOULD hand to an
//! LLM writing CAL. A copy of that text would drift from the language we
//! implement, so this module writes it from the tables instead: the grain
//! types and their fields ([`crate::fields`]), the relation categories and
//! `mg:` relations, the pipeline stages (the `pipe_stage` production of
//! [`crate::EBNF`]), the WITH options, the formats and presets, the stream
//! events, the template sections and variables, the limits
//! ([`crate::limits`]) and, for Tier 1, the evolve field sets. Adding a grain
//! type, a field, a stage or a format changes the prompt; the `match`es over
//! closed word sets below are exhaustive, so a new option or format does not
//! compile until it is described.
//!
//! The prose, the statement synopses and the example queries follow §27's
//! wording. Example queries sit in ```` ```cal ```` fences, one query per
//! line; `cli/tests/prompt.rs` runs the checker on every one of them, so an
//! example that stops being valid CAL fails the build. `cal prompt` prints
//! this text; an MCP server offers the same text as the prompt [`MCP_PROMPT_NAME`].

use crate::ebnf::{self, Tok};
use crate::fields::{self, FieldInfo, FieldOp, ValueType, names};
use crate::limits;
use crate::relations::MG_RELATIONS;
use crate::templates::VARIABLES;
use crate::vocab::*;
use crate::with::{DIVERSITY_LAMBDA, DiversityMode, EXTENSION_PREFIX, WithArgument};

/// The name under which an MCP server offers [`quick_reference`] as a prompt.
pub const MCP_PROMPT_NAME: &str = "cal_quick_reference";

/// Which variant of the reference to write.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptOptions {
    /// The short variant: lists without per-field lines, fewer examples, no template or
    /// streaming details.
    pub compact: bool,
    /// Include the Tier 1 evolve operations (ADD, SUPERSEDE, REVERT) and their rules.
    pub tier1: bool,
}

/// The §27 quick reference for `opts`, as Markdown-flavoured text ending in a newline.
pub fn quick_reference(opts: PromptOptions) -> String {
    let mut p = Prompt { out: String::new(), opts };
    p.intro();
    p.read_operations();
    if opts.tier1 {
        p.evolve_operations();
    }
    p.types();
    p.conditions();
    p.shortcuts();
    p.pipeline();
    p.with_options();
    p.parameters();
    if !opts.compact {
        p.streaming();
        p.templates();
    }
    p.formats();
    p.limits();
    p.rules();
    p.examples();
    p.out
}

/// Where wrapped lists break.
const WIDTH: usize = 100;

struct Prompt {
    out: String,
    opts: PromptOptions,
}

impl Prompt {
    fn line(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    fn heading(&mut self, title: impl AsRef<str>) {
        self.line(format!("### {}", title.as_ref()));
    }

    /// `head` followed by `items` joined with `sep`, wrapped at [`WIDTH`] with an indent.
    fn list<S: AsRef<str>>(&mut self, head: &str, items: impl IntoIterator<Item = S>, sep: &str) {
        let mut line = head.to_string();
        let mut first = true;
        for item in items {
            let item = item.as_ref();
            if !first && line.len() + sep.len() + item.len() > WIDTH {
                self.line(format!("{}{}", line, sep.trim_end()));
                line = format!("  {item}");
            } else {
                if !first {
                    line.push_str(sep);
                }
                line.push_str(item);
            }
            first = false;
        }
        self.line(line);
    }

    fn intro(&mut self) {
        self.line("## CAL Quick Reference");
        self.line("CAL is a non-destructive context assembly language for OMS memory databases.");
        if self.opts.tier1 {
            self.line("It can read, assemble, and evolve memories, but never delete them.");
        } else {
            self.line("It can read and assemble memories, but never delete them.");
        }
    }

    fn read_operations(&mut self) {
        let subject = names::SUBJECT;
        let relation = names::RELATION;
        self.heading("Read operations:");
        self.line("RECALL [MY] [type] [IN \"ns\"] [ABOUT \"entity\"] [WHERE conditions] [WITH options]");
        self.line("  [| pipeline] [RECENT n] [SINCE \"time\"] [AS format]");
        self.line("ASSEMBLE name FOR \"intent\" FROM label:(RECALL ...), ...");
        let units = join(BudgetUnit::words(), "|");
        self.line(format!("  BUDGET n {units} PRIORITY l1 > l2 FORMAT format [STREAM]"));
        self.line("EXISTS sha256:hash");
        self.line(format!("HISTORY WHERE {subject} = \"s\" AND {relation} = \"r\" [AS OF \"date\"]"));
        self.line("HISTORY sha256:hash [DIFF sha256:other]");
        self.line("EXPLAIN <any statement>");
        let targets = DescribeTarget::ALL.iter().map(|t| match t {
            DescribeTarget::Fields => format!("{t} [type]"),
            _ => t.to_string(),
        });
        self.line(format!("DESCRIBE {}", join(targets, " | ")));
        self.line("BATCH { label: RECALL ..., label: RECALL ... }");
        self.line("COALESCE(RECALL ..., RECALL ...)");
        if !self.opts.compact {
            self.line(format!("(RECALL ...) {} (RECALL ...)", join(SetOperator::words(), "|")));
            let extractors = join(Extractor::words(), "|");
            self.line(format!("LET $set = RECALL ... | {extractors}; RECALL ... WHERE {subject} IN ($set)"));
        }
    }

    fn evolve_operations(&mut self) {
        let required: Vec<_> = fields::required_add_fields().map(|f| f.name).collect();
        self.heading("Evolve operations (Tier 1, when enabled):");
        let sets: String = required.iter().map(|f| format!(" SET {f} = \"{}\"", &f[..1])).collect();
        self.line(format!("ADD <type>{sets} [SET ...] REASON \"why\""));
        self.line("SUPERSEDE sha256:hash SET field = value [SET ...] REASON \"why\"");
        self.line("REVERT sha256:hash REASON \"why\"");
        let addable: Vec<&str> = GrainType::ALL.iter().filter(|g| g.is_addable()).map(|g| g.singular()).collect();
        self.line(format!("ADD types: {}.", join(addable, ", ")));
        let optional = fields::ADD_BASE_FIELDS.iter().filter(|f| !f.required).map(|f| f.name);
        self.line(format!("ADD must SET {}; it may SET {}.", join(required, ", "), join(optional, ", ")));
        if !self.opts.compact {
            for g in GrainType::ALL.iter().filter(|g| g.is_addable()) {
                let extra = fields::add_extension_fields(*g);
                if !extra.is_empty() {
                    self.line(format!("ADD {g} may also SET {}.", join(extra.iter().map(|f| f.name), ", ")));
                }
            }
        }
        let supersede = fields::SUPERSEDE_FIELDS.iter().map(|f| f.name);
        self.line(format!("SUPERSEDE may SET {} (at least one).", join(supersede, ", ")));
    }

    /// Where a grain type is written in the plural and where in the singular.
    fn type_spelling(&self) -> String {
        let add = if self.opts.tier1 { "ADD, " } else { "" };
        let example = GrainType::ALL[0].singular();
        format!("plural after RECALL; singular in {add}DESCRIBE fields and {} = \"{example}\"", names::TYPE)
    }

    fn types(&mut self) {
        if self.opts.compact {
            self.list("### Types: ", GrainType::plurals(), ", ");
            self.line(format!("({})", self.type_spelling()));
            self.heading("Type-specific fields (only with their type):");
            for g in GrainType::ALL {
                let own = fields::type_fields(*g);
                if !own.is_empty() {
                    self.list(&format!("{}: ", g.plural()), own.iter().map(|f| f.name), ", ");
                }
            }
            return;
        }
        self.heading(format!("Types ({}):", self.type_spelling()));
        for g in GrainType::ALL {
            let own = fields::type_fields(*g);
            if own.is_empty() {
                self.line(format!("{}: common fields only", g.plural()));
            } else {
                self.list(&format!("{}: ", g.plural()), own.iter().map(field_with_values), ", ");
            }
        }
        self.line("Type-specific fields work only with their type: RECALL <type> WHERE <field> ...");
    }

    fn conditions(&mut self) {
        let relation = names::RELATION;
        let categories = join(RelationCategory::words(), "|");
        if self.opts.compact {
            self.heading("WHERE conditions (combine with AND): field op value");
            self.list("Common fields: ", fields::COMMON_FIELDS.iter().map(|f| f.name), ", ");
            self.line(format!(
                "Operators: {} IN (...) BETWEEN a AND b, tags INCLUDE/EXCLUDE [\"t\"]",
                join(Comparator::words(), " ")
            ));
            self.line(format!("{relation} IS {categories}"));
            return;
        }
        self.heading("WHERE conditions (combine with AND):");
        for f in fields::COMMON_FIELDS {
            let (op, value) = example_condition(f);
            let others: Vec<&str> = f.ops.iter().filter(|o| **o != op).map(|o| o.as_str()).collect();
            let also = if others.is_empty() { String::new() } else { format!(" (also {})", others.join(" ")) };
            self.line(format!("{} {op} {value}{also} -- {}", f.name, f.doc));
            if f.allows(FieldOp::Is) {
                self.line(format!("{} IS {categories} -- category shortcut", f.name));
            }
        }
        self.line("field IN (\"a\", \"b\") -- any of a list, or IN (RECALL ... | SUBJECTS)");
        let relations = MG_RELATIONS.iter().map(|r| r.name);
        self.list("Standard relations: ", relations, ", ");
    }

    fn shortcuts(&mut self) {
        let shortcuts = shortcuts();
        if self.opts.compact {
            self.list("### Shortcuts: ", shortcuts.iter().map(|s| s.written.as_str()), ", ");
            return;
        }
        self.heading("Shortcuts (each is sugar for the form after =):");
        for s in &shortcuts {
            self.line(format!("{} = {}", s.written, s.means));
        }
        let about = Keyword::About;
        let recent = Keyword::Recent;
        let since = Keyword::Since;
        let (time, user) = (names::TIME, names::USER_ID);
        self.line(format!(
            "Do not combine {about} with LIKE, {recent} with LIMIT or ORDER BY, {since} with BETWEEN or WHERE {time}, \
             MY with WHERE {user} (CAL-E060)."
        ));
    }

    fn pipeline(&mut self) {
        let head = format!("### Pipeline (at most {} stages): ", limits::MAX_PIPELINE_STAGES);
        self.list(&head, pipe_stages().into_iter().map(|s| format!("| {s}")), " ");
    }

    fn with_options(&mut self) {
        if self.opts.compact {
            let options = WithOptionName::ALL.iter().map(|o| match o.argument() {
                WithArgument::None => o.to_string(),
                WithArgument::Optional => format!("{o}[(...)]"),
                WithArgument::Required => format!("{o}(...)"),
            });
            self.list("### WITH options: ", options, ", ");
            return;
        }
        let options = WithOptionName::ALL.iter().map(|o| with_option(*o));
        self.list("### WITH options: ", options, ", ");
        self.line(format!("({EXTENSION_PREFIX}name options are implementation extensions)"));
    }

    fn parameters(&mut self) {
        self.line(format!(
            "### Parameters: Use $name for dynamic values (at most {} per query)",
            limits::MAX_PARAMETERS
        ));
    }

    fn streaming(&mut self) {
        self.heading("Streaming:");
        self.line("ASSEMBLE ... STREAM -- stream all events");
        let events = join(StreamEvents::words(), ", ");
        self.line(format!("ASSEMBLE ... STREAM {{ progress, chunks }} -- specific events: {events}, chunk_size = n"));
    }

    fn templates(&mut self) {
        use crate::templates::Var;
        self.heading("Custom templates:");
        self.line("FORMAT TEMPLATE name -- use named template");
        let tag = |v: Var| ["{{", v.as_str(), "}}"].concat();
        let (ty, content) = (tag(Var::GrainType), tag(Var::GrainContent));
        self.line(format!("FORMAT TEMPLATE {{ ELEMENT {{ <{ty}>{content}</{ty}> }} }}"));
        self.list("Sections: ", TemplateSectionKind::words(), ", ");
        // Variables grouped by their prefix: grain.{content, type, …}.
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for v in VARIABLES {
            let (prefix, rest) = v.name.split_once('.').unwrap_or((v.name, ""));
            match groups.iter_mut().find(|(p, _)| *p == prefix) {
                Some((_, names)) => names.push(rest),
                None => groups.push((prefix, vec![rest])),
            }
        }
        let groups = groups
            .into_iter()
            .map(|(p, names)| if names == [""] { p.to_string() } else { format!("{p}.{{{}}}", names.join(",")) });
        self.list("Variables: ", groups, " ");
    }

    fn formats(&mut self) {
        let formats = FormatName::ALL.iter().filter(|f| !f.is_preset());
        if self.opts.compact {
            let formats = formats.map(|f| format!("{f} ({})", format_summary(*f)));
            self.list("### Output formats (AS per RECALL, FORMAT per ASSEMBLE): ", formats, ", ");
        } else {
            self.heading("Output formats (AS per RECALL, FORMAT per ASSEMBLE):");
            for f in formats {
                self.line(format!("{f}: {}", format_description(*f)));
            }
        }
        let presets = FormatName::ALL.iter().filter(|f| f.is_preset()).map(|p| format!("{p} = {}", p.resolve()));
        self.list("Presets: ", presets, ", ");
        let toon = FormatName::Toon;
        self.line(format!("-- Use AS {toon} on large RECALL sets; FORMAT {toon} on budget-constrained ASSEMBLE"));
    }

    fn limits(&mut self) {
        use limits::*;
        let mut items = vec![
            format!("BUDGET max {MAX_BUDGET_TOKENS} tokens or {MAX_BUDGET_GRAINS} grains"),
            format!("ASSEMBLE {MAX_SOURCES} sources"),
            format!("BATCH {MAX_BATCH} entries"),
            format!("COALESCE {MIN_COALESCE}-{MAX_COALESCE} branches"),
        ];
        if !self.opts.compact {
            items.insert(0, format!("LIMIT default {DEFAULT_LIMIT}, max {MAX_LIMIT}"));
            items.push(format!("IN list {MAX_IN_SET} values"));
            items.push(format!("subqueries {MAX_SUBQUERY_DEPTH} deep"));
            items.push(format!("query {MAX_QUERY_BYTES} bytes"));
            items.push(format!("set operations {MAX_SET_OPERANDS} operands"));
            items.push(format!("LET {MAX_LET} bindings"));
        }
        self.list("### Limits: ", items, "; ");
    }

    fn rules(&mut self) {
        use limits::*;
        self.heading("Rules:");
        self.line(format!("- LIMIT is always enforced (default {DEFAULT_LIMIT}, max {MAX_LIMIT})"));
        if self.opts.compact {
            self.line("- CAL cannot delete, erase, forget, or destroy data.");
        } else {
            let destroys = ExcludedWord::Delete.category();
            let words = ExcludedWord::ALL.iter().filter(|w| w.category() == destroys).map(|w| w.as_str());
            self.line(format!(
                "- CAL cannot delete, erase, forget, or destroy data: there is no {}.",
                join(words, ", ")
            ));
        }
        if self.opts.tier1 {
            self.line(format!(
                "- REASON is mandatory for all evolve operations (at most {MAX_REASON_CHARS} characters)."
            ));
            self.line(
                "- Evolve operations are two-phase: prepare returns the exact write and a single-use token; \
                 execute performs exactly that write.",
            );
            self.line("- Use HISTORY to check current version before SUPERSEDE.");
            if !self.opts.compact {
                self.line(format!(
                    "- Rate limits per minute: {MAX_ADD_PER_MINUTE} ADD, {MAX_SUPERSEDE_PER_MINUTE} SUPERSEDE, \
                     {MAX_REVERT_PER_MINUTE} REVERT."
                ));
            }
        }
    }

    fn examples(&mut self) {
        self.heading("Examples:");
        self.line("```cal");
        let read = if self.opts.compact { COMPACT_EXAMPLES } else { EXAMPLES };
        for q in read {
            self.line(q);
        }
        if self.opts.tier1 {
            for q in EVOLVE_EXAMPLES {
                self.line(q);
            }
        }
        self.line("```");
    }
}

/// Example queries of the full reference: one per line, each valid CAL (a test checks).
const EXAMPLES: &[&str] = &[
    r#"RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8 | ORDER BY confidence DESC | LIMIT 5"#,
    r#"RECALL MY beliefs WHERE relation IS PREFERENCE AS toon"#,
    r#"RECALL events SINCE "last 7 days" WHERE role = "user" RECENT 10"#,
    r#"RECALL actions WHERE tool_name = "search" AND is_error = true | SELECT tool_name, time"#,
    r#"RECALL LIKE "deployment incidents" WITH diversity(mmr, lambda = 0.7) | LIMIT 10"#,
    r#"RECALL goals WHERE goal_state = "active" | GROUP BY assigned_agent"#,
    r#"ASSEMBLE briefing FOR "answer alice" FROM prefs: (RECALL beliefs ABOUT "alice"), recent: (RECALL events ABOUT "alice" RECENT 5) BUDGET 2000 tokens PRIORITY prefs > recent FORMAT sml"#,
    r#"HISTORY WHERE subject = "alice" AND relation = "mg:prefers""#,
    r#"BATCH { prefs: RECALL beliefs ABOUT "alice", goals: RECALL goals WHERE goal_state = "active" }"#,
    r#"COALESCE(RECALL beliefs ABOUT "alice", RECALL LIKE "alice")"#,
    r#"EXISTS $hash"#,
    r#"DESCRIBE fields goal"#,
];

/// Example queries of the compact reference.
const COMPACT_EXAMPLES: &[&str] = &[
    r#"RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8 | ORDER BY confidence DESC | LIMIT 5"#,
    r#"RECALL MY beliefs WHERE relation IS PREFERENCE AS toon"#,
    r#"RECALL events SINCE "last 7 days" WHERE role = "user" RECENT 10"#,
    r#"ASSEMBLE briefing FOR "answer alice" FROM prefs: (RECALL beliefs ABOUT "alice"), recent: (RECALL events ABOUT "alice" RECENT 5) BUDGET 2000 tokens PRIORITY prefs > recent FORMAT sml"#,
];

/// Example evolve operations, shown with `tier1`.
const EVOLVE_EXAMPLES: &[&str] = &[
    r#"ADD belief SET subject = "alice" SET relation = "mg:prefers" SET object = "dark mode" SET confidence = 0.9 REASON "alice said so""#,
    r#"SUPERSEDE $hash SET object = "light mode" REASON "alice changed her mind""#,
    r#"REVERT $hash REASON "recorded by mistake""#,
];

/// `items` joined with `sep`.
fn join<S: AsRef<str>>(items: impl IntoIterator<Item = S>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    out
}

/// A type-specific field with its closed value set, if it has one: `role (user|assistant|…)`.
fn field_with_values(f: &FieldInfo) -> String {
    match f.enum_values {
        Some(values) => format!("{} ({})", f.name, values.join("|")),
        None => f.name.to_string(),
    }
}

/// The operator and value a condition line shows for a common field, chosen from its type.
fn example_condition(f: &FieldInfo) -> (FieldOp, String) {
    let first = f.ops.first().copied().unwrap_or(FieldOp::Eq);
    if let Some(values) = f.enum_values {
        return (first, format!("\"{}\"", values.first().copied().unwrap_or_default()));
    }
    match f.value_type {
        ValueType::Number => {
            let op = if f.allows(FieldOp::Ge) { FieldOp::Ge } else { first };
            (op, "0.8".to_string())
        }
        ValueType::Array => (first, "[\"tag1\"]".to_string()),
        ValueType::Boolean => (first, "true".to_string()),
        ValueType::Hash => (first, "sha256:abcd...".to_string()),
        ValueType::Temporal => (first, "\"last 7 days\"".to_string()),
        ValueType::String | ValueType::GrainType => {
            let text = if f.name == names::QUERY { "search text" } else { "..." };
            (first, format!("\"{text}\""))
        }
    }
}

/// One shortcut of §9: how it is written and what it means.
struct Shortcut {
    written: String,
    means: String,
}

/// The shortcuts of §9 in its order, spelled from the keyword and field tables.
fn shortcuts() -> Vec<Shortcut> {
    use Keyword as K;
    use names::*;
    let s = |written: String, means: String| Shortcut { written, means };
    vec![
        s(format!("{} \"e\"", K::About), format!("WHERE {SUBJECT} = \"e\"")),
        s(format!("{} n", K::Recent), format!("| ORDER BY {TIME} DESC | LIMIT n")),
        s(format!("{} \"t\"", K::Since), format!("WHERE {TIME} = \"t\"")),
        s(format!("{} \"text\"", K::Like), format!("WHERE {QUERY} = \"text\"")),
        s(K::My.to_string(), format!("WHERE {USER_ID} = $current_user_id")),
        s(K::Contradictions.to_string(), format!("WHERE {CONTRADICTED} = true")),
        s(format!("{} a AND b", K::Between), format!("WHERE {TIME} BETWEEN a AND b")),
    ]
}

/// The pipeline stages in the order of the grammar's `pipe_stage` production, each as a
/// synopsis (`ORDER BY field [ASC|DESC]`).
fn pipe_stages() -> Vec<String> {
    let Some(rule) = ebnf::rule("pipe_stage") else { return Vec::new() };
    rule.body
        .iter()
        .filter_map(|t| match t {
            Tok::Name(n) => ebnf::rule(n),
            _ => None,
        })
        .map(|stage| {
            // The keywords a stage starts with: `ORDER BY`, `LIMIT`.
            let lead: Vec<&str> = stage
                .body
                .iter()
                .map_while(|t| match t {
                    Tok::Term(w) if Keyword::lookup(w).is_some() => Some(w.as_str()),
                    Tok::Punct(',') => Some(""),
                    _ => None,
                })
                .filter(|w| !w.is_empty())
                .collect();
            let args = match lead.first().and_then(|w| Keyword::lookup(w)) {
                Some(Keyword::Select) => " f1,f2".to_string(),
                Some(Keyword::Order) => format!(" field [{}]", join(SortDirection::words(), "|")),
                Some(Keyword::Limit | Keyword::Offset) => " n".to_string(),
                Some(Keyword::Group) => " field".to_string(),
                Some(Keyword::Project) => " content(f1,f2), attr(f3,f4)".to_string(),
                _ => String::new(),
            };
            format!("{}{args}", lead.join(" "))
        })
        .collect()
}

/// A WITH option as written, with the shape of its argument.
fn with_option(o: WithOptionName) -> String {
    use WithOptionName as W;
    let args = match o {
        W::ProgressiveDisclosure => format!("[({})]", join(DisclosureLevel::words(), "|")),
        W::Diversity => {
            format!("({}[, {DIVERSITY_LAMBDA} = 0.7] | {}, 0.8)", DiversityMode::Mmr, DiversityMode::Threshold)
        }
        W::Consistency => {
            let kinds = ConsistencyKind::ALL.iter().map(|k| match k {
                ConsistencyKind::Bounded => format!("{k}(n)"),
                _ => k.to_string(),
            });
            format!("({})", join(kinds, "|"))
        }
        W::Dedup => "(field)".to_string(),
        W::Locale => "(\"en-US\")".to_string(),
        W::Cache => format!("({} = n)", crate::with::CACHE_TTL),
        W::Superseded
        | W::ScoreBreakdown
        | W::Explanation
        | W::Provenance
        | W::ContradictionDetection
        | W::Summarize
        | W::IsoTimestamps => String::new(),
    };
    debug_assert_eq!(args.is_empty(), o.argument() == WithArgument::None);
    format!("{o}{args}")
}

/// What a format is, for the full reference (§10.1, §27).
fn format_description(f: FormatName) -> &'static str {
    use FormatName as F;
    match f {
        F::Sml => {
            "flat tag-based, for LLMs -- <belief subject=\"alice\" confidence=\"0.92\">prefers dark mode</belief>"
        }
        F::Toon => {
            "CSV-tabular, ~40% fewer tokens than JSON -- beliefs[3]{subject,content,confidence}: then one row each"
        }
        F::Markdown => "human-readable prose",
        F::Json => "machine-readable structured data",
        F::Yaml => "YAML structure",
        F::Text => "minimal plain text",
        F::Triples => "subject-relation-object triples",
        F::Structured | F::Readable | F::Compact | F::Data => format_summary(f.resolve()),
    }
}

/// What a format is, in a few words, for the compact reference.
fn format_summary(f: FormatName) -> &'static str {
    use FormatName as F;
    match f {
        F::Sml => "tag-based, for LLMs",
        F::Toon => "CSV-tabular, fewest tokens",
        F::Markdown => "human-readable",
        F::Json => "machine-readable",
        F::Yaml => "YAML",
        F::Text => "minimal plain text",
        F::Triples => "subject-relation-object triples",
        F::Structured | F::Readable | F::Compact | F::Data => format_summary(f.resolve()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_variants() -> Vec<(PromptOptions, String)> {
        [(false, false), (false, true), (true, false), (true, true)]
            .into_iter()
            .map(|(compact, tier1)| {
                let o = PromptOptions { compact, tier1 };
                (o, quick_reference(o))
            })
            .collect()
    }

    /// True when `text` has `word` as a whole word (not inside a longer word).
    fn has_word(text: &str, word: &str) -> bool {
        text.match_indices(word).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            !part(before) && !part(after)
        })
    }

    #[test]
    fn every_variant_names_every_grain_type_format_and_stage() {
        let stages = ebnf::first_terminals("pipe_stage");
        assert!(stages.len() >= 10, "{stages:?}");
        for (o, text) in all_variants() {
            for g in GrainType::ALL {
                assert!(has_word(&text, g.plural()), "{o:?}: {g}");
            }
            for f in FormatName::ALL {
                assert!(has_word(&text, f.as_str()), "{o:?}: {f}");
            }
            for s in &stages {
                assert!(has_word(&text, s), "{o:?}: {s}");
            }
            for w in WithOptionName::ALL {
                assert!(has_word(&text, w.as_str()), "{o:?}: {w}");
            }
            for c in RelationCategory::ALL {
                assert!(has_word(&text, c.as_str()), "{o:?}: {c}");
            }
        }
    }

    #[test]
    fn the_full_variant_names_every_field_and_template_part() {
        let text = quick_reference(PromptOptions::default());
        for f in fields::COMMON_FIELDS.iter().chain(GrainType::ALL.iter().flat_map(|g| fields::type_fields(*g))) {
            assert!(has_word(&text, f.name), "{}", f.name);
        }
        for s in TemplateSectionKind::ALL {
            assert!(has_word(&text, s.as_str()), "{s}");
        }
        for e in StreamEvents::ALL {
            assert!(has_word(&text, e.as_str()), "{e}");
        }
        for t in DescribeTarget::ALL {
            assert!(has_word(&text, t.as_str()), "{t}");
        }
        for v in VARIABLES {
            let (_, last) = v.name.rsplit_once('.').unwrap_or(("", v.name));
            assert!(has_word(&text, last), "{}", v.name);
        }
    }

    #[test]
    fn every_statement_is_shown() {
        for (o, text) in all_variants() {
            for k in ebnf::first_terminals("statement") {
                let evolve = Keyword::lookup(&k).is_some_and(Keyword::is_tier1);
                if k == "(" || evolve && !o.tier1 {
                    continue;
                }
                assert!(has_word(&text, &k), "{o:?}: {k}");
            }
        }
    }

    #[test]
    fn tier1_adds_the_evolve_section_and_only_tier1_does() {
        for (o, text) in all_variants() {
            for k in [Keyword::Add, Keyword::Supersede, Keyword::Revert, Keyword::Reason] {
                assert_eq!(has_word(&text, k.as_str()), o.tier1, "{o:?}: {k}");
            }
            assert_eq!(text.contains("Evolve operations"), o.tier1, "{o:?}");
            assert_eq!(text.contains("prepare"), o.tier1, "{o:?}");
        }
    }

    #[test]
    fn compact_is_shorter() {
        for tier1 in [false, true] {
            let full = quick_reference(PromptOptions { compact: false, tier1 });
            let compact = quick_reference(PromptOptions { compact: true, tier1 });
            assert!(compact.len() * 3 < full.len() * 2, "{} vs {}", compact.len(), full.len());
        }
    }

    #[test]
    fn limits_come_from_the_table() {
        let text = quick_reference(PromptOptions::default());
        assert!(text.contains(&format!("default {}, max {}", limits::DEFAULT_LIMIT, limits::MAX_LIMIT)));
        assert!(text.contains(&format!("at most {} stages", limits::MAX_PIPELINE_STAGES)));
    }

    #[test]
    fn stages_follow_the_grammar_order() {
        let stages = pipe_stages();
        assert_eq!(stages.first().map(String::as_str), Some("SELECT f1,f2"));
        assert!(stages.iter().any(|s| s == "ORDER BY field [ASC|DESC]"), "{stages:?}");
        assert!(stages.iter().any(|s| s == "GROUP BY field"), "{stages:?}");
    }
}
