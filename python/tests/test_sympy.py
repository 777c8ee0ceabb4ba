"""SymPy both ways: models from SymPy against SymPy's own `LagrangesMethod` at random
states, and a model's equations as SymPy matrices against `eval`."""

import math
import random

import numpy as np
import pytest
import sympy as sp
from sympy.physics.mechanics import LagrangesMethod, Point, ReferenceFrame, RigidBody, dynamicsymbols, inertia

import nhlab

t = sp.Symbol("t")


def sympy_accelerations(L, q, constraints, values, state):
    """SymPy's accelerations at `state` (q → value, q' → value): LagrangesMethod's full
    system [q' ; M q'' − Aᵀλ = F ; A q'' = b] solved numerically."""
    lm = LagrangesMethod(L, q, nonhol_coneqs=constraints or None)
    lm.form_lagranges_equations()
    at = dict(values)
    at.update(state)
    # Derivatives first, then the functions themselves.
    speeds = {k: v for k, v in at.items() if isinstance(k, sp.Derivative)}
    rest = {k: v for k, v in at.items() if not isinstance(k, sp.Derivative)}
    mass = np.array(lm.mass_matrix_full.subs(speeds).subs(rest).evalf(), dtype=float)
    forcing = np.array(lm.forcing_full.subs(speeds).subs(rest).evalf(), dtype=float).ravel()
    solution = np.linalg.solve(mass, forcing)
    n = len(q)
    return solution[n : 2 * n]


def nhlab_accelerations(model, q, state):
    names = [type(c).__name__ for c in q]
    coordinates = {n: state[c] for n, c in zip(names, q)}
    speeds = {n: state[c.diff(t)] for n, c in zip(names, q)}
    out = model.eval(q=coordinates, v=speeds)["qdd"]
    return np.array([out[n] for n in names])


def test_a_knife_edge_on_an_incline_from_sympy_moves_as_sympys_lagranges_method():
    x, y, th = dynamicsymbols("x y theta")
    m, I, g, a = sp.symbols("m I g alpha")
    T = m / 2 * (x.diff(t) ** 2 + y.diff(t) ** 2) + I / 2 * th.diff(t) ** 2
    V = m * g * x * sp.sin(a)
    blade = -sp.sin(th) * x.diff(t) + sp.cos(th) * y.diff(t)
    values = {m: 1.5, I: 0.2, g: 9.81, a: 0.3}
    model = nhlab.from_sympy([x, y, th], kinetic=T, potential=V, constraints=[blade], parameters=values, speeds={th: 1.0})
    assert model.check()["degrees_of_freedom"] == 2
    rng = random.Random(5)
    for _ in range(5):
        heading, speed = rng.uniform(-3, 3), rng.uniform(-2, 2)
        state = {
            x: rng.uniform(-1, 1), y: rng.uniform(-1, 1), th: heading,
            x.diff(t): speed * math.cos(heading), y.diff(t): speed * math.sin(heading), th.diff(t): rng.uniform(-2, 2),
        }
        want = sympy_accelerations(T - V, [x, y, th], [blade], values, state)
        got = nhlab_accelerations(model, [x, y, th], state)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_a_rolling_disk_built_with_sympys_frames_moves_as_sympys_lagranges_method():
    # SymPy's own rolling disk: frames, a rigid body, and rolling without slip as two
    # velocity constraints of the contact point (sympy.physics.mechanics' example).
    q1, q2, q3, x, y = dynamicsymbols("q1 q2 q3 x y")  # heading, lean, spin; contact point
    r, m, g = sp.symbols("r m g")
    N = ReferenceFrame("N")
    Y = N.orientnew("Y", "Axis", [q1, N.z])
    L = Y.orientnew("L", "Axis", [q2, Y.x])
    R = L.orientnew("R", "Axis", [q3, L.y])
    C = Point("C")
    C.set_vel(N, x.diff(t) * N.x + y.diff(t) * N.y)
    Dmc = C.locatenew("Dmc", r * L.z)
    Dmc.v2pt_theory(C, N, L)
    body = RigidBody("disc", Dmc, R, m, (inertia(L, m * r**2 / 4, m * r**2 / 2, m * r**2 / 4), Dmc))
    T = body.kinetic_energy(N)
    V = m * g * r * sp.cos(q2)
    # Rolling: the disk's material point at C has no velocity.
    contact = Dmc.pos_from(C)
    slip = Dmc.vel(N) - (R.ang_vel_in(N) ^ contact)
    rolling = [sp.simplify(slip.dot(N.x)), sp.simplify(slip.dot(N.y))]
    values = {r: 0.3, m: 1.2, g: 9.81}
    q = [x, y, q1, q2, q3]
    model = nhlab.from_sympy(q, kinetic=T, potential=V, constraints=rolling, parameters=values,
                             initial={q2: 0.2}, speeds={q3: 3.0})
    assert model.check()["degrees_of_freedom"] == 3
    rng = random.Random(9)
    jacobian = sp.Matrix(rolling).jacobian([c.diff(t) for c in q]).subs(values)
    rolling_f = sp.lambdify([q, [c.diff(t) for c in q]], [jacobian], "numpy")
    for _ in range(4):
        coords = [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-3, 3), rng.uniform(-0.6, 0.6), rng.uniform(-3, 3)]
        # Speeds on the constraints: heading, lean and spin rates free, x', y' from them.
        free = [rng.uniform(-2, 2) for _ in range(3)]
        A = np.array(rolling_f(coords, [0, 0] + free)[0], dtype=float)
        xy = np.linalg.solve(A[:, :2], -A[:, 2:] @ np.array(free))
        speeds = list(xy) + free
        state = {c: v for c, v in zip(q, coords)}
        state.update({c.diff(t): v for c, v in zip(q, speeds)})
        want = sympy_accelerations(T - V, q, rolling, values, state)
        got = nhlab_accelerations(model, q, state)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


# (The bicycle parses here too, but SymPy takes minutes over its matrices.)
@pytest.mark.parametrize("name", ["rolling-disk", "chaplygin-sleigh", "pendulum-cartesian", "knife-edge-incline", "differential-drive"])
def test_equations_as_sympy_matrices_give_evals_accelerations(name):
    model = nhlab.gallery(name)
    terms = model.equations("lagrange").sympy()
    M, F, A, b = terms["M"], terms["F"], terms["A"], terms["b"]
    q = [dynamicsymbols(c) for c in model.coordinates]
    symbols = [sp.Symbol(p) for p in model.parameters]
    args = q + [c.diff(t) for c in q] + symbols + [t]
    # Derivatives as plain symbols for lambdify.
    plain_q = sp.symbols(f"_q0:{len(q)}")
    plain_v = sp.symbols(f"_v0:{len(q)}")
    swap = {c.diff(t): v for c, v in zip(q, plain_v)}
    swap_q = dict(zip(q, plain_q))
    f = sp.lambdify([plain_q, plain_v, symbols, t], [m.subs(swap).subs(swap_q) for m in (M, F, A, b)], "numpy")
    initial = model.eval()
    rng = random.Random(3)
    for _ in range(3):
        coordinates = {c: initial["q"][c] + rng.uniform(-0.1, 0.1) for c in model.coordinates}
        # Speeds: the first coordinate's and the rest solved by the lab on the constraints.
        at = model.eval(q=coordinates, v={model.coordinates[-1]: initial["v"][model.coordinates[-1]] + 0.3})
        qv = [at["q"][c] for c in model.coordinates]
        vv = [at["v"][c] for c in model.coordinates]
        Mn, Fn, An, bn = (np.array(x, dtype=float) for x in f(qv, vv, list(model.parameters.values()), at["t"]))
        n, k = len(qv), An.reshape(-1, len(qv)).shape[0]
        An = An.reshape(k, n)
        saddle = np.block([[Mn, -An.T], [An, np.zeros((k, k))]])
        rhs = np.concatenate([Fn.ravel(), bn.ravel()])
        solution = np.linalg.lstsq(saddle, rhs, rcond=None)[0]
        want = np.array([at["qdd"][c] for c in model.coordinates])
        np.testing.assert_allclose(solution[:n], want, rtol=1e-8, atol=1e-8 * max(1.0, np.abs(want).max()))


def test_the_bicycles_equations_parse_with_a_keyword_for_a_name():
    # Its steer axis tilt is `lambda`, a Python keyword: taken as the symbol `lambda`.
    terms = nhlab.gallery("whipple-bicycle").equations("lagrange").terms
    from nhlab.sympy_bridge import to_sympy

    parameters = nhlab.gallery("whipple-bicycle").parameters
    first = to_sympy(terms["forcing"][0], nhlab.gallery("whipple-bicycle").coordinates, parameters)
    assert sp.Symbol("lambda") in first.free_symbols
