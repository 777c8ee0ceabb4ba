"""nhlab.Lab without a browser: what it holds, what it refuses, and its runs against
Model.run (the browser's side: tests/browser/widget.test.mjs and
tests/notebooks/jupyterlab.test.mjs)."""

import json
import subprocess
import sys

import pytest
import traitlets

import nhlab
from nhlab.widget import MODULE


def test_import_nhlab_does_not_import_the_widget():
    code = "import sys, nhlab; print('anywidget' in sys.modules, 'ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    assert nhlab.Lab.__name__ == "Lab"


def test_a_lab_holds_the_model_and_how_it_shows():
    lab = nhlab.Lab(nhlab.gallery("cart-pole"), panel="energy", controls="parameters,methods", height=500, language="zh")
    assert lab.scenario == nhlab.gallery("cart-pole").text
    assert lab.parameters == {"M": 1.0, "m": 0.2, "l": 0.5, "g": 9.81}
    assert lab.inputs == {"F": 0.0}
    assert lab.methods == ["lagrange"]  # the scenario's run.methods, not every method that applies
    assert nhlab.Lab(nhlab.gallery("chaplygin-sleigh")).methods == ["lagrange", "hamel", "gauss"]
    assert (lab.panel, lab.controls, lab.height, lab.language) == ("energy", ["parameters", "methods"], 500, "zh")
    assert lab.title.startswith("Cart-pole")
    # The state that reaches the browser (and a saved notebook) is plain JSON, the module with it.
    state = lab.get_state()
    json.dumps({k: v for k, v in state.items() if k != "_esm"})
    assert state["_esm"] == MODULE.read_text(encoding="utf-8")
    assert "nhlab-lab" in state["_esm"]


def test_a_lab_opens_text_and_paths(tmp_path):
    text = nhlab.gallery("chaplygin-sleigh").text
    path = tmp_path / "sleigh.toml"
    path.write_text(text, encoding="utf-8")
    assert nhlab.Lab(text).scenario == text
    assert nhlab.Lab(str(path)).scenario == text
    assert nhlab.Lab(text).controls == ["parameters"]


def test_what_a_lab_refuses_is_said_and_changes_nothing():
    lab = nhlab.Lab(nhlab.gallery("chaplygin-sleigh"))
    before = lab.get_state()
    with pytest.raises(traitlets.TraitError, match="no parameter `mass`.*m, a, I"):
        lab.parameters = {"mass": 2}
    with pytest.raises(traitlets.TraitError, match="must be finite"):
        lab.parameters = {"m": float("nan")}
    with pytest.raises(traitlets.TraitError, match="not a number"):
        lab.parameters = {"m": "heavy"}
    with pytest.raises(traitlets.TraitError, match="choose from lagrange"):
        lab.methods = ["newton"]
    with pytest.raises(traitlets.TraitError, match="none given"):
        lab.methods = []
    with pytest.raises(traitlets.TraitError, match="finite time"):
        lab.t = float("inf")
    with pytest.raises(traitlets.TraitError, match="`en` or `zh`"):
        lab.language = "fr"
    with pytest.raises(traitlets.TraitError, match="no input"):
        lab.inputs = {"F": 1}
    with pytest.raises(nhlab.ScenarioError, match="kinetic"):
        lab.scenario = 'format = "nhlab/1"\ncoordinates = ["x"]\nkinetic = "x\'^2 +"\n'
    with pytest.raises(ValueError, match="no control 'sliders'"):
        nhlab.Lab(nhlab.gallery("chaplygin-sleigh"), controls=["sliders"])
    assert lab.get_state() == before


def test_its_runs_are_model_run_of_what_it_plays():
    lab = nhlab.Lab(nhlab.gallery("cart-pole"))
    lab.parameters = {"m": 0.5}
    lab.inputs = {"F": 1.0}
    lab.methods = ["lagrange", "gauss"]
    expected = nhlab.gallery("cart-pole").with_parameters(m=0.5).run(methods=["lagrange", "gauss"], inputs={"F": 1.0})
    runs = lab.runs
    assert runs.equals(expected)
    assert sorted(runs["method"].unique()) == ["gauss", "lagrange"]
    # A value the lab has not answered yet is in its model already; the text is the lab's.
    assert lab.model.parameters["m"] == 0.5
    assert lab.scenario == nhlab.gallery("cart-pole").text


def test_a_lab_as_a_myst_directive_carries_its_values(tmp_path):
    from nhlab.widget import save_module

    lab = nhlab.Lab(nhlab.gallery("chaplygin-sleigh"), panel="energy", height=480)
    lab.parameters = {"m": 2.0}
    directive = lab.myst("labs/nhlab-lab.mjs")
    head, body, end = directive.split("\n", 1)[0], directive.split("\n", 1)[1].rsplit("```", 1)[0], directive.rstrip().rsplit("\n", 1)[1]
    assert head == "```{anywidget} labs/nhlab-lab.mjs" and end == "```"
    values = json.loads(body)
    assert values["scenario"] == nhlab.gallery("chaplygin-sleigh").with_parameters(m=2.0).text
    assert values["parameters"] == {"m": 2.0, "a": 0.5, "I": 0.2}
    assert (values["panel"], values["height"], values["controls"]) == ("energy", 480, ["parameters"])
    written = save_module(tmp_path)
    assert written == tmp_path / "nhlab-lab.mjs"
    assert written.read_bytes() == MODULE.read_bytes()
