//! Number literals to values without the general-purpose float parser.
//!
//! Almost every decimal in a query is short (`0.8`, `0.75`), and for those
//! the exact answer is one division: when the digits, read as an integer,
//! fit in 53 bits and the power of ten is itself exact, IEEE division rounds
//! the quotient correctly, which is the value `str::parse` returns (Clinger's
//! fast path). Anything longer goes to `str::parse`.

use crate::ast::Number;

/// Powers of ten that an `f64` holds exactly.
const EXACT_POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// `-?digits(.digits)?` as written by the lexer, to the nearest `f64`: by
/// [`short_number`] when it has at most 15 digits, else by `str::parse`.
pub(crate) fn decimal(text: &str) -> Option<f64> {
    match short_number(text) {
        Some(Number::Float(f)) => Some(f),
        // Below 10^15, so exact in an f64; negated as a float so that `-0` is -0.0, as
        // `str::parse` reads it (an integer has no negative zero).
        Some(Number::Int(n)) if text.starts_with('-') => Some(-(n.unsigned_abs() as f64)),
        Some(Number::Int(n)) => Some(n as f64),
        None => text.parse().ok(),
    }
}

/// A number as the lexer writes it (`-?digits(.digits)?`) with at most 15
/// digits, in one pass: an integer when it has no point, otherwise a decimal
/// by Clinger's fast path (module docs). `None` for anything longer or
/// otherwise shaped, which the general path then reads.
#[inline]
pub(crate) fn short_number(text: &str) -> Option<Number> {
    let bytes = text.as_bytes();
    let (negative, body) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    if body.is_empty() || body.len() > 16 {
        return None;
    }
    let mut mantissa = 0u64;
    let mut point = None;
    for (i, &b) in body.iter().enumerate() {
        match b {
            b'0'..=b'9' => mantissa = mantissa * 10 + u64::from(b - b'0'),
            b'.' if point.is_none() && i > 0 && i + 1 < body.len() => point = Some(i),
            _ => return None,
        }
    }
    let digits = body.len() - usize::from(point.is_some());
    if digits > 15 {
        return None;
    }
    Some(match point {
        // Below 10^15, so the conversion is exact and the negation cannot overflow.
        None => Number::Int(if negative { -(mantissa as i64) } else { mantissa as i64 }),
        Some(at) => {
            let value = mantissa as f64 / EXACT_POW10[body.len() - at - 1];
            Number::Float(if negative { -value } else { value })
        }
    })
}

/// Digits only, to a `u64`; `None` for anything else or on overflow (the
/// caller says which). The general parser costs three times this per `LIMIT 10`.
pub(crate) fn unsigned(text: &str) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.bytes().try_fold(0u64, |acc, b| match b {
        b'0'..=b'9' => acc.checked_mul(10)?.checked_add(u64::from(b - b'0')),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Number, decimal, short_number, unsigned};
    use proptest::prelude::*;

    #[test]
    fn agrees_with_the_standard_parser_on_written_examples() {
        for t in [
            "0.8",
            "0.75",
            "-0.5",
            "1.0",
            "0.1",
            "0.3",
            "123456789012345.0",
            "1234567890.12345",
            "0.000000000000001",
            "-999999999999999",
            "9007199254740993.5",
            "0.30000000000000004",
            "1.7976931348623157",
            "12",
            "00.10",
        ] {
            assert_eq!(decimal(t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
        }
    }

    #[test]
    fn unsigned_agrees_with_the_standard_parser_at_the_edges() {
        for t in [
            "0",
            "10",
            "007",
            "18446744073709551615",
            "18446744073709551616",
            "",
            "-1",
            "1.0",
            "+1",
            "99999999999999999999",
        ] {
            assert_eq!(unsigned(t), t.parse::<u64>().ok().filter(|_| !t.starts_with('+')), "{t}");
        }
    }

    proptest! {
        #[test]
        fn unsigned_agrees_with_the_standard_parser(t in "[0-9]{1,22}") {
            prop_assert_eq!(unsigned(&t), t.parse::<u64>().ok());
        }

        /// Integers as `i64::from_str` reads them, decimals bit for bit as `f64::from_str`.
        #[test]
        fn short_numbers_agree_with_the_standard_parsers(t in "-?[0-9]{1,17}(\\.[0-9]{1,17})?") {
            match short_number(&t) {
                Some(Number::Int(n)) => prop_assert_eq!(Some(n), t.parse::<i64>().ok()),
                Some(Number::Float(f)) => {
                    prop_assert!(t.contains('.'));
                    prop_assert_eq!(Some(f.to_bits()), t.parse::<f64>().ok().map(f64::to_bits));
                }
                None => prop_assert!(t.len() - usize::from(t.starts_with('-')) > 15, "{}", t),
            }
        }

        #[test]
        fn agrees_with_the_standard_parser(int in "-?[0-9]{1,12}", frac in "[0-9]{0,12}") {
            let t = if frac.is_empty() { int } else { format!("{int}.{frac}") };
            prop_assert_eq!(decimal(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{}", t);
        }
    }
}
