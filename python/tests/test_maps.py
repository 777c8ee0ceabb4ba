"""Stability maps from Python (`Model.stability_map`) against the command line's
map, single linearisations and the published bicycle speeds."""

import json
import os
import subprocess

import numpy as np
import pytest

import nhlab

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("NHLAB_BIN", os.path.join(ROOT, "target", "release", "nhlab"))

RATES = np.round(np.arange(0, 51) * 0.666, 12)
TRAILS = [0.04, 0.08, 0.12]


@pytest.fixture(scope="module")
def bicycle_map():
    return nhlab.gallery("whipple-bicycle").stability_map({"rear'": RATES, "c": TRAILS})


def test_the_map_is_the_command_lines_and_shaped_by_its_axes(bicycle_map):
    m = bicycle_map
    assert m.max_real.shape == (51, 3) and m.stable.shape == (51, 3)
    assert m.eigenvalues.shape == (51, 3, 4) and m.eigenvalues.dtype == complex
    assert list(m.axes) == ["rear'", "c"] and np.array_equal(m.axes["c"], TRAILS)
    # The binary, given the same values, writes the same numbers.
    flags = ["--sweep", "rear'=" + ",".join(repr(float(x)) for x in RATES), "--sweep", "c=0.04,0.08,0.12"]
    path = os.path.join(ROOT, "scenarios", "whipple-bicycle.toml")
    done = subprocess.run([BIN, "linearize", path, *flags, "--format", "json"], capture_output=True, text=True, check=True)
    want = json.loads(done.stdout)
    assert np.array_equal(m.max_real, np.array(want["max_real"]))
    assert m.boundaries == want["boundaries"]
    # The largest real part is the eigenvalues' own.
    assert np.array_equal(m.max_real, m.eigenvalues.real.max(axis=-1))


def test_each_point_is_a_single_linearisation(bicycle_map):
    bicycle = nhlab.gallery("whipple-bicycle")
    for i, j in [(0, 0), (25, 1), (40, 2)]:
        one = bicycle.with_parameters(c=TRAILS[j]).linearize(at={"rear'": float(RATES[i])}, sweep=False)
        order = lambda z: (z.real, z.imag)  # noqa: E731
        want = sorted((complex(re, im) for re, im in one["rows"][0]["eigenvalues"]), key=order)
        got = sorted(bicycle_map.eigenvalues[i, j], key=order)
        assert np.allclose(got, want, rtol=0, atol=1e-9), (got, want)
        assert bicycle_map.stable[i, j] == one["rows"][0]["stable"]


def test_the_benchmark_trail_has_the_published_speeds(bicycle_map):
    along = [b for b in bicycle_map.boundaries if b["axis"] == "rear'" and b["at"]["c"] == 0.08]
    speeds = [0.3 * b["at"]["rear'"] for b in along]
    assert [b["becomes"] for b in along] == ["stable", "unstable"]
    assert abs(speeds[0] - 4.29238253634111) < 1e-9 and abs(speeds[1] - 6.02426201538837) < 1e-9


def test_threads_do_not_change_the_map_and_xarray_has_it(bicycle_map):
    one = nhlab.gallery("whipple-bicycle").stability_map({"rear'": RATES, "c": TRAILS}, threads=1)
    assert np.array_equal(one.eigenvalues, bicycle_map.eigenvalues) and one.boundaries == bicycle_map.boundaries
    ds = bicycle_map.to_xarray()
    assert ds["max_real"].sel(c=0.08).shape == (51,)
    assert float(ds["max_real"].sel({"rear'": RATES[25], "c": 0.08})) == bicycle_map.max_real[25, 1]


def test_a_map_that_cannot_be_made_says_why():
    bicycle = nhlab.gallery("whipple-bicycle")
    with pytest.raises(ValueError, match="2 or 3 axes"):
        bicycle.stability_map({"c": [0.0, 0.1]})
    with pytest.raises(nhlab.ScenarioError, match="must increase"):
        bicycle.stability_map({"c": [0.1, 0.0], "w": [1.0, 1.1]})
    with pytest.raises(nhlab.ScenarioError, match="neither a parameter"):
        bicycle.stability_map({"c": [0.0, 0.1], "nope": [1.0, 1.1]})


def test_without_axes_the_map_is_the_scenario_s_own():
    disk = nhlab.gallery("rolling-disk")
    text = disk.text.replace("from = 0, to = 10, step = 0.01 }", "from = 0, to = 10, step = 0.5 }").replace(
        "from = 0.05, to = 0.5, step = 0.005 }", "from = 0.1, to = 0.4, step = 0.1 }"
    )
    assert text != disk.text
    declared = nhlab.Model(text).stability_map()
    spins = [0.5 * k for k in range(21)]
    given = nhlab.Model(text).stability_map({"phi'": spins, "r": [0.1, 0.2, 0.3, 0.4]})
    assert list(declared.axes) == ["phi'", "r"] and declared.max_real.shape == (21, 4)
    assert np.array_equal(declared.eigenvalues, given.eigenvalues) and declared.boundaries == given.boundaries
    # Stable above phi'² = g/(3 r) at every radius.
    for b in (b for b in declared.boundaries if b["axis"] == "phi'"):
        assert abs(b["at"]["phi'"] - (9.81 / (3 * b["at"]["r"])) ** 0.5) < 1e-9
    with pytest.raises(nhlab.ScenarioError, match="declares no map"):
        nhlab.gallery("chaplygin-sleigh").stability_map()


def test_a_dask_cluster_gives_the_same_map_bit_for_bit(bicycle_map):
    from dask.distributed import Client, LocalCluster

    disk = nhlab.gallery("rolling-disk")
    # The disk's yaw rate is held where nothing couples to it (zero spin) and not
    # elsewhere: a chunk of that row alone holds it, the others do not, and the
    # chunks are computed again keeping it in the state, as the whole map does.
    disk_axes = {"phi'": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "r": [0.2, 0.3]}
    local_disk = disk.stability_map(disk_axes)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            bike = nhlab.gallery("whipple-bicycle").stability_map({"rear'": RATES, "c": TRAILS}, client=client, chunks=5)
            spread_disk = disk.stability_map(disk_axes, client=client, chunks=6)
    for here, there in [(bicycle_map, bike), (local_disk, spread_disk)]:
        assert np.array_equal(here.eigenvalues, there.eigenvalues, equal_nan=True)
        assert np.array_equal(here.max_real, there.max_real) and np.array_equal(here.stable, there.stable)
        assert here.boundaries == there.boundaries and here.held_speeds == there.held_speeds
    # The disk's boundary: upright rolling is stable above phi' = sqrt(g/(3 r)).
    r03 = [b for b in local_disk.boundaries if b["axis"] == "phi'" and b["at"]["r"] == 0.3]
    assert len(r03) == 1 and abs(r03[0]["at"]["phi'"] - (9.81 / 0.9) ** 0.5) < 1e-9


def test_the_model_pickles_for_joblib_and_multiprocessing():
    import pickle

    bike = nhlab.gallery("whipple-bicycle")
    again = pickle.loads(pickle.dumps(bike))
    one = again.stability_map({"rear'": RATES[:5], "c": TRAILS}, threads=1)
    assert np.array_equal(one.max_real, bike.stability_map({"rear'": RATES[:5], "c": TRAILS}).max_real)
