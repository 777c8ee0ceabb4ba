"""Ensembles against single runs: for each system, `Model.run` of one case (the
baseline, measured in the same run: it loads, derives and compiles the model, then
runs) against `Model.ensemble` of N cases on one thread and on every core. Prints the
seconds and `per_case_vs_run` (an ensemble's time per case over one `Model.run`'s;
the issue's goal is ≤ 1.2) and `speedup_cores`. Never asserts on time.

    target/python-venv/bin/python python/benches/ensemble.py [--quick]"""

import sys
import time

import numpy as np

import nhlab

SYSTEMS = [
    # (gallery item, the swept name, its values, t_end)
    ("coin-slipping", "mu", np.linspace(0.05, 0.6, 24), None),
    ("rolling-disk", "theta", np.linspace(0.0, 0.3, 24), None),
    ("whipple-bicycle", "rear'", np.linspace(10, 30, 24), 2.0),
]


def best(f, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    quick = "--quick" in sys.argv
    repeat = 1 if quick else 3
    print("== ensembles from Python: seconds, best of", repeat)
    print(f"{'system':18} {'cases':>5} {'one run':>9} {'1 thread':>9} {'cores':>9} {'per_case_vs_run':>16} {'speedup_cores':>14}")
    for name, swept, values, t_end in SYSTEMS:
        model = nhlab.gallery(name)
        cases = [{swept: float(x)} for x in values[: 6 if quick else None]]
        middle = cases[len(cases) // 2]
        if swept in model.parameters:
            single = lambda: model.with_parameters(**middle).run(t_end=t_end, methods=["lagrange"], columns="state")  # noqa: E731
        else:
            single = lambda: model.ensemble([middle], t_end=t_end, threads=1)  # noqa: E731
        one = best(single, repeat)
        serial = best(lambda: model.ensemble(cases, t_end=t_end, threads=1), repeat)
        cores = best(lambda: model.ensemble(cases, t_end=t_end), repeat)
        print(f"{name:18} {len(cases):5} {one:9.3f} {serial:9.3f} {cores:9.3f} {serial / len(cases) / one:16.2f} {serial / cores:14.2f}")


if __name__ == "__main__":
    main()
