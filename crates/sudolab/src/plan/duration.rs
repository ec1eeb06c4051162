//! Durations as people write them in options and experiment files.

/// Parses `500ms`, `10s`, `2m`, `1h` or a bare number of seconds; `0` and `none` are zero
/// (no time limit).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    if text == "none" {
        return Ok(std::time::Duration::ZERO);
    }
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("expected a duration such as 500ms, 10s or 2m, found '{text}'"))?;
    let seconds = match unit.trim() {
        "ms" => number / 1000.0,
        "" | "s" => number,
        "m" | "min" => number * 60.0,
        "h" => number * 3600.0,
        other => return Err(format!("unknown time unit '{other}'; use ms, s, m or h")),
    };
    std::time::Duration::try_from_secs_f64(seconds)
        .map_err(|err| format!("bad duration '{text}': {err}"))
}
