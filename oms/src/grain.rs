//! The grain model and the blob codec: serialization exactly per OMS §4.9
//! and strict deserialization with round-trip fidelity (§22.6).

use crate::address::ContentAddress;
use crate::canon::{self, DEFAULT_MAX_DEPTH, KeyMap};
use crate::cbor::{self, CborSink};
use crate::error::{CorruptReason, OmsError, Result};
use crate::fields::{self, Nested};
use crate::header::{
    self, FLAG_CBOR, FLAG_COMPRESSED, FLAG_CONTENT_REFS, FLAG_EMBEDDING_REFS, FLAG_ENCRYPTED, FLAG_SIGNED, HEADER_LEN,
    Header, SENSITIVITY_SHIFT, Sensitivity,
};
use crate::msgpack::{self, MsgPackSink};
use crate::schema::{self, DATETIME_FIELDS};
use crate::time::parse_rfc3339_ms;
use crate::types::GrainType;
use crate::value::{Map, Value};

/// Payload encoding (header flag bit 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Canonical MessagePack (§4), the default.
    #[default]
    MsgPack,
    /// Deterministic CBOR (§16.2).
    Cbor,
}

/// Header choices the writer makes that cannot be derived from the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeaderOptions {
    /// Sensitivity floor: the header carries the higher of this and what the
    /// `structural_tags` require (§13.4).
    pub sensitivity: Sensitivity,
    /// Flag bit 0: the blob will travel inside a COSE_Sign1 envelope (§9.2).
    pub signed: bool,
    /// Payload encoding.
    pub encoding: Encoding,
}

/// A memory grain: its type, its fields under their full names, and the
/// writer's header choices. Unknown fields are kept as they are.
#[derive(Debug, Clone, PartialEq)]
pub struct Grain {
    ty: GrainType,
    fields: Map,
    /// Header choices used when encoding; filled from the header when decoding.
    pub options: HeaderOptions,
    /// The namespace hash read from the header of a blob without a
    /// namespace, when it is not the one this writer computes (the spec
    /// defines none for that case): re-encoding the decoded grain keeps it, so
    /// the bytes and the address round-trip (§22.6). `None` for grains built
    /// here, which always get the writer's hash.
    ns_hash_hint: Option<u16>,
}

/// An encoded grain: the blob bytes and their content address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// The complete blob: 9-byte header followed by the payload.
    pub bytes: Vec<u8>,
    /// SHA-256 of `bytes`.
    pub address: ContentAddress,
}

/// Limits applied while decoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Maximum nesting depth (§4.10); 32 (Extended profile) by default.
    pub max_depth: usize,
    /// Accept a blob whose signed flag is set. Only the COSE layer, which has
    /// seen the wrapper, sets this; a bare signed blob is `ERR_SIGNED_MISMATCH`.
    pub wrapped: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions { max_depth: DEFAULT_MAX_DEPTH, wrapped: false }
    }
}

impl Grain {
    /// Builds a grain from full-name fields. The type comes from `type`
    /// (`ERR_NO_TYPE` if absent, `ERR_UNKNOWN_TYPE` if not one of the ten
    /// standard names or `fact`). Datetime fields given as RFC 3339 text are
    /// converted to epoch milliseconds (§4.8), and integers in float-typed
    /// fields become floats (see [`schema::coerce_float_fields`]).
    pub fn new(fields: Map) -> Result<Self> {
        let name = type_name(&fields)?;
        let ty = GrainType::from_name(name).ok_or_else(|| OmsError::UnknownType { found: name.to_string() })?;
        Self::build(ty, fields)
    }

    /// Builds a grain with an explicit type byte, for reserved (0x0B–0xEF)
    /// and domain-profile (0xF0–0xFF) types whose payload name is
    /// application-defined. For a standard byte the `type` name must match.
    pub fn with_type_byte(fields: Map, byte: u8) -> Result<Self> {
        let ty = GrainType::from_byte(byte)?;
        let name = type_name(&fields)?;
        check_type_agrees(ty, name)?;
        Self::build(ty, fields)
    }

    fn build(ty: GrainType, mut fields: Map) -> Result<Self> {
        for name in DATETIME_FIELDS {
            if let Some(Value::Str(text)) = fields.get(*name) {
                let ms = parse_rfc3339_ms(text).ok_or_else(|| {
                    OmsError::schema(name, format!("{text:?} is neither epoch milliseconds nor an RFC 3339 date-time"))
                })?;
                fields.insert((*name).to_string(), Value::from(ms));
            }
        }
        schema::coerce_float_fields(&mut fields);
        Ok(Grain { ty, fields, options: HeaderOptions::default(), ns_hash_hint: None })
    }

    /// The grain type (header byte 2).
    pub fn grain_type(&self) -> GrainType {
        self.ty
    }

    /// All fields, under full names, `type` included.
    pub fn fields(&self) -> &Map {
        &self.fields
    }

    /// Consumes the grain, returning its fields.
    pub fn into_fields(self) -> Map {
        self.fields
    }

    /// One field by full name.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.get(name)
    }

    /// A string field by full name.
    pub fn get_str(&self, name: &str) -> Option<&str> {
        self.fields.get(name).and_then(Value::as_str)
    }

    /// A copy without the field `name`, the header choices kept.
    pub(crate) fn without_field(&self, name: &str) -> Grain {
        let mut g = self.clone();
        g.fields.remove(name);
        g
    }

    /// `created_at` in epoch milliseconds, if present.
    pub fn created_at(&self) -> Option<i64> {
        self.fields.get("created_at").and_then(Value::as_i64)
    }

    /// `namespace`, if present.
    pub fn namespace(&self) -> Option<&str> {
        self.get_str("namespace")
    }

    /// Checks required fields and ranges for this grain's type (§8, §19.3).
    pub fn validate(&self) -> Result<()> {
        schema::validate(self.ty, &self.fields)
    }

    /// The SHOULD-level findings for this grain (see [`schema::warnings`]):
    /// things the spec asks to report but not to reject. Encoding and
    /// decoding never print them; callers decide.
    pub fn warnings(&self) -> Vec<schema::Warning> {
        schema::warnings(self.ty, &self.fields)
    }

    /// Serializes the grain (§4.9): validate, compact, NFC, omit nulls, sort,
    /// encode, prepend the header, hash.
    pub fn encode(&self) -> Result<Blob> {
        self.encode_with_depth(DEFAULT_MAX_DEPTH)
    }

    /// [`Grain::encode`] with an explicit nesting limit.
    pub fn encode_with_depth(&self, max_depth: usize) -> Result<Blob> {
        self.validate()?;
        let mut out = Vec::with_capacity(256);
        out.extend_from_slice(&self.header()?.to_bytes());
        let km = KeyMap::Top { is_action: self.ty == GrainType::Action };
        // The field map is written in place, without cloning it into a Value.
        match self.options.encoding {
            Encoding::MsgPack => canon::write_map_ref(&mut MsgPackSink { out: &mut out }, &self.fields, km, max_depth)?,
            Encoding::Cbor => canon::write_map_ref(&mut CborSink { out: &mut out }, &self.fields, km, max_depth)?,
        }
        let address = ContentAddress::of(&out);
        Ok(Blob { bytes: out, address })
    }

    /// The fixed header this grain encodes to.
    pub fn header(&self) -> Result<Header> {
        let required = Sensitivity::required_by_tags(self.fields.get("structural_tags"));
        let sensitivity = required.max(self.options.sensitivity);
        let mut flags = sensitivity.bits() << SENSITIVITY_SHIFT;
        if self.options.signed {
            flags |= FLAG_SIGNED;
        }
        if non_empty_array(self.fields.get("content_refs")) {
            flags |= FLAG_CONTENT_REFS;
        }
        if non_empty_array(self.fields.get("embedding_refs")) {
            flags |= FLAG_EMBEDDING_REFS;
        }
        if self.options.encoding == Encoding::Cbor {
            flags |= FLAG_CBOR;
        }
        let ns = match self.fields.get("namespace") {
            Some(Value::Str(s)) => Some(canon::nfc(s)?),
            _ => None,
        };
        let created_at_sec = match self.fields.get("created_at") {
            Some(Value::Int(ms)) => u32::try_from(ms.div_euclid(1000))
                .map_err(|_| OmsError::range("created_at", format!("{ms} ms does not fit u32 seconds")))?,
            _ => 0,
        };
        let ns_hash = match (&ns, self.ns_hash_hint) {
            (None, Some(hint)) => hint,
            _ => header::namespace_hash(ns.as_deref()),
        };
        Ok(Header { flags, type_byte: self.ty.byte(), ns_hash, created_at_sec })
    }
}

fn non_empty_array(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Array(a)) if !a.is_empty())
}

fn type_name(fields: &Map) -> Result<&str> {
    match fields.get("type") {
        None | Some(Value::Null) => Err(OmsError::NoType),
        Some(Value::Str(s)) => Ok(s),
        Some(other) => Err(OmsError::schema("type", format!("must be a string, got {}", other.kind()))),
    }
}

/// A standard type byte must carry its own name; an `Other` byte must not
/// claim a standard name.
fn check_type_agrees(ty: GrainType, name: &str) -> Result<()> {
    match (ty, GrainType::from_name(name)) {
        (GrainType::Other(_), None) => Ok(()),
        (t, Some(n)) if t == n => Ok(()),
        (GrainType::Other(b), Some(_)) => Err(OmsError::corrupt(CorruptReason::HeaderMismatch(format!(
            "type byte 0x{b:02x} with standard type name {name:?}"
        )))),
        (_, None) => Err(OmsError::UnknownType { found: name.to_string() }),
        (t, Some(_)) => Err(OmsError::corrupt(CorruptReason::HeaderMismatch(format!(
            "type byte 0x{:02x} with type name {name:?}",
            t.byte()
        )))),
    }
}

/// Decodes a blob with default options. See [`decode_with`].
pub fn decode(blob: &[u8]) -> Result<Grain> {
    decode_with(blob, &DecodeOptions::default())
}

/// Decodes a blob strictly: header checks (`ERR_TOO_SHORT`, `ERR_VERSION`,
/// `ERR_SIGNED_MISMATCH`), payload well-formedness (`ERR_CORRUPT`,
/// `ERR_NOT_MAP`), type resolution (`ERR_NO_TYPE`, `ERR_UNKNOWN_TYPE`),
/// schema (`ERR_SCHEMA`, `ERR_EMPTY`, `ERR_RANGE`), sensitivity
/// (`ERR_SENSITIVITY_MISMATCH`), and finally canonical form: the grain must
/// re-encode to exactly these bytes, otherwise `ERR_CORRUPT`.
pub fn decode_with(blob: &[u8], opts: &DecodeOptions) -> Result<Grain> {
    decode_checked(blob, opts, Check::OnePass)
}

/// How much of a blob [`decode_checked`] verifies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Nothing beyond what decoding needs: the blob was verified before.
    Skip,
    /// Schema, and canonical form in one pass over the bytes (re-encoding only a blob
    /// the pass does not accept, for its exact reason).
    OnePass,
    /// Schema, and canonical form by re-encoding only: the one-pass check's oracle.
    Reencode,
}

/// [`decode_with`] checking canonical form only by re-encoding the grain and comparing
/// bytes, as it did before the one-pass check of `canon_check.rs`: slower, and kept as the
/// reference the property tests and fuzz targets hold that check to. Same result, same
/// errors.
pub fn decode_by_reencoding(blob: &[u8], opts: &DecodeOptions) -> Result<Grain> {
    decode_checked(blob, opts, Check::Reencode)
}

/// Decodes a blob that [`decode_with`] has already accepted (a grain the store verified
/// when it was loaded and then kept only as bytes): the same grain, without checking the
/// schema and the canonical form again, which cost as much as the decoding itself.
pub(crate) fn decode_verified(blob: &[u8], opts: &DecodeOptions) -> Result<Grain> {
    decode_checked(blob, opts, Check::Skip)
}

fn decode_checked(blob: &[u8], opts: &DecodeOptions, check: Check) -> Result<Grain> {
    let h = Header::parse(blob)?;
    if h.flags & FLAG_ENCRYPTED != 0 {
        return Err(OmsError::Unsupported { feature: "encrypted payload (flag bit 1); decrypt first".into() });
    }
    if h.flags & FLAG_COMPRESSED != 0 {
        return Err(OmsError::Unsupported { feature: "per-blob zstd payload compression (flag bit 2)".into() });
    }
    if h.is_signed() && !opts.wrapped {
        return Err(OmsError::SignedMismatch { flag: true, wrapped: false });
    }
    let payload = &blob[HEADER_LEN..];
    let encoding = if h.is_cbor() { Encoding::Cbor } else { Encoding::MsgPack };
    let value = match encoding {
        Encoding::MsgPack => msgpack::read_exact(payload, opts.max_depth)?,
        Encoding::Cbor => cbor::read_exact(payload, opts.max_depth)?,
    };
    let Value::Map(compact) = value else {
        return Err(OmsError::NotMap);
    };
    let name = match compact.get("t") {
        None => return Err(OmsError::NoType),
        Some(Value::Str(s)) => s.clone(),
        Some(other) => return Err(OmsError::schema("type", format!("must be a string, got {}", other.kind()))),
    };
    let ty = GrainType::from_byte(h.type_byte)?;
    check_type_agrees(ty, &name)?;
    let mut fields = expand(compact, ty == GrainType::Action)?;
    if check != Check::Skip {
        schema::validate(ty, &fields)?;
    }
    // A blob verified before passed these checks; they are pure functions of its bytes.
    if check != Check::Skip {
        let required = Sensitivity::required_by_tags(fields.get("structural_tags"));
        if h.sensitivity() < required {
            return Err(OmsError::SensitivityMismatch { header: h.sensitivity().bits(), required: required.bits() });
        }
        if let Some(path) = schema::integer_in_float_field(&mut fields) {
            return Err(OmsError::corrupt(CorruptReason::NonCanonical(format!(
                "{path} is an integer where the field type is float64 (§4.3)"
            ))));
        }
    }
    // The namespace hash is a routing hint (§3.1.1) that the spec does not
    // define for a grain without a namespace: besides the hash of the empty
    // string that this writer uses, accept 0x0000 and keep it.
    let ns_hash_hint = match fields.get("namespace") {
        None if h.ns_hash == header::ABSENT_NAMESPACE_HINT => Some(h.ns_hash),
        _ => None,
    };
    let grain = Grain {
        ty,
        fields,
        options: HeaderOptions { sensitivity: h.sensitivity(), signed: h.is_signed(), encoding },
        ns_hash_hint,
    };
    if check == Check::Skip {
        return Ok(grain);
    }
    // Canonical form, read off the bytes in one pass; a blob that pass does not accept is
    // re-encoded, which says exactly where and why it differs (and is the pass's oracle).
    if check == Check::OnePass
        && encoding == Encoding::MsgPack
        && crate::canon_check::is_canonical_msgpack(blob, &grain, opts.max_depth)
    {
        return Ok(grain);
    }
    reencoded_equal(blob, grain, opts.max_depth)
}

/// The canonical-form check by re-encoding: `grain`, decoded from `blob`, must encode to
/// exactly `blob`, else `ERR_CORRUPT` with where the bytes differ.
fn reencoded_equal(blob: &[u8], grain: Grain, max_depth: usize) -> Result<Grain> {
    let again = grain.encode_with_depth(max_depth)?;
    if again.bytes != blob {
        return Err(OmsError::corrupt(difference(blob, &again.bytes)));
    }
    Ok(grain)
}

/// Explains why a blob differs from its canonical re-encoding.
fn difference(blob: &[u8], canonical: &[u8]) -> CorruptReason {
    let names = [
        "version",
        "flags",
        "type",
        "namespace hash",
        "namespace hash",
        "created_at",
        "created_at",
        "created_at",
        "created_at",
    ];
    for (i, name) in names.iter().enumerate() {
        if blob.get(i) != canonical.get(i) {
            return CorruptReason::HeaderMismatch(format!(
                "header byte {i} ({name}) is 0x{:02x}, payload implies 0x{:02x}",
                blob.get(i).copied().unwrap_or(0),
                canonical.get(i).copied().unwrap_or(0)
            ));
        }
    }
    let at = blob.iter().zip(canonical).position(|(a, b)| a != b).unwrap_or(blob.len().min(canonical.len()));
    CorruptReason::NonCanonical(format!("payload differs from its canonical encoding at byte {at}"))
}

/// Short keys → full names, at the top level and inside the three nested
/// fields. Full names where a short key was due are rejected, because such a
/// blob could never be re-encoded to the same bytes.
fn expand(compact: Map, is_action: bool) -> Result<Map> {
    let mut out = Map::new();
    for (k, v) in compact {
        if fields::is_noncanonical_full_key(&k, is_action) {
            return Err(OmsError::corrupt(CorruptReason::NonCanonical(format!(
                "full field name {k:?} where its short key is required"
            ))));
        }
        let full = fields::expand_key(&k, is_action).to_string();
        let v = match Nested::for_field(&full) {
            Some(n) => expand_nested(v, n)?,
            None => v,
        };
        if out.insert(full.clone(), v).is_some() {
            return Err(OmsError::corrupt(CorruptReason::DuplicateKey(full)));
        }
    }
    Ok(out)
}

fn expand_nested(v: Value, n: Nested) -> Result<Value> {
    let expand_map = |m: Map| -> Result<Value> {
        let mut out = Map::new();
        for (k, v) in m {
            if n.is_noncanonical_full(&k) {
                return Err(OmsError::corrupt(CorruptReason::NonCanonical(format!(
                    "full field name {k:?} inside a nested reference"
                ))));
            }
            let full = n.expand(&k).to_string();
            if out.insert(full.clone(), v).is_some() {
                return Err(OmsError::corrupt(CorruptReason::DuplicateKey(full)));
            }
        }
        Ok(Value::Map(out))
    };
    match v {
        Value::Map(m) => expand_map(m),
        Value::Array(items) => Ok(Value::Array(
            items
                .into_iter()
                .map(|i| match i {
                    Value::Map(m) => expand_map(m),
                    other => Ok(other),
                })
                .collect::<Result<_>>()?,
        )),
        other => Ok(other),
    }
}
