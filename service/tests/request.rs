//! A request's refusal (`cal_service::request::one_query`, behind `cal run`, the server and
//! MCP): its errors are what §17.1's pipeline reports (ruling C37).

use cal_checker::Params;
use cal_grammar::Code;
use cal_service::request::one_query;

#[test]
fn a_refused_request_reports_the_parse_error_not_the_check_of_a_recovered_tree() {
    let err = one_query(r#"RECALL beliefs WHERE source_type = 42 AND DELETE = "x""#, &Params::default())
        .expect_err("refused");
    assert_eq!(err.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::E002]);
    // Without a parse error the checker's errors are the refusal.
    let err = one_query(r#"RECALL beliefs WHERE source_type = 42"#, &Params::default()).expect_err("refused");
    assert!(err.iter().all(|d| d.code.info().phase == cal_grammar::Phase::Check), "{err:?}");
}
