//! Butcher tableaus as data.

/// An explicit embedded Runge–Kutta pair with dense output, `S` stages.
#[derive(Clone, Debug)]
pub struct Tableau<const S: usize> {
    /// Nodes `c`.
    pub c: [f64; S],
    /// Coefficients `a` (strictly lower triangular).
    pub a: [[f64; S]; S],
    /// Weights `b` of the propagated solution.
    pub b: [f64; S],
    /// Error weights `e = b − b̂` (b̂ the embedded solution).
    pub e: [f64; S],
    /// Dense-output weights `d` (Hairer's `contd5`).
    pub d: [f64; S],
}

/// Dormand & Prince (1980), "A family of embedded Runge–Kutta formulae", J. Comput.
/// Appl. Math. 6; dense output from Hairer, Nørsett & Wanner, *Solving ODEs I*,
/// §II.6 (the `dopri5` code). First same as last: stage 7 is `f` at the new point.
pub const DORMAND_PRINCE_54: Tableau<7> = Tableau {
    c: [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    a: [
        [0.0; 7],
        [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0, 0.0],
        [19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0.0, 0.0, 0.0],
        [9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0, 0.0, 0.0],
        [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0],
    ],
    b: [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0],
    e: [71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0],
    d: [
        -12715105075.0 / 11282082432.0,
        0.0,
        87487479700.0 / 32700410799.0,
        -10690763975.0 / 1880347072.0,
        701980252875.0 / 199316789632.0,
        -1453857185.0 / 822651844.0,
        69997945.0 / 29380423.0,
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The order conditions of a tableau's weights `w` up to order `p`.
    fn satisfies_order(t: &Tableau<7>, w: &[f64; 7], p: usize) -> bool {
        let c = &t.c;
        let a = &t.a;
        let dot = |x: &[f64; 7]| -> f64 { w.iter().zip(x).map(|(a, b)| a * b).sum() };
        let ac = |x: &[f64; 7]| -> [f64; 7] { core::array::from_fn(|i| (0..7).map(|j| a[i][j] * x[j]).sum()) };
        let pow = |k: i32| -> [f64; 7] { core::array::from_fn(|i| libm::pow(c[i], k as f64)) };
        let ones = [1.0; 7];
        let c1 = pow(1);
        let c2 = pow(2);
        let mut conditions: alloc::vec::Vec<(f64, f64)> = alloc::vec![(dot(&ones), 1.0)];
        if p >= 2 {
            conditions.push((dot(&c1), 0.5));
        }
        if p >= 3 {
            conditions.extend([(dot(&c2), 1.0 / 3.0), (dot(&ac(&c1)), 1.0 / 6.0)]);
        }
        if p >= 4 {
            let c_ac: [f64; 7] = core::array::from_fn(|i| c[i] * ac(&c1)[i]);
            conditions.extend([
                (dot(&pow(3)), 0.25),
                (dot(&c_ac), 1.0 / 8.0),
                (dot(&ac(&c2)), 1.0 / 12.0),
                (dot(&ac(&ac(&c1))), 1.0 / 24.0),
            ]);
        }
        if p >= 5 {
            let c_ac1: [f64; 7] = core::array::from_fn(|i| c[i] * ac(&c1)[i]);
            let c2_ac1: [f64; 7] = core::array::from_fn(|i| c[i] * c[i] * ac(&c1)[i]);
            let ac1_sq: [f64; 7] = core::array::from_fn(|i| ac(&c1)[i] * ac(&c1)[i]);
            let c_ac2: [f64; 7] = core::array::from_fn(|i| c[i] * ac(&c2)[i]);
            let c_acac: [f64; 7] = core::array::from_fn(|i| c[i] * ac(&ac(&c1))[i]);
            conditions.extend([
                (dot(&pow(4)), 0.2),
                (dot(&c2_ac1), 1.0 / 10.0),
                (dot(&ac1_sq), 1.0 / 20.0),
                (dot(&c_ac2), 1.0 / 15.0),
                (dot(&c_acac), 1.0 / 30.0),
                (dot(&ac(&pow(3))), 1.0 / 20.0),
                (dot(&ac(&c_ac1)), 1.0 / 40.0),
                (dot(&ac(&ac(&c2))), 1.0 / 60.0),
                (dot(&ac(&ac(&ac(&c1)))), 1.0 / 120.0),
            ]);
        }
        conditions.iter().all(|(got, want)| (got - want).abs() < 1e-14)
    }

    #[test]
    fn dormand_prince_has_orders_5_and_4() {
        let t = &DORMAND_PRINCE_54;
        for i in 0..7 {
            let row: f64 = t.a[i].iter().sum();
            assert!((row - t.c[i]).abs() < 1e-15, "row {i} sums to c");
        }
        assert!(satisfies_order(t, &t.b, 5));
        let embedded: [f64; 7] = core::array::from_fn(|i| t.b[i] - t.e[i]);
        assert!(satisfies_order(t, &embedded, 4));
        assert!(!satisfies_order(t, &embedded, 5), "the embedded solution is of order 4 exactly");
    }
}
