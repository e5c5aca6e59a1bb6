//! Evolve statements (§5.3, §6.4, §8.8–§8.10): REASON is mandatory (CAL-E018)
//! and at most 500 characters (CAL-E016); SET takes only the evolve fields of
//! the statement (CAL-E017 — `namespace` and `user_id` never, they come from
//! the capability token), each once, within the SET-count limits (CAL-E017,
//! docs/spec-decisions-grammar.md B1/A7); ADD sets subject, relation and
//! object (CAL-E050) on an addable type (CAL-E051); SUPERSEDE sets something
//! (CAL-E019). Values are checked like query values (CAL-E020, enums, W001).

use crate::context::{Amend, Checker};
use crate::limits::{text_length, too_many};
use crate::operators::walk_value;
use crate::render::code_list;
use crate::statements::target;
use crate::values::{Typed, Want, check_value};
use cal_grammar::fields::names;
use cal_grammar::fields::{self, EvolveField};
use cal_grammar::suggest::did_you_mean;
use cal_grammar::{Code, GrainType, Span, limits};
use cal_parser::ast::{Add, Revert, SetClause, StringLit, Supersede};

/// The placeholder REASON offered as a fix; it parses, and says what to write.
const REASON_FIX: &str = " REASON \"<why this change is made>\"";

/// ADD (§8.8).
pub(crate) fn check_add<'q>(cx: &mut Checker<'q>, a: &'q Add) {
    let g = a.grain_type.grain_type;
    if !g.is_addable() {
        let addable: Vec<&str> = GrainType::ALL.iter().filter(|t| t.is_addable()).map(|t| t.as_str()).collect();
        cx.error(
            Code::E051,
            a.grain_type.span,
            format!(
                "{} grains cannot be created with ADD; only belief, observation and goal can (§8.8).",
                capitalize(g.as_str())
            ),
        )
        .help("Events, actions, states and the other types are records the system writes itself.")
        .example("ADD belief SET subject = \"alice\" SET relation = \"mg:did\" SET object = \"signup\" REASON \"seen in the event log\"")
        .valid(addable);
    }
    let allowed: Vec<&'static EvolveField> = fields::add_fields(g).collect();
    let (clean, suggested) = sets(cx, &a.sets, &allowed, &format!("ADD {g}"), |name| {
        GrainType::ALL
            .iter()
            .find(|t| t.is_addable() && fields::add_field(**t, name).is_some())
            .map(|t| format!("`{name}` can be SET on `ADD {t}` (§6.4)."))
    });
    let max_sets = limits::max_set_per_add(g);
    if clean {
        too_many(
            cx,
            Code::E017,
            &a.sets,
            |s| s.span,
            max_sets,
            &format!("Too many SET clauses for ADD {g}"),
            "Set each field once.",
        );
    }
    let missing: Vec<&str> = fields::required_add_fields()
        .map(|f| f.name)
        .filter(|n| !a.sets.iter().any(|s| s.field.name == *n) && !suggested.contains(n))
        .collect();
    if !missing.is_empty() {
        let head = Span::new(a.span.start as usize, a.grain_type.span.end as usize);
        cx.error(
            Code::E050,
            head,
            format!("ADD {g} must SET {} (missing: {}).", code_list(&cal_grammar::fields::TRIPLE), code_list(&missing)),
        )
        .help(format!("Add {}.", missing.iter().map(|m| format!("`SET {m} = \"…\"`")).collect::<Vec<_>>().join(", ")))
        .example(format!(
            "ADD {} SET subject = \"alice\" SET relation = \"prefers\" SET object = \"dark mode\" REASON \"user said so\"",
            if g.is_addable() { g } else { GrainType::Belief }
        ))
        .valid(missing);
    }
    reason(cx, a.reason.as_ref(), a.span, "ADD");
}

/// SUPERSEDE (§8.9).
pub(crate) fn check_supersede<'q>(cx: &mut Checker<'q>, s: &'q Supersede) {
    target(cx, &s.target);
    if s.sets.is_empty() {
        cx.error(
            Code::E019,
            Span::new(s.span.start as usize, s.target.span.end as usize),
            "SUPERSEDE needs at least one SET clause: it writes a new version with the changed fields.",
        )
        .help("SET the new object, confidence, importance or tags.")
        .example("SUPERSEDE sha256:a1b2c3d4 SET object = \"light mode\" REASON \"user changed preference\"")
        .valid(fields::SUPERSEDE_FIELDS.iter().map(|f| f.name));
    }
    let allowed: Vec<&'static EvolveField> = fields::SUPERSEDE_FIELDS.iter().collect();
    let (clean, _) = sets(cx, &s.sets, &allowed, "SUPERSEDE", |name| {
        (name == names::SUBJECT || name == names::RELATION).then(|| {
            format!("The subject and relation identify the fact, so SUPERSEDE cannot change `{name}`; ADD a new belief instead.")
        })
    });
    if clean {
        too_many(
            cx,
            Code::E017,
            &s.sets,
            |c| c.span,
            limits::MAX_SET_PER_SUPERSEDE,
            "Too many SET clauses for SUPERSEDE",
            "Set each field once.",
        );
    }
    reason(cx, s.reason.as_ref(), s.span, "SUPERSEDE");
}

/// REVERT (§8.10).
pub(crate) fn check_revert<'q>(cx: &mut Checker<'q>, r: &'q Revert) {
    target(cx, &r.target);
    reason(cx, r.reason.as_ref(), r.span, "REVERT");
}

/// Checks SET clauses against `allowed`; returns true when every clause named a distinct allowed field.
fn sets<'q>(
    cx: &mut Checker<'q>,
    clauses: &'q [SetClause],
    allowed: &[&'static EvolveField],
    statement: &str,
    hint: impl Fn(&str) -> Option<String>,
) -> (bool, Vec<&'static str>) {
    let names: Vec<&'static str> = allowed.iter().map(|f| f.name).collect();
    let mut clean = true;
    let mut suggested = Vec::new();
    for (i, c) in clauses.iter().enumerate() {
        let name = c.field.name.as_str();
        if name == names::NAMESPACE || name == names::USER_ID {
            clean = false;
            cx.error(
                Code::E017,
                c.field.span,
                format!("`{name}` can never be SET: it is taken from the capability token (§5.3, §18.3)."),
            )
            .help("Remove this SET clause; the grain gets the token's namespace and user.")
            .valid(names.iter().copied());
            walk_value(cx, &c.value);
            continue;
        }
        let Some(f) = allowed.iter().find(|f| f.name == name) else {
            clean = false;
            let d = cx.error(Code::E017, c.field.span, format!("`{name}` cannot be SET by {statement}."));
            if let Some(h) = hint(name) {
                d.help(h);
            } else if let Some(s) = did_you_mean(name, names.iter().copied()) {
                d.help(format!("Did you mean `{s}`?")).fix(s);
                suggested.push(s);
            } else {
                d.help(format!("{statement} can SET {}.", code_list(&names)));
            }
            d.valid(names.iter().copied());
            walk_value(cx, &c.value);
            continue;
        };
        if let Some(first) = clauses[..i].iter().find(|p| p.field.name == name) {
            clean = false;
            cx.error(Code::E017, c.field.span, format!("`{name}` is SET twice."))
                .help("Set each field once.")
                .note(first.field.span, "first SET here");
            walk_value(cx, &c.value);
            continue;
        }
        check_value(cx, &c.value, Want::Of(Typed::evolve(f)));
    }
    (clean, suggested)
}

/// REASON: present (CAL-E018), not blank, at most 500 characters (CAL-E016).
fn reason(cx: &mut Checker<'_>, reason: Option<&StringLit>, stmt: Span, what: &str) {
    match reason {
        None => {
            cx.error(
                Code::E018,
                Span::empty(stmt.end as usize),
                format!("{what} needs a REASON: every evolve operation records why it was made (§8.8)."),
            )
            .help("End the statement with `REASON \"…\"`.")
            .fix(REASON_FIX);
        }
        Some(r) if r.value.trim().is_empty() => {
            cx.error(Code::E018, r.span, format!("The REASON of this {what} is empty."))
                .help("Say why the change is made; the reason is kept in the audit trail.");
        }
        Some(r) => {
            text_length(cx, &r.value, r.span, limits::MAX_REASON_CHARS, "The REASON");
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
