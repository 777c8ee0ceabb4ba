//! Lists of times given on the command line: `--sample-at` and `--frames`.

use std::format;

/// Most sample times one `--sample-at` may ask for (a bound on memory and time).
pub const MAX_SAMPLE_TIMES: usize = 10_000_000;

/// `--sample-at`: comma-separated times and ranges `START:STOP:STEP`, STOP included
/// when the range lands on it (within a millionth of a step); the times of a range
/// are `START + k·STEP`, never an accumulated sum.
pub fn parse_sample_times(text: &str) -> Result<Vec<f64>, String> {
    let number = |s: &str| -> Result<f64, String> {
        let x: f64 = s.trim().parse().map_err(|_| format!("`{}` is not a number", s.trim()))?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(format!("`{}` is not finite", s.trim()))
        }
    };
    let mut times = Vec::new();
    for item in text.split(',').filter(|s| !s.trim().is_empty()) {
        let parts: Vec<&str> = item.split(':').collect();
        match parts.as_slice() {
            [x] => times.push(number(x)?),
            [start, stop, step] => {
                let (start, stop, step) = (number(start)?, number(stop)?, number(step)?);
                if step <= 0.0 {
                    return Err(format!("`{}`: the step must be positive", item.trim()));
                }
                if stop < start {
                    return Err(format!("`{}`: STOP is before START", item.trim()));
                }
                let count = ((stop - start) / step + 1e-6).floor() + 1.0;
                if count + times.len() as f64 > MAX_SAMPLE_TIMES as f64 {
                    return Err(format!("more than {MAX_SAMPLE_TIMES} times asked for"));
                }
                times.extend((0..count as usize).map(|k| start + k as f64 * step));
            }
            _ => return Err(format!("`{}`: expected a time or START:STOP:STEP", item.trim())),
        }
        if times.len() > MAX_SAMPLE_TIMES {
            return Err(format!("more than {MAX_SAMPLE_TIMES} times asked for"));
        }
    }
    if times.is_empty() {
        return Err("no times given".into());
    }
    Ok(times)
}
