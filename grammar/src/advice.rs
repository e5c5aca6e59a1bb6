//! What to do about each code when a diagnostic carries no suggestion of its own.
//!
//! §22.1 makes `suggestion` mandatory on every error object, and a pointer to a spec
//! section ("See CAL spec §4") tells nobody what to type. [`advice`] gives every code of
//! the registry a sentence saying how to fix it, in words, never an internal name; the
//! match has no wildcard so a new code cannot be added without its advice. Where the
//! diagnostic knows more (what the parser expected, the closed set of valid values),
//! [`crate::Diagnostic::suggestion_or_default`] says that instead.

use crate::codes::Code;
use crate::limits;

/// How to fix a problem of this code, for diagnostics that carry no suggestion of their own.
pub fn advice(code: Code) -> String {
    use Code::*;
    let s = match code {
        E001 => {
            return format!(
                "Shorten the query to at most {} bytes: split it into several queries, or bind long values as parameters.",
                limits::MAX_QUERY_BYTES
            );
        }
        E002 => "Check the spelling and order of the words here against the grammar (`DESCRIBE grammar` prints it).",
        E003 => "Use one of the ten OMS grain types: plural after RECALL, singular after ADD and DESCRIBE.",
        E004 => "Use a field of the grain type queried (`DESCRIBE fields` lists them).",
        E005 => {
            "Close the string with the same quote it was opened with, and escape quotes inside it with a backslash."
        }
        E006 => "Write the number as digits with at most one decimal point, for example 0.8 or 20.",
        E007 => {
            return format!(
                "Nest subqueries at most {} deep: bind an inner query with LET and refer to it instead.",
                limits::MAX_SUBQUERY_DEPTH
            );
        }
        E008 => {
            "Bind the parameter (`--param name=value` on the command line, `params` in a server request), or write a literal."
        }
        E009 => "Bind each parameter once.",
        E010 => return format!("Ask for at most {} results, and page with the cursor for more.", limits::MAX_LIMIT),
        E011 => {
            return format!(
                "Put at most {} values in an IN set; split the query, or filter on a broader field.",
                limits::MAX_IN_SET
            );
        }
        E012 => return format!("Use at most {} pipeline stages.", limits::MAX_PIPELINE_STAGES),
        E013 => return format!("Combine at most {} operands in one set operation.", limits::MAX_SET_OPERANDS),
        E014 => "Write a statement, for example a RECALL.",
        E015 => "Write a content address as `sha256:` followed by hexadecimal digits.",
        E016 => return format!("Shorten the REASON to at most {} characters.", limits::MAX_REASON_CHARS),
        E017 => "Set only the fields this operation may change (`DESCRIBE fields` lists them).",
        E018 => "Add a REASON clause saying why the memory changes.",
        E019 => "Add a SET clause with at least one field that changes.",
        E020 => "Compare the field with a value of its type, with an operator the field supports.",
        E021 => "Use a field that this stage accepts, or drop the stage.",
        E022 => "Apply SUBJECTS and OBJECTS to a query over beliefs.",
        E030 => {
            return format!(
                "Lower the BUDGET to at most {} tokens or {} grains, or ask for less.",
                limits::MAX_BUDGET_TOKENS,
                limits::MAX_BUDGET_GRAINS
            );
        }
        E031 => "Narrow the query (a grain type, ABOUT, WHERE or a smaller LIMIT) so that it finishes in time.",
        E040 => "Supersede the newest version of the grain: HISTORY of the hash shows which one it is.",
        E041 => "Only a superseded version can be reverted; this grain has no earlier version.",
        E042 => "Supersede a belief; other grain types cannot evolve.",
        E043 => "Wait for the write quota to renew before evolving more grains.",
        E044 => "Ask a server with Tier 1 enabled, or use only Tier 0 operations.",
        E045 => "Target a grain of your own namespace.",
        E046 => "Check the hash: RECALL or EXISTS shows whether the grain is in this memory.",
        E050 => "Give every required field in the SET clause of the ADD.",
        E051 => "ADD a belief, an observation or a goal; other grain types are not created by queries.",
        E052 => "Wait for the ADD quota to renew before adding more grains.",
        E060 => "Query the grain type the field belongs to, and use one of RECENT or ORDER BY with LIMIT, not both.",
        E061 => "Name the grain type after RECALL to use its own fields.",
        E062 => "Use one of the action phases listed.",
        E063 => "Use one of the goal states listed.",
        E064 => "Use one of the consent actions listed.",
        E065 => "Use one of the recall priorities listed.",
        E066 => "Use one of the epistemic statuses listed.",
        E070 => "Send the query as UTF-8 text.",
        E071 => "Remove the bidirectional control characters from the query.",
        E075 => "Ask for fewer or narrower sources so that the assembly finishes in time.",
        E076 => "Check each source on its own with RECALL; at least one must succeed.",
        E077 => "Use only the stream options listed.",
        E078 => "Choose a chunk_size between 20 and 1000.",
        E079 => "Run the query without STREAM, or ask a server that streams.",
        E080 => "Choose another FORMAT, or check the grain that could not be formatted.",
        E081 => "Run the assembly again: it finished before the reconnect.",
        E082 => "Run the assembly again if its result is still wanted.",
        E085 => "Define the template first (DEFINE TEMPLATE), or use a preset format.",
        E086 => "Extend a text preset; the data preset cannot be extended.",
        E087 => "Extend a preset, not a template you defined.",
        E088 => "Give the template a name not yet taken, or drop the old one first.",
        E089 => "Drop a template you no longer need before defining another.",
        E090 => "Use one of the template variables listed.",
        E091 => "Close every `{{#section}}` with its `{{/section}}`.",
        E092 => "Shorten the template to at most 4096 bytes.",
        E093 => "Nest template conditionals at most 5 deep.",
        E094 => "Use only variables, `{{#…}}` and `{{/…}}` sections in a template.",
        E095 => "Define each section of the template once.",
        E096 => "Define either ELEMENT or ELEMENT_SUMMARY for a kind of grain, not both.",
        E100 => "Write `CAL/1` as the version prefix, or leave it out.",
        W001 => "Use a relation of the standard `mg:` vocabulary, or keep it if it is yours on purpose.",
        W002 => "Tag the grains with the domain's profile, or use a field outside the domain.",
        W003 => "Use a known domain prefix, or keep it if it is yours on purpose.",
        W004 => "Remove the unknown option; it is ignored.",
        W005 => "Choose a FORMAT explicitly.",
        E901 => "Ask for a new capability token.",
        E902 => "Ask for a capability token that allows this operation and grain type.",
        E903 => "Ask the operator of this store to turn the service back on.",
        E904 => "The store's invalidation policy refuses this write; change the memory another way.",
        E905 => "Close a stream before opening another.",
        W901 => {
            "Check that the store's embedder is running (`cal store embedder DB` shows it); until then, use the words the memory uses."
        }
    };
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_advice_in_words() {
        for code in Code::ALL.iter().chain(Code::EXTENSIONS) {
            let a = advice(*code);
            assert!(a.ends_with('.') && a.contains(' '), "{code}: {a:?}");
            assert!(!a.contains('§'), "{code}: advice points at the spec instead of saying what to do: {a:?}");
            for other in Code::ALL.iter().chain(Code::EXTENSIONS) {
                let name = other.info().name;
                assert!(!a.contains(name), "{code}: advice names the internal {name}: {a:?}");
            }
        }
    }
}
