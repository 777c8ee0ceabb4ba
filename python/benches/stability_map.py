"""The bicycle's stability map from Python: in this process on one thread (the
baseline, measured in the same run), on every core, and on a Dask LocalCluster of two
worker processes of one thread each. Prints seconds, points per second and the
ratios `ratio_cores` and `ratio_cluster` (each against the baseline's rate). The
cluster's map is checked to be the local one, bit for bit. Never asserts on time.

    target/python-venv/bin/python python/benches/stability_map.py [--quick]

Without --quick: 400 × 250 = 10⁵ points (about a minute); with it: 60 × 60."""

import sys
import time

import numpy as np
from dask.distributed import Client, LocalCluster

import nhlab


def main():
    quick = "--quick" in sys.argv
    n, m = (60, 60) if quick else (400, 250)
    axes = {"rear'": np.linspace(0, 33.3, n), "c": np.linspace(0, 0.2, m)}
    bike = nhlab.gallery("whipple-bicycle")
    print(f"== stability map from Python, Whipple bicycle: {n} x {m} = {n * m} points")

    def timed(**kwargs):
        start = time.perf_counter()
        result = bike.stability_map(axes, **kwargs)
        return time.perf_counter() - start, result

    one_s, one = timed(threads=1)
    cores_s, _ = timed()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(lambda: __import__("nhlab"))  # the workers' imports, not timed
            cluster_s, spread = timed(client=client)
    assert np.array_equal(one.eigenvalues, spread.eigenvalues) and one.boundaries == spread.boundaries
    points = n * m
    print(f"one thread: {one_s:.2f} s ({points / one_s:.0f} points/s); every core: {cores_s:.2f} s; "
          f"Dask LocalCluster, 2 processes: {cluster_s:.2f} s ({points / cluster_s:.0f} points/s)")
    print(f"ratio_cores: {one_s / cores_s:.2f}")
    print(f"ratio_cluster: {one_s / cluster_s:.2f}")


if __name__ == "__main__":
    main()
