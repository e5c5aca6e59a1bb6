//! COSE Sign1 envelopes (OMS §9, RFC 9052) with Ed25519 and `did:key`
//! signer identities.
//!
//! The envelope wraps the complete blob. The signed flag (header bit 0) must
//! be set in a wrapped blob and clear in a bare one (§9.2); signing a blob
//! whose flag is clear therefore sets it first, which gives the signed grain
//! its own content address (see docs/spec-decisions-oms.md).

use coset::cbor::value::Value as CborValue;
use coset::{
    AsCborValue, CborSerializable, CoseSign1, CoseSign1Builder, HeaderBuilder, Label, RegisteredLabelWithPrivate,
    TaggedCborSerializable, iana,
};
use ed25519_dalek::{Signature, Signer, SigningKey};

use crate::address::ContentAddress;
use crate::did;
use crate::error::{OmsError, Result};
use crate::grain::{DecodeOptions, Grain, decode_with};
use crate::header::{FLAG_SIGNED, Header};

/// Content type of a wrapped MessagePack blob (§9.1).
pub const CONTENT_TYPE_MSGPACK: &str = "application/vnd.mg+msgpack";
/// Content type of a wrapped CBOR blob.
pub const CONTENT_TYPE_CBOR: &str = "application/vnd.mg+cbor";

/// A signed grain ready to ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedGrain {
    /// The tagged COSE_Sign1 bytes.
    pub cose: Vec<u8>,
    /// The inner blob (signed flag set).
    pub blob: Vec<u8>,
    /// Content address of the inner blob.
    pub address: ContentAddress,
    /// The signer's `did:key`.
    pub signer: String,
}

/// What a successful verification established.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The decoded inner grain.
    pub grain: Grain,
    /// The inner blob.
    pub blob: Vec<u8>,
    /// Content address of the inner blob.
    pub address: ContentAddress,
    /// The signer's DID from the protected `kid`.
    pub signer: String,
    /// COSE algorithm value used (-8 EdDSA or -19 Ed25519).
    pub algorithm: i64,
    /// `iat` from the unprotected header, if present.
    pub iat: Option<i64>,
}

/// Whether bytes look like a COSE_Sign1 (tag 18 or a bare 4-element array)
/// rather than a blob (which starts with version 0x01).
pub fn is_cose(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(0xd2) | Some(0x84))
}

/// Signs a grain: encodes it with the signed flag set and wraps it.
pub fn sign_grain(grain: &Grain, key: &SigningKey, iat: Option<i64>) -> Result<SignedGrain> {
    let mut g = grain.clone();
    g.options.signed = true;
    let blob = g.encode()?;
    sign_blob(&blob.bytes, key, iat)
}

/// Signs a blob with algorithm -8 (EdDSA/Ed25519), `kid` = the signer's
/// `did:key`. A blob whose signed flag is clear gets it set first; the blob is
/// decoded before signing, so only valid grains are ever signed.
pub fn sign_blob(blob: &[u8], key: &SigningKey, iat: Option<i64>) -> Result<SignedGrain> {
    let h = Header::parse(blob)?;
    let mut inner = blob.to_vec();
    inner[1] |= FLAG_SIGNED;
    decode_with(&inner, &DecodeOptions { wrapped: true, ..DecodeOptions::default() })?;
    let signer = did::encode_ed25519(&key.verifying_key());
    let content_type = if h.is_cbor() { CONTENT_TYPE_CBOR } else { CONTENT_TYPE_MSGPACK };
    let protected = HeaderBuilder::new()
        .algorithm(iana::Algorithm::EdDSA)
        .key_id(signer.as_bytes().to_vec())
        .content_type(content_type.to_string())
        .build();
    let mut unprotected = HeaderBuilder::new();
    if let Some(t) = iat {
        unprotected = unprotected.text_value("iat".to_string(), CborValue::Integer(t.into()));
    }
    let sign1 = CoseSign1Builder::new()
        .protected(protected)
        .unprotected(unprotected.build())
        .payload(inner.clone())
        .create_signature(b"", |data| key.sign(data).to_bytes().to_vec())
        .build();
    let cose =
        sign1.to_tagged_vec().map_err(|e| OmsError::Bug { detail: format!("COSE serialization failed: {e}") })?;
    let address = ContentAddress::of(&inner);
    Ok(SignedGrain { cose, blob: inner, address, signer })
}

fn sig_err(reason: impl Into<String>) -> OmsError {
    OmsError::Signature { reason: reason.into() }
}

/// Parses a COSE_Sign1, tagged (18) or untagged. A `kid` written as a text
/// string, as in the example of §9.1, is accepted as well as the byte string
/// RFC 9052 prescribes (and this crate writes): coset refuses text, so the
/// protected header is read again with the text replaced by its UTF-8 bytes,
/// while the signature is still checked over the protected bytes as sent.
fn parse_sign1(cose: &[u8]) -> Result<CoseSign1> {
    let parsed =
        if cose.first() == Some(&0xd2) { CoseSign1::from_tagged_slice(cose) } else { CoseSign1::from_slice(cose) };
    match parsed {
        Ok(sign1) => Ok(sign1),
        Err(e) => with_text_kid(cose).ok_or_else(|| sig_err(format!("malformed COSE_Sign1: {e}"))),
    }
}

/// Reads exactly one CBOR item from `bytes` (no trailing bytes).
fn cbor_item(bytes: &[u8]) -> Option<CborValue> {
    let mut rest = bytes;
    let value = coset::cbor::de::from_reader(&mut rest).ok()?;
    rest.is_empty().then_some(value)
}

/// The COSE_Sign1 of `cose` if its protected header has a text `kid`;
/// `None` for anything else (the caller then reports coset's error).
fn with_text_kid(cose: &[u8]) -> Option<CoseSign1> {
    let array = match (cose.first(), cbor_item(cose)?) {
        (Some(0xd2), CborValue::Tag(18, inner)) => *inner,
        (Some(0x84), array) => array,
        _ => return None,
    };
    let CborValue::Array(mut items) = array else { return None };
    let original = match items.first() {
        Some(CborValue::Bytes(b)) if items.len() == 4 => b.clone(),
        _ => return None,
    };
    let CborValue::Map(mut entries) = cbor_item(&original)? else { return None };
    let mut text_kid = false;
    for (label, value) in &mut entries {
        if matches!(label, CborValue::Integer(i) if i128::from(*i) == 4)
            && let CborValue::Text(t) = value
        {
            *value = CborValue::Bytes(std::mem::take(t).into_bytes());
            text_kid = true;
        }
    }
    if !text_kid {
        return None;
    }
    let mut protected = Vec::new();
    coset::cbor::ser::into_writer(&CborValue::Map(entries), &mut protected).ok()?;
    items[0] = CborValue::Bytes(protected);
    let mut sign1 = CoseSign1::from_cbor_value(CborValue::Array(items)).ok()?;
    sign1.protected.original_data = Some(original);
    Some(sign1)
}

/// Verifies a COSE_Sign1 (tagged or untagged) per §9.3: parse, read `kid`
/// (a byte string, or a text string as in the example of §9.1),
/// resolve the `did:key`, check the Ed25519 signature (-8 and -19 both
/// accepted), check the signed flag and decode the inner blob.
pub fn verify(cose: &[u8]) -> Result<Verified> {
    let sign1 = parse_sign1(cose)?;
    let algorithm = match &sign1.protected.header.alg {
        Some(RegisteredLabelWithPrivate::Assigned(iana::Algorithm::EdDSA)) => -8,
        Some(RegisteredLabelWithPrivate::Assigned(iana::Algorithm::Ed25519)) => -19,
        Some(other) => return Err(OmsError::Unsupported { feature: format!("COSE algorithm {other:?}") }),
        None => return Err(sig_err("protected header has no algorithm")),
    };
    let kid = &sign1.protected.header.key_id;
    if kid.is_empty() {
        return Err(sig_err("protected header has no kid (signer DID)"));
    }
    let signer = String::from_utf8(kid.clone()).map_err(|_| sig_err("kid is not a UTF-8 DID"))?;
    let public = did::resolve_ed25519(&signer)?;
    let blob = sign1.payload.clone().ok_or_else(|| sig_err("detached payloads are not supported"))?;
    sign1.verify_signature(b"", |sig, data| {
        let sig = Signature::from_slice(sig).map_err(|_| sig_err("signature must be 64 bytes"))?;
        public.verify_strict(data, &sig).map_err(|_| sig_err(format!("signature does not verify for {signer}")))
    })?;
    let h = Header::parse(&blob)?;
    if !h.is_signed() {
        return Err(OmsError::SignedMismatch { flag: false, wrapped: true });
    }
    let grain = decode_with(&blob, &DecodeOptions { wrapped: true, ..DecodeOptions::default() })?;
    let iat = sign1.unprotected.rest.iter().find_map(|(l, v)| match (l, v) {
        (Label::Text(t), CborValue::Integer(i)) if t == "iat" => i64::try_from(*i).ok(),
        _ => None,
    });
    let address = ContentAddress::of(&blob);
    Ok(Verified { grain, blob, address, signer, algorithm, iat })
}

/// The inner blob of a COSE_Sign1 *without* checking the signature, for
/// indexing and packing; use [`verify`] before trusting it.
pub fn unwrap_unverified(cose: &[u8]) -> Result<Vec<u8>> {
    let sign1 = parse_sign1(cose)?;
    sign1.payload.ok_or_else(|| sig_err("detached payloads are not supported"))
}

/// Signs an arbitrary payload (for authorizations such as the
/// `supersession_auth` entries of §23.2), returning a tagged COSE_Sign1.
pub fn sign_payload(payload: &[u8], key: &SigningKey) -> Result<Vec<u8>> {
    let signer = did::encode_ed25519(&key.verifying_key());
    let protected = HeaderBuilder::new().algorithm(iana::Algorithm::EdDSA).key_id(signer.into_bytes()).build();
    CoseSign1Builder::new()
        .protected(protected)
        .payload(payload.to_vec())
        .create_signature(b"", |data| key.sign(data).to_bytes().to_vec())
        .build()
        .to_tagged_vec()
        .map_err(|e| OmsError::Bug { detail: format!("COSE serialization failed: {e}") })
}

/// Verifies a COSE_Sign1 over an arbitrary payload, returning the signer DID
/// and the payload. Same algorithm and `kid` rules as [`verify`].
pub fn verify_payload(cose: &[u8]) -> Result<(String, Vec<u8>)> {
    let sign1 = parse_sign1(cose)?;
    match &sign1.protected.header.alg {
        Some(RegisteredLabelWithPrivate::Assigned(iana::Algorithm::EdDSA | iana::Algorithm::Ed25519)) => {}
        Some(other) => return Err(OmsError::Unsupported { feature: format!("COSE algorithm {other:?}") }),
        None => return Err(sig_err("protected header has no algorithm")),
    }
    let signer =
        String::from_utf8(sign1.protected.header.key_id.clone()).map_err(|_| sig_err("kid is not a UTF-8 DID"))?;
    let public = did::resolve_ed25519(&signer)?;
    sign1.verify_signature(b"", |sig, data| {
        let sig = Signature::from_slice(sig).map_err(|_| sig_err("signature must be 64 bytes"))?;
        public.verify_strict(data, &sig).map_err(|_| sig_err(format!("signature does not verify for {signer}")))
    })?;
    let payload = sign1.payload.ok_or_else(|| sig_err("detached payloads are not supported"))?;
    Ok((signer, payload))
}

/// Reads a signing key from a 32-byte Ed25519 seed in hex.
pub fn signing_key_from_hex(seed_hex: &str) -> Result<SigningKey> {
    let bytes = crate::address::unhex(seed_hex.trim()).ok_or_else(|| sig_err("signing key must be hex"))?;
    let seed: [u8; 32] = bytes.as_slice().try_into().map_err(|_| sig_err("signing key seed must be 32 bytes"))?;
    Ok(SigningKey::from_bytes(&seed))
}
