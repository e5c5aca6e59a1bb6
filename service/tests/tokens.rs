//! Capability tokens (§18.1): what the signature covers, the validity window
//! at its boundaries, inconsistent claims, and the key file's rules.

use cal_grammar::GrainType;
use cal_service::{CapabilityToken, Claims, KeyError, Op, ServerKey, TokenError};

const NOW: i64 = 1_773_565_200_000;

fn key() -> ServerKey {
    ServerKey::from_bytes([7; 32])
}

fn claims() -> Claims {
    Claims {
        namespace: "team".into(),
        user_id: "alice".into(),
        tier: 1,
        ops: None,
        grain_types: vec![GrainType::Belief],
        quota: 10,
        ttl_ms: 300_000,
        max_uses: 1,
    }
}

fn issued() -> CapabilityToken {
    claims().issue(&key(), NOW).expect("issues")
}

#[test]
fn an_issued_token_verifies_and_says_what_it_allows() {
    let t = issued();
    let v = t.verify(&key(), NOW).expect("verifies");
    assert!(v.allows(Op::Recall) && v.allows(Op::Add) && v.allows(Op::DefineTemplate));
    assert!(v.may_write(GrainType::Belief) && !v.may_write(GrainType::Goal));
    assert_eq!(t.expires_at - t.issued_at, 300_000);
    // §18.1's members, in its order.
    let members: Vec<String> = match serde_json::from_str::<serde_json::Value>(&t.to_json()).unwrap() {
        serde_json::Value::Object(m) => m.keys().cloned().collect(),
        _ => unreachable!(),
    };
    assert_eq!(
        members,
        [
            "token_id",
            "namespace",
            "user_id",
            "tier",
            "allowed_ops",
            "issued_at",
            "expires_at",
            "max_uses",
            "allowed_grain_types",
            "write_quota_remaining",
            "signature"
        ]
    );
}

#[test]
fn the_token_id_is_a_fresh_uuid_v4() {
    let (a, b) = (issued(), issued());
    assert_ne!(a.token_id, b.token_id);
    let parts: Vec<&str> = a.token_id.split('-').collect();
    assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12]);
    assert!(parts[2].starts_with('4'), "version 4: {}", a.token_id);
    assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'), "RFC variant: {}", a.token_id);
}

#[test]
fn changing_any_member_breaks_the_signature() {
    let t = issued();
    let mut edits: Vec<(&str, CapabilityToken)> = Vec::new();
    let mut e = t.clone();
    e.namespace = "other".into();
    edits.push(("namespace", e));
    let mut e = t.clone();
    e.user_id = "mallory".into();
    edits.push(("user_id", e));
    let mut e = t.clone();
    e.allowed_ops.push(Op::Revert);
    e.allowed_ops.dedup();
    e.allowed_ops.retain(|o| *o != Op::Recall);
    edits.push(("allowed_ops", e));
    let mut e = t.clone();
    e.expires_at += 1;
    edits.push(("expires_at", e));
    let mut e = t.clone();
    e.max_uses = 1000;
    edits.push(("max_uses", e));
    let mut e = t.clone();
    e.allowed_grain_types.push("goal".into());
    edits.push(("allowed_grain_types", e));
    let mut e = t.clone();
    e.write_quota_remaining = 1_000_000;
    edits.push(("write_quota_remaining", e));
    let mut e = t.clone();
    e.token_id = "00000000-0000-4000-8000-000000000000".into();
    edits.push(("token_id", e));
    let mut e = t.clone();
    e.issued_at -= 1;
    edits.push(("issued_at", e));
    for (what, e) in edits {
        assert_eq!(e.verify(&key(), NOW), Err(TokenError::BadSignature), "{what}");
    }
    assert_eq!(t.verify(&ServerKey::from_bytes([8; 32]), NOW), Err(TokenError::BadSignature), "another key");
    let mut e = t.clone();
    e.signature = e.signature.to_uppercase();
    assert_eq!(e.verify(&key(), NOW), Err(TokenError::BadSignature), "upper-case signature");
}

#[test]
fn layout_in_transit_does_not_matter() {
    let t = issued();
    let v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    let back = CapabilityToken::parse(&pretty).expect("parses");
    assert!(back.verify(&key(), NOW).is_ok());
}

#[test]
fn the_validity_window_at_its_boundaries() {
    let t = issued();
    assert!(t.verify(&key(), t.issued_at).is_ok());
    assert!(t.verify(&key(), t.expires_at - 1).is_ok());
    assert_eq!(t.verify(&key(), t.expires_at), Err(TokenError::Expired));
    assert_eq!(t.verify(&key(), t.issued_at - 1), Err(TokenError::NotYetValid));
}

#[test]
fn inconsistent_claims_are_refused() {
    let mut c = claims();
    c.tier = 0;
    c.ops = Some(vec![Op::Recall, Op::Add]);
    assert!(matches!(c.issue(&key(), NOW), Err(TokenError::Invalid(m)) if m.contains("Add")));
    let mut c = claims();
    c.ops = Some(vec![]);
    assert!(matches!(c.issue(&key(), NOW), Err(TokenError::Invalid(_))));
    let mut c = claims();
    c.max_uses = 0;
    assert!(matches!(c.issue(&key(), NOW), Err(TokenError::Invalid(_))));
    let mut c = claims();
    c.ttl_ms = 31 * 24 * 3_600_000;
    assert!(matches!(c.issue(&key(), NOW), Err(TokenError::Invalid(_))));
    // Tier 0 by default allows exactly the nine read operations.
    let mut c = claims();
    c.tier = 0;
    assert_eq!(c.issue(&key(), NOW).unwrap().allowed_ops, Op::TIER0.to_vec());
}

#[test]
fn malformed_tokens_name_the_problem() {
    let t = issued();
    let mut v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    v["extra"] = true.into();
    assert!(matches!(CapabilityToken::parse(&v.to_string()), Err(TokenError::Malformed(m)) if m.contains("extra")));
    let mut v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    v.as_object_mut().unwrap().remove("signature");
    assert!(matches!(CapabilityToken::parse(&v.to_string()), Err(TokenError::Malformed(m)) if m.contains("signature")));
    assert!(matches!(CapabilityToken::parse("not json"), Err(TokenError::Malformed(_))));
    let mut v: serde_json::Value = serde_json::from_str(&t.to_json()).unwrap();
    v["allowed_ops"] = serde_json::json!(["Delete"]);
    assert!(matches!(CapabilityToken::parse(&v.to_string()), Err(TokenError::Malformed(_))));
}

#[test]
fn op_words_read_as_tokens_and_people_write_them() {
    assert_eq!(Op::from_word("recall"), Some(Op::Recall));
    assert_eq!(Op::from_word("Define_Template"), Some(Op::DefineTemplate));
    assert_eq!(Op::from_word("delete"), None);
}

#[cfg(unix)]
#[test]
fn the_key_file_is_private_and_never_overwritten() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.key");
    let made = ServerKey::create(&path).expect("creates");
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(ServerKey::load(&path).unwrap(), made);
    assert!(matches!(ServerKey::create(&path), Err(KeyError::Exists)));
    assert_eq!(ServerKey::load(&path).unwrap(), made, "the refused create left the key alone");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(matches!(ServerKey::load(&path), Err(KeyError::TooOpen(0o644))));
    let short = dir.path().join("short.key");
    std::fs::write(&short, [1u8; 31]).unwrap();
    std::fs::set_permissions(&short, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert!(matches!(ServerKey::load(&short), Err(KeyError::WrongLength(31))));
    assert_eq!(format!("{made:?}"), "ServerKey(…)", "Debug never shows the secret");
}

#[test]
fn tier_zero_operations_are_exactly_the_reads() {
    assert!(Op::TIER0.iter().all(|op| op.tier() == 0));
    assert_eq!(Op::ALL.iter().filter(|op| op.tier() == 0).count(), Op::TIER0.len());
}
