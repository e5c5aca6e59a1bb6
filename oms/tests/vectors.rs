//! OMS §21 test vectors, byte for byte where the spec gives bytes.

use oms::address::{hex, unhex};
use oms::{decode, Grain};

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
