//! Hybrid search (§9.1, §16.4): a `query =`, `LIKE` or ABOUT-fallback search over a store
//! with an embedder ranks its grains by BM25 and by vector similarity, and fuses the two
//! rankings by reciprocal rank fusion (`cal_embed::fuse`).
//!
//! - Both rankings cover exactly the grains the query may see: the keyword ranking is the
//!   store's search under the query's filters, and a vector candidate joins only after the
//!   same filters admit it, so no namespace outside the query's reach moves a rank.
//! - Fusion keeps every grain of either ranking (a keyword-only hit and a vector-only hit
//!   both survive); the pipeline (ORDER BY, LIMIT, …) then runs over the fused list.
//! - An embedder that fails gives CAL-W901 and the keyword ranking alone, never a partial
//!   silent result (docs/spec-decisions-embed.md).

use std::collections::{HashMap, HashSet};

use cal_embed::{Fused, RRF_K, Retriever, Scope};
use cal_grammar::{Code, Diagnostic, Span};
use oms::ContentAddress;
use oms::store::{Filter, Hit, Query, ResultEnvelope};
use serde_json::{Value as Json, json};

use crate::context::Ctx;

/// The note a fused hit carries to `WITH score_breakdown` (removed before output).
pub const PARTS_NOTE: &str = "_hybrid";

/// How many vector candidates are admitted per store call, between deadline checks.
const ADMIT_BATCH: usize = 1_024;

/// A fused answer: the envelope (every grain of either ranking, in fused order, with its
/// fused score normalised to the best one) and each grain's components.
pub struct HybridAnswer {
    /// The hits.
    pub envelope: ResultEnvelope,
    /// Per address, the `score_breakdown` components.
    pub parts: HashMap<ContentAddress, Json>,
}

/// Searches `text` under `q` (whose sort, limit and cursor must be empty: the pipeline pages)
/// by keywords and by vector, fused. Falls back to keywords alone with CAL-W901 when the
/// embedder fails.
pub fn search(
    cx: &mut Ctx<'_>,
    retriever: &Retriever,
    text: &str,
    q: &Query,
    span: Span,
) -> Result<HybridAnswer, Diagnostic> {
    // A store that stopped for the deadline reports the query's own timeout code.
    let deadline = cx.deadline.clone();
    let store_error = |e: oms::OmsError| deadline.store_error(span, &e);
    let query_vector = retriever.query_vector(text, cx.deadline.remaining());
    cx.deadline.check()?;
    let keyword = cx.facade.search(text, q).map_err(store_error)?;
    cx.stats.store_ops += 1;
    let query_vector = match query_vector {
        Ok(v) => v,
        Err(e) => {
            cx.stats.warn(
                Diagnostic::new(
                    Code::W901,
                    span,
                    format!(
                        "Semantic search is unavailable ({}): {e}. These results are ranked by keywords alone.",
                        e.kind()
                    ),
                )
                .with_suggestion(
                    "Check that the embedder is running (`cal store embedder DB` shows it), or rephrase with the \
                     words the memory uses.",
                ),
            );
            return Ok(HybridAnswer { envelope: keyword, parts: HashMap::new() });
        }
    };
    let types: Vec<u8> = q
        .filters
        .iter()
        .filter_map(|f| match f {
            Filter::Type(t) => Some(t.byte()),
            _ => None,
        })
        .collect();
    let namespaces = oms::store::search::visible_namespaces(q);
    let scope = Scope { types: (!types.is_empty()).then_some(types.as_slice()), namespaces: namespaces.as_deref() };
    let candidates = retriever.rank(&query_vector, scope);
    cx.deadline.check()?;

    let mut hits: HashMap<ContentAddress, Hit> = keyword.results.into_iter().map(|h| (h.address, h)).collect();
    let keyword_ranking: Vec<(ContentAddress, f64)> = {
        let mut v: Vec<(ContentAddress, f64)> = hits.values().map(|h| (h.address, h.score)).collect();
        // The store's search order: score descending, then address (§17.4).
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    };
    // Candidates the keyword search did not find join only if the query's own filters and
    // view admit them, checked in batches between deadline checks.
    let mut admitted: HashSet<ContentAddress> = hits.keys().copied().collect();
    let outside: Vec<ContentAddress> = candidates.iter().map(|(a, _)| *a).filter(|a| !admitted.contains(a)).collect();
    let mut one = Query { filters: q.filters.clone(), view: q.view, sort: Vec::new(), limit: None, cursor: None };
    one.filters.retain(|f| !matches!(f, Filter::Address(_)));
    for batch in outside.chunks(ADMIT_BATCH) {
        cx.deadline.check()?;
        for hit in cx.facade.admit(&one, batch).map_err(store_error)? {
            admitted.insert(hit.address);
            hits.insert(hit.address, hit);
        }
        cx.stats.store_ops += 1;
    }
    let vector_ranking: Vec<(ContentAddress, f32)> =
        candidates.into_iter().filter(|(a, _)| admitted.contains(a)).collect();
    let fused = cal_embed::fuse(&keyword_ranking, &vector_ranking, RRF_K);
    Ok(assemble(fused, hits))
}

/// The envelope of a fused ranking: hits in fused order, scores normalised to the best.
fn assemble(fused: Vec<Fused>, mut hits: HashMap<ContentAddress, Hit>) -> HybridAnswer {
    let best = fused.first().map_or(1.0, |f| f.rrf);
    let mut parts = HashMap::with_capacity(fused.len());
    let mut results = Vec::with_capacity(fused.len());
    for f in fused {
        let Some(mut hit) = hits.remove(&f.address) else { continue };
        hit.score = if best > 0.0 { f.rrf / best } else { 0.0 };
        if f.keyword.is_none() && !hit.matched_fields.iter().any(|m| m == "embedding") {
            hit.matched_fields.push("embedding".into());
        }
        parts.insert(
            f.address,
            json!({
                "text_relevance": f.keyword.map(|(_, s)| s),
                "keyword_rank": f.keyword.map(|(r, _)| r),
                "vector_similarity": f.vector.map(|(_, s)| f64::from(s)),
                "vector_rank": f.vector.map(|(r, _)| r),
                "rrf": f.rrf,
            }),
        );
        results.push(hit);
    }
    let total = results.len();
    HybridAnswer { envelope: ResultEnvelope { results, total, next_cursor: None }, parts }
}
