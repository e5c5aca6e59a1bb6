//! The chumsky grammar of CAL/1, one file per statement family.
//!
//! Every function returns a parser generic over the token input. Clause
//! bodies recover from errors by skipping to the next clause boundary, so a
//! single mistake produces one diagnostic and the rest of the query is still
//! parsed and checked.

mod assemble;
mod common;
mod query;
mod recall;
mod statements;

pub(crate) use query::{document, single_query};

use crate::error::ParseError;
use cal_grammar::Span;
use chumsky::prelude::*;

/// Parser state: errors are our cheap [`ParseError`]; there is no other state.
pub(crate) type Extra = extra::Err<ParseError>;

/// Converts chumsky's span into ours.
pub(crate) fn sp(s: SimpleSpan) -> Span {
    Span::new(s.start, s.end)
}
