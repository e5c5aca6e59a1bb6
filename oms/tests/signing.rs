//! COSE Sign1 round trips, bad signatures, algorithm values, the signed-flag
//! rule (§9.2) and selective disclosure (§10).

use coset::{CborSerializable, CoseSign1, CoseSign1Builder, HeaderBuilder, TaggedCborSerializable, iana};
use ed25519_dalek::{Signer, SigningKey};
use oms::cose::{self, sign_blob, sign_grain, verify};
use oms::disclosure::{self, disclose, elision_hash, verify_disclosure, verify_revealed};
use oms::{Grain, OmsError, Value, decode, did};

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

fn fact() -> Grain {
    Grain::from_json_str(
        r#"{"type":"fact","subject":"Alice","relation":"works_at","object":"ACME Corp","confidence":0.9,
        "user_id":"alice-123","namespace":"hr","created_at":1737000000000,"structural_tags":["pii:name"],
        "context":{"k":"v"},"source_type":"user_explicit"}"#,
    )
    .unwrap()
}

#[test]
fn sign_and_verify_round_trip() {
    let k = key(7);
    let signed = sign_grain(&fact(), &k, Some(1_737_000_000)).unwrap();
    assert_eq!(signed.blob[1] & 1, 1, "signed flag set in the inner blob");
    assert_eq!(signed.cose[0], 0xd2, "tagged COSE_Sign1");
    let v = verify(&signed.cose).unwrap();
    assert_eq!(v.signer, did::encode_ed25519(&k.verifying_key()));
    assert_eq!(v.address, signed.address);
    assert_eq!(v.algorithm, -8);
    assert_eq!(v.iat, Some(1_737_000_000));
    assert_eq!(v.grain.get_str("subject"), Some("Alice"));
    assert_eq!(oms::ContentAddress::of(&v.blob), v.address);
    // The protected header carries alg -8, the DID as kid, and the content type.
    let parsed = CoseSign1::from_tagged_slice(&signed.cose).unwrap();
    assert_eq!(parsed.protected.header.key_id, v.signer.as_bytes());
    assert!(format!("{:?}", parsed.protected.header.content_type).contains("application/vnd.mg+msgpack"));
}

#[test]
fn signing_a_bare_blob_sets_the_flag() {
    let blob = fact().encode().unwrap();
    let signed = sign_blob(&blob.bytes, &key(1), None).unwrap();
    assert_ne!(signed.address, blob.address, "the flag is part of the hashed header");
    assert_eq!(&signed.blob[2..], &blob.bytes[2..]);
    // The signed blob cannot travel bare.
    assert_eq!(decode(&signed.blob).unwrap_err(), OmsError::SignedMismatch { flag: true, wrapped: false });
}

#[test]
fn bad_signature_is_rejected() {
    let signed = sign_grain(&fact(), &key(2), None).unwrap();
    let mut sign1 = CoseSign1::from_tagged_slice(&signed.cose).unwrap();
    sign1.signature[0] ^= 1;
    let tampered = sign1.to_tagged_vec().unwrap();
    assert_eq!(verify(&tampered).unwrap_err().code(), "ERR_SIGNATURE");
    // A payload changed after signing.
    let mut sign1 = CoseSign1::from_tagged_slice(&signed.cose).unwrap();
    let p = sign1.payload.as_mut().unwrap();
    let n = p.len();
    p[n - 1] ^= 1;
    assert_eq!(verify(&sign1.to_tagged_vec().unwrap()).unwrap_err().code(), "ERR_SIGNATURE");
    // A different key claiming the same DID.
    let other = key(3);
    let forged = CoseSign1Builder::new()
        .protected(
            HeaderBuilder::new().algorithm(iana::Algorithm::EdDSA).key_id(signed.signer.as_bytes().to_vec()).build(),
        )
        .payload(signed.blob.clone())
        .create_signature(b"", |d| other.sign(d).to_bytes().to_vec())
        .build();
    assert_eq!(verify(&forged.to_tagged_vec().unwrap()).unwrap_err().code(), "ERR_SIGNATURE");
    // Garbage.
    assert_eq!(verify(&[0xd2, 0x84, 0x01]).unwrap_err().code(), "ERR_SIGNATURE");
}

fn envelope(alg: iana::Algorithm, k: &SigningKey, blob: Vec<u8>) -> Vec<u8> {
    let kid = did::encode_ed25519(&k.verifying_key());
    CoseSign1Builder::new()
        .protected(HeaderBuilder::new().algorithm(alg).key_id(kid.into_bytes()).build())
        .payload(blob)
        .create_signature(b"", |d| k.sign(d).to_bytes().to_vec())
        .build()
        .to_vec()
        .unwrap()
}

#[test]
fn algorithm_minus_19_is_accepted_and_untagged_envelopes_parse() {
    let k = key(4);
    let mut g = fact();
    g.options.signed = true;
    let blob = g.encode().unwrap().bytes;
    let v = verify(&envelope(iana::Algorithm::Ed25519, &k, blob.clone())).unwrap();
    assert_eq!(v.algorithm, -19);
    assert_eq!(verify(&envelope(iana::Algorithm::ES256, &k, blob)).unwrap_err().code(), "ERR_UNSUPPORTED");
}

#[test]
fn wrapped_blob_without_signed_flag_is_a_mismatch() {
    let k = key(5);
    let blob = fact().encode().unwrap().bytes;
    assert_eq!(
        verify(&envelope(iana::Algorithm::EdDSA, &k, blob)).unwrap_err(),
        OmsError::SignedMismatch { flag: false, wrapped: true }
    );
}

#[test]
fn signing_key_from_hex() {
    let k = cose::signing_key_from_hex(&"07".repeat(32)).unwrap();
    assert_eq!(k.to_bytes(), key(7).to_bytes());
    assert!(cose::signing_key_from_hex("abc").is_err());
}

#[test]
fn disclosure_elides_and_verifies() {
    let original = fact();
    let blob = original.encode().unwrap();
    let view = disclose(&original, &["user_id", "namespace", "structural_tags"]).unwrap();
    assert!(view.get("user_id").is_none());
    assert_eq!(view.get_str("_disclosure_of"), Some(blob.address.to_hex().as_str()));
    let elided = view.get("_elided").unwrap().as_map().unwrap();
    assert_eq!(elided.len(), 3);
    // §10.1.1 example: the hash covers the canonical MessagePack of the value only.
    let expected = format!("sha256:{}", oms::address::hex(&sha2_digest(&[&[0xa9][..], b"alice-123"].concat())));
    assert_eq!(elided["user_id"], Value::Str(expected));
    // The view is itself a valid grain with its own address and keeps the PII level.
    let vb = view.encode().unwrap();
    assert_ne!(vb.address, blob.address);
    assert_eq!(vb.bytes[1] >> 6, 2);
    assert_eq!(&vb.bytes[3..5], &[0xe3, 0xb0], "elided namespace is not leaked by the header");
    assert_eq!(decode(&vb.bytes).unwrap(), view);
    verify_revealed(&view, "user_id", &Value::from("alice-123")).unwrap();
    assert_eq!(verify_revealed(&view, "user_id", &Value::from("bob")).unwrap_err().code(), "ERR_INTEGRITY");
    verify_disclosure(&blob.bytes, &view).unwrap();
    assert_eq!(elision_hash("confidence", &Value::Float(0.95)).unwrap().len(), 7 + 64);
}

fn sha2_digest(b: &[u8]) -> [u8; 32] {
    *oms::ContentAddress::of(b).as_bytes()
}

#[test]
fn disclosure_refuses_non_elidable_fields() {
    for f in ["type", "relation", "confidence", "created_at", "source_type"] {
        assert!(!disclosure::is_elidable(f));
        assert_eq!(disclose(&fact(), &[f]).unwrap_err().code(), "ERR_SCHEMA", "{f}");
    }
    // Required fields stay satisfied through _elided.
    let view = disclose(&fact(), &["subject", "object"]).unwrap();
    view.encode().unwrap();
}

#[test]
fn disclosure_tampering_is_detected() {
    let original = fact();
    let blob = original.encode().unwrap();
    let view = disclose(&original, &["context"]).unwrap();
    let mut fields = view.clone().into_fields();
    fields.insert("object".into(), "Evil Corp".into());
    let forged = Grain::new(fields).unwrap();
    assert_eq!(verify_disclosure(&blob.bytes, &forged).unwrap_err().code(), "ERR_INTEGRITY");
    let mut fields = view.into_fields();
    fields.remove("user_id");
    let dropped = Grain::new(fields).unwrap();
    assert_eq!(verify_disclosure(&blob.bytes, &dropped).unwrap_err().code(), "ERR_INTEGRITY");
}

/// An envelope written like the example of §9.1: the `kid` is the DID as a
/// *text* string (RFC 9052 says bstr, which is what we write).
fn text_kid_envelope(k: &SigningKey, kid: &str, payload: Vec<u8>, iat: Option<i64>) -> Vec<u8> {
    use coset::cbor::value::Value as C;
    let protected_map = C::Map(vec![
        (C::Integer(1.into()), C::Integer((-8).into())),
        (C::Integer(4.into()), C::Text(kid.into())),
        (C::Integer(3.into()), C::Text("application/vnd.mg+msgpack".into())),
    ]);
    let mut protected = Vec::new();
    coset::cbor::ser::into_writer(&protected_map, &mut protected).unwrap();
    let sig_structure = C::Array(vec![
        C::Text("Signature1".into()),
        C::Bytes(protected.clone()),
        C::Bytes(vec![]),
        C::Bytes(payload.clone()),
    ]);
    let mut tbs = Vec::new();
    coset::cbor::ser::into_writer(&sig_structure, &mut tbs).unwrap();
    let signature = k.sign(&tbs).to_bytes().to_vec();
    let unprotected = C::Map(iat.map(|t| (C::Text("iat".into()), C::Integer(t.into()))).into_iter().collect());
    let envelope =
        C::Tag(18, Box::new(C::Array(vec![C::Bytes(protected), unprotected, C::Bytes(payload), C::Bytes(signature)])));
    let mut out = Vec::new();
    coset::cbor::ser::into_writer(&envelope, &mut out).unwrap();
    out
}

#[test]
fn text_string_kid_as_in_the_spec_example_verifies() {
    let k = key(11);
    let did = did::encode_ed25519(&k.verifying_key());
    let mut g = fact();
    g.options.signed = true;
    let blob = g.encode().unwrap();
    let cose = text_kid_envelope(&k, &did, blob.bytes.clone(), Some(1_737_000_000));
    let v = verify(&cose).unwrap();
    assert_eq!((v.signer.as_str(), v.algorithm, v.iat), (did.as_str(), -8, Some(1_737_000_000)));
    assert_eq!((v.address, v.grain.fields()), (blob.address, g.fields()));
    assert_eq!(cose::unwrap_unverified(&cose).unwrap(), blob.bytes);
    // Untagged, too.
    let untagged = cose[1..].to_vec();
    assert_eq!(verify(&untagged).unwrap().signer, did);
    // The signature still covers the protected header as sent: another
    // signer's DID as text does not verify, nor does a tampered payload.
    let other = did::encode_ed25519(&key(12).verifying_key());
    let forged = text_kid_envelope(&k, &other, blob.bytes.clone(), None);
    assert_eq!(verify(&forged).unwrap_err().code(), "ERR_SIGNATURE");
    let mut tampered = cose.clone();
    let n = tampered.len();
    tampered[n - 70] ^= 1;
    assert!(verify(&tampered).is_err());
    // Payload signatures (supersession_auth, §23.2) accept it as well.
    let auth = text_kid_envelope(&k, &did, b"oms-supersede:x".to_vec(), None);
    assert_eq!(cose::verify_payload(&auth).unwrap(), (did.clone(), b"oms-supersede:x".to_vec()));
    // An empty kid is still malformed, as text or as bytes.
    assert_eq!(verify(&text_kid_envelope(&k, "", blob.bytes, None)).unwrap_err().code(), "ERR_SIGNATURE");
}
