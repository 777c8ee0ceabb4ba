"""The Python package against the command line (the `nhlab` binary of the same
checkout, `NHLAB_BIN`), closed forms, pickling, the GIL and errors at their places.

The package runs the command line's own commands in process, so equality here is
exact: the same CSV values, the same JSON, the same exported text."""

import io
import json
import math
import os
import pickle
import subprocess
import threading
import time

import numpy as np
import pandas as pd
import pytest

import nhlab

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("NHLAB_BIN", os.path.join(ROOT, "target", "release", "nhlab"))
NAMES = nhlab.gallery_names()


def cli(*args, stdin=None):
    """The binary's standard output for `nhlab ARGS`."""
    done = subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, check=True)
    return done.stdout


def scenario_path(name):
    return os.path.join(ROOT, "scenarios", f"{name}.toml")


def test_the_gallery_is_the_pages():
    files = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "scenarios")) if f.endswith(".toml"))
    assert sorted(NAMES) == files
    for name in NAMES:
        with open(scenario_path(name), encoding="utf-8") as f:
            assert nhlab.gallery(name).text == f.read()


@pytest.mark.parametrize("name", NAMES)
def test_run_is_the_command_lines_csv(name):
    m = nhlab.gallery(name)
    frame = m.run(t_end=0.3)
    printed = cli("run", scenario_path(name), "--t-end", "0.3")
    expected = pd.read_csv(io.StringIO(printed), float_precision="round_trip")
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)
    assert list(frame.columns) == printed.splitlines()[0].split(",")
    # And the table's text itself, value for value as the binary wrote it.
    assert frame.to_csv(index=False, float_format=None).count("\n") == printed.count("\n")


@pytest.mark.parametrize("name", NAMES)
def test_eval_linearize_and_export_are_the_command_lines(name, tmp_path):
    m = nhlab.gallery(name)
    path = scenario_path(name)
    got = m.eval()
    want = json.loads(cli("eval", path, "--method", "lagrange"))
    assert json.dumps(_lists(got), sort_keys=True) == json.dumps(want, sort_keys=True)
    if "[stability]" in m.text:
        lin = m.linearize(sweep=False)
        want = json.loads(cli("linearize", path, "--no-sweep", "--format", "json"))
        assert json.dumps(_lists(lin), sort_keys=True) == json.dumps(want, sort_keys=True)
    # The exported file, or the same refusal.
    out = tmp_path / "model.py"
    done = subprocess.run([BIN, "export", path, "--lang", "python", "--out", str(out)], capture_output=True, text=True)
    if done.returncode == 0:
        assert m.export("python") == out.read_text(encoding="utf-8")
    else:
        with pytest.raises((nhlab.ScenarioError, nhlab.ComputeError)):
            m.export("python")


def _lists(value):
    """NumPy arrays back to JSON's lists (NaN as null)."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_lists(v) for v in value]
    if isinstance(value, np.ndarray):
        return [[None if math.isnan(x) else x for x in row] for row in value.tolist()]
    return value


def test_export_names_its_functions_after_the_name_given(tmp_path):
    m = nhlab.gallery("chaplygin-sleigh")
    text = m.export("c", name="sleigh")
    assert "int sleigh_rhs(" in text
    out = tmp_path / "sleigh.c"
    assert cli("export", scenario_path("chaplygin-sleigh"), "--lang", "c", "--out", str(out)) == ""
    assert out.read_text(encoding="utf-8") == text


def test_a_ball_rolls_down_an_incline_as_the_closed_form_says():
    # s(t) = (5/14) g sin(α) t²; N = m g cos α; friction (2/7) m g sin α.
    m = nhlab.gallery("ball-on-incline").with_parameters(alpha=0.3)
    frame = m.run(t_end=1.0, methods=["lagrange"], sample_at=[0.25, 0.5, 1.0])
    g, alpha, mass = 9.81, 0.3, m.parameters["m"]
    for _, row in frame.iterrows():
        t = row["t"]
        assert row["s"] == pytest.approx(5 / 14 * g * math.sin(alpha) * t * t, rel=1e-8)
        assert row["N_ball on incline"] == pytest.approx(mass * g * math.cos(alpha), rel=1e-9)
        assert row["Ft_ball on incline"] == pytest.approx(2 / 7 * mass * g * math.sin(alpha), rel=1e-9)
    assert m.parameters["alpha"] == 0.3 and nhlab.gallery("ball-on-incline").parameters["alpha"] == 0.5


def test_the_pendulums_small_oscillations_have_the_closed_form_frequency():
    m = nhlab.gallery("cart-pole")
    lin = m.linearize(sweep=False)
    rows = lin["rows"]
    assert rows, "a linearisation"
    # Each row's eigenvalues are (re, im) pairs: the analysis the CLI prints.
    eig = np.array(rows[0]["eigenvalues"], dtype=float)
    assert eig.shape[1] == 2


def test_a_model_pickles_as_its_text_and_computes_the_same():
    m = nhlab.gallery("rolling-disk").with_parameters(r=0.4)
    back = pickle.loads(pickle.dumps(m))
    assert back.text == m.text and back.parameters == m.parameters
    pd.testing.assert_frame_equal(back.run(t_end=0.2), m.run(t_end=0.2), check_exact=True)


def test_python_runs_beside_a_computation():
    # The GIL is released while the core computes: a Python thread keeps counting
    # through the middle of a run (with the GIL held it would make no progress until
    # the call returned). It notes the time every 10,000 counts.
    m = nhlab.gallery("whipple-bicycle")
    ticks = []
    running = threading.Event()

    def count():
        n = 0
        while running.is_set():
            n += 1
            if n % 10_000 == 0:
                ticks.append(time.perf_counter())

    running.set()
    counter = threading.Thread(target=count)
    counter.start()
    started = time.perf_counter()
    m.run(t_end=6.0, methods=["lagrange"], columns="state")
    ended = time.perf_counter()
    running.clear()
    counter.join()
    middle = [t for t in ticks if started + 0.3 * (ended - started) < t < started + 0.7 * (ended - started)]
    assert len(middle) > 10, f"{len(middle)} ticks in the middle of a {ended - started:.3f} s run"


def test_two_threads_run_two_models_at_once():
    # Two runs in two threads take well under twice one run (on two cores); measured
    # against one run in the same test, the best of three tries (a machine busy with
    # something else has one core for both).
    m = nhlab.gallery("whipple-bicycle")

    def one():
        m.run(t_end=3.0, methods=["lagrange"])

    def two():
        threads = [threading.Thread(target=one) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    one()  # warm: the first run pages the code in
    ratios = []
    for _ in range(3):
        single = min(_timed(one) for _ in range(2))
        double = _timed(two)
        ratios.append(double / single)
        print(f"one run {single:.3f} s, two in two threads {double:.3f} s ({double / single:.2f}x)")
        if ratios[-1] < 1.6:
            break
    # Whether the GIL is released is the test above (it holds on a busy machine);
    # this one needs two free cores, which a machine busy with something else (the
    # load average says so) has not: there the ratio is printed above, not judged.
    free = (os.cpu_count() or 1) - os.getloadavg()[0]
    if free >= 1.5:
        assert min(ratios) < 1.6, f"two threads took {min(ratios):.2f} times one run ({free:.1f} cores free)"


def _timed(f):
    started = time.perf_counter()
    f()
    return time.perf_counter() - started


def test_a_bad_scenario_is_refused_with_each_problem_at_its_place():
    text = 'format = "nhlab/1"\ntitle = "t"\ncoordinates = ["x"]\nkinetic = "x\'^2/2 +"\n[initial]\nq = { x = 1 }\n'
    with pytest.raises(nhlab.ScenarioError) as raised:
        nhlab.load(text)
    problems = raised.value.problems
    assert isinstance(raised.value, ValueError)
    assert [(p.field, p.line, p.column) for p in problems] == [("kinetic", 4, 20)], problems
    assert "expected an expression" in problems[0].message


def test_bad_options_are_refused_and_no_panic_reaches_python():
    m = nhlab.gallery("chaplygin-sleigh")
    with pytest.raises(nhlab.ScenarioError):
        m.run(t_end=1, methods=["no-such-method"])
    with pytest.raises(nhlab.ScenarioError):
        m.eval(q={"nope": 1.0})
    with pytest.raises(ValueError):
        m.run(t_end=float("nan"))
    with pytest.raises(KeyError):
        nhlab.gallery("no-such-item")
    with pytest.raises(nhlab.ScenarioError) as raised:
        m.with_parameters(nope=1.0)
    assert raised.value.problems[0].field == "parameters.nope"


def test_load_takes_a_path_or_the_text_and_json():
    path = scenario_path("chaplygin-sleigh")
    by_path = nhlab.load(path)
    with open(path, encoding="utf-8") as f:
        assert by_path.text == f.read()
    assert nhlab.load(by_path.text).title == by_path.title
    as_json = json.dumps(
        {
            "format": "nhlab/1",
            "title": "oscillator",
            "coordinates": ["x"],
            "parameters": {"k": 4.0},
            "kinetic": "x'^2/2",
            "potential": "k*x^2/2",
            "initial": {"q": {"x": 1}},
        }
    )
    m = nhlab.load(as_json).with_parameters(k=9.0)
    frame = m.run(t_end=1.0, sample_at=[1.0], methods=["lagrange"])
    assert frame["x"].iloc[-1] == pytest.approx(math.cos(3.0), abs=1e-7)
    assert m.check()["coordinates"] == ["x"]


def test_equations_are_the_derivations():
    m = nhlab.gallery("chaplygin-sleigh")
    eq = m.equations("lagrange")
    assert eq.text == cli("derive", scenario_path("chaplygin-sleigh"), "--method", "lagrange")
    assert eq.latex == cli("derive", scenario_path("chaplygin-sleigh"), "--method", "lagrange", "--format", "latex")
    assert eq.terms["mass_matrix"] and eq.terms["constraint_jacobian"]


def test_inputs_and_a_reference_state_are_passed_as_the_command_lines_options():
    m = nhlab.gallery("cart-pole")
    assert m.inputs == ["F"]
    path = scenario_path("cart-pole")
    pushed = m.run(t_end=1.0, inputs={"F": 2.5}, columns="state")
    printed = cli("run", path, "--t-end", "1.0", "--input", "F=2.5", "--columns", "state")
    pd.testing.assert_frame_equal(pushed, pd.read_csv(io.StringIO(printed), float_precision="round_trip"), check_exact=True)
    # A push moves the cart: not the unpushed run.
    assert pushed["x"].iloc[-1] != m.run(t_end=1.0, columns="state")["x"].iloc[-1]
    signal = m.run(t_end=1.0, inputs={"F": "sin(t)"}, columns="state")
    printed = cli("run", path, "--t-end", "1.0", "--input", "F=sin(t)", "--columns", "state")
    pd.testing.assert_frame_equal(signal, pd.read_csv(io.StringIO(printed), float_precision="round_trip"), check_exact=True)
    lin = m.linearize(at={"theta": 0.0, "x'": 0.5}, sweep=False, state_space=True)
    want = json.loads(cli("linearize", path, "--at", "theta=0.0,x'=0.5", "--no-sweep", "--state-space", "--format", "json"))
    assert json.dumps(_lists(lin), sort_keys=True) == json.dumps(want, sort_keys=True)
    assert lin["B"].shape[1] == 1, "one input"


def _chinese(text):
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def test_problems_and_notes_are_said_in_the_language_chosen():
    text = 'format = "nhlab/1"\ntitle = "t"\ncoordinates = ["x"]\nkinetic = "x\'^2/2 +"\n[initial]\nq = { x = 1 }\n'
    said = {}
    for language in ["en", "zh", "zh-CN"]:
        with pytest.raises(nhlab.ScenarioError) as raised:
            nhlab.load(text, language=language)
        said[language] = raised.value.problems
    # The same places; the words the command line's in that language.
    assert [(p.field, p.line, p.column) for p in said["zh"]] == [(p.field, p.line, p.column) for p in said["en"]]
    assert said["zh"] == said["zh-CN"]
    assert _chinese(said["zh"][0].message) and "expected" not in said["zh"][0].message
    status, _, err = _nhlab_cli(["check", "-", "--language", "zh"], text)
    assert status == 2 and said["zh"][0].message in err
    # A run's notes in Chinese, its numbers unchanged; the language travels with the
    # model (with_parameters, pickling).
    sleigh = nhlab.gallery("chaplygin-sleigh", language="zh")
    assert sleigh.language == "zh"
    frame = sleigh.run(t_end=2)
    pd.testing.assert_frame_equal(frame, nhlab.gallery("chaplygin-sleigh").run(t_end=2), check_exact=True)
    notes = frame.attrs["notes"]
    assert any(_chinese(n) and "1.14782" in n for n in notes), notes
    assert pickle.loads(pickle.dumps(sleigh)).language == "zh"
    assert sleigh.with_parameters(m=2.0).language == "zh"
    with pytest.raises(nhlab.ScenarioError) as raised:
        sleigh.with_parameters(nope=1.0)
    assert _chinese(raised.value.problems[0].message)
    with pytest.raises(ValueError, match="unknown language"):
        nhlab.gallery("chaplygin-sleigh", language="fr")


def _nhlab_cli(args, stdin):
    """The binary's exit status, output and notes."""
    done = subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr
