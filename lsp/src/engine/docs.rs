//! Markdown documentation for completion items and hovers, built from the
//! grammar tables (fields, relations, enums, codes, the EBNF) — never from a
//! copy of them, so the editor always says what the checker enforces.

use super::ebnf;
use cal_grammar::fields::FieldInfo;
use cal_grammar::relations::{MG_RELATIONS, MgRelation, category_members, lookup_relation};
use cal_grammar::templates::TemplateVariable;
use cal_grammar::{Code, FormatName, GrainType, Keyword, RelationCategory, fields};
use std::fmt::Write as _;

use super::spec_sections::cite;

/// The EBNF productions that use `term`, as a fenced block (at most `max`).
pub fn grammar_block(term: &str, max: usize) -> String {
    let rules = ebnf::rules_using(term);
    if rules.is_empty() {
        return String::new();
    }
    let mut s = String::from("```ebnf\n");
    for r in rules.iter().take(max) {
        let _ = writeln!(s, "{}", r.text);
    }
    s.push_str("```");
    s
}

/// A keyword: the grammar rules it appears in.
pub fn keyword(k: Keyword) -> String {
    let mut s = format!("**{}** — CAL keyword", k.as_str());
    if k.is_tier1() {
        s.push_str(" (Tier 1: evolves memory, needs the Evolve capability, §2.2)");
    }
    let g = grammar_block(k.as_str(), 3);
    if !g.is_empty() {
        s.push_str("\n\n");
        s.push_str(&g);
    }
    s
}

/// A field: type, operators, owners, values, section, and the table's one-line doc.
pub fn field(f: &FieldInfo) -> String {
    let mut s = format!("**{}**: `{}` — {}\n\n", f.name, f.value_type.as_str(), f.doc);
    let ops: Vec<String> = f.ops.iter().map(|o| format!("`{}`", o.as_str())).collect();
    let _ = writeln!(s, "- operators: {}", ops.join(", "));
    match f.grain_type {
        Some(g) => {
            let owners = fields::owners_of(f.name);
            let names: Vec<String> = owners.iter().map(|o| format!("`{}`", o.plural())).collect();
            let _ = writeln!(
                s,
                "- grain types: {}",
                if names.is_empty() { format!("`{}`", g.plural()) } else { names.join(", ") }
            );
        }
        None => {
            let _ = writeln!(s, "- grain types: all (common field)");
        }
    }
    if let Some(values) = f.enum_values {
        let _ = writeln!(s, "- values: {}", values.iter().map(|v| format!("`\"{v}\"`")).collect::<Vec<_>>().join(", "));
    }
    if let Some((lo, hi)) = f.range {
        let _ = writeln!(s, "- range: {lo} to {hi}");
    }
    let flags: Vec<&str> = [(f.sortable, "sortable"), (f.projectable, "projectable"), (f.groupable, "groupable")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect();
    if !flags.is_empty() {
        let _ = writeln!(s, "- {}", flags.join(", "));
    }
    let _ = write!(s, "\n{}", cite(f.section));
    s
}

/// A grain type: its spellings, OMS code, whether ADD can create it, and its own fields.
pub fn grain_type(g: GrainType) -> String {
    let mut s = format!(
        "**{}** — grain type (plural `{}` after RECALL, singular `{}` in ADD and `type = …`), OMS type 0x{:02X}",
        g.singular(),
        g.plural(),
        g.singular(),
        g.oms_code()
    );
    if g.is_addable() {
        s.push_str("; ADD can create it");
    }
    let own: Vec<String> = fields::type_fields(g).iter().map(|f| format!("`{}`", f.name)).collect();
    if own.is_empty() {
        s.push_str("\n\nOnly the common fields.");
    } else {
        let _ = write!(s, "\n\nFields of its own: {}", own.join(", "));
    }
    let _ = write!(s, "\n\n{} · {}", cite("5.1"), cite("6.3"));
    s
}

/// A standard `mg:` relation (§7.1).
pub fn relation(r: &MgRelation) -> String {
    let mut s = format!(
        "**{}** — {} ({} category)\n\nsubject: {} · object: {}",
        r.name,
        r.description,
        r.category.as_str(),
        r.typical_subject,
        r.typical_object
    );
    if let Some(cat) = r.category.shortcut() {
        let _ = write!(s, "\n\nSelected by `relation IS {}`", cat.as_str());
    }
    let _ = write!(s, "\n\n{}", cite("7.1"));
    s
}

/// A relation category shortcut and what it expands to (§7.2).
pub fn category(c: RelationCategory) -> String {
    let members: Vec<String> = category_members(c).iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "**{}** — relation category\n\n`relation IS {}` means `relation IN ({})`\n\n{}",
        c.as_str(),
        c.as_str(),
        members.join(", "),
        cite("7.2")
    )
}

/// A diagnostic code from the registry.
pub fn code(c: Code) -> String {
    let info = c.info();
    format!(
        "**{}** ({}) — {}\n\n{} · {}",
        info.code,
        info.name,
        info.title,
        if c.severity() == cal_grammar::Severity::Error { "error" } else { "warning" },
        cite(info.section)
    )
}

/// An output format or preset (§10.1).
pub fn format(f: FormatName) -> String {
    let mut s = format!("**{}** — output format", f.as_str());
    if f.is_preset() {
        let _ = write!(s, " preset, resolves to `{}`", f.resolve().as_str());
    }
    let _ = write!(s, "\n\n{}", cite("10.1"));
    s
}

/// A WITH option: its productions.
pub fn with_option(name: &str) -> String {
    let quoted = format!("\"{name}\"");
    let alternatives: Vec<&str> = ebnf::rule("with_option")
        .and_then(|r| r.text.split_once('='))
        .map(|(_, body)| {
            body.trim_end_matches(';').split(" | ").map(str::trim).filter(|a| a.starts_with(&quoted)).collect()
        })
        .unwrap_or_default();
    if alternatives.is_empty() {
        return format!("**{name}** — WITH option");
    }
    format!("**{name}** — WITH option\n\n```ebnf\n{}\n```", alternatives.join("\n"))
}

/// A template variable of §10.5.
pub fn template_variable(v: &TemplateVariable) -> String {
    format!("**{}** — {} ({:?}, {:?} level)\n\n{}", v.name, v.doc, v.var_type, v.level, cite("10.5"))
}

/// A value of a closed enum or a relation, when the string is one.
pub fn string_value(field: Option<&str>, value: &str) -> Option<String> {
    if let Some(r) = lookup_relation(value) {
        return Some(relation(r));
    }
    let e =
        cal_grammar::enums::CLOSED_ENUMS.iter().find(|e| e.contains(value) && field.is_none_or(|f| f == e.field))?;
    Some(format!(
        "**\"{value}\"** — a value of `{}` (one of {})\n\n{}",
        e.field,
        e.values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "),
        cite(e.section)
    ))
}

/// Every standard relation, for completion after `relation =`.
pub fn relations() -> &'static [MgRelation] {
    MG_RELATIONS
}
