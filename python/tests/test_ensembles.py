"""Model.ensemble: each case's row against Model.run of that case, the same table on
any number of threads and on a Dask cluster, and cases refused in words."""

import numpy as np
import pandas as pd
import pytest

import nhlab

DISK = nhlab.gallery("rolling-disk")
STATE = ["t", "x", "y", "psi", "theta", "phi", "x'", "y'", "psi'", "theta'", "phi'"]
FINAL = [f"final_{name}" for name in STATE]


def bits(values):
    return [float(x).hex() for x in values]


def test_each_row_is_the_end_of_model_run_of_that_case():
    cases = [{"r": 0.5}, {"m": 2.0, "r": 0.25}, {}]
    table = DISK.ensemble(cases, t_end=3, method="lagrange")
    assert list(table["case"]) == [0, 1, 2]
    assert list(table.columns[:4]) == ["case", "r", "m", "ended"]
    assert (table["ended"] == "t_end").all()
    for k, case in enumerate(cases):
        run = DISK.with_parameters(**case).run(t_end=3, methods=["lagrange"], columns="state")
        assert bits(table.loc[k, FINAL]) == bits(run.iloc[-1][STATE]), case
    # An empty cell is the scenario's value.
    assert np.isnan(table.loc[0, "m"]) and table.loc[2, FINAL].notna().all()


def test_a_case_sets_initial_coordinates_and_speeds():
    table = DISK.ensemble([{"theta": 0.2, "psi'": 0, "theta'": 0, "phi'": 5}], t_end=2)
    text = DISK.text.replace("theta = 0.05,", "theta = 0.2,").replace("phi = 6 }", "phi = 5 }")
    assert text != DISK.text
    run = nhlab.load(text).run(t_end=2, methods=["lagrange"], columns="state")
    assert bits(table.loc[0, FINAL]) == bits(run.iloc[-1][STATE])


def test_threads_do_not_change_the_table_and_outputs_choose_columns():
    cases = pd.DataFrame({"r": np.linspace(0.2, 0.6, 7), "theta": np.linspace(0, 0.3, 7)})
    one = DISK.ensemble(cases, t_end=1, threads=1)
    two = DISK.ensemble(cases, t_end=1, threads=2)
    pd.testing.assert_frame_equal(one, two)
    few = DISK.ensemble(cases, t_end=1, outputs=["final_t", "final_theta'"])
    assert list(few.columns) == ["case", "r", "theta", "final_t", "final_theta'"]
    with pytest.raises(ValueError, match="no output 'speed'"):
        DISK.ensemble(cases, t_end=1, outputs=["speed"])


def test_slips_come_sooner_with_less_friction():
    coin = nhlab.gallery("coin-slipping")
    table = coin.ensemble([{"mu": m} for m in (0.05, 0.2, 0.4)], method="lagrange")
    slip = [c for c in table.columns if c.startswith("slip_")][0]
    assert table[slip].is_monotonic_increasing and table[slip].notna().all()
    assert table[[c for c in table.columns if c.startswith("lift_off_")][0]].isna().all()


def test_bad_cases_are_said():
    with pytest.raises(nhlab.ScenarioError, match="`mass` is not a parameter"):
        DISK.ensemble([{"mass": 2}])
    with pytest.raises(ValueError, match="case 1: r = 'big' is not a number"):
        DISK.ensemble([{"r": 0.3}, {"r": "big"}])
    with pytest.raises(ValueError, match="not finite"):
        DISK.ensemble([{"r": float("inf")}])
    with pytest.raises(ValueError, match="at least one case"):
        DISK.ensemble([])


def test_a_dask_cluster_gives_the_same_table_bit_for_bit():
    from dask.distributed import Client, LocalCluster

    cases = [{"r": 0.2 + 0.02 * k, "theta": 0.01 * k} for k in range(13)]
    local = DISK.ensemble(cases, t_end=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            spread = DISK.ensemble(cases, t_end=1, client=client, chunks=5)
    pd.testing.assert_frame_equal(local, spread)
