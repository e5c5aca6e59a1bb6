//! Keyword classification of identifier-shaped words.
//!
//! GENERATED from the `Keyword` and `ExcludedWord` tables of cal-grammar
//! (grammar/src/vocab.rs) by scripts/gen_keywords.py; `tests::classify_agrees_with_the_grammar_tables`
//! fails when this file is stale. Words are matched ASCII-case-insensitively
//! (§3.1, §16.6). A match on (length, first letter) narrows each lookup to one
//! or two candidates, each compared byte by byte against a constant, which is what keeps lexing linear and cheap.

use crate::Token;
use cal_grammar::{ExcludedWord, Keyword};

/// Whether `word` is `lower` in any ASCII case. Both are identifier bytes, and
/// for those ORing 0x20 folds case and nothing else: a letter meets only its
/// other case, `_` (0x5F) only itself (0x7F is not an identifier byte), and
/// digits are unchanged. `lower` is a constant, so this unrolls into a few
/// byte comparisons.
#[inline(always)]
fn is(word: &[u8], lower: &[u8]) -> bool {
    word.len() == lower.len() && word.iter().zip(lower).all(|(w, l)| w | 0x20 == l | 0x20)
}

/// The keyword or excluded word spelled `word` (any ASCII case), if any.
#[cfg(test)]
pub(crate) fn classify(word: &str) -> Option<Token<'static>> {
    classify_bytes(word.as_bytes())
}

/// [`classify`] on the bytes of a word: the scanner makes a `&str` only for
/// the words that are names, sparing keywords the slice's character-boundary checks.
#[inline]
#[rustfmt::skip]
pub(crate) fn classify_bytes(b: &[u8]) -> Option<Token<'static>> {
    let first = *b.first()? | 0x20;
    match (b.len(), first) {
        (2, b'a') => if is(b, b"as") { Some(Token::Kw(Keyword::As)) } else { None },
        (2, b'b') => if is(b, b"by") { Some(Token::Kw(Keyword::By)) } else { None },
        (2, b'i') => if is(b, b"in") { Some(Token::Kw(Keyword::In)) } else if is(b, b"is") { Some(Token::Kw(Keyword::Is)) } else { None },
        (2, b'm') => if is(b, b"my") { Some(Token::Kw(Keyword::My)) } else { None },
        (2, b'o') => if is(b, b"or") { Some(Token::Kw(Keyword::Or)) } else if is(b, b"of") { Some(Token::Kw(Keyword::Of)) } else { None },
        (3, b'a') => if is(b, b"and") { Some(Token::Kw(Keyword::And)) } else if is(b, b"asc") { Some(Token::Kw(Keyword::Asc)) } else if is(b, b"add") { Some(Token::Kw(Keyword::Add)) } else { None },
        (3, b'c') => if is(b, b"cal") { Some(Token::Kw(Keyword::Cal)) } else { None },
        (3, b'd') => if is(b, b"dek") { Some(Token::Excluded(ExcludedWord::Dek)) } else { None },
        (3, b'f') => if is(b, b"for") { Some(Token::Kw(Keyword::For)) } else { None },
        (3, b'k') => if is(b, b"key") { Some(Token::Excluded(ExcludedWord::Key)) } else { None },
        (3, b'l') => if is(b, b"let") { Some(Token::Kw(Keyword::Let)) } else { None },
        (3, b'n') => if is(b, b"not") { Some(Token::Kw(Keyword::Not)) } else { None },
        (3, b's') => if is(b, b"set") { Some(Token::Kw(Keyword::Set)) } else { None },
        (4, b'd') => if is(b, b"desc") { Some(Token::Kw(Keyword::Desc)) } else if is(b, b"diff") { Some(Token::Kw(Keyword::Diff)) } else if is(b, b"drop") { Some(Token::Excluded(ExcludedWord::Drop)) } else { None },
        (4, b'f') => if is(b, b"from") { Some(Token::Kw(Keyword::From)) } else { None },
        (4, b'l') => if is(b, b"like") { Some(Token::Kw(Keyword::Like)) } else { None },
        (4, b'n') => if is(b, b"null") { Some(Token::Kw(Keyword::Null)) } else { None },
        (4, b's') => if is(b, b"seal") { Some(Token::Excluded(ExcludedWord::Seal)) } else { None },
        (4, b't') => if is(b, b"true") { Some(Token::Kw(Keyword::True)) } else { None },
        (4, b'w') => if is(b, b"with") { Some(Token::Kw(Keyword::With)) } else { None },
        (5, b'a') => if is(b, b"about") { Some(Token::Kw(Keyword::About)) } else { None },
        (5, b'b') => if is(b, b"batch") { Some(Token::Kw(Keyword::Batch)) } else { None },
        (5, b'c') => if is(b, b"count") { Some(Token::Kw(Keyword::Count)) } else { None },
        (5, b'e') => if is(b, b"erase") { Some(Token::Excluded(ExcludedWord::Erase)) } else { None },
        (5, b'f') => if is(b, b"first") { Some(Token::Kw(Keyword::First)) } else if is(b, b"false") { Some(Token::Kw(Keyword::False)) } else { None },
        (5, b'g') => if is(b, b"group") { Some(Token::Kw(Keyword::Group)) } else if is(b, b"grant") { Some(Token::Excluded(ExcludedWord::Grant)) } else { None },
        (5, b'i') => if is(b, b"index") { Some(Token::Excluded(ExcludedWord::Index)) } else { None },
        (5, b'l') => if is(b, b"limit") { Some(Token::Kw(Keyword::Limit)) } else { None },
        (5, b'o') => if is(b, b"order") { Some(Token::Kw(Keyword::Order)) } else { None },
        (5, b'p') => if is(b, b"purge") { Some(Token::Excluded(ExcludedWord::Purge)) } else { None },
        (5, b's') => if is(b, b"scope") { Some(Token::Kw(Keyword::Scope)) } else if is(b, b"since") { Some(Token::Kw(Keyword::Since)) } else if is(b, b"store") { Some(Token::Excluded(ExcludedWord::Store)) } else { None },
        (5, b'u') => if is(b, b"union") { Some(Token::Kw(Keyword::Union)) } else { None },
        (5, b'w') => if is(b, b"where") { Some(Token::Kw(Keyword::Where)) } else if is(b, b"write") { Some(Token::Excluded(ExcludedWord::Write)) } else { None },
        (6, b'a') => if is(b, b"agency") { Some(Token::Kw(Keyword::Agency)) } else { None },
        (6, b'b') => if is(b, b"budget") { Some(Token::Kw(Keyword::Budget)) } else { None },
        (6, b'c') => if is(b, b"create") { Some(Token::Excluded(ExcludedWord::Create)) } else { None },
        (6, b'd') => if is(b, b"define") { Some(Token::Kw(Keyword::Define)) } else if is(b, b"delete") { Some(Token::Excluded(ExcludedWord::Delete)) } else { None },
        (6, b'e') => if is(b, b"except") { Some(Token::Kw(Keyword::Except)) } else if is(b, b"exists") { Some(Token::Kw(Keyword::Exists)) } else { None },
        (6, b'f') => if is(b, b"format") { Some(Token::Kw(Keyword::Format)) } else if is(b, b"footer") { Some(Token::Kw(Keyword::Footer)) } else if is(b, b"forget") { Some(Token::Excluded(ExcludedWord::Forget)) } else { None },
        (6, b'h') => if is(b, b"hashes") { Some(Token::Kw(Keyword::Hashes)) } else if is(b, b"header") { Some(Token::Kw(Keyword::Header)) } else { None },
        (6, b'i') => if is(b, b"insert") { Some(Token::Excluded(ExcludedWord::Insert)) } else { None },
        (6, b'm') => if is(b, b"master") { Some(Token::Excluded(ExcludedWord::Master)) } else { None },
        (6, b'o') => if is(b, b"offset") { Some(Token::Kw(Keyword::Offset)) } else { None },
        (6, b'p') => if is(b, b"policy") { Some(Token::Excluded(ExcludedWord::Policy)) } else { None },
        (6, b'r') => if is(b, b"recall") { Some(Token::Kw(Keyword::Recall)) } else if is(b, b"recent") { Some(Token::Kw(Keyword::Recent)) } else if is(b, b"revert") { Some(Token::Kw(Keyword::Revert)) } else if is(b, b"reason") { Some(Token::Kw(Keyword::Reason)) } else if is(b, b"rotate") { Some(Token::Excluded(ExcludedWord::Rotate)) } else if is(b, b"revoke") { Some(Token::Excluded(ExcludedWord::Revoke)) } else { None },
        (6, b's') => if is(b, b"select") { Some(Token::Kw(Keyword::Select)) } else if is(b, b"stream") { Some(Token::Kw(Keyword::Stream)) } else if is(b, b"secret") { Some(Token::Excluded(ExcludedWord::Secret)) } else if is(b, b"schema") { Some(Token::Excluded(ExcludedWord::Schema)) } else { None },
        (6, b't') => if is(b, b"thread") { Some(Token::Kw(Keyword::Thread)) } else { None },
        (6, b'u') => if is(b, b"unseal") { Some(Token::Excluded(ExcludedWord::Unseal)) } else { None },
        (7, b'b') => if is(b, b"between") { Some(Token::Kw(Keyword::Between)) } else { None },
        (7, b'c') => if is(b, b"consent") { Some(Token::Excluded(ExcludedWord::Consent)) } else { None },
        (7, b'd') => if is(b, b"destroy") { Some(Token::Excluded(ExcludedWord::Destroy)) } else if is(b, b"decrypt") { Some(Token::Excluded(ExcludedWord::Decrypt)) } else { None },
        (7, b'e') => if is(b, b"explain") { Some(Token::Kw(Keyword::Explain)) } else if is(b, b"exclude") { Some(Token::Kw(Keyword::Exclude)) } else if is(b, b"extends") { Some(Token::Kw(Keyword::Extends)) } else if is(b, b"element") { Some(Token::Kw(Keyword::Element)) } else if is(b, b"encrypt") { Some(Token::Excluded(ExcludedWord::Encrypt)) } else { None },
        (7, b'h') => if is(b, b"history") { Some(Token::Kw(Keyword::History)) } else { None },
        (7, b'i') => if is(b, b"include") { Some(Token::Kw(Keyword::Include)) } else { None },
        (7, b'o') => if is(b, b"objects") { Some(Token::Kw(Keyword::Objects)) } else { None },
        (7, b'p') => if is(b, b"project") { Some(Token::Kw(Keyword::Project)) } else { None },
        (8, b'a') => if is(b, b"assemble") { Some(Token::Kw(Keyword::Assemble)) } else { None },
        (8, b'c') => if is(b, b"coalesce") { Some(Token::Kw(Keyword::Coalesce)) } else { None },
        (8, b'd') => if is(b, b"describe") { Some(Token::Kw(Keyword::Describe)) } else { None },
        (8, b'p') => if is(b, b"priority") { Some(Token::Kw(Keyword::Priority)) } else { None },
        (8, b'r') => if is(b, b"restrict") { Some(Token::Excluded(ExcludedWord::Restrict)) } else { None },
        (8, b's') => if is(b, b"subjects") { Some(Token::Kw(Keyword::Subjects)) } else { None },
        (8, b't') => if is(b, b"template") { Some(Token::Kw(Keyword::Template)) } else if is(b, b"truncate") { Some(Token::Excluded(ExcludedWord::Truncate)) } else { None },
        (8, b'u') => if is(b, b"undefine") { Some(Token::Kw(Keyword::Undefine)) } else { None },
        (9, b'i') => if is(b, b"intersect") { Some(Token::Kw(Keyword::Intersect)) } else { None },
        (9, b'k') => if is(b, b"knowledge") { Some(Token::Kw(Keyword::Knowledge)) } else { None },
        (9, b'l') => if is(b, b"lifecycle") { Some(Token::Kw(Keyword::Lifecycle)) } else { None },
        (9, b'm') => if is(b, b"migration") { Some(Token::Excluded(ExcludedWord::Migration)) } else { None },
        (9, b'p') => if is(b, b"partition") { Some(Token::Excluded(ExcludedWord::Partition)) } else { None },
        (9, b's') => if is(b, b"supersede") { Some(Token::Kw(Keyword::Supersede)) } else { None },
        (10, b'p') => if is(b, b"preference") { Some(Token::Kw(Keyword::Preference)) } else if is(b, b"permission") { Some(Token::Kw(Keyword::Permission)) } else { None },
        (11, b'i') => if is(b, b"interaction") { Some(Token::Kw(Keyword::Interaction)) } else { None },
        (11, b'o') => if is(b, b"observation") { Some(Token::Kw(Keyword::Observation)) } else { None },
        (12, b'e') => if is(b, b"element_omit") { Some(Token::Kw(Keyword::ElementOmit)) } else { None },
        (12, b's') => if is(b, b"source_break") { Some(Token::Kw(Keyword::SourceBreak)) } else { None },
        (14, b'c') => if is(b, b"contradictions") { Some(Token::Kw(Keyword::Contradictions)) } else { None },
        (15, b'e') => if is(b, b"element_summary") { Some(Token::Kw(Keyword::ElementSummary)) } else { None },
        _ => None,
    }
}
