//! The OMS error vocabulary: one variant per `ERR_*` code of OMS §19, plus
//! a few extension codes for conditions §19 does not name (signatures,
//! identifiers, unsupported features, I/O framing).
//!
//! Every decoding entry point of this crate returns `Result<_, OmsError>`;
//! `OmsError::code()` gives the spec's code string so callers never match on
//! message text.

use std::fmt;

/// Why a payload or container was judged malformed (`ERR_CORRUPT`).
///
/// Kept as an enum so tests can assert the precise reason, not only the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorruptReason {
    /// The bytes end before the value they announce is complete.
    Truncated,
    /// Bytes remain after the single top-level value.
    TrailingBytes,
    /// A marker or initial byte that OMS payloads never use (ext types,
    /// CBOR tags, indefinite lengths, reserved markers).
    BadMarker(u8),
    /// A string is not valid UTF-8.
    InvalidUtf8,
    /// A string contains a byte-order mark (U+FEFF), forbidden by §4.4.
    Bom,
    /// The same key occurs twice in one map (§4.1).
    DuplicateKey(String),
    /// The same key occurs twice in one object of a grain written as JSON
    /// (§4.1: keys must be unique; a JSON parser would keep only the last).
    DuplicateJsonKey {
        /// The repeated key.
        key: String,
        /// The object holding it, as a JSON Pointer (RFC 6901; empty for the
        /// top-level object).
        path: String,
    },
    /// A map key is not a string.
    NonStringKey,
    /// Nesting deeper than the configured limit (§4.10).
    DepthExceeded(usize),
    /// The payload decodes but is not in canonical form (key order, integer
    /// or float width, NFC, nulls in maps, ...), so re-encoding would not
    /// reproduce the bytes (§22.6).
    NonCanonical(String),
    /// A fixed-header byte disagrees with the payload it describes.
    HeaderMismatch(String),
    /// A `.mg` container or frame is structurally invalid.
    Container(String),
    /// JSON input could not be parsed.
    Json(String),
}

impl fmt::Display for CorruptReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorruptReason::Truncated => write!(f, "payload is truncated"),
            CorruptReason::TrailingBytes => write!(f, "bytes remain after the payload"),
            CorruptReason::BadMarker(b) => write!(f, "unsupported encoding marker 0x{b:02x}"),
            CorruptReason::InvalidUtf8 => write!(f, "string is not valid UTF-8"),
            CorruptReason::Bom => write!(f, "string contains a byte-order mark (EF BB BF)"),
            CorruptReason::DuplicateKey(k) => write!(f, "duplicate map key {k:?}"),
            CorruptReason::DuplicateJsonKey { key, path } if path.is_empty() => {
                write!(f, "duplicate key {key:?} in the top-level JSON object")
            }
            CorruptReason::DuplicateJsonKey { key, path } => {
                write!(f, "duplicate key {key:?} in the JSON object at {path}")
            }
            CorruptReason::NonStringKey => write!(f, "map key is not a string"),
            CorruptReason::DepthExceeded(d) => write!(f, "nesting deeper than {d} levels"),
            CorruptReason::NonCanonical(why) => write!(f, "payload is not canonical: {why}"),
            CorruptReason::HeaderMismatch(why) => write!(f, "header disagrees with payload: {why}"),
            CorruptReason::Container(why) => write!(f, "invalid container: {why}"),
            CorruptReason::Json(why) => write!(f, "invalid JSON: {why}"),
        }
    }
}

/// An OMS error. Variants map one-to-one onto the `ERR_*` codes of §19;
/// the last few are extension codes this implementation adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmsError {
    /// `ERR_TOO_SHORT`: a blob shorter than 10 bytes (9-byte header + payload).
    TooShort {
        /// Length actually received.
        len: usize,
    },
    /// `ERR_VERSION`: the version byte (or `.mg` magic version) is not 0x01.
    Version {
        /// The version byte found.
        version: u8,
    },
    /// `ERR_CORRUPT`: malformed MessagePack/CBOR, duplicate keys, BOM,
    /// excessive nesting, non-canonical bytes or an inconsistent header.
    Corrupt(CorruptReason),
    /// `ERR_NOT_MAP`: the payload is not a map.
    NotMap,
    /// `ERR_NO_TYPE`: the payload has no `type` (`t`) field.
    NoType,
    /// `ERR_UNKNOWN_TYPE`: a type name or type byte this implementation cannot place.
    UnknownType {
        /// The offending type name or byte, as text.
        found: String,
    },
    /// `ERR_SCHEMA`: a required field is missing or a field has the wrong shape.
    Schema {
        /// Full field name.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `ERR_EMPTY`: a required string (or array) is empty.
    Empty {
        /// Full field name.
        field: String,
    },
    /// `ERR_RANGE`: a number outside its allowed range (confidence,
    /// importance, counts, timestamps).
    Range {
        /// Full field name.
        field: String,
        /// The allowed range and the value found.
        detail: String,
    },
    /// `ERR_FLOAT_INVALID`: NaN or ±Infinity (§4.3).
    FloatInvalid {
        /// Where the value was found.
        path: String,
    },
    /// `ERR_SIGNED_MISMATCH`: the signed flag disagrees with the presence of a
    /// COSE_Sign1 wrapper (§9.2).
    SignedMismatch {
        /// Value of header bit 0.
        flag: bool,
        /// Whether a COSE wrapper was present.
        wrapped: bool,
    },
    /// `ERR_SENSITIVITY_MISMATCH`: header sensitivity lower than the tags require (§13.4).
    SensitivityMismatch {
        /// Sensitivity bits found in the header.
        header: u8,
        /// Minimum the structural tags require.
        required: u8,
    },
    /// `ERR_HASH_FORMAT`: a content address that is not lowercase hex.
    HashFormat {
        /// The rejected text.
        found: String,
    },
    /// `ERR_HASH_LENGTH`: a content address that is not 64 characters long.
    HashLength {
        /// Its length.
        len: usize,
    },
    /// `ERR_INTEGRITY`: a SHA-256 (content address, elision hash or `.mg`
    /// footer) does not match the bytes.
    Integrity {
        /// What was being checked.
        what: String,
    },
    /// `ERR_INVALIDATION_DENIED`: a supersession, contradiction or erasure
    /// violates an `invalidation_policy` (§23).
    InvalidationDenied {
        /// Why the policy refused.
        reason: String,
    },
    /// `ERR_EVIDENCE_REQUIRED`: a protected goal transition lacks evidence (§23.5).
    EvidenceRequired {
        /// Why evidence is required.
        reason: String,
    },
    /// `ERR_SIGNATURE` (extension): a COSE_Sign1 envelope is malformed or its
    /// signature does not verify.
    Signature {
        /// What failed.
        reason: String,
    },
    /// `ERR_DID` (extension): a `did:key` identifier cannot be decoded.
    Did {
        /// What is wrong with it.
        reason: String,
    },
    /// `ERR_UNSUPPORTED` (extension): a valid feature this implementation does
    /// not provide (encrypted payloads, lz4, custom field maps, ES256).
    Unsupported {
        /// The feature.
        feature: String,
    },
    /// `ERR_CONFLICT` (extension): the target of a supersession is already
    /// superseded, or the new grain already exists (CAL's SupersessionConflict).
    Conflict {
        /// What conflicted.
        reason: String,
    },
    /// `ERR_NOT_FOUND` (extension): a content address absent from a store.
    NotFound {
        /// The address looked up.
        address: String,
    },
    /// `ERR_BUSY` (extension): another process is writing to the store; one
    /// writer at a time, and the refused write changed nothing.
    Busy {
        /// What was refused.
        reason: String,
    },
    /// `ERR_INTERRUPTED` (extension): the caller's deadline passed while the store was
    /// working ([`crate::interrupt`]); the caller reports its own timeout.
    Interrupted,
    /// `ERR_IO` (extension): reading or writing a stream failed.
    Io {
        /// The underlying error.
        reason: String,
    },
    /// `ERR_BUG` (extension): an internal invariant failed. This is a bug in
    /// the toolchain, please report it.
    Bug {
        /// The broken invariant.
        detail: String,
    },
}

impl OmsError {
    /// The `ERR_*` code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            OmsError::TooShort { .. } => "ERR_TOO_SHORT",
            OmsError::Version { .. } => "ERR_VERSION",
            OmsError::Corrupt(_) => "ERR_CORRUPT",
            OmsError::NotMap => "ERR_NOT_MAP",
            OmsError::NoType => "ERR_NO_TYPE",
            OmsError::UnknownType { .. } => "ERR_UNKNOWN_TYPE",
            OmsError::Schema { .. } => "ERR_SCHEMA",
            OmsError::Empty { .. } => "ERR_EMPTY",
            OmsError::Range { .. } => "ERR_RANGE",
            OmsError::FloatInvalid { .. } => "ERR_FLOAT_INVALID",
            OmsError::SignedMismatch { .. } => "ERR_SIGNED_MISMATCH",
            OmsError::SensitivityMismatch { .. } => "ERR_SENSITIVITY_MISMATCH",
            OmsError::HashFormat { .. } => "ERR_HASH_FORMAT",
            OmsError::HashLength { .. } => "ERR_HASH_LENGTH",
            OmsError::Integrity { .. } => "ERR_INTEGRITY",
            OmsError::InvalidationDenied { .. } => "ERR_INVALIDATION_DENIED",
            OmsError::EvidenceRequired { .. } => "ERR_EVIDENCE_REQUIRED",
            OmsError::Signature { .. } => "ERR_SIGNATURE",
            OmsError::Did { .. } => "ERR_DID",
            OmsError::Unsupported { .. } => "ERR_UNSUPPORTED",
            OmsError::Conflict { .. } => "ERR_CONFLICT",
            OmsError::NotFound { .. } => "ERR_NOT_FOUND",
            OmsError::Busy { .. } => "ERR_BUSY",
            OmsError::Interrupted => "ERR_INTERRUPTED",
            OmsError::Io { .. } => "ERR_IO",
            OmsError::Bug { .. } => "ERR_BUG",
        }
    }

    /// Shorthand for an `ERR_CORRUPT` with a reason.
    pub(crate) fn corrupt(reason: CorruptReason) -> Self {
        OmsError::Corrupt(reason)
    }

    /// Shorthand for `ERR_SCHEMA`.
    pub(crate) fn schema(field: &str, problem: impl Into<String>) -> Self {
        OmsError::Schema { field: field.to_string(), problem: problem.into() }
    }

    /// Shorthand for `ERR_RANGE`.
    pub(crate) fn range(field: &str, detail: impl Into<String>) -> Self {
        OmsError::Range { field: field.to_string(), detail: detail.into() }
    }
}

impl fmt::Display for OmsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.code())?;
        match self {
            OmsError::TooShort { len } => {
                write!(f, "Blob must be at least 10 bytes (9-byte header + payload), got {len}")
            }
            OmsError::Version { version } => {
                write!(f, "Unsupported format version: {version}")
            }
            OmsError::Corrupt(r) => write!(f, "Invalid payload encoding: {r}"),
            OmsError::NotMap => write!(f, "Payload must be a MessagePack/CBOR map"),
            OmsError::NoType => write!(f, "Missing required field: type"),
            OmsError::UnknownType { found } => write!(f, "Unknown memory type: {found}"),
            OmsError::Schema { field, problem } => write!(f, "{field}: {problem}"),
            OmsError::Empty { field } => write!(f, "{field}: required value is empty"),
            OmsError::Range { field, detail } => write!(f, "{field}: out of range ({detail})"),
            OmsError::FloatInvalid { path } => {
                write!(f, "{path}: NaN and Infinity are not allowed")
            }
            OmsError::SignedMismatch { flag, wrapped } => write!(
                f,
                "signed flag is {} but the grain is {}wrapped in COSE_Sign1",
                u8::from(*flag),
                if *wrapped { "" } else { "not " }
            ),
            OmsError::SensitivityMismatch { header, required } => {
                write!(f, "header sensitivity {header:02b} is lower than {required:02b} required by structural_tags")
            }
            OmsError::HashFormat { found } => {
                write!(f, "content address is not lowercase hex: {found:?}")
            }
            OmsError::HashLength { len } => {
                write!(f, "content address must be 64 characters, got {len}")
            }
            OmsError::Integrity { what } => write!(f, "SHA-256 mismatch: {what}"),
            OmsError::InvalidationDenied { reason } => write!(f, "{reason}"),
            OmsError::EvidenceRequired { reason } => write!(f, "{reason}"),
            OmsError::Signature { reason } => write!(f, "{reason}"),
            OmsError::Did { reason } => write!(f, "{reason}"),
            OmsError::Unsupported { feature } => write!(f, "not supported: {feature}"),
            OmsError::Conflict { reason } => write!(f, "{reason}"),
            OmsError::NotFound { address } => write!(f, "no grain with address {address}"),
            OmsError::Busy { reason } => write!(f, "{reason}"),
            OmsError::Interrupted => write!(f, "The caller's deadline passed; the store stopped."),
            OmsError::Io { reason } => write!(f, "{reason}"),
            OmsError::Bug { detail } => write!(f, "{detail} (this is a bug in the toolchain, please report it)"),
        }
    }
}

impl std::error::Error for OmsError {}

impl From<std::io::Error> for OmsError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            OmsError::Corrupt(CorruptReason::Truncated)
        } else {
            OmsError::Io { reason: e.to_string() }
        }
    }
}

/// Result alias used throughout the crate.
pub type Result<T, E = OmsError> = std::result::Result<T, E>;
