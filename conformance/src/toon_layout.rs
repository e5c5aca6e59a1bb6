//! The two layouts of a TOON tabular array that a conformant implementation may emit, brought
//! to one form before comparing.
//!
//! CAL §10.9.3 prints a RECALL's rows at depth 0, under a keyed header
//! (`beliefs[3]{subject,content,confidence}:` then `alice,prefers dark mode,0.95`). TOON v3,
//! which §10.9.1 cites as the normative definition, reads that header as a field of a root
//! object whose rows are one level deeper, and its decoders reject depth-0 rows ("Expected 3
//! tabular rows, but got 0"). Our toolchain emits the rows indented (docs/spec-decisions-render.md,
//! "TOON rows"); an implementation that follows the spec's printed example does not. Both carry
//! the same table, so the suite accepts either: [`normalize`] indents depth-0 rows under their
//! header, and two texts are the same TOON when their normal forms are equal.

/// The indentation TOON v3 uses for one level (CAL's TOON uses its default, two spaces).
const INDENT: &str = "  ";

/// The row count `N` of a tabular array header (`key[N]{f1,f2}:` or `[N]{f1,f2}:`, any
/// indentation), or `None` for any other line. Only tabular headers (with a field list) have
/// rows; inline arrays (`key[N]: a,b`) and list arrays are left alone.
fn tabular_rows(line: &str) -> Option<usize> {
    let body = line.trim_start_matches(' ');
    let head = body.strip_suffix(':')?;
    let fields_at = head.rfind("]{")?;
    if !head.ends_with('}') {
        return None;
    }
    let open = head[..fields_at].rfind('[')?;
    let key = &head[..open];
    let quoted = key.len() >= 2 && key.starts_with('"') && key.ends_with('"');
    let bare = key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
    if !(quoted || bare) {
        return None;
    }
    head[open + 1..fields_at].parse().ok()
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `text` with the rows of every tabular array indented one level under its header: a header
/// `[N]{…}:` followed by lines at the header's own indentation (the §10.9.3 layout) has its
/// next `N` lines indented by two spaces (the TOON v3 layout). Text already in the TOON v3
/// layout, and every other line, is unchanged.
pub fn normalize(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push(line.to_string());
        i += 1;
        let Some(n) = tabular_rows(line) else { continue };
        let depth = indentation(line);
        let rows = lines[i..].iter().take(n);
        if n == 0 || rows.clone().count() < n || lines[i].trim().is_empty() || indentation(lines[i]) != depth {
            continue;
        }
        for row in rows {
            out.push(format!("{INDENT}{row}"));
        }
        i += n;
    }
    out.join("\n")
}

/// True when `a` and `b` are the same TOON document up to the row layout ([`normalize`]).
pub fn same(a: &str, b: &str) -> bool {
    a == b || normalize(a) == normalize(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "beliefs[3]{subject,content,confidence}:\n\
                        alice,prefers dark mode,0.95\n\
                        alice,prefers vim,0.9\n\
                        alice,works best in deep-focus blocks of 90 minutes,0.82";
    const TOON_V3: &str = "beliefs[3]{subject,content,confidence}:\n  \
                           alice,prefers dark mode,0.95\n  \
                           alice,prefers vim,0.9\n  \
                           alice,works best in deep-focus blocks of 90 minutes,0.82";

    #[test]
    fn both_layouts_of_a_recall_are_the_same_document() {
        assert_eq!(normalize(SPEC), TOON_V3);
        assert_eq!(normalize(TOON_V3), TOON_V3);
        assert!(same(SPEC, TOON_V3));
        assert!(same(TOON_V3, SPEC));
    }

    #[test]
    fn several_groups_and_quoted_keys() {
        let spec = "beliefs[1]{subject,content}:\nalice,x\n\nobservations[2]{content,\"hc:patient_id\"}:\na,P-1\nb,P-2";
        let v3 =
            "beliefs[1]{subject,content}:\n  alice,x\n\nobservations[2]{content,\"hc:patient_id\"}:\n  a,P-1\n  b,P-2";
        assert_eq!(normalize(spec), v3);
    }

    #[test]
    fn assemble_documents_are_unchanged() {
        let doc = "context: c\nintent: i\ntokens: 40/2000\nbeliefs[2]{subject,content}:\n  alice,x\n  bob,y\n\n\
                   goals[1]{subject,content,state}:\n  alice,review,active";
        assert_eq!(normalize(doc), doc);
        // A metadata line is never taken for a row: the header's count bounds the rows.
        assert_eq!(normalize("[0]:"), "[0]:");
        assert_eq!(normalize("beliefs[0]{subject,content,confidence}:"), "beliefs[0]{subject,content,confidence}:");
    }

    #[test]
    fn different_tables_stay_different() {
        assert!(!same(SPEC, &TOON_V3.replace("0.9\n", "0.91\n")));
        assert!(!same(SPEC, &SPEC.replace("beliefs[3]", "beliefs[2]")));
        // Indenting by something else than one level is not the TOON v3 layout.
        assert!(!same(SPEC, &SPEC.replace("\nalice", "\n    alice")));
        // Non-tabular text is compared as is.
        assert!(!same("a\nb", "a\n  b"));
    }
}
