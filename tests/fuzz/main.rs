//! The fuzz suite (issue 9): over a million generated inputs through every way text
//! enters the lab — the expression parser, the TOML and JSON loaders, the share-link
//! decoder — and whole small models through load, derive (every method), evaluation
//! and a bounded run. Nothing may panic, and every case must finish within a bound.
//!
//! How inputs are made:
//! - **grammar-aware**: random expression trees printed as text; scenarios whose
//!   values are replaced by values of the right kind and of the wrong kind (random
//!   expressions, extreme numbers, NaN, strings, arrays, tables), whose lines are
//!   deleted, duplicated or swapped;
//! - **byte mutation**: random insertions, deletions, replacements and duplicated
//!   spans in the gallery's scenario texts, their JSON and their share payloads;
//! - **hostile shapes** (`nhlab_tests::shapes`): vectors chained by `cross()`, values
//!   nested past the loaders' bound, megabyte lines, repeated contacts, every method
//!   over every parameter set.
//!
//! Every case is made from `(seed, case)` alone, and the cases are shared out over
//! the machine's cores. Run it:
//!
//! ```text
//! cargo test --release -p nhlab-tests --test fuzz            # as CI does (which adds
//!                                                            # debug assertions: scripts/test.sh)
//! NHLAB_FUZZ_SEED=7 cargo test --release -p nhlab-tests --test fuzz   # another seed
//! NHLAB_FUZZ_SCALE=0.1 …                                     # a tenth of the cases
//! ```
//!
//! A failure prints the stage, seed and case, and writes the input to
//! `target/fuzz-failures/`; `NHLAB_FUZZ_SEED=S NHLAB_FUZZ_CASE=C` replays that one case.
//!
//! **Bounded by work, not by the clock.** Each case's work is bounded by the lab's
//! own limits — the core's model sizes (`nhlab::limits`), a run's steps and samples
//! (300 each here), the loaders' nesting and length bounds — so a case that does
//! not end is a defect whatever the machine. The wall clock is only a backstop for
//! a hang: 10 × the slowest unmutated gallery model measured at the start of the
//! same run (so a busy machine raises it with the cases), and never under 30 s; a
//! case normally takes microseconds (the loaders) to a second (the bicycle, every
//! method). The slowest cases of each stage are printed as figures.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nhlab::derivation::derive;
use nhlab::formulations::{accelerations_with_multipliers, Method};
use nhlab::prepare::Prepared;
use nhlab::scenario::{decode_share, encode_share, encode_share_text, load_json, load_toml, share_text};
use nhlab::simulation::{Limits, Settings, Simulation};
use nhlab_tests::mutate::{mutate_bytes, mutate_scenario, mutate_values};
use nhlab_tests::random::{Rng, Tree};
use nhlab_tests::shapes;

/// How a stage makes a case's input from the case's generator and the suite's gallery.
type Make = dyn Fn(&mut Rng, &Fuzz) -> String + Sync;
/// What a stage puts each input through.
type Body = dyn Fn(&str) + Sync;

/// Whole models that loaded, and runs that took steps: the model stage must do work.
static LOADED: AtomicUsize = AtomicUsize::new(0);
static RAN: AtomicUsize = AtomicUsize::new(0);
/// Hostile scenarios exported in every language: the export stage must do work.
static EXPORTED: AtomicUsize = AtomicUsize::new(0);

/// The backstop never falls below this: a hang, not a slow machine.
const LEAST_BOUND: Duration = Duration::from_secs(30);

/// How many times the slowest unmutated gallery model a case may take.
const BOUND_FACTOR: u32 = 10;

/// Cases named among the slowest, per stage.
const SLOWEST_SHOWN: usize = 3;

struct Fuzz {
    seed: u64,
    only: Option<u64>,
    scale: f64,
    gallery: Vec<(String, String)>,
    /// The wall-clock backstop of one case ([`Fuzz::calibrate`]).
    bound: Duration,
    /// The slowest cases so far: time, stage and case.
    slowest: Vec<(Duration, String)>,
}

impl Fuzz {
    fn new() -> Fuzz {
        let env = |k: &str| std::env::var(k).ok();
        let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
        let mut gallery: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        gallery.sort();
        Fuzz {
            seed: env("NHLAB_FUZZ_SEED").and_then(|s| s.parse().ok()).unwrap_or(0x5eed_f022),
            only: env("NHLAB_FUZZ_CASE").and_then(|s| s.parse().ok()),
            scale: env("NHLAB_FUZZ_SCALE").and_then(|s| s.parse().ok()).unwrap_or(1.0),
            gallery,
            bound: LEAST_BOUND,
            slowest: Vec::new(),
        }
    }

    /// Times each unmutated gallery scenario through [`whole_model`] once, on this
    /// machine as loaded now, and sets the backstop from the slowest.
    fn calibrate(&mut self) {
        let (mut slowest, mut name) = (Duration::ZERO, String::new());
        for (stem, text) in &self.gallery {
            let started = Instant::now();
            whole_model(text);
            let took = started.elapsed();
            if took > slowest {
                (slowest, name) = (took, stem.clone());
            }
        }
        self.bound = (slowest * BOUND_FACTOR).max(LEAST_BOUND);
        println!(
            "fuzz: the slowest gallery model ({name}) takes {:.2} s here; a case's backstop is {:.0} s",
            slowest.as_secs_f64(),
            self.bound.as_secs_f64()
        );
    }

    fn count(&self, n: u64) -> u64 {
        ((n as f64 * self.scale) as u64).max(1)
    }

    /// Runs `body` on each case's input; a panic or a case over the bound fails the
    /// test with everything needed to replay it. Returns the number of cases run.
    /// The cases are shared out over the machine's cores (case `c` to worker
    /// `c mod workers`): each is made from `(seed, case)` alone, so the inputs, and
    /// which case fails, do not depend on how many workers there are.
    fn cases(&mut self, stage: &str, n: u64, make: &Make, body: &Body) -> u64 {
        let n = self.count(n);
        let started = Instant::now();
        let workers = std::thread::available_parallelism().map_or(1, |w| w.get()).clamp(1, 4) as u64;
        let this = &*self;
        let outcomes: Vec<Result<(u64, Vec<(Duration, u64)>), String>> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                (0..workers).map(|w| scope.spawn(move || this.worker(stage, n, w, workers, make, body))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a fuzz worker panicked".into()))).collect()
        });
        let mut run = 0;
        let mut failures = Vec::new();
        let mut slowest = Vec::new();
        for outcome in outcomes {
            match outcome {
                Ok((count, worker_slowest)) => {
                    run += count;
                    slowest
                        .extend(worker_slowest.into_iter().map(|(took, case)| (took, format!("{stage} case {case}"))));
                }
                Err(e) => failures.push(e),
            }
        }
        if let Some(first) = failures.first() {
            panic!("{first}");
        }
        slowest.sort_by(|a, b| b.0.cmp(&a.0));
        slowest.truncate(SLOWEST_SHOWN);
        let shown: Vec<String> = slowest.iter().map(|(d, c)| format!("{c} {:.3} s", d.as_secs_f64())).collect();
        println!(
            "fuzz stage {stage}: {run} cases in {:.1} s; slowest: {}",
            started.elapsed().as_secs_f64(),
            shown.join(", ")
        );
        self.slowest.extend(slowest);
        run
    }

    /// One worker's share of [`Fuzz::cases`]: the cases run, and its slowest cases
    /// (time and number); or the first failure, described for replaying.
    fn worker(
        &self,
        stage: &str,
        n: u64,
        worker: u64,
        workers: u64,
        make: &Make,
        body: &Body,
    ) -> Result<(u64, Vec<(Duration, u64)>), String> {
        let (mut run, mut slowest) = (0, Vec::new());
        for case in (worker..n).step_by(workers as usize) {
            if self.only.is_some_and(|c| c != case) {
                continue;
            }
            let mut rng = Rng::new(self.seed ^ case.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ hash(stage));
            let input = make(&mut rng, self);
            let started = Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| body(&input)));
            let took = started.elapsed();
            if outcome.is_err() || took > self.bound {
                let dir = format!("{}/../target/fuzz-failures", env!("CARGO_MANIFEST_DIR"));
                std::fs::create_dir_all(&dir).ok();
                let path = format!("{dir}/{stage}-{}-{case}.txt", self.seed);
                std::fs::write(&path, &input).ok();
                let what = match outcome {
                    Err(_) => "panicked".to_string(),
                    Ok(()) => format!("took {took:?}, past the backstop of {:?} (a hang)", self.bound),
                };
                return Err(format!(
                    "fuzz stage `{stage}` case {case} {what}; input in {path}; replay with NHLAB_FUZZ_SEED={} NHLAB_FUZZ_CASE={case}",
                    self.seed
                ));
            }
            slowest.push((took, case));
            if slowest.len() > 4 * SLOWEST_SHOWN {
                slowest.sort_by(|a, b| b.0.cmp(&a.0));
                slowest.truncate(SLOWEST_SHOWN);
            }
            run += 1;
        }
        slowest.sort_by(|a, b| b.0.cmp(&a.0));
        slowest.truncate(SLOWEST_SHOWN);
        Ok((run, slowest))
    }
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

// ---- generators (shared with the command line's fuzz test: `nhlab_tests::mutate`) ----

fn gallery_text<'a>(rng: &mut Rng, f: &'a Fuzz) -> &'a str {
    let k = rng.below(f.gallery.len());
    &f.gallery[k].1
}

/// Gallery models the model stage draws less often than the others, and how many
/// times less: one unmutated Whipple bicycle through [`whole_model`] costs about as
/// much as the other gallery models together (1.5 s against 0.6 s, most of it
/// deriving its seven methods), so drawn evenly it took 70 % of the stage. What it
/// is built from (bodies, frames, rolling contacts, vectors) the rattleback, the
/// rolling disk and the Chaplygin sphere exercise as well.
const DRAWN_LESS: &[(&str, usize)] = &[("whipple-bicycle", 4)];

/// A gallery text for the model stage: each model evenly, but for [`DRAWN_LESS`].
fn model_text<'a>(rng: &mut Rng, f: &'a Fuzz) -> &'a str {
    loop {
        let (stem, text) = &f.gallery[rng.below(f.gallery.len())];
        let less = DRAWN_LESS.iter().find(|(name, _)| name == stem).map_or(1, |&(_, times)| times);
        if rng.below(less) == 0 {
            return text;
        }
    }
}

/// The JSON of a gallery scenario.
fn gallery_json(rng: &mut Rng, f: &Fuzz) -> String {
    load_toml(gallery_text(rng, f)).unwrap().0.to_json().unwrap()
}

// ---- what each stage does with an input ---------------------------------------

fn parse_expression(input: &str) {
    let mut g = nhlab_tests::graph();
    let _ = g.parse_with(input, nhlab::expr::ParseOptions { allow_accelerations: input.len() % 2 == 0 });
}

fn load_any(input: &str) {
    let _ = load_toml(input);
    let _ = load_json(input);
}

fn decode(input: &str) {
    if let Ok((s, _)) = decode_share(input) {
        let _ = s.to_toml();
    }
    let _ = share_text(input);
}

/// A whole model: load, derive every method, evaluate each at the initial state,
/// and run two methods a bounded number of steps.
fn whole_model(input: &str) {
    let Ok(p) = Prepared::from_text(input, nhlab::scenario::format_of(input)) else { return };
    LOADED.fetch_add(1, Ordering::Relaxed);
    for method in Method::ALL {
        if let Ok(d) = derive(&p.model, method) {
            for e in d.equations.iter().take(4) {
                let _ = (d.text(e), d.latex(e), d.mathml(e));
            }
        }
        let mut numeric = p.numeric.clone();
        let s = &p.initial;
        let _ = accelerations_with_multipliers(method, &mut numeric, s.t, &s.q, &s.v, &s.mu);
    }
    for method in [Method::Lagrange, Method::ALL[input.len() % Method::ALL.len()]] {
        let mut settings = Settings::from_scenario(&p.model.scenario.run, method);
        settings.limits = Limits { max_steps: 300, max_samples: 300 };
        if let Ok(mut sim) = Simulation::new(p.numeric.clone(), settings, &p.initial) {
            let _ = sim.advance_to(p.initial.t + p.model.scenario.run.t_end_or_default());
            if sim.samples().len() > 1 {
                RAN.fetch_add(1, Ordering::Relaxed);
            }
            let _ =
                nhlab::export::samples_table(&p.model, &[(method, &sim.samples().to_vec())], String::new()).to_csv();
        }
    }
}

/// The model's file in every language: the user's text (title, constraint names)
/// adds no comment end or start, no docstring end and no trigraph to the file
/// beyond what a plain title gives, and no invisible character at all.
fn export_every_language(input: &str) {
    use nhlab::code_export::{export, Language};
    let Ok((scenario, map)) = load_toml(input) else { return };
    let needs = nhlab::mechanics::Needs::BASE.holding_inputs();
    let Ok(mut p) = Prepared::from_scenario_for(&scenario, map.clone(), needs) else { return };
    let mut plain = scenario.clone();
    plain.title = "plain".into();
    plain.constraints.iter_mut().for_each(|c| c.name = Some("plain".into()));
    let Ok(mut q) = Prepared::from_scenario_for(&plain, map, needs) else { return };
    for language in Language::ALL {
        let (Ok(code), Ok(reference)) = (
            export(&p.model, &mut p.numeric, &p.initial, language, "fuzz", "test"),
            export(&q.model, &mut q.numeric, &q.initial, language, "fuzz", "test"),
        ) else {
            continue;
        };
        for sequence in ["*/", "/*", "??", "\"\"\""] {
            assert_eq!(
                code.matches(sequence).count(),
                reference.matches(sequence).count(),
                "{}: the user's text added `{sequence}`",
                language.id()
            );
        }
        let invisible = code.chars().find(|&c| {
            (c.is_control() && c != '\n')
                || ('\u{2028}'..='\u{202E}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
                || ('\u{200B}'..='\u{200F}').contains(&c)
                || c == '\u{FEFF}'
        });
        assert_eq!(invisible, None, "{}: an invisible character in the file", language.id());
        assert_eq!(code.lines().count(), reference.lines().count(), "{}: the user's text added a line", language.id());
    }
    EXPORTED.fetch_add(1, Ordering::Relaxed);
}

/// A share link's payload: of a mutated scenario (version 2 carries any text, valid
/// or not; version 1 a loaded scenario), as it is or with its bytes mutated.
fn share_payload(r: &mut Rng, f: &Fuzz) -> String {
    let original = gallery_text(r, f);
    let text = mutate_scenario(r, original);
    let payload = if r.below(2) == 0 {
        encode_share_text(&text).ok()
    } else {
        load_toml(&text).ok().and_then(|(s, _)| encode_share(&s).ok())
    };
    match payload {
        Some(p) if r.below(2) == 0 => p,
        Some(p) => mutate_bytes(r, &p),
        None => {
            let p = encode_share(&load_toml(original).unwrap().0).unwrap();
            mutate_bytes(r, &p)
        }
    }
}

/// [`whole_model`], after holding that a misspelt key after a deeply nested value is
/// refused or warned about, never dropped.
fn misspelt_key_warned_then_whole_model(input: &str) {
    if input.contains("potentail") {
        if let Ok((_, map)) = nhlab::scenario::load(input, nhlab::scenario::format_of(input)) {
            assert!(map.warnings.iter().any(|w| w.field == "potentail"), "the misspelt key went unwarned");
        }
    }
    whole_model(input)
}

#[test]
fn a_million_generated_inputs_cause_no_panic_and_stay_bounded() {
    let started = Instant::now();
    let mut f = Fuzz::new();
    for (name, _) in DRAWN_LESS {
        assert!(f.gallery.iter().any(|(stem, _)| stem == name), "DRAWN_LESS names `{name}`, not in the gallery");
    }
    f.calibrate();
    // The stages, in order: a name, how many cases, how a case's input is made, and
    // what it goes through.
    let stages: [(&str, u64, &Make, &Body); 9] = [
        // 1. The expression parser: grammar-aware trees, and the same with bytes mutated.
        (
            "expression",
            428_000,
            &|r, _| {
                let depth = 1 + r.below(6);
                Tree::random(r, depth).text()
            },
            &parse_expression,
        ),
        (
            "expression-bytes",
            300_000,
            &|r, _| {
                let depth = 1 + r.below(5);
                let t = Tree::random(r, depth).text();
                mutate_bytes(r, &t)
            },
            &parse_expression,
        ),
        // 2. The loaders: gallery texts mutated by bytes and by grammar, and their JSON.
        (
            "toml-bytes",
            80_000,
            &|r, f| {
                let text = gallery_text(r, f);
                mutate_bytes(r, text)
            },
            &load_any,
        ),
        (
            "toml-grammar",
            60_000,
            &|r, f| {
                let text = gallery_text(r, f);
                mutate_scenario(r, text)
            },
            &load_any,
        ),
        (
            "json-bytes",
            60_000,
            &|r, f| {
                let json = gallery_json(r, f);
                mutate_bytes(r, &json)
            },
            &load_any,
        ),
        // 3. The share-link decoder: valid payloads of mutated scenarios, mutated payloads.
        ("share", 60_000, &share_payload, &decode),
        // 4. Whole models through load, derive, eval and a bounded run.
        (
            "model",
            12_000,
            &|r, f| {
                let text = model_text(r, f);
                if r.below(3) == 0 {
                    mutate_scenario(r, text)
                } else {
                    mutate_values(r, text)
                }
            },
            &whole_model,
        ),
        // 5. The shapes hardening round 3 found weakest (issue 35): chained vectors,
        //    deep nesting, long lines, repeated contacts, every method over every set.
        ("shapes", 400, &|r, _| shapes::hostile_shape(r), &misspelt_key_warned_then_whole_model),
        // 6. Hostile text through every exporter (issue 57): the user's text may not
        //    end a comment or a string of the file, nor put an invisible character in
        //    it; the files compiled and run are `tests/mechanics/code_export.rs`'s.
        ("export", 400, &|r, _| nhlab_tests::hostile::hostile_export_scenario(r), &export_every_language),
    ];
    let mut total = 0;
    for (stage, n, make, body) in stages {
        total += f.cases(stage, n, make, body);
    }
    let expected: u64 = stages.iter().map(|&(_, n, _, _)| f.count(n)).sum();
    let (loaded, ran) = (LOADED.load(Ordering::Relaxed), RAN.load(Ordering::Relaxed));
    f.slowest.sort_by(|a, b| b.0.cmp(&a.0));
    let (slowest, which) = f.slowest.first().cloned().unwrap_or_default();
    println!(
        "fuzz: {total} inputs (seed {}) in {:.1} s; {loaded} mutated models loaded, {ran} runs stepped; slowest case {:.3} s ({which}) against a backstop of {:.0} s",
        f.seed,
        started.elapsed().as_secs_f64(),
        slowest.as_secs_f64(),
        f.bound.as_secs_f64()
    );
    if f.only.is_none() {
        assert!(total >= expected, "{total} of {expected} cases ran");
        let models = f.count(12_000) as usize;
        assert!(
            loaded * 3 >= models && ran * 3 >= models,
            "the model stage did too little: {loaded} loaded, {ran} ran of {models}"
        );
        let exported = EXPORTED.load(Ordering::Relaxed);
        assert!(exported * 2 >= f.count(400) as usize, "the export stage exported only {exported}");
    }
}
