//! Time expressions (§5.2 `time`: "natural language or epoch"; §9.3 SINCE;
//! §9.7 BETWEEN; §8.4 AS OF), resolved against the injected clock so that
//! the same query at the same "now" always selects the same grains.
//!
//! Every expression denotes a half-open interval `[from, to)` of epoch
//! milliseconds, in UTC (docs/spec-decisions-interp.md, T1–T4):
//!
//! | expression | interval |
//! |---|---|
//! | `last 7 days`, `past 3 hours`, `last week`, `last month` | the window ending now (week = 7 days, month = 30, year = 365) |
//! | `today`, `yesterday`, `this week` (ISO, from Monday), `this month`, `this year` | the calendar period |
//! | `3 days ago` | that calendar day |
//! | `since <expression>` | from the start of the expression to now |
//! | `2026`, `2026-03`, `2026-03-01` | the calendar year, month, day |
//! | `2026-03-01T09:30:00Z` (RFC 3339) | that second |
//! | `1709251200` (number, or digits other than a 4-digit year) | that second (epoch seconds; ≥ 10^11 is read as milliseconds) |
//! | `now` | this millisecond |

use cal_grammar::{Code, Diagnostic, Span};
use cal_render::time::day_start_ms;
use jiff::civil::Date;

const SECOND: i64 = 1000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// A half-open interval of epoch milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    /// First millisecond inside.
    pub from: i64,
    /// First millisecond after.
    pub to: i64,
}

impl Interval {
    /// Whether `t` lies inside.
    pub fn contains(&self, t: i64) -> bool {
        self.from <= t && t < self.to
    }
}

/// RFC 3339 text of an epoch-ms instant, UTC, millisecond precision when needed. The
/// envelope, HISTORY and DESCRIBE write instants the way rendered grains do, so this is
/// `cal_render::time::iso` under the name the interpreter's modules import.
pub fn format_rfc3339(ms: i64) -> String {
    cal_render::time::iso(ms)
}

/// The calendar period (`first ..= last` day) as an interval from the first day's midnight
/// to the midnight after the last. Computed from the last day rather than "first day of the
/// next period", which for 9999 would be outside the calendar.
fn days(first: Date, last: Date) -> Interval {
    Interval { from: day_start_ms(first), to: day_start_ms(last).saturating_add(DAY) }
}

/// The UTC calendar date `now` falls on, `None` outside the years -9999..=9999.
fn date_of(ms: i64) -> Option<Date> {
    cal_render::time::utc(ms).map(|dt| dt.date())
}

fn day_start(ms: i64) -> i64 {
    ms.div_euclid(DAY) * DAY
}

fn unit_ms(word: &str) -> Option<i64> {
    let w = word.trim_end_matches('s');
    Some(match w {
        "minute" | "min" | "m" => MINUTE,
        "hour" | "hr" | "h" => HOUR,
        "day" | "d" => DAY,
        "week" | "wk" | "w" => 7 * DAY,
        "month" | "mo" => 30 * DAY,
        "year" | "yr" | "y" => 365 * DAY,
        _ => return None,
    })
}

fn digits(s: &str) -> Option<i64> {
    (!s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// An epoch number: seconds, or milliseconds from 10^11 on (docs/spec-decisions-interp.md, T3).
pub fn epoch_ms(n: f64) -> i64 {
    if n.abs() >= 1e11 { n.floor() as i64 } else { (n * 1000.0).floor() as i64 }
}

fn absolute(s: &str) -> Option<Interval> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(digits);
    match b.len() {
        4 => {
            let first = Date::new(i16::try_from(num(0..4)?).ok()?, 1, 1).ok()?;
            Some(days(first, first.last_of_year()))
        }
        7 if b[4] == b'-' => {
            let (y, m) = (i16::try_from(num(0..4)?).ok()?, i8::try_from(num(5..7)?).ok()?);
            let first = Date::new(y, m, 1).ok()?;
            Some(days(first, first.last_of_month()))
        }
        10 if b[4] == b'-' && b[7] == b'-' => {
            let t = oms::time::parse_rfc3339_ms(&format!("{s}T00:00:00Z"))?;
            Some(Interval { from: t, to: t.saturating_add(DAY) })
        }
        _ => {
            let t = oms::time::parse_rfc3339_ms(s)?;
            Some(Interval { from: t, to: t.saturating_add(SECOND) })
        }
    }
}

fn relative(s: &str, now: i64) -> Option<Interval> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let window = |len: i64| Interval { from: now.saturating_sub(len), to: now.saturating_add(1) };
    let today = day_start(now);
    match words.as_slice() {
        ["now"] => Some(Interval { from: now, to: now.saturating_add(1) }),
        ["today"] => Some(Interval { from: today, to: today.saturating_add(DAY) }),
        ["yesterday"] => Some(Interval { from: today.saturating_sub(DAY), to: today }),
        ["this", "week"] => {
            // ISO weeks start on Monday.
            let back = i64::from(date_of(now)?.weekday().to_monday_zero_offset());
            let monday = today.saturating_sub(back * DAY);
            Some(Interval { from: monday, to: monday.saturating_add(7 * DAY) })
        }
        ["this", "month"] => {
            let d = date_of(now)?;
            Some(days(d.first_of_month(), d.last_of_month()))
        }
        ["this", "year"] => {
            let d = date_of(now)?;
            Some(days(d.first_of_year(), d.last_of_year()))
        }
        ["last" | "past" | "previous", unit] => unit_ms(unit).map(window),
        ["last" | "past" | "previous", n, unit] => Some(window(digits(n)?.checked_mul(unit_ms(unit)?)?)),
        [n, unit, "ago"] if unit.trim_end_matches('s') == "day" => {
            let d = today.checked_sub(digits(n)?.checked_mul(DAY)?)?;
            Some(Interval { from: d, to: d.saturating_add(DAY) })
        }
        [n, unit, "ago"] => {
            let len = unit_ms(unit)?;
            let t = now.checked_sub(digits(n)?.checked_mul(len)?)?;
            Some(Interval { from: t.saturating_sub(len), to: t.saturating_add(1) })
        }
        _ => None,
    }
}

/// The forms accepted, for error messages.
pub const ACCEPTED: &str = "\"last 7 days\", \"past 3 hours\", \"last week\", \"today\", \"yesterday\", \"this month\", \
\"3 days ago\", \"since 2026-03-01\", an ISO 8601 date (\"2026-03-01\", \"2026-03\", \"2026\") or date-time, or epoch seconds";

/// Resolves a time expression written as text.
pub fn resolve_text(text: &str, now: i64) -> Option<Interval> {
    let lower = text.trim().to_lowercase();
    let s = lower.as_str();
    if let Some(rest) = s.strip_prefix("since ") {
        let start = resolve_text(rest, now)?;
        return Some(Interval { from: start.from, to: now.saturating_add(1).max(start.from.saturating_add(1)) });
    }
    if let Some(n) = digits(s).filter(|_| s.len() != 4) {
        let t = epoch_ms(n as f64);
        return Some(Interval { from: t, to: t.saturating_add(SECOND) });
    }
    relative(s, now).or_else(|| absolute(text.trim()))
}

/// Resolves a time expression given as a number (epoch seconds or milliseconds).
pub fn resolve_number(n: f64) -> Interval {
    let t = epoch_ms(n);
    let len = if n.abs() >= 1e11 { 1 } else { SECOND };
    Interval { from: t, to: t.saturating_add(len) }
}

/// The diagnostic for an expression that is not one of [`ACCEPTED`].
pub fn unknown(text: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E020, span, format!("\"{text}\" is not a time expression this implementation understands."))
        .with_suggestion(format!("Write one of {ACCEPTED}."))
        .with_example("RECALL events WHERE time = \"last 7 days\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-03-06T12:00:00Z, a Friday.
    const NOW: i64 = 1_772_798_400_000;

    fn iv(s: &str) -> Interval {
        resolve_text(s, NOW).unwrap_or_else(|| panic!("{s} did not resolve"))
    }

    #[test]
    fn instants_format_as_rfc3339() {
        assert_eq!(format_rfc3339(NOW), "2026-03-06T12:00:00Z");
        assert_eq!(format_rfc3339(NOW + 5), "2026-03-06T12:00:00.005Z");
    }

    #[test]
    fn relative_windows_end_now() {
        assert_eq!(iv("last 7 days"), Interval { from: NOW - 7 * DAY, to: NOW + 1 });
        assert_eq!(iv("Last Week"), iv("last 7 days"));
        assert_eq!(iv("past 3 hours"), Interval { from: NOW - 3 * HOUR, to: NOW + 1 });
        assert_eq!(iv("last month").from, NOW - 30 * DAY);
    }

    #[test]
    fn calendar_periods() {
        let today = NOW - 12 * HOUR;
        assert_eq!(iv("today"), Interval { from: today, to: today + DAY });
        assert_eq!(iv("yesterday"), Interval { from: today - DAY, to: today });
        assert_eq!(iv("this week").from, today - 4 * DAY, "Friday's week starts on Monday");
        assert_eq!(format_rfc3339(iv("this month").from), "2026-03-01T00:00:00Z");
        assert_eq!(format_rfc3339(iv("this month").to), "2026-04-01T00:00:00Z");
        assert_eq!(iv("2 days ago"), Interval { from: today - 2 * DAY, to: today - DAY });
    }

    #[test]
    fn absolute_forms() {
        let d = iv("2026-03-01");
        assert_eq!(format_rfc3339(d.from), "2026-03-01T00:00:00Z");
        assert_eq!(d.to - d.from, DAY);
        assert_eq!(format_rfc3339(iv("2025-12").to), "2026-01-01T00:00:00Z");
        assert_eq!(format_rfc3339(iv("2025").from), "2025-01-01T00:00:00Z");
        assert_eq!(iv("2026-03-01T09:30:00Z").to - iv("2026-03-01T09:30:00Z").from, SECOND);
        assert_eq!(iv("1709251200"), Interval { from: 1_709_251_200_000, to: 1_709_251_201_000 });
        assert_eq!(resolve_number(1_709_251_200_000.0).from, 1_709_251_200_000);
        assert_eq!(iv("since 2026-03-01"), Interval { from: iv("2026-03-01").from, to: NOW + 1 });
    }

    /// Month lengths, leap years, the epoch and the ends of the four-digit years, through
    /// every form that reads the calendar.
    #[test]
    fn calendar_edges() {
        let at = |s: &str| oms::time::parse_rfc3339_ms(s).expect("a date-time");
        let len_days = |s: &str| (iv(s).to - iv(s).from) / DAY;
        assert_eq!(len_days("2024-02"), 29);
        assert_eq!(len_days("2000-02"), 29);
        assert_eq!(len_days("1900-02"), 28);
        assert_eq!(len_days("2100-02"), 28);
        assert_eq!(len_days("2026-04"), 30);
        assert_eq!(len_days("2024"), 366);
        assert_eq!(len_days("1900"), 365);
        assert_eq!(iv("1970"), Interval { from: 0, to: 365 * DAY });
        assert_eq!(iv("1969").to, 0);
        assert_eq!(iv("1969-12-31"), Interval { from: -DAY, to: 0 });
        assert_eq!(iv("0000").from, at("0000-01-01T00:00:00Z"));
        assert_eq!(iv("9999"), Interval { from: at("9999-01-01T00:00:00Z"), to: 253_402_300_800_000 });
        assert_eq!(iv("9999-12").to, 253_402_300_800_000);
        assert!(resolve_text("2026-00", NOW).is_none());
        assert!(resolve_text("2025-02-29", NOW).is_none());
        // `this month` / `this year` on the last millisecond of a leap February and of a year.
        let leap_end = at("2024-02-29T23:59:59.999Z");
        assert_eq!(
            resolve_text("this month", leap_end),
            Some(Interval { from: at("2024-02-01T00:00:00Z"), to: leap_end + 1 })
        );
        let year_end = at("2025-12-31T23:59:59.999Z");
        assert_eq!(
            resolve_text("this month", year_end),
            Some(Interval { from: at("2025-12-01T00:00:00Z"), to: year_end + 1 })
        );
        assert_eq!(
            resolve_text("this year", year_end),
            Some(Interval { from: at("2025-01-01T00:00:00Z"), to: year_end + 1 })
        );
        // ISO weeks from Monday, also before the epoch: 1969-12-29 was a Monday.
        let week = |now: &str| resolve_text("this week", at(now)).map(|i| i.from);
        assert_eq!(week("1970-01-01T00:00:00Z"), Some(at("1969-12-29T00:00:00Z")));
        assert_eq!(week("1969-12-28T23:00:00Z"), Some(at("1969-12-22T00:00:00Z")));
        assert_eq!(week("2026-03-02T00:00:00Z"), Some(at("2026-03-02T00:00:00Z")), "a Monday starts its own week");
        assert_eq!(week("2026-03-08T23:59:59Z"), Some(at("2026-03-02T00:00:00Z")), "a Sunday ends it");
        // Months and years in windows are fixed lengths (T1), not calendar arithmetic.
        assert_eq!(resolve_text("1 month ago", leap_end).map(|i| i.to), Some(leap_end - 30 * DAY + 1));
        assert_eq!(iv("last year").from, NOW - 365 * DAY);
        // A clock outside the calendar's years cannot name its month.
        assert_eq!(resolve_text("this month", i64::MAX), None);
        assert_eq!(resolve_text("today", i64::MIN / 2).map(|i| i.to - i.from), Some(DAY));
    }

    #[test]
    fn unknown_forms_do_not_resolve() {
        for s in ["next tuesday", "last", "last 7 fortnights", "2026-13", "", "since", "99999999999999999999 days ago"]
        {
            assert!(resolve_text(s, NOW).is_none(), "{s}");
        }
    }
}
