//! Datetime conversion (OMS §4.8): RFC 3339 text to Unix epoch milliseconds,
//! `epoch_ms = floor(timestamp * 1000)`, without a date-time dependency.

/// Parses an RFC 3339 date-time (`2026-01-15T10:00:00.000Z`, offsets like
/// `+02:00`, `t`/space separators and lowercase `z` accepted) into epoch
/// milliseconds, flooring sub-millisecond digits. `None` if malformed.
pub fn parse_rfc3339_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(part.iter().fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0')))
    };
    let year = num(0, 4)?;
    let month = num(5, 2)?;
    let day = num(8, 2)?;
    let hour = num(11, 2)?;
    let minute = num(14, 2)?;
    let second = num(17, 2)?;
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0i64;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        let digits = &b[start..i.min(start + 3)];
        frac_ms = digits.iter().fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'));
        for _ in digits.len()..3 {
            frac_ms *= 10;
        }
    }
    let offset_min = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let oh = num(i + 1, 2)?;
            let om = num(i + 4, 2)?;
            if oh > 23 || om > 59 {
                return None;
            }
            let m = oh * 60 + om;
            if *sign == b'+' { m } else { -m }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    // A leap second (:60) is folded onto the next second, as POSIX time does.
    let secs = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_min * 60;
    Some(secs * 1000 + frac_ms)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::parse_rfc3339_ms;

    #[test]
    fn spec_example() {
        assert_eq!(parse_rfc3339_ms("2026-01-15T10:00:00.000Z"), Some(1_768_471_200_000));
        assert_eq!(parse_rfc3339_ms("2026-01-15T10:00:00Z"), Some(1_768_471_200_000));
        assert_eq!(parse_rfc3339_ms("2026-01-15T12:00:00+02:00"), Some(1_768_471_200_000));
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339_ms("1969-12-31T23:59:59.9999Z"), Some(-1));
        assert_eq!(parse_rfc3339_ms("2024-02-29T00:00:00.1239Z"), Some(1_709_164_800_123));
    }

    #[test]
    fn rejects_malformed() {
        for s in [
            "",
            "2026-01-15",
            "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-01-15T10:00:00",
            "2026-01-15T10:00:00.Z",
            "x026-01-15T10:00:00Z",
        ] {
            assert_eq!(parse_rfc3339_ms(s), None, "{s}");
        }
    }
}
