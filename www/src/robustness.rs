//! No input reaches a panic through the page's surface: mutated scenario texts (the
//! shape of a half-typed edit or a damaged share link) either load or give problems,
//! and whatever loads can be stepped, drawn, derived, exported and shared.

use nhlab::formulations::Method;

use crate::display::Display;
use crate::edit::{apply, Edit};
use crate::lab::Lab;
use crate::panels::content;

/// xorshift64*: deterministic, so a failure names a reproducible case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: [&str; 16] = ["\"", "'", "[", "]", "{", "}", "=", "*", "^", "(", ")", "/", "-1e308", "0", "\n", "nan"];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 => {
                let end = (at + 1 + rng.below(12)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                chars.splice(at..at, piece.chars());
            }
            _ => {
                // Swap a digit for another number: zero masses, huge values.
                if let Some(k) = chars.iter().skip(at).position(|c| c.is_ascii_digit()) {
                    chars[at + k] = ['0', '9', '1'][rng.below(3)];
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Loads and uses `text`; whether it loaded.
fn exercise(text: &str) -> bool {
    let Ok(mut lab) = Lab::new(text) else { return false };
    let span = lab.t_end - lab.t0;
    lab.advance(lab.t0 + 0.05 * span, 500);
    let display = Display::of(&mut lab);
    for p in &display.layout.panels {
        let _ = content(&display, p.kind, 300);
    }
    let _ = lab.csv();
    // A link made of it opens to the same text.
    if let Ok(payload) = nhlab::scenario::encode_share_text(text) {
        assert_eq!(nhlab::scenario::share_text(&payload).ok().as_deref(), Some(text));
    }
    for m in Method::ALL {
        if let Ok(d) = lab.derive(m) {
            d.equations.iter().for_each(|e| assert!(d.mathml(e).starts_with("<math")));
        }
    }
    lab.restart();
    true
}

#[test]
fn mutated_scenarios_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut loaded, mut refused) = (0, 0);
    for entry in crate::gallery::entries() {
        let text = crate::gallery::text(entry.name).unwrap_or_default();
        for case in 0..25 {
            let mutated = mutate(text, &mut rng);
            match std::panic::catch_unwind(|| exercise(&mutated)) {
                Ok(true) => loaded += 1,
                Ok(false) => refused += 1,
                Err(_) => panic!("{} case {case} panicked on:\n{mutated}", entry.name),
            }
        }
    }
    // Both outcomes are exercised, so the test says something about each.
    assert!(loaded > 50 && refused > 50, "loaded {loaded}, refused {refused}");
}

#[test]
fn edits_at_any_path_never_panic() {
    let mut rng = Rng(42);
    let text = crate::gallery::text(crate::gallery::DEFAULT).unwrap_or_default();
    let segments = ["parameters", "initial", "q", "v", "run", "methods", "x", "", "title", "constraints", "[0]"];
    for _ in 0..300 {
        let path: Vec<&str> = (0..1 + rng.below(4)).map(|_| segments[rng.below(segments.len())]).collect();
        let path = path.join(".");
        let edit = match rng.below(4) {
            0 => Edit::Number(1.5),
            1 => Edit::Text("x"),
            2 => Edit::Remove,
            _ => Edit::Number(f64::INFINITY),
        };
        let result = std::panic::catch_unwind(|| {
            if let Ok(out) = apply(text, &path, edit) {
                let _ = exercise(&out);
            }
        });
        assert!(result.is_ok(), "edit at `{path}` panicked");
    }
}
