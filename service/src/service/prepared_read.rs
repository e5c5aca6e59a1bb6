//! Two-phase execution of a read statement (§26: REQUIRED for Tier 1, RECOMMENDED for
//! Tier 0; ruling S17). Prepare checks the statement under the capability token (the gate
//! spends one of its uses, as a direct run would), and hands back a signed, single-use
//! token that carries the statement, its parameters and the capability's namespace and user,
//! with the plan and no side effects. Execute spends that token and runs the read, confined
//! as the capability was, whatever the caller presents then.

use serde_json::json;

use super::{Admitted, Prepared, Service, Who, store_refusal};
use crate::gate;
use crate::prepared::PreparedToken;
use crate::refusals::master_off;
use cal_grammar::{Code, Diagnostic};
use cal_interp::{ExecOptions, Response};
use cal_parser::ast::Query;
use oms::durable::Tx;

/// `operation` of a prepared read.
pub(super) const READ: &str = "read";

impl Service {
    /// Prepare of a read: the signed token, the plan, tier 0 and no side effects.
    pub(super) fn prepare_read(&self, admitted: Admitted, q: &Query) -> Result<Prepared, Response> {
        let Admitted { verified, interp, opts, .. } = admitted;
        let t = verified.token();
        let unsigned = PreparedToken::of_statement(t, q, opts.now_ms).map_err(|e| {
            interp.refuse(
                q,
                &opts,
                Diagnostic::new(Code::E030, q.span, format!("No prepared token could be made: {e}.")),
            )
        })?;
        let prepared = PreparedToken { operation: READ.to_string(), params: Some(opts.params.clone()), ..unsigned }
            .sign(&self.key);
        let plan = interp.plan(q, &opts);
        let actor = cal_interp::audit::pseudonym(&self.config.audit_key, &t.user_id);
        let entry = prepared.prepare_audit(actor, opts.agent_id.as_deref(), 0, plan.statement_type);
        self.store.append_audit(&entry).map_err(|e| interp.refuse(q, &opts, store_refusal(&e, q.span)))?;
        Ok(Prepared { plan: plan.to_json(), tier: 0, side_effects: json!([]), token: prepared })
    }

    /// Execute of a prepared read: spends the token, then runs the statement with the
    /// parameters it was prepared with, confined to the capability's namespace and user.
    pub(super) fn execute_read(
        &self,
        memory: Option<&str>,
        p: &PreparedToken,
        q: &Query,
        opts: &ExecOptions,
    ) -> Response {
        let mut opts = opts.clone();
        opts.user = Some(p.user_id.clone());
        opts.params = p.params.clone().unwrap_or_default();
        let who = Who { token_id: &p.token_id, namespace: &p.namespace, tier1: false };
        if self.switch(super::Switch::Master) {
            return self.refuse_early(q, &opts, master_off(), "master switch on".into());
        }
        if let Some(memory) = memory
            && memory != p.namespace
        {
            let (interp, _) = self.interpreter(Some(who), None);
            return interp.refuse(q, &opts, gate::other_memory(memory, &p.namespace));
        }
        match self.store.transaction(|tx: &Tx<'_>| tx.spend_use(&p.prepared_id, 1)) {
            Ok(true) => {}
            Ok(false) => {
                let r = gate::refused("the prepared statement was executed already");
                let (interp, _) = self.interpreter(Some(who), Some(r.reason));
                return interp.refuse(q, &opts, r.diagnostic);
            }
            Err(e) => {
                let (interp, _) = self.interpreter(Some(who), Some(e.to_string()));
                return interp.refuse(q, &opts, store_refusal(&e, q.span));
            }
        }
        let (interp, sink) = self.interpreter(Some(who), None);
        let response = interp.execute(q, &opts);
        self.audited(response, &sink, &interp, q, &opts)
    }
}
