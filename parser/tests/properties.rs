//! Property tests on generated ASTs and arbitrary input (issue 2):
//!
//! * print → parse is the identity (compared through the JSON form, which is a
//!   total, span-free projection of the tree), and printing is idempotent;
//! * AST → JSON → AST is the identity, and the JSON always validates against the schema;
//! * no input — bytes or text — panics the lexer or the parser, and every
//!   diagnostic span lies on character boundaries inside the input.

use cal_parser::ast::*;
use cal_parser::{json, parse_query, parse_query_bytes, print};
use proptest::prelude::*;
use unicode_normalization::UnicodeNormalization;

fn sp() -> Span {
    Span::default()
}

fn nfc_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,12}",
        "\\PC{0,10}",
        Just("say \"hi\"".to_string()),
        Just("back\\slash".to_string()),
        Just("mg:prefers".to_string()),
    ]
    .prop_map(|s| s.nfc().collect::<String>())
    .prop_filter("no bidi controls", |s| !s.chars().any(cal_lexer::is_bidi_control))
}

fn string_lit() -> impl Strategy<Value = StringLit> {
    nfc_string().prop_map(|value| StringLit { value: value.into(), span: sp() })
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::Int),
        (-1.0e9f64..1.0e9).prop_map(Number::Float),
        Just(Number::Float(1.0)),
        Just(Number::Float(0.5)),
    ]
}

fn hash() -> impl Strategy<Value = String> {
    "[0-9a-f]{8,64}"
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        nfc_string().prop_map(|s| ValueKind::String(s.into())),
        number().prop_map(ValueKind::Number),
        any::<bool>().prop_map(ValueKind::Bool),
        "[a-z][a-z0-9_]{0,6}".prop_map(|s| ValueKind::Param(s.into())),
        hash().prop_map(|s| ValueKind::Hash(s.into())),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop::collection::vec(inner.prop_map(|kind| Value { kind, span: sp() }), 0..4).prop_map(ValueKind::Array)
    })
    .prop_map(|kind| Value { kind, span: sp() })
}

fn field() -> impl Strategy<Value = FieldRef> {
    prop::sample::select(vec![
        "subject",
        "relation",
        "object",
        "confidence",
        "tags",
        "time",
        "tool_name",
        "scope",
        "hc:patient_id",
        "fin:account_id",
        "unknown_field",
    ])
    .prop_map(|n| FieldRef { name: n.into(), span: sp() })
}

fn label() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["beliefs", "goals", "history", "recent", "a1", "team_prefs"])
        .prop_map(|n| Ident { name: n.into(), span: sp() })
}

fn test() -> impl Strategy<Value = Test> {
    prop_oneof![
        (prop::sample::select(Comparator::ALL.to_vec()), value()).prop_map(|(op, value)| Test::Compare {
            op,
            op_span: sp(),
            value
        }),
        prop::collection::vec(value(), 1..4).prop_map(Test::InList),
        (value(), value()).prop_map(|(low, high)| Test::Between { low, high }),
        value().prop_map(Test::Include),
        value().prop_map(Test::Exclude),
        prop::sample::select(RelationCategory::ALL.to_vec()).prop_map(|c| Test::IsCategory(c, sp())),
    ]
}

fn with_option() -> impl Strategy<Value = WithOption> {
    let num = || number().prop_map(|n| (n, sp()));
    prop_oneof![
        Just(WithKind::Superseded),
        Just(WithKind::ScoreBreakdown),
        Just(WithKind::ContradictionDetection),
        Just(WithKind::IsoTimestamps),
        prop::option::of(prop::sample::select(DisclosureLevel::ALL.to_vec()).prop_map(|l| (l, sp())))
            .prop_map(WithKind::ProgressiveDisclosure),
        prop::option::of(num()).prop_map(|l| WithKind::Diversity(Diversity::Mmr(l))),
        num().prop_map(|(n, s)| WithKind::Diversity(Diversity::Threshold(n, s))),
        Just(WithKind::Consistency(Consistency::Eventual)),
        num().prop_map(|(n, s)| WithKind::Consistency(Consistency::Bounded(n, s))),
        field().prop_map(WithKind::Dedup),
        string_lit().prop_map(WithKind::Locale),
        any::<u32>().prop_map(|v| WithKind::Cache(IntLit { value: u64::from(v), span: sp() })),
        ("x_[a-z]{1,5}", prop::option::of(prop::collection::vec(value(), 0..3)))
            .prop_map(|(name, args)| WithKind::Extension { name: name.into(), args }),
    ]
    .prop_map(|kind| WithOption { kind, span: sp() })
}

fn int_or_param() -> impl Strategy<Value = IntOrParam> {
    prop_oneof![
        any::<u32>().prop_map(|v| IntOrParam::Int(IntLit { value: u64::from(v), span: sp() })),
        "[a-z]{1,5}".prop_map(|p| IntOrParam::Param(p.into(), sp())),
    ]
}

fn stage() -> impl Strategy<Value = Stage> {
    prop_oneof![
        prop::collection::vec(field(), 1..3).prop_map(StageKind::Select),
        (field(), prop::option::of(prop::sample::select(SortDirection::ALL.to_vec())))
            .prop_map(|(field, direction)| StageKind::OrderBy { field, direction }),
        int_or_param().prop_map(StageKind::Limit),
        int_or_param().prop_map(StageKind::Offset),
        Just(StageKind::Count),
        Just(StageKind::First),
        prop::sample::select(Extractor::ALL.to_vec()).prop_map(StageKind::Extract),
        field().prop_map(StageKind::GroupBy),
        prop::collection::vec(
            (any::<bool>(), prop::collection::vec(field(), 1..3)).prop_map(|(is_attr, fields)| ProjectSpec {
                is_attr,
                fields,
                span: sp()
            }),
            1..3
        )
        .prop_map(StageKind::Project),
    ]
    .prop_map(|kind| Stage { kind, span: sp() })
}

fn plain_condition() -> BoxedStrategy<Condition> {
    (field(), test()).prop_map(|(field, test)| Condition { field, test, span: sp() }).boxed()
}

fn recall_with(condition: BoxedStrategy<Condition>) -> impl Strategy<Value = Recall> {
    (
        (
            any::<bool>(),
            prop::option::of(prop::sample::select(GrainType::ALL.to_vec())),
            prop::option::of((any::<bool>(), string_lit())),
            prop::option::of(string_lit()),
            prop::option::of(string_lit()),
            prop::option::of(string_lit()),
        ),
        (
            prop::option::of((value(), value())),
            prop::option::of(prop_oneof![
                string_lit().prop_map(ThreadKind::Session),
                hash().prop_map(|h| ThreadKind::From(Target { kind: TargetKind::Hash(h.into()), span: sp() })),
            ]),
            prop::option::of(prop::collection::vec(condition, 1..4)),
            prop::option::of(prop::collection::vec(with_option(), 1..3)),
            prop::collection::vec(stage(), 0..3),
        ),
        (
            prop::option::of(any::<u16>()),
            any::<bool>(),
            prop::option::of(prop::sample::select(FormatName::ALL.to_vec())),
        ),
    )
        .prop_map(
            |((my, g, scope, about, like, since), (between, thread, conds, with, pipeline), (recent, contra, fmt))| {
                Recall {
                    my: my.then(sp),
                    grain_type: g.map(|grain_type| GrainTypeRef { grain_type, span: sp() }),
                    scope: scope.map(|(is_scope, value)| InScope { is_scope, value, span: sp() }),
                    about,
                    like,
                    since,
                    between: between.map(|(low, high)| BetweenClause { low, high, span: sp() }),
                    thread: thread.map(|kind| Thread { kind, span: sp() }),
                    where_clause: conds.map(|conditions| WhereClause { conditions, span: sp() }),
                    with: with.map(|options| WithClause { options, span: sp() }),
                    pipeline,
                    recent: recent.map(|v| IntLit { value: u64::from(v), span: sp() }),
                    contradictions: contra.then(sp),
                    as_format: fmt.map(|format| FormatRef { format, span: sp() }),
                    span: sp(),
                }
            },
        )
}

fn recall() -> BoxedStrategy<Recall> {
    // One level of subquery is enough to exercise the recursion.
    let leaf = recall_with(plain_condition()).boxed();
    let condition = prop_oneof![
        4 => plain_condition(),
        1 => (field(), leaf).prop_map(|(field, r)| Condition { field, test: Test::InSubquery(Box::new(r)), span: sp() }),
    ];
    recall_with(condition.boxed()).boxed()
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        hash().prop_map(|h| TargetKind::Hash(h.into())),
        "[a-z][a-z0-9_]{0,5}".prop_map(|p| TargetKind::Param(p.into())),
    ]
    .prop_map(|kind| Target { kind, span: sp() })
}

fn template_body() -> impl Strategy<Value = TemplateBody> {
    prop::collection::vec(
        (
            prop::sample::select(TemplateSectionKind::ALL.to_vec()),
            "[ a-z<>=\"/#.]{0,12}(\\{[ a-z]{0,4}\\})?[ a-z]{0,4}",
        )
            .prop_filter("balanced braces", |(_, t)| balanced(t))
            .prop_map(|(kind, text)| TemplateSection { kind, text: text.into(), text_span: sp(), span: sp() }),
        1..3,
    )
    .prop_map(|sections| TemplateBody { sections, span: sp() })
}

fn balanced(t: &str) -> bool {
    let mut depth = 0i32;
    for c in t.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && !t.contains("{{")
}

fn sets() -> impl Strategy<Value = Vec<SetClause>> {
    prop::collection::vec((field(), value()).prop_map(|(field, value)| SetClause { field, value, span: sp() }), 0..3)
}

fn statement() -> impl Strategy<Value = Statement> {
    let source = (
        prop::option::of(label()),
        prop_oneof![
            recall().prop_map(SourceBody::Recall),
            "[a-z][a-z0-9_]{0,5}".prop_map(|n| SourceBody::LetRef(Ident { name: n.into(), span: sp() })),
        ],
    )
        .prop_map(|(label, body)| Source { label, body, span: sp() });
    let assemble = (
        prop::option::of("ctx_[a-z]{1,4}"),
        prop::option::of(string_lit()),
        prop::collection::vec(source, 1..3),
        prop::option::of((any::<u16>(), prop::sample::select(BudgetUnit::ALL.to_vec()))),
        prop::option::of(prop::collection::vec(label(), 1..3)),
        prop::option::of(prop_oneof![
            prop::sample::select(FormatName::ALL.to_vec()).prop_map(FormatKind::Named),
            "tpl_[a-z]{1,4}".prop_map(|n| FormatKind::Template(Ident { name: n.into(), span: sp() })),
            template_body().prop_map(FormatKind::Inline),
        ]),
        prop::option::of(prop::collection::vec(
            prop_oneof![
                prop::sample::select(StreamEvents::ALL.to_vec()).prop_map(StreamOptionKind::Events),
                any::<u16>().prop_map(|v| StreamOptionKind::ChunkSize(IntLit { value: u64::from(v), span: sp() })),
            ]
            .prop_map(|kind| StreamOption { kind, span: sp() }),
            0..3,
        )),
        prop::option::of(prop::collection::vec(with_option(), 1..3)),
    )
        .prop_map(|(name, intent, sources, budget, priority, format, stream, with)| {
            Statement::Assemble(Box::new(Assemble {
                name: name.map(|n| Ident { name: n.into(), span: sp() }),
                intent,
                sources,
                budget: budget.map(|(a, unit)| Budget {
                    amount: IntLit { value: u64::from(a), span: sp() },
                    unit,
                    span: sp(),
                }),
                priority: priority.map(|labels| Priority { labels, span: sp() }),
                format: format.map(|kind| FormatSpec { kind, span: sp() }),
                stream: stream.map(|options| Stream { options, span: sp() }),
                with: with.map(|options| WithClause { options, span: sp() }),
                span: sp(),
            }))
        });
    let leaf = prop_oneof![
        3 => recall().prop_map(|r| Statement::Recall(Box::new(r))),
        2 => assemble,
        1 => target().prop_map(|target| Statement::Exists(Exists { target, span: sp() })),
        1 => (target(), prop::option::of(target()))
            .prop_map(|(target, diff)| Statement::History(History { kind: HistoryKind::Hash { target, diff }, span: sp() })),
        1 => (prop::option::of((any::<bool>(), string_lit())), value(), value(), prop::option::of(string_lit()))
            .prop_map(|(scope, subject, relation, as_of)| Statement::History(History {
                kind: HistoryKind::Triple {
                    scope: scope.map(|(is_scope, value)| InScope { is_scope, value, span: sp() }),
                    subject,
                    relation,
                    as_of,
                },
                span: sp(),
            })),
        1 => (prop::sample::select(DescribeTarget::ALL.to_vec()), prop::option::of(prop::sample::select(GrainType::ALL.to_vec())))
            .prop_map(|(target, g)| Statement::Describe(Describe {
                target,
                target_span: sp(),
                grain_type: if target == DescribeTarget::Fields { g.map(|grain_type| GrainTypeRef { grain_type, span: sp() }) } else { None },
                span: sp(),
            })),
        1 => prop::collection::vec(recall(), 1..3).prop_map(|branches| Statement::Coalesce(Coalesce { branches, span: sp() })),
        1 => (prop::sample::select(GrainType::ALL.to_vec()), sets(), prop::option::of(string_lit()))
            .prop_map(|(g, sets, reason)| Statement::Add(Add { grain_type: GrainTypeRef { grain_type: g, span: sp() }, sets, reason, span: sp() })),
        1 => (target(), sets(), prop::option::of(string_lit()))
            .prop_map(|(target, sets, reason)| Statement::Supersede(Supersede { target, sets, reason, span: sp() })),
        1 => (target(), prop::option::of(string_lit()))
            .prop_map(|(target, reason)| Statement::Revert(Revert { target, reason, span: sp() })),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            (inner.clone(), prop::sample::select(SetOperator::ALL.to_vec()), inner.clone()).prop_map(|(l, op, r)| {
                Statement::SetOp(SetOp { left: Box::new(l), op, op_span: sp(), right: Box::new(r), span: sp() })
            }),
            inner
                .clone()
                .prop_filter("no EXPLAIN EXPLAIN", |s| !matches!(s, Statement::Explain(_)))
                .prop_map(|s| Statement::Explain(Explain { statement: Box::new(s), span: sp() })),
            // ASSEMBLE is no BATCH entry (§4 `batch_entry`); the parser takes one only to report it,
            // and its FROM list reads a following `label: (…)` as a source (ruling S9), so its text
            // is not its tree's.
            prop::collection::vec(
                (label(), inner.prop_filter("no ASSEMBLE entry (S9)", |s| !matches!(s, Statement::Assemble(_)))),
                1..3,
            )
            .prop_map(|entries| Statement::Batch(Batch {
                entries: entries
                    .into_iter()
                    .map(|(label, statement)| BatchEntry { label, statement, span: sp() })
                    .collect(),
                span: sp(),
            })),
        ]
    })
}

fn query() -> impl Strategy<Value = Query> {
    (
        any::<bool>(),
        prop::collection::vec(("[a-z][a-z0-9_]{0,5}", recall()), 0..2),
        prop_oneof![
            6 => statement().prop_map(QueryBody::Statement),
            1 => ("tpl_[a-z]{1,4}", prop::option::of(prop::sample::select(vec!["structured", "readable", "data", "mine"])), template_body())
                .prop_map(|(name, extends, body)| QueryBody::DefineTemplate(DefineTemplate {
                    name: Ident { name: name.into(), span: sp() },
                    extends: extends.map(|e| Ident { name: e.into(), span: sp() }),
                    body,
                    span: sp(),
                })),
        ],
    )
        .prop_map(|(v, lets, body)| Query {
            version: v.then_some(Version { major: 1, span: sp() }),
            lets: lets.into_iter().map(|(name, recall)| LetBinding { name: Ident { name: name.into(), span: sp() }, recall, span: sp() }).collect(),
            body,
            span: sp(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn print_then_parse_is_identity(q in query()) {
        let text = print::query_to_text(&q);
        prop_assume!(text.len() <= 8192);
        let parsed = parse_query(&text);
        prop_assert!(!parsed.has_errors(), "{text}\n{:#?}", parsed.diagnostics);
        let back = parsed.ast.unwrap();
        prop_assert_eq!(json::query_to_json(&back), json::query_to_json(&q), "{}", text);
        prop_assert_eq!(print::query_to_text(&back), text);
    }

    #[test]
    fn the_one_line_form_parses_to_the_same_tree(q in query()) {
        let text = print::query_to_one_line(&q);
        prop_assume!(text.len() <= 8192);
        prop_assert!(text.len() <= print::query_to_text(&q).len());
        let parsed = parse_query(&text);
        prop_assert!(!parsed.has_errors(), "{text}\n{:#?}", parsed.diagnostics);
        prop_assert_eq!(json::query_to_json(&parsed.ast.unwrap()), json::query_to_json(&q), "{}", text);
    }

    #[test]
    fn json_round_trip_is_identity(q in query()) {
        let j = json::query_to_json(&q);
        prop_assert!(json::validate(&j).is_empty(), "{}", j);
        let back = json::query_from_json(&j).map_err(|d| TestCaseError::fail(format!("{d:?}\n{j}")))?;
        prop_assert_eq!(json::query_to_json(&back), j);
        prop_assert_eq!(print::query_to_text(&back), print::query_to_text(&q));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let p = parse_query_bytes(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            for d in &p.diagnostics {
                prop_assert!(text.is_char_boundary(d.span.start as usize) && text.is_char_boundary(d.span.end as usize));
            }
        }
    }

    #[test]
    fn cal_shaped_text_never_panics(words in prop::collection::vec(prop::sample::select(vec![
        "RECALL", "beliefs", "WHERE", "subject", "=", "\"a\"", "AND", "(", ")", "|", "LIMIT", "5", "ASSEMBLE", "FROM",
        "x:", ",", "WITH", "superseded", "{", "}", "ELEMENT", "BATCH", "COALESCE", "IN", "$p", "sha256:abcdef12",
        ";", "EXPLAIN", "UNION", "DEFINE", "TEMPLATE", "HEADER", "[", "]", "-1.5", "IS", "PREFERENCE", "STREAM",
    ]), 0..40)) {
        let text = words.join(" ");
        let _ = parse_query(&text);
        let _ = cal_parser::parse_document(&text);
    }
}
