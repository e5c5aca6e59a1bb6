//! `textDocument/completion`: items for the place the cursor is in (see
//! [`super::context`]), each documented from the grammar tables.

use super::context::{self, Place};
use super::{docs, ebnf};
use cal_grammar::fields::{self, FieldInfo};
use cal_grammar::templates::VARIABLES;
use cal_grammar::{
    BudgetUnit, ConsistencyKind, DescribeTarget, DisclosureLevel, FormatName, GrainType, Keyword, RelationCategory,
    Span, StreamEvents, WithOptionName, enums,
};

/// What an item is, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A keyword.
    Keyword,
    /// A field name.
    Field,
    /// A grain type, format, option or other closed word.
    Enum,
    /// An operator.
    Operator,
    /// A literal value.
    Value,
    /// A template variable, LET name or label.
    Variable,
}

/// One proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// What the list shows (and inserts, unless [`Item::insert`] says otherwise).
    pub label: String,
    /// Icon.
    pub kind: ItemKind,
    /// One line next to the label.
    pub detail: String,
    /// Markdown documentation.
    pub documentation: String,
    /// Text to insert instead of the label.
    pub insert: Option<String>,
}

impl Item {
    fn new(label: impl Into<String>, kind: ItemKind, detail: impl Into<String>, doc: impl Into<String>) -> Item {
        Item { label: label.into(), kind, detail: detail.into(), documentation: doc.into(), insert: None }
    }

    fn insert(mut self, text: impl Into<String>) -> Item {
        self.insert = Some(text.into());
        self
    }
}

/// The answer: the items and the span of the partial word they replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// Proposals, in the order to show them.
    pub items: Vec<Item>,
    /// The partial word before the cursor.
    pub replace: Span,
}

/// Completion at byte `offset` of `text`.
pub fn complete(text: &str, offset: usize) -> Completion {
    let cx = context::at(text, offset);
    let items = match &cx.place {
        Place::StatementStart => statement_starts(),
        Place::Subquery => vec![keyword_item(Keyword::Recall)],
        Place::GrainPlural => GrainType::ALL.iter().map(|g| grain_item(*g, g.plural())).collect(),
        Place::GrainAddable => {
            GrainType::ALL.iter().filter(|g| g.is_addable()).map(|g| grain_item(*g, g.singular())).collect()
        }
        Place::GrainSingular => GrainType::ALL.iter().map(|g| grain_item(*g, g.singular())).collect(),
        Place::DescribeTarget => DescribeTarget::ALL
            .iter()
            .map(|t| Item::new(t.as_str(), ItemKind::Enum, "DESCRIBE target", docs::grammar_block(t.as_str(), 1)))
            .collect(),
        Place::Field(g) => fields::fields_for(*g).map(field_item).collect(),
        Place::SetField(g) => set_fields(*g),
        Place::Operator(g, f) => operators(*g, f),
        Place::Value { field, in_string } => values(field, *in_string),
        Place::Category => RelationCategory::ALL
            .iter()
            .map(|c| Item::new(c.as_str(), ItemKind::Enum, "relation category", docs::category(*c)))
            .collect(),
        Place::Stage => ebnf::first_terminals("pipe_stage")
            .into_iter()
            .filter_map(|w| Keyword::lookup(&w))
            .map(|k| {
                let it = keyword_item(k);
                if matches!(k, Keyword::Order | Keyword::Group) { it.insert(format!("{} BY", k.as_str())) } else { it }
            })
            .collect(),
        Place::WithOption => WithOptionName::ALL
            .iter()
            .map(|o| Item::new(o.as_str(), ItemKind::Enum, "WITH option", docs::with_option(o.as_str())))
            .collect(),
        Place::Diversity => cal_grammar::with::DiversityMode::words()
            .filter(|w| ebnf::first_terminals("diversity_spec").contains(*w))
            .map(|w| Item::new(w, ItemKind::Enum, "diversity", docs::grammar_block(w, 1)))
            .collect(),
        Place::Consistency => ConsistencyKind::ALL
            .iter()
            .map(|c| Item::new(c.as_str(), ItemKind::Enum, "consistency level", docs::grammar_block(c.as_str(), 1)))
            .collect(),
        Place::Disclosure => DisclosureLevel::ALL
            .iter()
            .map(|d| Item::new(d.as_str(), ItemKind::Enum, "disclosure level", docs::grammar_block(d.as_str(), 1)))
            .collect(),
        Place::Format { template } => {
            let mut items: Vec<Item> = FormatName::ALL
                .iter()
                .map(|f| Item::new(f.as_str(), ItemKind::Enum, "format", docs::format(*f)))
                .collect();
            if *template {
                items.push(keyword_item(Keyword::Template));
            }
            items
        }
        Place::SortDirection => vec![keyword_item(Keyword::Asc), keyword_item(Keyword::Desc)],
        Place::BudgetUnit => BudgetUnit::ALL
            .iter()
            .map(|u| Item::new(u.as_str(), ItemKind::Enum, "budget unit", docs::grammar_block(u.as_str(), 1)))
            .collect(),
        Place::StreamEvent => StreamEvents::ALL
            .iter()
            .map(|e| Item::new(e.as_str(), ItemKind::Enum, "stream events", docs::grammar_block(e.as_str(), 1)))
            .collect(),
        Place::PriorityLabel => context::source_labels(&cx.statement)
            .into_iter()
            .map(|(name, _)| Item::new(name, ItemKind::Variable, "source label", "A source of this ASSEMBLE."))
            .collect(),
        Place::LetName => context::visible_lets(&cx.all, offset)
            .into_iter()
            .map(|(name, _)| {
                Item::new(format!("${name}"), ItemKind::Variable, "LET binding", format!("`LET ${name} = …` above."))
            })
            .collect(),
        Place::TemplateVariable => {
            VARIABLES.iter().map(|v| Item::new(v.name, ItemKind::Variable, v.doc, docs::template_variable(v))).collect()
        }
        Place::Nothing => Vec::new(),
        Place::Keyword => Keyword::ALL.iter().map(|k| keyword_item(*k)).collect(),
    };
    Completion { items, replace: cx.replace }
}

fn keyword_item(k: Keyword) -> Item {
    Item::new(k.as_str(), ItemKind::Keyword, "keyword", docs::keyword(k))
}

fn statement_starts() -> Vec<Item> {
    let mut words = ebnf::first_terminals("query");
    words.extend(ebnf::first_terminals("statement"));
    words.into_iter().filter_map(|w| Keyword::lookup(&w)).map(keyword_item).collect()
}

fn grain_item(g: GrainType, word: &str) -> Item {
    Item::new(word, ItemKind::Enum, "grain type", docs::grain_type(g))
}

fn field_item(f: &FieldInfo) -> Item {
    let owner = f.grain_type.map_or("common field".to_string(), |g| format!("{} field", g.singular()));
    Item::new(f.name, ItemKind::Field, format!("{} · {owner}", f.value_type.as_str()), docs::field(f))
}

fn set_fields(g: Option<GrainType>) -> Vec<Item> {
    let list: Vec<&fields::EvolveField> = match g {
        Some(g) => fields::add_fields(g).collect(),
        None => fields::SUPERSEDE_FIELDS.iter().collect(),
    };
    list.into_iter()
        .map(|f| {
            let doc =
                fields::common_field(f.name).map_or_else(|| format!("**{}** — settable field", f.name), docs::field);
            Item::new(f.name, ItemKind::Field, "SET field", doc)
        })
        .collect()
}

fn operators(g: Option<GrainType>, field: &str) -> Vec<Item> {
    let info = fields::resolve(g, field)
        .info()
        .or_else(|| fields::owners_of(field).first().and_then(|o| fields::type_field(*o, field)));
    let ops: Vec<fields::FieldOp> = match info {
        Some(f) => f.ops.to_vec(),
        None => fields::FieldOp::ALL.to_vec(),
    };
    ops.into_iter()
        .map(|op| {
            let w = op.as_str();
            let doc = match info {
                Some(f) => format!("`{field} {w} …` — {field} is `{}`\n\n{}", f.value_type.as_str(), f.doc),
                None => format!("`{field} {w} …`"),
            };
            let it = Item::new(w, ItemKind::Operator, "operator", doc);
            match op {
                fields::FieldOp::In => it.insert("IN ("),
                _ => it,
            }
        })
        .collect()
}

fn values(field: &str, in_string: bool) -> Vec<Item> {
    let quote = |v: &str| if in_string { v.to_string() } else { format!("\"{v}\"") };
    if field == cal_grammar::fields::names::RELATION {
        return docs::relations()
            .iter()
            .map(|r| Item::new(quote(r.name), ItemKind::Value, r.description, docs::relation(r)))
            .collect();
    }
    if let Some(e) = enums::closed_enum(field) {
        return e
            .values
            .iter()
            .map(|v| {
                let doc = docs::string_value(Some(field), v).unwrap_or_default();
                Item::new(quote(v), ItemKind::Value, format!("{field} value"), doc)
            })
            .collect();
    }
    let is_bool = fields::common_field(field)
        .or_else(|| fields::owners_of(field).first().and_then(|o| fields::type_field(*o, field)))
        .is_some_and(|f| f.value_type == fields::ValueType::Boolean);
    if is_bool && !in_string {
        return [Keyword::True, Keyword::False].into_iter().map(keyword_item).collect();
    }
    Vec::new()
}
