; Highlighting for CAL (Helix, Neovim and GitHub read these captures).
(comment) @comment
(keyword) @keyword
(string) @string
(number) @number
(hash) @constant
(parameter) @variable.parameter
(operator) @operator
(pipe) @operator
(identifier) @variable
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ":" "." ";"] @punctuation.delimiter
(section_keyword) @keyword
(template_text) @string.special
