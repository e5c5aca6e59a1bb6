//! WITH options on RECALL (§4 `with_option`, §25.2): the ones that choose
//! which grains are returned (dedup, diversity), the ones that annotate them
//! (score_breakdown, explanation, provenance, contradiction_detection), the
//! locale of ORDER BY (§16.5), and the ones that are no-ops here, each with a
//! note or a warning saying so.

use cal_grammar::fields::names;
use std::collections::HashSet;

use cal_grammar::with::CACHE_TTL;
use cal_grammar::{Code, Diagnostic, WithOptionName};
use cal_parser::ast::{Diversity, Recall, WithKind};
use oms::Value;
use oms::store::{CmpOp, Filter, Query, View};
use serde_json::{Map, Value as Json, json};

use super::compile::Compiled;
use crate::collate;
use crate::context::{Ctx, Row};
use crate::fields;
use crate::timeexpr::format_rfc3339;

/// λ of MMR when `diversity(mmr)` gives none (docs/spec-decisions-interp.md, W2).
pub const DEFAULT_LAMBDA: f64 = 0.5;

/// Candidates re-ranked by diversity when no limit bounds what is needed.
const MAX_POOL: usize = 1000;

/// How diversity is applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Div {
    /// Maximal marginal relevance with λ.
    Mmr(f64),
    /// Drop a grain whose similarity to a kept one is at least this.
    Threshold(f64),
}

/// The WITH options of one RECALL, resolved.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `score_breakdown`.
    pub score_breakdown: bool,
    /// `explanation`.
    pub explanation: bool,
    /// `provenance`.
    pub provenance: bool,
    /// `contradiction_detection`.
    pub contradictions: bool,
    /// `diversity(…)`.
    pub diversity: Option<Div>,
    /// `dedup(field)`.
    pub dedup: Option<String>,
    /// `locale("xx")`, when supported.
    pub locale: bool,
}

impl Options {
    /// Reads the options, noting no-ops and warning on what is ignored.
    pub fn of(cx: &mut Ctx<'_>, r: &Recall) -> Options {
        let mut o = Options::default();
        let Some(w) = &r.with else { return o };
        for opt in &w.options {
            match &opt.kind {
                WithKind::Superseded => {}
                WithKind::ScoreBreakdown => o.score_breakdown = true,
                WithKind::Explanation => o.explanation = true,
                WithKind::Provenance => o.provenance = true,
                WithKind::ContradictionDetection => o.contradictions = true,
                WithKind::Diversity(Diversity::Mmr(l)) => {
                    o.diversity = Some(Div::Mmr(l.map_or(DEFAULT_LAMBDA, |(n, _)| n.as_f64()).clamp(0.0, 1.0)));
                }
                WithKind::Diversity(Diversity::Threshold(n, _)) => o.diversity = Some(Div::Threshold(n.as_f64())),
                WithKind::Dedup(f) => o.dedup = Some(f.name.to_string()),
                WithKind::Locale(l) => {
                    if collate::supported(&l.value) {
                        o.locale = true;
                    } else {
                        cx.stats.warn(
                            Diagnostic::new(
                                Code::W004,
                                opt.span,
                                format!(
                                    "{}(\"{}\") is not supported; strings sort in code-point order (§16.5).",
                                    WithOptionName::Locale,
                                    l.value
                                ),
                            )
                            .with_suggestion(format!("Supported: {}.", collate::SUPPORTED.join(", "))),
                        );
                    }
                }
                WithKind::Consistency(_) => cx.stats.note(format!(
                    "{}(…): the in-memory store is linearizable, which satisfies every level",
                    WithOptionName::Consistency
                )),
                WithKind::Cache(_) => cx.stats.note(format!(
                    "{}({CACHE_TTL} = …): this interpreter does not cache; results are computed fresh",
                    WithOptionName::Cache
                )),
                WithKind::Summarize | WithKind::ProgressiveDisclosure(_) | WithKind::IsoTimestamps => {
                    cx.stats.note(format!(
                        "{}, {} and {} shape formatted output; JSON output is unaffected",
                        WithOptionName::Summarize,
                        WithOptionName::ProgressiveDisclosure,
                        WithOptionName::IsoTimestamps
                    ))
                }
                WithKind::Extension { name, .. } => {
                    cx.stats.warn(
                        Diagnostic::new(
                            Code::W004,
                            opt.span,
                            format!("Unknown extension option `{name}` is ignored (§25.2)."),
                        )
                        .with_suggestion("Remove it, or use it with an implementation that defines it."),
                    );
                }
            }
        }
        o
    }

    /// Whether the whole candidate set must be seen before the pipeline.
    pub fn needs_all(&self) -> bool {
        self.dedup.is_some() || self.diversity.is_some()
    }
}

fn tokens(row: &Row) -> HashSet<String> {
    oms::store::search::projection(row.hit.grain())
        .into_iter()
        .flat_map(|(_, t)| oms::store::search::tokenize(&t))
        .collect()
}

fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 { 0.0 } else { a.intersection(b).count() as f64 / union as f64 }
}

/// `dedup(field)`: the first grain of each value is kept; grains without the field are kept.
pub fn dedup(rows: Vec<Row>, field: &str) -> Vec<Row> {
    let mut seen = HashSet::new();
    rows.into_iter()
        .filter(|r| fields::value(&r.hit, field).is_none_or(|v| seen.insert(oms::json::to_json(&v).to_string())))
        .collect()
}

/// Diversity over the candidates, in their order. MMR re-ranks a pool of
/// `5 × needed` (at least 50) candidates and keeps the rest after them;
/// the threshold form drops near-duplicates of kept grains.
/// The query deadline is checked as the work goes (§17.3: a timeout holds within its
/// limit, whatever the store's size): every [`CHECK_EVERY`] candidates tokenized, every MMR pick, and every threshold candidate
/// once that many are kept.
pub fn diversify(
    rows: Vec<Row>,
    div: Div,
    needed: Option<usize>,
    deadline: &crate::context::Deadline,
) -> Result<Vec<Row>, Diagnostic> {
    Ok(match div {
        Div::Mmr(lambda) => {
            let pool = needed.map_or(MAX_POOL, |n| n.saturating_mul(5).max(50)).min(rows.len());
            let k = needed.unwrap_or(pool).min(pool);
            let mut rest = rows;
            let tail = rest.split_off(pool);
            let mut toks: Vec<HashSet<String>> = Vec::with_capacity(rest.len());
            for (n, r) in rest.iter().enumerate() {
                if n % CHECK_EVERY == 0 {
                    deadline.check()?;
                }
                toks.push(tokens(r));
            }
            let mut left: Vec<usize> = (0..rest.len()).collect();
            let mut max_sim = vec![0.0f64; rest.len()];
            let mut chosen: Vec<(usize, f64)> = Vec::new();
            while chosen.len() < k && !left.is_empty() {
                deadline.check()?;
                let mut best: Option<(usize, f64)> = None;
                for (pos, &i) in left.iter().enumerate() {
                    let score = lambda * rest[i].hit.score - (1.0 - lambda) * max_sim[i];
                    let better = best.is_none_or(|(bp, bs)| {
                        score > bs || (score == bs && rest[i].hit.address < rest[left[bp]].hit.address)
                    });
                    if better {
                        best = Some((pos, score));
                    }
                }
                let Some((pos, score)) = best else { break };
                let i = left.remove(pos);
                for &l in &left {
                    max_sim[l] = max_sim[l].max(jaccard(&toks[l], &toks[i]));
                }
                chosen.push((i, score));
            }
            let mut slots: Vec<Option<Row>> = rest.into_iter().map(Some).collect();
            let mut out: Vec<Row> = Vec::with_capacity(slots.len() + tail.len());
            for (i, score) in chosen {
                if let Some(mut r) = slots[i].take() {
                    r.notes.insert("_mmr".into(), json!(score));
                    out.push(r);
                }
            }
            out.extend(slots.into_iter().flatten());
            out.extend(tail);
            out
        }
        Div::Threshold(x) => {
            let mut kept: Vec<(Row, HashSet<String>)> = Vec::new();
            for (n, r) in rows.into_iter().enumerate() {
                // Each candidate is compared with every grain kept (up to 5,000): with many
                // kept, one candidate is already worth a look at the clock.
                if n % CHECK_EVERY == 0 || kept.len() >= CHECK_EVERY {
                    deadline.check()?;
                }
                if kept.len() >= needed.map_or(MAX_POOL, |n| n.saturating_mul(5).max(50)) {
                    break;
                }
                let t = tokens(&r);
                if kept.iter().all(|(_, k)| jaccard(&t, k) < x) {
                    kept.push((r, t));
                }
            }
            kept.into_iter().map(|(r, _)| r).collect()
        }
    })
}

/// How many candidates are handled between two looks at the deadline.
const CHECK_EVERY: usize = 256;

/// Relations whose assertion about the same subject and object contradicts this one.
fn opposites(relation: &str) -> Vec<String> {
    let bare = relation.strip_prefix("mg:").unwrap_or(relation);
    let opp: &[&str] = match bare {
        "prefers" | "likes" => &["avoids", "dislikes"],
        "avoids" | "dislikes" => &["prefers", "likes", "requires"],
        "requires" => &["avoids", "prohibits"],
        "prohibits" => &["requires", "permits"],
        "permits" => &["prohibits", "revokes"],
        "revokes" => &["permits"],
        _ => &[],
    };
    opp.iter().flat_map(|o| [format!("mg:{o}"), (*o).to_string()]).collect()
}

/// Adds a conflicting grain once, gathering every reason it conflicts.
fn add_conflict(conflicts: &mut Vec<Json>, address: String, why: &str) {
    if let Some(c) = conflicts.iter_mut().find(|c| c["content_address"] == address.as_str()) {
        if let Some(reasons) = c["why"].as_array_mut() {
            reasons.push(why.into());
        }
        return;
    }
    conflicts.push(json!({ "content_address": address, "why": [why] }));
}

fn contradictions(cx: &mut Ctx<'_>, row: &Row) -> Result<Json, Diagnostic> {
    let hit = &row.hit;
    let contradicted = fields::value(hit, names::CONTRADICTED) == Some(Value::Bool(true));
    let mut conflicts: Vec<Json> = Vec::new();
    let text = |f: &str| match fields::value(hit, f) {
        Some(Value::Str(s)) => Some(s),
        _ => None,
    };
    let (s, r, o) = (text(names::SUBJECT), text(names::RELATION), text(names::OBJECT));
    if let (Some(s), Some(r), Some(o)) = (s, r, o) {
        let opp = opposites(&r);
        if !opp.is_empty() {
            cx.deadline.check()?;
            let q = Query {
                filters: vec![
                    Filter::Cmp { field: names::SUBJECT.into(), op: CmpOp::Eq, value: Value::Str(s) },
                    Filter::Cmp { field: names::OBJECT.into(), op: CmpOp::Eq, value: Value::Str(o) },
                    Filter::In { field: names::RELATION.into(), values: opp.into_iter().map(Value::Str).collect() },
                ],
                view: View::Current,
                sort: Vec::new(),
                limit: Some(20),
                cursor: None,
            };
            let env = cx.facade.query(&q).map_err(|e| crate::context::bug(Default::default(), &e.to_string()))?;
            cx.stats.store_ops += 1;
            cx.stats.scanned += env.total as u64;
            for h in env.results {
                add_conflict(&mut conflicts, h.address.to_hex(), "opposite relation on the same subject and object");
            }
        }
    }
    if let Some(Value::Array(links)) = hit.grain().get("related_to") {
        for l in links {
            let Some(m) = l.as_map() else { continue };
            let kind = m.get("relation_type").and_then(Value::as_str);
            if let (Some(k @ ("contradicts" | "refutes")), Some(h)) = (kind, m.get("hash").and_then(Value::as_str)) {
                add_conflict(&mut conflicts, h.to_string(), &format!("related_to: {k}"));
            }
        }
    }
    Ok(json!({ "contradicted": contradicted, "conflicts_with": conflicts }))
}

fn provenance(row: &Row) -> Json {
    let g = row.hit.grain();
    let field = |n: &str| g.get(n).map_or(Json::Null, oms::json::to_json);
    json!({
        "source_type": field("source_type"),
        "author_did": field("author_did"),
        "origin_did": field("origin_did"),
        "derived_from": field("derived_from"),
        "provenance_chain": field("provenance_chain"),
        "created_at": g.created_at().map(format_rfc3339),
    })
}

/// Adds the annotation options to the grains that are returned.
pub fn annotate(cx: &mut Ctx<'_>, o: &Options, rows: &mut [Row], compiled: &Compiled) -> Result<(), Diagnostic> {
    let search = compiled.text.is_some();
    for row in rows.iter_mut() {
        let mmr = row.notes.remove("_mmr");
        let fused = row.notes.remove(super::hybrid::PARTS_NOTE);
        let hybrid = fused.is_some();
        if o.score_breakdown {
            let mut b = Map::new();
            if let Some(Json::Object(parts)) = fused {
                // Hybrid search: both components, their ranks, and the fused score.
                b.insert("method".into(), "hybrid_rrf".into());
                b.extend(parts);
                b.insert("rrf_k".into(), json!(cal_embed::RRF_K));
            } else {
                b.insert("method".into(), (if search { "bm25" } else { "structural" }).into());
                b.insert("text_relevance".into(), if search { json!(row.hit.score) } else { Json::Null });
            }
            b.insert("structural_match".into(), json!(1.0));
            if let Some(m) = mmr {
                b.insert("mmr".into(), m);
            }
            b.insert("final".into(), json!(row.hit.score));
            row.notes.insert("score_breakdown".into(), Json::Object(b));
        }
        if o.explanation {
            let method = match (hybrid, search) {
                (true, _) => {
                    "BM25 and vector similarity, fused by reciprocal rank fusion, combined with the conditions"
                }
                (false, true) => "BM25 text search combined with the conditions",
                (false, false) => "structured query",
            };
            row.notes.insert(
                "explanation".into(),
                json!({ "method": method, "conditions": compiled.described, "matched_fields": row.hit.matched_fields }),
            );
        }
        if o.provenance {
            row.notes.insert("provenance".into(), provenance(row));
        }
        if o.contradictions {
            let c = contradictions(cx, row)?;
            row.notes.insert("contradictions".into(), c);
        }
    }
    Ok(())
}
