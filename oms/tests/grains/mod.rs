//! Generated grains for the property tests (`props.rs`, `canon_oracle.rs`): beliefs,
//! events, actions and reasoning grains with common and unknown fields, nested
//! references, decomposed Unicode, every number width, both encodings.

#![allow(dead_code)]

use oms::{Encoding, Grain, Map, Value};
use proptest::prelude::*;

pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,12}",
        "\\PC{1,20}",
        // Decomposed sequences that NFC composes.
        Just("e\u{301}".to_string()),
        Just("A\u{30a}ngstro\u{308}m".to_string()),
        Just("\u{212b}".to_string()),
    ]
}

pub fn scalar() -> impl Strategy<Value = Value> {
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

pub fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(prop_oneof![inner.clone(), Just(Value::Null)], 0..5).prop_map(Value::Array),
            prop::collection::btree_map(text(), prop_oneof![inner, Just(Value::Null)], 0..5).prop_map(Value::Map),
        ]
    })
}

/// Optional common and unknown fields added to any grain.
pub fn extras() -> impl Strategy<Value = Map> {
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

pub fn related() -> impl Strategy<Value = Value> {
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

pub fn grain() -> impl Strategy<Value = Grain> {
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
