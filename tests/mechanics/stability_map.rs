//! Stability maps (`nhlab::stability::StabilityMap`) against the 1-D sweeps they are
//! made of and the published bicycle speeds.

use nhlab::scenario::{SourceMap, SweepSpec};
use nhlab::stability::{Grid, MapAxis, StabilityMap, Study, Swept};

/// The bicycle's map over the rear wheel's rate (its `[stability]` sweep, coarser)
/// and the trail `c`: along `rear'` at each trail it is the 1-D sweep at that trail —
/// the same eigenvalues at every point, the same boundaries — and at the benchmark's
/// trail the boundaries are the published weave and capsize speeds; across the
/// trail, a boundary is where a 1-D sweep over the trail at that rate puts it.
#[test]
fn the_bicycle_map_is_its_sweeps_and_the_published_speeds() {
    let (mut model, mut numeric, mut derivatives) = nhlab_tests::scenarios::linearisable("whipple-bicycle");
    let map = SourceMap::default();
    let r_r = model.scenario.parameters["rR"];
    let c_index = model.parameters.iter().position(|p| p.name == "c").unwrap();
    let spec = model.scenario.stability.clone().expect("a [stability] table");
    let mut study = Study::new(&model, &spec).unwrap();
    let rates: Vec<f64> = (0..=100).map(|k| 0.333 * f64::from(k)).collect();
    let trails = vec![0.04, 0.08, 0.12];
    let axes = vec![
        MapAxis { name: "rear'".into(), values: rates.clone() },
        MapAxis { name: "c".into(), values: trails.clone() },
    ];
    let swept = [("rear'", Swept::Velocity("rear'".into())), ("c", Swept::Parameter(c_index))];
    let saved = numeric.parameters.clone();
    let stability_map = StabilityMap::compute(Grid::new(axes).unwrap(), |p: &[f64]| {
        let point: Vec<(&str, &Swept, f64)> = swept.iter().zip(p).map(|((n, s), &x)| (*n, s, x)).collect();
        let lin = study.at_point(&mut model, &mut numeric, &mut derivatives, &map, &point);
        numeric.parameters.clone_from(&saved);
        lin
    })
    .unwrap();
    assert_eq!(stability_map.points.len(), 303);

    for (j, &c) in trails.iter().enumerate() {
        // The 1-D sweep over the same rates at this trail, as `linearize --sweep` runs it.
        numeric.parameters[c_index] = c;
        let mut one = study.clone();
        one.sweep = Some(("rear'".into(), Swept::Velocity("rear'".into()), rates.clone()));
        let sweep = one.run(&mut model, &mut numeric, &mut derivatives, &map).unwrap();
        numeric.parameters.clone_from(&saved);
        for (i, row) in sweep.rows.iter().enumerate() {
            let point = &stability_map.points[i * trails.len() + j];
            let mut want = row.eigenvalues.clone();
            want.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
            assert_eq!(point.eigenvalues.len(), want.len());
            for (a, b) in point.eigenvalues.iter().zip(&want) {
                assert!((a - b).norm() <= 1e-9 * (1.0 + b.norm()), "c = {c}, rear' = {}: {a} against {b}", rates[i]);
            }
            assert_eq!(point.stable, nhlab::stability::is_stable(row));
        }
        let along: Vec<_> = stability_map
            .boundaries
            .iter()
            .filter(|b| b.axis == 0 && b.from % trails.len() == j)
            .map(|b| (b.value, b.becomes_stable))
            .collect();
        let want: Vec<_> = sweep.boundaries.iter().map(|b| (b.value, b.becomes_stable)).collect();
        assert_eq!(along.len(), want.len(), "c = {c}: {along:?} against {want:?}");
        for (a, b) in along.iter().zip(&want) {
            assert!((a.0 - b.0).abs() < 1e-9 && a.1 == b.1, "c = {c}: {a:?} against {b:?}");
        }
        if c == 0.08 {
            let speeds: Vec<f64> = along.iter().map(|b| b.0 * r_r).collect();
            assert!(along[0].1 && (speeds[0] - 4.29238253634111).abs() < 1e-9, "weave {speeds:?}");
            assert!(!along[1].1 && (speeds[1] - 6.02426201538837).abs() < 1e-9, "capsize {speeds:?}");
        }
    }

    // Across the trail: a 1-D sweep over the trail, at that boundary's rate, with
    // the same two trails at its ends, finds the same value.
    let across = stability_map.boundaries.iter().find(|b| b.axis == 1).expect("a boundary across the trail");
    let at = stability_map.grid.point(across.from);
    let mut one = study.clone();
    one.at.push(("rear'".into(), at[0]));
    let spec = SweepSpec { over: "c".into(), from: at[1], to: at[1] + 0.04, step: 0.04, axis: None };
    let (name, what, values) = Study::swept(&model, &spec).unwrap();
    assert_eq!(values.len(), 2, "{values:?}");
    one.sweep = Some((name, what, values));
    let sweep = one.run(&mut model, &mut numeric, &mut derivatives, &map).unwrap();
    assert_eq!(sweep.boundaries.len(), 1, "{:?}", sweep.boundaries);
    assert!((sweep.boundaries[0].value - across.value).abs() < 1e-9, "{:?} against {across:?}", sweep.boundaries);
}

/// A grid says what is wrong with it, and indexes its points the last axis fastest.
#[test]
fn a_grid_indexes_its_points_and_refuses_what_it_cannot_hold() {
    let axis = |name: &str, n: usize| MapAxis { name: name.into(), values: (0..n).map(|k| k as f64).collect() };
    let grid = Grid::new(vec![axis("a", 3), axis("b", 4), axis("c", 2)]).unwrap();
    assert_eq!((grid.len(), grid.shape()), (24, vec![3, 4, 2]));
    for flat in 0..24 {
        assert_eq!(grid.index(&grid.indices(flat)), flat);
    }
    assert_eq!(grid.point(7), [0.0, 3.0, 1.0]);
    assert!(Grid::new(vec![]).unwrap_err().contains("1 to 3 axes"));
    assert!(Grid::new(vec![axis("a", 2), axis("b", 2), axis("c", 2), axis("d", 2)]).is_err());
    assert!(Grid::new(vec![axis("a", 0)]).unwrap_err().contains("`a` has no values"));
    assert!(Grid::new(vec![axis("a", 501), axis("b", 500)]).unwrap_err().contains("at most 250000"));
}
