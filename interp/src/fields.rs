//! The CAL view of a stored grain: the one place an OMS grain is read as CAL.
//!
//! Where each field lives and how its value converts is grammar's table
//! ([`cal_grammar::binding`], rulings F1–F9 in docs/spec-decisions-interp.md).
//! This module applies it to a retrieved grain, one field at a time for
//! conditions, ORDER BY, GROUP BY, SELECT and dedup ([`value`]), or all at
//! once for the content layer ([`grain_input`]): both go through [`read`], so
//! a condition and the formatted output cannot disagree about a field.

use cal_grammar::GrainType as CalType;
use cal_grammar::binding::{self, Read};
use cal_render::grain::{CalValue, GrainInput};
use oms::mg::IndexState;
use oms::store::Hit;
use oms::{ContentAddress, Grain, Value};

use crate::timeexpr::format_rfc3339;

/// What of a retrieved grain CAL can see: the blob's fields, its address and
/// score, and the index layer's state.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// The decoded grain.
    pub grain: &'a Grain,
    /// Its content address.
    pub address: &'a ContentAddress,
    /// The retrieval's relevance score.
    pub score: f64,
    /// Index-layer state (verification, contradiction, supersession).
    pub index: &'a IndexState,
}

impl<'a> View<'a> {
    /// The view of a store hit.
    pub fn of(hit: &'a Hit) -> Self {
        View { grain: hit.grain(), address: &hit.address, score: hit.score, index: &hit.index }
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.grain.get(name).filter(|v| !matches!(v, Value::Null))
    }
}

/// The CAL grain type of a grain, when it is one of the ten.
pub fn cal_type(grain: &Grain) -> Option<CalType> {
    let byte = grain.grain_type().byte();
    CalType::ALL.iter().copied().find(|g| g.oms_code() == byte)
}

/// Fields whose value is an instant (epoch ms in the grain); grammar decides from the field type.
pub fn is_temporal(field: &str) -> bool {
    binding::is_temporal(field)
}

/// The grain field a CAL field reads unchanged, when it does (so the store can filter and
/// sort on it), plus the two index-layer fields the store answers itself.
pub fn direct(field: &str) -> Option<&'static str> {
    let b = binding::binding(field)?;
    match b.read {
        Read::Field(name) => Some(name),
        Read::Contradicted | Read::VerificationStatus => Some(b.cal),
        _ => None,
    }
}

/// Applies one binding row to a grain.
fn read(v: &View<'_>, b: &binding::Binding) -> Option<Value> {
    match b.read {
        Read::Field(name) | Read::Text(name) | Read::List(name) => v.get(name).cloned(),
        Read::GrainType => v.grain.grain_type().name().map(|n| Value::Str(n.into())),
        Read::Address => Some(Value::Str(v.address.to_hex())),
        Read::Score => Some(Value::Float(v.score)),
        Read::VerificationStatus => Some(Value::Str(
            v.index
                .verification_status
                .clone()
                .unwrap_or_else(|| cal_grammar::enums::VerificationStatus::Unverified.as_str().into()),
        )),
        // The store keeps the contradiction flag in the index layer's extras (OMS §28.3).
        Read::Contradicted => Some(Value::Bool(matches!(v.index.extra.get("ct"), Some(Value::Bool(true))))),
        Read::GoalState => v.get(b.cal)?.as_str().map(|s| Value::Str(binding::goal_state_to_cal(s).into())),
        Read::ConsentAction => match v.get("is_withdrawal") {
            Some(Value::Bool(w)) => Some(Value::Str(binding::consent_action(*w).as_str().into())),
            _ => None,
        },
        Read::ActionPhase => match v.get(b.cal) {
            Some(x) => Some(x.clone()),
            None if cal_type(v.grain) == Some(CalType::Action) => {
                Some(Value::Str(binding::DEFAULT_ACTION_PHASE.as_str().into()))
            }
            None => None,
        },
        Read::ThresholdRatio => {
            let t = v.get(b.cal)?.as_f64()?;
            let n = v.get("participating_observers")?.as_array()?.len();
            (n > 0).then(|| Value::Float(t / n as f64))
        }
        Read::ContextId => v.get(b.cal)?.as_map()?.get("id").filter(|x| !matches!(x, Value::Null)).cloned(),
    }
}

/// The value of a CAL field on a retrieved grain, as the field's CAL type sees
/// it; `None` when the grain does not have it (§5.4: no match, never an error).
pub fn value(hit: &Hit, field: &str) -> Option<Value> {
    value_of(&View::of(hit), field)
}

/// [`value`] on any view of a grain.
pub fn value_of(v: &View<'_>, field: &str) -> Option<Value> {
    match binding::binding(field) {
        Some(b) => read(v, b),
        None if field.contains(':') => domain(v, field),
        None => None,
    }
}

/// The value of a CAL field the grain itself holds (not the index layer's state nor a
/// retrieval's score), for a grain read by address.
pub fn blob_value(grain: &Grain, field: &str) -> Option<Value> {
    let (address, index) = (ContentAddress::from_bytes([0; 32]), IndexState::default());
    value_of(&View { grain, address: &address, score: 1.0, index: &index }, field)
}

/// A domain field (§12.2, F8): a top-level grain field, else a key of the
/// `context` map, under the keys grammar lists.
fn domain(v: &View<'_>, field: &str) -> Option<Value> {
    let keys = binding::domain_keys(field);
    if let Some(x) = v.get(keys[0]) {
        return Some(x.clone());
    }
    let ctx = v.get("context")?.as_map()?;
    keys.iter().find_map(|k| ctx.get(*k)).filter(|x| !matches!(x, Value::Null)).cloned()
}

/// A stored value as a CAL value; `temporal` marks an instant (epoch ms).
fn cal_value(v: &Value, temporal: bool) -> Option<CalValue> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) if temporal => CalValue::Time(i64::try_from(*i).ok()?),
        Value::Int(i) => i64::try_from(*i).map_or(CalValue::Float(*i as f64), CalValue::Int),
        Value::Float(f) => CalValue::Float(*f),
        Value::Bool(b) => CalValue::Bool(*b),
        Value::Str(s) => CalValue::Str(s.clone()),
        Value::Array(items) => CalValue::List(items.iter().filter_map(|x| cal_value(x, false)).collect()),
        Value::Map(m) => CalValue::Map(m.iter().filter_map(|(k, x)| Some((k.clone(), cal_value(x, false)?))).collect()),
        other => CalValue::Str(to_text(other)),
    })
}

/// The grain as the content layer receives it: every CAL field it has, typed,
/// through the same binding conditions use; the type's content fallback
/// (`binding::content_fallback`); and its domain entries.
pub fn grain_input_of(v: &View<'_>) -> GrainInput {
    let t = cal_type(v.grain);
    let mut g = view_with(v, t, cal_grammar::fields::fields_for(t).map(|f| f.name), true);
    for (k, x) in v.grain.fields() {
        if k.contains(':')
            && let Some(x) = cal_value(x, false)
        {
            g.set_domain(k.clone(), x);
        }
    }
    if let Some(ctx) = v.get("context").and_then(Value::as_map) {
        for (k, x) in ctx {
            if let Some(x) = cal_value(x, false) {
                g.set_domain(k.clone(), x);
            }
        }
    }
    g
}

/// The part of the view the default content projection reads (§10.3.2): the type's content
/// fields and its fallback. Token estimates of every result entry use it, so they do not
/// pay for the whole view.
pub fn content_view(hit: &Hit) -> GrainInput {
    let v = View::of(hit);
    let t = cal_type(v.grain);
    let content = t.map(|t| cal_grammar::fields::projection(t).content).unwrap_or(&[]);
    let [_, _, object] = cal_grammar::fields::TRIPLE;
    view_with(&v, t, content.iter().copied().chain(t.is_none().then_some(object)), false)
}

/// A view holding the named CAL fields (those the grain has) and the type's content fallback;
/// the address is written out only `with_hash` (the content projection never reads it).
fn view_with<'n>(
    v: &View<'_>,
    t: Option<CalType>,
    names: impl Iterator<Item = &'n str>,
    with_hash: bool,
) -> GrainInput {
    let type_name = v.grain.grain_type().name().unwrap_or("grain");
    let hash = if with_hash { format!("sha256:{}", v.address.to_hex()) } else { String::new() };
    let mut g = GrainInput::new(t, type_name, v.score, hash);
    for name in names {
        let Some(b) = binding::binding(name) else { continue };
        if matches!(b.read, Read::GrainType | Read::Address | Read::Score) {
            continue;
        }
        if let Some(x) = read(v, b).and_then(|x| cal_value(&x, binding::is_temporal(name))) {
            g.set(name, x);
        }
    }
    if let Some(t) = t {
        let fallback = binding::content_fallback(t);
        if g.field(fallback).is_none()
            && let Some(x) = v.get(fallback).and_then(|x| cal_value(x, false))
        {
            g.set(fallback, x);
        }
    }
    g
}

/// [`grain_input_of`] for a store hit.
pub fn grain_input(hit: &Hit) -> GrainInput {
    grain_input_of(&View::of(hit))
}

/// A grain given as OMS JSON, as the content layer would receive it after a store import
/// (the blob's own `verification_status` becomes the index state, as import does). For
/// callers that hold grains outside a store: render's tests, benchmarks and examples.
/// `hash` is shown as given (`sha256:…`); `None` when the JSON is not a grain.
pub fn grain_input_from_json(json: &serde_json::Value, score: f64, hash: &str) -> Option<GrainInput> {
    let grain = Grain::from_json(json).ok()?;
    let index = IndexState {
        verification_status: grain.get_str("verification_status").map(str::to_string),
        ..IndexState::default()
    };
    let address = ContentAddress::from_bytes([0; 32]);
    let mut g = grain_input_of(&View { grain: &grain, address: &address, score, index: &index });
    g.hash = hash.to_string();
    Some(g)
}

/// A value as JSON for output: times as RFC 3339 text, hashes as `sha256:…`.
pub fn to_output(field: &str, v: &Value) -> serde_json::Value {
    match (binding::binding(field).map(|b| b.read), v) {
        (_, Value::Int(ms)) if is_temporal(field) => {
            i64::try_from(*ms).map_or(serde_json::Value::Null, |ms| format_rfc3339(ms).into())
        }
        (Some(Read::Address), Value::Str(h)) => format!("sha256:{h}").into(),
        _ => oms::json::to_json(v),
    }
}

/// A value as text, for SUBJECTS/OBJECTS and group keys.
pub fn to_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        other => oms::json::to_json(other).to_string(),
    }
}
