//! OMS §21 test vectors, byte for byte where the spec gives bytes.

use oms::address::{hex, unhex};
use oms::{Grain, decode};

const DID: &str = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";

fn encode_json(text: &str) -> oms::Blob {
    Grain::from_json_str(text).expect("valid grain").encode().expect("encodes")
}

const VECTOR_1_HEX: &str = "01 00 01 a4 d2 69 68 ba a0 89 a4 61 64 69 64 d9 38 64 69 64 3a 6b 65 79 3a
7a 36 4d 6b 68 61 58 67 42 5a 44 76 6f 74 44 6b 4c 35 32 35 37 66 61 69 7a
74 69 47 69 43 32 51 74 4b 4c 47 70 62 6e 6e 45 47 74 61 32 64 6f 4b a1 63
cb 3f ec cc cc cc cc cc cd a2 63 61 cf 00 00 01 9b c1 19 01 00 a2 6e 73 a6
73 68 61 72 65 64 a1 6f a9 64 61 72 6b 20 6d 6f 64 65 a1 72 a7 70 72 65 66
65 72 73 a1 73 a4 75 73 65 72 a2 73 74 ad 75 73 65 72 5f 65 78 70 6c 69 63
69 74 a1 74 a4 66 61 63 74";

fn vector_1_json() -> String {
    format!(
        r#"{{"type": "fact", "subject": "user", "relation": "prefers", "object": "dark mode",
        "confidence": 0.9, "source_type": "user_explicit", "created_at": 1768471200000,
        "namespace": "shared", "author_did": "{DID}"}}"#
    )
}

#[test]
fn vector_1_minimal_fact_byte_for_byte() {
    let blob = encode_json(&vector_1_json());
    let expected = unhex(VECTOR_1_HEX).unwrap();
    assert_eq!(expected.len(), 159);
    assert_eq!(hex(&blob.bytes), hex(&expected));
    assert_eq!(blob.address.to_hex(), "3288d0d41cf49a1d428e404f0b6a6fe60388be9536937557f6139b813d53a520");
    let back = decode(&blob.bytes).unwrap();
    assert_eq!(back.encode().unwrap().bytes, expected);
    assert_eq!(back.get_str("type"), Some("fact"));
}

#[test]
fn vector_6_protected_fact() {
    let blob = encode_json(
        r#"{"type": "fact", "subject": "agent-007", "relation": "constraint",
        "object": "never delete user files without confirmation", "confidence": 1.0,
        "source_type": "user_explicit", "created_at": 1768471200000, "namespace": "safety",
        "invalidation_policy": {"mode": "locked",
          "authorized": ["did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"]}}"#,
    );
    assert_eq!(&blob.bytes[..5], &[0x01, 0x00, 0x01, 0x85, 0x6e]);
    assert_eq!(blob.address.to_hex(), "df928038769506fb66671aced0eb97d45871e169e505ed55a382c744e620550e");
    assert_eq!(decode(&blob.bytes).unwrap().encode().unwrap(), blob);
}

fn vector_2_json() -> String {
    format!(
        r#"{{"type": "event", "content": "User asked about dark mode settings",
        "created_at": 1768471200000, "namespace": "shared", "author_did": "{DID}", "importance": 0.5}}"#
    )
}

fn vector_3_json() -> String {
    format!(
        r#"{{"type": "belief", "subject": "Alice", "relation": "works_at", "object": "Acme Corp",
        "confidence": 0.95, "source_type": "user_explicit", "created_at": 1737000000000,
        "valid_from": 1735689600000, "valid_to": 1767225600000, "system_valid_from": 1737000000000,
        "author_did": "{DID}"}}"#
    )
}

fn vector_4_json() -> String {
    format!(
        r#"{{"type": "belief", "subject": "Bob", "relation": "manages", "object": "Project Alpha",
        "confidence": 0.90, "source_type": "llm_generated", "created_at": 1737000000000,
        "related_to": [
          {{"hash": "4c4149355d3f3e1114e6a72bc5c2813a3ecd4deab2ba8771eaca8556b2c032f2", "relation_type": "similar", "weight": 0.85}},
          {{"hash": "6f7fb8935e150f61a607ece0582c87c42b9975d356def0e41164b85852836145", "relation_type": "elaborates", "weight": 0.70}}
        ],
        "author_did": "{DID}"}}"#
    )
}

fn vector_5_json() -> String {
    format!(
        r#"{{"type": "observation", "observer_id": "temp-sensor-01", "observer_type": "temperature",
        "subject": "server-room", "object": "22.5C", "confidence": 0.99, "created_at": 1737000000000,
        "namespace": "monitoring", "importance": 0.3, "author_did": "{DID}"}}"#
    )
}

/// Vectors 2–5 have no published address; these were computed by this
/// implementation, cross-checked once against an independent Python encoder
/// (PyPI `msgpack` + `hashlib`), and are pinned so any change is visible.
#[test]
fn vectors_2_to_5_pinned() {
    for (json, expected) in [
        (vector_2_json(), "b4db6c77ac947b55c9ef1a28ab94bfc2c5005a17242dd3919c61fdc2138534c3"),
        (vector_3_json(), "deb85fb369c864391211ff7a89caf20a9941953965888994f6c40f483f33a9b7"),
        (vector_4_json(), "752d53aa8c3bdaeb405033814ab03c4102e6f24f28dcc459cbe5c30d75190be2"),
        (vector_5_json(), "4b2a522d6e0b3234a21056dfdad9b8fa11901f4b3c767078046c19f501d32618"),
    ] {
        let blob = encode_json(&json);
        assert_eq!(decode(&blob.bytes).unwrap().encode().unwrap(), blob);
        assert_eq!(blob.address.to_hex(), expected);
    }
}

/// Vectors 3 and 4 have no namespace: the header hashes the empty string.
#[test]
fn missing_namespace_hashes_empty_string() {
    let blob = encode_json(&vector_3_json());
    assert_eq!(&blob.bytes[3..5], &[0xe3, 0xb0]);
}

/// The same grain as CBOR: a different address (§16.2 "Critical"), pinned and
/// cross-checked once against PyPI `cbor2` with `canonical=True`.
#[test]
fn vector_1_as_cbor_pinned() {
    let mut g = Grain::from_json_str(&vector_1_json()).unwrap();
    g.options.encoding = oms::Encoding::Cbor;
    let blob = g.encode().unwrap();
    assert_eq!(blob.bytes[1], 0x20);
    assert_eq!(decode(&blob.bytes).unwrap(), g);
    assert_eq!(blob.address.to_hex(), "4aa67ff5a90daed32303e0572353405290cff9b6c9b07504549225f23908a927");
}

/// The header's namespace hash is a routing hint (§3.1.1) and the spec gives
/// none for a grain without a namespace. The writer keeps hashing the empty
/// string; a reader also accepts 0x0000 there, and keeps it, so decoding and
/// re-encoding give back the same bytes and address (§22.6). A present
/// namespace must still match its hash, and other values stay refused.
#[test]
fn absent_namespace_header_hint_0000_is_read() {
    let blob = encode_json(&vector_3_json());
    assert_eq!(&blob.bytes[3..5], &[0xe3, 0xb0]);
    let mut zero = blob.bytes.clone();
    zero[3..5].copy_from_slice(&[0, 0]);
    let g = decode(&zero).unwrap();
    assert_eq!(g.fields(), decode(&blob.bytes).unwrap().fields());
    assert_eq!(g.header().unwrap().ns_hash, 0);
    let again = g.encode().unwrap();
    assert_eq!(again.bytes, zero);
    assert_eq!(again.address, oms::ContentAddress::of(&zero));
    // A grain built from the fields is written as the spec says.
    assert_eq!(Grain::new(g.into_fields()).unwrap().encode().unwrap(), blob);
    // The other readers: .mg files and signatures.
    let file = oms::mg::pack([zero.as_slice()], None, &oms::mg::PackOptions::default()).unwrap();
    let report = oms::mg::verify(&file);
    assert!(report.is_ok(), "{}", oms::tools::report_text(&report));
    let key = ed25519_dalek::SigningKey::from_bytes(&[9; 32]);
    let signed = oms::cose::sign_blob(&zero, &key, None).unwrap();
    assert_eq!(&oms::cose::verify(&signed.cose).unwrap().blob[3..5], &[0, 0]);

    // Any other hash for an absent namespace, or 0x0000 for a present one, is corrupt.
    let mut other = blob.bytes.clone();
    other[3..5].copy_from_slice(&[0x12, 0x34]);
    assert!(matches!(decode(&other).unwrap_err(), oms::OmsError::Corrupt(oms::CorruptReason::HeaderMismatch(_))));
    let mut named = encode_json(&vector_5_json()).bytes;
    named[3..5].copy_from_slice(&[0, 0]);
    assert!(matches!(decode(&named).unwrap_err(), oms::OmsError::Corrupt(oms::CorruptReason::HeaderMismatch(_))));
}
