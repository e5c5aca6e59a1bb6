use super::*;
use cal_grammar::limits::MAX_TEMPLATE_NESTING;

#[test]
fn builds_a_tree_and_finds_structural_errors() {
    let t = parse("{{#a}}x{{^b}}{{c}}{{/b}}{{/a}}");
    assert!(t.errors.is_empty());
    assert_eq!(t.nodes.len(), 1);
    let errs = |s| parse(s).errors.into_iter().map(|e| e.kind).collect::<Vec<_>>();
    assert_eq!(errs("{{#a}}"), [ErrorKind::Unclosed]);
    assert_eq!(errs("{{/a}}"), [ErrorKind::Unopened]);
    assert_eq!(errs("{{#a}}{{#b}}{{/a}}{{/b}}"), [ErrorKind::Mismatched]);
    assert_eq!(errs("{{#a}}{{#b}}{{/a}}"), [ErrorKind::Unclosed, ErrorKind::Mismatched]);
    assert_eq!(errs("{{#each}}{{grain.type}}{{/each}}"), []);
    assert_eq!(errs("{{#each grains}}{{/each}}"), [ErrorKind::EachForm]);
    assert_eq!(errs("{{grain type}}"), [ErrorKind::InvalidName]);
    assert_eq!(errs("{{>p}}"), [ErrorKind::Unsupported(TagKind::Partial)]);
    let deep = "{{#a}}".repeat(MAX_TEMPLATE_NESTING) + &"{{/a}}".repeat(MAX_TEMPLATE_NESTING);
    assert_eq!(errs(&deep), []);
    let deeper = "{{#a}}".repeat(MAX_TEMPLATE_NESTING + 1) + &"{{/a}}".repeat(MAX_TEMPLATE_NESTING + 1);
    assert_eq!(errs(&deeper), [ErrorKind::TooDeep]);
}

#[test]
fn the_tree_owns_its_text() {
    let t = parse("{{#grain.confidence}}({{grain.confidence}}){{/grain.confidence}}");
    assert!(t.errors.is_empty());
    let Node::Section { name, inverted: false, children, span } = &t.nodes[0] else {
        panic!("{:?}", t.nodes);
    };
    assert_eq!(name, "grain.confidence");
    assert_eq!(*span, 0..21);
    assert_eq!(children[0], Node::Text("(".into()));
    assert!(matches!(&children[1], Node::Variable { name, .. } if name == "grain.confidence"));
}

#[test]
fn variables_of_the_closed_set_are_names() {
    assert!(cal_grammar::templates::VARIABLES.iter().all(|v| is_valid_name(v.name)));
    assert!(!is_valid_name("grain type") && !is_valid_name("") && !is_valid_name("a..b"));
}

#[test]
fn a_template_is_built_only_from_sections_that_parse() {
    use TemplateSectionKind as K;
    let t = Template::parse(None, [(K::Header, "# {{assembly.name}}"), (K::Element, "- {{grain.content}}")])
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(t.parent(), FormatName::Readable);
    assert_eq!(t.section(K::Header).map(<[Node]>::len), Some(2));
    assert!(t.section(K::Footer).is_none());
    let e = Template::parse(Some(FormatName::Compact), [(K::Header, "ok"), (K::Element, "x {{#a}}")])
        .expect_err("an unclosed section");
    assert_eq!((e.index, e.error.kind), (1, ErrorKind::Unclosed));
    assert_eq!(e.error.span, 2..8);
}
