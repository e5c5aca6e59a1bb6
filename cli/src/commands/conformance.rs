//! `cal conformance run|adapter|stats`: certify an implementation against the
//! conformance corpus (docs/conformance.md). `run` without `--adapter` tests
//! this toolchain in-process; with it, any engine through the JSON-lines
//! protocol (conformance/PROTOCOL.md). The corpus and its fixture stores are the
//! copies embedded in this binary unless `--cases`/`--fixtures` name directories,
//! so an installed `cal` needs no source tree. `adapter` serves this toolchain over
//! that protocol. Exit status of `run`: 0 when the declared level is
//! certified, 1 when it is not, 2 for usage or I/O problems.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cal_conformance::adapter::{self, Broken, Ended};
use cal_conformance::embedded::{self, Provenance};
use cal_conformance::inprocess::InProcess;
use cal_conformance::report::CorpusFacts;
use cal_conformance::runner::{self, RunOptions};
use cal_conformance::selection::{self, Selection};
use cal_conformance::subprocess::Subprocess;
use cal_conformance::{Implementation, Level, certify, report, seeds, stats};

/// The `cal conformance` subcommands.
#[derive(clap::Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per process; boxing would only obscure the clap derive
pub enum ConformanceCommand {
    /// Run the corpus and certify a level (this toolchain in-process, or --adapter CMD).
    Run(RunArgs),
    /// Serve this toolchain as a conformance adapter: JSON lines on stdin/stdout.
    Adapter {
        /// Misbehave on purpose, to show the suite failing: accept-all, crash-on=TEXT,
        /// hang-on=TEXT or garbage-on=TEXT (TEXT is matched against the request's query).
        #[arg(long, value_name = "MODE")]
        broken: Option<String>,
    },
    /// Write every case as a fuzzing seed: DIR/<target>/case-<id> for the targets of fuzz/.
    Seeds {
        /// The output directory (fuzz/corpus, for example).
        dir: PathBuf,
        /// Read the corpus from DIR instead of the copy embedded in this binary.
        #[arg(long, visible_alias = "corpus", value_name = "DIR")]
        cases: Option<PathBuf>,
    },
    /// Write Appendix B's examples: request/response pairs drawn from the execute cases
    /// (conformance/cal-examples.json), to FILE or standard output.
    Examples {
        /// Write to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Read the corpus from DIR instead of the copy embedded in this binary.
        #[arg(long, visible_alias = "corpus", value_name = "DIR")]
        cases: Option<PathBuf>,
        /// Read the fixture stores from DIR instead of the copies embedded in this binary.
        #[arg(long, value_name = "DIR")]
        fixtures: Option<PathBuf>,
    },
    /// Corpus size and coverage: per kind, level, error code, keyword, WITH option, production, limit.
    Stats {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Read the corpus from DIR instead of the copy embedded in this binary.
        #[arg(long, visible_alias = "corpus", value_name = "DIR")]
        cases: Option<PathBuf>,
    },
}

/// Arguments of `cal conformance run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The implementation's adapter command, run with `sh -c`; this toolchain in-process when absent.
    #[arg(long, value_name = "CMD")]
    pub adapter: Option<String>,
    /// The level to certify instead of the declared one; only cases up to it are run.
    #[arg(long, value_name = "LEVEL")]
    pub level: Option<String>,
    /// Write the JSON-lines report (header, one line per case, summary) to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Print the summary as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the summary fit to publish as Markdown to FILE: a badge line, the per-level table,
    /// the SHOULD and ruling scores, the cases not passed.
    #[arg(long, value_name = "FILE")]
    pub summary_md: Option<PathBuf>,
    /// Write the summary fit to publish as JSON to FILE (schema/summary.schema.json; its `badge`
    /// is in shields.io's endpoint format).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Read the corpus (`<kind>/<area>.json` case files) from DIR instead of the copy
    /// embedded in this binary.
    #[arg(long, visible_alias = "corpus", value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Read the fixture stores (`<name>.mg`) from DIR instead of the copies embedded in this
    /// binary (which are written to a temporary directory for the run).
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// Timeout per request to the adapter, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// Run only the cases whose id starts with PREFIX (repeatable), e.g. `--only parse.` while
    /// an adapter is being written. Such a run reports its results and certifies nothing;
    /// it exits 0 when every required case it ran passed.
    #[arg(long, value_name = "PREFIX")]
    pub only: Vec<String>,
    /// Run only the cases carrying TAG (repeatable: any of them), e.g. `--tag E003` or
    /// `--tag excluded:DELETE`. Certifies nothing, like `--only`.
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// Leave out the cases listed in FILE (repeatable): one case id or id prefix a line, `#`
    /// comments. Certifies nothing, like `--only`.
    #[arg(long, value_name = "FILE")]
    pub skip: Vec<PathBuf>,
    /// The case ids in FILE (repeatable; one a line, `#` comments) are expected to fail: they
    /// are reported as expected failures, a listed case that passes is reported as an
    /// unexpected pass. Certifies nothing; exits 0 when the run went as listed.
    #[arg(long, value_name = "FILE")]
    pub expected_failures: Vec<PathBuf>,
    /// How many failing cases the table lists.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub max_failures: usize,
    /// The whole run's deadline in seconds: cases not started by then are errored, not run.
    #[arg(long, value_name = "SECS", default_value_t = 3_600)]
    pub deadline: u64,
    /// Give up after the adapter timed out on this many cases in a row (the rest are errored).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_timeouts: usize,
    #[command(flatten)]
    /// An embedder for this toolchain in-process: it then offers cross-lingual search (§16.4)
    /// and runs the cases that need it.
    pub embed: super::embedder::SessionEmbedder,
}

/// Runs one `cal conformance` subcommand.
pub fn run(cmd: ConformanceCommand) -> ExitCode {
    match cmd {
        ConformanceCommand::Run(args) => run_suite(&args),
        ConformanceCommand::Adapter { broken } => serve(broken.as_deref()),
        ConformanceCommand::Stats { json, cases } => print_stats(json, cases),
        ConformanceCommand::Seeds { dir, cases } => write_seeds(&dir, cases),
        ConformanceCommand::Examples { out, cases, fixtures } => write_examples(out, cases, fixtures),
    }
}

fn run_suite(args: &RunArgs) -> ExitCode {
    let max_level = match args.level.as_deref().map(|l| (l, Level::parse(l))) {
        None => None,
        Some((_, Some(level))) => Some(level),
        Some((text, None)) => {
            return super::usage_error(&format!("--level {text:?}: use core, extended, evolve or full"));
        }
    };
    let mut corpus = match corpus_at(args.cases.clone()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // The embedded fixture stores live in a temporary directory while the run lasts.
    let (fixtures_dir, fixtures, _written) = match &args.fixtures {
        Some(dir) => match Provenance::of_dir(dir, "mg") {
            Ok(p) => (dir.clone(), p, None),
            Err(e) => return super::usage_error(&format!("cannot read the fixtures at {}: {e}", dir.display())),
        },
        None => match embedded::FixtureDir::write() {
            Ok(written) => (written.path().to_path_buf(), embedded::fixtures_provenance(), Some(written)),
            Err(e) => return super::usage_error(&format!("cannot write the embedded fixture stores: {e}")),
        },
    };
    let facts =
        CorpusFacts { errors: corpus.errors.len(), cases: Some(corpus.provenance.clone()), fixtures: Some(fixtures) };
    let mut imp: Box<dyn Implementation> = match &args.adapter {
        Some(cmd) => Box::new(Subprocess::new(cmd, Duration::from_millis(args.timeout_ms))),
        None => match args.embed.config() {
            Ok(Some(embedder)) => Box::new(InProcess::with_embedder(embedder)),
            Ok(None) => Box::new(InProcess::new()),
            Err(e) => return super::usage_error(&e),
        },
    };
    let mut hello = match imp.hello() {
        Ok(h) => h,
        Err(e) => return super::usage_error(&format!("the implementation did not say hello: {e}")),
    };
    if let Some(level) = max_level {
        hello.level = level;
    }
    cal_conformance::adapt_limits(&mut corpus, &hello.limits);
    let selection = match selection_of(args) {
        Ok(s) => s,
        Err(e) => return super::usage_error(&e),
    };
    selection.apply(&mut corpus.cases);
    let opts = RunOptions {
        fixtures_dir,
        max_level,
        deadline: Some(Duration::from_secs(args.deadline)),
        max_consecutive_timeouts: Some(args.max_timeouts),
        lacks: hello.lacks.clone(),
        limits: hello.limits.clone(),
    };
    let bar = crate::progress::bar(corpus.cases.len(), "cases");
    let mut outcomes = runner::run_observed(imp.as_mut(), &corpus.cases, &opts, &mut || bar.inc(1));
    bar.finish_and_clear();
    let mut summary = certify::summarize(hello.level, &outcomes);
    let expected = selection.expected(&outcomes);
    if let Some(e) = &expected {
        e.mark(&mut outcomes);
    }
    let filtered = selection.describe();
    if let Some(filter) = &filtered {
        summary = summary.filtered(filter.clone()).with_expected(expected);
    }
    let filtered = filtered.is_some();
    if let Some(path) = &args.report {
        let text = report::jsonl(&hello, &outcomes, &summary, &facts);
        if let Err(e) = super::write_file(path, text.as_bytes()) {
            return super::usage_error(&e);
        }
    }
    let date = cal_conformance::publish::today();
    if let Some(path) = &args.summary_md {
        let text = cal_conformance::publish::summary_markdown(&hello, &summary, &outcomes, &facts, &date);
        if let Err(e) = super::write_file(path, text.as_bytes()) {
            return super::usage_error(&e);
        }
    }
    if let Some(path) = &args.summary_json {
        let doc = cal_conformance::publish::summary_document(&hello, &summary, &outcomes, &facts, &date);
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
        if let Err(e) = super::write_file(path, text.as_bytes()) {
            return super::usage_error(&e);
        }
    }
    if args.json {
        let j = report::summary_json(&summary, &outcomes);
        outln!("{}", serde_json::to_string_pretty(&j).unwrap_or_default());
    } else {
        out!("{}", report::human(&hello, &summary, &outcomes, args.max_failures));
        if let Some(line) = facts.line() {
            outln!("{line}");
        }
    }
    let passed = if filtered { summary.all_required_passed() } else { summary.declared_certified() };
    if passed { super::OK } else { super::invalid() }
}

/// The run's selection from `--only`, `--tag`, `--skip` and `--expected-failures`, the list
/// files read; an error names a file that cannot be read.
fn selection_of(args: &RunArgs) -> Result<Selection, String> {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .map(|t| selection::parse_list(&t))
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let mut s = Selection { only: args.only.clone(), tags: args.tag.clone(), ..Selection::default() };
    for path in &args.skip {
        s.skip.extend(read(path)?);
        s.skip_files.push(path.display().to_string());
    }
    for path in &args.expected_failures {
        s.expected_failures.extend(read(path)?);
        s.expected_files.push(path.display().to_string());
    }
    Ok(s)
}

fn serve(broken: Option<&str>) -> ExitCode {
    let mode = match broken.map(|b| (b, Broken::parse(b))) {
        None => None,
        Some((_, Some(mode))) => Some(mode),
        Some((text, None)) => {
            return super::usage_error(&format!(
                "--broken {text:?}: use accept-all, crash-on=TEXT, hang-on=TEXT or garbage-on=TEXT"
            ));
        }
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    // Our server answers the `http` requests (PROTOCOL.md "execute"); without a runtime the
    // adapter still serves everything else and declares `http` missing.
    let mut server = super::conformance_http::LoopbackServer::new().ok();
    let binding = server.as_mut().map(|s| s as &mut dyn adapter::HttpBinding);
    match adapter::serve_with(stdin, stdout, mode.as_ref(), binding) {
        Ok(Ended::Eof) => super::OK,
        Ok(Ended::Crashed) => {
            let _ = std::io::stdout().flush();
            ExitCode::from(101)
        }
        Err(e) => super::usage_error(&format!("adapter I/O: {e}")),
    }
}

/// The case corpus at `cases`, or the copy embedded in this binary, its load errors
/// reported; a usage error when `cases` is not a directory.
fn corpus_at(cases: Option<PathBuf>) -> Result<cal_conformance::Corpus, ExitCode> {
    let corpus = match cases {
        None => cal_conformance::load_embedded_corpus(),
        Some(dir) if dir.is_dir() => cal_conformance::load_corpus(&dir),
        Some(dir) => return Err(super::usage_error(&format!("no corpus directory at {}", dir.display()))),
    };
    for e in &corpus.errors {
        errln!("corpus: {e}");
    }
    Ok(corpus)
}

fn print_stats(json: bool, cases: Option<PathBuf>) -> ExitCode {
    let corpus = match corpus_at(cases) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let s = stats::measure(&corpus.cases);
    if json {
        outln!("{}", serde_json::to_string_pretty(&s.to_json()).unwrap_or_default());
    } else {
        out!("{}", s.to_text());
    }
    super::OK
}

fn write_seeds(out: &std::path::Path, cases: Option<PathBuf>) -> ExitCode {
    let corpus = match corpus_at(cases) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match seeds::write(&corpus.cases, out) {
        Ok(n) => {
            outln!("{n} seed files from {} cases under {}", corpus.cases.len(), out.display());
            super::OK
        }
        Err(e) => super::usage_error(&format!("cannot write seeds under {}: {e}", out.display())),
    }
}

fn write_examples(out: Option<PathBuf>, cases: Option<PathBuf>, fixtures: Option<PathBuf>) -> ExitCode {
    let corpus = match corpus_at(cases) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let written;
    let dir = match fixtures {
        Some(dir) => dir,
        None => match embedded::FixtureDir::write() {
            Ok(w) => {
                written = w;
                written.path().to_path_buf()
            }
            Err(e) => return super::usage_error(&format!("cannot write the embedded fixture stores: {e}")),
        },
    };
    let doc = match cal_conformance::examples::build(&corpus.cases, &dir) {
        Ok(doc) => doc,
        Err(e) => return super::usage_error(&format!("examples: {e}")),
    };
    let text = cal_conformance::examples::to_text(&doc);
    match out {
        Some(path) => match super::write_file(&path, text.as_bytes()) {
            Ok(()) => {
                let n = doc["examples"].as_array().map_or(0, Vec::len);
                errln!("{n} examples written to {}", path.display());
                super::OK
            }
            Err(e) => super::usage_error(&e),
        },
        None => {
            out!("{text}");
            super::OK
        }
    }
}
