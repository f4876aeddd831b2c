//! UTC timestamps in the ISO 8601 form Hermes writes: `2026-04-17T09:30:00Z`, with microseconds when
//! they are not zero (as Python's `isoformat()` does).

use std::time::{SystemTime, UNIX_EPOCH};

/// `t` as an ISO 8601 UTC timestamp ending in `Z`. Times before 1970 are written as the epoch.
pub fn iso_utc(t: SystemTime) -> String {
    let Ok(since_epoch) = t.duration_since(UNIX_EPOCH) else {
        return "1970-01-01T00:00:00Z".to_owned();
    };
    if since_epoch.subsec_micros() == 0 {
        humantime::format_rfc3339_seconds(t).to_string()
    } else {
        humantime::format_rfc3339_micros(t).to_string()
    }
}

/// The current time as [`iso_utc`] writes it.
pub fn now_iso() -> String {
    iso_utc(SystemTime::now())
}

#[cfg(test)]
mod tests {
    use super::iso_utc;
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
    fn before_epoch_is_clamped() {
        let t = UNIX_EPOCH - Duration::from_secs(10);
        assert_eq!(iso_utc(t), "1970-01-01T00:00:00Z");
    }
}
