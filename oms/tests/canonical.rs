//! Field compaction (every entry), NFC, key order, null omission, integer
//! and float encodings, nesting depth and datetime conversion.

use oms::address::hex;
use oms::fields::{self, Nested, TOP_LEVEL_TABLES};
use oms::{Grain, Map, Value, decode, msgpack};

fn base(ty: &str) -> Map {
    let mut m = Map::new();
    m.insert("type".into(), ty.into());
    m.insert("created_at".into(), 1_700_000_000_000i64.into());
    m
}

/// A reasoning grain has no required fields beyond type and created_at, so
/// any field can be added to it for compaction tests.
fn reasoning_with(full: &str, v: Value) -> Grain {
    let mut m = base("reasoning");
    m.insert(full.into(), v);
    Grain::new(m).unwrap()
}

fn top_keys(blob: &[u8]) -> Vec<String> {
    match msgpack::read_exact(&blob[9..], 32).unwrap() {
        Value::Map(m) => m.into_keys().collect(),
        _ => panic!("not a map"),
    }
}

const SKIP: &[&str] = &[
    "type",
    "created_at",
    // Index-layer fields are refused in blobs; their compaction is exercised by the manifest.
    "superseded_by",
    "system_valid_to",
    "verification_status",
    "access_count",
    "last_accessed_at",
];

#[test]
fn every_top_level_entry_compacts_and_expands() {
    for table in TOP_LEVEL_TABLES {
        for (full, short) in table.iter() {
            if SKIP.contains(full) {
                continue;
            }
            let v = match *full {
                "content_refs" | "embedding_refs" | "related_to" => continue,
                "confidence" | "importance" => Value::Float(0.5),
                f if [
                    "success_count",
                    "failure_count",
                    "consolidation_level",
                    "threshold",
                    "agreement_count",
                    "dissent_count",
                    "evidence_required",
                    "delegation_depth",
                    "duration_ms",
                    "valid_from",
                    "valid_to",
                    "system_valid_from",
                ]
                .contains(&f) =>
                {
                    Value::Int(3)
                }
                "structural_tags" => Value::Array(vec!["a".into()]),
                "invalidation_policy" | "_elided" => Value::Map(Map::new()),
                _ => Value::Str("x".into()),
            };
            let g = reasoning_with(full, v);
            let blob = g.encode().unwrap_or_else(|e| panic!("{full}: {e}"));
            let keys = top_keys(&blob.bytes);
            assert!(keys.contains(&short.to_string()), "{full} should be stored as {short}, got {keys:?}");
            let back = decode(&blob.bytes).unwrap();
            assert!(back.get(full).is_some(), "{full} should come back under its full name");
        }
    }
}

#[test]
fn mapping_is_bijective() {
    let mut shorts = std::collections::HashSet::new();
    let mut fulls = std::collections::HashSet::new();
    for table in TOP_LEVEL_TABLES {
        for (full, short) in table.iter() {
            assert!(shorts.insert(*short), "short key {short} used twice");
            assert!(fulls.insert(*full), "full name {full} listed twice");
        }
    }
    assert!(!shorts.contains("cnt") && !fulls.contains("content"));
    // No short key is the full name of a different field.
    for table in TOP_LEVEL_TABLES {
        for (full, short) in table.iter() {
            if full != short {
                assert!(!fulls.contains(short), "short key {short} collides with a full name");
            }
        }
    }
}

#[test]
fn content_is_type_dependent() {
    assert_eq!(fields::compact_key("content", true), "cnt");
    assert_eq!(fields::compact_key("content", false), "content");
    assert_eq!(fields::expand_key("cnt", true), "content");
    assert_eq!(fields::expand_key("cnt", false), "cnt");
    let action = Grain::from_json_str(
        r#"{"type":"action","tool_name":"t","input":{},"content":"ok","is_error":false,"created_at":1}"#,
    )
    .unwrap();
    let blob = action.encode().unwrap();
    assert!(top_keys(&blob.bytes).contains(&"cnt".to_string()));
    assert_eq!(decode(&blob.bytes).unwrap().get_str("content"), Some("ok"));
    let event = Grain::from_json_str(r#"{"type":"event","content":"hi","created_at":1}"#).unwrap();
    assert!(top_keys(&event.encode().unwrap().bytes).contains(&"content".to_string()));
}

#[test]
fn nested_compaction_of_every_nested_entry() {
    let g = Grain::from_json_str(
        r#"{"type":"reasoning","created_at":1,
        "content_refs":[{"uri":"cas://x","modality":"image","mime_type":"image/png","size_bytes":10,"checksum":"sha256:ab","metadata":{"width":1,"uri":"kept"}}],
        "embedding_refs":[{"vector_id":"v","model":"m","dimensions":3,"modality_source":"text","distance_metric":"cosine","chunk_index":0,"chunk_text":"t","chunk_strategy":"full","chunk_overlap":0,"extra":"kept"}],
        "related_to":[{"hash":"h","relation_type":"similar","weight":0.5}],
        "provenance_chain":[{"source_hash":"s","method":"m","weight":1.0}]}"#,
    )
    .unwrap();
    let blob = g.encode().unwrap();
    assert_eq!(blob.bytes[1] & 0x18, 0x18, "content and embedding ref flags");
    let Value::Map(m) = msgpack::read_exact(&blob.bytes[9..], 32).unwrap() else { panic!() };
    let keys = |k: &str| -> Vec<String> { m[k].as_array().unwrap()[0].as_map().unwrap().keys().cloned().collect() };
    assert_eq!(keys("cr"), ["ck", "m", "md", "mt", "sz", "u"]);
    assert_eq!(keys("er"), ["ci", "co", "cs", "ct", "di", "dm", "extra", "mo", "ms", "vi"]);
    assert_eq!(keys("rt"), ["h", "rl", "w"]);
    // Not compacted (§4.7): provenance_chain entries and maps nested deeper.
    assert_eq!(keys("pc"), ["method", "source_hash", "weight"]);
    let md = m["cr"].as_array().unwrap()[0].as_map().unwrap()["md"].as_map().unwrap();
    assert!(md.contains_key("uri"));
    assert_eq!(decode(&blob.bytes).unwrap(), g);
    for (n, table) in [
        (Nested::ContentRef, fields::CONTENT_REF_FIELDS),
        (Nested::EmbeddingRef, fields::EMBEDDING_REF_FIELDS),
        (Nested::RelatedTo, fields::RELATED_TO_FIELDS),
    ] {
        for (full, short) in table {
            assert_eq!(n.compact(full), *short);
            assert_eq!(n.expand(short), *full);
        }
    }
}

#[test]
fn context_keys_are_not_compacted() {
    let g =
        Grain::from_json_str(r#"{"type":"state","context":{"int:base_url":"https://x","subject":"y"},"created_at":1}"#)
            .unwrap();
    let blob = g.encode().unwrap();
    let Value::Map(m) = msgpack::read_exact(&blob.bytes[9..], 32).unwrap() else { panic!() };
    let ctx = m["ctx"].as_map().unwrap();
    assert!(ctx.contains_key("int:base_url") && ctx.contains_key("subject"));
}

#[test]
fn unknown_keys_survive_both_directions() {
    let g = Grain::from_json_str(
        r#"{"type":"reasoning","created_at":1,"x-custom":{"b":1,"a":[1,"two",null]},"hc:icd10":["A01"]}"#,
    )
    .unwrap();
    let blob = g.encode().unwrap();
    let back = decode(&blob.bytes).unwrap();
    assert_eq!(back.get("hc:icd10"), g.get("hc:icd10"));
    assert_eq!(back.get("x-custom"), g.get("x-custom"), "nulls inside arrays are kept");
}

#[test]
fn nfc_normalization_of_keys_and_values() {
    let decomposed = Grain::from_json_str(
        "{\"type\":\"reasoning\",\"created_at\":1,\"conclusion\":\"caf\\u0065\\u0301\",\"ke\\u0301y\":\"v\"}",
    )
    .unwrap();
    let composed = Grain::from_json_str(
        "{\"type\":\"reasoning\",\"created_at\":1,\"conclusion\":\"caf\\u00e9\",\"k\\u00e9y\":\"v\"}",
    )
    .unwrap();
    assert_eq!(decomposed.encode().unwrap(), composed.encode().unwrap());
    let back = decode(&decomposed.encode().unwrap().bytes).unwrap();
    assert_eq!(back.get_str("conclusion"), Some("caf\u{e9}"));
    // Two keys that normalize to the same key collide.
    let clash =
        Grain::from_json_str("{\"type\":\"reasoning\",\"created_at\":1,\"k\\u00e9\":1,\"ke\\u0301\":2}").unwrap();
    assert_eq!(clash.encode().unwrap_err().code(), "ERR_CORRUPT");
    // The namespace hash is taken over the NFC form.
    let a = Grain::from_json_str("{\"type\":\"reasoning\",\"created_at\":1,\"namespace\":\"e\\u0301\"}").unwrap();
    let b = Grain::from_json_str("{\"type\":\"reasoning\",\"created_at\":1,\"namespace\":\"\\u00e9\"}").unwrap();
    assert_eq!(a.encode().unwrap(), b.encode().unwrap());
}

#[test]
fn keys_sorted_bytewise_at_every_depth() {
    let g = Grain::from_json_str(r#"{"type":"reasoning","created_at":1,"parameter_set":{"b":1,"B":2,"a":{"z":1,"Z":2,"aa":3,"a":4}},"Zed":1,"_x":2}"#).unwrap();
    let blob = g.encode().unwrap();
    let Value::Map(m) = msgpack::read_exact(&blob.bytes[9..], 32).unwrap() else { panic!() };
    assert_eq!(m.keys().cloned().collect::<Vec<_>>(), ["Zed", "_x", "ca", "params", "t"]);
    // Check the raw byte order of the nested map (B < a < b).
    let h = hex(&blob.bytes);
    let pos = |needle: &[u8]| h.find(&hex(needle)).unwrap();
    assert!(pos(&[0xa1, b'B']) < pos(&[0xa1, b'a', 0x84]));
}

#[test]
fn null_omission() {
    let with_null = Grain::from_json_str(
        r#"{"type":"reasoning","created_at":1,"conclusion":null,"parameter_set":{"a":null,"b":1}}"#,
    )
    .unwrap();
    let without = Grain::from_json_str(r#"{"type":"reasoning","created_at":1,"parameter_set":{"b":1}}"#).unwrap();
    assert_eq!(with_null.encode().unwrap(), without.encode().unwrap());
}

fn payload_of(v: Value) -> Vec<u8> {
    msgpack::encode_value(&v).unwrap()
}

#[test]
fn integer_smallest_encodings() {
    let cases: &[(i128, &[u8])] = &[
        (0, &[0x00]),
        (127, &[0x7f]),
        (128, &[0xcc, 0x80]),
        (255, &[0xcc, 0xff]),
        (256, &[0xcd, 0x01, 0x00]),
        (65_535, &[0xcd, 0xff, 0xff]),
        (65_536, &[0xce, 0, 1, 0, 0]),
        (4_294_967_296, &[0xcf, 0, 0, 0, 1, 0, 0, 0, 0]),
        (u64::MAX as i128, &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        (-1, &[0xff]),
        (-32, &[0xe0]),
        (-33, &[0xd0, 0xdf]),
        (-128, &[0xd0, 0x80]),
        (-129, &[0xd1, 0xff, 0x7f]),
        (-32_768, &[0xd1, 0x80, 0x00]),
        (-32_769, &[0xd2, 0xff, 0xff, 0x7f, 0xff]),
        (i64::MIN as i128, &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
    ];
    for (i, bytes) in cases {
        assert_eq!(payload_of(Value::Int(*i)), *bytes, "{i}");
        assert_eq!(msgpack::read_exact(bytes, 4).unwrap(), Value::Int(*i));
    }
    assert_eq!(msgpack::encode_value(&Value::Int(u64::MAX as i128 + 1)).unwrap_err().code(), "ERR_RANGE");
    assert_eq!(msgpack::encode_value(&Value::Int(i64::MIN as i128 - 1)).unwrap_err().code(), "ERR_RANGE");
}

#[test]
fn floats_are_always_float64() {
    assert_eq!(payload_of(Value::Float(1.0)), [0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(payload_of(Value::Float(-0.0)), [0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(payload_of(Value::Float(0.5)), [0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(payload_of(Value::Float(f64::MIN_POSITIVE)), [0xcb, 0x00, 0x10, 0, 0, 0, 0, 0, 0]);
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -f64::NAN] {
        assert_eq!(msgpack::encode_value(&Value::Float(bad)).unwrap_err().code(), "ERR_FLOAT_INVALID");
    }
    // In untyped positions JSON 1.0 stays a float and JSON 1 an integer.
    let g = Grain::from_json_str(r#"{"type":"reasoning","created_at":1,"parameter_set":{"f":1.0,"i":1}}"#).unwrap();
    let p = g.get("parameter_set").unwrap().as_map().unwrap();
    assert_eq!(p["f"], Value::Float(1.0));
    assert_eq!(p["i"], Value::Int(1));
}

/// Fields are encoded by their type: an integer written in a float-typed field
/// (§6.1, §6.6, §6.7, §8.8, §14.1, §14.2) is the float of the same value, so
/// `1` and `1.0` give one content address, in MessagePack and CBOR alike.
#[test]
fn float_typed_fields_encode_as_floats_whatever_the_json_wrote() {
    let b = r#""type":"belief","subject":"a","relation":"r","object":"o","created_at":1"#;
    let h = "4c4149355d3f3e1114e6a72bc5c2813a3ecd4deab2ba8771eaca8556b2c032f2";
    let g = r#""type":"goal","description":"d","goal_state":"active","created_at":1"#;
    let o = r#""type":"observation","observer_id":"o","observer_type":"camera","created_at":1"#;
    let r = r#""type":"reasoning","created_at":1"#;
    let cases: &[(String, String, &str)] = &[
        (format!(r#"{{{b},"confidence":1}}"#), format!(r#"{{{b},"confidence":1.0}}"#), "confidence"),
        (
            format!(r#"{{{b},"confidence":0,"importance":1}}"#),
            format!(r#"{{{b},"confidence":0.0,"importance":1.0}}"#),
            "importance",
        ),
        (format!(r#"{{{g},"progress":1}}"#), format!(r#"{{{g},"progress":1.0}}"#), "progress"),
        (
            format!(r#"{{{o},"compression_ratio":12}}"#),
            format!(r#"{{{o},"compression_ratio":12.0}}"#),
            "compression_ratio",
        ),
        (
            format!(r#"{{{b},"confidence":0.5,"related_to":[{{"hash":"{h}","relation_type":"similar","weight":1}}]}}"#),
            format!(
                r#"{{{b},"confidence":0.5,"related_to":[{{"hash":"{h}","relation_type":"similar","weight":1.0}}]}}"#
            ),
            "related_to",
        ),
        (
            format!(
                r#"{{{b},"confidence":0.5,"provenance_chain":[{{"source_hash":"{h}","method":"user_input","weight":1}}]}}"#
            ),
            format!(
                r#"{{{b},"confidence":0.5,"provenance_chain":[{{"source_hash":"{h}","method":"user_input","weight":1.0}}]}}"#
            ),
            "provenance_chain",
        ),
        (
            format!(
                r#"{{{r},"statistical_context":{{"p_value":0,"confidence_interval":[0,1],"effect_size":2,"sample_size":30}}}}"#
            ),
            format!(
                r#"{{{r},"statistical_context":{{"p_value":0.0,"confidence_interval":[0.0,1.0],"effect_size":2.0,"sample_size":30}}}}"#
            ),
            "statistical_context",
        ),
    ];
    for (int_json, float_json, field) in cases {
        for encoding in [oms::Encoding::MsgPack, oms::Encoding::Cbor] {
            let encode = |json: &str| {
                let mut grain = Grain::from_json_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
                grain.options.encoding = encoding;
                grain.encode().unwrap()
            };
            let (a, b) = (encode(int_json), encode(float_json));
            assert_eq!(a.address, b.address, "{field} ({encoding:?}): {int_json}");
            let mut expected = Grain::from_json_str(float_json).unwrap();
            expected.options.encoding = encoding;
            assert_eq!(decode(&a.bytes).unwrap(), expected);
        }
    }
    // Integer-typed neighbours stay integers.
    let stats = Grain::from_json_str(&format!(r#"{{{r},"statistical_context":{{"sample_size":30}}}}"#)).unwrap();
    assert_eq!(stats.get("statistical_context").unwrap().as_map().unwrap()["sample_size"], Value::Int(30));
    // The Rust API builds grains the same way.
    let mut m = base("belief");
    for (k, v) in [("subject", "a"), ("relation", "r"), ("object", "o")] {
        m.insert(k.into(), v.into());
    }
    m.insert("confidence".into(), Value::Int(1));
    assert_eq!(Grain::new(m).unwrap().get("confidence"), Some(&Value::Float(1.0)));
}

#[test]
fn cbor_floats_use_the_shortest_exact_form() {
    assert_eq!(oms::cbor::encode_value(&Value::Float(1.5)).unwrap(), [0xf9, 0x3e, 0x00]);
    assert_eq!(oms::cbor::encode_value(&Value::Float(1.0)).unwrap(), [0xf9, 0x3c, 0x00]);
    assert_eq!(oms::cbor::encode_value(&Value::Float(100_000.0)).unwrap(), [0xfa, 0x47, 0xc3, 0x50, 0x00]);
    assert_eq!(oms::cbor::encode_value(&Value::Float(0.9)).unwrap()[0], 0xfb);
    assert_eq!(oms::cbor::encode_value(&Value::Int(-1)).unwrap(), [0x20]);
    assert_eq!(oms::cbor::encode_value(&Value::Int(24)).unwrap(), [0x18, 24]);
    // Keys: shorter first, then bytewise.
    let m: Map = [("ca", 1i64), ("t", 2), ("b", 3)].into_iter().map(|(k, v)| (k.to_string(), Value::from(v))).collect();
    assert_eq!(
        oms::cbor::encode_value(&Value::Map(m)).unwrap(),
        [0xa3, 0x61, b'b', 3, 0x61, b't', 2, 0x62, b'c', b'a', 1]
    );
    // Indefinite lengths and tags are refused.
    assert_eq!(oms::cbor::read_exact(&[0x9f, 0xff], 4).unwrap_err().code(), "ERR_CORRUPT");
    assert_eq!(oms::cbor::read_exact(&[0xc1, 0x00], 4).unwrap_err().code(), "ERR_CORRUPT");
}

#[test]
fn nesting_depth_limit_on_encode() {
    let mut v = Value::Str("x".into());
    for _ in 0..31 {
        v = Value::Array(vec![v]);
    }
    // Level 1 is the payload map, so 31 nested arrays reach level 32: allowed.
    let ok = reasoning_with("parameter_set", v.clone());
    ok.encode().unwrap();
    let too_deep = reasoning_with("parameter_set", Value::Array(vec![v]));
    assert_eq!(too_deep.encode().unwrap_err().code(), "ERR_CORRUPT");
    assert!(too_deep.encode_with_depth(40).is_ok());
}

#[test]
fn datetimes_convert_to_epoch_ms() {
    let g = Grain::from_json_str(
        r#"{"type":"reasoning","created_at":"2026-01-15T10:00:00.000Z","valid_from":"2026-01-15T12:00:00+02:00"}"#,
    )
    .unwrap();
    assert_eq!(g.created_at(), Some(1_768_471_200_000));
    assert_eq!(g.get("valid_from"), Some(&Value::Int(1_768_471_200_000)));
    let blob = g.encode().unwrap();
    assert_eq!(&blob.bytes[5..9], &[0x69, 0x68, 0xba, 0xa0]);
    assert_eq!(
        Grain::from_json_str(r#"{"type":"reasoning","created_at":"yesterday"}"#).unwrap_err().code(),
        "ERR_SCHEMA"
    );
    // created_at must fit the u32 seconds of the header.
    assert_eq!(
        Grain::from_json_str(r#"{"type":"reasoning","created_at":-1}"#).unwrap().encode().unwrap_err().code(),
        "ERR_RANGE"
    );
    assert_eq!(
        Grain::from_json_str(r#"{"type":"reasoning","created_at":4294967296000}"#)
            .unwrap()
            .encode()
            .unwrap_err()
            .code(),
        "ERR_RANGE"
    );
    Grain::from_json_str(r#"{"type":"reasoning","created_at":4294967295999}"#).unwrap().encode().unwrap();
}

#[test]
fn sensitivity_bits_follow_tags() {
    let enc = |tags: &str| {
        Grain::from_json_str(&format!(r#"{{"type":"reasoning","created_at":1,"structural_tags":{tags}}}"#))
            .unwrap()
            .encode()
            .unwrap()
            .bytes[1]
            >> 6
    };
    assert_eq!(enc(r#"["ai"]"#), 0);
    assert_eq!(enc(r#"["reg:sox"]"#), 1);
    assert_eq!(enc(r#"["pii:email","reg:sox"]"#), 2);
    assert_eq!(enc(r#"["sec:api_key"]"#), 2);
    assert_eq!(enc(r#"["legal:privilege"]"#), 2);
    assert_eq!(enc(r#"["pii:email","phi:diagnosis"]"#), 3);
    let mut g = Grain::from_json_str(r#"{"type":"reasoning","created_at":1}"#).unwrap();
    g.options.sensitivity = oms::Sensitivity::Internal;
    let blob = g.encode().unwrap();
    assert_eq!(blob.bytes[1] >> 6, 1, "writer may choose a higher level");
    assert_eq!(decode(&blob.bytes).unwrap().options.sensitivity, oms::Sensitivity::Internal);
}

#[test]
fn binary_values_round_trip_through_json() {
    let g = Grain::from_json_str(r#"{"type":"reasoning","created_at":1,"trusted_timestamp":{"tsp_response":{"$bin":"00ff10"},"tsa_uri":"https://tsa"}}"#).unwrap();
    let blob = g.encode().unwrap();
    let back = decode(&blob.bytes).unwrap();
    assert_eq!(back.get("trusted_timestamp").unwrap().as_map().unwrap()["tsp_response"], Value::Bin(vec![0, 255, 16]));
    assert_eq!(Grain::from_json(&back.to_json()).unwrap().encode().unwrap(), blob);
}
