//! Time humanization (§10.3.4) against an injected clock, and RFC 3339 text
//! for the `WITH iso_timestamps` opt-out. The clock is a parameter, never read
//! from the system, so rendering is deterministic (§17.4).
//!
//! The calendar is `jiff`'s: this module turns epoch milliseconds into civil
//! UTC fields with it and only decides how they are written. It is also the
//! toolchain's one writer of instants as RFC 3339 text: the interpreter's
//! envelope and history fields call [`iso`] too.

use jiff::SignedDuration;
use jiff::civil::{Date, DateTime};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// 1970-01-01T00:00:00, the civil UTC instant epoch milliseconds count from.
const EPOCH: DateTime = jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0);

/// The Gregorian calendar repeats every 400 years, which are exactly 146,097 days.
const CYCLE_MS: i64 = 146_097 * DAY;

/// The civil UTC date and time of an epoch-ms instant, or `None` outside the years
/// -9999..=9999 that `jiff` represents. Exists so that every crate reading calendar fields
/// off an instant (this one, and the interpreter's `this month` / `this week`) asks `jiff`
/// the same way.
pub fn utc(ms: i64) -> Option<DateTime> {
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(ts) => Some(jiff::tz::Offset::UTC.to_datetime(ts)),
        // A jiff timestamp stops a day short of the civil range (it must fit every offset).
        Err(_) => EPOCH.checked_add(SignedDuration::from_millis(ms)).ok(),
    }
}

/// Epoch milliseconds of midnight UTC starting `date`: the inverse of [`utc`] for whole
/// days, used to turn calendar periods (a month, a year) back into instants.
pub fn day_start_ms(date: Date) -> i64 {
    // Every jiff date is within ±2^48 ms of the epoch, so the i128 always fits.
    i64::try_from(date.to_datetime(jiff::civil::Time::midnight()).duration_since(EPOCH).as_millis()).unwrap_or(i64::MAX)
}

/// The year and the rest of an instant's civil fields, for every i64 instant. Inside
/// `jiff`'s range this is [`utc`]; outside it (about ±292 million years fit in an i64 of
/// milliseconds) the instant is moved by whole 400-year cycles into the range, read there,
/// and the cycles are added back to the year, so the text is the proleptic Gregorian one.
fn fields(ms: i64) -> (i64, DateTime) {
    if let Some(dt) = utc(ms) {
        return (i64::from(dt.year()), dt);
    }
    let cycles = ms.div_euclid(CYCLE_MS);
    let dt = utc(ms.rem_euclid(CYCLE_MS)).unwrap_or(EPOCH);
    (i64::from(dt.year()) + 400 * cycles, dt)
}

/// RFC 3339 text of an epoch-ms instant in UTC, with milliseconds only when non-zero.
pub fn iso(ms: i64) -> String {
    let (y, t) = fields(ms);
    let (m, d, h, mi, s, milli) = (t.month(), t.day(), t.hour(), t.minute(), t.second(), t.millisecond());
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
        let (y, t) = fields(ms);
        format!("{y:04}-{:02}-{:02}", t.month(), t.day())
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
    match age {
        a if a < HOUR => format!("{}m ago", a / MINUTE),
        a if a < DAY => format!("{}h ago", a / HOUR),
        _ if days < 2 => "yesterday".to_string(),
        _ if days < 7 => format!("{days}d ago"),
        _ if days < 30 => format!("{}w ago", days / 7),
        _ => {
            // Only the calendar rows need the date; the rows above are hot and cheap.
            let (y, t) = fields(then);
            let month = MONTHS.get(usize::try_from(t.month() - 1).unwrap_or(0)).copied().unwrap_or("Jan");
            match days {
                _ if days < 365 => format!("{month} {}", t.day()),
                _ if days < 730 => format!("{month} {y}"),
                _ => y.to_string(),
            }
        }
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

    #[test]
    fn calendar_edges() {
        // The epoch and either side of it.
        assert_eq!(iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso(-DAY), "1969-12-31T00:00:00Z");
        assert_eq!(iso(-2_208_988_800_000), "1900-01-01T00:00:00Z");
        // Leap days: 2000 and 2024 have one, 1900 and 2100 do not.
        assert_eq!(iso(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso(1_709_164_800_000), "2024-02-29T00:00:00Z");
        assert_eq!(iso(-2_203_891_200_000), "1900-03-01T00:00:00Z");
        assert_eq!(iso(4_107_542_400_000), "2100-03-01T00:00:00Z");
        // The last instant of year 9999, and the years jiff does not hold.
        assert_eq!(iso(253_402_300_799_999), "9999-12-31T23:59:59.999Z");
        assert_eq!(iso(253_402_300_800_000), "10000-01-01T00:00:00Z");
        assert_eq!(iso(-62_167_219_200_000), "0000-01-01T00:00:00Z");
        assert_eq!(iso(-377_705_116_800_000), "-9999-01-01T00:00:00Z");
        assert_eq!(iso(-377_705_116_800_001), "-10000-12-31T23:59:59.999Z");
        assert_eq!(iso(i64::MAX), "292278994-08-17T07:12:55.807Z");
        assert_eq!(iso(i64::MIN), "-292275055-05-16T16:47:04.192Z");
        assert_eq!(date_or_iso(253_402_214_400_000), "9999-12-31");
        assert_eq!(relative(-2_208_988_800_000, NOW), "1900");
        assert_eq!(relative(i64::MIN, NOW), "-292275055");
    }

    #[test]
    fn utc_round_trips_whole_days() {
        for day in [-1000, -1, 0, 1, 59, 365, 20_000, 20_518, 2_932_896] {
            let date = utc(day * DAY).expect("inside jiff's years").date();
            assert_eq!(day_start_ms(date), day * DAY, "{date}");
        }
        assert_eq!(utc(253_402_300_800_000), None);
    }
}
