//! In-memory evaluation of post-filters and the value order used by ORDER BY,
//! with the store's semantics (OMS `store::query`): strings compare bytewise,
//! numbers numerically across integers and floats, values of other kinds only
//! for (in)equality, a missing field matches nothing (§5.4) and sorts last.

use std::cmp::Ordering;
use std::collections::HashSet;

use cal_parser::ast::Comparator;
use oms::Value;
use oms::store::Hit;

use super::compile::{Post, RtTest};
use crate::fields;
use crate::values::Lit;

/// Orders two values as the store does (one definition, the store's).
pub use oms::store::query::compare;

fn holds(op: Comparator, o: Option<Ordering>) -> bool {
    match (op, o) {
        (Comparator::Eq, o) => o == Some(Ordering::Equal),
        (Comparator::Ne, o) => o != Some(Ordering::Equal),
        (Comparator::Lt, Some(o)) => o == Ordering::Less,
        (Comparator::Le, Some(o)) => o != Ordering::Greater,
        (Comparator::Gt, Some(o)) => o == Ordering::Greater,
        (Comparator::Ge, Some(o)) => o != Ordering::Less,
        (_, None) => false,
    }
}

/// A stored string against a hash literal: the address (with or without
/// `sha256:`) starts with the literal's hex digits.
fn hash_matches(v: &Value, hex: &str) -> bool {
    v.as_str().is_some_and(|s| s.strip_prefix("sha256:").unwrap_or(s).to_ascii_lowercase().starts_with(hex))
}

fn equals(v: &Value, lit: &Lit) -> bool {
    match lit {
        Lit::Hash(h) => hash_matches(v, h),
        other => compare(v, &other.to_store()) == Some(Ordering::Equal),
    }
}

fn scalar_test(v: &Value, op: Comparator, lit: &Lit) -> bool {
    match (op, lit) {
        (Comparator::Eq, Lit::Hash(h)) => hash_matches(v, h),
        (Comparator::Ne, Lit::Hash(h)) => !hash_matches(v, h),
        _ => holds(op, compare(v, &lit.to_store())),
    }
}

/// Whether a field value passes a test. `None` (missing) passes only EXCLUDE.
pub fn test(v: Option<&Value>, t: &RtTest) -> bool {
    let Some(v) = v else { return matches!(t, RtTest::Exclude(_)) };
    match (t, v) {
        (RtTest::Cmp(Comparator::Eq, lit), Value::Array(items)) => items.iter().any(|i| equals(i, lit)),
        (RtTest::Cmp(Comparator::Ne, lit), Value::Array(items)) => !items.iter().any(|i| equals(i, lit)),
        (RtTest::Cmp(_, _), Value::Array(_)) => false,
        (RtTest::Cmp(op, lit), v) => scalar_test(v, *op, lit),
        (RtTest::In(lits), Value::Array(items)) => items.iter().any(|i| lits.iter().any(|l| equals(i, l))),
        (RtTest::In(lits), v) => lits.iter().any(|l| equals(v, l)),
        (RtTest::Between(lo, hi), v) => v.as_f64().is_some_and(|x| *lo <= x && x <= *hi),
        (RtTest::Time(op, iv), v) => v.as_i64().is_some_and(|t| match op {
            Comparator::Eq => iv.contains(t),
            Comparator::Ne => !iv.contains(t),
            Comparator::Ge => t >= iv.from,
            Comparator::Gt => t >= iv.to,
            Comparator::Le => t < iv.to,
            Comparator::Lt => t < iv.from,
        }),
        (RtTest::Include(lits), Value::Array(items)) => lits.iter().all(|l| items.iter().any(|i| equals(i, l))),
        (RtTest::Include(lits), v) => lits.iter().all(|l| equals(v, l)),
        (RtTest::Exclude(lits), Value::Array(items)) => !lits.iter().any(|l| items.iter().any(|i| equals(i, l))),
        (RtTest::Exclude(lits), v) => !lits.iter().any(|l| equals(v, l)),
    }
}

/// All the text of a value (strings of arrays and maps included).
pub fn text_of(v: &Value, out: &mut String) {
    match v {
        Value::Str(s) => {
            out.push_str(s);
            out.push(' ');
        }
        Value::Array(items) => items.iter().for_each(|i| text_of(i, out)),
        Value::Map(m) => m.values().for_each(|i| text_of(i, out)),
        _ => {}
    }
}

fn shares_term(v: Option<&Value>, terms: &HashSet<String>) -> bool {
    let Some(v) = v else { return false };
    let mut text = String::new();
    text_of(v, &mut text);
    oms::store::search::tokenize(&text).iter().any(|t| terms.contains(t))
}

/// Whether a retrieved grain passes a post-filter.
pub fn passes(hit: &Hit, post: &Post) -> bool {
    match post {
        Post::Field { field, test: t } => test(fields::value(hit, field).as_ref(), t),
        Post::Semantic { field, terms } => shares_term(fields::value(hit, field).as_ref(), terms),
        Post::NotSuperseded => hit.index.superseded_by.is_none(),
        Post::NamespaceScope(scope) => hit
            .grain()
            .namespace()
            .is_some_and(|ns| ns == scope || ns.strip_prefix(scope.as_str()).is_some_and(|rest| rest.starts_with(':'))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_semantics_and_kinds() {
        let s = Value::Str("alice".into());
        assert!(!test(None, &RtTest::Cmp(Comparator::Ne, Lit::Str("bob".into()))), "missing never matches, even !=");
        assert!(test(None, &RtTest::Exclude(vec![Lit::Str("x".into())])), "a missing array holds nothing");
        assert!(!test(None, &RtTest::Include(vec![])));
        assert!(test(Some(&s), &RtTest::Cmp(Comparator::Ne, Lit::Str("bob".into()))));
        assert!(test(Some(&Value::Int(3)), &RtTest::Cmp(Comparator::Ge, Lit::Float(2.5))));
        assert!(!test(Some(&s), &RtTest::Cmp(Comparator::Gt, Lit::Int(1))), "no order across kinds");
        let arr = Value::Array(vec![Value::Str("a".into()), Value::Str("b".into())]);
        assert!(test(Some(&arr), &RtTest::Cmp(Comparator::Eq, Lit::Str("b".into()))), "= on an array is membership");
        assert!(test(Some(&arr), &RtTest::Include(vec![Lit::Str("a".into()), Lit::Str("b".into())])));
        assert!(!test(Some(&arr), &RtTest::Exclude(vec![Lit::Str("a".into())])));
        let h = Value::Str("abcdef0123".into());
        assert!(test(Some(&h), &RtTest::Cmp(Comparator::Eq, Lit::Hash("abcdef01".into()))), "hash prefixes match");
        assert!(test(Some(&Value::Str("sha256:abcdef0123".into())), &RtTest::In(vec![Lit::Hash("abcdef01".into())])));
    }
}
