//! The shapes of input that hardening round 3 (issue 35) found the lab weakest on,
//! as random scenario texts for the fuzz suite: vectors chained by `cross()`, values
//! nested past the loaders' bound, very long lines, contacts declared more than
//! once, and comparisons of every method over every parameter set. Each is made from
//! the generator alone, so a failing case replays from its seed.

use crate::random::{Rng, Tree};

const DISK: &str = include_str!("../../scenarios/rolling-disk.toml");
const KNIFE: &str = include_str!("../../scenarios/knife-edge-incline.toml");

/// One scenario text of a random shape among those above.
pub fn hostile_shape(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => chained_vectors(rng),
        1 => deep_nesting(rng),
        2 => long_line(rng),
        3 => repeated_contacts(rng),
        _ => large_comparison(rng),
    }
}

/// Up to 70 vectors each the `cross()` of the one before (the `[vectors]` limit is
/// 64), used by the potential and a constraint; sometimes in a cycle. Mostly fewer
/// than 32: a chain of 64 costs its model about 2 s to derive and print by every
/// method.
pub fn chained_vectors(rng: &mut Rng) -> String {
    let n = 1 + if rng.below(4) == 0 { rng.below(70) } else { rng.below(32) };
    let second = ["[y, z, x]", "[1, 0, 0]", "[x, 0, z]", "v0"][rng.below(4)];
    let mut text = String::from(
        "format = \"nhlab/1\"\ntitle = \"chained\"\ncoordinates = [\"x\", \"y\", \"z\"]\n\
         kinetic = \"(x'^2 + y'^2 + z'^2)/2\"\n",
    );
    text += &format!("potential = \"v{}_x\"\n[vectors]\n", n - 1);
    let first = if rng.below(8) == 0 { format!("cross(v{}, [1, 2, 3])", n - 1) } else { "[x, y, z]".into() };
    text += &format!("v0 = \"{first}\"\n");
    for i in 1..n {
        text += &format!("v{i} = \"cross(v{}, {second})\"\n", i - 1);
    }
    if rng.below(2) == 0 {
        text += &format!("[[constraints]]\nexpr = \"x' - 1e-40*v{}_y*y'\"\n", n - 1);
    }
    text + "[initial]\nq = { x = 1, y = 2, z = 3 }\n"
}

/// A scenario whose one value is nested 100–300 levels deep (JSON arrays or objects,
/// TOML arrays, or parentheses in an expression), with a misspelt key after it.
pub fn deep_nesting(rng: &mut Rng) -> String {
    let depth = 100 + rng.below(200);
    match rng.below(3) {
        0 => {
            let (open, close) = if rng.below(2) == 0 { ("[", "]") } else { ("{\"a\": ", "}") };
            format!(
                "{{\"format\": \"nhlab/1\", \"title\": \"deep\", \"notes\": {}1{}, \"coordinates\": [\"x\"], \
                 \"kinetic\": \"x'^2/2\", \"potentail\": \"x^2/2\", \"initial\": {{\"q\": {{\"x\": 1}}}}}}",
                open.repeat(depth),
                close.repeat(depth)
            )
        }
        1 => format!(
            "format = \"nhlab/1\"\ntitle = \"deep\"\nnotes = {}1{}\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n\
             potentail = \"x^2/2\"\n[initial.q]\nx = 1\n",
            "[".repeat(depth),
            "]".repeat(depth)
        ),
        _ => format!(
            "format = \"nhlab/1\"\ntitle = \"deep\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n\
             potential = \"{}x{}\"\n[initial.q]\nx = 1\n",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
    }
}

/// One line of 1,000 to 250,000 terms (up to the 1 MiB limit): a sum of names, of
/// random expressions, or a title.
pub fn long_line(rng: &mut Rng) -> String {
    let n = 1_000 + rng.below(250_000);
    let line = match rng.below(3) {
        0 => vec!["x"; n].join(" + "),
        1 => (0..n.min(20_000)).map(|_| Tree::random(rng, 2).text()).collect::<Vec<_>>().join(" + "),
        _ => "x".repeat(n),
    };
    let field = ["potential", "kinetic", "title"][rng.below(3)];
    let kinetic = if field == "kinetic" { String::new() } else { "kinetic = \"x'^2/2\"\n".into() };
    format!("format = \"nhlab/1\"\ncoordinates = [\"x\"]\n{kinetic}{field} = \"{line}\"\n[initial.q]\nx = 0.1\n")
}

/// The rolling disk with its contact declared 2–70 times (over the 64 contacts
/// allowed at times), some copies renamed or at another point.
pub fn repeated_contacts(rng: &mut Rng) -> String {
    let start = DISK.find("[[rolling]]").expect("the disk rolls");
    let end = DISK[start + 1..].find("\n[").map_or(DISK.len(), |e| start + 1 + e + 1);
    let block = &DISK[start..end];
    let copies = 2 + rng.below(69);
    let mut extra = String::new();
    for k in 0..copies {
        let copy = match rng.below(4) {
            0 => block.replacen("[[rolling]]\n", &format!("[[rolling]]\nname = \"copy {}\"\n", k % 3), 1),
            1 => block.replacen("contact = \"C\"", "contact = \"G\"", 1),
            _ => block.to_string(),
        };
        extra += &copy;
        extra += "\n";
    }
    format!("{}{extra}{}", &DISK[..end], &DISK[end..])
}

/// The knife edge run by every method over up to four `[compare]` sets (three are
/// allowed) of random values, extreme at times.
pub fn large_comparison(rng: &mut Rng) -> String {
    let mut text = KNIFE.replace(
        "methods = [\"lagrange\", \"udwadia-kalaba\", \"gauss\"]",
        "methods = [\"lagrange\", \"udwadia-kalaba\", \"gauss\", \"hamel\", \"voronets\", \"euler\", \"vakonomic\"]",
    );
    let mut sets = String::new();
    for k in 0..1 + rng.below(4) {
        let value = match rng.below(6) {
            0 => "1e300".to_string(),
            1 => "-0.5".to_string(),
            2 => "0".to_string(),
            _ => format!("{:.3}", rng.range(0.05, 3.0)),
        };
        let parameter = ["m", "k", "g", "alpha"][rng.below(4)];
        sets += &format!("[compare.set{k}]\n{parameter} = {value}\n");
    }
    text = text.replace("[hamel]", &format!("{sets}\n[hamel]"));
    text.replace("t_end = 10", "t_end = 2")
}
