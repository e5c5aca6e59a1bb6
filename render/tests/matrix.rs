//! The snapshot matrix: every format × every grain type × every disclosure level, rendered
//! from the fixture grains (tests/common). One snapshot per format and level holds the ten
//! RECALL documents (two grains of one type each) and an ASSEMBLE of all ten types (one source
//! per type), so a change in any cell shows up in review.

mod common;

use cal_grammar::FormatName;
use cal_render::project::{Element, project};
use cal_render::{AssembleRequest, Budget, BudgetUnit, Output, SourceInput, assemble, render_recall, tokens};
use common::{LEVELS, PLURALS, TYPES, grains, opts};

const FORMATS: [FormatName; 7] = [
    FormatName::Sml,
    FormatName::Markdown,
    FormatName::Text,
    FormatName::Json,
    FormatName::Yaml,
    FormatName::Triples,
    FormatName::Toon,
];

#[test]
fn every_format_type_and_level() {
    for format in FORMATS {
        for (level, level_name) in LEVELS {
            let o = opts(level);
            let mut doc = String::new();
            for kind in TYPES {
                let (text, n) = render_recall(&grains(kind), format, &o);
                assert_eq!(n, tokens::count(&text));
                assert!(!text.contains("sha256:"), "no hashes in the content layer (§14.2)");
                assert!(!text.contains("ns-hidden-7"), "no namespaces (§14.2)");
                doc.push_str(&format!("=== RECALL {kind} ({n} tokens)\n{text}\n\n"));
            }
            let req = AssembleRequest {
                name: "agent_context".into(),
                intent: Some("helping alice prepare her Q1 engineering review".into()),
                sources: TYPES
                    .iter()
                    .zip(PLURALS)
                    .map(|(t, p)| SourceInput { label: p.into(), grains: grains(t) })
                    .collect(),
                budget: Budget::new(16_000, BudgetUnit::Tokens),
                output: Output::Format(format),
                projection: o.clone(),
            };
            let out = assemble(&req);
            assert!(out.sources.iter().all(|s| !s.truncated));
            assert_eq!(out.tokens, tokens::count(&out.text));
            doc.push_str(&format!("=== ASSEMBLE, ten sources ({} tokens)\n{}\n", out.tokens, out.text));
            insta::assert_snapshot!(format!("{}_{level_name}", format.as_str()), doc);
        }
    }
}

#[test]
fn element_shape_is_the_same_at_every_level() {
    // §14.3: only the number of attributes changes, never the element's name or content.
    for kind in TYPES {
        let by_level: Vec<Vec<Element>> =
            LEVELS.iter().map(|(l, _)| grains(kind).iter().map(|g| project(g, &opts(*l))).collect()).collect();
        for ((s, st), f) in by_level[0].iter().zip(&by_level[1]).zip(&by_level[2]) {
            assert_eq!((&s.tag, &s.content), (&st.tag, &st.content), "{kind}");
            assert_eq!((&st.tag, &st.content), (&f.tag, &f.content), "{kind}");
            assert!(s.attrs.len() <= st.attrs.len() && st.attrs.len() <= f.attrs.len(), "{kind}");
            let names = |e: &Element| e.attrs.iter().map(|a| a.name.clone()).collect::<Vec<_>>();
            assert!(names(s).iter().all(|n| names(st).contains(n)), "{kind}: summary ⊆ standard");
            assert!(names(st).iter().all(|n| names(f).contains(n)), "{kind}: standard ⊆ full");
        }
    }
}
