//! DESCRIBE (§8.6): schema introspection, read from the grammar tables (one
//! source of truth, ARCHITECTURE principle 1) and from this implementation's
//! own capabilities, declared honestly (§24). No store operation is made
//! except counting grains for `DESCRIBE server`.

use cal_grammar::fields::{COMMON_FIELDS, DOMAIN_PROFILES, FieldInfo, fields_for, projection, type_fields};
use cal_grammar::{EBNF, FormatName, GrainType, limits};
use cal_parser::ast::{Describe, DescribeTarget};
use serde_json::{Map, Value as Json, json};

use crate::collate;
use crate::context::Ctx;
use crate::envelope::CAL_VERSION;
use crate::outcome::Description;
use crate::timeexpr::format_rfc3339;

fn field_json(f: &FieldInfo) -> Json {
    json!({
        "name": f.name,
        "type": f.value_type.as_str(),
        "operators": f.ops.iter().map(|o| o.as_str()).collect::<Vec<_>>(),
        "sortable": f.sortable,
        "projectable": f.projectable,
        "groupable": f.groupable,
        "grain_type": f.grain_type.map(|g| g.singular()),
        "values": f.enum_values,
        "range": f.range.map(|(a, b)| json!([a, b])),
        "section": f.section,
        "doc": f.doc,
    })
}

fn grain_types() -> Json {
    Json::Array(
        GrainType::ALL
            .iter()
            .map(|g| {
                json!({
                    "type": g.singular(),
                    "plural": g.plural(),
                    "oms_type_code": format!("0x{:02X}", g.oms_code()),
                    "specific_fields": type_fields(*g).iter().map(|f| f.name).collect::<Vec<_>>(),
                    "queryable_fields": fields_for(Some(*g)).count(),
                    "content": projection(*g).content,
                    "addable": g.is_addable(),
                    "supersedable": *g == GrainType::Belief,
                })
            })
            .collect(),
    )
}

fn fields(grain: Option<GrainType>) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert("grain_type".into(), grain.map(|g| g.singular()).into());
    m.insert("fields".into(), Json::Array(fields_for(grain).map(field_json).collect()));
    if grain.is_none() {
        let by_type: Map<String, Json> = GrainType::ALL
            .iter()
            .map(|g| (g.singular().to_string(), Json::Array(type_fields(*g).iter().map(field_json).collect())))
            .collect();
        m.insert("by_grain_type".into(), Json::Object(by_type));
    }
    m.insert(
        "domain_profiles".into(),
        Json::Array(
            DOMAIN_PROFILES
                .iter()
                .map(|p| json!({ "domain": p.domain, "prefix": p.prefix, "tag": p.tag, "fields": p.fields.iter().map(|f| f.name).collect::<Vec<_>>() }))
                .collect(),
        ),
    );
    m.insert("common_count".into(), COMMON_FIELDS.len().into());
    m
}

/// The output formats DESCRIBE capabilities lists (every format, no preset), in the order it
/// has always listed them.
const OUTPUT_FORMATS: [FormatName; 7] = [
    FormatName::Json,
    FormatName::Markdown,
    FormatName::Sml,
    FormatName::Text,
    FormatName::Yaml,
    FormatName::Triples,
    FormatName::Toon,
];

/// The conformance level this toolchain declares (§24): the one DESCRIBE capabilities, the
/// conformance adapter's hello and the README state. Evolve: every Core, Extended and Evolve
/// case of the suite passes; Full is not declared while its transports (SSE, WebSocket) are
/// missing, whatever the suite certifies.
pub const DECLARED_LEVEL: &str = "evolve";

/// How keyword search ranks, as DESCRIBE capabilities reports it.
const BM25_SEARCH: &str =
    "BM25 (k1 = 1.2, b = 0.75) over each grain's projected text, Unicode word segmentation, English stemming";

/// The conformance this implementation declares (§24), with what it lacks.
pub fn capabilities() -> Json {
    json!({
        "cal_conformance": "core",
        "cal_version": CAL_VERSION,
        "conformance_complete": false,
        "levels": {
            "core": {
                "implemented": ["RECALL with WHERE, IN, LIMIT, ABOUT, RECENT", "EXISTS", "parameter binding", "hash literals",
                    "error codes CAL-E001..E031", "safety invariants (§2): read-only facade without delete", "determinism (§17.4)", "text/cal",
                    "audit entries (§21) through a configured sink"],
                "missing": ["policy gate on reads (§19); the store enforces invalidation policies on writes only",
                    "capability tokens (§18); a deployment confines a request to a namespace instead"],
            },
            "extended": {
                "implemented": ["pipeline (SELECT, ORDER BY, LIMIT, OFFSET, COUNT, FIRST, GROUP BY, SUBJECTS, OBJECTS, HASHES, PROJECT)",
                    "UNION, INTERSECT, EXCEPT", "subqueries", "EXPLAIN", "HISTORY with AS OF and DIFF", "DESCRIBE", "BATCH", "COALESCE",
                    "LET", "all shortcuts", "WITH diversity, score_breakdown, explanation, provenance, contradiction_detection, dedup, locale",
                    "grain-type-specific fields", "mg: relation categories", "domain profile fields", "THREAD",
                    "error suggestions", "application/json+cal requests",
                    "ASSEMBLE budget allocation, progressive disclosure and FORMAT rendering (cal-render, exact o200k_base tokens)",
                    "AS per-query formats (`formatted`)"],
                "missing": ["cross-lingual search"],
            },
            "evolve": { "implemented": ["ADD, SUPERSEDE and REVERT through two-phase prepare/execute (§18.2) under capability tokens (cal-service, durable store)",
                    "store-aware previews: the exact grain, its address, the chain head and the restored version; EXPLAIN shows them",
                    "the policy gate (OMS §23 invalidation policies, quorum approvals bound to the new content, key separation by verified signer, goal depends_on, consent soft-locked)",
                    "write quotas and per-minute rates (CAL-E043, E052)", "hash-chained audit trail in the store (§21)",
                    "master and Tier 1 kill switches (§20.3)", "DEFINE TEMPLATE persisted per namespace"],
                "missing": [] },
            "full": { "missing": ["SSE and WebSocket transports, pause/resume and reconnection (§11.3, §11.6): events go to an in-process sink, and `cal run --stream` writes them as NDJSON"],
                "implemented": ["STREAM: the typed event stream of §11.1 in causal order, option filtering, chunks of whole elements, cancellation with a partial result (Interpreter::execute_stream)",
                    "DESCRIBE grammar", "DESCRIBE templates", "inline FORMAT TEMPLATE { … }",
                    "DEFINE TEMPLATE and FORMAT TEMPLATE name (per namespace, at most 50, session state: no grain is written)",
                    "PROJECT in formatted output"] },
        },
        "conformance_level": DECLARED_LEVEL,
        "tiers": { "read": true, "evolve": false },
        "cross_lingual_search": false,
        "embedding_model": null,
        "supported_languages": ["en"],
        "search": BM25_SEARCH,
        "locale_sorting": { "locales": collate::SUPPORTED, "method": "root collation primary level (accents and case folded), then code points" },
        "output_formats": OUTPUT_FORMATS.map(FormatName::as_str),
        "auto_toon_enabled": false,
        "streaming": true,
        "streaming_transports": ["ndjson"],
        "templates": true,
        "limits": {
            "max_limit": limits::MAX_LIMIT,
            "default_limit": limits::DEFAULT_LIMIT,
            "max_query_bytes": limits::MAX_QUERY_BYTES,
            "query_timeout_ms": limits::QUERY_TIMEOUT_MS,
            "assemble_timeout_ms": limits::ASSEMBLE_TIMEOUT_MS,
            "max_history_versions": limits::MAX_HISTORY_VERSIONS,
            "max_batch": limits::MAX_BATCH,
            "max_coalesce": limits::MAX_COALESCE,
            "max_let": limits::MAX_LET,
            "max_in_set": limits::MAX_IN_SET,
            "max_pipeline_stages": limits::MAX_PIPELINE_STAGES,
            "max_subquery_depth": limits::MAX_SUBQUERY_DEPTH,
        },
    })
}

/// DESCRIBE.
pub fn describe(cx: &mut Ctx<'_>, d: &Describe) -> Result<Description, cal_grammar::Diagnostic> {
    let mut m = Map::new();
    m.insert("target".into(), d.target.as_str().into());
    match d.target {
        DescribeTarget::GrainTypes => {
            m.insert("grain_types".into(), grain_types());
        }
        DescribeTarget::Fields => m.extend(fields(d.grain_type.map(|g| g.grain_type))),
        DescribeTarget::Capabilities => {
            let mut caps = capabilities();
            caps["auto_toon_enabled"] = cx.config.auto_toon.into();
            if let Some(r) = &cx.config.semantic {
                let c = r.config();
                caps["cross_lingual_search"] = true.into();
                caps["embedding_model"] = c.model.clone().into();
                caps["supported_languages"] = c.declared_languages().into();
                caps["search"] = format!(
                    "hybrid: {BM25_SEARCH}, fused by reciprocal rank fusion (k = {}) with the cosine similarity of \
                     {} vectors ({} dimensions, at least {}); ties by content address",
                    cal_embed::RRF_K,
                    c.model,
                    c.dimensions,
                    c.min_similarity
                )
                .into();
            }
            caps["tiers"]["evolve"] = cx.config.tier1_enabled.into();
            caps["kill_switches"] = json!({ "master": false, "tier1": cx.config.tier1_switched_off });
            m.insert("capabilities".into(), caps);
        }
        DescribeTarget::Server => {
            m.insert(
                "server".into(),
                json!({
                    "name": cx.config.server_name,
                    "implementation": "cal-interp",
                    "version": env!("CARGO_PKG_VERSION"),
                    "cal_version": CAL_VERSION,
                    "store": "OMS 1.3 in-memory store",
                    "grains": cx.facade.grain_count(),
                    "namespace": cx.config.namespace,
                    "tier1_enabled": cx.config.tier1_enabled,
                    "now": format_rfc3339(cx.opts.now_ms),
                    "query_timeout_ms": cx.config.query_timeout_ms,
                }),
            );
        }
        DescribeTarget::Templates => {
            m.insert("templates".into(), json!(crate::templates::names(cx)));
            let presets: Vec<&str> = FormatName::ALL.iter().filter(|f| f.is_preset()).map(|f| f.as_str()).collect();
            m.insert("presets".into(), json!(presets));
        }
        DescribeTarget::Grammar => {
            m.insert("format".into(), "EBNF".into());
            m.insert("grammar".into(), EBNF.into());
        }
    }
    Ok(Description { members: m })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_formats_are_every_format_but_no_preset() {
        let mut listed = OUTPUT_FORMATS.to_vec();
        listed.sort();
        let formats: Vec<FormatName> = FormatName::ALL.iter().copied().filter(|f| !f.is_preset()).collect();
        assert_eq!(listed, formats);
    }
}
