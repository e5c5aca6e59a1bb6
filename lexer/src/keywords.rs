//! Keyword classification of identifier-shaped words.
//!
//! GENERATED from the `Keyword` and `ExcludedWord` tables of cal-grammar
//! (grammar/src/vocab.rs) by scripts/gen_keywords.py; `tests::classify_agrees_with_the_grammar_tables`
//! fails when this file is stale. Words are matched ASCII-case-insensitively
//! (§3.1, §16.6). A match on (length, first letter) narrows each lookup to one
//! or two comparisons, which is what keeps lexing linear and cheap.

use crate::Token;
use cal_grammar::{ExcludedWord, Keyword};

#[inline]
fn is(word: &[u8], lower: &[u8]) -> bool {
    word.eq_ignore_ascii_case(lower)
}

/// The keyword or excluded word spelled `word` (any ASCII case), if any.
#[inline]
#[rustfmt::skip]
pub(crate) fn classify(word: &str) -> Option<Token<'static>> {
    let b = word.as_bytes();
    let first = *b.first()? | 0x20;
    match (b.len(), first) {
        (2, b'a') => { if is(b, b"as") { return Some(Token::Kw(Keyword::As)); } }
        (2, b'b') => { if is(b, b"by") { return Some(Token::Kw(Keyword::By)); } }
        (2, b'i') => { if is(b, b"in") { return Some(Token::Kw(Keyword::In)); } if is(b, b"is") { return Some(Token::Kw(Keyword::Is)); } }
        (2, b'm') => { if is(b, b"my") { return Some(Token::Kw(Keyword::My)); } }
        (2, b'o') => { if is(b, b"or") { return Some(Token::Kw(Keyword::Or)); } if is(b, b"of") { return Some(Token::Kw(Keyword::Of)); } }
        (3, b'a') => { if is(b, b"and") { return Some(Token::Kw(Keyword::And)); } if is(b, b"asc") { return Some(Token::Kw(Keyword::Asc)); } if is(b, b"add") { return Some(Token::Kw(Keyword::Add)); } }
        (3, b'c') => { if is(b, b"cal") { return Some(Token::Kw(Keyword::Cal)); } }
        (3, b'd') => { if is(b, b"dek") { return Some(Token::Excluded(ExcludedWord::Dek)); } }
        (3, b'f') => { if is(b, b"for") { return Some(Token::Kw(Keyword::For)); } }
        (3, b'k') => { if is(b, b"key") { return Some(Token::Excluded(ExcludedWord::Key)); } }
        (3, b'l') => { if is(b, b"let") { return Some(Token::Kw(Keyword::Let)); } }
        (3, b'n') => { if is(b, b"not") { return Some(Token::Kw(Keyword::Not)); } }
        (3, b's') => { if is(b, b"set") { return Some(Token::Kw(Keyword::Set)); } }
        (4, b'd') => { if is(b, b"desc") { return Some(Token::Kw(Keyword::Desc)); } if is(b, b"diff") { return Some(Token::Kw(Keyword::Diff)); } if is(b, b"drop") { return Some(Token::Excluded(ExcludedWord::Drop)); } }
        (4, b'f') => { if is(b, b"from") { return Some(Token::Kw(Keyword::From)); } }
        (4, b'l') => { if is(b, b"like") { return Some(Token::Kw(Keyword::Like)); } }
        (4, b'n') => { if is(b, b"null") { return Some(Token::Kw(Keyword::Null)); } }
        (4, b's') => { if is(b, b"seal") { return Some(Token::Excluded(ExcludedWord::Seal)); } }
        (4, b't') => { if is(b, b"true") { return Some(Token::Kw(Keyword::True)); } }
        (4, b'w') => { if is(b, b"with") { return Some(Token::Kw(Keyword::With)); } }
        (5, b'a') => { if is(b, b"about") { return Some(Token::Kw(Keyword::About)); } }
        (5, b'b') => { if is(b, b"batch") { return Some(Token::Kw(Keyword::Batch)); } }
        (5, b'c') => { if is(b, b"count") { return Some(Token::Kw(Keyword::Count)); } }
        (5, b'e') => { if is(b, b"erase") { return Some(Token::Excluded(ExcludedWord::Erase)); } }
        (5, b'f') => { if is(b, b"first") { return Some(Token::Kw(Keyword::First)); } if is(b, b"false") { return Some(Token::Kw(Keyword::False)); } }
        (5, b'g') => { if is(b, b"group") { return Some(Token::Kw(Keyword::Group)); } if is(b, b"grant") { return Some(Token::Excluded(ExcludedWord::Grant)); } }
        (5, b'i') => { if is(b, b"index") { return Some(Token::Excluded(ExcludedWord::Index)); } }
        (5, b'l') => { if is(b, b"limit") { return Some(Token::Kw(Keyword::Limit)); } }
        (5, b'o') => { if is(b, b"order") { return Some(Token::Kw(Keyword::Order)); } }
        (5, b'p') => { if is(b, b"purge") { return Some(Token::Excluded(ExcludedWord::Purge)); } }
        (5, b's') => { if is(b, b"scope") { return Some(Token::Kw(Keyword::Scope)); } if is(b, b"since") { return Some(Token::Kw(Keyword::Since)); } if is(b, b"store") { return Some(Token::Excluded(ExcludedWord::Store)); } }
        (5, b'u') => { if is(b, b"union") { return Some(Token::Kw(Keyword::Union)); } }
        (5, b'w') => { if is(b, b"where") { return Some(Token::Kw(Keyword::Where)); } if is(b, b"write") { return Some(Token::Excluded(ExcludedWord::Write)); } }
        (6, b'a') => { if is(b, b"agency") { return Some(Token::Kw(Keyword::Agency)); } }
        (6, b'b') => { if is(b, b"budget") { return Some(Token::Kw(Keyword::Budget)); } }
        (6, b'c') => { if is(b, b"create") { return Some(Token::Excluded(ExcludedWord::Create)); } }
        (6, b'd') => { if is(b, b"define") { return Some(Token::Kw(Keyword::Define)); } if is(b, b"delete") { return Some(Token::Excluded(ExcludedWord::Delete)); } }
        (6, b'e') => { if is(b, b"except") { return Some(Token::Kw(Keyword::Except)); } if is(b, b"exists") { return Some(Token::Kw(Keyword::Exists)); } }
        (6, b'f') => { if is(b, b"format") { return Some(Token::Kw(Keyword::Format)); } if is(b, b"footer") { return Some(Token::Kw(Keyword::Footer)); } if is(b, b"forget") { return Some(Token::Excluded(ExcludedWord::Forget)); } }
        (6, b'h') => { if is(b, b"hashes") { return Some(Token::Kw(Keyword::Hashes)); } if is(b, b"header") { return Some(Token::Kw(Keyword::Header)); } }
        (6, b'i') => { if is(b, b"insert") { return Some(Token::Excluded(ExcludedWord::Insert)); } }
        (6, b'm') => { if is(b, b"master") { return Some(Token::Excluded(ExcludedWord::Master)); } }
        (6, b'o') => { if is(b, b"offset") { return Some(Token::Kw(Keyword::Offset)); } }
        (6, b'p') => { if is(b, b"policy") { return Some(Token::Excluded(ExcludedWord::Policy)); } }
        (6, b'r') => { if is(b, b"recall") { return Some(Token::Kw(Keyword::Recall)); } if is(b, b"recent") { return Some(Token::Kw(Keyword::Recent)); } if is(b, b"revert") { return Some(Token::Kw(Keyword::Revert)); } if is(b, b"reason") { return Some(Token::Kw(Keyword::Reason)); } if is(b, b"rotate") { return Some(Token::Excluded(ExcludedWord::Rotate)); } if is(b, b"revoke") { return Some(Token::Excluded(ExcludedWord::Revoke)); } }
        (6, b's') => { if is(b, b"select") { return Some(Token::Kw(Keyword::Select)); } if is(b, b"stream") { return Some(Token::Kw(Keyword::Stream)); } if is(b, b"secret") { return Some(Token::Excluded(ExcludedWord::Secret)); } if is(b, b"schema") { return Some(Token::Excluded(ExcludedWord::Schema)); } }
        (6, b't') => { if is(b, b"thread") { return Some(Token::Kw(Keyword::Thread)); } }
        (6, b'u') => { if is(b, b"unseal") { return Some(Token::Excluded(ExcludedWord::Unseal)); } }
        (7, b'b') => { if is(b, b"between") { return Some(Token::Kw(Keyword::Between)); } }
        (7, b'c') => { if is(b, b"consent") { return Some(Token::Excluded(ExcludedWord::Consent)); } }
        (7, b'd') => { if is(b, b"destroy") { return Some(Token::Excluded(ExcludedWord::Destroy)); } if is(b, b"decrypt") { return Some(Token::Excluded(ExcludedWord::Decrypt)); } }
        (7, b'e') => { if is(b, b"explain") { return Some(Token::Kw(Keyword::Explain)); } if is(b, b"exclude") { return Some(Token::Kw(Keyword::Exclude)); } if is(b, b"extends") { return Some(Token::Kw(Keyword::Extends)); } if is(b, b"element") { return Some(Token::Kw(Keyword::Element)); } if is(b, b"encrypt") { return Some(Token::Excluded(ExcludedWord::Encrypt)); } }
        (7, b'h') => { if is(b, b"history") { return Some(Token::Kw(Keyword::History)); } }
        (7, b'i') => { if is(b, b"include") { return Some(Token::Kw(Keyword::Include)); } }
        (7, b'o') => { if is(b, b"objects") { return Some(Token::Kw(Keyword::Objects)); } }
        (7, b'p') => { if is(b, b"project") { return Some(Token::Kw(Keyword::Project)); } }
        (8, b'a') => { if is(b, b"assemble") { return Some(Token::Kw(Keyword::Assemble)); } }
        (8, b'c') => { if is(b, b"coalesce") { return Some(Token::Kw(Keyword::Coalesce)); } }
        (8, b'd') => { if is(b, b"describe") { return Some(Token::Kw(Keyword::Describe)); } }
        (8, b'p') => { if is(b, b"priority") { return Some(Token::Kw(Keyword::Priority)); } }
        (8, b'r') => { if is(b, b"restrict") { return Some(Token::Excluded(ExcludedWord::Restrict)); } }
        (8, b's') => { if is(b, b"subjects") { return Some(Token::Kw(Keyword::Subjects)); } }
        (8, b't') => { if is(b, b"template") { return Some(Token::Kw(Keyword::Template)); } if is(b, b"truncate") { return Some(Token::Excluded(ExcludedWord::Truncate)); } }
        (8, b'u') => { if is(b, b"undefine") { return Some(Token::Kw(Keyword::Undefine)); } }
        (9, b'i') => { if is(b, b"intersect") { return Some(Token::Kw(Keyword::Intersect)); } }
        (9, b'k') => { if is(b, b"knowledge") { return Some(Token::Kw(Keyword::Knowledge)); } }
        (9, b'l') => { if is(b, b"lifecycle") { return Some(Token::Kw(Keyword::Lifecycle)); } }
        (9, b'm') => { if is(b, b"migration") { return Some(Token::Excluded(ExcludedWord::Migration)); } }
        (9, b'p') => { if is(b, b"partition") { return Some(Token::Excluded(ExcludedWord::Partition)); } }
        (9, b's') => { if is(b, b"supersede") { return Some(Token::Kw(Keyword::Supersede)); } }
        (10, b'p') => { if is(b, b"preference") { return Some(Token::Kw(Keyword::Preference)); } if is(b, b"permission") { return Some(Token::Kw(Keyword::Permission)); } }
        (11, b'i') => { if is(b, b"interaction") { return Some(Token::Kw(Keyword::Interaction)); } }
        (11, b'o') => { if is(b, b"observation") { return Some(Token::Kw(Keyword::Observation)); } }
        (12, b'e') => { if is(b, b"element_omit") { return Some(Token::Kw(Keyword::ElementOmit)); } }
        (12, b's') => { if is(b, b"source_break") { return Some(Token::Kw(Keyword::SourceBreak)); } }
        (14, b'c') => { if is(b, b"contradictions") { return Some(Token::Kw(Keyword::Contradictions)); } }
        (15, b'e') => { if is(b, b"element_summary") { return Some(Token::Kw(Keyword::ElementSummary)); } }
        _ => {}
    }
    None
}
