//! MCP (the transport agents use) with `rmcp`, the official Rust SDK: on stdio
//! (`cal mcp`) and over Streamable HTTP at `/mcp` (`cal serve`).
//!
//! Tools: `cal` (§26: `{query, params}` → the §14.1 envelope; a CAL error is a tool error
//! carrying the §22.1 object), `cal_check`, `cal_explain`, `cal_describe`, and
//! `cal_prepare` / `cal_execute` when the token is Tier 1. Resources: the EBNF grammar and
//! DESCRIBE fields of each grain type. Prompt: `cal_quick_reference` (§27).
//!
//! The token is the HTTP request's `Authorization: Bearer` on `/mcp`, or the one `cal mcp`
//! was started with on stdio. Every tool call goes through the same service as REST.

use std::sync::Arc;

use cal_checker::Params;
use cal_grammar::GrainType;
use cal_interp::{ExecOptions, InterpConfig, Interpreter};
use cal_service::Caller;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    Prompt, PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Map, Value, json};

use crate::app::AppState;

/// The MCP server: the shared state, and the token of a stdio session.
#[derive(Clone)]
pub struct CalMcp {
    state: AppState,
    /// The token `cal mcp --token` was given (stdio has no headers).
    token: Option<Arc<String>>,
}

impl CalMcp {
    /// An MCP server over `state`; `token` for stdio.
    pub fn new(state: AppState, token: Option<String>) -> CalMcp {
        CalMcp { state, token: token.map(Arc::new) }
    }

    /// The token of a request: the session's, else the HTTP request's bearer.
    fn token(&self, cx: &RequestContext<RoleServer>) -> String {
        if let Some(t) = &self.token {
            return t.to_string();
        }
        cx.extensions.get::<axum::http::request::Parts>().map(|p| crate::rest::bearer(&p.headers)).unwrap_or_default()
    }
}

/// `/mcp`: the same server over Streamable HTTP.
pub fn http_service(state: AppState) -> StreamableHttpService<CalMcp, LocalSessionManager> {
    let handler = CalMcp::new(state, None);
    StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    )
}

fn schema(properties: Value, required: &[&str]) -> Map<String, Value> {
    match json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false }) {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn query_schema() -> Map<String, Value> {
    schema(
        json!({
            "query": { "type": "string", "description": "One CAL query, e.g. RECALL beliefs ABOUT \"alice\" RECENT 5" },
            "params": { "type": "object", "description": "Values for the query's $parameters, by name without `$`." }
        }),
        &["query"],
    )
}

/// The tools, with descriptions that teach a model how to use them.
fn tools(tier1: bool) -> Vec<Tool> {
    let mut t = vec![
        Tool::new(
            "cal",
            "Run one CAL query against the memory and get the JSON response envelope (§14.1). \
             CAL reads memories and assembles context; it can never delete. Read: \
             RECALL [type] [ABOUT \"entity\"] [WHERE field = value AND …] [RECENT n] [| LIMIT n]; \
             assemble a context window: ASSEMBLE name FOR \"intent\" FROM a: (RECALL …), b: (RECALL …) BUDGET 2000 tokens FORMAT markdown. \
             Pass untrusted values as $parameters in `params`, never by pasting them into the query. \
             On a mistake the tool fails with a CAL error object: code, message, position, suggestion and example; fix the query and retry. \
             The cal_quick_reference prompt has the whole language.",
            query_schema(),
        ),
        Tool::new(
            "cal_check",
            "Check a CAL query without running it: every diagnostic (code, message, position, suggestion, example). \
             Use it to validate a query before running it.",
            query_schema(),
        ),
        Tool::new(
            "cal_explain",
            "Show how a CAL query would run (its bounded plan: store operations, limits, side effects of a write) without running it.",
            query_schema(),
        ),
        Tool::new(
            "cal_describe",
            "Discover the memory's schema: DESCRIBE grain_types, fields (optionally of one grain type), capabilities, templates, server or grammar.",
            schema(
                json!({
                    "target": { "type": "string", "enum": ["grain_types", "fields", "capabilities", "templates", "server", "grammar"] },
                    "grain_type": { "type": "string", "description": "For `fields`: a grain type, e.g. belief." }
                }),
                &["target"],
            ),
        ),
    ];
    if tier1 {
        t.push(Tool::new(
            "cal_prepare",
            "Prepare a write (ADD, SUPERSEDE or REVERT, each with a mandatory REASON): returns the exact grain that would be written, \
             its future content address and what it supersedes, plus a single-use token. Nothing is written. Review the preview, \
             then call cal_execute with the token.",
            query_schema(),
        ));
        t.push(Tool::new(
            "cal_execute",
            "Perform a write prepared by cal_prepare, exactly as previewed, once. Refused if the memory changed since (CAL-E040).",
            schema(json!({ "token": { "type": "string", "description": "The `token` cal_prepare returned." } }), &["token"]),
        ));
    }
    t
}

fn text(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// An envelope as a tool result: an error envelope is a tool error carrying its §22.1 object.
fn result(envelope: Value) -> CallToolResult {
    match envelope.get("error") {
        Some(e) => {
            let mut r = CallToolResult::error(vec![ContentBlock::text(text(&json!({ "error": e })))]);
            r.structured_content = Some(envelope);
            r
        }
        None => {
            let mut r = CallToolResult::success(vec![ContentBlock::text(text(&envelope))]);
            r.structured_content = Some(envelope);
            r
        }
    }
}

fn arg<'a>(args: &'a Map<String, Value>, name: &str) -> Result<&'a str, ErrorData> {
    args.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| ErrorData::invalid_params(format!("`{name}` (a string) is required"), None))
}

impl CalMcp {
    /// Runs one tool call on a blocking thread.
    fn call(&self, name: &str, args: Map<String, Value>, token: String) -> Result<CallToolResult, ErrorData> {
        let service = &self.state.service;
        let params = args.get("params").and_then(Value::as_object).cloned().unwrap_or_default();
        let opts = ExecOptions { now_ms: self.state.now(), params: params.clone(), ..ExecOptions::default() };
        let caller = Caller { token: &token, memory: None };
        let run = |text: &str| -> Value {
            match service.read_request(caller, text, &Params::from_json_object(&params)) {
                Err(r) => r.json,
                Ok((q, warnings)) => {
                    let mut r = service.run(caller, &q, &opts);
                    cal_service::request::merge_warnings(&mut r.json, &warnings);
                    r.json
                }
            }
        };
        Ok(match name {
            "cal" => result(run(arg(&args, "query")?)),
            "cal_explain" => result(run(&format!("EXPLAIN {}", arg(&args, "query")?))),
            "cal_describe" => {
                let target = arg(&args, "target")?;
                let of = args.get("grain_type").and_then(Value::as_str).map(|g| format!(" {g}")).unwrap_or_default();
                result(run(&format!("DESCRIBE {target}{of}")))
            }
            "cal_check" => {
                let (_, diagnostics) =
                    cal_service::request::analyze(arg(&args, "query")?, &Params::from_json_object(&params));
                let ok = !diagnostics.iter().any(cal_grammar::Diagnostic::is_error);
                let list: Vec<Value> = diagnostics.iter().map(cal_interp::diagnostic_json).collect();
                let body = json!({ "ok": ok, "diagnostics": list });
                let mut r = CallToolResult::success(vec![ContentBlock::text(text(&body))]);
                r.structured_content = Some(body);
                r
            }
            "cal_prepare" => {
                let q = arg(&args, "query")?;
                match service.read_request(caller, q, &Params::from_json_object(&params)) {
                    Err(r) => result(r.json),
                    Ok((q, _)) => match service.prepare(caller, &q, &opts) {
                        Ok(p) => result(p.to_json()),
                        Err(r) => result(r.json),
                    },
                }
            }
            "cal_execute" => result(service.execute(arg(&args, "token")?, &opts).json),
            other => return Err(ErrorData::invalid_params(format!("no tool named {other:?}"), None)),
        })
    }

    /// Whether the request's token is a valid Tier 1 token.
    fn tier1(&self, token: &str) -> bool {
        cal_service::CapabilityToken::parse(token).is_ok_and(|t| t.tier >= 1)
    }

    fn resources() -> Vec<Resource> {
        let mut r = vec![
            Resource::new("cal://grammar", "CAL grammar (EBNF)")
                .with_mime_type("text/plain")
                .with_description("The complete CAL/1 grammar in EBNF (DESCRIBE grammar)."),
        ];
        for g in GrainType::ALL {
            r.push(
                Resource::new(format!("cal://fields/{}", g.singular()), format!("Fields of {}", g.as_str()))
                    .with_mime_type("application/json")
                    .with_description(format!(
                        "DESCRIBE fields {}: every field a query can use on {}.",
                        g.singular(),
                        g.as_str()
                    )),
            );
        }
        r
    }

    /// DESCRIBE over the store without a token: the language's own tables, no grain read.
    fn describe(&self, text: &str) -> Value {
        let facade: Arc<dyn cal_interp::ReadFacade> = self.state.service.facade().clone();
        let interp = Interpreter::new(facade, InterpConfig::default());
        match cal_parser::parse_query(text).ast {
            Some(q) => interp.execute(&q, &ExecOptions::fixed(self.state.now())).json,
            None => Value::Null,
        }
    }
}

impl ServerHandler for CalMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_prompts().enable_resources().build())
            .with_server_info(Implementation::new("cal", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "CAL (Context Assembly Language) recalls memories and assembles context windows from an OMS memory store. \
                 Read the cal_quick_reference prompt, then use the `cal` tool; `cal_check` validates a query first.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools(self.tier1(&self.token(&cx)))))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let token = self.token(&cx);
        let this = self.clone();
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        tokio::task::spawn_blocking(move || this.call(&name, args, token))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool call failed: {e}"), None))?
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(Self::resources()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = if uri == "cal://grammar" {
            ResourceContents::text(cal_grammar::EBNF, uri).with_mime_type("text/plain")
        } else if let Some(g) = uri.strip_prefix("cal://fields/").and_then(GrainType::from_singular) {
            let this = self.clone();
            let q = format!("DESCRIBE fields {}", g.singular());
            let v = tokio::task::spawn_blocking(move || this.describe(&q)).await.unwrap_or(Value::Null);
            ResourceContents::text(text(&v), uri).with_mime_type("application/json")
        } else {
            return Err(ErrorData::resource_not_found(format!("no resource {uri:?}"), None));
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "cal_quick_reference",
            Some("The CAL quick reference (§27): what an LLM needs to write correct CAL queries."),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "cal_quick_reference" {
            return Err(ErrorData::invalid_params(format!("no prompt named {:?}", request.name), None));
        }
        let text = crate::prompt::quick_reference(self.tier1(&self.token(&cx)));
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description("The CAL quick reference (§27)")
            .into())
    }
}

/// Serves MCP on standard input/output until the client closes it.
pub async fn serve_stdio(state: AppState, token: String) -> std::io::Result<()> {
    use rmcp::ServiceExt as _;
    let running = CalMcp::new(state, Some(token))
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    running.waiting().await.map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(())
}
