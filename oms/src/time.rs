//! Datetime conversion (OMS §4.8): RFC 3339 text to Unix epoch milliseconds,
//! `epoch_ms = floor(timestamp * 1000)`.
//!
//! Two jobs, two owners. What a datetime's *text* may look like is OMS's rule and is
//! checked here, byte by byte, because `jiff`'s own parser accepts far more than RFC 3339
//! (ISO 8601 basic form, minutes without seconds, hour-only offsets, bracketed time zone
//! annotations, six-digit years, commas for the decimal point) and reads a leap second
//! differently. The *calendar* — month lengths, leap years, days since 1970 — is `jiff`'s.

use jiff::civil::DateTime;

/// 1970-01-01T00:00:00, the civil UTC instant epoch milliseconds count from.
const EPOCH: DateTime = jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0);

/// Parses an RFC 3339 date-time (`2026-01-15T10:00:00.000Z`, offsets like
/// `+02:00`, `t`/space separators and lowercase `z` accepted) into epoch
/// milliseconds, flooring sub-millisecond digits. `None` if malformed.
///
/// Accepted, exactly: `YYYY-MM-DD`, a `T`, `t` or space, `hh:mm:ss`, optionally `.` and one
/// or more digits, then `Z`, `z` or `±hh:mm` (hours 00–23). Years 0000–9999. A leap second
/// (`:60`) is folded onto the next second, as POSIX time does.
pub fn parse_rfc3339_ms(s: &str) -> Option<i64> {
    let f = Fields::scan(s)?;
    // jiff checks the date (day within the month's length) and the time of day.
    let civil = DateTime::new(f.year, f.month, f.day, f.hour, f.minute, f.second.min(59), 0).ok()?;
    let leap = i64::from(f.second == 60);
    let since_epoch = match jiff::tz::Offset::UTC.to_timestamp(civil) {
        Ok(ts) => ts.as_second(),
        // A jiff timestamp stops a day short of the civil range (it must fit every offset).
        Err(_) => civil.duration_since(EPOCH).as_secs(),
    };
    let secs = since_epoch + leap - i64::from(f.offset_min) * 60;
    Some(secs * 1000 + f.frac_ms)
}

/// The numbers of a date-time whose text has RFC 3339's shape.
struct Fields {
    year: i16,
    month: i8,
    day: i8,
    hour: i8,
    minute: i8,
    /// 0–60: 60 is a leap second.
    second: i8,
    /// The first three fraction digits as milliseconds; further digits are floored away.
    frac_ms: i64,
    /// Minutes east of UTC.
    offset_min: i16,
}

impl Fields {
    /// Reads the fields if `s` has exactly RFC 3339's `date-time` shape (with the separator
    /// and `z` leniency above); ranges other than the offset's and the second's are left to
    /// the calendar.
    fn scan(s: &str) -> Option<Fields> {
        let b = s.as_bytes();
        if b.len() < 20 {
            return None;
        }
        let num = |from: usize, len: usize| -> Option<i16> {
            let part = b.get(from..from + len)?;
            if !part.iter().all(u8::is_ascii_digit) {
                return None;
            }
            Some(part.iter().fold(0i16, |acc, d| acc * 10 + i16::from(d - b'0')))
        };
        let two = |from: usize| num(from, 2).and_then(|n| i8::try_from(n).ok());
        if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') || b[13] != b':' || b[16] != b':' {
            return None;
        }
        let (year, month, day) = (num(0, 4)?, two(5)?, two(8)?);
        let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
        if second > 60 {
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
                let (oh, om) = (num(i + 1, 2)?, num(i + 4, 2)?);
                if oh > 23 || om > 59 {
                    return None;
                }
                let m = oh * 60 + om;
                if *sign == b'+' { m } else { -m }
            }
            _ => return None,
        };
        Some(Fields { year, month, day, hour, minute, second, frac_ms, offset_min })
    }
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

    #[test]
    fn calendar_edges() {
        // Leap years: every 4th, not every 100th, every 400th.
        assert_eq!(parse_rfc3339_ms("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(parse_rfc3339_ms("1900-02-29T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_ms("2100-02-29T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_ms("2023-02-29T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_ms("2026-04-31T00:00:00Z"), None);
        // Either side of the epoch, also across it by an offset.
        assert_eq!(parse_rfc3339_ms("1969-12-31T23:59:59Z"), Some(-1000));
        assert_eq!(parse_rfc3339_ms("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_rfc3339_ms("1969-12-31T23:00:00-01:00"), Some(0));
        assert_eq!(parse_rfc3339_ms("1900-01-01T00:00:00Z"), Some(-2_208_988_800_000));
        // The first and last instants four digits of year allow.
        assert_eq!(parse_rfc3339_ms("0000-01-01T00:00:00Z"), Some(-62_167_219_200_000));
        assert_eq!(parse_rfc3339_ms("9999-12-31T23:59:59.999Z"), Some(253_402_300_799_999));
        assert_eq!(parse_rfc3339_ms("9999-12-31T23:59:59-23:59"), Some(253_402_387_139_000));
        // A leap second is the next second; a 61st second is no second.
        assert_eq!(parse_rfc3339_ms("2016-12-31T23:59:60Z"), Some(1_483_228_800_000));
        assert_eq!(parse_rfc3339_ms("2016-12-31T23:59:61Z"), None);
        assert_eq!(parse_rfc3339_ms("2026-01-15T24:00:00Z"), None);
        assert_eq!(parse_rfc3339_ms("2026-01-15T10:60:00Z"), None);
    }

    /// What `jiff`'s own parser takes but RFC 3339 (and so OMS §4.8) does not.
    #[test]
    fn stricter_than_jiff() {
        for s in [
            "2026-01-15T10:00Z",
            "2026-01-15T10:00:00+02",
            "2026-01-15T10:00:00+0200",
            "20260115T100000Z",
            "2026-01-15T10:00:00,5Z",
            "+002026-01-15T10:00:00Z",
            "2026-01-15T10:00:00Z[UTC]",
            "2026-01-15T10:00:00+24:00",
            "2026-01-15T10:00:00+02:00:00",
            "2026-01-15T10:00:00.1234567891Z ",
        ] {
            assert_eq!(parse_rfc3339_ms(s), None, "{s}");
        }
        // More fraction digits than jiff keeps (nine) are floored, not refused.
        assert_eq!(parse_rfc3339_ms("2026-01-15T10:00:00.1234567891Z"), Some(1_768_471_200_123));
        assert_eq!(parse_rfc3339_ms("2026-01-15 10:00:00z"), Some(1_768_471_200_000));
        assert_eq!(parse_rfc3339_ms("2026-01-15t10:00:00-00:00"), Some(1_768_471_200_000));
    }
}
