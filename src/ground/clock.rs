//! UTC timestamps in the ISO 8601 form Hermes writes: `2026-04-17T09:30:00Z`, with microseconds when
//! they are not zero (as Python's `isoformat()` does), and a script's mtime exactly as Hermes
//! computes it, since Hermes compares that string to decide "modified since approval".

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// `t` as an ISO 8601 UTC timestamp ending in `Z`, with microseconds (truncated) when not zero.
pub(crate) fn iso_utc(t: SystemTime) -> String {
    let (seconds, micros) = match t.duration_since(UNIX_EPOCH) {
        Ok(after) => (
            i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
            after.subsec_micros(),
        ),
        Err(before) => {
            let before = before.duration();
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            match before.subsec_micros() {
                0 => (-whole, 0),
                micros => (-whole - 1, 1_000_000 - micros),
            }
        }
    };
    format_utc(seconds, micros)
}

/// The current time as [`iso_utc`] writes it.
pub(crate) fn now_iso() -> String {
    iso_utc(SystemTime::now())
}

/// A file's mtime exactly as Hermes writes `script_mtime_at_approval`:
/// `datetime.fromtimestamp(os.path.getmtime(p), tz=utc).isoformat()` with `Z`. Python first makes
/// a float of the seconds (`sec + nsec * 1e-9`), then rounds that float to microseconds, half to
/// even; truncating the nanoseconds instead gives another string for about half of all files.
pub(crate) fn python_mtime(meta: &Metadata) -> String {
    python_timestamp(meta.mtime(), meta.mtime_nsec())
}

/// [`python_mtime`] from the raw `st_mtime` fields.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)] // as CPython does; `micros` is in 0..1e6 here
fn python_timestamp(seconds: i64, nanos: i64) -> String {
    // CPython's `fill_time`: `sec + nsec * 1e-9`, in doubles.
    let float = seconds as f64 + nanos as f64 * 1e-9;
    // `_PyTime_DoubleToDenominator` with `_PyTime_ROUND_HALF_EVEN`.
    let mut whole = float.trunc();
    let mut micros = round_half_even((float - whole) * 1e6);
    if micros >= 1e6 {
        micros -= 1e6;
        whole += 1.0;
    } else if micros < 0.0 {
        micros += 1e6;
        whole -= 1.0;
    }
    format_utc(whole as i64, micros as u32)
}

#[allow(clippy::float_cmp)] // an exact half is what CPython tests for
fn round_half_even(x: f64) -> f64 {
    let rounded = x.round();
    if (x - rounded).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        rounded
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` for `seconds` since the epoch (negative before it).
fn format_utc(seconds: i64, micros: u32) -> String {
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (of_day / 3600, of_day % 3600 / 60, of_day % 60);
    let stamp = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}");
    if micros == 0 {
        format!("{stamp}Z")
    } else {
        format!("{stamp}.{micros:06}Z")
    }
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::{iso_utc, python_timestamp};
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn whole_seconds_have_no_fraction() {
        let t = UNIX_EPOCH + Duration::from_secs(1_776_418_200);
        assert_eq!(iso_utc(t), "2026-04-17T09:30:00Z");
    }

    #[test]
    fn fractions_are_microseconds() {
        let t = UNIX_EPOCH + Duration::from_millis(1_776_418_200_500);
        assert_eq!(iso_utc(t), "2026-04-17T09:30:00.500000Z");
    }

    #[test]
    fn before_the_epoch_counts_back() {
        assert_eq!(
            iso_utc(UNIX_EPOCH - Duration::from_secs(10)),
            "1969-12-31T23:59:50Z"
        );
        assert_eq!(
            iso_utc(UNIX_EPOCH - Duration::from_millis(1500)),
            "1969-12-31T23:59:58.500000Z"
        );
        assert_eq!(python_timestamp(-86_400 * 365, 0), "1969-01-01T00:00:00Z");
    }

    #[test]
    fn mtimes_are_rounded_as_python_rounds_them() {
        // Each expected string was printed by CPython 3.11:
        // datetime.fromtimestamp(sec + ns * 1e-9, tz=timezone.utc).isoformat()
        let cases = [
            (1_776_418_198, 0, "2026-04-17T09:29:58Z"),
            (1_776_418_198, 999_999_500, "2026-04-17T09:29:59Z"),
            (1_776_418_198, 123_456_500, "2026-04-17T09:29:58.123456Z"),
            (1_776_418_198, 123_457_500, "2026-04-17T09:29:58.123457Z"),
            (1_776_418_198, 999_999_999, "2026-04-17T09:29:59Z"),
            (1_700_000_000, 1, "2023-11-14T22:13:20Z"),
            (1_700_000_000, 500, "2023-11-14T22:13:20Z"),
            (1_700_000_000, 1500, "2023-11-14T22:13:20.000001Z"),
            (1_776_418_198, 250_000_500, "2026-04-17T09:29:58.250000Z"),
        ];
        for (seconds, nanos, expected) in cases {
            assert_eq!(
                python_timestamp(seconds, nanos),
                expected,
                "{seconds}.{nanos:09}"
            );
        }
    }
}
