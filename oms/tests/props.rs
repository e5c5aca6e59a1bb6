//! Property tests on generated grains: encode→decode→encode is byte-stable,
//! the address is SHA-256 of the bytes, an independent MessagePack decoder
//! (`rmpv`) agrees with ours, and no input makes a decoder panic.

use oms::{ContentAddress, Encoding, Grain, Map, Value, decode, msgpack};
use proptest::prelude::*;
use rmpv::Value as Mp;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,12}",
        "\\PC{1,20}",
        // Decomposed sequences that NFC composes.
        Just("e\u{301}".to_string()),
        Just("A\u{30a}ngstro\u{308}m".to_string()),
        Just("\u{212b}".to_string()),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-200i64..200).prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::Float),
        prop::sample::select(vec![0.0, -0.0, 1.0, 0.5, 1e-300, f64::MAX, f64::MIN_POSITIVE]).prop_map(Value::Float),
        text().prop_map(Value::Str),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(Value::Bin),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(prop_oneof![inner.clone(), Just(Value::Null)], 0..5).prop_map(Value::Array),
            prop::collection::btree_map(text(), prop_oneof![inner, Just(Value::Null)], 0..5).prop_map(Value::Map),
        ]
    })
}

/// Optional common and unknown fields added to any grain.
fn extras() -> impl Strategy<Value = Map> {
    let known = prop::sample::select(vec![
        "context",
        "provenance_chain",
        "user_id",
        "namespace",
        "author_did",
        "entity_id",
        "parameter_set",
        "license",
        "x-app",
        "hc:icd10",
        "z",
    ]);
    prop::collection::btree_map(known.prop_map(str::to_string), value(), 0..6).prop_map(|mut m| {
        for k in ["user_id", "namespace", "author_did", "entity_id", "license"] {
            if let Some(v) = m.get(k)
                && !matches!(v, Value::Str(_))
            {
                m.remove(k);
            }
        }
        m
    })
}

fn related() -> impl Strategy<Value = Value> {
    let rel = prop::sample::select(vec!["similar", "supports", "replaces"]);
    prop::collection::vec(
        ("[0-9a-f]{64}", rel, 0.0f64..=1.0).prop_map(|(h, r, w)| {
            let mut m = Map::new();
            m.insert("hash".into(), Value::Str(h));
            m.insert("relation_type".into(), r.into());
            m.insert("weight".into(), Value::Float(w));
            Value::Map(m)
        }),
        0..3,
    )
    .prop_map(Value::Array)
}

fn grain() -> impl Strategy<Value = Grain> {
    let created = 0i64..=4_294_967_295_999;
    let belief = (text(), text(), text(), 0.0f64..=1.0, created.clone(), extras(), related(), any::<bool>()).prop_map(
        |(s, r, o, c, ca, mut m, rt, alias)| {
            m.insert("type".into(), if alias { "fact" } else { "belief" }.into());
            m.insert("subject".into(), Value::Str(s));
            m.insert("relation".into(), Value::Str(r));
            m.insert("object".into(), Value::Str(o));
            m.insert("confidence".into(), Value::Float(c));
            m.insert("created_at".into(), Value::from(ca));
            m.insert("related_to".into(), rt);
            m
        },
    );
    let event = (text(), created.clone(), extras()).prop_map(|(content, ca, mut m)| {
        m.insert("type".into(), "event".into());
        m.insert("content".into(), Value::Str(content));
        m.insert("created_at".into(), Value::from(ca));
        m
    });
    let action = (text(), value(), created.clone(), extras()).prop_map(|(tool, content, ca, mut m)| {
        m.insert("type".into(), "action".into());
        m.insert("tool_name".into(), Value::Str(tool));
        m.insert("input".into(), Value::Map(Map::new()));
        m.insert("content".into(), if matches!(content, Value::Null) { Value::Int(0) } else { content });
        m.insert("is_error".into(), Value::Bool(false));
        m.insert("created_at".into(), Value::from(ca));
        m
    });
    let reasoning = (created, extras()).prop_map(|(ca, mut m)| {
        m.insert("type".into(), "reasoning".into());
        m.insert("created_at".into(), Value::from(ca));
        m
    });
    (prop_oneof![belief, event, action, reasoning], any::<bool>(), 0u8..4).prop_map(|(m, cbor, sens)| {
        let mut g = Grain::new(m).expect("generated grains are well-typed");
        g.options.encoding = if cbor { Encoding::Cbor } else { Encoding::MsgPack };
        g.options.sensitivity = oms::Sensitivity::from_bits(sens);
        g
    })
}

/// Checks rmpv's view of a payload: strictly ascending string keys in every
/// map, no nil map values, only float64, and byte-identical re-encoding.
fn check_rmpv(v: &Mp) {
    match v {
        Mp::Map(entries) => {
            let keys: Vec<&[u8]> = entries.iter().map(|(k, _)| k.as_str().expect("string key").as_bytes()).collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys not strictly ascending: {keys:?}");
            for (_, v) in entries {
                assert!(!v.is_nil(), "nil inside a map");
                check_rmpv(v);
            }
        }
        Mp::Array(items) => items.iter().for_each(check_rmpv),
        Mp::F32(_) => panic!("float32 in payload"),
        _ => {}
    }
}

/// Converts rmpv's tree into ours.
fn from_rmpv(v: &Mp) -> Value {
    match v {
        Mp::Nil => Value::Null,
        Mp::Boolean(b) => Value::Bool(*b),
        Mp::Integer(i) => Value::Int(i.as_i64().map_or_else(|| i128::from(i.as_u64().unwrap()), i128::from)),
        Mp::F32(f) => Value::Float(f64::from(*f)),
        Mp::F64(f) => Value::Float(*f),
        Mp::String(s) => Value::Str(s.as_str().unwrap().to_string()),
        Mp::Binary(b) => Value::Bin(b.clone()),
        Mp::Array(a) => Value::Array(a.iter().map(from_rmpv).collect()),
        Mp::Map(m) => Value::Map(m.iter().map(|(k, v)| (k.as_str().unwrap().to_string(), from_rmpv(v))).collect()),
        Mp::Ext(..) => panic!("ext in payload"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn encode_decode_encode_is_byte_stable(g in grain()) {
        let blob = g.encode().unwrap();
        let back = decode(&blob.bytes).unwrap();
        let again = back.encode().unwrap();
        prop_assert_eq!(&again.bytes, &blob.bytes);
        prop_assert_eq!(again.address, blob.address);
        // JSON is a faithful view too.
        let via_json = Grain::from_json(&back.to_json()).unwrap();
        let mut via_json = via_json;
        via_json.options = back.options;
        prop_assert_eq!(via_json.encode().unwrap().bytes, blob.bytes);
    }

    #[test]
    fn address_is_sha256_of_bytes(g in grain()) {
        let blob = g.encode().unwrap();
        prop_assert_eq!(blob.address, ContentAddress::of(&blob.bytes));
        let hex = blob.address.to_hex();
        prop_assert_eq!(hex.len(), 64);
        prop_assert!(hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        prop_assert_eq!(ContentAddress::parse(&hex).unwrap(), blob.address);
    }

    #[test]
    fn rmpv_agrees_with_our_encoder(g in grain()) {
        let mut g = g;
        g.options.encoding = Encoding::MsgPack;
        let blob = g.encode().unwrap();
        let payload = &blob.bytes[9..];
        let mut cursor = payload;
        let theirs = rmpv::decode::read_value(&mut cursor).unwrap();
        prop_assert!(cursor.is_empty(), "rmpv left {} bytes", cursor.len());
        check_rmpv(&theirs);
        let mut reencoded = Vec::new();
        rmpv::encode::write_value(&mut reencoded, &theirs).unwrap();
        prop_assert_eq!(&reencoded[..], payload);
        prop_assert_eq!(from_rmpv(&theirs), msgpack::read_exact(payload, 64).unwrap());
    }

    #[test]
    fn decoders_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), flags in any::<u8>(), ty in any::<u8>()) {
        let mut blob = vec![1, flags, ty, 0, 0, 0, 0, 0, 0];
        blob.extend_from_slice(&bytes);
        let _ = decode(&blob);
        let _ = decode(&bytes);
        let _ = oms::cose::verify(&bytes);
        let _ = oms::mg::MgFile::open(&bytes);
        let _ = oms::mg::verify(&bytes);
        let _ = oms::mg::decode_frames(&bytes);
        let _ = oms::cbor::read_value(&bytes, 32);
        let _ = oms::did::decode(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_blobs_never_panic_and_never_decode_to_other_bytes(g in grain(), at in any::<prop::sample::Index>(), bit in 0u8..8) {
        let blob = g.encode().unwrap();
        let mut m = blob.bytes.clone();
        let i = at.index(m.len());
        m[i] ^= 1 << bit;
        if let Ok(d) = decode(&m) {
            // Anything accepted is canonical: it re-encodes to exactly the input.
            prop_assert_eq!(d.encode().unwrap().bytes, m);
        }
    }
}
