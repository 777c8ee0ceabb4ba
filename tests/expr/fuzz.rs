//! The parser never panics: random bytes, random printable text and random token
//! soups (100,000 cases in all). Every error points inside the input, and every
//! accepted input prints back to text that parses to the same expression.

use nhlab::expr::{ExprGraph, ParseOptions};
use nhlab_tests::graph;
use nhlab_tests::random::Rng;

const TOKENS: [&str; 34] = [
    "x", "y'", "phi''", "x'''", "m", "a", "t", "pi", "q", "sin", "atan2", "sqrt", "abs", "(", ")", "(", ")", "+", "-",
    "*", "/", "^", ",", "2", "0.5", "1e-3", "1e", "3.", ".", "'", "**", " ", "é", "0",
];

fn check(g: &mut ExprGraph, input: &str, options: ParseOptions) {
    match g.parse_with(input, options) {
        Ok(e) => {
            let text = g.to_text(e);
            let again = g
                .parse_with(&text, ParseOptions { allow_accelerations: true })
                .unwrap_or_else(|err| panic!("{input:?} printed as {text:?}, which does not parse: {err}"));
            assert_eq!(again, e, "{input:?} printed as {text:?}, which parses differently");
        }
        Err(err) => {
            assert!(err.span.start <= err.span.end && err.span.end <= input.len(), "{input:?}: span {:?}", err.span);
            assert!(input.is_char_boundary(err.span.start) && input.is_char_boundary(err.span.end), "{input:?}");
            assert!(!err.to_string().is_empty());
        }
    }
}

#[test]
fn parser_survives_100_000_random_inputs() {
    let mut r = Rng::new(0x5eed);
    let mut g = graph();
    let options = [ParseOptions::default(), ParseOptions { allow_accelerations: true }];
    for case in 0..100_000 {
        let input = match case % 3 {
            0 => {
                let bytes: Vec<u8> = (0..r.below(40)).map(|_| r.next_u64() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            1 => (0..r.below(40)).map(|_| (b' ' + r.below(95) as u8) as char).collect(),
            _ => (0..r.below(30)).map(|_| TOKENS[r.below(TOKENS.len())]).collect::<Vec<_>>().join(""),
        };
        check(&mut g, &input, options[case % 2]);
        if g.len() > 200_000 {
            g = graph();
        }
    }
}
