//! The span invariants of a parsed tree, checked over its `{:#?}` form.
//!
//! Every AST node carries its span (STYLE.md, "Nodes are kind + span"), so a tree is well
//! formed when every span lies inside the span of the nearest node around it, the items of
//! a list come in source order without overlapping, the spans of one node's parts do not
//! overlap, and every boundary falls on a character boundary of the text. The check reads
//! the pretty `Debug` form — the same text the corpus snapshots show — rather than a
//! visitor, so a node type added to the AST is covered without being listed here: a
//! `span: a..b` line is the span of the value it stands in, and any other `a..b` (a field
//! such as `name_span`, or the second half of a `(value, span)` pair) is the span of a part.

/// One value of the `Debug` tree: a struct, tuple or list, with what it contains.
struct Value {
    /// The opening line, trimmed (`where_: [`, `Condition {`, `Some(`).
    label: String,
    /// Its `span: a..b` field, when it has one.
    span: Option<(usize, usize)>,
    /// Spans of parts that are not values of their own (`name_span: a..b`, a bare `a..b`).
    parts: Vec<(usize, usize)>,
    children: Vec<Value>,
}

impl Value {
    fn is_list(&self) -> bool {
        self.label.ends_with('[')
    }

    /// The first span inside this value, its own or its first part's or child's.
    fn first_span(&self) -> Option<(usize, usize)> {
        self.span.or_else(|| self.parts.first().copied()).or_else(|| self.children.iter().find_map(Value::first_span))
    }

    /// The spans directly under this value, each with the value it is the span of (`None`
    /// for a part): its parts, and for each child its own span or, for a child without one
    /// (`Some(`, a list), the spans directly under that child.
    fn direct_spans<'v>(&'v self, out: &mut Vec<((usize, usize), Option<&'v Value>)>) {
        out.extend(self.parts.iter().map(|p| (*p, None)));
        for c in &self.children {
            match c.span {
                Some(s) => out.push((s, Some(c))),
                None => c.direct_spans(out),
            }
        }
    }

    /// A WITH clause written in two halves, before and after the pipeline, is one clause
    /// (docs/spec-decisions.md R3) whose span covers both halves and so the stages between
    /// them. That is the one overlap allowed: `other` must fall between the clause's options.
    fn may_cover(&self, other: (usize, usize)) -> bool {
        if !self.label.starts_with("WithClause") {
            return false;
        }
        let mut options = Vec::new();
        self.direct_spans(&mut options);
        !options.iter().any(|(o, _)| o.0 < other.1 && other.0 < o.1)
    }
}

fn span_of(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.split_once("..")?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Reads the `{:#?}` text of a tree.
fn read(debug: &str) -> Value {
    let mut stack = vec![Value { label: "root".into(), span: None, parts: Vec::new(), children: Vec::new() }];
    for line in debug.lines() {
        let t = line.trim().trim_end_matches(',');
        if t.ends_with('{') || t.ends_with('(') || t.ends_with('[') {
            stack.push(Value { label: t.to_string(), span: None, parts: Vec::new(), children: Vec::new() });
        } else if matches!(t, "}" | ")" | "]") {
            let done = stack.pop().expect("balanced");
            stack.last_mut().expect("a parent").children.push(done);
        } else {
            let top = stack.last_mut().expect("a value");
            match t.split_once(": ") {
                Some(("span", v)) => top.span = span_of(v),
                Some((_, v)) => top.parts.extend(span_of(v)),
                None => top.parts.extend(span_of(t)),
            }
        }
    }
    assert_eq!(stack.len(), 1, "unbalanced Debug output");
    stack.pop().expect("root")
}

/// Every violation of the span invariants in `tree` (its `{:#?}`) over `src`, one line each.
pub fn violations(src: &str, debug: &str) -> Vec<String> {
    let mut out = Vec::new();
    walk(src, &read(debug), (0, src.len()), "", &mut out);
    out
}

fn show((s, e): (usize, usize), src: &str) -> String {
    format!("{s}..{e} {:?}", src.get(s..e).unwrap_or("<not on a character boundary>"))
}

fn walk(src: &str, v: &Value, outer: (usize, usize), path: &str, out: &mut Vec<String>) {
    let path = format!("{path}/{}", v.label.trim_end_matches(['{', '(', '[', ' ']));
    let check = |s: (usize, usize), what: &str, within: (usize, usize), out: &mut Vec<String>| {
        if s.0 > s.1 || s.1 > src.len() {
            out.push(format!("{path}: {what} {}..{} is not a range inside the text", s.0, s.1));
        } else if !src.is_char_boundary(s.0) || !src.is_char_boundary(s.1) {
            out.push(format!("{path}: {what} {}..{} is not on character boundaries", s.0, s.1));
        } else if s.0 < within.0 || s.1 > within.1 {
            out.push(format!("{path}: {what} {} is outside the enclosing {}", show(s, src), show(within, src)));
        }
    };
    if let Some(s) = v.span {
        check(s, "span", outer, out);
    }
    // A value's parts are inside its own span.
    let inner = v.span.unwrap_or(outer);
    for &p in &v.parts {
        check(p, "part", inner, out);
    }
    if v.is_list() {
        let items: Vec<(usize, usize)> = v.children.iter().filter_map(Value::first_span).collect();
        for w in items.windows(2) {
            if w[1].0 < w[0].1 {
                out.push(format!("{path}: items out of source order: {} then {}", show(w[0], src), show(w[1], src)));
            }
        }
    }
    if v.span.is_some() {
        let mut parts = Vec::new();
        v.direct_spans(&mut parts);
        parts.sort_unstable_by_key(|(s, _)| *s);
        for (i, (a, va)) in parts.iter().enumerate() {
            for (b, vb) in &parts[i + 1..] {
                // Two parts may share a boundary, and a part may be empty; they may not overlap.
                let overlap = b.0 < a.1 && a != b;
                let allowed = va.is_some_and(|x| x.may_cover(*b)) || vb.is_some_and(|x| x.may_cover(*a));
                if overlap && !allowed {
                    out.push(format!("{path}: parts overlap: {} and {}", show(*a, src), show(*b, src)));
                }
            }
        }
    }
    for c in &v.children {
        walk(src, c, inner, &path, out);
    }
}
