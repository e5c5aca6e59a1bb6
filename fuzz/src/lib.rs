//! Shared code of the cargo-fuzz targets that is more than a few lines: the
//! structured CAL AST generator ([`generate`]) and the checks the `ast_pipeline`
//! target applies to each generated tree ([`pipeline`]). It is a library so the
//! target and the regression replay test (`tests/regressions.rs`) run exactly
//! the same code on the same bytes.

pub mod generate;
pub mod lsp;
pub mod mgfile;
pub mod pipeline;
pub mod sample;
pub mod targets;
