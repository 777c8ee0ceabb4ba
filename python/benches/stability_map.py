"""The bicycle's stability map from Python: in this process on one thread (the
baseline, measured in the same run), on every core, and on a Dask LocalCluster of two
worker processes of one thread each. Prints seconds, points per second and the
ratios `ratio_cores` and `ratio_cluster` (each against the baseline's rate). The
cluster's map is checked to be the local one, bit for bit. Each figure is the best of
three rounds of the three (one round with --quick). Never asserts on time.

    target/python-venv/bin/python python/benches/stability_map.py [--quick]

Without --quick: 400 × 250 = 10⁵ points (about a minute and a half); with it: 60 × 60."""

import sys
import time

import numpy as np
from dask.distributed import Client, LocalCluster

import nhlab


def main():
    quick = "--quick" in sys.argv
    n, m = (60, 60) if quick else (400, 250)
    axes = {"rear'": np.linspace(0, 33.3, n), "c": np.linspace(0, 0.2, m)}
    text = nhlab._nhlab.gallery_text("whipple-bicycle")
    print(f"== stability map from Python, Whipple bicycle: {n} x {m} = {n * m} points")
    runs = iter(range(1, 100))

    def timed(**kwargs):
        # A process keeps the last map's prepared model for its next chunk: each
        # configuration starts from its own text (a comment apart), so each pays its
        # preparation once, as a first map does (a cluster's once per worker).
        bike = nhlab.Model(f"{text}# run {next(runs)}\n")
        start = time.perf_counter()
        result = bike.stability_map(axes, **kwargs)
        return time.perf_counter() - start, result

    # Rounds of the three, in turn, each figure the best of its rounds: this
    # machine's speed drifts by a third from minute to minute, and the best of a few
    # runs is what it does when nothing else runs.
    rounds = 1 if quick else 3
    times = {"one": [], "cores": [], "cluster": []}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(lambda: __import__("nhlab"))  # the workers' imports, not timed
            for _ in range(rounds):
                one_s, one = timed(threads=1)
                cores_s, _ = timed()
                cluster_s, spread = timed(client=client)
                assert np.array_equal(one.eigenvalues, spread.eigenvalues) and one.boundaries == spread.boundaries
                for key, took in (("one", one_s), ("cores", cores_s), ("cluster", cluster_s)):
                    times[key].append(took)
                print(f"  round: one thread {one_s:.2f} s, every core {cores_s:.2f} s, the cluster {cluster_s:.2f} s")
    one_s, cores_s, cluster_s = (min(times[k]) for k in ("one", "cores", "cluster"))
    points = n * m
    print(f"best of {rounds}: one thread: {one_s:.2f} s ({points / one_s:.0f} points/s); every core: {cores_s:.2f} s; "
          f"Dask LocalCluster, 2 processes: {cluster_s:.2f} s ({points / cluster_s:.0f} points/s)")
    print(f"ratio_cores: {one_s / cores_s:.2f}")
    print(f"ratio_cluster: {one_s / cluster_s:.2f}")

if __name__ == "__main__":
    main()
