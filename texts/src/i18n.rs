//! Texts made in Rust — the page's panel titles and notes, plot descriptions, the
//! scene's caption, why a run ended; the core's messages and a scenario's problems
//! on the page, the command line (`--language`) and in Python — in a language.
//!
//! The catalogues are the page's own (`www/app/i18n/en.json`, `zh.json`): build.rs
//! compiles their `rs.` keys (texts made in Rust) and `core.` keys (the core's
//! [`nhlab::message`] ids) into sorted tables, so the page, its modules and the
//! command line never disagree on a word. The language is this thread's: the page
//! (and each worker, when it starts) chooses it with `set_language`, the command line
//! with `--language`; otherwise it is English.

use std::cell::Cell;
use std::fmt::Display;

mod tables {
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// English (the catalogues' reference).
    En,
    /// Simplified Chinese.
    Zh,
}

impl Language {
    /// `en` or `zh` (`zh-CN` and the like too); None for others.
    pub fn from_id(id: &str) -> Option<Self> {
        match id.split(['-', '_']).next()?.to_ascii_lowercase().as_str() {
            "en" => Some(Self::En),
            "zh" => Some(Self::Zh),
            _ => None,
        }
    }

    fn table(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::En => tables::EN,
            Self::Zh => tables::ZH,
        }
    }
}

thread_local! {
    static CURRENT: Cell<Language> = const { Cell::new(Language::En) };
}

/// Chooses the language of the texts made from now on (this thread's).
pub fn set(language: Language) {
    CURRENT.with(|c| c.set(language));
}

/// The language texts are made in.
pub fn current() -> Language {
    CURRENT.with(Cell::get)
}

/// The text of `id` in `language`, if its catalogue has it.
pub fn lookup(language: Language, id: &str) -> Option<&'static str> {
    let table = language.table();
    table.binary_search_by(|(k, _)| (*k).cmp(id)).ok().map(|i| table[i].1)
}

/// A fixed word (`rs.<id>`, no places) in the current language, borrowed from the
/// catalogue: for labels drawn where a `&str` is wanted.
pub fn word(id: &'static str) -> &'static str {
    let key = format!("rs.{id}");
    lookup(current(), &key).or_else(|| lookup(Language::En, &key)).unwrap_or(id)
}

/// The message `rs.<id>` in the current language (English where it lacks one), its
/// `{name}` places filled from `args`.
pub fn tr(id: &str, args: &[(&str, &dyn Display)]) -> String {
    let key = format!("rs.{id}");
    let template = lookup(current(), &key).or_else(|| lookup(Language::En, &key)).unwrap_or(id);
    fill(template, args)
}

/// A name the lab shows (a body, a contact, a scene element, an input's label) in
/// the current language. The names the lab makes itself are said in its words
/// (`body disk` → 刚体 圆盘, `disk rolls on ground` → 圆盘在地面上滚动, a generated
/// constraint `disk rolls on ground: x` keeps its suffix unless the list has it); a name of the scenario's
/// is looked up whole in the word list of the language (`www/app/i18n/words.zh.json`:
/// the gallery's names) and otherwise shown as written. English is the name itself.
pub fn name(name: &str) -> String {
    let language = current();
    if language == Language::En {
        return name.to_string();
    }
    if let Some(word) = lookup_word(language, name) {
        return word.to_string();
    }
    if let Some((whole, suffix)) = name.rsplit_once(": ") {
        let suffix = lookup_word(language, suffix).unwrap_or(suffix);
        return format!("{}: {suffix}", self::name(whole));
    }
    if let Some(body) = name.strip_prefix("body ") {
        return tr("name.body", &[("name", &self::name(body))]);
    }
    if let Some((body, on)) = name.split_once(" rolls on ") {
        let on = if on == "ground" { tr("name.ground", &[]) } else { self::name(on) };
        return tr("name.rolls-on", &[("body", &self::name(body)), ("on", &on)]);
    }
    name.to_string()
}

/// `name`'s translation in the word list of `language`, if it has one.
fn lookup_word(language: Language, name: &str) -> Option<&'static str> {
    let table = match language {
        Language::En => return None,
        Language::Zh => tables::WORDS_ZH,
    };
    table.binary_search_by(|(k, _)| (*k).cmp(name)).ok().map(|i| table[i].1)
}

/// A core message in the current language: its catalogue text (`core.<id>`) filled
/// from its parameters, or its English.
pub fn message(m: &nhlab::message::Message) -> String {
    let language = current();
    if language == Language::En {
        return m.english.clone();
    }
    m.say(&|id| lookup(language, &format!("core.{id}")).map(str::to_string))
}

/// A scenario's problem in the current language: said by its id where it has one,
/// else its English.
pub fn problem(p: &nhlab::scenario::Problem) -> String {
    p.said.as_ref().map_or_else(|| p.message.clone(), message)
}

/// `template` with `{name}` replaced by the argument of that name.
pub fn fill(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let texts: Vec<(&str, String)> = args.iter().map(|(name, value)| (*name, value.to_string())).collect();
    nhlab::message::fill_with(template, |name| texts.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `{name}` of a text, in order of first appearance.
    fn places(text: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            if !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !out.iter().any(|n| n == name)
            {
                out.push(name.to_string());
            }
            rest = &after[close + 1..];
        }
        out.sort();
        out
    }

    #[test]
    fn both_catalogues_have_the_same_ids_and_places() {
        let en: Vec<_> = tables::EN.iter().map(|(k, _)| *k).collect();
        let zh: Vec<_> = tables::ZH.iter().map(|(k, _)| *k).collect();
        assert_eq!(en, zh, "the module's messages differ between en.json and zh.json");
        for ((id, e), (_, z)) in tables::EN.iter().zip(tables::ZH) {
            assert_eq!(places(e), places(z), "{id}: the languages fill different places");
            assert!(!z.trim().is_empty(), "{id}: empty in zh.json");
        }
    }

    /// The core's message ids all have a Chinese text with exactly their parameters.
    #[test]
    fn every_core_message_is_translated() {
        for (id, params) in nhlab::message::ids() {
            let key = format!("core.{id}");
            let text = lookup(Language::Zh, &key).unwrap_or_else(|| panic!("zh.json lacks {key}"));
            let mut want: Vec<String> = params.iter().map(|p| p.to_string()).collect();
            want.sort();
            assert_eq!(places(text), want, "{key}: the Chinese fills other places than the core gives");
        }
    }

    /// Each problem with an id (every `problem.*`: the expressions' and the checks'):
    /// the English catalogue's text, filled, is the core's English (what the command
    /// line prints), and the Chinese says it with the same names and numbers.
    #[test]
    fn every_problem_with_an_id_is_said_in_both_languages() {
        use nhlab::expr::ParseErrorKind as K;
        use nhlab::message::problem;
        let names = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let kinds = vec![
            K::Empty,
            K::TooLong { length: 5000, limit: 4096 },
            K::TooDeep { limit: 200 },
            K::UnexpectedCharacter('*'),
            K::UnexpectedCharacter('#'),
            K::InvalidNumber("1e".into()),
            K::NumberOutOfRange("1e999".into()),
            K::Expected { expected: "an expression", found: "end of input".into() },
            K::MissingOperator { found: "`x`".into() },
            K::UnclosedParenthesis,
            K::UnknownName { name: "ph".into(), suggestions: vec![] },
            K::UnknownName { name: "ph".into(), suggestions: names(&["phi"]) },
            K::UnknownName { name: "ph".into(), suggestions: names(&["phi", "pi"]) },
            K::UnknownName { name: "ph".into(), suggestions: names(&["phi", "pi", "psi"]) },
            K::UnknownFunction { name: "sine".into(), suggestions: vec![] },
            K::UnknownFunction { name: "sine".into(), suggestions: names(&["sin"]) },
            K::UnknownFunction { name: "sine".into(), suggestions: names(&["sin", "sinh"]) },
            K::UnknownFunction { name: "sine".into(), suggestions: names(&["sin", "sinh", "sign"]) },
            K::NotAFunction { name: "x".into() },
            K::MissingArguments { function: "sin" },
            K::WrongArity { function: "sin", expected: 1, found: 2 },
            K::WrongArity { function: "atan2", expected: 2, found: 1 },
            K::AccelerationNotAllowed { name: "x".into() },
            K::InvalidPrime { name: "a'".into(), reason: "only coordinates have velocities" },
            K::Vector(nhlab::message::bodies::vector_power()),
            K::DivisionByZero,
            K::Overflow,
        ];
        for kind in &kinds {
            assert_eq!(kind.message().english, kind.to_string());
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in kinds.iter().map(|k| k.message()) {
            assert!(m.well_formed(), "{m:?}");
            let english = lookup(Language::En, &format!("core.{}", m.id)).expect("in en.json");
            assert_eq!(m.fill(english), m.english, "{}", m.id);
            set(Language::Zh);
            let said = message(&m);
            set(Language::En);
            for (_, value) in &m.args {
                if !m.parts.iter().any(|(_, p)| p.english == *value) {
                    assert!(said.contains(value.as_str()), "{}: {said} lacks {value}", m.id);
                }
            }
            assert_ne!(said, m.english, "{}", m.id);
            seen.insert(m.id);
        }
        // The message tables: the English catalogue holds the core's template, word
        // for word; the Chinese, filled with sample values, shows every one of them.
        for (id, template) in problem::ENGLISH
            .iter()
            .chain(nhlab::message::bodies::ENGLISH)
            .chain(nhlab::message::share::ENGLISH)
            .chain(nhlab::message::run::ENGLISH)
            .chain(nhlab::message::phrase::ENGLISH)
            .chain(nhlab::message::stability::ENGLISH)
            .chain(nhlab::message::syntax::ENGLISH)
            .chain(nhlab::message::syntax::WORDS)
        {
            let english = lookup(Language::En, &format!("core.{id}")).expect("in en.json");
            assert_eq!(english, *template, "{id}");
            let (_, params) = nhlab::message::ids().find(|(i, _)| i == id).expect("listed");
            let samples: Vec<(&str, String)> = params.iter().map(|p| (*p, format!("«{p}»"))).collect();
            let zh = lookup(Language::Zh, &format!("core.{id}")).expect("in zh.json");
            let said =
                nhlab::message::fill_with(zh, |n| samples.iter().find(|(a, _)| *a == n).map(|(_, v)| v.as_str()));
            for (_, value) in &samples {
                assert!(said.contains(value.as_str()), "{id}: {said} lacks {value}");
            }
            if *id != "phrase.verbatim" {
                assert_ne!(zh, english, "{id}");
            }
            seen.insert(id);
        }
        let ids: std::collections::BTreeSet<_> =
            nhlab::message::ids().map(|(id, _)| id).filter(|id| id.starts_with("problem.")).collect();
        assert!(ids.is_subset(&seen), "untried: {:?}", ids.difference(&seen).collect::<Vec<_>>());
    }

    /// Scenarios with mistakes of every kind the tables cover, read and built by the
    /// core, and the readers' syntax errors: each problem has an id, and said in
    /// Chinese it keeps no English words but the names and the literals.
    #[test]
    fn a_scenario_s_problems_are_said_in_chinese() {
        const HEAD: &str = "format = \"nhlab/1\"\ntitle = \"t\"\ncoordinates = [\"x\"]\n";
        let cases = [
            "format = \"nhlab/1\"\ntitle = 3\n",
            "format = \"nhlab/1\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2\"\n",
            "format = \"nhlab/2\"\ntitle = \"\"\ncoordinates = []\n",
            "title = \"t\"\ntitle = \"u\"\n",
            "format = \"nhlab/1\"\ninitial = [1]\n",
            &format!("{HEAD}kinetic = \"x'^2/2\"\npotential = \"x'\"\n[initial.q]\nx = 0\ny = 1\n[run]\nmethods = [\"lagrang\"]\nintegrator = \"rk5\"\non_invalid = \"stp\"\n"),
            &format!("{HEAD}kinetic = \"x'^2/2\"\n[initial.q]\nx = 0\n[[constraints]]\nexpr = \"1\"\n[parameters]\nt = 1\n[units]\nz = \"m\"\n[stability]\nmethod = \"vakonomic\"\n[scene]\nprojection = \"plan\"\n"),
            // The initial state: positions and velocities off the constraints, a
            // velocity left free (a warning), a mass matrix that is not positive.
            "format = \"nhlab/1\"\ntitle = \"p\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"(x'^2 + y'^2)/2\"\n[[constraints]]\nexpr = \"x^2 + y^2 - 1\"\n[initial.q]\nx = 0.5\ny = 0.5\n",
            "format = \"nhlab/1\"\ntitle = \"k\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"(x'^2 + y'^2)/2\"\n[[constraints]]\nexpr = \"x' - y'\"\n[initial.q]\nx = 0\ny = 0\n[initial.v]\nx = 1\ny = 0\n",
            "format = \"nhlab/1\"\ntitle = \"f\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"(x'^2 + y'^2)/2\"\n[initial.q]\nx = 0\ny = 0\n[[constraints]]\nexpr = \"x' - y'\"\n",
            "format = \"nhlab/1\"\ntitle = \"m\"\ncoordinates = [\"x\"]\nkinetic = \"-x'^2\"\n[initial.q]\nx = 0\n",
            "format = \"nhlab/1\"\ntitle = \"c\"\ncoordinates = [\"x\"]\nkinetic = \"m*x'^2\"\n[parameters]\nm = 1\n[compare.light]\nm = -1\n[initial.q]\nx = 0\n",
            // Rigid bodies: frames, points, vectors and their expressions, bodies,
            // contacts, loads, gravity.
            &format!("{HEAD}kinetic = \"x'^2\"\n[initial.q]\nx = 0\n[frames.N]\n[frames.A]\nrotations = [{{ w = \"x\" }}]\n[frames.B]\nparent = \"C\"\n[frames.C]\nparent = \"B\"\n[frames.D]\nangular_velocity = [\"x'\", \"0\", \"0\"]\nrotations = [{{ z = \"x\" }}]\n[points.O]\nposition = [\"0\", \"0\", \"0\"]\n[points.P]\nposition = [\"x\", \"0\"]\n[points.R]\nposition = \"[x', 0, 0]\"\n[vectors]\nP = \"[1, 2, 3]\"\na = \"[1, 0, 0] + 1\"\nb = \"N.w\"\nc = \"unit([0, 0, 0])\"\nd = \"dot([1, 0, 0])\"\ne = \"norm(1)\"\nf = \"[1, 0, 0]^2\"\ng = \"cross\"\nh = \"[1, 0, 0]*[0, 1, 0]\"\ni = \"1/[1, 0, 0]\"\nj = \"sin([1, 0, 0])\"\nk = \"[[1, 0, 0], 0, 0]\"\nl = \"omega(Q)\"\nm = \"unti([1, 0, 0])\"\n"),
            &format!("{HEAD}kinetic = \"x'^2\"\npotential = \"N + x\"\n[initial.q]\nx = 0\n[frames.A]\nrotations = [{{ z = \"x\" }}]\n[points.G]\nposition = [\"x\", \"0\", \"0\"]\n[[bodies]]\nname = \"\"\nframe = \"A\"\ncentre = \"G\"\nmass = \"-1\"\ninertia = {{ xx = \"1\", yy = \"1\", zz = \"-2\" }}\nshape = {{ kind = \"dsk\" }}\n[[bodies]]\nname = \"w\"\nframe = \"A\"\ncentre = \"G\"\nmass = \"1\"\nshape = {{ kind = \"disk\" }}\n[[bodies]]\nname = \"w\"\ncentre = \"G\"\nmass = \"1\"\n[[rolling]]\nbody = \"w\"\non = \"w\"\ncontact = \"G\"\n[[loads]]\n[[loads]]\nforce = \"[0, 0, 1]\"\n[[loads]]\ntorque = \"[0, 0, 1]\"\n[[loads]]\npoint = \"G\"\ntorque = \"[0, 0, 1]\"\nbody = \"w\"\n"),
            &format!("{HEAD}kinetic = \"x'^2\"\n[initial.q]\nx = 0\n[gravity]\nmagnitude = \"9.8\"\ndirection = [\"0\", \"0\", \"0\"]\n"),
            &format!("{HEAD}kinetic = \"x'^2\"\n[initial.q]\nx = 0\n[frames.A]\nrotations = [{{ z = \"x\" }}]\n[points.G]\nposition = [\"x\", \"0\", \"0\"]\n[[bodies]]\nname = \"w\"\nframe = \"A\"\ncentre = \"G\"\nmass = \"1\"\ninertia = {{ xx = \"1\", yy = \"1\", zz = \"1\" }}\n[[rolling]]\nbody = \"w\"\ncontact = \"G\"\ntangents = [\"[1, 0, 0]\"]\n[[rolling]]\nbody = \"w\"\ncontact = \"G\"\nfriction = \"-1\"\n[[rolling]]\nbody = \"w\"\ncontact = \"G\"\nfriction = \"-1\"\n"),
            // An input's signal table, a particle's position.
            &format!("{HEAD}kinetic = \"x'^2\"\n[initial.q]\nx = 0\n[inputs.u]\nvalue = 0\nsignal = [[0, 0], [0, 1]]\n[[particles]]\nmass = \"1\"\nposition = [\"x\"]\n"),
            // The readers' syntax errors.
            "a = [1 2]",
            "x = tru",
            "[run",
            "a b = 1",
            "a = \"x",
        ];
        // JSON's syntax errors.
        let json = ["{\"format\": \"nhlab/1\",", "{\"a\": [1, 2}", "{a: 1}", "{\"format\": \"x\",}", "{\"a\": 1} x"];
        let texts = cases.iter().map(|t| (*t, nhlab::scenario::Format::Toml));
        for (text, format) in texts.chain(json.map(|t| (t, nhlab::scenario::Format::Json))) {
            let problems = match nhlab::prepare::Prepared::from_text(text, format) {
                Err(p) => p.0,
                Ok(prepared) => prepared.map.warnings,
            };
            assert!(!problems.is_empty(), "{text}");
            for p in problems {
                let m = p.said.as_ref().unwrap_or_else(|| panic!("{text}: no id for {p}"));
                assert!(m.well_formed(), "{m:?}");
                assert_eq!(m.english, p.message);
                set(Language::Zh);
                let said = message(m);
                set(Language::En);
                assert!(said.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{p}: {said}");
                let words = ["expected", "found", "unknown", "did you mean", " is not ", "missing", "needs", "invalid"];
                for english in words.iter().chain(&["unclosed", "EOF", "trailing", "with no value", "must be"]) {
                    assert!(!said.contains(english), "{p}: {said}");
                }
            }
        }
    }

    #[test]
    fn a_message_is_said_in_the_language_chosen() {
        let m = nhlab::simulation::hamel_end(1.25, Some("y"));
        set(Language::En);
        assert_eq!(message(&m), m.english);
        set(Language::Zh);
        let said = message(&m);
        set(Language::En);
        assert!(said.contains("1.25") && said.contains('y') && !said.contains("Hamel's embedding ends"), "{said}");
        assert_eq!(fill("{a} and {b} {c}", &[("a", &1), ("b", &"x")]), "1 and x {c}");
        // The English catalogue's text of a core id, filled, is the core's English:
        // the ids' parameters are named alike on both sides.
        for m in [nhlab::simulation::hamel_end(0.5, Some("x, y")), nhlab::simulation::hamel_end(2.0, None)] {
            let template = lookup(Language::En, &format!("core.{}", m.id)).expect("in en.json");
            assert_eq!(m.fill(template), m.english);
        }
    }

    /// Names in Chinese: the lab's own forms in its words, the gallery's names from
    /// the word list, a generated constraint's suffix kept; English and names the
    /// list lacks as written.
    #[test]
    fn names_are_said_in_the_language_of_the_page() {
        let cases = [
            ("body disk", "body disk", "刚体 圆盘"),
            ("disk rolls on ground: x", "disk rolls on ground: x", "圆盘在地面上滚动: x"),
            ("upper rolls on lower1", "upper rolls on lower1", "上圆柱在下圆柱 1上滚动"),
            ("body rear wheel", "body rear wheel", "刚体 后轮"),
            ("ball on incline: down", "ball on incline: down", "斜面上的球: 沿斜面向下"),
            ("steer torque", "steer torque", "转向力矩"),
            ("my own blade", "my own blade", "my own blade"),
        ];
        for (name, en, zh) in cases {
            set(Language::En);
            assert_eq!(self::name(name), en);
            set(Language::Zh);
            assert_eq!(self::name(name), zh, "{name}");
        }
        set(Language::En);
        assert!(tables::WORDS_ZH.windows(2).all(|w| w[0].0 < w[1].0), "sorted, once each");
        for (english, chinese) in tables::WORDS_ZH {
            assert!(
                chinese.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{english}: {chinese} is not Chinese"
            );
        }
    }
}
