#!/usr/bin/env python3
"""SymPy's figures for the scaling families of nhlab's mechanics benchmark.

The same two families as `cargo bench -p nhlab --bench mechanics` (generated there by
tests/support/families.rs), built with sympy.physics.mechanics' LagrangesMethod:

- an N-link planar pendulum in absolute angles (unit masses and lengths), its kinetic
  energy written as a user writes it, sum over bobs of (x_k'^2 + y_k'^2)/2;
- a tractor pulling n knife-edge trailers (n + 3 coordinates, n + 1 nonholonomic
  constraints, LagrangesMethod's nonhol_coneqs).

For each size it prints the time to form the equations and extract the mass matrix
and forcing (SymPy's "derive"), and the operation count of their common-subexpression
elimination (`cse`, then `count_ops`): what generated code would evaluate, to set
beside nhlab's compiled program size (the bench's "program … instructions", which
also holds A, b, the residuals and the energy).

Not part of CI (it needs SymPy, and large sizes take minutes):

    python3 scripts/sympy_families.py                 # pendulum N = 2, 4, 8; trailers n = 2, 4
    python3 scripts/sympy_families.py --pendulum 2 4 8 16 24 --trailers 2 4 8
"""

import argparse
import time

import sympy as sp
from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols


def cse_ops(exprs):
    replacements, reduced = sp.cse(exprs)
    return sum(sp.count_ops(e) for _, e in replacements) + sum(sp.count_ops(e) for e in reduced)


def pendulum(n):
    th = dynamicsymbols(f"th1:{n + 1}")
    thd = [sp.diff(q, dynamicsymbols._t) for q in th]
    g = sp.Symbol("g")
    kinetic = 0
    for k in range(n):
        vx = sum(sp.cos(th[i]) * thd[i] for i in range(k + 1))
        vy = sum(sp.sin(th[i]) * thd[i] for i in range(k + 1))
        kinetic += (vx**2 + vy**2) / 2
    potential = -g * sum((n - i) * sp.cos(th[i]) for i in range(n))
    return LagrangesMethod(kinetic - potential, th)


def trailers(n):
    x, y = dynamicsymbols("x y")
    th = dynamicsymbols(f"th0:{n + 1}")
    t = dynamicsymbols._t
    xd, yd = sp.diff(x, t), sp.diff(y, t)
    thd = [sp.diff(q, t) for q in th]
    m, inertia, length = sp.symbols("m J L")
    kinetic = m / 2 * (xd**2 + yd**2) + inertia / 2 * thd[0] ** 2
    constraints = [-xd * sp.sin(th[0]) + yd * sp.cos(th[0])]
    for k in range(1, n + 1):
        vx = xd + sum(length * sp.sin(th[i]) * thd[i] for i in range(1, k + 1))
        vy = yd - sum(length * sp.cos(th[i]) * thd[i] for i in range(1, k + 1))
        kinetic += m / 2 * (vx**2 + vy**2) + inertia / 2 * thd[k] ** 2
        constraints.append(-vx * sp.sin(th[k]) + vy * sp.cos(th[k]))
    return LagrangesMethod(kinetic, [x, y, *th], nonhol_coneqs=constraints)


def measure(name, size, build):
    started = time.perf_counter()
    method = build(size)
    method.form_lagranges_equations()
    mass, forcing = method.mass_matrix, method.forcing
    seconds = time.perf_counter() - started
    ops = cse_ops(list(mass) + list(forcing))
    print(f"sympy {name} N={size}: derive_ms {seconds * 1e3:.1f}, cse of M and F: {ops} operations", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pendulum", type=int, nargs="*", default=[2, 4, 8])
    parser.add_argument("--trailers", type=int, nargs="*", default=[2, 4])
    args = parser.parse_args()
    print(f"SymPy {sp.__version__}")
    for n in args.pendulum:
        measure("pendulum", n, pendulum)
    for n in args.trailers:
        measure("trailers", n, trailers)


if __name__ == "__main__":
    main()
