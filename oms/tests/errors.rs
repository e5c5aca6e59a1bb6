//! One corrupt input per `ERR_*` code of OMS §19 (store-policy codes are
//! covered by the store tests), each asserting the exact code.

use oms::address::ContentAddress;
use oms::header::namespace_hash;
use oms::{CorruptReason, Grain, OmsError, decode};
use rmpv::Value as Mp;

/// A blob with a correct header for the payload, unless the caller patches it.
fn raw(type_byte: u8, flags: u8, payload: &Mp) -> Vec<u8> {
    let mut body = Vec::new();
    rmpv::encode::write_value(&mut body, payload).unwrap();
    let (mut ns, mut ca) = (None, 0u32);
    if let Mp::Map(entries) = payload {
        for (k, v) in entries {
            match (k.as_str(), v) {
                (Some("ns"), Mp::String(s)) => ns = s.as_str().map(str::to_string),
                (Some("ca"), v) => ca = (v.as_u64().unwrap_or(0) / 1000) as u32,
                _ => {}
            }
        }
    }
    let mut out = vec![1, flags, type_byte];
    out.extend_from_slice(&namespace_hash(ns.as_deref()).to_be_bytes());
    out.extend_from_slice(&ca.to_be_bytes());
    out.extend_from_slice(&body);
    out
}

fn s(x: &str) -> Mp {
    Mp::from(x)
}

/// A valid belief payload in canonical key order, with `extra` entries
/// appended (so they break the order only if the test wants that).
fn belief(extra: Vec<(Mp, Mp)>) -> Mp {
    let mut m = vec![
        (s("c"), Mp::F64(0.5)),
        (s("ca"), Mp::from(1_700_000_000_000u64)),
        (s("o"), s("b")),
        (s("r"), s("likes")),
        (s("s"), s("a")),
        (s("t"), s("belief")),
    ];
    m.extend(extra);
    Mp::Map(m)
}

fn code(r: Result<Grain, OmsError>) -> &'static str {
    r.map(|_| ()).unwrap_err().code()
}

#[test]
fn baseline_is_valid() {
    decode(&raw(1, 0, &belief(vec![]))).unwrap();
}

#[test]
fn err_too_short() {
    assert_eq!(code(decode(&[1, 0, 1, 0, 0, 0, 0, 0, 0])), "ERR_TOO_SHORT");
    assert_eq!(code(decode(&[])), "ERR_TOO_SHORT");
}

#[test]
fn err_version() {
    let mut b = raw(1, 0, &belief(vec![]));
    b[0] = 2;
    assert_eq!(decode(&b).unwrap_err(), OmsError::Version { version: 2 });
}

#[test]
fn err_corrupt_truncated_and_trailing() {
    let b = raw(1, 0, &belief(vec![]));
    assert_eq!(decode(&b[..b.len() - 3]).unwrap_err(), OmsError::Corrupt(CorruptReason::Truncated));
    let mut t = b.clone();
    t.push(0xc0);
    assert_eq!(decode(&t).unwrap_err(), OmsError::Corrupt(CorruptReason::TrailingBytes));
}

#[test]
fn err_corrupt_duplicate_key() {
    let b = raw(1, 0, &belief(vec![(s("t"), s("belief"))]));
    assert_eq!(decode(&b).unwrap_err(), OmsError::Corrupt(CorruptReason::DuplicateKey("t".into())));
}

#[test]
fn err_corrupt_bom() {
    let b = raw(1, 0, &belief(vec![(s("zz"), s("\u{feff}hello"))]));
    assert_eq!(decode(&b).unwrap_err(), OmsError::Corrupt(CorruptReason::Bom));
    let mut m = oms::Map::new();
    for (k, v) in [("type", "belief"), ("subject", "\u{feff}a"), ("relation", "r"), ("object", "o")] {
        m.insert(k.into(), v.into());
    }
    m.insert("confidence".into(), 0.5.into());
    m.insert("created_at".into(), 1i64.into());
    assert_eq!(Grain::new(m).unwrap().encode().unwrap_err().code(), "ERR_CORRUPT");
}

#[test]
fn err_corrupt_markers_and_keys() {
    let ext = raw(1, 0, &belief(vec![(s("zz"), Mp::Ext(1, vec![0]))]));
    assert!(matches!(decode(&ext).unwrap_err(), OmsError::Corrupt(CorruptReason::BadMarker(_))));
    let nonstr = raw(1, 0, &belief(vec![(Mp::from(7), s("x"))]));
    assert_eq!(decode(&nonstr).unwrap_err(), OmsError::Corrupt(CorruptReason::NonStringKey));
    let mut invalid_utf8 = raw(1, 0, &belief(vec![(s("zz"), s("ab"))]));
    let n = invalid_utf8.len();
    invalid_utf8[n - 1] = 0xff;
    assert_eq!(decode(&invalid_utf8).unwrap_err(), OmsError::Corrupt(CorruptReason::InvalidUtf8));
}

#[test]
fn err_corrupt_depth_limit() {
    let mut deep = s("x");
    for _ in 0..40 {
        deep = Mp::Array(vec![deep]);
    }
    let b = raw(1, 0, &belief(vec![(s("zz"), deep)]));
    assert!(matches!(decode(&b).unwrap_err(), OmsError::Corrupt(CorruptReason::DepthExceeded(32))));
}

#[test]
fn err_corrupt_non_canonical() {
    // Keys out of order.
    let unsorted = Mp::Map(vec![
        (s("t"), s("belief")),
        (s("c"), Mp::F64(0.5)),
        (s("ca"), Mp::from(1u64)),
        (s("o"), s("b")),
        (s("r"), s("r")),
        (s("s"), s("a")),
    ]);
    assert!(matches!(decode(&raw(1, 0, &unsorted)).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
    // float32 instead of float64.
    let f32b = raw(
        1,
        0,
        &Mp::Map(vec![
            (s("c"), Mp::F32(0.5)),
            (s("ca"), Mp::from(1u64)),
            (s("o"), s("b")),
            (s("r"), s("r")),
            (s("s"), s("a")),
            (s("t"), s("belief")),
        ]),
    );
    assert!(matches!(decode(&f32b).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
    // Non-NFC string.
    let nfd = raw(1, 0, &belief(vec![(s("zz"), s("e\u{301}"))]));
    assert!(matches!(decode(&nfd).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
    // A nil value inside a map (nulls are omitted).
    let nil = raw(1, 0, &belief(vec![(s("zz"), Mp::Nil)]));
    assert!(matches!(decode(&nil).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
    // Full field name where a short key is due.
    let full = raw(1, 0, &belief(vec![(s("user_id"), s("x"))]));
    assert!(matches!(decode(&full).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
    // Integer not in its smallest form: 5 as uint16.
    let mut wide = raw(1, 0, &belief(vec![(s("zz"), Mp::from(5))]));
    let n = wide.len();
    wide.truncate(n - 1);
    wide.extend_from_slice(&[0xcd, 0, 5]);
    assert!(matches!(decode(&wide).unwrap_err(), OmsError::Corrupt(CorruptReason::NonCanonical(_))));
}

#[test]
fn err_corrupt_header_mismatch() {
    let mut b = raw(1, 0, &belief(vec![]));
    b[3] ^= 0xff;
    assert!(matches!(decode(&b).unwrap_err(), OmsError::Corrupt(CorruptReason::HeaderMismatch(_))));
    let mut c = raw(1, 0, &belief(vec![]));
    c[8] ^= 1;
    assert!(matches!(decode(&c).unwrap_err(), OmsError::Corrupt(CorruptReason::HeaderMismatch(_))));
    // Type byte says event, payload says belief.
    let d = raw(2, 0, &belief(vec![]));
    assert!(matches!(decode(&d).unwrap_err(), OmsError::Corrupt(CorruptReason::HeaderMismatch(_))));
}

#[test]
fn err_not_map() {
    assert_eq!(code(decode(&raw(1, 0, &Mp::Array(vec![s("t")])))), "ERR_NOT_MAP");
}

#[test]
fn err_no_type() {
    let p = Mp::Map(vec![(s("s"), s("a"))]);
    assert_eq!(code(decode(&raw(1, 0, &p))), "ERR_NO_TYPE");
    assert_eq!(code(Grain::from_json_str(r#"{"subject": "a"}"#)), "ERR_NO_TYPE");
}

#[test]
fn err_unknown_type() {
    let p = Mp::Map(vec![(s("ca"), Mp::from(1u64)), (s("t"), s("episode"))]);
    assert_eq!(code(decode(&raw(1, 0, &p))), "ERR_UNKNOWN_TYPE");
    assert_eq!(code(decode(&raw(0, 0, &p))), "ERR_UNKNOWN_TYPE");
    assert_eq!(code(Grain::from_json_str(r#"{"type": "episode", "created_at": 1}"#)), "ERR_UNKNOWN_TYPE");
}

#[test]
fn unknown_type_bytes_read_as_opaque_maps() {
    // §19.4: a domain-profile or reserved type byte decodes without schema.
    let p = Mp::Map(vec![(s("t"), s("hc:lab_result")), (s("zz"), s("kept"))]);
    for byte in [0x0b, 0xef, 0xf0, 0xff] {
        let b = raw(byte, 0, &p);
        let g = decode(&b).unwrap();
        assert_eq!(g.grain_type().byte(), byte);
        assert_eq!(g.get_str("zz"), Some("kept"));
        assert_eq!(g.encode().unwrap().bytes, b);
    }
}

#[test]
fn err_schema() {
    let p = Mp::Map(vec![
        (s("c"), Mp::F64(0.5)),
        (s("ca"), Mp::from(1u64)),
        (s("o"), s("b")),
        (s("r"), s("r")),
        (s("t"), s("belief")),
    ]);
    assert_eq!(
        decode(&raw(1, 0, &p)).unwrap_err(),
        OmsError::Schema { field: "subject".into(), problem: "missing required field".into() }
    );
    // Index-layer fields never belong in a blob.
    assert_eq!(code(decode(&raw(1, 0, &belief(vec![(s("sb"), s("x"))])))), "ERR_SCHEMA");
}

#[test]
fn err_empty() {
    let p = Mp::Map(vec![
        (s("c"), Mp::F64(0.5)),
        (s("ca"), Mp::from(1u64)),
        (s("o"), s("b")),
        (s("r"), s("r")),
        (s("s"), s("")),
        (s("t"), s("belief")),
    ]);
    assert_eq!(decode(&raw(1, 0, &p)).unwrap_err(), OmsError::Empty { field: "subject".into() });
}

#[test]
fn err_range() {
    let p = Mp::Map(vec![
        (s("c"), Mp::F64(1.5)),
        (s("ca"), Mp::from(1u64)),
        (s("o"), s("b")),
        (s("r"), s("r")),
        (s("s"), s("a")),
        (s("t"), s("belief")),
    ]);
    assert_eq!(code(decode(&raw(1, 0, &p))), "ERR_RANGE");
    assert_eq!(code(decode(&raw(1, 0, &belief(vec![(s("sc"), Mp::from(-1))])))), "ERR_RANGE");
    assert_eq!(code(decode(&raw(1, 0, &belief(vec![(s("im"), Mp::F64(-0.1))])))), "ERR_RANGE");
}

#[test]
fn err_float_invalid() {
    let b = raw(1, 0, &belief(vec![(s("zz"), Mp::F64(f64::NAN))]));
    assert_eq!(code(decode(&b)), "ERR_FLOAT_INVALID");
    let mut g = Grain::from_json_str(
        r#"{"type":"belief","subject":"a","relation":"r","object":"o","confidence":0.5,"created_at":1}"#,
    )
    .unwrap()
    .into_fields();
    g.insert(
        "context".into(),
        oms::Value::Map([("x".to_string(), oms::Value::Float(f64::INFINITY))].into_iter().collect()),
    );
    assert_eq!(Grain::new(g).unwrap().encode().unwrap_err(), OmsError::FloatInvalid { path: "ctx.x".into() });
}

#[test]
fn err_signed_mismatch_on_bare_blob() {
    let b = raw(1, 0x01, &belief(vec![]));
    assert_eq!(decode(&b).unwrap_err(), OmsError::SignedMismatch { flag: true, wrapped: false });
}

#[test]
fn err_sensitivity_mismatch() {
    let tags = (s("tags"), Mp::Array(vec![s("phi:diagnosis")]));
    let low = raw(1, 0x80, &belief(vec![tags.clone()])); // PII, PHI required
    assert_eq!(decode(&low).unwrap_err(), OmsError::SensitivityMismatch { header: 2, required: 3 });
    decode(&raw(1, 0xc0, &belief(vec![tags]))).unwrap();
}

#[test]
fn err_hash_format_and_length() {
    let good = "3288d0d41cf49a1d428e404f0b6a6fe60388be9536937557f6139b813d53a520";
    ContentAddress::parse(good).unwrap();
    assert_eq!(ContentAddress::parse(&good.to_uppercase()).unwrap_err().code(), "ERR_HASH_FORMAT");
    assert_eq!(ContentAddress::parse(&good.replace('a', "g")).unwrap_err().code(), "ERR_HASH_FORMAT");
    assert_eq!(ContentAddress::parse(&good[..63]).unwrap_err(), OmsError::HashLength { len: 63 });
    assert_eq!(ContentAddress::parse(&format!("{good}0")).unwrap_err().code(), "ERR_HASH_LENGTH");
}

#[test]
fn err_integrity() {
    let b = raw(1, 0, &belief(vec![]));
    let addr = ContentAddress::of(&b);
    addr.verify(&b).unwrap();
    let mut t = b.clone();
    let n = t.len();
    t[n - 2] ^= 1;
    assert_eq!(addr.verify(&t).unwrap_err().code(), "ERR_INTEGRITY");
}

#[test]
fn err_unsupported_flags() {
    assert_eq!(code(decode(&raw(1, 0x02, &belief(vec![])))), "ERR_UNSUPPORTED");
    assert_eq!(code(decode(&raw(1, 0x04, &belief(vec![])))), "ERR_UNSUPPORTED");
}

#[test]
fn every_code_has_a_message() {
    let e = OmsError::Bug { detail: "x".into() };
    assert!(e.to_string().contains("bug in the toolchain"));
    assert!(OmsError::TooShort { len: 3 }.to_string().starts_with("ERR_TOO_SHORT: "));
}

/// The payload of a grain written as JSON, compacted and in canonical key
/// order but *not validated*, as another encoder might have written it.
fn unchecked_payload(json: &str) -> (u8, Mp) {
    fn mp(v: &oms::Value) -> Mp {
        match v {
            oms::Value::Null => Mp::Nil,
            oms::Value::Bool(b) => Mp::Boolean(*b),
            oms::Value::Int(i) => i64::try_from(*i).map_or_else(|_| Mp::from(*i as u64), Mp::from),
            oms::Value::Float(f) => Mp::F64(*f),
            oms::Value::Str(s) => Mp::from(s.as_str()),
            oms::Value::Bin(b) => Mp::Binary(b.clone()),
            oms::Value::Array(a) => Mp::Array(a.iter().map(mp).collect()),
            oms::Value::Map(m) => Mp::Map(m.iter().map(|(k, v)| (s(k), mp(v))).collect()),
        }
    }
    let oms::Value::Map(m) = oms::json::from_json(&serde_json::from_str(json).unwrap()) else {
        panic!("not an object")
    };
    let name = m["type"].as_str().unwrap().to_string();
    let ty = oms::GrainType::from_name(&name).unwrap();
    let is_action = ty == oms::GrainType::Action;
    let mut entries: Vec<(String, Mp)> =
        m.iter().map(|(k, v)| (oms::fields::compact_key(k, is_action).to_string(), mp(v))).collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    (ty.byte(), Mp::Map(entries.into_iter().map(|(k, v)| (s(&k), v)).collect()))
}

/// A refusal must happen on both sides: encoding the JSON, and decoding a
/// blob another writer produced from it.
fn refused_both_ways(json: &str) -> (OmsError, OmsError) {
    let encoded = Grain::from_json_str(json).and_then(|g| g.encode()).map(|_| ()).unwrap_err();
    let (ty, payload) = unchecked_payload(json);
    let decoded = decode(&raw(ty, 0, &payload)).map(|_| ()).unwrap_err();
    (encoded, decoded)
}

const OBS: &str = r#""type":"observation","observer_id":"o-1","created_at":1700000000000"#;
const EVENT: &str = r#""type":"event","content":"hi","created_at":1700000000000"#;

/// Closed vocabularies (§25 `observation_mode`, §26 `observation_scope`), the
/// `human` observer (§24.2: `observer_model` MUST be absent) and the `type`
/// every `content_blocks` entry MUST carry (§6.2), refused on encode and on
/// decode with the code and field given here.
#[test]
fn observation_and_content_block_rules_refuse_both_ways() {
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "mode outside the enum",
            format!(r#"{{{OBS},"observer_type":"llm","observer_model":"m","observation_mode":"sometimes"}}"#),
            "ERR_SCHEMA",
            "observation_mode",
        ),
        (
            "mode in the wrong case",
            format!(r#"{{{OBS},"observer_type":"camera","observation_mode":"Passive"}}"#),
            "ERR_SCHEMA",
            "observation_mode",
        ),
        (
            "mode not a string",
            format!(r#"{{{OBS},"observer_type":"camera","observation_mode":1}}"#),
            "ERR_SCHEMA",
            "observation_mode",
        ),
        (
            "scope outside the enum",
            format!(r#"{{{OBS},"observer_type":"camera","observation_scope":"forever"}}"#),
            "ERR_SCHEMA",
            "observation_scope",
        ),
        (
            "human with a model",
            format!(r#"{{{OBS},"observer_type":"human","observer_model":"gpt-4o"}}"#),
            "ERR_SCHEMA",
            "observer_model",
        ),
        (
            "block without type",
            format!(r#"{{{EVENT},"content_blocks":[{{"type":"text","text":"a"}},{{"text":"b"}}]}}"#),
            "ERR_SCHEMA",
            "content_blocks",
        ),
        (
            "block type not a string",
            format!(r#"{{{EVENT},"content_blocks":[{{"type":7}}]}}"#),
            "ERR_SCHEMA",
            "content_blocks",
        ),
        (
            "block type empty",
            format!(r#"{{{EVENT},"content_blocks":[{{"type":""}}]}}"#),
            "ERR_EMPTY",
            "content_blocks[0].type",
        ),
        ("block not a map", format!(r#"{{{EVENT},"content_blocks":["text"]}}"#), "ERR_SCHEMA", "content_blocks"),
        (
            "blocks not an array",
            format!(r#"{{{EVENT},"content_blocks":{{"type":"text"}}}}"#),
            "ERR_SCHEMA",
            "content_blocks",
        ),
    ];
    for (name, json, code, field) in cases {
        let (encoded, decoded) = refused_both_ways(json);
        for (side, e) in [("encode", &encoded), ("decode", &decoded)] {
            assert_eq!(e.code(), *code, "{name} ({side}): {e}");
            let found = match e {
                OmsError::Schema { field, .. } | OmsError::Empty { field } => field.as_str(),
                _ => "",
            };
            assert_eq!(found, *field, "{name} ({side}): {e}");
        }
    }
}

/// The valid neighbours of the refusals above are accepted both ways.
#[test]
fn observation_and_content_block_rules_accept_the_valid_forms() {
    let mut cases: Vec<String> = ["passive", "active", "reflective", "real_time"]
        .iter()
        .map(|m| format!(r#"{{{OBS},"observer_type":"llm","observer_model":"m","observation_mode":"{m}"}}"#))
        .collect();
    cases.extend(
        ["point", "interval", "session", "longitudinal"]
            .iter()
            .map(|sc| format!(r#"{{{OBS},"observer_type":"camera","observation_scope":"{sc}"}}"#)),
    );
    cases.push(format!(r#"{{{OBS},"observer_type":"human"}}"#));
    // observer_type is an open enum (§24.3): an unknown type may carry a model.
    cases.push(format!(r#"{{{OBS},"observer_type":"acme:human-like","observer_model":"m"}}"#));
    // Block types are open (§6.2 "MAY define additional block types").
    cases.push(format!(r#"{{{EVENT},"content_blocks":[{{"type":"text","text":"a"}},{{"type":"acme:chart"}}]}}"#));
    for json in &cases {
        let blob = Grain::from_json_str(json).and_then(|g| g.encode()).unwrap_or_else(|e| panic!("{json}: {e}"));
        decode(&blob.bytes).unwrap_or_else(|e| panic!("{json}: {e}"));
    }
}

/// §17.2: SHOULD warn (but MUST NOT reject) when `observer_model` is absent
/// for `llm`, `reflector`, `classifier` and `detector` observers. Warnings
/// are data on the grain, whether it was built or decoded.
#[test]
fn missing_observer_model_warns_without_refusing() {
    for observer in ["llm", "reflector", "classifier", "detector"] {
        let g = Grain::from_json_str(&format!(r#"{{{OBS},"observer_type":"{observer}"}}"#)).unwrap();
        let blob = g.encode().unwrap();
        for grain in [&g, &decode(&blob.bytes).unwrap()] {
            let w = grain.warnings();
            assert_eq!(w.len(), 1, "{observer}: {w:?}");
            assert_eq!((w[0].code, w[0].field.as_str()), ("WARN_OBSERVER_MODEL", "observer_model"));
            assert!(w[0].to_string().contains(observer), "{}", w[0]);
        }
    }
    for quiet in [
        format!(r#"{{{OBS},"observer_type":"llm","observer_model":"claude-opus-4-6"}}"#),
        format!(r#"{{{OBS},"observer_type":"human"}}"#),
        format!(r#"{{{OBS},"observer_type":"camera"}}"#),
        format!(r#"{{{OBS},"observer_type":"hybrid"}}"#),
        format!(r#"{{{EVENT}}}"#),
    ] {
        assert_eq!(Grain::from_json_str(&quiet).unwrap().warnings(), vec![], "{quiet}");
    }
    // A disclosed view that elides the model does not warn: the original had one.
    let g = Grain::from_json_str(&format!(r#"{{{OBS},"observer_type":"llm","observer_model":"m"}}"#)).unwrap();
    let view = oms::disclosure::disclose(&g, &["observer_model"]).unwrap();
    assert_eq!(view.warnings(), vec![]);
}

/// §4.1: keys are unique. JSON parsers keep the last of two equal keys, so the
/// grain JSON is scanned and a repeat at any depth is `ERR_CORRUPT`, naming
/// the key and the JSON Pointer of its object.
#[test]
fn duplicate_json_keys_are_refused_at_every_depth() {
    let b = r#""type":"belief","subject":"a","relation":"r","object":"o","confidence":0.5,"created_at":1"#;
    let cases: &[(String, &str, &str)] = &[
        (format!(r#"{{{b},"subject":"b"}}"#), "subject", ""),
        (format!(r#"{{{b},"type":"event"}}"#), "type", ""),
        (format!(r#"{{{b},"context":{{"k":"1","k":"2"}}}}"#), "k", "/context"),
        (format!(r#"{{{b},"context":{{"k":{{"x":1,"y":{{"z":1,"z":2}}}}}}}}"#), "z", "/context/k/y"),
        (
            format!(
                r#"{{{b},"content_refs":[{{"uri":"u","modality":"image"}},{{"uri":"u","modality":"image","uri":"v"}}]}}"#
            ),
            "uri",
            "/content_refs/1",
        ),
        (format!(r#"{{{b},"context":{{"a/b~c":{{"q":1,"q":1}}}}}}"#), "q", "/context/a~1b~0c"),
        // Keys are compared after unescaping.
        (format!(r#"{{{b},"context":{{"a":"1","\u0061":"2"}}}}"#), "a", "/context"),
        (format!(r#"{{{b},"provenance_chain":[[{{"w":1}}],[{{"m":1,"m":2}}]]}}"#), "m", "/provenance_chain/1/0"),
    ];
    for (json, key, path) in cases {
        let expected = OmsError::Corrupt(CorruptReason::DuplicateJsonKey { key: (*key).into(), path: (*path).into() });
        assert_eq!(Grain::from_json_str(json).unwrap_err(), expected, "{json}");
        // The `cal mg` input paths share the parser.
        assert_eq!(oms::tools::read_grain_input(json.as_bytes(), false).unwrap_err(), expected, "{json}");
        assert_eq!(oms::tools::grains_from_jsonl(json).unwrap_err(), (1, expected.clone()), "{json}");
        assert!(expected.to_string().contains(&format!("{key:?}")), "{expected}");
    }
    // Equal keys in different objects, and strings that look like structure, are fine.
    for ok in [
        format!(r#"{{{b},"context":{{"subject":"x","type":"y"}}}}"#),
        format!(r#"{{{b},"provenance_chain":[{{"m":1}},{{"m":2}}]}}"#),
        format!(r#"{{{b},"context":{{"k":"\"}},\"k\":{{[","j":"\\"}}}}"#),
    ] {
        Grain::from_json_str(&ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
}

/// A float-typed field holding an integer is not what a canonical writer
/// produces (fields are encoded by their type, §4.3, §6): `ERR_CORRUPT`.
#[test]
fn err_corrupt_integer_in_float_field() {
    let p = Mp::Map(vec![
        (s("c"), Mp::from(1)),
        (s("ca"), Mp::from(1_700_000_000_000u64)),
        (s("o"), s("b")),
        (s("r"), s("likes")),
        (s("s"), s("a")),
        (s("t"), s("belief")),
    ]);
    let e = decode(&raw(1, 0, &p)).unwrap_err();
    assert!(matches!(&e, OmsError::Corrupt(CorruptReason::NonCanonical(why)) if why.contains("confidence")), "{e}");
    let nested = belief(vec![(s("statctx"), Mp::Map(vec![(s("p_value"), Mp::from(0))]))]);
    let e = decode(&raw(1, 0, &nested)).unwrap_err();
    assert!(
        matches!(&e, OmsError::Corrupt(CorruptReason::NonCanonical(why)) if why.contains("statistical_context.p_value")),
        "{e}"
    );
}

/// OMS §6.12: the field mapping is bijective. A field literally named like another field's
/// short key (`s` is `subject`'s) would be written as that key and read back as `subject`
/// (`cal mg verify` passed it); it is refused when encoding, top level and nested alike.
#[test]
fn a_field_named_like_a_short_key_is_refused() {
    let grain = |extra: (&str, oms::Value)| {
        let mut m = oms::Map::new();
        for (k, v) in [("type", "belief"), ("relation", "r"), ("object", "o")] {
            m.insert(k.into(), v.into());
        }
        m.insert("confidence".into(), 0.5.into());
        m.insert("created_at".into(), 1_768_471_200_000i64.into());
        m.insert(extra.0.into(), extra.1);
        Grain::new(m).unwrap()
    };
    let e = grain(("s", 1_768_471_200_000i64.into())).encode().unwrap_err();
    assert_eq!(e.code(), "ERR_SCHEMA", "{e}");
    assert!(e.to_string().contains("subject"), "{e}");
    // With `subject` present too, the answer is the same refusal, not "duplicate map key".
    let mut both = grain(("s", "x".into()));
    let mut m = both.fields().clone();
    m.insert("subject".into(), "alice".into());
    both = Grain::new(m).unwrap();
    assert_eq!(both.encode().unwrap_err().code(), "ERR_SCHEMA");
    // A name that is no short key is kept as is (§6.12 "unknown keys MUST be preserved").
    assert!(grain(("subject", "alice".into())).encode().is_ok());
    let mut custom = grain(("subject", "alice".into())).fields().clone();
    custom.insert("my_field".into(), "x".into());
    assert!(Grain::new(custom).unwrap().encode().is_ok());
}
