//! Selective disclosure (OMS §10): a derived view of a grain with some
//! fields replaced by hashes, and verification of revealed values.
//!
//! Elision hash (§10.1.1): `"sha256:" + hex(SHA-256(canonical MessagePack of
//! the value))`, where the value is encoded exactly as it sits in the blob
//! (nested compaction applied for the three compacted fields). `_elided` maps
//! full field names to those hashes; `_disclosure_of` is the original's
//! content address in its plain 64-hex form.

use sha2::{Digest, Sha256};

use crate::address::{ContentAddress, ct_eq, hex};
use crate::canon::{self, KeyMap};
use crate::error::{OmsError, Result};
use crate::fields::Nested;
use crate::grain::{Grain, decode};
use crate::msgpack::MsgPackSink;
use crate::value::{Map, Value};

/// Fields §10.2 marks elidable. Any field not listed is not elidable.
pub const ELIDABLE_FIELDS: &[&str] = &[
    "subject",
    "object",
    "user_id",
    "namespace",
    "provenance_chain",
    "context",
    "structural_tags",
    "description",
    "criteria",
    "criteria_structured",
    "parent_goals",
    "state_reason",
    "satisfaction_evidence",
    "delegate_to",
    "delegate_from",
    "rollback_on_failure",
    "observer_id",
    "observer_model",
    "frame_id",
    "sync_group",
];

/// Whether §10.2 allows eliding this field.
pub fn is_elidable(field: &str) -> bool {
    ELIDABLE_FIELDS.contains(&field)
}

/// The elision hash of one field's value (§10.1.1).
pub fn elision_hash(field: &str, value: &Value) -> Result<String> {
    let mut out = Vec::with_capacity(64);
    let km = Nested::for_field(field).map_or(KeyMap::Plain, KeyMap::Nested);
    canon::write_value(&mut MsgPackSink { out: &mut out }, value, km, 1, canon::DEFAULT_MAX_DEPTH)?;
    Ok(format!("sha256:{}", hex(&Sha256::digest(&out))))
}

/// Produces the disclosed view of `original` with `elide` removed (§10.1).
/// Refuses fields that are not elidable (`ERR_SCHEMA`) and fields the grain
/// does not have (`ERR_SCHEMA`). The view keeps the original's header
/// sensitivity as a floor, so eliding tags cannot lower it, and is unsigned:
/// the signature stays with the original (§10.3).
pub fn disclose(original: &Grain, elide: &[&str]) -> Result<Grain> {
    if original.get("_disclosure_of").is_some() {
        return Err(OmsError::schema("_disclosure_of", "grain is already a disclosed view"));
    }
    let header = original.header()?;
    let address = original.encode()?.address;
    let mut fields = original.fields().clone();
    let mut elided = Map::new();
    for name in elide {
        if !is_elidable(name) {
            return Err(OmsError::schema(name, "is not elidable (OMS §10.2)"));
        }
        let value = fields
            .remove(*name)
            .ok_or_else(|| OmsError::schema(name, "cannot elide a field the grain does not have"))?;
        elided.insert((*name).to_string(), Value::Str(elision_hash(name, &value)?));
    }
    fields.insert("_elided".into(), Value::Map(elided));
    fields.insert("_disclosure_of".into(), Value::Str(address.to_hex()));
    let mut view = Grain::with_type_byte(fields, header.type_byte)?;
    view.options = original.options;
    view.options.signed = false;
    view.options.sensitivity = header.sensitivity();
    Ok(view)
}

/// Checks a revealed value against the disclosed view's elision hash, in
/// constant time (`ERR_INTEGRITY` on mismatch, `ERR_SCHEMA` if the field was
/// not elided).
pub fn verify_revealed(view: &Grain, field: &str, value: &Value) -> Result<()> {
    let expected = view
        .get("_elided")
        .and_then(Value::as_map)
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
        .ok_or_else(|| OmsError::schema(field, "is not listed in _elided"))?;
    let actual = elision_hash(field, value)?;
    if ct_eq(expected.as_bytes(), actual.as_bytes()) {
        Ok(())
    } else {
        Err(OmsError::Integrity { what: format!("revealed value of {field} does not match its elision hash") })
    }
}

/// Checks that a disclosed view was faithfully derived from an original
/// blob: `_disclosure_of` is the blob's address, every field the view shows
/// is unchanged, and every elided field's hash matches the original value.
pub fn verify_disclosure(original_blob: &[u8], view: &Grain) -> Result<()> {
    let original = decode(original_blob)?;
    let claimed = view
        .get_str("_disclosure_of")
        .ok_or_else(|| OmsError::schema("_disclosure_of", "missing on a disclosed view"))?;
    if !ContentAddress::parse(claimed)?.ct_eq(&ContentAddress::of(original_blob)) {
        return Err(OmsError::Integrity { what: "_disclosure_of is not the original's address".into() });
    }
    for (k, v) in view.fields() {
        if k == "_elided" || k == "_disclosure_of" {
            continue;
        }
        if original.get(k) != Some(v) {
            return Err(OmsError::Integrity { what: format!("field {k} differs from the original") });
        }
    }
    let elided = view.get("_elided").and_then(Value::as_map).cloned().unwrap_or_default();
    for k in elided.keys() {
        let v = original.get(k).ok_or_else(|| OmsError::Integrity { what: format!("original has no field {k}") })?;
        verify_revealed(view, k, v)?;
    }
    for k in original.fields().keys() {
        if view.get(k).is_none() && !elided.contains_key(k) {
            return Err(OmsError::Integrity { what: format!("field {k} was dropped without an elision hash") });
        }
    }
    Ok(())
}
