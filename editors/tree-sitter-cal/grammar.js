/**
 * A tree-sitter grammar for CAL (Context Assembly Language) — for highlighting in Helix,
 * Neovim and GitHub, not for checking: `cal check` and `cal lsp` do that.
 *
 * It reads a document as queries separated by `;`, each a sequence of tokens (keywords,
 * names, literals, operators) with its brackets matched, so every query the parser accepts
 * (grammar/cal.ebnf) reads without an ERROR node — the test `tests/corpus.rs` parses every
 * valid corpus query — while an unbalanced bracket or an unterminated string is an ERROR.
 * Keywords are matched case-insensitively (§3.1); the list is Keyword in
 * grammar/src/vocab.rs less the six template section keywords, which are `section_keyword`
 * (the test checks the two lists together are complete).
 */
const KEYWORDS = require("./keywords.json");

module.exports = grammar({
  name: "cal",

  // Comments are items, not extras: inside a template body `--` is text.
  extras: (_) => [/\s/],

  word: ($) => $.identifier,

  rules: {
    source_file: ($) => seq(optional($.query), repeat(seq(";", optional($.query)))),

    query: ($) => repeat1($._item),

    _item: ($) =>
      choice(
        $.comment,
        $.keyword,
        $.identifier,
        $.string,
        $.number,
        $.hash,
        $.parameter,
        $.operator,
        $.pipe,
        $.parenthesized,
        $.list,
        $.block,
        $.template_section,
        ",",
        ":",
        ".",
        $.other,
      ),

    // Brackets hold items and, in BATCH and templates, `;`-free text; they must balance.
    parenthesized: ($) => seq("(", repeat(choice($._item, ";")), ")"),
    list: ($) => seq("[", repeat(choice($._item, ";")), "]"),
    block: ($) => seq("{", repeat(choice($._item, ";")), "}"),

    // A template section's body is raw text (§10.2): `--` is not a comment there, and its
    // braces only need to balance.
    template_section: ($) => seq($.section_keyword, $.template_body),
    template_body: ($) => seq("{", repeat(choice($.template_text, $.template_body)), "}"),
    template_text: (_) => token(prec(5, /[^{}]+/)),
    section_keyword: (_) => token(prec(3, /(ELEMENT_SUMMARY|ELEMENT_OMIT|SOURCE_BREAK|ELEMENT|HEADER|FOOTER)/i)),

    keyword: (_) => token(prec(2, new RegExp("(" + KEYWORDS.join("|") + ")", "i"))),

    identifier: (_) => /[A-Za-z_][A-Za-z0-9_]*(:[A-Za-z_][A-Za-z0-9_]*)?/,

    string: (_) => token(seq('"', repeat(choice(/[^"\\]+/, /\\./)), '"')),

    number: (_) => token(prec(1, /-?[0-9]+(\.[0-9]+)?/)),

    hash: (_) => token(prec(3, /sha256:[0-9A-Za-z]*/)),

    parameter: (_) => /\$[A-Za-z_][A-Za-z0-9_]*/,

    operator: (_) => choice("=", "!=", ">=", "<=", ">", "<"),

    pipe: (_) => "|",

    comment: (_) => token(prec(4, seq("--", /[^\n]*/))),

    // Anything else a template section's text may hold (`-`, `#`, `/`, `'`, …).
    other: (_) => token(prec(-1, /[^\s"(){}\[\];,:.|=<>$A-Za-z0-9_]/)),
  },
});
