//! The HTTP status of a CAL answer (§26 "errors are §22.1 objects with fitting statuses";
//! the spec names 503 and 403 for the kill switches and leaves the rest to us, ruled in
//! docs/spec-decisions-server.md V1). The body is always the §14.1 envelope.

use axum::http::StatusCode;
use cal_grammar::{Code, Diagnostic, Phase};

/// The status for an answer whose error is `error` (200 without one).
pub fn for_error(error: Option<&Diagnostic>) -> StatusCode {
    let Some(d) = error else { return StatusCode::OK };
    match d.code {
        Code::E001 => StatusCode::PAYLOAD_TOO_LARGE,
        Code::E901 => StatusCode::UNAUTHORIZED,
        Code::E902 | Code::E044 | Code::E045 | Code::E904 => StatusCode::FORBIDDEN,
        Code::E903 => StatusCode::SERVICE_UNAVAILABLE,
        Code::E043 | Code::E052 | Code::E905 => StatusCode::TOO_MANY_REQUESTS,
        Code::E046 => StatusCode::NOT_FOUND,
        Code::E040 => StatusCode::CONFLICT,
        Code::E031 | Code::E075 => StatusCode::GATEWAY_TIMEOUT,
        Code::E079 => StatusCode::NOT_ACCEPTABLE,
        Code::E081 => StatusCode::GONE,
        Code::E030 => StatusCode::INTERNAL_SERVER_ERROR,
        c => match c.info().phase {
            Phase::Prelex | Phase::Parse | Phase::Check => StatusCode::BAD_REQUEST,
            Phase::Execute => StatusCode::UNPROCESSABLE_ENTITY,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cal_grammar::Span;

    fn status(code: Code) -> StatusCode {
        for_error(Some(&Diagnostic::new(code, Span::default(), "x")))
    }

    #[test]
    fn every_code_has_a_client_or_server_error_status() {
        for c in Code::ALL.iter().chain(Code::EXTENSIONS).filter(|c| c.as_str().contains("-E")) {
            let s = status(*c);
            assert!(s.is_client_error() || s.is_server_error(), "{} → {s}", c.as_str());
        }
        assert_eq!(for_error(None), StatusCode::OK);
        assert_eq!(status(Code::E003), StatusCode::BAD_REQUEST);
        assert_eq!(status(Code::E901), StatusCode::UNAUTHORIZED);
        assert_eq!(status(Code::E903), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(status(Code::E043), StatusCode::TOO_MANY_REQUESTS);
    }
}
