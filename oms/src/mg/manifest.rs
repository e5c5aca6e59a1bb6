//! The index manifest (OMS §11.7): portable index-layer state carried in a
//! `.mg` file, a canonical map from content address to short-keyed fields.

use std::collections::BTreeMap;

use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::value::{Map, Value};
use crate::{cbor, msgpack};

/// The values `verification_status` may take (§6.1).
pub const VERIFICATION_STATUSES: &[&str] = &["unverified", "verified", "contested", "retracted"];

/// Index-layer state of one grain (§5.6, §28.3). `None` means default.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IndexState {
    /// Portable: address of the superseding grain (`sb`).
    pub superseded_by: Option<ContentAddress>,
    /// Portable: epoch ms when the grain left the current view (`svt`).
    pub system_valid_to: Option<i64>,
    /// Portable: verification decision (`vstatus`).
    pub verification_status: Option<String>,
    /// Local: retrieval count (`ac`).
    pub access_count: Option<u64>,
    /// Local: epoch ms of the last retrieval (`laa`).
    pub last_accessed_at: Option<i64>,
    /// Entries this implementation does not know, kept for round trips.
    pub extra: Map,
}

/// Manifest entries keyed by content address.
pub type Manifest = BTreeMap<ContentAddress, IndexState>;

impl IndexState {
    /// Whether every field is at its default (such grains need no entry).
    pub fn is_default(&self) -> bool {
        self.superseded_by.is_none()
            && self.system_valid_to.is_none()
            && self.verification_status.as_deref().is_none_or(|s| s == "unverified")
            && self.access_count.is_none_or(|c| c == 0)
            && self.last_accessed_at.is_none()
            && self.extra.is_empty()
    }

    /// Whether any portable field (§11.7) is set.
    pub fn has_portable(&self) -> bool {
        self.superseded_by.is_some()
            || self.system_valid_to.is_some()
            || self.verification_status.as_deref().is_some_and(|s| s != "unverified")
    }

    /// The state without its local fields.
    pub fn portable_only(&self) -> IndexState {
        IndexState { access_count: None, last_accessed_at: None, ..self.clone() }
    }

    /// The entry as a manifest map with short keys (§11.7).
    pub(crate) fn to_value(&self) -> Value {
        let mut m = self.extra.clone();
        if let Some(sb) = &self.superseded_by {
            m.insert("sb".into(), Value::Str(sb.to_hex()));
        }
        if let Some(t) = self.system_valid_to {
            m.insert("svt".into(), Value::from(t));
        }
        if let Some(s) = &self.verification_status {
            m.insert("vstatus".into(), Value::Str(s.clone()));
        }
        if let Some(c) = self.access_count {
            m.insert("ac".into(), Value::from(c));
        }
        if let Some(t) = self.last_accessed_at {
            m.insert("laa".into(), Value::from(t));
        }
        Value::Map(m)
    }

    /// Reads a manifest map entry back.
    pub(crate) fn from_value(v: Value) -> Result<Self> {
        let Value::Map(m) = v else {
            return Err(OmsError::schema("manifest", "every entry must be a map"));
        };
        let mut st = IndexState::default();
        for (k, v) in m {
            match k.as_str() {
                "sb" => {
                    let s = v.as_str().ok_or_else(|| OmsError::schema("superseded_by", "must be a string"))?;
                    st.superseded_by = Some(ContentAddress::parse(s)?);
                }
                "svt" => st.system_valid_to = Some(int(&v, "system_valid_to")?),
                "vstatus" => match v.as_str() {
                    Some(s) if VERIFICATION_STATUSES.contains(&s) => st.verification_status = Some(s.to_string()),
                    _ => {
                        return Err(OmsError::schema(
                            "verification_status",
                            format!("must be one of {}", VERIFICATION_STATUSES.join(", ")),
                        ));
                    }
                },
                "ac" => {
                    let c = int(&v, "access_count")?;
                    st.access_count = Some(u64::try_from(c).map_err(|_| OmsError::range("access_count", "negative"))?);
                }
                "laa" => st.last_accessed_at = Some(int(&v, "last_accessed_at")?),
                _ => {
                    st.extra.insert(k, v);
                }
            }
        }
        Ok(st)
    }
}

fn int(v: &Value, field: &str) -> Result<i64> {
    v.as_i64().ok_or_else(|| OmsError::schema(field, "must be an integer"))
}

/// Encodes a manifest canonically in MessagePack or CBOR.
pub(crate) fn encode(manifest: &Manifest, use_cbor: bool) -> Result<Vec<u8>> {
    let m: Map = manifest.iter().map(|(a, s)| (a.to_hex(), s.to_value())).collect();
    let v = Value::Map(m);
    if use_cbor { cbor::encode_value(&v) } else { msgpack::encode_value(&v) }
}

/// Decodes a manifest; it must be canonical (re-encoding gives the same bytes).
pub(crate) fn decode(bytes: &[u8], use_cbor: bool) -> Result<Manifest> {
    let v = if use_cbor { cbor::read_exact(bytes, 8)? } else { msgpack::read_exact(bytes, 8)? };
    let Value::Map(m) = v else {
        return Err(OmsError::NotMap);
    };
    let mut out = Manifest::new();
    for (k, v) in m {
        out.insert(ContentAddress::parse(&k)?, IndexState::from_value(v)?);
    }
    if encode(&out, use_cbor)? != bytes {
        return Err(super::container("index manifest is not in canonical form"));
    }
    Ok(out)
}
