//! Tier 1 end to end on a real database (§18.2, §17.2, §20, §21): prepare,
//! read the preview, execute, read back; and every refusal, each of which
//! fails without its check.

use std::sync::Arc;

use cal_grammar::GrainType;
use cal_interp::{ExecOptions, Response};
use cal_parser::ast::Query;
use cal_service::{Claims, Op, Rates, ServerKey, Service, ServiceConfig, Switch};
use oms::durable::{DurableStore, OpenOptions};
use oms::store::StoreConfig;
use serde_json::Value as Json;

const NOW: i64 = 1_773_565_200_000;

fn key() -> ServerKey {
    ServerKey::from_bytes([9; 32])
}

fn claims(tier: u8) -> Claims {
    Claims {
        namespace: "team".into(),
        user_id: "alice".into(),
        tier,
        ops: None,
        grain_types: if tier == 1 { vec![GrainType::Belief, GrainType::Goal] } else { Vec::new() },
        quota: 10,
        ttl_ms: 3_600_000,
        max_uses: 100,
    }
}

fn token(c: Claims) -> String {
    c.issue(&key(), NOW).expect("issues").to_json()
}

struct Fixture {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    service: Service,
}

fn open_at(path: &std::path::Path, now: i64, rates: Rates) -> Service {
    let store = DurableStore::open(path, StoreConfig::fixed_clock(now), OpenOptions::read_write()).expect("opens");
    Service::new(Arc::new(store), key(), ServiceConfig { rates, audit_key: b"audit".to_vec(), ..Default::default() })
}

fn fixture() -> Fixture {
    fixture_with(Rates::default())
}

fn fixture_with(rates: Rates) -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("memory.db");
    DurableStore::create(&path, StoreConfig::fixed_clock(NOW)).expect("creates");
    let service = open_at(&path, NOW, rates);
    Fixture { _dir: dir, path, service }
}

fn q(text: &str) -> Query {
    cal_parser::parse_query(text).ast.expect("parses")
}

fn opts(now: i64) -> ExecOptions {
    ExecOptions::fixed(now)
}

fn code(r: &Response) -> Option<&'static str> {
    r.error.as_ref().map(|d| d.code.as_str())
}

/// Prepares and executes; panics with the refusal when either is refused.
fn write(s: &Service, t: &str, text: &str) -> Json {
    let prepared = match s.prepare(t, &q(text), &opts(NOW)) {
        Ok(p) => p,
        Err(r) => panic!("prepare refused: {}", r.json),
    };
    let r = s.execute(&prepared.token.to_json(), &opts(NOW + 1));
    assert!(r.error.is_none(), "execute refused: {}", r.json);
    r.json
}

fn new_hash(j: &Json) -> String {
    j["evolve"]["new_hash"].as_str().expect("new_hash").to_string()
}

fn objects(s: &Service, t: &str, text: &str) -> Vec<String> {
    let r = s.run(t, &q(text), &opts(NOW + 2));
    assert!(r.error.is_none(), "{}", r.json);
    r.json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|e| e["grain"]["object"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn add_supersede_revert_then_read_back_and_verify_the_audit_trail() {
    let f = fixture();
    let t1 = token(claims(1));
    let add =
        "ADD belief SET subject = \"alice\" SET relation = \"prefers\" SET object = \"dark mode\" REASON \"said so\"";

    // Prepare: the preview names the exact grain and address; nothing is written yet.
    let prepared = f.service.prepare(&t1, &q(add), &opts(NOW)).expect("prepares");
    assert_eq!(prepared.tier, 1);
    assert_eq!(prepared.side_effects["operation"], "add");
    assert_eq!(prepared.side_effects["grain"]["namespace"], "team");
    assert_eq!(prepared.side_effects["grain"]["user_id"], "alice");
    assert_eq!(f.service.store().len().unwrap(), 0, "prepare writes nothing");

    let done = f.service.execute(&prepared.token.to_json(), &opts(NOW + 1));
    assert!(done.error.is_none(), "{}", done.json);
    assert_eq!(done.json["_cal"]["tier"], 1);
    assert_eq!(done.json["evolve"]["new_hash"], prepared.side_effects["new_hash"]);
    let first = new_hash(&done.json);

    let t0 = token(claims(0));
    assert_eq!(objects(&f.service, &t0, "RECALL beliefs ABOUT \"alice\""), ["dark mode"]);

    let sup =
        write(&f.service, &t1, &format!("SUPERSEDE {first} SET object = \"light mode\" REASON \"changed her mind\""));
    let second = new_hash(&sup);
    assert_eq!(objects(&f.service, &t0, "RECALL beliefs ABOUT \"alice\""), ["light mode"]);

    let rev = write(&f.service, &t1, &format!("REVERT {second} REASON \"misunderstood\""));
    assert_eq!(rev["evolve"]["restored_hash"], first.as_str());
    assert_eq!(objects(&f.service, &t0, "RECALL beliefs ABOUT \"alice\""), ["dark mode"]);

    // HISTORY shows the three versions.
    let h = f.service.run(&t0, &q(&format!("HISTORY {}", new_hash(&rev))), &opts(NOW + 3));
    assert!(h.error.is_none(), "{}", h.json);
    assert_eq!(h.json["results"].as_array().map(Vec::len), Some(3), "{}", h.json);

    // Every request left one entry, chained; the store verifies.
    let audit = f.service.store().audit_entries(1).unwrap();
    let executes = audit.iter().filter(|a| a.entry["phase"] == "execute").count();
    assert_eq!(executes, 3);
    let ex = audit.iter().find(|a| a.entry["phase"] == "execute").unwrap();
    for member in ["token_id", "query_hash", "namespace", "actor_id", "operation", "new_hash", "reason", "tier"] {
        assert!(!ex.entry[member].is_null(), "{member} missing from {}", ex.entry);
    }
    assert_ne!(ex.entry["actor_id"], "alice", "the actor is pseudonymized");
    f.service.store().verify().expect("verifies");
}

#[test]
fn a_prepared_statement_runs_once_and_only_while_the_store_still_matches_it() {
    let f = fixture();
    let t1 = token(claims(1));
    let first = new_hash(&write(
        &f.service,
        &t1,
        "ADD belief SET subject = \"bob\" SET relation = \"likes\" SET object = \"tea\" REASON \"r\"",
    ));
    let a = f
        .service
        .prepare(&t1, &q(&format!("SUPERSEDE {first} SET object = \"coffee\" REASON \"a\"")), &opts(NOW))
        .unwrap();
    let b = f
        .service
        .prepare(&t1, &q(&format!("SUPERSEDE {first} SET object = \"water\" REASON \"b\"")), &opts(NOW))
        .unwrap();
    let ok = f.service.execute(&a.token.to_json(), &opts(NOW + 1));
    assert!(ok.error.is_none(), "{}", ok.json);
    // Replayed: the prepared token is spent.
    assert_eq!(code(&f.service.execute(&a.token.to_json(), &opts(NOW + 1))), Some("CAL-E901"));
    // The store changed between prepare and execute: b's target is no longer the head.
    assert_eq!(code(&f.service.execute(&b.token.to_json(), &opts(NOW + 1))), Some("CAL-E040"));
    // A tampered prepared token is refused.
    let mut forged = a.token.clone();
    forged.blob.replace_range(40..42, "00");
    assert_eq!(code(&f.service.execute(&forged.to_json(), &opts(NOW + 1))), Some("CAL-E901"));
    // An expired one too.
    let c = f
        .service
        .prepare(
            &t1,
            &q("ADD belief SET subject = \"c\" SET relation = \"r\" SET object = \"o\" REASON \"x\""),
            &opts(NOW),
        )
        .unwrap();
    assert_eq!(
        code(&f.service.execute(&c.token.to_json(), &opts(NOW + cal_service::PREPARED_TTL_MS))),
        Some("CAL-E901")
    );
}

#[test]
fn evolve_refusals_carry_the_spec_codes() {
    let f = fixture();
    let t1 = token(claims(1));
    let first = new_hash(&write(
        &f.service,
        &t1,
        "ADD belief SET subject = \"a\" SET relation = \"r\" SET object = \"1\" REASON \"r\"",
    ));
    let goal = new_hash(&write(
        &f.service,
        &t1,
        "ADD goal SET subject = \"a\" SET relation = \"mg:intends\" SET object = \"ship\" REASON \"r\"",
    ));
    write(&f.service, &t1, &format!("SUPERSEDE {first} SET object = \"2\" REASON \"r\""));
    let refused = |text: &str| match f.service.prepare(&t1, &q(text), &opts(NOW)) {
        Ok(p) => panic!("prepared {text}: {}", p.side_effects),
        Err(r) => code(&r).unwrap_or_default(),
    };
    assert_eq!(refused(&format!("SUPERSEDE {first} SET object = \"3\" REASON \"r\"")), "CAL-E040");
    assert_eq!(refused(&format!("REVERT {first} REASON \"r\"")), "CAL-E041");
    assert_eq!(refused(&format!("SUPERSEDE {goal} SET object = \"x\" REASON \"r\"")), "CAL-E042");
    let missing = format!("sha256:{}", "e".repeat(64));
    assert_eq!(refused(&format!("SUPERSEDE {missing} SET object = \"x\" REASON \"r\"")), "CAL-E046");
    assert_eq!(refused(&format!("REVERT {missing} REASON \"r\"")), "CAL-E046");
    // Another namespace's grain.
    let other = token(Claims { namespace: "elsewhere".into(), ..claims(1) });
    let theirs = new_hash(&write(
        &f.service,
        &other,
        "ADD belief SET subject = \"z\" SET relation = \"r\" SET object = \"o\" REASON \"r\"",
    ));
    assert_eq!(refused(&format!("SUPERSEDE {theirs} SET object = \"x\" REASON \"r\"")), "CAL-E045");
    // A type the token may not write.
    assert_eq!(
        refused("ADD observation SET subject = \"a\" SET relation = \"r\" SET object = \"o\" REASON \"r\""),
        "CAL-E902"
    );
    // Direct execution of a Tier 1 statement names prepare/execute.
    let r = f.service.run(
        &t1,
        &q("ADD belief SET subject = \"a\" SET relation = \"r\" SET object = \"o\" REASON \"r\""),
        &opts(NOW),
    );
    assert_eq!(code(&r), Some("CAL-E044"));
    assert!(r.json["error"]["message"].as_str().unwrap().contains("prepare"), "{}", r.json);
    // A Tier 0 token.
    let t0 = token(claims(0));
    let r = f.service.prepare(
        &t0,
        &q("ADD belief SET subject = \"a\" SET relation = \"r\" SET object = \"o\" REASON \"r\""),
        &opts(NOW),
    );
    assert_eq!(r.err().as_ref().and_then(code), Some("CAL-E044"));
}

#[test]
fn the_write_quota_allows_exactly_n_and_survives_a_reopen() {
    let f = fixture();
    let t = token(Claims { quota: 2, ..claims(1) });
    let add =
        |i: usize| format!("ADD belief SET subject = \"q{i}\" SET relation = \"r\" SET object = \"o\" REASON \"r\"");
    write(&f.service, &t, &add(1));
    write(&f.service, &t, &add(2));
    let r = f.service.prepare(&t, &q(&add(3)), &opts(NOW));
    assert_eq!(r.err().as_ref().and_then(code), Some("CAL-E043"));
    let reopened = open_at(&f.path, NOW, Rates::default());
    let r = reopened.prepare(&t, &q(&add(3)), &opts(NOW));
    assert_eq!(r.err().as_ref().and_then(code), Some("CAL-E043"));
}

#[test]
fn per_minute_rates_refuse_at_n_plus_one_with_e052_for_add_and_e043_otherwise() {
    let f = fixture_with(Rates { add: 2, supersede: 1, revert: 1, evolve: 20 });
    let t = token(Claims { quota: 100, ..claims(1) });
    let add =
        |i: usize| format!("ADD belief SET subject = \"r{i}\" SET relation = \"r\" SET object = \"o\" REASON \"r\"");
    let first = new_hash(&write(&f.service, &t, &add(1)));
    let second = new_hash(&write(&f.service, &t, &add(2)));
    let p = f.service.prepare(&t, &q(&add(3)), &opts(NOW)).unwrap();
    assert_eq!(code(&f.service.execute(&p.token.to_json(), &opts(NOW + 1))), Some("CAL-E052"));
    write(&f.service, &t, &format!("SUPERSEDE {first} SET object = \"x\" REASON \"r\""));
    let p =
        f.service.prepare(&t, &q(&format!("SUPERSEDE {second} SET object = \"x\" REASON \"r\"")), &opts(NOW)).unwrap();
    assert_eq!(code(&f.service.execute(&p.token.to_json(), &opts(NOW + 1))), Some("CAL-E043"));
    // A minute later the window has room again.
    let later = open_at(&f.path, NOW + 61_000, Rates { add: 2, supersede: 1, revert: 1, evolve: 20 });
    let p = later.prepare(&t, &q(&add(4)), &opts(NOW + 61_000)).unwrap();
    let r = later.execute(&p.token.to_json(), &opts(NOW + 61_001));
    assert!(r.error.is_none(), "{}", r.json);
}

#[test]
fn kill_switches_refuse_everything_or_only_writes() {
    let f = fixture();
    let t1 = token(claims(1));
    let add = "ADD belief SET subject = \"k\" SET relation = \"r\" SET object = \"o\" REASON \"r\"";
    f.service.set_switch(Switch::Tier1, true, "operator", "incident").unwrap();
    assert_eq!(f.service.prepare(&t1, &q(add), &opts(NOW)).err().as_ref().and_then(code), Some("CAL-E044"));
    let read = f.service.run(&t1, &q("RECALL beliefs"), &opts(NOW));
    assert!(read.error.is_none(), "reads go on: {}", read.json);
    f.service.set_switch(Switch::Master, true, "operator", "incident").unwrap();
    assert_eq!(code(&f.service.run(&t1, &q("RECALL beliefs"), &opts(NOW))), Some("CAL-E903"));
    f.service.set_switch(Switch::Master, false, "operator", "resolved").unwrap();
    f.service.set_switch(Switch::Tier1, false, "operator", "resolved").unwrap();
    write(&f.service, &t1, add);
}

#[test]
fn operations_are_authorized_and_uses_spent() {
    let f = fixture();
    let only_recall = token(Claims { ops: Some(vec![Op::Recall]), max_uses: 2, ..claims(0) });
    let r = f.service.run(
        &only_recall,
        &q("BATCH { a: RECALL beliefs, b: HISTORY WHERE subject = \"a\" AND relation = \"r\" }"),
        &opts(NOW),
    );
    assert_eq!(code(&r), Some("CAL-E902"));
    assert!(f.service.run(&only_recall, &q("RECALL beliefs"), &opts(NOW)).error.is_none());
    assert!(f.service.run(&only_recall, &q("RECALL beliefs"), &opts(NOW)).error.is_none());
    assert_eq!(code(&f.service.run(&only_recall, &q("RECALL beliefs"), &opts(NOW))), Some("CAL-E901"));
    // The namespace comes from the token, whatever the query says.
    let t = token(claims(1));
    write(&f.service, &t, "ADD belief SET subject = \"n\" SET relation = \"r\" SET object = \"mine\" REASON \"r\"");
    let other = token(Claims { namespace: "elsewhere".into(), ..claims(0) });
    assert!(objects(&f.service, &other, "RECALL beliefs IN \"team\" ABOUT \"n\"").is_empty());
}

#[test]
fn templates_are_persisted_and_resolve_in_another_process() {
    let f = fixture();
    let t = token(claims(1));
    let define = "DEFINE TEMPLATE brief EXTENDS structured ELEMENT { - {{grain.subject}}: {{grain.content}} }";
    let r = f.service.run(&t, &q(define), &opts(NOW));
    assert!(r.error.is_none(), "{}", r.json);
    assert_eq!(code(&f.service.run(&t, &q(define), &opts(NOW))), Some("CAL-E088"));
    // Another process (a second service on the same file) sees it.
    let other = open_at(&f.path, NOW, Rates::default());
    assert_eq!(code(&other.run(&t, &q(define), &opts(NOW))), Some("CAL-E088"));
    let use_it = "ASSEMBLE x FROM a: (RECALL beliefs) FORMAT TEMPLATE brief";
    let r = other.run(&t, &q(use_it), &opts(NOW));
    assert!(r.error.is_none(), "{}", r.json);
}

#[test]
fn the_template_limit_is_e089_at_fifty_one() {
    let f = fixture();
    let t = token(Claims { max_uses: 1000, ..claims(1) });
    for i in 0..50 {
        let r = f.service.run(
            &t,
            &q(&format!("DEFINE TEMPLATE t{i} EXTENDS structured ELEMENT {{ - {{{{grain.subject}}}} }}")),
            &opts(NOW),
        );
        assert!(r.error.is_none(), "{}", r.json);
    }
    let r = f.service.run(&t, &q("DEFINE TEMPLATE t50 EXTENDS structured ELEMENT { - {{grain.subject}} }"), &opts(NOW));
    assert_eq!(code(&r), Some("CAL-E089"));
}

#[test]
fn explain_shows_the_store_aware_preview_and_what_would_refuse() {
    let f = fixture();
    let t = token(claims(1));
    let first = new_hash(&write(
        &f.service,
        &t,
        "ADD belief SET subject = \"e\" SET relation = \"r\" SET object = \"1\" REASON \"r\"",
    ));
    write(&f.service, &t, &format!("SUPERSEDE {first} SET object = \"2\" REASON \"r\""));
    let r = f.service.run(&t, &q(&format!("EXPLAIN SUPERSEDE {first} SET object = \"3\" REASON \"r\"")), &opts(NOW));
    assert!(r.error.is_none(), "{}", r.json);
    assert_eq!(r.json["plan"]["store_preview"]["would_refuse"]["code"], "CAL-E040", "{}", r.json);
}

/// §26: two-phase execution is RECOMMENDED for Tier 0 (ruling S17). A read is prepared with
/// its parameters and no side effects, executed once, confined as its capability was.
#[test]
fn a_read_is_prepared_with_its_parameters_and_executed_once() {
    let f = fixture();
    let t1 = token(claims(1));
    write(
        &f.service,
        &t1,
        "ADD belief SET subject = \"alice\" SET relation = \"prefers\" SET object = \"tea\" REASON \"r\"",
    );
    write(
        &f.service,
        &t1,
        "ADD belief SET subject = \"bob\" SET relation = \"prefers\" SET object = \"coffee\" REASON \"r\"",
    );
    let t0 = token(claims(0));
    let read = q("RECALL beliefs WHERE subject = $who");
    let mut with_who = opts(NOW + 2);
    with_who.params.insert("who".into(), Json::from("bob"));

    let prepared = f.service.prepare(&t0, &read, &with_who).expect("a read prepares");
    assert_eq!((prepared.tier, prepared.side_effects.clone()), (0, serde_json::json!([])));
    assert_eq!(prepared.plan["statement_type"], "recall", "{}", prepared.plan);
    let direct = f.service.run(&t0, &read, &with_who);

    // Execute takes no parameters of its own: the prepared ones hold.
    let r = f.service.execute(&prepared.token.to_json(), &opts(NOW + 3));
    assert!(r.error.is_none(), "{}", r.json);
    assert_eq!(r.json["results"], direct.json["results"]);
    assert_eq!(r.json["results"][0]["grain"]["object"], "coffee");
    // Once only, and only for the memory it was prepared for.
    let again = f.service.execute(&prepared.token.to_json(), &opts(NOW + 4));
    assert_eq!(code(&again), Some("CAL-E901"), "{}", again.json);
    assert!(again.json.to_string().contains("refused"), "{}", again.json);
    let other = f.service.prepare(&t0, &read, &with_who).expect("prepares");
    let r = f.service.execute_in(Some("elsewhere"), &other.token.to_json(), &opts(NOW + 3));
    assert_eq!(code(&r), Some("CAL-E902"), "{}", r.json);
    // A forged parameter breaks the signature.
    let mut forged = other.token.clone();
    forged.params = Some(serde_json::Map::from_iter([("who".to_string(), Json::from("alice"))]));
    let r = f.service.execute(&forged.to_json(), &opts(NOW + 3));
    assert_eq!(code(&r), Some("CAL-E901"), "{}", r.json);
    // DEFINE TEMPLATE is not prepared.
    let t = f.service.prepare(&t1, &q("DEFINE TEMPLATE t ELEMENT { {{grain.subject}} }"), &opts(NOW));
    assert_eq!(t.err().as_ref().and_then(code), Some("CAL-E044"));
}
