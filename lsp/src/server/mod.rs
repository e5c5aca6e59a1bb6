//! The protocol layer: a `tower-lsp-server` [`LanguageServer`] over the
//! engine. It keeps the open documents, applies full and incremental changes,
//! analyzes them at once when that is cheap and after a quiet period (debounce)
//! off the request path when it is not ([`delay`]), and converts positions at
//! the edge. Handlers never panic on any input: every
//! position is clamped, every engine function is total.

mod convert;
pub mod delay;

use crate::engine::{self, Document, Encoding, Lines};
use cal_checker::Analysis;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

pub mod guard;
pub use delay::{Config, Cost, DEFAULT_DEBOUNCE, DEFAULT_IMMEDIATE_BELOW};
pub use guard::Ending;

/// The most top-level entries a document outline answers with (each query is one).
pub const MAX_SYMBOLS: usize = 5_000;

/// The most semantic tokens one answer carries: the first ones of the document are coloured,
/// and the answer stays a few megabytes whatever the document's size.
pub const MAX_SEMANTIC_TOKENS: usize = 200_000;

type Store = Arc<Mutex<HashMap<Uri, Document>>>;
type Costs = Arc<Mutex<HashMap<Uri, Cost>>>;

/// The language server state.
#[derive(Debug)]
pub struct Backend {
    client: Client,
    docs: Store,
    /// What the last analysis of each open document cost ([`delay`]).
    costs: Costs,
    encoding: Mutex<Encoding>,
    /// The settings; `initialize` may override them from `initializationOptions`.
    config: Mutex<Config>,
}

/// Analyzes `text` as `cal check` does, and measures what it cost.
fn analyze_timed(text: &str) -> (Analysis, Cost) {
    let started = Instant::now();
    let analysis = cal_checker::analyze(text, None);
    (analysis, Cost { took: started.elapsed(), bytes: text.len() })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A handler that panicked while holding the lock must not take the server down with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Backend {
    /// A backend talking to `client`.
    pub fn new(client: Client, config: Config) -> Self {
        Backend {
            client,
            docs: Store::default(),
            costs: Costs::default(),
            encoding: Mutex::new(Encoding::Utf16),
            config: Mutex::new(config),
        }
    }

    /// The settings in force.
    pub fn config(&self) -> Config {
        *lock(&self.config)
    }

    fn encoding(&self) -> Encoding {
        *lock(&self.encoding)
    }

    /// Runs `f` on a snapshot of the document's text and analysis (the lock is not held while it runs).
    fn with_doc<R>(&self, uri: &Uri, f: impl FnOnce(&Document, &Lines<'_>) -> R) -> Option<R> {
        let doc = lock(&self.docs).get(uri).cloned()?;
        let lines = Lines::new(&doc.text, self.encoding());
        Some(f(&doc, &lines))
    }

    async fn publish(&self, uri: Uri) {
        let Some((diags, version)) = self.with_doc(&uri, |doc, lines| {
            let diags = engine::diagnostics::diagnostics(doc)
                .into_iter()
                .map(|d| convert::diagnostic(lines, &uri, d))
                .collect::<Vec<_>>();
            (diags, doc.version)
        }) else {
            return;
        };
        self.client.publish_diagnostics(uri, diags, Some(version)).await;
    }

    /// Analyzes the document now, on the handler, and publishes: the path for a change whose
    /// analysis is predicted cheap, so its diagnostics go out before the next message is
    /// answered.
    async fn analyze_now(&self, uri: Uri, version: i32) {
        let text = match lock(&self.docs).get(&uri) {
            Some(d) if d.version == version => d.text.clone(),
            _ => return,
        };
        let (analysis, cost) = analyze_timed(&text);
        lock(&self.costs).insert(uri.clone(), cost);
        if let Some(diags) = store_and_convert(&self.docs, &uri, version, analysis, self.encoding()) {
            self.client.publish_diagnostics(uri, diags, Some(version)).await;
        }
    }

    /// Waits for the quiet period, analyzes off the async thread, and publishes when the text is still current.
    fn schedule(&self, uri: Uri, version: i32, delay: Duration) {
        let docs = self.docs.clone();
        let costs = self.costs.clone();
        let client = self.client.clone();
        let encoding = self.encoding();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let text = match lock(&docs).get(&uri) {
                Some(d) if d.version == version => d.text.clone(),
                _ => return,
            };
            let Ok((analysis, cost)) = tokio::task::spawn_blocking(move || analyze_timed(&text)).await else {
                return;
            };
            lock(&costs).insert(uri.clone(), cost);
            if let Some(diags) = store_and_convert(&docs, &uri, version, analysis, encoding) {
                client.publish_diagnostics(uri, diags, Some(version)).await;
            }
        });
    }
}

/// Stores `analysis` in the document when its text is still at `version` and returns the
/// diagnostics to publish (`None`: the text changed meanwhile, a later analysis will publish).
fn store_and_convert(
    docs: &Store,
    uri: &Uri,
    version: i32,
    analysis: Analysis,
    encoding: Encoding,
) -> Option<Vec<Diagnostic>> {
    let mut store = lock(docs);
    let doc = store.get_mut(uri).filter(|d| d.version == version)?;
    doc.analysis = analysis;
    doc.analyzed_version = version;
    let lines = Lines::new(&doc.text, encoding);
    Some(engine::diagnostics::diagnostics(doc).into_iter().map(|d| convert::diagnostic(&lines, uri, d)).collect())
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = convert::negotiate(&params);
        *lock(&self.encoding) = encoding;
        let config = self.config().with_options(params.initialization_options.as_ref());
        *lock(&self.config) = config;
        let legend = SemanticTokensLegend {
            token_types: engine::semantic::LEGEND.iter().map(|t| SemanticTokenType::new(t)).collect(),
            token_modifiers: Vec::new(),
        };
        Ok(InitializeResult {
            server_info: Some(ServerInfo { name: "cal-lsp".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
            capabilities: ServerCapabilities {
                position_encoding: Some(match encoding {
                    Encoding::Utf8 => PositionEncodingKind::UTF8,
                    Encoding::Utf16 => PositionEncodingKind::UTF16,
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(
                        [" ", "$", "|", "(", "{", "\"", ".", ",", ":"].iter().map(|s| s.to_string()).collect(),
                    ),
                    ..Default::default()
                }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                document_range_formatting_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: Default::default(),
                })),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                signature_help_provider: Some(SignatureHelpOptions {
                    trigger_characters: Some(vec!["(".into(), ",".into()]),
                    ..Default::default()
                }),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend,
                        full: Some(SemanticTokensFullOptions::Bool(true)),
                        range: None,
                        work_done_progress_options: Default::default(),
                    },
                )),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let td = params.text_document;
        let started = Instant::now();
        let doc = Document::new(td.text, td.version);
        let cost = Cost { took: started.elapsed(), bytes: doc.text.len() };
        lock(&self.costs).insert(td.uri.clone(), cost);
        lock(&self.docs).insert(td.uri.clone(), doc);
        self.publish(td.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let encoding = self.encoding();
        let bytes = {
            let mut store = lock(&self.docs);
            let Some(doc) = store.get_mut(&uri) else { return };
            for change in params.content_changes {
                match change.range {
                    Some(r) => doc.apply_change(
                        (r.start.line, r.start.character),
                        (r.end.line, r.end.character),
                        &change.text,
                        encoding,
                    ),
                    None => doc.replace_all(change.text, version),
                }
            }
            doc.set_version(version);
            doc.text.len()
        };
        let last = lock(&self.costs).get(&uri).copied();
        match self.config().delay(last, bytes) {
            Duration::ZERO => self.analyze_now(uri, version).await,
            delay => self.schedule(uri, version, delay),
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        lock(&self.docs).remove(&params.text_document.uri);
        lock(&self.costs).remove(&params.text_document.uri);
        self.client.publish_diagnostics(params.text_document.uri, Vec::new(), None).await;
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        Ok(self.with_doc(&p.text_document.uri, |doc, lines| {
            let c = engine::completion::complete(&doc.text, convert::offset(lines, p.position));
            CompletionResponse::Array(convert::completion(lines, c))
        }))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        Ok(self
            .with_doc(&p.text_document.uri, |doc, lines| {
                let at = convert::offset(lines, p.position);
                let tree = if doc.is_fresh() { doc.analysis.document.as_ref() } else { None };
                engine::hover::hover(&doc.text, tree, at).map(|h| Hover {
                    contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: h.markdown }),
                    range: Some(convert::range(lines, h.span)),
                })
            })
            .flatten())
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        Ok(self.with_doc(&params.text_document.uri, |doc, lines| {
            convert::edits(lines, engine::format::format(&doc.text, None))
        }))
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        Ok(self.with_doc(&params.text_document.uri, |doc, lines| {
            let r = convert::span(lines, params.range);
            convert::edits(lines, engine::format::format(&doc.text, Some(r)))
        }))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        Ok(self.with_doc(&params.text_document.uri, |doc, lines| {
            let analysis = if doc.is_fresh() { doc.analysis.clone() } else { cal_checker::analyze(&doc.text, None) };
            let mut syms = analysis.document.as_ref().map(engine::symbols::symbols).unwrap_or_default();
            // A huge document's outline is cut, not sent whole (issue 19: 59 MB for 10 MB).
            syms.truncate(MAX_SYMBOLS);
            DocumentSymbolResponse::Nested(convert::symbols(lines, syms))
        }))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let uri = p.text_document.uri.clone();
        Ok(self
            .with_doc(&p.text_document.uri, |doc, lines| {
                let occ = engine::names::occurrences(&doc.text, convert::offset(lines, p.position))?;
                Some(GotoDefinitionResponse::Scalar(Location { uri, range: convert::range(lines, occ.definition) }))
            })
            .flatten())
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri.clone();
        let include_decl = params.context.include_declaration;
        Ok(self
            .with_doc(&p.text_document.uri, |doc, lines| {
                let occ = engine::names::occurrences(&doc.text, convert::offset(lines, p.position))?;
                Some(
                    occ.references
                        .into_iter()
                        .filter(|s| include_decl || *s != occ.definition)
                        .map(|s| Location { uri: uri.clone(), range: convert::range(lines, s) })
                        .collect(),
                )
            })
            .flatten())
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        Ok(self
            .with_doc(&params.text_document.uri, |doc, lines| {
                let at = convert::offset(lines, params.position);
                let occ = engine::names::occurrences(&doc.text, at)?;
                let span = occ.references.into_iter().find(|s| s.start as usize <= at && at <= s.end as usize)?;
                Some(PrepareRenameResponse::Range(convert::range(lines, span)))
            })
            .flatten())
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri.clone();
        let result = self.with_doc(&p.text_document.uri, |doc, lines| {
            engine::names::rename(&doc.text, convert::offset(lines, p.position), &params.new_name)
                .map(|edits| convert::edits(lines, edits))
        });
        match result {
            None | Some(Err(engine::names::RenameError::NotAName)) => Ok(None),
            Some(Err(engine::names::RenameError::InvalidName(n))) => {
                Err(Error::invalid_params(format!("`{n}` is not a valid name")))
            }
            Some(Ok(edits)) => {
                Ok(Some(WorkspaceEdit { changes: Some(HashMap::from([(uri, edits)])), ..Default::default() }))
            }
        }
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        Ok(self.with_doc(&params.text_document.uri, |doc, lines| {
            let analysis = if doc.is_fresh() { doc.analysis.clone() } else { cal_checker::analyze(&doc.text, None) };
            let range = convert::span(lines, params.range);
            engine::actions::actions(&doc.text, analysis.document.as_ref(), &analysis.diagnostics, range)
                .into_iter()
                .map(|a| {
                    let diag = convert::diagnostic(lines, &uri, engine::diagnostics::convert(&a.diagnostic));
                    CodeActionOrCommand::CodeAction(CodeAction {
                        title: a.title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![diag]),
                        edit: Some(WorkspaceEdit {
                            changes: Some(HashMap::from([(uri.clone(), convert::edits(lines, a.edits))])),
                            ..Default::default()
                        }),
                        is_preferred: Some(a.preferred),
                        ..Default::default()
                    })
                })
                .collect()
        }))
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let p = params.text_document_position_params;
        Ok(self
            .with_doc(&p.text_document.uri, |doc, lines| {
                let s = engine::signature::signature(&doc.text, convert::offset(lines, p.position))?;
                Some(SignatureHelp {
                    signatures: vec![SignatureInformation {
                        label: s.label,
                        documentation: Some(Documentation::MarkupContent(MarkupContent {
                            kind: MarkupKind::Markdown,
                            value: s.documentation,
                        })),
                        parameters: None,
                        active_parameter: Some(s.active_parameter),
                    }],
                    active_signature: Some(0),
                    active_parameter: Some(s.active_parameter),
                })
            })
            .flatten())
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        Ok(self.with_doc(&params.text_document.uri, |doc, lines| {
            let mut data = Vec::new();
            let (mut line, mut col) = (0u32, 0u32);
            for t in engine::semantic::tokens_upto(&doc.text, MAX_SEMANTIC_TOKENS).into_iter().take(MAX_SEMANTIC_TOKENS)
            {
                let r = convert::range(lines, t.span);
                if r.start.line != r.end.line {
                    continue;
                }
                let delta_line = r.start.line.saturating_sub(line);
                let delta_start =
                    if delta_line == 0 { r.start.character.saturating_sub(col) } else { r.start.character };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: r.end.character.saturating_sub(r.start.character),
                    token_type: t.kind,
                    token_modifiers_bitset: 0,
                });
                (line, col) = (r.start.line, r.start.character);
            }
            SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data })
        }))
    }
}

/// Serves the protocol over any byte streams with the given settings (tests use an in-memory
/// duplex). Every message passes the [`guard`] first, so a malformed one is answered with a
/// JSON-RPC error and the session goes on; returns how the session ended.
pub async fn serve_with<I, O>(input: I, output: O, config: Config) -> Ending
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Unpin,
{
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let (frames_tx, frames_rx) = tokio::sync::mpsc::channel(64);
    let (service, socket) = LspService::new(move |client| Backend::new(client, config));
    let server = Server::new(server_in, server_out, socket).serve(service);
    let guarded = guard::run(input, to_server, frames_tx.clone());
    let copied = guard::frames(from_server, frames_tx);
    let written = guard::write(output, frames_rx);
    let (ending, (), (), ()) = tokio::join!(guarded, server, copied, written);
    ending
}

/// Serves the protocol over any byte streams with the default settings.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Unpin,
{
    serve_with(input, output, Config::default()).await
}

/// Serves on standard input/output until the client exits: what `cal lsp` runs. The ending
/// decides the exit status (0 after `shutdown`, 1 otherwise).
pub fn serve_stdio() -> std::io::Result<Ending> {
    serve_stdio_with(Config::default())
}

/// [`serve_stdio`] with settings (`cal lsp --debounce-ms N --immediate-below-ms N`); the
/// client's `initializationOptions` may still override them.
pub fn serve_stdio_with(config: Config) -> std::io::Result<Ending> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    Ok(rt.block_on(serve_with(tokio::io::stdin(), tokio::io::stdout(), config)))
}
