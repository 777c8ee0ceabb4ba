//! The stability panel's map: `[stability]`'s `sweep` (across) and `map` (up), each
//! taken at up to [`MAP_SIDE`] of its values, the motion linearised at every point
//! of that grid by the core's [`Study::at_point`] (as `nhlab linearize --sweep A=…
//! --sweep B=…` does) — **progressively**: every [`COARSE`]-th value of each axis
//! first, so that the whole map is drawn at once, then the rest, row by row.
//!
//! The helper worker holds one [`MapWork`] and advances it in slices, posting what
//! it has between them. The boundaries drawn are where neighbouring cells differ
//! (the command line refines them by bisection; the page shows cells).

use serde::{Deserialize, Serialize};

use crate::i18n::tr;
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::prepare::Prepared;
use nhlab::scenario::SourceMap;
use nhlab::stability::{is_neutral, is_stable, Derivatives, Study, StudyError, Swept};

/// Most values of each axis the page's map takes (the bicycle's 100 × 100 is about
/// 10,000 linearisations).
pub const MAP_SIDE: usize = 100;

/// The coarse pass takes every `COARSE`-th value of each axis.
pub const COARSE: usize = 4;

/// An axis of the page's map.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MapAxisData {
    /// The swept quantity (`rear'`, `c`).
    pub over: String,
    /// `parameter` or `velocity`: what a click edits.
    pub kind: String,
    /// Its label on the figure: the derived axis' (`v (m/s)`) when the sweep has one.
    pub label: String,
    /// The swept values the map takes.
    pub values: Vec<f64>,
    /// The values drawn: the derived axis' at `values`, else `values`.
    pub shown: Vec<f64>,
    /// The derived axis' name and unit (`v`, `m/s`), or the quantity's and empty.
    pub name: String,
    /// See `name`.
    pub unit: String,
    /// The value the running scenario uses.
    pub current: f64,
}

/// The map so far, as the page draws it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MapData {
    /// Across: `[stability] sweep`.
    pub x: MapAxisData,
    /// Up: `[stability] map`.
    pub y: MapAxisData,
    /// Each point's largest real part, `y` fastest (NaN until computed, or where the
    /// linearisation failed).
    pub max_real: Vec<f64>,
    /// 1 stable, 2 neutrally stable ([`is_neutral`]), 0 unstable, -1 not yet
    /// computed or failed.
    pub stable: Vec<i8>,
    /// Points computed, and in all.
    pub done: usize,
    /// See `done`.
    pub total: usize,
    /// Points where the linearisation failed, and why at the first.
    pub failed: usize,
    /// See `failed`.
    pub first_error: String,
    /// The method linearised, the reduced state and the speeds held (at the first
    /// point computed).
    pub method: String,
    /// See `method`.
    pub state: Vec<String>,
    /// See `method`.
    pub held: Vec<String>,
}

impl MapData {
    /// Each cell's largest real part, stability and neutral stability for drawing:
    /// a cell not computed yet shows the coarse point whose cell holds it (the coarse
    /// pass comes first).
    pub fn filled(&self) -> (Vec<f64>, Vec<bool>, Vec<bool>) {
        let ny = self.y.values.len();
        let cell = |k: usize| {
            if self.stable[k] >= 0 || self.done == self.total {
                return k;
            }
            let (i, j) = (k / ny, k % ny);
            (i - i % COARSE) * ny + (j - j % COARSE)
        };
        let max_real = (0..self.max_real.len()).map(|k| self.max_real[cell(k)]).collect();
        let stable = (0..self.stable.len()).map(|k| self.stable[cell(k)] >= 1).collect();
        let neutral = (0..self.stable.len()).map(|k| self.stable[cell(k)] == 2).collect();
        (max_real, stable, neutral)
    }

    /// The boundaries drawn: the middle between neighbouring computed cells of
    /// opposite stability, across and up, on the drawn axes.
    pub fn boundaries(&self) -> Vec<(f64, f64)> {
        let (nx, ny) = (self.x.values.len(), self.y.values.len());
        let (xs, ys) = (&self.x.shown, &self.y.shown);
        let mut out = Vec::new();
        for i in 0..nx {
            for j in 0..ny {
                // Stable (or neutrally) against unstable.
                let side = |k: usize| match self.stable[k] {
                    -1 => None,
                    0 => Some(false),
                    _ => Some(true),
                };
                let Some(here) = side(i * ny + j) else { continue };
                if i + 1 < nx && side((i + 1) * ny + j) == Some(!here) {
                    out.push((0.5 * (xs[i] + xs[i + 1]), ys[j]));
                }
                if j + 1 < ny && side(i * ny + j + 1) == Some(!here) {
                    out.push((xs[i], 0.5 * (ys[j] + ys[j + 1])));
                }
            }
        }
        out
    }
}

/// Up to [`MAP_SIDE`] of `values`, evenly spread by index, both ends kept.
fn decimated(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    if n <= MAP_SIDE {
        return values.to_vec();
    }
    (0..MAP_SIDE).map(|k| values[(k * (n - 1) + (MAP_SIDE - 1) / 2) / (MAP_SIDE - 1)]).collect()
}

/// A map being computed: the model derived once, its points in progressive order.
pub struct MapWork {
    model: Model,
    numeric: NumericModel,
    map: SourceMap,
    study: Study,
    derivatives: Derivatives,
    swept: [(String, Swept); 2],
    order: Vec<usize>,
    next: usize,
    data: MapData,
}

impl MapWork {
    /// The map the scenario `text` declares, before any point is computed; `None`
    /// when its `[stability]` has no `map` (and `sweep`). Errors are messages for
    /// the panel's caption.
    pub fn new(text: &str) -> Result<Option<MapWork>, String> {
        let format = nhlab::scenario::format_of(text);
        let needs = |s: &nhlab::scenario::Scenario| {
            let hamel = s.stability.as_ref().and_then(|t| t.method.as_deref()) == Some("hamel");
            Needs::for_methods(
                &[if hamel { nhlab::formulations::Method::Hamel } else { nhlab::formulations::Method::Lagrange }],
                false,
            )
        };
        let p = Prepared::from_text_for(text, format, needs)
            .map_err(|p| crate::lab::said_briefly(&crate::lab::problems(p)))?;
        let Some(spec) = p.model.scenario.stability.clone() else { return Ok(None) };
        let (Some(sweep), Some(up)) = (spec.sweep.clone(), spec.map.clone()) else { return Ok(None) };
        let said = |e: StudyError| crate::i18n::message(&e.message("stability."));
        let study = Study::new(&p.model, &spec).map_err(said)?;
        let derivatives = study.derivatives(&p.model).map_err(said)?;
        let across = Study::swept(&p.model, &sweep).map_err(said)?;
        let along = Study::swept(&p.model, &up).map_err(|e| said(e).replacen("stability.sweep", "stability.map", 1))?;
        let axis_of = |(over, swept, values): &(String, Swept, Vec<f64>)| {
            let (kind, current) = match swept {
                Swept::Parameter(i) => ("parameter", p.numeric.parameters[*i]),
                Swept::Velocity(_) => {
                    let q = over.trim_end_matches('\'');
                    let i = p.model.scenario.coordinates.iter().position(|c| c == q);
                    ("velocity", i.and_then(|i| p.initial.v.get(i).copied()).unwrap_or(f64::NAN))
                }
            };
            let values = decimated(values);
            MapAxisData {
                over: over.clone(),
                kind: kind.into(),
                label: over.clone(),
                shown: values.clone(),
                values,
                name: over.clone(),
                unit: String::new(),
                current,
            }
        };
        let mut x = axis_of(&across);
        // Across on the derived axis when the sweep has one (the bicycle's speed).
        if let Some(a) = &study.axis {
            x.shown = x.values.iter().map(|&v| nhlab_plots::on_axis(v, &across.2, &a.values)).collect();
            x.label = a.label();
            x.name = a.name.clone();
            x.unit = a.unit.clone().unwrap_or_default();
        }
        let y = axis_of(&along);
        let (nx, ny) = (x.values.len(), y.values.len());
        let coarse = |k: &usize| (k / ny).is_multiple_of(COARSE) && (k % ny).is_multiple_of(COARSE);
        let (first, rest): (Vec<usize>, Vec<usize>) = (0..nx * ny).partition(coarse);
        let total = nx * ny;
        let data = MapData {
            x,
            y,
            max_real: vec![f64::NAN; total],
            stable: vec![-1; total],
            done: 0,
            total,
            failed: 0,
            first_error: String::new(),
            method: study.method.id().into(),
            state: Vec::new(),
            held: Vec::new(),
        };
        Ok(Some(MapWork {
            swept: [(across.0, across.1), (along.0, along.1)],
            model: p.model,
            numeric: p.numeric,
            map: p.map,
            study,
            derivatives,
            order: first.into_iter().chain(rest).collect(),
            next: 0,
            data,
        }))
    }

    /// Computes up to `count` more points; returns how many are left.
    pub fn advance(&mut self, count: usize) -> usize {
        let end = (self.next + count).min(self.order.len());
        for n in self.next..end {
            self.compute(self.order[n]);
        }
        self.data.done = end;
        self.next = end;
        self.order.len() - end
    }

    /// Point `k` (`y` fastest), into the map's data.
    fn compute(&mut self, k: usize) {
        let ny = self.data.y.values.len();
        {
            let (x, y) = (self.data.x.values[k / ny], self.data.y.values[k % ny]);
            let [(a, sa), (b, sb)] = &self.swept;
            let point = [(a.as_str(), sa, x), (b.as_str(), sb, y)];
            let saved = self.numeric.parameters.clone();
            let lin = self.study.at_point(&mut self.model, &mut self.numeric, &mut self.derivatives, &self.map, &point);
            self.numeric.parameters = saved;
            match lin {
                Ok(l) if l.eigenvalues.iter().all(|e| e.re.is_finite() && e.im.is_finite()) => {
                    self.data.max_real[k] = l.eigenvalues.iter().map(|e| e.re).fold(f64::NEG_INFINITY, f64::max);
                    self.data.stable[k] = if is_neutral(&l) { 2 } else { i8::from(is_stable(&l)) };
                    if self.data.state.is_empty() {
                        self.data.state = l.state.clone();
                        self.data.held = l.held_speeds.clone();
                    }
                }
                other => {
                    self.data.failed += 1;
                    if self.data.first_error.is_empty() {
                        let why = match other {
                            Err(e) => crate::i18n::message(&e.message("stability.")),
                            Ok(_) => crate::i18n::message(&nhlab::message::stability::eigenvalue_not_finite()),
                        };
                        self.data.first_error = tr(
                            "stability.map-at",
                            &[("x", &format!("{a} = {x}")), ("y", &format!("{b} = {y}")), ("why", &why)],
                        );
                    }
                }
            }
        }
    }

    /// The map so far.
    pub fn data(&self) -> &MapData {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn computed(text: &str) -> MapData {
        let mut work = MapWork::new(text).unwrap().expect("a map");
        while work.advance(500) > 0 {}
        work.data().clone()
    }

    /// The coin's map over spin and radius: upright rolling is stable exactly where
    /// `phi'² > g/(3r)` (the closed form), at every radius; each cell agrees with
    /// the 1-D sweep's rule.
    #[test]
    fn the_coin_s_map_follows_the_closed_form_boundary() {
        let d = computed(crate::gallery::text("rolling-disk").unwrap());
        assert_eq!((d.done, d.failed), (d.total, 0));
        let ny = d.y.values.len();
        assert!(d.x.values.len() <= MAP_SIDE && ny <= MAP_SIDE && ny > 10);
        let mut checked = 0;
        for (i, &spin) in d.x.values.iter().enumerate() {
            for (j, &r) in d.y.values.iter().enumerate() {
                let margin = spin * spin - 9.81 / (3.0 * r);
                if margin.abs() < 1e-6 {
                    continue;
                }
                // Above the critical spin the wobble is a neutral oscillation.
                assert_eq!(d.stable[i * ny + j], if margin > 0.0 { 2 } else { 0 }, "phi' = {spin}, r = {r}");
                checked += 1;
            }
        }
        assert!(checked > 5000, "{checked}");
        assert!(!d.boundaries().is_empty());
    }

    /// Coarse first: after the coarse pass every cell is drawn (from its coarse
    /// point), and the values of those points are the final ones.
    #[test]
    fn the_coarse_pass_fills_the_map_first() {
        let text = crate::gallery::text("rolling-disk").unwrap();
        let mut work = MapWork::new(text).unwrap().unwrap();
        let (nx, ny) = (work.data().x.values.len(), work.data().y.values.len());
        let coarse = nx.div_ceil(COARSE) * ny.div_ceil(COARSE);
        assert_eq!(work.advance(coarse), nx * ny - coarse);
        let (early, _, _) = work.data().filled();
        assert!(early.iter().all(|m| m.is_finite()));
        let last = computed(text);
        for k in (0..nx * ny).filter(|k| (k / ny).is_multiple_of(COARSE) && (k % ny).is_multiple_of(COARSE)) {
            assert_eq!(work.data().max_real[k].to_bits(), last.max_real[k].to_bits());
        }
    }

    /// The bicycle's map: across its forward speed (the derived axis), up its trail;
    /// at the benchmark's trail the stable cells lie between the weave and capsize
    /// speeds (4.292 and 6.024 m/s).
    #[test]
    fn the_bicycle_map_is_against_speed_and_trail() {
        let text = crate::gallery::text("whipple-bicycle").unwrap();
        let mut work = MapWork::new(text).unwrap().unwrap();
        let (ny, j) = {
            let d = work.data();
            assert_eq!((d.x.label.as_str(), d.y.over.as_str()), ("v (m/s)", "c"));
            assert!((d.x.current - 16.666666666666668).abs() < 1e-12 && d.y.current == 0.08);
            (
                d.y.values.len(),
                d.y.values.iter().position(|&c| (c - 0.08).abs() < 1e-12).expect("the benchmark's trail"),
            )
        };
        // The benchmark trail's row only (a whole map is slow unoptimised).
        let nx = work.data().x.values.len();
        for i in 0..nx {
            work.compute(i * ny + j);
        }
        let d = work.data();
        assert_eq!(d.failed, 0, "{}", d.first_error);
        for (i, &v) in d.x.shown.iter().enumerate() {
            assert!((v - 0.3 * d.x.values[i]).abs() < 1e-12);
            if (v - 4.2924).abs() > 0.02 && (v - 6.0243).abs() > 0.02 {
                assert_eq!(d.stable[i * ny + j] == 1, v > 4.2924 && v < 6.0243, "v = {v}");
            }
        }
    }

    #[test]
    fn decimation_keeps_the_ends_and_the_sweep_s_own_values() {
        let values: Vec<f64> = (0..1001).map(|k| f64::from(k) * 0.5).collect();
        let d = decimated(&values);
        assert_eq!((d.len(), d[0], d[99]), (100, 0.0, 500.0));
        assert!(d.iter().all(|x| values.contains(x)) && d.windows(2).all(|w| w[1] > w[0]));
        assert_eq!(decimated(&values[..50]), values[..50]);
    }
}
