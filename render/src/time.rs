//! Time humanization (§10.3.4) against an injected clock, and RFC 3339 text
//! for the `WITH iso_timestamps` opt-out. The clock is a parameter, never read
//! from the system, so rendering is deterministic (§17.4).

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// Proleptic Gregorian (year, month 1–12, day 1–31) of days since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, usize, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { yoe + era * 400 + 1 } else { yoe + era * 400 };
    (y, usize::try_from(m).unwrap_or(1), d)
}

/// RFC 3339 text of an epoch-ms instant in UTC, with milliseconds only when non-zero.
pub fn iso(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(DAY));
    let rem = ms.rem_euclid(DAY);
    let (h, mi, s, milli) = (rem / HOUR, rem % HOUR / MINUTE, rem % MINUTE / 1000, rem % 1000);
    if milli == 0 {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
    }
}

/// A calendar date (`2026-03-15`) when the instant is midnight UTC, else full RFC 3339.
/// Used for deadlines, which are dates to meet rather than ages.
pub fn date_or_iso(ms: i64) -> String {
    if ms.rem_euclid(DAY) == 0 {
        let (y, m, d) = civil_from_days(ms.div_euclid(DAY));
        format!("{y:04}-{m:02}-{d:02}")
    } else {
        iso(ms)
    }
}

/// §10.3.4: the age of `then` at `now` in words. Under an hour `23m ago`, under a day `3h ago`,
/// under a week `yesterday` / `2d ago`, under 30 days `1w ago`…`4w ago`, under a year `Mar 1`,
/// under two years `Mar 2025`, older `2024`. The spec's ">= 1 year" row gives both `Mar 2025`
/// and `2024`; we use month and year in the second year and the year alone after that
/// (docs/spec-decisions-render.md). An instant in the future is not an age: it is shown as RFC 3339.
pub fn relative(then: i64, now: i64) -> String {
    let age = now.saturating_sub(then);
    if age < 0 {
        return iso(then);
    }
    let days = age / DAY;
    let (y, m, d) = civil_from_days(then.div_euclid(DAY));
    let month = MONTHS.get(m.saturating_sub(1)).copied().unwrap_or("Jan");
    match age {
        a if a < HOUR => format!("{}m ago", a / MINUTE),
        a if a < DAY => format!("{}h ago", a / HOUR),
        _ if days < 2 => "yesterday".to_string(),
        _ if days < 7 => format!("{days}d ago"),
        _ if days < 30 => format!("{}w ago", days / 7),
        _ if days < 365 => format!("{month} {d}"),
        _ if days < 730 => format!("{month} {y}"),
        _ => y.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_773_565_200_000; // 2026-03-15T09:00:00Z

    #[test]
    fn every_row_of_the_table() {
        let ago = |ms: i64| relative(NOW - ms, NOW);
        assert_eq!(ago(23 * MINUTE), "23m ago");
        assert_eq!(ago(0), "0m ago");
        assert_eq!(ago(3 * HOUR), "3h ago");
        assert_eq!(ago(DAY + HOUR), "yesterday");
        assert_eq!(ago(2 * DAY), "2d ago");
        assert_eq!(ago(6 * DAY), "6d ago");
        assert_eq!(ago(14 * DAY), "2w ago");
        assert_eq!(ago(29 * DAY), "4w ago");
        assert_eq!(ago(14 * DAY + 30 * DAY), "Jan 30");
        assert_eq!(ago(400 * DAY), "Feb 2025");
        assert_eq!(ago(900 * DAY), "2023");
        assert_eq!(relative(NOW + HOUR, NOW), "2026-03-15T10:00:00Z");
    }

    #[test]
    fn iso_and_dates() {
        assert_eq!(iso(NOW), "2026-03-15T09:00:00Z");
        assert_eq!(iso(NOW + 5), "2026-03-15T09:00:00.005Z");
        assert_eq!(date_or_iso(NOW - 9 * HOUR), "2026-03-15");
        assert_eq!(iso(-1), "1969-12-31T23:59:59.999Z");
    }
}
